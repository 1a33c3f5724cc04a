# Sourced by the scripts: the tools' locations and the GPU settings.
# scripts/split/ first: its wasm-bindgen is the one Trunk runs (it splits
# the page's wasm, then runs the real one; see the script).
export PATH="$PWD/scripts/split:$PWD/web/editor/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# Native GPU runs use Vulkan (lavapipe where there is no GPU).
export WGPU_BACKEND="${WGPU_BACKEND:-vulkan}"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
export TRUNK_OFFLINE=true
# Mesa's shader cache (lavapipe's compiled pipelines, for the native GPU
# tests and Firefox's WebGPU) in a folder of the project's own, next to CI's
# build cache, and large enough to hold every instrumented shader the suite
# compiles (about 5,000; Mesa's default of 1 GB would evict some). A warm
# machine then never compiles a shader twice: cold, the GPU trials take
# about 1,000 s more on 2 cores.
export MESA_SHADER_CACHE_DIR="${MESA_SHADER_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/gpu-puzzles/mesa-shader-cache}"
export MESA_SHADER_CACHE_MAX_SIZE="${MESA_SHADER_CACHE_MAX_SIZE:-4G}"
# Mesa creates only the last folder of the path: on a machine with no
# ~/.cache it disables its cache and says so on stderr, once per process.
# Every folder a tool is pointed at is made here, where it is named
# (scripts/check-fresh-home.sh shows it on an empty HOME).
mkdir -p "$MESA_SHADER_CACHE_DIR" "$XDG_RUNTIME_DIR"
