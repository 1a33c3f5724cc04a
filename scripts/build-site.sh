#!/usr/bin/env bash
# Release build of the site into dist/ (static files for any host and path).
# Extra arguments go to trunk, e.g. --no-default-features for a build without
# reference solutions, or --dist <dir>.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
scripts/build-editor.sh
trunk build --release=true "$@"
