// expect: over-budget in some cases
// message: per workgroup
// Wrong on purpose: the right values and the right O(n log n) algorithm, but
// every stage runs in device memory, in `out_re` and `out_im`, with a
// storageBarrier() between stages (enough within one workgroup, which owns
// its row). Each stage reads 2n elements back from device memory, 2n·(1 +
// log2 n) a row, where keeping the row in workgroup memory reads it once,
// 2n (the budget allows 4n). It goes over from n = 4 on; at n = 2 (one
// stage) it reads 8 = 4n and those cases pass.
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

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = dims.n;
    let bits = countTrailingZeros(n);
    let base = workgroup_id.x * n;
    let t = local_id.x;
    for (var j = t; j < n; j += n / 2u) {
        let r = reverseBits(j) >> (32u - bits);
        out_re[base + r] = re[base + j];
        out_im[base + r] = im[base + j];
    }
    for (var span = 1u; span < n; span *= 2u) {
        storageBarrier();
        let k = t % span;
        let top = base + (t / span) * 2u * span + k;
        let bot = top + span;
        let angle = -PI * f32(k) / f32(span);
        let w_re = cos(angle);
        let w_im = sin(angle);
        let b_re = out_re[bot];
        let b_im = out_im[bot];
        let o_re = b_re * w_re - b_im * w_im;
        let o_im = b_re * w_im + b_im * w_re;
        let e_re = out_re[top];
        let e_im = out_im[top];
        out_re[top] = e_re + o_re;
        out_im[top] = e_im + o_im;
        out_re[bot] = e_re - o_re;
        out_im[bot] = e_im - o_im;
    }
}
