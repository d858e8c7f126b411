#!/usr/bin/env python3
"""The bookkeeping of scripts/gate-quality.sh: how often the CI gate cries wolf and how often it
catches a slowdown.

    gate_quality.py calibrate --dir DIR --gpubench PATH --slowdown PCT --run NAME -- ARGS...
        Size the GPUBENCH_TEST_DELAY_US that makes `gpubench ARGS` PCT percent slower on its
        first measure with samples, and append it to DIR/delays.tsv.

    gate_quality.py record --dir DIR --mode plain|ab --kind same|slow --pair I --status S
                           --seconds T COMPARE.json
        Append the verdict of one comparison (compare's exit status S and its JSON document) to
        DIR/pairs.tsv and its metrics to DIR/metrics.tsv.

    gate_quality.py summary --dir DIR
        Write DIR/summary.md from those files (and DIR/delays.tsv, DIR/ENV) and print it.

A same pair (one binary on both sides) is a false alarm when compare exits 4. A slow pair (the
new side slowed with GPUBENCH_TEST_DELAY_US sized to a share of each run, delays.tsv) is
detected when compare exits 4 with a regression on a measure the delay was sized on: another
measure of the same run that the delay slows by much more (a sub-microsecond release time
lengthened by the whole delay) would otherwise count as catching the sized slowdown.
Standard library only.
"""

import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import time

PAIR_FIELDS = ["mode", "kind", "pair", "status", "seconds", "load", "regressions", "sized_regressions"]
METRIC_FIELDS = ["mode", "kind", "pair", "report", "metric", "sized", "change_pct", "p", "alpha",
                 "threshold_pct", "base_cv_pct", "new_cv_pct", "verdict"]


def first_measure(results, path=""):
    """(name, stats) of the first stats block with samples, named as compare names metrics."""
    if isinstance(results, dict):
        if "samples" in results and "median" in results:
            return path, results
        for key, value in results.items():
            found = first_measure(value, path + "." + key if path else key)
            if found:
                return found
    elif isinstance(results, list):
        for i, entry in enumerate(results):
            label = entry.get("impl") or entry.get("name") or str(i) if isinstance(entry, dict) else str(i)
            found = first_measure(entry, path + "." + label)
            if found:
                return found
    return None


def direction(name):
    for part in reversed(name.split(".")):
        if part.endswith("_per_s"):
            return "rate"
        if "seconds" in part:
            return "time"
    return "unknown"


def measure(gpubench, run_args, delay_us, wall=None):
    """The first measure of one run of gpubench RUN_ARGS with GPUBENCH_TEST_DELAY_US=delay_us, as
    (name, time-like value): a rate is turned into its inverse, so that larger is slower. With
    wall (a list), the run's wall-clock seconds are appended to it."""
    env = dict(os.environ)
    env["GPUBENCH_TEST_DELAY_US"] = str(delay_us)
    out = os.path.join(os.environ.get("TMPDIR", "/tmp"), "gate-calibrate-%d.json" % os.getpid())
    args, i = [], 0
    while i < len(run_args):  # the run's own --reps N gives way to 9 (an option is given once)
        if run_args[i] == "--reps":
            i += 2
            continue
        args.append(run_args[i])
        i += 1
    t0 = time.monotonic()
    subprocess.run([gpubench] + args + ["--reps", "9", "--quiet", "--json", out], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    if wall is not None:
        wall.append(time.monotonic() - t0)
    with open(out) as f:
        name, stats = first_measure(json.load(f)["results"])
    os.remove(out)
    return name, (1 / stats["median"] if direction(name) == "rate" else stats["median"])


# The trial delay is raised until the measure doubles, or until a run takes WALL_LIMIT times its
# undelayed time with the measure MIN_GROWTH longer (see cmd_calibrate).
WALL_LIMIT = 8
MIN_GROWTH = 0.2


def cmd_calibrate(args):
    """Size the delay that slows one run's first measure by --slowdown percent. The delay is added
    to every timed interval, and a run's measure may span many (one per event), so it is measured:
    a trial delay is raised tenfold until it at least doubles the measure, where the measure's
    noise is small beside the delay's effect; there three runs with it, each after one without,
    give the growth (their median ratio), and the delay is scaled down from it (the growth is
    linear in the delay, which is work of a known length). Intervals outside the measure (a
    latency timed per event) lengthen the run but not the measure, so the raising also stops once
    a run takes WALL_LIMIT times as long as without the delay (and at least 10 s), where the
    measure grew by at least MIN_GROWTH: beside a measure's noise of a few percent that still
    sizes the delay, and the calibration does not spend minutes a trial."""
    walls = []
    name, base = measure(args.gpubench, args.run_args, 0, walls)
    trial, grown = 1, 0.0
    while True:
        _, slowed = measure(args.gpubench, args.run_args, trial, walls)
        grown = slowed / base - 1
        if grown >= 1 or trial >= 1000000:
            break
        if grown >= MIN_GROWTH and walls[-1] > max(WALL_LIMIT * walls[0], 10):
            print("%s: %d us: the run took %.0f s (%.1f s without a delay); sizing from %+.0f%%" % (
                args.run, trial, walls[-1], walls[0], 100 * grown), file=sys.stderr)
            break
        trial *= 10 if grown < 0.1 else max(2, math.ceil(2 / grown))
        trial = min(trial, 1000000)
    ratios = []
    for _ in range(3):
        base = measure(args.gpubench, args.run_args, 0)[1]
        ratios.append(measure(args.gpubench, args.run_args, trial)[1] / base)
    grown = statistics.median(ratios) - 1
    delay = max(1, round(args.slowdown / 100 * trial / grown)) if grown > 0 else 1
    append_tsv(os.path.join(args.dir, "delays.tsv"), ["run", "metric", "delay_us", "trial_us", "note"], [{
        "run": args.run, "metric": name, "delay_us": delay, "trial_us": trial,
        "note": " ".join("%+.0f%%" % (100 * (r - 1)) for r in ratios)}])
    print("%s: %s %+.0f%% at %d us: %d us for %g%%" % (args.run, name, 100 * grown, trial, delay, args.slowdown))


def read_tsv(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f, delimiter="\t"))


def append_tsv(path, fields, rows):
    new = not os.path.exists(path)
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, delimiter="\t", lineterminator="\n")
        if new:
            w.writeheader()
        w.writerows(rows)


def sized_metrics(directory):
    """run name -> the measure its delay was sized on (delays.tsv)."""
    return {r["run"]: r["metric"] for r in read_tsv(os.path.join(directory, "delays.tsv"))}


def fmt(v, spec="%.4g"):
    return "" if v is None else spec % v


def cmd_record(args):
    doc = {"results": {"pairs": []}}
    if os.path.exists(args.compare):  # compare writes none when it stops before comparing
        with open(args.compare) as f:
            doc = json.load(f)
    sized = sized_metrics(args.dir)
    rows, regressions, sized_regressions = [], [], []
    for p in doc["results"]["pairs"]:
        run = os.path.splitext(os.path.basename(p["name"].split(" ~ ")[0]))[0]
        for m in p["metrics"]:
            is_sized = sized.get(run) == m["name"]
            if m["verdict"] == "regression":
                regressions.append("%s:%s" % (run, m["name"]))
                if is_sized:
                    sized_regressions.append("%s:%s" % (run, m["name"]))
            rows.append({
                "mode": args.mode, "kind": args.kind, "pair": args.pair, "report": run, "metric": m["name"],
                "sized": int(is_sized), "change_pct": fmt(m["change_pct"]), "p": fmt(m["p_value"]),
                "alpha": fmt(m.get("alpha")), "threshold_pct": fmt(m["threshold_pct"]),
                "base_cv_pct": fmt(m.get("base_cv_pct")), "new_cv_pct": fmt(m.get("new_cv_pct")),
                "verdict": m["verdict"],
            })
    load = ""
    if os.path.exists("/proc/loadavg"):
        with open("/proc/loadavg") as f:
            load = f.read().split()[0]
    append_tsv(os.path.join(args.dir, "metrics.tsv"), METRIC_FIELDS, rows)
    append_tsv(os.path.join(args.dir, "pairs.tsv"), PAIR_FIELDS, [{
        "mode": args.mode, "kind": args.kind, "pair": args.pair, "status": args.status,
        "seconds": args.seconds, "load": load, "regressions": " ".join(regressions) or "-",
        "sized_regressions": " ".join(sized_regressions) or "-",
    }])


def wilson(k, n, z=1.96):
    """A 95% interval for a rate of k in n."""
    if n == 0:
        return (float("nan"), float("nan"))
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate_line(k, n):
    lo, hi = wilson(k, n)
    return "%d of %d (%.0f%%; 95%% interval %.0f-%.0f%%)" % (k, n, 100 * k / n, 100 * lo, 100 * hi) if n else "-"


def median_or_none(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def num(text):
    return float(text) if text not in ("", None) else None


MODE_NAMES = {"plain": "two suite runs back to back", "ab": "A/B, interleaved"}


def cmd_summary(args):
    pairs = read_tsv(os.path.join(args.dir, "pairs.tsv"))
    metrics = read_tsv(os.path.join(args.dir, "metrics.tsv"))
    delays = read_tsv(os.path.join(args.dir, "delays.tsv"))
    env = open(os.path.join(args.dir, "ENV")).read().strip() if os.path.exists(os.path.join(args.dir, "ENV")) else ""
    out = ["# Gate quality: false alarms and detection", ""]
    if env:
        out += ["```", env, "```", ""]
    out += ["| mode | false alarms (same binary, exit 4) | detected (slowed, exit 4 on a sized measure) |"
            " exit 4 on slowed, any measure | seconds a pair (same + slow) | load average |",
            "| --- | --- | --- | --- | ---: | ---: |"]
    for mode in ("plain", "ab"):
        same = [p for p in pairs if p["mode"] == mode and p["kind"] == "same"]
        slow = [p for p in pairs if p["mode"] == mode and p["kind"] == "slow"]
        if not same and not slow:
            continue
        fa = sum(p["status"] == "4" for p in same)
        det = sum(p["status"] == "4" and p["sized_regressions"] != "-" for p in slow)
        anyd = sum(p["status"] == "4" for p in slow)
        other = [p for p in same + slow if p["status"] not in ("0", "4")]
        secs = median_or_none([num(p["seconds"]) for p in same]) or 0
        secs += median_or_none([num(p["seconds"]) for p in slow]) or 0
        loads = [num(p["load"]) for p in same + slow if p["load"]]
        out.append("| %s | %s | %s | %s | %.0f | %s |" % (
            MODE_NAMES[mode], rate_line(fa, len(same)), rate_line(det, len(slow)), rate_line(anyd, len(slow)),
            secs, "%.1f-%.1f" % (min(loads), max(loads)) if loads else "-"))
        if other:
            out.append("")
            out.append("%s: %d comparisons exited neither 0 nor 4 (%s)" % (
                MODE_NAMES[mode], len(other), ", ".join("pair %s %s: %s" % (p["pair"], p["kind"], p["status"])
                                                       for p in other)))
    out += ["", "Delays (GPUBENCH_TEST_DELAY_US, each sized to the slowdown on its run's first measure):", "",
            "| run | measure | delay us | calibrated at | slowdowns measured there |",
            "| --- | --- | ---: | --- | ---: |"]
    for d in delays:
        out.append("| %s | %s | %s | %s us | %s |" % (d["run"], d["metric"], d["delay_us"], d["trial_us"], d["note"]))
    out += ["", "Per measure, over the pairs: median cv of a side, median change and flags "
            "(regressions on same pairs; detections on slow pairs):", "",
            "| mode | report | measure | sized | cv (same) | change (same) | flagged same | change (slow) | "
            "flagged slow |", "| --- | --- | --- | :---: | ---: | ---: | ---: | ---: | ---: |"]
    keys = []
    for m in metrics:
        key = (m["mode"], m["report"], m["metric"])
        if key not in keys:
            keys.append(key)
    for key in keys:
        rows = [m for m in metrics if (m["mode"], m["report"], m["metric"]) == key]
        same = [m for m in rows if m["kind"] == "same"]
        slow = [m for m in rows if m["kind"] == "slow"]
        cv = median_or_none([num(m["base_cv_pct"]) for m in same] + [num(m["new_cv_pct"]) for m in same])
        out.append("| %s | %s | %s | %s | %s | %s | %d/%d | %s | %d/%d |" % (
            key[0], key[1], key[2], "yes" if rows[0]["sized"] == "1" else "",
            fmt(cv, "%.1f%%"), fmt(median_or_none([num(m["change_pct"]) for m in same]), "%+.1f%%"),
            sum(m["verdict"] == "regression" for m in same), len(same),
            fmt(median_or_none([num(m["change_pct"]) for m in slow]), "%+.1f%%"),
            sum(m["verdict"] == "regression" for m in slow), len(slow)))
    text = "\n".join(out) + "\n"
    with open(os.path.join(args.dir, "summary.md"), "w") as f:
        f.write(text)
    sys.stdout.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("calibrate")
    p.add_argument("--dir", required=True)
    p.add_argument("--gpubench", required=True)
    p.add_argument("--slowdown", type=float, required=True)
    p.add_argument("--run", required=True)
    p.add_argument("run_args", nargs=argparse.REMAINDER)
    p = sub.add_parser("record")
    p.add_argument("--dir", required=True)
    p.add_argument("--mode", required=True, choices=["plain", "ab"])
    p.add_argument("--kind", required=True, choices=["same", "slow"])
    p.add_argument("--pair", required=True)
    p.add_argument("--status", required=True)
    p.add_argument("--seconds", required=True)
    p.add_argument("compare")
    p = sub.add_parser("summary")
    p.add_argument("--dir", required=True)
    args = ap.parse_args()
    if args.cmd == "calibrate" and args.run_args[:1] == ["--"]:
        args.run_args = args.run_args[1:]
    {"calibrate": cmd_calibrate, "record": cmd_record, "summary": cmd_summary}[args.cmd](args)


if __name__ == "__main__":
    main()
