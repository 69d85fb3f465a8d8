/* The racing line solver (line_solver.h). */
#include "line_solver.h"

#include <math.h>
#include <stdbool.h>

/* What one wavefront step's updates read and write, lane by lane: for lane u (moving sample j)
 * the points X(j − 2) … X(j + 2) (x_m2 … x_p2, y alike), the spacings len(j − 2) … len(j + 1)
 * with len(k) = |X(k + 1) − X(k)|, and sample j's centre point, normal and bound. Sample j's
 * point and offset (x, y, off) and the spacings either side of it (len_m1, len_0) are read, then
 * replaced in place; moved[u] gets |Δoffset|. What one step reads never overlaps what it writes. */
typedef struct lane_rows {
  const double *x_m2, *x_m1, *x_p1, *x_p2, *y_m2, *y_m1, *y_p1, *y_p2, *len_m2, *len_p1;
  const double *px, *py, *nx, *ny, *bound;
  double *x, *y, *off, *len_m1, *len_0, *moved;
} lane_rows;

/* Inlined into each build of level_step and level_run (below), so that it is compiled for the
 * target each is built for. */
#if defined(__GNUC__) || defined(__clang__)
#define LINE_ALWAYS_INLINE __attribute__((always_inline))
#else
#define LINE_ALWAYS_INLINE
#endif

/* Projected Gauss-Seidel updates of `count` offsets side by side: each moves to the exact 1-D
 * minimiser of Σ w·|D|² in it, D(j) = X(j−1) − 2X(j) + X(j+1), w = 1/l³ with l the local
 * spacing (|D|/l² is the curvature, so the sum is Σ curvature²·length), Gauss-Newton in how the
 * spacings (hence the weights) change with it, then is clamped to the road.
 *
 * The step, for the sample's offset o with unit normal n, the three second differences D_k
 * (k = 0, 1, 2: D(j−1), D(j), D(j+1); c_k = 1, −2, 1 their coefficients of X(j)), the four
 * spacings len_0 … len_3 around it and L_k = len_k + len_k+1 (twice the spacing l_k):
 *   grad = Σ 2·w_k·c_k·(D_k·n) − 3·|D_k|²·(w_k/l_k)·dl_k,  hess = Σ 2·w_k·c_k²,  o −= grad/hess,
 * with w_k = 8/L_k³, w_k/l_k = 16/L_k⁴ and dl_k = d l_k/do: ½·d_in, ½·(d_in + d_out), ½·d_out,
 * d_in = (X(j) − X(j−1))·n / len_1, d_out = −(X(j+1) − X(j))·n / len_2. Multiplying both by
 * P⁴·len_1·len_2/8, P = L_0·L_1·L_2, Q_k = P/L_k (the other two L's product), A_k = Q_k³, B_k = Q_k⁴,
 * e_0 = (X(j) − X(j−1))·n·len_2, m_2 = (X(j+1) − X(j))·n·len_1:
 *   grad/hess = [S·(A_0·D_0·n − 2·A_1·D_1·n + A_2·D_2·n)
 *                − 3·(|D_0|²·e_0·B_0 + |D_1|²·(e_0 − m_2)·B_1 − |D_2|²·m_2·B_2)]
 *               / [S·(A_0 + 4·A_1 + A_2)],   S = 2·len_1·len_2·P,
 * one division where the plain form takes three (1/(len_1·len_2), 1/P and grad/hess), and the
 * second differences D_k from the four segments' differences: at 8 lanes the sweeps' cost is
 * the update's operation count (docs/performance.md), 106 vector operations here against 133.
 * The same minimiser, to rounding. The rows come as restrict parameters: the lanes then
 * vectorise with no run-time overlap test, and each result goes to memory in one store per
 * vector, which the next step's loads of it are served from. */
LINE_ALWAYS_INLINE static inline void lanes_update_restrict(
    int count, const double *restrict x_m2, const double *restrict x_m1, const double *restrict x_p1,
    const double *restrict x_p2, const double *restrict y_m2, const double *restrict y_m1,
    const double *restrict y_p1, const double *restrict y_p2, const double *restrict len_m2,
    const double *restrict len_p1, const double *restrict pxs, const double *restrict pys,
    const double *restrict nxs, const double *restrict nys, const double *restrict bounds, double *restrict xs,
    double *restrict ys, double *restrict offs, double *restrict len_m1, double *restrict len_0,
    double *restrict moved) {
  for (int u = 0; u < count; ++u) {
    double nx = nxs[u], ny = nys[u];
    double X[5] = {x_m2[u], x_m1[u], xs[u], x_p1[u], x_p2[u]};
    double Y[5] = {y_m2[u], y_m1[u], ys[u], y_p1[u], y_p2[u]};
    double len[4] = {len_m2[u], len_m1[u], len_0[u], len_p1[u]};
    double L0 = len[0] + len[1], L1 = len[1] + len[2], L2 = len[2] + len[3];
    double Q[3] = {L1 * L2, L0 * L2, L0 * L1};
    double S = 2.0 * (len[1] * len[2]) * (L0 * Q[0]);
    double ux[4], uy[4]; /* the segments X(j−1) − X(j−2) … X(j+2) − X(j+1); D_k = u_k+1 − u_k */
    for (int i = 0; i < 4; ++i) ux[i] = X[i + 1] - X[i], uy[i] = Y[i + 1] - Y[i];
    double e0 = (ux[1] * nx + uy[1] * ny) * len[2];
    double m2 = (ux[2] * nx + uy[2] * ny) * len[1];
    double dn[3], dd[3], A[3]; /* D_k·n, |D_k|², Q_k³ */
    for (int k = 0; k < 3; ++k) {
      double dx = ux[k + 1] - ux[k], dy = uy[k + 1] - uy[k];
      dn[k] = dx * nx + dy * ny;
      dd[k] = dx * dx + dy * dy;
      A[k] = Q[k] * Q[k] * Q[k];
    }
    double bend = A[0] * dn[0] - 2.0 * (A[1] * dn[1]) + A[2] * dn[2];
    double stretch = dd[0] * e0 * (A[0] * Q[0]) + dd[1] * (e0 - m2) * (A[1] * Q[1]) - dd[2] * m2 * (A[2] * Q[2]);
    double curve = A[0] + 4.0 * A[1] + A[2];
    double old = offs[u], bound = bounds[u];
    double o = old - (S * bend - 3.0 * stretch) / (S * curve);
    o = o < -bound ? -bound : o;
    o = o > bound ? bound : o;
    double xn = pxs[u] + o * nx, yn = pys[u] + o * ny;
    double ax = xn - X[1], ay = yn - Y[1];
    double bx = X[3] - xn, by = Y[3] - yn;
    offs[u] = o;
    xs[u] = xn;
    ys[u] = yn;
    len_m1[u] = sqrt(ax * ax + ay * ay) + 1e-12;
    len_0[u] = sqrt(bx * bx + by * by) + 1e-12;
    moved[u] = fabs(o - old);
  }
}

LINE_ALWAYS_INLINE static inline void lanes_update(const lane_rows *r, int count) {
  lanes_update_restrict(count, r->x_m2, r->x_m1, r->x_p1, r->x_p2, r->y_m2, r->y_m1, r->y_p1, r->y_p2, r->len_m2,
                        r->len_p1, r->px, r->py, r->nx, r->ny, r->bound, r->x, r->y, r->off, r->len_m1, r->len_0,
                        r->moved);
}

/* Compiled twice where the compiler and C library can choose at load time (GCC or Clang on
 * x86-64 Linux with glibc's ifunc; not under AddressSanitizer): for AVX2 (four lanes per
 * instruction) and for the baseline (two). Without fused multiply-adds (-ffp-contract=off) both
 * give the same bits. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) /* Clang's spelling of __SANITIZE_ADDRESS__ */
#define LINE_SANITIZED 1
#endif
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && defined(__linux__) && \
    defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(LINE_SANITIZED)
#define LINE_TARGET_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define LINE_TARGET_CLONES
#endif

/* Wavefront step t of a batch of `sweeps` sweeps on a ring of m samples: the samples t − 3s of
 * the sweeps s with 0 ≤ t − 3s < m, gathered lane by lane. Any step; level_run does the steps
 * where every lane is busy and none is at the seam. moved[s] keeps sweep s's largest move. */
LINE_TARGET_CLONES static void level_step(line_level *v, int t, int sweeps, double moved[LINE_BATCH]) {
  int m = v->m;
  int s_first = t < m ? 0 : (t - m) / 3 + 1;
  int s_last = t / 3 < sweeps - 1 ? t / 3 : sweeps - 1;
  int count = s_last - s_first + 1;
  /* Lane u moves sample t − 3(s_last − u), of sweep s_last − u. */
  int j_low = t - 3 * s_last;
  double x[5][LINE_BATCH], y[5][LINE_BATCH], len[4][LINE_BATCH];
  double px[LINE_BATCH], py[LINE_BATCH], nx[LINE_BATCH], ny[LINE_BATCH], bound[LINE_BATCH], off[LINE_BATCH];
  double lane_moved[LINE_BATCH];
  for (int u = 0; u < count; ++u) {
    int j = j_low + 3 * u;
    for (int k = 0; k < 5; ++k) {
      int a = j + k - 2;
      a = line_level_pos(v, a < 0 ? a + m : a >= m ? a - m : a);
      x[k][u] = v->x[a];
      y[k][u] = v->y[a];
      if (k < 4) len[k][u] = v->len[a];
    }
    int p = line_level_pos(v, j);
    px[u] = v->px[p], py[u] = v->py[p], nx[u] = v->nx[p], ny[u] = v->ny[p];
    bound[u] = v->bound[p], off[u] = v->off[p];
  }
  lane_rows rows = {.x_m2 = x[0], .x_m1 = x[1], .x_p1 = x[3], .x_p2 = x[4],
                    .y_m2 = y[0], .y_m1 = y[1], .y_p1 = y[3], .y_p2 = y[4],
                    .len_m2 = len[0], .len_p1 = len[3],
                    .px = px, .py = py, .nx = nx, .ny = ny, .bound = bound,
                    .x = x[2], .y = y[2], .off = off, .len_m1 = len[1], .len_0 = len[2], .moved = lane_moved};
  lanes_update(&rows, count);
  for (int u = 0; u < count; ++u) {
    int j = j_low + 3 * u, p = line_level_pos(v, j);
    v->off[p] = off[u];
    v->x[p] = x[2][u];
    v->y[p] = y[2][u];
    v->len[line_level_pos(v, j == 0 ? m - 1 : j - 1)] = len[1][u];
    v->len[p] = len[2][u];
  }
  for (int u = 0; u < count; ++u) {
    int s = s_last - u;
    moved[s] = lane_moved[u] > moved[s] ? lane_moved[u] : moved[s];
  }
}

/* level_step's steps t_begin … t_end − 1 of a batch of `lanes` sweeps where every lane is busy
 * and none is at the seam (3·(lanes − 1) + 2 ≤ t < m − 2), in one call. Each of a lane's inputs
 * is then a run of consecutive stored values, updated in place where the step writes, and
 * sample j + 3 is stored just after sample j, so from one step to the next the five runs each
 * move on by one. */
LINE_ALWAYS_INLINE static inline void level_run_lanes(line_level *v, int t_begin, int t_end, int lanes,
                                                       double moved[LINE_BATCH]) {
  int j_low = t_begin - 3 * (lanes - 1); /* lane u moves j_low + 3u, of sweep lanes − 1 − u */
  int p[5];                              /* where samples j_low − 2 … j_low + 2 are kept */
  for (int k = 0; k < 5; ++k) p[k] = line_level_pos(v, j_low + k - 2);
  double lane_moved[LINE_BATCH] = {0}, step_moved[LINE_BATCH];
  for (int t = t_begin; t < t_end; ++t) {
    int q = p[2];
    lane_rows rows = {.x_m2 = v->x + p[0], .x_m1 = v->x + p[1], .x_p1 = v->x + p[3], .x_p2 = v->x + p[4],
                      .y_m2 = v->y + p[0], .y_m1 = v->y + p[1], .y_p1 = v->y + p[3], .y_p2 = v->y + p[4],
                      .len_m2 = v->len + p[0], .len_p1 = v->len + p[3],
                      .px = v->px + q, .py = v->py + q, .nx = v->nx + q, .ny = v->ny + q, .bound = v->bound + q,
                      .x = v->x + q, .y = v->y + q, .off = v->off + q, .len_m1 = v->len + p[1], .len_0 = v->len + q,
                      .moved = step_moved};
    lanes_update(&rows, lanes);
    for (int u = 0; u < lanes; ++u) lane_moved[u] = step_moved[u] > lane_moved[u] ? step_moved[u] : lane_moved[u];
    /* the next step's samples j_low − 1 … j_low + 3: sample j_low + 3 is kept after j_low */
    p[0] = p[1], p[1] = p[2], p[2] = p[3], p[3] = p[4], p[4] = q + 1;
  }
  for (int u = 0; u < lanes; ++u) {
    int s = lanes - 1 - u;
    moved[s] = lane_moved[u] > moved[s] ? lane_moved[u] : moved[s];
  }
}

/* The wavefront of LINE_BATCH sweeps and the plain schedule (one sweep at a time), each with
 * its lane count a constant: lanes is LINE_BATCH or 1 (line_level_sweep calls it for no other). */
LINE_TARGET_CLONES static void level_run(line_level *v, int t_begin, int t_end, int lanes, double moved[LINE_BATCH]) {
  if (lanes == LINE_BATCH) level_run_lanes(v, t_begin, t_end, LINE_BATCH, moved);
  else level_run_lanes(v, t_begin, t_end, 1, moved);
}

void line_level_set_lengths(line_level *v) {
  int m = v->m;
  for (int j = 0; j < m; ++j) {
    int a = line_level_pos(v, j), b = line_level_pos(v, j + 1 < m ? j + 1 : 0);
    double dx = v->x[b] - v->x[a], dy = v->y[b] - v->y[a];
    v->len[a] = sqrt(dx * dx + dy * dy) + 1e-12;
  }
}

int line_level_sweep(line_level *v, int sweeps, int batch, bool by_runs) {
  int m = v->m, done = 0;
  if (batch < 1) batch = 1;
  if (batch > LINE_BATCH) batch = LINE_BATCH;
  while (done < sweeps) {
    int k = sweeps - done < batch ? sweeps - done : batch;
    double moved[LINE_BATCH] = {0};
    int steps = m + 3 * (k - 1), run_begin = 3 * (k - 1) + 2, run_end = m - 2;
    if (by_runs && (k == LINE_BATCH || k == 1) && run_end > run_begin) {
      for (int t = 0; t < run_begin; ++t) level_step(v, t, k, moved);
      level_run(v, run_begin, run_end, k, moved);
      for (int t = run_end; t < steps; ++t) level_step(v, t, k, moved);
    } else {
      for (int t = 0; t < steps; ++t) level_step(v, t, k, moved);
    }
    done += k;
    bool converged = false;
    for (int s = 0; s < k; ++s) converged |= moved[s] < 1e-6;
    if (converged) break;
  }
  return done;
}
