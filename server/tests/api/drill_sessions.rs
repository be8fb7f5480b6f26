//! Practising a set as a session: a random session of N distinct items, carried from one
//! attempt to the next through the forms, and "next item" after any result.

use crate::browser::{Browser, csrf_of};
use crate::helpers::spawn_idle;
use katas_drills::Key;

fn location(resp: &reqwest::Response) -> String {
    resp.headers()["location"].to_str().unwrap().to_string()
}

async fn attempt_row(app: &crate::helpers::TestApp, id: i64) -> (String, Key) {
    let (item, key): (String, String) =
        sqlx::query_as("SELECT item, answer_key FROM drill_attempts WHERE id = $1")
            .bind(id)
            .fetch_one(&app.app.state.db)
            .await
            .unwrap();
    (item, serde_json::from_str(&key).unwrap())
}

fn id_of(url: &str) -> i64 {
    url.trim_start_matches("/drills/attempts/")
        .split('?')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn a_random_session_walks_distinct_items_then_next_keeps_going() {
    let app = spawn_idle().await;
    let b = Browser::new(&app);
    b.signup("ines", "long enough pw").await;
    let set_page = b.page("/drills/python-gil").await;
    assert!(set_page.contains("Random session"), "{set_page}");
    let csrf = csrf_of(&set_page);

    let resp = b
        .post_form("/drills/python-gil/next", &[("csrf", &csrf), ("n", "3")])
        .await;
    assert_eq!(resp.status(), 303);
    let mut at = location(&resp);
    let mut seen = Vec::new();
    for left in (0..3).rev() {
        let (item, key) = attempt_row(&app, id_of(&at)).await;
        assert!(!seen.contains(&item), "{item} twice in one session");
        seen.push(item.clone());
        let question = b.page(&at).await;
        let queue = at.split_once("?queue=").map_or("", |(_, q)| q).to_string();
        assert_eq!(queue.split(',').filter(|q| !q.is_empty()).count(), left);
        assert!(question.contains(&format!(r#"name="queue" value="{queue}""#)));
        // Answer through the form, carrying the queue.
        let is_choice = matches!(key.body, katas_drills::KeyBody::Choice { .. });
        let mut form = vec![
            ("csrf".to_string(), csrf.clone()),
            ("queue".to_string(), queue.clone()),
        ];
        for (i, p) in key.model_response().parts.into_iter().enumerate() {
            form.push((
                if is_choice {
                    "pick".into()
                } else {
                    format!("p{i}")
                },
                p,
            ));
        }
        let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let resp = b.post_form(&at, &pairs).await;
        assert_eq!(resp.status(), 303);
        let result_at = location(&resp);
        assert_eq!(result_at, at, "the result keeps the session");
        let result = b.page(&result_at).await;
        assert!(result.contains("Next item"), "{result}");
        assert_eq!(result.contains(&format!(r#"data-left="{left}""#)), left > 0);
        let resp = b
            .post_form(
                "/drills/python-gil/next",
                &[("csrf", &csrf), ("queue", &queue), ("after", &item)],
            )
            .await;
        assert_eq!(resp.status(), 303);
        at = location(&resp);
    }
    // After the session, "next item" still starts another item, never the one just done.
    let (item, _) = attempt_row(&app, id_of(&at)).await;
    assert!(!at.contains("?queue="), "{at}");
    assert_ne!(Some(&item), seen.last());

    // A queue naming anything but the set's items is ignored.
    let resp = b
        .post_form(
            "/drills/python-gil/next",
            &[("csrf", &csrf), ("queue", "no-such-item,../x")],
        )
        .await;
    assert_eq!(resp.status(), 303);
    assert!(!location(&resp).contains("?queue="));
}
