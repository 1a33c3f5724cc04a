// Comparison kernel: the definition summed directly, X_k = Σ_j x_j·e^(−2πi·jk/n),
// over the row kept in workgroup memory: n² complex multiply-adds and 2n² calls
// of sin and cos a row, where the FFT does (n/2)·log2(n) butterflies and n/2
// twiddles a stage (64 times fewer butterflies at n = 256). Its device-memory
// reads and writes are the FFT's. The angle is taken of jk mod n, moved into
// (−n/2, n/2], so that sin and cos see an argument in [−π, π].
const PI = 3.14159265358979;

struct Dims {
    rows: u32,
    n: u32,
}

@group(0) @binding(0) var<storage, read> re: array<f32>;
@group(0) @binding(1) var<storage, read> im: array<f32>;
@group(0) @binding(2) var<storage, read_write> out_re: array<f32>;
@group(0) @binding(3) var<storage, read_write> out_im: array<f32>;
@group(0) @binding(4) var<uniform> dims: Dims;

var<workgroup> s_re: array<f32, {{smemSize}}>;
var<workgroup> s_im: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = dims.n;
    let base = workgroup_id.x * n;
    let t = local_id.x;
    for (var j = t; j < n; j += n / 2u) {
        s_re[j] = re[base + j];
        s_im[j] = im[base + j];
    }
    workgroupBarrier();
    // Outputs t and t + n/2, each a sum over the whole row.
    for (var k = t; k < n; k += n / 2u) {
        var sum = vec2(0.0, 0.0);
        for (var j = 0u; j < n; j++) {
            var r = i32((j * k) % n);
            if (r > i32(n / 2u)) {
                r -= i32(n);
            }
            let angle = -2.0 * PI * f32(r) / f32(n);
            let c = cos(angle);
            let s = sin(angle);
            sum += vec2(s_re[j] * c - s_im[j] * s, s_re[j] * s + s_im[j] * c);
        }
        out_re[base + k] = sum.x;
        out_im[base + k] = sum.y;
    }
}
