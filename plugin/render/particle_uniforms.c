/* The uniforms every particle-drawing program shares (particle_uniforms.h). */
#include <string.h>

#include "render/particle_uniforms.h"

static const char *const PARTICLE_UNIFORM_NAMES[PARTICLE_UNIFORMS + 1] = {
    "u_size_times",     "u_size_values",     "u_size_count",    "u_opacity_times",      "u_opacity_values",
    "u_opacity_count",  "u_additive_times",  "u_additive_values", "u_additive_count",   "u_color_times",
    "u_color_values",   "u_color_count",     "u_emissive_times", "u_emissive_values",   "u_emissive_count",
    "u_lit",            "u_orientation",     "u_orientation_axis", "u_stretch",         "u_flipbook",
    "u_frame_blend",    "u_has_texture",     "u_sprite",        "u_scene_depth",        "u_sprite_is_array",
    "u_sprite_array",   "u_flipbook_motion", "u_has_motion",    "u_motion_strength",    "u_light_direction",
    "u_light_color",    "u_ambient_color",   "u_view",          "u_projection",         "u_inverse_projection",
    "u_camera_right",   "u_camera_up",       "u_soft_fade_distance", "u_viewport_size", "u_depth_convention",
    "u_self_shadow",    "u_shadow_map_size", "u_shadow_slices",   "u_flipbook_cell",  "u_sprite_cover_levels",
    "u_sprite_cover_reach", NULL};

void particle_find_uniforms(GLuint program, particle_uniforms *out) {
    plume_find_uniform_locations(program, PARTICLE_UNIFORM_NAMES, out->at);
}

void particle_set_curve_uniforms(const GLint *at, int times_at, const plume_curve *curve) {
    float times[PLUME_MAX_CURVE_KEYS] = {0}, values[PLUME_MAX_CURVE_KEYS] = {0};
    for (uint32_t k = 0; k < curve->key_count; ++k) {
        times[k] = curve->keys[k].time;
        values[k] = curve->keys[k].value;
    }
    glUniform1fv(at[times_at], PLUME_MAX_CURVE_KEYS, times);
    glUniform1fv(at[times_at + 1], PLUME_MAX_CURVE_KEYS, values);
    glUniform1i(at[times_at + 2], (GLint)curve->key_count);
}

void particle_set_gradient_uniforms(const GLint *at, int times_at, const plume_gradient *curve) {
    float times[PLUME_MAX_CURVE_KEYS] = {0}, colors[PLUME_MAX_CURVE_KEYS][4] = {{0}};
    for (uint32_t k = 0; k < curve->key_count; ++k) {
        times[k] = curve->keys[k].time;
        memcpy(colors[k], curve->keys[k].rgba, sizeof colors[k]);
    }
    glUniform1fv(at[times_at], PLUME_MAX_CURVE_KEYS, times);
    glUniform4fv(at[times_at + 1], PLUME_MAX_CURVE_KEYS, &colors[0][0]);
    glUniform1i(at[times_at + 2], (GLint)curve->key_count);
}

/* glUniform on the program made current for it (GL 3.3 cannot set a
 * program's uniforms unbound), the caller's program current again after. */
void particle_set_appearance_uniforms(const particle_view *view, const particle_uniforms *u) {
    const plume_system_desc *d = view->desc;
    const plume_appearance *a = &d->appearance;
    const GLint *at = u->at;
    particle_set_curve_uniforms(at, PU_SIZE_TIMES, &a->size_over_life);
    particle_set_curve_uniforms(at, PU_OPACITY_TIMES, &a->opacity_over_life);
    plume_curve additive = particles_additive_curve(d);
    particle_set_curve_uniforms(at, PU_ADDITIVE_TIMES, &additive);
    particle_set_gradient_uniforms(at, PU_COLOR_TIMES, &a->color_over_life);
    particle_set_gradient_uniforms(at, PU_EMISSIVE_TIMES, &d->emissive_over_life);
    glUniform1i(at[PU_LIT], d->lit);
    glUniform1ui(at[PU_ORIENTATION], d->orientation);
    glUniform3fv(at[PU_ORIENTATION_AXIS], 1, d->orientation_axis);
    glUniform3f(at[PU_STRETCH], d->stretch_factor, d->stretch_limits.min, d->stretch_limits.max);
    particle_set_frame_uniforms(view, u);
    glUniform1i(at[PU_FRAME_BLEND], !a->texture.disable_frame_blend);
    glUniform1i(at[PU_HAS_TEXTURE], view->sprite_texture != 0);
    glUniform1i(at[PU_SPRITE], 0);
    glUniform1i(at[PU_SCENE_DEPTH], 1);
    glUniform1i(at[PU_SPRITE_ARRAY], PLUME_TEXTURE_UNIT_SPRITE_ARRAY);
    glUniform1i(at[PU_FLIPBOOK_MOTION], PLUME_TEXTURE_UNIT_FLIPBOOK_MOTION);
    glUniform1i(at[PU_HAS_MOTION], view->motion_texture != 0);
    glUniform1f(at[PU_MOTION_STRENGTH], d->flipbook_motion.strength);
}

void particle_set_frame_uniforms(const particle_view *view, const particle_uniforms *u) {
    const plume_system_desc *d = view->desc;
    const plume_texture_desc *texture = &d->appearance.texture;
    const GLint *at = u->at;
    glUniform2ui(at[PU_FLIPBOOK], texture->columns, texture->rows);
    glUniform2f(at[PU_FLIPBOOK_CELL], 1.0f / (float)texture->columns, 1.0f / (float)texture->rows);
    glUniform1i(at[PU_SPRITE_IS_ARRAY], view->sprite_is_array);
    /* Where the frames can show: the table's levels (0: none), a frame's
     * texels across and down (an array's frame is a whole layer), and the
     * farthest the motion slides a read. */
    glUniform1ui(at[PU_SPRITE_COVER_LEVELS], view->sprite_cover.levels);
    uint32_t across = view->sprite_is_array ? 1 : texture->columns, down = view->sprite_is_array ? 1 : texture->rows;
    glUniform3f(at[PU_SPRITE_COVER_REACH], (float)texture->width / (float)across, (float)texture->height / (float)down,
                view->sprite_cover.motion_reach * d->flipbook_motion.strength);
}

void particle_set_light_uniforms(const particle_view *view, const particle_uniforms *u) {
    const frame_light *l = &view->light;
    glUniform3fv(u->at[PU_LIGHT_DIRECTION], 1, l->direction);
    glUniform3fv(u->at[PU_LIGHT_COLOR], 1, l->color);
    glUniform3fv(u->at[PU_AMBIENT_COLOR], 1, l->ambient);
    /* A draw group's view has no descriptor: its systems draw unshadowed. */
    static const plume_self_shadow_desc none = {0};
    const plume_self_shadow_desc *shadow = view->desc ? &view->desc->self_shadow : &none;
    glUniform1i(u->at[PU_SELF_SHADOW], shadow->strength > 0.0f);
    glUniform1ui(u->at[PU_SHADOW_MAP_SIZE], shadow->map_size);
    glUniform1ui(u->at[PU_SHADOW_SLICES], shadow->slices);
}

void particle_set_view_uniforms(const particle_view *v, const particle_uniforms *u, const draw_frame *frame,
                                GLuint scene_depth, const float target_size[2], GLuint depth_sampler) {
    const GLint *at = u->at;
    const vec4 *view = frame->view, *projection = frame->projection;
    glUniformMatrix4fv(at[PU_VIEW], 1, GL_FALSE, &view[0][0]);
    glUniformMatrix4fv(at[PU_PROJECTION], 1, GL_FALSE, &projection[0][0]);
    /* The quad spans the view plane: the view matrix's first two rows are the
     * camera's right and up axes in world space. */
    glUniform3f(at[PU_CAMERA_RIGHT], view[0][0], view[1][0], view[2][0]);
    glUniform3f(at[PU_CAMERA_UP], view[0][1], view[1][1], view[2][1]);
    float fade = 0.0f;
    if (scene_depth != 0) {
        mat4 inverse;
        glm_mat4_inv((vec4 *)projection, inverse);
        glUniformMatrix4fv(at[PU_INVERSE_PROJECTION], 1, GL_FALSE, &inverse[0][0]);
        glUniform2f(at[PU_VIEWPORT_SIZE], target_size[0], target_size[1]);
        glUniform1ui(at[PU_DEPTH_CONVENTION], frame->depth_convention);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D, scene_depth);
        glBindSampler(1, depth_sampler);
        fade = v->desc->appearance.soft_fade_distance;
    }
    glUniform1f(at[PU_SOFT_FADE_DISTANCE], fade);
}
