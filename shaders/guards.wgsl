// Guards: invocations past the end of the array do nothing.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let i = local_id.x;
    if (i < arrayLength(&a)) {
        out[i] = a[i] + 10.0;
    }
}
