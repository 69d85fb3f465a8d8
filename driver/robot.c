/* The robot driver (docs/driver.md). Public API only: track queries, the car's definition,
 * its state and its inputs. */
#include "robot.h"
#include "car_layout.h"
#include "line_solver.h"
#include "grip/mf_tyre.h"

#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define G 9.81
#define REVERSE_SPEED 3.0 /* m/s, backing out of a wall or the grass */
/* Traffic at a standstill (robot_drive's recovery): a car counts as in our lane within half the
 * two widths plus this (m), as just ahead within half the two lengths plus STANDSTILL_GAP_AHEAD
 * (m), as just behind within half the two lengths plus STANDSTILL_GAP_BEHIND (m, room to back
 * out at REVERSE_SPEED); behind a standing car the wait before backing out is STANDSTILL_WAIT
 * times stuck_time. */
#define STANDSTILL_LANE_MARGIN 0.5
#define STANDSTILL_GAP_AHEAD 4.0
#define STANDSTILL_GAP_BEHIND 6.0
#define STANDSTILL_WAIT 4.0
/* Passing: a car ahead on the line is passed when its tail would be reached within
 * PASS_HORIZON (s) at the present closing speed, or is nearer than PASS_NEAR (m); the shift
 * (at most 2.5 m/s sideways) then has time to build before the car is reached. */
#define PASS_HORIZON 3.0
#define PASS_NEAR 10.0
#define LEARN_CALM 3.0 /* s after traffic or a shift before the grip learning looks again */
#define FOLLOW_SLACK 1.0 /* m/s under this car's plan at which a car ahead counts as slower */
#define CLOSE_AHEAD_TIME 1.0 /* s: a car nearer ahead than this, at v (at least 10 m/s), is close */
#define ROUTE_HOLD 60.0   /* m past a route's end over which its last sample holds */
#define TOP_SPEED_TARGET 1.25 /* × the top-speed estimate: the target where the plan is flat out */
#define USE_STEPS 32 /* the slip-angle tables' steps of lateral utilisation, 0 .. 1 */

typedef struct line_sample {
  double s;          /* m, centre-line distance */
  double px, py;     /* centre-line point */
  double nx, ny;     /* left normal */
  double heading;    /* rad, centre-line heading */
  double half_width; /* m, half road width */
  double bound;      /* m, |offset| allowed for the car's centre on the line */
  double banking;    /* rad */
  double slope;      /* dz/ds of the centre line */
  double vertical_curvature; /* 1/m, d(slope)/ds over crests (< 0: less load), 0 elsewhere */
  double v_lift;     /* m/s, lift-off cap over a sharp crest (INFINITY where none) */
  bool crest_bend;   /* a bend follows within crest_reach (plan_speed) */
  double friction;   /* road surface friction multiplier */
  double offset;     /* m, racing-line lateral offset */
  double x, y;       /* line point */
  double ds;         /* m, line length to the next sample */
  double curvature;  /* 1/m, signed, of the line */
  double v_corner;   /* m/s */
  double v_plan;     /* m/s, after the braking pass (what the controller follows) */
  double v_fwd;      /* m/s, after the acceleration pass (predicted lap) */
} line_sample;

/* What robot_drive reads of the line every step, column by column (field-major, n samples each):
 * an interpolation reads two neighbouring doubles of one column, one cache line, where the
 * 176-byte samples cost two. The geometry columns never change once the line is made and are
 * shared, read-only, by a robot and its clones; in a 64-car race the cars near one another read
 * the same lines of memory. The speed columns are each robot's own (adapt_grip replans them). */
typedef enum drive_field {
  DF_BOUND,
  DF_CURVATURE,
  DF_FRICTION,
  DF_HALF_WIDTH,
  DF_NX,
  DF_NY,
  DF_OFFSET,
  DF_PX,
  DF_PY,
  DF_GEOMETRY_COUNT,
  DF_V_FWD = DF_GEOMETRY_COUNT,
  DF_V_PLAN,
  DF_COUNT
} drive_field;

typedef struct drive_geometry {
  atomic_int refs; /* the robots sharing it */
  double column[]; /* DF_GEOMETRY_COUNT × n */
} drive_geometry;

typedef enum robot_mode { MODE_DRIVE = 0, MODE_REVERSE = 1 } robot_mode;

struct robot {
  robot_params p;
  const grip_track *track;
  grip_vehicle_def car;
  /* Each axle's tyre without its slide gain, and what the gain adds to cornering
   * (cornering_gain; 1 without one): tyre_mu from these costs one load law, not a scan. */
  grip_tyre_def plain_tyre[GRIP_MAX_AXLES];
  double slide_factor[GRIP_MAX_AXLES];
  double length;   /* track length */
  double step;     /* sample spacing */
  int n;
  line_sample *line;
  drive_geometry *geometry; /* the geometry columns, shared with clones */
  double *speeds;           /* the speed columns, (DF_COUNT − DF_GEOMETRY_COUNT) × n */
  /* car figures */
  double mass, ca, drag_k, rolling, top_speed, brake_force, wheelbase, rear_x;
  double axle_weight[2];    /* N, static axle loads */
  double axle_downforce[2]; /* N/(m/s)², downforce per axle per speed squared */
  double car_length, car_width, lap_time;
  car_layout layout;          /* axles, wheels and which are driven (any axle count) */
  double driven_radius;       /* m, car_driven_wheel_radius */
  bool axle_loads_general;    /* more than two axles or a one-wheel axle: axle_weights */
  double axle_weights[GRIP_MAX_AXLES]; /* N, static loads of every axle (springs' share) */
  /* The plan's lateral friction is capped here: 0.85 × the tricycle rollover threshold, so the
   * robot corners a three-wheeler below where it tips; INFINITY for every other car. */
  double rollover_mu;
  double cg_height; /* m, of body and fuel together */
  const grip_wheel_state *wheels; /* every wheel of the next step (robot_set_wheels) or NULL */
  int wheels_count;
  double tc_slip, abs_slip;
  double front_peak_alpha; /* rad, slip angle of the front tyre's peak lateral force */
  double understeer;       /* rad per m/s², single-track K = m_f/C_f − m_r/C_r (0: unknown) */
  /* Cornering drag: each axle's slip angle (rad) at lateral utilisation k/USE_STEPS of its
   * tyres' peak, at its static load, and its share of the car's lateral force (the static
   * weight's; steady cornering needs no yaw moment). */
  double slip_at_use[GRIP_MAX_AXLES][USE_STEPS + 1];
  double lateral_share[GRIP_MAX_AXLES]; /* slip-ratio thresholds (fractions of the tyre's peak slip) */
  /* control state */
  int hint;
  double integ;
  double lat_integ; /* m·s, integrated lateral error */
  double shift; /* m, lateral shift from the line (avoidance), rate limited */
  double calm_t; /* s since the last car within 30 m or shift of 0.5 m or more from the line */
  double stuck_t, back_t, reverse_t;
  robot_mode mode;
  /* Grip learnt on the road: the plan's mu is scaled by grip_scale (1 at creation), lowered
   * when the car runs wide with its tyres past their peak while holding less lateral
   * acceleration than the plan counted on (adapt_grip). */
  double grip_scale;
  double saturated_t;            /* s, of the current run-wide-at-the-limit episode */
  double sat_lat_sum, sat_cap_sum; /* its measured and planned lateral acceleration, summed */
  double shift_wait; /* s until the next downshift is allowed */
  int gear_request;  /* the gear last asked for */
  double surface_friction; /* friction under the wheels (mean of the four), once surface_known */
  robot_status status;
  bool located; /* status holds the location of the state at located_time/x/y */
  double located_time, located_x, located_y;
  int located_hint;   /* the hint that location was found from */
  bool surface_known; /* surface_friction is that of the located state */
  robot_route route; /* count 0: none */
  /* params.control_rate > 0: the last decision's inputs, and the time given since it */
  bool decided;
  double since_decision; /* s */
  grip_vehicle_input decision;
};

/* --- parameters ----------------------------------------------------------------------- */

robot_params robot_default_params(void) {
  return (robot_params){.mu_factor = 0.85,
                        .aggressiveness = 1.0,
                        .brake_margin = 0.8,
                        .accel_margin = 0.9,
                        .edge_margin = 1.2,
                        .line_step = 3.0,
                        .racing_line = 1,
                        .lookahead_min = 6.0,
                        .lookahead_time = 0.175,
                        .speed_kp = 0.5,
                        .speed_ki = 0.5,
                        .tc_slip = 0.6,
                        .abs_slip = 0.6,
                        .yaw_gain = 0.3,
                        .oversteer_slip = 0.02,
                        .lateral_ki = 0.02,
                        .speed_preview = 0.1,
                        .lateral_ki_limit = 0.05,
                        .stuck_time = 2.0,
                        .reverse_time = 2.0,
                        .follow_time = 0.6,
                        .look_cars = 60.0,
                        .car_gap = 0.8,
                        .auto_gearbox = 0,
                        .plan_banking = 1,
                        .wide_margin = 0.5,
                        .edge_margin_speed = 0.02,
                        .downshift_gap = 0.15,
                        .crest_base = 3.0,
                        .crest_load = 0.0,
                        .crest_radius = 150.0,
                        .crest_reach = 60.0,
                        .flat_out_speed = 1.02,
                        .downshift_hold = 1.5,
                        .axle_balance = 1.03,
                        .control_rate = 0.0};
}

typedef struct param_entry {
  const char *key;
  size_t offset;
  double min, max;
  bool is_int;
} param_entry;

#define PARAM(name, lo, hi) {#name, offsetof(robot_params, name), lo, hi, false}
static const param_entry param_table[] = {
    PARAM(mu_factor, 0.1, 2.0),      PARAM(aggressiveness, 0.1, 3.0), PARAM(brake_margin, 0.1, 1.5),
    PARAM(accel_margin, 0.1, 1.5),   PARAM(edge_margin, 0.0, 10.0),   PARAM(line_step, 0.5, 20.0),
    {"racing_line", offsetof(robot_params, racing_line), 0, 1, true},
    PARAM(lookahead_min, 0.5, 100.0), PARAM(lookahead_time, 0.0, 5.0), PARAM(speed_kp, 0.0, 100.0),
    PARAM(speed_ki, 0.0, 100.0),     PARAM(tc_slip, 0.01, 10.0),      PARAM(abs_slip, 0.01, 10.0),
    PARAM(yaw_gain, 0.0, 10.0),      PARAM(oversteer_slip, 0.001, 1.0),
    PARAM(lateral_ki, 0.0, 10.0),    PARAM(speed_preview, 0.0, 5.0),    PARAM(lateral_ki_limit, 0.0, 1.0),
    PARAM(stuck_time, 0.1, 60.0),    PARAM(reverse_time, 0.1, 60.0),  PARAM(follow_time, 0.0, 10.0),
    PARAM(look_cars, 0.0, 1000.0),   PARAM(car_gap, 0.0, 10.0),
    {"auto_gearbox", offsetof(robot_params, auto_gearbox), 0, 1, true},
    {"plan_banking", offsetof(robot_params, plan_banking), 0, 1, true},
    {"wide_margin", offsetof(robot_params, wide_margin), 0.05, 5, false},
    PARAM(edge_margin_speed, 0.0, 1.0), PARAM(downshift_gap, 0.0, 5.0),
    PARAM(crest_base, 0.0, 50.0),    PARAM(crest_load, 0.0, 0.9),
    PARAM(crest_radius, 0.0, 1e4),   PARAM(crest_reach, 0.0, 1e3),
    PARAM(flat_out_speed, 0.0, 2.0), PARAM(downshift_hold, 0.0, 10.0),
    PARAM(axle_balance, 0.0, 10.0),  PARAM(control_rate, 0.0, 1e4),
};
#undef PARAM

int robot_params_set(robot_params *p, const char *key, const char *value) {
  for (size_t k = 0; k < sizeof param_table / sizeof param_table[0]; ++k) {
    const param_entry *e = &param_table[k];
    if (strcmp(e->key, key) != 0) continue;
    char *end = NULL;
    errno = 0;
    double v = strtod(value, &end);
    while (end && (*end == ' ' || *end == '\t' || *end == '\r')) ++end;
    if (end == value || !end || *end != '\0' || errno || !isfinite(v) || v < e->min || v > e->max) return -1;
    if (e->is_int) {
      if (v != floor(v)) return -1;
      *(int *)((char *)p + e->offset) = (int)v;
    } else {
      *(double *)((char *)p + e->offset) = v;
    }
    return 0;
  }
  return -1;
}

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') ++s;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r')) s[--n] = '\0';
  return s;
}

int robot_params_load(const char *path, robot_params *p, grip_load_error *err) {
  FILE *f = fopen(path, "r");
  if (!f) {
    grip_load_error_set(err, path, 0, NULL, "cannot open: %s", strerror(errno));
    return -1;
  }
  robot_params out = *p;
  char buf[512];
  int line = 0, rc = 0;
  while (fgets(buf, sizeof buf, f)) {
    ++line;
    char *hash = strchr(buf, '#');
    if (hash) *hash = '\0';
    char *s = trim(buf);
    if (!*s) continue;
    char *eq = strchr(s, '=');
    if (!eq) {
      grip_load_error_set(err, path, line, NULL, "expected key = value");
      rc = -1;
      break;
    }
    *eq = '\0';
    char *key = trim(s), *value = trim(eq + 1);
    bool known = false;
    for (size_t k = 0; k < sizeof param_table / sizeof param_table[0]; ++k)
      if (strcmp(param_table[k].key, key) == 0) {
        known = true;
        if (robot_params_set(&out, key, value) != 0) {
          grip_load_error_set(err, path, line, key, "'%s' is not a number within %g..%g%s", value,
                              param_table[k].min, param_table[k].max, param_table[k].is_int ? " (integer)" : "");
          rc = -1;
        }
      }
    if (!known) {
      grip_load_error_set(err, path, line, key, "unknown parameter");
      rc = -1;
    }
    if (rc) break;
  }
  fclose(f);
  if (rc == 0) *p = out;
  return rc;
}

/* --- car figures --------------------------------------------------------------------- */

static double clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

static double wrap_angle(double a) {
  while (a > GRIP_PI) a -= 2.0 * GRIP_PI;
  while (a <= -GRIP_PI) a += 2.0 * GRIP_PI;
  return a;
}

/* Peak lateral friction of the tyre at load fz (load sensitivity included), without a slide
 * gain: the Magic Formula's D/Fz. */
static double plain_tyre_mu(const grip_tyre_def *t, double fz) {
  double mu;
  grip_tyre_peak_mu(t, fz, NULL, &mu);
  return mu;
}

/* What a slide gain adds to the cornering force a tyre can hold: the largest force across the
 * car's path, F(α)·cos α, with the gain over without it (scanned in 1 mrad steps up to 1.2 rad).
 * TORCS's skid factor 0.3 on car1-trb1's curve: 1.041 at 15° against 0.975 at 11°, 1.068. 1
 * without a gain. */
static double cornering_gain(const grip_simple_mf_curve *k) {
  if (k->slide_gain == 0.0) return 1.0;
  grip_simple_mf_curve plain = *k;
  plain.slide_gain = 0.0;
  double with = 0.0, without = 0.0;
  for (int i = 1; i <= 1200; ++i) {
    double alpha = 1e-3 * i, c = cos(alpha);
    with = fmax(with, grip_magic_formula(k, alpha, NULL) * c);
    without = fmax(without, grip_magic_formula(&plain, alpha, NULL) * c);
  }
  return without > 0.0 ? with / without : 1.0;
}

/* Peak lateral friction of axle a's tyre at load fz, as the plan counts it: the plain μ times
 * what the slide gain adds to cornering (cornering_gain, found once at robot_create). */
static double tyre_mu(const robot *r, int a, double fz) {
  return plain_tyre_mu(&r->plain_tyre[a], fz) * r->slide_factor[a];
}

/* Maximum wheel force from the engine at road speed v over the gears (rev limit respected),
 * and the gear that gives it (0: none) when gear is not NULL. */
static double engine_force_in(const grip_vehicle_def *c, double v, int *gear) {
  const grip_gearbox_def *g = &c->gearbox;
  double r = car_driven_wheel_radius(c);
  double best = 0.0;
  int best_gear = 0;
  for (int k = 0; k < g->forward_gears; ++k) {
    double x = g->ratios[k] * g->final_drive;
    double rpm = v / r * x * 60.0 / (2.0 * GRIP_PI);
    if (rpm > c->engine.rev_limit_rpm) continue;
    if (rpm < c->clutch.engage_rpm) rpm = c->clutch.engage_rpm; /* the clutch slips below */
    double f = grip_engine_curve_torque(&c->engine, rpm) * x * g->efficiency / r;
    if (f > best) {
      best = f;
      best_gear = k + 1;
    }
  }
  if (gear) *gear = best_gear;
  return best;
}

static double engine_force(const grip_vehicle_def *c, double v) { return engine_force_in(c, v, NULL); }

/* |F_y| of tyre t at load fz and slip angle alpha, rolling freely on a dry road, up to a factor
 * that depends on the load only (make_slip_tables uses the ratios between slips at one load).
 * The simple model's pure lateral force is μ_y(F_z)·F_z·MF(α) (src/tyre_simple.c, at κ = 0 its
 * resultant slip is α's own): its Magic Formula alone, without grip_simple_mf_evaluate's search
 * for both peak slips at each call (530 calls, 30 M instructions on car1-trb1). */
static double lateral_force_shape(const grip_tyre_def *t, double fz, double alpha) {
  if (t->model != GRIP_TYRE_FULL_MF || !t->mf) return fabs(grip_magic_formula(&t->simple.lateral, alpha, NULL));
  grip_tyre_input in = {.fz = fz, .kappa = 0.0, .alpha = alpha, .gamma = 0.0, .vx = 30.0, .friction_scale = 1.0};
  grip_tyre_output out = {0};
  grip_mf_evaluate(t->mf, &in, &out);
  return fz > 0.0 ? fabs(out.fy) / fz : 0.0;
}

/* The slip angle each axle's tyres need for a share u of their peak lateral force (scanned in
 * 1 mrad steps up to 0.5 rad, interpolated): the cornering drag of the speed plan. */
static void make_slip_tables(robot *r, const grip_vehicle_def *car) {
  enum { SCAN = 500 };
  double total = 0.0;
  for (int a = 0; a < car->axle_count; ++a) total += r->axle_weights[a];
  for (int a = 0; a < car->axle_count; ++a) {
    const grip_tyre_def *t = &car->axles[a].tyre;
    int wheels = r->layout.axle_wheels[a] > 0 ? r->layout.axle_wheels[a] : 1;
    double fz = fmax(r->axle_weights[a] / wheels, 1.0);
    r->lateral_share[a] = total > 0.0 ? r->axle_weights[a] / total : 0.0;
    double f[SCAN + 1], peak = 0.0;
    int top = SCAN;
    /* A simple-MF tyre with a slide gain (TORCS's skid factor) keeps gaining force past the
     * Magic Formula's peak slip: its peak is counted there, as the plan's μ counts it. */
    int last = SCAN;
    if (t->model == GRIP_TYRE_SIMPLE_MF && t->simple.lateral.slide_gain != 0.0)
      last = (int)fmin(SCAN, ceil(grip_magic_formula_peak_slip(&t->simple.lateral) / 1e-3));
    for (int i = 0; i <= last; ++i) {
      f[i] = lateral_force_shape(t, fz, 1e-3 * i);
      if (f[i] > peak) peak = f[i];
      else if (f[i] < peak) { /* past the peak */
        top = i - 1;
        break;
      }
      top = i;
    }
    for (int k = 0, i = 1; k <= USE_STEPS; ++k) {
      double want = peak * k / USE_STEPS;
      while (i < top && f[i] < want) ++i;
      double lo = f[i - 1], hi = f[i];
      double x = hi > lo ? clampd((want - lo) / (hi - lo), 0.0, 1.0) : 1.0;
      r->slip_at_use[a][k] = k == 0 ? 0.0 : 1e-3 * (i - 1 + x);
    }
  }
}

/* m/s², the deceleration of cornering at lateral acceleration a_lat and speed v where the
 * plan's friction allows a_plan: the power the tyres' lateral slip takes, Σ F_y·v·sin α per
 * unit mass and speed. The tyres work at the plan's share of their peak, mu_factor·a_lat/a_plan
 * (the plan corners at mu_factor of the tyres' μ), split between the axles by how much of its
 * own peak each one's share of m·a_lat is (its static load with its downforce at v, as plan_mu
 * counts it): car1-trb1's rear, with two thirds of the downforce, runs at half the front's slip
 * angle. */
static double cornering_drag(const robot *r, double a_lat, double a_plan, double v) {
  if (!(a_lat > 0.0) || !(a_plan > 0.0)) return 0.0;
  int last = r->layout.axle_count - 1;
  double use[GRIP_MAX_AXLES], demand = 0.0, capacity = 0.0;
  for (int a = 0; a <= last; ++a) {
    double down = (a == 0 ? r->axle_downforce[0] : 0.0) + (a == last ? r->axle_downforce[1] : 0.0);
    double load = r->axle_weights[a] + down * v * v;
    int wheels = r->layout.axle_wheels[a] > 0 ? r->layout.axle_wheels[a] : 1;
    double peak = tyre_mu(r, a, load / wheels) * load;
    use[a] = peak > 0.0 ? r->lateral_share[a] / peak : 0.0;
    demand += r->lateral_share[a];
    capacity += peak;
  }
  double overall = r->p.mu_factor * fmin(1.0, a_lat / a_plan) * capacity / demand, slip = 0.0;
  for (int a = 0; a <= last; ++a) {
    double u = fmin(1.0, overall * use[a]) * USE_STEPS;
    int k = (int)u;
    if (k >= USE_STEPS) k = USE_STEPS - 1;
    double alpha = r->slip_at_use[a][k] + (u - k) * (r->slip_at_use[a][k + 1] - r->slip_at_use[a][k]);
    slip += r->lateral_share[a] * sin(alpha);
  }
  return a_lat * slip;
}

/* The forward gears giving most wheel force at road speed v below two fractions of the rev
 * limit (the top gear is always a candidate), from one look-up of the torque curve per gear:
 * *up for up_fraction, *down for down_fraction. */
static void best_gears(const grip_vehicle_def *c, double v, double up_fraction, double down_fraction, int *up,
                       int *down) {
  const grip_gearbox_def *g = &c->gearbox;
  double r = car_driven_wheel_radius(c);
  int best_up = 1, best_down = 1;
  double f_up = -1.0, f_down = -1.0;
  for (int k = 0; k < g->forward_gears; ++k) {
    double x = g->ratios[k] * g->final_drive;
    double rpm = v / r * x * 60.0 / (2.0 * GRIP_PI);
    bool top = k + 1 >= g->forward_gears;
    bool up_ok = top || !(rpm > up_fraction * c->engine.rev_limit_rpm);
    bool down_ok = top || !(rpm > down_fraction * c->engine.rev_limit_rpm);
    if (!up_ok && !down_ok) continue;
    if (rpm < c->clutch.engage_rpm) rpm = c->clutch.engage_rpm;
    double f = grip_engine_curve_torque(&c->engine, rpm) * x;
    if (up_ok && f > f_up) {
      f_up = f;
      best_up = k + 1;
    }
    if (down_ok && f > f_down) {
      f_down = f;
      best_down = k + 1;
    }
  }
  *up = best_up;
  *down = best_down;
}

/* The plan's friction at speed v: mu_factor × the lower axle's tyre mu at its wheel load with
 * the downforce of that speed (load-sensitive tyres lose mu as downforce loads them; at rest
 * this is robot_plan_mu). */
/* A two-axle car's axle a: its tyres' peak μ at its wheel load at speed v (static load plus its
 * downforce). */
static double axle_tyre_mu(const robot *r, int a, double v) {
  return tyre_mu(r, a, 0.5 * (r->axle_weight[a] + r->axle_downforce[a] * v * v));
}

static double plan_mu(const robot *r, double v) {
  double mu = INFINITY;
  if (!r->axle_loads_general) {
    for (int a = 0; a < 2; ++a) mu = fmin(mu, axle_tyre_mu(r, a, v));
  } else {
    /* Any axle count: the body lift acts on the first and the last axle (src/vehicle.c). A
     * truck's high centre of gravity moves much of an axle's load to its outer wheel in a
     * corner, and load-sensitive tyres lose friction with it: each axle's friction is its two
     * wheels' μ(F_z)·F_z at the lateral acceleration μ·g, with the transfer
     * ΔF = F_axle·a_y·h/(2·half_track) (each axle rolls its own share), solved by a few
     * fixed-point passes (0.80 static → 0.74 for the truck's steer axle). */
    int last = r->layout.axle_count - 1;
    double ay = INFINITY;
    for (int a = 0; a <= last; ++a) {
      double down = (a == 0 ? r->axle_downforce[0] : 0.0) + (a == last ? r->axle_downforce[1] : 0.0);
      double fz = (r->axle_weights[a] + down * v * v) / r->layout.axle_wheels[a];
      ay = fmin(ay, tyre_mu(r, a, fz));
    }
    for (int pass = 0; pass < 4; ++pass) {
      mu = INFINITY;
      for (int a = 0; a <= last; ++a) {
        const grip_axle_def *ax = &r->car.axles[a];
        double down = (a == 0 ? r->axle_downforce[0] : 0.0) + (a == last ? r->axle_downforce[1] : 0.0);
        double load = r->axle_weights[a] + down * v * v;
        if (r->layout.axle_wheels[a] == 1 || !(load > 0.0)) {
          mu = fmin(mu, tyre_mu(r, a, load));
          continue;
        }
        double w = 0.5 * load, d = fmin(w, load * ay * r->cg_height / (2.0 * ax->half_track));
        double cap = tyre_mu(r, a, w + d) * (w + d) + (w - d > 0.0 ? tyre_mu(r, a, w - d) * (w - d) : 0.0);
        mu = fmin(mu, cap / load);
      }
      ay = mu;
    }
  }
  return fmin(r->p.mu_factor * r->grip_scale * mu, r->rollover_mu);
}

double robot_corner_speed(const robot *r, double radius, double mu) {
  double den = 1.0 - fmin(1.0, radius * r->ca * mu / r->mass);
  if (den <= 0.0) return r->top_speed;
  double v = sqrt(mu * G * radius / den);
  return v < r->top_speed ? v : r->top_speed;
}

static double interp(const robot *r, double s, drive_field field);

/* m, half road width at distance s. */
static double loc_half_width(const robot *r, double s) { return interp(r, s, DF_HALF_WIDTH); }

/* What the corner-speed formula needs of a sample, found once for all the formula's calls on it
 * (up to three root searches below, each ~5 calls): the radius, and the sine and cosine of the
 * banking on the side the turn leans. Banking > 0 raises the left edge: it helps a right-hand
 * turn (the outside is higher) and hurts a left-hand one. */
typedef struct corner_geometry {
  bool straight; /* |curvature| < 1e-6 1/m: the formula's speed is the top speed */
  double radius, sin_beta, cos_beta, vertical_curvature;
} corner_geometry;

static corner_geometry corner_geometry_of(double curvature, double bank, double vertical_curvature) {
  corner_geometry g = {.straight = true};
  double k = fabs(curvature);
  if (k < 1e-6) return g;
  double beta = curvature > 0.0 ? -bank : bank;
  g.straight = false;
  g.radius = 1.0 / k;
  g.sin_beta = sin(beta);
  g.cos_beta = cos(beta);
  g.vertical_curvature = vertical_curvature;
  return g;
}

/* Corner speed on a banked road (β > 0: the outside of the turn is higher) with vertical
 * curvature κ_v (a crest, κ_v < 0, unloads the tyres by v²·|κ_v| per unit mass; a dip loads
 * them): v² = g·r·(sin β + μ cos β) / (cos β − μ sin β − μ·r·(CA/m + κ_v)); β = 0 and κ_v = 0
 * give the formula above. */
static double banked_corner_speed_mu(const robot *r, const corner_geometry *g, double mu, double ca_per_mass) {
  if (g->straight) return r->top_speed;
  double num = G * g->radius * (g->sin_beta + mu * g->cos_beta);
  double den = g->cos_beta - mu * g->sin_beta - mu * g->radius * (ca_per_mass + g->vertical_curvature);
  if (den <= 0.0 || num <= 0.0) return num <= 0.0 ? 0.0 : r->top_speed;
  double v = sqrt(num / den * r->p.aggressiveness);
  return v < r->top_speed ? v : r->top_speed;
}

/* An axle's own μ at speed v (its tyres' peak at its load, downforce included) as the plan
 * counts it, times axle_balance. */
static double axle_plan_mu(const robot *r, int a, double v) {
  return fmin(r->p.mu_factor * r->grip_scale * r->p.axle_balance * axle_tyre_mu(r, a, v), r->rollover_mu);
}

/* μ·friction at speed v for corner_speed_of: the whole car's (axle < 0) or one axle's. */
static double corner_mu(const robot *r, const line_sample *q, int axle, double v) {
  return (axle < 0 ? plan_mu(r, v) : axle_plan_mu(r, axle, v)) * q->friction;
}

/* The corner speed with the friction at the corner's own speed: the speed v at which v equals
 * the formula's speed for μ(v)·friction (a bracketed root search; the formula's speed falls as
 * v rises, because μ does). axle < 0: the whole car, plan_mu and CA/m. axle >= 0: that axle
 * alone. In a steady turn each axle carries its static share s_a of the car's inertial loads, the
 * cornering force and the normal load alike (gravity, the banking's and a crest's v² terms),
 * but its downforce D_a·v² is its own: the banked formula holds for the axle with μ_a and the
 * aero term D_a / (s_a·m) in place of CA/m. car1-trb1 has 52 % of its weight but a third of its
 * downforce on the front axle: at 250 km/h on a flat road its front holds 0.8 of what μ on the
 * whole car's load counts. */
static double corner_speed_of(const robot *r, const line_sample *q, const corner_geometry *g, int axle) {
  double ca_m;
  bool constant_mu; /* no downforce: μ does not depend on v */
  if (axle < 0) {
    ca_m = r->ca / r->mass;
    constant_mu = r->axle_downforce[0] == 0.0 && r->axle_downforce[1] == 0.0;
  } else {
    if (!(r->lateral_share[axle] > 0.0)) return r->top_speed;
    ca_m = r->axle_downforce[axle] / (r->lateral_share[axle] * r->mass);
    constant_mu = r->axle_downforce[axle] == 0.0;
  }
  /* on a straight the formula's speed is the top speed whatever μ is */
  if (g->straight) return r->top_speed;
  double hi = banked_corner_speed_mu(r, g, corner_mu(r, q, axle, 0.0), ca_m), lo = 0.0;
  if (constant_mu) return hi;
  /* The root of g(v) = f(v) − v, f the formula's speed at μ(v) (falling with v, f(0) = hi): false
   * position with the Illinois rule (the end kept twice has its g halved), bracketed by
   * g(lo) >= 0 > g(hi), and a bisection whenever two steps have not halved the bracket. To
   * 1e-13 of hi in ~5 values of μ (e-track-4), where halving took 48. Returns the bracket's
   * lower end, as halving did (a speed with v <= f(v)). */
  double g_lo = hi, g_hi = banked_corner_speed_mu(r, g, corner_mu(r, q, axle, hi), ca_m) - hi;
  if (!(g_hi < 0.0)) return hi;
  int kept = 0; /* +1: lo was moved last, −1: hi was */
  double width_before = hi;
  /* 200 steps only guard the loop: with a bisection every other step it ends within ~90 */
  for (int it = 0; it < 200 && hi - lo > 1e-13 * hi; ++it) {
    double v = (g_lo * hi - g_hi * lo) / (g_lo - g_hi);
    if (it % 2 == 1) {
      if (hi - lo > 0.5 * width_before) v = 0.5 * (lo + hi);
      width_before = hi - lo;
    }
    if (!(v > lo && v < hi)) v = 0.5 * (lo + hi);
    if (!(v > lo && v < hi)) break; /* lo and hi adjacent doubles */
    double g_v = banked_corner_speed_mu(r, g, corner_mu(r, q, axle, v), ca_m) - v;
    if (g_v >= 0.0) {
      lo = v, g_lo = g_v;
      if (kept == +1) g_hi *= 0.5;
      kept = +1;
    } else {
      hi = v, g_hi = g_v;
      if (kept == -1) g_lo *= 0.5;
      kept = -1;
    }
  }
  return lo;
}

/* The plan's corner speed: the whole car's, and with axle_balance > 0 on a two-axle car no more
 * than each axle's own. */
static double banked_corner_speed(const robot *r, const line_sample *q) {
  corner_geometry g = corner_geometry_of(q->curvature, q->banking, q->vertical_curvature);
  double v = corner_speed_of(r, q, &g, -1);
  if (r->p.axle_balance > 0.0 && !r->axle_loads_general)
    for (int a = 0; a < 2; ++a) {
      /* An axle with at least the car's downforce per unit of its share, and at least the
       * car's μ (axle_balance >= 1; the car's is the lower axle's), allows at least the car's
       * speed: the formula's speed rises with μ and with the aero term. */
      if (r->p.axle_balance >= 1.0 && r->axle_downforce[a] >= r->ca * r->lateral_share[a]) continue;
      v = fmin(v, corner_speed_of(r, q, &g, a));
    }
  return v;
}

/* --- racing line ------------------------------------------------------------------- */

/* A line of fewer samples (a track under 1.5 km at the default 3 m spacing: the built-in one)
 * runs its sweeps one at a time, the plain schedule (to rounding): it costs under 0.1 s there,
 * and the seam's few millimetres (up to 8 mm on e-track-4 and 10 mm on the built-in
 * track with 8 sweeps per batch) decide, in a race whose cars collide, which of them tangle on
 * the first lap (tests/test_race.c four_cars_finish). Single-car laps on TORCS tracks move by
 * under 0.04 % (docs/performance.md). */
#define LINE_WAVEFRONT_MIN_SAMPLES 500

/* Minimises Σ w·|D|² (≈ Σ curvature²·ds, lanes_update) over the offsets of the samples
 * j·stride by up to `sweeps` sweeps of projected Gauss-Seidel, stopping when a sweep moves no
 * offset by 1e-6 m, then interpolates the offsets between them linearly. The finer levels stop
 * at the sweep cap, not at convergence (docs/performance.md): the line is that of this schedule. */
static void smooth_level(robot *r, line_level *v, int stride, int sweeps, int batch) {
  int m = r->n / stride;
  if (m < 5) return;
  line_sample *L = r->line;
  v->m = m;
  v->third = (m + 2) / 3;
  for (int j = 0; j < m; ++j) {
    const line_sample *q = &L[j * stride];
    int p = line_level_pos(v, j);
    v->px[p] = q->px, v->py[p] = q->py, v->nx[p] = q->nx, v->ny[p] = q->ny;
    v->bound[p] = q->bound, v->off[p] = q->offset;
    v->x[p] = q->px + q->offset * q->nx;
    v->y[p] = q->py + q->offset * q->ny;
  }
  line_level_set_lengths(v);
  line_level_sweep(v, sweeps, batch, true);
  for (int j = 0; j < m; ++j) L[j * stride].offset = v->off[line_level_pos(v, j)];
  /* Linear interpolation of the offsets between the level's samples. */
  if (stride > 1)
    for (int j = 0; j < m; ++j) {
      int a = j * stride, b = (j + 1 < m) ? (j + 1) * stride : r->n;
      double oa = L[a].offset, ob = L[b % r->n].offset;
      for (int i = a + 1; i < b; ++i) {
        double t = (double)(i - a) / (double)(b - a);
        L[i].offset = clampd(oa + t * (ob - oa), -L[i].bound, L[i].bound);
      }
    }
}

static int build_line(robot *r) {
  line_sample *L = r->line;
  int n = r->n;
  for (int i = 0; i < n; ++i) L[i].offset = 0.0;
  if (r->p.racing_line) {
    line_level v;
    double *mem = malloc(9 * ((size_t)n + 3) * sizeof *mem);
    if (!mem) return -1;
    double **arrays[9] = {&v.px, &v.py, &v.nx, &v.ny, &v.bound, &v.off, &v.x, &v.y, &v.len};
    for (int k = 0; k < 9; ++k) *arrays[k] = mem + (size_t)k * ((size_t)n + 3);
    int batch = n >= LINE_WAVEFRONT_MIN_SAMPLES ? LINE_BATCH : 1;
    for (int stride = 16; stride >= 1; stride /= 2) smooth_level(r, &v, stride, 3000, batch);
    free(mem);
  }
  for (int i = 0; i < n; ++i) {
    L[i].x = L[i].px + L[i].offset * L[i].nx;
    L[i].y = L[i].py + L[i].offset * L[i].ny;
  }
  for (int i = 0; i < n; ++i) {
    const line_sample *a = &L[(i + n - 1) % n], *b = &L[i], *c = &L[(i + 1) % n];
    double ax = b->x - a->x, ay = b->y - a->y, bx = c->x - b->x, by = c->y - b->y;
    double cx = c->x - a->x, cy = c->y - a->y;
    double la = hypot(ax, ay), lb = hypot(bx, by), lc = hypot(cx, cy);
    L[i].ds = lb;
    if (!r->p.racing_line) {
      grip_track_point tp = grip_track_point_at(r->track, L[i].s);
      L[i].curvature = tp.curvature;
    } else {
      double den = la * lb * lc;
      L[i].curvature = den > 0.0 ? 2.0 * (ax * by - ay * bx) / den : 0.0;
    }
  }
  return 0;
}

/* --- speed plan ------------------------------------------------------------------- */

static double resist(const robot *r, double v) { return r->drag_k * v * v + r->rolling; }

static void plan_speed(robot *r) {
  line_sample *L = r->line;
  int n = r->n;
  /* The lift-off cap counts where the line bends within crest_reach after the crest: a car
   * landing on a straight loses nothing, one landing in a bend lands off its line. Scanned
   * backwards, each sample keeps the distance to the next bend tighter than crest_radius. */
  double to_bend = INFINITY;
  if (r->p.crest_radius > 0.0)
    for (int k = 2 * n - 1; k >= 0; --k) {
      int i = k % n;
      to_bend = fabs(L[i].curvature) * r->p.crest_radius > 1.0 ? 0.0 : to_bend + L[i].ds;
      if (k < n) L[i].crest_bend = to_bend <= r->p.crest_reach;
    }
  for (int i = 0; i < n; ++i) {
    double v_lift = r->p.crest_radius > 0.0 && !L[i].crest_bend ? INFINITY : L[i].v_lift;
    L[i].v_corner = fmin(banked_corner_speed(r, &L[i]), v_lift);
    L[i].v_plan = L[i].v_corner;
  }
  /* Braking: backwards twice around the loop (v_i² = v_{i+1}² + 2·a·ds). */
  for (int k = 2 * n - 1; k >= 0; --k) {
    int i = k % n, j = (i + 1) % n;
    double v = L[j].v_plan, mu = plan_mu(r, v) * L[i].friction;
    double a_tot = mu * fmax(0.0, G + (r->ca / r->mass + L[i].vertical_curvature) * v * v);
    double a_lat = v * v * fabs(L[i].curvature);
    double a_long = sqrt(fmax(0.0, a_tot * a_tot - a_lat * a_lat));
    a_long = fmin(a_long, r->brake_force / r->mass);
    /* Downhill (slope < 0) gravity works against the brakes. */
    double a = r->p.brake_margin * a_long + (r->drag_k * v * v) / r->mass + G * L[i].slope;
    a = fmax(a, 0.5); /* a steep downhill must still leave some deceleration to plan with */
    double vi = sqrt(v * v + 2.0 * a * L[i].ds);
    if (vi < L[i].v_plan) L[i].v_plan = vi;
  }
  /* Acceleration: forwards twice around from the slowest sample. */
  int slow = 0;
  for (int i = 1; i < n; ++i)
    if (L[i].v_plan < L[slow].v_plan) slow = i;
  for (int i = 0; i < n; ++i) L[i].v_fwd = L[i].v_plan;
  double driven_share = r->layout.driven_count == 1 ? 1.0 : 0.55;
  if (r->car.drivetrain.layout == GRIP_DRIVE_AWD) driven_share = 1.0;
  if (r->car.drivetrain.layout == GRIP_DRIVE_TREE) { /* the driven axles' share of the weight */
    double driven = 0.0, all = 0.0;
    for (int a = 0; a < r->layout.axle_count; ++a) {
      all += r->axle_weights[a];
      if (r->layout.driven_axle[a]) driven += r->axle_weights[a];
    }
    driven_share = all > 0.0 ? driven / all : 0.55;
  }
  /* Besides the engine, friction, drag and the slope, what the car really loses: the
   * cornering drag of its tyres' slip angles (at 2 g in a 200 km/h corner car1-trb1's tyres
   * run at 0.047 rad in front and 0.027 rad behind, 0.07 g of drag: the plan counted
   * on that much more acceleration out of every long corner), and the drive lost in each
   * upshift (shift_time without torque). */
  int gear_now = 0;  /* the gear the pass drives in */
  double coast = 0.0; /* m still to go without drive in an upshift */
  double v_upshift = INFINITY; /* m/s, where the last upshift was: only well below it is a
                                  lower gear taken again (the coast must not undo the shift) */
  for (int k = 0; k < 2 * n; ++k) {
    int i = (slow + k) % n, j = (i + 1) % n;
    double v = L[i].v_fwd, mu = plan_mu(r, v) * L[i].friction;
    double a_tot = mu * fmax(0.0, G + (r->ca / r->mass + L[i].vertical_curvature) * v * v);
    double a_lat = v * v * fabs(L[i].curvature);
    double a_fric = driven_share * sqrt(fmax(0.0, a_tot * a_tot - a_lat * a_lat));
    int gear;
    double force = engine_force_in(&r->car, v, &gear);
    if (gear_now == 0 || (gear < gear_now && v < 0.95 * v_upshift)) {
      gear_now = gear; /* down: under braking, where the plan's speed is the braking pass's */
      v_upshift = INFINITY;
    } else if (gear > gear_now) {
      gear_now = gear;
      v_upshift = v;
      coast = v * r->car.gearbox.shift_time;
    }
    double a_rest = resist(r, v) / r->mass + G * L[i].slope + cornering_drag(r, a_lat, a_tot, v);
    double a = coast > 0.0 ? -a_rest : fmax(0.0, r->p.accel_margin * (fmin(force / r->mass, a_fric) - a_rest));
    coast -= L[i].ds;
    double vj = sqrt(fmax(0.0, v * v + 2.0 * a * L[i].ds));
    L[j].v_fwd = fmin(L[j].v_plan, vj);
  }
  double t = 0.0;
  for (int i = 0; i < n; ++i) {
    double v = 0.5 * (L[i].v_fwd + L[(i + 1) % n].v_fwd);
    t += L[i].ds / fmax(v, 0.1);
  }
  r->lap_time = t;
}

/* --- the line where the car is flat out --------------------------------------------- */

/* 1/m, the |curvature| at which the corner speed at sample q is v (the corner-speed formula
 * of banked_corner_speed_mu solved for κ = 1/r), for a left (left = true) or a right turn:
 *   κ = [g·(sin β + μ cos β) + V·μ·(CA/m + κ_v)] / [V·(cos β − μ sin β)],  V = v²/aggressiveness. */
static double curvature_for_speed(const robot *r, const line_sample *q, double v, bool left) {
  double mu = plan_mu(r, v) * q->friction;
  double beta = left ? -q->banking : q->banking;
  double vv = v * v / r->p.aggressiveness;
  double num = G * (sin(beta) + mu * cos(beta)) + vv * mu * (r->ca / r->mass + q->vertical_curvature);
  double den = vv * (cos(beta) - mu * sin(beta));
  if (num <= 0.0) return 0.0;
  return den > 0.0 ? num / den : INFINITY;
}

/* Signed curvature of the three points a, b, c (1/m, + left): 2·(ab × bc) / (|ab|·|bc|·|ac|). */
static double curvature3(double ax, double ay, double bx, double by, double cx, double cy) {
  double ux = bx - ax, uy = by - ay, wx = cx - bx, wy = cy - by, zx = cx - ax, zy = cy - ay;
  double den = sqrt((ux * ux + uy * uy) * (wx * wx + wy * wy) * (zx * zx + zy * zy));
  return den > 0.0 ? 2.0 * (ux * wy - uy * wx) / den : 0.0;
}

/* The line's points, spacings and curvatures from its offsets (as build_line sets them). */
static void line_geometry(robot *r) {
  line_sample *L = r->line;
  int n = r->n;
  for (int i = 0; i < n; ++i) {
    L[i].x = L[i].px + L[i].offset * L[i].nx;
    L[i].y = L[i].py + L[i].offset * L[i].ny;
  }
  for (int i = 0; i < n; ++i) {
    const line_sample *a = &L[(i + n - 1) % n], *b = &L[i], *c = &L[(i + 1) % n];
    L[i].ds = hypot(c->x - b->x, c->y - b->y);
    L[i].curvature = curvature3(a->x, a->y, b->x, b->y, c->x, c->y);
  }
}

/* Where the plan is flat out (at the top speed), lap time is length over speed, and the
 * minimum-curvature line is the wrong one: it spreads a long turn's curvature by running wide,
 * which is longer. On c-speedway (two 180° turns of 300 m, 30 m wide, taken flat out) its
 * corners bend as tightly as the inside's and the lap is the centre line's length, while
 * TORCS's robots lap faster than their top speed allows along the centre line (39.20 s at
 * 83.5 m/s for 3294 m): they drive the inside. Here the flat-out stretches (the plan at the
 * top speed) are shortened as long as no curvature rises above the one that still allows
 * flat_out_speed × the top speed there. The solver moves one node at a time (Gauss–Seidel),
 * coarse to fine over strides 16 … 2: a move at stride s shifts the samples within 2s of the
 * node by a raised cosine (amplitude Δ at the node, 0 and flat at ±2s, so the move itself
 * bends the line by at most Δ·(π/2s·step)²/2), Δ a Newton step on the length of the
 * samples it moves, cut to the road's bounds and halved until no sample it bends is tighter
 * than its cap (or tighter than it was, where it already was). Samples off the flat-out
 * stretches stay where the minimum-curvature line put them. Returns whether any moved. */
#define FLAT_OUT_MAX_STRIDE 16
#define FLAT_OUT_TOL 3e-2 /* m: a level stops when no node moved more in a sweep */
enum { FLAT_OUT_WINDOW = 4 * FLAT_OUT_MAX_STRIDE + 3 };

/* |(dx, dy)|, for the flat-out pass's lengths: the square root of the sum of squares, within an
 * ulp of hypot, which also guards against overflow past 1e154 m and takes 53 instructions a call
 * (glibc 2.36) against these 4; the pass asks ~1.4 million times on e-track-4. */
static inline double span(double dx, double dy) { return sqrt(dx * dx + dy * dy); }

/* m, the length of the polyline through the window's points with the bump of amplitude delta
 * added (weights h, normals of the samples), and the moved points in (x, y). */
static double bump_length(const double *px, const double *py, const double *nx, const double *ny,
                          const double *h, int w, double delta, double *x, double *y) {
  double len = 0.0;
  for (int k = 0; k < w; ++k) {
    x[k] = px[k] + h[k] * delta * nx[k];
    y[k] = py[k] + h[k] * delta * ny[k];
    if (k > 0) len += span(x[k] - x[k - 1], y[k] - y[k - 1]);
  }
  return len;
}

static bool shorten_flat_out(robot *r) {
  if (!(r->p.flat_out_speed > 0.0) || !r->p.racing_line) return false;
  line_sample *L = r->line;
  int n = r->n;
  if (n < 8 * FLAT_OUT_MAX_STRIDE) return false;
  double v_cap = r->p.flat_out_speed * r->top_speed;
  /* Per sample the curvature allowed (cap: left, right turns; seg after it, below, in the same
   * block) and whether it may move (flat). */
  double *cap = malloc(3 * (size_t)n * sizeof *cap);
  unsigned char *flat = malloc((size_t)n);
  if (!cap || !flat) {
    free(cap);
    free(flat);
    return false;
  }
  /* seg[i] = |X(i+1) − X(i)|, kept as samples move: the window's length before a move is a sum
   * of these, in the order bump_length adds them (the same bits, a third of its square roots) */
  double *seg = cap + 2 * (size_t)n;
  for (int i = 0; i < n; ++i) {
    const line_sample *a = &L[i], *b = &L[i + 1 < n ? i + 1 : 0];
    seg[i] = span(b->x - a->x, b->y - a->y);
  }
  int flat_count = 0;
  for (int i = 0; i < n; ++i) {
    cap[2 * i] = curvature_for_speed(r, &L[i], v_cap, true);
    cap[2 * i + 1] = curvature_for_speed(r, &L[i], v_cap, false);
    flat[i] = L[i].v_plan >= 0.999 * r->top_speed;
    flat_count += flat[i];
  }
  bool moved_any = false;
  double px[FLAT_OUT_WINDOW], py[FLAT_OUT_WINDOW], nx[FLAT_OUT_WINDOW], ny[FLAT_OUT_WINDOW];
  double h[FLAT_OUT_WINDOW], kold[FLAT_OUT_WINDOW], x[FLAT_OUT_WINDOW], y[FLAT_OUT_WINDOW];
  int idx[FLAT_OUT_WINDOW];
  for (int stride = FLAT_OUT_MAX_STRIDE; stride >= 2 && flat_count > 0; stride /= 2) {
    int m = n / stride, half = 2 * stride, w = 2 * half + 3;
    /* the bump's shape over the window, the same at every sample */
    double shape[FLAT_OUT_WINDOW];
    for (int k = 0; k < w; ++k) {
      int d = k - half - 1;
      shape[k] = abs(d) < half ? 0.5 * (1.0 + cos(GRIP_PI * d / half)) : 0.0;
    }
    for (int sweep = 0; sweep < 500; ++sweep) {
      double moved = 0.0;
      for (int j = 0; j < m; ++j) {
        int i = j * stride;
        /* the window i − 2s − 1 … i + 2s + 1; the bump moves i − 2s + 1 … i + 2s − 1, which
         * must all be flat out */
        bool ok = true;
        for (int k = 0; k < w && ok; ++k) ok = !(shape[k] > 0.0) || flat[((i + k - half - 1) % n + n) % n];
        if (!ok) continue;
        for (int k = 0; k < w; ++k) {
          int d = k - half - 1, ii = ((i + d) % n + n) % n;
          idx[k] = ii;
          h[k] = shape[k];
          px[k] = L[ii].x, py[k] = L[ii].y, nx[k] = L[ii].nx, ny[k] = L[ii].ny;
        }
        /* Newton step on the window's length (l0: bump_length with no bump) */
        const double eps = 0.01;
        double l0 = 0.0;
        for (int k = 1; k < w; ++k) l0 += seg[idx[k - 1]];
        double lp = bump_length(px, py, nx, ny, h, w, eps, x, y);
        double lm = bump_length(px, py, nx, ny, h, w, -eps, x, y);
        double d2 = lp - 2.0 * l0 + lm;
        if (!(d2 > 1e-12)) continue;
        double delta = -eps * (lp - lm) / (2.0 * d2);
        /* a step towards a bound stops where the first moved sample reaches it */
        for (int k = 0; k < w; ++k)
          if (h[k] > 0.0) {
            double o = L[idx[k]].offset + h[k] * delta, b = L[idx[k]].bound;
            if (fabs(o) > b) delta = (copysign(b, o) - L[idx[k]].offset) / h[k] * (1.0 - 1e-9);
          }
        if (fabs(delta) < 1e-6) continue;
        for (int k = 1; k < w - 1; ++k)
          kold[k] = curvature3(px[k - 1], py[k - 1], px[k], py[k], px[k + 1], py[k + 1]);
        for (int halve = 0; halve < 8; ++halve, delta *= 0.5) {
          if (!(bump_length(px, py, nx, ny, h, w, delta, x, y) < l0)) continue;
          bool fits = true;
          for (int k = 1; k < w - 1 && fits; ++k) {
            double kn = curvature3(x[k - 1], y[k - 1], x[k], y[k], x[k + 1], y[k + 1]);
            double lim = kn > 0.0 ? cap[2 * idx[k]] : cap[2 * idx[k] + 1];
            if (fabs(kn) > lim && fabs(kn) > fabs(kold[k]) + 1e-12) fits = false;
          }
          if (!fits) continue;
          for (int k = 0; k < w; ++k)
            if (h[k] > 0.0) {
              line_sample *q = &L[idx[k]];
              q->offset = clampd(q->offset + h[k] * delta, -q->bound, q->bound);
              q->x = q->px + q->offset * q->nx;
              q->y = q->py + q->offset * q->ny;
            }
          for (int k = 0; k + 1 < w; ++k) { /* the moved samples' spacings, both sides */
            const line_sample *a = &L[idx[k]], *b = &L[idx[k + 1]];
            seg[idx[k]] = span(b->x - a->x, b->y - a->y);
          }
          moved = fmax(moved, fabs(delta));
          break;
        }
      }
      if (moved > 0.0) moved_any = true;
      if (moved < FLAT_OUT_TOL) break;
    }
  }
  free(cap);
  free(flat);
  if (moved_any) line_geometry(r);
  return moved_any;
}

/* --- creation ------------------------------------------------------------------- */

/* The speed columns from the line (after each plan_speed that robot_drive will read). */
static void copy_speed_columns(robot *r) {
  double *v_fwd = r->speeds + (size_t)(DF_V_FWD - DF_GEOMETRY_COUNT) * (size_t)r->n;
  double *v_plan = r->speeds + (size_t)(DF_V_PLAN - DF_GEOMETRY_COUNT) * (size_t)r->n;
  for (int i = 0; i < r->n; ++i) {
    v_fwd[i] = r->line[i].v_fwd;
    v_plan[i] = r->line[i].v_plan;
  }
}

/* robot_drive's columns from the finished line; -1 without memory. */
static int make_drive_columns(robot *r) {
  size_t n = (size_t)r->n;
  r->geometry = malloc(sizeof *r->geometry + (size_t)DF_GEOMETRY_COUNT * n * sizeof(double));
  if (!r->geometry) return -1;
  atomic_init(&r->geometry->refs, 1);
  r->speeds = malloc((size_t)(DF_COUNT - DF_GEOMETRY_COUNT) * n * sizeof(double));
  if (!r->speeds) return -1;
  double *c = r->geometry->column;
  for (size_t i = 0; i < n; ++i) {
    const line_sample *q = &r->line[i];
    c[DF_BOUND * n + i] = q->bound;
    c[DF_CURVATURE * n + i] = q->curvature;
    c[DF_FRICTION * n + i] = q->friction;
    c[DF_HALF_WIDTH * n + i] = q->half_width;
    c[DF_NX * n + i] = q->nx;
    c[DF_NY * n + i] = q->ny;
    c[DF_OFFSET * n + i] = q->offset;
    c[DF_PX * n + i] = q->px;
    c[DF_PY * n + i] = q->py;
  }
  copy_speed_columns(r);
  return 0;
}

robot *robot_create(const grip_track *track, const grip_vehicle_def *car, const robot_params *params,
                    double air_density) {
  if (!track || !car) return NULL;
  robot *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->p = params ? *params : robot_default_params();
  r->track = track;
  r->car = *car;
  for (int a = 0; a < car->axle_count && a < GRIP_MAX_AXLES; ++a) {
    r->plain_tyre[a] = car->axles[a].tyre;
    r->plain_tyre[a].simple.longitudinal.slide_gain = 0.0;
    r->plain_tyre[a].simple.lateral.slide_gain = 0.0;
    r->slide_factor[a] = car->axles[a].tyre.model == GRIP_TYRE_SIMPLE_MF
                           ? cornering_gain(&car->axles[a].tyre.simple.lateral)
                           : 1.0;
  }
  r->length = grip_track_length(track);
  r->n = (int)ceil(r->length / r->p.line_step);
  if (r->n < 8) r->n = 8;
  r->step = r->length / r->n;
  r->line = calloc((size_t)r->n, sizeof *r->line);
  if (!r->line) {
    free(r);
    return NULL;
  }
  /* Car figures from the definition, as src/vehicle.c applies them. */
  r->mass = car->body.mass + car->fuel.mass;
  /* Downforce and drag at the car's design ride height (its ground effect as at rest). */
  grip_aero_coefficients aero = grip_vehicle_aero_coefficients(car, air_density, car->aero.ride_height);
  r->ca = aero.downforce_front + aero.downforce_rear;
  r->axle_downforce[0] = aero.downforce_front;
  r->axle_downforce[1] = aero.downforce_rear;
  r->drag_k = aero.drag;
  /* The first axle and the last; the path is followed about the unsteered axles' line (a
   * truck's tandem centre), the rear axle of a two-axle car. */
  const grip_axle_def *fa = &car->axles[GRIP_AXLE_FRONT], *ra = &car->axles[car->axle_count - 1];
  car_layout_of(car, &r->layout);
  r->driven_radius = car_driven_wheel_radius(car);
  r->wheelbase = fa->x - ra->x;
  r->rear_x = ra->x;
  r->cg_height = (car->body.mass * car->body.center_of_mass.z + car->fuel.mass * car->fuel.position.z) / r->mass;
  double rollover_g = car_tricycle_rollover_g(car);
  r->rollover_mu = isfinite(rollover_g) ? 0.85 * rollover_g : INFINITY;
  double wf = r->mass * G * (car->body.center_of_mass.x - ra->x) / r->wheelbase;
  double wr = r->mass * G - wf;
  r->axle_loads_general = car->axle_count != 2 || r->layout.wheel_count != 4;
  if (r->axle_loads_general) {
    /* The springs' share of body and fuel (grip check's axle loads); the path is followed
     * about the unsteered axles' line (a truck's tandem centre). */
    grip_vehicle_static_axle_loads(car, G, r->axle_weights);
    wf = r->axle_weights[0];
    wr = 0.0;
    for (int a = 1; a < car->axle_count; ++a) wr += r->axle_weights[a];
    r->rear_x = car_reference_x(car);
    r->wheelbase = car_effective_wheelbase(car);
  } else {
    r->axle_weights[0] = wf;
    r->axle_weights[1] = wr;
  }
  r->axle_weight[0] = wf;
  r->axle_weight[1] = wr;
  r->rolling = 0.012 * ra->tyre.rolling_resistance * r->mass * G;
  double peak_slip = 0.1;
  if (ra->tyre.model == GRIP_TYRE_SIMPLE_MF) peak_slip = grip_magic_formula_peak_slip(&ra->tyre.simple.longitudinal);
  r->tc_slip = r->p.tc_slip * peak_slip;
  r->front_peak_alpha = fa->tyre.model == GRIP_TYRE_SIMPLE_MF ? grip_magic_formula_peak_slip(&fa->tyre.simple.lateral) : 0.12;
  /* Understeer gradient of the single-track model from the tyres' cornering stiffness
   * C = 2·B·C·D per axle (slope of the lateral Magic Formula at zero slip). */
  r->understeer = 0.0;
  if (fa->tyre.model == GRIP_TYRE_SIMPLE_MF && ra->tyre.model == GRIP_TYRE_SIMPLE_MF) {
    const grip_simple_mf_curve *cf = &fa->tyre.simple.lateral, *cr = &ra->tyre.simple.lateral;
    double stiff_f = 2.0 * cf->b * cf->c * plain_tyre_mu(&r->plain_tyre[0], 0.5 * wf) * 0.5 * wf;
    double stiff_r = 2.0 * cr->b * cr->c * plain_tyre_mu(&r->plain_tyre[car->axle_count - 1], 0.5 * wr) * 0.5 * wr;
    if (r->axle_loads_general) { /* per axle, its wheels' B·C·D; the rear: every other axle */
      int nf = r->layout.axle_wheels[0];
      stiff_f = nf * cf->b * cf->c * plain_tyre_mu(&r->plain_tyre[0], wf / nf) * (wf / nf);
      stiff_r = 0.0;
      for (int a = 1; a < car->axle_count; ++a) {
        const grip_tyre_def *t = &car->axles[a].tyre;
        int n = r->layout.axle_wheels[a];
        double fz = r->axle_weights[a] / n;
        if (t->model == GRIP_TYRE_SIMPLE_MF) stiff_r += n * t->simple.lateral.b * t->simple.lateral.c * plain_tyre_mu(&r->plain_tyre[a], fz) * fz;
      }
    }
    r->understeer = (wf / G) / stiff_f - (wr / G) / stiff_r;
  }
  r->abs_slip = r->p.abs_slip * peak_slip;
  make_slip_tables(r, car);
  r->brake_force = car->brakes.max_torque / ra->wheel_radius;
  r->car_length = car->body.dimensions.x;
  r->car_width = car->body.dimensions.y;
  r->top_speed = 1.0;
  for (double v = 1.0; v < 200.0; v += 0.05) {
    if (engine_force(car, v) < resist(r, v)) break;
    r->top_speed = v;
  }
  for (int i = 0; i < r->n; ++i) {
    line_sample *q = &r->line[i];
    q->s = i * r->step;
    grip_track_point tp = grip_track_point_at(track, q->s);
    q->px = tp.position.x;
    q->py = tp.position.y;
    q->heading = tp.heading;
    q->nx = -sin(tp.heading);
    q->ny = cos(tp.heading);
    q->half_width = 0.5 * tp.width;
    q->curvature = tp.curvature; /* the centre line's, until build_line */
    q->ds = r->step;
    q->bound = fmax(0.0, q->half_width - r->p.edge_margin - 0.5 * r->car_width);
    q->banking = r->p.plan_banking ? tp.banking : 0.0;
    q->slope = tp.slope;
    const grip_track_segment_def *seg = grip_track_segment(track, tp.segment);
    q->friction = seg ? seg->surface.friction : 1.0;
  }
  /* Vertical curvature by central differences of the grade over ±10 m (at least a sample):
   * TORCS's profiles change grade at segment joints, and a shorter base turns each joint into
   * a spike. Only crests count: a dip's extra load lasts a moment, and planning on it had the
   * car accelerate into the corner that follows. */
  int k = (int)fmax(1.0, round(10.0 / r->step));
  for (int i = 0; i < r->n; ++i) {
    /* Indices wrap as often as needed: on a track shorter than 20 m, k exceeds the sample count. */
    int ahead = (int)(((long long)i + k) % r->n), behind = (int)((((long long)i - k) % r->n + r->n) % r->n);
    double kv = (r->line[ahead].slope - r->line[behind].slope) / (2.0 * k * r->step);
    r->line[i].vertical_curvature = fmin(kv, 0.0);
  }
  /* Lift-off cap: a sharp crest (a grade change over a few metres, as at a TORCS profile's
   * joints on ole-road-1) that the ±10 m curvature averages away still throws the car: the
   * wheel load m·g + CA·v² − m·v²·|κ_v| vanishes at v² = g / (|κ_v| − CA/m), and car1-trb1,
   * airborne for 0.4 s at 190 km/h, landed drifting 5 m outside its line before a bend. The
   * cap keeps crest_load of the static load: v² = (1 − crest_load)·g / (|κ_v| − CA/m), with
   * κ_v over ±crest_base. */
  int kb = r->p.crest_base > 0.0 ? (int)fmax(1.0, round(r->p.crest_base / r->step)) : 0;
  for (int i = 0; i < r->n; ++i) {
    r->line[i].v_lift = INFINITY;
    if (kb == 0) continue;
    int ahead = (int)(((long long)i + kb) % r->n), behind = (int)((((long long)i - kb) % r->n + r->n) % r->n);
    double kv = -(r->line[ahead].slope - r->line[behind].slope) / (2.0 * kb * r->step);
    double unload = kv - r->ca / r->mass;
    if (unload > 0.0) r->line[i].v_lift = sqrt((1.0 - r->p.crest_load) * G / unload);
  }
  r->grip_scale = 1.0;
  /* The line's clearance from the edge grows with speed: at the limit the car tracks up to
   * 1.5 m outside its line at 250 km/h (a 200 -> 60 m corner of e-track-3 put its wheels on
   * the verge, then into the wall), 0.3 m at 100 km/h. The speed is estimated by a plan of
   * the centre line (O(n), before the line exists): clearance = edge_margin +
   * edge_margin_speed·max(0, v − 30 m/s). */
  if (r->p.edge_margin_speed > 0.0) {
    plan_speed(r); /* on the centre line's curvature and spacing, set when sampling */
    for (int i = 0; i < r->n; ++i) {
      line_sample *q = &r->line[i];
      double margin = r->p.edge_margin + r->p.edge_margin_speed * fmax(0.0, q->v_plan - 30.0);
      q->bound = fmax(0.0, q->half_width - margin - 0.5 * r->car_width);
    }
  }
  if (build_line(r) != 0) {
    robot_destroy(r);
    return NULL;
  }
  plan_speed(r);
  if (shorten_flat_out(r)) plan_speed(r);
  if (make_drive_columns(r) != 0) {
    robot_destroy(r);
    return NULL;
  }
  r->hint = -1;
  r->mode = MODE_DRIVE;
  return r;
}

robot *robot_clone(const robot *original) {
  robot *r = malloc(sizeof *r);
  if (!r) return NULL;
  *r = *original; /* the line is the only memory a robot owns */
  r->wheels = NULL; /* the original's wheels are not this car's */
  r->wheels_count = 0;
  r->line = malloc((size_t)r->n * sizeof *r->line);
  r->speeds = malloc((size_t)(DF_COUNT - DF_GEOMETRY_COUNT) * (size_t)r->n * sizeof(double));
  if (!r->line || !r->speeds) {
    free(r->line);
    free(r->speeds);
    free(r);
    return NULL;
  }
  memcpy(r->line, original->line, (size_t)r->n * sizeof *r->line);
  memcpy(r->speeds, original->speeds, (size_t)(DF_COUNT - DF_GEOMETRY_COUNT) * (size_t)r->n * sizeof(double));
  atomic_fetch_add_explicit(&r->geometry->refs, 1, memory_order_relaxed);
  return r;
}

void robot_destroy(robot *r) {
  if (!r) return;
  if (r->geometry && atomic_fetch_sub_explicit(&r->geometry->refs, 1, memory_order_acq_rel) == 1) free(r->geometry);
  free(r->speeds);
  free(r->line);
  free(r);
}

/* --- queries ------------------------------------------------------------------- */

double robot_plan_mu(const robot *r) { return plan_mu(r, 0.0); }
double robot_plan_mu_at(const robot *r, double v) { return plan_mu(r, v); }
double robot_plan_ca(const robot *r) { return r->ca; }
double robot_plan_mass(const robot *r) { return r->mass; }
double robot_plan_top_speed(const robot *r) { return r->top_speed; }
double robot_plan_lap_time(const robot *r) { return r->lap_time; }

double robot_plan_cornering_drag(const robot *r, double a_lat, double v) {
  double a_plan = plan_mu(r, v) * fmax(0.0, G + r->ca / r->mass * v * v);
  return cornering_drag(r, a_lat, a_plan, v);
}

double robot_plan_lap_energy(const robot *r) {
  double work = 0.0;
  for (int i = 0; i < r->n; ++i) {
    const line_sample *a = &r->line[i], *b = &r->line[(i + 1) % r->n];
    double v = 0.5 * (a->v_fwd + b->v_fwd);
    double w = 0.5 * r->mass * (b->v_fwd * b->v_fwd - a->v_fwd * a->v_fwd) + resist(r, v) * a->ds +
               r->mass * G * a->slope * a->ds;
    if (w > 0.0) work += w;
  }
  double eta = r->car.gearbox.efficiency > 0.0 ? r->car.gearbox.efficiency : 1.0;
  return work / eta;
}

void robot_set_route(robot *r, const robot_route *route) {
  if (route && route->count >= 2 && route->step > 0.0 && route->lateral && route->weight && route->speed)
    r->route = *route;
  else
    r->route = (robot_route){0};
}

/* The route's sample values at centre-line distance s: false when s is outside it. */
static bool route_at(const robot *r, double s, double *lateral, double *weight, double *speed) {
  const robot_route *q = &r->route;
  if (q->count < 2) return false;
  double u = s - q->start;
  u -= floor(u / r->length) * r->length;
  double x = u / q->step;
  /* Up to ROUTE_HOLD m past its last sample the route holds that sample: a look-ahead point
   * beyond the end of a route that ends standing in a pit box must not fall back on the
   * racing line. */
  if (!(x <= (double)(q->count - 1) + ROUTE_HOLD / q->step)) return false;
  if (x > (double)(q->count - 1)) x = (double)(q->count - 1);
  int i = (int)x;
  if (i >= q->count - 1) i = q->count - 2;
  double t = x - i;
  *lateral = q->lateral[i] + t * (q->lateral[i + 1] - q->lateral[i]);
  *weight = q->weight[i] + t * (q->weight[i + 1] - q->weight[i]);
  *speed = fmin(q->speed[i], q->speed[i + 1]);
  return true;
}
int robot_line_count(const robot *r) { return r->n; }
robot_status robot_get_status(const robot *r) { return r->status; }

void robot_line_sample(const robot *r, int i, double *distance, double *lateral, double *curvature,
                       double *corner_speed, double *plan_speed) {
  const line_sample *q = &r->line[((i % r->n) + r->n) % r->n];
  if (distance) *distance = q->s;
  if (lateral) *lateral = q->offset;
  if (curvature) *curvature = q->curvature;
  if (corner_speed) *corner_speed = q->v_corner;
  if (plan_speed) *plan_speed = q->v_plan;
}

/* Linear interpolation of a sample field at centre-line distance s. */
static double interp(const robot *r, double s, drive_field field) {
  double u = s / r->step, laps = u / r->n;
  /* floor(laps) is 0 for laps in (0, 1), where u − 0·n is u: most calls, without the floor */
  if (!(laps > 0.0 && laps < 1.0)) u -= floor(laps) * r->n;
  int i = (int)u;
  if (i >= r->n) i = r->n - 1;
  double t = u - i;
  const double *column = field < DF_GEOMETRY_COUNT ? r->geometry->column + (size_t)field * (size_t)r->n
                                                   : r->speeds + (size_t)(field - DF_GEOMETRY_COUNT) * (size_t)r->n;
  double a = column[i], b = column[i + 1 < r->n ? i + 1 : 0];
  return a + t * (b - a);
}

static double wrap_distance(const robot *r, double d) {
  d -= floor(d / r->length) * r->length;
  if (d > 0.5 * r->length) d -= r->length;
  return d;
}

/* --- control ------------------------------------------------------------------- */

/* The factor by which the car's speed-sensitive steering divides the input at forward speed v
 * (1 + (v/speed_reduction_speed)², src/vehicle.c): the robot asks for a road-wheel angle, so it
 * multiplies its input by this. Without it a kart (reduction speed 25 m/s) got a third of the
 * lock it asked for at 125 km/h and ran wide at the first turn. */
static double steering_reduction(const robot *r, double v) {
  double vr = r->car.steering.speed_reduction_speed;
  if (!(vr > 0.0) || v <= 0.0) return 1.0;
  double q = v / vr;
  return 1.0 + q * q;
}

/* The wheels of the state: every wheel when the caller gave them (robot_set_wheels), else the
 * state's own first GRIP_WHEEL_COUNT (all of a car's). */
static int wheel_total(const robot *r, const grip_vehicle_state *st) {
  if (r->wheels) return r->wheels_count;
  return st->wheel_count > 0 && st->wheel_count < GRIP_WHEEL_COUNT ? st->wheel_count : GRIP_WHEEL_COUNT;
}
static const grip_wheel_state *wheel_of(const robot *r, const grip_vehicle_state *st, int i) {
  return r->wheels ? &r->wheels[i] : &st->wheels[i];
}

/* Whether wheel i's slip tells the traction control and ABS anything: it touches the ground
 * and (a truck, a three-wheeler: any car but a four-wheel one) carries at least 5 % of its
 * static load. An unladen tractor's inner tandem wheels go light in a corner and their slip
 * says nothing of the brakes; a four-wheel car counts every wheel that touches, as before. */
static bool slip_counts(const robot *r, const grip_wheel_state *w, int i) {
  if (!w->in_contact) return false;
  if (!r->axle_loads_general || i >= r->layout.wheel_count) return true;
  int a = r->layout.wheel_axle[i];
  return w->load > 0.05 * r->axle_weights[a] / r->layout.axle_wheels[a];
}

void robot_set_wheels(robot *r, const grip_wheel_state *wheels, int count) {
  r->wheels = count > 0 ? wheels : NULL;
  r->wheels_count = count < GRIP_MAX_WHEELS ? count : GRIP_MAX_WHEELS;
}

robot_status robot_locate(robot *r, const grip_vehicle_state *st) {
  if (r->located && r->located_time == st->time && r->located_x == st->pose.position.x &&
      r->located_y == st->pose.position.y)
    return r->status;
  /* Where the car is along the track, every step (a race times its laps by it); the surface under
   * it only when the robot decides (surface_friction_under). */
  grip_track_progress loc = grip_track_locate_progress(r->track, st->pose.position.x, st->pose.position.y, r->hint);
  r->located_hint = r->hint;
  r->surface_known = false;
  r->hint = loc.segment;
  r->status.distance = loc.distance;
  r->status.lateral = loc.lateral;
  r->status.half_width = interp(r, loc.distance, DF_HALF_WIDTH);
  r->status.segment = loc.segment;
  r->located = true;
  r->located_time = st->time;
  r->located_x = st->pose.position.x;
  r->located_y = st->pose.position.y;
  return r->status;
}

/* Friction under the car located last (robot_locate, the same state): the road's while all four
 * wheels are on it; near or past the edge, the mean over the wheels' contact points (each
 * located; a kerb counts as road). The car is located again with the surface from the hint its
 * location was found from, which gives the same segment, distance and lateral. */
static double surface_friction_under(robot *r, const grip_vehicle_state *st) {
  if (r->surface_known) return r->surface_friction;
  grip_track_location loc = grip_track_locate(r->track, st->pose.position.x, st->pose.position.y, r->located_hint);
  r->surface_friction = loc.surface.friction;
  if (fabs(loc.lateral) + 0.5 * r->car_width > r->status.half_width - 0.1) {
    double sum = 0.0;
    int n = 0;
    for (int i = 0, wn = wheel_total(r, st); i < wn; ++i) {
      const grip_wheel_state *w = wheel_of(r, st, i);
      grip_vec3 p = w->in_contact ? w->contact_point : st->pose.position;
      grip_track_location wl = grip_track_locate(r->track, p.x, p.y, loc.segment);
      /* a kerb is part of the racing surface (the line may use it): the road's friction */
      sum += wl.zone == GRIP_TRACK_ZONE_RUNOFF || wl.zone == GRIP_TRACK_ZONE_OUTSIDE ? wl.surface.friction
                                                                                    : loc.surface.friction;
      ++n;
    }
    r->surface_friction = sum / n;
  }
  r->surface_known = true;
  return r->surface_friction;
}

/* Learning the car's real cornering grip. The plan's mu is the tyre's peak, but what a car can
 * hold on a circle is less when its set-up spends grip elsewhere: a locked rear axle (a kart)
 * drags its inner wheel and loads the front tyres with the yaw moment, load transfer unloads
 * the inner tyres. The symptom is unmistakable: in a turn, at speed, the car runs wide of its
 * line with a tyre past its peak slip. Over such an episode (0.3 s) the lateral acceleration
 * held, v·yaw rate, is compared with the plan's capacity mu(v)·(g + CA·v²/m); when it is short
 * the plan's mu is scaled down by the ratio (by at most 20 % at a time, never below half the
 * tyre's) and the speed plan is recomputed, so the next corners are taken at what the car can
 * do and the one it is in is braked for at once. */
static void adapt_grip(robot *r, const grip_vehicle_state *st, double s, double v, double curvature, double outward,
                       bool tyres_saturated, double dt) {
  if (!(v > 10.0 && fabs(curvature) > 1.0 / 400.0 && outward > 1.0 && tyres_saturated)) {
    r->saturated_t = r->sat_lat_sum = r->sat_cap_sum = 0.0;
    return;
  }
  r->saturated_t += dt;
  r->sat_lat_sum += fabs(v * st->angular_velocity.z) * dt;
  r->sat_cap_sum += plan_mu(r, v) * interp(r, s, DF_FRICTION) * (G + r->ca / r->mass * v * v) * dt;
  /* 0.6 s of it (0.3 s until issue 13's shorter look-ahead: episodes of 0.3-0.5 s at 0.80-0.85
   * of the plan then came and went with the step in cars whose plan is right; the hatchback at
   * dt 0.005 s learnt 0.81 in lap 2 and lost 3 s a lap for the rest of the race). */
  if (r->saturated_t < 0.6) return;
  double ratio = r->sat_cap_sum > 0.0 ? r->sat_lat_sum / r->sat_cap_sum : 1.0;
  r->saturated_t = r->sat_lat_sum = r->sat_cap_sum = 0.0;
  if (!(ratio < 0.85)) return;
  r->grip_scale = fmax(0.5, r->grip_scale * fmax(0.8, ratio));
  plan_speed(r);
  copy_speed_columns(r);
}

/* The windows of robot_drive's three passes over the others: a car close ahead (gap <
 * 2·max(v, 10 m/s)), alongside (|ds| < half the two lengths + 1 m) or ahead within look_cars,
 * and traffic (|ds| < 30 m). */
void robot_view_window(const robot *r, double speed, double max_length, double *ahead, double *behind) {
  /* fmax's answers, by comparisons (every step of a race: no library calls). A NaN speed or
   * length gives what fmax gives, the other operand. */
  double alongside = 0.5 * (r->car_length + max_length) + 1.0;
  *behind = alongside > 30.0 ? alongside : 30.0;
  double pace = speed > 10.0 ? 2.0 * speed : 20.0, look = r->p.look_cars;
  double ahead_cars = pace > look ? pace : look;
  *ahead = ahead_cars > *behind ? ahead_cars : *behind;
}

/* Whether a downshift to gear g would be undone within downshift_hold s: the plan's
 * achievable speed (the acceleration pass) over the distance covered in that time rises past
 * the speed at which g reaches 97 % of the rev limit, where the box would shift up again. On
 * aalborg the box dropped 2 -> 1 at the apex of every slow corner at 72 km/h and shifted back
 * at 81 km/h 1.5 s later: the engine braking of the first change and the neutral of the
 * second cost 2-7 % of the apex speed. Held in the higher gear unless it turns below the
 * clutch's engage rpm (where it no longer pulls). */
static bool short_lived_gear(const robot *r, double s, double v, int g) {
  if (!(r->p.downshift_hold > 0.0) || g < 1) return false;
  const grip_gearbox_def *gb = &r->car.gearbox;
  double wr = r->driven_radius;
  int cur = g + 1;
  if (cur > gb->forward_gears) return false;
  double rpm_cur = v / wr * gb->ratios[cur - 1] * gb->final_drive * 60.0 / (2.0 * GRIP_PI);
  if (rpm_cur < r->car.clutch.engage_rpm) return false;
  double v_up = 0.97 * r->car.engine.rev_limit_rpm * 2.0 * GRIP_PI / 60.0 * wr / (gb->ratios[g - 1] * gb->final_drive);
  double reach = v * r->p.downshift_hold;
  for (double d = 0.0; d <= reach; d += r->step)
    if (interp(r, s + d, DF_V_FWD) > v_up) return true;
  return false;
}

/* m/s, the speed the controller follows at centre-line distance s: the plan's, except where
 * the plan is at the car's top speed (its estimate from the engine curve and the aero at the
 * design ride height). There nothing but the engine limits the car, and holding the estimate
 * kept the throttle at 0.92 at 294 km/h on c-speedway's straights where TORCS's robots reach
 * 300 km/h: the target is then unbounded (flat out). */
static double plan_target(const robot *r, double s) {
  double v = interp(r, s, DF_V_PLAN);
  return v >= 0.999 * r->top_speed ? TOP_SPEED_TARGET * r->top_speed : v;
}

static grip_vehicle_input decide(robot *r, const grip_vehicle_state *st, const robot_car_view *others,
                                 int other_count, double dt);

grip_vehicle_input robot_drive(robot *r, const grip_vehicle_state *st, const robot_car_view *others,
                               int other_count, double dt) {
  if (!(r->p.control_rate > 0.0)) return decide(r, st, others, other_count, dt);
  /* At a fixed rate: the sum of the steps since the last decision, compared with the period to
   * within half a step (ten steps of 0.002 s add up to 0.019999999999999997 s). */
  r->since_decision += dt;
  if (r->decided && r->since_decision + 0.5 * dt < 1.0 / r->p.control_rate) return r->decision;
  r->decision = decide(r, st, others, other_count, r->since_decision);
  r->decided = true;
  r->since_decision = 0.0;
  return r->decision;
}

bool robot_decides_next(const robot *r, double dt) {
  if (!(r->p.control_rate > 0.0)) return true;
  double since = r->since_decision + dt; /* as robot_drive sums it */
  return !(r->decided && since + 0.5 * dt < 1.0 / r->p.control_rate);
}

static grip_vehicle_input decide(robot *r, const grip_vehicle_state *st, const robot_car_view *others,
                                 int other_count, double dt) {
  grip_vehicle_input in = grip_default_vehicle_input();
  in.automatic = true;
  in.gear = 1;
  const grip_quat q = st->pose.rotation;
  double fx = 1.0 - 2.0 * (q.y * q.y + q.z * q.z), fy = 2.0 * (q.x * q.y + q.w * q.z);
  double yaw = atan2(fy, fx);
  double hx = cos(yaw), hy = sin(yaw);
  double x = st->pose.position.x, y = st->pose.position.y;
  robot_status loc = robot_locate(r, st);
  const int wn = wheel_total(r, st);
  double s = loc.distance, v = st->speed;
  double bound = interp(r, s, DF_BOUND);
  double track_heading = atan2(-interp(r, s, DF_NX), interp(r, s, DF_NY));
  double heading_err = wrap_angle(yaw - track_heading);

  /* Target speed: the plan a controller's lag ahead. The braking pass already starts each
   * braking zone in time; taking the minimum over a longer window on top of it braked ~18 m
   * early and left the car 15-30 % under the plan in slow corners. */
  double v_t = fmin(plan_target(r, s), plan_target(r, s + fmax(v, 0.0) * r->p.speed_preview));
  /* With a car close ahead (within 1 s), brake as early as the old preview window did
   * (minimum over 0.3 s): the car ahead brakes at the last moment too, and the follower's
   * margin is what keeps the two apart. (Within 2 s, a car running 1.5-2 s behind another
   * braked ~10 m early for every corner: 0.4-0.6 s a lap in the 4-car race, with no car near
   * enough to touch.) */
  for (int k = 0; k < other_count; ++k) {
    double gap = wrap_distance(r, others[k].distance - s);
    if (gap > 0.0 && gap < CLOSE_AHEAD_TIME * fmax(v, 10.0)) {
      for (int j = 1; j <= 3; ++j)
        v_t = fmin(v_t, interp(r, s + fmax(v, 0.0) * 0.1 * j, DF_V_PLAN));
      break;
    }
  }
  /* Off the road (some wheels on grass, sand, gravel): the plan counted on the road's friction;
   * the speed that surface allows scales as sqrt(mu), so the target does too (by the mean
   * friction under the four wheels against the road's here). Keeping the plan's speed across
   * a run-off carried the car into the wall at full throttle. */
  double road_friction = interp(r, s, DF_FRICTION);
  double surface_scale = 1.0;
  /* A route (the pit road): its speed cap here and a controller's lag ahead; where it has
   * taken over (weight > 0), the road's edge no longer bounds the target (a pit lane on a
   * slippery run-off still slows the car, below). */
  double route_lat = 0.0, route_w = 0.0, route_v = INFINITY;
  bool on_route = route_at(r, s, &route_lat, &route_w, &route_v) && route_w > 0.0;
  {
    double la, w, vc;
    if (route_at(r, s, &la, &w, &vc)) v_t = fmin(v_t, vc);
    if (route_at(r, s + fmax(v, 0.0) * r->p.speed_preview, &la, &w, &vc)) v_t = fmin(v_t, vc);
  }
  if (on_route) bound = 1e3;
  double under = surface_friction_under(r, st);
  if (under < road_friction && road_friction > 0.0) {
    surface_scale = sqrt(fmax(0.0, under) / road_friction);
    v_t *= surface_scale;
  }

  /* Other cars: follow or pass those ahead, keep clear of those alongside. */
  double line_lat = interp(r, s, DF_OFFSET);
  if (on_route) line_lat += route_w * (route_lat - line_lat);
  double want_shift = 0.0;
  double lat_lo = -bound, lat_hi = bound; /* allowed lateral range of our target */
  /* Another car within 30 m along the track: the grip learning stays off (a touch or an
   * avoidance swerve looks like running wide and is not the car's grip). */
  bool traffic = false;
  for (int k = 0; k < other_count; ++k) {
    const robot_car_view *o = &others[k];
    double ds = wrap_distance(r, o->distance - s);
    if (fabs(ds) < 30.0) traffic = true;
    double half_len = 0.5 * (r->car_length + o->length);
    double clear = 0.5 * (r->car_width + o->width) + r->p.car_gap;
    if (fabs(ds) < half_len + 1.0) {
      /* Alongside: never steer into it. */
      if (o->lateral > loc.lateral)
        lat_hi = fmin(lat_hi, o->lateral - clear);
      else
        lat_lo = fmax(lat_lo, o->lateral + clear);
      continue;
    }
    if (ds <= 0.0 || ds > r->p.look_cars) continue;
    double my_lat_there = interp(r, s + ds, DF_OFFSET) + r->shift;
    if (fabs(o->lateral - my_lat_there) >= clear) continue;
    double b_there = interp(r, s + ds, DF_BOUND);
    double left = o->lateral + clear, right = o->lateral - clear;
    bool left_ok = left <= b_there, right_ok = right >= -b_there;
    double closing = v - o->speed;
    /* A pass is planned only for a car that will be reached within PASS_HORIZON: a car as fast
     * as this one 50 m ahead moved the line off the plan's in every corner for nothing (0.5 s
     * a lap behind a car it never caught, in the 4-car race on the built-in track). */
    bool catching = ds - half_len < PASS_HORIZON * closing + PASS_NEAR;
    /* On a route (the pit lane) there is no passing: the boxes and the barrier are beside it. */
    if ((left_ok || right_ok) && closing > -1.0 && !on_route) {
      if (!catching) continue; /* room to pass, but not reaching it: keep to the line */
      double target = (left_ok && (!right_ok || fabs(left - my_lat_there) < fabs(right - my_lat_there))) ? left : right;
      double sh = target - interp(r, s + ds, DF_OFFSET);
      /* the largest shift; of two equally large, the one to the left, so the order of the
       * others does not matter */
      if (fabs(sh) > fabs(want_shift) || (fabs(sh) == fabs(want_shift) && sh > want_shift)) want_shift = sh;
    }
    /* Following: keep a time gap behind it, also while a pass is planned, until the shift has
     * taken the line clear of it. Passing at full speed, a robot drove into the gap beside a
     * car standing in a jam whether or not another car filled it: in the 3-lap races of 64
     * cars, up to 6 retired in the crush. A car ahead that goes at this car's own plan there
     * (braking for the corner it brakes for too) sets no cap unless this car is inside the time
     * gap: capping at its speed + gap/2 braked early for every corner. */
    double gap = ds - half_len - r->p.follow_time * fmax(v, 0.0);
    if (gap > 0.0 && o->speed >= interp(r, s + ds, DF_V_PLAN) - FOLLOW_SLACK) continue;
    double v_follow = fmax(0.0, o->speed + 0.5 * gap);
    if (v_follow < v_t) v_t = v_follow;
  }
  double max_rate = 2.5 * dt; /* m of lateral shift per step */
  r->shift += clampd(want_shift - r->shift, -max_rate, max_rate);

  /* Running wide: in a turn, outside the target towards the outer edge, the plan asks too
   * much here (a bump, a load change, a late turn-in). When the car's outer side comes within
   * wide_margin of the road edge the throttle lifts in proportion (none left at the edge),
   * which moves load onto the front tyres and tightens the line. */
  double k_here = interp(r, s, DF_CURVATURE);
  double outward = fabs(k_here) > 1.0 / 1000.0 ? (line_lat + r->shift - loc.lateral) * (k_here > 0.0 ? 1.0 : -1.0) : 0.0;
  double edge_room = loc_half_width(r, s) - 0.5 * r->car_width - fabs(loc.lateral);
  /* Only at speed: slower (off the road, pulling away from a wall) the car needs power. */
  double wide_lift = outward > 0.0 && v > 15.0 && !on_route ? clampd(edge_room / r->p.wide_margin, 0.0, 1.0) : 1.0;
  /* ... but only while the car drifts towards that edge (its heading turned outwards of the
   * road's): at a slow corner's exit the car runs out to the edge along it, and the lift held
   * the throttle shut for up to a second at 70 km/h in each of aalborg's slow corners
   * (79.09 -> 78.35 s a lap). */
  double drift_out = (k_here > 0.0 ? -1.0 : 1.0) * fmax(v, 0.0) * sin(heading_err); /* m/s towards the outer edge */
  if (!(drift_out > 0.0)) wide_lift = 1.0;

  /* Traffic at a standstill: a car just ahead in our lane means waiting behind it, not being
   * stuck, and a car just behind means reversing would hit it. In a 64-car race on the
   * built-in track, cars queued in a jam took to reversing into the queue (robot-59 was struck
   * while reversing, launched and rolled onto its side). */
  bool blocked_ahead = false, occupied_behind = false;
  for (int k = 0; k < other_count; ++k) {
    const robot_car_view *o = &others[k];
    if (!(fabs(o->lateral - loc.lateral) < 0.5 * (r->car_width + o->width) + STANDSTILL_LANE_MARGIN)) continue;
    double ds = wrap_distance(r, o->distance - s), half_len = 0.5 * (r->car_length + o->length);
    if (ds > 0.0 && ds < half_len + STANDSTILL_GAP_AHEAD) blocked_ahead = true;
    if (ds <= 0.0 && -ds < half_len + STANDSTILL_GAP_BEHIND) occupied_behind = true;
  }
  /* Recovery: stuck or facing backwards → reverse with opposite lock. Behind a car that does
   * not move either (a wreck), the car waits STANDSTILL_WAIT times longer before it backs out;
   * never while a car stands right behind it. */
  if (r->mode == MODE_DRIVE) {
    r->stuck_t = (fabs(v) < 1.0 && r->status.target_speed > 2.0) ? r->stuck_t + dt : 0.0;
    r->back_t = (fabs(heading_err) > 1.8 && fabs(v) < 8.0) ? r->back_t + dt : 0.0;
    double stuck_limit = blocked_ahead ? STANDSTILL_WAIT * r->p.stuck_time : r->p.stuck_time;
    if (!occupied_behind && (r->stuck_t > stuck_limit || r->back_t > 1.0)) {
      r->mode = MODE_REVERSE;
      r->reverse_t = 0.0;
    }
  }
  if (r->mode == MODE_REVERSE) {
    r->reverse_t += dt;
    /* Reverse until the car points along the road again (a car nosed into a wall needs more
     * than reverse_time to swing round), at most three times reverse_time. */
    if (r->reverse_t > 3.0 * r->p.reverse_time || (r->reverse_t > 0.5 && fabs(heading_err) < 0.4)) {
      r->mode = MODE_DRIVE;
      r->stuck_t = r->back_t = 0.0;
      r->integ = 0.0;
      r->lat_integ = 0.0;
    }
  }
  r->status.target_speed = v_t;
  r->status.predicted_speed = interp(r, s, DF_V_FWD);
  r->status.target_lateral = line_lat + r->shift;
  r->status.reversing = r->mode == MODE_REVERSE;
  if (r->mode == MODE_REVERSE) {
    in.gear = GRIP_GEAR_REVERSE;
    if (v > 0.5) {
      in.brake = 1.0;
    } else {
      /* Throttle for a reversing speed of 3 m/s: a fixed half throttle left a kart (its
       * centrifugal clutch closes only near 7000 rpm) standing in the grass, and the wheels of
       * a powerful car spinning. */
      in.throttle = clampd(0.5 * (REVERSE_SPEED + v), 0.25, 1.0);
    }
    in.steering = heading_err > 0.0 ? 1.0 : -1.0;
    return in;
  }

  /* Longitudinal: PI on the speed error, traction control and ABS. */
  if (v < -0.5) {
    in.brake = 1.0;
  } else {
    double err = v_t - v;
    if (fabs(err) < 3.0)
      r->integ = clampd(r->integ + err * dt, -1.0 / fmax(r->p.speed_ki, 1e-9), 1.0 / fmax(r->p.speed_ki, 1e-9));
    else
      r->integ = 0.0;
    double u = r->p.speed_kp * err + r->p.speed_ki * r->integ;
    if (u > 0.0) {
      double thr = fmin(1.0, u);
      double slip = 0.0;
      for (int i = 0; i < wn; ++i)
        if (r->layout.driven[i] && slip_counts(r, wheel_of(r, st, i), i) && wheel_of(r, st, i)->slip_ratio > slip)
          slip = wheel_of(r, st, i)->slip_ratio;
      if (slip > r->tc_slip) thr *= fmax(0.0, 1.0 - (slip - r->tc_slip) / r->tc_slip);
      in.throttle = thr;
    } else {
      double brk = fmin(1.0, -u);
      double slip = 0.0;
      for (int i = 0; i < wn; ++i)
        if (slip_counts(r, wheel_of(r, st, i), i) && -wheel_of(r, st, i)->slip_ratio > slip)
          slip = -wheel_of(r, st, i)->slip_ratio;
      if (v > 3.0 && slip > r->abs_slip) brk *= fmax(0.0, 1.0 - 2.0 * (slip - r->abs_slip) / r->abs_slip);
      in.brake = brk;
    }
  }

  in.throttle *= wide_lift;

  /* Stability: when the rear slides more than the front (oversteer), ease off both pedals so
   * the rear tyres get their grip back for cornering. */
  /* Mean slip angle of the first axle and of the axles behind it. */
  double a_front = 0.0, a_rear = 0.0;
  {
    int nf = r->layout.axle_wheels[0] < wn ? r->layout.axle_wheels[0] : wn;
    for (int i = 0; i < nf; ++i) a_front += wheel_of(r, st, i)->slip_angle;
    for (int i = nf; i < wn; ++i) a_rear += wheel_of(r, st, i)->slip_angle;
    a_front = nf > 0 ? a_front / nf : 0.0;
    a_rear = wn > nf ? a_rear / (wn - nf) : 0.0;
  }
  double over = fabs(a_rear) - fabs(a_front) - r->p.oversteer_slip;
  if (v > 5.0 && over > 0.0) {
    double f = fmax(0.0, 1.0 - over / r->p.oversteer_slip);
    in.brake *= f;
    in.throttle *= f;
  }

  /* Gearbox (manual mode): the gear of most wheel force at this speed; upshift at once when
   * the lower gear passes 97 % of the rev limit, downshift only when the lower gear would turn
   * below 90 % (hysteresis: the speed lost in the neutral of an upshift must not bring the
   * lower gear back, which made the car hunt between two gears on a fast straight) and only
   * when not braking (a downshift under braking jolts the driven wheels). */
  if (!r->p.auto_gearbox) {
    int cur = st->gear >= 1 ? st->gear : 1;
    int up, down;
    best_gears(&r->car, fmax(v, 0.0), 0.97, 0.90, &up, &down);
    int g = st->shifting ? r->gear_request : cur;
    r->shift_wait = fmax(0.0, r->shift_wait - dt);
    if (st->shifting) {
      /* a change under way: keep asking for its gear */
    } else if (up > cur) {
      g = up;
    } else if (down < cur && (r->shift_wait <= 0.0 || v < 5.0) && (v < 5.0 || !short_lived_gear(r, s, v, cur - 1))) {
      /* Down one gear at a time, also under braking: dropping 4->1 at turn-in (the box used to
       * wait for the brakes to come off) locked the rear wheels under engine braking. */
      g = v < 5.0 ? down : cur - 1;
      r->shift_wait = r->p.downshift_gap + r->car.gearbox.shift_time;
    }
    in.automatic = false;
    in.gear = g;
    r->gear_request = g;
    /* Rev matching and engine-brake limiting. During a downshift the engine, in neutral, is
     * blipped towards the rpm the lower gear will turn at, so the clutch does not brake the
     * driven wheels when it closes. Off the brakes, driven wheels dragged past the traction
     * threshold by the engine (negative slip) get throttle in proportion, as a drag-torque
     * control does; otherwise the sliding rear set off the stability rule, which dropped the
     * throttle and so kept the engine braking. The blip works under braking too (heel and
     * toe). */
    if (v > 5.0) {
      double wr = r->driven_radius;
      double lock = 0.0;
      for (int i = 0; i < wn; ++i)
        if (r->layout.driven[i] && slip_counts(r, wheel_of(r, st, i), i) && -wheel_of(r, st, i)->slip_ratio > lock)
          lock = -wheel_of(r, st, i)->slip_ratio;
      double drag_throttle =
          lock > r->tc_slip && in.brake == 0.0 ? fmin(1.0, (lock - r->tc_slip) / r->tc_slip) : 0.0;
      double blip = 0.0;
      if (st->shifting && g >= 1) { /* an upshift has the engine above the new gear: no blip */
        double ratio = r->car.gearbox.ratios[g - 1] * r->car.gearbox.final_drive;
        double rpm_new = v / wr * ratio * 60.0 / (2.0 * GRIP_PI);
        blip = clampd((rpm_new - st->engine_rpm) / 2000.0, 0.0, 1.0);
      }
      in.throttle = fmax(in.throttle, fmax(drag_throttle, blip));
    }
  }

  /* Steering: pure pursuit from the rear axle towards the line (plus the shift) ahead. */
  double look = r->p.lookahead_min + r->p.lookahead_time * fmax(v, 0.0);
  double st_s = s + look;
  double lat_t = clampd(interp(r, st_s, DF_OFFSET) + r->shift,
                        -interp(r, st_s, DF_BOUND), interp(r, st_s, DF_BOUND));
  {
    double la, w, vc;
    if (route_at(r, st_s, &la, &w, &vc) && w > 0.0) lat_t += w * (la - lat_t);
  }
  /* Cars alongside bound the target near us (the range is for our own position); not on a
   * route, whose target is the only room there is (a car standing in its box beside the lane
   * pushed the next one into the pit wall). */
  if (lat_hi >= lat_lo && !on_route) lat_t = clampd(lat_t, lat_lo - 0.0, lat_hi);
  double tx = interp(r, st_s, DF_PX) + lat_t * interp(r, st_s, DF_NX);
  double ty = interp(r, st_s, DF_PY) + lat_t * interp(r, st_s, DF_NY);
  double rx = x + r->rear_x * hx, ry = y + r->rear_x * hy;
  double dx = tx - rx, dy = ty - ry;
  double lx = dx * hx + dy * hy, ly = -dx * hy + dy * hx;
  double dist = hypot(lx, ly);
  double alpha = atan2(ly, lx);
  double k_pp = dist > 1e-6 ? 2.0 * sin(alpha) / dist : 0.0; /* curvature of the pursuit arc */
  /* Feed-forward of the understeer the arc's lateral acceleration asks for: K·v²·k. */
  double delta = atan(r->wheelbase * k_pp) + r->understeer * v * v * k_pp;
  /* Yaw damping: steer against the yaw rate beyond the one the arc asks for (counters
   * oversteer before the look-ahead point notices it). */
  double yaw_rate = st->angular_velocity.z;
  delta += r->p.yaw_gain * (k_pp * fmax(v, 0.0) - yaw_rate);
  /* Integral of the lateral error at the car: removes the steady offset that the tyres' slip
   * angles (understeer) leave under pure pursuit. */
  double lat_err = (line_lat + r->shift) - loc.lateral;
  if (v > 2.0)
    r->lat_integ = clampd(r->lat_integ + lat_err * dt, -r->p.lateral_ki_limit / fmax(r->p.lateral_ki, 1e-9),
                          r->p.lateral_ki_limit / fmax(r->p.lateral_ki, 1e-9));
  delta += r->p.lateral_ki * r->lat_integ;
  /* Never steer the front tyres far past their peak slip angle: beyond it they only scrub. */
  double kin = atan(r->wheelbase * fabs(yaw_rate) / fmax(v, 1.0));
  double lim = kin + r->front_peak_alpha;
  if (v > 5.0) delta = clampd(delta, -lim, lim);
  if (v > 5.0 && fabs(a_front) > r->front_peak_alpha) in.throttle *= 0.5; /* understeer: ease off */
  double max_road = r->car.steering.max_wheel_angle / r->car.steering.ratio;
  double steer_ask = delta / max_road * steering_reduction(r, v);
  in.steering = clampd(steer_ask, -1.0, 1.0);
  /* Airborne over a crest (fewer than two wheels touching): the steering has nothing to act
   * on, and the pursuit kept asking for more lock (3/4 of it after 0.3 s in the air over
   * ole-road-1), so the car landed turned and spun. Land with the wheels along the car's
   * velocity, off the pedals' extremes. */
  int touching = 0;
  for (int i = 0; i < wn; ++i) touching += wheel_of(r, st, i)->in_contact ? 1 : 0;
  if (touching < 2 && v > 5.0) {
    double drift = atan2(st->local_velocity.y, fmax(st->local_velocity.x, 1.0));
    in.steering = clampd(drift / max_road * steering_reduction(r, v), -1.0, 1.0);
    in.throttle = fmin(in.throttle, 0.3);
    in.brake = 0.0;
  }
  /* The grip learning also waits LEARN_CALM after traffic or a shift: a pass begun in a braking
   * zone and given up at turn-in left the car 3 m off its line in the corner, running wide
   * with its front tyres past their peak, and the learning took it for a lack of grip
   * (ratio 0.70: the rest of the race at 0.8 of the plan's grip). */
  r->calm_t = (traffic || fabs(r->shift) >= 0.5) ? 0.0 : r->calm_t + dt;
  adapt_grip(r, st, s, v, k_here, outward, !on_route && (fabs(a_front) > r->front_peak_alpha || over > 0.0 || fabs(steer_ask) >= 1.0) && in.brake < 0.05 && r->calm_t >= LEARN_CALM && edge_room > 0.0 &&
                 fabs(heading_err) < 0.5 && v > 0.9 * interp(r, s, DF_V_PLAN), dt);
  return in;
}
