// expect: passed
// Correct, in another order of combining: a work-efficient (Blelloch) scan,
// an up-sweep that builds a tree of partial compositions, then a down-sweep
// from the identity (1, 0) at the root that hands each subtree the
// composition of everything before it. Each pair meets about 2·log2(wgs.x)
// combines instead of the reference's log2(wgs.x), rounded differently:
// it must pass at the same tolerance. The tree has a power-of-two number of
// leaves, up to 256; leaves past the block hold the identity.
const wgs = vec3({{workgroupSize}});

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> h: array<f32>;
@group(0) @binding(3) var<storage, read_write> blocks: array<f32>;
var<workgroup> tree: array<vec2<f32>, 256>;
var<workgroup> carry: f32;

fn combine(first: vec2<f32>, second: vec2<f32>) -> vec2<f32> {
    return vec2(second.x * first.x, second.x * first.y + second.y);
}

// The smallest power of two at least wgs.x.
fn leaves() -> u32 {
    var p = 1u;
    while (p < u32(wgs.x)) {
        p *= 2u;
    }
    return p;
}

// Loads this invocation's pair (and the identity into a leaf past wgs.x),
// then sweeps up: afterwards tree[leaves() - 1] is the block's total.
fn up_sweep(i: u32, g: u32) -> vec2<f32> {
    let p = leaves();
    var pair = vec2(1.0, 0.0);
    if (g < arrayLength(&a)) {
        pair = vec2(a[g], b[g]);
    }
    tree[i] = pair;
    if (i + u32(wgs.x) < p) {
        tree[i + u32(wgs.x)] = vec2(1.0, 0.0);
    }
    workgroupBarrier();
    for (var d = 1u; d < p; d *= 2u) {
        if (i < p / (2u * d)) {
            let right = (i + 1u) * 2u * d - 1u;
            tree[right] = combine(tree[right - d], tree[right]);
        }
        workgroupBarrier();
    }
    return pair;
}

@compute @workgroup_size({{workgroupSize}})
fn reduce_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    _ = up_sweep(local_id.x, global_id.x);
    let w = workgroup_id.x;
    if (local_id.x == 0u && 2u * w + 1u < arrayLength(&blocks)) {
        let total = tree[leaves() - 1u];
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
    let i = local_id.x;
    let p = leaves();
    if (i == 0u) {
        var c = 0.0;
        for (var w = 0u; w < workgroup_id.x; w++) {
            c = blocks[2u * w] * c + blocks[2u * w + 1u];
        }
        carry = c;
    }
    let mine = up_sweep(i, global_id.x);
    // The root becomes the identity: nothing comes before the whole block.
    if (i == 0u) {
        tree[p - 1u] = vec2(1.0, 0.0);
    }
    workgroupBarrier();
    for (var d = p / 2u; d > 0u; d /= 2u) {
        if (i < p / (2u * d)) {
            let right = (i + 1u) * 2u * d - 1u;
            let before = tree[right];
            let left_total = tree[right - d];
            tree[right - d] = before;
            tree[right] = combine(before, left_total);
        }
        workgroupBarrier();
    }
    // tree[i] is now the composition of the steps before i in the block.
    let prefix = combine(tree[i], mine);
    let g = global_id.x;
    if (g < arrayLength(&h)) {
        h[g] = prefix.x * carry + prefix.y;
    }
}
