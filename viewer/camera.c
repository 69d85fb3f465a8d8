/* Cameras: see camera.h. */
#include "camera.h"

#include <math.h>
#include <string.h>

static const double kPi = 3.14159265358979323846;

void camera_init(camera *c, double fov_deg, double distance, double height) {
  memset(c, 0, sizeof *c);
  c->mode = CAMERA_CHASE;
  c->fov_y = fov_deg * kPi / 180.0;
  c->near_m = 0.1;
  c->far_m = 6000.0;
  c->distance = distance;
  c->height = height;
  c->yaw = -2.4;
  c->pitch = 0.35;
  c->range = 12.0;
  c->up[2] = 1.0;
  c->tv_index = -1;
}

const char *camera_mode_name(camera_mode m) {
  static const char *names[CAMERA_MODE_COUNT] = {"chase", "bonnet", "orbit", "tv", "map", "fixed"};
  return m >= 0 && m < CAMERA_MODE_COUNT ? names[m] : "?";
}

camera_mode camera_next_mode(const camera *c, camera_mode m) {
  camera_mode next = (camera_mode)((m + 1) % CAMERA_MODE_COUNT);
  if (next == CAMERA_FIXED && !c->has_fixed) next = (camera_mode)((next + 1) % CAMERA_MODE_COUNT);
  return next;
}

void camera_set_mode(camera *c, camera_mode m) {
  c->mode = m;
  c->settled = false;
  c->tv_index = -1;
}

/* Rotates a vehicle-frame vector into the world frame. */
static void rotate(grip_quat q, const double v[3], double out[3]) {
  /* v' = v + 2w(u×v) + 2u×(u×v), u = (x, y, z). */
  double u[3] = {q.x, q.y, q.z};
  double t[3] = {2.0 * (u[1] * v[2] - u[2] * v[1]), 2.0 * (u[2] * v[0] - u[0] * v[2]), 2.0 * (u[0] * v[1] - u[1] * v[0])};
  out[0] = v[0] + q.w * t[0] + (u[1] * t[2] - u[2] * t[1]);
  out[1] = v[1] + q.w * t[1] + (u[2] * t[0] - u[0] * t[2]);
  out[2] = v[2] + q.w * t[2] + (u[0] * t[1] - u[1] * t[0]);
}

static double ground_height(grip_ground g, double x, double y, double fallback) {
  if (!g.raycast) return fallback;
  grip_ground_hit hit;
  grip_ground_query query = grip_no_vehicle_query();
  if (g.raycast(g.context, &query, (grip_vec3){x, y, 1e5}, (grip_vec3){0.0, 0.0, -1.0}, 2e5, &hit)) return hit.point.z;
  return fallback;
}

/* Keeps a camera point at least `margin` inside the barriers (seen from the track). */
static void keep_inside_walls(const grip_track *track, double p[3], double margin) {
  grip_track_location loc = grip_track_locate(track, p[0], p[1], -1);
  grip_track_barrier left = grip_track_barrier_at(track, &loc, GRIP_TRACK_SIDE_LEFT);
  grip_track_barrier right = grip_track_barrier_at(track, &loc, GRIP_TRACK_SIDE_RIGHT);
  double lat = loc.lateral;
  double hi = left.lateral - margin, lo = right.lateral + margin;
  if (hi < lo) return; /* a strip narrower than the margins: leave it */
  if (lat > hi) lat = hi;
  if (lat < lo) lat = lo;
  if (lat == loc.lateral) return;
  grip_track_point tp = grip_track_point_at(track, loc.distance);
  p[0] = tp.position.x - sin(tp.heading) * lat;
  p[1] = tp.position.y + cos(tp.heading) * lat;
}

void camera_update(camera *c, const grip_pose *pose, const grip_vehicle_def *def, double frame_dt,
                   const grip_track *track, grip_ground ground) {
  const double car[3] = {pose->position.x, pose->position.y, pose->position.z};
  const double fwd_local[3] = {1.0, 0.0, 0.0};
  double fwd[3];
  rotate(pose->rotation, fwd_local, fwd);
  double hl = hypot(fwd[0], fwd[1]);
  double hx = hl > 1e-9 ? fwd[0] / hl : 1.0, hy = hl > 1e-9 ? fwd[1] / hl : 0.0;
  const double car_height = def->body.box_center.z + 0.5 * def->body.dimensions.z;
  c->up[0] = 0.0, c->up[1] = 0.0, c->up[2] = 1.0;
  switch (c->mode) {
  case CAMERA_CHASE: {
    double back = c->distance + c->towed_length, up = c->height + c->towed_length / 3.0;
    double want[3] = {car[0] - hx * back, car[1] - hy * back, car[2] + up};
    double look[3] = {car[0] + hx * 2.0, car[1] + hy * 2.0, car[2] + 0.8};
    /* First-order lag: 1 - exp(-dt/tau) of the way per frame, tau = 0.12 s (position) and 0.06 s
     * (look point), independent of the frame rate. */
    double ke = c->settled ? 1.0 - exp(-frame_dt / 0.12) : 1.0, kt = c->settled ? 1.0 - exp(-frame_dt / 0.06) : 1.0;
    for (int i = 0; i < 3; ++i) {
      c->eye[i] += ke * (want[i] - c->eye[i]);
      c->target[i] += kt * (look[i] - c->target[i]);
    }
    if (track) keep_inside_walls(track, c->eye, 0.6);
    double gz = ground_height(ground, c->eye[0], c->eye[1], car[2]);
    if (c->eye[2] < gz + 0.6) c->eye[2] = gz + 0.6;
    c->settled = true;
    break;
  }
  case CAMERA_BONNET: {
    /* The driver's eye from the car's dimensions: 45 % of the body back from its front, a quarter
     * of the width left of the centre line (a left-hand-drive seat), 10 cm under the roof. */
    const grip_body_def *b = &def->body;
    double eye_local[3] = {b->box_center.x + 0.5 * b->dimensions.x - 0.45 * b->dimensions.x, 0.25 * 0.5 * b->dimensions.y,
                           car_height - 0.1};
    double look_local[3] = {eye_local[0] + 20.0, eye_local[1], eye_local[2] - 0.6};
    double up_local[3] = {0.0, 0.0, 1.0};
    double e[3], t[3];
    rotate(pose->rotation, eye_local, e);
    rotate(pose->rotation, look_local, t);
    rotate(pose->rotation, up_local, c->up);
    for (int i = 0; i < 3; ++i) {
      c->eye[i] = car[i] + e[i];
      c->target[i] = car[i] + t[i];
    }
    break;
  }
  case CAMERA_ORBIT: {
    double cp = cos(c->pitch);
    c->target[0] = car[0], c->target[1] = car[1], c->target[2] = car[2] + 0.8;
    c->eye[0] = car[0] + c->range * cp * cos(c->yaw);
    c->eye[1] = car[1] + c->range * cp * sin(c->yaw);
    c->eye[2] = car[2] + 0.8 + c->range * sin(c->pitch);
    double gz = ground_height(ground, c->eye[0], c->eye[1], car[2]);
    if (c->eye[2] < gz + 0.3) c->eye[2] = gz + 0.3;
    break;
  }
  case CAMERA_TV: {
    /* Cameras every 120 m along the track, 4 m outside the left barrier, 5 m up; the nearest one
     * to the car films it (so the view switches as the car passes). Without a track: a camera
     * set 40 m ahead of the car, moved on once the car is 60 m past it. */
    const double spacing = 120.0;
    if (track) {
      grip_track_location loc = grip_track_locate(track, car[0], car[1], -1);
      int n = (int)floor(grip_track_length(track) / spacing);
      if (n < 1) n = 1;
      int k = (int)floor(loc.distance / spacing + 0.5) % n;
      if (k != c->tv_index) {
        c->tv_index = k;
        grip_track_point tp = grip_track_point_at(track, k * spacing);
        grip_track_location at = grip_track_locate(track, tp.position.x, tp.position.y, tp.segment);
        grip_track_barrier wall = grip_track_barrier_at(track, &at, GRIP_TRACK_SIDE_LEFT);
        double lat = wall.lateral + 4.0;
        c->eye[0] = tp.position.x - sin(tp.heading) * lat;
        c->eye[1] = tp.position.y + cos(tp.heading) * lat;
        c->eye[2] = ground_height(ground, c->eye[0], c->eye[1], tp.position.z) + 5.0;
      }
    } else {
      double dx = car[0] - c->eye[0], dy = car[1] - c->eye[1];
      if (c->tv_index < 0 || (dx * dx + dy * dy > 3600.0 && dx * hx + dy * hy > 0.0)) {
        c->tv_index = 0;
        c->eye[0] = car[0] + 40.0 * hx - 8.0 * hy;
        c->eye[1] = car[1] + 40.0 * hy + 8.0 * hx;
        c->eye[2] = ground_height(ground, c->eye[0], c->eye[1], car[2]) + 4.0;
      }
    }
    c->target[0] = car[0], c->target[1] = car[1], c->target[2] = car[2] + 0.6;
    break;
  }
  case CAMERA_FIXED: {
    /* Looking at the scene's target, else at the car; up is world z, or north when the view is
     * (nearly) vertical. */
    for (int i = 0; i < 3; ++i) {
      c->eye[i] = c->fixed_eye[i];
      c->target[i] = c->fixed_has_target ? c->fixed_target[i] : car[i] + (i == 2 ? 0.6 : 0.0);
    }
    double dx = c->target[0] - c->eye[0], dy = c->target[1] - c->eye[1], dz = c->target[2] - c->eye[2];
    bool vertical = dx * dx + dy * dy < 1e-6 * (dx * dx + dy * dy + dz * dz);
    c->up[0] = 0.0, c->up[1] = vertical ? 1.0 : 0.0, c->up[2] = vertical ? 0.0 : 1.0;
    break;
  }
  case CAMERA_MAP:
    c->target[0] = car[0], c->target[1] = car[1], c->target[2] = car[2];
    c->eye[0] = car[0], c->eye[1] = car[1], c->eye[2] = car[2] + 250.0;
    c->up[0] = 0.0, c->up[1] = 1.0, c->up[2] = 0.0;
    break;
  default:
    break;
  }
}
