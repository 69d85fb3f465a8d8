/* The heads-up display: speed, rpm bar with redline and limiter, gear, laps and lap times, race
 * position, g-meter, pedal and steering bars, frame and physics rates, short messages. Text is
 * rendered with SDL2_ttf (DejaVu Sans) into textures, cached by string. */
#ifndef GRIP_VIEWER_HUD_H
#define GRIP_VIEWER_HUD_H

#include <stdbool.h>

#include "render.h"
#include "session.h"

typedef struct hud_info {
  double fps;           /* frames per s (wall clock) */
  double physics_rate;  /* steps per s of simulated time per wall-clock s */
  bool paused;
  bool slow_motion;
  bool place_mode;
  const char *camera;   /* camera mode name */
  bool automatic;       /* the person's gearbox mode */
} hud_info;

typedef struct hud hud;

/* NULL when the font cannot be opened (the HUD then draws its bars without text). */
hud *hud_create(void);
void hud_destroy(hud *h);

/* Draws the HUD for car k of the session over a width × height frame. */
void hud_draw(hud *h, renderer *r, const session *s, int k, const hud_info *info, int width, int height);

/* The HUD's panels, px: bottom-left panel (speed, gear, rpm) as x, y, w, h. */
void hud_main_panel(int width, int height, float out[4]);

#endif
