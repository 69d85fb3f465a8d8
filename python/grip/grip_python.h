/* The C side of grip's Python package: a flat interface over libgrip, the loaders, the robot and
 * the race, built into libgrip_python.so (python/native/grip_python.c) and loaded with cffi in ABI
 * mode. Python parses the declarations between the cdef markers below (grip/_native.py), so they
 * use only opaque handles, grip_vehicle_id, ints, doubles and strings: no struct layout is
 * declared twice.
 *
 * Conventions: functions that can fail take `char *error, int error_size` and write the loader's
 * "file:line: key: what is wrong" message there. Arrays are row-major float64 (numpy's C order).
 * Vectorised calls take `worlds` and `world_stride`: row i uses worlds[i * world_stride], so a
 * stride of 0 means every row is in worlds[0] and a stride of 1 gives one world per row. */
#ifndef GRIP_PYTHON_H
#define GRIP_PYTHON_H

#include <stdint.h>

#include "grip/grip.h"
#include "grip/track.h"

/* cdef-begin */
/* Opaque handles (grip's own and the binding's). */
typedef struct grip_world grip_world;
typedef struct grip_track grip_track;
typedef struct grip_vehicle_def grip_vehicle_def;
typedef struct grip_car grip_car;
typedef struct grip_mf_params grip_mf_params;
typedef struct robot robot;
typedef struct gpy_world gpy_world;
typedef struct gpy_race gpy_race;
typedef struct gpy_scene gpy_scene;

/* --- cars (io/car_file.h) --- */
grip_car *gpy_car_open(const char *spec, char *error, int error_size);
grip_car *gpy_car_parse(const char *text, const char *name, const char *base_dir, char *error,
                        int error_size);
void gpy_car_free(grip_car *car);
const grip_vehicle_def *gpy_car_def(const grip_car *car);
const char *gpy_car_name(const grip_car *car);
const char *gpy_car_trailer(const grip_car *car); /* [trailer] file, "" when it tows none */
int gpy_car_warning_count(const grip_car *car);
const char *gpy_car_warning(const grip_car *car, int index);
int gpy_car_save(const grip_car *car, const char *path, char *error, int error_size);
/* mass kg (body + fuel), length m, width m, wheelbase m, rev limit rpm, forward gears. */
void gpy_car_figures(const grip_car *car, double *out6);

/* --- tracks (grip/track.h, io/track_file.h) --- */
grip_track *gpy_track_open(const char *spec, char *name, int name_size, char *error,
                           int error_size);
void grip_track_destroy(grip_track *track);
double grip_track_length(const grip_track *track);
/* Locates count points (xy: count × 2, m) and writes count × GPY_LOCATION_FIELDS: distance m,
 * lateral m (+ left), surface z m, zone (0 road, 1 kerb, 2 run-off, 3 outside), road width m at
 * that distance, centre-line heading rad, curvature 1/m. hints (count ints, -1 initially) are
 * read and updated: pass the same array each step. */
void gpy_track_locate(const grip_track *track, int count, const double *xy, int *hints,
                      double *out);
int gpy_location_field_count(void);
/* The centre line at count distances: count × GPY_POINT_FIELDS: x m, y m, z m, heading rad,
 * curvature 1/m, width m, banking rad, slope 1. */
void gpy_track_points(const grip_track *track, int count, const double *distances, double *out);
int gpy_point_field_count(void);
/* length m, road width at distance 0 m, smallest centre-line radius m (inf without arcs),
 * lowest and highest centre-line z m, closure error m. */
void gpy_track_stats(const grip_track *track, double *out6);
/* Grid slot k of the race (race_grid_slot): x m, y m, heading rad. */
void gpy_track_grid_slot(const grip_track *track, int slot, double *out3);

/* --- worlds --- */
/* A world on a track (its surface and barriers) or, with track NULL, on flat ground z = 0.
 * threads > 1 steps the vehicles on a pthread pool (bit-identical results). */
gpy_world *gpy_world_create(const grip_track *track, int threads, char *error, int error_size);
void gpy_world_destroy(gpy_world *world);
grip_world *gpy_world_handle(gpy_world *world);
/* Steps `steps` times by dt each. Returns 0 (GRIP_OK) or the first failing grip_result. */
int gpy_world_step(gpy_world *world, double dt, int steps);
/* Steps count worlds by dt each, in one call. */
int gpy_worlds_step(gpy_world *const *worlds, int count, double dt, int steps);
/* Creates a vehicle from def and places it on the ground at (x, y) with heading (rad), moving
 * forward at speed (m/s). GRIP_NULL_VEHICLE with error set on failure (nothing left behind). */
grip_vehicle_id gpy_world_add_vehicle(gpy_world *world, const grip_vehicle_def *def, double x,
                                      double y, double heading, double speed, char *error,
                                      int error_size);
uint64_t grip_world_state_hash(const grip_world *world);
int grip_world_vehicle_count(const grip_world *world);
void grip_destroy_vehicle(grip_world *world, grip_vehicle_id id);
bool grip_vehicle_is_valid(const grip_world *world, grip_vehicle_id id);
grip_result grip_vehicle_place(grip_world *world, grip_vehicle_id id, double x, double y, double heading);

/* Inputs: count × GPY_INPUT_FIELDS (throttle, brake, steering, handbrake, clutch, gear,
 * automatic). Either all rows are applied, or none: returns -1 on success, else the index of the
 * first row rejected (invalid id, NaN, out of range) after restoring the rows before it.
 * scratch: count × GPY_INPUT_FIELDS doubles the call may overwrite. */
int gpy_set_inputs(grip_world *const *worlds, int world_stride, const grip_vehicle_id *ids,
                   int count, const double *inputs, double *scratch);
int gpy_get_inputs(grip_world *const *worlds, int world_stride, const grip_vehicle_id *ids,
                   int count, double *out);
int gpy_input_field_count(void);
const char *gpy_input_field_name(int index);

/* States: count × GPY_STATE_FIELDS doubles (names and units below). Returns -1, or the index of
 * the first invalid id (its row is NaN; the other rows are filled). */
int gpy_get_states(grip_world *const *worlds, int world_stride, const grip_vehicle_id *ids,
                   int count, double *out);
int gpy_state_field_count(void);
const char *gpy_state_field_name(int index);
const char *gpy_state_field_unit(int index);

/* Every wheel of one vehicle: min(count, capacity) × GPY_WHEEL_FIELDS doubles in wheel order;
 * returns the vehicle's wheel count (0 for an invalid id). */
int gpy_get_wheels(const grip_world *world, grip_vehicle_id id, double *out, int capacity);
int gpy_wheel_field_count(void);
const char *gpy_wheel_field_name(int index);
const char *gpy_wheel_field_unit(int index);

/* --- the robot driver (driver/robot.h) --- */
/* Parameters as key/value strings (robot_params_set names: "mu_factor", ...) over the defaults. */
robot *gpy_robot_create(const grip_track *track, const grip_vehicle_def *def, int param_count,
                        const char *const *keys, const char *const *values, char *error,
                        int error_size);
void robot_destroy(robot *r);
double robot_plan_lap_time(const robot *r);
double robot_plan_top_speed(const robot *r);
/* Each robot reads its car, sees the other cars of the same world (as in a race), and sets its
 * car's input. robots[i] drives ids[i] in worlds[i * world_stride]. */
int gpy_robots_drive(robot *const *robots, grip_world *const *worlds, int world_stride,
                     const grip_vehicle_id *ids, int count, const grip_track *track, int *hints,
                     double dt);

/* --- the race (sim/race.h) --- */
gpy_race *gpy_race_run(const grip_track *track, const grip_vehicle_def *def, const char *car_name,
                       int param_count, const char *const *keys, const char *const *values,
                       int laps, int cars, double dt, double max_time, const char *telemetry_path,
                       char *error, int error_size);
void gpy_race_free(gpy_race *race);
int gpy_race_car_count(const gpy_race *race);
/* Finishing position k (0-based): GPY_RACE_FIELDS figures (gpy_race_field_name). */
void gpy_race_car(const gpy_race *race, int k, double *out);
int gpy_race_field_count(void);
const char *gpy_race_field_name(int index);
const char *gpy_race_car_name(const gpy_race *race, int k);
double gpy_race_lap_time(const gpy_race *race, int k, int lap);
/* sim_time s, wall_time s, realtime_factor, steps. */
void gpy_race_totals(const gpy_race *race, double *out4);

/* --- scenes (io/scene.h, sim/scene_world.h) --- */
gpy_scene *gpy_scene_open(const char *path, int robots, char *error, int error_size);
void gpy_scene_free(gpy_scene *scene);
grip_world *gpy_scene_world(gpy_scene *scene);
const grip_track *gpy_scene_track(gpy_scene *scene);
int gpy_scene_car_count(const gpy_scene *scene);
grip_vehicle_id gpy_scene_car_id(const gpy_scene *scene, int index);
const char *gpy_scene_car_name(const gpy_scene *scene, int index);
/* Robots drive, the other cars keep their constant input; steps `steps` times. */
int gpy_scene_step(gpy_scene *scene, double dt, int steps);

/* --- .tir tyres (io/tir.h, grip/mf_tyre.h) --- */
grip_mf_params *gpy_tir_load(const char *path, char *error, int error_size);
void gpy_tir_free(grip_mf_params *params);
/* rows: count × 5 (Fz N, kappa, alpha rad, gamma rad, vx m/s) -> out: count × 3 (Fx N, Fy N,
 * Mz N·m), at the file's inflation pressure. */
void gpy_tir_evaluate(const grip_mf_params *params, int count, const double *rows, double *out);
/* cdef-end */

#endif
