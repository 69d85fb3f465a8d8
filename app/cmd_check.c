/* grip check CAR: loads and validates a car and prints figures derived from its definition. */
#include "car_layout.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "car_option.h"
#include "cli.h"

#define G 9.80665
#define RHO 1.29         /* kg/m³, the world's default air density (src/world.c) */
#define SURFACE_F 0.012  /* rolling-resistance coefficient of the default surface (src/ground.c) */
#define RPM_TO_RAD_S (3.14159265358979323846 / 30.0)

typedef struct gear_top {
  double speed_kmh;
  bool limiter; /* true: rev limiter, false: drag + rolling resistance */
} gear_top;

typedef struct car_figures {
  double mass_kg, front_load_fraction, front_axle_load_n, rear_axle_load_n, wheelbase_m;
  double peak_power_kw, peak_power_rpm, peak_torque_nm, peak_torque_rpm;
  double ca_kg_per_m;  /* downforce per (m/s)² */
  double cd_a_kg_per_m; /* drag force per (m/s)², body and wings */
  double ride_hz[2]; /* the first and the last axle */
  double top_speed_kmh;
  int top_gear;
  gear_top gears[GRIP_MAX_GEARS];
} car_figures;

static double driven_radius(const grip_vehicle_def *d) {
  switch (d->drivetrain.layout) {
    case GRIP_DRIVE_FWD: return d->axles[GRIP_AXLE_FRONT].wheel_radius;
    case GRIP_DRIVE_AWD:
      return 0.5 * (d->axles[GRIP_AXLE_FRONT].wheel_radius + d->axles[d->axle_count - 1].wheel_radius);
    case GRIP_DRIVE_TREE: return car_driven_wheel_radius(d); /* the mean over the driven wheels */
    default: return d->axles[d->axle_count - 1].wheel_radius;
  }
}

static void compute(const grip_vehicle_def *d, car_figures *f) {
  memset(f, 0, sizeof *f);
  double m = d->body.mass + d->fuel.mass;
  double xcg = (d->body.mass * d->body.center_of_mass.x + d->fuel.mass * d->fuel.position.x) / m;
  double xf = d->axles[GRIP_AXLE_FRONT].x, xr = d->axles[d->axle_count - 1].x;
  double L = xf - xr;
  f->mass_kg = m;
  f->wheelbase_m = L;
  f->front_load_fraction = L > 0.0 ? (xcg - xr) / L : 1.0; /* c/L: the CG's distance to the rear axle over L */
  f->front_axle_load_n = f->front_load_fraction * m * G;
  f->rear_axle_load_n = (1.0 - f->front_load_fraction) * m * G;
  double rear_share = 1.0 - f->front_load_fraction;
  if (d->coupling.enabled) {
    /* A trailer stands on its coupling too: the first and last axle's loads as its springs are
     * preloaded for (grip_vehicle_static_axle_loads); the fraction is of the whole weight. */
    double loads[GRIP_MAX_AXLES];
    int n = grip_vehicle_static_axle_loads(d, G, loads);
    f->front_axle_load_n = loads[0];
    f->rear_axle_load_n = n > 1 ? loads[n - 1] : 0.0;
    f->front_load_fraction = loads[0] / (m * G);
    rear_share = f->rear_axle_load_n / (m * G);
  }
  for (int end = 0; end < 2; ++end) {
    const grip_axle_def *axle = &d->axles[end == 0 ? 0 : d->axle_count - 1];
    double share = end == 0 ? f->front_load_fraction : rear_share;
    double corner = (axle->half_track > 0.0 ? 0.5 : 1.0) * share * m;
    f->ride_hz[end] = corner > 0 ? sqrt(axle->suspension.spring_rate / corner) / (2.0 * 3.14159265358979323846) : 0;
  }
  /* Engine: power scanned every rpm from idle to the limiter (a trailer has none). */
  const grip_engine_def *e = &d->engine;
  const bool engine = d->drivetrain.layout != GRIP_DRIVE_NONE;
  for (double rpm = e->idle_rpm; engine && rpm <= e->rev_limit_rpm; rpm += 1.0) {
    double p = grip_engine_curve_torque(e, rpm) * rpm * RPM_TO_RAD_S;
    if (p > f->peak_power_kw * 1e3) {
      f->peak_power_kw = p * 1e-3;
      f->peak_power_rpm = rpm;
    }
  }
  for (int i = 0; engine && i < e->curve_points; ++i)
    if (e->curve_rpm[i] <= e->rev_limit_rpm && e->curve_torque[i] > f->peak_torque_nm) {
      f->peak_torque_nm = e->curve_torque[i];
      f->peak_torque_rpm = e->curve_rpm[i];
    }
  /* Aero as src/vehicle.c applies it, at the design ride height: axle lift ½·ρ·CL·A·v² (times
   * the ground effect), wings as flat plates with normal force 4·ρ·area·sin(angle)·v², i.e.
   * downforce ·cos(angle) and drag ·sin(angle). */
  grip_aero_coefficients aero = grip_vehicle_aero_coefficients(d, RHO, d->aero.ride_height);
  double ca = aero.downforce_front + aero.downforce_rear, cda = aero.drag;
  f->ca_kg_per_m = ca + 0.0; /* no -0 */
  f->cd_a_kg_per_m = cda;
  if (!engine) return;
  /* Top speed per gear: drive force T·x_gear·x_diff·η/r against drag and rolling resistance
   * f·(M·g + downforce), scanned upwards from the gear's idle speed. */
  double r = driven_radius(d);
  double frr = SURFACE_F * 0.5 * (d->axles[0].tyre.rolling_resistance + d->axles[d->axle_count - 1].tyre.rolling_resistance);
  const grip_gearbox_def *g = &d->gearbox;
  for (int i = 0; i < g->forward_gears; ++i) {
    double x = g->ratios[i] * g->final_drive;
    double v_of_rpm = r * RPM_TO_RAD_S / x; /* m/s per engine rpm */
    double v_lim = e->rev_limit_rpm * v_of_rpm;
    double v = e->idle_rpm * v_of_rpm, top = v;
    bool limiter = true;
    for (; v <= v_lim; v += 0.01) {
      double drive = grip_engine_curve_torque(e, v / v_of_rpm) * x * g->efficiency / r;
      double resist = cda * v * v + frr * (m * G + (ca > 0 ? ca : 0) * v * v);
      if (drive < resist) {
        limiter = false;
        break;
      }
      top = v;
    }
    if (limiter) top = v_lim;
    f->gears[i].speed_kmh = top * 3.6;
    f->gears[i].limiter = limiter;
    if (top * 3.6 > f->top_speed_kmh) {
      f->top_speed_kmh = top * 3.6;
      f->top_gear = i + 1;
    }
  }
}

int cmd_check(int argc, char **argv);
int cmd_check(int argc, char **argv) {
  bool json = false;
  const char *write_path = NULL;
  cli_option options[] = {
      CLI_OPTION_JSON(json),
      {"--write", CLI_STRING, &write_path, 0, 0, "also write the car, every key, to this grip car file"},
  };
  const char *positional[1] = {NULL};
  int npos = 0;
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), positional, 1, &npos);
  if (rc) return rc == 1 ? 0 : rc;
  if (npos != 1) {
    fprintf(stderr, "grip check: expected one CAR (a car file, torcs:NAME or builtin)\n");
    return CLI_USAGE_ERROR;
  }
  static grip_car car;
  grip_load_error err;
  int failed = cli_load_car_quiet(positional[0], &car, &err);
  if (!failed && write_path) {
    if (grip_car_save(&car, write_path, "written by grip check", &err)) failed = 1;
  }
  car_figures f;
  if (!failed) compute(&car.def, &f);
  /* Values that load but will misbehave (docs/car-format.md, "What grip check warns about"). */
  static char behaviour[8][200];
  int behaviour_count = failed ? 0 : grip_car_misbehaviour_warnings(&car.def, behaviour, 8);
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_bool(&w, "ok", !failed);
    json_string(&w, "car", failed ? positional[0] : car.name);
    if (!failed) {
      json_number(&w, "mass_kg", f.mass_kg);
      json_number(&w, "wheelbase_m", f.wheelbase_m);
      json_number(&w, "front_load_fraction", f.front_load_fraction);
      json_number(&w, "front_axle_load_n", f.front_axle_load_n);
      json_number(&w, "rear_axle_load_n", f.rear_axle_load_n);
      /* every axle's, as the core preloads its springs for (the springs decide beyond two) */
      double loads[GRIP_MAX_AXLES];
      int axles = grip_vehicle_static_axle_loads(&car.def, G, loads);
      json_open(&w, "axle_loads_n", '[');
      double on_axles = 0.0;
      for (int a = 0; a < axles; ++a) json_number(&w, NULL, loads[a]), on_axles += loads[a];
      json_close(&w, ']');
      if (car.def.coupling.enabled) json_number(&w, "coupling_load_n", f.mass_kg * G - on_axles);
      json_bool(&w, "engine", car.def.drivetrain.layout != GRIP_DRIVE_NONE);
      json_number(&w, "peak_power_kw", f.peak_power_kw);
      json_number(&w, "peak_power_rpm", f.peak_power_rpm);
      json_number(&w, "peak_torque_nm", f.peak_torque_nm);
      json_number(&w, "peak_torque_rpm", f.peak_torque_rpm);
      json_number(&w, "power_to_mass_w_per_kg", f.peak_power_kw * 1e3 / f.mass_kg);
      json_number(&w, "ca_kg_per_m", f.ca_kg_per_m);
      json_number(&w, "drag_kg_per_m", f.cd_a_kg_per_m);
      json_number(&w, "ride_frequency_front_hz", f.ride_hz[0]);
      json_number(&w, "ride_frequency_rear_hz", f.ride_hz[1]);
      json_number(&w, "top_speed_kmh", f.top_speed_kmh);
      json_int(&w, "top_speed_gear", f.top_gear);
      json_open(&w, "gears", '[');
      for (int i = 0; car.def.drivetrain.layout != GRIP_DRIVE_NONE && i < car.def.gearbox.forward_gears; ++i) {
        json_open(&w, NULL, '{');
        json_int(&w, "gear", i + 1);
        json_number(&w, "top_speed_kmh", f.gears[i].speed_kmh);
        json_string(&w, "limited_by", f.gears[i].limiter ? "limiter" : "drag");
        json_close(&w, '}');
      }
      json_close(&w, ']');
    }
    json_open(&w, "warnings", '[');
    for (int i = 0; !failed && i < car.warning_count; ++i) json_string(&w, NULL, car.warnings[i]);
    for (int i = 0; i < behaviour_count; ++i) json_string(&w, NULL, behaviour[i]);
    json_close(&w, ']');
    json_open(&w, "errors", '[');
    if (failed) json_string(&w, NULL, err.message);
    json_close(&w, ']');
    json_end(&w);
  } else if (failed) {
    fprintf(stderr, "grip check: %s\n", err.message);
  } else {
    for (int i = 0; i < car.warning_count; ++i) fprintf(stderr, "grip check: warning: %s\n", car.warnings[i]);
    for (int i = 0; i < behaviour_count; ++i)
      fprintf(stderr, "grip check: warning: %s: %s\n", car.name, behaviour[i]);
    printf("check: %s: ok\n", car.name);
    printf("  mass            %8.1f kg (with fuel), wheelbase %.3f m\n", f.mass_kg, f.wheelbase_m);
    if (car.def.axle_count >= 2 && !car.def.coupling.enabled) /* the first and last axle's lever */
      printf("  static loads    %8.0f N front, %.0f N rear (%.1f %% front)\n", f.front_axle_load_n,
             f.rear_axle_load_n, 100.0 * f.front_load_fraction);
    if (car.def.axle_count != 2 || car.def.coupling.enabled) {
      /* more axles: each one's load from the springs (docs/physics.md, "Static loads") */
      double loads[GRIP_MAX_AXLES];
      int axles = grip_vehicle_static_axle_loads(&car.def, G, loads);
      printf("  axle loads     ");
      for (int a = 0; a < axles; ++a) printf(" %.0f N%s", loads[a], a + 1 < axles ? "," : " (springs)\n");
    }
    if (car.def.coupling.enabled) {
      double loads[GRIP_MAX_AXLES], on_axles = 0.0;
      int axles = grip_vehicle_static_axle_loads(&car.def, G, loads);
      for (int a = 0; a < axles; ++a) on_axles += loads[a];
      printf("  coupling load   %8.0f N (%.1f %% of the weight) at x %.3f m, z %.3f m, %s\n", f.mass_kg * G - on_axles,
             100.0 * (1.0 - on_axles / (f.mass_kg * G)), car.def.coupling.point.x, car.def.coupling.point.z,
             car.coupling_fifth_wheel ? "fifth wheel" : "ball");
    }
    if (car.trailer.file[0]) printf("  tows            %s at x %.3f m, z %.3f m\n", car.trailer.file,
                                    car.trailer.tow_point.x, car.trailer.tow_point.z);
    if (car.def.drivetrain.layout == GRIP_DRIVE_NONE) {
      printf("  no engine: every wheel rolls free (a trailer)\n");
      printf("  downforce CA    %8.3f kg/m (N per (m/s)^2), drag %.3f kg/m\n", f.ca_kg_per_m, f.cd_a_kg_per_m);
      return 0;
    }
    printf("  peak power      %8.1f kW at %.0f rpm (%.0f W/kg)\n", f.peak_power_kw, f.peak_power_rpm,
           f.peak_power_kw * 1e3 / f.mass_kg);
    printf("  peak torque     %8.1f N*m at %.0f rpm\n", f.peak_torque_nm, f.peak_torque_rpm);
    printf("  downforce CA    %8.3f kg/m (N per (m/s)^2), drag %.3f kg/m\n", f.ca_kg_per_m, f.cd_a_kg_per_m);
    printf("  ride frequency  %8.2f Hz front, %.2f Hz rear\n", f.ride_hz[0], f.ride_hz[1]);
    for (int i = 0; i < car.def.gearbox.forward_gears; ++i)
      printf("  gear %-2d top     %8.1f km/h (%s)\n", i + 1, f.gears[i].speed_kmh,
             f.gears[i].limiter ? "rev limiter" : "drag");
    printf("  top speed       %8.1f km/h in gear %d\n", f.top_speed_kmh, f.top_gear);
    const grip_tyre_state_def *ts = &car.def.tyre_state;
    if (ts->enabled) {
      /* docs/physics.md §13: the window's optimum and half-width, and where the pressure is set. */
      printf("  tyre state      window %.0f degC +- %.0f K (floor %.2f), ", ts->optimum_temperature - 273.15,
             ts->window_width, ts->window_floor);
      if (ts->pressure > 0.0) printf("%.0f kPa", 1e-3 * ts->pressure);
      else printf("the tyre's own pressure");
      printf(" at %.0f degC, tread %.1f mm, wear %.3g mm^3/J\n", ts->pressure_temperature - 273.15,
             1e3 * ts->tread_depth, 1e9 * ts->wear_rate);
    }
  }
  return failed ? 1 : 0;
}
