/* Crowded races stay on the ground (issue: a car in a 16-car race fell through the track at
 * t ≈ 51 s and reached 655 km/h in free fall), and every car finishes them: impacts do not roll
 * cars over and the robots keep their gap in a jam (docs/driver.md, "Limits": 8 of the 64 once
 * retired on their sides or roofs, later 1; with both mends none, in the 3-lap races of 16, 32,
 * 48 and 64 cars at dt 0.01 and 0.005 s). 64 cars × 3 laps on the built-in track and, when
 * Debian's torcs-data is installed, 16 cars × 3 laps of car1-trb1 on TORCS's e-track-4: no car's
 * design-frame origin (on the ground at rest) ever more than 0.5 m below the track surface under
 * it, and no car faster than its own flat-road maximum. (Lap estimates, s, only bound the run:
 * the built-in track's lone best lap 48.7 s, TORCS's robots' 106.4 s on e-track-4.)
 *
 * Expectations: the surface height from the track geometry (grip_track_locate), sampled at
 * every telemetry row (50 Hz); the maximum speed from the engine's peak power against the car's
 * drag, v = (P/c)^(1/3) with c = ½·ρ·Cd·A (+ wing drag), +5 % for downhill stretches. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "race.h"
#include "test.h"
#include "torcs_car.h"
#include "track_file.h"

#ifdef GRIP_SANITIZED
#define LAPS 1 /* the sanitizers run the same checks on a shorter race */
#else
#define LAPS 3
#endif

/* km/h: the highest speed the engine's peak power can hold against drag on a level road. */
static double power_limited_speed_kmh(const grip_vehicle_def *d) {
  const grip_engine_def *e = &d->engine;
  double peak_power = 0.0;
  for (int i = 0; i < e->curve_points; ++i)
    peak_power = fmax(peak_power, e->curve_torque[i] * e->curve_rpm[i] * 2.0 * 3.14159265358979 / 60.0);
  grip_aero_coefficients aero = grip_vehicle_aero_coefficients(d, 1.29, d->aero.ride_height);
  return 3.6 * cbrt(peak_power / aero.drag);
}

typedef struct race_check {
  int rows;
  int unfinished;       /* cars that retired or were still running at the cap */
  double deepest;       /* m, largest depth of a car's origin below the surface */
  double top_speed_kmh; /* over every row */
  bool finite;
} race_check;

static race_check run_race(const grip_track *track, const grip_vehicle_def *car, int cars, double lap_estimate) {
  race_check rc = {0, 0, -INFINITY, 0.0, true};
  race_config cfg = race_default_config();
  cfg.track = track;
  cfg.car = car;
  cfg.cars = cars;
  cfg.laps = LAPS;
  cfg.telemetry = tmpfile();
  cfg.telemetry_rate = 50.0;
  /* A car held up in the crowd must not keep the check running for the default cap. */
  cfg.max_time = LAPS * lap_estimate * 1.6 + 30.0;
  race_result res;
  CHECK(cfg.telemetry != NULL);
  if (!cfg.telemetry) return rc;
  CHECK(race_run(&cfg, &res) == 0);
  for (int k = 0; k < res.cars; ++k) rc.unfinished += !res.results[k].finished;
  race_result_free(&res);
  rewind(cfg.telemetry);
  char line[1024];
  int hints[RACE_MAX_CARS + 1];
  for (int i = 0; i <= RACE_MAX_CARS; ++i) hints[i] = -1;
  if (!fgets(line, sizeof line, cfg.telemetry)) rc.finite = false; /* header */
  while (fgets(line, sizeof line, cfg.telemetry)) {
    /* time_s,car,lap,distance_m,lateral_m,x_m,y_m,z_m,speed_kmh,... */
    double t, distance, lateral, x, y, z, speed;
    int index, lap;
    if (sscanf(line, "%lf,%d,%d,%lf,%lf,%lf,%lf,%lf,%lf", &t, &index, &lap, &distance, &lateral, &x, &y, &z, &speed) != 9 ||
        index < 1 || index > RACE_MAX_CARS) {
      rc.finite = false;
      continue;
    }
    rc.rows++;
    rc.finite = rc.finite && isfinite(x) && isfinite(y) && isfinite(z) && isfinite(speed);
    grip_track_location loc = grip_track_locate(track, x, y, hints[index]);
    hints[index] = loc.segment;
    rc.deepest = fmax(rc.deepest, loc.z - z);
    rc.top_speed_kmh = fmax(rc.top_speed_kmh, fabs(speed));
  }
  fclose(cfg.telemetry);
  return rc;
}

static void check_race(const char *track_spec, const grip_vehicle_def *car, const char *car_name, int cars,
                       double lap_estimate) {
  grip_track *track = NULL;
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_track_open(track_spec, &track, NULL, 0, &err) != 0) {
    fprintf(stderr, "%s\n", err.message);
    CHECK(false);
    return;
  }
  race_check rc = run_race(track, car, cars, lap_estimate);
  double limit = power_limited_speed_kmh(car);
  printf("  %s, %d x %s, %d laps: %d rows, deepest %.3f m below the road, top %.1f km/h (limit %.1f), %d not "
         "finished\n",
         track_spec, cars, car_name, LAPS, rc.rows, rc.deepest, rc.top_speed_kmh, limit, rc.unfinished);
  CHECK(rc.finite);
  CHECK(rc.rows > cars * 50 * 40 * LAPS); /* at least 40 s a lap of rows for every car */
  CHECK(rc.deepest < 0.5);
  CHECK(rc.top_speed_kmh <= 1.05 * limit);
  CHECK(rc.unfinished == 0);
  grip_track_destroy(track);
}

int main(void) {
  grip_vehicle_def corvette = grip_default_vehicle_def();
  check_race("default", &corvette, "corvette-c5", 64, 49.0);
  static grip_car trb1;
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_torcs_load_named("car1-trb1", NULL, &trb1, &err) == 0) {
    check_race("torcs:e-track-4", &trb1.def, "car1-trb1", 16, 107.0);
  } else {
    printf("  TORCS part skipped: torcs-data not installed (apt-get install torcs-data)\n");
  }
  return TEST_RESULT();
}
