// Per test case, the page replaces {{workgroupSize}}, {{totalWorkgroups}}
// and {{smemSize}} with the values shown above the grids.
const wgs = vec3({{workgroupSize}});   // invocations per workgroup: (n / 2, 1, 1)
const twg = vec3({{totalWorkgroups}}); // workgroups: (rows, 1, 1)
const PI = 3.14159265358979;

struct Dims {
    rows: u32, // signals in the batch, one workgroup each
    n: u32,    // samples per signal, a power of two
}

@group(0) @binding(0) var<storage, read> re: array<f32>;           // rows × n, row-major
@group(0) @binding(1) var<storage, read> im: array<f32>;           // rows × n, row-major
@group(0) @binding(2) var<storage, read_write> out_re: array<f32>; // rows × n: Re X_k
@group(0) @binding(3) var<storage, read_write> out_im: array<f32>; // rows × n: Im X_k
@group(0) @binding(4) var<uniform> dims: Dims;

var<workgroup> s_re: array<f32, {{smemSize}}>; // n elements: the row's real parts
var<workgroup> s_im: array<f32, {{smemSize}}>; // n elements: its imaginary parts

@compute @workgroup_size({{workgroupSize}})
fn main(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let row = workgroup_id.x;
    let t = local_id.x;
    // TODO: transform row `row` (samples row * dims.n … row * dims.n + n - 1):
    // 1. load samples t and t + n/2 into s_re / s_im at their bit-reversed
    //    indices;
    // 2. for span = 1, 2, 4, …, n/2: barrier, then one butterfly with the
    //    twiddle e^(-iπ·k/span), k = t % span;
    // 3. barrier, then write s_re / s_im to out_re / out_im in natural order.
}
