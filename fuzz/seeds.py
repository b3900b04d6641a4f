#!/usr/bin/env python3
"""Writes the seed inputs of the fuzz targets into fuzz/corpus/<target>/ (idempotent).

Sources: examples/jobs/*.json, examples/templates/*.json(+.js), tests/conformance/cases/*.json,
and a few fixed byte strings for the structure-aware targets. File names are the SHA-1 of the
content, as libFuzzer names its own corpus files.  Usage: python3 fuzz/seeds.py [target ...]
"""
import glob
import hashlib
import json
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
SEP = b"\xff"  # template_loading: <template JSON> 0xFF <inputs JSON>


def cases():
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/conformance/cases/*.json"))):
        with open(path) as f:
            yield from json.load(f)


def jobs():
    for path in sorted(glob.glob(os.path.join(ROOT, "examples/jobs/*.json"))):
        with open(path) as f:
            yield json.load(f)


def templates():
    for path in sorted(glob.glob(os.path.join(ROOT, "examples/templates/*.json"))):
        with open(path) as f:
            t = json.load(f)
        js = path[:-5] + ".js"
        if "template" not in t and os.path.exists(js):
            with open(js) as f:
                t["template"] = f.read()
        yield t


def graph_of(job):
    return job.get("jobGraph", job) if isinstance(job, dict) and "jobGraph" in job else job


def seeds(target):
    if target == "edge_parser":
        out = ["a -> b", "a:out -> b", "a->b:in", "\t a:x  ->  b:y \n", "a b", "a -> b -> c",
               " -> b", "a -> ", "a: -> b", ":p -> b", "a:p:q -> b", "a -> b: c", "src\nout:input"]
        for job in jobs():
            out += [e for e in graph_of(job).get("edges", []) or [] if isinstance(e, str)]
        for case in cases():
            if case["operation"] == "parseEdge":
                out.append(case["input"]["text"])
        return [s.encode() for s in out]
    if target == "graph_validation":
        out = [graph_of(job) for job in jobs()]
        for case in cases():
            if case["operation"] == "validate":
                out.append(case["input"]["graph"])
            elif case["operation"] == "resolve":
                out.append(graph_of(case["input"]["job"]))
                if "output" in case["expect"]:
                    out.append(graph_of(case["expect"]["output"]))
        data = [json.dumps(g).encode() for g in out]
        rng = random.Random(1)  # structure-aware (non-JSON) starts
        data += [bytes([0x80]) + rng.randbytes(n) for n in (16, 64, 256)]
        return data
    if target == "template_loading":
        out = []
        for t in templates():
            out.append(json.dumps(t).encode())
        for case in cases():
            if case["operation"] == "resolve":
                graph = graph_of(case["input"]["job"])
                vertices = graph.get("vertices") if isinstance(graph, dict) else None
                ops = [v for v in (vertices if isinstance(vertices, list) else [])
                       if isinstance(v, dict) and v.get("type") == "template-operation"]
                for t in case["input"]["templates"]:
                    inputs = next((o.get("templateInputs") for o in ops
                                   if o.get("templateId") == t.get("id")), None)
                    data = json.dumps(t).encode()
                    if inputs is not None:
                        data += SEP + json.dumps(inputs).encode()
                    out.append(data)
            elif case["operation"] == "test":
                req = case["input"]["request"]
                t = req.get("template", req) if isinstance(req, dict) else req
                data = json.dumps(t).encode()
                inputs = req.get("input") if isinstance(req, dict) else None
                inputs = inputs.get("values") if isinstance(inputs, dict) else None
                if inputs is not None:
                    data += SEP + json.dumps(inputs).encode()
                out.append(data)
        return out
    if target == "resolution":
        out = []
        for case in cases():
            if case["operation"] == "resolve":
                inp = case["input"]
                out.append(json.dumps({"templates": inp["templates"], "job": inp["job"],
                                       "options": inp.get("options", {})}).encode())
        rng = random.Random(2)
        out += [rng.randbytes(n) for n in (32, 128, 512, 2048) for _ in range(4)]
        return out
    if target == "grok_rules":
        out = []
        for path in sorted(glob.glob(os.path.join(ROOT, "tests/conformance/grok/*.json"))):
            with open(path, encoding="utf-8") as f:
                for case in json.load(f)["cases"]:
                    out.append("\0".join([case["rules"], case.get("helpers") or "",
                                           case["sample"]]).encode())
        return out
    if target == "reducer":
        out = []
        path = os.path.join(ROOT, "tests/conformance/pipelines/reducer.json")
        with open(path, encoding="utf-8") as f:
            for case in json.load(f)["cases"]:
                vertex = case["graph"]["vertices"][1]
                settings = {k: v for k, v in vertex.items() if k not in ("type", "name")}
                lines = "\n".join(json.dumps(e) for e in case.get("events", []))
                out.append((json.dumps(settings) + "\0" + lines).encode())
        out.append(b'{}\0' + "\n".join(f"user {i} logged in from 10.0.0.{i}" for i in range(40)).encode())
        out.append(b'{"dedupThreshold": 2, "similarityThreshold": 20, "delimiters": [" "]}\0a b c\na b d\n\n::\nx')
        return out
    raise SystemExit(f"unknown target {target}")


def main():
    targets = sys.argv[1:] or ["edge_parser", "graph_validation", "template_loading", "resolution",
                                   "grok_rules", "reducer"]
    for target in targets:
        d = os.path.join(CORPUS, target)
        os.makedirs(d, exist_ok=True)
        n = 0
        for data in seeds(target):
            name = os.path.join(d, hashlib.sha1(data).hexdigest())
            if not os.path.exists(name):
                with open(name, "wb") as f:
                    f.write(data)
                n += 1
        print(f"{target}: {n} new seed(s) in {os.path.relpath(d, ROOT)}")


if __name__ == "__main__":
    main()
