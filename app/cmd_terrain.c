/* grip terrain info FILE [--json]
 * grip terrain sample FILE --x X --y Y [--clamp] [--json]
 * Reads a terrain raster (.bt, or anything GDAL reads) and reports its figures or the ground at
 * one point of grip's local metric frame (docs/terrain.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grip/heightfield.h"
#include "terrain.h"

int cmd_terrain(int argc, char **argv);

static const char *units_name(grip_terrain_units u) {
  switch (u) {
  case GRIP_UNITS_DEGREES: return "degrees";
  case GRIP_UNITS_METRES: return "metres";
  case GRIP_UNITS_FEET: return "feet";
  case GRIP_UNITS_US_FEET: return "US survey feet";
  }
  return "?";
}

static int load(const char *command, const char *path, grip_terrain *t) {
  grip_load_error err;
  grip_load_error_clear(&err);
  if (!grip_terrain_load(path, t, &err)) {
    fprintf(stderr, "grip terrain %s: %s\n", command, err.message);
    return 1;
  }
  return 0;
}

static int terrain_info(int argc, char **argv) {
  bool json = false;
  const cli_option options[] = {
      CLI_OPTION_JSON(json),
  };
  const char *file = NULL;
  int npos = 0;
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), &file, 1, &npos);
  if (rc) return rc == 1 ? 0 : rc;
  if (npos != 1) {
    fprintf(stderr, "grip terrain info: expected one FILE\n");
    return CLI_USAGE_ERROR;
  }
  grip_terrain t;
  if (load("info", file, &t)) return 1;
  double ext_x = t.cols * t.dx, ext_y = t.rows * t.dy;
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_string(&w, "file", file);
    json_string(&w, "format", t.format);
    json_int(&w, "rows", t.rows);
    json_int(&w, "cols", t.cols);
    json_number(&w, "min_height_m", t.min_height);
    json_number(&w, "max_height_m", t.max_height);
    json_number(&w, "extent_x_m", ext_x);
    json_number(&w, "extent_y_m", ext_y);
    json_number(&w, "dx_m", t.dx);
    json_number(&w, "dy_m", t.dy);
    json_number(&w, "origin_x_m", t.origin_x);
    json_number(&w, "origin_y_m", t.origin_y);
    json_number(&w, "left", t.left);
    json_number(&w, "right", t.right);
    json_number(&w, "bottom", t.bottom);
    json_number(&w, "top", t.top);
    json_string(&w, "units", units_name(t.units));
    json_number(&w, "vertical_scale", t.vertical_scale);
    json_int(&w, "utm_zone", t.utm_zone);
    json_int(&w, "datum", t.datum);
    json_int(&w, "void_count", t.void_count);
    if (t.units == GRIP_UNITS_DEGREES) {
      json_number(&w, "center_lon_deg", t.center_lon);
      json_number(&w, "center_lat_deg", t.center_lat);
    }
    json_string(&w, "crs", t.crs);
    json_end(&w);
  } else {
    printf("%s: %s, %d columns x %d rows\n", file, t.format, t.cols, t.rows);
    printf("  heights      %.3f .. %.3f m (%d void samples filled)\n", t.min_height, t.max_height,
           t.void_count);
    printf("  extent       %.3f x %.3f m, cells %.4f x %.4f m\n", ext_x, ext_y, t.dx, t.dy);
    printf("  first sample x %.3f m, y %.3f m (local frame)\n", t.origin_x, t.origin_y);
    printf("  edges        left %.10g right %.10g bottom %.10g top %.10g (%s)\n", t.left, t.right,
           t.bottom, t.top, units_name(t.units));
    if (t.units == GRIP_UNITS_DEGREES)
      printf("  local origin lon %.8f lat %.8f (equirectangular)\n", t.center_lon, t.center_lat);
    printf("  crs          %s\n", t.crs);
  }
  grip_terrain_free(&t);
  return 0;
}

static int terrain_sample(int argc, char **argv) {
  bool json = false, clamp = false;
  double x = NAN, y = NAN;
  const cli_option options[] = {
      {"--x", CLI_DOUBLE, &x, -1e9, 1e9, "local x, m"},
      {"--y", CLI_DOUBLE, &y, -1e9, 1e9, "local y, m"},
      {"--clamp", CLI_FLAG, &clamp, 0, 0, "extend the border heights outside the grid"},
      CLI_OPTION_JSON(json),
  };
  const char *file = NULL;
  int npos = 0;
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), &file, 1, &npos);
  if (rc) return rc == 1 ? 0 : rc;
  if (npos != 1 || isnan(x) || isnan(y)) {
    fprintf(stderr, "grip terrain sample: expected FILE --x X --y Y\n");
    return CLI_USAGE_ERROR;
  }
  grip_terrain t;
  if (load("sample", file, &t)) return 1;
  grip_heightfield_def def = grip_terrain_heightfield_def(&t);
  def.edge = clamp ? GRIP_EDGE_CLAMP : GRIP_EDGE_NO_GROUND;
  grip_heightfield *hf = NULL;
  grip_result res = grip_heightfield_create(&def, &hf);
  grip_terrain_free(&t);
  if (res != GRIP_OK) {
    fprintf(stderr, "grip terrain sample: %s: cannot build a heightfield (error %d)\n", file, (int)res);
    return 1;
  }
  grip_ground_sample s;
  bool inside = grip_heightfield_sample(hf, x, y, &s);
  grip_heightfield_destroy(hf);
  if (!inside) {
    fprintf(stderr, "grip terrain sample: %s: (%g, %g) is outside the terrain (use --clamp to extend its edges)\n",
            file, x, y);
    return 1;
  }
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_number(&w, "x_m", x);
    json_number(&w, "y_m", y);
    json_number(&w, "height_m", s.height);
    json_open(&w, "normal", '[');
    json_number(&w, NULL, s.normal.x);
    json_number(&w, NULL, s.normal.y);
    json_number(&w, NULL, s.normal.z);
    json_close(&w, ']');
    json_end(&w);
  } else {
    printf("height %.6f m, normal (%.6f, %.6f, %.6f)\n", s.height, s.normal.x, s.normal.y,
           s.normal.z);
  }
  return 0;
}

int cmd_terrain(int argc, char **argv) {
  const char *usage = "usage: grip terrain info FILE [--json]\n"
                      "       grip terrain sample FILE --x X --y Y [--clamp] [--json]\n";
  if (argc < 2) {
    fputs(usage, stderr);
    return CLI_USAGE_ERROR;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fputs(usage, stdout);
    return 0;
  }
  /* Let cli_parse name the sub-command in its messages. */
  char *sub_argv[64];
  if (argc > 64) {
    fprintf(stderr, "grip terrain: too many arguments\n");
    return CLI_USAGE_ERROR;
  }
  char name[32];
  snprintf(name, sizeof name, "terrain %s", argv[1]);
  sub_argv[0] = name;
  for (int i = 2; i < argc; ++i) sub_argv[i - 1] = argv[i];
  if (strcmp(argv[1], "info") == 0) return terrain_info(argc - 1, sub_argv);
  if (strcmp(argv[1], "sample") == 0) return terrain_sample(argc - 1, sub_argv);
  fprintf(stderr, "grip terrain: unknown sub-command '%s'\n%s", argv[1], usage);
  return CLI_USAGE_ERROR;
}
