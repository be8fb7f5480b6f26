//! A data-only kata's `kata.rs`, generated from its `[data]` declaration and `data/cases.toml`:
//! `Solution`, `Input` (one field per parameter), `Output`, and `Spec: KataSpec` whose cases are
//! the file's literals and the declared random groups, whose `check` is the stock checker and
//! whose `admit` is the declared constraints. Every value is checked against its type and the
//! constraints here, so a bad package fails with the file and the field, never at run time.
//! Shared with `build.rs`.

use crate::meta::KataMeta;
use crate::meta::data_decl::{
    CheckerKind, DataDecl, Domain, GenerateDecl, GroupName, Signature, StructDecl, Tolerance, Type,
};
use std::collections::BTreeMap;

mod domain;
mod emit;

use domain::{Located, Need, fits, literal, within};
use emit::source;

/// Why a data-only package cannot be built: the file, where in it, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataError {
    pub file: String,
    pub at: String,
    pub message: String,
}

impl std::fmt::Display for DataError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.file, self.at, self.message)
    }
}

impl std::error::Error for DataError {}

const META: &str = "kata.toml";
const CASES: &str = crate::layout::DATA_CASES_FILE;

fn meta_error(at: impl Into<String>, message: impl Into<String>) -> DataError {
    DataError {
        file: META.into(),
        at: at.into(),
        message: message.into(),
    }
}

fn cases_error(at: impl Into<String>, message: impl Into<String>) -> DataError {
    DataError {
        file: CASES.into(),
        at: at.into(),
        message: message.into(),
    }
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CasesFile {
    #[serde(default, rename = "case")]
    cases: Vec<CaseDecl>,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseDecl {
    /// The entry point the case calls: required when there are several.
    #[serde(default)]
    entry: Option<String>,
    name: String,
    name_zh: String,
    group: GroupName,
    args: Vec<toml::Value>,
    /// The expected answer, when the instructor gives it; the reference must then agree with it.
    #[serde(default)]
    answer: Option<toml::Value>,
}

/// One entry point as declared: its signature and how its answers are compared.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub sig: Signature,
    pub checker: CheckerKind,
    pub tolerance: Option<Tolerance>,
}

/// The generated source of a data-only kata's logic module.
pub fn generate(meta: &KataMeta, cases_toml: &str) -> Result<String, DataError> {
    let decl = meta
        .data
        .as_ref()
        .ok_or_else(|| meta_error("[data]", "missing: this package is not data-only"))?;
    let (entries, sx) = declared(meta, decl)?;
    let sx = &sx;
    let file: CasesFile =
        toml::from_str(cases_toml).map_err(|e| cases_error("the file", e.to_string()))?;
    let mut cases = Vec::new();
    let mut names = std::collections::BTreeSet::new();
    for case in &file.cases {
        let at = format!("case `{}`", case.name);
        if case.name.trim().is_empty() || case.name_zh.trim().is_empty() {
            return Err(cases_error(at, "`name` and `name_zh` must not be empty"));
        }
        if !names.insert(case.name.clone()) {
            return Err(cases_error(at, "two cases have this name"));
        }
        let k = entry_of(&entries, case.entry.as_deref())
            .map_err(|why| cases_error(format!("{at}, `entry`"), why))?;
        let sig = &entries[k].sig;
        if case.args.len() != sig.params.len() {
            return Err(cases_error(
                at,
                format!(
                    "`args` has {} values; `{}` takes {} ({})",
                    case.args.len(),
                    sig.name,
                    sig.params.len(),
                    param_list(sig)
                ),
            ));
        }
        let mut fields = Vec::new();
        for ((param, ty), value) in sig.params.iter().zip(&case.args) {
            let lit = literal(sx, ty, &decl.constraints[param], value, param)
                .map_err(|(path, why)| cases_error(format!("{at}, `{path}`"), why))?;
            fields.push(format!("{param}: {lit}"));
        }
        let answer = case
            .answer
            .as_ref()
            .map(|value| literal(sx, &sig.returns, &Domain::default(), value, "answer"))
            .transpose()
            .map_err(|(path, why)| cases_error(format!("{at}, `{path}`"), why))?;
        cases.push(Case {
            entry: k,
            name: &case.name,
            name_zh: &case.name_zh,
            group: case.group,
            fields,
            answer,
        });
    }
    for (k, entry) in entries.iter().enumerate() {
        if !cases
            .iter()
            .any(|c| c.entry == k && c.group == GroupName::Sample)
        {
            let whose = if entries.len() == 1 {
                String::new()
            } else {
                format!(" calling `{}`", entry.sig.name)
            };
            return Err(cases_error(
                "the file",
                format!("needs at least one `sample` case{whose}: the statement's examples"),
            ));
        }
    }
    Ok(source(sx, meta, decl, &entries, &cases))
}

/// A case of `data/cases.toml`, checked: the entry point it calls and its arguments as Rust.
struct Case<'a> {
    entry: usize,
    name: &'a str,
    name_zh: &'a str,
    group: GroupName,
    fields: Vec<String>,
    /// The given answer as Rust, when the case has one.
    answer: Option<String>,
}

/// Which entry point a case or a random group calls: the one there is, or the one it names.
fn entry_of(entries: &[Entry], named: Option<&str>) -> Result<usize, String> {
    let list = || {
        entries
            .iter()
            .map(|e| format!("`{}`", e.sig.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match named {
        None if entries.len() == 1 => Ok(0),
        None => Err(format!(
            "missing: name the entry point it calls, one of {}",
            list()
        )),
        Some(name) => entries
            .iter()
            .position(|e| e.sig.name == name)
            .ok_or_else(|| format!("`{name}` is not an entry point; the kata has {}", list())),
    }
}

/// The declaration checked against itself: each signature parses and the entry points are
/// `entry_points`, every parameter has a constraint that fits its type (a name shared by two
/// entry points is one parameter of one type), each checker fits its answer and every random
/// group lies within the constraints.
pub fn declared(meta: &KataMeta, decl: &DataDecl) -> Result<(Vec<Entry>, Structs), DataError> {
    let names = StructDecl::names(&decl.structs).map_err(|e| meta_error("[data] structs", e))?;
    let mut structs = Structs::new();
    for text in &decl.structs {
        let st = StructDecl::parse(text, &names).map_err(|e| meta_error("[data] structs", e))?;
        structs.insert(st.name, st.fields);
    }
    if let Some(name) = structs
        .keys()
        .find(|n| reaches(&structs, n, n, &mut Vec::new()))
    {
        return Err(meta_error(
            "[data] structs",
            format!("`{name}` contains itself: a case must be a finite value"),
        ));
    }
    let sx = &structs;
    let entries = entries(decl, &names)?;
    let declared: Vec<String> = entries.iter().map(|e| e.sig.name.clone()).collect();
    if meta.entry_points != declared {
        let quoted: Vec<String> = declared.iter().map(|n| format!("\"{n}\"")).collect();
        return Err(meta_error(
            "entry_points",
            format!(
                "a data-only kata's entry points are its signatures', in order: entry_points = [{}]",
                quoted.join(", ")
            ),
        ));
    }
    let mut params: BTreeMap<&str, (&Type, &str)> = BTreeMap::new();
    for (k, entry) in entries.iter().enumerate() {
        let sig = &entry.sig;
        for (param, ty) in &sig.params {
            if param == "input" || param == "solution" {
                return Err(meta_error(
                    signature_at(decl, k),
                    format!("call the parameter `{param}` something else: the glue uses that name"),
                ));
            }
            match params.get(param.as_str()) {
                Some((other, owner)) if *other != ty => {
                    return Err(meta_error(
                        signature_at(decl, k),
                        format!(
                            "`{param}` is {ty} here and {other} in `{owner}`: a parameter's name \
                             means one parameter, of one type and one constraint"
                        ),
                    ));
                }
                Some(_) => continue,
                None => {
                    params.insert(param, (ty, &sig.name));
                }
            }
            let dom = decl.constraints.get(param).ok_or_else(|| {
                meta_error(
                    "[data.constraints]",
                    format!("`{param}` has no constraint: the statement's bounds on it"),
                )
            })?;
            fits(sx, ty, dom, Need::Bounds).map_err(|(path, why)| {
                meta_error(format!("[data.constraints] {param}{path}"), why)
            })?;
        }
        check_shape(decl, k, entry)?;
    }
    if let Some(extra) = decl
        .constraints
        .keys()
        .find(|k| !params.contains_key(k.as_str()))
    {
        let of = match entries.as_slice() {
            [one] => format!("`{}`", one.sig.name),
            _ => "any entry point".to_string(),
        };
        return Err(meta_error(
            "[data.constraints]",
            format!("`{extra}` is not a parameter of {of}"),
        ));
    }
    for (k, g) in decl.generate.iter().enumerate() {
        generated_group(sx, decl, &entries, g)
            .map_err(|(at, why)| meta_error(format!("[[data.generate]] #{} {at}", k + 1), why))?;
    }
    Ok((entries, structs))
}

/// `[data] signature` for one entry point, or `[[data.entry]]` for several: parsed, each name
/// once, checkers and tolerances resolved against the table's.
fn entries(decl: &DataDecl, names: &[String]) -> Result<Vec<Entry>, DataError> {
    let written: Vec<(&str, Option<CheckerKind>, Option<Tolerance>)> =
        match (&decl.signature, decl.entries.as_slice()) {
            (Some(text), []) => vec![(text.as_str(), None, None)],
            (Some(_), [_, ..]) => {
                return Err(meta_error(
                    "[data]",
                    "`signature` declares the one entry point and `[[data.entry]]` several: \
                     write one of them",
                ));
            }
            (None, []) => {
                return Err(meta_error(
                    "[data] signature",
                    "missing: the learner's function, `fn name(param: Type, ...) -> Type`",
                ));
            }
            (None, [_]) => {
                return Err(meta_error(
                    "[[data.entry]]",
                    "one entry point: write its `signature` (and checker) in [data]",
                ));
            }
            (None, many) => many
                .iter()
                .map(|e| (e.signature.as_str(), e.checker, e.tolerance))
                .collect(),
        };
    let mut entries: Vec<Entry> = Vec::new();
    for (k, (text, checker, tolerance)) in written.into_iter().enumerate() {
        let sig =
            Signature::parse_with(text, names).map_err(|e| meta_error(signature_at(decl, k), e))?;
        if entries.iter().any(|e| e.sig.name == sig.name) {
            return Err(meta_error(
                signature_at(decl, k),
                format!("`{}` is declared twice", sig.name),
            ));
        }
        entries.push(Entry {
            sig,
            checker: checker.unwrap_or(decl.checker),
            tolerance: tolerance.or(decl.tolerance),
        });
    }
    Ok(entries)
}

/// Where entry point `k`'s signature is written.
fn signature_at(decl: &DataDecl, k: usize) -> String {
    if decl.entries.is_empty() {
        "[data] signature".into()
    } else {
        format!("[[data.entry]] #{} signature", k + 1)
    }
}

/// The checker compares what the entry point returns; the tolerance is a tolerance.
fn check_shape(decl: &DataDecl, k: usize, entry: &Entry) -> Result<(), DataError> {
    let at = |field: &str| {
        if decl.entries.is_empty() {
            format!("[data] {field}")
        } else {
            format!("[[data.entry]] #{} {field}", k + 1)
        }
    };
    let sig = &entry.sig;
    let shape_ok = match entry.checker {
        CheckerKind::Exact => true,
        CheckerKind::Multiset => matches!(sig.returns, Type::Vec(_)),
        CheckerKind::Partition => {
            matches!(&sig.returns, Type::Vec(inner) if matches!(**inner, Type::Vec(_)))
        }
    };
    if !shape_ok {
        return Err(meta_error(
            at("checker"),
            format!(
                "`{:?}` compares a {}; `{}` returns {}",
                entry.checker,
                if entry.checker == CheckerKind::Multiset {
                    "Vec"
                } else {
                    "Vec<Vec<_>>"
                },
                sig.name,
                sig.returns
            ),
        ));
    }
    if let Some(t) = entry.tolerance
        && !(t.rel.is_finite() && t.abs.is_finite() && t.rel >= 0.0 && t.abs >= 0.0)
    {
        return Err(meta_error(
            at("tolerance"),
            "`rel` and `abs` are finite and not negative",
        ));
    }
    Ok(())
}

/// Whether struct `from` names `target` in its fields, directly or through other structs.
fn reaches(sx: &Structs, from: &str, target: &str, seen: &mut Vec<String>) -> bool {
    if seen.iter().any(|s| s == from) {
        return false;
    }
    seen.push(from.to_string());
    sx.get(from).is_some_and(|fields| {
        fields.iter().any(|(_, ty)| {
            struct_names(ty)
                .iter()
                .any(|n| n == target || reaches(sx, n, target, seen))
        })
    })
}

fn struct_names(ty: &Type) -> Vec<String> {
    match ty {
        Type::Struct(n) => vec![n.clone()],
        Type::Vec(t) | Type::Option(t) => struct_names(t),
        Type::Tuple(ts) => ts.iter().flat_map(struct_names).collect(),
        _ => Vec::new(),
    }
}

fn generated_group(
    sx: &Structs,
    decl: &DataDecl,
    entries: &[Entry],
    g: &GenerateDecl,
) -> Result<(), Located> {
    let sig = &entries
        [entry_of(entries, g.entry.as_deref()).map_err(|why| ("entry".to_string(), why))?]
    .sig;
    if g.group == GroupName::Sample {
        return Err((
            "group".into(),
            "samples are the statement's examples: write them in data/cases.toml".into(),
        ));
    }
    if !(1..=1000).contains(&g.count) {
        return Err(("count".into(), "between 1 and 1000".into()));
    }
    if g.name.trim().is_empty() || g.name_zh.trim().is_empty() {
        return Err((
            "name".into(),
            "`name` and `name_zh` must not be empty".into(),
        ));
    }
    for (param, over) in &g.params {
        let Some((_, ty)) = sig.params.iter().find(|(p, _)| p == param) else {
            return Err((
                format!("params.{param}"),
                format!("not a parameter of `{}`", sig.name),
            ));
        };
        let dom = merged(over, &decl.constraints[param]);
        fits(sx, ty, &dom, Need::Draw).map_err(|(p, why)| (format!("params.{param}{p}"), why))?;
        within(sx, ty, &dom, &decl.constraints[param]).map_err(|(p, why)| {
            (
                format!("params.{param}{p}"),
                format!("{why}: a random case must lie within [data.constraints]"),
            )
        })?;
    }
    for (param, ty) in &sig.params {
        if !g.params.contains_key(param) {
            fits(sx, ty, &decl.constraints[param], Need::Draw).map_err(|(p, why)| {
                (
                    format!("params.{param}{p}"),
                    format!("{why} (drawn from [data.constraints], which cannot be drawn from)"),
                )
            })?;
        }
    }
    Ok(())
}

/// A random group's domain for a parameter: what it says, and the constraints' word for
/// whatever it leaves out (`len` alone narrows a `Vec`, its items keep their bounds).
fn merged(over: &Domain, base: &Domain) -> Domain {
    let boxed = |o: &Option<Box<Domain>>, b: &Option<Box<Domain>>| match (o, b) {
        (Some(o), Some(b)) => Some(Box::new(merged(o, b))),
        (Some(o), None) => Some(o.clone()),
        (None, b) => b.clone(),
    };
    Domain {
        range: over.range.or(base.range),
        len: over.len.or(base.len),
        of: boxed(&over.of, &base.of),
        chars: over.chars.clone().or_else(|| base.chars.clone()),
        items: match (&over.items, &base.items) {
            (Some(o), Some(b)) => Some(
                o.iter()
                    .enumerate()
                    .map(|(k, d)| b.get(k).map_or_else(|| d.clone(), |b| merged(d, b)))
                    .collect(),
            ),
            (o, b) => o.clone().or_else(|| b.clone()),
        },
        some: boxed(&over.some, &base.some),
        none: over.none.or(base.none),
        fields: match (&over.fields, &base.fields) {
            (Some(o), Some(b)) => {
                let mut all = b.clone();
                for (k, d) in o {
                    let m = b.get(k).map_or_else(|| d.clone(), |b| merged(d, b));
                    all.insert(k.clone(), m);
                }
                Some(all)
            }
            (o, b) => o.clone().or_else(|| b.clone()),
        },
    }
}

fn param_list(sig: &Signature) -> String {
    sig.params
        .iter()
        .map(|(p, t)| format!("{p}: {t}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The declared structs by name, each with its fields in order.
pub type Structs = BTreeMap<String, Vec<(String, Type)>>;
