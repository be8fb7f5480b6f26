//! The byte format outputs cross the sandbox boundary in. The in-process evaluator round-trips
//! every output through it too, so a kata whose output does not survive the trip fails its own
//! package tests instead of the grader.

use serde::{Serialize, de::DeserializeOwned};

#[derive(Debug, thiserror::Error)]
#[error("malformed output: {0}")]
pub struct WireError(#[from] postcard::Error);

pub fn encode<T: Serialize>(value: &T) -> Result<Vec<u8>, WireError> {
    Ok(postcard::to_stdvec(value)?)
}

pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, WireError> {
    Ok(postcard::from_bytes(bytes)?)
}
