// expect: memory-error in some cases
// message: (workgroup memory)
// Wrong on purpose, as a learner wrote it: every invocation computes every
// output of its workgroup through one shared 4-element window in workgroup
// memory. All of them fill the same window and read it back at once, so the
// window's elements are written and read by many invocations with nothing
// ordering them. A workgroup of one invocation has no one to race with.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
var<workgroup> window: array<f32, 4>;

const wgs = vec3({{workgroupSize}});

@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(workgroup_id) workgroup_id: vec3<u32>) {
    let n = arrayLength(&a);
    let k = arrayLength(&b);
    let start = workgroup_id.x * u32(wgs.x);
    for (var i = start; i < min(start + u32(wgs.x), n); i++) {
        for (var t = 0u; t < k; t++) {
            window[t] = select(0.0, a[min(i + t, n - 1u)], i + t < n);
        }
        var sum = 0.0;
        for (var t = 0u; t < k; t++) {
            sum += window[t] * b[t];
        }
        out[i] = sum;
    }
}
