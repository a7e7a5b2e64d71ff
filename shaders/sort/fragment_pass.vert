// A triangle covering the viewport: every fragment pass of the fragment path
// draws one (or two: whole rows, then the last row's first texels), and the
// fragment finds its element from gl_FragCoord. No vertex attributes.
void main() {
    vec2 corner = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    gl_Position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}
