/* TORCS import: a hand-written category + car (+ setup) in TORCS's format, checked field by field
 * against SI values computed by hand from the mapping in docs/car-format.md; bad input; and the
 * real car1-trb1 when Debian's torcs-data is installed. */
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include "manoeuvre.h"
#include "test.h"
#include "torcs_car.h"

#define FIX GRIP_SOURCE_DIR "/tests/data/torcs/cars/fixcar"
#define DEG (3.14159265358979323846 / 180.0)
#define LBS_IN (0.45359237 / 0.0254) /* TORCS's lbs/in: 17.857967 N/m */

static grip_car car;

static void test_fixture_fields(void) {
  grip_load_error err;
  int rc = grip_torcs_load_path(FIX, NULL, &car, &err);
  if (rc) fprintf(stderr, "%s\n", err.message);
  CHECK(rc == 0);
  if (rc) return;
  const grip_vehicle_def *d = &car.def;
  CHECK(strcmp(car.name, "fixcar") == 0);
  /* Car: the car's 1200 kg overrides the category's 1000; wheelbase 1.5 + 1.3 = 2.8 m. */
  CHECK_NEAR(d->body.mass, 1200, 0);
  CHECK_NEAR(d->body.center_of_mass.x, 0.1, 1e-12);   /* −1.3 + 0.5·2.8 */
  CHECK_NEAR(d->body.center_of_mass.y, 0.0, 1e-12);
  CHECK_NEAR(d->body.center_of_mass.z, 0.3, 0);
  CHECK_NEAR(d->body.inertia.x, 500, 1e-9);   /* 1200·(2² + 1²)/12 */
  CHECK_NEAR(d->body.inertia.y, 1700, 1e-9);  /* 1200·(4² + 1²)/12 */
  CHECK_NEAR(d->body.inertia.z, 2000, 1e-9);  /* 1200·(4² + 2²)/12 */
  CHECK_NEAR(d->body.dimensions.x, 4.0, 0);
  /* The collision box spans floor (ride height 0.11 m, below) to roof (1 m): inertia above keeps
   * the full-height box. */
  CHECK_NEAR(d->body.dimensions.z, 1.0 - 0.11, 1e-12);
  CHECK_NEAR(d->body.box_center.z, 0.5 * (1.0 + 0.11), 1e-12);
  CHECK_NEAR(d->fuel.capacity, 80, 0);
  CHECK_NEAR(d->fuel.mass, 50, 0);
  CHECK_NEAR(d->fuel.position.x, 0.1, 1e-12);
  /* Aero: Cx from the car (0.35, not the category's 0.40). TORCS's lift is Clift·v²·hm (no
   * ½ρA): CL = −Clift/(0.645·A) = −0.3/1.29, −0.4/1.29, with TORCS's ground effect hm =
   * 2·exp(−3·(1.5·Σh)⁴) as gain 2, height 1/(6·3^¼) = 0.12663928 m; ride height the mean of
   * the wheels' 100 and 120 mm. Wings: TORCS's 4·1.23·A·sin(a) downforce as grip's
   * 4·1.29·A'·sin(a)·cos(a): A' = A·1.23/(1.29·cos a) = 0.19363949, 0.49356190 m². */
  CHECK_NEAR(d->aero.drag_coefficient, 0.35, 0);
  CHECK_NEAR(d->aero.frontal_area, 2.0, 0);
  CHECK_NEAR(d->aero.lift_coefficient_front, -0.23255814, 1e-8);
  CHECK_NEAR(d->aero.lift_coefficient_rear, -0.31007752, 1e-8);
  CHECK_NEAR(d->aero.ground_effect_gain, 2.0, 0);
  CHECK_NEAR(d->aero.ground_effect_height, 0.12663928, 1e-8);
  CHECK_NEAR(d->aero.ride_height, 0.11, 1e-12);
  CHECK(d->aero.wing_count == 2);
  CHECK_NEAR(d->aero.wings[0].area, 0.19363949, 1e-8);
  CHECK_NEAR(d->aero.wings[1].area, 0.49356190, 1e-8);
  /* Downforce at rest as TORCS computes it: (0.3 + 0.4)·2·exp(−3·(1.5·0.44)⁴) +
   * 4·1.23·(0.2·sin 10° + 0.5·sin 15°) = 1.59990 N/(m/s)². */
  grip_aero_coefficients ac = grip_vehicle_aero_coefficients(d, 1.29, d->aero.ride_height);
  CHECK_NEAR(ac.downforce_front + ac.downforce_rear, 1.5999006, 1e-6);
  CHECK_NEAR(d->aero.wings[0].angle, 0.17453292519943295, 1e-15); /* 10° */
  CHECK_NEAR(d->aero.wings[0].x, 2.0, 0);
  CHECK_NEAR(d->aero.wings[1].angle, 0.26179938779914941, 1e-15); /* 15° */
  CHECK_NEAR(d->aero.wings[1].z, 1.0, 0);
  /* Engine: 3 points; limiter from the car, tickover from the category; inertia 0.15 + clutch 0.1. */
  CHECK(d->engine.curve_points == 3);
  CHECK_NEAR(d->engine.curve_rpm[1], 4000, 0);
  CHECK_NEAR(d->engine.curve_torque[1], 300, 0);
  CHECK_NEAR(d->engine.curve_torque[2], 250, 0);
  CHECK_NEAR(d->engine.rev_limit_rpm, 7500, 0);
  CHECK_NEAR(d->engine.idle_rpm, 1000, 0);
  CHECK_NEAR(d->engine.inertia, 0.25, 1e-15);
  /* TORCS simuv2 burns 0.75·(Tq + K)·ω·cons·1e-7 (engine.cpp), K its engine-brake torque: at full
   * throttle at the power peak (4000 rpm, 300 N·m: 8000 rpm is past the 7500 rpm limiter), with
   * TORCS's defaults brake coefficient 0.33 and revs maxi 1000 rad/s = 9549.2966 rpm,
   * K/Tq = 0.33·(0.1 + 0.9·4000/9549.2966) = 0.157407, so 0.75·1.157407·1.2e-7 = 1.041667e-7 kg/J. */
  CHECK_NEAR(d->engine.fuel_per_joule, 1.0416667e-7, 1e-13);
  CHECK_NEAR(d->clutch.max_torque, 450, 1e-12); /* 1.5 × 300 */
  CHECK_NEAR(d->clutch.engage_rpm, 2000, 0);
  /* Gearbox: reverse |−3|, three gears, shift time from the category, efficiency 1 (simuv2
   * applies the gears' 0.95, 0.97, 0.96 and the differential's 0.9 to reflected inertia only,
   * never to the drive torque), final drive = rear differential 4.0. */
  CHECK(d->gearbox.forward_gears == 3);
  CHECK_NEAR(d->gearbox.ratios[0], 3.0, 0);
  CHECK_NEAR(d->gearbox.ratios[2], 1.0, 0);
  CHECK_NEAR(d->gearbox.reverse_ratio, 3.0, 0);
  CHECK_NEAR(d->gearbox.shift_time, 0.3, 0);
  CHECK_NEAR(d->gearbox.efficiency, 1.0, 0);
  CHECK_NEAR(d->gearbox.final_drive, 4.0, 0);
  CHECK(d->drivetrain.layout == GRIP_DRIVE_RWD);
  CHECK(d->drivetrain.rear.type == GRIP_DIFF_LIMITED_SLIP);
  CHECK_NEAR(d->drivetrain.rear.locking_coefficient, 0.6, 1e-12); /* (0.8 − 0.2)/(0.8 + 0.2) */
  /* Brakes: 10 MPa; front wheel 1e7·40e-4·0.4·0.15 = 2400 N·m, rear 1e7·20e-4·0.4·0.125 = 1000;
   * total 0.6·4800 + 0.4·2000 = 3680, bias 2880/3680. */
  CHECK_NEAR(d->brakes.max_torque, 3680, 1e-9);
  CHECK_NEAR(d->brakes.front_bias, 0.78260869565217391, 1e-12);
  CHECK_NEAR(d->brakes.handbrake_torque, 1000, 1e-9);
  /* Steering: 20° at the road wheels × ratio 16. */
  CHECK_NEAR(d->steering.max_wheel_angle / d->steering.ratio, 0.3490658503988659, 1e-15);
  /* Axles and wheels. */
  const grip_axle_def *f = &d->axles[0], *r = &d->axles[1];
  CHECK_NEAR(f->x, 1.5, 0);
  CHECK_NEAR(r->x, -1.3, 0);
  CHECK_NEAR(f->half_track, 0.8, 1e-15);
  CHECK_NEAR(r->half_track, 0.78, 1e-15);
  CHECK_NEAR(f->wheel_radius, 0.31715, 1e-12);  /* 17 in/2 = 0.2159 + 0.225·0.45 */
  CHECK_NEAR(r->wheel_radius, 0.3306, 1e-12);   /* 18 in/2 = 0.2286 + 0.255·0.40 */
  CHECK_NEAR(f->wheel_width, 0.225, 1e-15);
  CHECK_NEAR(f->wheel_inertia, 1.01, 1e-12);    /* 1.0 + 0.02/2 */
  CHECK_NEAR(r->wheel_inertia, 1.22, 1e-12);    /* 1.2 + 0.04/2 */
  /* Tyres: C = 2 − asin(0.8)·2/π = 1.4096655, B = 25/C = 17.734697; rear C = 2 − asin(0.9)·2/π
   * = 1.2871326, B = 20/C = 15.538415, E 0.6; front E the default 0.7. */
  CHECK_NEAR(f->tyre.simple.lateral.c, 1.4096655, 1e-7);
  CHECK_NEAR(f->tyre.simple.lateral.b, 17.734697, 1e-5);
  CHECK_NEAR(f->tyre.simple.longitudinal.b, 17.734697, 1e-5);
  CHECK_NEAR(f->tyre.simple.lateral.e, 0.7, 0);
  /* Friction: TORCS's mu·(1 + 0.05·sin(−18·camber)), front camber −3°: 1.3·1.0404508 =
   * 1.3525861; rear no camber: 1.4. Load sensitivity: the line through TORCS's load factor at
   * the operating load (1) and at twice it, lf_min + (lf_max − lf_min)·((1 − lf_min)/(lf_max −
   * lf_min))²: front defaults 0.8/1.6 → 0.85, sensitivity 0.15 at 1.2 × the static load
   * 1200·9.80665/4 = 2941.995 N → 3530.394 N; rear 0.7/1.8 → 0.78181818, sensitivity
   * 0.21818182 at its given 4000 N. */
  CHECK_NEAR(f->tyre.simple.lateral.mu, 1.3525861, 1e-7);
  CHECK_NEAR(f->tyre.simple.longitudinal.mu, 1.3525861, 1e-7);
  CHECK_NEAR(f->tyre.simple.nominal_load, 3530.394, 1e-3);
  CHECK_NEAR(f->tyre.simple.load_sensitivity, 0.15, 1e-12);
  CHECK_NEAR(r->tyre.simple.nominal_load, 4000.0, 1e-9);
  CHECK_NEAR(r->tyre.simple.load_sensitivity, 0.21818182, 1e-8);
  CHECK_NEAR(r->tyre.simple.lateral.c, 1.2871326, 1e-7);
  CHECK_NEAR(r->tyre.simple.lateral.b, 15.538415, 1e-5);
  CHECK_NEAR(r->tyre.simple.longitudinal.e, 0.6, 0);
  CHECK_NEAR(r->tyre.simple.longitudinal.mu, 1.4, 0);
  CHECK_NEAR(f->tyre.rolling_resistance, 1.25, 1e-12); /* 0.015/0.012 */
  CHECK_NEAR(r->tyre.rolling_resistance, 1.0, 1e-12);
  /* Suspension: wheel rate = K·b²: 5000 lbs/in = 89289.84 N/m × 1.44 = 128577.37 N/m;
   * travel 0.2/1.2 = 0.1667: droop 0.08333, bump 0.08333 − 0.010/1.2 = 0.075. */
  CHECK_NEAR(f->suspension.spring_rate, 128577.37, 0.01);
  CHECK_NEAR(f->suspension.droop_travel, 0.2 / 2.4, 1e-12);
  CHECK_NEAR(f->suspension.bump_travel, 0.075, 1e-12);
  CHECK_NEAR(f->suspension.bump_damping, 100 * LBS_IN * 1.44, 1e-6);   /* 2571.55 */
  CHECK_NEAR(f->suspension.rebound_damping, 5143.09, 0.01);
  CHECK_NEAR(f->suspension.bump_stop_rate, 1285773.7, 0.1);
  CHECK_NEAR(r->suspension.spring_rate, 71431.87, 0.01);               /* 4000 lbs/in */
  CHECK_NEAR(r->suspension.bump_travel, 0.075, 1e-12);
  CHECK_NEAR(r->suspension.rebound_damping, 4464.49, 0.01);            /* 250 lbs/in/s */
  CHECK_NEAR(f->suspension.anti_roll_rate, 35715.93, 0.01);            /* 2000 lbs/in */
  CHECK_NEAR(r->suspension.anti_roll_rate, 17857.97, 0.01);
  CHECK(grip_vehicle_def_validate(d, NULL, 0) == GRIP_OK);
}

static void test_setup_and_category(void) {
  grip_load_error err;
  int rc = grip_torcs_load(FIX "/fixcar.xml", NULL, FIX "/setup.xml", &car, &err);
  if (rc) fprintf(stderr, "%s\n", err.message);
  CHECK(rc == 0);
  CHECK_NEAR(car.def.fuel.mass, 30, 0);                             /* setup overrides 50 l */
  CHECK_NEAR(car.def.aero.wings[1].angle, 5 * DEG, 1e-15);          /* and 15° */
  CHECK_NEAR(car.def.aero.wings[0].angle, 10 * DEG, 1e-15);         /* untouched */
  /* Without its category the car keeps grip's value for what only the category gives. */
  rc = grip_torcs_load(FIX "/fixcar.xml", FIX "/setup.xml", NULL, &car, &err); /* setup as "category" */
  CHECK(rc == 0);
  CHECK_NEAR(car.def.gearbox.shift_time, 0.2, 0); /* the built-in car's, not the category's 0.3 */
}

static void test_bad_input(void) {
  grip_load_error err;
  car.def.body.mass = 4242;
  CHECK(grip_torcs_load_path(FIX "/broken.xml", NULL, &car, &err) == -1);
  CHECK(strstr(err.message, "broken.xml:4: Car/mass: 'heavy' is not a number") != NULL);
  CHECK(car.def.body.mass == 4242);
  CHECK(grip_torcs_load_path(FIX "/nothere.xml", NULL, &car, &err) == -1);
  CHECK(err.message[0] != '\0');
  CHECK(grip_torcs_load_path(FIX "/wheels.xml", NULL, &car, &err) == -1); /* not a params document */
  CHECK(grip_torcs_load_named("no/such", NULL, &car, &err) == -1);

  /* A missing included file (external entity) is refused, as TORCS refuses it, not ignored. */
  {
    const char *path = GRIP_BINARY_DIR "/entity_car.xml";
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f) {
      fprintf(f, "<?xml version=\"1.0\"?>\n<!DOCTYPE params [<!ENTITY w SYSTEM \"nothere.xml\">]>\n"
                 "<params name=\"c\">&w;</params>\n");
      fclose(f);
      car.def.body.mass = 4242;
      CHECK(grip_torcs_load(path, FIX "/../../categories/fixcat.xml", NULL, &car, &err) == -1);
      CHECK(strstr(err.message, "entity_car.xml: XML: failed to load external entity") != NULL);
      CHECK(strstr(err.message, "nothere.xml") != NULL);
      CHECK(car.def.body.mass == 4242);
    }
  }

  /* Non-physical magnitudes and an engine that cannot move the car, given in a setup file on
   * top of the fixture: refused at the setup file's line, the output untouched. */
  const struct {
    const char *body, *message;
  } bad[] = {
      {"<section name=\"Car\">\n<attnum name=\"mass\" unit=\"kg\" val=\"1e300\"/>\n</section>",
       "bad_setup.xml:4: Car/mass: 1e+300 kg is out of range (allowed 1 .. 1e+06 kg)"},
      {"<section name=\"Front Left Wheel\">\n<attnum name=\"mu\" val=\"0\"/>\n</section>",
       "bad_setup.xml:4: Front Left Wheel/mu: 0 is out of range (allowed 0.05 .. 10)"},
      {"<section name=\"Rear Right Wheel\">\n<attnum name=\"rim diameter\" unit=\"in\" val=\"400\"/>\n</section>",
       "bad_setup.xml:4: Rear Right Wheel/rim diameter: 10.16 m is out of range (allowed 0.05 .. 5 m)"},
      {"<section name=\"Engine\">\n<attnum name=\"revs limiter\" unit=\"rpm\" val=\"1e9\"/>\n</section>",
       "bad_setup.xml:4: Engine/revs limiter: 1e+09 rpm is out of range (allowed 500 .. 30000 rpm)"},
      {"<section name=\"Engine\"><section name=\"data points\">\n"
       "<section name=\"1\"><attnum name=\"Tq\" unit=\"N.m\" val=\"0\"/></section>\n"
       "<section name=\"2\"><attnum name=\"Tq\" unit=\"N.m\" val=\"0\"/></section>\n"
       "<section name=\"3\"><attnum name=\"Tq\" unit=\"N.m\" val=\"0\"/></section>\n"
       "</section></section>",
       "bad_setup.xml:4: Engine/data points: the engine's torque curve is zero everywhere"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
    const char *path = GRIP_BINARY_DIR "/bad_setup.xml";
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) continue;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<params name=\"setup\" type=\"template\">\n%s\n</params>\n",
            bad[i].body);
    fclose(f);
    car.def.body.mass = 4242;
    CHECK(grip_torcs_load(FIX "/fixcar.xml", NULL, path, &car, &err) == -1);
    int ok = strstr(err.message, bad[i].message) != NULL;
    if (!ok) fprintf(stderr, "  got '%s', want '%s'\n", err.message, bad[i].message);
    CHECK(ok);
    CHECK(car.def.body.mass == 4242);
  }
}

static void test_real_car1_trb1(void) {
  struct stat st;
  if (stat(GRIP_TORCS_DATA_DIR "/cars/car1-trb1/car1-trb1.xml", &st) != 0) {
    printf("  SKIPPED: torcs-data not installed (no %s/cars/car1-trb1)\n", GRIP_TORCS_DATA_DIR);
    return;
  }
  grip_load_error err;
  int rc = grip_torcs_load_named("car1-trb1", NULL, &car, &err);
  if (rc) fprintf(stderr, "%s\n", err.message);
  CHECK(rc == 0);
  if (rc) return;
  /* Published in the files: 1150 kg + 94 l of fuel, 6 gears, RWD, 9152 rpm limiter, peak torque
   * 483 N·m at 8000 rpm. */
  CHECK_NEAR(car.def.body.mass, 1150, 0);
  CHECK_NEAR(car.def.fuel.mass, 94, 0);
  CHECK(car.def.gearbox.forward_gears == 6);
  CHECK(car.def.drivetrain.layout == GRIP_DRIVE_RWD);
  CHECK_NEAR(car.def.engine.rev_limit_rpm, 9152, 0);
  /* Its two brake lamps (Graphic Objects/Light/1 and 2, type brake2: xpos -2.18, ypos ±0.57,
   * zpos 0.61, size 0.13 = the diameter); the rear, head and reverse lamps are left out. */
  CHECK(car.visual.brake_lamp_count == 2);
  CHECK_NEAR(car.visual.brake_lamps[0].position.x, -2.18, 0);
  CHECK_NEAR(car.visual.brake_lamps[0].position.y, 0.57, 0);
  CHECK_NEAR(car.visual.brake_lamps[1].position.y, -0.57, 0);
  CHECK_NEAR(car.visual.brake_lamps[1].position.z, 0.61, 0);
  CHECK_NEAR(car.visual.brake_lamps[1].radius, 0.065, 0);
  accel_result a = sim_accel(&car.def, 0.002, 120.0, 0.05);
  printf("  car1-trb1: 0-100 %.2f s, top %.1f km/h\n", a.t_0_100_s, a.top_speed_kmh);
  /* ~400 kW for 1244 kg: the power bound is ½·1244·27.8²/(400e3·0.86) ≈ 1.4 s and a GT car of
   * this class does 0-100 in 3-5 s; top speed 250-330 km/h. */
  CHECK(a.t_0_100_s > 2.5 && a.t_0_100_s < 6.0);
  CHECK(a.top_speed_kmh > 250 && a.top_speed_kmh < 330);
  /* The tyre force against simuv2's wheel.cpp for a robot (semi-pro: skid factor 0.3), its
   * front tyre (stiffness 20, dynamic friction 0.8, elasticity 0.7, mu 1.6, camber −4°) at its
   * operating load, where TORCS's load factor is 1: F = Fz·mu·(1 + 0.05·sin(18·4°))·
   * sin(C·atan(B·s·(1 − E) + E·atan(B·s)))·(1 + 0.3·s), C = 2 − asin(0.8)·2/π, B = 20/C, with
   * s the slip ratio (a pure longitudinal slip is the same number in both). */
  const grip_simple_mf_def *front = &car.def.axles[0].tyre.simple;
  CHECK_NEAR(front->longitudinal.slide_gain, 0.3, 0);
  CHECK_NEAR(front->lateral.slide_gain, 0.3, 0);
  double c = 2.0 - asin(0.8) * 2.0 / 3.14159265358979323846, b = 20.0 / c;
  double mu = 1.6 * (1.0 + 0.05 * sin(18.0 * 4.0 * 3.14159265358979323846 / 180.0));
  const double slips[] = {0.05, 0.263, 0.5, 1.0};
  for (size_t i = 0; i < sizeof slips / sizeof slips[0]; ++i) {
    double sx = slips[i], bs = b * sx;
    double torcs = front->nominal_load * mu * sin(c * atan(bs * (1.0 - 0.7) + 0.7 * atan(bs))) * (1.0 + 0.3 * sx);
    grip_tyre_input in = {.fz = front->nominal_load, .kappa = sx, .vx = 30.0, .friction_scale = 1.0};
    grip_tyre_output out;
    grip_simple_mf_evaluate(front, &in, &out);
    CHECK_REL(out.fx, torcs, 1e-6);
  }
}

/* The range checks accept every car of Debian's torcs-data (each loads and can move). */
static void test_every_installed_car(void) {
  DIR *d = opendir(GRIP_TORCS_DATA_DIR "/cars");
  CHECK(d != NULL);
  if (!d) return;
  int loaded = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    grip_load_error err;
    int rc = grip_torcs_load_named(e->d_name, NULL, &car, &err);
    if (rc) fprintf(stderr, "  %s: %s\n", e->d_name, err.message);
    CHECK(rc == 0);
    loaded += rc == 0;
  }
  closedir(d);
  CHECK(loaded >= 10);
  printf("  %d TORCS cars load\n", loaded);
}

int main(void) {
  RUN_TEST(test_fixture_fields);
  RUN_TEST(test_setup_and_category);
  RUN_TEST(test_bad_input);
  struct stat st;
  if (stat(GRIP_TORCS_DATA_DIR "/cars/car1-trb1", &st) != 0) {
    int rc = TEST_RESULT();
    if (rc) return rc;
    TEST_SKIP("torcs-data not installed: the real car1-trb1 was not checked");
  }
  RUN_TEST(test_real_car1_trb1);
  RUN_TEST(test_every_installed_car);
  return TEST_RESULT();
}
