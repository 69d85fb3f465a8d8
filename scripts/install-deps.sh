#!/usr/bin/env bash
# Installs the Debian packages grip builds with, if any is missing. Needs root (or sudo) only
# when something is missing. Package list and what each is for: README.md, "Packages".
set -eu
need=(build-essential cmake pkg-config libinih-dev libxml2-dev python3)
# `make test` also builds the libFuzzer harnesses (tests/fuzz): clang and its runtime
# (libclang_rt.fuzzer is in libclang-rt-14-dev on Debian 12).
need+=(clang libclang-rt-14-dev)
# Optional: GDAL rasters as terrain, gdal_translate for the .bt cross-check test, and TORCS's
# tracks and cars (reference data for the import tests). The viewer (grip drive, docs/viewer.md):
# SDL2, OpenGL through libepoxy, cglm, assimp, stb, SDL2_ttf with DejaVu fonts; Xvfb and Mesa's
# software renderer for its headless tests.
want=(gdal-bin libgdal-dev torcs-data
      libsdl2-dev libepoxy-dev libcglm-dev libassimp-dev libstb-dev libsdl2-ttf-dev fonts-dejavu-core
      xvfb xauth libgl1-mesa-dri)
# Optional: PLplot and its cairo driver draw grip plot's figures (PNG, SVG, PDF).
want+=(libplplot-dev plplot-driver-cairo)
# Optional: Bullet (double precision) for examples/bullet, grip's wheels on a Bullet rigid body,
# and (single precision, the same package) for bench/peers/bullet_vehicles (scripts/bench_peers.py).
want+=(libbullet-dev)
# The Python package (python/, docs/python.md): its tests run in the suite.
need+=(python3-cffi python3-numpy python3-pytest python3-pandas python3-dask python3-distributed)
# Optional: Valgrind runs grip under memcheck in the suite (tests/cli_valgrind.sh).
want+=(valgrind)
# pip install ./python (offline, --no-build-isolation) and venvs.
want+=(python3-pip python3-setuptools python3-wheel python3-venv)
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
