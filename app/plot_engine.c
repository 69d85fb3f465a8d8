/* grip plot engine: the full-throttle torque and power curves, and road speed per gear with the
 * automatic's shift points (the "sawtooth"). */
#include "car_layout.h"
#include <math.h>
#include <plplot.h>
#include <stdlib.h>

#include "car_option.h"
#include "plot_canvas.h"
#include "plot_kinds.h"

#define RPM_TO_RAD_S (3.14159265358979323846 / 30.0)
#define MAX_SAMPLES 4096

/* The driven wheels' radius (m): the average of both axles for AWD. */
static double driven_radius(const grip_vehicle_def *d) {
  switch (d->drivetrain.layout) {
    case GRIP_DRIVE_FWD: return d->axles[GRIP_AXLE_FRONT].wheel_radius;
    case GRIP_DRIVE_AWD:
      return 0.5 * (d->axles[GRIP_AXLE_FRONT].wheel_radius + d->axles[d->axle_count - 1].wheel_radius);
    case GRIP_DRIVE_TREE: return car_driven_wheel_radius(d); /* the mean over the driven wheels */
    default: return d->axles[d->axle_count - 1].wheel_radius;
  }
}

/* Road speed (km/h) at an engine speed in a gear: ω·r/(ratio·final). */
static double gear_speed_kmh(const grip_vehicle_def *d, int gear, double rpm) {
  return 3.6 * rpm * RPM_TO_RAD_S * driven_radius(d) / (d->gearbox.ratios[gear] * d->gearbox.final_drive);
}

static int compare_doubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Engine speeds to sample from idle to the limiter: every 10 rpm, every curve point, and the
 * power peak inside each linear piece of the curve (T = a + b·rpm gives P ∝ a·rpm + b·rpm²,
 * highest at rpm = −a/(2b)), so the plotted peaks are the curve's own. */
static int engine_samples(const grip_engine_def *e, double *rpm) {
  double lo = e->idle_rpm, hi = e->rev_limit_rpm;
  int n = 0;
  for (double r = lo; r < hi && n < MAX_SAMPLES - 2 * GRIP_MAX_CURVE_POINTS - 2; r += 10.0) rpm[n++] = r;
  rpm[n++] = hi;
  for (int i = 0; i < e->curve_points; ++i) {
    if (e->curve_rpm[i] > lo && e->curve_rpm[i] < hi) rpm[n++] = e->curve_rpm[i];
    if (i == 0) continue;
    double r0 = e->curve_rpm[i - 1], r1 = e->curve_rpm[i];
    double b = (e->curve_torque[i] - e->curve_torque[i - 1]) / (r1 - r0), a = e->curve_torque[i - 1] - b * r0;
    if (b < 0.0) {
      double peak = -a / (2.0 * b);
      if (peak > r0 && peak < r1 && peak > lo && peak < hi) rpm[n++] = peak;
    }
  }
  qsort(rpm, (size_t)n, sizeof *rpm, compare_doubles);
  int m = 0;
  for (int i = 0; i < n; ++i)
    if (m == 0 || rpm[i] > rpm[m - 1]) rpm[m++] = rpm[i];
  return m;
}

int plot_engine(int argc, char **argv) {
  plot_options o = plot_default_options();
  const char *car_spec = "builtin";
  cli_option options[] = {CLI_OPTION_CAR(car_spec), PLOT_COMMON_OPTIONS(o)};
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  if ((rc = plot_check_options("engine", &o))) return rc;
  static grip_car car;
  if (cli_load_car(argv[0], car_spec, &car)) return 1;
  const grip_vehicle_def *d = &car.def;
  const grip_engine_def *e = &d->engine;
  const grip_gearbox_def *g = &d->gearbox;

  /* Curves. */
  static double rpm[MAX_SAMPLES], torque[MAX_SAMPLES], power[MAX_SAMPLES];
  int n = engine_samples(e, rpm);
  int peak_t = 0, peak_p = 0;
  for (int i = 0; i < n; ++i) {
    torque[i] = grip_engine_curve_torque(e, rpm[i]);
    power[i] = torque[i] * rpm[i] * RPM_TO_RAD_S * 1e-3;
    if (torque[i] > torque[peak_t]) peak_t = i;
    if (power[i] > power[peak_p]) peak_p = i;
  }
  /* Gears: engine speed against road speed, idle to limiter, and the automatic's path. */
  double up[GRIP_MAX_GEARS], down[GRIP_MAX_GEARS];
  grip_gearbox_shift_rpm(g, e, up, down);
  int gears = g->forward_gears;
  double gear_v[GRIP_MAX_GEARS][2], gear_rpm[GRIP_MAX_GEARS][2];
  double shift_v[GRIP_MAX_GEARS], shift_rpm[GRIP_MAX_GEARS], shift_gear[GRIP_MAX_GEARS];
  double down_v[GRIP_MAX_GEARS], down_rpm[GRIP_MAX_GEARS], down_gear[GRIP_MAX_GEARS];
  double path_v[3 * GRIP_MAX_GEARS + 2], path_rpm[3 * GRIP_MAX_GEARS + 2];
  int shifts = 0, downs = 0, path = 0;
  path_v[path] = gear_speed_kmh(d, 0, e->idle_rpm), path_rpm[path++] = e->idle_rpm;
  for (int k = 0; k < gears; ++k) {
    gear_rpm[k][0] = e->idle_rpm, gear_rpm[k][1] = e->rev_limit_rpm;
    gear_v[k][0] = gear_speed_kmh(d, k, e->idle_rpm), gear_v[k][1] = gear_speed_kmh(d, k, e->rev_limit_rpm);
    if (k + 1 < gears) {
      double v = gear_speed_kmh(d, k, up[k]);
      shift_v[shifts] = v, shift_rpm[shifts] = up[k], shift_gear[shifts++] = k + 1;
      path_v[path] = v, path_rpm[path++] = up[k];
      path_v[path] = v, path_rpm[path++] = up[k] * g->ratios[k + 1] / g->ratios[k];
    } else {
      path_v[path] = gear_v[k][1], path_rpm[path++] = e->rev_limit_rpm;
    }
    if (k > 0 && down[k] > 0.0) {
      down_v[downs] = gear_speed_kmh(d, k, down[k]), down_rpm[downs] = down[k], down_gear[downs++] = k + 1;
    }
  }

  FILE *csv = NULL;
  if (o.csv && !(csv = plot_csv_open("engine", o.csv))) return 1;
  plot_csv_series(csv, "curves", "torque_Nm", n, rpm, torque, NULL);
  plot_csv_series(csv, "curves", "power_kW", n, rpm, power, NULL);
  for (int k = 0; k < gears; ++k) {
    char name[16];
    snprintf(name, sizeof name, "gear_%d", k + 1);
    plot_csv_series(csv, "gears", name, 2, gear_v[k], gear_rpm[k], NULL);
  }
  plot_csv_series(csv, "gears", "automatic", path, path_v, path_rpm, NULL);
  plot_csv_series(csv, "gears", "upshift", shifts, shift_v, shift_rpm, shift_gear);
  plot_csv_series(csv, "gears", "downshift", downs, down_v, down_rpm, down_gear);
  if (plot_csv_close("engine", o.csv, csv)) return 1;

  if (plot_begin("engine", &o)) return 1;
  char text[1200];
  snprintf(text, sizeof text, "Engine and gearing: %s", d->name ? d->name : "car");
  plot_title(text);
  snprintf(text, sizeof text,
           "car %s (%s)\nfull throttle, idle %.0f rpm to the limiter %.0f rpm · final drive %.2f · "
           "driven wheel radius %.3f m",
           car.name, car.source[0] ? car.source : "built in", e->idle_rpm, e->rev_limit_rpm, g->final_drive,
           driven_radius(d));
  plot_caption(text);

  /* Left: torque and power. */
  double xlo = 0.0, xhi, tlo = 0.0, thi, plo = 0.0, phi;
  plot_nice_range(0.0, e->rev_limit_rpm * 1.04, &xlo, &xhi);
  /* Headroom above the curves for the legend. */
  plot_nice_range(0.0, torque[peak_t] * 1.35, &tlo, &thi);
  plot_nice_range(0.0, power[peak_p] * 1.35, &plo, &phi);
  xlo = tlo = plo = 0.0;
  plot_panel(0.08, 0.45, 0.14, 0.88, xlo, xhi, tlo, thi, "engine speed (rpm)", "torque (N·m)");
  double lim_x[2] = {e->rev_limit_rpm, e->rev_limit_rpm}, lim_y[2] = {tlo, thi};
  plot_line(2, lim_x, lim_y, PLOT_RED, 1.5, 2);
  /* Labels along the lines, on their sides away from the curves. */
  snprintf(text, sizeof text, "limiter %.0f rpm", e->rev_limit_rpm);
  plot_text_up(e->rev_limit_rpm + 0.035 * (xhi - xlo), tlo + 0.03 * (thi - tlo), 0.0, PLOT_RED, 0.9, text);
  double idle_x[2] = {e->idle_rpm, e->idle_rpm};
  plot_line(2, idle_x, lim_y, PLOT_GREY, 1.0, 2);
  snprintf(text, sizeof text, "idle %.0f rpm", e->idle_rpm);
  plot_text_up(e->idle_rpm - 0.03 * (xhi - xlo), tlo + 0.03 * (thi - tlo), 0.0, PLOT_DARK_GREY, 0.9, text);
  plot_line(n, rpm, torque, PLOT_BLUE, 3.0, 1);
  plot_markers(1, &rpm[peak_t], &torque[peak_t], PLOT_BLUE, "●", 1.0);
  plot_right_axis(plo, phi, "power (kW)", PLOT_ORANGE);
  plot_line(n, rpm, power, PLOT_ORANGE, 3.0, 1);
  plot_markers(1, &rpm[peak_p], &power[peak_p], PLOT_ORANGE, "●", 1.0);
  /* The peaks go in the legend: a label beside a marker collides with a curve at some size. */
  char torque_label[96], power_label[96];
  snprintf(torque_label, sizeof torque_label, "torque (left), peak %.0f N·m at %.0f rpm", torque[peak_t], rpm[peak_t]);
  snprintf(power_label, sizeof power_label, "power (right), peak %.1f kW at %.0f rpm", power[peak_p], rpm[peak_p]);
  plot_legend_entry curves[] = {
      {torque_label, PLOT_BLUE, 'l', 1, NULL},
      {power_label, PLOT_ORANGE, 'l', 1, NULL},
      {"rev limiter", PLOT_RED, 'l', 2, NULL},
  };
  plot_legend(PL_POSITION_TOP | PL_POSITION_LEFT, 3, curves);

  /* Right: engine speed against road speed per gear, the automatic's path. */
  double vhi, rhi, rlo;
  plot_nice_range(0.0, gear_v[gears - 1][1] * 1.03, &xlo, &vhi);
  plot_nice_range(0.0, e->rev_limit_rpm * 1.08, &rlo, &rhi);
  plot_panel(0.58, 0.95, 0.14, 0.88, 0.0, vhi, 0.0, rhi, "road speed (km/h)", "engine speed (rpm)");
  double lv[2] = {0.0, vhi}, lr[2] = {e->rev_limit_rpm, e->rev_limit_rpm};
  plot_line(2, lv, lr, PLOT_RED, 1.5, 2);
  for (int k = 0; k < gears; ++k) {
    plot_line(2, gear_v[k], gear_rpm[k], PLOT_GREY, 1.2, 1);
    snprintf(text, sizeof text, "%d", k + 1);
    plot_text(gear_v[k][1], e->rev_limit_rpm + 0.02 * rhi, 0.5, PLOT_BLACK, 0.95, text);
  }
  plot_line(path, path_v, path_rpm, PLOT_BLUE, 3.0, 1);
  plot_markers(shifts, shift_v, shift_rpm, PLOT_ORANGE, "●", 1.1);
  plot_markers(downs, down_v, down_rpm, PLOT_GREEN, "▼", 1.0);
  plot_legend_entry gear_entries[] = {
      {"gear lines (number at the limiter)", PLOT_GREY, 'l', 1, NULL},
      {"automatic at full throttle", PLOT_BLUE, 'l', 1, NULL},
      {"upshift points", PLOT_ORANGE, 'm', 0, "●"},
      {"downshift points", PLOT_GREEN, 'm', 0, "▼"},
      {"rev limiter", PLOT_RED, 'l', 2, NULL},
  };
  plot_legend(PL_POSITION_BOTTOM | PL_POSITION_RIGHT, 5, gear_entries);
  plot_end();
  return 0;
}
