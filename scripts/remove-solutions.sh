#!/usr/bin/env bash
# Makes a built site into one without our reference solutions, as a workshop
# host may want: removes its solutions/ folder and writes index.html's
# metadata and the service worker's file list again (scripts/post-build.mjs),
# so the page offers no solution and no browser keeps one. No compile: the
# wasm holds no solution.
#
#   scripts/remove-solutions.sh DIR          in place
#   scripts/remove-solutions.sh SRC DIR      a copy of SRC made into DIR
set -euo pipefail
cd "$(dirname "$0")/.."
case $# in
  1) dir=$1 ;;
  2) dir=$2; rm -rf "$dir"; cp -r "$1" "$dir" ;;
  *) echo "usage: $0 [SRC] DIR" >&2; exit 2 ;;
esac
[ -f "$dir/index.html" ] || { echo "$0: $dir holds no built site (no index.html)" >&2; exit 1; }
rm -rf "$dir/solutions"
node scripts/post-build.mjs "$dir"
