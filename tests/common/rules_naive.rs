//! A deliberately naive solver of the game *under a rule set*, independent of the
//! generator and the tables: it uses only the move generator and the rules module
//! (`RuleSet::advance`, `RuleSet::limit_reached`).
//!
//! A state is a position together with the counts played in it. From a state:
//!
//! - the side to move with no legal move has lost, even where a limit is reached
//!   (the win came in time);
//! - otherwise a state where a counter has reached its limit is a draw;
//! - otherwise each legal move leads to the state `(apply(pos, mv), set.advance(..))`,
//!   and the state is a win if some move leads to a loss for the opponent, a loss if
//!   every move leads to a win for the opponent, and a draw if it never becomes
//!   either (the usual fixed point, which also settles cycles, as under `none`).
//!
//! The solver collects every state reachable from the roots, then runs a plain
//! retrograde pass with successor counts.

use std::collections::{HashMap, VecDeque};

use damka_core::{apply, legal_moves};
use damka_core::{Position, Variant};
use damka_formats::Wdl;
use damka_probe::{rules::Counters, rules::RuleSet};

/// What a state is before solving: decided on its own, or open with successors.
enum Node {
    /// The side to move has no legal move: lost.
    Lost,
    /// A counter has reached its limit: drawn.
    Drawn,
    /// The ids of the states the legal moves lead to.
    Open(Vec<usize>),
}

/// Every state reachable from some roots, numbered in the order found.
struct StateGraph<V: Variant> {
    /// Each distinct set of counts met, numbered in the order found.
    counts: Vec<Counters>,
    /// Count-set ids, by the counts of the set's counters in the set's order
    /// (counters the set does not have never matter).
    count_ids: HashMap<Box<[u32]>, usize>,
    /// State ids, by position and count-set id.
    ids: HashMap<(Position<V>, usize), usize>,
    /// The node of each state, by id.
    nodes: Vec<Node>,
}

impl<V: Variant> StateGraph<V> {
    /// Explores, breadth first, every state reachable from `roots` under `set`.
    fn explore(set: &RuleSet, roots: &[(Position<V>, Counters)]) -> StateGraph<V> {
        let mut graph = StateGraph {
            counts: Vec::new(),
            count_ids: HashMap::new(),
            ids: HashMap::new(),
            nodes: Vec::new(),
        };
        // States found but not yet expanded: id, position, count-set id.
        let mut pending = VecDeque::new();
        for (pos, counters) in roots {
            graph.intern(set, pos, counters, &mut pending);
        }
        while let Some((id, pos, counts_id)) = pending.pop_front() {
            let counters = graph.counts[counts_id].clone();
            let moves = legal_moves(&pos);
            graph.nodes[id] = if moves.is_empty() {
                Node::Lost
            } else if set.limit_reached(&counters, &pos).is_some() {
                Node::Drawn
            } else {
                Node::Open(
                    moves
                        .iter()
                        .map(|mv| {
                            let next = apply(&pos, mv);
                            let played = set.advance(&counters, &pos, mv);
                            graph.intern(set, &next, &played, &mut pending)
                        })
                        .collect(),
                )
            };
        }
        graph
    }

    /// The id of a state, numbering it (and queueing it in `pending`) if it is new.
    fn intern(
        &mut self,
        set: &RuleSet,
        pos: &Position<V>,
        counters: &Counters,
        pending: &mut VecDeque<(usize, Position<V>, usize)>,
    ) -> usize {
        let counts_id = *self
            .count_ids
            .entry(counts_key(set, counters))
            .or_insert_with(|| {
                self.counts.push(counters.clone());
                self.counts.len() - 1
            });
        *self.ids.entry((*pos, counts_id)).or_insert_with(|| {
            // A placeholder until the state is expanded.
            self.nodes.push(Node::Drawn);
            pending.push_back((self.nodes.len() - 1, *pos, counts_id));
            self.nodes.len() - 1
        })
    }

    /// The id of a state that [`explore`](Self::explore) found.
    fn id(&self, set: &RuleSet, pos: &Position<V>, counters: &Counters) -> usize {
        self.ids[&(*pos, self.count_ids[&counts_key(set, counters)])]
    }

    /// The value of every state for its side to move, by id: retrograde from the
    /// lost states, then every state still undecided is a draw.
    fn solve(&self) -> Vec<Wdl> {
        let n = self.nodes.len();
        let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); n];
        // For each open state, how many of its moves do not yet lead to a win for
        // the opponent.
        let mut unrefuted = vec![0usize; n];
        let mut value: Vec<Option<Wdl>> = vec![None; n];
        let mut decided = VecDeque::new();
        for (id, node) in self.nodes.iter().enumerate() {
            match node {
                Node::Lost => {
                    value[id] = Some(Wdl::Loss);
                    decided.push_back(id);
                }
                Node::Drawn => value[id] = Some(Wdl::Draw),
                Node::Open(successors) => {
                    unrefuted[id] = successors.len();
                    for &next in successors {
                        predecessors[next].push(id);
                    }
                }
            }
        }
        while let Some(id) = decided.pop_front() {
            for &before in &predecessors[id] {
                if value[before].is_some() {
                    continue;
                }
                if value[id] == Some(Wdl::Loss) {
                    value[before] = Some(Wdl::Win);
                    decided.push_back(before);
                } else {
                    unrefuted[before] -= 1;
                    if unrefuted[before] == 0 {
                        value[before] = Some(Wdl::Loss);
                        decided.push_back(before);
                    }
                }
            }
        }
        value.into_iter().map(|v| v.unwrap_or(Wdl::Draw)).collect()
    }
}

/// The counts of `set`'s counters in `counters`, in plies, in the set's order.
fn counts_key(set: &RuleSet, counters: &Counters) -> Box<[u32]> {
    set.counters.iter().map(|c| counters.plies(&c.id)).collect()
}

/// The value of each root, for its side to move, in the game played under `set`:
/// a root is a position and the counts already played in it.
///
/// Every root must be a legal position; a side with no pieces counts as a side
/// with no legal move.
pub fn naive_rule_values<V: Variant>(set: &RuleSet, roots: &[(Position<V>, Counters)]) -> Vec<Wdl> {
    let graph = StateGraph::explore(set, roots);
    let values = graph.solve();
    roots
        .iter()
        .map(|(pos, counters)| values[graph.id(set, pos, counters)])
        .collect()
}
