// Double-Buffered Matrix Multiply: each invocation keeps an 8 × 8 block of
// out in registers (two groups of 4 rows, two vec4 columns), so a workgroup
// of wgs.x × wgs.y invocations owns an (8 · wgs.y) × (8 · wgs.x) tile. The
// workgroup walks along k in slices BK = 8 deep, staged in workgroup memory
// that has two halves: while it multiplies out of one half, the next slice
// is already on its way from device memory into registers, and goes into the
// other half afterwards. Nobody reads that half until the next barrier, so
// one barrier per slice is enough.
const wgs = vec3({{workgroupSize}});
const TX = u32(wgs.x);
const TY = u32(wgs.y);
const BK = 8u;          // depth of a slice along k
const ROWS4 = 2u * TY;  // groups of 4 rows of out per workgroup
const COLS4 = 2u * TX;  // vec4 columns of out per workgroup
const NA = BK * ROWS4;  // vec4s of a in one slice
const NB = BK * COLS4;  // vec4s of b in one slice

struct Dims {
    m: u32, // rows of a and out (a multiple of 4)
    n: u32, // columns of b and out (a multiple of 4)
    k: u32, // columns of a, rows of b
}

@group(0) @binding(0) var<storage, read> a: array<f32>;               // m × k, row-major
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;         // k × n floats, 4 per element
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>; // m × n floats, 4 per element
@group(0) @binding(3) var<uniform> dims: Dims;

// Half h of a_tile: a_tile[h * NA + kk * ROWS4 + r4] holds rows 4·r4 … 4·r4 + 3
// of the workgroup's rows at column k0 + kk of a (k-major, so that one vec4
// feeds four rows). Half h of b_tile: b_tile[h * NB + kk * COLS4 + c4] holds
// vec4 column c4 of the workgroup's columns at row k0 + kk of b.
var<workgroup> a_tile: array<vec4<f32>, 2u * NA>;
var<workgroup> b_tile: array<vec4<f32>, 2u * NB>;

// Element e of the slice of a that starts at column k0: four rows of one
// column, as a vec4 (0 past the edges).
fn load_a(row0: u32, k0: u32, e: u32) -> vec4<f32> {
    let r = row0 + 4u * (e / BK);
    let c = k0 + e % BK;
    if (c >= dims.k || r >= dims.m) {
        return vec4(0.0);
    }
    let i = r * dims.k + c;
    return vec4(a[i], a[i + dims.k], a[i + 2u * dims.k], a[i + 3u * dims.k]);
}

// Element e of the slice of b that starts at row k0: one vec4 of one row
// (0 past the edges).
fn load_b(col0: u32, k0: u32, e: u32) -> vec4<f32> {
    let n4 = dims.n / 4u;
    let r = k0 + e / COLS4;
    let c4 = col0 + e % COLS4;
    if (r >= dims.k || c4 >= n4) {
        return vec4(0.0);
    }
    return b[r * n4 + c4];
}

// Where element e of a slice of a goes within a half of a_tile (k-major).
fn a_place(e: u32) -> u32 {
    return (e % BK) * ROWS4 + e / BK;
}

// The 64 multiply-adds of one column of a slice: rows 4·lid.y … (a0) and
// 4·(lid.y + TY) … (a1) of the tile, times vec4 columns lid.x (b0) and
// lid.x + TX (b1). acc[2i] and acc[2i + 1] are row i of the block.
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
    let t = lid.y * TX + lid.x;   // this invocation's number in the workgroup
    let threads = TX * TY;
    let row0 = wid.y * 4u * ROWS4; // the tile's first row of out
    let col0 = wid.x * COLS4;      // the tile's first vec4 column of out
    var acc: array<vec4<f32>, 16>; // the 8 × 8 block, zeros to start

    // The first slice goes straight into half 0.
    for (var e = t; e < NA; e += threads) {
        a_tile[a_place(e)] = load_a(row0, 0u, e);
    }
    for (var e = t; e < NB; e += threads) {
        b_tile[e] = load_b(col0, 0u, e);
    }
    workgroupBarrier();

    var h = 0u; // the half that holds the slice from k0
    for (var k0 = 0u; k0 < dims.k; k0 += BK) {
        let next = k0 + BK;
        // 1. Start fetching this invocation's first two elements of the next
        //    slice into registers: the loads are in flight during the products.
        var pa = array<vec4<f32>, 2>(vec4(0.0), vec4(0.0));
        var pb = array<vec4<f32>, 2>(vec4(0.0), vec4(0.0));
        if (next < dims.k) {
            if (t < NA) { pa[0] = load_a(row0, next, t); }
            if (t + threads < NA) { pa[1] = load_a(row0, next, t + threads); }
            if (t < NB) { pb[0] = load_b(col0, next, t); }
            if (t + threads < NB) { pb[1] = load_b(col0, next, t + threads); }
        }

        // 2. The products, out of half h. One call per column kk of the slice,
        //    written out, as measured (reference-loops.wgsl has the loop).
        let ha = h * NA;
        let hb = h * NB;
        multiply(&acc, a_tile[ha + 0u * ROWS4 + lid.y], a_tile[ha + 0u * ROWS4 + lid.y + TY], b_tile[hb + 0u * COLS4 + lid.x], b_tile[hb + 0u * COLS4 + lid.x + TX]);
        multiply(&acc, a_tile[ha + 1u * ROWS4 + lid.y], a_tile[ha + 1u * ROWS4 + lid.y + TY], b_tile[hb + 1u * COLS4 + lid.x], b_tile[hb + 1u * COLS4 + lid.x + TX]);
        multiply(&acc, a_tile[ha + 2u * ROWS4 + lid.y], a_tile[ha + 2u * ROWS4 + lid.y + TY], b_tile[hb + 2u * COLS4 + lid.x], b_tile[hb + 2u * COLS4 + lid.x + TX]);
        multiply(&acc, a_tile[ha + 3u * ROWS4 + lid.y], a_tile[ha + 3u * ROWS4 + lid.y + TY], b_tile[hb + 3u * COLS4 + lid.x], b_tile[hb + 3u * COLS4 + lid.x + TX]);
        multiply(&acc, a_tile[ha + 4u * ROWS4 + lid.y], a_tile[ha + 4u * ROWS4 + lid.y + TY], b_tile[hb + 4u * COLS4 + lid.x], b_tile[hb + 4u * COLS4 + lid.x + TX]);
        multiply(&acc, a_tile[ha + 5u * ROWS4 + lid.y], a_tile[ha + 5u * ROWS4 + lid.y + TY], b_tile[hb + 5u * COLS4 + lid.x], b_tile[hb + 5u * COLS4 + lid.x + TX]);
        multiply(&acc, a_tile[ha + 6u * ROWS4 + lid.y], a_tile[ha + 6u * ROWS4 + lid.y + TY], b_tile[hb + 6u * COLS4 + lid.x], b_tile[hb + 6u * COLS4 + lid.x + TX]);
        multiply(&acc, a_tile[ha + 7u * ROWS4 + lid.y], a_tile[ha + 7u * ROWS4 + lid.y + TY], b_tile[hb + 7u * COLS4 + lid.x], b_tile[hb + 7u * COLS4 + lid.x + TX]);

        // 3. The next slice into the other half. Every invocation finished
        //    reading that half before the last barrier, and nobody reads it
        //    again before the barrier below: no race, and no second barrier.
        if (next < dims.k) {
            let oa = (1u - h) * NA;
            let ob = (1u - h) * NB;
            if (t < NA) { a_tile[oa + a_place(t)] = pa[0]; }
            if (t + threads < NA) { a_tile[oa + a_place(t + threads)] = pa[1]; }
            if (t < NB) { b_tile[ob + t] = pb[0]; }
            if (t + threads < NB) { b_tile[ob + t + threads] = pb[1]; }
            // A workgroup narrower or shorter than 8 has more than two
            // elements per invocation: the rest go straight in.
            for (var e = t + 2u * threads; e < NA; e += threads) {
                a_tile[oa + a_place(e)] = load_a(row0, next, e);
            }
            for (var e = t + 2u * threads; e < NB; e += threads) {
                b_tile[ob + e] = load_b(col0, next, e);
            }
        }
        workgroupBarrier();
        h = 1u - h;
    }

    // The block back to out, row by row, each write guarded: the tile may
    // stick out past the last rows or columns. Written out, as the products
    // are: a loop here indexes acc at run time, which costs far more.
    let c0 = col0 + lid.x;      // the block's first vec4 column
    let c1 = col0 + lid.x + TX; // its second
    let r0 = row0 + 4u * lid.y;        // its first group of 4 rows
    let r1 = row0 + 4u * (lid.y + TY); // its second
    if (r0 < dims.m) {
        if (c0 < n4) { out[(r0 + 0u) * n4 + c0] = acc[0]; }
        if (c1 < n4) { out[(r0 + 0u) * n4 + c1] = acc[1]; }
        if (c0 < n4) { out[(r0 + 1u) * n4 + c0] = acc[2]; }
        if (c1 < n4) { out[(r0 + 1u) * n4 + c1] = acc[3]; }
        if (c0 < n4) { out[(r0 + 2u) * n4 + c0] = acc[4]; }
        if (c1 < n4) { out[(r0 + 2u) * n4 + c1] = acc[5]; }
        if (c0 < n4) { out[(r0 + 3u) * n4 + c0] = acc[6]; }
        if (c1 < n4) { out[(r0 + 3u) * n4 + c1] = acc[7]; }
    }
    if (r1 < dims.m) {
        if (c0 < n4) { out[(r1 + 0u) * n4 + c0] = acc[8]; }
        if (c1 < n4) { out[(r1 + 0u) * n4 + c1] = acc[9]; }
        if (c0 < n4) { out[(r1 + 1u) * n4 + c0] = acc[10]; }
        if (c1 < n4) { out[(r1 + 1u) * n4 + c1] = acc[11]; }
        if (c0 < n4) { out[(r1 + 2u) * n4 + c0] = acc[12]; }
        if (c1 < n4) { out[(r1 + 2u) * n4 + c1] = acc[13]; }
        if (c0 < n4) { out[(r1 + 3u) * n4 + c0] = acc[14]; }
        if (c1 < n4) { out[(r1 + 3u) * n4 + c1] = acc[15]; }
    }
}
