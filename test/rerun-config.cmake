# The resolved config.json of a run, run again, reproduces the run's outputs byte for byte
# (timing.json, wall-clock figures, excepted). Each run's timing.json names its peak RSS, what
# of it was on huge pages and the machine. Then the plots of the run exist and are not empty.
# Arguments: RUNNER, SCENARIO, OUT.
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${RUNNER} ${SCENARIO} --set stopTime="1ms" --set workloads.0.stop="500us"
                        --out ${OUT}/first RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "first run failed: ${rc}")
endif()
execute_process(COMMAND ${RUNNER} ${OUT}/first/config.json --out ${OUT}/second
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "rerun from config.json failed: ${rc}")
endif()
foreach(f config.json flows.csv collectives.csv queue.csv pfc.csv links.csv summary.json
          summary.csv)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/first/${f} ${OUT}/second/${f}
                  RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "${f} differs between the run and its rerun from config.json")
  endif()
endforeach()
foreach(run first second)
  file(READ ${OUT}/${run}/timing.json timing)
  if(NOT timing MATCHES "\"peakRssMB\": [1-9][0-9]*\\.[0-9]" OR
     NOT timing MATCHES "\"hugePagesMB\": (-1|[0-9]+)\\.[0-9]")
    message(FATAL_ERROR "${run}/timing.json names no peak RSS or huge pages: ${timing}")
  endif()
  # ... and the machine its figures belong to: the CPUs online and the kernel, as Linux says.
  if(NOT timing MATCHES "\"machine\": \"[^\"]*, [1-9][0-9]* CPUs?[;\"]" OR
     NOT timing MATCHES "\"machine\": \"[^\"]*; Linux [^\"]+\"")
    message(FATAL_ERROR "${run}/timing.json names no machine: ${timing}")
  endif()
endforeach()
foreach(p fct-cdf slowdown-vs-size queue)
  foreach(ext pdf png)
    file(SIZE ${OUT}/first/plots/${p}.${ext} size)
    if(NOT size GREATER 1000)
      message(FATAL_ERROR "plot ${p}.${ext} is missing or empty")
    endif()
  endforeach()
endforeach()
message(STATUS "rerun identical; plots written")
