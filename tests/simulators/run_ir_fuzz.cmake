# Builds the fuzz targets with clang and runs each for a bounded time: the IR
# parsers seeded with the sample dumps and the real dumps of
# tests/simulators/ir-corpus (libFuzzer reads the first max_len bytes of the
# large ones), the index-map language on a few maps (two leading characters
# pick the grid and array ranks). Run by ctest as
#   cmake -DSOURCE_DIR=<repo> -DWORK_DIR=<dir> [-DSECONDS=N] -P run_ir_fuzz.cmake
# Prints "IR fuzzing skipped" (which ctest reports as skipped) only when no
# clang with libFuzzer is installed.
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
    message("IR fuzzing skipped: no clang++ found (install clang-14 and libclang-rt-14-dev)")
    return()
endif()
build_with_clang(${SOURCE_DIR}/simulators/fuzz "the fuzz targets" -DCMAKE_BUILD_TYPE=Release)

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
