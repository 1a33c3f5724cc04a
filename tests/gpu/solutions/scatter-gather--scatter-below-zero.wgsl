// expect: memory-error in some cases
// message: out-of-bounds
// Wrong on purpose: the atomic scatter without the left edge. Invocation p
// adds into out[p - j] for every tap j, also when j > p: the u32 index p - j
// then wraps around to about 4 billion, an atomicAdd far past the end of
// `out`. Only invocations 0 to len(b) - 2 do it, but every case with more
// than one tap has them; cases with one tap pass.
@group(0) @binding(0) var<storage, read> a: array<i32>;
@group(0) @binding(1) var<storage, read> b: array<i32>;
@group(0) @binding(2) var<storage, read_write> out: array<atomic<i32>>;

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(global_invocation_id) global_id: vec3<u32>) {
    let p = global_id.x;
    if (p >= arrayLength(&a)) {
        return;
    }
    for (var j = 0u; j < arrayLength(&b); j++) {
        atomicAdd(&out[p - j], a[p] * b[j]);
    }
}
