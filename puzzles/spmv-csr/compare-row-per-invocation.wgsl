// Comparison kernel: one invocation per row. Invocation number `row`,
// counted over the whole dispatch, adds up its row's stored entries alone,
// one after another. It is correct (the dispatch has at least one workgroup
// per row, so at least as many invocations as rows), and on a GPU its work
// is badly shared out: an invocation's loop runs as many times as its row
// has entries, the 32 or so invocations that run in lockstep all wait for
// the longest of their rows, and one very long row keeps one invocation
// busy long after all the others have finished. Neighbouring invocations
// also read entries a whole row apart, so their reads do not coalesce.
const wgs = vec3({{workgroupSize}});
const twg = vec3({{totalWorkgroups}});
const W = u32(wgs.x);

@group(0) @binding(0) var<storage, read> row_offsets: array<u32>; // rows + 1
@group(0) @binding(1) var<storage, read> col_indices: array<u32>; // one per entry
@group(0) @binding(2) var<storage, read> values: array<f32>;      // one per entry
@group(0) @binding(3) var<storage, read> x: array<f32>;           // cols
@group(0) @binding(4) var<storage, read_write> y: array<f32>;     // rows

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let workgroup = workgroup_id.y * u32(twg.x) + workgroup_id.x;
    let row = workgroup * W + local_id.x;
    if (row < arrayLength(&y)) {
        var sum = 0.0;
        for (var k = row_offsets[row]; k < row_offsets[row + 1u]; k++) {
            sum += values[k] * x[col_indices[k]];
        }
        y[row] = sum;
    }
}
