#!/usr/bin/env python3
"""Drops the `producers` and `target_features` custom sections from every module in a directory.

Usage: scripts/wasm-strip-sections.py DIR

scripts/wasm-split-hook.sh runs it after wasm-opt (release builds). The browser ignores both sections,
yet each module carried about 200 bytes of them (wasm-split-cli's and rustc's names and versions, the
features list), and gzip compresses each file from a cold start. Every other section is written back
as it was read (re-encoding the main module with wasm-opt to the same end grew it by 276 bytes).
"""
import os
import sys

from wasmbin import leb, sections, uleb

DROP = {b"producers", b"target_features"}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    folder = sys.argv[1]
    saved = 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".wasm"):
            continue
        path = os.path.join(folder, name)
        buf = open(path, "rb").read()
        if buf[:4] != b"\0asm":
            continue
        out = bytearray(buf[:8])
        for sid, payload in sections(buf):
            if sid == 0:
                n, k = leb(payload, 0)
                if payload[k : k + n] in DROP:
                    continue
            out.append(sid)
            out += uleb(len(payload))
            out += payload
        saved += len(buf) - len(out)
        if len(out) != len(buf):
            open(path, "wb").write(out)
    print(f"wasm-strip-sections: {saved} bytes of producers and target_features sections dropped")


if __name__ == "__main__":
    main()
