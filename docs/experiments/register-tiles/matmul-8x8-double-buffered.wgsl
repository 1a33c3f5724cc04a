// Experiment (docs/experiments/register-tiles), not a puzzle yet: 55 % of the FP32 peak
// at 2048^3 on an NVIDIA H200 (docs/performance.md). Each invocation keeps an 8 × 8 block of sums in
// registers (two groups of 4 rows, two vec4 columns); the workgroup stages BK-deep
// slices of a and b in workgroup memory, in two halves: while it multiplies out of
// one half, each invocation has already fetched its share of the next slice into
// registers, and stores it into the other half afterwards. One barrier per slice.
const wgs = vec3({{workgroupSize}});
const TX = u32(wgs.x);
const TY = u32(wgs.y);
const BK = 8u;
const ROWS4 = 2u * TY;  // groups of 4 rows of out per workgroup
const COLS4 = 2u * TX;  // vec4 columns of out per workgroup
const NA = BK * ROWS4;  // vec4s of a per slice
const NB = BK * COLS4;  // vec4s of b per slice

struct Dims {
    m: u32, // rows of a and out (a multiple of 4)
    n: u32, // columns of b and out (a multiple of 4)
    k: u32, // columns of a, rows of b
}

@group(0) @binding(0) var<storage, read> a: array<f32>;               // m × k, row-major
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;         // k × n floats, 4 per element
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>; // m × n floats, 4 per element
@group(0) @binding(3) var<uniform> dims: Dims;

// Half h of a_tile holds a_tile[h·NA + kk·ROWS4 + r4]: rows 4·r4 … 4·r4 + 3 of the
// workgroup's rows, column k0 + kk. Half h of b_tile holds b_tile[h·NB + kk·COLS4 + c4].
var<workgroup> a_tile: array<vec4<f32>, 2u * NA>;
var<workgroup> b_tile: array<vec4<f32>, 2u * NB>;

// Element e of the slice of a from column k0: four rows of one column, as a vec4.
fn load_a(row0: u32, k0: u32, e: u32) -> vec4<f32> {
    let r = row0 + 4u * (e / BK);
    let c = k0 + e % BK;
    if (c >= dims.k || r >= dims.m) {
        return vec4(0.0);
    }
    let i = r * dims.k + c;
    return vec4(a[i], a[i + dims.k], a[i + 2u * dims.k], a[i + 3u * dims.k]);
}

// Element e of the slice of b from row k0: one vec4 of one row.
fn load_b(col0: u32, k0: u32, e: u32) -> vec4<f32> {
    let n4 = dims.n / 4u;
    let r = k0 + e / COLS4;
    let c4 = col0 + e % COLS4;
    if (r >= dims.k || c4 >= n4) {
        return vec4(0.0);
    }
    return b[r * n4 + c4];
}

// Where element e of a slice of a goes in a half of a_tile.
fn a_place(e: u32) -> u32 {
    return (e % BK) * ROWS4 + e / BK;
}

// The 64 products of step kk: rows 4·lid.y … (a0) and 4·(lid.y + TY) … (a1)
// times vec4 columns lid.x (b0) and lid.x + TX (b1).
fn multiply(acc: ptr<function, array<vec4<f32>, 16>>, a0: vec4<f32>, a1: vec4<f32>, b0: vec4<f32>, b1: vec4<f32>) {
    (*acc)[0] += a0.x * b0;
    (*acc)[1] += a0.x * b1;
    (*acc)[2] += a0.y * b0;
    (*acc)[3] += a0.y * b1;
    (*acc)[4] += a0.z * b0;
    (*acc)[5] += a0.z * b1;
    (*acc)[6] += a0.w * b0;
    (*acc)[7] += a0.w * b1;
    (*acc)[8] += a1.x * b0;
    (*acc)[9] += a1.x * b1;
    (*acc)[10] += a1.y * b0;
    (*acc)[11] += a1.y * b1;
    (*acc)[12] += a1.z * b0;
    (*acc)[13] += a1.z * b1;
    (*acc)[14] += a1.w * b0;
    (*acc)[15] += a1.w * b1;
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n4 = dims.n / 4u;
    let t = lid.y * TX + lid.x;
    let threads = TX * TY;
    let row0 = wid.y * 4u * ROWS4;
    let col0 = wid.x * COLS4;
    var acc: array<vec4<f32>, 16>;

    // The first slice, straight into half 0.
    for (var e = t; e < NA; e += threads) {
        a_tile[a_place(e)] = load_a(row0, 0u, e);
    }
    for (var e = t; e < NB; e += threads) {
        b_tile[e] = load_b(col0, 0u, e);
    }
    workgroupBarrier();

    var half = 0u;
    for (var k0 = 0u; k0 < dims.k; k0 += BK) {
        let next = k0 + BK;
        // 1. Fetch this invocation's first two elements of the next slice into
        //    registers now: the loads are in flight during the products below.
        var pa = array<vec4<f32>, 2>(vec4(0.0), vec4(0.0));
        var pb = array<vec4<f32>, 2>(vec4(0.0), vec4(0.0));
        if (next < dims.k) {
            if (t < NA) { pa[0] = load_a(row0, next, t); }
            if (t + threads < NA) { pa[1] = load_a(row0, next, t + threads); }
            if (t < NB) { pb[0] = load_b(col0, next, t); }
            if (t + threads < NB) { pb[1] = load_b(col0, next, t + threads); }
        }
        // 2. The products out of this half.
        let ha = half * NA;
        let hb = half * NB;
        // One call per column kk of the slice, written out: with a loop over kk
        // the compiler keeps acc in slow memory (see docs/performance.md).
        multiply(&acc, a_tile[ha + 0u * ROWS4 + lid.y], a_tile[ha + 0u * ROWS4 + lid.y + TY], b_tile[hb + 0u * COLS4 + lid.x], b_tile[hb + 0u * COLS4 + lid.x + TX]);
        multiply(&acc, a_tile[ha + 1u * ROWS4 + lid.y], a_tile[ha + 1u * ROWS4 + lid.y + TY], b_tile[hb + 1u * COLS4 + lid.x], b_tile[hb + 1u * COLS4 + lid.x + TX]);
        multiply(&acc, a_tile[ha + 2u * ROWS4 + lid.y], a_tile[ha + 2u * ROWS4 + lid.y + TY], b_tile[hb + 2u * COLS4 + lid.x], b_tile[hb + 2u * COLS4 + lid.x + TX]);
        multiply(&acc, a_tile[ha + 3u * ROWS4 + lid.y], a_tile[ha + 3u * ROWS4 + lid.y + TY], b_tile[hb + 3u * COLS4 + lid.x], b_tile[hb + 3u * COLS4 + lid.x + TX]);
        multiply(&acc, a_tile[ha + 4u * ROWS4 + lid.y], a_tile[ha + 4u * ROWS4 + lid.y + TY], b_tile[hb + 4u * COLS4 + lid.x], b_tile[hb + 4u * COLS4 + lid.x + TX]);
        multiply(&acc, a_tile[ha + 5u * ROWS4 + lid.y], a_tile[ha + 5u * ROWS4 + lid.y + TY], b_tile[hb + 5u * COLS4 + lid.x], b_tile[hb + 5u * COLS4 + lid.x + TX]);
        multiply(&acc, a_tile[ha + 6u * ROWS4 + lid.y], a_tile[ha + 6u * ROWS4 + lid.y + TY], b_tile[hb + 6u * COLS4 + lid.x], b_tile[hb + 6u * COLS4 + lid.x + TX]);
        multiply(&acc, a_tile[ha + 7u * ROWS4 + lid.y], a_tile[ha + 7u * ROWS4 + lid.y + TY], b_tile[hb + 7u * COLS4 + lid.x], b_tile[hb + 7u * COLS4 + lid.x + TX]);
        // 3. The next slice into the other half: nobody reads it until after the
        //    barrier, and everybody finished reading it before the last barrier.
        if (next < dims.k) {
            let other_a = (1u - half) * NA;
            let other_b = (1u - half) * NB;
            if (t < NA) { a_tile[other_a + a_place(t)] = pa[0]; }
            if (t + threads < NA) { a_tile[other_a + a_place(t + threads)] = pa[1]; }
            if (t < NB) { b_tile[other_b + t] = pb[0]; }
            if (t + threads < NB) { b_tile[other_b + t + threads] = pb[1]; }
            // Small workgroups have more than two elements each: the rest directly.
            for (var e = t + 2u * threads; e < NA; e += threads) {
                a_tile[other_a + a_place(e)] = load_a(row0, next, e);
            }
            for (var e = t + 2u * threads; e < NB; e += threads) {
                b_tile[other_b + e] = load_b(col0, next, e);
            }
        }
        workgroupBarrier();
        half = 1u - half;
    }

    let row00 = row0 + 4u * (lid.y + 0u * TY) + 0u;
    if (row00 < dims.m && col0 + lid.x + 0u * TX < n4) { out[row00 * n4 + col0 + lid.x + 0u * TX] = acc[0]; }
    if (row00 < dims.m && col0 + lid.x + 1u * TX < n4) { out[row00 * n4 + col0 + lid.x + 1u * TX] = acc[1]; }
    let row01 = row0 + 4u * (lid.y + 0u * TY) + 1u;
    if (row01 < dims.m && col0 + lid.x + 0u * TX < n4) { out[row01 * n4 + col0 + lid.x + 0u * TX] = acc[2]; }
    if (row01 < dims.m && col0 + lid.x + 1u * TX < n4) { out[row01 * n4 + col0 + lid.x + 1u * TX] = acc[3]; }
    let row02 = row0 + 4u * (lid.y + 0u * TY) + 2u;
    if (row02 < dims.m && col0 + lid.x + 0u * TX < n4) { out[row02 * n4 + col0 + lid.x + 0u * TX] = acc[4]; }
    if (row02 < dims.m && col0 + lid.x + 1u * TX < n4) { out[row02 * n4 + col0 + lid.x + 1u * TX] = acc[5]; }
    let row03 = row0 + 4u * (lid.y + 0u * TY) + 3u;
    if (row03 < dims.m && col0 + lid.x + 0u * TX < n4) { out[row03 * n4 + col0 + lid.x + 0u * TX] = acc[6]; }
    if (row03 < dims.m && col0 + lid.x + 1u * TX < n4) { out[row03 * n4 + col0 + lid.x + 1u * TX] = acc[7]; }
    let row10 = row0 + 4u * (lid.y + 1u * TY) + 0u;
    if (row10 < dims.m && col0 + lid.x + 0u * TX < n4) { out[row10 * n4 + col0 + lid.x + 0u * TX] = acc[8]; }
    if (row10 < dims.m && col0 + lid.x + 1u * TX < n4) { out[row10 * n4 + col0 + lid.x + 1u * TX] = acc[9]; }
    let row11 = row0 + 4u * (lid.y + 1u * TY) + 1u;
    if (row11 < dims.m && col0 + lid.x + 0u * TX < n4) { out[row11 * n4 + col0 + lid.x + 0u * TX] = acc[10]; }
    if (row11 < dims.m && col0 + lid.x + 1u * TX < n4) { out[row11 * n4 + col0 + lid.x + 1u * TX] = acc[11]; }
    let row12 = row0 + 4u * (lid.y + 1u * TY) + 2u;
    if (row12 < dims.m && col0 + lid.x + 0u * TX < n4) { out[row12 * n4 + col0 + lid.x + 0u * TX] = acc[12]; }
    if (row12 < dims.m && col0 + lid.x + 1u * TX < n4) { out[row12 * n4 + col0 + lid.x + 1u * TX] = acc[13]; }
    let row13 = row0 + 4u * (lid.y + 1u * TY) + 3u;
    if (row13 < dims.m && col0 + lid.x + 0u * TX < n4) { out[row13 * n4 + col0 + lid.x + 0u * TX] = acc[14]; }
    if (row13 < dims.m && col0 + lid.x + 1u * TX < n4) { out[row13 * n4 + col0 + lid.x + 1u * TX] = acc[15]; }
}
