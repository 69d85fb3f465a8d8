/* Race tracks: a closed chain of straights and arcs (constant or linearly changing radius),
 * built once, then located into with (distance along, lateral offset) queries. */
#include "grip/track.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gmath.h"
#include "ground_flat.h"
#include "track_search.h"
#include "isa.h"

/* Steps a hint walk takes before giving up and searching every segment. */
#define TRACK_WALK_STEPS 12
/* m: a hint whose segment lies further than this beyond the point's reach is not walked from. */
#define TRACK_HINT_SLACK 50.0
/* Plane passes of a ray at most, and the horizontal move (m) of a pass below which the ray has
 * settled (grip_track_raycast). */
#define RAY_PASSES 4
#define RAY_SETTLED GROUND_FLAT_SETTLED /* ground_flat.h */
/* rad: the barrier's tangent line stands for the barrier while the centre line's frame has
 * turned by less than this from the point's own (barrier_from). */
#define BARRIER_TANGENT_TURN 0.5
/* The floor of the (u, t) grid's stretch 1 − kappa·t along an arc at offset t: at and beyond the
 * arc's centre (t = 1/kappa) the grid folds, and a point there is taken as if just short of it. */
#define MIN_STRETCH 0.05
/* m: how far along the track beyond its own segment's ends a barrier query looks for a barrier
 * that comes inward (a run-off that ends in a taper or a step): more than any car's box reaches
 * from its centre of mass, plus a step's travel (the walls' first test in collision.c). */
#define BARRIER_LOOK 15.0
/* m: a barrier that comes inward (or goes outward) by less than this within BARRIER_LOOK is not
 * looked at */
#define BARRIER_NARROWING 1e-3

/* A built segment: the definition plus its placement. */
typedef struct track_seg {
  grip_track_segment_def def;
  double s0;        /* m, distance along the track where it starts */
  double len;       /* m, plan length */
  double x0, y0;    /* m, start point */
  double psi0;      /* rad, start heading */
  double dir;       /* +1 left, -1 right, 0 straight */
  double a, b;      /* arcs: radius at the start (m) and its change per radian turned (m/rad) */
  double theta;     /* rad, angle turned */
  double cx, cy;    /* m, centre of a circular arc (b == 0); of a spiral's osculating circle at
                       its middle */
  /* Precomputed for the queries, so that a query needs no trigonometry (gmath.h's series_atan2
   * on arcs): */
  double cos0, sin0;     /* cos and sin of psi0 */
  double rsx, rsy;       /* arcs: dir·(sin, -cos) of the heading at the start, the unit vector
                            from a circular arc's centre to its start point */
  double rex, rey;       /* ... at the end */
  double rmx, rmy;       /* ... at the middle (a spiral's from its cx, cy) */
  double spiral_f0[2];   /* m, spirals: F(0) of arc_point */
  double phi_lo, phi_hi; /* rad, spirals: the angles turned within which the projection's
                            Newton stays (the radius kept positive) */
  double z[4], cross[4]; /* the Hermite height and cross-slope curves as cubics in v = u/len */
  double dw;             /* d(width)/du */
  double inv_len;        /* 1/m, 1 / len: the queries multiply instead of dividing */
  double arc_kappa;      /* 1/m, circular arcs: dir / a, the centre line's curvature (0 otherwise) */
  double run0[2], drun[2]; /* run-off width at the start and d/du, per side */
  /* m, the barrier's lateral offset (reach) at u = 0 and u = len, per side */
  double reach_start[2], reach_end[2];
  /* per side: within BARRIER_LOOK beyond this segment's end (start), the barrier comes inward of
   * where it stands at that end (narrows), or goes outward (widens), by a taper or a step
   * between segments (barrier_beyond) */
  bool narrows_ahead[2], narrows_behind[2], widens_ahead[2], widens_behind[2];
} track_seg;

/* The search without a (useful) hint goes through a uniform grid over the plan: each cell lists
 * (ascending) the segments whose score (locate_full's measure: |lateral|, or the distance beyond
 * an end) can be at most grid_reach anywhere in the cell. A candidate scoring at most
 * grid_reach is then the exhaustive search's answer: every segment not listed scores more. */
typedef struct track_grid {
  bool ok;           /* false: no grid (an arc too tight, too many list entries, or memory):
                        the search tries every segment */
  double x0, y0;     /* m, corner of cell (0, 0) */
  double cell;       /* m, cell side */
  int nx, ny;
  double reach;      /* m, the score up to which the lists are complete */
  int *start;        /* nx·ny + 1 offsets into items */
  int *items;        /* segment indices */
} track_grid;

struct grip_track {
  int count;
  double length;
  track_seg *seg;
  double z0; /* m, start height */
  grip_vec3 end;
  double end_heading;
  track_grid grid;
  bool closed;       /* the last segment ends near the first one's start (GRIP_TRACK_CLOSURE_ABS) */
  double *circle;    /* per segment (CIRCLE_STRIDE): x, y, radius of a circle holding its plan up to
                        its barriers; radius of one holding its centre line; k such that its
                        score is at least (distance to the centre line) / k (build_index) */
  struct track_flat *flat; /* per segment: the flatness a ray's hit on it vouches for; NULL: none */
};

grip_track_segment_def grip_default_track_segment_def(void) {
  grip_track_segment_def d;
  memset(&d, 0, sizeof d);
  d.type = GRIP_TRACK_STRAIGHT;
  d.length = 100.0;
  d.radius = d.end_radius = 100.0;
  d.angle = 0.5 * GRIP_PI;
  d.width_start = d.width_end = 12.0;
  d.surface = grip_default_surface();
  for (int s = 0; s < 2; ++s) {
    grip_track_side_def *side = &d.side[s];
    side->kerb_width = 1.0;
    side->runoff_width_start = side->runoff_width_end = 8.0;
    side->banked = false;
    side->kerb_surface = grip_default_surface();
    side->runoff_surface = grip_default_surface();
    side->runoff_surface.friction = 0.6;
    side->runoff_surface.rolling_resistance = 0.05;
    side->barrier_height = 1.0;
  }
  return d;
}

/* --- geometry of one segment ------------------------------------------------------------ */

/* The pieces of a query (projection, cross-section, location, barrier) and locate_at itself are
 * inlined into each query: with calls between them GCC passed the section and the frame through
 * memory, and a wheel's ray cost 633 instructions instead of 535 (e-track-4, car1-trb1). */
#define QUERY_INLINE static inline __attribute__((always_inline))

static double wrap_pi(double a) {
  a = fmod(a, 2.0 * GRIP_PI);
  if (a > GRIP_PI) a -= 2.0 * GRIP_PI;
  if (a <= -GRIP_PI) a += 2.0 * GRIP_PI;
  return a;
}

/* Angle turned after a local distance u on an arc (radius a + b·phi). */
static double arc_theta(const track_seg *g, double u) {
  if (g->b == 0.0) return u / g->a;
  double disc = g->a * g->a + 2.0 * g->b * u;
  if (disc < 0.0) disc = 0.0;
  return 2.0 * u / (g->a + sqrt(disc)); /* root of a·th + b·th²/2 = u, stable for b -> 0 */
}

/* Plan position of an arc after turning phi: P0 + F(phi) - F(0), with
 * F(phi) = ((a+b·phi)·d·sin(psi) + b·cos(psi), -(a+b·phi)·d·cos(psi) + b·sin(psi)),
 * psi = psi0 + d·phi (integral of r(phi)·(cos psi, sin psi) dphi). */
static void arc_point(const track_seg *g, double phi, double *x, double *y) {
  double d = g->dir, r = g->a + g->b * phi;
  double p1 = g->psi0 + d * phi, p0 = g->psi0;
  double fx1 = r * d * sin(p1) + g->b * cos(p1), fy1 = -r * d * cos(p1) + g->b * sin(p1);
  double fx0 = g->a * d * sin(p0) + g->b * cos(p0), fy0 = -g->a * d * cos(p0) + g->b * sin(p0);
  *x = g->x0 + fx1 - fx0;
  *y = g->y0 + fy1 - fy0;
}

/* Centre-line plan position, heading and curvature at local distance u. */
static void seg_eval(const track_seg *g, double u, double *x, double *y, double *psi,
                     double *kappa) {
  if (g->dir == 0.0) {
    *x = g->x0 + u * cos(g->psi0);
    *y = g->y0 + u * sin(g->psi0);
    *psi = g->psi0;
    *kappa = 0.0;
    return;
  }
  double th = arc_theta(g, u);
  arc_point(g, th, x, y);
  *psi = g->psi0 + g->dir * th;
  *kappa = g->dir / (g->a + g->b * th);
}

/* A spiral arc's plan point after turning phi, as arc_point, and the cosine and sine of its
 * heading psi0 + dir·phi, with no libm: that heading is the middle's turned by dir·(phi − θ/2),
 * and the middle's is dir·(-rmy, rmx). F(0) is the precomputed spiral_f0. */
static inline void spiral_point(const track_seg *g, double phi, double *x, double *y, double *c,
                                double *s) {
  double d = g->dir, r = g->a + g->b * phi, sd, cd;
  series_sincos(d * (phi - 0.5 * g->theta), &sd, &cd);
  double cm = -d * g->rmy, sm = d * g->rmx;
  *c = cm * cd - sm * sd;
  *s = sm * cd + cm * sd;
  *x = g->x0 + (r * d * *s + g->b * *c) - g->spiral_f0[0];
  *y = g->y0 + (-r * d * *c + g->b * *s) - g->spiral_f0[1];
}

/* The centre line's direction and curvature at a located point (at its local distance clamped
 * to [0, len]). */
typedef struct seg_frame {
  double c, s;  /* cos and sin of the heading */
  double kappa; /* 1/m, curvature */
} seg_frame;

/* Projects (x, y) onto the segment's centre line: local distance u (outside [0, len] when the
 * point lies before or after the segment) and lateral offset t (+ left); *frame (or NULL) gets
 * the centre line's direction at u clamped to [0, len]. Straights need no trigonometry and
 * circular arcs one series_atan2 (gmath.h, no libm): their direction at the point is that of
 * the radius through it. *miss (or NULL) gets how far the point lies off the normal at u, along
 * the tangent (m): 0 but where a spiral's Newton stops at its bounds, or short of converging. */
QUERY_INLINE void seg_project_miss(const track_seg *g, double x, double y, double *u, double *t, seg_frame *frame,
                                   double *miss) {
  if (miss) *miss = 0.0;
  if (g->dir == 0.0) {
    double c = g->cos0, s = g->sin0, dx = x - g->x0, dy = y - g->y0;
    *u = dx * c + dy * s;
    *t = -dx * s + dy * c;
    if (frame) *frame = (seg_frame){c, s, 0.0};
    return;
  }
  if (g->b == 0.0) {
    double vx = x - g->cx, vy = y - g->cy;
    double rho = sqrt(vx * vx + vy * vy);
    /* the angle turned, measured from the middle of the arc so that points before the start
     * come out negative: th = theta/2 + dir·angle(r_mid, v), in (-pi, pi] around the middle */
    double th = 0.5 * g->theta +
                g->dir * series_atan2(g->rmx * vy - g->rmy * vx, g->rmx * vx + g->rmy * vy);
    *u = g->a * th;
    *t = g->dir * (g->a - rho);
    if (frame) {
      /* radius direction r at the clamped point; heading (cos, sin) = dir·(-r_y, r_x) */
      double rx, ry;
      if (*u <= 0.0 || !(rho > 0.0)) {
        rx = *u <= 0.0 ? g->rsx : g->rmx;
        ry = *u <= 0.0 ? g->rsy : g->rmy;
      } else if (*u >= g->len) {
        rx = g->rex;
        ry = g->rey;
      } else {
        double inv_rho = 1.0 / rho;
        rx = vx * inv_rho;
        ry = vy * inv_rho;
      }
      *frame = (seg_frame){-g->dir * ry, g->dir * rx, g->arc_kappa};
    }
    return;
  }
  /* Spiral arc: Newton on f(phi) = (P - C(phi))·T(phi) = 0, from the osculating circle at the
   * middle of the arc (its centre cx, cy; rmx, rmy the unit vector from it to the middle). */
  double d = g->dir, half = 0.5 * g->theta;
  double vx = x - g->cx, vy = y - g->cy;
  double phi = half + d * series_atan2(g->rmx * vy - g->rmy * vx, g->rmx * vx + g->rmy * vy);
  double px = 0.0, py = 0.0, c = 1.0, s = 0.0;
  for (int it = 0; it < 30; ++it) {
    phi = clampd(phi, g->phi_lo, g->phi_hi);
    spiral_point(g, phi, &px, &py, &c, &s);
    double ex = x - px, ey = y - py;
    double f = ex * c + ey * s;
    double fp = -(g->a + g->b * phi) + d * (-ex * s + ey * c);
    if (fabs(fp) < 1e-9) break;
    double step = f / fp;
    phi -= step;
    if (fabs(step) < 1e-13) break;
  }
  phi = clampd(phi, g->phi_lo, g->phi_hi);
  spiral_point(g, phi, &px, &py, &c, &s);
  *u = g->a * phi + 0.5 * g->b * phi * phi;
  *t = -(x - px) * s + (y - py) * c;
  if (miss) *miss = (x - px) * c + (y - py) * s;
  if (frame) {
    /* the heading at the clamped point; (cos, sin) = dir·(-r_y, r_x) at the ends */
    if (*u <= 0.0) *frame = (seg_frame){g->cos0, g->sin0, d / g->a};
    else if (*u >= g->len) *frame = (seg_frame){-d * g->rey, d * g->rex, d / (g->a + g->b * g->theta)};
    else *frame = (seg_frame){c, s, d / (g->a + g->b * phi)};
  }
}

QUERY_INLINE void seg_project(const track_seg *g, double x, double y, double *u, double *t, seg_frame *frame) {
  seg_project_miss(g, x, y, u, t, frame, NULL);
}

/* Cross-section data at local distance u. */
typedef struct section {
  double zc, dzc;   /* centre height and dz/du */
  double g, dg;     /* cross slope and d/du */
  double w, dw;     /* road width and d/du */
  double reach[2];  /* lateral reach of the barrier foot, per side (>= 0) */
  double dreach[2]; /* d/du of reach */
} section;

/* The road's width at v = u / len. */
QUERY_INLINE double section_width(const track_seg *g, double v) {
  return g->def.width_start + (g->def.width_end - g->def.width_start) * v;
}

/* The centre line's height, the cross slope and the road's width at v = u / len, with their
 * rates along u. */
QUERY_INLINE void section_centre(const track_seg *g, double v, section *c) {
  /* the Hermite curves in power form (hermite_power) */
  c->zc = g->z[0] + v * (g->z[1] + v * (g->z[2] + v * g->z[3]));
  c->dzc = (g->z[1] + v * (2.0 * g->z[2] + v * 3.0 * g->z[3])) * g->inv_len;
  c->g = g->cross[0] + v * (g->cross[1] + v * (g->cross[2] + v * g->cross[3]));
  c->dg = (g->cross[1] + v * (2.0 * g->cross[2] + v * 3.0 * g->cross[3])) * g->inv_len;
  c->w = section_width(g, v);
  c->dw = g->dw;
}

/* Side s's reach at v (after section_centre, which gives the width), as far as a point at
 * |t| = at on that side needs it (INFINITY: the reach itself): the reach beyond the kerb's outer
 * edge; within it, that edge. A run-off is never negative (segment_ok), so the reach is at least
 * the edge, and at <= edge tells all that the point's zone and the barrier test need (finish
 * reads the reach only beyond the edge): a wheel on the road skips the run-off's width. The edge
 * is the reach's own first sum, so the reach has the same bits either way. */
QUERY_INLINE void section_reach(const track_seg *g, double v, section *c, int s, double at) {
  const grip_track_side_def *sd = &g->def.side[s];
  double edge = 0.5 * c->w + sd->kerb_width;
  if (at <= edge)
    c->reach[s] = edge;
  else
    c->reach[s] = edge + (g->run0[s] + (sd->runoff_width_end - sd->runoff_width_start) * v);
}

QUERY_INLINE double section_v(const track_seg *g, double u) {
  return clampd(u * g->inv_len, 0.0, 1.0); /* len > 0 (grip_track_build) */
}

QUERY_INLINE section seg_section(const track_seg *g, double u) {
  section c;
  double v = section_v(g, u);
  section_centre(g, v, &c);
  for (int s = 0; s < 2; ++s) {
    section_reach(g, v, &c, s, INFINITY);
    c.dreach[s] = 0.5 * c.dw + g->drun[s];
  }
  return c;
}

/* The part of seg_section a ray's location reads (finish with LOCATE_RAY) for a point at
 * lateral t: the centre, and the reach of t's side only as section_reach gives it for t; the other
 * reach and both dreach are left unset. The same values, computed as seg_section computes them. */
QUERY_INLINE void seg_section_side(const track_seg *g, double u, int s, double t, section *c) {
  double v = section_v(g, u);
  section_centre(g, v, c);
  section_reach(g, v, c, s, fabs(t));
}

/* Only the width and side s's reach as section_reach gives it for a point at lateral t: what
 * a progress locate's test against the barrier reads. */
QUERY_INLINE void seg_section_reach(const track_seg *g, double u, int s, double t, section *c) {
  double v = section_v(g, u);
  c->w = section_width(g, v);
  section_reach(g, v, c, s, fabs(t));
}

/* Cubic Hermite on v in [0,1] with end values p0, p1 and end derivatives m0, m1 (per unit v),
 * h(v) = (2v³ − 3v² + 1)·p0 + (v³ − 2v² + v)·m0 + (−2v³ + 3v²)·p1 + (v³ − v²)·m1, in power form
 * h(v) = k0 + k1·v + k2·v² + k3·v³ (Horner's rule then costs 3 multiply-adds). */
static void hermite_power(double p0, double p1, double m0, double m1, double k[4]) {
  k[0] = p0;
  k[1] = m0;
  k[2] = -3.0 * p0 - 2.0 * m0 + 3.0 * p1 - m1;
  k[3] = 2.0 * p0 + m0 - 2.0 * p1 + m1;
}

/* Fills what the queries use from a placed segment (start point, heading, arc parameters). */
static void prepare_queries(track_seg *g) {
  const grip_track_segment_def *d = &g->def;
  double L = g->len;
  g->cos0 = cos(g->psi0);
  g->sin0 = sin(g->psi0);
  if (g->dir != 0.0 && g->b != 0.0) {
    /* a spiral: the centre of the osculating circle at the middle (its radius rm), F(0) of
     * arc_point, and the bounds of seg_project's Newton (the radius kept positive) */
    double half = 0.5 * g->theta, mx, my, rm = g->a + g->b * half, pm = g->psi0 + g->dir * half;
    arc_point(g, half, &mx, &my);
    g->cx = mx - g->dir * rm * sin(pm);
    g->cy = my + g->dir * rm * cos(pm);
    g->spiral_f0[0] = g->a * g->dir * g->sin0 + g->b * g->cos0;
    g->spiral_f0[1] = -g->a * g->dir * g->cos0 + g->b * g->sin0;
    double rmin = 0.1 * fmin(g->a, g->a + g->b * g->theta);
    g->phi_lo = -0.5 * g->theta;
    g->phi_hi = 1.5 * g->theta;
    if (g->b > 0.0) g->phi_lo = fmax(g->phi_lo, (rmin - g->a) / g->b);
    if (g->b < 0.0) g->phi_hi = fmin(g->phi_hi, (rmin - g->a) / g->b);
  }
  if (g->dir != 0.0) {
    /* from the centre to the centre line: -dir·N(psi) = dir·(sin psi, -cos psi) */
    double pe = g->psi0 + g->dir * g->theta, pm = g->psi0 + g->dir * 0.5 * g->theta;
    g->rsx = g->dir * g->sin0;
    g->rsy = -g->dir * g->cos0;
    g->rex = g->dir * sin(pe);
    g->rey = -g->dir * cos(pe);
    g->rmx = g->dir * sin(pm);
    g->rmy = -g->dir * cos(pm);
  }
  hermite_power(d->z_start, d->z_end, d->slope_start * L, d->slope_end * L, g->z);
  hermite_power(d->cross_start, d->cross_end, d->cross_rate_start * L, d->cross_rate_end * L, g->cross);
  g->inv_len = 1.0 / L;
  g->arc_kappa = g->dir != 0.0 && g->b == 0.0 ? g->dir / g->a : 0.0;
  g->dw = (d->width_end - d->width_start) / L;
  for (int s = 0; s < 2; ++s) {
    const grip_track_side_def *sd = &d->side[s];
    g->run0[s] = sd->runoff_width_start;
    g->drun[s] = (sd->runoff_width_end - sd->runoff_width_start) / L;
  }
}

/* --- building ------------------------------------------------------------------------------ */

/* The neighbour of segment i in direction step (+1 next, -1 previous), or -1: past the last
 * segment only on a closed track. */
static int neighbour(const grip_track *t, int i, int step, bool closed) {
  int k = i + step;
  if (k >= 0 && k < t->count) return k;
  return closed ? (k < 0 ? t->count - 1 : 0) : -1;
}

/* Each segment's barrier offsets at its ends, and whether a barrier within BARRIER_LOOK beyond
 * an end comes inward of it there (x_end, y_end: where the last segment ends). */
static void prepare_barrier_look(grip_track *t, double x_end, double y_end) {
  double gap = hypot(x_end - t->seg[0].x0, y_end - t->seg[0].y0);
  bool closed = t->closed = gap <= fmin(GRIP_TRACK_CLOSURE_ABS, GRIP_TRACK_CLOSURE_REL * t->length);
  for (int i = 0; i < t->count; ++i) {
    track_seg *g = &t->seg[i];
    section a = seg_section(g, 0.0), b = seg_section(g, g->len);
    for (int sd = 0; sd < 2; ++sd) {
      g->reach_start[sd] = a.reach[sd];
      g->reach_end[sd] = b.reach[sd];
    }
  }
  for (int i = 0; i < t->count; ++i) {
    track_seg *g = &t->seg[i];
    for (int sd = 0; sd < 2; ++sd) {
      for (int step = -1; step <= 1; step += 2) {
        double at_end = step > 0 ? g->reach_end[sd] : g->reach_start[sd], along = 0.0;
        bool narrows = false, widens = false;
        for (int k = neighbour(t, i, step, closed); k >= 0 && k != i && along < BARRIER_LOOK;
             k = neighbour(t, k, step, closed)) {
          const track_seg *n = &t->seg[k];
          narrows = narrows || fmin(n->reach_start[sd], n->reach_end[sd]) < at_end - BARRIER_NARROWING;
          widens = widens || fmax(n->reach_start[sd], n->reach_end[sd]) > at_end + BARRIER_NARROWING;
          along += n->len;
        }
        if (step > 0) {
          g->narrows_ahead[sd] = narrows;
          g->widens_ahead[sd] = widens;
        } else {
          g->narrows_behind[sd] = narrows;
          g->widens_behind[sd] = widens;
        }
      }
    }
  }
}

static bool finite_nonneg(double x) { return isfinite(x) && x >= 0.0; }
static bool finite_pos(double x) { return isfinite(x) && x > 0.0; }

static bool surface_ok(const grip_surface *s) {
  return finite_nonneg(s->friction) && finite_nonneg(s->rolling_resistance) &&
         finite_nonneg(s->roughness_amplitude) && finite_pos(s->roughness_wavelength);
}

static bool segment_ok(const grip_track_segment_def *d) {
  if (d->type == GRIP_TRACK_STRAIGHT) {
    if (!finite_pos(d->length)) return false;
  } else if (d->type == GRIP_TRACK_LEFT || d->type == GRIP_TRACK_RIGHT) {
    if (!finite_pos(d->radius) || !finite_pos(d->end_radius) || !finite_pos(d->angle))
      return false;
  } else {
    return false;
  }
  double v[] = {d->z_start, d->z_end, d->slope_start, d->slope_end, d->cross_start, d->cross_end,
                d->cross_rate_start, d->cross_rate_end};
  for (size_t i = 0; i < sizeof v / sizeof v[0]; ++i)
    if (!isfinite(v[i])) return false;
  if (!finite_pos(d->width_start) || !finite_pos(d->width_end) || !surface_ok(&d->surface))
    return false;
  for (int s = 0; s < 2; ++s) {
    const grip_track_side_def *sd = &d->side[s];
    if (!finite_nonneg(sd->kerb_width) || !finite_nonneg(sd->runoff_width_start) ||
        !finite_nonneg(sd->runoff_width_end) || !finite_nonneg(sd->barrier_height) ||
        !surface_ok(&sd->kerb_surface) || !surface_ok(&sd->runoff_surface))
      return false;
  }
  return true;
}

/* Segment circles and the search grid (track_grid). Without memory for them the queries still
 * work, by the exhaustive search. */
#define GRID_CELL 16.0      /* m */
#define CIRCLE_STRIDE 5
#define GRID_MAX_CELLS 4000000
#define GRID_MAX_ENTRIES 4e7 /* cell markings while building (an upper bound) */

/* k such that segment g's score (score_segment) at a point is at least the point's distance to
 * its centre line over k, for scores up to R:
 * - a straight, 1: the score is the distance to its centre segment;
 * - a circular arc of radius a, sqrt(1 + R/a) (see the grid's lists in build_index);
 * - a spiral, sqrt 2. The point is P = C + miss·T + t·N from the projection C, which lies on the
 *   spiral or on its extension an arc length o beyond an end (o = 0 within it). The distance to
 *   the centre line is then at most o + |miss| + |t|, no more than sqrt 2 times the score
 *   hypot(o + |miss|, t). */
static double score_k(const track_seg *g, double R) {
  if (g->dir == 0.0) return 1.0;
  return g->b == 0.0 ? sqrt(1.0 + R / g->a) : sqrt(2.0);
}

static void build_index(grip_track *t) {
  track_grid *gr = &t->grid;
  gr->ok = false;
  t->circle = calloc((size_t)t->count * CIRCLE_STRIDE, sizeof *t->circle);
  if (!t->circle) return;
  /* reach: the largest barrier reach anywhere (linear along a segment: largest at an end) */
  double reach = 0.0;
  for (int i = 0; i < t->count; ++i) {
    const track_seg *g = &t->seg[i];
    section c0 = seg_section(g, 0.0), c1 = seg_section(g, g->len);
    for (int sd = 0; sd < 2; ++sd) reach = fmax(reach, fmax(c0.reach[sd], c1.reach[sd]));
  }
  double R = reach + 1.0;
  double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY, rmax = 0.0;
  const double h = 0.5 * GRID_CELL; /* sample spacing along the centre line */
  for (int i = 0; i < t->count; ++i) {
    const track_seg *g = &t->seg[i];
    int n = (int)ceil(g->len / h);
    double mx, my, psi, k, far = 0.0;
    seg_eval(g, 0.5 * g->len, &mx, &my, &psi, &k);
    double k_i = score_k(g, R);
    rmax = fmax(rmax, R * k_i); /* see the grid's lists below */
    for (int j = 0; j <= n; ++j) {
      double x, y;
      seg_eval(g, g->len * j / n, &x, &y, &psi, &k);
      far = fmax(far, hypot(x - mx, y - my));
      xmin = fmin(xmin, x);
      xmax = fmax(xmax, x);
      ymin = fmin(ymin, y);
      ymax = fmax(ymax, y);
    }
    double *ci = &t->circle[CIRCLE_STRIDE * i];
    ci[0] = mx;
    ci[1] = my;
    ci[2] = far + 0.5 * h + reach;
    ci[3] = far + 0.5 * h;
    ci[4] = k_i;
  }
  double margin = rmax + h + GRID_CELL;
  /* No grid (the exhaustive search instead) where it would not pay or not fit: arcs so tight
   * that their lists would reach far (a < R/15), or too many list entries in all. */
  if (!(rmax <= 4.0 * R) || !isfinite(xmax - xmin + 2.0 * margin) || !isfinite(ymax - ymin + 2.0 * margin)) return;
  gr->cell = GRID_CELL;
  gr->x0 = xmin - margin;
  gr->y0 = ymin - margin;
  double wx = xmax - xmin + 2.0 * margin, wy = ymax - ymin + 2.0 * margin;
  while ((wx / gr->cell + 1.0) * (wy / gr->cell + 1.0) > GRID_MAX_CELLS) gr->cell *= 2.0;
  gr->nx = (int)ceil(wx / gr->cell);
  gr->ny = (int)ceil(wy / gr->cell);
  gr->reach = R;
  double entries = 0.0;
  for (int i = 0; i < t->count; ++i) {
    double side = 2.0 * (rmax + h) / gr->cell + 2.0;
    entries += (ceil(t->seg[i].len / h) + 1.0) * side * side;
  }
  if (!(entries <= GRID_MAX_ENTRIES)) return;
  size_t cells = (size_t)gr->nx * (size_t)gr->ny;
  int *last = malloc(cells * sizeof *last), *cursor = NULL;
  gr->start = calloc(cells + 1, sizeof *gr->start);
  if (!last || !gr->start) {
    free(last);
    free(gr->start);
    gr->start = NULL;
    return;
  }
  /* Which cells segment i must be listed in: within the band of score <= R. On a straight the
   * score is the distance to its centre segment; on a circular arc of radius a it is |a − rho|
   * within its angle and hypot(a·dθ, a − rho) beyond, which is at least the distance to the
   * end point over sqrt(1 + R/a) (|P − E|² = (rho − a)² + 2·a·rho·(1 − cos dθ) with
   * 1 − cos dθ <= dθ²/2 and rho <= a + R). So every point scoring <= R lies within
   * ri = R·sqrt(1 + R/a) of the centre line, and within ri + h/2 of one of the samples h apart:
   * the cells meeting the square of that half-side round each sample are listed. On a spiral
   * ri = R·sqrt 2 (score_k). */
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t c = 0; c < cells; ++c) last[c] = -1;
    for (int i = 0; i < t->count; ++i) {
      const track_seg *g = &t->seg[i];
      double ri = R * t->circle[CIRCLE_STRIDE * i + 4] + 0.5 * h;
      int n = (int)ceil(g->len / h);
      for (int j = 0; j <= n; ++j) {
        double x, y, psi, k;
        seg_eval(g, g->len * j / n, &x, &y, &psi, &k);
        int cx0 = (int)floor((x - ri - gr->x0) / gr->cell), cx1 = (int)floor((x + ri - gr->x0) / gr->cell);
        int cy0 = (int)floor((y - ri - gr->y0) / gr->cell), cy1 = (int)floor((y + ri - gr->y0) / gr->cell);
        if (cx0 < 0) cx0 = 0;
        if (cy0 < 0) cy0 = 0;
        if (cx1 >= gr->nx) cx1 = gr->nx - 1;
        if (cy1 >= gr->ny) cy1 = gr->ny - 1;
        for (int cy = cy0; cy <= cy1; ++cy)
          for (int cx = cx0; cx <= cx1; ++cx) {
            size_t c = (size_t)cy * (size_t)gr->nx + (size_t)cx;
            if (last[c] == i) continue;
            last[c] = i;
            if (pass == 0) gr->start[c + 1]++;
            else gr->items[cursor[c]++] = i;
          }
      }
    }
    if (pass == 0) {
      for (size_t c = 0; c < cells; ++c) gr->start[c + 1] += gr->start[c];
      gr->items = malloc((size_t)(gr->start[cells] > 0 ? gr->start[cells] : 1) * sizeof *gr->items);
      cursor = malloc(cells * sizeof *cursor);
      if (!gr->items || !cursor) {
        free(last);
        free(cursor);
        free(gr->items);
        free(gr->start);
        gr->items = NULL;
        gr->start = NULL;
        return;
      }
      for (size_t c = 0; c < cells; ++c) cursor[c] = gr->start[c];
    }
  }
  free(last);
  free(cursor);
  gr->ok = true;
}

/* --- flatness around a ray's hit (ground_flat.h) ----------------------------------------- */

/* m: heights of two segments meeting at an end that differ by more than this (a step in the
 * road) leave their neighbourhood without a claim */
#define FLAT_STEP 1e-8
/* The least stretch 1 − kappa·t of an arc's (u, t) grid within its barriers for a claim (the
 * grid folds at 0; MIN_STRETCH holds it at 0.05 in the queries). */
#define FLAT_MIN_STRETCH 0.2

/* Bounds of one segment's surface z(u, t) = zc(u) + s(u, t)·g(u) over its barriers (s = t on the
 * road and a banked side, ±hw(u) on a flat side), and its values at the ends. */
typedef struct flat_terms {
  bool ok;        /* a straight or a circular arc whose grid does not fold within its barriers */
  double T;       /* m, the largest reach */
  double q;       /* 1, the largest |grad u| = 1/stretch (1 on a straight) */
  double inv_a;   /* 1/m, 1/radius of an arc (0 on a straight) */
  double kappa;   /* 1/m, signed curvature of the centre line */
  double g0;      /* 1, max |g| */
  double zu;      /* 1, max |dz/du| */
  double K;       /* 1/m, bound of the Hessian of z(x, y) */
  double edge[2]; /* 1, the most the gradient's change from a point to another can gain by the
                     road edge of a flat side lying between them (0 banked) */
  double hw_min[2], reach_min[2];
  bool flat_side; /* a side whose run-off does not follow the banking */
  double zc[2], dzc[2], g[2], dg[2], hw[2]; /* at u = 0 and u = len */
  double dhw;     /* d(hw)/du */
} flat_terms;

/* max |k1 + 2·k2·v + 3·k3·v²| and max |2·k2 + 6·k3·v| over v in [0, 1] (bounds) */
static double cubic_d1_bound(const double k[4]) { return fabs(k[1]) + 2.0 * fabs(k[2]) + 3.0 * fabs(k[3]); }
static double cubic_d2_bound(const double k[4]) { return fmax(fabs(2.0 * k[2]), fabs(2.0 * k[2] + 6.0 * k[3])); }

static flat_terms flat_segment_terms(const track_seg *g) {
  flat_terms f;
  memset(&f, 0, sizeof f);
  double il = g->inv_len;
  f.T = fmax(fmax(g->reach_start[0], g->reach_end[0]), fmax(g->reach_start[1], g->reach_end[1]));
  f.dhw = 0.5 * g->dw;
  double z1 = cubic_d1_bound(g->z) * il, z2 = cubic_d2_bound(g->z) * il * il;
  f.g0 = fabs(g->cross[0]) + fabs(g->cross[1]) + fabs(g->cross[2]) + fabs(g->cross[3]);
  double g1 = cubic_d1_bound(g->cross) * il, g2 = cubic_d2_bound(g->cross) * il * il;
  double dhw = fabs(f.dhw);
  /* z_u = zc' + t·g' (road, banked side) or zc' + ±(hw'·g + hw·g') (flat side), |t|, hw <= T */
  f.zu = z1 + f.T * g1 + dhw * f.g0;
  double zuu = z2 + f.T * g2 + 2.0 * dhw * g1; /* z_uu; z_ut = g' or 0; z_tt = 0 */
  /* a straight; a spiral makes no claim */
  f.ok = g->dir == 0.0;
  f.q = 1.0;
  if (g->dir != 0.0 && g->b == 0.0) {
    double rho_min = g->a - f.T;
    f.ok = rho_min >= FLAT_MIN_STRETCH * g->a;
    f.q = f.ok ? g->a / rho_min : INFINITY;
    f.inv_a = 1.0 / g->a;
    f.kappa = g->arc_kappa;
  }
  /* Hess z = z_uu·∇u∇uᵀ + z_ut·(∇u∇tᵀ + ∇t∇uᵀ) + z_u·Hess u + z_t·Hess t, with |∇u| <= q, |∇t| = 1,
   * |Hess u| <= a/rho² = q²/a and |Hess t| = 1/rho <= q/a on an arc (u = a·angle, t = ±(a − rho)) */
  f.K = zuu * f.q * f.q + 2.0 * g1 * f.q + f.zu * f.q * f.q * f.inv_a + f.g0 * f.q * f.inv_a;
  for (int s = 0; s < 2; ++s) {
    const grip_track_side_def *sd = &g->def.side[s];
    f.reach_min[s] = fmin(g->reach_start[s], g->reach_end[s]);
    if (sd->banked) {
      f.hw_min[s] = INFINITY;
    } else {
      f.flat_side = true;
      f.hw_min[s] = 0.5 * fmin(g->def.width_start, g->def.width_end);
      /* On the left z = S + h·max(0, phi) with S the road's formula, h = −g and phi = t − hw(u)
       * (the right alike): beyond the edge the gradient is S's plus h·grad phi + phi·grad h, with
       * |grad phi| <= 1 + |hw'|·q and |grad h| <= |g'|·q, phi <= T. Between two points of the
       * segment the gradient then changes by at most this gain plus the Hessian's bound times
       * their distance, however often a line between them crosses the edge. */
      f.edge[s] = f.g0 * (1.0 + dhw * f.q) + f.T * g1 * f.q;
    }
  }
  for (int e = 0; e < 2; ++e) {
    section c;
    section_centre(g, (double)e, &c);
    f.zc[e] = c.zc;
    f.dzc[e] = c.dzc;
    f.g[e] = c.g;
    f.dg[e] = c.dg;
    f.hw[e] = 0.5 * c.w;
  }
  f.ok = f.ok && isfinite(f.K) && isfinite(f.zu);
  return f;
}

/* How near a segment comes to segment i (build_flatness): not at all; its own region within
 * GROUND_FLAT_RADIUS of i's (a point near a hit can be located on it); near enough for the search
 * to find it instead (its centre line within the search's reach of such a point). */
enum { FLAT_FAR, FLAT_NEAR_REGION, FLAT_NEAR_SEARCH };

/* Where segment a ends and b starts: the step in height (out) and the jump of the gradient. */
static double flat_junction(const flat_terms *a, const flat_terms *b, double *step) {
  double T = fmax(a->T, b->T), g0 = fmax(a->g0, b->g0);
  double dhw = fabs(a->hw[1] - b->hw[0]);
  bool flat_side = a->flat_side || b->flat_side;
  *step = fabs(a->zc[1] - b->zc[0]) + T * fabs(a->g[1] - b->g[0]) + (flat_side ? dhw * g0 : 0.0);
  /* z_u: zc' + t·g' or zc' ± (hw'·g + hw·g'); z_u/stretch with 1/stretch = 1/(1 − kappa·t) */
  double dzu = fabs(a->dzc[1] - b->dzc[0]) + T * fabs(a->dg[1] - b->dg[0]) +
               (flat_side ? fabs(a->dhw - b->dhw) * g0 : 0.0);
  double q = fmax(a->q, b->q);
  return dzu * q + fmax(a->zu, b->zu) * fabs(a->kappa - b->kappa) * T * a->q * b->q + fabs(a->g[1] - b->g[0]);
}

/* Which segments may come near segment i (build_flatness's test below): a grid of the segments'
 * circles, each listed in every cell met by the square round its centre whose half-side is the
 * farthest the test can call it near from (its centre line's circle plus reach·k, plus
 * FLAT_GRID_PAD); segment i reads the cells met by its own square (half-side the test's `mine`
 * plus FLAT_GRID_PAD). Two segments the test calls near are within the sum of those half-sides
 * less twice the pad, so their squares share a cell: the test sees every pair it would see in
 * a scan of all segments, and gives each the same answer. The scan of all pairs took ~250 M
 * instructions on TORCS's spring (2,956 segments), half of loading it. (Not the locate's grid,
 * track->grid: that one lists a segment where its centre line's band lies, which the circles'
 * test does not bound.) */
#define FLAT_GRID_PAD 1.0             /* m */
#define FLAT_GRID_CELLS_PER_SEGMENT 4 /* cells at most per segment (the cell at least the mean half-side) */
#define FLAT_GRID_EXTRA_CELLS 64      /* and so many more, for a track of a few segments */
#define FLAT_GRID_MAX_ENTRIES 1e8     /* listings in all, else no claims (a pathological track) */
typedef struct flat_grid {
  double x0, y0, cell;
  int nx, ny;
  int *start; /* per cell, where its list begins in items (nx·ny + 1) */
  int *items;
} flat_grid;

/* The cells the square of half-side r round (x, y) meets: columns range[0]..range[1], rows
 * range[2]..range[3], held within the grid. */
static void flat_grid_cells(const flat_grid *g, double x, double y, double r, int range[4]) {
  double c[4] = {floor((x - r - g->x0) / g->cell), floor((x + r - g->x0) / g->cell),
                 floor((y - r - g->y0) / g->cell), floor((y + r - g->y0) / g->cell)};
  for (int k = 0; k < 4; ++k) {
    double top = k < 2 ? g->nx - 1 : g->ny - 1;
    range[k] = (int)clampd(c[k], 0.0, top);
  }
}

/* half[j]: the half-side of segment j's square. False when it cannot be built (then no claims). */
static bool flat_grid_build(flat_grid *g, const double *circle, const double *half, int n) {
  double xmin = INFINITY, xmax = -INFINITY, ymin = INFINITY, ymax = -INFINITY, mean = 0.0;
  for (int j = 0; j < n; ++j) {
    const double *cj = &circle[CIRCLE_STRIDE * j];
    xmin = fmin(xmin, cj[0] - half[j]);
    xmax = fmax(xmax, cj[0] + half[j]);
    ymin = fmin(ymin, cj[1] - half[j]);
    ymax = fmax(ymax, cj[1] + half[j]);
    mean += half[j] / n;
  }
  if (!isfinite(xmax - xmin) || !isfinite(ymax - ymin) || !(mean > 0.0)) return false;
  g->x0 = xmin;
  g->y0 = ymin;
  g->cell = mean;
  double entries;
  for (;;) {
    double nx = floor((xmax - xmin) / g->cell) + 1.0, ny = floor((ymax - ymin) / g->cell) + 1.0;
    entries = 0.0;
    for (int j = 0; j < n; ++j) {
      double side = floor(2.0 * half[j] / g->cell) + 2.0;
      entries += side * side;
    }
    if (nx * ny <= (double)FLAT_GRID_CELLS_PER_SEGMENT * n + FLAT_GRID_EXTRA_CELLS) {
      g->nx = (int)nx;
      g->ny = (int)ny;
      break;
    }
    g->cell *= 2.0;
  }
  if (!(entries <= FLAT_GRID_MAX_ENTRIES)) return false;
  size_t cells = (size_t)g->nx * (size_t)g->ny;
  g->start = calloc(cells + 1, sizeof *g->start);
  g->items = malloc((size_t)entries * sizeof *g->items + sizeof *g->items);
  int *cursor = malloc(cells * sizeof *cursor);
  if (!g->start || !g->items || !cursor) {
    free(cursor);
    return false;
  }
  for (int pass = 0; pass < 2; ++pass) {
    for (int j = 0; j < n; ++j) {
      int r[4];
      flat_grid_cells(g, circle[CIRCLE_STRIDE * j], circle[CIRCLE_STRIDE * j + 1], half[j], r);
      for (int cy = r[2]; cy <= r[3]; ++cy)
        for (int cx = r[0]; cx <= r[1]; ++cx) {
          size_t c = (size_t)cy * (size_t)g->nx + (size_t)cx;
          if (pass == 0) g->start[c + 1]++;
          else g->items[cursor[c]++] = j;
        }
    }
    if (pass == 0) {
      for (size_t c = 0; c < cells; ++c) g->start[c + 1] += g->start[c];
      for (size_t c = 0; c < cells; ++c) cursor[c] = g->start[c];
    }
  }
  free(cursor);
  return true;
}

/* What build_flatness's nearness test reads: each segment's terms, the largest reach, and the
 * grid of candidates; and what it writes, segment by segment (flat_near_listed). */
typedef struct flat_setup {
  flat_terms *ft;
  double reach;
  double *half; /* per segment, its square's half-side in the grid */
  flat_grid grid;
  char *near;   /* per segment j: FLAT_NEAR_REGION, FLAT_NEAR_SEARCH or FLAT_FAR from segment i */
  int *seen;    /* per segment j: the last i whose cells listed it (j tested once per i) */
  int *touched; /* the segments near i, to set back to FLAT_FAR before the next i */
  int touched_count;
} flat_setup;

static void flat_setup_free(flat_setup *s) {
  free(s->ft);
  free(s->half);
  free(s->grid.start);
  free(s->grid.items);
  free(s->near);
  free(s->seen);
  free(s->touched);
}

/* False when out of memory or when the grid cannot be built (then no claims): flat_setup_free
 * it either way. */
static bool flat_setup_build(const grip_track *t, flat_setup *s) {
  int n = t->count;
  memset(s, 0, sizeof *s);
  s->ft = malloc((size_t)n * sizeof *s->ft);
  s->half = malloc((size_t)n * sizeof *s->half);
  s->near = malloc((size_t)n);
  s->seen = malloc((size_t)n * sizeof *s->seen);
  s->touched = malloc((size_t)n * sizeof *s->touched);
  if (!s->ft || !s->half || !s->near || !s->seen || !s->touched) return false;
  for (int j = 0; j < n; ++j) {
    s->near[j] = FLAT_FAR;
    s->seen[j] = -1;
  }
  for (int i = 0; i < n; ++i) {
    s->ft[i] = flat_segment_terms(&t->seg[i]);
    s->reach = fmax(s->reach, s->ft[i].T);
  }
  for (int j = 0; j < n; ++j) {
    const double *cj = &t->circle[CIRCLE_STRIDE * j];
    s->half[j] = cj[3] + s->reach * cj[4] + FLAT_GRID_PAD;
  }
  return flat_grid_build(&s->grid, t->circle, s->half, n);
}

/* The test: how near segment j comes to segment i, from their circles (mine: flat_mine). */
static inline char flat_nearness(const grip_track *t, const flat_setup *s, int i, int j, double mine) {
  const double *ci = &t->circle[CIRCLE_STRIDE * i], *cj = &t->circle[CIRCLE_STRIDE * j];
  double dx = ci[0] - cj[0], dy = ci[1] - cj[1], d2 = dx * dx + dy * dy;
  double own = mine + cj[3] + s->ft[j].T, found = mine + cj[3] + s->reach * cj[4];
  return d2 <= own * own ? FLAT_NEAR_REGION : d2 <= found * found ? FLAT_NEAR_SEARCH : FLAT_FAR;
}

/* How far from segment i's centre another segment's circle counts as near: i's own circle grown
 * by its reach and the claim's radius (and 1e-6 m for rounding). */
static double flat_mine(const grip_track *t, const flat_setup *s, int i) {
  return t->circle[CIRCLE_STRIDE * i + 3] + s->ft[i].T + GROUND_FLAT_RADIUS + 1e-6;
}

/* s->near[j] for every segment j, from segment i: the grid's listing tests only the segments in
 * the cells i's square meets, and the others are far. Returns how many are not far. */
static int flat_near_listed(const grip_track *t, flat_setup *s, int i) {
  const flat_grid *g = &s->grid;
  char *near = s->near;
  int *seen = s->seen, *touched = s->touched;
  for (int k = 0; k < s->touched_count; ++k) near[touched[k]] = FLAT_FAR; /* the last i's */
  const double *ci = &t->circle[CIRCLE_STRIDE * i];
  double mine = flat_mine(t, s, i);
  int cells[4], count = 0;
  flat_grid_cells(g, ci[0], ci[1], mine + FLAT_GRID_PAD, cells);
  for (int cy = cells[2]; cy <= cells[3]; ++cy)
    for (int cx = cells[0]; cx <= cells[1]; ++cx) {
      size_t c = (size_t)cy * (size_t)g->nx + (size_t)cx;
      for (int e = g->start[c]; e < g->start[c + 1]; ++e) {
        int j = g->items[e];
        if (seen[j] == i) continue;
        seen[j] = i;
        near[j] = flat_nearness(t, s, i, j, mine);
        if (near[j] != FLAT_FAR) touched[count++] = j;
      }
    }
  return s->touched_count = count;
}

long grip_track_flat_grid_check(const grip_track *t, long *near_pairs) {
  *near_pairs = 0;
  if (!t || !t->circle) return -1;
  int n = t->count;
  flat_setup s;
  long wrong = -1;
  if (flat_setup_build(t, &s)) {
    wrong = 0;
    for (int i = 0; i < n; ++i) {
      *near_pairs += flat_near_listed(t, &s, i);
      double mine = flat_mine(t, &s, i);
      for (int j = 0; j < n; ++j) wrong += s.near[j] != flat_nearness(t, &s, i, j, mine);
    }
  }
  flat_setup_free(&s);
  return wrong;
}

/* Per segment, the claims its hits make (track_flat). A point within GROUND_FLAT_RADIUS of a hit on
 * segment i, with the hit inside the barriers by more than GROUND_FLAT_RADIUS, is located on a segment
 * of the run of consecutive segments around i whose regions (circle: centre line plus own reach)
 * come within GROUND_FLAT_RADIUS of i's; no other segment may come near enough to be found instead
 * (circles with the search's reach), or there is no claim. Along a straight line from the hit,
 * the gradient changes by at most K per metre within a segment, and by the jumps of what lies
 * between (segment ends, road edges); the rise above the hit's plane is at most the integral of
 * that change, slope·d + K·d²/2. */
static void build_flatness(grip_track *t) {
  if (!t->circle) return;
  int n = t->count;
  flat_setup setup;
  bool built = flat_setup_build(t, &setup);
  double *junction = malloc((size_t)n * sizeof *junction); /* jump where segment i ends; NAN: a step */
  t->flat = malloc((size_t)n * sizeof *t->flat);
  if (!built || !junction || !t->flat) {
    flat_setup_free(&setup);
    free(junction);
    free(t->flat);
    t->flat = NULL;
    return;
  }
  const flat_terms *ft = setup.ft;
  const char *near = setup.near;
  for (int i = 0; i < n; ++i) {
    int k = neighbour(t, i, +1, t->closed);
    junction[i] = NAN;
    if (k < 0) continue;
    double step, jump = flat_junction(&ft[i], &ft[k], &step);
    if (step <= FLAT_STEP && isfinite(jump)) junction[i] = jump;
  }
  const double R = GROUND_FLAT_RADIUS;
  for (int i = 0; i < n; ++i) {
    track_flat *out = &t->flat[i];
    memset(out, 0, sizeof *out);
    out->run.band[0] = out->run.band[1] = out->own.band[0] = out->own.band[1] = -1.0; /* no claim */
    out->interior[0] = 1.0;
    out->interior[1] = 0.0;
    /* near[j]: FLAT_NEAR_REGION, FLAT_NEAR_SEARCH or FLAT_FAR */
    int count = flat_near_listed(t, &setup, i);
    /* the run of consecutive near segments around i */
    int lo = i, hi = i, len = 1;
    bool ok = ft[i].ok;
    while (len < count) {
      int k = neighbour(t, hi, +1, t->closed);
      if (k < 0 || near[k] == FLAT_FAR || k == lo) break;
      hi = k;
      ++len;
    }
    while (len < count) {
      int k = neighbour(t, lo, -1, t->closed);
      if (k < 0 || near[k] == FLAT_FAR || k == hi) break;
      lo = k;
      ++len;
    }
    if (len != count) continue; /* another part of the track comes near */
    /* The run's ends on an open track: beyond them the surface is held at the end's height. */
    if (!t->closed && (lo == 0 || hi == n - 1)) continue;
    /* A point near the hit is located on a segment whose own region holds it (FLAT_NEAR_REGION): the
     * bounds are those segments', and the ends they share with a neighbour. Along a straight
     * line of at most R from the hit, each end it crosses adds its jump, and the road edge of a
     * flat side adds its gain once for each stretch between ends in which the line crosses it
     * (an edge line, nearly straight within R, is crossed three times at most). */
    double K = 0.0, slope = 0.0, edge[2] = {0.0, 0.0}, inner[2] = {INFINITY, INFINITY};
    double band[2] = {INFINITY, INFINITY};
    for (int j = lo, m = 0; m < len; j = neighbour(t, j, +1, t->closed), ++m) {
      const flat_terms *f = &ft[j];
      if (m + 1 < len && (near[j] == FLAT_NEAR_REGION || near[neighbour(t, j, +1, t->closed)] == FLAT_NEAR_REGION)) {
        if (!(junction[j] >= 0.0)) ok = false;
        else slope += junction[j];
      }
      if (near[j] != FLAT_NEAR_REGION) continue;
      if (!f->ok) ok = false;
      K = fmax(K, f->K);
      for (int s = 0; s < 2; ++s) {
        edge[s] = fmax(edge[s], f->edge[s]);
        inner[s] = fmin(inner[s], f->hw_min[s]);
        band[s] = fmin(band[s], f->reach_min[s]);
      }
    }
    if (!ok) continue;
    /* A hit further than R·q from both ends of its segment (in local distance: moving by R moves
     * u by R·q at most) has every point within R on this segment: its own bounds, no end's
     * jump, the edge's gain once. */
    const flat_terms *fi = &ft[i];
    double own_inner[2] = {fi->hw_min[0], fi->hw_min[1]}, own_band[2] = {fi->reach_min[0], fi->reach_min[1]};
    double margin = R * fi->q + 1e-6; /* (1e-6 m: rounding of u) */
    out->interior[0] = margin;
    out->interior[1] = t->seg[i].len - margin;
    flat_claim *c[2] = {&out->run, &out->own};
    for (int e = 0; e < 2; ++e) {
      const double *in = e ? own_inner : inner, *bd = e ? own_band : band;
      const double *ed = e ? fi->edge : edge;
      double times = e ? 1.0 : 3.0;
      c[e]->curvature = e ? fi->K : K;
      c[e]->slope_inner = e ? 0.0 : slope;
      /* the other side's edge too where the road is narrower than the radius twice */
      bool both = in[0] + in[1] < 2.0 * R + 1e-6;
      for (int s = 0; s < 2; ++s) {
        c[e]->slope_edge[s] = c[e]->slope_inner + times * (both ? ed[0] + ed[1] : ed[s]);
        c[e]->inner[s] = in[s] - R;
        c[e]->band[s] = bd[s] - R - 1e-6; /* (1e-6 m: the walk's slack at the barrier line) */
      }
    }
  }
  flat_setup_free(&setup);
  free(junction);
}

grip_result grip_track_build(const grip_track_def *def, grip_track **out) {
  if (!out) return GRIP_INVALID_ARGUMENT;
  *out = NULL;
  if (!def || !def->segments || def->segment_count < 1 || !isfinite(def->start_heading) ||
      !isfinite(def->start_position.x) || !isfinite(def->start_position.y) ||
      !isfinite(def->start_position.z))
    return GRIP_INVALID_ARGUMENT;
  for (int i = 0; i < def->segment_count; ++i)
    if (!segment_ok(&def->segments[i])) return GRIP_INVALID_ARGUMENT;

  grip_track *t = calloc(1, sizeof *t);
  if (!t) return GRIP_OUT_OF_MEMORY;
  t->seg = calloc((size_t)def->segment_count, sizeof *t->seg);
  if (!t->seg) {
    free(t);
    return GRIP_OUT_OF_MEMORY;
  }
  t->count = def->segment_count;
  t->z0 = def->start_position.z;
  double x = def->start_position.x, y = def->start_position.y, psi = def->start_heading;
  double s = 0.0;
  for (int i = 0; i < t->count; ++i) {
    track_seg *g = &t->seg[i];
    g->def = def->segments[i];
    /* heights are relative to the start position's height */
    g->def.z_start += def->start_position.z;
    g->def.z_end += def->start_position.z;
    g->s0 = s;
    g->x0 = x;
    g->y0 = y;
    g->psi0 = psi;
    if (g->def.type == GRIP_TRACK_STRAIGHT) {
      g->dir = 0.0;
      g->len = g->def.length;
    } else {
      g->dir = g->def.type == GRIP_TRACK_LEFT ? 1.0 : -1.0;
      g->a = g->def.radius;
      g->theta = g->def.angle;
      g->b = (g->def.end_radius - g->def.radius) / g->theta;
      if (fabs(g->b) < 1e-12 * g->a) g->b = 0.0;
      g->len = g->theta * 0.5 * (g->def.radius + g->def.end_radius);
      g->def.length = g->len;
      /* centre of a circular arc lies on the inner side, radius a away along the normal (a
       * spiral's osculating centre: prepare_queries) */
      if (g->b == 0.0) {
        g->cx = g->x0 - g->dir * g->a * sin(psi);
        g->cy = g->y0 + g->dir * g->a * cos(psi);
      }
    }
    if (!finite_pos(g->len) || !finite_pos(s + g->len)) {
      grip_track_destroy(t);
      return GRIP_INVALID_ARGUMENT;
    }
    prepare_queries(g);
    double k;
    seg_eval(g, g->len, &x, &y, &psi, &k);
    s += g->len;
  }
  t->length = s;
  prepare_barrier_look(t, x, y);
  build_index(t);
  build_flatness(t);
  const track_seg *last = &t->seg[t->count - 1];
  t->end = v3(x, y, last->def.z_end);
  t->end_heading = psi;
  *out = t;
  return GRIP_OK;
}

void grip_track_destroy(grip_track *track) {
  if (!track) return;
  free(track->grid.start);
  free(track->grid.items);
  free(track->circle);
  free(track->flat);
  free(track->seg);
  free(track);
}

int grip_track_segment_count(const grip_track *track) { return track->count; }

const grip_track_segment_def *grip_track_segment(const grip_track *track, int index) {
  if (index < 0 || index >= track->count) return NULL;
  return &track->seg[index].def;
}

double grip_track_segment_start(const grip_track *track, int index) {
  if (index < 0 || index >= track->count) return NAN;
  return track->seg[index].s0;
}

double grip_track_length(const grip_track *track) { return track->length; }

grip_track_stats grip_track_get_stats(const grip_track *track) {
  grip_track_stats st;
  memset(&st, 0, sizeof st);
  st.length = track->length;
  st.width = track->seg[0].def.width_start;
  st.segments = track->count;
  st.min_radius = INFINITY;
  st.z_min = INFINITY;
  st.z_max = -INFINITY;
  st.x_min = st.y_min = INFINITY;
  st.x_max = st.y_max = -INFINITY;
  for (int i = 0; i < track->count; ++i) {
    const track_seg *g = &track->seg[i];
    if (g->dir != 0.0) st.min_radius = fmin(st.min_radius, fmin(g->def.radius, g->def.end_radius));
    enum { SAMPLES = 16 };
    for (int k = 0; k <= SAMPLES; ++k) {
      double u = g->len * k / SAMPLES, x, y, psi, kap;
      section c = seg_section(g, u);
      seg_eval(g, u, &x, &y, &psi, &kap);
      st.z_min = fmin(st.z_min, c.zc);
      st.z_max = fmax(st.z_max, c.zc);
      st.x_min = fmin(st.x_min, x);
      st.x_max = fmax(st.x_max, x);
      st.y_min = fmin(st.y_min, y);
      st.y_max = fmax(st.y_max, y);
    }
  }
  const track_seg *g0 = &track->seg[0];
  st.closure = v3(track->end.x - g0->x0, track->end.y - g0->y0, track->end.z - g0->def.z_start);
  st.closure_error = v3_length(st.closure);
  st.heading_closure = wrap_pi(track->end_heading - g0->psi0);
  return st;
}

/* --- queries ------------------------------------------------------------------------------- */

static double wrap_distance(const grip_track *track, double s) {
  if (s >= 0.0 && s < track->length) return s; /* what fmod gives, without its cost */
  if (!isfinite(s)) return 0.0;
  s = fmod(s, track->length);
  if (s < 0.0) s += track->length;
  if (s >= track->length) s = 0.0;
  return s;
}

static int segment_of_distance(const grip_track *track, double s) {
  int lo = 0, hi = track->count - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (track->seg[mid].s0 <= s)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

grip_track_point grip_track_point_at(const grip_track *track, double distance) {
  grip_track_point p;
  double s = wrap_distance(track, distance);
  int i = segment_of_distance(track, s);
  const track_seg *g = &track->seg[i];
  double u = clampd(s - g->s0, 0.0, g->len), x, y, psi, k;
  seg_eval(g, u, &x, &y, &psi, &k);
  section c = seg_section(g, u);
  p.segment = i;
  p.distance = s;
  p.position = v3(x, y, c.zc);
  p.heading = psi;
  p.curvature = k;
  p.width = c.w;
  p.banking = atan(c.g);
  p.slope = c.dzc;
  return p;
}

/* What a location's surface normal is computed from: the height's slopes along the centre line
 * (dzdu) and across it (dzdt), the (u, t) grid's stretch 1 − κ·t, the centre line's direction
 * (tx, ty); off the track the normal is vertical. */
typedef struct plane_terms {
  double dzdu, dzdt, stretch, tx, ty;
  bool on_track;
} plane_terms;

/* The unit normal of a location: with dP/du = T·stretch and dP/dt = N, the height's gradient is
 * gu·T + dzdt·N, gu = dzdu / stretch, and the normal is (−gradient, 1) normalised. */
static grip_vec3 unit_normal(const plane_terms *pt) {
  if (!pt->on_track) return v3(0.0, 0.0, 1.0);
  double gu = pt->dzdu / pt->stretch;
  double gx = gu * pt->tx - pt->dzdt * pt->ty, gy = gu * pt->ty + pt->dzdt * pt->tx;
  return v3_normalize(v3(-gx, -gy, 1.0));
}

/* What a locate fills in its location: everything with a unit normal, or with the normal
 * unnormalised (finish's scaled); for a ray's pass, what the ray reads (segment, lateral,
 * height, scaled normal, zone, surface: not the distance, and only the point's side of the
 * section); or on the plan only: segment and lateral, with the section and the frame for the
 * barrier query (the surface, zone, height and normal are not worked out); or for progress:
 * segment, lateral and the local distance, without the frame and with only the point's side's
 * reach of the section. */
enum { LOCATE_UNIT_NORMAL, LOCATE_SCALED_NORMAL, LOCATE_RAY, LOCATE_PLAN, LOCATE_PROGRESS };

/* Fills a location from a segment, its local coordinates and the section there (what: neither
 * LOCATE_PLAN nor LOCATE_PROGRESS). With LOCATE_SCALED_NORMAL or LOCATE_RAY (a ray's passes, the wall query) the
 * location's normal is left unnormalised and scaled by the stretch, stretch·(−gradient, 1): the
 * same plane without the division, square root and division of the unit normal (the ray
 * normalises the one it reports). */
QUERY_INLINE void finish(const grip_track *track, int i, double u, double t, const seg_frame *fr, const section *c,
                         grip_track_location *loc, int what) {
  /* *loc is filled in place and the section read through c: no copy of either. */
  bool scaled = what != LOCATE_UNIT_NORMAL;
  const track_seg *g = &track->seg[i];
  u = clampd(u, 0.0, g->len);
  double kappa = fr->kappa;
  int side = t >= 0.0 ? GRIP_TRACK_SIDE_LEFT : GRIP_TRACK_SIDE_RIGHT;
  double sgn = t >= 0.0 ? 1.0 : -1.0, at = fabs(t), hw = 0.5 * c->w;
  const grip_track_side_def *sd = &g->def.side[side];

  loc->segment = i;
  if (what != LOCATE_RAY) loc->distance = wrap_distance(track, g->s0 + u);
  loc->lateral = t;
  if (at <= hw) {
    loc->zone = GRIP_TRACK_ZONE_ROAD;
    loc->surface = g->def.surface;
  } else if (at <= hw + sd->kerb_width) {
    loc->zone = GRIP_TRACK_ZONE_KERB;
    loc->surface = sd->kerb_surface;
  } else if (at <= c->reach[side]) {
    loc->zone = GRIP_TRACK_ZONE_RUNOFF;
    loc->surface = sd->runoff_surface;
  } else {
    loc->zone = GRIP_TRACK_ZONE_OUTSIDE;
    loc->surface = c->reach[side] > hw + sd->kerb_width
                      ? sd->runoff_surface
                      : (sd->kerb_width > 0.0 ? sd->kerb_surface : g->def.surface);
  }
  loc->on_track = loc->zone != GRIP_TRACK_ZONE_OUTSIDE;

  /* height z(u, t) and its partial derivatives */
  double tc = loc->on_track ? t : sgn * c->reach[side];
  double z, dzdu, dzdt;
  if (at <= hw || sd->banked) {
    z = c->zc + tc * c->g;
    dzdu = c->dzc + tc * c->dg;
    dzdt = c->g;
  } else {
    z = c->zc + sgn * hw * c->g;
    dzdu = c->dzc + sgn * (0.5 * c->dw * c->g + hw * c->dg);
    dzdt = 0.0;
  }
  loc->z = z;
  /* the (u, t) grid: dP/du = T·(1 - kappa·t), dP/dt = N */
  double stretch = 1.0 - kappa * t;
  if (stretch < MIN_STRETCH) stretch = MIN_STRETCH;
  plane_terms pt = {dzdu, dzdt, stretch, fr->c, fr->s, loc->on_track};
  if (!scaled) {
    loc->normal = unit_normal(&pt);
  } else {
    loc->normal = !loc->on_track ? v3(0.0, 0.0, 1.0)
                               : v3(-(dzdu * pt.tx - dzdt * stretch * pt.ty), -(dzdu * pt.ty + dzdt * stretch * pt.tx),
                                    stretch);
  }
}

/* How far outside [0, len] a local distance lies (0 inside). */
static double overshoot(const track_seg *g, double u) {
  double tol = 1e-9 * (1.0 + g->len);
  if (u < -tol) return -u;
  if (u > g->len + tol) return u - g->len;
  return 0.0;
}

/* A location with what the barrier query needs of it: the local distance (clamped to the
 * segment), the centre line's frame and the cross-section there. */
typedef struct located {
  grip_track_location loc;
  double u;
  seg_frame frame;
  section sec;
} located;

/* The grid cell holding (x, y), as an index into the grid's lists; false without a grid or
 * outside it. */
static bool grid_cell(const track_grid *gr, double x, double y, size_t *cell) {
  if (!gr->ok || !isfinite(x) || !isfinite(y)) return false;
  double fx = floor((x - gr->x0) / gr->cell), fy = floor((y - gr->y0) / gr->cell);
  if (!(fx >= 0.0 && fy >= 0.0 && fx < gr->nx && fy < gr->ny)) return false;
  *cell = (size_t)fy * (size_t)gr->nx + (size_t)fx;
  return true;
}

/* A lower bound on segment i's score at (x, y) below the grid's reach, from its circle: the
 * distance to its centre line over k (score_k), the distance to the circle holding it at most. */
static inline double circle_bound(const grip_track *track, int i, double x, double y) {
  const double *ci = &track->circle[CIRCLE_STRIDE * i];
  return (sqrt((x - ci[0]) * (x - ci[0]) + (y - ci[1]) * (y - ci[1])) - ci[3]) / ci[4];
}

/* Grid cell c's candidate with the lowest circle_bound at (x, y); -1 without candidates. */
static int cell_nearest(const grip_track *track, size_t c, double x, double y) {
  const track_grid *gr = &track->grid;
  double bound = INFINITY;
  int best = -1;
  for (int k = gr->start[c]; k < gr->start[c + 1]; ++k) {
    double b = circle_bound(track, gr->items[k], x, y);
    if (b < bound) {
      bound = b;
      best = gr->items[k];
    }
  }
  return best;
}

/* Scores segment i for the exhaustive search; keeps the best (lowest index on ties). */
static void score_segment(const grip_track *track, int i, double x, double y, int *best, double *best_score,
                          double *best_u, double *best_t) {
  double u, t, miss;
  seg_project_miss(&track->seg[i], x, y, &u, &t, NULL, &miss);
  /* a spiral's Newton stopped at its bounds leaves the point off the normal by miss: counted, so
   * that the score is never below the distance to the centre line over score_k (0 elsewhere) */
  double o = overshoot(&track->seg[i], u) + fabs(miss);
  double score = o > 0.0 ? hypot(o, t) : fabs(t);
  if (score < *best_score || (score == *best_score && i < *best)) {
    *best_score = score;
    *best = i;
    *best_u = u;
    *best_t = t;
  }
}

/* The search grid's answer at (x, y): the segment and its projection, when a candidate listed in
 * the point's cell scores at most the grid's reach (then no other segment scores as low: the
 * exhaustive search's answer). False without a grid, outside it, or beyond its reach. */
static bool search_grid(const grip_track *track, double x, double y, int *best, double *best_u, double *best_t) {
  const track_grid *gr = &track->grid;
  size_t c;
  if (!grid_cell(gr, x, y, &c)) return false;
  double best_score = INFINITY;
  *best = 0;
  /* The candidate with the lowest bound is scored first, then only those whose bound does not
   * exceed the best score (ties go to the lower index, as in the exhaustive search). */
  int first = cell_nearest(track, c, x, y);
  if (first >= 0) score_segment(track, first, x, y, best, &best_score, best_u, best_t);
  for (int k = gr->start[c]; k < gr->start[c + 1]; ++k) {
    int i = gr->items[k];
    double bound = circle_bound(track, i, x, y);
    if (i != first && !(bound > best_score && bound < gr->reach))
      score_segment(track, i, x, y, best, &best_score, best_u, best_t);
  }
  /* the lists are complete up to the grid's reach: no other segment scores this low */
  return best_score <= gr->reach;
}

/* The exhaustive search: every segment scored. */
static void search_all(const grip_track *track, double x, double y, int *best, double *best_u, double *best_t) {
  double best_score = INFINITY;
  *best = 0;
  for (int i = 0; i < track->count; ++i) score_segment(track, i, x, y, best, &best_score, best_u, best_t);
}

int grip_track_search_check(const grip_track *track, double x, double y) {
  if (!track->grid.ok) return -1;
  int grid_best, all_best;
  double grid_u = 0.0, grid_t = 0.0, all_u = 0.0, all_t = 0.0;
  if (!search_grid(track, x, y, &grid_best, &grid_u, &grid_t)) return 2;
  search_all(track, x, y, &all_best, &all_u, &all_t);
  return grid_best == all_best && grid_u == all_u && grid_t == all_t;
}

static void locate_full_at(const grip_track *track, double x, double y, located *out, int what) {
  int best = 0;
  double best_u = 0.0, best_t = 0.0;
  if (!search_grid(track, x, y, &best, &best_u, &best_t)) search_all(track, x, y, &best, &best_u, &best_t);
  const track_seg *g = &track->seg[best];
  seg_project(g, x, y, &best_u, &best_t, &out->frame);
  out->u = clampd(best_u, 0.0, g->len);
  out->sec = seg_section(g, out->u);
  finish(track, best, best_u, best_t, &out->frame, &out->sec, &out->loc, what);
}

grip_track_location grip_track_locate_full(const grip_track *track, double x, double y) {
  located at;
  locate_full_at(track, x, y, &at, LOCATE_UNIT_NORMAL);
  return at.loc;
}

QUERY_INLINE void locate_at(const grip_track *track, double x, double y, int hint, located *out, int what) {
  /* the exhaustive search fills a plan or progress location in full (with the scaled normal) */
  int full = what == LOCATE_PLAN || what == LOCATE_PROGRESS ? LOCATE_SCALED_NORMAL : what;
  if (hint < 0 || hint >= track->count || !isfinite(x) || !isfinite(y)) {
    locate_full_at(track, x, y, out, full);
    return;
  }
  /* A hint far from the point (after a jump, or one given for another point) is no use: the walk
   * would end in the exhaustive search after TRACK_WALK_STEPS projections. The walk starts
   * instead from the grid cell's candidate nearest the point. */
  if (track->circle) {
    const double *c = &track->circle[CIRCLE_STRIDE * hint];
    double dx = x - c[0], dy = y - c[1], r = c[2] + TRACK_HINT_SLACK;
    if (dx * dx + dy * dy > r * r) {
      size_t cell;
      hint = grid_cell(&track->grid, x, y, &cell) ? cell_nearest(track, cell, x, y) : -1;
      if (hint < 0) {
        locate_full_at(track, x, y, out, full);
        return;
      }
    }
  }
  int i = hint, came = 0;
  for (int step = 0; step <= TRACK_WALK_STEPS; ++step) {
    const track_seg *g = &track->seg[i];
    double u, t;
    seg_project(g, x, y, &u, &t, what == LOCATE_PROGRESS ? NULL : &out->frame);
    double tol = 1e-9 * (1.0 + g->len);
    if (u < -tol) {
      if (came == -1) break; /* bounced between two segments: let the full search decide */
      i = i == 0 ? track->count - 1 : i - 1;
      came = +1;
      continue;
    }
    if (u > g->len + tol) {
      if (came == +1) break;
      i = i == track->count - 1 ? 0 : i + 1;
      came = -1;
      continue;
    }
    out->u = clampd(u, 0.0, g->len);
    int side = t >= 0.0 ? GRIP_TRACK_SIDE_LEFT : GRIP_TRACK_SIDE_RIGHT;
    if (what == LOCATE_RAY) seg_section_side(g, out->u, side, t, &out->sec);
    else if (what == LOCATE_PROGRESS) seg_section_reach(g, out->u, side, t, &out->sec);
    else out->sec = seg_section(g, out->u);
    /* Inside the barriers, the barrier line itself included (1 µm: the barrier query puts its
     * wall-foot point there, and rounding must not send it to the full search). */
    if (fabs(t) <= out->sec.reach[side] + 1e-6) {
      if (what == LOCATE_PLAN || what == LOCATE_PROGRESS) {
        out->loc.segment = i;
        out->loc.lateral = t;
      } else {
        finish(track, i, u, t, &out->frame, &out->sec, &out->loc, what);
      }
      return;
    }
    break;
  }
  locate_full_at(track, x, y, out, full);
}

grip_track_location grip_track_locate(const grip_track *track, double x, double y, int hint) {
  located at;
  locate_at(track, x, y, hint, &at, LOCATE_UNIT_NORMAL);
  return at.loc;
}

grip_track_progress grip_track_locate_progress(const grip_track *track, double x, double y, int hint) {
  located at;
  locate_at(track, x, y, hint, &at, LOCATE_PROGRESS);
  /* the distance as finish gives it: the segment's start plus the clamped local distance */
  const track_seg *g = &track->seg[at.loc.segment];
  return (grip_track_progress){at.loc.segment, wrap_distance(track, g->s0 + at.u), at.loc.lateral};
}

/* The barrier on one side at local distance u of segment g, from the centre line's frame and
 * the cross-section there, as seen from lateral offset `lateral`. */
QUERY_INLINE grip_track_barrier barrier_from(const track_seg *g, const seg_frame *fr, const section *c, double u,
                                             double lateral, int side) {
  grip_track_barrier b;
  int sd = side == GRIP_TRACK_SIDE_LEFT ? GRIP_TRACK_SIDE_LEFT : GRIP_TRACK_SIDE_RIGHT;
  double sgn = sd == GRIP_TRACK_SIDE_LEFT ? 1.0 : -1.0;
  double tb = sgn * c->reach[sd], dtb = sgn * c->dreach[sd];
  /* barrier line B(u) = C(u) + tb(u)·N(u): dB/du = T·(1 - kappa·tb) + tb'·N; the inward normal
   * is perpendicular to it, pointing towards the centre line (-sgn·N). */
  double along = 1.0 - fr->kappa * tb;
  double nt = sgn * dtb, nn = -sgn * along; /* components on T and N */
  double len = sqrt(nt * nt + nn * nn);
  if (len > 0.0) {
    nt /= len;
    nn /= len;
  } else {
    nt = 0.0;
    nn = -sgn;
  }
  double distance = sgn * (tb - lateral) * fabs(nn);
  /* That is the distance to the barrier's tangent line at the point's own u, whose nearest point
   * lies delta = (t − tb)·tb' / |B'|² further along. The tangent line stands for the barrier only
   * within the segment (beyond it the next segment's barrier takes over) and while the frame has
   * turned by less than half a radian. Past either, the nearest point is taken at that limit
   * and the normal points from it to the point. Two kinds of invisible wall came from the
   * unlimited line: where a straight's run-off narrows within a few metres (wheel-1: the
   * barrier steps 15 m inwards over a 3 m segment, slant 79°, and the road's edge lay "1.3 m"
   * from a wall 6 m away), and an arc's inner barrier near the arc's centre, where
   * 1 − kappa·tb ~ 0 and delta reaches tens of metres (corkscrew's hairpin: the road lay "0.1 m"
   * from the wall, and a car at 66 km/h stopped dead there). */
  double turn = fabs(fr->kappa) > 0.0 ? BARRIER_TANGENT_TURN / fabs(fr->kappa) : INFINITY;
  double lo = fmax(-u, -turn), hi = fmin(g->len - u, turn);
  double e_n = lateral - tb, slope2 = along * along + dtb * dtb;
  double delta = slope2 > 0.0 ? e_n * dtb / slope2 : 0.0;
  if (delta < lo || delta > hi) {
    double d = delta < lo ? lo : hi;
    double rt = -along * d, rn = e_n - dtb * d, r = sqrt(rt * rt + rn * rn);
    double side_of = distance < 0.0 ? -1.0 : 1.0; /* the free side keeps its sign */
    distance = side_of * r;
    if (r > 0.0) {
      nt = side_of * rt / r;
      nn = side_of * rn / r;
    }
  }
  double tx = fr->c, ty = fr->s;
  b.normal = v3(nt * tx - nn * ty, nt * ty + nn * tx, 0.0);
  b.lateral = tb;
  b.distance = distance;
  b.height = g->def.side[sd].barrier_height;
  return b;
}

grip_track_barrier grip_track_barrier_at(const grip_track *track, const grip_track_location *loc,
                                         int side) {
  int i = loc->segment < 0 || loc->segment >= track->count ? 0 : loc->segment;
  const track_seg *g = &track->seg[i];
  double s = loc->distance - g->s0;
  if (s < 0.0) s += track->length; /* wrapped past the start line */
  double u = clampd(s, 0.0, g->len), x, y, psi, kappa;
  seg_eval(g, u, &x, &y, &psi, &kappa);
  section c = seg_section(g, u);
  seg_frame fr = {cos(psi), sin(psi), kappa};
  return barrier_from(g, &fr, &c, u, loc->lateral, side);
}

/* --- ground adapter ------------------------------------------------------------------------ */

grip_ground grip_track_ground(grip_track_ground_context *context, const grip_track *track) {
  context->track = track;
  return (grip_ground){.raycast = grip_track_raycast, .context = context};
}

/* The asking wheel's last segment, or -1 (no vehicle asks). */
static int query_hint(const grip_ground_query *query) { return query && query->hint ? *query->hint : -1; }

static void keep_hint(const grip_ground_query *query, int segment) {
  if (query && query->hint) *query->hint = segment;
}

/* grip_track_raycast, with where to look up the flatness around the hit in *flat when flat is
 * not NULL. */
QUERY_INLINE bool track_raycast(void *context, const grip_ground_query *query, grip_vec3 origin, grip_vec3 direction,
                                double max_distance, grip_ground_hit *hit, ground_flat_ref *flat) {
  const grip_track_ground_context *ctx = context;
  const grip_track *track = ctx->track;
  int hint = query_hint(query);
  /* Start below the origin, then slide along the ray to the local tangent plane: each pass
   * locates the current (x, y) and intersects the ray with the plane there. The passes stop when
   * a pass moves the point by at most RAY_SETTLED horizontally: the plane found there is then
   * that of the final point (to within the surface's curvature times that move, ~1e-14 m of
   * height on a smooth track; where the cross-section's slope changes within that move, the
   * change times the move: 1.4e-7 m at most over 76,000 wheel rays on the 38 TORCS tracks,
   * tests/support_tracks.h), and its surface and normal are reported without locating again. A
   * wheel's ray, tilted by the body's pitch and roll (~1 %), moves ~1 cm in the first pass and
   * ~1e-7 m in the second: two locates instead of four. A vertical ray needs one. */
  grip_vec3 p = origin;
  /* A wheel that stood on the ground at the last step starts where the ray meets that tangent
   * plane: the wheel has moved ~0.1 m since, over which the plane departs from the surface by
   * its curvature (~1e-5 m), so the first pass moves the point by ~1e-7 m (the ray's tilt times
   * that) and settles: one locate instead of two. */
  if (query && query->has_last_hit) {
    double into = v3_dot(query->last_normal, direction);
    /* A plane the ray meets at a grazing angle (cos < 1e-3, within 0.06° of parallel: a wall,
     * not ground) puts its intersection anywhere: no guess then. */
    if (into < -1e-3) {
      double d = v3_dot(query->last_normal, v3_sub(query->last_point, origin)) / into;
      if (d >= 0.0 && d <= max_distance) p = v3_mad(origin, direction, d);
    }
  }
  located at; /* filled in place (no copies of the location) */
  const grip_track_location *loc = &at.loc;
  double dist = 0.0, at_x = NAN, at_y = NAN; /* where loc was found */
  bool ok = false, settled = false;
  for (int pass = 0; pass < RAY_PASSES; ++pass) {
    locate_at(track, p.x, p.y, hint, &at, LOCATE_RAY);
    at_x = p.x;
    at_y = p.y;
    hint = loc->segment;
    grip_vec3 q = v3(p.x, p.y, loc->z);
    /* loc->normal is the plane's normal m scaled by |m| >= 1 (finish): the ray must point into
     * the plane by at least 1e-9 of its length, m·d <= -1e-9·|m| */
    double denom = v3_dot(loc->normal, direction);
    if (!(denom < 0.0 && denom * denom >= 1e-18 * v3_dot(loc->normal, loc->normal))) {
      ok = false;
      break;
    }
    dist = v3_dot(loc->normal, v3_sub(q, origin)) / denom;
    p = v3_mad(origin, direction, dist);
    ok = true;
    double mx = p.x - at_x, my = p.y - at_y;
    if (mx * mx + my * my <= RAY_SETTLED * RAY_SETTLED) {
      settled = true;
      break;
    }
  }
  keep_hint(query, hint);
  if (!ok || dist < 0.0 || dist > max_distance) return false;
  /* report the surface under the final point */
  if (!settled) locate_at(track, p.x, p.y, hint, &at, LOCATE_RAY);
  hit->point = v3(p.x, p.y, p.z);
  /* loc->normal is the plane's normal scaled by the stretch (finish): normalised directly, one
   * division fewer than unit_normal (equal to it within rounding). */
  hit->normal = v3_normalize(loc->normal);
  hit->distance = dist;
  hit->surface = loc->surface;
  hit->velocity = (grip_vec3){0.0, 0.0, 0.0}; /* grip's grounds stand still */
  hit->body = NULL;
  if (flat) {
    /* where the claim is looked up if it is asked for (grip_ground_flatness): none for a ray
     * that did not settle */
    flat->track = settled && track->flat ? &track->flat[loc->segment] : NULL;
    flat->u = at.u;
    flat->t = loc->lateral;
  }
  return true;
}

bool grip_track_raycast(void *context, const grip_ground_query *query, grip_vec3 origin, grip_vec3 direction,
                        double max_distance, grip_ground_hit *hit) {
  return track_raycast(context, query, origin, direction, max_distance, hit, NULL);
}

/* One ray (the tests': the step casts a vehicle's rays in one call, below). */
bool grip_track_raycast_flat(void *context, const grip_ground_query *query, grip_vec3 origin, grip_vec3 direction,
                             double max_distance, grip_ground_hit *hit, ground_flat_ref *flat) {
  return track_raycast(context, query, origin, direction, max_distance, hit, flat);
}

GRIP_HOT_CLONES
static void track_raycast_flat_n_cloned(void *context, int n, ground_ray_batch *rays) {
  for (int i = 0; i < n; ++i)
    rays->found[i] = track_raycast(context, &rays->query[i], rays->origin[i], rays->direction, rays->max_distance[i],
                                   &rays->hit[i], rays->flat[i]);
}

void grip_track_raycast_flat_n(void *context, int n, ground_ray_batch *rays) {
  track_raycast_flat_n_cloned(context, n, rays);
}

/* --- barrier adapter ----------------------------------------------------------------------- */

grip_barrier grip_track_barriers(grip_track_ground_context *context, const grip_track *track) {
  context->track = track;
  /* Between points up to 12 m apart on the 38 TORCS tracks, where the second lies within 4 m
   * of a wall, the distance shrank by at most 2.7 times the distance between them (wheel-2: a
   * point near the centre of a 15 m hairpin whose inner run-off is wider than its radius, where
   * the first-order terms of the pieces beyond a segment are poor); 4 leaves a margin
   * (tests/test_torcs_track.c checks it on 126,000 pairs). */
  return (grip_barrier){.query = grip_track_barrier_query, .context = context, .distance_rate = 4.0};
}

/* Distance from (0, p) to the piece (s0, r0)–(s1, r1) in the plane of (distance along the track,
 * offset towards the barrier); the nearest point in (*sn, *rn). */
static double to_piece(double p, double s0, double r0, double s1, double r1, double *sn, double *rn) {
  double ds = s1 - s0, dr = r1 - r0, l2 = ds * ds + dr * dr;
  double f = l2 > 0.0 ? clampd((-s0 * ds + (p - r0) * dr) / l2, 0.0, 1.0) : 0.0;
  *sn = s0 + f * ds;
  *rn = r0 + f * dr;
  return hypot(*sn, p - *rn);
}

/* The barrier beyond the point's own segment, where it is nearer than the own one: where a
 * run-off ends in a taper or a step, a car running along it meets a wall ahead that its own
 * segment's barrier line does not show (before this, its nose went through, and the car was put
 * back sideways, metres away, once its centre crossed into the next segment); and a point that
 * has just crossed such a step lies a little past the step's face, not far past the narrower
 * segment's barrier. In the plane of (distance along the track at the point's offset, offset
 * towards the barrier), the free side is below the barrier's offset, a polyline with vertical
 * faces where it steps between segments: the pieces within BARRIER_LOOK ahead and behind are
 * looked at where the segment's flags say the barrier comes inward there (a point on the free
 * side) or goes outward (a point beyond the barrier). Exact on straights, to first order in the
 * curvature on arcs. Replaces *b's distance, normal and height and returns true when one of
 * them is nearer than the own segment's barrier. */
static bool barrier_beyond(const grip_track *track, int i, const located *at, double lateral, int side,
                           grip_track_barrier *b) {
  const track_seg *g = &track->seg[i];
  bool free_side = b->distance >= 0.0;
  double sgn = side == GRIP_TRACK_SIDE_LEFT ? 1.0 : -1.0, p = sgn * lateral;
  double best = fabs(b->distance), best_s = 0.0, best_r = 0.0, height = 0.0;
  bool found = false;
  for (int step = -1; step <= 1; step += 2) {
    bool look = free_side ? (step > 0 ? g->narrows_ahead[side] : g->narrows_behind[side])
                          : (step > 0 ? g->widens_ahead[side] : g->widens_behind[side]);
    if (!look) continue;
    /* along the track at the point's offset, from the point: its own segment's end first */
    double along = (step > 0 ? g->len - at->u : -at->u) * fmax(MIN_STRETCH, 1.0 - at->frame.kappa * lateral);
    double prev = step > 0 ? g->reach_end[side] : g->reach_start[side], prev_height = g->def.side[side].barrier_height;
    /* every piece from here on lies at least |along| away: none nearer once that reaches best */
    for (int k = neighbour(track, i, step, track->closed); k >= 0 && k != i && fabs(along) < BARRIER_LOOK &&
                                                           fabs(along) < best;
         k = neighbour(track, k, step, track->closed)) {
      const track_seg *n = &track->seg[k];
      double near_r = step > 0 ? n->reach_start[side] : n->reach_end[side];
      double far_r = step > 0 ? n->reach_end[side] : n->reach_start[side];
      double len = n->len * fmax(MIN_STRETCH, 1.0 - n->arc_kappa * lateral), h = n->def.side[side].barrier_height;
      double sn, rn;
      /* the step's face between the two segments (none where the barrier runs on), then the
       * segment's piece */
      double face = near_r != prev ? to_piece(p, along, prev, along, near_r, &sn, &rn) : INFINITY;
      if (face < best) {
        best = face;
        best_s = sn;
        best_r = rn;
        height = fmax(h, prev_height);
        found = true;
      }
      double piece = to_piece(p, along, near_r, along + step * len, far_r, &sn, &rn);
      if (piece < best) {
        best = piece;
        best_s = sn;
        best_r = rn;
        height = h;
        found = true;
      }
      along += step * len;
      prev = far_r;
      prev_height = h;
    }
  }
  if (!found) return false;
  /* The normal points into the free side: from the nearest point of the barrier to a point on
   * the free side, from a point beyond it to that nearest point. Along the track: T; across,
   * towards the barrier's side: sgn·N. */
  double ds = free_side ? -best_s : best_s, dr = free_side ? p - best_r : best_r - p, l = hypot(ds, dr);
  double tx = at->frame.c, ty = at->frame.s;
  double ux = l > 0.0 ? ds / l : 0.0, ur = l > 0.0 ? dr / l : -1.0;
  b->distance = free_side ? best : -best;
  b->normal = v3(ux * tx - ur * sgn * ty, ux * ty + ur * sgn * tx, 0.0);
  b->height = height;
  return true;
}

bool grip_track_barrier_query(void *context, const grip_ground_query *query, double x, double y,
                              grip_barrier_hit *hit) {
  const grip_track_ground_context *ctx = context;
  const grip_track *track = ctx->track;
  if (!isfinite(x) || !isfinite(y)) return false;
  located at;
  locate_at(track, x, y, query_hint(query), &at, LOCATE_PLAN);
  const grip_track_location *loc = &at.loc; /* its segment and lateral */
  keep_hint(query, loc->segment);
  /* grip_track_barrier_at from the frame the locate found (no trigonometry) */
  grip_track_barrier b = barrier_from(&track->seg[loc->segment], &at.frame, &at.sec, at.u, loc->lateral,
                                      loc->lateral >= 0.0 ? GRIP_TRACK_SIDE_LEFT : GRIP_TRACK_SIDE_RIGHT);
  int side = loc->lateral >= 0.0 ? GRIP_TRACK_SIDE_LEFT : GRIP_TRACK_SIDE_RIGHT;
  const track_seg *own = &track->seg[loc->segment];
  bool beyond = (b.distance >= 0.0 ? own->narrows_ahead[side] || own->narrows_behind[side]
                                   : own->widens_ahead[side] || own->widens_behind[side]) &&
                barrier_beyond(track, loc->segment, &at, loc->lateral, side, &b);
  /* From the free side, the wall on the other side of the centre line where that is the nearer
   * one: a car on the wide side of a track whose other side is narrow (within a box's reach of
   * the centre line) meets that side's wall. */
  int other = side == GRIP_TRACK_SIDE_LEFT ? GRIP_TRACK_SIDE_RIGHT : GRIP_TRACK_SIDE_LEFT;
  if (b.distance >= 0.0) {
    grip_track_barrier o = barrier_from(own, &at.frame, &at.sec, at.u, loc->lateral, other);
    if (o.distance >= 0.0 && o.distance < b.distance) {
      b = o;
      side = other;
      beyond = false;
    }
  }
  /* The wall's foot lies `distance` away against the inward normal; its height there is the
   * surface height at the barrier. */
  double foot_z;
  if (!beyond && at.sec.dreach[side] == 0.0) {
    /* A barrier parallel to the centre line (width, kerb and run-off constant here): its normal
     * is the centre line's, so the foot lies at the point's own distance along the segment, at
     * the barrier's lateral offset; its height from the point's cross-section, as finish gives
     * it there (the surface continues flat beyond a strip that is not banked), without a second
     * locate. */
    const section *c = &at.sec;
    double sgn = side == GRIP_TRACK_SIDE_LEFT ? 1.0 : -1.0, hw = 0.5 * c->w;
    foot_z = c->reach[side] <= hw || own->def.side[side].banked ? c->zc + sgn * c->reach[side] * c->g
                                                             : c->zc + sgn * hw * c->g;
  } else {
    located foot;
    locate_at(track, x - b.normal.x * b.distance, y - b.normal.y * b.distance, loc->segment, &foot,
              LOCATE_SCALED_NORMAL);
    foot_z = foot.loc.z;
  }
  hit->distance = b.distance;
  hit->normal = b.normal;
  hit->top = foot_z + b.height;
  return isfinite(hit->distance) && isfinite(hit->top);
}
