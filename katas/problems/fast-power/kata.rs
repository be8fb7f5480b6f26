//! Cases and checker for `fast-power`: `power(f64, i32)` and `pow_mod(u64, u64, u64)`.

use katas::{Case, Check, Group, KataSpec, Message, Refusal};
use serde::{Deserialize, Serialize};

/// The learner's two functions.
#[derive(Debug, Clone, Copy)]
pub struct Solution {
    pub power: fn(f64, i32) -> f64,
    pub pow_mod: fn(u64, u64, u64) -> u64,
}

/// A batch of queries for one of the two functions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Input {
    Power(Vec<(f64, i32)>),
    PowMod(Vec<(u64, u64, u64)>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Output {
    Power(Vec<f64>),
    PowMod(Vec<u64>),
}

/// Relative tolerance for `power(_, n)`. Every multiplication may round by half an ulp and
/// repeated squaring amplifies an early rounding error ~|n| times, so the bound grows with |n|:
/// `1e-12 + 4·|n|·ε`. Infinities must match exactly; two results both below the smallest normal
/// float count as equal (they are both "underflowed").
/// One result per query, or the check has nothing to compare.
fn wrong_count(want: usize, got: usize) -> Check {
    Check::fail(
        Message::new("wrong number of results", "结果的个数不对"),
        want,
        got,
    )
}

pub fn relative_tolerance(exponent: i32) -> f64 {
    1e-12 + 4.0 * f64::from(exponent.unsigned_abs()) * f64::EPSILON
}

pub fn power_matches(want: f64, got: f64, exponent: i32) -> bool {
    if want.is_nan() || got.is_nan() {
        return false;
    }
    if want.is_infinite() || got.is_infinite() {
        return want == got;
    }
    if want.abs() < f64::MIN_POSITIVE && got.abs() < f64::MIN_POSITIVE {
        return true;
    }
    (got - want).abs() <= relative_tolerance(exponent) * want.abs()
}

/// The trusted value of `base^exponent mod modulus`, computed independently of the reference.
fn pow_mod_oracle(base: u64, exponent: u64, modulus: u64) -> u64 {
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
pub struct Spec;

impl KataSpec for Spec {
    type Solution = Solution;
    type Input = Input;
    type Output = Output;

    /// Custom input: one batch of 1 to 2 000 queries (the performance cases' size), finite
    /// bases, moduli in `1..=2^63`, as the statement's constraints say.
    fn admit(input: &Input) -> Result<(), Refusal> {
        let count = match input {
            Input::Power(qs) => qs.len(),
            Input::PowMod(qs) => qs.len(),
        };
        katas::spec::within(("the number of queries", "查询个数"), count, 1, 2_000)?;
        match input {
            Input::Power(qs) => {
                if let Some((i, (base, _))) = qs.iter().enumerate().find(|(_, q)| !q.0.is_finite())
                {
                    // Numbered from 1, as a learner counts the queries they wrote.
                    let n = i + 1;
                    return Err(Refusal::new(
                        format!("query {n}: base {base} is not finite"),
                        format!("第 {n} 个查询：底数 {base} 不是有限数"),
                    ));
                }
            }
            Input::PowMod(qs) => {
                if let Some((i, (_, _, m))) = qs
                    .iter()
                    .enumerate()
                    .find(|(_, q)| !(1..=1u64 << 63).contains(&q.2))
                {
                    let n = i + 1;
                    return Err(Refusal::new(
                        format!("query {n}: modulus {m} is outside 1..=2^63"),
                        format!("第 {n} 个查询：模数 {m} 不在 1..=2^63 范围内"),
                    ));
                }
            }
        }
        Ok(())
    }

    fn cases(seed: u64) -> Vec<Case<Input>> {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut cases = vec![
            Case::new("power: 2^10", Group::Sample, Input::Power(vec![(2.0, 10)]))
                .zh("power：2^10"),
            Case::new("power: 2.1^3", Group::Sample, Input::Power(vec![(2.1, 3)]))
                .zh("power：2.1^3"),
            Case::new("power: 2^-2", Group::Sample, Input::Power(vec![(2.0, -2)]))
                .zh("power：2^-2"),
            Case::new(
                "pow_mod: 2^10 mod 1000",
                Group::Sample,
                Input::PowMod(vec![(2, 10, 1000)]),
            )
            .zh("pow_mod：2^10 mod 1000"),
            Case::new(
                "pow_mod: 3^0 mod 7",
                Group::Sample,
                Input::PowMod(vec![(3, 0, 7)]),
            )
            .zh("pow_mod：3^0 mod 7"),
        ];
        let power_edges: [(&str, &str, f64, i32); 16] = [
            ("zero to the zero", "0 的 0 次方", 0.0, 0),
            ("zero to a positive power", "0 的正数次方", 0.0, 5),
            (
                "zero to a negative power is +inf",
                "0 的负数次方为 +inf",
                0.0,
                -3,
            ),
            ("negative base, odd power", "负底数，奇数次方", -2.0, 3),
            (
                "negative base, negative odd power",
                "负底数，负奇数次方",
                -2.0,
                -3,
            ),
            ("one to i32::MIN", "1 的 i32::MIN 次方", 1.0, i32::MIN),
            (
                "minus one to i32::MIN",
                "-1 的 i32::MIN 次方",
                -1.0,
                i32::MIN,
            ),
            (
                "minus one to i32::MAX",
                "-1 的 i32::MAX 次方",
                -1.0,
                i32::MAX,
            ),
            (
                "two to i32::MIN underflows",
                "2 的 i32::MIN 次方下溢",
                2.0,
                i32::MIN,
            ),
            (
                "a half to i32::MIN overflows",
                "0.5 的 i32::MIN 次方上溢",
                0.5,
                i32::MIN,
            ),
            ("overflow to +inf", "上溢为 +inf", 10.0, 400),
            ("overflow to -inf", "上溢为 -inf", -10.0, 401),
            ("underflow to zero", "下溢为 0", 10.0, -400),
            ("largest power of two", "最大的 2 的幂", 2.0, 1023),
            (
                "close to one, i32::MAX",
                "接近 1 的底数，i32::MAX 次方",
                1.000_000_001,
                i32::MAX,
            ),
            (
                "close to minus one, i32::MIN",
                "接近 -1 的底数，i32::MIN 次方",
                -1.000_000_001,
                i32::MIN,
            ),
        ];
        for (name, name_zh, base, exponent) in power_edges {
            cases.push(
                Case::new(
                    format!("power: {name}"),
                    Group::Edge,
                    Input::Power(vec![(base, exponent)]),
                )
                .zh(format!("power：{name_zh}")),
            );
        }
        let pow_mod_edges: [(&str, &str, u64, u64, u64); 8] = [
            ("modulus one gives zero", "模数为 1 时结果为 0", 5, 3, 1),
            ("modulus one, exponent zero", "模数为 1，指数为 0", 5, 0, 1),
            ("zero to the zero", "0 的 0 次方", 0, 0, 13),
            (
                "base larger than modulus",
                "底数大于模数",
                1_000_000_007,
                2,
                10,
            ),
            (
                "exponent u64::MAX",
                "指数为 u64::MAX",
                3,
                u64::MAX,
                1_000_000_007,
            ),
            ("modulus 2^63", "模数为 2^63", u64::MAX, u64::MAX, 1 << 63),
            (
                "modulus 2^63 - 25 (prime)",
                "模数为 2^63 - 25（质数）",
                (1 << 62) + 12345,
                u64::MAX - 1,
                (1 << 63) - 25,
            ),
            (
                "products need 126 bits",
                "乘积需要 126 位",
                (1 << 63) - 26,
                2,
                (1 << 63) - 25,
            ),
        ];
        for (name, name_zh, b, e, m) in pow_mod_edges {
            cases.push(
                Case::new(
                    format!("pow_mod: {name}"),
                    Group::Edge,
                    Input::PowMod(vec![(b, e, m)]),
                )
                .zh(format!("pow_mod：{name_zh}")),
            );
        }
        for i in 0..6 {
            let queries = (0..200)
                .map(|_| (rng.f64() * 4.0 - 2.0, rng.i32(-60..=60)))
                .collect();
            cases.push(
                Case::new(
                    format!("power: random small #{i}"),
                    Group::Random,
                    Input::Power(queries),
                )
                .zh(format!("power：随机小数据 #{i}")),
            );
            let queries = (0..200)
                .map(|_| (rng.u64(..), rng.u64(..), rng.u64(1..=1 << 63)))
                .collect();
            cases.push(
                Case::new(
                    format!("pow_mod: random #{i}"),
                    Group::Random,
                    Input::PowMod(queries),
                )
                .zh(format!("pow_mod：随机 #{i}")),
            );
        }
        for i in 0..3 {
            let queries = (0..2000)
                .map(|_| {
                    let base = 1.0 + (rng.f64() - 0.5) * 2e-9;
                    let sign = if rng.bool() { 1.0 } else { -1.0 };
                    let magnitude = rng.i32(1 << 30..=i32::MAX);
                    let exponent = if rng.bool() { magnitude } else { -magnitude };
                    (sign * base, exponent)
                })
                .collect();
            cases.push(
                Case::new(
                    format!("power: 2000 exponents near ±2^31 #{i}"),
                    Group::Performance,
                    Input::Power(queries),
                )
                .zh(format!("power：2000 个接近 ±2^31 的指数 #{i}")),
            );
            let queries = (0..2000)
                .map(|_| (rng.u64(..), rng.u64(1 << 62..), rng.u64(1 << 62..=1 << 63)))
                .collect();
            cases.push(
                Case::new(
                    format!("pow_mod: 2000 exponents near 2^64 #{i}"),
                    Group::Performance,
                    Input::PowMod(queries),
                )
                .zh(format!("pow_mod：2000 个接近 2^64 的指数 #{i}")),
            );
        }
        cases
    }

    fn solve(solution: Solution, input: &Input) -> Output {
        match input {
            Input::Power(qs) => {
                Output::Power(qs.iter().map(|&(b, e)| (solution.power)(b, e)).collect())
            }
            Input::PowMod(qs) => Output::PowMod(
                qs.iter()
                    .map(|&(b, e, m)| (solution.pow_mod)(b, e, m))
                    .collect(),
            ),
        }
    }

    fn check(input: &Input, _expected: &Output, got: &Output) -> Check {
        match (input, got) {
            (Input::Power(qs), Output::Power(got)) => {
                if got.len() != qs.len() {
                    return wrong_count(qs.len(), got.len());
                }
                for (&(b, e), &g) in qs.iter().zip(got) {
                    // libm's pow is correctly rounded to within an ulp: an oracle independent of
                    // the reference's own squaring.
                    let want = b.powf(f64::from(e));
                    if !power_matches(want, g, e) {
                        let tolerance = katas::rounded(relative_tolerance(e), 2);
                        return Check::fail(
                            Message::new(
                                format!(
                                    "power({b:?}, {e}) is off (relative tolerance {tolerance})"
                                ),
                                format!("power({b:?}, {e}) 的结果偏差过大（相对容差 {tolerance}）"),
                            ),
                            katas::decimal(want),
                            katas::decimal(g),
                        );
                    }
                }
                Check::pass()
            }
            (Input::PowMod(qs), Output::PowMod(got)) => {
                if got.len() != qs.len() {
                    return wrong_count(qs.len(), got.len());
                }
                for (&(b, e, m), &g) in qs.iter().zip(got) {
                    let want = pow_mod_oracle(b, e, m);
                    if want != g {
                        return Check::fail(
                            Message::new(
                                format!("pow_mod({b}, {e}, {m}) is wrong"),
                                format!("pow_mod({b}, {e}, {m}) 的结果不对"),
                            ),
                            want,
                            g,
                        );
                    }
                }
                Check::pass()
            }
            _ => Check::fail(
                Message::new("result of the wrong kind", "结果的种类不对"),
                "the kind of the input",
                "the other kind",
            ),
        }
    }

    fn describe(input: &Input) -> Message {
        match input {
            Input::Power(qs) => {
                let (n, head) = (qs.len(), &qs[..qs.len().min(4)]);
                Message::new(
                    format!("{n} power queries (base, exponent): {head:?}"),
                    format!("{n} 个 power 查询（底数，指数）：{head:?}"),
                )
            }
            Input::PowMod(qs) => {
                let (n, head) = (qs.len(), &qs[..qs.len().min(3)]);
                Message::new(
                    format!("{n} pow_mod queries (base, exponent, modulus): {head:?}"),
                    format!("{n} 个 pow_mod 查询（底数，指数，模数）：{head:?}"),
                )
            }
        }
    }
}
