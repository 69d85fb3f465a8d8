/* The car's sound, synthesised from its state (docs/input.md, "Sound"): the engine's firing
 * frequency cylinders·rpm/120 (four-stroke; /60 two-stroke) with its harmonics, loudness and brightness from
 * throttle and load, the rev limiter's cut, an uneven idle; tyre squeal from slip, wind from
 * speed, thumps from impacts. Plain C, no SDL: the SDL audio callback (sound_sdl.c) and the
 * offline renderer (`grip sound`) both call sound_render. Deterministic: the same parameters give
 * the same samples. */
#ifndef GRIP_SOUND_ENGINE_H
#define GRIP_SOUND_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "grip/grip.h"

/* What the car sounds like (a car file's [sound] section). */
typedef struct sound_def {
  int cylinders;    /* 1..16; the Corvette's LS1 8 */
  int strokes;      /* 2 or 4: the firing frequency is cylinders·rpm/(30·strokes) Hz; 4 */
  double character; /* 0..1: 0 smooth and round, 1 raspy (more high harmonics and combustion noise); 0.5 */
  double volume;    /* 0..1 master volume; 0.8 */
} sound_def;

sound_def sound_default_def(void);

/* The car's state the sound follows; set as often as the simulation has new figures. */
typedef struct sound_params {
  double rpm;      /* engine speed */
  double throttle; /* 0..1, pedal */
  double load;     /* 0..1, engine torque / full-throttle torque at this rpm (0 on the overrun) */
  bool limiter;    /* the rev limiter is cutting the fuel */
  double slip;     /* 0..1, the tyres' slip beyond their grip peak (squeal) */
  double speed;    /* m/s (wind) */
  double impact;   /* 0..1, a thump to start now (kerb, collision); consumed by the next render */
} sound_params;

/* The largest sample-to-sample step sound_render produces at 48 kHz, as a fraction of full scale,
 * for firing frequencies up to 500 Hz (a V8 at 7500 rpm) and any way the parameters change
 * between calls (tests/test_sound.c holds it to this). Every loudness is smoothed over ≥ 2 ms,
 * the frequency only moves the phase's rate (never the phase), and the output is soft-limited by
 * tanh, so the steps are those of the band-limited waveform itself: at most
 * gain·Σ a_k·2π·k·f0/fs ≈ 0.22 at 500 Hz full load (harmonics k^-1.85, 32 of them). A click —
 * a discontinuity — jumps by the order of the signal's amplitude (0.4 .. 0.8). */
#define SOUND_MAX_STEP 0.25

typedef struct sound_engine {
  sound_def def;
  double sample_rate;
  sound_params target;
  /* Smoothed state. */
  double rpm, gain, brightness, squeal, wind, limiter_gain;
  double phase;         /* of the firing frequency, cycles 0..1 */
  double cycle_gain, cycle_target; /* idle unevenness: amplitude per firing */
  double squeal_phase, wobble_phase, thump_phase, thump_amp, thump_env;
  double noise_lp, wind_lp, wind_lp2, squeal_lp;
  uint32_t seed;
} sound_engine;

void sound_init(sound_engine *s, const sound_def *def, double sample_rate);

/* Firing frequency, Hz, at an engine speed (rpm): cylinders·rpm/(30·strokes). */
double sound_firing_frequency(const sound_def *def, double rpm);

/* New targets; the sound glides to them (impact starts a thump). */
void sound_set(sound_engine *s, const sound_params *p);

/* Renders n mono samples in −1..1 into out. */
void sound_render(sound_engine *s, float *out, int n);

/* The sound's parameters from a car's state over the last dt seconds: rpm; throttle the pedal;
 * load the crank torque over the full-throttle curve's at that rpm (0..1); limiter when the
 * throttle is open at ≥ 99.5 % of the rev limit; slip the largest over the wheels in contact of
 * max(|κ|/0.12, |tan α|/0.14) − 1, clamped 0..1 (zero up to about the grip peak); speed the
 * forward speed; impact from the fastest suspension movement since `previous` (NULL: none),
 * (v − 0.5 m/s)/1.5 m/s clamped 0..1 (kerbs, landings, collisions). The same figures drive
 * the gamepad's rumble. */
sound_params sound_params_from_state(const grip_vehicle_def *def, const grip_vehicle_input *input,
                                     const grip_vehicle_state *state, const grip_vehicle_state *previous, double dt);
/* The same over every wheel of a vehicle of any wheel count (grip_vehicle_get_wheels; previous:
 * the same wheels at the earlier time, or NULL). sound_params_from_state reads the state's
 * first GRIP_WHEEL_COUNT. */
sound_params sound_params_from_wheels(const grip_vehicle_def *def, const grip_vehicle_input *input,
                                      const grip_vehicle_state *state, const grip_wheel_state *wheels, int wheel_count,
                                      const grip_wheel_state *previous, double dt);

/* Writes 16-bit PCM mono WAV; returns 0, or -1 (errno set) when the file cannot be written. */
int sound_write_wav(const char *path, const float *samples, long n, int sample_rate);

#endif
