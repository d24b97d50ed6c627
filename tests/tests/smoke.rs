//! Smoke tests over every built-in example: loads, plans, is deterministic, serializes faithfully.

use fleetplan::examples;
use fleetplan::Plan;
use fleetplan_tests::{golden, load, load_and_plan};
use wasm_bindgen_test::wasm_bindgen_test;

fn plans_of(text: &str) -> Vec<Plan> {
    load_and_plan(text).1
}

#[wasm_bindgen_test(unsupported = test)]
fn there_is_a_default_example() {
    assert!(
        examples::all().iter().any(|e| e.name == "staged"),
        "no `staged` example"
    );
}

#[wasm_bindgen_test(unsupported = test)]
fn every_example_loads_and_plans() {
    for e in examples::all() {
        let loaded = load(e.text);
        assert!(
            !loaded.scenarios.is_empty(),
            "example `{}` yields no scenario: {:?}",
            e.name,
            loaded.diagnostics
        );
        for scenario in &loaded.scenarios {
            let plan = fleetplan::plan(scenario);
            assert!(
                !plan.stages.is_empty(),
                "example `{}` plans no stage",
                e.name
            );
        }
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn planning_twice_gives_the_same_plan() {
    for e in examples::all() {
        assert_eq!(plans_of(e.text), plans_of(e.text), "example `{}`", e.name);
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn plan_json_round_trips_through_a_value() {
    for e in examples::all() {
        for plan in plans_of(e.text) {
            let value = serde_json::to_value(&plan).expect("a plan serializes");
            let text = serde_json::to_string(&plan).expect("a plan serializes");
            let reparsed: serde_json::Value =
                serde_json::from_str(&text).expect("plan JSON parses");
            assert_eq!(value, reparsed, "example `{}`", e.name);
        }
    }
}

#[wasm_bindgen_test(unsupported = test)]
fn every_example_matches_its_golden_plan() {
    let failures: Vec<String> = examples::all()
        .iter()
        .filter_map(|e| golden::check_golden(e.name, &plans_of(e.text)).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
