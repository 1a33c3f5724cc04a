// expect: passed
// Buffers wrapped in a struct, a common tutorial idiom: each invocation
// writes its own element of `out.v`, so there is no conflict on `out[0]`.
struct Buf {
    v: array<f32>,
}
@group(0) @binding(0) var<storage, read> a: Buf;
@group(0) @binding(1) var<storage, read_write> out: Buf;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let i = local_id.x;
    if (i < arrayLength(&a.v)) {
        out.v[i] = a.v[i] + 10.0;
    }
}
