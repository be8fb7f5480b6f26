//! `problem.yaml` of the three Kattis formats, normalised into one [`Problem`]. Read as a YAML
//! value rather than strict structs: the formats add keys freely, and only the few keys below
//! matter here. Type words that InfraKata cannot grade (interactive, multi-pass, submit-answer)
//! are refused here, by name.

use super::KattisError;
use serde_norway::Value;

const FILE: &str = "problem.yaml";

/// Which version of the Kattis format a package is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceFormat {
    /// No `problem_format_version`, or `legacy` / `legacy-icpc`.
    Legacy,
    Draft2023,
    V2025,
}

impl SourceFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Legacy => "legacy",
            Self::Draft2023 => "2023-07-draft",
            Self::V2025 => "2025-09",
        }
    }

    /// Where the statement lives.
    pub fn statement_dir(self) -> &'static str {
        match self {
            Self::Legacy => "problem_statement",
            _ => "statement",
        }
    }
}

/// What the importer needs from `problem.yaml`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Problem {
    pub format: Option<SourceFormat>,
    /// The English name, else the first one given.
    pub name: Option<String>,
    pub scoring: bool,
    /// Legacy only: `validation` says `custom`. Newer formats decide by the folder's presence.
    pub legacy_custom: bool,
    /// Legacy `validator_flags`: the output validator's flags for every case.
    pub validator_flags: Option<Vec<String>>,
    pub time_limit_s: Option<f64>,
    pub memory_mib: Option<u64>,
    pub output_mib: Option<u64>,
    /// `constants` (2025-09), substituted for `{{name}}` in the statement.
    pub constants: Vec<(String, String)>,
}

impl Problem {
    pub fn format(&self) -> SourceFormat {
        self.format.unwrap_or(SourceFormat::Legacy)
    }
}

pub fn parse(text: &str) -> Result<Problem, KattisError> {
    let root: Value = serde_norway::from_str(text)
        .map_err(|e| KattisError::invalid(FILE, format!("not valid YAML: {e}")))?;
    let root = match root {
        Value::Null => return Ok(Problem::default()),
        Value::Mapping(_) => root,
        _ => return Err(KattisError::invalid(FILE, "must be a mapping of keys")),
    };
    let field = |key: &str| root.get(key).filter(|v| !v.is_null());
    let bad = |key: &str, why: &str| KattisError::invalid(FILE, format!("`{key}`: {why}"));

    let format = match field("problem_format_version") {
        None => SourceFormat::Legacy,
        Some(v) => match scalar_text(v).as_deref() {
            Some("legacy" | "legacy-icpc") => SourceFormat::Legacy,
            Some("2023-07-draft" | "2023-07") => SourceFormat::Draft2023,
            Some("2025-09" | "2025-09-draft") => SourceFormat::V2025,
            _ => {
                return Err(bad(
                    "problem_format_version",
                    "must be one of legacy, legacy-icpc, 2023-07-draft, 2025-09",
                ));
            }
        },
    };
    let mut problem = Problem {
        format: Some(format),
        ..Problem::default()
    };

    problem.name = match field("name") {
        None => None,
        Some(Value::Mapping(map)) => {
            let english = map.get("en").and_then(scalar_text);
            english.or_else(|| map.values().find_map(scalar_text))
        }
        Some(v) => Some(scalar_text(v).ok_or_else(|| bad("name", "must be text or a map"))?),
    }
    .map(|n| n.trim().to_string())
    .filter(|n| !n.is_empty());

    let words = |key: &str| -> Result<Vec<String>, KattisError> {
        match field(key) {
            None => Ok(Vec::new()),
            Some(v) => flags_of(v).ok_or_else(|| bad(key, "must be text or a list of words")),
        }
    };
    let types = words("type")?;
    let validation = words("validation")?;
    for refused in ["interactive", "multi-pass", "submit-answer"] {
        if types.iter().chain(&validation).any(|t| t == refused) {
            let key = if types.iter().any(|t| t == refused) {
                "type"
            } else {
                "validation"
            };
            return Err(KattisError::unsupported(
                FILE,
                format!("`{key}`: {refused} problems are not supported"),
            ));
        }
    }
    if let Some(unknown) = types
        .iter()
        .find(|t| !["pass-fail", "scoring"].contains(&t.as_str()))
    {
        return Err(bad("type", &format!("unknown problem type `{unknown}`")));
    }
    problem.scoring =
        types.iter().any(|t| t == "scoring") || validation.iter().any(|t| t == "score");
    if format == SourceFormat::Legacy {
        problem.legacy_custom = match validation.first().map(String::as_str) {
            None | Some("default") => false,
            Some("custom") => true,
            Some(other) => {
                return Err(bad(
                    "validation",
                    &format!("starts with `{other}`; expected `default` or `custom`"),
                ));
            }
        };
        if let Some(v) = field("validator_flags") {
            problem.validator_flags =
                Some(flags_of(v).ok_or_else(|| bad("validator_flags", "must be text of words"))?);
        }
    }

    if let Some(limits) = field("limits") {
        if !limits.is_mapping() {
            return Err(bad("limits", "must be a mapping"));
        }
        let number = |key: &str| limits.get(key).filter(|v| !v.is_null()).map(Value::as_f64);
        let positive = |key: &str| -> Result<Option<f64>, KattisError> {
            match number(key) {
                None => Ok(None),
                Some(Some(x)) if x.is_finite() && x > 0.0 => Ok(Some(x)),
                Some(_) => Err(bad(&format!("limits.{key}"), "must be a number above 0")),
            }
        };
        problem.time_limit_s = positive("time_limit")?;
        // Whole MiB; a fraction is rounded up so the limit never shrinks.
        problem.memory_mib = positive("memory")?.map(|m| m.ceil() as u64);
        problem.output_mib = positive("output")?.map(|m| m.ceil() as u64);
    }

    if let Some(Value::Mapping(constants)) = field("constants") {
        for (k, v) in constants {
            if let (Some(k), Some(v)) = (scalar_text(k), scalar_text(v)) {
                problem.constants.push((k, v));
            }
        }
    }
    Ok(problem)
}

/// A scalar as text (strings, numbers and booleans); `None` for anything else.
pub fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Validator flags or type words: a string split at whitespace, or a list of scalars.
pub fn flags_of(v: &Value) -> Option<Vec<String>> {
    match v {
        Value::Sequence(items) => items.iter().map(scalar_text).collect(),
        other => scalar_text(other).map(|s| s.split_whitespace().map(str::to_string).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_formats_and_their_names() {
        let legacy = parse("name: Hello\nvalidator_flags: float_tolerance 1e-6\n").unwrap();
        assert_eq!(legacy.format(), SourceFormat::Legacy);
        assert_eq!(legacy.name.as_deref(), Some("Hello"));
        assert_eq!(
            legacy.validator_flags,
            Some(vec!["float_tolerance".into(), "1e-6".into()])
        );
        let v2025 = parse(
            "problem_format_version: 2025-09\nname: {sv: Hej, en: Hello}\nlimits: {time_limit: 1.5, memory: 512}\n",
        )
        .unwrap();
        assert_eq!(v2025.format(), SourceFormat::V2025);
        assert_eq!(v2025.name.as_deref(), Some("Hello"));
        assert_eq!(v2025.time_limit_s, Some(1.5));
        assert_eq!(v2025.memory_mib, Some(512));
        let first = parse("problem_format_version: 2023-07-draft\nname: {sv: Hej, de: Hallo}\n");
        assert_eq!(first.unwrap().name.as_deref(), Some("Hej"));
        assert_eq!(parse("# only a comment\n").unwrap(), Problem::default());
    }

    #[test]
    fn refusals_name_the_field() {
        let e = parse("problem_format_version: 2025-09\ntype: pass-fail interactive\n");
        assert_eq!(
            e.unwrap_err().to_string(),
            "problem.yaml: `type`: interactive problems are not supported"
        );
        let e = parse("validation: custom interactive\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`validation`: interactive"), "{e}");
        let e = parse("problem_format_version: 2025-09\ntype: [multi-pass]\n");
        assert!(e.unwrap_err().to_string().contains("multi-pass problems"));
        let e = parse("problem_format_version: 1999\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("`problem_format_version`"), "{e}");
        let e = parse("limits: {memory: -3}\n").unwrap_err().to_string();
        assert!(e.contains("`limits.memory`"), "{e}");
        assert!(parse("type: scoring\n").unwrap().scoring);
    }

    #[test]
    fn alias_bombs_are_refused_not_expanded() {
        let mut yaml = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            yaml.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        yaml.push_str("name: *a11\n");
        let e = parse(&yaml).unwrap_err().to_string();
        assert!(e.starts_with("problem.yaml: not valid YAML"), "{e}");
    }
}
