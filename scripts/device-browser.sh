#!/usr/bin/env bash
# The page on a real GPU: the release site, served on a lent machine with an
# NVIDIA GPU (the `device` tool; docs/device-browser.md has the recipe), in
# Debian's headless Chromium with WebGPU through Vulkan on that GPU, driven
# by the browser suite's own harness (tests/e2e/gpu.test.mjs).
#
# That machine (Ubuntu 24.04, glibc 2.39) has no browser, no Node.js, no
# Vulkan loader and none of Chromium's libraries, and reaches no registry;
# one call carries at most 64 MiB. So everything is staged here, and
# carried over several calls (docs/device-browser.md has the recipe):
#
#   scripts/device-browser.sh --stage   here: the release site and the CLI in .dev/ (device-judge.sh --stage),
#                                        the loader in .gl/, and Chromium, the libraries it loads, Node.js and
#                                        playwright-core as one xz archive split into .browser/p0, p1, … (55 MiB each)
#   scripts/device-browser.sh --keep    there: keeps the carried part in /tmp/parts (the next call replaces
#                                        the repository's copy, carried folders and all)
#   scripts/device-browser.sh --run     there: unpacks the parts once, judges natively for the figures to hold
#                                        the page's against, then runs tests/e2e/gpu.test.mjs
#
# --run reads GPU_PUZZLES_SHARD=k/n (a part of the puzzles: one call is 10
# minutes at most), SKIP_NATIVE=1 (keep the native reports of an earlier
# call), BENCH=1 (then the Run-latency benchmark), GPU_TEST_PATTERN (a
# regular expression: only the tests whose names match run, e.g.
# "^(the page's WebGPU adapter|rope:)"; spaces and quotes kept), GPU_TEST_ARGS
# (more arguments for node --test, split at spaces), ROBUST_PATTERN (the
# robustness file's tests that match, e.g. "lost GPU device"), SOAK=1 (the
# workshop soak, tests/e2e/bench-soak.mjs, with its SOAK_* settings; the
# gpu.test.mjs suite is skipped with GPU_TEST_PATTERN=none), DRAW_DIST=DIR (the
# pictures' benchmark, tests/e2e/bench-draw.mjs, on the site in DIR, built by
# scripts/bench-draw.sh's puzzle set and carried). Results come back
# as $OUT/browser.tgz: the suite's log, the page's figures and verdicts, the
# native reports, chrome://gpu, and the GPU, driver and Chromium versions.
set -euo pipefail
cd "$(dirname "$0")/.."

# The libraries a system has from its C library's own package, which the
# lent machine's newer glibc provides (a copy from Debian 12 would be older).
SYSTEM_LIBS='^(libc|libm|libdl|libpthread|librt|libresolv|ld-linux-x86-64|libstdc\+\+|libgcc_s|libnss_.*)\.so'

stage() {
  # SITE_DIST=DIR: a release site already built (scripts/build-site.sh
  # --dist DIR) instead of building it again.
  if [ -n "${SITE_DIST:-}" ]; then
    rm -rf dist && cp -r "$SITE_DIST" dist
  else
    scripts/build-site.sh
  fi
  scripts/device-judge.sh --stage
  rm -rf .dev/dist && cp -r dist .dev/dist
  local root=/tmp/gpu-puzzles-browser
  rm -rf "$root" && mkdir -p "$root/lib" "$root/fonts" "$root/node_modules"
  # Chromium without what only tests of Chromium itself load.
  cp -r /usr/lib/chromium "$root/chromium"
  rm -f "$root"/chromium/libVkLayer_khronos_validation.so* "$root"/chromium/libVkICD_mock_icd.so*
  # The libraries Chromium links (ldd) and those it opens while running a
  # WebGPU page (read off /proc/*/maps of a run here), minus the C library's.
  {
    ldd /usr/lib/chromium/chromium | awk '$3 ~ /^\// { print $3 }'
    node tests/e2e/loaded-libraries.mjs
    ls /usr/lib/x86_64-linux-gnu/libsoftokn3.so /usr/lib/x86_64-linux-gnu/libfreebl*.so 2>/dev/null || true
  } | grep -v '^/usr/lib/chromium/' | sort -u | while read -r lib; do
    name=$(basename "$lib")
    [[ $name =~ $SYSTEM_LIBS || $name == libVkLayer_MESA* || $lib == */gio/* ]] && continue
    cp -L "$lib" "$root/lib/$(basename "$lib" | sed -E 's/(\.so\.[0-9]+)\..*/\1/')"
  done
  cp /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf "$root/fonts/"
  printf '<?xml version="1.0"?>\n<fontconfig><dir>%s</dir><cachedir>/tmp/fontconfig</cachedir></fontconfig>\n' /tmp/browser/fonts >"$root/fonts/fonts.conf"
  cp "$(command -v node)" "$root/node"
  cp -r tests/e2e/node_modules/playwright-core "$root/node_modules/"
  /usr/lib/chromium/chromium --version >"$root/chromium-version.txt"
  rm -rf .browser && mkdir -p .browser
  tar -C "$root" -cf - . | xz -T2 -6 >.browser/bundle.tar.xz
  rm -rf "$root"
  (cd .browser && split -b 55M -d -a 1 bundle.tar.xz part. && rm bundle.tar.xz)
  for part in .browser/part.*; do
    mkdir -p ".browser/p${part##*.}" && mv "$part" ".browser/p${part##*.}/"
  done
  grep -qx '/.browser/' .git/info/exclude || echo /.browser/ >>.git/info/exclude
  du -sh .browser/p* .dev .gl
}

keep() {
  mkdir -p /tmp/parts && cp .browser/p*/part.* /tmp/parts/ && ls -l /tmp/parts
}

run() {
  # Few files come back from a call: the results go to one archive.
  local out=/tmp/browser-results
  rm -rf "$out" && mkdir -p "$out" /tmp/browser /tmp/fontconfig
  # Debian's Vulkan loader and GL dispatch libraries, as in the runs that
  # worked (Chromium brings its own loader; NVIDIA's driver, which it loads,
  # uses libglvnd's dispatch), then the bundle: each call's carried part is
  # kept outside the repository's copy, which the next call replaces; once
  # all have come, they are unpacked once.
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
  ls .browser/p*/part.* >/dev/null 2>&1 && keep
  [ -x /tmp/browser/chromium/chromium ] || cat /tmp/parts/part.* | xz -d | tar -C /tmp/browser -xf -
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json VK_ICD_FILENAMES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  export WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=/tmp FONTCONFIG_FILE=/tmp/browser/fonts/fonts.conf
  export LD_LIBRARY_PATH=/tmp/browser/lib
  export CHROMIUM=/tmp/browser/chromium/chromium GPU_PUZZLES_DIST="$PWD/.dev/dist" GPU_PUZZLES_ADAPTER=hardware
  export NODE_PATH=/tmp/browser/node_modules
  mkdir -p tests/e2e/node_modules && ln -sfn /tmp/browser/node_modules/playwright-core tests/e2e/node_modules/playwright-core
  {
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    cat /tmp/browser/chromium-version.txt
  } | tee "$out/versions.txt"
  # The native judge on the same GPU in the same lease, for the page's
  # verdicts and figures to be held against: every performance puzzle's
  # reference and every held kernel the suite judges (its `held` list).
  if [ "${SKIP_NATIVE:-}" != 1 ]; then
    local pairs=()
    for toml in puzzles/*/puzzle.toml; do
      slug=$(basename "$(dirname "$toml")")
      grep -q '^performance = ' "$toml" && pairs+=("$slug" "shaders/$slug.wgsl")
    done
    for file in $(grep -oE '"[a-z0-9-]+--[a-z0-9-]+\.wgsl"' tests/e2e/gpu.test.mjs | tr -d '"' | sort -u); do
      pairs+=("${file%%--*}" "solutions/$file")
    done
    # Outside $OUT, which each call empties: a later call's shard reads them too.
    rm -rf /tmp/gpu-native
    OUT=/tmp/gpu-native JSON=1 scripts/device-judge.sh "${pairs[@]}" >"$out/native.log" 2>&1 || true
  fi
  local shard="${GPU_PUZZLES_SHARD:-1/1}"
  local tag="${shard/\//-of-}"
  export GPU_PUZZLES_NATIVE=/tmp/gpu-native/judged GPU_PUZZLES_FIGURES="$out/page-$tag.json"
  local pattern=()
  [ -n "${GPU_TEST_PATTERN:-}" ] && pattern=("--test-name-pattern=$GPU_TEST_PATTERN")
  # shellcheck disable=SC2086 # GPU_TEST_ARGS is split at spaces on purpose
  (cd tests/e2e && /tmp/browser/node --test --test-concurrency=1 --test-reporter=spec "${pattern[@]}" ${GPU_TEST_ARGS:-} gpu.test.mjs) 2>&1 | tee "$out/suite-$tag.log" || true
  cp -r /tmp/gpu-native/judged "$out/native" 2>/dev/null || true
  # BENCH=1: the Run-latency benchmark against the hand-written WebGPU
  # baseline on this GPU (tests/e2e/bench.mjs; a few classic puzzles).
  if [ "${BENCH:-}" = 1 ]; then
    (cd tests/e2e && GPU_PUZZLES_BIN="$PWD/../../.dev/gpu-puzzles" BENCH_NATIVE=0 BENCH_LOADS="${BENCH_LOADS:-5}" BENCH_RUNS="${BENCH_RUNS:-10}" BENCH_EDITS="${BENCH_EDITS:-3}" \
      BENCH_PUZZLES="${BENCH_PUZZLES:-map,zip,guards,shared,dot-product,prefix-sum}" /tmp/browser/node bench.mjs) 2>&1 | tee "$out/bench.log" || true
    cp target/bench/results.json "$out/bench.json" 2>/dev/null || true
  fi
  # ROBUST_PATTERN=REGEX: the robustness file's tests whose names match, on
  # this GPU (e.g. the lost device's journey).
  if [ -n "${ROBUST_PATTERN:-}" ]; then
    (cd tests/e2e && /tmp/browser/node --test --test-concurrency=1 --test-reporter=spec "--test-name-pattern=$ROBUST_PATTERN" robustness.test.mjs) 2>&1 | tee "$out/robustness.log" || true
  fi
  # SOAK=1: the workshop soak (tests/e2e/bench-soak.mjs) on this GPU, with
  # its SOAK_* settings as given.
  if [ "${SOAK:-}" = 1 ]; then
    (cd tests/e2e && /tmp/browser/node bench-soak.mjs) 2>&1 | tee "$out/soak.log" || true
  fi
  # DRAW_DIST=DIR: the pictures' benchmark on this GPU (a 1024 × 1024 image
  # drawn, a 256 × 256 grid played), on the site scripts/bench-draw.sh builds.
  if [ -n "${DRAW_DIST:-}" ]; then
    (cd tests/e2e && GPU_PUZZLES_DIST="$(cd "../../$DRAW_DIST" && pwd)" /tmp/browser/node bench-draw.mjs) 2>&1 | tee "$out/draw.log" || true
  fi
  tar czf "${OUT:-/tmp}/browser.tgz" -C "$(dirname "$out")" "$(basename "$out")"
}

case "${1:-}" in
  --stage) stage ;;
  --keep) keep ;;
  --run) run ;;
  *) sed -n '2,30p' "$0" >&2; exit 2 ;;
esac
