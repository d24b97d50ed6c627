//! Google Cloud's label syntax (GKE cluster labels, and the labels of a RolloutSequence or a fleet
//! feature), with gcloud's texts. The rule is gcloud's `labels_util` (command_lib/util/args):
//! keys `[\p{Ll}\p{Lo}][\p{Ll}\p{Lo}\p{N}_-]{0,62}`, values `[\p{Ll}\p{Lo}\p{N}_-]{0,63}`, counted in
//! characters; Google Cloud's "Requirements for labels" add at most 64 labels per resource.

use crate::diag::Diagnostic;
use crate::model::Scenario;

/// The longest key and the longest value, in characters.
pub const MAX_LEN: usize = 63;
/// Labels one resource may carry.
pub const MAX_LABELS: usize = 64;

/// gcloud's `_KEY_FORMAT_ERROR`, printed after `Invalid key format: KEY` and a line break.
pub const KEY_FORMAT_ERROR: &str = "Only hyphens (-), underscores (_), lowercase characters, and numbers are allowed. Keys must start with a lowercase character. International characters are allowed. Key length must not exceed 63 characters.";
/// gcloud's `_VALUE_FORMAT_ERROR`, printed after `Invalid value format: VALUE` and a line break.
pub const VALUE_FORMAT_ERROR: &str = "Only hyphens (-), underscores (_), lowercase characters, and numbers are allowed. International characters are allowed.";

/// gcloud's `_IsLower`: a letter that is lowercase or has no case (an ideograph, most scripts).
fn is_lower(c: char) -> bool {
    c.is_alphabetic() && (c.is_lowercase() || !c.is_uppercase())
}

/// Any character after a key's first, and every character of a value.
fn is_subsequent(c: char) -> bool {
    c == '_' || c == '-' || c.is_numeric() || is_lower(c)
}

pub fn value_ok(value: &str) -> bool {
    short_plain(value) || value.chars().count() <= MAX_LEN && value.chars().all(is_subsequent)
}

/// At most [`MAX_LEN`] bytes, each a lowercase ASCII letter, a digit, `_` or `-`: what nearly every
/// label is, and fine without decoding a character or looking one up in Unicode's tables (every
/// cluster's labels are checked on each plan; the general check was 3% of a 10,000-cluster one).
fn short_plain(text: &str) -> bool {
    text.len() <= MAX_LEN
        && text
            .bytes()
            .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-'))
}

pub fn key_ok(key: &str) -> bool {
    key.chars().next().is_some_and(is_lower) && value_ok(key)
}

/// gcloud's refusals of one label, key first (it stops at the first; both are shown here so one
/// pass fixes both).
pub fn label_errors(key: &str, value: &str) -> Vec<String> {
    let mut out = Vec::new();
    if !key_ok(key) {
        out.push(format!("Invalid key format: {key}\n{KEY_FORMAT_ERROR}"));
    }
    if !value_ok(value) {
        out.push(format!(
            "Invalid value format: {value}\n{VALUE_FORMAT_ERROR}"
        ));
    }
    out
}

/// Why a label that gcloud refuses is refused when gcloud's text does not say it: a value too long
/// (gcloud's value text names only the characters).
fn length_note(value: &str) -> Option<String> {
    // A value has at most as many characters as bytes.
    if value.len() <= MAX_LEN {
        return None;
    }
    let n = value.chars().count();
    (n > MAX_LEN && value.chars().all(is_subsequent)).then(|| {
        format!("the value has {n} characters; Google Cloud label values have at most {MAX_LEN}")
    })
}

/// Every label of `labels` (at `path.KEY`) that Google Cloud refuses, and a count over 64.
pub fn check<'a>(
    owner: &str,
    labels: impl ExactSizeIterator<Item = (&'a str, &'a str)>,
    path: &str,
    diags: &mut Vec<Diagnostic>,
) {
    if labels.len() > MAX_LABELS {
        diags.push(
            Diagnostic::error(
                "gke-too-many-labels",
                format!(
                    "{owner} has {} labels; Google Cloud allows at most {MAX_LABELS} labels on a resource",
                    labels.len()
                ),
            )
            .at(path.to_string()),
        );
    }
    for (k, v) in labels {
        let at = format!("{path}.{k}");
        for m in label_errors(k, v) {
            diags.push(Diagnostic::error("gke-label", m).at(at.clone()));
        }
        if let Some(note) = length_note(v) {
            diags.push(Diagnostic::info("gke-label-length", note).at(at));
        }
    }
}

/// The labels of a GKE scenario's clusters, explicit and generated (a generator's keys and values are
/// checked once: every cluster it makes carries them).
pub fn check_clusters(scenario: &Scenario, diags: &mut Vec<Diagnostic>) {
    for (i, c) in scenario.clusters.iter().enumerate() {
        // Nearly every cluster's labels are fine: its names for the diagnostics are built only when
        // one is said.
        let fine = c.labels.len() <= MAX_LABELS
            && c.labels
                .iter()
                .all(|(k, v)| label_errors(k, v).is_empty() && length_note(v).is_none());
        if fine {
            continue;
        }
        let owner = format!("cluster `{}`", c.name);
        check(
            &owner,
            c.labels.iter(),
            &format!("clusters[{i}].labels"),
            diags,
        );
    }
    for (g, gen) in scenario.generate.iter().enumerate() {
        if gen.count == 0 {
            continue;
        }
        let path = format!("generate[{g}].labels");
        if gen.labels.len() > MAX_LABELS {
            diags.push(
                Diagnostic::error(
                    "gke-too-many-labels",
                    format!(
                        "the clusters of generate[{g}] have {} labels; Google Cloud allows at most {MAX_LABELS} labels on a resource",
                        gen.labels.len()
                    ),
                )
                .at(path.clone()),
            );
        }
        for (key, spread) in &gen.labels {
            let at = format!("{path}.{key}");
            if !key_ok(key) {
                diags.push(
                    Diagnostic::error(
                        "gke-label",
                        format!("Invalid key format: {key}\n{KEY_FORMAT_ERROR}"),
                    )
                    .at(at.clone()),
                );
            }
            // `{i}` in a value becomes digits, which Google Cloud allows; check the rest as written.
            for v in &spread.values {
                let shown = crate::substr::replace(v, "{i}", "0");
                if !value_ok(&shown) {
                    diags.push(
                        Diagnostic::error(
                            "gke-label",
                            format!("Invalid value format: {v}\n{VALUE_FORMAT_ERROR}"),
                        )
                        .at(at.clone()),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expectations from gcloud's labels_util: `_IsLower` (a letter, lowercase or caseless),
    // `_IsValueOrSubsequent` (`_`, `-`, a number, or `_IsLower`), keys start with `_IsLower`,
    // `len(value) > 63` refused (Python counts characters).

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn keys_start_with_a_lowercase_letter_and_hold_lowercase_digits_dash_underscore() {
        for ok in ["env", "prod-region", "a_1", "é", "日本", "x-", "a0"] {
            assert!(key_ok(ok), "{ok}");
        }
        for bad in [
            "", "Env", "1env", "-env", "_env", "bad key", "env.x", "a/b", "ENV",
        ] {
            assert!(!key_ok(bad), "{bad}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn values_may_be_empty_start_with_anything_allowed_and_never_hold_uppercase() {
        for ok in ["", "1", "-x", "_", "us-west1", "ünïcode", "日本"] {
            assert!(value_ok(ok), "{ok}");
        }
        for bad in ["Prod", "has space", "a.b", "a/b", "x!"] {
            assert!(!value_ok(bad), "{bad}");
        }
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn lengths_are_63_characters_on_both_sides_of_the_boundary() {
        assert!(key_ok(&"k".repeat(63)));
        assert!(!key_ok(&"k".repeat(64)));
        assert!(value_ok(&"v".repeat(63)));
        assert!(!value_ok(&"v".repeat(64)));
        // Characters, not bytes: 63 two-byte letters pass.
        assert!(value_ok(&"é".repeat(63)));
        assert!(!value_ok(&"é".repeat(64)));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn refusals_use_gcloud_texts_key_first() {
        assert_eq!(
            label_errors("Env", "Prod"),
            [
                format!("Invalid key format: Env\n{KEY_FORMAT_ERROR}"),
                format!("Invalid value format: Prod\n{VALUE_FORMAT_ERROR}"),
            ]
        );
        assert!(label_errors("env", "").is_empty());
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn at_most_64_labels_on_both_sides_of_the_boundary() {
        let labels = |n: usize| -> std::collections::BTreeMap<String, String> {
            (0..n).map(|i| (format!("k{i}"), String::new())).collect()
        };
        let mut diags = Vec::new();
        check(
            "cluster `a`",
            labels(64).iter().map(|(k, v)| (k.as_str(), v.as_str())),
            "clusters[0].labels",
            &mut diags,
        );
        assert!(diags.is_empty(), "{diags:?}");
        check(
            "cluster `a`",
            labels(65).iter().map(|(k, v)| (k.as_str(), v.as_str())),
            "clusters[0].labels",
            &mut diags,
        );
        assert_eq!(diags.len(), 1);
        assert_eq!(
            diags[0].message,
            "cluster `a` has 65 labels; Google Cloud allows at most 64 labels on a resource"
        );
        assert_eq!(diags[0].path.as_deref(), Some("clusters[0].labels"));
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_value_refused_for_its_length_alone_says_so() {
        let long = "v".repeat(64);
        let labels: std::collections::BTreeMap<String, String> =
            [("env".to_string(), long.clone())].into();
        let mut diags = Vec::new();
        check(
            "cluster `a`",
            labels.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            "clusters[0].labels",
            &mut diags,
        );
        let shown: Vec<(&str, &str)> = diags.iter().map(|d| (d.code, d.message.as_str())).collect();
        let refused = format!("Invalid value format: {long}\n{VALUE_FORMAT_ERROR}");
        assert_eq!(
            shown,
            [
                ("gke-label", refused.as_str()),
                (
                    "gke-label-length",
                    "the value has 64 characters; Google Cloud label values have at most 63"
                )
            ]
        );
    }
}
