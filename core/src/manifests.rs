//! KubeFleet objects (documents with `apiVersion`) imported as scenarios. STUB.
use crate::diag::Diagnostic;
use crate::model::Scenario;
use crate::source::Node;

pub fn import(_docs: &[(&Node, &str)]) -> (Vec<Scenario>, Vec<Diagnostic>) {
    (Vec::new(), Vec::new())
}
