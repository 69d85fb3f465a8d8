/* Engine: full-throttle torque curve, throttle map to engine braking, idle governor and
 * rev limiter. */
#include <math.h>

#include "gmath.h"
#include "vehicle_internal.h"


/* The torque curve at rpm, linear between its points (which increase) and flat beyond them.
 * *piece: the piece found last time (i: between points i − 1 and i), tried first; rpm moves
 * little from one step to the next. Any value is safe: the piece is checked before use, and
 * the result is the same whichever piece was guessed. */
static double curve_torque_from(const grip_engine_def *e, double rpm, int *piece) {
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

double grip_engine_curve_torque(const grip_engine_def *e, double rpm) {
  int piece = 0;
  return curve_torque_from(e, rpm, &piece);
}

grip_result grip_engine_curve_from_params(grip_engine_def *e, const grip_torque_curve_params *p,
                                          int points) {
  if (!e || !p || points < 2 || points > GRIP_MAX_CURVE_POINTS || !(p->peak_torque > 0.0) ||
      !(p->peak_rpm > 0.0) || !(p->width_low > 0.0) || !(p->width_high > 0.0) ||
      !(p->min_rpm >= 0.0) || !(p->max_rpm > p->min_rpm))
    return GRIP_INVALID_ARGUMENT;
  for (int i = 0; i < points; ++i) {
    double rpm = p->min_rpm + (p->max_rpm - p->min_rpm) * i / (points - 1);
    double w = rpm < p->peak_rpm ? p->width_low : p->width_high;
    double d = (rpm - p->peak_rpm) / w;
    e->curve_rpm[i] = rpm;
    e->curve_torque[i] = maxd(0.0, p->peak_torque * (1.0 - d * d));
  }
  e->curve_points = points;
  return GRIP_OK;
}

/* Idle governor gain: throttle added per unit of relative speed deficit below idle. With 10, the
 * engine settles about 1 % under idle_rpm (docs/physics.md). */
#define IDLE_GOVERNOR_GAIN 10.0

engine_output grip_engine_torque(const grip_engine_def *e, double omega, double throttle, int *piece) {
  double rpm = omega * RAD_PER_S_TO_RPM;
  double governor = clampd(IDLE_GOVERNOR_GAIN * (e->idle_rpm - rpm) / e->idle_rpm, 0.0, 1.0);
  double thr = maxd(throttle, governor);
  if (rpm >= e->rev_limit_rpm) thr = 0.0; /* fuel cut */
  double full = curve_torque_from(e, rpm, piece);
  double braking = rpm > 0.0 ? -(e->brake_torque + e->brake_torque_per_rpm * rpm) : 0.0;
  return (engine_output){.torque = thr * full + (1.0 - thr) * braking, .effective_throttle = thr};
}
