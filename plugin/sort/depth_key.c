/* Float depth to sortable key (seed 004's sign flip); see plume_sort.h and
 * its GLSL twin shaders/depth_key.glsl. */
#include <math.h>
#include <string.h>

#include "plume/plume_sort.h"

uint32_t plume_depth_key(float depth, plume_sort_order order) {
    if (isnan(depth)) return PLUME_KEY_NAN;
    uint32_t bits;
    memcpy(&bits, &depth, sizeof bits);
    if (bits == 0x80000000u) bits = 0; /* -0.0 and +0.0 are one key */
    /* Negative floats order backwards as integers: invert them all; positive
     * ones only need to rise above every negative one. */
    uint32_t sortable = (bits & 0x80000000u) ? ~bits : bits | 0x80000000u;
    return order == PLUME_ORDER_DESCENDING ? ~sortable : sortable;
}
