// Builds the judge app into dist/: copies the app sources and the two small browser libraries
// and bundles them with Rollup (build/app-bundle.mjs), the self-hosted Python runtime
// (npm `pyodide`), the rule JSON and a zip of the
// `shared_rules` package (the same .py and .json files the server runs), the icons (pwa/src/icons),
// the standard library trimmed to what the engine imports (build/stdlib.mjs), Brotli and gzip
// copies (build/compress.mjs), then the service worker that precaches all of it
// (build/service-worker.mjs).
// Rulesets come from the package and from each folder named in SHARED_RULES_PATH (separated by
// the platform's path separator, each laid out like the package: rulesets/<id>.json), as the
// engine finds them; in the app they all sit in the engine zip's shared_rules/rulesets/. The
// translations of rule texts travel once, in the app's catalogs (dist/i18n/<language>.json),
// which the page hands to the engine (js/engine.js, shared_rules translations.give): the
// engine zip carries none. The web app manifest is written in each language
// (build/manifests.mjs).
// Usage: npm run build   (node build.mjs [--out DIR])
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { zipSync } from "fflate";
import { bundleApp } from "./build/app-bundle.mjs";
import { compressCopies } from "./build/compress.mjs";
import { writeManifests } from "./build/manifests.mjs";
import { writeServiceWorker } from "./build/service-worker.mjs";
import { LANGUAGES as CATALOG_LANGUAGES, firstWords } from "./build/messages.mjs";
import { trimStdlib } from "./build/stdlib.mjs";
import { initialMemoryBytes } from "./build/wasm-memory.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const outArg = process.argv.indexOf("--out");
const dist = outArg > 0 ? path.resolve(process.argv[outArg + 1]) : path.join(here, "dist");
const modules = path.join(here, "node_modules");
const rulesPkg = path.join(root, "shared_rules");
const cacheDir = path.join(here, ".cache", "compressed");

// The runtime files Pyodide fetches at start; the rest of the npm package is not needed. The
// standard library is trimmed, and the lock file keeps its header only: the engine loads no
// package, and the list of every package Pyodide offers weighs 119 KB.
const ZIP_DATE = new Date("2000-01-01T00:00:00Z");
const PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm"];

function copyDir(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    if (entry.isDirectory()) copyDir(src, dst);
    else fs.copyFileSync(src, dst);
  }
}

function walk(dir, base = dir) {
  const files = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "__pycache__" || entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...walk(full, base));
    else files.push(path.relative(base, full).split(path.sep).join("/"));
  }
  return files.sort();
}


/** The Python that runs the engine's CLI: $PYTHON, else the project's virtualenv, else python3. */
function python() {
  if (process.env.PYTHON) return process.env.PYTHON;
  const venv = path.join(root, ".venv", "bin", "python");
  return fs.existsSync(venv) ? venv : "python3";
}

function readJSON(file) {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

/** {id: path} of every ruleset file: the package's, then each SHARED_RULES_PATH folder's
 * (shared_rules/library.py reads the same places; one id in two folders is an error). */
function rulesetFiles() {
  const sub = "rulesets";
  const extra = (process.env.SHARED_RULES_PATH || "").split(path.delimiter).filter((p) => p.trim())
    .map((p) => path.resolve(p));
  const found = {};
  for (const folder of [...new Set([rulesPkg, ...extra])]) {
    const dir = path.join(folder, sub);
    if (!fs.existsSync(dir)) continue;
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
      const id = file.slice(0, -".json".length);
      if (found[id]) throw new Error(`${sub} ${id} is in two folders: ${found[id]} and ${path.join(dir, file)}`);
      found[id] = path.join(dir, file);
    }
  }
  return Object.fromEntries(Object.entries(found).sort(([a], [b]) => a.localeCompare(b)));
}

async function build() {
  fs.rmSync(dist, { recursive: true, force: true });
  copyDir(path.join(here, "src"), dist);
  writeManifests(dist);

  const vendor = path.join(dist, "vendor");
  fs.mkdirSync(vendor, { recursive: true });
  fs.copyFileSync(path.join(modules, "idb/build/index.js"), path.join(vendor, "idb.js"));
  fs.copyFileSync(path.join(modules, "workbox-window/build/workbox-window.prod.mjs"),
    path.join(vendor, "workbox-window.mjs"));
  // index.html's own words in each language, for the first frame (js/first-words.js).
  fs.writeFileSync(path.join(dist, "js", "first-words.js"),
    `export const FIRST_WORDS = ${JSON.stringify(firstWords())};\n`);
  // The page's modules and the worker, bundled in place (build/app-bundle.mjs).
  await bundleApp(dist);

  const py = path.join(dist, "pyodide");
  fs.mkdirSync(py, { recursive: true });
  for (const name of PYODIDE_FILES) fs.copyFileSync(path.join(modules, "pyodide", name), path.join(py, name));
  const stdlib = trimStdlib(path.join(modules, "pyodide", "python_stdlib.zip"), path.join(py, "python_stdlib.zip"));
  const lock = readJSON(path.join(modules, "pyodide", "pyodide-lock.json"));
  fs.writeFileSync(path.join(py, "pyodide-lock.json"), JSON.stringify({ info: lock.info, packages: {} }));

  // The engine package, packed for pyodide.unpackArchive (it lands on sys.path), with every
  // ruleset found (those of other folders join the package's own); no translation of rule
  // texts: the page hands the engine those its catalogs carry (below).
  // The glossary (the translators' word list, read by a test) is not the engine's: it stays out.
  const rulesets = rulesetFiles();
  const pkgFiles = walk(rulesPkg).filter((f) => (f.endsWith(".py") || f.endsWith(".json"))
    && !f.startsWith("rulesets/") && !f.startsWith("cases/") && !f.startsWith("translations/")
    && !f.startsWith("glossary/"));
  const entries = pkgFiles.map((f) => [`shared_rules/${f}`, path.join(rulesPkg, f)]);
  for (const [id, file] of Object.entries(rulesets)) entries.push([`shared_rules/rulesets/${id}.json`, file]);
  // A fixed date keeps the archive's bytes the same from build to build; stored, not
  // deflated, as the server's Brotli copy packs the whole archive better.
  const zip = zipSync(Object.fromEntries(entries.map(([name, file]) => [
    name, [fs.readFileSync(file), { mtime: ZIP_DATE }],
  ])), { level: 0 });
  const engineDir = path.join(dist, "engine");
  fs.mkdirSync(engineDir, { recursive: true });
  fs.writeFileSync(path.join(engineDir, "shared_rules.zip"), zip);

  // Rule texts for the screen (names, summaries, topics); answers still come from Python.
  const rulesDir = path.join(dist, "rules");
  fs.mkdirSync(rulesDir, { recursive: true });
  const entryOf = (data) => ({
    id: data.id, title: data.title, version: data.document?.version ?? null,
    level_label: data.level_label ?? null,
    levels: (data.levels ?? []).map((l) => ({ id: l.id, name: l.name })),
    best_of: data.best_of ?? null,
    defaults: data.defaults ?? {},
    queries: Object.keys(data.queries ?? {}),
  });
  for (const [id, file] of Object.entries(rulesets)) fs.copyFileSync(file, path.join(rulesDir, `${id}.json`));
  fs.writeFileSync(path.join(rulesDir, "index.json"),
    JSON.stringify(Object.values(rulesets).map((file) => entryOf(readJSON(file)))));
  fs.copyFileSync(path.join(rulesPkg, "queries.json"), path.join(rulesDir, "queries.json"));
  // Each other language's words in one file, dist/i18n/<language>.json (one request, so a first
  // visit on a slow link fetches five files for them, not thirty): the app's message catalog
  // (src/i18n) and, under "rules", every ruleset, queries.json and the ruleset index translated
  // by the engine's own code (python -m shared_rules texts: standard library only, so any
  // Python 3 runs it), a text with no current translation in English with "rule_mark" in
  // front: the screens read them (js/i18n.js) and the engine is handed them (js/engine.js).
  // Precached, so a language can be switched offline.
  const texts = fs.mkdtempSync(path.join(os.tmpdir(), "judge-texts-"));
  try {
    execFileSync(python(), ["-m", "shared_rules", "texts", "--out", texts],
      { cwd: root, env: { ...process.env, PYTHONPATH: root }, stdio: ["ignore", "inherit", "inherit"] });
    const ruleMark = readJSON(path.join(texts, "mark.json")).mark;
    for (const language of CATALOG_LANGUAGES) {
      const file = path.join(dist, "i18n", `${language}.json`);
      const catalog = fs.existsSync(file) ? readJSON(file) : { language, messages: {} };
      const rules = { queries: readJSON(path.join(texts, `queries.${language}.json`)) };
      for (const id of Object.keys(rulesets)) rules[id] = readJSON(path.join(texts, `${id}.${language}.json`));
      rules.index = Object.keys(rulesets).map((id) => entryOf(rules[id]));
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ ...catalog, rule_mark: ruleMark, rules }));
    }
  } finally {
    fs.rmSync(texts, { recursive: true, force: true });
  }

  // The build's version: a hash of every file the service worker will precache. A memory
  // snapshot of the interpreter can be restored only while its heap fits the runtime's
  // initial memory (build/wasm-memory.mjs); the worker checks before keeping one.
  const hash = createHash("sha256");
  for (const f of walk(dist)) hash.update(f).update(fs.readFileSync(path.join(dist, f)));
  const version = hash.digest("hex").slice(0, 12);
  const snapshotHeapLimit = initialMemoryBytes(path.join(py, "pyodide.asm.wasm"));
  fs.writeFileSync(path.join(dist, "version.json"), JSON.stringify({ version, snapshot_heap_limit: snapshotHeapLimit }));

  const sizes = compressCopies(dist, walk(dist), cacheDir);
  const precached = await writeServiceWorker(dist, sizes);
  compressCopies(dist, ["sw.js", "precache.json"], cacheDir);
  const mib = (n) => `${(n / 1048576).toFixed(2)} MiB`;
  console.log(`built ${path.relative(root, dist) || dist}: version ${version}, ${precached.count} files precached `
    + `(${mib(precached.bytes)}; ${mib(precached.wire)} on the wire), engine zip ${entries.length} files, `
    + `standard library ${stdlib.modules} modules (${mib(stdlib.bytes)})`);
}

build().catch((err) => {
  console.error(err);
  process.exit(1);
});
