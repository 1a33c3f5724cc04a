//! Repeatable kernel timings: how many dispatches to put between one pair of
//! timer readings, whether the timer rounds its readings, and the summary of
//! repeated runs (median, spread, count).
//!
//! One dispatch read once is not a measurement: the first run of a pipeline
//! pays for cold caches and clocks, and a browser's timestamps are rounded
//! (Chrome rounds them to 100 µs unless its developer flags say otherwise,
//! as a defence against timing attacks; see the WebGPU specification's
//! privacy notes on timestamp queries). So the runner warms up, then times
//! `K` back-to-back dispatches between one pair of readings, growing `K`
//! until the span is long against the timer's resolution, repeats that, and
//! reports the median per dispatch with the spread. This module is the
//! arithmetic; the runner (`gpu-puzzles-runner`) does the dispatching.

use serde::{Deserialize, Serialize};

/// The shortest span, in milliseconds, one timed run should cover: long
/// enough that the few microseconds of a pass's start and end are noise, and
/// that the GPU is busy most of the time between the runs' round trips (a
/// GPU kept mostly idle lowers its clocks: single 1 ms dispatches of a
/// 1024³ product on an NVIDIA H200 ran at a fifth of its warm speed).
pub const MIN_SPAN_MS: f64 = 10.0;

/// Spans are grown to this many timer quanta when the timer rounds, so the
/// rounding error of a span is at most 2 % of it.
pub const QUANTA_PER_SPAN: f64 = 50.0;

/// The most dispatches one timed run puts back to back.
pub const MAX_DISPATCHES: u32 = 4096;

/// Timed runs on a hardware adapter (after warm-up and calibration).
pub const RUNS: u32 = 7;

/// GPU time, in milliseconds, of back-to-back work submitted at once before
/// the timed runs: a GPU raises its clocks only after some sustained work.
pub const WARM_UP_MS: f64 = 200.0;

/// The most GPU time warm-up may take, in milliseconds, however unsteady
/// the batches.
pub const MAX_WARM_UP_MS: f64 = 2000.0;

/// Whether warm-up can stop: at least [`WARM_UP_MS`] of work has run
/// (`total_ms`) and the last three batches (`last3_ms`; not yet run:
/// infinite) agree within 2 %, or [`MAX_WARM_UP_MS`] have run. Batches that
/// agree can still all run at low clocks (an NVIDIA H100 idling at 345 MHz
/// took 0.2–0.5 s of work to reach 1,980 MHz): the clock probe around the
/// timed runs is what catches that.
pub fn warmed_up(total_ms: f64, last3_ms: [f64; 3]) -> bool {
    let (lo, hi) =
        last3_ms.iter().fold((f64::INFINITY, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    let settled = hi.is_finite() && hi - lo <= 0.02 * hi;
    (total_ms >= WARM_UP_MS && settled) || total_ms >= MAX_WARM_UP_MS
}

/// Timed runs whose slowest batch is more than this factor slower than
/// their fastest are repeated (the clocks moved while they ran), up to
/// [`MAX_ATTEMPTS`] times; the steadiest set is reported.
pub const MAX_SPREAD: f64 = 1.05;

/// Sets of timed runs tried at most, when their spread is above
/// [`MAX_SPREAD`].
pub const MAX_ATTEMPTS: u32 = 3;

/// A measurement counts as taken under low clocks when the device's clock
/// probe (the FP32 kernel of the peaks, `gpu-puzzles-runner`'s
/// `measure_peaks`), timed just before and just after its timed runs, ran
/// below this fraction of the probe's reference rate (the rate measured at
/// start, or a faster one seen since). A steady low clock (an NVIDIA H100
/// sampled at 345 MHz instead of 1,980 MHz) looks exactly like a slow
/// kernel, with a tight spread; the probe is what tells them apart.
pub const LOW_CLOCKS: f64 = 0.8;

/// Times the timed runs (with their probes) are tried at most while the
/// probes say the clocks are low; the set taken at the highest clocks is
/// reported, marked as taken under low clocks if it still was.
pub const MAX_CLOCK_ATTEMPTS: u32 = 3;

/// The clock probe's rate around a measurement as a fraction of its
/// reference rate: `reference_ms` (the probe's time per dispatch at its
/// reference rate) over the slowest of `probes_ms` (its times per dispatch
/// just before and just after the timed runs), at most 1. `None` without
/// probes or with a time that is not a positive, finite number.
pub fn clock_fraction(reference_ms: f64, probes_ms: &[f64]) -> Option<f64> {
    let valid = |x: f64| x.is_finite() && x > 0.0;
    if probes_ms.is_empty() || !valid(reference_ms) || !probes_ms.iter().all(|&p| valid(p)) {
        return None;
    }
    let slowest = probes_ms.iter().copied().fold(0f64, f64::max);
    Some((reference_ms / slowest).min(1.0))
}

impl Measurement {
    /// The slowest batch over the fastest (1 for a single run).
    pub fn spread(&self) -> f64 {
        if self.min_ms > 0.0 {
            self.max_ms / self.min_ms
        } else {
            f64::INFINITY
        }
    }
}

/// Which clock timed a kernel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Timer {
    /// GPU timestamp queries around the compute pass.
    Timestamps,
    /// Wall time from submission to the read-back being mapped (no
    /// timestamp queries on this adapter): includes the round trip.
    Wall,
}

impl Timer {
    /// How the figures were taken, for a reader: `GPU timestamps` or `wall time`.
    pub fn describe(self) -> &'static str {
        match self {
            Timer::Timestamps => "GPU timestamps",
            Timer::Wall => "wall time",
        }
    }
}

/// A kernel's time per dispatch over repeated timed runs, in milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    /// Median over the runs of (span ÷ dispatches per run).
    pub median_ms: f64,
    /// Fastest run, per dispatch.
    pub min_ms: f64,
    /// Slowest run, per dispatch.
    pub max_ms: f64,
    /// Timed runs (warm-up and calibration not counted).
    pub runs: u32,
    /// Dispatches between one pair of timer readings (`K`).
    pub dispatches_per_run: u32,
    /// The clock.
    pub timer: Timer,
    /// The timer's rounding step in milliseconds, when its readings showed
    /// one ([`detect_quantum_ns`]): Chrome's is 0.1 ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quantum_ms: Option<f64>,
    /// The device's clock probe around the timed runs, as a fraction of its
    /// reference rate ([`clock_fraction`]; below [`LOW_CLOCKS`] the figure
    /// was taken under low clocks). `None` where no probe ran: a software
    /// adapter, and the peaks' own kernels.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<f64>,
    /// The kernel's first dispatch on the case's buffers, cold, in
    /// milliseconds of wall time from its submission to its completion,
    /// before any warm-up: what timing one call would report. `None` where
    /// the runner did not take it (the peaks' own kernels).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_ms: Option<f64>,
    /// Creating the kernel's compute pipeline (compiling it), in
    /// milliseconds of wall time, where this case created it; `None` where
    /// an earlier case or Run had (the pipeline was reused).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pipeline_ms: Option<f64>,
}

impl Measurement {
    /// Summarises timed runs: `spans_ms[i]` is run `i`'s span over
    /// `dispatches` dispatches. `None` when there are no runs or a span is
    /// not a finite, non-negative number.
    pub fn from_spans(
        spans_ms: &[f64],
        dispatches: u32,
        timer: Timer,
        quantum_ms: Option<f64>,
    ) -> Option<Measurement> {
        if spans_ms.is_empty()
            || dispatches == 0
            || spans_ms.iter().any(|s| !s.is_finite() || *s < 0.0)
        {
            return None;
        }
        let mut per: Vec<f64> = spans_ms.iter().map(|s| s / f64::from(dispatches)).collect();
        per.sort_by(f64::total_cmp);
        let n = per.len();
        let median = if n % 2 == 1 { per[n / 2] } else { (per[n / 2 - 1] + per[n / 2]) / 2.0 };
        Some(Measurement {
            median_ms: median,
            min_ms: per[0],
            max_ms: per[n - 1],
            runs: n as u32,
            dispatches_per_run: dispatches,
            timer,
            quantum_ms,
            clock: None,
            first_ms: None,
            pipeline_ms: None,
        })
    }

    /// Whether the GPU's clocks were low while this was measured: its clock
    /// probe ran below [`LOW_CLOCKS`] of its reference rate, so the figure
    /// may be several times too slow, and no lesson or target is judged on it.
    pub fn low_clocks(&self) -> bool {
        self.clock.is_some_and(|c| c < LOW_CLOCKS)
    }

    /// What a reader is told next to a figure taken under low clocks
    /// ([`Measurement::low_clocks`]), e.g. `the GPU's clocks were low while
    /// this was measured (its FP32 rate at 24 % of the rate measured at
    /// start); the figure may be slow`; `None` otherwise.
    pub fn clock_warning(&self) -> Option<String> {
        let c = self.clock.filter(|_| self.low_clocks())?;
        Some(format!(
            "the GPU's clocks were low while this was measured (its FP32 rate at {:.0} % of the rate measured at start); the figure may be slow",
            c * 100.0
        ))
    }

    /// `0.20 ms (median of 7 runs × 64 dispatches, 0.19–0.22, GPU timestamps)`;
    /// with a timer that rounds its readings (Chrome's, to 0.1 ms), the
    /// clock ends `GPU timestamps read to 0.1 ms: ±0.00156 ms a dispatch`:
    /// each of a run's two readings is off by up to half a step, so its
    /// span by up to one step, shared by the run's dispatches.
    pub fn describe(&self) -> String {
        let dispatches = if self.dispatches_per_run == 1 {
            String::new()
        } else {
            format!(" × {} dispatches", self.dispatches_per_run)
        };
        let clock = match self.quantum_ms {
            Some(q) => format!(
                "{} read to {q} ms: ±{} ms a dispatch",
                self.timer.describe(),
                ms(q / f64::from(self.dispatches_per_run.max(1)))
            ),
            None => self.timer.describe().to_string(),
        };
        if self.runs == 1 {
            return format!("{} ms (1 run{dispatches}, {clock})", ms(self.median_ms));
        }
        format!(
            "{} ms (median of {} runs{dispatches}, {}–{}, {clock})",
            ms(self.median_ms),
            self.runs,
            ms(self.min_ms),
            ms(self.max_ms)
        )
    }
}

/// What a device attains, measured with the same method as the performance
/// cases (`gpu-puzzles-runner`'s `measure_peaks`): the yardstick for "how
/// close to the hardware" a kernel is.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Peaks {
    /// Device-memory bandwidth of a streaming copy, in GB/s (10⁹ bytes read
    /// plus written per second).
    pub bandwidth_gbs: f64,
    /// FP32 rate of independent fused multiply-adds, in GFLOP/s (an FMA is
    /// two floating-point operations).
    pub gflops: f64,
    /// The copy kernel's timing.
    pub copy: Measurement,
    /// The arithmetic kernel's timing.
    pub fma: Measurement,
}

impl Peaks {
    /// How much of these peaks a kernel reaches on a performance case that
    /// counts `flops` and `bytes` in `ms` milliseconds: the larger of the
    /// two fractions (the resource that bounds it), in percent, and which.
    /// `None` without counts or with a zero time.
    pub fn percent(
        &self,
        ms: f64,
        flops: Option<u64>,
        bytes: Option<u64>,
    ) -> Option<(f64, &'static str)> {
        if ms <= 0.0 {
            return None;
        }
        let compute = flops.map(|f| (f as f64 / (ms * 1e6) / self.gflops * 100.0, "FP32 peak"));
        let memory =
            bytes.map(|b| (b as f64 / (ms * 1e6) / self.bandwidth_gbs * 100.0, "bandwidth"));
        [compute, memory].into_iter().flatten().max_by(|a, b| a.0.total_cmp(&b.0))
    }
}

/// Milliseconds to three significant figures (at least two decimals).
fn ms(x: f64) -> String {
    let decimals = if x <= 0.0 || !x.is_finite() {
        2
    } else {
        (2 - x.log10().floor() as i32).clamp(2, 6) as usize
    };
    format!("{x:.decimals$}")
}

/// The span one timed run should reach, in milliseconds, for a timer with
/// rounding step `quantum_ms` (if any).
pub fn target_span_ms(quantum_ms: Option<f64>) -> f64 {
    quantum_ms.map_or(MIN_SPAN_MS, |q| (q * QUANTA_PER_SPAN).max(MIN_SPAN_MS))
}

/// The number of dispatches to try next after `dispatches` took `span_ms`
/// (calibration): `None` when the span already reaches `target_ms` or
/// [`MAX_DISPATCHES`] is reached; otherwise enough to reach the target if
/// the time per dispatch holds (at most 16× more per step, at least 2×,
/// since a span of 0 from a rounding timer says little).
pub fn next_batch(dispatches: u32, span_ms: f64, target_ms: f64) -> Option<u32> {
    if span_ms >= target_ms || dispatches >= MAX_DISPATCHES {
        return None;
    }
    let factor =
        if span_ms > 0.0 { (target_ms / span_ms * 1.2).ceil().clamp(2.0, 16.0) as u32 } else { 16 };
    Some(dispatches.saturating_mul(factor).min(MAX_DISPATCHES))
}

/// The rounding step of a timer, in nanoseconds, from its raw readings
/// (timestamps already scaled to nanoseconds): the greatest common divisor
/// of the readings, when it is at least 1 µs and at least four readings are
/// non-zero. A timer that does not round gives readings whose common
/// divisor is a few nanoseconds at most.
pub fn detect_quantum_ns(readings_ns: &[u64]) -> Option<u64> {
    let nonzero: Vec<u64> = readings_ns.iter().copied().filter(|&r| r != 0).collect();
    if nonzero.len() < 4 {
        return None;
    }
    let g = nonzero.iter().copied().fold(0, gcd);
    (g >= 1_000).then_some(g)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_spread_are_per_dispatch() {
        let m =
            Measurement::from_spans(&[4.0, 2.0, 3.0, 10.0], 2, Timer::Timestamps, None).unwrap();
        assert_eq!((m.median_ms, m.min_ms, m.max_ms, m.runs), (1.75, 1.0, 5.0, 4));
        let odd = Measurement::from_spans(&[3.0, 1.0, 2.0], 1, Timer::Wall, None).unwrap();
        assert_eq!(odd.median_ms, 2.0);
        assert_eq!(Measurement::from_spans(&[], 1, Timer::Wall, None), None);
        assert_eq!(Measurement::from_spans(&[1.0, f64::NAN], 1, Timer::Wall, None), None);
    }

    #[test]
    fn a_rounding_timer_is_detected_and_a_fine_one_is_not() {
        // Chrome rounds to 100 µs.
        let chrome = [1_234_500_000u64, 1_234_600_000, 1_234_600_000, 1_234_900_000, 1_235_000_000];
        assert_eq!(detect_quantum_ns(&chrome), Some(100_000));
        let fine = [1_234_567_891u64, 1_234_601_237, 1_234_622_000, 1_234_900_005];
        assert_eq!(detect_quantum_ns(&fine), None);
        assert_eq!(detect_quantum_ns(&[100_000, 200_000, 0]), None, "too few readings to tell");
    }

    #[test]
    fn batches_grow_until_the_span_is_long_against_the_timer() {
        let target = target_span_ms(Some(0.1));
        assert_eq!(target, MIN_SPAN_MS, "50 ticks of 0.1 ms are within the minimum span");
        assert_eq!(target_span_ms(Some(1.0)), 50.0);
        // A rounding timer read 0 for one dispatch: grow fast.
        assert_eq!(next_batch(1, 0.0, target), Some(16));
        // 16 dispatches took 0.8 ms: 0.05 ms each, so 240 reach 12 ms (a 20 % margin).
        assert_eq!(next_batch(16, 0.8, target), Some(240));
        assert_eq!(next_batch(240, 12.0, target), None);
        // At most 16× per step.
        assert_eq!(next_batch(1, 0.001, target), Some(16));
        assert_eq!(next_batch(MAX_DISPATCHES, 0.1, target), None);
        // A long kernel needs no batching.
        assert_eq!(next_batch(1, 12.0, target), None);
    }

    #[test]
    fn a_kernel_is_placed_against_the_resource_that_bounds_it() {
        let m = Measurement::from_spans(&[1.0], 1, Timer::Timestamps, None).unwrap();
        let peaks = Peaks { bandwidth_gbs: 1000.0, gflops: 50_000.0, copy: m, fma: m };
        // 2 GFLOP and 100 MB in 1 ms: 2000 GFLOP/s (4 % of FP32) and 100 GB/s (10 % of bandwidth).
        let (p, what) = peaks.percent(1.0, Some(2_000_000_000), Some(100_000_000)).unwrap();
        assert!((p - 10.0).abs() < 1e-9 && what == "bandwidth");
        let (p, what) = peaks.percent(1.0, Some(2_000_000_000), None).unwrap();
        assert!((p - 4.0).abs() < 1e-9 && what == "FP32 peak");
        assert_eq!(peaks.percent(0.0, Some(1), None), None);
    }

    #[test]
    fn warm_up_runs_long_enough_and_until_the_clocks_settle() {
        assert!(!warmed_up(10.0, [1.0, 1.0, 1.0]), "too short");
        assert!(!warmed_up(250.0, [1.3, 1.25, 0.9]), "still getting faster");
        assert!(!warmed_up(250.0, [0.5, 0.262, 0.26]), "two agreeing are not enough");
        assert!(
            !warmed_up(250.0, [f64::INFINITY, 0.26, 0.26]),
            "nor are two batches run after the first submission"
        );
        assert!(warmed_up(250.0, [0.261, 0.26, 0.262]));
        assert!(warmed_up(MAX_WARM_UP_MS, [1.0, 0.7, 0.5]), "capped");
        let m = Measurement::from_spans(&[1.0, 1.2], 1, Timer::Timestamps, None).unwrap();
        assert!((m.spread() - 1.2).abs() < 1e-12 && m.spread() > MAX_SPREAD);
    }

    #[test]
    fn a_slow_probe_marks_the_figure_as_taken_under_low_clocks() {
        // The probe's reference: 0.62 ms per dispatch (55.8 TFLOP/s on an H100).
        let fraction = |probes: &[f64]| clock_fraction(0.62, probes);
        assert_eq!(
            fraction(&[0.62, 0.63]).map(|f| (f * 1000.0).round()),
            Some(984.0),
            "the slower probe counts"
        );
        assert_eq!(
            fraction(&[0.6, 0.61]),
            Some(1.0),
            "a faster probe than the reference is full clocks"
        );
        // 345 MHz against 1,980 MHz: the probe runs 5.7 times slower.
        let held = fraction(&[0.62 * 1980.0 / 345.0, 0.62]).unwrap();
        assert!((held - 345.0 / 1980.0).abs() < 1e-9);
        // Just below and just above the threshold.
        let at = |f: f64| Measurement {
            clock: Some(f),
            ..Measurement::from_spans(&[1.0], 1, Timer::Timestamps, None).unwrap()
        };
        assert!(at(0.79).low_clocks() && !at(LOW_CLOCKS).low_clocks() && !at(0.97).low_clocks());
        assert!(
            !Measurement::from_spans(&[1.0], 1, Timer::Timestamps, None).unwrap().low_clocks(),
            "not probed: not marked"
        );
        assert_eq!(
            at(held).clock_warning().unwrap(),
            "the GPU's clocks were low while this was measured (its FP32 rate at 17 % of the rate measured at start); the figure may be slow"
        );
        assert_eq!(at(0.97).clock_warning(), None);
        // Nothing to decide on.
        assert_eq!(fraction(&[]), None);
        assert_eq!(fraction(&[0.62, f64::NAN]), None);
        assert_eq!(fraction(&[0.0]), None);
        assert_eq!(clock_fraction(0.0, &[0.62]), None);
    }

    #[test]
    fn descriptions_give_the_method() {
        let m = Measurement::from_spans(&[12.8, 12.2, 14.1], 64, Timer::Timestamps, None).unwrap();
        assert_eq!(
            m.describe(),
            "0.200 ms (median of 3 runs × 64 dispatches, 0.191–0.220, GPU timestamps)"
        );
        // A rounding timer: its step, and what it means for one dispatch.
        let m =
            Measurement::from_spans(&[12.8, 12.8, 12.9], 64, Timer::Timestamps, Some(0.1)).unwrap();
        assert_eq!(m.describe(), "0.200 ms (median of 3 runs × 64 dispatches, 0.200–0.202, GPU timestamps read to 0.1 ms: ±0.00156 ms a dispatch)");
    }
}
