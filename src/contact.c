/* Contact resolution shared by the collision passes and the chassis-ground contact
 * (contact.h). */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "contact.h"
#include "gmath.h"
#include "isa.h"

#define SOLVER_ITERATIONS 24

body grip_contact_make_body(vehicle *v) {
  body b;
  memset(&b, 0, sizeof b);
  if (!v) return b;
  b.v = v;
  b.inv_mass = 1.0 / (v->body_mass + v->fuel_mass);
  b.inv_inertia = v3(1.0 / v->inertia.x, 1.0 / v->inertia.y, 1.0 / v->inertia.z);
  b.rot = mat3_from_quat(v->rotation);
  return b;
}

grip_vec3 grip_contact_inv_inertia_world(const body *b, grip_vec3 x) {
  grip_vec3 l = mat3_mul_transposed(&b->rot, x);
  return mat3_mul(&b->rot, v3(l.x * b->inv_inertia.x, l.y * b->inv_inertia.y, l.z * b->inv_inertia.z));
}

grip_vec3 grip_contact_point_velocity(const body *b, grip_vec3 r) {
  if (!b->v) return v3(0, 0, 0);
  return v3_add(b->v->velocity, v3_cross(b->v->angular_velocity, r));
}

void grip_contact_apply_impulse(body *b, grip_vec3 r, grip_vec3 j) {
  if (!b->v) return;
  b->v->velocity = v3_mad(b->v->velocity, j, b->inv_mass);
  b->v->angular_velocity = v3_add(b->v->angular_velocity, grip_contact_inv_inertia_world(b, v3_cross(r, j)));
}

/* Pose at fraction s of the step, between the start pose (p0, q0) and the vehicle's current one. */
void grip_contact_pose_between(grip_vec3 p0, grip_quat q0, const vehicle *v, double s, grip_vec3 *p, grip_quat *q) {
  grip_quat q1 = v->rotation;
  double dot = q0.w * q1.w + q0.x * q1.x + q0.y * q1.y + q0.z * q1.z;
  double sign = dot < 0.0 ? -1.0 : 1.0;
  *p = v3_add(p0, v3_scale(v3_sub(v->position, p0), s));
  *q = quat_normalize((grip_quat){q0.w + s * (sign * q1.w - q0.w), q0.x + s * (sign * q1.x - q0.x),
                                  q0.y + s * (sign * q1.y - q0.y), q0.z + s * (sign * q1.z - q0.z)});
}

/* Moves the body on for tau seconds at its current velocities. */
void grip_contact_advance(vehicle *v, double tau) {
  if (!(tau > 0.0)) return;
  v->position = v3_mad(v->position, v->velocity, tau);
  grip_vec3 w = v->angular_velocity;
  grip_quat dq = quat_mul((grip_quat){0.0, w.x, w.y, w.z}, v->rotation);
  v->rotation = quat_normalize((grip_quat){v->rotation.w + 0.5 * tau * dq.w, v->rotation.x + 0.5 * tau * dq.x,
                                           v->rotation.y + 0.5 * tau * dq.y, v->rotation.z + 0.5 * tau * dq.z});
}




/* The solver works on the two bodies' velocities held in locals (the static world's stay zero)
 * and on per-contact constants, so a pass costs a few dot products per direction: the relative
 * velocity along d at the contact is d·(v_b − v_a) + (r_b × d)·ω_b − (r_a × d)·ω_a, and an
 * impulse λ along d changes v by λ·d/m and ω by λ·I_w⁻¹·(r × d). */
typedef struct solver_velocities {
  grip_vec3 va, wa, vb, wb;
  double inv_ma, inv_mb;
} solver_velocities;

static double speed_along(const solver_velocities *s, const contact *k, grip_vec3 d, int axis) {
  return v3_dot(d, v3_sub(s->vb, s->va)) + v3_dot(k->lever_b[axis], s->wb) - v3_dot(k->lever_a[axis], s->wa) -
         k->surface_speed[axis];
}

static void push_along(solver_velocities *s, const contact *k, grip_vec3 d, int axis, double lambda) {
  s->vb = v3_mad(s->vb, d, lambda * s->inv_mb);
  s->wb = v3_mad(s->wb, k->spin_b[axis], lambda);
  s->va = v3_mad(s->va, d, -lambda * s->inv_ma);
  s->wa = v3_mad(s->wa, k->spin_a[axis], -lambda);
}

GRIP_HOT_CLONES
static solve_result contact_solve_cloned(body *a, body *b, contact *ks, int n, double restitution, double mu) {
  solve_result r = {0.0, 0.0};
  solver_velocities sv = {v3(0, 0, 0), v3(0, 0, 0), b->v->velocity, b->v->angular_velocity, a->inv_mass, b->inv_mass};
  if (a->v) {
    sv.va = a->v->velocity;
    sv.wa = a->v->angular_velocity;
  } else {
    sv.inv_ma = 0.0;
  }
  for (int i = 0; i < n; ++i) {
    contact *k = &ks[i];
    grip_vec3 ra = a->v ? v3_sub(k->point, a->v->position) : v3(0, 0, 0);
    grip_vec3 rb = v3_sub(k->point, b->v->position);
    grip_vec3 nn = k->normal;
    grip_vec3 t = fabs(nn.z) < 0.9 ? v3_cross(nn, v3(0, 0, 1)) : v3_cross(nn, v3(1, 0, 0));
    k->t1 = v3_normalize(t);
    k->t2 = v3_cross(nn, k->t1);
    const grip_vec3 dirs[3] = {nn, k->t1, k->t2};
    double inverse_mass[3];
    for (int axis = 0; axis < 3; ++axis) {
      k->surface_speed[axis] = v3_dot(dirs[axis], k->surface_velocity);
      k->lever_a[axis] = v3_cross(ra, dirs[axis]);
      k->lever_b[axis] = v3_cross(rb, dirs[axis]);
      k->spin_a[axis] = a->v ? grip_contact_inv_inertia_world(a, k->lever_a[axis]) : v3(0, 0, 0);
      k->spin_b[axis] = grip_contact_inv_inertia_world(b, k->lever_b[axis]);
      /* 1/m + (r×d)·I_w⁻¹·(r×d) of each body */
      inverse_mass[axis] = sv.inv_ma + v3_dot(k->lever_a[axis], k->spin_a[axis]) + sv.inv_mb +
                           v3_dot(k->lever_b[axis], k->spin_b[axis]);
    }
    k->mass_n = 1.0 / inverse_mass[0];
    k->mass_t1 = 1.0 / inverse_mass[1];
    k->mass_t2 = 1.0 / inverse_mass[2];
    double approach = -speed_along(&sv, k, nn, 0);
    if (approach > r.approach) r.approach = approach;
    k->target = approach > CONTACT_RESTITUTION_SPEED ? restitution * approach : 0.0;
    k->jn = k->jt1 = k->jt2 = 0.0;
  }
  for (int it = 0; it < SOLVER_ITERATIONS; ++it) {
    /* A pass that changes no impulse leaves the velocities as they were, so every later pass
       would repeat it: stop there. */
    bool changed = false;
    for (int i = 0; i < n; ++i) {
      contact *k = &ks[i];
      /* friction first, limited by the normal impulse of the previous pass */
      double j1 = k->jt1 - speed_along(&sv, k, k->t1, 1) * k->mass_t1;
      double j2 = k->jt2 - speed_along(&sv, k, k->t2, 2) * k->mass_t2;
      double limit = mu * k->jn;
      double jt = sqrt(j1 * j1 + j2 * j2);
      if (jt > limit) {
        double s = jt > 0.0 ? limit / jt : 0.0;
        j1 *= s;
        j2 *= s;
      }
      double d1 = j1 - k->jt1, d2 = j2 - k->jt2;
      if (d1 != 0.0 || d2 != 0.0) changed = true;
      k->jt1 = j1;
      k->jt2 = j2;
      push_along(&sv, k, k->t1, 1, d1);
      push_along(&sv, k, k->t2, 2, d2);
      /* normal */
      double jn = maxd(k->jn + (k->target - speed_along(&sv, k, k->normal, 0)) * k->mass_n, 0.0);
      double dn = jn - k->jn;
      if (dn != 0.0) changed = true;
      k->jn = jn;
      push_along(&sv, k, k->normal, 0, dn);
    }
    if (!changed) break;
  }
  b->v->velocity = sv.vb;
  b->v->angular_velocity = sv.wb;
  if (a->v) {
    a->v->velocity = sv.va;
    a->v->angular_velocity = sv.wa;
  }
  for (int i = 0; i < n; ++i) r.impulse += ks[i].jn;
  return r;
}

solve_result grip_contact_solve(body *a, body *b, contact *ks, int n, double restitution, double mu) {
  return contact_solve_cloned(a, b, ks, n, restitution, mu);
}
