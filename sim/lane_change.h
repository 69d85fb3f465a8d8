/* The ISO 3888-2 severe lane change (obstacle avoidance, the "moose test"), driven by a
 * path-following driver model on flat dry ground.
 *
 * Track (ISO 3888-2:2011 §4.1, Figure 1 and Table 1; docs/physics.md §12.4 gives the sources):
 * five sections of fixed length, 12 / 13.5 / 11 / 12.5 / 12 m (61 m in all). Sections 1, 3 and 5
 * are lanes marked by cones (the track limits are tangent to the cones' bases); their widths
 * follow the vehicle width W:
 *   section 1 (entry lane)   1.1·W + 0.25 m
 *   section 3 (avoidance)    W + 1 m, shifted to the left: its right edge lies 1 m left of
 *                            section 1's left edge
 *   section 5 (exit lane)    1.3·W + 0.25 m, at least 3 m; its right edge lies on section 1's
 *                            right edge
 * Sections 2 and 4 are free. The vehicle enters section 1 at the test speed and the
 * accelerator is released at the entry gate; it coasts through in gear, the clutch engaged (the
 * gear the automatic box chose for the run-up, then held, as in sine_dwell.c). It passes when no cone is touched: the body's rectangle (length and width from the
 * car definition, projected on the ground) stays within each lane while any of it is inside
 * that lane's section. */
#ifndef GRIP_LANE_CHANGE_H
#define GRIP_LANE_CHANGE_H

#include <stdbool.h>

#include "grip/grip.h"

/* --- the track ------------------------------------------------------------------------------ */

/* One coned lane: x from the entry gate along the direction of travel, y to the left of the
 * entry lane's centre line (m). */
typedef struct lane_change_lane {
  double x_begin, x_end; /* m */
  double y_right, y_left; /* m, track limits (inner tangents of the cones) */
} lane_change_lane;

typedef struct lane_change_track {
  double vehicle_width;     /* m, W */
  lane_change_lane lanes[3]; /* sections 1, 3 and 5 */
  double length;            /* m, 61 */
} lane_change_track;

/* The track for a vehicle `vehicle_width` (m) wide, from ISO 3888-2 Table 1. */
lane_change_track lane_change_track_for_width(double vehicle_width);

/* --- the path and the driver model --------------------------------------------------------- */

/* A path as a polyline in the world's x-y plane. */
typedef struct sim_path {
  int count, capacity;
  double *x, *y; /* m */
} sim_path;

bool sim_path_init(sim_path *p, int capacity);
void sim_path_free(sim_path *p);
bool sim_path_add(sim_path *p, double x, double y);
/* m, signed distance from (x, y) to the path, positive when the point is left of it. */
double sim_path_offset(const sim_path *p, double x, double y);

/* The centre line of the lane-change track (sections 1, 3, 5 on their lanes' centres, joined
 * by half-cosine blends across sections 2 and 4), from `x_before` m before the entry gate (at
 * world x = x_gate, y = 0) to `x_after` m past the end of the track, every `spacing` m. */
bool lane_change_path(sim_path *p, const lane_change_track *t, double x_gate, double x_before, double x_after,
                      double spacing);

/* Pure-pursuit path follower (Coulter, "Implementation of the Pure Pursuit Path Tracking
 * Algorithm", CMU-RI-TR-92-01, 1992): the rear axle's centre aims at the point of the path one
 * preview distance ahead, L = max(min_preview, preview_time·v); the arc through both has
 * curvature k = 2·sin(alpha)/L (alpha the angle from the heading to that point), and the
 * road-wheel angle of a kinematic car on it is atan(k·wheelbase). The steering wheel then moves
 * towards ratio·angle at most max_wheel_rate. The driver knows what a driver knows of the car:
 * wheelbase, steering ratio and lock (and the speed-sensitive reduction a game car may have). */
typedef struct path_follower_def {
  double preview_time;   /* s, 0.05..2; 0.45 */
  double min_preview;    /* m, 1..30; 3.5 */
  double max_wheel_rate; /* rad/s, fastest steering-wheel rate, 1..50; 12.6 (720 deg/s) */
} path_follower_def;

path_follower_def default_path_follower_def(void);

typedef struct path_follower {
  path_follower_def def;
  const sim_path *path;
  int index;       /* last nearest path point */
  double steering; /* -1..1, last steering input given */
} path_follower;

void path_follower_init(path_follower *f, const path_follower_def *def, const sim_path *path, double steering);
/* The steering input (-1..1) for the next step of dt s. */
double path_follower_steer(path_follower *f, const grip_vehicle_def *car, const grip_vehicle_state *s, double dt);

/* m, world x-y position of the rear axle's centre (the pure-pursuit reference point). */
void lane_change_rear_axle(const grip_vehicle_def *car, const grip_vehicle_state *s, double *x, double *y);

/* --- the test ------------------------------------------------------------------------------- */

typedef struct lane_change_run {
  double target_kmh;        /* km/h asked */
  double entry_speed_kmh;   /* km/h when the body's front crossed the entry gate */
  double exit_speed_kmh;    /* km/h when the body's rear left section 5 (NAN if it never did) */
  bool passed;              /* through all three lanes without touching a cone */
  int failed_section;       /* 1, 3 or 5: the first lane left; 0 when passed or it never got out */
  double min_clearance_m;   /* m, least distance between the body and a lane's limit (< 0: cone hit) */
  double max_steer_deg;     /* deg, largest steering-wheel angle */
  double max_lateral_g;     /* g, largest lateral acceleration through the track */
  double max_body_slip_deg; /* deg, largest body slip angle through the track */
  bool esc_acted;           /* stability control braked a wheel at some step in the track */
  int gear;                 /* gear held from the entry gate on */
} lane_change_run;

/* One run at target_kmh (km/h at the entry gate). */
lane_change_run sim_lane_change_run(const grip_vehicle_def *car, double target_kmh, double dt);

#define LANE_CHANGE_STEP_KMH 0.5   /* resolution of the search */

typedef struct lane_change_result {
  double max_pass_kmh;     /* km/h, highest passing entry speed on the 0.5 km/h grid (NAN: none) */
  bool capped;             /* the car passed at the search's top speed */
  lane_change_run at_max;  /* the run at max_pass_kmh */
  lane_change_run above;   /* the run 0.5 km/h above (a failure unless capped) */
  int runs;                /* runs made */
} lane_change_result;

#define LANE_CHANGE_SCAN_KMH 5.0   /* coarse scan of the search */

/* Highest entry speed that passes between low_kmh and high_kmh (the cap), on a 0.5 km/h grid
 * from low_kmh: a scan every 5 km/h, then a bisection between the highest scanned pass and the
 * scanned failure above it. The result is bracketed: a pass at max_pass_kmh and a failure
 * 0.5 km/h above unless capped. Passing need not be monotonic in speed (a car may stop in the
 * track at a low speed, coasting on its engine braking); a pass between two scanned failures
 * closer than 5 km/h apart above the highest scanned pass can be missed. */
lane_change_result sim_lane_change_search(const grip_vehicle_def *car, double low_kmh, double high_kmh, double dt);

#endif
