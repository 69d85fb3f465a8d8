/* Fuzz harness: grip scene files (INI), parsed from memory. */
#include "fuzz_common.h"

#include <math.h>

#include "scene.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_text(data, size);
  grip_scene *scene = malloc(sizeof *scene);
  FUZZ_REQUIRE(scene != NULL);
  grip_load_error err;
  grip_load_error_clear(&err);
  if (grip_scene_parse(text, "fuzz.scene", NULL, scene, &err) == 0) {
    FUZZ_REQUIRE(scene->car_count >= 1 && scene->car_count <= GRIP_SCENE_MAX_CARS);
    FUZZ_REQUIRE(isfinite(scene->gravity) && scene->gravity > 0.0);
    for (int i = 0; i < scene->car_count; ++i)
      FUZZ_REQUIRE(isfinite(scene->cars[i].x) && isfinite(scene->cars[i].y) &&
                   isfinite(scene->cars[i].heading) && isfinite(scene->cars[i].speed));
  } else {
    FUZZ_REQUIRE(err.message[0] != '\0');
  }
  free(scene);
  free(text);
  return 0;
}
