# End-to-end tests of the tpusim command line.
add_executable(test_tpusim_cli test_cli.cpp)
target_link_libraries(test_tpusim_cli PRIVATE Catch2::Catch2WithMain)
target_compile_definitions(test_tpusim_cli PRIVATE TPUSIM_BIN="$<TARGET_FILE:tpusim_cli>"
                           TPUSIM_IR_SAMPLES="${PROJECT_SOURCE_DIR}/assets/ir-samples"
                           TPUSIM_IR_CORPUS="${CMAKE_CURRENT_SOURCE_DIR}/ir-corpus")
add_dependencies(test_tpusim_cli tpusim_cli)
tpu_course_warnings(test_tpusim_cli)
add_test(NAME tpusim.cli COMMAND test_tpusim_cli)

# The three landing rows, checked on the plain output as a reader sees it.
foreach(expected "697.7 µs" "41.1 µs" "122.8 µs")
    add_test(NAME "tpusim.bench_row ${expected}" COMMAND tpusim_cli bench --chip v5e)
    set_tests_properties("tpusim.bench_row ${expected}" PROPERTIES
        PASS_REGULAR_EXPRESSION "${expected}")
endforeach()
add_test(NAME tpusim.bad_chip_exits_2 COMMAND tpusim_cli bench --chip v9)
set_tests_properties(tpusim.bad_chip_exits_2 PROPERTIES WILL_FAIL TRUE)

# tpusim profile: the v6e profile's table, and a refusal in one line.
add_test(NAME tpusim.profile_table COMMAND tpusim_cli profile
         ${CMAKE_CURRENT_SOURCE_DIR}/profiles/xprof_tpu_inference_2.xplane.pb)
set_tests_properties(tpusim.profile_table PROPERTIES
    PASS_REGULAR_EXPRESSION "copy-done.4 +copy-done, host→HBM +jit_f +100 +194.4 ms")
add_test(NAME tpusim.profile_json_exact COMMAND tpusim_cli profile
         ${CMAKE_CURRENT_SOURCE_DIR}/profiles/xprof_tpu_inference_2.xplane.pb --device 0 --json)
set_tests_properties(tpusim.profile_json_exact PROPERTIES
    PASS_REGULAR_EXPRESSION "\"program_id\":12190760917235803885,\"occurrences\":100,\"total_ps\":19444140796250")
add_test(NAME tpusim.profile_mangled_exits_2 COMMAND tpusim_cli profile
         ${CMAKE_CURRENT_SOURCE_DIR}/profiles/xprof_tpu_inference_2.CORRUPT_utf8_mangled.xplane.pb)
set_tests_properties(tpusim.profile_mangled_exits_2 PROPERTIES WILL_FAIL TRUE)
