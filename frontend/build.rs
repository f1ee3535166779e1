//! Chooses the opening book the front end embeds: `book/book.bin` unless the `MINNOW_BOOK`
//! environment variable names another file (relative to the workspace root, or absolute).

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=MINNOW_BOOK");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.parent().expect("the front end sits in the workspace").to_path_buf();
    let book = match std::env::var("MINNOW_BOOK") {
        Ok(path) if !path.is_empty() => root.join(path),
        _ => root.join("book/book.bin"),
    };
    println!("cargo:rerun-if-changed={}", book.display());
    println!("cargo:rustc-env=MINNOW_BOOK_FILE={}", book.display());
}
