/* Cameras: chase (damped, kept inside the barriers), bonnet (the driver's eye), orbit/free (mouse),
 * trackside TV cameras that switch as the car passes, and a top-down map. */
#ifndef GRIP_VIEWER_CAMERA_H
#define GRIP_VIEWER_CAMERA_H

#include <stdbool.h>

#include "grip/grip.h"
#include "grip/track.h"

typedef enum camera_mode {
  CAMERA_CHASE = 0,
  CAMERA_BONNET,
  CAMERA_ORBIT,
  CAMERA_TV,
  CAMERA_MAP,
  CAMERA_FIXED, /* the scene's fixed camera (only when it has one) */
  CAMERA_MODE_COUNT,
} camera_mode;

typedef struct camera {
  camera_mode mode;
  double eye[3], target[3], up[3]; /* m, world; up is a direction */
  double fov_y;                    /* rad, vertical */
  double near_m, far_m;
  /* Chase. */
  double distance, height; /* m behind and above the car; 6, 2 */
  double towed_length;     /* m the car's trailers reach behind its own rear; the chase camera
                              backs off by it and rises by a third of it (0 without trailers) */
  bool settled;            /* false: jump to the wanted place on the next update */
  /* Orbit. */
  double yaw, pitch, range; /* rad, rad, m */
  /* TV. */
  int tv_index;
  /* Fixed: the scene's [camera] position, looking at its target or else at the car. */
  bool has_fixed, fixed_has_target;
  double fixed_eye[3], fixed_target[3]; /* m, world */
} camera;

void camera_init(camera *c, double fov_deg, double distance, double height);
const char *camera_mode_name(camera_mode m);
/* The mode after m when cycling (V): fixed only when the camera has a fixed place. */
camera_mode camera_next_mode(const camera *c, camera_mode m);
void camera_set_mode(camera *c, camera_mode m);

/* Moves the camera for a frame of frame_dt seconds to view a car at pose with definition def.
 * track may be NULL; ground (may have no raycast) keeps the camera above the ground. */
void camera_update(camera *c, const grip_pose *pose, const grip_vehicle_def *def, double frame_dt,
                   const grip_track *track, grip_ground ground);

#endif
