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

/* A ray hit on the ground. In a world whose ground moves (grip_world_def.moving_ground) grip
 * sets velocity to zero and body to NULL before every raycast it makes, so the callback fills
 * them only where something moves; in any other world grip ignores them. */
typedef struct grip_ground_hit {
  grip_vec3 point;   /* m, world frame */
  grip_vec3 normal;  /* unit, world frame, pointing out of the ground */
  double distance;   /* m, from the ray origin along the ray */
  grip_surface surface;
  /* m/s, world frame: the ground's own velocity at point (a lift, a ferry, a moving platform:
   * v + ω × (point − its centre of mass) for a rigid body); finite (a non-finite one trips the
   * step's safety net, which puts the car back at rest). Tyre slip is measured relative to it.
   * Zero for the grounds grip ships (plane, slope, heightfield, track). */
  grip_vec3 velocity;
  /* The caller's handle for what was hit (its rigid body, say), opaque to grip, handed back with
   * each wheel's force in forces mode (grip_wheel_force.ground_body) so that the game can push
   * back on it. NULL for the grounds grip ships. */
  void *body;
} grip_ground_hit;

/* Which vehicle and wheel asks the ground, and an int the ground may keep for that wheel.
 * grip passes one with every raycast and barrier query it makes; a query not made for a vehicle
 * (grip_vehicle_place, a tool's own call) has user_data NULL, wheel GRIP_GROUND_QUERY_BODY and
 * hint NULL. A ground that keeps what it found last (a track keeps its last segment) keeps it
 * in *hint, never in its context: each vehicle is stepped by one thread at a time, so the
 * answers then depend neither on the order vehicles are stepped in nor on the thread count. */
typedef struct grip_ground_query {
  void *user_data; /* the asking vehicle's grip_vehicle_def.user_data; NULL for none */
  int wheel;       /* the wheel's index for a wheel's ray (grip/vehicle.h: axle by axle, left
                      before right; a car's 0..3 are front left, front right, rear left, rear
                      right); GRIP_GROUND_QUERY_BODY for the chassis box, the walls and the
                      airborne test */
  int *hint;       /* the ground's own int for this vehicle and wheel: -1 when the vehicle is
                      created or placed (grip_vehicle_set_pose), then whatever the ground wrote;
                      NULL when no vehicle asks */
  /* Where this wheel's ray met the ground at the last step: a starting guess for a ground that
   * finds its hit by iteration (the track starts from this tangent plane and usually settles in
   * one pass instead of two; the plane and the heightfield ignore it). The hit must not depend
   * on it beyond the ground's own tolerance. has_last_hit is false for the chassis's queries, for
   * a wheel that was in the air, and after the vehicle is created or placed. */
  bool has_last_hit;
  grip_vec3 last_point;  /* m, world frame: the last hit's point */
  grip_vec3 last_normal; /* unit, world frame: the ground's normal there */
} grip_ground_query;

/* grip_ground_query.wheel for queries made for the chassis rather than a wheel. */
#define GRIP_GROUND_QUERY_BODY (-1)

/* A query from no vehicle (user_data NULL, body, no hint). */
GRIP_API grip_ground_query grip_no_vehicle_query(void);

/* Casts a ray from origin along the unit vector direction, up to max_distance (m). Returns true
 * and fills *hit for the first hit; false for none. query says who asks (never NULL when grip
 * calls; the grounds grip ships also take NULL, as no vehicle). Must be thread-safe for
 * concurrent calls for different vehicles when the world steps vehicles on several threads. */
typedef bool grip_raycast_fn(void *context, const grip_ground_query *query, grip_vec3 origin,
                             grip_vec3 direction, double max_distance, grip_ground_hit *hit);

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
GRIP_API bool grip_plane_raycast(void *plane, const grip_ground_query *query, grip_vec3 origin,
                                 grip_vec3 direction, double max_distance, grip_ground_hit *hit);

/* ---- Barriers (walls the chassis collides with) ------------------------------------------ */

/* The nearest wall as seen from a horizontal position. Walls are vertical: each reaches from
 * below the ground up to its top. */
typedef struct grip_barrier_hit {
  double distance;  /* m, horizontal distance from the point to the wall: > 0 on the free side,
                       < 0 beyond (inside or behind) the wall */
  grip_vec3 normal; /* unit, horizontal, pointing from the wall into the free side */
  double top;       /* m, world z of the wall's top edge; the wall has no bottom */
} grip_barrier_hit;

/* Fills *hit for the wall nearest to (x, y) (m, world); false when there is none near. query
 * says who asks, as for grip_raycast_fn (grip asks for the chassis: wheel
 * GRIP_GROUND_QUERY_BODY). Must be thread-safe like grip_raycast_fn. grip asks first at a car's
 * centre of mass and looks no further when the distance exceeds what its box reaches (plus the
 * step's travel and 0.1 m): the distance must not exceed the distance to any wall within that
 * reach (docs/physics.md, "Walls"). */
typedef bool grip_barrier_fn(void *context, const grip_ground_query *query, double x, double y,
                             grip_barrier_hit *hit);

typedef struct grip_barrier {
  grip_barrier_fn *query; /* NULL: no walls */
  void *context;          /* passed back to query; owned by the caller */
  /* m per m: at most how fast query's distance shrinks as (x, y) moves, where it is under
   * ~15 m; 1 for a true distance to the nearest wall, 4 for a track's barriers
   * (grip_track_barriers). With it, grip keeps the distance found at a car's centre of mass and
   * asks again only once the car may have come within reach of a wall (walls that stand still:
   * not in a world with moving_ground). 0 (the default): grip asks at every step. */
  double distance_rate;
} grip_barrier;

#ifdef __cplusplus
}
#endif
#endif
