//! The words of the practice pages (drills, review, interviews, the instructors' drill
//! statistics), one constant per language like [`super::i18n::Text`], which reaches them as
//! `t.practice`. Kept apart so that the main catalogue does not grow a second screenful; the
//! rules are the same: every field in every language, numbers through exhaustive `match`es.

use katas::Lang;
use std::borrow::Borrow;

#[derive(Debug)]
pub struct Practice {
    pub lang: Lang,
    // The drill sets and a set's items.
    pub drills_heading: &'static str,
    pub drills_lead: &'static str,
    pub due_today: &'static str,
    pub item: &'static str,
    pub answer_kind: &'static str,
    pub tags: &'static str,
    pub practise: &'static str,
    pub log_in_to_practise: &'static str,
    // One attempt.
    pub answer_recorded: &'static str,
    pub back_to_interview: &'static str,
    pub right: &'static str,
    pub score: &'static str,
    pub yours: &'static str,
    pub expected: &'static str,
    pub explanation: &'static str,
    pub more_from_set: &'static str,
    pub next_item: &'static str,
    pub random_session: &'static str,
    pub items_left: &'static str,
    pub answer: &'static str,
    pub pick_every: &'static str,
    pub pick_one: &'static str,
    pub order_help: &'static str,
    pub commit_answer: &'static str,
    // Review.
    pub day_streak: &'static str,
    pub best: &'static str,
    pub due: &'static str,
    pub nothing_due: &'static str,
    pub practise_a_drill: &'static str,
    pub both_enter_schedule: &'static str,
    pub what: &'static str,
    pub review: &'static str,
    pub solve_again: &'static str,
    // Interviews.
    pub mock_interview: &'static str,
    pub interview_lead: &'static str,
    pub minutes: &'static str,
    pub start_interview: &'static str,
    pub history: &'static str,
    pub interview_running: &'static str,
    pub time_left: &'static str,
    pub coding: &'static str,
    pub submit_kata: &'static str,
    pub best_submit: &'static str,
    pub concept_drills: &'static str,
    pub answered: &'static str,
    pub finish_interview: &'static str,
    /// Asked before the interview ends for good (answers lock, the report is written).
    pub finish_confirm: &'static str,
    pub interviews: &'static str,
    pub interview_report: &'static str,
    pub score_of_100: &'static str,
    pub result: &'static str,
    pub cases_passed: &'static str,
    pub time_spent: &'static str,
    pub hints_used: &'static str,
    pub question: &'static str,
    pub review_next: &'static str,
    pub everything_right: &'static str,
    pub no_submit: &'static str,
    // The instructors' statistics.
    pub drill_statistics: &'static str,
    pub drill_items: &'static str,
    pub reload_drills: &'static str,
    pub set: &'static str,
    pub answers: &'static str,
    pub correct: &'static str,
    pub median_time: &'static str,
    pub weak: &'static str,
}

impl Practice {
    pub fn of(lang: Lang) -> &'static Practice {
        match lang {
            Lang::En => &EN,
            Lang::Zh => &ZH,
        }
    }

    /// `12 items` on a set's card.
    pub fn items(&self, n: impl Borrow<usize>) -> String {
        let n = n.borrow();
        match self.lang {
            Lang::En if *n == 1 => "1 item".into(),
            Lang::En => format!("{n} items"),
            Lang::Zh => format!("{n} 题"),
        }
    }

    /// An answer kind as `services::drills::kind_of` names it.
    pub fn kind_name<'a>(&self, kind: &'a str) -> &'a str {
        match (self.lang, kind) {
            (Lang::En, "numeric") => "Numeric",
            (Lang::En, "single_choice" | "choice") => "Single choice",
            (Lang::En, "multiple_choice") => "Multiple choice",
            (Lang::En, "ordering") => "Ordering",
            (Lang::En, "matching") => "Matching",
            (Lang::En, "predict") => "Predict the result",
            (Lang::Zh, "numeric") => "数值题",
            (Lang::Zh, "single_choice" | "choice") => "单选题",
            (Lang::Zh, "multiple_choice") => "多选题",
            (Lang::Zh, "ordering") => "排序题",
            (Lang::Zh, "matching") => "匹配题",
            (Lang::Zh, "predict") => "结果预测题",
            (_, other) => other,
        }
    }

    /// What a review card is: a drill item or a kata.
    pub fn subject_kind<'a>(&self, kind: &'a str) -> &'a str {
        match (self.lang, kind) {
            (Lang::En, "drill") => "Drill",
            (Lang::En, "kata") => "Kata",
            (Lang::Zh, "drill") => "概念题",
            (Lang::Zh, "kata") => "编程题",
            (_, other) => other,
        }
    }

    /// A drill item's outcome in an interview report (`right`, `partly`, `wrong`, `unanswered`).
    pub fn outcome<'a>(&self, outcome: &'a str) -> &'a str {
        match (self.lang, outcome) {
            (Lang::En, "right") => "Right",
            (Lang::En, "partly") => "Partly right",
            (Lang::En, "wrong") => "Wrong",
            (Lang::En, "unanswered") => "Not answered",
            (Lang::Zh, "right") => "正确",
            (Lang::Zh, "partly") => "部分正确",
            (Lang::Zh, "wrong") => "错误",
            (Lang::Zh, "unanswered") => "未作答",
            (_, other) => other,
        }
    }

    /// The hint button of an interview: its cost in the kata's credit.
    pub fn show_hint(&self, cost_pct: impl Borrow<u32>) -> String {
        let c = cost_pct.borrow();
        match self.lang {
            Lang::En => format!("Show a hint (costs {c}% of the kata's credit)"),
            Lang::Zh => format!("查看提示（编程题扣 {c}%）"),
        }
    }

    /// `Question 3` in an interview's list of drill items.
    pub fn question_n(&self, n: impl Borrow<usize>) -> String {
        let n = n.borrow();
        match self.lang {
            Lang::En => format!("Question {n}"),
            Lang::Zh => format!("第 {n} 题"),
        }
    }

    /// The statistics page's lead, with how many items are served.
    pub fn stats_lead(&self, items: impl Borrow<usize>) -> String {
        let n = items.borrow();
        match self.lang {
            Lang::En => format!(
                "{n} items served. Weakest first: answered items by share correct, then those \
                 nobody has answered. Items answered at least 5 times and right less than half \
                 the time are marked."
            ),
            Lang::Zh => format!(
                "当前提供 {n} 道题。最弱的排在前面：先是有人作答的题目，按正确率从低到高，\
                 然后是还没有人作答的。作答至少 5 次、正确率不到一半的题目会被标出。"
            ),
        }
    }

    pub fn reloaded(&self, sets: usize, items: usize) -> String {
        match self.lang {
            Lang::En => format!("Reloaded {sets} sets, {items} items from disk."),
            Lang::Zh => format!("已从磁盘重新载入 {sets} 组、{items} 道题。"),
        }
    }

    /// A reload that failed: `what` went wrong; the drills served before stay.
    pub fn reload_failed(&self, what: &str) -> String {
        match self.lang {
            Lang::En => format!("{what}; still serving the previous drills."),
            Lang::Zh => format!("{what}；继续使用之前的题目。"),
        }
    }

    /// A drill folder the validation refused.
    pub fn invalid(&self, path: &str) -> String {
        match self.lang {
            Lang::En => format!("{path} is invalid"),
            Lang::Zh => format!("{path} 未通过校验"),
        }
    }
}

pub const EN: Practice = Practice {
    lang: Lang::En,
    drills_heading: "Concept drills",
    drills_lead: "The concept questions interviews ask beside the coding ones: numbers that change every attempt, graded on the server, explained once you commit.",
    due_today: "Due for review today",
    item: "Item",
    answer_kind: "Kind",
    tags: "Tags",
    practise: "Practise",
    log_in_to_practise: "Log in to practise",
    answer_recorded: "Answer recorded; its result comes with the interview report.",
    back_to_interview: "Back to the interview",
    right: "Right",
    score: "Score",
    yours: "Yours",
    expected: "Expected",
    explanation: "Explanation",
    more_from_set: "More from this set",
    next_item: "Next item",
    random_session: "Random session",
    items_left: "items left in this session",
    answer: "Answer",
    pick_every: "Pick every option that applies",
    pick_one: "Pick one",
    order_help: "For each position, pick the letter that comes there",
    commit_answer: "Commit answer",
    day_streak: "day streak",
    best: "best",
    due: "due",
    nothing_due: "Nothing is due today.",
    practise_a_drill: "Practise a drill",
    both_enter_schedule: "or solve a kata; both enter the schedule.",
    what: "What",
    review: "Review",
    solve_again: "Solve again",
    mock_interview: "Mock interview",
    interview_lead: "Against the clock: one coding kata picked for your history and five concept drills on the same topics. Difficulty is hidden, hints cost points, answers lock when time is up, and a report is kept.",
    minutes: "Minutes",
    start_interview: "Start the interview",
    history: "History",
    interview_running: "Interview in progress",
    time_left: "left",
    coding: "Coding",
    submit_kata: "Submit the kata",
    best_submit: "Best submit so far",
    concept_drills: "Concept drills",
    answered: "answered",
    finish_interview: "Finish and see the report",
    finish_confirm: "Finish the interview now? Your answers and code lock, and the report is written.",
    interviews: "Interviews",
    interview_report: "Interview report",
    score_of_100: "score of 100",
    result: "Result",
    cases_passed: "Cases",
    time_spent: "Time",
    hints_used: "Hints used",
    question: "Question",
    review_next: "Review next",
    everything_right: "Everything right.",
    no_submit: "No submit",
    drill_statistics: "Drill statistics",
    drill_items: "Drill items",
    reload_drills: "Reload drills from disk",
    set: "Set",
    answers: "Answers",
    correct: "Correct",
    median_time: "Median time",
    weak: "weak",
};

pub const ZH: Practice = Practice {
    lang: Lang::Zh,
    drills_heading: "概念练习",
    drills_lead: "面试中与编程题并列的概念题：每次作答数字都会变化，提交后在服务器上评分，并给出解释。",
    due_today: "今日复习",
    item: "题目",
    answer_kind: "题型",
    tags: "标签",
    practise: "练习",
    log_in_to_practise: "登录后练习",
    answer_recorded: "答案已记录，结果将在面试报告中给出。",
    back_to_interview: "返回面试",
    right: "正确",
    score: "得分",
    yours: "你的答案",
    expected: "正确答案",
    explanation: "解释",
    more_from_set: "继续练习本组",
    next_item: "下一题",
    random_session: "随机练习",
    items_left: "本轮剩余题数",
    answer: "答案",
    pick_every: "选出所有正确项",
    pick_one: "选择一项",
    order_help: "按顺序为每个位置选择一个字母",
    commit_answer: "提交答案",
    day_streak: "连续天数",
    best: "最佳",
    due: "待复习",
    nothing_due: "今天没有要复习的内容。",
    practise_a_drill: "做一道概念题",
    both_enter_schedule: "或者解一道编程题；两者都会进入复习计划。",
    what: "内容",
    review: "复习",
    solve_again: "重做",
    mock_interview: "模拟面试",
    interview_lead: "限时完成：一道根据你的记录挑选的编程题，加上同一主题的 5 道概念题。难度不公开；提示要扣分；时间到后答案锁定，并生成报告。",
    minutes: "时长（分钟）",
    start_interview: "开始面试",
    history: "历史",
    interview_running: "面试进行中",
    time_left: "剩余时间",
    coding: "编程题",
    submit_kata: "提交代码",
    best_submit: "目前最好的提交",
    concept_drills: "概念题",
    answered: "已作答",
    finish_interview: "结束面试并查看报告",
    finish_confirm: "现在就结束面试吗？结束后答案和代码不能再改，并生成报告。",
    interviews: "模拟面试",
    interview_report: "面试报告",
    score_of_100: "总分（满分 100）",
    result: "结果",
    cases_passed: "通过用例",
    time_spent: "用时",
    hints_used: "使用提示",
    question: "题目",
    review_next: "接下来复习",
    everything_right: "全部正确。",
    no_submit: "未提交",
    drill_statistics: "概念题统计",
    drill_items: "概念题题目",
    reload_drills: "从磁盘重新载入题目",
    set: "题组",
    answers: "作答次数",
    correct: "正确率",
    median_time: "用时中位数",
    weak: "薄弱",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn practice_words_come_in_each_language() {
        for lang in Lang::ALL {
            assert_eq!(Practice::of(lang).lang, lang);
        }
        assert_eq!(EN.items(1), "1 item");
        assert_eq!(ZH.items(12), "12 题");
        assert_eq!(ZH.kind_name("multiple_choice"), "多选题");
        assert_eq!(EN.outcome("partly"), "Partly right");
        assert_eq!(ZH.question_n(3), "第 3 题");
        assert_eq!(EN.kind_name("something new"), "something new");
    }
}
