/* The fragment path's draw: one instanced draw of quads over the last
 * update's list (in the system's sort order, read through a buffer
 * texture), each instance fetching its slot and its particle with
 * texelFetch; the look (orientation, light, blend mode's additive part,
 * emitted light), the fragment shader, curves, flipbook and soft fade are
 * the compute path's raster draw's (particle_appearance.glsl,
 * particle_quad.glsl, particle_draw.frag, built with the same look defines,
 * their uniforms set by the same calls); so is the blend
 * (draw_blend_particles_over_depth: for draw buffer 0 where the GL has
 * indexed blending, else for all at once, GL 3.3; the scope restores it). */
#include "particles/fragment_particles.h"

plume_result fragment_draw_create(system_state *s) {
    fragment_particles *f = s->fragment;
    const plume_shader_stage stages[2] = {
        {GL_VERTEX_SHADER, "render/fragment_draw.vert"},
        {GL_FRAGMENT_SHADER, "render/particle_draw.frag"},
    };
    char look[LOOK_DEFINES_SIZE];
    particles_look_defines(particles_look_features(&s->desc), look);
    plume_result r =
        plume_build_program_330(&s->env, "plume particles (fragment path): draw", stages, 2, look, &f->draw_program);
    if (r != PLUME_OK) return r;
    GLuint p = f->draw_program;
    f->draw = (fragment_draw_locations){
        .view = raster_find_locations(p),
        .particle_width = glGetUniformLocation(p, "u_particle_width"),
    };
    glUseProgram(p);
    glUniform1i(glGetUniformLocation(p, "u_draw_list"), 2);
    glUniform1i(glGetUniformLocation(p, "u_position_age"), 3);
    glUniform1i(glGetUniformLocation(p, "u_traits"), 4);
    glUniform1i(glGetUniformLocation(p, "u_velocity"), 5);
    glGenVertexArrays(1, &f->vertex_array);
    glBindVertexArray(f->vertex_array);
    raster_create_samplers(&f->sprite_sampler, &f->depth_sampler);
    return plume_drain_gl_errors(&s->env, "plume_system_create (fragment-path draw)");
}

static void bind_unit(GLuint unit, GLuint texture, GLuint sampler) {
    glActiveTexture(GL_TEXTURE0 + unit);
    glBindTexture(GL_TEXTURE_2D, texture);
    glBindSampler(unit, sampler);
}

void fragment_particles_draw(system_state *s, const mat4 view, const mat4 projection, GLuint scene_depth,
                             const float target_size[2]) {
    fragment_particles *f = s->fragment;
    if (f->list_count == 0) return;
    glUseProgram(f->draw_program);
    raster_set_view_uniforms(s, &f->draw.view, view, projection, scene_depth, target_size, f->depth_sampler);
    raster_set_light_uniforms(s, f->draw_program);
    glUniform1ui(f->draw.particle_width, f->width);
    if (s->sprite_texture) bind_unit(0, s->sprite_texture, f->sprite_sampler);
    /* The sort's own texture over the list's buffer: no glTexBuffer a frame. */
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_BUFFER,
                  sort_key_input_pairs_texture(sort_key_input_of(s->context, s->sorter), f->list_buffer));
    bind_unit(3, f->textures[f->current][0], f->sampler);
    bind_unit(4, f->textures[f->current][2], f->sampler);
    bind_unit(5, f->textures[f->current][1], f->sampler);
    glBindVertexArray(f->vertex_array);
    /* Indexed blending or not, as the GL has it (the scope saved the same). */
    draw_blend_particles_over_depth();
    glDrawArraysInstanced(GL_TRIANGLES, 0, 6, (GLsizei)f->list_count);
}

