/* The car's sound through SDL2's audio callback: see sound_sdl.h. */
#define _POSIX_C_SOURCE 200809L
#include "sound_sdl.h"

#include <SDL.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FRESH 4 /* bit of `middle`: the slot there is newer than the reader's */

struct sound_output {
  SDL_AudioDeviceID device;
  int sample_rate, buffer_samples;
  sound_engine engine;         /* touched by the audio thread only, once playing */
  /* Triple buffer: the writer fills slots[back] and swaps it into the middle; the reader swaps
   * the middle into its front when it is fresh. Each index is owned by one side at a time. */
  sound_params slots[3];
  SDL_atomic_t middle;         /* slot index | FRESH */
  int back;                    /* writer's */
  int front;                   /* reader's */
  /* Statistics, written by the audio thread. */
  SDL_atomic_t callbacks, samples_lo, late, updates, max_us, max_cpu_us;
  Uint64 perf_freq;
};

/* CPU time of the calling thread, µs: what the callback itself costs, whatever the scheduler
 * does to it. */
static long long thread_cpu_us(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void SDLCALL callback(void *user, Uint8 *stream, int len) {
  sound_output *o = user;
  Uint64 t0 = SDL_GetPerformanceCounter();
  long long c0 = thread_cpu_us();
  if (SDL_AtomicGet(&o->middle) & FRESH) {
    o->front = SDL_AtomicSet(&o->middle, o->front) & 3;
    sound_set(&o->engine, &o->slots[o->front]);
    SDL_AtomicIncRef(&o->updates);
  }
  int n = len / (int)sizeof(float);
  sound_render(&o->engine, (float *)(void *)stream, n);
  Uint64 t1 = SDL_GetPerformanceCounter();
  int us = (int)((t1 - t0) * 1000000 / o->perf_freq);
  int cpu = (int)(thread_cpu_us() - c0);
  if (us > SDL_AtomicGet(&o->max_us)) SDL_AtomicSet(&o->max_us, us);
  if (cpu > SDL_AtomicGet(&o->max_cpu_us)) SDL_AtomicSet(&o->max_cpu_us, cpu);
  if ((double)cpu > 1e6 * n / o->sample_rate) SDL_AtomicIncRef(&o->late);
  SDL_AtomicAdd(&o->samples_lo, n);
  SDL_AtomicIncRef(&o->callbacks);
}

sound_output *sound_output_open(const sound_def *def, char *why, size_t n) {
  if (SDL_InitSubSystem(SDL_INIT_AUDIO) != 0) {
    snprintf(why, n, "no audio: %s", SDL_GetError());
    return NULL;
  }
  sound_output *o = calloc(1, sizeof *o);
  if (!o) {
    snprintf(why, n, "out of memory");
    SDL_QuitSubSystem(SDL_INIT_AUDIO);
    return NULL;
  }
  SDL_AudioSpec want, have;
  SDL_zero(want);
  want.freq = 48000;
  want.format = AUDIO_F32SYS;
  want.channels = 1;
  want.samples = 512;
  want.callback = callback;
  want.userdata = o;
  o->device = SDL_OpenAudioDevice(NULL, 0, &want, &have, SDL_AUDIO_ALLOW_FREQUENCY_CHANGE | SDL_AUDIO_ALLOW_SAMPLES_CHANGE);
  if (!o->device) {
    snprintf(why, n, "no audio device: %s", SDL_GetError());
    free(o);
    SDL_QuitSubSystem(SDL_INIT_AUDIO);
    return NULL;
  }
  o->sample_rate = have.freq;
  o->buffer_samples = have.samples;
  o->perf_freq = SDL_GetPerformanceFrequency();
  sound_init(&o->engine, def, have.freq);
  o->back = 0;
  SDL_AtomicSet(&o->middle, 1);
  o->front = 2;
  SDL_PauseAudioDevice(o->device, 0);
  return o;
}

void sound_output_set(sound_output *o, const sound_params *p) {
  if (!o) return;
  o->slots[o->back] = *p;
  o->back = SDL_AtomicSet(&o->middle, o->back | FRESH) & 3;
}

sound_output_stats sound_output_get_stats(sound_output *o) {
  sound_output_stats s;
  memset(&s, 0, sizeof s);
  if (!o) return s;
  s.callbacks = SDL_AtomicGet(&o->callbacks);
  s.samples = (long long)(unsigned)SDL_AtomicGet(&o->samples_lo);
  s.sample_rate = o->sample_rate;
  s.buffer_ms = 1000.0 * o->buffer_samples / o->sample_rate;
  s.max_callback_ms = SDL_AtomicGet(&o->max_us) / 1000.0;
  s.max_callback_cpu_ms = SDL_AtomicGet(&o->max_cpu_us) / 1000.0;
  s.late = SDL_AtomicGet(&o->late);
  s.updates = SDL_AtomicGet(&o->updates);
  return s;
}

void sound_output_close(sound_output *o) {
  if (!o) return;
  SDL_CloseAudioDevice(o->device);
  free(o);
  SDL_QuitSubSystem(SDL_INIT_AUDIO);
}
