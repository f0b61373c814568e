#!/bin/sh
# qmllint over every QML file of the course, against the modules the build
# generated (their qmldir and qmltypes). The count of warnings may not pass
# the ceiling, which is now 0: any warning fails and is printed.
#   lint.sh QMLLINT BUILD_DIR SOURCE_DIR CEILING_FILE
set -eu
qmllint=$1 build=$2 src=$3 ceiling_file=$4
ceiling=$(tr -cd '0-9' < "$ceiling_file")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
cd "$src"
find app chapters progress simulators -name '*.qml' | sort > "$out.files"
trap 'rm -f "$out" "$out.files"' EXIT
# qmllint exits non-zero whenever it warns; the count decides here.
xargs "$qmllint" -I "$build/qml" < "$out.files" > "$out" 2>&1 || true
count=$(grep -c '^Warning' "$out" || true)
files=$(wc -l < "$out.files")
echo "qmllint: $count warnings over $files QML files (ceiling $ceiling)"
if [ "$count" -gt "$ceiling" ]; then
    grep '^Warning' "$out" | head -60
    echo "qmllint: $count warnings, more than the ceiling of $ceiling in $ceiling_file: fix the new ones" >&2
    exit 1
fi
if [ "$count" -lt "$ceiling" ]; then
    echo "qmllint: fewer warnings than the ceiling; lower $ceiling_file to $count"
fi
