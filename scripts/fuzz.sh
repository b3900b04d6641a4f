#!/usr/bin/env bash
# Runs the cargo-fuzz targets of jobgraph-core (fuzz/), one at a time.
#
# Usage:
#   scripts/fuzz.sh [-t SECONDS] [TARGET ...]   fuzz each TARGET (default: all) for SECONDS (default 600)
#   scripts/fuzz.sh --cmin [TARGET ...]         minimize the kept corpora (cargo fuzz cmin)
#   scripts/fuzz.sh --list                      list the targets
#
# Targets: edge_parser graph_validation template_loading resolution query_parser grok_rules reducer.
#
# Works on stable Rust: cargo-fuzz needs nightly flags, so RUSTC_BOOTSTRAP=1 is set (the
# toolchain stays stable). Installs cargo-fuzz when it is missing. Seeds fuzz/corpus/<target>/
# from the examples and conformance cases (fuzz/seeds.py) when it is empty. New corpus entries go
# to fuzz/corpus/<target>/, crashes to fuzz/artifacts/<target>/, the full libFuzzer output to
# fuzz/target/logs/<target>-<UTC time>.log; the final statistics line is printed at the end.
#
# Runs are gentle on a shared machine: `nice -n 10`, one job, one worker, 4 GiB RSS limit.
# Environment: FUZZ_ARGS adds libFuzzer flags (e.g. FUZZ_ARGS="-seed=1"); FUZZ_SANITIZER picks
# the sanitizer (default address); FUZZ_NO_DEBUG_ASSERTIONS=1 drops `-a`.
# After a run, check the kept corpus with `cargo test -p jobgraph-conformance --test fuzz_replay`.
set -euo pipefail
cd "$(dirname "$0")/.."

ALL_TARGETS=(edge_parser graph_validation template_loading resolution query_parser grok_rules reducer)
seconds=600
mode=run
targets=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        -t|--time) seconds="$2"; shift 2 ;;
        --cmin) mode=cmin; shift ;;
        --list) printf '%s\n' "${ALL_TARGETS[@]}"; exit 0 ;;
        -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[[ ${#targets[@]} -gt 0 ]] || targets=("${ALL_TARGETS[@]}")
for t in "${targets[@]}"; do
    [[ " ${ALL_TARGETS[*]} " == *" $t "* ]] || { echo "unknown target $t" >&2; exit 2; }
done

export RUSTC_BOOTSTRAP=1
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== installing cargo-fuzz" >&2
    cargo install cargo-fuzz --locked
fi

build_flags=(--sanitizer "${FUZZ_SANITIZER:-address}")
[[ "${FUZZ_NO_DEBUG_ASSERTIONS:-}" == 1 ]] || build_flags+=(--debug-assertions)

cd fuzz
mkdir -p target/logs
for target in "${targets[@]}"; do
    if [[ ! -d "corpus/$target" ]] || [[ -z "$(ls -A "corpus/$target")" ]]; then
        python3 seeds.py "$target"
    fi
    if [[ "$mode" == cmin ]]; then
        before=$(ls "corpus/$target" | wc -l)
        nice -n 10 cargo fuzz cmin "${build_flags[@]}" "$target" "corpus/$target" -- \
            -rss_limit_mb=4096 -timeout=30
        echo "== $target: corpus $before -> $(ls "corpus/$target" | wc -l) files, $(du -sh "corpus/$target" | cut -f1)" >&2
        continue
    fi
    log="target/logs/$target-$(date -u +%Y%m%dT%H%M%SZ).log"
    echo "== fuzzing $target for ${seconds}s (log: fuzz/$log)" >&2
    nice -n 10 cargo fuzz build "${build_flags[@]}" "$target"
    status=0
    # shellcheck disable=SC2086
    nice -n 10 cargo fuzz run "${build_flags[@]}" "$target" "corpus/$target" -- \
        -max_total_time="$seconds" -jobs=1 -workers=1 -rss_limit_mb=4096 -timeout=30 \
        -print_final_stats=1 ${FUZZ_ARGS:-} >"$log" 2>&1 || status=$?
    # With -jobs, libFuzzer writes the fuzzing output to fuzz-<job>.log in the current directory.
    for job_log in fuzz-[0-9]*.log; do
        [[ -f "$job_log" ]] || continue
        cat "$job_log" >>"$log"
        rm -f "$job_log"
    done
    echo "== $target: exit $status; last status line:" >&2
    grep -E '^#[0-9]+' "$log" | tail -n 1 >&2 || true
    grep -E '^stat::' "$log" >&2 || true
    echo "== corpus: $(ls "corpus/$target" | wc -l) files, $(du -sh "corpus/$target" | cut -f1)" >&2
    # In -jobs mode the parent may exit 0 after a crashed job: look at the output too.
    if [[ $status -ne 0 ]] || grep -qE 'Test unit written|ERROR: libFuzzer' "$log"; then
        grep -E 'panicked at|ERROR: libFuzzer|SUMMARY|Test unit written' "$log" >&2 || true
        exit 1
    fi
done
