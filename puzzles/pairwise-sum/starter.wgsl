// A Sum That Holds: add up all params.n elements of x into total[0], in one
// workgroup of wgs.x invocations, so that the result stays within the
// tolerance of the exact sum (see the statement).
const wgs = vec3({{workgroupSize}}); // invocations per workgroup (x, y, z)

struct Params {
    n: u32, // elements of x
}

@group(0) @binding(0) var<storage, read> x: array<f32>;            // n values, none negative
@group(0) @binding(1) var<storage, read_write> total: array<f32>;  // 1 element: the sum
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> smem: array<f32, {{smemSize}}>; // one slot per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let i = local_id.x;
    // TODO: let invocation i add up its share of x (x[i], x[i + wgs.x], …)
    // without letting the low bits of each addition get lost, store its
    // partial sum in smem[i], add the partial sums up across the workgroup
    // (a barrier after each step), and let invocation 0 write total[0].
}
