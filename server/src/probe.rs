//! `/api/probe`: the value, DTW and best move of a position, with a rule set the
//! answer under it, and every legal move with the value it leads to.

use damka_core::VariantKind;
use damka_probe::limits::{Counters, RuleSet};
use damka_probe::{Position, Variant};

use crate::catalog::{require, VariantTables};
use crate::error::ApiError;
use crate::json::{line_notation, ProbeJson, RulesJson};
use crate::limits::Budget;
use crate::move_list::{move_list, UnderRules};
use crate::params::Params;

/// The parameter names `/api/probe` takes.
pub const PARAMS: [&str; 5] = ["variant", "fen", "rules", "played", "pv"];

/// A probe request, checked before any table is read.
pub struct ProbeRequest {
    /// The variant.
    pub variant: VariantKind,
    /// The position as given.
    pub fen: String,
    /// The preset rule set's name and the counts played, when asked.
    pub rules: Option<(String, Counters)>,
    /// Whether to give the principal variation.
    pub pv: bool,
}

impl ProbeRequest {
    /// Reads and checks the parameters: the variant, the rule set (a preset
    /// written for the variant) and the played counts (the set's counters).
    pub fn from_params(params: &Params) -> Result<ProbeRequest, ApiError> {
        let variant = params.variant()?;
        let fen = params.required("fen")?.to_string();
        let played = params.get("played").unwrap_or("");
        let rules = match params.get("rules") {
            None if !played.trim().is_empty() => {
                return Err(ApiError::bad(
                    "played",
                    "`played` needs a rule set (`rules=russian`)",
                ))
            }
            None => None,
            Some(name) => {
                let set = RuleSet::preset(name)?;
                set.check_variant(variant)?;
                let counts = set.parse_counters(played)?;
                Some((set.name, counts))
            }
        };
        Ok(ProbeRequest {
            variant,
            fen,
            rules,
            pv: params.flag("pv")?,
        })
    }
}

/// Answers `request` from `tables` (the request's variant); a rule search still
/// running when the `budget` runs out gives up, and its value is unknown.
pub fn answer<V: Variant>(
    tables: Option<&VariantTables<V>>,
    request: &ProbeRequest,
    budget: Budget,
) -> Result<ProbeJson, ApiError> {
    let tables = require(tables)?;
    let pos: Position<V> = request.fen.parse()?;
    let mut json = ProbeJson::of(&tables.tablebase, &request.fen, &pos, request.pv)?;
    let Some((name, played)) = &request.rules else {
        json.moves = Some(move_list(&tables.tablebase, None, &pos)?);
        return Ok(json);
    };
    // The position's own answer first, then the moves, then the line: each
    // query reuses the search states of those before it, and what the deadline
    // cuts short is what matters least.
    let rules = tables.rules(name)?;
    let mut session = rules
        .session(Some(budget.deadline))
        .cancel_on(budget.cancel);
    let mut answer = RulesJson::of(rules, &mut session, played, &pos, false)?;
    let under = UnderRules {
        tables: rules,
        session: &mut session,
        played,
    };
    json.moves = Some(move_list(&tables.tablebase, Some(under), &pos)?);
    if request.pv {
        answer.pv = Some(line_notation(&pos, &session.pv_rules(pos, played)?));
    }
    json.rules = Some(answer);
    Ok(json)
}
