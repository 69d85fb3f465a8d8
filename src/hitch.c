/* Hitches between vehicles (hitch.h): a ball joint solved as a velocity constraint with
 * impulses, then a position projection. docs/physics.md §9 "Hitches". */
#include "hitch.h"

#include <math.h>

#include "contact.h"
#include "gmath.h"

/* The hitch point relative to the body's centre of mass, world frame. */
static grip_vec3 arm(const vehicle *v, grip_vec3 design_point) {
  return quat_rotate(v->rotation, v3_sub(design_point, v->com_design));
}

/* The columns of K = Σ (1/m·1 − [r]×·I_w⁻¹·[r]×) over both bodies: the change of the two
 * points' relative velocity per unit impulse (s/kg). */
static void effective_inverse_mass(const body *a, grip_vec3 ra, const body *b, grip_vec3 rb, grip_vec3 k[3]) {
  const grip_vec3 unit[3] = {v3(1, 0, 0), v3(0, 1, 0), v3(0, 0, 1)};
  for (int c = 0; c < 3; ++c) {
    grip_vec3 col = v3_scale(unit[c], a->inv_mass + b->inv_mass);
    col = v3_add(col, v3_cross(grip_contact_inv_inertia_world(a, v3_cross(ra, unit[c])), ra));
    col = v3_add(col, v3_cross(grip_contact_inv_inertia_world(b, v3_cross(rb, unit[c])), rb));
    k[c] = col;
  }
}

/* Solves K·x = y by Cramer's rule (K is symmetric positive definite for two bodies with mass);
 * false when it is singular. */
static bool solve3(const grip_vec3 k[3], grip_vec3 y, grip_vec3 *x) {
  double det = v3_dot(k[0], v3_cross(k[1], k[2]));
  if (!(fabs(det) > 1e-300) || !isfinite(det)) return false;
  *x = v3(v3_dot(y, v3_cross(k[1], k[2])) / det, v3_dot(k[0], v3_cross(y, k[2])) / det,
          v3_dot(k[0], v3_cross(k[1], y)) / det);
  return finite3_ok(*x);
}

static bool usable(const vehicle *v) { return v->alive && !v->out_of_world; }

/* Fifth wheel: the tow's pitch axis u_a (its y) and the trailer's kingpin axis u_b (its z) stay
 * perpendicular, C = u_a·u_b = 0 (a universal joint: yaw about u_b and pitch about u_a stay
 * free). Ċ = (ω_a − ω_b)·w with w = u_a × u_b, the roll axis. */
static double roll_constraint(const vehicle *tow, const vehicle *trailer, grip_vec3 *w) {
  grip_vec3 ua = quat_rotate(tow->rotation, v3(0, 1, 0)), ub = quat_rotate(trailer->rotation, v3(0, 0, 1));
  *w = v3_cross(ua, ub);
  return v3_dot(ua, ub);
}

/* w·(I_a⁻¹ + I_b⁻¹)·w: the constraint's inverse effective inertia. */
static double roll_inverse_inertia(const body *a, const body *b, grip_vec3 w) {
  return v3_dot(w, v3_add(grip_contact_inv_inertia_world(a, w), grip_contact_inv_inertia_world(b, w)));
}

void grip_hitch_solve_velocities(hitch *hitches, int n, vehicle *vehicles, double dt, int iterations) {
  for (int i = 0; i < n; ++i) {
    hitches[i].impulse = v3(0, 0, 0);
    hitches[i].roll_impulse = 0.0;
  }
  for (int it = 0; it < iterations; ++it)
    for (int i = 0; i < n; ++i) {
      hitch *h = &hitches[i];
      if (!h->alive) continue;
      vehicle *tow = &vehicles[h->slot_tow], *trailer = &vehicles[h->slot_trailer];
      if (!usable(tow) || !usable(trailer)) continue;
      body a = grip_contact_make_body(tow), b = grip_contact_make_body(trailer);
      grip_vec3 ra = arm(tow, h->point_tow), rb = arm(trailer, h->point_trailer);
      grip_vec3 relative = v3_sub(grip_contact_point_velocity(&b, rb), grip_contact_point_velocity(&a, ra));
      grip_vec3 k[3], j;
      effective_inverse_mass(&a, ra, &b, rb, k);
      if (!solve3(k, v3_neg(relative), &j)) continue;
      grip_vec3 va = tow->velocity, vb = trailer->velocity;
      grip_contact_apply_impulse(&b, rb, j);
      grip_contact_apply_impulse(&a, ra, v3_neg(j));
      /* the impulse shows in the reported acceleration, as a contact's does */
      tow->acceleration = v3_mad(tow->acceleration, v3_sub(tow->velocity, va), 1.0 / dt);
      trailer->acceleration = v3_mad(trailer->acceleration, v3_sub(trailer->velocity, vb), 1.0 / dt);
      h->impulse = v3_add(h->impulse, j);
      if (h->lock_roll) {
        grip_vec3 w;
        roll_constraint(tow, trailer, &w);
        double k_roll = roll_inverse_inertia(&a, &b, w);
        if (k_roll > 1e-12) {
          /* angular impulse λ·w on the trailer, −λ·w on the tow, cancelling Ċ */
          double lambda = v3_dot(v3_sub(tow->angular_velocity, trailer->angular_velocity), w) / k_roll;
          trailer->angular_velocity = v3_add(trailer->angular_velocity, grip_contact_inv_inertia_world(&b, v3_scale(w, lambda)));
          tow->angular_velocity = v3_sub(tow->angular_velocity, grip_contact_inv_inertia_world(&a, v3_scale(w, lambda)));
          h->roll_impulse += lambda * v3_length(w);
        }
      }
    }
  for (int i = 0; i < n; ++i) {
    hitches[i].force = v3_scale(hitches[i].impulse, 1.0 / dt);
    hitches[i].roll_moment = hitches[i].roll_impulse / dt;
  }
}

/* Turns the body by the small rotation vector theta (rad, world frame). */
static void turn(vehicle *v, grip_vec3 theta) {
  grip_quat dq = quat_mul((grip_quat){0.0, theta.x, theta.y, theta.z}, v->rotation);
  v->rotation = quat_normalize((grip_quat){v->rotation.w + 0.5 * dq.w, v->rotation.x + 0.5 * dq.x,
                                           v->rotation.y + 0.5 * dq.y, v->rotation.z + 0.5 * dq.z});
}

static double gap_of(const hitch *h, const vehicle *vehicles, grip_vec3 *separation, grip_vec3 *ra, grip_vec3 *rb) {
  const vehicle *tow = &vehicles[h->slot_tow], *trailer = &vehicles[h->slot_trailer];
  *ra = arm(tow, h->point_tow);
  *rb = arm(trailer, h->point_trailer);
  *separation = v3_sub(v3_add(trailer->position, *rb), v3_add(tow->position, *ra));
  return v3_length(*separation);
}

void grip_hitch_solve_positions(hitch *hitches, int n, vehicle *vehicles, int iterations, double tolerance) {
  for (int it = 0; it < iterations; ++it) {
    bool all_met = true;
    for (int i = 0; i < n; ++i) {
      hitch *h = &hitches[i];
      if (!h->alive) continue;
      vehicle *tow = &vehicles[h->slot_tow], *trailer = &vehicles[h->slot_trailer];
      if (!usable(tow) || !usable(trailer)) continue;
      grip_vec3 separation, ra, rb, k[3], p, w;
      bool roll_off = h->lock_roll && fabs(roll_constraint(tow, trailer, &w)) > tolerance;
      if (gap_of(h, vehicles, &separation, &ra, &rb) < tolerance && !roll_off) continue;
      all_met = false;
      /* Non-linear Gauss–Seidel: the "impulse" p that would close the gap at unit time, applied
       * to the positions and orientations instead of the velocities. */
      body a = grip_contact_make_body(tow), b = grip_contact_make_body(trailer);
      effective_inverse_mass(&a, ra, &b, rb, k);
      if (!solve3(k, v3_neg(separation), &p)) continue;
      trailer->position = v3_mad(trailer->position, p, b.inv_mass);
      turn(trailer, grip_contact_inv_inertia_world(&b, v3_cross(rb, p)));
      tow->position = v3_mad(tow->position, p, -a.inv_mass);
      turn(tow, v3_neg(grip_contact_inv_inertia_world(&a, v3_cross(ra, p))));
      if (h->lock_roll) {
        a = grip_contact_make_body(tow);
        b = grip_contact_make_body(trailer);
        double c = roll_constraint(tow, trailer, &w), k_roll = roll_inverse_inertia(&a, &b, w);
        if (k_roll > 1e-12) {
          /* turning the trailer by λ·I_b⁻¹·w and the tow by −λ·I_a⁻¹·w changes C by −k·λ */
          double lambda = c / k_roll;
          turn(trailer, grip_contact_inv_inertia_world(&b, v3_scale(w, lambda)));
          turn(tow, v3_neg(grip_contact_inv_inertia_world(&a, v3_scale(w, lambda))));
        }
      }
    }
    if (all_met) break;
  }
  for (int i = 0; i < n; ++i) {
    hitch *h = &hitches[i];
    grip_vec3 separation, ra, rb;
    bool both = h->alive && usable(&vehicles[h->slot_tow]) && usable(&vehicles[h->slot_trailer]);
    h->gap = both ? gap_of(h, vehicles, &separation, &ra, &rb) : 0.0;
    grip_vec3 w;
    h->roll_error = both && h->lock_roll
                        ? asin(clampd(roll_constraint(&vehicles[h->slot_tow], &vehicles[h->slot_trailer], &w), -1.0, 1.0))
                        : 0.0;
  }
}
