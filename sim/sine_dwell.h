/* The sine-with-dwell test of electronic stability control: US FMVSS No. 126 (49 CFR 571.126,
 * S7.6 and S7.9) and UN Regulation No. 140, run on flat dry ground.
 *
 * 1. Slowly increasing steer (S7.6): at 80 km/h held constant, the steering wheel turns at
 *    13.5 °/s; the steering-wheel angle that gives 0.3 g (A) comes from a straight-line fit of
 *    lateral acceleration against the angle between 0.1 and 0.375 g, averaged over a left and a
 *    right run.
 * 2. Sine with dwell (S7.9): from 80 km/h the throttle is released and the steering wheel
 *    follows a 0.7 Hz sine of amplitude δ, held for 500 ms at its second peak, then back to
 *    zero along the sine's last quarter (the steer ends 1.929 s after it began). δ runs from
 *    1.5·A in steps of 0.5·A up to max(6.5·A, 270°), capped at 300° (and at the car's lock),
 *    in a series starting to the left and one to the right.
 * 3. Criteria (S5.2): for every run the yaw rate 1.00 s after the steer ends is at most 35 % of
 *    the first yaw-rate peak after the steering wheel changed sign, and at most 20 % 1.75 s
 *    after; for runs with δ ≥ 5·A the centre of gravity has moved sideways at least 1.83 m
 *    (cars up to 3,500 kg) 1.07 s after the steer began. grip adds one guard of its own: a run
 *    in which the heading turns more than 90° fails (a car that spins and stops rotating would
 *    otherwise meet the yaw-rate ratios). */
#ifndef GRIP_SINE_DWELL_H
#define GRIP_SINE_DWELL_H

#include <stdbool.h>

#include "grip/grip.h"

#define SINE_DWELL_MAX_RUNS 24 /* per direction: (300° − 1.5·A)/(0.5·A) + 1 for A ≥ 13° */

/* The steering-wheel angle (deg, signed, positive to the left) of the sine-with-dwell input
 * of amplitude `amplitude_deg` at time t (s) after the steer began; 0 before and after. */
double sine_dwell_steer_deg(double amplitude_deg, double t);

/* s, time from the beginning of the steer to its end (1/(0.7 Hz) + 0.5 s dwell = 1.929 s). */
double sine_dwell_steer_duration(void);

/* Slowly increasing steer: the steering-wheel angle (deg, > 0) that gives 0.3 g at 80 km/h,
 * or NAN when the car never reaches 0.375 g within its lock. `left_deg`/`right_deg` (may be
 * NULL) receive each direction's figure. */
double sim_steer_for_lateral_g(const grip_vehicle_def *car, double speed_kmh, double dt, double *left_deg,
                               double *right_deg);

typedef struct sine_dwell_run {
  double amplitude_deg;            /* deg, steering-wheel amplitude δ */
  int direction;                   /* +1 first half-cycle to the left, −1 to the right */
  double first_peak_dps;           /* deg/s, first yaw-rate peak after the steering changed sign */
  double yaw_ratio_1s_pct;         /* %, yaw rate 1.00 s after the steer ends / first peak */
  double yaw_ratio_175s_pct;       /* %, the same 1.75 s after */
  double lateral_displacement_m;   /* m, sideways CG movement 1.07 s after the steer began */
  double max_body_slip_deg;        /* deg, over the run */
  bool spun;                       /* heading turned more than 90° from the start */
  bool passed;                     /* this run meets every criterion that applies to it */
} sine_dwell_run;

typedef struct sine_dwell_result {
  double speed_kmh;                /* km/h at the beginning of the steer */
  double steer_at_03g_deg;         /* deg, A from the slowly increasing steer */
  double steer_at_03g_left_deg;
  double steer_at_03g_right_deg;
  int run_count;                   /* runs per direction */
  sine_dwell_run runs[2][SINE_DWELL_MAX_RUNS]; /* [0] to the left first, [1] to the right */
  double worst_yaw_ratio_1s_pct;   /* %, over every run */
  double worst_yaw_ratio_175s_pct; /* %, over every run */
  double min_lateral_displacement_m; /* m, over the runs with δ ≥ 5·A */
  bool pass;                       /* every run meets the criteria */
  const char *failure;             /* the first criterion that failed, NULL when pass */
} sine_dwell_result;

/* Runs the whole test. Returns false (and sets result->failure) when the car cannot be set up
 * or never reaches 0.3 g. */
bool sim_sine_dwell(const grip_vehicle_def *car, double speed_kmh, double dt, sine_dwell_result *result);

/* One sine-with-dwell run at amplitude_deg (signed direction), from speed_kmh. */
sine_dwell_run sim_sine_dwell_run(const grip_vehicle_def *car, double speed_kmh, double amplitude_deg,
                                  double steer_at_03g_deg, double dt);

#endif
