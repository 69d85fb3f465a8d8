/* grip plot: the telemetry CSV that grip race --telemetry writes (columns in docs/driver.md and
 * sim/race.c: time_s, car, lap, distance_m, lateral_m, x_m, y_m, z_m, speed_kmh, throttle, brake,
 * steering, gear, rpm, lat_g, long_g, then per wheel slip ratio, slip angle, load), and its laps. */
#ifndef GRIP_PLOT_TELEMETRY_H
#define GRIP_PLOT_TELEMETRY_H

#include <stdbool.h>

/* grip race writes 19 + 9 per wheel with the tyre state on: 163 for 16 wheels */
#define TELEMETRY_MAX_COLUMNS 192

typedef struct telemetry {
  const char *path;
  int columns;
  char names[TELEMETRY_MAX_COLUMNS][32];
  int rows;
  double *values; /* rows × columns, row-major */
} telemetry;

/* Reads path. On failure prints "grip plot KIND: file:line: what is wrong" and returns 1. */
int telemetry_load(const char *kind, const char *path, telemetry *t);
void telemetry_free(telemetry *t);

/* Index of a named column, or -1 (after printing "grip plot KIND: file: no column NAME"). */
int telemetry_column(const char *kind, const telemetry *t, const char *name);

/* Indices of count named columns into columns[]; returns 1 at the first one missing (printed). */
int telemetry_columns(const char *kind, const telemetry *t, int count, const char *const *names, int *columns);

static inline double telemetry_at(const telemetry *t, int row, int column) {
  return t->values[(long)row * t->columns + column];
}

/* One car's rows in time order, and its laps. A lap starts where the car crosses the line
 * (distance wraps from the track's length to 0) and ends at the next crossing; the times of the
 * crossings are interpolated with the speed of the rows on either side. Lap 1 starts at the
 * race's start (time 0) when the car starts behind the line, as grip race times it. */
typedef struct telemetry_lap {
  int lap;            /* 1-based */
  int first, last;    /* rows driven in this lap: telemetry rows car->rows[first..last] */
  double start_time;  /* s */
  double end_time;    /* s; a last lap without a crossing after it is extrapolated with its
                         final speed when its last row is within 2 s of the line */
  bool complete;
} telemetry_lap;

#define TELEMETRY_MAX_LAPS 1000

typedef struct telemetry_car {
  int car;
  int *rows; /* row indices of this car */
  int count;
  double track_length; /* m, estimated from the crossings (the largest distance when none) */
  int laps;
  telemetry_lap lap[TELEMETRY_MAX_LAPS];
} telemetry_car;

/* Collects car (1-based) and its laps. Returns 0, or 1 after printing why (no such car). */
int telemetry_car_laps(const char *kind, const telemetry *t, int car, telemetry_car *out);
void telemetry_car_free(telemetry_car *c);

/* The rows of lap n (1-based) in *lap; returns 0, or 1 after printing that the lap is missing
 * or incomplete. */
int telemetry_get_lap(const char *kind, const telemetry *t, const telemetry_car *c, int n, telemetry_lap *lap);

#endif
