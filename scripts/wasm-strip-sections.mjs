// Drops the `producers` and `target_features` custom sections from every module in a directory (run by
// scripts/wasm-split-hook.sh after wasm-opt, release builds): `node scripts/wasm-strip-sections.mjs DIR`.
// The browser ignores both, yet each module carried about 200 bytes of them (wasm-split-cli's and
// rustc's names and versions, the features list) and gzip compresses each file from a cold start.
// The sections are cut out byte for byte: re-encoding the main module with wasm-opt to the same end
// grew it by 276 bytes.
import fs from "node:fs";
import path from "node:path";

const DROP = new Set(["producers", "target_features"]);
const dir = process.argv[2];
if (!dir) throw new Error("usage: node scripts/wasm-strip-sections.mjs DIR");

/** The unsigned LEB128 number at `at`: [value, the offset after it]. */
function leb(bytes, at) {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) return [value, at];
  }
}

let saved = 0;
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".wasm"))) {
  const bytes = fs.readFileSync(path.join(dir, file));
  if (bytes.readUInt32LE(0) !== 0x6d736100) continue;
  const kept = [bytes.subarray(0, 8)];
  for (let at = 8; at < bytes.length; ) {
    const [size, body] = leb(bytes, at + 1);
    const end = body + size;
    let drop = false;
    if (bytes[at] === 0) {
      const [len, name] = leb(bytes, body);
      drop = DROP.has(bytes.subarray(name, name + len).toString());
    }
    if (!drop) kept.push(bytes.subarray(at, end));
    at = end;
  }
  const out = Buffer.concat(kept);
  saved += bytes.length - out.length;
  if (out.length !== bytes.length) fs.writeFileSync(path.join(dir, file), out);
}
console.log(`wasm-strip-sections: ${saved} bytes of producers and target_features sections dropped`);
