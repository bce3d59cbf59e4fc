//! Damka's rules and probing.
#![warn(missing_docs)]
