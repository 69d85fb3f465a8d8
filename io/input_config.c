/* Input configuration files: see input_config.h and docs/input.md. */
#include "input_config.h"

#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ini_text.h"
#include "read_file.h"

const char *const grip_input_pad_axis_names[6] = {"leftx", "lefty", "rightx", "righty", "lefttrigger", "righttrigger"};
const char *const grip_input_pad_button_names[21] = {
    "a",      "b",      "x",      "y",     "back",    "guide",   "start",    "leftstick",   "rightstick", "leftshoulder",
    "rightshoulder", "dpup", "dpdown", "dpleft", "dpright", "misc1", "paddle1", "paddle2", "paddle3", "paddle4",
    "touchpad"};

/* data/input/default.ini, embedded by CMake as bytes. */
static const char default_text[] = {
#include "default_input.inc"
    0};

typedef enum section_kind {
  SEC_NONE,
  SEC_DEVICE,
  SEC_STEER,
  SEC_THROTTLE,
  SEC_BRAKE,
  SEC_CLUTCH,
  SEC_HANDBRAKE,
  SEC_GEARS,
  SEC_BUTTONS,
  SEC_FFB,
  SEC_UNKNOWN,
} section_kind;

static const char *const section_names[] = {[SEC_DEVICE] = "device",       [SEC_STEER] = "steer",
                                            [SEC_THROTTLE] = "throttle",   [SEC_BRAKE] = "brake",
                                            [SEC_CLUTCH] = "clutch",       [SEC_HANDBRAKE] = "handbrake",
                                            [SEC_GEARS] = "gears",         [SEC_BUTTONS] = "buttons",
                                            [SEC_FFB] = "force_feedback"};

typedef struct parser {
  grip_input_config *cfg;
  const char *name;
  grip_ini_lines src;
  section_kind kind;
  bool seen[SEC_UNKNOWN];
  bool released_set[4], pressed_set[4]; /* per pedal: given in the file */
  grip_load_error err;
} parser;

#define FAIL(key_, ...)                                                            \
  do {                                                                             \
    grip_load_error_set(&ps->err, ps->name, ps->src.line, key_, __VA_ARGS__);      \
    return 0;                                                                      \
  } while (0)

static void open_section(parser *ps, const char *line) {
  const char *end = strchr(line, ']');
  size_t n = end ? (size_t)(end - line - 1) : 0;
  char name[64];
  if (n >= sizeof name) n = sizeof name - 1;
  memcpy(name, line + 1, n);
  name[n] = '\0';
  ps->kind = SEC_UNKNOWN;
  for (int k = SEC_DEVICE; k < SEC_UNKNOWN; ++k)
    if (strcmp(name, section_names[k]) == 0) ps->kind = (section_kind)k;
  if (ps->kind == SEC_UNKNOWN) {
    grip_load_error_set(&ps->err, ps->name, ps->src.line, NULL,
                        "[%s]: unknown section (allowed: device, steer, throttle, brake, clutch, handbrake, gears, "
                        "buttons, force_feedback)",
                        name);
    return;
  }
  if (ps->seen[ps->kind])
    grip_load_error_set(&ps->err, ps->name, ps->src.line, NULL, "[%s] given twice", name);
  ps->seen[ps->kind] = true;
}

static char *reader(char *str, int num, void *stream) {
  parser *ps = stream;
  char *r = grip_ini_lines_read(str, num, &ps->src);
  if (r && r[0] == '[' && !ps->err.message[0]) open_section(ps, r);
  return r;
}

/* --- values ------------------------------------------------------------------------------- */

static int number(parser *ps, const char *key, const char *value, double min, double max, const char *unit,
                  double *out) {
  char why[200];
  if (!grip_ini_number_in_range(value, min, max, unit, out, why, sizeof why)) FAIL(key, "%s", why);
  return 1;
}

static int boolean(parser *ps, const char *key, const char *value, bool *out) {
  if (!strcmp(value, "yes") || !strcmp(value, "true") || !strcmp(value, "1")) *out = true;
  else if (!strcmp(value, "no") || !strcmp(value, "false") || !strcmp(value, "0")) *out = false;
  else FAIL(key, "'%s' is not yes or no", value);
  return 1;
}

/* A non-negative integer < limit written right after prefix in text; returns the rest or NULL. */
static const char *small_int(const char *text, int limit, int *out) {
  int v = 0, digits = 0;
  while (*text >= '0' && *text <= '9' && digits < 4) v = 10 * v + (*text++ - '0'), ++digits;
  if (digits == 0 || (*text >= '0' && *text <= '9') || v >= limit) return NULL;
  *out = v;
  return text;
}

static int find_name(const char *const *names, int count, const char *name) {
  for (int i = 0; i < count; ++i)
    if (strcmp(names[i], name) == 0) return i;
  return -1;
}

/* One source, "kind:name" (trimmed text of length n). want_axis: an axis is wanted, else a button. */
static int source(parser *ps, const char *key, const char *text, size_t n, bool want_axis, grip_input_source *out) {
  char s[96];
  if (n == 0) FAIL(key, "empty source in the list");
  if (n >= sizeof s) FAIL(key, "source '%.40s…' too long", text);
  memcpy(s, text, n);
  s[n] = '\0';
  memset(out, 0, sizeof *out);
  out->line = ps->src.line;
  const char *rest;
  int index;
  if (!strncmp(s, "key:", 4)) {
    if (want_axis) FAIL(key, "'%s': a key is not an axis (give it as buttons, or use left/right)", s);
    size_t len = strlen(s + 4);
    if (len == 0 || len >= GRIP_INPUT_KEY_NAME) FAIL(key, "'%s': key name empty or longer than %d characters", s, GRIP_INPUT_KEY_NAME - 1);
    out->kind = GRIP_INPUT_KEY;
    memcpy(out->key, s + 4, len + 1);
  } else if (!strncmp(s, "pad:", 4)) {
    int axis = find_name(grip_input_pad_axis_names, 6, s + 4);
    int button = find_name(grip_input_pad_button_names, 21, s + 4);
    if (axis < 0 && button < 0)
      FAIL(key, "'%s': unknown gamepad control (axes: leftx lefty rightx righty lefttrigger righttrigger; buttons: a b x y "
                "back guide start leftstick rightstick leftshoulder rightshoulder dpup dpdown dpleft dpright misc1 "
                "paddle1..4 touchpad)", s);
    if (want_axis && axis < 0) FAIL(key, "'%s' is a gamepad button, an axis is needed here", s);
    if (!want_axis && button < 0) FAIL(key, "'%s' is a gamepad axis, a button is needed here", s);
    out->kind = want_axis ? GRIP_INPUT_PAD_AXIS : GRIP_INPUT_PAD_BUTTON;
    out->index = want_axis ? axis : button;
  } else if (!strncmp(s, "joy:axis", 8)) {
    if (!(rest = small_int(s + 8, 256, &index)) || *rest) FAIL(key, "'%s': expected joy:axisN, N 0..255", s);
    if (!want_axis) FAIL(key, "'%s' is an axis, a button is needed here", s);
    out->kind = GRIP_INPUT_JOY_AXIS;
    out->index = index;
  } else if (!strncmp(s, "joy:button", 10)) {
    if (!(rest = small_int(s + 10, 256, &index)) || *rest) FAIL(key, "'%s': expected joy:buttonN, N 0..255", s);
    if (want_axis) FAIL(key, "'%s' is a button, an axis is needed here", s);
    out->kind = GRIP_INPUT_JOY_BUTTON;
    out->index = index;
  } else if (!strncmp(s, "joy:hat", 7)) {
    if (!(rest = small_int(s + 7, 16, &index)) || *rest != '.')
      FAIL(key, "'%s': expected joy:hatN.up|right|down|left, N 0..15", s);
    static const char *const dirs[4] = {"up", "right", "down", "left"};
    int d = find_name(dirs, 4, rest + 1);
    if (d < 0) FAIL(key, "'%s': hat direction must be up, right, down or left", s);
    if (want_axis) FAIL(key, "'%s' is a hat, an axis is needed here", s);
    out->kind = GRIP_INPUT_JOY_HAT;
    out->index = index;
    out->direction = 1 << d;
  } else {
    FAIL(key, "'%s': unknown source (allowed: key:NAME, pad:NAME, joy:axisN, joy:buttonN, joy:hatN.DIR)", s);
  }
  return 1;
}

static int axis_source(parser *ps, const char *key, const char *value, grip_input_axis *axis) {
  size_t n = strlen(value);
  while (n > 0 && (value[n - 1] == ' ' || value[n - 1] == '\t')) --n;
  if (n == 0) {
    axis->source.kind = GRIP_INPUT_NONE;
    return 1;
  }
  if (memchr(value, ',', n)) FAIL(key, "one axis only");
  return source(ps, key, value, n, true, &axis->source);
}

/* "src, src, …" (up to GRIP_INPUT_MAX_SOURCES); an empty value binds nothing. */
static int button_list(parser *ps, const char *key, const char *value, grip_input_buttons *list) {
  memset(list, 0, sizeof *list);
  const char *p = value;
  while (*p == ' ' || *p == '\t') ++p;
  if (!*p) return 1;
  for (;;) {
    while (*p == ' ' || *p == '\t') ++p;
    const char *end = strchr(p, ',');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t')) --n;
    if (list->count >= GRIP_INPUT_MAX_SOURCES) FAIL(key, "more than %d sources", GRIP_INPUT_MAX_SOURCES);
    if (!source(ps, key, p, n, false, &list->source[list->count])) return 0;
    list->count++;
    if (!end) break;
    p = end + 1;
  }
  return 1;
}

/* Keys shared by every axis section. Returns 1 handled, 0 failed, -1 not an axis key. */
static int axis_key(parser *ps, const char *name, const char *value, grip_input_axis *axis, bool pedal, int pedal_index) {
  if (!strcmp(name, "axis")) return axis_source(ps, name, value, axis);
  if (!strcmp(name, "deadzone")) return number(ps, name, value, 0.0, 0.9, "", &axis->deadzone);
  if (!strcmp(name, "curve")) return number(ps, name, value, 0.2, 5.0, "", &axis->curve);
  if (!strcmp(name, "invert")) return boolean(ps, name, value, &axis->invert);
  if (pedal && !strcmp(name, "released")) {
    ps->released_set[pedal_index] = true;
    return number(ps, name, value, -32768.0, 32767.0, "", &axis->released);
  }
  if (pedal && !strcmp(name, "pressed")) {
    ps->pressed_set[pedal_index] = true;
    return number(ps, name, value, -32768.0, 32767.0, "", &axis->pressed);
  }
  return -1;
}

static int steer_key(parser *ps, const char *name, const char *value) {
  grip_input_steer *s = &ps->cfg->steer;
  int rc = axis_key(ps, name, value, &s->axis, false, 0);
  if (rc >= 0) return rc;
  if (!strcmp(name, "range")) return number(ps, name, value, 0.0, 3600.0, "deg", &s->axis.range_deg);
  if (!strcmp(name, "left")) return button_list(ps, name, value, &s->left);
  if (!strcmp(name, "right")) return button_list(ps, name, value, &s->right);
  if (!strcmp(name, "rate")) return number(ps, name, value, 0.1, 100.0, "1/s", &s->rate);
  if (!strcmp(name, "rate_speed")) return number(ps, name, value, 0.0, 1000.0, "m/s", &s->rate_speed);
  if (!strcmp(name, "centre_rate")) return number(ps, name, value, 0.1, 100.0, "1/s", &s->centre_rate);
  FAIL(name, "unknown key in [steer] (allowed: axis, deadzone, curve, invert, range, left, right, rate, rate_speed, "
             "centre_rate)");
}

static int pedal_key(parser *ps, const char *name, const char *value, grip_input_pedal *p, int index) {
  int rc = axis_key(ps, name, value, &p->axis, true, index);
  if (rc >= 0) return rc;
  if (!strcmp(name, "buttons")) return button_list(ps, name, value, &p->buttons);
  if (!strcmp(name, "rise")) return number(ps, name, value, 0.0, 1000.0, "1/s", &p->rise_rate);
  if (!strcmp(name, "fall")) return number(ps, name, value, 0.0, 1000.0, "1/s", &p->fall_rate);
  if (index == 0 && !strcmp(name, "combined")) return boolean(ps, name, value, &ps->cfg->combined_pedals);
  FAIL(name, "unknown key in [%s] (allowed: axis, deadzone, curve, invert, released, pressed, buttons, rise, fall%s)",
       section_names[ps->kind], index == 0 ? ", combined" : "");
}

static int gears_key(parser *ps, const char *name, const char *value) {
  grip_input_config *c = ps->cfg;
  if (!strcmp(name, "up")) return button_list(ps, name, value, &c->gear_up);
  if (!strcmp(name, "down")) return button_list(ps, name, value, &c->gear_down);
  if (!strcmp(name, "automatic")) return button_list(ps, name, value, &c->automatic);
  if (!strcmp(name, "reverse")) return button_list(ps, name, value, &c->reverse);
  int gear;
  const char *rest = small_int(name, GRIP_MAX_GEARS + 1, &gear);
  if (rest && !*rest && gear >= 1) return button_list(ps, name, value, &c->gear[gear - 1]);
  FAIL(name, "unknown key in [gears] (allowed: up, down, automatic, reverse, 1 .. %d)", GRIP_MAX_GEARS);
}

static int handler(void *user, const char *section, const char *name, const char *value) {
  parser *ps = user;
  (void)section;
  if (ps->err.message[0]) return 0;
  grip_input_config *c = ps->cfg;
  switch (ps->kind) {
  case SEC_NONE: FAIL(name, "key outside any [section]");
  case SEC_DEVICE:
    if (!strcmp(name, "joystick")) {
      if (strlen(value) >= sizeof c->joystick_match) FAIL(name, "longer than %d characters", (int)sizeof c->joystick_match - 1);
      snprintf(c->joystick_match, sizeof c->joystick_match, "%s", value);
      return 1;
    }
    FAIL(name, "unknown key in [device] (allowed: joystick)");
  case SEC_STEER: return steer_key(ps, name, value);
  case SEC_THROTTLE: return pedal_key(ps, name, value, &c->throttle, 0);
  case SEC_BRAKE: return pedal_key(ps, name, value, &c->brake, 1);
  case SEC_CLUTCH: return pedal_key(ps, name, value, &c->clutch, 2);
  case SEC_HANDBRAKE: return pedal_key(ps, name, value, &c->handbrake, 3);
  case SEC_GEARS: return gears_key(ps, name, value);
  case SEC_BUTTONS:
    if (!strcmp(name, "reset")) return button_list(ps, name, value, &c->reset);
    if (!strcmp(name, "camera")) return button_list(ps, name, value, &c->camera);
    if (!strcmp(name, "pause")) return button_list(ps, name, value, &c->pause);
    if (!strcmp(name, "abs")) return button_list(ps, name, value, &c->abs_toggle);
    if (!strcmp(name, "tc")) return button_list(ps, name, value, &c->tc_toggle);
    if (!strcmp(name, "esc")) return button_list(ps, name, value, &c->esc_toggle);
    FAIL(name, "unknown key in [buttons] (allowed: reset, camera, pause, abs, tc, esc)");
  case SEC_FFB:
    if (!strcmp(name, "gain")) return number(ps, name, value, 0.0, 2.0, "", &c->ffb_gain);
    if (!strcmp(name, "max_torque")) return number(ps, name, value, 0.1, 100.0, "N*m", &c->ffb_max_torque);
    if (!strcmp(name, "min_force")) return number(ps, name, value, 0.0, 0.5, "", &c->ffb_min_force);
    if (!strcmp(name, "enabled")) return boolean(ps, name, value, &c->ffb_enabled);
    if (!strcmp(name, "invert")) return boolean(ps, name, value, &c->ffb_invert);
    if (!strcmp(name, "rumble")) return boolean(ps, name, value, &c->rumble);
    FAIL(name, "unknown key in [force_feedback] (allowed: enabled, invert, gain, max_torque, min_force, rumble)");
  case SEC_UNKNOWN: return 0;
  }
  return 1;
}

/* --- public API --------------------------------------------------------------------------- */

static void default_axis(grip_input_axis *a) {
  memset(a, 0, sizeof *a);
  a->curve = 1.0;
}

void grip_input_config_empty(grip_input_config *cfg) {
  memset(cfg, 0, sizeof *cfg);
  default_axis(&cfg->steer.axis);
  cfg->steer.rate = 2.5;
  cfg->steer.rate_speed = 30.0;
  cfg->steer.centre_rate = 4.0;
  grip_input_pedal *pedals[4] = {&cfg->throttle, &cfg->brake, &cfg->clutch, &cfg->handbrake};
  for (int i = 0; i < 4; ++i) default_axis(&pedals[i]->axis);
  cfg->ffb_gain = 1.0;
  cfg->ffb_max_torque = 15.0;
  cfg->ffb_min_force = 0.0;
  cfg->ffb_enabled = true;
  cfg->rumble = true;
}

int grip_input_config_parse(const char *text, const char *name, grip_input_config *out, grip_load_error *err) {
  grip_load_error local;
  if (!err) err = &local;
  grip_load_error_clear(err);
  if (!name) name = "(text)";
  void *scratch, *state;
  if (grip_ini_begin(text, out, name, sizeof(grip_input_config), &scratch, sizeof(parser), &state, err)) return -1;
  grip_input_config *tmp = scratch;
  parser *ps = state;
  grip_input_config_empty(tmp);
  snprintf(tmp->path, sizeof tmp->path, "%s", name);
  ps->cfg = tmp;
  ps->name = name;
  ps->src.text = text;
  ps->kind = SEC_NONE;
  int rc = ini_parse_stream(reader, ps, handler, ps);
  int result = -1;
  if (grip_ini_outcome(rc, &ps->src, &ps->err, name, err) == 0) {
    /* Pedal ends not given: a gamepad trigger rests at 0, a joystick axis at its minimum. */
    grip_input_pedal *pedals[4] = {&tmp->throttle, &tmp->brake, &tmp->clutch, &tmp->handbrake};
    for (int i = 0; i < 4; ++i) {
      grip_input_axis *a = &pedals[i]->axis;
      if (!ps->released_set[i]) a->released = a->source.kind == GRIP_INPUT_PAD_AXIS ? 0.0 : -32768.0;
      if (!ps->pressed_set[i]) a->pressed = 32767.0;
      if (a->source.kind != GRIP_INPUT_NONE && a->released == a->pressed && !(i == 0 && tmp->combined_pedals)) {
        grip_load_error_set(err, name, a->source.line, "pressed", "equals released (%g): the pedal would never move",
                            a->released);
        break;
      }
    }
    if (!err->message[0]) {
      if (tmp->combined_pedals && tmp->throttle.axis.source.kind == GRIP_INPUT_NONE)
        grip_load_error_set(err, name, 0, "combined", "needs an axis in [throttle]");
      else result = 0;
    }
  }
  return grip_ini_end(result, out, tmp, sizeof *out, ps);
}

int grip_input_config_load(const char *path, grip_input_config *out, grip_load_error *err) {
  char *text = grip_read_file(path, 1 << 20, NULL, err);
  if (!text) return -1;
  int rc = grip_input_config_parse(text, path, out, err);
  free(text);
  return rc;
}

void grip_input_config_default(grip_input_config *cfg) {
  if (grip_input_config_parse(default_text, "(built-in input)", cfg, NULL) != 0) grip_input_config_empty(cfg);
}

void grip_input_source_text(const grip_input_source *src, char *text, int n) {
  static const char *const dirs[9] = {"", "up", "right", "", "down", "", "", "", "left"};
  switch (src->kind) {
  case GRIP_INPUT_NONE: snprintf(text, (size_t)n, "none"); break;
  case GRIP_INPUT_KEY: snprintf(text, (size_t)n, "key:%s", src->key); break;
  case GRIP_INPUT_PAD_AXIS: snprintf(text, (size_t)n, "pad:%s", grip_input_pad_axis_names[src->index]); break;
  case GRIP_INPUT_PAD_BUTTON: snprintf(text, (size_t)n, "pad:%s", grip_input_pad_button_names[src->index]); break;
  case GRIP_INPUT_JOY_AXIS: snprintf(text, (size_t)n, "joy:axis%d", src->index); break;
  case GRIP_INPUT_JOY_BUTTON: snprintf(text, (size_t)n, "joy:button%d", src->index); break;
  case GRIP_INPUT_JOY_HAT:
    snprintf(text, (size_t)n, "joy:hat%d.%s", src->index, src->direction > 0 && src->direction <= 8 ? dirs[src->direction] : "?");
    break;
  }
}
