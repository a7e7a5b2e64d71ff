/* The fragment path's draw: one instanced draw of quads over the last
 * update's list (in the system's sort order, read through a buffer
 * texture), each instance fetching its slot and its particle with
 * texelFetch; the look (orientation, light, blend mode's additive part,
 * emitted light), the fragment shader, curves, flipbook and soft fade are
 * the compute path's raster draw's (particle_appearance.glsl,
 * particle_quad.glsl, particle_draw.frag, built with the same look defines,
 * their uniforms set by the same calls); so is the blend
 * (draw_blend_particles_over_depth: for draw buffer 0 where the GL has
 * indexed blending, else for all at once, GL 3.3; the scope restores it).
 * It draws at full resolution only: a frame asking for less, or for the
 * tiled path (compute shaders), gets it, with one warning for each. Its
 * objects are the system's attachment, made on its first draw. */
#include "render/particle_uniforms.h"

enum { FRAGMENT_DRAW_LIST, FRAGMENT_POSITION_AGE, FRAGMENT_TRAITS, FRAGMENT_VELOCITY, FRAGMENT_PARTICLE_WIDTH,
       FRAGMENT_DRAW_UNIFORMS };
static const char *const FRAGMENT_DRAW_UNIFORM_NAMES[FRAGMENT_DRAW_UNIFORMS + 1] = {
    "u_draw_list", "u_position_age", "u_traits", "u_velocity", "u_particle_width", NULL};

typedef struct fragment_draw_state {
    GLuint program;
    particle_uniforms uniforms;
    GLint at[FRAGMENT_DRAW_UNIFORMS];
    GLuint sprite_sampler, depth_sampler;
    bool warned_draw_resolution;
    bool warned_draw_path; /* a frame asked for the tiled draw path */
} fragment_draw_state;

_Static_assert(sizeof(fragment_draw_state) + 16 <= PARTICLE_ATTACHMENT_BYTES / 8, "fits its share of the system");

enum { FRAGMENT_DRAW_GL_OBJECTS = 3 };

static uint32_t list_gl_objects(const void *state, plume_gl_object *out, uint32_t capacity) {
    const fragment_draw_state *f = state;
    const plume_gl_object all[FRAGMENT_DRAW_GL_OBJECTS] = {
        {GL_PROGRAM, f->program}, {GL_SAMPLER, f->sprite_sampler}, {GL_SAMPLER, f->depth_sampler}};
    return plume_list_named_gl_objects(all, FRAGMENT_DRAW_GL_OBJECTS, out, capacity);
}

static void release(void *state, plume_context *context) {
    plume_gl_object owned[FRAGMENT_DRAW_GL_OBJECTS];
    plume_delete_gl_objects(plume_context_env(context), owned, list_gl_objects(state, owned, FRAGMENT_DRAW_GL_OBJECTS));
}

static const particle_attachment_class FRAGMENT_DRAW_ATTACHMENT = {"fragment-path draw", release, list_gl_objects};

static plume_result create(const particle_view *v, fragment_draw_state *f) {
    const plume_shader_stage stages[2] = {
        {GL_VERTEX_SHADER, "render/fragment_draw.vert"},
        {GL_FRAGMENT_SHADER, "render/particle_draw.frag"},
    };
    char look[LOOK_DEFINES_SIZE];
    particles_look_defines(particles_look_features(v->desc), look);
    plume_result r =
        plume_build_program_330(v->env, "plume particles (fragment path): draw", stages, 2, look, &f->program);
    if (r != PLUME_OK) return r;
    GLuint p = f->program;
    particle_find_uniforms(p, &f->uniforms);
    plume_find_uniform_locations(p, FRAGMENT_DRAW_UNIFORM_NAMES, f->at);
    GLint previous = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &previous);
    glUseProgram(p);
    glUniform1i(f->at[FRAGMENT_DRAW_LIST], 2);
    glUniform1i(f->at[FRAGMENT_POSITION_AGE], 3);
    glUniform1i(f->at[FRAGMENT_TRAITS], 4);
    glUniform1i(f->at[FRAGMENT_VELOCITY], 5);
    glUseProgram((GLuint)previous);
    draw_create_samplers(&f->sprite_sampler, &f->depth_sampler);
    return plume_drain_gl_errors(v->env, "plume_system_draw (fragment-path draw)");
}

/* The frame's wishes the fragment path cannot meet, said once each. */
static void warn_unmet(const particle_view *v, fragment_draw_state *f, const plume_frame_desc *frame) {
    if (frame->draw_resolution != PLUME_DRAW_FULL && !f->warned_draw_resolution) {
        plume_log(v->env, PLUME_LOG_WARNING,
                  "plume_system_draw: draw_resolution %u is the compute path's; the fragment path draws at full "
                  "resolution",
                  frame->draw_resolution);
        f->warned_draw_resolution = true;
    }
    if (frame->draw_path == PLUME_DRAW_PATH_TILED && !f->warned_draw_path) {
        plume_log(v->env, PLUME_LOG_WARNING,
                  "plume_system_draw: draw_path PLUME_DRAW_PATH_TILED needs compute shaders; the fragment path "
                  "draws with its raster draw");
        f->warned_draw_path = true;
    }
}

static plume_result fragment_draw(const particle_view *v, const draw_frame *frame, const draw_target *target,
                                  const draw_count *count, plume_gl_scope *scope) {
    (void)count; /* it draws the last update's list, counted on the CPU */
    fragment_draw_state *f = particle_view_attach(v, &FRAGMENT_DRAW_ATTACHMENT, sizeof *f);
    if (!f) return PLUME_ERROR_OUT_OF_MEMORY;
    warn_unmet(v, f, frame->desc);
    plume_gl_scope_save(scope, FRAGMENT_PARTICLES_SCOPE_GROUPS);
    plume_result r = PLUME_OK;
    if (!f->program && (r = create(v, f)) != PLUME_OK) {
        release(f, v->context);
        f->program = f->sprite_sampler = f->depth_sampler = 0;
        return r;
    }
    const particle_fragment_view *particles = &v->fragment;
    if (particles->list_count == 0) return PLUME_OK;
    glUseProgram(f->program);
    particle_set_appearance_uniforms(v, &f->uniforms);
    particle_set_view_uniforms(v, &f->uniforms, frame, target->depth_texture,
                               target->depth_size, f->depth_sampler);
    particle_set_light_uniforms(v, &f->uniforms);
    glUniform1ui(f->at[FRAGMENT_PARTICLE_WIDTH], particles->particle_width);
    draw_bind_sprite(v, f->sprite_sampler);
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_BUFFER, particles->list_texture);
    draw_bind_texture(3, particles->position_age, particles->sampler);
    draw_bind_texture(4, particles->traits, particles->sampler);
    draw_bind_texture(5, particles->velocity, particles->sampler);
    glBindVertexArray(particles->vertex_array);
    /* Indexed blending or not, as the GL has it (the scope saved the same). */
    draw_blend_particles_over_depth(v->env);
    glDrawArraysInstanced(GL_TRIANGLES, 0, 6, (GLsizei)particles->list_count);
    return PLUME_OK;
}

const draw_path fragment_raster_draw_path = {"fragment-path raster", fragment_draw};
