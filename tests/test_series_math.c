/* gmath.h's series_atan2 and series_sincos, the track queries' trigonometry without libm,
 * against glibc's long-double atan2l, sinl and cosl (64-bit significands on x86-64: 11 bits more
 * than a double, so their rounding adds under 1/1000 ulp to what is measured). */
#include <float.h>
#include <string.h>

#include "gmath.h"
#include "support_random.h"
#include "test.h"

static unsigned long long rng_state = 88172645463325252ull;
static double urand(void) { return support_uniform(&rng_state); }

/* |got − ref| in units in the last place of the double nearest ref (of DBL_MIN below it). */
static double ulps(double got, long double ref) {
  double r = fabs((double)ref);
  if (r < DBL_MIN) r = DBL_MIN;
  double ulp = nextafter(r, INFINITY) - r;
  return (double)(fabsl((long double)got - ref) / ulp);
}

static bool same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* Within 3 ulps everywhere: its errors are the series' (under 1e-18 relative), the rounding of
 * tan(k·π/16) and of the turned vector (~1 ulp of its length, for an angle of at least 7.1°),
 * and up to three roundings in undoing the fold (π/2 − a, π − a). Measured: 2.2 at most. */
#define ATAN2_ULPS 3.0

static void atan2_everywhere(void) {
  double worst = 0.0, worst_angle = 0.0, worst_libm = 0.0;
  int octant_seen[8] = {0};
  for (int i = 0; i < 2000000; ++i) {
    double angle = (2.0 * urand() - 1.0) * GRIP_PI;
    double r = exp(40.0 * urand() - 20.0); /* lengths from 2e-9 to 5e8 */
    double x = r * cos(angle), y = r * sin(angle);
    long double ref = atan2l(y, x);
    double e = ulps(series_atan2(y, x), ref);
    if (e > worst) {
      worst = e;
      worst_angle = angle;
    }
    worst_libm = fmax(worst_libm, ulps(atan2(y, x), ref));
    octant_seen[(int)floor((angle + GRIP_PI) / (GRIP_PI / 4.0)) & 7]++;
  }
  printf("  2e6 vectors: within %.2f ulps of atan2l (worst at %.4f rad); libm's atan2 within %.2f\n",
         worst, worst_angle, worst_libm);
  CHECK(worst <= ATAN2_ULPS);
  for (int o = 0; o < 8; ++o) CHECK(octant_seen[o] > 200000);
}

/* Either side of every bound the function switches at: the series' own range (|y| = x/8), the
 * nearest multiple of π/16 ((2k+1)·π/32), the swap (|y| = |x|) and the axes, in all quadrants. */
static void atan2_at_its_bounds(void) {
  double bounds[] = {atan(0.125), GRIP_PI / 32, 3 * GRIP_PI / 32, 5 * GRIP_PI / 32, 7 * GRIP_PI / 32,
                     GRIP_PI / 4, GRIP_PI / 2};
  double worst = 0.0;
  int n = 0;
  for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; ++b)
    for (int q = 0; q < 4; ++q)
      for (int mirror = 0; mirror < 2; ++mirror)
        for (int k = -8; k <= 8; ++k) {
          double a = bounds[b] + k * 1e-15;
          if (mirror) a = GRIP_PI / 2 - a;
          a += q * GRIP_PI / 2;
          double x = cos(a), y = sin(a);
          worst = fmax(worst, ulps(series_atan2(y, x), atan2l(y, x)));
          /* and on the bound's line exactly, for tan of the bound as a ratio */
          double t = tan(bounds[b] < GRIP_PI / 2 ? bounds[b] : 0.0);
          worst = fmax(worst, ulps(series_atan2(t, 1.0), atan2l(t, 1.0)));
          worst = fmax(worst, ulps(series_atan2(-1.0, -t), atan2l(-1.0, -t)));
          n += 3;
        }
  printf("  %d points at the bounds: within %.2f ulps\n", n, worst);
  CHECK(worst <= ATAN2_ULPS);
  /* exact values */
  CHECK(series_atan2(1.0, 1.0) == atan2(1.0, 1.0));
  CHECK(series_atan2(2.0, 0.0) == atan2(2.0, 0.0));
  CHECK(series_atan2(0.0, -3.0) == atan2(0.0, -3.0));
}

/* Zeros of either sign, infinities and NaN take libm's conventions (libm's answer), but for
 * y = −0 with x > 0: +0 there (the series' t − t³·p), where libm gives −0. */
static void atan2_special_values(void) {
  const double v[] = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 1e-310, -1e-310, DBL_MAX};
  int n = (int)(sizeof v / sizeof v[0]), same = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double a = series_atan2(v[i], v[j]), b = atan2(v[i], v[j]);
      bool ok = (isnan(a) && isnan(b)) || a == b || ulps(a, atan2l(v[i], v[j])) <= ATAN2_ULPS;
      CHECK(ok);
      if (!ok) printf("  atan2(%g, %g): %.17g, libm %.17g\n", v[i], v[j], a, b);
      same += ok;
    }
  CHECK(same == n * n);
  CHECK(same_bits(series_atan2(0.0, -1.0), GRIP_PI));
  CHECK(same_bits(series_atan2(-0.0, -1.0), -GRIP_PI));
  CHECK(same_bits(series_atan2(0.0, 1.0), 0.0));
  CHECK(same_bits(series_atan2(0.0, -0.0), GRIP_PI));
  CHECK(same_bits(series_atan2(-1.0, 0.0), -0.5 * GRIP_PI));
  CHECK(series_atan2(-0.0, 1.0) == 0.0);
}

/* Within 2 ulps of sinl and cosl for |x| <= 8π (measured: 1.5), and within 1e-24 at the
 * doubles nearest the zeros, k·π/2: the reduction by π/2 in two parts (33 + 53 bits) holds r to
 * about 16·2⁻⁵³·6e-11 ≈ 1e-25, where the value itself is ~1e-16 (sin(π) in doubles is 1.2e-16). */
static void sincos_everywhere(void) {
  double worst_s = 0.0, worst_c = 0.0, worst_abs = 0.0;
  for (int i = 0; i < 2000000; ++i) {
    double x = (2.0 * urand() - 1.0) * 8.0 * GRIP_PI;
    if (i % 4 == 0) x *= 1e-3 * urand(); /* small angles: a Newton step's */
    double s, c;
    series_sincos(x, &s, &c);
    worst_s = fmax(worst_s, ulps(s, sinl(x)));
    worst_c = fmax(worst_c, ulps(c, cosl(x)));
    worst_abs = fmax(worst_abs, fmax(fabs((double)(s - sinl(x))), fabs((double)(c - cosl(x)))));
  }
  /* near the zeros of sin and cos, where a reduction's error would show in relative terms */
  double worst_zero = 0.0;
  for (int k = -16; k <= 16; ++k)
    for (int j = -4; j <= 4; ++j) {
      double x = nextafter(k * (GRIP_PI / 2), j < 0 ? -INFINITY : INFINITY);
      for (int m = 0; m < abs(j); ++m) x = nextafter(x, j < 0 ? -INFINITY : INFINITY);
      double s, c;
      series_sincos(x, &s, &c);
      double near_zero = k % 2 == 0 ? fabs((double)(s - sinl(x))) : fabs((double)(c - cosl(x)));
      worst_zero = fmax(worst_zero, near_zero);
    }
  printf("  2e6 angles: sin within %.2f ulps, cos %.2f, |error| up to %.2g; at the zeros %.2g\n",
         worst_s, worst_c, worst_abs, worst_zero);
  CHECK(worst_s <= 2.0);
  CHECK(worst_c <= 2.0);
  CHECK(worst_zero <= 1e-24);
  /* beyond 8π: libm's own answer */
  double s, c;
  series_sincos(100.0, &s, &c);
  CHECK(s == sin(100.0) && c == cos(100.0));
  series_sincos(NAN, &s, &c);
  CHECK(isnan(s) && isnan(c));
}

int main(void) {
  RUN_TEST(atan2_everywhere);
  RUN_TEST(atan2_at_its_bounds);
  RUN_TEST(atan2_special_values);
  RUN_TEST(sincos_everywhere);
  return TEST_RESULT();
}
