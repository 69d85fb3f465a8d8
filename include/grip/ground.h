/* grip: the ground interface. Each wheel asks the ground for a hit along a ray; a game plugs in
 * its own world through grip_ground.raycast, and grip ships an infinite plane (here) plus a
 * heightfield and a track surface (their own headers). */
#ifndef GRIP_GROUND_H
#define GRIP_GROUND_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a surface does to a tyre. */
typedef struct grip_surface {
  double friction;           /* friction multiplier on the tyre's mu, 1 = dry tarmac; grass ~0.6 */
  double rolling_resistance; /* rolling-resistance coefficient f (F = f·Fz), tarmac ~0.012 */
  double roughness_amplitude;  /* m, height of sinusoidal bumps, 0 = smooth; gravel ~0.02 */
  double roughness_wavelength; /* m, wavelength of those bumps, e.g. 1.5 */
  int id;                      /* caller's surface index (for sounds, telemetry); 0 default */
} grip_surface;

/* Dry asphalt: friction 1, rolling resistance 0.012, smooth. */
GRIP_API grip_surface grip_default_surface(void);

/* A ray hit on the ground. */
typedef struct grip_ground_hit {
  grip_vec3 point;   /* m, world frame */
  grip_vec3 normal;  /* unit, world frame, pointing out of the ground */
  double distance;   /* m, from the ray origin along the ray */
  grip_surface surface;
} grip_ground_hit;

/* Casts a ray from origin along the unit vector direction, up to max_distance (m). Returns true
 * and fills *hit for the first hit; false for none. Must be thread-safe for concurrent reads
 * when the world steps vehicles on several threads. */
typedef bool grip_raycast_fn(void *context, grip_vec3 origin, grip_vec3 direction,
                             double max_distance, grip_ground_hit *hit);

typedef struct grip_ground {
  grip_raycast_fn *raycast; /* NULL: no ground (the car falls) */
  void *context;            /* passed back to raycast; owned by the caller */
} grip_ground;

/* An infinite plane n·x = offset. */
typedef struct grip_plane {
  grip_vec3 normal; /* unit normal; (0,0,1) is flat ground */
  double offset;    /* m, signed distance of the plane from the origin along normal */
  grip_surface surface;
} grip_plane;

/* Flat ground at z = 0 with the default surface. */
GRIP_API grip_plane grip_default_plane(void);

/* A plane through the origin rising along +x with the given grade (rise/run, 0.3 = 30 %). */
GRIP_API grip_plane grip_slope_plane(double grade_x, double grade_y);

/* A ground that uses *plane (which must outlive it). */
GRIP_API grip_ground grip_plane_ground(const grip_plane *plane);

/* The raycast used by grip_plane_ground, exposed so other grounds can fall back on it. */
GRIP_API bool grip_plane_raycast(void *plane, grip_vec3 origin, grip_vec3 direction, double max_distance,
                        grip_ground_hit *hit);

/* ---- Barriers (walls the chassis collides with) ------------------------------------------ */

/* The nearest wall as seen from a horizontal position. Walls are vertical: each reaches from
 * below the ground up to its top. */
typedef struct grip_barrier_hit {
  double distance;  /* m, horizontal distance from the point to the wall: > 0 on the free side,
                       < 0 beyond (inside or behind) the wall */
  grip_vec3 normal; /* unit, horizontal, pointing from the wall into the free side */
  double top;       /* m, world z of the wall's top edge; the wall has no bottom */
} grip_barrier_hit;

/* Fills *hit for the wall nearest to (x, y) (m, world); false when there is none near. Must be
 * thread-safe for concurrent reads (like grip_raycast_fn). */
typedef bool grip_barrier_fn(void *context, double x, double y, grip_barrier_hit *hit);

typedef struct grip_barrier {
  grip_barrier_fn *query; /* NULL: no walls */
  void *context;          /* passed back to query; owned by the caller */
} grip_barrier;

#ifdef __cplusplus
}
#endif
#endif
