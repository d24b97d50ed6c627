//! What the Kubernetes API server does with an object before any controller sees it, in its order:
//! the CRD's OpenAPI schema (types, enums, minimums, patterns, lengths, required fields), then the
//! CRD's CEL rules (`x-kubernetes-validations`), then validating admission webhooks. Each refusal is
//! written as kubectl prints it; the first layer that refuses an object is the last one that speaks.
//!
//! Sources: apiextensions-apiserver `pkg/registry/customresource/strategy.go` (schema errors, then
//! CEL unless a schema error is blocking), `pkg/apiserver/validation/validation.go` (how schema
//! failures become field errors), apimachinery `pkg/util/validation/field/errors.go` (`ErrorBody`),
//! kube-openapi `pkg/validation/errors/schema.go` (the "in body" texts) and kubectl
//! `pkg/cmd/util/helpers.go` (`The Kind "name" is invalid: field: body`), all at Kubernetes 1.34.
//! kubectl lists several causes of one object under one line, `* field: body` each; fleetplan gives
//! each cause its own diagnostic, at its own place, with the one-cause wording.

use crate::diag::Diagnostic;
use crate::labels::go_quote;

/// One cause of a refusal: `field: body`, where the scenario wrote it, and whether it keeps the CEL
/// rules from running (`hasBlockingErr`: Required, NotSupported, TooLong, TooMany, TypeInvalid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    pub code: &'static str,
    /// The API's field path, e.g. `spec.stages[0].name`, or `<nil>` for a rule on the whole object.
    pub field: String,
    pub body: String,
    pub blocking: bool,
    /// The scenario path the diagnostic points at.
    pub at: String,
}

impl FieldError {
    fn new(code: &'static str, field: &str, body: String, blocking: bool, at: &str) -> Self {
        FieldError {
            code,
            field: field.to_string(),
            body,
            blocking,
            at: at.to_string(),
        }
    }

    /// `field.Required`: "Required value".
    pub fn required(code: &'static str, field: &str, at: &str) -> Self {
        Self::new(code, field, "Required value".into(), true, at)
    }

    /// `field.NotSupported` for an enum: `Unsupported value: "X": supported values: "a", "b"`.
    pub fn not_supported(
        code: &'static str,
        field: &str,
        value: &str,
        supported: &[&str],
        at: &str,
    ) -> Self {
        let list: Vec<String> = supported.iter().map(|s| go_quote(s)).collect();
        let body = format!(
            "Unsupported value: {}: supported values: {}",
            go_quote(value),
            list.join(", ")
        );
        Self::new(code, field, body, true, at)
    }

    /// `field.TooLong` for a schema `maxLength`: the value is omitted.
    pub fn too_long(code: &'static str, field: &str, max: usize, at: &str) -> Self {
        let unit = if max == 1 { "byte" } else { "bytes" };
        let body = format!("Too long: may not be more than {max} {unit}");
        Self::new(code, field, body, true, at)
    }

    /// `field.TooMany` for a schema `maxItems`.
    pub fn too_many(code: &'static str, field: &str, actual: usize, max: usize, at: &str) -> Self {
        let unit = if max == 1 { "item" } else { "items" };
        let body = format!("Too many: {actual}: must have at most {max} {unit}");
        Self::new(code, field, body, true, at)
    }

    /// A schema `pattern` that a string does not match.
    pub fn pattern(code: &'static str, field: &str, value: &str, pattern: &str, at: &str) -> Self {
        let body = format!(
            "Invalid value: {}: {field} in body should match '{pattern}'",
            go_quote(value)
        );
        Self::new(code, field, body, false, at)
    }

    /// A schema `minimum` that an integer is below.
    pub fn minimum(code: &'static str, field: &str, value: i64, min: i64, at: &str) -> Self {
        let body = format!(
            "Invalid value: {value}: {field} in body should be greater than or equal to {min}"
        );
        Self::new(code, field, body, false, at)
    }

    /// `field.Invalid` with a string bad value and a detail (metadata checks).
    pub fn invalid(code: &'static str, field: &str, value: &str, detail: &str, at: &str) -> Self {
        let body = format!("Invalid value: {}: {detail}", go_quote(value));
        Self::new(code, field, body, false, at)
    }

    /// A failed CEL rule: the bad value is the schema type of the node the rule sits on (`"object"`,
    /// `"array"`, `"string"`, `""` for an int-or-string), the detail the rule's message.
    pub fn cel(
        code: &'static str,
        field: &str,
        schema_type: &str,
        message: &str,
        at: &str,
    ) -> Self {
        let body = format!("Invalid value: {}: {message}", go_quote(schema_type));
        Self::new(code, field, body, false, at)
    }
}

/// The object being created: its kind and name as kubectl names it.
#[derive(Clone, Copy, Debug)]
pub struct Object<'a> {
    pub kind: &'a str,
    pub name: &'a str,
}

impl Object<'_> {
    /// kubectl's line for one cause: `The Kind "name" is invalid: field: body`.
    pub fn invalid(&self, e: &FieldError) -> Diagnostic {
        Diagnostic::error(
            e.code,
            format!(
                "The {} {} is invalid: {}: {}",
                self.kind,
                go_quote(self.name),
                e.field,
                e.body
            ),
        )
        .at(e.at.clone())
    }
}

/// The CEL rules are skipped when a schema error is blocking, with this cause in their place.
pub const CEL_SKIPPED: &str = "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

/// The API server's verdict on `obj`: its schema errors, then, when none of them is blocking, the
/// failed CEL rules (`cel` runs only then). Pushes one diagnostic per cause; returns whether the
/// object was accepted.
pub fn api_server(
    obj: Object<'_>,
    schema: Vec<FieldError>,
    cel: impl FnOnce() -> Vec<FieldError>,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let blocked = schema.iter().any(|e| e.blocking);
    let mut accepted = schema.is_empty();
    for e in &schema {
        diags.push(obj.invalid(e));
    }
    if blocked {
        // `field.Invalid(nil, nil, ...)`: no field (`<nil>`) and a nil value, marshalled as `null`.
        diags.push(Diagnostic::info(
            "cel-rules-not-checked",
            format!(
                "The {} {} is invalid: <nil>: Invalid value: null: {CEL_SKIPPED}",
                obj.kind,
                go_quote(obj.name)
            ),
        ));
        return false;
    }
    for e in cel() {
        accepted = false;
        diags.push(obj.invalid(&e));
    }
    accepted
}

/// Go's `utilerrors.NewAggregate(errs).Error()`: one message as it is, several deduplicated in
/// order and bracketed, `[a, b]`.
pub fn aggregate(messages: &[String]) -> String {
    let mut seen: Vec<&str> = Vec::new();
    for m in messages {
        if !seen.contains(&m.as_str()) {
            seen.push(m);
        }
    }
    match seen.as_slice() {
        [one] => (*one).to_string(),
        many => format!("[{}]", many.join(", ")),
    }
}

/// A validating webhook's denial as the API server relays it (kubectl prints it after
/// `Error from server (Forbidden): error when creating "FILE": `).
pub fn webhook_denied(code: &'static str, webhook: &str, message: &str, at: &str) -> Diagnostic {
    Diagnostic::error(
        code,
        format!(
            "admission webhook {} denied the request: {message}",
            go_quote(webhook)
        ),
    )
    .at(at.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn bodies_read_as_the_api_server_writes_them() {
        let at = "x";
        assert_eq!(
            FieldError::too_many("c", "spec.stages[0].beforeStageTasks", 2, 1, at).body,
            "Too many: 2: must have at most 1 item"
        );
        assert_eq!(
            FieldError::too_many("c", "spec.stages", 32, 31, at).body,
            "Too many: 32: must have at most 31 items"
        );
        assert_eq!(
            FieldError::too_long("c", "spec.stages[0].name", 63, at).body,
            "Too long: may not be more than 63 bytes"
        );
        assert_eq!(
            FieldError::not_supported("c", "spec.state", "Go", &["Initialize", "Run", "Stop"], at)
                .body,
            "Unsupported value: \"Go\": supported values: \"Initialize\", \"Run\", \"Stop\""
        );
        assert_eq!(
            FieldError::minimum("c", "spec.a", -1, 0, at).body,
            "Invalid value: -1: spec.a in body should be greater than or equal to 0"
        );
        assert_eq!(
            FieldError::cel("c", "spec.t", "array", "m", at).body,
            "Invalid value: \"array\": m"
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn a_blocking_schema_error_keeps_the_cel_rules_from_running() {
        let obj = Object {
            kind: "K",
            name: "n",
        };
        let mut diags = Vec::new();
        let mut ran = false;
        let ok = api_server(
            obj,
            vec![FieldError::required("c", "spec.a", "a")],
            || {
                ran = true;
                vec![]
            },
            &mut diags,
        );
        assert!(!ok && !ran);
        assert_eq!(
            diags[0].message,
            "The K \"n\" is invalid: spec.a: Required value"
        );
        assert_eq!(
            diags[1].message,
            format!("The K \"n\" is invalid: <nil>: Invalid value: null: {CEL_SKIPPED}")
        );
        // A pattern error is not blocking: the rules run and both are reported.
        let mut diags = Vec::new();
        let ok = api_server(
            obj,
            vec![FieldError::pattern("p", "spec.b", "x", "^y$", "b")],
            || vec![FieldError::cel("r", "spec", "object", "rule", "s")],
            &mut diags,
        );
        assert!(!ok);
        assert_eq!(diags.len(), 2);
        assert_eq!(
            diags[1].message,
            "The K \"n\" is invalid: spec: Invalid value: \"object\": rule"
        );
    }

    #[wasm_bindgen_test::wasm_bindgen_test(unsupported = test)]
    fn aggregates_bracket_several_distinct_messages() {
        assert_eq!(aggregate(&["a".into()]), "a");
        assert_eq!(aggregate(&["a".into(), "b".into(), "a".into()]), "[a, b]");
    }
}
