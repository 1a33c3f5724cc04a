// Pooling: one global read per element into workgroup memory, then a 3-wide window sum.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let i = local_id.x;
    let n = arrayLength(&a);
    if (i < n) {
        smem[i] = a[i];
    }
    workgroupBarrier();
    if (i < n) {
        var sum = smem[i];
        if (i >= 1u) { sum += smem[i - 1u]; }
        if (i >= 2u) { sum += smem[i - 2u]; }
        out[i] = sum;
    }
}
