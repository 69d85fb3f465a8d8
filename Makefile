# Convenience wrapper around CMake. The two commands of the README:
#   make run    installs missing Debian packages, builds Release, runs the main job
#   make drive  the same, then opens the 3D viewer: you drive, robots drive 3 more cars
#   make test   installs missing Debian packages, builds and runs the whole suite,
#               plain (Release) and under ASan+UBSan
JOBS ?= 2
.PHONY: deps build run drive test test-plain test-sanitize bench clean

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

test: test-plain test-sanitize

bench: build
	./build/grip bench --vehicles 100 --seconds 10

clean:
	rm -rf build build-asan
