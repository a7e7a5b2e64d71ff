// Mesh particles' impostors (render/mesh_draw.c, plume_mesh_lod): a particle
// whose sphere is a few pixels across drawn as one point that many pixels
// wide at its centre, from the instance pass's record (mesh_instances.comp)
// that the impostors' list names at this vertex, with the frame its
// pixels shade the sphere in.
#include "particles/particle_common.glsl"

layout(std430, binding = PLUME_BINDING_MESH_INSTANCES) restrict readonly buffer Instances { vec4 instances[]; };
layout(std430, binding = PLUME_BINDING_MESH_LISTS) restrict readonly buffer MeshLists { uint mesh_lists[]; };
uniform uint u_list_first;
uniform mat4 u_view;
uniform mat4 u_projection;

flat out vec4 v_color;
flat out vec3 v_emissive;
// The sphere's frame, world space: towards the eye, and the screen's right
// and up made square to it (a sphere off the view's axis shows its side).
flat out vec3 v_toward, v_right, v_up;

void main() {
    uint at = mesh_lists[u_list_first + uint(gl_VertexID)] * PLUME_MESH_INSTANCE_VEC4S;
    vec3 world = vec3(instances[at].w, instances[at + 1u].w, instances[at + 2u].w);
    v_color = instances[at + 6u];
    v_emissive = vec3(instances[at + 3u].w, instances[at + 4u].w, instances[at + 5u].w);
    gl_PointSize = max(instances[at + 7u].y, 1.0);
    mat3 turn = mat3(u_view);
    vec3 eye = -(transpose(turn) * u_view[3].xyz);
    v_toward = normalize(eye - world);
    vec3 right = vec3(turn[0][0], turn[1][0], turn[2][0]);
    v_right = normalize(right - dot(right, v_toward) * v_toward);
    v_up = cross(v_toward, v_right);
    gl_Position = u_projection * (u_view * vec4(world, 1.0));
}
