// What the passes of a draw group share (render/draw_group.c): a grouped
// particle as it looks this frame, evaluated by its system's gather pass
// (its curves, orientation and light are its system's) so that one draw can
// show the particles of every system. Indexed by the system's first record
// plus the slot: the value of its pair in the group's list. GROUP_RECORD_ACCESS: writeonly (gather) or readonly (draw, the
// tiled projection).
struct GroupRecord {        // PLUME_GROUP_RECORD_VEC4S vec4s
    vec4 centre;            // world position; w: the flipbook cross-fade (0: `frame` only)
    vec4 across;            // the quad's width edge (world units); w: the additive part
    vec4 along;             // its length edge; w: its system's index in the group (uint bits)
    vec4 color;             // straight alpha, opacity applied
    vec4 emissive;          // rgb: emitted light; w: the flipbook frame (uint bits)
    vec4 light;             // the light's direction in the quad's frame; w: the next frame (uint bits)
};

#ifndef GROUP_RECORD_BINDING
#define GROUP_RECORD_BINDING PLUME_BINDING_GROUP_RECORDS // the tiled projection's differs (tiled_project.comp)
#endif
layout(std430, binding = GROUP_RECORD_BINDING) restrict GROUP_RECORD_ACCESS buffer GroupRecords {
    GroupRecord group_records[];
};
