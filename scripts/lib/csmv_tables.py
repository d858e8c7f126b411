#!/usr/bin/env python3
"""Tables I to IV of Nunes et al. (CSMV) from the reports of scripts/csmv-fig1.sh (bank)
and scripts/csmv-fig2.sh (memcached): an update's commit phases (Tables I and III) for the
multi-versioned engines (CSMV's through its server, JVSTM's and JVSTM-GPU's without one), and
the total and wasted time per transaction (Tables II and IV) for every engine. Writes
OUT/csmv-tables.csv and OUT/csmv-tables.md.

usage: csmv_tables.py OUT FIG1_DIR FIG2_DIR   (a folder may hold no reports: its tables are left out)
"""
import csv
import glob
import json
import os
import sys

# CSMV's phases (the server's validation and insert overlap wait_server) and JVSTM's (validation,
# record_insert), each engine's absent from the other's reports.
PHASES = ["divergence", "pre_validation", "wait_server", "server_validation", "server_insert", "validation",
          "record_insert", "write_back"]
# Total: the client's phases in sequence (a null divergence, JVSTM's, counts as not measured).
CLIENT = ["divergence", "pre_validation", "wait_server", "validation", "record_insert", "write_back"]
ORDER = ["csmv", "csmv-nocv", "csmv-onlycs", "csmv-index", "csmv-index-nocv", "csmv-index-onlycs", "jvstm",
         "jvstm-gpu", "prstm", "prstm-nocm", "gpustm", "gpustm-local"]


def us(ns):
    """Nanoseconds to microseconds; None (the report's null: nothing to divide by) stays None."""
    return None if ns is None else ns / 1e3


def load(folder, workload):
    rows = []
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        try:
            d = json.load(open(path))
        except (OSError, ValueError):
            continue
        c = d.get("config", {})
        if c.get("workload") != workload or "results" not in d:
            continue
        if d.get("verification", {}).get("verified") is not True or d.get("meta", {}).get("complete") is not True:
            sys.exit("csmv-tables: %s is not a complete, verified run" % path)
        r = d["results"]
        x = c["read_only"] if workload == "bank" else c["memcached"]["ways"]
        row = {
            "workload": workload,
            "algo": c["algo"],
            "x": x,
            "backend": c["backend"],
            "throughput_median": r["throughput_tx_per_s"]["median"],
            "abort_rate": r["abort_rate"],
            "time_per_tx_us": us(r["time_per_tx_ns"]),
            "wasted_per_tx_us": us(r["wasted_per_tx_ns"]),
            "commits_update": r["commits_update"],
        }
        cp = r.get("commit_phases_ns")
        for p in PHASES:
            row[p + "_us"] = us(cp.get(p)) if cp else None
        # write_back null: no update committed, so there is no commit to split
        row["commit_total_us"] = (sum(cp[p] for p in CLIENT if cp.get(p) is not None) / 1e3
                                  if cp and cp.get("write_back") is not None else None)
        rows.append(row)
    rows.sort(key=lambda w: (ORDER.index(w["algo"]) if w["algo"] in ORDER else len(ORDER), w["algo"], w["x"]))
    return rows


def num(v):
    return "-" if v is None else "%.3g" % v


def phase_table(out, rows, xname, title):
    rows = [w for w in rows if w["commit_total_us"] is not None]
    if not rows:
        return
    out.append("## " + title + "\n")
    out.append("An update transaction's commit, in microseconds per committed update. CSMV's engines: "
               "total = waiting for the group's other lanes (divergence) + pre-validation + waiting for the "
               "server + write-back; the server's validation and record insert are spent while its clients "
               "wait (inside wait server). JVSTM's (jvstm on CPU threads, jvstm-gpu): total = validation "
               "(waits for the ATR included) + record insert + write-back; their divergence is not measured "
               "(docs/stm.md). Where an update never committed (100% read-only) the row is empty.\n")
    out.append("| algo | %s | total | divergence | pre-val. | wait server | validation | record insert | write-back |"
               % xname)
    out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for w in rows:
        empty = w["commits_update"] == 0
        val = w["validation_us"] if w["validation_us"] is not None else w["server_validation_us"]
        ins = w["record_insert_us"] if w["record_insert_us"] is not None else w["server_insert_us"]
        cells = [w["commit_total_us"], w["divergence_us"], w["pre_validation_us"], w["wait_server_us"], val, ins,
                 w["write_back_us"]]
        out.append("| %s | %s | %s |" % (w["algo"], w["x"], " | ".join("-" if empty else num(v) for v in cells)))
    out.append("")


def time_table(out, rows, xname, title):
    if not rows:
        return
    algos = []
    for w in rows:
        if w["algo"] not in algos:
            algos.append(w["algo"])
    xs = sorted({w["x"] for w in rows})
    at = {(w["algo"], w["x"]): w for w in rows}
    out.append("## " + title + "\n")
    out.append("Total and wasted (aborted attempts) time per committed transaction, microseconds, read-only "
               "ones included; jvstm runs on CPU threads, jvstm-gpu on the run's backend.\n")
    out.append("| %s | %s |" % (xname, " | ".join("%s total | %s wasted" % (a, a) for a in algos)))
    out.append("| ---: | %s |" % " | ".join("---: | ---:" for _ in algos))
    for x in xs:
        cells = []
        for a in algos:
            w = at.get((a, x))
            cells += [num(w["time_per_tx_us"]) if w else "-", num(w["wasted_per_tx_us"]) if w else "-"]
        out.append("| %s | %s |" % (x, " | ".join(cells)))
    out.append("")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip())
    out_dir, fig1, fig2 = sys.argv[1:]
    bank, memc = load(fig1, "bank"), load(fig2, "memcached")
    if not bank and not memc:
        sys.exit("csmv-tables: no bank reports in %s and no memcached reports in %s" % (fig1, fig2))
    fields = list((bank + memc)[0].keys())
    with open(os.path.join(out_dir, "csmv-tables.csv"), "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=fields)
        wr.writeheader()
        for w in bank + memc:
            wr.writerow({k: ("" if v is None else v) for k, v in w.items()})
    md = ["# CSMV Tables I to IV (Nunes et al.)\n",
          "From the reports of `%s` (bank) and `%s` (memcached); every run complete and verified.\n"
          % (fig1, fig2)]
    phase_table(md, bank, "% ROTs", "Table I: an update's commit phases (bank)")
    time_table(md, bank, "% ROTs", "Table II: total and wasted time per transaction (bank)")
    phase_table(md, memc, "ways", "Table III: an update's commit phases (memcached)")
    time_table(md, memc, "ways", "Table IV: total and wasted time per transaction (memcached)")
    with open(os.path.join(out_dir, "csmv-tables.md"), "w") as f:
        f.write("\n".join(md))
    print("%d reports -> %s, %s" % (len(bank) + len(memc), os.path.join(out_dir, "csmv-tables.csv"),
                                    os.path.join(out_dir, "csmv-tables.md")))


if __name__ == "__main__":
    main()
