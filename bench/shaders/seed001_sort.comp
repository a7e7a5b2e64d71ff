// The baseline: seed 001's compute-shader bitonic sort as written (steps3d),
// extended only as far as key-value pairs need: separate key and value arrays,
// 1024-pair blocks (512 invocations, two pairs each), one dispatch per global
// stage, the mode chosen by a uniform, power-of-two counts only.
// The comparison is the same total order as plume's: key, then value.
layout(local_size_x = 512) in;

layout(std430, binding = 0) buffer Keys { uint keys[]; };
layout(std430, binding = 1) buffer Values { uint values[]; };

uniform uint u_height;
uniform int u_algorithm;

const int LOCAL_SORT = 0;
const int LOCAL_DISPERSE = 1;
const int BIG_FLIP = 2;
const int BIG_DISPERSE = 3;

shared uint local_keys[1024];
shared uint local_values[1024];

bool greater(uint key_a, uint value_a, uint key_b, uint value_b) {
    return key_a > key_b || (key_a == key_b && value_a > value_b);
}

void global_compare_swap(uint x, uint y) {
    if (greater(keys[x], values[x], keys[y], values[y])) {
        uint k = keys[x], v = values[x];
        keys[x] = keys[y];
        values[x] = values[y];
        keys[y] = k;
        values[y] = v;
    }
}

void local_compare_swap(uint x, uint y) {
    if (greater(local_keys[x], local_values[x], local_keys[y], local_values[y])) {
        uint k = local_keys[x], v = local_values[x];
        local_keys[x] = local_keys[y];
        local_values[x] = local_values[y];
        local_keys[y] = k;
        local_values[y] = v;
    }
}

void big_flip(uint h) {
    uint t = gl_GlobalInvocationID.x;
    uint q = ((2u * t) / h) * h;
    uint t2 = t % (h / 2u);
    global_compare_swap(q + t2, q + h - t2 - 1u);
}

void big_disperse(uint h) {
    uint t = gl_GlobalInvocationID.x;
    uint q = ((2u * t) / h) * h;
    uint t2 = t % (h / 2u);
    global_compare_swap(q + t2, q + t2 + h / 2u);
}

void local_flip(uint h) {
    uint t = gl_LocalInvocationID.x;
    uint q = ((2u * t) / h) * h;
    uint t2 = t % (h / 2u);
    barrier();
    local_compare_swap(q + t2, q + h - 1u - t2);
}

void local_disperse(uint h) {
    uint t = gl_LocalInvocationID.x;
    for (; h > 1u; h /= 2u) {
        barrier();
        uint q = ((2u * t) / h) * h;
        uint t2 = t % (h / 2u);
        local_compare_swap(q + t2, q + t2 + h / 2u);
    }
}

void local_sort(uint h) {
    for (uint hh = 2u; hh <= h; hh *= 2u) {
        local_flip(hh);
        local_disperse(hh / 2u);
    }
}

void main() {
    uint t = gl_LocalInvocationID.x;
    uint offset = gl_WorkGroupSize.x * 2u * gl_WorkGroupID.x;
    if (u_algorithm <= LOCAL_DISPERSE) {
        local_keys[2u * t] = keys[offset + 2u * t];
        local_keys[2u * t + 1u] = keys[offset + 2u * t + 1u];
        local_values[2u * t] = values[offset + 2u * t];
        local_values[2u * t + 1u] = values[offset + 2u * t + 1u];
    }
    switch (u_algorithm) {
    case LOCAL_SORT: local_sort(u_height); break;
    case LOCAL_DISPERSE: local_disperse(u_height); break;
    case BIG_FLIP: big_flip(u_height); break;
    case BIG_DISPERSE: big_disperse(u_height); break;
    }
    if (u_algorithm <= LOCAL_DISPERSE) {
        barrier();
        keys[offset + 2u * t] = local_keys[2u * t];
        keys[offset + 2u * t + 1u] = local_keys[2u * t + 1u];
        values[offset + 2u * t] = local_values[2u * t];
        values[offset + 2u * t + 1u] = local_values[2u * t + 1u];
    }
}
