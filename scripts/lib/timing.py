#!/usr/bin/env python3
"""The time each script of scripts/reproduce-all.sh took, as a table.

    timing.py add TIMING.csv DATE REVISION MODE SCRIPT STATUS WALL_S TALLY
        Append a row for one script's session to TIMING.csv (its header first
        when the file is new). TALLY is the file sweep.sh appended a line to
        for each point ("ran SECONDS" or "kept"); it may be empty or missing
        (a script whose table is built from other scripts' reports).

    timing.py table TIMING.csv TIMING.md REVISION MODE
        Write TIMING.md: for each script, the sessions of this revision and
        mode summed (a full run spread over several sessions costs their
        sum), then the total. MODE plot-only (a session that runs no point)
        tables the run whose points it plotted instead: the revision and mode
        of the newest session in TIMING.csv that was not plot-only, where one is.

    timing.py pace TIMING.csv MODE SCRIPT [MAKE]
        Print the seconds a point of SCRIPT took in MODE, over every session
        of every revision that ran points (their run_s over their points_run),
        and how many points that is: "SECONDS POINTS", or "- 0" where none ran.
        With MAKE (a count of points still to run), a third field: the
        seconds those take at that pace, rounded up ("-" where none ran).

TIMING.csv holds every session of every revision (date_utc, revision, mode,
script, status, wall_s, points_run, points_kept, run_s: seconds of the points
run, gpubench's runs alone). Only the standard library is used.
"""

import csv
import math
import os
import sys

FIELDS = ["date_utc", "revision", "mode", "script", "status", "wall_s", "points_run", "points_kept", "run_s"]


def read_tally(path):
    ran, kept, run_s = 0, 0, 0
    try:
        lines = open(path, encoding="utf-8").read().split("\n")
    except OSError:
        lines = []
    for line in lines:
        words = line.split()
        if words[:1] == ["ran"] and len(words) == 2:
            ran += 1
            run_s += int(words[1])
        elif words == ["kept"]:
            kept += 1
    return ran, kept, run_s


def cmd_add(args):
    path, date, rev, mode, script, status, wall, tally = args
    ran, kept, run_s = read_tally(tally)
    new = not os.path.exists(path) or os.path.getsize(path) == 0
    with open(path, "a", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        if new:
            w.writeheader()
        w.writerow({"date_utc": date, "revision": rev, "mode": mode, "script": script, "status": status,
                    "wall_s": int(wall), "points_run": ran, "points_kept": kept, "run_s": run_s})
    return ran, kept, run_s


def hms(s):
    s = int(s)
    return "%d:%02d:%02d" % (s // 3600, s // 60 % 60, s % 60)


def cmd_table(args):
    path, md, rev, mode = args
    with open(path, newline="", encoding="utf-8") as f:
        every = list(csv.DictReader(f))
    if mode == "plot-only":
        made = [r for r in every if r["mode"] != "plot-only"]
        if made:
            rev, mode = made[-1]["revision"], made[-1]["mode"]
    rows = [r for r in every if r["revision"] == rev and r["mode"] == mode]
    order, per = [], {}
    for r in rows:
        if r["script"] not in per:
            order.append(r["script"])
            per[r["script"]] = {"sessions": 0, "wall_s": 0, "points_run": 0, "run_s": 0}
        p = per[r["script"]]
        p["sessions"] += 1
        for k in ("wall_s", "points_run", "run_s"):
            p[k] += int(r[k])
        p["last"] = r
    out = ["# Time per script\n",
           "Revision %s, mode %s: every session of `scripts/reproduce-all.sh` at this revision and mode "
           "summed (a run spread over several sessions costs their sum; a point kept from an earlier "
           "session costs nothing in a later one). Measured with the shell's clock, whole seconds; "
           "every session of every revision is in `timing.csv`.\n" % (rev, mode),
           "| script | sessions | wall time | points run | in gpubench | last session: status, points kept |",
           "| --- | ---: | ---: | ---: | ---: | --- |"]
    tot = {"wall_s": 0, "points_run": 0, "run_s": 0}
    for s in order:
        p = per[s]
        for k in tot:
            tot[k] += p[k]
        out.append("| %s | %d | %s | %d | %s | %s, %s |" % (
            s, p["sessions"], hms(p["wall_s"]), p["points_run"], hms(p["run_s"]), p["last"]["status"],
            p["last"]["points_kept"]))
    out.append("| all | | %s | %d | %s | |" % (hms(tot["wall_s"]), tot["points_run"], hms(tot["run_s"])))
    with open(md, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def cmd_pace(args):
    path, mode, script = args[:3]
    make = int(args[3]) if len(args) == 4 else None
    run_s, points = 0, 0
    try:
        with open(path, newline="", encoding="utf-8") as f:
            for r in csv.DictReader(f):
                if r["mode"] == mode and r["script"] == script:
                    run_s += int(r["run_s"])
                    points += int(r["points_run"])
    except OSError:
        pass
    if not points:
        print("- 0" if make is None else "- 0 -")
        return
    pace = "%.2f" % (run_s / points)
    # The estimate prices the pace as printed, so a reader can redo the sum.
    est = "" if make is None else " %d" % math.ceil(float(pace) * make)
    print("%s %d%s" % (pace, points, est))


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "add" and len(sys.argv) == 10:
        ran, kept, run_s = cmd_add(sys.argv[2:])
        print("%d points run (%d s in gpubench), %d kept" % (ran, run_s, kept))
    elif len(sys.argv) >= 2 and sys.argv[1] == "table" and len(sys.argv) == 6:
        cmd_table(sys.argv[2:])
    elif len(sys.argv) >= 2 and sys.argv[1] == "pace" and len(sys.argv) in (5, 6):
        cmd_pace(sys.argv[2:])
    else:
        sys.exit(__doc__.strip())


if __name__ == "__main__":
    main()
