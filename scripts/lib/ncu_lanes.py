#!/usr/bin/env python3
"""The lanes a warp runs with, from Nsight Compute's CSV exports: how much of a kernel's
lane-time its lanes spend waiting while their warp runs the other lanes' paths.

CSMV's Table I gives JVSTM-GPU a "divergence" column, "the time during which threads block
due to warp divergence" (45% of its commit at 1% inquiries). JVSTM-GPU's own reports leave it
null: a lane commits by itself, with no point where it waits for its warp to time (docs/stm.md,
"Tables I to IV"). A profile of the same binary measures it instead (results/*/divergence.sh):
for every instruction a warp issues, ncu counts the lanes that execute it, so

  idle share = 1 - (thread instructions executed) / (32 x warp instructions executed)

is the share of the warp's lane slots whose lanes were elsewhere: on another path (divergence)
or done with their work (exited). Weighted by instruction it is the kernel counters' ratio;
weighted by time it is the same per instruction, each weighted by the warp-state samples taken
at it (where the warps spent their time). The commit's share keeps only the instructions of
the source lines of the commit (COMMIT below).

    ncu_lanes.py DIR [--json OUT]

reads DIR/ALGO-metrics.csv (`ncu --csv --page raw` with smsp__inst_executed.sum and
smsp__thread_inst_executed.sum), DIR/ALGO-sass.csv (`ncu -i R --page source --csv
--print-source sass`) and DIR/ALGO-cuda-sass.csv (`--print-source cuda,sass`), or for the
source lines, where that page has none, DIR/ALGO-sass-lines.txt (`nvdisasm -g` of the kernel's
cubin, matched to the SASS page instruction by instruction), each of the last three as it is or
gzip'd (NAME.gz), for each ALGO found; prints a table and writes the figures as JSON (default
DIR/lanes.json). Only the standard library is used.

An instruction inlined from a helper (a fence of common/port.h) is the commit's when the commit's
line inlined it: ncu's cuda,sass page lists it under each line of its inlining, and it counts
once. `nvdisasm -g` names only the innermost line, so lines taken from its listing leave such
helpers out of the commit; `nvdisasm -gi` names every level. On the H100 reference run
(results/h100-ref-5a1cd31/csmv-fig1/divergence) the commit took 45% of the kernel's sampled time
by ncu's page, 27% by a `-g` listing and 49% by a `-gi` listing of the same binary, its lanes
idle 30% of it by all three.
"""

import csv
import glob
import gzip
import json
import os
import re
import sys

LANES = 32
INST = "Instructions Executed"
THREAD_INST = "Thread Instructions Executed"
SAMPLES = ("Warp Stall Sampling (All Samples)", "Warp Stall Sampling (All Cycles)", "# Samples")
FILE_BLOCKS = ("File Path", "File Name", "File")
BLOCK_STARTS = ("Kernel Name", "Function Name") + FILE_BLOCKS
LINE_COLUMNS = ("Line No", "Line", "#", "Line Number", "# Line")

# JVSTM-GPU's commit, from the end of its execution to its write-back (jvstm_gpu.cu's
# jvgpu_attempt after csmv_retire: validation and insertion into the ATR with its waits, the
# record, the install and publication): the functions it runs there, by file. A line of the
# kernel counts as the commit's when it lies in one of them.
COMMIT = {
    "jvstm.h": None,  # the whole file: the ATR's insertion, record and publication
    "jvstm_gpu.cu": ("jvgpu_backoff", "jvgpu_write_back", ("jvgpu_attempt", "csmv_retire(")),
    "csmv.h": ("csmv_install", "csmv_refresh_safe"),
    "csmv_sched.h": ("csmv_lane_outcome", "csmv_lane_install"),
}


def number(s):
    s = (s or "").strip().replace(",", "")
    if s in ("", "-", "n/a", "N/A"):
        return None
    try:
        return float(s)
    except ValueError:
        return None


def export(d, name):
    """DIR/NAME, or DIR/NAME.gz where the export was kept compressed; None where neither is."""
    path = os.path.join(d, name)
    return next((p for p in (path, path + ".gz") if os.path.exists(p)), None)


def text(path, newline=None):
    """An export opened for reading as text, gzip'd or not."""
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8", errors="replace", newline=newline)
    return open(path, encoding="utf-8", errors="replace", newline=newline)


def csv_rows(path):
    """The CSV rows of an ncu export, without ncu's own lines (==PROF==, ==WARNING==)."""
    with text(path, newline="") as f:
        return [r for r in csv.reader(line for line in f if not line.startswith("==")) if r]


def raw_counters(path):
    """The first profiled kernel's metrics of `ncu --csv --page raw`: {metric: value}, and its name."""
    rows = csv_rows(path)
    if not rows or rows[0][0] != "ID":
        return None, None
    head = rows[0]
    for r in rows[1:]:
        if r[0].strip():  # the units row has no ID
            d = dict(zip(head, r))
            values = {k: number(v) for k, v in d.items()}
            return {k: v for k, v in values.items() if v is not None}, d.get("Kernel Name")
    return None, None


def source_blocks(path):
    """The blocks of `ncu --page source --csv`: [(what, name, [row dict])], a block a kernel or a
    file. A block opens with one or more rows naming it (`--print-source sass`: "Kernel Name";
    `cuda,sass`: "File Path" then "Function Name"), then a header row; a block named by a file
    is that file's (what "File Path", name its path), else the first row's."""
    rows, out, i = csv_rows(path), [], 0
    while i < len(rows):
        names = []
        while i < len(rows) and rows[i][0] in BLOCK_STARTS:
            names.append((rows[i][0], rows[i][1] if len(rows[i]) > 1 else ""))
            i += 1
        if i >= len(rows):
            break
        if not names and rows[i][0] not in ("Address",) + LINE_COLUMNS:
            i += 1  # nothing of ours
            continue
        files = [n for n in names if n[0] in FILE_BLOCKS]
        what, name = (files or names or [("", "")])[0]
        head, body, i = rows[i], [], i + 1
        while i < len(rows) and rows[i][0] not in BLOCK_STARTS:
            body.append(dict(zip(head, rows[i])))
            i += 1
        out.append((what, name, body))
    return out


def samples_of(row):
    for k in SAMPLES:
        if k in row:
            return number(row[k]) or 0.0
    return None


def sass_rows(blocks):
    """The SASS instructions, executed or not: (row, warp instructions, thread instructions) of
    each row with an address."""
    out = []
    for _, _, body in blocks:
        for row in body:
            a = (row.get("Address") or "").strip()
            if a and a not in ("-", "..."):
                out.append((row, number(row.get(INST)) or 0.0, number(row.get(THREAD_INST)) or 0.0))
    return out


def idle(rows):
    """Idle lane share over (row, inst, thr) rows: by instruction, and by the samples."""
    inst = sum(r[1] for r in rows)
    thr = sum(r[2] for r in rows)
    by_inst = 1.0 - thr / (LANES * inst) if inst else None
    w = s = 0.0
    for row, i, t in rows:
        n = samples_of(row)
        if n:
            s += n
            w += n * (1.0 - t / (LANES * i))
    return {"warp_instructions": inst, "thread_instructions": thr, "idle_share_by_instruction": by_inst,
            "samples": s, "idle_share_by_time": (w / s) if s else None}


def function_lines(path, names):
    """{line} of the functions `names` in a source file: a name, or (name, after) for the part of
    the function after the first line holding `after`; a definition runs from its name's line to
    the first line that is a lone closing brace."""
    try:
        with open(path, encoding="utf-8") as f:
            src = f.read().split("\n")
    except OSError:
        return set()
    out = set()
    for want in names:
        name, after = (want, None) if isinstance(want, str) else want
        start = None
        for n, line in enumerate(src, 1):
            if start is None and re.match(r"^(?:GB_HD\w*|__device__|static|__global__)\b.*\b%s\(" % re.escape(name), line):
                start = n
            elif start is not None and line.startswith("}"):
                lines = range(start, n + 1)
                if after:
                    hit = [k for k in lines if after in src[k - 1]]
                    lines = range(hit[0] + 1, n + 1) if hit else range(0)
                out.update(lines)
                break
    return out


def commit_lines(src_root):
    """{(file basename, line)} of COMMIT in the sources under src_root (stm/csmv/)."""
    out = set()
    for base, names in COMMIT.items():
        path = os.path.join(src_root, "stm", "csmv", base)
        if names is None:
            try:
                with open(path, encoding="utf-8") as f:
                    n = len(f.read().split("\n"))
            except OSError:
                continue
            out.update((base, k) for k in range(1, n + 1))
        else:
            out.update((base, k) for k in function_lines(path, names))
    return out


def sass_by_line(blocks):
    """(row, inst, thr, {(file basename, line)}) of each executed instruction of a cuda,sass
    export, in the page's order: a row with a line number and no address names the source line
    of the SASS rows after it, and an instruction inlined from a helper is listed under each line
    of its inlining (a fence of port.h under port.h's line and the commit's that calls it), so
    its rows are one instruction with all those lines."""
    out = {}
    for what, name, body in blocks:
        base = os.path.basename(name) if what in FILE_BLOCKS else None
        line = None
        for row in body:
            a = (row.get("Address") or "").strip()
            ln = next((row[k].strip() for k in LINE_COLUMNS if k in row and row[k].strip().isdigit()), None)
            if ln and (not a or a in ("-", "...")):
                line = int(ln)
                continue
            if a and a not in ("-", "...") and number(row.get(INST)):
                f = base or os.path.basename((row.get("File") or row.get("File Path") or "").strip()) or None
                x = out.setdefault(a, (row, number(row.get(INST)), number(row.get(THREAD_INST)) or 0.0, set()))
                x[3].add((f, line))
    return list(out.values())


def sass_lines(path, kernel):
    """[(opcode, [(file basename, line)])] of `kernel`'s instructions in `nvdisasm -g` output, in
    order: a `//## File "F", line N` comment names the source line of the instructions after it
    (the innermost, where code was inlined: `-g` names no caller). `nvdisasm -gi` writes a run of
    such comments, one a level of the inlining, each with the line that inlined it (`inlined at
    "F", line N`): all of them are the instruction's lines."""
    out, inside, where, continued = [], False, [], False
    try:
        with text(path) as f:
            listing = f.read().split("\n")
    except OSError:
        return out
    for line in listing:
        t = line.strip()
        if re.match(r"^\.section\s", t):
            inside, where = ".text." in t and kernel in t, []
            continue
        if t.startswith("//## File "):
            # `-gi` writes a comment per level of the inlining: a run of them is one instruction's
            levels = [(os.path.basename(f), int(n)) for f, n in re.findall(r'"([^"]+)", line (\d+)', t)]
            where = where + [x for x in levels if x not in where] if continued else levels
            continued = True
            continue
        m = re.match(r"^/\*[0-9a-fA-F]+\*/\s+(.*?)\s*;", t)
        if m and inside:
            out.append((opcode(m.group(1)), where))
        continued = False
    return out


def opcode(sass):
    """An instruction's opcode without its predicate and modifiers: `@!P0 BRA.U` -> BRA."""
    w = sass.strip().split()
    if w and w[0].startswith("@"):
        w = w[1:]
    return w[0].split(".")[0] if w else ""


def sass_by_order(rows, lines):
    """(row, inst, thr, {(file, line)}) of the SASS page's rows, their lines taken from nvdisasm's
    listing of the same kernel instruction by instruction (both in address order): only when the
    two list the same opcodes, but for a tail of padding (NOP, BRA) one of them may have after
    the kernel's last instruction."""
    n = min(len(rows), len(lines))
    tail = [opcode(r[0].get("Source", "")) for r in rows[n:]] + [o for o, _ in lines[n:]]
    if any(o not in ("NOP", "BRA") for o in tail):
        return None
    if any(opcode(r[0].get("Source", "")) != o for r, (o, _) in zip(rows, lines)):
        return None
    return [(r, i, t, set(where)) for (r, i, t), (_, where) in zip(rows[:n], lines[:n])]


def summary(d, src_root="."):
    out = {}
    commit = commit_lines(src_root)
    for metrics in sorted(glob.glob(os.path.join(d, "*-metrics.csv"))):
        algo = os.path.basename(metrics)[:-len("-metrics.csv")]
        a = {}
        m, kernel = raw_counters(metrics)
        if m and m.get("smsp__inst_executed.sum"):
            inst, thr = m["smsp__inst_executed.sum"], m.get("smsp__thread_inst_executed.sum", 0.0)
            a["kernel"] = {"name": kernel, "warp_instructions": inst, "thread_instructions": thr,
                           "lanes_per_instruction": thr / inst, "idle_share_by_instruction": 1.0 - thr / (LANES * inst),
                           "duration_ns": m.get("gpu__time_duration.sum")}
        sass = export(d, algo + "-sass.csv")
        instructions = sass_rows(source_blocks(sass)) if sass else []
        executed = [x for x in instructions if x[1]]
        if executed:
            a["sampled"] = idle(executed)
        both, listing = export(d, algo + "-cuda-sass.csv"), export(d, algo + "-sass-lines.txt")
        rows = sass_by_line(source_blocks(both)) if both else []
        if not any(ln for _, _, _, where in rows for _, ln in where) and instructions and listing:
            # no source lines on ncu's page (its sources not found): nvdisasm's, by instruction
            name = (a.get("kernel", {}).get("name") or algo.replace("-", "_") + "_bank_kernel").split("(")[0]
            rows = [x for x in sass_by_order(instructions, sass_lines(listing, name.split("::")[-1].strip())) or []
                    if x[1]]
            if rows:
                a["lines_from"] = "nvdisasm"
        # an instruction is the commit's when any of its lines is
        mine = [(r, i, t) for r, i, t, where in rows if where & commit]
        if mine:
            a["commit"] = idle(mine)
            total = sum(samples_of(r) or 0.0 for r, _, _, _ in rows)
            a["commit"]["share_of_samples"] = a["commit"]["samples"] / total if a["commit"]["samples"] else None
        if a:
            out[algo] = a
    return out


def fmt(v, pct=False):
    if v is None:
        return "-"
    return "%.1f%%" % (100 * v) if pct else "%.4g" % v


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) > 1 else 2
    d = argv[1]
    out = argv[argv.index("--json") + 1] if "--json" in argv else os.path.join(d, "lanes.json")
    root = argv[argv.index("--src") + 1] if "--src" in argv else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    s = summary(d, root)
    if not s:
        print("ncu_lanes.py: no ncu export with instruction counts in %s" % d, file=sys.stderr)
        return 1
    with open(out, "w", encoding="utf-8") as f:
        json.dump(s, f, indent=1, sort_keys=True)
        f.write("\n")
    print("| algo | lanes an instruction | idle lanes, by instruction | idle lanes, by time | commit: idle lanes by time | commit's share of the time |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for algo, a in s.items():
        k, p, c = a.get("kernel", {}), a.get("sampled", {}), a.get("commit", {})
        print("| %s | %s | %s | %s | %s | %s |" % (algo, fmt(k.get("lanes_per_instruction")),
                                                  fmt(k.get("idle_share_by_instruction"), True),
                                                  fmt(p.get("idle_share_by_time"), True),
                                                  fmt(c.get("idle_share_by_time"), True),
                                                  fmt(c.get("share_of_samples"), True)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
