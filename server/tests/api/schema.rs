//! `migrations/sqlite/` and `migrations/postgres/` build the same schema: the same tables, the
//! same columns with mapped types and nullability, the same indexes over the same columns.
//! Runs in the PostgreSQL pass (`INFRAKATA_TEST_DB=postgres`), the one that has both backends.

use server::db::{self, Location};
use sqlx::Row as _;
use std::collections::BTreeSet;

/// (table, column, type in SQLite's words, not null)
type Columns = BTreeSet<(String, String, String, bool)>;
/// (index, table, its columns in order)
type Indexes = BTreeSet<(String, String, Vec<String>)>;

fn sqlite_word(pg_type: &str) -> String {
    match pg_type {
        "bigint" => "INTEGER",
        "text" => "TEXT",
        "double precision" => "REAL",
        "bytea" => "BLOB",
        other => other,
    }
    .to_string()
}

async fn sqlite_schema(path: &std::path::Path) -> (Columns, Indexes) {
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table'
           AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx_%'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let mut columns = Columns::new();
    for table in &tables {
        for row in sqlx::query("SELECT name, type, \"notnull\", pk FROM pragma_table_info($1)")
            .bind(table)
            .fetch_all(&pool)
            .await
            .unwrap()
        {
            let not_null = row.get::<i64, _>(2) != 0 || row.get::<i64, _>(3) != 0;
            columns.insert((table.clone(), row.get(0), row.get(1), not_null));
        }
    }
    let mut indexes = Indexes::new();
    // Named indexes only (unique ones included): PostgreSQL's primary keys and UNIQUE
    // constraints have their own.
    for row in sqlx::query(
        "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL",
    )
    .fetch_all(&pool)
    .await
    .unwrap()
    {
        let name: String = row.get(0);
        let cols: Vec<String> =
            sqlx::query_scalar("SELECT name FROM pragma_index_info($1) ORDER BY seqno")
                .bind(&name)
                .fetch_all(&pool)
                .await
                .unwrap();
        indexes.insert((name, row.get(1), cols));
    }
    (columns, indexes)
}

async fn postgres_schema(url: &str) -> (Columns, Indexes) {
    let pool = sqlx::PgPool::connect(url).await.unwrap();
    let mut columns = Columns::new();
    for row in sqlx::query(
        "SELECT table_name::text, column_name::text, data_type::text, is_nullable::text
         FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name NOT LIKE '\\_sqlx\\_%'",
    )
    .fetch_all(&pool)
    .await
    .unwrap()
    {
        let ty: String = row.get(2);
        let nullable: String = row.get(3);
        columns.insert((row.get(0), row.get(1), sqlite_word(&ty), nullable == "NO"));
    }
    let mut indexes = Indexes::new();
    for row in sqlx::query(
        "SELECT i.relname::text, t.relname::text,
           array_agg(a.attname::text ORDER BY array_position(x.indkey::int2[], a.attnum))
         FROM pg_index x
         JOIN pg_class i ON i.oid = x.indexrelid
         JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY (x.indkey::int2[])
         WHERE t.relnamespace = 'public'::regnamespace AND NOT x.indisprimary
           AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)
         GROUP BY i.relname, t.relname",
    )
    .fetch_all(&pool)
    .await
    .unwrap()
    {
        indexes.insert((row.get(0), row.get(1), row.get(2)));
    }
    (columns, indexes)
}

#[tokio::test]
async fn the_sqlite_and_postgres_migrations_build_the_same_schema() {
    if !crate::postgres::selected() {
        println!("skipping: compared in the PostgreSQL pass (INFRAKATA_TEST_DB=postgres)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("schema.db");
    db::open(Location::Sqlite(file.clone())).await.unwrap();
    let url = crate::postgres::fresh_database().await;
    db::open(Location::Postgres(url.clone())).await.unwrap();
    let (lite_cols, lite_idx) = sqlite_schema(&file).await;
    let (pg_cols, pg_idx) = postgres_schema(&url).await;
    assert!(lite_cols.len() > 40, "{lite_cols:?}");
    assert_eq!(
        lite_cols.symmetric_difference(&pg_cols).collect::<Vec<_>>(),
        Vec::<&(String, String, String, bool)>::new(),
        "columns differ (table, column, type, not null)"
    );
    assert!(!lite_idx.is_empty());
    assert_eq!(lite_idx, pg_idx, "indexes differ");
}

#[tokio::test]
async fn replicas_opening_one_database_at_once_migrate_it_once() {
    if !crate::postgres::selected() {
        println!("skipping: a PostgreSQL-only property (INFRAKATA_TEST_DB=postgres)");
        return;
    }
    let url = crate::postgres::fresh_database().await;
    // Each open also syncs the catalogue, as `serve` does: two replicas starting together.
    let open = |url: String| async move {
        let db = db::open(Location::Postgres(url)).await?;
        db::katas::sync(&db).await?;
        Ok::<_, anyhow::Error>(db)
    };
    let (a, b, c) = tokio::join!(open(url.clone()), open(url.clone()), open(url.clone()));
    let (a, _b, _c) = (a.unwrap(), b.unwrap(), c.unwrap());
    let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations")
        .fetch_one(&a)
        .await
        .unwrap();
    let files = std::fs::read_dir(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../migrations/postgres"
    ))
    .unwrap()
    .filter(|e| {
        e.as_ref()
            .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "sql"))
    })
    .count();
    assert_eq!(applied, files as i64);
    let listed: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM katas WHERE listed = 1")
        .fetch_one(&a)
        .await
        .unwrap();
    assert_eq!(listed, katas::catalogue::all().len() as i64);
    // Three syncs at once still number each package's version once: version 1, live.
    let versions: Vec<(String, i64)> =
        sqlx::query_as("SELECT slug, number FROM kata_versions ORDER BY slug")
            .fetch_all(&a)
            .await
            .unwrap();
    assert_eq!(versions.len(), katas::catalogue::all().len());
    assert!(versions.iter().all(|(_, n)| *n == 1), "{versions:?}");
    let live: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM katas WHERE live_version = 1")
        .fetch_one(&a)
        .await
        .unwrap();
    assert_eq!(live, katas::catalogue::all().len() as i64);
}

#[tokio::test]
async fn a_row_holding_an_unknown_word_is_an_error_never_a_default() {
    let app = crate::helpers::spawn_idle().await;
    let token = app.user("wanda").await;
    let id = app.submit_id(&token, "fast-power", "// x", "run").await;
    // `verdict` has no CHECK constraint: a value written by a newer or broken writer.
    sqlx::query("UPDATE submissions SET verdict = 'mostly_right' WHERE id = $1")
        .bind(id)
        .execute(&app.app.state.db)
        .await
        .unwrap();
    let resp = app.get(&token, &format!("/api/submissions/{id}")).await;
    assert_eq!(resp.status(), 500, "not silently shown as something else");
    let err = db::submissions::get(&app.app.state.db, id)
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("unknown verdict `mostly_right`"),
        "{err}"
    );
}
