// Zip: element-wise sum, guarded because the workgroup may be larger than the arrays.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let i = local_id.x;
    if (i < arrayLength(&out)) {
        out[i] = a[i] + b[i];
    }
}
