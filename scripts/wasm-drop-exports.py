#!/usr/bin/env python3
"""Removes a wasm module's exports whose names start with any of the given prefixes (in place).

Usage: scripts/wasm-drop-exports.py FILE.wasm PREFIX...

scripts/wasm-split-hook.sh runs it on the main module after wasm-bindgen: Leptos always builds its
server functions' browser side, whose streaming helper (the wasm-streams crate) exports three classes
(IntoUnderlyingSource, IntoUnderlyingByteSource, IntoUnderlyingSink) that a client-side app never
constructs. Exports are roots, so their code (and the futures it spawns) stayed in the main module;
without the exports wasm-opt drops it, and scripts/glue-drop-classes.py removes the classes'
wrappers from the JavaScript glue.
"""
import sys

from wasmbin import leb, sections, uleb


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, prefixes = sys.argv[1], tuple(p.encode() for p in sys.argv[2:])
    buf = open(path, "rb").read()
    assert buf[:4] == b"\0asm", f"{path}: not a wasm module"
    out = bytearray(buf[:8])
    dropped = []
    for sid, payload in sections(buf):
        if sid == 7:
            count, k = leb(payload, 0)
            kept = []
            for _ in range(count):
                n, k2 = leb(payload, k)
                name = payload[k2 : k2 + n]
                _, k3 = leb(payload, k2 + n + 1)  # kind byte, then index
                entry = payload[k:k3]
                k = k3
                if name.startswith(prefixes):
                    dropped.append(name.decode())
                else:
                    kept.append(entry)
            payload = uleb(len(kept)) + b"".join(kept)
        out.append(sid)
        out += uleb(len(payload))
        out += payload
    open(path, "wb").write(out)
    print(f"wasm-drop-exports: {path}: {len(dropped)} exports dropped: {' '.join(sorted(dropped))}")


if __name__ == "__main__":
    main()
