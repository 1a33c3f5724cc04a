// expect: failed
// Wrong on purpose: nibble j is taken from the top of the word down (bits
// 31 - 4j to 28 - 4j), so weight 8k meets x[8k + 7] and the other way
// round. The sign extension itself is right. In the worked example row 0's
// word 0, 0x5087D2F1, pairs 5, 0, -8, 7, -3, 2, -1, 1 with x = 1, 2, 3, 4,
// 1, 2, 3, 4: 11 instead of 4, and y = [27.5, -23] instead of [10, 13].
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
        let word = i32(w[row * words + k]);
        var part = 0.0;
        for (var j = 0u; j < 8u; j++) {
            part += f32(extractBits(word, 28u - 4u * j, 4u)) * x[8u * k + j]; // nibble 7 - j: reversed
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
