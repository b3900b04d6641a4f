#!/usr/bin/env python3
"""Labelled log lines of our own: realistic lines of six system styles, each line with the id
of the log statement (the true event template) that printed it. Deterministic: the same seed
and sizes give the same bytes, on any machine (Python 3.8+, standard library only).

    # six labelled sets of 2,000 lines (as many as Loghub's samples)
    bench/patterns/generate.py --out DIR
    # one file of 1,000,000 lines mixing all systems (the speed benchmark's input)
    bench/patterns/generate.py --out DIR --mix 1000000

Writes, per set NAME (web, jvm, syslog, k8s, postgres, auth; or mixed):
  NAME.log            the lines, whole (header and message), one a line, no tabs
  NAME.labels         the true event id of each line (E1, E2, ...; SYSTEM:E1 in mixed)
  NAME.templates.tsv  id<TAB>the line's template, variables written <*>

The templates are in gen_systems.py: per system 25-40 statements with a hand-set frequency
(a few frequent, many rare, and each appears at least once in a set), fixed constants (level,
logger, program, source file:line) and variables of many kinds: counters, ids, IPv4/IPv6
addresses and ports, host names, paths of varying depth, URLs with query strings, durations
in several units, sizes, user names (with and without digits), emails, UUIDs, hex ids, Go and
Java durations, timestamps inside the message, pod and image names, quoted strings and SQL of
varying word count, lists of varying length, user agents. What counts as one event follows
Loghub's convention: one log statement in the program's source is one event, whatever its
variables hold; where one statement prints lines of different shapes, Loghub labels them by
their constant words, and so do we: an access log's events are its request methods (the path
is a variable, as in Loghub's OpenStack set), not one event for the whole format.
"""
from __future__ import annotations

import argparse
import os
import random
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_systems  # noqa: E402

FIELD = re.compile(r"\{\{|\}\}|\{(@?\w+)\}")


class Template:
    """One log statement: its id, frequency weight and format ('{var}' marks a variable)."""

    def __init__(self, tid: str, weight: float, fmt: str):
        self.id = tid
        self.weight = weight
        self.fmt = fmt
        self.parts: list[tuple[bool, str]] = []  # (is_variable, text or variable name)
        pos = 0
        for m in FIELD.finditer(fmt):
            if m.start() > pos:
                self.parts.append((False, fmt[pos:m.start()]))
            if m.group(1):
                if m.group(1).lstrip("@") not in gen_systems.VARS:
                    raise ValueError(f"template {tid}: unknown variable '{m.group(1)}' in {fmt!r}")
                self.parts.append((True, m.group(1)))
            else:
                self.parts.append((False, m.group(0)[0]))
            pos = m.end()
        if pos < len(fmt):
            self.parts.append((False, fmt[pos:]))

    def text(self) -> str:
        return "".join("<*>" if var else s for var, s in self.parts)

    def render(self, g: gen_systems.Gen) -> str:
        out = []
        drawn: dict[str, str] = {}
        for var, s in self.parts:
            if not var:
                out.append(s)
            elif s.startswith("@"):  # the value this line already drew for that variable
                out.append(drawn[s[1:]])
            else:
                drawn[s] = gen_systems.VARS[s](g)
                out.append(drawn[s])
        line = "".join(out)
        if "\t" in line or "\n" in line:
            raise ValueError(f"template {self.id} rendered a tab or line break: {line!r}")
        return line


def load(system: str) -> list[Template]:
    """The system's statements; rows that name the same event key share one event id."""
    ids: dict[object, str] = {}
    out = []
    for i, row in enumerate(gen_systems.SYSTEMS[system]):
        weight, fmt = row[0], row[1]
        key = row[2] if len(row) > 2 else i
        tid = ids.setdefault(key, f"E{len(ids) + 1}")
        out.append(Template(tid, weight, fmt))
    return out


def event_texts(templates: list[Template]) -> dict[str, str]:
    """Each event's template text; rows of one event differ only in a middle part, so the
    event's text is their common start, <*>, and their common end."""
    texts: dict[str, list[str]] = {}
    for t in templates:
        texts.setdefault(t.id, []).append(t.text())
    out = {}
    for tid, group in texts.items():
        if len(set(group)) == 1:
            out[tid] = group[0]
            continue
        head = os.path.commonprefix(group)
        tail = os.path.commonprefix([g[::-1] for g in group])[::-1]
        tail = tail[max(0, len(head) + len(tail) - min(map(len, group))):]
        head = head[:head.rfind(" ") + 1]  # the variable part is whole words
        tail = tail[tail.find(" "):] if " " in tail else ""
        out[tid] = head + "<*>" + tail
    return out


def generate(system: str, n: int, seed: int) -> list[tuple[str, str]]:
    """n (event id, line) pairs of one system; every template at least once when n allows."""
    rng = random.Random(f"{seed}:{system}")
    g = gen_systems.Gen(rng, system)
    templates = load(system)
    picks = list(range(len(templates)))[:n]
    picks += rng.choices(range(len(templates)), weights=[t.weight for t in templates],
                         k=n - len(picks))
    rng.shuffle(picks)
    out = []
    for i in picks:
        g.tick()
        out.append((templates[i].id, templates[i].render(g)))
    return out


def mixed(n: int, seed: int) -> list[tuple[str, str]]:
    """n lines interleaving every system (equal shares), labels SYSTEM:ID."""
    rng = random.Random(f"{seed}:mixed")
    systems = sorted(gen_systems.SYSTEMS)
    gens = {s: gen_systems.Gen(random.Random(f"{seed}:mixed:{s}"), s) for s in systems}
    tpls = {s: load(s) for s in systems}
    weights = {s: [t.weight for t in tpls[s]] for s in systems}
    out = []
    chosen = rng.choices(systems, k=n)
    for s in systems:  # each template at least once
        for t in tpls[s]:
            gens[s].tick()
            out.append((f"{s}:{t.id}", t.render(gens[s])))
    for s in chosen[len(out):]:
        t = tpls[s][rng.choices(range(len(tpls[s])), weights=weights[s])[0]]
        gens[s].tick()
        out.append((f"{s}:{t.id}", t.render(gens[s])))
    # keep each system's clock in order but interleave the systems
    head, tail = out[:sum(len(v) for v in tpls.values())], out[sum(len(v) for v in tpls.values()):]
    rng.shuffle(head)
    return head + tail


def write(out: Path, name: str, rows: list[tuple[str, str]], templates: dict[str, str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with (out / f"{name}.log").open("w", encoding="utf-8", newline="\n") as log, \
         (out / f"{name}.labels").open("w", encoding="utf-8", newline="\n") as labels:
        for tid, line in rows:
            log.write(line + "\n")
            labels.write(tid + "\n")
    with (out / f"{name}.templates.tsv").open("w", encoding="utf-8", newline="\n") as f:
        for tid, text in templates.items():
            f.write(f"{tid}\t{text}\n")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--out", type=Path, required=True, help="folder to write into")
    ap.add_argument("--lines", type=int, default=2000, help="lines per system (default 2000)")
    ap.add_argument("--seed", type=int, default=36, help="seed (default 36)")
    ap.add_argument("--systems", default=",".join(sorted(gen_systems.SYSTEMS)),
                    help="comma-separated systems (default all)")
    ap.add_argument("--mix", type=int, metavar="N",
                    help="instead, write mixed.log: N lines of all systems interleaved")
    a = ap.parse_args(argv)
    if a.mix is not None:
        if a.mix < 1:
            ap.error("--mix must be at least 1")
        rows = mixed(a.mix, a.seed)
        texts = {f"{s}:{tid}": text for s in sorted(gen_systems.SYSTEMS)
                 for tid, text in event_texts(load(s)).items()}
        write(a.out, "mixed", rows[:a.mix], texts)
        print(f"mixed: {min(a.mix, len(rows))} lines, {len(texts)} events -> {a.out}/mixed.log")
        return 0
    systems = [s for s in a.systems.split(",") if s]
    unknown = [s for s in systems if s not in gen_systems.SYSTEMS]
    if unknown:
        ap.error(f"unknown systems {unknown}; known: {sorted(gen_systems.SYSTEMS)}")
    if a.lines < 1:
        ap.error("--lines must be at least 1")
    for s in systems:
        rows = generate(s, a.lines, a.seed)
        texts = event_texts(load(s))
        write(a.out, s, rows, texts)
        print(f"{s:<9} {len(rows):>7} lines {len(texts):>3} events -> {a.out}/{s}.log")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
