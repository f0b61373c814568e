# Builds the fuzz targets with clang and runs each for a bounded time: the IR
# parsers seeded with the sample dumps and the real dumps of
# tests/simulators/ir-corpus (libFuzzer reads the first max_len bytes of the
# large ones), the index-map language on a few maps (two leading characters
# pick the grid and array ranks). Run by ctest as
#   cmake -DSOURCE_DIR=<repo> -DWORK_DIR=<dir> [-DSECONDS=10] -P run_ir_fuzz.cmake
# Prints "IR fuzzing skipped" (which ctest reports as skipped) only when no
# clang with libFuzzer is installed.
if(NOT SECONDS)
    set(SECONDS 10)
endif()
find_program(CLANGXX NAMES clang++-14 clang++)
if(NOT CLANGXX)
    message("IR fuzzing skipped: no clang++ found (install clang-14 and libclang-rt-14-dev)")
    return()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/simulators/fuzz -B ${WORK_DIR}/build -G Ninja
                        -DCMAKE_CXX_COMPILER=${CLANGXX} -DCMAKE_BUILD_TYPE=Release
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configuring the fuzz targets failed")
endif()
# Without the folder in ccache's hash, a clone elsewhere reuses these objects
# (built with -g, which would otherwise tie them to this folder).
execute_process(COMMAND ${CMAKE_COMMAND} -E env CCACHE_NOHASHDIR=1 ${CMAKE_COMMAND} --build ${WORK_DIR}/build -j2
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "building the fuzz targets failed (is libclang-rt-14-dev installed?)")
endif()
# Runs one fuzz target on a corpus for SECONDS; any failure stops the test
# with the fuzzer's log.
function(run_fuzzer target corpus max_len)
    execute_process(COMMAND ${WORK_DIR}/build/${target} -max_total_time=${SECONDS} -runs=2000000
                            -timeout=5 -rss_limit_mb=2048 -max_len=${max_len} -print_final_stats=1 ${corpus}
                    RESULT_VARIABLE rc ERROR_VARIABLE log)
    string(REGEX MATCH "stat::number_of_executed_units: *[0-9]+" runs "${log}")
    message("${target}: exit ${rc}, ${runs}")
    if(NOT rc EQUAL 0)
        message("${log}")
        message(FATAL_ERROR "${target} found a failure")
    endif()
endfunction()

# A fresh copy of the seeds each run keeps the source tree clean.
function(fresh_corpus corpus)
    file(REMOVE_RECURSE ${corpus})
    file(MAKE_DIRECTORY ${corpus})
endfunction()

set(globs_jaxpr "*.jaxpr")
set(globs_stablehlo "*.mlir")
set(globs_hlo "*.hlo")
foreach(format jaxpr stablehlo hlo)
    set(corpus ${WORK_DIR}/corpus_${format})
    fresh_corpus(${corpus})
    file(GLOB seeds ${SOURCE_DIR}/assets/ir-samples/${globs_${format}}
                    ${SOURCE_DIR}/tests/simulators/ir-corpus/${globs_${format}}
                    ${SOURCE_DIR}/tests/simulators/fuzz-regressions/${globs_${format}})
    file(COPY ${seeds} DESTINATION ${corpus})
    run_fuzzer(fuzz_ir_${format} ${corpus} 65536)
endforeach()

set(corpus ${WORK_DIR}/corpus_index_map)
fresh_corpus(${corpus})
set(index_maps "21lambda i, j, k: (i, k)" "21(i, j, k) -> (i + 1, 2 * k - j)" "20lambda i, j, k: (-(i - 3),)"
               "13lambda a, b: (a, b, 0, 7)" "21lambda i, j, k: (i // 2, k)")
set(n 0)
foreach(seed IN LISTS index_maps)
    math(EXPR n "${n} + 1")
    file(WRITE ${corpus}/seed${n} "${seed}")
endforeach()
file(GLOB seeds ${SOURCE_DIR}/tests/simulators/fuzz-regressions/*.index-map)
file(COPY ${seeds} DESTINATION ${corpus})
# As long as the sandbox's text field takes, so nesting can grow deep.
run_fuzzer(fuzz_index_map ${corpus} 32767)

# The semaphore language, seeded with the shipped programs (a leading byte
# picks the device count).
set(corpus ${WORK_DIR}/corpus_semaphores)
fresh_corpus(${corpus})
file(GLOB seeds ${SOURCE_DIR}/assets/semaphores/*.sem ${SOURCE_DIR}/tests/simulators/fuzz-regressions/*.sem)
foreach(seed IN LISTS seeds)
    get_filename_component(name ${seed} NAME)
    file(READ ${seed} text)
    file(WRITE ${corpus}/${name} "4${text}")
endforeach()
run_fuzzer(fuzz_semaphores ${corpus} 16384)

# The profile reader, from real profiles cut to the fuzzer's length and a
# small trace JSON.
set(corpus ${WORK_DIR}/corpus_profile)
fresh_corpus(${corpus})
file(GLOB seeds ${SOURCE_DIR}/tests/simulators/profiles/*.xplane.pb
                ${SOURCE_DIR}/tests/simulators/fuzz-regressions/*.profile)
file(COPY ${seeds} DESTINATION ${corpus})
file(WRITE ${corpus}/trace.json "{\"traceEvents\":[{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"/device:TPU:0\"}},{\"ph\":\"M\",\"pid\":1,\"tid\":2,\"name\":\"thread_name\",\"args\":{\"name\":\"XLA Ops\"}},{\"ph\":\"X\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":3,\"name\":\"fusion.1\"}]}")
run_fuzzer(fuzz_profile ${corpus} 65536)

# The drills' typed answers, seeded with answers as learners type them: the
# first three bytes pick the card kind, the level and the seed (by their
# values modulo the counts).
set(corpus ${WORK_DIR}/corpus_drill_answers)
fresh_corpus(${corpus})
set(answers "aaa697.7 µs\n12x\nMXU" "bbf 4,096 \n4.1 ms\nHBM" "ccjf32[8,128]\n1,048,576\n[2] x [1]"
            "dabyes\n2.5 MiB" "ebcno\n16 MB\nit does not fit" "fcd(8, 128, 512)\n1 x 0"
            "gae ring \n1.05e6\n12 FLOP/B")
set(n 0)
foreach(seed IN LISTS answers)
    math(EXPR n "${n} + 1")
    file(WRITE ${corpus}/seed${n} "${seed}")
endforeach()
file(GLOB seeds ${SOURCE_DIR}/tests/simulators/fuzz-regressions/*.drill-answer)
file(COPY ${seeds} DESTINATION ${corpus})
run_fuzzer(fuzz_drill_answers ${corpus} 4096)
