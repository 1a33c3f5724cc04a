// expect: compile-error at 85:5
// message: the `return` at line 71 is taken by only some invocations
// Wrong on purpose: the carry pass sends the invocations past the end of the
// array home first, before the barrier that publishes the carry. The last
// block's other invocations then wait at a barrier the idle ones never
// reach. Chromium's compiler rejects this shader and naga (Firefox's, and
// the native one) accepts it; the judge's synccheck must refuse it in every
// engine, at the barrier of the second entry point.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read> flags: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> block_flags: array<u32>;
@group(0) @binding(4) var<storage, read_write> block_sums: array<u32>;
var<workgroup> smem: array<vec2<u32>, {{smemSize}}>;
var<workgroup> carry: u32;
var<workgroup> first_flag: atomic<u32>;

fn combine(left: vec2<u32>, right: vec2<u32>) -> vec2<u32> {
    var v = left.y + right.y;
    if (right.x != 0u) {
        v = right.y;
    }
    return vec2(left.x | right.x, v);
}

@compute @workgroup_size({{workgroupSize}})
fn scan_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let g = global_id.x;
    var pair = vec2(0u, 0u);
    if (g < arrayLength(&values)) {
        pair = vec2(flags[g], values[g]);
    }
    smem[i] = pair;
    workgroupBarrier();
    for (var d = 1u; d < u32(wgs.x); d *= 2u) {
        var left = vec2(0u, 0u);
        if (i >= d) {
            left = smem[i - d];
        }
        workgroupBarrier();
        smem[i] = combine(left, smem[i]);
        workgroupBarrier();
    }
    let mine = smem[i];
    if (g < arrayLength(&out)) {
        out[g] = mine.y;
    }
    let w = workgroup_id.x;
    if (i == u32(wgs.x) - 1u && w < arrayLength(&block_sums)) {
        block_flags[w] = mine.x;
        block_sums[w] = mine.y;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn add_carries(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let i = local_id.x;
    let g = global_id.x;
    if (g >= arrayLength(&out)) {
        return;
    }
    if (i == 0u) {
        var c = 0u;
        for (var v = 0u; v < workgroup_id.x; v++) {
            if (block_flags[v] != 0u) {
                c = block_sums[v];
            } else {
                c += block_sums[v];
            }
        }
        carry = c;
        atomicStore(&first_flag, u32(wgs.x));
    }
    workgroupBarrier();
    if (flags[g] != 0u) {
        atomicMin(&first_flag, i);
    }
    workgroupBarrier();
    if (i < atomicLoad(&first_flag)) {
        out[g] += carry;
    }
}
