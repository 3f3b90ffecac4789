#!/usr/bin/env bash
# The Debian packages, installed with dpkg into a fresh root folder: their files, the binary,
# man pages and completion; the C and Fortran examples built against the installed files with
# pkg-config and with find_package(rngvet), run on every backend here, their numbers compared
# with the installed `rngvet generate`, the CORSIKA-style caller reaching CERNLIB RM48's
# values, and the Python module's numpy draws equal to the same numbers.
#
#   test_package.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "$1")
source=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "test_package: FAILED: $*" >&2; exit 1; }

cpack --config "$build/CPackConfig.cmake" -B "$work/packages" >"$work/cpack.log" 2>&1 \
    || { cat "$work/cpack.log"; fail "cpack"; }
runtime=$(ls "$work"/packages/rngvet_*.deb)
dev=$(ls "$work"/packages/librngvet-dev_*.deb)
python=$(ls "$work"/packages/python3-rngvet_*.deb)
dpkg-deb --field "$runtime" Package Depends
dpkg-deb --field "$dev" Package Depends
dpkg-deb --field "$python" Package Depends

# A root of its own with an empty dpkg database; the system libraries the packages depend on
# are this machine's, so dependencies are not checked there.
root=$work/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
touch "$root/var/lib/dpkg/status"
dpkg --root="$root" --force-depends --force-not-root -i "$runtime" "$dev" "$python" \
    >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -i"; }
[ "$(dpkg --root="$root" -s rngvet librngvet-dev python3-rngvet | grep -c '^Status: install ok installed')" -eq 3 ] \
    || fail "packages not installed"
for f in usr/bin/rngvet usr/include/rngvet/rngvet.h usr/include/rngvet/rngvet.hpp \
    usr/include/rngvet/plugin.h \
    usr/share/man/man1/rngvet.1 usr/share/man/man1/rngvet-run.1 \
    usr/share/man/man5/rngvet-campaign.5 usr/share/man/man3/librngvet.3 \
    usr/share/bash-completion/completions/rngvet usr/share/doc/rngvet/examples/mcpi.c \
    usr/lib/python3/dist-packages/rngvet/__init__.py usr/lib/python3/dist-packages/rngvet/_bitgen.so; do
    [ -e "$root/$f" ] || fail "$f is not installed"
done
libdir=$(dirname "$(find "$root/usr" -name 'librngvet.so.0' | head -1)")
[ -n "$libdir" ] || fail "librngvet.so.0 is not installed"
export LD_LIBRARY_PATH=$libdir
rngvet=$root/usr/bin/rngvet
"$rngvet" --version | grep -q '^rngvet ' || fail "rngvet --version"
"$rngvet" -V | grep -q '^rngvet ' || fail "rngvet -V"
man -l "$root/usr/share/man/man1/rngvet-generate.1" 2>/dev/null | grep -q -- '--count' \
    || grep -q -- '--count' "$root/usr/share/man/man1/rngvet-generate.1" || fail "man page"
bash -c "source '$root/usr/share/bash-completion/completions/rngvet'; complete -p rngvet" \
    >/dev/null || fail "bash completion"
# --generator completes to the generators `rngvet list` names (file:PATH as file:,
# lib:PATH[:SYMBOL] as lib:).
completed=$(bash -c "source '$root/usr/share/bash-completion/completions/rngvet'
    COMP_WORDS=('$rngvet' run --generator ''); COMP_CWORD=3; _rngvet; printf '%s\n' \"\${COMPREPLY[@]}\"")
listed=$("$rngvet" list | awk '/^generators:/ { on = 1; next } /^[^ ]/ { on = 0 } on { sub(/PATH.*$/, "", $1); print $1 }')
[ "$(sort <<<"$completed")" = "$(sort <<<"$listed")" ] \
    || fail "--generator completes to '$completed', rngvet list names '$listed'"
grep -qx ranmar48x <<<"$completed" && grep -qx file: <<<"$completed" \
    || fail "--generator completes to '$completed'"
# --battery completes to the batteries of the registry, as `rngvet list` names them.
completed=$(bash -c "source '$root/usr/share/bash-completion/completions/rngvet'
    COMP_WORDS=('$rngvet' run --battery ''); COMP_CWORD=3; _rngvet; printf '%s\n' \"\${COMPREPLY[@]}\"")
listed=$("$rngvet" list | awk '/^batteries:/ { on = 1; next } /^[^ ]/ { on = 0 } on { print $1 }')
[ "$(sort <<<"$completed")" = "$(sort <<<"$listed")" ] && grep -qx mcpi <<<"$completed" \
    || fail "--battery completes to '$completed', rngvet list names '$listed'"
# --backend completes to auto too, --params to the built-in parameter sets, --layout to its forms.
for option_value in --backend:auto --params:nvidia-sdk-mt607 --params:fixstars-mt521 \
    --layout:request: --seeding:split:; do
    option=${option_value%%:*}
    value=${option_value#*:}
    completed=$(bash -c "source '$root/usr/share/bash-completion/completions/rngvet'
        COMP_WORDS=('$rngvet' run $option ''); COMP_CWORD=3; _rngvet; printf '%s\n' \"\${COMPREPLY[@]}\"")
    grep -qx -- "$value" <<<"$completed" || fail "$option does not complete to $value: $completed"
done
# campaign and dc complete the options of their subcommand.
completed=$(bash -c "source '$root/usr/share/bash-completion/completions/rngvet'
    COMP_WORDS=('$rngvet' campaign submit --gpu); COMP_CWORD=3; _rngvet; printf '%s\n' \"\${COMPREPLY[@]}\"")
[ "$completed" = --gpu-request ] || fail "campaign submit --gpu completes to '$completed'"

# The examples with pkg-config ...
export PKG_CONFIG_PATH=$libdir/pkgconfig
examples=$root/usr/share/doc/rngvet/examples
cc -O2 -o "$work/mcpi_pc" "$examples/mcpi.c" $(pkg-config --cflags --libs rngvet) -lm
gfortran -O2 -o "$work/mcpi_fortran_pc" "$examples/mcpi.f90" $(pkg-config --cflags --libs rngvet-fortran)
gfortran -O2 -o "$work/corsika_pc" "$examples/corsika.f90" $(pkg-config --cflags --libs rngvet-fortran)
# ... and with find_package(rngvet), the static library included.
cmake -S "$examples" -B "$work/examples" -DCMAKE_PREFIX_PATH="$root/usr" >"$work/cmake.log" 2>&1 \
    || { cat "$work/cmake.log"; fail "configuring the examples with find_package"; }
cmake --build "$work/examples" >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "building the examples"; }
ldd "$work/examples/mcpi_static" | grep -q librngvet && fail "mcpi_static links librngvet.so"
if grep -q '^CMAKE_CUDA_COMPILER:.*nvcc' "$work/examples/CMakeCache.txt"; then
    [ -x "$work/examples/mcpi_cuda" ] || fail "mcpi_cuda was not built although nvcc is here"
    echo "mcpi_cuda built with nvcc against the installed package (it runs on a GPU host only)"
fi

# Their numbers are rngvet generate's, on every backend here, through both interfaces.
backends=$("$rngvet" list | sed -n '/^backends/,/^$/p' | awk 'NR > 1 && NF { sub(":", "", $1); print $1 }')
[ -n "$backends" ] || fail "no backend listed"
name='ranmar48x/8/block:12500/increment/1802,9373;zero=smallest'
"$rngvet" generate --generator ranmar48x --seed 1802,9373 --instances 8 --layout block:12500 \
    --zero smallest --count 30000 --format text-double >"$work/want.txt"
for backend in $backends; do
    for program in "$work/mcpi_pc" "$work/examples/mcpi" "$work/examples/mcpi_static"; do
        for interface in "" --direct; do
            "$program" "$name" --backend "$backend" $interface --print 30000 >"$work/got.txt"
            cmp -s "$work/want.txt" "$work/got.txt" \
                || fail "$(basename "$program") $interface on $backend differs from rngvet generate"
        done
    done
    echo "C examples on $backend: 30000 numbers equal rngvet generate's (buffered and direct)"
done
for program in "$work/mcpi_fortran_pc" "$work/examples/mcpi_fortran"; do
    "$program" "$name" --print 30000 | awk '{ printf "%.17g\n", $1 }' >"$work/got.txt"
    cmp -s "$work/want.txt" "$work/got.txt" || fail "$(basename "$program") differs from rngvet generate"
done
echo "Fortran examples: 30000 numbers equal rngvet generate's"

# The CORSIKA-style caller: CERNLIB RM48's values after 20000 numbers (the known-answer table's
# row ranmar48 1802,9373 skip 20000), and its counters.
awk '$1 == "ranmar48" && $3 == "1802,9373" && $4 == 20000 { for (i = 5; i <= NF; ++i) print $i }' \
    "$source/validators/known_answers.txt" >"$work/want_rm48.txt"
[ "$(wc -l <"$work/want_rm48.txt")" -eq 6 ] || fail "known_answers.txt: no six-value RM48 row"
for program in "$work/corsika_pc" "$work/examples/corsika"; do
    "$program" 54217137 20000 0 6 >"$work/corsika.txt"
    head -6 "$work/corsika.txt" | awk '{ printf "%.0f\n", $1 * 281474976710656 }' >"$work/got.txt"
    cmp -s "$work/want_rm48.txt" "$work/got.txt" || fail "RMMARD known answers"
    tail -1 "$work/corsika.txt" | awk '{ exit !($1 == 54217137 && $2 == 20006 && $3 == 0) }' \
        || fail "RMMAQD 'R' counters: $(tail -1 "$work/corsika.txt")"
done
echo "RMMARD/RMMAQD: CERNLIB RM48's known answers and counters"

# The CERNLIB entries on a chosen configuration ($name, whose seed is IJKL 54217137), from the
# environment and from the call, in Fortran and in C: rngvet generate's numbers.
for how in env call; do
    if [ $how = env ]; then
        RNGVET_CERNLIB_CONFIG="$name" "$work/examples/corsika" 54217137 0 0 30000 >"$work/corsika.txt"
        RNGVET_CERNLIB_CONFIG="$name" "$work/examples/vetted" --print 30000 >"$work/vetted.txt"
    else
        "$work/examples/corsika" 54217137 0 0 30000 "$name" >"$work/corsika.txt"
        "$work/examples/vetted" --config "$name" --print 30000 >"$work/vetted.txt"
    fi
    head -30000 "$work/corsika.txt" | awk '{ printf "%.17g\n", $1 }' >"$work/got.txt"
    cmp -s "$work/want.txt" "$work/got.txt" || fail "corsika on $name ($how) differs from rngvet generate"
    cmp -s "$work/want.txt" "$work/vetted.txt" || fail "vetted on $name ($how) differs from rngvet generate"
done
echo "RMMARD on $name (RNGVET_CERNLIB_CONFIG and rngvet_cernlib_configure): rngvet generate's numbers"

# The Python module of python3-rngvet (Debian's python3 with python3-numpy): numpy's Generator
# draws the same 30000 numbers on every backend here.
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
    for backend in $backends; do
        PYTHONPATH=$root/usr/lib/python3/dist-packages /usr/bin/python3 - "$root" "$name" "$backend" \
            "$work/want.txt" <<'PY' || fail "the Python module on $backend differs from rngvet generate"
import sys
import numpy as np
import rngvet
root, name, backend, want = sys.argv[1:]
assert rngvet.__file__.startswith(root), rngvet.__file__
got = np.random.Generator(rngvet.BitGenerator(name, backend=backend)).random(30000)
with open(want) as f:
    assert [float(line) for line in f] == got.tolist()
PY
        echo "Python module on $backend: 30000 numbers equal rngvet generate's"
    done
else
    echo "Python module: not run (no python3-numpy; scripts/setup installs it)"
fi

"$work/examples/mcpi" --points 100000 --reps 4 | grep -E 'sigma' || fail "mcpi"
"$work/examples/mcpi_fortran" | grep -E 'sigma' || fail "mcpi_fortran"
echo "package test passed"
