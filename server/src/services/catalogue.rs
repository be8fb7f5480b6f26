//! Which katas a user may see and submit to: the served version's [`Availability`]. Listed
//! katas are everyone's; an unlisted one exists only for instructors and admins (to anyone else
//! it is an unknown kata, 404), who may open it and submit to it as a learner would; a retired
//! one stays readable with its past work but takes no new submissions (409) and leaves the
//! catalogue. Which statement text is served — titles, body and hints — is decided here too.
//! The catalogue is every kata whose package is stored — the build's own, published by the
//! start-up sync, and the ones published to the service ([`super::packages`]) — read from the
//! database on every replica: serving a kata runs none of its code.

use crate::db::kata_versions::Statements;
use crate::db::served::Served;
use crate::db::{kata_availability, served, users};
use crate::domain::Availability;
use crate::domain::UserId;
use crate::error::AppError;
use crate::services::submissions::unknown_kata;
use crate::state::AppState;
use katas::statement::Statement;
use katas::{Kata, Lang};
use std::collections::HashMap;

/// The catalogue as a viewer sees it, in order: listed katas, and for staff the unlisted too,
/// each with its availability.
pub async fn listing(
    state: &AppState,
    staff: bool,
) -> Result<Vec<(&'static dyn Kata, Availability)>, AppError> {
    let availability = kata_availability::all(&state.db).await?;
    Ok(every_kata(state)
        .await?
        .into_iter()
        .map(|k| {
            let a = availability
                .get(&k.meta().slug)
                .copied()
                .unwrap_or(Availability::Listed);
            (k, a)
        })
        .filter(|(_, a)| match a {
            Availability::Listed => true,
            Availability::Unlisted => staff,
            Availability::Retired => false,
        })
        .collect())
}

/// Every kata served, whatever its availability, each as its stored version is served (a
/// build's own kata is stored by the start-up sync like any upload): the katas whose live
/// version is stored, in catalogue order, then any kata of this build whose live version is
/// not (an older build's, during a rolling deploy) as this build's own.
pub async fn every_kata(state: &AppState) -> Result<Vec<&'static dyn Kata>, AppError> {
    let mut all = super::packages::live_katas(&state.db).await?;
    for compiled in katas::builtin::all() {
        let slug = &compiled.meta().slug;
        if !all.iter().any(|k| &k.meta().slug == slug)
            && let Some(own) = super::packages::own_kata(&state.db, slug).await?
        {
            all.push(own);
        }
    }
    Ok(all)
}

/// Kata `slug` as its version is served, whatever its availability (callers that show it to
/// learners go through [`open`]): its live version, else this build's own (see
/// [`every_kata`]). Either is read from its stored package, so no kata's code runs here.
pub async fn find(state: &AppState, slug: &str) -> Result<&'static dyn Kata, AppError> {
    served_kata(state, slug)
        .await?
        .ok_or_else(|| unknown_kata(slug))
}

/// [`find`], `None` for a kata no version of which is served here.
async fn served_kata(state: &AppState, slug: &str) -> Result<Option<&'static dyn Kata>, AppError> {
    if let Some(kata) = super::packages::live_kata(&state.db, slug).await? {
        return Ok(Some(kata));
    }
    super::packages::own_kata(&state.db, slug).await
}

/// Kata `slug` if the viewer may open it, with its availability.
pub async fn open(
    state: &AppState,
    slug: &str,
    staff: bool,
) -> Result<(&'static dyn Kata, Availability), AppError> {
    let kata = find(state, slug).await?;
    let availability = kata_availability::of(&state.db, slug).await?;
    if availability == Availability::Unlisted && !staff {
        return Err(unknown_kata(slug));
    }
    Ok((kata, availability))
}

/// The statement of the version of `kata` served, in `lang`: an uploaded statement fix when
/// one is live, else its package's.
pub async fn statement(
    state: &AppState,
    kata: &dyn Kata,
    lang: Lang,
) -> Result<Statement, AppError> {
    let slug = &kata.meta().slug;
    let served = served::served(&state.db, slug).await?;
    let uploaded = uploaded(state, slug, served.as_ref()).await?;
    Ok(served_statement(kata, uploaded.as_ref(), lang))
}

/// The statements uploaded with `served`, the version of `slug` served; `None` when that
/// version's statements are its package's (or the kata was never published).
async fn uploaded(
    state: &AppState,
    slug: &str,
    served: Option<&Served>,
) -> Result<Option<Statements>, AppError> {
    match served {
        Some(s) if s.stored_statements => Ok(served::statements(&state.db, slug, s.number).await?),
        _ => Ok(None),
    }
}

/// The one rule for which statement text learners read: the upload when the served version
/// has one, else its package's. Every title, body and hint shown goes through here,
/// so a statement fix changes them all at once.
fn served_statement(kata: &dyn Kata, uploaded: Option<&Statements>, lang: Lang) -> Statement {
    match uploaded {
        Some(stored) => Statement::parse(match lang {
            Lang::En => &stored.en,
            Lang::Zh => &stored.zh,
        }),
        None => kata.statement_in(lang),
    }
}

/// A kata's title as `statement` gives it (its `# ` line); a statement without one falls back
/// to `kata.toml`'s rather than showing a blank heading.
pub fn title(kata: &dyn Kata, statement: &Statement) -> String {
    if statement.title.is_empty() {
        kata.meta().title.clone()
    } else {
        statement.title.clone()
    }
}

/// The served title of the kata `slug` in `lang`; `None` for a kata no version of which is
/// served here (past work on a kata since removed).
pub async fn served_title(
    state: &AppState,
    slug: &str,
    lang: Lang,
) -> Result<Option<String>, AppError> {
    let Some(kata) = served_kata(state, slug).await? else {
        return Ok(None);
    };
    Ok(Some(title(kata, &statement(state, kata, lang).await?)))
}

/// The served titles of `katas` in `lang`, in the same order. The versions served are read once
/// for the whole list; only katas serving an upload cost a further query.
pub async fn titles(
    state: &AppState,
    katas: &[&'static dyn Kata],
    lang: Lang,
) -> Result<Vec<String>, AppError> {
    let served = served::all(&state.db).await?;
    let mut titles = Vec::with_capacity(katas.len());
    for kata in katas {
        let slug = &kata.meta().slug;
        let uploaded = uploaded(state, slug, served.get(slug)).await?;
        titles.push(title(
            *kata,
            &served_statement(*kata, uploaded.as_ref(), lang),
        ));
    }
    Ok(titles)
}

/// The served title of every kata in one language, read once by a page that names several
/// (lists, history, links), so every page shows the title a statement fix gave.
#[derive(Debug, Clone)]
pub struct Titles(HashMap<String, String>);

impl Titles {
    /// The served title of the kata `slug`, or the slug itself for a kata this build does not
    /// have (past work on a kata since removed).
    pub fn of(&self, slug: &str) -> String {
        self.0
            .get(slug)
            .cloned()
            .unwrap_or_else(|| slug.to_string())
    }
}

/// [`Titles`] of the whole catalogue in `lang`.
pub async fn served_titles(state: &AppState, lang: Lang) -> Result<Titles, AppError> {
    let all = every_kata(state).await?;
    let titles = titles(state, &all, lang).await?;
    Ok(Titles(
        all.iter()
            .map(|k| k.meta().slug.clone())
            .zip(titles)
            .collect(),
    ))
}

/// How many hints of `kata` a learner may reveal: the served statement's, which a statement
/// fix may change. The lint keeps both languages' counts equal, so English answers for both.
pub async fn hint_count(state: &AppState, kata: &dyn Kata) -> Result<usize, AppError> {
    Ok(statement(state, kata, Lang::En).await?.hints().len())
}

/// Refuses a submission to `slug` by `user_id` unless the kata takes one from them.
pub async fn check_submittable(
    state: &AppState,
    slug: &str,
    user_id: UserId,
) -> Result<(), AppError> {
    match kata_availability::of(&state.db, slug).await? {
        Availability::Listed => Ok(()),
        Availability::Unlisted if users::is_staff(&state.db, user_id).await? => Ok(()),
        Availability::Unlisted => Err(unknown_kata(slug)),
        Availability::Retired => Err(retired(slug)),
    }
}

fn retired(slug: &str) -> AppError {
    AppError::Conflict(format!(
        "the kata `{slug}` is retired: its statement and your past work stay readable, but it \
         takes no new submissions"
    ))
    .zh(format!(
        "题目 `{slug}` 已停用：题面和你过去的代码仍可查看，但不再接受新的提交"
    ))
}
