// Trunk post-build hook: adds a Content-Security-Policy to index.html that
// allows only the site's own scripts and wasm. Trunk's loader is an inline
// module script whose text names the hashed files, so it is allowed by its
// SHA-256, computed here for each build. Styles may be inline (Leptos sets
// style attributes); scripts, objects, frames and other origins may not.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";

const dir = process.env.TRUNK_STAGING_DIR || process.argv[2] || "dist";
const file = path.join(dir, "index.html");
let html = fs.readFileSync(file, "utf8");
const hashes = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map(
  (m) => `'sha256-${crypto.createHash("sha256").update(m[1], "utf8").digest("base64")}'`,
);
if (hashes.length === 0) throw new Error(`csp.mjs: no inline loader script in ${file}`);
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
console.log(`csp.mjs: ${file}: ${policy}`);
