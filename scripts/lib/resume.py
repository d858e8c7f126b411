#!/usr/bin/env python3
"""Whether a sweep's point can keep the report it already has (scripts/lib/sweep.sh).

    resume.py REPORT.json GPUBENCH -- ARGS...      (gpubench info --json on stdin)
    resume.py --machine FILE [--new]               (gpubench info --json on stdin)
    resume.py --serve GPUBENCH                     (requests on stdin, below)

Exit 0 when REPORT.json was made by the same run this sweep is about to make:
  - the same build: meta.git_revision is the revision `gpubench info` reports
    for GPUBENCH; a revision marked -dirty (uncommitted sources) names no one
    build, so its report must also be newer than the binary;
  - the same configuration: meta.argv, less its --json PATH, is ARGS; a
    --device N on either side is left out (sweep.sh's --gpus gives a point
    whichever GPU is free, and the report's device block says which it was);
  - the same machine: the report's CPU model and logical cores are this
    host's; a GPU report names a device this host has, and a CPU report made
    on the CPU only because no GPU was found (device.no_gpu_fallback; a report
    without the field and without --backend cpu counts as one) is kept only
    where no GPU is found now (else this run would go to the GPU).
Whether the report is complete and verified is the sweep's own check, run
after this one. Exit 1 otherwise, printing why: "made by revision ...",
"made with other options", ... (sweep.sh prints "its report was " before it).

With --machine, the machine a results folder was begun on (scripts/reproduce-all.sh,
OUT/machine.json: CPU model, logical cores, GPU models): written from this host
when FILE does not exist or with --new; exit 0 when FILE names this host's
machine as the criteria above see it, else exit 1 printing both.

With --serve, one process answers every point of a sweep (sweep.sh's
sweep_kept), so that a resumed sweep pays no interpreter start a point. Its
input is fields each ended by a NUL byte: first gpubench info's JSON, then
requests of REPORT, the number of CHECK's words, CHECK's words, the number of
ARGS, ARGS. Each answer is two NUL-ended fields, a verdict and its text:
"other" and why (as above); for a report of this run, CHECK is run on it (a
Python script, `python3 SCRIPT.py ...`, in this process, as if run alone):
"kept" and the line it printed, or "unverified" where it exits non-zero;
"check" where CHECK is no Python script (sweep.sh runs it itself); "error" and
what went wrong. Only the standard library is used.
"""

import contextlib
import io
import json
import os
import runpy
import sys


def run_options(argv):
    """argv less --json PATH and --device N: where the report went and which GPU it ran on."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a in ("--json", "--device"):
            skip = True
        elif not a.startswith(("--json=", "--device=")):
            out.append(a)
    return out


def asked_cpu(argv):
    for i, a in enumerate(argv):
        if a == "--backend" and i + 1 < len(argv):
            return argv[i + 1] == "cpu"
        if a == "--backend=cpu":
            return True
    return False


def why_not(report_path, binary, args, info):
    try:
        with open(report_path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        return "unreadable (%s)" % e
    meta, dev = doc.get("meta"), doc.get("device")
    if not isinstance(meta, dict) or not isinstance(dev, dict):
        return "not a gpubench report"
    rev = info.get("git_revision")
    if meta.get("git_revision") != rev:
        return "made by revision %s; this binary is %s" % (meta.get("git_revision"), rev)
    if str(rev).endswith("-dirty") and os.path.getmtime(report_path) <= os.path.getmtime(binary):
        return "made by the -dirty revision %s before this binary was built" % rev
    argv = meta.get("argv")
    if not isinstance(argv, list) or run_options(argv) != run_options(args):
        return "made with other options"
    for key in ("cpu_model", "cpu_logical_cores"):
        if key in dev and dev[key] != info.get(key):
            return "made on another host (%s %s)" % (key, dev[key])
    names = [d.get("name") for d in info.get("devices") or []]
    if dev.get("backend") == "gpu" and dev.get("name") not in names:
        return "made on a GPU this host does not have (%s)" % dev.get("name")
    fell_back = dev.get("no_gpu_fallback", not asked_cpu(args))
    if dev.get("backend") == "cpu" and names and fell_back is not False:
        return "made on the CPU where no GPU was found; this host has one"
    return None


def machine_of(info):
    """The host as the per-point checks above see it: CPU model, logical cores, GPU models."""
    gpus = sorted({d.get("name") for d in info.get("devices") or [] if d.get("name")})
    return {"cpu_model": info.get("cpu_model"), "cpu_logical_cores": info.get("cpu_logical_cores"),
            "gpus": gpus}


def describe(m):
    gpus = ", ".join(m.get("gpus") or []) or "no GPU"
    return "%s; host %s, %s logical cores" % (gpus, m.get("cpu_model"), m.get("cpu_logical_cores"))


def machine_main(args, info):
    """resume.py --machine FILE [--new]: 0 when FILE is this host's machine (written if new)."""
    if len(args) not in (1, 2) or (len(args) == 2 and args[1] != "--new"):
        sys.exit(__doc__.strip())
    path, here = args[0], machine_of(info)
    if len(args) == 1 and os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as f:
                began = json.load(f)
        except (OSError, ValueError) as e:
            print("%s is unreadable (%s)" % (path, e))
            sys.exit(1)
        if {k: began.get(k) for k in here} != here:
            print("begun on: %s; this host: %s" % (describe(began), describe(here)))
            sys.exit(1)
        return
    with open(path, "w", encoding="utf-8") as f:
        json.dump(here, f, indent=1)
        f.write("\n")


def run_check(check, report):
    """CHECK REPORT as a Python script in this process: (exit status, what it printed)."""
    script = check[1]
    saved = sys.argv, list(sys.path)
    sys.argv = [script] + check[2:] + [report]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            sys.stdin = io.StringIO()  # not the requests: a check that reads finds none
            runpy.run_path(script, run_name="__main__")
        code = 0
    except SystemExit as e:
        code = 0 if e.code in (None, 0) else 1
    except Exception:  # a check that raises rejects the report, as its own process would
        code = 1
    finally:
        sys.argv, sys.path[:] = saved
        sys.stdin = sys.__stdin__
    return code, out.getvalue().rstrip("\n")


def is_python_script(check):
    return len(check) >= 2 and os.path.basename(check[0]).startswith("python") and \
        check[1].endswith(".py")


class Fields:
    """NUL-ended fields from a byte stream, read as they come (a pipe from sweep.sh)."""

    def __init__(self, stream):
        self.stream, self.buf = stream, b""

    def next(self):
        while b"\0" not in self.buf:
            chunk = self.stream.read1(65536)
            if not chunk:
                return None
            self.buf += chunk
        field, _, self.buf = self.buf.partition(b"\0")
        return field.decode("utf-8", "surrogateescape")

    def words(self):
        n = self.next()
        if n is None or not n.isdigit():
            raise ValueError("a count was expected, not %r" % n)
        out = [self.next() for _ in range(int(n))]
        if None in out:
            raise ValueError("the request ended early")
        return out


def answer(report, binary, check, args, info):
    why = why_not(report, binary, args, info)
    if why:
        return "other", why
    if not is_python_script(check):
        return "check", ""
    code, line = run_check(check, report)
    return ("kept", line) if code == 0 else ("unverified", "")


def serve(binary):
    """resume.py --serve GPUBENCH: answer sweep_kept's requests until stdin ends."""
    fields = Fields(sys.stdin.buffer)
    out = sys.stdout.buffer
    info_text = fields.next()
    if info_text is None:
        return
    try:
        info = json.loads(info_text)
    except ValueError as e:
        info, bad = None, "gpubench info printed no JSON (%s)" % e
    while True:
        report = fields.next()
        if report is None:
            return
        try:
            check, args = fields.words(), fields.words()
            verdict = ("error", bad) if info is None else answer(report, binary, check, args, info)
        except Exception as e:  # one bad request must not silence the rest
            verdict = ("error", "%s: %s" % (type(e).__name__, e))
        try:
            out.write(b"".join(v.replace("\0", " ").encode("utf-8", "surrogateescape") + b"\0"
                               for v in verdict))
            out.flush()
        except BrokenPipeError:  # the sweep has ended (killed): nobody to answer, nothing to say
            os.dup2(os.open(os.devnull, os.O_WRONLY), out.fileno())
            return


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        serve(sys.argv[2])
        return
    if len(sys.argv) >= 2 and sys.argv[1] == "--machine":
        try:
            info = json.load(sys.stdin)
        except ValueError as e:
            print("gpubench info printed no JSON (%s)" % e)
            sys.exit(1)
        machine_main(sys.argv[2:], info)
        return
    if len(sys.argv) < 4 or sys.argv[3] != "--":
        sys.exit(__doc__.strip())
    try:
        info = json.load(sys.stdin)
    except ValueError as e:
        print("gpubench info printed no JSON (%s)" % e)
        sys.exit(1)
    why = why_not(sys.argv[1], sys.argv[2], sys.argv[4:], info)
    if why:
        print(why)
        sys.exit(1)


if __name__ == "__main__":
    main()
