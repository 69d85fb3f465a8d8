/* Engine: the torque curve's public look-up and its making from parameters; the crank torque a
 * step asks for (throttle map, idle governor, rev limiter) is inline in engine.h. */
#include <math.h>

#include "engine.h"
#include "gmath.h"

double grip_engine_curve_torque(const grip_engine_def *e, double rpm) {
  int piece = 0;
  return engine_curve_torque_from(e, rpm, &piece);
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
