// expect: passed
// Correct, another way. sort_blocks uses the other form of the bitonic network, where every
// comparison is ascending: each stage starts with a "flip" step that pairs place lo with its
// mirror in the run of `size` (lo XOR (size - 1)), which turns two sorted runs into a bitonic
// pair, and goes on with the usual half-cleaning steps. merge_blocks loads its block into
// workgroup memory, and its invocations take the other blocks one each (j = local_id.x,
// local_id.x + W, …), walking block j and the own block together as in a serial merge: a
// pointer into block j only moves forward, so the walk reads each key of block j once, plus
// one read per own key where it stops. Each walk adds its counts to the own keys' places with
// atomicAdd, in any order, then a barrier, then every key goes to its place.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);
const P = u32({{smemSize}});

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> blocks: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;

var<workgroup> tile: array<u32, {{smemSize}}>;
var<workgroup> place: array<atomic<u32>, {{smemSize}}>;

fn compare_exchange(lo: u32, hi: u32) {
    let a = tile[lo];
    let b = tile[hi];
    if (a > b) {
        tile[lo] = b;
        tile[hi] = a;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn sort_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = arrayLength(&keys);
    let first = workgroup_id.x * P;
    for (var i = local_id.x; i < P; i += W) {
        var key = 0xffffffffu;
        if (first + i < n) {
            key = keys[first + i];
        }
        tile[i] = key;
    }
    workgroupBarrier();
    for (var size = 2u; size <= P; size *= 2u) {
        // The flip: pair t's lower place, mirrored within its run of `size`.
        let half = size / 2u;
        for (var t = local_id.x; t < P / 2u; t += W) {
            let lo = size * (t / half) + t % half;
            compare_exchange(lo, lo ^ (size - 1u));
        }
        workgroupBarrier();
        for (var dist = half / 2u; dist > 0u; dist /= 2u) {
            for (var t = local_id.x; t < P / 2u; t += W) {
                let lo = 2u * dist * (t / dist) + t % dist;
                compare_exchange(lo, lo + dist);
            }
            workgroupBarrier();
        }
    }
    for (var i = local_id.x; i < P; i += W) {
        if (first + i < n) {
            blocks[first + i] = tile[i];
        }
    }
}

@compute @workgroup_size({{workgroupSize}})
fn merge_blocks(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
    @builtin(num_workgroups) num_workgroups: vec3<u32>,
) {
    let n = arrayLength(&blocks);
    let k = workgroup_id.x;
    let first = k * P;
    let real = min(P, n - first);
    for (var r = local_id.x; r < real; r += W) {
        tile[r] = blocks[first + r];
        atomicStore(&place[r], r);
    }
    workgroupBarrier();
    for (var j = local_id.x; j < num_workgroups.x; j += W) {
        if (j == k) {
            continue;
        }
        let start = j * P;
        let len = min(P, n - start);
        let ties = j < k;
        var p = 0u; // keys of block j before the current own key
        for (var r = 0u; r < real; r++) {
            let x = tile[r];
            while (p < len) {
                let y = blocks[start + p];
                if (y < x || (ties && y == x)) {
                    p++;
                } else {
                    break;
                }
            }
            atomicAdd(&place[r], p);
        }
    }
    workgroupBarrier();
    for (var r = local_id.x; r < real; r += W) {
        out[atomicLoad(&place[r])] = tile[r];
    }
}
