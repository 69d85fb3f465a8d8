/* Car–trailer single-track model: equations in docs/physics.md §14. */
#include "trailer_sway.h"

#include <math.h>

static bool params_ok(const trailer_sway_params *p, double u) {
  const double positive[] = {p->car_mass,
                             p->car_yaw_inertia,
                             p->car_cg_to_front_axle,
                             p->car_cg_to_rear_axle,
                             p->car_cg_to_hitch,
                             p->front_cornering_stiffness,
                             p->rear_cornering_stiffness,
                             p->trailer_mass,
                             p->trailer_yaw_inertia,
                             p->hitch_to_trailer_cg,
                             p->hitch_to_trailer_axle,
                             p->trailer_cornering_stiffness,
                             u};
  for (unsigned i = 0; i < sizeof positive / sizeof positive[0]; ++i)
    if (!(positive[i] > 0.0) || !isfinite(positive[i])) return false;
  return p->hitch_to_trailer_axle > p->hitch_to_trailer_cg;
}

/* Solves m·x = b (3×3) by Gaussian elimination with partial pivoting; false if singular. */
static bool solve3(double m[3][3], double b[3], double x[3]) {
  for (int col = 0; col < 3; ++col) {
    int pivot = col;
    for (int row = col + 1; row < 3; ++row)
      if (fabs(m[row][col]) > fabs(m[pivot][col])) pivot = row;
    if (fabs(m[pivot][col]) < 1e-300) return false;
    for (int k = 0; k < 3; ++k) {
      double t = m[col][k];
      m[col][k] = m[pivot][k];
      m[pivot][k] = t;
    }
    double t = b[col];
    b[col] = b[pivot];
    b[pivot] = t;
    for (int row = col + 1; row < 3; ++row) {
      double f = m[row][col] / m[col][col];
      for (int k = col; k < 3; ++k) m[row][k] -= f * m[col][k];
      b[row] -= f * b[col];
    }
  }
  for (int row = 2; row >= 0; --row) {
    double s = b[row];
    for (int k = row + 1; k < 3; ++k) s -= m[row][k] * x[k];
    x[row] = s / m[row][row];
  }
  return true;
}

bool trailer_sway_matrix(const trailer_sway_params *p, double u, double a[4][4]) {
  if (!params_ok(p, u)) return false;
  const double m1 = p->car_mass, i1 = p->car_yaw_inertia, la = p->car_cg_to_front_axle;
  const double lb = p->car_cg_to_rear_axle, c = p->car_cg_to_hitch;
  const double c1 = p->front_cornering_stiffness, c2 = p->rear_cornering_stiffness;
  const double m2 = p->trailer_mass, i2 = p->trailer_yaw_inertia, e = p->hitch_to_trailer_cg;
  const double f = p->hitch_to_trailer_axle, c3 = p->trailer_cornering_stiffness;
  /* Axle forces as rows over the state (v, r, φ, φ̇): F = −C·α with the slip angles
   * α1 = (v + a·r)/u, α2 = (v − b·r)/u, α3 = (v − (c + f)·r − u·φ − f·φ̇)/u. */
  const double f1[4] = {-c1 / u, -c1 * la / u, 0.0, 0.0};
  const double f2[4] = {-c2 / u, c2 * lb / u, 0.0, 0.0};
  const double f3[4] = {-c3 / u, c3 * (c + f) / u, c3, c3 * f / u};
  /* Right-hand sides of the car's lateral and yaw equations and the trailer's yaw equation,
   * with the hitch force eliminated and the centripetal terms (u·r) moved across. */
  double rhs[3][4];
  for (int k = 0; k < 4; ++k) {
    rhs[0][k] = f1[k] + f2[k] + f3[k];
    rhs[1][k] = la * f1[k] - lb * f2[k] - c * f3[k];
    rhs[2][k] = -f * f3[k];
  }
  rhs[0][1] -= (m1 + m2) * u;
  rhs[1][1] += c * m2 * u;
  rhs[2][1] += e * m2 * u;
  /* Mass matrix on (v̇, ṙ, φ̈): the trailer's centre of mass accelerates sideways by
   * v̇ + u·r − (c + e)·ṙ − e·φ̈. */
  const double mass[3][3] = {{m1 + m2, -m2 * (c + e), -m2 * e},
                             {-c * m2, i1 + c * m2 * (c + e), c * m2 * e},
                             {-e * m2, i2 + e * m2 * (c + e), i2 + m2 * e * e}};
  for (int k = 0; k < 4; ++k) {
    double mk[3][3], b[3] = {rhs[0][k], rhs[1][k], rhs[2][k]}, x[3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) mk[i][j] = mass[i][j];
    if (!solve3(mk, b, x)) return false;
    a[0][k] = x[0];
    a[1][k] = x[1];
    a[2][k] = k == 3 ? 1.0 : 0.0; /* φ̇ is a state */
    a[3][k] = x[2];
  }
  return true;
}

bool trailer_sway_polynomial(const trailer_sway_params *p, double u, double c[4]) {
  double a[4][4];
  if (!trailer_sway_matrix(p, u, a)) return false;
  /* Faddeev–LeVerrier: M_k = A·M_{k−1} + c_{n−k+1}·I, c_{n−k} = −tr(A·M_k)/k, M_0 = 0, c_n = 1. */
  double mk[4][4] = {{0}}, coeff[5] = {0, 0, 0, 0, 1.0};
  for (int k = 1; k <= 4; ++k) {
    double next[4][4];
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) {
        double s = 0.0;
        for (int l = 0; l < 4; ++l) s += a[i][l] * mk[l][j];
        next[i][j] = s + (i == j ? coeff[4 - k + 1] : 0.0);
      }
    double trace = 0.0;
    for (int i = 0; i < 4; ++i)
      for (int l = 0; l < 4; ++l) trace += a[i][l] * next[l][i];
    coeff[4 - k] = -trace / k;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) mk[i][j] = next[i][j];
  }
  for (int i = 0; i < 4; ++i) c[i] = coeff[i];
  return true;
}

bool trailer_sway_modes(const trailer_sway_params *p, double u, double complex roots[4]) {
  double c[4];
  if (!trailer_sway_polynomial(p, u, c)) return false;
  /* Durand–Kerner (Weierstrass) iteration on the monic quartic, started on a spiral scaled to
   * the roots' size (Cauchy's bound). */
  double bound = 1.0;
  for (int i = 0; i < 4; ++i) bound = fmax(bound, 1.0 + fabs(c[i]));
  double complex z[4];
  for (int i = 0; i < 4; ++i) z[i] = 0.5 * bound * cpow(0.4 + 0.9 * I, i);
  for (int iter = 0; iter < 2000; ++iter) {
    double change = 0.0;
    for (int i = 0; i < 4; ++i) {
      double complex value = ((((z[i] + c[3]) * z[i] + c[2]) * z[i] + c[1]) * z[i]) + c[0];
      double complex denom = 1.0;
      for (int j = 0; j < 4; ++j)
        if (j != i) denom *= z[i] - z[j];
      double complex step = value / denom;
      z[i] -= step;
      change = fmax(change, cabs(step) / fmax(1.0, cabs(z[i])));
    }
    if (change < 1e-15) break;
  }
  for (int i = 0; i < 4; ++i) roots[i] = z[i];
  return true;
}

/* Hurwitz's criterion for s⁴ + c3·s³ + c2·s² + c1·s + c0: every coefficient positive and
 * Δ3 = c3·c2·c1 − c1² − c3²·c0 > 0. */
static double hurwitz_third(const double c[4]) { return c[3] * c[2] * c[1] - c[1] * c[1] - c[3] * c[3] * c[0]; }

bool trailer_sway_stable(const trailer_sway_params *p, double u) {
  double c[4];
  if (!trailer_sway_polynomial(p, u, c)) return false;
  return c[0] > 0.0 && c[1] > 0.0 && c[2] > 0.0 && c[3] > 0.0 && hurwitz_third(c) > 0.0;
}

double trailer_sway_critical_speed(const trailer_sway_params *p, double u_min, double u_max, bool *oscillatory) {
  if (!(u_min > 0.0) || !(u_max > u_min) || !params_ok(p, u_min) || !trailer_sway_stable(p, u_min)) return -1.0;
  const double scan_step = 0.25; /* m/s: finer than any stability window of a real combination */
  double lo = u_min, hi = 0.0;
  for (double u = u_min + scan_step; u < u_max + scan_step; u += scan_step) {
    double at = fmin(u, u_max);
    if (!trailer_sway_stable(p, at)) {
      hi = at;
      break;
    }
    lo = at;
  }
  if (hi == 0.0) return 0.0;
  while (hi - lo > 1e-6) {
    double mid = 0.5 * (lo + hi);
    if (trailer_sway_stable(p, mid))
      lo = mid;
    else
      hi = mid;
  }
  if (oscillatory) {
    double c[4];
    trailer_sway_polynomial(p, hi, c);
    *oscillatory = c[0] > 0.0;
  }
  return hi;
}

double trailer_offtracking(double rear_axle_radius, double hitch_behind_rear_axle, double hitch_to_trailer_axle) {
  double r2 = rear_axle_radius * rear_axle_radius + hitch_behind_rear_axle * hitch_behind_rear_axle -
              hitch_to_trailer_axle * hitch_to_trailer_axle;
  if (r2 <= 0.0) return rear_axle_radius; /* the trailer's axle would sit at the centre */
  return rear_axle_radius - sqrt(r2);
}
