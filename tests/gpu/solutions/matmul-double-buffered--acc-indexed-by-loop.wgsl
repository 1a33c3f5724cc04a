// expect: passed
// Correct, and double-buffered as the statement plans (one barrier per slice), but
// `acc` is indexed with loop variables in the products and the write-back, the trap
// hint 3 names: GPUs keep such an array in memory, not registers. Written from the
// statement alone; on an NVIDIA H100 it reached 14 % of the reference at 512³ and 6 %
// at 2048³ natively, below the performance target there, but 68 % and 81 % in Chrome on
// the same GPU, whose compiler unrolls those loops (docs/performance.md); on a software
// adapter the target is not enforced, so it passes here.
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

// Copy the slice of columns kt … kt + 7 of a and rows kt … kt + 7 of b into half `part`.
// Tile layout: a_tile[part * NA + kk * ROWS4 + r4], b_tile[part * NB + kk * COLS4 + c4].
fn load_slice(part: u32, kt: u32, lidx: u32, row0: u32, col0: u32) {
    let n4 = dims.n / 4u;
    for (var i = lidx; i < NA; i += TX * TY) {
        let kk = i % BK;   // neighbouring invocations walk along a row of a
        let r4 = i / BK;
        let row = row0 + 4u * r4;
        let col = kt + kk;
        var v = vec4<f32>(0.0);
        if ((row < dims.m) && (col < dims.k)) {
            let p = row * dims.k + col;
            v = vec4<f32>(a[p], a[p + dims.k], a[p + 2u * dims.k], a[p + 3u * dims.k]);
        }
        a_tile[part * NA + kk * ROWS4 + r4] = v;
    }
    for (var i = lidx; i < NB; i += TX * TY) {
        let row = kt + i / COLS4;
        let col4 = col0 + i % COLS4;
        var v = vec4<f32>(0.0);
        if ((row < dims.k) && (col4 < n4)) {
            v = b[row * n4 + col4];
        }
        b_tile[part * NB + i] = v;
    }
}

// The 64 multiply-adds per step along k, for the 8 steps of the slice in half `part`.
fn multiply_slice(acc: ptr<function, array<vec4<f32>, 16>>, part: u32, x: u32, y: u32) {
    for (var kk = 0u; kk < BK; kk++) {
        let arow = part * NA + kk * ROWS4;
        let brow = part * NB + kk * COLS4;
        let b0 = b_tile[brow + x];
        let b1 = b_tile[brow + x + TX];
        for (var g = 0u; g < 2u; g++) {
            let av = a_tile[arow + y + g * TY];
            for (var i = 0u; i < 4u; i++) {
                let r = 4u * g + i; // row of the 8 × 8 block
                (*acc)[2u * r] += av[i] * b0;
                (*acc)[2u * r + 1u] += av[i] * b1;
            }
        }
    }
}

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let row0 = wid.y * 8u * TY; // the workgroup's first row of out
    let col0 = wid.x * COLS4;   // its first vec4 column of out
    var acc: array<vec4<f32>, 16>; // this invocation's 8 × 8 block
    let lidx = lid.y * TX + lid.x;

    load_slice(0u, 0u, lidx, row0, col0);
    workgroupBarrier();

    var cur = 0u;
    for (var kt = 0u; kt < dims.k; kt += BK) {
        let next = kt + BK;
        // Half 1 - cur was last read in the previous step, before the barrier that ended it.
        if (next < dims.k) {
            load_slice(1u - cur, next, lidx, row0, col0);
        }
        multiply_slice(&acc, cur, lid.x, lid.y);
        workgroupBarrier();
        cur = 1u - cur;
    }

    let n4 = dims.n / 4u;
    for (var r = 0u; r < 8u; r++) {
        let row = row0 + 4u * (lid.y + (r / 4u) * TY) + r % 4u;
        for (var c = 0u; c < 2u; c++) {
            let col4 = col0 + lid.x + c * TX;
            if ((row < dims.m) && (col4 < n4)) {
                out[row * n4 + col4] = acc[2u * r + c];
            }
        }
    }
}
