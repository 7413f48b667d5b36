//! What a reader of the published crate can follow: every relative link of
//! the README (which crates.io and docs.rs show for `binform`) names a file
//! inside the `binform` package, where `docs/` and the licences are
//! symlinked in so that `cargo package` includes them.

use std::path::Path;

/// The relative targets of the Markdown links `[text](target)` in `text`.
fn relative_links(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = rest[..end].split('#').next().unwrap_or("");
        if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
            out.push(target);
        }
        rest = &rest[end..];
    }
    out
}

#[test]
fn the_readme_links_resolve_inside_the_binform_package() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let package = root.join("binform");
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let links = relative_links(&readme);
    assert!(links.contains(&"docs/format.md"), "{links:?}");
    for link in links {
        assert!(
            package.join(link).is_file(),
            "README links to `{link}`, which the binform package does not hold"
        );
    }
    for licence in ["LICENSE-MIT", "LICENSE-APACHE"] {
        assert!(package.join(licence).is_file(), "{licence}");
    }
}
