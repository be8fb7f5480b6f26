//! Formulas in drill items (`2*(n-1)*alpha + ...`), parsed and evaluated with `exmex`, and the
//! per-attempt parameter values they are evaluated on. Shared with `build.rs`.

use super::item::Param;
use exmex::prelude::*;
use std::collections::BTreeMap;

/// A parsed formula over an item's parameters.
#[derive(Debug, Clone)]
pub struct Formula {
    text: String,
    expr: exmex::FlatEx<f64>,
}

impl Formula {
    pub fn parse(text: &str) -> Result<Self, String> {
        exmex::parse::<f64>(text)
            .map(|expr| Self {
                text: text.to_string(),
                expr,
            })
            .map_err(|e| format!("formula `{text}` does not parse: {e}"))
    }

    /// The parameter names it uses, sorted.
    pub fn vars(&self) -> &[String] {
        self.expr.var_names()
    }

    /// Its value on `values`; every parameter it uses must be there and the result finite.
    pub fn eval(&self, values: &BTreeMap<String, f64>) -> Result<f64, String> {
        // exmex takes variable values in the sorted order of their names, which `vars` has.
        let args = self
            .vars()
            .iter()
            .map(|v| {
                values.get(v).copied().ok_or_else(|| {
                    format!("formula `{}` uses `{v}`, which is no parameter", self.text)
                })
            })
            .collect::<Result<Vec<f64>, String>>()?;
        let value = self
            .expr
            .eval(&args)
            .map_err(|e| format!("formula `{}` fails: {e}", self.text))?;
        if value.is_finite() {
            Ok(value)
        } else {
            Err(format!(
                "formula `{}` is not finite on {values:?}",
                self.text
            ))
        }
    }
}

/// Every value a parameter can take, smallest first (at most `cap`, then the range is sampled
/// evenly with both ends kept).
pub fn param_values(param: &Param, cap: usize) -> Result<Vec<f64>, String> {
    if !param.values.is_empty() {
        if param.min.is_some() || param.max.is_some() || param.step.is_some() {
            return Err("give either `values` or `min`/`max`/`step`, not both".into());
        }
        if param.values.iter().any(|v| !v.is_finite()) {
            return Err("`values` must be finite numbers".into());
        }
        return Ok(param.values.clone());
    }
    let (Some(min), Some(max)) = (param.min, param.max) else {
        return Err("a parameter needs `values`, or `min` and `max`".into());
    };
    let step = param.step.unwrap_or(1.0);
    if !(min.is_finite() && max.is_finite() && step.is_finite() && step > 0.0 && min <= max) {
        return Err(format!("bad range {min}..={max} step {step}"));
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
