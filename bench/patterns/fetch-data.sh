#!/usr/bin/env bash
# Loghub's labelled 2k samples (16 systems) into CACHE_DIR/loghub/ as NAME.log (the Content
# column: the message without the header, what the benchmark feeds a parser), NAME.labels
# (its EventId, one a line) and NAME.templates.tsv (EventId<TAB>EventTemplate).
#
#   bench/patterns/fetch-data.sh SOURCE CACHE_DIR
#
# No package registry (PyPI, npm, crates.io, Debian) ships this data, and the machines reach
# only registries, so SOURCE is a copy you already have: a git repository of logpai/loghub
# (commit dd61d0952749ee7963bde24220d1be5ede023033 or any other that holds the same files;
# logpai/logparser's data/loghub_2k/ holds identical ones), bare or checked out, or a folder
# with the 16 *_2k.log_structured.csv files anywhere below it. Each file must match the sha256
# pinned below, so every run scores the same bytes; a mismatch stops the script.
#
# Licence (Loghub): free for research or academic work; any use or distribution must refer to
# the loghub repository URL (https://github.com/logpai/loghub) and cite Zhu et al., "Loghub: A
# Large Collection of System Log Datasets for AI-driven Log Analytics", ISSRE 2023; the notice
# goes with every copy (written to CACHE_DIR/loghub/LICENSE-loghub.txt). Do not commit the data.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 SOURCE CACHE_DIR   (SOURCE: a git repository or folder holding Loghub's *_2k.log_structured.csv)" >&2
  exit 2
fi
src=$1
out=$2/loghub
here=$(cd "$(dirname "$0")" && pwd)

# system  sha256 of SYSTEM_2k.log_structured.csv (loghub commit dd61d09, labels unchanged since 2018)
pins="Android 80d58d6c79249c9f4891fbe0c2eaeaade30f933c69b7d030af190a10d73d96e5
Apache 54331d12eedf513f2127f4d89f0284c8b15fddfa5471103abf9db2c73d737778
BGL 3fe74103c0b02a28514534e2a47257a3f770135ca61afd425bbd3b9d6a31fe26
HDFS 729df59774e3dde934044028546d2a55d5e3d4370b9d12fcebbe4c087b2bf7b4
HPC 0787df9cfab7e9495669548315ea8a9a51b02029c0dcfa28944707ad755a8c86
Hadoop e88e5bf99d7f23f482517cc79290ad75b90d914af5d6114176e8bbf0f8ae0fad
HealthApp 11831c70cc8851cb74486153149ae3136453fccca708fcb6826d8dcb0edbc6cb
Linux 7c86d7b0ecb961a25f00d9475a154df97613b9974f31ce142a146caa2017c71e
Mac c8d5d74e0dcd923675ee944ea592abaf0eae91ef492435330694ce5008267c8d
OpenSSH c0996a11545f4b94b435993760afa441a9e373f7bfc9e787afdb8e62f65acb4f
OpenStack ecc88e7909777181824260e9bdacd1469bd24d55131d6fc14e9c8c17edc49ff0
Proxifier 5aa88821bb217d82c3a964cbe9fdb0d67f235b0538ac164ef0a87e0ced4f2715
Spark d7df75f6839b6bcf98ff020b6b0b6e2ee89d8cc53ee3d08d441bd42fd84a2cb5
Thunderbird c62196d8a3449de765501bbf58c2093452e9d1add439053301d29fdad8a06809
Windows caa98dd6c1291ba0470d5c171df8514616b35669d724652bd7aa973df0dee881
Zookeeper e4a450c67595828103cfab049d971f54eee778fdded061222ba6581bed2a210a"

is_git=0
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  is_git=1
elif [ ! -d "$src" ]; then
  echo "$0: SOURCE '$src' is neither a git repository nor a folder; give a copy of logpai/loghub" >&2
  exit 1
fi

# Copies SYSTEM's CSV from SOURCE to stdout.
copy_csv() {
  local name=$1_2k.log_structured.csv path
  if [ $is_git = 1 ]; then
    path=$(git -C "$src" ls-tree -r --name-only HEAD | grep -E "(^|/)$name\$" | head -n 1 || true)
    [ -n "$path" ] || return 1
    git -C "$src" show "HEAD:$path"
  else
    path=$(find "$src" -name "$name" -type f | head -n 1)
    [ -n "$path" ] || return 1
    cat "$path"
  fi
}

mkdir -p "$out/.raw"
while read -r sys sum; do
  raw=$out/.raw/${sys}_2k.log_structured.csv
  if ! copy_csv "$sys" > "$raw.tmp"; then
    echo "$0: no ${sys}_2k.log_structured.csv in '$src'; SOURCE must hold all 16 systems' files" >&2
    exit 1
  fi
  got=$(sha256sum "$raw.tmp" | cut -d' ' -f1)
  if [ "$got" != "$sum" ]; then
    echo "$0: ${sys}_2k.log_structured.csv from '$src' has sha256 $got, expected $sum; use loghub commit dd61d09 (or logparser's data/loghub_2k)" >&2
    exit 1
  fi
  mv "$raw.tmp" "$raw"
done <<< "$pins"

python3 - "$out" <<'EOF'
import csv, sys
from pathlib import Path
out = Path(sys.argv[1])
for raw in sorted((out / ".raw").glob("*_2k.log_structured.csv")):
    name = raw.name.split("_2k.")[0]
    with raw.open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    templates = {}
    with (out / f"{name}.log").open("w", encoding="utf-8", newline="\n") as log, \
         (out / f"{name}.labels").open("w", encoding="utf-8", newline="\n") as labels:
        for n, r in enumerate(rows, 2):
            content, event = r["Content"], r["EventId"]
            if any(c in content for c in "\r\n") or any(c in event for c in "\t\r\n"):
                sys.exit(f"{raw}:{n}: a line break or tab inside a field cannot be kept one line a record")
            log.write(content + "\n")
            labels.write(event + "\n")
            templates.setdefault(event, r["EventTemplate"])
    with (out / f"{name}.templates.tsv").open("w", encoding="utf-8", newline="\n") as t:
        for event, template in templates.items():
            t.write(f"{event}\t{template}\n")
    print(f"{name:<12} {len(rows):>5} lines {len(templates):>4} events")
EOF

cat > "$out/LICENSE-loghub.txt" <<'EOF'
These files are extracted from the Loghub datasets (https://github.com/logpai/loghub),
commit dd61d0952749ee7963bde24220d1be5ede023033, files */*_2k.log_structured.csv.

LICENSE OF LOGHUB

The datasets are freely available for research or academic work, subject to
the following condition: For any usage or distribution of the loghub datasets,
please refer to the loghub repository URL (https://github.com/logpai/loghub)
and cite the following loghub paper where applicable.

Jieming Zhu, Shilin He, Pinjia He, Jinyang Liu, Michael R. Lyu. Loghub: A Large
Collection of System Log Datasets for AI-driven Log Analytics. In ISSRE, 2023.

The above license notice shall be included in all copies of the datasets.
EOF
echo "Loghub 2k data in $out (licence: $out/LICENSE-loghub.txt; score with $here/grouping_accuracy.py --data-dir $out --pred-dir PREDICTIONS)"
