#!/usr/bin/env python3
"""Times the hostile cases of docs/reliability.md and prints them as a markdown table (wall clock
and maximum resident set size, from /usr/bin/time -v, whole process).

    cargo build --release
    python3 scripts/measure-hostile.py                 # every case, inputs in /tmp/hostile
    python3 scripts/measure-hostile.py --only fleet    # the cases whose name or command has "fleet"
    python3 scripts/measure-hostile.py --bin path/to/clawpolicy --dir /tmp/h --runs 3

The inputs are written first (scripts/hostile-inputs.py), into --dir. Each run is limited to
6 GB of address space and --timeout seconds; stdout goes to a file whose size is reported, so a
case that prints hundreds of megabytes is timed as it writes them. With --runs N each case runs
N times and the table gives the fastest and slowest run; CPU (user + system, the least of the runs)
is what the case costs on a shared machine where the wall clock waits for other work. The budget each case is held to is
1 s and 200 MB; the last column says whether it is met (on a loaded machine, time is noisy).
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

# (name, arguments). Paths are relative to the inputs folder.
CASES = [
    ("10k duplicate keys", "tools --config dup10k.json5"),
    ('`"${"` x 50k in one string', "tools --config dollar50k.json5"),
    ("one line, 12.5k findings", "lint --config oneline12k.json5"),
    ("one line, 12.5k findings", "tools --config oneline12k.json5"),
    ("2 MiB: 500 levels, 1M numbers", "tools --config deepwide.json5"),
    ("`a | ` x 10,000, 2026.9", "exec -c empty.json5 --file pipes.txt"),
    ("`a | ` x 16,383, 2026.9", "exec -c empty.json5 --file pipes-64k.txt"),
    ("20 x pipes.txt in a batch", "exec -c empty.json5 --batch exec-batch.jsonl"),
    ("3M numbers in a batch line", "tools --batch batch-values.jsonl"),
    ("3M numbers in a batch line", "exec --batch batch-values.jsonl"),
    ("3M numbers in a batch line", "url --batch batch-values.jsonl"),
    ("6 MB of JSON5 text as an inline config", "tools --batch batch-text.jsonl"),
    ("approvals store of 3M numbers", "exec -c empty.json5 --approvals approvals-3m.json ls"),
    ("suite of 3M list items", "test suite-3m.yaml"),
    ("pipes.txt as a scenario call", "simulate -c empty.json5 scenario-pipes.yaml"),
    ("pipes.txt as a suite expectation", "test suite-pipes.yaml"),
    ("`[` x 40,000 suppressions side file", "lint -c yaml-deep/empty.json5"),
    ("`[` x 40,000 suite", "test yaml-deep/suite.yaml"),
    ("`[` x 40,000 scenario", "simulate -c empty.json5 yaml-deep/scenario.yaml"),
    ("2,000 agents", "lint -c fleet-2000.json5 --format json"),
    ("2,000 agents", "matrix -c fleet-2000.json5 --format json"),
    ("500 agents", "matrix -c fleet-500.json5 --format json"),
    ("500,000 deny entries (five included files)", "tools -c deny-500k.json5 --format json"),
    ("500,000 deny entries", "lint -c deny-500k.json5 --format json"),
    ("500,000 deny entries, every finding", "lint -c deny-500k.json5 --format json --all-findings"),
    ("39,997 deny entries (the budget's largest list)", "tools -c deny-40k.json5 --format json"),
    ("39,997 deny entries", "lint -c deny-40k.json5 --format json"),
    ("39,997 deny entries, every finding", "lint -c deny-40k.json5 --format json --all-findings"),
    ("39,997 deny entries", "matrix -c deny-40k.json5 --format json"),
]

BUDGET_SECONDS, BUDGET_MB = 1.0, 200


def wall_seconds(text):
    found = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", text)
    if not found:
        return None
    hours, minutes, seconds = found.groups()
    return int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds)


def cpu_seconds(text):
    user = re.search(r"User time \(seconds\): ([\d.]+)", text)
    system = re.search(r"System time \(seconds\): ([\d.]+)", text)
    return float(user.group(1)) + float(system.group(1)) if user and system else None


def max_rss_mb(text):
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    return int(found.group(1)) / 1024 if found else None


def limit_address_space():
    six_gb = 6 * 1024**3
    resource.setrlimit(resource.RLIMIT_AS, (six_gb, six_gb))


def run(binary, args, folder, timeout):
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        command = ["/usr/bin/time", "-v", str(binary), *args.split()]
        try:
            done = subprocess.run(
                command, cwd=folder, stdout=out, stderr=err, timeout=timeout, preexec_fn=limit_address_space
            )
        except subprocess.TimeoutExpired:
            return None
        err.seek(0)
        report = err.read().decode("utf-8", "replace")
        # /usr/bin/time reports the program's exit status on a line of its own.
        status = re.search(r"Exit status: (\d+)", report)
        code = int(status.group(1)) if status else done.returncode
        return wall_seconds(report), max_rss_mb(report), out.seek(0, os.SEEK_END), code, cpu_seconds(report)


def human_bytes(count):
    for unit, size in (("MB", 1024**2), ("KB", 1024)):
        if count >= size:
            return f"{count / size:.1f} {unit}"
    return f"{count} B"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", default=str(HERE.parent / "target" / "release" / "clawpolicy"))
    parser.add_argument("--dir", default="/tmp/hostile")
    parser.add_argument("--only", default="", help="run the cases whose name or command contains this text")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60)
    options = parser.parse_args()
    binary = Path(options.bin).resolve()
    if not binary.exists():
        sys.exit(f"{binary} does not exist: build it with `cargo build --release`")
    subprocess.run([sys.executable, str(HERE / "hostile-inputs.py"), options.dir], check=True)

    print("| case | command | wall | CPU | max RSS | stdout | exit | within 1 s / 200 MB |")
    print("|---|---|---|---|---|---|---|---|")
    for name, args in CASES:
        if options.only and options.only not in name and options.only not in args:
            continue
        runs = [run(binary, args, options.dir, options.timeout) for _ in range(options.runs)]
        if any(r is None for r in runs):
            print(f"| {name} | `{args}` | over {options.timeout:.0f} s (stopped) | | | | | no |", flush=True)
            continue
        times = sorted(r[0] for r in runs)
        rss = sorted(r[1] for r in runs)
        wall = f"{times[0]:.2f} s" if len(runs) == 1 else f"{times[0]:.2f}–{times[-1]:.2f} s"
        cpu = f"{min(r[4] for r in runs):.2f} s"
        memory = f"{rss[0]:.0f} MB" if len(runs) == 1 else f"{rss[0]:.0f}–{rss[-1]:.0f} MB"
        within = "yes" if times[0] < BUDGET_SECONDS and rss[-1] < BUDGET_MB else "no"
        command = args.replace("|", "\\|")
        row = [name, f"`{command}`", wall, cpu, memory, human_bytes(runs[0][2]), str(runs[0][3]), within]
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
