/* Contact resolution shared by the collision passes (src/collision.c: walls and vehicle pairs)
 * and the chassis against the ground (src/ground_contact.c): rigid-body impulses on a vehicle's
 * body, a sequential-impulse solver with restitution and Coulomb friction, and moving a body
 * along its step. The method is written up in docs/physics.md ("Collisions"). Not public. */
#ifndef GRIP_CONTACT_H
#define GRIP_CONTACT_H

#include "gmath.h"
#include "vehicle_internal.h"

#define CONTACT_RESTITUTION_SPEED 0.5 /* m/s: slower approaches are resolved inelastically */

/* A body taking part in a contact: a vehicle's chassis, or the static world (v NULL). */
typedef struct body {
  vehicle *v; /* NULL: the static world */
  double inv_mass;
  grip_vec3 inv_inertia; /* principal, body frame */
  mat3 rot;
} body;

typedef struct contact {
  grip_vec3 point;  /* world */
  grip_vec3 normal; /* unit, from body a to body b: b is pushed along it */
  grip_vec3 t1, t2; /* tangents */
  double target;    /* normal separation speed wanted after the solve */
  /* m/s, world: the static body's own surface velocity at the point (a moving ground); zero
   * for walls, other cars and a still ground. The solve works on the velocity relative to it. */
  grip_vec3 surface_velocity;
  double surface_speed[3]; /* m/s, its components along n, t1, t2 (grip_contact_solve fills them) */
  double jn, jt1, jt2; /* accumulated impulses, N·s */
  /* The solver's per-contact constants (grip_contact_solve fills them): for each direction d
   * of n, t1, t2, the lever r × d (m) and the angular response I_w⁻¹·(r × d) (1/(kg·m)) of
   * each body, and the effective masses (kg) along n, t1, t2: 1 / Σ (1/m + (r×d)·I_w⁻¹·(r×d)),
   * the sum over both bodies (the static world adds nothing). */
  grip_vec3 lever_a[3], lever_b[3];
  grip_vec3 spin_a[3], spin_b[3];
  double mass_n, mass_t1, mass_t2;
} contact;

typedef struct solve_result {
  double impulse;  /* N·s, sum of normal impulses */
  double approach; /* m/s, fastest approach before the solve */
} solve_result;

/* The body of a vehicle at its current pose; NULL gives the static world. */
body grip_contact_make_body(vehicle *v);

/* I_w⁻¹·x with I_w = R·I·Rᵀ (zero for the static world). */
grip_vec3 grip_contact_inv_inertia_world(const body *b, grip_vec3 x);
/* Velocity of the body's point at r from its CG (world frame; zero for the static world). */
grip_vec3 grip_contact_point_velocity(const body *b, grip_vec3 r);
/* Applies impulse j (N·s, world) at r from the CG. */
void grip_contact_apply_impulse(body *b, grip_vec3 r, grip_vec3 j);

/* Solves the n contacts between a and b (b must be a vehicle) with the given restitution
 * (applied above CONTACT_RESTITUTION_SPEED) and friction coefficient; changes velocities only. */
solve_result grip_contact_solve(body *a, body *b, contact *ks, int n, double restitution, double mu);

/* Pose at fraction s (0..1) of the step, between a start pose and the vehicle's current pose. */
void grip_contact_pose_between(grip_vec3 p0, grip_quat q0, const vehicle *v, double s, grip_vec3 *p, grip_quat *q);

/* Moves the body on for tau seconds at its current velocities. */
void grip_contact_advance(vehicle *v, double tau);

#endif
