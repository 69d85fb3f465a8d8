/* The track's per-ray queries make no call to libm's trigonometry (issue #16: "no trigonometry
 * per ray"): every call a wheel's or the chassis's query can make (grip_track_locate, its
 * progress form, the ground's raycast one at a time and four to a call, the barrier query) on
 * straights, circular arcs of every angle turned (the built-in track's and the oval's 90° and
 * 120° arcs, not only the short pieces of a TORCS track) and spirals of either hand, growing and
 * shrinking, at any heading.
 *
 * The executable is linked with -Wl,--wrap for atan2, atan, sin, cos, sincos and tan: libgrip's
 * calls to them reach the counting wrappers below, which pass them on to libm. The points and
 * rays are made first (grip_track_point_at uses libm) and counted only around the queries.
 * wrappers_count_the_tracks_calls shows that the wrappers see libgrip's calls: those of
 * grip_track_point_at on an arc, which does call sin and cos. */
#include <string.h>

#include "ground_flat.h"
#include "grip/grip.h"
#include "grip/track.h"
#include "support_random.h"
#include "test.h"
#include "track_file.h"

#define PI 3.14159265358979323846

static long trig_calls = 0;

double __real_atan2(double y, double x);
double __real_atan(double x);
double __real_sin(double x);
double __real_cos(double x);
double __real_tan(double x);
void __real_sincos(double x, double *s, double *c);
double __wrap_atan2(double y, double x);
double __wrap_atan(double x);
double __wrap_sin(double x);
double __wrap_cos(double x);
double __wrap_tan(double x);
void __wrap_sincos(double x, double *s, double *c);

double __wrap_atan2(double y, double x) {
  trig_calls++;
  return __real_atan2(y, x);
}
double __wrap_atan(double x) {
  trig_calls++;
  return __real_atan(x);
}
double __wrap_sin(double x) {
  trig_calls++;
  return __real_sin(x);
}
double __wrap_cos(double x) {
  trig_calls++;
  return __real_cos(x);
}
double __wrap_tan(double x) {
  trig_calls++;
  return __real_tan(x);
}
void __wrap_sincos(double x, double *s, double *c) {
  trig_calls++;
  __real_sincos(x, s, c);
}

static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;
static double urand(void) { return support_uniform(&rng_state); }

/* A point near the track, with where it is meant to be: a distance along the centre line and a
 * lateral offset from it (exact to the rounding of grip_track_point_at). */
typedef struct probe {
  double x, y;    /* m, a point of the centre line moved sideways */
  double distance, lateral;
  grip_vec3 tilt; /* a wheel ray's direction, tilted by up to 5 % */
} probe;

#define PROBES 4000

/* The queries at every probe, counting libm's trigonometry. Checks that they did their work:
 * the located distance and lateral are the probe's, and the rays hit. */
static void check_no_trig(const grip_track *t, const char *name, double reach) {
  static probe p[PROBES];
  double length = grip_track_length(t);
  for (int i = 0; i < PROBES; ++i) {
    /* every other probe in order along the track (a car), the others anywhere; none on the
     * start line, where a TORCS track's last segment may end a millimetre off its first */
    double s = i % 2 == 0 ? length * (i + 0.5) / PROBES : length * urand();
    grip_track_point c = grip_track_point_at(t, s);
    double lat = reach * (2.0 * urand() - 1.0);
    p[i].x = c.position.x - lat * sin(c.heading);
    p[i].y = c.position.y + lat * cos(c.heading);
    p[i].distance = c.distance;
    p[i].lateral = lat;
    grip_vec3 d = {0.1 * (urand() - 0.5), 0.1 * (urand() - 0.5), -1.0};
    double n = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    p[i].tilt = (grip_vec3){d.x / n, d.y / n, d.z / n};
  }
  grip_track_ground_context ctx;
  grip_ground ground = grip_track_ground(&ctx, t);
  grip_barrier barrier = grip_track_barriers(&ctx, t);
  int hint = -1, wheel_hint[GRIP_WHEEL_COUNT] = {-1, -1, -1, -1}, hits = 0, batch_hits = 0, walls = 0;
  double worst_distance = 0.0, worst_lateral = 0.0;
  long before = trig_calls;
  for (int i = 0; i < PROBES; ++i) {
    int h = i % 3 == 0 ? -1 : hint;
    grip_track_location l = grip_track_locate(t, p[i].x, p[i].y, h);
    grip_track_progress g = grip_track_locate_progress(t, p[i].x, p[i].y, h);
    hint = l.segment;
    double ds = fabs(l.distance - p[i].distance);
    if (ds > 0.5 * length) ds = length - ds;
    worst_distance = fmax(worst_distance, ds);
    worst_lateral = fmax(worst_lateral, fabs(l.lateral - p[i].lateral));
    CHECK(g.segment == l.segment && g.distance == l.distance && g.lateral == l.lateral);
    /* a vertical ray as the chassis asks, then a tilted wheel's with its last hit */
    grip_ground_query q = grip_no_vehicle_query();
    q.hint = &wheel_hint[0];
    grip_ground_hit hit;
    memset(&hit, 0, sizeof hit);
    grip_vec3 top = {p[i].x, p[i].y, l.z + 2.0};
    bool vertical = ground.raycast(ground.context, &q, top, (grip_vec3){0.0, 0.0, -1.0}, 6.0, &hit);
    hits += vertical;
    q.wheel = 0;
    q.has_last_hit = vertical;
    q.last_point = hit.point;
    q.last_normal = hit.normal;
    if (ground.raycast(ground.context, &q, top, p[i].tilt, 6.0, &hit)) hits++;
    /* a car's four wheel rays in one call, 1.5 m and 0.8 m about the point */
    ground_ray_batch batch;
    memset(&batch, 0, sizeof batch);
    ground_flat_ref flat[GRIP_WHEEL_COUNT];
    batch.direction = p[i].tilt;
    for (int w = 0; w < GRIP_WHEEL_COUNT; ++w) {
      batch.query[w] = grip_no_vehicle_query();
      batch.query[w].wheel = w;
      batch.query[w].hint = &wheel_hint[w];
      batch.origin[w] = (grip_vec3){p[i].x + (w < 2 ? 1.5 : -1.5), p[i].y + (w % 2 ? -0.8 : 0.8), l.z + 1.0};
      batch.max_distance[w] = 3.0;
      batch.flat[w] = &flat[w];
    }
    grip_track_raycast_flat_n(&ctx, GRIP_WHEEL_COUNT, &batch);
    for (int w = 0; w < GRIP_WHEEL_COUNT; ++w) batch_hits += batch.found[w];
    grip_barrier_hit wall;
    q = grip_no_vehicle_query();
    q.hint = &hint;
    if (barrier.query(barrier.context, &q, p[i].x, p[i].y, &wall)) walls++;
  }
  long calls = trig_calls - before;
  printf("  %s: %d probes, %ld calls to libm's trigonometry; distance within %.2g m, lateral "
         "within %.2g m; %d of %d rays and %d of %d batched hit, %d walls found\n",
         name, PROBES, calls, worst_distance, worst_lateral, hits, 2 * PROBES, batch_hits,
         GRIP_WHEEL_COUNT * PROBES, walls);
  CHECK(calls == 0);
  CHECK_NEAR(worst_distance, 0.0, 1e-9);
  CHECK_NEAR(worst_lateral, 0.0, 1e-9);
  CHECK(hits == 2 * PROBES);                         /* every probe lies within the barriers */
  CHECK(batch_hits >= GRIP_WHEEL_COUNT * PROBES * 9 / 10); /* a wheel may stand beyond them */
  CHECK(walls > PROBES / 2);
}

static grip_track *open_track(const char *spec) {
  grip_track *t = NULL;
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_track_open(spec, &t, NULL, 0, &err) != 0) {
    printf("  %s: %s\n", spec, err.message);
    return NULL;
  }
  return t;
}

/* The counting sees the track's own calls: grip_track_point_at on an arc calls sin and cos. */
static void wrappers_count_the_tracks_calls(void) {
  grip_track *t = open_track("default");
  CHECK(t != NULL);
  if (!t) return;
  long before = trig_calls;
  int arcs = 0;
  for (int i = 0; i < grip_track_segment_count(t); ++i) {
    if (grip_track_segment(t, i)->type == GRIP_TRACK_STRAIGHT) continue;
    arcs++;
    grip_track_point_at(t, grip_track_segment_start(t, i) + 1.0);
  }
  CHECK(arcs > 0);
  CHECK(trig_calls - before >= 2 * arcs);
  grip_track_destroy(t);
}

static void builtin_and_native_tracks(void) {
  const char *specs[] = {"default", GRIP_SOURCE_DIR "/data/tracks/oval.track"};
  for (int k = 0; k < 2; ++k) {
    grip_track *t = open_track(specs[k]);
    CHECK(t != NULL);
    if (!t) continue;
    check_no_trig(t, k == 0 ? "built-in track" : "oval.track", 10.0);
    grip_track_destroy(t);
  }
}

/* Spirals of both hands, growing and shrinking, a circular arc of 200° and straights, placed at
 * a heading of 2 rad: every kind of segment at every quadrant of heading. */
static void spirals(void) {
  grip_track_segment_def seg[6];
  for (int i = 0; i < 6; ++i) seg[i] = grip_default_track_segment_def();
  seg[0].length = 80.0;
  seg[1].type = GRIP_TRACK_LEFT; /* growing */
  seg[1].radius = 50.0;
  seg[1].end_radius = 120.0;
  seg[1].angle = 100.0 * PI / 180.0;
  seg[2].length = 40.0;
  seg[3].type = GRIP_TRACK_RIGHT; /* shrinking */
  seg[3].radius = 150.0;
  seg[3].end_radius = 40.0;
  seg[3].angle = 150.0 * PI / 180.0;
  seg[4].type = GRIP_TRACK_LEFT;
  seg[4].radius = seg[4].end_radius = 60.0;
  seg[4].angle = 200.0 * PI / 180.0;
  seg[5].length = 60.0;
  grip_track_def def = {seg, 6, {300.0, -200.0, 0.0}, 2.0};
  grip_track *t = NULL;
  CHECK(grip_track_build(&def, &t) == GRIP_OK);
  if (!t) return;
  check_no_trig(t, "spirals", 10.0);
  grip_track_destroy(t);
}

static void torcs_tracks(void) {
  const char *names[] = {"torcs:e-track-4", "torcs:wheel-1", "torcs:michigan"};
  for (int k = 0; k < 3; ++k) {
    grip_track *t = open_track(names[k]);
    if (!t) continue; /* TORCS's data not installed (scripts/install-deps.sh installs it) */
    check_no_trig(t, names[k], 8.0);
    grip_track_destroy(t);
  }
}

int main(void) {
  RUN_TEST(wrappers_count_the_tracks_calls);
  RUN_TEST(builtin_and_native_tracks);
  RUN_TEST(spirals);
  RUN_TEST(torcs_tracks);
  return TEST_RESULT();
}
