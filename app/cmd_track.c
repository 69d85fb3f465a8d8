/* grip track: race-track figures. Sub-commands: info. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "grip/track.h"
#include "track_file.h"

int cmd_track(int argc, char **argv);

static const char *const track_usage =
    "info TRACK [--json]\n"
    "  TRACK: a native .track file, a TORCS track .xml, torcs:NAME, or default";

static int track_info(int argc, char **argv) {
  bool json = false;
  cli_option options[] = {
      {"--json", CLI_FLAG, &json, 0, 0, "print the figures as JSON"},
  };
  const char *positional[1] = {NULL};
  int npos = 0;
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), positional, 1, &npos);
  if (rc == 1) return 0;
  if (rc) return rc;
  if (npos != 1) {
    fprintf(stderr, "grip track info: missing TRACK (see grip track --help)\n");
    return CLI_USAGE_ERROR;
  }
  grip_track *track = NULL;
  char name[128] = "";
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_track_open(positional[0], &track, name, sizeof name, &err) != 0) {
    fprintf(stderr, "grip track info: %s\n", err.message);
    return 1;
  }
  grip_track_stats st = grip_track_get_stats(track);
  double min_radius = st.min_radius;
  double elevation = st.z_max - st.z_min;
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_string(&w, "name", name);
    json_number(&w, "length_m", st.length);
    json_number(&w, "width_m", st.width);
    json_int(&w, "segments", st.segments);
    if (min_radius < 1e300)
      json_number(&w, "min_radius_m", min_radius);
    else
      json_null(&w, "min_radius_m");
    json_number(&w, "elevation_range_m", elevation);
    json_number(&w, "closure_error_m", st.closure_error);
    json_number(&w, "heading_closure_rad", st.heading_closure);
    json_number(&w, "x_size_m", st.x_max - st.x_min);
    json_number(&w, "y_size_m", st.y_max - st.y_min);
    json_end(&w);
  } else {
    printf("track            %s\n", name);
    printf("length           %.3f m\n", st.length);
    printf("width            %.2f m\n", st.width);
    printf("segments         %d\n", st.segments);
    if (min_radius < 1e300)
      printf("min radius       %.2f m\n", min_radius);
    else
      printf("min radius       none (no turns)\n");
    printf("elevation range  %.3f m\n", elevation);
    printf("closure error    %.6f m (heading %.6f rad)\n", st.closure_error, st.heading_closure);
    printf("plan size        %.1f x %.1f m (centre line)\n", st.x_max - st.x_min,
           st.y_max - st.y_min);
  }
  grip_track_destroy(track);
  return 0;
}

int cmd_track(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    FILE *out = argc < 2 ? stderr : stdout;
    fprintf(out, "usage: grip track %s\n", track_usage);
    return argc < 2 ? CLI_USAGE_ERROR : 0;
  }
  if (strcmp(argv[1], "info") == 0) {
    argv[1] = "track info";
    return track_info(argc - 1, argv + 1);
  }
  fprintf(stderr, "grip track: unknown sub-command '%s' (try: info)\n", argv[1]);
  return CLI_USAGE_ERROR;
}
