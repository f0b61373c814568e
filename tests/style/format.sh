#!/bin/sh
# Every C++ file of the repository as its folder's .clang-format writes it
# (the root's style for the Qt-free libraries, Qt's where a folder links
# app/.clang-format). Prints the files that differ and fails if any do; run
# `clang-format -i FILE` on them.
#   format.sh CLANG_FORMAT SOURCE_DIR
set -eu
clang_format=$1 src=$2
cd "$src"
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "format check skipped: $src is not a git checkout"
    exit 0
fi
bad=$(mktemp)
trap 'rm -f "$bad"' EXIT
git ls-files '*.cpp' '*.h' | while read -r f; do
    if ! "$clang_format" --dry-run --Werror "$f" >/dev/null 2>&1; then
        echo "$f" >> "$bad"
    fi
done
count=$(wc -l < "$bad")
total=$(git ls-files '*.cpp' '*.h' | wc -l)
if [ "$count" -gt 0 ]; then
    echo "clang-format: $count of $total C++ files are not in the house style:"
    cat "$bad"
    exit 1
fi
echo "clang-format: all $total C++ files in the house style"
