/* grip: race tracks. A track is a closed chain of segments (straights, circular arcs and arcs
 * whose radius changes linearly with the turned angle), each with its own road width, height
 * profile (cubic Hermite along the centre line), banking, surfaces and, on each side, a kerb
 * strip, a run-off strip and a barrier at the run-off's outer edge.
 *
 * Conventions (docs/tracks.md):
 * - World frame z up, right-handed; headings are measured from +x counter-clockwise (rad).
 * - Distances along the track are horizontal (plan) lengths of the centre line, from the start
 *   of segment 0, in [0, length).
 * - Lateral offsets are measured in the plan along the centre line's left normal: + left.
 * - Banking > 0 raises the left edge: the cross slope is tan(banking) (m of rise per m to the
 *   left).
 *
 * Building allocates once; every query afterwards is allocation-free and thread-safe (queries
 * only read the track). */
#ifndef GRIP_TRACK_H
#define GRIP_TRACK_H

#include "ground.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum grip_track_segment_type {
  GRIP_TRACK_STRAIGHT = 0,
  GRIP_TRACK_LEFT = 1,  /* arc turning left (counter-clockwise seen from above) */
  GRIP_TRACK_RIGHT = 2, /* arc turning right */
} grip_track_segment_type;

/* Index into grip_track_segment_def.side[]. */
enum { GRIP_TRACK_SIDE_RIGHT = 0, GRIP_TRACK_SIDE_LEFT = 1 };

/* Which strip a point lies on, from the centre line outwards. */
typedef enum grip_track_zone {
  GRIP_TRACK_ZONE_ROAD = 0,
  GRIP_TRACK_ZONE_KERB = 1,
  GRIP_TRACK_ZONE_RUNOFF = 2,
  GRIP_TRACK_ZONE_OUTSIDE = 3, /* beyond the barrier */
} grip_track_zone;

/* One side of a segment: road edge | kerb | run-off | barrier. */
typedef struct grip_track_side_def {
  double kerb_width;          /* m, strip next to the road edge, constant along the segment; 1.0 */
  double runoff_width_start;  /* m, run-off strip beyond the kerb at the segment start; 8 */
  double runoff_width_end;    /* m, the same at the segment end (linear in between); 8 */
  bool banked;                /* true: kerb and run-off continue the road's cross slope (TORCS
                                 "tangent"); false: they stay level at the road edge's height */
  grip_surface kerb_surface;   /* surface of the kerb; friction ~1.0 */
  grip_surface runoff_surface; /* surface of the run-off; grass ~0.6, sand ~0.5 */
  double barrier_height;       /* m, height of the wall at the run-off's outer edge; 1.0 */
} grip_track_side_def;

/* One segment as written in a track file. Heights and cross slopes are cubic Hermite curves
 * in the distance along the segment; give slope_start = slope_end = (z_end - z_start)/length
 * for a constant grade. */
typedef struct grip_track_segment_def {
  grip_track_segment_type type;
  double length;      /* m, straights only: plan length; 250 */
  double radius;      /* m, arcs only: centre-line radius at the start; 80 */
  double end_radius;  /* m, arcs only: centre-line radius at the end, = radius for a circular
                         arc; the radius changes linearly with the turned angle */
  double angle;       /* rad, arcs only: angle turned, > 0; pi/2 */
  double width_start; /* m, road width at the start (linear to width_end); 12 */
  double width_end;   /* m, road width at the end; 12 */
  double z_start;     /* m, centre-line height at the start; 0 */
  double z_end;       /* m, centre-line height at the end; 2 */
  double slope_start; /* 1 (dz/ds), centre-line slope at the start; 0.02 = 2 % */
  double slope_end;   /* 1 (dz/ds), centre-line slope at the end */
  double cross_start; /* 1, tan(banking) at the start, + = left edge higher; 0.05 */
  double cross_end;   /* 1, tan(banking) at the end */
  double cross_rate_start; /* 1/m, d(cross)/ds at the start; (cross_end-cross_start)/length
                              for a linear change */
  double cross_rate_end;   /* 1/m, d(cross)/ds at the end */
  grip_surface surface;    /* road surface; dry asphalt friction 1.0 */
  grip_track_side_def side[2]; /* [GRIP_TRACK_SIDE_RIGHT], [GRIP_TRACK_SIDE_LEFT] */
} grip_track_segment_def;

/* A whole track: the segments in driving order. The chain is expected to close (the last
 * segment ends where the first starts); grip_track_stats reports how far it misses. */
typedef struct grip_track_def {
  const grip_track_segment_def *segments; /* segment_count entries, copied by grip_track_build */
  int segment_count;                      /* >= 1; a circle is 4 arcs of 90 degrees */
  grip_vec3 start_position; /* m, world position of the centre line at distance 0; (0,0,0) */
  double start_heading;     /* rad, heading at distance 0, from +x counter-clockwise; 0 */
} grip_track_def;

/* A straight 100 m segment, 12 m wide, flat, asphalt, 1 m kerbs, 8 m grass run-off, 1 m
 * barriers: a base to edit. */
GRIP_API grip_track_segment_def grip_default_track_segment_def(void);

typedef struct grip_track grip_track; /* opaque, built by grip_track_build */

/* Validates def (finite values, lengths/radii/angles/widths > 0, strips >= 0) and builds the
 * track. GRIP_INVALID_ARGUMENT leaves *out NULL; GRIP_OUT_OF_MEMORY likewise. */
GRIP_API grip_result grip_track_build(const grip_track_def *def, grip_track **out);
GRIP_API void grip_track_destroy(grip_track *track);

GRIP_API int grip_track_segment_count(const grip_track *track);
/* The segment's definition as built; NULL when index is out of range. */
GRIP_API const grip_track_segment_def *grip_track_segment(const grip_track *track, int index);
/* m, distance along the centre line where segment index starts. */
GRIP_API double grip_track_segment_start(const grip_track *track, int index);
/* m, centre-line length of the whole track. */
GRIP_API double grip_track_length(const grip_track *track);

/* Figures of a built track. */
typedef struct grip_track_stats {
  double length;          /* m, centre-line length; 7041.7 for TORCS e-track-4 */
  double width;           /* m, road width at distance 0; 15 */
  int segments;           /* number of segments */
  double min_radius;      /* m, smallest centre-line radius; INFINITY without arcs */
  double z_min, z_max;    /* m, lowest and highest centre-line height */
  grip_vec3 closure;      /* m, end point of the last segment minus the start point; ~0 */
  double closure_error;   /* m, |closure| */
  double heading_closure; /* rad, end heading minus start heading, wrapped to (-pi, pi] */
  double x_min, x_max, y_min, y_max; /* m, plan bounding box of the centre line */
} grip_track_stats;

GRIP_API grip_track_stats grip_track_get_stats(const grip_track *track);

/* A track is closed when its last segment ends within the smaller of GRIP_TRACK_CLOSURE_ABS
 * and GRIP_TRACK_CLOSURE_REL times its length of its start: the loaders refuse a larger gap,
 * and the walls of a closed track are looked at across its start line (grip_track_barriers). */
#define GRIP_TRACK_CLOSURE_ABS 5.0  /* m */
#define GRIP_TRACK_CLOSURE_REL 0.01 /* of the length */

/* The centre line at a distance along the track. */
typedef struct grip_track_point {
  int segment;        /* index of the segment holding the point */
  double distance;    /* m, the distance asked for, wrapped into [0, length) */
  grip_vec3 position; /* m, world position of the centre line (z = its height) */
  double heading;     /* rad, direction of travel from +x counter-clockwise */
  double curvature;   /* 1/m, + turning left; 1/80 on an 80 m left arc */
  double width;       /* m, road width; 12 */
  double banking;     /* rad, + = left edge higher; 0.05 */
  double slope;       /* 1 (dz/ds), centre-line grade; 0.02 */
} grip_track_point;

/* Wraps distance into [0, length) (any finite value; non-finite gives distance 0). */
GRIP_API grip_track_point grip_track_point_at(const grip_track *track, double distance);

/* Where a world (x, y) lies on the track. */
typedef struct grip_track_location {
  int segment;           /* index of the segment the point projects onto */
  double distance;       /* m, distance along the centre line, [0, length) */
  double lateral;        /* m, offset from the centre line, + left */
  double z;              /* m, height of the track surface at (x, y) */
  grip_vec3 normal;      /* unit, world frame, out of the surface */
  grip_track_zone zone;  /* road, kerb, run-off or outside (beyond the barrier) */
  bool on_track;         /* zone != GRIP_TRACK_ZONE_OUTSIDE: inside the barriers */
  grip_surface surface;  /* surface of the zone (outside: that of the outermost strip) */
} grip_track_location;

/* Locates (x, y). hint is a segment index from a previous call (or -1): the search walks to
 * neighbours from it (amortised O(1) for a moving car) and falls back to a full search when the
 * walk does not end inside the barriers. A hint whose segment lies more than 50 m beyond its
 * barriers' reach from (x, y) (a car that jumped, or a hint from elsewhere) is replaced by the nearest segment of the point's
 * cell in the track's search grid. The full search looks only at the segments listed in that
 * cell (exactly the exhaustive answer), so neither costs O(segments). Beyond the barrier the surface continues flat at the
 * height of the barrier's foot (normal straight up). */
GRIP_API grip_track_location grip_track_locate(const grip_track *track, double x, double y, int hint);
/* Where (x, y) lies along the track: the segment, distance and lateral of grip_track_locate
 * (bit for bit, from the same hint), without the height, normal, zone and surface: about half
 * its cost (192 against 368 instructions in a race on e-track-4; no square root or division
 * after the projection). For progress along the track at every step: lap timing, a robot's or
 * an agent's position between its decisions. */
typedef struct grip_track_progress {
  int segment;     /* index of the segment the point projects onto */
  double distance; /* m, distance along the centre line, [0, length) */
  double lateral;  /* m, offset from the centre line, + left */
} grip_track_progress;
GRIP_API grip_track_progress grip_track_locate_progress(const grip_track *track, double x, double y, int hint);

/* The same answer by the exhaustive search: the segment whose projection is nearest (smallest
 * |lateral| where the point projects within a segment, hypot(distance beyond the end, lateral)
 * where beyond; a spiral adds how far its projection misses the point along the tangent: see
 * docs/tracks.md, "The search grid"; lowest index on ties). Through the track's search grid, so
 * O(segments) only for a point farther than the barriers' reach from every segment, or on a
 * track that gets no grid (an arc tighter than a fifteenth of that reach, or too many list
 * entries). */
GRIP_API grip_track_location grip_track_locate_full(const grip_track *track, double x, double y);

/* A barrier as seen from a point. */
typedef struct grip_track_barrier {
  double distance;  /* m, from the point to the barrier, > 0 inside, < 0 beyond it; first order
                       in the barrier's slant when the strips change width (docs/tracks.md) */
  grip_vec3 normal; /* unit, horizontal, the barrier's normal pointing into the track */
  double height;    /* m, wall height */
  double lateral;   /* m, lateral offset of the barrier's foot (+ left) */
} grip_track_barrier;

/* The barrier on one side (GRIP_TRACK_SIDE_LEFT or _RIGHT) at a located point. */
GRIP_API grip_track_barrier grip_track_barrier_at(const grip_track *track, const grip_track_location *loc,
                                         int side);

/* The ground adapter: rays (near vertical, pointing down) hit the track surface; see
 * grip_track_locate for the surface beyond the barriers. The segment found last for a vehicle's
 * wheel (or its chassis) is kept in that query's hint (grip_ground_query), so a wheel's next
 * locate walks from its own segment: on a track crossing itself (a bridge) each wheel stays on
 * the level it is on, whatever the other cars do, and concurrent queries share nothing
 * mutable. A query without a hint searches from the grid (grip_track_locate with hint -1). */
typedef struct grip_track_ground_context {
  const grip_track *track; /* must outlive the ground */
} grip_track_ground_context;

/* Fills *context and returns a ground that raycasts against the track. */
GRIP_API grip_ground grip_track_ground(grip_track_ground_context *context, const grip_track *track);

/* The raycast used by grip_track_ground (context is a grip_track_ground_context). */
GRIP_API bool grip_track_raycast(void *context, const grip_ground_query *query, grip_vec3 origin,
                                 grip_vec3 direction, double max_distance, grip_ground_hit *hit);

/* The barrier adapter for the world (grip_world_set_barrier): the wall on the side of the
 * centre line where (x, y) lies, the nearest piece of it within 15 m along the track (a run-off
 * that ends ahead in a taper or a step), or, from the free side, the other side's wall where
 * that is nearer (docs/tracks.md, "Walls beyond the segment"); top = height of the track
 * surface at the barrier's foot + barrier_height. May share its context with
 * grip_track_ground. */
GRIP_API grip_barrier grip_track_barriers(grip_track_ground_context *context, const grip_track *track);

/* The query used by grip_track_barriers (context is a grip_track_ground_context). */
GRIP_API bool grip_track_barrier_query(void *context, const grip_ground_query *query, double x, double y,
                                       grip_barrier_hit *hit);

#ifdef __cplusplus
}
#endif
#endif
