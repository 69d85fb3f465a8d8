/* grip — the step's hot functions compiled twice, for the baseline x86-64 and for AVX2.
 *
 * AVX2 is in every x86-64 CPU since 2013–2015. The three-operand VEX forms of its instructions
 * spare the register copies that the two-operand SSE2 forms need, which took 9 % of the
 * instructions out of a vehicle step and 8 % out of a race car-step (docs/performance.md,
 * twentieth session). GCC builds a copy of each marked function for either target and a
 * resolver that picks one when the program is loaded, from the CPU's features.
 *
 * The two copies give the same results bit for bit: -ffp-contract=off keeps FMA out of both
 * (an FMA rounds once where a multiply and an add round twice), and neither compiler reorders
 * floating-point arithmetic without -ffast-math, vectorised or not. tests/isa_identical.sh
 * checks that against a build without the copies (-DGRIP_ISA_CLONES=OFF).
 *
 * Marked: the functions at the top of a race's and of `grip bench`'s profiles that are called
 * directly, and the work of a heightfield's ray. Never a function whose address is taken or
 * compared (the grounds' raycasts: the vehicle step tells grip's own grounds by their address),
 * since the address of a function that has copies is its resolver's: grip_heightfield_raycast
 * stays one copy and calls its static heightfield_raycast_cloned.
 *
 * Only static functions are marked: the load-time choice of a function with external linkage
 * is a symbol that -fvisibility=hidden does not hide (GCC exports it and its resolver from
 * libgrip.so; Clang refuses the visibility attribute beside the copies). So grip_vehicle_step
 * and the others are one-line functions that call their static vehicle_step_cloned and so on:
 * one call more each, through the chosen copy's address. */
#ifndef GRIP_ISA_H
#define GRIP_ISA_H

#include <limits.h> /* any C library header: it defines __GLIBC__ under glibc */

/* CMake defines GRIP_ISA_CLONES where GCC builds such copies. They need glibc's load-time
 * choice (ifunc), and are left out under AddressSanitizer, as driver/line_solver.c's are. Not
 * with Clang: Clang 14 makes the resolver of even a static function a global symbol, which
 * libgrip.so would export (tests/cli_symbols.sh). */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) /* Clang's spelling of __SANITIZE_ADDRESS__ */
#define GRIP_ISA_SANITIZED 1
#endif
#endif
#if defined(GRIP_ISA_CLONES) && GRIP_ISA_CLONES && defined(__x86_64__) && defined(__linux__) && \
    defined(__GLIBC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__) && !defined(GRIP_ISA_SANITIZED)
#define GRIP_HOT_CLONES __attribute__((target_clones("avx2", "default")))
#define GRIP_HOT_CLONES_BUILT 1
#else
#define GRIP_HOT_CLONES
#define GRIP_HOT_CLONES_BUILT 0
#endif

#endif
