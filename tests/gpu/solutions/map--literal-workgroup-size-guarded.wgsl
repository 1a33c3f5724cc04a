// expect: passed
// A correct Map with a literal workgroup size larger than every case's:
// the guard keeps the extra invocations out of bounds, and the checks
// count all 64 of each workgroup (the case's {{workgroupSize}} is not
// what the GPU runs).
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i < arrayLength(&out)) {
        out[i] = a[i] + 10.0;
    }
}
