#!/usr/bin/env bash
# The man pages: written from this build's --help, each renders with groff without a warning
# (as lintian renders them), has its ENVIRONMENT, EXAMPLES and SEE ALSO, and names what the code
# accepts: every option value `rngvet list` gives, every function of the C API (librngvet(3)),
# every environment variable the sources read.
#
#   test_man.sh RNGVET SOURCE_DIR
set -euo pipefail
rngvet=$1
source=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "test_man: FAILED: $*" >&2; exit 1; }

cmake -DRNGVET="$rngvet" -DOUTPUT_DIR="$work/man" -DVERSION=test \
    -P "$source/packaging/manpages.cmake" >"$work/cmake.log" 2>&1 \
    || { cat "$work/cmake.log"; fail "manpages.cmake"; }
cp "$source/packaging/man/rngvet-campaign.5" "$source/packaging/man/librngvet.3" "$work/man/"
pages=$(ls "$work"/man/*.[135])
[ "$(wc -w <<<"$pages")" -eq 12 ] || fail "expected 12 pages, got: $pages"

for page in $pages; do
    name=$(basename "$page")
    warnings=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1) \
        || fail "$name: groff failed: $warnings"
    [ -z "$warnings" ] || fail "$name: groff warns: $warnings"
    if command -v man >/dev/null; then
        warnings=$(LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 \
            man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null) || true
        [ -z "$warnings" ] || fail "$name: man --warnings: $warnings"
    fi
    for section in NAME "SEE ALSO"; do
        grep -q "^\.SH \"\?$section" "$page" || fail "$name has no $section"
    done
done
for page in "$work"/man/*.1; do
    for section in ENVIRONMENT EXAMPLES; do
        grep -q "^\.SH $section" "$page" || fail "$(basename "$page") has no $section"
    done
done

# Every value of every option that takes words, in the page of each command whose --help has
# the option (rendered, so that roff escapes do not hide a word).
"$rngvet" list | sed -n '/^option values:/,/^[^ ]/s/^  \(--[a-z-]*\): //p' | tr -d , | tr ' ' '\n' \
    | { grep -v '^FILE$' || true; } | sort -u >"$work/values"
[ "$(wc -l <"$work/values")" -gt 30 ] || fail "rngvet list gives too few option values"
for page in "$work"/man/*.1; do
    LC_ALL=C.UTF-8 groff -man -Tutf8 -P-cbou "$page"
done | tr -s ' \n' '\n\n' >"$work/pages.txt"
while read -r value; do
    grep -qF -- "$value" "$work/pages.txt" || fail "no man page names the option value $value"
done <"$work/values"
LC_ALL=C.UTF-8 groff -man -Tutf8 -P-cbou "$work/man/rngvet-run.1" >"$work/run.txt"
for value in request:R split:S nvidia-sdk-mt607 box-muller auto; do
    grep -q -- "$value" "$work/run.txt" || fail "rngvet-run(1) does not name $value"
done

# rngvet-campaign(5) describes every key the campaign parser takes: test_help's
# CampaignKeysAreDescribedInTheirManPage.

# librngvet(3): every function of the C API.
functions=$(grep -o 'rngvet_[a-z0-9_]*(' "$source/library/include/rngvet/rngvet.h" | tr -d '(' | sort -u)
for f in $functions; do
    grep -q "$f" "$work/man/librngvet.3" || fail "librngvet(3) does not name $f"
done

# Every environment variable the sources read, in rngvet(1) or librngvet(3).
variables=$(grep -rhoE 'getenv\("[A-Z_]+"\)' "$source"/{cli,kernels,generators,batteries,campaigns,library,reports,runs,validators} \
    | sed 's/getenv("\(.*\)")/\1/' | sort -u)
[ -n "$variables" ] || fail "no getenv found"
for v in $variables; do
    grep -q "^\.B $v" "$work/man/rngvet.1" "$work/man/librngvet.3" \
        || fail "no man page describes $v"
done
echo "man pages: $(wc -w <<<"$pages") pages render without warnings; $(wc -w <<<"$functions") functions, $(wc -w <<<"$variables") variables described"
