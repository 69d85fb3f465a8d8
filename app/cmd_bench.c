/* grip bench: N cars on flat ground at full throttle, front wheels steered 0.05 rad; or, with
 * --track, N cars following their lanes round a track (ground, walls, collisions). */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "bench_track.h"
#include "core_latency.h"
#include "manoeuvre.h"
#include "report.h"
#include "track_file.h"

/* On several threads: how long a cache line takes between the first two CPUs, ns one way (the
 * host's phase, docs/performance.md); NAN on one thread or where it cannot be measured. Taken
 * before the run, in ~0.1 s at most. */
static double core_to_core(int threads) {
  int a, b;
  return threads >= 2 && sim_two_cpus(&a, &b) ? sim_core_to_core_ns(a, b, 20000) : NAN;
}

static int bench_on_track(const char *track_spec, const grip_vehicle_def *car, int vehicles, double seconds,
                          double dt, int threads, bool separate, bool json) {
  grip_track *track = NULL;
  char name[128] = "", msg[256];
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_track_open(track_spec, &track, name, sizeof name, &err) != 0) {
    fprintf(stderr, "grip bench: %s\n", err.message);
    return 1;
  }
  double latency = core_to_core(threads);
  track_bench_result r;
  if (sim_bench_track(track, car, vehicles, seconds, dt, threads, separate, &r, msg, sizeof msg) != 0) {
    fprintf(stderr, "grip bench: %s: %s\n", name, msg);
    grip_track_destroy(track);
    return 1;
  }
  report rep;
  report_begin(&rep, json, "bench: %d x %s on %s (%d lane(s), %.0f m apart), %.1f s at dt %g s (%lld steps), %d thread(s)%s",
               vehicles, car->name, name, r.lanes, r.spacing_m, seconds, dt, r.steps, threads,
               separate ? " on separate worlds" : "");
  report_int(&rep, "vehicles", r.vehicles, NULL, NULL);
  report_int(&rep, "steps", r.steps, NULL, NULL);
  report_number(&rep, "ns_per_vehicle_step", r.ns_per_vehicle_step, "vehicle-step", "%8.1f ns");
  report_number(&rep, "cpu_ns_per_vehicle_step", r.cpu_ns_per_vehicle_step, "CPU/veh-step", "%8.1f ns");
  report_number(&rep, "realtime_factor", r.realtime_factor, "real time", "%8.1f x");
  report_number(&rep, "bytes_per_vehicle", r.bytes_per_vehicle, "bytes/vehicle", "%8.0f B");
  report_number(&rep, "shared_bytes", r.shared_bytes, "shared/type", "%8.0f B");
  report_number(&rep, "mean_speed_kmh", 3.6 * r.mean_speed, "mean speed at the end", "%8.1f km/h");
  report_int(&rep, "contact_vehicle_steps", r.contact_steps, "vehicle-steps with a car or wall contact", "%8lld");
  report_int(&rep, "threads", threads, NULL, NULL);
  report_int(&rep, "separate_worlds", separate ? threads : 0, NULL, NULL);
  report_optional(&rep, "core_to_core_ns", latency, "core to core", "%8.1f ns one way", "-");
  report_number(&rep, "dt_s", dt, NULL, NULL);
  char hash[20];
  snprintf(hash, sizeof hash, "%016" PRIx64, r.state_hash);
  report_string(&rep, "state_hash", hash, "state hash");
  report_string(&rep, "instruction_set", grip_step_instruction_set(), "step code");
  report_end(&rep);
  grip_track_destroy(track);
  return 0;
}

int cmd_bench(int argc, char **argv);
int cmd_bench(int argc, char **argv) {
  double dt = 0.002, seconds = 10.0;
  int vehicles = 100;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int threads = cores >= 1 && cores <= 64 ? (int)cores : 1;
  bool json = false, separate = false;
  const char *track_spec = NULL;
  static grip_car loaded;
  const cli_option own[] = {
      {"--vehicles", CLI_INT, &vehicles, 1, 100000, "number of cars (default 100)"},
      {"--seconds", CLI_DOUBLE, &seconds, 0.01, 3600.0, "simulated time, s (default 10)"},
      {"--threads", CLI_INT, &threads, 1, 64, "worker threads (default: all cores)"},
      {"--track", CLI_STRING, &track_spec, 0, 0, "race-like load on this track (default, FILE.track, TORCS .xml, torcs:NAME): lane followers, ground, walls, collisions"},
      {"--separate-worlds", CLI_FLAG, &separate, 0, 0, "the cars split into one world per thread, no task pool: the most the threads can give here"},
  };
  int rc = report_parse(argc, argv, own, CLI_COUNT(own), &dt, &json, &loaded);
  if (rc >= 0) return rc;
  const grip_vehicle_def *car = &loaded.def;
  if (separate && vehicles < threads) {
    fprintf(stderr, "grip bench: --separate-worlds needs at least one car per thread\n");
    return CLI_USAGE_ERROR;
  }
  if (track_spec) return bench_on_track(track_spec, car, vehicles, seconds, dt, threads, separate, json);
  double latency = core_to_core(threads);
  bench_result r = separate ? sim_bench_separate(car, vehicles, seconds, dt, 0.05, threads)
                            : sim_bench(car, vehicles, seconds, dt, 0.05, threads);
  if (!(r.steps > 0)) {
    fprintf(stderr, "grip bench: out of memory or threads\n");
    return 1;
  }
  report rep;
  report_begin(&rep, json, "bench: %d x %s, %.1f s at dt %g s (%lld steps), %d thread(s)%s", vehicles, car->name,
               seconds, dt, r.steps, threads, separate ? " on separate worlds" : "");
  report_int(&rep, "vehicles", r.vehicles, NULL, NULL);
  report_int(&rep, "steps", r.steps, NULL, NULL);
  report_number(&rep, "ns_per_vehicle_step", r.ns_per_vehicle_step, "vehicle-step", "%8.1f ns");
  report_number(&rep, "cpu_ns_per_vehicle_step", r.cpu_ns_per_vehicle_step, "CPU/veh-step", "%8.1f ns");
  report_number(&rep, "realtime_factor", r.realtime_factor, "real time", "%8.1f x");
  report_number(&rep, "bytes_per_vehicle", r.bytes_per_vehicle, "bytes/vehicle", "%8.0f B");
  report_number(&rep, "shared_bytes", r.shared_bytes, "shared/type", "%8.0f B");
  report_int(&rep, "threads", threads, NULL, NULL);
  report_int(&rep, "separate_worlds", separate ? threads : 0, NULL, NULL);
  report_optional(&rep, "core_to_core_ns", latency, "core to core", "%8.1f ns one way", "-");
  report_number(&rep, "dt_s", dt, NULL, NULL);
  char hash[20];
  snprintf(hash, sizeof hash, "%016" PRIx64, r.state_hash);
  report_string(&rep, "state_hash", hash, "state hash");
  report_string(&rep, "instruction_set", grip_step_instruction_set(), "step code");
  report_end(&rep);
  return 0;
}
