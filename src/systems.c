/* Car systems: anti-lock brakes, traction control and stability control (ESC). They run in the
 * vehicle step between the tyres and the drivetrain solve and act only through the brake torque
 * of each wheel and the engine torque, as the real systems do (brake pressure, throttle/ignition
 * cut). The control laws and their sources are in docs/physics.md §12. */
#include <math.h>

#include "gmath.h"
#include "vehicle_internal.h"

static bool switched(grip_system_switch s, bool defined) {
  return s == GRIP_SYSTEM_ON || (s != GRIP_SYSTEM_OFF && defined);
}

bool grip_systems_switched_on(const vehicle *v) {
  const grip_vehicle_input *in = &v->input;
  const grip_systems_def *d = &v->def->systems;
  return switched(in->abs_switch, d->abs.enabled) || switched(in->tc_switch, d->tc.enabled) ||
         switched(in->esc_switch, d->esc.enabled);
}

/* The wheel's slip ratio from its speed and its contact patch's ground speed. */
static double wheel_slip(const wheel_runtime *w, const wheel_config *c, double vx, double floor_speed) {
  return (w->spin * c->radius - vx) / maxd(fabs(vx), maxd(floor_speed, 0.1)); /* 0.1 m/s: min_speed may be 0 */
}

/* The slip ratio at a tyre's longitudinal force peak, free rolling and upright at load fz (N).
 * The simple model has it in closed form; a full MF tyre is searched on a 0.001 grid over
 * 0.005..0.5 (the peak of a road tyre lies at 0.05..0.25), then refined by a parabola. */
static double tyre_peak_slip(const grip_tyre_def *tyre, const grip_mf_params *mf, double fz) {
  if (tyre->model != GRIP_TYRE_FULL_MF || !mf) return grip_magic_formula_peak_slip(&tyre->simple.longitudinal);
  grip_mf_output o;
  double best_kappa = 0.005, best = -INFINITY;
  for (double kappa = 0.005; kappa <= 0.5; kappa += 0.001) {
    grip_mf_evaluate_full(mf, fz, kappa, 0.0, 0.0, 20.0, 0.0, &o);
    if (o.fx > best) best = o.fx, best_kappa = kappa;
  }
  double f[3];
  for (int k = 0; k < 3; ++k) {
    grip_mf_evaluate_full(mf, fz, best_kappa + (k - 1) * 0.001, 0.0, 0.0, 20.0, 0.0, &o);
    f[k] = o.fx;
  }
  double den = f[0] - 2.0 * f[1] + f[2];
  return den < 0.0 ? best_kappa + 0.001 * 0.5 * (f[0] - f[2]) / den : best_kappa;
}

void grip_systems_type_init(vehicle_type *t) {
  double target = t->def.systems.tc.target_slip;
  if (target <= 0.0) {
    /* 0: the lowest peak slip of the driven tyres at their static load, so that no driven tyre
     * is held past its peak (the peak gives the most traction; docs/physics.md §12). */
    target = INFINITY;
    for (int i = 0; i < t->wheel_count; ++i) {
      const wheel_config *c = &t->wheels[i];
      if (!c->driven) continue;
      target = mind(target, tyre_peak_slip(&t->def.axles[c->axle].tyre, t->mf[c->axle], c->static_load));
    }
    if (!isfinite(target)) target = 0.10; /* no driven wheel: traction control has nothing to do */
  }
  t->tc_target_slip = target;
}

/* ESC: brake torque per wheel from the yaw-rate error against the single-track reference. */
static void esc_torques(vehicle *v, const grip_esc_def *e, const mat3 *rot, const grip_world_def *world,
                        double extra[GRIP_MAX_WHEELS]) {
  grip_vec3 up = mat3_column(rot, 2);
  double speed = v3_dot(v->velocity, mat3_column(rot, 0));
  double r = v3_dot(v->angular_velocity, up);
  v->esc_reference = 0.0;
  if (!(speed > e->min_speed) || !isfinite(v->steer_delta)) return;
  /* Surface friction under the wheels on the ground, their mean. */
  double mu = 0.0;
  int n = 0;
  for (int i = 0; i < v->wheel_count; ++i)
    if (v->wheels[i].in_contact) {
      mu += v->wheels[i].surface_friction;
      ++n;
    }
  if (n == 0) return;
  mu = e->friction * mu / n;
  double length = v->type->steer_length; /* the wheelbase of a two-axle car */
  double reference = speed * v->steer_delta / (length + e->understeer_gradient * speed * speed);
  double bound = mu * v3_length(world->gravity) / speed;
  reference = clampd(reference, -bound, bound);
  v->esc_reference = reference;
  double error = r - reference;
  double excess = fabs(error) - e->deadband;
  if (excess <= 0.0) return;
  /* Oversteer (turning more than the reference, or against it): brake the outer front wheel;
   * understeer: the inner rear. Braking a right wheel yaws the car to the right (negative), so
   * the side braked is the right one when the error is positive. */
  bool oversteer = fabs(r) > fabs(reference) || r * reference < 0.0;
  const vehicle_type *t = v->type;
  int axle = oversteer ? 0 : t->axle_count - 1; /* the front axle, or the rear one */
  int wheel = t->axle_first_wheel[axle] + (error > 0.0 && t->axle_wheels[axle] == 2 ? 1 : 0);
  extra[wheel] = mind(e->gain * excess, e->max_torque);
  v->esc_active = true;
}

double grip_systems_step(vehicle *v, wheel_scratch *sc, const mat3 *rot, const grip_world_def *world,
                    double dt) {
  const grip_systems_def *d = &v->def->systems;
  const grip_vehicle_input *in = &v->input;
  bool abs_on = switched(in->abs_switch, d->abs.enabled);
  bool tc_on = switched(in->tc_switch, d->tc.enabled);
  bool esc_on = switched(in->esc_switch, d->esc.enabled);
  double pedal = v->filtered.brake;
  v->abs_active = v->tc_active = v->esc_active = false;

  /* Brake torque asked of each wheel on top of the pedal's: ESC's and traction control's. */
  double extra[GRIP_MAX_WHEELS];
  for (int i = 0; i < v->wheel_count; ++i) extra[i] = 0.0;
  if (esc_on) esc_torques(v, &d->esc, rot, world, extra);
  else v->esc_reference = 0.0;

  double tc_factor = 1.0;
  if (tc_on) {
    /* Engine torque: the factor falls while the most-slipping driven wheel is above the target
     * and recovers below it, at most torque_rate per second (an integral law on slip). */
    const grip_tc_def *t = &d->tc;
    const double target = v->type->tc_target_slip;
    double worst = -INFINITY;
    for (int i = 0; i < v->wheel_count; ++i) {
      const wheel_config *c = &v->type->wheels[i];
      if (!c->driven || !v->wheels[i].in_contact) continue;
      double kappa = wheel_slip(&v->wheels[i], c, sc->vx[i], t->min_speed);
      if (kappa > worst) worst = kappa;
      /* Brake on a spinning wheel (an open differential's only way to move torque across). */
      if (t->brake_gain > 0.0 && kappa > target) {
        extra[i] += t->brake_gain * (kappa - target);
        v->tc_active = true;
      }
    }
    if (v->filtered.throttle <= 0.0 || worst == -INFINITY) {
      v->tc_torque_factor = 1.0;
    } else {
      double error = clampd((worst - target) / t->slip_band, -1.0, 1.0);
      v->tc_torque_factor = clampd(v->tc_torque_factor - t->torque_rate * dt * error, 0.0, 1.0);
    }
    tc_factor = v->tc_torque_factor;
    if (tc_factor < 1.0) v->tc_active = true;
  } else {
    v->tc_torque_factor = 1.0;
  }

  const grip_abs_def *a = &d->abs;
  double applied[GRIP_MAX_WHEELS];
  for (int i = 0; i < v->wheel_count; ++i) {
    const wheel_config *c = &v->type->wheels[i];
    wheel_runtime *w = &v->wheels[i];
    double asked = c->brake_torque * pedal + extra[i];
    applied[i] = asked;
    if (abs_on) {
      /* Pressure factor p: an integral law on the slip error, dp/dt = −rate·clamp(e/band, −1, 1)
       * with e = |kappa| − target; released to 1 when the brake is off or the car is slow. */
      double vx = sc->vx[i];
      if (asked <= 0.0 || !w->in_contact || fabs(vx) < a->min_speed) {
        v->wheels[i].abs_pressure = 1.0;
      } else {
        double kappa = wheel_slip(w, c, vx, a->min_speed) * signd(vx);
        double error = clampd((-kappa - a->target_slip) / a->slip_band, -1.0, 1.0);
        v->wheels[i].abs_pressure = clampd(v->wheels[i].abs_pressure - a->modulation_rate * dt * error, 0.0, 1.0);
      }
      applied[i] = asked * v->wheels[i].abs_pressure;
      if (v->wheels[i].abs_pressure < 1.0 && asked > 0.0) v->abs_active = true;
    }
  }
  /* Select-low on the rear axle (the last; every unsteered axle behind the first of a truck):
   * both wheels get the lower of their two ABS pressures, so that on split mu the rear never
   * adds a yaw moment and keeps its side grip (the usual ABS layout, Bosch Automotive
   * Handbook). ESC's own braking of one rear wheel is left alone. */
  const vehicle_type *t = v->type;
  for (int ax = 1; abs_on && ax < t->axle_count; ++ax) {
    int l = t->axle_first_wheel[ax], r = l + 1;
    if (t->axle_wheels[ax] != 2 || (ax < t->axle_count - 1 && t->wheels[l].steer_ratio != 0.0)) continue;
    if (extra[l] != 0.0 || extra[r] != 0.0) continue;
    double p = mind(v->wheels[l].abs_pressure, v->wheels[r].abs_pressure);
    for (int i = l; i <= r; ++i) applied[i] = t->wheels[i].brake_torque * pedal * p;
  }
  for (int i = 0; i < v->wheel_count; ++i) sc->friction_torque[i] += applied[i] - v->type->wheels[i].brake_torque * pedal;
  return tc_factor;
}
