/* grip: basic types shared by the whole public API.
 *
 * Conventions (docs/architecture.md):
 * - SI units everywhere: metres, seconds, kilograms, newtons, radians, N·m.
 * - World frame: z up, right-handed.
 * - Vehicle frame: ISO 8855 — x forward, y left, z up.
 * - Tyre forces and slips inside grip follow ISO 8855 as well: slip ratio kappa > 0 when the
 *   tyre drives (Fx > 0); slip angle alpha > 0 when the contact patch moves to the left of the
 *   wheel's heading, which makes Fy < 0 (the tyre pushes back to the right). */
#ifndef GRIP_TYPES_H
#define GRIP_TYPES_H

#include <stdbool.h>
#include <stdint.h>

/* π, for the angles (rad) throughout the API. */
#define GRIP_PI 3.14159265358979323846

/* Marks the library's public functions: the only symbols libgrip.so exports (everything else is
 * built with hidden visibility, so an embedder's own `vehicle_step` cannot clash with grip's). */
#if defined(_WIN32) && defined(GRIP_BUILDING_SHARED)
#define GRIP_API __declspec(dllexport)
#elif defined(_WIN32) && defined(GRIP_USING_SHARED)
#define GRIP_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define GRIP_API __attribute__((visibility("default")))
#else
#define GRIP_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* A 3-vector; meaning and unit depend on the field (position m, velocity m/s, force N ...). */
typedef struct grip_vec3 {
  double x, y, z;
} grip_vec3;

/* A unit quaternion (w + xi + yj + zk) that rotates vehicle-frame vectors into the world frame. */
typedef struct grip_quat {
  double w, x, y, z;
} grip_quat;

/* Position and orientation of a body. */
typedef struct grip_pose {
  grip_vec3 position;   /* m, world frame */
  grip_quat rotation;   /* vehicle frame -> world frame */
} grip_pose;

/* v (a vehicle-frame vector) rotated by q into the world frame; q need not be normalised
 * beyond what a pose holds. */
GRIP_API grip_vec3 grip_quat_rotate(grip_quat q, grip_vec3 v);

/* A point given in a body's frame (m) as a world point (m): pose.position + R·p. */
GRIP_API grip_vec3 grip_pose_transform(grip_pose pose, grip_vec3 p);

/* An opaque generational handle to a vehicle in a world. A destroyed vehicle's id stays
 * invalid even when its slot is reused. */
typedef struct grip_vehicle_id {
  uint32_t index;      /* slot + 1; 0 means null */
  uint32_t generation; /* bumped each time the slot is reused */
} grip_vehicle_id;

#define GRIP_NULL_VEHICLE ((grip_vehicle_id){0, 0})

/* Status returned by calls that can reject their arguments. */
typedef enum grip_result {
  GRIP_OK = 0,
  GRIP_INVALID_ARGUMENT, /* NaN, inf, or out of the documented range; nothing was changed */
  GRIP_INVALID_ID,       /* the handle does not name a live vehicle */
  GRIP_OUT_OF_MEMORY,
} grip_result;

#ifdef __cplusplus
}
#endif
#endif
