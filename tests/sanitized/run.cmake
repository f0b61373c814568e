# Builds tests/sanitized with clang (ASan + UBSan) and runs the progress
# store's tests there, then the run-record fuzzer for SECONDS, seeded with
# the shipped example records and the kept regressions. Run by ctest as
#   cmake -DSOURCE_DIR=<repo> -DWORK_DIR=<dir> -DTPUSIM_LIB=<libtpusim.a> [-DSECONDS=30] -P run.cmake
# Prints "sanitized build skipped" (which ctest reports as skipped) only
# when no clang is installed.
if(NOT SECONDS)
    set(SECONDS 30)
endif()
find_program(CLANGXX NAMES clang++-14 clang++)
if(NOT CLANGXX)
    message("sanitized build skipped: no clang++ found (install clang-14 and libclang-rt-14-dev)")
    return()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/sanitized -B ${WORK_DIR}/build -G Ninja
                        -DCMAKE_CXX_COMPILER=${CLANGXX} -DCMAKE_BUILD_TYPE=Debug -DTPUSIM_LIB=${TPUSIM_LIB}
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configuring the sanitized build failed")
endif()
# Without the folder in ccache's hash, a clone elsewhere reuses these objects.
execute_process(COMMAND ${CMAKE_COMMAND} -E env CCACHE_NOHASHDIR=1 ${CMAKE_COMMAND} --build ${WORK_DIR}/build -j2
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "building the sanitized store and records failed")
endif()

# The store's own tests, every one, under the sanitizers.
execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --output-on-failure -j2
                WORKING_DIRECTORY ${WORK_DIR}/build RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
string(REGEX MATCH "[0-9]+% tests passed[^\n]*" summary "${log}")
message("progress store under ASan + UBSan: ${summary}")
if(NOT rc EQUAL 0)
    message("${log}")
    message(FATAL_ERROR "the progress store's tests failed under the sanitizers")
endif()

set(corpus ${WORK_DIR}/corpus_run_record)
file(REMOVE_RECURSE ${corpus})
file(MAKE_DIRECTORY ${corpus})
file(GLOB seeds ${SOURCE_DIR}/assets/labs/examples/*.json ${SOURCE_DIR}/tests/simulators/fuzz-regressions/*.run-record)
file(COPY ${seeds} DESTINATION ${corpus})
execute_process(COMMAND ${WORK_DIR}/build/fuzz_run_record -max_total_time=${SECONDS} -timeout=5 -rss_limit_mb=2048
                        -max_len=16384 -print_final_stats=1 ${corpus}
                WORKING_DIRECTORY ${WORK_DIR}
                RESULT_VARIABLE rc ERROR_VARIABLE log)
string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" runs "${log}")
message("fuzz_run_record: exit ${rc}, ${runs}")
if(NOT rc EQUAL 0)
    message("${log}")
    message(FATAL_ERROR "fuzz_run_record found a failure")
endif()
