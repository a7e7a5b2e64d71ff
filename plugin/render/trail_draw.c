/* The trail draw path (plume_trail_desc): one instanced draw over the
 * update's sorted segment pairs (particle_view's trail), each a segment of
 * a particle's trail as up to PLUME_TRAIL_SUBDIVISIONS camera-facing quads
 * along a Catmull-Rom curve (as many as the curve on the screen needs), or
 * the particle's own quad (as the raster path draws
 * it), all blended in the one back-to-front order the update sorted them
 * in; the look (blend mode, soft fade, light, emitted light, sprite) as the
 * raster path's, with the width, colour and opacity over the trail's
 * length. render/draw.c picks it for a system with a trail where the
 * raster path would draw, at every resolution (the low-resolution wrapper
 * serves it as any path), and it is the tiled path's fallback for such a
 * system. Its objects are the system's trail attachment, made on its first
 * draw. */
#include "render/particle_uniforms.h"
#include "render/trail_draw.h"

static const char *const TRAIL_UNIFORM_NAMES[] = {
    "u_entries",           "u_trail_ring",         "u_eye",                 "u_by_distance",
    "u_spacing",           "u_uv_tile",            "u_uv_tile_length",      "u_trail_width_times",
    "u_trail_width_values", "u_trail_width_count", "u_trail_opacity_times", "u_trail_opacity_values",
    "u_trail_opacity_count", "u_trail_color_times", "u_trail_color_values", "u_trail_color_count",
    "u_ribbon",            "u_trail_capacity",     "u_trail_target",        NULL};

_Static_assert(PLUME_UNIFORM_NAMES_FIT(TRAIL_UNIFORM_NAMES, trail_uniforms), "a name for each location");

typedef struct trail_draw_state {
    GLuint program;
    particle_uniforms uniforms;
    trail_uniforms trail;
    GLuint vertex_array;     /* empty: the draw pulls its vertices from SSBOs */
    GLuint sprite_sampler, depth_sampler;
} trail_draw_state;

_Static_assert(sizeof(trail_draw_state) + 16 <= PARTICLE_ATTACHMENT_BYTES / 8, "fits its share of the system");

enum { TRAIL_DRAW_GL_OBJECTS = 4 };

static uint32_t list_gl_objects(const void *state, plume_gl_object *out, uint32_t capacity) {
    const trail_draw_state *r = state;
    const plume_gl_object all[TRAIL_DRAW_GL_OBJECTS] = {
        {GL_PROGRAM, r->program},
        {GL_VERTEX_ARRAY, r->vertex_array},
        {GL_SAMPLER, r->sprite_sampler},
        {GL_SAMPLER, r->depth_sampler},
    };
    return plume_list_named_gl_objects(all, TRAIL_DRAW_GL_OBJECTS, out, capacity);
}

static void release(void *state, plume_context *context) {
    plume_gl_object owned[TRAIL_DRAW_GL_OBJECTS];
    plume_delete_gl_objects(plume_context_env(context), owned, list_gl_objects(state, owned, TRAIL_DRAW_GL_OBJECTS));
}

static const particle_attachment_class TRAIL_ATTACHMENT = {"trail draw path", release, list_gl_objects};

/* The program (the context's: shared with the systems of the same look), the
 * vertex array and the samplers (the sprite's repeating along the trail
 * where the texture is tiled). */
static plume_result create(const particle_view *v, trail_draw_state *r) {
    plume_shader_stage stages[2] = {
        {GL_VERTEX_SHADER, "render/trail_draw.vert"},
        {GL_FRAGMENT_SHADER, "render/particle_draw.frag"},
    };
    char look[LOOK_DEFINES_SIZE];
    particles_look_defines(particles_look_features(v->desc), look);
    plume_result result = plume_build_program(v->env, "plume trails: draw", stages, 2, look, &r->program);
    if (result != PLUME_OK) return result;
    particle_find_uniforms(r->program, &r->uniforms);
    trail_find_uniforms(r->program, &r->trail);
    glGenVertexArrays(1, &r->vertex_array);
    draw_create_samplers(&r->sprite_sampler, &r->depth_sampler);
    if (v->desc->trail.uv_mode == PLUME_TRAIL_UV_TILE)
        glSamplerParameteri(r->sprite_sampler, GL_TEXTURE_WRAP_S, GL_REPEAT);
    return plume_drain_gl_errors(v->env, "plume_system_draw (trail draw objects)");
}

/* The system's trail draw state, made on its first draw (NULL: not made, said). */
static trail_draw_state *trail_draw_of(const particle_view *v, plume_result *result) {
    trail_draw_state *r = particle_view_attach(v, &TRAIL_ATTACHMENT, sizeof *r);
    *result = r ? PLUME_OK : PLUME_ERROR_OUT_OF_MEMORY;
    if (!r || r->program) return r;
    if ((*result = create(v, r)) == PLUME_OK) return r;
    release(r, v->context); /* tried again at the next draw */
    *r = (trail_draw_state){0};
    return NULL;
}

void trail_find_uniforms(GLuint program, trail_uniforms *u) {
    plume_find_uniform_locations(program, TRAIL_UNIFORM_NAMES, u->at);
}

void trail_eye(const draw_frame *frame, float out[4]) {
    mat4 inverse;
    glm_mat4_inv((vec4 *)frame->view, inverse);
    /* The way to the eye: from the eye's point, or under an orthographic
     * projection (no perspective divide) along the view's back axis. */
    bool orthographic = frame->projection[2][3] == 0.0f;
    const float *from = orthographic ? inverse[2] : inverse[3];
    out[0] = from[0];
    out[1] = from[1];
    out[2] = from[2];
    out[3] = orthographic ? 0.0f : 1.0f;
}

void trail_set_uniforms(const particle_view *v, const trail_uniforms *u, const draw_frame *frame) {
    const plume_trail_desc *t = &v->desc->trail;
    float eye[4];
    trail_eye(frame, eye);
    glUniform1ui(u->entries, v->trail.entries);
    glUniform1ui(u->ring, t->points - 1);
    glUniform4fv(u->eye, 1, eye);
    glUniform1i(u->by_distance, t->spacing_mode == PLUME_TRAIL_SPACING_DISTANCE);
    glUniform1f(u->spacing, t->spacing);
    glUniform1i(u->uv_tile, t->uv_mode == PLUME_TRAIL_UV_TILE);
    glUniform1f(u->uv_tile_length, t->uv_tile_length);
    glUniform1i(u->ribbon, t->ribbon);
    glUniform1ui(u->capacity, v->desc->capacity);
    particle_set_curve_uniforms(u->width_curve, 0, &t->width_over_length);
    particle_set_curve_uniforms(u->opacity_curve, 0, &t->opacity_over_length);
    particle_set_gradient_uniforms(u->color_curve, 0, &t->color_over_length);
}

#ifdef PLUME_LAB
#include "plume_lab.h"

static bool lab_full_subdivisions;
void plume_lab_trail_full_subdivisions(bool on) { lab_full_subdivisions = on; }
#endif

void trail_set_target(GLuint program, GLint location, int width, int height) {
#ifdef PLUME_LAB
    if (lab_full_subdivisions) width = height = 0;
#endif
    glProgramUniform2f(program, location, (float)width, (float)height);
}

static plume_result trail_draw(const particle_view *v, const draw_frame *frame, const draw_target *target,
                               const draw_count *count, plume_gl_scope *scope) {
    (void)scope;
    plume_result result;
    trail_draw_state *r = trail_draw_of(v, &result);
    if (!r) return result;
    glUseProgram(r->program);
    particle_set_appearance_uniforms(v, &r->uniforms);
    particle_set_view_uniforms(v, &r->uniforms, frame, target->depth_texture, target->depth_size,
                               r->depth_sampler);
    particle_set_light_uniforms(v, &r->uniforms);
    trail_set_uniforms(v, &r->trail, frame);
    trail_set_target(r->program, r->trail.target, target->width, target->height);
    draw_bind_sprite(v, r->sprite_sampler);
    particle_bind_storage(PLUME_BINDING_MOTION, v->motion);
    particle_bind_storage(PLUME_BINDING_TRAITS, v->traits);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_DRAW_LIST, v->trail.pair_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TRAIL_HEADERS, v->trail.header_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TRAIL_POINTS, v->trail.point_buffer);
    glBindVertexArray(r->vertex_array);
    /* Its own arguments, from the update; as the tiled path's fallback,
     * that path's (every pair of an overflowing frame, else none). */
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, count ? count->buffer : v->trail.control_buffer);
    draw_blend_particles_over_depth(v->env);
    glDrawArraysIndirect(GL_TRIANGLES, (const void *)(uintptr_t)(count ? count->offset : 4 * PLUME_TRAIL_DRAW_ARGS));
    return PLUME_OK;
}

const draw_path trail_draw_path = {"trail", trail_draw};
