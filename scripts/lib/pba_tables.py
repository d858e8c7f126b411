#!/usr/bin/env python3
"""Check gpubench avoid reports of the worst-case sweep and turn them into Tables 5.2-5.4.

    pba_tables.py check REPORT.json [--impls LIST]
        Exit 0 and print a one-line summary when the report is a complete,
        verified worst-case run (of exactly the implementations in LIST, in
        that order, when given); otherwise print why on stderr and exit 1.

    pba_tables.py table DIR --csv OUT.csv --md OUT.md
        Read every DIR/pba-R<res>-P<procs>.json, check each one as above, and
        write one CSV row per report and implementation, plus one markdown
        table per resource count whose last columns are the thesis's own
        numbers (thesis_numbers.py) wherever the thesis has the size, `-`
        elsewhere. Any report that fails a check, disagrees with its file
        name or was made under other settings than the rest makes the whole
        command fail: no numbers are written.

    pba_tables.py plot-vars OUT.csv
        Print the gnuplot assignments scripts/pba-tables.gp needs to draw the
        lines that OUT.csv holds.

CSV columns, one row per (res, procs, impl), sorted by impl, res and procs
so that each line of the plot is a run of consecutive rows:
    res, procs, impl          the size and the implementation
    request_median_s          median seconds to decide one request
    request_min_s, request_max_s, requests
                              the same over the requests of the last repetition
    stream_median_s           median seconds for the whole stream, over repetitions
    safety_steps_max          most safety iterations (cpu, gpu, gpu-thesis) or
                              processes released (cpu-fast) in one request
    speedup_gpu               request_median_s of this row / that of gpu in the
                              same report: how many times faster gpu decided a
                              request; empty when the report has no gpu entry
    speedup_gpu_thesis        the same for gpu-thesis

Report checks are those of report2csv.py (complete, verified); only the
standard library is used.
"""

import argparse
import os
import re
import sys

# The checks and the writing helpers are report2csv.py's; importing it must
# not leave a __pycache__ folder in scripts/lib (make dist copies the folder).
sys.dont_write_bytecode = True
from report2csv import (  # noqa: E402
    ReportError, agree, checked, field, fmt_speedup, fmt_time, gp_list, write_atomically,
    read_csv, write_csv)
from thesis_numbers import UNIT_NOTE, ThesisDataError, md_cells, md_columns  # noqa: E402

CSV_FIELDS = [
    "res", "procs", "impl", "request_median_s", "request_min_s", "request_max_s",
    "requests", "stream_median_s", "safety_steps_max", "speedup_gpu", "speedup_gpu_thesis",
]
# The implementations that get a speedup column: fast one -> CSV column.
FAST = (("gpu", "speedup_gpu"), ("gpu-thesis", "speedup_gpu_thesis"))
BASES = ("cpu", "cpu-fast")
# Column order of the tables; an implementation not named here comes after these.
IMPL_ORDER = ("gpu", "gpu-thesis", "cpu", "cpu-fast")
# The thesis's table for each resource count of its worst-case experiment.
THESIS_TABLE = {256: "5.2", 512: "5.3", 1024: "5.4"}
THESIS_MAX_PROCS = 8192

NAME_RE = re.compile(r"^pba-R(?P<res>[0-9]+)-P(?P<procs>[0-9]+)\.json$")


def impl_key(name):
    return (IMPL_ORDER.index(name), "") if name in IMPL_ORDER else (len(IMPL_ORDER), name)


def why_failed(doc, path):
    bad = ["%s: %s mismatched decisions%s" % (
        e.get("impl"), e.get("mismatches"),
        "" if e.get("final_state_matches") else ", final state differs")
        for e in field(doc, path, "results.impls")
        if e.get("mismatches") or e.get("final_state_matches") is False]
    return "; ".join(bad) or "the oracle disagreed (see the report)"


def checked_avoid(path, impls=None):
    """The report at path, after every check a number in the tables must pass."""
    doc = checked(path, "avoid", why_failed)
    workload = field(doc, path, "config.workload")
    if workload != "worst-case":
        raise ReportError("%s: workload %r, the tables are of the worst case" % (path, workload))
    names = [field(e, path, "impl") for e in field(doc, path, "results.impls")]
    if len(set(names)) != len(names):
        raise ReportError("%s: an implementation appears twice: %s" % (path, ", ".join(names)))
    if impls is not None and names != impls:
        raise ReportError("%s: implementations %s, expected %s"
                          % (path, ",".join(names), ",".join(impls)))
    return doc


def rows_of(doc, path):
    """One row per implementation of the report, speedups filled in."""
    res, procs = field(doc, path, "config.res"), field(doc, path, "config.procs")
    rows = []
    for e in field(doc, path, "results.impls"):
        req = field(e, path, "request_seconds")
        if not req.get("n") or req.get("median") is None:
            raise ReportError("%s: %s decided no request (is --events at least 1?)"
                              % (path, e["impl"]))
        rows.append({
            "res": res, "procs": procs, "impl": e["impl"],
            "request_median_s": req["median"], "request_min_s": req["min"],
            "request_max_s": req["max"], "requests": req["n"],
            "stream_median_s": field(e, path, "stream_seconds.median"),
            "safety_steps_max": field(e, path, "safety_steps_max"),
        })
    median = {r["impl"]: r["request_median_s"] for r in rows}
    for r in rows:
        for fast, column in FAST:
            r[column] = (r["request_median_s"] / median[fast]
                         if median.get(fast) else None)
    return rows


def summary(doc, path):
    rows = rows_of(doc, path)
    times = ", ".join("%s %s" % (r["impl"], fmt_time(r["request_median_s"])) for r in rows)
    steps = max(r["safety_steps_max"] for r in rows)
    return "request median %s; up to %d safety steps; %s backend" % (
        times, steps, field(doc, path, "device.backend"))


def cmd_check(args):
    impls = args.impls.split(",") if args.impls else None
    doc = checked_avoid(args.report, impls)
    print(summary(doc, args.report))


def device_text(doc):
    dev = doc.get("device", {})
    if dev.get("backend") == "gpu":
        return "%s (%s SMs, driver %s, runtime %s)" % (
            dev.get("name"), dev.get("sm_count"), dev.get("cuda_driver_version"),
            dev.get("cuda_runtime_version"))
    return "none (CPU implementations only)"


def collect(folder):
    rows, docs, paths = [], [], []
    if not os.path.isdir(folder):
        raise ReportError("%s: no such folder" % folder)
    for name in sorted(os.listdir(folder)):
        m = NAME_RE.match(name)
        if not m:
            continue
        path = os.path.join(folder, name)
        doc = checked_avoid(path)
        res, procs = field(doc, path, "config.res"), field(doc, path, "config.procs")
        if (res, procs) != (int(m.group("res")), int(m.group("procs"))):
            raise ReportError("%s: the report is for %d resources and %d processes, not what "
                              "its name says" % (path, res, procs))
        rows += rows_of(doc, path)
        docs.append(doc)
        paths.append(path)
    if not docs:
        raise ReportError("%s: no pba-R<res>-P<procs>.json reports found" % folder)
    agree(docs, paths, "stream lengths (--events)", lambda d: d["config"]["events"])
    agree(docs, paths, "repetitions (--reps)", lambda d: d["config"]["reps"])
    agree(docs, paths, "host CPUs", lambda d: d["device"].get("cpu_model"))
    agree(docs, paths, "GPUs", lambda d: d["device"].get("name"))
    rows.sort(key=lambda r: (impl_key(r["impl"]), r["res"], r["procs"]))
    return rows, docs


def md_text(rows, docs):
    """The markdown tables, built before anything is written so that a failure writes nothing."""
    first = docs[0]
    cfg = first["config"]
    revisions = sorted({d["meta"].get("git_revision", "?") for d in docs})
    devices = sorted({device_text(d) for d in docs})
    dates = sorted(d["meta"].get("date_utc", "") for d in docs)
    impls = sorted({r["impl"] for r in rows} | set(IMPL_ORDER), key=impl_key)
    pairs = [(fast, column, base) for fast, column in FAST for base in BASES]
    at = {(r["res"], r["procs"], r["impl"]): r for r in rows}
    requests = max(r["requests"] for r in rows)
    lines = [
        "# GPU-PBA, worst case: Tables 5.2-5.4",
        "",
        "Median time to decide one request of the worst-case stream (every request needs "
        "I - 1 safety iterations of the thesis's algorithm), per implementation, and the "
        "speedups: *X over Y* is Y's median request time divided by X's, from the same run. "
        "The thesis gives CPU time, GPU time and speedup per size; its CPU-PBA is `cpu` and "
        "its GPU kernels are `gpu-thesis`. `-`: not run at that size, or a size the thesis has "
        "no number for. Every run was verified against the oracle (every decision and the "
        "final state).",
        "",
        "- GPU: " + "; ".join(devices),
        "- host CPU: %s, %s logical cores" % (first["device"].get("cpu_model"),
                                              first["device"].get("cpu_logical_cores")),
        "- gpubench: %s, git %s, build %s" % (first["meta"].get("gpubench_version"),
                                              ", ".join(revisions),
                                              first["meta"].get("build_flags")),
        "- runs: %d, from %s to %s" % (len(docs), dates[0], dates[-1]),
        "- protocol: %s events per stream (%d request%s), %s repetition%s; request times are "
        "those of the last repetition" % (cfg["events"], requests, "" if requests == 1 else "s",
                                          cfg["reps"], "" if cfg["reps"] == 1 else "s"),
        "- example command: `gpubench %s`" % " ".join(first["meta"].get("argv", [])),
    ]
    if any(r["procs"] > THESIS_MAX_PROCS for r in rows):
        lines.append("- rows past %d processes go beyond the thesis's tables (--extended)"
                     % THESIS_MAX_PROCS)
    thesis = md_columns("pba")
    lines += [
        "- thesis columns: the thesis's own numbers at that size, as printed in its Tables "
        "5.2-5.4: `cpu` (CPU-PBA) on an Intel Core i7 at 2.8 GHz, `gpu-thesis` (GPU-PBA) on "
        "the Tesla K20c, the newest of its three GPUs, and *best*, GPU-PBA's largest speedup "
        "over the GTX 670, Tesla C2050 and Tesla K20c, naming the GPUs that reach it. The "
        "thesis times the same worst case but does not say over how many requests",
        "- " + UNIT_NOTE,
        "- the thesis's speedups are one less than its CPU time over its GPU time, (CPU - GPU) "
        "/ GPU, where ours are the quotient (Table 5.2, 8192 x 256, K20c: 8.34 s / 1.99 s = "
        "4.19, printed 3.19x)",
    ]
    for res in sorted({r["res"] for r in rows}):
        table = THESIS_TABLE.get(res)
        lines += ["", "## %s%d resources" % ("Table %s: " % table if table else "", res), "",
                  "| processes | " + " | ".join(impls) + " | "
                  + " | ".join("%s over %s" % (fast, base) for fast, _, base in pairs)
                  + "".join(" | " + t for t in thesis) + " |",
                  "| ---: " * (1 + len(impls) + len(pairs) + len(thesis)) + "|"]
        for procs in sorted({r["procs"] for r in rows if r["res"] == res}):
            cells = [str(procs)]
            for impl in impls:
                r = at.get((res, procs, impl))
                cells.append(fmt_time(r["request_median_s"] if r else None))
            for _, column, base in pairs:
                r = at.get((res, procs, base))
                cells.append(fmt_speedup(r[column] if r else None))
            cells += md_cells("pba", procs, res)
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def cmd_table(args):
    rows, docs = collect(args.dir)
    text = md_text(rows, docs)
    write_csv(rows, args.csv, CSV_FIELDS)
    write_atomically(args.md, text)
    print("%d reports -> %s, %s" % (len(docs), args.csv, args.md))


def cmd_plot_vars(args):
    rows = read_csv(args.csv, CSV_FIELDS, "pba_tables.py table")
    res_list = sorted({int(r["res"]) for r in rows})
    procs = [int(r["procs"]) for r in rows]
    # Each implementation keeps its colour whichever others the reports hold.
    colours = list(IMPL_ORDER) + sorted({r["impl"] for r in rows} - set(IMPL_ORDER))
    # One line per (implementation, res) with a time, one per (fast, base, res)
    # with a speedup; colour by implementation or pair, dash by resource count.
    times = sorted({(r["impl"], int(r["res"])) for r in rows},
                   key=lambda t: (impl_key(t[0]), t[1]))
    pairs = [(fast, column, base) for fast, column in FAST for base in BASES]
    speedups = [(k, res) for k, (fast, column, base) in enumerate(pairs) for res in res_list
                if any(r["impl"] == base and int(r["res"]) == res and r[column] for r in rows)]
    assign = {
        "pmin": min(procs), "pmax": max(procs),
        "t_impl": gp_list(i for i, _ in times),
        "t_res": gp_list(res for _, res in times),
        "t_ci": gp_list(colours.index(i) + 1 for i, _ in times),
        "t_ri": gp_list(res_list.index(res) + 1 for _, res in times),
        "s_fast": gp_list(pairs[k][0] for k, _ in speedups),
        "s_base": gp_list(pairs[k][2] for k, _ in speedups),
        "s_col": gp_list(CSV_FIELDS.index(pairs[k][1]) + 1 for k, _ in speedups),
        "s_res": gp_list(res for _, res in speedups),
        "s_ci": gp_list(k + 1 for k, _ in speedups),
        "s_ri": gp_list(res_list.index(res) + 1 for _, res in speedups),
    }
    print("; ".join("%s=%s" % kv for kv in assign.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="check one report and summarise it")
    c.add_argument("report")
    c.add_argument("--impls", help="comma-separated implementations the report must hold")
    c.set_defaults(fn=cmd_check)
    t = sub.add_parser("table", help="CSV and markdown from a folder of reports")
    t.add_argument("dir")
    t.add_argument("--csv", required=True)
    t.add_argument("--md", required=True)
    t.set_defaults(fn=cmd_table)
    p = sub.add_parser("plot-vars", help="gnuplot variables for scripts/pba-tables.gp")
    p.add_argument("csv")
    p.set_defaults(fn=cmd_plot_vars)
    args = ap.parse_args()
    try:
        args.fn(args)
    except (ReportError, ThesisDataError) as e:
        print("pba_tables: %s" % e, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
