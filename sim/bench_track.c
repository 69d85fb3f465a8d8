#define _POSIX_C_SOURCE 200809L
#include "car_layout.h"
#include "bench_track.h"

#include <math.h>
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

int sim_bench_track(const grip_track *track, const grip_vehicle_def *car, int vehicles, double seconds, double dt,
                    int threads, track_bench_result *out, char *msg, size_t msg_size) {
  *out = (track_bench_result){.vehicles = vehicles, .ns_per_vehicle_step = NAN, .realtime_factor = NAN};
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
  grip_track_ground_context gctx;
  grip_world_def wd = grip_default_world_def();
  wd.ground = grip_track_ground(&gctx, track);
  wd.barrier = grip_track_barriers(&gctx, track);
  wd.vehicle_capacity = vehicles;
  task_pool *pool = threads > 1 && vehicles > 1 ? task_pool_create(threads) : NULL;
  if (pool) task_pool_attach(pool, &wd);
  grip_world *world = grip_create_world(&wd);
  grip_vehicle_id *ids = calloc((size_t)vehicles, sizeof *ids);
  double *lane = calloc((size_t)vehicles, sizeof *lane);
  int *hint = calloc((size_t)vehicles, sizeof *hint);
  int profile_count = 0;
  double *profile = speed_profile(track, &profile_count);
  int rc = 0;
  if (!world || !ids || !lane || !hint || !profile) {
    snprintf(msg, msg_size, "out of memory");
    rc = -1;
    goto done;
  }
  for (int i = 0; i < vehicles; ++i) {
    int l = i % lanes;
    /* lanes staggered by a fraction of the spacing, so that no two cars start side by side */
    double s = (i / lanes) * spacing + spacing * l / lanes;
    lane[i] = (l - 0.5 * (lanes - 1)) * LANE_WIDTH;
    hint[i] = -1;
    grip_track_point p = grip_track_point_at(track, s);
    ids[i] = grip_create_vehicle(world, car);
    if (grip_vehicle_place(world, ids[i], p.position.x - sin(p.heading) * lane[i],
                           p.position.y + cos(p.heading) * lane[i], p.heading) != GRIP_OK) {
      snprintf(msg, msg_size, "car %d could not be placed on the track", i + 1);
      rc = -1;
      goto done;
    }
  }
  long steps = lround(seconds / dt);
  grip_vehicle_state st;
  long long contacts = 0;
  double start = clock_wall_s(), cpu_start = clock_cpu_s();
  follow_task task = {world, track, car, ids, lane, hint, profile, profile_count};
  for (long k = 0; k < steps; ++k) {
    if (pool) {
      void *handle = wd.enqueue_task(follow_range, vehicles, 1, &task, wd.task_context);
      if (handle) wd.finish_task(handle, wd.task_context); /* NULL: it ran them itself */
    } else {
      follow_range(0, vehicles, 0, &task);
    }
    grip_world_step(world, dt);
    for (int i = 0; i < vehicles; ++i) contacts += grip_vehicle_contact_count(world, ids[i]) > 0;
  }
  double elapsed = clock_wall_s() - start, cpu = clock_cpu_s() - cpu_start;
  double speed = 0.0;
  for (int i = 0; i < vehicles; ++i) {
    grip_vehicle_get_state(world, ids[i], &st);
    speed += st.speed;
  }
  out->steps = steps;
  out->ns_per_vehicle_step = elapsed * 1e9 / ((double)steps * vehicles);
  out->cpu_ns_per_vehicle_step = cpu * 1e9 / ((double)steps * vehicles);
  out->realtime_factor = seconds / elapsed;
  size_t shared = 0;
  out->bytes_per_vehicle = (double)grip_world_memory(world, &shared) / vehicles;
  out->shared_bytes = (double)shared;
  out->mean_speed = speed / vehicles;
  out->contact_steps = contacts;
  out->state_hash = grip_world_state_hash(world);
done:
  free(profile);
  free(ids);
  free(lane);
  free(hint);
  if (world) grip_destroy_world(world);
  task_pool_destroy(pool);
  return rc;
}
