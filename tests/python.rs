//! The Python package: builds `python/` into a throwaway virtual environment with
//! `pip install ./python` (maturin comes from PyPI) and runs its pytest tests
//! against the `damka` binary built beside this test. Fails, saying what to
//! install, when `python3` or its `venv` module is missing.
//!
//! The extension is compiled into `target/python` (CARGO_TARGET_DIR), so that a
//! second run only relinks what changed.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

use common::temp_dir;

/// Runs `command`, failing the test with its output unless it succeeds.
fn check(command: &mut Command, what: &str) -> Output {
    let out = command
        .output()
        .unwrap_or_else(|e| panic!("cannot {what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn the_python_package_passes_its_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = temp_dir("python");
    let venv = tmp.path().join("venv");
    let python = common::python();
    let made = Command::new(&python)
        .args(["-m", "venv"])
        .arg(&venv)
        .output();
    match made {
        Ok(out) if out.status.success() => {}
        Ok(out) => panic!(
            "`{python} -m venv` failed: the Python tests need Python 3 with its venv \
             module (on Debian: apt-get install python3-venv):\n{}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => panic!(
            "cannot run `{python}` ({e}): the Python tests need Python 3 with its venv \
             module (on Debian: apt-get install python3 python3-venv), or DAMKA_PYTHON \
             naming one"
        ),
    }
    let bin = venv.join("bin");
    check(
        Command::new(bin.join("pip"))
            .args(["install", "--quiet", "--disable-pip-version-check"])
            .arg(root.join("python"))
            .arg("pytest")
            .env("CARGO_TARGET_DIR", root.join("target/python")),
        "pip install ./python",
    );
    let run = check(
        Command::new(bin.join("python"))
            .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .arg(root.join("python/tests"))
            .env("DAMKA_BIN", env!("CARGO_BIN_EXE_damka"))
            .current_dir(tmp.path()),
        "pytest python/tests",
    );
    let summary = String::from_utf8_lossy(&run.stdout);
    println!("{summary}");
    assert!(
        summary.contains(" passed") && !summary.contains(" skipped"),
        "pytest ran no test, or skipped some:\n{summary}"
    );
}
