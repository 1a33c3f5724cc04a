// Comparison kernel: the scatter. Invocation p takes the input's point of
// view: a[p] contributes a[p]·b[j] to out[p - j] for every tap j with
// p - j ≥ 0. Up to len(b) invocations add into one output, so every update
// is an atomicAdd on `out`: len(b) read-modify-writes per input, each done
// at the memory system (L2) rather than in the invocation's registers.
@group(0) @binding(0) var<storage, read> a: array<i32>;
@group(0) @binding(1) var<storage, read> b: array<i32>;
@group(0) @binding(2) var<storage, read_write> out: array<atomic<i32>>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let p = global_id.x;
    if (p >= arrayLength(&a)) {
        return;
    }
    let v = a[p];
    // Outputs below index 0 do not exist: at most p + 1 taps.
    let taps = min(arrayLength(&b), p + 1u);
    for (var j = 0u; j < taps; j++) {
        atomicAdd(&out[p - j], v * b[j]);
    }
}
