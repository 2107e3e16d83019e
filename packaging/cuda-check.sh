#!/usr/bin/env bash
# The CUDA path, built and checked on a machine with an NVIDIA GPU and PyTorch (no network needed there).
#
#   packaging/cuda-check.sh --download DIR   on a Debian 12 machine with network: fetch the Debian packages
#                                            of Qt (Core, Sql, Concurrent, Network, Test, the SQLite plugin),
#                                            SQLite and what they need into DIR, to carry to the GPU machine
#   packaging/cuda-check.sh [DIR]            on the GPU machine: unpack DIR's packages into a prefix (never
#                                            into /), build core, swb and the core tests against the
#                                            libtorch inside PyTorch (SWB_CORE_ONLY), run the checks, and
#                                            write the JSON report ($OUT or build-cuda/)/cuda-report.json
#
# In order, each step's failure reported and the next still run:
#   1. swb and the model tests built first (with our CUDA kernels for stored Q8_0/Q4_K weights,
#      SWB_CUDA_KERNELS: tst_cuda_kernels holds them to the CPU kernels); the cross-device conformance rows (tst_core_kernels: every
#      weight type on CUDA in f32 within 1e-4 of the CPU kernels, bf16/f16 distances reported) and the model
#      tests' float64 references run on CUDA (SWB_TEST_DEVICE=cuda tst_core_model, the architectures);
#   2. transformers against us (packaging/cuda_reference.py: greedy tokens and logits, beam search, the
#      logits processors; the models and transformers' results kept as CPU test data,
#      transformers-reference.tar.gz) and speed (`swb bench decode --device cuda` beside transformers'
#      generate on a 1.1B Llama-shaped BF16 model, with a device-to-device copy for the bandwidth);
#   3. the whole core test suite, within what is left of SWB_CUDA_SECONDS (default 540).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

packages=(qt6-base-dev qt6-base-dev-tools libqt6core6 libqt6sql6 libqt6sql6-sqlite libqt6concurrent6 libqt6test6
          libqt6network6 libqt6dbus6 libsqlite3-dev libsqlite3-0 libdouble-conversion3 libpcre2-16-0 libb2-1
          libicu72 libglib2.0-0 libbrotli1 libdbus-1-3 libgssapi-krb5-2 libk5crypto3 libkrb5-3 libkrb5support0
          libproxy1v5 qmake6 qmake6-bin libpcre2-dev libpcre2-8-0 libpcre2-32-0 libpcre2-posix3)

if [[ "${1:-}" == --download ]]; then
    dir=${2:?usage: $0 --download DIR}
    mkdir -p "$dir"
    (cd "$dir" && apt-get download "${packages[@]}") || exit 1
    echo "Carry $dir to the GPU machine and run: $0 $dir" >&2
    exit 0
fi

start=$SECONDS
budget=${SWB_CUDA_SECONDS:-540}
debs=${1:-$root/.debs}
out=${OUT:-$root/build-cuda}
build=${SWB_CUDA_BUILD_DIR:-$root/build-cuda}
prefix=${SWB_QT_PREFIX:-/tmp/swb-qt}
mkdir -p "$out" "$build" "$prefix"
log="$out/run.log"
phase() { echo "== $((SECONDS - start)) s: $*" | tee -a "$log"; }

phase "GPU"
gpu=$(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1 || echo "no nvidia-smi")
echo "$gpu" | tee -a "$log"
torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
torch_lib=$(python3 -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "lib"))')
python3 -c 'import torch; assert torch.cuda.is_available(), "PyTorch sees no GPU"' || exit 1

phase "unpacking $(ls "$debs"/*.deb | wc -l) packages into $prefix"
for deb in "$debs"/*.deb; do
    dpkg -x "$deb" "$prefix"
done
qtlib="$prefix/usr/lib/x86_64-linux-gnu"
# Libraries the system already has stay the system's (newer, and shared with PyTorch and the compiler);
# only the missing ones (ICU 72, ...) come from the prefix. Qt and SQLite stay: their CMake files name them.
for lib in "$qtlib"/lib*.so.*; do
    [[ -f "$lib" && ! -L "$lib" ]] || continue
    soname=$(objdump -p "$lib" 2>/dev/null | awk '/SONAME/ {print $2}')
    [[ -n "$soname" && "$soname" != libsqlite3* && "$soname" != libQt6* ]] || continue
    if ldconfig -p | awk -v s="$soname" '$1 == s && /x86-64/ {found = 1} END {exit !found}'; then
        rm -f "$qtlib/$soname" "$lib"
        echo "system's own $soname" >> "$log"
    fi
done
# Development links (libpcre2-8.so) to a library left to the system point at the system's copy; pkg-config
# files name the prefix.
for link in "$qtlib"/lib*.so; do
    [[ -L "$link" && ! -e "$link" ]] || continue
    system=$(ldconfig -p | awk -v base="$(basename "$link")." 'index($1, base) == 1 && /x86-64/ {print $NF; exit}')
    [[ -n "$system" ]] && ln -sf "$system" "$link"
done
sed -i "s|^prefix=/usr\$|prefix=$prefix/usr|" "$qtlib"/pkgconfig/*.pc
export PKG_CONFIG_PATH="$qtlib/pkgconfig:${PKG_CONFIG_PATH:-}"
export LD_LIBRARY_PATH="$qtlib:$torch_lib:${LD_LIBRARY_PATH:-}"
export QT_PLUGIN_PATH="$qtlib/qt6/plugins"

phase "configure"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWB_CORE_ONLY=ON -DSWB_CUDA_KERNELS=ON \
    -DCMAKE_CUDA_COMPILER="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)" \
    -DCMAKE_PREFIX_PATH="$torch_prefix;$qtlib/cmake" -DQT_HOST_PATH="$prefix/usr" \
    -DQt6_DIR="$qtlib/cmake/Qt6" -DSQLite3_INCLUDE_DIR="$prefix/usr/include" \
    -DSQLite3_LIBRARY="$qtlib/libsqlite3.so" > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }

phase "build swb and the model tests"
cmake --build "$build" --parallel "$(nproc)" --target swb tst_core_kernels tst_core_model tst_cuda_kernels -- -k 0 \
    >> "$out/build.log" 2>&1 ||
    { grep -B2 -A12 "error" "$out/build.log" | head -150; exit 1; }

phase "cross-device conformance"
"$build/tests/tst_core_kernels" crossDeviceConformance > "$out/cross-device.log" 2>&1
kernels_status=$?
SWB_TEST_DEVICE=cuda "$build/tests/tst_core_model" llamaFormatsAgree llamaVariantsMatchReference gpt2MatchesReference \
    decodeStepsMatchPrefill batchMatchesSeparateSequences mixedPassMatchesSeparateSequences \
    rewindAndCloneReplayExactly cacheGrowsWithoutLosingPositions > "$out/model-on-cuda.log" 2>&1
model_status=$?
"$build/tests/tst_cuda_kernels" > "$out/stored-kernels.log" 2>&1
stored_status=$?
tail -n 3 "$out/cross-device.log" "$out/model-on-cuda.log" "$out/stored-kernels.log" | tee -a "$log"

phase "transformers as the reference, and speed"
PYTHONUNBUFFERED=1 python3 "$root/packaging/cuda_reference.py" --swb "$build/app/swb" --work "$build/reference" \
    --out "$out/transformers.json" --data "$build/reference-data/transformers-reference" >> "$log" 2>&1
tar czf "$out/transformers-reference.tar.gz" -C "$build/reference-data" transformers-reference 2>> "$log"

left=$((budget - (SECONDS - start)))
ctest_status=-1
if ((left > 90)); then
    phase "the rest of the core suite ($left s left)"
    timeout $((left - 20)) cmake --build "$build" --parallel "$(nproc)" >> "$out/build.log" 2>&1
    left=$((budget - (SECONDS - start)))
    if ((left > 30)); then
        ctest --test-dir "$build" -L core -j "$(nproc)" --output-on-failure --timeout $((left - 10)) \
            > "$out/ctest.log" 2>&1
        ctest_status=$?
    fi
fi
phase "report"

python3 - "$out" "$kernels_status" "$model_status" "$ctest_status" "$gpu" "$stored_status" <<'PY'
import json, os, re, sys
out = sys.argv[1]
kernels, model, ctest = (int(v) for v in sys.argv[2:5])
gpu = sys.argv[5]
stored = int(sys.argv[6])
def read(name):
    path = os.path.join(out, name)
    return open(path, errors="replace").read() if os.path.exists(path) else ""
cross = [json.loads(m) for m in re.findall(r'\{"type".*?\}', read("cross-device.log"))]
report = {"gpu": gpu,
          "cross_device_exit_status": kernels, "cross_device": cross,
          "model_tests_on_cuda_exit_status": model,
          "model_tests_on_cuda": [l for l in read("model-on-cuda.log").splitlines() if l.startswith(("Totals", "FAIL"))],
          "stored_weight_kernels_exit_status": stored,
          "stored_weight_kernels": [l for l in read("stored-kernels.log").splitlines() if l.startswith(("Totals", "FAIL"))],
          "core_tests_exit_status": ctest,
          "core_tests_summary": [l for l in read("ctest.log").splitlines() if "tests passed" in l or "Failed" in l],
          "transformers": json.loads(read("transformers.json") or "{}")}
json.dump(report, open(os.path.join(out, "cuda-report.json"), "w"), indent=1)
print(json.dumps({k: report[k] for k in ("cross_device_exit_status", "model_tests_on_cuda_exit_status",
                                         "stored_weight_kernels_exit_status", "core_tests_exit_status",
                                         "core_tests_summary")}))
PY
