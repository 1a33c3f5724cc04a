// expect: memory-error in some cases
// message: write conflict
// Wrong on purpose: after the barrier every invocation sums and writes
// out[0]. The value is right, but the writes race.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let n = arrayLength(&a);
    let i = local_id.x;
    if (i < n) {
        smem[i] = a[i] * b[i];
    }
    workgroupBarrier();
    var sum = 0.0;
    for (var k = 0u; k < n; k++) {
        sum += smem[k];
    }
    out[0] = sum;
}
