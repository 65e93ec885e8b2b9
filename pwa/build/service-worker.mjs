// The precache list and the service worker. Workbox lists the files of the build (each with
// the SHA-256 of its bytes as revision, so the service worker can check a copy it takes from
// the page), smallest first: the app's own screens are cached within seconds, the Python
// runtime last. precache.json gives the page the same list with each file's size (its full
// size, and what it weighs on the wire: the Brotli copy where there is one), so the page can
// check that every file is cached and show the download's progress. The service worker
// (sw/service-worker.js) is bundled with Rollup, the list written into it.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import resolve from "@rollup/plugin-node-resolve";
import replace from "@rollup/plugin-replace";
import terser from "@rollup/plugin-terser";
import { rollup } from "rollup";
import { getManifest } from "workbox-build";

const here = path.dirname(fileURLToPath(import.meta.url));
const SOURCE = path.join(here, "..", "sw", "service-worker.js");
export const CACHE_ID = "judge-companion";
// Workbox names its precache `<prefix>-precache-v2-<registration scope>`.
const PRECACHE_NAME = `${CACHE_ID}-precache-v2`;
export const LIST_FILE = "precache.json";

function sha256(file) {
  return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/** Write precache.json and sw.js into `dist`; `sizes` is compressCopies' answer. Returns
 * {count, bytes, wire} of the precached files. */
export async function writeServiceWorker(dist, sizes) {
  const { manifestEntries, warnings } = await getManifest({
    globDirectory: dist,
    globPatterns: ["**/*.{html,js,mjs,css,json,wasm,zip,png,svg,webmanifest}"],
    globIgnores: ["sw.js", LIST_FILE],
    maximumFileSizeToCacheInBytes: 64 * 1024 * 1024,
    manifestTransforms: [(entries) => ({
      manifest: entries
        .map((e) => ({ url: e.url, revision: sha256(path.join(dist, e.url)), size: e.size }))
        .sort((a, b) => a.size - b.size || a.url.localeCompare(b.url)),
      warnings: [],
    })],
  });
  for (const w of warnings) console.warn(w);
  const wire = (url) => Math.min(...Object.values(sizes[url] ?? { raw: fs.statSync(path.join(dist, url)).size }));
  const files = manifestEntries.map((e) => ({ url: e.url, revision: e.revision,
    bytes: fs.statSync(path.join(dist, e.url)).size, wire: wire(e.url) }));
  fs.writeFileSync(path.join(dist, LIST_FILE), JSON.stringify({ cache: PRECACHE_NAME, files }));
  const listEntry = { url: LIST_FILE, revision: sha256(path.join(dist, LIST_FILE)) };
  const manifest = [listEntry, ...manifestEntries.map(({ url, revision }) => ({ url, revision }))];

  const bundle = await rollup({
    input: SOURCE,
    plugins: [
      resolve(),
      replace({
        preventAssignment: true,
        values: {
          "process.env.NODE_ENV": JSON.stringify("production"),
          "self.__WB_MANIFEST": JSON.stringify(manifest),
          CACHE_ID: JSON.stringify(CACHE_ID),
        },
      }),
      terser(),
    ],
  });
  await bundle.write({ file: path.join(dist, "sw.js"), format: "iife" });
  await bundle.close();
  return { count: manifest.length, bytes: files.reduce((n, f) => n + f.bytes, 0),
           wire: files.reduce((n, f) => n + f.wire, 0) };
}
