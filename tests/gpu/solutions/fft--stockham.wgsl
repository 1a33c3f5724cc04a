// expect: passed
// A correct kernel in another style: the Stockham form. The samples are
// loaded in natural order and every stage reads one half of a workgroup
// array of 2n and writes the other, placing its outputs so that the next
// stage finds its inputs n/2 apart: no bit reversal anywhere, and the
// transform comes out in natural order. One barrier a stage, as in the
// in-place form.
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

// Two copies of the row, at offsets 0 and n, that the stages take turns
// reading and writing.
var<workgroup> s_re: array<f32, 2 * {{smemSize}}>;
var<workgroup> s_im: array<f32, 2 * {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = dims.n;
    let h = n / 2u;
    let base = workgroup_id.x * n;
    let t = local_id.x;
    s_re[t] = re[base + t];
    s_im[t] = im[base + t];
    s_re[t + h] = re[base + t + h];
    s_im[t + h] = im[base + t + h];

    var src = 0u; // where this stage reads; it writes at n - src
    // ns: the length of the transforms done so far, 1, 2, …, n/2.
    for (var ns = 1u; ns < n; ns *= 2u) {
        workgroupBarrier();
        let dst = n - src;
        let k = t % ns;
        let angle = -PI * f32(k) / f32(ns);
        let w = vec2(cos(angle), sin(angle));
        let a = vec2(s_re[src + t], s_im[src + t]);
        let b = vec2(s_re[src + t + h], s_im[src + t + h]);
        let o = vec2(b.x * w.x - b.y * w.y, b.x * w.y + b.y * w.x);
        let d = dst + (t / ns) * 2u * ns + k;
        s_re[d] = a.x + o.x;
        s_im[d] = a.y + o.y;
        s_re[d + ns] = a.x - o.x;
        s_im[d + ns] = a.y - o.y;
        src = dst;
    }
    workgroupBarrier();

    out_re[base + t] = s_re[src + t];
    out_im[base + t] = s_im[src + t];
    out_re[base + t + h] = s_re[src + t + h];
    out_im[base + t + h] = s_im[src + t + h];
}
