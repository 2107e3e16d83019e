#!/usr/bin/env bash
# The CUDA path, built and checked on a machine with an NVIDIA GPU and PyTorch (no network needed there).
#
#   packaging/cuda-check.sh --download DIR   on a Debian 12 machine with network: fetch the Debian packages
#                                            of Qt (Core, Sql, Concurrent, Test, the SQLite plugin) and
#                                            SQLite into DIR, to carry to the GPU machine
#   packaging/cuda-check.sh [DIR]            on the GPU machine: unpack DIR's packages into a prefix (never
#                                            into /), build core, swb and the core tests against the
#                                            libtorch inside PyTorch (SWB_CORE_ONLY), run them, and write
#                                            the JSON report ($OUT or build-cuda/)/cuda-report.json
#
# The report holds: the core test suite on that machine (the cross-device conformance rows of
# tests/core/tst_kernels.cpp run there instead of skipping), transformers against us on random-weight
# Llama, Qwen2 and GPT-2 models (packaging/cuda_reference.py: greedy tokens and logits, and the surviving
# sets of transformers' logits processors), and `swb bench decode --device cuda` beside transformers'
# generate on a 1.1B Llama-shaped BF16 model, with a device-to-device copy for the bandwidth.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

packages=(qt6-base-dev qt6-base-dev-tools libqt6core6 libqt6sql6 libqt6sql6-sqlite libqt6concurrent6 libqt6test6
          libqt6network6 libqt6dbus6 libqt6gui6 libqt6widgets6 libqt6opengl6 libqt6printsupport6 libqt6xml6
          libsqlite3-dev libsqlite3-0 libdouble-conversion3 libpcre2-16-0 libb2-1 libicu72 libmd4c0 libzstd1)

if [[ "${1:-}" == --download ]]; then
    dir=${2:?usage: $0 --download DIR}
    mkdir -p "$dir"
    (cd "$dir" && apt-get download "${packages[@]}")
    echo "Carry $dir to the GPU machine and run: $0 $dir" >&2
    exit 0
fi

debs=${1:-$root/.debs}
out=${OUT:-$root/build-cuda}
build=${SWB_CUDA_BUILD_DIR:-$root/build-cuda}
prefix=${SWB_QT_PREFIX:-/tmp/swb-qt}
mkdir -p "$out" "$build" "$prefix"

command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader \
    > "$out/gpu.txt" || echo "no nvidia-smi" > "$out/gpu.txt"
torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
python3 -c 'import torch; assert torch.cuda.is_available(), "PyTorch sees no GPU"'

for deb in "$debs"/*.deb; do
    dpkg -x "$deb" "$prefix"
done
qtlib="$prefix/usr/lib/x86_64-linux-gnu"
export LD_LIBRARY_PATH="$qtlib:$(python3 -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "lib"))'):${LD_LIBRARY_PATH:-}"
export QT_PLUGIN_PATH="$qtlib/qt6/plugins"

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWB_CORE_ONLY=ON \
    -DCMAKE_PREFIX_PATH="$torch_prefix;$qtlib/cmake" -DQT_HOST_PATH="$prefix/usr" \
    -DQt6_DIR="$qtlib/cmake/Qt6" -DSQLite3_INCLUDE_DIR="$prefix/usr/include" \
    -DSQLite3_LIBRARY="$qtlib/libsqlite3.so"
cmake --build "$build" --parallel "$(nproc)"

# 1. The core suite, the cross-device conformance rows included.
set +e
ctest --test-dir "$build" -L core --output-on-failure --timeout 900 > "$out/ctest.log" 2>&1
ctest_status=$?
"$build/tests/tst_core_kernels" crossDeviceConformance > "$out/cross-device.log" 2>&1
set -e

# 2. transformers as the reference, and 3. speed against transformers' generate.
python3 "$root/packaging/cuda_reference.py" --swb "$build/app/swb" --work "$build/reference" \
    --out "$out/transformers.json"

python3 - "$out" "$ctest_status" <<'PY'
import json, os, re, sys
out, status = sys.argv[1], int(sys.argv[2])
def read(name):
    path = os.path.join(out, name)
    return open(path).read() if os.path.exists(path) else ""
cross = [json.loads(m) for m in re.findall(r'\{"type".*?\}', read("cross-device.log"))]
report = {"gpu": read("gpu.txt").strip(), "core_tests_exit_status": status,
          "core_tests_summary": [l for l in read("ctest.log").splitlines() if "tests passed" in l],
          "cross_device": cross,
          "transformers": json.loads(read("transformers.json") or "{}")}
json.dump(report, open(os.path.join(out, "cuda-report.json"), "w"), indent=1)
print(json.dumps({"core_tests_exit_status": status, "cross_device_rows": len(cross)}))
PY
