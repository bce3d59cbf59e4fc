//! The parameters of an API request, read from its query string: only the names
//! an endpoint knows, each at most once, so a typing mistake is an error rather
//! than a parameter silently ignored.

use damka_core::VariantKind;

use crate::error::ApiError;

/// The decoded `name=value` pairs of a query string.
pub struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    /// Reads `query` (the part of the URI after `?`), refusing a name that is not
    /// in `known` and a name given twice.
    pub fn parse(query: Option<&str>, known: &[&str]) -> Result<Params, ApiError> {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query.unwrap_or(""))
            .map_err(|e| ApiError::bad("query", format!("malformed query string: {e}")))?;
        for (i, (name, _)) in pairs.iter().enumerate() {
            if !known.contains(&name.as_str()) {
                return Err(ApiError::bad(
                    "query",
                    format!(
                        "unknown parameter `{name}` (this endpoint takes: {})",
                        known.join(", ")
                    ),
                ));
            }
            if pairs[..i].iter().any(|(other, _)| other == name) {
                return Err(ApiError::bad(
                    "query",
                    format!("parameter `{name}` is given twice"),
                ));
            }
        }
        Ok(Params { pairs })
    }

    /// The value of `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The value of `name`, which must be given.
    pub fn required(&self, name: &str) -> Result<&str, ApiError> {
        self.get(name)
            .ok_or_else(|| ApiError::bad("query", format!("missing parameter `{name}`")))
    }

    /// The `variant` parameter: `russian` or `international`.
    pub fn variant(&self) -> Result<VariantKind, ApiError> {
        self.required("variant")?
            .parse()
            .map_err(|e: String| ApiError::bad("variant", e))
    }

    /// A yes/no parameter: absent, `false` or `0` is no; `true`, `1` or empty
    /// (`?pv`) is yes.
    pub fn flag(&self, name: &str) -> Result<bool, ApiError> {
        match self.get(name) {
            None | Some("false" | "0") => Ok(false),
            Some("true" | "1" | "") => Ok(true),
            Some(other) => Err(ApiError::bad(
                "query",
                format!("parameter `{name}` must be true or false, not `{other}`"),
            )),
        }
    }
}
