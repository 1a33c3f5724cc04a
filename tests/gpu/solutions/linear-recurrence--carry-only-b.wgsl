// expect: failed
// Wrong on purpose: the carry is built as in Scan Across Workgroups, the sum
// of the earlier blocks' B, and added to every element. That ignores the
// products of a: the carry must be multiplied by A_v at each block it
// crosses (c = A_v * c + B_v) and by the prefix's A where it lands.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> h: array<f32>;
@group(0) @binding(3) var<storage, read_write> blocks: array<f32>;
var<workgroup> smem: array<vec2<f32>, {{smemSize}}>;
var<workgroup> carry: f32;

// The map h -> first.x * h + first.y, then h -> second.x * h + second.y.
fn combine(first: vec2<f32>, second: vec2<f32>) -> vec2<f32> {
    return vec2(second.x * first.x, second.x * first.y + second.y);
}

// Hillis-Steele scan of the block's pairs in smem; returns this
// invocation's inclusive prefix. Lanes past the end hold the identity (1, 0).
fn scan_block(i: u32, g: u32) -> vec2<f32> {
    var pair = vec2(1.0, 0.0);
    if (g < arrayLength(&a)) {
        pair = vec2(a[g], b[g]);
    }
    smem[i] = pair;
    workgroupBarrier();
    for (var d = 1u; d < u32(wgs.x); d *= 2u) {
        var left = vec2(1.0, 0.0);
        if (i >= d) {
            left = smem[i - d];
        }
        workgroupBarrier();
        smem[i] = combine(left, smem[i]);
        workgroupBarrier();
    }
    return smem[i];
}

@compute @workgroup_size({{workgroupSize}})
fn reduce_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let total = scan_block(local_id.x, global_id.x);
    let w = workgroup_id.x;
    if (local_id.x == u32(wgs.x) - 1u && 2u * w + 1u < arrayLength(&blocks)) {
        blocks[2u * w] = total.x;
        blocks[2u * w + 1u] = total.y;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn scan_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    if (local_id.x == 0u) {
        // h at the end of the block before this one: the earlier blocks'
        // totals applied in order to h[-1] = 0.
        var c = 0.0;
        for (var w = 0u; w < workgroup_id.x; w++) {
            c += blocks[2u * w + 1u];
        }
        carry = c;
    }
    // scan_block's first barrier also makes `carry` visible to everyone.
    let prefix = scan_block(local_id.x, global_id.x);
    let g = global_id.x;
    if (g < arrayLength(&h)) {
        h[g] = prefix.y + carry;
    }
}
