#!/usr/bin/env bash
# Installs the Debian packages grip builds with, if any is missing. Needs root (or sudo) only
# when something is missing. Package list: docs/building.md.
set -eu
need=(build-essential cmake pkg-config libinih-dev libxml2-dev python3)
# Optional: GDAL rasters as terrain, gdal_translate for the .bt cross-check test, and TORCS's
# tracks and cars (reference data for the import tests). The viewer (grip drive, docs/viewer.md):
# SDL2, OpenGL through libepoxy, cglm, assimp, stb, SDL2_ttf with DejaVu fonts; Xvfb and Mesa's
# software renderer for its headless tests.
want=(gdal-bin libgdal-dev torcs-data
      libsdl2-dev libepoxy-dev libcglm-dev libassimp-dev libstb-dev libsdl2-ttf-dev fonts-dejavu-core
      xvfb xauth libgl1-mesa-dri)
missing=()
for p in "${need[@]}" "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
