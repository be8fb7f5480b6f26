//! Packages published to the running service (`kata_packages`): each version's
//! files as one canonical archive, named by content hash — an instructor's upload, or a
//! build's CPU kata stored by its start-up sync ([`super::katas`]). A replica needs no code of
//! the kata compiled into it to serve such a version, nor a worker to grade it: this row is all.

use super::{Db, Tx, now_ms};

/// The SQL condition "version row `v` has its package stored here".
pub const PACKAGED: &str =
    "EXISTS (SELECT 1 FROM kata_packages p WHERE p.content_hash = v.content_hash)";

/// Stores `archive` under `content_hash` unless it is there already (the same files), with
/// the kind of kata it holds (`io` or `function`: which workers may grade it) and, for a
/// function kata, what its custom-input form starts from (`InputExamples` as JSON).
pub async fn store(
    tx: &mut Tx<'_>,
    content_hash: &str,
    archive: &[u8],
    kind: katas::KataKind,
    input_examples: Option<&str>,
) -> Result<(), sqlx::Error> {
    let kind = match kind {
        katas::KataKind::Io => "io",
        katas::KataKind::Cpu | katas::KataKind::Gpu => "function",
    };
    sqlx::query(
        "INSERT INTO kata_packages (content_hash, archive, stored_at, kind, input_examples)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (content_hash) DO NOTHING",
    )
    .bind(content_hash)
    .bind(archive)
    .bind(now_ms())
    .bind(kind)
    .bind(input_examples)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Whether a package is stored under `content_hash`.
pub async fn is_stored(db: &Db, content_hash: &str) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar::<_, String>(
        "SELECT content_hash FROM kata_packages WHERE content_hash = $1",
    )
    .bind(content_hash)
    .fetch_optional(db)
    .await
    .map(|found| found.is_some())
}

/// What the custom-input form of the version `content_hash` starts from, as stored with it
/// (`None` when nothing was).
pub async fn input_examples(db: &Db, content_hash: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar::<_, Option<String>>(
        "SELECT input_examples FROM kata_packages WHERE content_hash = $1",
    )
    .bind(content_hash)
    .fetch_optional(db)
    .await
    .map(Option::flatten)
}

/// The function packages whose custom-input form's examples no judge has made yet (a build's
/// own, stored at start-up; a statement fix stored before the build's were made; a version
/// from before they were stored) and that may be served: live for some kata, or a version not
/// retired (a candidate, an unlisted preview). The live ones first, in catalogue order. A GPU
/// kata takes no custom input, so its versions never await any.
pub async fn awaiting_examples(db: &Db) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT p.content_hash FROM kata_versions v
           JOIN katas k ON k.slug = v.slug
           JOIN kata_packages p ON p.content_hash = v.content_hash
          WHERE p.kind = 'function' AND k.kind <> 'gpu' AND p.input_examples IS NULL
            AND (v.number = k.live_version OR v.status <> 'retired')
          GROUP BY p.content_hash
          ORDER BY MIN(CASE WHEN v.number = k.live_version THEN 0 ELSE 1 END),
                   MIN(k.position), MIN(k.slug), MIN(v.number)",
    )
    .fetch_all(db)
    .await
}

/// Stores what a judge made for the form of `content_hash`, unless another replica's judge
/// did first (the same examples: one judge, one package).
pub async fn store_examples(db: &Db, content_hash: &str, json: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE kata_packages SET input_examples = $1
          WHERE content_hash = $2 AND input_examples IS NULL",
    )
    .bind(json)
    .bind(content_hash)
    .execute(db)
    .await?;
    Ok(())
}

/// The archive stored under `content_hash`.
pub async fn archive(db: &Db, content_hash: &str) -> Result<Option<Vec<u8>>, sqlx::Error> {
    sqlx::query_scalar("SELECT archive FROM kata_packages WHERE content_hash = $1")
        .bind(content_hash)
        .fetch_optional(db)
        .await
}

/// The live version of every kata `k` whose live version `v` is a stored package: its slug and
/// content hash.
fn live_sql(filter: &str) -> String {
    format!(
        "SELECT k.slug, v.content_hash FROM katas k
           JOIN kata_versions v ON v.slug = k.slug AND v.number = k.live_version
          WHERE {PACKAGED}{filter} ORDER BY k.position, k.slug"
    )
}

/// `(slug, content hash)` of every kata whose live version is a stored package, in catalogue
/// order (the build's katas by their place, then the published ones as they were first added).
pub async fn live(db: &Db) -> Result<Vec<(String, String)>, sqlx::Error> {
    sqlx::query_as(&live_sql("")).fetch_all(db).await
}

/// The content hash of `slug`'s live version when that is a stored package.
pub async fn live_of(db: &Db, slug: &str) -> Result<Option<String>, sqlx::Error> {
    let row: Option<(String, String)> = sqlx::query_as(&live_sql(" AND k.slug = $1"))
        .bind(slug)
        .fetch_optional(db)
        .await?;
    Ok(row.map(|(_, content_hash)| content_hash))
}

/// Adds the `katas` row a newly published kata needs, after every kata there is; a kata that
/// has one keeps it. `kind` is the job kind its submissions queue as.
pub async fn add_kata(
    tx: &mut Tx<'_>,
    meta: &katas::KataMeta,
    kind: &str,
) -> Result<(), sqlx::Error> {
    let topics =
        serde_json::to_string(&meta.topics).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    sqlx::query(
        "INSERT INTO katas (slug, title, summary, difficulty, kind, topics, position, listed)
         SELECT $1, $2, $3, $4, $5, $6, COALESCE(MAX(position), 0) + 1, 1 FROM katas
          WHERE true
         ON CONFLICT (slug) DO NOTHING",
    )
    .bind(&meta.slug)
    .bind(&meta.title)
    .bind(&meta.summary)
    .bind(meta.difficulty.as_str())
    .bind(kind)
    .bind(topics)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
