#!/usr/bin/env python3
"""Summarize fidelity.sh's reports (one folder of LABEL.json) as a markdown table: per report and
engine the headline measure, verification and, for CSMV, the server's validation time per update."""
import json
import os
import sys


def rows(path, label):
    d = json.load(open(path))
    rev = d["meta"].get("git_revision", "?")
    r = d["results"]
    if d["meta"].get("command", d["meta"].get("subcommand")) == "stm" or "throughput_tx_per_s" in r:
        entries = [dict(r, algo=d["config"]["algo"], verified=d["verification"]["verified"])] + r.get("compare", [])
        for e in entries:
            cp = e.get("commit_phases_ns") or {}
            extra = "abort rate %.3g, abandoned %s" % (e.get("abort_rate", 0), e.get("abandoned"))
            if "server_validation" in cp:
                extra += ", server validation %.3g us/update, wait for server %.3g us" % (
                    cp["server_validation"] / 1e3, cp["wait_server"] / 1e3)
            tp = e["throughput_tx_per_s"]
            tp = tp["median"] if isinstance(tp, dict) else tp
            yield label, rev, e["algo"], "%.4g tx/s" % tp, e.get("verified"), extra
    elif "impls" in r:
        c = d["config"]
        for e in r["impls"]:
            yield (label, rev, e["impl"], "%.4g s (%s events timed)" % (e["stream_seconds"]["median"],
                   c.get("timed_events", c.get("events"))), d["verification"]["verified"],
                   "mismatches %s" % e.get("mismatches"))
    elif "loop_seconds" in r:
        yield label, rev, "gpu (speculative)", "%.4g s" % r["loop_seconds"]["median"], d["verification"]["verified"], ""
        for b in r.get("baselines", []):
            yield label, rev, b["name"], "%.4g s" % b["loop_seconds"]["median"], b.get("verified"), ""


def main():
    folder = sys.argv[1]
    print("| report | git | engine | median | verified | notes |")
    print("| --- | --- | --- | ---: | --- | --- |")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        try:
            for row in rows(os.path.join(folder, name), name[:-5]):
                print("| %s |" % " | ".join(str(x) for x in row))
        except (KeyError, ValueError, TypeError) as e:
            print("| %s | ? | ? | ? | ? | unreadable: %s |" % (name[:-5], e))


main()
