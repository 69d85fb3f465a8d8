/* Trailers: vehicles with no engine (GRIP_DRIVE_NONE) hitched behind a towing vehicle, as the
 * shipped car files describe them (data/cars/caravan.ini behind hatchback-caravan.ini's car,
 * data/cars/semi-trailer.ini on a fifth wheel).
 *
 * Each figure is checked against one worked out another way:
 * - the load on the coupling at rest against the lever rule (one axle) or the pivot solution
 *   (three axles on separate springs), derived here by hand;
 * - a free-rolling engine-less vehicle's coast-down against the closed-form solution of
 *   m·dv/dt = −(c·v² + F0);
 * - low-speed off-tracking on a circle against the kinematic formula (trailer_offtracking);
 * - the speed above which a sway grows against the linear three-degree-of-freedom model
 *   (sim/trailer_sway.c, docs/physics.md §14) fed with the tyres' cornering stiffness at their
 *   static loads;
 * - the pull at a steady 80 km/h against the trailer's drag and rolling resistance. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "car_file.h"
#include "grip/grip.h"
#include "scene.h"
#include "scene_world.h"
#include "test.h"
#include "trailer_sway.h"

#define KMH (1.0 / 3.6)
#define PI 3.14159265358979323846
#define CARS GRIP_SOURCE_DIR "/data/cars/"

static grip_car *load_car(const char *path) {
  grip_car *car = malloc(sizeof *car);
  grip_load_error err;
  if (!car || grip_car_load(path, car, &err) != 0) {
    fprintf(stderr, "%s\n", err.message);
    free(car);
    return NULL;
  }
  return car;
}

static double yaw_of(grip_quat q) {
  return atan2(2.0 * (q.w * q.z + q.x * q.y), 1.0 - 2.0 * (q.y * q.y + q.z * q.z));
}

static double pitch_of(grip_quat q) { return asin(fmax(-1.0, fmin(1.0, 2.0 * (q.w * q.y - q.z * q.x)))); }

static double wrap(double a) {
  while (a > PI) a -= 2.0 * PI;
  while (a < -PI) a += 2.0 * PI;
  return a;
}

static void fit_circle(const double *x, const double *y, int n, double *cx, double *cy, double *r);

/* --- a towing vehicle and its trailer on a level plane ----------------------------------- */

typedef struct combination {
  grip_plane plane;
  grip_world *world;
  grip_car *tow_car, *trailer_car;
  grip_vehicle_id tow, trailer;
  grip_hitch_id hitch;
  double integral; /* speed controller */
} combination;

/* The tow from `tow_file` (a file with [trailer]) and its trailer, straight behind it at speed;
 * with `steel_springs` the tow's self-levelling is turned off. */
static bool combination_open_with(combination *c, const char *tow_file, double speed, bool steel_springs) {
  memset(c, 0, sizeof *c);
  c->tow_car = load_car(tow_file);
  if (!c->tow_car || !c->tow_car->trailer.file[0]) return false;
  if (steel_springs)
    for (int a = 0; a < c->tow_car->def.axle_count; ++a) c->tow_car->def.axles[a].suspension.levelling_time = 0.0;
  c->trailer_car = load_car(c->tow_car->trailer.file);
  if (!c->trailer_car) return false;
  grip_world_def wd = grip_default_world_def();
  c->plane = grip_slope_plane(0.0, 0.0);
  wd.ground = grip_plane_ground(&c->plane);
  c->world = grip_create_world(&wd);
  c->tow = grip_create_vehicle(c->world, &c->tow_car->def);
  c->trailer = grip_create_vehicle(c->world, &c->trailer_car->def);
  grip_vec3 ball = c->tow_car->trailer.tow_point, coupling = c->trailer_car->def.coupling.point;
  if (grip_vehicle_place(c->world, c->tow, 0.0, 0.0, 0.0) != GRIP_OK ||
      grip_vehicle_place(c->world, c->trailer, ball.x - coupling.x, 0.0, 0.0) != GRIP_OK)
    return false;
  grip_vehicle_set_velocity(c->world, c->tow, (grip_vec3){speed, 0, 0});
  grip_vehicle_set_velocity(c->world, c->trailer, (grip_vec3){speed, 0, 0});
  grip_hitch_def hd = grip_default_hitch_def();
  hd.tow = c->tow;
  hd.trailer = c->trailer;
  hd.tow_point = ball;
  hd.trailer_point = coupling;
  hd.kind = c->trailer_car->coupling_fifth_wheel ? GRIP_HITCH_FIFTH_WHEEL : GRIP_HITCH_BALL;
  c->hitch = grip_create_hitch(c->world, &hd);
  return grip_hitch_is_valid(c->world, c->hitch);
}

static bool combination_open(combination *c, const char *tow_file, double speed) {
  return combination_open_with(c, tow_file, speed, false);
}

static void combination_close(combination *c) {
  if (c->world) grip_destroy_world(c->world);
  free(c->tow_car);
  free(c->trailer_car);
}

/* The tow holds `target` (m/s) with a PI on the throttle and steers `steer`; the trailer's
 * inputs stay at their defaults (it has no engine: gear and throttle do nothing). */
static void combination_drive(combination *c, double target, double steer, double dt) {
  grip_vehicle_state s;
  grip_vehicle_get_state(c->world, c->tow, &s);
  double error = target - s.local_velocity.x;
  c->integral = fmin(3.0, fmax(-3.0, c->integral + error * dt));
  grip_vehicle_input in = grip_default_vehicle_input();
  in.throttle = fmin(1.0, fmax(0.0, 0.6 * error + 0.4 * c->integral));
  in.steering = steer;
  grip_vehicle_set_input(c->world, c->tow, &in);
}

/* --- static loads ------------------------------------------------------------------------ */

/* A hitched trailer at rest: the hitch carries the coupling load the springs were preloaded
 * for, and the trailer stands level. Caravan: the lever rule between axle and coupling, W·x_cg/
 * x_k with the axle at x = 0. */
static void coupling_load_at_rest(void) {
  combination c;
  CHECK(combination_open(&c, CARS "hatchback-caravan.ini", 0.0));
  const grip_vehicle_def *t = &c.trailer_car->def;
  double weight = t->body.mass * 9.81;
  double lever = weight * (t->body.center_of_mass.x - t->axles[0].x) / (t->coupling.point.x - t->axles[0].x);
  double loads[GRIP_MAX_AXLES];
  CHECK(grip_vehicle_static_axle_loads(t, 9.81, loads) == 1);
  CHECK_REL(weight - loads[0], lever, 1e-12);
  for (double time = 0.0; time < 4.0; time += 0.005) grip_world_step(c.world, 0.005);
  grip_hitch_state hs;
  grip_vehicle_state s;
  grip_hitch_get_state(c.world, c.hitch, &hs);
  grip_vehicle_get_state(c.world, c.trailer, &s);
  grip_wheel_state wheels[GRIP_MAX_WHEELS];
  int count = grip_vehicle_get_wheels(c.world, c.trailer, wheels, GRIP_MAX_WHEELS);
  double on_axle = 0.0;
  for (int w = 0; w < count; ++w) on_axle += wheels[w].load;
  /* The car's rear sinks under the nose load (its springs are set for it alone), so the caravan
   * pitches nose-down a little, by about the ball's drop over the drawbar. */
  printf("  caravan at rest: ball carries %.1f N (lever rule %.1f N), axle %.1f N (%.1f N), pitch %.3f deg, gap %.3g mm\n",
         hs.local_force.z, lever, on_axle, loads[0], pitch_of(s.pose.rotation) * 180.0 / PI, 1e3 * hs.gap);
  CHECK(count == 2);
  CHECK_REL(hs.local_force.z, lever, 0.04);
  CHECK_REL(on_axle, loads[0], 0.01);
  CHECK_REL(hs.local_force.z + on_axle, weight, 0.001);
  CHECK(fabs(pitch_of(s.pose.rotation)) < 1.0 * PI / 180.0);
  combination_close(&c);
}

/* Three axles on separate springs and a kingpin: the body turns about the kingpin by θ, axle a
 * carries k_a·θ·(x_k − x_a), and the moments about the kingpin balance the weight:
 * θ = W·(x_k − x_cg) / Σ k_a·(x_k − x_a)². */
static void semi_trailer_loads(void) {
  grip_car *semi = load_car(CARS "semi-trailer.ini");
  CHECK(semi != NULL);
  if (!semi) return;
  const grip_vehicle_def *d = &semi->def;
  CHECK(d->axle_count == 3 && d->coupling.enabled && semi->coupling_fifth_wheel);
  CHECK(d->drivetrain.layout == GRIP_DRIVE_NONE);
  double weight = d->body.mass * 9.81, x_k = d->coupling.point.x, sum = 0.0;
  for (int a = 0; a < 3; ++a) sum += 2.0 * d->axles[a].suspension.spring_rate * pow(x_k - d->axles[a].x, 2);
  double theta = weight * (x_k - d->body.center_of_mass.x) / sum, loads[GRIP_MAX_AXLES], total = 0.0;
  CHECK(grip_vehicle_static_axle_loads(d, 9.81, loads) == 3);
  for (int a = 0; a < 3; ++a) {
    double expect = 2.0 * d->axles[a].suspension.spring_rate * theta * (x_k - d->axles[a].x);
    CHECK_REL(loads[a], expect, 1e-12);
    total += loads[a];
  }
  /* and the kingpin carries the rest: about 41 % */
  printf("  semi-trailer: axles %.0f / %.0f / %.0f N, kingpin %.0f N (%.1f %%)\n", loads[0], loads[1], loads[2],
         weight - total, 100.0 * (1.0 - total / weight));
  CHECK(weight - total > 0.35 * weight && weight - total < 0.45 * weight);
  free(semi);
}


/* The semi-trailer on the tractor's fifth wheel, at rest: the fifth wheel carries the kingpin
 * load its springs were preloaded for (the pivot solution above), and the tractor's air-sprung
 * tandem levels itself under it back to design ride height; with steel springs instead it
 * stays sunk. */
static void semi_trailer_at_rest(void) {
  for (int steel = 0; steel < 2; ++steel) {
    combination c;
    CHECK(combination_open_with(&c, CARS "truck-6x4-semi.ini", 0.0, steel));
    const grip_vehicle_def *t = &c.trailer_car->def, *tractor = &c.tow_car->def;
    double weight = t->body.mass * 9.81, loads[GRIP_MAX_AXLES], on_axles = 0.0;
    int axles = grip_vehicle_static_axle_loads(t, 9.81, loads);
    for (int a = 0; a < axles; ++a) on_axles += loads[a];
    for (double time = 0.0; time < 30.0; time += 0.005) grip_world_step(c.world, 0.005);
    grip_hitch_state hs;
    grip_hitch_get_state(c.world, c.hitch, &hs);
    grip_wheel_state wheels[GRIP_MAX_WHEELS];
    int n = grip_vehicle_get_wheels(c.world, c.tow, wheels, GRIP_MAX_WHEELS);
    double sink = 0.0; /* the tandem's mean compression beyond design ride height */
    for (int w = 2; w < n; ++w) sink += (wheels[w].compression - tractor->axles[1 + (w - 2) / 2].suspension.droop_travel) / (n - 2);
    int m = grip_vehicle_get_wheels(c.world, c.trailer, wheels, GRIP_MAX_WHEELS);
    double trailer_axles = 0.0;
    for (int w = 0; w < m; ++w) trailer_axles += wheels[w].load;
    printf("  semi-trailer at rest, %s: fifth wheel carries %.0f N (%.0f N), trailer axles %.0f N (%.0f N), "
           "tandem %.1f mm below design, gap %.3g mm, roll error %.3g deg\n",
           steel ? "steel springs" : "levelled", hs.local_force.z, weight - on_axles, trailer_axles, on_axles,
           1e3 * sink, 1e3 * hs.gap, hs.roll_error * 180.0 / PI);
    CHECK(n == 6 && m == 6);
    CHECK_REL(hs.local_force.z, weight - on_axles, 0.03);
    CHECK_REL(trailer_axles, on_axles, 0.02);
    CHECK_REL(hs.local_force.z + trailer_axles, weight, 0.001);
    if (steel) CHECK(sink > 0.03);
    else CHECK(fabs(sink) < 0.003);
    CHECK(hs.gap < 1e-3);
    combination_close(&c);
  }
}

/* The semi-trailer's tri-axle turns about the point where its axles' scrub balances: equal axles
 * at d_i behind the kingpin with slip angles (d_i − d_c)/R give no moment about the kingpin when
 * Σ(d_i − d_c)·d_i = 0, d_c = Σd_i²/Σd_i (7.849 m; 7.7 m to the bogie's centre). At walking
 * pace that point runs on √(R_k² − d_c²), R_k the kingpin's radius. */
static void semi_trailer_offtracking(void) {
  const double dts[] = {0.002, 0.005, 0.01};
  for (int k = 0; k < 3; ++k) {
    combination c;
    CHECK(combination_open(&c, CARS "truck-6x4-semi.ini", 0.0));
    const grip_vehicle_def *t = &c.trailer_car->def;
    double sum = 0.0, sum2 = 0.0;
    for (int a = 0; a < t->axle_count; ++a) {
      double d = t->coupling.point.x - t->axles[a].x;
      sum += d, sum2 += d * d;
    }
    double d_c = sum2 / sum;
    const grip_vec3 kingpin = t->coupling.point, reference = {t->coupling.point.x - d_c, 0.0, 0.0};
    enum { SAMPLES = 400 };
    static double kx[SAMPLES], ky[SAMPLES], rx[SAMPLES], ry[SAMPLES];
    int n = 0;
    double dt = dts[k], next = 100.0;
    for (double time = 0.0; time < 120.0; time += dt) {
      combination_drive(&c, 8.0 * KMH, 0.35, dt);
      grip_world_step(c.world, dt);
      if (time >= next && n < SAMPLES) {
        grip_vehicle_state b;
        grip_vehicle_get_state(c.world, c.trailer, &b);
        grip_vec3 p = grip_pose_transform(b.pose, kingpin), q = grip_pose_transform(b.pose, reference);
        kx[n] = p.x, ky[n] = p.y, rx[n] = q.x, ry[n] = q.y;
        ++n;
        next += 0.05;
      }
    }
    double cx, cy, r_k, dx, dy, r_t;
    fit_circle(kx, ky, n, &cx, &cy, &r_k);
    fit_circle(rx, ry, n, &dx, &dy, &r_t);
    double measured = r_k - r_t, expect = r_k - sqrt(r_k * r_k - d_c * d_c);
    printf("  dt %.3f: kingpin on R %.3f m, tri-axle's turning point %.3f m: off-tracking %.4f m, kinematic %.4f m (%+.2f %%)\n",
           dt, r_k, r_t, measured, expect, 100.0 * (measured / expect - 1.0));
    CHECK(n == SAMPLES);
    CHECK_REL(measured, expect, 0.05);
    combination_close(&c);
  }
}

/* --- a vehicle with no engine ------------------------------------------------------------ */

/* A two-axle engine-less vehicle (no engine, clutch or gearbox given at all) coasting on a
 * plane from 25 m/s: m·dv/dt = −(c·v² + F0), c its drag per (m/s)², F0 = f·W, whose solution is
 * v(t) = √(F0/c)·tan(atan(v0·√(c/F0)) − t·√(c·F0)/m). Throttle and gear inputs change nothing. */
static void coasts_without_engine(void) {
  grip_vehicle_def d = grip_default_vehicle_def();
  memset(&d.engine, 0, sizeof d.engine);
  memset(&d.clutch, 0, sizeof d.clutch);
  memset(&d.gearbox, 0, sizeof d.gearbox);
  d.fuel.mass = d.fuel.capacity = 0.0;
  d.drivetrain.layout = GRIP_DRIVE_RWD;
  CHECK(grip_vehicle_def_validate(&d, NULL, 0) != GRIP_OK); /* an engine layout needs its engine */
  d.drivetrain.layout = GRIP_DRIVE_NONE;
  char why[160];
  CHECK(grip_vehicle_def_validate(&d, why, sizeof why) == GRIP_OK);
  const double dts[] = {0.001, 0.005, 0.01};
  double v_end[2] = {0};
  for (int k = 0; k < 3; ++k)
    for (int floor_it = 0; floor_it < 2; ++floor_it) {
      grip_world_def wd = grip_default_world_def();
      grip_plane plane = grip_slope_plane(0.0, 0.0);
      wd.ground = grip_plane_ground(&plane);
      grip_world *w = grip_create_world(&wd);
      grip_vehicle_id id = grip_create_vehicle(w, &d);
      CHECK(grip_vehicle_place(w, id, 0.0, 0.0, 0.0) == GRIP_OK);
      const double v0 = 25.0;
      grip_vehicle_set_velocity(w, id, (grip_vec3){v0, 0, 0});
      grip_vehicle_input in = grip_default_vehicle_input();
      if (floor_it) in.throttle = 1.0, in.gear = 5; /* no engine to listen */
      CHECK(grip_vehicle_set_input(w, id, &in) == GRIP_OK);
      double dt = dts[k], t = 0.0;
      for (; t < 10.0 - 0.5 * dt; t += dt) grip_world_step(w, dt);
      grip_vehicle_state s;
      grip_vehicle_get_state(w, id, &s);
      double mass = d.body.mass;
      double c = grip_vehicle_aero_coefficients(&d, wd.air_density, d.aero.ride_height).drag;
      double f0 = d.axles[0].tyre.rolling_resistance * grip_default_surface().rolling_resistance * mass * 9.81;
      double root = sqrt(f0 / c), v = root * tan(atan(v0 / root) - t * sqrt(c * f0) / mass);
      if (k == 0 && floor_it == 0)
        printf("  coast-down from %.0f m/s for %.0f s: %.4f m/s, closed form %.4f m/s (%+.3f %%)\n", v0, t,
               s.local_velocity.x, v, 100.0 * (s.local_velocity.x / v - 1.0));
      CHECK_REL(s.local_velocity.x, v, 0.005);
      CHECK(s.engine_rpm == 0.0 && s.engine_torque == 0.0 && s.gear == 0);
      if (k == 1) v_end[floor_it] = s.local_velocity.x;
      grip_destroy_world(w);
    }
  CHECK(v_end[0] == v_end[1]); /* bit for bit: throttle and gear did nothing */
}

/* --- off-tracking ------------------------------------------------------------------------ */

/* Least-squares circle through points (Kåsa's algebraic fit): centre and mean radius. */
static void fit_circle(const double *x, const double *y, int n, double *cx, double *cy, double *r) {
  double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0, sxz = 0, syz = 0, sz = 0;
  for (int i = 0; i < n; ++i) {
    double z = x[i] * x[i] + y[i] * y[i];
    sx += x[i], sy += y[i], sxx += x[i] * x[i], syy += y[i] * y[i], sxy += x[i] * y[i];
    sxz += x[i] * z, syz += y[i] * z, sz += z;
  }
  /* Solve [sxx sxy sx; sxy syy sy; sx sy n]·(a, b, c) = (sxz, syz, sz); centre (a/2, b/2). */
  double m[3][4] = {{sxx, sxy, sx, sxz}, {sxy, syy, sy, syz}, {sx, sy, (double)n, sz}};
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j) {
      double f = m[j][i] / m[i][i];
      for (int k = i; k < 4; ++k) m[j][k] -= f * m[i][k];
    }
  double sol[3];
  for (int i = 2; i >= 0; --i) {
    double v = m[i][3];
    for (int k = i + 1; k < 3; ++k) v -= m[i][k] * sol[k];
    sol[i] = v / m[i][i];
  }
  *cx = 0.5 * sol[0], *cy = 0.5 * sol[1];
  double sum = 0.0;
  for (int i = 0; i < n; ++i) sum += hypot(x[i] - *cx, y[i] - *cy);
  *r = sum / n;
}

/* At 8 km/h on a steady circle (both ways, three step sizes) the caravan's axle runs inside the
 * car's rear axle by R − √(R² + h² − f²) (h: ball behind the rear axle, f: ball to the trailer's
 * axle), R the rear axle centre's radius as driven. */
static void low_speed_offtracking(void) {
  const double dts[] = {0.002, 0.005, 0.01};
  for (int k = 0; k < 3; ++k)
    for (int side = -1; side <= 1; side += 2) {
      combination c;
      CHECK(combination_open(&c, CARS "hatchback-caravan.ini", 0.0));
      const grip_vehicle_def *car = &c.tow_car->def, *tr = &c.trailer_car->def;
      const grip_vec3 rear_axle = {car->axles[car->axle_count - 1].x, 0.0, 0.0}, trailer_axle = {tr->axles[0].x, 0.0, 0.0};
      double h = car->axles[car->axle_count - 1].x - c.tow_car->trailer.tow_point.x;
      double f = tr->coupling.point.x - tr->axles[0].x;
      enum { SAMPLES = 400 };
      static double rx[SAMPLES], ry[SAMPLES], tx[SAMPLES], ty[SAMPLES];
      int n = 0;
      double dt = dts[k], sample_every = 0.05, next = 60.0;
      for (double t = 0.0; t < 80.0; t += dt) {
        combination_drive(&c, 8.0 * KMH, side * 0.45, dt);
        grip_world_step(c.world, dt);
        if (t >= next && n < SAMPLES) {
          grip_vehicle_state a, b;
          grip_vehicle_get_state(c.world, c.tow, &a);
          grip_vehicle_get_state(c.world, c.trailer, &b);
          grip_vec3 p = grip_pose_transform(a.pose, rear_axle), q = grip_pose_transform(b.pose, trailer_axle);
          rx[n] = p.x, ry[n] = p.y, tx[n] = q.x, ty[n] = q.y;
          ++n;
          next += sample_every;
        }
      }
      double cx, cy, r_rear, dx, dy, r_trailer;
      fit_circle(rx, ry, n, &cx, &cy, &r_rear);
      fit_circle(tx, ty, n, &dx, &dy, &r_trailer);
      double measured = r_rear - r_trailer, expect = trailer_offtracking(r_rear, h, f);
      printf("  dt %.3f %s: rear axle on R %.3f m, caravan axle %.3f m: off-tracking %.4f m, kinematic %.4f m "
             "(%+.2f %%), centres %.3f m apart\n",
             dt, side > 0 ? "left " : "right", r_rear, r_trailer, measured, expect, 100.0 * (measured / expect - 1.0),
             hypot(cx - dx, cy - dy));
      CHECK(n == SAMPLES);
      CHECK_REL(measured, expect, 0.05);
      CHECK(hypot(cx - dx, cy - dy) < 0.05); /* one steady turn about one centre */
      combination_close(&c);
    }
}

/* --- sway: the critical speed ------------------------------------------------------------ */

/* Cornering stiffness (N/rad) of an axle of the simple tyre at a load (N): B·C·μ·Fz over the
 * axle (load sensitivity 0: the slope at zero slip is linear in the load). */
static double axle_stiffness(const grip_axle_def *axle, double load) {
  const grip_simple_mf_curve *lat = &axle->tyre.simple.lateral;
  return lat->b * lat->c * lat->mu * load;
}

/* The linear model of the combination, its tyres' stiffness at the static loads: the car's axles
 * carry its own weight by the lever rule plus the coupling load by the lever about them. */
static trailer_sway_params model_of(const combination *c) {
  const grip_vehicle_def *car = &c->tow_car->def, *tr = &c->trailer_car->def;
  const double g = 9.81;
  double m = car->body.mass + car->fuel.mass;
  double x_cg = (car->body.mass * car->body.center_of_mass.x + car->fuel.mass * car->fuel.position.x) / m;
  double xf = car->axles[0].x, xr = car->axles[1].x, x_h = c->tow_car->trailer.tow_point.x, L = xf - xr;
  double trailer_loads[GRIP_MAX_AXLES];
  grip_vehicle_static_axle_loads(tr, g, trailer_loads);
  double tongue = tr->body.mass * g - trailer_loads[0];
  double front = m * g * (x_cg - xr) / L + tongue * (x_h - xr) / L; /* x_h < xr: the ball unloads the front */
  double rear = m * g * (xf - x_cg) / L + tongue * (xf - x_h) / L;
  return (trailer_sway_params){.car_mass = m,
                               .car_yaw_inertia = car->body.inertia.z,
                               .car_cg_to_front_axle = xf - x_cg,
                               .car_cg_to_rear_axle = x_cg - xr,
                               .car_cg_to_hitch = x_cg - x_h,
                               .front_cornering_stiffness = axle_stiffness(&car->axles[0], front),
                               .rear_cornering_stiffness = axle_stiffness(&car->axles[1], rear),
                               .trailer_mass = tr->body.mass,
                               .trailer_yaw_inertia = tr->body.inertia.z,
                               .hitch_to_trailer_cg = tr->coupling.point.x - tr->body.center_of_mass.x,
                               .hitch_to_trailer_axle = tr->coupling.point.x - tr->axles[0].x,
                               .trailer_cornering_stiffness = axle_stiffness(&tr->axles[0], trailer_loads[0])};
}

/* At speed u: a short steering pulse sets the caravan swaying; the growth rate (1/s) of the
 * articulation angle's swing, from its peaks over the following 12 s (> 0: it grows). */
static double sway_growth(double u, double dt) {
  combination c;
  if (!combination_open(&c, CARS "hatchback-caravan.ini", u)) return NAN;
  double peaks[64], peak_time[64], prev = 0.0, prev2 = 0.0, t = 0.0;
  int n = 0;
  for (; t < 16.0; t += dt) {
    double steer = (t > 1.0 && t < 1.25) ? 0.03 : 0.0;
    combination_drive(&c, u, steer, dt);
    grip_world_step(c.world, dt);
    grip_vehicle_state a, b;
    grip_vehicle_get_state(c.world, c.tow, &a);
    grip_vehicle_get_state(c.world, c.trailer, &b);
    double phi = fabs(wrap(yaw_of(b.pose.rotation) - yaw_of(a.pose.rotation)));
    if (t > 3.0 && prev > prev2 && prev >= phi && n < 64) peaks[n] = prev, peak_time[n++] = t - dt;
    prev2 = prev, prev = phi;
  }
  combination_close(&c);
  if (n < 4) return NAN;
  /* least-squares slope of ln(peak) against time */
  double st = 0, sl = 0, stt = 0, stl = 0;
  for (int i = 0; i < n; ++i) {
    double l = log(peaks[i]);
    st += peak_time[i], sl += l, stt += peak_time[i] * peak_time[i], stl += peak_time[i] * l;
  }
  return (n * stl - st * sl) / (n * stt - st * st);
}

static void critical_speed(void) {
  combination c;
  CHECK(combination_open(&c, CARS "hatchback-caravan.ini", 0.0));
  trailer_sway_params p = model_of(&c);
  combination_close(&c);
  bool oscillatory = false;
  double model = trailer_sway_critical_speed(&p, 1.0, 80.0, &oscillatory);
  CHECK(model > 0.0 && oscillatory);
  const double dts[] = {0.002, 0.005, 0.01};
  for (int k = 0; k < 3; ++k) {
    double dt = dts[k];
    /* Bisect on the sign of the growth rate between 0.7 and 1.3 times the model's speed. */
    double lo = 0.7 * model, hi = 1.3 * model, g_lo = sway_growth(lo, dt), g_hi = sway_growth(hi, dt);
    printf("  dt %.3f: sway growth %.3f 1/s at %.1f km/h, %.3f 1/s at %.1f km/h\n", dt, g_lo, lo / KMH, g_hi, hi / KMH);
    CHECK(g_lo < 0.0 && g_hi > 0.0);
    for (int i = 0; i < 7 && g_lo < 0.0 && g_hi > 0.0; ++i) {
      double mid = 0.5 * (lo + hi), g = sway_growth(mid, dt);
      if (g < 0.0) lo = mid;
      else hi = mid;
    }
    double measured = 0.5 * (lo + hi);
    printf("  dt %.3f: critical speed %.1f km/h measured, %.1f km/h from the linear model (%+.1f %%)\n", dt,
           measured / KMH, model / KMH, 100.0 * (measured / model - 1.0));
    CHECK_REL(measured, model, 0.10);
  }
}

/* --- the pull at a steady 80 km/h -------------------------------------------------------- */

static void steady_pull(void) {
  const double dts[] = {0.002, 0.01};
  for (int k = 0; k < 2; ++k) {
    combination c;
    CHECK(combination_open(&c, CARS "hatchback-caravan.ini", 80.0 * KMH));
    const grip_vehicle_def *tr = &c.trailer_car->def;
    grip_world_def wd = grip_default_world_def();
    double dt = k == 0 ? dts[0] : dts[1], sum_pull = 0.0, sum_expect = 0.0;
    int n = 0;
    for (double t = 0.0; t < 30.0; t += dt) {
      combination_drive(&c, 80.0 * KMH, 0.0, dt);
      grip_world_step(c.world, dt);
      if (t < 20.0) continue;
      grip_hitch_state hs;
      grip_vehicle_state s;
      grip_wheel_state wheels[GRIP_MAX_WHEELS];
      grip_hitch_get_state(c.world, c.hitch, &hs);
      grip_vehicle_get_state(c.world, c.trailer, &s);
      int count = grip_vehicle_get_wheels(c.world, c.trailer, wheels, GRIP_MAX_WHEELS);
      double v = s.local_velocity.x, loads = 0.0;
      for (int w = 0; w < count; ++w) loads += wheels[w].load;
      double drag = grip_vehicle_aero_coefficients(tr, wd.air_density, tr->aero.ride_height).drag;
      double rolling = tr->axles[0].tyre.rolling_resistance * grip_default_surface().rolling_resistance;
      sum_expect += drag * v * v + rolling * loads;
      sum_pull += hs.local_force.x;
      ++n;
    }
    double pull = sum_pull / n, expect = sum_expect / n;
    printf("  dt %.3f: caravan at 80 km/h pulled with %.1f N, drag + rolling resistance %.1f N (%+.2f %%)\n", dt, pull,
           expect, 100.0 * (pull / expect - 1.0));
    CHECK_REL(pull, expect, 0.02);
    combination_close(&c);
  }
}

/* --- scenes ------------------------------------------------------------------------------ */

/* A scene car whose file has [trailer] brings its trailer, hitched behind it; the trailer's
 * brakes follow the car's pedal; a robot may not tow. */
static void scene_brings_trailer(void) {
  const char *text = "[scene]\nground = plane\n[car van]\nfile = " CARS "hatchback-caravan.ini\nx = 0\ny = 0\n"
                     "speed_kmh = 50\nbrake = 0.4\n";
  static grip_scene sc;
  grip_load_error err;
  CHECK(grip_scene_parse(text, "t.ini", NULL, &sc, &err) == 0);
  CHECK(sc.car_count == 2);
  CHECK(strcmp(sc.cars[1].name, "van/trailer") == 0 && sc.cars[1].tow_index == 0 && !sc.cars[1].fifth_wheel);
  CHECK_NEAR(sc.cars[1].coupling.x, 3.7, 1e-12);
  CHECK_NEAR(sc.cars[1].tow_point.x, -2.4, 1e-12);
  scene_world *sw = NULL;
  CHECK(scene_world_create(&sc, SCENE_WORLD_NO_ROBOTS, &sw, &err) == 0);
  if (sw) {
    for (int i = 0; i < 1500; ++i) scene_world_step(sw, 0.004);
    grip_vehicle_input in = grip_vehicle_get_input(sw->world, sw->cars[1].id);
    grip_vehicle_state a, b;
    grip_vehicle_get_state(sw->world, sw->cars[0].id, &a);
    grip_vehicle_get_state(sw->world, sw->cars[1].id, &b);
    printf("  scene: trailer brake %.2f (the car's 0.40), both stopped: %.3f / %.3f m/s, %.2f m apart\n", in.brake,
           a.speed, b.speed, hypot(a.pose.position.x - b.pose.position.x, a.pose.position.y - b.pose.position.y));
    CHECK(in.brake == 0.4);
    CHECK(a.speed < 0.05 && b.speed < 0.05);
    CHECK_NEAR(a.pose.position.x - b.pose.position.x, 2.4 + 3.7, 0.01);
    scene_world_destroy(sw);
  }
  const char *robot_text = "[scene]\ntrack = default\n[car van]\nfile = " CARS "hatchback-caravan.ini\ndriver = robot\n";
  CHECK(grip_scene_parse(robot_text, "r.ini", NULL, &sc, &err) == -1);
  CHECK(strstr(err.message, "robot") != NULL);
}

int main(void) {
  RUN_TEST(coupling_load_at_rest);
  RUN_TEST(semi_trailer_loads);
  RUN_TEST(semi_trailer_at_rest);
  RUN_TEST(semi_trailer_offtracking);
  RUN_TEST(coasts_without_engine);
  RUN_TEST(low_speed_offtracking);
  RUN_TEST(critical_speed);
  RUN_TEST(steady_pull);
  RUN_TEST(scene_brings_trailer);
  return TEST_RESULT();
}
