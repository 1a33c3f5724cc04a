#!/usr/bin/env bash
# Judges kernels with the command-line tool on a lent machine with a real GPU
# (the `device` tool; ../shared/TOOLCHAIN.md, "A real NVIDIA GPU through
# Vulkan"). That machine has the NVIDIA Vulkan driver but no Vulkan loader
# and no Rust: the loader comes as Debian packages in .gl/ and the tool as a
# binary in .dev/, both made here by `scripts/device-judge.sh --stage`.
#
#   scripts/device-judge.sh --stage            here: .gl/ and .dev/ (the CLI, puzzles/, shaders/, tests/gpu/solutions/)
#   scripts/device-judge.sh SLUG FILE [...]    there: judge each FILE (relative to .dev/) on puzzle SLUG
#   scripts/device-judge.sh --all              there: `gpu-puzzles check` of the whole set
#   scripts/device-judge.sh --generate [RUNS]  there: the capstone (`gpu-puzzles generate`) RUNS times
#                                              (default 3) for each weight form and length, with the
#                                              settings of tests/data/generate-check.toml, to
#                                              $OUT/judged/generate.txt
#   JSON=1 scripts/device-judge.sh SLUG FILE   there: the same with --json (timings of every kernel)
#
# There, each judgement's text goes to $OUT/judged/<slug>--<file name>.txt and
# one archive, $OUT/judged.tgz, holds them all (few files come back per call).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--stage" ]; then
  target="${CARGO_TARGET_DIR:-target}"
  cargo build -p gpu-puzzles-cli
  mkdir -p .gl .dev /tmp/amd64/partial
  if ! ls .gl/libvulkan1_*.deb >/dev/null 2>&1; then
    o=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64)
    apt-get "${o[@]}" update -qq
    (cd .gl && apt-get "${o[@]}" download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
  fi
  rm -rf .dev/puzzles .dev/shaders .dev/solutions .dev/models
  cp -r puzzles shaders models .dev/
  cp -r tests/gpu/solutions .dev/solutions
  cp "$target/debug/gpu-puzzles" .dev/ && strip .dev/gpu-puzzles
  grep -qx '/.gl/' .git/info/exclude 2>/dev/null || printf '/.gl/\n/.dev/\n' >>.git/info/exclude
  du -sh .gl .dev
  exit 0
fi

for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json WGPU_BACKEND=vulkan XDG_RUNTIME_DIR=/tmp
out="${OUT:-/tmp/out}/judged"
mkdir -p "$out"
cd .dev
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/gpu.txt"
if [ "${1:-}" = "--all" ]; then
  ./gpu-puzzles check 2>&1 | tee "$out/check-all.txt" || true
elif [ "${1:-}" = "--generate" ]; then
  # The CPU pass's fixture: its prompt, k, temperature and seed; 40 tokens
  # as the browser test generates, and 200.
  fixture=../tests/data/generate-check.toml
  field() { grep -m1 "^$1 = " "$fixture" | cut -d' ' -f3-; }
  prompt=$(field prompt | sed 's/^"//; s/"$//')
  settings=(--k "$(field k)" --temperature "$(field temperature)" --seed "$(field seed)")
  for weights in "" --f32; do
    for tokens in 40 200; do
      for _ in $(seq "${2:-3}"); do
        # shellcheck disable=SC2086 # an empty $weights is no argument
        ./gpu-puzzles generate --prompt "$prompt" --tokens "$tokens" "${settings[@]}" $weights 2>&1 |
          tail -1 | sed "s/^/${weights:-int8} /" | tee -a "$out/generate.txt" || true
      done
    done
  done
else
  while [ $# -ge 2 ]; do
    slug=$1 file=$2
    shift 2
    echo "== $slug $file"
    if [ -n "${JSON:-}" ]; then
      ./gpu-puzzles check --puzzle "$slug" --solution "$file" --json >"$out/$slug--$(basename "$file" .wgsl).json" 2>&1 || true
    else
      ./gpu-puzzles check --puzzle "$slug" --solution "$file" 2>&1 | tee "$out/$slug--$(basename "$file" .wgsl).txt" || true
    fi
  done
fi
tar czf "$out.tgz" -C "$(dirname "$out")" judged
