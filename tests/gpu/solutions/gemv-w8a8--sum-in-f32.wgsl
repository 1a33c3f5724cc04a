// expect: failed
// Wrong on purpose: each word's dot product is exact, but the kernel adds
// them up in f32, partial sums and workgroup memory alike, and writes
// acc = i32(total). An f32 has 24 significant bits: it holds every integer
// only up to 2^24 = 16,777,216, and rounds larger sums to a multiple of 2,
// 4, 8, … The written cases up to 2048 columns stay below 2^24 and pass;
// "sums beyond 2^24" has rows that sum to odd numbers between 2^24 and
// 2^25, which no f32 holds, so whatever the order of its additions this
// kernel cannot write them.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> w: array<u32>;         // rows × cols / 4 words
@group(0) @binding(1) var<storage, read> xq: array<u32>;        // cols / 4 words
@group(0) @binding(2) var<storage, read> w_scale: array<f32>;   // rows
@group(0) @binding(3) var<storage, read> x_scale: array<f32>;   // 1
@group(0) @binding(4) var<storage, read_write> acc: array<i32>; // rows
@group(0) @binding(5) var<storage, read_write> y: array<f32>;   // rows
@group(0) @binding(6) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>; // f32: rounds above 2^24

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let words = dims.cols / 4u;
    var sum = 0.0; // should be an i32
    for (var k = i; k < words; k += W) {
        sum += f32(dot4I8Packed(w[row * words + k], xq[k]));
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
        acc[row] = i32(smem[0]);
        y[row] = smem[0] * w_scale[row] * x_scale[0];
    }
}
