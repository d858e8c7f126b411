"""What the claims rules read: the reports of one run and the ratios between them
(scripts/lib/claims_rules.py, scripts/lib/claims.py).

A run is the folder scripts/reproduce-all.sh writes: one folder per script (fig7/,
csmv-fig1/, speculate-figures/reports/, ...). Only reports that are complete and
verified count. A measure returns Judged (ours and how it was measured, with the
bounds of a "between" claim where the measure sets them) or NotRun (why not).
Only the standard library is used.
"""

import glob
import json
import os
import re
import statistics


class Judged:
    def __init__(self, ours, detail, lo=None, hi=None, dir_lo=None, dir_hi=None, median=None):
        self.ours, self.detail = ours, detail
        self.lo, self.hi, self.dir_lo, self.dir_hi, self.median = lo, hi, dir_lo, dir_hi, median


class NotRun:
    def __init__(self, why):
        self.why = why


# ---- reports

def _load(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("meta"), dict):
        return None
    if doc["meta"].get("complete") is not True:
        return None
    if not isinstance(doc.get("verification"), dict) or doc["verification"].get("verified") is not True:
        return None
    return doc


_cache = {}


def reports(run, pattern):
    """The complete, verified reports RUN/PATTERN, by path."""
    key = (run, pattern)
    if key not in _cache:
        _cache[key] = {p: d for p in sorted(glob.glob(os.path.join(run, pattern))) for d in [_load(p)] if d}
    return _cache[key]


STM_NAME = re.compile(r"^(?P<workload>[a-z0-9]+)-(?P<algo>.+)-(?P<panel>[A-Z])-x(?P<x>[0-9]+)\.json$")


def stm(run, script):
    """One record per report of an STM figure: workload, algo, panel, x, and the metrics."""
    out = []
    for path, d in reports(run, script + "/*.json").items():
        m = STM_NAME.match(os.path.basename(path))
        if not m or d.get("meta", {}).get("subcommand") != "stm":
            continue
        r = d["results"]
        out.append({"workload": m.group("workload"), "algo": m.group("algo"), "panel": m.group("panel"),
                    "x": int(m.group("x")), "thr": r["throughput_tx_per_s"]["median"],
                    "abort": r.get("abort_rate"), "tpt": r.get("time_per_tx_ns"),
                    "wasted": r.get("wasted_per_tx_ns"), "phases": r.get("commit_phases_ns"),
                    "threads": d["config"].get("threads"),
                    # --read-only-threads (absent before it: the share of every block)
                    "ro_threads": bool(d["config"].get("read_only_threads"))})
    return out


def pick(recs, **want):
    return [r for r in recs if all(r[k] in v if isinstance(v, (list, tuple, set)) else r[k] == v
                                   for k, v in want.items())]


def one(recs, **want):
    got = pick(recs, **want)
    return got[0] if len(got) == 1 else None


def spec(run):
    """(loop, opt) -> the speculate report."""
    out = {}
    for path, d in reports(run, "speculate-figures/reports/spec-*.json").items():
        c = d.get("config", {})
        if d["meta"].get("subcommand") == "speculate":
            out[(c.get("loop"), c.get("opt"))] = d
    return out


def spec_time(d, name=None):
    if name is None:
        return d["results"]["loop_seconds"]["median"]
    for b in d["results"].get("baselines", []):
        if b.get("name") == name:
            return b["loop_seconds"]["median"]
    return None


def impl_times(run, pattern, subcommand, key, timing):
    """key(config) -> {impl: median seconds}, from the reports of a table script."""
    out = {}
    for path, d in reports(run, pattern).items():
        if d["meta"].get("subcommand") != subcommand:
            continue
        k = key(d["config"])
        if k is not None:  # one report a detector (detect-tables) or several in one report
            out.setdefault(k, {}).update((e["impl"], e[timing]["median"]) for e in d["results"]["impls"])
    return out


def detect(run):
    return impl_times(run, "detect-tables/reports/detect-*.json", "detect",
                      lambda c: (c["algo"], c["procs"]) if c.get("protocol") == "thesis" else None,
                      "stream_seconds")


def pba(run):
    return impl_times(run, "pba-tables/reports/pba-*.json", "avoid", lambda c: (c["res"], c["procs"]),
                      "request_seconds")


def lists(run):
    return impl_times(run, "list-table1/reports/table1-N*.json", "list", lambda c: c["nodes"], "run_seconds")


# ---- helpers

def fx(v):
    return "%.3g" % v


def ratios(recs, a, b, metric="thr", keys=("workload", "panel", "x")):
    """For every point both engines have, metric(a) / metric(b): [(point, ratio)]."""
    by = {}
    for r in recs:
        if r["algo"] in (a, b) and r[metric]:
            by.setdefault(tuple(r[k] for k in keys), {})[r["algo"]] = r[metric]
    return [(k, v[a] / v[b]) for k, v in sorted(by.items()) if a in v and b in v]


def where(point):
    return " ".join(str(p) for p in point)


def always(pairs, what):
    """The smallest of ratios that must all exceed 1, with the median, or NotRun."""
    if not pairs:
        return NotRun("no point with both " + what)
    lo = min(pairs, key=lambda p: p[1])
    med = statistics.median(v for _, v in pairs)
    return Judged(lo[1], "min %sx over %d points (at %s), median %sx; %s" % (
        fx(lo[1]), len(pairs), where(lo[0]), fx(med), what), median=med)


def median_of(vals, what, **kw):
    if not vals:
        return NotRun("no point for " + what)
    m = statistics.median(vals)
    return Judged(m, "median %sx over %d (range %s to %s); %s" % (fx(m), len(vals), fx(min(vals)), fx(max(vals)),
                                                                  what), **kw)


def panel_pairs(recs, algo, pa, pb):
    """thr(panel pb) / thr(panel pa) for one engine at every (workload, x) both panels have."""
    out = []
    for r in pick(recs, algo=algo, panel=pb):
        o = one(recs, algo=algo, panel=pa, workload=r["workload"], x=r["x"])
        if o and o["thr"]:
            out.append(r["thr"] / o["thr"])
    return out


def end_over_start(recs, algo, panels):
    """thr at the largest x over thr at the smallest, per (workload, panel), for one engine."""
    out = []
    for wl in sorted({r["workload"] for r in recs}):
        for p in panels:
            got = sorted(pick(recs, algo=algo, workload=wl, panel=p), key=lambda r: r["x"])
            if len(got) >= 2 and got[0]["thr"]:
                out.append((wl, p, got[0]["x"], got[-1]["x"], got[-1]["thr"] / got[0]["thr"]))
    return out


def at(recs, algo, x, metric="thr", **want):
    r = one(recs, algo=algo, x=x, **want)
    return r[metric] if r else None


def ratio_at(run, script, wl, a, b, x, metric="thr", what=None):
    recs = stm(run, script)
    va, vb = at(recs, a, x, metric, workload=wl, panel="A"), at(recs, b, x, metric, workload=wl, panel="A")
    if va is None or vb is None or not vb:
        return NotRun("%s: no %s and %s reports at %s" % (script, a, b, x))
    return Judged(va / vb, "%s %s / %s at %s: %s / %s" % (what or script, a, b, x, fx(va), fx(vb)))
