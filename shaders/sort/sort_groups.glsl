// Workgroups one sort pass needs for `count` pairs: zero when the pass belongs
// to a merge level above the count's power of two (count <= level height / 2),
// else one per workgroup number whose lowest position is below the count,
// workgroup numbers being spread over the position bits `group_bits` in
// order. The C twin is sort_pass_groups() in plugin/sort/bitonic.c; both must stay the
// same arithmetic.
// pass: x = group_bits, y = level height.
uint sort_pass_groups(uvec2 pass, uint count) {
    if (count <= pass.y / 2u) return 0u;
    uint found = 0u;
    for (int p = 31; p >= 0; --p) {
        uint bit = 1u << uint(p);
        if ((count & bit) == 0u) continue;
        // Numbers equal to count above p with 0 at p: every choice below.
        found += 1u << uint(bitCount(pass.x & (bit - 1u)));
        if ((pass.x & bit) == 0u) break; // none can have 1 at p
    }
    return found;
}
