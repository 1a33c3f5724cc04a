// Fast Fourier Transform: one workgroup per row, n / 2 invocations, the row
// in workgroup memory. The samples are loaded in bit-reversed order, then
// log2(n) stages of radix-2 butterflies (Cooley–Tukey, decimation in time)
// combine pairs of transforms of length m / 2 into transforms of length m,
// m = 2, 4, …, n, with a barrier between stages. The last stage leaves the
// transform in natural order.
const wgs = vec3({{workgroupSize}}); // (n / 2, 1, 1)
const PI = 3.14159265358979;

struct Dims {
    rows: u32, // signals in the batch, one workgroup each
    n: u32,    // samples per signal, a power of two from 2 up
}

@group(0) @binding(0) var<storage, read> re: array<f32>;           // rows × n, row-major
@group(0) @binding(1) var<storage, read> im: array<f32>;           // rows × n, row-major
@group(0) @binding(2) var<storage, read_write> out_re: array<f32>; // rows × n: Re X_k
@group(0) @binding(3) var<storage, read_write> out_im: array<f32>; // rows × n: Im X_k
@group(0) @binding(4) var<uniform> dims: Dims;

// The row being transformed, {{smemSize}} = n elements each.
var<workgroup> s_re: array<f32, {{smemSize}}>;
var<workgroup> s_im: array<f32, {{smemSize}}>;

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let n = dims.n;
    let half_n = n / 2u;          // = wgs.x: one butterfly per invocation per stage
    let bits = countTrailingZeros(n); // log2(n)
    let base = workgroup_id.x * n;    // the row's first sample
    let t = local_id.x;

    // Load samples t and t + n/2 to their bit-reversed places: the
    // butterflies below then find the even-indexed half of each sub-transform
    // beside its odd-indexed half. (bits ≥ 1, so the shift is at most 31.)
    for (var j = t; j < n; j += half_n) {
        let r = reverseBits(j) >> (32u - bits);
        s_re[r] = re[base + j];
        s_im[r] = im[base + j];
    }

    // Stage by stage, for transforms of length m = 2·span, span = 1, 2, 4,
    // …, n / 2. Invocation t takes butterfly k = t mod span of group
    // g = t / span, whose two sub-transforms of length span, E (from the
    // even-indexed samples) and O (from the odd-indexed), sit at
    // g·m … g·m + span − 1 and g·m + span … g·m + m − 1:
    //   X_k        = E_k + w^k · O_k
    //   X_{k+span} = E_k − w^k · O_k,   w = e^(−2πi / m),
    // written over E_k (at top = g·m + k) and O_k (at bot = top + span).
    // The loop bound is the same for every invocation, so every one reaches
    // each barrier.
    for (var span = 1u; span < n; span *= 2u) {
        workgroupBarrier(); // the previous stage's (or the load's) writes are done
        let k = t % span;
        let top = (t / span) * 2u * span + k;
        let bot = top + span;
        // −2π·k/m = −π·k/span lies in (−π, 0], where WGSL bounds the error
        // of sin and cos.
        let angle = -PI * f32(k) / f32(span);
        let w_re = cos(angle);
        let w_im = sin(angle);
        let o_re = s_re[bot] * w_re - s_im[bot] * w_im;
        let o_im = s_re[bot] * w_im + s_im[bot] * w_re;
        let e_re = s_re[top];
        let e_im = s_im[top];
        // Only this invocation reads or writes top and bot in this stage.
        s_re[top] = e_re + o_re;
        s_im[top] = e_im + o_im;
        s_re[bot] = e_re - o_re;
        s_im[bot] = e_im - o_im;
    }
    workgroupBarrier();

    // Natural order: X_j is at j.
    for (var j = t; j < n; j += half_n) {
        out_re[base + j] = s_re[j];
        out_im[base + j] = s_im[j];
    }
}
