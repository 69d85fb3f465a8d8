/* Track geometry and queries against hand-computed and analytic figures. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "grip/track.h"
#include "ground_flat.h"
#include "support_tracks.h"
#include "test.h"
#include "track_file.h"
#include "track_search.h"

#define PI 3.14159265358979323846

static unsigned long long rng_state = 88172645463325252ull;
static double urand(void) { /* xorshift64, uniform in [0, 1) */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* Road 10 m, kerbs 1 m (friction 0.9), run-off 5 m (friction 0.6), level strips. */
static grip_track_segment_def base_segment(void) {
  grip_track_segment_def d = grip_default_track_segment_def();
  d.width_start = d.width_end = 10.0;
  for (int s = 0; s < 2; ++s) {
    d.side[s].kerb_width = 1.0;
    d.side[s].kerb_surface.friction = 0.9;
    d.side[s].runoff_width_start = d.side[s].runoff_width_end = 5.0;
    d.side[s].runoff_surface.friction = 0.6;
    d.side[s].barrier_height = 1.5;
  }
  return d;
}

static grip_track *build(const grip_track_segment_def *segs, int n) {
  grip_track_def def = {.segments = segs, .segment_count = n,
                        .start_position = {0.0, 0.0, 0.0}, .start_heading = 0.0};
  grip_track *t = NULL;
  CHECK(grip_track_build(&def, &t) == GRIP_OK);
  return t;
}

/* A circle of radius R = 100 from 4 left arcs of 90 degrees, starting at the origin heading
 * +x: its centre is (0, R); polar geometry around it gives distance and offset exactly. */
static void test_circle(void) {
  const double R = 100.0;
  grip_track_segment_def segs[4];
  for (int i = 0; i < 4; ++i) {
    segs[i] = base_segment();
    segs[i].type = GRIP_TRACK_LEFT;
    segs[i].radius = segs[i].end_radius = R;
    segs[i].angle = PI / 2;
  }
  grip_track *t = build(segs, 4);
  if (!t) return;
  grip_track_stats st = grip_track_get_stats(t);
  CHECK_NEAR(st.length, 2 * PI * R, 1e-9);
  CHECK_NEAR(st.closure_error, 0.0, 1e-9);
  CHECK_NEAR(st.heading_closure, 0.0, 1e-12);
  CHECK_NEAR(st.min_radius, R, 0.0);
  CHECK_NEAR(st.x_max - st.x_min, 2 * R, 1e-9);

  int hint = -1;
  for (int k = 0; k < 2000; ++k) {
    double phi = -PI + 2 * PI * urand(); /* polar angle around the centre */
    double rho = R - 11.0 + 22.0 * urand();
    double x = rho * cos(phi), y = R + rho * sin(phi);
    double s = R * fmod(phi + PI / 2 + 2 * PI, 2 * PI); /* start point is at phi = -90 deg */
    grip_track_location loc = grip_track_locate(t, x, y, hint);
    hint = loc.segment;
    double ds = fabs(loc.distance - s);
    if (ds > PI * R) ds = 2 * PI * R - ds;
    CHECK_NEAR(ds, 0.0, 1e-9);
    CHECK_NEAR(loc.lateral, R - rho, 1e-9);
    CHECK_NEAR(loc.z, 0.0, 0.0);
    CHECK_NEAR(loc.normal.z, 1.0, 0.0);
    CHECK(loc.segment == (int)(s / (PI * R / 2)) || ds < 1e-6 ||
          fabs(fmod(s, PI * R / 2)) < 1e-6);
  }
  /* centre line at given distances */
  for (int k = 0; k <= 16; ++k) {
    double s = 2 * PI * R * k / 16.0 + 3.0;
    grip_track_point p = grip_track_point_at(t, s);
    double a = -PI / 2 + s / R;
    CHECK_NEAR(p.position.x, R * cos(a), 1e-9);
    CHECK_NEAR(p.position.y, R + R * sin(a), 1e-9);
    CHECK_NEAR(fmod(p.heading - s / R + 4 * PI, 2 * PI), 0.0, 1e-9);
    CHECK_NEAR(p.curvature, 1.0 / R, 1e-15);
    CHECK_NEAR(p.width, 10.0, 0.0);
  }
  /* wrap-around: -1 m is 1 m before the line */
  CHECK_NEAR(grip_track_point_at(t, -1.0).distance, 2 * PI * R - 1.0, 1e-9);

  /* zones by lateral offset at the start: road |t| <= 5, kerb <= 6, run-off <= 11 */
  struct {
    double lateral;
    grip_track_zone zone;
    double friction;
  } zones[] = {{0.0, GRIP_TRACK_ZONE_ROAD, 1.0},    {4.9, GRIP_TRACK_ZONE_ROAD, 1.0},
               {-4.9, GRIP_TRACK_ZONE_ROAD, 1.0},   {5.5, GRIP_TRACK_ZONE_KERB, 0.9},
               {-5.5, GRIP_TRACK_ZONE_KERB, 0.9},   {8.0, GRIP_TRACK_ZONE_RUNOFF, 0.6},
               {-10.9, GRIP_TRACK_ZONE_RUNOFF, 0.6}, {11.5, GRIP_TRACK_ZONE_OUTSIDE, 0.6},
               {-20.0, GRIP_TRACK_ZONE_OUTSIDE, 0.6}};
  for (size_t i = 0; i < sizeof zones / sizeof zones[0]; ++i) {
    /* point at polar angle -60 deg, so that it lies inside segment 0 */
    double phi = -PI / 3, rho = R - zones[i].lateral;
    grip_track_location loc = grip_track_locate(t, rho * cos(phi), R + rho * sin(phi), 0);
    CHECK(loc.zone == zones[i].zone);
    CHECK(loc.on_track == (zones[i].zone != GRIP_TRACK_ZONE_OUTSIDE));
    CHECK_NEAR(loc.surface.friction, zones[i].friction, 0.0);
    CHECK_NEAR(loc.lateral, zones[i].lateral, 1e-9);
  }

  /* barriers: left one 11 m left of the centre line, its inward normal points away from the
   * circle's centre (the track's left is the inside of a left turn) */
  {
    double phi = 0.0, rho = R - 3.0; /* lateral +3 at the circle's east point, heading +y */
    grip_track_location loc = grip_track_locate(t, rho * cos(phi), R + rho * sin(phi), 1);
    grip_track_barrier bl = grip_track_barrier_at(t, &loc, GRIP_TRACK_SIDE_LEFT);
    grip_track_barrier br = grip_track_barrier_at(t, &loc, GRIP_TRACK_SIDE_RIGHT);
    CHECK_NEAR(bl.distance, 8.0, 1e-9);
    CHECK_NEAR(br.distance, 14.0, 1e-9);
    CHECK_NEAR(bl.normal.x, 1.0, 1e-12);
    CHECK_NEAR(bl.normal.y, 0.0, 1e-12);
    CHECK_NEAR(br.normal.x, -1.0, 1e-12);
    CHECK_NEAR(bl.height, 1.5, 0.0);
    CHECK_NEAR(bl.lateral, 11.0, 1e-12);
    CHECK_NEAR(br.lateral, -11.0, 1e-12);
  }
  grip_track_destroy(t);
}

/* Heights and normals on single straights (x along the track, y = lateral). */
static void test_heights(void) {
  /* banked 0.1 (tan), level strips: z = 0.1·y on the road, 0.5 at and beyond the left edge */
  grip_track_segment_def d = base_segment();
  d.length = 100.0;
  d.cross_start = d.cross_end = 0.1;
  grip_track *t = build(&d, 1);
  if (!t) return;
  grip_track_location l = grip_track_locate(t, 50.0, 3.0, 0);
  CHECK_NEAR(l.z, 0.3, 1e-12);
  double n = sqrt(1.01);
  CHECK_NEAR(l.normal.x, 0.0, 1e-12);
  CHECK_NEAR(l.normal.y, -0.1 / n, 1e-12);
  CHECK_NEAR(l.normal.z, 1.0 / n, 1e-12);
  CHECK_NEAR(atan(0.1), grip_track_point_at(t, 20.0).banking, 1e-12);
  l = grip_track_locate(t, 50.0, 8.0, 0); /* left run-off, level */
  CHECK_NEAR(l.z, 0.5, 1e-12);
  CHECK_NEAR(l.normal.z, 1.0, 1e-12);
  l = grip_track_locate(t, 50.0, -8.0, 0); /* right run-off, level at the low edge */
  CHECK_NEAR(l.z, -0.5, 1e-12);
  l = grip_track_locate(t, 50.0, 30.0, 0); /* beyond the barrier: flat at the barrier foot */
  CHECK(!l.on_track);
  CHECK_NEAR(l.z, 0.5, 1e-12);
  grip_track_destroy(t);

  /* banked strips continue the slope */
  d.side[GRIP_TRACK_SIDE_LEFT].banked = true;
  t = build(&d, 1);
  if (!t) return;
  l = grip_track_locate(t, 50.0, 8.0, 0);
  CHECK_NEAR(l.z, 0.8, 1e-12);
  CHECK_NEAR(l.normal.y, -0.1 / n, 1e-12);
  l = grip_track_locate(t, 50.0, 30.0, 0); /* beyond the barrier at 11 m */
  CHECK_NEAR(l.z, 1.1, 1e-12);
  grip_track_destroy(t);

  /* constant grade 5 %: z = 0.05·x, normal (-0.05, 0, 1)/|.| */
  d = base_segment();
  d.length = 100.0;
  d.z_end = 5.0;
  d.slope_start = d.slope_end = 0.05;
  t = build(&d, 1);
  if (!t) return;
  l = grip_track_locate(t, 40.0, -2.0, 0);
  n = sqrt(1.0025);
  CHECK_NEAR(l.z, 2.0, 1e-12);
  CHECK_NEAR(l.normal.x, -0.05 / n, 1e-12);
  CHECK_NEAR(l.normal.z, 1.0 / n, 1e-12);
  CHECK_NEAR(grip_track_point_at(t, 40.0).slope, 0.05, 1e-12);

  /* the ground adapter: a slightly tilted ray from (40, 0, 10) along (0.01, 0, -1)/|.| meets
   * z = 0.05·x where 10 - k = 0.05·(40 + 0.01·k), k = 8/1.0005 */
  grip_track_ground_context ctx;
  grip_ground g = grip_track_ground(&ctx, t);
  int wheel_hint = -1; /* what a vehicle keeps for one wheel */
  grip_ground_query query = {.user_data = NULL, .wheel = 0, .hint = &wheel_hint};
  double dn = sqrt(1.0001);
  grip_vec3 dir = {0.01 / dn, 0.0, -1.0 / dn};
  grip_ground_hit hit;
  CHECK(g.raycast(g.context, &query, (grip_vec3){40.0, 0.0, 10.0}, dir, 20.0, &hit));
  double k = 8.0 / 1.0005;
  CHECK_NEAR(hit.point.x, 40.0 + 0.01 * k, 1e-9);
  CHECK_NEAR(hit.point.z, 10.0 - k, 1e-9);
  CHECK_NEAR(hit.distance, k * dn, 1e-9);
  CHECK_NEAR(hit.normal.x, -0.05 / n, 1e-12);
  CHECK_NEAR(hit.surface.friction, 1.0, 0.0);
  CHECK(wheel_hint == 0); /* the segment found, kept for the next query of that wheel */
  CHECK(!g.raycast(g.context, &query, (grip_vec3){40.0, 0.0, 10.0}, dir, 5.0, &hit)); /* too short */
  CHECK(!g.raycast(g.context, &query, (grip_vec3){40.0, 0.0, 10.0}, (grip_vec3){0, 0, 1}, 50.0, &hit));
  /* on the kerb the hit reports the kerb's surface */
  CHECK(g.raycast(g.context, &query, (grip_vec3){40.0, 5.5, 3.0}, (grip_vec3){0, 0, -1}, 5.0, &hit));
  CHECK_NEAR(hit.point.z, 2.0, 1e-12);
  CHECK_NEAR(hit.surface.friction, 0.9, 0.0);
  grip_track_destroy(t);

  /* smooth climb 0 -> 4 m over 100 m with zero end slopes (Hermite): z(25) = 4·(3/16 - 2/64)
   * = 0.625, z(50) = 2, slope at 50 = 4·1.5/100 = 0.06 */
  d = base_segment();
  d.length = 100.0;
  d.z_end = 4.0;
  t = build(&d, 1);
  if (!t) return;
  CHECK_NEAR(grip_track_locate(t, 25.0, 1.0, 0).z, 0.625, 1e-12);
  l = grip_track_locate(t, 50.0, 1.0, 0);
  CHECK_NEAR(l.z, 2.0, 1e-12);
  CHECK_NEAR(l.normal.x, -0.06 / sqrt(1.0036), 1e-12);
  /* ray straight down at x = 25: the iterated plane intersection lands on the curve */
  g = grip_track_ground(&ctx, t);
  CHECK(g.raycast(g.context, &query, (grip_vec3){25.0, 0.0, 5.0}, (grip_vec3){0.0, 0.0, -1.0}, 10.0,
                  &hit));
  CHECK_NEAR(hit.point.z, 0.625, 1e-12);
  /* a tilted ray from (20, 0, 5) along (0.1, 0, -1)/|.|: bisection on 5 - k = z(20 + 0.1·k)
   * with z(x) = 4·(3v² - 2v³), v = x/100 */
  {
    double lo = 0.0, hi = 10.0;
    for (int it = 0; it < 200; ++it) {
      double mid = 0.5 * (lo + hi), v = (20.0 + 0.1 * mid) / 100.0;
      double f = 5.0 - mid - 4.0 * (3 * v * v - 2 * v * v * v);
      if (f > 0.0)
        lo = mid;
      else
        hi = mid;
    }
    double kk = 0.5 * (lo + hi), dn2 = sqrt(1.01);
    CHECK(g.raycast(g.context, &query, (grip_vec3){20.0, 0.0, 5.0},
                    (grip_vec3){0.1 / dn2, 0.0, -1.0 / dn2}, 10.0, &hit));
    CHECK_NEAR(hit.point.x, 20.0 + 0.1 * kk, 1e-9);
    CHECK_NEAR(hit.point.z, 5.0 - kk, 1e-9);
    CHECK_NEAR(hit.distance, kk * dn2, 1e-9);
  }
  grip_track_destroy(t);

  /* banked left arc (radius 50, tan 0.2): on the road z = 0.2·lateral, normal tilted away from
   * the centre: n = (-0.2·N, 1)/|.| with N the unit vector towards the centre */
  d = base_segment();
  d.type = GRIP_TRACK_LEFT;
  d.radius = d.end_radius = 50.0;
  d.angle = PI / 2;
  d.cross_start = d.cross_end = 0.2;
  t = build(&d, 1);
  if (!t) return;
  double phi = -PI / 4, rho = 47.0; /* centre (0, 50); lateral = 3 */
  l = grip_track_locate(t, rho * cos(phi), 50.0 + rho * sin(phi), 0);
  double Nx = -cos(phi), Ny = -sin(phi);
  n = sqrt(1.04);
  CHECK_NEAR(l.lateral, 3.0, 1e-9);
  CHECK_NEAR(l.z, 0.6, 1e-9);
  CHECK_NEAR(l.normal.x, -0.2 * Nx / n, 1e-12);
  CHECK_NEAR(l.normal.y, -0.2 * Ny / n, 1e-12);
  CHECK_NEAR(l.normal.z, 1.0 / n, 1e-12);
  grip_track_destroy(t);

  /* barrier of a run-off widening 5 -> 15 m over a 100 m straight: at x = 50 its foot is
   * 5 + 1 + 10 = 16 m left, it slants by 0.1 m per m: inward normal (0.1, -1)/|.| */
  d = base_segment();
  d.length = 100.0;
  d.side[GRIP_TRACK_SIDE_LEFT].runoff_width_end = 15.0;
  t = build(&d, 1);
  if (!t) return;
  l = grip_track_locate(t, 50.0, 0.0, 0);
  grip_track_barrier b = grip_track_barrier_at(t, &l, GRIP_TRACK_SIDE_LEFT);
  n = sqrt(1.01);
  CHECK_NEAR(b.lateral, 16.0, 1e-12);
  CHECK_NEAR(b.normal.x, 0.1 / n, 1e-12);
  CHECK_NEAR(b.normal.y, -1.0 / n, 1e-12);
  CHECK_NEAR(b.distance, 16.0 / n, 1e-12);
  grip_track_destroy(t);
}

/* A spiral arc (turning dir = +1 left or -1 right, radius r0 -> r1 over `angle`, placed at
 * `heading`, its road banked by `cross`), against an independent numerical integration of the
 * centre line (midpoint rule over the turned angle): its points, headings and curvatures, and
 * points 4 m right and 3.5 m left located back to their distance, offset and banked normal
 * (g·sin psi, −g·cos psi, 1)/sqrt(1 + g²) of z = g·lateral. */
static void check_spiral(int dir, double r0, double r1, double angle, double heading, double cross) {
  grip_track_segment_def d = base_segment();
  d.type = dir > 0 ? GRIP_TRACK_LEFT : GRIP_TRACK_RIGHT;
  d.radius = r0;
  d.end_radius = r1;
  d.angle = angle;
  d.cross_start = d.cross_end = cross;
  grip_track_def def = {.segments = &d, .segment_count = 1, .start_position = {0.0, 0.0, 0.0},
                        .start_heading = heading};
  grip_track *t = NULL;
  CHECK(grip_track_build(&def, &t) == GRIP_OK);
  if (!t) return;
  CHECK_NEAR(grip_track_length(t), angle * 0.5 * (r0 + r1), 1e-9);
  enum { N = 200000 };
  double x = 0.0, y = 0.0, s = 0.0, dphi = angle / N;
  int checked = 0;
  for (int i = 0; i < N; ++i) {
    double phi = (i + 0.5) * dphi, r = r0 + (r1 - r0) * phi / angle, psi = heading + dir * phi;
    x += r * cos(psi) * dphi;
    y += r * sin(psi) * dphi;
    s += r * dphi;
    if ((i + 1) % 20000 == 0 && i + 1 < N) { /* the end point wraps to distance 0 */
      double ph = (i + 1) * dphi, rr = r0 + (r1 - r0) * ph / angle, ps = heading + dir * ph;
      grip_track_point p = grip_track_point_at(t, s);
      CHECK_NEAR(p.position.x, x, 1e-6);
      CHECK_NEAR(p.position.y, y, 1e-6);
      CHECK_NEAR(remainder(p.heading - ps, 2 * PI), 0.0, 1e-9);
      CHECK_NEAR(p.curvature, dir / rr, 1e-9);
      for (int side = 0; side < 2; ++side) {
        double lat = side ? 3.5 : -4.0;
        double px = x - lat * sin(ps), py = y + lat * cos(ps);
        grip_track_location l = grip_track_locate(t, px, py, 0);
        CHECK_NEAR(l.distance, s, 1e-5);
        CHECK_NEAR(l.lateral, lat, 1e-6);
        CHECK_NEAR(l.z, cross * lat, 1e-6);
        double n = sqrt(1.0 + cross * cross);
        CHECK_NEAR(l.normal.x, cross * sin(ps) / n, 1e-8);
        CHECK_NEAR(l.normal.y, -cross * cos(ps) / n, 1e-8);
        CHECK_NEAR(l.normal.z, 1.0 / n, 1e-12);
        checked++;
      }
    }
  }
  CHECK(checked == 18);
  grip_track_destroy(t);
}

/* Left and growing 50 -> 100 m over 90°, level, heading +x; right and shrinking 150 -> 40 m over
 * 150°, banked 8 %, heading 2 rad (the projection's heading, taken from the arc's middle,
 * turns through three quadrants). */
static void test_spiral(void) {
  check_spiral(+1, 50.0, 100.0, PI / 2, 0.0, 0.0);
  check_spiral(-1, 150.0, 40.0, 150.0 * PI / 180.0, 2.0, 0.08);
}

/* The hint walk returns what the exhaustive search returns, for points anywhere around the
 * default road course and for a hint carried along or chosen at random. */
static void test_hint_equals_full(void) {
  grip_track_file tf;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_track_file_parse(grip_track_default_text(), "default", &tf, &err) == 0);
  grip_track *t = NULL;
  CHECK(grip_track_build(&tf.def, &t) == GRIP_OK);
  grip_track_file_free(&tf);
  if (!t) return;
  grip_track_stats st = grip_track_get_stats(t);
  int hint = 0, mismatches = 0, on = 0;
  for (int k = 0; k < 20000; ++k) {
    double x = st.x_min - 40 + (st.x_max - st.x_min + 80) * urand();
    double y = st.y_min - 40 + (st.y_max - st.y_min + 80) * urand();
    int h = (k % 3 == 0) ? (int)(urand() * grip_track_segment_count(t)) : hint;
    grip_track_location a = grip_track_locate(t, x, y, h);
    grip_track_location b = grip_track_locate_full(t, x, y);
    hint = a.segment;
    on += a.on_track;
    double ds = fabs(a.distance - b.distance);
    if (ds > 0.5 * st.length) ds = st.length - ds;
    if (ds > 1e-9 || fabs(a.lateral - b.lateral) > 1e-9 || fabs(a.z - b.z) > 1e-12 ||
        a.zone != b.zone)
      mismatches++;
  }
  CHECK(mismatches == 0);
  CHECK(on > 1000); /* enough of them on the track area */
  /* a car driving along: each step's hint is the last segment */
  hint = -1;
  for (int k = 0; k < 5000; ++k) {
    double s = st.length * k / 5000.0;
    grip_track_point p = grip_track_point_at(t, s);
    double lat = 4.0 * sin(k * 0.01);
    double x = p.position.x - lat * sin(p.heading), y = p.position.y + lat * cos(p.heading);
    grip_track_location l = grip_track_locate(t, x, y, hint);
    hint = l.segment;
    double ds = fabs(l.distance - s);
    if (ds > 0.5 * st.length) ds = st.length - ds;
    CHECK_NEAR(ds, 0.0, 1e-7);
    CHECK_NEAR(l.lateral, lat, 1e-7);
  }
  grip_track_destroy(t);
}

/* An oval whose turns begin and end in spirals (300 -> 100 m over 45°, 90° at 100 m, 100 -> 300 m
 * over 45°): it closes by symmetry. */
static const char *const spiral_oval_text =
    "name Spiral Oval\n"
    "width 12\nkerb 1\nrunoff 8\nbarrier 1.2\n"
    "straight 400\n"
    "arc left radius 300 angle 45 end-radius 100\n"
    "arc left radius 100 angle 90\n"
    "arc left radius 100 angle 45 end-radius 300\n"
    "straight 400\n"
    "arc left radius 300 angle 45 end-radius 100\n"
    "arc left radius 100 angle 90\n"
    "arc left radius 100 angle 45 end-radius 300\n";

/* The search grid gives the exhaustive search's answer (src/track_search.h) wherever it vouches
 * for one, on every kind of track: the built-in track and the oval (straights, circular arcs), a
 * circle, an oval whose turns begin and end in spirals, and an open course at a heading of 2 rad
 * with spirals of both hands, a long growing one (20 -> 200 m over 300°, where the projection's
 * Newton stops at its bounds far from the spiral) and a tight shrinking one (150 -> 15 m over
 * 180°). At 20,000 points over the plan and 80 m around it, and 20,000 up to 40 m either side of
 * the centre line: no answer differs, the grid answers an eighth at least itself, and every
 * point within 10 m of the centre line (no further than the barriers). */
static void test_search_grid(void) {
  grip_track *tracks[5] = {NULL};
  const char *names[5] = {"built-in", "oval.track", "circle", "spiral oval", "spirals"};
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_track_open("default", &tracks[0], NULL, 0, &err) == 0);
  CHECK(grip_track_open(GRIP_SOURCE_DIR "/data/tracks/oval.track", &tracks[1], NULL, 0, &err) == 0);
  tracks[2] = support_circle_track(150.0);
  grip_track_file tf;
  CHECK(grip_track_file_parse(spiral_oval_text, "spiral oval", &tf, &err) == 0);
  CHECK(grip_track_build(&tf.def, &tracks[3]) == GRIP_OK);
  grip_track_file_free(&tf);
  grip_track_segment_def seg[6];
  for (int i = 0; i < 6; ++i) seg[i] = base_segment();
  seg[0].length = 60.0;
  seg[1].type = GRIP_TRACK_LEFT;
  seg[1].radius = 20.0;
  seg[1].end_radius = 200.0;
  seg[1].angle = 300.0 * PI / 180.0;
  seg[2].length = 50.0;
  seg[3].type = GRIP_TRACK_RIGHT;
  seg[3].radius = 150.0;
  seg[3].end_radius = 15.0;
  seg[3].angle = PI;
  seg[4].type = GRIP_TRACK_RIGHT;
  seg[4].radius = 40.0;
  seg[4].end_radius = 90.0;
  seg[4].angle = 120.0 * PI / 180.0;
  seg[5].length = 80.0;
  grip_track_def def = {seg, 6, {300.0, -200.0, 0.0}, 2.0};
  CHECK(grip_track_build(&def, &tracks[4]) == GRIP_OK);
  for (int k = 0; k < 5; ++k) {
    grip_track *t = tracks[k];
    CHECK(t != NULL);
    if (!t) continue;
    grip_track_stats st = grip_track_get_stats(t);
    int answered[4] = {0}; /* by grip_track_search_check's result + 1 */
    for (int n = 0; n < 20000; ++n) {
      double x = st.x_min - 80.0 + (st.x_max - st.x_min + 160.0) * urand();
      double y = st.y_min - 80.0 + (st.y_max - st.y_min + 160.0) * urand();
      answered[grip_track_search_check(t, x, y) + 1]++;
    }
    /* and 20,000 across the band where the grid's reach ends: up to 40 m either side */
    int near_road = 0, near_answered = 0;
    for (int n = 0; n < 20000; ++n) {
      grip_track_point p = grip_track_point_at(t, st.length * urand());
      double lat = -40.0 + 80.0 * urand();
      double x = p.position.x - lat * sin(p.heading), y = p.position.y + lat * cos(p.heading);
      int r = grip_track_search_check(t, x, y);
      answered[r + 1]++;
      near_road += fabs(lat) <= 10.0;
      near_answered += fabs(lat) <= 10.0 && r == 1;
    }
    printf("  %-11s 40000 points: %d answered by the grid as by the exhaustive search, %d otherwise, %d left to it, "
           "%d without a grid; %d of %d within 10 m of the centre line by the grid\n",
           names[k], answered[2], answered[1], answered[3], answered[0], near_answered, near_road);
    CHECK(answered[0] == 0); /* every track has its grid */
    CHECK(answered[1] == 0); /* no answer differs */
    CHECK(answered[2] >= 5000);
    CHECK(near_road > 4000 && near_answered == near_road);
    grip_track_destroy(t);
  }
}

/* A TORCS-like course: a circle of radius 150 m cut into 240 arc pieces of 1.5 degrees (TORCS
 * cuts its arcs into such pieces), which keeps every figure analytic. Points at a known angle and radius locate to distance R·angle and lateral
 * R − rho (a left-hand circle: the centre is on the left), through the search grid (locate_full),
 * through a hint on the far side of the circle (another car's) and with a hint carried along;
 * points beyond the barriers and far outside the grid still find the nearest piece. */
static void test_many_pieces(void) {
  enum { PIECES = 240 };
  const double R = 150.0, piece = 2.0 * PI / PIECES;
  grip_track_segment_def segs[PIECES];
  for (int i = 0; i < PIECES; ++i) {
    segs[i] = grip_default_track_segment_def();
    segs[i].type = GRIP_TRACK_LEFT;
    segs[i].radius = segs[i].end_radius = R;
    segs[i].angle = piece;
  }
  grip_track_def def = {.segments = segs, .segment_count = PIECES, .start_position = {0, -R, 0}, .start_heading = 0};
  grip_track *t = NULL;
  CHECK(grip_track_build(&def, &t) == GRIP_OK);
  if (!t) return;
  CHECK_NEAR(grip_track_length(t), 2.0 * PI * R, 1e-9);
  /* the barriers: half road 6 + kerb 1 + run-off 8 = 15 m either side */
  int hint = -1;
  for (int k = 0; k < 20000; ++k) {
    double angle = 2.0 * PI * urand(), lat = -14.9 + 29.8 * urand(), rho = R - lat;
    double x = rho * sin(angle), y = -rho * cos(angle); /* start at (0, -R) heading +x, centre (0, 0) */
    grip_track_location a = grip_track_locate_full(t, x, y);
    int far = (a.segment + PIECES / 2) % PIECES;
    grip_track_location b = grip_track_locate(t, x, y, far);
    grip_track_location c = grip_track_locate(t, x, y, hint);
    hint = c.segment;
    double ds = fabs(a.distance - R * angle);
    if (ds > 0.5 * grip_track_length(t)) ds = grip_track_length(t) - ds;
    CHECK_NEAR(ds, 0.0, 1e-9);
    CHECK_NEAR(a.lateral, lat, 1e-9);
    CHECK(a.on_track);
    CHECK(b.segment == a.segment && b.distance == a.distance && b.lateral == a.lateral && b.z == a.z);
    CHECK(c.segment == a.segment && c.distance == a.distance && c.lateral == a.lateral && c.z == a.z);
  }
  /* beyond the barriers, inside and outside the circle, and 10 km away */
  const double far_rho[] = {R - 40.0, R + 40.0, 1e4, 1e6};
  for (size_t i = 0; i < sizeof far_rho / sizeof far_rho[0]; ++i) {
    double angle = 1.234, x = far_rho[i] * sin(angle), y = -far_rho[i] * cos(angle);
    grip_track_location a = grip_track_locate_full(t, x, y);
    CHECK_NEAR(a.distance, R * angle, 1e-6);
    CHECK_NEAR(a.lateral, R - far_rho[i], 1e-6 * far_rho[i]);
    CHECK(!a.on_track);
    grip_track_location b = grip_track_locate(t, x, y, (a.segment + PIECES / 2) % PIECES);
    CHECK(b.segment == a.segment && b.distance == a.distance);
  }
  grip_track_destroy(t);
}

/* The shipped tracks close exactly; their lengths follow from their segments by hand. */
static void test_shipped_tracks(void) {
  const struct {
    const char *file;
    double length;
    int segments;
  } tracks[] = {
      /* straights 230+250+120+60+80+110, quarter circles of 60, 45, 35, 50, 30, 70 m */
      {GRIP_SOURCE_DIR "/data/tracks/park.track", 850.0 + PI / 2 * 290.0, 12},
      /* 2 x 400 m straights, 2 half circles of 100 m */
      {GRIP_SOURCE_DIR "/data/tracks/oval.track", 800.0 + 200.0 * PI, 8},
  };
  for (size_t i = 0; i < sizeof tracks / sizeof tracks[0]; ++i) {
    grip_track *t = NULL;
    grip_load_error err;
    grip_load_error_clear(&err);
    char name[64];
    CHECK(grip_track_open(tracks[i].file, &t, name, sizeof name, &err) == 0);
    if (!t) {
      fprintf(stderr, "%s\n", err.message);
      continue;
    }
    grip_track_stats st = grip_track_get_stats(t);
    CHECK_NEAR(st.length, tracks[i].length, 1e-9);
    CHECK(st.segments == tracks[i].segments);
    CHECK_NEAR(st.closure_error, 0.0, 1e-9);
    CHECK_NEAR(st.heading_closure, 0.0, 1e-12);
    grip_track_destroy(t);
  }
  /* the built-in default is the park file, byte for byte */
  FILE *f = fopen(GRIP_SOURCE_DIR "/data/tracks/park.track", "rb");
  CHECK(f != NULL);
  if (f) {
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    CHECK(strcmp(buf, grip_track_default_text()) == 0);
  }
  /* park: 4 m climb on its second straight: elevation range 4 */
  grip_track *t = NULL;
  grip_load_error err;
  CHECK(grip_track_open("default", &t, NULL, 0, &err) == 0);
  if (t) {
    grip_track_stats st = grip_track_get_stats(t);
    CHECK_NEAR(st.z_max - st.z_min, 4.0, 1e-12);
    CHECK_NEAR(st.min_radius, 30.0, 0.0);
    /* the middle of the climbing straight (starts at 230 + 30·pi) is 2 m up */
    grip_track_point p = grip_track_point_at(t, 230.0 + 30.0 * PI + 125.0);
    CHECK_NEAR(p.position.z, 2.0, 1e-12);
    CHECK_NEAR(p.position.x, 290.0, 1e-9);
    CHECK_NEAR(p.position.y, 60.0 + 125.0, 1e-9);
    grip_track_destroy(t);
  }
}

/* The tracks the query checks run on: the built-in track, the shipped oval and a circle. */
static void open_query_tracks(grip_track *tracks[3]) {
  const char *files[] = {"default", GRIP_SOURCE_DIR "/data/tracks/oval.track"};
  for (int i = 0; i < 2; ++i) {
    grip_load_error err;
    grip_load_error_clear(&err);
    tracks[i] = NULL;
    CHECK(grip_track_open(files[i], &tracks[i], NULL, 0, &err) == 0);
  }
  tracks[2] = support_circle_track(150.0);
}

/* The lighter queries against grip_track_locate, on the shipped tracks (straights, arcs, a
 * climb; the oval's kerbs and run-offs have their own surfaces) and a circle of four 90° arcs,
 * at points on the road, the kerbs, the run-offs and beyond the barriers, from carried,
 * neighbouring, random and no hints:
 * - grip_track_locate_progress gives its segment, distance and lateral in every bit;
 * - the track's ground answers a vertical ray with the located height (to 1e-12 m), normal (to
 *   1e-13) and surface, and leaves the located segment as the query's next hint. The ray
 *   locates only what it reports (the point's side of the section), the progress locate less
 *   still. */
static void test_queries_equal_locate(void) {
  grip_track *tracks[3];
  open_query_tracks(tracks);
  double worst_height = 0.0, worst_normal = 0.0;
  for (int i = 0; i < 3; ++i) {
    CHECK(tracks[i] != NULL);
    if (!tracks[i]) continue;
    support_query_check q = support_check_queries(tracks[i], 20000, 16.0);
    CHECK(q.progress_mismatches == 0);
    CHECK(q.ray_mismatches == 0);
    worst_height = fmax(worst_height, q.worst_height);
    worst_normal = fmax(worst_normal, q.worst_normal);
    grip_track_destroy(tracks[i]);
  }
  printf("  60000 progress locates equal to grip_track_locate's; 60000 vertical rays hit the located point: height "
         "within %.2g m, normal within %.2g\n",
         worst_height, worst_normal);
}

/* The flatness a hit vouches for (src/ground_flat.h), which lets the body's probe leave out rays:
 * 20,000 wheel rays on each of the shipped tracks and a circle, with 12 points within the claim's
 * radius each: the located height never rises above the hit's plane by more than the claim's
 * bound, nor does the gradient change by more. The claims must cover a third of the hits at least.
 * And which segments come near which (the claims' runs), found through a grid, is what a test of
 * every pair of segments finds: every segment is near itself and its two neighbours at least. */
static void test_flatness_claims(void) {
  grip_track *tracks[3];
  open_query_tracks(tracks);
  int hits = 0, claims = 0, batch_rays = 0, batch_differ = 0, batch_hits = 0;
  double batch_worst_height = 0.0, batch_worst_normal = 0.0;
  long pairs = 0;
  double worst = 0.0, worst_gradient = 0.0;
  for (int i = 0; i < 3; ++i) {
    CHECK(tracks[i] != NULL);
    if (!tracks[i]) continue;
    /* a vehicle's four rays in one call: the rays of one call each, bit for bit, on the surface */
    support_batch_check b = support_check_ray_batches(tracks[i], 2000, 14.0);
    CHECK(b.off_surface == 0);
    CHECK(b.hits == b.cast); /* from 0.3–1 m above the surface, reaching 2 m past it */
    batch_differ += b.differ;
    batch_rays += b.cast;
    batch_hits += b.hits;
    batch_worst_height = fmax(batch_worst_height, b.worst_height);
    batch_worst_normal = fmax(batch_worst_normal, b.worst_normal);
    long near_pairs = 0;
    CHECK(grip_track_flat_grid_check(tracks[i], &near_pairs) == 0);
    CHECK(near_pairs >= 3L * grip_track_get_stats(tracks[i]).segments);
    pairs += near_pairs;
    support_flat_check f = support_check_flatness(tracks[i], 20000, 14.0);
    CHECK(f.violations == 0);
    CHECK(f.claims >= f.hits / 3); /* much of the road, away from the barriers */
    hits += f.hits;
    claims += f.claims;
    worst = fmax(worst, f.worst_share);
    worst_gradient = fmax(worst_gradient, f.worst_gradient_share);
    grip_track_destroy(tracks[i]);
  }
  printf("  %d of %d wheel hits vouch for the ground within 2.5 m; the rise above the plane reached %.3g of its bound, "
         "the gradient's change %.3g; %ld near pairs of segments, as by testing every pair\n",
         claims, hits, worst, worst_gradient, pairs);
  CHECK(batch_rays == 3 * 8000);
  CHECK(batch_differ == 0);
  printf("  %d wheel rays four to a call: %d differ from one call each; %d hits, on the located surface within "
         "%.2g m, normals within %.2g\n",
         batch_rays, batch_differ, batch_hits, batch_worst_height, batch_worst_normal);
}

/* The barrier query's wall top: the surface height at the wall's foot (the point moved by the
 * wall distance against the wall's normal, located again by grip_track_locate) plus the barrier
 * height, for points on both sides of a closed loop of straights and arcs that climbs and falls
 * with cross slopes, banked and level strips, constant and changing run-off widths. */
static void test_barrier_top(void) {
  grip_track_segment_def segs[8];
  for (int i = 0; i < 8; ++i) {
    segs[i] = base_segment();
    segs[i].type = i % 2 ? GRIP_TRACK_LEFT : GRIP_TRACK_STRAIGHT;
    segs[i].length = 80.0;
    segs[i].radius = segs[i].end_radius = 40.0 + 10.0 * i;
    segs[i].angle = 0.5 * PI;
    double z[9] = {0.0, 1.0, 3.0, 2.0, 0.0, -1.0, -2.0, -1.0, 0.0};
    segs[i].z_start = z[i];
    segs[i].z_end = z[i + 1];
    segs[i].slope_start = segs[i].slope_end = 0.0;
    segs[i].cross_start = i % 3 == 0 ? 0.0 : 0.05;
    segs[i].cross_end = i % 3 == 1 ? 0.0 : 0.05;
    segs[i].side[0].banked = i % 2 == 0;
    segs[i].side[1].banked = i % 4 == 1;
    segs[i].side[0].runoff_width_end = i % 4 == 2 ? 9.0 : 5.0; /* a widening run-off */
    segs[i + 1 < 8 ? i + 1 : 0].side[0].runoff_width_start = segs[i].side[0].runoff_width_end;
  }
  segs[0].side[0].runoff_width_start = segs[7].side[0].runoff_width_end;
  grip_track *t = build(segs, 8);
  if (!t) return;
  grip_track_ground_context ctx;
  grip_barrier bar = grip_track_barriers(&ctx, t);
  double worst = 0.0;
  int hits = 0;
  for (int k = 0; k < 4000; ++k) {
    double s = urand() * grip_track_length(t), lat = (urand() * 2.0 - 1.0) * 13.0;
    grip_track_point p = grip_track_point_at(t, s);
    double x = p.position.x - sin(p.heading) * lat, y = p.position.y + cos(p.heading) * lat;
    grip_barrier_hit h;
    if (!bar.query(bar.context, NULL, x, y, &h)) continue;
    ++hits;
    grip_track_location here = grip_track_locate(t, x, y, -1);
    grip_track_location foot = grip_track_locate(t, x - h.normal.x * h.distance, y - h.normal.y * h.distance, here.segment);
    const grip_track_segment_def *d = grip_track_segment(t, foot.segment);
    double top = foot.z + d->side[here.lateral >= 0.0 ? GRIP_TRACK_SIDE_LEFT : GRIP_TRACK_SIDE_RIGHT].barrier_height;
    if (fabs(h.top - top) > worst) worst = fabs(h.top - top);
  }
  CHECK(hits == 4000);
  CHECK_NEAR(worst, 0.0, 1e-9);
  grip_track_destroy(t);
}

/* The barrier query never puts a wall nearer than the barrier really is: for points on the road
 * the distance it gives is at least the distance to the nearest point of the barrier lines on
 * either side, sampled every 2 cm (grip_track_barrier_at's lateral along the centre line). Two places where
 * a barrier's tangent line runs far from the barrier: a run-off that narrows from 20 to 5 m
 * over a 3 m straight (the wall steps in at 79°: its line, extended, crossed the road), and a
 * 12.5 m hairpin whose inner barrier lies 0.5 m from the arc's centre and narrows along it
 * (1 − kappa·tb = 0.04: the line's nearest point lay 100 m away). TORCS's corkscrew and
 * wheel-1 have both; a car stopped dead against the first. */
static void test_barrier_distance(void) {
  grip_track_segment_def segs[5];
  for (int i = 0; i < 5; ++i) segs[i] = base_segment();
  segs[0].length = 60.0;
  segs[0].side[GRIP_TRACK_SIDE_RIGHT].runoff_width_start = segs[0].side[GRIP_TRACK_SIDE_RIGHT].runoff_width_end = 20.0;
  segs[1].length = 3.0;
  segs[1].side[GRIP_TRACK_SIDE_RIGHT].runoff_width_start = 20.0;
  segs[2].length = 40.0;
  segs[3].type = GRIP_TRACK_LEFT;
  segs[3].radius = segs[3].end_radius = 12.5;
  segs[3].angle = 0.5 * PI;
  segs[3].side[GRIP_TRACK_SIDE_LEFT].runoff_width_start = 6.0; /* barrier 12 -> 11 m left */
  segs[4].length = 60.0;
  grip_track *t = build(segs, 5);
  if (!t) return;
  grip_track_ground_context ctx;
  grip_barrier bar = grip_track_barriers(&ctx, t);
  double length = grip_track_length(t), worst = INFINITY, worst_s = 0.0;
  int points = 0;
  for (double s = 0.5; s < length - 0.5; s += 0.5)
    for (double lat = -5.0; lat <= 5.0; lat += 2.5) {
      grip_track_point p = grip_track_point_at(t, s);
      double x = p.position.x - sin(p.heading) * lat, y = p.position.y + cos(p.heading) * lat;
      grip_barrier_hit h;
      if (!bar.query(bar.context, NULL, x, y, &h)) continue;
      double nearest = INFINITY; /* either side's: the query takes the nearer wall */
      for (double u = fmax(0.0, s - 30.0); u <= fmin(length, s + 30.0); u += 0.02) {
        grip_track_point b = grip_track_point_at(t, u);
        grip_track_location at = grip_track_locate(t, b.position.x, b.position.y, -1);
        for (int side = 0; side < 2; ++side) {
          double bl = grip_track_barrier_at(t, &at, side).lateral;
          nearest = fmin(nearest, hypot(b.position.x - sin(b.heading) * bl - x, b.position.y + cos(b.heading) * bl - y));
        }
      }
      if (h.distance - nearest < worst) worst = h.distance - nearest, worst_s = s;
      ++points;
    }
  printf("  barrier distance less the barrier line's nearest point, %d points on the road: at least %.3f m (s %.1f m)\n",
         points, worst, worst_s);
  CHECK(points > 1000);
  CHECK(worst > -0.3);
  grip_track_destroy(t);
}

/* Native format: option semantics and errors. */
static void test_native_format(void) {
  const char *text =
      "name Test Track\n"
      "width 10\n"
      "material ice friction 0.1 rolling 0.01\n"
      "straight 100 width 14 bank 5 z 3   # tapers 10 -> 14 m\n"
      "arc right radius 40 angle 45 end-radius 60 surface ice runoff-left 2\n";
  grip_track_file tf;
  grip_load_error err;
  grip_load_error_clear(&err);
  CHECK(grip_track_file_parse(text, "t.track", &tf, &err) == 0);
  if (tf.segment_count == 2) {
    const grip_track_segment_def *a = &tf.segments[0], *b = &tf.segments[1];
    CHECK(strcmp(tf.name, "Test Track") == 0);
    CHECK_NEAR(a->width_start, 10.0, 0.0);
    CHECK_NEAR(a->width_end, 14.0, 0.0);
    CHECK_NEAR(a->cross_end, tan(5.0 * PI / 180.0), 1e-15);
    CHECK_NEAR(a->z_end, 3.0, 0.0);
    CHECK_NEAR(a->slope_start, 0.03, 1e-15);
    CHECK(b->type == GRIP_TRACK_RIGHT);
    CHECK_NEAR(b->angle, PI / 4, 1e-15);
    CHECK_NEAR(b->end_radius, 60.0, 0.0);
    CHECK_NEAR(b->width_start, 14.0, 0.0);
    CHECK_NEAR(b->z_start, 3.0, 0.0);
    CHECK_NEAR(b->surface.friction, 0.1, 0.0);
    CHECK_NEAR(a->surface.friction, 1.0, 0.0);
    CHECK_NEAR(b->side[GRIP_TRACK_SIDE_LEFT].runoff_width_start, 8.0, 0.0);
    CHECK_NEAR(b->side[GRIP_TRACK_SIDE_LEFT].runoff_width_end, 2.0, 0.0);
    CHECK_NEAR(b->side[GRIP_TRACK_SIDE_RIGHT].runoff_width_end, 8.0, 0.0);
    CHECK_NEAR(b->length, PI / 4 * 50.0, 1e-12);
    grip_track_file_free(&tf);
  } else {
    CHECK(0);
  }

  const struct {
    const char *text, *message;
  } bad[] = {
      {"straight 100\narc left radius -5 angle 90\n", "b.track:2: radius: -5 is out of range (allowed 5 .. 100000 m)"},
      {"arc left radius 1 angle 360\n", "b.track:1: radius: 1 is out of range (allowed 5 .. 100000 m)"},
      {"straight 100 width 1e300\n", "b.track:1: width: 1e300 is out of range (allowed 1 .. 200 m)"},
      {"width 0.5\nstraight 100\n", "b.track:1: width: 0.5 is out of range (allowed 1 .. 200 m)"},
      {"straight 4.6e150\n", "b.track:1: straight: 4.6e150 is out of range (allowed > 0 .. 100000 m)"},
      {"straight 0\n", "b.track:1: straight: 0 is out of range (allowed > 0 .. 100000 m)"},
      {"arc left radius 50 angle 400\n", "b.track:1: angle: 400 is out of range (allowed > 0 .. 360 deg)"},
      {"arc left radius 50 angle 90 end-radius 2e5\n", "b.track:1: end-radius: 2e5 is out of range (allowed 5 .. 100000 m)"},
      {"straight 100 z 2e4\n", "b.track:1: z: 2e4 is out of range (allowed -10000 .. 10000 m)"},
      {"straight 100 grade 150\n", "b.track:1: grade: 150 is out of range (allowed -100 .. 100 %)"},
      {"straight 100 tangents 0 -300\n", "b.track:1: tangents: -300 is out of range (allowed -100 .. 100 %)"},
      {"kerb 2000\nstraight 100\n", "b.track:1: kerb: 2000 is out of range (allowed 0 .. 1000 m)"},
      {"barrier-left 1e9\nstraight 100\n", "b.track:1: barrier-left: 1e9 is out of range (allowed 0 .. 100 m)"},
      {"material x friction 50\n", "b.track:1: friction: 50 is out of range (allowed 0 .. 10)"},
      {"material x wavelength 0\n", "b.track:1: wavelength: 0 is out of range (allowed 0.01 .. 1000 m)"},
      {"start 1e8 0 0 0\n", "b.track:1: start: 1e8 is out of range (allowed -1e+07 .. 1e+07 m)"},
      {"width 12\n\nstraight abc\n", "b.track:3: straight: 'abc' is not a number"},
      {"straight 100 wdth 3\n", "b.track:1: wdth: unknown option"},
      {"straight 100 surface tarmac\n", "b.track:1: surface: unknown surface 'tarmac'"},
      {"arc up radius 5 angle 9\n", "b.track:1: arc: direction 'up' must be left or right"},
      {"arc left radius 50\n", "b.track:1: angle: missing"},
      {"# nothing\n", "b.track: no segments"},
      {"straight 10 width\n", "b.track:1: width: missing value"},
      {"straight 10 bank 75\n", "b.track:1: bank: '75' degrees is too steep"},
      {"straight 10\nstart 0 0 0 0\n", "b.track:2: start: must come before"},
      {"straight 1e999\n", "b.track:1: straight: '1e999' is not a number"},
      {"straight 10 banked maybe\n", "b.track:1: banked: 'maybe' must be yes or no"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    grip_track_file keep;
    memset(&keep, 0x5a, sizeof keep);
    grip_track_file before = keep;
    grip_load_error_clear(&err);
    CHECK(grip_track_file_parse(bad[i].text, "b.track", &keep, &err) != 0);
    CHECK(strncmp(err.message, bad[i].message, strlen(bad[i].message)) == 0);
    if (strncmp(err.message, bad[i].message, strlen(bad[i].message)) != 0)
      fprintf(stderr, "  got '%s'\n", err.message);
    CHECK(memcmp(&keep, &before, sizeof keep) == 0); /* failed load changes nothing */
  }
  /* Whole-track checks when the track is built: too short, open, radius against width. */
  const struct {
    const char *text, *message;
  } unbuildable[] = {
      /* a single straight: 100 m from end to start */
      {"straight 200\n", "b.track:1: closure: the track does not close: its last segment ends 200 m "
                        "from its start (allowed at most 2 m: the smaller of 5 m and 1 % of the "
                        "length 200 m)"},
      /* 51.8 m gap, as in the issue: a 270 degree circle of radius 16.5 m is open by r*sqrt(2) */
      {"arc left radius 36.63 angle 270\n", "b.track:1: closure: the track does not close: its "
                                            "last segment ends 51.8 m from its start"},
      /* 6 m gap on a 1 km track: above 5 m although under 1 % */
      {"straight 497\narc left radius 10 angle 180\nstraight 491\narc left radius 10 angle 180\n",
       "b.track:4: closure: the track does not close: its last segment ends 6 m from its start "
       "(allowed at most 5 m"},
      /* a full circle of radius 10 m: 62.8 m long */
      {"width 4\narc left radius 10 angle 360\n", "b.track:2: length: the track is 62.8319 m long "
                                                 "(allowed 100 .. 1e+06 m)"},
      /* eleven straights of 99,999 m: 1,099,989 m, refused at the eleventh before anything is
       * built */
      {"straight 99999\nstraight 99999\nstraight 99999\nstraight 99999\nstraight 99999\nstraight 99999\n"
       "straight 99999\nstraight 99999\nstraight 99999\nstraight 99999\nstraight 99999\n",
       "b.track:11: length: the track reaches 1.09999e+06 m at segment 11 (allowed up to 1e+06 m)"},
      /* the inner edge crosses the centre: radius 6 m, road 14 m wide */
      {"width 14\nstraight 100\narc left radius 6 angle 180\nstraight 100\narc left radius 6 angle 180\n",
       "b.track:3: radius: 6 m in segment 2 is not more than half the road width 14 m"},
  };
  for (size_t i = 0; i < sizeof unbuildable / sizeof unbuildable[0]; ++i) {
    grip_track_file tf2;
    grip_load_error_clear(&err);
    CHECK(grip_track_file_parse(unbuildable[i].text, "b.track", &tf2, &err) == 0);
    grip_track *built = (grip_track *)&err;
    CHECK(grip_track_file_build(&tf2, "b.track", &built, &err) != 0);
    CHECK(built == NULL);
    size_t n = strlen(unbuildable[i].message);
    CHECK(strncmp(err.message, unbuildable[i].message, n) == 0);
    if (strncmp(err.message, unbuildable[i].message, n) != 0) fprintf(stderr, "  got '%s'\n", err.message);
    grip_track_file_free(&tf2);
  }
  /* At the limits: exactly 100 m long, a 5 m closure error on a 1 km track, radius 5 m. */
  const char *good[] = {
      "width 4\narc left radius 15.915494309189533 angle 360\n",
      "straight 497\narc left radius 10 angle 180\nstraight 492\narc left radius 10 angle 180\n",
      "width 8\nstraight 100\narc left radius 5 angle 180\nstraight 100\narc left radius 5 angle 180\n",
  };
  for (size_t i = 0; i < sizeof good / sizeof good[0]; ++i) {
    grip_track_file tf2;
    grip_load_error_clear(&err);
    CHECK(grip_track_file_parse(good[i], "g.track", &tf2, &err) == 0);
    grip_track *built = NULL;
    CHECK(grip_track_file_build(&tf2, "g.track", &built, &err) == 0);
    if (err.message[0]) fprintf(stderr, "  %s\n", err.message);
    grip_track_destroy(built);
    grip_track_file_free(&tf2);
  }
  CHECK_NEAR(grip_track_max_closure(100.0), 1.0, 1e-12);
  CHECK_NEAR(grip_track_max_closure(500.0), 5.0, 1e-12);
  CHECK_NEAR(grip_track_max_closure(7041.7), 5.0, 1e-12);

  grip_track *t = (grip_track *)&err;
  grip_load_error_clear(&err);
  CHECK(grip_track_open("/nonexistent/x.track", &t, NULL, 0, &err) != 0);
  CHECK(t == NULL);
  CHECK(strstr(err.message, "/nonexistent/x.track: cannot open") == err.message);
}

/* Invalid definitions are rejected. */
static void test_invalid_defs(void) {
  grip_track_segment_def d = base_segment();
  grip_track_def def = {.segments = &d, .segment_count = 1};
  grip_track *t = (grip_track *)&d;
  d.length = -1.0;
  CHECK(grip_track_build(&def, &t) == GRIP_INVALID_ARGUMENT && t == NULL);
  d = base_segment();
  d.width_start = NAN;
  CHECK(grip_track_build(&def, &t) == GRIP_INVALID_ARGUMENT);
  d = base_segment();
  d.type = GRIP_TRACK_LEFT;
  d.end_radius = 0.0;
  CHECK(grip_track_build(&def, &t) == GRIP_INVALID_ARGUMENT);
  d.end_radius = 1.5e308; /* length overflows */
  d.angle = 3.0;
  CHECK(grip_track_build(&def, &t) == GRIP_INVALID_ARGUMENT);
  def.segment_count = 0;
  CHECK(grip_track_build(&def, &t) == GRIP_INVALID_ARGUMENT);
}

int main(void) {
  RUN_TEST(test_circle);
  RUN_TEST(test_heights);
  RUN_TEST(test_spiral);
  RUN_TEST(test_hint_equals_full);
  RUN_TEST(test_search_grid);
  RUN_TEST(test_queries_equal_locate);
  RUN_TEST(test_flatness_claims);
  RUN_TEST(test_many_pieces);
  RUN_TEST(test_shipped_tracks);
  RUN_TEST(test_barrier_top);
  RUN_TEST(test_barrier_distance);
  RUN_TEST(test_native_format);
  RUN_TEST(test_invalid_defs);
  return TEST_RESULT();
}
