/* The body's probe (src/ground_contact.c) against the ground: the shortcuts it takes must give
 * what their definitions give, bit for bit, since races and replays are compared byte for byte.
 * Each expectation here is the definition itself, evaluated the long way. */
#include <math.h>
#include <string.h>

#include "gmath.h"
#include "grip/grip.h"
#include "ground_contact.h"
#include "support_random.h"
#include "test.h"

#define PI 3.14159265358979323846

/* The body's probe starts its rays at the body's highest point over the step, and for an
 * upright body takes it from one top corner per pose (grip_ground_highest_top_point) instead of
 * all six top points. Its height must be the six points' maximum in every bit: checked against
 * that maximum for boxes of random size and offset (the built-in car's among them) in random
 * orientations, every one of them (upright, on a side, on the roof), and in orientations whose
 * last row has zero or negative-zero x or y parts. */
static void highest_top_point_is_the_maximum(void) {
  unsigned long long rng = 0x13198a2e03707344ull;
  int checked = 0, wrong = 0;
  for (int k = 0; k < 200000; ++k) {
    vehicle_type t;
    memset(&t, 0, sizeof t);
    if (k == 0) {
      grip_vehicle_def d = grip_default_vehicle_def();
      t.def.body = d.body;
    } else {
      t.def.body.dimensions = (grip_vec3){0.1 + 20.0 * support_uniform(&rng), 0.1 + 5.0 * support_uniform(&rng),
                                          0.1 + 3.0 * support_uniform(&rng)};
      t.def.body.box_center = (grip_vec3){4.0 * support_uniform(&rng) - 2.0, support_uniform(&rng) - 0.5,
                                          2.0 * support_uniform(&rng) - 0.5};
    }
    t.com_design = (grip_vec3){4.0 * support_uniform(&rng) - 2.0, 0.2 * support_uniform(&rng) - 0.1,
                               0.2 + 0.8 * support_uniform(&rng)};
    grip_ground_box_points(&t);
    grip_vec3 r2;
    if (k % 10 == 9) {
      /* a row with a zero part of either sign */
      double zeros[2] = {0.0, -0.0};
      double a = 2.0 * PI * support_uniform(&rng);
      r2 = k % 20 == 9 ? (grip_vec3){zeros[k / 20 % 2], sin(a), cos(a)} : (grip_vec3){sin(a), zeros[k / 20 % 2], cos(a)};
    } else {
      grip_quat q = {2.0 * support_uniform(&rng) - 1.0, 2.0 * support_uniform(&rng) - 1.0,
                     2.0 * support_uniform(&rng) - 1.0, 2.0 * support_uniform(&rng) - 1.0};
      double l = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
      q = (grip_quat){q.w / l, q.x / l, q.y / l, q.z / l};
      mat3 r = mat3_from_quat(q);
      r2 = r.r2;
    }
    double z = 1000.0 * support_uniform(&rng) - 500.0, highest = -INFINITY;
    for (int i = 1; i < GRIP_BOX_POINTS; i += 2) highest = fmax(highest, z + v3_dot(r2, t.box_points[i]));
    double corner = z + v3_dot(r2, t.box_points[grip_ground_highest_top_point(r2)]);
    wrong += memcmp(&corner, &highest, sizeof corner) != 0;
    ++checked;
  }
  CHECK(wrong == 0);
  printf("  %d boxes and orientations: the corner's height is the six top points' maximum in every bit (%d not)\n",
         checked, wrong);
}

int main(void) {
  RUN_TEST(highest_top_point_is_the_maximum);
  return TEST_RESULT();
}
