//! Undo/redo over the scenario text: a bounded list of committed versions and a cursor.
//!
//! Pure (no signals, no browser), so it is unit-tested natively. Versions are recorded when an edit is
//! committed (after the typing debounce), so one undo steps back over a burst of typing, not a keystroke.

/// How many versions are kept; older ones are dropped first. Scenarios are small text, so this stays cheap.
const LIMIT: usize = 200;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    versions: Vec<String>,
    /// Index of the version currently shown.
    cursor: usize,
}

impl History {
    pub fn new(initial: String) -> Self {
        History {
            versions: vec![initial],
            cursor: 0,
        }
    }

    pub fn current(&self) -> &str {
        &self.versions[self.cursor]
    }

    /// Records `text` as the newest version; drops the redo branch. Recording the current text is a no-op,
    /// so undo and redo (which set the text themselves) do not grow the list.
    pub fn record(&mut self, text: &str) {
        if self.current() != text {
            self.record_new(text.to_string());
        }
    }

    /// [`History::record`] for a caller that already knows `text` differs from the current version
    /// (the app keeps the current version as its committed text and compares with that): no second
    /// pass over a large text, and no copy of it.
    pub fn record_new(&mut self, text: String) {
        debug_assert_ne!(self.current(), text.as_str());
        self.versions.truncate(self.cursor + 1);
        self.versions.push(text);
        if self.versions.len() > LIMIT {
            let excess = self.versions.len() - LIMIT;
            self.versions.drain(..excess);
        }
        self.cursor = self.versions.len() - 1;
    }

    /// Steps back; `None` at the oldest version.
    pub fn undo(&mut self) -> Option<&str> {
        if self.cursor == 0 {
            return None;
        }
        self.cursor -= 1;
        Some(self.current())
    }

    /// Steps forward again; `None` when nothing was undone.
    pub fn redo(&mut self) -> Option<&str> {
        if self.cursor + 1 >= self.versions.len() {
            return None;
        }
        self.cursor += 1;
        Some(self.current())
    }

    /// Every kept version, oldest first; [`History::cursor`] is the one shown.
    pub fn versions(&self) -> &[String] {
        &self.versions
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    pub fn can_undo(&self) -> bool {
        self.cursor > 0
    }

    pub fn can_redo(&self) -> bool {
        self.cursor + 1 < self.versions.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_and_redo_walk_the_versions() {
        let mut h = History::new("a".into());
        assert_eq!(h.undo(), None);
        h.record("b");
        h.record("c");
        assert_eq!(h.undo(), Some("b"));
        assert_eq!(h.undo(), Some("a"));
        assert_eq!(h.undo(), None);
        assert_eq!(h.redo(), Some("b"));
        // The text the app sets on undo comes back through `record`; it must not fork the history.
        h.record("b");
        assert_eq!(h.redo(), Some("c"));
        assert_eq!(h.redo(), None);
    }

    #[test]
    fn a_new_edit_after_undo_drops_the_redo_branch() {
        let mut h = History::new("a".into());
        h.record("b");
        h.undo();
        h.record("x");
        assert!(!h.can_redo());
        assert_eq!(h.undo(), Some("a"));
    }

    #[test]
    fn the_oldest_versions_are_dropped_past_the_limit() {
        let mut h = History::new("0".into());
        for i in 1..=LIMIT + 10 {
            h.record(&i.to_string());
        }
        let mut steps = 0;
        while h.undo().is_some() {
            steps += 1;
        }
        assert_eq!(steps, LIMIT - 1);
        assert_eq!(h.current(), "11");
    }
}
