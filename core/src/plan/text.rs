//! Text that large plans repeat: [`Name`], a name shared by every event and bar that mentions it
//! without copying it, and [`Message`], an event's message kept as parts and formatted only when shown
//! (a 100,000-cluster GKE plan has over a million events; formatting each one would be most of the work).

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use serde::{Serialize, Serializer};

/// A shared, immutable name (a cluster, a stage, a version). Cloning it copies a pointer.
///
/// One pointer wide (the text's length lives with the text, not in every copy): a 10,000-cluster
/// GKE plan holds hundreds of thousands of copies in its events and bars, each of which carries up
/// to four names, so a fat pointer's second word would cost megabytes.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Name(Arc<Box<str>>);

impl Name {
    pub fn as_str(&self) -> &str {
        &self.0
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
        Name(Arc::new(Box::from(s)))
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name(Arc::new(s.into_boxed_str()))
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Name {
        Name::from(s.as_str())
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        **self.0 == *other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        **self.0 == **other
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

/// An event's message: plain text, or parts and arguments (`parts[0] args[0] parts[1] args[1] …`)
/// joined only when the message is displayed or serialized.
#[derive(Clone, PartialEq, Eq)]
pub enum Message {
    Text(Cow<'static, str>),
    Fill(&'static [&'static str], [Option<Name>; 3]),
}

impl Message {
    /// `parts` interleaved with `args` (one fewer argument than parts; at most three).
    pub fn fill(parts: &'static [&'static str], args: &[&Name]) -> Message {
        debug_assert_eq!(parts.len(), args.len() + 1);
        let mut a: [Option<Name>; 3] = [None, None, None];
        for (slot, arg) in a.iter_mut().zip(args) {
            *slot = Some((*arg).clone());
        }
        Message::Fill(parts, a)
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Message::Text(t) => f.write_str(t),
            Message::Fill(parts, args) => {
                for (i, part) in parts.iter().enumerate() {
                    f.write_str(part)?;
                    if let Some(Some(arg)) = args.get(i) {
                        f.write_str(arg)?;
                    }
                }
                Ok(())
            }
        }
    }
}

impl fmt::Debug for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string(), f)
    }
}

impl Serialize for Message {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Message::Text(t) => s.serialize_str(t),
            fill => s.collect_str(fill),
        }
    }
}

impl PartialEq<str> for Message {
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

impl PartialEq<&str> for Message {
    fn eq(&self, other: &&str) -> bool {
        self == *other
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

impl From<Cow<'static, str>> for Message {
    fn from(s: Cow<'static, str>) -> Message {
        Message::Text(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_filled_message_reads_and_serializes_as_its_text() {
        let (c, v) = (Name::from("prod-1"), Name::from("1.31.5-gke.2"));
        let m = Message::fill(&["", ": control plane upgrade to ", " starts"], &[&c, &v]);
        assert_eq!(
            m.to_string(),
            "prod-1: control plane upgrade to 1.31.5-gke.2 starts"
        );
        assert_eq!(m, "prod-1: control plane upgrade to 1.31.5-gke.2 starts");
        assert_ne!(m, "prod-1: control plane upgrade to 1.31.5-gke.2 start");
        assert_ne!(m, "prod-1: control plane upgrade to 1.31.5-gke.2 starts!");
        assert_eq!(
            serde_json::to_string(&m).unwrap_or_default(),
            "\"prod-1: control plane upgrade to 1.31.5-gke.2 starts\""
        );
        assert_eq!(serde_json::to_string(&c).unwrap_or_default(), "\"prod-1\"");
        assert_eq!(Message::from("x"), "x");
    }
}
