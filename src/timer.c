/* The profile's clock. Reading it is the only thing the core asks of the platform besides
 * memory, and only when an embedder switches the profile on. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#endif
#include <time.h>

#include "timer.h"

double grip_timer_now(void) {
  struct timespec ts = {0, 0};
#if defined(CLOCK_MONOTONIC)
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0.0;
#else
  if (timespec_get(&ts, TIME_UTC) != TIME_UTC) return 0.0;
#endif
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
