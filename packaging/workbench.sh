#!/usr/bin/env bash
# The README's two quick-start commands:
#   packaging/workbench.sh run    install what is missing, build (Release), open the GUI on the demo model
#   packaging/workbench.sh test   install what is missing, build, run the whole test suite
# and, for hardening:
#   packaging/workbench.sh test --sanitize   the whole suite built with ASan + UBSan (in build-sanitize/)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode="${1:-}"
case "$mode" in
    run|test) ;;
    *) echo "usage: $0 run|test [--sanitize] [ctest options]" >&2; exit 2 ;;
esac
shift
sanitize=0
if [[ "${1:-}" == --sanitize ]]; then
    [[ "$mode" == test ]] || { echo "--sanitize goes with test" >&2; exit 2; }
    sanitize=1
    shift
fi

"$root/packaging/install-deps.sh"
if [[ $sanitize == 1 ]]; then
    build="${SWB_BUILD_DIR:-$root/build-sanitize}"
    # -O1 keeps the instrumented suite quick to build and to run; debug info names the lines of a finding.
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
        -DSWB_SANITIZE=ON
    # Leaks are not checked: Qt, fontconfig and libtorch keep process-lifetime allocations that LeakSanitizer
    # reports at exit. Any other finding stops the process with a report (exit status 1: the test fails).
    export ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=0"
    export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
else
    build="${SWB_BUILD_DIR:-$root/build}"
    cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWB_SANITIZE=OFF
fi
cmake --build "$build" --parallel "$(nproc)"

if [[ "$mode" == run ]]; then
    exec "$build/app/sampling-workbench" "$@"
fi
# One test per core at a time (each test has its own settings and data folders); ctest options given here
# come after, so --parallel 1 runs them one by one.
QT_QPA_PLATFORM=offscreen ctest --test-dir "$build" --output-on-failure --timeout $((sanitize ? 2400 : 900)) \
    --parallel "$(nproc)" "$@"
