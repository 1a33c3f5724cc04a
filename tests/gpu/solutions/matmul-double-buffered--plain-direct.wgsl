// expect: passed
// Double buffering with direct copies (no register staging), written from the statement alone:
// each step copies the next slice from device memory straight into the other half, multiplies
// out of the current half, then waits at one barrier; acc is indexed only with constants.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)
const TX = u32(wgs.x);
const TY = u32(wgs.y);
const BK = 8u;          // depth of a slice along k
const ROWS4 = 2u * TY;  // groups of 4 rows of out per workgroup: 8 · wgs.y rows
const COLS4 = 2u * TX;  // vec4 columns of out per workgroup: 8 · wgs.x columns
const NA = BK * ROWS4;  // vec4s of a in one slice
const NB = BK * COLS4;  // vec4s of b in one slice

struct Dims {
    m: u32, // rows of a and out (a multiple of 4)
    n: u32, // columns of b and out (a multiple of 4)
    k: u32, // columns of a, rows of b
}

@group(0) @binding(0) var<storage, read> a: array<f32>;               // m × k, row-major
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;         // k × n floats, row-major, 4 per element
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>; // m × n floats, row-major, 4 per element
@group(0) @binding(3) var<uniform> dims: Dims;

// Two halves each: the slice being multiplied, and the next one.
// Layout: a_tile[part * NA + kk * ROWS4 + r4] holds rows 4·r4 … 4·r4 + 3 of the tile at column kk;
//         b_tile[part * NB + kk * COLS4 + c4] holds vec4 column c4 of the tile at row kk.
var<workgroup> a_tile: array<vec4<f32>, 2u * NA>;
var<workgroup> b_tile: array<vec4<f32>, 2u * NB>;

// Copy columns kt … kt + 7 of the workgroup's rows of a and rows kt … kt + 7 of its columns of b
// into half `part`, with zeros past the edges of the matrices.
fn load_slice(part: u32, kt: u32, lidx: u32, row0: u32, col0: u32) {
    let n4 = dims.n / 4u;
    for (var i = lidx; i < NA; i += TX * TY) {
        let kk = i % BK;   // neighbouring invocations read neighbouring columns of a row of a
        let r4 = i / BK;
        let row = row0 + 4u * r4; // a multiple of 4, so row < m means row + 3 < m too
        let col = kt + kk;
        var v = vec4<f32>(0.0);
        if (row < dims.m && col < dims.k) {
            let p = row * dims.k + col;
            v = vec4<f32>(a[p], a[p + dims.k], a[p + 2u * dims.k], a[p + 3u * dims.k]);
        }
        a_tile[part * NA + kk * ROWS4 + r4] = v;
    }
    for (var i = lidx; i < NB; i += TX * TY) {
        let kk = i / COLS4;
        let c4 = i % COLS4;
        let row = kt + kk;
        let col4 = col0 + c4;
        var v = vec4<f32>(0.0);
        if (row < dims.k && col4 < n4) {
            v = b[row * n4 + col4];
        }
        b_tile[part * NB + i] = v;
    }
}

// One step along k: a0 holds rows 0 … 3 of the block, a1 rows 4 … 7; b0 and b1 its two vec4
// columns. Row r of the block accumulates into acc[2r] (column b0) and acc[2r + 1] (column b1).
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

// Store one vec4 of out, skipping rows and vec4 columns past the edges.
fn store(row: u32, col4: u32, v: vec4<f32>) {
    let n4 = dims.n / 4u;
    if (row < dims.m && col4 < n4) {
        out[row * n4 + col4] = v;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let row0 = wid.y * 8u * TY; // the workgroup's first row of out
    let col0 = wid.x * COLS4;   // its first vec4 column of out
    var acc: array<vec4<f32>, 16>; // this invocation's 8 × 8 block
    let lidx = lid.y * TX + lid.x;

    // Slice 0 into half 0, then one barrier before the loop.
    load_slice(0u, 0u, lidx, row0, col0);
    workgroupBarrier();

    var h = 0u; // the half holding the current slice
    for (var kt = 0u; kt < dims.k; kt += BK) {
        // Half 1 - h was last read in the previous step, before the barrier that ended it.
        // The condition depends only on dims.k and kt, so it is uniform.
        if (kt + BK < dims.k) {
            load_slice(1u - h, kt + BK, lidx, row0, col0);
        }
        let abase = h * NA;
        let bbase = h * NB;
        for (var kk = 0u; kk < BK; kk++) {
            let a0 = a_tile[abase + kk * ROWS4 + lid.y];
            let a1 = a_tile[abase + kk * ROWS4 + lid.y + TY];
            let b0 = b_tile[bbase + kk * COLS4 + lid.x];
            let b1 = b_tile[bbase + kk * COLS4 + lid.x + TX];
            multiply(&acc, a0, a1, b0, b1);
        }
        // One barrier: the next slice is complete, and half h is free to be overwritten.
        workgroupBarrier();
        h = 1u - h;
    }

    // Write-back: rows r0 … r0 + 3 and r1 … r1 + 3, vec4 columns c0 and c1.
    let r0 = row0 + 4u * lid.y;
    let r1 = row0 + 4u * (lid.y + TY);
    let c0 = col0 + lid.x;
    let c1 = col0 + lid.x + TX;
    store(r0, c0, acc[0]);
    store(r0, c1, acc[1]);
    store(r0 + 1u, c0, acc[2]);
    store(r0 + 1u, c1, acc[3]);
    store(r0 + 2u, c0, acc[4]);
    store(r0 + 2u, c1, acc[5]);
    store(r0 + 3u, c0, acc[6]);
    store(r0 + 3u, c1, acc[7]);
    store(r1, c0, acc[8]);
    store(r1, c1, acc[9]);
    store(r1 + 1u, c0, acc[10]);
    store(r1 + 1u, c1, acc[11]);
    store(r1 + 2u, c0, acc[12]);
    store(r1 + 2u, c1, acc[13]);
    store(r1 + 3u, c0, acc[14]);
    store(r1 + 3u, c1, acc[15]);
}
