/* Fuzz harness: .tir tyre property files, parsed from memory. An accepted file must give
 * finite forces and moments at its nominal load over a spread of slips (the loader's range
 * checks promise that). */
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
  static const double loads[] = {0.25, 1.0, 2.0};
  static const double slips[] = {-0.3, 0.0, 0.05, 1.0};
  static const double angles[] = {-0.2, 0.0, 0.02, 0.5};
  for (size_t l = 0; l < sizeof loads / sizeof loads[0]; ++l)
    for (size_t k = 0; k < sizeof slips / sizeof slips[0]; ++k)
      for (size_t a = 0; a < sizeof angles / sizeof angles[0]; ++a) {
        grip_mf_output o;
        grip_mf_evaluate_full(&p, loads[l] * p.FNOMIN, slips[k], angles[a], 0.0, 20.0, 0.0, &o);
        FUZZ_REQUIRE(isfinite(o.fx) && isfinite(o.fy) && isfinite(o.mz));
      }
  return 0;
}
