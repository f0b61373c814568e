# Shared by the ctest scripts that build a project of this repository with
# clang (for libFuzzer and the sanitizers) and run what it built: included
# after SOURCE_DIR, WORK_DIR and SECONDS are set. CLANGXX is left empty when
# no clang is installed; the script then says it skipped.
find_program(CLANGXX NAMES clang++-14 clang++)

# Configures the project in `source` with clang into WORK_DIR/build, with
# the arguments that follow, and builds it; a failure stops the script,
# naming `what`.
function(build_with_clang source what)
    execute_process(COMMAND ${CMAKE_COMMAND} -S ${source} -B ${WORK_DIR}/build -G Ninja
                            -DCMAKE_CXX_COMPILER=${CLANGXX} ${ARGN}
                    RESULT_VARIABLE rc OUTPUT_QUIET)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "configuring ${what} failed")
    endif()
    # Without the folder in ccache's hash, a clone elsewhere reuses these
    # objects (built with -g, which would otherwise tie them to this folder).
    execute_process(COMMAND ${CMAKE_COMMAND} -E env CCACHE_NOHASHDIR=1 ${CMAKE_COMMAND} --build ${WORK_DIR}/build -j2
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "building ${what} failed (is libclang-rt-14-dev installed?)")
    endif()
endfunction()

# A fresh copy of the seeds each run keeps the source tree clean.
function(fresh_corpus corpus)
    file(REMOVE_RECURSE ${corpus})
    file(MAKE_DIRECTORY ${corpus})
endfunction()

# Runs the fuzz target WORK_DIR/build/`target` on `corpus` for SECONDS;
# any failure stops the script with the fuzzer's log.
function(run_fuzzer target corpus max_len)
    execute_process(COMMAND ${WORK_DIR}/build/${target} -max_total_time=${SECONDS} -runs=2000000
                            -timeout=5 -rss_limit_mb=2048 -max_len=${max_len} -print_final_stats=1 ${corpus}
                    WORKING_DIRECTORY ${WORK_DIR}
                    RESULT_VARIABLE rc ERROR_VARIABLE log)
    string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" runs "${log}")
    message("${target}: exit ${rc}, ${runs}")
    if(NOT rc EQUAL 0)
        message("${log}")
        message(FATAL_ERROR "${target} found a failure")
    endif()
endfunction()
