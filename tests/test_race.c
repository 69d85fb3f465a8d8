/* The race: laps on the default track within the road, lap-to-lap consistency, timing
 * arithmetic, bit-identical replays, four cars finishing. */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "grip/grip.h"
#include "race.h"
#include "support_tracks.h"
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

/* Between its robot's decisions the race reads only a car's motion (grip_vehicle_get_motion), the
 * whole state before each decision, each telemetry row and each tyre record: a race whose
 * telemetry is written at every step (every read whole) gives the same bits as one without
 * telemetry and one with a row a second. Two cars (they meet: the robots read each other), at
 * three step sizes and robot rates, one of them every step. */
static void light_reads_change_nothing(void) {
  grip_track *t = default_track();
  grip_vehicle_def car = grip_default_vehicle_def();
  const struct {
    double dt, rate;
  } runs[] = {{0.002, 50.0}, {0.005, 30.0}, {0.01, 0.0}};
  for (size_t i = 0; i < sizeof runs / sizeof runs[0]; ++i) {
    race_result res[3];
    for (int v = 0; v < 3; ++v) {
      race_config cfg = race_default_config();
      cfg.track = t;
      cfg.car = &car;
      cfg.cars = 2;
      cfg.laps = 1;
      cfg.dt = runs[i].dt;
      cfg.params.control_rate = runs[i].rate;
      char *buf = NULL;
      size_t size = 0;
      FILE *f = v == 0 ? NULL : open_memstream(&buf, &size);
      cfg.telemetry = f;
      cfg.telemetry_rate = v == 1 ? 1.0 / runs[i].dt : 1.0; /* every step; a row a second */
      CHECK(race_run(&cfg, &res[v]) == 0);
      if (f) fclose(f);
      free(buf);
    }
    bool same = true;
    for (int v = 1; v < 3; ++v)
      for (int k = 0; k < 2; ++k) {
        const race_car_result *a = &res[0].results[k], *b = &res[v].results[k];
        same = same && strcmp(a->name, b->name) == 0 && a->total_time_s == b->total_time_s &&
               memcmp(a->sector_times, b->sector_times, sizeof a->sector_times) == 0 &&
               a->top_speed_kmh == b->top_speed_kmh && a->max_edge_excess == b->max_edge_excess &&
               a->off_track_s == b->off_track_s && a->wall_contact_s == b->wall_contact_s &&
               a->fuel_used_kg == b->fuel_used_kg && a->progress_m == b->progress_m;
      }
    printf("  dt %.3f s, robot %2.0f Hz: %.6f s and %.6f s, the same with and without telemetry: %s\n", runs[i].dt,
           runs[i].rate, res[0].results[0].total_time_s, res[0].results[1].total_time_s, same ? "yes" : "no");
    CHECK(res[0].results[0].finished && res[0].results[1].finished);
    CHECK(same);
    for (int v = 0; v < 3; ++v) race_result_free(&res[v]);
  }
  grip_track_destroy(t);
}

/* The wall-contact statistic: a robot that plans with more grip than its tyres have (mu_factor
 * 1.5 against 0.85) runs wide off the built-in track's road and into its walls; the race counts
 * time with the body's box within 5 cm of a wall, the nearest as the world's walls see it, only
 * off the road. The same robot at its own grip stays on the road and touches nothing. */
static void wall_contact_counted(void) {
  grip_track *t = default_track();
  grip_vehicle_def car = grip_default_vehicle_def();
  double off[2], wall[2];
  for (int k = 0; k < 2; ++k) {
    race_config cfg = race_default_config();
    cfg.track = t;
    cfg.car = &car;
    cfg.laps = 1;
    if (k == 1) cfg.params.mu_factor = 1.5;
    race_result res;
    CHECK(race_run(&cfg, &res) == 0);
    off[k] = res.results[0].off_track_s;
    wall[k] = res.results[0].wall_contact_s;
    race_result_free(&res);
  }
  printf("  own grip: off the road %.2f s, at a wall %.2f s; planning with 1.5: %.2f s and %.2f s\n", off[0], wall[0],
         off[1], wall[1]);
  CHECK(off[0] == 0.0 && wall[0] == 0.0);
  CHECK(off[1] > 1.0 && wall[1] > 0.1 && wall[1] <= off[1]);
  grip_track_destroy(t);
}

/* Four robots from a 2x2 grid: all finish two laps; the order follows the total times; and
 * traffic costs time but not pace: each car's best lap is within 1 % of a lone car's (the
 * robot's grip learning must not take a shove for a lack of grip). */
static void four_cars_finish(void) {
  grip_track *t = default_track();
  grip_vehicle_def car = grip_default_vehicle_def();
  race_config cfg = race_default_config();
  cfg.track = t;
  cfg.car = &car;
  cfg.cars = 1;
  cfg.laps = 2;
  race_result lone;
  CHECK(race_run(&cfg, &lone) == 0);
  cfg.cars = 4;
  race_result res;
  CHECK(race_run(&cfg, &res) == 0);
  for (int k = 0; k < 4; ++k) {
    const race_car_result *r = &res.results[k];
    printf("  P%d %s (grid %d): %.3f s, best %.3f s, off track %.2f s\n", k + 1, r->name, r->grid, r->total_time_s,
           r->best_lap_s, r->off_track_s);
    CHECK(r->finished && r->laps == 2);
    if (k) CHECK(r->total_time_s >= res.results[k - 1].total_time_s);
    CHECK(r->best_lap_s < 1.01 * lone.results[0].best_lap_s);
  }
  race_result_free(&lone);
  race_result_free(&res);
  grip_track_destroy(t);
}

/* A small tank: the car retires "out of fuel" and the race ends there, long before its cap.
 * The tank cannot empty faster than at full power all the time: t >= fuel / (bsfc · P_max),
 * with P_max the torque curve's largest T·ω below the rev limit. Its off-track time counts
 * only while it raced. */
static void out_of_fuel_retires(void) {
  grip_track *t = default_track();
  grip_vehicle_def car = grip_default_vehicle_def();
  car.fuel.mass = 0.15; /* kg */
  double p_max = 0.0;
  for (double rpm = 100.0; rpm <= car.engine.rev_limit_rpm; rpm += 10.0)
    p_max = fmax(p_max, grip_engine_curve_torque(&car.engine, rpm) * rpm * 2.0 * 3.14159265358979 / 60.0);
  double t_min = car.fuel.mass / (car.engine.fuel_per_joule * p_max);
  race_config cfg = race_default_config();
  cfg.track = t;
  cfg.car = &car;
  cfg.laps = 5;
  race_result res;
  CHECK(race_run(&cfg, &res) == 0);
  const race_car_result *r = &res.results[0];
  printf("  retired (%s) at %.1f s after %d lap(s); full power would empty the tank in %.1f s; race %.1f s of a %.0f s cap\n",
         race_retire_reason_name(r->reason), r->retired_time_s, r->laps, t_min, res.sim_time_s, res.max_time_s);
  CHECK(!r->finished && r->status == RACE_CAR_RETIRED && r->reason == RACE_RETIRE_OUT_OF_FUEL);
  CHECK(strcmp(race_retire_reason_name(r->reason), "out of fuel") == 0);
  CHECK(r->retired_time_s >= t_min);
  CHECK(r->laps < 5);
  CHECK(!res.time_cap);
  CHECK_NEAR(res.sim_time_s, r->retired_time_s, 1e-9); /* the race ends with its last car */
  CHECK(r->off_track_s <= r->retired_time_s);
  /* The same car with fuel use off finishes. */
  cfg.no_fuel = true;
  race_result_free(&res);
  CHECK(race_run(&cfg, &res) == 0);
  CHECK(res.results[0].finished && res.results[0].laps == 5 && res.results[0].status == RACE_CAR_FINISHED);
  CHECK(race_retire_reason_name(res.results[0].reason) == NULL);
  race_result_free(&res);
  grip_track_destroy(t);
}

/* A car whose clutch cannot pass the torque to move it retires "stuck" once stuck_time has
 * gone by without progress, while a sound car in the same race finishes; the order puts the
 * finisher first. */
static void stuck_retires(void) {
  grip_track *t = default_track();
  grip_vehicle_def good = grip_default_vehicle_def(), weak = grip_default_vehicle_def();
  weak.clutch.max_torque = 1.0; /* N·m: ~5 N at the wheels of a 1.4 t car */
  race_entry e[2];
  for (int k = 0; k < 2; ++k) {
    race_slot sl = race_grid_slot(t, k);
    e[k] = (race_entry){.car = k == 0 ? &weak : &good, .name = k == 0 ? "weak" : "good", .car_name = "c", .x = sl.x,
                        .y = sl.y, .heading = sl.heading};
  }
  race_config cfg = race_default_config();
  cfg.track = t;
  cfg.entries = e;
  cfg.cars = 2;
  cfg.laps = 1;
  cfg.stuck_time = 10.0;
  race_result res;
  CHECK(race_run(&cfg, &res) == 0);
  const race_car_result *a = &res.results[0], *b = &res.results[1];
  printf("  P1 %s %s, P2 %s %s (%s) at %.2f s, %.2f m from the start\n", a->name, race_car_status_name(a->status),
         b->name, race_car_status_name(b->status), race_retire_reason_name(b->reason), b->retired_time_s, b->progress_m);
  CHECK(strcmp(a->name, "good") == 0 && a->finished);
  CHECK(strcmp(b->name, "weak") == 0 && b->status == RACE_CAR_RETIRED && b->reason == RACE_RETIRE_STUCK);
  /* It never made 10 m from the grid, so it retires stuck_time after the start (within a step). */
  CHECK(b->progress_m < -6.0 + RACE_STUCK_DISTANCE);
  CHECK_NEAR(b->retired_time_s, 10.0, 0.011);
  CHECK(!res.time_cap);
  race_result_free(&res);
  grip_track_destroy(t);
}

/* The time cap: the race stops there, reported as such; the cars still running have that
 * status, no reason, and are ordered by laps then progress. off_track_s never exceeds the
 * time raced. */
static void time_cap_reported(void) {
  grip_track *t = default_track();
  grip_vehicle_def car = grip_default_vehicle_def();
  race_config cfg = race_default_config();
  cfg.track = t;
  cfg.car = &car;
  cfg.cars = 4;
  cfg.laps = 3;
  cfg.max_time = 70.0;
  race_result res;
  CHECK(race_run(&cfg, &res) == 0);
  CHECK(res.time_cap);
  CHECK_NEAR(res.sim_time_s, 70.0, 0.011);
  for (int k = 0; k < 4; ++k) {
    const race_car_result *r = &res.results[k];
    printf("  P%d %s: %d lap(s), %.1f m, %s\n", k + 1, r->name, r->laps, r->progress_m, race_car_status_name(r->status));
    CHECK(r->status == RACE_CAR_RUNNING && !r->finished && r->reason == RACE_RETIRE_NONE && isnan(r->retired_time_s));
    CHECK(strcmp(race_car_status_name(r->status), "running at time cap") == 0);
    CHECK(r->off_track_s <= res.sim_time_s);
    if (k) {
      const race_car_result *q = &res.results[k - 1];
      CHECK(q->laps > r->laps || (q->laps == r->laps && q->progress_m >= r->progress_m));
    }
  }
  race_result_free(&res);
  grip_track_destroy(t);
}

typedef struct lap_log {
  long count;
  double sum;
  int last_lap;
} lap_log;

static void log_lap(void *user, int car, int lap, double lap_time, double race_time) {
  lap_log *l = user;
  (void)car;
  (void)race_time;
  l->count++;
  l->sum += lap_time;
  l->last_lap = lap;
}

/* A timed race (laps = 0) longer than RACE_MAX_LAPS laps, on a 20 m circle (126 m a lap): every
 * lap is counted and passed to on_lap, the first RACE_MAX_LAPS are kept, and the lap times sum
 * to the time of the last completed lap. */
static void timed_race_beyond_recorded_laps(void) {
  grip_track *t = support_circle_track(20.0);
  CHECK(t != NULL);
  grip_vehicle_def car = grip_default_vehicle_def();
  race_config cfg = race_default_config();
  lap_log log = {0, 0.0, 0};
  cfg.track = t;
  cfg.car = &car;
  cfg.laps = 0;
  cfg.max_time = 15500.0; /* ~1070 laps of 14.5 s */
  cfg.no_fuel = true;
  cfg.on_lap = log_lap;
  cfg.callback_user = &log;
  race_result res;
  CHECK(race_run(&cfg, &res) == 0);
  const race_car_result *r = &res.results[0];
  printf("  %d laps in %.0f s, best %.3f s, last %.3f s, %d kept\n", r->laps, res.sim_time_s, r->best_lap_s, r->last_lap_s,
         r->laps_recorded);
  CHECK(r->laps > RACE_MAX_LAPS);
  CHECK(r->laps_recorded == RACE_MAX_LAPS);
  CHECK(log.count == r->laps && log.last_lap == r->laps);
  CHECK_NEAR(log.sum, r->total_time_s, 1e-6);
  CHECK(res.time_cap && r->status == RACE_CAR_RUNNING);
  /* A lap of a 20 m circle is at least its length at top speed: 2π·(20 − 6)/v_top. */
  CHECK(r->best_lap_s > 2.0 * 3.14159265358979 * 14.0 / (r->top_speed_kmh / 3.6));
  race_result_free(&res);
  grip_track_destroy(t);
}

/* The race refuses a track tighter than the car's turning radius (L / sin(lock); the default
 * car: 2.65 m / sin(450°/15) = 5.30 m) or narrower than the car, and accepts one just wide and
 * open enough. */
static void refuses_impossible_tracks(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  double L = car.axles[0].x - car.axles[1].x, lock = car.steering.max_wheel_angle / car.steering.ratio;
  double turning = L / sin(lock);
  CHECK_NEAR(race_car_turning_radius(&car), turning, 1e-12);
  char msg[256];
  grip_track *t = support_circle_track(0.9 * turning);
  CHECK(t != NULL);
  CHECK(race_check_track(t, &car, msg, sizeof msg) == -1);
  printf("  R %.2f m: %s\n", 0.9 * turning, msg);
  CHECK(strstr(msg, "turning radius") != NULL);
  grip_track_destroy(t);
  t = support_circle_track(1.1 * turning);
  CHECK(t != NULL);
  CHECK(race_check_track(t, &car, msg, sizeof msg) == 0);
  grip_track_destroy(t);
  grip_track_segment_def seg[4];
  for (int i = 0; i < 4; ++i) {
    seg[i] = grip_default_track_segment_def();
    seg[i].type = GRIP_TRACK_LEFT;
    seg[i].radius = seg[i].end_radius = 50.0;
    seg[i].angle = 0.5 * 3.14159265358979323846;
  }
  seg[2].width_end = 0.9 * car.body.dimensions.y;
  grip_track_def def = {.segments = seg, .segment_count = 4, .start_position = {0, 0, 0}, .start_heading = 0};
  CHECK(grip_track_build(&def, &t) == GRIP_OK);
  CHECK(race_check_track(t, &car, msg, sizeof msg) == -1);
  printf("  narrow: %s\n", msg);
  CHECK(strstr(msg, "wide") != NULL);
  grip_track_destroy(t);
}

int main(void) {
  RUN_TEST(out_of_fuel_retires);
  RUN_TEST(stuck_retires);
  RUN_TEST(time_cap_reported);
  RUN_TEST(timed_race_beyond_recorded_laps);
  RUN_TEST(refuses_impossible_tracks);
  RUN_TEST(three_laps_default);
  RUN_TEST(deterministic);
  RUN_TEST(four_cars_finish);
  RUN_TEST(light_reads_change_nothing);
  RUN_TEST(wall_contact_counted);
  return TEST_RESULT();
}
