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

/* One car of a race whose cars differ (a scene's cars, grip race --scene). */
typedef struct race_entry {
  const grip_vehicle_def *car; /* its definition (caller owns) */
  const char *name;           /* reported driver name, e.g. "red" (NULL: robot-K) */
  const char *car_name;       /* reported car, e.g. "hatchback-100kw" (NULL: car->name) */
  double x, y;                /* m, world start position of the design-frame origin */
  double heading;             /* rad, start heading from +x counter-clockwise */
} race_entry;

typedef struct race_config {
  const grip_track *track;    /* built track (caller owns) */
  const grip_vehicle_def *car; /* every car uses this definition (unless entries is set) */
  const race_entry *entries;  /* NULL, or `cars` entries: each car's definition, names and start
                                 pose (timing still counts laps from the line at distance 0) */
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

/* A grid slot (0-based): two columns, rows 8 m apart, the right column 4 m further back, the
 * first row 6 m behind the line at distance 0. */
typedef struct race_slot {
  double x, y;     /* m, world position on the road */
  double heading;  /* rad, the track's heading there */
  double distance; /* m, along the track, [0, length) */
  double lateral;  /* m, from the centre line, + left */
  double back;     /* m, behind the line (6 for slot 0) */
} race_slot;

race_slot race_grid_slot(const grip_track *track, int slot);

/* Runs the race. Returns 0, or -1 (invalid configuration, no ground at the grid, memory). */
int race_run(const race_config *cfg, race_result *out);
void race_result_free(race_result *r);

#endif
