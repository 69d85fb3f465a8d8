/* grip race: robot-driven cars race on a track. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "car_option.h"
#include "cli.h"
#include "clocks.h"
#include "race.h"
#include "race_scene.h"
#include "track_file.h"

/* A time in s, or a dash when there is none (no completed lap). */
static void time_column(double v, int width, int decimals) {
  if (isfinite(v)) printf("%*.*f", width, decimals, v);
  else printf("%*s", width + 2, "\u2014"); /* "—" is 3 bytes, 1 column */
}

/* The result table, with a status column and a legend for every mark it uses. */
static void print_results(const race_result *res, const char *track_name, int laps, int cars, double dt,
                          double load_s, bool has_pit_lane) {
  printf("race: %s, %d lap(s), %d car(s), dt %g s\n", track_name, laps, cars, dt);
  printf("pos  name        car              laps    total s   best lap s  top km/h  off track s  status\n");
  bool any_dnf = false, any_running = false, any_dash = false;
  for (int k = 0; k < res->cars; ++k) {
    const race_car_result *r = &res->results[k];
    printf("%3d  %-10s  %-15s  %4d  ", k + 1, r->name, r->car, r->laps);
    time_column(r->laps > 0 ? r->total_time_s : NAN, 9, 3);
    printf("  ");
    time_column(r->best_lap_s, 11, 3);
    printf("  %8.1f  %11.2f  ", r->top_speed_kmh, r->off_track_s);
    any_dash = any_dash || r->laps == 0;
    if (r->status == RACE_CAR_FINISHED) {
      printf("finished\n");
    } else if (r->status == RACE_CAR_RETIRED) {
      printf("DNF (%s) at %.1f s\n", race_retire_reason_name(r->reason), r->retired_time_s);
      any_dnf = true;
    } else {
      printf("running\n");
      any_running = true;
    }
  }
  if (any_dnf || any_running || any_dash) {
    printf("legend:");
    if (any_dnf)
      printf(" DNF = did not finish, retired (out of fuel: tank empty and stopped; stuck: no %.0f m of progress "
             "along the track in %.0f s; left the world: off the ground or the world's bounds; non-finite state: "
             "a defect, please report);",
             RACE_STUCK_DISTANCE, RACE_STUCK_TIME);
    if (any_running) printf(" running = still racing when the time cap of %.0f s came;", res->time_cap ? res->max_time_s : 0.0);
    if (any_dash) printf(" \u2014 = no completed lap;");
    printf(" total s = time of the last completed lap for a car that did not finish\n");
  }
  if (res->time_cap)
    printf("the race ended at its time cap (%.0f s) with car(s) still running\n", res->max_time_s);
  for (int k = 0; k < res->cars; ++k) {
    const race_car_result *r = &res->results[k];
    if (!has_pit_lane && r->pit_stops == 0) continue;
    printf("fuel %s: %.1f kg at the start, ", r->name, r->start_fuel_kg);
    if (isfinite(r->fuel_used_kg)) printf("%.1f kg used", r->fuel_used_kg);
    else printf("retired");
    printf("; %d pit stop(s), %.2f s in the pit lane (%.2f s in the box, %.1f kg refuelled)\n", r->pit_stops,
           r->pit_lane_s, r->pit_service_s, r->refuelled_kg);
  }
  printf("simulated %.1f s in %.2f s wall: %.0f x real time\n", res->sim_time_s, res->wall_time_s,
         res->realtime_factor);
  printf("race loop %.0f ns per car-step (%lld car-steps); start-up %.3f s (loading %.3f s, grid and robot lines "
         "%.3f s)\n",
         res->ns_per_car_step, res->car_steps, load_s + res->setup_wall_s, load_s, res->setup_wall_s);
}

/* The car's tyre state at the end, per wheel (fl, fr, rl, rr), and per lap. */
static void tyres_json(json_writer *w, const race_car_result *r) {
  const double *per_wheel[] = {r->tyre_surface_temperature, r->tyre_carcass_temperature, r->tyre_gas_temperature,
                               r->tyre_pressure, r->tread_depth, r->tyre_grip};
  static const char *names[] = {"surface_temperature_k", "carcass_temperature_k", "gas_temperature_k", "pressure_pa",
                                "tread_depth_m", "grip"};
  json_open(w, "tyres", '{');
  for (int q = 0; q < 6; ++q) {
    json_open(w, names[q], '[');
    for (int i = 0; i < r->wheel_count; ++i) json_number(w, NULL, per_wheel[q][i]);
    json_close(w, ']');
  }
  json_open(w, "lap_tread_depth_m", '[');
  for (int l = 0; l < r->laps_recorded; ++l) json_number(w, NULL, r->lap_tread_depth[l]);
  json_close(w, ']');
  json_open(w, "lap_grip", '[');
  for (int l = 0; l < r->laps_recorded; ++l) json_number(w, NULL, r->lap_tyre_grip[l]);
  json_close(w, ']');
  json_close(w, '}');
}

/* The text report's tyre lines (cars with the tyre state on). */
static void print_tyres(const race_result *res) {
  for (int k = 0; k < res->cars; ++k) {
    const race_car_result *r = &res->results[k];
    if (!r->tyre_state) continue;
    if (r->wheel_count == 4) printf("%s tyres fl fr rl rr: surface", r->name);
    else printf("%s tyres (%d, axle by axle, left before right): surface", r->name, r->wheel_count);
    for (int i = 0; i < r->wheel_count; ++i) printf(" %.1f", r->tyre_surface_temperature[i] - 273.15);
    printf(" degC, gas");
    for (int i = 0; i < r->wheel_count; ++i) printf(" %.1f", r->tyre_gas_temperature[i] - 273.15);
    printf(" degC, pressure");
    for (int i = 0; i < r->wheel_count; ++i) printf(" %.0f", 1e-3 * r->tyre_pressure[i]);
    printf(" kPa, tread");
    for (int i = 0; i < r->wheel_count; ++i) printf(" %.2f", 1e3 * r->tread_depth[i]);
    printf(" mm, grip");
    for (int i = 0; i < r->wheel_count; ++i) printf(" %.3f", r->tyre_grip[i]);
    printf("\n");
  }
}

int cmd_race(int argc, char **argv);
int cmd_race(int argc, char **argv) {
  const char *track_spec = "default", *car_spec = "builtin", *telemetry = NULL, *robot_file = NULL;
  const char *scene_file = NULL, *const track_default = track_spec, *const car_default = car_spec;
  int laps = 3, cars = 0;
  double dt = 0.01, rate = 10.0, time_cap = 0.0, robot_rate = NAN;
  bool json = false, quiet = false, no_fuel = false;
  const char *tyre_state = NULL;
  double tyre_temp_c = NAN, tyre_pressure_kpa = NAN;
  const char *fuel_spec = NULL;
  cli_option options[] = {
      {"--track", CLI_STRING, &track_spec, 0, 0, "default, a .track file, a TORCS .xml or torcs:NAME (default: default)"},
      CLI_OPTION_CAR(car_spec),
      {"--laps", CLI_INT, &laps, 1, RACE_MAX_LAPS, "laps (default 3)"},
      {"--cars", CLI_INT, &cars, 1, RACE_MAX_CARS, "number of robot cars (default 1)"},
      {"--scene", CLI_STRING, &scene_file, 0, 0, "track scene file: its track and cars replace --track, --car, --cars (docs/scene.md)"},
      CLI_OPTION_DT(dt, "0.01"),
      {"--robot", CLI_STRING, &robot_file, 0, 0, "robot parameters, key = value file (docs/driver.md)"},
      {"--robot-rate", CLI_DOUBLE, &robot_rate, 1.0, 10000.0,
       "Hz, how often the robots decide (TORCS: 50), their inputs held between (default: every step)"},
      {"--telemetry", CLI_STRING, &telemetry, 0, 0, "write telemetry CSV to FILE"},
      {"--telemetry-rate", CLI_DOUBLE, &rate, 0.1, 10000.0, "telemetry rows per s per car (default 10)"},
      {"--time-cap", CLI_DOUBLE, &time_cap, 1.0, 1e7, "s, end the race here with the cars still running (default 300 per lap + 60)"},
      {"--no-fuel", CLI_FLAG, &no_fuel, 0, 0, "no fuel use: the tanks never run dry"},
      {"--tyre-state", CLI_STRING, &tyre_state, 0, 0, "on|off: tyre temperature, pressure and wear (default: the car's [tyre_state])"},
      {"--tyre-temp", CLI_DOUBLE, &tyre_temp_c, -70.0, 200.0, "degC, the tyres' starting temperature (tyre state on)"},
      {"--tyre-pressure", CLI_DOUBLE, &tyre_pressure_kpa, 10.0, 1000.0, "kPa gauge, the tyres' cold pressure (set at the car's pressure_temperature)"},
      {"--fuel", CLI_STRING, &fuel_spec, 0, 0,
       "auto | full | KG: start fuel (auto: the robot's strategy plans stops and stints; default: the car's own)"},
      {"--quiet", CLI_FLAG, &quiet, 0, 0, "no per-lap progress on stderr"},
      CLI_OPTION_JSON(json),
  };
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  race_fuel_mode fuel_mode = RACE_FUEL_CAR;
  double fuel_kg = 0.0;
  if (fuel_spec) {
    char *end = NULL;
    if (strcmp(fuel_spec, "auto") == 0) {
      fuel_mode = RACE_FUEL_AUTO;
    } else if (strcmp(fuel_spec, "full") == 0) {
      fuel_mode = RACE_FUEL_FULL;
    } else if ((fuel_kg = strtod(fuel_spec, &end)), end != fuel_spec && *end == '\0' && fuel_kg >= 0.0 &&
                                                        fuel_kg <= 1e5) {
      fuel_mode = RACE_FUEL_KG;
    } else {
      fprintf(stderr, "grip race: --fuel: '%s' is not auto, full or a mass in kg (0 .. 100000)\n", fuel_spec);
      return CLI_USAGE_ERROR;
    }
  }
  double load0 = clock_wall_s(), load_cpu0 = clock_cpu_s(); /* start-up: loading the car, track or scene, then race_run's set-up */
  race_scene *scene = NULL;
  if (scene_file) {
    if (track_spec != track_default || car_spec != car_default || cars != 0) {
      fprintf(stderr, "grip race: --scene replaces --track, --car and --cars\n");
      return CLI_USAGE_ERROR;
    }
    if (!(scene = race_scene_open(scene_file))) return 1;
    cars = scene->world->car_count;
  }
  if (cars == 0) cars = 1;
  int tyre_switch = 0;
  if (tyre_state) {
    if (strcmp(tyre_state, "on") == 0) tyre_switch = 1;
    else if (strcmp(tyre_state, "off") == 0) tyre_switch = -1;
    else {
      fprintf(stderr, "grip race: --tyre-state: '%s' is not on or off\n", tyre_state);
      race_scene_close(scene);
      return CLI_USAGE_ERROR;
    }
  }

  static grip_car loaded; /* large (full MF parameters); owns the definition's pointers */
  if (!scene && cli_load_car("race", car_spec, &loaded) != 0) return 1;
  grip_vehicle_def car = loaded.def;
  race_config cfg = race_default_config();
  grip_load_error err;
  grip_load_error_clear(&err);
  if (robot_file && robot_params_load(robot_file, &cfg.params, &err) != 0) {
    fprintf(stderr, "grip race: %s\n", err.message);
    race_scene_close(scene);
    return 1;
  }
  if (!isnan(robot_rate)) cfg.params.control_rate = robot_rate; /* over the --robot file's */
  grip_track *track = NULL;
  grip_track_pit pit = {0};
  char track_name[128] = "";
  if (scene) {
    snprintf(track_name, sizeof track_name, "%s", scene->world->track_name);
    cfg.entries = scene->entries;
  } else if (grip_track_open_pit(track_spec, &track, track_name, sizeof track_name, &pit, &err) != 0) {
    fprintf(stderr, "grip race: %s\n", err.message);
    return 1;
  }
  /* Refused here, not by the track loader: what a track must offer depends on the car. */
  const grip_track *race_track = scene ? scene->world->track : track;
  for (int k = 0; k < (scene ? cars : 1); ++k) {
    const grip_vehicle_def *def = scene ? scene->entries[k].car : &car;
    char why[256];
    if (race_check_track(race_track, def, why, sizeof why) != 0) {
      fprintf(stderr, "grip race: %s with %s: %s\n", track_name, scene ? scene->entries[k].car_name : car.name, why);
      grip_track_destroy(track);
      race_scene_close(scene);
      return 1;
    }
  }
  FILE *tel = NULL;
  if (telemetry) {
    tel = fopen(telemetry, "w");
    if (!tel) {
      fprintf(stderr, "grip race: %s: cannot write\n", telemetry);
      grip_track_destroy(track);
      race_scene_close(scene);
      return 1;
    }
  }
  cfg.track = scene ? scene->world->track : track;
  cfg.car = &car;
  cfg.car_name = car.name;
  cfg.laps = laps;
  cfg.cars = cars;
  cfg.dt = dt;
  cfg.telemetry = tel;
  cfg.telemetry_rate = rate;
  cfg.max_time = time_cap;
  cfg.no_fuel = no_fuel;
  cfg.tyre_state = tyre_switch;
  cfg.tyre_temperature = isfinite(tyre_temp_c) ? tyre_temp_c + 273.15 : 0.0;
  cfg.tyre_pressure = isfinite(tyre_pressure_kpa) ? 1e3 * tyre_pressure_kpa : 0.0;
  cfg.pit = pit.present ? &pit : NULL;
  cfg.fuel_mode = fuel_mode;
  cfg.fuel_kg = fuel_kg;
  cfg.progress = (!quiet && laps * cars >= 10) ? stderr : NULL;
  race_result res;
  double load_s = clock_wall_s() - load0, load_cpu_s = clock_cpu_s() - load_cpu0;
  rc = race_run(&cfg, &res);
  if (tel) fclose(tel);
  grip_track_destroy(track);
  if (rc != 0) {
    race_scene_close(scene);
    fprintf(stderr, "grip race: the race could not be set up (grid off the track?)\n");
    return 1;
  }
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_string(&w, "track", track_name);
    json_bool(&w, "pit_lane", pit.present);
    json_int(&w, "laps", laps);
    json_number(&w, "dt_s", dt);
    json_number(&w, "sim_time_s", res.sim_time_s);
    json_string(&w, "status", res.time_cap ? "time cap" : "complete");
    json_number(&w, "time_cap_s", res.max_time_s);
    json_number(&w, "realtime_factor", res.realtime_factor);
    json_number(&w, "wall_time_s", res.wall_time_s);
    json_int(&w, "car_steps", res.car_steps);
    char hash[20];
    snprintf(hash, sizeof hash, "%016" PRIx64, res.state_hash);
    json_string(&w, "state_hash", hash);
    json_number(&w, "ns_per_car_step", res.ns_per_car_step);
    json_number(&w, "startup_s", load_s + res.setup_wall_s);
    json_number(&w, "load_s", load_s);
    json_number(&w, "setup_s", res.setup_wall_s);
    json_number(&w, "cpu_ns_per_car_step", res.cpu_ns_per_car_step);
    json_number(&w, "startup_cpu_s", load_cpu_s + res.setup_cpu_s);
    json_open(&w, "cars", '[');
    for (int k = 0; k < res.cars; ++k) {
      const race_car_result *r = &res.results[k];
      const char *reason = race_retire_reason_name(r->reason);
      json_open(&w, NULL, '{');
      json_int(&w, "position", k + 1);
      json_string(&w, "name", r->name);
      json_string(&w, "car", r->car);
      json_int(&w, "grid", r->grid);
      json_int(&w, "laps", r->laps);
      json_bool(&w, "finished", r->finished);
      json_string(&w, "status", race_car_status_name(r->status));
      if (reason) json_string(&w, "reason", reason);
      else json_null(&w, "reason");
      json_number(&w, "retired_time_s", r->retired_time_s); /* null unless retired */
      json_number(&w, "total_time_s", r->laps > 0 ? r->total_time_s : NAN);
      json_number(&w, "best_lap_s", r->best_lap_s);
      json_number(&w, "plan_lap_s", r->plan_lap_s);
      json_number(&w, "top_speed_kmh", r->top_speed_kmh);
      json_number(&w, "off_track_s", r->off_track_s);
      json_number(&w, "wall_contact_s", r->wall_contact_s);
      json_number(&w, "progress_m", r->progress_m);
      json_int(&w, "pit_stops", r->pit_stops);
      json_number(&w, "pit_lane_s", r->pit_lane_s);
      json_number(&w, "pit_service_s", r->pit_service_s);
      json_number(&w, "refuelled_kg", r->refuelled_kg);
      json_number(&w, "start_fuel_kg", r->start_fuel_kg);
      json_number(&w, "fuel_used_kg", r->fuel_used_kg);
      json_number(&w, "pit_limit_excess_ms", r->pit_limit_excess);
      json_open(&w, "lap_times_s", '[');
      for (int l = 0; l < r->laps_recorded; ++l) json_number(&w, NULL, r->lap_times[l]);
      json_close(&w, ']');
      if (r->tyre_state) tyres_json(&w, r);
      json_close(&w, '}');
    }
    json_close(&w, ']');
    json_end(&w);
  } else {
    print_results(&res, track_name, laps, cars, dt, load_s, pit.present);
    print_tyres(&res);
  }
  race_result_free(&res);
  race_scene_close(scene); /* after the results, which point at its car names */
  return 0;
}
