//! Pretty JSON of plans: the bytes serde_json's pretty writer gives, written with fewer instructions.
//!
//! serde_json looks each byte of every string up in a table and splits the string at it (254 M of
//! the 1,047 M instructions `fleetplan plan --format json` took on the 10,000-cluster GKE file), and
//! writes an indentation as one two-space piece per level. Here a string with nothing to escape (nearly
//! all of a plan's) is found so eight bytes at a time and copied whole, an indentation is one fill,
//! and the pieces go into a buffer this writer owns, handed to the output every 64 KB. Numbers,
//! escapes and the layout are serde_json's: integers in decimal, floats through serde_json itself,
//! `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t` and `\u00xx` (lowercase) for the other control characters,
//! two spaces per level, `"key": value`, `[]` and `{}` when empty.

use std::fmt::{self, Display};
use std::io::{self, Write};

use serde::ser::{self, Serialize};

/// What is gathered before it is handed to the output.
const CHUNK: usize = 1 << 16;

/// Writes `value` as serde_json's `to_writer_pretty` would, without the final newline.
pub fn write_pretty<T: Serialize + ?Sized>(sink: &mut dyn Write, value: &T) -> io::Result<()> {
    let mut w = Writer {
        buf: Vec::with_capacity(CHUNK + 4096),
        sink,
        depth: 0,
        scratch: String::new(),
    };
    value.serialize(&mut w).map_err(Error::into_io)?;
    w.sink.write_all(&w.buf)
}

struct Writer<'s> {
    buf: Vec<u8>,
    sink: &'s mut dyn Write,
    /// Levels of indentation of the next line.
    depth: usize,
    /// A value written through `Display` (`collect_str`) before it is escaped.
    scratch: String,
}

impl Writer<'_> {
    /// Hands the buffer to the output once it holds a chunk; called before each element.
    fn spill(&mut self) -> Result<(), Error> {
        if self.buf.len() >= CHUNK {
            self.sink.write_all(&self.buf).map_err(Error::Io)?;
            self.buf.clear();
        }
        Ok(())
    }

    fn new_line(&mut self) {
        self.buf.push(b'\n');
        let end = self.buf.len() + 2 * self.depth;
        self.buf.resize(end, b' ');
    }

    fn string(&mut self, s: &str) {
        self.buf.push(b'"');
        let mut rest = s.as_bytes();
        while let Some(at) = first_escape(rest) {
            self.buf.extend_from_slice(&rest[..at]);
            let byte = rest[at];
            let short = match byte {
                b'"' => b'"',
                b'\\' => b'\\',
                0x08 => b'b',
                0x0c => b'f',
                b'\n' => b'n',
                b'\r' => b'r',
                b'\t' => b't',
                _ => 0,
            };
            if short == 0 {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                self.buf.extend_from_slice(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(byte >> 4)],
                    HEX[usize::from(byte & 0xf)],
                ]);
            } else {
                self.buf.extend_from_slice(&[b'\\', short]);
            }
            rest = &rest[at + 1..];
        }
        self.buf.extend_from_slice(rest);
        self.buf.push(b'"');
    }

    fn unsigned(&mut self, n: u64) {
        let mut digits = [0; fleetplan::decimal::LONGEST];
        self.buf
            .extend_from_slice(fleetplan::decimal::decimal(n, &mut digits).as_bytes());
    }

    fn signed(&mut self, n: i64) {
        if n < 0 {
            self.buf.push(b'-');
        }
        self.unsigned(n.unsigned_abs());
    }

    /// A value serde_json formats itself (floats, 128-bit integers), so its digits are its own.
    fn through_serde_json<T: Serialize>(&mut self, value: T) -> Result<(), Error> {
        serde_json::to_writer(&mut self.buf, &value).map_err(|e| Error::Custom(e.to_string()))
    }

    fn open(&mut self, bracket: u8) {
        self.buf.push(bracket);
        self.depth += 1;
    }

    fn close(&mut self, any: bool, bracket: u8) {
        self.depth -= 1;
        if any {
            self.new_line();
        }
        self.buf.push(bracket);
    }

    /// `{ "variant": ` of an enum variant with content, which serde_json writes as a one-key object.
    fn open_variant(&mut self, variant: &str) {
        self.open(b'{');
        self.new_line();
        self.string(variant);
        self.buf.extend_from_slice(b": ");
    }
}

/// Whether eight bytes hold one that JSON escapes (a control character, `"` or `\\`): a byte below
/// 0x20 borrows in `x - 0x20` per byte, and `"` or `\\` become zero under xor, which borrows in
/// `- 1`; bytes of 0x80 and up (non-ASCII) are never escaped, so their high bit is masked out.
fn any_escape(x: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |v: u64| v.wrapping_sub(ONES) & !v;
    (x.wrapping_sub(ONES * 0x20) | zero(x ^ (ONES * 0x22)) | zero(x ^ (ONES * 0x5c))) & !x & HIGH
        != 0
}

/// The place of the first byte JSON escapes. Eight bytes at a time, the last eight overlapping
/// the ones before, and a short text padded with spaces, so a text with nothing to escape (nearly
/// every text of a plan) is never read byte by byte.
fn first_escape(bytes: &[u8]) -> Option<usize> {
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or_default());
    let any = if bytes.len() < 8 {
        let mut padded = [b' '; 8];
        padded[..bytes.len()].copy_from_slice(bytes);
        any_escape(word(&padded))
    } else {
        bytes.chunks_exact(8).any(|c| any_escape(word(c)))
            || any_escape(word(&bytes[bytes.len() - 8..]))
    };
    if !any {
        return None;
    }
    bytes
        .iter()
        .position(|&b| b < 0x20 || b == b'"' || b == b'\\')
}

#[derive(Debug)]
enum Error {
    Io(io::Error),
    Custom(String),
}

impl Error {
    /// An I/O error keeps its kind, so a closed pipe is recognized as one (`out::to_stdout`).
    fn into_io(self) -> io::Error {
        match self {
            Error::Io(e) => e,
            Error::Custom(message) => io::Error::other(message),
        }
    }
}

impl Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io(e) => Display::fmt(e, f),
            Error::Custom(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: Display>(msg: T) -> Self {
        Error::Custom(msg.to_string())
    }
}

/// A list or object being written: whether it has an element yet.
struct Compound<'a, 's> {
    w: &'a mut Writer<'s>,
    any: bool,
}

impl Compound<'_, '_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.w.spill()?;
        if self.any {
            self.w.buf.push(b',');
        }
        self.any = true;
        self.w.new_line();
        value.serialize(&mut *self.w)
    }

    fn key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.w.spill()?;
        if self.any {
            self.w.buf.push(b',');
        }
        self.any = true;
        self.w.new_line();
        key.serialize(KeyWriter(&mut *self.w))?;
        self.w.buf.extend_from_slice(b": ");
        Ok(())
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &str, value: &T) -> Result<(), Error> {
        self.w.spill()?;
        if self.any {
            self.w.buf.push(b',');
        }
        self.any = true;
        self.w.new_line();
        self.w.string(key);
        self.w.buf.extend_from_slice(b": ");
        value.serialize(&mut *self.w)
    }
}

impl<'a, 's> ser::Serializer for &'a mut Writer<'s> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, 's>;
    type SerializeTuple = Compound<'a, 's>;
    type SerializeTupleStruct = Compound<'a, 's>;
    type SerializeTupleVariant = Compound<'a, 's>;
    type SerializeMap = Compound<'a, 's>;
    type SerializeStruct = Compound<'a, 's>;
    type SerializeStructVariant = Compound<'a, 's>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.buf
            .extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.signed(v.into());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.signed(v.into());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.signed(v.into());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.signed(v);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.through_serde_json(v)
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.unsigned(v.into());
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.unsigned(v.into());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.unsigned(v.into());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.unsigned(v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.through_serde_json(v)
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.through_serde_json(v)
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.through_serde_json(v)
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.string(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for byte in v {
            seq.serialize_element(byte)?;
        }
        seq.end()
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.buf.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.string(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.open_variant(variant);
        value.serialize(&mut *self)?;
        self.close(true, b'}');
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, 's>, Error> {
        self.open(b'[');
        Ok(Compound {
            w: self,
            any: false,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 's>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 's>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 's>, Error> {
        self.open_variant(variant);
        self.serialize_seq(Some(len))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, 's>, Error> {
        self.open(b'{');
        Ok(Compound {
            w: self,
            any: false,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, 's>, Error> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 's>, Error> {
        self.open_variant(variant);
        self.serialize_map(Some(len))
    }
    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<(), Error> {
        let mut text = std::mem::take(&mut self.scratch);
        text.clear();
        fmt::write(&mut text, format_args!("{value}")).map_err(ser::Error::custom)?;
        self.string(&text);
        self.scratch = text;
        Ok(())
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        self.w.close(self.any, b']');
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.element(value)
    }
    fn end(self) -> Result<(), Error> {
        self.w.close(self.any, b']');
        self.w.close(true, b'}');
        Ok(())
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key(key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.w)
    }
    fn end(self) -> Result<(), Error> {
        self.w.close(self.any, b'}');
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), Error> {
        self.w.close(self.any, b'}');
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.field(key, value)
    }
    fn end(self) -> Result<(), Error> {
        self.w.close(self.any, b'}');
        self.w.close(true, b'}');
        Ok(())
    }
}

/// A map's key: JSON keys are strings, so serde_json quotes a number or boolean key and refuses a
/// list or object; the same here.
struct KeyWriter<'a, 's>(&'a mut Writer<'s>);

impl KeyWriter<'_, '_> {
    fn quoted(self, write: impl FnOnce(&mut Writer<'_>) -> Result<(), Error>) -> Result<(), Error> {
        self.0.buf.push(b'"');
        write(self.0)?;
        self.0.buf.push(b'"');
        Ok(())
    }
}

fn key_must_be_a_string() -> Error {
    Error::Custom("key must be a string".to_owned())
}

impl ser::Serializer for KeyWriter<'_, '_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.quoted(|w| w.serialize_bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.quoted(|w| w.serialize_i8(v))
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.quoted(|w| w.serialize_i16(v))
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.quoted(|w| w.serialize_i32(v))
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.quoted(|w| w.serialize_i64(v))
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.quoted(|w| w.serialize_i128(v))
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.quoted(|w| w.serialize_u8(v))
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.quoted(|w| w.serialize_u16(v))
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.quoted(|w| w.serialize_u32(v))
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.quoted(|w| w.serialize_u64(v))
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.quoted(|w| w.serialize_u128(v))
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(Error::Custom(
                "float key must be finite (got NaN or +/-inf)".to_owned(),
            ));
        }
        self.quoted(|w| w.serialize_f32(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(Error::Custom(
                "float key must be finite (got NaN or +/-inf)".to_owned(),
            ));
        }
        self.quoted(|w| w.serialize_f64(v))
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.0.serialize_char(v)
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.0.serialize_str(v)
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_none(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit(self) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.0.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, Error> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(key_must_be_a_string())
    }
    fn collect_str<T: Display + ?Sized>(self, value: &T) -> Result<(), Error> {
        self.0.collect_str(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pretty<T: Serialize + ?Sized>(value: &T) -> String {
        let mut out = Vec::new();
        write_pretty(&mut out, value).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn layout_and_escapes_are_json_s() {
        // RFC 8259 section 7: `"` and `\` escaped, control characters escaped (the two-character
        // forms where JSON has one, `\u00xx` otherwise); other characters, non-ASCII too, as they are.
        // The layout is serde_json's pretty one: two spaces per level, `": "`, `[]` and `{}` empty.
        let value = serde_json::json!({
            "a\"b": ["x\\y\u{1}\u{8}\u{c}\n\r\t\u{1f}z", "→ é", 7, -3, true, null, [], {}],
            "n": {"k": [1.5]}
        });
        let expected = "{\n  \"a\\\"b\": [\n    \"x\\\\y\\u0001\\b\\f\\n\\r\\t\\u001fz\",\n    \"→ é\",\n    7,\n    -3,\n    true,\n    null,\n    [],\n    {}\n  ],\n  \"n\": {\n    \"k\": [\n      1.5\n    ]\n  }\n}";
        assert_eq!(pretty(&value), expected);
    }

    #[test]
    fn escapes_are_found_anywhere_in_a_long_string() {
        // The eight-byte search must find a quote, backslash or control character at any place
        // of a text of any length, and none in text without them (every byte from 0x20 up except
        // `"` and `\`).
        for len in 1..40 {
            for at in 0..len {
                for special in [b'"', b'\\', 0u8, 0x1f, b'\n'] {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = special;
                    assert_eq!(
                        first_escape(&bytes),
                        Some(at),
                        "{special:#x} at {at} of {len}"
                    );
                }
            }
        }
        let plain: String = (0x20u8..0x7f)
            .filter(|b| *b != b'"' && *b != b'\\')
            .map(char::from)
            .chain("→ é\u{7f}\u{80}".chars())
            .collect();
        assert_eq!(first_escape(plain.as_bytes()), None);
    }

    #[test]
    fn an_example_plan_reads_as_serde_json_writes_it() {
        // serde_json's pretty writer, which wrote this output before, is the reference: a user's
        // scripts must see the same bytes.
        let loaded = fleetplan::load(&[fleetplan::Source {
            name: "gke-bank.yaml",
            text: include_str!("../../examples/gke-bank.yaml"),
        }]);
        let plan = fleetplan::plan(&loaded.scenarios[0]);
        assert_eq!(pretty(&plan), serde_json::to_string_pretty(&plan).unwrap());
    }
}
