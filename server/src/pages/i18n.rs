//! Every word the pages print, in each language, as one typed catalogue: a [`Text`] struct with
//! a field per string and one constant per language. A string missing from a language is a
//! compile error (a struct literal must name every field), and templates read fields
//! (`layout.t.log_in`), so there is no string-keyed lookup that could miss at run time.
//! Text with numbers in it is a method whose `match` on the language is exhaustive.
//!
//! Which language a request gets is decided in `auth::Viewer` (saved setting, then the
//! `ik_lang` cookie, then `Accept-Language`, then English).

use crate::domain::{Availability, SubmissionId};
use katas::{Difficulty, Kata, Lang, Verdict};
use std::borrow::Borrow;

/// A kata's catalogue sentence in `lang`.
pub fn kata_summary(kata: &dyn Kata, lang: Lang) -> &str {
    let meta = kata.meta();
    match lang {
        Lang::Zh if !meta.summary_zh.is_empty() => &meta.summary_zh,
        _ => &meta.summary,
    }
}

#[derive(Debug)]
pub struct Text {
    pub lang: Lang,
    // The layout (`base.html`).
    pub nav_catalogue: &'static str,
    pub nav_progress: &'static str,
    pub nav_drills: &'static str,
    pub nav_review: &'static str,
    pub nav_interview: &'static str,
    pub drill_stats_link: &'static str,
    pub nav_admin: &'static str,
    /// The drills, review and interview pages' words.
    pub practice: &'static super::i18n_practice::Practice,
    pub publishing: &'static super::i18n_publishing::Publishing,
    pub log_in: &'static str,
    pub log_out: &'static str,
    pub sign_up: &'static str,
    pub footer: &'static str,
    pub skip_to_content: &'static str,
    /// The language switch's accessible name.
    pub language: &'static str,
    // The catalogue.
    pub katas: &'static str,
    pub catalogue_lead: &'static str,
    pub topic: &'static str,
    pub difficulty: &'static str,
    pub all_topics: &'static str,
    pub any_difficulty: &'static str,
    pub solved_badge: &'static str,
    pub solved_badge_title: &'static str,
    pub no_match: &'static str,
    pub show_all: &'static str,
    pub clear_filters: &'static str,
    // Errors.
    pub error: &'static str,
    pub back_to_catalogue: &'static str,
    // History, leaderboard, progress.
    pub my_submissions: &'static str,
    pub no_submissions: &'static str,
    pub open_the_kata: &'static str,
    pub press_run_or_submit: &'static str,
    pub when: &'static str,
    pub mode: &'static str,
    pub verdict: &'static str,
    pub cases: &'static str,
    pub perf_ratio: &'static str,
    pub leaderboard: &'static str,
    pub leaderboard_lead: &'static str,
    pub nobody_solved: &'static str,
    pub be_the_first: &'static str,
    pub rank: &'static str,
    pub learner: &'static str,
    pub best_ratio: &'static str,
    pub accepted_submits: &'static str,
    pub first_solved: &'static str,
    pub you: &'static str,
    pub read_this_solution: &'static str,
    pub not_measured: &'static str,
    pub my_progress: &'static str,
    pub solved: &'static str,
    pub attempted: &'static str,
    pub katas_count: &'static str,
    pub kata: &'static str,
    pub status: &'static str,
    pub submissions: &'static str,
    pub last_activity: &'static str,
    pub status_solved: &'static str,
    pub status_attempted: &'static str,
    pub status_not_started: &'static str,
    pub mode_run: &'static str,
    pub mode_submit: &'static str,
    pub pending: &'static str,
    // Accounts.
    pub user_name: &'static str,
    pub password: &'static str,
    pub password_again: &'static str,
    pub new_here: &'static str,
    pub create_an_account: &'static str,
    pub signup_lead: &'static str,
    /// Before the allowed punctuation in the user-name rule (`1–40 letters, digits,`).
    pub name_rule: &'static str,
    /// Between the last two allowed characters (`or`).
    pub or: &'static str,
    pub password_rule: &'static str,
    pub have_an_account: &'static str,
    pub wrong_credentials: &'static str,
    pub passwords_differ: &'static str,
    pub bad_name: &'static str,
    // The solution and submission pages.
    pub reference_title: &'static str,
    pub reference_heading: &'static str,
    pub reference_lead: &'static str,
    pub concept: &'static str,
    pub submission: &'static str,
    pub by: &'static str,
    pub source: &'static str,
    pub back_to_kata: &'static str,
    // The admin page.
    pub service: &'static str,
    pub queued: &'static str,
    pub grading_now: &'static str,
    pub workers_seen: &'static str,
    pub workers: &'static str,
    pub no_gpu_worker: &'static str,
    pub gpu_workers_only: &'static str,
    /// After `infrakata worker` in the GPU note.
    pub advertises_it: &'static str,
    pub no_worker_yet: &'static str,
    pub start_one_with: &'static str,
    pub worker: &'static str,
    pub kind: &'static str,
    pub cores: &'static str,
    pub grades: &'static str,
    pub gpu: &'static str,
    pub last_seen: &'static str,
    pub built_in: &'static str,
    pub remote: &'static str,
    pub none: &'static str,
    pub kata_packages: &'static str,
    pub package_check: &'static str,
    pub complete: &'static str,
    pub open_in_editor: &'static str,
    pub cancelled: &'static str,
    pub not_graded: &'static str,
    pub not_graded_no_worker: &'static str,
    pub cancel_submission: &'static str,
    pub cancel_note: &'static str,
    pub more_failing: &'static str,
    pub jobs_not_done: &'static str,
    pub nothing_pending: &'static str,
    pub state: &'static str,
    pub attempts: &'static str,
    pub queued_at: &'static str,
    pub requeue: &'static str,
    pub cancel: &'static str,
    /// Punctuation between pieces of one sentence, which differs between the languages.
    pub colon: &'static str,
    pub full_stop: &'static str,
    pub open_paren: &'static str,
    pub close_paren: &'static str,
    /// For the page script: a cancel the server did not explain.
    pub cancel_failed: &'static str,
    /// For the page script, with `{status}`: the result could not be loaded.
    pub load_failed: &'static str,
    /// For the page script, with `{status}`: the server refused a submission without saying why.
    pub server_answered: &'static str,
    pub actions: &'static str,
    // The kata page, the result panel and the report.
    pub menu: &'static str,
    /// The main navigation's accessible name.
    pub main_nav: &'static str,
    /// The theme switch says what a click does, so its words follow the mode being shown:
    /// the short label, then the full name for screen readers and the tooltip.
    pub dark_mode: &'static str,
    pub light_mode: &'static str,
    pub to_dark_mode: &'static str,
    pub to_light_mode: &'static str,
    pub this_kata: &'static str,
    pub reference_unlocked: &'static str,
    pub unlocks_with_accepted: &'static str,
    pub solve_to_unlock: &'static str,
    pub next_kata: &'static str,
    pub gpu_banner_title: &'static str,
    pub gpu_banner: &'static str,
    pub workbench: &'static str,
    pub tab_statement: &'static str,
    pub tab_code: &'static str,
    pub tab_result: &'static str,
    pub hints: &'static str,
    pub resize_divider: &'static str,
    /// The grip between the editor and the result panel.
    pub resize_result: &'static str,
    pub your_solution: &'static str,
    pub note_local_draft: &'static str,
    pub note_draft: &'static str,
    pub note_last: &'static str,
    pub note_starter: &'static str,
    pub draft_saving: &'static str,
    pub draft_saved: &'static str,
    pub draft_offline: &'static str,
    pub reset_confirm: &'static str,
    pub reset_to_starter: &'static str,
    pub run: &'static str,
    pub submit: &'static str,
    pub actions_help: &'static str,
    pub login_to_run: &'static str,
    pub close_result: &'static str,
    pub no_cases_yet: &'static str,
    pub measuring_perf: &'static str,
    pub step_queued: &'static str,
    pub next_in_line: &'static str,
    pub step_compiling: &'static str,
    pub step_running: &'static str,
    pub step_measuring: &'static str,
    pub step_verdict: &'static str,
    pub reload_for_verdict: &'static str,
    pub perf_vs_reference: &'static str,
    pub gpu_performance: &'static str,
    pub gpu_performance_note: &'static str,
    pub case: &'static str,
    pub median: &'static str,
    pub rate: &'static str,
    pub pct_of_peak: &'static str,
    pub vs_reference: &'static str,
    pub suspect: &'static str,
    pub compiler_messages: &'static str,
    pub rustc_message: &'static str,
    pub failing_cases: &'static str,
    pub group: &'static str,
    pub outcome: &'static str,
    pub time: &'static str,
    pub input: &'static str,
    pub problem: &'static str,
    pub expected: &'static str,
    pub got: &'static str,
    pub note: &'static str,
    pub passed: &'static str,
    pub not_run: &'static str,
    pub program_printed: &'static str,
    pub mode_run_long: &'static str,
    pub mode_submit_long: &'static str,
    // Custom input: the kata page's third bottom tab, its report and the history.
    pub tab_custom: &'static str,
    /// A custom-input run's mode in the history and on its page.
    pub mode_custom: &'static str,
    pub mode_custom_long: &'static str,
    pub custom_lead: &'static str,
    pub custom_label: &'static str,
    pub run_custom: &'static str,
    pub reset_to_sample: &'static str,
    /// Heads the input's format: an example input for each entry point.
    pub custom_format: &'static str,
    pub use_example: &'static str,
    pub custom_none: &'static str,
    /// The same, for a stdin/stdout kata.
    pub custom_none_io: &'static str,
    pub custom_log_in: &'static str,
    pub custom_your_answer: &'static str,
    pub custom_reference_answer: &'static str,
    /// Where the program gave no answer to compare (it panicked, ran out of time, ...).
    pub custom_no_answer: &'static str,
    pub same_instructions: &'static str,
    pub cached: &'static str,
}

impl Text {
    pub fn of(lang: Lang) -> &'static Text {
        match lang {
            Lang::En => &EN,
            Lang::Zh => &ZH,
        }
    }

    /// `3 of 10 solved`. (Numbers as `Borrow`: askama passes a template's variables by
    /// reference and the results of calls by value.)
    pub fn solved_of(&self, solved: impl Borrow<usize>, total: impl Borrow<usize>) -> String {
        let (solved, total) = (solved.borrow(), total.borrow());
        match self.lang {
            Lang::En => format!("{solved} of {total} solved"),
            Lang::Zh => format!("已解决 {solved} / {total}"),
        }
    }

    pub fn password_too_short(&self, min: usize) -> String {
        match self.lang {
            Lang::En => format!("Choose a password of at least {min} characters."),
            Lang::Zh => format!("请设置至少 {min} 个字符的密码。"),
        }
    }

    pub fn password_too_long(&self, max: usize) -> String {
        match self.lang {
            Lang::En => format!("Passwords are at most {max} bytes."),
            Lang::Zh => format!("密码最多 {max} 个字节。"),
        }
    }

    pub fn name_taken(&self, name: &str) -> String {
        match self.lang {
            Lang::En => format!("A user named `{name}` already exists."),
            Lang::Zh => format!("用户名 `{name}` 已被占用。"),
        }
    }

    /// What the admin page's Requeue asks before it acts (a mistaken click re-grades).
    pub fn requeue_confirm(&self, id: impl Borrow<SubmissionId>) -> String {
        let id = id.borrow();
        match self.lang {
            Lang::En => format!(
                "Put submission #{id} back in the queue? It is graded again from the start, \
                 with fresh attempts."
            ),
            Lang::Zh => {
                format!("把提交 #{id} 重新放回队列吗？它会从头重新评测，尝试次数重新计算。")
            }
        }
    }

    /// What the admin page's Cancel asks before it acts: a cancelled job cannot be resumed.
    pub fn cancel_confirm(&self, id: impl Borrow<SubmissionId>) -> String {
        let id = id.borrow();
        match self.lang {
            Lang::En => format!(
                "Cancel submission #{id}? It will not be graded, and the learner reads that an \
                 administrator cancelled it (it does not count as an attempt)."
            ),
            Lang::Zh => format!(
                "取消提交 #{id} 吗？它不会被评测，学员会看到是管理员取消的（不算一次尝试）。"
            ),
        }
    }

    /// The kind of worker a queued job waits for (`gpu worker` → `GPU worker`).
    pub fn worker_kind(&self, waiting_for: &str) -> String {
        match (self.lang, waiting_for.split_once(' ')) {
            (Lang::Zh, Some((kind, "worker"))) => format!("{} 评测节点", kind.to_uppercase()),
            _ => crate::db::queue_state::waiting_for_display(waiting_for),
        }
    }

    /// Why the reference of `slug` is not shown yet.
    pub fn solution_locked(&self, slug: &str) -> String {
        match self.lang {
            Lang::En => format!(
                "The reference solution and concept notes of `{slug}` unlock once you have an \
                 accepted submit for it."
            ),
            Lang::Zh => format!("`{slug}` 的参考解答和原理笔记要在你的提交通过后才会解锁。"),
        }
    }

    /// The GPU banner's promise: how long a waiting submission may wait.
    pub fn gpu_banner_wait(&self, minutes: impl Borrow<u64>) -> String {
        let m = minutes.borrow();
        match self.lang {
            Lang::En => format!(
                "You can cancel it while it waits; after {m} minute{} it ends as not graded. Neither counts as an attempt.",
                if *m == 1 { "" } else { "s" }
            ),
            Lang::Zh => {
                format!("等待期间可以取消；{m} 分钟后它会以未评测结束。两者都不算一次尝试。")
            }
        }
    }

    /// `Hint 2 of 4`.
    /// The button that brings back the draft a past submission replaced in the editor.
    pub fn restore_draft(&self) -> &'static str {
        match self.lang {
            Lang::En => "Bring back my draft",
            Lang::Zh => "恢复我的草稿",
        }
    }

    /// Shown instead of the hints while an interview on this kata runs: there they cost points.
    pub fn hints_in_interview(&self, id: &i64) -> String {
        match self.lang {
            Lang::En => format!(
                "Hints for this kata are on the page of interview {id} while it runs; each one costs points."
            ),
            Lang::Zh => {
                format!("面试 {id} 进行期间，本题的提示只在面试页面提供，每看一条都会扣分。")
            }
        }
    }

    pub fn hint_of(&self, i: impl Borrow<usize>, n: impl Borrow<usize>) -> String {
        let (i, n) = (i.borrow(), n.borrow());
        match self.lang {
            Lang::En => format!("Hint {i} of {n}"),
            Lang::Zh => format!("提示 {i} / {n}"),
        }
    }

    /// The editor's note when it holds a past submission.
    pub fn note_submission(&self, id: impl Borrow<SubmissionId>) -> String {
        let id = id.borrow();
        match self.lang {
            Lang::En => format!("submission #{id}"),
            Lang::Zh => format!("第 {id} 号提交"),
        }
    }

    /// Above code written for an older version of the kata whose API has changed since.
    pub fn api_changed_note(
        &self,
        written_for: impl Borrow<i64>,
        current: impl Borrow<i64>,
    ) -> String {
        let (old, new) = (written_for.borrow(), current.borrow());
        match self.lang {
            Lang::En => format!(
                "This code was written for version {old} of the kata. Version {new}, served now, \
                 changed the API it is written against, so it may no longer compile. Your code is \
                 kept as it was: adapt it, or start again from the new starter."
            ),
            Lang::Zh => format!(
                "这段代码是为本题第 {old} 版写的。现在的第 {new} 版改动了它所用的接口，因此它可能无法再编译。\
                 你的代码原样保留：可以按新接口修改，也可以从新的初始代码重新开始。"
            ),
        }
    }

    /// The heading of the list of API changes.
    pub fn api_changes(&self) -> &'static str {
        match self.lang {
            Lang::En => "What changed",
            Lang::Zh => "改动了什么",
        }
    }

    /// The label of an item the new version removed, or added.
    pub fn api_removed_added(&self, removed: bool) -> &'static str {
        match (self.lang, removed) {
            (Lang::En, true) => "removed",
            (Lang::En, false) => "new",
            (Lang::Zh, true) => "已删除",
            (Lang::Zh, false) => "新增",
        }
    }

    /// The instructor's view of one kata: its heading.
    pub fn kata_stats_heading(&self, title: &str) -> String {
        match self.lang {
            Lang::En => format!("{title}: learners, by version"),
            Lang::Zh => format!("{title}：各版本的学习情况"),
        }
    }

    /// The instructor's view's column heads: version, attempts, learners, accept rate,
    /// verdicts, the case failed first most often, median time to a learner's first accept.
    pub fn kata_stats_columns(&self) -> [&'static str; 7] {
        match self.lang {
            Lang::En => [
                "Version",
                "Attempts",
                "Learners",
                "Accepted",
                "Verdicts",
                "Most common first failing case",
                "Median time to first accept",
            ],
            Lang::Zh => [
                "版本",
                "提交次数",
                "学习者",
                "通过率",
                "判题结果",
                "最常见的首个失败用例",
                "首次通过所用时间（中位数）",
            ],
        }
    }

    /// A version in the instructor's view; `None` is work from before versions were recorded.
    pub fn kata_version_label(&self, version: Option<i64>) -> String {
        match (self.lang, version) {
            (Lang::En, Some(v)) => format!("version {v}"),
            (Lang::Zh, Some(v)) => format!("第 {v} 版"),
            (Lang::En, None) => "before versions".into(),
            (Lang::Zh, None) => "版本记录之前".into(),
        }
    }

    /// What the kata page says of a kata that is not listed: a preview only staff see, or a
    /// retired kata that takes no submissions.
    pub fn availability_note(&self, a: Availability) -> Option<&'static str> {
        match (self.lang, a) {
            (_, Availability::Listed) => None,
            (Lang::En, Availability::Unlisted) => Some(
                "Unlisted: learners cannot see this kata. You are previewing it as a learner would; your submissions are graded as theirs would be.",
            ),
            (Lang::Zh, Availability::Unlisted) => Some(
                "未公开：学习者看不到这道题。你正在以学习者的视角预览它；你的提交会像学习者的一样评测。",
            ),
            (Lang::En, Availability::Retired) => Some(
                "Retired: this kata takes no new submissions. Its statement and your past work stay here to read.",
            ),
            (Lang::Zh, Availability::Retired) => {
                Some("已停用：这道题不再接受新的提交。题面和你过去的代码仍然可以在这里查看。")
            }
        }
    }

    /// The catalogue's mark on a kata only staff see.
    pub fn unlisted_badge(&self) -> &'static str {
        match self.lang {
            Lang::En => "unlisted",
            Lang::Zh => "未公开",
        }
    }

    /// The instructor view's availability control: its label, each choice's name, and the
    /// button.
    pub fn availability_words(
        &self,
    ) -> (
        &'static str,
        [(&'static str, &'static str); 3],
        &'static str,
    ) {
        match self.lang {
            Lang::En => (
                "Who sees this kata",
                [
                    ("listed", "listed (everyone)"),
                    ("unlisted", "unlisted (instructors only)"),
                    ("retired", "retired (readable, no submissions)"),
                ],
                "Save",
            ),
            Lang::Zh => (
                "谁能看到这道题",
                [
                    ("listed", "公开（所有人）"),
                    ("unlisted", "未公开（仅教师）"),
                    ("retired", "已停用（可查看，不可提交）"),
                ],
                "保存",
            ),
        }
    }

    /// The admin page's link to a kata's instructor view.
    pub fn learners_by_version(&self) -> &'static str {
        match self.lang {
            Lang::En => "learners by version",
            Lang::Zh => "各版本学习情况",
        }
    }

    /// The instructor's view with no attempt yet, and its download link.
    pub fn kata_stats_words(&self) -> (&'static str, &'static str, &'static str) {
        match self.lang {
            Lang::En => (
                "No learner has submitted this kata yet.",
                "Download as CSV",
                "Attempts are graded submits; runs, custom input and withdrawn submissions are not counted.",
            ),
            Lang::Zh => (
                "还没有学习者提交过这道题。",
                "下载 CSV",
                "提交次数只计已评测的正式提交；运行、自定义输入和撤回的提交都不计入。",
            ),
        }
    }

    /// A span of time: `45 s`, `12 min`, `3.5 h`, `2.0 days`.
    pub fn span(&self, ms: i64) -> String {
        let s = ms.max(0) as f64 / 1000.0;
        let (value, en, zh) = match s {
            s if s < 60.0 => (format!("{s:.0}"), "s", "秒"),
            s if s < 3600.0 => (format!("{:.0}", s / 60.0), "min", "分钟"),
            s if s < 86_400.0 => (format!("{:.1}", s / 3600.0), "h", "小时"),
            s => (format!("{:.1}", s / 86_400.0), "days", "天"),
        };
        match self.lang {
            Lang::En => format!("{value} {en}"),
            Lang::Zh => format!("{value} {zh}"),
        }
    }

    /// The queue position with a `{n}` the page script fills in: ` · {n} ahead of you`.
    pub fn ahead_of_you_template(&self) -> &'static str {
        match self.lang {
            Lang::En => " · {n} ahead of you",
            Lang::Zh => " · 前面还有 {n} 个",
        }
    }

    pub fn ahead_of_you(&self, n: impl Borrow<i64>) -> String {
        let n = n.borrow();
        self.ahead_of_you_template().replace("{n}", &n.to_string())
    }

    /// ` · waiting for a GPU worker`.
    pub fn waiting_for(&self, what: &str) -> String {
        match self.lang {
            Lang::En => format!(" · waiting for a {what}"),
            // A space between Chinese and a Latin word (`等待 GPU 评测节点`), as elsewhere.
            Lang::Zh if what.starts_with(|c: char| c.is_ascii_alphanumeric()) => {
                format!(" · 正在等待 {what}")
            }
            Lang::Zh => format!(" · 正在等待{what}"),
        }
    }

    /// The limits line of a kata: `1000 ms per case · 64 MiB memory · 1 thread`.
    pub fn limits(&self, case_ms: u64, memory_mb: u64, threads: u32) -> String {
        match self.lang {
            Lang::En => format!(
                "{case_ms} ms per case · {memory_mb} MiB memory · {threads} thread{}",
                if threads == 1 { "" } else { "s" }
            ),
            Lang::Zh => {
                format!("每个用例 {case_ms} ms · 内存 {memory_mb} MiB · {threads} 个线程")
            }
        }
    }

    /// `45 / 47 cases passed`.
    pub fn cases_passed(&self, passed: impl Borrow<usize>, total: impl Borrow<usize>) -> String {
        let (passed, total) = (passed.borrow(), total.borrow());
        match self.lang {
            Lang::En => format!("{passed} / {total} cases passed"),
            Lang::Zh => format!("{passed} / {total} 个用例通过"),
        }
    }

    /// `1 234 vs 1 000 instructions on 3 performance cases (callgrind)`.
    pub fn perf_detail(&self, mine: &str, reference: &str, cases: impl Borrow<usize>) -> String {
        let cases = cases.borrow();
        match self.lang {
            Lang::En => format!(
                "{mine} vs {reference} instructions on {cases} performance cases (callgrind)"
            ),
            Lang::Zh => format!(
                "{cases} 个性能用例上执行 {mine} 条指令，参考实现 {reference} 条（callgrind）"
            ),
        }
    }

    /// How a performance ratio reads: `12% fewer instructions than the reference`.
    pub fn perf_summary(&self, ratio: f64) -> String {
        let pct = ((1.0 - ratio).abs() * 100.0).round();
        match self.lang {
            _ if (ratio - 1.0).abs() < 0.005 => self.same_instructions.into(),
            Lang::En if ratio < 1.0 => format!("{pct:.0}% fewer instructions than the reference"),
            Lang::En => format!("{pct:.0}% more instructions than the reference"),
            Lang::Zh if ratio < 1.0 => format!("指令数比参考实现少 {pct:.0}%"),
            Lang::Zh => format!("指令数比参考实现多 {pct:.0}%"),
        }
    }

    /// `2 warnings`.
    pub fn warnings(&self, n: impl Borrow<usize>) -> String {
        let n = n.borrow();
        match self.lang {
            Lang::En if *n == 1 => "1 warning".into(),
            Lang::En => format!("{n} warnings"),
            Lang::Zh => format!("{n} 条警告"),
        }
    }

    /// `3 failed · 12 passed · 32 not run` (parts with 0 left out, except passed).
    pub fn case_counts(
        &self,
        failed: impl Borrow<usize>,
        passed: impl Borrow<usize>,
        not_run: impl Borrow<usize>,
    ) -> String {
        let (failed, passed, not_run) = (failed.borrow(), passed.borrow(), not_run.borrow());
        // English puts the count first (`3 failed`), Chinese the word (`失败 3`).
        let part = |n: &usize, en: &str, zh: &str| match self.lang {
            Lang::En => format!("{n} {en}"),
            Lang::Zh => format!("{zh} {n}"),
        };
        let mut parts = Vec::new();
        if *failed > 0 {
            parts.push(part(failed, "failed", "失败"));
        }
        parts.push(part(passed, "passed", "通过"));
        if *not_run > 0 {
            parts.push(part(not_run, "not run", "未运行"));
        }
        parts.join(" · ")
    }

    /// `line 3, column 7` (or `line 3`).
    pub fn place(&self, line: u32, column: Option<u32>) -> String {
        match (self.lang, column) {
            (Lang::En, Some(c)) => format!("line {line}, column {c}"),
            (Lang::En, None) => format!("line {line}"),
            (Lang::Zh, Some(c)) => format!("第 {line} 行第 {c} 列"),
            (Lang::Zh, None) => format!("第 {line} 行"),
        }
    }

    /// `Compile 812 ms · run 95 ms`.
    pub fn compile_run(&self, compile: &str, run: &str) -> String {
        match self.lang {
            Lang::En => format!("Compile {compile} · run {run}"),
            Lang::Zh => format!("编译 {compile} · 运行 {run}"),
        }
    }

    /// `2 GPU jobs waiting`.
    pub fn gpu_jobs_waiting(&self, n: impl Borrow<i64>) -> String {
        let n = n.borrow();
        match self.lang {
            Lang::En if *n == 1 => "1 GPU job waiting".into(),
            Lang::En => format!("{n} GPU jobs waiting"),
            Lang::Zh => format!("{n} 个 GPU 任务在等待"),
        }
    }

    /// `3 problems` in a package check.
    pub fn problems(&self, n: usize) -> String {
        match self.lang {
            Lang::En if n == 1 => "1 problem".into(),
            Lang::En => format!("{n} problems"),
            Lang::Zh => format!("{n} 个问题"),
        }
    }

    /// How the history and a submission's page name its mode: a custom-input run is stored as
    /// a `run` with its input beside it, and is shown as what it is.
    pub fn submission_mode(&self, mode: katas::Mode, custom: bool) -> &'static str {
        match mode {
            katas::Mode::Run if custom => self.mode_custom,
            katas::Mode::Run => self.mode_run,
            katas::Mode::Submit => self.mode_submit,
        }
    }

    pub fn difficulty_name(&self, d: Difficulty) -> &'static str {
        match (self.lang, d) {
            (Lang::En, d) => d.as_str(),
            (Lang::Zh, Difficulty::Easy) => "简单",
            (Lang::Zh, Difficulty::Medium) => "中等",
            (Lang::Zh, Difficulty::Hard) => "困难",
        }
    }

    /// A difficulty named by its `kata.toml` spelling; unknown names come back as given.
    pub fn difficulty_str<'a>(&self, d: &'a str) -> &'a str {
        [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard]
            .into_iter()
            .find(|x| x.as_str() == d)
            .map_or(d, |x| self.difficulty_name(x))
    }

    /// A topic tag as the learner reads it. Tags are `kata.toml` keys (they stay in URLs and
    /// filters); the packages that list a topic name it (`[topic_names]`), the build's or a
    /// published one, so a new topic needs no change here. A tag no package names is shown as
    /// written.
    pub fn topic_name<'a>(&self, topic: &'a str) -> &'a str {
        katas::builtin::topic_name(topic, self.lang)
            .or_else(|| katas::io::served::topic_name(topic, self.lang))
            .unwrap_or(topic)
    }

    pub fn verdict_label(&self, v: Verdict) -> &'static str {
        match self.lang {
            Lang::En => v.label(),
            Lang::Zh => match v {
                Verdict::Accepted => "通过",
                Verdict::WrongAnswer => "答案错误",
                Verdict::CompileError => "编译错误",
                Verdict::RuntimeError => "运行时错误",
                Verdict::TimeLimitExceeded => "超出时间限制",
                Verdict::MemoryLimitExceeded => "超出内存限制",
                Verdict::OutputLimitExceeded => "超出输出限制",
                Verdict::InternalError => "内部错误",
                Verdict::InputRefused => "输入不被接受",
            },
        }
    }

    /// A case group's name (`sample`, `edge`, `random`, `performance`, `secret`) in this
    /// language.
    pub fn group_label(&self, g: katas::Group) -> &'static str {
        match (self.lang, g) {
            (Lang::En, g) => g.as_str(),
            (Lang::Zh, katas::Group::Sample) => "样例",
            (Lang::Zh, katas::Group::Edge) => "边界",
            (Lang::Zh, katas::Group::Random) => "随机",
            (Lang::Zh, katas::Group::Performance) => "性能",
            (Lang::Zh, katas::Group::Secret) => "隐藏",
        }
    }

    /// A submission's state while it has no verdict (`queued`, `compiling`, …) in this
    /// language; a word it does not know is shown as it came.
    pub fn state_label<'a>(&self, state: &'a str) -> &'a str {
        use crate::domain::State;
        let Some(st) = State::parse(state) else {
            return state;
        };
        match (self.lang, st) {
            (Lang::En, st) => st.as_str(),
            (Lang::Zh, State::Queued) => "排队中",
            (Lang::Zh, State::Compiling) => "编译中",
            (Lang::Zh, State::Running) => "运行中",
            (Lang::Zh, State::Measuring) => "测量中",
            (Lang::Zh, State::Done) => "已完成",
        }
    }

    /// A job's place in the queue on the admin page, in this language.
    pub fn job_state_label(&self, state: crate::domain::JobState) -> &'static str {
        use crate::domain::{JobState, Word};
        match (self.lang, state) {
            (Lang::En, st) => st.name(),
            (Lang::Zh, JobState::Queued) => "排队中",
            (Lang::Zh, JobState::Leased) => "已交给评测节点",
            (Lang::Zh, JobState::Done) => "已完成",
        }
    }

    /// `just now`, `42 s ago`, `5 min ago`, `3 h ago`, `2 days ago`.
    pub fn ago(&self, ms: i64, now_ms: i64) -> String {
        let s = (now_ms - ms).max(0) / 1000;
        match self.lang {
            Lang::En => super::view::ago(ms, now_ms),
            Lang::Zh => match s {
                0..=2 => "刚刚".into(),
                3..=59 => format!("{s} 秒前"),
                60..=3599 => format!("{} 分钟前", s / 60),
                3600..=86_399 => format!("{} 小时前", s / 3600),
                _ => format!("{} 天前", s / 86_400),
            },
        }
    }

    /// An HTTP status's title on the error page.
    pub fn status_title(&self, status: u16) -> Option<&'static str> {
        match self.lang {
            Lang::En => None,
            Lang::Zh => Some(match status {
                400 => "请求有误",
                401 => "需要登录",
                403 => "禁止访问",
                404 => "找不到页面",
                409 => "冲突",
                413 => "内容过大",
                422 => "无法处理",
                429 => "请求过于频繁",
                503 => "服务暂不可用",
                _ if status >= 500 => "服务器出错",
                _ => "出错了",
            }),
        }
    }
}

pub const EN: Text = Text {
    lang: Lang::En,
    nav_catalogue: "Catalogue",
    nav_progress: "Progress",
    nav_drills: "Drills",
    nav_review: "Review",
    nav_interview: "Interview",
    drill_stats_link: "Drill items and their answer statistics",
    nav_admin: "Admin",
    practice: &super::i18n_practice::EN,
    publishing: &super::i18n_publishing::EN,
    log_in: "Log in",
    log_out: "Log out",
    sign_up: "Sign up",
    footer: "InfraKata · AI-infrastructure interview katas, graded in a sandbox",
    skip_to_content: "Skip to the content",
    language: "Language",
    katas: "Katas",
    catalogue_lead: "Small, precisely specified problems from AI-infrastructure interviews — fast power, operator fusion, ring all-reduce, tensor views, tensor parallelism. Write Rust in the browser; a sandboxed grader runs hidden cases and compares your speed with the reference.",
    topic: "Topic",
    difficulty: "Difficulty",
    all_topics: "all topics",
    any_difficulty: "any difficulty",
    solved_badge: "✓ Solved",
    solved_badge_title: "You have an accepted submit",
    no_match: "No kata matches these filters.",
    show_all: "Show all",
    clear_filters: "Clear filters",
    error: "Error",
    back_to_catalogue: "Back to the catalogue",
    my_submissions: "My submissions",
    no_submissions: "No submissions yet.",
    open_the_kata: "Open the kata",
    press_run_or_submit: "and press Run or Submit.",
    when: "When",
    mode: "Mode",
    verdict: "Verdict",
    cases: "Cases",
    perf_ratio: "Perf. ratio",
    leaderboard: "Leaderboard",
    leaderboard_lead: "Best performance ratio among each learner's accepted submits: instructions spent in your functions on the performance cases ÷ the reference's. Lower is faster; below 1.00× beats the reference. Once you have solved the kata, each ratio links to that solution.",
    nobody_solved: "Nobody has solved this kata yet.",
    be_the_first: "Be the first.",
    rank: "Rank",
    learner: "Learner",
    best_ratio: "Best ratio",
    accepted_submits: "Accepted submits",
    first_solved: "First solved",
    you: "(you)",
    read_this_solution: "Read this solution",
    not_measured: "not measured",
    my_progress: "My progress",
    solved: "solved",
    attempted: "attempted",
    katas_count: "katas",
    kata: "Kata",
    status: "Status",
    submissions: "Submissions",
    last_activity: "Last activity",
    status_solved: "Solved",
    status_attempted: "Attempted",
    status_not_started: "Not started",
    mode_run: "run",
    mode_submit: "submit",
    pending: "Pending",
    user_name: "User name",
    password: "Password",
    password_again: "Password again",
    new_here: "New here?",
    create_an_account: "Create an account",
    signup_lead: "Solve katas, keep your history, and appear on the leaderboards.",
    name_rule: "1–40 letters, digits,",
    or: "or",
    password_rule: "at least 8 characters",
    have_an_account: "Already have an account?",
    wrong_credentials: "Wrong user name or password.",
    passwords_differ: "The two passwords differ.",
    bad_name: "User names are 1–40 letters, digits, `-`, `_` or `.`.",
    reference_title: "Reference",
    reference_heading: "Reference solution & concept notes",
    reference_lead: "Unlocked by your accepted submit. Compare approaches — the reference is one way, not the only one.",
    concept: "Concept",
    submission: "Submission",
    by: "by",
    source: "Source",
    back_to_kata: "Back to the kata",
    service: "Service",
    queued: "queued",
    grading_now: "grading now",
    workers_seen: "workers seen",
    workers: "Workers",
    no_gpu_worker: "No GPU worker is connected",
    gpu_workers_only: "GPU katas are graded only by a worker on a machine with an NVIDIA GPU",
    advertises_it: "there advertises it",
    no_worker_yet: "No worker has asked for work yet.",
    start_one_with: "Start one with",
    worker: "Worker",
    kind: "Kind",
    cores: "Cores",
    grades: "Grades",
    gpu: "GPU",
    last_seen: "Last seen",
    built_in: "built-in",
    remote: "remote",
    none: "none",
    kata_packages: "Kata packages",
    package_check: "Package check",
    complete: "complete",
    open_in_editor: "Open in the editor",
    cancelled: "Cancelled",
    not_graded: "Not graded",
    not_graded_no_worker: "Not graded: no worker took it",
    cancel_submission: "Cancel this submission",
    cancel_note: "It has not been graded yet; cancelling does not count as an attempt.",
    more_failing: "More failing cases",
    jobs_not_done: "Jobs not done",
    nothing_pending: "Nothing is waiting or being graded.",
    state: "State",
    attempts: "Attempts",
    queued_at: "Queued",
    requeue: "Requeue",
    cancel: "Cancel",
    colon: ": ",
    full_stop: ". ",
    open_paren: " (",
    close_paren: ")",
    cancel_failed: "cancelling failed",
    load_failed: "loading the result failed ({status})",
    server_answered: "the server answered {status}",
    actions: "Actions",
    menu: "Menu",
    main_nav: "Main",
    dark_mode: "Dark mode",
    light_mode: "Light mode",
    to_dark_mode: "Switch to dark mode",
    to_light_mode: "Switch to light mode",
    this_kata: "This kata",
    reference_unlocked: "✓ Reference & concept notes",
    unlocks_with_accepted: "Unlocks with an accepted submit",
    solve_to_unlock: "Reference & notes: solve to unlock",
    next_kata: "Next:",
    gpu_banner_title: "No GPU worker is connected.",
    gpu_banner: "This kata runs on a GPU: a submission waits in the queue until a GPU worker connects.",
    workbench: "Workbench",
    tab_statement: "Statement",
    tab_code: "Code",
    tab_result: "Result",
    hints: "Hints",
    resize_divider: "Resize the statement and the editor",
    resize_result: "Resize the editor and the result",
    your_solution: "Your solution",
    note_local_draft: "your unsaved draft from this browser",
    note_draft: "your draft",
    note_last: "your last attempt",
    note_starter: "the starter",
    draft_saving: "Saving…",
    draft_saved: "Draft saved",
    draft_offline: "Saved in this browser only: the server could not be reached",
    reset_confirm: "Replace your code with the starter? (Your submissions keep every earlier version.)",
    reset_to_starter: "Reset to starter",
    run: "Run",
    submit: "Submit",
    actions_help: "Run checks the sample cases; Submit runs every case. In the editor, Escape releases the keyboard.",
    login_to_run: "Log in to run and submit",
    close_result: "Close the result panel",
    no_cases_yet: "No cases yet: press Run or Submit.",
    measuring_perf: "Measuring performance against the reference…",
    step_queued: "Queued",
    next_in_line: "next in line",
    step_compiling: "Compiling",
    step_running: "Running cases",
    step_measuring: "Measuring",
    step_verdict: "Verdict",
    reload_for_verdict: "Reload the page to see the verdict.",
    perf_vs_reference: "Performance vs the reference:",
    gpu_performance: "GPU performance",
    gpu_performance_note: "Median of 15 timed runs with fresh inputs and a cold L2 (CUDA events); % of the copy bandwidth the worker measured on its device; speed relative to the reference kernel.",
    case: "Case",
    median: "Median",
    rate: "Rate",
    pct_of_peak: "% of peak",
    vs_reference: "vs reference",
    suspect: "suspect: faster than the device can be",
    compiler_messages: "Compiler messages",
    rustc_message: "rustc's message",
    failing_cases: "Failing cases",
    group: "Group",
    outcome: "Outcome",
    time: "Time",
    input: "Input",
    problem: "Problem",
    expected: "Expected",
    got: "Got",
    note: "Note",
    passed: "Passed",
    not_run: "Not run",
    program_printed: "What your program printed",
    mode_run_long: "Run (sample cases)",
    mode_submit_long: "Submit (all cases)",
    tab_custom: "Custom input",
    mode_custom: "custom input",
    mode_custom_long: "Custom input (one case of yours)",
    custom_lead: "Run your program on an input of your own and see its answer beside the reference's. It is not an attempt and never counts towards solving.",
    custom_label: "Input (the kata's input as JSON)",
    run_custom: "Run custom",
    reset_to_sample: "Reset to the sample",
    custom_format: "Input format: an example for each entry point",
    use_example: "Use this example",
    custom_none: "GPU katas offer no custom input: Run and Submit show their cases.",
    custom_none_io: "A stdin/stdout kata offers no custom input: Run judges your program on the samples, Submit on every case.",
    custom_log_in: "Log in to run your own input",
    custom_your_answer: "Your answer",
    custom_reference_answer: "Reference's answer",
    custom_no_answer: "no answer",
    same_instructions: "the same instruction count as the reference",
    cached: "cached",
};

pub const ZH: Text = Text {
    lang: Lang::Zh,
    nav_catalogue: "题库",
    nav_progress: "进度",
    nav_drills: "概念练习",
    nav_review: "复习",
    nav_interview: "模拟面试",
    drill_stats_link: "练习题目及作答统计",
    nav_admin: "管理",
    practice: &super::i18n_practice::ZH,
    publishing: &super::i18n_publishing::ZH,
    log_in: "登录",
    log_out: "退出登录",
    sign_up: "注册",
    footer: "InfraKata · AI Infra 面试练习题，在沙箱中评测",
    skip_to_content: "跳到正文",
    language: "语言",
    katas: "题目",
    catalogue_lead: "来自 AI Infra 面试的小题目，每道都有精确的规格——快速幂、算子融合、Ring All-Reduce、张量视图、张量并行。在浏览器里写 Rust；沙箱评测机运行隐藏用例，并把你的速度和参考实现比较。",
    topic: "主题",
    difficulty: "难度",
    all_topics: "全部主题",
    any_difficulty: "全部难度",
    solved_badge: "✓ 已解决",
    solved_badge_title: "你已有一次通过的提交",
    no_match: "没有符合这些筛选条件的题目。",
    show_all: "显示全部",
    clear_filters: "清除筛选",
    error: "错误",
    back_to_catalogue: "返回题库",
    my_submissions: "我的提交",
    no_submissions: "还没有提交。",
    open_the_kata: "打开题目",
    press_run_or_submit: "，点击运行或提交。",
    when: "时间",
    mode: "模式",
    verdict: "结果",
    cases: "用例",
    perf_ratio: "性能比",
    leaderboard: "排行榜",
    leaderboard_lead: "每位学习者所有通过的提交中最好的性能比：性能用例上你的函数执行的指令数 ÷ 参考实现的指令数。越低越快；低于 1.00× 就是比参考实现快。你解出这道题之后，每个比值都会链接到对应的解答。",
    nobody_solved: "还没有人解出这道题。",
    be_the_first: "来做第一个吧。",
    rank: "名次",
    learner: "学习者",
    best_ratio: "最佳比值",
    accepted_submits: "通过的提交",
    first_solved: "首次解出",
    you: "（你）",
    read_this_solution: "阅读这份解答",
    not_measured: "未测量",
    my_progress: "我的进度",
    solved: "已解决",
    attempted: "尝试过",
    katas_count: "道题",
    kata: "题目",
    status: "状态",
    submissions: "提交次数",
    last_activity: "最近活动",
    status_solved: "已解决",
    status_attempted: "尝试过",
    status_not_started: "未开始",
    mode_run: "运行",
    mode_submit: "提交",
    pending: "等待中",
    user_name: "用户名",
    password: "密码",
    password_again: "再次输入密码",
    new_here: "第一次来？",
    create_an_account: "创建账号",
    signup_lead: "做题、保留你的历史记录，并登上排行榜。",
    name_rule: "1–40 个字母、数字、",
    or: "或",
    password_rule: "至少 8 个字符",
    have_an_account: "已经有账号了？",
    wrong_credentials: "用户名或密码错误。",
    passwords_differ: "两次输入的密码不一致。",
    bad_name: "用户名由 1–40 个字母、数字、`-`、`_` 或 `.` 组成。",
    reference_title: "参考解答",
    reference_heading: "参考解答与原理笔记",
    reference_lead: "你的提交通过后解锁。比较一下思路——参考解答只是一种做法，不是唯一的做法。",
    concept: "原理",
    submission: "提交",
    by: "作者",
    source: "源代码",
    back_to_kata: "返回题目",
    service: "服务",
    queued: "排队中",
    grading_now: "评测中",
    workers_seen: "见过的评测节点",
    workers: "评测节点",
    no_gpu_worker: "没有连接 GPU 评测节点",
    gpu_workers_only: "GPU 题目只能由装有 NVIDIA GPU 的机器上的评测节点评测",
    advertises_it: "在那台机器上运行即会声明 GPU",
    no_worker_yet: "还没有评测节点来领取任务。",
    start_one_with: "启动一个：",
    worker: "评测节点",
    kind: "类型",
    cores: "核数",
    grades: "评测类别",
    gpu: "GPU",
    last_seen: "最近一次出现",
    built_in: "内置",
    remote: "远程",
    none: "无",
    kata_packages: "题目包",
    package_check: "包检查",
    complete: "完整",
    open_in_editor: "在编辑器中打开",
    cancelled: "已取消",
    not_graded: "未评测",
    not_graded_no_worker: "未评测：没有评测节点接手",
    cancel_submission: "取消这次提交",
    cancel_note: "它还没有被评测；取消不算一次尝试。",
    more_failing: "更多失败的用例",
    jobs_not_done: "未完成的任务",
    nothing_pending: "没有排队或正在评测的任务。",
    state: "状态",
    attempts: "尝试次数",
    queued_at: "入队",
    requeue: "重新排队",
    cancel: "取消",
    colon: "：",
    full_stop: "。",
    open_paren: "（",
    close_paren: "）",
    cancel_failed: "取消失败",
    load_failed: "结果加载失败（{status}）",
    server_answered: "服务器返回了 {status}",
    actions: "操作",
    menu: "菜单",
    main_nav: "主导航",
    dark_mode: "深色模式",
    light_mode: "浅色模式",
    to_dark_mode: "切换到深色模式",
    to_light_mode: "切换到浅色模式",
    this_kata: "本题",
    reference_unlocked: "✓ 参考解答与原理笔记",
    unlocks_with_accepted: "提交通过后解锁",
    solve_to_unlock: "参考解答与笔记：解出后解锁",
    next_kata: "下一题：",
    gpu_banner_title: "没有连接 GPU 评测节点。",
    gpu_banner: "这道题要在 GPU 上运行：在 GPU 评测节点连上之前，提交会一直在队列里等待。",
    workbench: "工作台",
    tab_statement: "题目",
    tab_code: "代码",
    tab_result: "结果",
    hints: "提示",
    resize_divider: "调整题目与编辑器的宽度",
    resize_result: "调整编辑器与结果区的高度",
    your_solution: "你的解答",
    note_local_draft: "这个浏览器里未保存的草稿",
    note_draft: "你的草稿",
    note_last: "你上一次的提交",
    note_starter: "初始代码",
    draft_saving: "正在保存…",
    draft_saved: "草稿已保存",
    draft_offline: "只保存在这个浏览器里：连不上服务器",
    reset_confirm: "用初始代码替换你的代码吗？（你的提交记录里仍保留之前的每个版本。）",
    reset_to_starter: "恢复初始代码",
    run: "运行",
    submit: "提交",
    actions_help: "运行只检查样例；提交会跑全部用例。在编辑器里按 Escape 可以让键盘焦点离开编辑器。",
    login_to_run: "登录后即可运行和提交",
    close_result: "关闭结果面板",
    no_cases_yet: "还没有用例结果：点击运行或提交。",
    measuring_perf: "正在与参考实现比较性能…",
    step_queued: "排队中",
    next_in_line: "下一个就轮到你",
    step_compiling: "编译中",
    step_running: "运行用例",
    step_measuring: "测量性能",
    step_verdict: "结果",
    reload_for_verdict: "刷新页面查看结果。",
    perf_vs_reference: "与参考实现的性能对比：",
    gpu_performance: "GPU 性能",
    gpu_performance_note: "15 次计时运行的中位数，每次使用新输入、L2 缓存清空（CUDA event 计时）；峰值百分比相对于评测节点在其设备上测得的拷贝带宽；速度与参考 kernel 相比。",
    case: "用例",
    median: "中位数",
    rate: "吞吐",
    pct_of_peak: "峰值占比",
    vs_reference: "相对参考实现",
    suspect: "可疑：比设备的极限还快",
    compiler_messages: "编译器信息",
    rustc_message: "rustc 的原始信息",
    failing_cases: "失败的用例",
    group: "分组",
    outcome: "结果",
    time: "耗时",
    input: "输入",
    problem: "问题",
    expected: "期望",
    got: "实际",
    note: "备注",
    passed: "通过",
    not_run: "未运行",
    program_printed: "你的程序打印的内容",
    mode_run_long: "运行（样例）",
    mode_submit_long: "提交（全部用例）",
    tab_custom: "自定义输入",
    mode_custom: "自定义输入",
    mode_custom_long: "自定义输入（你自己的一个用例）",
    custom_lead: "用你自己写的输入运行程序，把它的输出和参考实现的输出放在一起对照。这不算一次尝试，也不会计入解题。",
    custom_label: "输入（本题的输入，JSON 格式）",
    run_custom: "运行自定义输入",
    reset_to_sample: "恢复为样例",
    custom_format: "输入格式：每个入口函数各一个示例",
    use_example: "用这个示例",
    custom_none: "GPU 题目不提供自定义输入：运行和提交会显示它的用例。",
    custom_none_io: "标准输入输出题不提供自定义输入：运行会用样例评测你的程序，提交会用全部用例。",
    custom_log_in: "登录后即可运行自己的输入",
    custom_your_answer: "你的输出",
    custom_reference_answer: "参考实现的输出",
    custom_no_answer: "没有输出",
    same_instructions: "指令数与参考实现相同",
    cached: "已缓存",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_has_its_own_words() {
        for lang in Lang::ALL {
            assert_eq!(Text::of(lang).lang, lang);
        }
        assert_ne!(EN.log_in, ZH.log_in);
        assert_eq!(ZH.solved_of(3, 10), "已解决 3 / 10");
        assert_eq!(EN.difficulty_str("hard"), "hard");
        assert_eq!(ZH.difficulty_str("hard"), "困难");
        assert_eq!(ZH.verdict_label(Verdict::WrongAnswer), "答案错误");
        assert_eq!(ZH.ago(0, 125_000), "2 分钟前");
        assert_eq!(EN.status_title(404), None);
        assert_eq!(
            EN.perf_summary(0.88),
            "12% fewer instructions than the reference"
        );
        assert_eq!(ZH.perf_summary(1.5), "指令数比参考实现多 50%");
        assert_eq!(EN.case_counts(0, 5, 0), "5 passed");
        assert_eq!(ZH.case_counts(2, 5, 3), "失败 2 · 通过 5 · 未运行 3");
        assert_eq!(
            EN.limits(1000, 64, 1),
            "1000 ms per case · 64 MiB memory · 1 thread"
        );
        assert_eq!(ZH.ahead_of_you(3), " · 前面还有 3 个");
    }

    #[test]
    fn groups_states_and_counts_read_in_chinese() {
        assert_eq!(EN.group_label(katas::Group::Performance), "performance");
        assert_eq!(ZH.group_label(katas::Group::Sample), "样例");
        assert_eq!(ZH.group_label(katas::Group::Edge), "边界");
        assert_eq!(EN.state_label("queued"), "queued");
        assert_eq!(ZH.state_label("queued"), "排队中");
        assert_eq!(ZH.state_label("compiling"), "编译中");
        assert_eq!(ZH.state_label("not-a-state"), "not-a-state");
        use crate::domain::JobState;
        assert_eq!(EN.job_state_label(JobState::Leased), "leased");
        assert_eq!(ZH.job_state_label(JobState::Leased), "已交给评测节点");
        // After the verdict 通过 the count must not start with 通过 again (`通过 通过 5 / 5`).
        assert_eq!(ZH.cases_passed(5, 5), "5 / 5 个用例通过");
        assert!(!ZH.cases_passed(5, 5).starts_with("通过"));
        assert_eq!(ZH.waiting_for("GPU 评测节点"), " · 正在等待 GPU 评测节点");
    }

    #[test]
    fn topics_are_shown_by_their_packages_names() {
        assert_eq!(ZH.topic_name("kernel-fusion"), "算子融合");
        assert_eq!(EN.topic_name("divide-and-conquer"), "divide and conquer");
        assert_eq!(ZH.topic_name("not-a-topic"), "not-a-topic");
    }
}
