#!/usr/bin/env bash
# Writes blocks.json: the sha256 of every tensor llama.cpp's llama-quantize writes from one small f16 model, for
# each single type (--pure) and a few mixed recipes (see README.md).
# Usage: blocks.sh SWB LLAMA_BIN_DIR WORK_DIR 'WHICH LLAMA.CPP (repository and commit)'
set -euo pipefail
swb=$1 bin=$2 work=$3 version=$4
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$work"
"$swb" bench decode --write-random-model "$work/input-f16.gguf" --weight-type f16 \
    --random-shape 256,2,4,288,64,64 --kv-heads 2 --seed 7 > /dev/null
outputs=()
files=()
quantize() { # KEY TYPE [--pure]
    LD_LIBRARY_PATH="$bin" "$bin/llama-quantize" ${3:-} "$work/input-f16.gguf" "$work/$1.gguf" "$2" > /dev/null 2>&1
    outputs+=("$1")
}
for t in f32 f16 bf16; do quantize "$t" "${t^^}"; done
for t in q8_0 q4_0 q4_1 q5_0 q5_1 q2_k q3_k q4_k q5_k q6_k; do quantize "$t-pure" "${t^^}" --pure; done
for t in q2_k q3_k_m q4_0 q4_k_m q5_k_s q6_k; do quantize "$t" "${t^^}"; done
{
    printf '{\n "made_with": "tests/data/quantize/blocks.sh: llama-quantize (llama.cpp %s) on swb bench decode --write-random-model --weight-type f16 --random-shape 256,2,4,288,64,64 --kv-heads 2 --seed 7",\n' \
        "$version"
    printf ' "input_sha256": "%s",\n "outputs": {\n' "$(sha256sum "$work/input-f16.gguf" | cut -d' ' -f1)"
    for i in "${!outputs[@]}"; do
        [ "$i" -gt 0 ] && printf ',\n'
        printf '  "%s": %s' "${outputs[$i]}" "$(python3 "$here/gguf_tool.py" digest "$work/${outputs[$i]}.gguf" | tr -d '\n ')"
        files+=("$(printf '  "%s": "%s"' "${outputs[$i]}" "$(sha256sum "$work/${outputs[$i]}.gguf" | cut -d' ' -f1)")")
    done
    printf '\n },\n "files": {\n'
    (IFS=$'\n'; printf '%s' "${files[*]}" | sed '$!s/$/,/')
    printf '\n }\n}\n'
}
