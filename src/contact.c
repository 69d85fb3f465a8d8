/* Contact resolution shared by the collision passes and the chassis-ground contact
 * (contact.h). */
#include <math.h>
#include <string.h>

#include "contact.h"
#include "gmath.h"

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

/* 1/m + (r×d)·I_w⁻¹·(r×d): the inverse effective mass of a body at r along d. */
static double inverse_mass_along(const body *b, grip_vec3 r, grip_vec3 d) {
  if (!b->v) return 0.0;
  grip_vec3 rd = v3_cross(r, d);
  return b->inv_mass + v3_dot(rd, grip_contact_inv_inertia_world(b, rd));
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




static grip_vec3 relative_velocity(const body *a, const body *b, const contact *k) {
  return v3_sub(grip_contact_point_velocity(b, k->rb), grip_contact_point_velocity(a, k->ra));
}

solve_result grip_contact_solve(body *a, body *b, contact *ks, int n, double restitution, double mu) {
  solve_result r = {0.0, 0.0};
  for (int i = 0; i < n; ++i) {
    contact *k = &ks[i];
    k->ra = a->v ? v3_sub(k->point, a->v->position) : v3(0, 0, 0);
    k->rb = v3_sub(k->point, b->v->position);
    grip_vec3 nn = k->normal;
    grip_vec3 t = fabs(nn.z) < 0.9 ? v3_cross(nn, v3(0, 0, 1)) : v3_cross(nn, v3(1, 0, 0));
    k->t1 = v3_normalize(t);
    k->t2 = v3_cross(nn, k->t1);
    k->kn = inverse_mass_along(a, k->ra, nn) + inverse_mass_along(b, k->rb, nn);
    k->kt1 = inverse_mass_along(a, k->ra, k->t1) + inverse_mass_along(b, k->rb, k->t1);
    k->kt2 = inverse_mass_along(a, k->ra, k->t2) + inverse_mass_along(b, k->rb, k->t2);
    double vn = v3_dot(relative_velocity(a, b, k), nn);
    double approach = -vn;
    if (approach > r.approach) r.approach = approach;
    k->target = approach > CONTACT_RESTITUTION_SPEED ? restitution * approach : 0.0;
    k->jn = k->jt1 = k->jt2 = 0.0;
  }
  for (int it = 0; it < SOLVER_ITERATIONS; ++it) {
    for (int i = 0; i < n; ++i) {
      contact *k = &ks[i];
      /* friction first, limited by the normal impulse of the previous pass */
      grip_vec3 vr = relative_velocity(a, b, k);
      double d1 = -v3_dot(vr, k->t1) / k->kt1, d2 = -v3_dot(vr, k->t2) / k->kt2;
      double j1 = k->jt1 + d1, j2 = k->jt2 + d2, limit = mu * k->jn;
      double jt = sqrt(j1 * j1 + j2 * j2);
      if (jt > limit) {
        double s = jt > 0.0 ? limit / jt : 0.0;
        j1 *= s;
        j2 *= s;
      }
      d1 = j1 - k->jt1;
      d2 = j2 - k->jt2;
      k->jt1 = j1;
      k->jt2 = j2;
      grip_vec3 jf = v3_add(v3_scale(k->t1, d1), v3_scale(k->t2, d2));
      grip_contact_apply_impulse(b, k->rb, jf);
      grip_contact_apply_impulse(a, k->ra, v3_neg(jf));
      /* normal */
      double vn = v3_dot(relative_velocity(a, b, k), k->normal);
      double jn = maxd(k->jn + (k->target - vn) / k->kn, 0.0);
      double dn = jn - k->jn;
      k->jn = jn;
      grip_vec3 j = v3_scale(k->normal, dn);
      grip_contact_apply_impulse(b, k->rb, j);
      grip_contact_apply_impulse(a, k->ra, v3_neg(j));
    }
  }
  for (int i = 0; i < n; ++i) r.impulse += ks[i].jn;
  return r;
}
