/* Car types shared by the vehicles of a world (src/vehicle_type.c): one copy of a definition and
 * its tables for all vehicles created from it, and sharing that never changes a result. */
#include <string.h>

#include "grip/grip.h"
#include "grip/mf_tyre.h"
#include "test.h"

static grip_world *flat_world(void) {
  grip_world_def wd = grip_default_world_def();
  wd.vehicle_capacity = 4; /* grows past it */
  return grip_create_world(&wd);
}

static void drive(grip_world *w, grip_vehicle_id id, double seconds) {
  grip_vehicle_input in = grip_default_vehicle_input();
  in.throttle = 1.0;
  in.steering = 0.3;
  grip_vehicle_set_input(w, id, &in);
  for (int k = 0; k < (int)(seconds / 0.002 + 0.5); ++k) grip_world_step(w, 0.002);
}

/* Equal definitions share one copy; another definition gets its own; each vehicle keeps its own
 * pose. */
static void shared_definition(void) {
  grip_world *w = flat_world();
  grip_vehicle_def a = grip_default_vehicle_def(), b = a;
  b.body.mass += 100.0;
  grip_vehicle_id a1 = grip_create_vehicle(w, &a), b1 = grip_create_vehicle(w, &b);
  a.pose.position.x = 50.0; /* pose and velocity are each vehicle's own: still the same type */
  a.velocity.x = 3.0;
  grip_vehicle_id a2 = grip_create_vehicle(w, &a);
  CHECK(grip_vehicle_get_def(w, a1) == grip_vehicle_get_def(w, a2));
  CHECK(grip_vehicle_get_def(w, a1) != grip_vehicle_get_def(w, b1));
  CHECK_NEAR(grip_vehicle_get_def(w, b1)->body.mass, a.body.mass + 100.0, 0.0);
  const grip_vehicle_def *shared = grip_vehicle_get_def(w, a2);
  CHECK(shared->pose.rotation.w == 1.0 && shared->pose.position.x == 0.0 && shared->velocity.x == 0.0);
  grip_vehicle_state s1, s2;
  grip_vehicle_get_state(w, a1, &s1);
  grip_vehicle_get_state(w, a2, &s2);
  CHECK_NEAR(s2.pose.position.x - s1.pose.position.x, 50.0, 1e-12);
  CHECK_NEAR(s2.linear_velocity.x, 3.0, 0.0);
  CHECK_NEAR(s1.linear_velocity.x, 0.0, 0.0);
  grip_destroy_world(w);
}

/* grip_world_memory: the shared part grows with the number of car types, not of vehicles, and
 * shrinks again when a type's last vehicle goes. */
static void memory_per_type(void) {
  grip_world *w = flat_world();
  grip_vehicle_def a = grip_default_vehicle_def(), b = a;
  b.body.mass += 100.0;
  size_t shared_none = 0;
  grip_world_memory(w, &shared_none);
  grip_vehicle_id first = grip_create_vehicle(w, &a);
  size_t shared_one = 0;
  grip_world_memory(w, &shared_one);
  CHECK(shared_one > shared_none);
  for (int i = 0; i < 40; ++i) grip_create_vehicle(w, &a);
  size_t shared_many = 0, total_many = grip_world_memory(w, &shared_many);
  CHECK(shared_many == shared_one);
  /* Each vehicle's own part is far below one copy of its definition and tyre tables. */
  CHECK((double)(total_many - shared_many) / 41.0 < (double)shared_one);
  grip_vehicle_id other = grip_create_vehicle(w, &b);
  size_t shared_two = 0;
  grip_world_memory(w, &shared_two);
  CHECK(shared_two > shared_one);
  grip_destroy_vehicle(w, other);
  size_t shared_back = 0;
  grip_world_memory(w, &shared_back);
  CHECK(shared_back == shared_one);
  CHECK(grip_vehicle_is_valid(w, first));
  grip_destroy_world(w);
}

/* A car stepped with its type shared by nine others gives the same bits as the same car on a type
 * of its own (its definition differs only in the name pointer, so it is not shared). */
static void sharing_changes_nothing(void) {
  static const char name_a[] = "car", name_b[] = "car";
  grip_vehicle_def d = grip_default_vehicle_def();
  grip_world *alone = flat_world(), *crowd = flat_world();
  d.name = name_a;
  grip_vehicle_id solo = grip_create_vehicle(alone, &d);
  grip_vehicle_id ids[10];
  for (int i = 0; i < 10; ++i) {
    d.name = i == 5 ? name_a : name_b;
    ids[i] = grip_create_vehicle(crowd, &d);
    grip_vehicle_place(crowd, ids[i], 0.0, 200.0 * (i - 5), 0.0);
  }
  grip_vehicle_place(alone, solo, 0.0, 0.0, 0.0);
  CHECK(grip_vehicle_get_def(crowd, ids[0]) == grip_vehicle_get_def(crowd, ids[9]));
  CHECK(grip_vehicle_get_def(crowd, ids[5]) != grip_vehicle_get_def(crowd, ids[0]));
  for (int i = 0; i < 10; ++i) {
    grip_vehicle_input in = grip_default_vehicle_input();
    in.throttle = 1.0;
    in.steering = 0.3;
    grip_vehicle_set_input(crowd, ids[i], &in);
  }
  drive(alone, solo, 3.0);
  for (int k = 0; k < 1500; ++k) grip_world_step(crowd, 0.002);
  grip_vehicle_state s_alone, s_shared, s_own;
  grip_vehicle_get_state(alone, solo, &s_alone);
  grip_vehicle_get_state(crowd, ids[4], &s_shared); /* shared type, 200 m to the side */
  grip_vehicle_get_state(crowd, ids[5], &s_own);    /* own type, at the origin */
  CHECK(s_alone.speed > 10.0);
  CHECK(memcmp(&s_alone.linear_velocity, &s_own.linear_velocity, sizeof s_own.linear_velocity) == 0);
  CHECK(memcmp(&s_alone.pose.rotation, &s_own.pose.rotation, sizeof s_own.pose.rotation) == 0);
  CHECK(memcmp(&s_alone.wheels, &s_own.wheels, sizeof s_own.wheels) == 0);
  /* The shared car 200 m away: its motion relative to its start is the same. */
  CHECK_NEAR(s_shared.speed, s_own.speed, 1e-9 * s_own.speed);
  CHECK_NEAR(s_shared.pose.position.y + 200.0, s_own.pose.position.y, 1e-9);
  grip_destroy_world(alone);
  grip_destroy_world(crowd);
}

/* Full MF parameters are copied into the type: changing the caller's set afterwards changes
 * neither the existing vehicle nor whether a new one shares its type. */
static void full_mf_copied(void) {
  grip_mf_params p;
  grip_mf_default_params(&p);
  grip_vehicle_def d = grip_default_vehicle_def();
  for (int a = 0; a < d.axle_count; ++a) {
    d.axles[a].tyre.model = GRIP_TYRE_FULL_MF;
    d.axles[a].tyre.mf = &p;
  }
  grip_world *w = flat_world();
  grip_vehicle_id v1 = grip_create_vehicle(w, &d);
  CHECK(v1.index != 0);
  grip_mf_params original = p;
  grip_vehicle_id v2 = grip_create_vehicle(w, &d);
  CHECK(grip_vehicle_get_def(w, v1) == grip_vehicle_get_def(w, v2));
  p.LONGVL += 0.5; /* another parameter set: another type */
  grip_vehicle_id v3 = grip_create_vehicle(w, &d);
  CHECK(grip_vehicle_get_def(w, v3) != grip_vehicle_get_def(w, v1));
  const grip_mf_params *kept = grip_vehicle_get_def(w, v1)->axles[0].tyre.mf;
  CHECK(kept != &p && memcmp(kept, &original, sizeof original) == 0);
  grip_destroy_world(w);
}

int main(void) {
  RUN_TEST(shared_definition);
  RUN_TEST(memory_per_type);
  RUN_TEST(sharing_changes_nothing);
  RUN_TEST(full_mf_copied);
  return TEST_RESULT();
}
