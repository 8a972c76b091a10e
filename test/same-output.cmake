# Run PROGRAM twice with the same arguments (ARGS, a ;-list) into OUT/a and OUT/b and fail
# unless every output file is byte-identical: same seed, same output.
file(REMOVE_RECURSE ${OUT})
foreach(run a b)
  execute_process(COMMAND ${PROGRAM} ${ARGS} --out=${OUT}/${run} RESULT_VARIABLE rc
                  OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} exited with ${rc}")
  endif()
endforeach()
file(GLOB_RECURSE outputs RELATIVE ${OUT}/a ${OUT}/a/*)
list(LENGTH outputs n)
if(n EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} wrote nothing into ${OUT}/a")
endif()
foreach(f ${outputs})
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/a/${f} ${OUT}/b/${f}
                  RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "${f} differs between two runs with the same seed")
  endif()
endforeach()
message(STATUS "identical: ${outputs}")
