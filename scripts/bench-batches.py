#!/usr/bin/env python3
"""Writes the batch inputs docs/performance.md times, into a folder (default /tmp/batches):

    rw-inline.jsonl   the 644 real-world 2026.9 tools cases, each config inline, cycled 16 times (10,304)
    rw-paths.jsonl    the same 644 cases with absolute configPaths (what the oracle is given)
    conf10k.jsonl     the 2026.9 tools conformance cases cycled to 10,000
    exec10k.jsonl     the 2026.9 exec conformance cases cycled to 10,000

    python3 scripts/bench-batches.py [FOLDER]
    farm-bench -n 7 -- target/release/clawpolicy tools --batch /tmp/batches/rw-inline.jsonl
"""
import itertools
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cycled(lines, count):
    return list(itertools.islice(itertools.cycle(lines), count))


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/batches")
    out.mkdir(parents=True, exist_ok=True)
    real_world = ROOT / "fixtures" / "real-world"
    cases = [json.loads(line) for line in (real_world / "tools-2026.9.cases.jsonl").open()]
    with (out / "rw-inline.jsonl").open("w") as inline, (out / "rw-paths.jsonl").open("w") as paths:
        for case in cases:
            paths.write(json.dumps({**case, "configPath": str(real_world / case["configPath"])}) + "\n")
        for round_ in range(16):
            for case in cases:
                case = dict(case, id=f"{case['id']}#{round_}")
                case["config"] = (real_world / case.pop("configPath")).read_text()
                inline.write(json.dumps(case) + "\n")
    conformance = ROOT / "fixtures" / "conformance"
    for name, source in [("conf10k", "tools-2026.9.cases.jsonl"), ("exec10k", "exec-2026.9.cases.jsonl")]:
        lines = (conformance / source).read_text().splitlines()
        (out / f"{name}.jsonl").write_text("\n".join(cycled(lines, 10_000)) + "\n")
    print(f"wrote {out}/rw-inline.jsonl, rw-paths.jsonl, conf10k.jsonl, exec10k.jsonl")


if __name__ == "__main__":
    main()
