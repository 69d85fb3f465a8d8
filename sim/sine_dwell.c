/* FMVSS 126 / UN R140 sine with dwell; see sine_dwell.h for the procedure and its sources. */
#include "sine_dwell.h"

#include <math.h>
#include <string.h>

#include "manoeuvre.h"

#define DEG (180.0 / GRIP_PI)
#define G 9.81

#define SWD_FREQUENCY 0.7      /* Hz, S7.9.1 */
#define SWD_DWELL 0.5          /* s, S7.9.1 */
#define SIS_RATE_DEG 13.5      /* °/s, S7.6.1 */
#define SIS_FIT_LOW_G 0.1      /* g, S7.6.2: the fit's range */
#define SIS_FIT_HIGH_G 0.375
#define SIS_TARGET_G 0.3       /* g, S7.6.2: A is the steering-wheel angle that gives this */
#define SWD_FIRST_AMPLITUDE 1.5 /* × A, S7.9.3: the first run's amplitude, */
#define SWD_AMPLITUDE_STEP 0.5  /* × A, then raised by this per run */
#define SWD_LAST_AMPLITUDE 6.5  /* × A, S7.9.4: up to the greater of this and */
#define SWD_LAST_MIN_DEG 270.0  /* °, this, */
#define SWD_LAST_MAX_DEG 300.0  /* °, capped at this */
#define SWD_LATERAL_FROM 5.0    /* × A, S5.2.3: the lateral criterion applies from this amplitude */
#define SWD_YAW_AFTER_1 1.0    /* s after the steer ends, S5.2.1: ≤ 35 % */
#define SWD_YAW_AFTER_2 1.75   /* s after the steer ends, S5.2.2: ≤ 20 % */
#define SWD_YAW_LIMIT_1 35.0   /* % */
#define SWD_YAW_LIMIT_2 20.0   /* % */
#define SWD_LATERAL_TIME 1.07  /* s after the steer began, S5.2.3 */
#define SWD_LATERAL_MIN 1.83   /* m, vehicles up to 3,500 kg GVWR (1.52 m above) */
#define SWD_LATERAL_MIN_HEAVY 1.52
#define SWD_HEAVY_MASS 3500.0  /* kg; the car's mass stands in for its gross vehicle weight rating */

double sine_dwell_steer_duration(void) { return 1.0 / SWD_FREQUENCY + SWD_DWELL; }

double sine_dwell_steer_deg(double amplitude_deg, double t) {
  const double w = 2.0 * GRIP_PI * SWD_FREQUENCY, three_quarters = 0.75 / SWD_FREQUENCY;
  if (t <= 0.0 || t >= sine_dwell_steer_duration()) return 0.0;
  if (t < three_quarters) return amplitude_deg * sin(w * t);
  if (t < three_quarters + SWD_DWELL) return -amplitude_deg;
  return amplitude_deg * sin(w * (t - SWD_DWELL));
}

/* The test's steering robot turns the steering wheel itself, at up to ~1,300 °/s: the car's
 * own input filter (meant for keys and pads) must not slow it. */
static grip_vehicle_def robot_steered(const grip_vehicle_def *car) {
  grip_vehicle_def d = *car;
  d.input_filter.steer_rate = 1e6;
  return d;
}

/* m/s², horizontal acceleration of the CG across the body's heading (positive to the left). */
static double lateral_acceleration(const grip_vehicle_state *s) {
  double psi = sim_heading(s);
  return -s->acceleration.x * sin(psi) + s->acceleration.y * cos(psi);
}

/* One slowly-increasing-steer run in `direction` (±1); returns the angle (deg, > 0) at 0.3 g
 * from the straight-line fit, or NAN. */
static double slowly_increasing_steer(const grip_vehicle_def *car, double speed, double dt, int direction) {
  grip_vehicle_def d = robot_steered(car);
  grip_vehicle_id id;
  grip_world *world = sim_start_rolling(&d, &id, speed);
  if (!world) return NAN;
  grip_vehicle_input in = grip_default_vehicle_input();
  sim_speed_control sc = {0};
  grip_vehicle_state s;
  const double settle = 2.0;
  double lock_deg = car->steering.max_wheel_angle * DEG, limit_deg = fmin(270.0, lock_deg);
  /* Least squares a_y = a + b·δ over the fit range. */
  double n = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
  bool reached = false;
  for (double t = 0.0; t < settle + limit_deg / SIS_RATE_DEG; t += dt) {
    double swa = t < settle ? 0.0 : SIS_RATE_DEG * (t - settle);
    grip_vehicle_get_state(world, id, &s);
    in.steering = direction * swa / lock_deg;
    sim_control_speed(&sc, &in, s.speed, speed, dt);
    grip_vehicle_set_input(world, id, &in);
    if (grip_world_step(world, dt) != GRIP_OK) break;
    grip_vehicle_get_state(world, id, &s);
    double ay_g = direction * lateral_acceleration(&s) / G;
    if (t > settle && ay_g >= SIS_FIT_LOW_G && ay_g <= SIS_FIT_HIGH_G) {
      n += 1.0, sx += swa, sy += ay_g, sxx += swa * swa, sxy += swa * ay_g;
    }
    if (ay_g > SIS_FIT_HIGH_G + 0.05) {
      reached = true;
      break;
    }
  }
  grip_destroy_world(world);
  double den = n * sxx - sx * sx;
  if (!reached || n < 10.0 || !(den > 0.0)) return NAN;
  double b = (n * sxy - sx * sy) / den, a = (sy - b * sx) / n;
  return b > 0.0 ? (SIS_TARGET_G - a) / b : NAN;
}

double sim_steer_for_lateral_g(const grip_vehicle_def *car, double speed_kmh, double dt, double *left_deg,
                               double *right_deg) {
  double l = slowly_increasing_steer(car, speed_kmh / 3.6, dt, +1);
  double r = slowly_increasing_steer(car, speed_kmh / 3.6, dt, -1);
  if (left_deg) *left_deg = l;
  if (right_deg) *right_deg = r;
  return 0.5 * (l + r);
}

/* Value at time `at` from two consecutive samples (t0, v0), (t1, v1) bracketing it. */
static double sample_at(double t0, double v0, double t1, double v1, double at) {
  return t1 > t0 ? v0 + (v1 - v0) * (at - t0) / (t1 - t0) : v1;
}

sine_dwell_run sim_sine_dwell_run(const grip_vehicle_def *car, double speed_kmh, double amplitude_deg,
                                  double steer_at_03g_deg, double dt) {
  sine_dwell_run r;
  memset(&r, 0, sizeof r);
  int dir = amplitude_deg < 0.0 ? -1 : 1;
  double amp = fabs(amplitude_deg);
  r.amplitude_deg = amp;
  r.direction = dir;
  r.first_peak_dps = r.yaw_ratio_1s_pct = r.yaw_ratio_175s_pct = r.lateral_displacement_m = NAN;
  grip_vehicle_def d = robot_steered(car);
  grip_vehicle_id id;
  double speed = speed_kmh / 3.6;
  grip_world *world = sim_start_rolling(&d, &id, speed);
  if (!world) return r;
  grip_vehicle_input in = grip_default_vehicle_input();
  sim_speed_control sc = {0};
  grip_vehicle_state s;
  /* Straight at the test speed first, then the throttle is released as the steer begins
   * (S7.9.3: "coast"): the gear the box is in is held, the clutch stays engaged. */
  const double settle = 3.0;
  for (double t = 0.0; t < settle; t += dt) {
    grip_vehicle_get_state(world, id, &s);
    sim_control_speed(&sc, &in, s.speed, speed, dt);
    grip_vehicle_set_input(world, id, &in);
    grip_world_step(world, dt);
  }
  grip_vehicle_get_state(world, id, &s);
  double lock_deg = car->steering.max_wheel_angle * DEG;
  grip_vec3 p0 = s.center_of_mass;
  double psi0 = sim_heading(&s);
  in.throttle = 0.0;
  in.brake = 0.0;
  in.automatic = false;
  in.gear = s.gear > 0 ? s.gear : 1;
  const double end = sine_dwell_steer_duration();
  const double t_reverse = 0.5 / SWD_FREQUENCY; /* the steering wheel crosses zero */
  const double t_1 = end + SWD_YAW_AFTER_1, t_2 = end + SWD_YAW_AFTER_2;
  double prev_t = 0.0, prev_yaw = dir * sim_yaw_rate(&s), prev_lat = 0.0;
  double peak = 0.0, yaw_1 = NAN, yaw_2 = NAN;
  bool peak_found = false;
  double max_slip = 0.0;
  for (double t = dt; t <= t_2 + dt; t += dt) {
    /* The input acts over the step that ends at t: use the angle at the step's middle. */
    in.steering = dir * sine_dwell_steer_deg(amp, t - 0.5 * dt) / lock_deg;
    grip_vehicle_set_input(world, id, &in);
    if (grip_world_step(world, dt) != GRIP_OK) break;
    grip_vehicle_get_state(world, id, &s);
    double yaw = dir * sim_yaw_rate(&s); /* > 0 towards the first steer */
    grip_vec3 dp = {s.center_of_mass.x - p0.x, s.center_of_mass.y - p0.y, 0.0};
    double lat = dir * (-dp.x * sin(psi0) + dp.y * cos(psi0));
    /* First peak of the yaw rate the other way, once the steering wheel has changed sign. */
    if (!peak_found && t > t_reverse && -prev_yaw > 0.0 && -yaw < -prev_yaw) {
      peak = -prev_yaw;
      peak_found = true;
    }
    if (prev_t < SWD_LATERAL_TIME && t >= SWD_LATERAL_TIME)
      r.lateral_displacement_m = sample_at(prev_t, prev_lat, t, lat, SWD_LATERAL_TIME);
    if (prev_t < t_1 && t >= t_1) yaw_1 = -sample_at(prev_t, prev_yaw, t, yaw, t_1);
    if (prev_t < t_2 && t >= t_2) yaw_2 = -sample_at(prev_t, prev_yaw, t, yaw, t_2);
    double slip = fabs(atan2(s.local_velocity.y, fabs(s.local_velocity.x)));
    if (slip > max_slip) max_slip = slip;
    if (fabs(remainder(sim_heading(&s) - psi0, 2.0 * GRIP_PI)) > 0.5 * GRIP_PI) r.spun = true;
    prev_t = t, prev_yaw = yaw, prev_lat = lat;
  }
  grip_destroy_world(world);
  r.max_body_slip_deg = max_slip * DEG;
  if (peak_found && peak > 0.0) {
    r.first_peak_dps = peak * DEG;
    r.yaw_ratio_1s_pct = 100.0 * yaw_1 / peak;
    r.yaw_ratio_175s_pct = 100.0 * yaw_2 / peak;
  }
  double lateral_min = car->body.mass + car->fuel.mass > SWD_HEAVY_MASS ? SWD_LATERAL_MIN_HEAVY : SWD_LATERAL_MIN;
  bool lateral_applies = amp >= SWD_LATERAL_FROM * steer_at_03g_deg - 1e-9;
  r.passed = peak_found && !r.spun && r.yaw_ratio_1s_pct <= SWD_YAW_LIMIT_1 &&
             r.yaw_ratio_175s_pct <= SWD_YAW_LIMIT_2 &&
             (!lateral_applies || r.lateral_displacement_m >= lateral_min);
  return r;
}

bool sim_sine_dwell(const grip_vehicle_def *car, double speed_kmh, double dt, sine_dwell_result *out) {
  memset(out, 0, sizeof *out);
  out->speed_kmh = speed_kmh;
  out->worst_yaw_ratio_1s_pct = out->worst_yaw_ratio_175s_pct = -INFINITY;
  out->min_lateral_displacement_m = INFINITY;
  double a = sim_steer_for_lateral_g(car, speed_kmh, dt, &out->steer_at_03g_left_deg,
                                     &out->steer_at_03g_right_deg);
  out->steer_at_03g_deg = a;
  if (!(a > 0.0)) {
    out->failure = "the car never reached 0.375 g in the slowly increasing steer";
    return false;
  }
  /* S7.9.4: the last run's amplitude is the greater of 6.5·A and 270°, at most 300°. */
  double lock_deg = car->steering.max_wheel_angle * DEG;
  double last = fmin(fmin(fmax(SWD_LAST_AMPLITUDE * a, SWD_LAST_MIN_DEG), SWD_LAST_MAX_DEG), lock_deg);
  int count = 0;
  for (double k = SWD_FIRST_AMPLITUDE; count < SINE_DWELL_MAX_RUNS; k += SWD_AMPLITUDE_STEP) {
    double amp = fmin(k * a, last);
    for (int side = 0; side < 2; ++side) {
      sine_dwell_run run = sim_sine_dwell_run(car, speed_kmh, side == 0 ? amp : -amp, a, dt);
      out->runs[side][count] = run;
      /* fmax/fmin skip a run without figures (NAN): that run fails below. */
      out->worst_yaw_ratio_1s_pct = fmax(out->worst_yaw_ratio_1s_pct, run.yaw_ratio_1s_pct);
      out->worst_yaw_ratio_175s_pct = fmax(out->worst_yaw_ratio_175s_pct, run.yaw_ratio_175s_pct);
      if (amp >= SWD_LATERAL_FROM * a - 1e-9)
        out->min_lateral_displacement_m = fmin(out->min_lateral_displacement_m, run.lateral_displacement_m);
      if (!run.passed && !out->failure) {
        if (run.spun)
          out->failure = "the car spun (heading turned more than 90°)";
        else if (!(run.yaw_ratio_1s_pct <= SWD_YAW_LIMIT_1))
          out->failure = "yaw rate 1.00 s after the steer above 35 % of its first peak";
        else if (!(run.yaw_ratio_175s_pct <= SWD_YAW_LIMIT_2))
          out->failure = "yaw rate 1.75 s after the steer above 20 % of its first peak";
        else
          out->failure = "lateral displacement 1.07 s after the steer began below the minimum";
      }
    }
    ++count;
    if (amp >= last) break;
  }
  out->run_count = count;
  if (!isfinite(out->worst_yaw_ratio_1s_pct)) out->worst_yaw_ratio_1s_pct = NAN;
  if (!isfinite(out->worst_yaw_ratio_175s_pct)) out->worst_yaw_ratio_175s_pct = NAN;
  if (!(out->min_lateral_displacement_m < INFINITY)) out->min_lateral_displacement_m = NAN;
  out->pass = out->failure == NULL;
  return true;
}
