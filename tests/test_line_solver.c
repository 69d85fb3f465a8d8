/* The robot's racing line solver (driver/line_solver.c). Its steps away from the ring's seam run
 * in runs over consecutive stored values; the general step gathers each lane's inputs one by
 * one. The two must give the same bits for every ring size, batch and sweep count, including
 * the sizes where a run is empty or one step long. And the sweeps do what they are for: they
 * take the bending (Σ curvature²·length) out of a line, keep it on the road, and leave the
 * least-bending line of a circular road (its outer edge) where it is. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "line_solver.h"
#include "test.h"

#define PI 3.14159265358979323846
#define MAX_SAMPLES 2400

/* A level with its own storage (9 arrays of 3·ceil(m/3) values). */
typedef struct ring {
  line_level v;
  double mem[9][MAX_SAMPLES + 3];
} ring;

/* A closed road of m samples: centre r(θ) = 300 + 40 sin 3θ + 15 cos(7θ + phase) m, normals
 * across it (outward), half widths 4 + 2 sin 5θ m, starting offsets spread over the road by the
 * seed (0: all on the centre line). */
static void make_ring(ring *g, int m, double phase, unsigned seed) {
  line_level *v = &g->v;
  double **arrays[9] = {&v->px, &v->py, &v->nx, &v->ny, &v->bound, &v->off, &v->x, &v->y, &v->len};
  for (int k = 0; k < 9; ++k) *arrays[k] = g->mem[k];
  v->m = m;
  v->third = (m + 2) / 3;
  unsigned long long rng = 0x9e3779b97f4a7c15ull ^ seed;
  for (int j = 0; j < m; ++j) {
    double th = 2.0 * PI * j / m;
    double r = 300.0 + 40.0 * sin(3.0 * th) + 15.0 * cos(7.0 * th + phase);
    double dr = 120.0 * cos(3.0 * th) - 105.0 * sin(7.0 * th + phase);
    /* tangent of (r cos θ, r sin θ); the normal is the tangent turned right (outward) */
    double tx = dr * cos(th) - r * sin(th), ty = dr * sin(th) + r * cos(th), tl = hypot(tx, ty);
    int p = line_level_pos(v, j);
    v->px[p] = r * cos(th);
    v->py[p] = r * sin(th);
    v->nx[p] = ty / tl;
    v->ny[p] = -tx / tl;
    v->bound[p] = 4.0 + 2.0 * sin(5.0 * th);
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    double u = (double)(rng >> 11) / 9007199254740992.0; /* [0, 1) */
    v->off[p] = seed ? (2.0 * u - 1.0) * v->bound[p] : 0.0;
    v->x[p] = v->px[p] + v->off[p] * v->nx[p];
    v->y[p] = v->py[p] + v->off[p] * v->ny[p];
  }
  line_level_set_lengths(v);
}

static bool same_bits(const ring *a, const ring *b) {
  size_t n = (size_t)3 * (size_t)a->v.third * sizeof(double);
  return memcmp(a->v.off, b->v.off, n) == 0 && memcmp(a->v.x, b->v.x, n) == 0 &&
         memcmp(a->v.y, b->v.y, n) == 0 && memcmp(a->v.len, b->v.len, n) == 0;
}

static void runs_match_steps(void) {
  static ring a, b;
  /* around the sizes where the wavefront's run is empty (m − 2 ≤ 3·7 + 2) or starts, the plain
   * schedule's (m ≤ 4), odd thirds, and the sizes of the built-in track and e-track-4 */
  const int sizes[] = {5, 6, 7, 8, 9, 20, 24, 25, 26, 27, 28, 29, 31, 64, 100, 257, 436, 499, 500, 1001, 2348};
  const int sweep_counts[] = {1, 3, 8, 9, 17, 64};
  int cases = 0, differing = 0, counts_differing = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
    for (int batch = 1; batch <= LINE_BATCH; batch += LINE_BATCH - 1)
      for (size_t k = 0; k < sizeof sweep_counts / sizeof sweep_counts[0]; ++k) {
        int m = sizes[i], sweeps = sweep_counts[k];
        if (m > 600 && sweeps > 17) continue; /* keeps the test short */
        unsigned seed = (unsigned)(1 + i * 31 + k * 7 + (unsigned)batch);
        make_ring(&a, m, 0.3 * (double)i, seed);
        make_ring(&b, m, 0.3 * (double)i, seed);
        int done_runs = line_level_sweep(&a.v, sweeps, batch, true);
        int done_steps = line_level_sweep(&b.v, sweeps, batch, false);
        ++cases;
        if (done_runs != done_steps) ++counts_differing;
        if (!same_bits(&a, &b)) {
          ++differing;
          fprintf(stderr, "m %d batch %d sweeps %d: runs and steps differ\n", m, batch, sweeps);
        }
      }
  /* to convergence (1e-6 m): the same sweep counts too */
  for (int batch = 1; batch <= LINE_BATCH; batch += LINE_BATCH - 1) {
    make_ring(&a, 300, 1.0, 0);
    make_ring(&b, 300, 1.0, 0);
    int done_runs = line_level_sweep(&a.v, 20000, batch, true);
    int done_steps = line_level_sweep(&b.v, 20000, batch, false);
    ++cases;
    CHECK(done_runs < 20000); /* it did converge */
    if (done_runs != done_steps) ++counts_differing;
    if (!same_bits(&a, &b)) ++differing;
  }
  printf("  %d cases: %d differ, %d with different sweep counts\n", cases, differing, counts_differing);
  CHECK(cases == 2 * 21 * 6 - 2 * 2 + 2); /* less the 4 long ones skipped */
  CHECK(differing == 0);
  CHECK(counts_differing == 0);
  /* the sweeps did move the line: the comparison is not of untouched arrays */
  make_ring(&a, 500, 0.0, 7);
  make_ring(&b, 500, 0.0, 7);
  line_level_sweep(&a.v, 8, LINE_BATCH, true);
  CHECK(!same_bits(&a, &b));
}

/* Σ κ²·ds of the ring's line, κ from the circle through each sample and its neighbours
 * (2·|ab × bc| / (|ab|·|bc|·|ac|)), ds the mean of the two spacings: the objective the solver
 * lowers, measured here independently of its own second differences. */
static double bending(const line_level *v) {
  int m = v->m;
  double sum = 0.0;
  for (int j = 0; j < m; ++j) {
    int a = line_level_pos(v, (j + m - 1) % m), b = line_level_pos(v, j), c = line_level_pos(v, (j + 1) % m);
    double ux = v->x[b] - v->x[a], uy = v->y[b] - v->y[a], wx = v->x[c] - v->x[b], wy = v->y[c] - v->y[b];
    double lu = hypot(ux, uy), lw = hypot(wx, wy), lz = hypot(wx + ux, wy + uy);
    double k = 2.0 * (ux * wy - uy * wx) / (lu * lw * lz);
    sum += k * k * 0.5 * (lu + lw);
  }
  return sum;
}

/* Sweeps at one level lower the bending (Σ κ²·ds) of the centre line, and of offsets spread at
 * random over the road, and keep every offset on the road, by either schedule. (One fine level
 * alone does it slowly: on the ring of 2,348 samples 3,000 sweeps take the centre line's 0.08219
 * only to 0.08216; the robot goes coarse to fine, tests/test_robot.c.) And on a circle whose
 * road is centred on it, the outer edge (radius R + b: the least a closed line inside the road
 * can bend) is a fixed point: started there, no offset moves. */
static void sweeps_straighten_the_line(void) {
  static ring g;
  const int sizes[] = {60, 436, 500, 2348};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i)
    for (int batch = 1; batch <= LINE_BATCH; batch += LINE_BATCH - 1) {
      int m = sizes[i];
      line_level *v = &g.v;
      make_ring(&g, m, 0.5, 0);
      double centre = bending(v);
      line_level_sweep(v, 3000, batch, true);
      double after = bending(v);
      bool on_road = true;
      for (int j = 0; j < m; ++j) {
        int p = line_level_pos(v, j);
        on_road &= fabs(v->off[p]) <= v->bound[p];
      }
      make_ring(&g, m, 0.5, 99u + (unsigned)i);
      double spread = bending(v);
      line_level_sweep(v, 3000, batch, true);
      double from_spread = bending(v);
      printf("  m %4d batch %d: bending %.4g on the centre line, %.4g after 3000 sweeps; from offsets "
             "spread over the road %.4g, then %.4g\n", m, batch, centre, after, spread, from_spread);
      CHECK(on_road);
      CHECK(after < centre);
      CHECK(from_spread < 0.5 * spread);
    }
  const double R = 150.0, half = 5.0;
  for (int batch = 1; batch <= LINE_BATCH; batch += LINE_BATCH - 1) {
    int m = 942;
    line_level *v = &g.v;
    make_ring(&g, m, 0.0, 0);
    for (int j = 0; j < m; ++j) {
      double th = 2.0 * PI * j / m;
      int p = line_level_pos(v, j);
      v->px[p] = R * cos(th), v->py[p] = R * sin(th);
      v->nx[p] = cos(th), v->ny[p] = sin(th);
      v->bound[p] = half, v->off[p] = half;
      v->x[p] = v->px[p] + half * v->nx[p], v->y[p] = v->py[p] + half * v->ny[p];
    }
    line_level_set_lengths(v);
    int done = line_level_sweep(v, 3000, batch, true);
    double lowest = INFINITY;
    for (int j = 0; j < m; ++j) lowest = fmin(lowest, v->off[line_level_pos(v, j)]);
    CHECK(done == batch); /* the first batch moves nothing, and the sweeps stop */
    CHECK(lowest == half);
  }
}

/* The energy the update minimises over sample j's offset o, with every other sample where it is:
 * the three terms |D(i)|² / l(i)³ (i = j − 1, j, j + 1) that depend on o, D(i) = X(i−1) − 2X(i)
 * + X(i+1), l(i) = (len(i−1) + len(i))/2, len(i) = |X(i+1) − X(i)| + 1e-12 as the solver keeps
 * it. Written from the definition, point by point, not from the solver's algebra. */
static double local_energy(const line_level *v, int j, double o) {
  int m = v->m;
  double x[7], y[7]; /* samples j − 3 … j + 3 */
  for (int k = 0; k < 7; ++k) {
    int i = ((j + k - 3) % m + m) % m, p = line_level_pos(v, i);
    double off = k == 3 ? o : v->off[p];
    x[k] = v->px[p] + off * v->nx[p];
    y[k] = v->py[p] + off * v->ny[p];
  }
  double e = 0.0;
  for (int k = 2; k <= 4; ++k) {
    double dx = x[k - 1] - 2.0 * x[k] + x[k + 1], dy = y[k - 1] - 2.0 * y[k] + y[k + 1];
    double before = hypot(x[k] - x[k - 1], y[k] - y[k - 1]) + 1e-12;
    double after = hypot(x[k + 1] - x[k], y[k + 1] - y[k]) + 1e-12;
    double l = 0.5 * (before + after);
    e += (dx * dx + dy * dy) / (l * l * l);
  }
  return e;
}

/* Golden-section search for the minimiser of sample j's local energy over [lo, hi]. */
static double local_minimiser(const line_level *v, int j, double lo, double hi) {
  double gr = 0.5 * (sqrt(5.0) - 1.0);
  double a = hi - gr * (hi - lo), b = lo + gr * (hi - lo);
  double fa = local_energy(v, j, a), fb = local_energy(v, j, b);
  for (int it = 0; it < 200 && hi - lo > 1e-13; ++it) {
    if (fa < fb) hi = b, b = a, fb = fa, a = hi - gr * (hi - lo), fa = local_energy(v, j, a);
    else lo = a, a = b, fa = fb, b = lo + gr * (hi - lo), fb = local_energy(v, j, b);
  }
  return 0.5 * (lo + hi);
}

/* Sample j alone may move (every other bound 0, so the first sweep puts the others on the centre
 * line), from offset `start`, by `sweeps` sweeps of the given schedule; returns its offset. */
static double move_one(ring *g, int m, int j, double bound, double start, int batch, int sweeps) {
  line_level *v = &g->v;
  make_ring(g, m, 1.3, 7u);
  for (int i = 0; i < m; ++i) v->bound[line_level_pos(v, i)] = i == j ? bound : 0.0;
  int pj = line_level_pos(v, j);
  v->off[pj] = start;
  v->x[pj] = v->px[pj] + start * v->nx[pj];
  v->y[pj] = v->py[pj] + start * v->ny[pj];
  line_level_set_lengths(v);
  for (int k = 0; k < sweeps; ++k) line_level_sweep(v, 1, batch, true);
  return v->off[pj];
}

/* The update's step is Gauss-Newton, and its gradient is the energy's own: sweeps in which one
 * sample alone may move take it to the minimiser of its local energy (local_energy, from the
 * definition), found here by golden-section search. On the bumpy ring with spacings of 31, 9.4
 * and 1.9 m (m = 60, 200, 1000), at samples of every residue class, starting either side of it,
 * by either schedule: within 2e-6 m of it. And with the bound at half the minimiser's offset,
 * the sample ends on that bound exactly. (The energy is not convex far out: a spike several
 * spacings high bends less per length, so a sample started on the edge of a wide road at 1.9 m
 * spacing stays there; the solver is a local method, and the robot starts it from the centre.) */
static void update_finds_the_local_minimiser(void) {
  static ring g;
  int cases = 0, bounded = 0;
  const int sizes[] = {60, 200, 1000};
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s)
    for (int j = 7; j < sizes[s]; j += sizes[s] / 5 + 1) {
      int m = sizes[s];
      make_ring(&g, m, 1.3, 7u);
      double road = g.v.bound[line_level_pos(&g.v, j)];
      move_one(&g, m, j, 0.0, 0.0, 1, 1); /* the neighbours on the centre line */
      double best = local_minimiser(&g.v, j, -0.25 * road, 0.25 * road);
      for (int side = -1; side <= 1; side += 2)
        for (int batch = 1; batch <= LINE_BATCH; batch += LINE_BATCH - 1) {
          CHECK_NEAR(move_one(&g, m, j, road, side * 0.05 * road, batch, 80), best, 2e-6);
          ++cases;
          if (fabs(best) > 1e-4) {
            double half = 0.5 * fabs(best);
            CHECK(move_one(&g, m, j, half, 0.0, batch, 3) == copysign(half, best));
            ++bounded;
          }
        }
    }
  printf("  %d cases, %d of them also against a bound\n", cases, bounded);
  CHECK(cases == 3 * 5 * 2 * 2);
  CHECK(bounded >= 20);
}

int main(void) {
  RUN_TEST(runs_match_steps);
  RUN_TEST(sweeps_straighten_the_line);
  RUN_TEST(update_finds_the_local_minimiser);
  return TEST_RESULT();
}
