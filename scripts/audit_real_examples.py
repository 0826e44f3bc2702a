#!/usr/bin/env python3
"""Audit of issue 18 item 8: every catalog entry cites the public thread its real line comes from.

Lists the entries of signatures/*.json whose `references` hold no GitHub issue, pull request or
discussion thread (https://github.com/<owner>/<repo>/issues|pull|discussions/<n>), so nothing ties
their `examples.match` lines to a log someone posted. An entry that does cite a thread is not proven
real by this script: the line itself still has to be checked against the thread by a person (the
stored index's `search`/`read_file`), since the threads are not fetched here (no network).

With --suspect it also lists entries, thread or not, whose every `examples.match` line carries one
of the catalog's made-up placeholders (host gpu-a02, pid 52117, peer 10.10.0.11, the 2026-03-14
timestamp, ...): lines written for the entry rather than copied from a thread. This is a heuristic
and says so in its output.

Usage:
  scripts/audit_real_examples.py [--suspect] [--json] [CATALOG_DIR]
CATALOG_DIR defaults to the repository's signatures/. Exit status: 0 when every entry cites a
thread (and, with --suspect, none is suspect), 1 otherwise, 2 on a catalog that cannot be read.
Python 3 standard library only; `rankscope signatures check` is not affected.
"""

import argparse
import glob
import json
import os
import re
import sys

THREAD_RE = re.compile(r"^https://github\.com/[^/\s]+/[^/\s]+/(?:issues|pull|discussions)/\d+(?:[#?/].*)?$")

# Values the catalog's hand-written examples use again and again; a line copied from a thread has
# the reporter's own host, pid and addresses.
PLACEHOLDER_RES = [
    re.compile(r"\bgpu-a0\d:\d+:\d+\b"),
    re.compile(r"\bgpu-m01:1234:\d+\b"),
    re.compile(r"\b52117\b"),
    re.compile(r"\b10\.10\.0\.1[01]<"),
    re.compile(r"\[2026-03-14 02:17:4\d\]"),
    re.compile(r"\[E314 02:17:4\d"),
    re.compile(r"\bE0314 02:17:4\d"),
]


def is_thread(url):
    return bool(THREAD_RE.match(url))


def looks_generated(line):
    return any(r.search(line) for r in PLACEHOLDER_RES)


def load(catalog_dir):
    files = sorted(f for f in glob.glob(os.path.join(catalog_dir, "*.json"))
                   if os.path.basename(f) != "schema.json")
    if not files:
        raise ValueError("no catalog files in " + catalog_dir)
    entries = []
    for f in files:
        with open(f, encoding="utf-8") as fh:
            data = json.load(fh)
        for e in data.get("signatures", []):
            entries.append((os.path.basename(f), e))
    return entries


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("catalog_dir", nargs="?", default=os.path.join(here, "..", "signatures"))
    ap.add_argument("--suspect", action="store_true",
                    help="also list entries whose every match example uses a catalog placeholder")
    ap.add_argument("--json", action="store_true", help="machine-readable output")
    args = ap.parse_args(argv)

    try:
        entries = load(args.catalog_dir)
    except (OSError, ValueError) as err:
        print("audit_real_examples: " + str(err), file=sys.stderr)
        return 2

    no_thread = []
    suspect = []
    for fname, e in entries:
        refs = e.get("references", [])
        matches = e.get("examples", {}).get("match", [])
        threads = [r for r in refs if is_thread(r)]
        row = {"file": fname, "id": e.get("id", "?"), "threads": threads,
               "match_examples": len(matches), "stall": e.get("stall")}
        if not threads:
            no_thread.append(row)
        if args.suspect and (not matches or all(looks_generated(m) for m in matches)):
            suspect.append(row)

    if args.json:
        out = {"entries": len(entries), "without_thread": no_thread}
        if args.suspect:
            out["suspect_generated_only"] = suspect
        print(json.dumps(out, indent=2))
    else:
        print("%d entries, %d without a GitHub thread in references" % (len(entries), len(no_thread)))
        for r in no_thread:
            note = " (stall entry: no pattern lines)" if r["stall"] else ""
            print("  %s %s%s" % (r["file"], r["id"], note))
        if args.suspect:
            print("%d entries whose every examples.match line uses a catalog placeholder "
                  "(heuristic: read them against their thread)" % len(suspect))
            for r in suspect:
                print("  %s %s (threads: %s)" % (r["file"], r["id"], ", ".join(r["threads"]) or "none"))
    return 1 if no_thread or suspect else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
