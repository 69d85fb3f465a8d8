/* The robot's racing line solver (docs/driver.md, docs/performance.md): projected Gauss-Seidel
 * on Σ curvature²·length over a closed ring of offsets across the road, its sweeps run as a
 * wavefront. The robot (robot.c) samples the track into a line_level, coarse to fine, and calls
 * line_level_sweep at each level. No allocation, no I/O. */
#ifndef GRIP_LINE_SOLVER_H
#define GRIP_LINE_SOLVER_H

#include <stdbool.h>

/* The level's samples j·stride in arrays of their own (structure of arrays): the centre-line
 * point and normal, the bound, the offset, the line point X(j) and len(j) = |X(j+1) − X(j)|
 * (+1e-12), kept up to date as offsets move. */
typedef struct line_level {
  int m;
  int third; /* ceil(m / 3) */
  double *px, *py, *nx, *ny, *bound, *off, *x, *y, *len;
} line_level;

/* Where sample j is kept: the samples are stored by j mod 3, then j / 3, so that samples three
 * apart (the lanes of one wavefront step) lie side by side. Each array holds 3·third values. */
static inline int line_level_pos(const line_level *v, int j) { return (j % 3) * v->third + j / 3; }

/* Sweeps run LINE_BATCH at a time as a wavefront: sweep s of a batch updates sample t − 3s at
 * step t, just after sweep s − 1 has moved samples t − 3s + 1 and + 2, so each update reads what
 * a plain sweep would, except at the ring's seam (samples 0, 1 against m − 2, m − 1), where a
 * sweep reads its neighbours up to LINE_BATCH − 1 sweeps early or late. The updates of one step
 * are three samples apart and independent: they are computed side by side (one plain sweep is a
 * single chain of square roots and divisions, each offset using its neighbour's new value). */
#define LINE_BATCH 8

/* len(j) = |X(j+1) − X(j)| + 1e-12 for every sample, from x and y (the ring closes: X(m) = X(0)). */
void line_level_set_lengths(line_level *v);

/* Up to `sweeps` sweeps over the ring, `batch` (1: the plain schedule, or LINE_BATCH: the
 * wavefront) at a time, stopping after a batch in which some sweep moved no offset by 1e-6 m.
 * off, x, y and len are updated in place. by_runs: the steps away from the ring's seam are
 * taken in runs (the fast way); false gathers every step's inputs one by one, with the same
 * bits (tests/test_line_solver.c holds the two to each other). Returns the sweeps run. */
int line_level_sweep(line_level *v, int sweeps, int batch, bool by_runs);

#endif
