/* Tyre temperature, pressure and wear (docs/physics.md §13) against expectations computed here
 * from the car's state and the documented laws, not from the model's own numbers:
 * - energy balance: the heat stored in the tyres plus the heat given off (the convection law and
 *   road conduction, evaluated here) equals the integral of the sliding power and rolling loss
 *   (recomputed here from the forces, wheel speeds and contact-patch velocities) within 1 %;
 * - a steady circle settles to the temperatures of the node network's closed-form steady state;
 * - pressure follows the ideal gas law at every step, and a full MF tyre sees that pressure;
 * - cold tyres lower the skidpad limit by the grip window's factor;
 * - a 30-lap robot race loses lap time to wear as the wear law's grip loss predicts;
 * - off (the default) reports the neutral state.
 * Each across dt 0.001–0.01 s. */
#include <math.h>
#include <string.h>

#include "grip/grip.h"
#include "cornering.h"
#include "manoeuvre.h"
#include "race.h"
#include "test.h"
#include "tir.h"
#include "track_file.h"

#define P_ATM 101325.0 /* Pa, the standard atmosphere */

static const double step_sizes[] = {0.001, 0.005, 0.01};
enum { STEP_SIZES = 3 };

/* The built-in car with the tyre state on at its default parameters. */
static grip_vehicle_def car_with_tyre_state(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  car.tyre_state = grip_default_tyre_state_def();
  car.tyre_state.enabled = true;
  return car;
}

/* Contact-patch velocity of wheel i in its tyre frame (vx along the wheel's heading on the ground,
 * vy across it), from the body's motion before the step (s0) and the contact found in the step
 * (s1), as docs/physics.md §4 defines the tyre frame. */
static void patch_velocity(const grip_vehicle_state *s0, const grip_vehicle_state *s1, int i, double *vx, double *vy) {
  const grip_wheel_state *w = &s1->wheels[i];
  grip_quat q = s0->pose.rotation;
  /* rotate the wheel heading (cos steer, sin steer, 0) by q */
  double hx = cos(w->steer_angle), hy = sin(w->steer_angle);
  double xx = 1 - 2 * (q.y * q.y + q.z * q.z), xy = 2 * (q.x * q.y + q.w * q.z), xz = 2 * (q.x * q.z - q.w * q.y);
  double yx = 2 * (q.x * q.y - q.w * q.z), yy = 1 - 2 * (q.x * q.x + q.z * q.z), yz = 2 * (q.y * q.z + q.w * q.x);
  double h[3] = {xx * hx + yx * hy, xy * hx + yy * hy, xz * hx + yz * hy};
  double n[3] = {w->contact_normal.x, w->contact_normal.y, w->contact_normal.z};
  double hn = h[0] * n[0] + h[1] * n[1] + h[2] * n[2];
  double t[3] = {h[0] - hn * n[0], h[1] - hn * n[1], h[2] - hn * n[2]};
  double tl = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
  for (int k = 0; k < 3; ++k) t[k] /= tl;
  double lat[3] = {n[1] * t[2] - n[2] * t[1], n[2] * t[0] - n[0] * t[2], n[0] * t[1] - n[1] * t[0]};
  double r[3] = {w->contact_point.x - s0->center_of_mass.x, w->contact_point.y - s0->center_of_mass.y,
                 w->contact_point.z - s0->center_of_mass.z};
  grip_vec3 om = s0->angular_velocity, v = s0->linear_velocity;
  double vel[3] = {v.x + om.y * r[2] - om.z * r[1], v.y + om.z * r[0] - om.x * r[2], v.z + om.x * r[1] - om.y * r[0]};
  *vx = vel[0] * t[0] + vel[1] * t[1] + vel[2] * t[2];
  *vy = vel[0] * lat[0] + vel[1] * lat[1] + vel[2] * lat[2];
}

/* Heat flows of one step recomputed from the states: sliding power (force times slip velocity,
 * both directions) and rolling loss (f·Fz·|ω|·r) per wheel, in W. */
static void heat_inputs(const grip_vehicle_def *car, const grip_vehicle_state *s0, const grip_vehicle_state *s1,
                        double slide[4], double roll[4]) {
  double surface_rr = grip_default_surface().rolling_resistance;
  for (int i = 0; i < 4; ++i) {
    const grip_wheel_state *w = &s1->wheels[i];
    slide[i] = roll[i] = 0.0;
    if (!w->in_contact) continue;
    const grip_axle_def *axle = &car->axles[i / 2];
    double r = axle->wheel_radius, vx, vy;
    patch_velocity(s0, s1, i, &vx, &vy);
    slide[i] = fabs(w->fx * (w->spin * r - vx)) + fabs(w->fy * vy);
    roll[i] = axle->tyre.rolling_resistance * surface_rr * w->load * fabs(w->spin) * r;
  }
}

/* W/K from the surface to the air at air speed v: (h0 + h1·v^n)·A. */
static double air_conductance(const grip_tyre_state_def *d, double v) {
  return (d->convection_h0 + d->convection_h1 * pow(v, d->convection_exponent)) * d->convection_area;
}

static double stored_heat(const grip_tyre_state_def *d, const grip_vehicle_state *s) {
  double u = 0.0;
  for (int i = 0; i < 4; ++i) {
    const grip_wheel_state *w = &s->wheels[i];
    u += d->surface_heat_capacity * w->tyre_surface_temperature + d->carcass_heat_capacity * w->tyre_carcass_temperature +
         d->gas_heat_capacity * w->tyre_gas_temperature;
  }
  return u;
}

typedef struct balance {
  double heat_in;    /* J, ∫ sliding power + rolling loss */
  double heat_out;   /* J, ∫ convection + road conduction */
  double stored;     /* J, Σ C·ΔT */
  double sliding;    /* J, ∫ sliding power alone */
  double max_power_error; /* largest |reported − recomputed| sliding power / (recomputed + 1 W) */
  double max_gas_law_error; /* Pa, largest |p − p_ideal| */
  double t_max;      /* K, hottest surface seen */
} balance;

/* One step's share of the balance, with the ideal-gas check. */
static void account(const grip_vehicle_def *car, const grip_vehicle_state *s0, const grip_vehicle_state *s1, double dt,
                    balance *b) {
  const grip_tyre_state_def *d = &car->tyre_state;
  double slide[4], roll[4];
  heat_inputs(car, s0, s1, slide, roll);
  double v = sqrt(s0->linear_velocity.x * s0->linear_velocity.x + s0->linear_velocity.y * s0->linear_velocity.y +
                  s0->linear_velocity.z * s0->linear_velocity.z);
  double g_air = air_conductance(d, v);
  double set_abs = 220000.0 + P_ATM; /* the simple tyre's documented default */
  for (int i = 0; i < 4; ++i) {
    const grip_wheel_state *w = &s1->wheels[i];
    b->heat_in += (slide[i] + roll[i]) * dt;
    b->sliding += slide[i] * dt;
    double ts = w->tyre_surface_temperature;
    b->heat_out += g_air * (ts - d->air_temperature) * dt;
    if (w->in_contact) b->heat_out += d->road_conductance * (ts - d->road_temperature) * dt;
    double e = fabs(w->tyre_sliding_power - slide[i]) / (slide[i] + 1.0);
    if (e > b->max_power_error) b->max_power_error = e;
    double ideal = set_abs * w->tyre_gas_temperature / d->pressure_temperature - P_ATM;
    if (fabs(w->tyre_pressure - ideal) > b->max_gas_law_error) b->max_gas_law_error = fabs(w->tyre_pressure - ideal);
    if (ts > b->t_max) b->t_max = ts;
  }
}

/* Cornering, then braking hard while turning (sliding), then full throttle: 40 s from 20 m/s. */
static void energy_balance_driving(void) {
  for (int k = 0; k < STEP_SIZES; ++k) {
    double dt = step_sizes[k];
    grip_vehicle_def car = car_with_tyre_state();
    grip_vehicle_id id;
    grip_world *world = sim_start_rolling(&car, &id, 20.0);
    CHECK(world != NULL);
    if (!world) return;
    grip_vehicle_state s0, s1;
    grip_vehicle_get_state(world, id, &s0);
    double u0 = stored_heat(&car.tyre_state, &s0);
    balance b = {0};
    sim_speed_control sc = {0};
    grip_vehicle_input in = grip_default_vehicle_input();
    int n = (int)lround(40.0 / dt);
    for (int step = 0; step < n; ++step) {
      double t = step * dt;
      if (t < 20.0) {
        in.steering = 0.25;
        sim_control_speed(&sc, &in, s0.speed, 20.0, dt);
      } else if (t < 24.0) {
        in.steering = 0.3;
        in.throttle = 0.0;
        in.brake = 1.0;
      } else {
        in.steering = 0.0;
        in.brake = 0.0;
        in.throttle = 1.0;
      }
      grip_vehicle_set_input(world, id, &in);
      grip_world_step(world, dt);
      grip_vehicle_get_state(world, id, &s1);
      account(&car, &s0, &s1, dt, &b);
      s0 = s1;
    }
    b.stored = stored_heat(&car.tyre_state, &s1) - u0;
    double residual = b.heat_in - (b.stored + b.heat_out);
    printf("  dt %.3f: heat in %.1f kJ (sliding %.1f kJ), stored %.1f kJ, out %.1f kJ, residual %.2e, hottest "
           "surface %.1f K, sliding power error %.2g, gas law error %.2g Pa\n",
           dt, 1e-3 * b.heat_in, 1e-3 * b.sliding, 1e-3 * b.stored, 1e-3 * b.heat_out, residual / b.heat_in,
           b.t_max, b.max_power_error, b.max_gas_law_error);
    CHECK(b.sliding > 0.2 * b.heat_in); /* the run does slide */
    CHECK(fabs(residual) <= 0.01 * b.heat_in);
    CHECK(b.max_power_error < 1e-6);
    CHECK(b.max_gas_law_error < 1e-6 * 220000.0);
    CHECK(b.t_max > car.tyre_state.initial_temperature + 10.0);
    grip_destroy_world(world);
  }
}

/* Hot tyres (100 °C) on a car cruising straight at 30 m/s: heat out dominates; the heat the tyres
 * lose equals the convection law's (plus road conduction) less the small heat in, within 1 %. */
static void energy_balance_cooling(void) {
  for (int k = 0; k < STEP_SIZES; ++k) {
    double dt = step_sizes[k];
    grip_vehicle_def car = car_with_tyre_state();
    car.tyre_state.initial_temperature = 373.15;
    grip_vehicle_id id;
    grip_world *world = sim_start_rolling(&car, &id, 30.0);
    if (!world) return;
    grip_vehicle_state s0, s1;
    grip_vehicle_get_state(world, id, &s0);
    double u0 = stored_heat(&car.tyre_state, &s0);
    balance b = {0};
    sim_speed_control sc = {0};
    grip_vehicle_input in = grip_default_vehicle_input();
    int n = (int)lround(60.0 / dt);
    for (int step = 0; step < n; ++step) {
      sim_control_speed(&sc, &in, s0.speed, 30.0, dt);
      grip_vehicle_set_input(world, id, &in);
      grip_world_step(world, dt);
      grip_vehicle_get_state(world, id, &s1);
      account(&car, &s0, &s1, dt, &b);
      s0 = s1;
    }
    double lost = -(stored_heat(&car.tyre_state, &s1) - u0);
    printf("  dt %.3f: lost %.1f kJ, convection + road %.1f kJ, heat in %.1f kJ, surface %.1f K\n", dt, 1e-3 * lost,
           1e-3 * b.heat_out, 1e-3 * b.heat_in, s1.wheels[0].tyre_surface_temperature);
    CHECK(lost > 0.5 * b.heat_out);
    CHECK(fabs(lost + b.heat_in - b.heat_out) <= 0.01 * b.heat_out);
    grip_destroy_world(world);
  }
}

/* A steady circle (20 m/s, steering held): after the transients the temperatures are those of the
 * node network's steady state, solved here in closed form from the mean heat inputs of the last
 * 20 s. With nothing but the carcass between it and the gas, the gas reaches the carcass
 * temperature; the carcass sits above the surface by its own heat over G_sc; all the heat leaves
 * from the surface:
 *   (G_a + G_r)·T_s = P_s + P_c + G_a·T_air + G_r·T_road,  T_c = T_s + P_c/G_sc,  T_g = T_c.
 * The carcass's heat capacity is lowered to 3000 J/K so that it settles within the run (the
 * steady state does not depend on the capacities). */
static void steady_circle(void) {
  for (int k = 0; k < STEP_SIZES; ++k) {
    double dt = step_sizes[k];
    grip_vehicle_def car = car_with_tyre_state();
    car.tyre_state.carcass_heat_capacity = 3000.0;
    const grip_tyre_state_def *d = &car.tyre_state;
    grip_vehicle_id id;
    grip_world *world = sim_start_rolling(&car, &id, 20.0);
    if (!world) return;
    grip_vehicle_state s0, s1;
    grip_vehicle_get_state(world, id, &s0);
    sim_speed_control sc = {0};
    grip_vehicle_input in = grip_default_vehicle_input();
    in.steering = 0.1;
    const double total = 1500.0, window = 20.0;
    int n = (int)lround(total / dt), averaged = 0;
    double slide_sum[4] = {0}, roll_sum[4] = {0}, g_air_sum = 0.0;
    for (int step = 0; step < n; ++step) {
      sim_control_speed(&sc, &in, s0.speed, 20.0, dt);
      grip_vehicle_set_input(world, id, &in);
      grip_world_step(world, dt);
      grip_vehicle_get_state(world, id, &s1);
      if ((step + 1) * dt > total - window) {
        double slide[4], roll[4];
        heat_inputs(&car, &s0, &s1, slide, roll);
        double v = sqrt(s0.linear_velocity.x * s0.linear_velocity.x + s0.linear_velocity.y * s0.linear_velocity.y);
        g_air_sum += air_conductance(d, v);
        for (int i = 0; i < 4; ++i) slide_sum[i] += slide[i], roll_sum[i] += roll[i];
        averaged++;
      }
      s0 = s1;
    }
    double g_air = g_air_sum / averaged, g_r = d->road_conductance, q = d->rolling_loss_to_surface;
    printf("  dt %.3f: lateral %.3f g, G_air %.2f W/K\n", dt, s1.speed * sim_yaw_rate(&s1) / 9.81, g_air);
    for (int i = 0; i < 4; ++i) {
      double slide = slide_sum[i] / averaged, roll = roll_sum[i] / averaged;
      double p_s = slide + q * roll, p_c = (1.0 - q) * roll;
      double ts = (p_s + p_c + g_air * d->air_temperature + g_r * d->road_temperature) / (g_air + g_r);
      double tc = ts + p_c / d->surface_carcass_conductance;
      const grip_wheel_state *w = &s1.wheels[i];
      printf("    wheel %d: sliding %.0f W, rolling %.0f W; surface %.3f K (closed form %.3f), carcass %.3f (%.3f), "
             "gas %.3f (%.3f)\n",
             i, slide, roll, w->tyre_surface_temperature, ts, w->tyre_carcass_temperature, tc, w->tyre_gas_temperature,
             tc);
      CHECK(ts > d->air_temperature + 5.0); /* a real temperature rise to check */
      CHECK_NEAR(w->tyre_surface_temperature, ts, 0.05 + 0.002 * (ts - d->air_temperature));
      CHECK_NEAR(w->tyre_carcass_temperature, tc, 0.05 + 0.002 * (tc - d->air_temperature));
      CHECK_NEAR(w->tyre_gas_temperature, tc, 0.05 + 0.002 * (tc - d->air_temperature));
    }
    grip_destroy_world(world);
  }
}

/* Skidpad (50 m) with the tyres held at a temperature (heat capacities at the 1e7 J/K limit: they
 * warm by hundredths of a kelvin over the run): at 20 °C, 60 K under the window's optimum, the limit
 * lateral acceleration is that at the optimum times the window's factor
 * floor + (1 − floor)·exp(−(60/45)²) = 0.8754 (the built-in car has no downforce, so its limit
 * scales with mu), within 0.015. What is left (the measured ratio is 0.887) is the tyres' load
 * sensitivity: at the lower limit less load moves to the outer wheels, which lose less mu to it
 * (with load_sensitivity 0 the ratio is 0.878 at dt 0.002). */
static void cold_skidpad(void) {
  const double dts[] = {0.002, 0.01};
  for (int k = 0; k < 2; ++k) {
    double g[2];
    grip_vehicle_def car = car_with_tyre_state();
    grip_tyre_state_def *d = &car.tyre_state;
    d->surface_heat_capacity = d->carcass_heat_capacity = 1e7;
    d->gas_heat_capacity = 1e6;
    d->wear_rate = 0.0;
    double temps[2] = {d->optimum_temperature, d->optimum_temperature - 60.0};
    for (int c = 0; c < 2; ++c) {
      d->initial_temperature = temps[c];
      g[c] = sim_skidpad(&car, 50.0, dts[k]).max_lateral_g;
    }
    double x = 60.0 / d->window_width;
    double factor = d->window_floor + (1.0 - d->window_floor) * exp(-x * x);
    grip_vehicle_def plain = grip_default_vehicle_def();
    double g_off = sim_skidpad(&plain, 50.0, dts[k]).max_lateral_g;
    printf("  dt %.3f: warm %.4f g, cold %.4f g, ratio %.4f (window factor %.4f); tyre state off %.4f g\n", dts[k], g[0],
           g[1], g[1] / g[0], factor, g_off);
    CHECK_NEAR(g[1] / g[0], factor, 0.015);
    CHECK_NEAR(g[0], g_off, 0.005 * g_off); /* at the optimum the tyres grip as without the model */
  }
}

/* A full MF tyre (MF 6.2 test file, PPY1 0.42, PPX3 −0.058…) sees the gas pressure: with the gas
 * held at 330 K (no conductance to it) the car drives exactly as the same car without the tyre
 * state whose .tir inflation pressure is the ideal-gas pressure at 330 K, and differently from
 * one at the file's own pressure. */
static void mf_pressure(void) {
  static grip_mf_params tir, tir_hot;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_tir_load(GRIP_SOURCE_DIR "/tests/data/mfeval/MagicFormula62_Paramerters.tir", &tir, &err) == 0);
  double t_gas = 330.0;
  double p_expected = (tir.INFLPRES + P_ATM) * t_gas / 293.15 - P_ATM;
  tir_hot = tir;
  tir_hot.INFLPRES = p_expected;
  grip_vehicle_state final[3];
  for (int c = 0; c < 3; ++c) {
    grip_vehicle_def car = grip_default_vehicle_def();
    for (int a = 0; a < 2; ++a) {
      car.axles[a].tyre.model = GRIP_TYRE_FULL_MF;
      car.axles[a].tyre.mf = c == 1 ? &tir_hot : &tir;
    }
    if (c == 0) {
      car.tyre_state = grip_default_tyre_state_def();
      car.tyre_state.enabled = true;
      car.tyre_state.initial_temperature = t_gas;
      car.tyre_state.carcass_gas_conductance = 0.0;
      car.tyre_state.window_floor = 1.0;
      car.tyre_state.wear_rate = 0.0;
    }
    grip_vehicle_id id;
    grip_world *world = sim_start_rolling(&car, &id, 20.0);
    if (!world) return;
    grip_vehicle_input in = grip_default_vehicle_input();
    in.steering = 0.3;
    in.throttle = 0.2;
    for (int step = 0; step < 5000; ++step) {
      grip_vehicle_set_input(world, id, &in);
      grip_world_step(world, 0.002);
    }
    grip_vehicle_get_state(world, id, &final[c]);
    grip_destroy_world(world);
  }
  printf("  pressure %.1f kPa (ideal gas %.1f kPa at %.0f K); yaw rate %.6f rad/s (same pressure without the model "
         "%.6f, at the file's %.0f kPa %.6f)\n",
         1e-3 * final[0].wheels[0].tyre_pressure, 1e-3 * p_expected, t_gas, sim_yaw_rate(&final[0]),
         sim_yaw_rate(&final[1]), 1e-3 * tir.INFLPRES, sim_yaw_rate(&final[2]));
  CHECK_NEAR(final[0].wheels[0].tyre_pressure, p_expected, 1e-6);
  CHECK_NEAR(final[0].wheels[0].tyre_gas_temperature, t_gas, 1e-9);
  CHECK_NEAR(final[0].center_of_mass.x, final[1].center_of_mass.x, 1e-6);
  CHECK_NEAR(final[0].center_of_mass.y, final[1].center_of_mass.y, 1e-6);
  CHECK_NEAR(sim_yaw_rate(&final[0]), sim_yaw_rate(&final[1]), 1e-7);
  CHECK(fabs(sim_yaw_rate(&final[0]) - sim_yaw_rate(&final[2])) > 1e-4);
}

/* Off (the default): the neutral state is reported and nothing is integrated. */
static void off_reports_neutral(void) {
  grip_vehicle_def car = grip_default_vehicle_def();
  CHECK(!car.tyre_state.enabled);
  grip_vehicle_id id;
  grip_world *world = sim_start_rolling(&car, &id, 20.0);
  if (!world) return;
  for (int step = 0; step < 100; ++step) grip_world_step(world, 0.01);
  grip_vehicle_state s;
  grip_vehicle_get_state(world, id, &s);
  for (int i = 0; i < 4; ++i) {
    CHECK(s.wheels[i].tyre_grip == 1.0);
    CHECK(s.wheels[i].tyre_surface_temperature == 0.0 && s.wheels[i].tread_depth == 0.0);
    CHECK(s.wheels[i].tyre_pressure == 0.0 && s.wheels[i].tyre_sliding_power == 0.0);
  }
  grip_destroy_world(world);
}

/* Deterministic: the same run twice gives the same state hash and the same temperatures bit for
 * bit; the tyre temperatures enter the hash (two cars that move alike, with a flat window and no
 * wear, but start at different tyre temperatures hash differently); a car with it off hashes the
 * same whatever its unused tyre-state parameters say. */
static uint64_t hash_run(const grip_vehicle_def *car, double *surface) {
  grip_vehicle_id id;
  grip_world *world = sim_start_rolling(car, &id, 20.0);
  if (!world) return 0;
  grip_vehicle_input in = grip_default_vehicle_input();
  in.steering = 0.2;
  in.throttle = 0.4;
  grip_vehicle_set_input(world, id, &in);
  for (int step = 0; step < 3000; ++step) grip_world_step(world, 0.005);
  grip_vehicle_state s;
  grip_vehicle_get_state(world, id, &s);
  *surface = s.wheels[1].tyre_surface_temperature;
  uint64_t h = grip_world_state_hash(world);
  grip_destroy_world(world);
  return h;
}

static void deterministic(void) {
  grip_vehicle_def on = car_with_tyre_state();
  double t1, t2, t3;
  uint64_t a = hash_run(&on, &t1), b = hash_run(&on, &t2);
  CHECK(a == b);
  CHECK(memcmp(&t1, &t2, sizeof t1) == 0);
  /* Same motion (window flat, no wear), different tyre temperatures: different hashes. */
  grip_vehicle_def flat = on;
  flat.tyre_state.window_floor = 1.0;
  flat.tyre_state.wear_rate = 0.0;
  grip_vehicle_def flat_warm = flat;
  flat_warm.tyre_state.initial_temperature = 330.0;
  uint64_t c = hash_run(&flat, &t1), d = hash_run(&flat_warm, &t3);
  CHECK(c != d && t1 != t3);
  /* Off: the hash of the built-in car, whatever the (unused) tyre-state parameters say. */
  grip_vehicle_def off = grip_default_vehicle_def(), off_odd = off;
  off_odd.tyre_state.initial_temperature = 400.0;
  off_odd.tyre_state.wear_rate = 1e-9;
  CHECK(hash_run(&off, &t1) == hash_run(&off_odd, &t2));
}

/* 30 laps of the built-in track by one robot, fuel off, temperature window flat (floor 1: wear
 * alone changes the grip) and a racing-compound wear rate (0.4 mm³/J) so that a good part of the
 * tread goes. The wear law gives the grip at each lap's end from the tread depth:
 * mu/mu0 = 1 − loss·(1 − d/d0). A lap dominated by corners taken at the friction limit scales as
 * time ∝ mu^(−1/2) (v = sqrt(mu·g·R)); straights lose less, so the lap-time rise from lap 2 to
 * lap 30 is predicted between 0.25 and 0.5 times the relative grip loss, i.e. half the
 * corner-limited figure to all of it; checked to that order. */
static void race_wear(void) {
  grip_track *track = NULL;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_track_open("default", &track, NULL, 0, &err) == 0);
  if (!track) return;
  for (int k = 0; k < STEP_SIZES; ++k) {
    double dt = step_sizes[k];
    grip_vehicle_def car = car_with_tyre_state();
    car.tyre_state.window_floor = 1.0;
    car.tyre_state.wear_rate = 0.4e-9;
    car.tyre_state.wear_grip_loss = 0.3;
    race_config cfg = race_default_config();
    cfg.track = track;
    cfg.car = &car;
    cfg.laps = 30;
    cfg.dt = dt;
    cfg.no_fuel = true;
    race_result res;
    CHECK(race_run(&cfg, &res) == 0);
    const race_car_result *r = &res.results[0];
    CHECK(r->finished && r->laps == 30 && r->tyre_state);
    if (!r->finished || r->laps < 30) {
      race_result_free(&res);
      continue;
    }
    const grip_tyre_state_def *d = &car.tyre_state;
    double mu2 = 1.0 - d->wear_grip_loss * (1.0 - r->lap_tread_depth[0] / d->tread_depth); /* at lap 2's start */
    double mu30 = 1.0 - d->wear_grip_loss * (1.0 - r->lap_tread_depth[28] / d->tread_depth);
    double grip_loss = 1.0 - mu30 / mu2;
    double corner_limited = sqrt(mu2 / mu30) - 1.0;
    double rise = r->lap_times[29] / r->lap_times[1] - 1.0;
    printf("  dt %.3f: tread %.2f -> %.2f mm, grip %.4f -> %.4f (-%.2f %%); lap 2 %.3f s, lap 30 %.3f s: +%.2f %% "
           "(predicted +%.2f .. +%.2f %%), off track %.1f s\n",
           dt, 1e3 * r->lap_tread_depth[0], 1e3 * r->lap_tread_depth[28], r->lap_tyre_grip[0], r->lap_tyre_grip[28],
           100.0 * grip_loss, r->lap_times[1], r->lap_times[29], 100.0 * rise, 50.0 * grip_loss,
           100.0 * corner_limited, r->off_track_s);
    /* The reported grip factor is the wear law's. */
    CHECK_NEAR(r->lap_tyre_grip[28], mu30, 0.002);
    CHECK(grip_loss > 0.05);
    CHECK(rise >= 0.5 * 0.5 * grip_loss && rise <= 1.5 * corner_limited);
    race_result_free(&res);
  }
  grip_track_destroy(track);
}

/* Runs every test, or only those named on the command line. */
static int selected(int argc, char **argv, const char *name) {
  if (argc < 2) return 1;
  for (int i = 1; i < argc; ++i)
    if (strcmp(argv[i], name) == 0) return 1;
  return 0;
}
#define RUN_SELECTED(fn) \
  do {                     \
    if (selected(argc, argv, #fn)) RUN_TEST(fn); \
  } while (0)

int main(int argc, char **argv) {
  RUN_SELECTED(off_reports_neutral);
  RUN_SELECTED(energy_balance_driving);
  RUN_SELECTED(energy_balance_cooling);
  RUN_SELECTED(steady_circle);
  RUN_SELECTED(mf_pressure);
  RUN_SELECTED(cold_skidpad);
  RUN_SELECTED(deterministic);
  RUN_SELECTED(race_wear);
  return TEST_RESULT();
}
