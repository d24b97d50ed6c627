#!/usr/bin/env python3
"""Removes exported classes whose names start with PREFIX from wasm-bindgen's JavaScript glue (in place).

Usage: scripts/glue-drop-classes.py GLUE.js PREFIX

scripts/wasm-split-hook.sh runs it after scripts/wasm-drop-exports.py has taken the same classes'
exports (wasm-streams' IntoUnderlyingSource, IntoUnderlyingByteSource, IntoUnderlyingSink, which a
client-side app never constructs) out of the main module: their wrappers in the glue called exports
that no longer exist, and every first load downloaded them (0.3 KB gzipped once minified). Each class
goes with its `Symbol.dispose` line and its FinalizationRegistry. Fails when the glue is not shaped as
expected (a new wasm-bindgen) or when anything else still names a removed class, so nothing is
removed that the page could reach.
"""
import re
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, prefix = sys.argv[1], sys.argv[2]
    text = open(path, encoding="utf-8").read()
    names = re.findall(rf"^export class ({re.escape(prefix)}\w*) \{{$", text, flags=re.M)
    if not names:
        sys.exit(f"{path}: no exported class starting with {prefix}")
    for name in names:
        n = re.escape(name)
        patterns = [
            # The class body ends at the first line that is a lone closing brace.
            rf"^export class {n} \{{\n.*?^\}}\n",
            rf"^if \(Symbol\.dispose\) {n}\.prototype\[Symbol\.dispose\] = {n}\.prototype\.free;\n",
            rf"^const {n}Finalization = \(typeof FinalizationRegistry === 'undefined'\)\n[^;]*;\n",
        ]
        for p in patterns:
            text, count = re.subn(p, "", text, count=1, flags=re.M | re.S)
            if count != 1:
                sys.exit(f"{path}: {name}: the glue does not have the expected shape ({p})")
    left = [name for name in names if re.search(rf"\b{re.escape(name)}\b", text)]
    if left:
        sys.exit(f"{path}: still named after removal: {', '.join(left)}")
    open(path, "w", encoding="utf-8").write(text)
    print(f"glue-drop-classes: {path}: removed {', '.join(names)}")


if __name__ == "__main__":
    main()
