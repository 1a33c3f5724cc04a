#!/usr/bin/env bash
# Installs what is missing, builds the site and serves dist/ on 127.0.0.1.
# PORT=9000 scripts/serve.sh to pick another port.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-tools.sh
scripts/build-site.sh
exec node scripts/serve-dist.mjs dist "${PORT:-8080}"
