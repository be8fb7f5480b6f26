//! The typed words the database stores: a submission's state, its mode and verdict, a job's kind,
//! a kata's slug. Parsed once at the edge of the storage layer, so code above it never compares
//! strings; a row holding a word we do not know is a decode error, never a silent default.

mod ids;

pub use ids::{InterviewId, SubmissionId, UserId};
use katas::{KataKind, Mode, Verdict};
use serde::{Deserialize, Serialize};
use sqlx::decode::Decode;
use sqlx::encode::{Encode, IsNull};
use sqlx::error::BoxDynError;
use sqlx::{Database, Type};
use std::fmt;

/// A closed set of values stored as text: each has one name, and only those names parse.
pub trait Word: Copy + Sized + 'static {
    /// What the value is, for the error on an unknown name ("submission state").
    const WHAT: &'static str;
    const ALL: &'static [Self];
    fn name(self) -> &'static str;

    fn from_name(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.name() == s)
    }
}

/// Where a submission is in its life; the names are part of the API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum State {
    Queued,
    Compiling,
    Running,
    Measuring,
    Done,
}

impl State {
    pub fn as_str(self) -> &'static str {
        self.name()
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::from_name(s)
    }
}

impl Word for State {
    const WHAT: &'static str = "submission state";
    const ALL: &'static [Self] = &[
        Self::Queued,
        Self::Compiling,
        Self::Running,
        Self::Measuring,
        Self::Done,
    ];
    fn name(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Compiling => "compiling",
            Self::Running => "running",
            Self::Measuring => "measuring",
            Self::Done => "done",
        }
    }
}

/// Where a job is in the queue (`jobs.state`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    Queued,
    /// A worker holds its lease.
    Leased,
    Done,
}

impl Word for JobState {
    const WHAT: &'static str = "job state";
    const ALL: &'static [Self] = &[Self::Queued, Self::Leased, Self::Done];
    fn name(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Leased => "leased",
            Self::Done => "done",
        }
    }
}

/// Which workers may take a job: the capability it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum JobKind {
    Cpu,
    Gpu,
}

impl JobKind {
    pub fn as_str(self) -> &'static str {
        self.name()
    }
}

impl From<KataKind> for JobKind {
    fn from(kind: KataKind) -> Self {
        match kind {
            // A stdin/stdout program needs no device: any worker grades it.
            KataKind::Cpu | KataKind::Io => Self::Cpu,
            KataKind::Gpu => Self::Gpu,
        }
    }
}

impl Word for JobKind {
    const WHAT: &'static str = "job kind";
    const ALL: &'static [Self] = &[Self::Cpu, Self::Gpu];
    fn name(self) -> &'static str {
        match self {
            Self::Cpu => "cpu",
            Self::Gpu => "gpu",
        }
    }
}

/// What a job's worker does: judge the submission (the verdict), or measure the performance
/// figure an accepted submit owes. A measurement is a job of its own, claimed only by
/// measuring loops, so no verdict ever waits behind one.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, utoipa::ToSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum JobPhase {
    #[default]
    Verdict,
    Measure,
}

impl Word for JobPhase {
    const WHAT: &'static str = "job phase";
    const ALL: &'static [Self] = &[Self::Verdict, Self::Measure];
    fn name(self) -> &'static str {
        match self {
            Self::Verdict => "verdict",
            Self::Measure => "measure",
        }
    }
}

impl Word for Mode {
    const WHAT: &'static str = "mode";
    const ALL: &'static [Self] = &[Self::Run, Self::Submit];
    fn name(self) -> &'static str {
        match self {
            Self::Run => "run",
            Self::Submit => "submit",
        }
    }
}

impl Word for Verdict {
    const WHAT: &'static str = "verdict";
    const ALL: &'static [Self] = &Verdict::ALL;
    fn name(self) -> &'static str {
        self.as_str()
    }
}

/// Whether learners see a kata: the status of the version served (`kata_versions.status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Availability {
    /// In the catalogue, open to everyone.
    Listed,
    /// Hidden from learners: only instructors and admins open it or submit to it (a preview).
    Unlisted,
    /// Readable by everyone, past work kept, but no new submissions and out of the catalogue.
    Retired,
}

impl Word for Availability {
    const WHAT: &'static str = "kata availability";
    const ALL: &'static [Self] = &[Self::Listed, Self::Unlisted, Self::Retired];
    fn name(self) -> &'static str {
        match self {
            Self::Listed => "listed",
            Self::Unlisted => "unlisted",
            Self::Retired => "retired",
        }
    }
}

/// Where a published version came from (`kata_versions.source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VersionSource {
    /// Compiled into a build of the service and published by its start-up sync.
    Build,
    /// Uploaded by an instructor or admin to the running service.
    Upload,
}

impl Word for VersionSource {
    const WHAT: &'static str = "version source";
    const ALL: &'static [Self] = &[Self::Build, Self::Upload];
    fn name(self) -> &'static str {
        match self {
            Self::Build => "build",
            Self::Upload => "upload",
        }
    }
}

/// A [`Word`] as a column value. `Mode` and `Verdict` belong to the `katas` crate, which knows
/// nothing of databases; this wrapper gives every word the same encode and strict decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stored<T>(pub T);

impl<DB: Database, T: Word> Type<DB> for Stored<T>
where
    str: Type<DB>,
{
    fn type_info() -> DB::TypeInfo {
        <str as Type<DB>>::type_info()
    }

    fn compatible(ty: &DB::TypeInfo) -> bool {
        <str as Type<DB>>::compatible(ty)
    }
}

impl<'q, DB: Database, T: Word> Encode<'q, DB> for Stored<T>
where
    &'q str: Encode<'q, DB>,
{
    fn encode_by_ref(
        &self,
        buf: &mut <DB as Database>::ArgumentBuffer<'q>,
    ) -> Result<IsNull, BoxDynError> {
        <&'q str as Encode<'q, DB>>::encode(self.0.name(), buf)
    }
}

impl<'r, DB: Database, T: Word> Decode<'r, DB> for Stored<T>
where
    &'r str: Decode<'r, DB>,
{
    fn decode(value: <DB as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
        let s = <&'r str as Decode<'r, DB>>::decode(value)?;
        T::from_name(s)
            .map(Stored)
            .ok_or_else(|| format!("unknown {} `{}` in a row", T::WHAT, s.escape_debug()).into())
    }
}

/// `FromRow` derives read a field through its `Stored` form (`#[sqlx(try_from = …)]`).
macro_rules! from_stored {
    ($($t:ty),*) => {$(
        impl From<Stored<$t>> for $t {
            fn from(s: Stored<$t>) -> Self {
                s.0
            }
        }
    )*};
}
from_stored!(State, JobKind, Mode, Verdict);

/// A kata's slug: lowercase ASCII letters, digits and single hyphens, at most 64 bytes (the rule
/// `kata.toml` slugs follow). Whether such a kata exists is the catalogue's question.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Slug(String);

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a kata slug (lowercase letters, digits and single hyphens)")]
pub struct NotASlug(String);

impl Slug {
    pub fn parse(s: &str) -> Result<Self, NotASlug> {
        if katas::meta::is_valid_slug(s) {
            Ok(Self(s.to_string()))
        } else {
            // Bounded: the offending text ends up in error messages.
            Err(NotASlug(s.chars().take(80).collect()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Slug {
    type Error = NotASlug;
    fn try_from(s: String) -> Result<Self, NotASlug> {
        Self::parse(&s)
    }
}

impl From<Slug> for String {
    fn from(s: Slug) -> Self {
        s.0
    }
}

/// Lets a set of slugs be asked about a `&str` (`Hash` and `Eq` are the string's).
impl std::borrow::Borrow<str> for Slug {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Slug {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Slug {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<DB: Database> Type<DB> for Slug
where
    str: Type<DB>,
{
    fn type_info() -> DB::TypeInfo {
        <str as Type<DB>>::type_info()
    }

    fn compatible(ty: &DB::TypeInfo) -> bool {
        <str as Type<DB>>::compatible(ty)
    }
}

impl<'q, DB: Database> Encode<'q, DB> for Slug
where
    String: Encode<'q, DB>,
{
    fn encode_by_ref(
        &self,
        buf: &mut <DB as Database>::ArgumentBuffer<'q>,
    ) -> Result<IsNull, BoxDynError> {
        <String as Encode<'q, DB>>::encode_by_ref(&self.0, buf)
    }
}

impl<'r, DB: Database> Decode<'r, DB> for Slug
where
    &'r str: Decode<'r, DB>,
{
    fn decode(value: <DB as Database>::ValueRef<'r>) -> Result<Self, BoxDynError> {
        Ok(Self::parse(<&'r str as Decode<'r, DB>>::decode(value)?)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_round_trips_through_its_name() {
        fn check<T: Word + PartialEq + fmt::Debug>() {
            for v in T::ALL {
                assert_eq!(T::from_name(v.name()), Some(*v));
            }
            assert_eq!(T::from_name("Queued "), None);
        }
        check::<State>();
        check::<JobKind>();
        check::<Mode>();
        check::<Verdict>();
    }

    #[test]
    fn word_names_match_the_api_names() {
        for v in State::ALL {
            assert_eq!(serde_json::to_value(v).unwrap(), v.name());
        }
        for v in Mode::ALL {
            assert_eq!(serde_json::to_value(v).unwrap(), v.name());
        }
        for v in JobKind::ALL {
            assert_eq!(serde_json::to_value(v).unwrap(), v.name());
        }
    }

    #[tokio::test]
    async fn an_unknown_word_in_a_row_is_an_error_not_a_default() {
        let db = sqlx::SqlitePool::connect("sqlite::memory:").await.unwrap();
        let known: Stored<State> = sqlx::query_scalar("SELECT 'measuring'")
            .fetch_one(&db)
            .await
            .unwrap();
        assert_eq!(known.0, State::Measuring);
        let err = sqlx::query_scalar::<_, Stored<State>>("SELECT 'bogus'")
            .fetch_one(&db)
            .await
            .unwrap_err();
        assert!(
            err.to_string().contains("unknown submission state `bogus`"),
            "{err}"
        );
        let err = sqlx::query_scalar::<_, Slug>("SELECT '../x'")
            .fetch_one(&db)
            .await
            .unwrap_err();
        assert!(err.to_string().contains("not a kata slug"), "{err}");
        let kind: Stored<JobKind> = sqlx::query_scalar("SELECT $1")
            .bind(Stored(JobKind::Gpu))
            .fetch_one(&db)
            .await
            .unwrap();
        assert_eq!(kind.0, JobKind::Gpu);
    }

    #[test]
    fn slugs_are_parsed_not_trusted() {
        assert_eq!(Slug::parse("fast-power").unwrap().as_str(), "fast-power");
        for bad in [
            "",
            "Fast",
            "a--b",
            "-a",
            "a-",
            "../etc",
            "a b",
            &"a".repeat(65),
        ] {
            assert!(Slug::parse(bad).is_err(), "{bad:?}");
        }
        assert!(serde_json::from_str::<Slug>("\"x/y\"").is_err());
    }
}
