/* The chassis box against the ground, and the world's edges (ground_contact.c). Not public. */
#ifndef GRIP_GROUND_CONTACT_H
#define GRIP_GROUND_CONTACT_H

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

/* After the body was integrated: pushes the body box out of the ground with impulses (swept from
 * the step's start pose) and sets v->ground_points and v->ground_impulse. start_rot is
 * mat3_from_quat(start_rotation), which the step has already worked out. */
void grip_ground_contact_step(vehicle *v, const grip_world_def *world, const grip_vec3 *start_position,
                              const grip_quat *start_rotation, const mat3 *start_rot, double dt);

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
