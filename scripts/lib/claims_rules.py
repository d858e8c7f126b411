"""How each claim of docs/claims.md is measured on the reports of one run (scripts/lib/claims.py).

The reports and the helpers are scripts/lib/claims_reports.py; a claim whose
reports are not in the run is "not run".

RULES maps a claim's id to (kind, paper, measure):
  kind     how ours is judged against the paper (claims.py, "Verdicts"):
           "ratio"   a number to match: reproduced within a factor of 2 and no further
                     from it than it is from 1, in direction only on the same side of 1
                     (claims.py makes the rates and shares of VALUE_IDS "value" claims:
                     within a factor of 2, no direction);
           "always"  ours is the smallest of ratios that must all be above 1: reproduced
                     when it is, in direction only when their median is;
           "between" ours must lie in [lo, hi] (from the rule, or from the measure);
                     in direction only when it lies in [dir_lo, dir_hi];
           "above1" / "below1"   a direction with no number;
           "atleast" a count of at least paper;
           "zero"    exactly 0.
  paper    the paper's number for "ratio" and "atleast"; (lo, hi[, dir_lo, dir_hi])
           for "between" (None where the measure sets them); else None
  measure  f(run) -> Judged or NotRun
Only the standard library is used.
"""

import json
import math
import os
import statistics

from claims_reports import (Judged, NotRun, always, at, detect, end_over_start, fx, lists,
                            median_of, one, panel_pairs, pba, pick, ratio_at, ratios, spec, spec_time,
                            stm, where)


# ---- PR-STM (seed 000)

def prstm_always(scripts, panels=None, xmin=None):
    def m(run):
        pairs = []
        for s in scripts:
            recs = stm(run, s)
            if panels:
                recs = pick(recs, panel=tuple(panels))
            if xmin is not None:
                recs = [r for r in recs if r["x"] >= xmin]
            pairs += [((s,) + k, v) for k, v in ratios(recs, "prstm", "gpustm")]
        return always(pairs, "prstm / gpustm in " + ", ".join(scripts))
    return m


def readonly_effect(script, algos):
    def m(run):
        recs = stm(run, script)
        vals = []
        for a in algos:
            vals += panel_pairs(recs, a, "A", "B") + panel_pairs(recs, a, "C", "D")
        # the paper's 20% are threads (--read-only-threads); --read-only-mix blocks mixes them into every one
        mix = {r["ro_threads"] for r in pick(recs, panel=("B", "D"), algo=tuple(algos))}
        how = {(True,): "as 20% of the threads", (False,): "as 20% of every thread's transactions"}.get(
            tuple(mix), "of both mixes")
        return median_of(vals, "20%% read-only (%s) over none (B/A, D/C), %s, %s" % (how, " and ".join(algos), script))
    return m


def scaling(run):
    recs = stm(run, "fig7")
    got = end_over_start(recs, "prstm", "ABCD")
    if not got:
        return NotRun("fig7: no prstm reports at two thread counts")
    t0, t1 = got[0][2], got[0][3]
    eff = statistics.median(g[4] for g in got) / (t1 / t0)
    return Judged(eff, "prstm's growth from %d to %d threads over the %sx threads, median over workloads "
                  "and panels: %s (growth %sx)" % (t0, t1, fx(t1 / t0), fx(eff),
                                                    fx(statistics.median(g[4] for g in got))),
                  lo=0.5, hi=1.0, dir_lo=t0 / t1, dir_hi=math.inf)


def hash_trend(script, algo, panels="ABCD"):
    def m(run):
        got = end_over_start(stm(run, script), algo, panels)
        if not got:
            return NotRun("%s: no %s reports at two hash values" % (script, algo))
        return median_of([g[4] for g in got], "%s at hash %d over hash %d, %s" % (algo, got[0][3], got[0][2], script))
    return m


def semantic_ratio(algo, panels, x_num, x_den):
    def m(run):
        recs = stm(run, "fig9")
        vals = []
        for p in panels:
            for wl in sorted({r["workload"] for r in recs}):
                a, b = at(recs, algo, x_num, workload=wl, panel=p), at(recs, algo, x_den, workload=wl, panel=p)
                if a is not None and b:
                    vals.append(a / b)
        return median_of(vals, "%s at %d%% semantic over %d%%, fig9 panels %s" % (algo, x_num, x_den, panels))
    return m


def cm_overhead(run):
    recs = pick(stm(run, "fig9"), workload="bank", panel="C", x=100)
    a, b = one(recs, algo="prstm-nocm"), one(recs, algo="prstm")
    if not a or not b:
        return NotRun("fig9: no bank prstm and prstm-nocm reports in panel C at 100% semantic")
    return Judged(a["thr"] / b["thr"], "fig9 bank panel C (presorted) at 100%% semantic, %d threads: prstm-nocm %s "
                  "/ prstm %s tx/s" % (a["threads"], fx(a["thr"]), fx(b["thr"])))


def skiplist_vs_bank(run):
    sk, bk = ratios(stm(run, "fig10"), "gpustm", "prstm"), ratios(stm(run, "fig7"), "gpustm", "prstm")
    bank = {(p, x): v for (wl, p, x), v in bk if wl == "bank"}
    vals = [v / bank[(p, x)] for (wl, p, x), v in sk if (p, x) in bank]
    return median_of(vals, "gpustm / prstm on skiplist (fig10) over the same on bank (fig7), same panel and threads")


def kmeans_growth(run):
    recs = stm(run, "fig12a")
    p, g = end_over_start(recs, "prstm", "A"), end_over_start(recs, "gpustm", "A")
    if not p or not g:
        return NotRun("fig12a: no prstm and gpustm reports at two thread counts")
    return Judged(p[0][4] / g[0][4], "kmeans from %d to %d threads: prstm grows %sx, gpustm %sx" % (
        p[0][2], p[0][3], fx(p[0][4]), fx(g[0][4])))


def graph_hash_drop(run):
    g = end_over_start(stm(run, "fig13b"), "prstm", "A")
    bank = pick(stm(run, "fig8"), algo="prstm", workload="bank", panel="A")
    if not g:
        return NotRun("fig13b: no prstm reports at two hash values")
    hi = one(bank, x=g[0][3])
    lo = one(bank, x=g[0][2])
    if not hi or not lo:
        return NotRun("fig8: no bank prstm reports in panel A at hash %d and %d" % (g[0][2], g[0][3]))
    b = hi["thr"] / lo["thr"]
    return Judged(g[0][4] / b, "prstm from hash %d to %d: graph keeps %sx, bank (panel A) %sx" % (
        g[0][2], g[0][3], fx(g[0][4]), fx(b)))


# ---- CSMV (seed 001)

FIG1_OTHERS = ("prstm", "jvstm", "jvstm-gpu")


def csmv_best(run):
    recs = stm(run, "csmv-fig1")
    pairs = []
    for r in pick(recs, algo="csmv"):
        others = [o["thr"] for o in pick(recs, workload=r["workload"], x=r["x"], algo=FIG1_OTHERS)]
        if others:
            pairs.append((("%d%% ROTs" % r["x"],), r["thr"] / max(others)))
    return always(pairs, "csmv over the fastest of prstm, jvstm and jvstm-gpu, csmv-fig1")


def csmv_max_over_prstm(run):
    pairs = ratios(stm(run, "csmv-fig1"), "csmv", "prstm") + ratios(stm(run, "csmv-fig2"), "csmv", "prstm")
    if not pairs:
        return NotRun("csmv-fig1, csmv-fig2: no csmv and prstm reports at one point")
    k, v = max(pairs, key=lambda p: p[1])
    return Judged(v, "max csmv / prstm over %d points of Figures 1 and 2: at %s" % (len(pairs), where(k)))


def time_ratio(script, a, b, x, metric="tpt"):
    def m(run):
        return ratio_at(run, script, "bank" if script == "csmv-fig1" else "memcached", a, b, x, metric)
    return m


def wasted_share(script, algos, xs=None):
    def m(run):
        vals = []
        for r in pick(stm(run, script), algo=algos):
            if (xs is None or r["x"] in xs) and r["tpt"]:
                vals.append((r["algo"], r["x"], r["wasted"] / r["tpt"]))
        if not vals:
            return NotRun("%s: no reports of %s%s" % (script, ", ".join(algos), "" if xs is None else " at %s" % xs))
        a, x, v = max(vals, key=lambda t: t[2])
        return Judged(v, "largest wasted / total time per transaction: %s at %s, of %d reports" % (a, x, len(vals)))
    return m


def abort_at(x):
    def m(run):
        r = one(stm(run, "csmv-fig1"), algo="prstm", x=x)
        if not r:
            return NotRun("csmv-fig1: no prstm report at %d%% ROTs" % x)
        return Judged(r["abort"], "prstm's abort rate at %d%% ROTs" % x)
    return m


# An update's commit (Tables I and III): the client's phases in sequence. CSMV's server
# validates and inserts while its client waits (inside wait_server); an engine without a
# server (jvstm-gpu) reports validation and record_insert as its own phases.
CLIENT_PHASES = ("divergence", "pre_validation", "wait_server", "validation", "record_insert", "write_back")


def commit_total(p):
    return sum(p[k] for k in CLIENT_PHASES if p.get(k) is not None)


def validation(p):
    return p["validation"] if p.get("validation") is not None else p.get("server_validation")


def phases(run, algo, x):
    r = one(stm(run, "csmv-fig1"), algo=algo, x=x)
    if not r:
        return None, "csmv-fig1: no %s report at %d%% ROTs" % (algo, x)
    p = r["phases"]
    if not p or not commit_total(p) or validation(p) is None:
        return None, "csmv-fig1: %s's report at %d%% ROTs has no commit phases" % (algo, x)
    return p, None


def phase_ratio(kind):
    """JVSTM-GPU's commit against CSMV's at 1% ROTs (Table I)."""
    def m(run):
        j, why = phases(run, "jvstm-gpu", 1)
        if j is None:
            return NotRun(why)
        if kind == "validation-share":
            return Judged(validation(j) / commit_total(j), "jvstm-gpu's validation over its commit at 1%% ROTs: "
                          "%s of %s ns" % (fx(validation(j)), fx(commit_total(j))))
        if kind == "divergence-share":
            if j.get("divergence") is None:
                return lanes_divergence(run)
            return Judged(j["divergence"] / commit_total(j), "jvstm-gpu's divergence over its commit at 1%% ROTs: "
                          "%s of %s ns" % (fx(j["divergence"]), fx(commit_total(j))))
        c, why = phases(run, "csmv", 1)
        if c is None:
            return NotRun(why)
        if kind == "commit":
            return Judged(commit_total(j) / commit_total(c), "commit per update at 1%% ROTs: jvstm-gpu %s ns, "
                          "csmv %s ns" % (fx(commit_total(j)), fx(commit_total(c))))
        return Judged(validation(j) / validation(c), "validation per update at 1%% ROTs: jvstm-gpu %s ns, "
                      "csmv %s ns" % (fx(validation(j)), fx(validation(c))))
    return m


def lanes_divergence(run):
    """JVSTM-GPU's divergence where its reports leave it null: the share of its warps' lane slots
    idle while they ran the commit, from a profile of the same binary (scripts/lib/ncu_lanes.py's
    lanes.json in csmv-fig1/divergence/, results/*/divergence.sh)."""
    path = os.path.join(run, "csmv-fig1", "divergence", "lanes.json")
    try:
        with open(path, encoding="utf-8") as f:
            a = json.load(f).get("jvstm-gpu") or {}
    except (OSError, ValueError):
        return NotRun("jvstm-gpu's reports do not measure divergence (docs/stm.md, \"Tables I to IV\"), "
                      "and the run has no profile of its lanes (csmv-fig1/divergence/lanes.json)")
    for part, key, what in (("commit", "idle_share_by_time", "of its commit's warp time"),
                            ("sampled", "idle_share_by_time", "of its kernel's warp time"),
                            ("kernel", "idle_share_by_instruction", "of its kernel's warp instructions")):
        v = (a.get(part) or {}).get(key)
        if v is not None:
            return Judged(v, "jvstm-gpu's lanes idle while their warp ran the other lanes' paths, %s%% %s "
                          "(ncu on the same binary, csmv-fig1/divergence/lanes.json: its reports leave "
                          "divergence null)" % (fx(100 * v), what))
    return NotRun("csmv-fig1/divergence/lanes.json has no figure for jvstm-gpu")


def csmv_divergence(run):
    c, why = phases(run, "csmv", 1)
    if c is None or c.get("divergence") is None:
        return NotRun(why or "csmv-fig1: csmv's report at 1% ROTs has no divergence")
    return Judged(c["divergence"] / commit_total(c), "csmv's divergence over its commit at 1%% ROTs: %s of %s ns" % (
        fx(c["divergence"]), fx(commit_total(c))))


def ways_trend(run):
    pairs = dict((k[2], v) for k, v in ratios(stm(run, "csmv-fig2"), "csmv", "prstm"))
    if len(pairs) < 2:
        return NotRun("csmv-fig2: csmv and prstm at fewer than two associativities")
    lo, hi = min(pairs), max(pairs)
    return Judged(pairs[hi] / pairs[lo], "csmv / prstm at %d ways (%sx) over at %d ways (%sx)" % (
        hi, fx(pairs[hi]), lo, fx(pairs[lo])))


def engines_always(script, a, b):
    def m(run):
        return always([(("%s %s" % (k[0], k[2]),), v) for k, v in ratios(stm(run, script), a, b)],
                      "%s / %s in %s" % (a, b, script))
    return m


def nocv_at_lowest(run):
    pairs = sorted((k[2], v) for k, v in ratios(stm(run, "csmv-fig3"), "csmv", "csmv-nocv"))
    if not pairs:
        return NotRun("csmv-fig3: no csmv and csmv-nocv reports at one point")
    return Judged(pairs[0][1], "csmv / csmv-nocv at %d%% ROTs, the fewest run" % pairs[0][0])


def nocv_trend(run):
    pairs = sorted((k[2], v) for k, v in ratios(stm(run, "csmv-fig3"), "csmv", "csmv-nocv"))
    if len(pairs) < 2:
        return NotRun("csmv-fig3: csmv and csmv-nocv at fewer than two points")
    return Judged(pairs[0][1] / pairs[-1][1], "csmv / csmv-nocv at %d%% ROTs (%sx) over at %d%% (%sx)" % (
        pairs[0][0], fx(pairs[0][1]), pairs[-1][0], fx(pairs[-1][1])))


# ---- lock-free list (seed 002)

def list_c_fastest(run):
    pairs = []
    for n, t in sorted(lists(run).items()):
        for impl in ("opencl-cpu", "opencl"):
            if impl in t and "cpu" in t and t["cpu"]:
                pairs.append(((n, impl), t[impl] / t["cpu"]))
    return always(pairs, "OpenCL (opencl-cpu, opencl) time over the serial C list's (cpu)")


def list_ratio(a, b, n):
    def m(run):
        t = lists(run).get(n)
        if not t or a not in t or b not in t:
            return NotRun("list-table1: no %s and %s at %d nodes" % (a, b, n))
        return Judged(t[a] / t[b], "%s %s s / %s %s s at %d nodes" % (a, fx(t[a]), b, fx(t[b]), n))
    return m


def list_growth(impl):
    """time at 4096 nodes over time at 2048 (a doubling: 4x when quadratic)."""
    def m(run):
        t = lists(run)
        a, b = t.get(2048, {}).get(impl), t.get(4096, {}).get(impl)
        if not a or not b:
            return NotRun("list-table1: no %s at 2048 and 4096 nodes" % impl)
        return Judged(b / a, "%s: %s s at 2048 nodes, %s s at 4096" % (impl, fx(a), fx(b)))
    return m


# ---- speculation (seed 003)

PAPER_LOOPS = ("ocean", "trfd", "fftbench", "mdg", "strcat", "gothic", "alvinn")


def spec_speedups(run):
    s = spec(run)
    out = {}
    for loop in PAPER_LOOPS:
        d = s.get((loop, "all"))
        if d and spec_time(d, "seq"):
            out[loop] = spec_time(d, "seq") / spec_time(d)
    return out


def spec_extreme(fn):
    def m(run):
        sp = spec_speedups(run)
        if len(sp) < len(PAPER_LOOPS):
            return NotRun("speculate-figures: the seven loops' --opt all reports with seq are not all there")
        loop = fn(sp, key=sp.get)
        return Judged(sp[loop], "%s, of the seven loops' speedups over seq (%s to %s)" % (
            loop, fx(min(sp.values())), fx(max(sp.values()))))
    return m


def spec_over5(run):
    sp = spec_speedups(run)
    if len(sp) < len(PAPER_LOOPS):
        return NotRun("speculate-figures: the seven loops' --opt all reports with seq are not all there")
    over = sorted(loop for loop, v in sp.items() if v > 5)
    return Judged(len(over), "loops over 5x: %s" % (", ".join(over) or "none"))


def spec_over_cputm(run):
    pairs = []
    for loop in PAPER_LOOPS:
        d = spec(run).get((loop, "all"))
        if d and spec_time(d, "cpu-tm"):
            pairs.append(((loop,), spec_time(d, "cpu-tm") / spec_time(d)))
    return always(pairs, "cpu-tm time over the speculative run's, speculate-figures")


def opt_ratio(loop, num, den, inverse=False):
    """time(num) / time(den) of one loop; num or den "seq" is the --opt all run's seq."""
    def m(run):
        s = spec(run)
        base = s.get((loop, "all"))

        def t(opt):
            if opt == "seq":
                return spec_time(base, "seq") if base else None
            d = s.get((loop, opt))
            return spec_time(d) if d else None
        a, b = t(num), t(den)
        if not a or not b:
            return NotRun("speculate-figures: no %s reports of %s and %s" % (loop, num, den))
        return Judged(a / b, "%s: time of %s %s s over %s %s s" % (loop, num, fx(a), den, fx(b)))
    return m


def no_impact(run):
    vals = []
    for loop in ("fftbench", "alvinn"):
        base = spec(run).get((loop, "all"))
        for opt in ("no-mo", "no-co", "no-sched"):
            d = spec(run).get((loop, opt))
            if base and d:
                vals.append(((loop, opt), spec_time(d) / spec_time(base)))
    if not vals:
        return NotRun("speculate-figures: no fftbench or alvinn ablations")
    k, v = max(vals, key=lambda p: abs(math.log(p[1])))
    return Judged(v, "the ablation furthest from all: %s %s over all, of %d" % (k[0], k[1], len(vals)))


def rate(loop, opt):
    def m(run):
        d = spec(run).get((loop, opt))
        if not d:
            return NotRun("speculate-figures: no %s --opt %s report" % (loop, opt))
        return Judged(100.0 * d["results"]["misspeculation_rate"], "%s --opt %s, percent of iterations "
                      "re-executed" % (loop, opt))
    return m


def zero_rates(run):
    vals = []
    for loop in ("fftbench", "alvinn"):
        for opt in ("all", "none"):
            d = spec(run).get((loop, opt))
            if d:
                vals.append(((loop, opt), 100.0 * d["results"]["misspeculation_rate"]))
    if len(vals) < 4:
        return NotRun("speculate-figures: fftbench and alvinn under --opt all and none are not all there")
    k, v = max(vals, key=lambda p: p[1])
    return Judged(v, "largest of fftbench and alvinn with and without the optimizations: %s %s" % k)


def rates_reduced(run):
    vals = []
    for loop in PAPER_LOOPS:
        a, n = spec(run).get((loop, "all")), spec(run).get((loop, "none"))
        if a and n and a["results"]["misspeculation_rate"] > 0:
            vals.append(n["results"]["misspeculation_rate"] / a["results"]["misspeculation_rate"])
    return median_of(vals, "misspeculation rate w/o opts (none) over w/ opts (all), loops that misspeculate")


def check_share(run, loop):
    d = spec(run).get((loop, "all"))
    if not d or not spec_time(d):
        return None
    return d["results"]["phase_seconds"]["check"]["median"] / spec_time(d)


def ocean_check_highest(run):
    shares = {loop: check_share(run, loop) for loop in PAPER_LOOPS}
    if any(v is None for v in shares.values()):
        return NotRun("speculate-figures: the seven loops' --opt all reports are not all there")
    other = max((loop for loop in PAPER_LOOPS if loop != "ocean"), key=shares.get)
    return Judged(shares["ocean"] / shares[other] if shares[other] else math.inf,
                  "ocean's check share %s over the largest other, %s's %s" % (
                      fx(shares["ocean"]), other, fx(shares[other])))


def trfd_check_lower(run):
    o, t = check_share(run, "ocean"), check_share(run, "trfd")
    if o is None or t is None or not o:
        return NotRun("speculate-figures: no ocean and trfd --opt all reports")
    return Judged(t / o, "trfd's check share %s over ocean's %s" % (fx(t), fx(o)))


# ---- the thesis (seed 004)

def key_text(table, key):
    if table == "detect":
        return "%s %d x %d" % (key[0], key[1], key[1])
    return "%d processes x %d resources" % (key[1], key[0])


def thesis_ratio(table, key, num, den):
    def m(run):
        t = (detect(run) if table == "detect" else pba(run)).get(key)
        if not t or num not in t or den not in t or not t[den]:
            return NotRun("%s-tables: no %s and %s at %s%s" % (
                "detect" if table == "detect" else "pba", num, den, key_text(table, key),
                " (--protocol thesis)" if table == "detect" else ""))
        return Judged(t[num] / t[den], "%s %s s over %s %s s at %s" % (num, fx(t[num]), den, fx(t[den]),
                                                                    key_text(table, key)))
    return m


def thesis_growth(algo, impl, lo, hi):
    def m(run):
        d = detect(run)
        a, b = d.get((algo, lo), {}).get(impl), d.get((algo, hi), {}).get(impl)
        if not a or not b:
            return NotRun("detect-tables: no %s %s at %d and %d (--protocol thesis)" % (algo, impl, lo, hi))
        return Judged(b / a, "%s %s: %s s at %d, %s s at %d" % (algo, impl, fx(a), lo, fx(b), hi))
    return m


def speedup_change(table, k_lo, k_hi, num, den):
    def m(run):
        t = detect(run) if table == "detect" else pba(run)
        lo, hi = t.get(k_lo, {}), t.get(k_hi, {})
        a_txt, b_txt = key_text(table, k_lo), key_text(table, k_hi)
        if not all(i in x and x[i] for x in (lo, hi) for i in (num, den)):
            return NotRun("%s-tables: no %s and %s at %s and at %s" % (table, num, den, a_txt, b_txt))
        a, b = lo[num] / lo[den], hi[num] / hi[den]
        return Judged(b / a, "%s over %s: %sx at %s, %sx at %s" % (num, den, fx(a), a_txt, fx(b), b_txt))
    return m


def thesis_max(algo, sizes):
    def m(run):
        d = detect(run)
        vals = [(n, d[(algo, n)]["cpu-serial"] / d[(algo, n)]["gpu"]) for n in sizes
                if (algo, n) in d and d[(algo, n)].get("gpu") and d[(algo, n)].get("cpu-serial")]
        if len(vals) < len(sizes):
            return NotRun("detect-tables: %s gpu and cpu-serial not at every size of the thesis" % algo)
        n, v = max(vals, key=lambda p: p[1])
        return Judged(v, "largest %s speedup of gpu over cpu-serial, at %d x %d" % (algo, n, n))
    return m


# ---- the rules, by claim id

R = "ratio"
RULES = {
    # PR-STM (seed 000)
    "prstm-cm-overhead": (R, 1.15, cm_overhead),
    "prstm-fig7-always": ("always", None, prstm_always(["fig7"])),
    "prstm-fig7-readonly": ("between", (0.8, 1.25), readonly_effect("fig7", ("prstm", "gpustm"))),
    "prstm-fig7-scaling": ("between", None, scaling),
    "prstm-fig8-hash-prstm": ("below1", None, hash_trend("fig8", "prstm")),
    "prstm-fig8-hash-gpustm": ("below1", None, hash_trend("fig8", "gpustm")),
    "prstm-fig8-readonly": ("between", (1.0, 1.25, 1.0, math.inf), readonly_effect("fig8", ("prstm", "gpustm"))),
    "prstm-fig9-sorted-always": ("always", None, prstm_always(["fig9"], panels="CD")),
    "prstm-fig9-sorted-prstm": ("above1", None, semantic_ratio("prstm", "CD", 100, 0)),
    "prstm-fig9-sorted-gpustm": ("between", (0.8, 1.0, 0.0, 1.0), semantic_ratio("gpustm", "CD", 100, 0)),
    "prstm-fig9-gpustm-5pct": ("between", (0.0, 0.5, 0.0, 1.0), semantic_ratio("gpustm", "AB", 5, 0)),
    "prstm-fig9-prstm-copes": ("between", (0.8, math.inf), semantic_ratio("prstm", "AB", 100, 5)),
    "prstm-fig9-semantic-always": ("always", None, prstm_always(["fig9"], panels="AB", xmin=1)),
    "prstm-fig10-always": ("always", None, prstm_always(["fig10"])),
    "prstm-fig10-readonly": ("between", (0.8, 1.25), readonly_effect("fig10", ("prstm", "gpustm"))),
    "prstm-fig10-gpustm-closer": ("above1", None, skiplist_vs_bank),
    "prstm-fig11-always": ("always", None, prstm_always(["fig11"])),
    "prstm-fig12-always": ("always", None, prstm_always(["fig12a", "fig12b"])),
    "prstm-fig12-growth": ("above1", None, kmeans_growth),
    "prstm-fig13-always": ("always", None, prstm_always(["fig13a", "fig13b"])),
    "prstm-fig13-hash-sharper": ("below1", None, graph_hash_drop),
    # CSMV (seed 001)
    "csmv-fig1-best": ("always", None, csmv_best),
    "csmv-fig1-prstm-99": (R, 1000, lambda run: ratio_at(run, "csmv-fig1", "bank", "csmv", "prstm", 99)),
    "csmv-fig1-jvstmgpu-1": (R, 20, lambda run: ratio_at(run, "csmv-fig1", "bank", "csmv", "jvstm-gpu", 1)),
    "csmv-fig1-jvstm-1": (R, 20, lambda run: ratio_at(run, "csmv-fig1", "bank", "csmv", "jvstm", 1)),
    "csmv-fig1-jvstm-99": (R, 10, lambda run: ratio_at(run, "csmv-fig1", "bank", "csmv", "jvstm", 99)),
    "csmv-abstract-prstm-max": (R, 1000, csmv_max_over_prstm),
    "csmv-fig1b-prstm-abort-99": ("between", (0.0, 0.01), abort_at(99)),
    "csmv-table2-prstm-wasted-90": (R, 0.48, wasted_share("csmv-fig1", ("prstm",), xs=(90,))),
    "csmv-table2-prstm-99": (R, 934, time_ratio("csmv-fig1", "prstm", "csmv", 99)),
    "csmv-table2-wasted-99": ("between", (0.0, 0.001), wasted_share("csmv-fig1", ("csmv", "prstm"), xs=(99,))),
    "csmv-table2-jvstmgpu-1": (R, 19.8, time_ratio("csmv-fig1", "jvstm-gpu", "csmv", 1)),
    "csmv-table1-commit": (R, 23, phase_ratio("commit")),
    "csmv-table1-validation-share": (R, 0.5, phase_ratio("validation-share")),
    "csmv-table1-validation-20x": (R, 20, phase_ratio("validation")),
    "csmv-table1-divergence-share": (R, 0.45, phase_ratio("divergence-share")),
    "csmv-table1-divergence-csmv": ("between", (0.0, 0.05), csmv_divergence),
    "csmv-fig2-prstm-256": (R, 15, lambda run: ratio_at(run, "csmv-fig2", "memcached", "csmv", "prstm", 256)),
    "csmv-fig2-prstm-4": (R, 1.6, lambda run: ratio_at(run, "csmv-fig2", "memcached", "prstm", "csmv", 4)),
    "csmv-fig2-prstm-trend": ("above1", None, ways_trend),
    "csmv-fig2-jvstmgpu-always": ("always", None, engines_always("csmv-fig2", "csmv", "jvstm-gpu")),
    "csmv-fig2-jvstmgpu-4": (R, 50, lambda run: ratio_at(run, "csmv-fig2", "memcached", "csmv", "jvstm-gpu", 4)),
    "csmv-fig2-jvstmgpu-256": (R, 2, lambda run: ratio_at(run, "csmv-fig2", "memcached", "csmv", "jvstm-gpu", 256)),
    "csmv-table4-wasted": ("between", (0.0, 0.1), wasted_share("csmv-fig2", ("csmv", "prstm", "jvstm-gpu"))),
    "csmv-table4-prstm-256": (R, 29.9, time_ratio("csmv-fig2", "prstm", "csmv", 256)),
    "csmv-fig3-nocv-update": ("above1", None, nocv_at_lowest),
    "csmv-fig3-nocv-trend": ("above1", None, nocv_trend),
    "csmv-fig3-onlycs": ("always", None, engines_always("csmv-fig3", "jvstm-gpu", "csmv-onlycs")),
    # lock-free list (seed 002)
    "list-c-fastest": ("always", None, list_c_fastest),
    "list-opencl-cpu-4096": (R, 33.2, list_ratio("opencl-cpu", "cpu", 4096)),
    "list-opencl-gpu-2304": (R, 3.78, list_ratio("opencl", "opencl-cpu", 2304)),
    "list-c-quadratic": ("between", (3.0, 5.0, 1.0, math.inf), list_growth("cpu")),
    "list-opencl-quadratic": ("between", (3.0, 5.0, 1.0, math.inf), list_growth("opencl-cpu")),
    # speculation (seed 003)
    "spec-fig8-min": (R, 3.62, spec_extreme(min)),
    "spec-fig8-max": (R, 13.76, spec_extreme(max)),
    "spec-fig8-over5": ("atleast", 5, spec_over5),
    "spec-fig9-cpu": ("always", None, spec_over_cputm),
    "spec-ocean-sched": (R, 1.32, opt_ratio("ocean", "no-sched", "all")),
    "spec-trfd-nomo": ("below1", None, opt_ratio("trfd", "seq", "no-mo")),
    "spec-trfd-co": (R, 1.36, opt_ratio("trfd", "no-co", "all")),
    "spec-mdg-mo": (R, 0.4, opt_ratio("mdg", "all", "no-mo")),
    "spec-strcat-mo": (R, 1.72, opt_ratio("strcat", "no-mo", "all")),
    "spec-strcat-co": (R, 1.55, opt_ratio("strcat", "no-co", "all")),
    "spec-no-impact": ("between", (0.8, 1.25), no_impact),
    "spec-fig10-zero": ("zero", None, zero_rates),
    "spec-fig10-ocean": (R, 0.14, rate("ocean", "all")),
    "spec-fig10-ocean-none": (R, 0.53, rate("ocean", "none")),
    "spec-fig10-trfd": (R, 0.52, rate("trfd", "all")),
    "spec-fig10-trfd-none": (R, 100, rate("trfd", "none")),
    "spec-fig10-mdg": (R, 0.0018, rate("mdg", "all")),
    "spec-fig10-strcat": (R, 2.10, rate("strcat", "all")),
    "spec-fig10-strcat-none": (R, 41.23, rate("strcat", "none")),
    "spec-fig10-gothic": (R, 0.67, rate("gothic", "all")),
    "spec-fig10-gothic-none": (R, 0.92, rate("gothic", "none")),
    "spec-fig10-reduced": ("above1", None, rates_reduced),
    "spec-fig11-ocean-check": ("above1", None, ocean_check_highest),
    "spec-fig11-trfd-check": ("below1", None, trfd_check_lower),
    # the thesis (seed 004)
    "osdda-initial-8192": (R, 15.97, thesis_ratio("detect", ("osdda", 8192), "cpu-serial", "gpu-initial")),
    "osdda-bitpacked-512": (R, 5.50, thesis_ratio("detect", ("osdda", 512), "cpu-serial", "gpu")),
    "osdda-bitpacked-8192": (R, 295.72, thesis_ratio("detect", ("osdda", 8192), "cpu-serial", "gpu")),
    "osdda-bitpack-gain": (R, 18.5, thesis_ratio("detect", ("osdda", 8192), "gpu-initial", "gpu")),
    "osdda-cpu-growth": (R, 6291, thesis_growth("osdda", "cpu-serial", 512, 8192)),
    "osdda-max": (R, 317.42, thesis_max("osdda", (512, 1024, 2048, 4096, 8192))),
    "lmdda-initial-1024": (R, 43.65, thesis_ratio("detect", ("lmdda", 1024), "cpu-serial", "gpu-initial")),
    "lmdda-bitpacked-1024": (R, 85.24, thesis_ratio("detect", ("lmdda", 1024), "cpu-serial", "gpu")),
    "lmdda-speedup-falls": (R, 0.32, speedup_change("detect", ("lmdda", 256), ("lmdda", 1024), "cpu-serial", "gpu")),
    "lmdda-max": (R, 812.50, thesis_max("lmdda", (64, 128, 256, 512, 1024))),
    "pba-512x256": (R, 1.65, thesis_ratio("pba", (256, 512), "cpu", "gpu-thesis")),
    "pba-8192x256": (R, 4.19, thesis_ratio("pba", (256, 8192), "cpu", "gpu-thesis")),
    "pba-8192x1024": (R, 2.58, thesis_ratio("pba", (1024, 8192), "cpu", "gpu-thesis")),
    "pba-speedup-grows": (R, 2.54, speedup_change("pba", (256, 512), (256, 8192), "cpu", "gpu-thesis")),
}

