/* grip scene info FILE [--json]
 * grip scene run FILE [--seconds S] [--dt S] [--json]
 * Loads a scene file (docs/scene.md), builds its world (ground, cars at their starts) and reports
 * it, or steps it and reports where each car went. */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "clocks.h"
#include "scene.h"
#include "scene_world.h"

int cmd_scene(int argc, char **argv);

#define PI_ 3.14159265358979323846

/* deg in (-180, 180]. */
static double wrap_deg(double rad) { return atan2(sin(rad), cos(rad)) * 180.0 / PI_; }

static double heading_of(grip_quat q) {
  double fx = 1.0 - 2.0 * (q.y * q.y + q.z * q.z), fy = 2.0 * (q.x * q.y + q.w * q.z);
  return atan2(fy, fx);
}

/* Loads and builds; prints the error and returns 1 on failure. */
static int open_scene(const char *command, const char *file, int flags, grip_scene **scene, scene_world **sw) {
  *scene = malloc(sizeof **scene);
  *sw = NULL;
  if (!*scene) {
    fprintf(stderr, "grip scene %s: out of memory\n", command);
    return 1;
  }
  grip_load_error err;
  if (grip_scene_load(file, *scene, &err) != 0) {
    fprintf(stderr, "grip scene %s: %s\n", command, err.message);
    free(*scene);
    *scene = NULL;
    return 1;
  }
  for (int i = 0; i < (*scene)->warning_count; ++i)
    fprintf(stderr, "grip scene %s: warning: %s\n", command, (*scene)->warnings[i]);
  if ((*scene)->warnings_dropped)
    fprintf(stderr, "grip scene %s: warning: %d more warnings\n", command, (*scene)->warnings_dropped);
  if (scene_world_create(*scene, flags, sw, &err) != 0) {
    fprintf(stderr, "grip scene %s: %s\n", command, err.message);
    free(*scene);
    *scene = NULL;
    return 1;
  }
  for (int k = 0; k < (*sw)->car_count; ++k) {
    const grip_car *car = &(*sw)->cars[k].car;
    for (int i = 0; i < car->warning_count; ++i)
      fprintf(stderr, "grip scene %s: warning: %s\n", command, car->warnings[i]);
  }
  return 0;
}

static void close_scene(grip_scene *scene, scene_world *sw) {
  scene_world_destroy(sw);
  free(scene);
}

static int parse_file_arg(const char *usage, int argc, char **argv, const cli_option *options, int count,
                          const char **file) {
  int npos = 0;
  int rc = cli_parse(argc, argv, options, count, file, 1, &npos);
  if (rc) return rc == 1 ? -1 : rc;
  if (npos != 1) {
    fprintf(stderr, "grip scene %s: expected one scene FILE\n", usage);
    return CLI_USAGE_ERROR;
  }
  return 0;
}

static void json_vec3(json_writer *w, const char *key, grip_vec3 v) {
  json_open(w, key, '[');
  json_number(w, NULL, v.x);
  json_number(w, NULL, v.y);
  json_number(w, NULL, v.z);
  json_close(w, ']');
}

static void json_scene_head(json_writer *w, const grip_scene *sc, const scene_world *sw) {
  json_string(w, "scene", sc->name);
  json_string(w, "file", sc->path);
  json_open(w, "ground", '{');
  json_string(w, "kind", grip_scene_ground_name(sc->ground));
  if (sc->ground != GRIP_SCENE_GROUND_PLANE) json_string(w, "source", sc->ground_file);
  if (sc->ground == GRIP_SCENE_GROUND_TERRAIN) {
    const grip_heightfield_info *t = &sw->terrain;
    json_int(w, "rows", t->rows);
    json_int(w, "cols", t->cols);
    json_number(w, "dx_m", t->dx);
    json_number(w, "dy_m", t->dy);
    json_number(w, "x_min_m", t->origin_x);
    json_number(w, "x_max_m", t->origin_x + (t->cols - 1) * t->dx);
    json_number(w, "y_min_m", t->origin_y);
    json_number(w, "y_max_m", t->origin_y + (t->rows - 1) * t->dy);
    json_number(w, "min_height_m", t->min_height);
    json_number(w, "max_height_m", t->max_height);
    json_string(w, "edge", t->edge == GRIP_EDGE_CLAMP ? "clamp" : "no_ground");
    json_string(w, "surface", sc->surface_name);
  } else if (sc->ground == GRIP_SCENE_GROUND_TRACK) {
    json_string(w, "track", sw->track_name);
    json_number(w, "length_m", grip_track_length(sw->track));
  } else {
    json_number(w, "height_m", sc->plane_height);
    json_string(w, "surface", sc->plane_surface_name);
  }
  json_close(w, '}');
  json_string(w, "texture", sc->texture);
  json_number(w, "gravity_mps2", sc->gravity);
}

static void print_scene_head(const grip_scene *sc, const scene_world *sw) {
  printf("scene %s (%s)\n", sc->name, sc->path);
  if (sc->ground == GRIP_SCENE_GROUND_TERRAIN) {
    const grip_heightfield_info *t = &sw->terrain;
    printf("  ground   terrain %s: %d x %d samples, x %.2f .. %.2f m, y %.2f .. %.2f m, heights %.2f .. %.2f m, "
           "edge %s, surface %s\n",
           sc->ground_file, t->cols, t->rows, t->origin_x, t->origin_x + (t->cols - 1) * t->dx, t->origin_y,
           t->origin_y + (t->rows - 1) * t->dy, t->min_height, t->max_height,
           t->edge == GRIP_EDGE_CLAMP ? "clamp" : "no_ground", sc->surface_name);
  } else if (sc->ground == GRIP_SCENE_GROUND_TRACK) {
    printf("  ground   track %s (%s), %.1f m\n", sw->track_name, sc->ground_file, grip_track_length(sw->track));
  } else {
    printf("  ground   plane z = %.3f m, surface %s\n", sc->plane_height, sc->plane_surface_name);
  }
  if (sc->texture[0]) printf("  texture  %s\n", sc->texture);
  printf("  gravity  %.4g m/s^2\n", sc->gravity);
}

static int scene_info(int argc, char **argv) {
  bool json = false;
  const cli_option options[] = {CLI_OPTION_JSON(json)};
  const char *file = NULL;
  int rc = parse_file_arg("info", argc, argv, options, CLI_COUNT(options), &file);
  if (rc) return rc < 0 ? 0 : rc;
  grip_scene *sc;
  scene_world *sw;
  if (open_scene("info", file, SCENE_WORLD_NO_ROBOTS, &sc, &sw)) return 1;
  const grip_scene_camera *cam = &sc->camera;
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_scene_head(&w, sc, sw);
    json_open(&w, "camera", '{');
    json_string(&w, "mode", grip_scene_camera_mode_name(cam->mode));
    if (cam->has_position) json_vec3(&w, "position_m", cam->position);
    if (cam->has_target) json_vec3(&w, "target_m", cam->target);
    if (cam->follow[0]) json_string(&w, "follow", cam->follow);
    json_number(&w, "fov_deg", cam->fov_deg);
    json_number(&w, "distance_m", cam->distance);
    json_number(&w, "height_m", cam->height);
    json_close(&w, '}');
    json_open(&w, "cars", '[');
    for (int k = 0; k < sw->car_count; ++k) {
      const scene_world_car *wc = &sw->cars[k];
      const grip_scene_car *c = wc->spec;
      json_open(&w, NULL, '{');
      json_string(&w, "name", c->name);
      json_string(&w, "file", c->file);
      json_string(&w, "car", wc->car.name);
      json_number(&w, "x_m", wc->start.position.x);
      json_number(&w, "y_m", wc->start.position.y);
      json_number(&w, "z_m", wc->start.position.z);
      json_number(&w, "heading_deg", wrap_deg(wc->start_heading));
      json_number(&w, "ground_z_m", wc->ground_z);
      json_number(&w, "cg_height_m", wc->car.def.body.center_of_mass.z);
      json_int(&w, "grid_slot", wc->grid_slot);
      json_number(&w, "speed_kmh", 3.6 * c->speed);
      json_string(&w, "driver", grip_scene_driver_name(c->driver));
      json_string(&w, "towed_by", c->tow);
      json_string(&w, "hitch", c->tow[0] ? (c->fifth_wheel ? "fifth_wheel" : "ball") : "");
      json_number(&w, "mass_kg", wc->car.def.body.mass);
      json_close(&w, '}');
    }
    json_close(&w, ']');
    json_end(&w);
  } else {
    print_scene_head(sc, sw);
    printf("  camera   %s", grip_scene_camera_mode_name(cam->mode));
    if (cam->has_position) printf(", at (%.2f, %.2f, %.2f) m", cam->position.x, cam->position.y, cam->position.z);
    if (cam->has_target) printf(", looking at (%.2f, %.2f, %.2f) m", cam->target.x, cam->target.y, cam->target.z);
    if (cam->follow[0]) printf(", following %s", cam->follow);
    printf(", fov %.0f deg, distance %.1f m, height %.1f m\n", cam->fov_deg, cam->distance, cam->height);
    printf("  car          file                             x m        y m       z m   heading  ground z m  "
           "driver\n");
    for (int k = 0; k < sw->car_count; ++k) {
      const scene_world_car *wc = &sw->cars[k];
      const grip_scene_car *c = wc->spec;
      printf("  %-12s %-28s %10.3f %10.3f %9.3f %8.2f %11.3f  %s%s", c->name, c->file, wc->start.position.x,
             wc->start.position.y, wc->start.position.z, wrap_deg(wc->start_heading), wc->ground_z,
             grip_scene_driver_name(c->driver), wc->grid_slot >= 0 ? " (grid)" : "");
      if (c->tow[0]) printf(" (towed by %s, %s)", c->tow, c->fifth_wheel ? "fifth wheel" : "ball");
      printf("\n");
    }
  }
  close_scene(sc, sw);
  return 0;
}

/* What a car did during the run. */
typedef struct run_stats {
  double distance;        /* m, path length in plan */
  double max_speed;       /* m/s, forward */
  double airborne_s;      /* s with no wheel on the ground */
  double wheel_off_s;     /* s with at least one wheel off the ground */
  double min_compression; /* m, over all wheels and steps */
  double max_compression; /* m */
  double min_load;        /* N, smallest wheel load while every wheel touched */
  grip_vec3 last;         /* m, position at the previous step */
} run_stats;

static int scene_run(int argc, char **argv) {
  bool json = false;
  double seconds = 10.0, dt = 0.002;
  const cli_option options[] = {
      {"--seconds", CLI_DOUBLE, &seconds, 0.0, 86400.0, "simulated time, s (default 10)"},
      CLI_OPTION_DT(dt, "0.002"),
      CLI_OPTION_JSON(json),
  };
  const char *file = NULL;
  int rc = parse_file_arg("run", argc, argv, options, CLI_COUNT(options), &file);
  if (rc) return rc < 0 ? 0 : rc;
  grip_scene *sc;
  scene_world *sw;
  if (open_scene("run", file, 0, &sc, &sw)) return 1;
  int n = sw->car_count;
  run_stats *stats = calloc((size_t)n, sizeof *stats);
  if (!stats) {
    close_scene(sc, sw);
    fprintf(stderr, "grip scene run: out of memory\n");
    return 1;
  }
  grip_vehicle_state st;
  for (int k = 0; k < n; ++k) {
    grip_vehicle_get_state(sw->world, sw->cars[k].id, &st);
    stats[k].last = st.pose.position;
    stats[k].min_compression = INFINITY;
    stats[k].max_compression = -INFINITY;
    stats[k].min_load = INFINITY;
  }
  long long steps = llround(seconds / dt);
  double wall0 = clock_wall_s();
  for (long long i = 0; i < steps; ++i) {
    scene_world_step(sw, dt);
    for (int k = 0; k < n; ++k) {
      run_stats *s = &stats[k];
      grip_vehicle_get_state(sw->world, sw->cars[k].id, &st);
      grip_vec3 p = st.pose.position;
      s->distance += hypot(p.x - s->last.x, p.y - s->last.y);
      s->last = p;
      if (st.speed > s->max_speed) s->max_speed = st.speed;
      int touching = 0;
      double min_load = INFINITY;
      int wheels = st.wheel_count < GRIP_WHEEL_COUNT ? st.wheel_count : GRIP_WHEEL_COUNT; /* a three-wheeler's 3 */
      for (int j = 0; j < wheels; ++j) {
        const grip_wheel_state *wh = &st.wheels[j];
        touching += wh->in_contact;
        if (wh->load < min_load) min_load = wh->load;
        if (wh->compression < s->min_compression) s->min_compression = wh->compression;
        if (wh->compression > s->max_compression) s->max_compression = wh->compression;
      }
      if (st.out_of_world) continue; /* held where it left the world: not airborne */
      if (touching == 0) s->airborne_s += dt;
      if (touching < wheels) s->wheel_off_s += dt;
      else if (min_load < s->min_load) s->min_load = min_load;
    }
  }
  double wall = clock_wall_s() - wall0;
  double sim = (double)steps * dt;
  json_writer w;
  if (json) {
    json_begin(&w, stdout);
    json_scene_head(&w, sc, sw);
    json_number(&w, "seconds", sim);
    json_number(&w, "dt_s", dt);
    json_number(&w, "realtime_factor", wall > 0.0 ? sim / wall : INFINITY);
    char hash[20]; /* the world's end state: the same run gives the same hash, bit for bit */
    snprintf(hash, sizeof hash, "%016" PRIx64, grip_world_state_hash(sw->world));
    json_string(&w, "state_hash", hash);
    json_open(&w, "cars", '[');
  } else {
    print_scene_head(sc, sw);
    printf("  ran %.3f s at dt %g s (%.0f x real time)\n", sim, dt, wall > 0.0 ? sim / wall : INFINITY);
    printf("  car               x m        y m       z m  height m  heading  km/h  max km/h  distance m  airborne s  "
           "wheel off s  compression m\n");
  }
  for (int k = 0; k < n; ++k) {
    const scene_world_car *wc = &sw->cars[k];
    const run_stats *s = &stats[k];
    grip_vehicle_get_state(sw->world, wc->id, &st);
    double ground = NAN;
    scene_world_ground_height(sw, st.pose.position.x, st.pose.position.y, &ground);
    grip_vehicle_contacts contacts;
    grip_vehicle_get_contacts(sw->world, wc->id, &contacts);
    double heading = heading_of(st.pose.rotation) * 180.0 / PI_;
    if (json) {
      json_open(&w, NULL, '{');
      json_string(&w, "name", wc->spec->name);
      json_string(&w, "car", wc->car.name);
      json_string(&w, "driver", grip_scene_driver_name(wc->spec->driver));
      json_number(&w, "x_m", st.pose.position.x);
      json_number(&w, "y_m", st.pose.position.y);
      json_number(&w, "z_m", st.pose.position.z);
      json_number(&w, "ground_z_m", ground);
      json_number(&w, "height_above_ground_m", st.pose.position.z - ground);
      json_number(&w, "heading_deg", heading);
      json_number(&w, "speed_kmh", 3.6 * st.speed);
      json_number(&w, "max_speed_kmh", 3.6 * s->max_speed);
      json_number(&w, "distance_m", s->distance);
      json_number(&w, "displacement_m",
                  hypot(st.pose.position.x - wc->start.position.x, st.pose.position.y - wc->start.position.y));
      json_number(&w, "airborne_s", s->airborne_s);
      json_number(&w, "wheel_off_ground_s", s->wheel_off_s);
      json_bool(&w, "stayed_on_ground", s->wheel_off_s == 0.0);
      json_bool(&w, "out_of_world", st.out_of_world);
      json_number(&w, "min_compression_m", s->min_compression);
      json_number(&w, "max_compression_m", s->max_compression);
      json_number(&w, "min_wheel_load_n", s->min_load);
      json_int(&w, "impacts", contacts.impacts);
      json_int(&w, "gear", st.gear);
      json_close(&w, '}');
    } else {
      char height[16];
      if (st.out_of_world || !isfinite(ground))
        snprintf(height, sizeof height, "%9s", st.out_of_world ? "left" : "-");
      else
        snprintf(height, sizeof height, "%9.3f", st.pose.position.z - ground);
      printf("  %-12s %10.3f %10.3f %9.3f %s %8.2f %5.1f %9.1f %11.2f %11.3f %12.3f  %.4f .. %.4f\n",
             wc->spec->name, st.pose.position.x, st.pose.position.y, st.pose.position.z, height,
             heading, 3.6 * st.speed, 3.6 * s->max_speed, s->distance, s->airborne_s, s->wheel_off_s,
             s->min_compression, s->max_compression);
      if (st.out_of_world) printf("  %-12s left the world (drove off the terrain's edge): held where it left\n", "");
    }
  }
  if (json) {
    json_close(&w, ']');
    json_end(&w);
  }
  free(stats);
  close_scene(sc, sw);
  return 0;
}

int cmd_scene(int argc, char **argv) {
  const char *usage = "usage: grip scene info FILE [--json]\n"
                      "       grip scene run FILE [--seconds S] [--dt S] [--json]\n"
                      "Scene files (INI): docs/scene.md.\n";
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fputs(usage, argc < 2 ? stderr : stdout);
    return argc < 2 ? CLI_USAGE_ERROR : 0;
  }
  char *sub_argv[64];
  if (argc > 64) {
    fprintf(stderr, "grip scene: too many arguments\n");
    return CLI_USAGE_ERROR;
  }
  char name[32];
  snprintf(name, sizeof name, "scene %s", argv[1]);
  sub_argv[0] = name;
  for (int i = 2; i < argc; ++i) sub_argv[i - 1] = argv[i];
  if (strcmp(argv[1], "info") == 0) return scene_info(argc - 1, sub_argv);
  if (strcmp(argv[1], "run") == 0) return scene_run(argc - 1, sub_argv);
  fprintf(stderr, "grip scene: unknown subcommand '%s'\n%s", argv[1], usage);
  return CLI_USAGE_ERROR;
}
