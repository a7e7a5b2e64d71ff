// A quad over one tile of the tiled path's target for the blend onto the
// host's framebuffer or the low-resolution upsample (draw 6 vertices an
// instance, the instances the ranges pass counted): instance i covers the
// tile cover[i], or tile i where the frame overflowed its budget (the
// control words: the upsample covers every tile then). Its corners are in
// the host's pixels relative to the viewport (a tile of the target is
// u_tile_pixels of them across), clipped to the viewport.
layout(std430, binding = PLUME_BINDING_TILED_CONTROL) restrict readonly buffer TiledControl { uint control[]; };
layout(std430, binding = PLUME_BINDING_TILED_COVER) restrict readonly buffer Cover { uint cover[]; };

uniform uint u_tiles_across;
uniform int u_tile_pixels;
uniform ivec2 u_viewport_size;

void main() {
    uint tile = control[PLUME_TILED_OVERFLOW] != 0u ? uint(gl_InstanceID) : cover[gl_InstanceID];
    ivec2 first = ivec2(tile % u_tiles_across, tile / u_tiles_across) * u_tile_pixels;
    ivec2 past = min(first + u_tile_pixels, u_viewport_size);
    // Two triangles: corners 0 1 2, 2 1 3 of the quad (x from bit 0, y from bit 1).
    const int CORNERS[6] = int[6](0, 1, 2, 2, 1, 3);
    int corner = CORNERS[gl_VertexID];
    vec2 pixel = vec2((corner & 1) != 0 ? past.x : first.x, (corner & 2) != 0 ? past.y : first.y);
    gl_Position = vec4(pixel / vec2(u_viewport_size) * 2.0 - 1.0, 0.0, 1.0);
}
