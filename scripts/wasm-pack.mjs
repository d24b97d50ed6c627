// Packs the split chunks that are always fetched together into one file each (run by
// scripts/wasm-split-hook.sh after wasm-opt, release builds): `node scripts/wasm-pack.mjs DIR`.
//
// wasm-split-cli gives every part (web/src/on_demand.rs) its own module and every set of functions
// that some parts share a chunk of its own, 131 modules, most of them small: the app's first visit
// fetched 77 files, and gzip compresses each one from a cold start (174.7 KB gzipped one by one, 148.1
// KB as one file). A file here is packed with the others that exactly the same views need, so no view
// downloads a byte more than before and most download fewer files.
//
// Which views need a file: the parts that use it (the split loader's dependency lists, or the part
// itself for its own module) and every part that can only be asked for once one of those has loaded
// (`AFTER` in scripts/pack-order.mjs; the e2e checks it against the order each view asks for parts in).
// Two files are needed by the same views when those sets are equal; each such set with more than one
// file becomes `pack_<first parts>.wasm`, named after the parts that can load it first. A pack is a valid wasm module holding its modules as custom sections (so every server sends
// it as application/wasm and compresses it like the chunks): the loader fetches it once (a failed
// fetch is retried on the next load, as the loader's own loads are) and instantiates each module from
// its section. The loader (__wasm_split.js) is rewritten to match; scripts/bundle-parts.mjs reads it.
import fs from "node:fs";
import path from "node:path";

import { AFTER } from "./pack-order.mjs";

const dir = process.argv[2];
if (!dir) throw new Error("usage: node scripts/wasm-pack.mjs DIR (the staging directory)");
const loaderPath = path.join(dir, "__wasm_split.js");

const js = fs.readFileSync(loaderPath, "utf8");
// Each load as wasm-split-cli writes it: `const __chunk_N = makeLoad(() => { … fetch(new URL("./F", …)) …
// }, [deps]);` for a chunk, `export const __wasm_split_load_<part>_<hash> = wrapAsyncCb(makeLoad(…))` for
// a part.
const FETCHER =
  /makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/([^"]+\.wasm)", import\.meta\.url\)\);\s*src\.catch\(\(\) => \{\}\);\s*return async \(imports\) => \(WebAssembly\.instantiateStreaming\(src, imports\)\);\s*\}\s*, \[([^\]]*)\]\)/;
const DECL = /(?:\bconst (__chunk_\d+)|\bexport const __wasm_split_load_(\w+?)_\d+) = (?:wrapAsyncCb\()?/g;
const decls = [...js.matchAll(DECL)];
if (decls.length === 0) throw new Error(`wasm-pack: no loads found in ${loaderPath}`);
const loads = decls.map((m, i) => {
  const body = js.slice(m.index + m[0].length, i + 1 < decls.length ? decls[i + 1].index : js.length);
  const f = body.match(FETCHER);
  if (!f || body.indexOf(f[0]) !== 0) throw new Error(`wasm-pack: unexpected load ${m[0]}: ${body.slice(0, 200)}`);
  const deps = f[2].split(",").map((s) => s.trim()).filter(Boolean);
  return { chunk: m[1], part: m[2], file: f[1], start: m.index + m[0].length, end: m.index + m[0].length + f[0].length, deps };
});

const fileOf = new Map(loads.filter((l) => l.chunk).map((l) => [l.chunk, l.file]));
/** The parts that use each file. */
const users = new Map(loads.map((l) => [l.file, new Set()]));
for (const l of loads.filter((l) => l.part)) {
  users.get(l.file).add(l.part);
  for (const d of l.deps) users.get(fileOf.get(d)).add(l.part);
}
const parts = [...new Set(loads.filter((l) => l.part).map((l) => l.part))];
/** Whether `q` loads only once one of `parts` has: every part whose code asks for it is one of them. */
const follows = (q, parts) => (AFTER[q] || []).length > 0 && AFTER[q].every((r) => parts.has(r));
/** Every part that can be loaded only once `p` has (p's successors, transitively), and p. */
const later = (p) => {
  const out = new Set([p]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const q of parts) {
      if (!out.has(q) && follows(q, out)) {
        out.add(q);
        grew = true;
      }
    }
  }
  return out;
};
const groups = new Map();
// A chunk that waits for others (none do today) keeps its own load: a pack's modules wait for nothing.
const waits = new Set(loads.filter((l) => l.chunk && l.deps.length).map((l) => l.file));
for (const [file, us] of users) {
  if (us.size === 0 || waits.has(file)) continue;
  const needed = new Set([...us].flatMap((p) => [...later(p)]));
  // Named after the parts of the set that none of its others must precede.
  const first = [...needed].filter((p) => !follows(p, needed)).sort();
  const key = [...needed].sort().join(",");
  if (!groups.has(key)) groups.set(key, { name: `pack_${first.join("-")}.wasm`, files: [] });
  groups.get(key).files.push(file);
}

/** The custom section that holds each module of a pack. */
const SECTION = "module";
const leb = (n) => {
  const out = [];
  do {
    let b = n & 0x7f;
    n = Math.floor(n / 128);
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return Buffer.from(out);
};
/** The pack holding each packed file. */
const packOf = new Map();
const packs = [...groups.values()].filter((g) => g.files.length > 1);
for (const [i, g] of packs.entries()) {
  g.id = `__pack_${i}`;
  const pieces = [Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])];
  for (const file of g.files) {
    const bytes = fs.readFileSync(path.join(dir, file));
    const payload = Buffer.concat([leb(SECTION.length), Buffer.from(SECTION), bytes]);
    pieces.push(Buffer.from([0]), leb(payload.length), payload);
    packOf.set(file, g.id);
  }
  fs.writeFileSync(path.join(dir, g.name), Buffer.concat(pieces));
  for (const file of g.files) fs.rmSync(path.join(dir, file));
}

// A packed chunk's load goes (its pack's load takes its place in the parts' lists); a part whose own
// module is packed waits for its lists alone.
const depsOf = (deps) => [...new Set(deps.map((d) => packOf.get(fileOf.get(d)) ?? d))].join(", ");
let out = "";
let at = 0;
for (const l of loads) {
  const pack = packOf.get(l.file);
  if (l.chunk && !pack) continue;
  const from = l.chunk ? js.lastIndexOf("\n", js.lastIndexOf("const " + l.chunk, l.start)) : l.start;
  let to = l.end;
  if (l.chunk) to = js.indexOf("\n", l.end);
  out += js.slice(at, from);
  if (!l.chunk) {
    out += pack
      ? `makeLoad(() => async () => {}, [${depsOf(l.deps)}])`
      : js.slice(l.start, l.end).replace(/, \[[^\]]*\]\)$/, `, [${depsOf(l.deps)}])`);
  }
  at = to;
}
out += js.slice(at);
const helpers = `
/* Packs (scripts/wasm-pack.mjs): the modules that the same views need, one file each, as custom sections
   of an otherwise empty module; a pack's modules are instantiated together, each once (a module
   instantiated again would reset its statics), as makeLoad keeps only successes. */
function loadPack(name) {
    const instances = [];
    return makeLoad(() => {
        const src = fetch(new URL(name, import.meta.url)).then((r) => {
            if (!r.ok) throw new Error(\`\${name}: \${r.status}\`);
            return r.arrayBuffer();
        }).then((bytes) => WebAssembly.compile(bytes));
        src.catch(() => {});
        return async (imports) => Promise.all(WebAssembly.Module.customSections(await src, "${SECTION}").map((m, i) => {
            if (instances[i] === undefined) {
                const thisInstance = instances[i] = WebAssembly.instantiate(m, imports);
                thisInstance.catch(() => {
                    if (instances[i] === thisInstance) instances[i] = undefined;
                });
            }
            return instances[i];
        }));
    }, []);
}
${packs.map((g) => `const ${g.id} = loadPack("./${g.name}");`).join("\n")}
`;
const firstDecl = out.search(/\n(?:\/\*[^\n]*\*\/\n)?(?:export )?const __/);
if (packs.length) out = out.slice(0, firstDecl) + "\n" + helpers + out.slice(firstDecl);
fs.writeFileSync(loaderPath, out);
const packedCount = packs.reduce((n, g) => n + g.files.length, 0);
console.log(
  `wasm-pack: ${packedCount} of ${loads.length} modules in ${packs.length} packs: ${packs.map((g) => `${g.name} (${g.files.length})`).join(", ")}`,
);
