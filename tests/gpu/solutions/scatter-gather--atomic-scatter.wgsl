// expect: passed
// Correct but slow, on purpose: the comparison kernel. Invocation p adds
// a[p]·b[j] into out[p - j] for every tap j ≤ p with atomicAdd, so the
// updates that several invocations make to one output are never lost. It
// passes every case; on a GPU it misses the performance target, because each
// input costs len(b) atomic read-modify-writes in the L2 cache where the
// gather costs len(b) cached reads and one store per output.
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
    let taps = min(arrayLength(&b), p + 1u);
    for (var j = 0u; j < taps; j++) {
        atomicAdd(&out[p - j], v * b[j]);
    }
}
