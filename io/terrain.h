/* Terrain rasters from files (VTP .bt by grip's own reader, anything else through GDAL when it
 * is compiled in), turned into a regular grid of heights in grip's local metric frame.
 *
 * Georeferencing follows GDAL: a raster's extent is the outer edges of its cells, and each
 * height sits at its cell's centre. So with cols cells between left and right, sample c lies at
 * left + (c + 0.5)·(right − left)/cols. Projected files (metres or feet) keep their coordinates,
 * converted to metres: x = easting·unit_m, y = northing·unit_m. Geographic files (degrees) are
 * mapped equirectangularly around the centre of their extent:
 *   x = R·cos(lat_c)·(lon − lon_c)·π/180,  y = R·(lat − lat_c)·π/180,  R = 6 371 008.8 m,
 * which keeps the grid regular (see docs/terrain.md for the error this makes). */
#ifndef GRIP_IO_TERRAIN_H
#define GRIP_IO_TERRAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "grip/heightfield.h"
#include "load_error.h"

#define GRIP_EARTH_RADIUS_M 6371008.8 /* IUGG mean Earth radius */

/* Horizontal units of a raster's coordinates (the .bt header's codes). */
typedef enum grip_terrain_units {
  GRIP_UNITS_DEGREES = 0,
  GRIP_UNITS_METRES = 1,
  GRIP_UNITS_FEET = 2,        /* international foot, 0.3048 m */
  GRIP_UNITS_US_FEET = 3,     /* US survey foot, 1200/3937 m */
} grip_terrain_units;

typedef struct grip_terrain {
  int rows;        /* samples along y (south to north); e.g. 1201 */
  int cols;        /* samples along x (west to east); e.g. 1201 */
  double *heights; /* m, rows·cols, row-major, row 0 the southmost; owned (grip_terrain_free) */
  double origin_x; /* m, local x of sample (row 0, col 0), the centre of the south-west cell */
  double origin_y; /* m, local y of that sample */
  double dx;       /* m, column spacing; e.g. 30 */
  double dy;       /* m, row spacing; e.g. 30 */
  double min_height; /* m, lowest sample; e.g. 112.5 */
  double max_height; /* m, highest sample; e.g. 1840.0 */
  /* Georeferencing in the file's own horizontal units: outer edges of the cells. */
  double left, right, bottom, top;
  grip_terrain_units units; /* horizontal units of left/right/bottom/top */
  double unit_m;   /* m per horizontal unit (1, 0.3048, 1200/3937; for degrees: m per degree of
                      latitude, R·π/180 ≈ 111 195) */
  double center_lon; /* deg, geographic only: longitude of the local origin x = 0 */
  double center_lat; /* deg, geographic only: latitude of the local origin y = 0 */
  double vertical_scale; /* m per stored height unit (.bt 1.3 field, GDAL scale); e.g. 1 */
  int utm_zone;    /* .bt: 1..60 north, −1..−60 south, 0 none */
  int datum;       /* .bt datum code (EPSG datum code from 1.3 on, e.g. 6326 WGS84); −1 unknown */
  int void_count;  /* no-data samples, filled with the lowest valid height */
  char format[32]; /* "bt 1.3", or the GDAL driver, e.g. "GDAL AAIGrid" */
  char crs[256];   /* short description of the coordinate system (or the .prj's start) */
} grip_terrain;

/* Limits of a terrain (docs/terrain.md, "Limits"): what lies outside is refused as
 * non-physical. Heights on Earth lie within -11 km (Challenger Deep) and +8.8 km (Everest). */
#define GRIP_TERRAIN_MAX_ABS_HEIGHT 20000.0 /* m, |height| of every sample after scaling */
#define GRIP_TERRAIN_MIN_VSCALE 1e-6        /* m per stored height unit, |vertical scale| */
#define GRIP_TERRAIN_MAX_VSCALE 1000.0
#define GRIP_TERRAIN_MIN_CELL 0.01          /* m, column and row spacing */
#define GRIP_TERRAIN_MAX_CELL 1.0e5         /* m (100 km) */
#define GRIP_TERRAIN_MAX_ABS_ORIGIN 1.0e8   /* m, local x and y of the grid's samples */

/* Checks a terrain that has its frame and heights (after grip_terrain_set_frame and
 * grip_terrain_fill_voids) against the limits above: cell size and extent. Returns true, or
 * false with "what is wrong (allowed range)" in why. Heights are checked by the readers as
 * they read them (they know where each sample is in the file). */
bool grip_terrain_check_frame(const grip_terrain *t, char *why, size_t why_size);

/* Loads path by its extension: .bt with grip's reader, anything else through GDAL. On failure
 * returns false, fills err with "file: what is wrong" (binary files: "file: offset N: ...")
 * and leaves *out untouched. On success *out owns its heights. */
bool grip_terrain_load(const char *path, grip_terrain *out, grip_load_error *err);

/* VTP .bt reader (io/bt.c). */
bool grip_bt_load(const char *path, grip_terrain *out, grip_load_error *err);

/* Any raster GDAL reads (io/gdal_raster.c); band 1. Without GDAL compiled in: false with
 * "file: GDAL support is not compiled in"; when the library cannot be opened at run time
 * (gdal_api.h): false with "file: GDAL cannot be opened: why". */
bool grip_gdal_load(const char *path, grip_terrain *out, grip_load_error *err);

/* True when grip was built with GDAL and the library opens (the first call opens it). */
bool grip_gdal_available(void);

void grip_terrain_free(grip_terrain *terrain);

/* A heightfield definition pointing at the terrain's heights (the heightfield copies them). */
grip_heightfield_def grip_terrain_heightfield_def(const grip_terrain *terrain);

/* Helpers shared by the readers. Fills the local frame (origin, spacing) from the extents,
 * units and grid size; returns false when the extents are not usable. */
bool grip_terrain_set_frame(grip_terrain *t);

/* Replaces the void samples (void_mask[k] true) by the lowest valid height, sets min/max and
 * void_count. Returns false when every sample is void. */
bool grip_terrain_fill_voids(grip_terrain *t, const unsigned char *void_mask);

#endif
