# Writes OUTPUT, a C++ source holding each TSV table named in TABLES (a
# ;-list of paths) as a string, so the library carries its data and reads
# no file at run time. Run as `cmake -DOUTPUT=... -DTABLES=... -P` at build
# time, whenever a table changes.
set(body "// Generated from simulators/tpusim/data/published/*.tsv at build time.\n#include \"published_tables.h\"\n\nnamespace tpusim::detail {\n\nconst std::vector<EmbeddedTable>& published_tables() {\n    static const std::vector<EmbeddedTable> tables{\n")
foreach(path IN LISTS TABLES)
    get_filename_component(name "${path}" NAME)
    file(READ "${path}" content)
    string(FIND "${content}" ")tsv\"" clash)
    if(NOT clash EQUAL -1)
        message(FATAL_ERROR "${name} holds the text )tsv\" and cannot be embedded")
    endif()
    string(APPEND body "        {\"${name}\", R\"tsv(${content})tsv\"},\n")
endforeach()
string(APPEND body "    };\n    return tables;\n}\n\n}  // namespace tpusim::detail\n")
file(WRITE "${OUTPUT}.tmp" "${body}")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
