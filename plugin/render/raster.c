/* The raster draw path: one instanced draw of quads (oriented as the
 * system's look says), pulled from the sorted live list in back-to-front
 * order and blended with premultiplied alpha (and an additive part); sprite
 * or flipbook, colour, size and opacity over life, light, soft fade against
 * the host's depth. The program is built with the look's features
 * (particles_look_defines): the default look's does no more than before. */
#include <string.h>

#include "particles/particles_internal.h"

plume_result raster_create(system_state *s) {
    raster_renderer *r = &s->raster;
    plume_shader_stage stages[2] = {
        {GL_VERTEX_SHADER, "render/particle_draw.vert"},
        {GL_FRAGMENT_SHADER, "render/particle_draw.frag"},
    };
    char look[LOOK_DEFINES_SIZE];
    particles_look_defines(particles_look_features(&s->desc), look);
    plume_result result = plume_build_program(&s->env, "plume particles: draw", stages, 2, look, &r->program);
    if (result != PLUME_OK) return result;
    r->locations = raster_find_locations(r->program);
    glGenVertexArrays(1, &r->vertex_array);
    raster_create_samplers(&r->sprite_sampler, &r->depth_sampler);
    return plume_drain_gl_errors(&s->env, "plume_system_create (draw objects)");
}

raster_locations raster_find_locations(GLuint p) {
    return (raster_locations){
        .view = glGetUniformLocation(p, "u_view"),
        .projection = glGetUniformLocation(p, "u_projection"),
        .inverse_projection = glGetUniformLocation(p, "u_inverse_projection"),
        .camera_right = glGetUniformLocation(p, "u_camera_right"),
        .camera_up = glGetUniformLocation(p, "u_camera_up"),
        .soft_fade_distance = glGetUniformLocation(p, "u_soft_fade_distance"),
        .viewport_size = glGetUniformLocation(p, "u_viewport_size"),
    };
}

void raster_create_samplers(GLuint *sprite_sampler, GLuint *depth_sampler) {
    glGenSamplers(1, sprite_sampler);
    glSamplerParameteri(*sprite_sampler, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glSamplerParameteri(*sprite_sampler, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glSamplerParameteri(*sprite_sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(*sprite_sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glGenSamplers(1, depth_sampler);
    glSamplerParameteri(*depth_sampler, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glSamplerParameteri(*depth_sampler, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glSamplerParameteri(*depth_sampler, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(*depth_sampler, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glSamplerParameteri(*depth_sampler, GL_TEXTURE_COMPARE_MODE, GL_NONE);
}

enum { RASTER_GL_OBJECTS = 4 };

uint32_t raster_list_gl_objects(const raster_renderer *r, plume_gl_object *out, uint32_t capacity) {
    const plume_gl_object all[RASTER_GL_OBJECTS] = {
        {GL_PROGRAM, r->program},
        {GL_VERTEX_ARRAY, r->vertex_array},
        {GL_SAMPLER, r->sprite_sampler},
        {GL_SAMPLER, r->depth_sampler},
    };
    return plume_list_named_gl_objects(all, RASTER_GL_OBJECTS, out, capacity);
}

GLuint raster_depth_sampler(const raster_renderer *r) { return r->depth_sampler; }

void raster_release(raster_renderer *r) {
    plume_gl_object owned[RASTER_GL_OBJECTS];
    plume_delete_gl_objects(owned, raster_list_gl_objects(r, owned, RASTER_GL_OBJECTS));
    *r = (raster_renderer){0};
}

/* The appearance never changes after creation: its uniforms are set once
 * (through glUseProgram and glUniform, which every GL the draw paths run on
 * has; the caller's scope restores the program). */
static void set_curve_uniforms(GLuint program, const char *times_name, const char *values_name,
                               const char *count_name, const plume_curve *curve) {
    float times[PLUME_MAX_CURVE_KEYS] = {0}, values[PLUME_MAX_CURVE_KEYS] = {0};
    for (uint32_t k = 0; k < curve->key_count; ++k) {
        times[k] = curve->keys[k].time;
        values[k] = curve->keys[k].value;
    }
    glUniform1fv(glGetUniformLocation(program, times_name), PLUME_MAX_CURVE_KEYS, times);
    glUniform1fv(glGetUniformLocation(program, values_name), PLUME_MAX_CURVE_KEYS, values);
    glUniform1i(glGetUniformLocation(program, count_name), (GLint)curve->key_count);
}

/* glUniform on the program made current for it (GL 3.3 has no
 * glProgramUniform), the caller's program current again after. */
void raster_set_appearance_uniforms(const system_state *s, GLuint p) {
    const plume_appearance *a = &s->desc.appearance;
    GLint previous = 0;
    glGetIntegerv(GL_CURRENT_PROGRAM, &previous);
    glUseProgram(p);
    set_curve_uniforms(p, "u_size_times", "u_size_values", "u_size_count", &a->size_over_life);
    set_curve_uniforms(p, "u_opacity_times", "u_opacity_values", "u_opacity_count", &a->opacity_over_life);
    plume_curve additive = particles_additive_curve(&s->desc);
    set_curve_uniforms(p, "u_additive_times", "u_additive_values", "u_additive_count", &additive);
    float times[PLUME_MAX_CURVE_KEYS] = {0}, colors[PLUME_MAX_CURVE_KEYS][4] = {{0}};
    for (uint32_t k = 0; k < a->color_over_life.key_count; ++k) {
        times[k] = a->color_over_life.keys[k].time;
        memcpy(colors[k], a->color_over_life.keys[k].rgba, sizeof colors[k]);
    }
    glUniform1fv(glGetUniformLocation(p, "u_color_times"), PLUME_MAX_CURVE_KEYS, times);
    glUniform4fv(glGetUniformLocation(p, "u_color_values"), PLUME_MAX_CURVE_KEYS, &colors[0][0]);
    glUniform1i(glGetUniformLocation(p, "u_color_count"), (GLint)a->color_over_life.key_count);
    float emissive_times[PLUME_MAX_CURVE_KEYS] = {0}, emissive[PLUME_MAX_CURVE_KEYS][4] = {{0}};
    for (uint32_t k = 0; k < s->desc.emissive_over_life.key_count; ++k) {
        emissive_times[k] = s->desc.emissive_over_life.keys[k].time;
        memcpy(emissive[k], s->desc.emissive_over_life.keys[k].rgba, sizeof emissive[k]);
    }
    glUniform1fv(glGetUniformLocation(p, "u_emissive_times"), PLUME_MAX_CURVE_KEYS, emissive_times);
    glUniform4fv(glGetUniformLocation(p, "u_emissive_values"), PLUME_MAX_CURVE_KEYS, &emissive[0][0]);
    glUniform1i(glGetUniformLocation(p, "u_emissive_count"), (GLint)s->desc.emissive_over_life.key_count);
    glUniform1i(glGetUniformLocation(p, "u_lit"), s->desc.lit);
    glUniform1ui(glGetUniformLocation(p, "u_orientation"), s->desc.orientation);
    glUniform3fv(glGetUniformLocation(p, "u_orientation_axis"), 1, s->desc.orientation_axis);
    glUniform3f(glGetUniformLocation(p, "u_stretch"), s->desc.stretch_factor, s->desc.stretch_limits.min,
                s->desc.stretch_limits.max);
    glUniform2ui(glGetUniformLocation(p, "u_flipbook"), a->texture.columns, a->texture.rows);
    glUniform1i(glGetUniformLocation(p, "u_frame_blend"), !a->texture.disable_frame_blend);
    glUniform1i(glGetUniformLocation(p, "u_has_texture"), s->sprite_texture != 0);
    glUniform1i(glGetUniformLocation(p, "u_sprite"), 0);
    glUniform1i(glGetUniformLocation(p, "u_scene_depth"), 1);
    glUseProgram((GLuint)previous);
}

void raster_set_appearance(system_state *s) { raster_set_appearance_uniforms(s, s->raster.program); }

void raster_set_light_uniforms(const system_state *s, GLuint p) {
    const frame_light *l = &s->light;
    glUniform3fv(glGetUniformLocation(p, "u_light_direction"), 1, l->direction);
    glUniform3fv(glGetUniformLocation(p, "u_light_color"), 1, l->color);
    glUniform3fv(glGetUniformLocation(p, "u_ambient_color"), 1, l->ambient);
}

void raster_set_view_uniforms(const system_state *s, const raster_locations *at, const mat4 view,
                              const mat4 projection, GLuint scene_depth, const float target_size[2],
                              GLuint depth_sampler) {
    glUniformMatrix4fv(at->view, 1, GL_FALSE, &view[0][0]);
    glUniformMatrix4fv(at->projection, 1, GL_FALSE, &projection[0][0]);
    /* The quad spans the view plane: the view matrix's first two rows are the
     * camera's right and up axes in world space. */
    glUniform3f(at->camera_right, view[0][0], view[1][0], view[2][0]);
    glUniform3f(at->camera_up, view[0][1], view[1][1], view[2][1]);
    float fade = 0.0f;
    if (scene_depth != 0) {
        mat4 inverse;
        glm_mat4_inv((vec4 *)projection, inverse);
        glUniformMatrix4fv(at->inverse_projection, 1, GL_FALSE, &inverse[0][0]);
        glUniform2f(at->viewport_size, target_size[0], target_size[1]);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D, scene_depth);
        glBindSampler(1, depth_sampler);
        fade = s->desc.appearance.soft_fade_distance;
    }
    glUniform1f(at->soft_fade_distance, fade);
}

void raster_draw(system_state *s, const mat4 view, const mat4 projection, GLuint scene_depth,
                 const float target_size[2], GLuint indirect_buffer, GLintptr indirect_offset) {
    const raster_renderer *r = &s->raster;
    glUseProgram(r->program);
    raster_set_view_uniforms(s, &r->locations, view, projection, scene_depth, target_size, r->depth_sampler);
    raster_set_light_uniforms(s, r->program);
    if (s->sprite_texture) {
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, s->sprite_texture);
        glBindSampler(0, r->sprite_sampler);
    }
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_MOTION, s->motion_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_TRAITS, s->traits_buffer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, PLUME_BINDING_DRAW_LIST, s->live_list_buffer);
    glBindVertexArray(r->vertex_array);
    glBindBuffer(GL_DRAW_INDIRECT_BUFFER, indirect_buffer);
    draw_blend_particles_over_depth();
    glDrawArraysIndirect(GL_TRIANGLES, (const void *)(uintptr_t)indirect_offset);
}
