#!/usr/bin/env bash
# Release build of the site into dist/ (static files for any host and path),
# with our reference solutions as files in dist/solutions/ (fetched only when
# asked for). --no-solutions leaves them out (scripts/remove-solutions.sh).
# Other arguments go to trunk, e.g. --dist <dir>.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
scripts/build-editor.sh
args=() dist=dist no_solutions=
while [ $# -gt 0 ]; do
  case $1 in
    --no-solutions) no_solutions=1 ;;
    --dist) dist=$2; args+=("$1" "$2"); shift ;;
    --dist=*) dist=${1#--dist=}; args+=("$1") ;;
    *) args+=("$1") ;;
  esac
  shift
done
trunk build --release=true "${args[@]}"
if [ -n "$no_solutions" ]; then scripts/remove-solutions.sh "$dist"; fi
