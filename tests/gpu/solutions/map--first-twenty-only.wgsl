// expect: failed in random cases
// Fits the written cases only: it handles the first 20 elements, enough for
// every written case of Map. The random cases (up to 64 elements) catch it;
// the browser test draws them with a fixed seed.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let i = local_id.x;
    if (i < 20u) {
        out[i] = a[i] + 10.0;
    }
}
