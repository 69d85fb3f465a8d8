#define _POSIX_C_SOURCE 200809L
#include "race.h"
#include "car_layout.h"
#include "clocks.h"

#include "pit.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

race_config race_default_config(void) {
  return (race_config){.track = NULL, .car = NULL, .entries = NULL, .car_name = NULL, .params = robot_default_params(),
                       .laps = 3, .cars = 1, .dt = 0.01, .max_time = 0.0, .stuck_time = RACE_STUCK_TIME,
                       .no_fuel = false, .pit = NULL, .fuel_mode = RACE_FUEL_CAR, .fuel_kg = 0.0, .on_lap = NULL,
                       .on_period = NULL, .period_s = 0.0, .callback_user = NULL, .telemetry = NULL,
                       .telemetry_rate = 10.0, .progress = NULL, .tyre_state = 0,
                       .tyre_temperature = 0.0, .tyre_pressure = 0.0};
}

const char *race_car_status_name(race_car_status s) {
  switch (s) {
    case RACE_CAR_FINISHED: return "finished";
    case RACE_CAR_RETIRED: return "retired";
    default: return "running at time cap";
  }
}

const char *race_retire_reason_name(race_retire_reason r) {
  switch (r) {
    case RACE_RETIRE_OUT_OF_FUEL: return "out of fuel";
    case RACE_RETIRE_STUCK: return "stuck";
    case RACE_RETIRE_LEFT_WORLD: return "left the world";
    case RACE_RETIRE_NUMERICAL: return "non-finite state";
    default: return NULL;
  }
}

typedef struct race_car {
  grip_vehicle_id id;
  const grip_vehicle_def *def;
  grip_vehicle_def own_def; /* the definition with fuel use off (no_fuel) */
  robot *bot;
  double progress;    /* m along the track from the start line, unwrapped */
  double last_s;      /* wrapped distance at the previous step */
  long long next_mark; /* next sector boundary index: mark k at k·L/3 */
  double best_progress;      /* m, furthest progress, counted in RACE_STUCK_DISTANCE steps */
  double best_progress_time; /* s, when it was last reached */
  bool out;                  /* finished or retired: no longer timed */
  bool removed;              /* retired: taken out of the world, no longer driven */
  double mark_time;   /* time of the previous sector boundary */
  double lap_start;   /* time the current lap started */
  grip_vehicle_input input;
  grip_vehicle_input applied; /* the last input the world took (applied_ok) */
  bool applied_ok;
  double finish_time;
  int index;
  pit_car pit;               /* pit stops and fuel strategy (sim/pit.c) */
  bool held;                 /* standing in its box, being served */
  /* Every wheel of a car with more than GRIP_WHEEL_COUNT (a truck's six), for the robot and the
   * records; a car's four are in its state. */
  grip_wheel_state wheels[GRIP_MAX_WHEELS];
  int wheel_count;
} race_car;

/* The car's wheels after its state was read: all of them into c->wheels when the state's array
 * does not hold them, handed to the robot. */
static void fetch_wheels(grip_world *world, race_car *c, const grip_vehicle_state *st) {
  if (st->wheel_count <= GRIP_WHEEL_COUNT) {
    c->wheel_count = st->wheel_count;
    return;
  }
  c->wheel_count = grip_vehicle_get_wheels(world, c->id, c->wheels, GRIP_MAX_WHEELS);
  robot_set_wheels(c->bot, c->wheels, c->wheel_count);
}

/* The car's state after a step, for the timing and the robot's next call. In full where the next
 * step reads more than the car's motion: its robot decides, a telemetry row is written, its
 * tyres are recorded. Otherwise its motion only (grip_vehicle_get_motion, ~190 instructions
 * against ~670 for a car's whole state), into the same state: the wheels, drivetrain and
 * systems keep their last full reading, which nothing reads before the next full one (the
 * robot's locate reads the wheels near the road's edge for the surface under them, and reads
 * them again, in full, before it decides). */
static void read_state(grip_world *world, race_car *c, grip_vehicle_state *st, bool full) {
  if (full) {
    grip_vehicle_get_state(world, c->id, st);
    fetch_wheels(world, c, st);
    return;
  }
  grip_vehicle_motion m;
  grip_vehicle_get_motion(world, c->id, &m);
  st->pose = m.pose;
  st->center_of_mass = m.center_of_mass;
  st->linear_velocity = m.linear_velocity;
  st->angular_velocity = m.angular_velocity;
  st->local_velocity = m.local_velocity;
  st->speed = m.speed;
  st->fuel_mass = m.fuel_mass;
  st->time = m.time;
  st->out_of_world = m.out_of_world;
}

/* Wheel i of the car whose state is st (i < the car's wheel count). */
static const grip_wheel_state *car_wheel(const race_car *c, const grip_vehicle_state *st, int i) {
  return st->wheel_count <= GRIP_WHEEL_COUNT ? &st->wheels[i] : &c->wheels[i];
}

static int compare_results(const void *pa, const void *pb) {
  const race_car_result *a = pa, *b = pb;
  /* Finishers by time; then everyone else by laps completed, then by progress. */
  if (a->finished != b->finished) return a->finished ? -1 : 1;
  if (a->finished) {
    if (a->total_time_s != b->total_time_s) return a->total_time_s < b->total_time_s ? -1 : 1;
  } else {
    if (a->laps != b->laps) return a->laps > b->laps ? -1 : 1;
    if (a->progress_m != b->progress_m) return a->progress_m > b->progress_m ? -1 : 1;
  }
  return a->grid - b->grid;
}

/* The tyre-state columns are written only when a car of the race has it on (a race without
 * it writes the same file as before). Per-wheel columns: fl, fr, rl, rr when every car is a
 * four-wheel car; otherwise w1 .. wN for the most wheels of any car, axle by axle, left before
 * right (grip_vehicle_state order), empty for a car with fewer. */
static void wheel_column_name(char *name, size_t size, int i, bool car_names) {
  static const char *w[4] = {"fl", "fr", "rl", "rr"};
  if (car_names) snprintf(name, size, "%s", w[i]);
  else snprintf(name, size, "w%d", i + 1);
}

static void telemetry_header(FILE *f, bool tyre_state, int wheels, bool car_names) {
  fputs("time_s,car,lap,distance_m,lateral_m,x_m,y_m,z_m,speed_kmh,throttle,brake,steering,gear,rpm,lat_g,long_g", f);
  char w[16];
  for (int i = 0; i < wheels; ++i) {
    wheel_column_name(w, sizeof w, i, car_names);
    fprintf(f, ",slip_ratio_%s,slip_angle_%s,load_%s", w, w, w);
  }
  fputs(",target_lateral_m,target_speed_kmh,predicted_speed_kmh", f);
  if (tyre_state)
    for (int i = 0; i < wheels; ++i) {
      wheel_column_name(w, sizeof w, i, car_names);
      fprintf(f, ",tyre_surface_k_%s,tyre_carcass_k_%s,tyre_gas_k_%s,tyre_pressure_kpa_%s,tread_mm_%s,tyre_grip_%s", w,
              w, w, w, w, w);
    }
  fputc('\n', f);
}

static void telemetry_tyres(FILE *f, const race_car *c, const grip_vehicle_state *st, int wheels) {
  for (int i = 0; i < wheels; ++i) {
    if (i >= c->wheel_count) {
      fputs(",,,,,,", f);
      continue;
    }
    const grip_wheel_state *w = car_wheel(c, st, i);
    fprintf(f, ",%.3f,%.3f,%.3f,%.3f,%.5f,%.5f", w->tyre_surface_temperature, w->tyre_carcass_temperature,
            w->tyre_gas_temperature, 1e-3 * w->tyre_pressure, 1e3 * w->tread_depth, w->tyre_grip);
  }
}

/* Mean over the car's wheels (the four of a car summed as before). */
static double wheel_mean(const double *x, int n) {
  if (n == 4) return 0.25 * (x[0] + x[1] + x[2] + x[3]);
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += x[i];
  return n > 0 ? sum / n : 0.0;
}

/* The result's copy of the car's tyre state. */
static void record_tyres(race_car_result *r, const race_car *c, const grip_vehicle_state *st) {
  r->wheel_count = c->wheel_count;
  for (int i = 0; i < c->wheel_count; ++i) {
    const grip_wheel_state *w = car_wheel(c, st, i);
    r->tyre_surface_temperature[i] = w->tyre_surface_temperature;
    r->tyre_carcass_temperature[i] = w->tyre_carcass_temperature;
    r->tyre_gas_temperature[i] = w->tyre_gas_temperature;
    r->tyre_pressure[i] = w->tyre_pressure;
    r->tread_depth[i] = w->tread_depth;
    r->tyre_grip[i] = w->tyre_grip;
  }
}

static void telemetry_row(FILE *f, double t, int car, int lap, const robot_status *rs, const race_car *c,
                          const grip_vehicle_state *st, const grip_vehicle_input *in, bool tyre_state, int wheels) {
  double s = rs->distance, lat = rs->lateral;
  fprintf(f, "%.3f,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%.4f,%.4f,%d,%.1f,%.4f,%.4f", t, car, lap, s, lat,
          st->pose.position.x, st->pose.position.y, st->pose.position.z, 3.6 * st->speed, in->throttle, in->brake,
          in->steering, st->gear, st->engine_rpm, st->local_acceleration.y / 9.81, st->local_acceleration.x / 9.81);
  for (int i = 0; i < wheels; ++i) {
    if (i >= c->wheel_count) {
      fputs(",,,", f);
      continue;
    }
    const grip_wheel_state *w = car_wheel(c, st, i);
    fprintf(f, ",%.5f,%.5f,%.1f", w->slip_ratio, w->slip_angle, w->load);
  }
  fprintf(f, ",%.3f,%.3f,%.3f", rs->target_lateral, 3.6 * rs->target_speed, 3.6 * rs->predicted_speed);
  if (tyre_state) telemetry_tyres(f, c, st, wheels);
  fputc('\n', f);
}

race_slot race_grid_slot(const grip_track *track, int k) {
  double L = grip_track_length(track);
  double back = 6.0 + 8.0 * (k / 2) + 4.0 * (k % 2);
  grip_track_point p = grip_track_point_at(track, L - back);
  double lat = (k % 2 == 0 ? 1.0 : -1.0) * fmin(3.0, 0.25 * p.width);
  return (race_slot){.x = p.position.x - sin(p.heading) * lat, .y = p.position.y + cos(p.heading) * lat,
                     .heading = p.heading, .distance = p.distance, .lateral = lat, .back = back};
}

double race_car_turning_radius(const grip_vehicle_def *car) {
  double wheelbase = car_effective_wheelbase(car); /* a truck's: to the tandem's centre */
  double lock = car->steering.ratio > 0.0 ? car->steering.max_wheel_angle / car->steering.ratio : 0.0;
  double s = sin(fmin(fabs(lock), 0.5 * 3.14159265358979323846));
  return s > 0.0 ? fabs(wheelbase) / s : INFINITY;
}

int race_check_track(const grip_track *track, const grip_vehicle_def *car, char *msg, size_t msg_size) {
  grip_track_stats ts = grip_track_get_stats(track);
  double turning = race_car_turning_radius(car);
  if (ts.min_radius < turning) {
    snprintf(msg, msg_size,
             "the track's tightest turn has a radius of %.2f m, under the car's turning radius of %.2f m "
             "(wheelbase / sin(full-lock road-wheel angle)): the car cannot drive round it",
             ts.min_radius, turning);
    return -1;
  }
  double narrowest = INFINITY;
  for (int i = 0; i < grip_track_segment_count(track); ++i) {
    const grip_track_segment_def *sd = grip_track_segment(track, i);
    narrowest = fmin(narrowest, fmin(sd->width_start, sd->width_end));
  }
  double width = car->body.dimensions.y;
  if (narrowest < width) {
    snprintf(msg, msg_size, "the road is %.2f m wide at its narrowest, under the car's width of %.2f m", narrowest,
             width);
    return -1;
  }
  return 0;
}

/* The slot of an entry placed by the caller: located on the track; behind the line when it is in
 * the last half lap. */
static race_slot entry_slot(const grip_track *track, const race_entry *e) {
  double L = grip_track_length(track);
  grip_track_location loc = grip_track_locate_full(track, e->x, e->y);
  return (race_slot){.x = e->x, .y = e->y, .heading = e->heading, .distance = loc.distance, .lateral = loc.lateral,
                     .back = loc.distance > 0.5 * L ? L - loc.distance : -loc.distance};
}

/* The car's start fuel (cfg->fuel_mode) and its pit stops (lane may be NULL). */
static int race_setup_fuel(const race_config *cfg, const pit_lane *lane, grip_world *world, race_car *c, int k) {
  const grip_vehicle_def *def = grip_vehicle_get_def(world, c->id);
  double tank = def->fuel.capacity;
  double per_lap = pit_robot_fuel_per_lap(def, c->bot);
  if (pit_car_init_robot(&c->pit, lane, k, def, c->bot, cfg->laps) != 0) return -1;
  double fuel = def->fuel.mass;
  switch (cfg->fuel_mode) {
    case RACE_FUEL_AUTO: fuel = per_lap > 0.0 ? fuel_strategy_start_fuel(&c->pit.strategy) : def->fuel.mass; break;
    case RACE_FUEL_FULL: fuel = tank; break;
    case RACE_FUEL_KG: fuel = fmin(fmax(cfg->fuel_kg, 0.0), tank); break;
    default: break;
  }
  c->pit.start_fuel = fuel;
  return grip_vehicle_set_fuel(world, c->id, fuel) == GRIP_OK ? 0 : -1;
}

int race_run(const race_config *cfg, race_result *out) {
  memset(out, 0, sizeof *out);
  if (!cfg->track || (!cfg->car && !cfg->entries) || cfg->cars < 1 || cfg->cars > RACE_MAX_CARS || cfg->laps < 0 ||
      cfg->laps > RACE_MAX_LAPS || !(cfg->dt > 0.0) || (cfg->laps == 0 && !(cfg->max_time > 0.0)))
    return -1;
  double setup0 = clock_wall_s(), setup_cpu0 = clock_cpu_s();
  const grip_track *track = cfg->track;
  grip_track_ground_context wall_context = {.track = track}; /* the wall-contact statistic's queries */
  double L = grip_track_length(track);
  int K = cfg->cars;
  grip_track_ground_context gctx;
  grip_world_def wd = grip_default_world_def();
  wd.ground = grip_track_ground(&gctx, track);
  wd.barrier = grip_track_barriers(&gctx, track); /* the walls at the run-offs' outer edges */
  wd.vehicle_capacity = K;
  grip_world *world = grip_create_world(&wd);
  pit_lane lane;
  bool have_lane = pit_lane_init(&lane, track, cfg->pit) == 0;
  race_car *cars = calloc((size_t)K, sizeof *cars);
  race_car_result *res = calloc((size_t)K, sizeof *res);
  robot_car_view *views = calloc((size_t)K, sizeof *views);
  robot_car_view *others = calloc((size_t)K, sizeof *others);
  grip_vehicle_state *states = calloc((size_t)K, sizeof *states); /* each car's, after the last step */
  int *order = calloc((size_t)K, sizeof *order); /* running cars by distance along the track */
  int *near = calloc((size_t)K, sizeof *near);
  int *rank = calloc((size_t)K, sizeof *rank); /* a car's index in order[] */
  int rc = 0;
  if (!world || !cars || !res || !views || !others || !states || !order || !near || !rank) {
    rc = -1;
    goto done;
  }
  /* Grid: two columns, rows 8 m apart, the right column 4 m further back; first row 6 m behind
   * the line. */
  for (int k = 0; k < K; ++k) {
    race_car *c = &cars[k];
    race_car_result *r = &res[k];
    c->index = k;
    const race_entry *e = cfg->entries ? &cfg->entries[k] : NULL;
    c->def = e ? e->car : cfg->car;
    if (!c->def) {
      rc = -1;
      goto done;
    }
    if (cfg->no_fuel || cfg->tyre_state != 0 || cfg->tyre_temperature > 0.0 || cfg->tyre_pressure > 0.0) {
      c->own_def = *c->def;
      if (cfg->no_fuel) c->own_def.engine.fuel_per_joule = 0.0;
      if (cfg->tyre_state != 0) c->own_def.tyre_state.enabled = cfg->tyre_state > 0;
      if (cfg->tyre_temperature > 0.0) c->own_def.tyre_state.initial_temperature = cfg->tyre_temperature;
      if (cfg->tyre_pressure > 0.0) c->own_def.tyre_state.pressure = cfg->tyre_pressure;
      c->def = &c->own_def;
    }
    if (e && e->name) snprintf(r->name, sizeof r->name, "%s", e->name);
    else snprintf(r->name, sizeof r->name, "robot-%d", k + 1);
    r->grid = k + 1;
    const char *car_name = e ? e->car_name : cfg->car_name;
    r->car = car_name ? car_name : (c->def->name ? c->def->name : "car");
    r->best_lap_s = NAN;
    r->last_lap_s = NAN;
    r->retired_time_s = NAN;
    r->max_edge_excess = -INFINITY;
    r->tyre_state = c->def->tyre_state.enabled;
    race_slot p = e ? entry_slot(track, e) : race_grid_slot(track, k);
    double back = p.back, lat = p.lateral;
    c->id = grip_create_vehicle(world, c->def);
    if (!grip_vehicle_is_valid(world, c->id) || grip_vehicle_place(world, c->id, p.x, p.y, p.heading) != GRIP_OK) {
      rc = -1;
      goto done;
    }
    /* Cars of one definition share one line computation (the robot's start-up). */
    c->bot = !e && k > 0 ? robot_clone(cars[0].bot)
                                          : robot_create(track, grip_vehicle_get_def(world, c->id), &cfg->params, wd.air_density);
    if (!c->bot) {
      rc = -1;
      goto done;
    }
    r->plan_lap_s = robot_plan_lap_time(c->bot);
    if (race_setup_fuel(cfg, have_lane ? &lane : NULL, world, c, k) != 0) {
      rc = -1;
      goto done;
    }
    grip_vehicle_state fs;
    grip_vehicle_get_state(world, c->id, &fs);
    r->start_fuel_kg = fs.fuel_mass;
    c->progress = -back;
    c->best_progress = -back;
    c->best_progress_time = 0.0;
    c->last_s = p.distance;
    c->next_mark = 0;
    c->input = grip_default_vehicle_input();
    c->finish_time = NAN;
    views[k] = (robot_car_view){.distance = p.distance, .lateral = lat, .speed = 0.0,
                                .length = c->def->body.dimensions.x, .width = c->def->body.dimensions.y};
    grip_vehicle_get_state(world, c->id, &states[k]);
    fetch_wheels(world, c, &states[k]);
    r->wheel_count = c->wheel_count;
    order[k] = k;
  }
  double max_length = 0.0;
  for (int k = 0; k < K; ++k) max_length = fmax(max_length, cars[k].def->body.dimensions.x);
  int running = K; /* entries of order[] */
  bool tyre_columns = false;
  for (int k = 0; k < K; ++k) tyre_columns = tyre_columns || cars[k].def->tyre_state.enabled;
  int tel_wheels = 0;
  bool tel_car_names = true;
  for (int k = 0; k < K; ++k) {
    if (cars[k].wheel_count > tel_wheels) tel_wheels = cars[k].wheel_count;
    tel_car_names = tel_car_names && cars[k].wheel_count == 4 && cars[k].def->axle_count == 2;
  }
  if (cfg->telemetry) telemetry_header(cfg->telemetry, tyre_columns, tel_wheels, tel_car_names);
  double dt = cfg->dt;
  /* Default cap: 300 s per lap, or three times the slowest robot's planned lap where that is
   * longer (TORCS's spring, 22 km, is planned at 443 s a lap), + 60 s. */
  double cap_lap = 300.0;
  for (int k = 0; k < K; ++k)
    if (isfinite(res[k].plan_lap_s) && 3.0 * res[k].plan_lap_s > cap_lap) cap_lap = 3.0 * res[k].plan_lap_s;
  double max_time = cfg->max_time > 0.0 ? cfg->max_time : cap_lap * cfg->laps + 60.0;
  double stuck_time = cfg->stuck_time > 0.0 ? cfg->stuck_time : RACE_STUCK_TIME;
  long long tel_every = cfg->telemetry_rate > 0.0 ? llround(1.0 / (cfg->telemetry_rate * dt)) : 0;
  if (tel_every < 1) tel_every = 1;
  long long marks_total = cfg->laps > 0 ? 3LL * cfg->laps : LLONG_MAX;
  int done_cars = 0, leader_laps = 0, removed_cars = 0;
  double t = 0.0, wall0 = clock_wall_s(), cpu0 = clock_cpu_s(), next_period = cfg->period_s;
  long long step = 0, car_steps = 0;
  out->setup_wall_s = wall0 - setup0;
  out->setup_cpu_s = cpu0 - setup_cpu0;
  while (done_cars < K && t < max_time) {
    car_steps += K - removed_cars;
    /* The running cars in order along the track (distance, then index): insertion sort, as the
     * order changes by a swap or a car crossing the line from one step to the next. */
    int m = 0;
    for (int i = 0; i < running; ++i)
      if (!cars[order[i]].removed) order[m++] = order[i];
    running = m;
    for (int i = 1; i < running; ++i) {
      int k = order[i], j = i;
      while (j > 0 && (views[order[j - 1]].distance > views[k].distance ||
                       (views[order[j - 1]].distance == views[k].distance && order[j - 1] > k))) {
        order[j] = order[j - 1];
        --j;
      }
      order[j] = k;
    }
    for (int i = 0; i < running; ++i) rank[order[i]] = i;
    /* Drive: each robot sees the others on the track as they were after the previous step.
     * A finished car drives on (a cool-down lap, untimed); a retired one is gone. Each robot is
     * given only the cars within its view window (robot_view_window, + 1 m for rounding), those
     * ahead nearest first, then those behind: what it does is the same as with all of them in
     * any order, and a step costs O(cars × cars nearby) instead of O(cars²). */
    for (int k = 0; k < K; ++k) {
      race_car *c = &cars[k];
      if (c->removed) continue;
      int i = rank[k];
      double ahead, behind;
      robot_view_window(c->bot, states[k].speed, max_length, &ahead, &behind);
      int n = 0;
      const double here = views[k].distance;
      for (int q = 1, a = i; q < running; ++q) { /* forwards along the track, wrapping past the line */
        a = a + 1 == running ? 0 : a + 1;
        int j = order[a];
        double d = views[j].distance - here;
        if (d < 0.0) d += L;
        if (d > ahead + 1.0) break;
        near[n++] = j;
      }
      for (int q = 1, b = i, ahead_n = n; q < running - ahead_n; ++q) { /* backwards, to the cars not yet taken */
        b = b == 0 ? running - 1 : b - 1;
        int j = order[b];
        double d = here - views[j].distance;
        if (d < 0.0) d += L;
        if (d > behind + 1.0) break;
        near[n++] = j;
      }
      for (int a = 0; a < n; ++a) others[a] = views[near[a]];
      const grip_vehicle_state *sk = &states[k];
      c->input = robot_drive(c->bot, sk, others, n, dt);
      pit_car_input(&c->pit, &c->input, sk, robot_get_status(c->bot).distance, c->held);
      /* The world is told only of a change (a robot holds its decision between two): bytes
       * compared, so a new field counts, and padding that differs only sets the same input again. */
      if (!c->applied_ok || memcmp(&c->input, &c->applied, sizeof c->input) != 0) {
        c->applied_ok = grip_vehicle_set_input(world, c->id, &c->input) == GRIP_OK;
        c->applied = c->input;
      }
      if (tel_every && cfg->telemetry && step % tel_every == 0) {
        robot_status rs = robot_get_status(c->bot);
        int lap = (int)floor(c->progress / L) + 1;
        telemetry_row(cfg->telemetry, t, k + 1, lap < 1 ? 1 : lap, &rs, c, sk, &c->input, tyre_columns, tel_wheels);
      }
    }
    grip_world_step(world, dt);
    t = (double)(step + 1) * dt; /* not summed: no drift over a long race */
    ++step;
    /* Timing. */
    for (int k = 0; k < K; ++k) {
      race_car *c = &cars[k];
      race_car_result *r = &res[k];
      if (c->removed) continue;
      bool full = r->tyre_state || robot_decides_next(c->bot, dt) || (tel_every && cfg->telemetry && step % tel_every == 0);
      read_state(world, c, &states[k], full);
      const grip_vehicle_state *st = &states[k];
      /* Where the car is now (the robot's own locate, with its segment hint). */
      robot_status loc = robot_locate(c->bot, st);
      double d = loc.distance - c->last_s;
      if (d > 0.5 * L) d -= L;
      if (d < -0.5 * L) d += L;
      double prev = c->progress;
      c->progress += d;
      c->last_s = loc.distance;
      views[k] = (robot_car_view){.distance = loc.distance, .lateral = loc.lateral, .speed = st->speed,
                                  .length = c->def->body.dimensions.x, .width = c->def->body.dimensions.y};
      if (c->out) continue;
      if (r->tyre_state) record_tyres(r, c, st);
      bool lane_traffic = false;
      if (c->pit.phase == PIT_SERVICE)
        for (int j = 0; j < K && !lane_traffic; ++j)
          lane_traffic = j != k && !cars[j].removed && !cars[j].out &&
                         pit_car_blocks_release(&c->pit, views[j].distance, views[j].lateral, states[j].speed);
      c->held = pit_car_update(&c->pit, c->bot, world, c->id, st, prev, c->progress, loc.distance, loc.lateral,
                               cfg->laps > 0 ? cfg->laps * L : 0.0, lane_traffic, t, dt);
      bool pit_road = pit_car_on_pit_road(&c->pit, loc.distance);
      double excess = fabs(loc.lateral) - loc.half_width;
      if (excess > r->max_edge_excess && !pit_road) r->max_edge_excess = excess;
      if (excess > 0.0) {
        if (!pit_road) r->off_track_s += dt;
        /* Off the road: touching a barrier? The nearest wall as the world's walls see it (either
         * side, and beyond the car's own segment where a run-off ends in a taper or a step). The
         * body box's reach towards it is ½W·cos ψ + ½L·|sin ψ|, ψ the car's heading relative to
         * the barrier's line. */
        grip_barrier_hit b;
        if (!grip_track_barrier_query(&wall_context, NULL, st->pose.position.x, st->pose.position.y, &b)) b.distance = INFINITY;
        const grip_quat q = st->pose.rotation;
        double fx = 1.0 - 2.0 * (q.y * q.y + q.z * q.z), fy = 2.0 * (q.x * q.y + q.w * q.z);
        double fn = hypot(fx, fy);
        double sin_psi = fn > 0.0 ? fabs(fx * b.normal.x + fy * b.normal.y) / fn : 0.0;
        double cos_psi = sqrt(fmax(0.0, 1.0 - sin_psi * sin_psi));
        double reach = 0.5 * c->def->body.dimensions.y * cos_psi + 0.5 * c->def->body.dimensions.x * sin_psi;
        if (b.distance < reach + 0.05) r->wall_contact_s += dt;
      }
      if (3.6 * st->speed > r->top_speed_kmh) r->top_speed_kmh = 3.6 * st->speed;
      while (c->next_mark < marks_total && c->progress >= (double)(c->next_mark + 1) * L / 3.0) {
        double mark = (double)(c->next_mark + 1) * L / 3.0;
        double tc = t - dt + dt * (mark - prev) / (c->progress - prev); /* interpolated crossing */
        long long lap = c->next_mark / 3;
        int sector = (int)(c->next_mark % 3);
        if (lap < RACE_MAX_LAPS) r->sector_times[lap][sector] = tc - c->mark_time;
        c->mark_time = tc;
        if (sector == 2) {
          double lap_time = tc - c->lap_start;
          c->lap_start = tc;
          if (lap < RACE_MAX_LAPS) {
            r->lap_times[lap] = lap_time;
            if (r->tyre_state) {
              r->lap_tread_depth[lap] = wheel_mean(r->tread_depth, r->wheel_count);
              r->lap_tyre_grip[lap] = wheel_mean(r->tyre_grip, r->wheel_count);
            }
            r->laps_recorded = (int)lap + 1;
          }
          r->laps = (int)lap + 1;
          r->last_lap_s = lap_time;
          if (isnan(r->best_lap_s) || lap_time < r->best_lap_s) r->best_lap_s = lap_time;
          r->total_time_s = tc;
          pit_car_lap(&c->pit, st->fuel_mass);
          if (cfg->on_lap) cfg->on_lap(cfg->callback_user, k, r->laps, lap_time, tc);
          if (r->laps > leader_laps) {
            leader_laps = r->laps;
            if (cfg->progress) {
              if (cfg->laps > 0)
                fprintf(cfg->progress, "lap %d/%d: %s leads, lap %.3f s, race %.1f s\n", leader_laps, cfg->laps,
                        r->name, lap_time, tc);
              else
                fprintf(cfg->progress, "lap %d: %s leads, lap %.3f s, race %.1f s\n", leader_laps, r->name,
                        lap_time, tc);
            }
          }
        }
        c->next_mark++;
      }
      if (c->next_mark == marks_total) {
        /* its cool-down lap on the racing line (a stop's way out may still be set) */
        robot_set_route(c->bot, NULL);
        c->pit.phase = PIT_RACING;
        c->held = false;
        c->finish_time = r->total_time_s;
        r->finished = true;
        r->status = RACE_CAR_FINISHED;
        c->out = true;
        done_cars++;
        continue;
      }
      /* Retirement: a car that cannot go on. */
      if (c->progress > c->best_progress + RACE_STUCK_DISTANCE) {
        c->best_progress = c->progress;
        c->best_progress_time = t;
      }
      bool finite = isfinite(st->pose.position.x) && isfinite(st->pose.position.y) && isfinite(st->pose.position.z) &&
                    isfinite(st->speed);
      race_retire_reason why = RACE_RETIRE_NONE;
      if (!finite) why = RACE_RETIRE_NUMERICAL;
      else if (st->out_of_world) why = RACE_RETIRE_LEFT_WORLD;
      else if (c->def->engine.fuel_per_joule > 0.0 && st->fuel_mass <= 0.0 && fabs(st->speed) < 0.5)
        why = RACE_RETIRE_OUT_OF_FUEL;
      else if (t - c->best_progress_time > stuck_time) why = RACE_RETIRE_STUCK;
      if (why != RACE_RETIRE_NONE) {
        r->status = RACE_CAR_RETIRED;
        r->reason = why;
        r->retired_time_s = t;
        c->out = c->removed = true;
        done_cars++;
        removed_cars++;
        /* Taken off the track, as marshals would: the others no longer meet it. */
        grip_destroy_vehicle(world, c->id);
        if (cfg->progress) fprintf(cfg->progress, "%s retires at %.1f s: %s\n", r->name, t, race_retire_reason_name(why));
      }
    }
    if (cfg->on_period && cfg->period_s > 0.0 && t >= next_period - 0.5 * dt) {
      cfg->on_period(cfg->callback_user, t);
      next_period += cfg->period_s;
    }
  }
  out->time_cap = done_cars < K;
  out->max_time_s = max_time;
  out->wall_time_s = clock_wall_s() - wall0;
  double loop_cpu_s = clock_cpu_s() - cpu0;
  for (int k = 0; k < K; ++k) {
    race_car_result *r = &res[k];
    const pit_car *pc = &cars[k].pit;
    r->progress_m = cars[k].progress;
    r->pit_stops = pc->stops;
    r->pit_lane_s = pc->lane_time;
    r->pit_service_s = pc->service_time;
    r->refuelled_kg = pc->refuelled;
    r->pit_limit_excess = pc->limit_excess;
    double fuel_end = r->start_fuel_kg;
    grip_vehicle_state end_state;
    if (!cars[k].removed && grip_vehicle_get_state(world, cars[k].id, &end_state) == GRIP_OK) fuel_end = end_state.fuel_mass;
    r->fuel_used_kg = cars[k].removed ? NAN : r->start_fuel_kg + pc->refuelled - fuel_end;
  }
  qsort(res, (size_t)K, sizeof *res, compare_results);
  out->cars = K;
  out->results = res;
  res = NULL;
  out->sim_time_s = t;
  out->steps = step;
  out->car_steps = car_steps;
  out->state_hash = grip_world_state_hash(world);
  out->ns_per_car_step = car_steps > 0 ? 1e9 * out->wall_time_s / (double)car_steps : NAN;
  out->cpu_ns_per_car_step = car_steps > 0 ? 1e9 * loop_cpu_s / (double)car_steps : NAN;
  out->realtime_factor = out->wall_time_s > 0.0 ? t / out->wall_time_s : INFINITY;
done:
  if (cars)
    for (int k = 0; k < K; ++k) {
      robot_destroy(cars[k].bot);
      pit_car_free(&cars[k].pit);
    }
  free(cars);
  free(res);
  free(views);
  free(others);
  free(states);
  free(order);
  free(near);
  free(rank);
  if (world) grip_destroy_world(world);
  return rc;
}

void race_result_free(race_result *r) {
  free(r->results);
  r->results = NULL;
}
