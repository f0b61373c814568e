# Builds tests/sanitized with clang (ASan + UBSan) and runs the progress
# store's tests there, then the run-record fuzzer for SECONDS, seeded with
# the shipped example records and the kept regressions. Run by ctest as
#   cmake -DSOURCE_DIR=<repo> -DWORK_DIR=<dir> -DTPUSIM_LIB=<libtpusim.a> [-DSECONDS=N] -P run.cmake
# Prints "sanitized build skipped" (which ctest reports as skipped) only
# when no clang is installed.
# Seconds each fuzzer runs: TPU_COURSE_FUZZ_SECONDS (./course fuzz sets 30),
# else SECONDS, else a short run that still replays every seed and every
# input that once broke a target.
if(DEFINED ENV{TPU_COURSE_FUZZ_SECONDS})
    set(SECONDS $ENV{TPU_COURSE_FUZZ_SECONDS})
elseif(NOT SECONDS)
    set(SECONDS 5)
endif()
include(${CMAKE_CURRENT_LIST_DIR}/../clang_project.cmake)
if(NOT CLANGXX)
    message("sanitized build skipped: no clang++ found (install clang-14 and libclang-rt-14-dev)")
    return()
endif()
build_with_clang(${SOURCE_DIR}/tests/sanitized "the sanitized store and records" -DCMAKE_BUILD_TYPE=Debug
                 -DTPUSIM_LIB=${TPUSIM_LIB})

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
fresh_corpus(${corpus})
file(GLOB seeds ${SOURCE_DIR}/assets/labs/examples/*.json ${SOURCE_DIR}/tests/simulators/fuzz-regressions/*.run-record)
file(COPY ${seeds} DESTINATION ${corpus})
run_fuzzer(fuzz_run_record ${corpus} 16384)
