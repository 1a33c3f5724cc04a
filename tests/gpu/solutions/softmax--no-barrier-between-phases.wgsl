// expect: memory-error in some cases
// message: `smem[0]` (workgroup memory)
// Wrong on purpose: no barrier between the two phases. Every invocation reads
// the row's maximum from smem[0], and invocation 0 goes straight on to store
// its partial sum of exponentials into smem[0]: nothing orders that write after
// the other invocations' reads, so a slower invocation may take the partial sum
// for the maximum (a race on smem[0]). With one invocation per workgroup
// ("edge: the smallest sizes allowed", "edge: one invocation, rows of 100")
// there is no one to race, and those cases pass.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    rows: u32,
    cols: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> dims: Dims;

var<workgroup> smem: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let cols = dims.cols;
    let base = workgroup_id.x * cols;
    let parts = min(W, cols);

    // Phase 1: the row's maximum.
    if (i < parts) {
        var m = a[base + i];
        for (var c = i + W; c < cols; c += W) {
            m = max(m, a[base + c]);
        }
        smem[i] = m;
    }
    workgroupBarrier();
    for (var n = parts; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] = max(smem[i], smem[i + half]);
        }
        workgroupBarrier();
    }
    let row_max = smem[0];
    // (missing: workgroupBarrier() here)

    // Phase 2: the sum of exp(a - row_max).
    if (i < parts) {
        var s = 0.0;
        for (var c = i; c < cols; c += W) {
            s += exp(a[base + c] - row_max);
        }
        smem[i] = s;
    }
    workgroupBarrier();
    for (var n = parts; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
    }
    let total = smem[0];

    // Phase 3: the division.
    for (var c = i; c < cols; c += W) {
        out[base + c] = exp(a[base + c] - row_max) / total;
    }
}
