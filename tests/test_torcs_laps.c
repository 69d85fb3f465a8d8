/* grip's robot in grip's physics against the TORCS robots' best laps with TORCS's car1-trb1
 * (reference/torcs/laps-car1-trb1.txt, TORCS 1.3.7): the same car and tracks imported, 3 laps
 * alone, never off the road, and (issue 13) no more than 1 % slower than the best TORCS robot
 * on every road track and oval; faster is allowed, to a sanity bound of 10 %.
 *
 * Michigan is run twice. TORCS's robots plan corners with the flat-road formula
 * v = sqrt(mu·g·r / (1 − r·CA·mu/m)) (robot tutorial), grip's robot by default with the
 * banking; the oval's 7.7° turns then let it lap faster still. Then every installed track
 * against the robot's own plan (below). Needs Debian's torcs-data; skips visibly without it. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "race.h"
#include "test.h"
#include "torcs_car.h"
#include "torcs_track.h"
#include "track_file.h"

#define REFERENCE GRIP_SOURCE_DIR "/tests/data/torcs-reference/laps-car1-trb1.txt"

static grip_car car;

/* Best lap of any TORCS robot on a track, from the reference file; NAN when absent. */
static double reference_best(const char *track) {
  FILE *f = fopen(REFERENCE, "r");
  if (!f) return NAN;
  char line[512], driver[64], carname[64], name[64];
  int index;
  double best_any = NAN, best;
  while (fgets(line, sizeof line, f))
    if (sscanf(line, "%63s %d %63s %63s best=%lf", driver, &index, carname, name, &best) == 5 &&
        strcmp(name, track) == 0 && strcmp(carname, "car1-trb1") == 0 && best > 0.0 && !(best >= best_any))
      best_any = best;
  fclose(f);
  return best_any;
}

/* car1-trb1 alone for 3 laps on the installed TORCS track NAME at step dt; 0, or -1 when the
 * track does not open or the race does not run (printed). The caller frees *res. */
static int race_alone(const char *track_name, const robot_params *params, double dt, race_result *res) {
  char spec[96];
  snprintf(spec, sizeof spec, "torcs:%.63s", track_name);
  grip_track *track = NULL;
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_track_open(spec, &track, NULL, 0, &err) != 0) {
    fprintf(stderr, "%s\n", err.message);
    return -1;
  }
  race_config cfg = race_default_config();
  cfg.track = track;
  cfg.car = &car.def;
  cfg.params = *params;
  cfg.laps = 3;
  cfg.dt = dt;
  int rc = race_run(&cfg, res);
  grip_track_destroy(track);
  return rc;
}

/* Best lap of grip's robot over 3 laps; *off gets the time off the road. */
static double grip_best_at(const char *track_name, const robot_params *params, double dt, double *off) {
  race_result res;
  if (race_alone(track_name, params, dt, &res) != 0) return NAN;
  const race_car_result *r = &res.results[0];
  double best = r->finished ? r->best_lap_s : NAN;
  *off = r->off_track_s;
  race_result_free(&res);
  return best;
}

static double grip_best(const char *track_name, const robot_params *params, double *off) {
  return grip_best_at(track_name, params, race_default_config().dt, off);
}

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

static void check_track_at(const char *track, const robot_params *params, double dt, const char *how) {
  double ref = reference_best(track), off = -1.0;
  double best = grip_best_at(track, params, dt, &off);
  printf("  %-10s %-14s best %.2f s, TORCS %.2f s (%+.1f %%), off the road %.2f s\n", track, how, best, ref,
         100.0 * (best / ref - 1.0), off);
  CHECK(isfinite(ref));
  CHECK(best <= 1.01 * ref && best >= 0.90 * ref);
  CHECK_NEAR(off, 0.0, 0.0);
}

static void check_track(const char *track, const robot_params *params, const char *how) {
  check_track_at(track, params, race_default_config().dt, how);
}

int main(void) {
  FILE *f = fopen(REFERENCE, "r");
  if (!f) TEST_SKIP("no reference file " REFERENCE);
  fclose(f);
  grip_load_error err;
  grip_load_error_clear(&err);
  char probe[512];
  if (grip_torcs_find_track("michigan", probe, sizeof probe) != 0 ||
      grip_torcs_load_named("car1-trb1", NULL, &car, &err) != 0)
    TEST_SKIP("TORCS data not installed under " GRIP_TORCS_TRACK_DIR " (apt-get install torcs-data)");

  robot_params params = robot_default_params();
  check_track("e-track-4", &params, "");
  check_track("wheel-1", &params, "");
  robot_params flat = params;
  flat.plan_banking = 0;
  check_track("michigan", &flat, "plan_banking 0");
  /* As TORCS runs it: physics at 500 Hz, the robot deciding at 50 Hz with its inputs held in
   * between (robot_params.control_rate), and still within 1 % of TORCS's best. */
  robot_params torcs_rate = params;
  torcs_rate.control_rate = 50.0;
  check_track_at("e-track-4", &torcs_rate, 0.002, "50 Hz, dt 0.002");
  check_track_at("wheel-1", &torcs_rate, 0.01, "50 Hz, dt 0.01");
  /* With the banking in its plan the robot is faster on the oval. */
  double off = -1.0;
  double banked = grip_best("michigan", &params, &off);
  double ref = reference_best("michigan");
  printf("  %-10s %-14s best %.2f s (%+.1f %% against TORCS), off the road %.2f s\n", "michigan", "banking",
         banked, 100.0 * (banked / ref - 1.0), off);
  CHECK(banked < ref);
  CHECK_NEAR(off, 0.0, 0.0);

  /* Every installed TORCS track (38 in torcs-data 1.3.7, both track versions): 3 laps alone,
   * no retirement, never at a wall, and the best lap within 2 % of the robot's own predicted
   * lap (2.5 % on dirt, below). Measured with TORCS's skid factor and lossless transmission:
   * -1.4 % (forza, ruudskogen, wheel-2) .. +1.7 % (g-speedway) on the road tracks and ovals.
   * Never off the road: spring's long right-hander over a crest took the car
   * 2-4 m outside its line onto the verge (0.2-0.6 s a race at dt 0.01-0.002) until the plan
   * counted each axle's own limit (axle_balance, docs/driver.md). */
  static const char *const categories[] = {"road", "oval", "dirt"};
  static const char *const v3[] = {"a-speedway", "e-track-5", "dirt-4", "dirt-5", "dirt-6", "mixed-1", "mixed-2"};
  int raced = 0, raced_v3 = 0, compared = 0;
  for (size_t c = 0; c < sizeof categories / sizeof categories[0]; ++c) {
    char dir[256];
    snprintf(dir, sizeof dir, "%s/%s", GRIP_TORCS_TRACK_DIR, categories[c]);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d) continue;
    char names[64][64];
    int count = 0;
    for (struct dirent *e; (e = readdir(d)) && count < 64;) {
      size_t len = strlen(e->d_name);
      if (e->d_name[0] == '.' || len >= sizeof names[0]) continue;
      memcpy(names[count++], e->d_name, len + 1);
    }
    closedir(d);
    qsort(names, (size_t)count, sizeof names[0], by_name);
    for (int k = 0; k < count; ++k) {
      race_result res;
      if (race_alone(names[k], &params, race_default_config().dt, &res) != 0) {
        CHECK(0);
        continue;
      }
      const race_car_result *r = &res.results[0];
      printf("  %-12s %d laps, best %.2f s, plan %.2f s (%+.1f %%), off %.2f s, wall %.2f s\n", names[k], r->laps,
             r->best_lap_s, r->plan_lap_s, 100.0 * (r->best_lap_s / r->plan_lap_s - 1.0), r->off_track_s,
             r->wall_contact_s);
      CHECK(r->finished && r->laps == 3 && r->reason == RACE_RETIRE_NONE);
      /* road tracks and ovals: no more than 1 % slower than TORCS's best robot (measured: at most
       * +0.6 %, alpine-1) */
      double torcs = reference_best(names[k]);
      if (c < 2 && isfinite(torcs)) {
        CHECK(r->best_lap_s <= 1.01 * torcs);
        ++compared;
      }
      /* Issue 13 asks the dirt tracks only to be completed; their plan is held to 2.5 % (mixed-1's
       * best lap is 2.05-2.13 % behind its plan at dt 0.01-0.002 since the tyre's slide gain). */
      CHECK_REL(r->best_lap_s, r->plan_lap_s, c == 2 ? 0.025 : 0.02);
      CHECK_NEAR(r->wall_contact_s, 0.0, 0.0);
      CHECK_NEAR(r->off_track_s, 0.0, 0.0);
      for (size_t v = 0; v < sizeof v3 / sizeof v3[0]; ++v)
        if (strcmp(v3[v], names[k]) == 0) ++raced_v3;
      ++raced;
      race_result_free(&res);
    }
  }
  printf("  %d tracks raced\n", raced);
  CHECK(raced == 38);
  CHECK(raced_v3 == 7);
  CHECK(compared == 30); /* every road track and oval has a TORCS reference */

  /* Spring's right-hander at the smaller steps too, where the car left the road for longer
   * (0.5 s at dt 0.005, 0.6 s at 0.002). */
  for (int k = 0; k < 2; ++k) {
    double dt = k ? 0.005 : 0.002;
    race_result res;
    if (race_alone("spring", &params, dt, &res) != 0) {
      CHECK(0);
      break;
    }
    const race_car_result *r = &res.results[0];
    printf("  spring at dt %.3f: best %.2f s, plan %.2f s, off the road %.2f s, wall %.2f s\n", dt, r->best_lap_s,
           r->plan_lap_s, r->off_track_s, r->wall_contact_s);
    CHECK(r->finished && r->laps == 3);
    CHECK_REL(r->best_lap_s, r->plan_lap_s, 0.02);
    CHECK_NEAR(r->off_track_s, 0.0, 0.0);
    CHECK_NEAR(r->wall_contact_s, 0.0, 0.0);
    race_result_free(&res);
  }

  /* Corkscrew's hairpin at dt 0.002 and 0.005: the barrier query once put the inner wall 0.1 m
   * from the road there (its tangent line, extended), and a car at 66 km/h stopped dead against
   * it, losing 5-10 s in one lap of three. Laps 2 and 3 now agree within 0.2 %. */
  for (int k = 0; k < 2; ++k) {
    double dt = k ? 0.005 : 0.002;
    race_result res;
    if (race_alone("corkscrew", &params, dt, &res) != 0) {
      CHECK(0);
      break;
    }
    const race_car_result *r = &res.results[0];
    printf("  corkscrew at dt %.3f: laps 2 and 3 %.3f and %.3f s, off the road %.2f s\n", dt, r->lap_times[1],
           r->lap_times[2], r->off_track_s);
    CHECK(r->laps == 3);
    CHECK_REL(r->lap_times[1], r->lap_times[2], 0.002);
    CHECK_NEAR(r->off_track_s, 0.0, 0.0);
    race_result_free(&res);
  }
  return TEST_RESULT();
}
