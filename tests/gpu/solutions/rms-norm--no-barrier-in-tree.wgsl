// expect: memory-error in some cases
// message: race
// The tree's rounds without a barrier between them: an invocation adds a
// partial its neighbour may not have finished writing. The judge reports the
// race; with one invocation per workgroup there is no tree, and it passes.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x); // invocations per workgroup: any number from 1 up

struct Params {
    cols: u32, // elements per row
    eps: f32,  // added to the mean square inside the square root
}

@group(0) @binding(0) var<storage, read> x: array<f32>;               // rows × cols, row-major
@group(0) @binding(1) var<storage, read_write> residual: array<f32>;  // rows × cols: += x
@group(0) @binding(2) var<storage, read> weight: array<f32>;          // cols
@group(0) @binding(3) var<storage, read_write> out: array<f32>;       // rows × cols, row-major
@group(0) @binding(4) var<uniform> params: Params;

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial sum per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let cols = params.cols;
    let base = workgroup_id.x * cols; // the row's first element in every buffer

    // Pass 1: the new residual stream, and the sum of its squares. Invocation
    // i takes columns i, i + W, i + 2W, … (none when i >= cols).
    var sq = 0.0;
    for (var c = i; c < cols; c += W) {
        let h = residual[base + c] + x[base + c];
        residual[base + c] = h;
        sq += h * h;
    }
    smem[i] = sq;
    workgroupBarrier();
    // Tree over the W partials smem[0 .. count): each round folds the upper
    // half onto the lower one; with an odd count the middle one sits out.
    for (var count = W; count > 1u; count = (count + 1u) / 2u) {
        let half = (count + 1u) / 2u;
        if (i + half < count) {
            smem[i] += smem[i + half];
        }
    }
    // eps keeps a row that adds up to zero finite (its outputs are 0).
    let scale = inverseSqrt(smem[0] / f32(cols) + params.eps);

    // Pass 2: h comes back from `residual`, from the very elements this
    // invocation wrote above (not residual + x again: that would add x twice).
    for (var c = i; c < cols; c += W) {
        out[base + c] = residual[base + c] * scale * weight[c];
    }
}
