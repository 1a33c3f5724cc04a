# Sourced by the scripts: the tools' locations and the GPU settings.
export PATH="$PWD/web/editor/node_modules/.bin:$HOME/.cargo/bin:$PATH"
# Native GPU runs use Vulkan (lavapipe where there is no GPU).
export WGPU_BACKEND="${WGPU_BACKEND:-vulkan}"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp}"
export TRUNK_OFFLINE=true
