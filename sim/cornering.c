#include "cornering.h"
#include "car_layout.h"

#include <math.h>
#include <string.h>

#include "manoeuvre.h"

#define DEG (180.0 / GRIP_PI)
#define G 9.81

/* --- the linear bicycle model ------------------------------------------------------------ */

/* Peak lateral friction coefficient of a tyre at load fz (N). */
static double lateral_mu(const grip_tyre_def *tyre, double fz) {
  double mu;
  grip_tyre_peak_mu(tyre, fz, NULL, &mu);
  return mu;
}

/* Any vehicle but a two-axle four-wheeler: its single-track model lumps every axle behind the
 * first on the unsteered axles' line (a truck's tandem centre) and takes the axles' loads from
 * the springs (grip_vehicle_static_axle_loads); a one-wheel axle's tyre carries its whole load. */
static bool lumped_model(const grip_vehicle_def *car) {
  return car->axle_count != 2 || !(car->axles[0].half_track > 0.0) || !(car->axles[1].half_track > 0.0);
}

static int axle_wheel_count(const grip_vehicle_def *car, int axle) { return car->axles[axle].half_track > 0.0 ? 2 : 1; }

/* The model's axle `group` (0: the first axle, 1: all the others): its first and last axle. */
static void group_axles(const grip_vehicle_def *car, int group, int *first, int *last) {
  *first = group == 0 ? 0 : 1;
  *last = group == 0 ? 0 : car->axle_count - 1;
}

static double static_axle_load(const grip_vehicle_def *car, int axle, double gravity) {
  if (lumped_model(car)) {
    double loads[GRIP_MAX_AXLES];
    int n = grip_vehicle_static_axle_loads(car, gravity, loads), first, last;
    group_axles(car, axle, &first, &last);
    double sum = 0.0;
    for (int a = first; a <= last && a < n; ++a) sum += loads[a];
    return sum;
  }
  double m = car->body.mass + car->fuel.mass;
  double xf = car->axles[0].x, xr = car->axles[1].x, xg = car->body.center_of_mass.x;
  double front = (xg - xr) / (xf - xr);
  return m * gravity * (axle == 0 ? front : 1.0 - front);
}

double axle_cornering_stiffness(const grip_vehicle_def *car, int axle, double gravity) {
  if (lumped_model(car)) { /* the group's tyres, each at its own axle's share */
    double loads[GRIP_MAX_AXLES], c = 0.0;
    int first, last;
    grip_vehicle_static_axle_loads(car, gravity, loads);
    group_axles(car, axle, &first, &last);
    for (int a = first; a <= last; ++a) {
      const grip_simple_mf_def *t = &car->axles[a].tyre.simple;
      int n = axle_wheel_count(car, a);
      double fz = loads[a] / n;
      c += n * t->lateral.b * t->lateral.c * lateral_mu(&car->axles[a].tyre, fz) * car->assists.grip_multiplier * fz;
    }
    return c;
  }
  const grip_simple_mf_def *t = &car->axles[axle].tyre.simple;
  double fz = 0.5 * static_axle_load(car, axle, gravity);
  double mu = lateral_mu(&car->axles[axle].tyre, fz) * car->assists.grip_multiplier;
  /* Slope of D·sin(C·atan(B·x − E·(B·x − atan(B·x)))) at x = 0 is B·C·D. */
  return 2.0 * t->lateral.b * t->lateral.c * mu * fz;
}

double bicycle_understeer_gradient(const grip_vehicle_def *car, double gravity) {
  return static_axle_load(car, 0, gravity) / axle_cornering_stiffness(car, 0, gravity) -
         static_axle_load(car, 1, gravity) / axle_cornering_stiffness(car, 1, gravity);
}

/* Slip angle (rad, >= 0) at which one tyre of the axle at its static load gives `force` N of
 * pure lateral force, and that tyre's pneumatic trail there (falling linearly to 0 at the peak
 * as in tyre_simple.c). Bisection on the rising part of the curve. */
static double tyre_slip_for_force(const grip_vehicle_def *car, int axle, double force, double gravity,
                                  double *trail) {
  const grip_simple_mf_def *t = &car->axles[axle].tyre.simple;
  double fz = 0.5 * static_axle_load(car, axle, gravity);
  double d = t->lateral.mu * (1.0 - t->load_sensitivity * (fz - t->nominal_load) / t->nominal_load) *
             car->assists.grip_multiplier * fz;
  double peak = grip_magic_formula_peak_slip(&t->lateral);
  double lo = 0.0, hi = peak;
  for (int i = 0; i < 80; ++i) {
    double mid = 0.5 * (lo + hi);
    if (d * grip_magic_formula(&t->lateral, mid, NULL) < force)
      lo = mid;
    else
      hi = mid;
  }
  double alpha = 0.5 * (lo + hi);
  double rho = tan(alpha) / tan(peak);
  *trail = t->pneumatic_trail * (rho < 1.0 ? 1.0 - rho : 0.0);
  return alpha;
}

/* The lumped model's slip angle (rad) at which the group's tyres together give `force` N (every
 * axle of the group at one slip angle: a tandem's scrub left out), and its first axle's trail. */
static double group_slip_for_force(const grip_vehicle_def *car, int group, double force, double gravity,
                                   double *trail) {
  double loads[GRIP_MAX_AXLES], d[GRIP_MAX_AXLES];
  int first, last;
  grip_vehicle_static_axle_loads(car, gravity, loads);
  group_axles(car, group, &first, &last);
  double peak = INFINITY;
  for (int a = first; a <= last; ++a) {
    const grip_simple_mf_def *t = &car->axles[a].tyre.simple;
    double fz = loads[a] / axle_wheel_count(car, a);
    d[a] = axle_wheel_count(car, a) * t->lateral.mu * (1.0 - t->load_sensitivity * (fz - t->nominal_load) / t->nominal_load) *
           car->assists.grip_multiplier * fz;
    peak = fmin(peak, grip_magic_formula_peak_slip(&t->lateral));
  }
  double lo = 0.0, hi = peak;
  for (int i = 0; i < 80; ++i) {
    double mid = 0.5 * (lo + hi), f = 0.0;
    for (int a = first; a <= last; ++a) f += d[a] * grip_magic_formula(&car->axles[a].tyre.simple.lateral, mid, NULL);
    if (f < force) lo = mid;
    else hi = mid;
  }
  double alpha = 0.5 * (lo + hi);
  double rho = tan(alpha) / tan(peak);
  *trail = car->axles[first].tyre.simple.pneumatic_trail * (rho < 1.0 ? 1.0 - rho : 0.0);
  return alpha;
}

double bicycle_steer_excess(const grip_vehicle_def *car, double lateral_g, double gravity) {
  if (lumped_model(car)) { /* as below, the rear group on the unsteered axles' line */
    double m = car->body.mass + car->fuel.mass;
    double xg = (car->body.mass * car->body.center_of_mass.x + car->fuel.mass * car->fuel.position.x) / m;
    double a = car->axles[0].x - xg, b = xg - car_reference_x(car);
    double tf = car->axles[0].tyre.simple.pneumatic_trail, tr = car->axles[1].tyre.simple.pneumatic_trail;
    double alpha_f = 0.0, alpha_r = 0.0;
    for (int i = 0; i < 30; ++i) {
      double total = m * lateral_g * gravity;
      double ff = total * (b + tr) / (a - tf + b + tr), fr = total - ff;
      alpha_f = group_slip_for_force(car, 0, ff, gravity, &tf);
      alpha_r = group_slip_for_force(car, 1, fr, gravity, &tr);
    }
    return alpha_f - alpha_r;
  }
  /* Single-track steady state: F_f + F_r = m·a_y and F_f·(a − t_f) = F_r·(b + t_r), a and b
   * the CG's distances to the front and rear axle, t the pneumatic trails (the aligning moments
   * act against the turn). delta − L/R = alpha_f − alpha_r. */
  double m = car->body.mass + car->fuel.mass;
  double a = car->axles[0].x - car->body.center_of_mass.x, b = car->body.center_of_mass.x - car->axles[1].x;
  double tf = car->axles[0].tyre.simple.pneumatic_trail, tr = car->axles[1].tyre.simple.pneumatic_trail;
  double alpha_f = 0.0, alpha_r = 0.0;
  for (int i = 0; i < 30; ++i) {
    double total = m * lateral_g * gravity;
    double ff = total * (b + tr) / (a - tf + b + tr), fr = total - ff;
    alpha_f = tyre_slip_for_force(car, 0, 0.5 * ff, gravity, &tf);
    alpha_r = tyre_slip_for_force(car, 1, 0.5 * fr, gravity, &tr);
  }
  return alpha_f - alpha_r;
}

/* --- shared helpers ---------------------------------------------------------------------- */

/* Mean road-wheel angle of the first (steered) axle: its two wheels, or its one (a
 * three-wheeler's front wheel). */
static double steered_mean(const grip_vehicle_def *car, const grip_vehicle_state *s) {
  if (!(car->axles[0].half_track > 0.0)) return s->wheels[0].steer_angle;
  return 0.5 * (s->wheels[0].steer_angle + s->wheels[1].steer_angle);
}

/* Mean slip angles of the first axle's wheels and of every wheel behind it (wheels: all of
 * them, grip_vehicle_get_wheels). A four-wheel car: 0.5·(fl + fr) and 0.5·(rl + rr). */
static void axle_slip_angles(const grip_vehicle_def *car, const grip_wheel_state *w, int n, double *front,
                             double *rear) {
  int nf = car->axles[0].half_track > 0.0 ? 2 : 1;
  if (nf == 2 && n == 4) {
    *front = 0.5 * (w[0].slip_angle + w[1].slip_angle);
    *rear = 0.5 * (w[2].slip_angle + w[3].slip_angle);
    return;
  }
  double f = 0.0, r = 0.0;
  for (int i = 0; i < n; ++i) {
    if (i < nf) f += w[i].slip_angle;
    else r += w[i].slip_angle;
  }
  *front = f / nf;
  *rear = n > nf ? r / (n - nf) : 0.0;
}

static double roll_of(const grip_vehicle_state *s) {
  grip_quat q = s->pose.rotation;
  return atan2(2.0 * (q.w * q.x + q.y * q.z), 1.0 - 2.0 * (q.x * q.x + q.y * q.y));
}

/* --- steady state ------------------------------------------------------------------------ */

steady_result sim_steady(const grip_vehicle_def *car, double speed_kmh, double steer_wheel_deg, double dt) {
  return sim_steady_state(car, speed_kmh, steer_wheel_deg, dt, NULL);
}

steady_result sim_steady_state(const grip_vehicle_def *car, double speed_kmh, double steer_wheel_deg, double dt,
                               grip_vehicle_state *final) {
  steady_result r;
  memset(&r, 0, sizeof r);
  double speed = speed_kmh / 3.6;
  grip_vehicle_id id;
  grip_world *world = sim_start_rolling(car, &id, speed);
  if (!world) return r;
  grip_vehicle_input in = grip_default_vehicle_input();
  in.steering = steer_wheel_deg / DEG / car->steering.max_wheel_angle;
  if (in.steering > 1.0) in.steering = 1.0;
  if (in.steering < -1.0) in.steering = -1.0;
  sim_speed_control sc = {0};
  grip_vehicle_state s;
  double t = 0.0, last_check = 0.0, last_yaw = 0.0;
  int steady_windows = 0;
  while (t < 120.0) {
    grip_vehicle_get_state(world, id, &s);
    sim_control_speed(&sc, &in, s.speed, speed, dt);
    grip_vehicle_set_input(world, id, &in);
    grip_world_step(world, dt);
    t += dt;
    if (t - last_check >= 1.0) {
      grip_vehicle_get_state(world, id, &s);
      double yr = sim_yaw_rate(&s);
      /* Steady: yaw rate and speed settled to 0.05 % over two consecutive seconds. */
      bool settled = fabs(yr - last_yaw) <= 5e-4 * fabs(yr) + 1e-6 && fabs(s.speed - speed) < 0.01 * speed;
      steady_windows = settled ? steady_windows + 1 : 0;
      last_yaw = yr;
      last_check = t;
      if (steady_windows >= 2 && t > 5.0) {
        r.steady = true;
        break;
      }
    }
  }
  grip_vehicle_get_state(world, id, &s);
  double yr = sim_yaw_rate(&s);
  double v = sqrt(s.local_velocity.x * s.local_velocity.x + s.local_velocity.y * s.local_velocity.y);
  r.radius_m = fabs(yr) > 1e-9 ? v / fabs(yr) : INFINITY;
  double wheelbase = car_effective_wheelbase(car);
  /* Front axle midpoint: velocity v + omega × r (body frame, planar). */
  double xf = car->axles[0].x - car->body.center_of_mass.x;
  double vfx = s.local_velocity.x, vfy = s.local_velocity.y + yr * xf;
  r.front_axle_radius_m = fabs(yr) > 1e-9 ? sqrt(vfx * vfx + vfy * vfy) / fabs(yr) : INFINITY;
  r.wheelbase_m = wheelbase;
  r.road_wheel_angle_deg = steered_mean(car, &s) * DEG;
  r.yaw_rate_dps = yr * DEG;
  r.lateral_g = v * yr / G;
  {
    grip_wheel_state wheels[GRIP_MAX_WHEELS];
    int n = grip_vehicle_get_wheels(world, id, wheels, GRIP_MAX_WHEELS);
    double front, rear;
    axle_slip_angles(car, wheels, n, &front, &rear);
    r.slip_angle_front_deg = front * DEG;
    r.slip_angle_rear_deg = rear * DEG;
  }
  r.body_slip_deg = atan2(s.local_velocity.y, s.local_velocity.x) * DEG;
  r.roll_deg = roll_of(&s) * DEG;
  r.speed_kmh = s.speed * 3.6;
  r.steering_torque_nm = s.steering_torque;
  if (final) *final = s;
  grip_destroy_world(world);
  return r;
}

/* --- skidpad ----------------------------------------------------------------------------- */

#define SKIDPAD_RAMP 0.05 /* m/s², speed ramp: quasi-steady */

skidpad_result sim_skidpad_band(const grip_vehicle_def *car, double radius, double dt, double band_low_g,
                                double band_high_g) {
  return sim_skidpad_traced(car, radius, dt, band_low_g, band_high_g, NULL, NULL);
}

skidpad_result sim_skidpad_traced(const grip_vehicle_def *car, double radius, double dt, double band_low_g,
                                  double band_high_g, skidpad_trace_fn *trace, void *context) {
  skidpad_result r;
  memset(&r, 0, sizeof r);
  r.linear_bicycle_understeer_gradient_deg_per_g = bicycle_understeer_gradient(car, G) * DEG;
  r.bicycle_understeer_gradient_deg_per_g =
      (bicycle_steer_excess(car, band_high_g, G) - bicycle_steer_excess(car, band_low_g, G)) /
      (band_high_g - band_low_g) * DEG;
  r.limit_behaviour = "understeer";
  r.wheel_lift_g = NAN;
  double wheelbase = car_effective_wheelbase(car);
  double lifted_t = 0.0; /* s a wheel has been off the ground, on the circle */
  grip_wheel_state wheels[GRIP_MAX_WHEELS];
  double target = sqrt(0.05 * G * radius);
  grip_vehicle_id id;
  grip_world *world = sim_start_rolling(car, &id, target);
  if (!world) return r;
  /* Circle centre to the left of the start, counter-clockwise (a left turn). */
  const double cx = 0.0, cy = radius;
  grip_vehicle_input in = grip_default_vehicle_input();
  sim_speed_control sc = {0};
  double integral = 0.0, t = 0.0, lock = car->steering.max_wheel_angle / car->steering.ratio;
  /* Sums for a least-squares line of road-wheel angle (deg) against lateral acceleration (g). */
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int n = 0;
  double window_ay = 0.0, window_t = 0.0, best = 0.0;
  int window_n = 0;
  int out_count = 0;
  grip_vehicle_state s;
  while (t < 1200.0) {
    grip_vehicle_get_state(world, id, &s);
    double px = s.center_of_mass.x - cx, py = s.center_of_mass.y - cy;
    double d = sqrt(px * px + py * py);
    double error = d - radius; /* > 0 outside the circle */
    /* Path holding: kinematic feed-forward on the circle, a heading term from the course
     * (velocity direction) against the tangent (0.8 rad/rad), and PI on the radial error
     * (0.05 rad/m, 0.02 rad/(m·s)). Hand-tuned: radial error < 0.5 m through the linear range;
     * K is measured against the radius actually driven, so the gains do not enter it. */
    double tangent = atan2(py, px) + 0.5 * GRIP_PI;
    double course = atan2(s.linear_velocity.y, s.linear_velocity.x);
    double heading_error = remainder(tangent - course, 2.0 * GRIP_PI);
    integral += error * dt;
    double delta = atan(wheelbase / radius) + 0.8 * heading_error + 0.05 * error + 0.02 * integral;
    if (delta > lock) delta = lock;
    if (delta < -lock) delta = -lock;
    in.steering = delta * car->steering.ratio / car->steering.max_wheel_angle;
    sim_control_speed(&sc, &in, s.speed, target, dt);
    grip_vehicle_set_input(world, id, &in);
    grip_world_step(world, dt);
    t += dt;
    target += SKIDPAD_RAMP * dt;

    grip_vehicle_get_state(world, id, &s);
    double yr = sim_yaw_rate(&s);
    double v = sqrt(s.local_velocity.x * s.local_velocity.x + s.local_velocity.y * s.local_velocity.y);
    double ay = v * yr / G;
    double body_slip = atan2(s.local_velocity.y, s.local_velocity.x);
    if (trace) {
      double now_x = s.center_of_mass.x - cx, now_y = s.center_of_mass.y - cy;
      skidpad_sample sample = {t, v * 3.6, ay, steered_mean(car, &s) * DEG, sqrt(now_x * now_x + now_y * now_y) - radius};
      trace(&sample, context);
    }
    if (t > 5.0 && ay >= band_low_g && ay <= band_high_g && fabs(error) < 0.5) {
      /* delta = L/R + K·a_y: remove the kinematic part with the path radius actually driven
       * (rear axle: R_rear² = R_cg² − c²), so a slow drift of the radius cannot leak into K. */
      double r_cg = v / yr, c = car->body.center_of_mass.x - car_reference_x(car);
      double r_rear = sqrt(r_cg * r_cg - c * c);
      double x = ay, y = (steered_mean(car, &s) - atan(wheelbase / r_rear)) * DEG;
      sx += x, sy += y, sxx += x * x, sxy += x * y, ++n;
    }
    /* Maximum lateral acceleration: one-second averages while on the circle. */
    window_ay += ay;
    window_t += dt;
    ++window_n;
    if (window_t >= 1.0) {
      double mean = window_ay / window_n;
      if (fabs(error) < 2.0 && mean > best) {
        best = mean;
        r.limit_speed_kmh = v * 3.6;
      }
      window_ay = window_t = 0.0;
      window_n = 0;
    }
    /* The limit: a wheel lifts (the car tips: a three-wheeler's inner rear wheel) and stays up
     * for 0.2 s; the a_y where it first left the ground is the rollover threshold. */
    int wheel_count = grip_vehicle_get_wheels(world, id, wheels, GRIP_MAX_WHEELS);
    bool lifted = false;
    for (int i = 0; i < wheel_count; ++i) lifted = lifted || !wheels[i].in_contact;
    if (lifted && t > 5.0 && fabs(error) < 2.0) {
      if (lifted_t == 0.0) r.wheel_lift_g = ay;
      lifted_t += dt;
      if (lifted_t >= 0.2) {
        r.limit_behaviour = "rollover";
        break;
      }
    } else {
      lifted_t = 0.0;
      r.wheel_lift_g = NAN;
    }
    /* The limit: the car spins (body slip beyond 10°) or cannot hold the circle. */
    if (fabs(body_slip) > 10.0 / DEG || fabs(remainder(sim_heading(&s) - course, 2.0 * GRIP_PI)) > 0.5) {
      r.limit_behaviour = "oversteer";
      break;
    }
    out_count = error > 3.0 ? out_count + 1 : 0;
    if (out_count * dt > 2.0) {
      r.limit_behaviour = "understeer";
      break;
    }
  }
  r.max_lateral_g = best;
  r.samples_linear = n;
  if (n > 10) r.understeer_gradient_deg_per_g = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  else r.understeer_gradient_deg_per_g = NAN;
  grip_destroy_world(world);
  return r;
}

skidpad_result sim_skidpad(const grip_vehicle_def *car, double radius, double dt) {
  return sim_skidpad_band(car, radius, dt, 0.2, 0.3);
}

/* --- the friction limit of a circle ------------------------------------------------------ */

/* Downforce per axle (N) at forward speed v, at the design ride height. */
static void axle_downforce(const grip_vehicle_def *car, double v, double air_density, double out[2]) {
  grip_aero_coefficients c = grip_vehicle_aero_coefficients(car, air_density, car->aero.ride_height);
  out[0] = c.downforce_front * v * v;
  out[1] = c.downforce_rear * v * v;
}

/* Lateral capacity of one axle, N: Σ mu(Fz)·Fz over its two tyres, with the lateral load
 * transfer m·a_y·h shared by roll stiffness (springs k·t²/2, bars k_arb·t²; the raycast
 * suspension rolls about the ground). */
static double axle_lateral_capacity(const grip_vehicle_def *car, int axle, double vertical_load, double ay,
                                    double roll_share) {
  const grip_axle_def *a = &car->axles[axle];
  if (!(a->half_track > 0.0)) /* one wheel on the centre line: no transfer across it */
    return lateral_mu(&a->tyre, vertical_load) * vertical_load * car->assists.grip_multiplier;
  double m = car->body.mass + car->fuel.mass;
  double h = (car->body.mass * car->body.center_of_mass.z + car->fuel.mass * car->fuel.position.z) / m;
  double w = 0.5 * vertical_load;
  double dw = m * ay * h * roll_share / (2.0 * a->half_track);
  double out = w + dw, in = fmax(w - dw, 0.0);
  if (dw > w) out = 2.0 * w; /* inner wheel lifted: the outer carries the axle */
  return (lateral_mu(&a->tyre, out) * out + lateral_mu(&a->tyre, in) * in) * car->assists.grip_multiplier;
}

double tyre_limit_lateral_g(const grip_vehicle_def *car, double radius, double gravity, double air_density) {
  double roll[2];
  for (int a = 0; a < 2; ++a) {
    double t = 2.0 * car->axles[a].half_track;
    roll[a] = car->axles[a].suspension.spring_rate * t * t / 2 + car->axles[a].suspension.anti_roll_rate * t * t;
  }
  double m = car->body.mass + car->fuel.mass;
  double xg = (car->body.mass * car->body.center_of_mass.x + car->fuel.mass * car->fuel.position.x) / m;
  double xf = car->axles[0].x, xr = car->axles[1].x;
  double front = (xg - xr) / (xf - xr);
  /* Bisection on the speed: below the limit both axles can give their share m·a_y·(b or a)/L
   * of the centripetal force, above it one cannot. */
  double lo = 0.0, hi = sqrt(10.0 * gravity * radius);
  for (int it = 0; it < 80; ++it) {
    double v = 0.5 * (lo + hi), ay = v * v / radius, down[2];
    axle_downforce(car, v, air_density, down);
    double load_f = m * gravity * front + down[0], load_r = m * gravity * (1.0 - front) + down[1];
    bool holds = axle_lateral_capacity(car, 0, load_f, ay, roll[0] / (roll[0] + roll[1])) >= m * ay * front &&
                 axle_lateral_capacity(car, 1, load_r, ay, roll[1] / (roll[0] + roll[1])) >= m * ay * (1.0 - front);
    if (holds) lo = v;
    else hi = v;
  }
  return lo * lo / radius / gravity;
}

/* --- step steer -------------------------------------------------------------------------- */

stepsteer_result sim_stepsteer(const grip_vehicle_def *car, double speed_kmh, double steer_wheel_deg, double dt) {
  stepsteer_result r = {NAN, NAN, NAN, NAN, false, "the car could not be set rolling"};
  double speed = speed_kmh / 3.6;
  grip_vehicle_id id;
  grip_world *world = sim_start_rolling(car, &id, speed);
  if (!world) return r;
  grip_vehicle_input in = grip_default_vehicle_input();
  sim_speed_control sc = {0};
  grip_vehicle_state s;
  const double settle = 2.0, ramp = 0.1, hold = 6.0; /* s; a 0.1 s ramp is ~400°/s for 40° */
  double final = steer_wheel_deg / DEG / car->steering.max_wheel_angle;
  if (final > 1.0) final = 1.0;
  if (final < -1.0) final = -1.0;
  long steps = lround((settle + ramp + hold) / dt);
  double peak = 0.0, sum_last = 0.0, last_min = INFINITY, last_max = -INFINITY, max_body_slip = 0.0;
  double speed_min = INFINITY, speed_max = -INFINITY;
  int n_last = 0;
  /* A decimated trace (at most 2048 points) to find the 90 % crossing once the steady value is
   * known; crossings are interpolated between points. */
  double trace_t[2048], trace_r[2048];
  int stride = (int)(steps / 2048) + 1, k = 0;
  for (long i = 0; i < steps; ++i) {
    double t = i * dt;
    grip_vehicle_get_state(world, id, &s);
    double u = t < settle ? 0.0 : (t < settle + ramp ? (t - settle) / ramp : 1.0);
    in.steering = u * final;
    sim_control_speed(&sc, &in, s.speed, speed, dt);
    grip_vehicle_set_input(world, id, &in);
    grip_world_step(world, dt);
    grip_vehicle_get_state(world, id, &s);
    double yr = sim_yaw_rate(&s);
    if (t >= settle && fabs(yr) > fabs(peak)) peak = yr;
    if (t > settle + ramp + hold - 1.0) {
      sum_last += yr;
      ++n_last;
      last_min = fmin(last_min, yr);
      last_max = fmax(last_max, yr);
      speed_min = fmin(speed_min, s.speed);
      speed_max = fmax(speed_max, s.speed);
    }
    max_body_slip = fmax(max_body_slip, fabs(atan2(s.local_velocity.y, fabs(s.local_velocity.x))));
    if (i % stride == 0 && k < 2048) {
      trace_t[k] = t + dt;
      trace_r[k] = yr;
      ++k;
    }
  }
  double steady = sum_last / n_last;
  double t50 = settle + 0.5 * ramp;
  for (int j = 1; j < k; ++j)
    if (trace_t[j] > t50 && fabs(trace_r[j]) >= 0.9 * fabs(steady)) {
      /* interpolate between samples */
      double f = (0.9 * fabs(steady) - fabs(trace_r[j - 1])) / (fabs(trace_r[j]) - fabs(trace_r[j - 1]));
      r.yaw_rate_rise_time_s = trace_t[j - 1] + f * (trace_t[j] - trace_t[j - 1]) - t50;
      break;
    }
  r.steady_yaw_rate_dps = steady * DEG;
  r.yaw_rate_peak_dps = peak * DEG;
  r.yaw_rate_overshoot_pct = 100.0 * (fabs(peak) - fabs(steady)) / fabs(steady);
  r.valid = false;
  if (max_body_slip > 15.0 / DEG)
    r.invalid_reason = "the car spun (body slip above 15 deg)";
  else if (speed_min < 0.95 * speed || speed_max > 1.05 * speed)
    r.invalid_reason = "the speed was not held within 5 %";
  else if (!(fabs(steady) * DEG >= 0.5) || last_max - last_min > 0.1 * fabs(steady))
    r.invalid_reason = "the yaw rate did not settle to a steady value";
  else if (!(r.yaw_rate_rise_time_s > 0.0))
    r.invalid_reason = "the yaw rate reached 90 % before the steering's 50 % point";
  else
    r.valid = true, r.invalid_reason = NULL;
  if (!r.valid) r.yaw_rate_rise_time_s = r.yaw_rate_overshoot_pct = NAN;
  grip_destroy_world(world);
  return r;
}
