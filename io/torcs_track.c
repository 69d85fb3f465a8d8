/* TORCS track import. The conventions (docs/tracks.md, "TORCS mapping") follow TORCS 1.3's
 * track builders (src/modules/track/track3.cpp and track4.cpp, read for the facts):
 * - version 4: a segment list under "Main Track/Track Segments", each side described by
 *   "Right Side"/"Left Side", "... Border" and "... Barrier" subsections;
 * - versions 0-3 (TORCS reads them all with its version-3 builder): the list under
 *   "Main Track/segments", the sides as flat attributes "rside width", "rside surface",
 *   "rside type", per segment "rside start width"/"rside end width", borders as
 *   "rborder width|surface", barriers "rbarrier height" (Main Track only, default 1 m).
 * Both share the centre-line geometry: arcs with their radius on the centre line, optional
 * "end radius" (the arc is then cut into "profil steps" circular pieces whose radius steps
 * linearly); left/right edge heights following cubic Hermite curves with "profil ... tangent"
 * slopes; banking overriding the edge heights; values carrying over from the previous segment
 * when not given. */
#include "torcs_track.h"

#include "read_file.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlIO.h>
#include <libxml/xmlerror.h>

#define TT_UNSET (-100000.0)

typedef struct tt_ctx {
  const char *file;
  grip_load_error *err;
  xmlNode *surfaces; /* the "Surfaces" section, may be NULL */
  int failed;
} tt_ctx;

static bool is_elem(const xmlNode *n, const char *name) {
  return n->type == XML_ELEMENT_NODE && xmlStrcmp(n->name, (const xmlChar *)name) == 0;
}

static bool name_is(xmlNode *n, const char *name) {
  xmlChar *v = xmlGetProp(n, (const xmlChar *)"name");
  bool eq = v && xmlStrcmp(v, (const xmlChar *)name) == 0;
  xmlFree(v);
  return eq;
}

static xmlNode *section(xmlNode *parent, const char *name) {
  if (!parent) return NULL;
  for (xmlNode *c = parent->children; c; c = c->next)
    if (is_elem(c, "section") && name_is(c, name)) return c;
  return NULL;
}

static xmlNode *attribute(xmlNode *sec, const char *elem, const char *name) {
  if (!sec) return NULL;
  for (xmlNode *c = sec->children; c; c = c->next)
    if (is_elem(c, elem) && name_is(c, name)) return c;
  return NULL;
}

static void tt_fail(tt_ctx *c, xmlNode *n, const char *key, const char *what, const char *arg) {
  if (c->failed) return;
  c->failed = 1;
  grip_load_error_set(c->err, c->file, n ? (int)xmlGetLineNo(n) : 0, key, what, arg);
}

/* Unit factors to SI, as TORCS's parameter files use them. */
static bool unit_factor(const char *unit, double *f) {
  static const struct {
    const char *name;
    double factor;
  } units[] = {
      {"m", 1.0},      {"M", 1.0},          {"km", 1000.0},   {"cm", 0.01},
      {"mm", 0.001},   {"ft", 0.3048},      {"feet", 0.3048}, {"in", 0.0254},
      {"inch", 0.0254}, {"inches", 0.0254}, {"rad", 1.0},     {"deg", GRIP_PI / 180.0},
      {"%", 0.01},     {"percent", 0.01},   {"s", 1.0},       {"hour", 3600.0},
      {"h", 3600.0},   {"min", 60.0},       {"km/h", 1.0 / 3.6},
  };
  for (size_t i = 0; i < sizeof units / sizeof units[0]; ++i)
    if (strcmp(units[i].name, unit) == 0) {
      *f = units[i].factor;
      return true;
    }
  return false;
}

/* Number attribute "name" of section sec (SI), or def when absent. */
static double num(tt_ctx *c, xmlNode *sec, const char *name, double def) {
  xmlNode *a = attribute(sec, "attnum", name);
  if (!a) return def;
  xmlChar *val = xmlGetProp(a, (const xmlChar *)"val");
  xmlChar *unit = xmlGetProp(a, (const xmlChar *)"unit");
  double v = def;
  if (!val) {
    tt_fail(c, a, name, "missing val%s", "");
  } else {
    char *end = NULL;
    errno = 0;
    v = strtod((const char *)val, &end);
    while (end && (*end == ' ' || *end == '\t')) ++end;
    if (end == (char *)val || *end != '\0' || errno == ERANGE || !isfinite(v)) {
      tt_fail(c, a, name, "'%s' is not a number", (const char *)val);
      v = def;
    } else if (unit) {
      double f;
      if (!unit_factor((const char *)unit, &f))
        tt_fail(c, a, name, "unknown unit '%s'", (const char *)unit);
      else
        v *= f;
    }
  }
  xmlFree(val);
  xmlFree(unit);
  return v;
}

/* String attribute; the returned pointer lives in the document (or is def). */
static const char *str(xmlNode *sec, const char *name, const char *def) {
  xmlNode *a = attribute(sec, "attstr", name);
  if (!a) return def;
  for (xmlAttr *p = a->properties; p; p = p->next)
    if (xmlStrcmp(p->name, (const xmlChar *)"val") == 0 && p->children && p->children->content)
      return (const char *)p->children->content;
  return def;
}

/* A TORCS material from the Surfaces section (TORCS defaults when it is not defined). */
static grip_surface material(tt_ctx *c, const char *name) {
  grip_surface s = {.friction = 0.8, .rolling_resistance = 0.001, .roughness_amplitude = 0.0,
                    .roughness_wavelength = 1.0, .id = 0};
  if (!c->surfaces) return s;
  int index = 0;
  for (xmlNode *n = c->surfaces->children; n; n = n->next) {
    if (!is_elem(n, "section")) continue;
    ++index;
    if (!name_is(n, name)) continue;
    s.friction = num(c, n, "friction", 0.8);
    s.rolling_resistance = num(c, n, "rolling resistance", 0.001);
    s.roughness_amplitude = 0.5 * num(c, n, "roughness", 0.0);
    s.roughness_wavelength = num(c, n, "roughness wavelength", 1.0);
    if (!(s.roughness_wavelength > 0.0)) s.roughness_wavelength = 1.0;
    if (s.friction < 0.0) s.friction = 0.0;
    if (s.rolling_resistance < 0.0) s.rolling_resistance = 0.0;
    if (s.roughness_amplitude < 0.0) s.roughness_amplitude = 0.0;
    s.id = index;
    break;
  }
  return s;
}

/* Hermite value and d/dv on [0,1] (TORCS's TrackSpline form). */
static void spline(double p0, double p1, double m0, double m1, double v, double *h, double *dh) {
  double v2 = v * v, v3 = v2 * v;
  *h = (2 * v3 - 3 * v2 + 1) * p0 + (-2 * v3 + 3 * v2) * p1 + (v3 - 2 * v2 + v) * m0 +
       (v3 - v2) * m1;
  *dh = (6 * v2 - 6 * v) * p0 + (-6 * v2 + 6 * v) * p1 + (3 * v2 - 4 * v + 1) * m0 +
        (3 * v2 - 2 * v) * m1;
}

/* Side state carried from segment to segment. */
typedef struct tt_side {
  const char *side_material, *border_material;
  double side_start, side_end, border_width, barrier_height;
  bool banked;
} tt_side;

static const char *const side_names[2] = {"Right Side", "Left Side"};
static const char *const border_names[2] = {"Right Border", "Left Border"};
static const char *const barrier_names[2] = {"Right Barrier", "Left Barrier"};

static int push(grip_track_segment_def **segs, int **lines, int *count, int *cap,
                const grip_track_segment_def *d, int line) {
  if (*count >= *cap) {
    int ncap = *cap ? *cap * 2 : 256;
    grip_track_segment_def *p = realloc(*segs, (size_t)ncap * sizeof *p);
    if (!p) return -1;
    *segs = p;
    int *l = realloc(*lines, (size_t)ncap * sizeof *l);
    if (!l) return -1;
    *lines = l;
    *cap = ncap;
  }
  (*lines)[*count] = line;
  (*segs)[(*count)++] = *d;
  return 0;
}

/* A version-3 flat side key: "rside width" for side 0 (right), "lside width" for side 1. */
static const char *v3_key(char *buf, size_t size, int side, const char *what) {
  snprintf(buf, size, "%c%s", side == 0 ? 'r' : 'l', what);
  return buf;
}

static int convert(tt_ctx *c, xmlNode *root, grip_track_file *out) {
  xmlNode *main = section(root, "Main Track");
  if (!main) {
    tt_fail(c, root, "Main Track", "missing section%s", "");
    return -1;
  }
  /* TORCS 1.3 builds version 4 with its version-4 builder and every other version with the
   * version-3 one. */
  double version = num(c, section(root, "Header"), "version", 0.0);
  bool v3 = version != 4.0;
  const char *list_name = v3 ? "segments" : "Track Segments";
  xmlNode *list = section(main, list_name);
  if (!list) {
    tt_fail(c, main, list_name, "missing section (a version-%s track keeps its segments there)",
            v3 ? "3" : "4");
    return -1;
  }
  char key[64];
  /* version 3 keeps its materials under Surfaces/List, version 4 directly under Surfaces */
  if (v3) c->surfaces = section(c->surfaces, "List");
  double W = num(c, main, "width", 15.0);
  if (!(W > 0.0)) tt_fail(c, attribute(main, "attnum", "width"), "width", "must be > 0%s", "");
  double global_steplen = num(c, main, "profil steps length", 0.0);
  const char *road_material = str(main, "surface", "asphalt");

  tt_side side[2];
  for (int s = 0; s < 2; ++s) {
    if (v3) {
      side[s].side_material = str(main, v3_key(key, sizeof key, s, "side surface"), "grass");
      side[s].side_end = num(c, main, v3_key(key, sizeof key, s, "side width"), 0.0);
      side[s].banked = strcmp(str(main, v3_key(key, sizeof key, s, "side type"), "level"), "level") != 0;
      side[s].border_material = str(main, v3_key(key, sizeof key, s, "border surface"), "grass");
      side[s].border_width = num(c, main, v3_key(key, sizeof key, s, "border width"), 0.0);
      side[s].barrier_height = num(c, main, v3_key(key, sizeof key, s, "barrier height"), 1.0);
    } else {
      xmlNode *ss = section(main, side_names[s]);
      side[s].side_material = str(ss, "surface", "grass");
      side[s].side_end = num(c, ss, "width", 0.0);
      side[s].banked = strcmp(str(ss, "banking type", "level"), "level") != 0;
      xmlNode *bs = section(main, border_names[s]);
      side[s].border_material = str(bs, "surface", "grass");
      side[s].border_width = num(c, bs, "width", 0.0);
      xmlNode *rs = section(main, barrier_names[s]);
      side[s].barrier_height = num(c, rs, "height", 0.6);
    }
    side[s].side_start = side[s].side_end;
    if (side[s].side_end < 0.0 || side[s].border_width < 0.0 || side[s].barrier_height < 0.0)
      tt_fail(c, main, v3 ? v3_key(key, sizeof key, s, "side") : side_names[s], "negative width or height%s", "");
  }

  /* The pit lane (TORCS's track builders, "Main Track/Pits"): segments named for the entry,
   * the lane's start and end and the exit. TORCS takes the first sub-segment of the entry and
   * start segments and the last of the end and exit segments; side defaults to right, box
   * length to 15 m, width to 5 m, the speed limit to 25 m/s. */
  xmlNode *pits = section(main, "Pits");
  const char *pit_name[4] = {str(pits, "entry", NULL), str(pits, "start", NULL), str(pits, "end", NULL),
                             str(pits, "exit", NULL)};
  double pit_at[4] = {NAN, NAN, NAN, NAN};
  double along = 0.0; /* m, centre-line distance at the current TORCS segment's start */

  grip_track_segment_def *segs = NULL;
  int *lines = NULL;
  int count = 0, cap = 0;
  double zel = 0.0, zer = 0.0, etgtl = 0.0, etgtr = 0.0, grade = TT_UNSET;
  for (xmlNode *sec = list->children; sec && !c->failed; sec = sec->next) {
    if (!is_elem(sec, "section")) continue;
    const char *type = str(sec, "type", NULL);
    if (!type) continue; /* TORCS skips sections without a type */
    int pit_here[4] = {0, 0, 0, 0};
    for (int k = 0; k < 4; ++k)
      if (pit_name[k] && name_is(sec, pit_name[k])) pit_here[k] = 1;
    road_material = str(sec, "surface", road_material);
    double length, radius = 0.0, radius_end = 0.0, arc = 0.0;
    int kind;
    if (strcmp(type, "str") == 0) {
      kind = GRIP_TRACK_STRAIGHT;
      length = num(c, sec, "lg", 0.0);
      if (!(length > 0.0))
        tt_fail(c, attribute(sec, "attnum", "lg") ? attribute(sec, "attnum", "lg") : sec, "lg",
                "straight needs a length > 0%s", "");
    } else if (strcmp(type, "lft") == 0 || strcmp(type, "rgt") == 0) {
      kind = type[0] == 'l' ? GRIP_TRACK_LEFT : GRIP_TRACK_RIGHT;
      radius = num(c, sec, "radius", 0.0);
      radius_end = num(c, sec, "end radius", radius);
      arc = num(c, sec, "arc", 0.0);
      if (!(radius > 0.0) || !(radius_end > 0.0))
        tt_fail(c, sec, "radius", "turn needs a radius > 0%s", "");
      if (!(arc > 0.0)) tt_fail(c, sec, "arc", "turn needs an arc > 0%s", "");
      length = 0.5 * (radius + radius_end) * arc;
    } else {
      tt_fail(c, attribute(sec, "attstr", "type"), "type", "unknown segment type '%s'", type);
      break;
    }
    if (c->failed) break;
    /* Refused before the profile splits it into steps (a 2e9 m straight in 20 m steps would
     * otherwise be built as 100000 steps of 20 km before the whole track's length is checked). */
    if (!(length <= GRIP_TRACK_MAX_SEGMENT) || !(along + length <= GRIP_TRACK_MAX_LENGTH)) {
      char what[160];
      if (!(length <= GRIP_TRACK_MAX_SEGMENT))
        snprintf(what, sizeof what, "the segment is %.6g m long (allowed up to %g m)", length, GRIP_TRACK_MAX_SEGMENT);
      else
        snprintf(what, sizeof what, "the track reaches %.6g m here (allowed up to %g m)", along + length,
                 GRIP_TRACK_MAX_LENGTH);
      xmlNode *at = kind == GRIP_TRACK_STRAIGHT && attribute(sec, "attnum", "lg") ? attribute(sec, "attnum", "lg") : sec;
      tt_fail(c, at, kind == GRIP_TRACK_STRAIGHT ? "lg" : "arc", "%s", what);
      break;
    }

    /* elevation and banking: edge heights at both ends */
    double zsl = num(c, sec, "z start left", zel), zsr = num(c, sec, "z start right", zer);
    zel = num(c, sec, "z end left", zel);
    zer = num(c, sec, "z end right", zer);
    double zs = num(c, sec, "z start", TT_UNSET), ze = num(c, sec, "z end", TT_UNSET);
    grade = num(c, sec, "grade", grade); /* carries over, as in TORCS */
    if (zs != TT_UNSET)
      zsl = zsr = zs;
    else
      zs = 0.5 * (zsl + zsr);
    if (ze != TT_UNSET)
      zel = zer = ze;
    else if (grade != TT_UNSET)
      ze = zs + length * grade;
    else
      ze = 0.5 * (zel + zer);
    double bank_s = num(c, sec, "banking start", atan2(zsl - zsr, W));
    double bank_e = num(c, sec, "banking end", atan2(zel - zer, W));
    double dz = tan(bank_s) * 0.5 * W;
    zsl = zs + dz;
    zsr = zs - dz;
    dz = tan(bank_e) * 0.5 * W;
    zel = ze + dz;
    zer = ze - dz;

    /* profile */
    const char *profil = str(sec, "profil", "spline");
    double stgtl = etgtl, stgtr = etgtr;
    int steps = 1;
    if (strcmp(profil, "spline") == 0) {
      double st = num(c, sec, "profil steps", 1.0);
      steps = st >= 1.0 && st < 1e5 ? (int)st : 1;
      if (steps == 1) {
        double lg = num(c, sec, "profil steps length", global_steplen);
        if (lg > 0.0) {
          double n = length / lg + 1.0;
          steps = n < 1e5 ? (int)n : 100000;
        }
      }
      stgtl = num(c, sec, "profil start tangent left", stgtl);
      etgtl = num(c, sec, "profil end tangent left", etgtl);
      stgtr = num(c, sec, "profil start tangent right", stgtr);
      etgtr = num(c, sec, "profil end tangent right", etgtr);
      double stg = num(c, sec, "profil start tangent", TT_UNSET);
      double etg = num(c, sec, "profil end tangent", TT_UNSET);
      if (stg != TT_UNSET) stgtl = stgtr = stg;
      if (etg != TT_UNSET) etgtl = etgtr = etg;
    } else {
      stgtl = etgtl = (zel - zsl) / length;
      stgtr = etgtr = (zer - zsr) / length;
    }

    /* sides: read once per TORCS segment, tapered over its steps */
    for (int s = 0; s < 2; ++s) {
      if (v3) {
        /* version 3: start and end widths only (no plain width per segment); the barrier's
         * height is the Main Track's throughout */
        double sw = num(c, sec, v3_key(key, sizeof key, s, "side start width"), side[s].side_end);
        side[s].side_start = sw;
        side[s].side_end = num(c, sec, v3_key(key, sizeof key, s, "side end width"), sw);
        side[s].side_material = str(sec, v3_key(key, sizeof key, s, "side surface"), side[s].side_material);
        side[s].border_width = num(c, sec, v3_key(key, sizeof key, s, "border width"), side[s].border_width);
        side[s].border_material = str(sec, v3_key(key, sizeof key, s, "border surface"), side[s].border_material);
      } else {
        xmlNode *ss = section(sec, side_names[s]);
        double sw = num(c, ss, "start width", side[s].side_end);
        double w = num(c, ss, "width", sw);
        side[s].side_start = sw;
        side[s].side_end = num(c, ss, "end width", w);
        side[s].side_material = str(ss, "surface", side[s].side_material);
        xmlNode *bs = section(sec, border_names[s]);
        side[s].border_width = num(c, bs, "width", side[s].border_width);
        side[s].border_material = str(bs, "surface", side[s].border_material);
        xmlNode *rs = section(sec, barrier_names[s]);
        side[s].barrier_height = num(c, rs, "height", side[s].barrier_height);
      }
      if (side[s].side_start < 0.0 || side[s].side_end < 0.0 || side[s].border_width < 0.0 ||
          side[s].barrier_height < 0.0)
        tt_fail(c, sec, v3 ? v3_key(key, sizeof key, s, "side") : side_names[s], "negative width or height%s", "");
    }
    if (c->failed) break;

    /* the steps' geometry (TORCS: radius steps linearly; the step length is chosen so that
     * the steps turn the whole arc, except for a single step, which keeps the mean length) */
    double cur_len = length / steps, dradius = 0.0;
    if (kind != GRIP_TRACK_STRAIGHT && radius_end != radius) {
      if (steps != 1) {
        dradius = (radius_end - radius) / (steps - 1);
        double turned = 0.0, r = radius;
        for (int k = 0; k < steps; ++k) {
          turned += cur_len / r;
          r += dradius;
        }
        cur_len *= arc / turned;
      } else {
        dradius = radius_end - radius;
      }
    }
    double total = cur_len * steps;
    grip_surface road = material(c, road_material);
    grip_surface kerb_s[2], run_s[2];
    for (int s = 0; s < 2; ++s) {
      kerb_s[s] = material(c, side[s].border_material);
      run_s[s] = material(c, side[s].side_material);
    }
    double r = radius;
    for (int k = 0; k < steps && !c->failed; ++k) {
      grip_track_segment_def d = grip_default_track_segment_def();
      d.type = (grip_track_segment_type)kind;
      if (kind == GRIP_TRACK_STRAIGHT) {
        d.length = cur_len;
      } else {
        d.radius = d.end_radius = r;
        d.angle = dradius != 0.0 ? cur_len / r : arc / steps;
        d.length = cur_len;
        r += dradius;
        if (!(r > 0.0) && k + 1 < steps) tt_fail(c, sec, "end radius", "radius goes below 0%s", "");
      }
      double va = (double)k / steps, vb = (double)(k + 1) / steps;
      double hl0, dl0, hr0, dr0, hl1, dl1, hr1, dr1;
      spline(zsl, zel, stgtl * length, etgtl * length, va, &hl0, &dl0);
      spline(zsr, zer, stgtr * length, etgtr * length, va, &hr0, &dr0);
      spline(zsl, zel, stgtl * length, etgtl * length, vb, &hl1, &dl1);
      spline(zsr, zer, stgtr * length, etgtr * length, vb, &hr1, &dr1);
      d.z_start = 0.5 * (hl0 + hr0);
      d.z_end = 0.5 * (hl1 + hr1);
      d.slope_start = 0.5 * (dl0 + dr0) / total;
      d.slope_end = 0.5 * (dl1 + dr1) / total;
      d.cross_start = (hl0 - hr0) / W;
      d.cross_end = (hl1 - hr1) / W;
      d.cross_rate_start = (dl0 - dr0) / W / total;
      d.cross_rate_end = (dl1 - dr1) / W / total;
      d.width_start = d.width_end = W;
      d.surface = road;
      for (int s = 0; s < 2; ++s) {
        double kew = (side[s].side_end - side[s].side_start) / steps;
        grip_track_side_def *sd = &d.side[s];
        sd->kerb_width = side[s].border_width;
        sd->runoff_width_start = side[s].side_start + k * kew;
        sd->runoff_width_end = side[s].side_start + (k + 1) * kew;
        sd->banked = side[s].banked;
        sd->kerb_surface = kerb_s[s];
        sd->runoff_surface = run_s[s];
        sd->barrier_height = side[s].barrier_height;
      }
      if (push(&segs, &lines, &count, &cap, &d, (int)xmlGetLineNo(sec))) tt_fail(c, sec, NULL, "out of memory%s", "");
    }
    /* entry and start: where the named segment begins; end and exit: where it ends */
    for (int k = 0; k < 4; ++k)
      if (pit_here[k] && (k >= 2 || isnan(pit_at[k]))) pit_at[k] = k < 2 ? along : along + total;
    along += total;
  }
  if (!c->failed && count == 0) tt_fail(c, list, list_name, "no segments%s", "");
  if (c->failed) {
    free(segs);
    free(lines);
    return -1;
  }
  memset(out, 0, sizeof *out);
  xmlNode *header = section(root, "Header");
  snprintf(out->name, sizeof out->name, "%s", str(header, "name", "TORCS track"));
  out->segments = segs;
  out->segment_count = count;
  out->lines = lines;
  out->def.segments = segs;
  out->def.segment_count = count;
  out->def.start_position = (grip_vec3){0.0, 0.0, 0.0};
  out->def.start_heading = 0.0;
  if (pits && !isnan(pit_at[0]) && !isnan(pit_at[1]) && !isnan(pit_at[2]) && !isnan(pit_at[3])) {
    grip_track_pit *p = &out->pit;
    p->present = true;
    p->side = strcmp(str(pits, "side", "right"), "right") == 0 ? GRIP_TRACK_SIDE_RIGHT : GRIP_TRACK_SIDE_LEFT;
    double *d[4] = {&p->entry, &p->start, &p->end, &p->exit};
    for (int k = 0; k < 4; ++k) *d[k] = pit_at[k] >= along ? pit_at[k] - along : pit_at[k];
    p->box_length = num(c, pits, "length", 15.0);
    p->box_width = num(c, pits, "width", 5.0);
    p->speed_limit = num(c, pits, "speed limit", 25.0);
    p->line = (int)xmlGetLineNo(pits);
    if (c->failed) {
      free(segs);
      free(lines);
      memset(out, 0, sizeof *out);
      return -1;
    }
  }
  return 0;
}

/* Collects libxml2's messages instead of letting it print them: the first external entity that
 * failed to load (TORCS refuses such a track, and so do we). */
typedef struct tt_xml_errors {
  char message[256];
  char file[512];
  int line;
  bool io_failed;
} tt_xml_errors;

static void collect_xml_error(void *context, xmlErrorPtr e) {
  tt_xml_errors *c = context;
  if (!e || c->io_failed) return;
  if (e->domain == XML_FROM_IO || e->code == XML_IO_LOAD_ERROR ||
      e->code == XML_ERR_EXT_ENTITY_STANDALONE) {
    c->io_failed = true;
    snprintf(c->message, sizeof c->message, "%s", e->message ? e->message : "I/O error");
    size_t n = strlen(c->message);
    while (n > 0 && (c->message[n - 1] == '\n' || c->message[n - 1] == ' '))
      c->message[--n] = '\0';
    snprintf(c->file, sizeof c->file, "%s", e->file ? e->file : "");
    c->line = e->line;
  }
}

/* True when buf[0..n) is well-formed UTF-8. */
static bool valid_utf8(const unsigned char *b, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned char c = b[i];
    size_t extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 9;
    if (extra == 9 || i + extra >= n + (extra == 0)) return false;
    for (size_t k = 1; k <= extra; ++k)
      if (i + k >= n || (b[i + k] & 0xC0) != 0x80) return false;
    i += extra + 1;
  }
  return true;
}

/* Some TORCS data files (data/tracks/objects.xml, several track files) claim UTF-8 but hold
 * Latin-1 bytes in comments; TORCS's parser accepts them. This loader reads local files only
 * (no network) and re-encodes such a file from Latin-1 to UTF-8 before libxml2 sees it. */
static xmlParserInputPtr lenient_loader(const char *url, const char *id, xmlParserCtxtPtr ctxt) {
  (void)id;
  if (!url) return NULL;
  const char *file = url;
  if (strncmp(file, "file://", 7) == 0) file += 7;
  if (strstr(file, "://")) return NULL; /* no network */
  /* Regular files only: no devices, pipes or directories (an entity naming /dev/zero). */
  struct stat st;
  size_t n = 0;
  unsigned char *buf = stat(file, &st) == 0 && S_ISREG(st.st_mode)
                           ? (unsigned char *)grip_read_file(file, 256u << 20, &n, NULL)
                           : NULL;
  if (!buf) {
    tt_xml_errors *c = ctxt ? ctxt->_private : NULL;
    if (c && !c->io_failed) {
      c->io_failed = true;
      snprintf(c->message, sizeof c->message, "failed to load external entity \"%s\"", url);
      c->line = ctxt->input ? ctxt->input->line : 0;
    }
    return NULL;
  }
  unsigned char *text = buf;
  size_t len = n;
  if (!valid_utf8(buf, n)) {
    text = malloc(2 * n + 1);
    if (!text) {
      free(buf);
      return NULL;
    }
    len = 0;
    for (size_t i = 0; i < n; ++i) {
      if (buf[i] < 0x80) {
        text[len++] = buf[i];
      } else {
        text[len++] = (unsigned char)(0xC0 | (buf[i] >> 6));
        text[len++] = (unsigned char)(0x80 | (buf[i] & 0x3F));
      }
    }
    free(buf);
  }
  xmlParserInputBufferPtr in =
      xmlParserInputBufferCreateMem((const char *)text, (int)len, XML_CHAR_ENCODING_NONE);
  free(text);
  if (!in) return NULL;
  xmlParserInputPtr input = xmlNewIOInputStream(ctxt, in, XML_CHAR_ENCODING_NONE);
  if (!input) {
    xmlFreeParserInputBuffer(in);
    return NULL;
  }
  input->filename = (char *)xmlStrdup((const xmlChar *)file);
  return input;
}

int grip_torcs_track_load(const char *path, grip_track_file *out, grip_load_error *err) {
  if (grip_is_directory(path, err)) return -1;
  xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
  if (!ctxt) {
    grip_load_error_set(err, path, 0, NULL, "out of memory");
    return -1;
  }
  tt_xml_errors collected;
  memset(&collected, 0, sizeof collected);
  xmlStructuredErrorFunc old_handler = xmlStructuredError;
  void *old_context = xmlStructuredErrorContext;
  ctxt->_private = &collected;
  xmlSetStructuredErrorFunc(&collected, collect_xml_error);
  xmlExternalEntityLoader old_loader = xmlGetExternalEntityLoader();
  xmlSetExternalEntityLoader(lenient_loader);
  /* NOENT substitutes entities (loading external ones such as surfaces.xml); NONET keeps the
   * parser off the network. */
  xmlDocPtr doc = xmlCtxtReadFile(ctxt, path, NULL,
                                  XML_PARSE_NOENT | XML_PARSE_NONET | XML_PARSE_NOERROR |
                                      XML_PARSE_NOWARNING);
  xmlSetExternalEntityLoader(old_loader);
  xmlSetStructuredErrorFunc(old_context, old_handler);
  if (doc && collected.io_failed) {
    grip_load_error_set(err, path, collected.line, NULL, "XML: %s", collected.message);
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(ctxt);
    return -1;
  }
  if (!doc) {
    const xmlError *e = xmlCtxtGetLastError(ctxt);
    char msg[256] = "cannot read the file";
    int line = 0;
    const char *file = path;
    if (e && e->message) {
      snprintf(msg, sizeof msg, "%s", e->message);
      size_t n = strlen(msg);
      while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) msg[--n] = '\0';
      line = e->line;
      if (e->file) file = e->file;
    }
    grip_load_error_set(err, file, line, NULL, "XML: %s", msg);
    xmlFreeParserCtxt(ctxt);
    return -1;
  }
  tt_ctx c = {.file = path, .err = err, .surfaces = NULL, .failed = 0};
  xmlNode *root = xmlDocGetRootElement(doc);
  int rc;
  if (!root || !is_elem(root, "params")) {
    grip_load_error_set(err, path, root ? (int)xmlGetLineNo(root) : 0, NULL,
                        "not a TORCS parameter file (root element must be <params>)");
    rc = -1;
  } else {
    c.surfaces = section(root, "Surfaces");
    rc = convert(&c, root, out);
  }
  xmlFreeDoc(doc);
  xmlFreeParserCtxt(ctxt);
  return rc;
}

int grip_torcs_find_track_in(const char *dir, const char *name, char *path, size_t size) {
  if (!dir) dir = GRIP_TORCS_TRACK_DIR;
  if (!name || !*name || name[0] == '.' || strchr(name, '/')) return -1;
  DIR *d = opendir(dir);
  if (!d) return -1;
  int rc = -1;
  struct dirent *ent;
  while ((ent = readdir(d)) != NULL) {
    if (ent->d_name[0] == '.') continue;
    int n = snprintf(path, size, "%s/%s/%s/%s.xml", dir, ent->d_name, name, name);
    if (n < 0 || (size_t)n >= size) continue;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
      rc = 0;
      break;
    }
  }
  closedir(d);
  return rc;
}

int grip_torcs_find_track(const char *name, char *path, size_t size) {
  return grip_torcs_find_track_in(NULL, name, path, size);
}
