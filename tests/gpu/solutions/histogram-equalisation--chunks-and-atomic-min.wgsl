// expect: passed
// A correct kernel written another way: each workgroup takes one contiguous
// chunk of ceil(n / G) pixels (rather than a stride across the picture) and
// adds all 256 counts, zeros too; the scan runs serially over 16 blocks of
// 16 bins and then adds each block's offset; m is found with a workgroup
// atomicMin; and the rounding is written as (2·c·255 + d) / (2·d), which is
// the same as (c·255 + d / 2) / d for integers.
@group(0) @binding(0) var<storage, read> img: array<u32>;
@group(0) @binding(1) var<storage, read_write> hist: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> cdf: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;

var<workgroup> counts: array<atomic<u32>, 256>;
var<workgroup> sums: array<u32, 256>;
var<workgroup> block_offset: array<u32, 16>;
var<workgroup> lowest: atomic<u32>;

// The pixels of workgroup g: [first, last).
fn chunk(g: u32, groups: u32) -> vec2<u32> {
    let n = arrayLength(&img);
    let size = (n + groups - 1u) / groups;
    return vec2(min(g * size, n), min((g + 1u) * size, n));
}

@compute @workgroup_size(256)
fn histogram(
    @builtin(local_invocation_index) t: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let range = chunk(wid.x, groups.x);
    for (var i = range.x + t; i < range.y; i += 256u) {
        atomicAdd(&counts[img[i]], 1u);
    }
    workgroupBarrier();
    atomicAdd(&hist[t], atomicLoad(&counts[t]));
}

@compute @workgroup_size(256)
fn scan(@builtin(local_invocation_index) t: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    if (wid.x > 0u) {
        return;
    }
    // Sixteen invocations each total a block of 16 bins, in order.
    if (t < 16u) {
        var run = 0u;
        for (var k = 0u; k < 16u; k++) {
            run += atomicLoad(&hist[16u * t + k]);
            sums[16u * t + k] = run;
        }
    }
    workgroupBarrier();
    // One invocation turns the block totals into offsets.
    if (t == 0u) {
        var offset = 0u;
        for (var b = 0u; b < 16u; b++) {
            block_offset[b] = offset;
            offset += sums[16u * b + 15u];
        }
    }
    workgroupBarrier();
    cdf[t] = sums[t] + block_offset[t / 16u];
}

@compute @workgroup_size(256)
fn map(
    @builtin(local_invocation_index) t: u32,
    @builtin(workgroup_id) wid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    if (t == 0u) {
        atomicStore(&lowest, 0xffffffffu);
    }
    workgroupBarrier();
    if (cdf[t] > 0u) {
        atomicMin(&lowest, cdf[t]);
    }
    workgroupBarrier();
    let m = atomicLoad(&lowest);
    let n = arrayLength(&img);
    let d = n - m;
    let range = chunk(wid.x, groups.x);
    for (var i = range.x + t; i < range.y; i += 256u) {
        let v = img[i];
        var level = v;
        if (d > 0u) {
            level = (2u * (cdf[v] - m) * 255u + d) / (2u * d);
        }
        out[i] = level;
    }
}
