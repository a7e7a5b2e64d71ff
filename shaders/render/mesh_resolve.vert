// Mesh draw (render/mesh_compute.c), the compute raster's resolve: a quad
// (a strip of 4 vertices) over the box of pixels the depth pass covered
// (from word u_box of the mesh draw's arguments), so that the resolve's cost follows the meshes'
// place on screen, not the viewport's; nothing where the box is empty.
layout(std430, binding = PLUME_BINDING_MESH_ARGS) restrict readonly buffer Arguments { uint arguments[]; };

uniform ivec2 u_size; // the viewport's pixels
uniform uint u_box;

void main() {
    uvec2 low = uvec2(arguments[u_box], arguments[u_box + 1u]);
    uvec2 high = uvec2(arguments[u_box + 2u], arguments[u_box + 3u]);
    if (any(greaterThan(low, high))) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // outside the clip volume: no pixel
        return;
    }
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 pixel = mix(vec2(low), vec2(high + 1u), corner);
    gl_Position = vec4(pixel / vec2(u_size) * 2.0 - 1.0, 0.0, 1.0);
}
