/* Collisions: chassis boxes against walls and against each other.
 *
 * Every vehicle has been stepped when this runs. Each contact set is found on the swept motion
 * of the step (start pose -> end pose), the bodies are moved back to the time of impact,
 * impulses are solved there (sequential impulses with restitution and Coulomb friction), the
 * bodies then move on with their new velocities for the rest of the step, and what penetration
 * remains beyond a small slop is removed by moving positions only (no velocity change, so no
 * energy is added). The method and its limits are written up in docs/physics.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collision.h"
#include "contact.h"
#include "ground_contact.h"
#include "gmath.h"
#include "isa.h"
#include "lanes.h"

#define WALL_SLOP 0.005        /* m of penetration left after correction: keeps contacts alive */
#define WALL_TOUCH 0.002       /* m: points closer than this to a wall take part in the solve */
/* m: points of a face this far in front of the other box's face still take part. Two cars'
 * faces meet tilted by their different pitch (braking, load): 2.4 degrees over a 1.2 m high
 * face leave 5 cm between the faces' far edges. A car's front structure crushes by more than
 * that in any impact that matters, so the whole face pushes, not only the edge that touched
 * first (which, above or below the centre of gravity, would pitch the car). */
#define FACE_CONTACT_MARGIN 0.05
#define IMPACT_SPEED 1.0       /* m/s: faster approaches count as impacts */
#define MAX_SUBSTEPS 32
#define BISECTIONS 12
#define MAX_CONTACTS 24
#define WALL_POINTS 18 /* 12 on the box, up to 6 where its vertical edges cross a wall top */

/* --- storage ----------------------------------------------------------------------------- */

/* A chassis box's bounds (with CAR_SLOP) at the pose they were last taken for, and that pose,
 * bit for bit: a car near another in consecutive steps starts a step where its bounds were last
 * taken, unless something moved it in between. */
typedef struct pose_box {
  double lo[3], hi[3]; /* m */
  grip_vec3 position;
  grip_quat rotation;
  bool valid; /* taken at least once since the slot was reset */
} pose_box;

/* The walls' distance (m) from a car's CG at a horizontal position; distance −inf: none known. */
typedef struct wall_clear {
  double x, y, distance;
} wall_clear;

/* The per-slot arrays all lie in one block. Those the threads stepping the vehicles write at
 * every car (collision_begin_slot, _end_slot and the wall pass) each start on a page of their
 * own; the rest, which only the collision pass writes, on cache lines of their own. A core's
 * hardware prefetchers follow the stream of stores through an array and run a few hundred bytes
 * past its end, but not across a page: with the arrays packed, the helper thread's stores to
 * the end of one array (its share of the slots) took the lines of the next array's first slots
 * from the caller's core, and the caller, stepping those slots next, waited for them at every
 * step (docs/performance.md, "Twenty-ninth session"). */
#define SLOT_LINE 64
#define SLOT_PAGE 4096

typedef struct slot_array {
  void **array;
  size_t slot_bytes;      /* bytes per slot */
  bool written_in_steps;  /* by the threads stepping the vehicles: a page of its own */
} slot_array;

/* Every per-slot array: its field, entries per slot, and whether the stepping threads write it. */
#define SLOT_ARRAY_LIST(X)                                                                       \
  X(start_position, 1, true)                                                                     \
  X(start_rotation, 1, true)                                                                     \
  X(end_velocity, 1, true)                                                                       \
  X(contacts, 1, true)                                                                           \
  X(reach_min, 3, true)                                                                          \
  X(reach_max, 3, true)                                                                          \
  X(active, 1, true)                                                                             \
  X(wall_clear, 1, true)                                                                         \
  X(order, 1, false)                                                                             \
  X(near, 1, false)                                                                              \
  X(near_order, 1, false)                                                                        \
  X(order_active, 1, false)                                                                      \
  X(last_box, 1, false)                                                                          \
  X(box_min, 3, false)                                                                           \
  X(box_max, 3, false)                                                                           \
  X(hitched, 2, false)
#define COUNT_ONE(field, count, written) +1
enum { SLOT_ARRAYS = 0 SLOT_ARRAY_LIST(COUNT_ONE) };
#undef COUNT_ONE

static void slot_arrays(collision_world *c, slot_array out[SLOT_ARRAYS]) {
  int n = 0;
#define DESCRIBE(field, count, written) out[n++] = (slot_array){(void **)&c->field, (count) * sizeof *c->field, written};
  SLOT_ARRAY_LIST(DESCRIBE)
#undef DESCRIBE
}

static size_t round_up(size_t bytes, size_t unit) { return (bytes + unit - 1) / unit * unit; }

/* The block's size for capacity slots and, in at[], where each array starts in it. */
static size_t slot_block_layout(const slot_array arrays[SLOT_ARRAYS], int capacity, size_t at[SLOT_ARRAYS]) {
  size_t total = 0;
  for (int i = 0; i < SLOT_ARRAYS; ++i) {
    size_t unit = arrays[i].written_in_steps ? SLOT_PAGE : SLOT_LINE;
    total = round_up(total, unit);
    at[i] = total;
    total += arrays[i].slot_bytes * (size_t)capacity;
  }
  return round_up(total, SLOT_PAGE);
}

bool grip_collision_reserve(collision_world *c, int capacity) {
  if (capacity <= c->capacity) return true;
  slot_array arrays[SLOT_ARRAYS];
  slot_arrays(c, arrays);
  size_t at[SLOT_ARRAYS];
  size_t bytes = slot_block_layout(arrays, capacity, at);
  unsigned char *block = aligned_alloc(SLOT_PAGE, bytes);
  if (!block) return false;
  for (int i = 0; i < SLOT_ARRAYS; ++i) {
    if (c->capacity > 0) memcpy(block + at[i], *arrays[i].array, arrays[i].slot_bytes * (size_t)c->capacity);
    *arrays[i].array = block + at[i];
  }
  free(c->block);
  c->block = block;
  c->block_bytes = bytes;
  for (int i = c->capacity; i < capacity; ++i) {
    c->order_active[i] = 0;
    grip_collision_reset_slot(c, i);
  }
  c->capacity = capacity;
  return true;
}

bool grip_collision_set_workers(collision_world *c, int workers) {
  if (workers < 1) workers = 1;
  worker_points *w = aligned_alloc(SLOT_LINE, (size_t)workers * sizeof *w);
  if (!w) return false;
  memset(w, 0, (size_t)workers * sizeof *w);
  free(c->wall_points);
  c->wall_points = w;
  c->workers = workers;
  return true;
}

void grip_collision_free(collision_world *c) {
  free(c->wall_points);
  free(c->block);
  memset(c, 0, sizeof *c);
}

size_t grip_collision_bytes(const collision_world *c) {
  return c->block_bytes + (size_t)c->workers * sizeof *c->wall_points;
}

void grip_collision_reset_slot(collision_world *c, int slot) {
  grip_vehicle_contacts *k = &c->contacts[slot];
  memset(k, 0, sizeof *k);
  k->last_impact_time = -1.0;
  k->last_impact_other = GRIP_NULL_VEHICLE;
  c->active[slot] = 0;
  c->hitched[2 * slot] = c->hitched[2 * slot + 1] = -1;
  c->near[slot] = 0;
  c->last_box[slot].valid = false; /* (order_active stays: the slot may be in the order, see vehicle_pairs) */
  c->wall_clear[slot] = (wall_clear){0.0, 0.0, -INFINITY};
}

void grip_collision_forget_walls(collision_world *c) {
  for (int i = 0; i < c->capacity; ++i) c->wall_clear[i].distance = -INFINITY;
}

static void set_partner(collision_world *c, int slot, int from, int to) {
  for (int k = 0; k < 2; ++k)
    if (c->hitched[2 * slot + k] == from) {
      c->hitched[2 * slot + k] = to;
      return;
    }
}

void grip_collision_set_hitched(collision_world *c, int a, int b) {
  set_partner(c, a, -1, b);
  set_partner(c, b, -1, a);
}

void grip_collision_clear_hitched(collision_world *c, int a, int b) {
  set_partner(c, a, b, -1);
  set_partner(c, b, a, -1);
}

static bool hitched(const collision_world *c, int a, int b) {
  return c->hitched[2 * a] == b || c->hitched[2 * a + 1] == b;
}

void grip_collision_begin_step(collision_world *c) {
  /* Cleared only where a worker counted points: each count is on its worker's line. */
  for (int w = 0; w < c->workers; ++w)
    if (c->wall_points[w].points != 0) c->wall_points[w].points = 0;
}


static void record(collision_world *c, int slot, const vehicle *v, int points, solve_result r,
                   grip_vehicle_id other) {
  grip_vehicle_contacts *k = &c->contacts[slot];
  k->count += points;
  if (other.index == 0) {
    k->wall_count += points; /* the worker's count: grip_collision_end_slot's caller */
  } else {
    k->vehicle_count += points;
    c->step_points += points;
    c->step_vehicle_points += points;
  }
  k->impulse += r.impulse;
  if (r.approach >= IMPACT_SPEED) {
    k->impacts++;
    k->last_impact_impulse = r.impulse;
    k->last_impact_speed = r.approach;
    k->last_impact_time = v->time;
    k->last_impact_other = other;
  }
}

/* --- chassis boxes ----------------------------------------------------------------------- */

typedef struct obb {
  grip_vec3 c;    /* centre, world */
  grip_vec3 u[3]; /* axes, world */
  double e[3];    /* half extents */
} obb;

/* Box centre relative to the CG in the body frame. */
static grip_vec3 box_offset(const vehicle *v) { return v3_sub(v->def->body.box_center, v->com_design); }

static obb make_obb(const vehicle *v, grip_vec3 p, grip_quat q) {
  obb b;
  mat3 r = mat3_from_quat(q);
  b.c = v3_add(p, mat3_mul(&r, box_offset(v)));
  for (int k = 0; k < 3; ++k) b.u[k] = mat3_column(&r, k);
  b.e[0] = 0.5 * v->def->body.dimensions.x;
  b.e[1] = 0.5 * v->def->body.dimensions.y;
  b.e[2] = 0.5 * v->def->body.dimensions.z;
  return b;
}

static double obb_radius_along(const obb *b, grip_vec3 d) {
  return b->e[0] * fabs(v3_dot(b->u[0], d)) + b->e[1] * fabs(v3_dot(b->u[1], d)) +
         b->e[2] * fabs(v3_dot(b->u[2], d));
}

/* Separating-axis test over the 15 axes. When the boxes overlap, returns true with the axis of
 * least penetration (from a to b) and that penetration; face axes are preferred over edge axes
 * unless an edge axis is clearly shallower. axis_id: 0..5 faces, 6 + 3i + j edge a_i × b_j. */
static bool obb_overlap(const obb *a, const obb *b, double *depth, grip_vec3 *normal, int *axis_id) {
  grip_vec3 t = v3_sub(b->c, a->c);
  double best = INFINITY;
  grip_vec3 best_n = v3(1, 0, 0);
  int best_id = -1;
  for (int id = 0; id < 15; ++id) {
    grip_vec3 l;
    if (id < 3) {
      l = a->u[id];
    } else if (id < 6) {
      l = b->u[id - 3];
    } else {
      l = v3_cross(a->u[(id - 6) / 3], b->u[(id - 6) % 3]);
      double len = v3_length(l);
      if (len < 1e-6) continue; /* parallel edges: the face axes decide */
      l = v3_scale(l, 1.0 / len);
    }
    double d = v3_dot(t, l);
    double overlap = obb_radius_along(a, l) + obb_radius_along(b, l) - fabs(d);
    if (overlap < 0.0) return false;
    bool better = id < 6 ? overlap < best : overlap < 0.95 * best - 1e-4;
    if (better) {
      best = overlap;
      best_n = d >= 0.0 ? l : v3_neg(l);
      best_id = id;
    }
  }
  *depth = best;
  *normal = best_n;
  *axis_id = best_id;
  return true;
}

/* Closest points of the segments p + s·u (|s| <= ea) and q + t·w (|t| <= eb); returns their
 * midpoint. */
static grip_vec3 segment_midpoint(grip_vec3 p, grip_vec3 u, double ea, grip_vec3 q, grip_vec3 w, double eb) {
  grip_vec3 r = v3_sub(p, q);
  double b = v3_dot(u, w), c = v3_dot(u, r), f = v3_dot(w, r);
  double denom = 1.0 - b * b;
  double s = denom > 1e-12 ? clampd((b * f - c) / denom, -ea, ea) : 0.0;
  double t = clampd(b * s + f, -eb, eb);
  s = clampd(b * t - c, -ea, ea);
  return v3_scale(v3_add(v3_mad(p, u, s), v3_mad(q, w, t)), 0.5);
}

/* Clips the convex polygon p (n points) to the side u·x <= limit of a plane; returns the new
 * count (at most n + 1; q holds room for it). */
static int clip_polygon(const grip_vec3 *p, int n, grip_vec3 u, double limit, grip_vec3 *q) {
  int m = 0;
  for (int i = 0; i < n; ++i) {
    grip_vec3 s = p[i], e = p[(i + 1) % n];
    double ds = v3_dot(u, s) - limit, de = v3_dot(u, e) - limit;
    if (ds <= 0.0) q[m++] = s;
    if ((ds < 0.0 && de > 0.0) || (ds > 0.0 && de < 0.0)) q[m++] = v3_add(s, v3_scale(v3_sub(e, s), ds / (ds - de)));
  }
  return m;
}

/* Face contact: the face of the incident box that looks most against the reference face's
 * normal nr, clipped to the reference face's sides (Sutherland-Hodgman against its four side
 * planes), keeps the points of the clipped polygon that are less than FACE_CONTACT_MARGIN in
 * front of the reference face, each at the middle of its penetration (or gap). Up to 8 points. */
static int face_contacts(const obb *ref, int k_ref, grip_vec3 nr, const obb *inc, grip_vec3 n, contact *out) {
  grip_vec3 face = v3_mad(ref->c, nr, ref->e[k_ref]);
  int k_inc = 0;
  double most = -1.0;
  for (int k = 0; k < 3; ++k) {
    double d = fabs(v3_dot(inc->u[k], nr));
    if (d > most) {
      most = d;
      k_inc = k;
    }
  }
  int k1 = (k_inc + 1) % 3, k2 = (k_inc + 2) % 3;
  grip_vec3 centre = v3_mad(inc->c, inc->u[k_inc], v3_dot(inc->u[k_inc], nr) > 0.0 ? -inc->e[k_inc] : inc->e[k_inc]);
  grip_vec3 s1 = v3_scale(inc->u[k1], inc->e[k1]), s2 = v3_scale(inc->u[k2], inc->e[k2]);
  grip_vec3 poly[8], next[8];
  poly[0] = v3_add(v3_add(centre, s1), s2);
  poly[1] = v3_add(v3_sub(centre, s1), s2);
  poly[2] = v3_sub(v3_sub(centre, s1), s2);
  poly[3] = v3_sub(v3_add(centre, s1), s2);
  int count = 4;
  for (int side = 0; side < 4 && count > 0; ++side) {
    int k = (k_ref + 1 + side / 2) % 3;
    grip_vec3 u = side % 2 ? v3_neg(ref->u[k]) : ref->u[k];
    count = clip_polygon(poly, count, u, v3_dot(u, ref->c) + ref->e[k], next);
    memcpy(poly, next, (size_t)count * sizeof *poly);
  }
  int kept = 0;
  for (int i = 0; i < count; ++i) {
    double gap = v3_dot(v3_sub(poly[i], face), nr); /* < 0: inside the reference box */
    if (gap > FACE_CONTACT_MARGIN) continue;
    out[kept++] = (contact){.point = v3_mad(poly[i], nr, -0.5 * gap), .normal = n};
  }
  return kept;
}

/* Contact points of two overlapping boxes along normal n (a to b). On a face axis, the clipped
 * incident face (face_contacts); on an edge axis, the midpoint of the closest points of the
 * two support edges. */
static int obb_contacts(const obb *a, const obb *b, grip_vec3 n, int axis_id, contact *out) {
  if (axis_id < 3) {
    grip_vec3 nr = v3_dot(a->u[axis_id], n) >= 0.0 ? a->u[axis_id] : v3_neg(a->u[axis_id]);
    int count = face_contacts(a, axis_id, nr, b, n, out);
    if (count > 0) return count;
  } else if (axis_id < 6) {
    grip_vec3 m = v3_neg(n);
    grip_vec3 nr = v3_dot(b->u[axis_id - 3], m) >= 0.0 ? b->u[axis_id - 3] : v3_neg(b->u[axis_id - 3]);
    int count = face_contacts(b, axis_id - 3, nr, a, n, out);
    if (count > 0) return count;
  }
  grip_vec3 point;
  if (axis_id >= 6) {
    int i = (axis_id - 6) / 3, j = (axis_id - 6) % 3;
    grip_vec3 pa = a->c, pb = b->c;
    for (int k = 0; k < 3; ++k) {
      if (k != i) pa = v3_mad(pa, a->u[k], v3_dot(a->u[k], n) >= 0.0 ? a->e[k] : -a->e[k]);
      if (k != j) pb = v3_mad(pb, b->u[k], v3_dot(b->u[k], n) >= 0.0 ? -b->e[k] : b->e[k]);
    }
    point = segment_midpoint(pa, a->u[i], a->e[i], pb, b->u[j], b->e[j]);
  } else {
    /* No point of the clipped face within the margin (only when rounding disagrees with the
     * separating-axis test): the middle between the point of a nearest b's centre and the
     * point of b nearest to that. */
    grip_vec3 pa = a->c, d = v3_sub(b->c, a->c);
    for (int k = 0; k < 3; ++k) pa = v3_mad(pa, a->u[k], clampd(v3_dot(d, a->u[k]), -a->e[k], a->e[k]));
    grip_vec3 pb = b->c, e = v3_sub(pa, b->c);
    for (int k = 0; k < 3; ++k) pb = v3_mad(pb, b->u[k], clampd(v3_dot(e, b->u[k]), -b->e[k], b->e[k]));
    point = v3_scale(v3_add(pa, pb), 0.5);
  }
  out[0] = (contact){.point = point, .normal = n};
  return 1;
}

/* World height at which the vertical through q meets the vehicle's impact plane, the plane
 * through its CG square to its up axis; false when the vehicle leans more than 60 degrees
 * (the plane is then too steep to say). */
static bool impact_plane_z(const obb *b, const vehicle *v, grip_vec3 q, double *z) {
  grip_vec3 up = b->u[2];
  if (!(fabs(up.z) >= 0.5)) return false;
  *z = q.z - v3_dot(v3_sub(q, v->position), up) / up.z;
  return true;
}

/* Impacts between vehicles act where their crash structures meet (bumpers, sills, door beams,
 * built at about the height of a car's CG), not wherever the boxes touch: each contact point
 * moves along the world vertical to the mean height of the two impact planes (the one plane of
 * an upright vehicle if the other leans over), kept within the height both boxes span. Both
 * vehicles take the impulse at the one point, so momentum and angular momentum stay conserved.
 * The box reaches from the sills to the roof: a corner struck at the box's mid-height (0.3 m
 * above the CG) gave the car 5.5 rad/s of roll in one step and turned it onto its side. */
static void impact_heights(const obb *a, const vehicle *va, const obb *b, const vehicle *vb, contact *ks, int n) {
  grip_vec3 z_axis = v3(0, 0, 1);
  double lo = fmax(a->c.z - obb_radius_along(a, z_axis), b->c.z - obb_radius_along(b, z_axis));
  double hi = fmin(a->c.z + obb_radius_along(a, z_axis), b->c.z + obb_radius_along(b, z_axis));
  if (!(lo <= hi)) return;
  for (int i = 0; i < n; ++i) {
    double za, zb, z;
    bool ha = impact_plane_z(a, va, ks[i].point, &za), hb = impact_plane_z(b, vb, ks[i].point, &zb);
    if (ha && hb)
      z = 0.5 * (za + zb);
    else if (ha)
      z = za;
    else if (hb)
      z = zb;
    else
      continue;
    ks[i].point.z = clampd(z, lo, hi);
  }
}

/* --- walls ------------------------------------------------------------------------------- */

/* Test points on the box (CG-relative, body frame) at the current pose: its 8 corners and the
 * middles of its 4 long edges (so that a wall's end poking into a side is seen), and, where one
 * of the 6 vertical edges through them crosses the height of the wall's top, the point just
 * below that top (so that a car rolled over the top of a wall still meets it). Returns the
 * count. */
static int wall_points(const grip_barrier *bar, vehicle *v, grip_vec3 *out) {
  grip_ground_query query = grip_vehicle_ground_query(v, GRIP_GROUND_QUERY_BODY);
  grip_vec3 h = v3_scale(v->def->body.dimensions, 0.5), o = box_offset(v);
  mat3 r = mat3_from_quat(v->rotation);
  int n = 0;
  for (int i = 0; i < 6; ++i) {
    double sx = (double)(i % 3) - 1.0, sy = i / 3 ? 1.0 : -1.0;
    grip_vec3 lo = v3_add(o, v3(sx * h.x, sy * h.y, -h.z)), hi = v3_add(o, v3(sx * h.x, sy * h.y, h.z));
    out[n++] = lo;
    out[n++] = hi;
    grip_vec3 wl = v3_add(v->position, mat3_mul(&r, lo)), wh = v3_add(v->position, mat3_mul(&r, hi));
    grip_barrier_hit hit;
    if (!bar->query(bar->context, &query, wl.x, wl.y, &hit) || !isfinite(hit.top)) continue;
    double top = hit.top - 1e-3;
    if ((wl.z < top) != (wh.z < top)) {
      double t = clampd((top - wl.z) / (wh.z - wl.z), 0.0, 1.0);
      out[n++] = v3_add(lo, v3_scale(v3_sub(hi, lo), t));
    }
  }
  return n;
}

/* m: no point of the body box lies further from the CG. */
static double box_reach(const vehicle *v) { return v->type->box_reach; }

/* Barrier query for a world point: true when the point is below the wall's top. */
static bool wall_query(const grip_barrier *bar, vehicle *v, grip_vec3 p, grip_barrier_hit *hit) {
  grip_ground_query query = grip_vehicle_ground_query(v, GRIP_GROUND_QUERY_BODY);
  if (!bar->query(bar->context, &query, p.x, p.y, hit)) return false;
  if (!isfinite(hit->distance) || !finite3_ok(hit->normal) || isnan(hit->top)) return false;
  return p.z < hit->top;
}

/* Deepest penetration of the box into the walls at the current pose; *normal is that wall's.
 * -INFINITY (none) without asking for every box point when the wall is further from the centre
 * of mass than any box point reaches, + 0.1 m (the wall distance changes by at most the
 * distance moved, as in grip_collision_wall_pass's first test). */
static double wall_depth(const grip_barrier *bar, vehicle *v, grip_vec3 *normal) {
  double reach = box_reach(v);
  grip_ground_query query = grip_vehicle_ground_query(v, GRIP_GROUND_QUERY_BODY);
  grip_barrier_hit near;
  if (bar->query(bar->context, &query, v->position.x, v->position.y, &near) && near.distance > reach + 0.1)
    return -INFINITY;
  mat3 r = mat3_from_quat(v->rotation);
  double deepest = -INFINITY;
  grip_vec3 pts[WALL_POINTS];
  int n = wall_points(bar, v, pts);
  for (int i = 0; i < n; ++i) {
    grip_vec3 p = v3_add(v->position, mat3_mul(&r, pts[i]));
    grip_barrier_hit h;
    if (wall_query(bar, v, p, &h) && -h.distance > deepest) {
      deepest = -h.distance;
      *normal = h.normal;
    }
  }
  return deepest;
}

/* The vehicle against the walls over its step; returns the contact points recorded. */
int grip_collision_wall_pass(collision_world *c, vehicle *v, int slot, const grip_world_def *def, double dt) {
  const grip_barrier *bar = &def->barrier;
  grip_vec3 p0 = c->start_position[slot];
  double reach = box_reach(v);
  double travel = v3_length(v3_sub(v->position, p0)) + v3_length(v->angular_velocity) * reach * dt;
  double clear = reach + travel + 0.1; /* m: walls further than this from the CG are out of reach */
  /* A barrier that bounds how fast its distance shrinks (distance_rate) proves the walls out of
   * reach with the distance found earlier at another position, less that rate times the
   * horizontal distance moved since: a car in the middle of a track asks about once in 15 steps
   * instead of every step. Walls that may move (moving_ground) are asked every step. */
  wall_clear *known = &c->wall_clear[slot];
  bool keep = bar->distance_rate > 0.0 && !def->moving_ground;
  if (keep) {
    double dx = v->position.x - known->x, dy = v->position.y - known->y;
    if (known->distance - bar->distance_rate * sqrt(dx * dx + dy * dy) > clear) return 0;
  }
  grip_barrier_hit h;
  grip_ground_query query = grip_vehicle_ground_query(v, GRIP_GROUND_QUERY_BODY);
  if (!bar->query(bar->context, &query, v->position.x, v->position.y, &h)) {
    known->distance = -INFINITY;
    return 0;
  }
  if (keep) *known = (wall_clear){v->position.x, v->position.y, h.distance};
  if (!(h.distance <= clear)) return 0;

  /* Swept test: each point's signed distance, linear along its path over the step. */
  mat3 r0 = mat3_from_quat(c->start_rotation[slot]), r1 = mat3_from_quat(v->rotation);
  double first = 1.0;
  bool near = false;
  grip_vec3 pts[WALL_POINTS];
  int count = wall_points(bar, v, pts);
  for (int i = 0; i < count; ++i) {
    grip_vec3 b = pts[i];
    grip_barrier_hit h1, h0;
    if (!wall_query(bar, v, v3_add(v->position, mat3_mul(&r1, b)), &h1) || h1.distance >= WALL_TOUCH) continue;
    near = true;
    if (h1.distance >= 0.0) continue;
    if (wall_query(bar, v, v3_add(p0, mat3_mul(&r0, b)), &h0) && h0.distance > 0.0) {
      double s = h0.distance / (h0.distance - h1.distance);
      if (s < first) first = s;
    }
  }
  if (!near) return 0;
  double rest = 0.0;
  /* The pose changes from here on: the broad phase's bounds are taken again at the end. */
  if (first < 1.0) {
    grip_contact_pose_between(c->start_position[slot], c->start_rotation[slot], v, first, &v->position, &v->rotation);
    rest = (1.0 - first) * dt;
  }

  contact ks[WALL_POINTS];
  int n = 0;
  mat3 r = mat3_from_quat(v->rotation);
  for (int i = 0; i < count; ++i) {
    grip_vec3 p = v3_add(v->position, mat3_mul(&r, pts[i]));
    grip_barrier_hit hi;
    if (wall_query(bar, v, p, &hi) && hi.distance < WALL_TOUCH)
      ks[n++] = (contact){.point = v3_mad(p, hi.normal, -0.5 * hi.distance), .normal = hi.normal};
  }
  if (n > 0) {
    body wall = grip_contact_make_body(NULL), car = grip_contact_make_body(v);
    solve_result res = grip_contact_solve(&wall, &car, ks, n, def->restitution, def->friction);
    record(c, slot, v, n, res, GRIP_NULL_VEHICLE);
  }
  grip_contact_advance(v, rest);

  /* Position correction: translate out along the deepest wall's normal down to the slop. */
  for (int pass = 0; pass < 2; ++pass) {
    grip_vec3 normal = v3(0, 0, 0);
    double depth = wall_depth(bar, v, &normal);
    if (!(depth > WALL_SLOP)) break;
    v->position = v3_mad(v->position, normal, depth - WALL_SLOP);
  }
  if (c->pairs_possible) grip_collision_reach_bounds(c, slot, v);
  return n;
}

/* --- vehicle pairs ----------------------------------------------------------------------- */

static bool pair_overlaps_at(const collision_world *c, int ia, const vehicle *a, int ib, const vehicle *b,
                             double s) {
  grip_vec3 pa, pb;
  grip_quat qa, qb;
  grip_contact_pose_between(c->start_position[ia], c->start_rotation[ia], a, s, &pa, &qa);
  grip_contact_pose_between(c->start_position[ib], c->start_rotation[ib], b, s, &pb, &qb);
  obb oa = make_obb(a, pa, qa), ob = make_obb(b, pb, qb);
  double depth;
  grip_vec3 n;
  int id;
  return obb_overlap(&oa, &ob, &depth, &n, &id);
}

static double smallest_dimension(const vehicle *v) {
  grip_vec3 d = v->def->body.dimensions;
  return mind(d.x, mind(d.y, d.z));
}

static void pair_pass(collision_world *c, vehicle *vs, int ia, int ib, const grip_world_def *def, double dt) {
  vehicle *a = &vs[ia], *b = &vs[ib];
  /* Swept test: sample the relative motion finely enough that neither box can jump a quarter
   * of its smallest dimension between samples, then bisect to the first touching time. */
  double first = 1.0;
  if (!pair_overlaps_at(c, ia, a, ib, b, 0.0)) {
    grip_vec3 da = v3_sub(a->position, c->start_position[ia]), db = v3_sub(b->position, c->start_position[ib]);
    double travel = v3_length(v3_sub(db, da)) +
                    (v3_length(a->angular_velocity) * box_reach(a) + v3_length(b->angular_velocity) * box_reach(b)) * dt;
    double step = 0.25 * mind(smallest_dimension(a), smallest_dimension(b));
    int k = (int)clampd(ceil(travel / step), 1.0, (double)MAX_SUBSTEPS);
    int hit = 0;
    for (int j = 1; j <= k && !hit; ++j)
      if (pair_overlaps_at(c, ia, a, ib, b, (double)j / k)) hit = j;
    if (!hit) return;
    double lo = (double)(hit - 1) / k, hi = (double)hit / k;
    for (int it = 0; it < BISECTIONS; ++it) {
      double mid = 0.5 * (lo + hi);
      if (pair_overlaps_at(c, ia, a, ib, b, mid))
        hi = mid;
      else
        lo = mid;
    }
    first = hi;
  }
  double rest = 0.0;
  if (first < 1.0) {
    grip_contact_pose_between(c->start_position[ia], c->start_rotation[ia], a, first, &a->position, &a->rotation);
    grip_contact_pose_between(c->start_position[ib], c->start_rotation[ib], b, first, &b->position, &b->rotation);
    rest = (1.0 - first) * dt;
  }
  obb oa = make_obb(a, a->position, a->rotation), ob = make_obb(b, b->position, b->rotation);
  double depth;
  grip_vec3 n;
  int id;
  if (obb_overlap(&oa, &ob, &depth, &n, &id)) {
    contact ks[MAX_CONTACTS];
    int count = obb_contacts(&oa, &ob, n, id, ks);
    impact_heights(&oa, a, &ob, b, ks, count);
    body ba = grip_contact_make_body(a), bb = grip_contact_make_body(b);
    solve_result res = grip_contact_solve(&ba, &bb, ks, count, def->restitution, def->friction);
    record(c, ia, a, count, res, (grip_vehicle_id){(uint32_t)ib + 1, b->generation});
    record(c, ib, b, count, res, (grip_vehicle_id){(uint32_t)ia + 1, a->generation});
  }
  grip_contact_advance(a, rest);
  grip_contact_advance(b, rest);

  /* Position correction: push the boxes apart along the least-penetration axis, split by
   * mass so that the pair's centre of mass stays put. */
  oa = make_obb(a, a->position, a->rotation);
  ob = make_obb(b, b->position, b->rotation);
  if (obb_overlap(&oa, &ob, &depth, &n, &id) && depth > CAR_SLOP) {
    double ma = a->body_mass + a->fuel_mass, mb = b->body_mass + b->fuel_mass;
    double push = depth - CAR_SLOP;
    a->position = v3_mad(a->position, n, -push * mb / (ma + mb));
    b->position = v3_mad(b->position, n, push * ma / (ma + mb));
  }
}

/* The bounds of the chassis box at pose (p, q), widened by CAR_SLOP: its centre p + R·offset ±
 * its half extent along each world axis, Σ_j e_j·|R_kj|. R's columns are the box's axes u_j;
 * R·offset is Σ_j u_j·offset_j, summed from the left as mat3_mul's rows are, and e_j·|u_j| is
 * make_obb's product, so the bounds are those of the obb the narrow phase tests. x and y side by
 * side in a lane (lanes.h: the same bits as one at a time), z alone. */
static inline __attribute__((always_inline)) void pose_bounds(const vehicle *v, grip_vec3 p, grip_quat q,
                                                              double lo[3], double hi[3]) {
  grip_vec3 offset = box_offset(v);
  double e0 = 0.5 * v->def->body.dimensions.x, e1 = 0.5 * v->def->body.dimensions.y,
         e2 = 0.5 * v->def->body.dimensions.z;
  mat3 r = mat3_from_quat(q);
  lane u0 = {r.r0.x, r.r1.x}, u1 = {r.r0.y, r.r1.y}, u2 = {r.r0.z, r.r1.z};
  lane centre = (lane){p.x, p.y} + ((u0 * offset.x + u1 * offset.y) + u2 * offset.z);
  lane reach = (lane_abs(u0) * e0 + lane_abs(u1) * e1) + lane_abs(u2) * e2;
  lane_store(lo, (centre - reach) - CAR_SLOP);
  lane_store(hi, (centre + reach) + CAR_SLOP);
  double centre_z = p.z + ((r.r2.x * offset.x + r.r2.y * offset.y) + r.r2.z * offset.z);
  double reach_z = (fabs(r.r2.x) * e0 + fabs(r.r2.y) * e1) + fabs(r.r2.z) * e2;
  lo[2] = (centre_z - reach_z) - CAR_SLOP;
  hi[2] = (centre_z + reach_z) + CAR_SLOP;
}

/* Bounding box of a chassis box over the step (start and end poses), with CAR_SLOP, into the
 * slot's box_min and box_max: the narrow phase's boxes, taken only for the cars the reach found
 * near another. The start pose's bounds are the memo's when the car starts the step where they
 * were taken. */
static void swept_bounds(collision_world *c, int slot, const vehicle *v) {
  pose_box *memo = &c->last_box[slot];
  double l0[3], h0[3], l1[3], h1[3];
  if (memo->valid && memcmp(&memo->position, &c->start_position[slot], sizeof memo->position) == 0 &&
      memcmp(&memo->rotation, &c->start_rotation[slot], sizeof memo->rotation) == 0) {
    memcpy(l0, memo->lo, sizeof l0);
    memcpy(h0, memo->hi, sizeof h0);
  } else {
    pose_bounds(v, c->start_position[slot], c->start_rotation[slot], l0, h0);
  }
  pose_bounds(v, v->position, v->rotation, l1, h1);
  memcpy(memo->lo, l1, sizeof l1);
  memcpy(memo->hi, h1, sizeof h1);
  memo->position = v->position;
  memo->rotation = v->rotation;
  memo->valid = true;
  double *lo = &c->box_min[3 * slot], *hi = &c->box_max[3 * slot];
  for (int k = 0; k < 3; ++k) {
    lo[k] = mind(l0[k], l1[k]);
    hi[k] = maxd(h0[k], h1[k]);
  }
}

static bool before(const double *key, int a, int b) { return key[a] < key[b] || (key[a] == key[b] && a < b); }

/* Sorts the n slots in order by insertion on (key[3·slot], slot): a total order, so the pairs
 * are visited in the same order whatever the history. */
static void sort_along(int *order, int n, const double *key) {
  for (int i = 1; i < n; ++i) {
    int s = order[i], j = i - 1;
    while (j >= 0 && before(key, 3 * s, 3 * order[j])) {
      order[j + 1] = order[j];
      --j;
    }
    order[j + 1] = s;
  }
}

/* Whether slot a's and slot b's bounds ([lo, hi], 3 per slot) overlap. */
static bool bounds_overlap(const double *lo, const double *hi, int a, int b) {
  bool overlap = true;
  for (int k = 0; k < 3; ++k) overlap = overlap && lo[3 * a + k] <= hi[3 * b + k] && lo[3 * b + k] <= hi[3 * a + k];
  return overlap;
}

/* One pair the sweep meets along its axis, if their bounds overlap on all three axes and they
 * are not hitched: each of the two marked near and listed in near_order once (the first pass),
 * or the pair resolved (the second). */
static __attribute__((noinline)) void sweep_meet(collision_world *c, const double *lo, const double *hi, int a, int b,
                                                 bool resolve, vehicle *vs, const grip_world_def *def, double dt) {
  if (!bounds_overlap(lo, hi, a, b) || hitched(c, a, b)) return;
  if (resolve) {
    pair_pass(c, vs, a < b ? a : b, a < b ? b : a, def, dt);
    return;
  }
  for (int k = 0; k < 2; ++k) {
    int s = k == 0 ? a : b;
    if (!c->near[s]) {
      c->near[s] = 1;
      c->near_order[c->near_count++] = s;
    }
  }
}

/* Sorts the n slots in order along axis by (lo, slot) and visits, in that order, every pair of
 * them whose bounds ([lo, hi], 3 per slot) overlap and that are not hitched: it marks both near
 * (the first pass) or, with resolve, resolves the pair (the second). A pair is met while the
 * later one's lo along the axis is within the earlier one's hi. */
static void sweep(collision_world *c, int *order, int n, const double *lo, const double *hi, int axis, bool resolve,
                  vehicle *vs, const grip_world_def *def, double dt) {
  sort_along(order, n, lo + axis);
  /* Nearly every car's loop ends at its first test (the next car along the axis is clear of
   * it): the rest of a pair's test is a call (sweep_meet), so that the loop's few instructions
   * are all a car costs. */
  for (int i = 0; i < n; ++i) {
    int a = order[i];
    double end = hi[3 * a + axis];
    for (int j = i + 1; j < n && !(lo[3 * order[j] + axis] > end); ++j)
      sweep_meet(c, lo, hi, a, order[j], resolve, vs, def, dt);
  }
}

/* Steps between the first pass's looks at the spread (vehicle_pairs). Any count finds the same
 * near cars; at 16 the look (~20 instructions a car) costs about one a car-step, and the cars'
 * spread changes little in 16 steps (0.16 s at most). */
#define AXIS_REFRESH 16

/* The axis, x (0) or y (1), along which the active cars' reaches spread more: the variance of
 * their centres. The second pass sweeps along it, so that the pairs are visited in its order. */
static int spread_axis(const collision_world *c, int used) {
  int active = 0;
  double mean[2] = {0, 0}, sq[2] = {0, 0};
  for (int i = 0; i < used; ++i) {
    if (!c->active[i]) continue; /* reach from collision_end_slot, or the wall pass if it moved the car */
    for (int k = 0; k < 2; ++k) {
      double m = 0.5 * (c->reach_min[3 * i + k] + c->reach_max[3 * i + k]);
      mean[k] += m;
      sq[k] += m * m;
    }
    ++active;
  }
  double var_x = sq[0] - mean[0] * mean[0] / active, var_y = sq[1] - mean[1] * mean[1] / active;
  return var_y > var_x ? 1 : 0;
}

/* Sweep and prune in two passes. The first sweeps every car's reach
 * (grip_collision_reach_bounds) and marks the cars whose reach meets another's: the same cars
 * along any axis. The second takes the exact swept boxes of those cars alone and sweeps them
 * along this step's spread axis. A box lies within its reach, so every pair whose boxes overlap
 * is among the marked cars; the marked cars sorted by their boxes keep the order all the cars
 * would have, and the second sweep stops for a car where a sweep of all of them would: it visits
 * the same pairs in the same order as a sweep of every car's box along that axis. */
static void vehicle_pairs(collision_world *c, vehicle *vs, int used, const grip_world_def *def, double dt) {
  if (!c->pairs_possible) return; /* fewer than two alive: no pair, and no bounds were taken */
  /* The order starts from the last step's, the cars that left it taken out and the new ones
   * added: nearly sorted, the insertion sort then costs a comparison or two a car. The sort's
   * order is total, so where it starts changes nothing in it. The order holds exactly the slots
   * its snapshot (order_active, of order_used slots) calls active; while the active slots are
   * those (nearly always), it is left as it is. */
  if (used != c->order_used || memcmp(c->active, c->order_active, (size_t)used) != 0) {
    int n = 0;
    for (int k = 0; k < c->order_count; ++k) {
      int s = c->order[k];
      if (s < used && c->active[s]) c->order[n++] = s;
    }
    for (int i = 0; i < used; ++i)
      if (c->active[i] && !(i < c->order_used && c->order_active[i])) c->order[n++] = i;
    c->order_count = n;
    memcpy(c->order_active, c->active, (size_t)used);
    c->order_used = used;
  }
  int n = c->order_count;
  if (n < 2) return;
  /* The first pass finds the same near cars along any axis: it sweeps along the spread axis as
   * last taken (by the second pass, or every AXIS_REFRESH steps), which is nearly always this
   * step's; the spread is worked out at every step only where a second pass runs. */
  if (c->axis_age++ % AXIS_REFRESH == 0) c->first_axis = spread_axis(c, used);
  c->near_count = 0;
  sweep(c, c->order, n, c->reach_min, c->reach_max, c->first_axis, false, vs, def, dt);
  int m = c->near_count;
  for (int k = 0; k < m; ++k) {
    int a = c->near_order[k];
    c->near[a] = 0;
    swept_bounds(c, a, &vs[a]); /* before any pair moves a car */
  }
  if (m < 2) return;
  int axis = c->first_axis = spread_axis(c, used);
  sweep(c, c->near_order, m, c->box_min, c->box_max, axis, true, vs, def, dt);
}

void grip_collision_step(collision_world *c, vehicle *vs, int used, const grip_world_def *def, double dt) {
  bool walls = def->barrier.query != NULL;
  /* The walls were met in the vehicles' own steps: their points, as the workers counted them. */
  c->step_points = c->step_vehicle_points = 0;
  for (int w = 0; w < c->workers; ++w) c->step_points += c->wall_points[w].points;
  vehicle_pairs(c, vs, used, def, dt);
  /* What follows reads every slot's record, which the threads that stepped the vehicles wrote
   * (a cache line per slot from another core): only when this pass recorded a contact. */
  if (c->step_points == 0) return;
  /* The ground wins over the pairs' position corrections: a car pushed down by another is put
   * back on the ground. */
  for (int i = 0; i < used && c->step_vehicle_points > 0; ++i)
    if (c->contacts[i].vehicle_count > 0 && vs[i].alive && !vs[i].out_of_world) grip_ground_contact_push_out(&vs[i], def);
  /* Walls win over the pairs' position corrections. */
  if (walls && c->step_vehicle_points > 0)
    for (int i = 0; i < used; ++i) {
      vehicle *v = &vs[i];
      if (c->contacts[i].vehicle_count == 0 || !v->alive) continue;
      grip_vec3 normal = v3(0, 0, 0);
      double depth = wall_depth(&def->barrier, v, &normal);
      if (depth > WALL_SLOP) v->position = v3_mad(v->position, normal, depth - WALL_SLOP);
    }
  for (int i = 0; i < used; ++i) {
    vehicle *v = &vs[i];
    if (c->contacts[i].count == 0 || !v->alive) continue; /* the compact array first */
    /* The impulse shows in the reported acceleration; nothing non-finite may leave the step. */
    if (finite3_ok(v->position) && finite3_ok(v->velocity) && finite3_ok(v->angular_velocity) &&
        isfinite(v->rotation.w) && isfinite(v->rotation.x) && isfinite(v->rotation.y) && isfinite(v->rotation.z)) {
      v->acceleration = v3_mad(v->acceleration, v3_sub(v->velocity, c->end_velocity[i]), 1.0 / dt);
    } else {
      v->position = c->start_position[i];
      v->rotation = c->start_rotation[i];
      v->velocity = v3(0, 0, 0);
      v->angular_velocity = v3(0, 0, 0);
    }
  }
}
