//! Timing figures of GPU cases and how they compare with the device: pure arithmetic, so the
//! rules are tested on machines without a GPU.

use serde::{Deserialize, Serialize};

/// How many timed runs a performance case gets, after [`WARMUP_RUNS`] untimed ones.
pub const TIMED_RUNS: u32 = 15;
pub const WARMUP_RUNS: u32 = 2;
/// A rate above this fraction of the measured peak cannot be real: the result is flagged.
pub const SUSPECT_FRACTION: f64 = 1.05;

/// The least work a correct solution must do for one case, to turn a time into a rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Work {
    /// Bytes that must be read plus bytes that must be written.
    Bytes(u64),
    /// Floating-point operations (a multiply-add counts two).
    Flops(u64),
}

/// The device times of one performance case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeviceTiming {
    pub median_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
    pub runs: u32,
    pub work: Work,
}

impl DeviceTiming {
    /// `None` without samples.
    pub fn from_samples(samples_ms: &[f32], work: Work) -> Option<Self> {
        let mut sorted: Vec<f64> = samples_ms.iter().map(|&t| f64::from(t)).collect();
        if sorted.is_empty() {
            return None;
        }
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        Some(Self {
            median_ms: median,
            min_ms: sorted[0],
            max_ms: sorted[n - 1],
            runs: n as u32,
            work,
        })
    }

    /// Bytes/s or FLOP/s at the median time.
    pub fn rate(&self) -> f64 {
        let amount = match self.work {
            Work::Bytes(b) => b as f64,
            Work::Flops(f) => f as f64,
        };
        amount / (self.median_ms.max(1e-6) / 1e3)
    }

    /// "412.0 GB/s" or "3.1 TFLOP/s".
    pub fn rate_text(&self) -> String {
        match self.work {
            Work::Bytes(_) => format!("{:.1} GB/s", self.rate() / 1e9),
            Work::Flops(_) => format!("{:.2} TFLOP/s", self.rate() / 1e12),
        }
    }

    pub fn note(&self) -> crate::Message {
        let (median, runs, min, max) = (self.median_ms, self.runs, self.min_ms, self.max_ms);
        let rate = self.rate_text();
        crate::Message::new(
            format!(
                "device time median {median:.3} ms over {runs} runs (min {min:.3}, max {max:.3}): {rate}"
            ),
            format!(
                "设备时间中位数 {median:.3} ms，共 {runs} 次运行（最小 {min:.3}，最大 {max:.3}）：{rate}"
            ),
        )
    }
}

/// What the worker measured on its device at start: the yardsticks for "% of peak".
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Peak {
    /// Device-to-device copy, bytes read plus written per second.
    pub copy_bytes_per_s: f64,
    /// Dense f32 matrix multiply, FLOP/s, where measured.
    pub matrix_flops_per_s: Option<f64>,
}

/// One performance case judged against the device and the reference.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Speed {
    pub rate: f64,
    pub rate_text: String,
    /// Percentage of the matching peak, where one was measured.
    pub percent_of_peak: Option<f64>,
    /// Reference median / this median.
    pub speedup_over_reference: Option<f64>,
    /// Faster than the device can physically be: a timing cheat or a broken measurement.
    pub suspect: bool,
}

pub fn speed(
    timing: &DeviceTiming,
    peak: Option<&Peak>,
    reference: Option<&DeviceTiming>,
) -> Speed {
    let rate = timing.rate();
    let yardstick = peak.and_then(|p| match timing.work {
        Work::Bytes(_) => Some(p.copy_bytes_per_s),
        Work::Flops(_) => p.matrix_flops_per_s,
    });
    let percent_of_peak = yardstick.map(|y| 100.0 * rate / y);
    Speed {
        rate,
        rate_text: timing.rate_text(),
        percent_of_peak,
        speedup_over_reference: reference.map(|r| r.median_ms / timing.median_ms.max(1e-6)),
        suspect: percent_of_peak.is_some_and(|p| p > 100.0 * SUSPECT_FRACTION)
            || timing.median_ms <= 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_ignores_outliers_and_gives_the_rate() {
        let t = DeviceTiming::from_samples(&[1.0, 9.0, 1.25, 0.5, 2.0], Work::Bytes(2_000_000_000))
            .unwrap();
        assert_eq!(t.median_ms, 1.25);
        assert_eq!((t.min_ms, t.max_ms, t.runs), (0.5, 9.0, 5));
        assert_eq!(t.rate(), 1.6e12);
        assert_eq!(t.rate_text(), "1600.0 GB/s");
        let even = DeviceTiming::from_samples(&[1.0, 3.0], Work::Flops(1)).unwrap();
        assert_eq!(even.median_ms, 2.0);
        assert!(DeviceTiming::from_samples(&[], Work::Bytes(1)).is_none());
    }

    #[test]
    fn faster_than_the_device_is_suspect() {
        let peak = Peak {
            copy_bytes_per_s: 4.0e12,
            matrix_flops_per_s: None,
        };
        let honest = DeviceTiming::from_samples(&[1.0], Work::Bytes(2_000_000_000)).unwrap();
        let s = speed(
            &honest,
            Some(&peak),
            Some(&DeviceTiming {
                median_ms: 2.0,
                ..honest.clone()
            }),
        );
        assert_eq!(s.percent_of_peak, Some(50.0));
        assert_eq!(s.speedup_over_reference, Some(2.0));
        assert!(!s.suspect);
        let impossible = DeviceTiming::from_samples(&[0.1], Work::Bytes(2_000_000_000)).unwrap();
        assert!(speed(&impossible, Some(&peak), None).suspect);
        // No matrix peak measured: no percentage, and nothing to call suspect.
        let gemm = DeviceTiming::from_samples(&[0.001], Work::Flops(1 << 40)).unwrap();
        let s = speed(&gemm, Some(&peak), None);
        assert_eq!((s.percent_of_peak, s.suspect), (None, false));
    }
}
