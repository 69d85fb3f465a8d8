/* The chassis box against the ground, and the world's edges (ground_contact.c). Not public. */
#ifndef GRIP_GROUND_CONTACT_H
#define GRIP_GROUND_CONTACT_H

#include "vehicle_internal.h"

/* The type's box points (t->box_points) from its definition and t->com_design. */
void grip_ground_box_points(vehicle_type *t);

/* After the body was integrated: pushes the body box out of the ground with impulses (swept from
 * the step's start pose) and sets v->ground_points and v->ground_impulse. start_rot is
 * mat3_from_quat(start_rotation), which the step has already worked out. */
void grip_ground_contact_step(vehicle *v, const grip_world_def *world, grip_vec3 start_position, grip_quat start_rotation,
                              const mat3 *start_rot, double dt);

/* Position only: moves the body box out of the ground down to the slop (after another vehicle
 * pushed it). */
void grip_ground_contact_push_out(vehicle *v, const grip_world_def *world);

/* True when the vehicle has left the world: its centre of mass is outside the world's bounds, or
 * nothing of it touches the ground and there is no ground within world->void_depth below it. */
bool grip_ground_left_world(vehicle *v, const grip_world_def *world);

#endif
