/* The car's sound: see sound_engine.h. */
#include "sound_engine.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static const double kTwoPi = 6.28318530717958647692;

#define MAX_HARMONICS 32
#define BLOCK 32 /* samples between updates of the harmonic amplitudes */

sound_def sound_default_def(void) { return (sound_def){.cylinders = 8, .strokes = 4, .character = 0.5, .volume = 0.8}; }

double sound_firing_frequency(const sound_def *def, double rpm) { return def->cylinders * rpm / (30.0 * def->strokes); }

void sound_init(sound_engine *s, const sound_def *def, double sample_rate) {
  memset(s, 0, sizeof *s);
  s->def = *def;
  if (s->def.cylinders < 1) s->def.cylinders = 1;
  if (s->def.cylinders > 16) s->def.cylinders = 16;
  if (s->def.strokes != 2) s->def.strokes = 4;
  s->sample_rate = sample_rate > 1000.0 ? sample_rate : 48000.0;
  s->target.rpm = 800.0;
  s->rpm = 800.0;
  s->limiter_gain = 1.0;
  s->cycle_gain = s->cycle_target = 1.0;
  s->seed = 0x9e3779b9u;
}

void sound_set(sound_engine *s, const sound_params *p) {
  double impact = s->target.impact;
  s->target = *p;
  if (!isfinite(s->target.rpm) || s->target.rpm < 0.0) s->target.rpm = 0.0;
  if (s->target.rpm > 30000.0) s->target.rpm = 30000.0;
  /* An impact waits for the next render; the larger of two pending ones. */
  s->target.impact = fmax(impact, isfinite(p->impact) ? p->impact : 0.0);
}

static double clamp01(double x) { return isfinite(x) ? (x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x)) : 0.0; }

/* Uniform −1..1 from a 32-bit LCG (Numerical Recipes' constants). */
static double noise(uint32_t *seed) {
  *seed = *seed * 1664525u + 1013904223u;
  return (double)(*seed >> 8) / 8388608.0 - 1.0;
}

/* One-pole smoothing coefficient for a time constant tau (s). */
static double pole(double tau, double rate) { return 1.0 - exp(-1.0 / (tau * rate)); }

void sound_render(sound_engine *s, float *out, int n) {
  const double fs = s->sample_rate;
  const sound_params *t = &s->target;
  const double character = clamp01(s->def.character), volume = clamp01(s->def.volume);
  const double throttle = clamp01(t->throttle), load = clamp01(t->load);
  const double k_rpm = pole(0.003, fs), k_gain = pole(0.01, fs), k_slow = pole(0.03, fs), k_cut = pole(0.005, fs);
  const double k_cycle = pole(0.003, fs);
  /* Loudness: a quiet idle, louder with throttle and load, a little with rpm. */
  double rpm_norm = fmin(1.0, s->rpm / 7000.0);
  double loud = volume * (0.15 + 0.85 * (0.25 + 0.4 * throttle + 0.35 * load) * (0.6 + 0.4 * rpm_norm));
  /* Brightness: the harmonics fall as k^-p, p from 2.6 (idle, smooth) to 1.6 (full load, raspy). */
  double bright_target = clamp01(0.2 + 0.5 * load + 0.3 * throttle) * (0.5 + 0.5 * character);
  double squeal_target = 0.35 * clamp01(t->slip) * clamp01(t->slip);
  double wind_norm = fmin(1.0, fabs(isfinite(t->speed) ? t->speed : 0.0) / 70.0);
  double wind_target = 0.3 * wind_norm * wind_norm;
  double cut_target = t->limiter ? 0.3 : 1.0;
  if (s->target.impact > 0.0) {
    s->thump_amp = fmax(s->thump_amp, 0.9 * clamp01(s->target.impact));
    s->target.impact = 0.0;
  }
  const double thump_decay = exp(-1.0 / (0.08 * fs));
  double amp[MAX_HARMONICS];
  int harmonics = 1;
  double norm = 1.0;
  double thump_env = s->thump_env;
  for (int i = 0; i < n; ++i) {
    if (i % BLOCK == 0) {
      s->brightness += (bright_target - s->brightness) * (1.0 - exp(-(double)BLOCK / (0.03 * fs)));
      double f0 = sound_firing_frequency(&s->def, s->rpm);
      double p = 2.6 - 1.0 * s->brightness;
      harmonics = f0 > 1.0 ? (int)(0.45 * fs / f0) : 1;
      if (harmonics > MAX_HARMONICS) harmonics = MAX_HARMONICS;
      if (harmonics < 1) harmonics = 1;
      norm = 0.0;
      for (int k = 1; k <= harmonics; ++k) norm += amp[k - 1] = pow((double)k, -p);
      norm = 0.9 / norm;
    }
    s->rpm += (t->rpm - s->rpm) * k_rpm;
    s->gain += (loud - s->gain) * k_gain;
    s->limiter_gain += (cut_target - s->limiter_gain) * k_cut;
    s->squeal += (squeal_target - s->squeal) * k_slow;
    s->wind += (wind_target - s->wind) * k_slow;
    s->cycle_gain += (s->cycle_target - s->cycle_gain) * k_cycle;

    /* Engine: harmonics of the firing frequency by the Chebyshev recurrence
     * sin(kθ) = 2·cos θ·sin((k−1)θ) − sin((k−2)θ). */
    double f0 = sound_firing_frequency(&s->def, s->rpm);
    s->phase += f0 / fs;
    if (s->phase >= 1.0) {
      s->phase -= floor(s->phase);
      /* Each firing a little louder or softer than the last: an idle's unevenness, fading with
       * throttle and rpm. */
      double uneven = 0.25 * (1.0 - throttle) * fmax(0.0, 1.0 - (s->rpm - 700.0) / 2500.0);
      s->cycle_target = 1.0 + uneven * noise(&s->seed);
    }
    double theta = kTwoPi * s->phase;
    double sn = sin(theta), cs2 = 2.0 * cos(theta);
    double prev = 0.0, cur = sn, engine = amp[0] * sn;
    for (int k = 2; k <= harmonics; ++k) {
      double next = cs2 * cur - prev;
      prev = cur;
      cur = next;
      engine += amp[k - 1] * cur;
    }
    engine *= norm;
    /* Combustion noise in bursts at each firing: low-passed noise times a smooth pulse. */
    double burst = 0.5 + 0.5 * cos(theta);
    s->noise_lp += (noise(&s->seed) - s->noise_lp) * 0.25;
    engine += (0.05 + 0.2 * character) * (0.3 + 0.7 * load) * burst * burst * s->noise_lp;
    double x = s->gain * s->limiter_gain * s->cycle_gain * engine;

    /* Tyre squeal: ~1 kHz with a 7 Hz wobble. */
    if (s->squeal > 1e-6) {
      s->wobble_phase += 7.0 / fs;
      s->wobble_phase -= floor(s->wobble_phase);
      s->squeal_phase += (1000.0 + 40.0 * sin(kTwoPi * s->wobble_phase)) / fs;
      s->squeal_phase -= floor(s->squeal_phase);
      double ph = kTwoPi * s->squeal_phase;
      x += s->squeal * (0.8 * sin(ph) + 0.2 * sin(2.0 * ph));
    }
    /* Wind: noise through two low-passes whose cut-off rises with speed. */
    double kw = 1.0 - exp(-kTwoPi * (150.0 + 1500.0 * wind_norm) / fs);
    s->wind_lp += (noise(&s->seed) - s->wind_lp) * kw;
    s->wind_lp2 += (s->wind_lp - s->wind_lp2) * kw;
    x += s->wind * 6.0 * s->wind_lp2;
    /* Thump: a 55 Hz burst, 2 ms attack, 80 ms decay. */
    thump_env += (s->thump_amp - thump_env) * pole(0.002, fs);
    s->thump_amp *= thump_decay;
    if (thump_env > 1e-6) {
      s->thump_phase += 55.0 / fs;
      s->thump_phase -= floor(s->thump_phase);
      x += thump_env * sin(kTwoPi * s->thump_phase);
    }
    out[i] = (float)tanh(x);
  }
  s->thump_env = thump_env;
}

sound_params sound_params_from_wheels(const grip_vehicle_def *def, const grip_vehicle_input *input,
                                      const grip_vehicle_state *state, const grip_wheel_state *wheels, int wheel_count,
                                      const grip_wheel_state *previous, double dt) {
  sound_params p;
  memset(&p, 0, sizeof p);
  p.rpm = state->engine_rpm;
  p.throttle = clamp01(input->throttle);
  double full = grip_engine_curve_torque(&def->engine, state->engine_rpm);
  p.load = full > 1.0 ? clamp01(state->engine_torque / full) : 0.0;
  p.limiter = p.throttle > 0.0 && state->engine_rpm >= 0.995 * def->engine.rev_limit_rpm;
  p.speed = state->speed;
  double bump = 0.0;
  for (int i = 0; i < wheel_count; ++i) {
    const grip_wheel_state *w = &wheels[i];
    if (w->in_contact) {
      double beyond = fmax(fabs(w->slip_ratio) / 0.12, fabs(tan(w->slip_angle)) / 0.14) - 1.0;
      p.slip = fmax(p.slip, clamp01(beyond));
    }
    if (previous && dt > 0.0) bump = fmax(bump, fabs(w->compression - previous[i].compression) / dt);
  }
  p.impact = clamp01((bump - 0.5) / 1.5);
  return p;
}

sound_params sound_params_from_state(const grip_vehicle_def *def, const grip_vehicle_input *input,
                                     const grip_vehicle_state *state, const grip_vehicle_state *previous, double dt) {
  return sound_params_from_wheels(def, input, state, state->wheels, GRIP_WHEEL_COUNT,
                                  previous ? previous->wheels : NULL, dt);
}

static int put(FILE *f, uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i)
    if (fputc((int)((v >> (8 * i)) & 0xff), f) == EOF) return -1;
  return 0;
}

int sound_write_wav(const char *path, const float *samples, long n, int sample_rate) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  uint32_t data = (uint32_t)n * 2u;
  int rc = 0;
  rc |= fputs("RIFF", f) == EOF ? -1 : 0;
  rc |= put(f, 36u + data, 4);
  rc |= fputs("WAVEfmt ", f) == EOF ? -1 : 0;
  rc |= put(f, 16, 4);  /* fmt chunk size */
  rc |= put(f, 1, 2);   /* PCM */
  rc |= put(f, 1, 2);   /* mono */
  rc |= put(f, (uint32_t)sample_rate, 4);
  rc |= put(f, (uint32_t)sample_rate * 2u, 4); /* bytes per second */
  rc |= put(f, 2, 2);   /* block align */
  rc |= put(f, 16, 2);  /* bits per sample */
  rc |= fputs("data", f) == EOF ? -1 : 0;
  rc |= put(f, data, 4);
  for (long i = 0; i < n && rc == 0; ++i) {
    double v = samples[i] * 32767.0;
    long q = lround(v < -32768.0 ? -32768.0 : (v > 32767.0 ? 32767.0 : v));
    rc |= put(f, (uint32_t)(uint16_t)(int16_t)q, 2);
  }
  int saved = errno;
  if (fclose(f) != 0 && rc == 0) rc = -1;
  errno = saved;
  return rc;
}
