#!/usr/bin/env python3
"""Checks that every relative markdown link in README.md and docs/ names a file that exists and, with #anchor,
a heading of that file (GitHub's anchor rule: lower case, punctuation dropped, spaces to hyphens).
Usage: scripts/check-doc-links.py   (from anywhere; exits 1 and lists the broken links)"""
import glob, os, re, sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
LINK = re.compile(r"\]\(([^)\s]+)\)")

def anchors(path):
    found, seen, fence = set(), {}, False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        if fence or not line.startswith("#"):
            continue
        text = line.lstrip("#").strip().lower()
        slug = re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found

bad = []
files = [os.path.join(ROOT, "README.md")] + glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True)
for md in files:
    text = open(md, encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
        where = os.path.relpath(md, ROOT)
        if not os.path.exists(dest):
            bad.append(f"{where}: {target}: no such file")
        elif anchor and (not dest.endswith(".md") or anchor not in anchors(dest)):
            bad.append(f"{where}: {target}: no such heading")
print("\n".join(bad) or f"doc links: {len(files)} files, every link resolves")
sys.exit(1 if bad else 0)
