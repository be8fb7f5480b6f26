//! The protocol between the grader (trusted) and a compiled submission (untrusted, sandboxed).
//!
//! The grader writes a [`RunRequest`] to the submission's stdin, as one message (a
//! little-endian `u32` length, then the bytes). The submission's generated `main` calls
//! `katas::problems::<slug>::serve`, which regenerates the requested cases from the seed, runs
//! the learner's functions on each and writes one [`Frame`] per case to stdout. A rank of a
//! rank kata ([`RunRequest::rank`]) runs as its own process instead: its requests to the
//! network are [`Frame::Request`]s, and the grader's replies follow the request on stdin as
//! further messages (see [`crate::ranks`]).
//! The learner's own prints share stdout; frames are found by a per-run nonce, and bytes
//! outside frames are the learner's output.
//!
//! Nothing here decides a verdict: a frame carries only an output (or a panic message), which
//! the trusted side decodes and checks. Forging a frame can only change the forger's own
//! answer.

use crate::panics::{learner_panic_message, note_panic_location};
use crate::spec::KataSpec;
use serde::{Deserialize, Serialize};
use std::io::{Read as _, Write as _};

const MAGIC: &[u8; 8] = b"\0IKFRAME";
/// Magic, nonce, case index, kind, payload length.
const HEADER: usize = 8 + 16 + 4 + 1 + 4;
/// The largest payload a frame may declare; bigger is treated as garbage, not allocated.
pub const MAX_PAYLOAD: usize = 256 << 20;
/// Panic messages are cut to this many bytes by the runner; the reader refuses longer ones.
pub const PANIC_MESSAGE_BYTES: usize = 4 << 10;

/// What the grader asks a submission to run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRequest {
    pub seed: u64,
    /// Indices into `KataSpec::cases(seed)`, in the order to run them.
    pub cases: Vec<u32>,
    pub nonce: [u8; 16],
    /// A custom input in the wire format: when present it is the only case (index 0), and no
    /// cases are generated from the seed.
    #[serde(with = "serde_bytes")]
    pub custom: Option<Vec<u8>>,
    /// The inputs of `cases`, in the wire format, one per index: a measured run is sent its
    /// inputs and no seed, so the program holds nothing it could use to know its inputs ahead
    /// of time (and generates no case, so its count is its own work).
    #[serde(with = "crate::wire::bytes::many_or_none")]
    pub inputs: Option<Vec<Vec<u8>>>,
    /// Set for one rank's process of a rank kata: the cases it takes part in, each with only
    /// its own start. `cases`, `inputs` and `custom` are then empty and the seed unused.
    pub rank: Option<crate::rank_net::RankRole>,
}

impl RunRequest {
    /// The request as the program's stdin reads it: one message.
    pub fn to_stdin(&self) -> Result<Vec<u8>, postcard::Error> {
        Ok(message(&postcard::to_stdvec(self)?))
    }
}

/// `bytes` as one message on a program's stdin: its length as a little-endian `u32`, then it.
pub fn message(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(4 + bytes.len());
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
    out
}

/// Reads the next message from stdin (see [`message`]).
pub fn read_message() -> std::io::Result<Vec<u8>> {
    let mut stdin = std::io::stdin().lock();
    let mut len = [0u8; 4];
    stdin.read_exact(&mut len)?;
    let len = u32::from_le_bytes(len) as usize;
    if len > MAX_PAYLOAD {
        return Err(std::io::Error::other("message too long"));
    }
    let mut bytes = vec![0u8; len];
    stdin.read_exact(&mut bytes)?;
    Ok(bytes)
}

/// The name of a custom run's one case.
pub const CUSTOM_CASE: &str = "custom input";
/// [`CUSTOM_CASE`] in 中文.
pub const CUSTOM_CASE_ZH: &str = "自定义输入";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// The cases are generated; the per-case clock starts now. Carries the catalogue
    /// fingerprint the runner was built with (`katas::CATALOGUE_HASH`).
    Ready {
        catalogue: String,
    },
    Output {
        case: u32,
        bytes: Vec<u8>,
    },
    Panicked {
        case: u32,
        message: String,
    },
    /// A rank's request to the network during `case` (rank processes only).
    Request {
        case: u32,
        bytes: Vec<u8>,
    },
}

impl Frame {
    fn kind(&self) -> u8 {
        match self {
            Self::Ready { .. } => 0,
            Self::Output { .. } => 1,
            Self::Panicked { .. } => 2,
            Self::Request { .. } => 3,
        }
    }

    pub fn encode(&self, nonce: &[u8; 16]) -> Vec<u8> {
        let (case, payload): (u32, &[u8]) = match self {
            Self::Ready { catalogue } => (u32::MAX, catalogue.as_bytes()),
            Self::Output { case, bytes } | Self::Request { case, bytes } => (*case, bytes),
            Self::Panicked { case, message } => (*case, message.as_bytes()),
        };
        let mut out = Vec::with_capacity(HEADER + payload.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(nonce);
        out.extend_from_slice(&case.to_le_bytes());
        out.push(self.kind());
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(payload);
        out
    }
}

/// Incremental reader of a submission's stdout: separates frames from the learner's own bytes.
#[derive(Debug)]
pub struct FrameReader {
    nonce: [u8; 16],
    buf: Vec<u8>,
    frames: Vec<Frame>,
    /// Bytes that were not part of any frame.
    pub other_bytes: usize,
    /// The first learner-printed bytes, for the report.
    pub other_head: Vec<u8>,
    /// The largest answer payload accepted (the grader's bound for the cases it asked for).
    max_answer: usize,
    /// Payload bytes of every frame read so far.
    pub frame_bytes: usize,
    /// A frame with our nonce declared a payload over its bound: the case it was for. Reading
    /// stops there (nothing after it is parsed or kept).
    pub oversized: Option<u32>,
}

const OTHER_HEAD: usize = 4096;

impl FrameReader {
    pub fn new(nonce: [u8; 16]) -> Self {
        Self::with_bound(nonce, MAX_PAYLOAD)
    }

    /// A reader that stops at the first answer frame larger than `max_answer` bytes (or panic
    /// frame over [`PANIC_MESSAGE_BYTES`]), so what it holds stays bounded.
    pub fn with_bound(nonce: [u8; 16], max_answer: usize) -> Self {
        Self {
            nonce,
            buf: Vec::new(),
            frames: Vec::new(),
            other_bytes: 0,
            other_head: Vec::new(),
            max_answer: max_answer.min(MAX_PAYLOAD),
            frame_bytes: 0,
            oversized: None,
        }
    }

    /// Feeds the next chunk of stdout; returns how many complete frames are known so far.
    pub fn push(&mut self, chunk: &[u8]) -> usize {
        if self.oversized.is_some() {
            return self.frames.len();
        }
        self.buf.extend_from_slice(chunk);
        loop {
            let mut marker = [0u8; 24];
            marker[..8].copy_from_slice(MAGIC);
            marker[8..].copy_from_slice(&self.nonce);
            match find(&self.buf, &marker) {
                None => {
                    // Keep a tail that could be the start of a marker split across chunks.
                    let keep = self.buf.len().min(marker.len() - 1);
                    let drop = self.buf.len() - keep;
                    self.other(drop);
                    break;
                }
                Some(start) => {
                    self.other(start);
                    if self.buf.len() < HEADER {
                        break;
                    }
                    let case = u32::from_le_bytes(self.buf[24..28].try_into().expect("4 bytes"));
                    let kind = self.buf[28];
                    let len =
                        u32::from_le_bytes(self.buf[29..33].try_into().expect("4 bytes")) as usize;
                    if len > MAX_PAYLOAD || kind > 3 {
                        // Not one of ours: count the marker as printed bytes and move on.
                        self.other(marker.len());
                        continue;
                    }
                    let bound = match kind {
                        2 => PANIC_MESSAGE_BYTES,
                        _ => self.max_answer,
                    };
                    if len > bound {
                        self.oversized = Some(case);
                        self.buf = Vec::new();
                        break;
                    }
                    if self.buf.len() < HEADER + len {
                        break;
                    }
                    let payload = self.buf[HEADER..HEADER + len].to_vec();
                    self.buf.drain(..HEADER + len);
                    self.frame_bytes += len;
                    self.frames.push(match kind {
                        0 => Frame::Ready {
                            catalogue: String::from_utf8_lossy(&payload).into_owned(),
                        },
                        1 => Frame::Output {
                            case,
                            bytes: payload,
                        },
                        3 => Frame::Request {
                            case,
                            bytes: payload,
                        },
                        _ => Frame::Panicked {
                            case,
                            message: String::from_utf8_lossy(&payload).into_owned(),
                        },
                    });
                }
            }
        }
        self.frames.len()
    }

    fn other(&mut self, n: usize) {
        let room = OTHER_HEAD.saturating_sub(self.other_head.len()).min(n);
        self.other_head.extend_from_slice(&self.buf[..room]);
        self.other_bytes += n;
        self.buf.drain(..n);
    }

    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// Takes the frames read so far, so that a reader of a long stream (a rank's requests)
    /// holds none it has passed on.
    pub fn take_frames(&mut self) -> Vec<Frame> {
        std::mem::take(&mut self.frames)
    }

    /// Ends the stream: whatever is left unparsed was the learner's.
    pub fn finish(mut self) -> (Vec<Frame>, usize, Vec<u8>) {
        let rest = self.buf.len();
        self.other(rest);
        (self.frames, self.other_bytes, self.other_head)
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The submission's `main`: reads the request, runs each case, writes a frame per case.
/// `catalogue` is the fingerprint of the catalogue the kata was built from (`katas::CATALOGUE_HASH`),
/// said in the `Ready` frame.
///
/// Nothing here is hidden from the instruction counter: a measured run counts the whole
/// process on every thread, and the grader subtracts what a run with no case costs (the empty
/// harness), measured on the reference's program.
pub fn serve<S: KataSpec>(solution: S::Solution, catalogue: &str) {
    std::panic::set_hook(Box::new(note_panic_location));
    let Ok(raw) = read_message() else {
        std::process::exit(3);
    };
    let Ok(request) = postcard::from_bytes::<RunRequest>(&raw) else {
        std::process::exit(3);
    };
    drop(raw);
    let ready = Frame::Ready {
        catalogue: catalogue.to_string(),
    };
    if let Some(role) = &request.rank {
        emit(&ready, &request.nonce);
        if !S::serve_rank(solution, role, &request.nonce) {
            std::process::exit(3);
        }
        return;
    }
    let Some(cases) = cases_of::<S>(&request) else {
        std::process::exit(3);
    };
    emit(&ready, &request.nonce);
    for (i, case) in cases {
        let solved = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            S::solve(solution, &case.input)
        }));
        let frame = match solved {
            Ok(output) => match crate::wire::encode(&output) {
                Ok(bytes) => Frame::Output { case: i, bytes },
                Err(e) => Frame::Panicked {
                    case: i,
                    message: e.to_string(),
                },
            },
            Err(payload) => Frame::Panicked {
                case: i,
                message: cut(learner_panic_message(payload.as_ref()), PANIC_MESSAGE_BYTES),
            },
        };
        emit(&frame, &request.nonce);
    }
}

/// The cases the request asks for, by index: its custom input, the inputs it carries, or the
/// seed's cases; `None` for a request that does not fit together. Public for the test that
/// checks it against a real kata (`katas/tests/runner_cases.rs`).
pub fn cases_of<S: KataSpec>(
    request: &RunRequest,
) -> Option<Vec<(u32, crate::spec::Case<S::Input>)>> {
    let decode = |bytes: &[u8]| crate::wire::decode::<S::Input>(bytes).ok();
    match (&request.custom, &request.inputs) {
        (Some(bytes), _) => Some(vec![(
            0,
            crate::spec::Case::new(CUSTOM_CASE, crate::spec::Group::Sample, decode(bytes)?),
        )]),
        (None, Some(inputs)) if inputs.len() == request.cases.len() => request
            .cases
            .iter()
            .zip(inputs)
            .map(|(&i, bytes)| {
                let case = crate::spec::Case::new(
                    format!("measured {i}"),
                    crate::spec::Group::Performance,
                    decode(bytes)?,
                );
                Some((i, case))
            })
            .collect(),
        (None, Some(_)) => None,
        (None, None) => {
            let mut all: Vec<Option<crate::spec::Case<S::Input>>> =
                S::cases(request.seed).into_iter().map(Some).collect();
            request
                .cases
                .iter()
                .map(|&i| Some((i, all.get_mut(i as usize)?.take()?)))
                .collect()
        }
    }
}

/// `text` cut to at most `max` bytes, on a character boundary.
pub(crate) fn cut(mut text: String, max: usize) -> String {
    if text.len() > max {
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

/// Writes `frame` to stdout's descriptor directly, after the solution's own buffered prints.
/// `Stdout`'s line buffer searches each write for its last newline, and every frame carries the
/// run's random nonce, so through it a measured run would count a few instructions more or
/// less from one run to the next.
pub(crate) fn emit(frame: &Frame, nonce: &[u8; 16]) {
    static OUT: std::sync::Mutex<Option<std::fs::File>> = std::sync::Mutex::new(None);
    let mut out = OUT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if out.is_none() {
        use std::os::fd::AsFd;
        match std::io::stdout().as_fd().try_clone_to_owned() {
            Ok(fd) => *out = Some(std::fs::File::from(fd)),
            Err(_) => std::process::exit(3),
        }
    }
    let file = out.as_mut().expect("opened above");
    // The solution's own prints go first, in the order they were made.
    let flushed = std::io::stdout().lock().flush();
    // A closed stdout means the grader has stopped listening; nothing useful is left to do.
    if flushed
        .and_then(|()| file.write_all(&frame.encode(nonce)))
        .is_err()
    {
        std::process::exit(3);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_survive_interleaved_prints_and_any_chunking() {
        let nonce = [7u8; 16];
        let mut stream = b"hello ".to_vec();
        let ready = Frame::Ready {
            catalogue: "abc".into(),
        };
        stream.extend(ready.encode(&nonce));
        stream.extend(b"debug\n");
        stream.extend(
            Frame::Output {
                case: 3,
                bytes: vec![1, 2, 3],
            }
            .encode(&nonce),
        );
        stream.extend(
            Frame::Output {
                case: 4,
                bytes: vec![9],
            }
            .encode(&[8u8; 16]),
        );
        stream.extend(
            Frame::Panicked {
                case: 5,
                message: "boom".into(),
            }
            .encode(&nonce),
        );
        for chunk in [1, 2, 5, 33, 1000] {
            let mut reader = FrameReader::new(nonce);
            for part in stream.chunks(chunk) {
                reader.push(part);
            }
            let (frames, other, head) = reader.finish();
            assert_eq!(
                frames,
                vec![
                    Frame::Ready {
                        catalogue: "abc".into()
                    },
                    Frame::Output {
                        case: 3,
                        bytes: vec![1, 2, 3]
                    },
                    Frame::Panicked {
                        case: 5,
                        message: "boom".into()
                    },
                ],
                "chunk {chunk}"
            );
            let forged = Frame::Output {
                case: 4,
                bytes: vec![9],
            }
            .encode(&[8u8; 16])
            .len();
            assert_eq!(other, 6 + 6 + forged, "chunk {chunk}");
            assert!(head.starts_with(b"hello debug\n"));
        }
    }

    #[test]
    fn an_answer_over_its_bound_stops_the_reader() {
        let nonce = [2u8; 16];
        let mut stream = Frame::Output {
            case: 0,
            bytes: vec![0; 10],
        }
        .encode(&nonce);
        stream.extend(
            Frame::Output {
                case: 1,
                bytes: vec![0; 100],
            }
            .encode(&nonce),
        );
        stream.extend(
            Frame::Output {
                case: 2,
                bytes: vec![0; 1],
            }
            .encode(&nonce),
        );
        let mut reader = FrameReader::with_bound(nonce, 50);
        reader.push(&stream);
        assert_eq!(reader.oversized, Some(1));
        assert_eq!(reader.frames().len(), 1);
        assert_eq!(reader.frame_bytes, 10);
        let long_panic = Frame::Panicked {
            case: 3,
            message: "x".repeat(PANIC_MESSAGE_BYTES + 1),
        }
        .encode(&nonce);
        let mut reader = FrameReader::with_bound(nonce, 1 << 20);
        reader.push(&long_panic);
        assert_eq!(reader.oversized, Some(3));
        assert_eq!(cut("aé".repeat(3), 4), "aéa");
    }

    #[test]
    fn an_absurd_length_is_not_allocated() {
        let nonce = [1u8; 16];
        let mut bytes = Frame::Output {
            case: 0,
            bytes: vec![],
        }
        .encode(&nonce);
        bytes[29..33].copy_from_slice(&u32::MAX.to_le_bytes());
        let mut reader = FrameReader::new(nonce);
        reader.push(&bytes);
        let (frames, other, _) = reader.finish();
        assert!(frames.is_empty());
        assert_eq!(other, bytes.len());
    }
}
