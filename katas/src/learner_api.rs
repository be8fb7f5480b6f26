//! The learner-facing API of a kata package, read from its `kata.rs`: the `Solution` struct's
//! entry points, and every type defined in the package that they name, transitively (public
//! fields, variants, and the signatures of public methods). Two versions with the same API keep
//! learners' code compiling; a version whose API differs is a breaking change, and the
//! difference is what learners are told.
//!
//! Doc comments, serde attributes and function bodies are left out, so a reworded comment, a
//! field's wire encoding or a new checker is not an API change. Types that come from the `katas` crate itself (`Launch`, the rank helpers)
//! are versioned with the crate, not with the package.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use syn::visit::Visit;

/// One item of the API: `Solution::power`, `struct Layout`, `RingComm::send`, …
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiItem {
    pub name: String,
    /// The item as Rust source, formatted, without doc comments or bodies.
    pub text: String,
}

/// A package's learner-facing API, its items sorted by name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LearnerApi {
    pub items: Vec<ApiItem>,
}

/// One difference between two APIs: an item added (`before` empty), removed (`after` empty)
/// or changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApiChange {
    pub name: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("kata.rs does not parse as Rust: {0}")]
    Parse(String),
    #[error("kata.rs has no `pub struct Solution` with named fields (the entry points)")]
    NoSolution,
}

/// The name of the struct whose fields are a kata's entry points.
const SOLUTION: &str = "Solution";

impl LearnerApi {
    /// The API of a stdin/stdout kata: a whole program reading its input on stdin, the same
    /// for every version of every such kata (its input format is the statement's to say).
    pub fn program() -> Self {
        Self {
            items: vec![ApiItem {
                name: "main".into(),
                text: "fn main() /* reads stdin, writes stdout */".into(),
            }],
        }
    }

    /// The API that `kata.rs` (`source`) offers learners.
    pub fn of_logic(source: &str) -> Result<Self, ApiError> {
        let file = syn::parse_file(source).map_err(|e| ApiError::Parse(e.to_string()))?;
        let defs = Definitions::index(&file);
        let solution = defs
            .structs
            .get(SOLUTION)
            .filter(|s| matches!(s.fields, syn::Fields::Named(_)))
            .ok_or(ApiError::NoSolution)?;
        let mut items = BTreeMap::new();
        let mut pending = Vec::new();
        for field in &solution.fields {
            let Some(name) = &field.ident else { continue };
            items.insert(format!("{SOLUTION}::{name}"), type_text(&field.ty));
            pending.extend(named_types(&field.ty));
        }
        let mut seen = BTreeSet::from([SOLUTION.to_string()]);
        while let Some(name) = pending.pop() {
            if seen.insert(name.clone()) {
                defs.describe(&name, &mut items, &mut pending);
            }
        }
        Ok(Self {
            items: items
                .into_iter()
                .map(|(name, text)| ApiItem { name, text })
                .collect(),
        })
    }

    /// A short, stable identity of the API: two packages with equal fingerprints accept the
    /// same learner code.
    pub fn fingerprint(&self) -> String {
        let mut hasher = Sha256::new();
        for item in &self.items {
            for part in [&item.name, &item.text] {
                hasher.update((part.len() as u64).to_le_bytes());
                hasher.update(part.as_bytes());
            }
        }
        hasher.finalize()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// What changed from `old` to `self`, in item order; empty when the APIs are the same.
    pub fn changes_from(&self, old: &LearnerApi) -> Vec<ApiChange> {
        let before: BTreeMap<&str, &str> = old
            .items
            .iter()
            .map(|i| (i.name.as_str(), i.text.as_str()))
            .collect();
        let after: BTreeMap<&str, &str> = self
            .items
            .iter()
            .map(|i| (i.name.as_str(), i.text.as_str()))
            .collect();
        let names: BTreeSet<&str> = before.keys().chain(after.keys()).copied().collect();
        names
            .into_iter()
            .filter(|n| before.get(n) != after.get(n))
            .map(|n| ApiChange {
                name: n.to_string(),
                before: before.get(n).map(|t| t.to_string()),
                after: after.get(n).map(|t| t.to_string()),
            })
            .collect()
    }
}

/// The package's own type definitions and inherent/trait impls, by type name.
#[derive(Default)]
struct Definitions<'f> {
    structs: BTreeMap<String, &'f syn::ItemStruct>,
    enums: BTreeMap<String, &'f syn::ItemEnum>,
    aliases: BTreeMap<String, &'f syn::ItemType>,
    impls: BTreeMap<String, Vec<&'f syn::ItemImpl>>,
}

impl<'f> Definitions<'f> {
    fn index(file: &'f syn::File) -> Self {
        let mut defs = Self::default();
        for item in &file.items {
            match item {
                syn::Item::Struct(s) => {
                    defs.structs.insert(s.ident.to_string(), s);
                }
                syn::Item::Enum(e) => {
                    defs.enums.insert(e.ident.to_string(), e);
                }
                syn::Item::Type(t) => {
                    defs.aliases.insert(t.ident.to_string(), t);
                }
                syn::Item::Impl(i) => {
                    if let syn::Type::Path(p) = &*i.self_ty
                        && let Some(last) = p.path.segments.last()
                    {
                        defs.impls
                            .entry(last.ident.to_string())
                            .or_default()
                            .push(i);
                    }
                }
                _ => {}
            }
        }
        defs
    }

    /// Adds `name`'s definition and public methods to `items` (when the package defines it),
    /// and the types they name to `pending`.
    fn describe(
        &self,
        name: &str,
        items: &mut BTreeMap<String, String>,
        pending: &mut Vec<String>,
    ) {
        if let Some(s) = self.structs.get(name) {
            let mut public = (*s).clone();
            strip_non_api(&mut public.attrs);
            public.fields = match public.fields {
                syn::Fields::Named(mut named) => {
                    named.named = named
                        .named
                        .into_iter()
                        .filter(|f| is_pub(&f.vis))
                        .map(without_non_api)
                        .collect();
                    syn::Fields::Named(named)
                }
                syn::Fields::Unnamed(mut unnamed) => {
                    unnamed.unnamed = unnamed
                        .unnamed
                        .into_iter()
                        .filter(|f| is_pub(&f.vis))
                        .map(without_non_api)
                        .collect();
                    syn::Fields::Unnamed(unnamed)
                }
                unit => unit,
            };
            for field in &public.fields {
                pending.extend(named_types(&field.ty));
            }
            items.insert(
                format!("struct {name}"),
                item_text(syn::Item::Struct(public)),
            );
        } else if let Some(e) = self.enums.get(name) {
            let mut public = (*e).clone();
            strip_non_api(&mut public.attrs);
            for variant in &mut public.variants {
                strip_non_api(&mut variant.attrs);
                for field in &mut variant.fields {
                    strip_non_api(&mut field.attrs);
                    pending.extend(named_types(&field.ty));
                }
            }
            items.insert(format!("enum {name}"), item_text(syn::Item::Enum(public)));
        } else if let Some(t) = self.aliases.get(name) {
            let mut alias = (*t).clone();
            strip_non_api(&mut alias.attrs);
            pending.extend(named_types(&alias.ty));
            items.insert(format!("type {name}"), item_text(syn::Item::Type(alias)));
        }
        for imp in self.impls.get(name).into_iter().flatten() {
            match &imp.trait_ {
                Some((_, path, _)) => {
                    let mut header = (*imp).clone();
                    header.attrs.clear();
                    header.items.clear();
                    let text = item_text(syn::Item::Impl(header));
                    let key = format!("impl {} for {name}", path_text(path));
                    items.insert(key, text.trim_end_matches(" {}").to_string());
                }
                None => {
                    for f in imp.items.iter().filter_map(|i| match i {
                        syn::ImplItem::Fn(f) if is_pub(&f.vis) => Some(f),
                        _ => None,
                    }) {
                        visit_signature(&f.sig, pending);
                        items.insert(format!("{name}::{}", f.sig.ident), signature_text(f));
                    }
                }
            }
        }
    }
}

fn is_pub(vis: &syn::Visibility) -> bool {
    matches!(vis, syn::Visibility::Public(_))
}

/// Keeps the attributes that can change whether learners' code compiles (`derive`, `cfg`,
/// `non_exhaustive`, `repr`, …).
fn strip_non_api(attrs: &mut Vec<syn::Attribute>) {
    attrs.retain(is_api);
}

/// Attributes that never decide whether learners' code compiles: doc comments, serde's (how a
/// value crosses the wire), and those that at most warn (`must_use`, `deprecated`) or hint
/// (`inline`, tool attributes such as `rustfmt::skip`). Lint levels would belong here too, but
/// stay: the build's GPU katas carry `#[allow(non_snake_case)]` on their `Solution`, and every
/// stored version's API fingerprint was taken with it, so dropping it now would make their next
/// version read as an API change.
const NOT_API: &[&str] = &["doc", "serde", "must_use", "deprecated", "inline"];

fn is_api(attr: &syn::Attribute) -> bool {
    let path = attr.path();
    path.segments.len() == 1 && !NOT_API.iter().any(|name| path.is_ident(name))
}

fn without_non_api(mut field: syn::Field) -> syn::Field {
    strip_non_api(&mut field.attrs);
    field
}

/// Names of the types a type mentions (`&mut [Vec<Foo>]` → `Vec`, `Foo`); callers keep those
/// the package defines.
fn named_types(ty: &syn::Type) -> Vec<String> {
    let mut names = TypeNames::default();
    names.visit_type(ty);
    names.0
}

fn visit_signature(sig: &syn::Signature, pending: &mut Vec<String>) {
    let mut names = TypeNames::default();
    names.visit_signature(sig);
    pending.extend(names.0);
}

#[derive(Default)]
struct TypeNames(Vec<String>);

impl<'ast> Visit<'ast> for TypeNames {
    fn visit_type_path(&mut self, path: &'ast syn::TypePath) {
        if let Some(last) = path.path.segments.last() {
            self.0.push(last.ident.to_string());
        }
        syn::visit::visit_type_path(self, path);
    }
}

fn item_text(item: syn::Item) -> String {
    prettyplease::unparse(&syn::File {
        shebang: None,
        attrs: Vec::new(),
        items: vec![item],
    })
    .trim_end()
    .to_string()
}

/// `fn(&mut RingComm, &mut [f32])`, formatted as Rust prints it.
fn type_text(ty: &syn::Type) -> String {
    let alias: syn::ItemType = syn::parse_quote!(type T = #ty;);
    let text = item_text(syn::Item::Type(alias));
    text.strip_prefix("type T = ")
        .and_then(|t| t.strip_suffix(';'))
        .unwrap_or(&text)
        .to_string()
}

fn path_text(path: &syn::Path) -> String {
    path.segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect::<Vec<_>>()
        .join("::")
}

/// `pub fn send(&mut self, buffer: Vec<f32>)`: the method's signature without its body.
fn signature_text(f: &syn::ImplItemFn) -> String {
    let item = syn::ItemFn {
        attrs: Vec::new(),
        vis: f.vis.clone(),
        sig: f.sig.clone(),
        block: Box::new(syn::parse_quote!({})),
    };
    let text = item_text(syn::Item::Fn(item));
    text.strip_suffix("{}")
        .map(str::trim_end)
        .unwrap_or(&text)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const V1: &str = r#"
        /// The entry points.
        pub struct Solution {
            pub ring_allreduce: fn(&mut RingComm, &mut [f32]),
        }
        /// A rank's view of the ring.
        pub struct RingComm { rank: usize, pub size: usize }
        impl RingComm {
            /// Sends to the right.
            pub fn send(&mut self, buffer: &[f32]) { let _ = buffer; }
            pub fn recv(&mut self) -> Vec<f32> { Vec::new() }
            fn secret(&self) {}
        }
        impl std::fmt::Debug for RingComm {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result { Ok(()) }
        }
        pub struct Unrelated;
    "#;

    #[test]
    fn the_api_is_the_entry_points_and_what_they_name() {
        let api = LearnerApi::of_logic(V1).unwrap();
        let names: Vec<&str> = api.items.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "RingComm::recv",
                "RingComm::send",
                "Solution::ring_allreduce",
                "impl fmt::Debug for RingComm",
                "struct RingComm",
            ]
            .map(|n| n.replace("fmt::Debug", "std::fmt::Debug"))
        );
        let text = |n: &str| &api.items.iter().find(|i| i.name == n).unwrap().text;
        assert_eq!(
            text("RingComm::send"),
            "pub fn send(&mut self, buffer: &[f32])"
        );
        assert_eq!(
            text("Solution::ring_allreduce"),
            "fn(&mut RingComm, &mut [f32])"
        );
        assert!(
            !text("struct RingComm").contains("rank"),
            "private fields are not API"
        );
    }

    #[test]
    fn docs_and_bodies_are_not_api() {
        let reworded = V1
            .replace("/// Sends to the right.", "/// Moves a buffer to rank + 1.")
            .replace("let _ = buffer;", "drop(buffer);");
        assert_eq!(
            LearnerApi::of_logic(&reworded).unwrap().fingerprint(),
            LearnerApi::of_logic(V1).unwrap().fingerprint()
        );
    }

    #[test]
    fn a_field_s_wire_encoding_is_not_api() {
        let encoded = V1.replace(
            "pub size: usize }",
            "#[serde(with = \"katas::wire::floats\")] pub size: usize }",
        );
        assert_ne!(encoded, V1);
        assert_eq!(
            LearnerApi::of_logic(&encoded).unwrap().fingerprint(),
            LearnerApi::of_logic(V1).unwrap().fingerprint()
        );
    }

    #[test]
    fn warnings_and_hints_are_not_api_but_derives_are() {
        let same = |from: &str, to: &str| {
            let changed = V1.replace(from, to);
            assert_ne!(changed, V1, "{to}");
            LearnerApi::of_logic(&changed).unwrap().fingerprint()
                == LearnerApi::of_logic(V1).unwrap().fingerprint()
        };
        let ring = "/// A rank's view of the ring.";
        for quiet in [
            "#[must_use]",
            "#[deprecated = \"use Ring\"]",
            "#[rustfmt::skip]",
        ] {
            assert!(same(ring, &format!("{ring}\n{quiet}")), "{quiet}");
        }
        for api in [
            "#[derive(Clone)]",
            "#[non_exhaustive]",
            "#[allow(dead_code)]",
        ] {
            assert!(!same(ring, &format!("{ring}\n{api}")), "{api}");
        }
    }

    #[test]
    fn a_changed_signature_is_reported_as_such() {
        let v2 = V1.replace("buffer: &[f32]", "buffer: Vec<f32>");
        let old = LearnerApi::of_logic(V1).unwrap();
        let new = LearnerApi::of_logic(&v2).unwrap();
        assert_ne!(old.fingerprint(), new.fingerprint());
        assert_eq!(
            new.changes_from(&old),
            [ApiChange {
                name: "RingComm::send".into(),
                before: Some("pub fn send(&mut self, buffer: &[f32])".into()),
                after: Some("pub fn send(&mut self, buffer: Vec<f32>)".into()),
            }]
        );
    }

    #[test]
    fn a_package_without_entry_points_is_refused() {
        assert!(matches!(
            LearnerApi::of_logic("pub struct Other;"),
            Err(ApiError::NoSolution)
        ));
        assert!(matches!(
            LearnerApi::of_logic("pub struct {"),
            Err(ApiError::Parse(_))
        ));
    }

    #[cfg(feature = "solutions")]
    #[test]
    fn every_built_in_package_names_each_entry_point() {
        for kata in crate::catalogue::all() {
            let api = LearnerApi::of_logic(kata.package().logic).unwrap();
            for entry in &kata.meta().entry_points {
                let name = format!("{SOLUTION}::{entry}");
                assert!(
                    api.items.iter().any(|i| i.name == name),
                    "{}: {name} missing from {api:#?}",
                    kata.meta().slug
                );
            }
            if std::env::var_os("INFRAKATA_PRINT_API").is_some() {
                println!("== {}", kata.meta().slug);
                for item in &api.items {
                    println!("{}: {}", item.name, item.text);
                }
            }
        }
    }
}
