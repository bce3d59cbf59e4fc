//! What a move does that may restart a counter: [`Event`] and the set of them,
//! [`Events`], with their TOML form.

use std::fmt;

use damka_core::{Position, Variant};
use serde::{Deserialize, Serialize};

use damka_core::moves::Move;

/// One thing a move can do that may restart a counter.
///
/// In TOML, `"capture"`, `"promotion"` or `"man-move"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Event {
    /// The move captures one or more pieces.
    Capture,
    /// The move crowns a man.
    Promotion,
    /// The moving piece is a man (a promotion and a capture by a man are man moves
    /// too).
    ManMove,
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Event::Capture => "capture",
            Event::Promotion => "promotion",
            Event::ManMove => "man move",
        })
    }
}

/// A set of [`Event`]s: what a move does ([`Events::of_move`]), or what restarts a
/// counter (`Counter::resets`).
///
/// In TOML, a list: `resets = ["capture", "promotion"]`; `resets = []` when
/// nothing inside the class restarts the count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "Vec<Event>", into = "Vec<Event>")]
pub struct Events {
    /// A capture.
    pub capture: bool,
    /// A promotion.
    pub promotion: bool,
    /// A move of a man.
    pub man_move: bool,
}

impl Events {
    /// No event.
    pub const NONE: Events = Events {
        capture: false,
        promotion: false,
        man_move: false,
    };

    /// What `mv`, a legal move from `pos`, does. The moved piece is a man when its
    /// start square holds no king.
    pub fn of_move<V: Variant>(pos: &Position<V>, mv: &Move) -> Events {
        Events {
            capture: mv.is_capture(),
            promotion: mv.is_promotion(),
            man_move: pos.kings() >> mv.from_bit() & 1 == 0,
        }
    }

    /// Whether `event` is in the set.
    pub fn contains(self, event: Event) -> bool {
        match event {
            Event::Capture => self.capture,
            Event::Promotion => self.promotion,
            Event::ManMove => self.man_move,
        }
    }

    /// Whether the two sets share an event.
    pub fn intersects(self, other: Events) -> bool {
        (self.capture && other.capture)
            || (self.promotion && other.promotion)
            || (self.man_move && other.man_move)
    }

    /// The events in the set, in the order capture, promotion, man move.
    pub fn iter(self) -> impl Iterator<Item = Event> {
        [Event::Capture, Event::Promotion, Event::ManMove]
            .into_iter()
            .filter(move |&e| self.contains(e))
    }
}

impl From<Vec<Event>> for Events {
    fn from(list: Vec<Event>) -> Events {
        Events {
            capture: list.contains(&Event::Capture),
            promotion: list.contains(&Event::Promotion),
            man_move: list.contains(&Event::ManMove),
        }
    }
}

impl From<Events> for Vec<Event> {
    fn from(events: Events) -> Vec<Event> {
        events.iter().collect()
    }
}

impl fmt::Display for Events {
    /// `capture, promotion`, or `nothing`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<String> = self.iter().map(|e| e.to_string()).collect();
        if names.is_empty() {
            f.write_str("nothing")
        } else {
            f.write_str(&names.join(", "))
        }
    }
}
