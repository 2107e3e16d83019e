#!/usr/bin/env bash
# Functions of core/ and ui/ longer than LIMIT lines (default 150), longest first, from Universal Ctags'
# start and end lines (lambdas count in the function that holds them).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
limit="${1:-150}"
cd "$root"
ctags -R --languages=C++ --kinds-C++=f --fields=+ne --extras=-F -o - core ui |
    awk -F'\t' -v limit="$limit" '$1 !~ /^__anon/ {
        start = ""; end = ""
        for (i = 4; i <= NF; ++i) {
            if ($i ~ /^line:/) start = substr($i, 6)
            if ($i ~ /^end:/) end = substr($i, 5)
        }
        if (start != "" && end != "" && end - start + 1 > limit) print end - start + 1, $2 ":" start, $1
    }' | sort -rn
