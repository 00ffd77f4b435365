# Run at every build (cmake -DSOURCE_DIR=... -DOUTPUT=... -P write_commit.cmake): writes OUTPUT, the
# definition of hetflow::git_commit(), naming the commit of SOURCE_DIR's HEAD, with "-dirty" when tracked
# files differ from it, or the environment's HETFLOW_COMMIT for a copy of a tree whose .git is not the one
# it came from. OUTPUT is rewritten only when the commit changes, so only it recompiles.
if(DEFINED ENV{HETFLOW_COMMIT})
  set(commit "$ENV{HETFLOW_COMMIT}")
else()
  execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SOURCE_DIR}
    OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(commit)
    execute_process(COMMAND git diff --quiet HEAD -- WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE dirty
      ERROR_QUIET)
    if(NOT dirty EQUAL 0)
      string(APPEND commit "-dirty")
    endif()
  else()
    set(commit "unknown")
  endif()
endif()
string(CONCAT text "// Generated at every build by cmake/write_commit.cmake.\n"
  "#include \"hetflow/commit.hpp\"\n\n"
  "const char* hetflow::git_commit() { return \"${commit}\"; }\n")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUTPUT} "${text}")
endif()
