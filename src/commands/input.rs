//! Positions given on the command line or, when there are none, one per line on
//! standard input.

use std::io::BufRead;
use std::process::ExitCode;

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

/// What a command prints for one good input: a JSON line, or human-readable text.
pub struct Output {
    /// The `--json` line.
    pub json: serde_json::Value,
    /// The text printed without `--json` (without a final newline).
    pub text: String,
}

/// Answers every input in order and prints the results. A bad input prints a
/// one-line error naming it (and, with `json`, `{"fen": ..., "error": ...}` on
/// standard output, so every input gets one line) without stopping the others;
/// the exit status is then non-zero.
pub fn answer_each(
    args: &[String],
    json: bool,
    mut answer: impl FnMut(&str) -> anyhow::Result<Output>,
) -> ExitCode {
    let mut ok = true;
    for item in inputs(args) {
        let input = match item {
            Ok(input) => input,
            Err(message) => {
                eprintln!("damka: {message}");
                ok = false;
                break;
            }
        };
        match answer(&input.text) {
            Ok(output) if json => println!("{}", output.json),
            Ok(output) => println!("{}", output.text),
            Err(error) => {
                ok = false;
                if json {
                    let line =
                        serde_json::json!({"fen": input.text, "error": format!("{error:#}")});
                    println!("{line}");
                }
                eprintln!("damka: {}: {error:#}: `{}`", input.label, input.text);
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
