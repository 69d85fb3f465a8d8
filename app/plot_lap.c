/* grip plot lap: one lap on the track map: the road, the driven line coloured by speed, where
 * the brakes go on, the start line and the sector lines (thirds of the lap, as grip race times
 * them). */
#include <math.h>
#include <plplot.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plot_canvas.h"
#include "plot_kinds.h"
#include "plot_telemetry.h"
#include "track_file.h"

#define BRAKE_ON 0.05 /* brake pedal fraction that counts as braking */
#define MAX_EDGE 4001

/* The line across the road at a distance along the track, from `reach` m beyond its left edge
 * to as far beyond the right edge; *label_x/y is a further `reach` m out on the left. */
static void across(const grip_track *track, double s, double reach, double x[2], double y[2], double *label_x,
                   double *label_y, double *label_just) {
  grip_track_point p = grip_track_point_at(track, s);
  double nx = -sin(p.heading), ny = cos(p.heading), h = 0.5 * p.width + reach;
  x[0] = p.position.x + nx * h, y[0] = p.position.y + ny * h;
  x[1] = p.position.x - nx * h, y[1] = p.position.y - ny * h;
  *label_x = p.position.x + nx * (h + 0.5 * reach), *label_y = p.position.y + ny * (h + 0.5 * reach);
  /* Text that reads away from the road: left-justified when the line points right, and so on. */
  *label_just = nx < -0.5 ? 1.0 : (nx > 0.5 ? 0.0 : 0.5);
  if (ny < -0.5) *label_y -= 1.5 * reach; /* below the line: one text line lower */
}

int plot_lap(int argc, char **argv) {
  plot_options o = plot_default_options();
  const char *path = NULL, *track_spec = "default";
  int entry = 1, lap_number = 0;
  cli_option options[] = {
      {"--telemetry", CLI_STRING, &path, 0, 0, "telemetry CSV of grip race --telemetry"},
      {"--track", CLI_STRING, &track_spec, 0, 0, "the track raced: default, a .track file, a TORCS .xml or torcs:NAME"},
      {"--lap", CLI_INT, &lap_number, 1, TELEMETRY_MAX_LAPS, "the lap to draw (default: the fastest complete lap)"},
      {"--entry", CLI_INT, &entry, 1, 64, "which car of the telemetry (its car column; default 1)"},
      PLOT_COMMON_OPTIONS(o),
  };
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  if ((rc = plot_check_options("lap", &o))) return rc;
  if (!path) {
    fprintf(stderr, "grip plot lap: --telemetry FILE is required\n");
    return CLI_USAGE_ERROR;
  }
  grip_track *track = NULL;
  char track_name[128] = "";
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_track_open(track_spec, &track, track_name, sizeof track_name, &err) != 0) {
    fprintf(stderr, "grip plot lap: %s\n", err.message);
    return 1;
  }
  telemetry t;
  if (telemetry_load("lap", path, &t)) {
    grip_track_destroy(track);
    return 1;
  }
  static telemetry_car c;
  static const char *const names[] = {"x_m", "y_m", "speed_kmh", "brake"};
  int col[4];
  rc = telemetry_columns("lap", &t, 4, names, col) || telemetry_car_laps("lap", &t, entry, &c);
  int c_x = col[0], c_y = col[1], c_v = col[2], c_b = col[3];
  if (!rc && lap_number == 0) {
    /* The fastest complete lap. */
    double best = INFINITY;
    for (int i = 0; i < c.laps; ++i)
      if (c.lap[i].complete && c.lap[i].end_time - c.lap[i].start_time < best)
        best = c.lap[i].end_time - c.lap[i].start_time, lap_number = i + 1;
    if (lap_number == 0) lap_number = 1;
  }
  telemetry_lap lap = {0};
  if (!rc) rc = telemetry_get_lap("lap", &t, &c, lap_number, &lap);
  int n = lap.last - lap.first + 1;
  double *x = NULL, *y = NULL, *v = NULL, *bx = NULL, *by = NULL, *bv = NULL;
  if (!rc) {
    x = malloc((size_t)n * sizeof *x), y = malloc((size_t)n * sizeof *y), v = malloc((size_t)n * sizeof *v);
    bx = malloc((size_t)n * sizeof *bx), by = malloc((size_t)n * sizeof *by), bv = malloc((size_t)n * sizeof *bv);
    rc = !x || !y || !v || !bx || !by || !bv;
  }
  int braking = 0;
  double vmin = INFINITY, vmax = 0.0;
  if (!rc) {
    for (int i = 0; i < n; ++i) {
      int r = c.rows[lap.first + i];
      x[i] = telemetry_at(&t, r, c_x), y[i] = telemetry_at(&t, r, c_y), v[i] = telemetry_at(&t, r, c_v);
      vmin = fmin(vmin, v[i]), vmax = fmax(vmax, v[i]);
      /* A braking point: the brake goes on after at least one row off. */
      double brake = telemetry_at(&t, r, c_b);
      double before = telemetry_at(&t, c.rows[lap.first + i > 0 ? lap.first + i - 1 : 0], c_b);
      if (brake > BRAKE_ON && (before <= BRAKE_ON || i == 0)) bx[braking] = x[i], by[braking] = y[i], bv[braking++] = v[i];
    }
  }
  /* The road: both edges sampled about every metre (at most MAX_EDGE points). */
  static double lx[MAX_EDGE], ly[MAX_EDGE], rx[MAX_EDGE], ry[MAX_EDGE];
  double L = grip_track_length(track);
  int m = (int)fmin(MAX_EDGE - 1, ceil(L)) + 1;
  double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY;
  for (int i = 0; i < m; ++i) {
    double ex[2], ey[2];
    grip_track_point p = grip_track_point_at(track, L * i / (m - 1));
    double nx = -sin(p.heading), ny = cos(p.heading), h = 0.5 * p.width;
    ex[0] = p.position.x + nx * h, ey[0] = p.position.y + ny * h;
    ex[1] = p.position.x - nx * h, ey[1] = p.position.y - ny * h;
    lx[i] = ex[0], ly[i] = ey[0], rx[i] = ex[1], ry[i] = ey[1];
    for (int k = 0; k < 2; ++k)
      xmin = fmin(xmin, ex[k]), xmax = fmax(xmax, ex[k]), ymin = fmin(ymin, ey[k]), ymax = fmax(ymax, ey[k]);
  }
  double start_x[2], start_y[2], sector_x[2][2], sector_y[2][2], label_x[3], label_y[3], label_just[3];
  double reach = 0.02 * fmax(xmax - xmin, ymax - ymin); /* lines stick out beyond the road */
  across(track, 0.0, reach, start_x, start_y, &label_x[0], &label_y[0], &label_just[0]);
  across(track, L / 3.0, reach, sector_x[0], sector_y[0], &label_x[1], &label_y[1], &label_just[1]);
  across(track, 2.0 * L / 3.0, reach, sector_x[1], sector_y[1], &label_x[2], &label_y[2], &label_just[2]);

  FILE *csv = NULL;
  if (!rc && o.csv && !(csv = plot_csv_open("lap", o.csv))) rc = 1;
  if (!rc) {
    plot_csv_series(csv, "map", "driven", n, x, y, v);
    plot_csv_series(csv, "map", "braking", braking, bx, by, bv);
    plot_csv_series(csv, "map", "left_edge", m, lx, ly, NULL);
    plot_csv_series(csv, "map", "right_edge", m, rx, ry, NULL);
    plot_csv_series(csv, "map", "start_line", 2, start_x, start_y, NULL);
    plot_csv_series(csv, "map", "sector_2_line", 2, sector_x[0], sector_y[0], NULL);
    plot_csv_series(csv, "map", "sector_3_line", 2, sector_x[1], sector_y[1], NULL);
    rc = plot_csv_close("lap", o.csv, csv);
  }
  if (!rc) rc = plot_begin("lap", &o);
  if (!rc) {
    char text[1200];
    double lap_time = lap.end_time - lap.start_time;
    snprintf(text, sizeof text, "Lap %d on %s: %.2f s", lap_number, track_name, lap_time);
    plot_title(text);
    const char *base = strrchr(path, '/');
    snprintf(text, sizeof text,
             "track %s (%s, %.1f m) · telemetry %s, car %d, lap %d of %d: %.3f s, %.0f–%.0f km/h\n"
             "braking points: brake pedal above %.0f %% · sectors: thirds of the lap, as grip race times them",
             track_name, track_spec, L, base ? base + 1 : path, entry, lap_number, c.laps, lap_time, vmin, vmax,
             100.0 * BRAKE_ON);
    plot_caption(text);
    double pad = 0.04 * fmax(xmax - xmin, ymax - ymin);
    plot_panel_equal(0.08, 0.86, 0.15, 0.9, xmin - pad, xmax + pad, ymin - pad, ymax + pad, "x (m)", "y (m)");
    /* Road surface: quads between consecutive edge samples. */
    for (int i = 0; i + 1 < m; ++i) {
      double qx[4] = {lx[i], lx[i + 1], rx[i + 1], rx[i]}, qy[4] = {ly[i], ly[i + 1], ry[i + 1], ry[i]};
      plot_fill(4, qx, qy, PLOT_LIGHT_GREY);
    }
    plot_line(m, lx, ly, PLOT_DARK_GREY, 1.2, 1);
    plot_line(m, rx, ry, PLOT_DARK_GREY, 1.2, 1);
    double vlo = floor(vmin / 10.0) * 10.0, vhi = ceil(vmax / 10.0) * 10.0;
    plot_coloured_line(n, x, y, v, vlo, vhi, 4.0);
    plot_line(2, start_x, start_y, PLOT_BLACK, 4.0, 1);
    plot_line(2, sector_x[0], sector_y[0], PLOT_PURPLE, 2.5, 2);
    plot_line(2, sector_x[1], sector_y[1], PLOT_PURPLE, 2.5, 2);
    plot_text(label_x[0], label_y[0], label_just[0], PLOT_BLACK, 0.9, "start/finish");
    plot_text(label_x[1], label_y[1], label_just[1], PLOT_PURPLE, 0.9, "sector 2");
    plot_text(label_x[2], label_y[2], label_just[2], PLOT_PURPLE, 0.9, "sector 3");
    plot_markers(braking, bx, by, PLOT_RED, "▼", 1.0);
    plot_colour_bar(vlo, vhi, "speed (km/h)");
    plot_legend_entry legend[] = {
        {"driven line (colour: speed)", PLOT_GREEN, 'c', 1, NULL},
        {"brakes on", PLOT_RED, 'm', 0, "▼"},
        {"start/finish line", PLOT_BLACK, 'l', 1, NULL},
        {"sector lines", PLOT_PURPLE, 'l', 2, NULL},
        {"road", PLOT_DARK_GREY, 'l', 1, NULL},
    };
    plot_legend(PL_POSITION_TOP | PL_POSITION_LEFT, 5, legend);
    plot_end();
  }
  free(x), free(y), free(v), free(bx), free(by), free(bv);
  telemetry_car_free(&c);
  telemetry_free(&t);
  grip_track_destroy(track);
  return rc;
}
