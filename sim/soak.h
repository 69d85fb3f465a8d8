/* The soak (grip soak, docs/driver.md): a field of robot cars races for hours of simulated time
 * with fuel use switched off, then one robot alone for as long. It checks what a long run must
 * keep: no car retires (no non-finite state, none leaves the world or gets stuck), the lone
 * robot's lap times do not drift, and memory does not grow. */
#ifndef GRIP_SOAK_H
#define GRIP_SOAK_H

#include <stdio.h>

#include "race.h"

typedef struct soak_config {
  const grip_track *track;     /* caller owns */
  const grip_vehicle_def *car; /* every car */
  const char *car_name;
  int cars;                    /* the field, 1..RACE_MAX_CARS; 16 */
  double seconds;              /* simulated s of each run; 86400 */
  double dt;                   /* s; 0.01 */
  FILE *progress;              /* a line per window, or NULL */
} soak_config;

soak_config soak_default_config(void);

#define SOAK_MAX_WINDOWS 4096

typedef struct soak_window {
  double end_s;          /* s, race time at the window's end */
  long field_laps;       /* laps completed by the whole field in the window */
  long lone_laps;        /* flying laps of the lone robot completed in the window */
  double lone_mean_lap_s; /* s, their mean (NAN without one) */
  long heap_bytes;       /* heap in use at the window's end, field run (-1: not measurable here) */
  long max_rss_kb;       /* peak resident set at the window's end, field run */
} soak_window;

typedef struct soak_result {
  int windows;               /* window = min(1 h, seconds / 4) */
  double window_s;
  soak_window w[SOAK_MAX_WINDOWS];
  race_result field;         /* the field's race (free with soak_result_free) */
  race_result lone;          /* the lone robot's */
  int retired;               /* cars that retired for a fault: any retirement of the lone robot,
                                and field cars that left the world or went non-finite */
  int stuck_in_field;        /* field cars retired stuck (after contact in traffic, e.g. on
                                their side against a barrier): reported, not a failure */
  double drift_pct;          /* lone robot: last window's mean lap / first's − 1, in % (windows
                                with flying laps; NAN with fewer than two) */
  int drift_first, drift_last; /* the windows compared (-1: none) */
  long heap_growth_bytes;    /* B, heap in use at the end minus after the first window (field); <= 0
                                passes (a retired car gives its memory back) */
  long rss_growth_kb;        /* peak RSS at the end minus after the first window (field) */
  bool passed;               /* no retirement, |drift| < 0.1 %, no heap growth (where measurable) */
  char verdict[256];         /* why it failed, or "passed" */
} soak_result;

/* Runs both races. Returns 0, or -1 when a race could not be set up. */
int soak_run(const soak_config *cfg, soak_result *out);
void soak_result_free(soak_result *r);

#endif
