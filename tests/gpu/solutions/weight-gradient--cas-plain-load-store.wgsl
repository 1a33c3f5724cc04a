// expect: memory-error in some cases
// message: different workgroups of one dispatch of `partial`
// Wrong on purpose: the atomics shape with the compare-and-swap taken out.
// Each workgroup's partials are right, but they go into dw with a plain
// read of the old value and a plain store of old + partial. Between the two,
// another workgroup can store its own sum into the same weight, and then
// one of them is overwritten: the read and the store must be one indivisible
// step (atomicCompareExchangeWeak, retried until it exchanges). The
// racecheck names a write conflict and a read-after-write race on dw
// between workgroups of one dispatch. With a single chunk only one
// workgroup adds, and it passes.
const wgs = vec3({{workgroupSize}});
const W = u32(wgs.x);

struct Dims {
    batch: u32, // rows of x and dy
    n_in: u32,  // columns of x and of dw
    n_out: u32, // columns of dy, rows of dw
    chunk: u32, // batch rows per workgroup
}

@group(0) @binding(0) var<storage, read> x: array<f32>;        // batch × n_in
@group(0) @binding(1) var<storage, read> dy: array<f32>;       // batch × n_out
@group(0) @binding(3) var<storage, read_write> dw: array<f32>; // n_out × n_in
@group(0) @binding(4) var<uniform> dims: Dims;

@compute @workgroup_size({{workgroupSize}})
fn partial(
    @builtin(local_invocation_id) local_id: vec3<u32>,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let weights = dims.n_out * dims.n_in;
    let first = workgroup_id.x * dims.chunk;
    let end = min(first + dims.chunk, dims.batch);
    for (var k = local_id.x; k < weights; k += W) {
        let o = k / dims.n_in;
        let i = k % dims.n_in;
        var acc = 0.0;
        for (var b = first; b < end; b++) {
            acc += dy[b * dims.n_out + o] * x[b * dims.n_in + i];
        }
        let old = dw[k];
        dw[k] = old + acc;
    }
}

@compute @workgroup_size({{workgroupSize}})
fn reduce() {}
