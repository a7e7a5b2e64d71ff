// A mesh particle's impostor's pixels: the disc of its point shaded as a
// sphere seen from the eye (its normal from the point's coordinates in the
// sphere's frame), lit as mesh_draw.frag lights a mesh, with the particle's
// colour and the texture at its centre; an alpha-tested surface tests that.
#include "render/particle_appearance.glsl" // lighting

flat in vec4 v_color;
flat in vec3 v_emissive;
flat in vec3 v_toward, v_right, v_up;

uniform sampler2D u_sprite; // unit 0, premultiplied RGBA
uniform bool u_has_texture;
uniform bool u_lit;
uniform uint u_surface;     // plume_mesh_surface: opaque or alpha-tested here
uniform float u_alpha_cutoff;

out vec4 out_color;

void main() {
    vec2 d = vec2(gl_PointCoord.x, 1.0 - gl_PointCoord.y) * 2.0 - 1.0; // point coordinates run down
    float r2 = dot(d, d);
    if (r2 > 1.0) discard;
    vec4 texel = u_has_texture ? texture(u_sprite, vec2(0.5)) : vec4(1.0);
    if (u_surface == 1u && texel.a * v_color.a < u_alpha_cutoff) discard;
    vec3 color = v_color.rgb;
    if (u_lit) color *= normal_lighting(d.x * v_right + d.y * v_up + sqrt(1.0 - r2) * v_toward, u_light_direction);
    out_color = vec4((color + v_emissive) * texel.rgb / max(texel.a, 1e-6), 1.0);
}
