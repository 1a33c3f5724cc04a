// expect: memory-error
// message: out-of-bounds write at line 13
// Wrong on purpose: no guard, through a struct wrapper. The writes past the
// end of `out.v` must be seen at the array's index, not the member's.
struct Buf {
    v: array<f32>,
}
@group(0) @binding(0) var<storage, read> a: Buf;
@group(0) @binding(1) var<storage, read_write> out: Buf;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    out.v[local_id.x] = a.v[min(local_id.x, arrayLength(&a.v) - 1u)] + 10.0;
}
