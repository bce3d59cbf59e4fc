//! The server's API against tables the test builds: the values and move lists
//! agree with the probe library, every bad input gets its status and a JSON
//! error naming the problem, and the limits hold. One test binary, so the tables
//! are built once.

mod common;
mod errors;
mod limits;
mod pages;
mod values;
