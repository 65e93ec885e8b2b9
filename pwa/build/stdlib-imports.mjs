// Which standard-library modules the engine needs in the browser: starts Pyodide (Node) with
// its full standard library, does what the engine worker does (unpack the engine, load every
// ruleset), runs every case of shared_rules/cases and asks every query for the facts it
// reads, then lists the modules Python read from the standard-library zip.
//   node build/stdlib-imports.mjs           print the modules missing from python-stdlib.txt
//                                           (exit 1 when any is missing)
//   node build/stdlib-imports.mjs --write   rewrite python-stdlib.txt with the list
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { zipSync } from "fflate";
import { loadPyodide } from "pyodide";
import { KEPT_LIST, readKept } from "./stdlib.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const rulesPkg = path.join(root, "shared_rules");

function files(dir, base = dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === "__pycache__" || e.name.startsWith(".")) return [];
    const full = path.join(dir, e.name);
    return e.isDirectory() ? files(full, base) : [path.relative(base, full).split(path.sep).join("/")];
  });
}

const pyodide = await loadPyodide();
const zip = zipSync(Object.fromEntries(files(rulesPkg).filter((f) => /\.(py|json)$/.test(f))
  .map((f) => [`shared_rules/${f}`, fs.readFileSync(path.join(rulesPkg, f))])));
pyodide.unpackArchive(zip, "zip");
const caseDir = path.join(rulesPkg, "cases");
pyodide.FS.mkdirTree("/cases");
for (const f of fs.readdirSync(caseDir).filter((f) => f.endsWith(".json"))) {
  pyodide.FS.writeFile(`/cases/${f}`, fs.readFileSync(path.join(caseDir, f)));
}
const used = JSON.parse(pyodide.runPython(`
import json, os, sys, zipimport
import shared_rules
from shared_rules import RuleError, evaluate, introspect, list_rulesets, load_ruleset
from shared_rules.cases import load_case_files

for info in list_rulesets():
    for query in load_ruleset(info["id"])["queries"]:
        introspect.facts_read(info["id"], query)
for case in load_case_files(sorted("/cases/" + f for f in os.listdir("/cases"))):
    try:
        json.dumps(evaluate(case.request))
    except RuleError as err:
        json.dumps({"message": str(err), "field": err.field}, default=str)
json.dumps(sorted(name for name, module in list(sys.modules.items())
                  if isinstance(getattr(module, "__loader__", None), zipimport.zipimporter)))
`));

if (process.argv.includes("--write")) {
  const head = fs.readFileSync(KEPT_LIST, "utf8").split("\n").filter((l) => l.startsWith("#"));
  fs.writeFileSync(KEPT_LIST, [...head, ...used].join("\n") + "\n");
  console.log(`${used.length} modules written to ${path.relative(root, KEPT_LIST)}`);
} else {
  const kept = new Set(readKept());
  const missing = used.filter((m) => !kept.has(m));
  console.log(JSON.stringify({ used, missing }));
  process.exit(missing.length ? 1 : 0);
}
