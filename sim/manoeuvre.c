#define _POSIX_C_SOURCE 200809L
#include "manoeuvre.h"

#include "clocks.h"
#include "task_pool.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

#include <math.h>
#include <stdlib.h>
#include <time.h>

#define QUARTER_MILE_M 402.336

grip_world *sim_world_with_car(const grip_vehicle_def *car, grip_vehicle_id *id) {
  grip_world_def wd = grip_default_world_def();
  grip_world *world = grip_create_world(&wd);
  if (!world) return NULL;
  *id = grip_create_vehicle(world, car);
  if (!grip_vehicle_is_valid(world, *id) || grip_vehicle_place(world, *id, 0.0, 0.0, 0.0) != GRIP_OK) {
    grip_destroy_world(world);
    return NULL;
  }
  return world;
}

/* Linear interpolation of the time at which a quantity crossed a threshold between steps. */
static double crossing(double t0, double a0, double t1, double a1, double threshold) {
  return a1 == a0 ? t1 : t0 + (t1 - t0) * (threshold - a0) / (a1 - a0);
}

accel_result sim_accel(const grip_vehicle_def *car, double dt, double max_time, double calm_accel) {
  accel_result r = {NAN, NAN, NAN, NAN, 0.0, 0, 0.0};
  grip_vehicle_id id;
  grip_world *world = sim_world_with_car(car, &id);
  if (!world) return r;
  grip_vehicle_input in = grip_default_vehicle_input();
  in.throttle = 1.0;
  in.gear = 1;
  in.automatic = true;
  grip_vehicle_set_input(world, id, &in);
  grip_vehicle_state s;
  grip_vehicle_get_state(world, id, &s);
  double x0 = s.pose.position.x;
  double t = 0.0, v_prev = 0.0, x_prev = 0.0, calm = 0.0;
  double top = 0.0;
  while (t < max_time) {
    grip_world_step(world, dt);
    t += dt;
    grip_vehicle_get_state(world, id, &s);
    double v = s.speed, x = s.pose.position.x - x0;
    if (isnan(r.t_0_100_s) && v >= 100.0 / 3.6) r.t_0_100_s = crossing(t - dt, v_prev, t, v, 100.0 / 3.6);
    if (isnan(r.t_0_200_s) && v >= 200.0 / 3.6) r.t_0_200_s = crossing(t - dt, v_prev, t, v, 200.0 / 3.6);
    if (isnan(r.quarter_mile_s) && x >= QUARTER_MILE_M) {
      r.quarter_mile_s = crossing(t - dt, x_prev, t, x, QUARTER_MILE_M);
      double f = (QUARTER_MILE_M - x_prev) / (x - x_prev);
      r.quarter_mile_kmh = 3.6 * (v_prev + f * (v - v_prev));
    }
    if (v > top) {
      top = v;
      r.top_gear = s.gear;
    }
    /* Done when the acceleration has stayed under calm_accel for 2 s (not while shifting). */
    double a = (v - v_prev) / dt;
    calm = (fabs(a) < calm_accel && !s.shifting && t > 5.0) ? calm + dt : 0.0;
    v_prev = v;
    x_prev = x;
    if (calm >= 2.0) break;
  }
  r.top_speed_kmh = 3.6 * top;
  r.time_s = t;
  grip_destroy_world(world);
  return r;
}

brake_result sim_brake(const grip_vehicle_def *car, double speed_kmh, double dt) {
  brake_result r = {NAN, NAN, 0.0, false};
  grip_vehicle_id id;
  grip_world *world = sim_world_with_car(car, &id);
  if (!world) return r;
  grip_vehicle_set_velocity(world, id, (grip_vec3){speed_kmh / 3.6, 0.0, 0.0});
  grip_vehicle_input in = grip_default_vehicle_input();
  in.brake = 1.0;
  in.gear = 0; /* neutral: the engine plays no part */
  in.automatic = true;
  grip_vehicle_set_input(world, id, &in);
  grip_vehicle_state s;
  grip_vehicle_get_state(world, id, &s);
  double x0 = s.pose.position.x, v_prev = s.speed, x_prev = 0.0, t = 0.0;
  bool locked[GRIP_MAX_WHEELS] = {false};
  grip_wheel_state wheels[GRIP_MAX_WHEELS]; /* every wheel: a truck's six, a three-wheeler's three */
  int wheel_count = s.wheel_count;
  /* A wheel counts as locked when it stops while the car still moves; with ABS, only above the
   * speed where ABS hands the brakes back to the pedal (below it every ABS lets wheels lock). */
  double lock_speed = car->systems.abs.enabled ? car->systems.abs.min_speed + 1.0 : 1.0;
  while (t < 60.0) {
    grip_world_step(world, dt);
    t += dt;
    grip_vehicle_get_state(world, id, &s);
    double v = s.speed, x = s.pose.position.x - x0;
    double decel = -s.local_acceleration.x / 9.81;
    if (decel > r.peak_decel_g) r.peak_decel_g = decel;
    wheel_count = grip_vehicle_get_wheels(world, id, wheels, GRIP_MAX_WHEELS);
    for (int i = 0; i < wheel_count; ++i)
      if (wheels[i].spin == 0.0 && v > lock_speed) locked[i] = true;
    if (v <= 0.0) {
      double f = v_prev / (v_prev - v);
      r.time_s = t - dt + f * dt;
      r.distance_m = x_prev + f * (x - x_prev);
      break;
    }
    v_prev = v;
    x_prev = x;
  }
  r.wheels_locked = wheel_count > 0;
  for (int i = 0; i < wheel_count; ++i) r.wheels_locked = r.wheels_locked && locked[i];
  grip_destroy_world(world);
  return r;
}

park_result sim_park(const grip_vehicle_def *car, double grade, double cross_grade, double settle_s,
                     double seconds, double dt, double handbrake) {
  park_result r = {NAN, NAN, NAN};
  grip_world_def wd = grip_default_world_def();
  grip_plane plane = grip_slope_plane(grade, cross_grade);
  wd.ground = grip_plane_ground(&plane);
  grip_world *world = grip_create_world(&wd);
  if (!world) return r;
  grip_vehicle_id id = grip_create_vehicle(world, car);
  if (!grip_vehicle_is_valid(world, id) || grip_vehicle_place(world, id, 0.0, 0.0, 0.0) != GRIP_OK) {
    grip_destroy_world(world);
    return r;
  }
  grip_vehicle_input in = grip_default_vehicle_input();
  in.handbrake = handbrake;
  in.gear = 0;
  in.automatic = true;
  grip_vehicle_set_input(world, id, &in);
  long settle_steps = lround(settle_s / dt), steps = lround(seconds / dt);
  for (long i = 0; i < settle_steps; ++i) grip_world_step(world, dt);
  grip_vehicle_state s;
  grip_vehicle_get_state(world, id, &s);
  grip_vec3 p0 = s.pose.position;
  double max_w = 0.0;
  for (long i = 0; i < steps; ++i) {
    grip_world_step(world, dt);
    grip_vehicle_get_state(world, id, &s);
    grip_vec3 w = s.angular_velocity;
    double mag = sqrt(w.x * w.x + w.y * w.y + w.z * w.z);
    if (mag > max_w) max_w = mag;
  }
  grip_vec3 p1 = s.pose.position;
  double d = sqrt((p1.x - p0.x) * (p1.x - p0.x) + (p1.y - p0.y) * (p1.y - p0.y) + (p1.z - p0.z) * (p1.z - p0.z));
  r.displacement_mm = 1000.0 * d;
  r.creep_mm_per_min = seconds > 0.0 ? r.displacement_mm * 60.0 / seconds : NAN;
  r.max_angular_velocity = max_w;
  grip_destroy_world(world);
  return r;
}

/* The bench's world: n cars on flat ground, full throttle, front wheels steered by steer_rad,
 * 30 m apart (their circles, radius ~55 m at 0.05 rad, may cross; there are no car-car contacts
 * in this benchmark). NULL without memory. */
static grip_world *bench_world(const grip_vehicle_def *car, int vehicles, double steer_rad, grip_world_def wd) {
  wd.vehicle_capacity = vehicles;
  grip_world *world = grip_create_world(&wd);
  if (!world) return NULL;
  grip_vehicle_input in = grip_default_vehicle_input();
  in.throttle = 1.0;
  in.steering = steer_rad * car->steering.ratio / car->steering.max_wheel_angle;
  if (in.steering > 1.0) in.steering = 1.0;
  for (int i = 0; i < vehicles; ++i) {
    grip_vehicle_id id = grip_create_vehicle(world, car);
    grip_vehicle_place(world, id, 0.0, 30.0 * i, 0.0);
    grip_vehicle_set_input(world, id, &in);
  }
  return world;
}

static void bench_finish(bench_result *r, grip_world *const *worlds, int count, long steps, double seconds,
                         double elapsed, double cpu) {
  r->steps = steps;
  r->ns_per_vehicle_step = elapsed * 1e9 / ((double)steps * r->vehicles);
  r->cpu_ns_per_vehicle_step = cpu * 1e9 / ((double)steps * r->vehicles);
  r->realtime_factor = seconds / elapsed;
  size_t bytes = 0, shared = 0;
  for (int k = 0; k < count; ++k) {
    size_t s = 0;
    bytes += grip_world_memory(worlds[k], &s);
    shared += s;
  }
  r->bytes_per_vehicle = (double)bytes / r->vehicles;
  r->shared_bytes = (double)shared;
  r->state_hash = grip_world_state_hash(worlds[0]);
}

bench_result sim_bench(const grip_vehicle_def *car, int vehicles, double seconds, double dt,
                       double steer_rad, int threads) {
  bench_result r = {vehicles, 0, NAN, NAN, NAN, NAN, NAN, 0};
  grip_world_def wd = grip_default_world_def();
  task_pool *pool = threads > 1 ? task_pool_create(threads) : NULL;
  if (pool) task_pool_attach(pool, &wd);
  grip_world *world = bench_world(car, vehicles, steer_rad, wd);
  if (!world) {
    task_pool_destroy(pool);
    return r;
  }
  long steps = lround(seconds / dt);
  double start = clock_wall_s(), cpu_start = clock_cpu_s();
  for (long k = 0; k < steps; ++k) grip_world_step(world, dt);
  bench_finish(&r, &world, 1, steps, seconds, clock_wall_s() - start, clock_cpu_s() - cpu_start);
  grip_destroy_world(world);
  task_pool_destroy(pool);
  return r;
}

/* One separate world and its thread (sim_bench_separate). */
typedef struct separate_world {
  grip_world *world;
  long steps;
  double dt;
  atomic_int *go; /* set once every thread has started */
} separate_world;

static void *step_separate(void *arg) {
  separate_world *w = arg;
  /* Waiting for the others to start: yield, so that a spinning thread does not hold up the one
   * that creates the rest (64 threads on 2 cores). */
  while (!atomic_load(w->go)) sched_yield();
  for (long k = 0; k < w->steps; ++k) grip_world_step(w->world, w->dt);
  return NULL;
}

bench_result sim_bench_separate(const grip_vehicle_def *car, int vehicles, double seconds, double dt,
                                double steer_rad, int threads) {
  bench_result r = {vehicles, 0, NAN, NAN, NAN, NAN, NAN, 0};
  if (threads < 1 || threads > 64 || vehicles < threads) return r;
  separate_world w[64];
  grip_world *worlds[64];
  pthread_t thread[64];
  atomic_int go;
  atomic_init(&go, 0);
  long steps = lround(seconds / dt);
  int made = 0;
  for (; made < threads; ++made) {
    /* world k holds the k-th share of the cars, as a task pool would split one world */
    int n = vehicles / threads + (made < vehicles % threads ? 1 : 0);
    w[made] = (separate_world){bench_world(car, n, steer_rad, grip_default_world_def()), steps, dt, &go};
    worlds[made] = w[made].world;
    if (!w[made].world) break;
  }
  int started = 1;
  if (made == threads)
    for (; started < threads; ++started)
      if (pthread_create(&thread[started], NULL, step_separate, &w[started]) != 0) break;
  if (made == threads && started == threads) {
    double start = clock_wall_s(), cpu_start = clock_cpu_s();
    atomic_store(&go, 1);
    step_separate(&w[0]);
    for (int k = 1; k < threads; ++k) pthread_join(thread[k], NULL);
    bench_finish(&r, worlds, threads, steps, seconds, clock_wall_s() - start, clock_cpu_s() - cpu_start);
  } else {
    atomic_store(&go, 1);
    for (int k = 1; k < started; ++k) pthread_join(thread[k], NULL);
  }
  for (int k = 0; k < made; ++k) grip_destroy_world(w[k].world);
  return r;
}

/* --- shared by the manoeuvres -------------------------------------------------------------- */

grip_world *sim_start_rolling(const grip_vehicle_def *car, grip_vehicle_id *id, double speed) {
  grip_world *world = sim_world_with_car(car, id);
  if (!world) return NULL;
  grip_vehicle_set_velocity(world, *id, (grip_vec3){speed, 0.0, 0.0});
  return world;
}

void sim_control_speed(sim_speed_control *c, grip_vehicle_input *in, double speed, double target, double dt) {
  double error = target - speed;
  c->integral += error * dt;
  if (c->integral > 5.0) c->integral = 5.0;
  if (c->integral < -5.0) c->integral = -5.0;
  double u = 0.5 * error + 0.4 * c->integral;
  in->throttle = u > 0.0 ? (u > 1.0 ? 1.0 : u) : 0.0;
  in->brake = u < -0.5 ? (-u - 0.5 > 1.0 ? 1.0 : -u - 0.5) : 0.0;
}

double sim_yaw_rate(const grip_vehicle_state *s) {
  grip_quat q = s->pose.rotation;
  grip_vec3 up = {2.0 * (q.x * q.z + q.w * q.y), 2.0 * (q.y * q.z - q.w * q.x), 1.0 - 2.0 * (q.x * q.x + q.y * q.y)};
  return s->angular_velocity.x * up.x + s->angular_velocity.y * up.y + s->angular_velocity.z * up.z;
}

double sim_heading(const grip_vehicle_state *s) {
  grip_quat q = s->pose.rotation;
  return atan2(2.0 * (q.w * q.z + q.x * q.y), 1.0 - 2.0 * (q.y * q.y + q.z * q.z));
}
