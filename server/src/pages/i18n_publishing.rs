//! The words of an instructor's kata versions: the versions table, the upload form and the
//! publishing report (`/admin/katas/{slug}`), one constant per language like
//! [`super::i18n::Text`], which reaches them as `t.publishing`.

use katas::Lang;

#[derive(Debug)]
pub struct Publishing {
    pub lang: Lang,
    pub versions_heading: &'static str,
    /// Version, source, published, availability, live.
    pub versions_columns: [&'static str; 5],
    pub from_build: &'static str,
    pub uploaded_by: &'static str,
    pub live: &'static str,
    pub make_live: &'static str,
    pub other_build: &'static str,
    pub upload_heading: &'static str,
    pub upload_lead: &'static str,
    /// The same, for a stdin/stdout kata published to the service.
    pub upload_lead_io: &'static str,
    pub upload_file: &'static str,
    pub upload_button: &'static str,
    pub report_heading: &'static str,
    /// Check, result, detail.
    pub report_columns: [&'static str; 3],
    pub passed: &'static str,
    pub refused: &'static str,
    pub refused_note: &'static str,
    pub back: &'static str,
    pub no_file: &'static str,
    pub new_kata_heading: &'static str,
    pub new_kata_lead: &'static str,
    pub new_kata_slug: &'static str,
    pub checking: &'static str,
    pub checking_link: &'static str,
    pub start_unlisted: &'static str,
    pub rejudge_heading: &'static str,
    pub rejudge_lead: &'static str,
    pub rejudge_version: &'static str,
    /// The scopes: (stored word, label).
    pub rejudge_scopes: [(&'static str, &'static str); 2],
    pub rejudge_button: &'static str,
    /// Submission, learner, written for, before, against the candidate, changed.
    pub rejudge_columns: [&'static str; 6],
    pub rejudge_changed: &'static str,
    pub rejudge_same: &'static str,
    pub rejudge_grading: &'static str,
    /// `/admin`: the package checks that replicas left to workers.
    pub checks_heading: &'static str,
    pub checks_lead: &'static str,
    /// Kata, needs, state, queued.
    pub checks_columns: [&'static str; 4],
    pub needs_gpu: &'static str,
    pub needs_sandbox: &'static str,
    pub waiting_for_worker: &'static str,
}

impl Publishing {
    pub fn checked_by(&self, worker: &str) -> String {
        match self.lang {
            Lang::Zh => format!("由 {worker} 运行中"),
            Lang::En => format!("being run by {worker}"),
        }
    }

    pub fn confirm_live(&self, version: i64) -> String {
        match self.lang {
            Lang::Zh => format!("让第 {version} 版上线？学习者会立即看到它。"),
            Lang::En => format!("Make version {version} live? Learners see it at once."),
        }
    }

    pub fn rejudge_title(&self, version: i64) -> String {
        match self.lang {
            Lang::Zh => format!("以第 {version} 版重新评测"),
            Lang::En => format!("Rejudged against version {version}"),
        }
    }

    pub fn rejudge_progress(&self, done: usize, total: usize, changed: usize) -> String {
        match self.lang {
            Lang::Zh => format!(
                "已重新评测 {done}/{total} 份提交，其中 {changed} 份的结果或首个未通过的用例会改变。提交本身不会被修改。"
            ),
            Lang::En => format!(
                "{done} of {total} submissions graded again; {changed} would change verdict or first failing case. The submissions themselves are not touched."
            ),
        }
    }

    pub fn candidate(&self, version: i64) -> String {
        match self.lang {
            Lang::Zh => {
                format!("已发布为第 {version} 版候选版本，尚未上线：可以用它重新评测，或让它上线。")
            }
            Lang::En => format!(
                "Published as version {version}, a candidate: not live yet. Rejudge against it or make it live."
            ),
        }
    }

    pub fn published(&self, version: i64, new: bool) -> String {
        match (self.lang, new) {
            (Lang::Zh, true) => format!("已发布第 {version} 版，现已上线。"),
            (Lang::Zh, false) => format!("这些文件已是第 {version} 版，现已重新上线。"),
            (Lang::En, true) => format!("Published as version {version}; it is live."),
            (Lang::En, false) => format!("These files are version {version}; it is live again."),
        }
    }
}

pub static EN: Publishing = Publishing {
    lang: Lang::En,
    versions_heading: "Versions",
    versions_columns: ["Version", "Source", "Published", "Who sees it", "Live"],
    from_build: "build",
    uploaded_by: "uploaded by",
    live: "live",
    make_live: "Make live",
    other_build: "needs its own build",
    upload_heading: "Publish a version",
    upload_lead: "Upload the kata's folder as a .tar.gz or .zip (at most 4 MiB). It is checked first \
                  and goes live only if every check passes. A fix to the statements alone is \
                  graded as before; anything else may change too (code, cases, limits, wrong/ \
                  solutions): then its judge and programs are built from its files and every \
                  solution in it is run in the sandbox first, and learners whose code was \
                  written for a different API are told what changed.",
    upload_lead_io: "Upload the kata's folder as a .tar.gz or .zip (at most 64 MiB). Its programs \
                     and validators run in the sandbox first, and it goes live only if every \
                     check passes; anything in it may change (cases, limits, statements).",
    upload_file: "Package archive",
    upload_button: "Check and publish",
    report_heading: "Publishing report",
    report_columns: ["Check", "Result", "Detail"],
    passed: "passed",
    refused: "refused",
    refused_note: "The package was refused; nothing changed.",
    back: "Back to the kata's page",
    no_file: "choose a package archive to upload",
    new_kata_heading: "Publish a new kata",
    new_kata_lead: "A kata package goes live on this service without a build: a stdin/stdout one \
                    (kind = \"io\" in kata.toml; \"infrakata kata new SLUG --io\" or \"infrakata \
                    kata import\" makes one, at most 64 MiB) or a function kata (its judge and \
                    programs are built from its files, at most 4 MiB). The archive is checked in \
                    the sandbox — reference, starter, every wrong/ solution, input validators — \
                    and goes live only if every check passes.",
    new_kata_slug: "Slug (as kata.toml names it)",
    checking: "Still checking: the package's programs are running in the sandbox. This page \
               reloads until the report is ready; nothing goes live unless every check passes.",
    checking_link: "Reload the report",
    start_unlisted: "Start unlisted: only instructors and admins see it until you list it",
    rejudge_heading: "Rejudge against a version",
    rejudge_lead: "Grade this kata's submits again against one of its versions (a candidate \
                   published with \"kata publish --candidate\", one to roll back to, or the \
                   build's own), below every learner's run and submit, and see which verdicts \
                   would change. Nothing a learner sees changes.",
    rejudge_version: "Version",
    rejudge_scopes: [
        ("accepted", "accepted submits"),
        ("all", "every graded submit"),
    ],
    rejudge_button: "Rejudge",
    rejudge_columns: [
        "Submission",
        "Learner",
        "Written for",
        "Before",
        "Against the candidate",
        "Changed",
    ],
    rejudge_changed: "changed",
    rejudge_same: "same",
    rejudge_grading: "being graded",
    checks_heading: "Package checks left to workers",
    checks_lead: "A replica that cannot run an upload's solutions itself (it has no sandbox, or \
        the kata is a GPU kata and it has no GPU) leaves the checks to a connected worker and \
        waits for the answer.",
    checks_columns: ["Kata", "Needs", "State", "Queued"],
    needs_gpu: "a worker with a GPU",
    needs_sandbox: "any worker",
    waiting_for_worker: "waiting for a worker",
};

pub static ZH: Publishing = Publishing {
    lang: Lang::Zh,
    versions_heading: "版本",
    versions_columns: ["版本", "来源", "发布时间", "可见范围", "上线"],
    from_build: "构建",
    uploaded_by: "上传者",
    live: "上线中",
    make_live: "上线",
    other_build: "需要它自己的构建",
    upload_heading: "发布新版本",
    upload_lead: "把题目文件夹打包成 .tar.gz 或 .zip 上传（最多 4 MiB）。上传后先检查，全部通过才会\
                  上线。只改题面时照旧评测；其他内容（代码、用例、限制、wrong/ 解法）也都可以修改：\
                  这时评测程序和学习者的程序按包里的文件构建，包里的每个解法先在沙箱中运行；代码写于\
                  不同接口的学习者会被告知改了什么。",
    upload_lead_io: "把题目文件夹打包成 .tar.gz 或 .zip 上传（最多 64 MiB）。其中的程序和校验器会先在\
                     沙箱中运行，全部检查通过才会上线；包里的任何内容（用例、限制、题面）都可以修改。",
    upload_file: "题目包",
    upload_button: "检查并发布",
    report_heading: "发布报告",
    report_columns: ["检查项", "结果", "说明"],
    passed: "通过",
    refused: "未通过",
    refused_note: "题目包未通过检查，服务上没有任何改变。",
    back: "返回题目页面",
    no_file: "请选择要上传的题目包",
    new_kata_heading: "发布新题目",
    new_kata_lead: "题目包无需重新构建即可在本服务上线：标准输入输出题（kata.toml 中 kind = \"io\"；\
                    可用 \"infrakata kata new SLUG --io\" 或 \"infrakata kata import\" 生成，最多 \
                    64 MiB），或函数题（评测程序和解答程序由题目包自己的文件构建，最多 4 MiB）。\
                    压缩包会先在沙箱中检查——参考解、初始代码、每个 wrong/ 解法和输入校验器——全部\
                    通过才会上线。",
    new_kata_slug: "Slug（与 kata.toml 中的一致）",
    checking: "仍在检查：题目包中的程序正在沙箱中运行。本页会自动刷新，直到报告生成；只有全部检查\
               通过才会上线。",
    checking_link: "刷新报告",
    start_unlisted: "先不公开：在你公开之前，只有教师和管理员能看到它",
    rejudge_heading: "用某个版本重新评测",
    rejudge_lead: "用这道题的某个版本（用 \"kata publish --candidate\" 发布的候选版本、要回退到的版本，\
                   或构建自带的版本）重新评测它的提交，优先级低于所有学习者的运行和提交，并查看哪些\
                   结果会改变。学习者看到的内容不会有任何改变。",
    rejudge_version: "版本",
    rejudge_scopes: [("accepted", "已通过的提交"), ("all", "所有已评测的提交")],
    rejudge_button: "重新评测",
    rejudge_columns: [
        "提交",
        "学习者",
        "所用版本",
        "之前",
        "候选版本下",
        "是否改变",
    ],
    rejudge_changed: "改变",
    rejudge_same: "不变",
    rejudge_grading: "评测中",
    checks_heading: "交给工作节点的题目包检查",
    checks_lead: "无法自己运行上传题目包中各个解答的副本（没有沙箱，或者这是 GPU 题而它没有 GPU）\
        会把检查交给连接着的工作节点，并等待结果。",
    checks_columns: ["题目", "需要", "状态", "排队时间"],
    needs_gpu: "带 GPU 的工作节点",
    needs_sandbox: "任意工作节点",
    waiting_for_worker: "等待工作节点",
};
