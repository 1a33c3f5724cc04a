#!/usr/bin/env bash
# Bundles the CodeMirror editor facade into web/editor/dist/editor.bundle.js,
# which the web crate imports at compile time, and the Vim bindings into
# web/editor/dist/lazy/ (copied into the site, fetched on demand). Trunk
# runs this as a pre-build hook; the other scripts run it too.
set -euo pipefail
cd "$(dirname "$0")/../web/editor"
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
if [ ! -f dist/editor.bundle.js ] || [ ! -d dist/lazy ] || [ -n "$(find src build.mjs package-lock.json -newer dist/editor.bundle.js)" ]; then
  npm run --silent build
  # The bundle takes its newest input's modification time, not the present
  # one: the web crate's build compares it with its artefacts, so a bundle
  # made again from unchanged inputs (a fresh clone, whose unchanged files
  # .ci/run dates back) does not make cargo compile the crate again.
  newest=$(find src build.mjs package-lock.json -type f -printf '%T@ %p\n' | sort -n | tail -1 | cut -d' ' -f2-)
  find dist -type f -exec touch -h -r "$newest" {} +
fi
