/* grip scene files (INI, parsed with inih): see scene.h and docs/scene.md. */
#define _XOPEN_SOURCE 700
#include "scene.h"

#include <ctype.h>
#include <ini.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "car_file.h"
#include "ini_text.h"
#include "read_file.h"

#define SCENE_MAX_BYTES (1u << 20)
#define PI_ 3.14159265358979323846

/* Keys of each section; a key's index is its bit in the "seen" masks. */
static const char *const scene_keys[] = {"name",         "terrain", "track",   "ground",
                                         "texture",      "terrain_edge", "surface", "plane_height",
                                         "plane_surface", "gravity"};
enum { K_NAME, K_TERRAIN, K_TRACK, K_GROUND, K_TEXTURE, K_EDGE, K_SURFACE, K_PLANE_HEIGHT,
       K_PLANE_SURFACE, K_GRAVITY, K_SCENE_COUNT };
static const char *const camera_keys[] = {"mode", "position", "target", "follow", "fov_deg",
                                          "distance", "height"};
enum { C_MODE, C_POSITION, C_TARGET, C_FOLLOW, C_FOV, C_DISTANCE, C_HEIGHT, C_COUNT };
static const char *const car_keys[] = {"file",     "x",     "y",     "z",         "heading_deg",
                                       "speed_kmh", "driver", "throttle", "brake", "steer",
                                       "handbrake", "gear", "tow", "hitch", "tow_point", "coupling"};
enum { V_FILE, V_X, V_Y, V_Z, V_HEADING, V_SPEED, V_DRIVER, V_THROTTLE, V_BRAKE, V_STEER,
       V_HANDBRAKE, V_GEAR, V_TOW, V_HITCH, V_TOW_POINT, V_COUPLING, V_COUNT };

typedef enum section_kind { SEC_NONE, SEC_SCENE, SEC_CAMERA, SEC_CAR, SEC_UNKNOWN } section_kind;

typedef struct parser {
  grip_scene *scene;
  const char *name; /* file name for messages */
  const char *dir;  /* directory for relative paths, NULL = cwd */
  grip_ini_lines src;
  grip_load_error err; /* first error */
  section_kind kind;   /* section of the last header the reader saw */
  int car;             /* its car index when kind == SEC_CAR */
  int scene_line[K_SCENE_COUNT];
  int camera_line[C_COUNT];
  int car_line[GRIP_SCENE_MAX_CARS][V_COUNT];
  int scene_header_line;
  int ground_key;      /* K_TERRAIN, K_TRACK or K_GROUND; -1 before one is given */
  char warned_section[64];
} parser;

#define FAIL(key_, ...)                                                            \
  do {                                                                             \
    grip_load_error_set(&ps->err, ps->name, ps->src.line, key_, __VA_ARGS__);      \
    return 0;                                                                      \
  } while (0)

static void copy_text(char *dst, size_t n, const char *src) {
  if (n == 0) return;
  size_t k = strlen(src);
  if (k >= n) k = n - 1;
  memcpy(dst, src, k);
  dst[k] = '\0';
}

static void warn(parser *ps, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void warn(parser *ps, int line, const char *fmt, ...) {
  grip_scene *s = ps->scene;
  if (s->warning_count >= GRIP_SCENE_MAX_WARNINGS) {
    s->warnings_dropped++;
    return;
  }
  char what[160];
  va_list args;
  va_start(args, fmt);
  vsnprintf(what, sizeof what, fmt, args);
  va_end(args);
  char *dst = s->warnings[s->warning_count++];
  if (snprintf(dst, sizeof s->warnings[0], "%s:%d: %s", ps->name, line, what) < 0) dst[0] = '\0';
}

static bool file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* A car name: 1..63 of letters, digits, '_', '-', '.'. */
static bool valid_car_name(const char *n) {
  size_t k = strlen(n);
  if (k == 0 || k >= GRIP_SCENE_NAME_MAX) return false;
  for (; *n; ++n)
    if (!isalnum((unsigned char)*n) && *n != '_' && *n != '-' && *n != '.') return false;
  return true;
}

/* Section header "[...]" seen by the reader: registers the section (and creates the car) so
 * that sections without keys count too. Returns 0 on an error (kept in ps->err). */
static int open_section(parser *ps, const char *header) {
  const char *close = strchr(header, ']');
  if (!close) return 1; /* inih reports the syntax error */
  char sec[200];
  size_t k = (size_t)(close - header - 1);
  if (k >= sizeof sec) k = sizeof sec - 1;
  memcpy(sec, header + 1, k);
  sec[k] = '\0';
  /* inih strips blanks around the name; do the same. */
  char *b = sec;
  while (*b == ' ' || *b == '\t') ++b;
  char *e = b + strlen(b);
  while (e > b && (e[-1] == ' ' || e[-1] == '\t')) *--e = '\0';
  ps->car = -1;
  if (strcmp(b, "scene") == 0) {
    if (ps->scene_header_line) FAIL(NULL, "[scene] appears twice (first on line %d)", ps->scene_header_line);
    ps->scene_header_line = ps->src.line;
    ps->kind = SEC_SCENE;
  } else if (strcmp(b, "camera") == 0) {
    if (ps->scene->camera.line) FAIL(NULL, "[camera] appears twice (first on line %d)", ps->scene->camera.line);
    ps->scene->camera.line = ps->src.line;
    ps->kind = SEC_CAMERA;
  } else if (strncmp(b, "car", 3) == 0 && (b[3] == ' ' || b[3] == '\t' || b[3] == '\0')) {
    const char *n = b + 3;
    while (*n == ' ' || *n == '\t') ++n;
    if (!*n) FAIL(NULL, "[car] needs a name: [car NAME]");
    if (!valid_car_name(n))
      FAIL(NULL, "car name '%s' is not valid (1 to %d letters, digits, '_', '-', '.')", n, GRIP_SCENE_NAME_MAX - 1);
    grip_scene *s = ps->scene;
    int other = grip_scene_find_car(s, n);
    if (other >= 0) FAIL(NULL, "car '%s' appears twice (first on line %d)", n, s->cars[other].line);
    if (s->car_count >= GRIP_SCENE_MAX_CARS) FAIL(NULL, "too many cars (at most %d)", GRIP_SCENE_MAX_CARS);
    grip_scene_car *c = &s->cars[s->car_count];
    memset(c, 0, sizeof *c);
    copy_text(c->name, sizeof c->name, n);
    copy_text(c->file, sizeof c->file, "builtin");
    c->gear = 1;
    c->line = ps->src.line;
    ps->car = s->car_count++;
    ps->kind = SEC_CAR;
  } else {
    ps->kind = SEC_UNKNOWN;
    warn(ps, ps->src.line, "unknown section [%s] ignored", b);
  }
  return 1;
}

static char *reader(char *str, int num, void *stream) {
  parser *ps = stream;
  char *r = grip_ini_lines_read(str, num, &ps->src);
  if (r && r[0] == '[' && !ps->err.message[0]) open_section(ps, r);
  return r;
}

/* --- values ------------------------------------------------------------------------------- */

/* A number in [min, max], nothing after it. */
static int number(parser *ps, const char *key, const char *value, double min, double max, const char *unit,
                  double *out) {
  char why[200];
  if (!grip_ini_number_in_range(value, min, max, unit, out, why, sizeof why)) FAIL(key, "%s", why);
  return 1;
}

/* "x, y, z" within [-lim, lim] each. */
static int vec3(parser *ps, const char *key, const char *value, double lim, grip_vec3 *out) {
  double v[3];
  const char *p = value;
  for (int i = 0; i < 3; ++i) {
    const char *rest = NULL;
    int rc = grip_scan_number(p, &v[i], &rest);
    if (rc != 0) FAIL(key, "'%s' is not three numbers 'x, y, z' (m)", value);
    if (!(fabs(v[i]) <= lim)) FAIL(key, "%g is out of range (allowed %g .. %g m)", v[i], -lim, lim);
    while (*rest == ' ' || *rest == '\t') ++rest;
    if (i < 2) {
      if (*rest != ',') FAIL(key, "'%s' is not three numbers 'x, y, z' (m)", value);
      p = rest + 1;
    } else if (*rest) {
      FAIL(key, "'%s' is not three numbers 'x, y, z' (m)", value);
    }
  }
  *out = (grip_vec3){v[0], v[1], v[2]};
  return 1;
}

static int surface(parser *ps, const char *key, const char *value, char *name, size_t n, grip_surface *out) {
  if (!grip_surface_preset_find(value, out)) {
    char list[160] = "";
    for (int i = 0; i < GRIP_SURFACE_PRESET_COUNT; ++i) {
      size_t k = strlen(list);
      snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "", grip_surface_preset_name(i));
    }
    FAIL(key, "unknown surface '%s' (allowed: %s)", value, list);
  }
  copy_text(name, n, value);
  return 1;
}

/* A file path relative to the scene's directory that must exist. */
static int path(parser *ps, const char *key, const char *value, char *out, size_t n) {
  if (!value[0]) FAIL(key, "empty path");
  if (grip_join_path(ps->dir, value, out, n)) FAIL(key, "path too long");
  if (!file_exists(out)) FAIL(key, "%s: no such file", out);
  return 1;
}

/* Whether key was already given in this section; records its line. */
static int first_time(parser *ps, int *lines, int index, const char *key) {
  if (lines[index]) FAIL(key, "given twice (first on line %d)", lines[index]);
  lines[index] = ps->src.line;
  return 1;
}

static int find_key(const char *const *keys, int count, const char *name) {
  for (int i = 0; i < count; ++i)
    if (strcmp(keys[i], name) == 0) return i;
  return -1;
}

static int scene_key(parser *ps, const char *name, const char *value) {
  grip_scene *s = ps->scene;
  int k = find_key(scene_keys, K_SCENE_COUNT, name);
  if (k < 0) {
    warn(ps, ps->src.line, "[scene] %s: unknown key ignored", name);
    return 1;
  }
  if (!first_time(ps, ps->scene_line, k, name)) return 0;
  if (k == K_TERRAIN || k == K_TRACK || k == K_GROUND) {
    if (ps->ground_key >= 0)
      FAIL(name, "a scene has exactly one ground, already given by '%s' on line %d", scene_keys[ps->ground_key],
           ps->scene_line[ps->ground_key]);
    ps->ground_key = k;
    s->ground_line = ps->src.line;
  }
  switch (k) {
  case K_NAME:
    if (!value[0]) FAIL(name, "empty name");
    copy_text(s->name, sizeof s->name, value);
    return 1;
  case K_TERRAIN:
    s->ground = GRIP_SCENE_GROUND_TERRAIN;
    return path(ps, name, value, s->ground_file, sizeof s->ground_file);
  case K_TRACK:
    s->ground = GRIP_SCENE_GROUND_TRACK;
    if (strcmp(value, "default") == 0 || (strncmp(value, "torcs:", 6) == 0 && value[6])) {
      copy_text(s->ground_file, sizeof s->ground_file, value);
      return 1;
    }
    return path(ps, name, value, s->ground_file, sizeof s->ground_file);
  case K_GROUND:
    if (strcmp(value, "plane") != 0) FAIL(name, "'%s' is not a ground (allowed: plane; or use terrain = or track =)", value);
    s->ground = GRIP_SCENE_GROUND_PLANE;
    return 1;
  case K_TEXTURE:
    return path(ps, name, value, s->texture, sizeof s->texture);
  case K_EDGE:
    if (strcmp(value, "no_ground") == 0) s->terrain_edge = GRIP_EDGE_NO_GROUND;
    else if (strcmp(value, "clamp") == 0) s->terrain_edge = GRIP_EDGE_CLAMP;
    else FAIL(name, "'%s' is not an edge mode (allowed: no_ground, clamp)", value);
    return 1;
  case K_SURFACE:
    s->has_surface = true;
    return surface(ps, name, value, s->surface_name, sizeof s->surface_name, &s->surface);
  case K_PLANE_HEIGHT:
    return number(ps, name, value, -1e4, 1e4, "m", &s->plane_height);
  case K_PLANE_SURFACE:
    return surface(ps, name, value, s->plane_surface_name, sizeof s->plane_surface_name, &s->plane_surface);
  case K_GRAVITY:
    return number(ps, name, value, 0.1, 100.0, "m/s^2", &s->gravity);
  }
  return 1;
}

static int camera_key(parser *ps, const char *name, const char *value) {
  grip_scene_camera *c = &ps->scene->camera;
  int k = find_key(camera_keys, C_COUNT, name);
  if (k < 0) {
    warn(ps, ps->src.line, "[camera] %s: unknown key ignored", name);
    return 1;
  }
  if (!first_time(ps, ps->camera_line, k, name)) return 0;
  switch (k) {
  case C_MODE:
    if (strcmp(value, "chase") == 0) c->mode = GRIP_SCENE_CAMERA_CHASE;
    else if (strcmp(value, "fixed") == 0) c->mode = GRIP_SCENE_CAMERA_FIXED;
    else if (strcmp(value, "orbit") == 0) c->mode = GRIP_SCENE_CAMERA_ORBIT;
    else FAIL(name, "'%s' is not a camera mode (allowed: chase, fixed, orbit)", value);
    return 1;
  case C_POSITION:
    c->has_position = true;
    return vec3(ps, name, value, 1e7, &c->position);
  case C_TARGET:
    c->has_target = true;
    return vec3(ps, name, value, 1e7, &c->target);
  case C_FOLLOW:
    if (!valid_car_name(value)) FAIL(name, "'%s' is not a car name", value);
    copy_text(c->follow, sizeof c->follow, value);
    return 1;
  case C_FOV:
    return number(ps, name, value, 10.0, 150.0, "deg", &c->fov_deg);
  case C_DISTANCE:
    return number(ps, name, value, 0.5, 1000.0, "m", &c->distance);
  case C_HEIGHT:
    return number(ps, name, value, -100.0, 1000.0, "m", &c->height);
  }
  return 1;
}

static int car_key(parser *ps, const char *name, const char *value) {
  grip_scene_car *c = &ps->scene->cars[ps->car];
  int *lines = ps->car_line[ps->car];
  int k = find_key(car_keys, V_COUNT, name);
  if (k < 0) {
    warn(ps, ps->src.line, "[car %s] %s: unknown key ignored", c->name, name);
    return 1;
  }
  if (!first_time(ps, lines, k, name)) return 0;
  double v;
  switch (k) {
  case V_FILE:
    c->file_line = ps->src.line;
    if (strcmp(value, "builtin") == 0 || strcmp(value, "corvette-c5") == 0 ||
        (strncmp(value, "torcs:", 6) == 0 && value[6])) {
      copy_text(c->file, sizeof c->file, value);
      return 1;
    }
    return path(ps, name, value, c->file, sizeof c->file);
  case V_X:
    c->position_line = ps->src.line;
    return number(ps, name, value, -1e7, 1e7, "m", &c->x);
  case V_Y:
    c->position_line = ps->src.line;
    return number(ps, name, value, -1e7, 1e7, "m", &c->y);
  case V_Z:
    c->z_line = ps->src.line;
    c->has_z = true;
    return number(ps, name, value, -1e5, 1e5, "m", &c->z);
  case V_HEADING:
    if (!number(ps, name, value, -360.0, 360.0, "deg", &v)) return 0;
    c->heading = v * PI_ / 180.0;
    return 1;
  case V_SPEED:
    if (!number(ps, name, value, 0.0, 540.0, "km/h", &v)) return 0;
    c->speed = v / 3.6;
    return 1;
  case V_DRIVER:
    if (strcmp(value, "none") == 0) c->driver = GRIP_SCENE_DRIVER_NONE;
    else if (strcmp(value, "robot") == 0) c->driver = GRIP_SCENE_DRIVER_ROBOT;
    else FAIL(name, "'%s' is not a driver (allowed: none, robot)", value);
    return 1;
  case V_THROTTLE:
    return number(ps, name, value, 0.0, 1.0, "", &c->throttle);
  case V_BRAKE:
    return number(ps, name, value, 0.0, 1.0, "", &c->brake);
  case V_STEER:
    return number(ps, name, value, -1.0, 1.0, "", &c->steer);
  case V_HANDBRAKE:
    return number(ps, name, value, 0.0, 1.0, "", &c->handbrake);
  case V_GEAR:
    if (strcmp(value, "drive") == 0) c->gear = 1;
    else if (strcmp(value, "neutral") == 0) c->gear = 0;
    else if (strcmp(value, "reverse") == 0) c->gear = -1;
    else FAIL(name, "'%s' is not a gear (allowed: drive, neutral, reverse)", value);
    return 1;
  case V_TOW:
    if (!valid_car_name(value)) FAIL(name, "'%s' is not a car name", value);
    if (strcmp(value, c->name) == 0) FAIL(name, "car '%s' cannot tow itself", c->name);
    copy_text(c->tow, sizeof c->tow, value);
    c->tow_line = ps->src.line;
    return 1;
  case V_HITCH:
    if (strcmp(value, "ball") == 0) c->fifth_wheel = false;
    else if (strcmp(value, "fifth_wheel") == 0) c->fifth_wheel = true;
    else FAIL(name, "'%s' is not a hitch (allowed: ball, fifth_wheel)", value);
    return 1;
  case V_TOW_POINT:
    return vec3(ps, name, value, 100.0, &c->tow_point);
  case V_COUPLING:
    return vec3(ps, name, value, 100.0, &c->coupling);
  }
  return 1;
}

static int handler(void *user, const char *section, const char *name, const char *value) {
  parser *ps = user;
  (void)section; /* the reader tracked it (and saw headers of empty sections too) */
  if (ps->err.message[0]) return 0;
  switch (ps->kind) {
  case SEC_NONE: FAIL(name, "key outside any [section]");
  case SEC_SCENE: return scene_key(ps, name, value);
  case SEC_CAMERA: return camera_key(ps, name, value);
  case SEC_CAR: return car_key(ps, name, value);
  case SEC_UNKNOWN: return 1;
  }
  return 1;
}

/* --- whole-file checks -------------------------------------------------------------------- */

#define FAIL_AT(line_, key_, ...)                                                  \
  do {                                                                             \
    grip_load_error_set(err, ps->name, line_, key_, __VA_ARGS__);                  \
    return -1;                                                                     \
  } while (0)

/* A car spec that names a grip car file (the others, builtin and TORCS cars, have no [trailer]). */
static bool is_grip_car_file(const char *spec) {
  size_t n = strlen(spec);
  if (strcmp(spec, "builtin") == 0 || strcmp(spec, "corvette-c5") == 0 || strncmp(spec, "torcs:", 6) == 0) return false;
  if (n >= 4 && strcmp(spec + n - 4, ".xml") == 0) return false;
  struct stat st;
  return stat(spec, &st) == 0 && S_ISREG(st.st_mode);
}

/* The trailers the cars' own files name ([trailer] in a car file, docs/car-format.md): each
 * becomes a towed car of the scene, "NAME/trailer", as if the scene had said tow = NAME. */
static int add_car_file_trailers(parser *ps, grip_load_error *err) {
  grip_scene *s = ps->scene;
  grip_car *car = malloc(sizeof *car), *trailer = malloc(sizeof *trailer);
  int rc = -1, given = s->car_count;
  grip_load_error e;
  if (!car || !trailer) {
    grip_load_error_set(err, ps->name, 0, NULL, "out of memory");
    goto done;
  }
  for (int i = 0; i < given; ++i) {
    const grip_scene_car *c = &s->cars[i];
    int line = c->file_line ? c->file_line : c->line;
    if (!is_grip_car_file(c->file)) continue;
    if (grip_car_load(c->file, car, &e) != 0) {
      grip_load_error_set(err, ps->name, line, "file", "%s", e.message);
      goto done;
    }
    if (!car->trailer.file[0]) continue;
    if (grip_car_load(car->trailer.file, trailer, &e) != 0) {
      grip_load_error_set(err, ps->name, line, "file", "%s", e.message);
      goto done;
    }
    if (s->car_count >= GRIP_SCENE_MAX_CARS) {
      grip_load_error_set(err, ps->name, line, "file", "car '%s' brings a trailer past the %d cars a scene holds", c->name,
                          GRIP_SCENE_MAX_CARS);
      goto done;
    }
    char tow_name[GRIP_SCENE_NAME_MAX], trailer_name[GRIP_SCENE_NAME_MAX];
    copy_text(tow_name, sizeof tow_name, c->name);
    if (snprintf(trailer_name, sizeof trailer_name, "%s/trailer", tow_name) >= (int)sizeof trailer_name) {
      grip_load_error_set(err, ps->name, c->line, NULL, "car name '%s' too long to name its trailer", tow_name);
      goto done;
    }
    int k = s->car_count++;
    grip_scene_car *t = &s->cars[k];
    memset(t, 0, sizeof *t);
    copy_text(t->name, sizeof t->name, trailer_name);
    if (grip_scene_find_car(s, t->name) != k) {
      grip_load_error_set(err, ps->name, c->line, NULL, "a car is already named '%s'", t->name);
      goto done;
    }
    copy_text(t->file, sizeof t->file, car->trailer.file);
    copy_text(t->tow, sizeof t->tow, tow_name);
    t->tow_point = car->trailer.tow_point;
    t->coupling = trailer->def.coupling.point;
    t->fifth_wheel = trailer->coupling_fifth_wheel;
    t->driver = GRIP_SCENE_DRIVER_NONE;
    t->gear = 0;
    t->line = t->file_line = t->tow_line = line;
    memset(ps->car_line[k], 0, sizeof ps->car_line[k]);
    ps->car_line[k][V_FILE] = ps->car_line[k][V_TOW] = ps->car_line[k][V_TOW_POINT] = ps->car_line[k][V_COUPLING] = line;
    ps->car_line[k][V_GEAR] = line; /* neutral, as given */
  }
  rc = 0;
done:
  free(car);
  free(trailer);
  return rc;
}

static int finish(parser *ps, grip_load_error *err) {
  grip_scene *s = ps->scene;
  if (add_car_file_trailers(ps, err) != 0) return -1;
  if (ps->ground_key < 0)
    FAIL_AT(ps->scene_header_line, NULL, "no ground: give one of terrain = FILE, track = FILE|torcs:NAME|default, ground = plane in [scene]");
  if (s->car_count == 0) FAIL_AT(0, NULL, "no car: add a [car NAME] section");
  if (s->ground != GRIP_SCENE_GROUND_TERRAIN) {
    if (ps->scene_line[K_EDGE]) FAIL_AT(ps->scene_line[K_EDGE], "terrain_edge", "only for a terrain ground");
    if (ps->scene_line[K_SURFACE]) FAIL_AT(ps->scene_line[K_SURFACE], "surface", "only for a terrain ground");
  }
  if (s->ground != GRIP_SCENE_GROUND_PLANE) {
    if (ps->scene_line[K_PLANE_HEIGHT]) FAIL_AT(ps->scene_line[K_PLANE_HEIGHT], "plane_height", "only with ground = plane");
    if (ps->scene_line[K_PLANE_SURFACE]) FAIL_AT(ps->scene_line[K_PLANE_SURFACE], "plane_surface", "only with ground = plane");
  }
  for (int i = 0; i < s->car_count; ++i) {
    grip_scene_car *c = &s->cars[i];
    const int *lines = ps->car_line[i];
    bool hx = lines[V_X] != 0, hy = lines[V_Y] != 0;
    if (hx != hy) FAIL_AT(lines[hx ? V_X : V_Y], hx ? "x" : "y", "give both x and y (car '%s')", c->name);
    c->has_position = hx && hy;
    if (!c->has_position && !c->tow[0]) {
      if (s->ground != GRIP_SCENE_GROUND_TRACK)
        FAIL_AT(c->line, NULL, "car '%s' needs x and y (grid slots exist on track scenes only)", c->name);
      if (lines[V_Z]) FAIL_AT(lines[V_Z], "z", "needs x and y (car '%s' takes a grid slot)", c->name);
      if (lines[V_HEADING]) FAIL_AT(lines[V_HEADING], "heading_deg", "needs x and y (car '%s' takes a grid slot)", c->name);
    }
    if (c->driver == GRIP_SCENE_DRIVER_ROBOT) {
      if (s->ground != GRIP_SCENE_GROUND_TRACK)
        FAIL_AT(lines[V_DRIVER], "driver", "robot drives on track scenes only (car '%s')", c->name);
      static const int inputs[] = {V_THROTTLE, V_BRAKE, V_STEER, V_HANDBRAKE, V_GEAR};
      for (size_t j = 0; j < sizeof inputs / sizeof inputs[0]; ++j)
        if (lines[inputs[j]])
          FAIL_AT(lines[inputs[j]], car_keys[inputs[j]], "only with driver = none (car '%s' has a robot)", c->name);
    }
    c->tow_index = -1;
    if (c->tow[0]) {
      c->tow_index = grip_scene_find_car(s, c->tow);
      if (c->tow_index < 0) FAIL_AT(lines[V_TOW], "tow", "no car named '%s' in the scene", c->tow);
      if (s->cars[c->tow_index].driver == GRIP_SCENE_DRIVER_ROBOT)
        FAIL_AT(lines[V_TOW], "tow", "car '%s' has a robot driver, which plans for a car alone: it tows no trailer ('%s')",
                c->tow, c->name);
      if (!lines[V_TOW_POINT] || !lines[V_COUPLING])
        FAIL_AT(lines[V_TOW], "tow", "car '%s' is towed: give tow_point = x, y, z (on '%s') and coupling = x, y, z (on '%s')",
                c->name, c->tow, c->name);
      static const int placed[] = {V_X, V_Y, V_Z, V_HEADING, V_SPEED, V_THROTTLE, V_STEER};
      for (size_t j = 0; j < sizeof placed / sizeof placed[0]; ++j)
        if (lines[placed[j]])
          FAIL_AT(lines[placed[j]], car_keys[placed[j]],
                  "car '%s' is towed: it starts behind '%s' with its speed, and is not driven", c->name, c->tow);
      if (c->driver == GRIP_SCENE_DRIVER_ROBOT)
        FAIL_AT(lines[V_DRIVER], "driver", "car '%s' is towed: no robot drives it", c->name);
      c->has_position = true; /* placed by its hitch */
      if (!lines[V_GEAR]) c->gear = 0; /* rolls in neutral */
    } else {
      static const int hitch_keys[] = {V_HITCH, V_TOW_POINT, V_COUPLING};
      for (size_t j = 0; j < sizeof hitch_keys / sizeof hitch_keys[0]; ++j)
        if (lines[hitch_keys[j]])
          FAIL_AT(lines[hitch_keys[j]], car_keys[hitch_keys[j]], "only with tow = NAME (car '%s' is not towed)", c->name);
    }
    if (c->throttle > 0.0 && c->brake > 0.0)
      FAIL_AT(lines[V_BRAKE] > lines[V_THROTTLE] ? lines[V_BRAKE] : lines[V_THROTTLE],
              lines[V_BRAKE] > lines[V_THROTTLE] ? "brake" : "throttle",
              "throttle and brake together (car '%s'): give one of them", c->name);
  }
  /* Each car tows one trailer at most, and no chain of tows comes back to itself. */
  for (int i = 0; i < s->car_count; ++i) {
    const grip_scene_car *c = &s->cars[i];
    if (c->tow_index < 0) continue;
    for (int j = 0; j < i; ++j)
      if (s->cars[j].tow_index == c->tow_index)
        FAIL_AT(c->tow_line, "tow", "car '%s' already tows '%s'", c->tow, s->cars[j].name);
    int at = c->tow_index;
    for (int steps = 0; at >= 0; ++steps) {
      if (at == i || steps > s->car_count)
        FAIL_AT(c->tow_line, "tow", "car '%s' would tow itself through a chain of trailers", c->name);
      at = s->cars[at].tow_index;
    }
  }
  grip_scene_camera *cam = &s->camera;
  if (cam->follow[0] && grip_scene_find_car(s, cam->follow) < 0)
    FAIL_AT(ps->camera_line[C_FOLLOW], "follow", "no car named '%s' in the scene", cam->follow);
  if (cam->follow[0] && cam->has_target)
    FAIL_AT(ps->camera_line[C_FOLLOW] > ps->camera_line[C_TARGET] ? ps->camera_line[C_FOLLOW] : ps->camera_line[C_TARGET],
            NULL, "camera: give target or follow, not both");
  if (cam->mode == GRIP_SCENE_CAMERA_FIXED && !cam->has_position)
    FAIL_AT(cam->line, "position", "a fixed camera needs a position = x, y, z");
  if (cam->mode == GRIP_SCENE_CAMERA_CHASE && cam->has_target)
    FAIL_AT(ps->camera_line[C_TARGET], "target", "a chase camera follows a car (use follow =)");
  if (cam->mode == GRIP_SCENE_CAMERA_CHASE && cam->has_position)
    FAIL_AT(ps->camera_line[C_POSITION], "position", "a chase camera is placed behind its car (use mode = fixed)");
  if (cam->mode != GRIP_SCENE_CAMERA_FIXED && !cam->has_target && !cam->follow[0])
    copy_text(cam->follow, sizeof cam->follow, s->cars[0].name);
  if (cam->mode == GRIP_SCENE_CAMERA_FIXED && cam->has_target && cam->has_position &&
      cam->target.x == cam->position.x && cam->target.y == cam->position.y && cam->target.z == cam->position.z)
    FAIL_AT(ps->camera_line[C_TARGET], "target", "equals the camera position (no view direction)");
  return 0;
}

/* --- public API --------------------------------------------------------------------------- */

static void scene_defaults(grip_scene *s, const char *name) {
  memset(s, 0, sizeof *s);
  const char *base = strrchr(name, '/');
  copy_text(s->name, sizeof s->name, base ? base + 1 : name);
  char *dot = strrchr(s->name, '.');
  if (dot && dot != s->name) *dot = '\0';
  copy_text(s->path, sizeof s->path, name);
  s->terrain_edge = GRIP_EDGE_NO_GROUND;
  s->surface = grip_default_surface();
  copy_text(s->surface_name, sizeof s->surface_name, "asphalt");
  s->plane_surface = grip_default_surface();
  copy_text(s->plane_surface_name, sizeof s->plane_surface_name, "asphalt");
  s->gravity = 9.81;
  s->camera.mode = GRIP_SCENE_CAMERA_CHASE;
  s->camera.fov_deg = 60.0;
  s->camera.distance = 6.0;
  s->camera.height = 2.0;
}

int grip_scene_parse(const char *text, const char *name, const char *base_dir, grip_scene *out,
                     grip_load_error *err) {
  grip_load_error local;
  if (!err) err = &local;
  grip_load_error_clear(err);
  if (!name) name = "(text)";
  void *scratch, *state;
  if (grip_ini_begin(text, out, name, sizeof(grip_scene), &scratch, sizeof(parser), &state, err)) return -1;
  grip_scene *tmp = scratch;
  parser *ps = state;
  scene_defaults(tmp, name);
  copy_text(tmp->dir, sizeof tmp->dir, base_dir ? base_dir : ".");
  ps->scene = tmp;
  ps->name = name;
  ps->dir = base_dir;
  ps->src.text = text;
  ps->kind = SEC_NONE;
  ps->car = -1;
  ps->ground_key = -1;
  int rc = ini_parse_stream(reader, ps, handler, ps);
  int result = -1;
  if (grip_ini_outcome(rc, &ps->src, &ps->err, name, err) == 0) result = finish(ps, err);
  return grip_ini_end(result, out, tmp, sizeof *out, ps);
}

int grip_scene_load(const char *path, grip_scene *out, grip_load_error *err) {
  grip_load_error local;
  if (!err) err = &local;
  grip_load_error_clear(err);
  char *text = grip_read_file(path, SCENE_MAX_BYTES, NULL, err);
  if (!text) return -1;
  char dir[GRIP_SCENE_PATH_MAX];
  grip_dir_of(path, dir, sizeof dir);
  int rc = grip_scene_parse(text, path, dir, out, err);
  free(text);
  return rc;
}

int grip_scene_find_car(const grip_scene *scene, const char *name) {
  for (int i = 0; i < scene->car_count; ++i)
    if (strcmp(scene->cars[i].name, name) == 0) return i;
  return -1;
}

const char *grip_scene_ground_name(grip_scene_ground_kind kind) {
  switch (kind) {
  case GRIP_SCENE_GROUND_TERRAIN: return "terrain";
  case GRIP_SCENE_GROUND_TRACK: return "track";
  case GRIP_SCENE_GROUND_PLANE: return "plane";
  }
  return "?";
}

const char *grip_scene_camera_mode_name(grip_scene_camera_mode mode) {
  switch (mode) {
  case GRIP_SCENE_CAMERA_CHASE: return "chase";
  case GRIP_SCENE_CAMERA_FIXED: return "fixed";
  case GRIP_SCENE_CAMERA_ORBIT: return "orbit";
  }
  return "?";
}

const char *grip_scene_driver_name(grip_scene_driver driver) {
  return driver == GRIP_SCENE_DRIVER_ROBOT ? "robot" : "none";
}
