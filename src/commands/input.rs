//! Positions given on the command line or, when there are none, one per line on
//! standard input.

use std::io::BufRead;

/// One input item: a label naming where it came from, and its text.
pub struct Input {
    /// `argument N` or `line N`, for error messages.
    pub label: String,
    /// The text as given, trimmed.
    pub text: String,
}

/// The arguments if any were given, otherwise the lines of standard input, in order.
/// Reading stops at the first unreadable line of input, which is reported as an
/// error item.
pub fn inputs(args: &[String]) -> Box<dyn Iterator<Item = Result<Input, String>>> {
    if !args.is_empty() {
        let items: Vec<_> = args
            .iter()
            .enumerate()
            .map(|(i, text)| {
                Ok(Input {
                    label: format!("argument {}", i + 1),
                    text: text.trim().to_string(),
                })
            })
            .collect();
        return Box::new(items.into_iter());
    }
    let lines = std::io::stdin().lock().lines();
    Box::new(lines.enumerate().map(|(i, line)| match line {
        Ok(text) => Ok(Input {
            label: format!("line {}", i + 1),
            text: text.trim().to_string(),
        }),
        Err(e) => Err(format!("line {}: cannot read standard input: {e}", i + 1)),
    }))
}
