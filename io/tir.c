/* .tir property file loader: see tir.h. */
#include "tir.h"

#include "read_file.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The key table, generated from the same list as the struct. */
typedef struct tir_key {
  const char *name;
  size_t offset;
  grip_mf_dimension dim;
} tir_key;

static const tir_key tir_keys[] = {
#define GRIP_MF_PARAM(name, def, dim, doc) {#name, offsetof(grip_mf_params, name), dim},
#include "grip/mf_params.def"
#undef GRIP_MF_PARAM
};
enum { TIR_KEY_COUNT = (int)(sizeof tir_keys / sizeof tir_keys[0]) };

#define TIR_MAX_BYTES (16u << 20)

/* SI factors of the units a [UNITS] section may name. */
typedef struct tir_unit {
  const char *name;
  double factor;
} tir_unit;

static const tir_unit length_units[] = {
    {"meter", 1.0},      {"metre", 1.0},       {"meters", 1.0}, {"metres", 1.0},
    {"m", 1.0},          {"millimeter", 1e-3}, {"mm", 1e-3},    {"centimeter", 1e-2},
    {"cm", 1e-2},        {"kilometer", 1e3},   {"km", 1e3},     {"inch", 0.0254},
    {"in", 0.0254},      {"foot", 0.3048},     {"ft", 0.3048},  {NULL, 0.0}};
static const tir_unit force_units[] = {
    {"newton", 1.0}, {"newtons", 1.0},         {"n", 1.0},
    {"kilonewton", 1e3}, {"kn", 1e3},          {"pound_force", 4.4482216152605},
    {"lbf", 4.4482216152605}, {"kgf", 9.80665}, {"kilogram_force", 9.80665},
    {NULL, 0.0}};
static const tir_unit mass_units[] = {
    {"kilogram", 1.0}, {"kilograms", 1.0}, {"kg", 1.0},     {"gram", 1e-3},
    {"g", 1e-3},       {"tonne", 1e3},     {"pound_mass", 0.45359237},
    {"lbm", 0.45359237}, {"slug", 14.5939029372}, {NULL, 0.0}};
static const tir_unit time_units[] = {
    {"second", 1.0}, {"seconds", 1.0}, {"sec", 1.0},  {"s", 1.0},       {"millisecond", 1e-3},
    {"ms", 1e-3},    {"minute", 60.0}, {"min", 60.0}, {"hour", 3600.0}, {NULL, 0.0}};
static const tir_unit angle_units[] = {
    {"radian", 1.0}, {"radians", 1.0}, {"rad", 1.0}, {NULL, 0.0}};
static const tir_unit pressure_units[] = {
    {"pascal", 1.0}, {"pa", 1.0},   {"kilopascal", 1e3}, {"kpa", 1e3}, {"megapascal", 1e6},
    {"mpa", 1e6},    {"bar", 1e5},  {"psi", 6894.757293168}, {NULL, 0.0}};

enum { TIR_UNIT_KEYS = 6 };

/* Parser state. */
typedef struct tir_parser {
  const char *name;
  grip_load_error *err;
  grip_mf_params params;
  int key_line[TIR_KEY_COUNT]; /* line where each key was set, 0 = default */
  int fittyp_line;
  int tyreside_line;
  double fittyp;
  int have_model;
  double f_length, f_force, f_mass, f_time, f_pressure;
  int have_pressure_unit;
  int unit_line[TIR_UNIT_KEYS]; /* line of each [UNITS] key, 0 = not given */
} tir_parser;

/* ASCII case-insensitive string equality. */
static int same_text(const char *a, const char *b) {
  for (; *a && *b; ++a, ++b)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

/* Trims [*b, *e) in place. */
static void trim(const char **b, const char **e) {
  while (*b < *e && is_space(**b)) ++*b;
  while (*e > *b && is_space((*e)[-1])) --*e;
}

/* Copies [b, e) into buf (size n), truncated, NUL-terminated. */
static void copy_text(char *buf, size_t n, const char *b, const char *e) {
  size_t len = (size_t)(e - b);
  if (len >= n) len = n - 1;
  memcpy(buf, b, len);
  buf[len] = '\0';
}

static int find_key(const char *key) {
  for (int i = 0; i < TIR_KEY_COUNT; ++i)
    if (strcmp(tir_keys[i].name, key) == 0) return i;
  return -1;
}

static double *key_slot(tir_parser *ps, int i) {
  return (double *)(void *)((char *)&ps->params + tir_keys[i].offset);
}

/* Parses a whole-token number. Returns 0 and *v on success. */
static int parse_number(const char *text, double *v, const char **why) {
  if (!*text) {
    *why = "missing value";
    return -1;
  }
  char *end = NULL;
  errno = 0;
  double x = strtod(text, &end);
  if (end == text || *end != '\0') {
    *why = "is not a number";
    return -1;
  }
  if (!isfinite(x) || errno == ERANGE) {
    *why = "is not a finite number";
    return -1;
  }
  *v = x;
  return 0;
}

static int set_unit(tir_parser *ps, int line, const char *key, const char *value) {
  static const char *const unit_keys[TIR_UNIT_KEYS] = {"LENGTH", "FORCE", "MASS",
                                                        "TIME",   "ANGLE", "PRESSURE"};
  for (int u = 0; u < TIR_UNIT_KEYS; ++u) {
    if (strcmp(key, unit_keys[u]) != 0) continue;
    if (ps->unit_line[u]) {
      grip_load_error_set(ps->err, ps->name, line, key, "given twice (first on line %d)",
                          ps->unit_line[u]);
      return -1;
    }
    ps->unit_line[u] = line;
  }
  const tir_unit *table = NULL;
  double *slot = NULL;
  const char *allowed = "";
  if (strcmp(key, "LENGTH") == 0) {
    table = length_units, slot = &ps->f_length, allowed = "meter, mm, cm, km, inch, foot";
  } else if (strcmp(key, "FORCE") == 0) {
    table = force_units, slot = &ps->f_force, allowed = "newton, kN, lbf, kgf";
  } else if (strcmp(key, "MASS") == 0) {
    table = mass_units, slot = &ps->f_mass, allowed = "kg, gram, tonne, lbm, slug";
  } else if (strcmp(key, "TIME") == 0) {
    table = time_units, slot = &ps->f_time, allowed = "second, millisecond, minute, hour";
  } else if (strcmp(key, "ANGLE") == 0) {
    table = angle_units, slot = NULL, allowed = "radian(s) only";
  } else if (strcmp(key, "PRESSURE") == 0) {
    table = pressure_units, slot = &ps->f_pressure, allowed = "pascal, kPa, MPa, bar, psi";
    ps->have_pressure_unit = 1;
  } else {
    return 0; /* another key in [UNITS]: ignored */
  }
  for (const tir_unit *u = table; u->name; ++u) {
    if (same_text(u->name, value)) {
      if (slot) *slot = u->factor;
      return 0;
    }
  }
  grip_load_error_set(ps->err, ps->name, line, key, "unknown unit '%s' (allowed: %s)", value,
                      allowed);
  return -1;
}

/* Handles one "KEY = value" line; [vb, ve) is the text after '='. */
static int handle_pair(tir_parser *ps, int line, const char *section, const char *key,
                       const char *vb, const char *ve) {
  /* Split the value from a trailing comment, honouring quotes. */
  char value[256];
  int quoted = 0;
  trim(&vb, &ve);
  if (vb < ve && (*vb == '\'' || *vb == '"')) {
    char q = *vb;
    const char *close = memchr(vb + 1, q, (size_t)(ve - vb - 1));
    if (!close) {
      grip_load_error_set(ps->err, ps->name, line, key, "unterminated quoted string");
      return -1;
    }
    copy_text(value, sizeof value, vb + 1, close);
    quoted = 1;
    vb = close + 1;
  } else {
    const char *t = vb;
    while (t < ve && !is_space(*t) && *t != '$' && *t != '!') ++t;
    copy_text(value, sizeof value, vb, t);
    vb = t;
  }
  while (vb < ve && is_space(*vb)) ++vb;
  if (vb < ve && *vb != '$' && *vb != '!') {
    char extra[48];
    copy_text(extra, sizeof extra, vb, ve);
    grip_load_error_set(ps->err, ps->name, line, key,
                        "unexpected text '%s' after the value (comments start with $ or !)", extra);
    return -1;
  }
  if (!quoted && value[0] == '\0') {
    grip_load_error_set(ps->err, ps->name, line, key, "missing value");
    return -1;
  }

  if (strcmp(section, "UNITS") == 0) return set_unit(ps, line, key, value);

  if (strcmp(key, "TYRESIDE") == 0) {
    if (ps->tyreside_line) {
      grip_load_error_set(ps->err, ps->name, line, key, "given twice (first on line %d)",
                          ps->tyreside_line);
      return -1;
    }
    ps->tyreside_line = line;
    ps->params.tyreside_right = same_text(value, "RIGHT");
    return 0;
  }
  const char *lookup = key;
  if (strcmp(key, "MASS") == 0) lookup = "MASS1"; /* [INERTIA] MASS; [UNITS] MASS is the unit */
  int idx = find_key(lookup);
  int is_fittyp = strcmp(key, "FITTYP") == 0;
  if (idx < 0 && !is_fittyp) return 0; /* unknown key: ignored */

  double v;
  const char *why = NULL;
  if (parse_number(value, &v, &why) != 0) {
    grip_load_error_set(ps->err, ps->name, line, key, "'%s' %s", value, why);
    return -1;
  }
  int first = is_fittyp ? ps->fittyp_line : ps->key_line[idx];
  if (first) {
    grip_load_error_set(ps->err, ps->name, line, key, "given twice (first on line %d)", first);
    return -1;
  }
  if (is_fittyp) {
    ps->fittyp = v;
    ps->fittyp_line = line;
    return 0;
  }
  *key_slot(ps, idx) = v;
  ps->key_line[idx] = line;
  return 0;
}

static double dim_factor(const tir_parser *ps, grip_mf_dimension dim) {
  double L = ps->f_length, F = ps->f_force, M = ps->f_mass, T = ps->f_time;
  double P = ps->have_pressure_unit ? ps->f_pressure : F / (L * L);
  switch (dim) {
    case GRIP_MF_DIM_NONE: return 1.0;
    case GRIP_MF_DIM_LENGTH: return L;
    case GRIP_MF_DIM_INV_LENGTH: return 1.0 / L;
    case GRIP_MF_DIM_INV_LENGTH2: return 1.0 / (L * L);
    case GRIP_MF_DIM_FORCE: return F;
    case GRIP_MF_DIM_FORCE_LENGTH: return F * L;
    case GRIP_MF_DIM_PRESSURE: return P;
    case GRIP_MF_DIM_SPEED: return L / T;
    case GRIP_MF_DIM_ACCEL: return L / (T * T);
    case GRIP_MF_DIM_STIFFNESS: return F / L;
    case GRIP_MF_DIM_DAMPING: return F * T / L;
    case GRIP_MF_DIM_MASS: return M;
    case GRIP_MF_DIM_INERTIA: return M * L * L;
    case GRIP_MF_DIM_TIME: return T;
    case GRIP_MF_DIM_FREQUENCY: return 1.0 / T;
    case GRIP_MF_DIM_ANGLE: return 1.0;
  }
  return 1.0;
}

static int check_range(tir_parser *ps, const char *lo_name, const char *hi_name) {
  int lo = find_key(lo_name), hi = find_key(hi_name);
  double a = *key_slot(ps, lo), b = *key_slot(ps, hi);
  if (a <= b) return 0;
  int line = ps->key_line[hi] ? ps->key_line[hi] : ps->key_line[lo];
  grip_load_error_set(ps->err, ps->name, line, hi_name, "%.9g is below %s = %.9g (need %s <= %s)",
                      b, lo_name, a, lo_name, hi_name);
  return -1;
}

/* Ranges of the parameters the Magic Formula divides by or scales with (SI units), wide enough
 * for every real tyre from a kart to a truck (docs/mf-tyre.md, "Limits"). */
#define TIR_MAX_MAGNITUDE 1e9
typedef struct tir_limit {
  const char *name;
  double lo, hi;
  int lo_open; /* lo itself excluded */
  const char *unit;
} tir_limit;

static const tir_limit tir_limits[] = {
    {"UNLOADED_RADIUS", 0.05, 3.0, 0, "m"},
    {"WIDTH", 0.01, 3.0, 0, "m"},
    {"RIM_RADIUS", 0.0, 3.0, 0, "m"},
    {"RIM_WIDTH", 0.0, 3.0, 0, "m"},
    {"ASPECT_RATIO", 0.0, 10.0, 0, ""},
    {"FNOMIN", 10.0, 1e6, 0, "N"},
    {"LONGVL", 0.1, 1000.0, 0, "m/s"},
    {"VXLOW", 0.0, 100.0, 0, "m/s"},
    {"NOMPRES", 1e3, 1e7, 0, "Pa"},
    {"INFLPRES", 1e3, 1e7, 0, "Pa"},
    {"PRESMIN", 0.0, 1e7, 0, "Pa"},
    {"PRESMAX", 0.0, 1e7, 0, "Pa"},
    {"VERTICAL_STIFFNESS", 1e3, 1e9, 0, "N/m"},
    {"VERTICAL_DAMPING", 0.0, 1e7, 0, "N*s/m"},
    {"FZMIN", 0.0, 1e7, 0, "N"},
    {"FZMAX", 0.0, 1e7, 1, "N"},
    {"KPUMIN", -10.0, 10.0, 0, ""},
    {"KPUMAX", -10.0, 10.0, 0, ""},
    {"ALPMIN", -1.5708, 1.5708, 0, "rad"},
    {"ALPMAX", -1.5708, 1.5708, 0, "rad"},
    {"CAMMIN", -1.5708, 1.5708, 0, "rad"},
    {"CAMMAX", -1.5708, 1.5708, 0, "rad"},
    {"LFZO", 0.0, 100.0, 1, ""},
    /* The rolling resistance moment scales with (Fz/FNOMIN)^QSY7 at the unsaturated load: a
     * negative exponent makes it grow without bound as the load falls to 0 (real files: ~0.9). */
    {"QSY7", 0.0, 10.0, 0, ""},
    {"QSY8", -10.0, 10.0, 0, ""}, /* (p/NOMPRES)^QSY8; real files ~-0.4 */
};

static int check_limit(tir_parser *ps, const tir_limit *l) {
  int i = find_key(l->name);
  double v = *key_slot(ps, i);
  if ((l->lo_open ? v > l->lo : v >= l->lo) && v <= l->hi) return 0;
  grip_load_error_set(ps->err, ps->name, ps->key_line[i], l->name,
                      "%.9g%s%s is out of range (allowed %s%g .. %g%s%s)%s", v, *l->unit ? " " : "",
                      l->unit, l->lo_open ? "> " : "", l->lo, l->hi, *l->unit ? " " : "", l->unit,
                      ps->key_line[i] ? "" : " (default)");
  return -1;
}

/* A tyre with no grip (or absurd grip) is refused: the peak friction coefficients at the
 * nominal load, zero slip and camber and the inflation pressure, (PDX1 + 0)·(pressure
 * terms)·LMUX and likewise PDY1·…·LMUY, must lie in TIR_MIN_MU .. TIR_MAX_MU. The formulas
 * divide by them (B = K/(C·D)), so zero grip gives NaN. */
#define TIR_MIN_MU 0.05
#define TIR_MAX_MU 10.0
static int check_grip(tir_parser *ps) {
  grip_mf_output o;
  grip_mf_evaluate_full(&ps->params, ps->params.FNOMIN, 0.0, 0.0, 0.0, ps->params.LONGVL, 0.0, &o);
  for (int axis = 0; axis < 2; ++axis) {
    double mu = axis == 0 ? o.mux : o.muy;
    if (mu >= TIR_MIN_MU && mu <= TIR_MAX_MU) continue;
    const char *coef = axis == 0 ? "PDX1" : "PDY1", *scale = axis == 0 ? "LMUX" : "LMUY";
    int ci = find_key(coef), si = find_key(scale);
    const char *key = ps->key_line[si] > ps->key_line[ci] ? scale : coef;
    int line = ps->key_line[si] > ps->key_line[ci] ? ps->key_line[si] : ps->key_line[ci];
    grip_load_error_set(ps->err, ps->name, line, key,
                        "the tyre's %s peak friction at FNOMIN is %.6g (%s times %s and the "
                        "pressure terms; allowed %g .. %g)",
                        axis == 0 ? "longitudinal" : "lateral", mu, coef, scale, TIR_MIN_MU,
                        TIR_MAX_MU);
    return -1;
  }
  return 0;
}

/* The slip stiffness's load factor exp(PKX3 · dfz) (4.E15) is the formulas' one exponential.
 * Over the loads the model sees, Fz = 0 .. FZMAX (it saturates there), dfz runs from -1 to
 * FZMAX / (LFZO · FNOMIN) - 1. Real files keep |PKX3| below ~1 and dfz within -1 .. 2, so the
 * exponent within ±2; beyond ~709 exp overflows, and inf times a zero slip is NaN. */
#define TIR_MAX_EXPONENT 10.0
static int check_load_exponent(tir_parser *ps) {
  const grip_mf_params *p = &ps->params;
  double dfz_max = p->FZMAX / (p->LFZO * p->FNOMIN) - 1.0;
  /* The exponent's extremes are at the ends of the load range. */
  double at_empty = -p->PKX3, at_full = p->PKX3 * dfz_max;
  double worst = fabs(at_empty) >= fabs(at_full) ? at_empty : at_full;
  if (fabs(worst) <= TIR_MAX_EXPONENT) return 0;
  int i = find_key("PKX3");
  grip_load_error_set(ps->err, ps->name, ps->key_line[i], "PKX3",
                      "%.9g makes the slip stiffness's load factor exp(PKX3 * dfz) reach exp(%.6g) "
                      "at Fz = %s (dfz runs -1 .. %.6g over Fz = 0 .. FZMAX; allowed |PKX3 * dfz| "
                      "<= %g)",
                      p->PKX3, worst, worst == at_empty ? "0" : "FZMAX", dfz_max, TIR_MAX_EXPONENT);
  return -1;
}

/* One operating point of the finiteness check. */
typedef struct tir_point {
  double fz, kappa, alpha, gamma, vx, pressure;
} tir_point;

static int finite_at(const grip_mf_params *p, const tir_point *q) {
  grip_mf_output o;
  grip_mf_evaluate_full(p, q->fz, q->kappa, q->alpha, q->gamma, q->vx, q->pressure, &o);
  return isfinite(o.fx) && isfinite(o.fy) && isfinite(o.mx) && isfinite(o.my) && isfinite(o.mz);
}

/* Looks for an operating point where p's forces or moments are not finite, over the ends and
 * middle of its operating range: loads 0, FZMIN, FNOMIN and FZMAX; the slip, camber and pressure
 * ranges' ends and 0 (INFLPRES for the pressure); near standstill and at LONGVL. Overflow
 * happens at the ends, and a 0/0 at a zero. 648 points, about 0.6 ms. Returns 1 and *at when it
 * finds one. */
static int find_non_finite(const grip_mf_params *p, tir_point *at) {
  const double loads[] = {0.0, p->FZMIN, p->FNOMIN, p->FZMAX};
  const double kappas[] = {p->KPUMIN, 0.0, p->KPUMAX};
  const double alphas[] = {p->ALPMIN, 0.0, p->ALPMAX};
  const double gammas[] = {p->CAMMIN, 0.0, p->CAMMAX};
  const double speeds[] = {0.5 * p->VXLOW, p->LONGVL};
  const double pressures[] = {p->PRESMIN, 0.0, p->PRESMAX};
#define TIR_COUNT(a) ((int)(sizeof a / sizeof a[0]))
  enum { AXES = 6 };
  const double *axis[AXES] = {loads, kappas, alphas, gammas, speeds, pressures};
  const int size[AXES] = {TIR_COUNT(loads),  TIR_COUNT(kappas), TIR_COUNT(alphas),
                          TIR_COUNT(gammas), TIR_COUNT(speeds), TIR_COUNT(pressures)};
#undef TIR_COUNT
  int points = 1;
  for (int a = 0; a < AXES; ++a) points *= size[a];
  /* Point k's digits in the mixed radix of the sizes, the last axis the fastest. */
  for (int k = 0; k < points; ++k) {
    double v[AXES];
    for (int a = AXES - 1, rest = k; a >= 0; rest /= size[a], --a) v[a] = axis[a][rest % size[a]];
    *at = (tir_point){v[0], v[1], v[2], v[3], v[4], v[5]};
    if (!finite_at(p, at)) return 1;
  }
  return 0;
}

/* The last line of defence: the ranges above bound each coefficient, not every combination (a
 * load-stiffness denominator PKY2 + PKY5·γ² of 0 is NaN at zero load, say), so a file whose
 * forces or moments are not finite somewhere in its operating range is refused. The error names,
 * of the keys the file set whose default alone makes that point finite, the one set last (as
 * check_grip does). */
static int check_finite(tir_parser *ps) {
  const grip_mf_params *p = &ps->params;
  tir_point q;
  if (!find_non_finite(p, &q)) return 0;
  grip_mf_params trial, defaults;
  grip_mf_default_params(&defaults);
  int culprit = -1;
  for (int i = 0; i < TIR_KEY_COUNT; ++i) {
    if (!ps->key_line[i] || (culprit >= 0 && ps->key_line[i] < ps->key_line[culprit])) continue;
    trial = *p;
    size_t at = tir_keys[i].offset;
    memcpy((char *)&trial + at, (const char *)&defaults + at, sizeof(double));
    if (finite_at(&trial, &q)) culprit = i;
  }
  grip_load_error_set(ps->err, ps->name, culprit < 0 ? 0 : ps->key_line[culprit],
                      culprit < 0 ? NULL : tir_keys[culprit].name,
                      "the Magic Formula's forces or moments are not finite at Fz = %.6g N, "
                      "kappa = %.6g, alpha = %.6g rad, gamma = %.6g rad, vx = %.6g m/s, "
                      "pressure = %.6g Pa%s",
                      q.fz, q.kappa, q.alpha, q.gamma, q.vx,
                      q.pressure != 0.0 ? q.pressure : p->INFLPRES,
                      culprit < 0 ? " (no single coefficient's default mends it)"
                                  : " (its default would mend it)");
  return -1;
}

static int finish(tir_parser *ps) {
  if (!ps->have_model) {
    grip_load_error_set(ps->err, ps->name, 0, "[MODEL]", "section missing (it holds FITTYP)");
    return -1;
  }
  grip_mf_params *p = &ps->params;
  if (ps->fittyp_line == 0) {
    p->version = GRIP_MF_52; /* PAC2002 files carry no FITTYP */
    p->fittyp = 0;
  } else {
    /* Compared as doubles: converting an arbitrary double to int is undefined behaviour. */
    double v = ps->fittyp;
    if (!(v == 6.0 || v == 21.0 || v == 61.0 || v == 62.0)) {
      grip_load_error_set(ps->err, ps->name, ps->fittyp_line, "FITTYP",
                          "unsupported Magic Formula version %.9g (allowed 6 or 21 = MF 5.2, "
                          "61 = MF 6.1, 62 = MF 6.2)",
                          ps->fittyp);
      return -1;
    }
    int f = (int)v;
    p->fittyp = f;
    p->version = f == 61 ? GRIP_MF_61 : f == 62 ? GRIP_MF_62 : GRIP_MF_52;
  }
  /* Convert what the file gave to SI; defaults are SI already. */
  for (int i = 0; i < TIR_KEY_COUNT; ++i)
    if (ps->key_line[i]) *key_slot(ps, i) *= dim_factor(ps, tir_keys[i].dim);

  /* Every coefficient, in SI: a magnitude beyond 1e9 is no tyre's (the largest in real files
   * are stiffnesses of a few 1e6 N/m) and lets the formulas overflow. */
  for (int i = 0; i < TIR_KEY_COUNT; ++i) {
    double v = *key_slot(ps, i);
    if (!(fabs(v) <= TIR_MAX_MAGNITUDE)) {
      grip_load_error_set(ps->err, ps->name, ps->key_line[i], tir_keys[i].name,
                          "%.9g is out of range (allowed -%g .. %g in SI units)", v,
                          TIR_MAX_MAGNITUDE, TIR_MAX_MAGNITUDE);
      return -1;
    }
  }
  for (size_t i = 0; i < sizeof tir_limits / sizeof tir_limits[0]; ++i)
    if (check_limit(ps, &tir_limits[i])) return -1;
  if (check_grip(ps)) return -1;
  if (check_range(ps, "FZMIN", "FZMAX") || check_range(ps, "KPUMIN", "KPUMAX") ||
      check_range(ps, "ALPMIN", "ALPMAX") || check_range(ps, "CAMMIN", "CAMMAX") ||
      check_range(ps, "PRESMIN", "PRESMAX"))
    return -1;
  if (check_load_exponent(ps) || check_finite(ps)) return -1;
  return 0;
}

int grip_tir_parse(const char *text, size_t len, const char *name, grip_mf_params *out,
                   grip_load_error *err) {
  tir_parser *ps = calloc(1, sizeof *ps);
  if (!ps) {
    grip_load_error_set(err, name, 0, NULL, "out of memory");
    return -1;
  }
  ps->name = name ? name : "?";
  ps->err = err;
  grip_mf_default_params(&ps->params);
  ps->f_length = ps->f_force = ps->f_mass = ps->f_time = ps->f_pressure = 1.0;

  char section[64] = "";
  int in_shape = 0, in_table = 0, rc = 0, line = 0;
  const char *pos = text, *end = text + len;
  while (pos < end && rc == 0) {
    ++line;
    const char *nl = memchr(pos, '\n', (size_t)(end - pos));
    const char *b = pos, *e = nl ? nl : end;
    pos = nl ? nl + 1 : end;
    if (memchr(b, '\0', (size_t)(e - b))) {
      grip_load_error_set(err, ps->name, line, NULL, "NUL byte: not a text file");
      rc = -1;
      break;
    }
    trim(&b, &e);
    if (b == e || *b == '$' || *b == '!') continue;
    if (*b == '[') {
      const char *close = memchr(b, ']', (size_t)(e - b));
      if (!close) {
        grip_load_error_set(err, ps->name, line, NULL, "unterminated section header (missing ']')");
        rc = -1;
        break;
      }
      const char *sb = b + 1, *se = close;
      trim(&sb, &se);
      copy_text(section, sizeof section, sb, se);
      for (char *c = section; *c; ++c) *c = (char)toupper((unsigned char)*c);
      const char *rest = close + 1;
      while (rest < e && is_space(*rest)) ++rest;
      if (rest < e && *rest != '$' && *rest != '!') {
        grip_load_error_set(err, ps->name, line, NULL, "unexpected text after section header [%s]",
                            section);
        rc = -1;
        break;
      }
      in_shape = strcmp(section, "SHAPE") == 0;
      in_table = 0;
      if (strcmp(section, "MODEL") == 0) ps->have_model = 1;
      continue;
    }
    if (in_shape) continue; /* obsolete geometry table of MF 5.2 files */
    if (*b == '{') {
      in_table = 1; /* "{col col}" header: numeric rows follow */
      continue;
    }
    const char *eq = memchr(b, '=', (size_t)(e - b));
    if (!eq) {
      if (in_table) continue;
      char shown[48];
      copy_text(shown, sizeof shown, b, e);
      grip_load_error_set(err, ps->name, line, NULL, "'%s': expected KEY = VALUE", shown);
      rc = -1;
      break;
    }
    const char *kb = b, *ke = eq;
    trim(&kb, &ke);
    char key[64];
    if (kb == ke || (size_t)(ke - kb) >= sizeof key) {
      grip_load_error_set(err, ps->name, line, NULL,
                          kb == ke ? "missing key before '='" : "key too long");
      rc = -1;
      break;
    }
    copy_text(key, sizeof key, kb, ke);
    for (const char *c = key; *c; ++c) {
      if (!(isalnum((unsigned char)*c) || *c == '_')) {
        grip_load_error_set(err, ps->name, line, NULL,
                            "'%s': bad key (letters, digits and '_' only)", key);
        rc = -1;
        break;
      }
    }
    if (rc) break;
    for (char *c = key; *c; ++c) *c = (char)toupper((unsigned char)*c);
    if (section[0] == '\0') {
      grip_load_error_set(err, ps->name, line, key, "key before any [SECTION] header");
      rc = -1;
      break;
    }
    rc = handle_pair(ps, line, section, key, eq + 1, e);
  }
  if (rc == 0) rc = finish(ps);
  if (rc == 0) *out = ps->params;
  free(ps);
  return rc;
}

int grip_tir_load(const char *path, grip_mf_params *out, grip_load_error *err) {
  size_t len = 0;
  char *buf = grip_read_file(path, TIR_MAX_BYTES, &len, err);
  if (!buf) return -1;
  int rc = grip_tir_parse(buf, len, path, out, err);
  free(buf);
  return rc;
}
