//! Packages published to the running service, as the service reads them back: a version's
//! stored archive unpacked under the io bounds and held to its content hash — a stdin/stdout
//! package, or a function kata graded from its own files (a build's own CPU katas included) —
//! and the learner-facing view of every kata whose live version is one. Every replica answers
//! from the database, so a kata published through one is served by all without a restart.

use crate::db::{Db, kata_packages};
use crate::error::AppError;
use graders::package::FunctionPackage;
use katas::Kata;
use katas::archive::PackageFiles;
use katas::custom::InputExamples;
use katas::io::IoPackage;
use katas::io::served::{awaits_examples, intern, intern_function, interned, refresh_examples};
use katas::{KataKind, KataMeta, layout};
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A stored version as its kind is graded: a stdin/stdout package's programs, or a function
/// package whose judge and learner's programs are built from its files.
#[derive(Debug)]
pub enum Stored {
    Io(IoPackage),
    Function(FunctionPackage),
}

impl Stored {
    /// The learner-facing view, read once per process; `examples`, what a function kata's
    /// custom-input form starts from (`None` while its judge has not made them).
    fn view(&self, examples: Option<InputExamples>) -> Result<&'static dyn Kata, String> {
        match self {
            Self::Io(package) => intern(package).map_err(|e| e.to_string()),
            Self::Function(package) => intern_function(
                &package.meta,
                &package.files,
                &package.wrong_sources(),
                examples,
            )
            .map_err(|e| e.to_string()),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    #[error("no package is stored as {0}")]
    Missing(String),
    #[error("the package stored as {hash} does not read: {message}")]
    Unreadable { hash: String, message: String },
    /// What was fetched is not what was asked for: never graded with.
    #[error("the package fetched as {wanted} holds files whose hash is {got}")]
    Mismatch { wanted: String, got: String },
}

impl From<PackageError> for AppError {
    fn from(e: PackageError) -> Self {
        AppError::Internal(e.into())
    }
}

/// The package in `archive`, fetched or loaded as `content_hash`: read under the io bounds
/// and refused unless its files hash to exactly that.
pub fn unpack(content_hash: &str, archive: &[u8]) -> Result<Stored, PackageError> {
    let unreadable = |message: String| PackageError::Unreadable {
        hash: content_hash.to_string(),
        message,
    };
    let files = PackageFiles::unpack(archive, &katas::io::limits())
        .map_err(|e| unreadable(e.to_string()))?;
    let got = files.content_hash();
    if got != content_hash {
        return Err(PackageError::Mismatch {
            wanted: content_hash.to_string(),
            got,
        });
    }
    let kind = files
        .text(layout::META_FILE)
        .and_then(|t| KataMeta::parse(t, std::path::Path::new(layout::META_FILE)).ok())
        .map(|m| m.kind);
    if kind == Some(KataKind::Io) {
        IoPackage::from_files(files)
            .map(Stored::Io)
            .map_err(|e| unreadable(e.to_string()))
    } else {
        FunctionPackage::from_files(&files)
            .map(Stored::Function)
            .map_err(|e| unreadable(e.to_string()))
    }
}

/// The stored package `content_hash`, read from the database.
pub async fn load(db: &Db, content_hash: &str) -> Result<Stored, AppError> {
    let archive = kata_packages::archive(db, content_hash)
        .await?
        .ok_or_else(|| PackageError::Missing(content_hash.to_string()))?;
    // Up to 256 MiB to inflate and hash: off the request threads.
    let hash = content_hash.to_string();
    Ok(tokio::task::spawn_blocking(move || unpack(&hash, &archive))
        .await
        .map_err(|e| AppError::Internal(e.into()))??)
}

/// The learner-facing view of the stored version `content_hash`, read once per process: the
/// same for a build's own package of a kata (stored with its version at start-up), a statement
/// fix of it and an upload, so no kata's code runs here to serve it (its custom input is
/// admitted by its judge, in the sandbox). A view still awaiting its form's examples looks for
/// them again, at most once a second: a replica with a grader stores them ([`examples`]).
///
/// [`examples`]: super::examples
async fn view(db: &Db, content_hash: &str) -> Result<&'static dyn Kata, AppError> {
    if let Some(kata) = interned(content_hash) {
        if !awaits_examples(content_hash) || !examples_due(content_hash) {
            return Ok(kata);
        }
        return Ok(match stored_examples(db, content_hash).await? {
            Some(examples) => refresh_examples(content_hash, examples).unwrap_or(kata),
            None => kata,
        });
    }
    let package = load(db, content_hash).await?;
    let examples = stored_examples(db, content_hash).await?;
    package.view(examples).map_err(|message| {
        PackageError::Unreadable {
            hash: content_hash.to_string(),
            message,
        }
        .into()
    })
}

/// The form's examples stored with `content_hash`; `None` when none are yet. Ours, written by
/// a judge: unreadable, the form starts empty rather than waiting for ever.
async fn stored_examples(db: &Db, content_hash: &str) -> Result<Option<InputExamples>, AppError> {
    Ok(kata_packages::input_examples(db, content_hash)
        .await?
        .map(|json| serde_json::from_str(&json).unwrap_or_default()))
}

/// Whether a view awaiting its examples should look for them now: once a second per version,
/// so a replica whose examples never come (no grader anywhere) pays no query per request.
fn examples_due(content_hash: &str) -> bool {
    static LOOKED: Mutex<Option<HashMap<String, Instant>>> = Mutex::new(None);
    let mut looked = LOOKED.lock().unwrap_or_else(PoisonError::into_inner);
    let looked = looked.get_or_insert_with(HashMap::new);
    let now = Instant::now();
    match looked.get(content_hash) {
        Some(at) if now.duration_since(*at) < Duration::from_secs(1) => false,
        _ => {
            looked.insert(content_hash.to_string(), now);
            true
        }
    }
}

/// `slug`'s live version when that is a stored package.
pub async fn live_kata(db: &Db, slug: &str) -> Result<Option<&'static dyn Kata>, AppError> {
    match kata_packages::live_of(db, slug).await? {
        Some(content_hash) => Ok(Some(view(db, &content_hash).await?)),
        None => Ok(None),
    }
}

/// Every kata whose live version is a stored package, in catalogue order.
pub async fn live_katas(db: &Db) -> Result<Vec<&'static dyn Kata>, AppError> {
    let mut katas = Vec::new();
    for (_, content_hash) in kata_packages::live(db).await? {
        katas.push(view(db, &content_hash).await?);
    }
    Ok(katas)
}

/// The build's own version of `slug` (stored by the start-up sync), served where the live
/// version is not stored here (an older build's, during a rolling deploy); `None` for a kata
/// this build does not have.
pub async fn own_kata(db: &Db, slug: &str) -> Result<Option<&'static dyn Kata>, AppError> {
    match katas::builtin::find(slug) {
        Some(kata) => Ok(Some(view(db, kata.package().content_hash).await?)),
        None => Ok(None),
    }
}
