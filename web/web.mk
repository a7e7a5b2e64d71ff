# The web page's build (tools/web_build.sh runs it: make -f web/web.mk, in
# build/web): each source compiled by emcc once and again only when it or a
# header it includes changed (-MMD), in parallel; then one link.
# ROOT: the repository; set by tools/web_build.sh.
CC := emcc
# gnu11: EM_ASM (the page's text) needs it.
CFLAGS := -std=gnu11 -O2 -DNDEBUG -Wall -Wextra -Wno-unused-function -MMD \
    -I$(ROOT)/web/shim -Iinclude -I$(ROOT)/include -I$(ROOT)/plugin -I$(ROOT)/shaders \
    -I$(ROOT)/build/generated -I$(ROOT)/demo -I$(ROOT)/host -I$(ROOT)/web -I$(ROOT)/effects
# Left out, as a browser cannot run them: the offscreen run (EGL,
# host/headless_gl.c), effect files (the effects library's JSON reader and
# writer, jansson, and watching files: web/effect_show_web.c shows the
# built-in effects).
SOURCES := $(wildcard $(ROOT)/plugin/*/*.c) \
    $(filter-out %/effect_show.c %/effect_reload.c %/file_watch.c,$(wildcard $(ROOT)/demo/*.c)) \
    $(addprefix $(ROOT)/effects/,effect_meshes.c effect_obj.c effect_schema.c effect_sprite.c) \
    $(addprefix $(ROOT)/host/,gl_texture.c steady_state.c frame_pacer.c) \
    $(wildcard $(ROOT)/web/*.c)
OBJECTS := $(patsubst $(ROOT)/%.c,obj/%.o,$(SOURCES))
# Undefined at the link: the desktop GL's and the compute path's functions,
# which WebGL 2 lacks. Never reached on OpenGL ES (the module's caps and its
# path choice keep to ES 3.0); a call would stop the page with "missing
# function", which the page's test reads. The embedded shaders: a header
# the native build writes (make plume_shaders).
LDFLAGS := -sUSE_GLFW=3 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2 -sALLOW_MEMORY_GROWTH=1 \
    -sERROR_ON_UNDEFINED_SYMBOLS=0 -sWARN_ON_UNDEFINED_SYMBOLS=0 -sMINIFY_HTML=0 \
    --preload-file $(ROOT)/demo/assets@/assets --shell-file $(ROOT)/web/shell.html

index.html: $(OBJECTS) $(ROOT)/web/shell.html $(wildcard $(ROOT)/demo/assets/*)
	$(CC) $(OBJECTS) $(LDFLAGS) -lm -o $@

obj/%.o: $(ROOT)/%.c
	@mkdir -p $(dir $@)
	@$(CC) $(CFLAGS) -c $< -o $@

-include $(OBJECTS:.o=.d)
