//! The roofline model of a performance case, laid out for a small SVG.
//!
//! A kernel doing `flops` floating-point operations on `bytes` of device
//! memory has arithmetic intensity `I = flops / bytes` (FLOP per byte). On a
//! device with bandwidth `B` (GB/s) and arithmetic peak `P` (GFLOP/s) it
//! cannot exceed `min(P, I · B)` GFLOP/s: the "roof" (Williams, Waterman and
//! Patterson, "Roofline: an insightful visual performance model for
//! multicore architectures", CACM 52(4), 2009). Both axes are logarithmic.
//! Here `B` and `P` are the lab's measured [`Peaks`], so the roof is this
//! device's, not a datasheet's.

use crate::timing::Peaks;

/// A kernel placed on the roofline.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// Who it is: `yours`, `reference`, or a comparison kernel's label.
    pub label: String,
    /// GFLOP/s it reached.
    pub gflops: f64,
}

/// A roofline laid out in a `width × height` box (SVG user units, y down).
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// The roof as a polyline: from the left edge up the bandwidth slope to
    /// the ridge, then flat at the arithmetic peak to the right edge.
    pub roof: Vec<(f64, f64)>,
    /// Each point's position, with its label and achieved GFLOP/s.
    pub points: Vec<(f64, f64, String, f64)>,
    /// Where the case's intensity falls on the x axis.
    pub intensity_x: f64,
    /// Decade ticks on x: position and label (FLOP per byte).
    pub x_ticks: Vec<(f64, String)>,
    /// Decade ticks on y: position and label (GFLOP/s).
    pub y_ticks: Vec<(f64, String)>,
    /// The ridge point's intensity (FLOP per byte), where the kernel stops
    /// being bound by memory.
    pub ridge: f64,
}

/// Lays out the roofline of a case with `flops` and `bytes` for `points`;
/// `None` when a count is zero or a peak is not a positive number. The x
/// axis spans two decades either side of the case's intensity and the
/// ridge; the y axis four decades below the peak to one above.
pub fn layout(
    peaks: &Peaks,
    flops: u64,
    bytes: u64,
    points: &[Point],
    width: f64,
    height: f64,
) -> Option<Layout> {
    if flops == 0 || bytes == 0 || !(peaks.gflops > 0.0 && peaks.bandwidth_gbs > 0.0) {
        return None;
    }
    let intensity = flops as f64 / bytes as f64;
    let ridge = peaks.gflops / peaks.bandwidth_gbs;
    let x_lo = intensity.min(ridge).log10().floor() - 1.0;
    let x_hi = intensity.max(ridge).log10().ceil() + 1.0;
    let y_hi = peaks.gflops.log10().ceil() + 0.5;
    let y_lo = y_hi - 5.0;
    let x = |i: f64| (i.log10() - x_lo) / (x_hi - x_lo) * width;
    let y = |g: f64| (1.0 - (g.max(1e-12).log10() - y_lo) / (y_hi - y_lo)).clamp(0.0, 1.0) * height;
    let roof_at = |i: f64| peaks.gflops.min(i * peaks.bandwidth_gbs);
    let left = 10f64.powf(x_lo);
    let right = 10f64.powf(x_hi);
    let roof =
        vec![(0.0, y(roof_at(left))), (x(ridge), y(peaks.gflops)), (x(right), y(roof_at(right)))];
    let points =
        points.iter().map(|p| (x(intensity), y(p.gflops), p.label.clone(), p.gflops)).collect();
    let x_ticks = (x_lo as i32..=x_hi as i32).map(|e| (x(10f64.powi(e)), decade(e))).collect();
    let y_ticks =
        (y_lo.ceil() as i32..=y_hi.floor() as i32).map(|e| (y(10f64.powi(e)), decade(e))).collect();
    Some(Layout { roof, points, intensity_x: x(intensity), x_ticks, y_ticks, ridge })
}

/// `10^e` written out: `0.01`, `1`, `1000`, `100000`.
fn decade(e: i32) -> String {
    if e < 0 {
        format!("{:.*}", (-e) as usize, 10f64.powi(e))
    } else {
        format!("{}", 10u64.pow(e as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timing::{Measurement, Timer};

    fn peaks() -> Peaks {
        let m = Measurement::from_spans(&[1.0], 1, Timer::Timestamps, None).unwrap();
        Peaks { bandwidth_gbs: 4000.0, gflops: 56_000.0, copy: m, fma: m }
    }

    #[test]
    fn the_roof_rises_with_bandwidth_and_flattens_at_the_peak() {
        // A 1024³ product moving 12 MiB: intensity about 171 FLOP/B, right of the 14 FLOP/B ridge.
        let pts = [
            Point { label: "yours".into(), gflops: 1900.0 },
            Point { label: "reference".into(), gflops: 56_000.0 },
        ];
        let l =
            layout(&peaks(), 2 * 1024u64.pow(3), 3 * 4 * 1024 * 1024, &pts, 300.0, 200.0).unwrap();
        assert!((l.ridge - 14.0).abs() < 1e-9);
        let (rx, ry) = l.roof[1];
        assert!(l.intensity_x > rx, "compute-bound: right of the ridge");
        assert!((l.points[1].1 - ry).abs() < 1e-9, "a kernel at the peak sits on the roof");
        assert!(l.points[0].1 > l.points[1].1, "slower is lower (y grows downwards)");
        assert!(l.roof[0].1 > ry, "the roof rises to the ridge");
        assert_eq!(l.roof[2].1, ry, "then stays flat");
        assert_eq!(l.x_ticks.first().map(|t| t.1.as_str()), Some("1"));
        assert_eq!(layout(&peaks(), 0, 10, &pts, 300.0, 200.0), None);
    }

    #[test]
    fn decades_are_written_out() {
        assert_eq!(decade(-2), "0.01");
        assert_eq!(decade(0), "1");
        assert_eq!(decade(3), "1000");
    }
}
