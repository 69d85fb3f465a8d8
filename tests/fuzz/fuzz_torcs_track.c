/* Fuzz harness: TORCS track XML (the input goes through a temporary file, opened with
 * grip_track_open as the tools open it); see fuzz_track_check.h for what is required. */
#include "fuzz_common.h"
#include "fuzz_track_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_open_track(fuzz_temp_file(data, size, ".xml"));
  return 0;
}
