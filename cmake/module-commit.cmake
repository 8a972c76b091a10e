# Writes OUT, a header that defines INTERCONNECT_MODULE_COMMIT: the module's git commit, with
# "-dirty" when tracked files differ from it, so that every run records the code that made it.
# Run at every build (cmake -P), it rewrites OUT only when the text changes, so that an
# unchanged checkout recompiles nothing. A copy of the module that is not a git checkout of its
# own (contrib/interconnect of an ns-3 tree) reads cmake/module-commit.txt, which the copy
# scripts write (scripts/ns3-source.sh); else the commit is "unknown".
# Arguments: SOURCE_DIR, OUT.
set(commit "unknown")
get_filename_component(source "${SOURCE_DIR}" REALPATH)
find_program(INTERCONNECT_GIT git)
if(INTERCONNECT_GIT)
  execute_process(COMMAND ${INTERCONNECT_GIT} -C "${source}" rev-parse --show-toplevel
                  OUTPUT_VARIABLE top RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET)
  if(rc EQUAL 0)
    get_filename_component(top "${top}" REALPATH)
  endif()
endif()
if(INTERCONNECT_GIT AND rc EQUAL 0 AND top STREQUAL source)
  execute_process(COMMAND ${INTERCONNECT_GIT} -C "${source}" rev-parse HEAD OUTPUT_VARIABLE head
                  RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(rc EQUAL 0)
    execute_process(COMMAND ${INTERCONNECT_GIT} -C "${source}" status --porcelain
                            --untracked-files=no OUTPUT_VARIABLE changes ERROR_QUIET)
    set(commit "${head}")
    if(NOT changes STREQUAL "")
      string(APPEND commit "-dirty")
    endif()
  endif()
elseif(EXISTS "${source}/cmake/module-commit.txt")
  file(STRINGS "${source}/cmake/module-commit.txt" commit LIMIT_COUNT 1)
  if(NOT commit MATCHES "^[0-9a-f]+(-dirty)?$")
    set(commit "unknown")
  endif()
endif()
set(text "#define INTERCONNECT_MODULE_COMMIT \"${commit}\"\n")
set(old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
