/* The heads-up display: see hud.h. */
#include "hud.h"

#include <SDL.h>
#include <SDL_ttf.h>
#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef GRIP_HUD_FONT
#define GRIP_HUD_FONT "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
#endif

enum { TEXT_CACHE = 96, FONT_SIZES = 3 };

typedef struct text_entry {
  char text[64];
  int size;
  unsigned texture;
  int width, height;
  unsigned long long used;
} text_entry;

struct hud {
  TTF_Font *font[FONT_SIZES]; /* small, medium, large */
  text_entry cache[TEXT_CACHE];
  unsigned long long frame;
};

static const int kFontPx[FONT_SIZES] = {15, 22, 44};

hud *hud_create(void) {
  if (!TTF_WasInit() && TTF_Init() != 0) return NULL;
  hud *h = calloc(1, sizeof *h);
  if (!h) return NULL;
  for (int i = 0; i < FONT_SIZES; ++i) {
    h->font[i] = TTF_OpenFont(GRIP_HUD_FONT, kFontPx[i]);
    if (!h->font[i]) {
      fprintf(stderr, "grip viewer: HUD font %s: %s (HUD text left out)\n", GRIP_HUD_FONT, TTF_GetError());
      break;
    }
  }
  return h;
}

void hud_destroy(hud *h) {
  if (!h) return;
  for (int i = 0; i < TEXT_CACHE; ++i)
    if (h->cache[i].texture) glDeleteTextures(1, &h->cache[i].texture);
  for (int i = 0; i < FONT_SIZES; ++i)
    if (h->font[i]) TTF_CloseFont(h->font[i]);
  free(h);
}

static text_entry *text_texture(hud *h, const char *s, int size) {
  if (!h || !h->font[size] || !s[0]) return NULL;
  text_entry *oldest = &h->cache[0];
  for (int i = 0; i < TEXT_CACHE; ++i) {
    text_entry *e = &h->cache[i];
    if (e->texture && e->size == size && strcmp(e->text, s) == 0) {
      e->used = h->frame;
      return e;
    }
    if (e->used < oldest->used) oldest = e;
  }
  SDL_Color white = {255, 255, 255, 255};
  SDL_Surface *surf = TTF_RenderUTF8_Blended(h->font[size], s, white);
  if (!surf) return NULL;
  SDL_Surface *rgba = SDL_ConvertSurfaceFormat(surf, SDL_PIXELFORMAT_ABGR8888, 0);
  SDL_FreeSurface(surf);
  if (!rgba) return NULL;
  /* Tightly packed rows for the upload. */
  unsigned char *pixels = malloc((size_t)rgba->w * (size_t)rgba->h * 4);
  if (!pixels) {
    SDL_FreeSurface(rgba);
    return NULL;
  }
  for (int y = 0; y < rgba->h; ++y)
    memcpy(pixels + (size_t)y * (size_t)rgba->w * 4, (unsigned char *)rgba->pixels + (size_t)y * (size_t)rgba->pitch,
           (size_t)rgba->w * 4);
  if (oldest->texture) glDeleteTextures(1, &oldest->texture);
  oldest->texture = renderer_texture_rgba(pixels, rgba->w, rgba->h, false);
  oldest->width = rgba->w;
  oldest->height = rgba->h;
  oldest->size = size;
  oldest->used = h->frame;
  snprintf(oldest->text, sizeof oldest->text, "%s", s);
  free(pixels);
  SDL_FreeSurface(rgba);
  return oldest;
}

/* align: 0 left, 1 right, 2 centre (of x). */
static void text(hud *h, renderer *r, const char *s, float x, float y, int size, const float color[4], int align) {
  text_entry *e = text_texture(h, s, size);
  if (!e) return;
  float w = (float)e->width;
  if (align == 1) x -= w;
  if (align == 2) x -= 0.5f * w;
  const float shadow[4] = {0.0f, 0.0f, 0.0f, 0.6f * color[3]};
  renderer_quad_2d(r, x + 1.5f, y + 1.5f, w, (float)e->height, shadow, e->texture);
  renderer_quad_2d(r, x, y, w, (float)e->height, color, e->texture);
}

static void format_time(double t, char *out, size_t n) {
  if (!isfinite(t) || t < 0.0) {
    snprintf(out, n, "--:--.---");
    return;
  }
  int m = (int)(t / 60.0);
  snprintf(out, n, "%d:%06.3f", m, t - 60.0 * m);
}

/* A bar filled to fraction f (0..1) from the left. */
static void bar(renderer *r, float x, float y, float w, float hgt, double f, const float color[4]) {
  static const float back[4] = {0.0f, 0.0f, 0.0f, 0.45f};
  renderer_quad_2d(r, x, y, w, hgt, back, 0);
  if (f > 0.0) renderer_quad_2d(r, x, y, w * (float)fmin(f, 1.0), hgt, color, 0);
}

void hud_main_panel(int width, int height, float out[4]) {
  (void)width;
  out[0] = 16.0f;
  out[1] = (float)height - 150.0f;
  out[2] = 340.0f;
  out[3] = 134.0f;
}

void hud_draw(hud *h, renderer *r, const session *s, int k, const hud_info *info, int width, int height) {
  static const float white[4] = {1, 1, 1, 1}, grey[4] = {0.8f, 0.85f, 0.9f, 1}, panel[4] = {0.02f, 0.03f, 0.05f, 0.55f};
  static const float green[4] = {0.2f, 0.85f, 0.3f, 0.95f}, red[4] = {0.95f, 0.15f, 0.1f, 0.95f};
  static const float blue[4] = {0.3f, 0.55f, 1.0f, 0.95f}, amber[4] = {1.0f, 0.75f, 0.1f, 0.95f};
  static const float yellow[4] = {1.0f, 0.9f, 0.2f, 1.0f};
  if (h) h->frame++;
  /* Below 1100 px wide the HUD is laid out on a larger virtual canvas and scaled down, so that
   * its panels do not overlap. */
  if (width < 1100) {
    height = (int)lround(height * 1100.0 / width);
    width = 1100;
  }
  renderer_begin_2d(r, width, height);
  const session_car *c = &s->cars[k];
  const grip_vehicle_state *st = &c->cur;
  const grip_vehicle_def *def = c->def;
  char buf[96];

  /* Bottom left: speed, gear, rpm bar with the redline and the limiter. */
  float p[4];
  hud_main_panel(width, height, p);
  renderer_quad_2d(r, p[0], p[1], p[2], p[3], panel, 0);
  snprintf(buf, sizeof buf, "%.0f", fabs(3.6 * st->speed));
  text(h, r, buf, p[0] + 150.0f, p[1] + 8.0f, 2, white, 1);
  text(h, r, "km/h", p[0] + 156.0f, p[1] + 34.0f, 0, grey, 0);
  if (st->gear == GRIP_GEAR_REVERSE) snprintf(buf, sizeof buf, "R");
  else if (st->gear == GRIP_GEAR_NEUTRAL) snprintf(buf, sizeof buf, "N");
  else snprintf(buf, sizeof buf, "%d", st->gear);
  text(h, r, buf, p[0] + p[2] - 60.0f, p[1] + 8.0f, 2, st->shifting ? amber : white, 2);
  if (c->input.automatic) text(h, r, "A", p[0] + p[2] - 22.0f, p[1] + 12.0f, 1, amber, 2);
  double limit = def->engine.rev_limit_rpm;
  double redline = 0.9 * limit;
  float bx = p[0] + 12.0f, by = p[1] + 72.0f, bw = p[2] - 24.0f, bh = 18.0f;
  bool limiter = st->engine_rpm >= limit - 50.0;
  bar(r, bx, by, bw, bh, st->engine_rpm / limit, limiter ? red : (st->engine_rpm >= redline ? amber : green));
  static const float redzone[4] = {0.8f, 0.05f, 0.05f, 0.5f};
  renderer_quad_2d(r, bx + bw * (float)(redline / limit), by - 4.0f, bw * (float)(1.0 - redline / limit), 4.0f, redzone, 0);
  snprintf(buf, sizeof buf, "%.0f rpm%s", st->engine_rpm, limiter ? "  LIMITER" : "");
  text(h, r, buf, bx, by + 24.0f, 0, limiter ? red : grey, 0);

  /* Top left: laps, times, position. */
  const float panel_height = s->sw->track ? 170.0f : 126.0f; /* sector and delta lines on a track */
  renderer_quad_2d(r, 16.0f, 16.0f, 250.0f, panel_height, panel, 0);
  if (s->sw->track) {
    int lap = c->laps_done + 1 > s->laps ? s->laps : c->laps_done + 1;
    snprintf(buf, sizeof buf, "Lap %d/%d   P%d/%d", lap, s->laps, c->position, s->racing_cars);
    text(h, r, buf, 26.0f, 22.0f, 1, white, 0);
    char t[32];
    format_time(c->finished ? c->last_lap : s->time - c->lap_start, t, sizeof t);
    snprintf(buf, sizeof buf, "Current  %s", t);
    text(h, r, buf, 26.0f, 56.0f, 0, white, 0);
    format_time(c->last_lap, t, sizeof t);
    snprintf(buf, sizeof buf, "Last       %s", t);
    text(h, r, buf, 26.0f, 78.0f, 0, grey, 0);
    format_time(c->best_lap, t, sizeof t);
    snprintf(buf, sizeof buf, "Best       %s", t);
    text(h, r, buf, 26.0f, 100.0f, 0, grey, 0);
    /* The latest sector split (time from the lap's start to the sector's end) and its
     * difference to the best lap's split there: green ahead, amber behind. */
    static const float ahead[4] = {0.35f, 0.95f, 0.45f, 1.0f}, behind[4] = {1.0f, 0.72f, 0.2f, 1.0f};
    int j = c->last_sector;
    const double *split = j >= 0 ? c->split : c->last_split;
    if (j < 0 && !isnan(c->last_lap)) j = SESSION_SECTORS - 1;
    if (j >= 0) {
      format_time(split[j], t, sizeof t);
      double diff = split[j] - c->best_split[j];
      /* A lap that just became the best is compared with itself: no difference to show. */
      if (isnan(diff) || (c->last_sector < 0 && split[j] == c->best_split[j] && c->last_lap == c->best_lap))
        snprintf(buf, sizeof buf, "S%d  %s", j + 1, t);
      else
        snprintf(buf, sizeof buf, "S%d  %s  %+.3f", j + 1, t, diff);
      text(h, r, buf, 26.0f, 122.0f, 0, isnan(diff) || diff <= 0.0 ? ahead : behind, 0);
    } else {
      text(h, r, "S-  --:--.---", 26.0f, 122.0f, 0, grey, 0);
    }
    double delta = session_delta_to_best(s, k);
    if (isnan(delta)) snprintf(buf, sizeof buf, "Delta   --");
    else snprintf(buf, sizeof buf, "Delta   %+.2f", delta);
    text(h, r, buf, 26.0f, 144.0f, 0, isnan(delta) ? grey : (delta <= 0.0 ? ahead : behind), 0);
  } else {
    snprintf(buf, sizeof buf, "%.60s", s->scene.name);
    text(h, r, buf, 26.0f, 22.0f, 1, white, 0);
    char t[32];
    format_time(s->time, t, sizeof t);
    snprintf(buf, sizeof buf, "Time  %s", t);
    text(h, r, buf, 26.0f, 56.0f, 0, grey, 0);
  }
  snprintf(buf, sizeof buf, "car %d/%d  %s", k + 1, s->car_count, c->wc->spec->name);
  text(h, r, buf, 26.0f, panel_height - 6.0f, 0, grey, 0);

  /* Top right: rates and modes. */
  renderer_quad_2d(r, (float)width - 246.0f, 16.0f, 230.0f, 94.0f, panel, 0);
  snprintf(buf, sizeof buf, "%.0f fps  %.0f steps/s", info->fps, info->physics_rate);
  text(h, r, buf, (float)width - 26.0f, 22.0f, 0, grey, 1);
  snprintf(buf, sizeof buf, "cam %s%s%s%s", info->camera, info->paused ? "  PAUSED" : "", info->slow_motion ? "  x0.25" : "",
           info->place_mode ? "  PLACE" : "");
  text(h, r, buf, (float)width - 26.0f, 44.0f, 0, info->paused || info->place_mode ? amber : grey, 1);
  snprintf(buf, sizeof buf, "dt %.3g s", s->dt);
  text(h, r, buf, (float)width - 26.0f, 64.0f, 0, grey, 1);
  /* Car systems of the followed car: grey "off", green on, amber in a step where it acted. */
  const bool acting[SESSION_SYSTEM_COUNT] = {st->abs_active, st->tc_active, st->esc_active};
  static const char *const labels[SESSION_SYSTEM_COUNT] = {"ABS", "TC", "ESC"};
  /* Right-aligned like the lines above, each label as wide as its text, 16 px apart. */
  char system_text[SESSION_SYSTEM_COUNT][16];
  float system_width[SESSION_SYSTEM_COUNT], right = (float)width - 26.0f;
  for (int j = 0; j < SESSION_SYSTEM_COUNT; ++j) {
    snprintf(system_text[j], sizeof system_text[j], "%s %s", labels[j], session_system_on(s, k, (session_system)j) ? "on" : "off");
    text_entry *e = text_texture(h, system_text[j], 0);
    system_width[j] = e ? (float)e->width : 0.0f;
  }
  float x = right - system_width[0] - system_width[1] - system_width[2] - 2.0f * 16.0f;
  for (int j = 0; j < SESSION_SYSTEM_COUNT; ++j) {
    bool on = session_system_on(s, k, (session_system)j);
    text(h, r, system_text[j], x, 86.0f, 0, !on ? grey : (acting[j] ? amber : green), 0);
    x += system_width[j] + 16.0f;
  }

  /* Bottom right: g-meter (a 1.5 g circle) and the pedal/steering bars. */
  float gx = (float)width - 90.0f, gy = (float)height - 90.0f, gr = 64.0f;
  renderer_quad_2d(r, gx - gr - 10.0f, gy - gr - 10.0f, 2.0f * gr + 20.0f, 2.0f * gr + 20.0f, panel, 0);
  static const float ring[4] = {0.8f, 0.85f, 0.9f, 0.6f};
  for (int i = 0; i < 48; ++i) {
    double a = 6.283185307 * i / 48.0;
    for (int g = 1; g <= 3; ++g) {
      float rad = gr * (float)g / 3.0f;
      renderer_quad_2d(r, gx + rad * (float)cos(a) - 1.0f, gy + rad * (float)sin(a) - 1.0f, 2.0f, 2.0f, ring, 0);
    }
  }
  /* Lateral g to the right of the dot when the car is pushed right (turning left pushes it
   * right: a_y > 0 left turn), longitudinal: braking moves the dot up. */
  double glat = st->local_acceleration.y / 9.81, glon = st->local_acceleration.x / 9.81;
  double gs = gr / 1.5;
  float dx = (float)fmax(-gr, fmin(gr, -glat * gs)), dy = (float)fmax(-gr, fmin(gr, glon * gs));
  renderer_quad_2d(r, gx + dx - 5.0f, gy + dy - 5.0f, 10.0f, 10.0f, yellow, 0);
  snprintf(buf, sizeof buf, "%.2f g", hypot(glat, glon));
  text(h, r, buf, gx, gy + gr - 6.0f, 0, white, 2);

  float px = (float)width - 340.0f, py = (float)height - 150.0f;
  renderer_quad_2d(r, px - 8.0f, py - 8.0f, 170.0f, 134.0f, panel, 0);
  const char *names[3] = {"thr", "brk", "clu"};
  double values[3] = {c->input.throttle, c->input.brake, st->clutch_engagement < 1.0 ? 1.0 - st->clutch_engagement : 0.0};
  const float *colors[3] = {green, red, blue};
  for (int i = 0; i < 3; ++i) {
    text(h, r, names[i], px, py + 28.0f * (float)i, 0, grey, 0);
    bar(r, px + 36.0f, py + 4.0f + 28.0f * (float)i, 110.0f, 14.0f, values[i], colors[i]);
  }
  text(h, r, "str", px, py + 84.0f, 0, grey, 0);
  static const float back[4] = {0.0f, 0.0f, 0.0f, 0.45f};
  renderer_quad_2d(r, px + 36.0f, py + 88.0f, 110.0f, 14.0f, back, 0);
  float sw = 55.0f * (float)c->input.steering; /* + left: the bar grows to the left */
  renderer_quad_2d(r, px + 91.0f - fmaxf(sw, 0.0f), py + 88.0f, fabsf(sw), 14.0f, amber, 0);

  /* Messages. */
  const char *msg = NULL;
  if (c->retired) msg = "RETIRED: left the world (R to reset)";
  else if (c->out_of_fuel) msg = "OUT OF FUEL";
  else if (c->contact_time >= 0.0 && s->time - c->contact_time < 1.5) msg = "CONTACT";
  else if (c->off_track) msg = "OFF TRACK";
  else if (c->finished) msg = "FINISHED";
  if (msg) text(h, r, msg, 0.5f * (float)width, 60.0f, 1, msg[0] == 'F' ? green : amber, 2);
  renderer_end_2d(r);
}
