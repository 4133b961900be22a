//! skilltui against a hostile or broken environment around CAO: paths that
//! are not UTF-8 or hold escape sequences, broken installs, bad caches.

#[path = "common/fake_cao.rs"]
mod fake_cao;

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::process::{Command, Output};

/// skilltui with an empty environment but HOME (under `root`) and `env`.
fn skilltui(root: &Path, args: &[&OsStr], env: &[(&str, &OsStr)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_skilltui"));
    cmd.args(args)
        .env_clear()
        .env("HOME", root.join("user"))
        .env("PATH", root.join("no-bin"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

fn ok_stdout(o: &Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "failed: {err}");
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn doctor_json_stays_valid_with_paths_that_are_not_utf8() {
    let tmp = tempfile::tempdir().unwrap();
    let odd = tmp.path().join(OsStr::from_bytes(b"odd-\xff"));
    let cao = fake_cao::make(&odd);
    let home = odd.join("home");
    let args = [OsStr::new("--home"), home.as_os_str(), "doctor".as_ref()];
    let args = [&args[..], &["--json".as_ref()]].concat();
    let out = skilltui(tmp.path(), &args, &[("SKILLTUI_CAO", cao.as_os_str())]);
    let json: serde_json::Value = serde_json::from_str(&ok_stdout(&out)).unwrap();
    assert_eq!(json["cao"]["version"], fake_cao::VERSION);
    assert_eq!(json["cao"]["how"], "$SKILLTUI_CAO");
    assert!(json["home"].as_str().unwrap().contains("odd-\u{fffd}"));
}

#[test]
fn doctor_keeps_each_fact_on_its_line_and_drops_escapes() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home\nwarnings    none\x1b[2J");
    let args = [OsStr::new("--home"), home.as_os_str(), "doctor".as_ref()];
    let text = ok_stdout(&skilltui(tmp.path(), &args, &[]));
    assert!(!text.contains('\x1b'), "{text:?}");
    let starts = |p: &str| text.lines().filter(|l| l.starts_with(p)).count();
    assert_eq!(starts("warnings    none"), 1, "{text}");
    assert_eq!(starts("home        "), 1, "{text}");
}

/// `init` in `home` (under `root`), with `extra` arguments and environment.
fn init(root: &Path, home: &Path, extra: &[&OsStr], env: &[(&str, &OsStr)]) -> Output {
    let args = [
        &[OsStr::new("--home"), home.as_os_str()],
        extra,
        &["init".as_ref()],
    ]
    .concat();
    skilltui(root, &args, env)
}

fn one_error_line(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8(o.stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

#[test]
fn init_refuses_a_named_cao_that_is_not_one_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let nonsense = OsStr::new("/etc/hostname");
    let by_flag = init(tmp.path(), &home, &["--cao".as_ref(), nonsense], &[]);
    let err = one_error_line(&by_flag);
    assert!(
        err.contains("--cao /etc/hostname holds no CAO package"),
        "{err}"
    );
    let by_env = init(tmp.path(), &home, &[], &[("SKILLTUI_CAO", nonsense)]);
    assert!(one_error_line(&by_env).contains("$SKILLTUI_CAO=/etc/hostname"));
    assert!(!home.exists());
    // With none named and none found, ours are seeded and the user told why
    // CAO's are not.
    let out = init(tmp.path(), &home, &[], &[]);
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("warning: CAO's own skills come with CAO"),
        "{err}"
    );
}

#[test]
fn init_says_when_the_store_is_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    fs::create_dir_all(&home).unwrap();
    fs::write(home.join("skills"), "").unwrap();
    let err = one_error_line(&init(tmp.path(), &home, &[], &[]));
    assert!(err.contains("is not a folder: move it away"), "{err}");
}
