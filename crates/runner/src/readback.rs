//! Reading buffers back from the device: a mapping requested and awaited,
//! a device lost on the way told as lost, and (natively) the wait for the
//! device to finish what was submitted.

use crate::{Gpu, RunnerError};
use web_time::Instant;

/// Hears when a buffer is mapped, and when it was.
pub(crate) type Mapped =
    futures_channel::oneshot::Receiver<(Result<(), wgpu::BufferAsyncError>, Instant)>;

/// Requests `buffer`'s mapping for reading.
pub(crate) fn request_map(buffer: &wgpu::Buffer) -> Mapped {
    let (tx, rx) = futures_channel::oneshot::channel();
    buffer.map_async(wgpu::MapMode::Read, .., move |r| {
        let _ = tx.send((r, Instant::now()));
    });
    rx
}

/// Waits for a mapping [`request_map`] asked for, and returns a copy of the
/// bytes and when the mapping completed.
pub(crate) async fn await_map(
    gpu: &Gpu,
    buffer: &wgpu::Buffer,
    rx: Mapped,
) -> Result<(Vec<u8>, Instant), RunnerError> {
    #[cfg(not(target_arch = "wasm32"))]
    poll_until_done(gpu)?;
    let at = match rx.await {
        Ok((Ok(()), at)) => at,
        Ok((Err(e), _)) => {
            settle_device_loss(gpu).await;
            return Err(if gpu.is_lost() {
                gpu.lost_error()
            } else {
                RunnerError::Readback(e.to_string())
            });
        }
        Err(_) => {
            return Err(if gpu.is_lost() {
                gpu.lost_error()
            } else {
                RunnerError::Readback("the map callback never ran".into())
            })
        }
    };
    let bytes =
        buffer.get_mapped_range(..).map_err(|e| RunnerError::Readback(e.to_string()))?.to_vec();
    buffer.unmap();
    Ok((bytes, at))
}

/// In a browser, after a mapping failed, waits up to a tenth of a second
/// for the device's `lost` promise: a device destroyed during a Run fails
/// the mapping first (Chrome: "Error occurred when trying to async map a
/// buffer") and settles `lost` a task later, and the student is told the
/// device was lost, not that a read-back failed. Natively the loss is
/// known already (`poll_until_done`).
async fn settle_device_loss(gpu: &Gpu) {
    #[cfg(target_arch = "wasm32")]
    for _ in 0..10 {
        if gpu.is_lost() {
            return;
        }
        let wait = js_sys::Promise::new(&mut |resolve, _| {
            use wasm_bindgen_futures::wasm_bindgen::JsCast;
            let global = js_sys::global();
            match js_sys::Reflect::get(&global, &"setTimeout".into())
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            {
                Some(set_timeout) => {
                    let _ = set_timeout.call2(&global, &resolve, &10.into());
                }
                None => {
                    let _ = resolve.call0(&wasm_bindgen_futures::wasm_bindgen::JsValue::NULL);
                }
            }
        });
        let _ = wasm_bindgen_futures::JsFuture::from(wait).await;
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = gpu;
}

/// Maps `buffer` for reading and returns a copy of its bytes.
pub(crate) async fn read_back(gpu: &Gpu, buffer: &wgpu::Buffer) -> Result<Vec<u8>, RunnerError> {
    let rx = request_map(buffer);
    Ok(await_map(gpu, buffer, rx).await?.0)
}

/// Natively, blocks until the device has finished what was submitted, for
/// at most [`Gpu::dispatch_timeout_ms`]; past it, or when the device is
/// lost, marks the device lost. (In a browser the event loop does this.)
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn poll_until_done(gpu: &Gpu) -> Result<(), RunnerError> {
    let limit = gpu.dispatch_timeout_ms();
    let timeout = std::time::Duration::from_millis(limit);
    match gpu.device.poll(wgpu::PollType::Wait { submission_index: None, timeout: Some(timeout) }) {
        Ok(_) => Ok(()),
        Err(wgpu::PollError::Timeout) => {
            gpu.mark_lost("a dispatch ran past the time limit");
            Err(RunnerError::Timeout(limit))
        }
        Err(e) => {
            gpu.mark_lost(&e.to_string());
            Err(gpu.lost_error())
        }
    }
}
