/* The race: K robot-driven cars on a track, standing start from a staggered grid, lap and sector
 * timing, results and telemetry (docs/driver.md). Deterministic: the same configuration gives
 * bit-identical results and telemetry. */
#ifndef GRIP_RACE_H
#define GRIP_RACE_H

#include <stdio.h>

#include "grip/grip.h"
#include "robot.h"
#include "track_file.h"

#define RACE_MAX_CARS 64
/* Laps of a race run to a lap count; also the laps whose times a result keeps (a timed race
 * may run more: they are counted, timed into best/last/total and passed to on_lap, not kept). */
#define RACE_MAX_LAPS 1000
/* s without 10 m of new progress along the track after which a car retires as stuck: the
 * robot's recovery (reverse out, drive back, docs/driver.md) takes 5-15 s, so this leaves it
 * several tries. */
#define RACE_STUCK_TIME 60.0
#define RACE_STUCK_DISTANCE 10.0 /* m */

/* How a car's race went. */
typedef enum race_car_status {
  RACE_CAR_RUNNING = 0,  /* still racing (at the end: running when the time cap came) */
  RACE_CAR_FINISHED = 1, /* completed the laps */
  RACE_CAR_RETIRED = 2,  /* could not go on: see race_retire_reason */
} race_car_status;

typedef enum race_retire_reason {
  RACE_RETIRE_NONE = 0,
  RACE_RETIRE_OUT_OF_FUEL = 1,   /* tank empty and the car at a standstill */
  RACE_RETIRE_STUCK = 2,         /* no progress along the track for stuck_time */
  RACE_RETIRE_LEFT_WORLD = 3,    /* grip_vehicle_state.out_of_world */
  RACE_RETIRE_NUMERICAL = 4,     /* a non-finite state (never expected: a defect if seen) */
} race_retire_reason;

/* "finished", "retired", "running at time cap". */
const char *race_car_status_name(race_car_status s);
/* NULL (none), "out of fuel", "stuck", "left the world", "non-finite state". */
const char *race_retire_reason_name(race_retire_reason r);

/* The fuel each car starts with (grip race --fuel). */
typedef enum race_fuel_mode {
  RACE_FUEL_CAR = 0,  /* the car definition's fuel.mass */
  RACE_FUEL_AUTO = 1, /* the robot's strategy: one planned stint's fuel (sim/pit.h, driver/fuel_strategy.h) */
  RACE_FUEL_FULL = 2, /* a full tank */
  RACE_FUEL_KG = 3,   /* race_config.fuel_kg (at most the tank) */
} race_fuel_mode;

/* Called when a car completes a lap (car: 0-based grid index; lap: 1-based; times in s). */
typedef void race_lap_fn(void *user, int car, int lap, double lap_time, double race_time);
/* Called after the step that reaches each multiple of race_config.period_s (race time in s). */
typedef void race_period_fn(void *user, double race_time);

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
  int laps;                   /* 1..RACE_MAX_LAPS, or 0: a timed race that runs to max_time */
  int cars;                   /* 1..RACE_MAX_CARS */
  double dt;                  /* s */
  double max_time;            /* s, the time cap (0: per lap the larger of 300 s and 3 × the slowest
                                 robot's planned lap, + 60; required for laps = 0) */
  double stuck_time;          /* s, RACE_STUCK_TIME */
  bool no_fuel;               /* every car runs without fuel use (engine.fuel_per_joule = 0) */
  const grip_track_pit *pit;  /* the track's pit lane, or NULL (no stops); docs/driver.md */
  race_fuel_mode fuel_mode;   /* RACE_FUEL_CAR */
  double fuel_kg;             /* kg, with RACE_FUEL_KG */
  race_lap_fn *on_lap;        /* or NULL */
  race_period_fn *on_period;  /* or NULL */
  double period_s;            /* s, > 0 with on_period */
  void *callback_user;        /* passed to on_lap and on_period */
  FILE *telemetry;            /* CSV, or NULL */
  double telemetry_rate;      /* Hz */
  FILE *progress;             /* per-lap progress lines, or NULL */
  /* Tyre state for every car: 0 the car's setting, 1 on, -1 off; and its starting temperature
   * (K, every node; 0 = the car's initial_temperature). */
  int tyre_state;
  double tyre_temperature;
  double tyre_pressure;       /* Pa, gauge cold pressure (set at pressure_temperature); 0 = the car's */
} race_config;

race_config race_default_config(void);

typedef struct race_car_result {
  char name[32];          /* "robot-1" … (grid order) */
  int grid;               /* 1-based grid slot */
  const char *car;
  int laps;               /* completed */
  bool finished;          /* status == RACE_CAR_FINISHED */
  race_car_status status;
  race_retire_reason reason; /* RACE_RETIRE_NONE unless retired */
  double retired_time_s;  /* s, race time of the retirement (NAN if none) */
  double total_time_s;    /* s to the finish (or last completed lap; 0 without one) */
  double best_lap_s;      /* NAN without a completed lap */
  double last_lap_s;      /* NAN without a completed lap */
  int laps_recorded;      /* entries of lap_times/sector_times: min(laps, RACE_MAX_LAPS) */
  double lap_times[RACE_MAX_LAPS];
  double sector_times[RACE_MAX_LAPS][3];
  double top_speed_kmh;
  double off_track_s;     /* s with |lateral| > half road width */
  double max_edge_excess; /* m, largest |lateral| − half width (negative: always inside) */
  double wall_contact_s;  /* s with the body's box within 5 cm of a barrier (touching it) */
  double plan_lap_s;      /* s, the robot's predicted flying lap at the start (robot_plan_lap_time) */
  double progress_m;      /* m along the track from the start line at the end (or retirement) */
  int pit_stops;          /* stops served in the box */
  double pit_lane_s;      /* s on the pit road (entry to exit) during stops */
  double pit_service_s;   /* s standing in the box being served */
  double refuelled_kg;    /* kg of fuel taken at the stops */
  double start_fuel_kg;   /* kg on board at the start */
  double fuel_used_kg;    /* kg burnt (start + refuelled − at the end) */
  double pit_limit_excess; /* m/s, largest speed above the pit lane's limit in the limited zone (≤ 0: obeyed) */
  /* Tyre state (the car's grip_tyre_state_def on; otherwise tyre_state is false and these 0):
   * per wheel (wheel_count of them, grip_vehicle_state order: fl, fr, rl, rr for a car) at the
   * finish, retirement or end; per lap all tyres' mean tread depth and grip factor as the lap
   * was completed. */
  bool tyre_state;
  int wheel_count;                                   /* the car's wheels, 1..GRIP_MAX_WHEELS */
  double tyre_surface_temperature[GRIP_MAX_WHEELS]; /* K */
  double tyre_carcass_temperature[GRIP_MAX_WHEELS]; /* K */
  double tyre_gas_temperature[GRIP_MAX_WHEELS];     /* K */
  double tyre_pressure[GRIP_MAX_WHEELS];            /* Pa, gauge */
  double tread_depth[GRIP_MAX_WHEELS];              /* m */
  double tyre_grip[GRIP_MAX_WHEELS];                /* friction multiplier */
  double lap_tread_depth[RACE_MAX_LAPS];             /* m */
  double lap_tyre_grip[RACE_MAX_LAPS];
} race_car_result;

typedef struct race_result {
  int cars;
  race_car_result *results; /* finishing order, cars entries (free with race_result_free) */
  double sim_time_s;
  bool time_cap;            /* the race ended at its time cap with a car still running */
  double max_time_s;        /* s, the time cap it ran with */
  double wall_time_s;
  double realtime_factor;   /* simulated s per wall-clock s */
  long long steps;
  long long car_steps;      /* vehicle-steps raced: the cars on the track summed over the steps */
  double setup_wall_s;      /* s, wall time of race_run's set-up (world, grid, robots' lines) */
  double ns_per_car_step;   /* ns, wall time of the race loop (vehicles, ground, walls, robots,
                               collisions, timing) per car-step, set-up excluded; ~1000 */
  double setup_cpu_s;       /* s, process CPU time of the set-up */
  double cpu_ns_per_car_step; /* ns, process CPU time of the race loop per car-step */
  uint64_t state_hash;      /* grip_world_state_hash of the world as the race ended: the same
                               race gives the same hash, bit for bit */
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

/* m, the car's turning radius: wheelbase / sin(largest road-wheel angle), the radius of the
 * front axle's path at full lock (bicycle model, no slip). */
double race_car_turning_radius(const grip_vehicle_def *car);

/* Whether the car can race on the track at all: the track's smallest centre-line radius must
 * be at least the car's turning radius, its narrowest road at least the car's width. Returns
 * 0, or -1 with a message "what is wrong (what it needs)" in msg. */
int race_check_track(const grip_track *track, const grip_vehicle_def *car, char *msg, size_t msg_size);

/* Runs the race: until every car has finished or retired, or to the time cap (then
 * out->time_cap is set and the cars still running have status RACE_CAR_RUNNING). A retired car
 * is taken out of the world (the others no longer meet it). Memory is allocated once at the
 * start: a race of any length runs in constant memory. Returns 0, or -1 (invalid
 * configuration, no ground at the grid, memory). */
int race_run(const race_config *cfg, race_result *out);
void race_result_free(race_result *r);

#endif
