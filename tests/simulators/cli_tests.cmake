# End-to-end tests of the tpusim command line.
add_executable(test_tpusim_cli test_cli.cpp)
target_link_libraries(test_tpusim_cli PRIVATE Catch2::Catch2WithMain)
target_compile_definitions(test_tpusim_cli PRIVATE TPUSIM_BIN="$<TARGET_FILE:tpusim_cli>"
                           TPUSIM_IR_SAMPLES="${PROJECT_SOURCE_DIR}/assets/ir-samples"
                           TPUSIM_IR_CORPUS="${CMAKE_CURRENT_SOURCE_DIR}/ir-corpus")
add_dependencies(test_tpusim_cli tpusim_cli)
tpu_course_warnings(test_tpusim_cli)
add_test(NAME tpusim_cli COMMAND test_tpusim_cli)

# The three landing rows, checked on the plain output as a reader sees it.
foreach(expected "697.7 µs" "41.1 µs" "122.8 µs")
    add_test(NAME "tpusim_bench_row ${expected}" COMMAND tpusim_cli bench --chip v5e)
    set_tests_properties("tpusim_bench_row ${expected}" PROPERTIES
        PASS_REGULAR_EXPRESSION "${expected}")
endforeach()
add_test(NAME tpusim_bad_chip_exits_2 COMMAND tpusim_cli bench --chip v9)
set_tests_properties(tpusim_bad_chip_exits_2 PROPERTIES WILL_FAIL TRUE)
