/* VTP .bt ("binary terrain") files, read by grip's own code (no dependency).
 *
 * Layout (little-endian, 256-byte header, heights from offset 256):
 *   0  char[10] "binterr1.0" … "binterr1.3"
 *   10 int32 columns (west–east), 14 int32 rows (south–north)
 *   version 1.0:  18 int32 bytes per height, 22 int16 UTM flag (1 UTM, 0 lat/long),
 *                 24 int16 UTM zone, 26 float32 ×4 extents left, right, bottom, top,
 *                 42 int32 floating-point flag
 *   versions 1.1–1.3: 18 int16 bytes per height (2 or 4), 20 int16 floating-point flag,
 *                 22 int16 horizontal units (0 degrees, 1 metres, 2 feet, 3 US survey feet;
 *                 1.1 calls it the projection: 0 lat/long, 1 UTM), 24 int16 UTM zone (negative
 *                 south), 26 int16 datum (EPSG datum code from 1.3, old USGS numbers before),
 *                 28 float64 ×4 extents left, right, bottom, top,
 *                 60 int16 external projection (1.2+: 1 = CRS in a .prj file next to it),
 *                 62 float32 vertical scale (1.3: metres per stored unit, 0 means 1)
 *   heights: column by column from the west, each column from south to north; int16, int32 or
 *   float32. -32768 marks a void (no data), as GDAL reports it; a different no-data value that
 *   GDAL kept in FILE.bt.aux.xml (<NoDataValue>) is honoured too. */
#ifndef GRIP_IO_BT_H
#define GRIP_IO_BT_H

#include <stddef.h>
#include <stdint.h>

#include "terrain.h"

#define GRIP_BT_HEADER_SIZE 256
#define GRIP_BT_MAX_SAMPLES (1 << 28) /* 268 M samples: larger sizes are rejected as absurd */

typedef struct grip_bt_header {
  int version_minor;    /* 0..3 (version 1.x) */
  int32_t cols;         /* columns, west to east; e.g. 1201 */
  int32_t rows;         /* rows, south to north; e.g. 1201 */
  int data_size;        /* bytes per height: 2 or 4 */
  int is_float;         /* 1: float32 heights, 0: signed integers */
  int horizontal_units; /* grip_terrain_units code, 0..3 */
  int utm_zone;         /* 1..60 north, −1..−60 south, 0 none */
  int datum;            /* datum code as stored; −1 when the version has none (1.0) */
  double left, right, bottom, top; /* outer cell edges, horizontal units */
  int external_prj;     /* 1: the CRS is in FILE.prj */
  double vertical_scale; /* m per stored height unit; 1 when absent or 0 */
} grip_bt_header;

/* Decodes a 256-byte header. On error returns false and writes "offset N: what is wrong" to
 * why (size why_size). file_size (bytes) checks that all heights are present. */
bool grip_bt_parse_header(const unsigned char *bytes, size_t file_size, grip_bt_header *h,
                          char *why, size_t why_size);

#endif
