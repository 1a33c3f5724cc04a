// Builds the editor's two bundles with esbuild:
// - dist/editor.bundle.js: the facade (src/editor.js) with CodeMirror, which
//   the site's wasm imports, so it is in the first download;
// - dist/lazy/vim-HASH.js: the Vim bindings (src/vim.js), fetched only when
//   a student switches them on. Its CodeMirror imports are mapped to the
//   modules the facade publishes on globalThis.__gpuPuzzlesCodeMirror, so
//   there is one instance of each (CodeMirror requires it). The hash in its
//   name changes with its contents, so a browser never mixes an old Vim
//   bundle with a new editor. Trunk copies dist/lazy/ into the site.
import * as esbuild from "esbuild";
import crypto from "node:crypto";
import fs from "node:fs";

const shared = ["@codemirror/state", "@codemirror/view", "@codemirror/language", "@codemirror/search", "@codemirror/commands"];
const names = {};
for (const p of shared) names[p] = Object.keys(await import(p)).filter((n) => n !== "default");

// In the Vim bundle, each CodeMirror import becomes a pure lookup in the
// object the facade publishes; the ones Vim does not use are tree-shaken.
const fromFacade = {
  name: "codemirror-from-the-facade",
  setup(build) {
    build.onResolve({ filter: /^@codemirror\/[a-z]+$/ }, (a) => (shared.includes(a.path) ? { path: a.path, namespace: "facade" } : undefined));
    build.onLoad({ filter: /.*/, namespace: "facade" }, (a) => ({
      loader: "js",
      contents:
        "function get(module, name) { return globalThis.__gpuPuzzlesCodeMirror[module][name]; }\n" +
        names[a.path].map((n) => `export const ${n} = /* @__PURE__ */ get(${JSON.stringify(a.path)}, ${JSON.stringify(n)});`).join("\n"),
    }));
  },
};

const vim = await esbuild.build({ entryPoints: ["src/vim.js"], bundle: true, format: "esm", minify: true, write: false, plugins: [fromFacade], logLevel: "warning" });
const text = vim.outputFiles[0].text;
// The names the Vim bundle still looks up: all the facade has to publish.
const used = {};
for (const [, module, name] of text.matchAll(/\("(@codemirror\/[a-z]+)","(\w+)"\)/g)) (used[module] ??= new Set()).add(name);
if (Object.keys(used).length === 0) throw new Error("build.mjs: the Vim bundle looks up no CodeMirror names; the lookup pattern no longer matches esbuild's output");
const hash = crypto.createHash("sha256").update(text).digest("hex").slice(0, 16);
const vimFile = `lazy/vim-${hash}.js`;
fs.rmSync("dist/lazy", { recursive: true, force: true });
fs.mkdirSync("dist/lazy", { recursive: true });
fs.writeFileSync(`dist/${vimFile}`, text);

// The facade imports "vim-shared": exactly those names, by module.
const publish = {
  name: "vim-shared",
  setup(build) {
    build.onResolve({ filter: /^vim-shared$/ }, () => ({ path: "vim-shared", namespace: "vim-shared" }));
    build.onLoad({ filter: /.*/, namespace: "vim-shared" }, () => {
      const modules = Object.entries(used);
      const imports = modules.map(([m, ns], k) => `import { ${[...ns].map((n) => `${n} as m${k}_${n}`).join(", ")} } from ${JSON.stringify(m)};`);
      const object = modules.map(([m, ns], k) => `${JSON.stringify(m)}: { ${[...ns].map((n) => `${n}: m${k}_${n}`).join(", ")} }`);
      return { loader: "js", resolveDir: process.cwd(), contents: `${imports.join("\n")}\nexport default { ${object.join(", ")} };\n` };
    });
  },
};

await esbuild.build({
  entryPoints: ["src/editor.js"],
  bundle: true,
  format: "esm",
  minify: true,
  outfile: "dist/editor.bundle.js",
  define: { __VIM_BUNDLE__: JSON.stringify(vimFile) },
  plugins: [publish],
  logLevel: "warning",
});
