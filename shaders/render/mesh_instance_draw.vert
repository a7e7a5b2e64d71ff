// Mesh particles (render/mesh_draw.c) from the instance pass's records
// (mesh_instances.comp): instance i of this mesh's draw is record i (or,
// several opaque meshes, the record its mesh's list names there); a vertex
// is two matrix rows' worth of dot products and the camera's matrices. The
// same picture as mesh_draw.vert, whose per-vertex work it computed once
// per particle.
#include "particles/particle_common.glsl"

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_texcoord;

layout(std430, binding = PLUME_BINDING_MESH_INSTANCES) restrict readonly buffer Instances { vec4 instances[]; };
layout(std430, binding = PLUME_BINDING_MESH_LISTS) restrict readonly buffer MeshLists { uint mesh_lists[]; };
uniform bool u_compacted;
uniform uint u_list_first;

uniform mat4 u_view;
uniform mat4 u_projection;
uniform vec3 u_eye;            // the camera's place, world space
uniform uint u_mesh;           // the mesh this draw draws
uniform uint u_mesh_count;
uniform bool u_has_normals;    // else +z
uniform bool u_has_texcoords;  // else (0.5, 0.5)

flat out vec4 v_color;
out vec3 v_normal;   // world space, not normalised
out vec3 v_to_eye;   // world space
out vec2 v_uv;
flat out vec3 v_emissive;

void main() {
    uint record = u_compacted ? mesh_lists[u_list_first + uint(gl_InstanceID)] : uint(gl_InstanceID);
    uint at = record * PLUME_MESH_INSTANCE_VEC4S;
    if (!u_compacted && u_mesh_count > 1u && floatBitsToUint(instances[at + 7u].x) != u_mesh) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        return;
    }
    vec4 position = vec4(a_position, 1.0);
    vec3 world = vec3(dot(instances[at], position), dot(instances[at + 1u], position), dot(instances[at + 2u], position));
    vec3 normal = u_has_normals ? a_normal : vec3(0.0, 0.0, 1.0);
    vec4 n0 = instances[at + 3u], n1 = instances[at + 4u], n2 = instances[at + 5u];
    v_normal = vec3(dot(n0.xyz, normal), dot(n1.xyz, normal), dot(n2.xyz, normal));
    v_emissive = vec3(n0.w, n1.w, n2.w);
    v_color = instances[at + 6u];
    v_to_eye = u_eye - world;
    v_uv = u_has_texcoords ? a_texcoord : vec2(0.5);
    gl_Position = u_projection * (u_view * vec4(world, 1.0));
}
