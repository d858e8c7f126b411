#!/usr/bin/env python3
"""Check gpubench stm reports and turn a folder of them into a CSV and a markdown table.

    report2csv.py check REPORT.json
        Exit 0 and print a one-line summary when the report is complete and
        verified; otherwise print why on stderr and exit 1.

    report2csv.py table DIR --axis OPTION --csv OUT.csv --md OUT.md [--title TEXT]
        Read every DIR/<workload>-<algo>-<panel>-x<point>.json (what the
        figure scripts of scripts/lib/stmfig.sh write), check each one as
        above, and write one CSV row per report plus a markdown table per
        workload and panel. OPTION is the gpubench stm option the figure
        sweeps (threads, hash, semantic-ratio, read-only); a report's point is its
        effective value. Any report that is incomplete, unverified or
        disagrees with its file name makes the whole command fail: no numbers
        are written. So does a folder that mixes sweeps: the reports of one
        workload must share every option but the swept one, the panel's,
        --algo and --backend (an engine with no GPU backend runs on the CPU
        beside GPU ones), and each engine's reports one backend. --reps and
        --warmup may differ (they say how long a point is measured, not what
        it measures): the CSV's reps column gives each point's repetitions,
        and where a workload's points differ the markdown says which point
        was measured how and adds the column.

    report2csv.py forecast DIR NAME --points LIST
        Print how many seconds (whole, rounded up) the run of NAME
        (<workload>-<algo>-<panel>-x<point>) should take, from the complete
        reports in DIR of any revision: NAME's own earlier report; else its
        series' time at the nearest point it has, scaled as another series
        of the workload (another engine or panel) grew from there to NAME's
        point (the largest such; "there" the nearest point both have); else its last point grown as it grew
        between its last two, a step of LIST at a time; 0 when DIR has none
        of its series. A report's time is its results.wall_seconds, plus a
        fifth and 2 s for what lies outside it (the generator, the checks).
        scripts/lib/stmfig.sh gives it to --max-seconds (scripts/lib/sweep.sh:
        sweep_expect), so a session does not start a point it cannot finish
        where a figure's points grow along its axis (Figure 13B's hash: 3 s
        at 1, 38 s at 256 on an H200).

A panel is a letter; the reports say what it means (config.presort and
config.read_only, unless read-only is the swept axis), and every report of one
workload and panel must agree.
Only the standard library is used, so this runs wherever python3 does.

The other table helpers (pba_tables.py, detect_tables.py) import the report
checks (load, field, checked) and the writing and formatting helpers below
(write_atomically, write_csv, read_csv, agree, fmt_time, fmt_speedup, gp_list).
"""

import argparse
import csv
import json
import math
import os
import re
import sys

CSV_FIELDS = [
    "workload", "algo", "panel", "presort", "read_only", "x", "threads", "hash", "semantic_ratio",
    "throughput_median", "throughput_min", "throughput_max",
    "abort_rate", "abandoned", "verified", "read_only_threads", "reps",
]

NAME_RE = re.compile(r"^(?P<workload>[a-z0-9]+)-(?P<algo>.+)-(?P<panel>[A-Z])-x(?P<x>[0-9]+)\.json$")

# The config field of each option a figure may sweep; one that is not a field of every report (ways)
# is read from the workload's block of the config (config.memcached.ways).
AXES = {"threads": "threads", "hash": "hash", "semantic-ratio": "semantic_ratio", "read-only": "read_only",
        "ways": "ways"}

# Options of one run that are not the sweep's settings: what the run is
# (engine, panel, point), where its report goes and which GPU it ran on
# (--gpus). Everything else in a report's argv must be the same over one
# workload's reports.
RUN_OPTIONS = {"--algo", "--read-only", "--json", "--backend", "--device"}
RUN_FLAGS = {"--presort", "--read-only-threads"}
# How long a point is measured, not what it measures: a sweep may make some of its points with
# fewer repetitions (a point too slow for the protocol's), and one figure still shows them all.
PROTOCOL_OPTIONS = ("--reps", "--warmup")


class ReportError(Exception):
    pass


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise ReportError("%s: cannot read a JSON report: %s" % (path, e))


def field(doc, path, dotted):
    node = doc
    for key in dotted.split("."):
        if not isinstance(node, dict) or key not in node:
            raise ReportError("%s: field %s is missing" % (path, dotted))
        node = node[key]
    return node


def checked(path, subcommand="stm", why_failed=None):
    """The report at path, after the checks every plotted number must pass.

    Other figure helpers call this for their subcommand's reports; why_failed(doc,
    path) says what a failed verification found when the report has no
    verification.message (stm reports have one).
    """
    doc = load(path)
    version = field(doc, path, "meta.schema_version")
    if version != 1:
        raise ReportError("%s: schema_version %r, this script reads version 1" % (path, version))
    if field(doc, path, "meta.subcommand") != subcommand:
        raise ReportError("%s: not a 'gpubench %s' report" % (path, subcommand))
    if field(doc, path, "meta.complete") is not True:
        raise ReportError("%s: incomplete run (meta.complete is false: --timeout reached)" % path)
    verified = field(doc, path, "verification.verified")
    if verified is None:
        raise ReportError("%s: not verified (run without --no-verify)" % path)
    if verified is not True:
        why = why_failed(doc, path) if why_failed else field(doc, path, "verification.message")
        raise ReportError("%s: verification FAILED: %s" % (path, why))
    return doc


def row_of(doc, path):
    stats = field(doc, path, "results.throughput_tx_per_s")
    return {
        "workload": field(doc, path, "config.workload"),
        "algo": field(doc, path, "config.algo"),
        "presort": 1 if field(doc, path, "config.presort") else 0,
        "read_only": field(doc, path, "config.read_only"),
        "threads": field(doc, path, "config.threads"),
        "hash": field(doc, path, "config.hash"),
        "semantic_ratio": field(doc, path, "config.semantic_ratio"),
        "throughput_median": stats["median"],
        "throughput_min": stats["min"],
        "throughput_max": stats["max"],
        "abort_rate": field(doc, path, "results.abort_rate"),
        "abandoned": field(doc, path, "results.abandoned"),
        "verified": "true",
        # --read-only-threads (absent from reports made before it: every block's share)
        "read_only_threads": 1 if doc.get("config", {}).get("read_only_threads") else 0,
        "reps": field(doc, path, "results.throughput_tx_per_s.n"),
    }


def summary(row, doc, path):
    return "%.4g tx/s median (%d reps), abort rate %.2f%%, abandoned %d, %s backend" % (
        row["throughput_median"], field(doc, path, "results.throughput_tx_per_s.n"),
        100.0 * row["abort_rate"], row["abandoned"], field(doc, path, "device.backend"))


def cmd_check(args):
    doc = checked(args.report)
    print(summary(row_of(doc, args.report), doc, args.report))


def device_text(doc):
    dev = doc.get("device", {})
    if dev.get("backend") == "gpu":
        return "%s (GPU, %s SMs, driver %s, runtime %s)" % (
            dev.get("name"), dev.get("sm_count"), dev.get("cuda_driver_version"),
            dev.get("cuda_runtime_version"))
    return "%s (CPU backend, %s workers)" % (dev.get("cpu_model"), dev.get("cpu_workers"))


def panel_text(presort, read_only, read_only_threads=0):
    if read_only is None:
        return "%s, read-only swept%s" % ("presort" if presort else "no presort",
                                          " as whole threads" if read_only_threads else "")
    return "%s, %d%% read-only%s" % ("presort" if presort else "no presort", read_only,
                                     " threads" if read_only_threads and read_only else "")


def sweep_of(argv, axis):
    """A run's argv without what differs between the runs of one sweep."""
    kept, i = [], 0
    while i < len(argv):
        a = argv[i]
        if a in RUN_OPTIONS or a in PROTOCOL_OPTIONS or a == "--" + axis:
            i += 2
            continue
        if a not in RUN_FLAGS:
            kept.append(a)
        i += 1
    return tuple(kept)


def protocol_of(argv):
    """The options of argv that set how long its point is measured ("" when none does)."""
    return " ".join("%s %s" % (a, argv[i + 1]) for i, a in enumerate(argv[:-1]) if a in PROTOCOL_OPTIONS)


def collect(folder, axis):
    rows, docs = [], []
    key = AXES[axis]
    names = sorted(n for n in os.listdir(folder) if n.endswith(".json"))
    for name in names:
        m = NAME_RE.match(name)
        if not m:
            continue
        path = os.path.join(folder, name)
        doc = checked(path)
        row = row_of(doc, path)
        row["x"] = row[key] if key in row else field(doc, path, "config.%s.%s" % (row["workload"], key))
        if (row["workload"], row["algo"], row["x"]) != (m.group("workload"), m.group("algo"),
                                                         int(m.group("x"))):
            raise ReportError("%s: the report is %s on %s at %s %d, not what its name says"
                              % (path, row["workload"], row["algo"], axis, row["x"]))
        row["panel"] = m.group("panel")
        row["protocol"] = protocol_of(doc["meta"].get("argv", []))  # the markdown's, not a CSV field
        rows.append(row)
        docs.append(doc)
    if not rows:
        raise ReportError("%s: no <workload>-<algo>-<panel>-x<point>.json reports found" % folder)
    meaning = {}
    for row in rows:
        panel = (row["workload"], row["panel"])
        got = (row["presort"], None if axis == "read-only" else row["read_only"], row["read_only_threads"])
        if meaning.setdefault(panel, got) != got:
            raise ReportError("%s panel %s mixes %s and %s: reports from different sweeps in %s"
                              % (row["workload"], row["panel"], panel_text(*meaning[panel]),
                                 panel_text(*got), folder))
    backends = {}
    for doc, row in zip(docs, rows):
        engine = (row["workload"], row["algo"])
        got = doc.get("device", {}).get("backend")
        if backends.setdefault(engine, got) != got:
            raise ReportError("%s %s has reports of the %s and the %s backend in %s: reports from "
                              "different sweeps" % (row["workload"], row["algo"], backends[engine],
                                                    got, folder))
    sweeps = {}
    for doc, row in zip(docs, rows):
        sweeps.setdefault(row["workload"], {}).setdefault(
            sweep_of(doc["meta"].get("argv", []), axis), []).append(
                "%s-%s-%s-x%d" % (row["workload"], row["algo"], row["panel"], row["x"]))
    for workload, seen in sorted(sweeps.items()):
        if len(seen) > 1:
            raise ReportError("%s mixes %s reports of different settings, which one figure cannot "
                              "show: %s" % (folder, workload, "; ".join(
                                  "gpubench %s (%s)" % (" ".join(k), names[0])
                                  for k, names in seen.items())))
    rows.sort(key=lambda r: (r["workload"], r["algo"], r["panel"], r["x"]))
    return rows, docs, meaning


def write_atomically(out, text):
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, out)


def write_csv(rows, out, fields=CSV_FIELDS):
    """One line per row in the order of fields; floats in full (repr), None empty."""
    tmp = out + ".tmp"
    with open(tmp, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        for row in rows:
            w.writerow({k: ("" if row[k] is None else
                            repr(row[k]) if isinstance(row[k], float) else row[k])
                        for k in fields})
    os.replace(tmp, out)


def read_csv(path, fields, writer):
    """The rows of a CSV that write_csv made with fields; writer names the command in errors."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        raise ReportError("%s: %s" % (path, e))
    if not rows or set(fields) - set(rows[0]):
        raise ReportError("%s: not a CSV written by '%s'" % (path, writer))
    return rows


def agree(docs, paths, what, value_of):
    """Fail unless value_of gives one value over all reports it does not skip (None)."""
    seen = {}
    for doc, path in zip(docs, paths):
        value = value_of(doc)
        if value is not None:
            seen.setdefault(value, os.path.basename(path))
    if len(seen) > 1:
        raise ReportError("the reports mix %s, which one table cannot show: %s" % (
            what, "; ".join("%s (%s)" % kv for kv in seen.items())))


def fmt_time(s):
    """Seconds with three significant digits in us, ms or s; '-' for None."""
    if s is None:
        return "-"
    for unit, scale in (("us", 1e6), ("ms", 1e3)):
        if s * scale < 999.5:
            return "%.3g %s" % (s * scale, unit)
    return ("%.3g s" if s < 999.5 else "%.0f s") % s


def fmt_speedup(x):
    if x is None:
        return "-"
    return ("%.0fx" if x >= 99.95 else "%.3gx") % x


def gp_list(values):
    """A gnuplot word list: the values as one quoted, space-separated string."""
    return "'%s'" % " ".join(str(v) for v in values)


def write_md(rows, docs, meaning, out, title, axis):
    revisions = sorted({d["meta"].get("git_revision", "?") for d in docs})
    devices = sorted({device_text(d) for d in docs})
    dates = sorted(d["meta"].get("date_utc", "") for d in docs)
    first = docs[0]
    lines = [
        "# " + title,
        "",
        "Committed transactions per second (read-only included), median over repetitions "
        "with min and max, against --%s; every run verified by its workload's oracle." % axis,
        "",
        "- device: " + "; ".join(devices),
        "- gpubench: %s, git %s, build %s" % (first["meta"].get("gpubench_version"),
                                              ", ".join(revisions),
                                              first["meta"].get("build_flags")),
        "- runs: %d, from %s to %s" % (len(docs), dates[0], dates[-1]),
    ]
    for workload in sorted({r["workload"] for r in rows}):
        doc = next(d for d in docs if d["config"]["workload"] == workload)
        cfg = doc["config"]
        fixed = ", ".join("%s %s" % (name, cfg[key]) for name, key in AXES.items()
                          if name != axis and cfg.get(key) is not None)
        protocols = {}
        for r in rows:
            if r["workload"] == workload:
                protocols.setdefault(r["protocol"], []).append((r["algo"], r["x"]))
        mixed = len(protocols) > 1
        lines += ["", "## %s" % workload, ""]
        if mixed:
            lines += ["%s s per repetition (0 = one batch over the table), %s; the points' repetitions "
                      "differ (column reps): %s. Example command: `gpubench %s`"
                      % (cfg["duration_s"], fixed, "; ".join(
                          "%s for %s" % ("`%s`" % k if k else "the sweep's protocol",
                                         ", ".join("%s at %s" % p for p in sorted(v)))
                          for k, v in sorted(protocols.items())), " ".join(doc["meta"].get("argv", [])))]
        else:
            lines += ["%s reps x %s s per repetition (0 = one batch over the table), %s; "
                      "example command: `gpubench %s`"
                      % (cfg["reps"], cfg["duration_s"], fixed, " ".join(doc["meta"].get("argv", [])))]
        for panel in sorted(p for w, p in meaning if w == workload):
            lines += ["", "### %s %s: %s" % (workload, panel, panel_text(*meaning[(workload, panel)])),
                      "",
                      "| algo | %s | median tx/s | min tx/s | max tx/s | abort rate | abandoned |%s"
                      % (axis, " reps |" if mixed else ""),
                      "| --- | ---: | ---: | ---: | ---: | ---: | ---: |%s" % (" ---: |" if mixed else "")]
            for r in rows:
                if (r["workload"], r["panel"]) == (workload, panel):
                    lines.append("| %s | %d | %.4g | %.4g | %.4g | %.2f%% | %d |%s" % (
                        r["algo"], r["x"], r["throughput_median"], r["throughput_min"],
                        r["throughput_max"], 100.0 * r["abort_rate"], r["abandoned"],
                        " %d |" % r["reps"] if mixed else ""))
    write_atomically(out, "\n".join(lines) + "\n")


def cmd_table(args):
    rows, docs, meaning = collect(args.dir, args.axis)
    write_csv(rows, args.csv)
    write_md(rows, docs, meaning, args.md, args.title, args.axis)
    print("%d reports -> %s, %s" % (len(rows), args.csv, args.md))


def series_of(m):
    """A report's series, its name less the point: (workload, algo, panel)."""
    return m.group("workload", "algo", "panel")


def wall_times(folder, workload):
    """{(series, x): seconds} of workload's complete reports in folder (any revision, verified or not)."""
    times = {}
    try:
        names = os.listdir(folder)
    except OSError:
        return times
    for name in names:
        m = NAME_RE.match(name)
        if not m or m.group("workload") != workload:
            continue
        try:
            doc = load(os.path.join(folder, name))
            if doc.get("meta", {}).get("complete") is not True:
                continue
            wall = float(doc["results"]["wall_seconds"])
        except (ReportError, KeyError, TypeError, ValueError):
            continue
        if wall > 0:
            times[(series_of(m), m.group("x"))] = wall
    return times


def forecast(folder, name, points):
    """Seconds NAME's run should take (report2csv.py forecast), 0 when nothing tells."""
    m = NAME_RE.match(name + ".json")
    if not m or m.group("x") not in points:
        return 0
    series, x = series_of(m), m.group("x")
    at = points.index(x)
    times = wall_times(folder, series[0])
    mine = {points.index(p): t for (s, p), t in times.items() if s == series and p in points}
    est = 0.0
    if at in mine:
        est = mine[at]
    elif mine:
        for (s, p), t in times.items():
            if s == series or p != x:  # another series of the workload, at x
                continue
            both = [i for i in mine if (s, points[i]) in times]
            if both:  # the point of mine nearest NAME's that s has too
                near = min(both, key=lambda i: (abs(i - at), -i))
                est = max(est, mine[near] * t / times[(s, points[near])])
        if est == 0.0:
            below = sorted(i for i in mine if i < at)
            if below:
                last = below[-1]
                grow = mine[last] / mine[below[-2]] if len(below) > 1 else 1.0
                est = mine[last] * max(1.0, grow) ** (at - last)
    return 0 if est == 0.0 else int(math.ceil(est * 1.2 + 2))


def cmd_forecast(args):
    print(forecast(args.dir, args.name, args.points.split(",")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="check one report and summarise it")
    c.add_argument("report")
    c.set_defaults(fn=cmd_check)
    t = sub.add_parser("table", help="CSV and markdown from a folder of reports")
    t.add_argument("dir")
    t.add_argument("--axis", required=True, choices=sorted(AXES),
                   help="the gpubench stm option the figure sweeps")
    t.add_argument("--csv", required=True)
    t.add_argument("--md", required=True)
    t.add_argument("--title", default="gpubench stm results")
    t.set_defaults(fn=cmd_table)
    f = sub.add_parser("forecast", help="seconds a point's run should take")
    f.add_argument("dir")
    f.add_argument("name", help="<workload>-<algo>-<panel>-x<point>")
    f.add_argument("--points", required=True, help="the figure's points in order, comma-separated")
    f.set_defaults(fn=cmd_forecast)
    args = ap.parse_args()
    try:
        args.fn(args)
    except ReportError as e:
        print("report2csv: %s" % e, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
