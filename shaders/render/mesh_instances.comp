// Mesh draw (render/mesh_draw.c), the instance pass: once per drawn
// particle, what every vertex of its mesh would otherwise work out again
// (its appearance over life, its orientation's matrix, its scale), written
// at its place in the draw list as PLUME_MESH_INSTANCE_VEC4S vec4s:
//   0..2  rows of mesh space to world: rotation x scale | position
//   3..5  rows of the normals' matrix: rotation x inverse scale | emitted light
//   6     colour (straight alpha, opacity applied)
//   7     x: the mesh (uint bits), y: its bounding sphere's diameter in pixels
// A system of several opaque meshes also appends each particle's place to
// its mesh's list and counts it (as mesh_compact.comp does). With levels
// (plume_mesh_lod: u_levels) every particle goes to one list of
// PLUME_MESH_LEVEL_LISTS by its size on screen (full mesh, coarse mesh, one
// impostor list for all meshes), or to none where culled: outside the
// frustum, or behind the scene depth over the texels its sphere covers.
// Where the compute raster is on (u_compute_below), a particle under its
// size goes to its mesh's compute list instead (render/mesh_compute.h).
#include "shared/scene_depth.glsl"
#include "particles/particle_common.glsl"
#include "render/particle_appearance.glsl"
#include "particles/particle_spin.glsl"

layout(local_size_x = PLUME_MESH_COMPACT_GROUP_SIZE) in;

layout(std430, binding = PLUME_BINDING_MOTION) restrict readonly buffer ParticleMotions { ParticleMotion motions[]; };
layout(std430, binding = PLUME_BINDING_DRAW_LIST) restrict readonly buffer DrawList { uvec2 draw_list[]; };
layout(std430, binding = PLUME_BINDING_TRAITS) restrict readonly buffer ParticleTraitsArray { ParticleTraits traits[]; };
layout(std430, binding = PLUME_BINDING_STATE) restrict readonly buffer State { uint state[]; };
layout(std430, binding = PLUME_BINDING_MESH_ARGS) restrict buffer Arguments { uint arguments[]; };
layout(std430, binding = PLUME_BINDING_MESH_LISTS) restrict writeonly buffer Lists { uint lists[]; };
layout(std430, binding = PLUME_BINDING_MESH_INSTANCES) restrict writeonly buffer Instances { vec4 instances[]; };

uniform vec3 u_scale_start;
uniform vec3 u_scale_end;
uniform bool u_compact;   // several opaque meshes, or the compute raster: a list per mesh
uniform uint u_list_room;
uniform bool u_levels;          // plume_mesh_lod in use: lists by level, culling
uniform float u_coarse_below;   // pixels; 0: never
uniform float u_impostor_below; // pixels; 0: never
uniform float u_compute_below[PLUME_GPU_MAX_MESHES]; // per mesh, pixels; 0: never (the compute raster)
uniform uint u_compute_first;   // the first mesh's compute list
uniform bool u_cull;            // the frustum, and u_depth_cull
uniform bool u_depth_cull;      // the frame gave a depth texture
uniform vec4 u_frustum_planes[PLUME_CULL_PLANES];
uniform float u_mesh_radius[PLUME_GPU_MAX_MESHES];
uniform mat4 u_view;
uniform mat4 u_projection;
uniform mat4 u_inverse_projection;
uniform float u_viewport_height;
uniform vec4 u_viewport;        // the host's: x, y, width, height (window pixels)
uniform vec2 u_depth_size;      // the window pixels the depth texture covers
uniform sampler2D u_cull_depth; // unit 1, window depth


// The rotation of unit quaternion q as a matrix (columns), rotate_by's.
mat3 rotation_of(vec4 q) {
    vec3 x2 = 2.0 * q.xyz;
    float xx = q.x * x2.x, yy = q.y * x2.y, zz = q.z * x2.z;
    float xy = q.x * x2.y, xz = q.x * x2.z, yz = q.y * x2.z;
    float wx = q.w * x2.x, wy = q.w * x2.y, wz = q.w * x2.z;
    return mat3(vec3(1.0 - yy - zz, xy + wz, xz - wy), vec3(xy - wz, 1.0 - xx - zz, yz + wx),
                vec3(xz + wy, yz - wx, 1.0 - xx - yy));
}

bool outside_frustum(vec3 centre, float radius) {
    for (int p = 0; p < PLUME_CULL_PLANES; ++p)
        if (dot(u_frustum_planes[p].xyz, centre) + u_frustum_planes[p].w < -radius) return true;
    return false;
}

// Whether the sphere (view space) is wholly behind the scene depth: its
// nearest view depth past the farthest scene depth over every texel its
// screen rectangle touches (the rectangle of its view-space bounding cube's
// corners: conservative). Spheres reaching the eye's plane, or over more
// than 16 x 16 texels, are kept.
bool behind_scene(vec3 centre, float radius) {
    float nearest = -centre.z - radius;
    if (nearest <= 0.0) return false;
    vec2 low = vec2(1e30), high = vec2(-1e30);
    for (int k = 0; k < 8; ++k) {
        vec3 corner = centre + radius * vec3((k & 1) != 0 ? 1.0 : -1.0, (k & 2) != 0 ? 1.0 : -1.0,
                                              (k & 4) != 0 ? 1.0 : -1.0);
        vec4 clip = u_projection * vec4(corner, 1.0);
        if (clip.w <= 0.0) return false;
        low = min(low, clip.xy / clip.w);
        high = max(high, clip.xy / clip.w);
    }
    // Window pixels, then the texels over them (as soft particles read it:
    // the texture spans u_depth_size pixels from the window's corner).
    ivec2 size = textureSize(u_cull_depth, 0);
    vec2 texels_a_pixel = vec2(size) / u_depth_size;
    vec2 pixel_low = u_viewport.xy + (low * 0.5 + 0.5) * u_viewport.zw;
    vec2 pixel_high = u_viewport.xy + (high * 0.5 + 0.5) * u_viewport.zw;
    ivec2 first = clamp(ivec2(floor(pixel_low * texels_a_pixel)), ivec2(0), size - 1);
    ivec2 last = clamp(ivec2(floor(pixel_high * texels_a_pixel)), ivec2(0), size - 1);
    if (any(greaterThan(last - first, ivec2(15)))) return false;
    float farthest = texelFetch(u_cull_depth, first, 0).r;
    for (int y = first.y; y <= last.y; ++y)
        for (int x = first.x; x <= last.x; ++x) farthest = farther_depth(farthest, texelFetch(u_cull_depth, ivec2(x, y), 0).r);
    return nearest > scene_view_depth(u_inverse_projection, vec2(0.5), farthest) * (1.0 + 1e-5);
}

// The list (and its count's word) of a particle of `mesh` whose sphere is
// `pixels` across: the full mesh's, the coarse mesh's, or the impostors'
// (a DrawArraysIndirect: its vertex count is word 0).
uint level_list(uint mesh, float pixels) {
    if (pixels < u_impostor_below) return PLUME_MESH_IMPOSTOR_LIST;
    return pixels < u_coarse_below ? PLUME_GPU_MAX_MESHES + mesh : mesh;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= state[PLUME_STATE_DRAWN_COUNT]) return;
    uint slot = draw_list[i].y;
    ParticleMotion motion = motions[slot];
    ParticleTraits particle_traits = traits[slot];
    vec4 orientation = spins[slot].orientation;
    Appearance a = particle_appearance(motion, particle_traits);
    float life = clamp(motion.age / motion.lifetime, 0.0, 1.0);
    vec3 scale = a.size * mix(u_scale_start, u_scale_end, life);
    uint mesh = u_mesh_count > 1u ? mesh_of(particle_traits, motion.lifetime) : 0u;
    float pixels = 0.0;
    uint list = mesh;
    if (u_levels || u_compute_below[mesh] > 0.0) {
        float radius = u_mesh_radius[mesh] * max(scale.x, max(scale.y, scale.z));
        vec3 centre = (u_view * vec4(motion.position, 1.0)).xyz;
        if (u_levels && u_cull &&
            (outside_frustum(motion.position, radius) || (u_depth_cull && behind_scene(centre, radius))))
            return;
        float w = (u_projection * vec4(centre, 1.0)).w;
        pixels = w > radius ? radius * u_projection[1][1] * u_viewport_height / w : 3.0e38;
        if (u_levels) list = level_list(mesh, pixels);
        // Under the impostors' size the impostor; else under the compute
        // raster's the full mesh in compute, before the coarse mesh.
        if (list != PLUME_MESH_IMPOSTOR_LIST && pixels < u_compute_below[mesh]) list = u_compute_first + mesh;
    }
    mat3 turn = rotation_of(orientation);
    mat3 model = turn * mat3(vec3(scale.x, 0.0, 0.0), vec3(0.0, scale.y, 0.0), vec3(0.0, 0.0, scale.z));
    vec3 inverse = 1.0 / max(scale, vec3(1e-20));
    mat3 normals = turn * mat3(vec3(inverse.x, 0.0, 0.0), vec3(0.0, inverse.y, 0.0), vec3(0.0, 0.0, inverse.z));
    uint at = i * PLUME_MESH_INSTANCE_VEC4S;
    for (int r = 0; r < 3; ++r) { // rows: the draw takes dot products
        instances[at + uint(r)] = vec4(model[0][r], model[1][r], model[2][r], motion.position[r]);
        instances[at + 3u + uint(r)] = vec4(normals[0][r], normals[1][r], normals[2][r], a.emissive[r]);
    }
    instances[at + 6u] = a.color;
    instances[at + 7u] = vec4(uintBitsToFloat(mesh), pixels, 0.0, 0.0);
    if (!u_compact && !u_levels) return;
    uint count_word = list == PLUME_MESH_IMPOSTOR_LIST ? 0u : 1u;
    uint place = atomicAdd(arguments[list * PLUME_MESH_ARGS_WORDS + count_word], 1u);
    lists[list * u_list_room + place] = i;
}
