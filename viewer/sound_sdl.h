/* The car's sound through SDL2's audio callback (docs/input.md, "Sound"). The simulation thread
 * hands the sound's parameters over through a lock-free triple buffer: neither side ever waits
 * for the other, so the audio callback cannot be stalled by the simulation (or a frame). */
#ifndef GRIP_SOUND_SDL_H
#define GRIP_SOUND_SDL_H

#include <stdbool.h>
#include <stddef.h>

#include "sound_engine.h"

typedef struct sound_output sound_output;

/* Opens the default audio device (48 kHz mono float, 512-sample buffers) and starts playing.
 * NULL with the reason in why (size n) when there is no audio. */
sound_output *sound_output_open(const sound_def *def, char *why, size_t n);
void sound_output_close(sound_output *o);

/* New parameters from the simulation (any thread but the audio one; one writer). */
void sound_output_set(sound_output *o, const sound_params *p);

typedef struct sound_output_stats {
  long long callbacks;      /* audio callbacks so far */
  long long samples;        /* samples rendered */
  double buffer_ms;         /* one buffer's duration */
  double max_callback_ms;   /* longest wall-clock time inside the callback (includes the
                               scheduler's preemptions on a busy machine) */
  double max_callback_cpu_ms; /* most CPU time one callback used */
  long long late;           /* callbacks whose own CPU time exceeded the buffer's duration: the
                               synthesis could not keep up (an underrun of its own making) */
  long long updates;        /* parameter sets the callback picked up */
  int sample_rate;
} sound_output_stats;

/* Figures of the audio thread so far (read without locking; each figure is atomic). */
sound_output_stats sound_output_get_stats(sound_output *o);

#endif
