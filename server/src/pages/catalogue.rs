//! `/`: the catalogue, filterable by topic and difficulty, with the learner's solved marks.

use super::i18n::{Text, kata_summary};
use super::{Layout, render};
use crate::auth::Viewer;
use crate::db::progress;
use crate::domain::Slug;
use crate::error::AppError;
use crate::state::AppState;
use askama::Template;
use axum::extract::{Query, State};
use axum::response::Response;
use serde::Deserialize;
use std::collections::{BTreeSet, HashSet};

#[derive(Debug, Deserialize, Default)]
pub struct Filter {
    topic: Option<String>,
    difficulty: Option<String>,
}

#[derive(Debug)]
struct Card {
    slug: String,
    title: String,
    summary: String,
    difficulty: &'static str,
    kind: &'static str,
    topics: Vec<String>,
    solved: bool,
    /// Shown to staff only: learners do not see this kata.
    unlisted: bool,
}

/// A filter chip: a link that sets (or clears) one parameter and keeps the other.
#[derive(Debug)]
struct Chip {
    label: String,
    href: String,
    active: bool,
}

#[derive(Template)]
#[template(path = "catalogue.html")]
struct CataloguePage {
    layout: Layout,
    cards: Vec<Card>,
    topics: Vec<Chip>,
    difficulties: Vec<Chip>,
    solved: usize,
    total: usize,
    filtered: bool,
}

fn href(topic: Option<&str>, difficulty: Option<&str>) -> String {
    let mut params = Vec::new();
    if let Some(t) = topic {
        params.push(format!("topic={}", super::encode(t)));
    }
    if let Some(d) = difficulty {
        params.push(format!("difficulty={}", super::encode(d)));
    }
    if params.is_empty() {
        "/".into()
    } else {
        format!("/?{}", params.join("&"))
    }
}

pub async fn index(
    State(state): State<AppState>,
    viewer: Viewer,
    Query(filter): Query<Filter>,
) -> Result<Response, AppError> {
    let solved: HashSet<Slug> = match &viewer.user {
        Some(u) => progress::solved(&state.db, u.id).await?,
        None => HashSet::new(),
    };
    let topic = filter.topic.as_deref().filter(|t| !t.is_empty());
    let difficulty = filter.difficulty.as_deref().filter(|d| !d.is_empty());
    let staff = viewer.user.as_ref().is_some_and(|u| u.role.is_staff());
    let listing = crate::services::catalogue::listing(&state, staff).await?;
    let all: Vec<&'static dyn katas::Kata> = listing.iter().map(|(k, _)| *k).collect();
    let unlisted: HashSet<&str> = listing
        .iter()
        .filter(|(_, a)| *a == crate::domain::Availability::Unlisted)
        .map(|(k, _)| k.meta().slug.as_str())
        .collect();
    let lang = viewer.lang;
    let t = Text::of(lang);
    let titles = crate::services::catalogue::titles(&state, &all, lang).await?;
    let cards: Vec<Card> = all
        .iter()
        .zip(titles)
        .filter(|(k, _)| topic.is_none_or(|t| k.meta().topics.iter().any(|x| x == t)))
        .filter(|(k, _)| difficulty.is_none_or(|d| k.meta().difficulty.as_str() == d))
        .map(|(k, title)| (k, k.meta(), title))
        .map(|(k, m, title)| Card {
            slug: m.slug.clone(),
            title,
            summary: kata_summary(*k, lang).to_string(),
            difficulty: m.difficulty.as_str(),
            kind: m.kind.as_str(),
            topics: m.topics.clone(),
            solved: solved.contains(m.slug.as_str()),
            unlisted: unlisted.contains(m.slug.as_str()),
        })
        .collect();
    let all_topics: BTreeSet<&str> = all
        .iter()
        .flat_map(|k| k.meta().topics.iter().map(String::as_str))
        .collect();
    let mut topics = vec![Chip {
        label: t.all_topics.into(),
        href: href(None, difficulty),
        active: topic.is_none(),
    }];
    topics.extend(all_topics.into_iter().map(|x| Chip {
        label: t.topic_name(x).to_string(),
        href: href(Some(x), difficulty),
        active: topic == Some(x),
    }));
    let mut difficulties = vec![Chip {
        label: t.any_difficulty.into(),
        href: href(topic, None),
        active: difficulty.is_none(),
    }];
    difficulties.extend(["easy", "medium", "hard"].into_iter().map(|d| Chip {
        label: t.difficulty_str(d).to_string(),
        href: href(topic, Some(d)),
        active: difficulty == Some(d),
    }));
    render(&CataloguePage {
        layout: Layout::new(&viewer, "catalogue"),
        solved: all
            .iter()
            .filter(|k| solved.contains(k.meta().slug.as_str()))
            .count(),
        total: all.len(),
        filtered: topic.is_some() || difficulty.is_some(),
        cards,
        topics,
        difficulties,
    })
}
