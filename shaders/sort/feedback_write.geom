// Emits the pairs under the count only: transform feedback records them in
// order from the buffer's start, so the host's pairs from the count on are
// neither read nor written, which a vertex shader alone (one output per
// vertex, always recorded) could not promise.
layout(points) in;
layout(points, max_vertices = 1) out;

flat in uvec2 v_pair[];
flat in uint v_keep[];

flat out uvec2 out_pair;

void main() {
    if (v_keep[0] != 0u) {
        out_pair = v_pair[0];
        EmitVertex();
        EndPrimitive();
    }
}
