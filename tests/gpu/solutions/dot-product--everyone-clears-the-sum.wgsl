// expect: memory-error in some cases
// message: write conflict: `total` (workgroup memory)
// Wrong on purpose: every invocation clears the shared total, then invocation
// 0 adds the products. The clears race each other (the same value, but a
// write conflict all the same).
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;
var<workgroup> total: f32;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let i = local_id.x;
    let n = arrayLength(&a);
    total = 0.0;
    if (i < n) {
        smem[i] = a[i] * b[i];
    }
    workgroupBarrier();
    if (i == 0u) {
        var sum = total;
        for (var k = 0u; k < n; k++) {
            sum += smem[k];
        }
        out[0] = sum;
    }
}
