// expect: failed
// Wrong on purpose: computes b · a. With a == b (two public cases) this passes.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> output: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let size = u32(round(sqrt(f32(arrayLength(&a)))));
    let i = global_id.y;
    let j = global_id.x;
    if (i < size && j < size) {
        var acc = 0.0;
        for (var k = 0u; k < size; k++) {
            acc += b[i * size + k] * a[k * size + j];
        }
        output[i * size + j] = acc;
    }
}
