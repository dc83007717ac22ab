# Top-level entry points. `make demo` and `make test` install what they need
# (scripts/bootstrap), configure with CMake + Ninja and build as needed.
BUILD_DIR ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc)

.PHONY: all bootstrap configure build demo test bench format clean

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

format:
	find include src tools tests bench -name '*.cpp' -o -name '*.h' | xargs clang-format -i

clean:
	rm -rf $(BUILD_DIR)
