// The look's defines say which of particle_appearance.glsl's terms (lighting)
// this program has.
// Premultiplied-alpha output (blend: ONE, ONE_MINUS_SRC_ALPHA): sprite (or a
// solid square) cross-faded between flipbook frames, tinted by the particle's
// colour (lit by the frame's light for a lit system, plus the emitted
// light), faded where it meets the host's scene depth. The blend mode's
// additive part k lowers only the alpha that covers what is behind:
// dst = c a + (1 - a (1 - k)) dst (plume_blend_mode).
#include "particles/particle_common.glsl"
#include "shared/scene_depth.glsl"
#include "render/particle_appearance.glsl" // lighting

in vec4 v_color;
in vec2 v_uv_frame;
in vec2 v_uv_next;
flat in uvec2 v_frames;
in float v_frame_mix;
in float v_view_depth;
#ifdef PLUME_LOOK_ADDITIVE
in float v_additive;
#endif
#ifdef PLUME_LOOK_LIT
in vec2 v_quad;
flat in vec3 v_light;
#endif
#ifdef PLUME_LOOK_EMISSIVE
flat in vec3 v_emissive;
#endif

uniform sampler2D u_sprite;        // unit 0, premultiplied RGBA
uniform sampler2DArray u_sprite_array; // unit PLUME_TEXTURE_UNIT_SPRITE_ARRAY: a host array (u_sprite_is_array)
uniform sampler2D u_scene_depth;   // unit 1, window depth 0..1
uniform bool u_has_texture;
uniform bool u_lit;                 // the system is lit (a PLUME_LOOK_LIT program may draw an unlit one)
uniform float u_soft_fade_distance; // 0: no fade
uniform vec2 u_viewport_size;
uniform mat4 u_inverse_projection;

out vec4 out_color;

void main() {
    vec4 texel = vec4(1.0);  // premultiplied: rgb already scaled by its alpha
    if (u_has_texture && u_sprite_is_array) {
        // Every draw reads a sprite at GL's level without its
        // approximations (texel_lod), as the tiled composite does.
        vec2 layer = vec2(textureSize(u_sprite_array, 0).xy);
        float lod = texel_lod(dFdx(v_uv_frame) * layer, dFdy(v_uv_frame) * layer);
        texel = mix(textureLod(u_sprite_array, vec3(v_uv_frame, float(v_frames.x)), lod),
                    textureLod(u_sprite_array, vec3(v_uv_next, float(v_frames.y)), lod), v_frame_mix);
    } else if (u_has_texture) {
        vec2 atlas = vec2(textureSize(u_sprite, 0));
        float lod = texel_lod(dFdx(v_uv_frame) * atlas, dFdy(v_uv_frame) * atlas);
        vec2 uv_frame = v_uv_frame, uv_next = v_uv_next;
        if (u_has_motion) {
            // frame_uv is affine: the quad's own coordinates back from this frame's.
            uvec2 cell = flipbook_cell(v_frames.x, u_flipbook.x, u_flipbook_cell.x);
            uvec2 next_cell = flipbook_cell(v_frames.y, u_flipbook.x, u_flipbook_cell.x);
            vec2 corner_uv = v_uv_frame * vec2(u_flipbook) - vec2(cell);
            vec2 motion = flipbook_motion(cell, corner_uv, lod);
            slid_frame_uvs(cell, next_cell, v_frame_mix, corner_uv, motion, uv_frame, uv_next);
        }
        texel = mix(textureLod(u_sprite, uv_frame, lod), textureLod(u_sprite, uv_next, lod), v_frame_mix);
    }
    float fade = 1.0;
    if (u_soft_fade_distance > 0.0) {
        vec2 uv = gl_FragCoord.xy / u_viewport_size;
        float scene_depth = scene_view_depth(u_inverse_projection, uv, texture(u_scene_depth, uv).r);
        fade = clamp((scene_depth - v_view_depth) / u_soft_fade_distance, 0.0, 1.0);
    }
    vec3 color = v_color.rgb;
#ifdef PLUME_LOOK_LIT
    if (u_lit) color *= sphere_lighting(v_quad, v_light);
#endif
#ifdef PLUME_LOOK_EMISSIVE
    color += v_emissive;
#endif
    out_color = vec4(color * texel.rgb, texel.a) * (v_color.a * fade);
#ifdef PLUME_LOOK_ADDITIVE
    out_color.a *= 1.0 - v_additive;
#endif
}
