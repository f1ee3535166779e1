//! Chooses the network the engine embeds: the one `nets/SHIPPED` names (one line, a path
//! relative to the workspace root; the packager and the tests read the same file) unless
//! the `MINNOW_NET` environment variable names another file (relative to the workspace
//! root, or absolute), so that a candidate net can be built and matched without touching
//! `nets/`:
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
        _ => {
            let shipped = root.join("nets/SHIPPED");
            println!("cargo:rerun-if-changed={}", shipped.display());
            let name = std::fs::read_to_string(&shipped).expect("nets/SHIPPED names the shipped net");
            root.join(name.trim())
        }
    };
    println!("cargo:rerun-if-changed={}", net.display());
    println!("cargo:rustc-env=MINNOW_NET_FILE={}", net.display());
    // The net's name for `id name`: its file name without the extension (`gen11`).
    let name = net.file_stem().map_or_else(|| "net".into(), |s| s.to_string_lossy().into_owned());
    println!("cargo:rustc-env=MINNOW_NET_NAME={name}");
    // `MINNOW_CODED=path` (docs/nets.md, weight coding) embeds that file, the
    // net's first layer range-coded (tools/reports/weight_coding.py --write-coded), in place
    // of the layer, which the engine decodes at start-up (`cfg(coded_net)`).
    println!("cargo:rustc-check-cfg=cfg(coded_net)");
    println!("cargo:rerun-if-env-changed=MINNOW_CODED");
    if let Ok(path) = std::env::var("MINNOW_CODED")
        && !path.is_empty()
    {
        let coded = root.join(path);
        println!("cargo:rerun-if-changed={}", coded.display());
        println!("cargo:rustc-env=MINNOW_CODED_FILE={}", coded.display());
        println!("cargo:rustc-cfg=coded_net");
    }
}
