// expect: memory-error in some cases
// message: (workgroup memory)
// Wrong on purpose: one barrier after the partial sums are stored, none in
// the rounds that add them up. A round reads smem[i + half], which another
// invocation wrote in the round before, and nothing makes it wait until that
// write is done: a race in workgroup memory. With 4 or more invocations some
// round reads a value written in the round before; with 1 to 3 it never
// does, so the cases of one invocation per workgroup pass.
const wgs = vec3({{workgroupSize}});
const twg = vec3({{totalWorkgroups}});
const W = u32(wgs.x); // invocations per workgroup: any number from 1 up

@group(0) @binding(0) var<storage, read> row_offsets: array<u32>; // rows + 1
@group(0) @binding(1) var<storage, read> col_indices: array<u32>; // one per entry
@group(0) @binding(2) var<storage, read> values: array<f32>;      // one per entry
@group(0) @binding(3) var<storage, read> x: array<f32>;           // cols
@group(0) @binding(4) var<storage, read_write> y: array<f32>;     // rows

var<workgroup> smem: array<f32, {{smemSize}}>; // one partial sum per invocation

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    // The workgroups form a twg.x × twg.y grid, read line by line: at least
    // one per row, and the last line may run past the last row.
    let row = workgroup_id.y * u32(twg.x) + workgroup_id.x;
    // A whole workgroup leaves together (row is the same for all of its
    // invocations), so the barriers below are still reached by every
    // invocation that stays.
    if (row >= arrayLength(&y)) {
        return;
    }

    // The row's entries are start .. end - 1 of col_indices and values. An
    // empty row has start == end: every invocation keeps 0.
    let start = row_offsets[row];
    let end = row_offsets[row + 1u];
    var sum = 0.0;
    for (var k = start + i; k < end; k += W) {
        sum += values[k] * x[col_indices[k]];
    }
    smem[i] = sum;
    workgroupBarrier();

    // Add the W partial sums pairwise until one is left: with n of them, the
    // upper half (rounded down) is folded onto the lower half, and the middle
    // one of an odd count waits a round, so W need not be a power of two.
    for (var n = W; n > 1u; n = (n + 1u) / 2u) {
        let half = (n + 1u) / 2u;
        if (i + half < n) {
            smem[i] += smem[i + half];
        }
    }

    // One write per row.
    if (i == 0u) {
        y[row] = smem[0];
    }
}
