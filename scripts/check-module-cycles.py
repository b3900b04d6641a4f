#!/usr/bin/env python3
"""Fails when modules of a crate import each other in a circle.

For every `use` path and inline path that starts with `crate::`, `super::` or `self::` in a
crate's `src/`, an edge from the file's module to the module the path names. Edges between a
module and one of its ancestors (a parent re-exporting its child, a child using its parent's
items) are the facade pattern and do not count; any other edge is lifted to the two sibling
modules under the common parent, and a circle among siblings is an error.

Usage: scripts/check-module-cycles.py CRATE_SRC_DIR [...]   (exit 1 on a circle)
"""
import os
import re
import sys

PATH = re.compile(r"\b((?:crate|super|self)(?:::(?:super|[A-Za-z_][A-Za-z0-9_]*))*)(?:::\{([^;]*?)\})?")


def module_of(src, path):
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] in ("mod", "lib", "main"):
        rel = rel[:-1]
    return tuple(rel)


def modules(src):
    found = {}
    for root, _, files in os.walk(src):
        for name in files:
            if name.endswith(".rs"):
                path = os.path.join(root, name)
                found[module_of(src, path)] = path
    return found


def strip(text):
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    # Unit tests may use anything of their parent.
    text = re.split(r"#\[cfg\(test\)\]\s*mod tests", text)[0]
    return text


def resolve(current, path, known):
    parts = path.split("::")
    if parts[0] == "crate":
        base, rest = (), parts[1:]
    else:
        base, rest = current, parts
        while rest and rest[0] in ("super", "self"):
            if rest[0] == "super":
                base = base[:-1]
            rest = rest[1:]
    target = base
    for part in rest:
        if target + (part,) in known:
            target = target + (part,)
        else:
            break
    return target


def cycles(src):
    known = modules(src)
    edges = set()
    for module, path in known.items():
        text = strip(open(path, encoding="utf-8").read())
        for match in PATH.finditer(text):
            heads = [match.group(1)]
            if match.group(2):
                heads = [f"{match.group(1)}::{item.strip().split('::')[0]}"
                         for item in match.group(2).split(",") if item.strip()]
            for head in heads:
                target = resolve(module, head, known)
                common = 0
                while (common < min(len(module), len(target))
                       and module[common] == target[common]):
                    common += 1
                if common in (len(module), len(target)):
                    continue  # ancestor or descendant: the facade pattern
                a, b = module[: common + 1], target[: common + 1]
                edges.add((a, b))
    graph = {}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
    # Tarjan's strongly connected components.
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in list(graph):
        if v not in index:
            visit(v)
    return out, len(known), len(edges)


def self_test():
    """The checker finds a circle it is shown and passes the facade pattern."""
    import tempfile
    with tempfile.TemporaryDirectory() as src:
        files = {
            "lib.rs": "mod a; mod b; mod c; pub use a::A;",
            "a.rs": "use crate::b::B; pub struct A;",
            "b.rs": "use super::c::{C, D}; pub struct B;",
            "c/mod.rs": "mod inner; pub use inner::C; pub struct D;",
            "c/inner.rs": "use super::D; pub struct C;",
        }
        for name, text in files.items():
            os.makedirs(os.path.dirname(os.path.join(src, name)), exist_ok=True)
            open(os.path.join(src, name), "w").write(text)
        found, _, _ = cycles(src)
        assert found == [], found
        open(os.path.join(src, "c/inner.rs"), "w").write("use crate::a::A; pub struct C;")
        found, _, _ = cycles(src)
        assert found == [[("a",), ("b",), ("c",)]], found


def main():
    self_test()
    failed = False
    for src in sys.argv[1:]:
        found, count, edges = cycles(src)
        name = lambda m: "::".join(m) or "crate"
        for component in found:
            failed = True
            print(f"{src}: modules import each other in a circle: "
                  + ", ".join(name(m) for m in component), file=sys.stderr)
        if not found:
            print(f"{src}: {count} modules, {edges} imports between siblings, no circle",
                  file=sys.stderr)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
