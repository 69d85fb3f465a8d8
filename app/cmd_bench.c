/* grip bench: N cars on flat ground at full throttle, front wheels steered 0.05 rad. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <unistd.h>

#include "car_option.h"
#include "cli.h"
#include "manoeuvre.h"

int cmd_bench(int argc, char **argv);
int cmd_bench(int argc, char **argv) {
  double dt = 0.002, seconds = 10.0;
  int vehicles = 100;
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int threads = cores >= 1 && cores <= 64 ? (int)cores : 1;
  bool json = false;
  const char *car_spec = NULL;
  cli_option options[] = {
      {"--vehicles", CLI_INT, &vehicles, 1, 100000, "number of cars (default 100)"},
      {"--seconds", CLI_DOUBLE, &seconds, 0.01, 3600.0, "simulated time, s (default 10)"},
      {"--threads", CLI_INT, &threads, 1, 64, "worker threads (default: all cores)"},
      CLI_OPTION_DT(dt, "0.002"),
      CLI_OPTION_JSON(json),
      CLI_OPTION_CAR(car_spec),
  };
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  static grip_car loaded;
  if (cli_load_car(argv[0], car_spec, &loaded)) return 1;
  grip_vehicle_def car = loaded.def;
  bench_result r = sim_bench(&car, vehicles, seconds, dt, 0.05, threads);
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_int(&w, "vehicles", r.vehicles);
    json_int(&w, "steps", r.steps);
    json_number(&w, "ns_per_vehicle_step", r.ns_per_vehicle_step);
    json_number(&w, "realtime_factor", r.realtime_factor);
    json_int(&w, "threads", threads);
    json_number(&w, "dt_s", dt);
    json_end(&w);
  } else {
    printf("bench: %d x %s, %.1f s at dt %g s (%lld steps), %d thread(s)\n", vehicles, car.name, seconds, dt,
           r.steps, threads);
    printf("  %.1f ns per vehicle-step, %.1f x real time\n", r.ns_per_vehicle_step, r.realtime_factor);
  }
  return 0;
}
