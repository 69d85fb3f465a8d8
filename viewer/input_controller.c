/* The car controller: see input_controller.h. */
#include "input_controller.h"

#include <math.h>
#include <string.h>

static const double kPi = 3.14159265358979323846;

static double clamp(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

void input_controller_init(input_controller *c, const grip_input_config *cfg, bool automatic) {
  memset(c, 0, sizeof *c);
  c->cfg = *cfg;
  c->automatic = automatic;
  c->manual_gear = 1;
  c->auto_direction = 1;
  c->last_gate = GRIP_GEAR_NEUTRAL;
}

/* Deadzone then curve on a magnitude 0..1. */
static double shape(const grip_input_axis *axis, double m) {
  m = clamp(m, 0.0, 1.0);
  if (m <= axis->deadzone) return 0.0;
  m = (m - axis->deadzone) / (1.0 - axis->deadzone);
  return axis->curve == 1.0 ? m : pow(m, axis->curve);
}

double input_centred_axis(const grip_input_axis *axis, double raw) {
  double x = clamp(raw / 32767.0, -1.0, 1.0);
  if (axis->invert) x = -x;
  double m = shape(axis, fabs(x));
  return x < 0.0 ? -m : m;
}

double input_pedal_axis(const grip_input_axis *axis, double raw) {
  double span = axis->pressed - axis->released;
  double p = span != 0.0 ? (raw - axis->released) / span : 0.0;
  p = clamp(p, 0.0, 1.0);
  if (axis->invert) p = 1.0 - p;
  return shape(axis, p);
}

double input_steer_from_axis(double x, double range_deg, double lock_rad) {
  if (range_deg <= 0.0 || lock_rad <= 0.0) return clamp(x, -1.0, 1.0);
  double device_half = 0.5 * range_deg * kPi / 180.0; /* rad each way */
  return clamp(x * device_half / lock_rad, -1.0, 1.0);
}

static bool any_held(const grip_input_buttons *b, input_read_fn read, void *context) {
  for (int i = 0; i < b->count; ++i)
    if (read(context, &b->source[i]) > 0.5) return true;
  return false;
}

static double toward(double value, double target, double rate, double dt) {
  if (rate <= 0.0) return target;
  double step = rate * dt;
  return value < target ? fmin(target, value + step) : fmax(target, value - step);
}

/* A pedal: the larger of its axis and its ramped buttons. */
static double pedal(const grip_input_pedal *p, double *digital, input_read_fn read, void *context, double dt) {
  bool held = any_held(&p->buttons, read, context);
  *digital = toward(*digital, held ? 1.0 : 0.0, held ? p->rise_rate : p->fall_rate, dt);
  double analogue = p->axis.source.kind != GRIP_INPUT_NONE ? input_pedal_axis(&p->axis, read(context, &p->axis.source)) : 0.0;
  return fmax(analogue, *digital);
}

/* Rising edge of button slot k. */
static bool edge(input_controller *c, int k, const grip_input_buttons *b, input_read_fn read, void *context) {
  bool now = any_held(b, read, context);
  bool pressed = now && !c->held[k];
  c->held[k] = now;
  return pressed;
}

grip_vehicle_input input_controller_update(input_controller *c, input_read_fn read, void *context,
                                           const input_car_info *car, double dt, input_actions *actions) {
  const grip_input_config *cfg = &c->cfg;
  input_actions act;
  memset(&act, 0, sizeof act);
  grip_vehicle_input in = grip_default_vehicle_input();

  /* Steering: digital towards full lock at rate/(1 + v/v_half), back to centre at centre_rate
   * (or at the faster of the two when steering across the centre). */
  bool left = any_held(&cfg->steer.left, read, context), right = any_held(&cfg->steer.right, read, context);
  double want = (left ? 1.0 : 0.0) - (right ? 1.0 : 0.0);
  double rate = cfg->steer.rate;
  if (cfg->steer.rate_speed > 0.0) rate /= 1.0 + fabs(car->speed) / cfg->steer.rate_speed;
  if (want == 0.0) rate = cfg->steer.centre_rate;
  else if (want * c->steer_digital < 0.0) rate = fmax(rate, cfg->steer.centre_rate);
  c->steer_digital = toward(c->steer_digital, want, rate, dt);
  double steer = c->steer_digital;
  double combined = 0.0;
  if (cfg->steer.axis.source.kind != GRIP_INPUT_NONE) {
    /* SDL's axes grow to the right, grip's steering to the left. */
    double x = input_centred_axis(&cfg->steer.axis, read(context, &cfg->steer.axis.source));
    steer += input_steer_from_axis(-x, cfg->steer.axis.range_deg, car->lock_rad);
  }
  in.steering = clamp(steer, -1.0, 1.0);

  /* Pedals. Combined: one centred axis, throttle above the centre and brake below. */
  if (cfg->combined_pedals) {
    combined = input_centred_axis(&cfg->throttle.axis, read(context, &cfg->throttle.axis.source));
    grip_input_pedal t = cfg->throttle, b = cfg->brake;
    t.axis.source.kind = GRIP_INPUT_NONE;
    in.throttle = fmax(fmax(combined, 0.0), pedal(&t, &c->throttle_digital, read, context, dt));
    in.brake = fmax(fmax(-combined, 0.0), pedal(&b, &c->brake_digital, read, context, dt));
  } else {
    in.throttle = pedal(&cfg->throttle, &c->throttle_digital, read, context, dt);
    in.brake = pedal(&cfg->brake, &c->brake_digital, read, context, dt);
  }
  in.clutch = pedal(&cfg->clutch, &c->clutch_digital, read, context, dt);
  in.handbrake = pedal(&cfg->handbrake, &c->handbrake_digital, read, context, dt);

  /* Gears. */
  int top = car->forward_gears;
  if (edge(c, 2, &cfg->automatic, read, context)) {
    c->automatic = !c->automatic;
    act.automatic_toggled = true;
    if (c->automatic) c->auto_direction = car->gear < 0 ? -1 : (car->gear == 0 ? 0 : 1);
    else c->manual_gear = car->gear;
  }
  int shift = (edge(c, 0, &cfg->gear_up, read, context) ? 1 : 0) - (edge(c, 1, &cfg->gear_down, read, context) ? 1 : 0);
  if (c->automatic) {
    c->auto_direction = (int)clamp(c->auto_direction + shift, -1, 1);
  } else {
    c->manual_gear = (int)clamp(c->manual_gear + shift, GRIP_GEAR_REVERSE, top);
    /* H-shifter: when the lever moves (a gate's button pressed or released) the gearbox follows
     * it: that gear, or neutral between gates. Paddles shift from there until it moves again. */
    int gate = GRIP_GEAR_NEUTRAL;
    if (any_held(&cfg->reverse, read, context)) gate = GRIP_GEAR_REVERSE;
    for (int g = 0; g < top && g < GRIP_MAX_GEARS; ++g)
      if (any_held(&cfg->gear[g], read, context)) gate = g + 1;
    if (gate != c->last_gate) c->manual_gear = gate;
    c->last_gate = gate;
  }
  in.automatic = c->automatic;
  in.gear = c->automatic ? c->auto_direction : c->manual_gear;

  act.reset = edge(c, 3, &cfg->reset, read, context);
  act.camera = edge(c, 4, &cfg->camera, read, context);
  act.pause = edge(c, 5, &cfg->pause, read, context);
  act.toggle_abs = edge(c, 6, &cfg->abs_toggle, read, context);
  act.toggle_tc = edge(c, 7, &cfg->tc_toggle, read, context);
  act.toggle_esc = edge(c, 8, &cfg->esc_toggle, read, context);
  if (actions) *actions = act;
  return in;
}
