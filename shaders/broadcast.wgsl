// Broadcast: row i takes a[i], column j takes b[j].
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let rows = arrayLength(&a);
    let cols = arrayLength(&b);
    let i = local_id.y;
    let j = local_id.x;
    if (i < rows && j < cols) {
        out[i * cols + j] = a[i] + b[j];
    }
}
