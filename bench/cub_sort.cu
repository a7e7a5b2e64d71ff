/* CUB's radix sort, the figure plume's sort is compared with: GPU time of
 * cub::DeviceRadixSort::SortPairs on uint32 keys and uint32 values (values =
 * input index), all 32 key bits, the low 16 (begin_bit 0, end_bit 16) and
 * the low 24,
 * sizes 2^min-log .. 2^max-log, CUDA events around each sort, median of 51
 * after 10 warm-up sorts (and at least 0.2 s of back-to-back sorting, as
 * plume_bench warms up). Each result is checked: keys ascending within the
 * sorted bits, every value a permutation of the input's, pairs intact.
 *
 * Built only where nvcc exists (bench/cub_sort.sh builds and runs it); the
 * premake build does not know it.
 *
 * Usage: cub_sort [--min-log K] [--max-log K] [--runs N] [--csv FILE] */
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        cudaError_t error_ = (call);                                                                                   \
        if (error_ != cudaSuccess) {                                                                                   \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(error_));                     \
            std::exit(1);                                                                                              \
        }                                                                                                              \
    } while (0)

static uint64_t random_state = 0x1234567887654321ull;
static uint32_t random_u32() {
    uint64_t z = (random_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}

struct device_arrays {
    uint32_t *keys_in, *values_in, *keys_out, *values_out;
    void *temp;
    size_t temp_bytes;
};

static void sort_once(device_arrays &d, uint32_t count, int end_bit) {
    CHECK(cub::DeviceRadixSort::SortPairs(d.temp, d.temp_bytes, d.keys_in, d.keys_out, d.values_in, d.values_out,
                                          (int)count, 0, end_bit));
}

/* Median milliseconds of `runs` sorts after warm-up. */
static double time_sorts(device_arrays &d, uint32_t count, int end_bit, int runs) {
    auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 10 || std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < 0.2;
         ++i) {
        sort_once(d, count, end_bit);
        if (i % 20 == 19) CHECK(cudaDeviceSynchronize());
    }
    std::vector<cudaEvent_t> begin(runs), end(runs);
    for (int i = 0; i < runs; ++i) {
        CHECK(cudaEventCreate(&begin[i]));
        CHECK(cudaEventCreate(&end[i]));
    }
    for (int i = 0; i < runs; ++i) {
        CHECK(cudaEventRecord(begin[i]));
        sort_once(d, count, end_bit);
        CHECK(cudaEventRecord(end[i]));
    }
    CHECK(cudaDeviceSynchronize());
    std::vector<double> ms(runs);
    for (int i = 0; i < runs; ++i) {
        float elapsed = 0;
        CHECK(cudaEventElapsedTime(&elapsed, begin[i], end[i]));
        ms[i] = elapsed;
        CHECK(cudaEventDestroy(begin[i]));
        CHECK(cudaEventDestroy(end[i]));
    }
    std::sort(ms.begin(), ms.end());
    return runs % 2 ? ms[runs / 2] : 0.5 * (ms[runs / 2 - 1] + ms[runs / 2]);
}

static bool check(const device_arrays &d, const std::vector<uint32_t> &keys, uint32_t count, int end_bit) {
    std::vector<uint32_t> k(count), v(count);
    CHECK(cudaMemcpy(k.data(), d.keys_out, 4ull * count, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(v.data(), d.values_out, 4ull * count, cudaMemcpyDeviceToHost));
    uint32_t mask = end_bit >= 32 ? 0xFFFFFFFFu : (1u << end_bit) - 1u;
    std::vector<bool> seen(count, false);
    for (uint32_t i = 0; i < count; ++i) {
        if (v[i] >= count || seen[v[i]] || keys[v[i]] != k[i]) return false;
        seen[v[i]] = true;
        if (i > 0 && (k[i - 1] & mask) > (k[i] & mask)) return false;
    }
    return true;
}

int main(int argc, char **argv) {
    int min_log = 10, max_log = 22, runs = 51;
    const char *csv_path = nullptr;
    for (int i = 1; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--min-log") && i + 1 < argc) min_log = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--max-log") && i + 1 < argc) max_log = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) runs = std::atoi(argv[++i]);
        else if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) csv_path = argv[++i];
        else {
            std::fprintf(stderr, "usage: %s [--min-log K] [--max-log K] [--runs N] [--csv FILE]\n", argv[0]);
            return 2;
        }
    }
    cudaDeviceProp properties;
    CHECK(cudaGetDeviceProperties(&properties, 0));
    std::printf("CUDA device: %s; CUB %d.%d.%d; median of %d\n", properties.name, CUB_MAJOR_VERSION,
                CUB_MINOR_VERSION, CUB_SUBMINOR_VERSION, runs);
    FILE *csv = csv_path ? std::fopen(csv_path, "w") : nullptr;
    if (csv) std::fprintf(csv, "count,cub32_ms,cub16_ms,correct,cub24_ms\n");
    std::printf("%10s %12s %12s %12s %8s\n", "count", "CUB 32 bits", "CUB 16 bits", "CUB 24 bits", "correct");
    bool all_correct = true;
    for (int log = min_log; log <= max_log; ++log) {
        uint32_t count = 1u << log;
        std::vector<uint32_t> keys(count), values(count);
        for (uint32_t i = 0; i < count; ++i) keys[i] = random_u32(), values[i] = i;
        device_arrays d = {};
        CHECK(cudaMalloc(&d.keys_in, 4ull * count));
        CHECK(cudaMalloc(&d.values_in, 4ull * count));
        CHECK(cudaMalloc(&d.keys_out, 4ull * count));
        CHECK(cudaMalloc(&d.values_out, 4ull * count));
        CHECK(cudaMemcpy(d.keys_in, keys.data(), 4ull * count, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(d.values_in, values.data(), 4ull * count, cudaMemcpyHostToDevice));
        CHECK(cub::DeviceRadixSort::SortPairs(nullptr, d.temp_bytes, d.keys_in, d.keys_out, d.values_in,
                                              d.values_out, (int)count));
        CHECK(cudaMalloc(&d.temp, d.temp_bytes));
        double ms[3];
        bool correct = true;
        const int end_bits[3] = {32, 16, 24};
        for (int b = 0; b < 3; ++b) {
            sort_once(d, count, end_bits[b]);
            CHECK(cudaDeviceSynchronize());
            correct = correct && check(d, keys, count, end_bits[b]);
            ms[b] = time_sorts(d, count, end_bits[b], runs);
        }
        all_correct = all_correct && correct;
        std::printf("%10u %12.4f %12.4f %12.4f %8s\n", count, ms[0], ms[1], ms[2], correct ? "yes" : "WRONG");
        if (csv) std::fprintf(csv, "%u,%.5f,%.5f,%d,%.5f\n", count, ms[0], ms[1], correct ? 1 : 0, ms[2]);
        CHECK(cudaFree(d.keys_in));
        CHECK(cudaFree(d.values_in));
        CHECK(cudaFree(d.keys_out));
        CHECK(cudaFree(d.values_out));
        CHECK(cudaFree(d.temp));
    }
    if (csv) std::fclose(csv);
    return all_correct ? 0 : 1;
}
