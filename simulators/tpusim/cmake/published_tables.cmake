# Builds the published timings (data/published/*.tsv) into `target` as a
# generated source, so nothing is read from disk at run time. Included by
# libtpusim's build and by the fuzz project, which builds the same sources.
set(TPUSIM_PUBLISHED_DIR ${CMAKE_CURRENT_LIST_DIR}/..)
function(tpusim_embed_published_tables target)
    file(GLOB tables CONFIGURE_DEPENDS ${TPUSIM_PUBLISHED_DIR}/data/published/*.tsv)
    list(SORT tables)
    set(generated ${CMAKE_CURRENT_BINARY_DIR}/published_tables.cpp)
    add_custom_command(
        OUTPUT ${generated}
        COMMAND ${CMAKE_COMMAND} -DOUTPUT=${generated} "-DTABLES=${tables}"
                -P ${TPUSIM_PUBLISHED_DIR}/cmake/embed_tables.cmake
        DEPENDS ${tables} ${TPUSIM_PUBLISHED_DIR}/cmake/embed_tables.cmake
        COMMENT "Building the published timings into ${target}"
        VERBATIM)
    target_sources(${target} PRIVATE ${generated})
endfunction()
