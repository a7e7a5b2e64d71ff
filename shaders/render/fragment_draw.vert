// The fragment path's draw: instance i draws the particle whose slot is pair
// i of the sorted list (a buffer texture; on OpenGL ES, which has none, an
// RG32UI texture as wide as the particle textures), its data from the particle
// textures; a pair keyed PLUME_GPU_KEY_LAST (a free or culled slot, sorted
// to the end) draws nothing.
#include "particles/particle_common.glsl"
#include "render/particle_appearance.glsl"
#include "render/particle_quad.glsl"

#ifdef PLUME_GLSL_ES
uniform usampler2D u_draw_list;     // unit 2: {key, slot}, pair i at texel (i % width, i / width)
#else
uniform usamplerBuffer u_draw_list; // unit 2: {key, slot}
#endif
uniform sampler2D u_position_age;   // unit 3
uniform sampler2D u_traits;         // unit 4: size, rotation at birth, spin, lifetime
uniform sampler2D u_velocity;       // unit 5: velocity (the oriented looks use it)
uniform uint u_particle_width;

void main() {
    uint i = uint(gl_InstanceID);
#ifdef PLUME_GLSL_ES
    uvec2 pair = texelFetch(u_draw_list, ivec2(int(i % u_particle_width), int(i / u_particle_width)), 0).rg;
#else
    uvec2 pair = texelFetch(u_draw_list, int(i)).rg;
#endif
    if (pair.x == PLUME_GPU_KEY_LAST) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0); /* outside the clip volume: no fragment */
        v_color = vec4(0.0);
        v_uv_frame = v_uv_next = vec2(0.0);
        v_frames = uvec2(0u);
        v_frame_mix = 0.0;
        v_view_depth = 0.0;
#ifdef PLUME_LOOK_ADDITIVE
        v_additive = 0.0;
#endif
#ifdef PLUME_LOOK_LIT
        v_quad = vec2(0.0);
        v_light = vec3(0.0);
#endif
#ifdef PLUME_LOOK_EMISSIVE
        v_emissive = vec3(0.0);
#endif
        return;
    }
    ivec2 at = ivec2(int(pair.y % u_particle_width), int(pair.y / u_particle_width));
    vec4 position_age = texelFetch(u_position_age, at, 0), traits = texelFetch(u_traits, at, 0);
    vec3 velocity = vec3(0.0);
#ifdef PLUME_LOOK_ORIENTED
    velocity = texelFetch(u_velocity, at, 0).xyz;
#endif
    ParticleMotion p = ParticleMotion(position_age.xyz, position_age.w, velocity, traits.w);
    ParticleTraits t = ParticleTraits(traits.x, traits.y, traits.z, 0u, 0u, NO_COLOR_MULTIPLIER,
                                      NO_COLOR_MULTIPLIER, 0u);
    emit_quad_vertex(p, t, gl_VertexID);
}
