/* The driveline as a tree of differentials (GRIP_DRIVE_TREE).
 *
 * - The layouts are shorthands for trees: the same car with RWD, FWD or AWD and with the tree
 *   each stands for gives bit-identical runs (state hash after 4 s of full throttle, steering).
 * - 6×4: a three-axle vehicle whose two rear axles are driven through an inter-axle
 *   differential. With open differentials every driven wheel gets the same torque (an open
 *   differential splits its input torque evenly whatever the speeds: the torque balance of its
 *   spider gears), the front wheels none.
 * - 8×8: sixteen wheels through fifteen open differentials; each wheel gets 1/16 of the output.
 * - A locked inter-axle differential holds the two tandem axles' mean speeds together when one
 *   axle stands on ice; the open one lets that axle spin up.
 * - Bad trees are refused with the field and what is wrong. */
#include <string.h>

#include "grip/grip.h"
#include "test.h"

static grip_world *flat_world(void) {
  grip_world_def wd = grip_default_world_def();
  return grip_create_world(&wd);
}

/* A world with vehicle d on flat ground at rest at the origin, full throttle set. */
static grip_world *full_throttle(const grip_vehicle_def *d, grip_vehicle_id *id) {
  grip_world *w = flat_world();
  *id = grip_create_vehicle(w, d);
  CHECK(id->index != 0);
  grip_vehicle_place(w, *id, 0, 0, 0);
  grip_vehicle_input in = grip_default_vehicle_input();
  in.throttle = 1.0;
  grip_vehicle_set_input(w, *id, &in);
  return w;
}

static grip_diff_def open_diff(grip_drive_input a, grip_drive_input b, double split) {
  grip_diff_def d = grip_default_vehicle_def().drivetrain.front;
  d.type = GRIP_DIFF_OPEN;
  d.front_split = split;
  d.inputs[0] = a;
  d.inputs[1] = b;
  return d;
}

static grip_drive_input wheel(int i) { return (grip_drive_input){GRIP_DRIVE_INPUT_WHEEL, i}; }
static grip_drive_input diff(int k) { return (grip_drive_input){GRIP_DRIVE_INPUT_DIFF, k}; }

/* Hash after 4 s: full throttle, a steering input after 1 s. */
static uint64_t run_hash(const grip_vehicle_def *d) {
  grip_vehicle_id id;
  grip_world *w = full_throttle(d, &id);
  for (int k = 0; k < 2000; ++k) {
    if (k == 500) {
      grip_vehicle_input in = grip_vehicle_get_input(w, id);
      in.steering = 0.2;
      grip_vehicle_set_input(w, id, &in);
    }
    grip_world_step(w, 0.002);
  }
  uint64_t h = grip_world_state_hash(w);
  grip_destroy_world(w);
  return h;
}

static void layouts_are_shorthands_for_trees(void) {
  grip_vehicle_def base = grip_default_vehicle_def();
  base.drivetrain.rear.type = GRIP_DIFF_LIMITED_SLIP; /* the Corvette's */
  /* RWD */
  grip_vehicle_def tree = base;
  tree.drivetrain.layout = GRIP_DRIVE_TREE;
  tree.drivetrain.diff_count = 1;
  tree.drivetrain.diffs[0] = base.drivetrain.rear;
  tree.drivetrain.diffs[0].front_split = 0.5;
  tree.drivetrain.diffs[0].inputs[0] = wheel(2);
  tree.drivetrain.diffs[0].inputs[1] = wheel(3);
  uint64_t a = run_hash(&base), b = run_hash(&tree);
  printf("  RWD %016llx, its tree %016llx\n", (unsigned long long)a, (unsigned long long)b);
  CHECK(a == b);
  /* FWD */
  grip_vehicle_def fwd = base;
  fwd.drivetrain.layout = GRIP_DRIVE_FWD;
  tree.drivetrain.diffs[0] = fwd.drivetrain.front;
  tree.drivetrain.diffs[0].front_split = 0.5;
  tree.drivetrain.diffs[0].inputs[0] = wheel(0);
  tree.drivetrain.diffs[0].inputs[1] = wheel(1);
  CHECK(run_hash(&fwd) == run_hash(&tree));
  /* AWD with a viscous centre: the centre over the two axle differentials */
  grip_vehicle_def awd = base;
  awd.drivetrain.layout = GRIP_DRIVE_AWD;
  awd.drivetrain.centre.type = GRIP_DIFF_VISCOUS;
  tree.drivetrain.diff_count = 3;
  tree.drivetrain.diffs[0] = awd.drivetrain.centre;
  tree.drivetrain.diffs[0].inputs[0] = diff(1);
  tree.drivetrain.diffs[0].inputs[1] = diff(2);
  tree.drivetrain.diffs[1] = awd.drivetrain.front;
  tree.drivetrain.diffs[1].front_split = 0.5;
  tree.drivetrain.diffs[1].inputs[0] = wheel(0);
  tree.drivetrain.diffs[1].inputs[1] = wheel(1);
  tree.drivetrain.diffs[2] = awd.drivetrain.rear;
  tree.drivetrain.diffs[2].front_split = 0.5;
  tree.drivetrain.diffs[2].inputs[0] = wheel(2);
  tree.drivetrain.diffs[2].inputs[1] = wheel(3);
  a = run_hash(&awd);
  b = run_hash(&tree);
  printf("  AWD %016llx, its tree %016llx\n", (unsigned long long)a, (unsigned long long)b);
  CHECK(a == b);
  /* and a different tree (the split changed) gives a different run: the test can tell */
  tree.drivetrain.diffs[0].front_split = 0.3;
  CHECK(run_hash(&tree) != a);
}

/* The default car with two rear axles (x_mid, x_rear), driven 6×4 through an inter-axle
 * differential of the given type. */
static grip_vehicle_def six_by_four(grip_diff_type inter_axle) {
  grip_vehicle_def d = grip_default_vehicle_def();
  d.axle_count = 3;
  d.axles[2] = d.axles[1];
  d.axles[1].x = -0.7;
  d.axles[2].x = -2.0;
  d.axles[1].handbrake = false;
  d.body.dimensions.x = 6.0;
  d.drivetrain.layout = GRIP_DRIVE_TREE;
  d.drivetrain.diff_count = 3;
  d.drivetrain.diffs[0] = open_diff(diff(1), diff(2), 0.5);
  d.drivetrain.diffs[0].type = inter_axle;
  d.drivetrain.diffs[1] = open_diff(wheel(2), wheel(3), 0.5);
  d.drivetrain.diffs[2] = open_diff(wheel(4), wheel(5), 0.5);
  return d;
}

static void six_by_four_shares_torque_evenly(void) {
  grip_vehicle_def d = six_by_four(GRIP_DIFF_OPEN);
  grip_vehicle_id id;
  grip_world *w = full_throttle(&d, &id);
  grip_wheel_state wh[GRIP_MAX_WHEELS];
  grip_vehicle_state s;
  double worst = 0.0, most = 0.0;
  for (int k = 0; k < 1500; ++k) {
    grip_world_step(w, 0.002);
    grip_vehicle_get_state(w, id, &s);
    int n = grip_vehicle_get_wheels(w, id, wh, GRIP_MAX_WHEELS);
    CHECK(n == 6);
    if (s.shifting) continue;
    double t = wh[2].drive_torque;
    for (int i = 2; i < 6; ++i) worst = fmax(worst, fabs(wh[i].drive_torque - t));
    most = fmax(most, t);
    CHECK(wh[0].drive_torque == 0.0 && wh[1].drive_torque == 0.0);
  }
  printf("  6x4 open: largest difference between the driven wheels' torques %.2e N*m; 3 s: %.1f km/h\n", worst,
         3.6 * s.speed);
  CHECK(worst <= 1e-9 * 4000.0);
  CHECK(most > 300.0); /* driven: N·m per wheel under full throttle in first gear */
  CHECK(s.speed > 10.0);
  grip_destroy_world(w);
}

static void eight_by_eight(void) {
  grip_vehicle_def d = grip_default_vehicle_def();
  d.axle_count = 8;
  d.body.dimensions.x = 12.0;
  d.body.mass = 8000.0;
  d.body.inertia = (grip_vec3){0, 0, 0}; /* from the box */
  for (int a = 0; a < 8; ++a) {
    d.axles[a] = grip_default_vehicle_def().axles[a < 2 ? 0 : 1];
    d.axles[a].x = 5.0 - 1.4 * a;
    d.axles[a].suspension.spring_rate = 60000.0;
    d.axles[a].suspension.bump_stop_rate = 600000.0;
    d.axles[a].steer_ratio = a == 0 ? 1.0 : a == 1 ? 0.7 : 0.0;
    d.axles[a].handbrake = a >= 6;
    d.axles[a].tyre.simple.nominal_load = 5000.0;
  }
  d.body.center_of_mass.x = 0.1;
  d.body.box_center.x = 0.1;
  d.gearbox.final_drive = 8.0;
  d.clutch.max_torque = 1400.0;
  /* fifteen differentials: diff k joins diffs 2k+1 and 2k+2; diffs 7..14 the axles */
  d.drivetrain.layout = GRIP_DRIVE_TREE;
  d.drivetrain.diff_count = 15;
  for (int k = 0; k < 7; ++k) d.drivetrain.diffs[k] = open_diff(diff(2 * k + 1), diff(2 * k + 2), 0.5);
  for (int a = 0; a < 8; ++a) d.drivetrain.diffs[7 + a] = open_diff(wheel(2 * a), wheel(2 * a + 1), 0.5);
  char why[160];
  CHECK(grip_vehicle_def_validate(&d, why, sizeof why) == GRIP_OK);
  if (why[0]) printf("  %s\n", why);
  grip_vehicle_id id;
  grip_world *w = full_throttle(&d, &id);
  for (int k = 0; k < 1500; ++k) grip_world_step(w, 0.002);
  grip_wheel_state wh[GRIP_MAX_WHEELS];
  grip_vehicle_state s;
  grip_vehicle_get_state(w, id, &s);
  CHECK(grip_vehicle_get_wheels(w, id, wh, GRIP_MAX_WHEELS) == 16);
  double worst = 0.0;
  for (int i = 0; i < 16; ++i) worst = fmax(worst, fabs(wh[i].drive_torque - wh[0].drive_torque));
  printf("  8x8 after 3 s: %.1f km/h, wheel torque %.1f N*m, largest difference %.2e\n", 3.6 * s.speed,
         wh[0].drive_torque, worst);
  CHECK(s.speed > 5.0);
  CHECK(worst <= 1e-9 * fabs(wh[0].drive_torque) + 1e-9);
  grip_destroy_world(w);
}

/* The 6×4 with its last axle on ice (a ground whose friction is low behind x = −1.4 in the
 * car's start frame): standing start, 1.5 s full throttle; the two tandem axles' mean wheel
 * speeds. */
typedef struct ice {
  grip_plane plane;
} ice;

static bool ice_raycast(void *context, const grip_ground_query *q, grip_vec3 o, grip_vec3 d, double max_distance,
                        grip_ground_hit *hit) {
  ice *g = context;
  if (!grip_plane_raycast(&g->plane, q, o, d, max_distance, hit)) return false;
  if (q && q->wheel >= 4) hit->surface.friction = 0.1; /* the last axle's wheels */
  return true;
}

static void tandem_speeds(grip_diff_type inter_axle, double *mid, double *last) {
  ice g = {grip_default_plane()};
  grip_world_def wd = grip_default_world_def();
  wd.ground = (grip_ground){ice_raycast, &g};
  grip_world *w = grip_create_world(&wd);
  grip_vehicle_def d = six_by_four(inter_axle);
  grip_vehicle_id id = grip_create_vehicle(w, &d);
  grip_vehicle_place(w, id, 0, 0, 0);
  grip_vehicle_input in = grip_default_vehicle_input();
  in.throttle = 1.0;
  grip_vehicle_set_input(w, id, &in);
  for (int k = 0; k < 750; ++k) grip_world_step(w, 0.002);
  grip_wheel_state wh[GRIP_MAX_WHEELS];
  grip_vehicle_get_wheels(w, id, wh, GRIP_MAX_WHEELS);
  *mid = 0.5 * (wh[2].spin + wh[3].spin);
  *last = 0.5 * (wh[4].spin + wh[5].spin);
  grip_destroy_world(w);
}

static void locked_inter_axle_diff_holds_the_tandem_together(void) {
  double mid_open, last_open, mid_locked, last_locked;
  tandem_speeds(GRIP_DIFF_OPEN, &mid_open, &last_open);
  tandem_speeds(GRIP_DIFF_LOCKED, &mid_locked, &last_locked);
  printf("  last axle on ice, 1.5 s: open inter-axle diff %.1f / %.1f rad/s, locked %.1f / %.1f rad/s\n", mid_open,
         last_open, mid_locked, last_locked);
  CHECK(last_open > 2.0 * mid_open);                              /* open: the icy axle spins up */
  CHECK_NEAR(last_locked, mid_locked, 1e-6 * fabs(mid_locked) + 1e-9); /* locked: one speed */
  CHECK(mid_locked > mid_open);                                   /* and the car gets going */
}

static void bad_trees_are_refused(void) {
  char why[160];
  grip_vehicle_def d = six_by_four(GRIP_DIFF_OPEN);
  CHECK(grip_vehicle_def_validate(&d, why, sizeof why) == GRIP_OK);
  grip_vehicle_def b = d;
  b.drivetrain.diffs[2].inputs[1] = wheel(3); /* wheel 3 twice */
  CHECK(grip_vehicle_def_validate(&b, why, sizeof why) != GRIP_OK && strstr(why, "twice"));
  b = d;
  b.drivetrain.diffs[2].inputs[1] = wheel(6); /* no such wheel */
  CHECK(grip_vehicle_def_validate(&b, why, sizeof why) != GRIP_OK && strstr(why, "does not have"));
  b = d;
  b.drivetrain.diffs[0].inputs[1] = wheel(0); /* diff 2 driven by nobody */
  CHECK(grip_vehicle_def_validate(&b, why, sizeof why) != GRIP_OK && strstr(why, "no other one drives"));
  b = d;
  b.drivetrain.diffs[1].inputs[0] = diff(0); /* a cycle through the root */
  CHECK(grip_vehicle_def_validate(&b, why, sizeof why) != GRIP_OK && strstr(why, "listed after"));
  b = d;
  b.drivetrain.diff_count = 0;
  CHECK(grip_vehicle_def_validate(&b, why, sizeof why) != GRIP_OK && strstr(why, "diff_count"));
  printf("  last message: %s\n", why);
}

int main(void) {
  RUN_TEST(layouts_are_shorthands_for_trees);
  RUN_TEST(six_by_four_shares_torque_evenly);
  RUN_TEST(eight_by_eight);
  RUN_TEST(locked_inter_axle_diff_holds_the_tandem_together);
  RUN_TEST(bad_trees_are_refused);
  return TEST_RESULT();
}
