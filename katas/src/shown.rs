//! Answers shown to a learner as JSON (custom runs: theirs beside the reference's), with the
//! numbers JSON cannot hold written the way the statements write them.
//!
//! The rule: the text is exactly what `serde_json` writes, except that
//! - a float that is not finite is written `inf`, `-inf` or `NaN` (Rust's `{:?}`, as in the
//!   statements' tables), where `serde_json` writes `null`, which reads as "no answer";
//! - an unsigned integer the kata names ([`KataSpec::SHOWN_NAMES`], e.g. graph-fusion's
//!   `NO_KERNEL` for `usize::MAX`) is written as that name, not as `18446744073709551615`.
//!
//! The result is for reading, not for parsing back: `inf` and `NaN` are not JSON.
//!
//! How: `serde_json` hands its formatter a `null` both for a real `null` (`None`, `()`) and for a
//! non-finite float, so a first pass over the value ([`Nulls`], a serializer that only notes,
//! in order, which of the two each `null` is) tells the formatter of the second pass which
//! `null`s to write as a float.

use crate::spec::KataSpec;
use serde::Serialize;
use serde::ser;
use std::fmt;
use std::io;

/// `value` as JSON for a learner to read, under the module's rule, with `names` for unsigned
/// integers (compact, like `serde_json::to_string`).
pub fn to_json<T: Serialize + ?Sized>(
    value: &T,
    names: &[(u64, &'static str)],
) -> serde_json::Result<String> {
    let mut nulls = Nulls(Vec::new());
    // A value `serde_json` refuses is refused by it below too; the notes then go unused.
    let _ = value.serialize(&mut nulls);
    let mut out = Vec::new();
    let formatter = Shown {
        nulls: nulls.0.into_iter(),
        names,
    };
    value.serialize(&mut serde_json::Serializer::with_formatter(
        &mut out, formatter,
    ))?;
    Ok(String::from_utf8(out).expect("serde_json writes UTF-8"))
}

/// [`to_json`] with kata `S`'s names.
pub fn output_json<S: KataSpec>(output: &S::Output) -> serde_json::Result<String> {
    to_json(output, S::SHOWN_NAMES)
}

/// `x` as the statements write a float that is not finite.
fn non_finite(x: f64) -> Option<&'static str> {
    if x.is_nan() {
        Some("NaN")
    } else if x.is_infinite() {
        Some(if x > 0.0 { "inf" } else { "-inf" })
    } else {
        None
    }
}

/// The second pass's formatter: compact JSON, each `null` written as the first pass noted.
struct Shown<'a> {
    nulls: std::vec::IntoIter<Option<&'static str>>,
    names: &'a [(u64, &'static str)],
}

impl serde_json::ser::Formatter for Shown<'_> {
    fn write_null<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        let word = self.nulls.next().flatten().unwrap_or("null");
        writer.write_all(word.as_bytes())
    }

    fn write_u64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: u64) -> io::Result<()> {
        match self.names.iter().find(|(v, _)| *v == value) {
            Some((_, name)) => writer.write_all(name.as_bytes()),
            None => writer.write_all(value.to_string().as_bytes()),
        }
    }
}

/// The first pass: for every value `serde_json` writes as `null`, in order, the float word it
/// stands for (`Some`) or `None` for a real `null`. Everything else is walked and dropped.
struct Nulls(Vec<Option<&'static str>>);

#[derive(Debug)]
struct Stop;

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not shown")
    }
}

impl std::error::Error for Stop {}

impl ser::Error for Stop {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        Stop
    }
}

type R = Result<(), Stop>;

impl ser::Serializer for &mut Nulls {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, _: bool) -> R {
        Ok(())
    }
    fn serialize_i8(self, _: i8) -> R {
        Ok(())
    }
    fn serialize_i16(self, _: i16) -> R {
        Ok(())
    }
    fn serialize_i32(self, _: i32) -> R {
        Ok(())
    }
    fn serialize_i64(self, _: i64) -> R {
        Ok(())
    }
    fn serialize_u8(self, _: u8) -> R {
        Ok(())
    }
    fn serialize_u16(self, _: u16) -> R {
        Ok(())
    }
    fn serialize_u32(self, _: u32) -> R {
        Ok(())
    }
    fn serialize_u64(self, _: u64) -> R {
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> R {
        self.serialize_f64(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> R {
        if let Some(word) = non_finite(v) {
            self.0.push(Some(word));
        }
        Ok(())
    }
    fn serialize_char(self, _: char) -> R {
        Ok(())
    }
    fn serialize_str(self, _: &str) -> R {
        Ok(())
    }
    fn serialize_bytes(self, _: &[u8]) -> R {
        Ok(())
    }
    fn serialize_none(self) -> R {
        self.0.push(None);
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> R {
        value.serialize(self)
    }
    fn serialize_unit(self) -> R {
        self.0.push(None);
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> R {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> R {
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, value: &T) -> R {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        value: &T,
    ) -> R {
        value.serialize(self)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self, Stop> {
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, Stop> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, Stop> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Stop> {
        Ok(self)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self, Stop> {
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, Stop> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, Stop> {
        Ok(self)
    }
}

macro_rules! walk_elements {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for &mut Nulls {
            type Ok = ();
            type Error = Stop;
            fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> R {
                value.serialize(&mut **self)
            }
            fn end(self) -> R {
                Ok(())
            }
        }
    )*};
}

walk_elements!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for &mut Nulls {
    type Ok = ();
    type Error = Stop;
    // serde_json writes a map key as a string (never `null`), so keys note nothing.
    fn serialize_key<T: ?Sized + Serialize>(&mut self, _key: &T) -> R {
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> R {
        value.serialize(&mut **self)
    }
    fn end(self) -> R {
        Ok(())
    }
}

macro_rules! walk_fields {
    ($($trait:ident),*) => {$(
        impl ser::$trait for &mut Nulls {
            type Ok = ();
            type Error = Stop;
            fn serialize_field<T: ?Sized + Serialize>(&mut self, _: &'static str, value: &T) -> R {
                value.serialize(&mut **self)
            }
            fn end(self) -> R {
                Ok(())
            }
        }
    )*};
}

walk_fields!(SerializeStruct, SerializeStructVariant);

#[cfg(test)]
mod tests {
    use super::to_json;
    use serde::Serialize;

    #[derive(Serialize)]
    enum Output {
        Power(Vec<f64>),
        Plan(Vec<usize>),
    }

    #[derive(Serialize)]
    struct Mixed {
        none: Option<f64>,
        unit: (),
        values: Vec<f32>,
        some: Option<f64>,
    }

    #[test]
    fn non_finite_floats_read_as_the_statements_write_them() {
        let out = Output::Power(vec![0.125, f64::INFINITY, f64::NEG_INFINITY, f64::NAN, 2.0]);
        assert_eq!(
            to_json(&out, &[]).unwrap(),
            r#"{"Power":[0.125,inf,-inf,NaN,2.0]}"#
        );
    }

    #[test]
    fn a_real_null_stays_null_beside_a_non_finite_float() {
        let m = Mixed {
            none: None,
            unit: (),
            values: vec![f32::NAN, 1.5],
            some: Some(f64::INFINITY),
        };
        assert_eq!(
            to_json(&m, &[]).unwrap(),
            r#"{"none":null,"unit":null,"values":[NaN,1.5],"some":inf}"#
        );
    }

    #[test]
    fn named_integers_are_written_by_name_and_others_as_numbers() {
        let plan = Output::Plan(vec![usize::MAX, 0, 1, usize::MAX]);
        let names = [(u64::MAX, "NO_KERNEL")];
        assert_eq!(
            to_json(&plan, &names).unwrap(),
            r#"{"Plan":[NO_KERNEL,0,1,NO_KERNEL]}"#
        );
        assert_eq!(
            to_json(&plan, &[]).unwrap(),
            format!(r#"{{"Plan":[{m},0,1,{m}]}}"#, m = u64::MAX)
        );
    }

    #[test]
    fn finite_values_are_exactly_serde_json() {
        let out = Output::Power(vec![0.1, 1e300, -0.0, 9.261000000000001]);
        assert_eq!(
            to_json(&out, &[]).unwrap(),
            serde_json::to_string(&out).unwrap()
        );
    }
}
