// Blends the tiled path's result (premultiplied colour, coverage) onto the
// host's framebuffer (blend: ONE, ONE_MINUS_SRC_ALPHA), once per pixel.
uniform sampler2D u_particles;   // unit 0, the viewport's size
uniform ivec2 u_viewport_origin;

out vec4 out_color;

void main() {
    out_color = texelFetch(u_particles, ivec2(gl_FragCoord.xy) - u_viewport_origin, 0);
}
