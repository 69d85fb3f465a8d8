/* Internal vector and quaternion helpers (header-only, inlined). */
#ifndef GRIP_GMATH_H
#define GRIP_GMATH_H

#include <math.h>
#include <stdbool.h>

#include "grip/types.h"

#define GRIP_PI 3.14159265358979323846
#define RPM_TO_RAD_PER_S (2.0 * GRIP_PI / 60.0)
#define RAD_PER_S_TO_RPM (60.0 / (2.0 * GRIP_PI))

static inline grip_vec3 v3(double x, double y, double z) { return (grip_vec3){x, y, z}; }
static inline grip_vec3 v3_add(grip_vec3 a, grip_vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline grip_vec3 v3_sub(grip_vec3 a, grip_vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline grip_vec3 v3_scale(grip_vec3 a, double s) { return v3(a.x * s, a.y * s, a.z * s); }
static inline grip_vec3 v3_mad(grip_vec3 a, grip_vec3 b, double s) {
  return v3(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s);
}
static inline double v3_dot(grip_vec3 a, grip_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline grip_vec3 v3_cross(grip_vec3 a, grip_vec3 b) {
  return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double v3_length(grip_vec3 a) { return sqrt(v3_dot(a, a)); }
static inline grip_vec3 v3_normalize(grip_vec3 a) {
  double l = v3_length(a);
  return l > 0.0 ? v3_scale(a, 1.0 / l) : v3(0.0, 0.0, 1.0);
}
static inline bool finite3_ok(grip_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
static inline grip_vec3 v3_neg(grip_vec3 a) { return v3(-a.x, -a.y, -a.z); }

static inline grip_quat quat_identity(void) { return (grip_quat){1.0, 0.0, 0.0, 0.0}; }
static inline grip_quat quat_mul(grip_quat a, grip_quat b) {
  return (grip_quat){a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                     a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                     a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                     a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}
static inline grip_quat quat_normalize(grip_quat q) {
  double n = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
  if (!(n > 0.0)) return quat_identity();
  double s = 1.0 / n;
  return (grip_quat){q.w * s, q.x * s, q.y * s, q.z * s};
}
static inline grip_quat quat_from_axis_angle(grip_vec3 axis, double angle) {
  double s = sin(0.5 * angle);
  return (grip_quat){cos(0.5 * angle), axis.x * s, axis.y * s, axis.z * s};
}
/* Rotates v by q (vehicle -> world when q is a body's rotation). */
static inline grip_vec3 quat_rotate(grip_quat q, grip_vec3 v) {
  grip_vec3 u = v3(q.x, q.y, q.z);
  grip_vec3 t = v3_scale(v3_cross(u, v), 2.0);
  return v3_add(v3_add(v, v3_scale(t, q.w)), v3_cross(u, t));
}
/* Rotates v by the inverse of q (world -> vehicle). */
static inline grip_vec3 quat_unrotate(grip_quat q, grip_vec3 v) {
  grip_quat c = {q.w, -q.x, -q.y, -q.z};
  return quat_rotate(c, v);
}

static inline double clampd(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }
static inline double signd(double x) { return (x > 0.0) - (x < 0.0); }
static inline double mind(double a, double b) { return a < b ? a : b; }
static inline double maxd(double a, double b) { return a > b ? a : b; }

#endif
