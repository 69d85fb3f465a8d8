/* grip drive: drive a car in the 3D viewer while robots drive the others (docs/viewer.md). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "drive_command.h"
#include "input_config.h"
#include "session.h"
#include "viewer.h"

/* "a,b[,c]" into n doubles; false when malformed. */
static bool parse_numbers(const char *text, double *out, int n) {
  const char *p = text;
  for (int i = 0; i < n; ++i) {
    char *end;
    out[i] = strtod(p, &end);
    if (end == p) return false;
    if (i + 1 < n) {
      if (*end != ',') return false;
      p = end + 1;
    } else if (*end != '\0') {
      return false;
    }
  }
  return true;
}

static void json_vec3(json_writer *w, const char *key, const double v[3]) {
  json_open(w, key, '[');
  for (int i = 0; i < 3; ++i) json_number(w, NULL, v[i]);
  json_close(w, ']');
}

int cmd_drive(int argc, char **argv);
int cmd_drive(int argc, char **argv) { return drive_command(argc, argv, false); }

int drive_command(int argc, char **argv, bool watch) {
  const char *command = watch ? "watch" : "drive";
  session_options so = session_default_options();
  so.watch = watch;
  viewer_options vo = viewer_default_options();
  const char *telemetry = NULL, *marker = NULL, *click = NULL, *drag = NULL;
  bool json = false, no_window = false;
  int cars = 0;
  cli_option drive_options[] = {
      {"--scene", CLI_STRING, &so.scene_file, 0, 0, "scene file (docs/scene.md); replaces --track, --car, --opponents"},
      {"--track", CLI_STRING, &so.track, 0, 0, "default, a .track file, a TORCS .xml or torcs:NAME (default: default)"},
      {"--car", CLI_STRING, &so.car, 0, 0, "car: FILE.ini, torcs:NAME, TORCS car dir/XML, or builtin (default)"},
      {"--opponents", CLI_INT, &so.opponents, 0, 63, "robot cars besides yours (default 0)"},
      {"--cars", CLI_INT, &cars, 1, 64, "grip watch: number of robot cars (default 1)"},
      {"--laps", CLI_INT, &so.laps, 1, 1000, "laps of the race timing (default 3)"},
      CLI_OPTION_DT(so.dt, "0.01"),
      {"--autopilot", CLI_FLAG, &so.autopilot, 0, 0, "the robot drives your car"},
      {"--record", CLI_STRING, &so.record, 0, 0, "write a replay FILE (docs/replay.md)"},
      {"--toggle", CLI_STRING, &so.toggles, 0, 0, "SYSTEM@S,...: press the abs, tc or esc key at S s of simulated time (tests)"},
      {"--telemetry", CLI_STRING, &telemetry, 0, 0, "write telemetry CSV to FILE (10 rows per s per car)"},
      {"--frames", CLI_INT, &vo.frames, 1, 1e7, "render N frames of 1/60 s, then stop (tests, benchmark)"},
      {"--screenshot", CLI_STRING, &vo.screenshot, 0, 0, "save the last frame as a PNG"},
      {"--width", CLI_INT, &vo.width, 64, 8192, "window width, px (default 1280)"},
      {"--height", CLI_INT, &vo.height, 64, 8192, "window height, px (default 720)"},
      {"--camera", CLI_STRING, &vo.camera, 0, 0, "first camera: chase, bonnet, orbit, tv, map, fixed (the scene's)"},
      {"--follow", CLI_INT, &vo.follow, 1, 64, "car followed first (1-based)"},
      {"--hide-car", CLI_FLAG, &vo.hide_car, 0, 0, "do not draw the followed car (tests)"},
      {"--hide-body", CLI_FLAG, &vo.hide_body, 0, 0, "draw only the followed car's wheels (tests)"},
      {"--no-hud", CLI_FLAG, &vo.no_hud, 0, 0, "no HUD"},
      {"--generated-mesh", CLI_FLAG, &vo.generated_mesh, 0, 0, "TORCS tracks: show the mesh generated from the track, not the model"},
      {"--marker", CLI_STRING, &marker, 0, 0, "X,Y,Z: draw a magenta 0.5 m cube there (tests)"},
      {"--click", CLI_STRING, &click, 0, 0, "PX,PY: after the last frame, place the car where that pixel's ray meets the ground"},
      {"--drag", CLI_STRING, &drag, 0, 0, "PX,PY: the click is dragged there (sets the heading)"},
      {"--stats", CLI_FLAG, &vo.stats, 0, 0, "time each pass to its end (glFinish) for the JSON's pass_ms (benchmark)"},
      {"--no-window", CLI_FLAG, &no_window, 0, 0, "simulate the frames without a window (needs --frames)"},
      {"--input", CLI_STRING, &vo.input_file, 0, 0, "input configuration FILE: wheel, pedals, gamepad, keys (docs/input.md)"},
      {"--mute", CLI_FLAG, &vo.mute, 0, 0, "no sound"},
      CLI_OPTION_JSON(json),
  };
  int rc = cli_parse(argc, argv, drive_options, CLI_COUNT(drive_options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  if (vo.follow > 0) vo.follow -= 1;
  if (watch) so.opponents = (cars > 0 ? cars : 1) - 1;
  else if (cars) {
    fprintf(stderr, "grip drive: --cars is for grip watch; use --opponents\n");
    return CLI_USAGE_ERROR;
  }
  if (marker && !(vo.has_marker = parse_numbers(marker, vo.marker, 3))) {
    fprintf(stderr, "grip %s: --marker: expected X,Y,Z in m\n", command);
    return CLI_USAGE_ERROR;
  }
  if (click && !(vo.has_click = parse_numbers(click, vo.click, 2))) {
    fprintf(stderr, "grip %s: --click: expected PX,PY\n", command);
    return CLI_USAGE_ERROR;
  }
  if (drag && (!click || !(vo.has_drag = parse_numbers(drag, vo.drag, 2)))) {
    fprintf(stderr, "grip %s: --drag: expected PX,PY after --click\n", command);
    return CLI_USAGE_ERROR;
  }
  if (no_window && vo.frames <= 0) {
    fprintf(stderr, "grip %s: --no-window needs --frames N\n", command);
    return CLI_USAGE_ERROR;
  }
  if (no_window && (vo.screenshot || vo.has_click)) {
    fprintf(stderr, "grip %s: --screenshot and --click need the window\n", command);
    return CLI_USAGE_ERROR;
  }
  if (vo.input_file) {
    /* Checked before any window opens (the devices are opened with it). */
    grip_input_config input;
    grip_load_error err;
    if (grip_input_config_load(vo.input_file, &input, &err) != 0) {
      fprintf(stderr, "grip %s: %s\n", command, err.message);
      return 1;
    }
  }
  FILE *tel = NULL;
  if (telemetry && !(tel = fopen(telemetry, "w"))) {
    fprintf(stderr, "grip %s: %s: cannot write\n", command, telemetry);
    return 1;
  }
  so.telemetry = tel;
  session *s = session_open(&so, command);
  if (!s) {
    if (tel) fclose(tel);
    return 1;
  }
  viewer_result vr;
  memset(&vr, 0, sizeof vr);
  if (no_window) {
    double accumulator = 0.0;
    for (int f = 0; f < vo.frames; ++f) session_advance(s, &accumulator, SESSION_FIXED_FRAME_S);
    vr.frames = vo.frames;
  } else if (viewer_run(s, &vo, command, &vr) != 0) {
    session_close(s);
    if (tel) fclose(tel);
    return 1;
  }
  int follow = vo.follow >= 0 && vo.follow < s->car_count ? vo.follow : (s->human >= 0 ? s->human : 0);
  if (!no_window && vr.follow >= 0 && vr.follow < s->car_count) follow = vr.follow; /* the car the window followed last */
  const grip_vehicle_state *st = &s->cars[follow].cur;
  char hash[20];
  snprintf(hash, sizeof hash, "%016" PRIx64, session_hash(s));
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_string(&w, "command", command);
    json_bool(&w, "window", !no_window);
    json_int(&w, "frames", vr.frames);
    json_int(&w, "steps", s->step);
    json_number(&w, "dt_s", s->dt);
    json_number(&w, "sim_time_s", s->time);
    json_string(&w, "state_hash", hash);
    if (!no_window) {
      json_number(&w, "frame_ms_median", vr.frame_ms_median);
      json_number(&w, "frame_ms_p99", vr.frame_ms_p99);
      json_number(&w, "physics_steps_per_s", vr.physics_steps_per_s);
      json_number(&w, "frame_cpu_ms_median", vr.frame_cpu_ms_median);
      json_open(&w, "pass_ms_median", '{');
      json_number(&w, "physics", vr.pass_ms_physics);
      json_number(&w, "scene", vr.pass_ms_scene);
      json_number(&w, "hud", vr.pass_ms_hud);
      json_number(&w, "swap", vr.pass_ms_swap);
      json_close(&w, '}');
      json_bool(&w, "pass_ms_finished", vo.stats);
      json_int(&w, "draw_calls", vr.draw_calls);
      json_int(&w, "triangles", vr.triangles);
      if (vo.stats) json_number(&w, "fragments_per_pixel", vr.fragments_per_pixel);
      if (vr.terrain_levels > 0) {
        json_open(&w, "terrain_lod", '{');
        json_int(&w, "nodes_drawn", vr.terrain_nodes);
        json_int(&w, "finest_level", vr.terrain_finest_level);
        json_int(&w, "levels", vr.terrain_levels);
        json_close(&w, '}');
      }
      if (vr.car_model_triangles > 0) {
        json_open(&w, "car_model", '{');
        json_int(&w, "triangles", vr.car_model_triangles);
        json_int(&w, "translucent_triangles", vr.car_model_translucent_triangles);
        json_vec3(&w, "lo_m", vr.car_model_lo);
        json_vec3(&w, "hi_m", vr.car_model_hi);
        json_close(&w, '}');
      }
      json_open(&w, "camera", '{');
      json_string(&w, "mode", vr.camera_mode);
      json_vec3(&w, "eye_m", vr.eye);
      json_vec3(&w, "target_m", vr.target);
      json_vec3(&w, "up", vr.up);
      json_number(&w, "fov_y_deg", vr.fov_y_deg);
      json_number(&w, "near_m", vr.near_m);
      json_number(&w, "far_m", vr.far_m);
      json_int(&w, "width_px", vr.width);
      json_int(&w, "height_px", vr.height);
      json_close(&w, '}');
    }
    json_open(&w, "car", '{');
    json_int(&w, "index", follow + 1);
    double p[3] = {st->pose.position.x, st->pose.position.y, st->pose.position.z};
    json_vec3(&w, "position_m", p);
    if (!no_window) {
      /* Where the last frame drew the car (between two steps), for picture checks. */
      const grip_pose *dp = &vr.drawn_pose;
      double dpos[3] = {dp->position.x, dp->position.y, dp->position.z};
      json_vec3(&w, "drawn_position_m", dpos);
      json_open(&w, "drawn_rotation_wxyz", '[');
      json_number(&w, NULL, dp->rotation.w);
      json_number(&w, NULL, dp->rotation.x);
      json_number(&w, NULL, dp->rotation.y);
      json_number(&w, NULL, dp->rotation.z);
      json_close(&w, ']');
      /* The wheels' state at the last two steps, and where between them the frame was drawn
       * (docs/viewer.md: the wheel meshes follow steer_angle, rotation and compression). */
      json_number(&w, "drawn_step_fraction", vr.drawn_alpha);
      json_open(&w, "wheels", '[');
      for (int k = 0; k < s->cars[follow].wheel_count; ++k) { /* every wheel: a truck's six */
        const grip_wheel_state *a = &s->cars[follow].prev_wheels[k], *b = &s->cars[follow].cur_wheels[k];
        json_open(&w, NULL, '{');
        json_open(&w, "steer_rad", '[');
        json_number(&w, NULL, a->steer_angle);
        json_number(&w, NULL, b->steer_angle);
        json_close(&w, ']');
        json_open(&w, "rotation_rad", '[');
        json_number(&w, NULL, a->rotation);
        json_number(&w, NULL, b->rotation);
        json_close(&w, ']');
        json_open(&w, "compression_m", '[');
        json_number(&w, NULL, a->compression);
        json_number(&w, NULL, b->compression);
        json_close(&w, ']');
        json_open(&w, "spin_radps", '[');
        json_number(&w, NULL, a->spin);
        json_number(&w, NULL, b->spin);
        json_close(&w, ']');
        json_close(&w, '}');
      }
      json_close(&w, ']');
    }
    json_number(&w, "brake", s->cars[follow].input.brake);
    json_number(&w, "speed_kmh", 3.6 * st->speed);
    json_int(&w, "laps", s->cars[follow].laps_done);
    json_number(&w, "best_lap_s", s->cars[follow].best_lap);
    json_number(&w, "last_lap_s", s->cars[follow].last_lap);
    json_open(&w, "last_splits_s", '[');
    for (int j = 0; j < SESSION_SECTORS; ++j) json_number(&w, NULL, s->cars[follow].last_split[j]);
    json_close(&w, ']');
    json_open(&w, "best_splits_s", '[');
    for (int j = 0; j < SESSION_SECTORS; ++j) json_number(&w, NULL, s->cars[follow].best_split[j]);
    json_close(&w, ']');
    json_open(&w, "splits_s", '[');
    for (int j = 0; j < SESSION_SECTORS; ++j) json_number(&w, NULL, s->cars[follow].split[j]);
    json_close(&w, ']');
    json_number(&w, "delta_to_best_s", session_delta_to_best(s, follow));
    json_int(&w, "position", s->cars[follow].position);
    /* Car systems: on or off now, acting in the last step, and in how many steps each acted. */
    json_open(&w, "systems", '{');
    const bool acting[SESSION_SYSTEM_COUNT] = {st->abs_active, st->tc_active, st->esc_active};
    for (int j = 0; j < SESSION_SYSTEM_COUNT; ++j) {
      json_open(&w, session_system_names[j], '{');
      json_bool(&w, "on", session_system_on(s, follow, (session_system)j));
      json_bool(&w, "acting", acting[j]);
      json_int(&w, "active_steps", s->cars[follow].system_active_steps[j]);
      json_close(&w, '}');
    }
    json_close(&w, '}');
    json_close(&w, '}');
    if (vo.has_click) {
      json_open(&w, "click", '{');
      json_vec3(&w, "ray_origin_m", vr.click_origin);
      json_vec3(&w, "ray_direction", vr.click_direction);
      json_bool(&w, "hit", vr.click_hit);
      if (vr.click_hit) json_vec3(&w, "hit_m", vr.click_point);
      json_bool(&w, "placed", vr.click_placed);
      if (vr.click_placed) {
        json_vec3(&w, "car_m", vr.placed);
        json_number(&w, "heading_deg", vr.placed_heading * 57.29577951308232);
      }
      json_close(&w, '}');
    }
    json_end(&w);
  } else {
    printf("%s: %lld frames, %lld steps of %g s (%.2f s simulated), state hash %s\n", command, (long long)vr.frames,
           s->step, s->dt, s->time, hash);
    if (!no_window)
      printf("frame time median %.2f ms, p99 %.2f ms; %.0f physics steps/s\n", vr.frame_ms_median, vr.frame_ms_p99,
             vr.physics_steps_per_s);
  }
  session_close(s);
  if (tel) fclose(tel);
  if (vo.has_click && !vr.click_placed) {
    fprintf(stderr, "grip %s: --click: the pixel's ray meets no ground where the car can stand\n", command);
    return 1;
  }
  return 0;
}
