/* Vehicle definition defaults (the built-in Corvette C5) and validation.
 * Sources of the values: docs/corvette-c5.md. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gmath.h"
#include "grip/vehicle.h"
#include "vehicle_internal.h"

/* LS1 full-throttle torque, N·m: 475 N·m peak at 4400 rpm and 257 kW (438.3 N·m) at 5600 rpm
 * (GM published figures); the shape between is interpolated from dyno charts' typical form. */
static const double ls1_rpm[] = {1000, 1500, 2000, 2500, 3000, 3500, 4000, 4400, 4800, 5200, 5600, 6000};
static const double ls1_torque[] = {340, 380, 410, 430, 445, 458, 470, 475, 470, 455, 438.3, 405};

static grip_axle_def corvette_axle(double x, double half_track, double width, double spring,
                                   double anti_roll, bool steered) {
  grip_axle_def a;
  memset(&a, 0, sizeof a);
  a.x = x;
  a.half_track = half_track;
  a.wheel_radius = 0.34;
  a.wheel_width = width;
  a.wheel_inertia = 1.2;
  a.steer_ratio = steered ? 1.0 : 0.0;
  a.handbrake = !steered; /* the rear axle */
  /* Ride frequency ~1.6 Hz with ~360 kg per corner: k = m·(2πf)²; damping ratio ~0.3 in bump,
   * rebound 1.5 × bump. */
  a.suspension = (grip_suspension_def){.spring_rate = spring,
                                       .bump_damping = 2300.0,
                                       .rebound_damping = 3500.0,
                                       .bump_travel = 0.07,
                                       .droop_travel = 0.10,
                                       .bump_stop_rate = 10.0 * spring,
                                       .max_force = 60000.0,
                                       .anti_roll_rate = anti_roll};
  a.tyre = grip_default_tyre_def();
  /* Road tyre load sensitivity: peak mu falls ~12 % per nominal load added (nominal = about the
   * static corner load). */
  a.tyre.simple.nominal_load = 3500.0;
  a.tyre.simple.load_sensitivity = 0.12;
  /* Cornering stiffness grows with tyre width: the C5's rears are 275 mm against 245 mm in
   * front. Lateral B 8 front / 12 rear gives a linear-range understeer gradient of ~1.2 deg/g,
   * typical of a sports car. */
  a.tyre.simple.lateral.b = steered ? 8.0 : 12.0;
  return a;
}

grip_vehicle_def grip_default_vehicle_def(void) {
  grip_vehicle_def d;
  memset(&d, 0, sizeof d);
  d.name = "corvette-c5";
  d.pose.rotation = (grip_quat){1.0, 0.0, 0.0, 0.0};

  /* Wheelbase 2.655 m; 51/49 front/rear static split; CG height 0.45 m. Design frame origin:
   * on the ground midway between the axles. */
  const double wheelbase = 2.655;
  const double front_share = 0.51;
  d.body.mass = 1409.0; /* + 30 kg of fuel = 1439 kg */
  d.body.center_of_mass = (grip_vec3){0.5 * wheelbase - (1.0 - front_share) * wheelbase, 0.0, 0.45};
  d.body.inertia = (grip_vec3){500.0, 2200.0, 2400.0};
  d.body.dimensions = (grip_vec3){4.565, 1.870, 1.210};
  d.body.box_center = (grip_vec3){0.0, 0.0, 0.13 + 0.5 * 1.210};

  grip_engine_def *e = &d.engine;
  e->curve_points = (int)(sizeof ls1_rpm / sizeof ls1_rpm[0]);
  for (int i = 0; i < e->curve_points; ++i) {
    e->curve_rpm[i] = ls1_rpm[i];
    e->curve_torque[i] = ls1_torque[i];
  }
  e->idle_rpm = 800.0;
  e->rev_limit_rpm = 6000.0;
  e->inertia = 0.25;
  e->brake_torque = 20.0;
  e->brake_torque_per_rpm = 0.01;
  e->fuel_per_joule = 250.0e-3 / 3.6e6; /* 250 g/kWh */

  d.clutch = (grip_clutch_def){.max_torque = 700.0, .engage_rpm = 2000.0};

  grip_gearbox_def *g = &d.gearbox;
  static const double ratios[] = {2.66, 1.78, 1.30, 1.00, 0.74, 0.50};
  g->forward_gears = 6;
  for (int i = 0; i < 6; ++i) g->ratios[i] = ratios[i];
  g->reverse_ratio = 2.90;
  g->final_drive = 3.42;
  g->efficiency = 0.7;
  g->shift_time = 0.2;
  g->automatic = true;

  d.drivetrain.layout = GRIP_DRIVE_RWD;
  grip_diff_def lsd = {.type = GRIP_DIFF_LIMITED_SLIP, .preload = 100.0, .locking_coefficient = 0.3,
                       .viscous_coefficient = 50.0, .front_split = 0.5};
  d.drivetrain.front = lsd;
  d.drivetrain.front.type = GRIP_DIFF_OPEN;
  d.drivetrain.rear = lsd;
  d.drivetrain.centre = lsd;
  d.drivetrain.centre.type = GRIP_DIFF_OPEN;
  d.drivetrain.centre.front_split = 0.4;

  d.brakes = (grip_brake_def){.max_torque = 8000.0, .front_bias = 0.65, .handbrake_torque = 2000.0};
  d.steering = (grip_steering_def){.ratio = 16.0, .max_wheel_angle = 8.17, .ackermann = 0.8,
                                   .speed_reduction_speed = 0.0, .mechanical_trail = 0.02,
                                   .column_friction = 0.5, .column_damping = 0.1};

  d.axle_count = 2;
  d.axles[GRIP_AXLE_FRONT] = corvette_axle(0.5 * wheelbase, 0.5 * 1.565, 0.245, 37000.0, 30000.0, true);
  d.axles[GRIP_AXLE_REAR] = corvette_axle(-0.5 * wheelbase, 0.5 * 1.577, 0.275, 40000.0, 15000.0, false);

  d.aero = (grip_aero_def){.drag_coefficient = 0.3, .frontal_area = 2.2, .lift_coefficient_front = 0.0,
                           .lift_coefficient_rear = 0.0, .center_of_pressure_z = 0.45, .wing_count = 0};
  d.fuel = (grip_fuel_def){.capacity = 52.0, .mass = 30.0, .position = {-0.9, 0.0, 0.35}};
  d.assists = (grip_assist_def){.grip_multiplier = 1.0};
  d.systems = grip_default_systems_def();
  d.tyre_state = grip_default_tyre_state_def();
  return d;
}

double grip_aero_ground_effect(const grip_aero_def *aero, double clearance) {
  if (!(aero->ground_effect_gain > 0.0)) return 1.0;
  double x = (clearance > 0.0 ? clearance : 0.0) / aero->ground_effect_height;
  x *= x;
  return aero->ground_effect_gain * exp(-x * x);
}

grip_aero_coefficients grip_vehicle_aero_coefficients(const grip_vehicle_def *def, double air_density,
                                                      double clearance) {
  const grip_aero_def *aero = &def->aero;
  double half_rho = 0.5 * air_density, ge = grip_aero_ground_effect(aero, clearance);
  grip_aero_coefficients c;
  c.downforce_front = -half_rho * aero->lift_coefficient_front * aero->frontal_area * ge;
  c.downforce_rear = -half_rho * aero->lift_coefficient_rear * aero->frontal_area * ge;
  c.drag = half_rho * aero->drag_coefficient * aero->frontal_area;
  /* Wings as flat plates: normal force 4·rho·A·sin(angle)·v², downforce its cos part, drag its
   * sin part; the downforce shared between the axles by lever. */
  int last = def->axle_count > 1 && def->axle_count <= GRIP_MAX_AXLES ? def->axle_count - 1 : 0;
  double xf = def->axles[0].x, xr = def->axles[last].x; /* the first and the last axle */
  for (int k = 0; k < aero->wing_count; ++k) {
    const grip_wing_def *w = &aero->wings[k];
    double normal = 4.0 * air_density * w->area * sin(w->angle);
    double down = normal * cos(w->angle), front = xf != xr ? (w->x - xr) / (xf - xr) : 0.5;
    c.downforce_front += down * front;
    c.downforce_rear += down * (1.0 - front);
    c.drag += fabs(normal * sin(w->angle));
  }
  return c;
}

grip_systems_def grip_default_systems_def(void) {
  grip_systems_def s;
  memset(&s, 0, sizeof s); /* no padding bytes left undefined: car types compare definitions bytewise */
  s.abs.target_slip = 0.12;
  s.abs.slip_band = 0.05;
  s.abs.modulation_rate = 40.0;
  s.abs.min_speed = 2.0;
  s.tc.target_slip = 0.0; /* the driven tyres' peak slip, found when the car type is built */
  s.tc.slip_band = 0.05;
  s.tc.torque_rate = 20.0;
  s.tc.brake_gain = 5000.0;
  s.tc.min_speed = 3.0;
  s.esc.understeer_gradient = 1.5 * (3.14159265358979323846 / 180.0) / 9.81; /* 1.5 deg/g */
  s.esc.friction = 0.9;
  s.esc.deadband = 0.05;
  s.esc.gain = 20000.0;
  s.esc.max_torque = 3000.0;
  s.esc.min_speed = 5.0;
  return s;
}

grip_vehicle_input grip_default_vehicle_input(void) {
  return (grip_vehicle_input){.throttle = 0.0, .brake = 0.0, .steering = 0.0, .handbrake = 0.0,
                              .clutch = 0.0, .gear = 1, .automatic = true};
}

/* --- static loads ---------------------------------------------------------------------- */

/* Static axle loads as shares of the weight (docs/physics.md, "Static loads"). Two axles: the
 * lever rule. One axle: all of it. More: statically indeterminate; the springs decide. With the
 * springs all free at one body height and pitch, the body sinks by z and pitches by θ (about the
 * CG) until heave and pitch balance: axle a (x_a, its springs' rate k_a = wheels × spring_rate)
 * carries k_a·(z + θ·d_a), d_a = x_a − x_cg, with
 *   Σ k_a·(z + θ·d_a) = W,   Σ k_a·(z + θ·d_a)·d_a = 0,
 * i.e. [K0 K1; K1 K2]·(z, θ) = (W, 0) with Kn = Σ k_a·d_aⁿ: z = W·K2/D, θ = −W·K1/D,
 * D = K0·K2 − K1². (Two axles give the lever rule again.) */
void grip_static_axle_shares(const grip_vehicle_def *d, double share[GRIP_MAX_AXLES]) {
  int n = d->axle_count;
  double x_cg = d->body.center_of_mass.x;
  if (d->coupling.enabled) {
    /* A hitched trailer: the coupling holds its nose at design height, the body turns about it
     * by θ against the springs. Axle a carries k_a·θ·(x_k − x_a); moments about the coupling,
     * Σ k_a·θ·(x_k − x_a)² = W·(x_k − x_cg), give θ per unit weight. One axle: the lever rule
     * between axle and coupling. */
    double x_k = d->coupling.point.x, k2 = 0.0;
    for (int a = 0; a < n; ++a) {
      double k = (d->axles[a].half_track > 0.0 ? 2 : 1) * d->axles[a].suspension.spring_rate, arm = x_k - d->axles[a].x;
      k2 += k * arm * arm;
    }
    double theta = (x_k - x_cg) / k2;
    for (int a = 0; a < n; ++a)
      share[a] = (d->axles[a].half_track > 0.0 ? 2 : 1) * d->axles[a].suspension.spring_rate * theta *
                 (x_k - d->axles[a].x);
  } else if (n == 1) {
    share[0] = 1.0;
  } else if (n == 2) {
    double x_front = d->axles[0].x, x_rear = d->axles[1].x;
    share[0] = (x_cg - x_rear) / (x_front - x_rear);
    share[1] = 1.0 - share[0];
  } else {
    double k0 = 0.0, k1 = 0.0, k2 = 0.0;
    for (int a = 0; a < n; ++a) {
      double k = (d->axles[a].half_track > 0.0 ? 2 : 1) * d->axles[a].suspension.spring_rate, dx = d->axles[a].x - x_cg;
      k0 += k;
      k1 += k * dx;
      k2 += k * dx * dx;
    }
    double det = k0 * k2 - k1 * k1;
    double z = k2 / det, theta = -k1 / det; /* per unit weight */
    for (int a = 0; a < n; ++a)
      share[a] = (d->axles[a].half_track > 0.0 ? 2 : 1) * d->axles[a].suspension.spring_rate *
                 (z + theta * (d->axles[a].x - x_cg));
  }
}

int grip_vehicle_static_axle_loads(const grip_vehicle_def *def, double gravity, double axle_load[GRIP_MAX_AXLES]) {
  if (!def || !axle_load || def->axle_count < 1 || def->axle_count > GRIP_MAX_AXLES) return 0;
  double share[GRIP_MAX_AXLES];
  grip_static_axle_shares(def, share);
  double weight = (def->body.mass + def->fuel.mass) * gravity;
  for (int a = 0; a < def->axle_count; ++a) axle_load[a] = weight * share[a];
  return def->axle_count;
}

/* --- validation ------------------------------------------------------------------------ */

typedef struct check {
  char *message;
  int size;
  bool ok;
} check;

static void require(check *c, bool condition, const char *field, const char *what) {
  if (condition || !c->ok) return;
  c->ok = false;
  if (c->message && c->size > 0) snprintf(c->message, (size_t)c->size, "%s: %s", field, what);
}

static void in_range(check *c, double value, double lo, double hi, const char *field) {
  bool ok = isfinite(value) && value >= lo && value <= hi;
  char what[96] = "";
  if (!ok) snprintf(what, sizeof what, "must be within %g..%g", lo, hi); /* only when it is needed */
  require(c, ok, field, what);
}

/* A driveline tree (GRIP_DRIVE_TREE): its differentials' values, and its shape: inputs name
 * wheels of the car or later differentials, every differential but the root is named by exactly
 * one, every wheel at most once. */
static void check_tree(check *c, const grip_vehicle_def *d) {
  const grip_drivetrain_def *t = &d->drivetrain;
  int wheels = 0;
  for (int a = 0; a < d->axle_count; ++a) wheels += d->axles[a].half_track > 0.0 ? 2 : 1;
  require(c, t->diff_count >= 1 && t->diff_count <= GRIP_MAX_DIFFS, "drivetrain.diff_count", "must be within 1..15");
  if (!c->ok) return;
  int named_diff[GRIP_MAX_DIFFS] = {0}, named_wheel[GRIP_MAX_WHEELS] = {0};
  for (int k = 0; c->ok && k < t->diff_count; ++k) {
    const grip_diff_def *x = &t->diffs[k];
    require(c, x->type >= GRIP_DIFF_OPEN && x->type <= GRIP_DIFF_VISCOUS, "drivetrain.diffs.type",
            "type must be open, locked, limited-slip or viscous");
    in_range(c, x->preload, 0, 1e5, "drivetrain.diffs.preload");
    in_range(c, x->locking_coefficient, 0, 1, "drivetrain.diffs.locking_coefficient");
    in_range(c, x->viscous_coefficient, 0, 1e5, "drivetrain.diffs.viscous_coefficient");
    in_range(c, x->front_split, 0, 1, "drivetrain.diffs.front_split");
    for (int j = 0; c->ok && j < 2; ++j) {
      grip_drive_input in = x->inputs[j];
      if (in.kind == GRIP_DRIVE_INPUT_WHEEL) {
        require(c, in.index >= 0 && in.index < wheels, "drivetrain.diffs.inputs", "a wheel the car does not have");
        if (c->ok) require(c, ++named_wheel[in.index] == 1, "drivetrain.diffs.inputs", "a wheel driven twice");
      } else {
        require(c, in.kind == GRIP_DRIVE_INPUT_DIFF, "drivetrain.diffs.inputs", "must be a wheel or a differential");
        require(c, in.index > k && in.index < t->diff_count, "drivetrain.diffs.inputs",
                "a differential must drive one listed after it");
        if (c->ok) require(c, ++named_diff[in.index] == 1, "drivetrain.diffs.inputs", "a differential driven twice");
      }
    }
  }
  for (int k = 1; c->ok && k < t->diff_count; ++k)
    require(c, named_diff[k] == 1, "drivetrain.diffs", "a differential no other one drives");
}

/* The engine, clutch, gearbox and the layouts' differentials of a vehicle that has them. */
static void check_powertrain(check *c, const grip_vehicle_def *d) {
  const grip_engine_def *e = &d->engine;
  require(c, e->curve_points >= 2 && e->curve_points <= GRIP_MAX_CURVE_POINTS, "engine.curve_points",
          "must be within 2..32");
  for (int i = 0; c->ok && i < e->curve_points; ++i) {
    in_range(c, e->curve_rpm[i], 0, 30000, "engine.curve_rpm");
    in_range(c, e->curve_torque[i], 0, 1e5, "engine.curve_torque");
    if (i > 0) require(c, e->curve_rpm[i] > e->curve_rpm[i - 1], "engine.curve_rpm", "must increase");
  }
  double peak_torque = 0.0;
  for (int i = 0; c->ok && i < e->curve_points; ++i)
    peak_torque = e->curve_torque[i] > peak_torque ? e->curve_torque[i] : peak_torque;
  require(c, peak_torque > 0.0, "engine.curve_torque", "an all-zero torque curve can never move the car");
  in_range(c, e->idle_rpm, 100, 10000, "engine.idle_rpm");
  in_range(c, e->rev_limit_rpm, 500, 30000, "engine.rev_limit_rpm");
  require(c, e->rev_limit_rpm > e->idle_rpm * 1.5, "engine.rev_limit_rpm", "must exceed 1.5 × idle_rpm");
  in_range(c, e->inertia, 0.01, 100, "engine.inertia");
  in_range(c, e->brake_torque, 0, 1e4, "engine.brake_torque");
  in_range(c, e->brake_torque_per_rpm, 0, 10, "engine.brake_torque_per_rpm");
  in_range(c, e->fuel_per_joule, 0, 1e-5, "engine.fuel_per_joule");
  in_range(c, d->clutch.max_torque, 1, 1e5, "clutch.max_torque");
  require(c, d->clutch.engage_rpm > e->idle_rpm, "clutch.engage_rpm", "must exceed engine.idle_rpm");
  const grip_gearbox_def *g = &d->gearbox;
  require(c, g->forward_gears >= 1 && g->forward_gears <= GRIP_MAX_GEARS, "gearbox.forward_gears",
          "must be within 1..16 (GRIP_MAX_GEARS)");
  for (int i = 0; c->ok && i < g->forward_gears; ++i) in_range(c, g->ratios[i], 0.05, 50, "gearbox.ratios");
  in_range(c, g->reverse_ratio, 0.05, 50, "gearbox.reverse_ratio");
  in_range(c, g->final_drive, 0.1, 50, "gearbox.final_drive");
  in_range(c, g->efficiency, 0.1, 1.0, "gearbox.efficiency");
  in_range(c, g->shift_time, 0, 5, "gearbox.shift_time");
  in_range(c, g->upshift_rpm, 0, 30000, "gearbox.upshift_rpm");
  in_range(c, g->downshift_rpm, 0, 30000, "gearbox.downshift_rpm");
  const grip_diff_def *diffs[3] = {&d->drivetrain.front, &d->drivetrain.rear, &d->drivetrain.centre};
  static const char *names[3] = {"drivetrain.front", "drivetrain.rear", "drivetrain.centre"};
  for (int k = 0; c->ok && k < 3; ++k) {
    require(c, diffs[k]->type >= GRIP_DIFF_OPEN && diffs[k]->type <= GRIP_DIFF_VISCOUS, names[k],
            "type must be open, locked, limited-slip or viscous");
    in_range(c, diffs[k]->preload, 0, 1e5, names[k]);
    in_range(c, diffs[k]->locking_coefficient, 0, 1, names[k]);
    in_range(c, diffs[k]->viscous_coefficient, 0, 1e5, names[k]);
    in_range(c, diffs[k]->front_split, 0, 1, names[k]);
  }
}

grip_result grip_vehicle_def_validate(const grip_vehicle_def *d, char *message, int message_size) {
  check c = {message, message_size, true};
  if (message && message_size > 0) message[0] = '\0';
  in_range(&c, d->body.mass, 1.0, 1e6, "body.mass");
  in_range(&c, d->body.center_of_mass.x, -50, 50, "body.center_of_mass.x");
  in_range(&c, d->body.center_of_mass.y, -50, 50, "body.center_of_mass.y");
  in_range(&c, d->body.center_of_mass.z, -5, 10, "body.center_of_mass.z");
  in_range(&c, d->body.inertia.x, 0, 1e8, "body.inertia.x");
  in_range(&c, d->body.inertia.y, 0, 1e8, "body.inertia.y");
  in_range(&c, d->body.inertia.z, 0, 1e8, "body.inertia.z");
  in_range(&c, d->body.dimensions.x, 0.1, 100, "body.dimensions.x");
  in_range(&c, d->body.dimensions.y, 0.1, 100, "body.dimensions.y");
  in_range(&c, d->body.dimensions.z, 0.1, 100, "body.dimensions.z");
  require(&c, d->drivetrain.layout >= GRIP_DRIVE_RWD && d->drivetrain.layout <= GRIP_DRIVE_NONE,
          "drivetrain.layout", "must be RWD, FWD, AWD, a tree or none");
  /* No engine (a trailer): the engine, clutch, gearbox and differentials are not used. */
  bool powered = d->drivetrain.layout != GRIP_DRIVE_NONE;
  if (powered) check_powertrain(&c, d);
  in_range(&c, d->brakes.max_torque, 0, 1e6, "brakes.max_torque");
  in_range(&c, d->brakes.front_bias, 0, 1, "brakes.front_bias");
  in_range(&c, d->brakes.handbrake_torque, 0, 1e6, "brakes.handbrake_torque");
  in_range(&c, d->steering.ratio, 0.5, 100, "steering.ratio");
  in_range(&c, d->steering.max_wheel_angle, 0, 50, "steering.max_wheel_angle");
  require(&c, d->steering.max_wheel_angle / d->steering.ratio < 1.3, "steering.max_wheel_angle",
          "road-wheel lock (max_wheel_angle/ratio) must stay under 1.3 rad");
  in_range(&c, d->steering.ackermann, 0, 1.5, "steering.ackermann");
  in_range(&c, d->steering.speed_reduction_speed, 0, 1000, "steering.speed_reduction_speed");
  in_range(&c, d->steering.mechanical_trail, -0.2, 0.2, "steering.mechanical_trail");
  in_range(&c, d->steering.column_friction, 0, 100, "steering.column_friction");
  in_range(&c, d->steering.column_damping, 0, 100, "steering.column_damping");
  in_range(&c, d->input_filter.throttle_rate, 0, 1e6, "input_filter.throttle_rate");
  in_range(&c, d->input_filter.brake_rate, 0, 1e6, "input_filter.brake_rate");
  in_range(&c, d->input_filter.steer_rate, 0, 1e6, "input_filter.steer_rate");
  require(&c, d->axle_count >= 1 && d->axle_count <= GRIP_MAX_AXLES, "axle_count", "must be within 1..8");
  double brake_shares = 0.0;
  for (int a = 0; c.ok && a < d->axle_count; ++a) {
    const grip_axle_def *x = &d->axles[a];
    in_range(&c, x->x, -50, 50, "axle.x");
    if (x->half_track != 0.0) in_range(&c, x->half_track, 0.05, 10, "axle.half_track"); /* 0: one wheel */
    in_range(&c, x->steer_ratio, -2, 2, "axle.steer_ratio");
    in_range(&c, x->brake_share, 0, 1, "axle.brake_share");
    brake_shares += x->brake_share;
    if (a > 0) require(&c, x->x < d->axles[a - 1].x, "axle.x", "axles must be listed front to back (x decreasing)");
    in_range(&c, x->wheel_radius, 0.05, 3, "axle.wheel_radius");
    in_range(&c, x->wheel_width, 0.01, 3, "axle.wheel_width");
    in_range(&c, x->wheel_inertia, 0.01, 1000, "axle.wheel_inertia");
    const grip_suspension_def *s = &x->suspension;
    in_range(&c, s->spring_rate, 100, 1e8, "suspension.spring_rate");
    in_range(&c, s->bump_damping, 0, 1e7, "suspension.bump_damping");
    in_range(&c, s->rebound_damping, 0, 1e7, "suspension.rebound_damping");
    in_range(&c, s->bump_travel, 0.001, 2, "suspension.bump_travel");
    in_range(&c, s->droop_travel, 0.001, 2, "suspension.droop_travel");
    in_range(&c, s->bump_stop_rate, 0, 1e9, "suspension.bump_stop_rate");
    in_range(&c, s->max_force, 1, 1e8, "suspension.max_force");
    in_range(&c, s->anti_roll_rate, 0, 1e8, "suspension.anti_roll_rate");
    in_range(&c, s->levelling_time, 0, 1000, "suspension.levelling_time");
    const grip_tyre_def *t = &x->tyre;
    require(&c, t->model == GRIP_TYRE_SIMPLE_MF || (t->model == GRIP_TYRE_FULL_MF && t->mf),
            "tyre.model", "full MF needs parameters");
    in_range(&c, t->relaxation_length_x, 0.005, 10, "tyre.relaxation_length_x");
    in_range(&c, t->relaxation_length_y, 0.005, 10, "tyre.relaxation_length_y");
    in_range(&c, t->low_speed_damping, 0, 1e6, "tyre.low_speed_damping");
    in_range(&c, t->low_speed, 0.01, 100, "tyre.low_speed");
    in_range(&c, t->rolling_resistance, 0, 100, "tyre.rolling_resistance");
    const grip_simple_mf_curve *curves[2] = {&t->simple.longitudinal, &t->simple.lateral};
    for (int k = 0; c.ok && k < 2; ++k) {
      in_range(&c, curves[k]->b, 0.01, 1000, "tyre.simple.b");
      in_range(&c, curves[k]->c, 0.1, 5, "tyre.simple.c");
      /* A tyre with no friction cannot move, steer or stop the car. */
      in_range(&c, curves[k]->mu, 0.05, 10, "tyre.simple.mu");
      in_range(&c, curves[k]->e, -10, 1, "tyre.simple.e");
      in_range(&c, curves[k]->slide_gain, 0, 2, "tyre.simple.slide_gain");
    }
    in_range(&c, t->simple.nominal_load, 10, 1e6, "tyre.simple.nominal_load");
    in_range(&c, t->simple.load_sensitivity, 0, 5, "tyre.simple.load_sensitivity");
    in_range(&c, t->simple.pneumatic_trail, 0, 1, "tyre.simple.pneumatic_trail");
  }
  if (c.ok) {
    /* The layouts drive the first axle (FWD), the last (RWD) or both (AWD) through an axle
     * differential between two wheels. */
    grip_drive_layout layout = d->drivetrain.layout;
    const grip_axle_def *first = &d->axles[0], *last = &d->axles[d->axle_count - 1];
    if (layout == GRIP_DRIVE_TREE) check_tree(&c, d);
    else if (powered) {
    require(&c, layout == GRIP_DRIVE_RWD || first->half_track > 0.0, "drivetrain.layout",
            "FWD and AWD drive the first axle, which needs two wheels");
    require(&c, layout == GRIP_DRIVE_FWD || last->half_track > 0.0, "drivetrain.layout",
            "RWD and AWD drive the last axle, which needs two wheels");
    require(&c, layout != GRIP_DRIVE_AWD || d->axle_count >= 2, "drivetrain.layout", "AWD needs two axles");
    }
  }
  require(&c, brake_shares == 0.0 || fabs(brake_shares - 1.0) <= 1e-6, "axle.brake_share",
          "the axles' shares must add up to 1 (or all be 0: brakes.front_bias)");
  in_range(&c, d->aero.drag_coefficient, 0, 10, "aero.drag_coefficient");
  in_range(&c, d->aero.frontal_area, 0, 100, "aero.frontal_area");
  in_range(&c, d->aero.lift_coefficient_front, -20, 20, "aero.lift_coefficient_front");
  in_range(&c, d->aero.lift_coefficient_rear, -20, 20, "aero.lift_coefficient_rear");
  in_range(&c, d->aero.center_of_pressure_z, -5, 10, "aero.center_of_pressure_z");
  in_range(&c, d->aero.ground_effect_gain, 0, 10, "aero.ground_effect_gain");
  in_range(&c, d->aero.ride_height, 0, 2, "aero.ride_height");
  if (d->aero.ground_effect_gain > 0)
    in_range(&c, d->aero.ground_effect_height, 0.001, 10, "aero.ground_effect_height");
  require(&c, d->aero.wing_count >= 0 && d->aero.wing_count <= GRIP_MAX_WINGS, "aero.wing_count",
          "must be within 0..4");
  for (int i = 0; c.ok && i < d->aero.wing_count; ++i) {
    in_range(&c, d->aero.wings[i].area, 0, 100, "aero.wings.area");
    in_range(&c, d->aero.wings[i].angle, -1.5, 1.5, "aero.wings.angle");
  }
  in_range(&c, d->assists.grip_multiplier, 0.1, 10, "assists.grip_multiplier");
  in_range(&c, d->assists.yaw_damping, 0, 1e7, "assists.yaw_damping");
  in_range(&c, d->assists.max_roll, 0, 3.2, "assists.max_roll");
  in_range(&c, d->assists.max_pitch, 0, 3.2, "assists.max_pitch");
  in_range(&c, d->assists.steering_assist, 0, 1, "assists.steering_assist");
  const grip_systems_def *sy = &d->systems;
  in_range(&c, sy->abs.target_slip, 0.02, 0.5, "systems.abs.target_slip");
  in_range(&c, sy->abs.slip_band, 0.005, 0.3, "systems.abs.slip_band");
  in_range(&c, sy->abs.modulation_rate, 1, 1000, "systems.abs.modulation_rate");
  in_range(&c, sy->abs.min_speed, 0, 30, "systems.abs.min_speed");
  if (sy->tc.target_slip != 0.0) in_range(&c, sy->tc.target_slip, 0.02, 1, "systems.tc.target_slip");
  in_range(&c, sy->tc.slip_band, 0.005, 0.5, "systems.tc.slip_band");
  in_range(&c, sy->tc.torque_rate, 0.1, 1000, "systems.tc.torque_rate");
  in_range(&c, sy->tc.brake_gain, 0, 1e6, "systems.tc.brake_gain");
  in_range(&c, sy->tc.min_speed, 0.5, 30, "systems.tc.min_speed");
  in_range(&c, sy->esc.understeer_gradient, 0, 0.1, "systems.esc.understeer_gradient");
  in_range(&c, sy->esc.friction, 0.1, 3, "systems.esc.friction");
  in_range(&c, sy->esc.deadband, 0, 2, "systems.esc.deadband");
  in_range(&c, sy->esc.gain, 0, 1e7, "systems.esc.gain");
  in_range(&c, sy->esc.max_torque, 0, 1e6, "systems.esc.max_torque");
  in_range(&c, sy->esc.min_speed, 0, 50, "systems.esc.min_speed");
  const grip_tyre_state_def *ts = &d->tyre_state;
  if (ts->enabled) { /* unused while off: a definition without it need not fill it */
    in_range(&c, ts->initial_temperature, 200, 500, "tyre_state.initial_temperature");
    in_range(&c, ts->air_temperature, 200, 400, "tyre_state.air_temperature");
    in_range(&c, ts->road_temperature, 200, 400, "tyre_state.road_temperature");
    in_range(&c, ts->surface_heat_capacity, 1, 1e7, "tyre_state.surface_heat_capacity");
    in_range(&c, ts->carcass_heat_capacity, 1, 1e7, "tyre_state.carcass_heat_capacity");
    in_range(&c, ts->gas_heat_capacity, 0.1, 1e6, "tyre_state.gas_heat_capacity");
    in_range(&c, ts->surface_carcass_conductance, 0, 1e5, "tyre_state.surface_carcass_conductance");
    in_range(&c, ts->carcass_gas_conductance, 0, 1e5, "tyre_state.carcass_gas_conductance");
    in_range(&c, ts->road_conductance, 0, 1e5, "tyre_state.road_conductance");
    in_range(&c, ts->convection_area, 0, 100, "tyre_state.convection_area");
    in_range(&c, ts->convection_h0, 0, 1e4, "tyre_state.convection_h0");
    in_range(&c, ts->convection_h1, 0, 1e4, "tyre_state.convection_h1");
    in_range(&c, ts->convection_exponent, 0, 2, "tyre_state.convection_exponent");
    in_range(&c, ts->rolling_loss_to_surface, 0, 1, "tyre_state.rolling_loss_to_surface");
    in_range(&c, ts->optimum_temperature, 200, 600, "tyre_state.optimum_temperature");
    in_range(&c, ts->window_width, 1, 1000, "tyre_state.window_width");
    in_range(&c, ts->window_floor, 0.05, 1, "tyre_state.window_floor");
    in_range(&c, ts->pressure, 0, 1e7, "tyre_state.pressure");
    in_range(&c, ts->pressure_temperature, 200, 500, "tyre_state.pressure_temperature");
    in_range(&c, ts->tread_depth, 1e-4, 0.1, "tyre_state.tread_depth");
    in_range(&c, ts->wear_rate, 0, 1e-6, "tyre_state.wear_rate");
    in_range(&c, ts->wear_grip_loss, 0, 0.9, "tyre_state.wear_grip_loss");
  }
  if (d->coupling.enabled) {
    in_range(&c, d->coupling.point.x, -50, 50, "coupling.point.x");
    in_range(&c, d->coupling.point.y, -50, 50, "coupling.point.y");
    in_range(&c, d->coupling.point.z, -5, 10, "coupling.point.z");
    /* The coupling is a support apart from the axles (else the loads have no lever). */
    for (int a = 0; c.ok && a < d->axle_count; ++a)
      require(&c, fabs(d->coupling.point.x - d->axles[a].x) >= 0.1, "coupling.point.x",
              "must be at least 0.1 m ahead of or behind every axle");
  }
  in_range(&c, d->fuel.capacity, 0, 1e5, "fuel.capacity");
  in_range(&c, d->fuel.mass, 0, d->fuel.capacity, "fuel.mass");
  require(&c, d->chassis_mode == GRIP_CHASSIS_OWN || d->chassis_mode == GRIP_CHASSIS_EXTERNAL, "chassis_mode",
          "must be GRIP_CHASSIS_OWN or GRIP_CHASSIS_EXTERNAL");
  return c.ok ? GRIP_OK : GRIP_INVALID_ARGUMENT;
}
