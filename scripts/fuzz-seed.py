#!/usr/bin/env python3
"""Seeds the fuzz corpora (fuzz/corpus/<target>/) from the repository's fixtures, in each
target's input format (see src/fuzzing/). Deterministic; files are named by the SHA-1 of their
content, as libFuzzer names them, so running it again adds nothing new.

    python3 scripts/fuzz-seed.py            # into fuzz/corpus
    python3 scripts/fuzz-seed.py /tmp/seeds # elsewhere
"""

import hashlib
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
CONFORMANCE = FIXTURES / "conformance"
# Larger inputs cost the fuzzer more than they teach it.
MAX_SEED_BYTES = 16 * 1024


def write(out: Path, target: str, data: bytes) -> None:
    if len(data) > MAX_SEED_BYTES:
        return
    folder = out / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)


def cases(name: str):
    for line in (CONFORMANCE / name).read_text().splitlines():
        if line.strip():
            yield json.loads(line)


def spread(items, count: int):
    """`count` items taken evenly through `items` (the fixtures are grouped by topic)."""
    items = list(items)
    step = max(1, len(items) // count)
    return items[::step][:count]


INCLUDE_NAME = re.compile(r"""(["'])(?:\./)?([\w.-]+\.json5?)\1""")


def config_load(out: Path) -> None:
    """The config, then up to three include files, NUL-separated; an included file's name is
    rewritten to the name the target writes it under (`./1.json5` …)."""
    for path in sorted(FIXTURES.rglob("*.json5")):
        text = path.read_text(errors="replace")
        parts = [text]
        if "$include" in text:
            names = []
            for match in INCLUDE_NAME.finditer(text):
                name = match.group(2)
                if name not in names and (path.parent / name).is_file() and len(names) < 3:
                    names.append(name)
            for index, name in enumerate(names, 1):
                parts[0] = re.sub(r"""(["'])(?:\./)?""" + re.escape(name) + r"\1", f'"./{index}.json5"', parts[0])
                parts.append((path.parent / name).read_text(errors="replace"))
        write(out, "config_load", "\0".join(parts).encode())
    for name in ["tools-2026.9.cases.jsonl", "tools-2026.2.cases.jsonl", "tools-2026.9-plugins.cases.jsonl"]:
        configs = {json.dumps(c["config"], indent=1) for c in cases(name) if isinstance(c.get("config"), dict)}
        for text in spread(sorted(configs), 60):
            write(out, "config_load", text.encode())


def secrets_mask(out: Path) -> None:
    """A layout byte, plants and noise (see `planted_config`), then a tail of config text."""
    rng = random.Random(10)
    tails = ["", "tools: { profile: 'coding' }", "x: 'unterminated", "gateway: { auth: { token: 'a:b', x",
             "// comment\n", "agents: { list: [ { id: 'a', tools: { deny: ['exec'] } } ] }", "a:{b:[1,2,"]
    for index in range(64):
        head = bytes(rng.randrange(256) for _ in range(1 + 2 + 1 + 4 * 19 + 3))
        write(out, "secrets_mask", head + tails[index % len(tails)].encode())


def commands(version: str):
    return sorted({c["command"] for c in cases(f"exec-{version}.cases.jsonl") if isinstance(c.get("command"), str)})


def exec_targets(out: Path) -> None:
    for target, version in [("exec_2026_9", "2026.9"), ("exec_2026_2", "2026.2")]:
        for command in commands(version):
            write(out, target, command.encode())


def ssrf(out: Path) -> None:
    """Lines: `dns HOST=IPS`, `allow`/`block` patterns, `flags N`, the URL, its redirects."""
    dns = json.loads((CONFORMANCE / "ssrf" / "dns.json").read_text())
    dns_lines = [f"dns {host}={','.join(ips)}" for host, ips in dns.items()]
    every = list(cases("ssrf/cases.jsonl"))
    for case in spread(every, 400):
        policy = case.get("policy") or {}
        lines = list(dns_lines[:4])
        flags = sum(bit for field, bit in [("allowPrivateNetwork", 1), ("dangerouslyAllowPrivateNetwork", 2),
                                            ("allowRfc2544BenchmarkRange", 4), ("allowIpv6UniqueLocalRange", 8)]
                    if policy.get(field))
        if flags:
            lines.append(f"flags {flags}")
        lines += [f"allow {h}" for h in policy.get("allowedHostnames", []) + policy.get("hostnameAllowlist", [])]
        lines += [f"block {h}" for h in policy.get("blockedHostnames", [])]
        if case.get("kind") == "url":
            lines.append(case["url"])
            lines += case.get("redirects", [])
        else:
            lines.append(case["address"])
        write(out, "ssrf", "\n".join(lines).encode())


def yaml(out: Path) -> None:
    for path in sorted(list(FIXTURES.rglob("*.yaml")) + list(FIXTURES.rglob("*.yml"))):
        write(out, "yaml", path.read_bytes())
    for text in ["suppressions:\n  - rule: CP101\n    reason: known\n    path: tools.x\n",
                 "calls:\n  - tool: exec\n    command: ls\n    answer: allow-once\n",
                 "cases:\n  - name: a\n    session: { agent: main }\n    expect: { allowed: [read] }\n",
                 "{ a: [1, {b: c}], d: &x e, f: *x }\n", "--- !tag\n? complex\n: value\n...\n"]:
        write(out, "yaml", text.encode())


def batch(out: Path) -> None:
    """JSONL: a few cases per input, of each protocol (tools, exec, url)."""
    tools = spread(cases("tools-2026.9.cases.jsonl"), 60) + spread(cases("tools-2026.2-legacy.cases.jsonl"), 20)
    execs = spread(cases("exec-2026.9.cases.jsonl"), 60) + spread(cases("exec-2026.2.cases.jsonl"), 40)
    urls = [{k: v for k, v in c.items() if k != "kind"} for c in cases("ssrf/cases.jsonl") if c["kind"] == "url"]
    urls = spread(urls, 40)
    for group in [tools, execs, urls]:
        for start in range(0, len(group), 2):
            lines = [json.dumps(case, separators=(",", ":")) for case in group[start:start + 2]]
            write(out, "batch", ("\n".join(lines) + "\n").encode())


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "fuzz" / "corpus"
    for seed in [config_load, secrets_mask, exec_targets, ssrf, yaml, batch]:
        seed(out)
    for folder in sorted(out.iterdir()):
        files = list(folder.iterdir())
        print(f"{folder.name}: {len(files)} files, {sum(f.stat().st_size for f in files)} bytes")


if __name__ == "__main__":
    main()
