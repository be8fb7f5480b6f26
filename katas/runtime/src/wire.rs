//! The byte format outputs cross the sandbox boundary in. The in-process evaluator round-trips
//! every output through it too, so a kata whose output does not survive the trip fails its own
//! package tests instead of the grader.

use serde::{Deserialize, Deserializer, Serialize, Serializer, de::DeserializeOwned};

#[derive(Debug, thiserror::Error)]
#[error("malformed output: {0}")]
pub struct WireError(#[from] postcard::Error);

pub fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, WireError> {
    Ok(postcard::to_stdvec(value)?)
}

pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, WireError> {
    Ok(postcard::from_bytes(bytes)?)
}

/// A vector of `f32` that crosses the wire as one run of little-endian bytes ([`floats`]):
/// what a rank kata's messages, starts and results are made of.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Floats(#[serde(with = "floats")] pub Vec<f32>);

/// `Vec<f32>` as its little-endian bytes in the wire format, where postcard would otherwise make
/// one call per number (a rank kata moves tens of megabytes of them a grading), and as a list of
/// numbers in a human-readable format, so JSON (custom inputs, shown outputs) reads as before.
pub mod floats {
    use super::*;

    pub fn serialize<S: Serializer>(v: &[f32], s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            return v.serialize(s);
        }
        let mut bytes = vec![0u8; v.len() * 4];
        for (out, x) in bytes.chunks_exact_mut(4).zip(v) {
            out.copy_from_slice(&x.to_le_bytes());
        }
        s.serialize_bytes(&bytes)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f32>, D::Error> {
        if d.is_human_readable() {
            return Vec::<f32>::deserialize(d);
        }
        let bytes = serde_bytes::ByteBuf::deserialize(d)?;
        if bytes.len() % 4 != 0 {
            return Err(serde::de::Error::custom(format!(
                "{} bytes are not a whole number of f32 values",
                bytes.len()
            )));
        }
        Ok(bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }
}

/// Byte strings as postcard writes them natively (a length, then the bytes) instead of as a
/// sequence of `u8` values, one serde call each: the same bytes on the wire, but a rank kata's
/// traffic (megabytes a grading) crosses the grader's protocols several times.
pub mod bytes {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_bytes::{ByteBuf, Bytes};

    pub mod many {
        use super::*;

        pub fn serialize<S: Serializer>(v: &[Vec<u8>], s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(v.iter().map(|b| Bytes::new(b)))
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<u8>>, D::Error> {
            let bufs = Vec::<ByteBuf>::deserialize(d)?;
            Ok(bufs.into_iter().map(ByteBuf::into_vec).collect())
        }
    }

    /// [`many`] when it may be absent.
    pub mod many_or_none {
        use super::*;

        pub fn serialize<S: Serializer>(v: &Option<Vec<Vec<u8>>>, s: S) -> Result<S::Ok, S::Error> {
            v.as_ref()
                .map(|v| v.iter().map(|b| Bytes::new(b)).collect::<Vec<_>>())
                .serialize(s)
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<Vec<Vec<u8>>>, D::Error> {
            let bufs = Option::<Vec<ByteBuf>>::deserialize(d)?;
            Ok(bufs.map(|b| b.into_iter().map(ByteBuf::into_vec).collect()))
        }
    }

    pub mod tagged {
        use super::*;

        pub fn serialize<S: Serializer>(v: &[(u32, Vec<u8>)], s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(v.iter().map(|(tag, b)| (tag, Bytes::new(b))))
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Vec<(u32, Vec<u8>)>, D::Error> {
            let bufs = Vec::<(u32, ByteBuf)>::deserialize(d)?;
            Ok(bufs.into_iter().map(|(t, b)| (t, b.into_vec())).collect())
        }
    }

    pub mod result {
        use super::*;

        pub fn serialize<S: Serializer>(
            v: &Result<Vec<u8>, String>,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            v.as_ref().map(|b| Bytes::new(b)).serialize(s)
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Result<Vec<u8>, String>, D::Error> {
            let r = Result::<ByteBuf, String>::deserialize(d)?;
            Ok(r.map(ByteBuf::into_vec))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_are_bytes_on_the_wire_and_numbers_in_json() {
        let v = Floats(vec![1.5, -0.0, f32::MAX, 3.0]);
        let wire = encode(&v).unwrap();
        assert_eq!(wire.len(), 1 + 16, "a length, then four bytes a number");
        assert_eq!(decode::<Floats>(&wire).unwrap(), v);
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            "[1.5,-0.0,3.4028235e+38,3.0]"
        );
        let back: Floats = serde_json::from_str("[1.5,-0.0,3.4028235e+38,3.0]").unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn a_byte_run_that_is_no_whole_number_of_floats_is_refused() {
        let wire = encode(&serde_bytes::ByteBuf::from(vec![0u8; 5])).unwrap();
        let err = decode::<Floats>(&wire).unwrap_err().to_string();
        assert!(err.contains("malformed"), "{err}");
    }
}
