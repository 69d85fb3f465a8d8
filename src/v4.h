/* grip — a 3-vector in one vector register: x, y, z and a fourth lane that carries along.
 *
 * gmath.h's grip_vec3 operations on four doubles at once (GCC's and Clang's vector extension):
 * each of x, y and z takes the same operation, rounded the same way, as in gmath.h, so the
 * results are the same bit for bit; the fourth lane is never read back. In the step's AVX2
 * copy (isa.h) an operation is one instruction for the three components; the baseline copy
 * works on two halves. Only where a sum runs over many vectors in a fixed order (the chassis's
 * forces, wheel by wheel) is it worth the loads that gather a vector. */
#ifndef GRIP_V4_H
#define GRIP_V4_H

#include "gmath.h"

typedef double v4 __attribute__((vector_size(4 * sizeof(double))));

/* GCC and Clang warn that a 32-byte vector passed or returned without AVX would be passed
 * differently, here and in the inline step functions that take these helpers in (so for the rest
 * of the including file): they are all inlined, and no v4 ever crosses a call. (Clang reads the
 * GCC spelling too.) GCC's note that goes with the warning is silenced by -Wno-psabi on
 * vehicle.c (CMakeLists.txt). */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

#define V4_INLINE static inline __attribute__((always_inline))

/* The fourth lane repeats z, never 0: GCC made a zero there with a VEX `vmovq xmm, xmm` that
 * Valgrind 3.19 stops at (tests/cli_valgrind.sh). */
V4_INLINE v4 v4_of(grip_vec3 a) { return (v4){a.x, a.y, a.z, a.z}; }
V4_INLINE v4 v4_xyz(double x, double y, double z) { return (v4){x, y, z, z}; }
V4_INLINE grip_vec3 v4_vec3(v4 a) { return (grip_vec3){a[0], a[1], a[2]}; }

/* v3_cross: (a.y·b.z − a.z·b.y, a.z·b.x − a.x·b.z, a.x·b.y − a.y·b.x), each lane's products and
 * difference as gmath.h takes them */
V4_INLINE v4 v4_cross(v4 a, v4 b) {
  v4 a_yzx = __builtin_shufflevector(a, a, 1, 2, 0, 3), b_zxy = __builtin_shufflevector(b, b, 2, 0, 1, 3);
  v4 a_zxy = __builtin_shufflevector(a, a, 2, 0, 1, 3), b_yzx = __builtin_shufflevector(b, b, 1, 2, 0, 3);
  return a_yzx * b_zxy - a_zxy * b_yzx;
}

#endif
