// expect: passed
// Correct but slow, on purpose: the comparison kernel's mapping. The
// workgroups are numbered line by line, invocations within them, and
// invocation number `row` adds up row `row` alone, one entry after another;
// the dispatch has at least one workgroup per row, so at least as many
// invocations as rows, and those past the last row do nothing. It passes
// every correctness case. On a hardware GPU it should miss the performance
// target: an invocation loops as many times as its row has entries, each
// warp waits for its longest row, and in "performance: one very long row"
// a single invocation walks 32,889 entries on its own.
const wgs = vec3({{workgroupSize}});
const twg = vec3({{totalWorkgroups}});

@group(0) @binding(0) var<storage, read> row_offsets: array<u32>;
@group(0) @binding(1) var<storage, read> col_indices: array<u32>;
@group(0) @binding(2) var<storage, read> values: array<f32>;
@group(0) @binding(3) var<storage, read> x: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_index) local_index: u32,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let row = (workgroup_id.y * u32(twg.x) + workgroup_id.x) * u32(wgs.x) + local_index;
    if (row >= arrayLength(&y)) {
        return;
    }
    let start = row_offsets[row];
    let end = row_offsets[row + 1u];
    var sum = 0.0;
    for (var k = start; k < end; k++) {
        sum += values[k] * x[col_indices[k]];
    }
    y[row] = sum;
}
