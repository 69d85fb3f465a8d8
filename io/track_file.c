/* grip's native track format: one statement per line, '#' starts a comment. See docs/tracks.md
 * for the reference. */
#include "track_file.h"

#include "read_file.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "torcs_track.h"

#define TF_MAX_TOKENS 64
#define TF_MAX_SURFACES 32
#define TF_MAX_LINE 1024

typedef struct tf_surface {
  char name[32];
  grip_surface surface;
} tf_surface;

/* The running state: options persist from segment to segment. */
typedef struct tf_state {
  const char *file;
  int line;
  grip_load_error *err;
  tf_surface surfaces[TF_MAX_SURFACES];
  int surface_count;
  double width;   /* m */
  double bank;    /* rad */
  double z;       /* m */
  grip_surface road;
  grip_track_side_def side[2];
  grip_vec3 start;
  double heading;
  char name[128];
  grip_track_pit pit;
} tf_state;

static void add_surface(tf_state *st, const char *name, double friction, double rolling,
                        double roughness, double wavelength) {
  tf_surface *s = NULL;
  for (int i = 0; i < st->surface_count; ++i)
    if (strcmp(st->surfaces[i].name, name) == 0) s = &st->surfaces[i];
  if (!s) {
    if (st->surface_count >= TF_MAX_SURFACES) return;
    s = &st->surfaces[st->surface_count++];
    snprintf(s->name, sizeof s->name, "%s", name);
  }
  s->surface = (grip_surface){.friction = friction, .rolling_resistance = rolling,
                              .roughness_amplitude = roughness,
                              .roughness_wavelength = wavelength,
                              .id = (int)(s - st->surfaces)};
}

static const grip_surface *find_surface(const tf_state *st, const char *name) {
  for (int i = 0; i < st->surface_count; ++i)
    if (strcmp(st->surfaces[i].name, name) == 0) return &st->surfaces[i].surface;
  return NULL;
}

static void init_state(tf_state *st, const char *file, grip_load_error *err) {
  memset(st, 0, sizeof *st);
  st->file = file;
  st->err = err;
  /* built-in surfaces (friction multiplier, rolling resistance f, roughness amplitude and
   * wavelength in m) */
  add_surface(st, "asphalt", 1.0, 0.012, 0.0, 1.5);
  add_surface(st, "concrete", 0.95, 0.012, 0.0, 1.5);
  add_surface(st, "kerb", 1.0, 0.015, 0.01, 0.5);
  add_surface(st, "grass", 0.6, 0.05, 0.02, 2.0);
  add_surface(st, "gravel", 0.55, 0.1, 0.03, 1.0);
  add_surface(st, "sand", 0.5, 0.15, 0.02, 1.5);
  grip_track_segment_def d = grip_default_track_segment_def();
  st->width = d.width_start;
  st->road = *find_surface(st, "asphalt");
  for (int s = 0; s < 2; ++s) {
    st->side[s] = d.side[s];
    st->side[s].kerb_surface = *find_surface(st, "kerb");
    st->side[s].runoff_surface = *find_surface(st, "grass");
  }
  snprintf(st->name, sizeof st->name, "%s", "unnamed");
}

static int fail(tf_state *st, const char *key, const char *fmt, const char *arg) {
  grip_load_error_set(st->err, st->file, st->line, key, fmt, arg);
  return -1;
}

static int number(tf_state *st, const char *key, const char *text, double *out) {
  if (!text) return fail(st, key, "missing value%s", "");
  char *end = NULL;
  errno = 0;
  double v = strtod(text, &end);
  if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v))
    return fail(st, key, "'%s' is not a number", text);
  *out = v;
  return 0;
}

/* A number within [lo, hi] (lo excluded when lo_open), unit for the message. */
static int ranged(tf_state *st, const char *key, const char *text, double lo, double hi,
                  bool lo_open, const char *unit, double *out) {
  if (number(st, key, text, out)) return -1;
  if (lo_open ? *out > lo : *out >= lo) {
    if (*out <= hi) return 0;
  }
  grip_load_error_set(st->err, st->file, st->line, key, "%s is out of range (allowed %s%g .. %g%s%s)",
                      text, lo_open ? "> " : "", lo, hi, *unit ? " " : "", unit);
  return -1;
}

/* Which sides a key with an optional -left/-right suffix applies to; base receives the key
 * without suffix. */
static void split_side(const char *key, char *base, size_t size, bool *left, bool *right) {
  size_t n = strlen(key);
  *left = *right = true;
  if (n > 5 && strcmp(key + n - 5, "-left") == 0) {
    *right = false;
    n -= 5;
  } else if (n > 6 && strcmp(key + n - 6, "-right") == 0) {
    *left = false;
    n -= 6;
  }
  if (n >= size) n = size - 1;
  memcpy(base, key, n);
  base[n] = '\0';
}

/* Per-segment one-shot elevation options. */
typedef struct tf_elevation {
  bool has_z, has_grade, has_tangents;
  double z, grade, t0, t1;
} tf_elevation;

/* Applies "key value" options from tok[i..n). seg (NULL on a top-level line) receives tapering
 * start values; the state receives the new values. */
static int apply_options(tf_state *st, char **tok, int i, int n, grip_track_segment_def *seg,
                         tf_elevation *elev) {
  while (i < n) {
    const char *key = tok[i];
    const char *val = i + 1 < n ? tok[i + 1] : NULL;
    char base[32];
    bool left, right;
    split_side(key, base, sizeof base, &left, &right);
    double v;
    if (strcmp(key, "width") == 0) {
      if (ranged(st, key, val, GRIP_TRACK_MIN_WIDTH, GRIP_TRACK_MAX_WIDTH, false, "m", &v)) return -1;
      st->width = v;
    } else if (strcmp(key, "bank") == 0) {
      if (number(st, key, val, &v)) return -1;
      if (fabs(v) >= 60.0) return fail(st, key, "'%s' degrees is too steep (limit 60)", val);
      st->bank = v * GRIP_PI / 180.0;
    } else if (strcmp(key, "surface") == 0) {
      if (!val) return fail(st, key, "missing value%s", "");
      const grip_surface *s = find_surface(st, val);
      if (!s) return fail(st, key, "unknown surface '%s' (define it with 'material')", val);
      st->road = *s;
    } else if (strcmp(base, "kerb") == 0 || strcmp(base, "runoff") == 0 ||
               strcmp(base, "barrier") == 0) {
      double hi = base[0] == 'b' ? GRIP_TRACK_MAX_BARRIER : GRIP_TRACK_MAX_STRIP;
      if (ranged(st, key, val, 0.0, hi, false, "m", &v)) return -1;
      for (int s = 0; s < 2; ++s) {
        if (!(s == GRIP_TRACK_SIDE_LEFT ? left : right)) continue;
        if (base[0] == 'k')
          st->side[s].kerb_width = v;
        else if (base[0] == 'r')
          st->side[s].runoff_width_end = v;
        else
          st->side[s].barrier_height = v;
      }
    } else if (strcmp(base, "kerb-surface") == 0 || strcmp(base, "runoff-surface") == 0) {
      if (!val) return fail(st, key, "missing value%s", "");
      const grip_surface *s = find_surface(st, val);
      if (!s) return fail(st, key, "unknown surface '%s' (define it with 'material')", val);
      for (int k = 0; k < 2; ++k) {
        if (!(k == GRIP_TRACK_SIDE_LEFT ? left : right)) continue;
        if (base[0] == 'k')
          st->side[k].kerb_surface = *s;
        else
          st->side[k].runoff_surface = *s;
      }
    } else if (strcmp(base, "banked") == 0) {
      if (!val) return fail(st, key, "missing value%s", "");
      bool b;
      if (strcmp(val, "yes") == 0)
        b = true;
      else if (strcmp(val, "no") == 0)
        b = false;
      else
        return fail(st, key, "'%s' must be yes or no", val);
      for (int k = 0; k < 2; ++k)
        if (k == GRIP_TRACK_SIDE_LEFT ? left : right) st->side[k].banked = b;
    } else if (elev && strcmp(key, "z") == 0) {
      if (ranged(st, key, val, -GRIP_TRACK_MAX_ABS_Z, GRIP_TRACK_MAX_ABS_Z, false, "m", &v)) return -1;
      elev->has_z = true;
      elev->z = v;
    } else if (elev && strcmp(key, "grade") == 0) {
      if (ranged(st, key, val, -100.0 * GRIP_TRACK_MAX_SLOPE, 100.0 * GRIP_TRACK_MAX_SLOPE, false, "%", &v))
        return -1;
      elev->has_grade = true;
      elev->grade = v / 100.0;
    } else if (elev && strcmp(key, "tangents") == 0) {
      double t1;
      double smax = 100.0 * GRIP_TRACK_MAX_SLOPE;
      if (ranged(st, key, val, -smax, smax, false, "%", &v)) return -1;
      if (ranged(st, key, i + 2 < n ? tok[i + 2] : NULL, -smax, smax, false, "%", &t1)) return -1;
      elev->has_tangents = true;
      elev->t0 = v / 100.0;
      elev->t1 = t1 / 100.0;
      i += 1;
    } else if (!elev && strcmp(key, "z") == 0) {
      if (ranged(st, key, val, -GRIP_TRACK_MAX_ABS_Z, GRIP_TRACK_MAX_ABS_Z, false, "m", &v)) return -1;
      st->z = v;
    } else {
      return fail(st, key, "unknown option%s", "");
    }
    if (!val) return fail(st, key, "missing value%s", "");
    i += 2;
  }
  (void)seg;
  return 0;
}

/* Starts a segment from the state (start values of everything that tapers). */
static grip_track_segment_def segment_from_state(const tf_state *st) {
  grip_track_segment_def d = grip_default_track_segment_def();
  d.width_start = st->width;
  d.cross_start = tan(st->bank);
  d.z_start = st->z;
  for (int s = 0; s < 2; ++s) {
    d.side[s] = st->side[s];
    d.side[s].runoff_width_start = st->side[s].runoff_width_end;
  }
  return d;
}

/* Completes a segment with the state after its options were applied. */
static int finish_segment(tf_state *st, grip_track_segment_def *d, const tf_elevation *e,
                          double length) {
  d->width_end = st->width;
  d->cross_end = tan(st->bank);
  d->cross_rate_start = d->cross_rate_end = (d->cross_end - d->cross_start) / length;
  d->surface = st->road;
  for (int s = 0; s < 2; ++s) {
    double run0 = d->side[s].runoff_width_start;
    d->side[s] = st->side[s];
    d->side[s].runoff_width_start = run0;
  }
  if (e->has_z && e->has_grade)
    return fail(st, "grade", "give either z or grade, not both%s", "");
  d->z_end = e->has_z ? e->z : e->has_grade ? d->z_start + e->grade * length : d->z_start;
  if (e->has_tangents) {
    d->slope_start = e->t0;
    d->slope_end = e->t1;
  } else {
    d->slope_start = d->slope_end = (d->z_end - d->z_start) / length;
  }
  st->z = d->z_end;
  return 0;
}

static int tokenize(char *line, char **tok) {
  char *hash = strchr(line, '#');
  if (hash) *hash = '\0';
  int n = 0;
  char *p = line;
  while (*p) {
    while (*p && isspace((unsigned char)*p)) ++p;
    if (!*p) break;
    if (n >= TF_MAX_TOKENS) return -1;
    tok[n++] = p;
    while (*p && !isspace((unsigned char)*p)) ++p;
    if (*p) *p++ = '\0';
  }
  return n;
}

/* "pit side left|right entry S start S end S exit S [box-length L] [box-width W]
 * [speed-limit V]": the pit lane (distances along the centre line in m, speed in m/s). The
 * distances are checked against the track's length when it is built (grip_track_pit_check). */
static int parse_pit(tf_state *st, char **tok, int n) {
  if (st->pit.present) return fail(st, "pit", "given twice (a track has one pit lane)%s", "");
  grip_track_pit p = {.present = true, .side = -1, .entry = NAN, .start = NAN, .end = NAN, .exit = NAN,
                      .box_length = 15.0, .box_width = 5.0, .speed_limit = 25.0, .line = st->line};
  for (int i = 1; i < n; i += 2) {
    const char *key = tok[i], *val = i + 1 < n ? tok[i + 1] : NULL;
    if (strcmp(key, "side") == 0) {
      if (!val) return fail(st, "side", "missing value (left or right)%s", "");
      if (strcmp(val, "left") == 0) p.side = GRIP_TRACK_SIDE_LEFT;
      else if (strcmp(val, "right") == 0) p.side = GRIP_TRACK_SIDE_RIGHT;
      else return fail(st, "side", "'%s' must be left or right", val);
    } else if (strcmp(key, "entry") == 0 || strcmp(key, "start") == 0 || strcmp(key, "end") == 0 ||
               strcmp(key, "exit") == 0) {
      double v;
      if (ranged(st, key, val, 0.0, GRIP_TRACK_MAX_LENGTH, false, "m", &v)) return -1;
      if (key[1] == 'n' && key[2] == 't') p.entry = v;
      else if (key[1] == 't') p.start = v;
      else if (key[1] == 'n') p.end = v;
      else p.exit = v;
    } else if (strcmp(key, "box-length") == 0) {
      if (ranged(st, key, val, 1.0, 100.0, false, "m", &p.box_length)) return -1;
    } else if (strcmp(key, "box-width") == 0) {
      if (ranged(st, key, val, 1.0, 50.0, false, "m", &p.box_width)) return -1;
    } else if (strcmp(key, "speed-limit") == 0) {
      if (ranged(st, key, val, 1.0, 150.0, false, "m/s", &p.speed_limit)) return -1;
    } else {
      return fail(st, key, "unknown pit option (side, entry, start, end, exit, box-length, box-width, speed-limit)%s",
                  "");
    }
  }
  if (p.side < 0) return fail(st, "pit", "missing side (left or right)%s", "");
  if (isnan(p.entry)) return fail(st, "pit", "missing entry (m along the track)%s", "");
  if (isnan(p.start)) return fail(st, "pit", "missing start (m along the track)%s", "");
  if (isnan(p.end)) return fail(st, "pit", "missing end (m along the track)%s", "");
  if (isnan(p.exit)) return fail(st, "pit", "missing exit (m along the track)%s", "");
  st->pit = p;
  return 0;
}

/* Parses one statement. segs/count/cap: the growing segment array. */
static int parse_line(tf_state *st, char *line, grip_track_segment_def **segs, int **lines,
                      int *count, int *cap) {
  char raw[TF_MAX_LINE];
  snprintf(raw, sizeof raw, "%s", line);
  char *tok[TF_MAX_TOKENS];
  int n = tokenize(line, tok);
  if (n < 0) return fail(st, NULL, "too many words on one line (limit %s)", "64");
  if (n == 0) return 0;
  const char *kw = tok[0];
  if (strcmp(kw, "name") == 0) {
    /* the rest of the raw line, trimmed */
    char *p = strstr(raw, "name") + 4;
    char *hash = strchr(p, '#');
    if (hash) *hash = '\0';
    while (*p && isspace((unsigned char)*p)) ++p;
    size_t len = strlen(p);
    while (len > 0 && isspace((unsigned char)p[len - 1])) p[--len] = '\0';
    if (len == 0) return fail(st, "name", "missing value%s", "");
    snprintf(st->name, sizeof st->name, "%s", p);
    return 0;
  }
  if (strcmp(kw, "material") == 0) {
    if (n < 2) return fail(st, "material", "missing name%s", "");
    if (strlen(tok[1]) >= 32) return fail(st, "material", "name '%s' is too long", tok[1]);
    grip_surface s = grip_default_surface();
    for (int i = 2; i < n; i += 2) {
      const char *val = i + 1 < n ? tok[i + 1] : NULL;
      double v;
      if (strcmp(tok[i], "friction") == 0) {
        if (ranged(st, tok[i], val, 0.0, 10.0, false, "", &v)) return -1;
        s.friction = v;
      } else if (strcmp(tok[i], "rolling") == 0) {
        if (ranged(st, tok[i], val, 0.0, 1.0, false, "", &v)) return -1;
        s.rolling_resistance = v;
      } else if (strcmp(tok[i], "roughness") == 0) {
        if (ranged(st, tok[i], val, 0.0, 1.0, false, "m", &v)) return -1;
        s.roughness_amplitude = v;
      } else if (strcmp(tok[i], "wavelength") == 0) {
        if (ranged(st, tok[i], val, 0.01, 1000.0, false, "m", &v)) return -1;
        s.roughness_wavelength = v;
      } else {
        return fail(st, tok[i], "unknown material property%s", "");
      }
    }
    if (st->surface_count >= TF_MAX_SURFACES && !find_surface(st, tok[1]))
      return fail(st, "material", "too many materials (limit %s)", "32");
    add_surface(st, tok[1], s.friction, s.rolling_resistance, s.roughness_amplitude,
                s.roughness_wavelength);
    return 0;
  }
  if (strcmp(kw, "start") == 0) {
    double v[4];
    if (n != 5) return fail(st, "start", "expected 'start X Y Z HEADING_DEG'%s", "");
    static const double limit[4] = {GRIP_TRACK_MAX_ABS_XY, GRIP_TRACK_MAX_ABS_XY,
                                     GRIP_TRACK_MAX_ABS_Z, 360.0};
    static const char *const unit[4] = {"m", "m", "m", "deg"};
    for (int i = 0; i < 4; ++i)
      if (ranged(st, "start", tok[i + 1], -limit[i], limit[i], false, unit[i], &v[i])) return -1;
    if (*count > 0) return fail(st, "start", "must come before the first segment%s", "");
    st->start = (grip_vec3){v[0], v[1], v[2]};
    st->heading = v[3] * GRIP_PI / 180.0;
    return 0;
  }
  if (strcmp(kw, "pit") == 0) return parse_pit(st, tok, n);
  if (strcmp(kw, "straight") == 0 || strcmp(kw, "arc") == 0) {
    grip_track_segment_def d = segment_from_state(st);
    tf_elevation e = {0};
    int first_option;
    double length;
    if (kw[0] == 's') {
      if (n < 2) return fail(st, "straight", "missing length%s", "");
      if (ranged(st, "straight", tok[1], 0.0, GRIP_TRACK_MAX_SEGMENT, true, "m", &d.length)) return -1;
      d.type = GRIP_TRACK_STRAIGHT;
      length = d.length;
      first_option = 2;
    } else {
      if (n < 2) return fail(st, "arc", "expected 'arc left|right radius R angle DEG'%s", "");
      if (strcmp(tok[1], "left") == 0)
        d.type = GRIP_TRACK_LEFT;
      else if (strcmp(tok[1], "right") == 0)
        d.type = GRIP_TRACK_RIGHT;
      else
        return fail(st, "arc", "direction '%s' must be left or right", tok[1]);
      bool has_r = false, has_a = false, has_e = false;
      int i = 2;
      for (; i < n; i += 2) {
        const char *val = i + 1 < n ? tok[i + 1] : NULL;
        if (strcmp(tok[i], "radius") == 0) {
          if (ranged(st, "radius", val, GRIP_TRACK_MIN_RADIUS, GRIP_TRACK_MAX_RADIUS, false, "m", &d.radius))
            return -1;
          has_r = true;
        } else if (strcmp(tok[i], "angle") == 0) {
          double deg;
          if (ranged(st, "angle", val, 0.0, 360.0, true, "deg", &deg)) return -1;
          d.angle = deg * GRIP_PI / 180.0;
          has_a = true;
        } else if (strcmp(tok[i], "end-radius") == 0) {
          if (ranged(st, "end-radius", val, GRIP_TRACK_MIN_RADIUS, GRIP_TRACK_MAX_RADIUS, false, "m",
                     &d.end_radius))
            return -1;
          has_e = true;
        } else {
          break;
        }
      }
      if (!has_r) return fail(st, "radius", "missing (arc needs radius R)%s", "");
      if (!has_a) return fail(st, "angle", "missing (arc needs angle DEG)%s", "");
      if (!has_e) d.end_radius = d.radius;
      length = d.angle * 0.5 * (d.radius + d.end_radius);
      d.length = length;
      first_option = i;
    }
    if (apply_options(st, tok, first_option, n, &d, &e)) return -1;
    if (finish_segment(st, &d, &e, length)) return -1;
    if (*count >= *cap) {
      int ncap = *cap ? *cap * 2 : 32;
      grip_track_segment_def *p = realloc(*segs, (size_t)ncap * sizeof *p);
      if (!p) return fail(st, NULL, "out of memory%s", "");
      *segs = p;
      int *l = realloc(*lines, (size_t)ncap * sizeof *l);
      if (!l) return fail(st, NULL, "out of memory%s", "");
      *lines = l;
      *cap = ncap;
    }
    (*lines)[*count] = st->line;
    (*segs)[(*count)++] = d;
    return 0;
  }
  /* a bare option line sets the state for the following segments */
  return apply_options(st, tok, 0, n, NULL, NULL);
}

int grip_track_file_parse(const char *text, const char *filename, grip_track_file *out,
                          grip_load_error *err) {
  tf_state *st = malloc(sizeof *st);
  if (!st) {
    grip_load_error_set(err, filename, 0, NULL, "out of memory");
    return -1;
  }
  init_state(st, filename, err);
  grip_track_segment_def *segs = NULL;
  int *lines = NULL;
  int count = 0, cap = 0, rc = 0;
  const char *p = text;
  char line[TF_MAX_LINE];
  while (*p && rc == 0) {
    st->line++;
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    if (len >= sizeof line) {
      rc = fail(st, NULL, "line longer than %s characters", "1023");
      break;
    }
    memcpy(line, p, len);
    line[len] = '\0';
    if (len > 0 && line[len - 1] == '\r') line[len - 1] = '\0';
    rc = parse_line(st, line, &segs, &lines, &count, &cap);
    p = eol ? eol + 1 : p + len;
  }
  if (rc == 0 && count == 0) {
    st->line = 0;
    rc = fail(st, NULL, "no segments (add lines such as 'straight 200')%s", "");
  }
  if (rc == 0) {
    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", st->name);
    out->segments = segs;
    out->segment_count = count;
    out->lines = lines;
    out->def.segments = segs;
    out->def.segment_count = count;
    out->def.start_position = st->start;
    out->def.start_heading = st->heading;
    out->pit = st->pit;
  } else {
    free(segs);
    free(lines);
  }
  free(st);
  return rc;
}

int grip_track_file_load(const char *path, grip_track_file *out, grip_load_error *err) {
  size_t len = 0;
  char *buf = grip_read_file(path, 64u << 20, &len, err);
  if (!buf) return -1;
  if (strlen(buf) != len) {
    free(buf);
    grip_load_error_set(err, path, 0, NULL, "binary data (NUL byte) in a text file");
    return -1;
  }
  int rc = grip_track_file_parse(buf, path, out, err);
  free(buf);
  return rc;
}

void grip_track_file_free(grip_track_file *file) {
  if (!file) return;
  free(file->segments);
  free(file->lines);
  file->segments = NULL;
  file->lines = NULL;
  file->segment_count = 0;
  file->def.segments = NULL;
  file->def.segment_count = 0;
}

double grip_track_max_closure(double length) {
  double rel = GRIP_TRACK_CLOSURE_REL * length;
  return rel < GRIP_TRACK_CLOSURE_ABS ? rel : GRIP_TRACK_CLOSURE_ABS;
}

/* One magnitude of segment i against [lo, hi] (lo excluded when lo_open). */
static int check_value(const grip_track_file *tf, int i, const char *file, const char *key,
                       double v, double lo, double hi, bool lo_open, const char *unit,
                       grip_load_error *err) {
  if ((lo_open ? v > lo : v >= lo) && v <= hi) return 0;
  grip_load_error_set(err, file, tf->lines ? tf->lines[i] : 0, key,
                      "%.6g in segment %d is out of range (allowed %s%g .. %g%s%s)", v, i + 1,
                      lo_open ? "> " : "", lo, hi, *unit ? " " : "", unit);
  return -1;
}

static int check_surface(const grip_track_file *tf, int i, const char *file, const char *what,
                         const grip_surface *s, grip_load_error *err) {
  char key[48];
  snprintf(key, sizeof key, "%s friction", what);
  if (check_value(tf, i, file, key, s->friction, 0.0, 10.0, false, "", err)) return -1;
  snprintf(key, sizeof key, "%s rolling resistance", what);
  if (check_value(tf, i, file, key, s->rolling_resistance, 0.0, 1.0, false, "", err)) return -1;
  snprintf(key, sizeof key, "%s roughness", what);
  if (check_value(tf, i, file, key, s->roughness_amplitude, 0.0, 1.0, false, "m", err)) return -1;
  snprintf(key, sizeof key, "%s wavelength", what);
  return check_value(tf, i, file, key, s->roughness_wavelength, 0.01, 1000.0, false, "m", err);
}

int grip_track_file_check(const grip_track_file *tf, const char *file, grip_load_error *err) {
  if (!tf->segments || tf->segment_count < 1) {
    grip_load_error_set(err, file, 0, NULL, "no segments");
    return -1;
  }
  const double max_cross = tan(60.0 * GRIP_PI / 180.0);
  const grip_vec3 p = tf->def.start_position;
  if (!(fabs(p.x) <= GRIP_TRACK_MAX_ABS_XY && fabs(p.y) <= GRIP_TRACK_MAX_ABS_XY &&
        fabs(p.z) <= GRIP_TRACK_MAX_ABS_Z && fabs(tf->def.start_heading) <= 2.0 * GRIP_PI)) {
    grip_load_error_set(err, file, 0, "start", "position or heading out of range (allowed |x|, "
                        "|y| <= %g m, |z| <= %g m, |heading| <= 360 deg)",
                        GRIP_TRACK_MAX_ABS_XY, GRIP_TRACK_MAX_ABS_Z);
    return -1;
  }
  double plan_length = 0.0; /* m, the segments' lengths so far: the whole is refused before it is built */
  for (int i = 0; i < tf->segment_count; ++i) {
    const grip_track_segment_def *d = &tf->segments[i];
    int bad = 0;
    plan_length += d->type == GRIP_TRACK_STRAIGHT ? d->length : d->angle * 0.5 * (d->radius + d->end_radius);
    if (!(plan_length <= GRIP_TRACK_MAX_LENGTH)) {
      grip_load_error_set(err, file, tf->lines ? tf->lines[i] : 0, "length",
                          "the track reaches %.6g m at segment %d (allowed up to %g m)", plan_length, i + 1,
                          GRIP_TRACK_MAX_LENGTH);
      return -1;
    }
    if (d->type == GRIP_TRACK_STRAIGHT) {
      bad = check_value(tf, i, file, "length", d->length, 0.0, GRIP_TRACK_MAX_SEGMENT, true, "m", err);
    } else if (d->type == GRIP_TRACK_LEFT || d->type == GRIP_TRACK_RIGHT) {
      bad = check_value(tf, i, file, "radius", d->radius, GRIP_TRACK_MIN_RADIUS,
                        GRIP_TRACK_MAX_RADIUS, false, "m", err) ||
            check_value(tf, i, file, "end radius", d->end_radius, GRIP_TRACK_MIN_RADIUS,
                        GRIP_TRACK_MAX_RADIUS, false, "m", err) ||
            check_value(tf, i, file, "angle", d->angle * 180.0 / GRIP_PI, 0.0, 360.0, true, "deg", err) ||
            check_value(tf, i, file, "length", d->angle * 0.5 * (d->radius + d->end_radius), 0.0,
                        GRIP_TRACK_MAX_SEGMENT, true, "m", err);
      if (!bad) {
        double r = d->radius < d->end_radius ? d->radius : d->end_radius;
        double w = d->width_start > d->width_end ? d->width_start : d->width_end;
        if (!(0.5 * w < r)) {
          grip_load_error_set(err, file, tf->lines ? tf->lines[i] : 0, "radius",
                              "%.6g m in segment %d is not more than half the road width %.6g m "
                              "(the inner edge would cross the turn's centre)", r, i + 1, w);
          bad = -1;
        }
      }
    } else {
      grip_load_error_set(err, file, tf->lines ? tf->lines[i] : 0, "type",
                          "unknown segment type %d in segment %d", (int)d->type, i + 1);
      bad = -1;
    }
    bad = bad ||
          check_value(tf, i, file, "width", d->width_start, GRIP_TRACK_MIN_WIDTH, GRIP_TRACK_MAX_WIDTH, false, "m", err) ||
          check_value(tf, i, file, "width", d->width_end, GRIP_TRACK_MIN_WIDTH, GRIP_TRACK_MAX_WIDTH, false, "m", err) ||
          check_value(tf, i, file, "z", d->z_start, -GRIP_TRACK_MAX_ABS_Z, GRIP_TRACK_MAX_ABS_Z, false, "m", err) ||
          check_value(tf, i, file, "z", d->z_end, -GRIP_TRACK_MAX_ABS_Z, GRIP_TRACK_MAX_ABS_Z, false, "m", err) ||
          check_value(tf, i, file, "slope", d->slope_start, -GRIP_TRACK_MAX_SLOPE, GRIP_TRACK_MAX_SLOPE, false, "", err) ||
          check_value(tf, i, file, "slope", d->slope_end, -GRIP_TRACK_MAX_SLOPE, GRIP_TRACK_MAX_SLOPE, false, "", err) ||
          check_value(tf, i, file, "cross slope", d->cross_start, -max_cross, max_cross, false, "", err) ||
          check_value(tf, i, file, "cross slope", d->cross_end, -max_cross, max_cross, false, "", err) ||
          check_value(tf, i, file, "cross slope rate", d->cross_rate_start, -1e3, 1e3, false, "1/m", err) ||
          check_value(tf, i, file, "cross slope rate", d->cross_rate_end, -1e3, 1e3, false, "1/m", err) ||
          check_surface(tf, i, file, "road", &d->surface, err);
    for (int k = 0; k < 2 && !bad; ++k) {
      const grip_track_side_def *sd = &d->side[k];
      bad = check_value(tf, i, file, "kerb", sd->kerb_width, 0.0, GRIP_TRACK_MAX_STRIP, false, "m", err) ||
            check_value(tf, i, file, "runoff", sd->runoff_width_start, 0.0, GRIP_TRACK_MAX_STRIP, false, "m", err) ||
            check_value(tf, i, file, "runoff", sd->runoff_width_end, 0.0, GRIP_TRACK_MAX_STRIP, false, "m", err) ||
            check_value(tf, i, file, "barrier", sd->barrier_height, 0.0, GRIP_TRACK_MAX_BARRIER, false, "m", err) ||
            check_surface(tf, i, file, "kerb", &sd->kerb_surface, err) ||
            check_surface(tf, i, file, "runoff", &sd->runoff_surface, err);
    }
    if (bad) return -1;
  }
  return 0;
}

int grip_track_file_build(const grip_track_file *tf, const char *file, grip_track **out,
                          grip_load_error *err) {
  *out = NULL;
  if (grip_track_file_check(tf, file, err) != 0) return -1;
  grip_track *track = NULL;
  grip_result r = grip_track_build(&tf->def, &track);
  if (r != GRIP_OK) {
    grip_load_error_set(err, file, 0, NULL, "the track's geometry is invalid (%s)",
                        r == GRIP_OUT_OF_MEMORY ? "out of memory" : "a value out of range");
    return -1;
  }
  grip_track_stats s = grip_track_get_stats(track);
  int last = tf->lines ? tf->lines[tf->segment_count - 1] : 0;
  if (!(s.length >= GRIP_TRACK_MIN_LENGTH && s.length <= GRIP_TRACK_MAX_LENGTH)) {
    grip_load_error_set(err, file, last, "length", "the track is %.6g m long (allowed %g .. %g m)",
                        s.length, GRIP_TRACK_MIN_LENGTH, GRIP_TRACK_MAX_LENGTH);
    grip_track_destroy(track);
    return -1;
  }
  double allowed = grip_track_max_closure(s.length);
  if (!(s.closure_error <= allowed)) {
    grip_load_error_set(err, file, last, "closure",
                        "the track does not close: its last segment ends %.3g m from its start "
                        "(allowed at most %.3g m: the smaller of %g m and %g %% of the length "
                        "%.6g m)",
                        s.closure_error, allowed, GRIP_TRACK_CLOSURE_ABS,
                        100.0 * GRIP_TRACK_CLOSURE_REL, s.length);
    grip_track_destroy(track);
    return -1;
  }
  if (tf->pit.present && grip_track_pit_check(&tf->pit, s.length, file, err) != 0) {
    grip_track_destroy(track);
    return -1;
  }
  *out = track;
  return 0;
}

/* m, from a to b going forwards along a track of length L. */
static double ahead(double a, double b, double L) {
  double d = b - a;
  return d < 0.0 ? d + L : d;
}

int grip_track_pit_check(const grip_track_pit *pit, double length, const char *file, grip_load_error *err) {
  if (!pit->present) return 0;
  const struct {
    const char *key;
    double v;
  } at[4] = {{"entry", pit->entry}, {"start", pit->start}, {"end", pit->end}, {"exit", pit->exit}};
  for (int i = 0; i < 4; ++i)
    if (!(at[i].v >= 0.0 && at[i].v < length)) {
      grip_load_error_set(err, file, pit->line, at[i].key, "%.6g m is not on the track (allowed 0 .. %.6g m)",
                          at[i].v, length);
      return -1;
    }
  if (pit->side != GRIP_TRACK_SIDE_LEFT && pit->side != GRIP_TRACK_SIDE_RIGHT) {
    grip_load_error_set(err, file, pit->line, "side", "must be left or right");
    return -1;
  }
  if (!(pit->box_length >= 1.0 && pit->box_length <= 100.0) || !(pit->box_width >= 1.0 && pit->box_width <= 50.0) ||
      !(pit->speed_limit >= 1.0 && pit->speed_limit <= 150.0)) {
    grip_load_error_set(err, file, pit->line, "pit",
                        "box length %.6g m, width %.6g m or speed limit %.6g m/s out of range (allowed 1 .. 100 m, "
                        "1 .. 50 m, 1 .. 150 m/s)",
                        pit->box_length, pit->box_width, pit->speed_limit);
    return -1;
  }
  /* entry -> start -> end -> exit in driving order, the whole pit road under 70 % of a lap (the
   * robot's way in starts up to a quarter lap before the entry: the two stay within one lap) */
  double to_start = ahead(pit->entry, pit->start, length), lane = ahead(pit->start, pit->end, length);
  double to_exit = ahead(pit->end, pit->exit, length);
  if (!(to_start + lane + to_exit < 0.7 * length)) {
    grip_load_error_set(err, file, pit->line, "pit",
                        "entry %.6g, start %.6g, end %.6g, exit %.6g m: the pit road (entry to exit in driving "
                        "order) is %.6g m, not under 70 %% of the lap (%.6g m)",
                        pit->entry, pit->start, pit->end, pit->exit, to_start + lane + to_exit, 0.7 * length);
    return -1;
  }
  if (lane < pit->box_length) {
    grip_load_error_set(err, file, pit->line, "pit", "the lane from start to end (%.6g m) is shorter than one box (%.6g m)",
                        lane, pit->box_length);
    return -1;
  }
  return 0;
}

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

int grip_track_open(const char *spec, grip_track **out, char *name, size_t name_size,
                    grip_load_error *err) {
  return grip_track_open_pit(spec, out, name, name_size, NULL, err);
}

int grip_track_open_pit(const char *spec, grip_track **out, char *name, size_t name_size, grip_track_pit *pit,
                        grip_load_error *err) {
  *out = NULL;
  grip_track_file tf;
  int rc;
  const char *label = spec;
  char path[1024];
  if (strcmp(spec, "default") == 0) {
    label = "<default track>";
    rc = grip_track_file_parse(grip_track_default_text(), label, &tf, err);
  } else if (strncmp(spec, "torcs:", 6) == 0) {
    if (grip_torcs_find_track(spec + 6, path, sizeof path) != 0) {
      grip_load_error_set(err, spec, 0, NULL,
                          "no TORCS track of that name under %s (apt-get install torcs-data)",
                          GRIP_TORCS_TRACK_DIR);
      return -1;
    }
    rc = grip_torcs_track_load(path, &tf, err);
    label = path;
  } else if (ends_with(spec, ".xml")) {
    rc = grip_torcs_track_load(spec, &tf, err);
  } else {
    rc = grip_track_file_load(spec, &tf, err);
  }
  if (rc != 0) return -1;
  if (grip_track_file_build(&tf, label, out, err) != 0) {
    grip_track_file_free(&tf);
    return -1;
  }
  if (name && name_size) snprintf(name, name_size, "%s", tf.name);
  if (pit) *pit = tf.pit;
  grip_track_file_free(&tf);
  return 0;
}
