/* The race: K robot-driven cars on a track, standing start from a staggered grid, lap and sector
 * timing, results and telemetry (docs/driver.md). Deterministic: the same configuration gives
 * bit-identical results and telemetry. */
#ifndef GRIP_RACE_H
#define GRIP_RACE_H

#include <stdio.h>

#include "grip/grip.h"
#include "robot.h"

#define RACE_MAX_CARS 64
#define RACE_MAX_LAPS 1000

typedef struct race_config {
  const grip_track *track;    /* built track (caller owns) */
  const grip_vehicle_def *car; /* every car uses this definition */
  const char *car_name;       /* reported name of the car ("corvette-c5") */
  robot_params params;        /* every robot's parameters */
  int laps;                   /* 1..RACE_MAX_LAPS */
  int cars;                   /* 1..RACE_MAX_CARS */
  double dt;                  /* s */
  double max_time;            /* s, race aborted after it (0: 300 s per lap + 60) */
  FILE *telemetry;            /* CSV, or NULL */
  double telemetry_rate;      /* Hz */
  FILE *progress;             /* per-lap progress lines, or NULL */
} race_config;

race_config race_default_config(void);

typedef struct race_car_result {
  char name[32];          /* "robot-1" … (grid order) */
  int grid;               /* 1-based grid slot */
  const char *car;
  int laps;               /* completed */
  bool finished;
  double total_time_s;    /* s to the finish (or last completed lap) */
  double best_lap_s;      /* NAN without a completed lap */
  double lap_times[RACE_MAX_LAPS];
  double sector_times[RACE_MAX_LAPS][3];
  double top_speed_kmh;
  double off_track_s;     /* s with |lateral| > half road width */
  double max_edge_excess; /* m, largest |lateral| − half width (negative: always inside) */
  double progress_m;      /* m along the track from the start line at the end */
} race_car_result;

typedef struct race_result {
  int cars;
  race_car_result *results; /* finishing order, cars entries (free with race_result_free) */
  double sim_time_s;
  double wall_time_s;
  double realtime_factor;   /* simulated s per wall-clock s */
  long long steps;
} race_result;

/* Runs the race. Returns 0, or -1 (invalid configuration, no ground at the grid, memory). */
int race_run(const race_config *cfg, race_result *out);
void race_result_free(race_result *r);

#endif
