# Convenience wrapper around CMake. The two commands of the README:
#   make run    installs missing Debian packages, builds Release, runs the main job
#   make drive  the same, then opens the 3D viewer: you drive, robots drive 3 more cars
#   make test   installs missing Debian packages, builds and runs the whole suite,
#               plain (Release) and under ASan+UBSan, and a short run of every fuzz harness
JOBS ?= 2
.PHONY: deps build run drive test test-plain test-sanitize test-fuzz bench bench-drive pgo clean

deps:
	@scripts/install-deps.sh

build: deps
	cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build build -j $(JOBS)

run: build
	./build/grip race

drive: build
	./build/grip drive --opponents 3

test-plain: build
	ctest --test-dir build --output-on-failure -j $(JOBS)

test-sanitize: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DGRIP_SANITIZE=ON >/dev/null
	cmake --build build-asan -j $(JOBS)
	ctest --test-dir build-asan --output-on-failure -j $(JOBS)

# libFuzzer harnesses (tests/fuzz, docs/fuzzing.md), built with clang in build-fuzz/: ctest runs
# each for FUZZ_SECONDS on its seed corpus.
FUZZ_SECONDS ?= 4
test-fuzz: deps
	CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGRIP_FUZZ=ON \
	  -DGRIP_BUILD_TESTS=OFF -DGRIP_PYTHON=OFF -DGRIP_WITH_VIEWER=OFF -DGRIP_WITH_PLPLOT=OFF -DGRIP_FUZZ_SMOKE_SECONDS=$(FUZZ_SECONDS) >/dev/null
	cmake --build build-fuzz -j $(JOBS)
	ctest --test-dir build-fuzz --output-on-failure -j $(JOBS)

test: test-plain test-sanitize test-fuzz

bench: build
	./build/grip bench --vehicles 100 --seconds 10

# A profile-guided Release build in build-pgo/ (GCC): the same results bit for bit, 6-7 % less
# time per race step (docs/performance.md).
pgo: deps
	scripts/build-pgo.sh build-pgo

# The viewer's frame time under Xvfb + llvmpipe against the 33 ms target (docs/viewer.md).
bench-drive: build
	scripts/bench-drive.sh ./build/grip

clean:
	rm -rf build build-asan build-fuzz build-pgo
