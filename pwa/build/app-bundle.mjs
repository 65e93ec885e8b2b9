// Bundles the app's page code and the engine worker with Rollup, in dist/ (after the sources
// and the two browser libraries are copied there). A restart from the service-worker cache
// otherwise loads ~25 modules one import level at a time, each a request through the service
// worker that costs the page's main thread time: at 4x CPU slowdown that alone held the clock
// back by most of a second.
//  - js/main.js: every module the first screen needs (the boot, the clock screen, the status
//    line, the offline copy, the engine's messenger, storage), one file;
//  - js/ui/<screen>.js: the other screens stay lazy (loaded when first shown; the modules
//    only they use go with them, questions-<hash>.js is penalty's and Time!'s);
//  - js/state.js, js/store.js: small re-exports of the bundle's own modules, so a test or an
//    integration that imports them gets the running app's instance (the app never loads them);
//  - js/first-clock.js: the round's time left drawn from a copy in localStorage as the page
//    opens (with clock.js), then main.js loaded; put in line into index.html;
//  - js/engine-worker.js: the worker with idb; the Python runtime (pyodide/) stays apart.
// The bundled source files and vendor/ are removed from dist afterwards.
import fs from "node:fs";
import path from "node:path";
import terser from "@rollup/plugin-terser";
import { rollup } from "rollup";

// Modules kept importable by their old URL (see above).
const FACADES = ["state", "store"];
const RUNTIME = "../pyodide/pyodide.mjs";
async function bundle(dist, input, output, rollupOptions = {}) {
  const built = await rollup({
    input,
    preserveEntrySignatures: "allow-extension",
    onwarn(warning, warn) {
      if (warning.code === "CIRCULAR_DEPENDENCY") return; // main.js <-> ui/join.js: openSession
      warn(warning);
    },
    ...rollupOptions,
    plugins: [...(rollupOptions.plugins ?? []), terser({ format: { comments: false } })],
  });
  const { output: chunks } = await built.write({ dir: path.join(dist, ".bundle"), format: "es", ...output });
  await built.close();
  return chunks;
}

/** The main module also exports each facade module as a namespace (`__state`), and a facade
 * file re-exports that namespace's names: importing js/state.js gives the bundle's module. */
function facades(js) {
  const main = path.join(js, "main.js");
  const ids = Object.fromEntries(FACADES.map((name) => [path.join(js, `${name}.js`), name]));
  return {
    name: "judge-facades",
    transform(code, id) {
      if (id !== main) return null;
      return code + FACADES.map((name) => `\nexport * as __${name} from "./${name}.js";`).join("");
    },
    generateBundle() {
      for (const [id, name] of Object.entries(ids)) {
        const names = this.getModuleInfo(id).exports.filter((n) => n !== "default");
        this.emitFile({
          type: "asset",
          fileName: `js/${name}.js`,
          source: `// The app's ${name}.js module, as bundled into main.js.\n`
            + `import { __${name} as m } from "./main.js";\nexport const { ${names.join(", ")} } = m;\n`,
        });
      }
    },
  };
}

/** Bundle dist/js and dist/vendor in place. */
export async function bundleApp(dist) {
  const tmp = path.join(dist, ".bundle");
  fs.rmSync(tmp, { recursive: true, force: true });
  const js = path.join(dist, "js");
  const page = await bundle(dist, { main: path.join(js, "main.js") }, {
    entryFileNames: "js/[name].js",
    chunkFileNames: (chunk) => {
      const ui = chunk.facadeModuleId && path.relative(js, chunk.facadeModuleId).split(path.sep).join("/");
      return ui && ui.startsWith("ui/") ? `js/${ui}` : "js/[name]-[hash].js";
    },
  }, { plugins: [facades(js)] });
  // The first clock: index.html's module that draws it becomes the bundled code in line (a
  // plain script, run as the page is read: no request, no wait for the end of the page).
  const [first] = await bundle(dist, path.join(js, "first-clock.js"),
    { entryFileNames: "js/first-clock.js", format: "iife", name: "judgeFirstClock", footer: "judgeFirstClock.openPage();" });
  const html = path.join(dist, "index.html");
  const source = fs.readFileSync(html, "utf8");
  const tag = /<script type="module" data-first-clock>[^<]*<\/script>/;
  if (!tag.test(source)) throw new Error("index.html lacks its data-first-clock script");
  fs.writeFileSync(html, source.replace(tag, () => `<script>${first.code.trim()}</script>`));
  fs.rmSync(path.join(tmp, first.fileName));
  // The worker imports the runtime by its URL relative to js/, as in the source.
  const runtime = {
    name: "judge-runtime",
    resolveId: (source) => (source === RUNTIME ? { id: RUNTIME, external: true } : null),
  };
  const worker = await bundle(dist, path.join(js, "engine-worker.js"), { entryFileNames: "js/engine-worker.js" },
    { plugins: [runtime] });
  const [workerChunk, ...more] = worker;
  if (more.length || workerChunk.imports.join() !== RUNTIME) {
    throw new Error(`the engine worker should be one file importing ${RUNTIME} only: ${worker.map((c) => c.fileName)}`);
  }
  fs.rmSync(js, { recursive: true, force: true });
  fs.rmSync(path.join(dist, "vendor"), { recursive: true, force: true });
  fs.renameSync(path.join(tmp, "js"), js);
  fs.rmSync(tmp, { recursive: true, force: true });
  return { page: page.map((c) => c.fileName).sort() };
}
