//! A rank as its own sandboxed process: its requests go out as [`Frame::Request`]s on stdout,
//! its replies come in on stdin as messages (see [`runner::read_message`]), and the grader's
//! copy of the network ([`super::CaseNet`]) stands between the ranks.
//!
//! Nothing here is trusted: the process may write any frame and ignore any reply. It can only
//! lie about its own requests and its own result, which the network and the checker judge.

use super::{Link, RankedSpec};
use crate::panics::learner_panic_message;
use crate::rank_net::RankRole;
use crate::runner::{self, Frame, PANIC_MESSAGE_BYTES};
use serde::{Serialize, de::DeserializeOwned};

/// The process's way to the grader's network for one case.
#[derive(Debug)]
pub(crate) struct Channel {
    case: u32,
    nonce: [u8; 16],
}

impl Channel {
    pub(super) fn send<T: Serialize>(&mut self, request: &T) {
        let bytes = crate::wire::encode(request)
            .unwrap_or_else(|e| panic!("a request could not be encoded: {e}"));
        runner::emit(
            &Frame::Request {
                case: self.case,
                bytes,
            },
            &self.nonce,
        );
    }

    /// The next reply; a reply that is an error is this rank's failure.
    pub(super) fn receive<R: DeserializeOwned>(&mut self) -> R {
        // The grader closes stdin only once it has stopped listening: nothing is left to do.
        let Ok(bytes) = runner::read_message() else {
            std::process::exit(3)
        };
        match crate::wire::decode::<Result<R, String>>(&bytes) {
            Ok(Ok(reply)) => reply,
            Ok(Err(msg)) => panic!("{msg}"),
            Err(e) => panic!("a reply could not be read: {e}"),
        }
    }
}

/// The sandboxed process of one rank: runs `role.rank` of every case in `role`, in order, and
/// writes the rank's result (or its panic) as that case's frame.
pub fn serve_rank<S: RankedSpec>(solution: S::Solution, role: &RankRole, nonce: &[u8; 16]) {
    for part in &role.cases {
        let case = part.case;
        let frame = match crate::wire::decode::<S::RankInput>(&part.input) {
            Err(e) => Frame::Panicked {
                case,
                message: format!("the rank's input could not be read: {e}"),
            },
            Ok(input) => {
                let channel = Channel {
                    case,
                    nonce: *nonce,
                };
                let link = Link::process(role.rank as usize, part.ranks as usize, channel);
                let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    S::run_rank(solution, link, input)
                }));
                match ran {
                    Ok(output) => match crate::wire::encode(&output) {
                        Ok(bytes) => Frame::Output { case, bytes },
                        Err(e) => Frame::Panicked {
                            case,
                            message: e.to_string(),
                        },
                    },
                    Err(payload) => Frame::Panicked {
                        case,
                        message: runner::cut(
                            learner_panic_message(payload.as_ref()),
                            PANIC_MESSAGE_BYTES,
                        ),
                    },
                }
            }
        };
        runner::emit(&frame, nonce);
    }
}
