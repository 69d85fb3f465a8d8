/* libgrip_python: the flat C interface the Python package loads with cffi (grip_python.h). It
 * adds no physics: every call forwards to libgrip, the loaders, the robot or the race, and the
 * vectorised calls are loops over the public API, so a Python run gives the same bits as the same
 * run written in C. */
#define _POSIX_C_SOURCE 200809L
#include "grip_python.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "car_file.h"
#include "race.h"
#include "robot.h"
#include "scene.h"
#include "scene_world.h"
#include "task_pool.h"
#include "tir.h"
#include "track_file.h"

static void set_error(char *error, int error_size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_error(char *error, int error_size, const char *fmt, ...) {
  if (!error || error_size <= 0) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(error, (size_t)error_size, fmt, ap);
  va_end(ap);
}

/* --- cars ------------------------------------------------------------------------------ */

/* The loaders fill a caller's object: these allocate it, and on failure free it again and pass
 * the loader's "file:line: ..." message on. */
static void *allocate(size_t size, char *error, int error_size) {
  void *object = malloc(size);
  if (!object) set_error(error, error_size, "out of memory");
  return object;
}

static void *loaded_or_freed(void *object, int rc, const grip_load_error *err, char *error, int error_size) {
  if (rc == 0) return object;
  set_error(error, error_size, "%s", err->message);
  free(object);
  return NULL;
}

grip_car *gpy_car_open(const char *spec, char *error, int error_size) {
  grip_car *car = allocate(sizeof *car, error, error_size);
  if (!car) return NULL;
  grip_load_error err;
  grip_load_error_clear(&err);
  car = loaded_or_freed(car, grip_car_open(spec, car, &err), &err, error, error_size);
  if (car) grip_car_fix_pointers(car);
  return car;
}

grip_car *gpy_car_parse(const char *text, const char *name, const char *base_dir, char *error, int error_size) {
  grip_car *car = allocate(sizeof *car, error, error_size);
  if (!car) return NULL;
  grip_load_error err;
  grip_load_error_clear(&err);
  car = loaded_or_freed(car, grip_car_parse(text, name, base_dir, car, &err), &err, error, error_size);
  if (car) grip_car_fix_pointers(car);
  return car;
}

void gpy_car_free(grip_car *car) { free(car); }
const grip_vehicle_def *gpy_car_def(const grip_car *car) { return &car->def; }
const char *gpy_car_trailer(const grip_car *car) { return car->trailer.file; }
const char *gpy_car_name(const grip_car *car) { return car->name; }
int gpy_car_warning_count(const grip_car *car) { return car->warning_count; }

const char *gpy_car_warning(const grip_car *car, int index) {
  return index >= 0 && index < car->warning_count ? car->warnings[index] : NULL;
}

int gpy_car_save(const grip_car *car, const char *path, char *error, int error_size) {
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_car_save(car, path, NULL, &err) != 0) {
    set_error(error, error_size, "%s", err.message);
    return -1;
  }
  return 0;
}

void gpy_car_figures(const grip_car *car, double *out6) {
  const grip_vehicle_def *d = &car->def;
  out6[0] = d->body.mass + d->fuel.mass;
  out6[1] = d->body.dimensions.x;
  out6[2] = d->body.dimensions.y;
  out6[3] = d->axles[GRIP_AXLE_FRONT].x - d->axles[GRIP_AXLE_REAR].x;
  out6[4] = d->engine.rev_limit_rpm;
  out6[5] = (double)d->gearbox.forward_gears;
}

/* --- tracks ---------------------------------------------------------------------------- */

grip_track *gpy_track_open(const char *spec, char *name, int name_size, char *error, int error_size) {
  grip_track *track = NULL;
  grip_load_error err;
  grip_load_error_clear(&err);
  char buffer[128] = "";
  if (grip_track_open(spec, &track, buffer, sizeof buffer, &err) != 0) {
    set_error(error, error_size, "%s", err.message);
    return NULL;
  }
  set_error(name, name_size, "%s", buffer);
  return track;
}

enum { LOCATION_FIELDS = 7, POINT_FIELDS = 8 };

int gpy_location_field_count(void) { return LOCATION_FIELDS; }
int gpy_point_field_count(void) { return POINT_FIELDS; }

void gpy_track_locate(const grip_track *track, int count, const double *xy, int *hints, double *out) {
  for (int i = 0; i < count; ++i) {
    grip_track_location loc = grip_track_locate(track, xy[2 * i], xy[2 * i + 1], hints[i]);
    hints[i] = loc.segment;
    grip_track_point p = grip_track_point_at(track, loc.distance);
    double *o = out + (size_t)i * LOCATION_FIELDS;
    o[0] = loc.distance;
    o[1] = loc.lateral;
    o[2] = loc.z;
    o[3] = (double)loc.zone;
    o[4] = p.width;
    o[5] = p.heading;
    o[6] = p.curvature;
  }
}

void gpy_track_points(const grip_track *track, int count, const double *distances, double *out) {
  for (int i = 0; i < count; ++i) {
    grip_track_point p = grip_track_point_at(track, distances[i]);
    double *o = out + (size_t)i * POINT_FIELDS;
    o[0] = p.position.x;
    o[1] = p.position.y;
    o[2] = p.position.z;
    o[3] = p.heading;
    o[4] = p.curvature;
    o[5] = p.width;
    o[6] = p.banking;
    o[7] = p.slope;
  }
}

void gpy_track_stats(const grip_track *track, double *out6) {
  grip_track_stats st = grip_track_get_stats(track);
  out6[0] = st.length;
  out6[1] = st.width;
  out6[2] = st.min_radius;
  out6[3] = st.z_min;
  out6[4] = st.z_max;
  out6[5] = st.closure_error;
}

void gpy_track_grid_slot(const grip_track *track, int slot, double *out3) {
  race_slot s = race_grid_slot(track, slot);
  out3[0] = s.x;
  out3[1] = s.y;
  out3[2] = s.heading;
}

/* --- worlds ---------------------------------------------------------------------------- */

struct gpy_world {
  grip_world *world;
  task_pool *pool;
  grip_plane plane;                   /* flat ground when there is no track */
  grip_track_ground_context ground;   /* track surface and barriers (outlives the world) */
};

gpy_world *gpy_world_create(const grip_track *track, int threads, char *error, int error_size) {
  gpy_world *w = calloc(1, sizeof *w);
  if (!w) {
    set_error(error, error_size, "out of memory");
    return NULL;
  }
  grip_world_def wd = grip_default_world_def();
  if (track) {
    wd.ground = grip_track_ground(&w->ground, track);
    wd.barrier = grip_track_barriers(&w->ground, track);
  } else {
    w->plane = grip_default_plane();
    wd.ground = grip_plane_ground(&w->plane);
  }
  if (threads > 1) {
    w->pool = task_pool_create(threads);
    if (!w->pool) {
      set_error(error, error_size, "cannot start %d threads", threads);
      free(w);
      return NULL;
    }
    task_pool_attach(w->pool, &wd);
  }
  w->world = grip_create_world(&wd);
  if (!w->world) {
    set_error(error, error_size, "cannot create the world (out of memory)");
    task_pool_destroy(w->pool);
    free(w);
    return NULL;
  }
  return w;
}

void gpy_world_destroy(gpy_world *w) {
  if (!w) return;
  grip_destroy_world(w->world);
  task_pool_destroy(w->pool);
  free(w);
}

grip_world *gpy_world_handle(gpy_world *w) { return w->world; }

int gpy_world_step(gpy_world *w, double dt, int steps) {
  for (int k = 0; k < steps; ++k) {
    grip_result r = grip_world_step(w->world, dt);
    if (r != GRIP_OK) return (int)r;
  }
  return GRIP_OK;
}

int gpy_worlds_step(gpy_world *const *worlds, int count, double dt, int steps) {
  for (int k = 0; k < steps; ++k)
    for (int i = 0; i < count; ++i) {
      grip_result r = grip_world_step(worlds[i]->world, dt);
      if (r != GRIP_OK) return (int)r;
    }
  return GRIP_OK;
}

grip_vehicle_id gpy_world_add_vehicle(gpy_world *w, const grip_vehicle_def *def, double x, double y, double heading,
                                      double speed, char *error, int error_size) {
  char message[200] = "";
  if (grip_vehicle_def_validate(def, message, sizeof message) != GRIP_OK) {
    set_error(error, error_size, "invalid car: %s", message);
    return GRIP_NULL_VEHICLE;
  }
  grip_vehicle_id id = grip_create_vehicle(w->world, def);
  if (id.index == 0) {
    set_error(error, error_size, "cannot create the vehicle (out of memory)");
    return GRIP_NULL_VEHICLE;
  }
  if (grip_vehicle_place(w->world, id, x, y, heading) != GRIP_OK) {
    set_error(error, error_size, "no ground at (%g, %g) to place the car on (or a NaN argument)", x, y);
    grip_destroy_vehicle(w->world, id);
    return GRIP_NULL_VEHICLE;
  }
  if (speed != 0.0) {
    grip_vec3 v = {speed * cos(heading), speed * sin(heading), 0.0};
    if (grip_vehicle_set_velocity(w->world, id, v) != GRIP_OK) {
      set_error(error, error_size, "speed %g m/s: not a valid speed", speed);
      grip_destroy_vehicle(w->world, id);
      return GRIP_NULL_VEHICLE;
    }
  }
  return id;
}

/* --- inputs ---------------------------------------------------------------------------- */

static const char *const input_names[] = {"throttle", "brake", "steering", "handbrake", "clutch", "gear", "automatic"};
enum { INPUT_FIELDS = (int)(sizeof input_names / sizeof input_names[0]) };

int gpy_input_field_count(void) { return INPUT_FIELDS; }
const char *gpy_input_field_name(int index) { return index >= 0 && index < INPUT_FIELDS ? input_names[index] : NULL; }

static void input_to_row(const grip_vehicle_input *in, double *row) {
  row[0] = in->throttle;
  row[1] = in->brake;
  row[2] = in->steering;
  row[3] = in->handbrake;
  row[4] = in->clutch;
  row[5] = (double)in->gear;
  row[6] = in->automatic ? 1.0 : 0.0;
}

/* False when the gear is not a whole number in int range (the core checks the rest). */
static bool row_to_input(const double *row, grip_vehicle_input *in) {
  if (!(row[5] >= -1000.0 && row[5] <= 1000.0) || row[5] != floor(row[5])) return false;
  *in = (grip_vehicle_input){.throttle = row[0], .brake = row[1], .steering = row[2], .handbrake = row[3],
                             .clutch = row[4], .gear = (int)row[5], .automatic = row[6] != 0.0};
  return row[6] == 0.0 || row[6] == 1.0;
}

int gpy_set_inputs(grip_world *const *worlds, int world_stride, const grip_vehicle_id *ids, int count,
                   const double *inputs, double *scratch) {
  for (int i = 0; i < count; ++i) {
    grip_world *world = worlds[(size_t)i * (size_t)world_stride];
    grip_vehicle_input in;
    bool ok = grip_vehicle_is_valid(world, ids[i]) && row_to_input(inputs + (size_t)i * INPUT_FIELDS, &in);
    if (ok) {
      grip_vehicle_input previous = grip_vehicle_get_input(world, ids[i]);
      ok = grip_vehicle_set_input(world, ids[i], &in) == GRIP_OK;
      input_to_row(&previous, scratch + (size_t)i * INPUT_FIELDS);
    }
    if (!ok) {
      for (int j = i - 1; j >= 0; --j) {
        grip_vehicle_input previous;
        row_to_input(scratch + (size_t)j * INPUT_FIELDS, &previous);
        grip_vehicle_set_input(worlds[(size_t)j * (size_t)world_stride], ids[j], &previous);
      }
      return i;
    }
  }
  return -1;
}

int gpy_get_inputs(grip_world *const *worlds, int world_stride, const grip_vehicle_id *ids, int count, double *out) {
  int bad = -1;
  for (int i = 0; i < count; ++i) {
    grip_world *world = worlds[(size_t)i * (size_t)world_stride];
    if (!grip_vehicle_is_valid(world, ids[i])) {
      for (int f = 0; f < INPUT_FIELDS; ++f) out[(size_t)i * INPUT_FIELDS + f] = NAN;
      if (bad < 0) bad = i;
      continue;
    }
    grip_vehicle_input in = grip_vehicle_get_input(world, ids[i]);
    input_to_row(&in, out + (size_t)i * INPUT_FIELDS);
  }
  return bad;
}

/* --- states ---------------------------------------------------------------------------- */

/* One table gives the state fields' order, names and units (X(name, unit, expression)). */
#define WHEEL_FIELDS(X, w, n)                                                                    \
  X("in_contact_" n, "1", s->wheels[w].in_contact ? 1.0 : 0.0)                                  \
  X("load_" n, "N", s->wheels[w].load)                                                           \
  X("slip_ratio_" n, "1", s->wheels[w].slip_ratio)                                               \
  X("slip_angle_" n, "rad", s->wheels[w].slip_angle)                                             \
  X("fx_" n, "N", s->wheels[w].fx)                                                               \
  X("fy_" n, "N", s->wheels[w].fy)                                                               \
  X("spin_" n, "rad/s", s->wheels[w].spin)                                                       \
  X("steer_angle_" n, "rad", s->wheels[w].steer_angle)                                           \
  X("compression_" n, "m", s->wheels[w].compression)                                             \
  X("surface_id_" n, "1", (double)s->wheels[w].surface_id)

/* Tyre state (docs/physics.md §13; 0, and grip 1, while it is off). */
#define TYRE_FIELDS(X, w, n)                                                                     \
  X("tyre_surface_temperature_" n, "K", s->wheels[w].tyre_surface_temperature)                   \
  X("tyre_carcass_temperature_" n, "K", s->wheels[w].tyre_carcass_temperature)                   \
  X("tyre_gas_temperature_" n, "K", s->wheels[w].tyre_gas_temperature)                           \
  X("tyre_pressure_" n, "Pa", s->wheels[w].tyre_pressure)                                         \
  X("tread_depth_" n, "m", s->wheels[w].tread_depth)                                              \
  X("tyre_grip_" n, "1", s->wheels[w].tyre_grip)

#define STATE_FIELDS(X)                                                                          \
  X("x", "m", s->pose.position.x)                                                                \
  X("y", "m", s->pose.position.y)                                                                \
  X("z", "m", s->pose.position.z)                                                                \
  X("qw", "1", s->pose.rotation.w)                                                               \
  X("qx", "1", s->pose.rotation.x)                                                               \
  X("qy", "1", s->pose.rotation.y)                                                               \
  X("qz", "1", s->pose.rotation.z)                                                               \
  X("vx", "m/s", s->linear_velocity.x)                                                           \
  X("vy", "m/s", s->linear_velocity.y)                                                           \
  X("vz", "m/s", s->linear_velocity.z)                                                           \
  X("wx", "rad/s", s->angular_velocity.x)                                                        \
  X("wy", "rad/s", s->angular_velocity.y)                                                        \
  X("wz", "rad/s", s->angular_velocity.z)                                                        \
  X("local_vx", "m/s", s->local_velocity.x)                                                      \
  X("local_vy", "m/s", s->local_velocity.y)                                                      \
  X("local_vz", "m/s", s->local_velocity.z)                                                      \
  X("local_ax", "m/s^2", s->local_acceleration.x)                                                \
  X("local_ay", "m/s^2", s->local_acceleration.y)                                                \
  X("local_az", "m/s^2", s->local_acceleration.z)                                                \
  X("speed", "m/s", s->speed)                                                                    \
  X("yaw", "rad", atan2(2.0 * (s->pose.rotation.w * s->pose.rotation.z +                         \
                               s->pose.rotation.x * s->pose.rotation.y),                         \
                        1.0 - 2.0 * (s->pose.rotation.y * s->pose.rotation.y +                   \
                                     s->pose.rotation.z * s->pose.rotation.z)))                  \
  X("engine_rpm", "rpm", s->engine_rpm)                                                          \
  X("engine_torque", "N*m", s->engine_torque)                                                    \
  X("clutch_engagement", "1", s->clutch_engagement)                                              \
  X("gear", "1", (double)s->gear)                                                                \
  X("shifting", "1", s->shifting ? 1.0 : 0.0)                                                    \
  X("fuel_mass", "kg", s->fuel_mass)                                                             \
  X("mass", "kg", s->mass)                                                                       \
  X("time", "s", s->time)                                                                        \
  X("out_of_world", "1", s->out_of_world ? 1.0 : 0.0)                                            \
  WHEEL_FIELDS(X, 0, "fl")                                                                       \
  WHEEL_FIELDS(X, 1, "fr")                                                                       \
  WHEEL_FIELDS(X, 2, "rl")                                                                       \
  WHEEL_FIELDS(X, 3, "rr")                                                                       \
  X("steering_torque", "N*m", s->steering_torque)                                                \
  TYRE_FIELDS(X, 0, "fl")                                                                        \
  TYRE_FIELDS(X, 1, "fr")                                                                        \
  TYRE_FIELDS(X, 2, "rl")                                                                        \
  TYRE_FIELDS(X, 3, "rr")

#define FIELD_NAME(name, unit, expr) name,
#define FIELD_UNIT(name, unit, expr) unit,
#define FIELD_VALUE(name, unit, expr) *o++ = (expr);
static const char *const state_names[] = {STATE_FIELDS(FIELD_NAME)};
static const char *const state_units[] = {STATE_FIELDS(FIELD_UNIT)};
enum { STATE_FIELD_COUNT = (int)(sizeof state_names / sizeof state_names[0]) };

int gpy_state_field_count(void) { return STATE_FIELD_COUNT; }
const char *gpy_state_field_name(int i) { return i >= 0 && i < STATE_FIELD_COUNT ? state_names[i] : NULL; }
const char *gpy_state_field_unit(int i) { return i >= 0 && i < STATE_FIELD_COUNT ? state_units[i] : NULL; }

int gpy_get_states(grip_world *const *worlds, int world_stride, const grip_vehicle_id *ids, int count, double *out) {
  int bad = -1;
  grip_vehicle_state state;
  const grip_vehicle_state *s = &state;
  for (int i = 0; i < count; ++i) {
    double *o = out + (size_t)i * STATE_FIELD_COUNT;
    if (grip_vehicle_get_state(worlds[(size_t)i * (size_t)world_stride], ids[i], &state) != GRIP_OK) {
      for (int f = 0; f < STATE_FIELD_COUNT; ++f) o[f] = NAN;
      if (bad < 0) bad = i;
      continue;
    }
    STATE_FIELDS(FIELD_VALUE)
  }
  return bad;
}

/* Every wheel of one vehicle, any count: WHEEL_FIELDS then TYRE_FIELDS per wheel, in wheel
 * order (axle by axle from the front, left before right). */
#define WHEEL_ROW(X) WHEEL_FIELDS(X, 0, "") TYRE_FIELDS(X, 0, "")
static const char *const wheel_names[] = {WHEEL_ROW(FIELD_NAME)};
static const char *const wheel_units[] = {WHEEL_ROW(FIELD_UNIT)};
enum { WHEEL_FIELD_COUNT = (int)(sizeof wheel_names / sizeof wheel_names[0]) };

int gpy_wheel_field_count(void) { return WHEEL_FIELD_COUNT; }
const char *gpy_wheel_field_name(int i) { return i >= 0 && i < WHEEL_FIELD_COUNT ? wheel_names[i] : NULL; }
const char *gpy_wheel_field_unit(int i) { return i >= 0 && i < WHEEL_FIELD_COUNT ? wheel_units[i] : NULL; }

int gpy_get_wheels(const grip_world *world, grip_vehicle_id id, double *out, int capacity) {
  grip_wheel_state wheels[GRIP_MAX_WHEELS];
  int n = grip_vehicle_get_wheels(world, id, wheels, GRIP_MAX_WHEELS);
  for (int w = 0; w < n && w < capacity; ++w) {
    /* the tables read s->wheels[0]: a one-wheel view of wheel w */
    struct {
      grip_wheel_state wheels[1];
    } view = {{wheels[w]}}, *s = &view;
    double *o = out + (size_t)w * WHEEL_FIELD_COUNT;
    WHEEL_ROW(FIELD_VALUE)
  }
  return n;
}

/* --- the robot ------------------------------------------------------------------------- */

static int robot_params_from(int count, const char *const *keys, const char *const *values, robot_params *p,
                             char *error, int error_size) {
  *p = robot_default_params();
  for (int i = 0; i < count; ++i)
    if (robot_params_set(p, keys[i], values[i]) != 0) {
      set_error(error, error_size, "robot: %s: '%s' is an unknown parameter or out of its range (docs/driver.md)",
                keys[i], values[i]);
      return -1;
    }
  return 0;
}

robot *gpy_robot_create(const grip_track *track, const grip_vehicle_def *def, int param_count,
                        const char *const *keys, const char *const *values, char *error, int error_size) {
  robot_params params;
  if (robot_params_from(param_count, keys, values, &params, error, error_size) != 0) return NULL;
  grip_world_def wd = grip_default_world_def();
  robot *r = robot_create(track, def, &params, wd.air_density);
  if (!r) set_error(error, error_size, "robot: cannot plan this car on this track (out of memory?)");
  return r;
}

/* What each robot sees of the others (robot_car_view), as scene_world_step builds it: the cars of
 * the same world, located on the track. Allocation-free for up to 64 cars per call. */
int gpy_robots_drive(robot *const *robots, grip_world *const *worlds, int world_stride, const grip_vehicle_id *ids,
                     int count, const grip_track *track, int *hints, double dt) {
  enum { MAX_VIEWS = 64 };
  robot_car_view views[MAX_VIEWS], others[MAX_VIEWS];
  if (count > MAX_VIEWS) return GRIP_INVALID_ARGUMENT;
  grip_vehicle_state st;
  for (int k = 0; k < count; ++k) {
    grip_world *world = worlds[(size_t)k * (size_t)world_stride];
    if (grip_vehicle_get_state(world, ids[k], &st) != GRIP_OK) return GRIP_INVALID_ID;
    grip_track_progress loc = grip_track_locate_progress(track, st.pose.position.x, st.pose.position.y, hints[k]);
    hints[k] = loc.segment;
    const grip_vehicle_def *def = grip_vehicle_get_def(world, ids[k]);
    views[k] = (robot_car_view){.distance = loc.distance, .lateral = loc.lateral, .speed = st.speed,
                                .length = def->body.dimensions.x, .width = def->body.dimensions.y};
  }
  for (int k = 0; k < count; ++k) {
    grip_world *world = worlds[(size_t)k * (size_t)world_stride];
    int n = 0;
    for (int j = 0; j < count; ++j)
      if (j != k && worlds[(size_t)j * (size_t)world_stride] == world) others[n++] = views[j];
    grip_vehicle_get_state(world, ids[k], &st);
    /* more than four wheels: the robot reads them all (a truck's six), for this call only */
    grip_wheel_state wheels[GRIP_MAX_WHEELS];
    int wheel_count = grip_vehicle_get_wheels(world, ids[k], wheels, GRIP_MAX_WHEELS);
    if (wheel_count > GRIP_WHEEL_COUNT) robot_set_wheels(robots[k], wheels, wheel_count);
    grip_vehicle_input in = robot_drive(robots[k], &st, others, n, dt);
    if (wheel_count > GRIP_WHEEL_COUNT) robot_set_wheels(robots[k], NULL, 0);
    grip_vehicle_set_input(world, ids[k], &in);
  }
  return GRIP_OK;
}

/* --- the race -------------------------------------------------------------------------- */

struct gpy_race {
  race_result result;
};

gpy_race *gpy_race_run(const grip_track *track, const grip_vehicle_def *def, const char *car_name, int param_count,
                       const char *const *keys, const char *const *values, int laps, int cars, double dt,
                       double max_time, const char *telemetry_path, char *error, int error_size) {
  race_config cfg = race_default_config();
  if (robot_params_from(param_count, keys, values, &cfg.params, error, error_size) != 0) return NULL;
  if (laps < 1 || laps > RACE_MAX_LAPS || cars < 1 || cars > RACE_MAX_CARS) {
    set_error(error, error_size, "race: laps must be 1..%d and cars 1..%d", RACE_MAX_LAPS, RACE_MAX_CARS);
    return NULL;
  }
  gpy_race *race = calloc(1, sizeof *race);
  if (!race) {
    set_error(error, error_size, "out of memory");
    return NULL;
  }
  FILE *telemetry = NULL;
  if (telemetry_path && !(telemetry = fopen(telemetry_path, "w"))) {
    set_error(error, error_size, "%s: cannot write", telemetry_path);
    free(race);
    return NULL;
  }
  cfg.track = track;
  cfg.car = def;
  cfg.car_name = car_name;
  cfg.laps = laps;
  cfg.cars = cars;
  cfg.dt = dt;
  cfg.max_time = max_time;
  cfg.telemetry = telemetry;
  int rc = race_run(&cfg, &race->result);
  if (telemetry) fclose(telemetry);
  if (rc != 0) {
    set_error(error, error_size, "race: could not be set up (dt out of range, or the grid off the track)");
    free(race);
    return NULL;
  }
  return race;
}

void gpy_race_free(gpy_race *race) {
  if (!race) return;
  race_result_free(&race->result);
  free(race);
}

static const char *const race_names[] = {"grid", "laps", "finished", "total_time_s", "best_lap_s",
                                         "top_speed_kmh", "off_track_s", "max_edge_excess_m", "progress_m"};
enum { RACE_FIELDS = (int)(sizeof race_names / sizeof race_names[0]) };

int gpy_race_field_count(void) { return RACE_FIELDS; }
const char *gpy_race_field_name(int index) { return index >= 0 && index < RACE_FIELDS ? race_names[index] : NULL; }
int gpy_race_car_count(const gpy_race *race) { return race->result.cars; }

void gpy_race_car(const gpy_race *race, int k, double *out) {
  const race_car_result *r = &race->result.results[k];
  const double values[RACE_FIELDS] = {r->grid, r->laps, r->finished ? 1.0 : 0.0, r->total_time_s, r->best_lap_s,
                                      r->top_speed_kmh, r->off_track_s, r->max_edge_excess, r->progress_m};
  memcpy(out, values, sizeof values);
}

const char *gpy_race_car_name(const gpy_race *race, int k) { return race->result.results[k].name; }

double gpy_race_lap_time(const gpy_race *race, int k, int lap) {
  const race_car_result *r = &race->result.results[k];
  return lap >= 0 && lap < r->laps ? r->lap_times[lap] : NAN;
}

void gpy_race_totals(const gpy_race *race, double *out4) {
  out4[0] = race->result.sim_time_s;
  out4[1] = race->result.wall_time_s;
  out4[2] = race->result.realtime_factor;
  out4[3] = (double)race->result.steps;
}

/* --- scenes ---------------------------------------------------------------------------- */

struct gpy_scene {
  grip_scene scene;
  scene_world *world;
};

gpy_scene *gpy_scene_open(const char *path, int robots, char *error, int error_size) {
  gpy_scene *s = calloc(1, sizeof *s);
  if (!s) {
    set_error(error, error_size, "out of memory");
    return NULL;
  }
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_scene_load(path, &s->scene, &err) != 0 ||
      scene_world_create(&s->scene, robots ? 0 : SCENE_WORLD_NO_ROBOTS, &s->world, &err) != 0) {
    set_error(error, error_size, "%s", err.message);
    free(s);
    return NULL;
  }
  return s;
}

void gpy_scene_free(gpy_scene *s) {
  if (!s) return;
  scene_world_destroy(s->world);
  free(s);
}

grip_world *gpy_scene_world(gpy_scene *s) { return s->world->world; }
const grip_track *gpy_scene_track(gpy_scene *s) { return s->world->track; }
int gpy_scene_car_count(const gpy_scene *s) { return s->world->car_count; }

grip_vehicle_id gpy_scene_car_id(const gpy_scene *s, int index) {
  return index >= 0 && index < s->world->car_count ? s->world->cars[index].id : GRIP_NULL_VEHICLE;
}

const char *gpy_scene_car_name(const gpy_scene *s, int index) {
  return index >= 0 && index < s->world->car_count ? s->world->cars[index].spec->name : NULL;
}

int gpy_scene_step(gpy_scene *s, double dt, int steps) {
  for (int k = 0; k < steps; ++k) {
    grip_result r = scene_world_step(s->world, dt);
    if (r != GRIP_OK) return (int)r;
  }
  return GRIP_OK;
}

/* --- .tir tyres ------------------------------------------------------------------------ */

grip_mf_params *gpy_tir_load(const char *path, char *error, int error_size) {
  grip_mf_params *p = allocate(sizeof *p, error, error_size);
  if (!p) return NULL;
  grip_load_error err;
  grip_load_error_clear(&err);
  return loaded_or_freed(p, grip_tir_load(path, p, &err), &err, error, error_size);
}

void gpy_tir_free(grip_mf_params *p) { free(p); }

void gpy_tir_evaluate(const grip_mf_params *p, int count, const double *rows, double *out) {
  for (int i = 0; i < count; ++i) {
    const double *r = rows + (size_t)i * 5;
    grip_mf_output o;
    grip_mf_evaluate_full(p, r[0], r[1], r[2], r[3], r[4], 0.0, &o);
    out[3 * i] = o.fx;
    out[3 * i + 1] = o.fy;
    out[3 * i + 2] = o.mz;
  }
}
