/* Terrain rasters: format dispatch and the local metric frame. */
#include "terrain.h"

#include "read_file.h"

#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double deg = 3.14159265358979323846 / 180.0;

void grip_terrain_free(grip_terrain *t) {
  if (!t) return;
  free(t->heights);
  t->heights = NULL;
}

static bool has_extension(const char *path, const char *ext) {
  size_t n = strlen(path), e = strlen(ext);
  if (n < e) return false;
  for (size_t i = 0; i < e; ++i)
    if (tolower((unsigned char)path[n - e + i]) != tolower((unsigned char)ext[i])) return false;
  return true;
}

bool grip_terrain_load(const char *path, grip_terrain *out, grip_load_error *err) {
  if (grip_is_directory(path, err)) return false;
  if (has_extension(path, ".bt")) return grip_bt_load(path, out, err);
  return grip_gdal_load(path, out, err);
}

grip_heightfield_def grip_terrain_heightfield_def(const grip_terrain *t) {
  grip_heightfield_def def = grip_default_heightfield_def();
  def.origin_x = t->origin_x;
  def.origin_y = t->origin_y;
  def.dx = t->dx;
  def.dy = t->dy;
  def.rows = t->rows;
  def.cols = t->cols;
  def.heights = t->heights;
  return def;
}

bool grip_terrain_set_frame(grip_terrain *t) {
  if (!isfinite(t->left) || !isfinite(t->right) || !isfinite(t->bottom) || !isfinite(t->top) ||
      !(t->right > t->left) || !(t->top > t->bottom) || t->cols < 1 || t->rows < 1)
    return false;
  double cw = (t->right - t->left) / t->cols;  /* cell width, file units */
  double ch = (t->top - t->bottom) / t->rows; /* cell height */
  double x0 = t->left + 0.5 * cw, y0 = t->bottom + 0.5 * ch; /* centre of the SW cell */
  if (t->units == GRIP_UNITS_DEGREES) {
    if (t->bottom < -90.0 - 1e-9 || t->top > 90.0 + 1e-9) return false;
    t->center_lon = 0.5 * (t->left + t->right);
    t->center_lat = 0.5 * (t->bottom + t->top);
    double my = GRIP_EARTH_RADIUS_M * deg; /* m per degree of latitude */
    double mx = my * cos(t->center_lat * deg);
    t->unit_m = my;
    t->dx = cw * mx;
    t->dy = ch * my;
    t->origin_x = (x0 - t->center_lon) * mx;
    t->origin_y = (y0 - t->center_lat) * my;
  } else {
    t->center_lon = t->center_lat = 0.0;
    t->dx = cw * t->unit_m;
    t->dy = ch * t->unit_m;
    t->origin_x = x0 * t->unit_m;
    t->origin_y = y0 * t->unit_m;
  }
  return t->dx > 0.0 && t->dy > 0.0 && isfinite(t->origin_x) && isfinite(t->origin_y);
}

bool grip_terrain_fill_voids(grip_terrain *t, const unsigned char *void_mask) {
  size_t n = (size_t)t->rows * (size_t)t->cols;
  double lo = DBL_MAX, hi = -DBL_MAX;
  int voids = 0;
  for (size_t k = 0; k < n; ++k) {
    if (void_mask && void_mask[k]) {
      voids++;
      continue;
    }
    lo = t->heights[k] < lo ? t->heights[k] : lo;
    hi = t->heights[k] > hi ? t->heights[k] : hi;
  }
  if ((size_t)voids == n) return false;
  if (voids)
    for (size_t k = 0; k < n; ++k)
      if (void_mask[k]) t->heights[k] = lo;
  t->min_height = lo;
  t->max_height = hi;
  t->void_count = voids;
  return true;
}

bool grip_terrain_check_frame(const grip_terrain *t, char *why, size_t why_size) {
  if (!(t->dx >= GRIP_TERRAIN_MIN_CELL && t->dx <= GRIP_TERRAIN_MAX_CELL &&
        t->dy >= GRIP_TERRAIN_MIN_CELL && t->dy <= GRIP_TERRAIN_MAX_CELL)) {
    snprintf(why, why_size, "cell size %g m by %g m is out of range (allowed %g .. %g m)", t->dx,
             t->dy, GRIP_TERRAIN_MIN_CELL, GRIP_TERRAIN_MAX_CELL);
    return false;
  }
  double x1 = t->origin_x + (t->cols - 1) * t->dx, y1 = t->origin_y + (t->rows - 1) * t->dy;
  if (!(fabs(t->origin_x) <= GRIP_TERRAIN_MAX_ABS_ORIGIN && fabs(x1) <= GRIP_TERRAIN_MAX_ABS_ORIGIN &&
        fabs(t->origin_y) <= GRIP_TERRAIN_MAX_ABS_ORIGIN && fabs(y1) <= GRIP_TERRAIN_MAX_ABS_ORIGIN)) {
    snprintf(why, why_size, "extent x %g .. %g m, y %g .. %g m is out of range (allowed |x|, |y| "
             "<= %g m)", t->origin_x, x1, t->origin_y, y1, GRIP_TERRAIN_MAX_ABS_ORIGIN);
    return false;
  }
  return true;
}
