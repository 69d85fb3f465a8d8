/* grip soak: a field of robot cars for hours of simulated time, fuel use off, then one robot
 * alone as long; checks nothing retires, lap times do not drift, memory does not grow. */
#include <math.h>
#include <stdio.h>

#include "car_option.h"
#include "cli.h"
#include "soak.h"
#include "track_file.h"

int cmd_soak(int argc, char **argv);
int cmd_soak(int argc, char **argv) {
  const char *track_spec = "default", *car_spec = "builtin";
  int cars = 16;
  double hours = 24.0, dt = 0.01;
  bool json = false, quiet = false;
  cli_option options[] = {
      {"--track", CLI_STRING, &track_spec, 0, 0, "default, a .track file, a TORCS .xml or torcs:NAME (default: default)"},
      CLI_OPTION_CAR(car_spec),
      {"--cars", CLI_INT, &cars, 1, RACE_MAX_CARS, "cars in the field (default 16)"},
      {"--hours", CLI_DOUBLE, &hours, 0.01, 1000.0, "simulated hours of each run (default 24)"},
      CLI_OPTION_DT(dt, "0.01"),
      {"--quiet", CLI_FLAG, &quiet, 0, 0, "no progress lines on stderr"},
      CLI_OPTION_JSON(json),
  };
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  static grip_car loaded;
  if (cli_load_car("soak", car_spec, &loaded) != 0) return 1;
  grip_track *track = NULL;
  char track_name[128] = "";
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_track_open(track_spec, &track, track_name, sizeof track_name, &err) != 0) {
    fprintf(stderr, "grip soak: %s\n", err.message);
    return 1;
  }
  char why[256];
  if (race_check_track(track, &loaded.def, why, sizeof why) != 0) {
    fprintf(stderr, "grip soak: %s with %s: %s\n", track_name, loaded.def.name, why);
    grip_track_destroy(track);
    return 1;
  }
  soak_config cfg = soak_default_config();
  cfg.track = track;
  cfg.car = &loaded.def;
  cfg.car_name = loaded.def.name;
  cfg.cars = cars;
  cfg.seconds = hours * 3600.0;
  cfg.dt = dt;
  cfg.progress = quiet ? NULL : stderr;
  static soak_result res; /* large: per-window figures */
  if (soak_run(&cfg, &res) != 0) {
    fprintf(stderr, "grip soak: the race could not be set up (grid off the track?)\n");
    grip_track_destroy(track);
    return 1;
  }
  grip_track_destroy(track);
  long field_laps = 0;
  for (int k = 0; k < res.field.cars; ++k) field_laps += res.field.results[k].laps;
  const race_car_result *lone = &res.lone.results[0];
  const soak_window *w0 = &res.w[0], *wn = &res.w[res.windows - 1];
  double lap_first = res.drift_first >= 0 ? res.w[res.drift_first].lone_mean_lap_s : NAN;
  double lap_last = res.drift_last >= 0 ? res.w[res.drift_last].lone_mean_lap_s : NAN;
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_string(&w, "track", track_name);
    json_string(&w, "car", loaded.def.name);
    json_int(&w, "cars", cars);
    json_number(&w, "hours", hours);
    json_number(&w, "dt_s", dt);
    json_number(&w, "window_s", res.window_s);
    json_int(&w, "field_laps", field_laps);
    json_number(&w, "field_realtime_factor", res.field.realtime_factor);
    json_int(&w, "retired", res.retired);
    json_int(&w, "stuck_in_field", res.stuck_in_field);
    json_int(&w, "lone_laps", lone->laps);
    json_number(&w, "lone_best_lap_s", lone->best_lap_s);
    json_number(&w, "lone_first_window_mean_lap_s", lap_first);
    json_number(&w, "lone_last_window_mean_lap_s", lap_last);
    json_number(&w, "drift_pct", res.drift_pct);
    json_int(&w, "heap_bytes_first_window", w0->heap_bytes);
    json_int(&w, "heap_bytes_end", wn->heap_bytes);
    json_int(&w, "heap_growth_bytes", res.heap_growth_bytes);
    json_int(&w, "max_rss_kb_first_window", w0->max_rss_kb);
    json_int(&w, "max_rss_kb_end", wn->max_rss_kb);
    json_open(&w, "retirements", '[');
    for (int run = 0; run < 2; ++run) {
      const race_result *rr = run == 0 ? &res.field : &res.lone;
      for (int k = 0; k < rr->cars; ++k) {
        const race_car_result *c = &rr->results[k];
        if (c->status != RACE_CAR_RETIRED) continue;
        json_open(&w, NULL, '{');
        json_string(&w, "run", run == 0 ? "field" : "lone");
        json_string(&w, "name", c->name);
        json_string(&w, "reason", race_retire_reason_name(c->reason));
        json_number(&w, "retired_time_s", c->retired_time_s);
        json_int(&w, "laps", c->laps);
        json_number(&w, "top_speed_kmh", c->top_speed_kmh);
        json_close(&w, '}');
      }
    }
    json_close(&w, ']');
    json_bool(&w, "passed", res.passed);
    json_string(&w, "verdict", res.verdict);
    json_end(&w);
  } else {
    printf("soak: %s, %s, %d car(s) for %g h, then 1 alone for %g h, dt %g s, fuel use off\n", track_name,
           loaded.def.name, cars, hours, hours, dt);
    printf("  field           %ld laps, %d retired, %.0f x real time\n", field_laps, res.retired,
           res.field.realtime_factor);
    printf("  lone robot      %d laps, best %.4f s; mean flying lap %.4f s in window %d, %.4f s in window %d "
           "(%.0f s windows): drift %+.5f %%\n",
           lone->laps, lone->best_lap_s, lap_first, res.drift_first + 1, lap_last, res.drift_last + 1, res.window_s,
           res.drift_pct);
    printf("  heap in use     %ld B after the first window, %ld B at the end: %+ld B\n", w0->heap_bytes, wn->heap_bytes,
           res.heap_growth_bytes);
    printf("  peak RSS        %ld kB after the first window, %ld kB at the end\n", w0->max_rss_kb, wn->max_rss_kb);
    for (int run = 0; run < 2; ++run) {
      const race_result *rr = run == 0 ? &res.field : &res.lone;
      for (int k = 0; k < rr->cars; ++k) {
        const race_car_result *c = &rr->results[k];
        if (c->status == RACE_CAR_RETIRED)
          printf("  retired         %s%s at %.1f s (%s) after %d laps, top speed %.1f km/h\n", run ? "lone " : "", c->name,
                 c->retired_time_s, race_retire_reason_name(c->reason), c->laps, c->top_speed_kmh);
      }
    }
    printf("  verdict         %s\n", res.verdict);
  }
  int status = res.passed ? 0 : 1;
  soak_result_free(&res);
  return status;
}
