#!/usr/bin/env python3
"""Check gpubench speculate reports and turn a sweep of them into Figures 8-11 and Table 1.

    speculate_figures.py check REPORT.json
        Exit 0 and print a one-line summary when the report is a complete,
        verified speculate run; otherwise print why on stderr and exit 1.

    speculate_figures.py table DIR --out OUTDIR
        Read every DIR/spec-<loop>-<opt>.json, check each one as above, and
        write OUTDIR/table1.csv, fig8.csv ... fig11.csv and OUTDIR/figures.md. Every loop
        needs its --opt all report, which carries the baselines (seq,
        cpu-spec, gpu-nospec, cpu-inspect, cpu-tm); the other --opt reports of a loop must be runs
        of the same loop instance (iterations, density, work, seed) on the same
        backend. Any failed check writes nothing.

The CSVs are wide (one row per loop, in the paper's order), for gnuplot's
clustered histograms (scripts/speculate-figures.gp):
  table1.csv loop, paper_irregularity, paper_time_share, paper_pragmas (the
             paper's Table 1 row), kind, clause, iters, elements, density,
             work (ours, from the --opt all report), stands_for (what our
             synthetic loop keeps of the benchmark, docs/speculate.md)
  fig8.csv   loop, all, no-mo, no-co, no-sched: speedup over seq (the seq
             median of the loop's --opt all run over each run's median)
  fig9.csv   loop, gpu-spec, cpu-spec, gpu-nospec, cpu-inspect, cpu-tm:
             speedups over seq (gpu-spec is the --opt all run on its backend;
             cpu-tm is the paper's CPU speculation, with transactional memory;
             empty when a baseline was not run: cpu-inspect runs the memory
             loops only, gpu-nospec fftbench and alvinn)
  fig10.csv  loop, all, no-mo, no-co, no-sched, none: misspeculation rate in
             percent (iterations re-executed on the CPU over iterations);
             all is the paper's "w/ opts", none (every optimization left
             out) its "w/o opts"; then paper_all and paper_none, the
             paper's two columns
  fig11.csv  loop, inputs, setup, scheduling, computation, check, commit, recovery:
             percent of the --opt all run's loop time in each phase (medians)
Only the standard library is used.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report2csv import (ReportError, agree, checked, field, fmt_speedup,  # noqa: E402
                        write_atomically, write_csv)

LOOPS = ["ocean", "trfd", "fftbench", "mdg", "strcat", "gothic", "alvinn", "chain", "figure3"]
OPTS = ["all", "no-mo", "no-co", "no-sched"]
# Figure 10 has the paper's "w/o opts" too: every optimization left out at once.
RATE_OPTS = OPTS + ["none"]
PHASES = ["inputs", "setup", "scheduling", "computation", "check", "commit", "recovery"]
NAME_RE = re.compile(r"^spec-(?P<loop>[a-z0-9]+)-(?P<opt>all|no-mo|no-co|no-sched|none)\.json$")

# The paper's Table 1 (irregularities, % of the program's time in the loop, pragmas inserted)
# and Figure 10 (misspeculation rate in percent, w/ and w/o the optimizations), and what each
# synthetic loop keeps of the benchmark it stands for (docs/speculate.md, "The loops").
PAPER = {
    "ocean": ("irregular memory accesses", "45%", 1, 0.14, 0.53,
              "cells relaxed through index arrays, rare early RAW/WAR and WAW"),
    "trfd": ("irregular memory accesses", "6%", 1, 0.52, 100.0,
             "writes through a permutation with one WAW pair per execution"),
    "fftbench": ("irregular memory accesses", "20%", 1, 0.0, 0.0,
                 "a scrambled butterfly stage, every access tracked, no dependence"),
    "mdg": ("irregular control flow", "94%", 2, 0.0018, 0.0018,
            "heavy iterations, a rare branch that changes all later ones"),
    "strcat": ("irregular control flow", "99%", 2, 2.10, 41.23,
               "appends into a buffer reallocated at growing intervals"),
    "gothic": ("irregular control flow", "99%", 2, 0.67, 0.92,
               "an escaping particle invalidates all later iterations"),
    "alvinn": ("irregular control flow", "97%", 8, 0.0, 0.0,
               "pointer-increment weights that never change: no misspeculation"),
}


def checked_spec(path):
    return checked(path, "speculate")


def baseline(doc, path, name):
    for b in field(doc, path, "results.baselines"):
        if b.get("name") == name:
            return b
    return None


def summary(doc, path):
    r = field(doc, path, "results")
    sp = r.get("speedup_over", {})
    extra = "".join(", %.3gx over %s" % (v, k) for k, v in sp.items() if v)
    return "%s opt %s: %.4g s median, %d assignments, misspeculation %.4f%%%s, %s backend" % (
        field(doc, path, "config.loop"), field(doc, path, "config.opt"),
        r["loop_seconds"]["median"], r["assignments"], 100 * r["misspeculation_rate"], extra,
        field(doc, path, "device.backend"))


def cmd_check(args):
    doc = checked_spec(args.report)
    print(summary(doc, args.report))


def collect(folder):
    runs = {}
    paths = []
    for name in sorted(os.listdir(folder)):
        m = NAME_RE.match(name)
        if not m:
            continue
        path = os.path.join(folder, name)
        doc = checked_spec(path)
        loop, opt = m.group("loop"), m.group("opt")
        if field(doc, path, "config.loop") != loop or field(doc, path, "config.opt") != opt:
            raise ReportError("%s: a run of %s --opt %s, not what its name says" % (
                path, field(doc, path, "config.loop"), field(doc, path, "config.opt")))
        runs[(loop, opt)] = (doc, path)
        paths.append(path)
    if not runs:
        raise ReportError("%s: no spec-<loop>-<opt>.json reports" % folder)
    docs = [runs[k][0] for k in runs]
    agree(docs, paths, "backends", lambda d: d["config"]["backend"])
    loops = [loop for loop in LOOPS if any(k[0] == loop for k in runs)]
    for loop in loops:
        if (loop, "all") not in runs:
            raise ReportError("%s: no spec-%s-all.json, which holds the loop's baselines" % (folder, loop))
        mine = [runs[(loop, o)] for o in RATE_OPTS if (loop, o) in runs]
        agree([d for d, _ in mine], [p for _, p in mine], "instances of %s" % loop,
              lambda d: (d["config"]["iters"], d["config"]["density"], d["config"]["work"],
                         d["config"]["seed"]))
    return runs, loops


def ratio(a, b):
    return a / b if a is not None and b else None


def tables(runs, loops):
    f8, f9, f10, f11 = [], [], [], []
    for loop in loops:
        doc, path = runs[(loop, "all")]
        seq = baseline(doc, path, "seq")
        seq_t = seq["loop_seconds"]["median"] if seq else None
        r8, r10 = {"loop": loop}, {"loop": loop}
        for opt in OPTS:
            got = runs.get((loop, opt))
            res = got[0]["results"] if got else None
            r8[opt] = ratio(seq_t, res["loop_seconds"]["median"]) if res else None
            r10[opt] = 100.0 * res["misspeculation_rate"] if res else None
        f8.append(r8)
        got = runs.get((loop, "none"))
        r10["none"] = 100.0 * got[0]["results"]["misspeculation_rate"] if got else None
        r10["paper_all"], r10["paper_none"] = (PAPER[loop][3], PAPER[loop][4]) if loop in PAPER else (None, None)
        f10.append(r10)
        r9 = {"loop": loop, "gpu-spec": r8["all"]}
        for name in ("cpu-spec", "gpu-nospec", "cpu-inspect", "cpu-tm"):
            b = baseline(doc, path, name)
            r9[name] = ratio(seq_t, b["loop_seconds"]["median"]) if b else None
        f9.append(r9)
        res = doc["results"]
        total = res["loop_seconds"]["median"]
        r11 = {"loop": loop}
        for ph in PHASES:
            r11[ph] = 100.0 * res["phase_seconds"][ph]["median"] / total if total else None
        f11.append(r11)
    t1 = []
    for loop in loops:
        c = runs[(loop, "all")][0]["config"]
        p = PAPER.get(loop, (None,) * 6)
        t1.append({"loop": loop, "paper_irregularity": p[0], "paper_time_share": p[1], "paper_pragmas": p[2],
                   "kind": c["kind"], "clause": c["clause"], "iters": c["iters"], "elements": c["elements"],
                   "density": c["density"], "work": c["work"], "stands_for": p[5]})
    return t1, f8, f9, f10, f11


def fmt_pct(x):
    return "-" if x is None else "%.3g%%" % x


def md_table(head, rows, keys, fmt):
    out = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for r in rows:
        out.append("| " + " | ".join([r["loop"]] + [fmt(r[k]) for k in keys]) + " |")
    return "\n".join(out) + "\n"


def cmd_table(args):
    runs, loops = collect(args.dir)
    t1, f8, f9, f10, f11 = tables(runs, loops)
    os.makedirs(args.out, exist_ok=True)
    write_csv(t1, os.path.join(args.out, "table1.csv"), list(t1[0].keys()))
    write_csv(f8, os.path.join(args.out, "fig8.csv"), ["loop"] + OPTS)
    write_csv(f9, os.path.join(args.out, "fig9.csv"),
              ["loop", "gpu-spec", "cpu-spec", "gpu-nospec", "cpu-inspect", "cpu-tm"])
    write_csv(f10, os.path.join(args.out, "fig10.csv"), ["loop"] + RATE_OPTS + ["paper_all", "paper_none"])
    write_csv(f11, os.path.join(args.out, "fig11.csv"), ["loop"] + PHASES)
    doc = runs[(loops[0], "all")][0]
    dev = doc["device"]
    where = dev.get("name") if dev.get("backend") == "gpu" else "CPU backend, %s workers" % dev.get("cpu_workers")
    text = ["# Table 1 and Figures 8-11 of \"Optimistic Parallelism on GPUs\", gpubench speculate\n",
            "- backend: %s (%s); gpubench %s (%s)" % (
                dev.get("backend"), where, doc["meta"]["gpubench_version"], doc["meta"]["git_revision"]),
            "- loops: " + ", ".join("%s (%d iterations)" % (
                loop, runs[(loop, "all")][0]["config"]["iters"]) for loop in loops),
            "- speedups: median loop time of `seq` over the run's; rates: iterations re-executed "
            "on the CPU over iterations\n",
            "## Table 1: the loops\n",
            "The paper's rows (irregularities, share of the program's time in the loop, pragmas "
            "inserted) beside our synthetic loop standing for each benchmark: its kind, its "
            "`misspeculate` clause (control-flow loops: the branch pragma's), iterations, array "
            "elements, dependence density and work per iteration (docs/speculate.md, \"The "
            "loops\", says why each stands for its original).\n",
            "| loop | paper: irregularities | paper: % of time | paper: pragmas | kind | clause | "
            "iterations | elements | density | work | stands for |",
            "|" + " --- |" * 11,
            "\n".join("| %s | %s | %s | %s | %s | %s | %d | %d | %g | %d | %s |" % (
                r["loop"], r["paper_irregularity"] or "-", r["paper_time_share"] or "-",
                r["paper_pragmas"] if r["paper_pragmas"] is not None else "-", r["kind"], r["clause"] or "-",
                r["iters"], r["elements"], r["density"], r["work"], r["stands_for"] or "-") for r in t1) + "\n",
            "## Figure 8: speedup over seq with each optimization left out\n",
            md_table(["loop", "all", "w/o MO", "w/o CO", "w/o SCHED"], f8, OPTS, fmt_speedup),
            "## Figure 9: against CPU speculation and the non-speculative parallel loop\n",
            md_table(["loop", "speculative (" + dev.get("backend", "?") + ")", "cpu-spec",
                      "gpu-nospec", "cpu-inspect", "cpu-tm"], f9,
                     ["gpu-spec", "cpu-spec", "gpu-nospec", "cpu-inspect", "cpu-tm"], fmt_speedup),
            "## Figure 10: misspeculation rate\n",
            "w/ opts is `--opt all`, w/o opts `--opt none` (all three optimizations left out); "
            "the paper's two columns beside them.\n",
            md_table(["loop", "w/ opts (all)", "w/o MO", "w/o CO", "w/o SCHED", "w/o opts (none)",
                      "paper w/ opts", "paper w/o opts"], f10, RATE_OPTS + ["paper_all", "paper_none"], fmt_pct),
            "## Figure 11: share of the loop time per phase (--opt all)\n",
            md_table(["loop"] + PHASES, f11, PHASES, fmt_pct)]
    write_atomically(os.path.join(args.out, "figures.md"), "\n".join(text))
    print("speculate_figures.py: %d loops, %d reports -> %s/table1.csv, fig8..fig11.csv, figures.md"
          % (len(loops), len(runs), args.out), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("report")
    c.set_defaults(fn=cmd_check)
    t = sub.add_parser("table")
    t.add_argument("dir")
    t.add_argument("--out", required=True)
    t.set_defaults(fn=cmd_table)
    args = ap.parse_args()
    try:
        args.fn(args)
    except ReportError as e:
        print("speculate_figures.py: %s" % e, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
