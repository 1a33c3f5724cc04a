// expect: failed
// The obvious kernel: each invocation adds its share one value at a time,
// then the partial sums go through a tree. On the runs of 4,096 copies of
// 0.1 each running sum drifts by about 646 units of f32 roundoff of the sum,
// ten times the tolerance; on the short random cases it passes.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Params {
    n: u32,
}

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> total: array<f32>;
@group(0) @binding(2) var<uniform> params: Params;

var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    let i = local_id.x;
    var sum = 0.0;
    for (var k = i; k < params.n; k += W) {
        sum += x[k];
    }
    smem[i] = sum;
    workgroupBarrier();
    for (var m = W; m > 1u; m = (m + 1u) / 2u) {
        let half = (m + 1u) / 2u;
        if (i + half < m) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
    if (i == 0u) {
        total[0] = smem[0];
    }
}
