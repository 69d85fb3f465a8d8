/* A car's wheels as the tools see them, for any number of axles (1..GRIP_MAX_AXLES) of one or
 * two wheels: which axle each wheel is on, which wheels the driveline drives, the driven
 * wheels' radius and the line the unsteered axles turn about. Shared by the robot, the races
 * and the manoeuvres so that a truck or a three-wheeler reads the same wheels everywhere. */
#ifndef GRIP_CAR_LAYOUT_H
#define GRIP_CAR_LAYOUT_H

#include <stdbool.h>

#include "grip/grip.h"

typedef struct car_layout {
  int axle_count;                       /* 1..GRIP_MAX_AXLES */
  int wheel_count;                      /* 1..GRIP_MAX_WHEELS, grip_vehicle_state order */
  int axle_first_wheel[GRIP_MAX_AXLES]; /* index of the axle's first (left, or only) wheel */
  int axle_wheels[GRIP_MAX_AXLES];      /* 1 (on the centre line) or 2 */
  int wheel_axle[GRIP_MAX_WHEELS];
  bool driven[GRIP_MAX_WHEELS];         /* the driveline drives this wheel */
  int driven_count;
  bool driven_axle[GRIP_MAX_AXLES];     /* at least one wheel of the axle is driven */
} car_layout;

/* Fills the layout of a definition (its wheel order is the core's: axle by axle from the
 * first, left before right). FWD drives the first axle, RWD the last, AWD both, a tree the
 * wheels its differentials name. */
void car_layout_of(const grip_vehicle_def *car, car_layout *out);

/* m, radius the engine's force is reckoned at: the first axle's for FWD, the last axle's for
 * RWD and AWD (the two-axle tools' convention), the mean over the driven wheels for a tree. */
double car_driven_wheel_radius(const grip_vehicle_def *car);

/* m, design-frame x of the line a low-speed turn is centred on: the mean x of the unsteered
 * axles (the rear axle of a car, the middle of a truck's tandem; docs/physics.md "Steering of
 * several axles"); the last axle's when every axle steers. */
double car_reference_x(const grip_vehicle_def *car);

/* m, effective wheelbase: the first axle's x less car_reference_x. */
double car_effective_wheelbase(const grip_vehicle_def *car);

/* True when some axle has one wheel on the centre line (a tricycle). */
bool car_has_single_wheel_axle(const grip_vehicle_def *car);

/* Lateral acceleration in g at which a car with a one-wheel front axle tips about the line from
 * the front contact to the outer rear wheel, (t/2)·(a/L)/h (docs/physics.md "Rollover of a
 * tricycle"), t the last axle's track, a the CG's distance behind the front wheel, L the
 * wheelbase, h the CG height (body and fuel together). INFINITY for any other car. */
double car_tricycle_rollover_g(const grip_vehicle_def *car);

#endif
