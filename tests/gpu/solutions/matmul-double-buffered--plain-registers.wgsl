// expect: passed
// Double buffering with register staging, written from the statement alone: each invocation
// fetches its share of the next slice into private arrays before the products, stores it into
// the other half after them, and waits at one workgroupBarrier() per slice.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup (x, y, z)
const twg = vec3({{totalWorkgroups}}); // workgroups in the dispatch (x, y, z)
const TX = u32(wgs.x);
const TY = u32(wgs.y);
const BK = 8u;          // depth of a slice along k
const ROWS4 = 2u * TY;  // groups of 4 rows of out per workgroup: 8 · wgs.y rows
const COLS4 = 2u * TX;  // vec4 columns of out per workgroup: 8 · wgs.x columns
const NA = BK * ROWS4;  // vec4s of a in one slice
const NB = BK * COLS4;  // vec4s of b in one slice
const NT = TX * TY;              // invocations per workgroup
const LA = (NA + NT - 1u) / NT;  // most vec4s of a one invocation copies per slice
const LB = (NB + NT - 1u) / NT;  // most vec4s of b one invocation copies per slice

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
var<workgroup> a_tile: array<vec4<f32>, 2u * NA>;
var<workgroup> b_tile: array<vec4<f32>, 2u * NB>;

// Slot i of a slice of a (slot = kk * ROWS4 + r4): rows 4·r4 … +3 of the tile at column kt + kk.
fn fetch_a(i: u32, row0: u32, kt: u32) -> vec4<f32> {
    let row = row0 + 4u * (i % ROWS4);
    let col = kt + i / ROWS4;
    if ((row >= dims.m) || (col >= dims.k)) { return vec4<f32>(0.0); }
    let p = row * dims.k + col;
    return vec4<f32>(a[p], a[p + dims.k], a[p + 2u * dims.k], a[p + 3u * dims.k]);
}

// Slot i of a slice of b (slot = kk * COLS4 + c4): row kt + kk, vec4 column col0 + c4.
fn fetch_b(i: u32, col0: u32, kt: u32) -> vec4<f32> {
    let n4 = dims.n / 4u;
    let row = kt + i / COLS4;
    let col4 = col0 + i % COLS4;
    if ((row >= dims.k) || (col4 >= n4)) { return vec4<f32>(0.0); }
    return b[row * n4 + col4];
}

fn put(row: u32, col4: u32, v: vec4<f32>) {
    let n4 = dims.n / 4u;
    if ((row < dims.m) && (col4 < n4)) { out[row * n4 + col4] = v; }
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let row0 = wid.y * 8u * TY; // the workgroup's first row of out
    let col0 = wid.x * COLS4;   // its first vec4 column of out
    var acc: array<vec4<f32>, 16>; // this invocation's 8 × 8 block
    let x = lid.x;
    let y = lid.y;
    let lidx = y * TX + x;
    let nslices = (dims.k + BK - 1u) / BK;
    var ra: array<vec4<f32>, LA>;
    var rb: array<vec4<f32>, LB>;

    // Slice 0 into half 0.
    for (var i = lidx; i < NA; i += NT) { a_tile[i] = fetch_a(i, row0, 0u); }
    for (var i = lidx; i < NB; i += NT) { b_tile[i] = fetch_b(i, col0, 0u); }
    workgroupBarrier();

    var h = 0u;
    for (var s = 0u; s < nslices; s++) {
        let more = (s + 1u) < nslices;
        let kt = (s + 1u) * BK;
        // Fetch the next slice into registers: the loads are in flight during the products.
        if (more) {
            for (var j = 0u; j < LA; j++) {
                let i = lidx + j * NT;
                if (i < NA) { ra[j] = fetch_a(i, row0, kt); }
            }
            for (var j = 0u; j < LB; j++) {
                let i = lidx + j * NT;
                if (i < NB) { rb[j] = fetch_b(i, col0, kt); }
            }
        }
        // Products out of half h.
        let ab = h * NA;
        let bb = h * NB;
        for (var kk = 0u; kk < BK; kk++) {
            let a0 = a_tile[ab + kk * ROWS4 + y];
            let a1 = a_tile[ab + kk * ROWS4 + y + TY];
            let b0 = b_tile[bb + kk * COLS4 + x];
            let b1 = b_tile[bb + kk * COLS4 + x + TX];
            acc[0] += a0.x * b0;  acc[1] += a0.x * b1;
            acc[2] += a0.y * b0;  acc[3] += a0.y * b1;
            acc[4] += a0.z * b0;  acc[5] += a0.z * b1;
            acc[6] += a0.w * b0;  acc[7] += a0.w * b1;
            acc[8] += a1.x * b0;  acc[9] += a1.x * b1;
            acc[10] += a1.y * b0; acc[11] += a1.y * b1;
            acc[12] += a1.z * b0; acc[13] += a1.z * b1;
            acc[14] += a1.w * b0; acc[15] += a1.w * b1;
        }
        // Store the fetched slice into half 1 - h: its last reads came before the previous barrier.
        if (more) {
            let na = (1u - h) * NA;
            let nb = (1u - h) * NB;
            for (var j = 0u; j < LA; j++) {
                let i = lidx + j * NT;
                if (i < NA) { a_tile[na + i] = ra[j]; }
            }
            for (var j = 0u; j < LB; j++) {
                let i = lidx + j * NT;
                if (i < NB) { b_tile[nb + i] = rb[j]; }
            }
        }
        workgroupBarrier();
        h = 1u - h;
    }

    let r0 = row0 + 4u * y;
    let r1 = row0 + 4u * (y + TY);
    let c0 = col0 + x;
    let c1 = col0 + x + TX;
    put(r0, c0, acc[0]);       put(r0, c1, acc[1]);
    put(r0 + 1u, c0, acc[2]);  put(r0 + 1u, c1, acc[3]);
    put(r0 + 2u, c0, acc[4]);  put(r0 + 2u, c1, acc[5]);
    put(r0 + 3u, c0, acc[6]);  put(r0 + 3u, c1, acc[7]);
    put(r1, c0, acc[8]);       put(r1, c1, acc[9]);
    put(r1 + 1u, c0, acc[10]); put(r1 + 1u, c1, acc[11]);
    put(r1 + 2u, c0, acc[12]); put(r1 + 2u, c1, acc[13]);
    put(r1 + 3u, c0, acc[14]); put(r1 + 3u, c1, acc[15]);
}
