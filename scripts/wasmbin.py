"""The few pieces of the wasm binary format the project's scripts read: LEB128 numbers and sections.

Imported by scripts/wasm-weight.py, scripts/wasm-drop-exports.py, scripts/wasm-short-imports.py and scripts/wasm-strip-sections.py (run as `python3 scripts/NAME.py`,
so this folder is on the import path).
"""


def leb(buf, i):
    """The unsigned LEB128 number at buf[i:], and the index after it."""
    result = shift = 0
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return result, i


def uleb(n):
    """n as unsigned LEB128 bytes."""
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def sections(buf):
    """(section id, payload) for each section of a module, in order."""
    assert buf[:4] == b"\0asm", "not a wasm module"
    i = 8
    while i < len(buf):
        sid = buf[i]
        size, j = leb(buf, i + 1)
        yield sid, buf[j : j + size]
        i = j + size


def import_desc(buf, i):
    """The kind of the import descriptor at buf[i:] (0 function, 1 table, 2 memory, 3 global, 4 tag),
    and the index after it. Raises ValueError on a kind the format does not have."""
    kind = buf[i]
    i += 1
    if kind == 0:  # function: type index
        _, i = leb(buf, i)
    elif kind in (1, 2):  # table: reftype, then limits; memory: limits
        i += kind == 1
        flags, i = leb(buf, i)
        _, i = leb(buf, i)
        if flags & 1:
            _, i = leb(buf, i)
    elif kind == 3:  # global: value type, mutability
        i += 2
    elif kind == 4:  # tag: attribute, type index
        i += 1
        _, i = leb(buf, i)
    else:
        raise ValueError(f"unknown import kind {kind}")
    return kind, i
