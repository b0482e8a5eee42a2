#!/usr/bin/env python3
"""Writes the hostile inputs timed in docs/reliability.md ("Exec analysis, YAML, guards and scale")
into a directory (default: ./hostile). Deterministic; nothing is executed.

    python3 scripts/hostile-inputs.py /tmp/hostile
    /usr/bin/time -v clawpolicy exec --file /tmp/hostile/pipes.txt

Files:
  pipes.txt             `a | ` x 10,000: a malformed 40 KB command (an unfinished pipeline)
  pipes-64k.txt         the same, just under the 64 KiB command cap
  subst-deep.txt        `$(` x 300: command substitutions nested past the nesting cap
  exec-batch.jsonl      pipes.txt as 20 `exec --batch` cases (10 per release)
  scenario-pipes.yaml   pipes.txt as one `simulate` call
  suite-pipes.yaml      pipes.txt as one `test` exec expectation (config: empty.json5)
  empty.json5           an empty config
  yaml-deep/            `[` x 40,000 as a suppressions side file (next to empty.json5), a suite
                        and a scenario
  fleet-2000.json5      2,000 agents shaped like fixtures/bench/fleet-50.json5
  fleet-500.json5       the same with 500 agents
  deny-500k.json5       one global deny list of 500,000 entries, concatenated from five included
                        files of 100,000 (deny-part-N.json5; a single config file is capped at 2 MiB)
  deny-40k.json5        a global deny list of 39,997 entries: the largest list the value budget
                        (40,000 values) lets in
  dup10k.json5          one key written 10,000 times
  dollar50k.json5       `"${"` x 50,000 in one string
  oneline12k.json5      12,500 unknown keys on one line
  deepwide.json5        2 MiB: an array nested 500 deep holding a million numbers
"""
import argparse
import json
import sys
from pathlib import Path

# The agents are shaped like the 50-agent benchmark fleet's.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fixtures" / "bench"))
from generate import agent  # noqa: E402


def fleet(agents):
    groups = {"*": {"tools": {"deny": ["exec", "process"]}}}
    for g in range(3):
        groups[f"-100{g}"] = {"tools": {"allow": ["read", "message", "web_search"]}}
    return {
        "agents": {
            "ownership": "explicit",
            "defaults": {"systemAgent": {"agentId": "agent0000"}, "sandbox": {"mode": "non-main"}},
            "entries": {f"agent{i:04d}": agent(i, head=False) for i in range(agents)},
        },
        "tools": {"deny": ["canvas"], "toolsBySender": {"*": {"deny": ["gateway"]}}},
        "channels": {"telegram": {"groups": groups}},
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", default="hostile", help="the folder to write the inputs into")
    out = Path(parser.parse_args().out)
    out.mkdir(parents=True, exist_ok=True)
    pipes = "a | " * 10_000
    (out / "pipes.txt").write_text(pipes)
    (out / "pipes-64k.txt").write_text("a | " * (65_535 // 4))
    (out / "subst-deep.txt").write_text("echo " + "$(" * 300 + "x" + ")" * 300)
    with (out / "exec-batch.jsonl").open("w") as batch:
        for version in ["2026.9", "2026.2"]:
            for _ in range(10):
                batch.write(json.dumps({"command": pipes, "openclawVersion": version}) + "\n")
    (out / "empty.json5").write_text("{}\n")
    call = {"tool": "exec", "command": pipes, "answer": "deny"}
    (out / "scenario-pipes.yaml").write_text(json.dumps({"calls": [call]}) + "\n")
    suite = {"config": ["empty.json5"], "cases": [{"name": "pipes", "expect": {"exec": [{"command": pipes, "decision": "deny"}]}}]}
    (out / "suite-pipes.yaml").write_text(json.dumps(suite) + "\n")
    deep = out / "yaml-deep"
    deep.mkdir(exist_ok=True)
    (deep / "empty.json5").write_text("{}\n")
    (deep / "clawpolicy.suppressions.yaml").write_text("suppressions: " + "[" * 40_000 + "\n")
    (deep / "suite.yaml").write_text("cases: " + "[" * 40_000 + "\n")
    (deep / "scenario.yaml").write_text("calls: " + "[" * 40_000 + "\n")
    (out / "fleet-2000.json5").write_text(json.dumps(fleet(2000), indent=1) + "\n")
    (out / "fleet-500.json5").write_text(json.dumps(fleet(500), indent=1) + "\n")
    parts = [f"deny-part-{part}.json5" for part in range(5)]
    for part, name in enumerate(parts):
        (out / name).write_text(json.dumps([f"t{part}{i:05d}" for i in range(100_000)]) + "\n")
    (out / "deny-500k.json5").write_text(json.dumps({"tools": {"deny": {"$include": parts}}}) + "\n")
    (out / "deny-40k.json5").write_text(json.dumps({"tools": {"deny": [f"t{i:06d}" for i in range(39_997)]}}) + "\n")
    (out / "dup10k.json5").write_text("{\n" + "  tools: { profile: 'coding' },\n" * 10_000 + "}\n")
    (out / "dollar50k.json5").write_text('{ tools: { deny: ["' + "${" * 50_000 + '"] } }\n')
    (out / "oneline12k.json5").write_text("{" + ",".join(f"k{i}:1" for i in range(12_500)) + "}")
    depth = 500
    numbers = (2 * 1024 * 1024 - 2 * depth - 10) // 2
    (out / "deepwide.json5").write_text("{a:" + "[" * depth + "1," * numbers + "1" + "]" * depth + "}")
    # Documents parsed whole: a batch line, an inline config text, an approvals store, a suite.
    millions = "[" + ",".join(["1"] * 3_000_000) + "]"
    line = '{"id":1,"command":"ls","url":"http://a/","config":{"a":' + millions + '}}'
    (out / "batch-values.jsonl").write_text(line + "\n")
    (out / "batch-text.jsonl").write_text(json.dumps({"id": 1, "config": "{a: " + millions + "}"}) + "\n")
    store = '{"version":1,"agents":{"a":{"allowlist":' + millions + "}}}"
    (out / "approvals-3m.json").write_text(store)
    (out / "suite-3m.yaml").write_text("config: empty.json5\ncases:\n" + "- 1\n" * 3_000_000)


if __name__ == "__main__":
    main()
