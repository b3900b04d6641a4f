//! The `table` format: at most 80 columns wide, cells wrapped at spaces, JSON pretty-printed
//! in cells and cut after `--max-lines` lines.

/// The widest a table gets.
pub const MAX_WIDTH: usize = 80;

/// The narrowest a column gets when columns have to share the width.
const MIN_COLUMN: usize = 3;

/// A table to lay out: a header (or none) and rows of cell texts (which may hold line breaks).
pub struct Table {
    pub header: Option<Vec<String>>,
    pub rows: Vec<Vec<String>>,
    /// Lines kept per cell (0: all).
    pub max_lines: usize,
    /// Header cells (or, without a header, the first column) in bold.
    pub color: bool,
}

fn width(text: &str) -> usize {
    text.chars().count()
}

/// Column widths: the natural ones if the table fits in [`MAX_WIDTH`]. Else columns give up
/// width one character at a time, the widest first: first down to their longest word (so
/// text wraps at spaces and ids stay whole), then, if that is not enough, below it.
fn layout(natural: &[usize], words: &[usize]) -> Vec<usize> {
    let n = natural.len();
    let borders = 3 * n + 1;
    let budget = MAX_WIDTH.saturating_sub(borders);
    let mut widths = natural.to_vec();
    let mut total: usize = widths.iter().sum();
    for floor in [words, &vec![MIN_COLUMN; n][..]] {
        while total > budget {
            let widest = (0..n)
                .filter(|&i| widths[i] > floor[i].max(MIN_COLUMN))
                .max_by_key(|&i| (widths[i], std::cmp::Reverse(i)));
            let Some(i) = widest else { break };
            widths[i] -= 1;
            total -= 1;
        }
    }
    widths
}

/// The longest word of a cell (what it needs not to be cut inside a word).
fn longest_word(text: &str) -> usize {
    text.split_whitespace().map(width).max().unwrap_or(0)
}

/// Wraps one line at spaces to `width` characters (continuation lines keep the line's
/// indentation, as in pretty-printed JSON); a word longer than that is cut.
fn wrap_line(line: &str, width: usize, out: &mut Vec<String>) {
    let width = width.max(1);
    if width_of(line) <= width {
        out.push(line.to_owned());
        return;
    }
    let trimmed = line.trim_start_matches(' ');
    let indent = line.len() - trimmed.len();
    let indent = if indent * 2 < width { indent } else { 0 };
    let pad = " ".repeat(indent);
    let inner = width - indent;
    let mut current = String::new();
    for word in trimmed.split(' ').filter(|w| !w.is_empty()) {
        let need = if current.is_empty() {
            width_of(word)
        } else {
            width_of(&current) + 1 + width_of(word)
        };
        if need <= inner {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(word);
            continue;
        }
        if !current.is_empty() {
            out.push(format!("{pad}{current}"));
            current.clear();
        }
        let mut rest: Vec<char> = word.chars().collect();
        while rest.len() > inner {
            out.push(format!("{pad}{}", rest[..inner].iter().collect::<String>()));
            rest.drain(..inner);
        }
        current = rest.into_iter().collect();
    }
    if !current.is_empty() {
        out.push(format!("{pad}{current}"));
    }
}

fn width_of(text: &str) -> usize {
    width(text)
}

/// The lines of a cell at `width`, cut after `max_lines` with a `...` line.
fn cell_lines(text: &str, width: usize, max_lines: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for line in text.split('\n') {
        wrap_line(line.trim_end(), width, &mut lines);
        if max_lines > 0 && lines.len() > max_lines {
            break;
        }
    }
    if lines.is_empty() {
        lines.push(String::new());
    }
    if max_lines > 0 && lines.len() > max_lines {
        lines.truncate(max_lines);
        lines.push("...".to_owned());
    }
    lines
}

/// A header cut to `width`: `width - 3` characters and `...`.
fn cut_header(text: &str, width: usize) -> String {
    if width_of(text) <= width {
        return text.to_owned();
    }
    if width <= 3 {
        return text.chars().take(width).collect();
    }
    let mut cut: String = text.chars().take(width - 3).collect();
    cut.push_str("...");
    cut
}

const BOLD: &str = "\x1b[1m";
const RESET: &str = "\x1b[0m";

impl Table {
    /// The table as text (each line ending with `\n`).
    pub fn render(&self) -> String {
        let columns = self
            .header
            .as_ref()
            .map(Vec::len)
            .or_else(|| self.rows.first().map(Vec::len))
            .unwrap_or(0);
        if columns == 0 {
            return String::new();
        }
        let mut natural = vec![0usize; columns];
        let mut words = vec![0usize; columns];
        if let Some(header) = &self.header {
            for (i, h) in header.iter().enumerate() {
                natural[i] = natural[i].max(width(h));
            }
        }
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate().take(columns) {
                let lines = cell_lines(cell, usize::MAX, self.max_lines);
                for line in lines {
                    natural[i] = natural[i].max(width(&line));
                    words[i] = words[i].max(longest_word(&line));
                }
            }
        }
        let natural: Vec<usize> = natural.into_iter().map(|w| w.max(1)).collect();
        let widths = layout(&natural, &words);
        let border = {
            let mut line = String::from("+");
            for w in &widths {
                line.push_str(&"-".repeat(w + 2));
                line.push('+');
            }
            line.push('\n');
            line
        };
        let mut rendered_rows: Vec<Vec<Vec<String>>> = Vec::with_capacity(self.rows.len());
        for row in &self.rows {
            rendered_rows.push(
                (0..columns)
                    .map(|i| {
                        cell_lines(
                            row.get(i).map_or("", String::as_str),
                            widths[i],
                            self.max_lines,
                        )
                    })
                    .collect(),
            );
        }
        let tall = rendered_rows
            .iter()
            .any(|cells| cells.iter().any(|c| c.len() > 1));
        let mut out = String::new();
        out.push_str(&border);
        if let Some(header) = &self.header {
            let cells: Vec<Vec<String>> = header
                .iter()
                .zip(&widths)
                .map(|(h, w)| vec![cut_header(h, *w)])
                .collect();
            self.push_row(&mut out, &cells, &widths, true);
            out.push_str(&border);
        }
        for (index, cells) in rendered_rows.iter().enumerate() {
            if tall && index > 0 {
                out.push_str(&border);
            }
            self.push_row(&mut out, cells, &widths, false);
        }
        out.push_str(&border);
        out
    }

    fn push_row(&self, out: &mut String, cells: &[Vec<String>], widths: &[usize], header: bool) {
        let height = cells.iter().map(Vec::len).max().unwrap_or(1);
        for line in 0..height {
            out.push('|');
            for (i, (cell, w)) in cells.iter().zip(widths).enumerate() {
                let text = cell.get(line).map_or("", String::as_str);
                let pad = w.saturating_sub(width(text));
                let bold = self.color && (header || (self.header.is_none() && i == 0));
                out.push(' ');
                if bold && !text.is_empty() {
                    out.push_str(BOLD);
                    out.push_str(text);
                    out.push_str(RESET);
                } else {
                    out.push_str(text);
                }
                out.push_str(&" ".repeat(pad));
                out.push_str(" |");
            }
            out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(header: &[&str], rows: &[&[&str]], max_lines: usize) -> String {
        Table {
            header: Some(header.iter().map(|s| (*s).to_owned()).collect()),
            rows: rows
                .iter()
                .map(|r| r.iter().map(|s| (*s).to_owned()).collect())
                .collect(),
            max_lines,
            color: false,
        }
        .render()
    }

    #[test]
    fn narrow_tables_keep_their_natural_width() {
        let text = table(&["id", "name"], &[&["a1", "first"], &["b22", "second"]], 4);
        assert_eq!(
            text,
            "+-----+--------+\n| id  | name   |\n+-----+--------+\n| a1  | first  |\n| b22 | second |\n+-----+--------+\n"
        );
    }

    #[test]
    fn wide_tables_wrap_at_80_columns_and_cut_cells() {
        let long = "word ".repeat(80);
        let text = table(&["id", "description"], &[&["x", long.trim()]], 3);
        for line in text.lines() {
            assert!(line.chars().count() <= MAX_WIDTH, "{line:?}");
        }
        assert!(text.contains("| ... "), "{text}");
        assert_eq!(text.lines().count(), 3 + 4 + 1);
    }

    #[test]
    fn ids_stay_whole_and_text_wraps_at_spaces() {
        let text = table(
            &["id", "name", "updatedAt", "description"],
            &[&[
                "bkMyCOKONZghl2RC",
                "warnings-to-vendor",
                "2026-11-23 19:47:38",
                "Keeps logs at or above a severity, optionally dropping noisy services.",
            ]],
            4,
        );
        assert!(text.contains("| bkMyCOKONZghl2RC |"), "{text}");
        assert!(text.contains("| warnings-to-vendor |"), "{text}");
        for line in text.lines() {
            assert!(line.chars().count() <= MAX_WIDTH, "{line:?}");
        }
    }

    #[test]
    fn long_headers_are_cut_with_dots() {
        assert_eq!(cut_header("organizationId", 8), "organ...");
        assert_eq!(cut_header("id", 8), "id");
    }

    #[test]
    fn words_longer_than_the_column_are_cut() {
        let mut out = Vec::new();
        wrap_line("abcdefghij kl", 4, &mut out);
        assert_eq!(out, ["abcd", "efgh", "ij", "kl"]);
        let mut out = Vec::new();
        wrap_line("  \"a\": 1", 20, &mut out);
        assert_eq!(out, ["  \"a\": 1"]);
    }
}
