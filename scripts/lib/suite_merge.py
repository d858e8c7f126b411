#!/usr/bin/env python3
"""Merge the reports of one benchmark run repeated in several processes into one report.

    suite_merge.py --session ID --side base|new --order ORDER --out OUT.json REPORT.json...

The A/B mode of scripts/bench-suite.sh runs each suite entry as K processes
of the base binary and K of the new one, alternated. This writes one report
per side that `gpubench compare` reads like any other: every stats block of
`results` becomes a block over the K processes, its samples one value per
process (that process's median), so the rank test sees the variation between
processes, drift included, and never treats the repetitions of one process as
independent. The other fields are the first report's; `meta.complete` is
true only if every report is complete, `verification.verified` true only if
every one verified (false if any failed, else null). `meta.interleaved` says
what the samples are and names the session that both sides share, which is
how compare knows the two sides were interleaved (docs/compare.md).

The reports must share subcommand, configuration and device; otherwise the
merge fails (exit 1) naming the first that differs. The device's
`during_timing` (the clocks the monitor sampled while that process timed) is
not part of its identity: it differs between processes of one run (a sample
more or less), and the merged report's covers them all. Standard library only.
"""

import argparse
import json
import os
import statistics
import sys


def is_stats(o):
    return isinstance(o, dict) and "n" in o and "median" in o and "min" in o


def stats_block(values):
    """A stats block as gpubench writes one (common/stats.c): n, min, median, mean, max, stdev, samples."""
    n = len(values)
    return {
        "n": n,
        "min": min(values),
        "median": statistics.median(values),
        "mean": sum(values) / n,
        "max": max(values),
        "stdev": statistics.stdev(values) if n > 1 else 0,
        "samples": values,
    }


def merge_results(nodes):
    """nodes: the same place in every report; returns the merged place."""
    first = nodes[0]
    if is_stats(first):
        medians = [x["median"] for x in nodes if is_stats(x) and isinstance(x["median"], (int, float))]
        if len(medians) != len(nodes):
            return first
        return stats_block(medians)
    if isinstance(first, dict):
        out = {}
        for key, value in first.items():
            out[key] = merge_results([value] + [x.get(key) if isinstance(x, dict) else None for x in nodes[1:]])
        return out
    if isinstance(first, list):
        if all(isinstance(x, list) and len(x) == len(first) for x in nodes):
            return [merge_results([x[i] for x in nodes]) for i in range(len(first))]
        return first
    return first


def identity(device):
    """The device block without what was measured during the run (common/gpu_monitor.h)."""
    if not isinstance(device, dict):
        return device
    return {k: v for k, v in device.items() if k != "during_timing"}


def merge_during_timing(blocks):
    """One during_timing over every process's: counts summed, clocks' extremes and weighted means."""
    if not blocks or not all(isinstance(b, dict) for b in blocks):
        return blocks[0] if blocks else None
    out = dict(blocks[0])
    for key in ("samples", "busy_samples"):
        if all(isinstance(b.get(key), int) for b in blocks):
            out[key] = sum(b[key] for b in blocks)
    for key in ("sm_clock_mhz", "memory_clock_mhz"):
        parts = [(b.get(key), b.get("busy_samples") or 0) for b in blocks]
        if not all(isinstance(c, dict) and all(isinstance(c.get(f), (int, float)) for f in ("min", "max", "mean"))
                   for c, _ in parts):
            continue
        weight = sum(w for _, w in parts)
        out[key] = {
            "min": min(c["min"] for c, _ in parts),
            "max": max(c["max"] for c, _ in parts),
            "mean": (sum(c["mean"] * w for c, w in parts) / weight if weight
                     else sum(c["mean"] for c, _ in parts) / len(parts)),
        }
    if all(isinstance(b.get("clock_reasons"), list) for b in blocks):
        reasons = []
        for b in blocks:
            reasons += [r for r in b["clock_reasons"] if r not in reasons]
        out["clock_reasons"] = reasons
    if all(isinstance(b.get("throttled"), bool) for b in blocks):
        out["throttled"] = any(b["throttled"] for b in blocks)
    return out


def fail(message):
    print("suite_merge.py: " + message, file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--session", required=True)
    ap.add_argument("--side", required=True, choices=["base", "new"])
    ap.add_argument("--order", required=True, help="the order the processes ran in, e.g. ABBAABBA")
    ap.add_argument("--out", required=True)
    ap.add_argument("reports", nargs="+")
    args = ap.parse_args()

    docs = []
    for path in args.reports:
        try:
            with open(path) as f:
                docs.append(json.load(f))
        except (OSError, ValueError) as e:
            fail("cannot read %s: %s" % (path, e))
    first = docs[0]
    for path, d in zip(args.reports[1:], docs[1:]):
        for block, key in (("config", lambda x: x), ("device", identity)):
            if key(d.get(block)) != key(first.get(block)):
                fail("%s and %s differ in %s: not one run repeated" % (args.reports[0], path, block))
        if d["meta"].get("subcommand") != first["meta"].get("subcommand"):
            fail("%s and %s are of different subcommands" % (args.reports[0], path))

    merged = dict(first)
    merged["meta"] = dict(first["meta"])
    merged["meta"]["complete"] = all(d["meta"].get("complete") is True for d in docs)
    merged["meta"]["interleaved"] = {
        "session": args.session,
        "side": args.side,
        "processes": len(docs),
        "order": args.order,
        "samples": "one per process: its median",
        "reports": [os.path.relpath(p, os.path.dirname(os.path.abspath(args.out))) for p in args.reports],
    }
    if isinstance(first.get("device"), dict) and "during_timing" in first["device"]:
        merged["device"] = dict(first["device"])
        merged["device"]["during_timing"] = merge_during_timing([d["device"].get("during_timing") for d in docs])
    merged["results"] = merge_results([d["results"] for d in docs])
    verdicts = [d.get("verification", {}).get("verified") for d in docs]
    merged["verification"] = dict(first.get("verification", {}))
    merged["verification"]["verified"] = (
        False if False in verdicts else True if all(v is True for v in verdicts) else None)

    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        json.dump(merged, f, indent="\t")
        f.write("\n")
    os.replace(tmp, args.out)


if __name__ == "__main__":
    main()
