//! Text that large plans repeat: [`Name`], a name shared by every event and bar that mentions it
//! without copying it, and [`Message`], an event's message kept as parts and formatted only when shown
//! (a 100,000-cluster GKE plan has over a million events; formatting each one would be most of the work).

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::num::NonZeroU32;
use std::ops::Deref;
use std::sync::Arc;

use serde::{Serialize, Serializer};

/// A shared, immutable name (a cluster, a stage, a version). Cloning it copies a pointer.
///
/// The text lives in the reference-counted block itself (one allocation per name; a name behind a
/// `Box` inside the `Arc` took two, and a staged plan makes a name per cluster). That makes a copy
/// two words instead of one, which no longer adds up: events and bars name their texts by place in
/// a table ([`NameId`], [`Labels`]), not by copies of the name.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name(Arc<str>);

impl Name {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Where the shared text lives: the same for every copy of this name, so a planner can find
    /// the place a name already has in a table without comparing texts.
    pub(crate) fn addr(&self) -> usize {
        Arc::as_ptr(&self.0).cast::<u8>() as usize
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name(Arc::from(s))
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name(Arc::from(s))
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Name {
        Name::from(s.as_str())
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        **self == *other.0
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

/// A name's place in the table of the [`super::Events`] it belongs to. Kept as the place plus one,
/// so that an absent one (`Option<NameId>`, an event's stage or cluster) takes no more room: an
/// event of a million-event plan is 8 bytes smaller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NameId(NonZeroU32);

impl NameId {
    /// No name: the unused arguments of a [`Message::Fill`] (a place no table reaches).
    pub const NONE: NameId = NameId(NonZeroU32::MAX);

    /// The name at place `i` of the table (`u32::MAX` is no place: it reads as [`NameId::NONE`]).
    pub const fn new(i: u32) -> NameId {
        match NonZeroU32::new(i.wrapping_add(1)) {
            Some(n) => NameId(n),
            None => NameId::NONE,
        }
    }

    /// The place in the table.
    pub const fn index(self) -> usize {
        (self.0.get() - 1) as usize
    }
}

/// The texts a plan's bars name ([`super::Phase`]'s label and version) by their place, so a bar
/// copies no name and touches no reference count: a 100,000-cluster GKE plan has over a million bars,
/// and every one of them used to step the counts of two shared names when it was made and dropped.
/// A planner adds a text once (a version, a window, a rollout's bar label) and its bars share the id.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Labels(Vec<Name>);

impl Labels {
    /// Adds `text`; bars refer to it by the id returned.
    pub fn add(&mut self, text: impl Into<Name>) -> NameId {
        self.0.push(text.into());
        NameId::new((self.0.len() - 1) as u32)
    }

    /// The text of `id` (empty for an id of another table).
    pub fn text(&self, id: NameId) -> &str {
        self.0.get(id.index()).map_or("", Name::as_str)
    }
}

/// An event's message: plain text, or parts and names of its event list's table
/// (`parts[0] args[0] parts[1] args[1] …`), joined only when the message is shown or serialized.
#[derive(Clone, PartialEq, Eq)]
pub enum Message {
    Text(Cow<'static, str>),
    Fill(&'static [&'static str], [NameId; 3]),
    Counted(Counted),
}

impl Message {
    /// `parts` interleaved with `args` (one fewer argument than parts; at most three).
    pub fn fill(parts: &'static [&'static str], args: &[NameId]) -> Message {
        debug_assert_eq!(parts.len(), args.len() + 1);
        Message::Fill(parts, three(args))
    }

    /// Writes the text, its names read from `names` (the table of its event list).
    pub(crate) fn write(&self, names: &[Name], f: &mut dyn fmt::Write) -> fmt::Result {
        match self {
            Message::Text(t) => f.write_str(t),
            Message::Fill(parts, args) => {
                for (i, part) in parts.iter().enumerate() {
                    f.write_str(part)?;
                    if let Some(arg) = args.get(i).and_then(|a| names.get(a.index())) {
                        f.write_str(arg)?;
                    }
                }
                Ok(())
            }
            Message::Counted(c) => c.write(f),
        }
    }
}

/// A text of fixed parts and integers (`parts[0] numbers[0] parts[1] numbers[1] …`), written only
/// when it is shown or serialized: a rolling plan gives every move it makes a reason with its round's
/// counts, and writing those texts as the moves were made took two allocations a move (the move's
/// and its event's copy), about half of a 1,000-cluster rolling plan's.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Counted {
    parts: &'static [&'static str],
    numbers: [i64; 3],
}

impl Counted {
    /// `parts` interleaved with `numbers` (one fewer number than parts; at most three).
    pub fn new(parts: &'static [&'static str], numbers: &[i64]) -> Counted {
        debug_assert_eq!(parts.len(), numbers.len() + 1);
        debug_assert!(numbers.len() <= 3);
        let mut n = [0; 3];
        for (slot, x) in n.iter_mut().zip(numbers) {
            *slot = *x;
        }
        Counted { parts, numbers: n }
    }

    /// Writes the text: each number in decimal as `Display` writes it, `-` before a negative one.
    fn write(&self, f: &mut dyn fmt::Write) -> fmt::Result {
        let last = self.parts.len().saturating_sub(1);
        for (i, part) in self.parts.iter().enumerate() {
            f.write_str(part)?;
            if let Some(n) = self.numbers.get(i).filter(|_| i < last) {
                if *n < 0 {
                    f.write_char('-')?;
                }
                let mut buf = [0; crate::decimal::LONGEST];
                f.write_str(crate::decimal::decimal(n.unsigned_abs(), &mut buf))?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Counted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write(f)
    }
}

impl fmt::Debug for Counted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string(), f)
    }
}

impl Serialize for Counted {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Up to three arguments of a [`Message::Fill`], the unused ones [`NameId::NONE`].
pub(crate) fn three(args: &[NameId]) -> [NameId; 3] {
    let mut a = [NameId::NONE; 3];
    for (slot, arg) in a.iter_mut().zip(args) {
        *slot = *arg;
    }
    a
}

impl fmt::Debug for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Text(t) => fmt::Debug::fmt(t, f),
            Message::Fill(parts, args) => f.debug_tuple("Fill").field(parts).field(args).finish(),
            Message::Counted(c) => fmt::Debug::fmt(c, f),
        }
    }
}

impl From<&'static str> for Message {
    fn from(s: &'static str) -> Message {
        Message::Text(Cow::Borrowed(s))
    }
}

impl From<String> for Message {
    fn from(s: String) -> Message {
        Message::Text(Cow::Owned(s))
    }
}

impl From<Counted> for Message {
    fn from(c: Counted) -> Message {
        Message::Counted(c)
    }
}

impl From<Cow<'static, str>> for Message {
    fn from(s: Cow<'static, str>) -> Message {
        Message::Text(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::Events;
    use crate::time::Time;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_filled_message_reads_and_serializes_as_its_text() {
        let mut events = Events::default();
        let c = events.name(Name::from("prod-1"));
        let v = events.name(Name::from("1.31.5-gke.2"));
        let m = Message::fill(&["", ": control plane upgrade to ", " starts"], &[c, v]);
        events.push_named(Time(0), "UPGRADE_STARTED", None, Some("prod-1".into()), m);
        events.push_named(Time(0), "X", None, None, Message::from("x"));
        let e = events.iter().next().expect("an event");
        assert_eq!(
            e.message.to_string(),
            "prod-1: control plane upgrade to 1.31.5-gke.2 starts"
        );
        assert_eq!(
            e.message,
            "prod-1: control plane upgrade to 1.31.5-gke.2 starts"
        );
        assert_ne!(
            e.message,
            "prod-1: control plane upgrade to 1.31.5-gke.2 start"
        );
        assert_ne!(
            e.message,
            "prod-1: control plane upgrade to 1.31.5-gke.2 starts!"
        );
        assert_eq!(e.cluster, Some("prod-1"));
        assert_eq!(
            serde_json::to_string(&events).unwrap_or_default(),
            "[{\"at\":\"1970-01-01T00:00:00Z\",\"reason\":\"UPGRADE_STARTED\",\"cluster\":\"prod-1\",\"message\":\"prod-1: control plane upgrade to 1.31.5-gke.2 starts\"},{\"at\":\"1970-01-01T00:00:00Z\",\"reason\":\"X\",\"message\":\"x\"}]"
        );
        assert_eq!(
            serde_json::to_string(&Name::from("prod-1")).unwrap_or_default(),
            "\"prod-1\""
        );
    }
}
