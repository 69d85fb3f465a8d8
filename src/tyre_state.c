/* Tyre temperature, pressure and wear (docs/physics.md §13).
 *
 * Each tyre is a lumped thermal network of three nodes: the tread surface (s), the carcass (c)
 * and the inflation gas (g), in a chain s — c — g, with the surface also coupled to the air
 * (convection, h = h0 + h1·v^n) and, while in contact, to the road (conduction):
 *
 *   C_s·dT_s/dt = P_s − G_sc·(T_s − T_c) − h·A·(T_s − T_air) − G_r·(T_s − T_road)
 *   C_c·dT_c/dt = P_c + G_sc·(T_s − T_c) − G_cg·(T_c − T_g)
 *   C_g·dT_g/dt =       G_cg·(T_c − T_g)
 *
 * P_s = P_slide + q·P_roll, P_c = (1 − q)·P_roll, with the sliding power
 * P_slide = |Fx·(ω·r − v_x)| + |Fy·v_y| (force times slip velocity at the contact, both
 * directions) and the rolling loss P_roll = f·Fz·|ω|·r (the rolling-resistance torque's power).
 * The network is integrated with backward Euler (a tridiagonal 3×3 solve per tyre): it is
 * unconditionally stable and keeps the temperatures between their drivers at any step, and its
 * discrete energy balance is exact: Σ C_i·ΔT_i = dt·(P_s + P_c − heat out at the new
 * temperatures).
 *
 * Pressure: the gas at constant volume, p_abs = p_abs,set·T_g/T_set (ideal gas), reported and
 * used as gauge pressure. Wear: the tread depth falls by wear_rate·P_slide·dt/A_tread
 * (Archard/Schallamach: abraded volume proportional to the frictional energy), A_tread = 2π·r·w.
 * Grip: a temperature window times a wear factor multiplies the tyre's friction. */
#include <math.h>
#include <string.h>

#include "gmath.h"
#include "vehicle_internal.h"

/* Pa, standard atmosphere: absolute = gauge + this. */
#define ATMOSPHERIC_PRESSURE 101325.0
/* Pa, gauge pressure of a simple tyre whose definition gives none (it has no pressure term). */
#define SIMPLE_TYRE_PRESSURE 220000.0

grip_tyre_state_def grip_default_tyre_state_def(void) {
  grip_tyre_state_def d;
  memset(&d, 0, sizeof d); /* no padding bytes left undefined: car types compare definitions bytewise */
  d.enabled = false;
  d.initial_temperature = 293.15;
  d.air_temperature = 293.15;
  d.road_temperature = 303.15;
  d.surface_heat_capacity = 1200.0;
  d.carcass_heat_capacity = 14000.0;
  d.gas_heat_capacity = 80.0;
  d.surface_carcass_conductance = 30.0;
  d.carcass_gas_conductance = 25.0;
  d.road_conductance = 15.0;
  d.convection_area = 0.6;
  d.convection_h0 = 5.7;
  d.convection_h1 = 7.9;
  d.convection_exponent = 0.8;
  d.rolling_loss_to_surface = 0.3;
  d.optimum_temperature = 353.15;
  d.window_width = 45.0;
  d.window_floor = 0.85;
  d.pressure = 0.0;
  d.pressure_temperature = 293.15;
  d.tread_depth = 0.008;
  d.wear_rate = 2e-11;
  d.wear_grip_loss = 0.15;
  return d;
}

double grip_tyre_temperature_grip(const grip_tyre_state_def *d, double t) {
  double x = (t - d->optimum_temperature) / d->window_width;
  return d->window_floor + (1.0 - d->window_floor) * exp(-x * x);
}

double grip_tyre_wear_grip(const grip_tyre_state_def *d, double depth) {
  double worn = 1.0 - clampd(depth / d->tread_depth, 0.0, 1.0);
  return 1.0 - d->wear_grip_loss * worn;
}

void grip_tyre_state_type_init(vehicle_type *t) {
  const grip_vehicle_def *d = &t->def;
  t->tyre_state_on = d->tyre_state.enabled;
  for (int a = 0; a < t->axle_count; ++a) {
    t->tread_area[a] = 2.0 * GRIP_PI * d->axles[a].wheel_radius * d->axles[a].wheel_width;
    double p = d->tyre_state.pressure;
    if (!(p > 0.0)) p = t->mf[a] ? t->mf[a]->INFLPRES : SIMPLE_TYRE_PRESSURE;
    t->set_pressure[a] = p;
  }
}

/* Pressure and grip factor from the wheel's current temperatures and depth. */
static void derive(const vehicle *v, tyre_runtime *w, int axle) {
  const grip_tyre_state_def *d = &v->def->tyre_state;
  double set_abs = v->type->set_pressure[axle] + ATMOSPHERIC_PRESSURE;
  w->pressure = set_abs * (w->temp_gas / d->pressure_temperature) - ATMOSPHERIC_PRESSURE;
  w->tyre_grip = grip_tyre_temperature_grip(d, w->temp_surface) * grip_tyre_wear_grip(d, w->tread_depth);
}

void grip_tyre_state_init(vehicle *v) {
  const grip_tyre_state_def *d = &v->def->tyre_state;
  if (!v->type->tyre_state_on) return; /* (a car without it has no tyre_runtime) */
  for (int i = 0; i < v->wheel_count; ++i) {
    tyre_runtime *w = &v->tyres[i];
    w->sliding_power = 0.0;
    w->temp_surface = w->temp_carcass = w->temp_gas = d->initial_temperature;
    w->tread_depth = d->tread_depth;
    derive(v, w, v->type->wheels[i].axle);
  }
}

void grip_tyre_state_step(vehicle *v, const wheel_scratch *sc, double dt) {
  const grip_tyre_state_def *d = &v->def->tyre_state;
  /* Air speed over the tyres: the car's (still air), at the start of the step. */
  double speed = v3_length(v->velocity);
  double h = d->convection_h0 + d->convection_h1 * pow(speed, d->convection_exponent);
  double g_air = h * d->convection_area;
  double inv_dt = 1.0 / dt;
  double a_s = d->surface_heat_capacity * inv_dt;
  double a_c = d->carcass_heat_capacity * inv_dt;
  double a_g = d->gas_heat_capacity * inv_dt;
  double g_sc = d->surface_carcass_conductance, g_cg = d->carcass_gas_conductance;
  /* The gas row eliminated: T_g' = (a_g·T_g + G_cg·T_c')/(a_g + G_cg); the carcass then sees the
   * gas as a conductance G_cg·a_g/(a_g + G_cg) to the gas's old temperature. */
  double inv_gas = 1.0 / (a_g + g_cg);
  double g_cg_eff = g_cg * a_g * inv_gas;
  double q = d->rolling_loss_to_surface;
  for (int i = 0; i < v->wheel_count; ++i) {
    const wheel_runtime *w = &v->wheels[i];
    tyre_runtime *tyre = &v->tyres[i];
    const wheel_config *c = &v->type->wheels[i];
    double p_slide = 0.0, p_roll = 0.0, g_road = 0.0;
    if (w->in_contact) {
      const grip_tyre_def *t = &v->def->axles[c->axle].tyre;
      p_slide = fabs(w->fx * (w->spin * c->radius - sc->vx[i])) + fabs(w->fy * sc->vy[i]);
      p_roll = t->rolling_resistance * w->surface_rolling_resistance * w->load * fabs(w->spin) * c->radius;
      if (!isfinite(p_slide)) p_slide = 0.0;
      if (!isfinite(p_roll)) p_roll = 0.0;
      g_road = d->road_conductance;
    }
    tyre->sliding_power = p_slide;
    double p_s = p_slide + q * p_roll, p_c = (1.0 - q) * p_roll;
    /* Surface and carcass rows:
     *   ss·T_s' − G_sc·T_c' = rs,   −G_sc·T_s' + cc·T_c' = rc */
    double ss = a_s + g_sc + g_air + g_road;
    double rs = a_s * tyre->temp_surface + p_s + g_air * d->air_temperature + g_road * d->road_temperature;
    double cc = a_c + g_sc + g_cg_eff;
    double rc = a_c * tyre->temp_carcass + p_c + g_cg_eff * tyre->temp_gas;
    double inv_det = 1.0 / (ss * cc - g_sc * g_sc);
    double ts = (rs * cc + g_sc * rc) * inv_det;
    double tc = (ss * rc + g_sc * rs) * inv_det;
    tyre->temp_gas = (a_g * tyre->temp_gas + g_cg * tc) * inv_gas;
    tyre->temp_surface = ts;
    tyre->temp_carcass = tc;
    tyre->tread_depth = maxd(0.0, tyre->tread_depth - d->wear_rate * p_slide * dt / v->type->tread_area[c->axle]);
    derive(v, tyre, c->axle);
  }
}
