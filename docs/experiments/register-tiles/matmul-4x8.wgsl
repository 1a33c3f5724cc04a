// Experiment (docs/experiments/register-tiles): register tiles of 4 rows x 8 columns
// per invocation, BK = 16, one output tile per workgroup. Not a puzzle yet.
const wgs = vec3({{workgroupSize}});
const TX = u32(wgs.x);
const TY = u32(wgs.y);
const BK = 16u;
const ROWS4 = 1u * TY;
const COLS4 = 2u * TX;

struct Dims {
    m: u32,
    n: u32,
    k: u32,
}

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>;
@group(0) @binding(3) var<uniform> dims: Dims;

var<workgroup> a_tile: array<vec4<f32>, BK * ROWS4>;
var<workgroup> b_tile: array<vec4<f32>, BK * COLS4>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n4 = dims.n / 4u;
    let t = lid.y * TX + lid.x;
    let threads = TX * TY;
    {
        {
            let tyi = wid.y;
            let txi = wid.x;
            let row0 = tyi * 4u * ROWS4;
            let col0 = txi * COLS4;
            var acc: array<vec4<f32>, 8>;
            for (var k0 = 0u; k0 < dims.k; k0 += BK) {
                for (var e = t; e < BK * ROWS4; e += threads) {
                    let kk = e % BK;
                    let r4 = e / BK;
                    let r = row0 + 4u * r4;
                    let c = k0 + kk;
                    var v = vec4(0.0);
                    if (c < dims.k && r < dims.m) {
                        v = vec4(a[r * dims.k + c], a[(r + 1u) * dims.k + c], a[(r + 2u) * dims.k + c], a[(r + 3u) * dims.k + c]);
                    }
                    a_tile[kk * ROWS4 + r4] = v;
                }
                for (var e = t; e < BK * COLS4; e += threads) {
                    let kk = e / COLS4;
                    let c4 = e % COLS4;
                    let r = k0 + kk;
                    var v = vec4(0.0);
                    if (r < dims.k && col0 + c4 < n4) {
                        v = b[r * n4 + col0 + c4];
                    }
                    b_tile[e] = v;
                }
                workgroupBarrier();
                for (var kk = 0u; kk < BK; kk++) {
                let a0 = a_tile[kk * ROWS4 + lid.y + 0u * TY];
                let b0 = b_tile[kk * COLS4 + lid.x + 0u * TX];
                let b1 = b_tile[kk * COLS4 + lid.x + 1u * TX];
                acc[0] += a0.x * b0;
                acc[1] += a0.x * b1;
                acc[2] += a0.y * b0;
                acc[3] += a0.y * b1;
                acc[4] += a0.z * b0;
                acc[5] += a0.z * b1;
                acc[6] += a0.w * b0;
                acc[7] += a0.w * b1;
                }
                workgroupBarrier();
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
        }
    }
}
