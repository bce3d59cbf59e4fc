//! Kings-only groups are solved in two bytes per position (`gen/src/kings.rs`):
//! their values must be those of the general solve, and a value too long for a
//! byte must make the solve fall back to the general one, with the same result.

use crate::common;

use common::temp_dir;
use damka_core::{build_order, dependencies, Move, Position, Russian, Slice};
use damka_formats::Wdl;
use damka_gen::exits::ExitCache;
use damka_gen::solve::{Dtw, Group, Located, Metric};
use damka_gen::{build, BuildOptions};
use damka_probe::Tablebase;

/// DTW stored `SHIFT` higher (draws stay 0), solved in two bytes per position
/// where only kings are on the board if `TWO_BYTES`. `Shifted<0, false>` is DTW
/// solved the general way; `Shifted<SHIFT, true>` stores no value that fits the
/// two-byte solve's byte, so that solve must give up and solve the general way.
struct Shifted<const SHIFT: u16, const TWO_BYTES: bool>(Dtw<Russian>);

/// How much higher the fallback's metric stores every decided value.
const SHIFT: u16 = 300;

impl<const SHIFT: u16, const TWO_BYTES: bool> Metric<Russian> for Shifted<SHIFT, TWO_BYTES> {
    type Lookup = Located;

    const KINGS_IN_TWO_BYTES: bool = TWO_BYTES;

    fn locate(
        &self,
        pos: &Position<Russian>,
        mv: &Move,
        after: &Position<Russian>,
        cache: &mut ExitCache,
    ) -> Located {
        self.0.locate(pos, mv, after, cache)
    }

    fn resolve(&self, at: Located) -> (Wdl, u16) {
        self.0.resolve(at)
    }

    fn encode(&self, wdl: Wdl, plies: u16) -> u16 {
        match self.0.encode(wdl, plies) {
            0 => 0,
            raw => raw + SHIFT,
        }
    }

    fn decode(&self, raw: u16) -> (Wdl, u16) {
        match raw {
            0 => (Wdl::Draw, 0),
            raw => self.0.decode(raw - SHIFT),
        }
    }
}

/// The raw values and capture bits of a solved group, slot by slot.
/// `two_bytes`: whether the solve must have been the two-byte one.
fn solved<M: Metric<Russian>>(
    mut group: Group<Russian, M>,
    two_bytes: bool,
) -> Vec<(Vec<u16>, Vec<bool>)> {
    group.solve(&|_| {}).unwrap();
    assert_eq!(group.in_two_bytes(), two_bytes);
    group
        .into_slots()
        .into_iter()
        .map(|slot| {
            let (values, captures) = slot.into_values().unwrap();
            (values, captures.iter().map(|b| *b).collect())
        })
        .collect()
}

#[test]
fn kings_only_groups_solve_like_the_general_solve() {
    let tmp = temp_dir("kings-only");
    let dir = tmp.path().to_path_buf();
    // The kings-only slices up to 5 pieces, which read only each other.
    let mut heads: Vec<Slice> = Vec::new();
    for slice in build_order::<Russian>(5) {
        if slice.men() == 0 && !heads.contains(&slice.mirror()) {
            heads.push(slice);
        }
    }
    for &head in &heads {
        let options = BuildOptions {
            root: dir.clone(),
            max_pieces: 5,
            only: Some(head),
            with_dependencies: false,
            memory: None,
            progress: None,
        };
        build::<Russian>(&options, &mut |_| {}).unwrap();
    }
    let tablebase = Tablebase::<Russian>::new(&dir);
    let deps = |head: Slice| {
        dependencies(head)
            .into_iter()
            .map(|d| tablebase.slice_table(d).unwrap())
            .collect::<Vec<_>>()
    };
    let mut checked = 0;
    for head in heads {
        let two_bytes = Group::new(head, Dtw::<Russian>::new(deps(head))).unwrap();
        let general = Group::new(head, Shifted::<0, false>(Dtw::new(deps(head)))).unwrap();
        let too_long = Group::new(head, Shifted::<SHIFT, true>(Dtw::new(deps(head)))).unwrap();
        let (a, b, c) = (
            solved(two_bytes, true),
            solved(general, false),
            solved(too_long, false),
        );
        assert_eq!(a, b, "{head}: two-byte solve against the general one");
        // The fallback's values are the same, stored 300 higher.
        let shifted: Vec<(Vec<u16>, Vec<bool>)> = a
            .iter()
            .map(|(values, captures)| {
                let values = values.iter().map(|&v| if v == 0 { 0 } else { v + SHIFT });
                (values.collect(), captures.clone())
            })
            .collect();
        assert_eq!(
            shifted, c,
            "{head}: the fallback of a value too long for a byte"
        );
        checked += 1;
    }
    assert!(checked >= 6, "only {checked} kings-only groups");
}
