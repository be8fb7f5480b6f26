//! The constraints' domains against the declared types: whether a domain bounds or can be drawn
//! from, whether one lies in another, and the Rust each generated piece is made of (a case's
//! literal, a random draw, a custom input's admission checks).

use super::Structs;
use crate::meta::data_decl::{Domain, Int, Num, Type};
use std::fmt::Write as _;

/// What a domain must say: enough to bound custom input, or enough to draw values from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Need {
    Bounds,
    Draw,
}

pub(super) type Located = (String, String);

pub(super) fn fits(sx: &Structs, ty: &Type, dom: &Domain, need: Need) -> Result<(), Located> {
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
pub(super) fn within(
    sx: &Structs,
    ty: &Type,
    inner: &Domain,
    outer: &Domain,
) -> Result<(), Located> {
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
pub(super) fn literal(
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
pub(super) fn draw(sx: &Structs, ty: &Type, dom: &Domain, depth: usize) -> String {
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
pub(super) enum Place {
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
pub(super) fn admit(
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

/// A tuple expression; a 1-tuple keeps its comma.
pub(super) fn tuple(items: &[String]) -> String {
    if items.len() == 1 {
        format!("({},)", items[0])
    } else {
        format!("({})", items.join(", "))
    }
}
