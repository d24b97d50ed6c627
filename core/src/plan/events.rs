//! A plan's events: [`Event`]s that name stages, clusters and versions by their place in one table
//! ([`Events`]), so a million-event plan copies no name and touches no name's reference count while
//! it is computed; names are looked up only when an event is shown or serialized. A message that owns
//! its text keeps it in the list's table too, so an event owns nothing: a million of them are copied
//! without a look at their messages, and dropped as one block.

use std::borrow::Cow;
use std::fmt;
use std::ops::{Deref, DerefMut};

use serde::{Serialize, Serializer};

use super::text::{Counted, Message, Name, NameId};
use crate::time::Time;

/// Something that happened, at `at`. Its stage, cluster and the names in its message are places in
/// the [`Events`] table it belongs to: read them through [`Events::iter`] (or `for e in &events`).
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub at: Time,
    /// The real condition reason (`StageUpdatingStarted`, `ClusterUpdatingSucceeded`, …) or task
    /// condition (`ApprovalRequestCreated`, `ApprovalRequestApproved`, `WaitTimeElapsed`).
    pub reason: &'static str,
    pub stage: Option<NameId>,
    pub cluster: Option<NameId>,
    pub(crate) message: Kept,
}

/// An event's [`Message`] as its [`Events`] keeps it: a message that owns its text names it by its
/// place in the list's table of texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kept {
    Static(&'static str),
    Owned(u32),
    Fill(&'static [&'static str], [NameId; 3]),
    /// A [`Counted`] text by its place in the list's table of them (inline it would make every
    /// event 16 bytes larger).
    Counted(u32),
}

impl Kept {
    /// [`Message::fill`] as kept: it owns nothing, so it needs no list to be kept in.
    pub(crate) fn fill(parts: &'static [&'static str], args: &[NameId]) -> Kept {
        debug_assert_eq!(parts.len(), args.len() + 1);
        Kept::Fill(parts, super::text::three(args))
    }
}

/// Events in time order, with the names they mention. Dereferences to the list of [`Event`]s (times
/// and reasons); [`Events::iter`] gives each with its names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Events {
    names: Vec<Name>,
    /// The texts of the messages that own theirs.
    texts: Vec<String>,
    /// The messages that are counted texts.
    counted: Vec<Counted>,
    list: Vec<Event>,
}

impl Events {
    pub fn with_capacity(events: usize) -> Events {
        Events {
            names: Vec::new(),
            texts: Vec::new(),
            counted: Vec::new(),
            list: Vec::with_capacity(events),
        }
    }

    /// Adds `name` to the table; events and messages refer to it by the id returned.
    pub fn name(&mut self, name: Name) -> NameId {
        self.names.push(name);
        NameId::new((self.names.len() - 1) as u32)
    }

    /// The text of a name of the table.
    pub fn text(&self, id: NameId) -> &str {
        self.names.get(id.index()).map_or("", Name::as_str)
    }

    /// `message` as an event of this list keeps it (an owned text moves into the table).
    pub(crate) fn keep(&mut self, message: Message) -> Kept {
        match message {
            Message::Text(Cow::Borrowed(t)) => Kept::Static(t),
            Message::Text(Cow::Owned(t)) => {
                self.texts.push(t);
                Kept::Owned((self.texts.len() - 1) as u32)
            }
            Message::Fill(parts, args) => Kept::Fill(parts, args),
            Message::Counted(c) => {
                self.counted.push(c);
                Kept::Counted((self.counted.len() - 1) as u32)
            }
        }
    }

    /// Replaces the message of event `i` (an owned text takes the place of the one it replaces).
    pub(crate) fn set_message(&mut self, i: usize, message: Message) {
        let Some(old) = self.list.get(i).map(|e| e.message) else {
            return;
        };
        let kept = match (old, message) {
            (Kept::Owned(j), Message::Text(Cow::Owned(t))) => {
                self.texts[j as usize] = t;
                Kept::Owned(j)
            }
            (Kept::Counted(j), Message::Counted(c)) => {
                self.counted[j as usize] = c;
                Kept::Counted(j)
            }
            (_, m) => self.keep(m),
        };
        self.list[i].message = kept;
    }

    /// An event naming its stage and cluster by their places in the table ([`Events::name`]).
    pub fn push_ids(
        &mut self,
        at: Time,
        reason: &'static str,
        stage: Option<NameId>,
        cluster: Option<NameId>,
        message: Message,
    ) {
        let message = self.keep(message);
        self.list.push(Event {
            at,
            reason,
            stage,
            cluster,
            message,
        });
    }

    /// An event naming its stage and cluster by text (each added to the table).
    pub fn push_named(
        &mut self,
        at: Time,
        reason: &'static str,
        stage: Option<Name>,
        cluster: Option<Name>,
        message: Message,
    ) {
        let stage = stage.map(|s| self.name(s));
        let cluster = cluster.map(|c| self.name(c));
        self.push_ids(at, reason, stage, cluster, message);
    }

    /// Each event with its names.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            events: self,
            inner: self.list.iter(),
        }
    }

    /// One event with its names.
    pub fn view<'a>(&'a self, e: &'a Event) -> EventView<'a> {
        EventView {
            at: e.at,
            reason: e.reason,
            stage: e.stage.map(|s| self.text(s)),
            cluster: e.cluster.map(|c| self.text(c)),
            message: MessageText {
                message: e.message,
                names: &self.names,
                texts: &self.texts,
                counted: &self.counted,
            },
        }
    }

    /// Moves `other`'s events that `keep` accepts to the end of this list, with their names.
    pub fn append_from(&mut self, other: Events, mut keep: impl FnMut(&Event) -> bool) {
        let offset = self.names.len() as u32;
        let shift = |id: NameId| NameId::new(id.index() as u32 + offset);
        let text_offset = self.texts.len() as u32;
        let counted_offset = self.counted.len() as u32;
        self.names.extend(other.names);
        self.texts.extend(other.texts);
        self.counted.extend(other.counted);
        for mut e in other.list.into_iter().filter(|e| keep(e)) {
            e.stage = e.stage.map(shift);
            e.cluster = e.cluster.map(shift);
            match &mut e.message {
                Kept::Fill(_, args) => {
                    for a in args.iter_mut().filter(|a| **a != NameId::NONE) {
                        *a = shift(*a);
                    }
                }
                Kept::Owned(j) => *j += text_offset,
                Kept::Counted(j) => *j += counted_offset,
                Kept::Static(_) => {}
            }
            self.list.push(e);
        }
    }
}

impl Deref for Events {
    type Target = Vec<Event>;
    fn deref(&self) -> &Vec<Event> {
        &self.list
    }
}

impl DerefMut for Events {
    fn deref_mut(&mut self) -> &mut Vec<Event> {
        &mut self.list
    }
}

impl<'a> IntoIterator for &'a Events {
    type Item = EventView<'a>;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// The events of an [`Events`] with their names, in order.
pub struct Iter<'a> {
    events: &'a Events,
    inner: std::slice::Iter<'a, Event>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = EventView<'a>;
    fn next(&mut self) -> Option<EventView<'a>> {
        self.inner.next().map(|e| self.events.view(e))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.inner.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.inner.next_back().map(|e| self.events.view(e))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl Serialize for Events {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// An event with its names, as shown and serialized.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventView<'a> {
    pub at: Time,
    pub reason: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stage: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cluster: Option<&'a str>,
    pub message: MessageText<'a>,
}

/// An event's message with the table its names are in: displays, compares and serializes as its text.
#[derive(Clone, Copy)]
pub struct MessageText<'a> {
    message: Kept,
    names: &'a [Name],
    texts: &'a [String],
    counted: &'a [Counted],
}

impl MessageText<'_> {
    /// The whole text when it is one piece (`None`: parts and names to join).
    fn whole(&self) -> Option<&str> {
        match self.message {
            Kept::Static(t) => Some(t),
            Kept::Owned(j) => Some(self.texts.get(j as usize).map_or("", String::as_str)),
            Kept::Fill(..) | Kept::Counted(_) => None,
        }
    }
}

impl fmt::Display for MessageText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.message {
            Kept::Fill(parts, args) => Message::Fill(parts, args).write(self.names, f),
            Kept::Counted(j) => match self.counted.get(j as usize) {
                Some(c) => fmt::Display::fmt(c, f),
                None => Ok(()),
            },
            _ => f.write_str(self.whole().unwrap_or("")),
        }
    }
}

impl fmt::Debug for MessageText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string(), f)
    }
}

impl Serialize for MessageText<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.whole() {
            Some(t) => s.serialize_str(t),
            None => s.collect_str(self),
        }
    }
}

impl PartialEq<str> for MessageText<'_> {
    /// Compares the text without building it: each written piece must be the next part of `other`.
    fn eq(&self, other: &str) -> bool {
        struct Rest<'a>(&'a str);
        impl fmt::Write for Rest<'_> {
            fn write_str(&mut self, s: &str) -> fmt::Result {
                self.0 = self.0.strip_prefix(s).ok_or(fmt::Error)?;
                Ok(())
            }
        }
        let mut rest = Rest(other);
        fmt::write(&mut rest, format_args!("{self}")).is_ok() && rest.0.is_empty()
    }
}

impl PartialEq<&str> for MessageText<'_> {
    fn eq(&self, other: &&str) -> bool {
        self == *other
    }
}
