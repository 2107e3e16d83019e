#!/usr/bin/env bash
# The README's two quick-start commands:
#   packaging/workbench.sh run    install what is missing, build (Release), open the GUI on the demo model
#   packaging/workbench.sh test   install what is missing, build, run the whole test suite
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="${SWB_BUILD_DIR:-$root/build}"
mode="${1:-}"
case "$mode" in
    run|test) ;;
    *) echo "usage: $0 run|test" >&2; exit 2 ;;
esac

"$root/packaging/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" --parallel "$(nproc)"

if [[ "$mode" == run ]]; then
    exec "$build/app/sampling-workbench" "${@:2}"
fi
QT_QPA_PLATFORM=offscreen ctest --test-dir "$build" --output-on-failure --timeout 900 "${@:2}"
