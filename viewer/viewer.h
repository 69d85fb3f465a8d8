/* The 3D viewer: a window (SDL2, OpenGL 3.3 core through libepoxy) showing a session (session.h):
 * the world, the cars, cameras, the HUD; the keyboard drives the person's car. docs/viewer.md. */
#ifndef GRIP_VIEWER_H
#define GRIP_VIEWER_H

#include <stdbool.h>

#include "session.h"

typedef struct viewer_options {
  int width, height;        /* px; 1280 × 720 */
  int frames;               /* > 0: render this many frames with a fixed 1/60 s frame time, then
                               stop (tests, benchmark); 0: interactive, wall-clock time */
  const char *screenshot;   /* PNG of the last frame, or NULL */
  const char *camera;       /* first camera: chase, bonnet, orbit, tv, map (NULL: the scene's) */
  int follow;               /* car followed first (0-based), -1: the person's car (or car 0) */
  bool hide_car;            /* do not draw the followed car (tests) */
  bool hide_body;           /* draw only the followed car's wheels (tests) */
  bool no_hud;
  bool generated_mesh;      /* TORCS tracks: the mesh generated from the geometry, not their model */
  bool has_marker;          /* draw a magenta 0.5 m cube at marker (tests) */
  double marker[3];         /* m, world */
  bool has_click;           /* after the last frame: place the followed car where the pixel's
                               ray meets the ground (tests of click-to-place) */
  double click[2];          /* px from the top left */
  bool has_drag;            /* the click is dragged to drag[] (sets the heading) */
  double drag[2];
  bool stats;               /* finish the GL work after each pass (glFinish) so that the pass
                               times in viewer_result are the renderer's, not the submission's */
  const char *input_file;   /* input configuration (docs/input.md), NULL: keyboard + gamepad */
  bool mute;                /* no sound */
} viewer_options;

viewer_options viewer_default_options(void);

typedef struct viewer_result {
  long long frames;
  int follow;                           /* the car followed in the last frame (0-based) */
  double frame_ms_median, frame_ms_p99; /* wall-clock frame times */
  double physics_steps_per_s;           /* steps per wall-clock s over the run */
  double frame_cpu_ms_median;           /* CPU time of the process per frame, all threads (a
                                           software renderer's threads too), ms: on a machine
                                           shared with other jobs, a figure the load does not
                                           inflate; wall time >= CPU time / cores */
  /* Median wall-clock ms per frame of each pass: physics steps, the 3D scene (camera, world,
   * cars, sky), the HUD, the buffer swap. With viewer_options.stats each pass is finished
   * (glFinish) before its clock stops; without, they time the submission only. */
  double pass_ms_physics, pass_ms_scene, pass_ms_hud, pass_ms_swap;
  long long draw_calls;                 /* 3D draw calls of the last frame */
  long long triangles;                  /* 3D triangles submitted in the last frame */
  int terrain_nodes;                    /* terrain scenes: level-of-detail nodes drawn in the last frame */
  int terrain_finest_level;             /* the finest level among them (0: every sample) */
  int terrain_levels;                   /* levels of the terrain's tree */
  double fragments_per_pixel;           /* --stats: fragments of the last frame's 3D scene that
                                           passed the depth test, per pixel (1 = no overdraw) */
  const char *camera_mode;
  double eye[3], target[3], up[3];      /* camera of the last frame */
  grip_pose drawn_pose;                 /* the followed car's pose as the last frame drew it
                                           (interpolated between steps) */
  double drawn_alpha;                   /* where between the last two steps the last frame was
                                           drawn: 0 = the previous step, 1 = the current one */
  double fov_y_deg, near_m, far_m;
  int width, height;
  /* The followed car's own 3D model (car_model_triangles 0: the generated body is drawn). */
  int car_model_triangles;
  int car_model_translucent_triangles;  /* of them, drawn blended (windows) */
  double car_model_lo[3], car_model_hi[3]; /* m, its bounding box in the car's design frame */
  bool click_hit;                       /* the click's ray met the ground */
  double click_point[3];                /* m, where */
  double click_origin[3], click_direction[3]; /* the ray */
  bool click_placed;                    /* the car was placed there */
  double placed[3];                     /* m, the car's position after placing */
  double placed_heading;                /* rad */
} viewer_result;

/* Runs the window until it is closed (or the frames are done). Returns 0, or 1 after printing
 * "grip CMD: what is wrong" (no display, no OpenGL 3.3). */
int viewer_run(session *s, const viewer_options *o, const char *command, viewer_result *result);

#endif
