//! A package published to a running service — a stdin/stdout one, or a function kata graded
//! from its own files — seen as a [`Kata`] so the pages, the API and the queue treat it as they
//! treat a compiled one: its meta, statements and starter. Nothing of it runs in this process —
//! its programs, validators and judge run in the sandbox through `graders::Grader::grade_io` or
//! `grade_package` — so the in-process judging methods refuse.
//!
//! Published versions are immutable and named by their content hash, so each is parsed once
//! per process and kept for the process's life ([`intern`]): the `&'static` views the
//! catalogue's callers hold stay valid, and a version costs its statements and sources (the
//! test data is not kept here; workers hold it in their own bounded cache).

use super::{IoError, IoPackage};
use crate::archive::PackageFiles;
use crate::catalogue::{Kata, Package, Which, WrongSource};
use crate::custom::{CustomError, InputExamples};
use crate::judge::{CaseInfo, Judging, KataError};
use crate::layout;
use crate::meta::KataMeta;
use crate::report::Report;
use crate::spec::{Mode, Refusal};
use crate::statement::Statement;
use crate::verdict::Verdict;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// A published io package's learner-facing side.
#[derive(Debug)]
pub struct IoKata {
    meta: KataMeta,
    package: &'static Package,
    cases: Vec<CaseInfo>,
    /// A function kata's custom-input form, as its judge made it; `None` for a kata with no
    /// custom input (stdin/stdout, GPU).
    examples: Option<InputExamples>,
    /// A CPU function kata whose judge has not made its form's examples yet (a build's own
    /// package stored at start-up, or a version from before examples were stored): the form
    /// starts empty until [`refresh_examples`] brings them.
    awaiting_examples: bool,
}

fn leak(text: &str) -> &'static str {
    Box::leak(text.to_owned().into_boxed_str())
}

impl IoKata {
    fn of(package: &IoPackage) -> Result<Self, IoError> {
        let wrong: Vec<_> = package
            .wrong()?
            .into_iter()
            .map(|w| (w.name, w.source, w.expected))
            .collect();
        let cases = package
            .cases
            .iter()
            .enumerate()
            .map(|(index, case)| CaseInfo {
                index,
                name: case.name.clone(),
                name_zh: None,
                group: case.group,
            })
            .collect();
        Self::from_files(&package.meta, &package.files, &wrong, cases, None)
    }

    /// The view of a package's files: `wrong` as `(name, source, verdict)`, `cases` as far as
    /// they are known without running anything.
    fn from_files(
        meta: &KataMeta,
        files: &PackageFiles,
        wrong: &[(String, String, Verdict)],
        cases: Vec<CaseInfo>,
        examples: Option<InputExamples>,
    ) -> Result<Self, IoError> {
        let text = |name: &'static str| files.text(name).ok_or(IoError::Missing(name));
        let wrong: Vec<WrongSource> = wrong
            .iter()
            .map(|(name, source, expected)| WrongSource {
                name: leak(name),
                file: leak(&format!("{}/{name}.rs", layout::WRONG_DIR)),
                source: leak(source),
                expected: *expected,
                sandboxed: *expected,
            })
            .collect();
        let package_files = Package {
            dir: "",
            content_hash: leak(&files.content_hash()),
            grading_hash: leak(&files.grading_hash()),
            meta_toml: leak(text(layout::META_FILE)?),
            statement: leak(text(layout::STATEMENT_FILE)?),
            statement_zh: leak(text(layout::STATEMENT_ZH_FILE)?),
            starter: leak(text(layout::STARTER_FILE)?),
            reference: leak(files.text(layout::REFERENCE_FILE).unwrap_or_default()),
            logic: leak(files.text(layout::LOGIC_FILE).unwrap_or_default()),
            data_cases: leak(files.text(layout::DATA_CASES_FILE).unwrap_or_default()),
            wrong: Box::leak(wrong.into_boxed_slice()),
        };
        Ok(Self {
            meta: meta.clone(),
            package: Box::leak(Box::new(package_files)),
            cases,
            examples,
            awaiting_examples: false,
        })
    }
}

type Seen = Mutex<HashMap<String, &'static IoKata>>;

fn seen() -> std::sync::MutexGuard<'static, HashMap<String, &'static IoKata>> {
    static SEEN: OnceLock<Seen> = OnceLock::new();
    SEEN.get_or_init(Default::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

/// The view of the version with `content_hash`, if this process has parsed it.
pub fn interned(content_hash: &str) -> Option<&'static dyn Kata> {
    seen().get(content_hash).map(|k| *k as &'static dyn Kata)
}

/// A topic's display name in `lang`, as a published package this process has read names it.
pub fn topic_name(topic: &str, lang: crate::Lang) -> Option<&'static str> {
    seen()
        .values()
        .find_map(|k| crate::catalogue::topic_name_in(&k.meta, topic, lang))
}

/// The view of the published version `package`, parsed once per process by content hash.
pub fn intern(package: &IoPackage) -> Result<&'static dyn Kata, IoError> {
    interned_or(&package.files.content_hash(), || IoKata::of(package))
}

/// The view of a published function package, graded from its files in the sandbox (its judge
/// is built from them: `graders::package`), parsed once per process by content hash. `wrong`
/// is its `wrong/` solutions as `(name, source, verdict)`; `examples`, what its judge made for
/// the custom-input form (`None` while it has not: the view then [awaits](awaits_examples)
/// them). A GPU kata offers no custom input, whatever was stored.
pub fn intern_function(
    meta: &KataMeta,
    files: &PackageFiles,
    wrong: &[(String, String, Verdict)],
    examples: Option<InputExamples>,
) -> Result<&'static dyn Kata, IoError> {
    let offered = meta.kind != crate::KataKind::Gpu;
    interned_or(&files.content_hash(), || {
        let mut kata = IoKata::from_files(
            meta,
            files,
            wrong,
            Vec::new(),
            offered.then(|| examples.clone().unwrap_or_default()),
        )?;
        kata.awaiting_examples = offered && examples.is_none();
        Ok(kata)
    })
}

/// The view of one of the build's own packages (`katas::builtin`), kept apart from the
/// published versions this process has read: the service serves a kata from its stored
/// version, whose form's examples a judge made, never from this. Its custom input is offered
/// as a published version's is (admitted by its judge, in the sandbox).
pub(crate) fn of_build(package: &'static Package) -> &'static dyn Kata {
    let path = std::path::Path::new(package.dir).join(layout::META_FILE);
    let meta = KataMeta::parse(package.meta_toml, &path)
        .unwrap_or_else(|e| panic!("build.rs validated this kata.toml, yet: {e}"));
    let offered = meta.kind == crate::KataKind::Cpu;
    Box::leak(Box::new(IoKata {
        meta,
        package,
        cases: Vec::new(),
        examples: offered.then(InputExamples::default),
        awaiting_examples: false,
    }))
}

/// Whether the view of `content_hash` this process holds still waits for its form's examples.
pub fn awaits_examples(content_hash: &str) -> bool {
    seen()
        .get(content_hash)
        .is_some_and(|kata| kata.awaiting_examples)
}

/// The view of `content_hash` with the examples its judge has now made, in place of the one
/// that awaited them; `None` when this process holds no view of it that awaits any. The view
/// replaced stays valid for whoever holds it (leaked, as every view is: at most one more per
/// version).
pub fn refresh_examples(content_hash: &str, examples: InputExamples) -> Option<&'static dyn Kata> {
    let mut seen = seen();
    let old = seen.get(content_hash).filter(|k| k.awaiting_examples)?;
    let fresh: &'static IoKata = Box::leak(Box::new(IoKata {
        meta: old.meta.clone(),
        package: old.package,
        cases: old.cases.clone(),
        examples: Some(examples),
        awaiting_examples: false,
    }));
    seen.insert(content_hash.to_string(), fresh);
    Some(fresh)
}

fn interned_or(
    hash: &str,
    make: impl FnOnce() -> Result<IoKata, IoError>,
) -> Result<&'static dyn Kata, IoError> {
    let mut seen = seen();
    if let Some(kata) = seen.get(hash) {
        return Ok(*kata);
    }
    let kata: &'static IoKata = Box::leak(Box::new(make()?));
    seen.insert(hash.to_string(), kata);
    Ok(kata)
}

fn no_custom_input(kind: crate::KataKind) -> CustomError {
    CustomError::Refused(match kind {
        crate::KataKind::Io => Refusal::new(
            "custom input is not offered for a stdin/stdout kata: run your program on the samples",
            "标准输入输出题不提供自定义输入：请用样例运行你的程序",
        ),
        _ => Refusal::not_offered(),
    })
}

impl Kata for IoKata {
    fn meta(&self) -> &KataMeta {
        &self.meta
    }

    fn package(&self) -> &'static Package {
        self.package
    }

    fn statement(&self) -> Statement {
        Statement::parse_static(self.package.statement)
    }

    /// Its solutions are programs, run only in the sandbox.
    fn evaluate_own(&self, _which: Which<'_>, _mode: Mode) -> Option<Report> {
        None
    }

    fn case_list(&self) -> Result<Vec<CaseInfo>, KataError> {
        Ok(self.cases.clone())
    }

    fn prepare(&self, _seed: u64) -> Result<Arc<dyn Judging>, KataError> {
        Err(KataError::NotInProcess(self.meta.slug.clone()))
    }

    /// A function kata's input is admitted by its judge in the sandbox
    /// (`graders::Grader::custom_package`): only what needs none of its code is checked here.
    fn check_custom(&self, json: &str) -> Result<(), CustomError> {
        match self.examples {
            Some(_) => crate::custom::check_json(json),
            None => Err(no_custom_input(self.meta.kind)),
        }
    }

    fn custom(&self, _json: &str) -> Result<crate::custom::CustomCase, CustomError> {
        match self.examples {
            Some(_) => Err(CustomError::Reference(format!(
                "`{}` is judged only in the sandbox",
                self.meta.slug
            ))),
            None => Err(no_custom_input(self.meta.kind)),
        }
    }

    fn sample_input(&self) -> Option<String> {
        // A version published before its judge made examples still takes custom input.
        let examples = self.examples.as_ref()?;
        Some(examples.sample.clone().unwrap_or_default())
    }

    fn input_examples(&self) -> Vec<(String, String)> {
        self.examples
            .as_ref()
            .map(|e| e.examples.clone())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package() -> IoPackage {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scaffold/new-io-kata");
        let files = PackageFiles::read_dir(&dir, &super::super::limits()).expect("scaffold reads");
        IoPackage::from_files(files).expect("the scaffold is an io package")
    }

    #[test]
    fn a_version_is_parsed_once_and_shows_its_package() {
        let package = package();
        let first = intern(&package).expect("interned");
        let again = intern(&package).expect("interned");
        assert!(std::ptr::addr_eq(first, again));
        let found = interned(&package.files.content_hash()).expect("found by hash");
        assert!(std::ptr::addr_eq(first, found));
        assert!(interned("not a hash").is_none());
        for (topic, name) in &first.meta().topic_names {
            assert_eq!(topic_name(topic, crate::Lang::Zh), Some(name.zh.as_str()));
        }
        assert_eq!(first.meta().kind, crate::KataKind::Io);
        assert_eq!(first.package().content_hash, package.files.content_hash());
        assert_eq!(first.package().starter, package.starter().unwrap());
        assert_eq!(first.case_list().unwrap().len(), package.cases.len());
        assert!(first.evaluate_own(Which::Reference, Mode::Submit).is_none());
        assert!(matches!(first.prepare(1), Err(KataError::NotInProcess(_))));
        assert!(first.check_custom("{}").is_err());
    }

    #[test]
    fn a_view_awaiting_its_examples_is_replaced_once_when_they_come() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scaffold/new-kata");
        let files = PackageFiles::read_dir(&dir, &super::super::limits()).expect("scaffold reads");
        let meta = KataMeta::load(&dir).expect("scaffold's kata.toml");
        let hash = files.content_hash();
        let waiting = intern_function(&meta, &files, &[], None).expect("interned");
        assert!(awaits_examples(&hash));
        // Custom input is still offered; the form starts empty.
        assert_eq!(waiting.sample_input().as_deref(), Some(""));
        assert!(waiting.check_custom("{}").is_ok());
        let examples = InputExamples {
            sample: Some("{\"Add\": [[1, 2]]}".into()),
            examples: vec![("add".into(), "[[1, 2]]".into())],
        };
        let fresh = refresh_examples(&hash, examples.clone()).expect("replaced");
        assert!(!awaits_examples(&hash));
        assert_eq!(fresh.sample_input(), examples.sample);
        assert_eq!(fresh.input_examples(), examples.examples);
        assert!(std::ptr::addr_eq(interned(&hash).unwrap(), fresh));
        assert!(std::ptr::eq(fresh.package(), waiting.package()));
        assert!(refresh_examples(&hash, InputExamples::default()).is_none());
    }
}
