// One workgroup per tile, after the chunked composite: a tile of several
// chunks gets its chunks' partials combined front to back (nearest chunk
// first),
//     colour += transmittance * chunk colour;  transmittance *= chunk T,
// stopping once the transmittance is below u_threshold: that stop is what
// keeps early termination's error under the threshold (tiled_composite.comp
// says why). Tiles of one chunk were written by the composite. Dispatched
// only on a frame with entries that fit the budget (the control pass's
// arguments).
// A hot tile has hundreds of chunks: walked by one invocation a pixel, one
// read after the other, they made the resolve cost as much as the composite
// saved by cutting them. So RESOLVE_SLICES invocations share a pixel, each
// combining a slice of consecutive chunks (stopping where its own
// transmittance falls below u_threshold, as the whole product then has),
// and the first combines the slices in order. "Over" is associative: the
// same colour, with at most more of the chunks behind the stop counted.
#include "render/tiled_common.glsl"

#if TILED_TILE_SIZE == 8
#define RESOLVE_SLICES 8
#elif TILED_TILE_SIZE == 16
#define RESOLVE_SLICES 2
#else
#define RESOLVE_SLICES 1
#endif
layout(local_size_x = TILED_TILE_SIZE, local_size_y = TILED_TILE_SIZE, local_size_z = RESOLVE_SLICES) in;

layout(std430, binding = PLUME_BINDING_TILED_CHUNK_TABLE) restrict readonly buffer ChunkTable { uint chunk_table[]; };
layout(std430, binding = PLUME_BINDING_TILED_PARTIALS) restrict readonly buffer Partials { uvec2 partials[]; };
#include "render/tiled_target.glsl"

uniform ivec2 u_target_size;
uniform float u_threshold; // 0: never stops
uniform uvec2 u_tiles;

#if RESOLVE_SLICES > 1
// Slices 1 and on: their colour and transmittance, and whether they stopped.
shared vec4 slice_over[RESOLVE_SLICES - 1][TILED_TILE_SIZE * TILED_TILE_SIZE];
shared bool slice_stopped[RESOLVE_SLICES - 1][TILED_TILE_SIZE * TILED_TILE_SIZE];
#endif

void main() {
    uint tile = gl_WorkGroupID.y * u_tiles.x + gl_WorkGroupID.x;
    uint first = chunk_table[2u * tile], chunks = chunk_table[2u * tile + 1u];
    if (chunks < 2u) return; // the whole workgroup
    ivec2 pixel = ivec2(gl_GlobalInvocationID.xy);
    uint pixels = TILE_SIZE * TILE_SIZE, lid = gl_LocalInvocationID.y * TILE_SIZE + gl_LocalInvocationID.x;
    uint slice = gl_LocalInvocationID.z, per_slice = (chunks + uint(RESOLVE_SLICES) - 1u) / uint(RESOLVE_SLICES);
    uint begin = min(slice * per_slice, chunks), end = min(begin + per_slice, chunks);
    vec3 color = vec3(0.0);
    float transmittance = 1.0;
    // Four reads issued before any is combined, so that they overlap (a
    // chunk past the slice's end reads as one that covers nothing).
    const uint GROUP = 4u;
    bool open = true;
    for (uint j = begin; open && j < end; j += GROUP) {
        uvec2 group[GROUP];
        for (uint k = 0u; k < GROUP; ++k) group[k] = j + k < end ? partials[(first + j + k) * pixels + lid] : uvec2(0u);
        for (uint k = 0u; k < GROUP; ++k)
            if (open) {
                bool stopped;
                vec4 over = unpack_partial(group[k], stopped);
                color += transmittance * over.rgb;
                transmittance *= 1.0 - over.a;
                open = !stopped && transmittance >= u_threshold;
            }
    }
#if RESOLVE_SLICES > 1
    if (slice > 0u) {
        slice_over[slice - 1u][lid] = vec4(color, transmittance);
        slice_stopped[slice - 1u][lid] = !open;
    }
    memoryBarrierShared();
    barrier();
    if (slice > 0u) return;
    for (uint k = 0u; open && k < uint(RESOLVE_SLICES) - 1u; ++k) {
        vec4 next = slice_over[k][lid];
        color += transmittance * next.rgb;
        transmittance *= next.a;
        open = !slice_stopped[k][lid] && transmittance >= u_threshold;
    }
#endif
    if (all(lessThan(pixel, u_target_size))) write_target(pixel, color, transmittance);
}
