/* The ground contract: every raycast and barrier query is told which vehicle (its user_data)
 * and which wheel asks, and gets that wheel's own hint; a track keeps its last segment there.
 *
 * The scene: a figure-eight whose two straights cross, one on a bridge 6 m above the other.
 * Two cars coast towards the crossing and pass it at the same moment, one on each level. With
 * a hint per vehicle and wheel each car stays on its own level, and the results are bit for bit
 * the same with the cars created in either order and stepped on one or two threads. A ground
 * that shares one hint between the cars (what the track ground did before) gives a different
 * race for a different order: the check that this scene would catch a shared hint. */
#include <string.h>

#include "grip/grip.h"
#include "grip/track.h"
#include "support_random.h"
#include "task_pool.h"
#include "test.h"
#include "track_file.h"

#define PI 3.14159265358979323846
#define LOOP_RADIUS 80.0              /* m, centre-line radius of the two 270° loops */
#define CROSS_LENGTH (2.0 * LOOP_RADIUS) /* m, each straight; the straights cross at their middles
                                            when L = 2R (see figure_eight) */
#define BRIDGE 6.0                    /* m, height of the upper straight */
#define LEAD 40.0                     /* m, start of each car before the crossing */
#define SPEED 15.0                    /* m/s, starting speed */
#define STEPS 2000                    /* at dt 0.002: 4 s, about 58 m: both cars pass the crossing */

/* Straight A (z 0) at heading 45°, a left loop of 270° climbing to BRIDGE, straight B (z
 * BRIDGE) at heading −45°, a right loop of 270° coming down. A left 270° turn from heading 45°
 * moves the end by R·(−√2, 0) from its start; straight A runs from −(L/2)(s, s) to (L/2)(s, s)
 * (s = √½), so B starts at (L·s/2 − √2·R, L·s/2) and passes the origin when L·s = √2·R, L = 2R.
 * The right loop mirrors the left one and closes the chain. */
static grip_track *figure_eight(void) {
  grip_track_segment_def seg[4];
  for (int i = 0; i < 4; ++i) seg[i] = grip_default_track_segment_def();
  seg[0].length = seg[2].length = CROSS_LENGTH;
  seg[1].type = GRIP_TRACK_LEFT;
  seg[3].type = GRIP_TRACK_RIGHT;
  for (int i = 1; i < 4; i += 2) {
    seg[i].radius = seg[i].end_radius = LOOP_RADIUS;
    seg[i].angle = 1.5 * PI;
  }
  seg[1].z_end = seg[2].z_start = seg[2].z_end = seg[3].z_start = BRIDGE;
  double s = sqrt(0.5);
  grip_track_def td = {seg, 4, {-0.5 * CROSS_LENGTH * s, -0.5 * CROSS_LENGTH * s, 0.0}, 0.25 * PI};
  grip_track *track = NULL;
  CHECK(grip_track_build(&td, &track) == GRIP_OK);
  return track;
}

/* What each car's user_data points to: the queries grip made for it, per wheel (index 0..3)
 * and for the chassis (index 4). Only the car's own thread writes them. */
typedef struct car_log {
  long queries[GRIP_WHEEL_COUNT + 1];
  long hinted;                            /* queries that came with a hint */
  long with_last_hit[GRIP_WHEEL_COUNT + 1]; /* queries that came with the last step's hit */
} car_log;

typedef struct logging_ground {
  grip_track_ground_context track;
  int shared_hint; /* used instead of the query's hint when share is true */
  bool share;
} logging_ground;

static void log_query(const grip_ground_query *q) {
  if (!q || !q->user_data) return;
  car_log *log = q->user_data;
  int slot = q->wheel == GRIP_GROUND_QUERY_BODY ? GRIP_WHEEL_COUNT : q->wheel;
  log->queries[slot]++;
  log->hinted += q->hint != NULL;
  log->with_last_hit[slot] += q->has_last_hit;
}

static bool logging_raycast(void *context, const grip_ground_query *query, grip_vec3 origin, grip_vec3 direction,
                            double max_distance, grip_ground_hit *hit) {
  logging_ground *g = context;
  log_query(query);
  grip_ground_query q = *query;
  if (g->share) q.hint = &g->shared_hint;
  return grip_track_raycast(&g->track, &q, origin, direction, max_distance, hit);
}

static bool logging_barrier(void *context, const grip_ground_query *query, double x, double y,
                            grip_barrier_hit *hit) {
  logging_ground *g = context;
  log_query(query);
  grip_ground_query q = *query;
  if (g->share) q.hint = &g->shared_hint;
  return grip_track_barrier_query(&g->track, &q, x, y, hit);
}

typedef struct race_result {
  grip_vehicle_state state[2];  /* [0] the lower car, [1] the upper one */
  double min_z[2], max_z[2];    /* m, lowest and highest centre of mass over the run */
  int min_contacts[2];          /* fewest wheels on the ground in any step after the first 0.2 s */
  car_log log[2];
} race_result;

/* The two cars, created lower-first (order 0) or upper-first (order 1), on `threads` threads,
 * with each wheel's own hint (shared_hint false) or one hint for everything. */
static race_result crossing_race(const grip_track *track, int order, int threads, bool shared_hint) {
  race_result r;
  memset(&r, 0, sizeof r);
  logging_ground ground = {.track = {track}, .shared_hint = -1, .share = shared_hint};
  grip_world_def wd = grip_default_world_def();
  wd.ground = (grip_ground){logging_raycast, &ground};
  wd.barrier = (grip_barrier){.query = logging_barrier, .context = &ground};
  task_pool *pool = threads > 1 ? task_pool_create(threads) : NULL;
  if (pool) task_pool_attach(pool, &wd);
  grip_world *world = grip_create_world(&wd);
  double s = sqrt(0.5);
  /* lower car on straight A, upper on B, each LEAD before the crossing at the origin */
  const double px[2] = {-LEAD * s, -LEAD * s}, py[2] = {-LEAD * s, LEAD * s};
  const double heading[2] = {0.25 * PI, -0.25 * PI};
  grip_vehicle_id id[2];
  for (int k = 0; k < 2; ++k) {
    int car = order == 0 ? k : 1 - k;
    grip_vehicle_def def = grip_default_vehicle_def();
    def.user_data = &r.log[car];
    id[car] = grip_create_vehicle(world, &def);
  }
  for (int car = 0; car < 2; ++car) {
    CHECK(grip_vehicle_place(world, id[car], px[car], py[car], heading[car]) == GRIP_OK);
    CHECK(grip_vehicle_set_velocity(world, id[car], (grip_vec3){SPEED * cos(heading[car]), SPEED * sin(heading[car]),
                                                              0.0}) == GRIP_OK);
    grip_vehicle_input in = grip_default_vehicle_input();
    in.automatic = false;
    in.gear = 0;
    grip_vehicle_set_input(world, id[car], &in);
    r.min_z[car] = INFINITY;
    r.max_z[car] = -INFINITY;
    r.min_contacts[car] = GRIP_WHEEL_COUNT;
  }
  memset(r.log, 0, sizeof r.log); /* the steps' queries only, not grip_vehicle_place's */
  for (int i = 0; i < STEPS; ++i) {
    grip_world_step(world, 0.002);
    for (int car = 0; car < 2; ++car) {
      grip_vehicle_state st;
      grip_vehicle_get_state(world, id[car], &st);
      r.min_z[car] = fmin(r.min_z[car], st.center_of_mass.z);
      r.max_z[car] = fmax(r.max_z[car], st.center_of_mass.z);
      int n = 0;
      for (int w = 0; w < GRIP_WHEEL_COUNT; ++w) n += st.wheels[w].in_contact;
      if (i >= 100 && n < r.min_contacts[car]) r.min_contacts[car] = n;
    }
  }
  for (int car = 0; car < 2; ++car) grip_vehicle_get_state(world, id[car], &r.state[car]);
  grip_destroy_world(world);
  task_pool_destroy(pool);
  return r;
}

static bool same_state(const grip_vehicle_state *a, const grip_vehicle_state *b) {
  return memcmp(&a->pose, &b->pose, sizeof a->pose) == 0 && memcmp(&a->linear_velocity, &b->linear_velocity, sizeof a->linear_velocity) == 0 &&
         memcmp(&a->angular_velocity, &b->angular_velocity, sizeof a->angular_velocity) == 0;
}

/* The figure-eight closes (the geometry above), and its straights cross at the origin 6 m
 * apart: the locate from each straight's own segment gives its level there. */
static void figure_eight_geometry(void) {
  grip_track *track = figure_eight();
  if (!track) return;
  grip_track_stats st = grip_track_get_stats(track);
  CHECK(st.closure_error < 1e-9);
  CHECK(fabs(st.heading_closure) < 1e-12);
  CHECK_NEAR(grip_track_locate(track, 0.0, 0.0, 0).z, 0.0, 1e-12);
  CHECK_NEAR(grip_track_locate(track, 0.0, 0.0, 2).z, BRIDGE, 1e-12);
  CHECK_NEAR(grip_track_locate(track, 0.0, 0.0, 0).distance, 0.5 * CROSS_LENGTH, 1e-9);
  grip_track_destroy(track);
}

static void hint_per_wheel_is_order_and_thread_independent(void) {
  grip_track *track = figure_eight();
  if (!track) return;
  race_result base = crossing_race(track, 0, 1, false);
  /* Each car kept its level: the lower car's centre of mass stays within 1 m of its rest height
   * (about 0.45 m over the road), the upper one's within 1 m of BRIDGE + that; all four wheels
   * stayed on the ground throughout; both went 15 m past the crossing at least. */
  for (int car = 0; car < 2; ++car) {
    double level = car == 0 ? 0.0 : BRIDGE;
    CHECK(base.min_z[car] > level && base.max_z[car] < level + 1.0);
    CHECK(base.min_contacts[car] == GRIP_WHEEL_COUNT);
    double along = (base.state[car].pose.position.x + LEAD * sqrt(0.5)) * sqrt(2.0);
    CHECK(along > LEAD + 15.0);
    printf("  car %d: %.2f m along, speed %.2f m/s\n", car, along, base.state[car].speed);
    /* the contract: wheels 0..3 and the chassis asked, every query with its hint */
    for (int w = 0; w < GRIP_WHEEL_COUNT; ++w) CHECK(base.log[car].queries[w] >= STEPS);
    CHECK(base.log[car].queries[GRIP_WHEEL_COUNT] >= STEPS); /* a wall query at least per step */
    long total = 0;
    for (int w = 0; w <= GRIP_WHEEL_COUNT; ++w) total += base.log[car].queries[w];
    CHECK(base.log[car].hinted == total);
    /* every wheel query but the first carried the last step's hit (the wheels never left the
     * ground); the chassis's never do */
    for (int w = 0; w < GRIP_WHEEL_COUNT; ++w) CHECK(base.log[car].with_last_hit[w] == base.log[car].queries[w] - 1);
    CHECK(base.log[car].with_last_hit[GRIP_WHEEL_COUNT] == 0);
  }
  printf("  lower car z %.3f..%.3f m, upper car z %.3f..%.3f m; %ld wheel-0 and %ld chassis queries\n",
         base.min_z[0], base.max_z[0], base.min_z[1], base.max_z[1], base.log[0].queries[0],
         base.log[0].queries[GRIP_WHEEL_COUNT]);
  for (int order = 0; order < 2; ++order)
    for (int threads = 1; threads <= 2; ++threads) {
      if (order == 0 && threads == 1) continue;
      race_result r = crossing_race(track, order, threads, false);
      for (int car = 0; car < 2; ++car) CHECK(same_state(&r.state[car], &base.state[car]));
    }
  grip_track_destroy(track);
}

/* The same race with one hint shared by all queries: the car stepped second starts its locates
 * from where the first car's ended, and at the crossing that is the other level. */
static void a_shared_hint_would_depend_on_order(void) {
  grip_track *track = figure_eight();
  if (!track) return;
  race_result a = crossing_race(track, 0, 1, true), b = crossing_race(track, 1, 1, true);
  bool differ = !same_state(&a.state[0], &b.state[0]) || !same_state(&a.state[1], &b.state[1]);
  CHECK(differ);
  printf("  shared hint: lower car ends at z %.3f (lower first) vs %.3f (upper first); upper car at %.3f vs %.3f\n",
         a.state[0].center_of_mass.z, b.state[0].center_of_mass.z, a.state[1].center_of_mass.z,
         b.state[1].center_of_mass.z);
  grip_track_destroy(track);
}

/* The grounds grip ships accept a query from no vehicle (NULL or grip_no_vehicle_query()). */
static void grounds_take_no_vehicle(void) {
  grip_plane plane = grip_default_plane();
  grip_ground_hit hit;
  grip_ground_query none = grip_no_vehicle_query();
  CHECK(none.user_data == NULL && none.hint == NULL && none.wheel == GRIP_GROUND_QUERY_BODY);
  CHECK(grip_plane_raycast(&plane, NULL, (grip_vec3){1, 2, 3}, (grip_vec3){0, 0, -1}, 5.0, &hit));
  CHECK_NEAR(hit.distance, 3.0, 0.0);
  grip_track *track = figure_eight();
  if (!track) return;
  grip_track_ground_context ctx;
  grip_ground g = grip_track_ground(&ctx, track);
  /* from no vehicle the locate searches the grid: at the crossing it takes the lower index */
  CHECK(g.raycast(g.context, &none, (grip_vec3){0.0, 0.0, 20.0}, (grip_vec3){0, 0, -1}, 40.0, &hit));
  CHECK_NEAR(hit.point.z, 0.0, 1e-12);
  int hint = 2; /* a wheel on the bridge */
  grip_ground_query q = {.user_data = NULL, .wheel = 1, .hint = &hint};
  CHECK(g.raycast(g.context, &q, (grip_vec3){0.0, 0.0, 20.0}, (grip_vec3){0, 0, -1}, 40.0, &hit));
  CHECK_NEAR(hit.point.z, BRIDGE, 1e-12);
  CHECK(hint == 2);
  grip_barrier b = grip_track_barriers(&ctx, track);
  grip_barrier_hit bh;
  CHECK(b.query(b.context, NULL, 0.0, 0.0, &bh));
  CHECK_NEAR(bh.distance, 6.0 + 1.0 + 8.0, 1e-9); /* half the road, the kerb, the run-off */
  grip_track_destroy(track);
}


/* Ground with a log of the last query each wheel made (a world's queries for one vehicle). */
typedef struct last_query_ground {
  grip_track_ground_context track;
  grip_ground_query last[GRIP_WHEEL_COUNT];
} last_query_ground;

static bool last_query_raycast(void *context, const grip_ground_query *query, grip_vec3 origin, grip_vec3 direction,
                               double max_distance, grip_ground_hit *hit) {
  last_query_ground *g = context;
  if (query->wheel >= 0 && query->wheel < GRIP_WHEEL_COUNT) g->last[query->wheel] = *query;
  return grip_track_raycast(&g->track, query, origin, direction, max_distance, hit);
}

/* The vehicle hands each wheel's ray the hit of the step before: the contact point and normal
 * its state reported then; none after it is placed, none from a wheel in the air. */
static void wheels_pass_their_last_hit(void) {
  grip_track *track = figure_eight();
  if (!track) return;
  last_query_ground ground = {.track = {track}};
  grip_world_def wd = grip_default_world_def();
  wd.ground = (grip_ground){last_query_raycast, &ground};
  grip_world *world = grip_create_world(&wd);
  grip_vehicle_def def = grip_default_vehicle_def();
  grip_vehicle_id id = grip_create_vehicle(world, &def);
  double s = sqrt(0.5);
  CHECK(grip_vehicle_place(world, id, -LEAD * s, -LEAD * s, 0.25 * PI) == GRIP_OK);
  CHECK(grip_world_step(world, 0.002) == GRIP_OK);
  for (int w = 0; w < GRIP_WHEEL_COUNT; ++w) CHECK(!ground.last[w].has_last_hit);
  for (int k = 0; k < 50; ++k) {
    grip_vehicle_state before;
    CHECK(grip_vehicle_get_state(world, id, &before) == GRIP_OK);
    CHECK(grip_world_step(world, 0.002) == GRIP_OK);
    for (int w = 0; w < GRIP_WHEEL_COUNT; ++w) {
      const grip_ground_query *q = &ground.last[w];
      CHECK(q->has_last_hit == before.wheels[w].in_contact);
      if (!q->has_last_hit) continue;
      CHECK(memcmp(&q->last_point, &before.wheels[w].contact_point, sizeof q->last_point) == 0);
      CHECK(memcmp(&q->last_normal, &before.wheels[w].contact_normal, sizeof q->last_normal) == 0);
    }
  }
  /* placed again: the first step's rays start afresh */
  CHECK(grip_vehicle_place(world, id, LEAD * s, LEAD * s, 0.25 * PI) == GRIP_OK);
  CHECK(grip_world_step(world, 0.002) == GRIP_OK);
  for (int w = 0; w < GRIP_WHEEL_COUNT; ++w) CHECK(!ground.last[w].has_last_hit);
  /* dropped from 2 m: the wheels hang in the air, and their rays carry no hit */
  CHECK(grip_vehicle_set_pose(world, id, (grip_pose){{LEAD * s, LEAD * s, 2.0}, {1.0, 0.0, 0.0, 0.0}}) == GRIP_OK);
  for (int k = 0; k < 3; ++k) CHECK(grip_world_step(world, 0.002) == GRIP_OK);
  for (int w = 0; w < GRIP_WHEEL_COUNT; ++w) CHECK(!ground.last[w].has_last_hit);
  grip_destroy_world(world);
  grip_track_destroy(track);
}

/* The last hit only changes where the track's ray search starts, never what it finds: on the
 * built-in track, the figure-eight and a TORCS track with banking and crests (e-track-4, when
 * installed), rays from 0.3–0.9 m above the road, the kerbs and the run-off, tilted up to
 * 0.15 rad every way, meet the ground within 1e-9 m of the hit found without a guess, and its
 * normal within 1e-8 (the normal is the plane's where the search settled, within 1 µm of the
 * hit: the surface's curvature, < 0.01 /m, times that), whatever the guess: the hit of a ray
 * 0–0.3 m away (last step's, for a car at up to 150 m/s at dt 0.002), a plane 0.3 m below
 * leaning 0.2 rad, a plane above the ray's origin, and a plane the ray runs along. */

static void check_guesses_on(const grip_track *t, const char *name) {
  grip_track_ground_context ctx;
  grip_ground g = grip_track_ground(&ctx, t);
  grip_track_stats st = grip_track_get_stats(t);
  unsigned long long rng = 0x9e3779b97f4a7c15ull;
  int rays = 0, hits = 0;
  double worst = 0.0, worst_normal = 0.0;
  for (int k = 0; k < 4000; ++k) {
    double u1 = support_uniform(&rng), u2 = support_uniform(&rng), u3 = support_uniform(&rng), u4 = support_uniform(&rng);
    grip_track_point p = grip_track_point_at(t, st.length * u1);
    double lateral = (2.0 * u2 - 1.0) * (0.5 * p.width + 3.0);
    double x = p.position.x - lateral * sin(p.heading), y = p.position.y + lateral * cos(p.heading);
    int hint = -1;
    grip_track_location under = grip_track_locate(t, x, y, -1);
    double tilt = 0.15 * u3, azimuth = 2.0 * PI * u4;
    grip_vec3 dir = {sin(tilt) * cos(azimuth), sin(tilt) * sin(azimuth), -cos(tilt)};
    grip_vec3 origin = {x, y, under.z + 0.3 + 0.6 * u3};
    grip_ground_query plain = {.user_data = NULL, .wheel = 0, .hint = &hint};
    grip_ground_hit h0, h1, last = {0};
    bool found = g.raycast(g.context, &plain, origin, dir, 2.0, &h0);
    int start_hint = hint;
    /* last step's hit: the same ray from up to 0.3 m away */
    grip_vec3 moved = {origin.x + 0.3 * (u1 - 0.5), origin.y + 0.3 * (u2 - 0.5), origin.z};
    int moved_hint = start_hint;
    grip_ground_query q_moved = {.user_data = NULL, .wheel = 0, .hint = &moved_hint};
    bool have_last = g.raycast(g.context, &q_moved, moved, dir, 2.0, &last);
    grip_vec3 lean = {sin(0.2) * cos(azimuth + 1.0), sin(0.2) * sin(azimuth + 1.0), cos(0.2)};
    const struct {
      grip_vec3 point, normal;
    } guesses[] = {
        {last.point, last.normal},
        {{x, y, under.z - 0.3}, lean},
        {{x, y, origin.z + 1.0}, {0.0, 0.0, 1.0}},
        {origin, {cos(tilt) * cos(azimuth), cos(tilt) * sin(azimuth), sin(tilt)}}, /* ⟂ the ray */
    };
    for (size_t i = have_last ? 0 : 1; i < sizeof guesses / sizeof guesses[0]; ++i) {
      int h = start_hint;
      grip_ground_query q = {.user_data = NULL, .wheel = 0, .hint = &h, .has_last_hit = true,
                             .last_point = guesses[i].point, .last_normal = guesses[i].normal};
      bool found1 = g.raycast(g.context, &q, origin, dir, 2.0, &h1);
      ++rays;
      CHECK(found1 == found);
      if (!found || !found1) continue;
      ++hits;
      double e = fmax(fmax(fabs(h1.point.x - h0.point.x), fabs(h1.point.y - h0.point.y)),
                      fmax(fabs(h1.point.z - h0.point.z), fabs(h1.distance - h0.distance)));
      double en = fmax(fabs(h1.normal.x - h0.normal.x), fmax(fabs(h1.normal.y - h0.normal.y), fabs(h1.normal.z - h0.normal.z)));
      worst = fmax(worst, e);
      worst_normal = fmax(worst_normal, en);
      CHECK(e <= 1e-9);
      CHECK(en <= 1e-8);
      CHECK(h1.surface.friction == h0.surface.friction);
    }
  }
  printf("  %s: %d rays with a guess, %d hits, largest change of the point %.2g m, of the normal %.2g\n", name, rays,
         hits, worst, worst_normal);
  CHECK(hits > rays / 2);
}

static void last_hit_changes_no_hit(void) {
  grip_track *t = figure_eight();
  if (t) check_guesses_on(t, "figure-eight");
  grip_track_destroy(t);
  grip_load_error err;
  grip_load_error_clear(&err);
  t = NULL;
  CHECK(grip_track_open("default", &t, NULL, 0, &err) == 0);
  if (t) check_guesses_on(t, "built-in track");
  grip_track_destroy(t);
  t = NULL;
  if (grip_track_open("torcs:e-track-4", &t, NULL, 0, &err) == 0) {
    check_guesses_on(t, "e-track-4");
    grip_track_destroy(t);
  } else {
    printf("  e-track-4 not installed: %s\n", err.message);
  }
}

int main(void) {
  RUN_TEST(figure_eight_geometry);
  RUN_TEST(grounds_take_no_vehicle);
  RUN_TEST(hint_per_wheel_is_order_and_thread_independent);
  RUN_TEST(a_shared_hint_would_depend_on_order);
  RUN_TEST(wheels_pass_their_last_hit);
  RUN_TEST(last_hit_changes_no_hit);
  return TEST_RESULT();
}
