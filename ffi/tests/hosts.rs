//! The C ABI from real hosts: builds the static and shared libraries with cargo, compiles the
//! C99 and C++17 examples with gcc/g++ (warnings as errors, ASan and UBSan), runs them and
//! compares their game transcripts, and runs the Python ctypes example.
//!
//! A missing compiler or Python is a failure, not a skip. `CC`, `CXX` and `PYTHON` override the
//! defaults `gcc`, `g++` and `python3`. The CMake example runs only where `cmake` is installed.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn workspace() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"))
}

/// Builds the libraries once and returns their folder.
///
/// With the test profile (`opt-level = 1`, debug assertions and overflow checks on), whose build
/// `cargo test` has already made: the hosts then run with the kernel's own checks armed, and a
/// cold `cargo test` builds the kernel once less (a release build, one codegen unit and thin LTO,
/// was a minute and a half of CPU). `include/imcts.h` and the ABI are the same in every profile.
fn libraries() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let status = Command::new(cargo)
            .args([
                "build",
                "-p",
                "imcts-ffi",
                "--profile",
                "test",
                "--lib",
                "--target-dir",
            ])
            .arg(target_dir())
            .current_dir(workspace())
            .status()
            .expect("running cargo build for the FFI libraries");
        assert!(
            status.success(),
            "cargo build -p imcts-ffi --profile test failed"
        );
        let dir = target_dir().join("debug");
        for lib in ["libimcts_ffi.a", "libimcts_ffi.so"] {
            assert!(dir.join(lib).exists(), "{lib} missing in {}", dir.display());
        }
        dir
    })
}

fn out_dir() -> PathBuf {
    let d = target_dir().join("ffi-hosts");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn tool(var: &str, default: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| default.into())
}

/// Runs a command, failing the test (with its output) unless it succeeds; returns stdout.
fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: could not start {:?}: {e} (is it installed?)", cmd));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{what} failed ({}):\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        out.status
    );
    stdout
}

const WARNINGS: [&str; 5] = ["-Wall", "-Wextra", "-Werror", "-pedantic", "-g"];
const SANITIZERS: &str = "-fsanitize=address,undefined";
const SYSTEM_LIBS: [&str; 3] = ["-lpthread", "-ldl", "-lm"];

/// Compiles `sources` against the static library and runs the program.
fn build_and_run(compiler: &str, std: &str, sources: &[&str], exe: &str) -> String {
    let ws = workspace();
    let exe = out_dir().join(exe);
    let mut cc = Command::new(compiler);
    cc.arg(std)
        .args(WARNINGS)
        .arg(SANITIZERS)
        .arg("-fno-sanitize-recover=undefined")
        .arg("-I")
        .arg(ws.join("include"));
    for s in sources {
        cc.arg(ws.join(s));
    }
    cc.arg(libraries().join("libimcts_ffi.a"))
        .args(SYSTEM_LIBS)
        .arg("-o")
        .arg(&exe);
    run(
        &mut cc,
        &format!("compiling {sources:?} with {compiler} {std}"),
    );
    let stdout = run(
        &mut Command::new(&exe),
        &format!("running {}", exe.display()),
    );
    assert!(
        stdout.contains("all checks passed"),
        "{} did not pass:\n{stdout}",
        exe.display()
    );
    stdout
}

/// The game lines of a transcript.
fn transcript(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|l| l.starts_with("ply ") || l.starts_with("final "))
        .collect()
}

#[test]
#[cfg_attr(miri, ignore = "spawns compilers")]
fn c99_and_cpp17_hosts_play_the_same_game() {
    let c = build_and_run(
        &tool("CC", "gcc"),
        "-std=c99",
        &["examples/c/play.c"],
        "play_c",
    );
    let cpp = build_and_run(
        &tool("CXX", "g++"),
        "-std=c++17",
        &["examples/cpp/main.cpp", "examples/cpp/engine.cpp"],
        "play_cpp",
    );
    let (tc, tcpp) = (transcript(&c), transcript(&cpp));
    assert!(tc.len() >= 2, "no game played:\n{c}");
    assert_eq!(tc, tcpp, "C and C++ hosts disagree");
}

/// The "C usage in about ten lines" snippet of ffi/README.md, compiled (C11) and run.
#[test]
#[cfg_attr(miri, ignore = "spawns compilers")]
fn readme_snippet_compiles_and_runs() {
    let readme = std::fs::read_to_string(workspace().join("ffi/README.md")).unwrap();
    let start = readme
        .find("## C usage in about ten lines")
        .expect("README section");
    let code = &readme[start..];
    let code = &code[code.find("```c\n").expect("C block") + 5..];
    let code = &code[..code.find("```").expect("end of C block")];
    let (includes, body): (Vec<&str>, Vec<&str>) =
        code.lines().partition(|l| l.starts_with("#include"));
    assert!(body.len() <= 12, "the snippet grew to {} lines", body.len());
    let src = format!(
        "{}\n#include <stdio.h>\nint main(void) {{\n{}\nreturn 0;\n}}\n",
        includes.join("\n"),
        body.join("\n")
    );
    let path = out_dir().join("readme_snippet.c");
    std::fs::write(&path, src).unwrap();
    let exe = out_dir().join("readme_snippet");
    run(
        Command::new(tool("CC", "gcc"))
            .arg("-std=c11")
            .args(WARNINGS)
            .arg(SANITIZERS)
            .arg("-I")
            .arg(workspace().join("include"))
            .arg(&path)
            .arg(libraries().join("libimcts_ffi.a"))
            .args(SYSTEM_LIBS)
            .arg("-o")
            .arg(&exe),
        "compiling the README snippet",
    );
    let stdout = run(&mut Command::new(&exe), "running the README snippet");
    assert!(stdout.starts_with("bestmove "), "{stdout}");
}

#[test]
#[cfg_attr(miri, ignore = "spawns compilers")]
fn header_compiles_as_c99_c11_and_cpp11() {
    let ws = workspace();
    let src = out_dir().join("header_only.c");
    std::fs::write(
        &src,
        "#include \"imcts.h\"\nint main(void) { return IMCTS_STATUS_OK; }\n",
    )
    .unwrap();
    for (compiler, std, lang) in [
        (tool("CC", "gcc"), "-std=c99", "c"),
        (tool("CC", "gcc"), "-std=c11", "c"),
        (tool("CXX", "g++"), "-std=c++11", "c++"),
    ] {
        run(
            Command::new(&compiler)
                .args(["-x", lang, std, "-fsyntax-only"])
                .args(WARNINGS)
                .arg("-I")
                .arg(ws.join("include"))
                .arg(&src),
            &format!("header with {compiler} {std}"),
        );
    }
}

#[test]
#[cfg_attr(miri, ignore = "spawns compilers")]
fn python_ctypes_example_searches() {
    let so = libraries().join("libimcts_ffi.so");
    let stdout = run(
        Command::new(tool("PYTHON", "python3"))
            .arg(workspace().join("examples/python/search.py"))
            .arg(&so),
        "python3 examples/python/search.py",
    );
    let best = stdout
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("no bestmove line:\n{stdout}"));
    assert_eq!(best.len(), 5, "a Breakthrough move like d2-c3: {best:?}");
}

#[test]
#[cfg_attr(miri, ignore = "spawns compilers")]
fn cmake_example_builds_where_cmake_is_installed() {
    let Ok(probe) = Command::new("cmake").arg("--version").output() else {
        eprintln!("cmake not installed: examples/cmake not built (documented in ffi/README.md)");
        return;
    };
    assert!(probe.status.success());
    let build = out_dir().join("cmake-build");
    let lib = libraries().join("libimcts_ffi.a");
    run(
        Command::new("cmake")
            .arg("-S")
            .arg(workspace().join("examples/cmake"))
            .arg("-B")
            .arg(&build)
            .arg(format!("-DIMCTS_LIB={}", lib.display())),
        "cmake configure",
    );
    run(
        Command::new("cmake").arg("--build").arg(&build),
        "cmake build",
    );
    let stdout = run(&mut Command::new(build.join("consumer")), "cmake consumer");
    assert!(stdout.contains("bestmove "), "{stdout}");
}

/// Issue 13 from a hostile C host: over-long positions, a read-only engine behind the const
/// entry points, specs refused at parse time, a frozen clock, error detail (`ffi/tests/c/hostile.c`).
#[test]
#[cfg_attr(miri, ignore = "spawns compilers")]
fn hostile_c_host() {
    let out = build_and_run(
        &tool("CC", "gcc"),
        "-std=c99",
        &["ffi/tests/c/hostile.c"],
        "hostile_c",
    );
    assert!(out.contains("frozen clock, game 0: stop"), "{out}");
}

/// Issue 15 from a C host: POSIX threads lent to one search through
/// `imcts_engine_search_threads` and `imcts_search_worker` (`ffi/tests/c/threads.c`): every
/// simulation counted once, a refused thread skipped, tree reuse, Tic-Tac-Toe proofs equal to
/// the single-threaded ones, one thread identical to `imcts_engine_search`, bad descriptions
/// refused.
#[test]
#[cfg_attr(miri, ignore = "spawns compilers")]
fn c_host_lends_pthreads_to_a_search() {
    let out = build_and_run(
        &tool("CC", "gcc"),
        "-std=c11",
        &["ffi/tests/c/threads.c"],
        "threads_c",
    );
    assert!(out.contains("4 pthreads: "), "{out}");
}
