#pragma once
#include "hetflow/fem/msh_content.hpp"
#include "hetflow/fem/msh_cursor.hpp"

namespace hetflow::fem {

// The sections of binary .msh files (Gmsh reference manual, "MSH file format"), read from the cursor
// just after their $Section line up to their $EndSection line. Format 2.2 stores ids as int, format
// 4.1 counts and ids as size_t (the header's data size, 8) and tags as int; coordinates are doubles.
void read_binary_check(MshCursor& at);  // the int 1 after the format line: the byte order is native
void read_nodes_v2_binary(MshCursor& at, MshContent& content);
void read_elements_v2_binary(MshCursor& at, MshContent& content);
void read_entities_v4_binary(MshCursor& at, SurfaceGroups& groups);
void read_nodes_v4_binary(MshCursor& at, MshContent& content);
void read_elements_v4_binary(MshCursor& at, MshContent& content, const SurfaceGroups& groups);

}  // namespace hetflow::fem
