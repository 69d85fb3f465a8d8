/* The soak: see soak.h. */
#include "soak.h"

#include <math.h>
#include <string.h>
#include <sys/resource.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

soak_config soak_default_config(void) {
  return (soak_config){.track = NULL, .car = NULL, .car_name = NULL, .cars = 16, .seconds = 86400.0, .dt = 0.01,
                       .progress = NULL};
}

/* Bytes of heap in use (glibc's allocator statistics; -1 elsewhere or when an interposed
 * allocator, e.g. a sanitizer's, reports nothing). */
static long heap_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 mi = mallinfo2();
  long used = (long)mi.uordblks + (long)mi.hblkhd;
  return used > 0 ? used : -1;
#else
  return -1;
#endif
}

static long max_rss_kb(void) {
  struct rusage ru;
  return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : -1;
}

typedef struct soak_state {
  soak_result *out;
  const soak_config *cfg;
  bool lone;      /* which run */
  int window;     /* current window index */
  double lap_sum; /* lone run: the window's flying laps */
  long lap_count;
} soak_state;

static void on_lap(void *user, int car, int lap, double lap_time, double race_time) {
  soak_state *s = user;
  (void)car;
  (void)race_time;
  if (s->window >= s->out->windows) return;
  if (!s->lone) {
    s->out->w[s->window].field_laps++;
  } else if (lap > 1) { /* lap 1 includes the standing start */
    s->lap_sum += lap_time;
    s->lap_count++;
  }
}

static void on_period(void *user, double race_time) {
  soak_state *s = user;
  if (s->window >= s->out->windows) return;
  soak_window *w = &s->out->w[s->window];
  w->end_s = race_time;
  if (s->lone) {
    w->lone_laps = s->lap_count;
    w->lone_mean_lap_s = s->lap_count ? s->lap_sum / (double)s->lap_count : NAN;
    s->lap_sum = 0.0;
    s->lap_count = 0;
    if (s->cfg->progress)
      fprintf(s->cfg->progress, "soak: lone robot, %.2f h: %ld flying laps, mean %.4f s\n", race_time / 3600.0,
              w->lone_laps, w->lone_mean_lap_s);
  } else {
    w->heap_bytes = heap_in_use();
    w->max_rss_kb = max_rss_kb();
    if (s->cfg->progress)
      fprintf(s->cfg->progress, "soak: field of %d, %.2f h: %ld laps in the window, heap %ld B, peak RSS %ld kB\n",
              s->cfg->cars, race_time / 3600.0, w->field_laps, w->heap_bytes, w->max_rss_kb);
  }
  s->window++;
}

/* Retirements that are faults; with traffic true, a car stuck after contact is not one. */
static int count_retired(const race_result *r, bool traffic, char *why, size_t why_size) {
  int n = 0;
  for (int k = 0; k < r->cars; ++k)
    if (r->results[k].status == RACE_CAR_RETIRED && !(traffic && r->results[k].reason == RACE_RETIRE_STUCK)) {
      if (n == 0)
        snprintf(why, why_size, "%s retired at %.1f s (%s)", r->results[k].name, r->results[k].retired_time_s,
                 race_retire_reason_name(r->results[k].reason));
      ++n;
    }
  return n;
}

int soak_run(const soak_config *cfg, soak_result *out) {
  memset(out, 0, sizeof *out);
  if (!cfg->track || !cfg->car || cfg->cars < 1 || cfg->cars > RACE_MAX_CARS || !(cfg->seconds > 0.0)) return -1;
  out->window_s = fmin(3600.0, cfg->seconds / 4.0);
  out->windows = (int)fmin(SOAK_MAX_WINDOWS, ceil(cfg->seconds / out->window_s - 1e-9));
  for (int i = 0; i < out->windows; ++i) out->w[i].lone_mean_lap_s = NAN;
  for (int run = 0; run < 2; ++run) {
    soak_state st = {.out = out, .cfg = cfg, .lone = run == 1, .window = 0, .lap_sum = 0.0, .lap_count = 0};
    race_config rc = race_default_config();
    rc.track = cfg->track;
    rc.car = cfg->car;
    rc.car_name = cfg->car_name;
    rc.cars = run == 0 ? cfg->cars : 1;
    rc.laps = 0; /* timed */
    rc.max_time = cfg->seconds;
    rc.dt = cfg->dt;
    rc.no_fuel = true;
    rc.on_lap = on_lap;
    rc.on_period = on_period;
    rc.period_s = out->window_s;
    rc.callback_user = &st;
    if (race_run(&rc, run == 0 ? &out->field : &out->lone) != 0) {
      soak_result_free(out);
      return -1;
    }
  }
  char why[160] = "";
  out->retired = count_retired(&out->field, true, why, sizeof why);
  out->retired += count_retired(&out->lone, false, why[0] ? why + strlen(why) : why, sizeof why - strlen(why));
  for (int k = 0; k < out->field.cars; ++k)
    out->stuck_in_field += out->field.results[k].reason == RACE_RETIRE_STUCK;
  /* Drift: the last window with flying laps against the first. */
  int first = -1, last = -1;
  for (int i = 0; i < out->windows; ++i)
    if (out->w[i].lone_laps > 0) {
      if (first < 0) first = i;
      last = i;
    }
  out->drift_first = first;
  out->drift_last = last;
  out->drift_pct = (first >= 0 && last > first) ? 100.0 * (out->w[last].lone_mean_lap_s / out->w[first].lone_mean_lap_s - 1.0)
                                                : NAN;
  const soak_window *w0 = &out->w[0], *wn = &out->w[out->windows - 1];
  out->heap_growth_bytes = (w0->heap_bytes >= 0 && wn->heap_bytes >= 0) ? wn->heap_bytes - w0->heap_bytes : 0;
  out->rss_growth_kb = wn->max_rss_kb - w0->max_rss_kb;
  if (out->retired > 0)
    snprintf(out->verdict, sizeof out->verdict, "failed: %d car(s) retired: %s", out->retired, why);
  else if (!(fabs(out->drift_pct) < 0.1))
    snprintf(out->verdict, sizeof out->verdict, "failed: the lone robot's lap time drifted %.4f %% (limit 0.1 %%)",
             out->drift_pct);
  else if (out->heap_growth_bytes > 0) /* a retired car's memory is given back: the heap may shrink */
    snprintf(out->verdict, sizeof out->verdict, "failed: the heap grew by %ld bytes after the first window",
             out->heap_growth_bytes);
  else
    snprintf(out->verdict, sizeof out->verdict, "passed");
  out->passed = strcmp(out->verdict, "passed") == 0;
  return 0;
}

void soak_result_free(soak_result *r) {
  race_result_free(&r->field);
  race_result_free(&r->lone);
}
