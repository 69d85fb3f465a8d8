/* Chunked terrain level of detail: see terrain_lod.h. */
#include "terrain_lod.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "world_mesh.h"

enum {
  NODE_CELLS = 16,  /* quads per node side */
  CACHE_MAX = 768,  /* node meshes kept (33 × 33 vertices + skirts each, ~50 kB) */
};
/* A node is drawn whole when the eye is farther than LOD_RANGE node widths from its box: its
 * samples are then seen at most 1 / (NODE_CELLS · LOD_RANGE) = 0.08 rad apart (about 50 px
 * at 720 px and 60 degrees; the heights between them are what a coarse node leaves out). */
static const double LOD_RANGE = 0.8;

typedef struct node_entry {
  int level, ix, iy; /* level -1: free */
  gpu_mesh mesh;
  unsigned long long used; /* frame last drawn */
} node_entry;

struct terrain_lod {
  const grip_heightfield *hf;
  grip_heightfield_info info;
  double origin[3];
  int levels; /* root level = levels - 1 */
  node_entry cache[CACHE_MAX];
  int cached;
  unsigned long long frame;
  terrain_lod_stats stats;
  float planes[6][4]; /* view frustum, camera-relative */
  double eye[3];      /* m, world */
};

terrain_lod *terrain_lod_create(const grip_heightfield *hf, const double origin[3]) {
  terrain_lod *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->hf = hf;
  grip_heightfield_get_info(hf, &t->info);
  memcpy(t->origin, origin, sizeof t->origin);
  int cells = (t->info.cols > t->info.rows ? t->info.cols : t->info.rows) - 1;
  t->levels = 1;
  while ((long long)NODE_CELLS << (t->levels - 1) < cells) t->levels++;
  for (int i = 0; i < CACHE_MAX; ++i) t->cache[i].level = -1;
  return t;
}

void terrain_lod_destroy(terrain_lod *t) {
  if (!t) return;
  for (int i = 0; i < CACHE_MAX; ++i)
    if (t->cache[i].level >= 0) gpu_mesh_free(&t->cache[i].mesh);
  free(t);
}

terrain_lod_stats terrain_lod_get_stats(const terrain_lod *t) { return t->stats; }

/* Number of samples world_mesh_terrain takes from [a, b) every `stride`, the last one included. */
static int sample_count(int a, int b, int stride) {
  int n = 0;
  for (int i = a;; i += stride) {
    if (i > b - 1) i = b - 1;
    ++n;
    if (i == b - 1) break;
  }
  return n;
}

/* Appends a skirt under the edge from vertex a to b of the grid: a vertical strip `depth` m
 * deep, of copies of the edge's vertices whose normals have length 2, so that it is lit as the
 * ground above on whichever face is seen (render.c). */
static void skirt(mesh_data *m, uint32_t a, uint32_t b, float depth) {
  if (m->failed) return;
  mesh_vertex v[4] = {m->vertices[a], m->vertices[b], m->vertices[b], m->vertices[a]};
  uint32_t idx[4];
  for (int k = 0; k < 4; ++k) {
    if (k >= 2) v[k].position[2] -= depth;
    for (int i = 0; i < 3; ++i) v[k].normal[i] *= 2.0f;
    idx[k] = mesh_vertex_add(m, v[k].position, v[k].normal, v[k].color);
    if (m->failed) return;
    memcpy(m->vertices[idx[k]].uv, v[k].uv, sizeof v[k].uv);
  }
  mesh_triangle(m, idx[0], idx[1], idx[2]);
  mesh_triangle(m, idx[0], idx[2], idx[3]);
}

static bool build_node(const terrain_lod *t, int level, int ix, int iy, gpu_mesh *out) {
  const int stride = 1 << level, size = NODE_CELLS << level;
  const int c0 = ix * size, r0 = iy * size;
  int c1 = c0 + size + 1, r1 = r0 + size + 1; /* sample ranges, the far edge included */
  if (c1 > t->info.cols) c1 = t->info.cols;
  if (r1 > t->info.rows) r1 = t->info.rows;
  mesh_data m = {0};
  world_mesh_terrain(&m, t->hf, c0, c1, r0, r1, stride, t->origin);
  const int nc = sample_count(c0, c1, stride), nr = sample_count(r0, r1, stride);
  /* Where a neighbour has another level, the two edges differ: the coarser one runs straight
   * between its samples, the finer one follows the heights. Both skirts hang as deep as the
   * true heights along the edge stray from straight lines between samples four times this
   * node's spacing (a neighbour up to two levels coarser), + 5 cm. */
  const double *h = grip_heightfield_heights(t->hf);
  const int cols = t->info.cols, coarse = stride * 4 < size ? stride * 4 : size;
  double stray = 0.0;
  for (int side = 0; side < 4; ++side) {
    const bool along_c = side < 2;
    const int fixed = side == 0 ? r0 : side == 1 ? r1 - 1 : side == 2 ? c0 : c1 - 1;
    const int a = along_c ? c0 : r0, b = along_c ? c1 - 1 : r1 - 1;
    for (int k0 = a; k0 < b; k0 += coarse) {
      const int k1 = k0 + coarse < b ? k0 + coarse : b;
      const double z0 = along_c ? h[fixed * cols + k0] : h[k0 * cols + fixed];
      const double z1 = along_c ? h[fixed * cols + k1] : h[k1 * cols + fixed];
      for (int k = k0 + 1; k < k1; ++k) {
        const double z = along_c ? h[fixed * cols + k] : h[k * cols + fixed];
        stray = fmax(stray, fabs(z - (z0 + (z1 - z0) * (k - k0) / (k1 - k0))));
      }
    }
  }
  const float depth = (float)(stray + 0.05);
  for (int c = 0; c + 1 < nc; ++c) {
    skirt(&m, (uint32_t)c, (uint32_t)(c + 1), depth);
    skirt(&m, (uint32_t)((nr - 1) * nc + c), (uint32_t)((nr - 1) * nc + c + 1), depth);
  }
  for (int r = 0; r + 1 < nr; ++r) {
    skirt(&m, (uint32_t)(r * nc), (uint32_t)((r + 1) * nc), depth);
    skirt(&m, (uint32_t)(r * nc + nc - 1), (uint32_t)((r + 1) * nc + nc - 1), depth);
  }
  bool ok = gpu_mesh_upload(out, &m, t->origin);
  mesh_free(&m);
  return ok;
}

static node_entry *node(terrain_lod *t, int level, int ix, int iy) {
  node_entry *free_slot = NULL, *oldest = NULL;
  for (int i = 0; i < CACHE_MAX; ++i) {
    node_entry *e = &t->cache[i];
    if (e->level == level && e->ix == ix && e->iy == iy) return e;
    if (e->level < 0) {
      if (!free_slot) free_slot = e;
    } else if (e->used < t->frame && (!oldest || e->used < oldest->used)) {
      oldest = e;
    }
  }
  node_entry *e = free_slot ? free_slot : oldest;
  if (!e) return NULL; /* every entry is in this frame's view: draw coarser instead */
  if (e->level >= 0) {
    gpu_mesh_free(&e->mesh);
    t->cached--;
  }
  e->level = -1;
  if (!build_node(t, level, ix, iy, &e->mesh)) return NULL;
  e->level = level, e->ix = ix, e->iy = iy;
  t->cached++;
  t->stats.nodes_built++;
  return e;
}

/* The box of the node's cells, world m. */
static void node_box(const terrain_lod *t, int level, int ix, int iy, double lo[3], double hi[3]) {
  const int size = NODE_CELLS << level;
  int c1 = (ix + 1) * size, r1 = (iy + 1) * size;
  if (c1 > t->info.cols - 1) c1 = t->info.cols - 1;
  if (r1 > t->info.rows - 1) r1 = t->info.rows - 1;
  lo[0] = t->info.origin_x + ix * size * t->info.dx, hi[0] = t->info.origin_x + c1 * t->info.dx;
  lo[1] = t->info.origin_y + iy * size * t->info.dy, hi[1] = t->info.origin_y + r1 * t->info.dy;
  /* The skirts hang below the lowest sample (by at most the terrain's height range). */
  (void)level;
  lo[2] = 2.0 * t->info.min_height - t->info.max_height - 0.05, hi[2] = t->info.max_height;
}

static bool visible(const terrain_lod *t, const double lo[3], const double hi[3]) {
  for (int p = 0; p < 6; ++p) {
    const float *pl = t->planes[p];
    double v[3];
    for (int i = 0; i < 3; ++i) v[i] = (pl[i] > 0.0f ? hi[i] : lo[i]) - t->eye[i];
    if (pl[0] * v[0] + pl[1] * v[1] + pl[2] * v[2] + pl[3] < 0.0) return false;
  }
  return true;
}

static bool draw_node(terrain_lod *t, renderer *r, int level, int ix, int iy, unsigned texture) {
  node_entry *e = node(t, level, ix, iy);
  if (!e) return false;
  e->used = t->frame;
  static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  static const double zero[3] = {0, 0, 0};
  renderer_draw_mesh(r, &e->mesh, zero, identity, NULL, NULL, texture);
  t->stats.nodes_drawn++;
  if (level < t->stats.finest_level) t->stats.finest_level = level;
  return true;
}

static void visit(terrain_lod *t, renderer *r, int level, int ix, int iy, unsigned texture) {
  const int size = NODE_CELLS << level;
  if ((long long)ix * size >= t->info.cols - 1 || (long long)iy * size >= t->info.rows - 1) return;
  double lo[3], hi[3];
  node_box(t, level, ix, iy, lo, hi);
  if (!visible(t, lo, hi)) return;
  double d2 = 0.0;
  for (int i = 0; i < 3; ++i) {
    double d = t->eye[i] < lo[i] ? lo[i] - t->eye[i] : (t->eye[i] > hi[i] ? t->eye[i] - hi[i] : 0.0);
    d2 += d * d;
  }
  const double width = size * fmax(t->info.dx, t->info.dy);
  if (level == 0 || d2 > (LOD_RANGE * width) * (LOD_RANGE * width)) {
    draw_node(t, r, level, ix, iy, texture);
    return;
  }
  for (int k = 0; k < 4; ++k) visit(t, r, level - 1, 2 * ix + (k & 1), 2 * iy + (k >> 1), texture);
}

void terrain_lod_draw(terrain_lod *t, renderer *r, unsigned texture) {
  t->frame++;
  t->stats.nodes_drawn = t->stats.nodes_built = 0;
  t->stats.finest_level = t->levels;
  t->stats.levels = t->levels;
  memcpy(t->eye, r->eye, sizeof t->eye);
  /* Frustum planes of the camera-relative view-projection (column-major): a point p is inside
   * plane k when row3·p ± row_k·p >= 0 (Gribb and Hartmann). */
  const float *m = r->view_proj;
  for (int k = 0; k < 3; ++k)
    for (int s = 0; s < 2; ++s)
      for (int i = 0; i < 4; ++i) t->planes[2 * k + s][i] = m[4 * i + 3] + (s ? -1.0f : 1.0f) * m[4 * i + k];
  visit(t, r, t->levels - 1, 0, 0, texture);
  t->stats.nodes_cached = t->cached;
}
