// expect: passed
// A correct Map whose workgroup size is an `override` with a default: the
// GPU runs 64 invocations per workgroup, and so must the CPU interpreter
// (emulated judging, the order check and the debugger).
override block: u32 = 64u;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(block)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if (i < arrayLength(&out)) {
        out[i] = a[i] + 10.0;
    }
}
