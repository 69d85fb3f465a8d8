/* Standard handling manoeuvres on flat ground: steady-state circle, ISO 4138-style skidpad,
 * ISO 7401-style step steer, and the linear bicycle model they are compared with. */
#ifndef GRIP_CORNERING_H
#define GRIP_CORNERING_H

#include "grip/grip.h"

/* Constant speed and constant steering-wheel angle, held until steady. Angles in degrees,
 * signed (ISO 8855: a left turn has positive yaw rate and negative slip angles). */
typedef struct steady_result {
  double radius_m;              /* path radius of the centre of mass, v / yaw rate */
  double front_axle_radius_m;   /* path radius of the front axle's midpoint */
  double wheelbase_m;
  double road_wheel_angle_deg;  /* mean of the steered wheels */
  double yaw_rate_dps;
  double lateral_g;             /* v·yaw rate / g */
  double slip_angle_front_deg;  /* mean of the front tyres */
  double slip_angle_rear_deg;   /* mean of the rear tyres */
  double body_slip_deg;         /* atan(v_y / v_x) at the centre of mass */
  double roll_deg;              /* body roll, positive = right side down (about +x) */
  double speed_kmh;             /* speed actually held */
  double steering_torque_nm;    /* torque at the steering wheel (grip_vehicle_state), + = to the left */
  bool steady;                  /* reached a steady state before the time limit */
} steady_result;

steady_result sim_steady(const grip_vehicle_def *car, double speed_kmh, double steer_wheel_deg, double dt);

/* The same, also giving the vehicle's state at the end (final may be NULL). */
steady_result sim_steady_state(const grip_vehicle_def *car, double speed_kmh, double steer_wheel_deg, double dt,
                               grip_vehicle_state *final);

typedef struct skidpad_result {
  double max_lateral_g;
  double understeer_gradient_deg_per_g;         /* slope of road-wheel angle vs a_y, 0.2–0.3 g */
  /* Single-track (bicycle) model over the same band, solved with the car's static axle loads,
   * its tyres' lateral curves and pneumatic trails (no differential, no Ackermann, no load
   * transfer: those are what the full model adds). */
  double bicycle_understeer_gradient_deg_per_g;
  /* The classic linear bicycle model: cornering stiffness at zero slip, no trail. */
  double linear_bicycle_understeer_gradient_deg_per_g;
  /* "understeer", "oversteer" or "rollover" (a wheel left the ground and stayed up 0.2 s: a
   * three-wheeler tips before it slides) */
  const char *limit_behaviour;
  double wheel_lift_g;                          /* a_y (g) where that wheel lifted; NAN otherwise */
  double limit_speed_kmh;                       /* speed at the maximum lateral acceleration */
  int samples_linear;                           /* samples in the 0.2–0.3 g fit */
} skidpad_result;

skidpad_result sim_skidpad(const grip_vehicle_def *car, double radius, double dt);

/* The same with the understeer gradient fitted over [band_low_g, band_high_g]. */
skidpad_result sim_skidpad_band(const grip_vehicle_def *car, double radius, double dt, double band_low_g,
                                double band_high_g);

/* One step of a skidpad run, for a trace (grip plot handling). */
typedef struct skidpad_sample {
  double time_s;
  double speed_kmh;
  double lateral_g;            /* v·yaw rate / g */
  double road_wheel_angle_deg; /* mean of the steered wheels */
  double radius_error_m;       /* centre of mass's distance from the circle, > 0 outside */
} skidpad_sample;
typedef void skidpad_trace_fn(const skidpad_sample *sample, void *context);

/* sim_skidpad_band that also calls trace (if not NULL) after every step. */
skidpad_result sim_skidpad_traced(const grip_vehicle_def *car, double radius, double dt, double band_low_g,
                                  double band_high_g, skidpad_trace_fn *trace, void *context);

typedef struct stepsteer_result {
  double yaw_rate_rise_time_s;  /* from 50 % of the steering input to 90 % of the steady yaw rate */
  double yaw_rate_overshoot_pct;
  double steady_yaw_rate_dps;
  double yaw_rate_peak_dps;
  /* Whether the response is a step response at all: the speed held within 5 % over the last
   * second, the yaw rate steady over it (within 5 % of its mean, and at least 0.5 deg/s), the
   * body slip below 15 deg throughout (the car did not spin) and the 90 % crossing after the
   * steering's 50 % point. When not, invalid_reason says which failed first, and the rise
   * time and overshoot are NAN. */
  bool valid;
  const char *invalid_reason; /* NULL when valid */
} stepsteer_result;

stepsteer_result sim_stepsteer(const grip_vehicle_def *car, double speed_kmh, double steer_wheel_deg, double dt);

/* Linear bicycle model: understeer gradient K = W_f/C_f − W_r/C_r (rad per g of lateral
 * acceleration) from the static axle loads and the tyres' cornering stiffness at those loads
 * (C = B·C·D of the lateral Magic Formula, per axle). */
double bicycle_understeer_gradient(const grip_vehicle_def *car, double gravity);

/* delta − L/R (rad) of the single-track model at a lateral acceleration (in g), with the tyres'
 * own lateral curves and pneumatic trail at static axle loads. */
double bicycle_steer_excess(const grip_vehicle_def *car, double lateral_g, double gravity);

/* Steady lateral acceleration (g) at which the first axle runs out of lateral friction on a
 * circle of the given radius (m): static loads plus each axle's downforce at that speed, lateral
 * load transfer shared by roll stiffness, tyre load sensitivity. No longitudinal force, camber,
 * differential or steering geometry: the full model's limit lies a few per cent below. */
double tyre_limit_lateral_g(const grip_vehicle_def *car, double radius, double gravity, double air_density);

/* Cornering stiffness of an axle (both tyres), N/rad, at its static load. */
double axle_cornering_stiffness(const grip_vehicle_def *car, int axle, double gravity);

#endif
