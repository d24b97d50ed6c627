#!/usr/bin/env python3
"""Checks ARCHITECTURE.md's "Dependencies point one way" for the core crate.

Reads every module of core/src (test modules left out), finds which modules it names through
`crate::` and `super::` paths, and fails when modules import each other in a circle, or when a
vocabulary module (time, diag, model, plan) imports a kind's planner (staged, rolling, gke).
A module's own children (`foo/bar.rs` using `super::`) are part of it, not a circle.
Usage: scripts/module-deps.py [core/src]; prints what is wrong and exits 1, or prints nothing.
"""
import os
import re
import sys

VOCABULARY = ("time", "diag", "model", "plan")
PLANNERS = ("staged", "rolling", "gke")


def modules(root):
    found = {}
    for folder, _, files in os.walk(root):
        for name in files:
            if not name.endswith(".rs") or name == "tests.rs":
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)[:-3].replace(os.sep, "/")
            rel = re.sub(r"(^|/)mod$", "", rel)
            module = "" if rel == "lib" else rel.replace("/", "::")
            with open(path, encoding="utf-8") as f:
                # Test modules may use anything; only the shipped code's graph matters.
                found[module] = re.split(r"#\[cfg\(test\)\]", f.read())[0]
    return found


def strip_comments(src):
    return "\n".join(line.split("//")[0] for line in src.splitlines())


def imports(module, src, known):
    src = strip_comments(src)
    out = set()
    for path in re.findall(r"\bcrate::([a-z_]+(?:::[a-z_]+)*)", src):
        parts = path.split("::")
        for i in range(len(parts), 0, -1):
            candidate = "::".join(parts[:i])
            if candidate in known:
                out.add(candidate)
                break
    parent = module.rsplit("::", 1)[0] if "::" in module else ""
    for name in re.findall(r"\bsuper::([a-z_]+)", src):
        candidate = f"{parent}::{name}" if parent else name
        if candidate in known:
            out.add(candidate)
    # A child reaching its parent (or an ancestor) is inside one module, not a circle.
    return {m for m in out if m != module and not module.startswith(m + "::") and m != ""}


def circles(graph):
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]
    sys.setrecursionlimit(10_000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def top(module):
    return module.split("::")[0]


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "core/src"
    mods = modules(root)
    graph = {m: imports(m, src, mods) for m, src in mods.items()}
    problems = []
    for group in circles(graph):
        inside = set(group)
        edges = ", ".join(f"{m} -> {w}" for m in group for w in sorted(graph[m] & inside))
        problems.append(f"import circle: {edges}")
    for m, deps in sorted(graph.items()):
        if top(m) in VOCABULARY:
            for d in sorted(deps):
                if top(d) in PLANNERS:
                    problems.append(f"vocabulary module {m} imports the planner module {d}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
