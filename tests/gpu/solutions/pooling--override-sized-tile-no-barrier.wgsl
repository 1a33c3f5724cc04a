// expect: memory-error in some cases
// message: read-after-write race: `smem[
// Wrong on purpose: workgroup memory sized by an `override`, written and
// read by neighbours with no workgroupBarrier() between.
override BLOCK: u32 = 64u;
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, BLOCK>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
    let i = lid.x;
    let n = arrayLength(&a);
    if (i < n) { smem[i] = a[i]; }
    if (i < n) {
        var sum = smem[i];
        if (i >= 1u) { sum += smem[i - 1u]; }
        if (i >= 2u) { sum += smem[i - 2u]; }
        out[i] = sum;
    }
}
