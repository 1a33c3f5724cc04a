// expect: passed
// Correct, another way: count_blocks adds the flags up in a tree in workgroup memory (any
// workgroup size), and in scatter invocation 0 walks its workgroup's flags in order, giving each
// kept element its exclusive position, instead of a parallel scan. The count is written by the
// workgroup that holds the last element of a.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<storage, read_write> count: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_counts: array<u32>;
var<workgroup> smem: array<u32, {{smemSize}}>;
var<workgroup> offset: u32;

fn kept_flag(g: u32) -> u32 {
    if (g < arrayLength(&a) && a[g] > 0.0) {
        return 1u;
    }
    return 0u;
}

@compute @workgroup_size({{workgroupSize}})
fn count_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    smem[i] = kept_flag(workgroup_id.x * u32(wgs.x) + i);
    workgroupBarrier();
    // Halve the partial counts still in play, rounding up: any count works.
    var live = u32(wgs.x);
    while (live > 1u) {
        let half = (live + 1u) / 2u;
        if (i + half < live) {
            smem[i] += smem[i + half];
        }
        workgroupBarrier();
        live = half;
    }
    if (i == 0u) {
        block_counts[workgroup_id.x] = smem[0];
    }
}

@compute @workgroup_size({{workgroupSize}})
fn scatter(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let w = u32(wgs.x);
    let first = workgroup_id.x * w;
    if (i == 0u) {
        var sum = 0u;
        for (var k = 0u; k < workgroup_id.x; k++) {
            sum += block_counts[k];
        }
        offset = sum;
        // Exclusive positions, one after another.
        var seen = 0u;
        for (var j = 0u; j < w; j++) {
            smem[j] = seen;
            seen += kept_flag(first + j);
        }
        let n = arrayLength(&a);
        if (n - 1u >= first && n - 1u < first + w) {
            count[0] = sum + seen;
        }
    }
    workgroupBarrier();
    let g = first + i;
    if (kept_flag(g) == 1u) {
        out[offset + smem[i]] = a[g];
    }
}
