//! The build's own katas as data: each one the files `build.rs` embedded (`problems::PACKAGES`),
//! seen through the same [`Kata`] face as a version published to the service
//! ([`crate::io::served`]). No kata's code is behind them: the service and the grader take the
//! build's katas from here and run their code only in the sandbox, built from these files.
//! The compiled katas ([`crate::catalogue::all`], feature `solutions`) are for
//! `cargo test -p katas` and the benches.

use crate::catalogue::Kata;
use crate::io::served::of_build;
use std::sync::OnceLock;

/// Every kata of the build, in catalogue order (a GPU kata only in a build with `cuda`).
pub fn all() -> &'static [&'static dyn Kata] {
    static VIEWS: OnceLock<Vec<&'static dyn Kata>> = OnceLock::new();
    VIEWS.get_or_init(|| {
        crate::problems::PACKAGES
            .iter()
            .map(|package| of_build(package))
            .collect()
    })
}

/// The build's kata `slug`.
pub fn find(slug: &str) -> Option<&'static dyn Kata> {
    all().iter().copied().find(|k| k.meta().slug == slug)
}

/// A topic's display name in `lang`, as the build's packages that list it name it.
pub fn topic_name(topic: &str, lang: crate::Lang) -> Option<&'static str> {
    all()
        .iter()
        .find_map(|k| crate::catalogue::topic_name_in(k.meta(), topic, lang))
}

#[cfg(all(test, feature = "solutions"))]
mod tests {
    use super::*;
    use crate::catalogue::Which;
    use crate::spec::Mode;

    #[test]
    fn the_build_s_katas_as_data_are_the_compiled_katas_files_without_their_code() {
        let compiled = crate::catalogue::all();
        assert_eq!(all().len(), compiled.len());
        for (data, code) in all().iter().zip(compiled) {
            assert_eq!(data.meta(), code.meta());
            assert!(std::ptr::eq(data.package(), code.package()));
            assert_eq!(data.dir(), code.dir());
            // Nothing runs here: its judge is built from the files, in the sandbox.
            assert!(data.evaluate_own(Which::Reference, Mode::Submit).is_none());
            assert!(data.prepare(1).is_err());
        }
        assert!(find("fast-power").is_some() && find("no-such-kata").is_none());
        assert_eq!(
            topic_name("kernel-fusion", crate::Lang::Zh),
            crate::catalogue::topic_name("kernel-fusion", crate::Lang::Zh)
        );
    }
}
