#!/usr/bin/env python3
"""Grouping accuracy of a log-pattern tool, as the Loghub log-parsing benchmark defines it.

A line counts as correct when the set of lines its tool put it with (its predicted group) is
exactly the set of lines that share its true event: same lines, no more, no fewer. Grouping
accuracy (GA) is the share of correct lines. Lines whose true label is empty are left out of
both sides, as the benchmark does. Group ids are compared only for equality, so any ids work
(numbers, pattern texts, hashes); predicted and true ids need not share a vocabulary.

Three ways to call it (Python 3 standard library only):

    # one dataset: true labels and predictions, one id a line, in input order
    grouping_accuracy.py --labels data/HDFS.labels --pred out/HDFS.pred

    # every dataset of a folder: DATA/NAME.labels against PRED/NAME.pred, then the average
    grouping_accuracy.py --data-dir data --pred-dir out

    # a file of "true<TAB>predicted" pairs, one a line
    grouping_accuracy.py --pairs pairs.tsv

    # run a tool on every DATA/NAME.log ({} is the file) and score what it writes to {out}
    # (or, without {out}, its stdout); prints its wall time per dataset; --pred-dir keeps them
    grouping_accuracy.py --data-dir data --run 'jobgraph patterns {} --lines text --ids-out {out}'

A predictions line may also be a JSON object (NDJSON, e.g. `jobgraph patterns FILE --format
ndjson-groups`): the id is taken from --json-field, or else from the one key among
pattern, pattern_id, patternId, group, group_id, groupId, cluster, cluster_id, id that it has.

`--singleton ID` makes each line predicted as ID a group of its own (for a tool that writes,
say, `-` for a line it put in no pattern); by default ID is an ordinary group id.

`--explain N` prints, per dataset, the N largest true events that were not found exactly, with
the predicted groups their lines went to: the place to start when a score is low.
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

JSON_KEYS = ("pattern", "pattern_id", "patternId", "group", "group_id", "groupId",
             "cluster", "cluster_id", "id")


class InputError(Exception):
    """Bad input: the message says which file, which line and how to fix it."""


def read_ids(path: Path, json_field: str | None = None) -> list[str]:
    """One id a line; a line that is a JSON object gives the value of its group field."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"{path}: cannot read ({e.strerror}); give an existing file") from e
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not UTF-8 at byte {e.start}; write ids as UTF-8 text") from e
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    ids = []
    for n, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        if line.startswith("{"):
            ids.append(_json_id(path, n, line, json_field))
        else:
            ids.append(line)
    return ids


def _json_id(path: Path, n: int, line: str, field: str | None) -> str:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        raise InputError(f"{path}:{n}:{e.colno}: a line starting with '{{' must be a JSON "
                         f"object ({e.msg})") from e
    if not isinstance(obj, dict):
        raise InputError(f"{path}:{n}: expected a JSON object")
    if field is None:
        found = [k for k in JSON_KEYS if k in obj]
        if len(found) != 1:
            raise InputError(f"{path}:{n}: cannot tell which key holds the group id (keys "
                             f"{sorted(obj)}); name it with --json-field")
        field = found[0]
    if field not in obj:
        raise InputError(f"{path}:{n}: no key '{field}' (keys {sorted(obj)}); fix --json-field")
    value = obj[field]
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def grouping_accuracy(truth: list[str], pred: list[str]) -> dict:
    """GA and group counts for parallel lists of true and predicted ids.

    >>> grouping_accuracy(["a", "a", "b", "c"], ["1", "1", "2", "2"])["ga"]
    0.5
    >>> grouping_accuracy(["a", "a", "b"], ["x", "y", "z"])["ga"]  # a split: only b is right
    0.3333333333333333
    >>> grouping_accuracy(["a", "a", "b", "b"], ["1", "1", "1", "1"])["ga"]  # merged: none right
    0.0
    >>> grouping_accuracy(["a", "", "b"], ["1", "1", "2"])["ga"]  # unlabelled lines left out
    1.0
    """
    if len(truth) != len(pred):
        raise InputError(f"{len(truth)} true labels but {len(pred)} predictions: the tool must "
                         f"print exactly one group id per input line, in input order")
    keep = [i for i, t in enumerate(truth) if t != ""]
    true_size = Counter(truth[i] for i in keep)
    members: dict[str, list[int]] = defaultdict(list)
    for i in keep:
        members[pred[i]].append(i)
    correct_lines = 0
    correct_groups = 0
    for lines in members.values():
        trues = {truth[i] for i in lines}
        if len(trues) == 1 and true_size[next(iter(trues))] == len(lines):
            correct_lines += len(lines)
            correct_groups += 1
    n = len(keep)
    return {
        "lines": n,
        "ga": correct_lines / n if n else 0.0,
        "true_groups": len(true_size),
        "pred_groups": len(members),
        "exact_groups": correct_groups,
    }


def explain(truth: list[str], pred: list[str], top: int, lines_text: list[str] | None) -> str:
    """The `top` largest true events not found exactly, with where their lines went."""
    by_true: dict[str, Counter] = defaultdict(Counter)
    by_pred: dict[str, Counter] = defaultdict(Counter)
    first: dict[tuple[str, str], int] = {}
    for i, (t, p) in enumerate(zip(truth, pred)):
        if t == "":
            continue
        by_true[t][p] += 1
        by_pred[p][t] += 1
        first.setdefault((t, p), i)
    bad = []
    for t, preds in by_true.items():
        exact = len(preds) == 1 and len(by_pred[next(iter(preds))]) == 1
        if not exact:
            bad.append((sum(preds.values()), t))
    out = []
    for size, t in sorted(bad, key=lambda x: (-x[0], x[1]))[:top]:
        parts = []
        for p, c in by_true[t].most_common(4):
            others = sum(by_pred[p].values()) - by_pred[p][t]
            where = f"{c} in group {p!r}" + (f" (+{others} lines of other events)" if others else "")
            if lines_text is not None:
                where += f"\n        e.g. {lines_text[first[(t, p)]][:160]}"
            parts.append(where)
        more = len(by_true[t]) - 4
        out.append(f"  true event {t!r} ({size} lines):\n      " + "\n      ".join(parts)
                   + (f"\n      ... and {more} more groups" if more > 0 else ""))
    return "\n".join(out)


def _row(name: str, r: dict) -> str:
    return (f"{name:<16} {r['lines']:>8} {r['ga']:>8.4f} {r['true_groups']:>7} "
            f"{r['pred_groups']:>7} {r['exact_groups']:>7}")


HEADER = f"{'dataset':<16} {'lines':>8} {'GA':>8} {'true':>7} {'pred':>7} {'exact':>7}"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--labels", type=Path, help="true ids, one a line")
    ap.add_argument("--pred", type=Path, help="predicted ids, one a line (or NDJSON)")
    ap.add_argument("--pairs", type=Path, help="'true<TAB>predicted' per line")
    ap.add_argument("--data-dir", type=Path, help="folder of NAME.labels (and NAME.log)")
    ap.add_argument("--pred-dir", type=Path, help="folder of NAME.pred, with --data-dir")
    ap.add_argument("--run", metavar="CMD", help="with --data-dir: run CMD on each NAME.log "
                    "({} is replaced by its path) and score what it writes to {out}, or else "
                    "its stdout")
    ap.add_argument("--singleton", metavar="ID", help="each line predicted as ID is a group "
                    "of its own")
    ap.add_argument("--json-field", help="key of the group id in NDJSON predictions")
    ap.add_argument("--explain", type=int, default=0, metavar="N",
                    help="show the N largest true events not found exactly")
    ap.add_argument("--json", action="store_true", help="print results as one JSON object")
    a = ap.parse_args(argv)
    modes = [a.pairs is not None, a.labels is not None or a.pred is not None,
             a.data_dir is not None or a.pred_dir is not None or a.run is not None]
    if sum(modes) != 1:
        ap.error("give exactly one of: --pairs FILE, --labels FILE --pred FILE, "
                 "--data-dir DIR --pred-dir DIR, --data-dir DIR --run CMD")
    try:
        datasets = _datasets(a, ap)
        results = {}
        notes = []
        for name, truth, pred, text, secs in datasets:
            if a.singleton is not None:
                pred = [f"\0{i}" if p == a.singleton else p for i, p in enumerate(pred)]
            results[name] = grouping_accuracy(truth, pred)
            if secs is not None:
                results[name]["seconds"] = round(secs, 3)
            if a.explain:
                notes.append(f"{name}:\n{explain(truth, pred, a.explain, text) or '  all exact'}")
    except InputError as e:
        print(f"grouping_accuracy: {e}", file=sys.stderr)
        return 1
    avg = sum(r["ga"] for r in results.values()) / len(results)
    if a.json:
        print(json.dumps({"datasets": results, "average_ga": avg}, indent=1))
    else:
        print(HEADER)
        for name, r in results.items():
            print(_row(name, r) + (f" {r['seconds']:>8.3f}s" if "seconds" in r else ""))
        if len(results) > 1:
            print(f"{'average':<16} {'':>8} {avg:>8.4f}")
    for note in notes:
        print(note)
    return 0


def _datasets(a, ap):
    if a.pairs is not None:
        truth, pred = [], []
        for n, line in enumerate(read_ids(a.pairs), 1):
            if "\t" not in line:
                raise InputError(f"{a.pairs}:{n}: expected 'true<TAB>predicted'")
            t, p = line.split("\t", 1)
            truth.append(t)
            pred.append(p)
        return [(a.pairs.stem, truth, pred, None, None)]
    if a.labels is not None or a.pred is not None:
        if a.labels is None or a.pred is None:
            ap.error("--labels and --pred go together")
        log = a.labels.with_suffix(".log")
        text = _log_lines(log) if a.explain and log.exists() else None
        return [(a.labels.stem, read_ids(a.labels), read_ids(a.pred, a.json_field), text, None)]
    if a.data_dir is None or (a.pred_dir is None and a.run is None):
        ap.error("--data-dir goes with --pred-dir or --run")
    names = sorted(p.stem for p in a.data_dir.glob("*.labels"))
    if not names:
        raise InputError(f"{a.data_dir}: no NAME.labels files; run fetch-data.sh or generate.py "
                         f"into it first")
    out = []
    for name in names:
        log = a.data_dir / f"{name}.log"
        secs = None
        if a.run is not None:
            pred_file, secs = _run(a.run, log, a.pred_dir, name)
        else:
            pred_file = a.pred_dir / f"{name}.pred"
        if not pred_file.exists():
            raise InputError(f"{pred_file}: missing; write one predicted id per line of "
                             f"{a.data_dir / (name + '.log')}")
        text = _log_lines(log) if a.explain and log.exists() else None
        out.append((name, read_ids(a.data_dir / f"{name}.labels"),
                    read_ids(pred_file, a.json_field), text, secs))
    return out


def _run(cmd: str, log: Path, pred_dir: Path | None, name: str) -> tuple[Path, float]:
    """Runs cmd on log; {out} (or its stdout) is PRED_DIR/NAME.pred, or a temporary file."""
    import tempfile
    if pred_dir is not None:
        pred_dir.mkdir(parents=True, exist_ok=True)
        target = pred_dir / f"{name}.pred"
    else:
        target = Path(tempfile.mkdtemp(prefix="ga-")) / f"{name}.pred"
    to_file = "{out}" in cmd
    argv = [arg.replace("{}", str(log)).replace("{out}", str(target)) for arg in shlex.split(cmd)]
    t0 = time.perf_counter()
    with open(os.devnull, "wb") if to_file else target.open("wb") as f:
        try:
            done = subprocess.run(argv, stdout=f, stderr=subprocess.PIPE, check=False)
        except OSError as e:
            raise InputError(f"--run: cannot start {argv[0]!r} ({e.strerror}); give a command "
                             f"on PATH or a path to it") from e
    secs = time.perf_counter() - t0
    if done.returncode != 0:
        err = done.stderr.decode("utf-8", "replace").strip()[-500:]
        raise InputError(f"--run: {' '.join(argv)} exited with {done.returncode}: {err}")
    return target, secs


def _log_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8", errors="replace").split("\n")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
