/* The race: laps on the default track within the road, lap-to-lap consistency, timing
 * arithmetic, bit-identical replays, four cars finishing. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "grip/grip.h"
#include "race.h"
#include "test.h"
#include "track_file.h"

static grip_track *default_track(void) {
  grip_track *t = NULL;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_track_open("default", &t, NULL, 0, &err) == 0);
  return t;
}

/* One car, 3 laps: on the road (|lateral| <= half width + 1 m), lap 2 and 3 within 1 %,
 * sectors summing to laps, laps summing to the total. */
static void three_laps_default(void) {
  grip_track *t = default_track();
  grip_vehicle_def car = grip_default_vehicle_def();
  race_config cfg = race_default_config();
  cfg.track = t;
  cfg.car = &car;
  race_result res;
  CHECK(race_run(&cfg, &res) == 0);
  const race_car_result *r = &res.results[0];
  printf("  laps %.3f %.3f %.3f s, top %.1f km/h, max edge excess %.2f m, %.0f x real time\n", r->lap_times[0],
         r->lap_times[1], r->lap_times[2], r->top_speed_kmh, r->max_edge_excess, res.realtime_factor);
  CHECK(r->finished && r->laps == 3);
  CHECK(r->max_edge_excess <= 1.0);
  CHECK(fabs(r->lap_times[2] / r->lap_times[1] - 1.0) < 0.01);
  double total = 0.0;
  for (int l = 0; l < 3; ++l) {
    CHECK_NEAR(r->sector_times[l][0] + r->sector_times[l][1] + r->sector_times[l][2], r->lap_times[l], 1e-9);
    total += r->lap_times[l];
  }
  CHECK_NEAR(total, r->total_time_s, 1e-9);
  double best = fmin(r->lap_times[0], fmin(r->lap_times[1], r->lap_times[2]));
  CHECK_NEAR(r->best_lap_s, best, 0);
  /* A flying lap cannot beat the track length at top speed: lap >= length / top speed. */
  CHECK(r->best_lap_s > grip_track_length(t) / (r->top_speed_kmh / 3.6));
  /* Lap 1 includes the standing start and the run from the grid (6 m behind the line). */
  CHECK(r->lap_times[0] > r->lap_times[1]);
  race_result_free(&res);
  grip_track_destroy(t);
}

static char *run_to_memory(const grip_track *t, const grip_vehicle_def *car, int cars, race_result *res, size_t *size) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, size);
  race_config cfg = race_default_config();
  cfg.track = t;
  cfg.car = car;
  cfg.cars = cars;
  cfg.laps = 1;
  cfg.telemetry = f;
  cfg.telemetry_rate = 20.0;
  CHECK(race_run(&cfg, res) == 0);
  fclose(f);
  return buf;
}

/* Same race twice: the same bytes of telemetry and the same results. */
static void deterministic(void) {
  grip_track *t = default_track();
  grip_vehicle_def car = grip_default_vehicle_def();
  race_result a, b;
  size_t na = 0, nb = 0;
  char *ta = run_to_memory(t, &car, 2, &a, &na);
  char *tb = run_to_memory(t, &car, 2, &b, &nb);
  CHECK(na > 1000 && na == nb);
  CHECK(na == nb && memcmp(ta, tb, na) == 0);
  for (int k = 0; k < 2; ++k) {
    CHECK(strcmp(a.results[k].name, b.results[k].name) == 0);
    CHECK(a.results[k].total_time_s == b.results[k].total_time_s);
    CHECK(memcmp(a.results[k].lap_times, b.results[k].lap_times, sizeof a.results[k].lap_times) == 0);
    CHECK(a.results[k].off_track_s == b.results[k].off_track_s);
  }
  /* The CSV has one header and 20 rows per simulated second per car (+1 for t = 0). */
  long rows = 0;
  for (size_t i = 0; i < na; ++i) rows += ta[i] == '\n';
  long expect = 2 * ((long)llround(a.sim_time_s * 20.0 - 0.5) + 1) + 1;
  CHECK(labs(rows - expect) <= 2);
  free(ta);
  free(tb);
  race_result_free(&a);
  race_result_free(&b);
  grip_track_destroy(t);
}

/* Four robots from a 2x2 grid: all finish two laps; the order follows the total times. */
static void four_cars_finish(void) {
  grip_track *t = default_track();
  grip_vehicle_def car = grip_default_vehicle_def();
  race_config cfg = race_default_config();
  cfg.track = t;
  cfg.car = &car;
  cfg.cars = 4;
  cfg.laps = 2;
  race_result res;
  CHECK(race_run(&cfg, &res) == 0);
  for (int k = 0; k < 4; ++k) {
    const race_car_result *r = &res.results[k];
    printf("  P%d %s (grid %d): %.3f s, best %.3f s, off track %.2f s\n", k + 1, r->name, r->grid, r->total_time_s,
           r->best_lap_s, r->off_track_s);
    CHECK(r->finished && r->laps == 2);
    if (k) CHECK(r->total_time_s >= res.results[k - 1].total_time_s);
  }
  race_result_free(&res);
  grip_track_destroy(t);
}

int main(void) {
  RUN_TEST(three_laps_default);
  RUN_TEST(deterministic);
  RUN_TEST(four_cars_finish);
  return TEST_RESULT();
}
