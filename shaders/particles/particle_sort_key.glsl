// The key a drawn particle is sorted by, ascending (plume_sort_mode): shared
// by the compute path's simulate pass and the fragment path's key pass, so
// that both paths order a system alike.
#include "particles/particle_cull.glsl" // u_eye
#include "sort/depth_key.glsl"

uniform mat4 u_view;
#ifndef PLUME_SYSTEM_TABLE // else the system's record (particle_system_table.glsl)
uniform uint u_sort_mode; // plume_sort_mode
uniform uint u_sort_key_shift; // the key bits below the system's sort_key_bits, dropped
#endif

// View depth (distance in front of the eye along the view axis) or distance
// to the eye, the farthest first; or the age, the oldest or the youngest
// first. Equal keys end up by ascending slot (each path's list says how).
// The key keeps its top bits only (the system's sort_key_bits, at least
// 16), so that the sort runs fewer digit passes; a shifted key is never
// PLUME_GPU_KEY_LAST, and a NaN's stays behind every number's (numbers'
// keys are at most +-Inf's, 0xFF800000, whose top 16 bits already differ
// from PLUME_GPU_KEY_NAN's).
uint particle_sort_key(vec3 position, float age) {
    uint key;
    if (u_sort_mode == 1u) key = depth_key(length(position - u_eye), true);
    else if (u_sort_mode == 2u) key = depth_key(age, true);
    else if (u_sort_mode == 3u) key = depth_key(age, false);
    else key = depth_key(-(u_view * vec4(position, 1.0)).z, true);
    return key >> u_sort_key_shift;
}
