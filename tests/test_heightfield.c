/* Heightfield ground: heights, normals and ray hits against analytic surfaces, and the cell walk
 * against a brute-force test of every triangle. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grip/heightfield.h"
#include "test.h"

/* Deterministic pseudo-random numbers in [0, 1). */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static double rnd(void) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(rng_state >> 11) / 9007199254740992.0;
}
static double rnd_range(double lo, double hi) { return lo + (hi - lo) * rnd(); }

typedef double (*surface_fn)(double x, double y);

/* A grid sampled from f; the caller frees the heights. */
static grip_heightfield *make_grid(surface_fn f, double ox, double oy, double dx, double dy,
                                   int rows, int cols, grip_heightfield_edge edge) {
  double *h = malloc(sizeof *h * (size_t)rows * (size_t)cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) h[r * cols + c] = f(ox + c * dx, oy + r * dy);
  grip_heightfield_def def = grip_default_heightfield_def();
  def.origin_x = ox;
  def.origin_y = oy;
  def.dx = dx;
  def.dy = dy;
  def.rows = rows;
  def.cols = cols;
  def.heights = h;
  def.edge = edge;
  grip_heightfield *hf = NULL;
  grip_result res = grip_heightfield_create(&def, &hf);
  CHECK(res == GRIP_OK);
  free(h); /* the heightfield keeps its own copy */
  return hf;
}

static double flat(double x, double y) {
  (void)x;
  (void)y;
  return 3.25;
}

/* Tilted plane z = 1.5 + 0.3 x − 0.2 y. */
#define TA 1.5
#define TB 0.3
#define TC (-0.2)
static double tilted(double x, double y) { return TA + TB * x + TC * y; }

static double paraboloid(double x, double y) { return 0.1 * (x * x + y * y); }

static void check_unit_normal(grip_vec3 n, double ex, double ey, double ez, double tol) {
  double l = sqrt(ex * ex + ey * ey + ez * ez);
  CHECK_NEAR(n.x, ex / l, tol);
  CHECK_NEAR(n.y, ey / l, tol);
  CHECK_NEAR(n.z, ez / l, tol);
}

static void test_flat_plane(void) {
  grip_heightfield *hf = make_grid(flat, -2.0, 1.0, 0.5, 0.75, 4, 5, GRIP_EDGE_NO_GROUND);
  grip_heightfield_info info;
  grip_heightfield_get_info(hf, &info);
  CHECK(info.rows == 4 && info.cols == 5);
  CHECK_NEAR(info.min_height, 3.25, 0.0);
  CHECK_NEAR(info.max_height, 3.25, 0.0);
  for (int k = 0; k < 200; ++k) {
    double x = rnd_range(-2.0, 0.0), y = rnd_range(1.0, 3.25);
    grip_ground_sample s;
    CHECK(grip_heightfield_sample(hf, x, y, &s));
    CHECK_NEAR(s.height, 3.25, 1e-12);
    check_unit_normal(s.normal, 0, 0, 1, 1e-12);
    CHECK_NEAR(s.surface.friction, 1.0, 0.0); /* default surface */
  }
  /* The border is inside; just beyond it there is no ground. */
  double h = 0.0;
  CHECK(grip_heightfield_height(hf, 0.0, 3.25, &h));
  CHECK_NEAR(h, 3.25, 1e-12);
  CHECK(grip_heightfield_height(hf, -2.0, 1.0, &h));
  CHECK(!grip_heightfield_height(hf, 0.01, 2.0, &h));
  CHECK(!grip_heightfield_height(hf, -1.0, 0.99, &h));
  CHECK(!grip_heightfield_height(hf, NAN, 2.0, &h));
  grip_heightfield_destroy(hf);
}

static void test_tilted_plane_exact(void) {
  const double ox = 10.0, oy = -5.0, dx = 2.0, dy = 1.5;
  const int rows = 9, cols = 12;
  grip_heightfield *hf = make_grid(tilted, ox, oy, dx, dy, rows, cols, GRIP_EDGE_NO_GROUND);
  int lower = 0, upper = 0;
  for (int k = 0; k < 2000; ++k) {
    double x = rnd_range(ox, ox + (cols - 1) * dx), y = rnd_range(oy, oy + (rows - 1) * dy);
    double u = fmod((x - ox) / dx, 1.0), v = fmod((y - oy) / dy, 1.0);
    if (u + v < 1.0) lower++;
    else upper++;
    grip_ground_sample s;
    CHECK(grip_heightfield_sample(hf, x, y, &s));
    CHECK_NEAR(s.height, tilted(x, y), 1e-12);
    check_unit_normal(s.normal, -TB, -TC, 1.0, 1e-12);
  }
  CHECK(lower > 800 && upper > 800); /* both triangles were exercised */
  /* Exactly on a diagonal and on the grid points. */
  double h;
  CHECK(grip_heightfield_height(hf, ox + 3 * dx + 0.25 * dx, oy + 2 * dy + 0.75 * dy, &h));
  CHECK_NEAR(h, tilted(ox + 3.25 * dx, oy + 2.75 * dy), 1e-12);
  CHECK(grip_heightfield_height(hf, ox + 11 * dx, oy + 8 * dy, &h));
  CHECK_NEAR(h, tilted(ox + 11 * dx, oy + 8 * dy), 1e-12);
  grip_heightfield_destroy(hf);
}

/* Plane through three points, evaluated at (x, y) by the cross product (independent of the
 * library's u/v formula). */
static double plane_through(double p[3][3], double x, double y, double n_out[3]) {
  double a[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
  double b[3] = {p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
  double n[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  if (n[2] < 0) n[0] = -n[0], n[1] = -n[1], n[2] = -n[2];
  double l = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (int i = 0; i < 3; ++i) n_out[i] = n[i] / l;
  /* n·(q − p0) = 0 → z */
  return p[0][2] - (n[0] * (x - p[0][0]) + n[1] * (y - p[0][1])) / n[2];
}

static void test_paraboloid(void) {
  const double ox = -3.0, oy = -2.0, dx = 0.5, dy = 0.4;
  const int rows = 11, cols = 13;
  grip_heightfield *hf = make_grid(paraboloid, ox, oy, dx, dy, rows, cols, GRIP_EDGE_NO_GROUND);
  /* Exact at the grid points. */
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      double x = ox + c * dx, y = oy + r * dy, h;
      CHECK(grip_heightfield_height(hf, x, y, &h));
      CHECK_NEAR(h, paraboloid(x, y), 1e-12);
    }
  /* Between them: the plane through the triangle's three corners, SE–NW diagonal. */
  for (int k = 0; k < 1000; ++k) {
    int c = (int)(rnd() * (cols - 1)), r = (int)(rnd() * (rows - 1));
    double u = rnd(), v = rnd();
    double x = ox + (c + u) * dx, y = oy + (r + v) * dy;
    double x0 = ox + c * dx, x1 = ox + (c + 1) * dx, y0 = oy + r * dy, y1 = oy + (r + 1) * dy;
    double tri[3][3];
    if (u + v <= 1.0) {
      double t[3][3] = {{x0, y0, paraboloid(x0, y0)}, {x1, y0, paraboloid(x1, y0)},
                        {x0, y1, paraboloid(x0, y1)}};
      memcpy(tri, t, sizeof tri);
    } else {
      double t[3][3] = {{x1, y0, paraboloid(x1, y0)}, {x1, y1, paraboloid(x1, y1)},
                        {x0, y1, paraboloid(x0, y1)}};
      memcpy(tri, t, sizeof tri);
    }
    double n[3];
    double expect = plane_through(tri, x, y, n);
    grip_ground_sample s;
    CHECK(grip_heightfield_sample(hf, x, y, &s));
    CHECK_NEAR(s.height, expect, 1e-12);
    CHECK_NEAR(s.normal.x, n[0], 1e-12);
    CHECK_NEAR(s.normal.y, n[1], 1e-12);
    CHECK_NEAR(s.normal.z, n[2], 1e-12);
  }
  /* A hand-computed point: cell (c 6, r 5) corners at x 0..0.5, y 0..0.4; at (0.1, 0.1) the
   * lower triangle (0,0,0), (0.5,0,0.025), (0,0.4,0.016): z = 0.025·0.2 + 0.016·0.25 = 0.009. */
  double h;
  CHECK(grip_heightfield_height(hf, 0.1, 0.1, &h));
  CHECK_NEAR(h, 0.009, 1e-15);
  grip_heightfield_destroy(hf);
}

static void test_clamped_edges(void) {
  const double ox = 10.0, oy = -5.0, dx = 2.0, dy = 1.5;
  grip_heightfield *hf = make_grid(tilted, ox, oy, dx, dy, 9, 12, GRIP_EDGE_CLAMP);
  const double xmax = ox + 11 * dx, ymax = oy + 8 * dy;
  grip_ground_sample s;
  /* West of the grid: level along x, still sloping along y. */
  CHECK(grip_heightfield_sample(hf, ox - 50.0, 0.3, &s));
  CHECK_NEAR(s.height, tilted(ox, 0.3), 1e-12);
  check_unit_normal(s.normal, 0.0, -TC, 1.0, 1e-12);
  /* North: level along y. */
  CHECK(grip_heightfield_sample(hf, 15.0, ymax + 7.0, &s));
  CHECK_NEAR(s.height, tilted(15.0, ymax), 1e-12);
  check_unit_normal(s.normal, -TB, 0.0, 1.0, 1e-12);
  /* Beyond a corner: the corner's height, flat. */
  CHECK(grip_heightfield_sample(hf, xmax + 3.0, oy - 3.0, &s));
  CHECK_NEAR(s.height, tilted(xmax, oy), 1e-12);
  check_unit_normal(s.normal, 0.0, 0.0, 1.0, 1e-12);
  grip_heightfield_destroy(hf);
}

static grip_vec3 unit(double x, double y, double z) {
  double l = sqrt(x * x + y * y + z * z);
  return (grip_vec3){x / l, y / l, z / l};
}

/* t of the ray against the infinite tilted plane. */
static double tilted_t(grip_vec3 o, grip_vec3 d) {
  return (TA + TB * o.x + TC * o.y - o.z) / (d.z - TB * d.x - TC * d.y);
}

static void test_rays_tilted(void) {
  const double ox = 10.0, oy = -5.0, dx = 2.0, dy = 1.5;
  const double xmax = ox + 11 * dx, ymax = oy + 8 * dy;
  grip_heightfield *hf = make_grid(tilted, ox, oy, dx, dy, 9, 12, GRIP_EDGE_NO_GROUND);
  grip_ground g = grip_heightfield_ground(hf);
  grip_ground_hit hit;
  /* Vertical rays. */
  for (int k = 0; k < 300; ++k) {
    grip_vec3 o = {rnd_range(ox, xmax), rnd_range(oy, ymax), 20.0};
    grip_vec3 d = {0, 0, -1};
    CHECK(g.raycast(g.context, NULL, o, d, 100.0, &hit));
    CHECK_NEAR(hit.distance, 20.0 - tilted(o.x, o.y), 1e-11);
    CHECK_NEAR(hit.point.z, tilted(o.x, o.y), 1e-11);
    CHECK_NEAR(hit.point.x, o.x, 0.0);
    check_unit_normal(hit.normal, -TB, -TC, 1.0, 1e-12);
  }
  /* Near-vertical rays (a wheel's suspension ray on a pitched car). */
  for (int k = 0; k < 300; ++k) {
    grip_vec3 o = {rnd_range(ox + 1, xmax - 1), rnd_range(oy + 1, ymax - 1), 12.0};
    grip_vec3 d = unit(rnd_range(-1e-3, 1e-3), rnd_range(-1e-3, 1e-3), -1.0);
    CHECK(grip_heightfield_raycast(hf, NULL, o, d, 50.0, &hit));
    double t = tilted_t(o, d);
    CHECK_NEAR(hit.distance, t, 1e-10);
    CHECK_NEAR(hit.point.x, o.x + d.x * t, 1e-10);
    CHECK_NEAR(hit.point.y, o.y + d.y * t, 1e-10);
  }
  /* Slanted rays crossing many cells: shallow descent from one side. */
  int crossed_many = 0;
  for (int k = 0; k < 300; ++k) {
    /* Climbing slower than the plane (grade 0.3 along x), so they meet it far away. */
    grip_vec3 o = {rnd_range(ox, ox + 2), rnd_range(oy, ymax), 0.0};
    o.z = tilted(o.x, o.y) + rnd_range(0.3, 1.0);
    grip_vec3 d = unit(1.0, rnd_range(-0.1, 0.1), rnd_range(0.2, 0.26));
    double t = tilted_t(o, d);
    grip_vec3 p = {o.x + d.x * t, o.y + d.y * t, o.z + d.z * t};
    bool inside = p.x >= ox && p.x <= xmax && p.y >= oy && p.y <= ymax;
    bool got = grip_heightfield_raycast(hf, NULL, o, d, 200.0, &hit);
    CHECK(got == inside);
    if (got && inside) {
      CHECK_NEAR(hit.distance, t, 1e-9);
      CHECK_NEAR(hit.point.x, p.x, 1e-9);
      CHECK_NEAR(hit.point.y, p.y, 1e-9);
      CHECK_NEAR(hit.point.z, p.z, 1e-9);
      if (p.x - o.x > 4 * dx) crossed_many++;
    }
  }
  CHECK(crossed_many > 50);
  /* Misses: pointing up, too short, parallel above, outside and going away. */
  grip_vec3 o = {20.0, 0.0, 30.0};
  CHECK(!grip_heightfield_raycast(hf, NULL, o, (grip_vec3){0, 0, 1}, 100.0, &hit));
  CHECK(!grip_heightfield_raycast(hf, NULL, o, (grip_vec3){0, 0, -1}, 30.0 - tilted(20, 0) - 0.01, &hit));
  CHECK(grip_heightfield_raycast(hf, NULL, o, (grip_vec3){0, 0, -1}, 30.0 - tilted(20, 0) + 0.01, &hit));
  CHECK(!grip_heightfield_raycast(hf, NULL, o, (grip_vec3){1, 0, 0}, 100.0, &hit));
  CHECK(!grip_heightfield_raycast(hf, NULL, (grip_vec3){0.0, 0.0, 30.0}, (grip_vec3){0, 0, -1}, 100.0,
                                  &hit)); /* west of the grid, no ground there */
  CHECK(!grip_heightfield_raycast(hf, NULL, (grip_vec3){5.0, 0.0, 30.0}, unit(-1, 0, -1), 100.0, &hit));
  /* Starting under the ground: no hit from inside. */
  CHECK(!grip_heightfield_raycast(hf, NULL, (grip_vec3){20.0, 0.0, tilted(20, 0) - 0.5},
                                  (grip_vec3){0, 0, -1}, 100.0, &hit));
  /* Starting outside the grid and entering it. */
  for (int k = 0; k < 100; ++k) {
    grip_vec3 os = {ox - rnd_range(5, 30), rnd_range(oy + 2, ymax - 2), 15.0};
    grip_vec3 ds = unit(1.0, rnd_range(-0.1, 0.1), -rnd_range(0.3, 0.5));
    double t = tilted_t(os, ds);
    grip_vec3 p = {os.x + ds.x * t, os.y + ds.y * t, os.z + ds.z * t};
    bool inside = p.x >= ox && p.x <= xmax && p.y >= oy && p.y <= ymax;
    CHECK(grip_heightfield_raycast(hf, NULL, os, ds, 500.0, &hit) == inside);
    if (inside) CHECK_NEAR(hit.distance, t, 1e-9);
  }
  grip_heightfield_destroy(hf);
}

static void test_rays_clamped(void) {
  const double ox = 10.0, oy = -5.0, dx = 2.0, dy = 1.5;
  grip_heightfield *hf = make_grid(tilted, ox, oy, dx, dy, 9, 12, GRIP_EDGE_CLAMP);
  grip_ground_hit hit;
  /* West of the grid the ground is z = TA + TB·ox + TC·y: a vertical ray lands on it. */
  grip_vec3 o = {-100.0, 1.0, 40.0};
  CHECK(grip_heightfield_raycast(hf, NULL, o, (grip_vec3){0, 0, -1}, 100.0, &hit));
  CHECK_NEAR(hit.point.z, tilted(ox, 1.0), 1e-12);
  check_unit_normal(hit.normal, 0.0, -TC, 1.0, 1e-12);
  /* A slanted ray from far west that lands on the extension: plane z = TA + TB·ox + TC·y. */
  grip_vec3 d = unit(1.0, 0.05, -0.5);
  double zc = TA + TB * ox;
  double t = (zc + TC * o.y - o.z) / (d.z - TC * d.y);
  CHECK(grip_heightfield_raycast(hf, NULL, o, d, 1000.0, &hit));
  CHECK_NEAR(hit.distance, t, 1e-9);
  CHECK(o.x + d.x * t < ox); /* it really is outside */
  /* A ray from outside that skims over the extension and lands inside the grid. */
  grip_vec3 o2 = {0.0, 0.0, 20.0};
  grip_vec3 d2 = unit(1.0, 0.0, -0.55);
  double t2 = tilted_t(o2, d2);
  CHECK(o2.x + d2.x * t2 > ox);
  CHECK(grip_heightfield_raycast(hf, NULL, o2, d2, 1000.0, &hit));
  CHECK_NEAR(hit.distance, t2, 1e-9);
  /* Level rays with an infinite range going east. West of the grid the ground is at
   * TA + TB·ox − TC·0 = 4.5 at y = 0, so a ray at z = 3 starts under it: no hit. At z = 6 it
   * passes over the extension and meets the plane where TA + TB·x = 6, x = 15. */
  grip_vec3 o3 = {-1000.0, 0.0, 3.0};
  CHECK(!grip_heightfield_raycast(hf, NULL, o3, (grip_vec3){1, 0, 0}, INFINITY, &hit));
  o3.z = 6.0;
  CHECK(grip_heightfield_raycast(hf, NULL, o3, (grip_vec3){1, 0, 0}, INFINITY, &hit));
  CHECK_NEAR(hit.point.x, (6.0 - TA) / TB, 1e-9);
  CHECK_NEAR(hit.distance, (6.0 - TA) / TB + 1000.0, 1e-9);
  grip_heightfield_destroy(hf);
}

/* Brute force: every triangle of the grid, Möller–Trumbore, entering from above. */
static double brute_ray(surface_fn f, double ox, double oy, double dx, double dy, int rows,
                        int cols, grip_vec3 o, grip_vec3 d, double maxd) {
  double best = INFINITY;
  for (int r = 0; r < rows - 1; ++r)
    for (int c = 0; c < cols - 1; ++c) {
      double x0 = ox + c * dx, x1 = x0 + dx, y0 = oy + r * dy, y1 = y0 + dy;
      double tris[2][3][3] = {
          {{x0, y0, f(x0, y0)}, {x1, y0, f(x1, y0)}, {x0, y1, f(x0, y1)}},
          {{x1, y0, f(x1, y0)}, {x1, y1, f(x1, y1)}, {x0, y1, f(x0, y1)}}};
      for (int k = 0; k < 2; ++k) {
        double *a = tris[k][0], *b = tris[k][1], *cc = tris[k][2];
        double e1[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
        double e2[3] = {cc[0] - a[0], cc[1] - a[1], cc[2] - a[2]};
        double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                       e1[0] * e2[1] - e1[1] * e2[0]};
        double dn = n[0] * d.x + n[1] * d.y + n[2] * d.z; /* n points up (counter-clockwise) */
        if (!(dn < 0)) continue;
        double t = (n[0] * (a[0] - o.x) + n[1] * (a[1] - o.y) + n[2] * (a[2] - o.z)) / dn;
        if (t < 0 || t > maxd) continue;
        double p[3] = {o.x + d.x * t - a[0], o.y + d.y * t - a[1], o.z + d.z * t - a[2]};
        /* barycentric in the xy projection */
        double det = e1[0] * e2[1] - e1[1] * e2[0];
        double s = (p[0] * e2[1] - p[1] * e2[0]) / det;
        double q = (e1[0] * p[1] - e1[1] * p[0]) / det;
        if (s < -1e-12 || q < -1e-12 || s + q > 1 + 1e-12) continue;
        if (t < best) best = t;
      }
    }
  return best;
}

static double bumpy(double x, double y) { return 0.5 * sin(0.9 * x) * cos(0.7 * y) + 0.05 * x; }

static void test_rays_brute_force(void) {
  const double ox = -4.0, oy = -3.0, dx = 0.7, dy = 0.6;
  const int rows = 14, cols = 16;
  surface_fn fns[2] = {paraboloid, bumpy};
  for (int f = 0; f < 2; ++f) {
    grip_heightfield *hf = make_grid(fns[f], ox, oy, dx, dy, rows, cols, GRIP_EDGE_NO_GROUND);
    int hits = 0, misses = 0;
    for (int k = 0; k < 1500; ++k) {
      grip_vec3 o = {rnd_range(ox - 3, ox + (cols - 1) * dx + 3),
                     rnd_range(oy - 3, oy + (rows - 1) * dy + 3), rnd_range(-0.5, 4.0)};
      grip_vec3 d = k % 3 == 0 ? unit(rnd_range(-0.01, 0.01), rnd_range(-0.01, 0.01), -1)
                               : unit(rnd_range(-1, 1), rnd_range(-1, 1), rnd_range(-1, 0.3));
      double maxd = rnd_range(1.0, 25.0);
      double expect = brute_ray(fns[f], ox, oy, dx, dy, rows, cols, o, d, maxd);
      grip_ground_hit hit;
      bool got = grip_heightfield_raycast(hf, NULL, o, d, maxd, &hit);
      if (expect < INFINITY) {
        hits++;
        CHECK(got);
        if (got) CHECK_NEAR(hit.distance, expect, 1e-9);
      } else {
        misses++;
        CHECK(!got);
      }
    }
    printf("  brute force: %d hits, %d misses\n", hits, misses);
    CHECK(hits > 200 && misses > 200);
    grip_heightfield_destroy(hf);
  }
}

static void test_surfaces(void) {
  grip_surface s;
  CHECK(grip_surface_preset_find("grass", &s));
  CHECK_NEAR(s.friction, 0.6, 0.0);
  CHECK_NEAR(s.rolling_resistance, 0.06, 0.0);
  CHECK(grip_surface_preset_find("GRAVEL", &s));
  CHECK_NEAR(s.friction, 0.6, 0.0);
  CHECK_NEAR(s.rolling_resistance, 0.08, 0.0);
  CHECK(grip_surface_preset_find("ice", &s));
  CHECK_NEAR(s.friction, 0.1, 0.0); /* MF ice set D/Fz of the design notes */
  CHECK(grip_surface_preset_find("snow", &s));
  CHECK_NEAR(s.friction, 0.3, 0.0); /* MF snow set */
  CHECK(grip_surface_preset_find("asphalt", &s));
  CHECK_NEAR(s.friction, 1.0, 0.0);
  CHECK_NEAR(s.rolling_resistance, 0.012, 0.0);
  CHECK(grip_surface_preset_find("sand", &s) && s.rolling_resistance >= 0.1);
  CHECK(grip_surface_preset_find("concrete", &s));
  CHECK(!grip_surface_preset_find("lava", &s));
  CHECK_NEAR(s.friction, 1.0, 0.0);
  s = grip_surface_preset("Snow");
  CHECK_NEAR(s.friction, 0.3, 0.0);
  CHECK(s.id == 5);
  s = grip_surface_preset("no such surface");
  CHECK_NEAR(s.friction, 1.0, 0.0);
  CHECK_NEAR(s.rolling_resistance, 0.012, 0.0);
  CHECK(grip_surface_preset_name(6) && strcmp(grip_surface_preset_name(6), "ice") == 0);
  CHECK(grip_surface_preset_name(7) == NULL);

  /* Bumps: A sin(kx) sin(ky). */
  grip_surface r = {.friction = 1, .roughness_amplitude = 0.02, .roughness_wavelength = 1.6};
  double bx, by;
  /* x = 0.4 is a quarter wavelength: sin = 1, cos = 0. */
  CHECK_NEAR(grip_surface_bump(&r, 0.4, 0.4, &bx, &by), 0.02, 1e-15);
  CHECK_NEAR(bx, 0.0, 1e-15);
  CHECK_NEAR(grip_surface_bump(&r, 0.4, 1.2, &bx, &by), -0.02, 1e-15);
  CHECK_NEAR(grip_surface_bump(&r, 0.0, 0.4, &bx, &by), 0.0, 1e-15);
  CHECK_NEAR(bx, 0.02 * 2 * 3.14159265358979323846 / 1.6, 1e-13); /* A·k·cos 0·sin(π/2) */
  CHECK_NEAR(by, 0.0, 1e-15);
  grip_surface smooth = grip_default_surface();
  CHECK_NEAR(grip_surface_bump(&smooth, 0.4, 0.4, &bx, &by), 0.0, 0.0);
}

static double zero(double x, double y) {
  (void)x;
  (void)y;
  return 0.0;
}

static void test_surface_map_and_roughness(void) {
  /* 3×4 samples → 2×3 cells; the middle column of cells is gravel (bumpy), the rest ice. */
  double h[12] = {0};
  uint8_t map[6] = {0, 1, 0, 0, 1, 0};
  grip_surface table[2];
  table[0] = grip_surface_preset("ice");
  table[1] = grip_surface_preset("gravel");
  grip_heightfield_def def = grip_default_heightfield_def();
  def.rows = 3;
  def.cols = 4;
  def.dx = def.dy = 2.0;
  def.heights = h;
  def.cell_surface = map;
  def.surfaces = table;
  def.surface_count = 2;
  grip_heightfield *hf = NULL;
  CHECK(grip_heightfield_create(&def, &hf) == GRIP_OK);
  grip_ground_sample s;
  CHECK(grip_heightfield_sample(hf, 1.0, 1.0, &s));
  CHECK_NEAR(s.surface.friction, 0.1, 0.0);
  CHECK_NEAR(s.height, 0.0, 0.0);
  /* Gravel cell: A = 0.02, wavelength 1.5 → height = A sin(kx) sin(ky). */
  double k = 2 * 3.14159265358979323846 / 1.5;
  double x = 2.9, y = 3.3;
  CHECK(grip_heightfield_sample(hf, x, y, &s));
  CHECK_NEAR(s.surface.friction, 0.6, 0.0);
  CHECK_NEAR(s.height, 0.02 * sin(k * x) * sin(k * y), 1e-15);
  check_unit_normal(s.normal, -0.02 * k * cos(k * x) * sin(k * y),
                    -0.02 * k * sin(k * x) * cos(k * y), 1.0, 1e-12);
  /* A vertical ray lands on the bump exactly; a near-vertical one on the bumpy surface. */
  grip_ground_hit hit;
  CHECK(grip_heightfield_raycast(hf, NULL, (grip_vec3){x, y, 1.0}, (grip_vec3){0, 0, -1}, 2.0, &hit));
  CHECK_NEAR(hit.point.z, 0.02 * sin(k * x) * sin(k * y), 1e-12);
  CHECK_NEAR(hit.distance, 1.0 - hit.point.z, 1e-12);
  CHECK_NEAR(hit.surface.rolling_resistance, 0.08, 0.0);
  grip_vec3 d = unit(0.05, -0.03, -1.0);
  CHECK(grip_heightfield_raycast(hf, NULL, (grip_vec3){x, y, 1.0}, d, 2.0, &hit));
  CHECK_NEAR(hit.point.z, 0.02 * sin(k * hit.point.x) * sin(k * hit.point.y), 1e-12);
  CHECK_NEAR(hit.point.x, x + d.x * hit.distance, 1e-12);
  /* Ice cell: smooth. */
  CHECK(grip_heightfield_raycast(hf, NULL, (grip_vec3){5.0, 1.0, 1.0}, (grip_vec3){0, 0, -1}, 2.0, &hit));
  CHECK_NEAR(hit.point.z, 0.0, 1e-15);
  CHECK_NEAR(hit.surface.friction, 0.1, 0.0);
  grip_heightfield_destroy(hf);
  (void)zero;
}

static void test_invalid(void) {
  double h[4] = {0, 1, 2, NAN};
  grip_heightfield_def def = grip_default_heightfield_def();
  def.rows = 2;
  def.cols = 2;
  def.heights = h;
  grip_heightfield *hf = (grip_heightfield *)&def; /* must be reset to NULL on failure */
  CHECK(grip_heightfield_create(&def, &hf) == GRIP_INVALID_ARGUMENT);
  CHECK(hf == NULL);
  h[3] = 3;
  def.rows = 1;
  CHECK(grip_heightfield_create(&def, &hf) == GRIP_INVALID_ARGUMENT);
  def.rows = 2;
  def.dx = 0.0;
  CHECK(grip_heightfield_create(&def, &hf) == GRIP_INVALID_ARGUMENT);
  def.dx = 1.0;
  uint8_t map[1] = {1}; /* index 1 but only the default surface */
  def.cell_surface = map;
  CHECK(grip_heightfield_create(&def, &hf) == GRIP_INVALID_ARGUMENT);
  def.cell_surface = NULL;
  CHECK(grip_heightfield_create(&def, &hf) == GRIP_OK);
  grip_ground_hit hit;
  CHECK(!grip_heightfield_raycast(hf, NULL, (grip_vec3){NAN, 0, 1}, (grip_vec3){0, 0, -1}, 2, &hit));
  /* each of the ray's six numbers not finite (NaN, +inf, −inf): no hit; the same ray finite hits */
  const double bad[3] = {NAN, INFINITY, -INFINITY};
  for (int k = 0; k < 6; ++k)
    for (int b = 0; b < 3; ++b) {
      double ray[6] = {0.5, 0.5, 5.0, 0.0, 0.0, -1.0};
      ray[k] = bad[b];
      CHECK(!grip_heightfield_raycast(hf, NULL, (grip_vec3){ray[0], ray[1], ray[2]}, (grip_vec3){ray[3], ray[4], ray[5]},
                                      10.0, &hit));
    }
  CHECK(grip_heightfield_raycast(hf, NULL, (grip_vec3){0.5, 0.5, 5.0}, (grip_vec3){0, 0, -1}, 10.0, &hit));
  CHECK(!grip_heightfield_raycast(hf, NULL, (grip_vec3){0.5, 0.5, 5.0}, (grip_vec3){0, 0, -1}, NAN, &hit));
  grip_heightfield_destroy(hf);
  grip_heightfield_destroy(NULL);
}

int main(void) {
  RUN_TEST(test_flat_plane);
  RUN_TEST(test_tilted_plane_exact);
  RUN_TEST(test_paraboloid);
  RUN_TEST(test_clamped_edges);
  RUN_TEST(test_rays_tilted);
  RUN_TEST(test_rays_clamped);
  RUN_TEST(test_rays_brute_force);
  RUN_TEST(test_surfaces);
  RUN_TEST(test_surface_map_and_roughness);
  RUN_TEST(test_invalid);
  /* "A car dropped onto a heightfield settles at its ride height" needs the vehicle core; it
   * is added once that lands (docs/terrain.md). */
  return TEST_RESULT();
}
