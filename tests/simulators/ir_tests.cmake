# Tests of the IR parsers, dot_general semantics, the cross-layer links and
# the fusion pass. The sample dumps are read from assets/ir-samples.
add_executable(test_tpusim_ir
    test_ir_dot.cpp
    test_ir_sharding.cpp
    test_ir_samples.cpp
    test_ir_parse.cpp
    test_ir_errors.cpp
    test_ir_names.cpp
    test_ir_xref.cpp
    test_ir_roundtrip.cpp
    test_ir_corpus.cpp
    test_ir_layouts.cpp
    test_fusion.cpp
    test_fusion_map.cpp
    test_hlo_loops.cpp
)
target_link_libraries(test_tpusim_ir PRIVATE tpusim::tpusim Catch2::Catch2WithMain)
target_compile_definitions(test_tpusim_ir PRIVATE
    TPUSIM_IR_SAMPLES="${PROJECT_SOURCE_DIR}/assets/ir-samples"
    TPUSIM_IR_CORPUS="${CMAKE_CURRENT_SOURCE_DIR}/ir-corpus")
tpu_course_warnings(test_tpusim_ir)
target_precompile_headers(test_tpusim_ir PRIVATE <catch2/catch.hpp>)
add_test(NAME tpusim.ir COMMAND test_tpusim_ir)

# The fuzz targets under libFuzzer with ASan and UBSan (built with clang in
# a project of their own), seeded with the sample dumps: 5 s each in
# ./course test, 30 s each in ./course fuzz (TPU_COURSE_FUZZ_SECONDS).
add_test(NAME tpusim.ir_fuzz
         COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${PROJECT_SOURCE_DIR}
                 -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/ir_fuzz
                 -P ${CMAKE_CURRENT_SOURCE_DIR}/run_ir_fuzz.cmake)
set_tests_properties(tpusim.ir_fuzz PROPERTIES TIMEOUT 900 LABELS fuzz
                     SKIP_REGULAR_EXPRESSION "IR fuzzing skipped")

# The command line on the samples, as a script would use it.
set(IR_SAMPLES ${PROJECT_SOURCE_DIR}/assets/ir-samples)
add_test(NAME tpusim.ir_decode_json COMMAND tpusim_cli ir decode ${IR_SAMPLES}/attention.stablehlo.mlir --json)
set_tests_properties(tpusim.ir_decode_json PROPERTIES PASS_REGULAR_EXPRESSION
    "\"lhs_shape\":\\[4,256,64\\],\"rhs_shape\":\\[4,256,64\\],\"output_shape\":\\[4,256,256\\].*\"flops\":33554432,.*\"line\":29")
add_test(NAME tpusim.ir_decode_format COMMAND tpusim_cli ir decode ${IR_SAMPLES}/scores.jaxpr --format jaxpr)
set_tests_properties(tpusim.ir_decode_format PROPERTIES PASS_REGULAR_EXPRESSION "f32\\[128,256\\] +4194304")
add_test(NAME tpusim.ir_bad_dump_exits_2 COMMAND tpusim_cli ir decode ${CMAKE_CURRENT_SOURCE_DIR}/corpus/bad_dims.hlo)
set_tests_properties(tpusim.ir_bad_dump_exits_2 PROPERTIES WILL_FAIL TRUE)
add_test(NAME tpusim.fusion_attention COMMAND tpusim_cli fusion attention --chip v5e)
set_tests_properties(tpusim.fusion_attention PROPERTIES PASS_REGULAR_EXPRESSION
    "Not streaming attention: the score matrix 'scaled'")
add_test(NAME tpusim.fusion_hlo COMMAND tpusim_cli fusion ${IR_SAMPLES}/mlp.hlo --json)
set_tests_properties(tpusim.fusion_hlo PROPERTIES PASS_REGULAR_EXPRESSION "\"kind\":\"output\".*\"kind\":\"output\"")
