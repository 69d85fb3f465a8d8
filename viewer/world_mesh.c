/* Generated meshes: see world_mesh.h. */
#include "world_mesh.h"

#include <math.h>

void world_surface_color(const grip_surface *s, float out[3]) {
  /* The preset the surface is (same friction and rolling resistance), else the nearest kind. */
  static const struct {
    const char *name;
    float rgb[3];
  } colors[] = {{"asphalt", {0.30f, 0.30f, 0.31f}}, {"concrete", {0.55f, 0.55f, 0.52f}},
                {"grass", {0.20f, 0.45f, 0.13f}},   {"gravel", {0.58f, 0.53f, 0.44f}},
                {"sand", {0.82f, 0.72f, 0.50f}},    {"snow", {0.92f, 0.93f, 0.96f}},
                {"ice", {0.75f, 0.85f, 0.92f}}};
  int best = 0;
  double best_gap = INFINITY;
  for (int i = 0; i < (int)(sizeof colors / sizeof colors[0]); ++i) {
    grip_surface p = grip_surface_preset(colors[i].name);
    double gap = fabs(p.friction - s->friction) + 4.0 * fabs(p.rolling_resistance - s->rolling_resistance);
    if (gap < best_gap) best_gap = gap, best = i;
  }
  for (int k = 0; k < 3; ++k) out[k] = colors[best].rgb[k];
}

/* World point at a distance along the track and a lateral offset (+ left), on the surface. */
static void track_point(const grip_track *track, const grip_track_point *p, double lateral, int *hint,
                        const double origin[3], float out[3], double *z) {
  double x = p->position.x - sin(p->heading) * lateral, y = p->position.y + cos(p->heading) * lateral;
  grip_track_location loc = grip_track_locate(track, x, y, *hint);
  *hint = loc.segment;
  *z = loc.z;
  out[0] = (float)(x - origin[0]);
  out[1] = (float)(y - origin[1]);
  out[2] = (float)(loc.z - origin[2]);
}

enum { TRACK_COLUMNS = 7 };

void world_mesh_track(mesh_data *m, const grip_track *track, const double origin[3], double ground_z) {
  static const float kerb_red[3] = {0.75f, 0.08f, 0.06f}, kerb_white[3] = {0.92f, 0.92f, 0.92f};
  static const float wall[3] = {0.72f, 0.72f, 0.70f}, wall_top[3] = {0.85f, 0.25f, 0.15f};
  static const float line_white[3] = {0.97f, 0.97f, 0.97f};
  const double L = grip_track_length(track);
  const int segments = grip_track_segment_count(track);
  int hint = 0;
  for (int i = 0; i < segments; ++i) {
    const grip_track_segment_def *sd = grip_track_segment(track, i);
    double start = grip_track_segment_start(track, i);
    double end = i + 1 < segments ? grip_track_segment_start(track, i + 1) : L;
    double len = end - start;
    int n = (int)ceil(len / 4.0);
    if (sd->type != GRIP_TRACK_STRAIGHT) {
      int by_angle = (int)ceil(sd->angle / 0.025);
      if (by_angle > n) n = by_angle;
    }
    if (n < 1) n = 1;
    float prev[TRACK_COLUMNS][3];
    double prev_z[TRACK_COLUMNS];
    float road[3], runoff[2][3];
    world_surface_color(&sd->surface, road);
    world_surface_color(&sd->side[0].runoff_surface, runoff[0]);
    world_surface_color(&sd->side[1].runoff_surface, runoff[1]);
    road[0] *= 0.95f;
    for (int j = 0; j <= n; ++j) {
      double frac = (double)j / n;
      double d = start + len * frac - (j == n ? 1e-4 : 0.0);
      grip_track_point p = grip_track_point_at(track, d);
      double hw = 0.5 * p.width;
      double lat[TRACK_COLUMNS];
      for (int side = 0; side < 2; ++side) {
        const grip_track_side_def *sdef = &sd->side[side];
        double runoff_w = sdef->runoff_width_start + frac * (sdef->runoff_width_end - sdef->runoff_width_start);
        double sign = side == GRIP_TRACK_SIDE_LEFT ? 1.0 : -1.0;
        double kerb = hw + sdef->kerb_width, barrier = kerb + runoff_w;
        /* Inside a tight turn the strips cannot reach past the turn's centre. */
        if (p.curvature * sign > 0.0) {
          double limit = 1.0 / fabs(p.curvature) - 0.5;
          if (barrier > limit) barrier = fmax(limit, kerb);
        }
        lat[side == GRIP_TRACK_SIDE_LEFT ? 4 : 2] = sign * hw;
        lat[side == GRIP_TRACK_SIDE_LEFT ? 5 : 1] = sign * kerb;
        lat[side == GRIP_TRACK_SIDE_LEFT ? 6 : 0] = sign * (barrier - 0.01);
      }
      lat[3] = 0.0;
      float cur[TRACK_COLUMNS][3];
      double cur_z[TRACK_COLUMNS];
      for (int k = 0; k < TRACK_COLUMNS; ++k) track_point(track, &p, lat[k], &hint, origin, cur[k], &cur_z[k]);
      if (j > 0) {
        bool red = ((int)floor(d / 3.0)) % 2 == 0;
        const float *colors[TRACK_COLUMNS - 1] = {runoff[0], red ? kerb_red : kerb_white, road, road,
                                                  red ? kerb_red : kerb_white, runoff[1]};
        for (int k = 0; k < TRACK_COLUMNS - 1; ++k)
          mesh_quad(m, prev[k], prev[k + 1], cur[k + 1], cur[k], colors[k]);
        /* Barriers: the inner face from the surface up, the top, the outer face down to the
         * ground plane. */
        for (int side = 0; side < 2; ++side) {
          int k = side == 0 ? 0 : TRACK_COLUMNS - 1;
          double h = sd->side[side].barrier_height;
          if (h <= 0.0) continue;
          float out = side == 0 ? -1.0f : 1.0f;
          float a[3], b[3], c[3], e[3], a2[3], b2[3], g0[3], g1[3];
          for (int q = 0; q < 3; ++q) {
            a[q] = prev[k][q];
            b[q] = cur[k][q];
          }
          c[0] = b[0], c[1] = b[1], c[2] = b[2] + (float)h;
          e[0] = a[0], e[1] = a[1], e[2] = a[2] + (float)h;
          /* 0.3 m thick: offset outwards along the plan normal of the segment. */
          float dx = b[0] - a[0], dy = b[1] - a[1], dl = sqrtf(dx * dx + dy * dy);
          float nx = dl > 0.0f ? -dy / dl : 0.0f, ny = dl > 0.0f ? dx / dl : 0.0f;
          nx *= out * 0.3f, ny *= out * 0.3f;
          a2[0] = e[0] + nx, a2[1] = e[1] + ny, a2[2] = e[2];
          b2[0] = c[0] + nx, b2[1] = c[1] + ny, b2[2] = c[2];
          g0[0] = a2[0], g0[1] = a2[1], g0[2] = (float)(ground_z - origin[2]);
          g1[0] = b2[0], g1[1] = b2[1], g1[2] = g0[2];
          mesh_quad(m, a, b, c, e, wall);
          mesh_quad(m, e, c, b2, a2, wall_top);
          mesh_quad(m, a2, b2, g1, g0, wall);
          (void)prev_z;
        }
      }
      for (int k = 0; k < TRACK_COLUMNS; ++k) {
        prev[k][0] = cur[k][0], prev[k][1] = cur[k][1], prev[k][2] = cur[k][2];
        prev_z[k] = cur_z[k];
      }
    }
  }
  /* Start line: 1 m of white across the road at distance 0, 3 cm above it. */
  float row[2][3][3];
  for (int r = 0; r < 2; ++r) {
    grip_track_point p = grip_track_point_at(track, r == 0 ? L - 0.5 : 0.5);
    double hw = 0.5 * p.width;
    double lats[3] = {-hw, 0.0, hw};
    for (int k = 0; k < 3; ++k) {
      double z;
      track_point(track, &p, lats[k], &hint, origin, row[r][k], &z);
      row[r][k][2] += 0.03f;
    }
  }
  for (int k = 0; k < 2; ++k) mesh_quad(m, row[0][k], row[0][k + 1], row[1][k + 1], row[1][k], line_white);
}

terrain_uv terrain_uv_extent(const grip_heightfield_info *info) {
  /* Sample (c, r) sits at the centre of texel column c and of texel row rows-1-r of an image of
   * cols x rows texels: u = (x − left)/(cols·dx), v = (top − y)/(rows·dy). */
  const double left = info->origin_x - 0.5 * info->dx, top = info->origin_y + (info->rows - 0.5) * info->dy;
  terrain_uv uv = {0};
  uv.u_per_m = 1.0 / (info->cols * info->dx);
  uv.u0 = -left * uv.u_per_m;
  uv.v_per_m = -1.0 / (info->rows * info->dy);
  uv.v0 = -top * uv.v_per_m;
  return uv;
}

void world_mesh_terrain(mesh_data *m, const grip_heightfield *hf, int c0, int c1, int r0, int r1, int stride,
                        const double origin[3], const terrain_uv *uv) {
  grip_heightfield_info info;
  grip_heightfield_get_info(hf, &info);
  const double *h = grip_heightfield_heights(hf);
  if (c1 > info.cols) c1 = info.cols;
  if (r1 > info.rows) r1 = info.rows;
  double span = info.max_height - info.min_height;
  if (span <= 0.0) span = 1.0;
  uint32_t base = (uint32_t)m->vertex_count;
  int nc = 0, nr = 0;
  for (int r = r0;; r += stride) {
    if (r > r1 - 1) r = r1 - 1;
    nc = 0;
    for (int c = c0;; c += stride) {
      if (c > c1 - 1) c = c1 - 1;
      int cl = c > 0 ? c - 1 : c, cr = c + 1 < info.cols ? c + 1 : c;
      int rd = r > 0 ? r - 1 : r, ru = r + 1 < info.rows ? r + 1 : r;
      double gx = (h[r * info.cols + cr] - h[r * info.cols + cl]) / ((cr - cl) * info.dx);
      double gy = (h[ru * info.cols + c] - h[rd * info.cols + c]) / ((ru - rd) * info.dy);
      double nl = sqrt(gx * gx + gy * gy + 1.0);
      float n[3] = {(float)(-gx / nl), (float)(-gy / nl), (float)(1.0 / nl)};
      double z = h[r * info.cols + c];
      float p[3] = {(float)(info.origin_x + c * info.dx - origin[0]), (float)(info.origin_y + r * info.dy - origin[1]),
                    (float)(z - origin[2])};
      float t = (float)((z - info.min_height) / span), steep = 1.0f - n[2];
      float col[3] = {0.25f + 0.25f * t + 0.8f * steep, 0.45f + 0.1f * t + 0.2f * steep, 0.18f + 0.1f * t + 0.5f * steep};
      uint32_t v = mesh_vertex_add(m, p, n, col);
      if (!m->failed) {
        m->vertices[v].uv[0] = (float)(uv->u0 + uv->u_per_m * (info.origin_x + c * info.dx));
        m->vertices[v].uv[1] = (float)(uv->v0 + uv->v_per_m * (info.origin_y + r * info.dy));
      }
      ++nc;
      if (c == c1 - 1) break;
    }
    ++nr;
    if (r == r1 - 1) break;
  }
  for (int r = 0; r + 1 < nr; ++r)
    for (int c = 0; c + 1 < nc; ++c) {
      uint32_t a = base + (uint32_t)(r * nc + c), b = a + 1, d = a + (uint32_t)nc, e = d + 1;
      mesh_triangle(m, a, b, e);
      mesh_triangle(m, a, e, d);
    }
}

/* A prism between two horizontal rectangles: bottom [x0,x1]×[-w0,w0] at z0 and top
 * [x2,x3]×[-w1,w1] at z1; sides in side_color, top in top_color. */
static void tapered_box(mesh_data *m, float x0, float x1, float w0, float z0, float x2, float x3, float w1, float z1,
                        const float side_color[3], const float top_color[3]) {
  float b[4][3] = {{x0, -w0, z0}, {x1, -w0, z0}, {x1, w0, z0}, {x0, w0, z0}};
  float t[4][3] = {{x2, -w1, z1}, {x3, -w1, z1}, {x3, w1, z1}, {x2, w1, z1}};
  for (int i = 0; i < 4; ++i) {
    int j = (i + 1) % 4;
    mesh_quad(m, b[i], b[j], t[j], t[i], side_color);
  }
  mesh_quad(m, t[0], t[1], t[2], t[3], top_color);
  mesh_quad(m, b[3], b[2], b[1], b[0], side_color);
}

typedef struct car_shape {
  float front, rear, half_width, bottom, shoulder, top;
} car_shape;

static car_shape shape_of(const grip_vehicle_def *def) {
  const grip_body_def *b = &def->body;
  car_shape s;
  s.front = (float)(b->box_center.x + 0.5 * b->dimensions.x);
  s.rear = (float)(b->box_center.x - 0.5 * b->dimensions.x);
  s.half_width = (float)(0.5 * b->dimensions.y);
  s.bottom = (float)fmax(b->box_center.z - 0.5 * b->dimensions.z, 0.08);
  s.top = (float)fmax(b->box_center.z + 0.5 * b->dimensions.z, s.bottom + 0.4);
  s.shoulder = s.bottom + 0.55f * (s.top - s.bottom);
  return s;
}

void world_mesh_car_body(mesh_data *m, const grip_vehicle_def *def, const float color[3]) {
  static const float glass[3] = {0.08f, 0.10f, 0.14f}, lamp[3] = {0.95f, 0.92f, 0.75f};
  static const float dark[3] = {0.05f, 0.05f, 0.05f};
  car_shape s = shape_of(def);
  float len = s.front - s.rear;
  if (def->drivetrain.layout == GRIP_DRIVE_NONE) {
    /* A trailer: its whole box (a caravan's or a semi-trailer's body), the front edge rounded
     * off a little; the drawbar or kingpin is drawn with the hitch. */
    tapered_box(m, s.rear, s.front, s.half_width, s.bottom, s.rear, s.front - 0.015f * len, s.half_width * 0.98f, s.top,
                color, color);
    return;
  }
  if (s.top - s.bottom > 2.2f && len > 5.0f) {
    /* A truck (a body over 2.2 m tall and 5 m long): a cab-over cab at the front, 2.3 m long,
     * glass in its upper front, and a low frame behind it for the fifth wheel or the load. */
    static const float frame[3] = {0.12f, 0.12f, 0.13f};
    float cab = s.front - 2.3f, frame_top = s.bottom + 0.45f;
    tapered_box(m, cab, s.front, s.half_width, s.bottom, cab, s.front - 0.1f, s.half_width * 0.97f, s.top, color, color);
    float wz0 = s.bottom + 0.55f * (s.top - s.bottom), wz1 = s.top - 0.25f, wy = s.half_width * 0.85f;
    float xa = s.front + 0.003f - 0.1f * (wz0 - s.bottom) / (s.top - s.bottom), xb = s.front + 0.003f - 0.1f * (wz1 - s.bottom) / (s.top - s.bottom);
    float g0[3] = {xa, -wy, wz0}, g1[3] = {xa, wy, wz0}, g2[3] = {xb, wy, wz1}, g3[3] = {xb, -wy, wz1};
    mesh_quad(m, g0, g1, g2, g3, glass);
    tapered_box(m, s.rear, cab, s.half_width * 0.45f, s.bottom, s.rear, cab, s.half_width * 0.45f, frame_top, frame, frame);
    for (int side = -1; side <= 1; side += 2) { /* headlamps low on the cab */
      float y0 = side * s.half_width * 0.6f, y1 = side * s.half_width * 0.9f, z0 = s.bottom + 0.1f, z1 = s.bottom + 0.3f;
      float a[3] = {s.front + 0.004f, y0, z0}, b[3] = {s.front + 0.004f, y1, z0}, c[3] = {s.front + 0.004f, y1, z1},
            d[3] = {s.front + 0.004f, y0, z1};
      mesh_quad(m, a, b, c, d, lamp);
    }
    (void)dark;
    return;
  }
  /* Lower body, its nose a little lower than the tail. */
  tapered_box(m, s.rear, s.front, s.half_width, s.bottom, s.rear + 0.02f * len, s.front - 0.06f * len,
              s.half_width * 0.97f, s.shoulder, color, color);
  /* Cabin: a glass house on the shoulders, roof in the paint. */
  float c0 = s.rear + 0.22f * len, c1 = s.rear + 0.68f * len;
  tapered_box(m, c0, c1, s.half_width * 0.88f, s.shoulder, c0 + 0.12f * len, c1 - 0.16f * len, s.half_width * 0.72f,
              s.top, glass, color);
  /* Headlights and a dark grille. */
  float hz0 = s.bottom + 0.55f * (s.shoulder - s.bottom), hz1 = s.shoulder - 0.02f;
  float xf = s.front - 0.06f * len + 0.004f;
  for (int side = -1; side <= 1; side += 2) {
    float y0 = side * s.half_width * 0.55f, y1 = side * s.half_width * 0.9f;
    float a[3] = {xf + 0.06f * len * 0.45f, y0, hz0}, b[3] = {xf + 0.06f * len * 0.45f, y1, hz0};
    float c[3] = {xf, y1, hz1}, d[3] = {xf, y0, hz1};
    mesh_quad(m, a, b, c, d, lamp);
  }
  float g0[3] = {s.front + 0.003f, -s.half_width * 0.45f, s.bottom + 0.05f};
  float g1[3] = {s.front + 0.003f, s.half_width * 0.45f, s.bottom + 0.05f};
  float g2[3] = {s.front - 0.02f * len, s.half_width * 0.45f, hz0};
  float g3[3] = {s.front - 0.02f * len, -s.half_width * 0.45f, hz0};
  mesh_quad(m, g0, g1, g2, g3, dark);
}

void world_mesh_car_brake_lights(mesh_data *m, const grip_vehicle_def *def) {
  static const float red[3] = {0.45f, 0.02f, 0.02f};
  car_shape s = shape_of(def);
  float len = s.front - s.rear;
  float x = s.rear - 0.004f;
  float z0 = s.bottom + 0.5f * (s.shoulder - s.bottom), z1 = s.shoulder - 0.03f;
  for (int side = -1; side <= 1; side += 2) {
    float y0 = side * s.half_width * 0.55f, y1 = side * s.half_width * 0.92f;
    float a[3] = {x, y0, z0}, b[3] = {x, y1, z0}, c[3] = {x + 0.02f * len, y1, z1}, d[3] = {x + 0.02f * len, y0, z1};
    mesh_quad(m, a, b, c, d, red);
  }
}
