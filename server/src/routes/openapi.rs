//! `GET /api/openapi.json`: the JSON API described as OpenAPI 3.1. Written by hand next to the
//! routes it describes; `tests/api/openapi.rs` checks every route is in it.

use crate::domain::{JobKind, Word as _};
use axum::Json;
use serde_json::{Value, json};

pub async fn spec() -> Json<Value> {
    Json(document())
}

fn error_response(description: &str) -> Value {
    json!({ "description": description, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } })
}

pub fn document() -> Value {
    // A learner authenticates with an API token or, from the pages, with the session cookie.
    let bearer = json!([{ "bearer": [] }, { "session": [] }]);
    let worker = json!([{ "worker": [] }]);
    let job_kinds: Vec<&str> = JobKind::ALL.iter().map(|k| k.as_str()).collect();
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "InfraKata",
            "version": env!("CARGO_PKG_VERSION"),
            "description": "Submit solutions to AI-infrastructure katas and get sandboxed, trusted verdicts."
        },
        "components": {
            "securitySchemes": {
                "bearer": { "type": "http", "scheme": "bearer", "description": "An API token from `infrakata user add`." },
                "session": { "type": "apiKey", "in": "cookie", "name": "ik_session", "description": "The browser's session after logging in on the pages. Requests that change anything must also send the page's CSRF token in the `X-CSRF-Token` header." },
                "worker": { "type": "http", "scheme": "bearer", "description": "The server's worker token." }
            },
            "schemas": {
                "Error": { "type": "object", "required": ["error"], "properties": { "error": { "type": "string" }, "error_zh": { "type": "string", "description": "The same message in 中文, where one is written (refusals a learner meets)." } } },
                "Verdict": { "type": "string", "enum": ["accepted", "wrong_answer", "compile_error", "runtime_error", "time_limit_exceeded", "memory_limit_exceeded", "output_limit_exceeded", "internal_error"] },
                "State": { "type": "string", "enum": ["queued", "compiling", "running", "measuring", "done"] },
                "JobKind": { "type": "string", "enum": job_kinds },
                "WorkerHello": {
                    "type": "object",
                    "required": ["worker_id", "name", "capabilities"],
                    "properties": {
                        "worker_id": { "type": "string" }, "name": { "type": "string" },
                        "capabilities": {
                            "type": "object",
                            "required": ["cores", "kinds"],
                            "properties": {
                                "cores": { "type": "integer", "minimum": 0 },
                                "kinds": { "type": "array", "items": { "$ref": "#/components/schemas/JobKind" } },
                                "gpu": { "type": "object", "description": "The worker's GPU (name, compute capability, memory, driver), when it has one." }
                            }
                        }
                    }
                },
                "KataSummary": {
                    "type": "object",
                    "properties": {
                        "slug": { "type": "string" }, "title": { "type": "string" }, "summary": { "type": "string" },
                        "difficulty": { "type": "string", "enum": ["easy", "medium", "hard"] },
                        "kind": { "type": "string", "enum": ["cpu", "gpu"] },
                        "topics": { "type": "array", "items": { "type": "string" } }
                    }
                },
                "Text": { "type": "object", "required": ["en", "zh"], "properties": { "en": { "type": "string" }, "zh": { "type": "string" } } },
                "DrillSet": { "type": "object", "properties": { "slug": { "type": "string" }, "title": { "$ref": "#/components/schemas/Text" }, "question": { "$ref": "#/components/schemas/Text" }, "items": { "type": "integer" } } },
                "DrillPresented": {
                    "type": "object",
                    "description": "What the learner sees: the prompt with this attempt's parameters, and `body` by `kind`: numeric (unit), choice (multiple, options with labels), ordering (steps with labels), matching (left numbered, right lettered), predict (parts with form `tuple`/`number`/`word` and choices).",
                    "properties": { "set": { "type": "string" }, "item": { "type": "string" }, "prompt": { "$ref": "#/components/schemas/Text" }, "params": { "type": "object" }, "body": { "type": "object", "properties": { "kind": { "type": "string", "enum": ["numeric", "choice", "ordering", "matching", "predict"] } } } }
                },
                "DrillAnswer": {
                    "type": "object", "required": ["parts"], "additionalProperties": false,
                    "properties": { "parts": { "type": "array", "maxItems": 32, "items": { "type": "string", "maxLength": 200 }, "description": "numeric: [the number]; choice: the picked labels; ordering: every label in order; matching: one right-hand label per left entry, in order; predict: one text per part." } }
                },
                "DrillResult": {
                    "type": "object",
                    "properties": { "score": { "type": "number" }, "correct": { "type": "boolean" }, "parts": { "type": "array", "items": { "type": "object", "properties": { "about": { "type": "string" }, "ok": { "type": "boolean" }, "given": { "type": "string" }, "expected": { "type": "string" }, "feedback": { "oneOf": [{ "$ref": "#/components/schemas/Text" }, { "type": "null" }] } } } }, "explanation": { "$ref": "#/components/schemas/Text" } }
                },
                "NewSubmission": {
                    "type": "object", "required": ["kata", "source"], "additionalProperties": false,
                    "properties": {
                        "kata": { "type": "string" },
                        "source": { "type": "string", "maxLength": 65536, "description": "The Rust solution file (at most 64 KiB)." },
                        "mode": { "type": "string", "enum": ["run", "submit"], "default": "submit" }
                    }
                },
                "NewCustomRun": {
                    "type": "object", "required": ["source", "input"], "additionalProperties": false,
                    "properties": {
                        "source": { "type": "string", "maxLength": 65536, "description": "The Rust solution file (at most 64 KiB)." },
                        "input": { "type": "string", "maxLength": 65536, "description": "The kata's input as JSON text (`custom_input` of `GET /api/katas/{slug}` is a sample); at most 64 KiB." }
                    }
                },
                "Submission": {
                    "type": "object",
                    "description": "Before the verdict: id, kata, mode, state, queue_position, waiting_for. From the verdict on: the same report as `infrakata grade --json` (see README), plus id, state, queue_position and waiting_for (null). An accepted submit shows its verdict in state `measuring` with `performance` null; state `done` adds the figure (or `performance_missing`).",
                    "required": ["id", "state"],
                    "properties": {
                        "id": { "type": "integer" },
                        "state": { "$ref": "#/components/schemas/State" },
                        "queue_position": { "type": ["integer", "null"], "description": "Jobs ahead while queued." },
                        "waiting_for": { "type": ["string", "null"], "description": "While queued with no worker that can grade it connected (seen in the last 60 s): what it waits for, e.g. `gpu worker`." },
                        "kata_version": { "type": ["integer", "null"], "description": "The kata version (numbered 1, 2, … per kata) the code was written for; null for submissions from before versions were recorded." },
                        "api_changed": { "oneOf": [{ "$ref": "#/components/schemas/ApiChanged" }, { "type": "null" }] },
                        "custom_run": { "type": "boolean", "description": "A custom-input run (`POST /api/katas/{slug}/custom`): stored with mode `run`, never an attempt; once judged, `custom` holds the input and both answers." },
                        "withdrawn": { "type": ["string", "null"], "enum": ["cancelled", "timed_out", null], "description": "Set when the submission ended without being graded: cancelled while it waited, or no worker that can grade it took it within the server's maximum wait. Its report is then an `internal_error` whose message says why; it is not an attempt." },
                        "verdict": { "oneOf": [{ "$ref": "#/components/schemas/Verdict" }, { "type": "null" }] },
                        "score": { "type": "object", "properties": { "passed": { "type": "integer" }, "total": { "type": "integer" } } },
                        "cases": { "type": "array", "items": { "$ref": "#/components/schemas/CaseResult" } },
                        "diagnostics": { "type": "array", "items": { "type": "object", "description": "A compiler message: `level`, `code`, `message` (the compiler's words; where we say them again in the learner's terms, ours, with `message_zh`), `line`, `column`, `labels`, `rendered`.", "properties": { "message": { "type": "string" }, "message_zh": { "type": "string" } } } },
                        "performance": { "type": ["object", "null"] },
                        "resources": { "type": "object" },
                        "message": { "type": ["string", "null"], "description": "Why the verdict is what it is when that needs saying (which limit stopped the run, why grading failed on our side), in English; absent when there is nothing to say." },
                        "message_zh": { "type": "string", "description": "The same in 中文, where the words are ours (absent in reports stored before it existed, like `error_zh`)." }
                    }
                },
                "ApiChanged": {
                    "type": "object",
                    "description": "Code written for version `written_for`, whose learner-facing API (entry points and the package types they name) differs from the version `current` served now: what changed, and the current starter. Null when the API is the same.",
                    "properties": {
                        "written_for": { "type": "integer" },
                        "current": { "type": "integer" },
                        "changes": { "type": "array", "items": { "type": "object", "properties": {
                            "name": { "type": "string", "description": "`Solution::entry`, `struct Name`, `Type::method`, `impl Trait for Type`." },
                            "before": { "type": ["string", "null"], "description": "The item as Rust, null when it is new." },
                            "after": { "type": ["string", "null"], "description": "The item as Rust, null when it was removed." }
                        } } },
                        "starter": { "type": "string" }
                    }
                },
                "CaseResult": {
                    "type": "object",
                    "description": "One case of a report. `message` (a limit, a panic, not run) and the `mismatch`'s `message` are in English, each with `message_zh` where the words are ours; a panic's own text is the learner's and stays as written. `expected` and `got` are values, the same in every language.",
                    "properties": {
                        "name": { "type": "string" },
                        "group": { "type": "string", "enum": ["sample", "edge", "random", "performance"] },
                        "outcome": { "type": "string" },
                        "time_ms": { "type": "number" },
                        "input": { "type": ["string", "null"] },
                        "mismatch": { "type": ["object", "null"], "properties": {
                            "message": { "type": "string" },
                            "message_zh": { "type": "string" },
                            "expected": { "type": "string" },
                            "got": { "type": "string" }
                        } },
                        "message": { "type": "string" },
                        "message_zh": { "type": "string" },
                        "notes": { "type": "array", "items": { "type": "string" } }
                    }
                }
            }
        },
        "paths": {
            "/api/health": { "get": { "summary": "Liveness.", "responses": { "200": { "description": "ok" } } } },
            "/api/katas": { "get": {
                "summary": "The catalogue, in order: the listed katas (unlisted ones are previewed by staff on the pages; retired ones take no submissions).",
                "responses": { "200": { "description": "Every listed kata.", "content": { "application/json": { "schema": { "type": "array", "items": { "$ref": "#/components/schemas/KataSummary" } } } } } }
            } },
            "/api/katas/{slug}": { "get": {
                "summary": "One kata: summary, statement (without hints and concept), starter, entry points, and `version` (`number`, `content_hash`: the SHA-256 of the package's files, `api_hash`, `published_at`) of the package served, and its `availability`: `listed`, or `retired` (readable, takes no submissions).",
                "parameters": [{ "name": "slug", "in": "path", "required": true, "schema": { "type": "string" } }],
                "responses": { "200": { "description": "The kata." }, "404": error_response("Unknown or unlisted kata.") }
            } },
            "/api/katas/{slug}/draft": {
                "get": {
                    "summary": "The learner's autosaved draft of this kata (what the editor held), or nulls when there is none.",
                    "security": bearer,
                    "parameters": [{ "name": "slug", "in": "path", "required": true, "schema": { "type": "string" } }],
                    "responses": {
                        "200": { "description": "The draft.", "content": { "application/json": { "schema": { "type": "object", "properties": { "source": { "type": ["string", "null"] }, "updated_at": { "type": ["integer", "null"], "description": "Milliseconds since the Unix epoch." }, "kata_version": { "type": ["integer", "null"], "description": "The kata version the draft was written for." }, "api_changed": { "oneOf": [{ "$ref": "#/components/schemas/ApiChanged" }, { "type": "null" }] } } } } } },
                        "401": error_response("No or unknown token."),
                        "404": error_response("Unknown kata.")
                    }
                },
                "put": {
                    "summary": "Replaces the learner's draft of this kata (the editor saves it a moment after each edit).",
                    "security": bearer,
                    "parameters": [{ "name": "slug", "in": "path", "required": true, "schema": { "type": "string" } }],
                    "requestBody": { "required": true, "content": { "application/json": { "schema": { "type": "object", "required": ["source"], "additionalProperties": false, "properties": { "source": { "type": "string", "maxLength": 65536 } } } } } },
                    "responses": {
                        "200": { "description": "Saved.", "content": { "application/json": { "schema": { "type": "object", "properties": { "updated_at": { "type": "integer" } } } } } },
                        "400": error_response("Malformed JSON or an unknown field."),
                        "401": error_response("No or unknown token."),
                        "403": error_response("Session cookie without the session's CSRF token in `X-CSRF-Token`."),
                        "404": error_response("Unknown kata."),
                        "413": error_response("Draft over 64 KiB.")
                    }
                }
            },
            "/api/katas/{slug}/hints/{index}": { "put": {
                "summary": "Records that the learner opened hint `index` (from 0); opened hints stay open on the kata page.",
                "security": bearer,
                "parameters": [
                    { "name": "slug", "in": "path", "required": true, "schema": { "type": "string" } },
                    { "name": "index", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 0 } }
                ],
                "responses": {
                    "204": { "description": "Recorded." },
                    "401": error_response("No or unknown token."),
                    "403": error_response("Session cookie without the session's CSRF token in `X-CSRF-Token`."),
                    "404": error_response("Unknown kata or no such hint.")
                }
            } },
            "/api/katas/{slug}/custom": { "post": {
                "summary": "Custom input: runs your program on your own input (queued like a `run`, first in line); the report (`GET /api/submissions/{id}`, its events) has one case and `custom` with the input, the reference's answer and yours.",
                "security": bearer,
                "parameters": [{ "name": "slug", "in": "path", "required": true, "schema": { "type": "string" } }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/NewCustomRun" } } } },
                "responses": {
                    "202": { "description": "Queued.", "content": { "application/json": { "schema": { "type": "object", "properties": { "id": { "type": "integer" } } } } } },
                    "400": error_response("Malformed request body, a missing or unknown field."),
                    "401": error_response("No or unknown token."),
                    "403": error_response("Session cookie without the session's CSRF token in `X-CSRF-Token`."),
                    "404": error_response("Unknown kata, or unlisted."),
                    "409": error_response("The kata is retired."),
                    "413": error_response("Source or input over 64 KiB, or body too large."),
                    "422": error_response("The input is not this kata's input as JSON, or is outside the statement's constraints (the kata's message, in the `Accept-Language`'s language), or the kata offers no custom input (GPU katas). Nothing is queued."),
                    "429": error_response("Too many submissions for this user.")
                }
            } },
            "/api/katas/{slug}/versions": {
                "get": {
                    "summary": "Instructors and admins: every version of a kata, newest first: number, content hash, source (`build` or `upload`), availability, who uploaded it, whether this build can serve it, which is live.",
                    "security": bearer,
                    "parameters": [{ "name": "slug", "in": "path", "required": true, "schema": { "type": "string" } }],
                    "responses": {
                        "200": { "description": "The versions.", "content": { "application/json": { "schema": { "type": "object" } } } },
                        "401": error_response("No or unknown token."),
                        "403": error_response("Not an instructor or admin."),
                        "404": error_response("Unknown kata.")
                    }
                },
                "post": {
                    "summary": "Instructors and admins: publish a package (the kata's folder as a .tar.gz or .zip, at most 4 MiB; `infrakata kata publish` sends one). It is verified first — archive safety, kata.toml, the lint in both languages, and (on this build) that only the statements differ from the version it grades with — and goes live only when every check passes. The report lists each check in English and 中文.",
                    "security": bearer,
                    "parameters": [{ "name": "slug", "in": "path", "required": true, "schema": { "type": "string" } }],
                    "requestBody": { "required": true, "content": { "application/gzip": { "schema": { "type": "string", "format": "binary" } }, "application/zip": { "schema": { "type": "string", "format": "binary" } } } },
                    "responses": {
                        "201": { "description": "Published and live: `version`, `new` (false when the same files were already a version), `checks`.", "content": { "application/json": { "schema": { "type": "object" } } } },
                        "401": error_response("No or unknown token."),
                        "403": error_response("Not an instructor or admin, or a session cookie without its CSRF token."),
                        "413": error_response("The archive is over 4 MiB."),
                        "422": error_response("Refused: `checks` says which check failed and why (`error`/`error_zh` repeat the first). Nothing changed.")
                    }
                }
            },
            "/api/katas/{slug}/live": { "post": {
                "summary": "Instructors and admins: make a stored version the one learners are served (roll back, or forward again); it takes the kata's current availability.",
                "security": bearer,
                "parameters": [{ "name": "slug", "in": "path", "required": true, "schema": { "type": "string" } }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "type": "object", "required": ["version"], "properties": { "version": { "type": "integer" } } } } } },
                "responses": {
                    "200": { "description": "Live.", "content": { "application/json": { "schema": { "type": "object" } } } },
                    "400": error_response("Malformed request body."),
                    "401": error_response("No or unknown token."),
                    "403": error_response("Not an instructor or admin."),
                    "404": error_response("Unknown kata or version."),
                    "409": error_response("That version grades differently from this build: it can go live only on the build it came from.")
                }
            } },
            "/api/submissions": { "post": {
                "summary": "Submit a solution; stored before the answer.",
                "security": bearer,
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/NewSubmission" } } } },
                "responses": {
                    "202": { "description": "Queued.", "content": { "application/json": { "schema": { "type": "object", "properties": { "id": { "type": "integer" } } } } } },
                    "400": error_response("Malformed JSON, invalid UTF-8, a missing or unknown field."),
                    "401": error_response("No or unknown token."),
                    "403": error_response("Session cookie without the session's CSRF token in `X-CSRF-Token`."),
                    "404": error_response("Unknown kata, or unlisted (only instructors and admins submit to an unlisted kata)."),
                    "409": error_response("The kata is retired: it takes no new submissions."),
                    "413": error_response("Source over 64 KiB or body too large."),
                    "429": error_response("Too many submissions for this user.")
                }
            } },
            "/api/submissions/{id}": { "get": {
                "summary": "A submission's state and, once done, its report.",
                "security": bearer,
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
                "responses": {
                    "200": { "description": "The submission.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Submission" } } } },
                    "401": error_response("No or unknown token."),
                    "404": error_response("No such submission you may see (yours, or an accepted submit of a kata you have solved).")
                }
            } },
            "/api/submissions/{id}/events": { "get": {
                "summary": "Server-sent events (each the Submission object): `state` events until the verdict is known, then `verdict` (an accepted submit's verdict comes in state `measuring`, its figure in a later `verdict` event in state `done`); the stream ends after state `done`.",
                "security": bearer,
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
                "responses": { "200": { "description": "An event stream.", "content": { "text/event-stream": {} } }, "404": error_response("No such submission you may see (yours, or an accepted submit of a kata you have solved)."), "429": error_response("Too many live event streams of this user (8 at once).") }
            } },
            "/api/submissions/{id}/cancel": { "post": {
                "summary": "Cancels one of your submissions that no worker has taken yet (e.g. a GPU kata waiting for a GPU worker); it ends as not graded and is not an attempt.",
                "security": bearer,
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
                "responses": {
                    "200": { "description": "Cancelled; the submission as it now stands.", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Submission" } } } },
                    "401": error_response("No or unknown token."),
                    "403": error_response("Session cookie without the session's CSRF token in `X-CSRF-Token`."),
                    "404": error_response("No such submission of yours."),
                    "409": error_response("A worker has already taken it, or it is done.")
                }
            } },
            "/api/worker/claim": { "post": {
                "summary": "A worker waits (long poll) for a job matching its capabilities.",
                "security": worker,
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/WorkerHello" } } } },
                "responses": { "200": { "description": "A leased job." }, "204": { "description": "No job within the poll time." }, "400": error_response("A malformed hello, such as a job kind this server does not know."), "403": error_response("Not a worker token.") }
            } },
            "/api/worker/jobs/{id}/heartbeat": { "post": {
                "summary": "Renews the lease and reports the stage.", "security": worker,
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
                "responses": { "204": { "description": "Renewed." }, "409": error_response("The lease is lost.") }
            } },
            "/api/worker/jobs/{id}/verdict": { "post": {
                "summary": "Publishes the verdict while the performance figure is measured, if the lease still holds.", "security": worker,
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
                "responses": { "204": { "description": "Published." }, "409": error_response("The lease is lost; the verdict was dropped.") }
            } },
            "/api/worker/jobs/{id}/hand-over": { "post": {
                "summary": "Publishes an accepted CPU submit's verdict and queues its instruction count as a measurement job of its own (claimed by loops whose hello says `\"phase\": \"measure\"`), if the lease still holds. The worker is then done with the job.", "security": worker,
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
                "responses": { "204": { "description": "Published; the measurement is queued." }, "409": error_response("The lease is lost; the verdict was dropped.") }
            } },
            "/api/worker/jobs/{id}/measured": { "post": {
                "summary": "A measurement job's figure (`{\"lease_token\", \"measured\": {\"figure\": Performance} | {\"missing\": why}}`), added to the published verdict, if the lease still holds.", "security": worker,
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
                "responses": { "204": { "description": "Stored." }, "409": error_response("The lease is lost; the figure was dropped.") }
            } },
            "/api/worker/jobs/{id}/result": { "post": {
                "summary": "Stores the report if the lease still holds.", "security": worker,
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
                "responses": { "204": { "description": "Stored." }, "409": error_response("The lease is lost; the result was dropped.") }
            } },
            "/api/worker/jobs/{id}/release": { "post": {
                "summary": "Gives the job back after a failure on the worker's side.", "security": worker,
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
                "responses": { "204": { "description": "Released." }, "409": error_response("The lease is lost.") }
            } },
            "/api/drills": { "get": {
                "summary": "The drill sets, one per concept question of the bank, in order.",
                "responses": { "200": { "description": "Every set.", "content": { "application/json": { "schema": { "type": "array", "items": { "$ref": "#/components/schemas/DrillSet" } } } } } }
            } },
            "/api/drills/{set}": { "get": {
                "summary": "One drill set and its items (id, answer kind, tags, katas); nothing that answers them.",
                "parameters": [{ "name": "set", "in": "path", "required": true, "schema": { "type": "string" } }],
                "responses": { "200": { "description": "The set." }, "404": error_response("Unknown set.") }
            } },
            "/api/drills/{set}/{item}/attempts": { "post": {
                "summary": "Starts an attempt: parameters drawn and options shuffled with a secret seed. The answer key stays on the server.",
                "security": bearer,
                "parameters": [{ "name": "set", "in": "path", "required": true, "schema": { "type": "string" } }, { "name": "item", "in": "path", "required": true, "schema": { "type": "string" } }],
                "responses": {
                    "201": { "description": "The attempt.", "content": { "application/json": { "schema": { "type": "object", "properties": { "id": { "type": "integer" }, "presented": { "$ref": "#/components/schemas/DrillPresented" } } } } } },
                    "401": error_response("No or unknown token."),
                    "403": error_response("Session cookie without the session's CSRF token in `X-CSRF-Token`."),
                    "404": error_response("Unknown set or item."),
                    "429": error_response("Too many attempts started by this user (20 at once, then 60 a minute, by default), or 100 unanswered already: answer some first. Nothing is stored.")
                }
            } },
            "/api/drill-attempts/{id}": { "get": {
                "summary": "One of your attempts: what was shown, and once answered, the result with the explanation.",
                "security": bearer,
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
                "responses": { "200": { "description": "The attempt." }, "401": error_response("No or unknown token."), "404": error_response("No such attempt of yours.") }
            } },
            "/api/drill-attempts/{id}/answer": { "post": {
                "summary": "Commits an answer; graded on the server. The first answer stands.",
                "security": bearer,
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": "#/components/schemas/DrillAnswer" } } } },
                "responses": {
                    "200": { "description": "The result: score 0–1, correct, per-part feedback, explanation; and when the item is next due for review.", "content": { "application/json": { "schema": { "type": "object", "properties": { "id": { "type": "integer" }, "result": { "$ref": "#/components/schemas/DrillResult" }, "next_review_ms": { "type": "integer" } } } } } },
                    "400": error_response("An answer that cannot be graded (wrong number of parts, unknown label, not a number, over the size bounds); the attempt stays open."),
                    "401": error_response("No or unknown token."),
                    "403": error_response("Session cookie without the session's CSRF token in `X-CSRF-Token`."),
                    "404": error_response("No such attempt of yours."),
                    "409": error_response("Already answered, or the attempt's interview is over.")
                }
            } },
            "/api/review": { "get": {
                "summary": "Your review queue: drill items and solved katas due by the end of today (UTC), scheduled by FSRS; and your daily streak.",
                "security": bearer,
                "responses": { "200": { "description": "Due cards and the streak." }, "401": error_response("No or unknown token.") }
            } },
            "/api/interviews": { "post": {
                "summary": "Starts a timed mock interview: one kata picked for your history (difficulty hidden) and 5 drill attempts on the same topics. Drill results are withheld until the interview ends; answers lock at the end.",
                "security": bearer,
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "type": "object", "additionalProperties": false, "properties": { "minutes": { "type": "integer", "minimum": 1, "maximum": 180, "default": 45 } } } } } },
                "responses": { "201": { "description": "The session: id, kata, started_ms, ends_ms, items (attempt ids)." }, "400": error_response("Minutes out of range or a malformed body."), "401": error_response("No or unknown token."), "403": error_response("Session cookie without the session's CSRF token in `X-CSRF-Token`."), "429": error_response("Too many interviews started by this user (3 at once, then 10 an hour, by default), or too many unanswered drill attempts to hold its 5 items. Nothing is stored.") }
            } },
            "/api/interviews/{id}": { "get": {
                "summary": "One of your interviews; once over (finished, or the clock ran out), with its kept report: per item outcome, time, explanation; the kata's verdict and hints used; score of 100; what to review next.",
                "security": bearer,
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
                "responses": { "200": { "description": "The session." }, "401": error_response("No or unknown token."), "404": error_response("No such interview of yours.") }
            } },
            "/api/interviews/{id}/finish": { "post": {
                "summary": "Ends the interview now and keeps its report (the first report stands).",
                "security": bearer,
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
                "responses": { "200": { "description": "The session with its report." }, "401": error_response("No or unknown token."), "404": error_response("No such interview of yours.") }
            } },
            "/api/interviews/{id}/draft": { "put": {
                "summary": "Keeps the interview editor's code while the clock runs, so a reload never brings back the starter.",
                "security": bearer,
                "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "type": "object", "required": ["source"], "properties": { "source": { "type": "string" } } } } } },
                "responses": { "204": { "description": "Kept." }, "401": error_response("No or unknown token."), "404": error_response("No such interview of yours."), "409": error_response("The interview is over."), "413": error_response("Over 64 KiB.") }
            } },
            "/api/openapi.json": { "get": { "summary": "This document.", "responses": { "200": { "description": "OpenAPI 3.1." } } } }
        }
    })
}
