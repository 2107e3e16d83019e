#!/usr/bin/env bash
# Builds the harnesses (clang, ASan + UBSan) and runs each on its seed corpus.
# Usage: fuzz/run.sh [RUNS] [SECONDS]   (defaults: 1,000,000 executions or 1,800 s per harness, whichever first;
#                                         a random libFuzzer seed each time)
#        fuzz/run.sh --ci               (CI's smoke: a fixed seed and a fixed number of executions per harness,
#                                         about 30 s each here, so a clean run is the same run every time)
# Needs: clang, libclang-rt-14-dev, and a normal build in build/ (for the tiny model seeds).
# Exit status: 0 when no harness found anything, 1 when one did (the input is kept in build-fuzz/findings/).
set -euo pipefail
ci=0
if [[ ${1:-} == --ci ]]; then
    ci=1
    shift
fi
runs=${1:-1000000}
seconds=${2:-1800}
seed=0
# CI's executions per harness: about 30 s each on the 2-core machine (fuzz/README.md), so that .ci/run
# (build, suite, fuzz build and smoke) stays within 30 minutes.
declare -A ciRuns=([http]=600000 [openai_request]=200000 [strategy]=400000 [chat_template]=60000
    [tokenizer_json]=22000 [tokenize]=275000 [gguf]=225000 [safetensors]=500000 [llama2c]=40000 [csv]=500000
    [gbnf]=100000 [json_schema]=100000)
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-fuzz"
targets="http openai_request strategy chat_template tokenizer_json tokenize gguf safetensors llama2c csv gbnf json_schema"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DSWB_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
ninja -C "$build" $(for t in $targets; do printf 'fuzz_%s ' "$t"; done) > "$build/build.log" 2>&1 ||
    { tail -40 "$build/build.log" >&2; exit 1; }
"$root/fuzz/seeds.sh" "$root/build/app/swb" "$build/seeds"
mkdir -p "$build/corpus" "$build/findings"
found=0
for t in $targets; do
    mkdir -p "$build/corpus/$t"
    status=0
    if [[ $ci -eq 1 ]]; then
        runs=${ciRuns[$t]}
        seconds=600
        seed=1
        rm -rf "$build/corpus/$t" && mkdir -p "$build/corpus/$t"
    fi
    ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1 \
        "$build/fuzz/fuzz_$t" -runs="$runs" -max_total_time="$seconds" -seed="$seed" -rss_limit_mb=4096 -timeout=20 \
        -artifact_prefix="$build/findings/$t-" -print_final_stats=1 "$build/corpus/$t" "$build/seeds/$t" \
        > "$build/fuzz_$t.log" 2>&1 || status=$?
    executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$build/fuzz_$t.log")
    elapsed=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$build/fuzz_$t.log")
    if [[ $status -ne 0 ]]; then
        found=1
        echo "fuzz_$t: FINDING after ${executed:-?} executions (exit $status):"
        grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$build/fuzz_$t.log" | head -8 || tail -5 "$build/fuzz_$t.log"
    else
        echo "fuzz_$t: ${executed:-?} executions in ${elapsed:-?} s, no finding"
    fi
done
exit $found
