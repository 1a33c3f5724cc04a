// expect: passed
// Another correct way: each invocation takes whole groups (i, i + W, …),
// unpacks the nibbles with a shift and a mask, gives each its sign by
// flipping the top bit and subtracting 8, adds up the group's products and
// multiplies the total by the group's scale once. A row has fewer groups
// than words, so fewer invocations have work, and neighbouring invocations
// read words a group (16 or 32 bytes) apart.
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

// Weight j (0 to 7) of a word: 0x0..0x7 are 0..7, 0x8..0xF are -8..-1.
fn weight(word: u32, j: u32) -> f32 {
    let n = (word >> (4u * j)) & 0xFu;
    return f32(i32(n ^ 8u) - 8);
}

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let row = workgroup_id.x;
    let groups = dims.cols / dims.group;
    let per_group = dims.group / 8u; // words per group
    var sum = 0.0;
    for (var g = i; g < groups; g += W) {
        let first = (row * groups + g) * per_group; // the group's first word in w
        var total = 0.0;
        for (var k = 0u; k < per_group; k++) {
            let word = w[first + k];
            for (var j = 0u; j < 8u; j++) {
                total += weight(word, j) * x[dims.group * g + 8u * k + j];
            }
        }
        sum += scales[row * groups + g] * total;
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
