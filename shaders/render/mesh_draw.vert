// Mesh particles (render/mesh_draw.c): instance i draws the particle in slot
// list[i].y (the sorted live list) as the mesh this draw is of, turned by
// its orientation (particle_spin.glsl) and scaled by its size over life
// times the mesh scale over life; an instance of another mesh is put
// outside the clip volume (it draws nothing).
#include "particles/particle_common.glsl"
#include "render/particle_appearance.glsl"
#include "particles/particle_spin.glsl"

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_texcoord;

layout(std430, binding = PLUME_BINDING_MOTION) restrict readonly buffer ParticleMotions { ParticleMotion motions[]; };
layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer DrawList { uvec2 draw_list[]; };
layout(std430, binding = PLUME_BINDING_TRAITS) restrict readonly buffer ParticleTraitsArray { ParticleTraits traits[]; };
// Several opaque meshes: this mesh's own slots (mesh_compact.comp) from u_list_first.
layout(std430, binding = PLUME_BINDING_MESH_LISTS) restrict readonly buffer MeshLists { uint mesh_lists[]; };
uniform bool u_compacted;
uniform uint u_list_first;

uniform mat4 u_view;
uniform mat4 u_projection;
uniform uint u_mesh;           // the mesh this draw draws
uniform bool u_has_normals;    // else +z
uniform bool u_has_texcoords;  // else (0.5, 0.5)
uniform vec3 u_scale_start;
uniform vec3 u_scale_end;

out vec4 v_color;
out vec3 v_normal;   // world space, not normalised
out vec3 v_to_eye;   // world space
out vec2 v_uv;
flat out vec3 v_emissive;

void main() {
    uint slot = u_compacted ? mesh_lists[u_list_first + uint(gl_InstanceID)] : draw_list[gl_InstanceID].y;
    // Local copies: NVIDIA refuses a restrict readonly buffer's element as a
    // function argument (error C1317).
    ParticleMotion motion = motions[slot];
    ParticleTraits particle_traits = traits[slot];
    ParticleSpin spin = spins[slot];
    if (!u_compacted && u_mesh_count > 1u && mesh_of(particle_traits, motion.lifetime) != u_mesh) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        return;
    }
    Appearance a = particle_appearance(motion, particle_traits);
    float life = clamp(motion.age / motion.lifetime, 0.0, 1.0);
    vec3 scale = a.size * mix(u_scale_start, u_scale_end, life);
    vec3 world = motion.position + rotate_by(spin.orientation, a_position * scale);
    // A normal goes by the inverse scale (non-uniform scale keeps it normal).
    vec3 normal = u_has_normals ? a_normal : vec3(0.0, 0.0, 1.0);
    v_normal = rotate_by(spin.orientation, normal / max(scale, vec3(1e-20)));
    vec3 eye = -transpose(mat3(u_view)) * u_view[3].xyz;
    v_to_eye = eye - world;
    v_uv = u_has_texcoords ? a_texcoord : vec2(0.5);
    v_color = a.color;
    v_emissive = a.emissive;
    gl_Position = u_projection * (u_view * vec4(world, 1.0));
}
