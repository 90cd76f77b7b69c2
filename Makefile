# Makefile - native library, CLIs, tests, sanitizers and the WebAssembly core.
#
#   make                 libct.a, ./terrain, ./cache_demo
#   make test            native tests (tests/c/test_*.c), one binary each
#   make sanitize        the same tests under AddressSanitizer + UBSan
#   make thread-sanitize the same tests under ThreadSanitizer
#   make sweep           many worlds checked against the invariants
#   make wasm            build/wasm/ct.wasm through emsdk.env (and make constants)
#   make constants       wasm/ct_constants.mjs, the header's constants for JS
#   make wasm-lib        build/wasm/libct.a (core only, for your own emcc build)
#   make wasm-check      the noise bit-exactness tests compiled to WebAssembly
#   make site            a static folder for any web host
#   make bench           native benchmarks (bench/native_plan.txt; npm run bench for all)
#   make fuzz            libFuzzer harnesses (clang), FUZZ_SECONDS each (default 60)
#   make samples         samples/: the sample world and sixteen +Z LOD 6 chunks
#   make previews        previews/*.png, drawn from the samples and fresh worlds
#   make validate        docs/validation.md: test, sanitizers, sweep and fuzz results
#   make c-game          examples/c-game: native twin and the Emscripten build (Node)

CC      ?= cc
STD     := -std=c99 -pedantic -Wall -Wextra -Werror -ffp-contract=off
OPT     ?= -O2
CFLAGS_ALL := $(STD) $(OPT) -Icore/include -Icore/src $(CFLAGS)
NATIVE_DEFS := -DCT_WITH_THREADS -D_POSIX_C_SOURCE=200809L
LIBS    := -lm -pthread

# core/src holds one folder per layer (base, solve, layers, surface, world,
# native); each includes only from the folders before it (tests/js/core_layers.test.mjs).
CORE_HDR := core/include/ct.h core/include/ct_knobs.def core/include/ct_stats.def $(wildcard core/src/*/*.h)
# native/ (the threaded cache) is the only code with threads: native builds only.
CORE_SRC := $(filter-out core/src/native/%,$(sort $(wildcard core/src/*/*.c)))
CACHE_SRC := $(wildcard core/src/native/*.c)
NATIVE_SRC := $(CORE_SRC) $(CACHE_SRC)
TEST_SRC := $(sort $(wildcard tests/c/test_*.c))
TEST_HDR := $(wildcard tests/c/*.h)

B := build/native
NATIVE_OBJ := $(patsubst core/src/%.c,$(B)/obj/%.o,$(NATIVE_SRC))
TEST_BIN := $(patsubst tests/c/%.c,$(B)/tests/%,$(TEST_SRC))

.PHONY: all test check test-bins sanitize thread-sanitize sweep wasm constants wasm-lib wasm-check site bench clean fuzz fuzz-build c-game
.PHONY: samples previews validate
all: $(B)/libct.a terrain $(if $(wildcard core/cli/cache_demo.c),cache_demo)

$(B)/obj/%.o: core/src/%.c $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) -c $< -o $@

$(B)/libct.a: $(NATIVE_OBJ)
	@rm -f $@
	ar rcs $@ $^

# The tools (never the core) deflate their PNGs with the distribution's zlib
# when it is there (Debian: apt-get install zlib1g-dev); otherwise they write
# valid but uncompressed PNGs and `make previews` says what to install.
ZLIB_OK := $(shell printf '\043include <zlib.h>\nint main(void){return zlibVersion()[0]==0;}\n' | $(CC) -x c - -lz -o /dev/null 2>/dev/null && echo 1)
CLI_DEFS := $(if $(ZLIB_OK),-DCT_CLI_ZLIB)
CLI_LIBS := $(if $(ZLIB_OK),-lz)
# core/cli: terrain.c and cache_demo.c are programs, previews*.c the preview
# program (make previews); every other file is shared by the programs.
CLI_SHARED := $(filter-out core/cli/terrain.c core/cli/cache_demo.c core/cli/previews%.c,$(wildcard core/cli/*.c))

terrain: core/cli/terrain.c $(CLI_SHARED) $(wildcard core/cli/*.h) $(B)/libct.a
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) $(CLI_DEFS) -Icore/cli core/cli/terrain.c $(CLI_SHARED) $(B)/libct.a $(LIBS) $(CLI_LIBS) -o $@

cache_demo: core/cli/cache_demo.c $(B)/libct.a
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) core/cli/cache_demo.c $(B)/libct.a $(LIBS) -o $@

$(B)/tests/%: tests/c/%.c $(TEST_HDR) $(B)/libct.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) -Itests/c $< $(B)/libct.a $(LIBS) -o $@

# Each test binary prints "name: N passed, M failed"; tests/c/run.sh runs
# them two at a time (CT_TEST_JOBS) and adds them up. test-bins only builds.
test: all check
check: $(TEST_BIN)
	@sh tests/c/run.sh $(TEST_BIN)
test-bins: $(TEST_BIN)

# Sanitizer builds live in their own folders so they never mix objects.
sanitize:
	$(MAKE) --no-print-directory B=build/asan OPT="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all" LIBS="-lm -pthread -fsanitize=address,undefined" check

thread-sanitize:
	$(MAKE) --no-print-directory B=build/tsan OPT="-O1 -g -fsanitize=thread" LIBS="-lm -pthread -fsanitize=thread" check

sweep: all $(B)/tests/sweep
	$(B)/tests/sweep

$(B)/tests/sweep: tests/c/sweep.c $(TEST_HDR) $(B)/libct.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) -Itests/c $< $(B)/libct.a $(LIBS) -o $@

# ---------------------------------------------------------------- WebAssembly
W := build/wasm
WASM_SRC := $(sort $(wildcard wasm/*.c))
# No fast-math, no FMA contraction: results must match native bit for bit.
# STANDALONE_WASM with no entry: the only import is the memory-growth notice,
# so one small loader instantiates it in Node, pages and workers alike.
# -msimd128 (the 4-lane noise in noise.c, and autovectorised integer loops)
# and -flto: together about 15% off a chunk and a stride-1 mesh, interleaved
# A/B in one process (docs/history/benchmarks.md); generation IDs and digests equal.
# Natively -flto measured no gain, so the native build keeps plain -O2.
WASM_CODEGEN := -msimd128
WASM_FLAGS := -std=c99 -O3 $(WASM_CODEGEN) -flto -Wall -Wextra -Werror -ffp-contract=off -Icore/include -Icore/src \
  --no-entry -sSTANDALONE_WASM=1 -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=33554432 \
  -sTOTAL_STACK=1048576 -sEXPORTED_FUNCTIONS=_malloc,_free -sFILESYSTEM=0

wasm: constants $(W)/ct.wasm

# The JS side reads the header's constants from this generated, committed
# module; it is rewritten only when its text would change, so a fresh clone's
# copy stays untouched (tests/js/constants.test.mjs checks it is not stale).
constants: $(B)/gen_constants
	@$(B)/gen_constants > $(B)/ct_constants.mjs.new && \
	  { cmp -s $(B)/ct_constants.mjs.new wasm/ct_constants.mjs || { mv $(B)/ct_constants.mjs.new wasm/ct_constants.mjs && echo "constants: wasm/ct_constants.mjs rewritten"; }; }; \
	  rm -f $(B)/ct_constants.mjs.new
$(B)/gen_constants: tools/gen_constants.c $(B)/libct.a
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) $< $(B)/libct.a $(LIBS) -o $@

$(W)/ct.wasm: $(CORE_SRC) $(WASM_SRC) $(CORE_HDR) $(wildcard wasm/*.h)
	@mkdir -p $(@D)
	@. ./emsdk.env; [ "$$CT_EMCC_OK" = 1 ] || exit 1; \
	  t0=$$(date +%s%N); \
	  emcc $(WASM_FLAGS) $(CORE_SRC) $(WASM_SRC) -o $@ || { rm -f $@; exit 1; }; \
	  t1=$$(date +%s%N); \
	  echo "wasm: $@ built in $$(( (t1 - t0) / 1000000 )) ms"; \
	  node scripts/wasm-info.mjs $@

wasm-lib: $(W)/libct.a
$(W)/libct.a: $(CORE_SRC) $(CORE_HDR)
	@rm -rf $(W)/libobj && mkdir -p $(W)/libobj
	@. ./emsdk.env; [ "$$CT_EMCC_OK" = 1 ] || exit 1; \
	  for f in $(CORE_SRC); do \
	    emcc -std=c99 -O3 $(WASM_CODEGEN) -Wall -Wextra -Werror -ffp-contract=off -Icore/include -Icore/src \
	      -c $$f -o $(W)/libobj/$$(echo $${f#core/src/} | tr / _ | sed 's/\.c$$/.o/') || exit 1; \
	  done; \
	  rm -f $@; emar rcs $@ $(W)/libobj/*.o && echo "wasm-lib: $@"

# The bit-exactness tests of the noise (vector and scalar paths) compiled
# with the module's flags and run under node: checks the simd128 path.
wasm-check: $(W)/test_noise_exact.cjs
	node $(W)/test_noise_exact.cjs
$(W)/test_noise_exact.cjs: tests/c/test_noise_exact.c $(CORE_SRC) $(CORE_HDR) $(TEST_HDR)
	@mkdir -p $(@D)
	@. ./emsdk.env; [ "$$CT_EMCC_OK" = 1 ] || exit 1; \
	  emcc -std=c99 -O3 $(WASM_CODEGEN) -Wall -Wextra -Werror -ffp-contract=off -Icore/include -Icore/src -Itests/c \
	    tests/c/test_noise_exact.c $(CORE_SRC) -sSINGLE_FILE=1 -sENVIRONMENT=node -o $@
# ------------------------------------------------------------------ examples
# The C game links the core like a game would: natively against libct.a, and
# with emcc against `make wasm-lib` (Node flags: see docs/web.md).
CG := build/examples/c-game
CG_SRC := examples/c-game/game.c examples/c-game/surface_mode.c
CG_DEP := $(CG_SRC) $(wildcard examples/c-game/*.h) core/include/ct.h core/include/ct_legacy.h
c-game: $(CG)/game_native $(CG)/cgame.js

$(CG)/game_native: $(CG_DEP) examples/c-game/main_native.c $(B)/libct.a
	@mkdir -p $(@D)
	$(CC) $(STD) $(OPT) $(CFLAGS) -Icore/include $(CG_SRC) examples/c-game/main_native.c $(B)/libct.a $(LIBS) -o $@

# The output is CommonJS; the folder's package.json says so (the repository's is "type": "module").
$(CG)/cgame.js: $(CG_DEP) examples/c-game/main_wasm.c $(W)/libct.a
	@mkdir -p $(@D)
	@echo '{"type":"commonjs"}' > $(@D)/package.json
	@. ./emsdk.env; [ "$$CT_EMCC_OK" = 1 ] || exit 1; \
	  emcc -std=c99 -O2 -Wall -Wextra -Werror -ffp-contract=off -Icore/include $(CG_SRC) examples/c-game/main_wasm.c \
	    $(W)/libct.a -sENVIRONMENT=node -sWASM_ASYNC_COMPILATION=0 -sALLOW_MEMORY_GROWTH=1 -o $@ && echo "c-game: $@"

site: wasm
	node scripts/site.mjs

bench: all
	$(MAKE) --no-print-directory $(B)/bench_native
	$(B)/bench_native < bench/native_plan.txt

$(B)/bench_native: bench/bench_native.c $(B)/libct.a
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) $< $(B)/libct.a $(LIBS) -o $@

# The bound-proven skips off and on, alternated (docs/benchmarks.md).
$(B)/skip_cost: bench/skip_cost.c $(B)/libct.a
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) $< $(B)/libct.a $(LIBS) -o $@

clean:
	rm -rf build terrain cache_demo site

# ------------------------------------------------------- terrain measurement
# make terrain-stats ARGS="--preset alpine --quick" (same as npm run terrain-stats -- ...)
TS_SRC := $(sort $(wildcard tools/terrain_stats*.c))
$(B)/terrain_stats: $(TS_SRC) tools/terrain_stats.h $(B)/libct.a
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) -Itools $(TS_SRC) $(B)/libct.a $(LIBS) -o $@

# Its test also links the tool's surveys (all but the main program).
$(B)/tests/test_terrain_stats: tests/c/test_terrain_stats.c $(TEST_HDR) $(filter-out tools/terrain_stats.c,$(TS_SRC)) tools/terrain_stats.h $(B)/libct.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) -Itests/c -Itools $< $(filter-out tools/terrain_stats.c,$(TS_SRC)) $(B)/libct.a $(LIBS) -o $@

.PHONY: terrain-stats
terrain-stats: $(B)/terrain_stats
	node tools/terrain_stats.mjs $(ARGS)

# make landforms ARGS="--seeds 42 --chunks 4" (same as npm run landforms -- ...):
# pits, ponding, drainage-area exponent and drainage density of land chunks,
# and coast box dimension (tools/landforms*, docs/generation.md "Landforms").
LF_SRC := $(sort $(wildcard tools/landforms*.c))
$(B)/landforms: $(LF_SRC) tools/landforms.h $(B)/libct.a
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) -Itools $(LF_SRC) $(B)/libct.a $(LIBS) -o $@

# Its test links the tool's measures (all but the main program).
$(B)/tests/test_landforms: tests/c/test_landforms.c $(TEST_HDR) $(filter-out tools/landforms.c,$(LF_SRC)) tools/landforms.h $(B)/libct.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) -Itests/c -Itools $< $(filter-out tools/landforms.c,$(LF_SRC)) $(B)/libct.a $(LIBS) -o $@

.PHONY: landforms
landforms: $(B)/landforms
	node tools/landforms.mjs $(ARGS)
# ------------------------------------------------------------------- fuzzing
# libFuzzer + ASan + UBSan harnesses in fuzz/ (docs/fuzzing.md). The core is
# compiled once with fuzzer-no-link instrumentation, each harness links it.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FZ := build/fuzz
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CFLAGS := -std=c99 -g -O1 -ffp-contract=off -Icore/include -Icore/src $(FUZZ_SAN)
FUZZ_NAMES := snapshot ctc config palette set
FUZZ_OBJ := $(patsubst core/src/%.c,$(FZ)/obj/%.o,$(CORE_SRC))
.SECONDARY: $(FUZZ_OBJ)

$(FZ)/obj/%.o: core/src/%.c $(CORE_HDR)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FZ)/fuzz_%: fuzz/fuzz_%.c $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $< $(FUZZ_OBJ) -lm -o $@

fuzz-build: $(addprefix $(FZ)/fuzz_,$(FUZZ_NAMES))

fuzz: all fuzz-build
	@sh fuzz/run.sh $(FUZZ_SECONDS)
# ------------------------------------------------------- samples and previews
# The reference's sample set: one world and sixteen adjoining +Z LOD 6 chunks
# (x 22..29, y 52..53). tests/c/test_samples.c checks they are current.
SAMPLE_CHUNKS := $(foreach y,52 53,$(foreach x,22 23 24 25 26 27 28 29,--chunk +Z 6 $(x) $(y)))
samples: terrain
	./terrain --preset balanced --config samples/world.cfg --out samples $(SAMPLE_CHUNKS)
	@du -cb samples/* | tail -n 1 | sed 's/total$$/bytes in samples\//'

# Four pictures drawn by build/native/previews: the sample chunks as read from
# samples/*.ctc (run make samples first when they are stale), every preset, the
# regional rules and IID against coherent walk increments.
$(B)/previews: $(wildcard core/cli/previews*.c) $(CLI_SHARED) $(wildcard core/cli/*.h) $(B)/libct.a
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) $(CLI_DEFS) -Icore/cli $(wildcard core/cli/previews*.c) $(CLI_SHARED) $(B)/libct.a $(LIBS) $(CLI_LIBS) -o $@

previews: $(B)/previews
	@[ -n "$(ZLIB_OK)" ] || { echo "make previews: zlib not found; install it (Debian/Ubuntu: apt-get install zlib1g-dev) so the PNGs are compressed"; exit 1; }
	@mkdir -p previews
	$(B)/previews samples previews

# docs/validation.md: test, sanitize, thread-sanitize, sweep and (when the
# target exists) fuzz, with counts, timings, toolchain and machine.
validate:
	sh scripts/validate.sh
