/* Engine: the crank torque in a step, from the full-throttle torque curve, the throttle map to
 * engine braking, the idle governor and the rev limiter. Inline: the drivetrain's step (and its
 * AVX2 copy, src/isa.h) asks for it every step. The curve's set-up is in engine.c. Not public. */
#ifndef GRIP_ENGINE_H
#define GRIP_ENGINE_H

#include "gmath.h"
#include "grip/grip.h"

typedef struct engine_output {
  double torque;           /* N·m at the crank */
  double effective_throttle; /* 0..1 after governor and limiter */
} engine_output;

/* The torque curve at rpm, linear between its points (which increase) and flat beyond them.
 * *piece: the piece found last time (i: between points i − 1 and i), tried first; rpm moves
 * little from one step to the next. Any value is safe: the piece is checked before use, and
 * the result is the same whichever piece was guessed. */
static inline double engine_curve_torque_from(const grip_engine_def *e, double rpm, int *piece) {
  int n = e->curve_points;
  if (n <= 0) return 0.0;
  if (rpm <= e->curve_rpm[0]) return e->curve_torque[0];
  if (rpm >= e->curve_rpm[n - 1]) return e->curve_torque[n - 1];
  /* The piece: the first i >= 1 with rpm <= curve_rpm[i] (the last point lies above rpm here;
   * a NaN rpm gives 1). */
  int i = *piece;
  if (!(i >= 1 && i < n && e->curve_rpm[i - 1] < rpm && rpm <= e->curve_rpm[i])) {
    /* by halving, without branches: a TORCS engine has ~20 points */
    const double *first = &e->curve_rpm[1];
    for (int len = n - 1; len > 1;) {
      int half = len / 2;
      first = first[half - 1] < rpm ? first + half : first;
      len -= half;
    }
    i = (int)(first - e->curve_rpm);
    *piece = i;
  }
  double t = (rpm - e->curve_rpm[i - 1]) / (e->curve_rpm[i] - e->curve_rpm[i - 1]);
  return e->curve_torque[i - 1] + t * (e->curve_torque[i] - e->curve_torque[i - 1]);
}

/* Idle governor gain: throttle added per unit of relative speed deficit below idle. With 10, the
 * engine settles about 1 % under idle_rpm (docs/physics.md). */
#define IDLE_GOVERNOR_GAIN 10.0

/* Crank torque at engine speed omega (rad/s) for a throttle 0..1, with the idle governor and
 * the rev limiter applied. *piece: where the torque curve's look-up starts (the vehicle's
 * engine_curve_piece; any value gives the same result). */
static inline engine_output grip_engine_torque(const grip_engine_def *e, double omega, double throttle,
                                               int *piece) {
  double rpm = omega * RAD_PER_S_TO_RPM;
  double governor = clampd(IDLE_GOVERNOR_GAIN * (e->idle_rpm - rpm) / e->idle_rpm, 0.0, 1.0);
  double thr = maxd(throttle, governor);
  if (rpm >= e->rev_limit_rpm) thr = 0.0; /* fuel cut */
  double full = engine_curve_torque_from(e, rpm, piece);
  double braking = rpm > 0.0 ? -(e->brake_torque + e->brake_torque_per_rpm * rpm) : 0.0;
  return (engine_output){.torque = thr * full + (1.0 - thr) * braking, .effective_throttle = thr};
}

#endif
