/* grip plot compare: two laps against distance, one panel each for speed, throttle, brake, gear
 * and the time delta (lap B's time at a distance less lap A's), as a telemetry tool shows them.
 * A robot's lap also shows its plan's predicted speed (telemetry column predicted_speed_kmh),
 * dashed: where the driving falls short of the plan. */
#include <math.h>
#include <plplot.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "plot_canvas.h"
#include "plot_kinds.h"
#include "plot_telemetry.h"

#define DELTA_STEP 2.0 /* m between the points of the time-delta curve */

/* One lap's series. */
typedef struct lap_series {
  const char *path;
  const char *label; /* what the lap is called (default: the file name) */
  int entry, lap;
  telemetry t;
  telemetry_car car;
  telemetry_lap rows;
  int n;
  double *d, *time, *speed, *throttle, *brake, *gear; /* time: s since the lap started */
  double *plan; /* km/h, the robot's predicted speed (NULL: no such column in the file) */
  double length; /* m, the lap's distance at its end (the track length estimate) */
} lap_series;

static int fastest_lap(const telemetry_car *c, int except) {
  int best = 0;
  for (int i = 0; i < c->laps; ++i)
    if (c->lap[i].complete && i + 1 != except &&
        (!best || c->lap[i].end_time - c->lap[i].start_time < c->lap[best - 1].end_time - c->lap[best - 1].start_time))
      best = i + 1;
  return best;
}

static void free_series(lap_series *s) {
  free(s->d), free(s->time), free(s->speed), free(s->throttle), free(s->brake), free(s->gear), free(s->plan);
  s->d = s->time = s->speed = s->throttle = s->brake = s->gear = s->plan = NULL;
  telemetry_car_free(&s->car);
  telemetry_free(&s->t);
}

/* Loads the file and its car, picks the lap (0: the fastest complete one other than `except`),
 * and fills the series. Returns 0 or 1 (message printed). */
static int load_series(lap_series *s, int except) {
  if (telemetry_load("compare", s->path, &s->t)) return 1;
  static const char *const names[] = {"distance_m", "time_s", "speed_kmh", "throttle", "brake", "gear"};
  int col[6];
  if (telemetry_columns("compare", &s->t, 6, names, col)) return 1;
  if (telemetry_car_laps("compare", &s->t, s->entry, &s->car)) return 1;
  if (s->lap == 0 && (s->lap = fastest_lap(&s->car, except)) == 0) {
    fprintf(stderr, "grip plot compare: %s: car %d has no complete lap to compare (give --laps)\n", s->path, s->entry);
    return 1;
  }
  if (telemetry_get_lap("compare", &s->t, &s->car, s->lap, &s->rows)) return 1;
  /* Points: the line (distance 0), every row of the lap, the line again at the lap's end. */
  int rows = s->rows.last - s->rows.first + 1, cap = rows + 2;
  double **arrays[] = {&s->d, &s->time, &s->speed, &s->throttle, &s->brake, &s->gear};
  for (int k = 0; k < 6; ++k)
    if (!(*arrays[k] = malloc((size_t)cap * sizeof(double)))) return 1;
  int plan_column = -1; /* optional: telemetry of grip before the column, or of a human driver */
  for (int k = 0; k < s->t.columns; ++k)
    if (strcmp(s->t.names[k], "predicted_speed_kmh") == 0) plan_column = k;
  if (plan_column >= 0 && !(s->plan = malloc((size_t)cap * sizeof(double)))) return 1;
  s->length = s->car.track_length;
  int first = s->car.rows[s->rows.first], last = s->car.rows[s->rows.last];
  double crossing_start = telemetry_at(&s->t, first, col[1]) -
                          telemetry_at(&s->t, first, col[0]) / fmax(0.1, telemetry_at(&s->t, first, col[2]) / 3.6);
  int n = 0;
  for (int i = -1; i <= rows; ++i) {
    int r = i < 0 ? first : (i == rows ? last : s->car.rows[s->rows.first + i]);
    s->speed[n] = telemetry_at(&s->t, r, col[2]);
    s->throttle[n] = 100.0 * telemetry_at(&s->t, r, col[3]);
    s->brake[n] = 100.0 * telemetry_at(&s->t, r, col[4]);
    s->gear[n] = telemetry_at(&s->t, r, col[5]);
    if (s->plan) s->plan[n] = telemetry_at(&s->t, r, plan_column);
    if (i < 0) { /* the line at the start of the lap */
      s->d[n] = 0.0;
      s->time[n] = s->rows.start_time < crossing_start - 1e-9 ? crossing_start - s->rows.start_time : 0.0;
    } else if (i == rows) { /* the line at its end */
      s->d[n] = s->length;
      s->time[n] = s->rows.end_time - s->rows.start_time;
    } else {
      s->d[n] = fmin(telemetry_at(&s->t, r, col[0]), s->length);
      s->time[n] = telemetry_at(&s->t, r, col[1]) - s->rows.start_time;
    }
    ++n;
  }
  s->n = n;
  return 0;
}

/* Time since the lap's start at fraction f of its length: linear between its points. */
static double time_at(const lap_series *s, double f) {
  double d = f * s->length;
  int lo = 0, hi = s->n - 1;
  if (d <= s->d[0]) return s->time[0];
  if (d >= s->d[hi]) return s->time[hi];
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (s->d[mid] <= d) lo = mid;
    else hi = mid;
  }
  double span = s->d[hi] - s->d[lo];
  return span > 0.0 ? s->time[lo] + (s->time[hi] - s->time[lo]) * (d - s->d[lo]) / span : s->time[lo];
}

/* "--telemetry A B", "--laps N M", "--entries I J", "--labels X Y": the second value becomes the
 * -b option. */
static int split_pairs(int argc, char **argv, char **out, int max) {
  static const char *pairs[][2] = {
      {"--telemetry", "--telemetry-b"}, {"--laps", "--laps-b"}, {"--entries", "--entries-b"}, {"--labels", "--labels-b"}};
  int n = 0;
  for (int i = 0; i < argc && n < max; ++i) {
    out[n++] = argv[i];
    for (int p = 0; p < 4; ++p)
      if (strcmp(argv[i], pairs[p][0]) == 0 && i + 2 < argc && argv[i + 2][0] != '-' && n + 3 <= max) {
        out[n++] = argv[++i];
        out[n++] = (char *)pairs[p][1];
        out[n++] = argv[++i];
        break;
      }
  }
  return n;
}

int plot_compare(int argc, char **argv) {
  plot_options o = plot_default_options();
  lap_series a = {0}, b = {0};
  a.entry = b.entry = 1;
  cli_option options[] = {
      {"--telemetry", CLI_STRING, &a.path, 0, 0, "A.csv [B.csv]: telemetry of grip race --telemetry (B defaults to A)"},
      {"--laps", CLI_INT, &a.lap, 1, TELEMETRY_MAX_LAPS, "N [M]: lap of A and of B (default: the fastest complete laps)"},
      {"--entries", CLI_INT, &a.entry, 1, 64, "I [J]: car of A and of B (their car column; default 1 1)"},
      {"--labels", CLI_STRING, &a.label, 0, 0, "X [Y]: names of A and B in the legend, e.g. the cars (default: file names)"},
      {"--telemetry-b", CLI_STRING, &b.path, 0, 0, "B.csv, the same as the second value of --telemetry"},
      {"--laps-b", CLI_INT, &b.lap, 1, TELEMETRY_MAX_LAPS, "M, the same as the second value of --laps"},
      {"--entries-b", CLI_INT, &b.entry, 1, 64, "J, the same as the second value of --entries"},
      {"--labels-b", CLI_STRING, &b.label, 0, 0, "Y, the same as the second value of --labels"},
      PLOT_COMMON_OPTIONS(o),
  };
  char *args[80];
  if (argc > 60) {
    fprintf(stderr, "grip plot compare: too many arguments\n");
    return CLI_USAGE_ERROR;
  }
  int nargs = split_pairs(argc, argv, args, 80);
  int rc = cli_parse(nargs, args, options, CLI_COUNT(options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  if ((rc = plot_check_options("compare", &o))) return rc;
  if (!a.path) {
    fprintf(stderr, "grip plot compare: --telemetry A.csv [B.csv] is required\n");
    return CLI_USAGE_ERROR;
  }
  if (!b.path) b.path = a.path;
  bool same = strcmp(a.path, b.path) == 0 && a.entry == b.entry;
  if (same && a.lap && a.lap == b.lap) {
    fprintf(stderr, "grip plot compare: laps A and B are the same lap\n");
    return CLI_USAGE_ERROR;
  }
  rc = load_series(&a, same ? b.lap : 0) || load_series(&b, same ? a.lap : 0);

  /* The time delta on a common grid of distance fractions. */
  double length = fmin(a.length, b.length);
  int m = (int)ceil(length / DELTA_STEP) + 1;
  double *dd = malloc((size_t)m * sizeof *dd), *delta = malloc((size_t)m * sizeof *delta);
  if (!dd || !delta) rc = 1;
  double dmin = 0.0, dmaxv = 0.0;
  if (!rc) {
    for (int k = 0; k < m; ++k) {
      double f = (double)k / (m - 1);
      dd[k] = f * length;
      delta[k] = time_at(&b, f) - time_at(&a, f);
      dmin = fmin(dmin, delta[k]), dmaxv = fmax(dmaxv, delta[k]);
    }
  }
  FILE *csv = NULL;
  if (!rc && o.csv && !(csv = plot_csv_open("compare", o.csv))) rc = 1;
  if (!rc) {
    lap_series *s[2] = {&a, &b};
    const char *name[2] = {"A", "B"};
    for (int k = 0; k < 2; ++k) {
      plot_csv_series(csv, "speed_kmh", name[k], s[k]->n, s[k]->d, s[k]->speed, s[k]->time);
      if (s[k]->plan) plot_csv_series(csv, "predicted_speed_kmh", name[k], s[k]->n, s[k]->d, s[k]->plan, NULL);
      plot_csv_series(csv, "throttle_pct", name[k], s[k]->n, s[k]->d, s[k]->throttle, NULL);
      plot_csv_series(csv, "brake_pct", name[k], s[k]->n, s[k]->d, s[k]->brake, NULL);
      plot_csv_series(csv, "gear", name[k], s[k]->n, s[k]->d, s[k]->gear, NULL);
    }
    plot_csv_series(csv, "delta_s", "B_minus_A", m, dd, delta, NULL);
    rc = plot_csv_close("compare", o.csv, csv);
  }
  if (!rc) rc = plot_begin("compare", &o);
  if (!rc) {
    double ta = a.rows.end_time - a.rows.start_time, tb = b.rows.end_time - b.rows.start_time;
    char text[1200], la[300], lb[300];
    const char *ba = strrchr(a.path, '/'), *bb = strrchr(b.path, '/');
    ba = a.label ? a.label : (ba ? ba + 1 : a.path), bb = b.label ? b.label : (bb ? bb + 1 : b.path);
    snprintf(text, sizeof text, "Lap comparison: B %s A by %.3f s", tb >= ta ? "behind" : "ahead of", fabs(tb - ta));
    plot_title(text);
    snprintf(la, sizeof la, "A: %s, car %d, lap %d: %.3f s", ba, a.entry, a.lap, ta);
    snprintf(lb, sizeof lb, "B: %s, car %d, lap %d: %.3f s", bb, b.entry, b.lap, tb);
    snprintf(text, sizeof text,
             "A: %s, B: %s · lap length %.1f m · Δt > 0: B is behind A at that point\n"
             "lap times from the line crossings%s",
             a.path, b.path, length, (a.lap == 1 || b.lap == 1) ? " (lap 1 from the start signal)" : "");
    plot_caption(text);
    double xmax = length;
    double vmax = 0.0, gmax = 1.0;
    lap_series *s[2] = {&a, &b};
    for (int k = 0; k < 2; ++k)
      for (int i = 0; i < s[k]->n; ++i) vmax = fmax(vmax, s[k]->speed[i]), gmax = fmax(gmax, s[k]->gear[i]);
    int colour[2] = {PLOT_BLUE, PLOT_ORANGE};
    double x0 = 0.08, x1 = 0.95;
    /* Panels top to bottom: [y0, y1] page fractions. */
    const double speed_y[2] = {0.66, 0.90}, thr_y[2] = {0.53, 0.65}, brk_y[2] = {0.40, 0.52},
                 gear_y[2] = {0.27, 0.39}, delta_y[2] = {0.14, 0.26};
    double vlo, vhi;
    plot_nice_range(0.0, vmax * 1.05, &vlo, &vhi);
    plot_panel(x0, x1, speed_y[0], speed_y[1], 0.0, xmax, 0.0, vhi, NULL, "speed (km/h)");
    /* The plans first, dashed and thin, under the laps (B's only when it is another car's). */
    bool plan_b = b.plan && !(a.plan && strcmp(a.path, b.path) == 0 && a.entry == b.entry);
    for (int k = 0; k < 2; ++k)
      if (s[k]->plan && (k == 0 || plan_b)) plot_line(s[k]->n, s[k]->d, s[k]->plan, colour[k], 1.2, 2);
    for (int k = 0; k < 2; ++k) plot_line(s[k]->n, s[k]->d, s[k]->speed, colour[k], 2.0, 1);
    plot_legend_entry legend[3] = {{la, PLOT_BLUE, 'l', 1, NULL}, {lb, PLOT_ORANGE, 'l', 1, NULL}};
    int entries = 2;
    if (a.plan || plan_b) /* one entry for both: the legend must not hide the laps */
      legend[entries++] = (plot_legend_entry){a.plan && plan_b ? "dashed: each robot's plan (predicted speed)"
                                                               : "dashed: the robot's plan (predicted speed)",
                                              a.plan && plan_b ? PLOT_GREY : (a.plan ? PLOT_BLUE : PLOT_ORANGE), 'l', 2, NULL};
    plot_legend(PL_POSITION_BOTTOM | PL_POSITION_RIGHT, entries, legend);
    plot_panel(x0, x1, thr_y[0], thr_y[1], 0.0, xmax, -5.0, 110.0, NULL, "throttle %");
    for (int k = 0; k < 2; ++k) plot_line(s[k]->n, s[k]->d, s[k]->throttle, colour[k], 1.8, 1);
    plot_panel(x0, x1, brk_y[0], brk_y[1], 0.0, xmax, -5.0, 110.0, NULL, "brake %");
    for (int k = 0; k < 2; ++k) plot_line(s[k]->n, s[k]->d, s[k]->brake, colour[k], 1.8, 1);
    plot_panel(x0, x1, gear_y[0], gear_y[1], 0.0, xmax, -0.3, gmax + 0.5, NULL, "gear");
    for (int k = 0; k < 2; ++k) plot_line(s[k]->n, s[k]->d, s[k]->gear, colour[k], 1.8, 1);
    double dlo, dhi;
    plot_nice_range(fmin(dmin, -0.05), fmax(dmaxv, 0.05), &dlo, &dhi);
    plot_panel(x0, x1, delta_y[0], delta_y[1], 0.0, xmax, dlo, dhi, "distance from the line (m)", "Δt B − A (s)");
    double zx[2] = {0.0, xmax}, zy[2] = {0.0, 0.0};
    plot_line(2, zx, zy, PLOT_GREY, 1.0, 1);
    plot_line(m, dd, delta, PLOT_BLACK, 2.0, 1);
    plot_end();
  }
  free(dd), free(delta);
  free_series(&a);
  free_series(&b);
  return rc;
}
