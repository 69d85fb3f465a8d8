/* Hitches: ball joints between two vehicles' bodies (a car and its trailer), solved after the
 * collisions with impulses on the velocities and a projection of the positions. The method is in
 * docs/physics.md §9 "Hitches". Not public (the API is in include/grip/world.h). */
#ifndef GRIP_HITCH_H
#define GRIP_HITCH_H

#include <stdbool.h>
#include <stdint.h>

#include "grip/world.h"
#include "vehicle_internal.h"

typedef struct hitch {
  bool alive;
  uint32_t generation;
  int slot_tow, slot_trailer;  /* vehicle slots */
  grip_vec3 point_tow;         /* m, on the towing vehicle, its design frame */
  grip_vec3 point_trailer;     /* m, on the trailer, its design frame */
  bool lock_roll;              /* fifth wheel: the tow's y axis stays perpendicular to the
                                  trailer's z axis */
  grip_vec3 impulse;           /* N·s, world frame, on the trailer over the last step */
  grip_vec3 force;             /* N, world frame, impulse / dt */
  double roll_impulse;         /* N·m·s, fifth wheel: about the roll axis, on the trailer */
  double roll_moment;          /* N·m, roll_impulse / dt */
  double roll_error;           /* rad, the remaining roll after the position pass */
  double gap;                  /* m, distance between the two points after the last step */
} hitch;

/* Velocity pass: over `iterations` Gauss–Seidel sweeps of the n hitches, impulses that stop the
 * two points of each separating; accumulates each hitch's impulse (cleared first). dt (s) turns
 * the velocity change into the reported acceleration. */
void grip_hitch_solve_velocities(hitch *hitches, int n, vehicle *vehicles, double dt, int iterations);

/* Position pass: moves and turns the bodies (by their inverse masses and inertias) so that the
 * points of each hitch meet, over up to `iterations` sweeps or until every gap is under
 * tolerance (m); records each hitch's remaining gap. */
void grip_hitch_solve_positions(hitch *hitches, int n, vehicle *vehicles, int iterations, double tolerance);

#endif
