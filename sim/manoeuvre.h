/* Standard manoeuvres on flat ground (or a slope), shared by the grip tool and the tests. */
#ifndef GRIP_MANOEUVRE_H
#define GRIP_MANOEUVRE_H

#include <stdint.h>

#include "grip/grip.h"

/* grip accel: standing start, full throttle, automatic shifts, until the acceleration stays
 * below calm_accel (m/s²; the tool uses 0.05) for 2 s or max_time passes. */
typedef struct accel_result {
  double t_0_100_s;        /* s, NAN if not reached */
  double t_0_200_s;        /* s, NAN if not reached */
  double quarter_mile_s;   /* s to 402.336 m, NAN if not reached */
  double quarter_mile_kmh; /* km/h at 402.336 m */
  double top_speed_kmh;    /* km/h, highest speed reached */
  int top_gear;            /* gear at top speed */
  double time_s;           /* s simulated */
} accel_result;

accel_result sim_accel(const grip_vehicle_def *car, double dt, double max_time, double calm_accel);

/* grip brake: from speed_kmh, full brake pedal (no ABS) until stopped. */
typedef struct brake_result {
  double distance_m;
  double time_s;
  double peak_decel_g;
  bool wheels_locked; /* every wheel was locked at some point */
} brake_result;

brake_result sim_brake(const grip_vehicle_def *car, double speed_kmh, double dt);

/* grip park: placed on a slope (grade along the car's x, and across it), handbrake and
 * neutral, settled for settle_s, then the creep is measured over seconds. */
typedef struct park_result {
  double creep_mm_per_min; /* mm/min, displacement of the design-frame origin over the window */
  double max_angular_velocity; /* rad/s during the window */
  double displacement_mm;  /* mm over the window */
} park_result;

park_result sim_park(const grip_vehicle_def *car, double grade, double cross_grade, double settle_s,
                     double seconds, double dt, double handbrake);

/* grip bench: n cars on flat ground, full throttle, front wheels steered by steer_rad. */
typedef struct bench_result {
  int vehicles;
  long long steps;
  double ns_per_vehicle_step;
  double realtime_factor; /* simulated seconds (per car) per wall-clock second */
  double cpu_ns_per_vehicle_step; /* process CPU time (all threads) per vehicle-step */
  double bytes_per_vehicle; /* grip_world_memory / vehicles, shared car types included */
  double shared_bytes;      /* of which held once per car type (grip_world_memory's shared) */
  uint64_t state_hash;      /* grip_world_state_hash at the end: equal for any thread count */
} bench_result;

bench_result sim_bench(const grip_vehicle_def *car, int vehicles, double seconds, double dt,
                       double steer_rad, int threads);
/* The same cars split into `threads` separate worlds (the first ones one car more when they do
 * not divide evenly), each stepped by its own thread with no task pool and nothing shared per
 * step: what `threads` threads can give on this machine at most, for sim_bench's thread scaling
 * to be read against. state_hash is the first world's (equal to sim_bench's for its cars). */
bench_result sim_bench_separate(const grip_vehicle_def *car, int vehicles, double seconds, double dt,
                                double steer_rad, int threads);

/* Runs a car with constant inputs for `seconds` (helper for tests). */
grip_world *sim_world_with_car(const grip_vehicle_def *car, grip_vehicle_id *id);

/* --- shared by the manoeuvres -------------------------------------------------------------- */

/* A world with the car on flat ground, rolling straight along +x at `speed` m/s. */
grip_world *sim_start_rolling(const grip_vehicle_def *car, grip_vehicle_id *id, double speed);

/* PI speed control onto throttle and brake (automatic gearbox). Gains per m/s of error:
 * P 0.5, I 0.4/s (integral clamped at ±5 m·s). The brake starts only past −0.5 so the two
 * pedals never fight around the target. Chosen by hand: settles a 1 m/s step in ~2 s without
 * overshoot for the shipped cars; the manoeuvres' results do not depend on it in steady state. */
typedef struct sim_speed_control {
  double integral; /* m, integral of the speed error */
} sim_speed_control;
void sim_control_speed(sim_speed_control *c, grip_vehicle_input *in, double speed, double target, double dt);

/* rad/s, yaw rate about the body's z axis. */
double sim_yaw_rate(const grip_vehicle_state *s);
/* rad, heading of the body's x axis in the world's x-y plane (0 along +x, counter-clockwise). */
double sim_heading(const grip_vehicle_state *s);

#endif
