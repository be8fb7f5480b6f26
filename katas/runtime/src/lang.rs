//! The languages a statement (and the web pages) come in.

/// A language we write every statement in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    En,
    /// Simplified Chinese, as written in mainland China.
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The short name used in settings, cookies and `--lang`: `en`, `zh`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The BCP-47 tag for `<html lang>` and `Content-Language`.
    pub const fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    /// The language's own name, for a language switch.
    pub const fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "中文",
        }
    }

    /// A language tag (`zh`, `zh-CN`, `zh_Hans`, `EN-us`, …) or our short name; `None` for a
    /// language we do not write in. Traditional-script tags (`zh-TW`, `zh-Hant`) still map to
    /// Chinese: a simplified text is closer for those readers than English.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let tag = tag.trim();
        // A tag is ASCII letters, digits and separators; anything else is not one.
        if tag.is_empty()
            || tag.len() > 35
            || !tag
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return None;
        }
        let primary = tag.split(['-', '_']).next().unwrap_or_default();
        if primary.eq_ignore_ascii_case("en") {
            Some(Lang::En)
        } else if primary.eq_ignore_ascii_case("zh") {
            Some(Lang::Zh)
        } else {
            None
        }
    }

    /// The language an `Accept-Language` header prefers most among ours: the highest q-value
    /// wins and, between equal ones, the first listed. `None` when it names none of ours (or
    /// only with `q=0`). Malformed items are skipped rather than failing the whole header.
    pub fn from_accept_language(header: &str) -> Option<Lang> {
        let mut best: Option<(Lang, u16)> = None;
        // Bounded: a hostile header cannot make us walk thousands of items.
        for item in header.split(',').take(32) {
            let mut parts = item.split(';');
            let Some(lang) = parts.next().and_then(Lang::from_tag) else {
                continue;
            };
            let mut q = 1000;
            for param in parts {
                if let Some(v) = param.trim().strip_prefix("q=") {
                    q = parse_q(v).unwrap_or(0);
                }
            }
            if q > 0 && best.is_none_or(|(_, b)| q > b) {
                best = Some((lang, q));
            }
        }
        best.map(|(lang, _)| lang)
    }
}

/// A q-value as thousandths (`0.8` → 800), per RFC 9110: `0`–`1` with up to three decimals.
fn parse_q(v: &str) -> Option<u16> {
    let v = v.trim();
    let (int, frac) = v.split_once('.').unwrap_or((v, ""));
    if frac.len() > 3 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let whole: u16 = match int {
        "0" => 0,
        "1" => 1000,
        _ => return None,
    };
    let mut thousandths = 0u16;
    for (i, b) in frac.bytes().enumerate() {
        thousandths += u16::from(b - b'0') * [100, 10, 1][i];
    }
    if whole == 1000 && thousandths > 0 {
        return None;
    }
    Some(whole + thousandths)
}

impl std::fmt::Display for Lang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Lang {
    type Err = UnknownLang;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Lang::from_tag(s).ok_or_else(|| UnknownLang(s.chars().take(40).collect()))
    }
}

/// A language name that is neither English nor Chinese.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownLang(pub String);

impl std::fmt::Display for UnknownLang {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown language `{}`; use `en` or `zh`", self.0)
    }
}

impl std::error::Error for UnknownLang {}

#[cfg(test)]
mod tests {
    use super::Lang;

    #[test]
    fn tags_map_to_our_languages() {
        assert_eq!(Lang::from_tag("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::from_tag("zh_Hans"), Some(Lang::Zh));
        assert_eq!(Lang::from_tag("ZH"), Some(Lang::Zh));
        assert_eq!(Lang::from_tag("en-GB"), Some(Lang::En));
        assert_eq!(Lang::from_tag("fr"), None);
        assert_eq!(Lang::from_tag("zh<script>"), None);
        assert_eq!(Lang::from_tag(""), None);
        for lang in Lang::ALL {
            assert_eq!(Lang::from_tag(lang.as_str()), Some(lang));
            assert_eq!(Lang::from_tag(lang.tag()), Some(lang));
            assert_eq!(lang.as_str().parse::<Lang>(), Ok(lang));
        }
        assert!("de".parse::<Lang>().is_err());
    }

    #[test]
    fn accept_language_honours_q_values() {
        let pick = Lang::from_accept_language;
        assert_eq!(pick("zh-CN,zh;q=0.9,en;q=0.8"), Some(Lang::Zh));
        assert_eq!(pick("en-US,en;q=0.9,zh-CN;q=0.8"), Some(Lang::En));
        assert_eq!(pick("fr-FR, zh;q=0.5, en;q=0.7"), Some(Lang::En));
        assert_eq!(pick("en;q=0.2, zh;q=0.9"), Some(Lang::Zh));
        assert_eq!(pick("de, fr;q=0.9"), None);
        assert_eq!(pick("zh;q=0, en;q=0.1"), Some(Lang::En));
        assert_eq!(pick("zh;q=0"), None);
        // Equal weights: the first listed wins.
        assert_eq!(pick("zh, en"), Some(Lang::Zh));
        // Junk items are skipped, not fatal.
        assert_eq!(pick(";;, zh;q=abc, en;q=1.5, zh-TW;q=0.3"), Some(Lang::Zh));
        assert_eq!(pick(""), None);
        assert_eq!(pick("*"), None);
    }
}
