#!/usr/bin/env bash
# Installs the .deb into a clean Debian 12 root and runs it there, as a user's machine would:
#   packaging/install-test.sh build/sampling-workbench_<version>_amd64.deb [ROOT]
# The root (default /tmp/swb-debian12) is made with debootstrap (minbase) on first use and reused after;
# apt in the root installs the package with the dependencies its Depends name, and nothing else. Then:
# swb --version, swb generate on the bundled demo model, and the GUI started offscreen with --screenshot.
# Needs: root, debootstrap, and Debian's mirror (deb.debian.org).
set -euo pipefail
deb=$(realpath "${1:?usage: $0 PACKAGE.deb [ROOT]}")
root=${2:-/tmp/swb-debian12}
[[ $(id -u) == 0 ]] || { echo "install-test: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap > /dev/null || { echo "install-test: needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }

if [[ ! -f "$root/etc/debian_version" ]]; then
    echo "== debootstrap bookworm into $root"
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian > "$root.debootstrap.log" 2>&1 ||
        { tail -20 "$root.debootstrap.log" >&2; exit 1; }
fi
mounted=()
cleanup() {
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[i]}" || true; done
}
trap cleanup EXIT
for fs in proc sys dev; do
    mountpoint -q "$root/$fs" || { mount --bind "/$fs" "$root/$fs"; mounted+=("$root/$fs"); }
done

in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

echo "== installing $(basename "$deb") with apt"
cp "$deb" "$root/tmp/package.deb"
# A root used before: the package and whatever it pulled in go first, so this run installs the new build
# and apt resolves its Depends from nothing.
in_root apt-get purge -y -qq sampling-workbench > /dev/null 2>&1 || true
in_root apt-get autoremove -y -qq --purge > /dev/null 2>&1 || true
in_root apt-get update -qq
in_root apt-get install -y -qq --no-install-recommends /tmp/package.deb > "$root/tmp/apt.log" 2>&1 ||
    { tail -30 "$root/tmp/apt.log" >&2; exit 1; }
in_root dpkg-query -W -f='${Package} ${Version} ${Installed-Size} KiB installed\n' sampling-workbench

echo "== the licence notice"
in_root grep -q "MIT License" /usr/share/doc/sampling-workbench/copyright ||
    { echo "install-test: /usr/share/doc/sampling-workbench/copyright holds no MIT notice" >&2; exit 1; }
echo "== swb --version"
in_root swb --version
echo "== swb generate on the demo model"
out=$(in_root swb generate --prompt "In the beginning" --max-tokens 12 --seed 1)
echo "$out"
[[ -n "$out" ]] || { echo "install-test: swb generate printed nothing" >&2; exit 1; }
echo "== the GUI, offscreen, with --screenshot"
rm -f "$root/tmp/shot.png"
mkdir -p -m 700 "$root/tmp/runtime"
in_root env QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp/runtime sampling-workbench --screenshot /tmp/shot.png
[[ -s "$root/tmp/shot.png" ]] || { echo "install-test: the GUI wrote no screenshot" >&2; exit 1; }
file "$root/tmp/shot.png" 2> /dev/null || ls -l "$root/tmp/shot.png"
cp "$root/tmp/shot.png" "${deb%.deb}-installed.png"
echo "install-test: ok (screenshot: ${deb%.deb}-installed.png)"
