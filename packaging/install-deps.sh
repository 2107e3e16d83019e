#!/usr/bin/env bash
# Installs every package needed to build, test and run Sampling Workbench on Debian 12 / Ubuntu.
# Idempotent: does nothing (and needs no network) when everything is present.
set -euo pipefail

packages=(
    # build
    cmake ninja-build g++ pkg-config python3
    qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools linguist-qt6
    libqt6sql6-sqlite libqcustomplot-dev libtorch-dev libopenblas0-pthread libpcre2-dev libsqlite3-dev
    # run and test: fonts for the offscreen platform (Latin and CJK, for the zh_CN translation), Qt's own
    # translations (file dialogs and other Qt texts in zh_CN), the KJV corpus for the demo-model recipe and its test
    fonts-dejavu-core fonts-wqy-microhei qt6-translations-l10n bible-kjv bible-kjv-text sqlite3
)
# The rating page's browser test: Debian's chromium driven through chromedriver. Wanted, not required: where
# they cannot be installed the test says so and skips, and everything else still builds and runs.
browser=(chromium chromium-driver)
# The fuzz smoke of .ci/run (fuzz/run.sh): clang with libFuzzer and the sanitizer runtimes. Wanted, not
# required, in the same way: without them the smoke says so and is skipped.
browser+=(clang libclang-rt-14-dev)
# CI's format check of changed lines (.ci/check-format.sh), wanted in the same way.
browser+=(clang-format)
# promtool, which tst_serve runs on swb serve's /metrics after hostile requests; wanted in the same way.
browser+=(prometheus)

missingOf() {
    local p status
    for p in "$@"; do
        status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
        [[ "$status" == "install ok installed" ]] || echo "$p"
    done
}
mapfile -t missing < <(missingOf "${packages[@]}")
mapfile -t missingBrowser < <(missingOf "${browser[@]}")
[[ ${#missing[@]} -eq 0 && ${#missingBrowser[@]} -eq 0 ]] && exit 0

sudo=()
[[ $(id -u) -eq 0 ]] || sudo=(sudo)
echo "Installing: ${missing[*]} ${missingBrowser[*]}" >&2
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
if [[ ${#missing[@]} -gt 0 ]]; then
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
if [[ ${#missingBrowser[@]} -gt 0 ]]; then
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missingBrowser[@]}" ||
        echo "install-deps: could not install ${missingBrowser[*]}; the browser test or the fuzz smoke will skip" >&2
fi
