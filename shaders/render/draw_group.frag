// As particle_draw.frag, for a particle of any system of a group: its
// system's sprite is a layer of the group's texture array (none: a solid
// square), its soft fade distance and whether it is lit its system's.
// Premultiplied output, dst = c a + (1 - a (1 - k)) dst (plume_blend_mode).
#include "particles/particle_common.glsl"
#include "shared/scene_depth.glsl"
#include "render/particle_appearance.glsl" // lighting
#include "render/draw_group_systems.glsl"

in vec4 v_color;
in vec2 v_uv_frame;
in vec2 v_uv_next;
in float v_frame_mix;
in float v_view_depth;
in float v_additive;
in vec2 v_quad;
flat in vec3 v_light;
flat in vec3 v_emissive;
flat in uint v_system;

uniform sampler2DArray u_sprites;  // unit 0, premultiplied RGBA, a layer per textured system
uniform sampler2D u_scene_depth;   // unit 1, window depth 0..1
uniform bool u_soft_fade;           // the target has a depth texture: each system's soft fade applies
uniform vec2 u_viewport_size;
uniform mat4 u_inverse_projection;

out vec4 out_color;

void main() {
    int layer = group_system_layer(v_system);
    // Sampled whatever the layer, so that the level's derivatives stay
    // defined.
    float at = float(max(layer, 0));
    // At GL's level without its approximations, as every draw reads a
    // sprite (particle_appearance.glsl's texel_lod).
    vec2 layer_texels = vec2(textureSize(u_sprites, 0).xy);
    float lod = texel_lod(dFdx(v_uv_frame) * layer_texels, dFdy(v_uv_frame) * layer_texels);
    vec4 sampled =
        mix(textureLod(u_sprites, vec3(v_uv_frame, at), lod), textureLod(u_sprites, vec3(v_uv_next, at), lod), v_frame_mix);
    vec4 texel = layer >= 0 ? sampled : vec4(1.0);  // premultiplied
    float fade = 1.0, distance = u_soft_fade ? group_system_soft_fade(v_system) : 0.0;
    if (distance > 0.0) {
        vec2 uv = gl_FragCoord.xy / u_viewport_size;
        float scene_depth = scene_view_depth(u_inverse_projection, uv, texture(u_scene_depth, uv).r);
        fade = clamp((scene_depth - v_view_depth) / distance, 0.0, 1.0);
    }
    vec3 color = v_color.rgb;
    if (group_system_lit(v_system)) color *= sphere_lighting(v_quad, v_light);
    color += v_emissive;
    out_color = vec4(color * texel.rgb, texel.a) * (v_color.a * fade);
    out_color.a *= 1.0 - v_additive;
}
