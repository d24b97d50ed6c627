//! With the `split` feature (the release build Trunk makes), the wasm binary keeps its relocations
//! (`--emit-relocs`): scripts/wasm-split-hook.sh needs them to split it into lazily loaded chunks.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    if wasm && std::env::var_os("CARGO_FEATURE_SPLIT").is_some() {
        println!("cargo:rustc-link-arg-bins=--emit-relocs");
    }
}
