// 1D Convolution: each workgroup stages its slice of `a` plus a halo of 3 elements.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
var<workgroup> smem: array<f32, {{smemSize}}>;

const wgs = vec3({{workgroupSize}});

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = arrayLength(&a);
    let k = arrayLength(&b);
    let start = workgroup_id.x * u32(wgs.x);
    // The slice and its halo: wgs.x + k - 1 elements, loaded in strides of wgs.x.
    for (var j = local_id.x; j < u32(wgs.x) + k - 1u; j += u32(wgs.x)) {
        let g = start + j;
        smem[j] = select(0.0, a[min(g, n - 1u)], g < n);
    }
    workgroupBarrier();
    let i = start + local_id.x;
    if (i < n) {
        var sum = 0.0;
        for (var t = 0u; t < k; t++) {
            sum += smem[local_id.x + t] * b[t];
        }
        out[i] = sum;
    }
}
