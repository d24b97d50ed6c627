//! Brings an element written from markup up to new markup of the same shape by setting only the
//! attribute values and texts that differ, instead of parsing, styling, laying out and painting all of
//! its elements again.
//!
//! An edit usually changes values, not structure: the summary's times and durations, the axis's ticks
//! and labels, a row's bar places and tooltips. Written whole with `innerHTML`, each part's elements
//! and texts are new, so the browser styles every element and shapes every text again; set in place,
//! only what changed is restyled, and the elements stay (a focused bar keeps the focus, an opened
//! `<details>` stays open). Its code comes with the memo part (fetched at the first edit,
//! `kinds::memo_part`): a first chart writes its markup whole anyway.
//!
//! Only the markup this app writes is understood: double-quoted attribute values without `"` and text
//! without `<` (the writers escape both), the entities `xml_escape` writes, no comments. Anything else
//! is another shape, and the caller writes the markup whole.

use wasm_bindgen::JsCast;

/// [`patch`], once the memo part has brought it (see the module's note).
pub static PATCH: std::sync::OnceLock<fn(&web_sys::Element, &str, &str) -> bool> =
    std::sync::OnceLock::new();

/// Makes `root`, whose contents were written as `old`, show `new`: in place when it can (see
/// [`patch`]), else written whole.
pub fn write(root: &web_sys::Element, old: &str, new: &str) {
    if !PATCH.get().is_some_and(|p| p(root, old, new)) {
        root.set_inner_html(new);
    }
}

/// [`write`]s `new` into `root` in place of `last`, the markup written there before (empty: none),
/// and keeps `new` as `last` for the next write.
pub fn update(root: &web_sys::Element, last: &mut String, new: String) {
    write(root, last, &new);
    *last = new;
}

/// The parent of a text at the top of the markup: the element whose contents the markup is.
const ROOT: usize = usize::MAX;

/// Where a value sits: an attribute of the `n`th element (document order, as `querySelectorAll("*")`
/// lists them), or the `child`th child node of the `n`th element (or of the root).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Place<'a> {
    Attribute(usize, &'a str),
    Text(usize, u32),
}

/// Markup reduced to its shape (the tags, the attributes' names and where texts are, without the
/// values), and its values in document order with their places.
#[derive(Debug)]
struct Shape<'a> {
    shape: Vec<u8>,
    values: Vec<(&'a str, Place<'a>)>,
    /// Each element's name, by its index.
    names: Vec<&'a str>,
}

/// Elements the HTML parser never opens (no end tag, no contents).
fn is_void(name: &str) -> bool {
    matches!(
        name,
        "area"
            | "base"
            | "br"
            | "col"
            | "embed"
            | "hr"
            | "img"
            | "input"
            | "link"
            | "meta"
            | "source"
            | "track"
            | "wbr"
    )
}

/// `html`'s shape, or `None` for markup this module does not read (see the module's note).
fn shape_of(html: &str) -> Option<Shape<'_>> {
    let b = html.as_bytes();
    let find = |from: usize, byte: u8| b[from..].iter().position(|&c| c == byte).map(|n| from + n);
    let mut s = Shape {
        shape: Vec::with_capacity(b.len() / 2),
        values: Vec::new(),
        names: Vec::new(),
    };
    // The open elements, each with the number of child nodes seen in it so far.
    let mut open: Vec<(usize, u32)> = vec![(ROOT, 0)];
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'<' {
            let end = find(i, b'<').unwrap_or(b.len());
            let (parent, children) = open.last_mut()?;
            s.values
                .push((&html[i..end], Place::Text(*parent, *children)));
            *children += 1;
            // A text between two tags is one text node: its place in the shape is marked.
            s.shape.push(b'#');
            i = end;
            continue;
        }
        match b.get(i + 1)? {
            b'/' => {
                let end = find(i, b'>')?;
                s.shape.extend_from_slice(&b[i..=end]);
                open.pop();
                if open.is_empty() {
                    return None;
                }
                i = end + 1;
                continue;
            }
            b'!' | b'?' => return None,
            _ => {}
        }
        let name_end = i
            + 1
            + b[i + 1..]
                .iter()
                .position(|c| matches!(c, b' ' | b'\t' | b'\n' | b'/' | b'>'))?;
        let name = &html[i + 1..name_end];
        let element = s.names.len();
        s.names.push(name);
        open.last_mut()?.1 += 1;
        s.shape.extend_from_slice(&b[i..name_end]);
        let mut j = name_end;
        let closed = loop {
            while b.get(j)?.is_ascii_whitespace() {
                j += 1;
            }
            match b[j] {
                b'>' => break false,
                b'/' if b.get(j + 1) == Some(&b'>') => {
                    j += 1;
                    break true;
                }
                _ => {}
            }
            let attr_end = j + b[j..]
                .iter()
                .position(|c| matches!(c, b' ' | b'\t' | b'\n' | b'=' | b'/' | b'>'))?;
            if attr_end == j {
                return None;
            }
            let attr = &html[j..attr_end];
            s.shape.push(b' ');
            s.shape.extend_from_slice(attr.as_bytes());
            j = attr_end;
            if b[j] == b'=' {
                if b.get(j + 1) != Some(&b'"') {
                    return None;
                }
                let end = find(j + 2, b'"')?;
                s.values
                    .push((&html[j + 2..end], Place::Attribute(element, attr)));
                s.shape.extend_from_slice(b"=\"\"");
                j = end + 1;
            }
        };
        s.shape.extend_from_slice(if closed { b"/>" } else { b">" });
        if !closed && !is_void(name) {
            open.push((element, 0));
        }
        i = j + 1;
    }
    (open.len() == 1).then_some(s)
}

/// A value as markup writes it, as the DOM holds it: the entities `xml_escape` writes (and numeric
/// ones) decoded; `None` for any other entity.
fn decode(v: &str) -> Option<std::borrow::Cow<'_, str>> {
    if !v.contains('&') {
        return Some(v.into());
    }
    let mut out = String::with_capacity(v.len());
    let mut rest = v;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let end = at + rest[at..].find(';')?;
        let c = match &rest[at + 1..end] {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            e => {
                let n = e.strip_prefix('#')?;
                let code = match n.strip_prefix(['x', 'X']) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                    None => n.parse().ok()?,
                };
                char::from_u32(code)?
            }
        };
        out.push(c);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    Some(out.into())
}

/// Makes `root`, whose contents were written as `old`, show `new` by setting the attribute values
/// and texts that differ, when the two have the same shape (the same elements with the same
/// attributes, texts in the same places). False, having changed nothing, when they do not: the
/// caller then writes `new` whole. Should the page not hold what `old` wrote (another script
/// changed its structure), `new` is written whole here.
pub fn patch(root: &web_sys::Element, old: &str, new: &str) -> bool {
    // The same markup again (a legend, clip path or backdrop an edit left as it was): nothing to set,
    // and nothing to read.
    if old == new {
        return true;
    }
    let (Some(was), Some(now)) = (shape_of(old), shape_of(new)) else {
        return false;
    };
    if was.shape != now.shape {
        return false;
    }
    let mut changes = Vec::new();
    for ((a, _), (b, place)) in was.values.iter().zip(&now.values) {
        if a != b {
            let Some(v) = decode(b) else {
                return false;
            };
            changes.push((*place, v));
        }
    }
    if changes.is_empty() {
        return true;
    }
    // The page holds what `old` wrote when it holds as many elements: the chart's own changes are
    // attributes (the roving tab stop), and anything added or removed (a layer mounted in) changes the
    // count. One call, not a tag name read back per element (a string copied per call).
    let elements = root
        .query_selector_all("*")
        .ok()
        .filter(|l| l.length() as usize == now.names.len());
    let element = |n: usize| -> Option<web_sys::Element> {
        if n == ROOT {
            return Some(root.clone());
        }
        elements.as_ref()?.item(n as u32)?.dyn_into().ok()
    };
    for (place, v) in changes {
        let done = match place {
            Place::Attribute(n, name) => element(n).and_then(|el| el.set_attribute(name, &v).ok()),
            Place::Text(n, child) => element(n)
                .and_then(|el| el.child_nodes().item(child))
                .filter(|t| t.node_type() == web_sys::Node::TEXT_NODE)
                .map(|t| t.set_node_value(Some(&v))),
        };
        if done.is_none() {
            root.set_inner_html(new);
            return true;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    use fleetplan::gantt::{self, View};
    use fleetplan::zone::Zone;
    use fleetplan::Plan;
    use std::ops::Range;

    use crate::chart_markup::{self as markup, LABEL_WIDTH};

    /// The example's analysis, and the same with its first stage's wait lengthened: every later bar
    /// moves, the fitted axis changes scale, the end comes later.
    fn example_and_edited() -> [crate::analysis::Analysis; 2] {
        let text = crate::link::example_text();
        let edited = text.replacen("waitTime: 1h", "waitTime: 3h", 1);
        [text, &edited].map(|t| crate::analysis::analyse(t, None))
    }

    #[test]
    fn an_edit_that_moves_bars_keeps_the_rows_shape_and_sets_places_widths_and_tooltips() {
        let [a, b] = example_and_edited();
        let (p, q) = (a.plan.unwrap(), b.plan.unwrap());
        let zone = Zone::utc();
        let rows = |p: &Plan, shown: Range<usize>| {
            let c = gantt::layout_untitled(p, &View::fit(p, 900.0));
            let shown = shown.start..shown.end.min(c.rows.len());
            markup::rows_in_view(p, &c, LABEL_WIDTH, shown, None, &zone)
        };
        let (before, after) = (rows(&p, 0..usize::MAX), rows(&q, 0..usize::MAX));
        let (was, now) = (shape_of(&before).unwrap(), shape_of(&after).unwrap());
        assert_eq!(was.shape, now.shape);
        let changed: Vec<_> = was
            .values
            .iter()
            .zip(&now.values)
            .filter(|(a, b)| a.0 != b.0)
            .map(|(_, b)| match b.1 {
                Place::Attribute(_, name) => name,
                Place::Text(n, _) => now.names[n],
            })
            .collect();
        for what in ["x", "width", "title"] {
            assert!(changed.contains(&what), "{what} in {changed:?}");
        }
        let bars = before.matches("<rect class=\"bar ").count();
        let titles = now
            .values
            .iter()
            .filter(|v| matches!(v.1, Place::Text(n, _) if now.names[n] == "title"));
        assert_eq!(titles.count(), bars, "a tooltip per bar");
        // Other rows in view: another shape, so they are written again.
        assert_ne!(shape_of(&rows(&p, 1..usize::MAX)).unwrap().shape, was.shape);
    }

    #[test]
    fn an_edit_that_moves_the_end_keeps_the_summarys_shape_and_sets_its_times() {
        let [a, b] = example_and_edited();
        let zone = Zone::utc();
        let html = |a: &crate::analysis::Analysis| {
            let mut out = String::new();
            crate::summary::summary_html(&mut out, a, &zone);
            out
        };
        let (before, after) = (html(&a), html(&b));
        let (was, now) = (shape_of(&before).unwrap(), shape_of(&after).unwrap());
        assert_eq!(was.shape, now.shape);
        // The end's `<time data-testid="plan-end" data-time="…">`.
        let end = |s: &Shape| {
            let at = s.values.iter().position(|v| v.0 == "plan-end")?;
            Some(s.values[at + 1].0.to_string())
        };
        assert!(end(&was).is_some());
        assert_ne!(end(&was), end(&now), "the end moved");
        let changed = was
            .values
            .iter()
            .zip(&now.values)
            .filter(|(a, b)| a.0 != b.0)
            .count();
        assert!(
            changed > 0 && changed < now.values.len() / 2,
            "{changed} of {}",
            now.values.len()
        );
    }

    #[test]
    fn values_differ_within_one_shape_and_structure_makes_another() {
        let a = shape_of(r#"<li class="x"><span>ring0</span> <time datetime="1">Mon</time></li>"#)
            .unwrap();
        let b = shape_of(r#"<li class="y"><span>ring1</span> <time datetime="2">Tue</time></li>"#)
            .unwrap();
        assert_eq!(a.shape, b.shape);
        let places: Vec<_> = b.values.iter().map(|v| v.1).collect();
        assert_eq!(
            places,
            [
                Place::Attribute(0, "class"),
                Place::Text(1, 0),
                Place::Text(0, 1),
                Place::Attribute(2, "datetime"),
                Place::Text(2, 0),
            ]
        );
        assert_eq!(b.values[4].0, "Tue");
        // Another element, another attribute, a text come or gone, another nesting: another shape.
        for other in [
            r#"<li class="y"><b>ring1</b> <time datetime="2">Tue</time></li>"#,
            r#"<li class="y" id="z"><span>ring1</span> <time datetime="2">Tue</time></li>"#,
            r#"<li class="y"><span></span> <time datetime="2">Tue</time></li>"#,
            r#"<li class="y"><span>ring1</span><time datetime="2">Tue</time></li>"#,
            r#"<li class="y"><span>ring1</span> </li><time datetime="2">Tue</time>"#,
        ] {
            assert_ne!(shape_of(other).unwrap().shape, a.shape, "{other}");
        }
    }

    #[test]
    fn void_and_self_closed_elements_hold_nothing_and_text_after_them_is_their_parents() {
        let s = shape_of(r#"<label><input size="17">at <b>x</b></label><g><rect x="1"/>t</g>"#)
            .unwrap();
        let texts: Vec<_> = s
            .values
            .iter()
            .filter(|v| matches!(v.1, Place::Text(..)))
            .map(|v| (v.0, v.1))
            .collect();
        assert_eq!(
            texts,
            [
                ("at ", Place::Text(0, 1)),
                ("x", Place::Text(2, 0)),
                ("t", Place::Text(3, 1)),
            ]
        );
    }

    #[test]
    fn markup_it_does_not_read_has_no_shape() {
        for html in [
            "<!-- note --><b>x</b>",
            r#"<b class=x>y</b>"#,
            "<b>unclosed",
            "</b>",
            "<b",
            r#"<b class="x>y</b>"#,
        ] {
            assert!(shape_of(html).is_none(), "{html}");
        }
    }

    #[test]
    fn values_are_decoded_as_the_parser_decodes_them() {
        let written = fleetplan::export::xml_escape(r#"a & b < c > "d" 'e'"#);
        assert_eq!(decode(&written).unwrap(), r#"a & b < c > "d" 'e'"#);
        assert_eq!(decode("&#8212;&#x2014;").unwrap(), "——");
        assert_eq!(decode("plain").unwrap(), "plain");
        assert!(decode("&nbsp;").is_none());
        assert!(decode("a & b").is_none());
    }
}
