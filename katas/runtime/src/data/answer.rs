//! [`Answer`]: how each type of the vocabulary is compared, ordered and shown by the stock
//! checkers. A float matches within the tolerance; NaN matches only NaN and an infinity only
//! itself; -0.0 equals 0.0.

use crate::checker::Tolerance;
use std::cmp::Ordering;
use std::fmt::Write as _;

/// Where two answers first differ: a path below the answer (`[3].1`, empty for the whole) and
/// both values there as shown to the learner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diff {
    pub at: String,
    pub want: String,
    pub got: String,
}

impl Diff {
    fn here(want: String, got: String) -> Self {
        Self {
            at: String::new(),
            want,
            got,
        }
    }

    /// The same difference, seen from one level up (`step` is `[3]`, `.1` or `.field`).
    pub fn under(mut self, step: &str) -> Self {
        self.at.insert_str(0, step);
        self
    }
}

/// A value of the vocabulary as a learner reads it in a report. Object-safe, for `describe`.
pub trait Shown {
    /// The value with at most `n` items of each sequence written out.
    fn head(&self, n: usize) -> String;
    /// How many items a sequence holds; `None` for a scalar.
    fn count(&self) -> Option<usize> {
        None
    }
}

/// A value the stock checkers can compare.
pub trait Answer: Shown + Clone {
    /// The first place where `got` differs from `self`, the expected value.
    fn diff(&self, got: &Self, tol: Tolerance) -> Option<Diff>;
    /// A total order, used to sort before comparing as a multiset or a partition.
    fn total_cmp(&self, other: &Self) -> Ordering;
    /// This sequence with its items sorted; `None` for anything that is not a sequence.
    fn sorted_items(&self) -> Option<Self> {
        None
    }
    /// This sequence of sequences with each sorted, then sorted itself.
    fn sorted_groups(&self) -> Option<Self> {
        None
    }
}

macro_rules! ints {
    ($($t:ty),*) => {$(
        impl Shown for $t {
            fn head(&self, _n: usize) -> String {
                self.to_string()
            }
        }
        impl Answer for $t {
            fn diff(&self, got: &Self, _tol: Tolerance) -> Option<Diff> {
                (self != got).then(|| Diff::here(self.to_string(), got.to_string()))
            }
            fn total_cmp(&self, other: &Self) -> Ordering {
                self.cmp(other)
            }
        }
    )*};
}
ints!(i8, i16, i32, i64, u8, u16, u32, u64, usize);

/// Whether `got` matches `want` within `tol` (see the module's rules).
pub fn floats_match(want: f64, got: f64, tol: Tolerance) -> bool {
    if want.is_nan() || got.is_nan() {
        return want.is_nan() && got.is_nan();
    }
    if want == got {
        return true;
    }
    if want.is_infinite() || got.is_infinite() {
        return false;
    }
    (got - want).abs() <= tol.abs.max(tol.rel * want.abs())
}

macro_rules! floats {
    ($($t:ty),*) => {$(
        impl Shown for $t {
            fn head(&self, _n: usize) -> String {
                format!("{self:?}")
            }
        }
        impl Answer for $t {
            fn diff(&self, got: &Self, tol: Tolerance) -> Option<Diff> {
                (!floats_match(f64::from(*self), f64::from(*got), tol))
                    .then(|| Diff::here(format!("{self:?}"), format!("{got:?}")))
            }
            fn total_cmp(&self, other: &Self) -> Ordering {
                <$t>::total_cmp(self, other)
            }
        }
    )*};
}
floats!(f32, f64);

impl Shown for bool {
    fn head(&self, _n: usize) -> String {
        self.to_string()
    }
}

impl Answer for bool {
    fn diff(&self, got: &Self, _tol: Tolerance) -> Option<Diff> {
        (self != got).then(|| Diff::here(self.to_string(), got.to_string()))
    }
    fn total_cmp(&self, other: &Self) -> Ordering {
        self.cmp(other)
    }
}

/// Strings longer than this are cut in reports.
const SHOWN_CHARS: usize = 60;

impl Shown for String {
    fn head(&self, _n: usize) -> String {
        if self.chars().count() <= SHOWN_CHARS {
            return format!("{self:?}");
        }
        let cut: String = self.chars().take(SHOWN_CHARS).collect();
        format!("{cut:?}…")
    }
}

impl Answer for String {
    fn diff(&self, got: &Self, _tol: Tolerance) -> Option<Diff> {
        (self != got).then(|| Diff::here(self.head(0), got.head(0)))
    }
    fn total_cmp(&self, other: &Self) -> Ordering {
        self.cmp(other)
    }
}

impl<T: Shown> Shown for Vec<T> {
    fn head(&self, n: usize) -> String {
        let mut s = String::from("[");
        for (i, item) in self.iter().take(n).enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            s.push_str(&item.head(n.min(2)));
        }
        if self.len() > n {
            s.push_str(if n == 0 { "…" } else { ", …" });
        }
        s.push(']');
        s
    }
    fn count(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<T: Answer> Answer for Vec<T> {
    fn diff(&self, got: &Self, tol: Tolerance) -> Option<Diff> {
        if self.len() != got.len() {
            return Some(Diff::here(self.len().to_string(), got.len().to_string()).under(".len()"));
        }
        self.iter()
            .zip(got)
            .enumerate()
            .find_map(|(i, (w, g))| w.diff(g, tol).map(|d| d.under(&format!("[{i}]"))))
    }
    fn total_cmp(&self, other: &Self) -> Ordering {
        self.iter()
            .zip(other)
            .map(|(a, b)| a.total_cmp(b))
            .find(|o| o.is_ne())
            .unwrap_or_else(|| self.len().cmp(&other.len()))
    }
    fn sorted_items(&self) -> Option<Self> {
        let mut items = self.clone();
        items.sort_by(T::total_cmp);
        Some(items)
    }
    fn sorted_groups(&self) -> Option<Self> {
        let mut groups = self
            .iter()
            .map(T::sorted_items)
            .collect::<Option<Vec<T>>>()?;
        groups.sort_by(T::total_cmp);
        Some(groups)
    }
}

impl<T: Shown> Shown for Option<T> {
    fn head(&self, n: usize) -> String {
        match self {
            None => "None".into(),
            Some(v) => format!("Some({})", v.head(n)),
        }
    }
}

impl<T: Answer> Answer for Option<T> {
    fn diff(&self, got: &Self, tol: Tolerance) -> Option<Diff> {
        match (self, got) {
            (None, None) => None,
            (Some(w), Some(g)) => w.diff(g, tol),
            _ => Some(Diff::here(self.head(4), got.head(4))),
        }
    }
    fn total_cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (None, None) => Ordering::Equal,
            (None, Some(_)) => Ordering::Less,
            (Some(_), None) => Ordering::Greater,
            (Some(a), Some(b)) => a.total_cmp(b),
        }
    }
}

macro_rules! tuples {
    ($(($($t:ident $i:tt),+))*) => {$(
        impl<$($t: Shown),+> Shown for ($($t,)+) {
            fn head(&self, n: usize) -> String {
                let mut s = String::from("(");
                $(
                    if $i > 0 {
                        s.push_str(", ");
                    }
                    let _ = write!(s, "{}", self.$i.head(n));
                )+
                s.push(')');
                s
            }
        }
        impl<$($t: Answer),+> Answer for ($($t,)+) {
            fn diff(&self, got: &Self, tol: Tolerance) -> Option<Diff> {
                $(
                    if let Some(d) = self.$i.diff(&got.$i, tol) {
                        return Some(d.under(concat!(".", stringify!($i))));
                    }
                )+
                None
            }
            fn total_cmp(&self, other: &Self) -> Ordering {
                Ordering::Equal$(.then_with(|| self.$i.total_cmp(&other.$i)))+
            }
        }
    )*};
}
tuples! {
    (A 0)
    (A 0, B 1)
    (A 0, B 1, C 2)
    (A 0, B 1, C 2, D 3)
    (A 0, B 1, C 2, D 3, E 4)
    (A 0, B 1, C 2, D 3, E 4, F 5)
}
