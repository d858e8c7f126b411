#!/usr/bin/env python3
"""The thesis's own numbers beside ours: Abell 2013, Tables 3.2-3.3, 4.3-4.4 and 5.2-5.4.

    thesis_numbers.py cells ALGO PROCS RES
        Print, one a line, the header and the cell of every thesis column the
        markdown tables of ALGO (osdda, lmdda or pba) show for that size, tab-
        separated; `-` where the thesis has no number for the size.

    thesis_numbers.py check
        Exit 0 when thesis-numbers.tsv is whole and consistent: every table
        has its five sizes and its four columns, tables on the same sizes
        print the same CPU column, and every speedup is what the thesis's own
        rule makes of its run-times (below), save the cells in MISPRINTS.
        Otherwise print what is wrong and exit 1.

The numbers live in thesis-numbers.tsv beside this file, one line per table
row, each cell "run-time/speedup" as printed. detect_tables.py and
pba_tables.py read them through md_columns() and md_cells(), which load them
with the checks of `check`: a number mistyped so that its speedup no longer
follows from its run-times stops every table, not just this command.

The unit of the run-times: the thesis prints none. They are seconds, as its
GPU times allow no smaller unit: GPU-PBA on the Tesla K20c takes 0.02 at 512
x 256, a worst case of 511 safety iterations each with a kernel launch and a
copy back to the host (20 ms is 39 us an iteration; 20 us would be 40 ns, far
below one launch), and GPU-LMDDA, several kernels an event, takes 0.0001 at 64
x 64 (100 us, where 100 ns could not hold a single launch). CPU-PBA's 26.62 at
8192 x 1024 fits too: gpubench's cpu, the same serial algorithm, takes 39.2 s
there on an H100 host (results/h100-2026-11-24/pba-tables).

The speedups: in Tables 3.2-3.3 they are the CPU run-time over the GPU one; in
Tables 4.3-4.4 from 128 x 128 on, and in 5.2-5.4, nearly all are one less,
(CPU - GPU) / GPU (Table 5.2, 8192 x 256, K20c: 8.34 / 1.99 = 4.19, printed
3.19x). They are shown as printed, never recomputed. Only the standard
library is used.
"""

import csv
import os
import sys
from decimal import Decimal

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "thesis-numbers.tsv")
CPU = "cpu"
GPUS = ("GTX 670", "Tesla C2050", "Tesla K20c")
NEWEST = "Tesla K20c"
FIELDS = ["table", "algo", "impl", "procs", "res", CPU] + list(GPUS)
# Cells whose speedup does not follow from the run-times printed beside it:
# Table 4.4 prints 0.0001 s against the CPU's 0.10 s (1000x) and 100.00x.
MISPRINTS = {("4.4", 64, 64, "Tesla C2050"), ("4.4", 64, 64, "Tesla K20c")}

UNIT_NOTE = ("the thesis's run-times are seconds: it prints no unit, and no smaller one fits its "
             "GPU times (scripts/lib/thesis_numbers.py says why)")


class ThesisDataError(Exception):
    pass


def short(gpu):
    return gpu.replace("Tesla ", "")


def parse_cell(text, where):
    """'0.05/4.40x' -> ('0.05', '4.40'), both as printed."""
    time, sep, speedup = text.partition("/")
    if not sep or not speedup.endswith("x"):
        raise ThesisDataError("%s: '%s' is not run-time/speedup" % (where, text))
    speedup = speedup[:-1]
    for number in (time, speedup):
        try:
            Decimal(number)
        except ArithmeticError:
            raise ThesisDataError("%s: '%s' is not a number" % (where, number))
    return time, speedup


def load(path=DATA):
    """Every table row: dicts of table, algo, impl, procs, res and (time, speedup) per column."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = [line for line in f if not line.startswith("#")]
    except OSError as e:
        raise ThesisDataError("%s: %s" % (path, e))
    reader = csv.DictReader(lines, delimiter="\t")
    if reader.fieldnames != FIELDS:
        raise ThesisDataError("%s: columns %s, expected %s" % (path, reader.fieldnames, FIELDS))
    rows = []
    for raw in reader:
        where = "%s: table %s, %s x %s" % (path, raw["table"], raw["procs"], raw["res"])
        if None in raw or None in raw.values():
            raise ThesisDataError("%s: not %d tab-separated fields" % (where, len(FIELDS)))
        if not (raw["procs"].isdigit() and raw["res"].isdigit()):
            raise ThesisDataError("%s: the size is not two numbers" % where)
        row = {"table": raw["table"], "algo": raw["algo"], "impl": raw["impl"],
               "procs": int(raw["procs"]), "res": int(raw["res"])}
        for column in (CPU,) + GPUS:
            row[column] = parse_cell(raw[column], where)
        rows.append(row)
    found = problems(rows)
    if found:
        raise ThesisDataError("%s: %s" % (path, "; ".join(found)))
    return rows


_rows = None


def rows_of(algo):
    global _rows
    if _rows is None:
        _rows = load()
    return [r for r in _rows if r["algo"] == algo]


def impls_of(algo):
    """The gpubench implementations of algo's thesis tables, in table order."""
    impls = []
    for r in rows_of(algo):
        if r["impl"] not in impls:
            impls.append(r["impl"])
    return impls


def md_columns(algo):
    """Headers of the thesis columns of algo's markdown table (none for an algo it lacks)."""
    impls = impls_of(algo)
    if not impls:
        return []
    return (["thesis %s" % CPU]
            + ["thesis %s %s" % (short(NEWEST), i) for i in impls]
            + ["thesis %s %s over %s" % (short(NEWEST), i, CPU) for i in impls]
            + ["thesis best %s over %s" % (impls[-1], CPU)])


def md_cells(algo, procs, res):
    """The cells under md_columns(algo) for one size: as printed, `-` where the thesis has none.

    "best" is the largest speedup of the last design (the bit-packed one, or
    GPU-PBA) over the thesis's three GPUs, naming the GPUs that reach it.
    """
    impls = impls_of(algo)
    at = {r["impl"]: r for r in rows_of(algo) if (r["procs"], r["res"]) == (procs, res)}
    if not at:
        return ["-"] * len(md_columns(algo))
    cells = [next(iter(at.values()))[CPU][0] + " s"]
    cells += [at[i][NEWEST][0] + " s" if i in at else "-" for i in impls]
    cells += [at[i][NEWEST][1] + "x" if i in at else "-" for i in impls]
    final = at.get(impls[-1])
    if final:
        best = max(Decimal(final[g][1]) for g in GPUS)
        names = [short(g) for g in GPUS if Decimal(final[g][1]) == best]
        printed = next(final[g][1] for g in GPUS if Decimal(final[g][1]) == best)
        cells.append("%sx (%s)" % (printed, ", ".join(names)))
    else:
        cells.append("-")
    return cells


def half_unit(number):
    """Half the last printed digit of number: how far rounding may have moved it."""
    return Decimal(1).scaleb(Decimal(number).as_tuple().exponent) / 2


def speedup_fits(table, cpu, gpu, speedup):
    """Whether the printed speedup follows from the printed run-times by table's rule.

    Chapter 3 divides the printed run-times (to the speedup's last digit);
    chapter 5 subtracts one from the quotient of unrounded ones, so the test
    allows the run-times' rounding; chapter 4 does either.
    """
    c, g, s = Decimal(cpu), Decimal(gpu), Decimal(speedup)
    if g - half_unit(gpu) <= 0:
        return False
    if table.startswith("3."):
        return abs(c / g - s) <= half_unit(speedup)
    lo = (c - half_unit(cpu)) / (g + half_unit(gpu)) - half_unit(speedup)
    hi = (c + half_unit(cpu)) / (g - half_unit(gpu)) + half_unit(speedup)
    less_one = lo - 1 <= s <= hi - 1
    return less_one if table.startswith("5.") else less_one or lo <= s <= hi


def problems(rows):
    """What is wrong with the rows, one sentence each; empty when nothing is."""
    found = []
    tables = {}
    for r in rows:
        tables.setdefault(r["table"], []).append(r)
    for table, mine in sorted(tables.items()):
        if len(mine) != 5 or len({(r["algo"], r["impl"]) for r in mine}) != 1:
            found.append("table %s: %d rows of %s, expected five rows of one algo and impl"
                         % (table, len(mine), sorted({(r["algo"], r["impl"]) for r in mine})))
        for r in mine:
            where = "table %s, %d x %d" % (table, r["procs"], r["res"])
            if r[CPU][1] != "0":
                found.append("%s: the CPU column's speedup is %sx, the thesis prints 0x"
                             % (where, r[CPU][1]))
            for gpu in GPUS:
                fits = speedup_fits(table, r[CPU][0], r[gpu][0], r[gpu][1])
                listed = (table, r["procs"], r["res"], gpu) in MISPRINTS
                if fits == listed:
                    found.append("%s, %s: %s/%sx against the CPU's %s %s" % (
                        where, gpu, r[gpu][0], r[gpu][1], r[CPU][0],
                        "is listed as a misprint but fits" if listed else
                        "does not follow from the run-times (see speedup_fits)"))
    by_size = {}
    for r in rows:
        by_size.setdefault((r["algo"], r["procs"], r["res"]), set()).add(r[CPU][0])
    for (algo, procs, res), cpu in sorted(by_size.items()):
        if len(cpu) > 1:
            found.append("%s %d x %d: the tables print different CPU times %s"
                         % (algo, procs, res, sorted(cpu)))
    return found


def main(argv):
    try:
        if argv[:1] == ["check"] and len(argv) == 1:
            rows = load()
            print("%d rows of tables %s: consistent" % (
                len(rows), ", ".join(sorted({r["table"] for r in rows}))))
            return 0
        if argv[:1] == ["cells"] and len(argv) == 4:
            algo, procs, res = argv[1], int(argv[2]), int(argv[3])
            if not impls_of(algo):
                print("thesis_numbers.py: no thesis table of '%s'" % algo, file=sys.stderr)
                return 2
            for header, cell in zip(md_columns(algo), md_cells(algo, procs, res)):
                print("%s\t%s" % (header, cell))
            return 0
    except ThesisDataError as e:
        print("thesis_numbers.py: %s" % e, file=sys.stderr)
        return 1
    except ValueError as e:
        print("thesis_numbers.py: %s" % e, file=sys.stderr)
        return 2
    print("usage: thesis_numbers.py check | cells ALGO PROCS RES", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
