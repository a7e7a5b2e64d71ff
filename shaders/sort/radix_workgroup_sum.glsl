// An exclusive prefix sum over the workgroup's PLUME_RADIX_THREADS invocations
// in the order of `index` (Hillis-Steele in shared memory). Every invocation
// calls it together; `total` gets the sum of all values.
shared uint sum_space[PLUME_RADIX_THREADS];

uint workgroup_exclusive_sum(uint value, uint index, out uint total) {
    sum_space[index] = value;
    barrier();
    for (uint offset = 1u; offset < PLUME_RADIX_THREADS; offset <<= 1u) {
        uint add = index >= offset ? sum_space[index - offset] : 0u;
        barrier();
        sum_space[index] += add;
        barrier();
    }
    total = sum_space[PLUME_RADIX_THREADS - 1u];
    uint inclusive = sum_space[index];
    barrier(); // the next call may overwrite sum_space
    return inclusive - value;
}
