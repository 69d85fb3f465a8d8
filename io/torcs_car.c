/* TORCS car import: see torcs_car.h; the mapping is documented in docs/car-format.md. */
#define _XOPEN_SOURCE 700
#include "torcs_car.h"

#include "read_file.h"

#include <ctype.h>
#include <errno.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PI_ 3.14159265358979323846

/* One attribute, flattened: section path "Front Right Wheel" or "Engine/data points/3". */
typedef struct tattr {
  char sect[128];
  char name[64];
  char val[128];
  char unit[32];
  int is_num;
  int line;
  const char *file;
} tattr;

typedef struct tparams {
  tattr *a;
  int n, cap;
  grip_load_error *err;
} tparams;

static int same_text(const char *a, const char *b) {
  for (; *a && *b; ++a, ++b)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

static void copy_text(char *dst, size_t n, const char *src) {
  size_t k = strlen(src);
  if (k >= n) k = n - 1;
  memcpy(dst, src, k);
  dst[k] = '\0';
}

static tattr *find_attr(tparams *p, const char *sect, const char *name) {
  for (int i = 0; i < p->n; ++i)
    if (same_text(p->a[i].sect, sect) && same_text(p->a[i].name, name)) return &p->a[i];
  return NULL;
}

/* Adds or overrides one attribute. */
static int put_attr(tparams *p, const tattr *t) {
  tattr *old = find_attr(p, t->sect, t->name);
  if (old) {
    *old = *t;
    return 0;
  }
  if (p->n == p->cap) {
    int cap = p->cap ? 2 * p->cap : 256;
    tattr *bigger = realloc(p->a, (size_t)cap * sizeof *bigger);
    if (!bigger) return -1;
    p->a = bigger;
    p->cap = cap;
  }
  p->a[p->n++] = *t;
  return 0;
}

static void walk(tparams *p, xmlNode *node, const char *path, const char *file, int *failed) {
  for (xmlNode *c = node; c && !*failed; c = c->next) {
    if (c->type != XML_ELEMENT_NODE) continue;
    const char *tag = (const char *)c->name;
    if (strcmp(tag, "section") == 0) {
      xmlChar *nm = xmlGetProp(c, (const xmlChar *)"name");
      char sub[128];
      if (path[0]) snprintf(sub, sizeof sub, "%s/%s", path, nm ? (const char *)nm : "");
      else snprintf(sub, sizeof sub, "%s", nm ? (const char *)nm : "");
      xmlFree(nm);
      walk(p, c->children, sub, file, failed);
    } else if (strcmp(tag, "attnum") == 0 || strcmp(tag, "attstr") == 0) {
      tattr t;
      memset(&t, 0, sizeof t);
      copy_text(t.sect, sizeof t.sect, path);
      xmlChar *nm = xmlGetProp(c, (const xmlChar *)"name");
      xmlChar *val = xmlGetProp(c, (const xmlChar *)"val");
      xmlChar *unit = xmlGetProp(c, (const xmlChar *)"unit");
      copy_text(t.name, sizeof t.name, nm ? (const char *)nm : "");
      copy_text(t.val, sizeof t.val, val ? (const char *)val : "");
      copy_text(t.unit, sizeof t.unit, unit ? (const char *)unit : "");
      xmlFree(nm);
      xmlFree(val);
      xmlFree(unit);
      t.is_num = tag[3] == 'n';
      t.line = (int)xmlGetLineNo(c);
      t.file = file;
      if (put_attr(p, &t)) {
        grip_load_error_set(p->err, file, 0, NULL, "out of memory");
        *failed = 1;
      }
    } else {
      walk(p, c->children, path, file, failed);
    }
  }
}

/* libxml2's messages, collected instead of printed: the first external entity that failed to
 * load (a missing included file: TORCS refuses such a car, and so do we). A missing DTD is not
 * an error (TORCS's files name one that is not installed). */
typedef struct xml_io_failure {
  char message[256];
  int line;
  int failed;
} xml_io_failure;

static void collect_io_failure(void *context, xmlErrorPtr e) {
  xml_io_failure *c = context;
  if (!e || c->failed || !(e->domain == XML_FROM_IO || e->code == XML_IO_LOAD_ERROR)) return;
  const char *m = e->message ? e->message : "I/O error";
  if (strstr(m, ".dtd\"")) return;
  copy_text(c->message, sizeof c->message, m);
  size_t n = strlen(c->message);
  while (n && (c->message[n - 1] == '\n' || c->message[n - 1] == ' ')) c->message[--n] = '\0';
  c->line = e->line;
  c->failed = 1;
}

/* Reads one TORCS XML file on top of p (entities resolved). */
static int read_xml(tparams *p, const char *file) {
  if (grip_is_directory(file, p->err)) return -1;
  FILE *probe = fopen(file, "rb");
  if (!probe) {
    grip_load_error_set(p->err, file, 0, NULL, "cannot open: %s", strerror(errno));
    return -1;
  }
  fclose(probe);
  xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
  if (!ctxt) {
    grip_load_error_set(p->err, file, 0, NULL, "out of memory");
    return -1;
  }
  xml_io_failure io = {.failed = 0};
  xmlStructuredErrorFunc old_handler = xmlStructuredError;
  void *old_context = xmlStructuredErrorContext;
  xmlSetStructuredErrorFunc(&io, collect_io_failure);
  xmlDocPtr doc = xmlCtxtReadFile(ctxt, file, NULL,
                                  XML_PARSE_NOENT | XML_PARSE_DTDLOAD | XML_PARSE_NONET | XML_PARSE_NOERROR |
                                      XML_PARSE_NOWARNING);
  xmlSetStructuredErrorFunc(old_context, old_handler);
  if (doc && io.failed) {
    grip_load_error_set(p->err, file, io.line, NULL, "XML: %s", io.message);
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(ctxt);
    return -1;
  }
  if (!doc) {
    const xmlError *e = xmlCtxtGetLastError(ctxt);
    char msg[256];
    copy_text(msg, sizeof msg, e && e->message ? e->message : "cannot read");
    size_t n = strlen(msg);
    while (n && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) msg[--n] = '\0';
    grip_load_error_set(p->err, file, e ? e->line : 0, NULL, "XML: %s", msg);
    xmlFreeParserCtxt(ctxt);
    return -1;
  }
  int failed = 0;
  xmlNode *root = xmlDocGetRootElement(doc);
  if (!root || strcmp((const char *)root->name, "params") != 0) {
    grip_load_error_set(p->err, file, root ? (int)xmlGetLineNo(root) : 0, NULL, "not a TORCS params file");
    failed = 1;
  } else {
    walk(p, root->children, "", file, &failed);
  }
  xmlFreeDoc(doc);
  xmlFreeParserCtxt(ctxt);
  return failed ? -1 : 0;
}

/* --- units ----------------------------------------------------------------------------------- */

/* SI factor of one unit token ("m", "lbs", "cm2", …); rpm and litres are kept as they are. */
static int unit_token(const char *tok, double *f) {
  static const struct {
    const char *name;
    double factor;
  } units[] = {
      {"m", 1.0},        {"mm", 1e-3},       {"cm", 1e-2},        {"km", 1e3},       {"in", 0.0254},
      {"ft", 0.3048},    {"kg", 1.0},        {"g", 1e-3},         {"lbs", 0.45359237}, {"lb", 0.45359237},
      {"s", 1.0},        {"ms", 1e-3},       {"min", 60.0},       {"h", 3600.0},     {"deg", PI_ / 180.0},
      {"rad", 1.0},      {"rpm", 1.0},       {"N", 1.0},          {"kN", 1e3},       {"Pa", 1.0},
      {"kPa", 1e3},      {"MPa", 1e6},       {"bar", 1e5},        {"psi", 6894.757293168},
      {"l", 1.0},        {"%", 0.01},        {"W", 1.0},          {"kW", 1e3},
  };
  char base[16];
  size_t n = strlen(tok);
  int power = 1;
  if (n > 1 && (tok[n - 1] == '2' || tok[n - 1] == '3')) {
    power = tok[n - 1] - '0';
    --n;
  }
  if (n == 0 || n >= sizeof base) return -1;
  memcpy(base, tok, n);
  base[n] = '\0';
  for (size_t i = 0; i < sizeof units / sizeof units[0]; ++i)
    if (strcmp(units[i].name, base) == 0) {
      *f = pow(units[i].factor, power);
      return 0;
    }
  return -1;
}

/* Factor of a compound unit such as "lbs/in/s", "kg.m2", "N.m" (TORCS's notation). */
static int unit_factor(const char *unit, double *factor) {
  *factor = 1.0;
  if (!unit[0]) return 0;
  char tok[16];
  int divide = 0;
  const char *p = unit;
  while (*p) {
    size_t n = strcspn(p, "./");
    if (n == 0 || n >= sizeof tok) return -1;
    memcpy(tok, p, n);
    tok[n] = '\0';
    double f;
    if (unit_token(tok, &f)) return -1;
    *factor = divide ? *factor / f : *factor * f;
    p += n;
    if (*p == '/') divide = 1, ++p;
    else if (*p == '.') divide = 0, ++p;
  }
  return 0;
}

/* The attribute's value in SI (rpm stays rpm, litres stay litres); def when absent.
 * Returns 0, or -1 with the error set. */
static int num(tparams *p, const char *sect, const char *name, double def, double *out) {
  tattr *t = find_attr(p, sect, name);
  if (!t) {
    *out = def;
    return 0;
  }
  char *end = NULL;
  errno = 0;
  double v = strtod(t->val, &end);
  while (end && (*end == ' ' || *end == '\t')) ++end;
  char key[200];
  snprintf(key, sizeof key, "%s/%s", t->sect, t->name);
  if (end == t->val || *end || errno == ERANGE || !isfinite(v)) {
    grip_load_error_set(p->err, t->file, t->line, key, "'%s' is not a number", t->val);
    return -1;
  }
  double f;
  if (unit_factor(t->unit, &f)) {
    grip_load_error_set(p->err, t->file, t->line, key, "unknown unit '%s'", t->unit);
    return -1;
  }
  *out = v * f;
  return 0;
}

static const char *str(tparams *p, const char *sect, const char *name, const char *def) {
  tattr *t = find_attr(p, sect, name);
  return t ? t->val : def;
}

static int has_section(tparams *p, const char *sect) {
  for (int i = 0; i < p->n; ++i)
    if (same_text(p->a[i].sect, sect)) return 1;
  return 0;
}

/* --- mapping --------------------------------------------------------------------------------- */

#define TORCS_AIR_DENSITY 1.29      /* kg/m³: TORCS's 0.645 = ½ρ in its drag */
#define TORCS_WING_AIR_DENSITY 1.23 /* kg/m³: the density in TORCS's wing model */
#define TORCS_GRAVITY 9.80665         /* m/s²: TORCS's G, which sets its static wheel loads */
#define TORCS_FUEL_CHARGE 0.75        /* share of the combustion torque simuv2 charges as fuel (engine.cpp) */
/* simuv2 multiplies each tyre's Magic-Formula force by 1 + s·k, s = min(|slip|, 1.5) (wheel.cpp),
 * with k the skid factor of the driver's skill level (categories.cpp: rookie 0.40, amateur 0.35,
 * semi-pro 0.30, pro 0). A robot whose description names no level races at semi-pro
 * (raceinit.cpp), as bt, berniw, inferno and olethros do: their car1-trb1 has k = 0.3. */
#define TORCS_ROBOT_SKID_FACTOR 0.3

#define NUM(sect, name, def, out)                   \
  do {                                              \
    if (num(p, sect, name, def, out)) return -1;    \
  } while (0)

static int map_diff(tparams *p, const char *sect, grip_diff_def *d, double *ratio) {
  const char *type = str(p, sect, "type", NULL);
  if (type) {
    if (same_text(type, "SPOOL")) d->type = GRIP_DIFF_LOCKED;
    else if (same_text(type, "FREE")) d->type = GRIP_DIFF_OPEN;
    else if (same_text(type, "LIMITED SLIP")) d->type = GRIP_DIFF_LIMITED_SLIP;
    else if (same_text(type, "VISCOUS COUPLER")) d->type = GRIP_DIFF_VISCOUS;
    else if (same_text(type, "NONE")) d->type = GRIP_DIFF_OPEN;
    else {
      tattr *t = find_attr(p, sect, "type");
      char key[200];
      snprintf(key, sizeof key, "%s/type", sect);
      grip_load_error_set(p->err, t->file, t->line, key,
                          "'%s' is not SPOOL, FREE, LIMITED SLIP or VISCOUS COUPLER", type);
      return -1;
    }
  }
  NUM(sect, "ratio", *ratio, ratio);
  double eff; /* range-checked; simuv2 applies it to inertia only (map_car) */
  NUM(sect, "efficiency", 1.0, &eff);
  double lo, hi;
  NUM(sect, "min torque bias", NAN, &lo);
  NUM(sect, "max torque bias", NAN, &hi);
  if (isfinite(lo) && isfinite(hi) && lo >= 0 && hi > 0 && hi >= lo) d->locking_coefficient = (hi - lo) / (hi + lo);
  d->front_split = 0.5;
  return 0;
}

static const char *const wheel_sect[4] = {"Front Left Wheel", "Front Right Wheel", "Rear Left Wheel", "Rear Right Wheel"};
static const char *const susp_sect[4] = {"Front Left Suspension", "Front Right Suspension", "Rear Left Suspension",
                                         "Rear Right Suspension"};
static const char *const brake_sect[4] = {"Front Left Brake", "Front Right Brake", "Rear Left Brake", "Rear Right Brake"};

/* What TORCS's tyre friction depends on, per axle (mean of its two wheels). */
typedef struct tyre_raw {
  double mu;          /* TORCS "mu" */
  double camber;      /* rad, static camber (negative: top inwards) */
  double lf_min, lf_max; /* load factor bounds */
  double op_load;     /* N, "operating load"; NaN when not given (TORCS: 1.2 × static load) */
  double ride_height; /* m */
  bool have;          /* the axle's wheel sections exist */
} tyre_raw;

/* TORCS's friction of a tyre at load fz: mu·lf(fz)·(1 + 0.05·sin(−18·camber)) with the load
 * factor lf(fz) = lf_min + (lf_max − lf_min)·exp(k·fz/op_load), k = ln((1 − lf_min)/(lf_max −
 * lf_min)): lf is lf_max at no load, 1 at the operating load and tends to lf_min (TORCS clamps
 * lf_min ≤ 0.8 and lf_max ≥ 1.6). grip's simple tyre has a linear load sensitivity; the line
 * through lf(op_load) = 1 and lf(2·op_load) matches it over the loads a car sees at speed (at
 * 0.8× the operating load, the static load, it is 2.6 % low with TORCS's defaults). */
static void map_tyre_friction(const tyre_raw *raw, double static_load, grip_simple_mf_def *t) {
  double lf_min = fmin(0.8, raw->lf_min), lf_max = fmax(1.6, raw->lf_max);
  double op = isfinite(raw->op_load) && raw->op_load > 0 ? raw->op_load : 1.2 * static_load;
  double k = log((1.0 - lf_min) / (lf_max - lf_min));
  double lf2 = lf_min + (lf_max - lf_min) * exp(2.0 * k);
  double camber_factor = 1.0 + 0.05 * sin(-18.0 * raw->camber);
  double mu = raw->mu * camber_factor;
  t->longitudinal.mu = mu;
  t->lateral.mu = mu;
  t->nominal_load = op;
  t->load_sensitivity = 1.0 - lf2;
}

static int map_car(tparams *p, grip_car *car) {
  grip_vehicle_def *d = &car->def;

  /* Axles and wheels. */
  const char *axle_sect[2] = {"Front Axle", "Rear Axle"};
  double axle_inertia[2];
  tyre_raw tyres[2];
  memset(tyres, 0, sizeof tyres);
  for (int a = 0; a < 2; ++a) {
    grip_axle_def *ax = &d->axles[a];
    NUM(axle_sect[a], "xpos", ax->x, &ax->x);
    NUM(axle_sect[a], "inertia", 0.0, &axle_inertia[a]);
    double ht = 0, radius = 0, width = 0, inertia = 0, mu = 0, stiff = 0, dyn = 0, elast = 0, rr = 0;
    tyre_raw *raw = &tyres[a];
    int have_wheels = has_section(p, wheel_sect[2 * a]) || has_section(p, wheel_sect[2 * a + 1]);
    for (int s = 0; s < 2; ++s) {
      const char *w = wheel_sect[2 * a + s];
      double y, rim, tw, ratio, in, m, st, df, ef, r, camber, lf_min, lf_max, op_load, ride;
      NUM(w, "ypos", (s == 0 ? 1 : -1) * ax->half_track, &y);
      NUM(w, "rim diameter", 2.0 * (ax->wheel_radius - 0.5 * ax->wheel_width), &rim);
      NUM(w, "tire width", ax->wheel_width, &tw);
      NUM(w, "tire height-width ratio", 0.5, &ratio);
      NUM(w, "inertia", ax->wheel_inertia, &in);
      NUM(w, "mu", ax->tyre.simple.lateral.mu, &m);
      NUM(w, "stiffness", 30.0, &st);
      NUM(w, "dynamic friction", 0.8, &df);
      NUM(w, "elasticity factor", 0.7, &ef);
      NUM(w, "rolling resistance", ax->tyre.rolling_resistance * 0.012, &r);
      NUM(w, "camber", 0.0, &camber);
      NUM(w, "load factor min", 0.8, &lf_min);
      NUM(w, "load factor max", 1.6, &lf_max);
      NUM(w, "operating load", NAN, &op_load);
      NUM(w, "ride height", 0.2, &ride);
      raw->camber += 0.5 * camber;
      raw->lf_min += 0.5 * lf_min;
      raw->lf_max += 0.5 * lf_max;
      raw->op_load += 0.5 * op_load;
      raw->ride_height += 0.5 * ride;
      ht += 0.5 * fabs(y);
      radius += 0.5 * (0.5 * rim + tw * ratio);
      width += 0.5 * tw;
      inertia += 0.5 * in;
      mu += 0.5 * m;
      stiff += 0.5 * st;
      dyn += 0.5 * df;
      elast += 0.5 * ef;
      rr += 0.5 * r;
    }
    if (!have_wheels) continue;
    raw->have = true;
    ax->half_track = ht;
    ax->wheel_radius = radius;
    ax->wheel_width = width;
    ax->wheel_inertia = inertia;
    /* TORCS's tyre: F/(mu·Fz) = sin(C·atan(B·s·(1−E) + E·atan(B·s))), C = 2 − asin(dynamic
     * friction)·2/π, B = stiffness / C, E = elasticity factor — the simple Magic Formula with the
     * same B, C, E, times 1 + s·TORCS_ROBOT_SKID_FACTOR (the slide gain). Its friction (load
     * sensitivity, camber) is set once the loads are known. */
    if (dyn > 1.0) dyn = 1.0;
    if (dyn < 0.1) dyn = 0.1;
    if (elast > 1.0) elast = 1.0;
    double c = 2.0 - asin(dyn) * 2.0 / PI_;
    raw->mu = mu;
    grip_simple_mf_curve curve = {.b = stiff / c, .c = c, .mu = mu, .e = elast, .slide_gain = TORCS_ROBOT_SKID_FACTOR};
    ax->tyre.simple.longitudinal = curve;
    ax->tyre.simple.lateral = curve;
    ax->tyre.rolling_resistance = rr / 0.012;
  }

  /* Suspension: wheel rate = spring·bellcrank², wheel travel = course/bellcrank. */
  const char *arb_sect[2] = {"Front Anti-Roll Bar", "Rear Anti-Roll Bar"};
  for (int a = 0; a < 2; ++a) {
    grip_suspension_def *s = &d->axles[a].suspension;
    if (!has_section(p, susp_sect[2 * a]) && !has_section(p, susp_sect[2 * a + 1])) continue;
    double k = 0, bump = 0, reb = 0, bump_t = 0, droop_t = 0;
    for (int side = 0; side < 2; ++side) {
      const char *ss = susp_sect[2 * a + side];
      double spring, course, bell, packers, sb, sr;
      NUM(ss, "spring", s->spring_rate, &spring);
      NUM(ss, "suspension course", s->bump_travel + s->droop_travel, &course);
      NUM(ss, "bellcrank", 1.0, &bell);
      NUM(ss, "packers", 0.0, &packers);
      NUM(ss, "slow bump", s->bump_damping, &sb);
      NUM(ss, "slow rebound", s->rebound_damping, &sr);
      if (!(bell > 0)) bell = 1.0;
      k += 0.5 * spring * bell * bell;
      bump += 0.5 * sb * bell * bell;
      reb += 0.5 * sr * bell * bell;
      double travel = course / bell;
      bump_t += 0.5 * fmax(0.005, 0.5 * travel - packers / bell);
      droop_t += 0.5 * fmax(0.005, 0.5 * travel);
    }
    s->spring_rate = k;
    s->bump_damping = bump;
    s->rebound_damping = reb;
    s->bump_travel = bump_t;
    s->droop_travel = droop_t;
    s->bump_stop_rate = 10.0 * k;
    double arb;
    NUM(arb_sect[a], "spring", s->anti_roll_rate, &arb);
    double arb_bell;
    NUM(arb_sect[a], "bellcrank", 1.0, &arb_bell);
    s->anti_roll_rate = arb * arb_bell * arb_bell;
  }
  for (int a = 0; a < 2; ++a) d->axles[a].wheel_inertia += 0.5 * axle_inertia[a];

  /* Car: mass, CG, inertia, fuel. */
  double L = d->axles[0].x - d->axles[1].x;
  double mass, gch, fr, frl, rrl, k, tank, fuel;
  NUM("Car", "mass", d->body.mass, &mass);
  NUM("Car", "GC height", d->body.center_of_mass.z, &gch);
  NUM("Car", "front-rear weight repartition", (d->body.center_of_mass.x - d->axles[1].x) / L, &fr);
  NUM("Car", "front right-left weight repartition", 0.5, &frl);
  NUM("Car", "rear right-left weight repartition", 0.5, &rrl);
  NUM("Car", "mass repartition coefficient", 1.0, &k);
  NUM("Car", "fuel tank", d->fuel.capacity, &tank);
  NUM("Car", "initial fuel", d->fuel.mass, &fuel);
  double len, wid, hei;
  NUM("Car", "body length", d->body.dimensions.x, &len);
  NUM("Car", "body width", d->body.dimensions.y, &wid);
  NUM("Car", "body height", d->body.dimensions.z, &hei);
  d->body.mass = mass;
  d->body.center_of_mass.x = d->axles[1].x + fr * L;
  /* Right share r of an axle's load puts the CG at y = half_track·(1 − 2r) (y is left). */
  d->body.center_of_mass.y = 0.5 * (d->axles[0].half_track * (1.0 - 2.0 * frl) + d->axles[1].half_track * (1.0 - 2.0 * rrl));
  d->body.center_of_mass.z = gch;
  d->body.dimensions = (grip_vec3){len, wid, hei};
  d->body.box_center = (grip_vec3){0.0, 0.0, 0.5 * hei};
  /* Uniform box of the body's dimensions, scaled by k² (TORCS: lower = mass more centred). */
  d->body.inertia = (grip_vec3){k * k * mass * (wid * wid + hei * hei) / 12.0,
                                k * k * mass * (len * len + hei * hei) / 12.0,
                                k * k * mass * (len * len + wid * wid) / 12.0};
  /* TORCS counts fuel in litres and adds them to the mass as kilograms. */
  d->fuel.capacity = tank;
  d->fuel.mass = fuel < tank ? fuel : tank;
  d->fuel.position = d->body.center_of_mass;
  /* Tyre friction at TORCS's static wheel loads (the car's mass without fuel, as TORCS). */
  for (int a = 0; a < 2; ++a)
    if (tyres[a].have) map_tyre_friction(&tyres[a], 0.5 * mass * TORCS_GRAVITY * (a == 0 ? fr : 1.0 - fr), &d->axles[a].tyre.simple);

  /* Aerodynamics. TORCS's drag is 0.645·Cx·A·v² (½ρ with ρ = 1.29, as grip's). Its body lift
   * is Clift·v²·hm per axle, with no area and no ½ρ, and the ground effect hm =
   * 2·exp(−3·(1.5·Σh)⁴) of the four wheels' ride heights h: in grip's terms CL = −Clift/(½ρA)
   * with ground_effect_gain 2 and ground_effect_height 1/(6·3^¼) m = 0.1266 m (Σh = 4·mean). */
  NUM("Aerodynamics", "Cx", d->aero.drag_coefficient, &d->aero.drag_coefficient);
  NUM("Aerodynamics", "front area", d->aero.frontal_area, &d->aero.frontal_area);
  double clf, clr;
  NUM("Aerodynamics", "front Clift", 0.0, &clf);
  NUM("Aerodynamics", "rear Clift", 0.0, &clr);
  if ((clf != 0.0 || clr != 0.0) && d->aero.frontal_area > 0.0) {
    double half_rho_area = 0.5 * TORCS_AIR_DENSITY * d->aero.frontal_area;
    d->aero.lift_coefficient_front = -clf / half_rho_area;
    d->aero.lift_coefficient_rear = -clr / half_rho_area;
    d->aero.ground_effect_gain = 2.0;
    d->aero.ground_effect_height = 1.0 / (6.0 * pow(3.0, 0.25));
  } else {
    d->aero.lift_coefficient_front = d->aero.lift_coefficient_rear = 0.0;
    d->aero.ground_effect_gain = 0.0;
  }
  if (tyres[0].have && tyres[1].have) d->aero.ride_height = 0.5 * (tyres[0].ride_height + tyres[1].ride_height);
  /* The collision box reaches from the floor (the ride height) to the roof: it is the chassis
   * that meets the ground (docs/physics.md, "Solid ground"), and a box down to the road would
   * scrape all the time. The inertia above keeps TORCS's full-height box. */
  if (d->aero.ride_height > 0.0 && d->aero.ride_height < 0.5 * hei) {
    d->body.dimensions.z = hei - d->aero.ride_height;
    d->body.box_center.z = 0.5 * (hei + d->aero.ride_height);
  }
  /* Wings: TORCS's downforce is 4·1.23·A·sin(angle)·v² and drag 1.23·A·sin(angle)·v² (its wing
   * model takes ρ = 1.23). grip's flat plate gives 4·ρ·A·sin·cos and 4·ρ·A·sin²: the area
   * A·1.23/(ρ·cos(angle)) keeps the downforce exact and the drag within 0.3 % at 14°
   * (4·tan(angle) of TORCS's; a 6° front wing's drag, 0.03 kg/m, comes out at 42 %). */
  const char *wing_sect[2] = {"Front Wing", "Rear Wing"};
  d->aero.wing_count = 0;
  for (int w = 0; w < 2; ++w) {
    if (!has_section(p, wing_sect[w])) continue;
    grip_wing_def *g = &d->aero.wings[d->aero.wing_count];
    NUM(wing_sect[w], "area", 0.0, &g->area);
    NUM(wing_sect[w], "angle", 0.0, &g->angle);
    NUM(wing_sect[w], "xpos", 0.0, &g->x);
    NUM(wing_sect[w], "zpos", 0.0, &g->z);
    g->area *= TORCS_WING_AIR_DENSITY / (TORCS_AIR_DENSITY * cos(g->angle));
    if (g->area > 0) d->aero.wing_count++;
    else memset(g, 0, sizeof *g);
  }

  /* Engine. */
  grip_engine_def *e = &d->engine;
  int points = 0;
  for (int i = 1; i <= 64; ++i) {
    char sect[64];
    snprintf(sect, sizeof sect, "Engine/data points/%d", i);
    if (!find_attr(p, sect, "rpm")) break;
    tattr *t = find_attr(p, sect, "rpm");
    if (points >= GRIP_MAX_CURVE_POINTS) {
      grip_load_error_set(p->err, t->file, t->line, "Engine/data points", "more than %d points", GRIP_MAX_CURVE_POINTS);
      return -1;
    }
    NUM(sect, "rpm", 0.0, &e->curve_rpm[points]);
    NUM(sect, "Tq", 0.0, &e->curve_torque[points]);
    if (points > 0 && !(e->curve_rpm[points] > e->curve_rpm[points - 1])) {
      grip_load_error_set(p->err, t->file, t->line, "Engine/data points", "rpm does not increase");
      return -1;
    }
    points++;
  }
  if (points == 1) {
    grip_load_error_set(p->err, NULL, 0, "Engine/data points", "needs at least 2 points");
    return -1;
  }
  if (points) e->curve_points = points;
  double clutch_inertia;
  NUM("Engine", "revs limiter", e->rev_limit_rpm, &e->rev_limit_rpm);
  NUM("Engine", "tickover", e->idle_rpm, &e->idle_rpm);
  NUM("Engine", "inertia", e->inertia, &e->inertia);
  NUM("Clutch", "inertia", 0.0, &clutch_inertia);
  e->inertia += clutch_inertia;
  /* Fuel. TORCS 1.3's simuv2 (src/modules/simu/simuv2/engine.cpp, SimEngineUpdateTq) burns
   * fuel at 0.75·(Tq_max(ω) + K(ω))·α·ω·cons·1e-7 per second (kg = l), α the throttle, Tq_max the
   * curve's torque and K(ω) = TqAtMaxPw·c_b·(0.1 + 0.9·ω/ω_max) its engine-brake torque (c_b the
   * "brake coefficient", default 0.33; ω_max "revs maxi"), while the crank delivers
   * (Tq_max + K)·α − K. grip charges fuel_per_joule on the crank's positive work, so at full
   * throttle at the power peak the two agree with
   *   fuel_per_joule = 0.75·(1 + K(ω_P)/TqAtMaxPw)·cons·1e-7 = 0.75·(1 + c_b·(0.1 + 0.9·ω_P/ω_max))·cons·1e-7
   * (docs/driver.md, "Fuel"). */
  double cons, brake_coeff, revs_max;
  NUM("Engine", "fuel cons factor", NAN, &cons);
  NUM("Engine", "brake coefficient", 0.33, &brake_coeff);
  NUM("Engine", "revs maxi", 1000.0 * 60.0 / (2.0 * PI_), &revs_max); /* TORCS default 1000 rad/s */
  if (isfinite(cons)) {
    double rpm_power = 0.0, power = 0.0;
    for (int i = 0; i < e->curve_points; ++i) {
      double rpm = e->curve_rpm[i];
      if (rpm >= e->idle_rpm && rpm < e->rev_limit_rpm && rpm * e->curve_torque[i] > power) {
        power = rpm * e->curve_torque[i];
        rpm_power = rpm;
      }
    }
    double brake_share = revs_max > 0.0 ? brake_coeff * (0.1 + 0.9 * rpm_power / revs_max) : 0.0;
    e->fuel_per_joule = TORCS_FUEL_CHARGE * (1.0 + brake_share) * cons * 1e-7;
  }
  double peak = 0;
  for (int i = 0; i < e->curve_points; ++i) peak = fmax(peak, e->curve_torque[i]);
  d->clutch.max_torque = 1.5 * peak;
  d->clutch.engage_rpm = fmax(2000.0, 1.5 * e->idle_rpm);
  if (d->clutch.engage_rpm > 0.8 * e->rev_limit_rpm) d->clutch.engage_rpm = 0.8 * e->rev_limit_rpm;

  /* Gearbox. */
  grip_gearbox_def *g = &d->gearbox;
  NUM("Gearbox", "shift time", g->shift_time, &g->shift_time);
  double rev;
  NUM("Gearbox/gears/r", "ratio", -g->reverse_ratio, &rev);
  g->reverse_ratio = fabs(rev);
  int gears = 0;
  for (int i = 1; i <= GRIP_MAX_GEARS + 1; ++i) {
    char sect[64];
    snprintf(sect, sizeof sect, "Gearbox/gears/%d", i);
    tattr *t = find_attr(p, sect, "ratio");
    if (!t) break;
    if (gears >= GRIP_MAX_GEARS) {
      grip_load_error_set(p->err, t->file, t->line, "Gearbox/gears", "more than %d gears", GRIP_MAX_GEARS);
      return -1;
    }
    double eff; /* range-checked; simuv2 applies it to inertia only (below) */
    NUM(sect, "ratio", 1.0, &g->ratios[gears]);
    NUM(sect, "efficiency", 1.0, &eff);
    gears++;
  }
  if (gears) g->forward_gears = gears;

  /* Drivetrain and differentials. */
  const char *type = str(p, "Drivetrain", "type", "RWD");
  if (same_text(type, "RWD")) d->drivetrain.layout = GRIP_DRIVE_RWD;
  else if (same_text(type, "FWD")) d->drivetrain.layout = GRIP_DRIVE_FWD;
  else if (same_text(type, "4WD")) d->drivetrain.layout = GRIP_DRIVE_AWD;
  else {
    tattr *t = find_attr(p, "Drivetrain", "type");
    grip_load_error_set(p->err, t->file, t->line, "Drivetrain/type", "'%s' is not RWD, FWD or 4WD", type);
    return -1;
  }
  double rf = g->final_drive, rr_ = g->final_drive, rc = 1.0;
  if (map_diff(p, "Front Differential", &d->drivetrain.front, &rf)) return -1;
  if (map_diff(p, "Rear Differential", &d->drivetrain.rear, &rr_)) return -1;
  if (map_diff(p, "Central Differential", &d->drivetrain.centre, &rc)) return -1;
  if (d->drivetrain.layout == GRIP_DRIVE_RWD) g->final_drive = rr_;
  else if (d->drivetrain.layout == GRIP_DRIVE_FWD) g->final_drive = rf;
  else g->final_drive = rc * 0.5 * (rf + rr_);
  /* simuv2 drives the differential with the engine torque × the overall ratio × the clutch's
   * transfer (transmission.cpp), and the differential passes it on whole (differential.cpp):
   * the gears' and the differentials' efficiencies only divide the inertia reflected through
   * them. A TORCS car's transmission is lossless; car1-trb1's 0.92 (its mean gear efficiency
   * × its differential's) had it reach 297 km/h on c-speedway's straights where TORCS's robots
   * reach 300. */
  g->efficiency = 1.0;

  /* Brakes: each wheel's torque at full pedal is pressure·share·piston area·mu·disc radius. */
  double rep, pmax;
  NUM("Brake System", "front-rear brake repartition", d->brakes.front_bias, &rep);
  NUM("Brake System", "max pressure", NAN, &pmax);
  if (isfinite(pmax)) {
    double tq[4];
    for (int w = 0; w < 4; ++w) {
      double diam, area, bmu;
      NUM(brake_sect[w], "disk diameter", 0.3, &diam);
      NUM(brake_sect[w], "piston area", 50e-4, &area);
      NUM(brake_sect[w], "mu", 0.3, &bmu);
      tq[w] = pmax * area * bmu * 0.5 * diam;
    }
    double front = rep * (tq[0] + tq[1]), rear = (1.0 - rep) * (tq[2] + tq[3]);
    d->brakes.max_torque = front + rear;
    d->brakes.front_bias = front + rear > 0 ? front / (front + rear) : 0.5;
    d->brakes.handbrake_torque = 0.5 * (tq[2] + tq[3]);
  }

  /* Steering: TORCS gives the road-wheel lock; grip keeps its ratio. */
  double lock;
  NUM("Steer", "steer lock", NAN, &lock);
  if (isfinite(lock)) d->steering.max_wheel_angle = lock * d->steering.ratio;
  return 0;
}

/* Physical ranges of the TORCS parameters grip reads, in SI after the unit="..." conversion
 * (rpm stays rpm). A section pattern "X*" matches sections starting with X, "*X" those ending
 * with X. Every car and category of Debian's torcs-data lies well inside (docs/car-format.md,
 * "TORCS import"). */
typedef struct torcs_range {
  const char *sect, *name;
  double lo, hi;
  const char *unit;
} torcs_range;

static const torcs_range torcs_ranges[] = {
    {"Car", "mass", 1.0, 1e6, "kg"},
    {"Car", "GC height", -5.0, 10.0, "m"},
    {"Car", "front-rear weight repartition", 0.0, 1.0, ""},
    {"Car", "front right-left weight repartition", 0.0, 1.0, ""},
    {"Car", "rear right-left weight repartition", 0.0, 1.0, ""},
    {"Car", "mass repartition coefficient", 0.01, 10.0, ""},
    {"Car", "fuel tank", 0.0, 1e5, "l"},
    {"Car", "initial fuel", 0.0, 1e5, "l"},
    {"Car", "body length", 0.1, 100.0, "m"},
    {"Car", "body width", 0.1, 100.0, "m"},
    {"Car", "body height", 0.1, 100.0, "m"},
    {"Aerodynamics", "Cx", 0.0, 10.0, ""},
    {"Aerodynamics", "front area", 0.0, 100.0, "m^2"},
    {"Aerodynamics", "front Clift", -100.0, 100.0, ""},
    {"Aerodynamics", "rear Clift", -100.0, 100.0, ""},
    {"Engine", "revs limiter", 500.0, 30000.0, "rpm"},
    {"Engine", "tickover", 100.0, 10000.0, "rpm"},
    {"Engine", "inertia", 0.001, 100.0, "kg*m^2"},
    {"Engine", "fuel cons factor", 0.0, 1000.0, ""},
    {"Engine", "brake coefficient", 0.0, 10.0, ""},
    {"Engine", "revs maxi", 500.0, 30000.0, "rpm"},
    {"Engine/data points/*", "rpm", 0.0, 30000.0, "rpm"},
    {"Engine/data points/*", "Tq", 0.0, 1e5, "N*m"},
    {"Clutch", "inertia", 0.0, 100.0, "kg*m^2"},
    {"Gearbox", "shift time", 0.0, 5.0, "s"},
    {"Gearbox/gears/*", "ratio", -50.0, 50.0, ""},
    {"Gearbox/gears/*", "efficiency", 0.1, 1.0, ""},
    {"*Axle", "xpos", -50.0, 50.0, "m"},
    {"*Axle", "inertia", 0.0, 1000.0, "kg*m^2"},
    {"*Wheel", "ypos", -10.0, 10.0, "m"},
    {"*Wheel", "rim diameter", 0.05, 5.0, "m"},
    {"*Wheel", "tire width", 0.01, 3.0, "m"},
    {"*Wheel", "tire height-width ratio", 0.01, 10.0, ""},
    {"*Wheel", "inertia", 0.001, 1000.0, "kg*m^2"},
    {"*Wheel", "mu", 0.05, 10.0, ""},
    {"*Wheel", "stiffness", 0.1, 1000.0, ""},
    {"*Wheel", "rolling resistance", 0.0, 1.0, ""},
    {"*Wheel", "ride height", 0.0, 2.0, "m"},
    {"*Wheel", "operating load", 1.0, 1e6, "N"},
    {"*Suspension", "spring", 0.0, 1e8, "N/m"},
    {"*Suspension", "suspension course", 0.0, 4.0, "m"},
    {"*Suspension", "bellcrank", 0.01, 100.0, ""},
    {"*Suspension", "packers", 0.0, 2.0, "m"},
    {"*Suspension", "slow bump", 0.0, 1e7, "N*s/m"},
    {"*Suspension", "slow rebound", 0.0, 1e7, "N*s/m"},
    {"*Anti-Roll Bar", "spring", 0.0, 1e8, "N/m"},
    {"*Anti-Roll Bar", "bellcrank", 0.0, 100.0, ""},
    {"*Brake", "disk diameter", 0.01, 3.0, "m"},
    {"*Brake", "piston area", 0.0, 1.0, "m^2"},
    {"*Brake", "mu", 0.0, 10.0, ""},
    {"Brake System", "front-rear brake repartition", 0.0, 1.0, ""},
    {"Brake System", "max pressure", 0.0, 1e9, "Pa"},
    {"*Wing", "area", 0.0, 100.0, "m^2"},
    {"*Wing", "angle", -1.5, 1.5, "rad"},
    {"Steer", "steer lock", 0.0, 1.6, "rad"},
};

static int section_matches(const char *pattern, const char *sect) {
  size_t n = strlen(pattern), m = strlen(sect);
  if (pattern[0] == '*') return m >= n - 1 && same_text(sect + m - (n - 1), pattern + 1);
  if (pattern[n - 1] == '*') return m >= n - 1 && strncmp(sect, pattern, n - 1) == 0;
  return same_text(pattern, sect);
}

/* Every attribute the table names, where the files give it: inside its range, or an error at
 * its file:line. */
static int check_ranges(tparams *p) {
  for (int i = 0; i < p->n; ++i) {
    const tattr *t = &p->a[i];
    for (size_t k = 0; k < sizeof torcs_ranges / sizeof torcs_ranges[0]; ++k) {
      const torcs_range *r = &torcs_ranges[k];
      if (strcmp(r->name, t->name) != 0 || !section_matches(r->sect, t->sect)) continue;
      double v;
      if (num(p, t->sect, t->name, 0.0, &v)) return -1;
      if (v >= r->lo && v <= r->hi) break;
      char key[200];
      snprintf(key, sizeof key, "%s/%s", t->sect, t->name);
      grip_load_error_set(p->err, t->file, t->line, key,
                          "%.6g%s%s is out of range (allowed %g .. %g%s%s)", v, *r->unit ? " " : "",
                          r->unit, r->lo, r->hi, *r->unit ? " " : "", r->unit);
      return -1;
    }
  }
  return 0;
}

/* The car's own 3D model: the AC3D file beside its XML with the same stem (NAME.acc, else
 * NAME.ac). TORCS models are y up with x forward and their origin on the ground at the car's
 * reference point, which is grip's design frame origin for an imported car (the axle xpos are
 * taken as they are): scale 1, no offset, no rotation. */
static void torcs_car_model(const char *car_xml, grip_car *car) {
  char path[GRIP_CAR_PATH_MAX];
  size_t n = strlen(car_xml);
  if (n < 4 || n + 1 > sizeof path || strcmp(car_xml + n - 4, ".xml") != 0) return;
  static const char *const ext[] = {".acc", ".ac"};
  for (int i = 0; i < 2; ++i) {
    int k = snprintf(path, sizeof path, "%.*s%s", (int)(n - 4), car_xml, ext[i]);
    struct stat st;
    if (k > 0 && (size_t)k < sizeof path && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
      copy_text(car->visual.model, sizeof car->visual.model, path);
      car->visual.scale = 1.0;
      car->visual.offset = (grip_vec3){0.0, 0.0, 0.0};
      car->visual.yaw = car->visual.pitch = car->visual.roll = 0.0;
      car->visual.y_up = true;
      return;
    }
  }
}

/* The brake lamps of a TORCS car: `Graphic Objects/Light/N` sections whose type is brake or
 * brake2 (TORCS's own lamp types; rear, head and reverse lamps are left out), at xpos, ypos,
 * zpos (m, TORCS car axes: x forward, y left, z up, the model's origin) with a size (m, the
 * lamp's diameter). A lamp
 * whose numbers do not read is skipped: the lamps only decorate the model. */
static void torcs_brake_lamps(tparams *p, grip_car *car) {
  car->visual.brake_lamp_count = 0;
  for (int i = 0; i < p->n && car->visual.brake_lamp_count < GRIP_CAR_MAX_LIGHTS; ++i) {
    const tattr *t = &p->a[i];
    if (strncmp(t->sect, "Graphic Objects/Light/", 22) != 0 || !same_text(t->name, "type")) continue;
    if (!same_text(t->val, "brake") && !same_text(t->val, "brake2")) continue;
    double v[4];
    static const char *const keys[4] = {"xpos", "ypos", "zpos", "size"};
    bool ok = true;
    for (int k = 0; k < 4 && ok; ++k) {
      const tattr *a = find_attr(p, t->sect, keys[k]);
      char *end = NULL;
      v[k] = a ? strtod(a->val, &end) : NAN;
      ok = a && end != a->val && isfinite(v[k]) && fabs(v[k]) < 20.0;
    }
    if (!ok || !(v[3] > 0.0)) continue;
    grip_car_lamp *lamp = &car->visual.brake_lamps[car->visual.brake_lamp_count++];
    lamp->position = (grip_vec3){v[0], v[1], v[2]};
    lamp->radius = 0.5 * v[3]; /* TORCS's size is the lamp's diameter */
  }
}

static int torcs_load(const char *car_xml, const char *category_xml, const char *setup_xml, grip_car *out,
                      grip_load_error *err) {
  grip_load_error local;
  if (!err) err = &local;
  grip_load_error_clear(err);
  tparams p = {NULL, 0, 0, err};
  grip_car *car = NULL;
  int rc = -1;
  /* The category comes first, the car on top: read the car once to find its category. */
  char cat_path[GRIP_CAR_PATH_MAX];
  if (!category_xml) {
    tparams probe = {NULL, 0, 0, err};
    if (read_xml(&probe, car_xml)) {
      free(probe.a);
      return -1;
    }
    const char *cat = str(&probe, "Car", "category", NULL);
    if (cat) {
      char dir[GRIP_CAR_PATH_MAX];
      copy_text(dir, sizeof dir, car_xml);
      char *slash = strrchr(dir, '/');
      if (slash) *slash = '\0';
      else copy_text(dir, sizeof dir, ".");
      int n = snprintf(cat_path, sizeof cat_path, "%s/../../categories/%s.xml", dir, cat);
      if (n > 0 && (size_t)n < sizeof cat_path) category_xml = cat_path;
    }
    free(probe.a);
  }
  if (category_xml && read_xml(&p, category_xml)) goto done;
  if (read_xml(&p, car_xml)) goto done;
  if (setup_xml && read_xml(&p, setup_xml)) goto done;
  car = malloc(sizeof *car);
  if (!car) {
    grip_load_error_set(err, car_xml, 0, NULL, "out of memory");
    goto done;
  }
  grip_car_default(car);
  if (check_ranges(&p)) goto done;
  if (map_car(&p, car)) goto done;
  /* Name: the car XML's stem. */
  const char *b = strrchr(car_xml, '/');
  copy_text(car->name, sizeof car->name, b ? b + 1 : car_xml);
  char *dot = strrchr(car->name, '.');
  if (dot && dot != car->name) *dot = '\0';
  copy_text(car->source, sizeof car->source, car_xml);
  torcs_car_model(car_xml, car);
  if (car->visual.model[0]) torcs_brake_lamps(&p, car);
  grip_car_fix_pointers(car);
  char message[400];
  /* Whether the car can move first: it names the torque curve's line, the core's check cannot. */
  if (!grip_car_can_drive(&car->def, message, sizeof message)) {
    tattr *t = find_attr(&p, "Engine/data points/1", "Tq");
    grip_load_error_set(err, t ? t->file : car_xml, t ? t->line : 0, "Engine/data points", "%s",
                        message);
    goto done;
  }
  if (grip_vehicle_def_validate(&car->def, message, sizeof message) != GRIP_OK) {
    grip_load_error_set(err, car_xml, 0, NULL, "imported car is invalid: %s", message);
    goto done;
  }
  memcpy(out, car, sizeof *out);
  grip_car_fix_pointers(out);
  rc = 0;
done:
  free(car);
  free(p.a);
  return rc;
}

int grip_torcs_load(const char *car_xml, const char *category_xml, const char *setup_xml, grip_car *out,
                    grip_load_error *err) {
  return torcs_load(car_xml, category_xml, setup_xml, out, err);
}

int grip_torcs_load_path(const char *path, const char *setup_xml, grip_car *out, grip_load_error *err) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    char dir[GRIP_CAR_PATH_MAX];
    copy_text(dir, sizeof dir, path);
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') dir[--n] = '\0';
    const char *base = strrchr(dir, '/');
    base = base ? base + 1 : dir;
    char xml[GRIP_CAR_PATH_MAX * 2 + 8];
    snprintf(xml, sizeof xml, "%s/%s.xml", dir, base);
    if (stat(xml, &st) != 0) {
      grip_load_error_set(err, path, 0, NULL,
                          "is a directory, and not a TORCS car directory (it has no %s.xml)", base);
      return -1;
    }
    return torcs_load(xml, NULL, setup_xml, out, err);
  }
  return torcs_load(path, NULL, setup_xml, out, err);
}

int grip_torcs_load_named(const char *name, const char *setup_xml, grip_car *out, grip_load_error *err) {
  if (!name[0] || strchr(name, '/')) {
    grip_load_error_set(err, name, 0, NULL, "not a TORCS car name");
    return -1;
  }
  char xml[GRIP_CAR_PATH_MAX];
  int n = snprintf(xml, sizeof xml, "%s/cars/%s/%s.xml", GRIP_TORCS_DATA_DIR, name, name);
  if (n < 0 || (size_t)n >= sizeof xml) {
    grip_load_error_set(err, name, 0, NULL, "name too long");
    return -1;
  }
  return torcs_load(xml, NULL, setup_xml, out, err);
}
