#!/usr/bin/env python3
"""Where a wasm module's bytes are: function bodies grouped by crate and module path, and the data.

Usage: scripts/wasm-weight.py FILE.wasm [--depth N] [--top N] [--filter TEXT]

Needs the module's name section (a cargo build before wasm-opt, or wasm-opt with -g). Sizes are raw
body bytes; the gzip column compresses each group's bodies together, which is what that group adds
to a download give or take the sharing of common byte patterns with the rest.
"""
import argparse
import collections
import re
import sys
import zlib

from wasmbin import import_desc, leb, sections


def imported_functions(payload):
    count, i = leb(payload, 0)
    funcs = 0
    for _ in range(count):
        for _ in range(2):  # module and field names
            n, i = leb(payload, i)
            i += n
        kind, i = import_desc(payload, i)
        funcs += kind == 0
    return funcs


def function_names(payload):
    names = {}
    i = 0
    while i < len(payload):
        sub = payload[i]
        size, j = leb(payload, i + 1)
        if sub == 1:
            count, k = leb(payload, j)
            for _ in range(count):
                idx, k = leb(payload, k)
                n, k = leb(payload, k)
                names[idx] = payload[k : k + n].decode("utf-8", "replace")
                k += n
        i = j + size
    return names


LEGACY = re.compile(r"_ZN((?:\d+[^\d][^E]*?)+)E")
ESCAPES = {"$LT$": "<", "$GT$": ">", "$u20$": " ", "$RF$": "&", "$C$": ",", "$u27$": "'", "$BP$": "*",
           "$u5b$": "[", "$u5d$": "]", "$u7b$": "{", "$u7d$": "}", "$LP$": "(", "$RP$": ")", "..": "::"}


def demangle_v0(name):
    """Rust v0 mangling (`_R…`), roughly: the identifiers of the path in order, enough to group by."""
    idents = []
    i = 2
    while i < len(name):
        if name[i].isdigit() and name[i - 1] not in "0123456789":
            j = i
            while j < len(name) and name[j].isdigit():
                j += 1
            n = int(name[i:j])
            if j < len(name) and name[j] == "_":  # an identifier starting with a digit or `_`
                j += 1
            ident = name[j : j + n]
            if n and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", ident):
                idents.append(ident)
                i = j + n
                continue
        i += 1
    return "::".join(idents) or name


def demangle(name):
    """Legacy Rust mangling to a path without the hash; other names unchanged."""
    if name.startswith("_R"):
        return demangle_v0(name)
    if not name.startswith("_ZN"):
        return name
    parts = []
    i = 3
    while i < len(name) and name[i].isdigit():
        j = i
        while name[j].isdigit():
            j += 1
        n = int(name[i:j])
        part = name[j : j + n]
        # `_$LT$…`: the leading underscore only escapes an identifier that starts with `$`.
        parts.append(part[1:] if part.startswith("_$") else part)
        i = j + n
    if parts and re.fullmatch(r"h[0-9a-f]{16}", parts[-1]):
        parts.pop()
    text = "::".join(parts)
    for k, v in ESCAPES.items():
        text = text.replace(k, v)
    return text


def group_of(path, depth):
    """The crate and the first `depth - 1` modules of a function's path; trait impls by their type."""
    p = re.sub(r"\[[0-9a-f]{16}\]", "", path)
    if p.startswith("<"):
        # `<T as Trait>::f`: charge the implementing type's crate.
        p = p[1:]
    p = re.sub(r"^(&|\*const |\*mut |mut )+", "", p)
    p = p.split(" as ")[0].split("<")[0]
    segs = [s for s in p.split("::") if s]
    if not segs:
        return path[:40]
    if segs[0] in ("core", "alloc", "std") and len(segs) > 1:
        return "::".join(segs[:2])
    return "::".join(segs[:depth])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("wasm")
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--filter", default=None, help="list the largest functions whose name contains this")
    args = ap.parse_args()
    buf = open(args.wasm, "rb").read()
    imports = 0
    bodies = []
    names = {}
    data = 0
    data_bytes = b""
    custom = collections.Counter()
    for sid, payload in sections(buf):
        if sid == 2:
            imports = imported_functions(payload)
        elif sid == 10:
            count, i = leb(payload, 0)
            for _ in range(count):
                size, j = leb(payload, i)
                bodies.append(payload[j : j + size])
                i = j + size
        elif sid == 11:
            data += len(payload)
            data_bytes += payload
        elif sid == 0:
            n, j = leb(payload, 0)
            cname = payload[j : j + n].decode("utf-8", "replace")
            custom[cname] += len(payload)
            if cname == "name":
                names = function_names(payload[j + n :])
    if not names:
        print("no name section: build without stripping (or wasm-opt -g)", file=sys.stderr)
    groups = collections.defaultdict(list)
    funcs = []
    for k, body in enumerate(bodies):
        name = demangle(names.get(imports + k, f"func{imports + k}"))
        groups[group_of(name, args.depth)].append(body)
        funcs.append((len(body), name))
    total = sum(len(b) for b in bodies)
    gz_all = len(zlib.compress(b"".join(bodies), 9))
    print(f"{args.wasm}: {len(buf)} bytes; code {total} ({gz_all} deflated), data {data} "
          f"({len(zlib.compress(data_bytes, 9))} deflated), {len(bodies)} functions")
    for cname, size in custom.most_common():
        print(f"  custom section {cname}: {size}")
    print(f"\n{'raw':>8} {'deflated':>8} {'funcs':>6}  group")
    rows = sorted(groups.items(), key=lambda kv: -sum(len(b) for b in kv[1]))
    for g, bs in rows[: args.top]:
        raw = sum(len(b) for b in bs)
        print(f"{raw:8d} {len(zlib.compress(b''.join(bs), 9)):8d} {len(bs):6d}  {g}")
    if args.filter is not None:
        print(f"\nlargest functions matching {args.filter!r}:")
        for size, name in sorted((f for f in funcs if args.filter in f[1]), reverse=True)[: args.top]:
            print(f"{size:8d}  {name[:160]}")


if __name__ == "__main__":
    main()
