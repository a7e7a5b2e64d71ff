/* The raster draw path: one instanced draw of quads (oriented as the
 * system's look says), pulled from the sorted live list in back-to-front
 * order and blended with premultiplied alpha (and an additive part); sprite
 * or flipbook, colour, size and opacity over life, light, soft fade against
 * the target's depth. The program is built with the look's features
 * (particles_look_defines): the default look's does no more than before.
 * Its objects are the system's raster attachment, made on its first draw. */
#include "render/particle_uniforms.h"

typedef struct raster_state {
    GLuint program;
    particle_uniforms uniforms;
    GLuint vertex_array;     /* empty: the draw pulls its vertices from SSBOs */
    GLuint sprite_sampler, depth_sampler;
} raster_state;

_Static_assert(sizeof(raster_state) + 16 <= PARTICLE_ATTACHMENT_BYTES / 8, "fits its share of the system");

enum { RASTER_GL_OBJECTS = 4 };

static uint32_t list_gl_objects(const void *state, plume_gl_object *out, uint32_t capacity) {
    const raster_state *r = state;
    const plume_gl_object all[RASTER_GL_OBJECTS] = {
        {GL_PROGRAM, r->program},
        {GL_VERTEX_ARRAY, r->vertex_array},
        {GL_SAMPLER, r->sprite_sampler},
        {GL_SAMPLER, r->depth_sampler},
    };
    return plume_list_named_gl_objects(all, RASTER_GL_OBJECTS, out, capacity);
}

static void release(void *state, plume_context *context) {
    plume_gl_object owned[RASTER_GL_OBJECTS];
    plume_delete_gl_objects(plume_context_env(context), owned, list_gl_objects(state, owned, RASTER_GL_OBJECTS));
}

static const particle_attachment_class RASTER_ATTACHMENT = {"raster draw path", release, list_gl_objects};

/* The program (the context's: shared with the systems of the same look), the
 * vertex array and the samplers. */
static plume_result create(const particle_view *v, raster_state *r) {
    plume_shader_stage stages[2] = {
        {GL_VERTEX_SHADER, "render/particle_draw.vert"},
        {GL_FRAGMENT_SHADER, "render/particle_draw.frag"},
    };
    char look[LOOK_DEFINES_SIZE];
    particles_look_defines(particles_look_features(v->desc), look);
    plume_result result = plume_build_program(v->env, "plume particles: draw", stages, 2, look, &r->program);
    if (result != PLUME_OK) return result;
    particle_find_uniforms(r->program, &r->uniforms);
    glGenVertexArrays(1, &r->vertex_array);
    draw_create_samplers(&r->sprite_sampler, &r->depth_sampler);
    return plume_drain_gl_errors(v->env, "plume_system_draw (raster draw objects)");
}

/* The system's raster state, made on its first draw (NULL: not made, said). */
static raster_state *raster_of(const particle_view *v, plume_result *result) {
    raster_state *r = particle_view_attach(v, &RASTER_ATTACHMENT, sizeof *r);
    *result = r ? PLUME_OK : PLUME_ERROR_OUT_OF_MEMORY;
    if (!r || r->program) return r;
    if ((*result = create(v, r)) == PLUME_OK) return r;
    release(r, v->context); /* tried again at the next draw */
    *r = (raster_state){0};
    return NULL;
}

static plume_result raster_draw(const particle_view *v, const draw_frame *frame, const draw_target *target,
                                const draw_count *count, plume_gl_scope *scope) {
    (void)scope;
    plume_result result;
    raster_state *r = raster_of(v, &result);
    if (!r) return result;
    glUseProgram(r->program);
    particle_set_appearance_uniforms(v, &r->uniforms);
    particle_set_view_uniforms(v, &r->uniforms, frame, target->depth_texture,
                               target->depth_size, r->depth_sampler);
    particle_set_light_uniforms(v, &r->uniforms);
    draw_bind_sprite(v, r->sprite_sampler);
    particle_bind_storage(PLUME_BINDING_MOTION, v->motion);
    particle_bind_storage(PLUME_BINDING_TRAITS, v->traits);
    particle_view_bind_draw_list(v, PLUME_BINDING_DRAW_LIST);
    glBindVertexArray(r->vertex_array);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, count ? count->buffer : v->state.buffer);
    draw_blend_particles_over_depth(v->env);
    GLintptr args = count ? (GLintptr)count->offset : v->state.offset + STATE_DRAW_ARGS_OFFSET;
    glDrawArraysIndirect(GL_TRIANGLES, (const void *)(uintptr_t)args);
    return PLUME_OK;
}

const draw_path raster_draw_path = {"raster", raster_draw};
