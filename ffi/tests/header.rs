//! `include/imcts.h` is what cbindgen generates from this crate today.
//!
//! cbindgen is a dev-dependency pinned to `=0.29.4` (its output changes between versions), so
//! `cargo test` catches a stale header on any machine, and CI needs no `cargo install`. After
//! changing the C ABI, regenerate the header with
//!
//! ```sh
//! IMCTS_BLESS_HEADER=1 cargo test -p imcts-ffi --test header
//! ```
//!
//! (or `cbindgen --config ffi/cbindgen.toml --crate imcts-ffi --output include/imcts.h ffi`
//! with cbindgen 0.29.4 installed: the same output).

use std::path::Path;

#[test]
fn checked_in_header_is_what_cbindgen_generates() {
    let ffi = Path::new(env!("CARGO_MANIFEST_DIR"));
    let header = ffi.join("../include/imcts.h");
    let config = cbindgen::Config::from_file(ffi.join("cbindgen.toml"))
        .expect("ffi/cbindgen.toml is a valid cbindgen configuration");
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_crate_and_name(ffi, "imcts-ffi")
        .generate()
        .expect("cbindgen generates the bindings of imcts-ffi");
    let mut generated = Vec::new();
    bindings.write(&mut generated);

    if std::env::var_os("IMCTS_BLESS_HEADER").is_some() {
        std::fs::write(&header, &generated).expect("writing include/imcts.h");
        return;
    }
    let checked_in = std::fs::read(&header).expect("reading include/imcts.h");
    if checked_in != generated {
        let (old, new) = (
            String::from_utf8_lossy(&checked_in),
            String::from_utf8_lossy(&generated),
        );
        let first = old
            .lines()
            .zip(new.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(old.lines().count().min(new.lines().count()));
        panic!(
            "include/imcts.h is stale: it differs from cbindgen's output from line {} on\n\
             checked in: {:?}\ngenerated:  {:?}\n\
             Regenerate it: IMCTS_BLESS_HEADER=1 cargo test -p imcts-ffi --test header",
            first + 1,
            old.lines().nth(first),
            new.lines().nth(first),
        );
    }
}
