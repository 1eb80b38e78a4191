//! The data lines of the lab's text files (record and truth files): the
//! one place that knows comments start with `#` and blank lines carry
//! nothing.

use std::io::{self, BufRead};

/// The lines of `r` that hold data, each with its line number (from 1, as
/// error messages quote it); comment and blank lines skipped, read errors
/// passed on.
pub fn data_lines(r: impl BufRead) -> impl Iterator<Item = (usize, io::Result<String>)> {
    r.lines()
        .enumerate()
        .map(|(n, line)| (n + 1, line))
        .filter(|(_, line)| match line {
            Ok(text) => !(text.starts_with('#') || text.trim().is_empty()),
            Err(_) => true,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_and_blank_lines_are_skipped_and_numbers_kept() {
        let text = "# header\n\na\t1\n  \nb\t2\n";
        let lines: Vec<(usize, String)> = data_lines(text.as_bytes())
            .map(|(n, l)| (n, l.unwrap()))
            .collect();
        assert_eq!(
            lines,
            vec![(3, "a\t1".to_string()), (5, "b\t2".to_string())]
        );
    }
}
