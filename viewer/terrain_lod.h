/* Terrain with chunked level of detail: a quadtree over the heightfield's cells whose nodes are
 * all NODE_CELLS × NODE_CELLS quads (a node of level L samples every 2^L-th height, so it covers
 * NODE_CELLS·2^L cells). Each frame the tree is walked from its root: a node outside the view
 * is skipped, a node far enough from the eye (distance > LOD_RANGE × its width) is drawn as it
 * is, a nearer one is split into its four children down to level 0 (every sample). Node meshes
 * are built when first needed and kept in a cache (least recently used out); each hangs a skirt
 * below its edges so that neighbours of different levels leave no crack. Needs a GL context. */
#ifndef GRIP_VIEWER_TERRAIN_LOD_H
#define GRIP_VIEWER_TERRAIN_LOD_H

#include "grip/heightfield.h"
#include "render.h"

typedef struct terrain_lod terrain_lod;

/* origin: the world point the vertex positions are relative to (m). NULL when out of memory. */
terrain_lod *terrain_lod_create(const grip_heightfield *hf, const double origin[3]);
void terrain_lod_destroy(terrain_lod *t);

/* Draws the nodes the renderer's current camera needs, with the draped texture (0 = none). */
void terrain_lod_draw(terrain_lod *t, renderer *r, unsigned texture);

typedef struct terrain_lod_stats {
  int nodes_drawn;  /* last frame */
  int nodes_built;  /* last frame */
  int nodes_cached; /* now */
  int finest_level; /* last frame: the finest level drawn (0 = every sample) */
  int levels;       /* levels of the tree (root = levels - 1) */
} terrain_lod_stats;
terrain_lod_stats terrain_lod_get_stats(const terrain_lod *t);

#endif
