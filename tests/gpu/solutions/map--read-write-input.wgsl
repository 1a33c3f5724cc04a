// expect: passed
// `a` declared read_write instead of read: the runner builds the bind group
// layout from the student's declarations, so both access modes are accepted.
@group(0) @binding(0) var<storage, read_write> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    out[local_id.x] = a[local_id.x] + 10.0;
}
