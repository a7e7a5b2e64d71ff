// The column and row of flipbook frame `frame` in a book of `columns`
// columns, `column_width` = 1 / columns, without an integer division by a
// value the compiler cannot see (a long sequence on NVIDIA; the tiled
// composite, which ran three for every pixel and quad, drew 8 % faster
// without, notes/wave3-draws-h200.md, sixteenth session). The quotient
// through the reciprocal is exact for frames under 2^22 and one off at most
// below 2^24; the remainder's range mends the one. Flipbooks of 2^24
// frames and more (a frame a texel of a 4096 x 4096 atlas) are out of its
// reach.
uvec2 flipbook_cell(uint frame, uint columns, float column_width) {
    int row = int((float(frame) + 0.5) * column_width);
    int column = int(frame) - row * int(columns);
    if (column < 0) {
        row -= 1;
        column += int(columns);
    } else if (column >= int(columns)) {
        row += 1;
        column -= int(columns);
    }
    return uvec2(column, row);
}

// The atlas coordinates of `corner_uv` (0..1 over the quad, v down from the
// image's top) in frame `frame` of a flipbook of `columns` columns whose
// frames are `cell_size` of the atlas (1 / columns, 1 / rows).
vec2 flipbook_frame_uv(uint frame, uint columns, vec2 cell_size, vec2 corner_uv) {
    return (vec2(flipbook_cell(frame, columns, cell_size.x)) + corner_uv) * cell_size;
}
