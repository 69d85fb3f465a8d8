/* Car files: the shipped Corvette equals the built-in car, a round trip is bit-identical, every
 * key is documented, parametric curves and bases work, and a corpus of broken files gives the
 * right file:line without crashing. */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "car_file.h"
#include "test.h"

#define CARS GRIP_SOURCE_DIR "/data/cars/"
#define TMP GRIP_BINARY_DIR "/test_car_file_tmp"

/* Bitwise equality of two doubles (so -0 != 0 and the last bit counts). */
static int same_bits(double a, double b) {
  uint64_t x, y;
  memcpy(&x, &a, 8);
  memcpy(&y, &b, 8);
  return x == y;
}

static int diffs_; /* number of differing fields in the last compare */
#define F(field)                                                                          \
  do {                                                                                    \
    if (!same_bits((double)a->field, (double)b->field)) {                                 \
      diffs_++;                                                                           \
      fprintf(stderr, "  differs: %s: %.17g vs %.17g\n", #field, (double)a->field, (double)b->field); \
    }                                                                                     \
  } while (0)
#define V(field) F(field.x); F(field.y); F(field.z)

static void compare_diff(const grip_diff_def *da, const grip_diff_def *db) {
  const grip_diff_def *a = da, *b = db;
  F(type); F(preload); F(locking_coefficient); F(viscous_coefficient); F(front_split);
  F(inputs[0].kind); F(inputs[0].index); F(inputs[1].kind); F(inputs[1].index);
}

/* Field-by-field comparison of every numeric field of two definitions. */
static int compare_defs(const grip_vehicle_def *a, const grip_vehicle_def *b) {
  diffs_ = 0;
  F(body.mass); V(body.center_of_mass); V(body.inertia); V(body.dimensions); V(body.box_center);
  F(engine.curve_points);
  for (int i = 0; i < a->engine.curve_points && i < GRIP_MAX_CURVE_POINTS; ++i) {
    F(engine.curve_rpm[i]);
    F(engine.curve_torque[i]);
  }
  F(engine.idle_rpm); F(engine.rev_limit_rpm); F(engine.inertia); F(engine.brake_torque);
  F(engine.brake_torque_per_rpm); F(engine.fuel_per_joule);
  F(clutch.max_torque); F(clutch.engage_rpm);
  F(gearbox.forward_gears);
  for (int i = 0; i < a->gearbox.forward_gears && i < GRIP_MAX_GEARS; ++i) F(gearbox.ratios[i]);
  F(gearbox.reverse_ratio); F(gearbox.final_drive); F(gearbox.efficiency); F(gearbox.shift_time);
  F(gearbox.upshift_rpm); F(gearbox.downshift_rpm); F(gearbox.automatic);
  F(drivetrain.layout);
  compare_diff(&a->drivetrain.front, &b->drivetrain.front);
  compare_diff(&a->drivetrain.rear, &b->drivetrain.rear);
  compare_diff(&a->drivetrain.centre, &b->drivetrain.centre);
  F(drivetrain.diff_count);
  for (int k = 0; a->drivetrain.layout == GRIP_DRIVE_TREE && k < a->drivetrain.diff_count && k < GRIP_MAX_DIFFS; ++k)
    compare_diff(&a->drivetrain.diffs[k], &b->drivetrain.diffs[k]);
  F(brakes.max_torque); F(brakes.front_bias); F(brakes.handbrake_torque);
  F(steering.ratio); F(steering.max_wheel_angle); F(steering.ackermann); F(steering.speed_reduction_speed);
  F(input_filter.throttle_rate); F(input_filter.brake_rate); F(input_filter.steer_rate);
  F(axle_count);
  for (int k = 0; k < a->axle_count && k < GRIP_MAX_AXLES; ++k) {
    F(axles[k].x); F(axles[k].half_track); F(axles[k].wheel_radius); F(axles[k].wheel_width);
    F(axles[k].wheel_inertia); F(axles[k].steer_ratio); F(axles[k].brake_share); F(axles[k].handbrake);
    F(axles[k].suspension.spring_rate); F(axles[k].suspension.bump_damping);
    F(axles[k].suspension.rebound_damping); F(axles[k].suspension.bump_travel);
    F(axles[k].suspension.droop_travel); F(axles[k].suspension.bump_stop_rate);
    F(axles[k].suspension.max_force); F(axles[k].suspension.anti_roll_rate);
    F(axles[k].tyre.model);
    F(axles[k].tyre.simple.longitudinal.b); F(axles[k].tyre.simple.longitudinal.c);
    F(axles[k].tyre.simple.longitudinal.mu); F(axles[k].tyre.simple.longitudinal.e);
    F(axles[k].tyre.simple.lateral.b); F(axles[k].tyre.simple.lateral.c);
    F(axles[k].tyre.simple.lateral.mu); F(axles[k].tyre.simple.lateral.e);
    F(axles[k].tyre.simple.nominal_load); F(axles[k].tyre.simple.load_sensitivity);
    F(axles[k].tyre.simple.pneumatic_trail);
    F(axles[k].tyre.relaxation_length_x); F(axles[k].tyre.relaxation_length_y);
    F(axles[k].tyre.low_speed_damping); F(axles[k].tyre.low_speed); F(axles[k].tyre.rolling_resistance);
  }
  F(aero.drag_coefficient); F(aero.frontal_area); F(aero.lift_coefficient_front);
  F(aero.lift_coefficient_rear); F(aero.center_of_pressure_z); F(aero.wing_count);
  F(aero.ground_effect_gain); F(aero.ground_effect_height); F(aero.ride_height);
  for (int i = 0; i < a->aero.wing_count && i < GRIP_MAX_WINGS; ++i) {
    F(aero.wings[i].area); F(aero.wings[i].angle); F(aero.wings[i].x); F(aero.wings[i].z);
  }
  F(fuel.capacity); F(fuel.mass); V(fuel.position);
  return diffs_;
}

static grip_car car_, car2_;

static void test_corvette_file_is_builtin(void) {
  grip_load_error err;
  int rc = grip_car_load(CARS "corvette-c5.ini", &car_, &err);
  if (rc) fprintf(stderr, "%s\n", err.message);
  CHECK(rc == 0);
  grip_vehicle_def builtin = grip_default_vehicle_def();
  CHECK(compare_defs(&car_.def, &builtin) == 0);
  CHECK(strcmp(car_.def.name, "corvette-c5") == 0);
  CHECK(car_.warning_count == 0);
  /* Published figures, independently: 6 gears 2.66 .. 0.50, differential 3.42, 1409 + 30 kg. */
  CHECK_NEAR(car_.def.gearbox.ratios[0], 2.66, 0);
  CHECK_NEAR(car_.def.gearbox.final_drive, 3.42, 0);
  CHECK_NEAR(car_.def.body.mass + car_.def.fuel.mass, 1439.0, 0);
  CHECK_NEAR(car_.def.steering.max_wheel_angle, 8.17, 0); /* "8.17 rad" suffix */
  CHECK_NEAR(car_.def.engine.fuel_per_joule, 250e-3 / 3.6e6, 1e-20); /* 250 g/kWh */
}

static void round_trip(const char *path) {
  grip_load_error err;
  int rc = grip_car_load(path, &car_, &err);
  if (rc) fprintf(stderr, "%s: %s\n", path, err.message);
  CHECK(rc == 0);
  CHECK(grip_car_save(&car_, TMP ".ini", "round trip", &err) == 0);
  rc = grip_car_load(TMP ".ini", &car2_, &err);
  if (rc) fprintf(stderr, "reload: %s\n", err.message);
  CHECK(rc == 0);
  int d = compare_defs(&car_.def, &car2_.def);
  if (d) fprintf(stderr, "%s: %d fields differ after a round trip\n", path, d);
  CHECK(d == 0);
  CHECK(strcmp(car_.name, car2_.name) == 0);
  CHECK(strcmp(car_.trailer.file, car2_.trailer.file) == 0);
  CHECK(car_.coupling_fifth_wheel == car2_.coupling_fifth_wheel);
  CHECK(car2_.warning_count == 0);
}

static void test_round_trips(void) {
  static const char *cars[] = {"corvette-c5", "hatchback-100kw", "single-seater", "offroad-4wd", "kart",
                               "caravan", "semi-trailer", "hatchback-caravan"};
  for (int i = 0; i < 8; ++i) {
    char path[512];
    snprintf(path, sizeof path, CARS "%s.ini", cars[i]);
    round_trip(path);
  }
  /* Awkward values: angles and bsfc whose unit conversion does not invert exactly. */
  grip_car_default(&car_);
  car_.def.steering.max_wheel_angle = 0.1 + 0.2; /* 0.30000000000000004 rad */
  car_.def.engine.fuel_per_joule = 7.123456789e-8;
  car_.def.aero.wing_count = 1;
  car_.def.aero.wings[0] = (grip_wing_def){.area = 0.3, .angle = 0.2617993877991494, .x = -2, .z = 1};
  grip_load_error err;
  CHECK(grip_car_save(&car_, TMP ".ini", NULL, &err) == 0);
  CHECK(grip_car_load(TMP ".ini", &car2_, &err) == 0);
  CHECK(compare_defs(&car_.def, &car2_.def) == 0);
}

/* Parses text; returns 0/-1 and leaves the error in err. */
static int parse(const char *text, grip_car *out, grip_load_error *err) {
  return grip_car_parse(text, "t.ini", GRIP_SOURCE_DIR "/data/cars", out, err);
}

static void test_values_and_units(void) {
  grip_load_error err;
  const char *text =
      "; comment\n"
      "[car]\nname = test car\n"
      "[body]\n  mass = 1000 kg   ; indented, unit suffix, inline comment\n"
      "[steering]\nlock = 360\n"
      "[engine]\npeak_torque = 300\npeak_rpm = 4000\nwidth_low = 4000\nwidth_high = 3000\ncurve_points = 5\n"
      "idle_rpm = 1000\nlimiter_rpm = 7000\nbsfc = 360\n"
      "[gearbox]\nratios = 3, 2, 1\nautomatic = no\n"
      "[drivetrain]\nlayout = AWD\n"
      "[diff.center]\ntype = viscous\nviscous = 120\n"
      "[wing.2]\narea = 0.5\nangle = 30\n";
  int rc = parse(text, &car_, &err);
  if (rc) fprintf(stderr, "%s\n", err.message);
  CHECK(rc == 0);
  const grip_vehicle_def *d = &car_.def;
  CHECK(strcmp(d->name, "test car") == 0);
  CHECK_NEAR(d->body.mass, 1000, 0);
  CHECK_NEAR(d->steering.max_wheel_angle, 2.0 * 3.14159265358979323846, 1e-15);
  CHECK_NEAR(d->engine.fuel_per_joule, 1e-7, 1e-22); /* 360 g/kWh = 1e-7 kg/J */
  /* Parametric curve, 5 samples from idle 1000 to 7000 rpm (1500 rpm apart):
   * T(1000) = 300·(1 − (3000/4000)²) = 131.25; T(2500) = 300·(1 − (1500/4000)²) = 257.8125;
   * T(4000) = 300; T(5500) = 300·(1 − (1500/3000)²) = 225; T(7000) = 0. */
  CHECK(d->engine.curve_points == 5);
  CHECK_NEAR(d->engine.curve_rpm[1], 2500, 1e-9);
  CHECK_NEAR(d->engine.curve_torque[0], 131.25, 1e-9);
  CHECK_NEAR(d->engine.curve_torque[1], 257.8125, 1e-9);
  CHECK_NEAR(d->engine.curve_torque[2], 300, 1e-9);
  CHECK_NEAR(d->engine.curve_torque[3], 225, 1e-9);
  CHECK_NEAR(d->engine.curve_torque[4], 0, 1e-9);
  CHECK(d->gearbox.forward_gears == 3);
  CHECK(!d->gearbox.automatic);
  CHECK(d->drivetrain.layout == GRIP_DRIVE_AWD);
  CHECK(d->drivetrain.centre.type == GRIP_DIFF_VISCOUS);
  CHECK_NEAR(d->drivetrain.centre.viscous_coefficient, 120, 0);
  CHECK(d->aero.wing_count == 2); /* [wing.2] implies two wings; wing 1 keeps zeros */
  CHECK_NEAR(d->aero.wings[1].angle, 3.14159265358979323846 / 6, 1e-15);
  CHECK_NEAR(d->aero.wings[0].area, 0, 0);
  /* Unknown keys and sections are warnings, not errors. */
  rc = parse("[body]\nmass = 900\ncolour = red\n[paint]\ngloss = 1\n", &car_, &err);
  CHECK(rc == 0);
  CHECK(car_.warning_count == 2);
  CHECK(strstr(car_.warnings[0], "t.ini:3:") && strstr(car_.warnings[0], "colour"));
  CHECK(strstr(car_.warnings[1], "t.ini:4:") && strstr(car_.warnings[1], "paint"));
  CHECK_NEAR(car_.def.body.mass, 900, 0);
  /* No name: the file's stem. */
  CHECK(strcmp(car_.name, "t") == 0);
}

static void test_base(void) {
  FILE *f = fopen(TMP "_derived.ini", "w");
  CHECK(f != NULL);
  if (!f) return;
  fprintf(f, "[car]\nbase = %s\nname = lighter\n[body]\nmass = 800\n", CARS "hatchback-100kw.ini");
  fclose(f);
  grip_load_error err;
  int rc = grip_car_load(TMP "_derived.ini", &car_, &err);
  if (rc) fprintf(stderr, "%s\n", err.message);
  CHECK(rc == 0);
  CHECK_NEAR(car_.def.body.mass, 800, 0);
  CHECK(car_.def.drivetrain.layout == GRIP_DRIVE_FWD); /* inherited */
  CHECK_NEAR(car_.def.gearbox.ratios[4], 0.68, 0);
  CHECK(strcmp(car_.name, "lighter") == 0);
  /* base after another key, and a base that is missing */
  rc = parse("[body]\nmass = 900\n[car]\nbase = hatchback-100kw.ini\n", &car_, &err);
  CHECK(rc == -1 && err.line == 4);
  rc = parse("[car]\nbase = no-such-car.ini\n", &car_, &err);
  CHECK(rc == -1 && err.line == 2 && strstr(err.message, "no-such-car.ini"));
}

typedef struct bad_case {
  const char *what;
  const char *text;
  int line;             /* expected line of the error */
  const char *contains; /* expected in the message */
} bad_case;

/* Each case must be refused at its line with its message, leaving the output car untouched
 * (a sentinel mass, and no model); returns the failures. */
static void expect_refused(const bad_case *cases, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    grip_load_error err;
    grip_car_default(&car_);
    car_.def.body.mass = 4242.0; /* sentinel: a failed load must not touch the output */
    int rc = parse(cases[i].text, &car_, &err);
    int ok = rc == -1 && err.line == cases[i].line && strstr(err.message, cases[i].contains) != NULL &&
             car_.def.body.mass == 4242.0 && car_.visual.model[0] == '\0';
    if (!ok) fprintf(stderr, "case '%s': rc %d line %d: %s\n", cases[i].what, rc, err.line, err.message);
    CHECK(ok);
  }
}

static void test_broken_corpus(void) {
  static const bad_case cases[] = {
      {"not a number", "[body]\nmass = abc\n", 2, "t.ini:2: body.mass: 'abc' is not a number"},
      {"huge", "[car]\nname = x\n[body]\nmass = 1e308\n", 4, "out of range (allowed 1 .. 1e+06 kg)"},
      {"overflow", "[body]\ncg_z = 1e999\n", 2, "body.cg_z"},
      {"NaN", "[body]\n\nmass = nan\n", 3, "not a number"},
      {"inf", "[body]\nmass = inf\n", 2, "not a number"},
      {"negative inf", "[aero]\ncd = -inf\n", 2, "aero.cd"},
      {"hex float", "[body]\nmass = 0x10\n", 2, "not a number"},
      {"wrong unit", "[body]\nmass = 10 lbs\n", 2, "not a number in kg"},
      {"truncated section", "[body]\nmass = 1000\n[engi", 3, "syntax error"},
      {"truncated key", "[body]\nmass = 1000\ncg_", 3, "syntax error"},
      {"empty value", "[body]\nmass =\n", 2, "not a number"},
      {"key outside section", "mass = 1000\n", 1, "outside any [section]"},
      {"duplicate key", "[body]\nmass = 1000\ncg_z = 0.5\nmass = 1100\n", 4, "given twice (first on line 2)"},
      {"bad torque pair", "[engine]\ntorque = 1000:200, 3000-400\n", 2, "'3000-400' is not an rpm:N*m pair"},
      {"torque not increasing", "[engine]\ntorque = 1000:200, 3000:400,\n  2000:300\n", 3, "does not increase"},
      {"torque single point", "[engine]\ntorque = 1000:200\n", 2, "at least 2"},
      {"torque dangling comma", "[engine]\ntorque = 1000:200, 2000:300,\n", 2, "end of the file"},
      {"negative ratio", "[gearbox]\nratios = 3.1, -1.2, 1.0\n", 2, "gear ratio -1.2 is out of range"},
      {"too many gears", "[gearbox]\nratios = 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1\n", 2, "more than 16"},
      {"bad bool", "[axle.front]\nsteered = maybe\n", 2, "not yes or no"},
      {"bad layout", "[drivetrain]\nlayout = 6wd\n", 2, "not rwd, fwd, awd, tree or none"},
      {"new axle not behind", "[axle.3]\nhalf_track = 0.8\n", 0, "front to back"},
      {"tree input missing", "[drivetrain]\nlayout = tree\n[diff.1]\ninputs = axle.2.left\n", 4, "not two inputs"},
      {"tree input no axle", "[drivetrain]\nlayout = tree\n[diff.1]\ninputs = axle.3.left, axle.2.right\n", 4,
       "t.ini:4: diff.1.inputs: 'axle.3.left' is not diff.N"},
      {"tree input side of one wheel", "[axle.1]\nhalf_track = 0\n[drivetrain]\nlayout = tree\n[diff.1]\n"
       "inputs = axle.1.left, axle.2.right\n", 6, "'axle.1.left' is not"},
      {"tree wheel twice", "[drivetrain]\nlayout = tree\n[diff.1]\ninputs = axle.2.left, axle.2.left\n", 4,
       "t.ini:4: diff.1.inputs: a wheel driven twice"},
      {"tree diff undriven", "[drivetrain]\nlayout = tree\n[diff.1]\ninputs = axle.2.left, axle.2.right\n"
       "[diff.2]\ninputs = axle.1.left, axle.1.right\n", 0, "a differential no other one drives"},
      {"inputs on a layout diff", "[diff.rear]\ninputs = axle.2.left, axle.2.right\n", 2, "only a tree's"},
      {"bad diff", "[diff.rear]\ntype = torsen\n", 2, "not open, locked, lsd or viscous"},
      {"both curves", "[engine]\ntorque = 1000:100, 2000:200\npeak_torque = 300\n", 3, "not both"},
      {"partial parametric", "[engine]\npeak_torque = 300\npeak_rpm = 4000\n", 2, "needs peak_torque"},
      {"wing count", "[aero]\nwings = 1\n[wing.2]\narea = 1\n", 2, "[wing.2] is given"},
      {"validate cross-field", "[engine]\nidle_rpm = 5000\nlimiter_rpm = 6000\n", 3, "engine.limiter_rpm"},
      {"fuel over capacity", "[fuel]\ncapacity = 10\nmass = 20\n", 3, "fuel.mass"},
      {"axles swapped", "[axle.front]\nx = -2\n", 2, "front to back"},
      {"missing tir", "[tyre.rear]\ntir = none.tir\n", 2, "tyre.rear.tir"},
      {"zero torque curve", "[engine]\ntorque = 1000:0, 3000:0, 6000:0\n", 2,
       "t.ini:2: engine.torque: the engine's torque curve is zero everywhere: the car can never move"},
      {"zero parametric", "[gearbox]\nratios = 0.05\nfinal_drive = 0.1\n[engine]\npeak_torque = 1\npeak_rpm = 4000\nwidth_low = 2000\nwidth_high = 2000\n", 5,
       "t.ini:5: engine.peak_torque: the engine can never move the car"},
      {"weak gearing", "[body]\nmass = 1e6\n[gearbox]\nratios = 1\n", 4,
       "t.ini:4: gearbox.ratios: the engine can never move the car: its peak drive force"},
      {"clutch slips", "[clutch]\nmax_torque = 0\n", 2,
       "t.ini:2: clutch.max_torque: the engine can never move the car"},
      {"no lateral grip", "[tyre.front]\nlat_mu = 0\n", 2, "t.ini:2: tyre.front.lat_mu: 0 is out of range (allowed 0.05 .. 10)"},
      {"no longitudinal grip", "[tyre.rear]\nlong_mu = 0.01\n", 2, "tyre.rear.long_mu: 0.01 is out of range (allowed 0.05 .. 10)"},
      {"no stiffness", "[tyre.rear]\nlat_b = 0\n", 2, "tyre.rear.lat_b: 0 is out of range"},
      {"lamp not four numbers", "[visual]\nbrake_lamps = 1 2 3\n", 2, "t.ini:2: visual.brake_lamps: '1 2 3' is not a lamp 'x y z radius'"},
      {"lamp radius", "[visual]\nbrake_lamps = -2 0.5 0.6 9\n", 2, "visual.brake_lamps: lamp radius 9 is out of range (allowed 0.001 .. 5)"},
      {"lamp position", "[visual]\nbrake_lamps = -2 0.5 60 0.1\n", 2, "visual.brake_lamps: lamp position 60 is out of range"},
      {"lamps continued", "[visual]\nbrake_lamps = -2 0.5 0.6 0.1,\n", 2, "the lamps stay on one line"},
      {"long line", "[body]\nmass = 1000                                                                                                                                                                                                                                                 \n", 2, "line too long"},
  };
  expect_refused(cases, sizeof cases / sizeof cases[0]);
  /* Missing sections are fine: the built-in values stay. */
  grip_load_error err;
  CHECK(parse("[car]\nname = empty\n", &car_, &err) == 0);
  grip_vehicle_def builtin = grip_default_vehicle_def();
  CHECK(compare_defs(&car_.def, &builtin) == 0);
  /* Binary garbage and every truncation of a real file: no crash, a definite answer. */
  char text[4096];
  FILE *f = fopen(CARS "single-seater.ini", "rb");
  CHECK(f != NULL);
  size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
  if (f) fclose(f);
  text[n] = '\0';
  int failures = 0;
  for (size_t cut = 0; cut < n; cut += 7) {
    char saved = text[cut];
    text[cut] = '\0';
    int rc = parse(text, &car_, &err);
    if (rc != 0 && (err.message[0] == '\0' || strncmp(err.message, "t.ini", 5) != 0)) failures++;
    text[cut] = saved;
  }
  CHECK(failures == 0);
  unsigned seed = 12345;
  for (int k = 0; k < 200; ++k) {
    char junk[300];
    for (int j = 0; j < 299; ++j) {
      seed = seed * 1103515245u + 12345u;
      junk[j] = (char)(1 + (seed >> 16) % 127);
    }
    junk[299] = '\0';
    (void)parse(junk, &car_, &err);
  }
  CHECK(grip_car_load("/nonexistent/car.ini", &car_, &err) == -1 && strstr(err.message, "cannot open"));
}

/* The "can it move" rule against a hand computation on the built-in car: a flat torque curve
 * just above and just below the torque whose drive force in first gear equals the rolling
 * resistance f_tyre * 0.012 * m * g on asphalt. */
/* [axle.N] and a driveline tree: a 6×4 on the built-in car, loaded, checked and written back. */
static void test_axles_and_tree(void) {
  const char *text = "[axle.3]\nx = -2.6\n[axle.2]\nx = -1.3\nhandbrake = no\n[tyre.3]\nlat_b = 10\n"
                     "[drivetrain]\nlayout = tree\n"
                     "[diff.1]\ninputs = diff.2, diff.3\n"
                     "[diff.2]\ninputs = axle.2.left, axle.2.right\n"
                     "[diff.3]\ntype = lsd\nfront_split = 0.5\ninputs = axle.3.left, axle.3.right\n";
  grip_load_error err;
  grip_car_default(&car_);
  int rc = parse(text, &car_, &err);
  if (rc) fprintf(stderr, "6x4: %s\n", err.message);
  CHECK(rc == 0);
  const grip_vehicle_def *d = &car_.def;
  CHECK(d->axle_count == 3);
  CHECK(d->axles[2].x == -2.6 && d->axles[1].x == -1.3);
  CHECK(!d->axles[1].handbrake && d->axles[2].handbrake); /* the new axle copies the rear one */
  CHECK(d->axles[2].tyre.simple.lateral.b == 10.0 && d->axles[1].tyre.simple.lateral.b == 12.0);
  CHECK(d->drivetrain.layout == GRIP_DRIVE_TREE && d->drivetrain.diff_count == 3);
  const grip_diff_def *x = d->drivetrain.diffs;
  CHECK(x[0].inputs[0].kind == GRIP_DRIVE_INPUT_DIFF && x[0].inputs[0].index == 1);
  CHECK(x[0].inputs[1].kind == GRIP_DRIVE_INPUT_DIFF && x[0].inputs[1].index == 2);
  CHECK(x[1].inputs[0].kind == GRIP_DRIVE_INPUT_WHEEL && x[1].inputs[0].index == 2);
  CHECK(x[2].inputs[1].kind == GRIP_DRIVE_INPUT_WHEEL && x[2].inputs[1].index == 5);
  CHECK(x[0].type == GRIP_DIFF_OPEN && x[2].type == GRIP_DIFF_LIMITED_SLIP);
  CHECK(grip_vehicle_def_validate(d, NULL, 0) == GRIP_OK);
  /* written and read back: the same definition */
  CHECK(grip_car_save(&car_, TMP "-6x4.ini", NULL, &err) == 0);
  CHECK(grip_car_load(TMP "-6x4.ini", &car2_, &err) == 0);
  CHECK(compare_defs(&car_.def, &car2_.def) == 0);
  /* a three-wheeler: one front wheel, [axle.front] the shorthand of [axle.1] */
  grip_car_default(&car_);
  CHECK(parse("[axle.front]\nhalf_track = 0\n", &car_, &err) == 0);
  CHECK(car_.def.axle_count == 2 && car_.def.axles[0].half_track == 0.0);
  CHECK(grip_vehicle_def_validate(&car_.def, NULL, 0) == GRIP_OK);
}

static void test_drive_threshold(void) {
  grip_vehicle_def d = grip_default_vehicle_def();
  double radius = d.axles[1].wheel_radius; /* rear-wheel drive */
  double weight = (d.body.mass + d.fuel.mass) * 9.81;
  double f = 0.5 * (d.axles[0].tyre.rolling_resistance + d.axles[1].tyre.rolling_resistance) * 0.012;
  double torque = f * weight * radius / (d.gearbox.ratios[0] * d.gearbox.final_drive * d.gearbox.efficiency);
  CHECK(torque > 0.5 && torque < 20.0); /* a few N*m for a 1.5 t car with a 2.66 first gear */
  for (int side = 0; side < 2; ++side) {
    double t = torque * (side ? 1.01 : 0.99);
    char text[200];
    snprintf(text, sizeof text, "[engine]\ntorque = 1000:%.9g, 6000:%.9g\n", t, t);
    grip_load_error err;
    int rc = parse(text, &car_, &err);
    CHECK(side ? rc == 0 : rc == -1);
    if (!side) CHECK(strstr(err.message, "t.ini:2: engine.torque: the engine can never move the car") != NULL);
    grip_vehicle_def copy = d;
    copy.engine.curve_points = 2;
    copy.engine.curve_rpm[0] = 1000, copy.engine.curve_rpm[1] = 6000;
    copy.engine.curve_torque[0] = copy.engine.curve_torque[1] = t;
    char why[300];
    CHECK(grip_car_can_drive(&copy, why, sizeof why) == (side == 1));
  }
}

/* grip check's warnings: each fires on a car built to trigger it, none on the shipped cars. */
static void test_misbehaviour_warnings(void) {
  char w[8][200];
  const char *shipped[] = {"corvette-c5.ini", "hatchback-100kw.ini", "kart.ini", "offroad-4wd.ini",
                           "single-seater.ini"};
  for (size_t i = 0; i < sizeof shipped / sizeof shipped[0]; ++i) {
    char path[512];
    snprintf(path, sizeof path, CARS "%s", shipped[i]);
    grip_load_error err;
    CHECK(grip_car_load(path, &car_, &err) == 0);
    int n = grip_car_misbehaviour_warnings(&car_.def, w, 8);
    CHECK(n == 0);
    for (int k = 0; k < n; ++k) fprintf(stderr, "  %s: %s\n", shipped[i], w[k]);
  }
  const struct {
    const char *text, *contains;
  } cases[] = {
      {"[body]\ncg_x = 2\n", "body.cg_x: the centre of mass (x = 2 m) is not between the axles"},
      /* 40 kN/m at 1/4 of 1.5 t: 0.5/pi*sqrt(40000/370) = 1.65 Hz; 4e6 N/m gives 16.5 Hz, 1e7 26 Hz */
      {"[axle.front]\nspring_rate = 1e7\n", "axle.front.spring_rate: the corner's natural frequency is"},
      {"[tyre.rear]\nnominal_load = 500\n", "tyre.rear.nominal_load: the static wheel load"},
      /* half tracks 0.7825 m (front) and 0.7885 m (rear), interpolated at the CG (0.51 of the
       * 2.655 m wheelbase ahead of the rear axle): 0.78544 m / CG 0.9 m = 0.873 < mu 1 */
      {"[body]\ncg_z = 0.9\n", "body.cg_z: the wheels' half-width at the CG / CG height above the ground = 0.873"},
      /* one front wheel: the footprint's side runs from it to a rear wheel; sideways at the CG,
       * 0.49 of the wheelbase behind the front wheel, it is 0.7885·0.49 = 0.38637 m; / 0.45 m =
       * 0.859 (the (t/2)·(a/L) of docs/physics.md) */
      {"[axle.1]\nhalf_track = 0\nanti_roll_rate = 0\n",
       "body.cg_z: the wheels' half-width at the CG / CG height above the ground = 0.859"},
      {"[gearbox]\nupshift_rpm = 7000\n", "gearbox.upshift_rpm: 7000 rpm is not below the rev limiter"},
      {"[brakes]\nmax_torque = 1000\n", "brakes.max_torque: full braking gives at most"},
      {"[engine]\ntorque = 1000:30, 6000:30\n", "engine.torque: full throttle in first gear accelerates at most"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    grip_load_error err;
    CHECK(parse(cases[i].text, &car_, &err) == 0);
    int n = grip_car_misbehaviour_warnings(&car_.def, w, 8);
    int found = 0;
    for (int k = 0; k < n; ++k) found |= strstr(w[k], cases[i].contains) != NULL;
    if (!found) fprintf(stderr, "  warning case %zu: %d warnings, want '%s'%s%s\n", i, n, cases[i].contains,
                        n ? ", first: " : "", n ? w[0] : "");
    CHECK(found);
  }
}

/* [visual]: the model path resolves against the car file's folder, the numbers take their
 * units, a round trip keeps them, the defaults are "no model, scale 1, y up", and bad values
 * give file:line. */
static void test_visual(void) {
  grip_load_error err;
  grip_car_default(&car_);
  CHECK(car_.visual.model[0] == '\0' && car_.visual.scale == 1.0 && car_.visual.y_up);
  CHECK(parse("[car]\nname = plain\n", &car_, &err) == 0);
  CHECK(car_.visual.model[0] == '\0' && car_.visual.scale == 1.0 && car_.visual.y_up);
  const char *text = "[car]\nname = looks\n[visual]\nmodel = kart.ini\nscale = 0.01\nx = 0.25 m\ny = -0.1\n"
                     "z = 0.05\nyaw = 90 deg\npitch = -0.1 rad\nroll = 180\ny_up = no\n"
                     "brake_lamps = -2.18 0.57 0.61 0.065, -2.18 -0.57 0.61 0.065\n";
  int rc = parse(text, &car_, &err);
  if (rc) fprintf(stderr, "%s\n", err.message);
  CHECK(rc == 0);
  char want[PATH_MAX];
  CHECK(realpath(CARS "kart.ini", want) != NULL);
  CHECK(strcmp(car_.visual.model, want) == 0);
  CHECK(car_.visual.scale == 0.01 && car_.visual.offset.x == 0.25 && car_.visual.offset.y == -0.1 &&
        car_.visual.offset.z == 0.05);
  CHECK(same_bits(car_.visual.yaw, 90.0 * (3.14159265358979323846 / 180.0)));
  CHECK(car_.visual.pitch == -0.1);
  CHECK(same_bits(car_.visual.roll, 180.0 * (3.14159265358979323846 / 180.0)));
  CHECK(!car_.visual.y_up);
  CHECK(car_.visual.brake_lamp_count == 2);
  CHECK(car_.visual.brake_lamps[0].position.x == -2.18 && car_.visual.brake_lamps[0].position.y == 0.57 &&
        car_.visual.brake_lamps[0].position.z == 0.61 && car_.visual.brake_lamps[0].radius == 0.065);
  CHECK(car_.visual.brake_lamps[1].position.y == -0.57);
  /* Round trip through a file in another folder: the model path stays the same file. */
  grip_load_error werr;
  CHECK(grip_car_save(&car_, TMP "_visual.ini", NULL, &werr) == 0);
  CHECK(grip_car_load(TMP "_visual.ini", &car2_, &err) == 0);
  CHECK(strcmp(car2_.visual.model, want) == 0);
  CHECK(same_bits(car2_.visual.scale, car_.visual.scale) && same_bits(car2_.visual.offset.x, car_.visual.offset.x) &&
        same_bits(car2_.visual.offset.y, car_.visual.offset.y) && same_bits(car2_.visual.offset.z, car_.visual.offset.z));
  CHECK(same_bits(car2_.visual.yaw, car_.visual.yaw) && same_bits(car2_.visual.pitch, car_.visual.pitch) &&
        same_bits(car2_.visual.roll, car_.visual.roll) && car2_.visual.y_up == car_.visual.y_up);
  CHECK(car2_.visual.brake_lamp_count == 2);
  for (int l = 0; l < 2; ++l)
    CHECK(same_bits(car2_.visual.brake_lamps[l].position.x, car_.visual.brake_lamps[l].position.x) &&
          same_bits(car2_.visual.brake_lamps[l].position.y, car_.visual.brake_lamps[l].position.y) &&
          same_bits(car2_.visual.brake_lamps[l].position.z, car_.visual.brake_lamps[l].position.z) &&
          same_bits(car2_.visual.brake_lamps[l].radius, car_.visual.brake_lamps[l].radius));
  remove(TMP "_visual.ini");
  /* A car without a model writes no [visual] section. */
  grip_car_default(&car_);
  FILE *f = fopen(TMP "_visual.ini", "w");
  CHECK(f != NULL);
  if (f) {
    grip_car_write(&car_, f, NULL);
    fclose(f);
  }
  char *back = NULL;
  f = fopen(TMP "_visual.ini", "rb");
  if (f) {
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    back = buf;
    fclose(f);
  }
  CHECK(back && !strstr(back, "[visual]"));
  remove(TMP "_visual.ini");
  static const bad_case cases[] = {
      {"missing model", "[visual]\nscale = 1\nmodel = no-such-model.acc\n", 3, "t.ini:3: visual.model: '"},
      {"zero scale", "[visual]\nscale = 0\n", 2, "t.ini:2: visual.scale: 0 is out of range (allowed 0.0001 .. 10000 m)"},
      {"far offset", "[visual]\nz = 60\n", 2, "visual.z: 60 is out of range (allowed -50 .. 50 m)"},
      {"yaw", "[visual]\n\nyaw = 400 deg\n", 3, "visual.yaw: 400 is out of range (allowed -360 .. 360 deg)"},
      {"axes", "[visual]\ny_up = sideways\n", 2, "visual.y_up: 'sideways' is not yes or no"},
      {"twice", "[visual]\nmodel = kart.ini\nmodel = kart.ini\n", 3, "given twice (first on line 2)"},
  };
  expect_refused(cases, sizeof cases / sizeof cases[0]);
}

static void test_every_key_documented(void) {
  FILE *f = fopen(GRIP_SOURCE_DIR "/docs/car-format.md", "rb");
  CHECK(f != NULL);
  if (!f) return;
  static char doc[200000];
  size_t n = fread(doc, 1, sizeof doc - 1, f);
  fclose(f);
  doc[n] = '\0';
  const char *section, *key, *unit;
  int missing = 0;
  for (int i = 0; grip_car_key_info(i, &section, &key, &unit) == 0; ++i) {
    char pattern[128];
    snprintf(pattern, sizeof pattern, "| `%s` |", key);
    if (!strstr(doc, pattern)) {
      fprintf(stderr, "docs/car-format.md does not document [%s] %s\n", section, key);
      missing++;
    }
  }
  CHECK(missing == 0);
}

/* Trailers: [coupling] and [trailer], layout none, and [car] axles (docs/car-format.md,
 * "Trailers"). */
static void test_trailer_sections(void) {
  grip_load_error err;
  /* axles = 1: the base's second axle is dropped; axles = 3: [axle.2] and [axle.3] start as copies */
  CHECK(parse("[car]\naxles = 1\n[axle.1]\nx = 0.5\n[drivetrain]\nlayout = none\n", &car_, &err) == 0);
  CHECK(car_.def.axle_count == 1 && car_.def.axles[0].x == 0.5);
  CHECK(parse("[car]\naxles = 3\n[axle.1]\nspring_rate = 90000\n[axle.2]\nx = -1\n[axle.3]\nx = -2.3\n", &car_, &err) == 0);
  CHECK(car_.def.axle_count == 3 && car_.def.axles[1].suspension.spring_rate == 90000 &&
        car_.def.axles[2].suspension.spring_rate == 90000 && car_.def.axles[2].x == -2.3);
  CHECK(parse("[car]\naxles = 4\n[axle.2]\nx = -0.5\n[axle.3]\nx = -1\n", &car_, &err) == -1); /* 4th = copy at -1 */
  CHECK(strstr(err.message, "axles must be listed front to back") != NULL);
  /* the caravan: one axle, no engine, coupled by a ball 6 % of its weight ahead */
  char path[512];
  snprintf(path, sizeof path, CARS "caravan.ini");
  CHECK(grip_car_load(path, &car_, &err) == 0);
  CHECK(car_.def.axle_count == 1 && car_.def.drivetrain.layout == GRIP_DRIVE_NONE);
  CHECK(car_.def.coupling.enabled && !car_.coupling_fifth_wheel && car_.def.coupling.point.x == 3.7);
  double loads[GRIP_MAX_AXLES];
  CHECK(grip_vehicle_static_axle_loads(&car_.def, 9.81, loads) == 1);
  CHECK_REL(1.0 - loads[0] / (car_.def.body.mass * 9.81), 0.06, 1e-3);
  /* the combination file names it */
  snprintf(path, sizeof path, CARS "hatchback-caravan.ini");
  CHECK(grip_car_load(path, &car_, &err) == 0);
  CHECK(strstr(car_.trailer.file, "caravan.ini") != NULL && car_.trailer.tow_point.x == -2.4);
  /* a file on top of a combination moves the tow point and keeps the base's trailer */
  CHECK(parse("[car]\nbase = hatchback-caravan.ini\n[trailer]\nx = -2.5\n", &car_, &err) == 0);
  CHECK(strstr(car_.trailer.file, "caravan.ini") != NULL && car_.trailer.tow_point.x == -2.5);
  static const bad_case cases[] = {
      {"trailer without file", "[trailer]\nx = -2\n", 2, "trailer.file: missing"},
      {"trailer file missing", "[trailer]\nfile = no-such-trailer.ini\n", 2, "no such file"},
      {"trailer not coupled", "[trailer]\nfile = hatchback-100kw.ini\n", 2, "has no [coupling] section"},
      {"trailer that tows", "[trailer]\nfile = hatchback-caravan.ini\n", 2, "a trailer cannot tow another"},
      {"bad hitch", "[coupling]\nhitch = hook\n", 2, "'hook' is not a hitch (allowed: ball, fifth_wheel)"},
      {"coupling on an axle", "[coupling]\nx = 1.3275\n", 2, "at least 0.1 m ahead of or behind every axle"},
      {"axles range", "[car]\naxles = 9\n", 2, "not a whole number within 1 .. 8"},
      {"axles late", "[axle.1]\nx = 1\n[car]\naxles = 2\n", 4, "before any [axle.N]"},
      {"axles too few", "[car]\naxles = 2\n[axle.3]\nx = -3\n", 2, "2, but [axle.3]"},
      {"bad layout none", "[drivetrain]\nlayout = nothing\n", 2, "rwd, fwd, awd, tree or none"},
  };
  expect_refused(cases, sizeof cases / sizeof cases[0]);
}

int main(void) {
  RUN_TEST(test_corvette_file_is_builtin);
  RUN_TEST(test_round_trips);
  RUN_TEST(test_values_and_units);
  RUN_TEST(test_base);
  RUN_TEST(test_broken_corpus);
  RUN_TEST(test_axles_and_tree);
  RUN_TEST(test_drive_threshold);
  RUN_TEST(test_misbehaviour_warnings);
  RUN_TEST(test_visual);
  RUN_TEST(test_every_key_documented);
  RUN_TEST(test_trailer_sections);
  remove(TMP ".ini");
  remove(TMP "_derived.ini");
  return TEST_RESULT();
}
