/* Fuzz harness: .tir tyre property files, parsed from memory. An accepted file must give
 * finite forces and moments over a spread of loads (up to beyond FZMAX, where the model
 * saturates), slips, cambers and speeds (the loader's checks promise that). Most of the points
 * lie between those the loader's own finiteness check evaluates (every camber and speed, and the
 * loads below FZMAX), so this is not that check again. */
#include "fuzz_common.h"

#include <math.h>

#include "grip/mf_tyre.h"
#include "tir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  grip_mf_params p;
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_tir_parse((const char *)data, size, "fuzz.tir", &p, &err) != 0) {
    FUZZ_REQUIRE(err.message[0] != '\0');
    return 0;
  }
  static const double loads[] = {0.1, 0.6, 1.3, 40.0}; /* times FNOMIN */
  static const double slips[] = {-0.3, 0.0, 0.05, 1.0};
  static const double angles[] = {-0.2, 0.0, 0.02, 0.5};
  static const double cambers[] = {-0.03, 0.05};
  static const double speeds[] = {0.3, 20.0};
  for (size_t l = 0; l < sizeof loads / sizeof loads[0]; ++l)
    for (size_t k = 0; k < sizeof slips / sizeof slips[0]; ++k)
      for (size_t a = 0; a < sizeof angles / sizeof angles[0]; ++a)
        for (size_t c = 0; c < sizeof cambers / sizeof cambers[0]; ++c)
          for (size_t v = 0; v < sizeof speeds / sizeof speeds[0]; ++v) {
            grip_mf_output o;
            grip_mf_evaluate_full(&p, loads[l] * p.FNOMIN, slips[k], angles[a], cambers[c],
                                  speeds[v], 0.0, &o);
            FUZZ_REQUIRE(isfinite(o.fx) && isfinite(o.fy) && isfinite(o.mx) && isfinite(o.my) &&
                         isfinite(o.mz));
          }
  return 0;
}
