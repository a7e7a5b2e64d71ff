// What the draw of a group or batch reads per system (render/draw_group.c
// writes the table once, when the group is made): PLUME_GROUP_SYSTEM_WORDS a
// system, {sprite layer (int bits; -1: none), flipbook columns | rows << 16,
// lit, soft fade distance (float bits)}. A table rather than uniform arrays,
// so a batch of any number of systems fits.
#ifndef GROUP_SYSTEMS_BINDING
#define GROUP_SYSTEMS_BINDING PLUME_BINDING_GROUP_SYSTEMS // the tiled projection's differs (tiled_project.comp)
#endif
layout(std430, binding = GROUP_SYSTEMS_BINDING) restrict readonly buffer GroupSystems { uvec4 group_systems[]; };

int group_system_layer(uint system) { return int(group_systems[system].x); }
uvec2 group_system_flipbook(uint system) { return uvec2(group_systems[system].y & 0xFFFFu, group_systems[system].y >> 16); }
bool group_system_lit(uint system) { return group_systems[system].z != 0u; }
float group_system_soft_fade(uint system) { return uintBitsToFloat(group_systems[system].w); }
