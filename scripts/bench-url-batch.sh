#!/bin/sh
# Quick throughput measure of `clawpolicy url --batch` (no criterion): builds a JSONL file of N
# URL cases cycled from the SSRF conformance table (with their DNS answers inlined), then times
# one release-build process over it.
#   scripts/bench-url-batch.sh [N]   (default 100000)
set -eu
cd "$(dirname "$0")/.."
n=${1:-100000}
input=$(mktemp)
trap 'rm -f "$input"' EXIT
python3 - "$n" "$input" <<'PY'
import json, sys
n, out = int(sys.argv[1]), sys.argv[2]
dns = json.load(open("fixtures/conformance/ssrf/dns.json"))
cases = [json.loads(l) for l in open("fixtures/conformance/ssrf/cases.jsonl") if '"kind":"url"' in l]
with open(out, "w") as f:
    for i in range(n):
        c = cases[i % len(cases)]
        line = {"id": i, "url": c["url"], "redirects": c["redirects"], "dns": dns}
        if "policy" in c:
            line["policy"] = c["policy"]
        f.write(json.dumps(line) + "\n")
PY
cargo build --release --quiet
start=$(date +%s.%N)
./target/release/clawpolicy url --batch "$input" > /dev/null
end=$(date +%s.%N)
python3 -c "import sys; s=float(sys.argv[2])-float(sys.argv[1]); n=int(sys.argv[3]); print(f'{n} URLs in {s:.2f} s: {n/s:,.0f} URLs/s, {s/n*1e6:.1f} us/URL')" "$start" "$end" "$n"
