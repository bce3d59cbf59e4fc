//! Quoting words for the shell and for Make recipes.

/// `word` as one shell word: unchanged when it holds only safe characters, else
/// in single quotes.
pub fn shell(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// `word` as one shell word inside a Make recipe, where `$` is doubled.
pub fn make(word: &str) -> String {
    shell(word).replace('$', "$$")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_only_when_needed() {
        assert_eq!(shell("tables/russian"), "tables/russian");
        assert_eq!(shell("my tables"), "'my tables'");
        assert_eq!(shell("it's"), "'it'\\''s'");
        assert_eq!(shell(""), "''");
        assert_eq!(make("a$b"), "'a$$b'");
    }
}
