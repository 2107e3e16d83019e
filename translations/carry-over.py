#!/usr/bin/env python3
"""Carries translations over to strings that moved to another class (another lupdate context).

lupdate (`cmake --build build --target update_translations`, run with -no-obsolete) drops a moved string's
translation with its old context and lists the string as unfinished in the new one. Run this after it: every
unfinished message whose source (and numerus) had a translation in the given revision's file, in any context,
gets that translation back.

    translations/carry-over.py [REV]    (default HEAD)
"""
import os
import re
import subprocess
import sys
from pathlib import Path

MESSAGE = re.compile(r"(<message(?P<numerus> numerus=\"yes\")?>.*?</message>)", re.S)
SOURCE = re.compile(r"<source>(.*?)</source>", re.S)
TRANSLATION = re.compile(r"<translation(?P<attrs>[^>]*)>(?P<body>.*?)</translation>|<translation(?P<empty>[^>]*)/>",
                         re.S)


def translations(text):
    known = {}
    for match in MESSAGE.finditer(text):
        message = match.group(1)
        source = SOURCE.search(message)
        translation = TRANSLATION.search(message)
        if not source or not translation or "unfinished" in (translation.group("attrs") or "") or \
                translation.group("empty") is not None:
            continue
        known.setdefault((source.group(1), bool(match.group("numerus"))), translation.group(0))
    return known


def carry(path, rev):
    old = subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True, check=True).stdout
    known = translations(old)
    text = Path(path).read_text(encoding="utf-8")
    carried = 0

    def fill(match):
        nonlocal carried
        message = match.group(1)
        source = SOURCE.search(message)
        translation = TRANSLATION.search(message)
        if not source or not translation or "unfinished" not in (translation.group("attrs") or "") + (
                translation.group("empty") or ""):
            return message
        previous = known.get((source.group(1), bool(match.group("numerus"))))
        if previous is None:
            return message
        carried += 1
        return message[:translation.start()] + previous + message[translation.end():]

    text = MESSAGE.sub(fill, text)
    Path(path).write_text(text, encoding="utf-8")
    left = len(re.findall(r'type="unfinished"', text))
    print(f"{path}: {carried} translation(s) carried over, {left} unfinished")


if __name__ == "__main__":
    revision = sys.argv[1] if len(sys.argv) > 1 else "HEAD"
    root = Path(__file__).resolve().parent
    os.chdir(root.parent)
    for ts in sorted(root.glob("*.ts")):
        carry(str(ts.relative_to(root.parent)), revision)
