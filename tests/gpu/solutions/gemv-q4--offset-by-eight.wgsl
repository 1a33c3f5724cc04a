// expect: failed
// Wrong on purpose: each nibble read as llama.cpp's Q4_0 stores it, the
// weight plus 8, so 0x0 is taken for -8, 0x7 for -1, 0x8 for 0 and 0xF for
// 7. This puzzle's nibbles are two's complement: every weight comes out 8
// too small (0x0 to 0x7) or 8 too large (0x8 to 0xF), and so does every
// case; in the worked example y = [-1206, -675] instead of [10, 13].
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
    group: u32,
}

@group(0) @binding(0) var<storage, read> w: array<u32>;       // rows × cols / 8 words
@group(0) @binding(1) var<storage, read> scales: array<f32>;  // rows × cols / group
@group(0) @binding(2) var<storage, read> x: array<f32>;       // cols
@group(0) @binding(3) var<storage, read_write> y: array<f32>; // rows
@group(0) @binding(4) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let words = dims.cols / 8u;
    let groups = dims.cols / dims.group;
    let per_group = dims.group / 8u;
    var sum = 0.0;
    for (var k = i; k < words; k += W) {
        let word = w[row * words + k];
        var part = 0.0;
        for (var j = 0u; j < 8u; j++) {
            let q = f32((word >> (4u * j)) & 0xFu) - 8.0; // Q4_0's offset, not two's complement
            part += q * x[8u * k + j];
        }
        sum += scales[row * groups + k / per_group] * part;
    }
    smem[i] = sum;
    workgroupBarrier();
    for (var n = W; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
    if (i == 0u) {
        y[row] = smem[0];
    }
}
