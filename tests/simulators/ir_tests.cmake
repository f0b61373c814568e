# Tests of the IR parsers, dot_general semantics, the cross-layer links and
# the fusion pass. The sample dumps are read from assets/ir-samples.
add_executable(test_tpusim_ir
    test_ir_dot.cpp
    test_ir_samples.cpp
    test_ir_parse.cpp
    test_ir_errors.cpp
    test_ir_xref.cpp
)
target_link_libraries(test_tpusim_ir PRIVATE tpusim::tpusim Catch2::Catch2WithMain)
target_compile_definitions(test_tpusim_ir PRIVATE
    TPUSIM_IR_SAMPLES="${PROJECT_SOURCE_DIR}/assets/ir-samples")
tpu_course_warnings(test_tpusim_ir)
add_test(NAME tpusim_ir COMMAND test_tpusim_ir)
