/* A car's wheels for the tools, any axle count (car_layout.h). */
#include "car_layout.h"

#include <math.h>
#include <string.h>

static void mark_tree(const grip_drivetrain_def *d, int diff, car_layout *out, int depth) {
  if (diff < 0 || diff >= d->diff_count || depth > GRIP_MAX_DIFFS) return;
  for (int k = 0; k < 2; ++k) {
    grip_drive_input in = d->diffs[diff].inputs[k];
    if (in.kind == GRIP_DRIVE_INPUT_WHEEL) {
      if (in.index >= 0 && in.index < out->wheel_count) out->driven[in.index] = true;
    } else if (in.index > diff) {
      mark_tree(d, in.index, out, depth + 1);
    }
  }
}

static void mark_axle(car_layout *out, int axle) {
  for (int k = 0; k < out->axle_wheels[axle]; ++k) out->driven[out->axle_first_wheel[axle] + k] = true;
}

void car_layout_of(const grip_vehicle_def *car, car_layout *out) {
  memset(out, 0, sizeof *out);
  int n = car->axle_count;
  if (n < 1) n = 1;
  if (n > GRIP_MAX_AXLES) n = GRIP_MAX_AXLES;
  out->axle_count = n;
  int w = 0;
  for (int a = 0; a < n; ++a) {
    out->axle_first_wheel[a] = w;
    out->axle_wheels[a] = car->axles[a].half_track > 0.0 ? 2 : 1;
    for (int k = 0; k < out->axle_wheels[a]; ++k) out->wheel_axle[w++] = a;
  }
  out->wheel_count = w;
  switch (car->drivetrain.layout) {
    case GRIP_DRIVE_FWD: mark_axle(out, 0); break;
    case GRIP_DRIVE_AWD:
      mark_axle(out, 0);
      mark_axle(out, n - 1);
      break;
    case GRIP_DRIVE_TREE: mark_tree(&car->drivetrain, 0, out, 0); break;
    default: mark_axle(out, n - 1); break;
  }
  for (int i = 0; i < w; ++i)
    if (out->driven[i]) {
      ++out->driven_count;
      out->driven_axle[out->wheel_axle[i]] = true;
    }
}

double car_driven_wheel_radius(const grip_vehicle_def *car) {
  int last = car->axle_count > 0 ? car->axle_count - 1 : 0;
  switch (car->drivetrain.layout) {
    case GRIP_DRIVE_FWD: return car->axles[0].wheel_radius;
    case GRIP_DRIVE_TREE: {
      car_layout l;
      car_layout_of(car, &l);
      double sum = 0.0;
      for (int i = 0; i < l.wheel_count; ++i)
        if (l.driven[i]) sum += car->axles[l.wheel_axle[i]].wheel_radius;
      return l.driven_count > 0 ? sum / l.driven_count : car->axles[last].wheel_radius;
    }
    default: return car->axles[last].wheel_radius;
  }
}

double car_reference_x(const grip_vehicle_def *car) {
  double sum = 0.0;
  int count = 0;
  for (int a = 0; a < car->axle_count; ++a)
    if (car->axles[a].steer_ratio == 0.0) {
      sum += car->axles[a].x;
      ++count;
    }
  return count > 0 ? sum / count : car->axles[car->axle_count > 0 ? car->axle_count - 1 : 0].x;
}

double car_effective_wheelbase(const grip_vehicle_def *car) { return car->axles[0].x - car_reference_x(car); }

bool car_has_single_wheel_axle(const grip_vehicle_def *car) {
  for (int a = 0; a < car->axle_count; ++a)
    if (!(car->axles[a].half_track > 0.0)) return true;
  return false;
}

double car_tricycle_rollover_g(const grip_vehicle_def *car) {
  int last = car->axle_count - 1;
  if (car->axle_count < 2 || car->axles[0].half_track > 0.0 || !(car->axles[last].half_track > 0.0)) return INFINITY;
  double m = car->body.mass + car->fuel.mass;
  double xg = (car->body.mass * car->body.center_of_mass.x + car->fuel.mass * car->fuel.position.x) / m;
  double h = (car->body.mass * car->body.center_of_mass.z + car->fuel.mass * car->fuel.position.z) / m;
  double wheelbase = car->axles[0].x - car->axles[last].x;
  double a = car->axles[0].x - xg;
  if (!(h > 0.0) || !(wheelbase > 0.0)) return INFINITY;
  return car->axles[last].half_track * (a / wheelbase) / h;
}
