#!/usr/bin/env bash
# The Debian packages: lintian finds nothing (errors, warnings) in any of them, no installed file
# needs a CUDA library (readelf), their Depends name no CUDA and librngvet0's no TestU01. Installed
# with dpkg into a fresh root folder: their files, the binary, man pages and completion; with the
# CUDA toolkit and driver hidden (a mount namespace where one can be made, else the environment),
# `rngvet list` says why CUDA is not available, a SmallCrush on the cpu backend stores the p-values
# of the build's own binary, and the C and Fortran examples build against the installed files with
# pkg-config and with find_package(rngvet) and run on every backend here, their numbers compared
# with the installed `rngvet generate`; the CORSIKA-style caller reaches CERNLIB RM48's values,
# and the Python module's numpy draws equal the same numbers. With the toolkit in sight, the
# examples' static build (rngvet::rngvet_static, which a CUDA build's needs) and mcpi_cuda.
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
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
cuda_build=$(sed -n 's/^RNGVET_WITH_CUDA:BOOL=//p' "$build/CMakeCache.txt")
fortran_build=$(sed -n 's/^RNGVET_WITH_FORTRAN:BOOL=//p' "$build/CMakeCache.txt")
runtime=$(ls "$work"/packages/rngvet_*.deb)
lib=$(ls "$work"/packages/librngvet0_*.deb)
dev=$(ls "$work"/packages/librngvet-dev_*.deb)
python=$(ls "$work"/packages/python3-rngvet_*.deb)
debs=("$runtime" "$lib" "$dev" "$python")
if [ "$fortran_build" = ON ]; then
    fortranlib=$(ls "$work"/packages/librngvet-fortran0_*.deb)
    debs+=("$fortranlib")
fi
for deb in "${debs[@]}"; do
    dpkg-deb --field "$deb" Package Section Depends
done

# Lintian: no error and no warning in any package (its overrides, if any, give their reasons).
command -v lintian >/dev/null || fail "lintian is not installed (scripts/setup installs it)"
for deb in "${debs[@]}"; do
    lintian --fail-on error,warning --display-info "$deb" >"$work/lintian.log" 2>"$work/lintian.err" \
        || { cat "$work/lintian.log" "$work/lintian.err"; fail "lintian $(basename "$deb")"; }
    echo "lintian $(basename "$deb"): no error, no warning; $(grep -c '^I: ' "$work/lintian.log") notes of information"
    sed 's/^/  /' "$work/lintian.log"
done

# Depends: no package names CUDA (its runtime is inside, its driver found at run time); the
# library needs no TestU01; the -dev and the Python module need librngvet0 of this version; the
# binary needs librngvet0 exactly when it links librngvet.so.0.
for deb in "${debs[@]}"; do
    if dpkg-deb --field "$deb" Depends | grep -iqE 'cuda|nvidia|curand'; then
        fail "$(basename "$deb") depends on CUDA: $(dpkg-deb --field "$deb" Depends)"
    fi
done
dpkg-deb --field "$lib" Depends | grep -iq testu01 && fail "librngvet0 depends on TestU01"
for deb in "$dev" "$python"; do
    dpkg-deb --field "$deb" Depends | grep -qF "librngvet0 (= $version)" \
        || fail "$(basename "$deb") does not depend on librngvet0 (= $version)"
done
dpkg-deb -I "$lib" shlibs | grep -qx "librngvet 0 librngvet0 (>= $version)" \
    || fail "librngvet0's shlibs: $(dpkg-deb -I "$lib" shlibs)"

# A root of its own with an empty dpkg database; the system libraries the packages depend on
# are this machine's, so dependencies are not checked there.
root=$work/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/triggers"
touch "$root/var/lib/dpkg/status"
dpkg --root="$root" --force-depends --force-not-root --force-script-chrootless -i "${debs[@]}" \
    >"$work/dpkg.log" 2>&1 || { cat "$work/dpkg.log"; fail "dpkg -i"; }
installed=$(dpkg --root="$root" -l | grep -c '^ii')
[ "$installed" -eq ${#debs[@]} ] || fail "$installed of ${#debs[@]} packages installed"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
libdir=$root/usr/lib/$multiarch
files=(usr/bin/rngvet usr/include/rngvet/rngvet.h usr/include/rngvet/rngvet.hpp usr/include/rngvet/plugin.h
    usr/share/man/man1/rngvet.1.gz usr/share/man/man1/rngvet-run.1.gz
    usr/share/man/man5/rngvet-campaign.5.gz usr/share/man/man3/librngvet.3.gz
    usr/share/bash-completion/completions/rngvet usr/share/doc/librngvet-dev/examples/mcpi.c
    "usr/lib/$multiarch/librngvet.so.0" "usr/lib/$multiarch/librngvet.so" "usr/lib/$multiarch/librngvet.a"
    "usr/lib/$multiarch/pkgconfig/rngvet.pc" "usr/lib/$multiarch/cmake/rngvet/rngvetConfig.cmake"
    usr/lib/python3/dist-packages/rngvet/__init__.py usr/lib/python3/dist-packages/rngvet/_bitgen.so)
for deb in "${debs[@]}"; do
    package=$(dpkg-deb --field "$deb" Package)
    files+=("usr/share/doc/$package/copyright" "usr/share/doc/$package/changelog.gz")
done
[ "$fortran_build" = ON ] && files+=("usr/lib/$multiarch/librngvet_fortran.so.0")
for f in "${files[@]}"; do
    [ -e "$root/$f" ] || fail "$f is not installed"
done
# librngvet0 holds the shared library and nothing a user links against.
[ "$(dpkg-deb -c "$lib" | awk '{ print $NF }' | grep -c 'librngvet\.so\.0')" -ge 1 ] \
    && ! dpkg-deb -c "$lib" | grep -qE '\.so$|\.a$|include/' || fail "librngvet0's files: $(dpkg-deb -c "$lib")"

# No installed ELF file needs a CUDA library (readelf -d), and the binary's Depends agree with
# what it links.
echo "readelf -d, NEEDED of the installed ELF files:"
while IFS= read -r f; do
    if readelf -h "$f" >/dev/null 2>&1; then
        needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
        echo "  ${f#"$root"}: $needed"
        if grep -qiE 'libcuda|libcudart|libcurand|libnv' <<<"$needed"; then
            fail "${f#"$root"} needs a CUDA library: $needed"
        fi
    fi
done < <(find "$root/usr" -type f \( -perm -u+x -o -name '*.so*' \) | sort)
if readelf -d "$root/usr/bin/rngvet" | grep -q 'NEEDED.*librngvet\.so'; then
    dpkg-deb --field "$runtime" Depends | grep -q librngvet0 || fail "rngvet links librngvet.so.0 without depending on librngvet0"
else
    dpkg-deb --field "$runtime" Depends | grep -q librngvet0 && fail "rngvet depends on librngvet0 without linking it"
fi

# Hiding CUDA: in a mount namespace (root, unshare), the toolkit's folders become empty and the
# driver's files and nvcc's wrappers empty (so ld.so and dlopen find no libcuda), with PATH and the toolkit's
# variables cleared too; elsewhere the environment alone (PATH, CUDAToolkit_ROOT pointing
# nowhere, CUDACXX naming no compiler, no folder of PATH with an nvcc, CMake told to find no
# CUDAToolkit; a driver installed on the machine stays visible).
mkdir -p "$work/empty" "$work/no-cuda"
: >"$work/empty-file"
path_without_cuda=$(tr ':' '\n' <<<"$PATH" | while read -r d; do
    [[ $d == *cuda* || -e $d/nvcc ]] || echo "$d"; done | paste -sd: -)
hide_env=(env -u CUDA_PATH -u CUDA_HOME -u CUDACXX -u CUDAToolkit_ROOT "PATH=$path_without_cuda"
    "LD_LIBRARY_PATH=$libdir")
# RNGVET_TEST_HIDE_CUDA=environment chooses the environment where a namespace could be made.
hide_cmake=()
if [ "${RNGVET_TEST_HIDE_CUDA:-}" != environment ] && [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
    hiding=namespace
    # The driver's files, and nvcc wherever PATH has it outside the toolkit (a wrapper script).
    driver_files=$( (ldconfig -p | awk '/libcuda\.so/ { print $NF }'; which -a nvcc || true) | sort -u | tr '\n' ' ')
    without_cuda() {
        unshare -m bash -c 'empty=$1 empty_file=$2 drivers=$3; shift 3
            for d in /usr/local/cuda*; do [ -d "$d" ] && mount --bind "$empty" "$d"; done
            for f in $drivers; do [ -e "$f" ] && mount --bind "$empty_file" "$(realpath "$f")"; done
            exec "$@"' bash "$work/empty" "$work/empty-file" "$driver_files" "${hide_env[@]}" "$@"
    }
    without_cuda bash -c '! nvcc --version && ! ls /usr/local/cuda*/lib*/libcudart* && ! [ -s "$(ldconfig -p | awk "/libcuda\.so\.1/ { print \$NF; exit }")" ]' \
        >/dev/null 2>&1 || fail "the namespace still shows CUDA"
else
    hiding=environment
    without_cuda() { "${hide_env[@]}" CUDAToolkit_ROOT="$work/no-cuda" CUDACXX="$work/no-cuda/nvcc" "$@"; }
    # FindCUDAToolkit also looks in CMake's own prefixes (/usr/local/bin/nvcc, /usr/local/cuda-*),
    # which no variable of the environment turns off: CMake is told to find no toolkit.
    hide_cmake=(-DCMAKE_DISABLE_FIND_PACKAGE_CUDAToolkit=ON)
fi
echo "CUDA hidden by: $hiding"
export LD_LIBRARY_PATH=$libdir
rngvet=$root/usr/bin/rngvet

# Without CUDA, the binary starts: `rngvet list` exits 0 and says why CUDA is not available, a
# CUDA backend asked for is one line naming that reason, and a SmallCrush on the cpu backend
# stores exactly the p-values of the build's own binary.
without_cuda "$rngvet" list >"$work/list.txt" 2>"$work/list.err" \
    || { cat "$work/list.err"; fail "rngvet list without CUDA: exit status $?"; }
sed -n '/^backends/,$p' "$work/list.txt"
cuda_line=$(sed -n '/^backends (not available here):/,/^[^ ]/s/^  cuda: //p' "$work/list.txt")
if [ "$cuda_build" = ON ]; then
    if [ $hiding = namespace ] || ! ldconfig -p | grep -q 'libcuda\.so\.1'; then
        grep -q '^no NVIDIA driver (libcuda\.so\.1: ' <<<"$cuda_line" \
            || fail "rngvet list without a driver says of cuda: '$cuda_line'"
    fi
    if [ -n "$cuda_line" ]; then
        set +e
        without_cuda "$rngvet" generate --generator ranmar48 --seed 1802,9373 --count 10 \
            --backend cuda >/dev/null 2>"$work/cuda.err"
        status=$?
        set -e
        [ $status -eq 2 ] && [ "$(wc -l <"$work/cuda.err")" -eq 1 ] \
            && grep -qF "backend 'cuda' is not available ($cuda_line)" "$work/cuda.err" \
            || fail "--backend cuda without CUDA: status $status, '$(cat "$work/cuda.err")'"
        echo "--backend cuda: $(cat "$work/cuda.err")"
    fi
else
    grep -q '^not built' <<<"$cuda_line" || fail "rngvet list says of cuda: '$cuda_line'"
fi
smallcrush=(run --generator ranmar48 --seed 1802,9373 --battery smallcrush --backend cpu)
without_cuda "$rngvet" "${smallcrush[@]}" --db "$work/installed.sqlite" >"$work/run.log" 2>&1 \
    || { cat "$work/run.log"; fail "SmallCrush with the installed binary without CUDA"; }
"$build/cli/rngvet" "${smallcrush[@]}" --db "$work/built.sqlite" >"$work/run.log" 2>&1 \
    || { cat "$work/run.log"; fail "SmallCrush with the build's binary"; }
query='select test_number, stat_index, test_name, printf("%.17g", pvalue), verdict from pvalues order by 1, 2'
sqlite3 "$work/installed.sqlite" "$query" >"$work/installed.txt"
sqlite3 "$work/built.sqlite" "$query" >"$work/built.txt"
[ "$(wc -l <"$work/installed.txt")" -ge 15 ] || fail "SmallCrush stored $(wc -l <"$work/installed.txt") p-values"
cmp -s "$work/installed.txt" "$work/built.txt" || fail "the installed binary's SmallCrush p-values differ from the build's"
echo "SmallCrush without CUDA (cpu): $(wc -l <"$work/installed.txt") p-values stored, equal to the build's binary's"

"$rngvet" --version | grep -q '^rngvet ' || fail "rngvet --version"
"$rngvet" -V | grep -q '^rngvet ' || fail "rngvet -V"
zcat "$root/usr/share/man/man1/rngvet-generate.1.gz" | grep -q -- 'count' || fail "man page"
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

# The examples with pkg-config and with find_package(rngvet), CUDA hidden: the shared library
# needs nothing of it.
export PKG_CONFIG_PATH=$libdir/pkgconfig
examples=$root/usr/share/doc/librngvet-dev/examples
without_cuda bash -c 'cc -O2 -o "$1/mcpi_pc" "$2/mcpi.c" $(pkg-config --cflags --libs rngvet) -lm' \
    bash "$work" "$examples" || fail "building mcpi.c with pkg-config without CUDA"
if [ "$fortran_build" = ON ]; then
    for program in mcpi corsika; do
        without_cuda bash -c 'gfortran -O2 -o "$1" "$2" $(pkg-config --cflags --libs rngvet-fortran)' \
            bash "$work/${program}_fortran_pc" "$examples/$program.f90" \
            || fail "building $program.f90 with pkg-config without CUDA"
    done
    mv "$work/corsika_fortran_pc" "$work/corsika_pc"
fi
without_cuda cmake -S "$examples" -B "$work/examples" -DCMAKE_PREFIX_PATH="$root/usr" "${hide_cmake[@]}" \
    >"$work/cmake.log" 2>&1 || { cat "$work/cmake.log"; fail "configuring the examples with find_package without CUDA"; }
without_cuda cmake --build "$work/examples" >"$work/build.log" 2>&1 \
    || { cat "$work/build.log"; fail "building the examples without CUDA"; }
[ -x "$work/examples/mcpi" ] && [ -x "$work/examples/vetted" ] || fail "the examples were not built"
[ -e "$work/examples/mcpi_cuda" ] && fail "mcpi_cuda was built with CUDA hidden"
static_programs=()
if [ "$cuda_build" = ON ]; then
    # The static library of a CUDA build needs CUDAToolkit: without it the target is not defined
    # by default, and asked for it is an error that names CUDAToolkit.
    [ -e "$work/examples/mcpi_static" ] && fail "mcpi_static was built without CUDAToolkit"
    mkdir -p "$work/static_probe"
    printf 'cmake_minimum_required(VERSION 3.20)\nproject(probe C)\nfind_package(rngvet REQUIRED COMPONENTS static)\n' \
        >"$work/static_probe/CMakeLists.txt"
    without_cuda cmake -S "$work/static_probe" -B "$work/static_probe/build" \
        -DCMAKE_PREFIX_PATH="$root/usr" "${hide_cmake[@]}" >"$work/probe.log" 2>&1 \
        && fail "find_package(rngvet COMPONENTS static) succeeded without CUDAToolkit"
    grep -q 'rngvet::rngvet_static (component static) needs CUDAToolkit' "$work/probe.log" \
        || { cat "$work/probe.log"; fail "find_package(rngvet COMPONENTS static) without CUDAToolkit"; }
    echo "find_package(rngvet COMPONENTS static) without CUDA: $(sed -n '/Reason given by package:/,/none of it/p' "$work/probe.log" | tr -s ' \n' ' ')"
else
    [ -x "$work/examples/mcpi_static" ] || fail "mcpi_static was not built"
    static_programs+=("$work/examples/mcpi_static")
fi
echo "examples built with pkg-config and find_package, CUDA hidden ($hiding)"

# With the toolkit in sight (a CUDA build): the static example, which links the CUDA runtime
# statically too, and mcpi_cuda.
if [ "$cuda_build" = ON ] && command -v nvcc >/dev/null; then
    cmake -S "$examples" -B "$work/examples_cuda" -DCMAKE_PREFIX_PATH="$root/usr" \
        >"$work/cmake.log" 2>&1 || { cat "$work/cmake.log"; fail "configuring the examples with CUDA"; }
    cmake --build "$work/examples_cuda" >"$work/build.log" 2>&1 \
        || { cat "$work/build.log"; fail "building the examples with CUDA"; }
    [ -x "$work/examples_cuda/mcpi_static" ] || fail "mcpi_static was not built with CUDAToolkit"
    needed=$(readelf -d "$work/examples_cuda/mcpi_static" | grep NEEDED || true)
    grep -qE 'librngvet|libcudart' <<<"$needed" && fail "mcpi_static needs: $needed"
    static_programs+=("$work/examples_cuda/mcpi_static")
    # pkg-config --static: librngvet.a with the libraries of its Libs.private, the toolkit's
    # folder from the variable cuda_libdir.
    libs=$(pkg-config --static --libs rngvet | sed "s|-lrngvet |$libdir/librngvet.a |")
    cc -O2 -o "$work/mcpi_pc_static" "$examples/mcpi.c" $(pkg-config --cflags rngvet) $libs \
        -L"$(pkg-config --variable=cuda_libdir rngvet)" -lm || fail "mcpi.c with pkg-config --static"
    needed=$(readelf -d "$work/mcpi_pc_static" | grep NEEDED || true)
    grep -qE 'librngvet|libcudart' <<<"$needed" && fail "mcpi_pc_static needs: $needed"
    static_programs+=("$work/mcpi_pc_static")
    [ -x "$work/examples_cuda/mcpi_cuda" ] || fail "mcpi_cuda was not built although nvcc is here"
    echo "mcpi_static and mcpi_cuda built with the toolkit (mcpi_cuda runs on a GPU host only)"
fi

# Their numbers are rngvet generate's, on every backend here, through both interfaces.
backends=$(awk '/^backends \(available here\):/ { on = 1; next } /^[^ ]/ { on = 0 } on { sub(":", "", $1); print $1 }' \
    "$work/list.txt")
[ -n "$backends" ] || fail "no backend listed"
name='ranmar48x/8/block:12500/increment/1802,9373;zero=smallest'
"$rngvet" generate --generator ranmar48x --seed 1802,9373 --instances 8 --layout block:12500 \
    --zero smallest --count 30000 --format text-double >"$work/want.txt"
for backend in $backends; do
    for program in "$work/mcpi_pc" "$work/examples/mcpi" "${static_programs[@]}"; do
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
