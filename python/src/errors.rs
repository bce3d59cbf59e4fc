//! Python exceptions for Damka's errors: `ValueError` for bad input, and the
//! `TableError` family for table problems.

use damka_probe::limits::{CountersError, RulesError};
use damka_probe::ProbeError;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;

create_exception!(
    damka,
    TableError,
    PyException,
    "A problem with the tables: missing, corrupt, unreadable, or too few pieces."
);
create_exception!(
    damka,
    MissingTableError,
    TableError,
    "The directory holds no table of the variant, or not the one a position needs."
);
create_exception!(
    damka,
    CorruptTableError,
    TableError,
    "A table file failed a check, or is of another version, variant or rule set."
);
create_exception!(
    damka,
    NotCoveredError,
    TableError,
    "The position has more pieces than the tables cover."
);

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("TableError", py.get_type::<TableError>())?;
    m.add("MissingTableError", py.get_type::<MissingTableError>())?;
    m.add("CorruptTableError", py.get_type::<CorruptTableError>())?;
    m.add("NotCoveredError", py.get_type::<NotCoveredError>())?;
    Ok(())
}

/// The Python exception for a probe error, with the Rust message.
pub fn probe_error(error: ProbeError) -> PyErr {
    let message = error.to_string();
    match error {
        ProbeError::Fen(_)
        | ProbeError::InvalidPosition(_)
        | ProbeError::InvalidRuleSet(_)
        | ProbeError::NotInForce { .. } => PyValueError::new_err(message),
        ProbeError::NoTables { .. } | ProbeError::MissingTable { .. } => {
            MissingTableError::new_err(message)
        }
        ProbeError::CorruptTable { .. }
        | ProbeError::CorruptBlock { .. }
        | ProbeError::Version { .. }
        | ProbeError::WrongVariant { .. }
        | ProbeError::RulesMismatch { .. } => CorruptTableError::new_err(message),
        ProbeError::NotCovered { .. } => NotCoveredError::new_err(message),
        _ => TableError::new_err(message),
    }
}

/// The `ValueError` for a rule set that cannot be loaded.
pub fn rules_error(error: RulesError) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// The `ValueError` for played counts that cannot be read.
pub fn counters_error(error: CountersError) -> PyErr {
    PyValueError::new_err(format!("bad played counts: {error}"))
}
