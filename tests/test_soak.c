/* The soak's short CI version (the long one: grip soak, 16 cars for 24 h, docs/driver.md): 16
 * cars for 6 simulated minutes on the built-in track with fuel use off, then one robot alone as
 * long. Nothing retires (no non-finite state, none leaves the world or is stuck), no car is ever
 * faster than the car's own top speed on the flat (sim_accel: an independent full-throttle run),
 * every car keeps lapping, the lone robot's flying laps agree within 0.1 % from the first window
 * to the last, and the heap does not grow after the first window. */
#include "grip/grip.h"
#include "manoeuvre.h"
#include "soak.h"
#include "test.h"
#include "track_file.h"

static void short_soak(void) {
  grip_track *t = NULL;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_track_open("default", &t, NULL, 0, &err) == 0);
  grip_vehicle_def car = grip_default_vehicle_def();
  accel_result acc = sim_accel(&car, 0.01, 180.0, 0.05);
  soak_config cfg = soak_default_config();
  cfg.track = t;
  cfg.car = &car;
  cfg.cars = 16;
  cfg.seconds = 360.0;
  static soak_result r;
  CHECK(soak_run(&cfg, &r) == 0);
  printf("  %s; drift %+.5f %%, heap %+ld B, lone best %.4f s, top speed on the flat %.1f km/h\n", r.verdict,
         r.drift_pct, r.heap_growth_bytes, r.lone.results[0].best_lap_s, acc.top_speed_kmh);
  CHECK(r.passed);
  CHECK(r.retired == 0);
  CHECK(r.stuck_in_field <= 2); /* robots do not negotiate contact: a crash may end a race */
  CHECK(fabs(r.drift_pct) < 0.1);
  CHECK(r.heap_growth_bytes <= 0); /* a retired car gives its memory back */
  CHECK(r.windows == 4);
  double lone_best = r.lone.results[0].best_lap_s;
  for (int k = 0; k < r.field.cars; ++k) {
    const race_car_result *c = &r.field.results[k];
    if (c->top_speed_kmh > 1.02 * acc.top_speed_kmh || c->laps < 4 || !isfinite(c->best_lap_s))
      printf("  %s: %d laps, best %.3f s, top %.1f km/h, %s%s%s\n", c->name, c->laps, c->best_lap_s, c->top_speed_kmh,
             race_car_status_name(c->status), c->reason ? ": " : "", c->reason ? race_retire_reason_name(c->reason) : "");
    CHECK(c->top_speed_kmh <= 1.02 * acc.top_speed_kmh);
    CHECK(c->reason == RACE_RETIRE_NONE || c->reason == RACE_RETIRE_STUCK);
    if (c->reason == RACE_RETIRE_STUCK) continue; /* crashed out in traffic (reported above) */
    /* 360 s: the standing start and traffic cost time, but no car is slower than 1.5 × the
     * lone robot's lap: at least 4 laps each. */
    CHECK(c->laps >= 4);
    CHECK(isfinite(c->best_lap_s) && c->best_lap_s >= lone_best * 0.98);
  }
  soak_result_free(&r);
  grip_track_destroy(t);
}

int main(void) {
  RUN_TEST(short_soak);
  return TEST_RESULT();
}
