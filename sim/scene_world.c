/* A world built from a scene: see scene_world.h. */
#include "scene_world.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grip/heightfield.h"
#include "grip/track.h"
#include "race.h"
#include "terrain.h"
#include "track_file.h"

#define FAIL_AT(line_, key_, ...)                                                  \
  do {                                                                             \
    grip_load_error_set(err, sc->path, line_, key_, __VA_ARGS__);                  \
    return -1;                                                                     \
  } while (0)

static int build_ground(scene_world *sw, grip_world_def *wd, grip_load_error *err) {
  const grip_scene *sc = sw->scene;
  const char *key = grip_scene_ground_name(sc->ground);
  grip_load_error e;
  grip_load_error_clear(&e);
  switch (sc->ground) {
  case GRIP_SCENE_GROUND_TERRAIN: {
    grip_terrain t;
    if (!grip_terrain_load(sc->ground_file, &t, &e)) FAIL_AT(sc->ground_line, key, "%s", e.message);
    if (t.units == GRIP_UNITS_DEGREES) {
      /* Inverse of the equirectangular map around the extent's centre (io/terrain.h). */
      const double deg_per_rad = 180.0 / 3.14159265358979323846;
      sw->geo_x0 = t.center_lon, sw->geo_y0 = t.center_lat;
      sw->geo_x_per_m = deg_per_rad / (GRIP_EARTH_RADIUS_M * cos(t.center_lat / deg_per_rad));
      sw->geo_y_per_m = deg_per_rad / GRIP_EARTH_RADIUS_M;
    } else {
      sw->geo_x0 = sw->geo_y0 = 0.0;
      sw->geo_x_per_m = sw->geo_y_per_m = 1.0 / t.unit_m;
    }
    grip_heightfield_def def = grip_terrain_heightfield_def(&t);
    def.edge = sc->terrain_edge;
    def.surfaces = &sc->surface;
    def.surface_count = 1;
    grip_result r = grip_heightfield_create(&def, &sw->heightfield);
    grip_terrain_free(&t);
    if (r != GRIP_OK)
      FAIL_AT(sc->ground_line, key, "%s: %s", sc->ground_file, r == GRIP_OUT_OF_MEMORY ? "out of memory" : "not a usable heightfield");
    grip_heightfield_get_info(sw->heightfield, &sw->terrain);
    wd->ground = grip_heightfield_ground(sw->heightfield);
    return 0;
  }
  case GRIP_SCENE_GROUND_TRACK: {
    grip_track_pit pit;
    if (grip_track_open_pit(sc->ground_file, &sw->track, sw->track_name, sizeof sw->track_name, &pit, &e) != 0)
      FAIL_AT(sc->ground_line, key, "%s", e.message);
    sw->has_pit_lane = pit_lane_init(&sw->pit, sw->track, &pit) == 0;
  }
    wd->ground = grip_track_ground(&sw->track_ground, sw->track);
    wd->barrier = grip_track_barriers(&sw->track_ground, sw->track);
    return 0;
  case GRIP_SCENE_GROUND_PLANE:
    sw->plane = grip_default_plane();
    sw->plane.offset = sc->plane_height;
    sw->plane.surface = sc->plane_surface;
    wd->ground = grip_plane_ground(&sw->plane);
    return 0;
  }
  FAIL_AT(0, NULL, "unknown ground");
}

/* Plan corners of what stands on the ground: the body box and the tyre contacts. */
static int footprint(const grip_vehicle_def *d, double x, double y, double heading, double px[4 + GRIP_MAX_WHEELS], double py[4 + GRIP_MAX_WHEELS]) {
  double c = cos(heading), s = sin(heading);
  double lx[4 + GRIP_MAX_WHEELS], ly[4 + GRIP_MAX_WHEELS];
  int n = 0;
  double hx = 0.5 * d->body.dimensions.x, hy = 0.5 * d->body.dimensions.y;
  for (int i = 0; i < 4; ++i) {
    lx[n] = d->body.box_center.x + ((i & 1) ? hx : -hx);
    ly[n++] = d->body.box_center.y + ((i & 2) ? hy : -hy);
  }
  for (int a = 0; a < d->axle_count; ++a)
    for (int side = -1; side <= 1; side += 2) {
      lx[n] = d->axles[a].x;
      ly[n++] = side * d->axles[a].half_track;
    }
  for (int i = 0; i < n; ++i) {
    px[i] = x + c * lx[i] - s * ly[i];
    py[i] = y + s * lx[i] + c * ly[i];
  }
  return n;
}

/* Plan rectangle of a car's body box. */
typedef struct plan_box {
  double cx, cy;   /* m, centre */
  double ux, uy;   /* unit, the box's length direction */
  double hl, hw;   /* m, half length and half width */
} plan_box;

static plan_box body_box(const grip_vehicle_def *d, double x, double y, double heading) {
  double c = cos(heading), s = sin(heading);
  return (plan_box){.cx = x + c * d->body.box_center.x - s * d->body.box_center.y,
                    .cy = y + s * d->body.box_center.x + c * d->body.box_center.y,
                    .ux = c, .uy = s, .hl = 0.5 * d->body.dimensions.x, .hw = 0.5 * d->body.dimensions.y};
}

/* Half extent of box b projected on the unit axis (ax, ay). */
static double project(const plan_box *b, double ax, double ay) {
  return b->hl * fabs(b->ux * ax + b->uy * ay) + b->hw * fabs(-b->uy * ax + b->ux * ay);
}

/* Separating-axis test of two rectangles in the plan (touching counts as apart). */
static bool boxes_overlap(const plan_box *a, const plan_box *b) {
  const double axes[4][2] = {{a->ux, a->uy}, {-a->uy, a->ux}, {b->ux, b->uy}, {-b->uy, b->ux}};
  double dx = b->cx - a->cx, dy = b->cy - a->cy;
  for (int i = 0; i < 4; ++i) {
    double d = fabs(dx * axes[i][0] + dy * axes[i][1]);
    if (d >= project(a, axes[i][0], axes[i][1]) + project(b, axes[i][0], axes[i][1])) return false;
  }
  return true;
}

/* Where car k starts: its own x, y, heading, or its grid slot. */
static void start_of(scene_world *sw, int k, int *slot_counter, double *x, double *y, double *heading) {
  const grip_scene_car *c = sw->cars[k].spec;
  if (c->has_position) {
    *x = c->x;
    *y = c->y;
    *heading = c->heading;
    sw->cars[k].grid_slot = -1;
    return;
  }
  race_slot s = race_grid_slot(sw->track, *slot_counter);
  sw->cars[k].grid_slot = (*slot_counter)++;
  *x = s.x;
  *y = s.y;
  *heading = s.heading;
}

static int place_car(scene_world *sw, int k, double x, double y, double heading, grip_load_error *err) {
  const grip_scene *sc = sw->scene;
  scene_world_car *wc = &sw->cars[k];
  const grip_scene_car *c = wc->spec;
  const grip_vehicle_def *d = grip_vehicle_get_def(sw->world, wc->id);
  int line = c->tow_line ? c->tow_line : (c->position_line ? c->position_line : c->line);
  const char *where = c->tow_line ? "tow" : (c->has_position ? "x, y" : NULL);
  if (sc->ground == GRIP_SCENE_GROUND_TERRAIN) {
    const grip_heightfield_info *t = &sw->terrain;
    double x0 = t->origin_x, x1 = t->origin_x + (t->cols - 1) * t->dx;
    double y0 = t->origin_y, y1 = t->origin_y + (t->rows - 1) * t->dy;
    double px[4 + GRIP_MAX_WHEELS], py[4 + GRIP_MAX_WHEELS];
    int n = footprint(d, x, y, heading, px, py);
    for (int i = 0; i < n; ++i)
      if (!(px[i] >= x0 && px[i] <= x1 && py[i] >= y0 && py[i] <= y1))
        FAIL_AT(line, where,
                "car '%s' at (%.3f, %.3f) reaches outside the terrain (x %.3f .. %.3f m, y %.3f .. %.3f m)", c->name, x,
                y, x0, x1, y0, y1);
  }
  if (sc->ground == GRIP_SCENE_GROUND_TRACK) {
    grip_track_location loc = grip_track_locate_full(sw->track, x, y);
    if (!loc.on_track)
      FAIL_AT(line, where, "car '%s' at (%.3f, %.3f) is beyond the track's barriers", c->name, x, y);
  }
  if (grip_vehicle_place(sw->world, wc->id, x, y, heading) != GRIP_OK)
    FAIL_AT(line, where, "no ground under car '%s' at (%.3f, %.3f)", c->name, x, y);
  grip_vehicle_state st;
  grip_vehicle_get_state(sw->world, wc->id, &st);
  wc->start = st.pose;
  wc->start_heading = heading;
  if (!scene_world_ground_height(sw, x, y, &wc->ground_z)) wc->ground_z = st.pose.position.z;
  if (c->has_z) {
    if (c->z < st.pose.position.z - 1e-9)
      FAIL_AT(c->z_line, "z", "%.4f m puts car '%s' into the ground (on the ground at static ride height: z = %.4f m)",
              c->z, c->name, st.pose.position.z);
    wc->start.position.z = c->z;
    if (grip_vehicle_set_pose(sw->world, wc->id, wc->start) != GRIP_OK)
      FAIL_AT(c->z_line, "z", "car '%s' cannot be posed there", c->name);
  }
  double speed = c->speed;
  for (int at = c->tow_index; at >= 0; at = sc->cars[at].tow_index) speed = sc->cars[at].speed; /* the lead's */
  if (speed > 0.0) {
    grip_vec3 f = grip_quat_rotate(wc->start.rotation, (grip_vec3){1.0, 0.0, 0.0});
    grip_vec3 v = {f.x * speed, f.y * speed, f.z * speed};
    if (grip_vehicle_set_velocity(sw->world, wc->id, v) != GRIP_OK)
      FAIL_AT(c->line, "speed_kmh", "car '%s' cannot start at %.1f km/h", c->name, 3.6 * speed);
  }
  return 0;
}

/* A towed car: straight behind its (placed) tow, the coupling over the tow's hitch point in
 * plan, then hitched. The hitch pulls the heights together in the first steps; a start with the
 * two points further apart than 0.3 m is refused (heights that don't match). */
/* Where towed car k stands behind its tow at tow_pose (design frame) turned to heading: the
 * tow's hitch point in the world (returned in *ball) and the plan position (x, y) that puts the
 * coupling over it. */
static void behind_tow(const grip_scene_car *c, grip_pose tow_pose, double heading, grip_vec3 *ball, double *x,
                       double *y) {
  *ball = grip_pose_transform(tow_pose, c->tow_point);
  *x = ball->x - (cos(heading) * c->coupling.x - sin(heading) * c->coupling.y);
  *y = ball->y - (sin(heading) * c->coupling.x + cos(heading) * c->coupling.y);
}

static int place_towed(scene_world *sw, int k, grip_load_error *err) {
  const grip_scene *sc = sw->scene;
  scene_world_car *wc = &sw->cars[k];
  const grip_scene_car *c = wc->spec;
  const scene_world_car *tow = &sw->cars[c->tow_index];
  double heading = tow->start_heading, x, y;
  grip_vec3 ball;
  behind_tow(c, tow->start, heading, &ball, &x, &y);
  if (place_car(sw, k, x, y, heading, err) != 0) return -1;
  grip_hitch_def hd = grip_default_hitch_def();
  hd.kind = c->fifth_wheel ? GRIP_HITCH_FIFTH_WHEEL : GRIP_HITCH_BALL;
  hd.tow = tow->id;
  hd.trailer = wc->id;
  hd.tow_point = c->tow_point;
  hd.trailer_point = c->coupling;
  wc->hitch = grip_create_hitch(sw->world, &hd);
  if (!grip_hitch_is_valid(sw->world, wc->hitch))
    FAIL_AT(c->tow_line, "tow", "car '%s' could not be hitched to '%s'", c->name, c->tow);
  double coupling_z = wc->start.position.z + c->coupling.z; /* straight and level at the start */
  if (fabs(coupling_z - ball.z) > 0.3)
    FAIL_AT(c->tow_line, "tow",
            "car '%s' stands with its coupling %.2f m %s the hitch point of '%s' (tow_point z and coupling z do not match)",
            c->name, fabs(coupling_z - ball.z), coupling_z > ball.z ? "above" : "below", c->tow);
  return 0;
}

int scene_world_create(const grip_scene *sc, int flags, scene_world **out, grip_load_error *err) {
  grip_load_error_clear(err);
  *out = NULL;
  scene_world *sw = calloc(1, sizeof *sw);
  if (!sw) {
    grip_load_error_set(err, sc->path, 0, NULL, "out of memory");
    return -1;
  }
  sw->scene = sc;
  sw->car_count = sc->car_count;
  sw->cars = calloc((size_t)sc->car_count, sizeof *sw->cars);
  sw->views = calloc((size_t)sc->car_count, sizeof *sw->views);
  sw->others = calloc((size_t)sc->car_count, sizeof *sw->others);
  grip_world_def wd = grip_default_world_def();
  int rc = -1;
  if (!sw->cars || !sw->views || !sw->others) {
    grip_load_error_set(err, sc->path, 0, NULL, "out of memory");
    goto done;
  }
  if (build_ground(sw, &wd, err) != 0) goto done;
  wd.gravity = (grip_vec3){0.0, 0.0, -sc->gravity};
  wd.vehicle_capacity = sc->car_count;
  sw->air_density = wd.air_density;
  sw->world = grip_create_world(&wd);
  if (!sw->world) {
    grip_load_error_set(err, sc->path, 0, NULL, "the world could not be created");
    goto done;
  }
  int slot = 0;
  for (int k = 0; k < sc->car_count; ++k) {
    scene_world_car *wc = &sw->cars[k];
    const grip_scene_car *c = &sc->cars[k];
    wc->spec = c;
    wc->track_hint = -1;
    grip_load_error e;
    if (grip_car_open(c->file, &wc->car, &e) != 0) {
      grip_load_error_set(err, sc->path, c->file_line ? c->file_line : c->line, "file", "%s", e.message);
      goto done;
    }
    wc->id = grip_create_vehicle(sw->world, &wc->car.def);
    if (!grip_vehicle_is_valid(sw->world, wc->id)) {
      grip_load_error_set(err, sc->path, c->file_line ? c->file_line : c->line, "file",
                          "car '%s': the definition is not valid", c->name);
      goto done;
    }
    wc->hitch = GRIP_NULL_HITCH;
    wc->grid_slot = -1;
    if (c->tow_index < 0) {
      double x, y, heading;
      start_of(sw, k, &slot, &x, &y, &heading);
      if (place_car(sw, k, x, y, heading, err) != 0) goto done;
    }
    wc->input = grip_default_vehicle_input();
    wc->input.throttle = c->throttle;
    wc->input.brake = c->brake;
    wc->input.steering = c->steer;
    wc->input.handbrake = c->handbrake;
    wc->input.automatic = true;
    wc->input.gear = c->gear;
    if (grip_vehicle_set_input(sw->world, wc->id, &wc->input) != GRIP_OK) {
      grip_load_error_set(err, sc->path, c->line, NULL, "car '%s': inputs rejected", c->name);
      goto done;
    }
  }
  /* Towed cars behind their tows, each once its tow stands (the loader refused loops). */
  for (int placed_any = 1; placed_any;) {
    placed_any = 0;
    for (int k = 0; k < sc->car_count; ++k) {
      const grip_scene_car *c = &sc->cars[k];
      if (c->tow_index < 0 || grip_hitch_is_valid(sw->world, sw->cars[k].hitch)) continue;
      const grip_scene_car *lead = &sc->cars[c->tow_index];
      if (lead->tow_index >= 0 && !grip_hitch_is_valid(sw->world, sw->cars[c->tow_index].hitch)) continue;
      if (place_towed(sw, k, err) != 0) goto done;
      placed_any = 1;
    }
  }
  /* No two body boxes overlapping at the start (in plan), a car and its trailer excepted. */
  for (int k = 1; k < sc->car_count; ++k) {
    const scene_world_car *b = &sw->cars[k];
    plan_box pb = body_box(&b->car.def, b->start.position.x, b->start.position.y, b->start_heading);
    for (int j = 0; j < k; ++j) {
      const scene_world_car *a = &sw->cars[j];
      if (b->spec->tow_index == j || a->spec->tow_index == k) continue;
      plan_box pa = body_box(&a->car.def, a->start.position.x, a->start.position.y, a->start_heading);
      if (boxes_overlap(&pa, &pb)) {
        const grip_scene_car *c = b->spec;
        grip_load_error_set(err, sc->path, c->position_line ? c->position_line : c->line, c->has_position ? "x, y" : NULL,
                            "car '%s' overlaps car '%s' at the start (their body boxes, %.2f x %.2f m and %.2f x %.2f m)",
                            c->name, a->spec->name, b->car.def.body.dimensions.x, b->car.def.body.dimensions.y,
                            a->car.def.body.dimensions.x, a->car.def.body.dimensions.y);
        goto done;
      }
    }
  }
  if (!(flags & SCENE_WORLD_NO_ROBOTS)) {
    robot_params params = robot_default_params();
    for (int k = 0; k < sc->car_count; ++k) {
      scene_world_car *wc = &sw->cars[k];
      if (wc->spec->driver != GRIP_SCENE_DRIVER_ROBOT) continue;
      wc->bot = robot_create(sw->track, grip_vehicle_get_def(sw->world, wc->id), &params, sw->air_density);
      if (!wc->bot) {
        grip_load_error_set(err, sc->path, wc->spec->line, "driver", "car '%s': the robot could not be set up",
                            wc->spec->name);
        goto done;
      }
    }
  }
  rc = 0;
done:
  if (rc != 0) {
    scene_world_destroy(sw);
    return -1;
  }
  *out = sw;
  return 0;
}

void scene_world_destroy(scene_world *sw) {
  if (!sw) return;
  if (sw->cars)
    for (int k = 0; k < sw->car_count; ++k) robot_destroy(sw->cars[k].bot);
  if (sw->world) grip_destroy_world(sw->world);
  grip_heightfield_destroy(sw->heightfield);
  if (sw->track) grip_track_destroy(sw->track);
  free(sw->cars);
  free(sw->views);
  free(sw->others);
  free(sw);
}

bool scene_world_place(scene_world *sw, int k, double x, double y, double heading) {
  if (k < 0 || k >= sw->car_count) return false;
  if (grip_vehicle_place(sw->world, sw->cars[k].id, x, y, heading) != GRIP_OK) return false;
  grip_vehicle_state st;
  grip_vehicle_get_state(sw->world, sw->cars[k].id, &st);
  bool ok = true;
  for (int j = 0; j < sw->car_count; ++j) {
    if (sw->cars[j].spec->tow_index != k) continue;
    grip_vec3 ball;
    double tx, ty;
    behind_tow(sw->cars[j].spec, st.pose, heading, &ball, &tx, &ty);
    ok = scene_world_place(sw, j, tx, ty, heading) && ok; /* the loader refused loops */
  }
  return ok;
}

bool scene_world_ground_height(const scene_world *sw, double x, double y, double *z) {
  grip_ground g = grip_world_get_ground(sw->world);
  if (!g.raycast) return false;
  const double top = 1e5;
  grip_ground_hit hit;
  grip_ground_query query = grip_no_vehicle_query();
  if (!g.raycast(g.context, &query, (grip_vec3){x, y, top}, (grip_vec3){0.0, 0.0, -1.0}, 2.0 * top, &hit)) return false;
  *z = hit.point.z;
  return true;
}

void scene_world_pass_trailer_brakes(scene_world *sw) {
  for (int k = 0; k < sw->car_count; ++k) {
    const scene_world_car *wc = &sw->cars[k];
    if (wc->spec->tow_index < 0 || wc->car.def.drivetrain.layout != GRIP_DRIVE_NONE) continue;
    grip_vehicle_input in = grip_vehicle_get_input(sw->world, wc->id);
    in.brake = grip_vehicle_get_input(sw->world, sw->cars[wc->spec->tow_index].id).brake;
    grip_vehicle_set_input(sw->world, wc->id, &in);
  }
}

grip_result scene_world_step(scene_world *sw, double dt) {
  grip_vehicle_state st;
  bool any_robot = false;
  for (int k = 0; k < sw->car_count; ++k) any_robot = any_robot || sw->cars[k].bot;
  if (any_robot) {
    /* What each robot sees of the others: where they are along the track now. */
    for (int k = 0; k < sw->car_count; ++k) {
      scene_world_car *wc = &sw->cars[k];
      grip_vehicle_get_state(sw->world, wc->id, &st);
      grip_track_progress loc = grip_track_locate_progress(sw->track, st.pose.position.x, st.pose.position.y, wc->track_hint);
      wc->track_hint = loc.segment;
      sw->views[k] = (robot_car_view){.distance = loc.distance, .lateral = loc.lateral, .speed = st.speed,
                                      .length = wc->car.def.body.dimensions.x, .width = wc->car.def.body.dimensions.y};
    }
    for (int k = 0; k < sw->car_count; ++k) {
      scene_world_car *wc = &sw->cars[k];
      if (!wc->bot) continue;
      int n = 0;
      for (int j = 0; j < sw->car_count; ++j)
        if (j != k) sw->others[n++] = sw->views[j];
      grip_vehicle_get_state(sw->world, wc->id, &st);
      /* more than four wheels: the robot reads them all (a truck's six) */
      wc->wheel_count = grip_vehicle_get_wheels(sw->world, wc->id, wc->wheels, GRIP_MAX_WHEELS);
      if (wc->wheel_count > GRIP_WHEEL_COUNT) robot_set_wheels(wc->bot, wc->wheels, wc->wheel_count);
      grip_vehicle_input in = robot_drive(wc->bot, &st, sw->others, n, dt);
      grip_vehicle_set_input(sw->world, wc->id, &in);
    }
  }
  scene_world_pass_trailer_brakes(sw);
  return grip_world_step(sw->world, dt);
}
