/* grip replay FILE: re-simulates a recorded drive bit-identically (docs/replay.md), shows it in
 * the viewer when there is one, and checks the final state hash against the recorded one. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "replay.h"
#include "session.h"
#ifdef GRIP_HAVE_VIEWER
#include "viewer.h"
#endif

int cmd_replay(int argc, char **argv);
int cmd_replay(int argc, char **argv) {
  const char *telemetry = NULL;
  bool json = false, no_window = false;
  const char *files[1] = {NULL};
  int file_count = 0;
#ifdef GRIP_HAVE_VIEWER
  viewer_options vo = viewer_default_options();
#endif
  cli_option options[] = {
      {"--telemetry", CLI_STRING, &telemetry, 0, 0, "write the run's telemetry CSV to FILE"},
      {"--no-window", CLI_FLAG, &no_window, 0, 0, "only re-simulate and check (always so without the viewer)"},
#ifdef GRIP_HAVE_VIEWER
      {"--frames", CLI_INT, &vo.frames, 1, 1e7, "show N frames of 1/60 s, then finish without the window"},
      {"--screenshot", CLI_STRING, &vo.screenshot, 0, 0, "save the last shown frame as a PNG"},
      {"--camera", CLI_STRING, &vo.camera, 0, 0, "first camera: chase, bonnet, orbit, tv, map, fixed (the scene's)"},
#endif
      CLI_OPTION_JSON(json),
  };
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), files, 1, &file_count);
  if (rc) return rc == 1 ? 0 : rc;
  if (file_count != 1) {
    fprintf(stderr, "grip replay: expected one replay FILE (see grip replay --help)\n");
    return CLI_USAGE_ERROR;
  }
  grip_replay r;
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_replay_load(files[0], &r, &err) != 0) {
    fprintf(stderr, "grip replay: %s\n", err.message);
    return 1;
  }
  FILE *tel = NULL;
  if (telemetry && !(tel = fopen(telemetry, "w"))) {
    fprintf(stderr, "grip replay: %s: cannot write\n", telemetry);
    grip_replay_free(&r);
    return 1;
  }
  session *s = session_open_replay(&r, "replay");
  if (!s) {
    if (tel) fclose(tel);
    grip_replay_free(&r);
    return 1;
  }
  s->telemetry = tel;
  if (tel)
    fputs("time_s,car,lap,distance_m,lateral_m,x_m,y_m,z_m,speed_kmh,throttle,brake,steering,gear,rpm,lat_g,long_g\n",
          tel);
#ifdef GRIP_HAVE_VIEWER
  if (!no_window) {
    viewer_result vr;
    if (viewer_run(s, &vo, "replay", &vr) != 0) {
      session_close(s);
      if (tel) fclose(tel);
      grip_replay_free(&r);
      return 1;
    }
  }
#endif
  /* Whatever the window did not show is simulated now, up to the recorded end. */
  while (s->step < r.steps) session_step(s);
  uint64_t hash = session_hash(s);
  bool same = hash == r.hash;
  if (json) {
    char got[20], want[20];
    snprintf(got, sizeof got, "%016" PRIx64, hash);
    snprintf(want, sizeof want, "%016" PRIx64, r.hash);
    json_writer w;
    json_begin(&w, stdout);
    json_string(&w, "file", files[0]);
    json_int(&w, "steps", s->step);
    json_number(&w, "sim_time_s", s->time);
    json_int(&w, "cars", s->car_count);
    json_string(&w, "state_hash", got);
    json_string(&w, "recorded_hash", want);
    json_bool(&w, "identical", same);
    json_end(&w);
  } else {
    printf("replay: %s: %lld steps (%.2f s), %d car(s), state hash %016" PRIx64 " %s\n", files[0], s->step, s->time,
           s->car_count, hash, same ? "= recorded" : "DIFFERS");
  }
  if (!same)
    fprintf(stderr, "grip replay: %s: the final state hash %016" PRIx64 " differs from the recorded %016" PRIx64
            " (different grip build, car or track files?)\n", files[0], hash, r.hash);
  session_close(s);
  if (tel) fclose(tel);
  grip_replay_free(&r);
  return same ? 0 : 1;
}
