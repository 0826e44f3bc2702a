#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the typed fix actions (catalog_actions_data.py) and the sibling discriminators
# (catalog_discriminators_data.py) into signatures/*.json: "actions" right after "fix", "discriminators"
# right after "siblings", in the catalog's format (json.dumps(indent=2, ensure_ascii=False) + newline).
# A pair without a written experiment is told apart by the sibling's own message.
# The data files are still the source: a run rewrites only "actions" and "discriminators" and leaves the JSON
# unchanged when the data matches it. An entry added to the catalog by hand needs its actions in
# catalog_actions_data.py (and its pairs in catalog_discriminators_data.py) first; the script lists every entry
# without actions data and writes nothing rather than stopping with a KeyError half-way.
#   python3 scripts/add_catalog_actions.py            write signatures/*.json
#   python3 scripts/add_catalog_actions.py --check    write nothing; exit 1 when a file would change
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import catalog_actions_data  # noqa: E402
import catalog_discriminators_data  # noqa: E402

ROOT = os.path.dirname(HERE)
KERNEL_FAMILIES = {"xid", "kernel", "oom"}


def fragment(literal, own):
    """The longest run of the sibling's literal without a {placeholder} that the entry's own literal does not
    carry: text the sibling's line always has and this entry's line does not."""
    parts = [p.strip() for p in re.split(r"\{[A-Za-z_][A-Za-z0-9_]*\}", literal)]
    distinct = [p for p in parts if len(p) >= 6 and p not in own]
    return max(distinct or parts, key=len)


def message_discriminator(entry, sibling):
    if entry["family"] == "xid" and sibling["family"] == "xid":
        # Every Xid line has the same prefix; the number after it decides.
        return {"sibling": sibling["id"],
                "experiment": "read the Xid number of the GPU's first 'NVRM: Xid (PCI:...)' line in dmesg of the node",
                "outcome": f"{entry['title']}: this entry; {sibling['title']}: the sibling, act on that one"}
    where = "dmesg / journalctl -k of every node" if sibling["family"] in KERNEL_FAMILIES else "the logs of every rank"
    text = fragment(sibling["literal"], entry["literal"]).replace("'", "")
    experiment = f"search {where} for '{text}'"
    if sibling["role"] == "cause" and entry["role"] != "cause":
        outcome = f"found at or before this line: {sibling['title']} is the cause and this line follows from it; absent: {entry['title']}"
    else:
        outcome = f"found on the failing rank or node: {sibling['title']}; absent, with this entry's line: {entry['title']}"
    return {"sibling": sibling["id"], "experiment": experiment, "outcome": outcome}


def with_after(entry, after, key, value):
    out = {}
    for k, v in entry.items():
        if k == key:
            continue
        out[k] = v
        if k == after:
            out[key] = value
    return out


def main():
    files = sorted(f for f in glob.glob(os.path.join(ROOT, "signatures", "*.json")) if not f.endswith("schema.json"))
    docs = {f: json.load(open(f, encoding="utf-8")) for f in files}
    by_id = {s["id"]: s for d in docs.values() for s in d["signatures"]}
    missing = [(os.path.basename(f), s["id"]) for f, d in docs.items() for s in d["signatures"]
               if s["id"] not in catalog_actions_data.A]
    unknown = [(f"{s['id']} -> {sib}") for d in docs.values() for s in d["signatures"] for sib in s["siblings"]
               if sib not in by_id]
    if missing or unknown:
        for name, sid in missing:
            print(f"error: {name}: entry {sid} has no actions in scripts/catalog_actions_data.py (add them there: "
                  f"this script rewrites every entry's actions from that file)", file=sys.stderr)
        for pair in unknown:
            print(f"error: sibling {pair}: no catalog entry has that id", file=sys.stderr)
        print("nothing written", file=sys.stderr)
        return 1
    check = "--check" in sys.argv[1:]
    written = generated = 0
    changed = []
    for f, doc in docs.items():
        for i, s in enumerate(doc["signatures"]):
            actions = catalog_actions_data.A[s["id"]]
            discs = []
            for sib in s["siblings"]:
                pair = catalog_discriminators_data.D.get((s["id"], sib))
                if pair:
                    discs.append({"sibling": sib, "experiment": pair[0], "outcome": pair[1]})
                    written += 1
                else:
                    discs.append(message_discriminator(s, by_id[sib]))
                    generated += 1
            s = with_after(s, "fix", "actions", actions)
            s = with_after(s, "siblings", "discriminators", discs)
            doc["signatures"][i] = s
        text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        with open(f, encoding="utf-8") as cur:
            if cur.read() == text:
                continue
        changed.append(os.path.basename(f))
        if not check:
            with open(f, "w", encoding="utf-8") as out:
                out.write(text)
    print(f"{len(by_id)} entries; discriminators: {written} written per pair, {generated} from the sibling's message")
    print(("would change: " if check else "changed: ") + (", ".join(changed) or "nothing"))
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
