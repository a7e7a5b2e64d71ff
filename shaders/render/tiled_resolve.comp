// One workgroup per tile, one invocation per pixel, after the chunked
// composite: a tile of several chunks gets its chunks' partials combined front
// to back (nearest chunk first),
//     colour += transmittance * chunk colour;  transmittance *= chunk T,
// stopping at the first chunk after which the transmittance is below
// u_threshold: that stop is what keeps early termination's error under the
// threshold (tiled_composite.comp says why). Tiles of one chunk were written
// by the composite. Dispatched only on a frame with entries that fit the
// budget (the control pass's arguments).
#include "render/tiled_common.glsl"

layout(local_size_x = TILED_TILE_SIZE, local_size_y = TILED_TILE_SIZE) in;

layout(std430, binding = PLUME_BINDING_TILED_CHUNK_TABLE) restrict readonly buffer ChunkTable { uint chunk_table[]; };
layout(std430, binding = PLUME_BINDING_TILED_PARTIALS) restrict readonly buffer Partials { vec4 partials[]; };
#include "render/tiled_target.glsl"

uniform ivec2 u_target_size;
uniform float u_threshold; // 0: never stops
uniform uvec2 u_tiles;

void main() {
    uint tile = gl_WorkGroupID.y * u_tiles.x + gl_WorkGroupID.x;
    uint first = chunk_table[2u * tile], chunks = chunk_table[2u * tile + 1u];
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    if (chunks < 2u || any(greaterThanEqual(pixel, u_target_size))) return;
    uint pixels = TILE_SIZE * TILE_SIZE, lid = gl_LocalInvocationIndex;
    vec3 color = vec3(0.0);
    float transmittance = 1.0;
    for (uint j = 0u; j < chunks; ++j) {
        vec4 partial = partials[(first + j) * pixels + lid];
        color += transmittance * partial.rgb;
        transmittance *= partial.a;
        if (transmittance < u_threshold) break;
    }
    write_target(pixel, color, transmittance);
}
