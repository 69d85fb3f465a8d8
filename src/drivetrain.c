/* Drivetrain: engine, clutch, gearbox, differentials and wheel spin, solved implicitly.
 *
 * Every shaft is reduced to its response over one backward-Euler step, omega' = p + q·T
 * (an "admittance"). A wheel's admittance already contains its tyre, linearised about the
 * current state (Fx(omega') = fx0 + k·(omega' − omega)), so the stiff wheel-spin / tyre-force
 * coupling needs no small step. Differentials combine two admittances into the admittance of
 * their input shaft; the gearbox scales it by the ratio; the clutch then couples it to the
 * engine as a Coulomb friction joint (locked when the torque needed stays within its capacity,
 * slipping at full capacity otherwise). Brakes, handbrake and rolling resistance are Coulomb
 * friction on each wheel: a wheel is either stuck (omega' = 0, holding torque within the
 * friction capacity) or turning with the full friction torque against it. The few discrete
 * modes (stuck wheels, LSD locked or slipping, clutch) are settled by re-solving until they
 * are consistent (at most a few passes). See docs/physics.md. */
#include <math.h>
#include <string.h>

#include "engine.h"
#include "gmath.h"
#include "isa.h"
#include "lanes.h"
#include "vehicle_internal.h"

#define MAX_MODE_PASSES 6

/* One input of a differential of the tree: wheel i's value, or differential −1 − i's. */
#define DRIVE_INPUT(input, wheel_value, diff_value) ((input) >= 0 ? (wheel_value)[(input)] : (diff_value)[-1 - (input)])

/* --- differentials --------------------------------------------------------------------- */

STEP_INLINE admittance diff_reduce(const grip_diff_def *def, const diff_runtime *state, double s, admittance l,
                                   admittance r, torque_split *t) {
  double qsum = l.q + r.q;
  bool locked = def->type == GRIP_DIFF_LOCKED ||
                (def->type == GRIP_DIFF_LIMITED_SLIP && state->mode == DIFF_MODE_LOCKED);
  if (locked) {
    if (qsum > 0.0) {
      double inv_qsum = 1.0 / qsum;
      double b = (r.p - l.p) * inv_qsum;
      *t = (torque_split){r.q * inv_qsum, b, l.q * inv_qsum, -b};
    } else {
      *t = (torque_split){s, 0.0, 1.0 - s, 0.0}; /* both sides stuck */
    }
  } else if (def->type == GRIP_DIFF_LIMITED_SLIP) {
    double limit = def->preload + def->locking_coefficient * fabs(state->input_torque);
    double b = state->slip_sign * limit;
    *t = (torque_split){s, b, 1.0 - s, -b};
  } else if (def->type == GRIP_DIFF_VISCOUS) {
    /* T_l = s·T + c·D, T_r = (1−s)·T − c·D with D = omega_r' − omega_l' solved implicitly. */
    double c = def->viscous_coefficient;
    double inv_denom = 1.0 / (1.0 + c * qsum);
    double d0 = (r.p - l.p) * inv_denom;
    double d1 = (r.q * (1.0 - s) - l.q * s) * inv_denom;
    *t = (torque_split){s + c * d1, c * d0, (1.0 - s) - c * d1, -c * d0};
  } else {
    *t = (torque_split){s, 0.0, 1.0 - s, 0.0}; /* open */
  }
  /* Input speed (power balance): omega_in = s·omega_l + (1−s)·omega_r for every type. For a
   * locked pair both sides turn at the same speed, so weighting by s changes nothing. */
  admittance in;
  in.p = s * (l.p + l.q * t->b_left) + (1.0 - s) * (r.p + r.q * t->b_right);
  in.q = s * l.q * t->a_left + (1.0 - s) * r.q * t->a_right;
  return in;
}

admittance grip_diff_reduce(const grip_diff_def *def, const diff_runtime *state, double s,
                       admittance l, admittance r, torque_split *t) {
  return diff_reduce(def, state, s, l, r, t);
}

/* --- shift points ---------------------------------------------------------------------- */

static double gear_ratio(const grip_gearbox_def *g, int gear) {
  if (gear > 0) return g->ratios[gear - 1] * g->final_drive;
  if (gear < 0) return -g->reverse_ratio * g->final_drive;
  return 0.0;
}

void grip_gearbox_shift_rpm(const grip_gearbox_def *g, const grip_engine_def *e,
                            double upshift_rpm[GRIP_MAX_GEARS], double downshift_rpm[GRIP_MAX_GEARS]) {
  double limit = e->rev_limit_rpm;
  /* Upshift where the next gear gives at least as much wheel force at the same road speed:
   * T(rpm)·r_n <= T(rpm·r_{n+1}/r_n)·r_{n+1}; otherwise just under the limiter. */
  double peak_rpm = e->curve_rpm[0];
  for (int i = 1; i < e->curve_points; ++i)
    if (e->curve_torque[i] > grip_engine_curve_torque(e, peak_rpm)) peak_rpm = e->curve_rpm[i];
  for (int n = 0; n < GRIP_MAX_GEARS; ++n) upshift_rpm[n] = downshift_rpm[n] = 0.0;
  for (int n = 0; n < g->forward_gears && n < GRIP_MAX_GEARS; ++n) {
    double up = g->upshift_rpm > 0.0 ? g->upshift_rpm : 0.97 * limit;
    if (g->upshift_rpm <= 0.0 && n + 1 < g->forward_gears) {
      double step = g->ratios[n + 1] / g->ratios[n];
      for (double rpm = e->idle_rpm * 1.5; rpm < 0.97 * limit; rpm += 10.0) {
        double here = grip_engine_curve_torque(e, rpm) * g->ratios[n];
        double next = grip_engine_curve_torque(e, rpm * step) * g->ratios[n + 1];
        if (rpm > peak_rpm && next >= here) {
          up = rpm;
          break;
        }
      }
    }
    upshift_rpm[n] = up;
  }
  for (int n = 0; n < g->forward_gears && n < GRIP_MAX_GEARS; ++n) {
    if (g->downshift_rpm > 0.0) {
      downshift_rpm[n] = g->downshift_rpm;
    } else if (n == 0) {
      downshift_rpm[n] = 0.0;
    } else {
      /* After a downshift the engine should land at most at 85 % of the lower gear's upshift. */
      double land = 0.85 * upshift_rpm[n - 1] * g->ratios[n] / g->ratios[n - 1];
      downshift_rpm[n] = maxd(land, 1.2 * e->idle_rpm);
    }
  }
}

/* A node of the layouts' trees: an axle differential between the axle's two wheels. */
static drive_node axle_node(const vehicle_type *t, const grip_diff_def *def, int axle) {
  drive_node n = {.def = *def, .split = 0.5};
  n.input[0] = t->axle_first_wheel[axle];
  n.input[1] = t->axle_first_wheel[axle] + 1;
  return n;
}

static int node_input(grip_drive_input in) { return in.kind == GRIP_DRIVE_INPUT_WHEEL ? in.index : -1 - in.index; }

void grip_drivetrain_type_init(vehicle_type *t) {
  const grip_drivetrain_def *d = &t->def.drivetrain;
  for (int gear = -1; gear <= GRIP_MAX_GEARS; ++gear) t->gear_ratio[gear + 1] = gear_ratio(&t->def.gearbox, gear);
  if (d->layout != GRIP_DRIVE_NONE)
    grip_gearbox_shift_rpm(&t->def.gearbox, &t->def.engine, t->upshift_rpm, t->downshift_rpm);
  /* The tree: the layouts are shorthands for the trees of a two-axle car (FWD: the first axle's
   * differential; RWD: the last axle's; AWD: a centre differential over both). */
  int last = t->axle_count - 1;
  t->root_input_is_clutch = false;
  switch (d->layout) {
    case GRIP_DRIVE_FWD:
      t->diff_count = 1;
      t->drive[0] = axle_node(t, &d->front, 0);
      break;
    case GRIP_DRIVE_RWD:
      t->diff_count = 1;
      t->drive[0] = axle_node(t, &d->rear, last);
      break;
    case GRIP_DRIVE_AWD:
      t->diff_count = 3;
      t->drive[0] = (drive_node){.def = d->centre, .split = d->centre.front_split, .input = {-2, -3}};
      t->drive[1] = axle_node(t, &d->front, 0);
      t->drive[2] = axle_node(t, &d->rear, last);
      t->root_input_is_clutch = true;
      break;
    case GRIP_DRIVE_NONE:
      t->diff_count = 0;
      break;
    case GRIP_DRIVE_TREE:
      t->diff_count = d->diff_count;
      for (int k = 0; k < d->diff_count; ++k)
        t->drive[k] = (drive_node){.def = d->diffs[k], .split = d->diffs[k].front_split,
                                   .input = {node_input(d->diffs[k].inputs[0]), node_input(d->diffs[k].inputs[1])}};
      break;
  }
  t->any_lsd = false;
  for (int i = 0; i < t->wheel_count; ++i) t->wheels[i].driven = false;
  for (int k = 0; k < t->diff_count; ++k) {
    t->any_lsd = t->any_lsd || t->drive[k].def.type == GRIP_DIFF_LIMITED_SLIP;
    for (int j = 0; j < 2; ++j)
      if (t->drive[k].input[j] >= 0) t->wheels[t->drive[k].input[j]].driven = true;
  }
}

/* --- gear selection and clutch --------------------------------------------------------- */

/* The ratio of the vehicle's gear, as gear_ratio gives it. */
static inline double current_gear_ratio(const vehicle *v) { return v->type->gear_ratio[v->gear + 1]; }

/* The speeds of the tree's `diffs` differentials' input shafts from the wheels' speeds, from
 * the wheels up (power balance: omega_in = s·omega_0 + (1 − s)·omega_1). speed is cleared first:
 * with the count a constant (the step's copy for the usual car) the compiler cannot see that an
 * input differential's index is below it, so never read before it is written. */
STEP_INLINE void driveline_speeds(const vehicle_type *t, int diffs, const double wheel[], double speed[]) {
  for (int k = 0; k < diffs; ++k) speed[k] = 0.0;
  for (int k = diffs - 1; k >= 0; --k) {
    const drive_node *d = &t->drive[k];
    speed[k] = d->split * DRIVE_INPUT(d->input[0], wheel, speed) + (1.0 - d->split) * DRIVE_INPUT(d->input[1], wheel, speed);
  }
}

/* Speed at the gearbox output implied by the driven wheels: the root differential's input
 * speed. n wheels and `diffs` differentials: constants in the step's copy for the usual car. */
STEP_INLINE double driveline_omega(const vehicle *v, int n, int diffs) {
  double spin[GRIP_MAX_WHEELS], speed[GRIP_MAX_DIFFS];
  for (int i = 0; i < n; ++i) spin[i] = v->wheels[i].spin;
  driveline_speeds(v->type, diffs, spin, speed);
  return speed[0];
}

void grip_drivetrain_match_speed(vehicle *v) {
  if (v->type->diff_count == 0) return; /* no engine: nothing to match */
  const grip_gearbox_def *g = &v->def->gearbox;
  double omega = driveline_omega(v, v->wheel_count, v->type->diff_count);
  if (v->input.automatic && v->input.gear > 0 && omega > 0.0) {
    /* The gear the automatic would hold at this speed: the lowest below its upshift point. */
    int gear = g->forward_gears;
    for (int n = 1; n <= g->forward_gears; ++n)
      if (omega * gear_ratio(g, n) * RAD_PER_S_TO_RPM <= v->type->upshift_rpm[n - 1]) {
        gear = n;
        break;
      }
    v->gear = v->target_gear = gear;
  }
  v->shift_timer = 0.0;
  double engine = fabs(omega * current_gear_ratio(v));
  double idle = v->def->engine.idle_rpm * RPM_TO_RAD_PER_S;
  if (v->gear != 0 && engine > idle) {
    v->engine_omega = engine;
    v->clutch_locked = true;
    v->clutch_engagement = 1.0;
  } else {
    v->engine_omega = idle;
    v->clutch_locked = false;
  }
}

STEP_INLINE void select_gear(vehicle *v, double dt, int n, int diffs) {
  const grip_gearbox_def *g = &v->def->gearbox;
  const grip_vehicle_input *in = &v->filtered;
  v->shift_cooldown = maxd(0.0, v->shift_cooldown - dt);
  if (v->shift_timer > 0.0) {
    v->shift_timer -= dt;
    /* First half: neutral. Second half: the new gear is in and the clutch closes. */
    if (v->shift_timer <= 0.5 * g->shift_time) v->gear = v->target_gear;
    if (v->shift_timer <= 0.0) v->shift_timer = 0.0;
    return;
  }
  int want = v->gear;
  if (in->automatic) {
    if (in->gear < 0) {
      want = -1;
    } else if (in->gear == 0) {
      want = 0;
    } else if (v->gear <= 0) {
      want = 1;
    } else if (v->shift_cooldown <= 0.0) {
      double rpm = fabs(driveline_omega(v, n, diffs) * current_gear_ratio(v)) * RAD_PER_S_TO_RPM;
      if (v->gear < g->forward_gears && rpm > v->type->upshift_rpm[v->gear - 1])
        want = v->gear + 1;
      else if (v->gear > 1 && rpm < v->type->downshift_rpm[v->gear - 1])
        want = v->gear - 1;
    }
  } else {
    want = in->gear < -1 ? -1 : (in->gear > g->forward_gears ? g->forward_gears : in->gear);
  }
  if (want != v->gear) {
    v->target_gear = want;
    v->gear = 0;
    v->shift_timer = g->shift_time;
    v->shift_cooldown = g->shift_time + 1.0;
    if (g->shift_time <= 0.0) {
      v->gear = want;
      v->shift_timer = 0.0;
    }
  }
}

STEP_INLINE double clutch_engagement(const vehicle *v) {
  const grip_engine_def *e = &v->def->engine;
  const grip_gearbox_def *g = &v->def->gearbox;
  if (v->gear == 0) return 0.0;
  double rpm = v->engine_omega * RAD_PER_S_TO_RPM;
  /* Automatic clutch: closes with engine speed from idle to engage_rpm; once locked it stays
   * closed until the engine falls back near idle. */
  double automatic = clampd((rpm - e->idle_rpm) / (v->def->clutch.engage_rpm - e->idle_rpm), 0.0, 1.0);
  if (v->clutch_locked && rpm > 1.02 * e->idle_rpm) automatic = 1.0;
  double engagement = mind(automatic, 1.0 - v->filtered.clutch);
  if (v->shift_timer > 0.0 && g->shift_time > 0.0)
    engagement = mind(engagement, 1.0 - v->shift_timer / (0.5 * g->shift_time));
  return clampd(engagement, 0.0, 1.0);
}

/* --- the implicit solve ---------------------------------------------------------------- */

/* The wheels' arrays have room for a whole number of lanes (the set-up works a pair at a time). */
enum { WHEEL_ROOM = (GRIP_MAX_WHEELS + LANES - 1) / LANES * LANES };

typedef struct solve_context {
  /* wheel + tyre, no friction: omega' = base_p + base_q·T */
  double base_p[WHEEL_ROOM], base_q[WHEEL_ROOM];
  /* a wheel's mode: stuck (omega' = 0, the friction holds it; all bits set, a lane's mask) or
   * turning (0) */
  long long stuck[WHEEL_ROOM];
  double friction_sign[WHEEL_ROOM];
  double torque[GRIP_MAX_WHEELS];   /* drive torque from the drivetrain */
  double omega[GRIP_MAX_WHEELS];
  double clutch_torque;
  double engine_omega;
  bool clutch_slipping;
  /* Per differential of the driveline tree (vehicle_type.drive): the torque at its input and
   * the torque it delivers to its input 0 (N·m), and how it splits. */
  double diff_torque[GRIP_MAX_DIFFS];
  double first_torque[GRIP_MAX_DIFFS];
  torque_split split[GRIP_MAX_DIFFS];
  admittance engine; /* engine shaft, no clutch torque */
  const wheel_scratch *sc; /* the tyres' linearised response */
} solve_context;

static admittance wheel_admittance(const solve_context *c, int i) {
  if (c->stuck[i]) return (admittance){0.0, 0.0};
  admittance a = {c->base_p[i], c->base_q[i]};
  a.p -= a.q * c->friction_sign[i] * c->sc->friction_torque[i];
  return a;
}


STEP_INLINE void solve_once(vehicle *v, solve_context *c, double engagement, double efficiency, int n, int diffs) {
  const vehicle_type *t = v->type;
  admittance w[GRIP_MAX_WHEELS];
  for (int i = 0; i < n; ++i) {
    w[i] = wheel_admittance(c, i);
    c->torque[i] = 0.0;
  }
  /* The tree from the wheels up: each differential's inputs have higher indices than itself,
   * so going down the indices reduces children before their parent; the root, 0, is the
   * gearbox's output shaft. */
  admittance in[GRIP_MAX_DIFFS];
  for (int k = diffs - 1; k >= 0; --k) {
    const drive_node *d = &t->drive[k];
    in[k] = diff_reduce(&d->def, &v->diffs[k], d->split, DRIVE_INPUT(d->input[0], w, in),
                        DRIVE_INPUT(d->input[1], w, in), &c->split[k]);
  }
  admittance out = diffs > 0 ? in[0] : (admittance){0.0, 0.0}; /* no driveline: a free shaft */

  /* Gearbox: omega_g = G·omega_out; torque to the output = G·eta·T_clutch. */
  double ratio = current_gear_ratio(v);
  admittance gearbox = {ratio * out.p, ratio * ratio * efficiency * out.q};
  admittance engine = c->engine;
  /* Engine side: omega_e' = engine.p − engine.q·T_c. */
  double capacity = engagement * v->def->clutch.max_torque;
  double tc = 0.0;
  c->clutch_slipping = false;
  if (ratio != 0.0 && capacity > 0.0) {
    tc = (engine.p - gearbox.p) / (engine.q + gearbox.q);
    if (fabs(tc) > capacity) {
      tc = signd(tc) * capacity;
      c->clutch_slipping = true;
    }
  } else {
    c->clutch_slipping = true;
  }
  c->clutch_torque = tc;
  c->engine_omega = engine.p - engine.q * tc;

  /* And down again: each differential's input torque to its two inputs. */
  c->diff_torque[0] = ratio * efficiency * tc;
  for (int k = 0; k < diffs; ++k) {
    const drive_node *d = &t->drive[k];
    const torque_split *sp = &c->split[k];
    double torque = c->diff_torque[k];
    double left = sp->a_left * torque + sp->b_left, right = sp->a_right * torque + sp->b_right;
    c->first_torque[k] = left;
    if (d->input[0] >= 0) c->torque[d->input[0]] = left;
    else c->diff_torque[-1 - d->input[0]] = left;
    if (d->input[1] >= 0) c->torque[d->input[1]] = right;
    else c->diff_torque[-1 - d->input[1]] = right;
  }
  for (int i = 0; i < n; ++i) c->omega[i] = w[i].p + w[i].q * c->torque[i];
}

/* Checks the discrete modes against the solution; returns true if any changed. */
STEP_INLINE bool update_modes(vehicle *v, solve_context *c, int n, int diffs) {
  bool changed = false;
  for (int i = 0; i < n; ++i) {
    double cap = c->sc->friction_torque[i];
    if (c->stuck[i]) {
      /* Torque the friction must supply to hold omega' = 0: base.p + base.q·(T − T_hold) = 0. */
      double hold = c->base_q[i] > 0.0 ? c->base_p[i] / c->base_q[i] + c->torque[i] : 0.0;
      if (fabs(hold) > cap) {
        c->stuck[i] = 0;
        c->friction_sign[i] = signd(hold);
        changed = true;
      }
    } else if (cap > 0.0 && c->omega[i] * c->friction_sign[i] < 0.0) {
      /* The friction torque would have reversed the wheel: it stops and sticks instead. */
      c->stuck[i] = -1;
      changed = true;
    }
  }
  const vehicle_type *t = v->type;
  if (!t->any_lsd) return changed;
  /* The differentials' input shaft speeds, needed only while an LSD slips. */
  double speed[GRIP_MAX_DIFFS];
  bool slipping = false;
  for (int k = 0; k < diffs; ++k)
    slipping = slipping || (t->drive[k].def.type == GRIP_DIFF_LIMITED_SLIP && v->diffs[k].mode == DIFF_MODE_SLIPPING);
  if (slipping) driveline_speeds(t, diffs, c->omega, speed);
  for (int k = 0; k < diffs; ++k) {
    const drive_node *d = &t->drive[k];
    if (d->def.type != GRIP_DIFF_LIMITED_SLIP) continue;
    diff_runtime *s = &v->diffs[k];
    /* The LSD's locking torque from its input torque; the AWD layout's centre differential
     * has always taken the clutch torque instead (kept: the AWD cars' figures). */
    double input = k == 0 && t->root_input_is_clutch ? c->clutch_torque : c->diff_torque[k];
    double limit = d->def.preload + d->def.locking_coefficient * fabs(input);
    if (s->mode == DIFF_MODE_LOCKED) {
      double transfer = c->first_torque[k] - d->split * input;
      if (fabs(transfer) > limit * 1.0000001) {
        s->mode = DIFF_MODE_SLIPPING;
        s->slip_sign = signd(transfer);
        s->input_torque = input;
        changed = true;
      }
    } else {
      /* Slipping: re-lock when the sides' speed difference changes sign against the transfer. */
      double wl = DRIVE_INPUT(d->input[0], c->omega, speed), wr = DRIVE_INPUT(d->input[1], c->omega, speed);
      if ((wr - wl) * s->slip_sign < 0.0) {
        s->mode = DIFF_MODE_LOCKED;
        changed = true;
      }
      s->input_torque = input;
    }
  }
  return changed;
}

STEP_INLINE void drivetrain_step_n(vehicle *v, const wheel_scratch *sc, double dt, int n,
                                   int diffs) {
  const grip_gearbox_def *g = &v->def->gearbox;
  /* A vehicle with no engine (GRIP_DRIVE_NONE) stays in neutral with the engine stopped: the
   * solve below then has no clutch torque and only the wheels' own brakes and tyres. */
  bool engine = diffs > 0;
  if (engine) select_gear(v, dt, n, diffs);
  double engagement = engine ? clutch_engagement(v) : 0.0;
  v->clutch_engagement = engagement;
  engine_output eo = {0};
  if (engine) eo = grip_engine_torque(&v->def->engine, v->engine_omega, v->filtered.throttle, &v->engine_curve_piece);
  v->engine_torque = eo.torque;
  /* Efficiency loses torque in the direction power flows: engine -> wheels: eta; wheels ->
   * engine (engine braking): 1/eta. The direction is taken from the last step. */
  double efficiency = g->efficiency;
  if (v->clutch_torque * v->engine_omega < 0.0) efficiency = 1.0 / g->efficiency;

  solve_context c; /* the per-wheel arrays are filled for the n wheels below */
  c.clutch_torque = c.engine_omega = 0.0;
  c.clutch_slipping = false;
  c.sc = sc;
  double inv_dt = 1.0 / dt;
  /* Engine shaft: omega_e' = omega_e + dt·(T_engine − T_clutch)/I. */
  double dt_inertia = engine ? dt / v->def->engine.inertia : 0.0;
  c.engine = (admittance){v->engine_omega + eo.torque * dt_inertia, dt_inertia};
  /* Two wheels at a time, side by side in lanes (lanes.h: the same bits as one at a time); with
   * an odd count the last pair's spare lane repeats its wheel into the arrays' spare room. */
  for (int i = 0; i < n; i += LANES) {
    const void *w[LANES], *wc[LANES];
    int at[LANES];
    for (int l = 0; l < LANES; ++l) {
      int j = at[l] = lane_item(i, l, n);
      w[l] = &v->wheels[j];
      wc[l] = &v->type->wheels[j];
    }
#define W(field) lane_gather(w, offsetof(wheel_runtime, field))
#define S(field) (n % LANES == 0 ? lane_load(&sc->field[i]) : lane_pick(sc->field, at))
#define WC(field) lane_gather(wc, offsetof(wheel_config, field))
    /* I·(omega' − omega)/dt = T − r·(fx0 + k·(omega' − omega)) − friction */
    lane i_dt = WC(inertia) * inv_dt, radius = WC(radius), k = S(k), spin = W(spin);
    lane q = 1.0 / (i_dt + radius * k);
    lane p = q * (i_dt * spin - radius * S(fx0) + radius * k * spin);
    /* The mode the wheel would take alone; the friction opposes its motion (signd). */
    lane guess = p + q * W(drive_torque);
    lane_mask stuck = lane_abs(guess) <= q * S(friction_torque);
    lane sign = lane_select(guess > 0.0, lane_of(1.0), lane_select(guess < 0.0, lane_of(-1.0), lane_of(0.0)));
#undef W
#undef S
#undef WC
    lane_store(&c.base_p[i], p);
    lane_store(&c.base_q[i], q);
    lane_store(&c.friction_sign[i], sign);
    memcpy(&c.stuck[i], &stuck, sizeof stuck);
  }
  for (int pass = 0; pass < MAX_MODE_PASSES; ++pass) {
    solve_once(v, &c, engagement, efficiency, n, diffs);
    if (!update_modes(v, &c, n, diffs)) break;
  }

  v->clutch_torque = c.clutch_torque;
  v->clutch_locked = !c.clutch_slipping;
  v->engine_omega = maxd(0.0, c.engine_omega);
  for (int i = 0; i < n; ++i) {
    wheel_runtime *w = &v->wheels[i];
    double omega = c.stuck[i] ? 0.0 : c.omega[i];
    w->drive_torque = c.torque[i];
    w->applied_friction = c.stuck[i]
                              ? (c.base_q[i] > 0.0 ? c.base_p[i] / c.base_q[i] + c.torque[i] : 0.0)
                              : c.friction_sign[i] * sc->friction_torque[i];
    w->fx = sc->fx0[i] + sc->k[i] * (omega - w->spin);
    w->spin = omega;
  }
}

/* The solve for n wheels and a tree of `diffs` differentials: for the usual car (vehicle.c does
 * the same) a constant 4 wheels, and one differential for a car driven by one axle, so that
 * the loops over the wheels and the tree compile for those counts. */
GRIP_HOT_CLONES
static void drivetrain_step_cloned(vehicle *v, const wheel_scratch *sc, double dt) {
  const vehicle_type *t = v->type;
  if (t->two_by_two && t->diff_count == 1) drivetrain_step_n(v, sc, dt, 4, 1);
  else if (t->two_by_two) drivetrain_step_n(v, sc, dt, 4, t->diff_count);
  else drivetrain_step_n(v, sc, dt, v->wheel_count, t->diff_count);
}

void grip_drivetrain_step(vehicle *v, const wheel_scratch *sc, double dt) {
  drivetrain_step_cloned(v, sc, dt);
}
