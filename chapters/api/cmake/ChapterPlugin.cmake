# tpu_course_add_chapter(FOLDER [QML_FILES ...] [RESOURCES ...])
#
# Builds chapters/FOLDER as a Qt plugin (a MODULE library) whose
# Q_PLUGIN_METADATA is FOLDER/chapter.json plus "pages": the pieces with a
# page of their own, one for each pieces/<ID>.qml in QML_FILES, so the shell
# knows what a chapter offers without loading it. The plugin class is
# generated from one template, so a chapter folder holds only its metadata,
# its text and the QML of its pieces. Resources land under qrc:/chapters/<slug>/.
# The pieces' QML is compiled with the build (qmlcachegen), as the shell's
# is: a piece is then not parsed and compiled on the GUI thread the first
# time it is made, and its bindings run as compiled code.
set(_tpu_chapter_template ${CMAKE_CURRENT_LIST_DIR}/chapterplugin.h.in)

function(tpu_course_add_chapter folder)
    cmake_parse_arguments(ARG "" "" "QML_FILES;RESOURCES" ${ARGN})
    string(REGEX MATCH "^([0-9][0-9])-(.+)$" _ok "${folder}")
    if(NOT _ok)
        message(FATAL_ERROR "chapter folder '${folder}' is not named NN-slug")
    endif()
    set(number ${CMAKE_MATCH_1})
    set(slug ${CMAKE_MATCH_2})
    string(MAKE_C_IDENTIFIER "${slug}" slug_id)
    set(target chapter_${number}_${slug_id})
    set(CHAPTER_CLASS "Chapter${number}Plugin")
    set(CHAPTER_SLUG "${slug}")
    set(CHAPTER_JSON "${CMAKE_CURRENT_BINARY_DIR}/chapter.json")

    set(pages "")
    foreach(qml ${ARG_QML_FILES})
        if(qml MATCHES "^pieces/([A-Z]+[0-9]+)\\.qml$")
            list(APPEND pages "\"${CMAKE_MATCH_1}\"")
        endif()
    endforeach()
    list(JOIN pages ", " pages)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/chapter.json)
    file(READ ${CMAKE_CURRENT_SOURCE_DIR}/chapter.json metadata)
    string(JSON metadata SET "${metadata}" pages "[${pages}]")
    file(WRITE ${CHAPTER_JSON}.new "${metadata}\n")
    configure_file(${CHAPTER_JSON}.new ${CHAPTER_JSON} COPYONLY)  # touched only when it changes

    set(header ${CMAKE_CURRENT_BINARY_DIR}/chapter${number}plugin.h)
    configure_file(${_tpu_chapter_template} ${header} @ONLY)

    qt_add_plugin(${target} CLASS_NAME ${CHAPTER_CLASS})
    # The app's own build (course_app) waits for every chapter.
    set_property(GLOBAL APPEND PROPERTY TPU_COURSE_CHAPTER_TARGETS ${target})
    target_sources(${target} PRIVATE ${header} ${CHAPTER_JSON})
    target_link_libraries(${target} PRIVATE chapter_interface Qt6::Qml)
    # Only the plugin's own source: the compiled QML's sources are Qt's.
    tpu_course_source_warnings(${header})
    set_target_properties(${target} PROPERTIES
        LIBRARY_OUTPUT_DIRECTORY ${TPU_COURSE_PLUGIN_DIR}
        OUTPUT_NAME "chapter${number}")

    set(texts intro.md)
    if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/text.md)
        list(APPEND texts text.md)
    endif()
    qt_add_resources(${target} "${target}_text"
        PREFIX "/chapters/${slug}"
        FILES ${texts})
    if(ARG_QML_FILES OR ARG_RESOURCES)
        # A module of its own only to be compiled: the shell makes the
        # pieces by their qrc:/chapters/<slug>/ paths, never by importing it.
        qt_add_qml_module(${target}
            URI TpuCourse.Chapter${number}
            VERSION 1.0
            NO_PLUGIN
            OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/qml/TpuCourse/Chapter${number})
        qt_target_qml_sources(${target}
            PREFIX "/chapters/${slug}"
            QML_FILES ${ARG_QML_FILES}
            RESOURCES ${ARG_RESOURCES})
    endif()
    add_dependencies(tpu_course_chapters ${target})
    install(TARGETS ${target} LIBRARY DESTINATION ${TPU_COURSE_INSTALL_PLUGINDIR})
endfunction()
