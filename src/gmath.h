/* Internal vector and quaternion helpers (header-only, inlined). */
#ifndef GRIP_GMATH_H
#define GRIP_GMATH_H

#include <math.h>
#include <stdbool.h>

#include "grip/types.h"

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

/* A rotation matrix (rows), built once per step from the body's quaternion: rotating a vector
 * with it costs 9 multiplies against ~30 for the quaternion form. */
typedef struct mat3 {
  grip_vec3 r0, r1, r2;
} mat3;

static inline mat3 mat3_from_quat(grip_quat q) {
  double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
  double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
  double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
  return (mat3){{1.0 - 2.0 * (yy + zz), 2.0 * (xy - wz), 2.0 * (xz + wy)},
                {2.0 * (xy + wz), 1.0 - 2.0 * (xx + zz), 2.0 * (yz - wx)},
                {2.0 * (xz - wy), 2.0 * (yz + wx), 1.0 - 2.0 * (xx + yy)}};
}
static inline grip_vec3 mat3_mul(const mat3 *m, grip_vec3 v) {
  return v3(v3_dot(m->r0, v), v3_dot(m->r1, v), v3_dot(m->r2, v));
}
static inline grip_vec3 mat3_mul_transposed(const mat3 *m, grip_vec3 v) {
  return v3(m->r0.x * v.x + m->r1.x * v.y + m->r2.x * v.z, m->r0.y * v.x + m->r1.y * v.y + m->r2.y * v.z,
            m->r0.z * v.x + m->r1.z * v.y + m->r2.z * v.z);
}
static inline grip_vec3 mat3_column(const mat3 *m, int c) {
  return c == 0 ? v3(m->r0.x, m->r1.x, m->r2.x) : c == 1 ? v3(m->r0.y, m->r1.y, m->r2.y) : v3(m->r0.z, m->r1.z, m->r2.z);
}

/* atan to ~1e-10 rad, several times cheaper than libm's. Range reduction: atan(x) =
 * π/2 − atan(1/x) for |x| > 1, then atan(x) = π/6 + atan((√3·x − 1)/(x + √3)) for
 * x > tan(π/12), leaving |t| <= 0.268 for the odd Taylor series up to t^15 (truncation error
 * < t^17/17 ≈ 1.1e-11). */
static inline double fast_atan(double x) {
  double sign = x < 0.0 ? -1.0 : 1.0;
  double a = x * sign;
  double offset = 0.0;
  bool inverted = a > 1.0;
  if (inverted) a = 1.0 / a;
  if (a > 0.2679491924311227) { /* tan(π/12) */
    a = (1.7320508075688772 * a - 1.0) / (a + 1.7320508075688772);
    offset = GRIP_PI / 6.0;
  }
  double t2 = a * a;
  double p = a * (1.0 + t2 * (-1.0 / 3 + t2 * (1.0 / 5 + t2 * (-1.0 / 7 + t2 * (1.0 / 9 + t2 * (-1.0 / 11 +
             t2 * (1.0 / 13 + t2 * (-1.0 / 15))))))));
  double r = offset + p;
  if (inverted) r = GRIP_PI / 2.0 - r;
  return sign * r;
}

/* atan_series, series_atan2 and series_sincos below are the track queries' trigonometry, to
 * within a few ulps. fast_atan and fast_sincos above are the tyres' and the steering's, to
 * ~1e-10 and ~1e-12 at fewer terms: a track's distance along an arc is its radius times an
 * angle (a 1e-10 rad error is 0.1 µm at 1 km), and its TORCS arcs keep the bits they had with
 * the series; the tyres' figures keep theirs with the short one.
 *
 * atan t for |t| <= 1/8 by its series t − t³/3 + t⁵/5 − … to t¹⁷: the first omitted term,
 * t¹⁹/19, is under 2e-18·|t|, so the sum is within an ulp or two of atan t. */
static inline double atan_series(double t) {
  double t2 = t * t;
  double p = -1.0 / 17.0;
  p = 1.0 / 15.0 + t2 * p;
  p = -1.0 / 13.0 + t2 * p;
  p = 1.0 / 11.0 + t2 * p;
  p = -1.0 / 9.0 + t2 * p;
  p = 1.0 / 7.0 + t2 * p;
  p = -1.0 / 5.0 + t2 * p;
  p = 1.0 / 3.0 + t2 * p;
  return t - t * t2 * p;
}

/* atan2(y, x) within 3 ulps with no call to libm (the track's queries: no trigonometry per
 * ray). Within 7.1° either side of +x (|y| <= x/8) it is atan_series(y/x). Elsewhere the vector
 * is folded exactly into the first octant, (m, n) with 0 <= n <= m, by taking |x| and |y| and
 * swapping them where |y| > |x|; there its angle a = atan(n/m) lies in [0, π/4], and the fold is
 * undone at the end (π/2 − a for a swap, π − a for x < 0, −a for y < 0). (m, n) is turned back
 * by the nearest multiple k·π/16, as (m + n·tk, n − m·tk) with tk = tan(k·π/16) (a turn and a
 * stretch by 1/cos, which leaves the angle alone), so that under π/32 is left for the series
 * (a tangent under 0.0985): a = k·π/16 + atan((n − m·tk)/(m + n·tk)). Zeros, infinities and NaN
 * go to libm, for its conventions, but for y = −0 with x > 0, which gives +0. */
static inline double series_atan2(double y, double x) {
  if (x > 0.0 && x < INFINITY && fabs(y) <= 0.125 * x) return atan_series(y / x);
  double ax = fabs(x), ay = fabs(y);
  bool swap = ay > ax;
  double m = swap ? ay : ax, n = swap ? ax : ay; /* 0 <= n <= m: the angle a = atan(n/m) */
  if (!(m > 0.0 && m < INFINITY)) return atan2(y, x);
  /* tangents of the bounds (2k+1)·π/32 between the multiples k·π/16, and of those multiples */
  static const double bound[3] = {0.3033466836073424, 0.5345111359507916, 0.8206787908286602};
  static const double tan_k[5] = {0.0, 0.19891236737965800, 0.41421356237309505, 0.66817863791929892, 1.0};
  static const double angle_k[5] = {0.0, 0.19634954084936207, 0.39269908169872414, 0.5890486225480862,
                                    0.7853981633974483};
  int k = 0;
  if (n > 0.125 * m) k = n < bound[0] * m ? 1 : n < bound[1] * m ? 2 : n < bound[2] * m ? 3 : 4;
  double a = angle_k[k] + atan_series((n - m * tan_k[k]) / (m + n * tan_k[k]));
  if (swap) a = 0.5 * GRIP_PI - a;
  if (x < 0.0) a = GRIP_PI - a;
  return signbit(y) ? -a : a;
}

/* sin and cos of x to within an ulp or two for |x| <= 8π, with no call to libm (the track's
 * spiral projection). r = x − q·π/2 with π/2 in two parts (Cody and Waite): the first holds 33
 * significant bits, so q times it is exact for |q| <= 16, and the second (π/2 less the first)
 * adds its 53 more. That leaves |r| <= π/4, where the series are taken to r¹⁷ and r¹⁸: the first
 * omitted terms, r¹⁹/19! and r²⁰/20!, are under 1e-19. Beyond 8π, libm. */
static inline void series_sincos(double x, double *s, double *c) {
  if (!(fabs(x) <= 8.0 * GRIP_PI)) {
    *s = sin(x);
    *c = cos(x);
    return;
  }
  const double half_pi_hi = 1.5707963267341256, half_pi_lo = 6.077100506506192e-11; /* 0x1.921fb544p+0 */
  double q = floor(x * (2.0 / GRIP_PI) + 0.5);
  double r = (x - q * half_pi_hi) - q * half_pi_lo, r2 = r * r;
  double sp = 1.0 / 355687428096000.0; /* 1/17! */
  sp = -1.0 / 1307674368000.0 + r2 * sp;
  sp = 1.0 / 6227020800.0 + r2 * sp;
  sp = -1.0 / 39916800.0 + r2 * sp;
  sp = 1.0 / 362880.0 + r2 * sp;
  sp = -1.0 / 5040.0 + r2 * sp;
  sp = 1.0 / 120.0 + r2 * sp;
  sp = -1.0 / 6.0 + r2 * sp;
  double sr = r + r * r2 * sp;
  double cp = -1.0 / 6402373705728000.0; /* -1/18! */
  cp = 1.0 / 20922789888000.0 + r2 * cp;
  cp = -1.0 / 87178291200.0 + r2 * cp;
  cp = 1.0 / 479001600.0 + r2 * cp;
  cp = -1.0 / 3628800.0 + r2 * cp;
  cp = 1.0 / 40320.0 + r2 * cp;
  cp = -1.0 / 720.0 + r2 * cp;
  cp = 1.0 / 24.0 + r2 * cp;
  double cr = 1.0 + r2 * (-0.5 + r2 * cp);
  switch ((int)q & 3) { /* two's complement: -1 & 3 == 3 */
    case 0: *s = sr; *c = cr; break;
    case 1: *s = cr; *c = -sr; break;
    case 2: *s = -sr; *c = -cr; break;
    default: *s = -cr; *c = sr; break;
  }
}

/* sin and cos together to ~1e-12 for |x| <= 2π (Taylor series on |r| <= π/4 after reduction
 * by quadrant). */
static inline void fast_sincos(double x, double *s, double *c) {
  double q = floor(x * (2.0 / GRIP_PI) + 0.5);
  double r = x - q * (GRIP_PI / 2.0);
  double r2 = r * r;
  double sr = r * (1.0 + r2 * (-1.0 / 6 + r2 * (1.0 / 120 + r2 * (-1.0 / 5040 + r2 * (1.0 / 362880 +
              r2 * (-1.0 / 39916800 + r2 * (1.0 / 6227020800.0)))))));
  double cr = 1.0 + r2 * (-0.5 + r2 * (1.0 / 24 + r2 * (-1.0 / 720 + r2 * (1.0 / 40320 + r2 * (-1.0 / 3628800 +
              r2 * (1.0 / 479001600.0 + r2 * (-1.0 / 87178291200.0)))))));
  int k = (int)q & 3;
  if (k < 0) k += 4;
  switch (k) {
    case 0: *s = sr; *c = cr; break;
    case 1: *s = cr; *c = -sr; break;
    case 2: *s = -sr; *c = -cr; break;
    default: *s = -cr; *c = sr; break;
  }
}

#endif
