/* grip sound: the engine sound of a car rendered offline to a WAV file (docs/input.md, "Sound"). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "car_option.h"
#include "cli.h"
#include "sound_engine.h"

int cmd_sound(int argc, char **argv);
int cmd_sound(int argc, char **argv) {
  const char *car_spec = NULL, *sweep = NULL, *output = NULL;
  double seconds = 5.0, throttle = 1.0, rate = 48000.0;
  bool json = false;
  const cli_option options[] = {
      CLI_OPTION_CAR(car_spec),
      {"--rpm-sweep", CLI_STRING, &sweep, 0, 0, "A:B: engine speed swept linearly from A to B rpm (required)"},
      {"--seconds", CLI_DOUBLE, &seconds, 0.05, 600.0, "duration, s (default 5)"},
      {"--throttle", CLI_DOUBLE, &throttle, 0.0, 1.0, "throttle held, 0..1 (default 1)"},
      {"--sample-rate", CLI_DOUBLE, &rate, 8000.0, 192000.0, "samples per s (default 48000)"},
      {"--output", CLI_STRING, &output, 0, 0, "output FILE.wav, 16-bit PCM mono (required; -o FILE too)"},
      CLI_OPTION_JSON(json),
  };
  int rc = cli_parse(argc, argv, options, CLI_COUNT(options), NULL, 0, NULL);
  if (rc) return rc == 1 ? 0 : rc;
  double from = 0.0, to = 0.0;
  char junk;
  if (!sweep || sscanf(sweep, "%lf:%lf%c", &from, &to, &junk) != 2 || !(from >= 100.0 && from <= 30000.0) ||
      !(to >= 100.0 && to <= 30000.0)) {
    fprintf(stderr, "grip sound: --rpm-sweep A:B needed, A and B within 100 .. 30000 rpm\n");
    return CLI_USAGE_ERROR;
  }
  if (!output) {
    fprintf(stderr, "grip sound: -o FILE.wav needed\n");
    return CLI_USAGE_ERROR;
  }
  static grip_car car;
  if (cli_load_car("sound", car_spec, &car)) return 1;
  sound_def def = {.cylinders = (int)car.sound.cylinders, .strokes = (int)car.sound.strokes,
                   .character = car.sound.character, .volume = car.sound.volume};
  int sample_rate = (int)lround(rate);
  long total = lround(seconds * sample_rate);
  float *samples = malloc((size_t)total * sizeof *samples);
  if (!samples) {
    fprintf(stderr, "grip sound: out of memory\n");
    return 1;
  }
  sound_engine engine;
  sound_init(&engine, &def, sample_rate);
  /* The parameters change every 10 ms, as from a simulation stepping at 100 Hz; the rpm is that
   * of the block's middle. Full throttle loads the engine fully (load = throttle). */
  long block = sample_rate / 100;
  double limit = car.def.engine.rev_limit_rpm;
  for (long start = 0; start < total; start += block) {
    long n = total - start < block ? total - start : block;
    double t = (start + 0.5 * n) / (double)sample_rate;
    double rpm = from + (to - from) * t / seconds;
    sound_params p = {.rpm = rpm, .throttle = throttle, .load = throttle, .limiter = rpm >= limit && throttle > 0.0};
    if (start == 0) engine.rpm = rpm; /* start at the sweep's first rpm, not at idle */
    sound_set(&engine, &p);
    sound_render(&engine, samples + start, (int)n);
  }
  double peak = 0.0, sum2 = 0.0, max_step = 0.0;
  for (long i = 0; i < total; ++i) {
    peak = fmax(peak, fabs(samples[i]));
    sum2 += (double)samples[i] * samples[i];
    if (i) max_step = fmax(max_step, fabs((double)samples[i] - samples[i - 1]));
  }
  if (sound_write_wav(output, samples, total, sample_rate) != 0) {
    fprintf(stderr, "grip sound: %s: cannot write: %s\n", output, strerror(errno));
    free(samples);
    return 1;
  }
  free(samples);
  double rms = total ? sqrt(sum2 / total) : 0.0;
  if (json) {
    json_writer w;
    json_begin(&w, stdout);
    json_string(&w, "car", car.name);
    json_string(&w, "file", output);
    json_int(&w, "cylinders", def.cylinders);
    json_int(&w, "strokes", def.strokes);
    json_number(&w, "rpm_from", from);
    json_number(&w, "rpm_to", to);
    json_number(&w, "seconds", seconds);
    json_int(&w, "sample_rate", sample_rate);
    json_int(&w, "samples", total);
    json_number(&w, "peak", peak);
    json_number(&w, "rms", rms);
    json_number(&w, "max_step", max_step);
    json_end(&w);
  } else {
    printf("sound: %s, %d cylinders %d-stroke, %.0f -> %.0f rpm over %g s: %s (%ld samples at %d Hz)\n", car.name,
           def.cylinders, def.strokes, from, to, seconds, output, total, sample_rate);
    printf("  firing frequency %8.1f -> %.1f Hz\n", sound_firing_frequency(&def, from), sound_firing_frequency(&def, to));
    printf("  peak %8.3f, rms %.3f, largest sample step %.4f of full scale\n", peak, rms, max_step);
  }
  return 0;
}
