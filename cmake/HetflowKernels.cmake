# Embeds a module's OpenCL C files into the binary, so the kernel registry finds kernels by name
# ("lbm/lbm.cl") and the binary never reads kernel files at run time. Each module registers its own:
# editing lbm/lbm.cl rebuilds only lbm's table.
set(HETFLOW_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_kernels.cmake)

# The .cl files under root/module (recursively) become `target`_kernels, a library of one generated
# file that registers them at start-up. `target` links it whole: nothing refers to its symbols, so a
# plain static link would leave it out.
function(hetflow_module_kernels target root module)
  file(GLOB_RECURSE cl_files CONFIGURE_DEPENDS RELATIVE ${root} ${root}/${module}/*.cl)
  if(NOT cl_files)
    return()
  endif()
  list(SORT cl_files)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${module}_kernels.cpp)
  # A CMake list would split into several shell words; pass the names comma-separated instead.
  string(REPLACE ";" "," cl_names "${cl_files}")
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DROOT=${root} -DFILES=${cl_names} -DOUT=${out} -P ${HETFLOW_EMBED_SCRIPT}
    DEPENDS ${HETFLOW_EMBED_SCRIPT} ${cl_files}
    WORKING_DIRECTORY ${root}
    COMMENT "Embedding the OpenCL kernels of ${module}")
  add_library(${target}_kernels STATIC ${out})
  target_include_directories(${target}_kernels PRIVATE ${PROJECT_SOURCE_DIR}/src)
  target_link_libraries(${target} PUBLIC "$<LINK_LIBRARY:WHOLE_ARCHIVE,${target}_kernels>")
endfunction()
