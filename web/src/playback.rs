//! The worker's end of playing a case's steps ([`Request::Frames`]): on the
//! worker's device, or in the interpreter where there is no WebGPU (or the
//! device has no subgroups and the shader uses them), as a Run would judge
//! the case.
//!
//! [`Request::Frames`]: crate::protocol::Request::Frames

use crate::protocol::playback::FramesReply;

/// The frames of written case `number` of puzzle `slug` with `source`.
///
/// # Errors
/// In words for the student: an unknown puzzle or case, or why the case
/// could not be played (the code no longer compiles, the device was lost,
/// the interpreter stopped).
pub(crate) async fn play(
    slug: &str,
    number: usize,
    source: &str,
    page_webgpu: bool,
) -> Result<FramesReply, String> {
    let puzzle = crate::embedded::judged_puzzle(slug)
        .ok_or_else(|| format!("the judge does not know the puzzle `{slug}`; reload the page"))?;
    let case = puzzle
        .cases
        .iter()
        .find(|c| c.number == number)
        .ok_or_else(|| format!("puzzle `{slug}` has no written case {number}"))?;
    let gpu = crate::engine::acquire(page_webgpu)
        .await
        .ok()
        .filter(|g| g.subgroups() || !gpu_puzzles_core::wgsl::uses_subgroups(source));
    let Some(gpu) = gpu else {
        // The interpreter: as many frames as the GPU would keep.
        let bytes: usize =
            puzzle.compared_buffers().map(|i| case.buffers[i].initial.len() * 4).sum();
        let limit = gpu_puzzles_runner::frame_limit(bytes as u64);
        let after = gpu_puzzles_runner::frame_points(case.dispatches.len(), limit);
        let frames = gpu_puzzles_interp::emulate::frames(puzzle, case, source, &after)
            .map_err(|e| format!("the steps could not be emulated: {}", e.message))?;
        return Ok(FramesReply {
            buffers: puzzle.compared_buffers().collect(),
            after,
            frames,
            list_ms: None,
            adapter: None,
            software: true,
        });
    };
    let f =
        gpu_puzzles_runner::frames(&gpu, puzzle, case, source).await.map_err(|e| e.to_string())?;
    let adapter = gpu.adapter();
    Ok(FramesReply {
        buffers: f.buffers,
        after: f.after,
        frames: f.frames,
        list_ms: Some(f.list_ms),
        adapter: Some(if adapter.name.is_empty() {
            "this GPU".into()
        } else {
            adapter.name.clone()
        }),
        software: adapter.software,
    })
}
