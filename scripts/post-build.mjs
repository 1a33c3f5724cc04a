// Trunk post-build hook, in four steps on the staged site (one script,
// because Trunk runs the hooks of one stage at the same time). Run by hand
// on a built site (`node scripts/post-build.mjs DIR`, as
// scripts/remove-solutions.sh does) it skips steps 0 and 0b and writes steps 1 to 3
// again for the files the folder holds now.
//
// 0. Our reference solutions, as plain files beside the site:
//    `solutions/<slug>.wgsl`, copied from the set's shaders/ (the
//    repository's, or $GPU_PUZZLES_SET/shaders for a workshop's own set).
//    Neither wasm holds them: the page fetches one when a student asks to
//    see it, the judge's worker when a performance case is timed against
//    it or the capstone runs one of ours. A build without them is the same
//    site without that folder (scripts/build-site.sh --no-solutions), so
//    it needs no second compile. `<meta name="gpu-puzzles-solutions">`
//    says the folder is there and versions it (`?v=` and a hash of its
//    files); without the folder the meta is absent and the page offers no
//    solution.
// 0b. Each puzzle's page data, as files beside the site:
//    `puzzle-data/<slug>.postcard` and `VERSION`, baked by web/build.rs into
//    its OUT_DIR. The page's wasm holds only the set's table of contents
//    and fetches a puzzle's file when the puzzle is opened
//    (web/src/puzzle_data.rs), with `?v=VERSION`. Of the baked folders in
//    cargo's target directory (one per profile and feature set), the one
//    copied is the one whose version (16 hex digits) the staged page's wasm
//    carries, so a folder of another build is never shipped; when none
//    is, the build fails here.
// 1. The judge's worker gets a versioned address. Trunk hashes the page's
//    own files into their names, but not a worker's: a host that lets
//    browsers cache files for long could serve a new page with an old
//    worker. The page starts the worker from the address written here,
//    `worker-loader.js?v=HASH` (HASH: SHA-256 of the worker's three files),
//    and worker-loader.js asks for its two files with the same query.
//    The capstone's model (models/generate/, copied by Trunk) gets a
//    versioned address the same way: `?v=HASH` of its files, in
//    `<meta name="gpu-puzzles-model">`, which the page passes to the worker.
// 2. A Content-Security-Policy that allows only the site's own scripts and
//    wasm. Trunk's loader is an inline module script whose text names the
//    hashed files, so it is allowed by its SHA-256, computed here for each
//    build. Styles may be inline (Leptos sets style attributes); scripts,
//    objects, frames and other origins may not.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const dir = process.env.TRUNK_STAGING_DIR || process.argv[2] || "dist";
const file = path.join(dir, "index.html");
let html = fs.readFileSync(file, "utf8");
const sha256 = (data, encoding) => crypto.createHash("sha256").update(data).digest(encoding);

const SOLUTIONS_DIR = "solutions";
if (process.env.TRUNK_STAGING_DIR) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const shaders = path.join(process.env.GPU_PUZZLES_SET ? path.resolve(process.env.GPU_PUZZLES_SET) : root, "shaders");
  const out = path.join(dir, SOLUTIONS_DIR);
  fs.rmSync(out, { recursive: true, force: true });
  const wgsl = fs.existsSync(shaders) ? fs.readdirSync(shaders).filter((f) => f.endsWith(".wgsl")) : [];
  if (wgsl.length === 0) console.warn(`post-build.mjs: no solutions (*.wgsl) in ${shaders}: the site offers none`);
  else fs.mkdirSync(out);
  for (const f of wgsl) fs.copyFileSync(path.join(shaders, f), path.join(out, f));
}
// Cargo's target directory, as cargo itself resolves it (CARGO_TARGET_DIR,
// a config file, or target/): steps 0b and 0c read the build's outputs there.
const targetDir = () => {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const metadata = execFileSync("cargo", ["metadata", "--no-deps", "--format-version", "1", "--offline"], { cwd: root, maxBuffer: 64 << 20 });
  return JSON.parse(metadata).target_directory;
};
const DATA_DIR = "puzzle-data";
const target = process.env.TRUNK_STAGING_DIR ? targetDir() : undefined;
if (process.env.TRUNK_STAGING_DIR) {
  const pageWasm = fs.readdirSync(dir).find((f) => /^gpu-puzzles-web-.*_bg\.wasm$/.test(f));
  if (!pageWasm) throw new Error(`post-build.mjs: no page wasm (gpu-puzzles-web-*_bg.wasm) in ${dir}`);
  const wasm = fs.readFileSync(path.join(dir, pageWasm));
  const built = path.join(target, "wasm32-unknown-unknown");
  const candidates = fs.existsSync(built)
    ? fs.readdirSync(built).flatMap((profile) => {
        const builds = path.join(built, profile, "build");
        if (!fs.existsSync(builds)) return [];
        return fs.readdirSync(builds).filter((b) => b.startsWith("gpu-puzzles-web-")).map((b) => path.join(builds, b, "out", DATA_DIR));
      })
    : [];
  const versionOf = (c) => (fs.existsSync(path.join(c, "VERSION")) ? fs.readFileSync(path.join(c, "VERSION"), "latin1") : "");
  const source = candidates.find((c) => /^[0-9a-f]{16}$/.test(versionOf(c)) && wasm.includes(versionOf(c), 0, "latin1"));
  if (!source) throw new Error(`post-build.mjs: none of the ${candidates.length} baked puzzle-data folders under ${built} has the version ${pageWasm} asks for`);
  const out = path.join(dir, DATA_DIR);
  fs.rmSync(out, { recursive: true, force: true });
  fs.cpSync(source, out, { recursive: true });
}
// 0c. The views' module, split off the page's wasm (web/src/deferred.rs,
//    scripts/split/wasm-bindgen): `views-HASH.wasm` and the JavaScript that
//    fetches it, `__wasm_split-HASH.js`, which the staged page's JavaScript
//    imports. They are taken from the folder the split wrote them to (of
//    the profiles' folders in cargo's target directory, the one holding the
//    file the page imports), with the page's hashed JavaScript name written
//    in, and each wasm optimised as Trunk optimises the page's (-O1).
if (process.env.TRUNK_STAGING_DIR) {
  const pageJs = fs.readdirSync(dir).find((f) => /^gpu-puzzles-web-[0-9a-f]+\.js$/.test(f));
  if (!pageJs) throw new Error(`post-build.mjs: no page JavaScript (gpu-puzzles-web-*.js) in ${dir}`);
  const splitJs = fs.readFileSync(path.join(dir, pageJs), "utf8").match(/__wasm_split-[0-9a-f]{16}\.js/)?.[0];
  if (!splitJs) throw new Error(`post-build.mjs: ${pageJs} imports no __wasm_split-HASH.js: was the page built without scripts/split/ first on PATH (scripts/env.sh)?`);
  const bindgen = path.join(target, "wasm-bindgen");
  const from = ["release", "debug"].map((p) => path.join(bindgen, p, "split-site")).find((d) => fs.existsSync(path.join(d, splitJs)));
  if (!from) throw new Error(`post-build.mjs: ${splitJs}, which ${pageJs} imports, is in no split-site folder under ${bindgen}`);
  for (const f of fs.readdirSync(from)) {
    const to = path.join(dir, f);
    if (f.endsWith(".js")) {
      const js = fs.readFileSync(path.join(from, f), "utf8");
      if (!js.includes('"./gpu-puzzles-web.js"')) throw new Error(`post-build.mjs: ${f} does not import ./gpu-puzzles-web.js`);
      // The split's loader compiles a module as it streams in, which
      // browsers allow only for files served as application/wasm. Like
      // wasm-bindgen's own loader for the page's wasm, fall back to reading
      // the whole file on a host that serves .wasm as something else.
      const streaming = "WebAssembly.instantiateStreaming(src, imports)";
      if (!js.includes(streaming)) throw new Error(`post-build.mjs: ${f} no longer calls ${streaming}: check the fallback below against wasm_split_cli_support's loader`);
      const fallback = `async function instantiateAnyType(fetched, imports) {
    const response = await fetched;
    if (!response.ok) throw new Error(\`\${response.url}: HTTP \${response.status}\`);
    if ((response.headers.get("content-type") || "").split(";")[0].trim() === "application/wasm") return WebAssembly.instantiateStreaming(response, imports);
    return WebAssembly.instantiate(await response.arrayBuffer(), imports);
}
`;
      fs.writeFileSync(to, fallback + js.replaceAll('"./gpu-puzzles-web.js"', `"./${pageJs}"`).replace(streaming, "instantiateAnyType(src, imports)"));
    } else {
      execFileSync("wasm-opt", ["-O1", "--enable-bulk-memory", "--enable-nontrapping-float-to-int", "--enable-sign-ext", "--enable-mutable-globals", path.join(from, f), "-o", to], { stdio: ["ignore", "ignore", "inherit"] });
    }
  }
}
const dataVersion = fs.existsSync(path.join(dir, DATA_DIR, "VERSION")) ? fs.readFileSync(path.join(dir, DATA_DIR, "VERSION"), "latin1") : "";
if (!dataVersion) throw new Error(`post-build.mjs: no ${DATA_DIR}/VERSION in ${dir}`);

const solutionFiles = fs.existsSync(path.join(dir, SOLUTIONS_DIR))
  ? fs.readdirSync(path.join(dir, SOLUTIONS_DIR)).filter((f) => f.endsWith(".wgsl")).sort()
  : [];
html = html.replace(/<meta name="gpu-puzzles-solutions"[^>]*>\s*/, "");
let solutionsQuery = "";
if (solutionFiles.length > 0) {
  const solutionsDigest = crypto.createHash("sha256");
  for (const f of solutionFiles) solutionsDigest.update(f).update(sha256(fs.readFileSync(path.join(dir, SOLUTIONS_DIR, f)), "hex"));
  solutionsQuery = `?v=${solutionsDigest.digest("hex").slice(0, 16)}`;
  html = html.replace('<meta charset="utf-8" />', `<meta charset="utf-8" />\n    <meta name="gpu-puzzles-solutions" content="${solutionsQuery}" />`);
}

const workerFiles = ["worker-loader.js", "gpu-puzzles-worker.js", "gpu-puzzles-worker_bg.wasm"];
const digest = crypto.createHash("sha256");
for (const f of workerFiles) digest.update(sha256(fs.readFileSync(path.join(dir, f)), "hex"));
const workerUrl = `./worker-loader.js?v=${digest.digest("hex").slice(0, 16)}`;
html = html.replace(/<meta name="gpu-puzzles-worker"[^>]*>\s*/, "");
html = html.replace('<meta charset="utf-8" />', `<meta charset="utf-8" />\n    <meta name="gpu-puzzles-worker" content="${workerUrl}" />`);

// The model's files: never precached (step 3), fetched by the worker when the
// capstone first opens, and kept then in a cache named by this hash.
const MODEL_DIR = "models/generate";
const modelFiles = fs.existsSync(path.join(dir, MODEL_DIR)) ? fs.readdirSync(path.join(dir, MODEL_DIR)).sort() : [];
if (modelFiles.length === 0) throw new Error(`post-build.mjs: no ${MODEL_DIR}/ in ${dir}: web/index.html copies it from the repository's models/generate/`);
const modelDigest = crypto.createHash("sha256");
for (const f of modelFiles) modelDigest.update(f).update(sha256(fs.readFileSync(path.join(dir, MODEL_DIR, f)), "hex"));
const modelHash = modelDigest.digest("hex").slice(0, 16);
html = html.replace(/<meta name="gpu-puzzles-model"[^>]*>\s*/, "");
html = html.replace('<meta charset="utf-8" />', `<meta charset="utf-8" />\n    <meta name="gpu-puzzles-model" content="?v=${modelHash}" />`);

const hashes = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${sha256(Buffer.from(m[1], "utf8"), "base64")}'`);
if (hashes.length === 0) throw new Error(`post-build.mjs: no inline loader script in ${file}`);
const policy = [
  "default-src 'self'",
  `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(" ")}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join("; ");
html = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>\s*/, "");
html = html.replace('<meta charset="utf-8" />', `<meta charset="utf-8" />\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`);
fs.writeFileSync(file, html);
console.log(`post-build.mjs: ${file}: worker at ${workerUrl}; ${policy}`);

// 3. The service worker's file list (web/sw.js): every file of the build
//    but sw.js itself and the model's, by its address relative to the site
//    ("./" for the page; the worker's files, the solutions and the puzzles'
//    data with the queries the page and the worker ask them with), and a version: a hash of all their contents, so each build
//    is a new sw.js. The model's 930 KB are left out, so a first visit does
//    not download them: the worker keeps them, once fetched, in the cache
//    `gpu-puzzles-model-HASH`, which sw.js serves from and keeps while a
//    build names it.
const files = [];
const walk = (rel) => {
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const name = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walk(name);
    else if (name !== "sw.js" && !name.startsWith(`${MODEL_DIR}/`)) files.push(name);
  }
};
walk("");
files.sort();
const build = crypto.createHash("sha256");
for (const f of files) build.update(f).update(sha256(fs.readFileSync(path.join(dir, f)), "hex"));
const query = workerUrl.slice(workerUrl.indexOf("?"));
// Each file by the address the site asks for it: the worker's, the
// solutions' and the puzzles' data with their version query.
const address = (f) => {
  if (f === "index.html") return "./";
  if (workerFiles.includes(f)) return `./${f}${query}`;
  if (f.startsWith(`${SOLUTIONS_DIR}/`)) return `./${f}${solutionsQuery}`;
  if (f.startsWith(`${DATA_DIR}/`) && f.endsWith(".postcard")) return `./${f}?v=${dataVersion}`;
  return `./${f}`;
};
const urls = files.map(address);
const sw = path.join(dir, "sw.js");
const swText = fs.readFileSync(sw, "utf8");
const line = /^const BUILD = .*;$/m;
if (!line.test(swText)) throw new Error(`post-build.mjs: no \`const BUILD = …;\` line in ${sw}`);
const version = build.digest("hex").slice(0, 16);
fs.writeFileSync(sw, swText.replace(line, `const BUILD = ${JSON.stringify({ version, files: urls, model: modelHash })};`));
console.log(`post-build.mjs: ${sw}: ${urls.length} files kept for offline use (${solutionFiles.length} solutions), version ${version}; the model (${modelHash}) kept when first fetched`);
