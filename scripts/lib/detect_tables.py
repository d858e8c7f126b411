#!/usr/bin/env python3
"""Check gpubench detect reports of the square-system sweep and turn them into Tables 3.2-3.3 and 4.3-4.4.

    detect_tables.py impls --algo A [--want LIST [--option NAME]] < INFO.json
        Print the detectors to run for algorithm A, comma-separated, the
        first one to be --impl. INFO.json is `gpubench info --json -`.
        Without --want: every detector info lists for A, GPU ones first (and
        only when info lists a device), then cpu-bits, then the rest. With
        --want: LIST itself once every name is known (exit 2 otherwise,
        naming the option NAME, default --impls) and every GPU one has a
        device (exit 1 otherwise).

    detect_tables.py check REPORT.json [--algo A] [--impls LIST]
        Exit 0 and print a one-line summary when the report is a complete,
        verified run of A on a generated stream over a square system (of
        exactly the detectors in LIST, in that order, when given); otherwise
        print why on stderr and exit 1.

    detect_tables.py table DIR --csv OUT.csv --md OUT.md
        Read every DIR/detect-<algo>-<N>-<impl>.json (one detector's run, as
        scripts/detect-tables.sh makes them) and DIR/detect-<algo>-<N>.json
        (several detectors in one run, as it made them before), check each one
        as above, and write one CSV row per algorithm, size and detector, plus
        one markdown table per algorithm whose last columns are the thesis's
        own numbers (thesis_numbers.py) wherever the thesis has the size, `-`
        elsewhere. Any report that fails a check, disagrees with its file name
        or was made under other settings than the rest (stream, repetitions,
        host, GPU, units), a detector that two reports give at one size, or
        reports of one size that disagree on the stream's decisions make the
        whole command fail: no numbers are written.

    detect_tables.py forecast DIR --algo A --impl D --size N
        Print how many seconds (whole, rounded up) the run of detector D at
        N x N should take, from D's reports in DIR at smaller sizes: the
        largest one's time (its median stream time x its repetitions) grown
        as D grew between the two largest (a power of N, from 1 to 5), or as
        N^2 from one alone; 0 when DIR has none. scripts/detect-tables.sh
        gives it to --max-seconds (scripts/lib/sweep.sh: sweep_expect), so a
        session does not start a run it cannot finish.

    detect_tables.py plot-vars OUT.csv
        Print the gnuplot assignments scripts/detect-tables.gp needs to draw
        the lines that OUT.csv holds.

CSV columns, one row per (algo, size, impl), sorted by algo (osdda first),
impl, procs and res so that each line of the plot is a run of consecutive rows:
    algo, procs, res, impl    the system (procs = res = N) and the detector
    events                    events in the stream
    stream_median_s           median seconds to replay the whole stream, over
                              repetitions
    events_per_s              events / stream_median_s
    granted_median_s, blocked_median_s, deadlock_median_s,
    released_median_s, regranted_median_s
                              median seconds of one event of that outcome
                              (last repetition); empty when none occurred
    matrix_bytes              memory of the detector's state
    speedup_over_cpu          stream_median_s of cpu / that of this row's
                              detector at the same algorithm and size: how
                              many times faster it replayed the stream.
                              Filled only in the rows of GPU detectors (names
                              starting with "gpu") or, at a size where none
                              ran, of the first CPU one in impl_key's order
                              (cpu-bits, cpu, the rest), and only when cpu ran
                              at that size
    speedup_over_cpu_bits     the same over cpu-bits
    speedup_over_cpu_serial   the same over cpu-serial (the thesis's serial
                              CPU detectors: the speedups of its Tables 3.3 and
                              4.4)

Report checks are those of report2csv.py (complete, verified); only the
standard library is used.
"""

import argparse
import json
import math
import os
import re
import sys

# The checks and the writing helpers are report2csv.py's; importing it must
# not leave a __pycache__ folder in scripts/lib (make dist copies the folder).
sys.dont_write_bytecode = True
from report2csv import (  # noqa: E402
    ReportError, agree, checked, field, fmt_speedup, fmt_time, gp_list, load, write_atomically,
    read_csv, write_csv)
from thesis_numbers import UNIT_NOTE, ThesisDataError, md_cells, md_columns  # noqa: E402

OUTCOMES = ("granted", "blocked", "deadlock", "released", "regranted")
CSV_FIELDS = (["algo", "procs", "res", "impl", "events", "stream_median_s", "events_per_s"]
              + ["%s_median_s" % o for o in OUTCOMES]
              + ["matrix_bytes", "speedup_over_cpu", "speedup_over_cpu_bits", "speedup_over_cpu_serial"])
# The slower detectors every speedup is taken over: base -> CSV column. cpu-serial is the
# thesis's CPU-OSDDA and CPU-LMDDA (the serial GPU algorithm), so speedups over it are the ones
# its Tables 3.3 and 4.4 print.
BASES = (("cpu", "speedup_over_cpu"), ("cpu-bits", "speedup_over_cpu_bits"),
         ("cpu-serial", "speedup_over_cpu_serial"))
ALGO_ORDER = ("osdda", "lmdda")
# Per algorithm: the thesis's tables, what the resources are, and its largest size.
THESIS = {
    "osdda": ("Tables 3.2-3.3", "OSDDA", "single-unit resources", 8192),
    "lmdda": ("Tables 4.3-4.4", "LMDDA", "multi-unit resources", 1024),
}

NAME_RE = re.compile(r"^detect-(?P<algo>[a-z]+)-(?P<n>[0-9]+)(?:-(?P<impl>[a-z0-9-]+))?\.json$")


class UsageError(Exception):
    pass


def is_gpu(impl):
    """GPU detectors are named gpu or gpu-*, as gpubench names its GPU implementations.

    The tables go by the name, not by `gpubench info`, so that --plot-only
    rebuilds them anywhere from the reports alone.
    """
    return impl == "gpu" or impl.startswith("gpu-")


def impl_key(name):
    """GPU detectors first, then cpu-bits, cpu and the rest, as the script runs them."""
    rank = 0 if is_gpu(name) else 1 if name == "cpu-bits" else 2 if name == "cpu" else 3
    return (rank, name)


def algo_key(algo):
    return (ALGO_ORDER.index(algo), "") if algo in ALGO_ORDER else (len(ALGO_ORDER), algo)


def cmd_impls(args):
    try:
        info = json.load(sys.stdin)
    except ValueError as e:
        raise ReportError("gpubench info --json - printed no JSON: %s" % e)
    if not isinstance(info, dict) or not isinstance(info.get("engines"), dict):
        raise ReportError("gpubench info --json - printed no info document")
    entries = info["engines"].get("detect")
    if entries is None:
        raise ReportError("this gpubench (%s, git %s) has no detect subcommand: rebuild it "
                          "(make, or make dist) or pass --gpubench PATH"
                          % (info.get("gpubench_version"), info.get("git_revision")))
    gpu = {e["name"]: e["gpu"] for e in entries if e["algo"] == args.algo}
    if not gpu:
        raise ReportError("this gpubench has no %s detector" % args.algo)
    has_device = bool(info.get("devices"))
    if args.want is None:
        names = sorted((n for n in gpu if has_device or not gpu[n]),
                       key=lambda n: (0 if gpu[n] else 1 if n == "cpu-bits" else 2))
    else:
        names = args.want.split(",")
        for name in names:
            if name not in gpu:
                raise UsageError("%s: unknown %s detector '%s' (this gpubench has: %s)"
                                 % (args.option, args.algo, name, ", ".join(gpu)))
            if names.count(name) > 1:
                raise UsageError("%s: '%s' is named twice" % (args.option, name))
            if gpu[name] and not has_device:
                raise ReportError("%s detector '%s' needs a GPU and gpubench info lists none (%s)"
                                  % (args.algo, name, info.get("no_device_reason", "?")))
    print(",".join(names))


def why_failed(doc, path):
    bad = ["%s: %s mismatched decisions" % (e.get("impl"), e.get("mismatches"))
           for e in field(doc, path, "results.impls") if e.get("mismatches")]
    return "; ".join(bad) or "the oracle disagreed (see the report)"


def checked_detect(path, algo=None, impls=None):
    """The report at path, after every check a number in the tables must pass."""
    # checked() would say --no-verify, which is not detect's option.
    raw = load(path)
    if isinstance(raw, dict) and isinstance(raw.get("config"), dict) and \
            raw["config"].get("verify_every") == 0:
        raise ReportError("%s: not verified (run without --verify-every 0)" % path)
    doc = checked(path, "detect", why_failed)
    workload = field(doc, path, "config.workload")
    if workload != "generated":
        raise ReportError("%s: workload %r, the tables are of generated streams" % (path, workload))
    got = field(doc, path, "config.algo")
    if algo is not None and got != algo:
        raise ReportError("%s: a run of %s, expected %s" % (path, got, algo))
    procs, res = field(doc, path, "config.procs"), field(doc, path, "config.res")
    if procs != res:
        raise ReportError("%s: %d processes x %d resources, the tables are of square systems"
                          % (path, procs, res))
    names = [field(e, path, "impl") for e in field(doc, path, "results.impls")]
    if len(set(names)) != len(names):
        raise ReportError("%s: a detector appears twice: %s" % (path, ", ".join(names)))
    if impls is not None and names != impls:
        raise ReportError("%s: detectors %s, expected %s"
                          % (path, ",".join(names), ",".join(impls)))
    return doc


def rows_of(doc, path):
    """One row per detector of the report, speedups left to fill_speedups."""
    cfg = field(doc, path, "config")
    rows = []
    for e in field(doc, path, "results.impls"):
        median = field(e, path, "stream_seconds.median")
        if median is None:
            raise ReportError("%s: %s has no stream time" % (path, e["impl"]))
        row = {
            "algo": cfg["algo"], "procs": cfg["procs"], "res": cfg["res"], "impl": e["impl"],
            "events": cfg["events"], "stream_median_s": median,
            "events_per_s": field(e, path, "events_per_s"),
            "matrix_bytes": field(e, path, "matrix_bytes"),
        }
        for outcome in OUTCOMES:
            row["%s_median_s" % outcome] = field(e, path, "event_seconds.%s.median" % outcome)
        for _, column in BASES:
            row[column] = None
        rows.append(row)
    return rows


def fill_speedups(rows):
    """Each size's speedups over the slower detectors of BASES, for the rows that get them:
    the GPU detectors, or, at a size where none ran, the first CPU one in impl_key's order
    (the detector a table is about; a CPU detector over another is not what the thesis asks)."""
    sizes = {}
    for r in rows:
        sizes.setdefault((r["algo"], r["procs"], r["res"]), []).append(r)
    for mine in sizes.values():
        time_of = {r["impl"]: r["stream_median_s"] for r in mine}
        first = min(time_of, key=impl_key)
        for r in mine:
            if not (is_gpu(r["impl"]) or r["impl"] == first):
                continue
            for base, column in BASES:
                r[column] = (time_of[base] / r["stream_median_s"]
                             if base != r["impl"] and base in time_of
                             and r["stream_median_s"] > 0 else None)


def summary(doc, path):
    rows = rows_of(doc, path)
    times = ", ".join("%s %s" % (r["impl"], fmt_time(r["stream_median_s"])) for r in rows)
    deadlocks = field(doc, path, "results.deadlocks")
    return "stream median %s; %d deadlock%s in %d events; %s backend" % (
        times, deadlocks, "" if deadlocks == 1 else "s", field(doc, path, "config.events"),
        field(doc, path, "device.backend"))


def cmd_check(args):
    impls = args.impls.split(",") if args.impls else None
    doc = checked_detect(args.report, args.algo, impls)
    print(summary(doc, args.report))


def device_text(doc):
    dev = doc.get("device", {})
    if dev.get("backend") == "gpu":
        return "%s (%s SMs, driver %s, runtime %s)" % (
            dev.get("name"), dev.get("sm_count"), dev.get("cuda_driver_version"),
            dev.get("cuda_runtime_version"))
    return "none (CPU detectors only)"


def units_text(lo, hi):
    return "%d" % lo if lo == hi else "%d-%d" % (lo, hi)


def collect(folder):
    rows, docs, paths = [], [], []
    made_by, stream_of = {}, {}  # (algo, N, impl) -> path; (algo, N) -> [(stream, path)]
    if not os.path.isdir(folder):
        raise ReportError("%s: no such folder" % folder)
    for name in sorted(os.listdir(folder)):
        m = NAME_RE.match(name)
        if not m:
            continue
        path = os.path.join(folder, name)
        doc = checked_detect(path, m.group("algo"), [m.group("impl")] if m.group("impl") else None)
        procs = field(doc, path, "config.procs")
        if procs != int(m.group("n")):
            raise ReportError("%s: the report is for %d x %d, not what its name says"
                              % (path, procs, procs))
        size = (m.group("algo"), procs)
        stream_of.setdefault(size, []).append(
            ((field(doc, path, "config.events"), field(doc, path, "results.decisions")), path))
        for row in rows_of(doc, path):
            key = size + (row["impl"],)
            if key in made_by:
                raise ReportError("%s and %s: both give %s at %s %d x %d; keep one"
                                  % (made_by[key], path, row["impl"], size[0], procs, procs))
            made_by[key] = path
            rows.append(row)
        docs.append(doc)
        paths.append(path)
    if not docs:
        raise ReportError("%s: no detect-<algo>-<N>-<impl>.json reports found" % folder)
    agree(docs, paths, "protocols (--protocol)", lambda d: d["config"].get("protocol", "stream"))
    # the thesis protocol's length follows the size (procs + res events to build the RAG)
    if docs[0]["config"].get("protocol", "stream") == "stream":
        agree(docs, paths, "stream lengths (--events)", lambda d: d["config"]["events"])
    agree(docs, paths, "generator seeds (--seed)", lambda d: d["config"]["seed"])
    agree(docs, paths, "release shares (--release-share)",
          lambda d: d["config"]["release_share"])
    agree(docs, paths, "deadlock shares (--deadlock-share)",
          lambda d: d["config"]["deadlock_share"])
    agree(docs, paths, "repetitions (--reps)", lambda d: d["config"]["reps"])
    agree(docs, paths, "verification steps (--verify-every)",
          lambda d: d["config"]["verify_every"])
    agree(docs, paths, "hosts", lambda d: d["meta"].get("host"))
    agree(docs, paths, "host CPUs", lambda d: d["device"].get("cpu_model"))
    agree(docs, paths, "GPUs", lambda d: d["device"].get("name"))
    for algo in {d["config"]["algo"] for d in docs}:
        agree(docs, paths, "%s units per resource (--units)" % algo,
              lambda d: (units_text(d["config"]["units_min"], d["config"]["units_max"])
                         if d["config"]["algo"] == algo else None))
    # Every detector of a size replays the stream the seed makes: their reports must agree on
    # what the oracle decided (how many events, how many of each outcome).
    for (algo, n), runs in sorted(stream_of.items()):
        for stream, path in runs[1:]:
            if stream != runs[0][0]:
                raise ReportError("%s and %s: the %s %d x %d reports replayed different streams "
                                  "(their events or decisions differ)" % (runs[0][1], path, algo, n, n))
    fill_speedups(rows)
    rows.sort(key=lambda r: (algo_key(r["algo"]), impl_key(r["impl"]), r["procs"], r["res"]))
    return rows, docs


def speedup_pairs(rows):
    """(fast, base, column) for every speedup the rows hold, in table order."""
    fast = sorted({r["impl"] for r in rows}, key=impl_key)
    return [(f, base, column) for f in fast for base, column in BASES
            if any(r["impl"] == f and r[column] is not None for r in rows)]


def md_text(rows, docs):
    """The markdown tables, built before anything is written so that a failure writes nothing."""
    first = docs[0]
    cfg = first["config"]
    revisions = sorted({d["meta"].get("git_revision", "?") for d in docs})
    devices = sorted({device_text(d) for d in docs})
    dates = sorted(d["meta"].get("date_utc", "") for d in docs)
    algos = sorted({r["algo"] for r in rows}, key=algo_key)
    units = {d["config"]["algo"]: units_text(d["config"]["units_min"], d["config"]["units_max"])
             for d in docs}
    lines = [
        "# Deadlock detection: " + ", ".join(
            "%s (%s)" % THESIS[a][:2] if a in THESIS else a for a in algos),
        "",
        "Median time to replay the whole event stream through each detector of `gpubench "
        "detect`, on square systems (as many processes as resources), and the speedups: "
        "*X over Y* is Y's median stream time divided by X's at the same size, on the same "
        "events (each detector its own run of the stream the seed makes). The thesis does not say which event stream its tables were timed on; these "
        "are gpubench's generated streams with the fixed settings below, the same at every "
        "size. Its CPU detectors are `cpu-serial` (serial runs of its GPU kernels; `cpu` makes its per-event steps without the GPU-only passes), its initial GPU designs `gpu-initial` and its "
        "bit-packed ones `gpu`. `-`: not run at that size, or a size the thesis has no number "
        "for. Every run was verified against the graph-search oracle.",
        "",
        "- event stream: generated, seed %s, %s events, release share %s, deadlock share %s%s"
        % (cfg["seed"], cfg["events"], cfg["release_share"], cfg["deadlock_share"],
           "; lmdda: %s units per resource" % units["lmdda"] if "lmdda" in units else ""),
        "- GPU: " + "; ".join(devices),
        "- host: %s, %s, %s logical cores" % (first["meta"].get("host"),
                                              first["device"].get("cpu_model"),
                                              first["device"].get("cpu_logical_cores")),
        "- gpubench: %s, git %s, build %s" % (first["meta"].get("gpubench_version"),
                                              ", ".join(revisions),
                                              first["meta"].get("build_flags")),
        "- runs: %d, from %s to %s" % (len(docs), dates[0], dates[-1]),
        "- protocol: %s; %s checked against the oracle" % (
            "1 repetition of the stream per detector" if cfg["reps"] == 1 else
            "%s repetitions of the stream per detector, times are their medians" % cfg["reps"],
            "every decision" if cfg["verify_every"] == 1 else
            "every %s-th decision" % cfg["verify_every"]),
        "- example command: `gpubench %s`" % " ".join(first["meta"].get("argv", [])),
    ]
    past = ["%s past %d x %d" % (THESIS[a][1], THESIS[a][3], THESIS[a][3]) for a in algos
            if a in THESIS and any(r["algo"] == a and r["procs"] > THESIS[a][3] for r in rows)]
    if past:
        lines.append("- rows of %s go beyond the thesis's tables (--extended)"
                     % " and ".join(past))
    lines += [
        "- thesis columns: the thesis's own numbers at that size, as printed in its Tables "
        "3.2-3.3 and 4.3-4.4: `cpu` on an Intel Core i7 at 2.8 GHz, `gpu-initial` and `gpu` on "
        "the Tesla K20c, the newest of its three GPUs, and *best*, the bit-packed design's "
        "largest speedup over the GTX 670, Tesla C2050 and Tesla K20c, naming the GPUs that "
        "reach it. The thesis timed its own event streams, not ours: compare speedups, not times",
        "- " + UNIT_NOTE,
        "- the thesis's speedups are CPU time over GPU time in Tables 3.2-3.3 and one less, "
        "(CPU - GPU) / GPU, in nearly all of Tables 4.3-4.4 from 128 x 128 on; Table 4.4 prints "
        "100.00x at 64 x 64 for 0.0001 s against 0.10 s",
    ]
    at = {(r["algo"], r["procs"], r["res"], r["impl"]): r for r in rows}
    for algo in algos:
        mine = [r for r in rows if r["algo"] == algo]
        impls = sorted({r["impl"] for r in mine}, key=impl_key)
        pairs = speedup_pairs(mine)
        thesis = md_columns(algo)
        if algo in THESIS:
            tables, name, what, _ = THESIS[algo]
            title = "%s: %s, %s" % (tables, name, what)
        else:
            title = algo
        if algo == "lmdda":
            title += " (%s units each)" % units[algo]
        lines += ["", "## " + title, "",
                  "| processes x resources | " + " | ".join(impls)
                  + "".join(" | %s over %s" % (f, b) for f, b, _ in pairs)
                  + "".join(" | " + t for t in thesis) + " |",
                  "| ---: " * (1 + len(impls) + len(pairs) + len(thesis)) + "|"]
        for procs, res in sorted({(r["procs"], r["res"]) for r in mine}):
            cells = ["%d x %d" % (procs, res)]
            for impl in impls:
                r = at.get((algo, procs, res, impl))
                cells.append(fmt_time(r["stream_median_s"] if r else None))
            for f, _, column in pairs:
                r = at.get((algo, procs, res, f))
                cells.append(fmt_speedup(r[column] if r else None))
            cells += md_cells(algo, procs, res)
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def cmd_table(args):
    rows, docs = collect(args.dir)
    text = md_text(rows, docs)
    write_csv(rows, args.csv, CSV_FIELDS)
    write_atomically(args.md, text)
    print("%d reports -> %s, %s" % (len(docs), args.csv, args.md))


def read_table_csv(path):
    rows = read_csv(path, CSV_FIELDS, "detect_tables.py table")
    for r in rows:
        for column in ("procs", "res"):
            r[column] = int(r[column])
        for _, column in BASES:
            r[column] = float(r[column]) if r[column] else None
    return rows


def forecast(folder, algo, impl, size):
    """Seconds D's run at size N should take, from its smaller sizes' reports (0: none)."""
    times = {}
    for name in os.listdir(folder) if os.path.isdir(folder) else []:
        m = NAME_RE.match(name)
        if not m or m.group("algo") != algo or m.group("impl") not in (None, impl):
            continue
        n = int(m.group("n"))
        if n >= size:
            continue
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                doc = json.load(f)
            e = [e for e in doc["results"]["impls"] if e.get("impl") == impl]
            t = e[0]["stream_seconds"]["median"] * doc["config"]["reps"] if e else None
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            continue  # a report being written, or not one: no forecast from it
        if isinstance(t, (int, float)) and t > 0:
            times[n] = t
    if not times:
        return 0
    sizes = sorted(times)
    n1 = sizes[-1]
    power = 2.0
    if len(sizes) > 1:
        n0 = sizes[-2]
        power = min(5.0, max(1.0, math.log(times[n1] / times[n0]) / math.log(n1 / n0)))
    return int(math.ceil(times[n1] * (size / n1) ** power))


def cmd_forecast(args):
    print(forecast(args.dir, args.algo, args.impl, args.size))


def cmd_plot_vars(args):
    rows = read_table_csv(args.csv)
    algos = sorted({r["algo"] for r in rows}, key=algo_key)
    # Each detector keeps its colour in every panel; a speedup line takes its
    # faster detector's colour, dashed and pointed by the base it is over.
    colours = sorted({r["impl"] for r in rows}, key=impl_key)
    assign = {"algos": gp_list(algos)}
    for algo in algos:
        mine = [r for r in rows if r["algo"] == algo]
        impls = sorted({r["impl"] for r in mine}, key=impl_key)
        pairs = speedup_pairs(mine)
        bases = [b for b, _ in BASES]
        tables, name = THESIS[algo][:2] if algo in THESIS else ("", algo)
        assign.update({
            algo + "_title": "'%s%s'" % (name, ", " + tables if tables else ""),
            algo + "_nmin": min(r["procs"] for r in mine),
            algo + "_nmax": max(r["procs"] for r in mine),
            algo + "_t_impl": gp_list(impls),
            algo + "_t_ci": gp_list(colours.index(i) + 1 for i in impls),
            algo + "_s_fast": gp_list(f for f, _, _ in pairs),
            algo + "_s_base": gp_list(b for _, b, _ in pairs),
            algo + "_s_col": gp_list(CSV_FIELDS.index(c) + 1 for _, _, c in pairs),
            algo + "_s_ci": gp_list(colours.index(f) + 1 for f, _, _ in pairs),
            algo + "_s_bi": gp_list(bases.index(b) + 1 for _, b, _ in pairs),
        })
    print("; ".join("%s=%s" % kv for kv in assign.items()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("impls", help="detectors to run, from gpubench info --json - on stdin")
    i.add_argument("--algo", required=True)
    i.add_argument("--want", help="comma-separated detectors asked for")
    i.add_argument("--option", default="--impls", help="the option --want came from")
    i.set_defaults(fn=cmd_impls)
    c = sub.add_parser("check", help="check one report and summarise it")
    c.add_argument("report")
    c.add_argument("--algo", help="the algorithm the report must be of")
    c.add_argument("--impls", help="comma-separated detectors the report must hold")
    c.set_defaults(fn=cmd_check)
    t = sub.add_parser("table", help="CSV and markdown from a folder of reports")
    t.add_argument("dir")
    t.add_argument("--csv", required=True)
    t.add_argument("--md", required=True)
    t.set_defaults(fn=cmd_table)
    f = sub.add_parser("forecast", help="seconds a detector's run at a size should take")
    f.add_argument("dir")
    f.add_argument("--algo", required=True)
    f.add_argument("--impl", required=True)
    f.add_argument("--size", required=True, type=int)
    f.set_defaults(fn=cmd_forecast)
    p = sub.add_parser("plot-vars", help="gnuplot variables for scripts/detect-tables.gp")
    p.add_argument("csv")
    p.set_defaults(fn=cmd_plot_vars)
    args = ap.parse_args()
    try:
        args.fn(args)
    except UsageError as e:
        print("detect_tables: %s" % e, file=sys.stderr)
        sys.exit(2)
    except (ReportError, ThesisDataError) as e:
        print("detect_tables: %s" % e, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
