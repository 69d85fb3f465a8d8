/* VTP .bt reader (format summary in bt.h, conventions in docs/terrain.md). */
#include "bt.h"

#include "read_file.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int32_t le_i32(const unsigned char *p) {
  uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  int32_t v;
  memcpy(&v, &u, sizeof v);
  return v;
}
static int16_t le_i16(const unsigned char *p) {
  uint16_t u = (uint16_t)(p[0] | p[1] << 8);
  int16_t v;
  memcpy(&v, &u, sizeof v);
  return v;
}
static float le_f32(const unsigned char *p) {
  uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  float v;
  memcpy(&v, &u, sizeof v);
  return v;
}
static double le_f64(const unsigned char *p) {
  uint64_t u = 0;
  for (int i = 7; i >= 0; --i) u = u << 8 | p[i];
  double v;
  memcpy(&v, &u, sizeof v);
  return v;
}

bool grip_bt_parse_header(const unsigned char *b, size_t file_size, grip_bt_header *h,
                          char *why, size_t why_size) {
  if (memcmp(b, "binterr", 7) != 0) {
    snprintf(why, why_size, "offset 0: not a .bt file (the header must start with \"binterr\")");
    return false;
  }
  if (b[7] != '1' || b[8] != '.' || b[9] < '0' || b[9] > '3') {
    snprintf(why, why_size, "offset 7: unsupported .bt version \"%c%c%c\" (1.0 to 1.3 are read)",
             isprint(b[7]) ? b[7] : '?', isprint(b[8]) ? b[8] : '?', isprint(b[9]) ? b[9] : '?');
    return false;
  }
  grip_bt_header r = {0};
  r.version_minor = b[9] - '0';
  r.cols = le_i32(b + 10);
  r.rows = le_i32(b + 14);
  r.vertical_scale = 1.0;
  if (r.version_minor == 0) {
    r.data_size = le_i32(b + 18);
    r.horizontal_units = le_i16(b + 22) == 1 ? GRIP_UNITS_METRES : GRIP_UNITS_DEGREES;
    r.utm_zone = le_i16(b + 24);
    r.datum = -1;
    r.left = le_f32(b + 26);
    r.right = le_f32(b + 30);
    r.bottom = le_f32(b + 34);
    r.top = le_f32(b + 38);
    r.is_float = le_i32(b + 42) != 0;
  } else {
    r.data_size = le_i16(b + 18);
    r.is_float = le_i16(b + 20) != 0;
    r.horizontal_units = le_i16(b + 22);
    r.utm_zone = le_i16(b + 24);
    r.datum = le_i16(b + 26);
    r.left = le_f64(b + 28);
    r.right = le_f64(b + 36);
    r.bottom = le_f64(b + 44);
    r.top = le_f64(b + 52);
    if (r.version_minor >= 2) r.external_prj = le_i16(b + 60) != 0;
    if (r.version_minor >= 3) {
      float s = le_f32(b + 62);
      if (!isfinite(s) || s < 0.0f ||
          (s != 0.0f && !(s >= GRIP_TERRAIN_MIN_VSCALE && s <= GRIP_TERRAIN_MAX_VSCALE))) {
        snprintf(why, why_size, "offset 62: vertical scale %g is out of range (allowed 0 = 1, or "
                 "%g .. %g m per unit)", (double)s, GRIP_TERRAIN_MIN_VSCALE, GRIP_TERRAIN_MAX_VSCALE);
        return false;
      }
      r.vertical_scale = s == 0.0f ? 1.0 : (double)s;
    }
  }
  if (r.cols < 2 || r.rows < 2) {
    snprintf(why, why_size, "offset 10: grid of %ld columns by %ld rows (at least 2 by 2 needed)",
             (long)r.cols, (long)r.rows);
    return false;
  }
  if ((double)r.cols * (double)r.rows > (double)GRIP_BT_MAX_SAMPLES) {
    snprintf(why, why_size, "offset 10: absurd size %ld columns by %ld rows", (long)r.cols,
             (long)r.rows);
    return false;
  }
  if (!((r.data_size == 2 && !r.is_float) || r.data_size == 4)) {
    snprintf(why, why_size, "offset 18: %d-byte %s heights are not a .bt data type", r.data_size,
             r.is_float ? "floating-point" : "integer");
    return false;
  }
  if (r.horizontal_units < 0 || r.horizontal_units > 3) {
    snprintf(why, why_size, "offset 22: unknown horizontal units code %d (0 to 3)",
             r.horizontal_units);
    return false;
  }
  if (r.utm_zone < -60 || r.utm_zone > 60) {
    snprintf(why, why_size, "offset 24: UTM zone %d out of range (-60 to 60)", r.utm_zone);
    return false;
  }
  int ext = r.version_minor == 0 ? 26 : 28;
  if (!isfinite(r.left) || !isfinite(r.right) || !isfinite(r.bottom) || !isfinite(r.top) ||
      !(r.right > r.left) || !(r.top > r.bottom)) {
    snprintf(why, why_size, "offset %d: extents left %g right %g bottom %g top %g do not make a "
             "rectangle", ext, r.left, r.right, r.bottom, r.top);
    return false;
  }
  size_t need = GRIP_BT_HEADER_SIZE + (size_t)r.cols * (size_t)r.rows * (size_t)r.data_size;
  if (file_size < need) {
    snprintf(why, why_size, "offset %zu: heights truncated: %ld x %ld samples of %d bytes need "
             "%zu bytes, the file has %zu", file_size, (long)r.cols, (long)r.rows, r.data_size,
             need, file_size);
    return false;
  }
  *h = r;
  return true;
}

/* Reads FILE.prj (the .bt extension replaced) into t->crs; returns true when found. Sets
 * *geographic from its first keyword. */
static bool read_prj(const char *path, char *crs, size_t crs_size, int *geographic) {
  size_t n = strlen(path);
  char *prj = malloc(n + 5);
  if (!prj) return false;
  memcpy(prj, path, n + 1);
  char *dot = strrchr(prj, '.');
  char *slash = strrchr(prj, '/');
  if (dot && (!slash || dot > slash)) *dot = '\0';
  strcat(prj, ".prj");
  FILE *f = fopen(prj, "rb");
  free(prj);
  if (!f) return false;
  size_t got = fread(crs, 1, crs_size - 1, f);
  fclose(f);
  crs[got] = '\0';
  for (size_t i = 0; i < got; ++i)
    if (crs[i] == '\n' || crs[i] == '\r') crs[i] = ' ';
  const char *p = crs;
  while (*p == ' ' || *p == '\t') ++p;
  if (strncmp(p, "GEOGCS", 6) == 0 || strncmp(p, "GEOGCRS", 7) == 0) *geographic = 1;
  else if (strncmp(p, "PROJCS", 6) == 0 || strncmp(p, "PROJCRS", 7) == 0) *geographic = 0;
  return true;
}

/* GDAL keeps a .bt's no-data value (when it is not -32768) in FILE.aux.xml next to it:
 * <NoDataValue>-9999</NoDataValue>. Returns true and *value when found. */
static bool read_aux_nodata(const char *path, double *value) {
  size_t n = strlen(path);
  char *aux = malloc(n + 9);
  if (!aux) return false;
  memcpy(aux, path, n);
  memcpy(aux + n, ".aux.xml", 9);
  FILE *f = fopen(aux, "rb");
  free(aux);
  if (!f) return false;
  char text[4096];
  size_t got = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[got] = '\0';
  const char *tag = strstr(text, "<NoDataValue>");
  if (!tag) return false;
  char *end = NULL;
  double v = strtod(tag + 13, &end);
  if (end == tag + 13 || !isfinite(v)) return false;
  *value = v;
  return true;
}

static const char *unit_name(int u) {
  static const char *const names[4] = {"degrees", "metres", "feet", "US survey feet"};
  return u >= 0 && u < 4 ? names[u] : "?";
}

bool grip_bt_load(const char *path, grip_terrain *out, grip_load_error *err) {
  if (grip_is_directory(path, err)) return false;
  FILE *f = fopen(path, "rb");
  if (!f) {
    grip_load_error_set(err, path, 0, NULL, "cannot open the file");
    return false;
  }
  long size = -1;
  if (fseek(f, 0, SEEK_END) == 0) size = ftell(f);
  if (size < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    grip_load_error_set(err, path, 0, NULL, "cannot read the file");
    return false;
  }
  unsigned char head[GRIP_BT_HEADER_SIZE];
  size_t got = fread(head, 1, sizeof head, f);
  if (got < 10 || memcmp(head, "binterr", 7) != 0) {
    fclose(f);
    if (got >= 7 && memcmp(head, "binterr", 7) != 0)
      grip_load_error_set(err, path, 0, NULL, "offset 0: not a .bt file (bad magic)");
    else
      grip_load_error_set(err, path, 0, NULL, "offset %zu: truncated header (256 bytes needed)",
                          got);
    return false;
  }
  if (got < sizeof head) {
    fclose(f);
    grip_load_error_set(err, path, 0, NULL, "offset %zu: truncated header (256 bytes needed)", got);
    return false;
  }
  grip_bt_header h;
  char why[300];
  if (!grip_bt_parse_header(head, (size_t)size, &h, why, sizeof why)) {
    fclose(f);
    grip_load_error_set(err, path, 0, NULL, "%s", why);
    return false;
  }
  size_t n = (size_t)h.cols * (size_t)h.rows;
  unsigned char *raw = malloc(n * (size_t)h.data_size);
  double *heights = malloc(n * sizeof *heights);
  unsigned char *voids = calloc(n, 1);
  if (!raw || !heights || !voids) {
    free(raw);
    free(heights);
    free(voids);
    fclose(f);
    grip_load_error_set(err, path, 0, NULL, "out of memory for %zu samples", n);
    return false;
  }
  size_t read = fread(raw, (size_t)h.data_size, n, f);
  fclose(f);
  if (read != n) {
    free(raw);
    free(heights);
    free(voids);
    grip_load_error_set(err, path, 0, NULL, "offset %zu: heights truncated",
                        GRIP_BT_HEADER_SIZE + read * (size_t)h.data_size);
    return false;
  }
  double nodata = -32768.0;
  bool aux_nodata = read_aux_nodata(path, &nodata);
  /* Column-major, south to north → row-major, row 0 south. */
  for (int32_t c = 0; c < h.cols; ++c)
    for (int32_t r = 0; r < h.rows; ++r) {
      size_t src = (size_t)c * (size_t)h.rows + (size_t)r;
      size_t dst = (size_t)r * (size_t)h.cols + (size_t)c;
      const unsigned char *p = raw + src * (size_t)h.data_size;
      double v;
      if (h.data_size == 2) v = le_i16(p);
      else if (h.is_float) v = le_f32(p);
      else v = le_i32(p);
      if (!isfinite(v) || v == -32768.0 || (aux_nodata && v == nodata)) {
        voids[dst] = 1;
        v = 0.0;
      }
      heights[dst] = v * h.vertical_scale;
      if (!(fabs(heights[dst]) <= GRIP_TERRAIN_MAX_ABS_HEIGHT)) {
        free(raw);
        free(heights);
        free(voids);
        grip_load_error_set(err, path, 0, NULL, "offset %zu: height %g m (row %ld, column %ld) is "
                            "out of range (allowed -%g .. %g m)",
                            GRIP_BT_HEADER_SIZE + src * (size_t)h.data_size, v * h.vertical_scale,
                            (long)r, (long)c, GRIP_TERRAIN_MAX_ABS_HEIGHT, GRIP_TERRAIN_MAX_ABS_HEIGHT);
        return false;
      }
    }
  free(raw);

  grip_terrain t = {0};
  t.rows = h.rows;
  t.cols = h.cols;
  t.heights = heights;
  t.left = h.left;
  t.right = h.right;
  t.bottom = h.bottom;
  t.top = h.top;
  t.vertical_scale = h.vertical_scale;
  t.utm_zone = h.utm_zone;
  t.datum = h.datum;
  t.units = (grip_terrain_units)h.horizontal_units;
  snprintf(t.format, sizeof t.format, "bt 1.%d", h.version_minor);
  int geographic = h.horizontal_units == GRIP_UNITS_DEGREES;
  bool have_prj = h.external_prj && read_prj(path, t.crs, sizeof t.crs, &geographic);
  if (geographic) t.units = GRIP_UNITS_DEGREES;
  else if (t.units == GRIP_UNITS_DEGREES) t.units = GRIP_UNITS_METRES; /* .prj says projected */
  static const double unit_m[4] = {1.0, 1.0, 0.3048, 1200.0 / 3937.0};
  t.unit_m = unit_m[t.units];
  if (!have_prj) {
    if (geographic)
      snprintf(t.crs, sizeof t.crs, "geographic (lat/long), datum %d%s", h.datum,
               h.external_prj ? ", .prj missing" : "");
    else if (h.utm_zone != 0)
      snprintf(t.crs, sizeof t.crs, "UTM zone %d%s, datum %d, %s%s", abs(h.utm_zone),
               h.utm_zone > 0 ? "N" : "S", h.datum, unit_name(t.units),
               h.external_prj ? ", .prj missing" : "");
    else
      snprintf(t.crs, sizeof t.crs, "projected, %s%s", unit_name(t.units),
               h.external_prj ? ", .prj missing" : "");
  }
  if (!grip_terrain_set_frame(&t)) {
    free(heights);
    free(voids);
    grip_load_error_set(err, path, 0, NULL, "offset %d: extents do not fit the %s units",
                        h.version_minor == 0 ? 26 : 28, unit_name(t.units));
    return false;
  }
  if (!grip_terrain_fill_voids(&t, voids)) {
    free(heights);
    free(voids);
    grip_load_error_set(err, path, 0, NULL, "offset 256: every height is void (-32768)");
    return false;
  }
  if (!grip_terrain_check_frame(&t, why, sizeof why)) {
    free(heights);
    free(voids);
    grip_load_error_set(err, path, 0, NULL, "offset %d: %s", h.version_minor == 0 ? 26 : 28, why);
    return false;
  }
  free(voids);
  *out = t;
  return true;
}
