// expect: failed
// Wrong on purpose: one column per invocation, as if every row fitted in the
// workgroup. Invocation i handles column i only, so columns wgs.x and beyond
// are left out of the maximum and the sum and never written (they stay 0).
// In "ragged: rows longer than the workgroup, 3 × 20, 8 invocations" the 12 columns
// past the 8th are 0 and the first 8 sum to 1 on their own. Cases whose rows
// fit in the workgroup pass.
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

    // Phase 1: the maximum, of the first wgs.x columns only.
    if (i < parts) {
        smem[i] = a[base + i];
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
    workgroupBarrier();

    // Phase 2: the sum, of the same columns.
    if (i < parts) {
        smem[i] = exp(a[base + i] - row_max);
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

    // Phase 3: the division, one column per invocation.
    if (i < cols) {
        out[base + i] = exp(a[base + i] - row_max) / total;
    }
}
