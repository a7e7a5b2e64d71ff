/* Self-shadowing's opacity map (self_shadow.h): three compute passes over
 * one buffer per system (self_shadow_map.comp says what each does). Its
 * objects are the system's self-shadow attachment, made on its first
 * shadowed draw and freed with the system. */
#include <stdio.h>

#include "render/particle_uniforms.h"
#include "render/self_shadow.h"

_Static_assert(PLUME_BINDING_SELF_SHADOW == PLUME_SCOPE_OPTIONAL_SSBO_SLOT,
               "the draw's scope saves the map's binding (draw.c)");

enum { SHADOW_CLEAR, SHADOW_SPLAT, SHADOW_RESOLVE, SHADOW_PASSES };

typedef struct self_shadow_state {
    GLuint programs[SHADOW_PASSES];
    GLint at[SHADOW_PASSES][6];
    particle_uniforms splat_uniforms; /* the splat reads the appearance (size, opacity) */
    GLuint map_buffer;
} self_shadow_state;

_Static_assert(sizeof(self_shadow_state) + 16 <= PARTICLE_ATTACHMENT_BYTES / 8, "fits its share of the system");

enum { SHADOW_GL_OBJECTS = SHADOW_PASSES + 1 };

/* The passes' uniforms, in the order of `at`. */
enum { AT_INVOCATIONS, AT_STRENGTH, AT_MAP_SIZE, AT_SLICES, AT_LIGHT_DIRECTION };
static const char *const SHADOW_UNIFORM_NAMES[] = {"u_invocations", "u_strength", "u_shadow_map_size",
                                                   "u_shadow_slices", "u_light_direction", NULL};

static uint32_t list_gl_objects(const void *state, plume_gl_object *out, uint32_t capacity) {
    const self_shadow_state *s = state;
    const plume_gl_object all[SHADOW_GL_OBJECTS] = {
        {GL_PROGRAM, s->programs[SHADOW_CLEAR]},
        {GL_PROGRAM, s->programs[SHADOW_SPLAT]},
        {GL_PROGRAM, s->programs[SHADOW_RESOLVE]},
        {GL_BUFFER, s->map_buffer},
    };
    return plume_list_named_gl_objects(all, SHADOW_GL_OBJECTS, out, capacity);
}

static void release(void *state, plume_context *context) {
    plume_gl_object owned[SHADOW_GL_OBJECTS];
    plume_delete_gl_objects(plume_context_env(context), owned, list_gl_objects(state, owned, SHADOW_GL_OBJECTS));
}

static const particle_attachment_class SELF_SHADOW_ATTACHMENT = {"self-shadow map", release, list_gl_objects};

size_t self_shadow_map_bytes(const plume_system_desc *desc) {
    const plume_self_shadow_desc *s = &desc->self_shadow;
    if (!(s->strength > 0.0f)) return 0;
    return 4u * (PLUME_SELF_SHADOW_HEADER_WORDS + (size_t)s->map_size * s->map_size * s->slices);
}

/* The passes' programs (the context's, shared by systems of one look) and
 * the map's buffer. */
static plume_result create(const particle_view *v, self_shadow_state *s) {
    char look[LOOK_DEFINES_SIZE];
    particles_look_defines(particles_look_features(v->desc), look);
    static const char *const LABELS[SHADOW_PASSES] = {"plume draw: self-shadow clear", "plume draw: self-shadow splat",
                                                      "plume draw: self-shadow resolve"};
    plume_shader_stage stage = {GL_COMPUTE_SHADER, "render/self_shadow_map.comp"};
    for (int pass = 0; pass < SHADOW_PASSES; ++pass) {
        char defines[LOOK_DEFINES_SIZE + 48];
        snprintf(defines, sizeof defines, "%s#define SELF_SHADOW_PASS %d\n", look, pass);
        plume_result r = plume_build_program(v->env, LABELS[pass], &stage, 1, defines, &s->programs[pass]);
        if (r != PLUME_OK) return r;
        plume_find_uniform_locations(s->programs[pass], SHADOW_UNIFORM_NAMES, s->at[pass]);
    }
    particle_find_uniforms(s->programs[SHADOW_SPLAT], &s->splat_uniforms);
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, v->env);
    s->map_buffer = plume_make_gpu_buffer(v->env, (GLsizeiptr)self_shadow_map_bytes(v->desc), "plume draw: self-shadow map");
    plume_gl_scope_end(&scope);
    return plume_drain_gl_errors(v->env, "plume_system_draw (self-shadow objects)");
}

static self_shadow_state *self_shadow_of(const particle_view *v, plume_result *result) {
    self_shadow_state *s = particle_view_attach(v, &SELF_SHADOW_ATTACHMENT, sizeof *s);
    *result = s ? PLUME_OK : PLUME_ERROR_OUT_OF_MEMORY;
    if (!s || s->map_buffer) return s;
    if ((*result = create(v, s)) == PLUME_OK) return s;
    release(s, v->context); /* tried again at the next draw */
    *s = (self_shadow_state){0};
    return NULL;
}

static void run_pass(const particle_view *v, const self_shadow_state *s, int pass, uint32_t invocations) {
    const plume_self_shadow_desc *d = &v->desc->self_shadow;
    const GLint *at = s->at[pass];
    glUseProgram(s->programs[pass]);
    if (pass == SHADOW_SPLAT) particle_set_appearance_uniforms(v, &s->splat_uniforms);
    glUniform1ui(at[AT_INVOCATIONS], invocations);
    glUniform1f(at[AT_STRENGTH], d->strength);
    glUniform1ui(at[AT_MAP_SIZE], d->map_size);
    glUniform1ui(at[AT_SLICES], d->slices);
    glUniform3fv(at[AT_LIGHT_DIRECTION], 1, v->light.direction);
    if (invocations > 0)
        glDispatchCompute((invocations + PLUME_SELF_SHADOW_GROUP_SIZE - 1) / PLUME_SELF_SHADOW_GROUP_SIZE, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

plume_result self_shadow_prepare(const particle_view *v) {
    if (!(v->desc->self_shadow.strength > 0.0f)) return PLUME_OK;
    plume_result result;
    self_shadow_state *s = self_shadow_of(v, &result);
    if (!s) return result;
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume draw: self-shadow map");
    const plume_self_shadow_desc *d = &v->desc->self_shadow;
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_SELF_SHADOW, s->map_buffer);
    particle_bind_storage(PLUME_BINDING_STATE, v->state);
    particle_bind_storage(PLUME_BINDING_MOTION, v->motion);
    particle_bind_storage(PLUME_BINDING_TRAITS, v->traits);
    particle_view_bind_draw_list(v, PLUME_BINDING_DRAW_LIST);
    uint32_t columns = d->map_size * d->map_size;
    run_pass(v, s, SHADOW_CLEAR, columns * d->slices);
    run_pass(v, s, SHADOW_SPLAT, v->sort_bound);
    run_pass(v, s, SHADOW_RESOLVE, columns);
    glPopDebugGroup();
    return PLUME_OK;
}
