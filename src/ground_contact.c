/* The chassis against the ground, and the world's edges.
 *
 * Wheels stand on the ground through their suspension rays; the body box stands on it too, so
 * that a car on its roof or its side, dropped, or shoved down by another car rests on the surface
 * instead of passing through it. Twelve points of the box (its 8 corners and the middles of its
 * 4 long edges) are tested against the ground under them. Each point asks the ground for a
 * vertical ray that starts at the height of the body's highest point (over the step), so that
 * it starts above the surface whenever some of the body is above it, even with the ground rising
 * steeply under the point, and the hit gives the ground's tangent plane there. Penetrating points are contacts: as for walls (collision.c), the body is
 * moved back to the first touch within the step, the contacts are solved with restitution and
 * Coulomb friction, the body moves on for the rest of the step, and what penetration remains
 * beyond a small slop is removed by moving the body along the ground's normal (positions only,
 * so no energy is added). docs/physics.md, "Solid ground".
 *
 * It runs inside the vehicle's own step (the ground is read-only), so it is as parallel and as
 * deterministic as the rest of the step. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "contact.h"
#include "gmath.h"
#include "ground_contact.h"
#include "isa.h"

#define GROUND_POINTS 12
#define GROUND_SLOP 0.005  /* m of penetration left after correction: keeps a resting contact alive */
/* m: while the car stands upright on three or more wheels, a box point whose height above the
 * nearest wheel's contact plane exceeds this is not cast (the wheels already say where the ground
 * is; this keeps the common case free of extra rays). */
#define CLEARANCE_GATE 0.05
/* m: each ray also looks this far below the point, so that a point just above the ground gives a
 * plane for the position correction. */
#define PROBE_BELOW 0.05
/* m: what a point must clear beyond the ground's vouched-for height (ground_flat.h: within 1e-6 m
 * of its claim) for its ray to be left out */
#define FLAT_MARGIN 1e-5

typedef struct ground_plane {
  grip_vec3 local; /* m, the box point, CG-relative, body frame */
  grip_vec3 point; /* m, world: the ground under it */
  grip_vec3 normal;
  grip_vec3 velocity; /* m/s, world: the ground's own velocity there (a moving ground; else 0) */
} ground_plane;

_Static_assert(GROUND_POINTS == GRIP_BOX_POINTS, "the type holds the box points");

/* The 12 box points, CG-relative in the body frame: bottom (even indices) and top (odd) in turn,
 * and the box's half extents and centre. Fixed for a car type; computed once when the type is
 * made. */
void grip_ground_box_points(vehicle_type *t) {
  grip_vec3 h = v3_scale(t->def.body.dimensions, 0.5), o = v3_sub(t->def.body.box_center, t->com_design);
  t->box_half = h;
  t->box_offset = o;
  int n = 0;
  for (int i = 0; i < 6; ++i) {
    double sx = (double)(i % 3) - 1.0, sy = i / 3 ? 1.0 : -1.0;
    t->box_points[n++] = v3_add(o, v3(sx * h.x, sy * h.y, -h.z));
    t->box_points[n++] = v3_add(o, v3(sx * h.x, sy * h.y, h.z));
  }
}

void grip_ground_wheel_reach(vehicle_type *t) {
  double box = 0.0, reach = 0.0;
  for (int k = 0; k < t->wheel_count; ++k) {
    const wheel_config *w = &t->wheels[k];
    grip_vec3 high = w->ray_start;
    grip_vec3 low = v3_sub(w->hardpoint, v3(0, 0, w->radius + w->max_length));
    reach = fmax(reach, fmax(v3_length(high), v3_length(low)));
  }
  for (int i = 0; i < GROUND_POINTS; i += 2) {
    grip_vec3 p = t->box_points[i];
    double nearest = INFINITY;
    for (int k = 0; k < t->wheel_count; ++k) {
      const wheel_config *w = &t->wheels[k];
      double dx = p.x - w->hardpoint.x, dy = p.y - w->hardpoint.y;
      double high = w->hardpoint.z + w->ray_lift, low = w->hardpoint.z - w->radius - w->max_length;
      double dz = fmax(fabs(p.z - high), fabs(p.z - low));
      nearest = fmin(nearest, sqrt(dx * dx + dy * dy + dz * dz));
    }
    box = fmax(box, nearest);
  }
  t->box_wheel_reach = box;
  t->contact_reach = reach;
}

#define LAYER_POINTS (GROUND_POINTS / 2) /* a layer of the box: its bottom or its top points */

/* Whether the ground under a point lies, for certain, lower than a ray from it would count as
 * touching: the ray's plane (point q, normal m) then has depth (q − p)·m <= −GROUND_TOUCH, and the
 * ray gives nothing. clearance is the point's height above the wheel's contact plane (normal n)
 * along n, d2 its horizontal distance from the contact point squared. With the ground's flatness
 * (ground_flat.h), within its radius the ground lies at most rise = slope·d + curvature·d²/2
 * above the plane, which the point clears vertically by clearance/n.z; and the ground's gradient
 * there is at most |grad| = |n.xy|/n.z + slope + curvature·d, so m.z >= 1/sqrt(1 + grad²)
 * >= 1/(1 + grad), and a vertical gap of GROUND_TOUCH·(1 + grad) is a depth below −GROUND_TOUCH.
 * Multiplied through by n.z > 0. */
static bool clear_for_sure(const ground_flatness *f, grip_vec3 n, double clearance, double d2) {
  if (!(d2 < f->radius * f->radius) || !(n.z > 0.0)) return false;
  double d = sqrt(d2);
  double rise = d * (f->slope + 0.5 * f->curvature * d);
  double tilt = sqrt(n.x * n.x + n.y * n.y);
  double need = n.z * (rise + GROUND_TOUCH * (1.0 + f->slope + f->curvature * d) + FLAT_MARGIN) + GROUND_TOUCH * tilt;
  return clearance > need;
}

/* Each of a layer's points' height above the contact plane of the wheel nearest to it
 * (horizontally; the first such wheel on a tie), INFINITY without a wheel in contact; and, for a
 * point within the gate, whether that wheel's ground vouches that the point is clear of it
 * (clear_for_sure: sure[j]). Wheels outer, points inner and the nearest taken without branches:
 * the 6 × 4 comparisons are unpredictable, and this gate runs whenever a low car's box comes
 * within the gate of the wheels' planes. A layer's fixed count lets the compiler keep the points
 * and the running nearest in registers. The height is worked out for the nearest wheel only, once
 * it is known. */
GRIP_HOT_CLONES
static void clearance_over_wheels(const vehicle *v, const ground_flatness *flat, const double px[LAYER_POINTS],
                                  const double py[LAYER_POINTS], const double pz[LAYER_POINTS],
                                  double clearance[LAYER_POINTS], bool sure[LAYER_POINTS]) {
  double best[LAYER_POINTS];
  int nearest[LAYER_POINTS];
  for (int j = 0; j < LAYER_POINTS; ++j) {
    best[j] = INFINITY;
    nearest[j] = -1;
  }
  for (int k = 0; k < v->wheel_count; ++k) {
    const wheel_runtime *w = &v->wheels[k];
    if (!w->in_contact) continue;
    grip_vec3 c = w->contact_point;
    for (int j = 0; j < LAYER_POINTS; ++j) {
      double dx = px[j] - c.x, dy = py[j] - c.y;
      double d2 = dx * dx + dy * dy;
      bool nearer = d2 < best[j];
      best[j] = nearer ? d2 : best[j];
      nearest[j] = nearer ? k : nearest[j];
    }
  }
  for (int j = 0; j < LAYER_POINTS; ++j) {
    if (nearest[j] < 0) {
      clearance[j] = INFINITY;
      sure[j] = false;
      continue;
    }
    const wheel_runtime *w = &v->wheels[nearest[j]];
    grip_vec3 c = w->contact_point, nrm = w->contact_normal;
    double dx = px[j] - c.x, dy = py[j] - c.y;
    clearance[j] = dx * nrm.x + dy * nrm.y + (pz[j] - c.z) * nrm.z; /* v3_dot(p − c, n) */
    sure[j] = !(clearance[j] > CLEARANCE_GATE) && clear_for_sure(&flat[nearest[j]], nrm, clearance[j], best[j]);
  }
}

/* Lower bounds of clearance_over_wheels over the box's bottom points (bound[0], local z = o.z −
 * hz) and its top points (bound[1], o.z + hz): with the body rotation R, a point's clearance over
 * a wheel's plane (c, n) is (pos − c)·n + local·(Rᵀn), and over the points local = o + (sx·hx,
 * sy·hy, sz·hz) of one layer the last term is at least o·m − |hx·mx| − |hy·my| + sz·hz·mz with
 * m = Rᵀn. The nearest wheel's clearance is never below the least over all wheels. A car
 * standing on its wheels has its top points a box height above the bottom ones, so only the
 * bottom layer is ever near the gate. */
STEP_INLINE void layer_clearance_bounds(const vehicle *v, const mat3 *rot, int n, double bound[2]) {
  grip_vec3 h = v->type->box_half, o = v->type->box_offset;
  bound[0] = bound[1] = INFINITY;
  /* The box's part depends on the normal only: wheels on one plane (flat ground) share it. The
   * normals compared as numbers, not bytes (memcmp took them through memory): a normal equal to
   * the last but in the sign of a zero gives m the same values but for that sign, which the
   * absolute values and the sums with the box's non-zero terms drop; NaN never equals, so it is
   * worked out as before. */
  grip_vec3 last_normal = v3(NAN, NAN, NAN);
  double box_part = 0.0, ez = 0.0;
  for (int i = 0; i < n; ++i) {
    const wheel_runtime *w = &v->wheels[i];
    if (!w->in_contact) continue;
    grip_vec3 nrm = w->contact_normal;
    if (!(nrm.x == last_normal.x && nrm.y == last_normal.y && nrm.z == last_normal.z)) {
      grip_vec3 m = mat3_mul_transposed(rot, nrm);
      box_part = grip_ground_box_part_along(h, o, m);
      ez = h.z * m.z;
      last_normal = nrm;
    }
    double c = v3_dot(v3_sub(v->position, w->contact_point), nrm) + box_part;
    bound[0] = mind(bound[0], c - ez);
    bound[1] = mind(bound[1], c + ez);
  }
}

STEP_INLINE bool standing_on_wheels(const vehicle *v, const mat3 *rot, int n) {
  int touching = 0;
  for (int i = 0; i < n; ++i) touching += v->wheels[i].in_contact;
  return touching >= 3 && mat3_column(rot, 2).z > 0.5;
}

/* Penetration (m, > 0 inside) of a world point below a ground plane. */
static double depth_below(const ground_plane *g, grip_vec3 p) { return v3_dot(v3_sub(g->point, p), g->normal); }

static double deepest(const vehicle *v, const ground_plane *g, int n, grip_vec3 *normal) {
  mat3 r = mat3_from_quat(v->rotation);
  double worst = -INFINITY;
  for (int i = 0; i < n; ++i) {
    double d = depth_below(&g[i], v3_add(v->position, mat3_mul(&r, g[i].local)));
    if (d > worst) {
      worst = d;
      *normal = g[i].normal;
    }
  }
  return worst;
}

/* Whether every bottom point is clear of the ground for certain (clear_for_sure), from the layer's
 * bound alone: with every wheel on a ground that vouches for its flatness, each bottom point's
 * clearance over its nearest wheel's plane is at least bound0, and it lies within D of that
 * wheel's contact point. D is the type's box_wheel_reach, plus what the body moved since the
 * wheels touched (the contacts are of the step's start pose, the points of its end: the start
 * pose's contact c0 = R0ᵀ(c − p0) in the body frame is R1ᵀ(c − p1) + R1ᵀ(p1 − p0) + (I − R1ᵀR0)·c0
 * at the end, and |R1ᵀR0 − I| = |R0 − R1| <= its Frobenius norm). Then clear_for_sure holds for
 * every point, with n.z <= 1 and |n.xy| <= |n.x| + |n.y|. */
GRIP_HOT_CLONES
static bool bottom_clear_for_sure(const vehicle *v, const ground_flatness *flat, const mat3 *rot,
                                  const grip_vec3 *start_position, const mat3 *start_rot, double bound0) {
  double slope = 0.0, curvature = 0.0, radius = INFINITY, tilt = 0.0;
  for (int i = 0; i < v->wheel_count; ++i) {
    const wheel_runtime *w = &v->wheels[i];
    if (!w->in_contact) return false;
    /* maxd, not fmax: libm's fmax is a call; and a NaN normal (never from a ground that makes
     * claims) would make tilt NaN and the answer false, where fmax would drop it */
    slope = maxd(slope, flat[i].slope);
    curvature = maxd(curvature, flat[i].curvature);
    radius = mind(radius, flat[i].radius);
    tilt = maxd(tilt, fabs(w->contact_normal.x) + fabs(w->contact_normal.y));
  }
  if (!(radius > 0.0)) return false;
  grip_vec3 moved = v3_sub(v->position, *start_position);
  grip_vec3 d0 = v3_sub(rot->r0, start_rot->r0), d1 = v3_sub(rot->r1, start_rot->r1);
  grip_vec3 d2 = v3_sub(rot->r2, start_rot->r2);
  double turn = v3_dot(d0, d0) + v3_dot(d1, d1) + v3_dot(d2, d2);
  double d = v->type->box_wheel_reach + v3_length(moved) + sqrt(turn) * v->type->contact_reach;
  if (!(d < radius)) return false;
  double need = d * (slope + 0.5 * curvature * d) + GROUND_TOUCH * (1.0 + slope + curvature * d + tilt) + FLAT_MARGIN;
  return bound0 > need;
}

/* The gate first: a car standing on its wheels (gated) usually has no point near the ground,
 * and then neither the start pose nor the rays are needed. A layer of points whose bound clears
 * the gate (margin for rounding: the bound and the per-point clearances are summed in different
 * orders) has no point to cast. Fills layer_near (bottom, top) and *bound0 (the bottom layer's
 * bound, when gated); false when neither is near. */
STEP_INLINE bool near_layers(const vehicle *v, const mat3 *rot, int n, bool gated, bool layer_near[2],
                             double *bound0) {
  layer_near[0] = layer_near[1] = true;
  if (!gated) return true;
  double bound[2];
  layer_clearance_bounds(v, rot, n, bound);
  *bound0 = bound[0];
  layer_near[0] = !(bound[0] > CLEARANCE_GATE + 1e-6);
  layer_near[1] = !(bound[1] > CLEARANCE_GATE + 1e-6);
  return layer_near[0] || layer_near[1];
}

/* The wheels' grounds' claims (grip_ground_flatness), looked up once a point may come near. Then
 * the bottom layer is left out where the claims say it is clear (bottom_clear_for_sure; start_rot
 * NULL: not asked). False when no layer is left. */
GRIP_HOT_CLONES
static bool near_with_claims(const vehicle *v, const mat3 *rot, const grip_vec3 *start_position, const mat3 *start_rot,
                             double bound0, bool layer_near[2], ground_flatness flat[GRIP_MAX_WHEELS]) {
  for (int i = 0; i < v->wheel_count; ++i)
    flat[i] = v->wheels[i].in_contact ? grip_ground_flatness(&v->wheels[i].flat) : (ground_flatness){0.0, 0.0, 0.0};
  if (layer_near[0] && start_rot && bottom_clear_for_sure(v, flat, rot, start_position, start_rot, bound0))
    layer_near[0] = false;
  return layer_near[0] || layer_near[1];
}

/* The index of the lowest set bit of a non-zero mask. */
static inline int lowest_bit(unsigned m) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctz(m);
#else
  int i = 0;
  for (; !(m & 1u); m >>= 1) ++i;
  return i;
#endif
}

/* The ground under each box point that is in or near it, as tangent planes; *first receives the
 * fraction of the step (from the start pose to the current one) at which the first of them
 * touched. gated: skip points the wheels show to be well clear; layer_near from near_layers.
 * Returns the count. */
GRIP_HOT_CLONES
static int probe(vehicle *v, const grip_world_def *world, const grip_vec3 *start_position, const mat3 *start_rot,
                 const mat3 *rot, bool gated, const bool layer_near[2], const ground_flatness *flat,
                 ground_plane planes[GROUND_POINTS], double *first) {
  const grip_ground *ground = &world->ground;
  mat3 r1 = *rot; /* of v->rotation */
  *first = 1.0;
  const grip_vec3 *local = v->type->box_points;
  grip_vec3 end[GROUND_POINTS];
  /* The end points of the near layers, also in columns for the gate. A layer at a time:
   * box_points alternates bottom (even) and top (odd). */
  unsigned cast = 0; /* bit i: box point i is cast */
  for (int layer = 0; layer < 2; ++layer) {
    if (!layer_near[layer]) continue;
    double ex[LAYER_POINTS], ey[LAYER_POINTS], ez[LAYER_POINTS], clearance[LAYER_POINTS];
    bool sure[LAYER_POINTS];
    for (int j = 0, i = layer; j < LAYER_POINTS; ++j, i += 2) {
      end[i] = v3_add(v->position, mat3_mul(&r1, local[i]));
      ex[j] = end[i].x;
      ey[j] = end[i].y;
      ez[j] = end[i].z;
    }
    if (!gated) {
      cast |= layer == 0 ? 0x555u : 0xAAAu; /* even bits, odd bits */
      continue;
    }
    clearance_over_wheels(v, flat, ex, ey, ez, clearance, sure);
    for (int j = 0, i = layer; j < LAYER_POINTS; ++j, i += 2)
      cast |= (unsigned)(!(clearance[j] > CLEARANCE_GATE) && !sure[j]) << i;
  }
  if (cast == 0) return 0;
  const mat3 *r0 = start_rot;
  /* The body's highest point over the step. A top point lies above the bottom point under it
   * whenever the body's z axis points up (R's last row has rz > 0): their heights
   * pos.z + (rx·x + ry·y + rz·z) differ only in the last product, and rounding keeps the order of
   * rz·z_top >= rz·z_bottom and of every sum after it. The top layer alone then gives the same
   * maximum, bit for bit, and of it the corner grip_ground_highest_top_point picks for each
   * pose. */
  bool top_layer_highest = r0->r2.z > 0.0 && r1.r2.z > 0.0;
  double top;
  if (top_layer_highest) {
    int k1 = grip_ground_highest_top_point(r1.r2), k0 = grip_ground_highest_top_point(r0->r2);
    top = maxd(v->position.z + v3_dot(r1.r2, local[k1]), start_position->z + v3_dot(r0->r2, local[k0]));
  } else {
    top = -INFINITY;
    for (int i = 0; i < GROUND_POINTS; ++i) {
      /* each coordinate as mat3_mul computes it */
      double end_z = layer_near[i & 1] ? end[i].z : v->position.z + v3_dot(r1.r2, local[i]);
      top = maxd(top, maxd(end_z, start_position->z + v3_dot(r0->r2, local[i])));
    }
  }
  top += GROUND_TOUCH;
  int n = 0;
  /* The body's one query: its hint is a pointer, which each ray's answer updates. */
  grip_ground_query query = grip_vehicle_ground_query(v, GRIP_GROUND_QUERY_BODY);
  /* in the order of the points (the hint each ray leaves, the order of the planes) */
  for (unsigned m = cast; m != 0; m &= m - 1) {
    int i = lowest_bit(m);
    grip_vec3 p1 = end[i];
    grip_ground_hit hit;
    if (!ground->raycast(ground->context, &query, v3(p1.x, p1.y, top), v3(0, 0, -1), top - p1.z + PROBE_BELOW, &hit))
      continue;
    /* Normals leaning further from world z than the world's max_ground_slope are walls (as for
     * the wheels), not ground. */
    if (!(hit.normal.z >= v->ground_min_up) || !finite3_ok(hit.point) ||
        (world->moving_ground && !finite3_ok(hit.velocity)))
      continue;
    ground_plane g = {local[i], hit.point, hit.normal, world->moving_ground ? hit.velocity : v3(0, 0, 0)};
    double d1 = depth_below(&g, p1);
    if (!(d1 > -GROUND_TOUCH)) continue;
    /* the point at the start of the step, as mat3_mul computes it */
    double d0 = depth_below(&g, v3_add(*start_position, mat3_mul(r0, local[i])));
    if (d1 > 0.0 && d0 < 0.0) *first = mind(*first, d0 / (d0 - d1));
    planes[n++] = g;
  }
  return n;
}

/* Moves the body out along the deepest point's ground normal, down to the slop (positions only). */
static void push_out(vehicle *v, const ground_plane *planes, int n) {
  for (int pass = 0; pass < 2; ++pass) {
    grip_vec3 normal = v3(0, 0, 1);
    double depth = deepest(v, planes, n, &normal);
    if (!(depth > GROUND_SLOP)) break;
    v->position = v3_mad(v->position, normal, depth - GROUND_SLOP);
  }
}

/* The box points that touch the ground (probe), the layers that cannot left out first by the
 * gate (near_layers) and the wheels' grounds' claims (near_with_claims): the step's path and the
 * push-out's. whole_layer: the start pose bounds how far the body moved since the wheels touched
 * (bottom_clear_for_sure may leave out the bottom layer as a whole). */
STEP_INLINE int touching_points(vehicle *v, const grip_world_def *world, const grip_vec3 *start_position,
                                const mat3 *start_rot, const mat3 *rot, bool whole_layer, int n_wheels,
                                ground_plane planes[GROUND_POINTS], double *first) {
  bool gated = standing_on_wheels(v, rot, n_wheels), layer_near[2];
  ground_flatness flat[GRIP_MAX_WHEELS];
  double bound0 = 0.0;
  if (!near_layers(v, rot, n_wheels, gated, layer_near, &bound0)) return 0;
  if (gated && !near_with_claims(v, rot, start_position, whole_layer ? start_rot : NULL, bound0, layer_near, flat))
    return 0;
  return probe(v, world, start_position, start_rot, rot, gated, layer_near, flat, planes, first);
}

/* The step for a vehicle of n_wheels wheels (a constant 4 for the usual car, as in vehicle.c, so
 * that the gate's loops over the wheels compile for four). */
STEP_INLINE void ground_contact_step_n(vehicle *v, const grip_world_def *world, const grip_vec3 *start_position,
                                       const grip_quat *start_rotation, const mat3 *start_rot, double dt,
                                       int n_wheels) {
  ground_plane planes[GROUND_POINTS];
  double first;
  mat3 rot = mat3_from_quat(v->rotation);
  int n = touching_points(v, world, start_position, start_rot, &rot, true, n_wheels, planes, &first);
  if (n == 0) return;

  double rest = 0.0;
  if (first < 1.0) {
    grip_contact_pose_between(*start_position, *start_rotation, v, first, &v->position, &v->rotation);
    rest = (1.0 - first) * dt;
  }
  mat3 r = mat3_from_quat(v->rotation);
  contact ks[GROUND_POINTS];
  int count = 0;
  for (int i = 0; i < n; ++i) {
    grip_vec3 p = v3_add(v->position, mat3_mul(&r, planes[i].local));
    double d = depth_below(&planes[i], p);
    if (d > -GROUND_TOUCH)
      ks[count++] = (contact){.point = v3_mad(p, planes[i].normal, 0.5 * d),
                              .normal = planes[i].normal,
                              .surface_velocity = planes[i].velocity};
  }
  if (count > 0) {
    body ground_body = grip_contact_make_body(NULL), car = grip_contact_make_body(v);
    solve_result res = grip_contact_solve(&ground_body, &car, ks, count, world->restitution, world->friction);
    v->ground_points = count;
    v->ground_impulse = res.impulse;
  }
  grip_contact_advance(v, rest);
  push_out(v, planes, n);
}

GRIP_HOT_CLONES
static void ground_contact_step_cloned(vehicle *v, const grip_world_def *world, const grip_vec3 *start_position,
                                       const grip_quat *start_rotation, const mat3 *start_rot, double dt) {
  if (v->type->two_by_two) ground_contact_step_n(v, world, start_position, start_rotation, start_rot, dt, 4);
  else ground_contact_step_n(v, world, start_position, start_rotation, start_rot, dt, v->wheel_count);
}

/* (the start pose by its address: passed by value, it was copied onto the stack twice a step) */
void grip_ground_contact_resolve(vehicle *v, const grip_world_def *world, const grip_vec3 *start_position,
                                 const grip_quat *start_rotation, const mat3 *start_rot, double dt) {
  ground_contact_step_cloned(v, world, start_position, start_rotation, start_rot, dt);
}

void grip_ground_contact_push_out(vehicle *v, const grip_world_def *world) {
  if (!world->ground.raycast) return;
  ground_plane planes[GROUND_POINTS];
  double first;
  /* Gated as in the step: a car standing on its wheels whose box points all stand well clear of
   * the wheels' contact planes cannot have been pushed into the ground (in a crowded race this
   * is most cars touching another; 12 rays each otherwise). The wheels touched at the start of
   * the last step, before the push: no start pose to bound how far the body moved since, so no
   * bound for the layer as a whole. */
  if (grip_ground_clear_of_own_plane(v, world)) return;
  mat3 rot = mat3_from_quat(v->rotation);
  int n = touching_points(v, world, &v->position, &rot, &rot, false, v->wheel_count, planes, &first);
  push_out(v, planes, n);
}

bool grip_ground_none_below(vehicle *v, const grip_world_def *world) {
  grip_vec3 p = v->position;
  const grip_ground *ground = &world->ground;
  grip_ground_hit hit;
  grip_ground_query query = grip_vehicle_ground_query(v, GRIP_GROUND_QUERY_BODY);
  return !ground->raycast || !ground->raycast(ground->context, &query, p, v3(0, 0, -1), world->void_depth, &hit);
}
