// Workgroups one sort pass needs for `count` pairs: zero when the pass belongs
// to a merge level above the count's power of two (count <= level height / 2),
// else enough for the spans that hold live pairs. The C twin is
// sort_pass_groups() in plugin/sort.c; both must stay the same arithmetic.
// pass: x = span, y = threads per span, z = threads per workgroup, w = level height.
uint sort_pass_groups(uvec4 pass, uint count) {
    if (count <= pass.w / 2u) return 0u;
    uint spans = (count + pass.x - 1u) / pass.x;
    uint threads = spans * pass.y;
    return (threads + pass.z - 1u) / pass.z;
}
