# Embeds every OpenCL C file under a source root into one generated C++ file, so the kernel registry
# finds kernels by name ("core/probe.cl") and the binary never reads kernel files at run time.
set(HETFLOW_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_kernels.cmake)

function(hetflow_embed_kernels out_var root)
  file(GLOB_RECURSE cl_files CONFIGURE_DEPENDS RELATIVE ${root} ${root}/*.cl)
  list(SORT cl_files)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/embedded_kernels.cpp)
  # A CMake list would split into several shell words; pass the names comma-separated instead.
  string(REPLACE ";" "," cl_names "${cl_files}")
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DROOT=${root} -DFILES=${cl_names} -DOUT=${out} -P ${HETFLOW_EMBED_SCRIPT}
    DEPENDS ${HETFLOW_EMBED_SCRIPT} ${cl_files}
    WORKING_DIRECTORY ${root}
    COMMENT "Embedding OpenCL kernels")
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()
