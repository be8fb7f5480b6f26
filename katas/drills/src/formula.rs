//! Formulas in drill items (`2*(n-1)*alpha + ...`), parsed and evaluated with `exmex`, and the
//! per-attempt parameter values they are evaluated on. Shared with `build.rs`.

use super::item::Param;
use exmex::prelude::*;
use std::collections::BTreeMap;

/// Why a formula could not be used: an authoring mistake the drill validation reports.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FormulaError {
    #[error("formula `{text}` does not parse: {message}")]
    Parse { text: String, message: String },
    #[error("formula `{text}` uses `{name}`, which is no parameter")]
    UnknownParameter { text: String, name: String },
    #[error("formula `{text}` fails: {message}")]
    Fails { text: String, message: String },
    #[error("formula `{text}` is not finite on {values:?}")]
    NotFinite {
        text: String,
        values: BTreeMap<String, f64>,
    },
}

/// Why a parameter's declared values are unusable.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParamError {
    #[error("give either `values` or `min`/`max`/`step`, not both")]
    Both,
    #[error("`values` must be finite numbers")]
    NotFinite,
    #[error("a parameter needs `values`, or `min` and `max`")]
    Missing,
    #[error("bad range {min}..={max} step {step}")]
    BadRange { min: f64, max: f64, step: f64 },
}

/// A parsed formula over an item's parameters.
#[derive(Debug, Clone)]
pub struct Formula {
    text: String,
    expr: exmex::FlatEx<f64>,
}

impl Formula {
    pub fn parse(text: &str) -> Result<Self, FormulaError> {
        exmex::parse::<f64>(text)
            .map(|expr| Self {
                text: text.to_string(),
                expr,
            })
            .map_err(|e| FormulaError::Parse {
                text: text.to_string(),
                message: e.to_string(),
            })
    }

    /// The parameter names it uses, sorted.
    pub fn vars(&self) -> &[String] {
        self.expr.var_names()
    }

    /// Its value on `values`; every parameter it uses must be there and the result finite.
    pub fn eval(&self, values: &BTreeMap<String, f64>) -> Result<f64, FormulaError> {
        // exmex takes variable values in the sorted order of their names, which `vars` has.
        let args = self
            .vars()
            .iter()
            .map(|v| {
                values
                    .get(v)
                    .copied()
                    .ok_or_else(|| FormulaError::UnknownParameter {
                        text: self.text.clone(),
                        name: v.clone(),
                    })
            })
            .collect::<Result<Vec<f64>, _>>()?;
        let value = self.expr.eval(&args).map_err(|e| FormulaError::Fails {
            text: self.text.clone(),
            message: e.to_string(),
        })?;
        if value.is_finite() {
            Ok(value)
        } else {
            Err(FormulaError::NotFinite {
                text: self.text.clone(),
                values: values.clone(),
            })
        }
    }
}

/// Every value a parameter can take, smallest first (at most `cap`, then the range is sampled
/// evenly with both ends kept).
pub fn param_values(param: &Param, cap: usize) -> Result<Vec<f64>, ParamError> {
    if !param.values.is_empty() {
        if param.min.is_some() || param.max.is_some() || param.step.is_some() {
            return Err(ParamError::Both);
        }
        if param.values.iter().any(|v| !v.is_finite()) {
            return Err(ParamError::NotFinite);
        }
        return Ok(param.values.clone());
    }
    let (Some(min), Some(max)) = (param.min, param.max) else {
        return Err(ParamError::Missing);
    };
    let step = param.step.unwrap_or(1.0);
    if !(min.is_finite() && max.is_finite() && step.is_finite() && step > 0.0 && min <= max) {
        return Err(ParamError::BadRange { min, max, step });
    }
    let count = ((max - min) / step + 1e-9).floor() as usize + 1;
    let pick = |k: usize| min + k as f64 * step;
    if count <= cap {
        Ok((0..count).map(pick).collect())
    } else {
        let last = count - 1;
        Ok((0..cap).map(|i| pick(i * last / (cap - 1))).collect())
    }
}

/// One value of `param`, drawn with `rng`.
pub fn draw(param: &Param, rng: &mut fastrand::Rng) -> f64 {
    if !param.values.is_empty() {
        return param.values[rng.usize(..param.values.len())];
    }
    let min = param.min.unwrap_or(0.0);
    let max = param.max.unwrap_or(min);
    let step = param.step.unwrap_or(1.0);
    let count = ((max - min) / step + 1e-9).floor().max(0.0) as u64 + 1;
    min + rng.u64(..count) as f64 * step
}

/// A number as a person writes it: integers without a fraction, others with at most
/// `digits` significant digits and no trailing zeros.
pub fn show(value: f64, digits: usize) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        return format!("{}", value as i64);
    }
    let magnitude = if value == 0.0 {
        0
    } else {
        value.abs().log10().floor() as i64
    };
    let decimals = (digits as i64 - 1 - magnitude).clamp(0, 12) as usize;
    let text = format!("{value:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}
