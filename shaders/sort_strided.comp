// All remaining global stages of a merge level in one pass, through shared
// memory. The stages left have distances that are multiples of BLOCK_PAIRS, so
// the pairs of one residue r (position mod BLOCK_PAIRS) meet only pairs of
// residue r -- or, in a flip, of residue BLOCK_PAIRS-1-r. A workgroup loads the
// rows of WIDTH consecutive residues of one span (lower half: residue r,
// upper half: the mirrors, residue BLOCK_PAIRS-1-r, stored so that row
// ROWS/2+j mirrors row j), runs every stage between barriers, and writes once.
// FLIP: the stages are flip(span) then disperses of half-distance span/4 ...
// BLOCK_PAIRS; otherwise disperses of half-distance span/2 ... BLOCK_PAIRS.
// The grid holds 2^u_log_grid pairs (at most MAX_GRID_PAIRS): ROWS = span /
// BLOCK_PAIRS rows of WIDTH = grid / ROWS columns, WIDTH <= BLOCK_PAIRS.
// Defines: MAX_GRID_PAIRS, GRID_THREADS, LOG_BLOCK.
layout(local_size_x = GRID_THREADS) in;

uniform uint u_log_span;  // the span: the block of positions one set lives in
uniform uint u_log_grid;  // pairs in this pass's grid
uniform uint u_flip;      // 1: the first stage is flip(span)

shared uvec2 grid[MAX_GRID_PAIRS];

// Grid index (row * width + column) to position in the pairs buffer.
uint grid_position(uint index, uint log_width, uint span_start, uint first_residue, bool flip) {
    uint log_rows = u_log_grid - log_width;
    uint row = index >> log_width, column = index & ((1u << log_width) - 1u);
    uint half_rows = 1u << (log_rows - 1u);
    if (flip && row >= half_rows)
        return span_start + (1u << u_log_span) - 1u - first_residue - column - ((row - half_rows) << LOG_BLOCK);
    return span_start + first_residue + column + (row << LOG_BLOCK);
}

void main() {
    bool flip = u_flip != 0u;
    uint grid_pairs = 1u << u_log_grid, half_grid = grid_pairs >> 1;
    uint log_rows = u_log_span - LOG_BLOCK;
    uint log_width = u_log_grid - log_rows;
    uint groups_per_span = 1u << (LOG_BLOCK - log_width);
    uint span_start = (gl_WorkGroupID.x / groups_per_span) << u_log_span;
    uint first_residue = (gl_WorkGroupID.x % groups_per_span) << log_width;
    // The lowest position of the set; every other one is above it. Uniform in
    // the workgroup, so returning before the barriers is allowed.
    if (span_start + first_residue >= sort_count) return;

    for (uint index = gl_LocalInvocationID.x; index < grid_pairs; index += GRID_THREADS)
        grid[index] = load_pair(grid_position(index, log_width, span_start, first_residue, flip));

    uint first_stage = 0u;
    if (flip) {
        barrier();
        for (uint low = gl_LocalInvocationID.x; low < half_grid; low += GRID_THREADS) {
            uvec2 a = grid[low], b = grid[low + half_grid];
            compare_swap(a, b);
            grid[low] = a;
            grid[low + half_grid] = b;
        }
        first_stage = 1u;
    }
    // Disperses over rows, as grid-index distances (row distance * width);
    // in a flip's upper half positions descend with the row: swap reversed.
    for (uint stage = first_stage; stage < log_rows; ++stage) {
        uint log_distance = log_rows - 1u - stage + log_width;
        uint mask = (1u << log_distance) - 1u;
        barrier();
        for (uint swap_index = gl_LocalInvocationID.x; swap_index < half_grid; swap_index += GRID_THREADS) {
            uint low = ((swap_index >> log_distance) << (log_distance + 1u)) | (swap_index & mask);
            uint high = low + mask + 1u;
            uvec2 a = grid[low], b = grid[high];
            if (flip && low >= half_grid) compare_swap(b, a);
            else compare_swap(a, b);
            grid[low] = a;
            grid[high] = b;
        }
    }
    barrier();
    for (uint index = gl_LocalInvocationID.x; index < grid_pairs; index += GRID_THREADS)
        store_pair(grid_position(index, log_width, span_start, first_residue, flip), grid[index]);
}
