// expect: failed
// Wrong on purpose: row i takes b and column j takes a. With a == b (the public
// cases) this passes; the cases where a differs from b must catch it.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let n = arrayLength(&a);
    let i = local_id.y;
    let j = local_id.x;
    if (i < n && j < n) {
        out[i * n + j] = a[j] + b[i];
    }
}
