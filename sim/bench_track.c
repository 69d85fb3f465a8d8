#define _POSIX_C_SOURCE 200809L
#include "car_layout.h"
#include "bench_track.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "clocks.h"
#include "task_pool.h"

#define LANE_WIDTH 3.5     /* m */
#define MIN_SPACING 8.0    /* m, between cars in a lane */
#define LATERAL_ACCEL 6.0  /* m/s², the followers' corner speed: v = sqrt(a / κ) */
#define MAX_SPEED 40.0     /* m/s */
#define BRAKE_DECEL 4.0    /* m/s², what the speed plan brakes with */
#define PROFILE_STEP 2.0   /* m */

static double clamp1(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

/* The followers' speed plan, every PROFILE_STEP m round the track: the corner speed
 * sqrt(LATERAL_ACCEL / κ) (at most MAX_SPEED), lowered so that BRAKE_DECEL brings the car down
 * to every corner ahead: v(s) = min(v_corner(s), sqrt(v(s + ds)² + 2·a·ds)), twice round. */
static double *speed_profile(const grip_track *track, int *count) {
  double L = grip_track_length(track);
  int n = (int)ceil(L / PROFILE_STEP);
  double *v = malloc((size_t)n * sizeof *v);
  if (!v) return NULL;
  for (int i = 0; i < n; ++i) {
    grip_track_point p = grip_track_point_at(track, L * i / n);
    v[i] = fmin(MAX_SPEED, sqrt(LATERAL_ACCEL / fmax(fabs(p.curvature), 1e-6)));
  }
  double ds = L / n;
  for (int k = 2 * n - 1; k >= 0; --k) {
    int i = k % n, j = (i + 1) % n;
    v[i] = fmin(v[i], sqrt(v[j] * v[j] + 2.0 * BRAKE_DECEL * ds));
  }
  *count = n;
  return v;
}

/* The pure-pursuit follower: steer along the arc through the lane point a look-ahead ahead;
 * throttle or brake towards the planned speed a little ahead. It reads the car's motion only
 * (pose and speed: grip_vehicle_get_motion), as a race does between its robots' decisions. */
static grip_vehicle_input follow(const grip_track *track, const grip_vehicle_def *car, const grip_vehicle_motion *st,
                                 double lane, int *hint, const double *profile, int profile_count) {
  grip_track_progress loc = grip_track_locate_progress(track, st->pose.position.x, st->pose.position.y, *hint);
  *hint = loc.segment;
  double ahead = fmax(8.0, 0.6 * st->speed);
  grip_track_point p = grip_track_point_at(track, loc.distance + ahead);
  double tx = p.position.x - sin(p.heading) * lane, ty = p.position.y + cos(p.heading) * lane;
  /* the target in the car's frame */
  grip_quat q = st->pose.rotation;
  double yaw = atan2(2.0 * (q.w * q.z + q.x * q.y), 1.0 - 2.0 * (q.y * q.y + q.z * q.z));
  double dx = tx - st->pose.position.x, dy = ty - st->pose.position.y;
  double fx = cos(yaw) * dx + sin(yaw) * dy, fy = -sin(yaw) * dx + cos(yaw) * dy;
  double ld2 = fx * fx + fy * fy;
  double wheelbase = car_effective_wheelbase(car);
  double wheel = atan(2.0 * wheelbase * fy / fmax(ld2, 1.0)); /* road-wheel angle of that arc */
  grip_vehicle_input in = grip_default_vehicle_input();
  in.steering = car->steering.max_wheel_angle > 0.0
                    ? clamp1(wheel * car->steering.ratio / car->steering.max_wheel_angle, -1.0, 1.0)
                    : 0.0;
  double L = grip_track_length(track);
  double at = fmod(loc.distance + 0.3 * st->speed, L) / L * profile_count;
  int i = (int)at;
  if (i < 0 || i >= profile_count) i = 0;
  double v_target = profile[i];
  double err = v_target - st->speed;
  in.throttle = clamp1(0.5 * err, 0.0, 1.0);
  in.brake = clamp1(-0.3 * err, 0.0, 1.0);
  return in;
}

/* The followers of one step, cars [start, end): each reads its own car's state and sets its
 * input, so they run on the world's task pool like the vehicles' steps (on one thread they were
 * a fifth of a step that the second thread could not share). */
typedef struct follow_task {
  grip_world *world;
  const grip_track *track;
  const grip_vehicle_def *car;
  const grip_vehicle_id *ids;
  const double *lane;
  int *hint;
  const double *profile;
  int profile_count;
} follow_task;

static void follow_range(int start, int end, int worker, void *context) {
  (void)worker;
  const follow_task *t = context;
  for (int i = start; i < end; ++i) {
    grip_vehicle_motion st;
    grip_vehicle_get_motion(t->world, t->ids[i], &st);
    grip_vehicle_input in = follow(t->track, t->car, &st, t->lane[i], &t->hint[i], t->profile, t->profile_count);
    grip_vehicle_set_input(t->world, t->ids[i], &in);
  }
}

/* One world of the bench and what steps it: its cars ids[0..count), their lanes and hints. */
typedef struct bench_share {
  grip_world *world;
  follow_task task;
  int count;
  long steps;
  double dt;
  long long contacts; /* vehicle-steps with a contact */
  atomic_int *go;     /* separate worlds: set once every thread has started */
} bench_share;

/* The share's steps: its followers, then its world (the task pool's, if the world has one). */
static void run_share(bench_share *b, const grip_world_def *wd, bool pooled) {
  for (long k = 0; k < b->steps; ++k) {
    if (pooled) {
      void *handle = wd->enqueue_task(follow_range, b->count, 1, &b->task, wd->task_context);
      if (handle) wd->finish_task(handle, wd->task_context); /* NULL: it ran them itself */
    } else {
      follow_range(0, b->count, 0, &b->task);
    }
    grip_world_step(b->world, b->dt);
    for (int i = 0; i < b->count; ++i) b->contacts += grip_vehicle_contact_count(b->world, b->task.ids[i]) > 0;
  }
}

/* A separate world's thread: waits for the others to start (yielding, so that it does not hold up
 * the thread creating them), then steps its share. */
static void *run_separate(void *arg) {
  bench_share *b = arg;
  while (!atomic_load(b->go)) sched_yield();
  run_share(b, NULL, false);
  return NULL;
}

int sim_bench_track(const grip_track *track, const grip_vehicle_def *car, int vehicles, double seconds, double dt,
                    int threads, bool separate, track_bench_result *out, char *msg, size_t msg_size) {
  *out = (track_bench_result){.vehicles = vehicles, .ns_per_vehicle_step = NAN, .realtime_factor = NAN};
  if (separate && (threads < 1 || threads > MAX_SEPARATE_WORLDS || vehicles < threads)) {
    snprintf(msg, msg_size, "separate worlds need 1 to %d threads and at least one car per thread", MAX_SEPARATE_WORLDS);
    return -1;
  }
  double L = grip_track_length(track), narrowest = INFINITY;
  for (int i = 0; i < grip_track_segment_count(track); ++i) {
    const grip_track_segment_def *sd = grip_track_segment(track, i);
    narrowest = fmin(narrowest, fmin(sd->width_start, sd->width_end));
  }
  int lanes = (int)floor(narrowest / LANE_WIDTH);
  if (lanes < 1) lanes = 1;
  if (lanes > 4) lanes = 4;
  int per_lane = (vehicles + lanes - 1) / lanes;
  double spacing = L / per_lane;
  if (spacing < MIN_SPACING) {
    snprintf(msg, msg_size, "%d cars do not fit: the track (%.0f m, %d lane(s) of %.1f m) holds at most %d cars %.0f m apart",
             vehicles, L, lanes, LANE_WIDTH, lanes * (int)floor(L / MIN_SPACING), MIN_SPACING);
    return -1;
  }
  out->lanes = lanes;
  out->spacing_m = spacing;
  /* One world with the task pool of `threads`, or `threads` separate worlds, world k holding the
   * k-th share of the cars (the first ones one car more when they do not divide evenly), as the
   * task pool would split one world; each separate world is stepped by its own thread with no
   * task pool and nothing shared per step but the read-only track. */
  int worlds = separate ? threads : 1;
  grip_track_ground_context gctx;
  grip_world_def wd = grip_default_world_def();
  wd.ground = grip_track_ground(&gctx, track);
  wd.barrier = grip_track_barriers(&gctx, track);
  task_pool *pool = !separate && threads > 1 && vehicles > 1 ? task_pool_create(threads) : NULL;
  if (pool) task_pool_attach(pool, &wd);
  bench_share share[MAX_SEPARATE_WORLDS];
  grip_vehicle_id *ids = calloc((size_t)vehicles, sizeof *ids);
  double *lane = calloc((size_t)vehicles, sizeof *lane);
  int *hint = calloc((size_t)vehicles, sizeof *hint);
  int profile_count = 0;
  double *profile = speed_profile(track, &profile_count);
  atomic_int go;
  atomic_init(&go, 0);
  long steps = lround(seconds / dt);
  int rc = 0, made = 0;
  if (!ids || !lane || !hint || !profile) {
    snprintf(msg, msg_size, "out of memory");
    rc = -1;
    goto done;
  }
  for (int k = 0, first = 0; k < worlds; ++k) {
    int n = vehicles / worlds + (k < vehicles % worlds ? 1 : 0);
    wd.vehicle_capacity = n;
    grip_world *world = grip_create_world(&wd);
    if (!world) {
      snprintf(msg, msg_size, "out of memory");
      rc = -1;
      goto done;
    }
    share[made++] = (bench_share){world, {world, track, car, ids + first, lane + first, hint + first, profile, profile_count},
                                  n, steps, dt, 0, &go};
    first += n;
  }
  for (int i = 0, k = 0, first = 0; i < vehicles; ++i) {
    if (i - first >= share[k].count) first += share[k++].count;
    int l = i % lanes;
    /* lanes staggered by a fraction of the spacing, so that no two cars start side by side */
    double s = (i / lanes) * spacing + spacing * l / lanes;
    lane[i] = (l - 0.5 * (lanes - 1)) * LANE_WIDTH;
    hint[i] = -1;
    grip_track_point p = grip_track_point_at(track, s);
    ids[i] = grip_create_vehicle(share[k].world, car);
    if (grip_vehicle_place(share[k].world, ids[i], p.position.x - sin(p.heading) * lane[i],
                           p.position.y + cos(p.heading) * lane[i], p.heading) != GRIP_OK) {
      snprintf(msg, msg_size, "car %d could not be placed on the track", i + 1);
      rc = -1;
      goto done;
    }
  }
  pthread_t thread[MAX_SEPARATE_WORLDS];
  int started = 1;
  for (; started < worlds; ++started)
    if (pthread_create(&thread[started], NULL, run_separate, &share[started]) != 0) break;
  double start = clock_wall_s(), cpu_start = clock_cpu_s();
  atomic_store(&go, 1);
  if (started == worlds) {
    if (separate) run_separate(&share[0]);
    else run_share(&share[0], &wd, pool != NULL);
  }
  for (int k = 1; k < started; ++k) pthread_join(thread[k], NULL);
  double elapsed = clock_wall_s() - start, cpu = clock_cpu_s() - cpu_start;
  if (started < worlds) {
    snprintf(msg, msg_size, "could not start %d threads", worlds);
    rc = -1;
    goto done;
  }
  double speed = 0.0;
  size_t bytes = 0, shared = 0;
  long long contacts = 0;
  for (int k = 0; k < worlds; ++k) {
    grip_vehicle_state st;
    for (int i = 0; i < share[k].count; ++i) {
      grip_vehicle_get_state(share[k].world, share[k].task.ids[i], &st);
      speed += st.speed;
    }
    size_t s = 0;
    bytes += grip_world_memory(share[k].world, &s);
    shared += s;
    contacts += share[k].contacts;
  }
  out->steps = steps;
  out->ns_per_vehicle_step = elapsed * 1e9 / ((double)steps * vehicles);
  out->cpu_ns_per_vehicle_step = cpu * 1e9 / ((double)steps * vehicles);
  out->realtime_factor = seconds / elapsed;
  out->bytes_per_vehicle = (double)bytes / vehicles;
  out->shared_bytes = (double)shared;
  out->mean_speed = speed / vehicles;
  out->contact_steps = contacts;
  out->state_hash = grip_world_state_hash(share[0].world);
done:
  free(profile);
  free(ids);
  free(lane);
  free(hint);
  for (int k = 0; k < made; ++k) grip_destroy_world(share[k].world);
  task_pool_destroy(pool);
  return rc;
}
