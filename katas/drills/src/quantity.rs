//! A numeric answer as a learner writes it: a number or a short sum (`1792/8`, `2*(105-1)`),
//! optionally followed by a unit, converted to the unit the item asks in (`6 MiB` for bytes,
//! `900 us` for ms, `400 Gb/s` for GB/s). Separators that read two ways (`224,0`,
//! `4 000 000`) are refused rather than guessed.

use super::grade::BadResponse;
use exmex::prelude::*;

/// Longest arithmetic accepted: enough for any sum a learner types, short enough that parsing
/// stays trivial.
pub const MAX_EXPRESSION_CHARS: usize = 64;

/// What a unit measures; only units of one dimension convert into each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dimension {
    Time,
    Size,
    Rate,
}

impl Dimension {
    fn words(self) -> (&'static str, &'static str) {
        match self {
            Self::Time => ("a time", "时间"),
            Self::Size => ("a size", "大小"),
            Self::Rate => ("a rate", "速率"),
        }
    }
}

const KB: f64 = 1e3;
const KIB: f64 = 1024.0;

/// Every unit spelling understood, with its size in seconds, bytes, or bytes per second.
/// Case matters: `Gb/s` is bits, `GB/s` bytes.
const UNITS: &[(&str, Dimension, f64)] = &[
    ("ns", Dimension::Time, 1e-9),
    ("µs", Dimension::Time, 1e-6),
    ("μs", Dimension::Time, 1e-6),
    ("us", Dimension::Time, 1e-6),
    ("ms", Dimension::Time, 1e-3),
    ("s", Dimension::Time, 1.0),
    ("sec", Dimension::Time, 1.0),
    ("B", Dimension::Size, 1.0),
    ("byte", Dimension::Size, 1.0),
    ("bytes", Dimension::Size, 1.0),
    ("KB", Dimension::Size, KB),
    ("kB", Dimension::Size, KB),
    ("KiB", Dimension::Size, KIB),
    ("MB", Dimension::Size, KB * KB),
    ("MiB", Dimension::Size, KIB * KIB),
    ("GB", Dimension::Size, KB * KB * KB),
    ("GiB", Dimension::Size, KIB * KIB * KIB),
    ("TB", Dimension::Size, KB * KB * KB * KB),
    ("TiB", Dimension::Size, KIB * KIB * KIB * KIB),
    ("B/s", Dimension::Rate, 1.0),
    ("MB/s", Dimension::Rate, KB * KB),
    ("GB/s", Dimension::Rate, KB * KB * KB),
    ("TB/s", Dimension::Rate, KB * KB * KB * KB),
    ("MiB/s", Dimension::Rate, KIB * KIB),
    ("GiB/s", Dimension::Rate, KIB * KIB * KIB),
    ("Mb/s", Dimension::Rate, KB * KB / 8.0),
    ("Mbit/s", Dimension::Rate, KB * KB / 8.0),
    ("Gb/s", Dimension::Rate, KB * KB * KB / 8.0),
    ("Gbit/s", Dimension::Rate, KB * KB * KB / 8.0),
    ("Gbps", Dimension::Rate, KB * KB * KB / 8.0),
    ("Tb/s", Dimension::Rate, KB * KB * KB * KB / 8.0),
];

fn unit(spelling: &str) -> Option<(Dimension, f64)> {
    UNITS
        .iter()
        .find(|(s, _, _)| *s == spelling)
        .map(|&(_, d, f)| (d, f))
}

fn bad(en: String, zh: String) -> BadResponse {
    BadResponse { en, zh }
}

/// `text` read as a quantity in `item_unit` (the unit the item asks in).
pub fn parse_quantity(text: &str, item_unit: &str) -> Result<f64, BadResponse> {
    let text = text.trim().trim_start_matches(['≈', '~', '=']).trim_start();
    let (number, suffix) = split_unit(text);
    let value = parse_expression(number.trim())?;
    let suffix = suffix.trim();
    // Case matters for a known unit (`Gb/s` is not `GB/s`); a count's word (`Steps`) may be
    // written any way.
    let same_word =
        suffix == item_unit || (unit(suffix).is_none() && suffix.eq_ignore_ascii_case(item_unit));
    if suffix.is_empty() || same_word || is_times(suffix, item_unit) {
        return Ok(value);
    }
    let Some((given_dim, given_factor)) = unit(suffix) else {
        return Err(bad(
            format!("“{suffix}” is not a unit this drill knows; answer in {item_unit}"),
            format!("不认识单位“{suffix}”；请以 {item_unit} 为单位作答"),
        ));
    };
    let Some((want_dim, want_factor)) = unit(item_unit) else {
        return Err(bad(
            format!("this answer is a count in {item_unit}, not {suffix}"),
            format!("这道题的答案以 {item_unit} 计，不是 {suffix}"),
        ));
    };
    if given_dim != want_dim {
        let (en, zh) = given_dim.words();
        return Err(bad(
            format!("{suffix} is {en}; the answer is in {item_unit}"),
            format!("{suffix} 是{zh}单位；答案以 {item_unit} 为单位"),
        ));
    }
    Ok(value * given_factor / want_factor)
}

/// `x` for an item counted in `×` (a ratio).
fn is_times(suffix: &str, item_unit: &str) -> bool {
    item_unit == "×" && suffix.eq_ignore_ascii_case("x")
}

/// The number part and the unit after it: the unit is what follows the last character that
/// can belong to a sum (digits, `.`, operators, brackets, spaces).
fn split_unit(text: &str) -> (&str, &str) {
    let end = text
        .char_indices()
        .find(|&(i, c)| {
            let in_sum = c.is_ascii_digit() || "+-*/().^ _,".contains(c);
            // `e` is part of a number only as an exponent right after a digit (`3e-4`).
            let exponent = (c == 'e' || c == 'E')
                && text[..i].ends_with(|p: char| p.is_ascii_digit())
                && text[i + 1..].starts_with(|n: char| n.is_ascii_digit() || n == '-' || n == '+');
            !(in_sum || exponent)
        })
        .map_or(text.len(), |(i, _)| i);
    text.split_at(end)
}

/// A plain number or a short sum of numbers, with separators that read one way only.
fn parse_expression(text: &str) -> Result<f64, BadResponse> {
    if text.is_empty() {
        return Err(bad("give a number".into(), "请填写一个数".into()));
    }
    if text.chars().count() > MAX_EXPRESSION_CHARS {
        return Err(bad(
            format!("a sum of at most {MAX_EXPRESSION_CHARS} characters, please"),
            format!("算式最多 {MAX_EXPRESSION_CHARS} 个字符"),
        ));
    }
    let spaced_digits = text
        .as_bytes()
        .windows(3)
        .any(|w| w[0].is_ascii_digit() && w[1] == b' ' && w[2].is_ascii_digit())
        || text.contains(|c: char| c.is_whitespace() && c != ' ');
    if spaced_digits {
        return Err(bad(
            format!("“{text}”: spaces inside a number read two ways; write it without them"),
            format!("“{text}”：数字中间的空格有歧义，请去掉空格再写"),
        ));
    }
    let ungrouped = ungroup(text)?;
    if let Ok(v) = ungrouped.parse::<f64>() {
        return finite(v, text);
    }
    if !ungrouped
        .chars()
        .all(|c| c.is_ascii_digit() || "+-*/(). ".contains(c))
    {
        return Err(not_a_number(text));
    }
    let expr = exmex::parse::<f64>(&ungrouped).map_err(|_| not_a_number(text))?;
    if !expr.var_names().is_empty() {
        return Err(not_a_number(text));
    }
    let v = expr.eval(&[]).map_err(|_| not_a_number(text))?;
    finite(v, text)
}

fn finite(v: f64, text: &str) -> Result<f64, BadResponse> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(bad(
            format!("“{text}” is not a finite number"),
            format!("“{text}”不是有限的数"),
        ))
    }
}

fn not_a_number(text: &str) -> BadResponse {
    bad(
        format!("“{text}” is not a number or a sum such as 1792/8"),
        format!("“{text}”不是数，也不是 1792/8 这样的算式"),
    )
}

/// `text` with digit-group separators removed where they read one way only: `_` between
/// digits, and commas in a `1,234,567` (two groups or more) or `1,234.5` grouping. Any other
/// comma could be a decimal comma (`224,0`, `1,024`) and is refused.
fn ungroup(text: &str) -> Result<String, BadResponse> {
    let text = text.replace('_', "");
    if !text.contains(',') {
        return Ok(text);
    }
    let (int, frac) = match text.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (text.as_str(), None),
    };
    let groups: Vec<&str> = int.split(',').collect();
    let first = groups[0].strip_prefix('-').unwrap_or(groups[0]);
    let well_grouped = (1..=3).contains(&first.len())
        && first.bytes().all(|b| b.is_ascii_digit())
        && groups[1..]
            .iter()
            .all(|g| g.len() == 3 && g.bytes().all(|b| b.is_ascii_digit()))
        && frac.is_none_or(|f| !f.contains(','));
    // One group alone (`1,024`) is also how a decimal comma writes 1.024.
    let unambiguous = groups.len() >= 3 || frac.is_some();
    if well_grouped && unambiguous {
        let fraction = frac.map(|f| format!(".{f}")).unwrap_or_default();
        return Ok(format!("{}{fraction}", groups.concat()));
    }
    Err(bad(
        format!(
            "“{text}”: a comma can be a decimal point or a thousands separator; write the number with a point and without commas (224.0, 4000000)"
        ),
        format!(
            "“{text}”：逗号既可能是小数点，也可能是千位分隔符；请用小数点、不加逗号（如 224.0、4000000）"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(text: &str, unit: &str) -> f64 {
        parse_quantity(text, unit).unwrap_or_else(|e| panic!("{text} in {unit}: {e}"))
    }

    fn refused(text: &str, unit: &str) -> BadResponse {
        parse_quantity(text, unit).expect_err(text)
    }

    #[test]
    fn sizes_convert_between_decimal_and_binary_units() {
        assert_eq!(q("6 MiB", "bytes"), 6_291_456.0);
        assert_eq!(q("6MiB", "bytes"), 6_291_456.0);
        assert_eq!(q("6 MB", "bytes"), 6e6);
        assert_eq!(q("2 KiB", "B"), 2048.0);
        assert_eq!(q("1 GiB", "MiB"), 1024.0);
        assert_eq!(q("1.5 GB", "MB"), 1500.0);
        assert_eq!(q("6291456 B", "MiB"), 6.0);
        assert_eq!(q("6291456", "bytes"), 6_291_456.0);
    }

    #[test]
    fn times_convert_with_either_micro_sign() {
        assert!((q("900 us", "ms") - 0.9).abs() < 1e-12);
        assert!((q("900 µs", "ms") - 0.9).abs() < 1e-12);
        assert!((q("900 μs", "ms") - 0.9).abs() < 1e-12);
        assert_eq!(q("1.5 s", "ms"), 1500.0);
        assert_eq!(q("250 ms", "s"), 0.25);
        assert_eq!(q("≈ 12.5 ms", "ms"), 12.5);
    }

    #[test]
    fn rates_tell_bits_from_bytes() {
        assert_eq!(q("400 Gb/s", "GB/s"), 50.0);
        assert_eq!(q("400 Gbps", "GB/s"), 50.0);
        assert_eq!(q("50 GB/s", "GB/s"), 50.0);
        assert_eq!(q("64 GB/s", "Gb/s"), 512.0);
        assert!((q("900 MB/s", "GB/s") - 0.9).abs() < 1e-12);
    }

    #[test]
    fn plain_arithmetic_is_evaluated() {
        assert_eq!(q("1792/8", "bytes"), 224.0);
        assert_eq!(q("2*(105-1)", "steps"), 208.0);
        assert_eq!(q("2 * (105 - 1)", "steps"), 208.0);
        assert_eq!(q("3e-4", "s"), 3e-4);
        assert_eq!(q("-2.5", "value"), -2.5);
        assert_eq!(q("1024*1024 B", "MiB"), 1.0);
    }

    #[test]
    fn unambiguous_digit_groups_are_read() {
        assert_eq!(q("6,291,456", "bytes"), 6_291_456.0);
        assert_eq!(q("1,234.5", "ms"), 1234.5);
        assert_eq!(q("6_291_456", "bytes"), 6_291_456.0);
        assert_eq!(q("-1,000,000", "value"), -1e6);
    }

    #[test]
    fn separators_that_read_two_ways_are_refused_in_both_languages() {
        for text in ["224,0", "1,024", "4 000 000", "12,34,567", "1,2.5"] {
            let e = refused(text, "bytes");
            assert!(e.en.contains(text), "{e}");
            assert!(e.zh.contains('：') || e.zh.contains('，'), "{}", e.zh);
        }
    }

    #[test]
    fn units_of_another_kind_and_unknown_words_are_refused() {
        assert!(refused("5 ms", "bytes").en.contains("is a time"));
        assert!(refused("5 MB", "steps").en.contains("count in steps"));
        assert!(refused("12 parsecs", "ms").en.contains("not a unit"));
        assert_eq!(q("16 steps", "steps"), 16.0);
        assert_eq!(q("3.2x", "×"), 3.2);
        assert_eq!(q("3.2 ×", "×"), 3.2);
    }

    #[test]
    fn malformed_and_oversized_sums_are_refused() {
        let long = "1+".repeat(40) + "1";
        for text in [
            "",
            "abc",
            "x+1",
            "1/0",
            "((1)",
            "2^10",
            long.as_str(),
            "1..2",
        ] {
            let e = refused(text, "value");
            assert!(!e.en.is_empty() && !e.zh.is_empty(), "{text}");
        }
    }
}
