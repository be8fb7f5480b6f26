//! A data-only kata's `kata.rs`, generated from its `[data]` declaration and `data/cases.toml`:
//! `Solution`, `Input` (one field per parameter), `Output`, and `Spec: KataSpec` whose cases are
//! the file's literals and the declared random groups, whose `check` is the stock checker and
//! whose `admit` is the declared constraints. Every value is checked against its type and the
//! constraints here, so a bad package fails with the file and the field, never at run time.
//! Shared with `build.rs`.

use crate::meta::KataMeta;
use crate::meta::data_decl::{
    CheckerKind, DataDecl, Domain, GenerateDecl, GroupName, Int, Num, Signature, StructDecl, Type,
};
use std::collections::BTreeMap;
use std::fmt::Write as _;

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
    name: String,
    name_zh: String,
    group: GroupName,
    args: Vec<toml::Value>,
}

/// The generated source of a data-only kata's logic module.
pub fn generate(meta: &KataMeta, cases_toml: &str) -> Result<String, DataError> {
    let decl = meta
        .data
        .as_ref()
        .ok_or_else(|| meta_error("[data]", "missing: this package is not data-only"))?;
    let (sig, sx) = declared(meta, decl)?;
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
        if case.args.len() != sig.params.len() {
            return Err(cases_error(
                at,
                format!(
                    "`args` has {} values; `{}` takes {} ({})",
                    case.args.len(),
                    sig.name,
                    sig.params.len(),
                    param_list(&sig)
                ),
            ));
        }
        let mut fields = Vec::new();
        for ((param, ty), value) in sig.params.iter().zip(&case.args) {
            let lit = literal(sx, ty, &decl.constraints[param], value, param)
                .map_err(|(path, why)| cases_error(format!("{at}, `{path}`"), why))?;
            fields.push(format!("{param}: {lit}"));
        }
        cases.push((case, fields));
    }
    if !file.cases.iter().any(|c| c.group == GroupName::Sample) {
        return Err(cases_error(
            "the file",
            "needs at least one `sample` case: the statement's examples",
        ));
    }
    Ok(source(sx, meta, decl, &sig, &cases))
}

/// The declaration checked against itself: the signature parses and names the one entry point,
/// every parameter has a constraint that fits its type, the checker fits the answer and every
/// random group lies within the constraints.
pub fn declared(meta: &KataMeta, decl: &DataDecl) -> Result<(Signature, Structs), DataError> {
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
    let sig = Signature::parse_with(&decl.signature, &names)
        .map_err(|e| meta_error("[data] signature", e))?;
    if meta.entry_points != [sig.name.clone()] {
        return Err(meta_error(
            "entry_points",
            format!(
                "a data-only kata has one entry point, the signature's: entry_points = [\"{}\"]",
                sig.name
            ),
        ));
    }
    for (param, ty) in &sig.params {
        if param == "input" || param == "solution" {
            return Err(meta_error(
                "[data] signature",
                format!("call the parameter `{param}` something else: the glue uses that name"),
            ));
        }
        let dom = decl.constraints.get(param).ok_or_else(|| {
            meta_error(
                "[data.constraints]",
                format!("`{param}` has no constraint: the statement's bounds on it"),
            )
        })?;
        fits(sx, ty, dom, Need::Bounds)
            .map_err(|(path, why)| meta_error(format!("[data.constraints] {param}{path}"), why))?;
    }
    if let Some(extra) = decl
        .constraints
        .keys()
        .find(|k| !sig.params.iter().any(|(p, _)| p == *k))
    {
        return Err(meta_error(
            "[data.constraints]",
            format!("`{extra}` is not a parameter of `{}`", sig.name),
        ));
    }
    let shape_ok = match decl.checker {
        CheckerKind::Exact => true,
        CheckerKind::Multiset => matches!(sig.returns, Type::Vec(_)),
        CheckerKind::Partition => {
            matches!(&sig.returns, Type::Vec(inner) if matches!(**inner, Type::Vec(_)))
        }
    };
    if !shape_ok {
        return Err(meta_error(
            "[data] checker",
            format!(
                "`{:?}` compares a {}; `{}` returns {}",
                decl.checker,
                if decl.checker == CheckerKind::Multiset {
                    "Vec"
                } else {
                    "Vec<Vec<_>>"
                },
                sig.name,
                sig.returns
            ),
        ));
    }
    if let Some(t) = decl.tolerance
        && !(t.rel.is_finite() && t.abs.is_finite() && t.rel >= 0.0 && t.abs >= 0.0)
    {
        return Err(meta_error(
            "[data] tolerance",
            "`rel` and `abs` are finite and not negative",
        ));
    }
    for (k, g) in decl.generate.iter().enumerate() {
        generated_group(sx, decl, &sig, g)
            .map_err(|(at, why)| meta_error(format!("[[data.generate]] #{} {at}", k + 1), why))?;
    }
    Ok((sig, structs))
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
    sig: &Signature,
    g: &GenerateDecl,
) -> Result<(), (String, String)> {
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

/// What a domain must say: enough to bound custom input, or enough to draw values from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Need {
    Bounds,
    Draw,
}

type Located = (String, String);

/// The declared structs by name, each with its fields in order.
pub type Structs = BTreeMap<String, Vec<(String, Type)>>;

fn fits(sx: &Structs, ty: &Type, dom: &Domain, need: Need) -> Result<(), Located> {
    let here = |why: String| Err((String::new(), why));
    let only = |allowed: &[&str]| -> Result<(), Located> {
        let given = [
            ("range", dom.range.is_some()),
            ("len", dom.len.is_some()),
            ("of", dom.of.is_some()),
            ("chars", dom.chars.is_some()),
            ("items", dom.items.is_some()),
            ("some", dom.some.is_some()),
            ("none", dom.none.is_some()),
            ("fields", dom.fields.is_some()),
        ];
        match given
            .iter()
            .find(|(name, set)| *set && !allowed.contains(name))
        {
            Some((name, _)) => Err((
                String::new(),
                format!(
                    "`{name}` does not apply to {ty} (it takes {})",
                    allowed.join(", ")
                ),
            )),
            None => Ok(()),
        }
    };
    match ty {
        Type::Int(int) => {
            only(&["range"])?;
            if let Some((lo, hi)) = dom.range {
                let (Num::Int(lo), Num::Int(hi)) = (lo, hi) else {
                    return here("an integer's `range` takes integers".into());
                };
                let (min, max) = int.bounds();
                if lo > hi || i128::from(lo) < min || i128::from(hi) > max {
                    return here(format!(
                        "`range = [{lo}, {hi}]` must be ordered and within {ty}'s {min} to {max}"
                    ));
                }
            }
            Ok(())
        }
        Type::F32 | Type::F64 => {
            only(&["range"])?;
            match dom.range {
                Some((lo, hi)) => {
                    let (lo, hi) = (lo.as_f64(), hi.as_f64());
                    if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
                        return here("`range` must be finite and ordered".into());
                    }
                    if *ty == Type::F32 && ((lo as f32).is_infinite() || (hi as f32).is_infinite())
                    {
                        return here("`range` must be within f32".into());
                    }
                    Ok(())
                }
                None if need == Need::Draw => {
                    here("a float is drawn from a `range = [lo, hi]`".into())
                }
                None => Ok(()),
            }
        }
        Type::Bool => only(&[]),
        Type::Str => {
            only(&["len", "chars"])?;
            lengths(dom)?;
            if dom.chars.as_deref() == Some("") {
                return here("`chars` must not be empty".into());
            }
            Ok(())
        }
        Type::Vec(item) => {
            only(&["len", "of"])?;
            lengths(dom)?;
            fits(
                sx,
                item,
                dom.of.as_deref().unwrap_or(&Domain::default()),
                need,
            )
            .map_err(|(p, why)| (format!("[_]{p}"), why))
        }
        Type::Tuple(items) => {
            only(&["items"])?;
            if let Some(doms) = &dom.items
                && doms.len() != items.len()
            {
                return here(format!(
                    "`items` has {} domains for a {}-tuple",
                    doms.len(),
                    items.len()
                ));
            }
            for (k, item) in items.iter().enumerate() {
                fits(sx, item, &item_domain(dom, k), need)
                    .map_err(|(p, why)| (format!(".{k}{p}"), why))?;
            }
            Ok(())
        }
        Type::Struct(name) => {
            only(&["fields"])?;
            let fields = &sx[name];
            if let Some(extra) = dom
                .fields
                .iter()
                .flat_map(|f| f.keys())
                .find(|k| !fields.iter().any(|(f, _)| f == *k))
            {
                return here(format!("`{name}` has no field `{extra}`"));
            }
            for (field, ty) in fields {
                fits(sx, ty, &field_domain(dom, field), need)
                    .map_err(|(p, why)| (format!(".{field}{p}"), why))?;
            }
            Ok(())
        }
        Type::Option(inner) => {
            only(&["some", "none"])?;
            if let Some(p) = dom.none
                && !(0.0..=1.0).contains(&p)
            {
                return here("`none` is a chance, between 0 and 1".into());
            }
            fits(
                sx,
                inner,
                dom.some.as_deref().unwrap_or(&Domain::default()),
                need,
            )
        }
    }
}

fn lengths(dom: &Domain) -> Result<(), Located> {
    match dom.len {
        None => Err((
            String::new(),
            "needs `len = [min, max]`: the statement bounds every sequence".into(),
        )),
        Some((lo, hi)) if lo > hi || hi > 100_000_000 => Err((
            String::new(),
            format!("`len = [{lo}, {hi}]` must be ordered and at most 100000000"),
        )),
        Some(_) => Ok(()),
    }
}

fn field_domain(dom: &Domain, field: &str) -> Domain {
    dom.fields
        .as_ref()
        .and_then(|f| f.get(field))
        .cloned()
        .unwrap_or_default()
}

fn item_domain(dom: &Domain, k: usize) -> Domain {
    dom.items
        .as_ref()
        .and_then(|d| d.get(k))
        .cloned()
        .unwrap_or_default()
}

fn int_range(int: Int, dom: &Domain) -> (i128, i128) {
    match dom.range {
        Some((Num::Int(lo), Num::Int(hi))) => (lo.into(), hi.into()),
        _ => int.bounds(),
    }
}

fn float_range(dom: &Domain) -> Option<(f64, f64)> {
    dom.range.map(|(lo, hi)| (lo.as_f64(), hi.as_f64()))
}

/// Whether every value of `inner` lies in `outer` (both already fit `ty`).
fn within(sx: &Structs, ty: &Type, inner: &Domain, outer: &Domain) -> Result<(), Located> {
    let out = |why: String| Err((String::new(), why));
    match ty {
        Type::Int(int) => {
            let (a, b) = int_range(*int, inner);
            let (c, d) = int_range(*int, outer);
            if a < c || b > d {
                return out(format!("[{a}, {b}] is not within [{c}, {d}]"));
            }
            Ok(())
        }
        Type::F32 | Type::F64 => match (float_range(inner), float_range(outer)) {
            (Some((a, b)), Some((c, d))) if a < c || b > d => {
                out(format!("[{a:?}, {b:?}] is not within [{c:?}, {d:?}]"))
            }
            _ => Ok(()),
        },
        Type::Bool => Ok(()),
        Type::Str | Type::Vec(_) => {
            let (a, b) = inner.len.unwrap_or((0, 0));
            let (c, d) = outer.len.unwrap_or((0, 0));
            if a < c || b > d {
                return out(format!("`len = [{a}, {b}]` is not within [{c}, {d}]"));
            }
            if let Type::Vec(item) = ty {
                let none = Domain::default();
                return within(
                    sx,
                    item,
                    inner.of.as_deref().unwrap_or(&none),
                    outer.of.as_deref().unwrap_or(&none),
                )
                .map_err(|(p, why)| (format!("[_]{p}"), why));
            }
            if let Some(allowed) = &outer.chars {
                let drawn = inner.chars.as_deref().unwrap_or(DEFAULT_CHARS);
                if let Some(c) = drawn.chars().find(|c| !allowed.contains(*c)) {
                    return out(format!("draws {c:?}, which the constraints do not allow"));
                }
            }
            Ok(())
        }
        Type::Tuple(items) => {
            for (k, item) in items.iter().enumerate() {
                within(sx, item, &item_domain(inner, k), &item_domain(outer, k))
                    .map_err(|(p, why)| (format!(".{k}{p}"), why))?;
            }
            Ok(())
        }
        Type::Struct(name) => {
            for (field, ty) in &sx[name] {
                within(
                    sx,
                    ty,
                    &field_domain(inner, field),
                    &field_domain(outer, field),
                )
                .map_err(|(p, why)| (format!(".{field}{p}"), why))?;
            }
            Ok(())
        }
        Type::Option(item) => {
            let none = Domain::default();
            within(
                sx,
                item,
                inner.some.as_deref().unwrap_or(&none),
                outer.some.as_deref().unwrap_or(&none),
            )
        }
    }
}

/// What a string is drawn from when its domain names no `chars`.
const DEFAULT_CHARS: &str = "abcdefghijklmnopqrstuvwxyz";

/// A Rust expression of type `ty` for `value`, checked against `ty` and `dom`.
fn literal(
    sx: &Structs,
    ty: &Type,
    dom: &Domain,
    value: &toml::Value,
    path: &str,
) -> Result<String, Located> {
    let wrong = |why: String| Err((path.to_string(), why));
    match (ty, value) {
        (Type::Int(int), toml::Value::Integer(i)) => {
            let (lo, hi) = int_range(*int, dom);
            if !(lo..=hi).contains(&i128::from(*i)) {
                return wrong(format!("{i} is outside {lo} to {hi}"));
            }
            Ok(format!("{i}{}", int.name()))
        }
        (Type::F32 | Type::F64, toml::Value::Float(_) | toml::Value::Integer(_)) => {
            let x = match value {
                toml::Value::Float(f) => *f,
                toml::Value::Integer(i) => *i as f64,
                _ => unreachable!("matched above"),
            };
            if let Some((lo, hi)) = float_range(dom)
                && !(lo..=hi).contains(&x)
            {
                return wrong(format!("{x:?} is outside {lo:?} to {hi:?}"));
            }
            Ok(if *ty == Type::F32 {
                format!("f32::from_bits({:#x})", (x as f32).to_bits())
            } else {
                format!("f64::from_bits({:#x})", x.to_bits())
            })
        }
        (Type::Bool, toml::Value::Boolean(b)) => Ok(b.to_string()),
        (Type::Str, toml::Value::String(s)) => {
            let n = s.chars().count() as u64;
            let (lo, hi) = dom.len.unwrap_or((0, u64::MAX));
            if !(lo..=hi).contains(&n) {
                return wrong(format!(
                    "{n} characters; the constraints allow {lo} to {hi}"
                ));
            }
            if let Some(allowed) = &dom.chars
                && let Some(c) = s.chars().find(|c| !allowed.contains(*c))
            {
                return wrong(format!("{c:?} is not one of {allowed:?}"));
            }
            Ok(format!("String::from({s:?})"))
        }
        (Type::Vec(item), toml::Value::Array(values)) => {
            let n = values.len() as u64;
            let (lo, hi) = dom.len.unwrap_or((0, u64::MAX));
            if !(lo..=hi).contains(&n) {
                return wrong(format!("{n} items; the constraints allow {lo} to {hi}"));
            }
            let none = Domain::default();
            let of = dom.of.as_deref().unwrap_or(&none);
            let items = values
                .iter()
                .enumerate()
                .map(|(i, v)| literal(sx, item, of, v, &format!("{path}[{i}]")))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(if items.is_empty() {
                "Vec::new()".into()
            } else {
                format!("vec![{}]", items.join(", "))
            })
        }
        (Type::Tuple(types), toml::Value::Array(values)) => {
            if values.len() != types.len() {
                return wrong(format!(
                    "{} values for a {}-tuple {ty}",
                    values.len(),
                    types.len()
                ));
            }
            let items = types
                .iter()
                .zip(values)
                .enumerate()
                .map(|(k, (t, v))| literal(sx, t, &item_domain(dom, k), v, &format!("{path}.{k}")))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(tuple(&items))
        }
        (Type::Option(inner), toml::Value::Array(values)) if values.len() <= 1 => {
            match values.first() {
                None => Ok("None".into()),
                Some(v) => {
                    let none = Domain::default();
                    let some = dom.some.as_deref().unwrap_or(&none);
                    Ok(format!("Some({})", literal(sx, inner, some, v, path)?))
                }
            }
        }
        (Type::Struct(name), toml::Value::Table(table)) => {
            let fields = &sx[name];
            if let Some(extra) = table.keys().find(|k| !fields.iter().any(|(f, _)| f == *k)) {
                return wrong(format!("`{name}` has no field `{extra}`"));
            }
            let mut parts = Vec::new();
            for (field, ty) in fields {
                let Some(v) = table.get(field) else {
                    return wrong(format!("`{name}` needs its field `{field}`"));
                };
                let lit = literal(
                    sx,
                    ty,
                    &field_domain(dom, field),
                    v,
                    &format!("{path}.{field}"),
                )?;
                parts.push(format!("{field}: {lit}"));
            }
            Ok(format!("{name} {{ {} }}", parts.join(", ")))
        }
        (Type::Option(_), _) => wrong(format!(
            "an {ty} is written `[]` for None or `[value]` for Some(value)"
        )),
        (_, v) => wrong(format!("expected {ty}, found the {} `{v}`", v.type_str())),
    }
}

/// A Rust expression drawing a value of `ty` from `dom` with `rng`.
fn draw(sx: &Structs, ty: &Type, dom: &Domain, depth: usize) -> String {
    let none = Domain::default();
    match ty {
        Type::Int(int) => {
            let (lo, hi) = int_range(*int, dom);
            let t = int.name();
            format!("rng.{t}({lo}{t}..={hi}{t})")
        }
        Type::F32 | Type::F64 => {
            let (lo, hi) = float_range(dom).unwrap_or((0.0, 1.0));
            let t = if *ty == Type::F32 { "f32" } else { "f64" };
            if *ty == Type::F32 {
                let (lo, hi) = (lo as f32, hi as f32);
                format!("{lo:?}_{t} + ({hi:?}_{t} - {lo:?}_{t}) * rng.{t}()")
            } else {
                format!("{lo:?}_{t} + ({hi:?}_{t} - {lo:?}_{t}) * rng.{t}()")
            }
        }
        Type::Bool => "rng.bool()".into(),
        Type::Str => {
            let (lo, hi) = dom.len.unwrap_or((0, 0));
            let chars: Vec<String> = dom
                .chars
                .as_deref()
                .unwrap_or(DEFAULT_CHARS)
                .chars()
                .map(|c| format!("{c:?}"))
                .collect();
            format!(
                "{{ const CHARS: &[char] = &[{}]; let n = rng.usize({lo}..={hi}); \
                 (0..n).map(|_| CHARS[rng.usize(..CHARS.len())]).collect::<String>() }}",
                chars.join(", ")
            )
        }
        Type::Vec(item) => {
            let (lo, hi) = dom.len.unwrap_or((0, 0));
            let elem = draw(sx, item, dom.of.as_deref().unwrap_or(&none), depth + 1);
            format!(
                "{{ let n{depth} = rng.usize({lo}..={hi}); let mut v{depth} = Vec::with_capacity(n{depth}); \
                 for _ in 0..n{depth} {{ v{depth}.push({elem}); }} v{depth} }}"
            )
        }
        Type::Tuple(items) => {
            let parts: Vec<String> = items
                .iter()
                .enumerate()
                .map(|(k, t)| draw(sx, t, &item_domain(dom, k), depth + 1))
                .collect();
            tuple(&parts)
        }
        Type::Struct(name) => {
            let parts: Vec<String> = sx[name]
                .iter()
                .map(|(field, ty)| {
                    format!(
                        "{field}: {}",
                        draw(sx, ty, &field_domain(dom, field), depth + 1)
                    )
                })
                .collect();
            format!("{name} {{ {} }}", parts.join(", "))
        }
        Type::Option(inner) => {
            let p = dom.none.unwrap_or(0.25);
            let some = draw(sx, inner, dom.some.as_deref().unwrap_or(&none), depth + 1);
            format!("if rng.f64() < {p:?} {{ None }} else {{ Some({some}) }}")
        }
    }
}

/// A value a generated `admit` reads: a path below `input`, or an iteration variable (a
/// reference), written so that clippy finds no needless deref or borrow.
#[derive(Clone)]
enum Place {
    Path(String),
    Ref(String),
}

impl Place {
    fn value(&self) -> String {
        match self {
            Self::Path(p) => p.clone(),
            Self::Ref(r) => format!("*{r}"),
        }
    }
    fn method(&self) -> &str {
        match self {
            Self::Path(p) | Self::Ref(p) => p,
        }
    }
    fn borrow(&self) -> String {
        match self {
            Self::Path(p) => format!("&{p}"),
            Self::Ref(r) => r.clone(),
        }
    }
    fn field(&self, k: usize) -> Self {
        Self::Path(format!("{}.{k}", self.method()))
    }
    fn named(&self, field: &str) -> Self {
        Self::Path(format!("{}.{field}", self.method()))
    }
}

/// Statements refusing a custom input outside `dom`; `at` is the format string of the value's
/// path and `args` the index variables it names.
fn admit(
    sx: &Structs,
    ty: &Type,
    dom: &Domain,
    place: &Place,
    at: &str,
    args: &[String],
    depth: usize,
) -> String {
    let path = if args.is_empty() {
        format!("|| String::from({at:?})")
    } else {
        format!("|| format!({at:?}, {})", args.join(", "))
    };
    let none = Domain::default();
    match ty {
        Type::Int(int) => match dom.range {
            Some(_) => {
                let (lo, hi) = int_range(*int, dom);
                format!(
                    "katas::data::int_within({path}, {} as i128, {lo}, {hi})?;\n",
                    place.value()
                )
            }
            None => String::new(),
        },
        Type::F32 | Type::F64 => {
            let value = if *ty == Type::F32 {
                format!("f64::from({})", place.value())
            } else {
                place.value()
            };
            match float_range(dom) {
                Some((lo, hi)) => {
                    format!("katas::data::float_within({path}, {value}, {lo:?}, {hi:?})?;\n")
                }
                None => format!("katas::data::float_finite({path}, {value})?;\n"),
            }
        }
        Type::Bool => String::new(),
        Type::Str => {
            let (lo, hi) = dom.len.unwrap_or((0, u64::MAX));
            let mut s = format!(
                "katas::data::len_within({path}, {}.chars().count(), {lo}, {hi})?;\n",
                place.method()
            );
            if let Some(chars) = &dom.chars {
                let _ = writeln!(
                    s,
                    "katas::data::chars_within({path}, {}, {chars:?})?;",
                    place.borrow()
                );
            }
            s
        }
        Type::Vec(item) => {
            let (lo, hi) = dom.len.unwrap_or((0, u64::MAX));
            let mut s = format!(
                "katas::data::len_within({path}, {}.len(), {lo}, {hi})?;\n",
                place.method()
            );
            let mut inner_args = args.to_vec();
            inner_args.push(format!("i{depth}"));
            let inner = admit(
                sx,
                item,
                dom.of.as_deref().unwrap_or(&none),
                &Place::Ref(format!("x{depth}")),
                &format!("{at}[{{}}]"),
                &inner_args,
                depth + 1,
            );
            if !inner.is_empty() {
                let _ = write!(
                    s,
                    "for (i{depth}, x{depth}) in {}.iter().enumerate() {{\n{inner}}}\n",
                    place.method()
                );
            }
            s
        }
        Type::Tuple(items) => items
            .iter()
            .enumerate()
            .map(|(k, t)| {
                admit(
                    sx,
                    t,
                    &item_domain(dom, k),
                    &place.field(k),
                    &format!("{at}.{k}"),
                    args,
                    depth + 1,
                )
            })
            .collect(),
        Type::Struct(name) => sx[name]
            .iter()
            .map(|(field, ty)| {
                admit(
                    sx,
                    ty,
                    &field_domain(dom, field),
                    &place.named(field),
                    &format!("{at}.{field}"),
                    args,
                    depth + 1,
                )
            })
            .collect(),
        Type::Option(inner) => {
            let body = admit(
                sx,
                inner,
                dom.some.as_deref().unwrap_or(&none),
                &Place::Ref(format!("x{depth}")),
                at,
                args,
                depth + 1,
            );
            if body.is_empty() {
                String::new()
            } else {
                format!("if let Some(x{depth}) = {} {{\n{body}}}\n", place.borrow())
            }
        }
    }
}

/// A declared struct, and how the stock checkers compare and show it (field by field, in order).
fn struct_source(name: &str, fields: &[(String, Type)]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]\n#[serde(deny_unknown_fields)]\npub struct {name} {{"
    );
    for (field, ty) in fields {
        let _ = writeln!(s, "    pub {field}: {ty},");
    }
    s.push_str("}\n\n");
    let shown: Vec<String> = fields.iter().map(|(f, _)| format!("{f}: {{}}")).collect();
    let args: Vec<String> = fields
        .iter()
        .map(|(f, _)| format!("katas::data::Shown::head(&self.{f}, n)"))
        .collect();
    let _ = writeln!(
        s,
        "impl katas::data::Shown for {name} {{\n    fn head(&self, n: usize) -> String {{\n        format!(\"{name} {{{{ {} }}}}\", {})\n    }}\n}}\n",
        shown.join(", "),
        args.join(", ")
    );
    let diffs: String = fields
        .iter()
        .map(|(f, _)| {
            format!(
                "        if let Some(d) = katas::data::Answer::diff(&self.{f}, &got.{f}, tol) {{\n            return Some(d.under(\".{f}\"));\n        }}\n"
            )
        })
        .collect();
    let orders: String = fields
        .iter()
        .map(|(f, _)| {
            format!(".then_with(|| katas::data::Answer::total_cmp(&self.{f}, &other.{f}))")
        })
        .collect();
    let _ = writeln!(
        s,
        "impl katas::data::Answer for {name} {{\n    fn diff(&self, got: &Self, tol: katas::data::Tolerance) -> Option<katas::data::Diff> {{\n{diffs}        None\n    }}\n    fn total_cmp(&self, other: &Self) -> std::cmp::Ordering {{\n        std::cmp::Ordering::Equal{orders}\n    }}\n}}\n"
    );
    s
}

/// A tuple expression; a 1-tuple keeps its comma.
fn tuple(items: &[String]) -> String {
    if items.len() == 1 {
        format!("({},)", items[0])
    } else {
        format!("({})", items.join(", "))
    }
}

fn is_copy(ty: &Type) -> bool {
    match ty {
        Type::Int(_) | Type::F32 | Type::F64 | Type::Bool => true,
        Type::Str | Type::Vec(_) => false,
        Type::Tuple(items) => items.iter().all(is_copy),
        Type::Option(inner) => is_copy(inner),
        Type::Struct(_) => false,
    }
}

fn source(
    sx: &Structs,
    meta: &KataMeta,
    decl: &DataDecl,
    sig: &Signature,
    cases: &[(&CaseDecl, Vec<String>)],
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "//! @generated by katas::data::codegen from `{}`'s kata.toml [data] and data/cases.toml:\n\
         //! a data-only kata (no hand-written trusted code).\n\n\
         // Cases are pushed in report order (a group's literals, then its random draws), and the\n\
         // learner's signature is the instructor's to choose, however long.\n\
         #![allow(clippy::vec_init_then_push, clippy::type_complexity)]\n",
        meta.slug
    );
    s.push_str("use katas::{Case, Check, Group, KataSpec, Message, Refusal};\n");
    s.push_str("use serde::{Deserialize, Serialize};\n\n");
    for (name, fields) in sx {
        s.push_str(&struct_source(name, fields));
    }
    let arg_types: Vec<String> = sig.params.iter().map(|(_, t)| t.to_string()).collect();
    let _ = writeln!(
        s,
        "/// The learner's function.\n#[derive(Debug, Clone, Copy)]\npub struct Solution {{\n    pub {}: fn({}) -> {},\n}}\n",
        sig.name,
        arg_types.join(", "),
        sig.returns
    );
    s.push_str(
        "/// One call's arguments, by parameter name.\n#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]\n#[serde(deny_unknown_fields)]\npub struct Input {\n",
    );
    for (p, t) in &sig.params {
        let _ = writeln!(s, "    pub {p}: {t},");
    }
    s.push_str("}\n\n");
    let _ = writeln!(s, "pub type Output = {};\n", sig.returns);
    s.push_str("#[derive(Debug)]\npub struct Spec;\n\nimpl KataSpec for Spec {\n");
    s.push_str(
        "    type Solution = Solution;\n    type Input = Input;\n    type Output = Output;\n\n",
    );

    let seed = if decl.generate.is_empty() {
        "_seed"
    } else {
        "seed"
    };
    let _ = writeln!(s, "    fn cases({seed}: u64) -> Vec<Case<Input>> {{");
    s.push_str("        let mut cases = Vec::new();\n");
    if !decl.generate.is_empty() {
        s.push_str("        let mut rng = katas::data::rng(seed);\n");
    }
    for group in [
        GroupName::Sample,
        GroupName::Edge,
        GroupName::Random,
        GroupName::Performance,
    ] {
        for (case, fields) in cases.iter().filter(|(c, _)| c.group == group) {
            let _ = writeln!(
                s,
                "        cases.push(Case::new({:?}, Group::{}, Input {{ {} }}).zh({:?}));",
                case.name,
                group.variant(),
                fields.join(", "),
                case.name_zh
            );
        }
        for g in decl.generate.iter().filter(|g| g.group == group) {
            let fields: Vec<String> = sig
                .params
                .iter()
                .map(|(p, t)| {
                    let base = &decl.constraints[p];
                    let dom = g
                        .params
                        .get(p)
                        .map_or_else(|| base.clone(), |o| merged(o, base));
                    format!("{p}: {}", draw(sx, t, &dom, 0))
                })
                .collect();
            let _ = writeln!(
                s,
                "        for i in 0..{}u32 {{\n            let input = Input {{ {} }};\n            cases.push(Case::new(katas::data::numbered({:?}, i), Group::{}, input).zh(katas::data::numbered({:?}, i)));\n        }}",
                g.count,
                fields.join(", "),
                g.name,
                group.variant(),
                g.name_zh
            );
        }
    }
    s.push_str("        cases\n    }\n\n");

    let args: Vec<String> = sig
        .params
        .iter()
        .map(|(p, t)| {
            if is_copy(t) {
                format!("input.{p}")
            } else {
                format!("input.{p}.clone()")
            }
        })
        .collect();
    let _ = writeln!(
        s,
        "    fn solve(solution: Solution, input: &Input) -> Output {{\n        (solution.{})({})\n    }}\n",
        sig.name,
        args.join(", ")
    );
    let tolerance = match decl.tolerance {
        None => "None".to_string(),
        Some(t) => format!(
            "Some(katas::data::Tolerance {{ rel: {:?}, abs: {:?} }})",
            t.rel, t.abs
        ),
    };
    let _ = writeln!(
        s,
        "    fn check(_input: &Input, expected: &Output, got: &Output) -> Check {{\n        katas::data::check(katas::data::CheckerKind::{:?}, {tolerance}, expected, got)\n    }}\n",
        decl.checker
    );
    let described: Vec<String> = sig
        .params
        .iter()
        .map(|(p, _)| format!("({p:?}, &input.{p} as &dyn katas::data::Shown)"))
        .collect();
    let _ = writeln!(
        s,
        "    fn describe(input: &Input) -> Message {{\n        katas::data::describe(&[{}])\n    }}\n",
        described.join(", ")
    );
    let mut checks = String::new();
    for (p, t) in &sig.params {
        checks.push_str(&admit(
            sx,
            t,
            &decl.constraints[p],
            &Place::Path(format!("input.{p}")),
            p,
            &[],
            0,
        ));
    }
    let input = if checks.is_empty() { "_input" } else { "input" };
    let _ = writeln!(
        s,
        "    fn admit({input}: &Input) -> Result<(), Refusal> {{\n{checks}        Ok(())\n    }}\n}}"
    );
    s
}
