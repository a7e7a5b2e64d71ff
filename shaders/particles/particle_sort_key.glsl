// Built after particle_cull.glsl (u_eye) and sort/depth_key.glsl. The key a
// drawn particle is sorted by, ascending (plume_sort_mode): shared by the
// compute path's simulate pass and the fragment path's key pass, so that both
// paths order a system alike.
uniform mat4 u_view;
uniform uint u_sort_mode; // plume_sort_mode

// View depth (distance in front of the eye along the view axis) or distance
// to the eye, the farthest first; or the age, the oldest or the youngest
// first. Equal keys end up by ascending slot (each path's list says how).
uint particle_sort_key(vec3 position, float age) {
    if (u_sort_mode == 1u) return depth_key(length(position - u_eye), true);
    if (u_sort_mode == 2u) return depth_key(age, true);
    if (u_sort_mode == 3u) return depth_key(age, false);
    return depth_key(-(u_view * vec4(position, 1.0)).z, true);
}
