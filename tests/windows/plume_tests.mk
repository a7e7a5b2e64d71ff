# plume_tests.exe, the test suite built for 64-bit Windows with the MinGW-w64
# cross compiler: the module with its lab (PLUME_LAB), the host stand-ins
# with WGL in place of EGL (host/headless_gl_wgl.c), the demo's core, the
# effects library and every test file, as premake5.lua's plume_tests on
# Linux. Objects are kept (with their header dependencies) between runs.
# tests/check_wine_suite.sh runs it:
#   make -f tests/windows/plume_tests.mk ROOT=. OUT=build/mingw EPOXY=... LIBS=...
CC = x86_64-w64-mingw32-gcc
OBJ = $(OUT)/suite/obj
EXE = $(OUT)/suite/plume_tests.exe

find_c = $(shell cd $(ROOT) && find $(1) -name '*.c' | sort)
LAB_SOURCES = $(call find_c,plugin)
OTHER_SOURCES = $(filter-out host/headless_gl.c,$(call find_c,host)) \
    $(filter-out demo/main.c demo/window.c,$(call find_c,demo)) $(call find_c,effects) tests/main.c \
    $(call find_c,tests/support tests/core tests/sort tests/particles tests/render tests/profile tests/demo \
                  tests/world tests/effects)
LAB_OBJECTS = $(LAB_SOURCES:%.c=$(OBJ)/%.o)
OTHER_OBJECTS = $(OTHER_SOURCES:%.c=$(OBJ)/%.o)

# As premake5.lua builds them (C11, its warnings), optimised as the release
# build, with the headers of Debian's header-only cglm and stb
# (tests/check_windows_build.sh links them into $(OUT)/include).
CFLAGS = -std=c11 -O2 -Wall -Wextra -Werror=implicit-function-declaration -Wshadow -Wstrict-prototypes \
    -DNDEBUG -DPLUME_LAB -MMD -MP \
    -I$(ROOT)/include -I$(ROOT)/plugin -I$(ROOT)/shaders -I$(ROOT)/host -I$(OUT)/generated \
    -I$(ROOT)/tests/support -I$(ROOT)/demo -I$(ROOT)/lab \
    -I$(EPOXY)/include -I$(LIBS)/include -isystem $(OUT)/include
LDLIBS = -L$(EPOXY)/lib -L$(LIBS)/lib -ljansson -lcmocka-static -lepoxy -lopengl32 -lgdi32 \
    -Wl,-Bstatic -lpthread -Wl,-Bdynamic -lm

$(EXE): $(LAB_OBJECTS) $(OTHER_OBJECTS) $(LIBS)/lib/libcmocka-static.a $(LIBS)/lib/libjansson.a
	$(CC) -static-libgcc $(filter %.o,$^) $(LDLIBS) -o $@

# cmocka.h declares its messages' format as Microsoft's printf, while under
# -std=c11 MinGW's is the C99 one, which the tests' %zu need: its warnings
# there are wrong, and Linux builds check the same formats as C99.
$(OBJ)/tests/%.o: CFLAGS += -Wno-format

$(OBJ)/%.o: $(ROOT)/%.c
	@mkdir -p $(dir $@)
	@$(CC) $(CFLAGS) -c $< -o $@

-include $(LAB_OBJECTS:.o=.d) $(OTHER_OBJECTS:.o=.d)
