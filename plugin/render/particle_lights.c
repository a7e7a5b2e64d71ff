/* plume_system_write_lights (plume_lights.h): two compute passes
 * (shaders/render/particle_lights.comp says what each does) from the
 * system's particles into the host's buffer. The candidates' buffer and the
 * programs are the system's lights attachment, made at the first call and
 * freed with the system. */
#include <math.h>
#include <stdio.h>

#include "plume/plume_lights.h"
#include "render/particle_uniforms.h"

_Static_assert(PLUME_LIGHTS_HEADER_BYTES == 4 * PLUME_LIGHTS_HEADER_WORDS, "the header, in C and GLSL");
_Static_assert(PLUME_LIGHT_BYTES == 16 * PLUME_LIGHT_VEC4S, "a light, in C and GLSL");
_Static_assert(PLUME_MAX_PARTICLE_LIGHTS == PLUME_MAX_LIGHTS_PER_CALL, "the selection's shared array holds them all");
_Static_assert(PLUME_BINDING_LIGHTS < PLUME_SCOPE_SSBO_SLOTS && PLUME_BINDING_LIGHT_CANDIDATES < PLUME_SCOPE_SSBO_SLOTS,
               "the scope saves the bindings the passes use");

enum { LIGHTS_CANDIDATES, LIGHTS_SELECT, LIGHTS_PASSES };

typedef struct lights_state {
    GLuint programs[LIGHTS_PASSES];
    GLint at[LIGHTS_PASSES][5];
    particle_uniforms appearance[LIGHTS_PASSES];
    GLuint candidate_buffer;
} lights_state;

_Static_assert(sizeof(lights_state) + 16 <= PARTICLE_ATTACHMENT_BYTES / 4, "fits its share of the system");

enum { LIGHTS_GL_OBJECTS = LIGHTS_PASSES + 1 };

enum { AT_SLOTS, AT_MAX_LIGHTS, AT_INTENSITY, AT_MIN_BRIGHTNESS, AT_RADIUS };
static const char *const LIGHTS_UNIFORM_NAMES[] = {"u_slots", "u_max_lights", "u_intensity", "u_min_brightness",
                                                   "u_radius", NULL};

static uint32_t list_gl_objects(const void *state, plume_gl_object *out, uint32_t capacity) {
    const lights_state *s = state;
    const plume_gl_object all[LIGHTS_GL_OBJECTS] = {
        {GL_PROGRAM, s->programs[LIGHTS_CANDIDATES]},
        {GL_PROGRAM, s->programs[LIGHTS_SELECT]},
        {GL_BUFFER, s->candidate_buffer},
    };
    return plume_list_named_gl_objects(all, LIGHTS_GL_OBJECTS, out, capacity);
}

static void release(void *state, plume_context *context) {
    plume_gl_object owned[LIGHTS_GL_OBJECTS];
    plume_delete_gl_objects(plume_context_env(context), owned, list_gl_objects(state, owned, LIGHTS_GL_OBJECTS));
}

static const particle_attachment_class LIGHTS_ATTACHMENT = {"particle lights", release, list_gl_objects};

static uint32_t candidate_count(const plume_system_desc *desc) {
    return (desc->capacity + PLUME_LIGHTS_GROUP_SIZE - 1) / PLUME_LIGHTS_GROUP_SIZE;
}

static plume_result create(const particle_view *v, lights_state *s) {
    char look[LOOK_DEFINES_SIZE];
    particles_look_defines(particles_look_features(v->desc), look);
    static const char *const LABELS[LIGHTS_PASSES] = {"plume lights: candidates", "plume lights: select"};
    plume_shader_stage stage = {GL_COMPUTE_SHADER, "render/particle_lights.comp"};
    for (int pass = 0; pass < LIGHTS_PASSES; ++pass) {
        char defines[LOOK_DEFINES_SIZE + 48];
        snprintf(defines, sizeof defines, "%s#define PARTICLE_LIGHTS_PASS %d\n", look, pass);
        plume_result r = plume_build_program(v->env, LABELS[pass], &stage, 1, defines, &s->programs[pass]);
        if (r != PLUME_OK) return r;
        plume_find_uniform_locations(s->programs[pass], LIGHTS_UNIFORM_NAMES, s->at[pass]);
        particle_find_uniforms(s->programs[pass], &s->appearance[pass]);
    }
    s->candidate_buffer =
        plume_make_gpu_buffer(v->env, (GLsizeiptr)candidate_count(v->desc) * 8, "plume lights: candidates");
    return plume_drain_gl_errors(v->env, "plume_system_write_lights (its objects)");
}

static lights_state *lights_of(const particle_view *v, plume_result *result) {
    lights_state *s = particle_view_attach(v, &LIGHTS_ATTACHMENT, sizeof *s);
    *result = s ? PLUME_OK : PLUME_ERROR_OUT_OF_MEMORY;
    if (!s || s->candidate_buffer) return s;
    if ((*result = create(v, s)) == PLUME_OK) return s;
    release(s, v->context); /* tried again at the next call */
    *s = (lights_state){0};
    return NULL;
}

static bool bad_float(float value) { return !isfinite(value) || value < 0.0f; }

/* The descriptor's fields that need no GL. */
static plume_result check_desc(const plume_env *env, const char *caller, const plume_lights_desc *d) {
    const char *field = NULL, *why = NULL;
    if (d->buffer == 0) field = "buffer", why = "is 0; it must name the host's GL buffer";
    else if (d->max_lights == 0 || d->max_lights > PLUME_MAX_PARTICLE_LIGHTS)
        field = "max_lights", why = "must be 1 .. PLUME_MAX_PARTICLE_LIGHTS (1024)";
    else if (bad_float(d->radius)) field = "radius", why = "must be finite and >= 0";
    else if (bad_float(d->intensity)) field = "intensity", why = "must be finite and >= 0";
    else if (bad_float(d->min_brightness)) field = "min_brightness", why = "must be finite and >= 0";
    if (!field) return PLUME_OK;
    plume_log(env, PLUME_LOG_ERROR, "%s: desc->%s %s", caller, field, why);
    return PLUME_ERROR_INVALID_ARGUMENT;
}

/* The buffer's name, alignment and size (the GL's answers; under the scope,
 * which saves the copy-write binding this uses). */
static plume_result check_buffer(const plume_env *env, const char *caller, const plume_lights_desc *d) {
    GLint alignment = 1;
    glGetIntegerv(GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT, &alignment);
    if (!glIsBuffer(d->buffer)) {
        plume_log(env, PLUME_LOG_ERROR, "%s: desc->buffer %u is not a GL buffer object of this context", caller,
                  d->buffer);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if (alignment > 1 && d->offset % (uint32_t)alignment != 0) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: desc->offset %u is not a multiple of GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT (%d)", caller,
                  d->offset, alignment);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    GLint64 size = 0;
    glBindBuffer(GL_COPY_WRITE_BUFFER, d->buffer);
    glGetBufferParameteri64v(GL_COPY_WRITE_BUFFER, GL_BUFFER_SIZE, &size);
    uint64_t needed = (uint64_t)d->offset + plume_lights_bytes(d->max_lights);
    if ((uint64_t)size < needed) {
        plume_log(env, PLUME_LOG_ERROR,
                  "%s: desc->buffer holds %lld bytes; offset %u + plume_lights_bytes(%u) needs %llu", caller,
                  (long long)size, d->offset, d->max_lights, (unsigned long long)needed);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    return PLUME_OK;
}

static void run_pass(const particle_view *v, const lights_state *s, int pass, const plume_lights_desc *d,
                     uint32_t slots, uint32_t groups) {
    const GLint *at = s->at[pass];
    glUseProgram(s->programs[pass]);
    particle_set_appearance_uniforms(v, &s->appearance[pass]);
    glUniform1ui(at[AT_SLOTS], slots);
    glUniform1ui(at[AT_MAX_LIGHTS], d->max_lights);
    glUniform1f(at[AT_INTENSITY], d->intensity > 0.0f ? d->intensity : 1.0f);
    glUniform1f(at[AT_MIN_BRIGHTNESS], d->min_brightness);
    glUniform1f(at[AT_RADIUS], d->radius);
    glDispatchCompute(groups, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

static plume_result write_lights(const particle_view *v, const plume_lights_desc *d) {
    plume_result r;
    lights_state *s = lights_of(v, &r);
    if (!s) return r;
    glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 0, -1, "plume lights");
    particle_bind_storage(PLUME_BINDING_MOTION, v->motion);
    particle_bind_storage(PLUME_BINDING_TRAITS, v->traits);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_LIGHT_CANDIDATES, s->candidate_buffer);
    glBindBufferRange(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_LIGHTS, d->buffer, d->offset,
                      (GLsizeiptr)plume_lights_bytes(d->max_lights));
    uint32_t candidates = candidate_count(v->desc);
    run_pass(v, s, LIGHTS_CANDIDATES, d, v->desc->capacity, candidates);
    run_pass(v, s, LIGHTS_SELECT, d, candidates, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_UNIFORM_BARRIER_BIT);
    glPopDebugGroup();
    return PLUME_OK;
}

plume_result plume_system_write_lights(plume_context *context, plume_system handle, const plume_lights_desc *desc) {
    static const char *CALLER = "plume_system_write_lights";
    particle_view view;
    plume_result r = particles_find_view(context, handle, CALLER, &view);
    if (r != PLUME_OK) return r;
    if (!desc) {
        plume_log(view.env, PLUME_LOG_ERROR, "%s: desc must not be NULL", CALLER);
        return PLUME_ERROR_INVALID_ARGUMENT;
    }
    if ((r = check_desc(view.env, CALLER, desc)) != PLUME_OK) return r;
    if ((r = plume_check_host_state(view.env, CALLER)) != PLUME_OK) return r;
    if (view.desc->path == PLUME_PATH_FRAGMENT) {
        plume_log(view.env, PLUME_LOG_ERROR,
                  "%s: the system runs the fragment path (its particles live in textures); lights need the compute "
                  "path",
                  CALLER);
        return PLUME_ERROR_GL_UNSUPPORTED;
    }
    plume_gl_scope scope;
    plume_gl_scope_begin(&scope, view.env);
    plume_gl_scope_save(&scope, PLUME_SCOPE_COPY_BUFFERS | PLUME_SCOPE_TEXTURES);
    r = check_buffer(view.env, CALLER, desc);
    if (r == PLUME_OK) r = write_lights(&view, desc);
    plume_gl_scope_end(&scope);
    plume_result gl = plume_drain_gl_errors(view.env, CALLER);
    return r != PLUME_OK ? r : gl;
}
