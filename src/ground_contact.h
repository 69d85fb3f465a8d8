/* The chassis box against the ground, and the world's edges (ground_contact.c). Not public. */
#ifndef GRIP_GROUND_CONTACT_H
#define GRIP_GROUND_CONTACT_H

#include <math.h>

#include "gmath.h"
#include "vehicle_internal.h"

/* The type's box points (t->box_points) from its definition and t->com_design: bottom (even
 * indices) and top (odd) in turn, the pair (sx, sy) (each of x and y at −1, 0 or +1 half extent,
 * y at ±1) at 2·((sx + 1) + 3·(sy > 0)). */
void grip_ground_box_points(vehicle_type *t);

/* The type's box_wheel_reach and contact_reach, from its box points and wheels (after both). A
 * wheel's contact lies on its ray, hardpoint + (ray_lift − distance)·z in the body frame with
 * distance in [0, ray_lift + radius + max_length]. */
void grip_ground_wheel_reach(vehicle_type *t);

/* The index of the box's highest top point for a rotation whose last row is r2: a body-frame
 * point's world height is pos.z + r2·local (v3_dot). The top points share their z and differ in
 * x (o.x − hx, o.x, o.x + hx) and y (o.y ± hy); each product r2.x·x and r2.y·y, and each sum
 * after them, is rounded monotonically, so the corner on the side of r2.x's and r2.y's signs is
 * at least as high as every other top point after rounding too: the six points' maximum, bit for
 * bit. */
static inline int grip_ground_highest_top_point(grip_vec3 r2) {
  int sx = r2.x >= 0.0 ? 2 : 0, sy = r2.y >= 0.0 ? 3 : 0;
  return 2 * (sx + sy) + 1;
}

#define GROUND_TOUCH 0.002 /* m: points closer than this to the ground take part in the solve */

/* The box's part of its points' height along a normal n, for m = Rᵀn, the box's half extents h
 * and centre o (vehicle_type.box_half, box_offset): o·m − |hx·mx| − |hy·my|, the least over a
 * layer's points (x at o.x and o.x ± hx, y at o.y ± hy); a layer adds its sz·hz·mz. */
static inline double grip_ground_box_part_along(grip_vec3 h, grip_vec3 o, grip_vec3 m) {
  return v3_dot(o, m) - fabs(h.x * m.x) - fabs(h.y * m.y);
}

/* On grip's own plane (n·x = offset), whether every box point stands clear of it for certain.
 * The box's lowest point's height above the plane is n·pos + box part (m) − hz·|m.z| − offset
 * with m = Rᵀn (the layer bound's sum, for the one exact plane), in any orientation, upright or
 * not. A probe's ray would count a point as touching only below GROUND_TOUCH; beyond that and a
 * margin for rounding (the ray works out its hit point and depth by other sums, within ~10 ulp of
 * the coordinates: ~2e-15 per metre of them, where the margin is PLANE_MARGIN per metre), the
 * probe finds no point, so leaving it out gives the same result.
 * The gate over the wheels' planes and the flatness claims are left out with it: −139
 * instructions a vehicle-step on the plane. tests/test_solid_ground.c
 * own_plane_gate_changes_nothing holds it to the same plane through a user's callback. */
#define PLANE_MARGIN 1e-9
static inline bool grip_ground_clear_of_own_plane(const vehicle *v, const grip_world_def *world) {
  if (world->ground.raycast != grip_plane_raycast) return false;
  const grip_plane *plane = world->ground.context;
  grip_vec3 n = plane->normal, p = v->position, h = v->type->box_half;
  grip_vec3 m = quat_unrotate(v->rotation, n); /* Rᵀn from the quaternion: no matrix is needed here */
  /* the bottom layer's box part when m.z > 0, the top's otherwise: the lower of the two */
  double lowest =
      v3_dot(n, p) + grip_ground_box_part_along(h, v->type->box_offset, m) - fabs(h.z * m.z) - plane->offset;
  double margin = PLANE_MARGIN * (1.0 + fabs(p.x) + fabs(p.y) + fabs(p.z) + fabs(plane->offset));
  return lowest > GROUND_TOUCH + margin;
}

/* After the body was integrated: pushes the body box out of the ground with impulses (swept from
 * the step's start pose) and sets v->ground_points and v->ground_impulse. start_rot is
 * mat3_from_quat(start_rotation), which the step has already worked out. The gate of grip's own
 * plane is inline: on it, nearly every step of a car on its wheels ends there, without the call
 * to grip_ground_contact_resolve (the rest of it), whose saving and restoring of registers alone
 * cost 29 instructions a vehicle-step. */
void grip_ground_contact_resolve(vehicle *v, const grip_world_def *world, const grip_vec3 *start_position,
                                 const grip_quat *start_rotation, const mat3 *start_rot, double dt);
static inline void grip_ground_contact_step(vehicle *v, const grip_world_def *world, const grip_vec3 *start_position,
                                            const grip_quat *start_rotation, const mat3 *start_rot, double dt) {
  v->ground_points = 0;
  v->ground_impulse = 0.0;
  if (!world->ground.raycast || grip_ground_clear_of_own_plane(v, world)) return;
  grip_ground_contact_resolve(v, world, start_position, start_rotation, start_rot, dt);
}

/* Position only: moves the body box out of the ground down to the slop (after another vehicle
 * pushed it). */
void grip_ground_contact_push_out(vehicle *v, const grip_world_def *world);

/* Whether there is no ground within world->void_depth below the vehicle's centre of mass. */
bool grip_ground_none_below(vehicle *v, const grip_world_def *world);

/* True when the vehicle has left the world: its centre of mass is outside the world's bounds, or
 * nothing of it touches the ground and there is no ground within world->void_depth below it.
 * Inline: every step asks, and nearly always a wheel touches. */
static inline bool grip_ground_left_world(vehicle *v, const grip_world_def *world, int n_wheels) {
  grip_vec3 p = v->position, lo = world->bounds_min, hi = world->bounds_max;
  if (!(p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y && p.z >= lo.z && p.z <= hi.z)) return true;
  if (v->ground_points > 0) return false;
  for (int i = 0; i < n_wheels; ++i)
    if (v->wheels[i].in_contact) return false;
  return grip_ground_none_below(v, world);
}

#endif
