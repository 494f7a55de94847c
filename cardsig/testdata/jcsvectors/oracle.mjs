// oracle.mjs writes vectors.json from inputs.json: for each accept vector,
// the RFC 8785 form of its input (top-level "signatures" removed), computed
// with this Node.js engine's own ECMAScript serialisation, which RFC 8785
// defines the canonical form by (JSON.stringify for strings and numbers,
// object members sorted by UTF-16 code units, which is what Array.sort
// compares). It is independent of gowebpki/jcs, the library cardsig uses.
// Run: node oracle.mjs (from this directory).
import { readFileSync, writeFileSync } from "node:fs";

function canon(v) {
  if (v === null || typeof v !== "object") {
    if (typeof v === "number" && !Number.isFinite(v)) throw new Error("not finite");
    return JSON.stringify(v);
  }
  if (Array.isArray(v)) return "[" + v.map(canon).join(",") + "]";
  const keys = Object.keys(v).sort();
  return "{" + keys.map((k) => JSON.stringify(k) + ":" + canon(v[k])).join(",") + "}";
}

const inputs = JSON.parse(readFileSync("vectors.json", "utf8")).map(({ canonical, ...v }) => v);
const out = inputs.map((v) => {
  if (v.disposition !== "accept") return v;
  const doc = JSON.parse(v.input);
  delete doc.signatures;
  return { ...v, canonical: canon(doc) };
});
writeFileSync("vectors.json", JSON.stringify(out, null, 1) + "\n");
