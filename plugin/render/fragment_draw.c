/* The fragment path's draw: one instanced draw of camera-facing quads over
 * the last update's list (sorted back-to-front, read through a buffer
 * texture), each instance fetching its slot and its particle with texelFetch; the fragment shader,
 * curves, flipbook and soft fade are the compute path's
 * (particle_appearance.glsl, particle_quad.glsl, particle_draw.frag); so is the blend
 * (draw_blend_particles_over_depth: for draw buffer 0 where the GL has
 * indexed blending, else for all at once, GL 3.3; the scope restores it). */
#include "particles/fragment_particles.h"

plume_result fragment_draw_create(system_state *s) {
    fragment_particles *f = s->fragment;
    const plume_shader_stage stages[2] = {
        {GL_VERTEX_SHADER,
         {"particles/particle_common.glsl", "render/particle_appearance.glsl", "render/particle_quad.glsl",
          "render/fragment_draw.vert"}},
        {GL_FRAGMENT_SHADER, {"render/particle_draw.frag"}},
    };
    plume_result r =
        plume_build_program_330(&s->env, "plume particles (fragment path): draw", stages, 2, NULL, &f->draw_program);
    if (r != PLUME_OK) return r;
    GLuint p = f->draw_program;
    f->draw = (fragment_draw_locations){
        .view = glGetUniformLocation(p, "u_view"),
        .projection = glGetUniformLocation(p, "u_projection"),
        .inverse_projection = glGetUniformLocation(p, "u_inverse_projection"),
        .camera_right = glGetUniformLocation(p, "u_camera_right"),
        .camera_up = glGetUniformLocation(p, "u_camera_up"),
        .soft_fade_distance = glGetUniformLocation(p, "u_soft_fade_distance"),
        .viewport_size = glGetUniformLocation(p, "u_viewport_size"),
        .particle_width = glGetUniformLocation(p, "u_particle_width"),
    };
    glUseProgram(p);
    glUniform1i(glGetUniformLocation(p, "u_draw_list"), 2);
    glUniform1i(glGetUniformLocation(p, "u_position_age"), 3);
    glUniform1i(glGetUniformLocation(p, "u_traits"), 4);
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
    const fragment_draw_locations *at = &f->draw;
    glUseProgram(f->draw_program);
    glUniformMatrix4fv(at->view, 1, GL_FALSE, &view[0][0]);
    glUniformMatrix4fv(at->projection, 1, GL_FALSE, &projection[0][0]);
    /* The view matrix's first two rows: the camera's right and up in world space. */
    glUniform3f(at->camera_right, view[0][0], view[1][0], view[2][0]);
    glUniform3f(at->camera_up, view[0][1], view[1][1], view[2][1]);
    glUniform1ui(at->particle_width, f->width);
    float fade = 0.0f;
    if (scene_depth != 0) {
        mat4 inverse;
        glm_mat4_inv((vec4 *)projection, inverse);
        glUniformMatrix4fv(at->inverse_projection, 1, GL_FALSE, &inverse[0][0]);
        glUniform2f(at->viewport_size, target_size[0], target_size[1]);
        bind_unit(1, scene_depth, f->depth_sampler);
        fade = s->desc.appearance.soft_fade_distance;
    }
    glUniform1f(at->soft_fade_distance, fade);
    if (s->sprite_texture) bind_unit(0, s->sprite_texture, f->sprite_sampler);
    /* The sort's own texture over the list's buffer: no glTexBuffer a frame. */
    glActiveTexture(GL_TEXTURE2);
    glBindTexture(GL_TEXTURE_BUFFER,
                  feedback_sort_buffer_texture(plume_sorter_feedback_backend(s->context, s->sorter), f->list_buffer));
    bind_unit(3, f->textures[f->current][0], f->sampler);
    bind_unit(4, f->textures[f->current][2], f->sampler);
    glBindVertexArray(f->vertex_array);
    /* Indexed blending or not, as the GL has it (the scope saved the same). */
    draw_blend_particles_over_depth();
    glDrawArraysInstanced(GL_TRIANGLES, 0, 6, (GLsizei)f->list_count);
}

