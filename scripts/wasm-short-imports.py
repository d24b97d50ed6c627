#!/usr/bin/env python3
"""Gives the main module's imports from its JavaScript glue short names, in the module and the glue alike.

Usage: scripts/wasm-short-imports.py MODULE_bg.wasm GLUE.js

wasm-bindgen names each import after its JavaScript function and a hash of its signature
(`__wbg_setAttribute_a64eb8f9aba6ccdd`), once in the module's import section and once as a key of the
glue's import object. The 16 hex digits of each hash do not compress: with some 230 imports that is
several KB gzipped in every first load. The split chunks import nothing from the glue (only the main
module's memory, table and a shared global, through the split loader), so the names matter only to
these two files. Each import of the glue's own module becomes a short name in import order (a, b, ...,
Z, aa, ...), the same in both files. Fails, changing nothing, when the glue's import object does not
hold exactly the module's imports, or names one anywhere else: then the names may be used elsewhere.
"""
import re
import string
import sys

from wasmbin import import_desc, leb, sections, uleb

LETTERS = string.ascii_letters


def short(i):
    """a, b, ..., Z, aa, ab, ...: letters only, so never a reserved key such as `__proto__`."""
    name = ""
    i += 1
    while i > 0:
        i -= 1
        name = LETTERS[i % 52] + name
        i //= 52
    return name


def read_name(buf, i):
    n, i = leb(buf, i)
    return buf[i : i + n].decode(), i + n


def name_bytes(s):
    b = s.encode()
    return uleb(len(b)) + b


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    wasm_path, glue_path = sys.argv[1:]
    buf = open(wasm_path, "rb").read()
    glue = open(glue_path, encoding="utf-8").read()

    m = re.search(r'^        "([^"]+)": import0,$', glue, flags=re.M)
    if not m:
        sys.exit(f"{glue_path}: no import object for the module's own imports (import0)")
    own = m.group(1)
    start = glue.index("    const import0 = {\n")
    end = glue.index("\n    };\n", start)
    keys = re.findall(r"^        (\w+): function\(", glue[start:end], flags=re.M)

    imports = []  # (module, field, descriptor bytes)
    out = bytearray(buf[:8])
    for sid, payload in sections(buf):
        if sid != 2:
            out += bytes([sid]) + uleb(len(payload)) + payload
            continue
        count, i = leb(payload, 0)
        for _ in range(count):
            module, i = read_name(payload, i)
            field, i = read_name(payload, i)
            try:
                _, j = import_desc(payload, i)
            except ValueError as e:
                sys.exit(f"{wasm_path}: {e}")
            imports.append((module, field, payload[i:j]))
            i = j
        fields = [f for mod, f, _ in imports if mod == own]
        if sorted(fields) != sorted(keys):
            sys.exit(f"{glue_path}: its import object and the module's imports from {own} differ")
        renamed = {f: short(k) for k, f in enumerate(fields)}
        section = bytearray(uleb(count))
        for mod, f, desc in imports:
            section += name_bytes(mod) + name_bytes(renamed.get(f, f) if mod == own else f) + desc
        out += bytes([2]) + uleb(len(section)) + section

    if not imports:
        sys.exit(f"{wasm_path}: no import section")
    for old, new in renamed.items():
        if len(re.findall(rf"\b{re.escape(old)}\b", glue)) != 1:
            sys.exit(f"{glue_path}: {old} is named outside the import object")
    body = re.sub(
        r"^        (\w+): function\(",
        lambda k: f"        {renamed[k.group(1)]}: function(",
        glue[start:end],
        flags=re.M,
    )
    glue = glue[:start] + body + glue[end:]
    open(wasm_path, "wb").write(out)
    open(glue_path, "w", encoding="utf-8").write(glue)
    print(f"wasm-short-imports: {len(renamed)} imports from {own} renamed")


if __name__ == "__main__":
    main()
