//! `include/damka.h` is what cbindgen generates from the crate today: a change to
//! the exported functions, types or their docs that is not in the checked-in
//! header fails here. `DAMKA_BLESS=1 cargo test -p damka-ffi --test header`
//! rewrites the header.

use std::path::Path;

#[test]
fn the_header_is_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml")).unwrap();
    let mut fresh = Vec::new();
    cbindgen::Builder::new()
        .with_config(config)
        .with_src(root.join("src/lib.rs"))
        .generate()
        .expect("cbindgen reads the crate")
        .write(&mut fresh);
    let path = root.join("include/damka.h");
    if std::env::var_os("DAMKA_BLESS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let checked_in = std::fs::read(&path).unwrap_or_default();
    assert!(
        checked_in == fresh,
        "ffi/include/damka.h is stale: run `DAMKA_BLESS=1 cargo test -p damka-ffi --test header` \
         and commit the header"
    );
}
