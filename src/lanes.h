/* grip — wheels side by side: the tyre step's arithmetic on vectors of two doubles.
 *
 * A `lane` holds one value of each of two wheels. Its operators (+ − × ÷, comparisons) act on
 * each wheel's value alone (GCC's and Clang's vector extension), so a wheel worked on in a lane
 * takes the same operations, rounded the same way, as a wheel worked on by itself: the results
 * are the same bit for bit, vectorised or not. Each operation is one SSE2 or AVX instruction on
 * x86-64 (one NEON instruction on ARM64) for both wheels.
 *
 * Two lanes, not four: with four (32-byte vectors) the step's AVX2 copy took 1.3 % fewer
 * instructions, but GCC has no 32-byte vectors in the baseline copy and turned each comparison
 * and selection into a branch per wheel through the stack, 8 % more instructions there than the
 * scalar code (docs/performance.md, twenty-first session).
 *
 * The helpers below are gmath.h's vector and selection functions written for lanes, with the
 * same operations in the same order (v3_dot sums x, y, z from the left, clampd tests the lower
 * bound first, and so on): a lane and gmath.h give equal bits. A choice between two values is
 * a mask selection, made after both are worked out. */
#ifndef GRIP_LANES_H
#define GRIP_LANES_H

#include <math.h>
#include <stddef.h>
#include <string.h>

#include "gmath.h"

#define LANES 2
typedef double lane __attribute__((vector_size(LANES * sizeof(double))));
typedef long long lane_mask __attribute__((vector_size(LANES * sizeof(double)))); /* all ones: true */

typedef struct lane3 {
  lane x, y, z;
} lane3;

#define LANE_INLINE static inline __attribute__((always_inline))

/* (written out for two lanes: GCC made a loop over the lanes slower) */
_Static_assert(LANES == 2, "lane_of and lane_sqrt are written out for two lanes");
LANE_INLINE lane lane_of(double x) { return (lane){x, x}; }

/* The item lane l of the block that starts at item `first` works on, of n items: its own, or
 * past the last item the block's first again (a spare lane then works out and stores that
 * item's values a second time, the same bits, so that every lane is stored without a test). */
LANE_INLINE int lane_item(int first, int l, int n) { return first + l < n ? first + l : first; }

/* m ? a : b, lane by lane */
LANE_INLINE lane lane_select(lane_mask m, lane a, lane b) {
  return (lane)(((lane_mask)a & m) | ((lane_mask)b & ~m));
}
/* fabs: the sign bit cleared */
LANE_INLINE lane lane_abs(lane x) { return (lane)((lane_mask)x & ~(lane_mask)lane_of(-0.0)); }
LANE_INLINE lane lane_sqrt(lane x) { return (lane){sqrt(x[0]), sqrt(x[1])}; }
LANE_INLINE lane lane_clamp(lane x, lane lo, lane hi) { return lane_select(x < lo, lo, lane_select(x > hi, hi, x)); }
LANE_INLINE lane lane_max(lane a, lane b) { return lane_select(a > b, a, b); }
LANE_INLINE lane lane_min(lane a, lane b) { return lane_select(a < b, a, b); }

LANE_INLINE lane3 lane3_of(grip_vec3 v) { return (lane3){lane_of(v.x), lane_of(v.y), lane_of(v.z)}; }
LANE_INLINE lane3 lane3_add(lane3 a, lane3 b) { return (lane3){a.x + b.x, a.y + b.y, a.z + b.z}; }
LANE_INLINE lane3 lane3_sub(lane3 a, lane3 b) { return (lane3){a.x - b.x, a.y - b.y, a.z - b.z}; }
LANE_INLINE lane3 lane3_scale(lane3 a, lane s) { return (lane3){a.x * s, a.y * s, a.z * s}; }
LANE_INLINE lane3 lane3_mad(lane3 a, lane3 b, lane s) { return (lane3){a.x + b.x * s, a.y + b.y * s, a.z + b.z * s}; }
LANE_INLINE lane lane3_dot(lane3 a, lane3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
LANE_INLINE lane3 lane3_cross(lane3 a, lane3 b) {
  return (lane3){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
LANE_INLINE lane3 lane3_select(lane_mask m, lane3 a, lane3 b) {
  return (lane3){lane_select(m, a.x, b.x), lane_select(m, a.y, b.y), lane_select(m, a.z, b.z)};
}
/* mat3_mul: each row's dot product with v */
LANE_INLINE lane3 lane3_rotate(const mat3 *m, lane3 v) {
  return (lane3){lane3_dot(lane3_of(m->r0), v), lane3_dot(lane3_of(m->r1), v), lane3_dot(lane3_of(m->r2), v)};
}

/* The double at byte `offset` of each lane's struct (one struct in every lane, or one each of
 * an array), into a lane; and back. */
LANE_INLINE lane lane_gather(const void *const base[LANES], size_t offset) {
  lane v;
  for (int l = 0; l < LANES; ++l) v[l] = *(const double *)((const char *)base[l] + offset);
  return v;
}
LANE_INLINE lane3 lane3_gather(const void *const base[LANES], size_t offset) {
  return (lane3){lane_gather(base, offset), lane_gather(base, offset + sizeof(double)),
                 lane_gather(base, offset + 2 * sizeof(double))};
}
/* The doubles of an array at the lanes' indices, and back (a spare lane's index repeats one, and
 * stores the same bits there again). */
LANE_INLINE lane lane_pick(const double *a, const int at[LANES]) {
  lane v;
  for (int l = 0; l < LANES; ++l) v[l] = a[at[l]];
  return v;
}
LANE_INLINE void lane_put(double *a, const int at[LANES], lane v) {
  for (int l = 0; l < LANES; ++l) a[at[l]] = v[l];
}
/* LANES consecutive doubles of an array, and back. */
LANE_INLINE lane lane_load(const double *from) {
  lane v;
  memcpy(&v, from, sizeof v);
  return v;
}
LANE_INLINE void lane_store(double *to, lane v) { memcpy(to, &v, sizeof v); }

/* Every lane is stored, the spare ones too (the tyre step gives them a wheel's own values). */
LANE_INLINE void lane_scatter(void *const base[LANES], size_t offset, lane v) {
  for (int l = 0; l < LANES; ++l) *(double *)((char *)base[l] + offset) = v[l];
}
LANE_INLINE void lane3_scatter(void *const base[LANES], size_t offset, lane3 v) {
  for (int l = 0; l < LANES; ++l) *(grip_vec3 *)((char *)base[l] + offset) = (grip_vec3){v.x[l], v.y[l], v.z[l]};
}

#endif
