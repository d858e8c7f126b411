#!/usr/bin/env python3
"""Judge every claim of docs/claims.md on the reports of one run.

    claims.py judge RUN [--docs docs/claims.md]
        Read the complete, verified reports under RUN (the folder
        scripts/reproduce-all.sh writes: fig7/, csmv-fig1/,
        speculate-figures/reports/, ...) and write RUN/claims.md and
        RUN/claims.csv: one row per claim of the docs with the paper's value,
        ours, their ratio, the verdict (reproduced, reproduced in direction
        only, differs, not run) and, where ours differs, the reason the docs
        measured (or "reason not measured"). Prints the verdicts' counts.

    claims.py lint [--docs docs/claims.md]
        Exit 1 unless the docs' claims and scripts/lib/claims_rules.py's rules
        name the same ids, every reason names a claim, and every reason's
        link names a file and a heading that exist.

How a claim is measured is claims_rules.py (over claims_reports.py); the verdicts are defined in
docs/claims.md ("Verdicts") and below. Only the standard library is used.
"""

import argparse
import csv
import datetime
import glob
import json
import math
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import claims_rules  # noqa: E402
from claims_reports import NotRun  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = os.path.join(ROOT, "docs", "claims.md")
if not os.path.exists(DOCS):
    # installed (make install): the scripts in PREFIX/share/gpubench, the docs in PREFIX/share/doc/gpubench
    DOCS = os.path.join(os.path.dirname(ROOT), "doc", "gpubench", "claims.md")
FACTOR = 2.0
VERDICTS = ("reproduced", "reproduced in direction only", "differs", "not run")
CSV_FIELDS = ["id", "document", "section", "claim", "paper", "ours", "ratio", "verdict", "detail", "reason",
              "reason_link"]


# ---- docs/claims.md

def table_rows(lines, header):
    """The rows of every markdown table whose header row is `header`, each with the last ### heading."""
    rows, heading, cols = [], None, None
    for line in lines:
        if line.startswith("### "):
            heading = line[4:].strip()
        if not line.startswith("|"):
            cols = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cols is None:
            cols = cells if cells == header else []
        elif cols and not set(line.replace("|", "").strip()) <= set("-: "):
            rows.append(dict(zip(cols, cells), heading=heading))
    return rows


def read_docs(path):
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except OSError as e:
        sys.exit("claims.py: cannot read the claims (%s): run it from a checkout or dist/, or pass --docs" % e)
    claims = table_rows(lines, ["id", "section", "claim", "the paper's number"])
    reasons = {r["id"]: r for r in table_rows(lines, ["id", "why it differs", "measured in"])}
    return claims, reasons


# ---- verdicts

def bounds(rule, j):
    """lo, hi, dir_lo, dir_hi of a "between" claim: the measure's, else the rule's."""
    b = list(rule) + [None] * (4 - len(rule)) if rule else [None] * 4
    for i, k in enumerate(("lo", "hi", "dir_lo", "dir_hi")):
        if getattr(j, k) is not None:
            b[i] = getattr(j, k)
    return b


def judge(kind, paper, j):
    """(verdict, ratio) of one measured claim."""
    if isinstance(j, NotRun):
        return "not run", None
    v = j.ours
    if kind in ("ratio", "value"):
        if v <= 0:
            return "differs", v / paper  # none where the paper has some
        r = v / paper
        err = abs(math.log(r))
        if kind == "value":
            return ("reproduced" if err <= math.log(FACTOR) else "differs"), r
        if err <= math.log(FACTOR) and err <= abs(math.log(paper)):
            return "reproduced", r
        if (v > 1) == (paper > 1) and v != 1:
            return "reproduced in direction only", r
        return "differs", r
    if kind == "always":
        if v > 1:
            return "reproduced", None
        return ("reproduced in direction only" if j.median is not None and j.median > 1 else "differs"), None
    if kind == "between":
        lo, hi, dlo, dhi = bounds(paper, j)
        if lo <= v <= hi:
            return "reproduced", None
        if dlo is not None and dlo <= v <= dhi:
            return "reproduced in direction only", None
        return "differs", None
    if kind == "above1":
        return ("reproduced" if v > 1 else "differs"), None
    if kind == "below1":
        return ("reproduced" if v < 1 else "differs"), None
    if kind == "atleast":
        return ("reproduced" if v >= paper else "differs"), v / paper
    if kind == "zero":
        return ("reproduced" if v == 0 else "differs"), None
    raise ValueError("unknown kind %r" % kind)


# "value" claims: a rate or a share, where the side of 1 says nothing.
VALUE_IDS = {"csmv-table2-prstm-wasted-90", "csmv-table1-validation-share", "csmv-table1-divergence-share"} | {
    i for i in claims_rules.RULES if i.startswith("spec-fig10-") and i not in ("spec-fig10-zero", "spec-fig10-reduced")}


def kind_of(cid):
    kind, paper, _ = claims_rules.RULES[cid]
    return ("value" if cid in VALUE_IDS else kind), paper


# ---- the run

def run_summary(run):
    revs, where, n = set(), set(), 0
    for path in glob.glob(os.path.join(run, "**", "*.json"), recursive=True):
        try:
            with open(path, encoding="utf-8") as f:
                d = json.load(f)
        except (OSError, ValueError):
            continue
        if not isinstance(d, dict) or not isinstance(d.get("meta"), dict) or not isinstance(d.get("device"), dict):
            continue
        n += 1
        revs.add(str(d["meta"].get("git_revision")))
        dev = d["device"]
        where.add(dev.get("name") if dev.get("backend") == "gpu" else "CPU backend (%s, %s cores)" % (
            dev.get("cpu_model"), dev.get("cpu_logical_cores")))
    return n, sorted(revs), sorted(w for w in where if w)


def fmt(v):
    if v is None:
        return "-"
    if v == math.inf:
        return "inf"
    return "%.3g" % v


def link(target, run):
    """target ("docs/x.md#anchor") relative to the run folder, for claims.md's links."""
    path, _, anchor = target.partition("#")
    rel = os.path.relpath(os.path.join(ROOT, path), os.path.abspath(run))
    return rel + ("#" + anchor if anchor else "")


def cmd_judge(args):
    claims, reasons = read_docs(args.docs)
    missing = [c["id"] for c in claims if c["id"] not in claims_rules.RULES]
    if missing:
        sys.exit("claims.py: no rule for %s (scripts/lib/claims_rules.py)" % ", ".join(missing))
    if not os.path.isdir(args.run):
        sys.exit("claims.py: no folder %s" % args.run)
    rows = []
    for c in claims:
        kind, paper = kind_of(c["id"])
        j = claims_rules.RULES[c["id"]][2](args.run)
        verdict, ratio = judge(kind, paper, j)
        reason, where = "", ""
        if verdict in ("differs", "reproduced in direction only"):
            r = reasons.get(c["id"])
            if r:
                reason, where = r["why it differs"], r["measured in"]
            elif verdict == "differs":
                reason = "reason not measured"
        rows.append({"id": c["id"], "document": c["heading"], "section": c["section"], "claim": c["claim"],
                     "paper": c["the paper's number"], "ours": None if isinstance(j, NotRun) else j.ours,
                     "ratio": ratio, "verdict": verdict, "detail": j.why if isinstance(j, NotRun) else j.detail,
                     "reason": reason, "reason_link": where})
    write(args.run, rows)
    counts = {v: sum(r["verdict"] == v for r in rows) for v in VERDICTS}
    print("claims.py: %d claims: %s -> %s, %s" % (len(rows), ", ".join("%d %s" % (counts[v], v) for v in VERDICTS),
                                                 os.path.join(args.run, "claims.md"),
                                                 os.path.join(args.run, "claims.csv")))


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def write(run, rows):
    with open(os.path.join(run, "claims.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow(dict(r, ours="" if r["ours"] is None else "%.6g" % r["ours"],
                            ratio="" if r["ratio"] is None else "%.6g" % r["ratio"]))
    n, revs, where = run_summary(run)
    counts = {v: sum(r["verdict"] == v for r in rows) for v in VERDICTS}
    out = ["# The papers' claims against this run\n",
           "Every claim of [docs/claims.md](%s) judged on the complete, verified reports of `%s` "
           "(%d reports; gpubench revision%s %s; %s), by `scripts/claims.sh` on %s. Verdicts as "
           "[docs/claims.md](%s) defines them: a number within a factor of 2 of the paper's (and no "
           "further from it than it is from 1) is reproduced; on the same side of 1, in direction only."
           "\n" % (link("docs/claims.md", run), run, n, "" if len(revs) == 1 else "s", ", ".join(revs) or "-",
                   "; ".join(where) or "no device", datetime.datetime.now(datetime.timezone.utc).strftime(
                       "%Y-%m-%dT%H:%M:%SZ"), link("docs/claims.md#verdicts", run)),
           "%d claims: %s.\n" % (len(rows), ", ".join("%d %s" % (counts[v], v) for v in VERDICTS))]
    for doc in dict.fromkeys(r["document"] for r in rows):
        out += ["## " + doc + "\n",
                "| claim | section | the paper | ours | ours / paper | verdict | how ours was measured, or why it "
                "differs |",
                "| --- | --- | --- | ---: | ---: | --- | --- |"]
        for r in rows:
            if r["document"] != doc:
                continue
            why = r["detail"]
            if r["reason"]:
                why += "; **why**: " + r["reason"]
                if r["reason_link"]:
                    why += " ([measured](%s))" % link(r["reason_link"], run)
            out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
                cell(r["id"]), cell(r["section"]), cell(r["paper"]), fmt(r["ours"]), fmt(r["ratio"]),
                r["verdict"], cell(why)))
        out.append("")
    with open(os.path.join(run, "claims.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(out))


# ---- lint

def slug(heading):
    """A heading's anchor as GitHub makes it."""
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def cmd_lint(args):
    claims, reasons = read_docs(args.docs)
    ids = [c["id"] for c in claims]
    bad = []
    if len(ids) != len(set(ids)):
        bad.append("claims named twice: %s" % sorted({i for i in ids if ids.count(i) > 1}))
    if len(ids) < 30:
        bad.append("only %d claims" % len(ids))
    for i in sorted(set(ids) - set(claims_rules.RULES)):
        bad.append("claim %s has no rule in claims_rules.py" % i)
    for i in sorted(set(claims_rules.RULES) - set(ids)):
        bad.append("rule %s has no claim in %s" % (i, args.docs))
    for c in claims:
        if not c["section"] or not c["claim"] or not c["the paper's number"]:
            bad.append("claim %s lacks its section, text or number" % c["id"])
        kind, paper = kind_of(c["id"]) if c["id"] in claims_rules.RULES else (None, None)
        if kind in ("ratio", "value", "atleast") and "%g" % paper not in c["the paper's number"].replace(",", ""):
            bad.append("claim %s: the rule's number %g is not the docs' %r" % (c["id"], paper,
                                                                            c["the paper's number"]))
    for i, r in reasons.items():
        if i not in ids:
            bad.append("reason for %s, which is no claim" % i)
        path, _, anchor = r["measured in"].partition("#")
        full = os.path.join(ROOT, path)
        if not os.path.isfile(full):
            bad.append("reason for %s: no file %s" % (i, path))
            continue
        with open(full, encoding="utf-8") as f:
            heads = {slug(line.lstrip("#")) for line in f if line.startswith("#")}
        if anchor and anchor not in heads:
            bad.append("reason for %s: no heading #%s in %s" % (i, anchor, path))
    for b in bad:
        print("claims.py lint: " + b, file=sys.stderr)
    if bad:
        sys.exit(1)
    print("claims.py lint: %d claims, %d rules, %d reasons agree" % (len(ids), len(claims_rules.RULES), len(reasons)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    j = sub.add_parser("judge")
    j.add_argument("run")
    j.add_argument("--docs", default=DOCS)
    j.set_defaults(fn=cmd_judge)
    lt = sub.add_parser("lint")
    lt.add_argument("--docs", default=DOCS)
    lt.set_defaults(fn=cmd_lint)
    args = ap.parse_args()
    args.fn(args)


if __name__ == "__main__":
    main()
