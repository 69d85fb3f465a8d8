/* ISO 3888-2 severe lane change; see lane_change.h for the track, the driver and the sources. */
#include "car_layout.h"
#include "lane_change.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "manoeuvre.h"

#define DEG (180.0 / GRIP_PI)
#define G 9.81

/* ISO 3888-2:2011 Table 1. */
#define LC_SECTION_1 12.0
#define LC_SECTION_2 13.5
#define LC_SECTION_3 11.0
#define LC_SECTION_4 12.5
#define LC_SECTION_5 12.0
#define LC_OFFSET 1.0        /* m, between section 1's left limit and section 3's right limit */
#define LC_EXIT_MIN_WIDTH 3.0 /* m, least width of section 5 */

/* The run: the car rolls at the target speed from RUN_UP m before the entry gate. */
#define RUN_UP 40.0
#define RUN_OUT 40.0 /* m of path after the track */
#define PATH_SPACING 0.05

lane_change_track lane_change_track_for_width(double w) {
  lane_change_track t;
  memset(&t, 0, sizeof t);
  t.vehicle_width = w;
  double w1 = 1.1 * w + 0.25, w3 = w + 1.0, w5 = fmax(1.3 * w + 0.25, LC_EXIT_MIN_WIDTH);
  double x = 0.0;
  t.lanes[0] = (lane_change_lane){x, x + LC_SECTION_1, -0.5 * w1, 0.5 * w1};
  x += LC_SECTION_1 + LC_SECTION_2;
  t.lanes[1] = (lane_change_lane){x, x + LC_SECTION_3, 0.5 * w1 + LC_OFFSET, 0.5 * w1 + LC_OFFSET + w3};
  x += LC_SECTION_3 + LC_SECTION_4;
  t.lanes[2] = (lane_change_lane){x, x + LC_SECTION_5, -0.5 * w1, -0.5 * w1 + w5};
  t.length = x + LC_SECTION_5;
  return t;
}

/* --- path ------------------------------------------------------------------------------------ */

bool sim_path_init(sim_path *p, int capacity) {
  memset(p, 0, sizeof *p);
  p->x = malloc(sizeof(double) * (size_t)capacity);
  p->y = malloc(sizeof(double) * (size_t)capacity);
  if (!p->x || !p->y) {
    sim_path_free(p);
    return false;
  }
  p->capacity = capacity;
  return true;
}

void sim_path_free(sim_path *p) {
  free(p->x);
  free(p->y);
  memset(p, 0, sizeof *p);
}

bool sim_path_add(sim_path *p, double x, double y) {
  if (p->count >= p->capacity) return false;
  p->x[p->count] = x;
  p->y[p->count] = y;
  ++p->count;
  return true;
}

/* Squared distance from (x, y) to segment i..i+1, and the signed offset (left positive). */
static double segment_distance2(const sim_path *p, int i, double x, double y, double *offset) {
  double ax = p->x[i], ay = p->y[i], dx = p->x[i + 1] - ax, dy = p->y[i + 1] - ay;
  double len2 = dx * dx + dy * dy;
  double u = len2 > 0.0 ? ((x - ax) * dx + (y - ay) * dy) / len2 : 0.0;
  u = u < 0.0 ? 0.0 : (u > 1.0 ? 1.0 : u);
  double ex = x - (ax + u * dx), ey = y - (ay + u * dy);
  double cross = dx * (y - ay) - dy * (x - ax);
  double d2 = ex * ex + ey * ey;
  if (offset) *offset = cross >= 0.0 ? sqrt(d2) : -sqrt(d2);
  return d2;
}

double sim_path_offset(const sim_path *p, double x, double y) {
  double best = INFINITY, offset = NAN;
  for (int i = 0; i + 1 < p->count; ++i) {
    double o, d2 = segment_distance2(p, i, x, y, &o);
    if (d2 < best) best = d2, offset = o;
  }
  return offset;
}

/* Half-cosine blend from y0 at x0 to y1 at x1 (zero slope at both ends). */
static double blend(double x, double x0, double y0, double x1, double y1) {
  if (x <= x0) return y0;
  if (x >= x1) return y1;
  return y0 + (y1 - y0) * 0.5 * (1.0 - cos(GRIP_PI * (x - x0) / (x1 - x0)));
}
/* m, the driver's line at distance x past the entry gate: on the centre of lane 1, through
 * lane 3 LINE_3_RIGHT right of its centre (the side it comes from and goes back to) and lane 5
 * LINE_5_LEFT left of its centre (the side it comes from); the swerves start BLEND_EARLY before
 * a lane ends and end BLEND_LATE into the next. Chosen, with the preview (0.45 s, at least
 * 3.5 m), by a grid search (blends −2..2 m, lines 0..0.3 m, preview 0.3..0.8 s and 2..5 m) for
 * the highest passing speed of the built-in car among the settings that pass at every speed
 * from 30 to 55 km/h in 5 km/h steps. */
#define LINE_3_RIGHT 0.2
#define LINE_5_LEFT 0.5
#define BLEND_EARLY 2.0
#define BLEND_LATE 0.0
static double centre_line(const lane_change_track *t, double x) {
  const double A = BLEND_EARLY, B = BLEND_LATE, E3 = LINE_3_RIGHT, E5 = LINE_5_LEFT;
  double c1 = 0.5 * (t->lanes[0].y_left + t->lanes[0].y_right);
  double c3 = 0.5 * (t->lanes[1].y_left + t->lanes[1].y_right) - E3;
  double c5 = 0.5 * (t->lanes[2].y_left + t->lanes[2].y_right) + E5;
  /* The first swerve up to the middle of lane 3, the second after it. */
  if (x < 0.5 * (t->lanes[1].x_begin + t->lanes[1].x_end)) return blend(x, t->lanes[0].x_end - A, c1, t->lanes[1].x_begin + B, c3);
  return blend(x, t->lanes[1].x_end - A, c3, t->lanes[2].x_begin + B, c5);
}

bool lane_change_path(sim_path *p, const lane_change_track *t, double x_gate, double x_before, double x_after,
                      double spacing) {
  int n = (int)ceil((x_before + t->length + x_after) / spacing) + 1;
  if (!sim_path_init(p, n)) return false;
  for (int i = 0; i < n; ++i) {
    double x = -x_before + spacing * i;
    sim_path_add(p, x_gate + x, centre_line(t, x));
  }
  return true;
}

/* --- driver ---------------------------------------------------------------------------------- */

path_follower_def default_path_follower_def(void) {
  path_follower_def d;
  d.preview_time = 0.45;
  d.min_preview = 3.5;
  d.max_wheel_rate = 720.0 / DEG;
  return d;
}

void path_follower_init(path_follower *f, const path_follower_def *def, const sim_path *path, double steering) {
  f->def = *def;
  f->path = path;
  f->index = 0;
  f->steering = steering;
}

/* A design-frame point in the world (x-y). */
static void to_world(const grip_vehicle_state *s, double px, double py, double *x, double *y) {
  grip_quat q = s->pose.rotation;
  /* v' = v + 2w(q×v) + 2q×(q×v), v = (px, py, 0). */
  double cx = -q.z * py, cy = q.z * px, cz = q.x * py - q.y * px; /* q×v */
  double ccx = q.y * cz - q.z * cy, ccy = q.z * cx - q.x * cz;     /* q×(q×v) */
  *x = s->pose.position.x + px + 2.0 * (q.w * cx + ccx);
  *y = s->pose.position.y + py + 2.0 * (q.w * cy + ccy);
}

void lane_change_rear_axle(const grip_vehicle_def *car, const grip_vehicle_state *s, double *x, double *y) {
  to_world(s, car_reference_x(car), 0.0, x, y); /* a truck's: its tandem's centre */
}

double path_follower_steer(path_follower *f, const grip_vehicle_def *car, const grip_vehicle_state *s, double dt) {
  const sim_path *p = f->path;
  if (p->count < 2) return f->steering;
  double rx, ry;
  lane_change_rear_axle(car, s, &rx, &ry);
  double psi = sim_heading(s);
  double v = fabs(s->speed);
  double preview = fmax(f->def.min_preview, f->def.preview_time * v);
  /* Nearest point, searched forward from the last one (the path does not double back). */
  int i = f->index;
  double best = (p->x[i] - rx) * (p->x[i] - rx) + (p->y[i] - ry) * (p->y[i] - ry);
  for (int j = i + 1; j < p->count; ++j) {
    double d2 = (p->x[j] - rx) * (p->x[j] - rx) + (p->y[j] - ry) * (p->y[j] - ry);
    if (d2 < best) best = d2, i = j;
    else if (d2 > best + 4.0 * preview * preview) break;
  }
  f->index = i;
  /* First path point ahead at the preview distance, interpolated along its segment. */
  double tx = p->x[p->count - 1], ty = p->y[p->count - 1];
  for (int j = i; j + 1 < p->count; ++j) {
    double d0 = hypot(p->x[j] - rx, p->y[j] - ry), d1 = hypot(p->x[j + 1] - rx, p->y[j + 1] - ry);
    if (d0 < preview && d1 >= preview) {
      double u = (preview - d0) / (d1 - d0);
      tx = p->x[j] + u * (p->x[j + 1] - p->x[j]);
      ty = p->y[j] + u * (p->y[j + 1] - p->y[j]);
      break;
    }
  }
  double alpha = remainder(atan2(ty - ry, tx - rx) - psi, 2.0 * GRIP_PI);
  double wheelbase = car_effective_wheelbase(car);
  double curvature = 2.0 * sin(alpha) / hypot(tx - rx, ty - ry);
  double road_wheel = atan(curvature * wheelbase);
  /* Steering input that gives that road-wheel angle (ratio, lock, speed-sensitive reduction). */
  double gain = car->steering.max_wheel_angle / car->steering.ratio;
  if (car->steering.speed_reduction_speed > 0.0) {
    double r = v / car->steering.speed_reduction_speed;
    gain /= 1.0 + r * r;
  }
  double wanted = road_wheel / gain;
  wanted = wanted > 1.0 ? 1.0 : (wanted < -1.0 ? -1.0 : wanted);
  double step = f->def.max_wheel_rate * dt / car->steering.max_wheel_angle;
  double change = wanted - f->steering;
  change = change > step ? step : (change < -step ? -step : change);
  f->steering += change;
  return f->steering;
}

/* --- the test ---------------------------------------------------------------------------------- */

/* The body's rectangle on the ground: its four corners in the world's x-y plane. */
static void body_corners(const grip_vehicle_def *car, const grip_vehicle_state *s, double cx[4], double cy[4]) {
  double hx = 0.5 * car->body.dimensions.x, hy = 0.5 * car->body.dimensions.y;
  double bx = car->body.box_center.x, by = car->body.box_center.y;
  const double sx[4] = {1, 1, -1, -1}, sy[4] = {1, -1, -1, 1};
  for (int k = 0; k < 4; ++k) to_world(s, bx + sx[k] * hx, by + sy[k] * hy, &cx[k], &cy[k]);
}

/* The y range of the part of a convex quadrilateral between x = a and x = b; false if none. */
static bool slab_y_range(const double cx[4], const double cy[4], double a, double b, double *lo, double *hi) {
  double ymin = INFINITY, ymax = -INFINITY;
  for (int k = 0; k < 4; ++k) {
    int n = (k + 1) % 4;
    if (cx[k] >= a && cx[k] <= b) ymin = fmin(ymin, cy[k]), ymax = fmax(ymax, cy[k]);
    const double lines[2] = {a, b};
    for (int l = 0; l < 2; ++l) {
      double x = lines[l];
      if ((cx[k] - x) * (cx[n] - x) < 0.0) {
        double y = cy[k] + (cy[n] - cy[k]) * (x - cx[k]) / (cx[n] - cx[k]);
        ymin = fmin(ymin, y), ymax = fmax(ymax, y);
      }
    }
  }
  if (ymin > ymax) return false;
  *lo = ymin, *hi = ymax;
  return true;
}

/* The test's driver steers the wheel itself; the car's own input filter (for keys and pads)
 * must not slow it (as in sine_dwell.c). */
static grip_vehicle_def driver_steered(const grip_vehicle_def *car) {
  grip_vehicle_def d = *car;
  d.input_filter.steer_rate = 0.0;
  return d;
}

lane_change_run sim_lane_change_run(const grip_vehicle_def *car, double target_kmh, double dt) {
  lane_change_run r;
  memset(&r, 0, sizeof r);
  r.target_kmh = target_kmh;
  r.entry_speed_kmh = r.exit_speed_kmh = NAN;
  r.min_clearance_m = INFINITY;
  grip_vehicle_def d = driver_steered(car);
  lane_change_track track = lane_change_track_for_width(car->body.dimensions.y);
  double speed = target_kmh / 3.6;
  grip_vehicle_id id;
  grip_world *world = sim_start_rolling(&d, &id, speed);
  if (!world) return r;
  grip_vehicle_state s;
  grip_vehicle_get_state(world, id, &s);
  double cx[4], cy[4];
  body_corners(&d, &s, cx, cy);
  double front = fmax(fmax(cx[0], cx[1]), fmax(cx[2], cx[3]));
  double gate = front + RUN_UP, y0 = 0.0;
  {
    double rx, ry;
    lane_change_rear_axle(&d, &s, &rx, &ry);
    y0 = ry;
  }
  sim_path path;
  if (!lane_change_path(&path, &track, gate, RUN_UP + 10.0, RUN_OUT, PATH_SPACING)) {
    grip_destroy_world(world);
    return r;
  }
  for (int i = 0; i < path.count; ++i) path.y[i] += y0;
  path_follower_def fd = default_path_follower_def();
  path_follower driver;
  path_follower_init(&driver, &fd, &path, 0.0);
  grip_vehicle_input in = grip_default_vehicle_input();
  sim_speed_control sc = {0};
  bool coasting = false;
  double time_limit = (RUN_UP + track.length + 20.0) / fmax(speed, 1.0) + 20.0;
  for (double t = 0.0; t < time_limit; t += dt) {
    grip_vehicle_get_state(world, id, &s);
    in.steering = path_follower_steer(&driver, &d, &s, dt);
    if (!coasting) sim_control_speed(&sc, &in, s.speed, speed, dt);
    grip_vehicle_set_input(world, id, &in);
    if (grip_world_step(world, dt) != GRIP_OK) break;
    grip_vehicle_get_state(world, id, &s);
    body_corners(&d, &s, cx, cy);
    double xmax = fmax(fmax(cx[0], cx[1]), fmax(cx[2], cx[3])) - gate;
    double xmin = fmin(fmin(cx[0], cx[1]), fmin(cx[2], cx[3])) - gate;
    if (!coasting && xmax >= 0.0) {
      /* Entry gate: the accelerator is released, the gear held, the clutch engaged. */
      coasting = true;
      r.entry_speed_kmh = 3.6 * s.speed;
      in.throttle = 0.0;
      in.brake = 0.0;
      in.automatic = false;
      in.gear = s.gear > 0 ? s.gear : 1;
      r.gear = in.gear;
    }
    if (!coasting) continue;
    for (int k = 0; k < 4; ++k) cy[k] -= y0, cx[k] -= gate;
    for (int l = 0; l < 3; ++l) {
      const lane_change_lane *lane = &track.lanes[l];
      double lo, hi;
      if (!slab_y_range(cx, cy, lane->x_begin, lane->x_end, &lo, &hi)) continue;
      double clearance = fmin(lane->y_left - hi, lo - lane->y_right);
      if (clearance < r.min_clearance_m) r.min_clearance_m = clearance;
      if (clearance < 0.0 && r.failed_section == 0) r.failed_section = 2 * l + 1;
    }
    if (xmin <= track.length) {
      double psi = sim_heading(&s);
      double ay = -s.acceleration.x * sin(psi) + s.acceleration.y * cos(psi);
      r.max_lateral_g = fmax(r.max_lateral_g, fabs(ay) / G);
      r.max_body_slip_deg = fmax(r.max_body_slip_deg, DEG * fabs(atan2(s.local_velocity.y, fabs(s.local_velocity.x))));
      r.max_steer_deg = fmax(r.max_steer_deg, DEG * fabs(in.steering) * d.steering.max_wheel_angle);
      if (s.esc_active) r.esc_acted = true;
    }
    if (xmin > track.length) {
      r.exit_speed_kmh = 3.6 * s.speed;
      break;
    }
    if (r.failed_section != 0) break; /* a cone is down: the run is over */
  }
  sim_path_free(&path);
  grip_destroy_world(world);
  r.passed = r.failed_section == 0 && !isnan(r.exit_speed_kmh);
  return r;
}

/* A coarse scan every LANE_CHANGE_SCAN_KMH from low_kmh up to high_kmh finds the highest
 * passing speed on that grid; a bisection on the 0.5 km/h grid between it and the next scanned
 * speed (a failure) then finds the edge. */
lane_change_result sim_lane_change_search(const grip_vehicle_def *car, double low_kmh, double high_kmh, double dt) {
  lane_change_result out;
  memset(&out, 0, sizeof out);
  out.max_pass_kmh = NAN;
  const int per_scan = (int)(LANE_CHANGE_SCAN_KMH / LANE_CHANGE_STEP_KMH + 0.5);
  const int k_top = (int)floor((high_kmh - low_kmh) / LANE_CHANGE_STEP_KMH + 1e-9);
  int k_lo = -1, k_hi = -1;
  lane_change_run lo, hi;
  memset(&lo, 0, sizeof lo);
  memset(&hi, 0, sizeof hi);
  for (int k = 0;; k += per_scan) {
    if (k > k_top) k = k_top;
    lane_change_run run = sim_lane_change_run(car, low_kmh + k * LANE_CHANGE_STEP_KMH, dt);
    ++out.runs;
    if (run.passed) {
      k_lo = k, lo = run;
      k_hi = -1;
    } else if (k_lo >= 0 && k_hi < 0) {
      k_hi = k, hi = run;
    }
    if (k == k_top) break;
  }
  if (k_lo < 0) {
    out.above = hi.target_kmh > 0.0 ? hi : lo;
    return out;
  }
  if (k_hi < 0) { /* passed at the top speed */
    out.capped = true;
    out.max_pass_kmh = lo.target_kmh;
    out.at_max = lo;
    return out;
  }
  /* Invariant: k_lo passes, k_hi fails. */
  while (k_hi - k_lo > 1) {
    int k = (k_lo + k_hi) / 2;
    lane_change_run run = sim_lane_change_run(car, low_kmh + k * LANE_CHANGE_STEP_KMH, dt);
    ++out.runs;
    if (run.passed) k_lo = k, lo = run;
    else k_hi = k, hi = run;
  }
  out.max_pass_kmh = lo.target_kmh;
  out.at_max = lo;
  out.above = hi;
  return out;
}
