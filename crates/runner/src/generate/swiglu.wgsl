// The site's own kernel between the MLP's two halves of the capstone:
// hidden[i] = silu(gate[i]) * up[i], silu(g) = g / (1 + exp(-g)).
// The chapter teaches no kernel for it (it is a Map), so the site supplies it.

struct Params { n: u32 }

@group(0) @binding(0) var<storage, read> gate: array<f32>;
@group(0) @binding(1) var<storage, read> up: array<f32>;
@group(0) @binding(2) var<storage, read_write> hidden: array<f32>;
@group(0) @binding(3) var<uniform> params: Params;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if (i < params.n) {
        let g = gate[i];
        hidden[i] = g / (1.0 + exp(-g)) * up[i];
    }
}
