/* A vehicle's state laid out for a step that runs through many cars (docs/performance.md,
 * "Thirty-second session"). A world's per-wheel blocks lie in a row that the step streams
 * through, and bytes in them that a step does not read cost it time (1.22× at 10,000 cars and
 * 1.35× at 100,000 with ~600 such bytes a car). So:
 * - a block holds the wheels, the differentials and the ground hints first, side by side, then
 *   the tyre state, a moving ground's motion and forces-mode forces only for a car that uses
 *   them: for the usual car, nothing else. Every part lies inside the block, aligned for its
 *   type, none overlapping another, and the block has no byte that no part uses. Checked for
 *   cars of 2 and 3 axles, with each feature on alone and all of them together.
 * - what the world keeps per slot apart from the vehicles (vehicle_cold: the pose a car is put
 *   back to, forces mode's chassis force) follows the world as it grows: a forces-mode car
 *   created first in a world grown six times over gives the same chassis forces, bit for bit,
 *   as the same car alone, and is put where its pose is set after the world grew again. */
#include <string.h>

#include "grip/grip.h"
#include "test.h"
#include "vehicle_internal.h"

typedef struct part {
  const char *name;
  const char *at;
  size_t bytes;
  size_t align;
} part;

/* The parts of v's block as its type and features ask for them; the count of them. */
static int parts_of(const vehicle *v, const vehicle_type *t, bool tyres, bool motion, bool forces, part out[]) {
  size_t n = (size_t)v->wheel_count;
  int k = 0;
  out[k++] = (part){"wheels", (const char *)v->wheels, n * sizeof(wheel_runtime), _Alignof(wheel_runtime)};
  out[k++] = (part){"diffs", (const char *)v->diffs, (size_t)t->diff_count * sizeof(diff_runtime),
                    _Alignof(diff_runtime)};
  out[k++] = (part){"hints", (const char *)v->ground_hint, (n + 1) * sizeof(int), _Alignof(int)};
  if (tyres) out[k++] = (part){"tyres", (const char *)v->tyres, n * sizeof(tyre_runtime), _Alignof(tyre_runtime)};
  if (motion)
    out[k++] = (part){"motion", (const char *)v->ground_motion, n * sizeof(wheel_ground_motion),
                      _Alignof(wheel_ground_motion)};
  if (forces) out[k++] = (part){"forces", (const char *)v->wheel_force, n * sizeof(grip_vec3), _Alignof(grip_vec3)};
  return k;
}

static void check_block(const grip_vehicle_def *def, bool moving, int wheels) {
  vehicle_type_registry registry;
  memset(&registry, 0, sizeof registry);
  const vehicle_type *t = grip_vehicle_type_acquire(&registry, def, (grip_vec3){0.0, 0.0, -9.81});
  CHECK(t != NULL);
  if (!t) return;
  vehicle v;
  memset(&v, 0, sizeof v);
  CHECK(grip_vehicle_alloc_wheels(&v, t, moving));
  CHECK(v.wheel_count == wheels);
  bool tyres = def->tyre_state.enabled, forces = def->chassis_mode == GRIP_CHASSIS_EXTERNAL;
  /* an unused part is absent */
  CHECK((v.tyres != NULL) == tyres);
  CHECK((v.ground_motion != NULL) == moving);
  CHECK((v.wheel_force != NULL) == forces);
  part p[6];
  int k = parts_of(&v, t, tyres, moving, forces, p);
  const char *block = (const char *)v.wheels;
  size_t used = 0;
  for (int i = 0; i < k; ++i) {
    CHECK(p[i].at >= block && p[i].at + p[i].bytes <= block + v.wheel_bytes);
    CHECK((uintptr_t)p[i].at % p[i].align == 0);
    for (int j = 0; j < i; ++j) CHECK(p[i].at >= p[j].at + p[j].bytes || p[j].at >= p[i].at + p[i].bytes);
    used += p[i].bytes;
  }
  /* the hot parts first, in a row: the differentials right after the wheels, the hints right
   * after the differentials */
  CHECK(p[1].at == p[0].at + p[0].bytes);
  CHECK(p[2].at == p[1].at + p[1].bytes);
  /* no byte unused but the hints' rounding to 8 bytes (the next part's alignment) */
  size_t hints_pad = (8 - p[2].bytes % 8) % 8;
  CHECK(v.wheel_bytes == used + hints_pad);
  /* and the usual car's block is its hot state alone, at most 4 cache lines a wheel */
  if (!tyres && !moving && !forces)
    CHECK(v.wheel_bytes <= (size_t)wheels * 256 + (size_t)t->diff_count * sizeof(diff_runtime) +
                               ((size_t)(wheels + 1) * sizeof(int) + 7) / 8 * 8);
  grip_vehicle_free_wheels(&v);
  grip_vehicle_type_release(&registry, t);
  grip_vehicle_type_registry_free(&registry);
}

static grip_vehicle_def three_axles(void) {
  grip_vehicle_def d = grip_default_vehicle_def();
  d.axle_count = 3;
  d.axles[2] = d.axles[1];
  d.axles[2].x = d.axles[1].x - 1.4;
  d.body.mass += 800.0;
  return d;
}

static void blocks_hold_what_the_car_uses(void) {
  for (int axles = 2; axles <= 3; ++axles) {
    for (int features = 0; features < 8; ++features) {
      grip_vehicle_def d = axles == 2 ? grip_default_vehicle_def() : three_axles();
      if (features & 1) {
        d.tyre_state = grip_default_tyre_state_def();
        d.tyre_state.enabled = true;
      }
      if (features & 4) d.chassis_mode = GRIP_CHASSIS_EXTERNAL;
      CHECK(grip_vehicle_def_validate(&d, NULL, 0) == GRIP_OK);
      check_block(&d, (features & 2) != 0, 2 * axles);
    }
  }
}

/* n steps of a forces-mode car held at its pose (the game's body not moving it), throttle on:
 * its chassis force and torque summed over the steps. */
static void forces_over(grip_world *w, grip_vehicle_id id, int steps, grip_vec3 *force, grip_vec3 *torque) {
  grip_vehicle_input in = grip_default_vehicle_input();
  in.throttle = 0.5;
  in.steering = 0.2;
  grip_vehicle_set_input(w, id, &in);
  *force = *torque = (grip_vec3){0.0, 0.0, 0.0};
  for (int k = 0; k < steps; ++k) {
    grip_world_step(w, 0.002);
    grip_chassis_forces f;
    CHECK(grip_vehicle_get_chassis_forces(w, id, &f) == GRIP_OK);
    force->x += f.force.x, force->y += f.force.y, force->z += f.force.z;
    torque->x += f.torque.x, torque->y += f.torque.y, torque->z += f.torque.z;
  }
}

static void cold_state_follows_the_world(void) {
  grip_world_def wd = grip_default_world_def();
  wd.vehicle_capacity = 1;
  grip_vehicle_def car = grip_default_vehicle_def();
  car.chassis_mode = GRIP_CHASSIS_EXTERNAL;
  grip_pose set = {{12.0, -3.0, 0.0}, {1.0, 0.0, 0.0, 0.0}};
  car.pose = set;
  /* the car alone */
  grip_world *alone = grip_create_world(&wd);
  grip_vehicle_id solo = grip_create_vehicle(alone, &car);
  grip_vec3 force_alone, torque_alone;
  forces_over(alone, solo, 200, &force_alone, &torque_alone);
  /* the same car first in a world that then grows from 1 slot to 64 */
  grip_world *grown = grip_create_world(&wd);
  grip_vehicle_id first = grip_create_vehicle(grown, &car);
  grip_vehicle_def other = grip_default_vehicle_def();
  for (int i = 0; i < 40; ++i) {
    other.pose.position = (grip_vec3){-500.0 - 20.0 * i, 300.0, 0.0};
    CHECK(grip_vehicle_is_valid(grown, grip_create_vehicle(grown, &other)));
  }
  grip_vec3 force_grown, torque_grown;
  forces_over(grown, first, 200, &force_grown, &torque_grown);
  CHECK(force_grown.x == force_alone.x && force_grown.y == force_alone.y && force_grown.z == force_alone.z);
  CHECK(torque_grown.x == torque_alone.x && torque_grown.y == torque_alone.y && torque_grown.z == torque_alone.z);
  /* not zeros: the wheels stand on the ground and the throttle drives them forward */
  CHECK(force_alone.x > 0.0 && force_alone.z > 0.0);
  /* put elsewhere after the world grew again (to 128 slots): set_pose writes the pose into the
   * world's per-slot array and puts the car there from it (under the sanitizers, a pointer left
   * behind by the growth is a use after free) */
  for (int i = 0; i < 40; ++i) {
    other.pose.position = (grip_vec3){-500.0 - 20.0 * i, 400.0, 0.0};
    CHECK(grip_vehicle_is_valid(grown, grip_create_vehicle(grown, &other)));
  }
  grip_pose moved = {{-40.0, 7.0, 0.0}, {1.0, 0.0, 0.0, 0.0}};
  CHECK(grip_vehicle_set_pose(grown, first, moved) == GRIP_OK);
  grip_vehicle_motion m;
  CHECK(grip_vehicle_get_motion(grown, first, &m) == GRIP_OK);
  CHECK_NEAR(m.pose.position.x, moved.position.x, 1e-12);
  CHECK_NEAR(m.pose.position.y, moved.position.y, 1e-12);
  CHECK_NEAR(m.pose.position.z, moved.position.z, 1e-12);
  grip_destroy_world(alone);
  grip_destroy_world(grown);
}

int main(void) {
  RUN_TEST(blocks_hold_what_the_car_uses);
  RUN_TEST(cold_state_follows_the_world);
  return TEST_RESULT();
}
