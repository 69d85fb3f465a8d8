/* grip plot gg: lateral against longitudinal acceleration (g) from telemetry, coloured by speed,
 * with the car's friction limit from its tyres. */
#include "car_layout.h"
#include <math.h>
#include <plplot.h>
#include <stdlib.h>
#include <string.h>

#include "car_option.h"
#include "plot_canvas.h"
#include "plot_kinds.h"
#include "plot_telemetry.h"

#define G 9.81
#define RHO 1.29 /* kg/m³, the world's default air density */
#define ELLIPSE 121

/* The tyres' friction limit of the whole car as peak friction coefficients (longitudinal and
 * lateral): Σ μ(Fz)·Fz / (m·g) over the four tyres at their static loads plus the downforce at
 * speed v (m/s). No load transfer: it lowers the limit a little in a real corner. */
static void car_limit(const grip_vehicle_def *d, double v, double *mu_x, double *mu_y) {
  double m = d->body.mass + d->fuel.mass;
  double xcg = (d->body.mass * d->body.center_of_mass.x + d->fuel.mass * d->fuel.position.x) / m;
  double xf = d->axles[0].x, xr = d->axles[1].x;
  double front = (xcg - xr) / (xf - xr);
  grip_aero_coefficients aero = grip_vehicle_aero_coefficients(d, RHO, d->aero.ride_height);
  double axle_load[GRIP_MAX_AXLES] = {front * m * G + aero.downforce_front * v * v,
                                      (1.0 - front) * m * G + aero.downforce_rear * v * v};
  int axles = 2, wheels[GRIP_MAX_AXLES] = {2, 2};
  if (d->axle_count != 2 || !(d->axles[0].half_track > 0.0) || !(d->axles[1].half_track > 0.0)) {
    /* any other vehicle: every axle at its spring-shared static load, the body lift on the
     * first and the last */
    axles = grip_vehicle_static_axle_loads(d, G, axle_load);
    axle_load[0] += aero.downforce_front * v * v;
    axle_load[axles - 1] += aero.downforce_rear * v * v;
    for (int a = 0; a < axles; ++a) wheels[a] = d->axles[a].half_track > 0.0 ? 2 : 1;
  }
  double fx = 0.0, fy = 0.0;
  for (int a = 0; a < axles; ++a) {
    double fz = axle_load[a] / wheels[a], mx, my;
    if (wheels[a] == 2) fz = 0.5 * axle_load[a];
    grip_tyre_peak_mu(&d->axles[a].tyre, fz, &mx, &my);
    fx += wheels[a] * mx * fz * d->assists.grip_multiplier;
    fy += wheels[a] * my * fz * d->assists.grip_multiplier;
  }
  *mu_x = fx / (m * G);
  *mu_y = fy / (m * G);
}

int plot_gg(int argc, char **argv) {
  plot_options o = plot_default_options();
  const char *path = NULL, *car_spec = NULL;
  int entry = 1, lap_number = 0;
  cli_option options[] = {
      {"--telemetry", CLI_STRING, &path, 0, 0, "telemetry CSV of grip race --telemetry"},
      {"--car", CLI_STRING, &car_spec, 0, 0, "the car driven (draws its tyres' friction limit): " CLI_CAR_HELP},
      {"--entry", CLI_INT, &entry, 1, 64, "which car of the telemetry (its car column; default 1)"},
      {"--lap", CLI_INT, &lap_number, 1, TELEMETRY_MAX_LAPS, "only this lap (default: every row)"},
      PLOT_COMMON_OPTIONS(o),
  };
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  if ((rc = plot_check_options("gg", &o))) return rc;
  if (!path) {
    fprintf(stderr, "grip plot gg: --telemetry FILE is required\n");
    return CLI_USAGE_ERROR;
  }
  static grip_car car;
  if (car_spec && cli_load_car(argv[0], car_spec, &car)) return 1;
  telemetry t;
  if (telemetry_load("gg", path, &t)) return 1;
  static telemetry_car c;
  static const char *const names[] = {"lat_g", "long_g", "speed_kmh"};
  int col[3];
  telemetry_lap lap = {0};
  rc = telemetry_columns("gg", &t, 3, names, col) || telemetry_car_laps("gg", &t, entry, &c);
  int c_lat = col[0], c_long = col[1], c_v = col[2];
  if (!rc && lap_number) rc = telemetry_get_lap("gg", &t, &c, lap_number, &lap);
  if (rc) {
    telemetry_car_free(&c);
    telemetry_free(&t);
    return 1;
  }
  int first = lap_number ? lap.first : 0, last = lap_number ? lap.last : c.count - 1;
  int n = last - first + 1;
  double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y), *v = malloc((size_t)n * sizeof *v);
  if (!x || !y || !v) {
    free(x), free(y), free(v);
    telemetry_car_free(&c);
    telemetry_free(&t);
    return 1;
  }
  double gmax = 0.5, vmax = 0.0, vmin = INFINITY;
  for (int i = 0; i < n; ++i) {
    int r = c.rows[first + i];
    x[i] = telemetry_at(&t, r, c_lat);
    y[i] = telemetry_at(&t, r, c_long);
    v[i] = telemetry_at(&t, r, c_v);
    gmax = fmax(gmax, fmax(fabs(x[i]), fabs(y[i])));
    vmax = fmax(vmax, v[i]);
    vmin = fmin(vmin, v[i]);
  }
  /* The friction limit at rest and at the top speed of these rows. */
  double ex[2][ELLIPSE], ey[2][ELLIPSE], mu[2][2] = {{0, 0}, {0, 0}};
  if (car_spec) {
    car_limit(&car.def, 0.0, &mu[0][0], &mu[0][1]);
    car_limit(&car.def, vmax / 3.6, &mu[1][0], &mu[1][1]);
    for (int k = 0; k < 2; ++k) {
      for (int i = 0; i < ELLIPSE; ++i) {
        double th = 2.0 * GRIP_PI * i / (ELLIPSE - 1);
        ex[k][i] = mu[k][1] * cos(th);
        ey[k][i] = mu[k][0] * sin(th);
      }
      gmax = fmax(gmax, fmax(mu[k][0], mu[k][1]));
    }
  }

  FILE *csv = NULL;
  if (o.csv && !(csv = plot_csv_open("gg", o.csv))) rc = 1;
  plot_csv_series(csv, "gg", "telemetry", n, x, y, v);
  if (car_spec) {
    plot_csv_series(csv, "gg", "limit_at_rest", ELLIPSE, ex[0], ey[0], NULL);
    plot_csv_series(csv, "gg", "limit_at_top_speed", ELLIPSE, ex[1], ey[1], NULL);
  }
  if (!rc) rc = plot_csv_close("gg", o.csv, csv);
  if (!rc) rc = plot_begin("gg", &o);
  if (!rc) {
    char text[1200], lapname[48];
    if (lap_number) snprintf(lapname, sizeof lapname, "lap %d", lap_number);
    else snprintf(lapname, sizeof lapname, "all %d lap(s)", c.laps);
    snprintf(text, sizeof text, "g-g diagram: %s, %s", car_spec ? car.name : "telemetry", lapname);
    plot_title(text);
    const char *base = strrchr(path, '/');
    if (car_spec)
      snprintf(text, sizeof text,
               "telemetry %s, car %d (%s), %s, %d points at %.0f–%.0f km/h\nlimit: the tyres' peak μ at static "
               "loads plus downforce (μx %.2f, μy %.2f at rest; %.2f, %.2f at %.0f km/h), no load transfer",
               base ? base + 1 : path, entry, car.name, lapname, n, vmin, vmax, mu[0][0], mu[0][1], mu[1][0],
               mu[1][1], vmax);
    else
      snprintf(text, sizeof text, "telemetry %s, car %d, %s, %d points at %.0f–%.0f km/h (give --car to draw the tyres' limit)",
               base ? base + 1 : path, entry, lapname, n, vmin, vmax);
    plot_caption(text);
    double lim = ceil(gmax * 1.1 * 4.0) / 4.0;
    /* Square panel: equal g scales on both axes. */
    double h = 0.72, w = h * o.height / o.width, x0 = 0.36;
    plot_panel(x0, x0 + w, 0.15, 0.15 + h, -lim, lim, -lim, lim, "lateral acceleration (g, + left)",
               "longitudinal acceleration (g, + forward)");
    double vlo = floor(vmin / 10.0) * 10.0, vhi = ceil(vmax / 10.0) * 10.0;
    plot_coloured_points(n, x, y, v, vlo, vhi, 0.8);
    if (car_spec) {
      plot_line(ELLIPSE, ex[0], ey[0], PLOT_RED, 2.0, 1);
      plot_line(ELLIPSE, ex[1], ey[1], PLOT_RED, 2.0, 2);
    }
    plot_colour_bar(vlo, vhi, "speed (km/h)");
    char l0[64], l1[64];
    snprintf(l0, sizeof l0, "tyre limit at rest");
    snprintf(l1, sizeof l1, "tyre limit at %.0f km/h", vmax);
    plot_legend_entry legend[] = {
        {"telemetry (colour: speed)", PLOT_GREEN, 'm', 0, "•"},
        {l0, PLOT_RED, 'l', 1, NULL},
        {l1, PLOT_RED, 'l', 2, NULL},
    };
    plot_legend(PL_POSITION_LEFT | PL_POSITION_OUTSIDE, car_spec ? 3 : 1, legend);
    plot_end();
  }
  free(x), free(y), free(v);
  telemetry_car_free(&c);
  telemetry_free(&t);
  return rc;
}
