#!/usr/bin/env python3
"""The layer check: every #include "..." of core/, ui/ and app/ must follow an arrow the build declares.

The declared arrows are the target_link_libraries of the module targets (core/<module>/CMakeLists.txt's
swb_module(... DEPENDS ...), ui/ and app/): a file may include its own module's headers and those of every
module its module reaches through them. The check fails (exit status 1, one line per fault) on an include
against the arrows, on a cycle among the declared arrows, and on a quoted include that names no file of
ours. With --graph it prints the modules and the arrows their includes actually use.

The build enforces the same thing (each module's include path holds only the folders it may include, so a
wrong include does not compile); this check says it for every file at once, before anything is built.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def owner(path):
    """The build target that compiles a file: swb_<module> for core/<module>/, swb_base for core's own files."""
    parts = os.path.relpath(path, ROOT).split(os.sep)
    if parts[0] == "core":
        return "swb_base" if len(parts) == 2 else "swb_" + parts[1]
    if parts[0] == "ui":
        return "ui"
    if parts[:2] == ["app", "cli"]:
        return "swb"
    if parts[:2] == ["app", "gui"]:
        return "sampling-workbench"
    return None


def sources():
    for top in ("core", "ui", "app"):
        for directory, _, names in os.walk(os.path.join(ROOT, top)):
            for name in sorted(names):
                if name.endswith((".h", ".cpp", ".inc", ".h.in")):
                    yield os.path.join(directory, name)


def declared_arrows():
    """target -> the targets it links, read from the CMakeLists of core/, ui/ and app/."""
    arrows = {}
    call = re.compile(r"\b(swb_module|target_link_libraries)\s*\(([^)]*)\)", re.S)
    for top in ("core", "ui", "app"):
        for directory, _, names in os.walk(os.path.join(ROOT, top)):
            if "CMakeLists.txt" not in names:
                continue
            text = open(os.path.join(directory, "CMakeLists.txt"), encoding="utf-8").read()
            text = re.sub(r"#[^\n]*", "", text)
            for kind, body in call.findall(text):
                words = body.split()
                if not words:
                    continue
                if kind == "swb_module":
                    target = "swb_" + words[0]
                    deps = ["swb_base"]  # swb_module links every module to base
                    if "DEPENDS" in words:
                        rest = words[words.index("DEPENDS") + 1:]
                        for w in rest:
                            if w.isupper():
                                break
                            deps.append("swb_" + w)
                else:
                    target = words[0]
                    deps = [w for w in words[1:] if w.startswith("swb_") or w == "ui"]
                arrows.setdefault(target, set()).update(deps)
    return arrows


def reach(arrows, start):
    seen, todo = set(), [start]
    while todo:
        for nxt in arrows.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def include_roots():
    roots = [os.path.join(ROOT, "core"), os.path.join(ROOT, "ui")]
    return roots


def resolve(source, name):
    for base in [os.path.dirname(source)] + include_roots():
        candidate = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(candidate):
            return candidate
    return None


# Headers the build writes (configure_file) rather than a source folder.
GENERATED = {"RatePage.h"}


def main():
    arrows = declared_arrows()
    faults = []
    for target in sorted(arrows):
        if target in reach(arrows, target):
            faults.append(f"declared arrows: {target} reaches itself (a cycle)")
    used = {}
    include = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
    for source in sources():
        mine = owner(source)
        allowed = reach(arrows, mine) | {mine}
        for number, line in enumerate(open(source, encoding="utf-8", errors="replace"), 1):
            match = include.match(line)
            if not match:
                continue
            name = match.group(1)
            target = resolve(source, name)
            where = f"{os.path.relpath(source, ROOT)}:{number}"
            if target is None:
                if os.path.basename(name) not in GENERATED:
                    faults.append(f'{where}: "{name}" is no file of ours')
                continue
            theirs = owner(target)
            if theirs != mine:
                used.setdefault(mine, set()).add(theirs)
            if theirs not in allowed:
                faults.append(f'{where}: {mine} includes "{name}" of {theirs}, an arrow the build does not declare')
    if "--graph" in sys.argv:
        for target in sorted(used):
            print(f"{target} -> {' '.join(sorted(used[target]))}")
    for fault in faults:
        print(fault)
    if faults:
        print(f"layer check: {len(faults)} fault(s)")
        return 1
    print(f"layer check: {sum(1 for _ in sources())} files follow the declared arrows of {len(arrows)} targets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
