#!/usr/bin/env python3
"""drain3, the usual streaming baseline, on our yardsticks: grouping accuracy on labelled sets,
and lines per second on one core.

Needs a venv with the pinned packages (see README.md):

    python3 -m venv VENV && VENV/bin/pip install --require-hashes -r bench/patterns/requirements.txt
    VENV/bin/pip install --no-deps --require-hashes -r bench/patterns/requirements-loghub.txt

    # accuracy: every NAME.log/NAME.labels of each folder; predictions kept in --pred-dir
    VENV/bin/python bench/patterns/drain3_bench.py accuracy --config default \\
        --pred-dir OUT CACHE/loghub CACHE/own
    # speed: one file, every line through one TemplateMiner, timed on one core (and its GA
    # too when FILE.labels is next to FILE.log)
    VENV/bin/python bench/patterns/drain3_bench.py speed CACHE/own/mixed.log

Configurations (--config):
  default  TemplateMinerConfig() as drain3 ships it: sim_th 0.4, depth 4, max_children 100,
           no masking, numeric tokens parametrized. What "default settings" means for drain3.
  loghub   for Loghub's systems, the per-dataset settings of the Loghub Drain benchmark (the
           preprocessing regexes, similarity threshold st and depth tuned per system), read
           from the pinned logparser3 package's logparser/Drain/benchmark.py without running
           it; the regexes become drain3 masks that write '<*>', as that benchmark's
           preprocessing does. Folders whose names are not Loghub systems get the default.

A line's predicted group is the cluster id drain3 returns when the line is added (stable:
clusters are merged into, never renumbered), as a streaming reducer would report it.
"""
from __future__ import annotations

import argparse
import ast
import gc
import importlib.util
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from grouping_accuracy import HEADER, _row, grouping_accuracy, read_ids  # noqa: E402


def loghub_settings() -> dict:
    """The Loghub Drain benchmark's per-system settings, from the installed logparser3."""
    spec = importlib.util.find_spec("logparser")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("drain3_bench: --config loghub needs logparser3 1.0.4: "
                 "pip install --no-deps logparser3==1.0.4")
    src = Path(list(spec.submodule_search_locations)[0]) / "Drain" / "benchmark.py"
    tree = ast.parse(src.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "benchmark_settings" for t in node.targets):
            return ast.literal_eval(node.value)
    sys.exit(f"drain3_bench: no benchmark_settings in {src}; install logparser3==1.0.4")


def miner(config: str, dataset: str, settings: dict | None):
    from drain3 import TemplateMiner
    from drain3.masking import MaskingInstruction
    from drain3.template_miner_config import TemplateMinerConfig

    cfg = TemplateMinerConfig()
    cfg.profiling_enabled = False
    if config == "loghub" and settings and dataset in settings:
        s = settings[dataset]
        cfg.drain_sim_th = s["st"]
        cfg.drain_depth = s["depth"]
        cfg.masking_instructions = [MaskingInstruction(r, "*") for r in s["regex"]]
    return TemplateMiner(config=cfg)


def read_lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def accuracy(a) -> int:
    settings = loghub_settings() if a.config == "loghub" else None
    results = {}
    print(f"drain3 {_version()} config={a.config}")
    print(HEADER + f" {'lines/s':>9}")
    for folder in a.folders:
        for labels in sorted(Path(folder).glob("*.labels")):
            name = labels.stem
            if name == "mixed":
                continue
            lines = read_lines(labels.with_suffix(".log"))
            truth = read_ids(labels)
            tm = miner(a.config, name, settings)
            t0 = time.process_time()
            pred = [str(tm.add_log_message(line)["cluster_id"]) for line in lines]
            cpu = time.process_time() - t0
            if a.pred_dir:
                out = Path(a.pred_dir) / Path(folder).name
                out.mkdir(parents=True, exist_ok=True)
                (out / f"{name}.pred").write_text("\n".join(pred) + "\n", encoding="utf-8")
            r = grouping_accuracy(truth, pred)
            r["lines_per_s"] = len(lines) / cpu if cpu else 0.0
            results[f"{Path(folder).name}/{name}"] = r
            print(_row(name, r) + f" {r['lines_per_s']:>9.0f}")
        group = [r["ga"] for k, r in results.items() if k.startswith(Path(folder).name + "/")]
        if group:
            print(f"{'average ' + Path(folder).name:<25} {sum(group) / len(group):>8.4f}")
    if a.json:
        Path(a.json).write_text(json.dumps({"drain3": _version(), "config": a.config,
                                            "datasets": results}, indent=1), encoding="utf-8")
    return 0


def speed(a) -> int:
    lines = read_lines(Path(a.input))
    if a.limit:
        lines = lines[:a.limit]
    if a.shuffle:
        random.Random(a.shuffle).shuffle(lines)
    tm = miner("default", "", None)
    if hasattr(os, "sched_getaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
    else:
        cpus = []
    gc.collect()
    t_wall, t_cpu = time.perf_counter(), time.process_time()
    add = tm.add_log_message
    ids = []
    keep = ids.append
    for line in lines:
        keep(add(line)["cluster_id"])
    wall, cpu = time.perf_counter() - t_wall, time.process_time() - t_cpu
    n = len(lines)
    result = {"drain3": _version(), "input": str(a.input), "lines": n,
              "clusters": len(tm.drain.clusters), "wall_s": round(wall, 2),
              "cpu_s": round(cpu, 2), "lines_per_s_wall": round(n / wall),
              "lines_per_s_cpu": round(n / cpu), "cpus_allowed": cpus,
              "loadavg_1m_at_end": os.getloadavg()[0]}
    labels = Path(a.input).with_suffix(".labels")
    if labels.exists() and not a.limit and not a.shuffle:
        r = grouping_accuracy(read_ids(labels), [str(i) for i in ids])
        result.update({"ga": round(r["ga"], 4), "true_groups": r["true_groups"]})
    print(json.dumps(result))
    return 0


def sample(a) -> int:
    """A file of N lines drawn (seeded, with replacement) from the labelled sets' .log files."""
    pool: list[tuple[str, str]] = []
    for folder in a.folders:
        for log in sorted(Path(folder).glob("*.log")):
            if log.stem != "mixed":
                pool += [(log.stem, line) for line in read_lines(log)]
    if not pool:
        sys.exit(f"drain3_bench: no NAME.log in {a.folders}")
    rng = random.Random(a.seed)
    with open(a.output, "w", encoding="utf-8", newline="\n") as f:
        for _ in range(a.lines):
            f.write(rng.choice(pool)[1] + "\n")
    print(f"{a.lines} lines from {len(pool)} -> {a.output}")
    return 0


def _version() -> str:
    from importlib.metadata import version
    return version("drain3")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("accuracy", help="grouping accuracy on labelled folders")
    p.add_argument("folders", nargs="+", help="folders of NAME.log + NAME.labels")
    p.add_argument("--config", choices=["default", "loghub"], default="default")
    p.add_argument("--pred-dir", help="write predictions to PRED_DIR/FOLDER/NAME.pred")
    p.add_argument("--json", help="write the results to this file as JSON")
    p.set_defaults(func=accuracy)
    p = sub.add_parser("speed", help="lines/s of drain3's default config on one file")
    p.add_argument("input", help="a log file, one line a record")
    p.add_argument("--limit", type=int, help="only the first N lines")
    p.add_argument("--shuffle", type=int, metavar="SEED", help="shuffle the lines first")
    p.set_defaults(func=speed)
    p = sub.add_parser("sample", help="write N lines drawn from labelled folders")
    p.add_argument("folders", nargs="+")
    p.add_argument("--lines", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=36)
    p.add_argument("--output", required=True)
    p.set_defaults(func=sample)
    a = ap.parse_args(argv)
    return a.func(a)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
