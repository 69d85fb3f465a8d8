/* grip plot handling: the handling diagram of a slow skidpad run (grip skidpad's): road-wheel
 * angle against lateral acceleration on a circle, with the single-track model's line. */
#include "car_layout.h"
#include <math.h>
#include <plplot.h>
#include <stdlib.h>
#include <string.h>

#include "car_option.h"
#include "cornering.h"
#include "plot_canvas.h"
#include "plot_kinds.h"

#define G 9.81
#define DEG (180.0 / GRIP_PI)
#define WINDOW_S 1.0   /* s of skidpad run averaged into one plotted point (grip skidpad's max uses 1 s) */
#define MAX_POINTS 8192
#define MODEL_POINTS 101

/* Window means of the trace: one point per WINDOW_S while the car holds the circle (within
 * 1 m), after the first 5 s. */
typedef struct trace_points {
  double sum_ay, sum_delta, sum_v, t0;
  int in_window;
  bool off_circle;
  int n;
  double ay[MAX_POINTS], delta[MAX_POINTS], speed[MAX_POINTS];
} trace_points;

static void collect(const skidpad_sample *s, void *context) {
  trace_points *p = context;
  if (s->time_s < 5.0) return;
  if (p->in_window == 0) p->t0 = s->time_s, p->off_circle = false;
  p->sum_ay += s->lateral_g, p->sum_delta += s->road_wheel_angle_deg, p->sum_v += s->speed_kmh;
  p->in_window++;
  if (fabs(s->radius_error_m) > 1.0) p->off_circle = true;
  if (s->time_s - p->t0 >= WINDOW_S - 1e-9) {
    if (!p->off_circle && p->n < MAX_POINTS) {
      p->ay[p->n] = p->sum_ay / p->in_window;
      p->delta[p->n] = p->sum_delta / p->in_window;
      p->speed[p->n++] = p->sum_v / p->in_window;
    }
    p->sum_ay = p->sum_delta = p->sum_v = 0.0;
    p->in_window = 0;
  }
}

int plot_handling(int argc, char **argv) {
  plot_options o = plot_default_options();
  const char *car_spec = "builtin";
  double radius = 40.0, dt = 0.002;
  cli_option options[] = {
      CLI_OPTION_CAR(car_spec),
      {"--radius", CLI_DOUBLE, &radius, 5.0, 1000.0, "circle radius, m (default 40)"},
      CLI_OPTION_DT(dt, "0.002"),
      PLOT_COMMON_OPTIONS(o),
  };
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  if ((rc = plot_check_options("handling", &o))) return rc;
  static grip_car car;
  if (cli_load_car(argv[0], car_spec, &car)) return 1;
  const grip_vehicle_def *d = &car.def;
  static trace_points p;
  memset(&p, 0, sizeof p);
  skidpad_result r = sim_skidpad_traced(d, radius, dt, 0.2, 0.3, collect, &p);
  if (p.n < 2) {
    fprintf(stderr, "grip plot handling: the car did not hold the %.0f m circle\n", radius);
    return 1;
  }
  /* Kinematic (Ackermann) angle of the circle the centre of mass drives: the rear axle's radius
   * is sqrt(R² − c²), c the CG's distance ahead of the rear axle; delta0 = atan(L / R_rear). */
  double wheelbase = car_effective_wheelbase(d), c = d->body.center_of_mass.x - car_reference_x(d);
  double delta0 = atan(wheelbase / sqrt(radius * radius - c * c)) * DEG;
  double k_linear = bicycle_understeer_gradient(d, G) * DEG; /* deg per g */
  double ay_max = 0.0, dmin = delta0, dmax = delta0;
  for (int i = 0; i < p.n; ++i) ay_max = fmax(ay_max, p.ay[i]);
  static double model_ay[MODEL_POINTS], model_delta[MODEL_POINTS], linear_delta[MODEL_POINTS];
  static double neutral[MODEL_POINTS];
  for (int i = 0; i < MODEL_POINTS; ++i) {
    model_ay[i] = ay_max * i / (MODEL_POINTS - 1);
    model_delta[i] = delta0 + bicycle_steer_excess(d, model_ay[i], G) * DEG;
    linear_delta[i] = delta0 + k_linear * model_ay[i];
    neutral[i] = delta0;
  }
  for (int i = 0; i < p.n; ++i) dmin = fmin(dmin, p.delta[i]), dmax = fmax(dmax, p.delta[i]);
  for (int i = 0; i < MODEL_POINTS; ++i)
    dmin = fmin(dmin, fmin(model_delta[i], linear_delta[i])), dmax = fmax(dmax, fmax(model_delta[i], linear_delta[i]));

  FILE *csv = NULL;
  if (o.csv && !(csv = plot_csv_open("handling", o.csv))) return 1;
  plot_csv_series(csv, "handling", "skidpad", p.n, p.ay, p.delta, p.speed);
  plot_csv_series(csv, "handling", "single_track", MODEL_POINTS, model_ay, model_delta, NULL);
  plot_csv_series(csv, "handling", "linear_single_track", MODEL_POINTS, model_ay, linear_delta, NULL);
  plot_csv_series(csv, "handling", "neutral_steer", MODEL_POINTS, model_ay, neutral, NULL);
  if (plot_csv_close("handling", o.csv, csv)) return 1;

  if (plot_begin("handling", &o)) return 1;
  char text[1200];
  snprintf(text, sizeof text, "Handling diagram: %s on a %.0f m skidpad", car.name, radius);
  plot_title(text);
  snprintf(text, sizeof text,
           "car %s · circle of radius %.0f m, speed raised by 0.05 m/s², dt %g s, points: %.0f s averages on the "
           "circle (within 1 m)\nundersteer gradient %.2f deg/g measured (0.2–0.3 g), %.2f single-track, %.2f linear · limit "
           "%.3f g at %.1f km/h (%s)",
           car.name, radius, dt, WINDOW_S,
           r.understeer_gradient_deg_per_g, r.bicycle_understeer_gradient_deg_per_g,
           r.linear_bicycle_understeer_gradient_deg_per_g, r.max_lateral_g, r.limit_speed_kmh, r.limit_behaviour);
  plot_caption(text);
  double ylo, yhi, xlo, xhi;
  plot_nice_range(fmin(dmin, 0.0), dmax * 1.05, &ylo, &yhi);
  plot_nice_range(0.0, ay_max * 1.05, &xlo, &xhi);
  xlo = 0.0;
  if (dmin >= 0.0) ylo = 0.0;
  plot_panel(0.1, 0.93, 0.16, 0.88, xlo, xhi, ylo, yhi, "lateral acceleration (g)", "road-wheel angle (deg)");
  plot_line(MODEL_POINTS, model_ay, neutral, PLOT_GREY, 1.5, 2);
  plot_line(MODEL_POINTS, model_ay, linear_delta, PLOT_GREEN, 2.0, 3);
  plot_line(MODEL_POINTS, model_ay, model_delta, PLOT_ORANGE, 2.5, 1);
  plot_markers(p.n, p.ay, p.delta, PLOT_BLUE, "•", 0.9);
  double mx[2] = {r.max_lateral_g, r.max_lateral_g}, my[2] = {ylo, yhi};
  plot_line(2, mx, my, PLOT_RED, 1.5, 2);
  snprintf(text, sizeof text, "max %.3f g", r.max_lateral_g);
  plot_text(r.max_lateral_g - 0.01 * (xhi - xlo), ylo + 0.05 * (yhi - ylo), 1.0, PLOT_RED, 0.9, text);
  char neutral_label[96];
  snprintf(neutral_label, sizeof neutral_label, "neutral steer: atan(L/R) = %.2f deg", delta0);
  plot_legend_entry legend[] = {
      {"grip skidpad run", PLOT_BLUE, 'm', 0, "•"},
      {"single-track model (its tyre curves, trail)", PLOT_ORANGE, 'l', 1, NULL},
      {"linear single-track model", PLOT_GREEN, 'l', 3, NULL},
      {neutral_label, PLOT_GREY, 'l', 2, NULL},
      {"maximum lateral acceleration", PLOT_RED, 'l', 2, NULL},
  };
  plot_legend(PL_POSITION_TOP | PL_POSITION_LEFT, 5, legend);
  plot_end();
  return 0;
}
