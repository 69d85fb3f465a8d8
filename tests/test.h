/* Tiny test macros. Each tests/test_*.c is one executable; it returns the number of failed
 * checks (0 = pass) or 77 to report "skipped" to ctest. */
#ifndef GRIP_TEST_H
#define GRIP_TEST_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int test_failures_ = 0;
static int test_checks_ = 0;

#define CHECK(cond)                                                                     \
  do {                                                                                  \
    test_checks_++;                                                                     \
    if (!(cond)) {                                                                      \
      test_failures_++;                                                                 \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);          \
    }                                                                                   \
  } while (0)

/* |actual - expected| <= tol, printing both on failure. */
#define CHECK_NEAR(actual, expected, tol)                                               \
  do {                                                                                  \
    double a_ = (double)(actual), e_ = (double)(expected), t_ = (double)(tol);          \
    test_checks_++;                                                                     \
    if (!(fabs(a_ - e_) <= t_)) {                                                       \
      test_failures_++;                                                                 \
      fprintf(stderr, "%s:%d: %s = %.9g, expected %.9g +- %.3g\n", __FILE__, __LINE__,  \
              #actual, a_, e_, t_);                                                     \
    }                                                                                   \
  } while (0)

/* Relative tolerance: |actual - expected| <= rel * |expected|. */
#define CHECK_REL(actual, expected, rel)                                                \
  CHECK_NEAR(actual, expected, fabs((double)(expected)) * (double)(rel))

#define RUN_TEST(fn)                                                                    \
  do {                                                                                  \
    int before_ = test_failures_;                                                       \
    fn();                                                                               \
    printf("%-50s %s\n", #fn, test_failures_ == before_ ? "ok" : "FAILED");             \
  } while (0)

#define TEST_SKIP(why)                                                                  \
  do {                                                                                  \
    printf("SKIPPED: %s\n", why);                                                       \
    exit(77);                                                                           \
  } while (0)

#define TEST_RESULT()                                                                   \
  (printf("%d checks, %d failed\n", test_checks_, test_failures_), test_failures_ ? 1 : 0)

#endif
