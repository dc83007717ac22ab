# Top-level entry points. `make demo` and `make test` install what they need
# (scripts/bootstrap), configure with CMake + Ninja and build as needed.
BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc)

FUZZ_DIR ?= build-fuzz

.PHONY: all bootstrap configure build demo test bench fuzz format clean

all: build

bootstrap:
	./scripts/bootstrap

$(BUILD_DIR)/build.ninja: | bootstrap
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE)

configure: $(BUILD_DIR)/build.ninja

build: bootstrap configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

demo: build
	./scripts/demo $(BUILD_DIR)

test: build
	cd $(BUILD_DIR) && ctest --output-on-failure -j $(JOBS)

bench: build
	./scripts/bench $(BUILD_DIR)

# libFuzzer targets built with clang-19, ASan and UBSan, each run briefly
# over its seed corpus (RLOPT_FUZZ_SECONDS, default 20).
fuzz: bootstrap
	cmake -S . -B $(FUZZ_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	    -DCMAKE_CXX_COMPILER=clang++-19 -DRLOPT_FUZZ=ON
	cmake --build $(FUZZ_DIR) -j $(JOBS)
	cd $(FUZZ_DIR) && ctest -L fuzz --output-on-failure

format:
	find include src tools tests bench fuzz -name '*.cpp' -o -name '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR)
