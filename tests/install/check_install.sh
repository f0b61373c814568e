#!/usr/bin/env bash
# The course as a learner installs it: the Debian package built by CPack,
# unpacked into an empty root, and the same files installed under another
# prefix and then moved; the programs run from there, from a folder outside
# the build, with a bare environment. Checks the launcher entry, the
# AppStream metadata, the manual pages and the completions as a distribution
# would, and that a progress file from a newer version is refused untouched.
# Usage: check_install.sh BUILD_DIR
set -euo pipefail

build="$(cd "$1" && pwd)"
work="$(mktemp -d /tmp/tpu-course-install.XXXXXX)"
trap 'rm -rf "$work"' EXIT
fail() { echo "check_install: $*" >&2; exit 1; }
step() { echo "-- $*"; }

step "package"
rm -rf "$build/package"
(cd "$build" && cpack -G DEB >"$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack failed"; }
debs=("$build"/package/tpu-course_*_*.deb)
[ -f "${debs[0]}" ] || fail "no .deb in $build/package"
deb="${debs[0]}"
fields="$(dpkg-deb --field "$deb" Package Version Architecture Depends Maintainer Section)"
for want in "Package: tpu-course" "libqt6core6" "libqt6quick6" "qml6-module-qtquick-controls" "qml6-module-qtcharts" \
            "libsqlite3-0" "fonts-inter" "Section: education"; do
    grep -q -- "$want" <<<"$fields" || fail "the package's control fields lack '$want'"
done

step "unpack into an empty root"
root="$work/root"
dpkg-deb -x "$deb" "$root"
usr="$root/usr"
for f in bin/tpu-course bin/tpusim \
         share/applications/org.tpucourse.TpuCourse.desktop \
         share/icons/hicolor/scalable/apps/org.tpucourse.TpuCourse.svg \
         share/metainfo/org.tpucourse.TpuCourse.metainfo.xml \
         share/man/man1/tpu-course.1.gz share/man/man1/tpusim.1.gz \
         share/bash-completion/completions/tpu-course share/bash-completion/completions/tpusim \
         share/doc/tpu-course/copyright \
         share/tpu-course/labs/labs.json share/tpu-course/labs/l07_tiled_matmul.py share/tpu-course/labs/README.md; do
    [ -f "$usr/$f" ] || fail "the package lacks /usr/$f"
done
[ -z "$(find "$usr/share/tpu-course/labs" -name __pycache__)" ] || fail "the package holds the labs' __pycache__"
plugins=("$usr"/lib/*/tpu-course/chapters/libchapter*.so)
[ "${#plugins[@]}" -eq 15 ] || fail "the package holds ${#plugins[@]} chapter plugins, not 15"
# Every library of the course is linked in or opened by path: a run path
# would only send the loader looking in /usr/bin or the current folder.
for elf in "$usr/bin/tpu-course" "$usr/bin/tpusim" "${plugins[@]}"; do
    ! readelf -d "$elf" | grep -Eq '\((RUNPATH|RPATH)\)' || fail "$(basename "$elf") carries a run path"
done

step "launcher entry, metadata, manuals, completions"
desktop-file-validate "$usr/share/applications/org.tpucourse.TpuCourse.desktop"
appstreamcli validate --no-net --no-color "$usr/share/metainfo/org.tpucourse.TpuCourse.metainfo.xml" >"$work/as.log" 2>&1 \
    || { cat "$work/as.log"; fail "appstreamcli refused the metainfo"; }
for page in tpu-course tpusim; do
    warnings="$(zcat "$usr/share/man/man1/$page.1.gz" | groff -man -Tutf8 -ww -z 2>&1)"
    [ -z "$warnings" ] || fail "$page(1) does not typeset cleanly: $warnings"
done
bash -n "$usr/share/bash-completion/completions/tpu-course"
bash -n "$usr/share/bash-completion/completions/tpusim"
# Every option and subcommand the programs list is in their manual and completion.
# (Each text is read once: grep -q closing a pipe early would fail the pipe.)
man_course="$(zcat "$usr/share/man/man1/tpu-course.1.gz" | sed 's/\\-/-/g')"
man_sim="$(zcat "$usr/share/man/man1/tpusim.1.gz" | sed 's/\\-/-/g')"
course_help="$("$usr/bin/tpu-course" --help)"
sim_help="$("$usr/bin/tpusim" --help)"
for option in $(grep -o -- '--[a-z][a-z-]*' <<<"$course_help" | sort -u); do
    grep -q -- "$option" <<<"$man_course" || fail "tpu-course(1) does not mention $option"
    grep -q -- "$option" "$usr/share/bash-completion/completions/tpu-course" || fail "the tpu-course completion lacks $option"
done
# The tpusim completion reads the installed program's help: asked as bash
# asks it, it offers every subcommand, and every option of each.
complete_tpusim() {
    PATH="$usr/bin:$PATH" bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); _tpusim
                                   printf "%s\n" "${COMPREPLY[@]}"' _ "$usr/share/bash-completion/completions/tpusim" "$@"
}
subs_offered="$(complete_tpusim tpusim '')"
for sub in $(sed -n '/^subcommands:/,/^options/p' <<<"$sim_help" | grep -E '^  [a-z]' | awk '{print $1}'); do
    grep -qE -- "^\.BR? $sub( |\$)" <<<"$man_sim" || fail "tpusim(1) has no entry for $sub"
    grep -qx -- "$sub" <<<"$subs_offered" || fail "the tpusim completion does not offer $sub"
    offered="$(complete_tpusim tpusim "$sub" --)"
    for option in $("$usr/bin/tpusim" "$sub" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
        grep -qx -- "$option" <<<"$offered" || fail "the tpusim completion does not offer $option for $sub"
    done
done

# Run a program from an installed tree with nothing of the build about it.
bare() {
    local home="$work/home"
    mkdir -p "$home" "$work/runtime"
    chmod 700 "$work/runtime"
    (cd "$work" && env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen \
        QT_QUICK_BACKEND=software XDG_RUNTIME_DIR="$work/runtime" "$@")
}

check_tree() {  # PREFIX: the programs under it work
    local prefix="$1"
    bare "$prefix/bin/tpusim" validate >"$work/validate.txt" || fail "$prefix/bin/tpusim validate failed"
    grep -q "attention forward and backward" "$work/validate.txt" || fail "tpusim validate printed no family table"
    [[ "$(bare "$prefix/bin/tpu-course" --version)" == tpu-course* ]] || fail "tpu-course --version failed"
    # A chapter's page needs its plugin: the app must find it from where it runs.
    rm -f "$work/ch11.json"
    bare "$prefix/bin/tpu-course" --db "$work/progress.sqlite" --layout-report "$work/ch11.json" --open ch11 \
        --size 1280x800 >/dev/null 2>"$work/app.log" || { cat "$work/app.log"; fail "the installed app did not render ch11"; }
    python3 - "$work/ch11.json" <<'PY' || fail "the installed app's ch11 is not chapter 11's page"
import json, sys
report = json.load(open(sys.argv[1]))
texts = " ".join(str(item.get("text", "")) for item in report.get("items", []))
sys.exit(0 if "Pallas" in texts else 1)
PY
    # The Labs page names the lab scripts installed beside the app, not the source tree's.
    rm -f "$work/labs.json"
    bare "$prefix/bin/tpu-course" --db "$work/progress.sqlite" --layout-report "$work/labs.json" --open labs \
        --size 1280x800 >/dev/null 2>"$work/app.log" || { cat "$work/app.log"; fail "the installed app did not render labs"; }
    python3 - "$work/labs.json" "$(cd "$prefix/share/tpu-course/labs" && pwd)" <<'PY' || fail "the Labs page does not name $prefix/share/tpu-course/labs"
import json, sys
report = json.load(open(sys.argv[1]))
texts = " ".join(str(item.get("text", "")) for item in report.get("items", []))
# A long command is shown over lines joined by a backslash, as a shell reads it.
texts = " ".join(texts.replace("\\\n", " ").split())
sys.exit(0 if "scp --recurse " + sys.argv[2] + " MY_TPU" in texts else 1)
PY
    bare "$prefix/bin/tpu-course" --db "$work/progress.sqlite" --screenshot "$work/stack.png" --size 1280x800 >/dev/null 2>&1 \
        || fail "the installed app did not render the stack"
    [ -s "$work/stack.png" ] || fail "the installed app's screenshot is empty"
}

step "run from the unpacked package"
check_tree "$usr"

step "install under another prefix, move it, run it"
cmake --install "$build" --prefix "$work/opt/tpu-course" >/dev/null
mv "$work/opt/tpu-course" "$work/moved"
check_tree "$work/moved"

step "a progress file from a newer version is refused, untouched"
python3 - "$work/future.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("CREATE TABLE kept (x)")
db.execute("PRAGMA user_version = 999")
db.commit()
PY
before="$(sha256sum "$work/future.sqlite")"
if bare "$usr/bin/tpu-course" --db "$work/future.sqlite" --export-report "$work/r.json" 2>"$work/future.log"; then
    fail "the app opened a progress file from a newer version"
fi
grep -q "newer version" "$work/future.log" || { cat "$work/future.log"; fail "the refusal does not say why"; }
[ "$(wc -l <"$work/future.log")" -le 2 ] || { cat "$work/future.log"; fail "the refusal is more than one sentence"; }
[ "$before" = "$(sha256sum "$work/future.sqlite")" ] || fail "the newer progress file was changed"
[ ! -e "$work/r.json" ] || fail "a report was written from a refused file"

# With TPU_COURSE_TEST_DPKG=1 (.ci/run sets it) and root, the package goes
# through dpkg itself: installed on this machine, run, reinstalled over a
# learner's progress, removed; the progress file outlives all three.
if [ "${TPU_COURSE_TEST_DPKG:-0}" = 1 ] && [ "$(id -u)" -eq 0 ]; then
    step "dpkg: install, reinstall and remove on this machine"
    if dpkg-query -W -f='${Status}' tpu-course 2>/dev/null | grep -q "install ok installed"; then
        fail "tpu-course is already installed on this machine; not touching it"
    fi
    trap 'dpkg -r tpu-course >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
    dpkg -i "$deb" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -i failed (a dependency missing?)"; }
    [ "$(command -v tpu-course)" = /usr/bin/tpu-course ] || fail "tpu-course is not on the PATH after dpkg -i"
    check_tree /usr
    # The learner's own progress file, where the app keeps it by default.
    progress="$work/home/.local/share/tpu-course/tpu-course/progress.sqlite"
    bare /usr/bin/tpu-course --export-report "$work/kept.json" >/dev/null 2>&1 \
        || fail "the installed app could not write a report"
    [ -f "$progress" ] || fail "the installed app kept no progress file at $progress"
    kept="$(sha256sum "$progress")"
    dpkg -i "$deb" >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "reinstalling failed"; }
    dpkg -r tpu-course >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -r failed"; }
    [ ! -e /usr/bin/tpu-course ] && [ ! -e /usr/share/applications/org.tpucourse.TpuCourse.desktop ] \
        || fail "dpkg -r left the package's files behind"
    [ "$kept" = "$(sha256sum "$progress")" ] || fail "installing or removing the package changed a progress file"
fi

echo "check_install: the package installs and runs ($(du -h "$deb" | cut -f1), $(basename "$deb"))"
