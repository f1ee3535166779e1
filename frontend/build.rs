//! Chooses the opening book the front end embeds: the one `book/SHIPPED` names (one line, a
//! path relative to the workspace root; the packager and the tests read the same file) unless
//! the `MINNOW_BOOK` environment variable names another file (relative to the workspace root,
//! or absolute).
//!
//! Also names the build for `id name`: `MINNOW_BUILD` is `git describe --always --dirty` of
//! the workspace (a commit hash, `-dirty` when tracked files differ from it), so that PGNs
//! and GUIs can tell builds apart; `unknown` outside a git checkout (a source tarball).

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=MINNOW_BOOK");
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.parent().expect("the front end sits in the workspace").to_path_buf();
    let book = match std::env::var("MINNOW_BOOK") {
        Ok(path) if !path.is_empty() => root.join(path),
        _ => {
            let shipped = root.join("book/SHIPPED");
            println!("cargo:rerun-if-changed={}", shipped.display());
            let name = std::fs::read_to_string(&shipped).expect("book/SHIPPED names the shipped book");
            root.join(name.trim())
        }
    };
    println!("cargo:rerun-if-changed={}", book.display());
    println!("cargo:rustc-env=MINNOW_BOOK_FILE={}", book.display());

    let build = git(&root, &["describe", "--always", "--dirty", "--abbrev=7"]);
    println!("cargo:rustc-env=MINNOW_BUILD={}", build.as_deref().unwrap_or("unknown"));
    // Describe again when the commit or the index changes (a commit, a checkout, `git add`).
    // Edits to this package's sources rebuild it anyway; an edit elsewhere that is neither
    // committed nor added shows as `-dirty` only from the next rebuild of this package.
    println!("cargo:rerun-if-changed=build.rs");
    for (flag, files) in
        [("--git-dir", &["HEAD", "index"][..]), ("--git-common-dir", &["refs/heads", "packed-refs"][..])]
    {
        if let Some(dir) = git(&root, &["rev-parse", flag]) {
            for file in files {
                let path = root.join(&dir).join(file);
                if path.exists() {
                    println!("cargo:rerun-if-changed={}", path.display());
                }
            }
        }
    }
}

/// Runs git in `dir` and returns its trimmed output, or `None` where git fails or is absent.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git").arg("-C").arg(dir).args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
}
