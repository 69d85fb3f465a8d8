/* Torque at the steering wheel (force feedback), from the steered tyres' forces.
 *
 * Each steered wheel turns about its steering axis, which meets the ground a mechanical trail
 * t_m ahead of the contact patch centre. About that axis the tyre's lateral force Fy (wheel
 * frame, + left) acting at the patch centre gives −t_m·Fy, and its aligning moment Mz adds
 * directly (Mz = −t_p·Fy in the linear range, t_p the pneumatic trail), so the kingpin moment is
 *   M_kp = Σ_steered (Mz_i − t_m·Fy_i)          (positive turns the road wheels to the left).
 * Through a rack of ratio r = steering-wheel angle / road-wheel angle, virtual work
 * (T·dθ = M·dδ, dθ = r·dδ) gives T_wheel = M_kp / r. The column adds viscous damping and a
 * regularised Coulomb friction against the steering wheel's angular velocity ω (rad/s):
 *   T = M_kp / r − c·ω − T_f·tanh(ω / ω_f),   ω_f = 0.05 rad/s,
 * so a still wheel (a parked car, steady cornering) feels no friction term at all: friction
 * only resists motion, it never pushes. Ackermann's unequal wheel rates and the game aids
 * (speed-sensitive reduction, steering assist) are left out: they are not in a real column. */
#ifndef GRIP_STEERING_TORQUE_H
#define GRIP_STEERING_TORQUE_H

#include <math.h>

#include "grip/grip.h"

/* The kingpin moment (N·m, + turns the road wheels left) with one more steered wheel in
 * contact added: its aligning moment mz (N·m) less the mechanical trail times its lateral force
 * fy (N); see above. */
static inline double grip_steering_kingpin_moment(const grip_steering_def *steering, double kingpin, double fy,
                                                  double mz) {
  return kingpin + (mz - steering->mechanical_trail * fy);
}

/* rad/s, the steering-wheel speed over which the friction torque reaches 76 % (tanh 1). */
#define COLUMN_FRICTION_SPEED 0.05

/* N·m at the steering wheel (+ turns it left) from the kingpin moment of the steered wheels in
 * contact (N·m, grip_steering_kingpin_moment) and the steering wheel's angular velocity (rad/s).
 * Finite always (0 when it would not be). Inline: the vehicle step asks for it every step. */
static inline double grip_steering_wheel_torque(const grip_steering_def *steering, double kingpin,
                                                double wheel_rate) {
  /* A still wheel (a steady input) skips tanh: tanh(±0) is ±0, the same bits. */
  double x = wheel_rate / COLUMN_FRICTION_SPEED;
  double torque = kingpin / steering->ratio - steering->column_damping * wheel_rate -
                  steering->column_friction * (x == 0.0 ? x : tanh(x));
  return isfinite(torque) ? torque : 0.0;
}

#endif
