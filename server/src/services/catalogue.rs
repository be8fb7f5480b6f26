//! Which katas a user may see and submit to: the served version's [`Availability`]. Listed
//! katas are everyone's; an unlisted one exists only for instructors and admins (to anyone else
//! it is an unknown kata, 404), who may open it and submit to it as a learner would; a retired
//! one stays readable with its past work but takes no new submissions (409) and leaves the
//! catalogue.

use crate::db::{kata_availability, served, users};
use crate::domain::Availability;
use crate::domain::UserId;
use crate::error::AppError;
use crate::services::submissions::unknown_kata;
use crate::state::AppState;
use katas::statement::Statement;
use katas::{Kata, Lang};

/// The catalogue as a viewer sees it, in order: listed katas, and for staff the unlisted too,
/// each with its availability.
pub async fn listing(
    state: &AppState,
    staff: bool,
) -> Result<Vec<(&'static dyn Kata, Availability)>, AppError> {
    let availability = kata_availability::all(&state.db).await?;
    Ok(katas::catalogue::all()
        .iter()
        .map(|k| {
            let a = availability
                .get(&k.meta().slug)
                .copied()
                .unwrap_or(Availability::Listed);
            (*k, a)
        })
        .filter(|(_, a)| match a {
            Availability::Listed => true,
            Availability::Unlisted => staff,
            Availability::Retired => false,
        })
        .collect())
}

/// Kata `slug` if the viewer may open it, with its availability.
pub async fn open(
    state: &AppState,
    slug: &str,
    staff: bool,
) -> Result<(&'static dyn Kata, Availability), AppError> {
    let kata = katas::catalogue::find(slug).ok_or_else(|| unknown_kata(slug))?;
    let availability = kata_availability::of(&state.db, slug).await?;
    if availability == Availability::Unlisted && !staff {
        return Err(unknown_kata(slug));
    }
    Ok((kata, availability))
}

/// The statement of the version of `kata` served, in `lang`: an uploaded statement fix when
/// one is live, else the one compiled in.
pub async fn statement(
    state: &AppState,
    kata: &dyn Kata,
    lang: Lang,
) -> Result<Statement, AppError> {
    let slug = &kata.meta().slug;
    if let Some(served) = served::served(&state.db, slug).await?
        && served.stored_statements
        && let Some(stored) = served::statements(&state.db, slug, served.number).await?
    {
        return Ok(Statement::parse(match lang {
            Lang::En => &stored.en,
            Lang::Zh => &stored.zh,
        }));
    }
    Ok(kata.statement_in(lang))
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
