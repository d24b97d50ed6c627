"""The few pieces of the wasm binary format the project's scripts read: LEB128 numbers and sections.

Imported by scripts/wasm-weight.py and scripts/wasm-drop-exports.py (run as `python3 scripts/NAME.py`,
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
