// expect: config-error
// message: maxComputeWorkgroupStorageSize
// 400,000 bytes of workgroup memory: some drivers accept it, WebGPU does not.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
var<workgroup> big: array<f32, 100000>;
@compute @workgroup_size({{workgroupSize}})
fn main(@builtin(local_invocation_id) local_id: vec3<u32>) {
    big[local_id.x] = a[local_id.x];
    workgroupBarrier();
    out[local_id.x] = big[local_id.x] + 10.0;
}
