#!/usr/bin/env bash
# Installs every package needed to build, test and run Sampling Workbench on Debian 12 / Ubuntu.
# Idempotent: does nothing (and needs no network) when everything is present.
set -euo pipefail

packages=(
    # build
    cmake ninja-build g++ pkg-config
    qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools linguist-qt6
    libqt6sql6-sqlite libqcustomplot-dev libtorch-dev libopenblas0-pthread libpcre2-dev libsqlite3-dev
    # run and test: fonts for the offscreen platform (Latin and CJK, for the zh_CN translation), Qt's own
    # translations (file dialogs and other Qt texts in zh_CN), the KJV corpus for the demo-model recipe and its test
    fonts-dejavu-core fonts-wqy-microhei qt6-translations-l10n bible-kjv bible-kjv-text sqlite3
    # the rating page's browser test: Debian's chromium driven through chromedriver
    chromium chromium-driver
)

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=()
[[ $(id -u) -eq 0 ]] || sudo=(sudo)
echo "Installing: ${missing[*]}" >&2
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
