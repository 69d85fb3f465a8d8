/* The car–trailer linear model (sim/trailer_sway.c, docs/physics.md §14) against expectations
 * computed another way: its limits (a vanishing trailer leaves the single-track model's two
 * modes and the trailer's own pendulum on a straight-running car), the polynomial's trace and
 * determinant against the matrix, the stability verdict against a direct integration of the
 * linear equations, the growth rate against the eigenvalues, and the kinematic off-tracking
 * against a trailer pulled round a circle step by step. */
#include <complex.h>
#include <math.h>

#include "test.h"
#include "trailer_sway.h"

/* A mid-size car towing a caravan (the header's typical values). */
static trailer_sway_params caravan(void) {
  trailer_sway_params p = {
      .car_mass = 1500.0,
      .car_yaw_inertia = 2500.0,
      .car_cg_to_front_axle = 1.2,
      .car_cg_to_rear_axle = 1.5,
      .car_cg_to_hitch = 2.5,
      .front_cornering_stiffness = 80000.0,
      .rear_cornering_stiffness = 90000.0,
      .trailer_mass = 1200.0,
      .trailer_yaw_inertia = 4000.0,
      .hitch_to_trailer_cg = 3.6,
      .hitch_to_trailer_axle = 4.0,
      .trailer_cornering_stiffness = 60000.0,
  };
  return p;
}

/* Roots of s² + b·s + c. */
static void quadratic_roots(double b, double c, double complex out[2]) {
  double complex d = csqrt(b * b - 4.0 * c);
  out[0] = (-b + d) / 2.0;
  out[1] = (-b - d) / 2.0;
}

/* Every expected root has a computed one within rel·|expected| + abs. */
static void check_roots_contain(const double complex *got, int n_got, const double complex *want, int n_want,
                                double rel, double abs_tol) {
  for (int i = 0; i < n_want; ++i) {
    double best = INFINITY;
    for (int j = 0; j < n_got; ++j) best = fmin(best, cabs(got[j] - want[i]));
    CHECK(best <= rel * cabs(want[i]) + abs_tol);
  }
}

/* A trailer scaled down by ε (mass, inertia, tyre stiffness) hardly pushes on the car: the
 * quartic's roots tend to those of the single-track model (its characteristic quadratic written
 * out) and of the trailer swinging behind a car that runs straight:
 * (I2 + m2·e²)·φ̈ + C3·f²/u·φ̇ + C3·f·φ = 0. */
static void limits(void) {
  const double eps = 1e-7;
  for (double u = 5.0; u <= 45.0; u += 10.0) {
    trailer_sway_params p = caravan();
    p.trailer_mass *= eps;
    p.trailer_yaw_inertia *= eps;
    p.trailer_cornering_stiffness *= eps;
    double complex roots[4], want[4];
    CHECK(trailer_sway_modes(&p, u, roots));
    const double m = p.car_mass, iz = p.car_yaw_inertia, a = p.car_cg_to_front_axle, b = p.car_cg_to_rear_axle;
    const double c1 = p.front_cornering_stiffness, c2 = p.rear_cornering_stiffness;
    /* single-track: A = [[-(C1+C2)/(m u), -u - (a C1 - b C2)/(m u)], [-(a C1 - b C2)/(I u), -(a² C1 + b² C2)/(I u)]] */
    double a11 = -(c1 + c2) / (m * u), a12 = -u - (a * c1 - b * c2) / (m * u);
    double a21 = -(a * c1 - b * c2) / (iz * u), a22 = -(a * a * c1 + b * b * c2) / (iz * u);
    quadratic_roots(-(a11 + a22), a11 * a22 - a12 * a21, want);
    const double ih = p.trailer_yaw_inertia + p.trailer_mass * p.hitch_to_trailer_cg * p.hitch_to_trailer_cg;
    const double f = p.hitch_to_trailer_axle, c3 = p.trailer_cornering_stiffness;
    quadratic_roots(c3 * f * f / (u * ih), c3 * f / ih, want + 2);
    check_roots_contain(roots, 4, want, 4, 1e-4, 1e-6);
  }
}

/* The polynomial's c3 is −trace(A) and c0 is det(A) (the matrix's own Laplace expansion), and
 * each mode is a root of det(A − λI) (Laplace expansion in complex arithmetic). */
static double complex det4(double complex m[4][4]) {
  double complex total = 0.0;
  for (int col = 0; col < 4; ++col) {
    double complex minor[3][3];
    for (int i = 1; i < 4; ++i)
      for (int j = 0, k = 0; j < 4; ++j)
        if (j != col) minor[i - 1][k++] = m[i][j];
    double complex d3 = minor[0][0] * (minor[1][1] * minor[2][2] - minor[1][2] * minor[2][1]) -
                        minor[0][1] * (minor[1][0] * minor[2][2] - minor[1][2] * minor[2][0]) +
                        minor[0][2] * (minor[1][0] * minor[2][1] - minor[1][1] * minor[2][0]);
    total += (col % 2 ? -1.0 : 1.0) * m[0][col] * d3;
  }
  return total;
}

static void polynomial_against_matrix(void) {
  trailer_sway_params p = caravan();
  for (double u = 4.0; u <= 44.0; u += 8.0) {
    double a[4][4], c[4];
    double complex roots[4];
    CHECK(trailer_sway_matrix(&p, u, a) && trailer_sway_polynomial(&p, u, c) && trailer_sway_modes(&p, u, roots));
    double complex m[4][4];
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) m[i][j] = a[i][j];
    CHECK_NEAR(c[3], -(a[0][0] + a[1][1] + a[2][2] + a[3][3]), 1e-9 * fabs(c[3]));
    CHECK_NEAR(c[0], creal(det4(m)), 1e-9 * fabs(c[0]));
    for (int r = 0; r < 4; ++r) {
      double complex shifted[4][4];
      double scale = 1.0;
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) shifted[i][j] = m[i][j] - (i == j ? roots[r] : 0.0);
      for (int i = 0; i < 4; ++i) scale *= 1.0 + fabs(a[i][i]) + cabs(roots[r]);
      CHECK(cabs(det4(shifted)) < 1e-9 * scale);
    }
  }
}

/* Integrates ẋ = A·x (RK4, dt 1 ms) for 28 s from a 0.02 rad articulation and returns the
 * growth rate (1/s) of |φ|'s envelope: the log of the largest |φ| in 24–28 s over that in
 * 8–12 s (the faster modes have died out by 8 s), divided by 16 s. */
static double integrated_growth_rate(double a[4][4]) {
  double x[4] = {0.0, 0.0, 0.02, 0.0}, early = 0.0, late = 0.0;
  const double dt = 0.001;
  for (int n = 0; n < 28000; ++n) {
    double k[4][4], y[4];
    for (int stage = 0; stage < 4; ++stage) {
      double w = stage == 3 ? 1.0 : 0.5;
      for (int i = 0; i < 4; ++i) y[i] = x[i] + (stage ? w * dt * k[stage - 1][i] : 0.0);
      for (int i = 0; i < 4; ++i) {
        k[stage][i] = 0.0;
        for (int j = 0; j < 4; ++j) k[stage][i] += a[i][j] * y[j];
      }
    }
    for (int i = 0; i < 4; ++i) x[i] += dt / 6.0 * (k[0][i] + 2.0 * k[1][i] + 2.0 * k[2][i] + k[3][i]);
    double t = (n + 1) * dt;
    if (t >= 8.0 && t <= 12.0) early = fmax(early, fabs(x[2]));
    if (t >= 24.0) late = fmax(late, fabs(x[2]));
  }
  return log(late / early) / 16.0;
}

/* Below the critical speed a sway dies away, above it it grows; the envelope's growth over the
 * run equals exp(max Re λ · Δt) of the eigenvalues. */
static void critical_speed_against_integration(void) {
  trailer_sway_params base = caravan();
  const double hitch_to_cg[] = {3.6, 3.7, 3.8}; /* tongue load 10, 7.5 and 5 % of the trailer's weight */
  for (int i = 0; i < 3; ++i) {
    trailer_sway_params p = base;
    p.hitch_to_trailer_cg = hitch_to_cg[i];
    bool oscillatory = false;
    double uc = trailer_sway_critical_speed(&p, 1.0, 80.0, &oscillatory);
    printf("  tongue load %.1f %%: critical speed %.2f m/s (%.1f km/h), %s", 
           100.0 * (p.hitch_to_trailer_axle - hitch_to_cg[i]) / p.hitch_to_trailer_axle, uc, 3.6 * uc,
           oscillatory ? "sway" : "divergence");
    CHECK(uc > 5.0 && oscillatory);
    double complex roots[4];
    CHECK(trailer_sway_modes(&p, uc, roots));
    double max_re = -INFINITY, omega = 0.0;
    for (int r = 0; r < 4; ++r)
      if (creal(roots[r]) > max_re) {
        max_re = creal(roots[r]);
        omega = fabs(cimag(roots[r]));
      }
    printf(" at %.3f Hz\n", omega / (2.0 * 3.14159265358979323846));
    CHECK(fabs(max_re) < 1e-5 * omega && omega > 0.5); /* a pair on the imaginary axis */
    const double factors[] = {0.9, 1.1};
    for (int k = 0; k < 2; ++k) {
      double u = factors[k] * uc, a[4][4];
      CHECK(trailer_sway_matrix(&p, u, a) && trailer_sway_modes(&p, u, roots));
      double growth = -INFINITY;
      for (int r = 0; r < 4; ++r) growth = fmax(growth, creal(roots[r]));
      double measured = integrated_growth_rate(a);
      printf("    %.1f × critical: sway growth %+.4f 1/s integrated, %+.4f 1/s from the modes\n", factors[k],
             measured, growth);
      CHECK(k == 0 ? growth < 0.0 : growth > 0.0);
      CHECK(trailer_sway_stable(&p, u) == (k == 0));
      CHECK_NEAR(measured, growth, 0.03 * fabs(growth) + 1e-3);
    }
  }
}

/* Known directions (Pacejka, Tyre and Vehicle Dynamics, §1.3; Darling et al.): the critical
 * speed rises with the tongue load, with the car's mass, and falls with the trailer's yaw
 * inertia and mass. */
static void trends(void) {
  trailer_sway_params p = caravan();
  double base = trailer_sway_critical_speed(&p, 1.0, 80.0, NULL);
  trailer_sway_params q = p;
  q.hitch_to_trailer_cg = 3.5; /* more tongue load: 12.5 % */
  CHECK(trailer_sway_critical_speed(&q, 1.0, 80.0, NULL) > base);
  q = p;
  q.car_mass *= 1.3;
  q.car_yaw_inertia *= 1.3;
  CHECK(trailer_sway_critical_speed(&q, 1.0, 80.0, NULL) > base);
  q = p;
  q.trailer_yaw_inertia *= 1.5;
  CHECK(trailer_sway_critical_speed(&q, 1.0, 80.0, NULL) < base);
}

/* Nonsense in, refusal out. */
static void refused(void) {
  trailer_sway_params p = caravan();
  double a[4][4];
  CHECK(!trailer_sway_matrix(&p, 0.0, a));
  p.hitch_to_trailer_cg = 4.5; /* behind the axle: negative tongue load */
  CHECK(!trailer_sway_matrix(&p, 20.0, a));
  CHECK(trailer_sway_critical_speed(&p, 1.0, 80.0, NULL) == -1.0);
  p = caravan();
  p.trailer_mass = NAN;
  CHECK(!trailer_sway_stable(&p, 20.0));
}

/* A trailer pulled round a circle at walking pace: its axle moves only along the trailer's
 * axis (no side slip); integrated until steady, its axle runs on the radius the formula gives. */
static void offtracking(void) {
  const double cases[][3] = {{10.0, 1.0, 4.0}, {25.0, 1.2, 5.5}, {8.0, 0.8, 2.5}};
  for (int i = 0; i < 3; ++i) {
    const double r = cases[i][0], h = cases[i][1], f = cases[i][2];
    const double rh = sqrt(r * r + h * h);
    /* hitch on its circle, starting at angle 0 heading +y (counter-clockwise); trailer behind it */
    double px = rh, py = -f, angle = 0.0;
    const double step = 1e-4; /* rad of the hitch's travel */
    for (int n = 0; n < (int)(12.0 * 3.14159265358979 / step); ++n) {
      double hx = rh * cos(angle), hy = rh * sin(angle);
      angle += step;
      double nx = rh * cos(angle), ny = rh * sin(angle);
      double dx = hx - px, dy = hy - py, len = hypot(dx, dy);
      dx /= len;
      dy /= len;
      double along = (nx - hx) * dx + (ny - hy) * dy; /* the axle moves along the trailer only */
      px += along * dx;
      py += along * dy;
      double ex = nx - px, ey = ny - py, l2 = hypot(ex, ey); /* keep the drawbar's length */
      px = nx - ex / l2 * f;
      py = ny - ey / l2 * f;
    }
    double radius = hypot(px, py), want = trailer_offtracking(r, h, f);
    printf("  R %.1f m, hitch %.1f m, axle %.1f m: off-tracking %.4f m (integrated %.4f m)\n", r, h, f, want,
           r - radius);
    CHECK_NEAR(r - radius, want, 2e-3 * want + 1e-4);
  }
}

int main(void) {
  RUN_TEST(limits);
  RUN_TEST(polynomial_against_matrix);
  RUN_TEST(critical_speed_against_integration);
  RUN_TEST(trends);
  RUN_TEST(refused);
  RUN_TEST(offtracking);
  return TEST_RESULT();
}
