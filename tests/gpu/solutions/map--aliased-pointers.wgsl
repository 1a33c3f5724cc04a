// expect: compile-error at 19:5
// message: `add_ten` is given two pointers into `v` and writes through one of them
// Wrong on purpose, though its values are right: `add_ten` reads through
// `src` and writes through `dst`, and both point at `v`. WGSL forbids a call
// two ways to reach the same memory when one of them writes (alias
// analysis). Chromium's compiler rejects this shader and naga (Firefox's,
// and the native one) accepts it; the judge must refuse it in every engine,
// at the call.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

fn add_ten(dst: ptr<function, f32>, src: ptr<function, f32>) {
    *dst = *src + 10.0;
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    var v = a[local_id.x];
    add_ten(&v, &v);
    out[local_id.x] = v;
}
