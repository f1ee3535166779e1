//! Chooses the network the engine embeds: `nets/gen7.nnue` unless the `MINNOW_NET`
//! environment variable names another file (a path relative to the workspace root, or
//! absolute), so that a candidate net can be built and matched without touching `nets/`:
//!
//! ```sh
//! MINNOW_NET=data/candidate.nnue cargo build --release --target-dir target/candidate
//! ```

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=MINNOW_NET");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.parent().expect("the engine sits in the workspace").to_path_buf();
    let net = match std::env::var("MINNOW_NET") {
        Ok(path) if !path.is_empty() => root.join(path),
        _ => root.join("nets/gen7.nnue"),
    };
    println!("cargo:rerun-if-changed={}", net.display());
    println!("cargo:rustc-env=MINNOW_NET_FILE={}", net.display());
}
