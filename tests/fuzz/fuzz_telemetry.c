/* Fuzz harness: a telemetry CSV as grip plot reads it (app/plot_telemetry.c, the file grip race
 * --telemetry writes), through a temporary file. On an accepted file: every value finite, and
 * for cars 1 and 2 the laps telemetry_car_laps finds lie inside the car's rows, in order, with
 * finite start times, and a complete lap has a finite end no earlier than its start. */
#include "fuzz_common.h"

#include <math.h>

#include "plot_telemetry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *path = fuzz_temp_file(data, size, ".csv");
  static telemetry t;
  if (telemetry_load("fuzz", path, &t) != 0) {
    FUZZ_REQUIRE(t.values == NULL && t.rows == 0);
    return 0;
  }
  FUZZ_REQUIRE(t.columns >= 1 && t.columns <= TELEMETRY_MAX_COLUMNS && t.rows >= 1);
  for (long i = 0; i < (long)t.rows * t.columns; ++i) FUZZ_REQUIRE(isfinite(t.values[i]));
  static telemetry_car car;
  for (int entry = 1; entry <= 2; ++entry) {
    if (telemetry_car_laps("fuzz", &t, entry, &car) != 0) continue;
    FUZZ_REQUIRE(car.count >= 2 && car.count <= t.rows && car.laps >= 0 && car.laps <= TELEMETRY_MAX_LAPS);
    for (int k = 0; k < car.count; ++k) FUZZ_REQUIRE(car.rows[k] >= 0 && car.rows[k] < t.rows);
    for (int n = 0; n < car.laps; ++n) {
      const telemetry_lap *l = &car.lap[n];
      FUZZ_REQUIRE(l->lap == n + 1 && l->first >= 0 && l->first <= l->last && l->last < car.count);
      FUZZ_REQUIRE(isfinite(l->start_time));
      telemetry_lap got;
      if (telemetry_get_lap("fuzz", &t, &car, n + 1, &got) == 0) FUZZ_REQUIRE(got.complete && !isnan(got.end_time));
    }
    telemetry_car_free(&car);
  }
  telemetry_free(&t);
  return 0;
}
