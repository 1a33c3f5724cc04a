// expect: failed
// Wrong on purpose: sums 4 products when the workgroup has 4 invocations and 5
// otherwise, the two sizes the public cases show. Hidden cases use other sizes.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;
const wgs = vec3({{workgroupSize}});

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let i = local_id.x;
    smem[i] = a[i] * b[i];
    workgroupBarrier();
    if (i == 0u) {
        let n = select(5u, 4u, wgs.x == 4);
        var sum = 0.0;
        for (var k = 0u; k < n; k++) {
            sum += smem[k];
        }
        out[0] = sum;
    }
}
