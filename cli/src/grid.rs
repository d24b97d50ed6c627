//! Aligned text columns: collect rows, measure every column, then print them padded.

use std::io::{self, Write};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

pub struct Grid {
    aligns: Vec<Align>,
    rows: Vec<Vec<String>>,
}

const GAP: &str = "  ";

impl Grid {
    /// A grid whose first row is `header`; every column is left-aligned until [`Grid::right`] says otherwise.
    pub fn new(header: &[&str]) -> Grid {
        Grid {
            aligns: vec![Align::Left; header.len()],
            rows: vec![header.iter().map(|h| h.to_string()).collect()],
        }
    }

    /// A grid without a header row.
    pub fn headless(columns: usize) -> Grid {
        Grid {
            aligns: vec![Align::Left; columns],
            rows: Vec::new(),
        }
    }

    pub fn right(mut self, column: usize) -> Grid {
        if let Some(a) = self.aligns.get_mut(column) {
            *a = Align::Right;
        }
        self
    }

    /// Adds a row. Cells are shown with their hidden characters written out (a line break too, which
    /// would break the row), so the widths are those of what is printed.
    pub fn row(&mut self, cells: Vec<String>) {
        let cells = cells
            .into_iter()
            .map(|c| match fleetplan::visible::visible(&c) {
                std::borrow::Cow::Borrowed(_) => c,
                std::borrow::Cow::Owned(shown) => shown,
            })
            .collect();
        self.rows.push(cells);
    }

    /// Writes every row, each prefixed by `indent`. Widths count characters, not bytes, so that
    /// non-ASCII cluster names stay aligned; trailing padding is dropped.
    pub fn write(&self, w: &mut dyn Write, indent: &str) -> io::Result<()> {
        let columns = self
            .aligns
            .len()
            .max(self.rows.iter().map(Vec::len).max().unwrap_or(0));
        let mut widths = vec![0; columns];
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate() {
                widths[i] = widths[i].max(cell.chars().count());
            }
        }
        let mut line = String::new();
        for row in &self.rows {
            line.clear();
            line.push_str(indent);
            for (i, cell) in row.iter().enumerate() {
                if i > 0 {
                    line.push_str(GAP);
                }
                let pad = widths[i] - cell.chars().count();
                let align = self.aligns.get(i).copied().unwrap_or(Align::Left);
                if align == Align::Right {
                    line.extend(std::iter::repeat_n(' ', pad));
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    line.extend(std::iter::repeat_n(' ', pad));
                }
            }
            line.truncate(line.trim_end().len());
            line.push('\n');
            w.write_all(line.as_bytes())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_padded_to_the_widest_cell() {
        let mut g = Grid::new(&["NAME", "N"]).right(1);
        g.row(vec!["canary".into(), "1".into()]);
        g.row(vec!["é".into(), "100".into()]);
        let mut out = Vec::new();
        g.write(&mut out, "> ").unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "> NAME      N\n> canary    1\n> é       100\n");
    }

    #[test]
    fn hidden_characters_are_written_out_and_measured_as_written() {
        let mut g = Grid::new(&["NAME", "N"]);
        g.row(vec!["a\u{1b}[2J\nb".into(), "1".into()]);
        let mut out = Vec::new();
        g.write(&mut out, "").unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "NAME           N\na\\u{1b}[2J\\nb  1\n");
    }
}
