//! Damka's generator.
#![warn(missing_docs)]
