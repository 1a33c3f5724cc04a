// expect: over-budget in some cases
// message: barrier
// Right values, but no double buffering (written from the statement alone): only the first half
// of each tile is used, so every slice needs two barriers, one after the copy and one after the
// products, where the lesson asks for one.
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
var<workgroup> a_tile: array<vec4<f32>, 2u * NA>;
var<workgroup> b_tile: array<vec4<f32>, 2u * NB>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let row0 = wid.y * 8u * TY; // the workgroup's first row of out
    let col0 = wid.x * COLS4;   // its first vec4 column of out
    var acc: array<vec4<f32>, 16>; // this invocation's 8 × 8 block
    let x = lid.x;
    let y = lid.y;
    let lidx = y * TX + x;
    let n4 = dims.n / 4u;

    for (var kt = 0u; kt < dims.k; kt += BK) {
        // Copy the slice into the first half only (slot kk * ROWS4 + r4, kk * COLS4 + c4).
        for (var i = lidx; i < NA; i += TX * TY) {
            let row = row0 + 4u * (i % ROWS4);
            let col = kt + i / ROWS4;
            var v = vec4<f32>(0.0);
            if ((row < dims.m) && (col < dims.k)) {
                let p = row * dims.k + col;
                v = vec4<f32>(a[p], a[p + dims.k], a[p + 2u * dims.k], a[p + 3u * dims.k]);
            }
            a_tile[i] = v;
        }
        for (var i = lidx; i < NB; i += TX * TY) {
            let row = kt + i / COLS4;
            let col4 = col0 + i % COLS4;
            var v = vec4<f32>(0.0);
            if ((row < dims.k) && (col4 < n4)) { v = b[row * n4 + col4]; }
            b_tile[i] = v;
        }
        workgroupBarrier(); // the slice is complete before anyone reads it

        for (var kk = 0u; kk < BK; kk++) {
            let a0 = a_tile[kk * ROWS4 + y];
            let a1 = a_tile[kk * ROWS4 + y + TY];
            let b0 = b_tile[kk * COLS4 + x];
            let b1 = b_tile[kk * COLS4 + x + TX];
            for (var i = 0u; i < 4u; i++) {
                acc[2u * i] += a0[i] * b0;
                acc[2u * i + 1u] += a0[i] * b1;
                acc[8u + 2u * i] += a1[i] * b0;
                acc[8u + 2u * i + 1u] += a1[i] * b1;
            }
        }
        workgroupBarrier(); // nobody overwrites the slice while another still reads it
    }

    for (var r = 0u; r < 8u; r++) {
        let row = row0 + 4u * (y + (r / 4u) * TY) + r % 4u;
        let ca = col0 + x;
        let cb = col0 + x + TX;
        if ((row < dims.m) && (ca < n4)) { out[row * n4 + ca] = acc[2u * r]; }
        if ((row < dims.m) && (cb < n4)) { out[row * n4 + cb] = acc[2u * r + 1u]; }
    }
}
