#!/usr/bin/env bash
# The formatting check of CI: the C++ lines changed since BASE (default: the previous commit) as
# .clang-format wants them. Prints the diff clang-format would apply and exits 1 when there is one; says so
# and exits 0 where clang-format-diff is not installed or the history has no BASE (a shallow clone).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base="${1:-HEAD~1}"
cd "$root"
formatter=$(command -v clang-format-diff-14 || command -v clang-format-diff || true)
if [[ -z "$formatter" ]]; then
    echo "== format check skipped: clang-format (clang-format-diff) is not installed"
    exit 0
fi
if ! git rev-parse --verify --quiet "$base^{commit}" > /dev/null; then
    echo "== format check skipped: $base is not in this clone's history"
    exit 0
fi
changes=$(git diff -U0 --no-color "$base" -- '*.cpp' '*.h' | "$formatter" -p1 || true)
if [[ -n "$changes" ]]; then
    echo "$changes"
    echo "== format check: the lines above, changed since $base, differ from .clang-format"
    exit 1
fi
echo "== format check: the C++ lines changed since $base follow .clang-format"
