#!/usr/bin/env python3
"""Check gpubench list insert reports and turn them into Table 1 of Mulder 2015.

    list_table1.py check REPORT.json [--impls LIST]
        Exit 0 and print a one-line summary when the report is a complete,
        verified --op insert run into an empty list (of exactly the
        implementations in LIST, in that order, when given); otherwise print
        why on stderr and exit 1.

    list_table1.py table DIR --csv OUT.csv --md OUT.md
        Read every DIR/table1-N<nodes>.json, check each one as above, and write
        one CSV row per report and implementation, with the paper's numbers
        beside them where Table 1 has the size, and a markdown table. A report
        that fails a check or disagrees with its file name fails the command:
        no numbers are written.

    list_table1.py plot-vars OUT.csv
        Print the gnuplot assignments scripts/list-table1.gp needs.

CSV columns, one row per (nodes, impl), sorted by impl and nodes:
    nodes, impl             the size and the implementation
    insert_median_us        median microseconds to insert all nodes (Table 1's
                            measure), over repetitions; insert_min_us, insert_max_us
    inserts_per_s           nodes / median seconds
    threads                 logical threads (work-items) of the run
    heap_bytes              the heap the run used (heap-based implementations)
    paper_opencl_cpu_us, paper_opencl_gpu_us, paper_c_us
                            Table 1's averages for that size (i3 M 370 CPU,
                            GeForce 310M); empty past 4096 nodes or where the
                            paper's GPU run failed (above 2304 nodes)
Only the standard library is used.
"""

import argparse
import os
import re
import sys

sys.dont_write_bytecode = True
from report2csv import (  # noqa: E402
    ReportError, checked, field, fmt_time, gp_list, write_atomically, write_csv)

CSV_FIELDS = [
    "nodes", "impl", "insert_median_us", "insert_min_us", "insert_max_us", "inserts_per_s",
    "threads", "heap_bytes", "paper_opencl_cpu_us", "paper_opencl_gpu_us", "paper_c_us",
]
IMPL_ORDER = ("opencl-cpu", "opencl", "gpu", "gpu-tail", "cpu", "cpu-tail", "cpu-lockfree", "cpu-lockfree-tail")
NAME_RE = re.compile(r"^table1-N(?P<nodes>[0-9]+)\.json$")

# Table 1 of the paper: nodes -> (OpenCL CPU, OpenCL GPU, C), microseconds; GPU 0 = failed.
PAPER = {
    128: (2144, 14198, 99), 256: (9547, 40396, 375), 384: (21792, 105686, 800),
    512: (37940, 167632, 1325), 640: (56706, 244790, 2033), 768: (80483, 362636, 2840),
    896: (103054, 424999, 4000), 1024: (120602, 550810, 5250), 1152: (146733, 633239, 6466),
    1280: (175352, 860757, 7333), 1408: (208957, 1042040, 9000), 1536: (242173, 1010622, 10600),
    1664: (285065, 1439403, 12100), 1792: (333750, 1642655, 14300), 1920: (369299, 1449156, 16301),
    2048: (432494, 1687129, 17301), 2176: (484262, 1883452, 18801), 2304: (545609, 2059861, 21001),
    2432: (612020, 0, 23601), 2560: (669474, 0, 26601), 2688: (744410, 0, 29001),
    2816: (818043, 0, 31201), 2944: (901208, 0, 33002), 3072: (972537, 0, 34001),
    3200: (1054012, 0, 36602), 3328: (1139842, 0, 40002), 3456: (1238072, 0, 39602),
    3584: (1324289, 0, 42002), 3712: (1419699, 0, 44802), 3840: (1529863, 0, 49202),
    3968: (1643151, 0, 52203), 4096: (1799220, 0, 54203),
}


def impl_key(name):
    return (IMPL_ORDER.index(name), "") if name in IMPL_ORDER else (len(IMPL_ORDER), name)


def checked_list(path, impls=None):
    doc = checked(path, "list")
    cfg = field(doc, path, "config")
    if cfg.get("op") != "insert" or cfg.get("starting_nodes") != 0:
        raise ReportError("%s: not an insert into an empty list (op %r)" % (path, cfg.get("op")))
    got = [e["impl"] for e in field(doc, path, "results.impls")]
    if impls is not None and got != impls:
        raise ReportError("%s: implementations %s, expected %s" % (path, ",".join(got), ",".join(impls)))
    for e in field(doc, path, "results.impls"):
        if e["list_nodes"] != cfg["nodes"] or e["outcomes"]["add"]["out_of_heap"]:
            raise ReportError("%s: %s holds %s of %s nodes (heap too small?)" % (
                path, e["impl"], e["list_nodes"], cfg["nodes"]))
    return doc


def rows_of(doc, path):
    cfg = doc["config"]
    paper = PAPER.get(cfg["nodes"])
    rows = []
    for e in doc["results"]["impls"]:
        s = e["run_seconds"]
        rows.append({
            "nodes": cfg["nodes"], "impl": e["impl"],
            "insert_median_us": s["median"] * 1e6, "insert_min_us": s["min"] * 1e6,
            "insert_max_us": s["max"] * 1e6, "inserts_per_s": e["ops_per_s"],
            "threads": cfg["threads"],
            "heap_bytes": e["heap"]["heap_bytes"] if e.get("heap") else None,
            "paper_opencl_cpu_us": paper[0] if paper else None,
            "paper_opencl_gpu_us": (paper[1] or None) if paper else None,
            "paper_c_us": paper[2] if paper else None,
        })
    return rows


def cmd_check(args):
    try:
        doc = checked_list(args.report, args.impls.split(",") if args.impls else None)
    except ReportError as e:
        print("list_table1.py: %s" % e, file=sys.stderr)
        return 1
    print(", ".join("%s %s" % (r["impl"], fmt_time(r["insert_median_us"] * 1e-6))
                    for r in rows_of(doc, args.report)) + ", verified")
    return 0


def cmd_table(args):
    rows, docs = [], []
    try:
        names = sorted(n for n in os.listdir(args.dir) if n.endswith(".json"))
        if not names:
            raise ReportError("%s: no reports" % args.dir)
        for name in names:
            path = os.path.join(args.dir, name)
            m = NAME_RE.match(name)
            if not m:
                raise ReportError("%s: not a table1-N<nodes>.json name" % path)
            doc = checked_list(path)
            if doc["config"]["nodes"] != int(m.group("nodes")):
                raise ReportError("%s: holds %s nodes, the name says %s" % (
                    path, doc["config"]["nodes"], m.group("nodes")))
            docs.append(doc)
            rows += rows_of(doc, path)
    except (ReportError, OSError) as e:
        print("list_table1.py: %s" % e, file=sys.stderr)
        return 1
    rows.sort(key=lambda r: (impl_key(r["impl"]), r["nodes"]))
    write_csv(rows, args.csv, CSV_FIELDS)
    impls = sorted({r["impl"] for r in rows}, key=impl_key)
    sizes = sorted({r["nodes"] for r in rows})
    at = {(r["nodes"], r["impl"]): r for r in rows}
    devices = sorted({"%s (%s)" % (d["device"].get("name") or d["device"].get("cpu_model", "?"),
                                   d["device"].get("backend")) for d in docs})
    wheres = sorted({"%s: %s (%s device, driver %s)" % (
        e["impl"], e["where"], e["opencl"]["device_type"], e["opencl"]["driver_version"]) if e.get("opencl")
        else "%s: %s" % (e["impl"], e["where"])
        for d in docs for e in d["results"]["impls"] if e.get("where")})
    lines = [
        "# Table 1: inserting nodes into an empty list",
        "",
        "Median time to insert all nodes (one logical thread per node up to 65536), over "
        "repetitions; every run verified (count, every key reachable once, allocator blocks). "
        "The paper's columns are its Table 1 (OpenCL on the Intel i3 M 370 and on the GeForce "
        "310M, the serial C list); ours for them are opencl-cpu, opencl and cpu.",
        "",
        "- device: " + "; ".join(devices),
        "- OpenCL: " + ("; ".join(wheres) if wheres else "not run"),
        "- gpubench: %s, git %s" % (docs[0]["meta"].get("gpubench_version"),
                                    ", ".join(sorted({d["meta"].get("git_revision", "?") for d in docs}))),
        "- example command: `gpubench %s`" % " ".join(docs[0]["meta"].get("argv", [])),
        "",
        "| nodes | " + " | ".join(impls) + " | paper OpenCL CPU | paper OpenCL GPU | paper C |",
        "| ---: | " + " | ".join("---:" for _ in impls) + " | ---: | ---: | ---: |",
    ]
    for n in sizes:
        cells = [fmt_time(at[(n, i)]["insert_median_us"] * 1e-6) if (n, i) in at else "-" for i in impls]
        p = PAPER.get(n)
        paper = [fmt_time(v * 1e-6) if v else "-" for v in p] if p else ["-", "-", "-"]
        lines.append("| %d | %s | %s |" % (n, " | ".join(cells), " | ".join(paper)))
    write_atomically(args.md, "\n".join(lines) + "\n")
    print("list_table1.py: %d reports, %d rows -> %s, %s" % (len(docs), len(rows), args.csv, args.md),
          file=sys.stderr)
    return 0


def cmd_plot_vars(args):
    impls, nmin, nmax = [], None, None
    with open(args.csv, encoding="utf-8") as f:
        next(f)
        for line in f:
            cols = line.rstrip("\n").split(",")
            n, impl = int(cols[0]), cols[1]
            if impl not in impls:
                impls.append(impl)
            nmin = n if nmin is None else min(nmin, n)
            nmax = n if nmax is None else max(nmax, n)
    print("impls=%s; nmin=%d; nmax=%d" % (gp_list(impls), nmin or 1, nmax or 1))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check")
    c.add_argument("report")
    c.add_argument("--impls")
    t = sub.add_parser("table")
    t.add_argument("dir")
    t.add_argument("--csv", required=True)
    t.add_argument("--md", required=True)
    p = sub.add_parser("plot-vars")
    p.add_argument("csv")
    args = ap.parse_args()
    return {"check": cmd_check, "table": cmd_table, "plot-vars": cmd_plot_vars}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
