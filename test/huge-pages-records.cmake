# A run with its heap on transparent huge pages, as ./interconnect starts it
# (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), writes the same records as the run on 4 KB pages, byte
# for byte (timing.json excepted): where memory lies changes no record. The run on huge pages must
# have had some of its memory on them (timing.json's hugePagesMB), or the comparison proves
# nothing; where the kernel gives none (transparent_hugepage/enabled is "never"), or the program's
# heap is not glibc's (a build with the sanitizers, SANITIZED: AddressSanitizer's allocator takes
# no glibc tunable), the test is skipped (its output says SKIPPED).
# Arguments: RUNNER, SCENARIO, OUT, SANITIZED.
file(REMOVE_RECURSE ${OUT})
if(SANITIZED)
  message(STATUS "SKIPPED: built with the sanitizers, whose allocator is not glibc's")
  return()
endif()
set(thp /sys/kernel/mm/transparent_hugepage/enabled)
if(NOT EXISTS ${thp})
  message(STATUS "SKIPPED: no ${thp}: the kernel has no transparent huge pages")
  return()
endif()
file(READ ${thp} mode)
if(mode MATCHES "\\[never\\]")
  message(STATUS "SKIPPED: transparent huge pages are off on this machine (${thp}: ${mode})")
  return()
endif()
execute_process(COMMAND ${RUNNER} ${SCENARIO} --set stopTime=1ms --set output.plots=false
                        --out ${OUT}/small-pages
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the run on 4 KB pages failed: ${rc}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env GLIBC_TUNABLES=glibc.malloc.hugetlb=1 ${RUNNER}
                        ${SCENARIO} --set stopTime=1ms --set output.plots=false
                        --out ${OUT}/huge-pages
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the run on huge pages failed: ${rc}")
endif()
file(READ ${OUT}/huge-pages/timing.json timing)
if(NOT timing MATCHES "\"hugePagesMB\": ([0-9]+)\\.[0-9]" OR CMAKE_MATCH_1 EQUAL 0)
  message(FATAL_ERROR "the run with glibc.malloc.hugetlb=1 had nothing on huge pages: ${timing}")
endif()
set(megabytes ${CMAKE_MATCH_1})
foreach(f flows.csv collectives.csv queue.csv pfc.csv links.csv slowdown.csv summary.json
          summary.csv)
  if(EXISTS ${OUT}/small-pages/${f} OR EXISTS ${OUT}/huge-pages/${f})
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/small-pages/${f}
                            ${OUT}/huge-pages/${f}
                    RESULT_VARIABLE differ)
    if(differ)
      message(FATAL_ERROR "${f} differs between the run on 4 KB pages and on huge pages")
    endif()
  endif()
endforeach()
message(STATUS "the same records with ${megabytes} MB on huge pages")
