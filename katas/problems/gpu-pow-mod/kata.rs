//! Cases and checker for `gpu-pow-mod`: `out[i] = base[i]^exponent[i] mod m` on the device.

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
    pub launch: fn(usize) -> Launch,
}

/// One case: `n` elements modulo `modulus`; exponents drawn below `max_exponent`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shape {
    pub n: usize,
    pub modulus: u64,
    pub max_exponent: u64,
}

pub const POW_MOD: KernelSig = KernelSig {
    name: "pow_mod",
    params: &[Param::Ptr, Param::Ptr, Param::Ptr, Param::U64, Param::I32],
    declaration: "extern \"C\" __global__ void pow_mod(const unsigned long long* base, \
                  const unsigned long long* exponent, unsigned long long* out, \
                  unsigned long long modulus, int n)",
};

/// The trusted value, by square-and-multiply (independent of any kernel): in `u64` when the
/// modulus fits 32 bits (every case), else in `u128`.
pub fn pow_mod(base: u64, exponent: u64, modulus: u64) -> u64 {
    if modulus <= u64::from(u32::MAX) {
        let (mut acc, mut b, mut e) = (1 % modulus, base % modulus, exponent);
        while e > 0 {
            if e & 1 == 1 {
                acc = acc * b % modulus;
            }
            b = b * b % modulus;
            e >>= 1;
        }
        return acc;
    }
    let m = u128::from(modulus);
    let (mut acc, mut b, mut e) = (1 % m, u128::from(base) % m, exponent);
    while e > 0 {
        if e & 1 == 1 {
            acc = acc * b % m;
        }
        b = b * b % m;
        e >>= 1;
    }
    acc as u64
}

#[derive(Debug)]
pub struct Kata;

pub type Spec = GpuSpec<Kata>;

impl GpuKata for Kata {
    type Solution = Solution;
    type Shape = Shape;
    type Out = u64;
    type Log = ();

    const KERNELS: &'static [KernelSig] = &[POW_MOD];

    fn kernel_source(solution: &Solution) -> &'static str {
        solution.KERNEL
    }

    fn shapes() -> Vec<Case<Shape>> {
        let shape = |n, modulus, max_exponent| Shape {
            n,
            modulus,
            max_exponent,
        };
        vec![
            Case::new("5 elements mod 1000", Group::Sample, shape(5, 1000, 20))
                .zh("5 个元素，模 1000"),
            Case::new("1 element mod 7", Group::Sample, shape(1, 7, 10)).zh("1 个元素，模 7"),
            Case::new("modulus 2 (parity)", Group::Edge, shape(33, 2, u64::MAX))
                .zh("模数为 2（奇偶性）"),
            Case::new(
                "largest modulus 2^32 - 1",
                Group::Edge,
                shape(300, u32::MAX as u64, u64::MAX),
            )
            .zh("最大的模数 2^32 - 1"),
            Case::new(
                "prime modulus 4294967291",
                Group::Edge,
                shape(1000, 4_294_967_291, u64::MAX),
            )
            .zh("质数模数 4294967291"),
            Case::new(
                "257 elements: one past a block",
                Group::Edge,
                shape(257, 1_000_000_007, u64::MAX),
            )
            .zh("257 个元素：比一个线程块多一个"),
            Case::new(
                "100003 elements (prime count)",
                Group::Random,
                shape(100_003, 998_244_353, u64::MAX),
            )
            .zh("100003 个元素（个数为质数）"),
            Case::new(
                "2^20 + 1 elements",
                Group::Random,
                shape((1 << 20) + 1, 4_294_967_279, u64::MAX),
            )
            .zh("2^20 + 1 个元素"),
            Case::new(
                "2^22 elements, 64-bit exponents",
                Group::Performance,
                shape(1 << 22, 4_294_967_291, u64::MAX),
            )
            .zh("2^22 个元素，64 位指数"),
        ]
    }

    fn inputs(shape: &Shape, rng: &mut fastrand::Rng) -> Vec<HostBuf> {
        // Exponent 0 and bases 0, 1 and multiples of m show up in every case of any size.
        let base = (0..shape.n)
            .map(|i| match i % 97 {
                0 => 0,
                1 => 1,
                2 => shape.modulus * rng.u64(1..4),
                _ => rng.u64(..),
            })
            .collect();
        let exponent = (0..shape.n)
            .map(|i| {
                if i % 89 == 3 {
                    0
                } else {
                    rng.u64(..=shape.max_exponent)
                }
            })
            .collect();
        vec![HostBuf::U64(base), HostBuf::U64(exponent)]
    }

    fn output_len(shape: &Shape) -> usize {
        shape.n
    }

    fn run(
        device: &mut Device<'_>,
        solution: Solution,
        shape: &Shape,
        _log: &mut (),
    ) -> Result<(), GpuError> {
        let n = i32::try_from(shape.n).map_err(|_| GpuError("n does not fit an int".into()))?;
        let (base, exponent, out) = (device.input(0), device.input(1), device.output());
        device.launch(
            "pow_mod",
            (solution.launch)(shape.n),
            &[
                Arg::Buf(base),
                Arg::Buf(exponent),
                Arg::Buf(out),
                Arg::U64(shape.modulus),
                Arg::I32(n),
            ],
        )
    }

    fn check_element(shape: &Shape, inputs: &[HostBuf], i: usize, got: u64) -> Result<(), String> {
        let (HostBuf::U64(base), HostBuf::U64(exponent)) = (&inputs[0], &inputs[1]) else {
            return Err("inputs of the wrong type (our bug)".into());
        };
        let want = pow_mod(base[i], exponent[i], shape.modulus);
        if got == want {
            Ok(())
        } else {
            Err(format!(
                "{want} = {}^{} mod {}",
                base[i], exponent[i], shape.modulus
            ))
        }
    }

    fn work(shape: &Shape) -> Work {
        // Two u64 reads and one u64 write per element.
        Work::Bytes(24 * shape.n as u64)
    }

    fn describe(shape: &Shape) -> Message {
        let (n, modulus, max) = (shape.n, shape.modulus, shape.max_exponent);
        Message::new(
            format!("n = {n}, modulus = {modulus}, exponents up to {max}"),
            format!("n = {n}，模数 = {modulus}，指数最大为 {max}"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oracle_agrees_with_small_cases() {
        assert_eq!(pow_mod(2, 10, 1000), 24);
        assert_eq!(pow_mod(3, 0, 7), 1);
        assert_eq!(pow_mod(0, 0, 13), 1);
        assert_eq!(pow_mod(5, u64::MAX, 2), 1);
        assert_eq!(pow_mod(u64::MAX, 2, u32::MAX as u64), 0);
    }

    use katas::KataSpec;
    use katas::gpu::harness::{Ran, TimedRun};
    use katas::gpu::{GpuCase, GpuOutput};

    /// What a correct device would send back for `case`, computed with the CPU oracle.
    fn correct_output(case: &GpuCase<Shape>) -> GpuOutput<u64, ()> {
        let run = |r: u32| {
            let inputs = Kata::inputs(&case.shape, &mut katas::gpu::harness::run_rng(case.seed, r));
            let (HostBuf::U64(b), HostBuf::U64(e)) = (&inputs[0], &inputs[1]) else {
                unreachable!()
            };
            b.iter()
                .zip(e)
                .map(|(&b, &e)| pow_mod(b, e, case.shape.modulus))
                .collect::<Vec<u64>>()
        };
        let timed = (1..=case.timed_runs)
            .map(|r| {
                let inputs =
                    Kata::inputs(&case.shape, &mut katas::gpu::harness::run_rng(case.seed, r));
                let (HostBuf::U64(b), HostBuf::U64(e)) = (&inputs[0], &inputs[1]) else {
                    unreachable!()
                };
                TimedRun {
                    ms: 1.0,
                    samples: katas::gpu::harness::sample_positions(case.seed, r, case.shape.n)
                        .into_iter()
                        .map(|i| (i as u64, pow_mod(b[i], e[i], case.shape.modulus)))
                        .collect(),
                    input_changed: None,
                }
            })
            .collect();
        GpuOutput::Ran(Ran {
            values: run(0),
            input_changed: None,
            log: (),
            timed,
        })
    }

    #[test]
    fn the_trusted_check_accepts_correct_output_and_catches_poison_and_stale_samples() {
        let cases = Spec::cases(0xC0FFEE);
        let unused = GpuOutput::Unavailable(String::new());
        let small = &cases[2].input;
        let good = correct_output(small);
        assert!(Spec::check(small, &unused, &good).is_pass());
        let GpuOutput::Ran(ran) = &good else {
            unreachable!()
        };
        let mut wrong = ran.clone();
        wrong.values[5] ^= 1;
        assert!(!Spec::check(small, &unused, &GpuOutput::Ran(wrong)).is_pass());
        let mut poisoned = ran.clone();
        poisoned.values[0] = u64::MAX;
        assert!(!Spec::check(small, &unused, &GpuOutput::Ran(poisoned)).is_pass());
        let mut touched = ran.clone();
        touched.input_changed = Some((0, 3, "1".into(), "2".into()));
        assert!(!Spec::check(small, &unused, &GpuOutput::Ran(touched)).is_pass());

        // The performance case: timed runs pass with fresh-input samples, and a run that
        // returned the first run's answers (a cache) fails.
        let perf = &cases.last().unwrap().input;
        assert!(perf.timed_runs > 0);
        let good = correct_output(perf);
        assert!(matches!(
            Spec::check(perf, &unused, &good),
            katas::Check::PassTimed { .. }
        ));
        let GpuOutput::Ran(mut stale) = good else {
            unreachable!()
        };
        let first = stale.values.clone();
        for (i, v) in &mut stale.timed[3].samples {
            *v = first[*i as usize];
        }
        assert!(!Spec::check(perf, &unused, &GpuOutput::Ran(stale)).is_pass());
    }
}
