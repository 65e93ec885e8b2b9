// The Python standard library the app ships: only the modules the engine (and Pyodide's own
// start) import, listed in python-stdlib.txt, out of the npm package's python_stdlib.zip.
// The zip is written uncompressed: Brotli over the whole file packs it better than
// per-file deflate, and Python reads stored entries without inflating them.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { unzipSync, zipSync } from "fflate";

const here = path.dirname(fileURLToPath(import.meta.url));
export const KEPT_LIST = path.join(here, "python-stdlib.txt");
const ZIP_DATE = new Date("2000-01-01T00:00:00Z");

/** The module names of python-stdlib.txt (comments and blank lines skipped). */
export function readKept() {
  return fs.readFileSync(KEPT_LIST, "utf8").split("\n").map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
}

/** Write the trimmed standard library from `from` (the full zip) to `to`; returns
 * {modules, bytes}. Throws when a listed module is not in the full zip (a Pyodide upgrade
 * that moved it): the list must be made again (node build/stdlib-imports.mjs --write). */
export function trimStdlib(from, to) {
  const all = unzipSync(fs.readFileSync(from));
  const kept = {};
  for (const name of readKept()) {
    const base = name.replaceAll(".", "/");
    const file = [`${base}.py`, `${base}/__init__.py`].find((f) => f in all);
    if (!file) throw new Error(`python-stdlib.txt names ${name}, which ${path.basename(from)} does not hold`);
    kept[file] = [all[file], { mtime: ZIP_DATE, level: 0 }];
  }
  const zip = zipSync(kept);
  fs.writeFileSync(to, zip);
  return { modules: Object.keys(kept).length, bytes: zip.length };
}
