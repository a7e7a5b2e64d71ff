// Mesh particles' pixels: the system's texture (premultiplied) at the mesh's
// texture coordinates times the particle's colour, lit as lit sprites are
// (normal_lighting, the side facing the eye lit: a thin leaf is lit from
// either side), plus the emitted light. Opaque and alpha-tested surfaces
// write colour with alpha 1 (no blend), lit on the side facing the eye;
// transparent ones premultiplied, as sprites, their faces turned away left
// out.
#include "render/particle_appearance.glsl" // lighting

// The instance pass's draw (PLUME_MESH_INSTANCES) gives each particle's
// colour once: not interpolated.
#ifdef PLUME_MESH_INSTANCES
flat in vec4 v_color;
#else
in vec4 v_color;
#endif
in vec3 v_normal;
in vec3 v_to_eye;
in vec2 v_uv;
flat in vec3 v_emissive;

uniform sampler2D u_sprite; // unit 0, premultiplied RGBA
uniform bool u_has_texture;
uniform bool u_lit;
// The surface compiled in (PLUME_MESH_SURFACE, the lab's default): an
// opaque surface then has no discard, so its depth is tested before its
// pixels are shaded, and a hidden pixel costs nothing. Else a uniform.
#ifdef PLUME_MESH_SURFACE
#define SURFACE uint(PLUME_MESH_SURFACE)
#if PLUME_MESH_SURFACE == 0
layout(early_fragment_tests) in;
#endif
#else
uniform uint u_surface;     // plume_mesh_surface
#define SURFACE u_surface
#endif
uniform float u_alpha_cutoff;

out vec4 out_color;

void main() {
    // Transparent meshes write no depth: their faces turned away from the eye
    // (by the mesh's normals) would show through; they are left out.
    if (SURFACE == 2u && dot(v_normal, v_to_eye) < 0.0) discard;
    vec4 texel = u_has_texture ? texture(u_sprite, v_uv) : vec4(1.0);
    float alpha = texel.a * v_color.a;
    if (SURFACE == 1u && alpha < u_alpha_cutoff) discard;
    vec3 color = v_color.rgb;
    if (u_lit) {
        vec3 n = normalize(v_normal);
        if (dot(n, v_to_eye) < 0.0) n = -n;
        color *= normal_lighting(n, u_light_direction);
    }
    color += v_emissive;
    if (SURFACE == 2u) {
        out_color = vec4(color * texel.rgb, texel.a) * v_color.a;
        return;
    }
    out_color = vec4(color * texel.rgb / max(texel.a, 1e-6), 1.0);
}
