// Built after particle_common.glsl, particle_appearance.glsl (the flipbook)
// and tiled_common.glsl. One workgroup per tile, one invocation per pixel:
// the tile's entries, walked from its nearest particle to its farthest,
// composited front to back in registers,
//     colour += transmittance * premultiplied;  transmittance *= 1 - alpha,
// which is what blending them back to front over the host's colour gives
// (the "over" operator is associative). A pixel stops once its
// transmittance is below u_threshold (what it would still add is less than
// that in each channel), and the tile once all its pixels have. Each pixel
// shades a particle as particle_draw.frag does: the sprite (frames
// cross-faded), the colour, the soft fade against the scene depth, and the
// depth test the raster path gets from the host's depth function.
layout(local_size_x = TILED_TILE_SIZE, local_size_y = TILED_TILE_SIZE) in;

layout(std430, binding = PLUME_BINDING_TILED_SPLATS) restrict readonly buffer Splats { vec4 splats[]; };
layout(std430, binding = PLUME_BINDING_TILED_ENTRIES) restrict readonly buffer Entries { uvec2 entries[]; };
layout(std430, binding = PLUME_BINDING_TILED_RANGES) restrict readonly buffer Ranges { uvec2 ranges[]; };
layout(rgba16f, binding = 0) uniform restrict writeonly image2D u_target; // premultiplied colour, coverage

uniform sampler2D u_sprite;         // unit 0, premultiplied RGBA
uniform sampler2D u_scene_depth;    // unit 1, window depth 0..1
uniform bool u_has_texture;
uniform float u_soft_fade_distance; // 0: no fade
uniform mat4 u_inverse_projection;
uniform ivec2 u_target_size;
uniform ivec2 u_depth_origin;       // the target's pixel 0 in the depth texture's pixels
uniform vec2 u_depth_size;          // the pixels the depth texture covers
uniform uint u_depth_function;      // the host's glDepthFunc
uniform float u_threshold;          // transmittance that ends a pixel; 0: never
uniform uvec2 u_tiles;

const uint BATCH = uint(TILED_BATCH); // splats loaded at once: min(pixels, 256)
shared vec4 batch[TILED_BATCH * PLUME_TILED_SPLAT_VEC4S];
shared uint pixels_alive[2];

bool depth_passes(float particle, float scene) {
    switch (u_depth_function) {
    case 0x0200u: return false;              // GL_NEVER
    case 0x0201u: return particle < scene;   // GL_LESS
    case 0x0202u: return particle == scene;  // GL_EQUAL
    case 0x0203u: return particle <= scene;  // GL_LEQUAL
    case 0x0204u: return particle > scene;   // GL_GREATER
    case 0x0205u: return particle != scene;  // GL_NOTEQUAL
    case 0x0206u: return particle >= scene;  // GL_GEQUAL
    default: return true;                    // GL_ALWAYS
    }
}

void main() {
    uint lid = gl_LocalInvocationIndex;
    uint tile = gl_WorkGroupID.y * u_tiles.x + gl_WorkGroupID.x;
    ivec2 pixel = ivec2(gl_WorkGroupID.xy * TILE_SIZE + gl_LocalInvocationID.xy);
    bool inside = all(lessThan(pixel, u_target_size));
    vec2 centre = vec2(pixel) + 0.5;
    vec2 depth_uv = (vec2(pixel + u_depth_origin) + 0.5) / u_depth_size;
    float scene_window = textureLod(u_scene_depth, depth_uv, 0.0).r;
    float scene_view = 0.0;
    if (u_soft_fade_distance > 0.0) {
        vec4 scene = u_inverse_projection * vec4(vec3(depth_uv, scene_window) * 2.0 - 1.0, 1.0);
        scene_view = -scene.z / scene.w;
    }
    vec3 color = vec3(0.0);
    float transmittance = 1.0;
    bool shading = inside;
    uvec2 range = ranges[tile];
    uint next = range.y;
    if (lid == 0u) pixels_alive[0] = 0u;
    for (uint pass = 0u; next > range.x; ++pass) {
        uint count = min(next - range.x, BATCH);
        memoryBarrierShared();
        barrier(); // the previous batch is read, pixels_alive[0] set
        if (lid < count) {
            uint base = entries[next - 1u - lid].y * uint(PLUME_TILED_SPLAT_VEC4S);
            for (uint k = 0u; k < uint(PLUME_TILED_SPLAT_VEC4S); ++k)
                batch[lid * uint(PLUME_TILED_SPLAT_VEC4S) + k] = splats[base + k];
        }
        if (lid == 0u) pixels_alive[(pass + 1u) & 1u] = 0u;
        memoryBarrierShared();
        barrier();
        for (uint j = 0u; shading && j < count; ++j) {
            uint at = j * uint(PLUME_TILED_SPLAT_VEC4S);
            vec4 place = batch[at], axes = batch[at + 1u];
            mat2 to_quad = mat2(axes.xy, axes.zw);
            vec2 st = to_quad * (centre - place.xy);
            if (any(lessThan(st, vec2(0.0))) || any(greaterThan(st, vec2(1.0)))) continue;
            if (!depth_passes(place.w, scene_window)) continue;
            vec4 tint = batch[at + 2u], frames = batch[at + 3u];
            vec4 texel = vec4(1.0);
            if (u_has_texture) {
                uint both = floatBitsToUint(frames.z);
                vec2 corner_uv = vec2(st.x, 1.0 - st.y);
                vec2 along_x = vec2(to_quad[0][0], -to_quad[0][1]) / vec2(u_flipbook);
                vec2 along_y = vec2(to_quad[1][0], -to_quad[1][1]) / vec2(u_flipbook);
                texel = mix(textureGrad(u_sprite, frame_uv(both & 0xFFFFu, corner_uv), along_x, along_y),
                            textureGrad(u_sprite, frame_uv(both >> 16, corner_uv), along_x, along_y), frames.w);
            }
            float fade = 1.0;
            if (u_soft_fade_distance > 0.0) fade = clamp((scene_view - place.z) / u_soft_fade_distance, 0.0, 1.0);
            vec4 shade = vec4(tint.rgb * texel.rgb, texel.a) * (tint.a * fade);
            color += transmittance * shade.rgb;
            transmittance *= 1.0 - shade.a;
            if (transmittance < u_threshold) shading = false;
        }
        if (shading) pixels_alive[pass & 1u] = 1u;
        memoryBarrierShared();
        barrier();
        if (pixels_alive[pass & 1u] == 0u) break;
        next -= count;
    }
    if (inside) imageStore(u_target, pixel, vec4(color, 1.0 - transmittance));
}
