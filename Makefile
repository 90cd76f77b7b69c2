# Makefile - native library, CLIs, tests, sanitizers and the WebAssembly core.
#
#   make                 libct.a, ./terrain, ./stream_demo
#   make test            native tests (tests/c/test_*.c), one binary each
#   make sanitize        the same tests under AddressSanitizer + UBSan
#   make thread-sanitize the same tests under ThreadSanitizer
#   make sweep           many worlds checked against the invariants
#   make wasm            build/wasm/ct.wasm through emsdk.env
#   make wasm-lib        build/wasm/libct.a (core only, for your own emcc build)
#   make site            a static folder for any web host
#   make c-game          examples/c-game: native twin and the Emscripten build (Node)
#   make bench           native benchmarks

CC      ?= cc
STD     := -std=c99 -pedantic -Wall -Wextra -Werror -ffp-contract=off
OPT     ?= -O2
CFLAGS_ALL := $(STD) $(OPT) -Icore/include -Icore/src $(CFLAGS)
NATIVE_DEFS := -DCT_WITH_THREADS -D_POSIX_C_SOURCE=200809L
LIBS    := -lm -pthread

CORE_HDR := core/include/ct.h core/include/ct_knobs.def $(wildcard core/src/*.h)
# stream.c is the only file with threads: native builds only.
CORE_SRC := $(filter-out core/src/stream.c,$(sort $(wildcard core/src/*.c)))
STREAM_SRC := $(wildcard core/src/stream.c)
NATIVE_SRC := $(CORE_SRC) $(STREAM_SRC)
TEST_SRC := $(sort $(wildcard tests/c/test_*.c))
TEST_HDR := $(wildcard tests/c/*.h)

B := build/native
NATIVE_OBJ := $(patsubst core/src/%.c,$(B)/obj/%.o,$(NATIVE_SRC))
TEST_BIN := $(patsubst tests/c/%.c,$(B)/tests/%,$(TEST_SRC))

.PHONY: all test check sanitize thread-sanitize sweep wasm wasm-lib site bench clean c-game
all: $(B)/libct.a terrain $(if $(wildcard core/cli/stream_demo.c),stream_demo)

$(B)/obj/%.o: core/src/%.c $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) -c $< -o $@

$(B)/libct.a: $(NATIVE_OBJ)
	@rm -f $@
	ar rcs $@ $^

terrain: core/cli/terrain.c $(wildcard core/cli/*.h) $(B)/libct.a
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) -Icore/cli core/cli/terrain.c $(filter-out core/cli/terrain.c core/cli/stream_demo.c,$(wildcard core/cli/*.c)) $(B)/libct.a $(LIBS) -o $@

stream_demo: core/cli/stream_demo.c $(B)/libct.a
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) core/cli/stream_demo.c $(B)/libct.a $(LIBS) -o $@

$(B)/tests/%: tests/c/%.c $(TEST_HDR) $(B)/libct.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) -Itests/c $< $(B)/libct.a $(LIBS) -o $@

# Each test binary prints "name: N passed, M failed"; run-c-tests adds them up.
test: all check
check: $(TEST_BIN)
	@sh tests/c/run.sh $(TEST_BIN)

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
WASM_FLAGS := -std=c99 -O3 -Wall -Wextra -Werror -ffp-contract=off -Icore/include -Icore/src \
  --no-entry -sSTANDALONE_WASM=1 -sALLOW_MEMORY_GROWTH=1 -sINITIAL_MEMORY=33554432 \
  -sTOTAL_STACK=1048576 -sEXPORTED_FUNCTIONS=_malloc,_free -sFILESYSTEM=0

wasm: $(W)/ct.wasm

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
	@mkdir -p $(W)/libobj
	@. ./emsdk.env; [ "$$CT_EMCC_OK" = 1 ] || exit 1; \
	  for f in $(CORE_SRC); do \
	    emcc -std=c99 -O3 -Wall -Wextra -Werror -ffp-contract=off -Icore/include -Icore/src \
	      -c $$f -o $(W)/libobj/$$(basename $$f .c).o || exit 1; \
	  done; \
	  rm -f $@; emar rcs $@ $(W)/libobj/*.o && echo "wasm-lib: $@"

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
	$(B)/bench_native

$(B)/bench_native: bench/bench_native.c $(B)/libct.a
	$(CC) $(CFLAGS_ALL) $(NATIVE_DEFS) $< $(B)/libct.a $(LIBS) -o $@

clean:
	rm -rf build terrain stream_demo site
