// expect: memory-error in some cases
// message: lost update
// Wrong on purpose, as learners often write it first: every invocation adds
// its product into out[0]. The read-modify-write of many invocations
// interleaves, so additions are lost. No barrier fixes it; atomics or a
// reduction do. A case with a single invocation has no one to race with.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let i = local_id.x;
    if (i < arrayLength(&a)) {
        out[0] += a[i] * b[i];
    }
}
