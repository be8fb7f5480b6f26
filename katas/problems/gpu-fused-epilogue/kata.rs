//! Cases and checker for `gpu-fused-epilogue`: `y[r][c] = gelu(x[r][c] + bias[c]) + residual[r][c]`
//! in one kernel, GeLU in its exact erf form, checked against float64 on the CPU.

use katas::Case;
use katas::Group;
use katas::Message;
use katas::gpu::{
    Arg, Device, GpuError, GpuKata, GpuSpec, HostBuf, KernelSig, Launch, Param, Work,
};
use serde::{Deserialize, Serialize};

/// The learner's kernel source and launch shape.
#[derive(Debug, Clone, Copy)]
#[allow(non_snake_case)]
pub struct Solution {
    pub KERNEL: &'static str,
    pub launch: fn(usize, usize) -> Launch,
}

/// One case: a `rows` × `cols` row-major f32 matrix.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shape {
    pub rows: usize,
    pub cols: usize,
}

/// The largest matrix a case may have (elements); every index fits an `int`.
pub const MAX_ELEMENTS: usize = 1 << 25;

pub const BIAS_GELU_RESIDUAL: KernelSig = KernelSig {
    name: "bias_gelu_residual",
    params: &[
        Param::Ptr,
        Param::Ptr,
        Param::Ptr,
        Param::Ptr,
        Param::I32,
        Param::I32,
    ],
    declaration: "extern \"C\" __global__ void bias_gelu_residual(const float* x, \
                  const float* bias, const float* residual, float* y, int rows, int cols)",
};

/// An output element passes when `|got - want| <= REL_TOL * max(1, |want|)`, `want` in float64.
///
/// Why 1e-5: a float32 kernel rounds `x + bias`, the argument `v / sqrt(2)`, the products and the
/// final sum (half an ulp each, 6e-8 relative), and CUDA's `erff` is within 2 ulps. With the
/// inputs of this kata (|x + bias| <= 41, |residual| <= 4) that adds up to a few 1e-7 for results
/// of magnitude 1 and a few ulps of |y| for larger ones: at least 10x below the tolerance. The
/// tanh approximation of GeLU differs from the erf form by up to 4.7e-4 (near v = -2.7) and by
/// more than 1e-5 for most v in [-6, 6], so it fails.
pub const REL_TOL: f64 = 1e-5;

/// `1 / n` for n < 256: multiplies instead of divides in the loops below.
const INV: [f64; 256] = {
    let mut table = [0.0; 256];
    let mut n = 1;
    while n < table.len() {
        table[n] = 1.0 / n as f64;
        n += 1;
    }
    table
};

/// `erf(m)` for `0 <= m < 6` by its Maclaurin series in the form
/// `erf(m) = 2/sqrt(pi) * exp(-m^2) * sum_k m (2m^2)^k / (1*3*...*(2k+1))`.
/// Every term is positive, so nothing cancels: the sum is good to about (terms) * 2^-53 relative,
/// below 1e-13. Slow (up to ~100 terms): it fills the node table of [`erf64`] and checks it.
pub fn erf_series(m: f64) -> f64 {
    let t = 2.0 * m * m;
    let (mut term, mut sum) = (m, m);
    for k in 1..INV.len() / 2 {
        term *= t * INV[2 * k + 1];
        sum += term;
        // Past the peak of the terms (k > m^2) they shrink geometrically; before it a term is
        // at least sum / (k + 1), so this cannot stop early.
        if term <= sum * 1e-17 {
            break;
        }
    }
    (std::f64::consts::FRAC_2_SQRT_PI * (-m * m).exp() * sum).min(1.0)
}

/// Spacing of the nodes of [`erf64`]: 1/32.
const NODES_PER_UNIT: f64 = 32.0;

/// `(erf(x0), exp(-x0^2))` at `x0 = j / 32`, `j = 0..=192`.
fn erf_nodes() -> &'static [(f64, f64)] {
    static NODES: std::sync::OnceLock<Vec<(f64, f64)>> = std::sync::OnceLock::new();
    NODES.get_or_init(|| {
        (0..=192)
            .map(|j| {
                let x0 = f64::from(j) / NODES_PER_UNIT;
                (erf_series(x0), (-x0 * x0).exp())
            })
            .collect()
    })
}

/// The error function in float64, independent of any kernel (std has no `erf`).
///
/// For |a| >= 6, `1 - erf(a) < 2.2e-17`, below half an ulp of 1: the answer is +-1. Below that,
/// a Taylor step from the nearest node `x0 = j/32` (|d| = |a - x0| <= 1/64), with the derivatives
/// of erf written through Hermite polynomials:
/// `erf(x0 + d) = erf(x0) + 2/sqrt(pi) exp(-x0^2) sum_k (-1)^k H_k(x0) d^(k+1) / (k+1)!`.
/// Eight terms leave a remainder below 1e-16 for x0 <= 6; the unit tests hold it to the series
/// within 1e-14 on a fine grid. That is far finer than the 1e-5 tolerance needs (even
/// Abramowitz & Stegun 7.1.26, 1.5e-7 absolute, would be 10x inside it, but an oracle should
/// not spend the margin it judges by); the nodes only make the check of 33 million elements fast.
pub fn erf64(a: f64) -> f64 {
    let m = a.abs();
    if m >= 6.0 {
        return 1f64.copysign(a);
    }
    let j = (m * NODES_PER_UNIT).round();
    let x0 = j / NODES_PER_UNIT;
    let d = m - x0;
    let (erf0, gauss0) = erf_nodes()[j as usize];
    // h = H_k(x0), h_prev = H_(k-1)(x0); p = (-1)^k d^(k+1) / (k+1)!.
    let (mut h_prev, mut h, mut p) = (0.0, 1.0, d);
    let mut sum = d;
    for k in 1..=8 {
        let next = 2.0 * x0 * h - 2.0 * (k - 1) as f64 * h_prev;
        (h_prev, h) = (h, next);
        p *= -d * INV[k + 1];
        sum += h * p;
    }
    (erf0 + std::f64::consts::FRAC_2_SQRT_PI * gauss0 * sum)
        .min(1.0)
        .copysign(a)
}

/// The exact GeLU in float64: `0.5 v (1 + erf(v / sqrt 2))`.
pub fn gelu64(v: f64) -> f64 {
    0.5 * v * (1.0 + erf64(v * std::f64::consts::FRAC_1_SQRT_2))
}

/// The trusted value of one element, from the float32 inputs read exactly as float64.
pub fn expected(x: f32, bias: f32, residual: f32) -> f64 {
    gelu64(f64::from(x) + f64::from(bias)) + f64::from(residual)
}

/// Uniform floats in [0, 1) with 24 random bits each, from SplitMix64.
struct Uniform(u64);

impl Uniform {
    fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 40) as f32 * (1.0 / (1u32 << 24) as f32)
    }
}

#[derive(Debug)]
pub struct Kata;

pub type Spec = GpuSpec<Kata>;

impl GpuKata for Kata {
    type Solution = Solution;
    type Shape = Shape;
    type Out = f32;
    type Log = ();

    const KERNELS: &'static [KernelSig] = &[BIAS_GELU_RESIDUAL];

    fn kernel_source(solution: &Solution) -> &'static str {
        solution.KERNEL
    }

    fn shapes() -> Vec<Case<Shape>> {
        let shape = |rows, cols| Shape { rows, cols };
        vec![
            Case::new("1 × 1", Group::Sample, shape(1, 1)).zh("1 × 1"),
            Case::new("3 × 5", Group::Sample, shape(3, 5)).zh("3 × 5"),
            Case::new("1 × 7: one short row", Group::Edge, shape(1, 7)).zh("1 × 7：一行短数据"),
            Case::new("7 × 1: one column", Group::Edge, shape(7, 1)).zh("7 × 1：只有一列"),
            Case::new("9 × 4: one float4 per row", Group::Edge, shape(9, 4))
                .zh("9 × 4：每行一个 float4"),
            Case::new("17 × 1023: width 3 mod 4", Group::Edge, shape(17, 1023))
                .zh("17 × 1023：宽度模 4 余 3"),
            Case::new("1 × 4097: one past 4096", Group::Edge, shape(1, 4097))
                .zh("1 × 4097：比 4096 多一个"),
            Case::new("513 × 769: odd both ways", Group::Edge, shape(513, 769))
                .zh("513 × 769：两个方向都是奇数"),
            Case::new(
                "70000 × 2: more rows than grid.y allows",
                Group::Edge,
                shape(70_000, 2),
            )
            .zh("70000 × 2：行数超过 grid.y 的上限"),
            Case::new("300 × 1030: width 2 mod 4", Group::Random, shape(300, 1030))
                .zh("300 × 1030：宽度模 4 余 2"),
            Case::new(
                "256 × 11008: an MLP width",
                Group::Random,
                shape(256, 11_008),
            )
            .zh("256 × 11008：MLP 的宽度"),
            Case::new(
                "8192 × 4096: 8192 tokens, hidden 4096",
                Group::Performance,
                shape(8192, 4096),
            )
            .zh("8192 × 4096：8192 个 token，hidden 4096"),
        ]
    }

    fn inputs(shape: &Shape, rng: &mut fastrand::Rng) -> Vec<HostBuf> {
        let (rows, cols) = (shape.rows, shape.cols);
        // The 67 million numbers of the performance case come from a SplitMix64 stream seeded by
        // `rng`: as deterministic, and fast however the dependencies were compiled.
        let mut uniform = Uniform(rng.u64(..));
        // Some exact zeros in the bias; the rest uniform in [-1, 1).
        let bias: Vec<f32> = (0..cols)
            .map(|c| {
                if c % 11 == 5 {
                    0.0
                } else {
                    uniform.next() * 2.0 - 1.0
                }
            })
            .collect();
        // Mostly uniform in [-6, 6); one element in 61 is exactly -bias (so gelu sees exactly
        // 0), one in 67 is large (|x| in [8, 40], where erf has saturated to +-1), one in 71 is
        // tiny. The patterns run along the flat index, so they land in every column.
        let n = rows * cols;
        let mut x = Vec::with_capacity(n);
        let (mut k61, mut k67, mut k71) = (0u32, 0u32, 0u32);
        for _ in 0..rows {
            for &b in &bias {
                let u = uniform.next();
                x.push(if k61 == 0 {
                    -b
                } else if k67 == 0 {
                    let big = 8.0 + 32.0 * u;
                    if uniform.next() < 0.5 { big } else { -big }
                } else if k71 == 0 {
                    (u - 0.5) * 2e-3
                } else {
                    u * 12.0 - 6.0
                });
                k61 = if k61 == 60 { 0 } else { k61 + 1 };
                k67 = if k67 == 66 { 0 } else { k67 + 1 };
                k71 = if k71 == 70 { 0 } else { k71 + 1 };
            }
        }
        let residual = (0..n).map(|_| uniform.next() * 8.0 - 4.0).collect();
        vec![HostBuf::F32(x), HostBuf::F32(bias), HostBuf::F32(residual)]
    }

    fn output_len(shape: &Shape) -> usize {
        shape.rows * shape.cols
    }

    fn run(
        device: &mut Device<'_>,
        solution: Solution,
        shape: &Shape,
        _log: &mut (),
    ) -> Result<(), GpuError> {
        let int = |v: usize, what: &str| {
            i32::try_from(v).map_err(|_| GpuError(format!("{what} does not fit an int")))
        };
        let (rows, cols) = (int(shape.rows, "rows")?, int(shape.cols, "cols")?);
        let (x, bias, residual, y) = (
            device.input(0),
            device.input(1),
            device.input(2),
            device.output(),
        );
        device.launch(
            BIAS_GELU_RESIDUAL.name,
            (solution.launch)(shape.rows, shape.cols),
            &[
                Arg::Buf(x),
                Arg::Buf(bias),
                Arg::Buf(residual),
                Arg::Buf(y),
                Arg::I32(rows),
                Arg::I32(cols),
            ],
        )
    }

    fn check_element(shape: &Shape, inputs: &[HostBuf], i: usize, got: f32) -> Result<(), String> {
        let (HostBuf::F32(x), HostBuf::F32(bias), HostBuf::F32(residual)) =
            (&inputs[0], &inputs[1], &inputs[2])
        else {
            return Err("inputs of the wrong type (our bug)".into());
        };
        let (r, c) = (i / shape.cols, i % shape.cols);
        let want = expected(x[i], bias[c], residual[i]);
        let tol = REL_TOL * want.abs().max(1.0);
        // Written so that NaN and infinities fail.
        if (f64::from(got) - want).abs() <= tol {
            Ok(())
        } else {
            Err(format!(
                "{} = gelu(x[{r}][{c}] + bias[{c}]) + residual[{r}][{c}] = \
                 gelu({:?} + {:?}) + {:?} ± {}",
                katas::rounded(want, 9),
                x[i],
                bias[c],
                residual[i],
                katas::rounded(tol, 2)
            ))
        }
    }

    fn work(shape: &Shape) -> Work {
        // x and residual read, y written, once each; the bias read once.
        let n = (shape.rows * shape.cols) as u64;
        Work::Bytes(4 * (3 * n + shape.cols as u64))
    }

    fn describe(shape: &Shape) -> Message {
        let (rows, cols) = (shape.rows, shape.cols);
        let count = rows * cols;
        Message::new(
            format!("{rows} × {cols} f32 matrix ({count} elements)"),
            format!("{rows} × {cols} 的 f32 矩阵（{count} 个元素）"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use katas::KataSpec;
    use katas::gpu::GpuOutput;
    use katas::gpu::harness::{Ran, TimedRun};

    type Out = GpuOutput<f32, ()>;

    fn case(name_start: &str) -> katas::Case<katas::gpu::GpuCase<Shape>> {
        <Spec as KataSpec>::cases(0x0EF1_2024)
            .into_iter()
            .find(|c| c.name.starts_with(name_start))
            .expect("case exists")
    }

    /// The inputs the harness generates for run `run` of a case (same derivation as the harness).
    fn inputs_of(case: &katas::gpu::GpuCase<Shape>, run: u32) -> Vec<HostBuf> {
        let seed = case.seed ^ u64::from(run).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Kata::inputs(&case.shape, &mut fastrand::Rng::with_seed(seed))
    }

    fn f32s(buf: &HostBuf) -> &[f32] {
        match buf {
            HostBuf::F32(v) => v,
            _ => panic!("f32 buffer"),
        }
    }

    /// Every element of `shape` computed by `f(x, bias, residual)`.
    fn compute(shape: &Shape, inputs: &[HostBuf], f: impl Fn(f32, f32, f32) -> f32) -> Vec<f32> {
        let (x, b, r) = (f32s(&inputs[0]), f32s(&inputs[1]), f32s(&inputs[2]));
        (0..x.len())
            .map(|i| f(x[i], b[i % shape.cols], r[i]))
            .collect()
    }

    /// What a float32 kernel computes: every operation rounded to f32, `erff` off by `ulps`.
    fn kernel_like(ulps: i32) -> impl Fn(f32, f32, f32) -> f32 {
        move |x, b, r| {
            let v = x + b;
            let e = erf64(f64::from(v * std::f32::consts::FRAC_1_SQRT_2)) as f32;
            let e = if e != 0.0 && e.abs() < 1.0 {
                f32::from_bits((e.to_bits() as i32 + ulps) as u32)
            } else {
                e
            };
            0.5 * v * (1.0 + e) + r
        }
    }

    fn tanh_gelu(x: f32, b: f32, r: f32) -> f32 {
        let v = f64::from(x) + f64::from(b);
        let k = (2.0 / std::f64::consts::PI).sqrt();
        (0.5 * v * (1.0 + (k * (v + 0.044715 * v * v * v)).tanh()) + f64::from(r)) as f32
    }

    fn ran(values: Vec<f32>) -> Out {
        GpuOutput::Ran(Ran {
            values,
            input_changed: None,
            log: (),
            timed: Vec::new(),
        })
    }

    fn check(case: &katas::gpu::GpuCase<Shape>, got: &Out) -> katas::Check {
        Spec::check(case, &Out::Unavailable(String::new()), got)
    }

    fn passes(check: &katas::Check) -> bool {
        matches!(
            check,
            katas::Check::Pass { .. } | katas::Check::PassTimed { .. }
        )
    }

    #[test]
    fn erf_matches_known_values() {
        for (a, want) in [
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (3.0, 0.999_977_909_503_001_4),
        ] {
            assert!((erf64(a) - want).abs() < 1e-15, "erf({a}) = {}", erf64(a));
            assert!((erf64(-a) + want).abs() < 1e-15);
        }
        // The tail through 1 - erf against known erfc values.
        assert!((1.0 - erf64(4.0) - 1.541_725_790_028_002e-8).abs() < 1e-15);
        assert!((1.0 - erf64(5.0) - 1.537_459_794_428_035e-12).abs() < 1e-15);
        assert_eq!(erf64(0.0), 0.0);
        assert_eq!(erf64(6.0), 1.0);
        assert_eq!(erf64(-40.0), -1.0);
        // Continuous at the switch to +-1, and monotone (to rounding) on a fine grid.
        assert!(1.0 - erf64(5.999_999) < 1e-15);
        let mut last = -1.0;
        for i in -6000..=6000 {
            let e = erf64(f64::from(i) / 1000.0);
            assert!(e >= last - 1e-14, "erf not monotone at {i}");
            assert!(e.abs() <= 1.0);
            last = e;
        }
    }

    #[test]
    fn the_node_steps_agree_with_the_series() {
        let mut worst = 0f64;
        for i in 0..600_000 {
            // Not on the node grid: step 1e-5 plus an irrational-ish offset.
            let a = f64::from(i) * 1e-5 + 3.7e-7;
            worst = worst.max((erf64(a) - erf_series(a)).abs());
        }
        assert!(worst < 1e-14, "largest difference {worst:e}");
    }

    #[test]
    fn gelu_matches_known_values() {
        assert_eq!(gelu64(0.0), 0.0);
        assert!((gelu64(1.0) - 0.841_344_746_068_542_9).abs() < 1e-15);
        assert!((gelu64(-1.0) + 0.158_655_253_931_457_05).abs() < 1e-15);
        assert_eq!(gelu64(40.0), 40.0);
        assert_eq!(gelu64(-40.0), 0.0);
    }

    #[test]
    fn shapes_cover_the_edges() {
        let shapes: Vec<Shape> = Kata::shapes().into_iter().map(|c| c.input).collect();
        assert!(shapes.iter().all(|s| s.rows * s.cols <= MAX_ELEMENTS));
        assert!(shapes.iter().any(|s| s.rows * s.cols == 1));
        assert!(shapes.iter().any(|s| s.cols % 4 != 0 && s.rows > 1));
        assert!(shapes.iter().any(|s| s.rows > 65_535));
    }

    #[test]
    fn inputs_hold_zeros_and_saturated_values() {
        let c = case("513");
        let inputs = inputs_of(&c.input, 0);
        let (x, b) = (f32s(&inputs[0]), f32s(&inputs[1]));
        let v: Vec<f32> = (0..x.len()).map(|i| x[i] + b[i % 769]).collect();
        assert!(v.iter().filter(|v| **v == 0.0).count() > 1000);
        assert!(v.iter().filter(|v| v.abs() > 8.0).count() > 1000);
        assert!(v.iter().all(|v| v.abs() <= 41.0));
        assert_eq!(inputs, inputs_of(&c.input, 0), "deterministic");
    }

    #[test]
    fn a_float32_kernel_passes_and_wrong_answers_fail() {
        for name in ["1 × 1", "3 × 5", "17 × 1023", "513", "70000"] {
            let c = case(name).input;
            let inputs = inputs_of(&c, 0);
            // Exactly rounded, and with erff 2 ulps off either way: all pass.
            for ulps in [0, 2, -2] {
                let values = compute(&c.shape, &inputs, kernel_like(ulps));
                let result = check(&c, &ran(values));
                assert!(passes(&result), "{name}, {ulps} ulps: {result:?}");
            }
            let good = compute(&c.shape, &inputs, kernel_like(0));

            let mut off = good.clone();
            let last = off.len() - 1;
            off[last] += 1e-3 * off[last].abs().max(1.0);
            assert!(!passes(&check(&c, &ran(off))), "{name}: perturbed");

            let mut poisoned = good.clone();
            poisoned[0] = f32::from_bits(u32::MAX);
            assert!(!passes(&check(&c, &ran(poisoned))), "{name}: poison");

            let mut nan = good.clone();
            nan[last] = f32::NAN;
            assert!(!passes(&check(&c, &ran(nan))), "{name}: NaN");

            let mut inf = good.clone();
            inf[0] = f32::INFINITY;
            assert!(!passes(&check(&c, &ran(inf))), "{name}: infinity");

            assert!(!passes(&check(&c, &ran(good[1..].to_vec()))), "short");

            let changed = GpuOutput::Ran(Ran {
                values: good.clone(),
                input_changed: Some((0, 3, "1.0".into(), "2.0".into())),
                log: (),
                timed: Vec::new(),
            });
            assert!(!passes(&check(&c, &changed)), "{name}: input changed");
        }
    }

    #[test]
    fn float32_rounding_stays_ten_times_inside_the_tolerance() {
        for name in ["17 × 1023", "513", "256 × 11008"] {
            let c = case(name).input;
            let inputs = inputs_of(&c, 0);
            let (x, b, r) = (f32s(&inputs[0]), f32s(&inputs[1]), f32s(&inputs[2]));
            for ulps in [2, -2] {
                let got = compute(&c.shape, &inputs, kernel_like(ulps));
                let worst = (0..x.len())
                    .map(|i| {
                        let want = expected(x[i], b[i % c.shape.cols], r[i]);
                        (f64::from(got[i]) - want).abs() / (REL_TOL * want.abs().max(1.0))
                    })
                    .fold(0.0, f64::max);
                assert!(worst < 0.1, "{name}, {ulps} ulps: {worst} of the tolerance");
            }
        }
    }

    #[test]
    fn the_tanh_approximation_fails() {
        for name in ["3 × 5", "17 × 1023", "513"] {
            let c = case(name).input;
            let values = compute(&c.shape, &inputs_of(&c, 0), tanh_gelu);
            assert!(!passes(&check(&c, &ran(values))), "{name}");
        }
    }

    #[test]
    fn bias_by_row_fails() {
        for name in ["3 × 5", "17 × 1023", "513"] {
            let c = case(name).input;
            let inputs = inputs_of(&c, 0);
            let (x, b, r) = (f32s(&inputs[0]), f32s(&inputs[1]), f32s(&inputs[2]));
            let good = kernel_like(0);
            let values = (0..x.len())
                .map(|i| good(x[i], b[i / c.shape.cols], r[i]))
                .collect();
            assert!(!passes(&check(&c, &ran(values))), "{name}");
        }
    }

    #[test]
    fn timed_runs_are_checked_on_fresh_inputs() {
        // The timed machinery on a small shape: a timed copy of the 513 × 769 case.
        let mut c = case("513").input;
        c.timed_runs = 3;
        let sampled = |run: u32, values: &[f32]| {
            let len = values.len();
            let mut rng = fastrand::Rng::with_seed(
                (c.seed ^ u64::from(run).wrapping_mul(0x9E37_79B9_7F4A_7C15)) ^ 0x5A3F_17E5,
            );
            let mut at: Vec<usize> = (0..512).map(|_| rng.usize(..len)).collect();
            at.extend([0, len - 1]);
            at.sort_unstable();
            at.dedup();
            at.into_iter().map(|i| (i as u64, values[i])).collect()
        };
        let run_values = |run: u32| compute(&c.shape, &inputs_of(&c, run), kernel_like(0));
        let timed: Vec<TimedRun<f32>> = (1..=3)
            .map(|run| TimedRun {
                ms: 0.1,
                samples: sampled(run, &run_values(run)),
                input_changed: None,
            })
            .collect();
        let honest = GpuOutput::Ran(Ran {
            values: run_values(0),
            input_changed: None,
            log: (),
            timed: timed.clone(),
        });
        let result = check(&c, &honest);
        assert!(
            matches!(result, katas::Check::PassTimed { .. }),
            "{result:?}"
        );
        // Replaying the correctness run's answers in a timed run (stale results) fails.
        let mut stale = timed;
        stale[1].samples = sampled(2, &run_values(0));
        let replayed = GpuOutput::Ran(Ran {
            values: run_values(0),
            input_changed: None,
            log: (),
            timed: stale,
        });
        assert!(!passes(&check(&c, &replayed)));
    }

    #[test]
    fn the_performance_case_is_generated_and_checked_quickly_enough() {
        let mut c = case("8192").input;
        // Only the correctness run's full element check; the timed runs check 514 samples each.
        c.timed_runs = 0;
        let started = std::time::Instant::now();
        let inputs = inputs_of(&c, 0);
        let generated = started.elapsed();
        let values = compute(&c.shape, &inputs, kernel_like(0));
        let started = std::time::Instant::now();
        let result = check(&c, &ran(values));
        let checked = started.elapsed();
        assert!(passes(&result), "{result:?}");
        // Timings are printed, not asserted (shared machines make them noisy).
        println!("8192 × 4096: inputs in {generated:?}, full check in {checked:?}");
    }
}
