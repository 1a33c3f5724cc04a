// Blocks: the element index combines the workgroup and the invocation within it.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

const wgs = vec3({{workgroupSize}});

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = workgroup_id.x * wgs.x + local_id.x;
    if (i < arrayLength(&a)) {
        out[i] = a[i] + 10.0;
    }
}
