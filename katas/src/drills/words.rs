//! The few English words grading itself writes into a result ("picked", a count's unit), said
//! in the viewer's language when shown. Stored results keep the English words, so a result
//! reads right in whichever language it is viewed later.

/// Units and result words with their 中文; SI units (ms, MB, GB/s) read the same in both.
const ZH: &[(&str, &str)] = &[
    ("picked", "选了"),
    ("not picked", "没选"),
    ("steps", "步"),
    ("bytes", "字节"),
    ("value", "值"),
    ("heads", "个头"),
    ("all-reduces", "次 all-reduce"),
    ("M", "百万"),
];

/// `word` in `lang` (`"zh"` or anything else for English); unknown words unchanged.
pub fn word(word: &str, lang: &str) -> String {
    if lang != "zh" {
        return word.to_string();
    }
    ZH.iter()
        .find(|(en, _)| *en == word)
        .map_or_else(|| word.to_string(), |(_, zh)| (*zh).to_string())
}

/// A shown quantity such as `"16 steps"` or a result word, with its word in `lang`.
pub fn quantity(text: &str, lang: &str) -> String {
    if let Some(zh) = ZH
        .iter()
        .find(|(en, _)| *en == text)
        .map(|_| word(text, lang))
    {
        return zh;
    }
    match text.rsplit_once(' ') {
        Some((number, unit)) if number.parse::<f64>().is_ok() => {
            format!("{number} {}", word(unit, lang))
        }
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_words_and_count_units_read_in_chinese() {
        assert_eq!(quantity("picked", "zh"), "选了");
        assert_eq!(quantity("not picked", "zh"), "没选");
        assert_eq!(quantity("16 steps", "zh"), "16 步");
        assert_eq!(quantity("4096 bytes", "zh"), "4096 字节");
        assert_eq!(quantity("12.5 ms", "zh"), "12.5 ms");
        assert_eq!(quantity("16 steps", "en"), "16 steps");
        assert_eq!(word("value", "zh"), "值");
        assert_eq!(word("GB/s", "zh"), "GB/s");
    }
}
