// Builds the judge app into dist/: copies the app sources, the self-hosted Python runtime
// (npm `pyodide`), the two small browser libraries, the rule JSON and a zip of the
// `shared_rules` package (the same .py and .json files the server runs), draws the icons,
// then lets Workbox write a service worker that precaches all of it.
// Usage: npm run build   (node build.mjs [--out DIR])
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { generateSW } from "workbox-build";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const outArg = process.argv.indexOf("--out");
const dist = outArg > 0 ? path.resolve(process.argv[outArg + 1]) : path.join(here, "dist");
const modules = path.join(here, "node_modules");
const rulesPkg = path.join(root, "shared_rules");

// The runtime files Pyodide fetches at start; the rest of the npm package is not needed.
const PYODIDE_FILES = [
  "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
];

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

// A zip archive (deflate) of [{name, data}], enough for Python's zipfile to read.
function zipFiles(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBuf = Buffer.from(name, "utf8");
    const packed = zlib.deflateRawSync(data, { level: 9 });
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12); // 1980-01-01: the same bytes on every build
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBuf.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBuf.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBuf, packed);
    centrals.push(central, nameBuf);
    offset += local.length + nameBuf.length + packed.length;
  }
  const centralBuf = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralBuf.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralBuf, end]);
}

// A square PNG icon: a clock face on a dark ground (drawn, so no binary lives in the repo).
function pngIcon(size, maskable) {
  const px = Buffer.alloc(size * (size * 4 + 1));
  const c = size / 2;
  const r = size * (maskable ? 0.3 : 0.4);
  const ring = size * 0.05;
  const hand = size * 0.035;
  const onSegment = (x, y, x2, y2) => {
    const dx = x2 - c, dy = y2 - c;
    const t = Math.max(0, Math.min(1, ((x - c) * dx + (y - c) * dy) / (dx * dx + dy * dy)));
    return Math.hypot(x - (c + t * dx), y - (c + t * dy)) <= hand;
  };
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    px[row] = 0;
    for (let x = 0; x < size; x++) {
      const d = Math.hypot(x + 0.5 - c, y + 0.5 - c);
      let rgb = [0x10, 0x22, 0x3a];
      if (Math.abs(d - r) <= ring / 2) rgb = [0xff, 0xd1, 0x4a];
      else if (onSegment(x + 0.5, y + 0.5, c, c - r * 0.7)
               || onSegment(x + 0.5, y + 0.5, c + r * 0.5, c)) rgb = [0xff, 0xff, 0xff];
      px.set([...rgb, 0xff], row + 1 + x * 4);
    }
  }
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr), chunk("IDAT", zlib.deflateSync(px, { level: 9 })), chunk("IEND", Buffer.alloc(0)),
  ]);
}

function readJSON(file) {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

async function build() {
  fs.rmSync(dist, { recursive: true, force: true });
  copyDir(path.join(here, "src"), dist);

  const vendor = path.join(dist, "vendor");
  fs.mkdirSync(vendor, { recursive: true });
  fs.copyFileSync(path.join(modules, "idb/build/index.js"), path.join(vendor, "idb.js"));
  fs.copyFileSync(path.join(modules, "workbox-window/build/workbox-window.prod.mjs"),
    path.join(vendor, "workbox-window.mjs"));

  const py = path.join(dist, "pyodide");
  fs.mkdirSync(py, { recursive: true });
  for (const name of PYODIDE_FILES) fs.copyFileSync(path.join(modules, "pyodide", name), path.join(py, name));

  // The engine package, packed for pyodide.unpackArchive (it lands on sys.path).
  const pkgFiles = walk(rulesPkg).filter((f) => f.endsWith(".py") || f.endsWith(".json"));
  const zip = zipFiles(pkgFiles.map((f) => ({
    name: `shared_rules/${f}`, data: fs.readFileSync(path.join(rulesPkg, f)),
  })));
  const engineDir = path.join(dist, "engine");
  fs.mkdirSync(engineDir, { recursive: true });
  fs.writeFileSync(path.join(engineDir, "shared_rules.zip"), zip);

  // Rule texts for the screen (names, summaries, topics); answers still come from Python.
  const rulesDir = path.join(dist, "rules");
  fs.mkdirSync(rulesDir, { recursive: true });
  const index = [];
  const rulesetDir = path.join(rulesPkg, "rulesets");
  const rulesetFiles = fs.existsSync(rulesetDir)
    ? fs.readdirSync(rulesetDir).filter((f) => f.endsWith(".json")).sort() : [];
  for (const file of rulesetFiles) {
    const data = readJSON(path.join(rulesetDir, file));
    fs.copyFileSync(path.join(rulesetDir, file), path.join(rulesDir, file));
    index.push({
      id: data.id, title: data.title, version: data.document?.version ?? null,
      levels: (data.levels ?? []).map((l) => ({ id: l.id, name: l.name })),
      defaults: data.defaults ?? {},
      queries: Object.keys(data.queries ?? {}),
    });
  }
  fs.writeFileSync(path.join(rulesDir, "index.json"), JSON.stringify(index));
  fs.copyFileSync(path.join(rulesPkg, "queries.json"), path.join(rulesDir, "queries.json"));

  const icons = path.join(dist, "icons");
  fs.mkdirSync(icons, { recursive: true });
  fs.writeFileSync(path.join(icons, "icon-192.png"), pngIcon(192, false));
  fs.writeFileSync(path.join(icons, "icon-512.png"), pngIcon(512, false));
  fs.writeFileSync(path.join(icons, "maskable-512.png"), pngIcon(512, true));

  // The build's version: a hash of every file the service worker will precache.
  const hash = createHash("sha256");
  for (const f of walk(dist)) hash.update(f).update(fs.readFileSync(path.join(dist, f)));
  const version = hash.digest("hex").slice(0, 12);
  fs.writeFileSync(path.join(dist, "version.json"), JSON.stringify({ version }));

  const { count, size, warnings } = await generateSW({
    swDest: path.join(dist, "sw.js"),
    globDirectory: dist,
    globPatterns: ["**/*.{html,js,mjs,css,json,wasm,zip,png,svg,webmanifest}"],
    globIgnores: ["sw.js"],
    maximumFileSizeToCacheInBytes: 64 * 1024 * 1024,
    inlineWorkboxRuntime: true,
    cacheId: "judge-companion",
    cleanupOutdatedCaches: true,
    clientsClaim: true,
    skipWaiting: false,
    sourcemap: false,
    mode: "production",
  });
  for (const w of warnings) console.warn(w);

  // Gzip copies beside the files worth compressing (the server's WhiteNoise sends them to
  // browsers that accept gzip); written after the service worker so they are not precached.
  let raw = 0;
  let packed = 0;
  for (const f of walk(dist)) {
    if (!/\.(html|js|mjs|css|json|wasm|svg|webmanifest)$/.test(f)) continue;
    const bytes = fs.readFileSync(path.join(dist, f));
    const gz = zlib.gzipSync(bytes, { level: 9 });
    if (bytes.length < 1024 || gz.length > 0.9 * bytes.length) continue;
    fs.writeFileSync(path.join(dist, `${f}.gz`), gz);
    raw += bytes.length;
    packed += gz.length;
  }
  console.log(`gzip copies: ${(raw / 1048576).toFixed(1)} MiB -> ${(packed / 1048576).toFixed(1)} MiB`);
  console.log(`built ${path.relative(root, dist) || dist}: version ${version}, `
    + `${count} files precached (${(size / 1048576).toFixed(1)} MiB), engine zip ${pkgFiles.length} files`);
}

build().catch((err) => {
  console.error(err);
  process.exit(1);
});
