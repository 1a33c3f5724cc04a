//! Times how long the native adapter takes to compile a WGSL compute shader,
//! the way a case's first dispatch pays for it: module and pipeline creation,
//! then one workgroup dispatched and waited for (llvmpipe, lavapipe's
//! compiler, compiles at the first dispatch, not at pipeline creation).
//!
//! `cargo run --release -p gpu-puzzles-runner --example compile_time --
//! SHADER.wgsl [RUNS]`: the shader is taken as written (substitute any
//! `{{workgroupSize}}` first, e.g. with `instrument`'s `dump` example, which
//! writes the instrumented text). Every storage buffer it binds is 1 MiB of
//! zeros and every uniform 256 bytes of zeros, so loops bounded by a uniform
//! end at once: the time is the compile's. Each run changes a comment, so no
//! cache answers; set `MESA_SHADER_CACHE_DISABLE=true` as well, as on a fresh
//! machine. Prints milliseconds per run.

use std::time::Instant;
use wgpu::naga;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        return Err("usage: compile_time SHADER.wgsl [RUNS]".into());
    };
    let runs: usize = args.get(1).map_or(Ok(3), |r| r.parse()).map_err(|e| format!("RUNS: {e}"))?;
    let source = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let module = naga::front::wgsl::parse_str(&source).map_err(|e| e.emit_to_string(&source))?;
    let entry = module.entry_points.first().ok_or("the shader has no entry point")?.name.clone();
    let bindings: Vec<(u32, u32, bool)> = module
        .global_variables
        .iter()
        .filter_map(|(_, g)| {
            g.binding
                .as_ref()
                .map(|b| (b.group, b.binding, matches!(g.space, naga::AddressSpace::Uniform)))
        })
        .collect();

    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let adapter =
        pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions::default()))
            .map_err(|e| format!("no Vulkan adapter: {e}"))?;
    println!("adapter: {}", adapter.get_info().name);
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        required_limits: adapter.limits(),
        required_features: adapter.features() & wgpu::Features::SUBGROUP,
        ..Default::default()
    }))
    .map_err(|e| format!("no device: {e}"))?;

    for run in 0..runs {
        let text = format!("// run {run} {:?}\n{source}", Instant::now());
        let start = Instant::now();
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: None,
            source: wgpu::ShaderSource::Wgsl(text.into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: None,
            layout: None,
            module: &shader,
            entry_point: Some(&entry),
            compilation_options: Default::default(),
            cache: None,
        });
        let created = start.elapsed();
        let buffers: Vec<_> = bindings
            .iter()
            .map(|&(group, binding, uniform)| {
                let usage =
                    if uniform { wgpu::BufferUsages::UNIFORM } else { wgpu::BufferUsages::STORAGE };
                let size = if uniform { 256 } else { 1 << 20 };
                (
                    group,
                    binding,
                    device.create_buffer(&wgpu::BufferDescriptor {
                        label: None,
                        size,
                        usage,
                        mapped_at_creation: false,
                    }),
                )
            })
            .collect();
        let groups: Vec<u32> = {
            let mut g: Vec<u32> = bindings.iter().map(|b| b.0).collect();
            g.sort_unstable();
            g.dedup();
            g
        };
        let bind_groups: Vec<_> = groups
            .iter()
            .map(|&group| {
                let entries: Vec<_> = buffers
                    .iter()
                    .filter(|b| b.0 == group)
                    .map(|(_, binding, buffer)| wgpu::BindGroupEntry {
                        binding: *binding,
                        resource: buffer.as_entire_binding(),
                    })
                    .collect();
                (
                    group,
                    device.create_bind_group(&wgpu::BindGroupDescriptor {
                        label: None,
                        layout: &pipeline.get_bind_group_layout(group),
                        entries: &entries,
                    }),
                )
            })
            .collect();
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            for (group, bind_group) in &bind_groups {
                pass.set_bind_group(*group, bind_group, &[]);
            }
            pass.dispatch_workgroups(1, 1, 1);
        }
        queue.submit([encoder.finish()]);
        device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| format!("poll: {e}"))?;
        let total = start.elapsed();
        println!(
            "run {run}: pipeline created in {:.0} ms, first dispatch done at {:.0} ms",
            created.as_secs_f64() * 1e3,
            total.as_secs_f64() * 1e3
        );
    }
    Ok(())
}
