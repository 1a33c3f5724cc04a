// expect: memory-error in some cases
// message: out-of-bounds write
// Wrong on purpose: no guard. WebGPU drops the writes past the end, so the
// values look right; the instrumented run reports the out-of-bounds writes.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let size = u32(round(sqrt(f32(arrayLength(&a)))));
    let i = global_id.y * size + global_id.x;
    out[i] = a[min(i, arrayLength(&a) - 1u)] + 10.0;
}
