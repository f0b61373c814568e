# Tests of the semaphore model and of `tpusim semaphores`; the shipped
# programs are read from assets/semaphores.
add_executable(test_tpusim_semaphores test_semaphores.cpp)
target_link_libraries(test_tpusim_semaphores PRIVATE tpusim::tpusim Catch2::Catch2WithMain)
target_compile_definitions(test_tpusim_semaphores PRIVATE
    TPUSIM_SEM_ASSETS="${PROJECT_SOURCE_DIR}/assets/semaphores")
tpu_course_warnings(test_tpusim_semaphores)
add_test(NAME tpusim.semaphores COMMAND test_tpusim_semaphores)

# The command line: the verdict in the JSON, and one line plus status 2 on bad text.
set(sem_assets "${PROJECT_SOURCE_DIR}/assets/semaphores")
foreach(case "ring_all_gather;ok" "ring_all_gather_deadlock_cycle;deadlock"
             "reduce_scatter_bidirectional_race_no_recv_wait;race"
             "ring_all_gather_nonzero_send_never_waited;nonzero-semaphore")
    list(GET case 0 file)
    list(GET case 1 status)
    add_test(NAME "tpusim.semaphores_cli ${file}"
             COMMAND tpusim_cli semaphores "${sem_assets}/${file}.sem" --devices 4 --json)
    set_tests_properties("tpusim.semaphores_cli ${file}" PROPERTIES
        PASS_REGULAR_EXPRESSION "\"status\":\"${status}\"")
endforeach()
add_test(NAME tpusim.semaphores_cli_missing_file_exits_2
         COMMAND tpusim_cli semaphores "${sem_assets}/no_such_program.sem")
set_tests_properties(tpusim.semaphores_cli_missing_file_exits_2 PROPERTIES WILL_FAIL TRUE)
