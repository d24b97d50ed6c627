//! Label syntax against apimachinery v0.34's rules, each expectation derived from the rule text in
//! `pkg/util/validation/validation.go` (IsQualifiedName, IsValidLabelValue, IsDNS1123Subdomain).

use super::*;

const NAME_REGEX: &str = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_REGEX: &str = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const PREFIX_REGEX: &str = "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn name_part_length_is_63_on_both_sides_of_the_boundary() {
    // "else if len(name) > 63": 63 passes, 64 fails with the length message only (the pattern has no
    // length limit).
    assert!(key_errors(&"a".repeat(63)).is_empty());
    assert_eq!(
        key_errors(&"a".repeat(64)),
        ["name part must be no more than 63 characters"]
    );
    // Too long and malformed: both messages, length first.
    assert_eq!(
        key_errors(&format!("{}!", "a".repeat(64))),
        ["name part must be no more than 63 characters", NAME_REGEX]
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn name_part_must_start_and_end_alphanumeric() {
    for ok in [
        "a",
        "A1",
        "my.name",
        "my_name-2",
        "123-abc",
        "example.com/x",
    ] {
        assert!(key_errors(ok).is_empty(), "{ok}");
    }
    for bad in ["bad key!", "-a", "a-", "_a", "a.", "ä"] {
        assert_eq!(key_errors(bad), [NAME_REGEX], "{bad}");
    }
    // An empty name fails both the emptiness check and the pattern.
    assert_eq!(
        key_errors(""),
        [
            "name part must be non-empty".to_string(),
            NAME_REGEX.to_string()
        ]
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn the_prefix_is_a_lowercase_dns_subdomain_checked_before_the_name() {
    assert!(key_errors("kubernetes-fleet.io/env").is_empty());
    assert_eq!(key_errors("/env"), ["prefix part must be non-empty"]);
    assert_eq!(key_errors("Example.com/env"), [PREFIX_REGEX]);
    // Prefix errors come before name errors.
    assert_eq!(
        key_errors("Example.com/bad key"),
        [PREFIX_REGEX, NAME_REGEX]
    );
    // 253 characters pass, 254 fail on length alone (labels of 63 separated by dots).
    let label = "a".repeat(63);
    let p253 = format!("{label}.{label}.{label}.{}", "a".repeat(61));
    assert_eq!(p253.len(), 253);
    assert!(key_errors(&format!("{p253}/x")).is_empty());
    let p254 = format!("{p253}a");
    assert_eq!(
        key_errors(&format!("{p254}/x")),
        ["prefix part must be no more than 253 characters"]
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn two_slashes_give_the_qualified_name_message_alone() {
    assert_eq!(
        key_errors("a/b/c"),
        ["a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"]
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn values_may_be_empty_and_at_most_63_characters() {
    assert!(value_errors("").is_empty());
    assert!(value_errors(&"v".repeat(63)).is_empty());
    assert_eq!(
        value_errors(&"v".repeat(64)),
        ["must be no more than 63 characters"]
    );
    assert_eq!(value_errors("has space"), [VALUE_REGEX]);
    assert_eq!(value_errors("-x"), [VALUE_REGEX]);
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn bad_values_are_quoted_as_go_quotes_them() {
    assert_eq!(go_quote("has space"), "\"has space\"");
    assert_eq!(go_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
    assert_eq!(go_quote("tab\there\n"), "\"tab\\there\\n\"");
    assert_eq!(go_quote("\u{1}\u{7f}"), "\"\\x01\\x7f\"");
    assert_eq!(go_quote("é日本"), "\"é日本\"");
    assert_eq!(go_quote("\u{200b}"), "\"\\u200b\"");
    assert_eq!(
        label_errors("env", "has space"),
        [format!(
            "metadata.labels: Invalid value: \"has space\": {VALUE_REGEX}"
        )]
    );
}

#[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
fn the_cluster_named_for_a_generated_value_is_the_first_that_carries_it() {
    use crate::model::{ClusterGenerator, LabelSpread, SpreadMode};
    for mode in [SpreadMode::Cycle, SpreadMode::Blocks] {
        for count in 1..12u32 {
            for n in 1..5usize {
                let values: Vec<String> = (0..n).map(|v| format!("v{v}")).collect();
                let spread = LabelSpread {
                    values: values.clone(),
                    mode,
                };
                let gen = ClusterGenerator {
                    count,
                    name: "c{i}".into(),
                    first: 1,
                    labels: [("k".to_string(), spread.clone())].into(),
                };
                for (j, v) in values.iter().enumerate() {
                    let by_scan =
                        (0..count).find(|&k| crate::fleet::generate_one(&gen, k).labels["k"] == *v);
                    assert_eq!(
                        first_with_value(count, &spread, j),
                        by_scan,
                        "{mode:?} count {count} n {n} j {j}"
                    );
                }
            }
        }
    }
}
