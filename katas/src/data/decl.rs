//! A data-only kata's declaration, the `[data]` table of its `kata.toml`: the learner's
//! signature in a small type vocabulary, the stock checker, the statement's constraints and the
//! random case groups. Serde and std only: `meta.rs` (and through it `build.rs` and the runner
//! library, which has no toml) names these types.

pub use crate::checker::{CheckerKind, Tolerance};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// `[data]` in `kata.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataDecl {
    /// The one entry point: `fn name(param: Type, ...) -> Type`, in the vocabulary of [`Type`].
    /// A kata with several writes `[[data.entry]]` instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// Several entry points, in `entry_points` order, each with its own signature and, where it
    /// differs from this table's, its own checker and tolerance.
    #[serde(default, rename = "entry", skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<EntryDecl>,
    /// Named structs the signature may use: `struct Name { field: Type, ... }` each.
    #[serde(default)]
    pub structs: Vec<String>,
    #[serde(default)]
    pub checker: CheckerKind,
    /// Floats compare within this (element-wise, whatever the checker); exact without it.
    #[serde(default)]
    pub tolerance: Option<Tolerance>,
    /// The statement's constraints, by parameter name: every case and every custom input lies
    /// within them, and random groups draw from them unless they narrow a parameter.
    pub constraints: BTreeMap<String, Domain>,
    /// Random case groups, drawn from the grading's seed.
    #[serde(default)]
    pub generate: Vec<GenerateDecl>,
}

/// `[[data.entry]]`: one of several entry points. Parameters of the same name in two entry
/// points are the same parameter: one type, one constraint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EntryDecl {
    pub signature: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checker: Option<CheckerKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<Tolerance>,
}

impl DataDecl {
    /// Every signature as written, in order: the one `signature`, or each `[[data.entry]]`'s.
    pub fn signatures(&self) -> Vec<&str> {
        self.signature
            .iter()
            .map(String::as_str)
            .chain(self.entries.iter().map(|e| e.signature.as_str()))
            .collect()
    }
}

/// Where a value lies: `range` for numbers, `len` and `of` for a `Vec` or `String` (`chars`
/// for a string's alphabet), `items` for a tuple, `some` (and `none`, the chance of `None` when
/// drawing) for an `Option`, `fields` (by name) for a struct.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Domain {
    #[serde(default)]
    pub range: Option<(Num, Num)>,
    #[serde(default)]
    pub len: Option<(u64, u64)>,
    #[serde(default)]
    pub of: Option<Box<Domain>>,
    #[serde(default)]
    pub chars: Option<String>,
    #[serde(default)]
    pub items: Option<Vec<Domain>>,
    #[serde(default)]
    pub some: Option<Box<Domain>>,
    #[serde(default)]
    pub none: Option<f64>,
    #[serde(default)]
    pub fields: Option<BTreeMap<String, Domain>>,
}

/// A bound as written: TOML integers stay exact.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    pub fn as_f64(self) -> f64 {
        match self {
            Self::Int(i) => i as f64,
            Self::Float(f) => f,
        }
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Int(i) => write!(f, "{i}"),
            Self::Float(x) => write!(f, "{x:?}"),
        }
    }
}

/// `[[data.generate]]`: `count` cases of `group`, named from templates where `{i}` is the
/// case's number; a parameter named here is drawn from this narrower domain, which takes from
/// the constraints whatever it leaves out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateDecl {
    /// The entry point the cases call: required when there are several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<String>,
    pub group: GroupName,
    pub count: u32,
    pub name: String,
    pub name_zh: String,
    #[serde(default)]
    pub params: BTreeMap<String, Domain>,
}

/// A case group as written in the package's files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GroupName {
    Sample,
    Edge,
    Random,
    Performance,
}

impl GroupName {
    /// The `katas::Group` variant it names.
    pub fn variant(self) -> &'static str {
        match self {
            Self::Sample => "Sample",
            Self::Edge => "Edge",
            Self::Random => "Random",
            Self::Performance => "Performance",
        }
    }
}

/// The type vocabulary of a data-only kata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Type {
    Int(Int),
    F32,
    F64,
    Bool,
    Str,
    Vec(Box<Type>),
    Tuple(Vec<Type>),
    Option(Box<Type>),
    /// One of the package's declared structs, by name.
    Struct(String),
}

/// Integer widths; `(min, max)` as `i128`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Int {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    Usize,
}

impl Int {
    const ALL: [(Int, &'static str); 9] = [
        (Int::I8, "i8"),
        (Int::I16, "i16"),
        (Int::I32, "i32"),
        (Int::I64, "i64"),
        (Int::U8, "u8"),
        (Int::U16, "u16"),
        (Int::U32, "u32"),
        (Int::U64, "u64"),
        (Int::Usize, "usize"),
    ];

    pub fn name(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(i, _)| *i == self)
            .map_or("?", |(_, n)| n)
    }

    pub fn bounds(self) -> (i128, i128) {
        match self {
            Self::I8 => (i8::MIN.into(), i8::MAX.into()),
            Self::I16 => (i16::MIN.into(), i16::MAX.into()),
            Self::I32 => (i32::MIN.into(), i32::MAX.into()),
            Self::I64 => (i64::MIN.into(), i64::MAX.into()),
            Self::U8 => (0, u8::MAX.into()),
            Self::U16 => (0, u16::MAX.into()),
            Self::U32 => (0, u32::MAX.into()),
            Self::U64 | Self::Usize => (0, u64::MAX.into()),
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Int(i) => f.write_str(i.name()),
            Self::F32 => f.write_str("f32"),
            Self::F64 => f.write_str("f64"),
            Self::Bool => f.write_str("bool"),
            Self::Str => f.write_str("String"),
            Self::Vec(t) => write!(f, "Vec<{t}>"),
            Self::Struct(name) => f.write_str(name),
            Self::Option(t) => write!(f, "Option<{t}>"),
            Self::Tuple(ts) => {
                f.write_str("(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                if ts.len() == 1 {
                    f.write_str(",")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// A parsed `signature`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    pub name: String,
    pub params: Vec<(String, Type)>,
    pub returns: Type,
}

/// A parsed `struct Name { field: Type, ... }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StructDecl {
    pub name: String,
    pub fields: Vec<(String, Type)>,
}

/// Names the generated code defines itself, and the vocabulary's own.
const TAKEN: &[&str] = &[
    "Solution", "Input", "Output", "Spec", "Vec", "Option", "String", "Self", "Case", "Check",
    "Group", "KataSpec", "Message", "Refusal",
];

impl StructDecl {
    /// The names `texts` declare (`struct Name {`), so that each may name the others.
    pub fn names(texts: &[String]) -> Result<Vec<String>, String> {
        if texts.len() > MAX_STRUCTS {
            return Err(format!("at most {MAX_STRUCTS} structs"));
        }
        let mut names = Vec::new();
        for text in texts {
            let mut p = Parser::new(text, &[]);
            p.keyword("struct")?;
            let name = p.ident()?;
            if !name.starts_with(|c: char| c.is_ascii_uppercase()) || TAKEN.contains(&name.as_str())
            {
                return Err(format!(
                    "`{name}`: a struct's name starts with a capital letter and is not one of {}",
                    TAKEN.join(", ")
                ));
            }
            if names.contains(&name) {
                return Err(format!("`{name}` is declared twice"));
            }
            names.push(name);
        }
        Ok(names)
    }

    /// Parses `struct Name { a: T, b: U }`, where `T` may name any of `names`.
    pub fn parse(text: &str, names: &[String]) -> Result<Self, String> {
        let mut p = Parser::new(text, names);
        p.keyword("struct")?;
        let name = p.ident()?;
        p.punct('{')?;
        let fields = p.fields('}')?;
        if fields.is_empty() {
            return Err(format!("`{name}` has no fields"));
        }
        p.end()?;
        Ok(Self { name, fields })
    }
}

impl Signature {
    /// Parses `fn name(a: T, b: U) -> R`; the error says what was expected where.
    pub fn parse(text: &str) -> Result<Self, String> {
        Self::parse_with(text, &[])
    }

    /// The same, where a type may name one of the declared structs `names`.
    pub fn parse_with(text: &str, names: &[String]) -> Result<Self, String> {
        let mut p = Parser::new(text, names);
        p.keyword("fn")?;
        let name = p.ident()?;
        p.punct('(')?;
        let params = p.fields(')')?;
        if params.is_empty() {
            return Err("the function takes no parameters: a case needs an input".into());
        }
        p.punct('-')?;
        p.punct('>')?;
        let returns = p.ty()?;
        p.end()?;
        Ok(Self {
            name,
            params,
            returns,
        })
    }
}

/// How deep `Vec<Option<(…)>>` may nest, and how many structs a package may declare: far more
/// than a kata needs, and a bound on every recursion over a declaration.
const MAX_NESTING: usize = 8;
pub const MAX_STRUCTS: usize = 16;

struct Parser<'a> {
    rest: &'a str,
    structs: &'a [String],
    depth: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, structs: &'a [String]) -> Self {
        Self {
            rest: text,
            structs,
            depth: 0,
        }
    }

    /// `name: Type` pairs separated by commas, up to `close`; a name may not repeat.
    fn fields(&mut self, close: char) -> Result<Vec<(String, Type)>, String> {
        let mut fields: Vec<(String, Type)> = Vec::new();
        while !self.eat(close) {
            if !fields.is_empty() {
                self.punct(',')?;
                if self.eat(close) {
                    break;
                }
            }
            let name = self.ident()?;
            self.punct(':')?;
            let ty = self.ty()?;
            if fields.iter().any(|(n, _)| *n == name) {
                return Err(format!("`{name}` appears twice"));
            }
            fields.push((name, ty));
        }
        Ok(fields)
    }

    fn skip_space(&mut self) {
        self.rest = self.rest.trim_start();
    }

    fn eat(&mut self, c: char) -> bool {
        self.skip_space();
        match self.rest.strip_prefix(c) {
            Some(rest) => {
                self.rest = rest;
                true
            }
            None => false,
        }
    }

    fn punct(&mut self, c: char) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected `{c}` at `{}`", self.shown_rest()))
        }
    }

    fn ident(&mut self) -> Result<String, String> {
        self.skip_space();
        let end = self
            .rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(self.rest.len());
        let word = &self.rest[..end];
        if word.is_empty() || word.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(format!("expected a name at `{}`", self.shown_rest()));
        }
        self.rest = &self.rest[end..];
        Ok(word.to_string())
    }

    fn keyword(&mut self, word: &str) -> Result<(), String> {
        let at = self.shown_rest();
        match self.ident() {
            Ok(w) if w == word => Ok(()),
            _ => Err(format!("expected `{word}` at `{at}`")),
        }
    }

    fn ty(&mut self) -> Result<Type, String> {
        // The package is the instructor's, hence hostile: a type nested without end would
        // exhaust the stack of the service that lints an upload.
        if self.depth >= MAX_NESTING {
            return Err(format!("types nest at most {MAX_NESTING} deep"));
        }
        self.depth += 1;
        let ty = self.ty_within();
        self.depth -= 1;
        ty
    }

    fn ty_within(&mut self) -> Result<Type, String> {
        if self.eat('(') {
            let mut items = Vec::new();
            while !self.eat(')') {
                if !items.is_empty() {
                    self.punct(',')?;
                    if self.eat(')') {
                        break;
                    }
                }
                items.push(self.ty()?);
            }
            if items.is_empty() {
                return Err("`()` is not a value a case can hold".into());
            }
            return Ok(Type::Tuple(items));
        }
        let at = self.shown_rest();
        let word = self.ident()?;
        if let Some((int, _)) = Int::ALL.iter().find(|(_, n)| *n == word) {
            return Ok(Type::Int(*int));
        }
        match word.as_str() {
            "f32" => Ok(Type::F32),
            "f64" => Ok(Type::F64),
            "bool" => Ok(Type::Bool),
            "String" => Ok(Type::Str),
            _ if self.structs.contains(&word) => Ok(Type::Struct(word)),
            "Vec" | "Option" => {
                self.punct('<')?;
                let inner = Box::new(self.ty()?);
                self.punct('>')?;
                Ok(if word == "Vec" {
                    Type::Vec(inner)
                } else {
                    Type::Option(inner)
                })
            }
            _ => Err(format!(
                "`{word}` (at `{at}`) is not in the vocabulary: integers (i8 … i64, u8 … u64, \
                 usize), f32, f64, bool, String, Vec<T>, Option<T>, tuples and the structs \
                 declared under `structs`"
            )),
        }
    }

    fn end(&mut self) -> Result<(), String> {
        self.skip_space();
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "unexpected `{}` after the signature",
                self.shown_rest()
            ))
        }
    }

    fn shown_rest(&self) -> String {
        let rest = self.rest.trim_start();
        if rest.is_empty() {
            return "the end".into();
        }
        rest.chars().take(24).collect()
    }
}
