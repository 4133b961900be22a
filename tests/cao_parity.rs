//! CAO-parity differential test.
//!
//! `tests/parity/gen_and_oracle.py` generates a few hundred random CAO homes full of traps and
//! asks the real CAO 2.5.4 (and skills-ref 0.1.1 for the xml format) what it does with each;
//! this test runs `skilltui` on every home and compares, byte for byte.
//!
//! The oracle runs in a venv at `<target>/parity-venv`, created on first use with
//! `python3 -m venv` + `pip install cli-agent-orchestrator==2.5.4 skills-ref==0.1.1` (plus pins
//! of the libraries that decide their behaviour, see `REQUIREMENTS`).
//! No python3 is a hard failure unless `SKILLTUI_SKIP_PARITY=1`.
//!
//! Knobs (env): `SKILLTUI_PARITY_SEED` (default 1), `SKILLTUI_PARITY_COUNT` (default 320),
//! `SKILLTUI_PARITY_SELFCHECK` (homes re-checked against a fresh CAO process, default 3),
//! `SKILLTUI_PARITY_KEEP=1` (keep the generated homes and print where),
//! `SKILLTUI_PARITY_SHOW` (how many differences to print, default 30), `SKILLTUI_PYTHON`
//! (the python3 used to create the venv), `SKILLTUI_SKIP_PARITY=1` (skip, loudly).
//!
//! `cao_parity_fuzz` compares `validate` with CAO on thousands of fuzzed frontmatters
//! (`SKILLTUI_PARITY_FUZZ`, `SKILLTUI_PARITY_FUZZ_SEED`).

#[path = "common/venv.rs"]
mod venv;

use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const RUN_TIMEOUT: Duration = Duration::from_secs(60);

/// The venv's python, built once for both tests; `None` when skipped.
fn oracle_python() -> Option<PathBuf> {
    static VENV: Mutex<Option<PathBuf>> = Mutex::new(None);
    if std::env::var("SKILLTUI_SKIP_PARITY").as_deref() == Ok("1") {
        eprintln!("parity: SKIPPED (SKILLTUI_SKIP_PARITY=1)");
        return None;
    }
    let mut venv = VENV.lock().unwrap_or_else(|e| e.into_inner());
    if venv.is_none() {
        let python = venv::find_python3().unwrap_or_else(|| {
            panic!(
                "parity: python3 (>= 3.10) not found on PATH; it is needed to build the CAO oracle \
                 venv. Install python3 (with the venv module) or set SKILLTUI_SKIP_PARITY=1 to skip \
                 this test explicitly."
            )
        });
        *venv = Some(venv::ensure_venv(&python));
    }
    venv.clone()
}

#[test]
fn cao_parity() {
    let Some(venv_python) = oracle_python() else {
        return;
    };

    let seed = std::env::var("SKILLTUI_PARITY_SEED").unwrap_or_else(|_| "1".into());
    let count = env_usize("SKILLTUI_PARITY_COUNT", 320);
    let selfcheck = env_usize("SKILLTUI_PARITY_SELFCHECK", 3);
    let keep = std::env::var("SKILLTUI_PARITY_KEEP").as_deref() == Ok("1");

    let tmp = tempfile::Builder::new()
        .prefix("skilltui-parity-")
        .tempdir()
        .expect("create temp dir");
    let root = tmp
        .path()
        .canonicalize()
        .expect("canonicalize temp dir")
        .join("root");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parity/gen_and_oracle.py");

    let started = Instant::now();
    let status = Command::new(&venv_python)
        .arg(&script)
        .arg(&root)
        .args(["--seed", &seed, "--count", &count.to_string()])
        .args(["--selfcheck", &selfcheck.to_string()])
        .env("PYTHONUTF8", "1")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null())
        .status()
        .expect("run gen_and_oracle.py");
    assert!(
        status.success(),
        "parity: the oracle (gen_and_oracle.py) failed: {status}"
    );
    let oracle_time = started.elapsed();

    let expected: Value = serde_json::from_slice(
        &std::fs::read(root.join("expected.json")).expect("read expected.json"),
    )
    .expect("parse expected.json");
    let venv_dir = venv_python
        .parent()
        .and_then(Path::parent)
        .expect("venv dir");
    check_built_in_profiles(&expected["built_in_profiles"], venv_dir);
    let homes = expected["homes"].as_array().expect("homes").clone();
    let cwd = PathBuf::from(expected["cwd"].as_str().expect("cwd"));

    let bin = PathBuf::from(env!("CARGO_BIN_EXE_skilltui"));
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, HomeResult)>> = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 4);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= homes.len() {
                        break;
                    }
                    let r = check_home(&bin, &cwd, venv_dir, &homes[i]);
                    results.lock().unwrap().push((i, r));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);

    let mut total = HomeResult::default();
    for (_, r) in results {
        total.catalogs += r.catalogs;
        total.folders += r.folders;
        total.xml_compared += r.xml_compared;
        total.xml_skipped += r.xml_skipped;
        total.diffs.extend(r.diffs);
    }

    let mut by_category: BTreeMap<&str, usize> = BTreeMap::new();
    for d in &total.diffs {
        *by_category.entry(d.category).or_default() += 1;
    }
    let show_diffs = env_usize("SKILLTUI_PARITY_SHOW", 30);
    for (n, d) in total.diffs.iter().take(show_diffs).enumerate() {
        eprintln!(
            "--- difference {} [{}] {}\n    command:  {}\n    expected: {}\n    actual:   {}",
            n + 1,
            d.category,
            d.home,
            d.command,
            d.expected,
            d.actual
        );
    }
    if total.diffs.len() > show_diffs {
        eprintln!(
            "... and {} more differences",
            total.diffs.len() - show_diffs
        );
    }
    if !by_category.is_empty() {
        eprintln!("parity: differences by category: {by_category:?}");
    }
    eprintln!(
        "parity: {} homes, {} catalogs, {} folders, {} differences (xml: {} compared, {} skipped \
         as not comparable; seed {}, oracle {:.1}s, total {:.1}s)",
        homes.len(),
        total.catalogs,
        total.folders,
        total.diffs.len(),
        total.xml_compared,
        total.xml_skipped,
        seed,
        oracle_time.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    if keep {
        let kept = tmp.keep();
        eprintln!("parity: homes kept in {}", kept.join("root").display());
    }
    if !total.diffs.is_empty() {
        panic!(
            "parity: {} differences between skilltui and CAO 2.5.4 (reproduce with \
             SKILLTUI_PARITY_SEED={} SKILLTUI_PARITY_COUNT={} SKILLTUI_PARITY_KEEP=1)",
            total.diffs.len(),
            seed,
            count
        );
    }
}

// ---------------------------------------------------------------------------------------------
// differential fuzz of frontmatters
// ---------------------------------------------------------------------------------------------

/// Thousands of SKILL.md files assembled from what people write by hand (tabs, comments, quotes,
/// block scalars, flow maps, anchors, tags, unicode, CRLF, odd `---` lines); `skilltui validate`
/// must agree with CAO's `validate_skill_folder` on validity, name and description, every time.
/// Knobs: `SKILLTUI_PARITY_FUZZ` (how many, default 3000), `SKILLTUI_PARITY_FUZZ_SEED`
/// (default 1).
#[test]
fn cao_parity_fuzz() {
    let Some(venv_python) = oracle_python() else {
        return;
    };
    let seed = std::env::var("SKILLTUI_PARITY_FUZZ_SEED").unwrap_or_else(|_| "1".into());
    let count = env_usize("SKILLTUI_PARITY_FUZZ", 3000);
    let tmp = tempfile::tempdir().expect("create temp dir");
    let root = tmp.path().join("fuzz-root");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parity/gen_and_oracle.py");
    let status = Command::new(&venv_python)
        .arg(&script)
        .arg(&root)
        .args(["--fuzz", &count.to_string(), "--seed", &seed])
        .env("PYTHONUTF8", "1")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null())
        .status()
        .expect("run gen_and_oracle.py --fuzz");
    assert!(status.success(), "parity fuzz: the oracle failed: {status}");
    let expected: Value =
        serde_json::from_slice(&std::fs::read(root.join("fuzz.json")).expect("read fuzz.json"))
            .expect("parse fuzz.json");
    let cases = expected["cases"].as_array().expect("cases");
    let failures: Vec<String> = cases
        .chunks(400)
        .flat_map(|chunk| fuzz_chunk(tmp.path(), chunk))
        .collect();
    for f in failures.iter().take(env_usize("SKILLTUI_PARITY_SHOW", 30)) {
        eprintln!("{f}");
    }
    eprintln!(
        "parity fuzz: {} frontmatters, {} differences (seed {seed})",
        cases.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "parity fuzz: skilltui and CAO disagree on {} of {} frontmatters (reproduce with \
         SKILLTUI_PARITY_FUZZ_SEED={seed} SKILLTUI_PARITY_FUZZ={count})",
        failures.len(),
        cases.len()
    );
}

/// `skilltui validate` over one chunk of cases; a description of each disagreement.
fn fuzz_chunk(scratch: &Path, chunk: &[Value]) -> Vec<String> {
    let bin = Path::new(env!("CARGO_BIN_EXE_skilltui"));
    let mut cmd = Command::new(bin);
    cmd.arg("--home")
        .arg(scratch.join("cao-home"))
        .arg("validate")
        .args(chunk.iter().map(|c| str_field(c, "path")))
        .arg("--json")
        .env("HOME", scratch)
        .env("NO_COLOR", "1");
    let r = run_with_timeout(cmd, RUN_TIMEOUT);
    let got = match serde_json::from_slice::<Value>(&r.stdout) {
        Ok(Value::Array(a)) if a.len() == chunk.len() => a,
        _ => {
            return vec![format!(
                "parity fuzz: validate gave no usable answer: {}",
                r.describe()
            )];
        }
    };
    let answer = |v: &Value| {
        if v["valid"] == true {
            format!(
                "valid, name {}, description {}",
                v["name"], v["description"]
            )
        } else {
            format!(
                "invalid ({})",
                v.get("error").or(v.get("errors")).unwrap_or(&Value::Null)
            )
        }
    };
    chunk
        .iter()
        .zip(&got)
        .filter(|(want, have)| {
            want["valid"] != have["valid"]
                || (want["valid"] == true
                    && (want["name"] != have["name"] || want["description"] != have["description"]))
        })
        .map(|(want, have)| {
            format!(
                "--- fuzz difference at {}\n    SKILL.md: {:?}\n    CAO:      {}\n    skilltui: {}",
                str_field(want, "path"),
                str_field(want, "text"),
                clip(&answer(want)),
                clip(&answer(have))
            )
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// one home
// ---------------------------------------------------------------------------------------------

#[derive(Default)]
struct HomeResult {
    catalogs: usize,
    folders: usize,
    xml_compared: usize,
    xml_skipped: usize,
    diffs: Vec<Diff>,
}

struct Diff {
    category: &'static str,
    home: String,
    command: String,
    expected: String,
    actual: String,
}

struct Ctx<'a> {
    bin: &'a Path,
    cwd: &'a Path,
    /// The venv whose CAO serves the built-in profiles.
    cao: &'a Path,
    id: String,
    home: String,
    fake_home: String,
}

impl Ctx<'_> {
    fn run(&self, args: &[&str]) -> RunOut {
        let mut cmd = Command::new(self.bin);
        cmd.arg("--home")
            .arg(&self.home)
            .args(args)
            .current_dir(self.cwd)
            .env_remove("CAO_HOME_DIR")
            .env("SKILLTUI_CAO", self.cao)
            .env("HOME", &self.fake_home)
            .env(
                "XDG_CONFIG_HOME",
                Path::new(&self.fake_home).join(".config"),
            )
            .env("NO_COLOR", "1");
        run_with_timeout(cmd, RUN_TIMEOUT)
    }

    fn command(&self, args: &[&str]) -> String {
        let mut s = format!(
            "HOME={} SKILLTUI_CAO={} skilltui --home {}",
            self.fake_home,
            self.cao.display(),
            self.home
        );
        for a in args {
            s.push(' ');
            s.push_str(&shell_quote(a));
        }
        s
    }

    fn diff(
        &self,
        out: &mut HomeResult,
        category: &'static str,
        args: &[&str],
        expected: String,
        actual: String,
    ) {
        out.diffs.push(Diff {
            category,
            home: self.id.clone(),
            command: self.command(args),
            expected,
            actual,
        });
    }
}

fn check_home(bin: &Path, cwd: &Path, cao: &Path, h: &Value) -> HomeResult {
    let ctx = Ctx {
        bin,
        cwd,
        cao,
        id: format!(
            "{} ({})",
            h["id"].as_str().unwrap(),
            h["home"].as_str().unwrap()
        ),
        home: h["home"].as_str().unwrap().to_string(),
        fake_home: h["fake_home"].as_str().unwrap().to_string(),
    };
    let mut out = HomeResult::default();
    check_list(&ctx, h, &mut out);
    check_validate(&ctx, h, &mut out);
    for p in h["profiles"].as_array().unwrap() {
        check_catalog(&ctx, p, &mut out);
    }
    out
}

fn check_list(ctx: &Ctx, h: &Value, out: &mut HomeResult) {
    let args = ["list", "--json"];
    let r = ctx.run(&args);
    let expected_pairs: Vec<(String, String)> = h["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p[0].as_str().unwrap().to_string(),
                p[1].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let arr = match (r.code, serde_json::from_slice::<Value>(&r.stdout)) {
        (Some(0), Ok(Value::Array(a))) => a,
        _ => {
            ctx.diff(
                out,
                "list",
                &args,
                "exit 0 and a JSON array".into(),
                r.describe(),
            );
            return;
        }
    };
    // 1. the `ok` entries, in array order, are CAO's list_skills()
    let actual_pairs: Vec<(String, String)> = arr
        .iter()
        .filter(|e| e["status"] == "ok")
        .map(|e| (str_field(e, "name"), str_field(e, "description")))
        .collect();
    if actual_pairs != expected_pairs {
        let (e, a) = first_difference(&expected_pairs, &actual_pairs);
        ctx.diff(
            out,
            "list",
            &args,
            format!(
                "{} ok skills; first difference: {}",
                expected_pairs.len(),
                e
            ),
            format!("{} ok skills; first difference: {}", actual_pairs.len(), a),
        );
    }
    // 2. every candidate folder is listed with CAO's verdict on it (ok / shadowed / invalid),
    //    and nothing else is
    let mut actual_status: HashMap<PathBuf, String> = HashMap::new();
    for e in &arr {
        let p = normalize(e["path"].as_str().unwrap_or(""));
        actual_status
            .entry(p)
            .or_insert_with(|| str_field(e, "status"));
    }
    let mut expected_paths = Vec::new();
    for s in h["statuses"].as_array().unwrap() {
        let path = s["path"].as_str().unwrap();
        let want = s["status"].as_str().unwrap();
        let np = normalize(path);
        match actual_status.get(&np) {
            Some(got) if got == want => {}
            got => ctx.diff(
                out,
                "list-status",
                &args,
                format!("{path}: {want}"),
                format!(
                    "{path}: {}",
                    got.map(|s| s.as_str()).unwrap_or("<not listed>")
                ),
            ),
        }
        expected_paths.push(np);
    }
    for (p, st) in &actual_status {
        if !expected_paths.contains(p) {
            ctx.diff(
                out,
                "list-status",
                &args,
                format!("{}: <not a candidate: CAO ignores it>", p.display()),
                format!("{}: {st}", p.display()),
            );
        }
    }
}

fn check_validate(ctx: &Ctx, h: &Value, out: &mut HomeResult) {
    let folders = h["folders"].as_array().unwrap();
    out.folders += folders.len();
    let mut args: Vec<&str> = vec!["validate"];
    for f in folders {
        args.push(f["path"].as_str().unwrap());
    }
    args.push("--json");
    let r = ctx.run(&args);
    let any_invalid = folders.iter().any(|f| f["valid"] == false);
    let want_code = if any_invalid { 1 } else { 0 };
    let arr = match serde_json::from_slice::<Value>(&r.stdout) {
        Ok(Value::Array(a)) if a.len() == folders.len() => a,
        _ => {
            ctx.diff(
                out,
                "validate",
                &args,
                format!(
                    "exit {want_code} and a JSON array of {} objects",
                    folders.len()
                ),
                r.describe(),
            );
            return;
        }
    };
    if r.code != Some(want_code) {
        ctx.diff(
            out,
            "validate",
            &args,
            format!("exit {want_code}"),
            format!("exit {:?}", r.code),
        );
    }
    for (f, a) in folders.iter().zip(&arr) {
        let path = f["path"].as_str().unwrap();
        let single = ["validate", path, "--json"];
        let want_valid = f["valid"].as_bool().unwrap();
        if a["valid"].as_bool() != Some(want_valid) {
            ctx.diff(
                out,
                "validate",
                &single,
                format!("valid={want_valid} {}", expected_nd(f)),
                format!("valid={} errors={}", a["valid"], a["errors"]),
            );
        } else if want_valid
            && (a["name"].as_str() != f["name"].as_str()
                || a["description"].as_str() != f["description"].as_str())
        {
            ctx.diff(
                out,
                "validate",
                &single,
                expected_nd(f),
                format!("name={} description={}", a["name"], a["description"]),
            );
        }
    }
}

fn check_catalog(ctx: &Ctx, p: &Value, out: &mut HomeResult) {
    let name = p["name"].as_str().unwrap();
    let ok = p["ok"].as_bool().unwrap();
    out.catalogs += 1;

    // A runtime-prompt provider: the catalog is what it appends.
    let args = ["catalog", name, "--provider", "claude_code"];
    let r = ctx.run(&args);
    if ok {
        expect_block(
            ctx,
            out,
            "catalog",
            &args,
            &r,
            p["catalog"].as_str().unwrap(),
        );
    } else if !is_load_error(&r) {
        ctx.diff(
            out,
            "catalog",
            &args,
            format!(
                "exit 1, stderr starting `error:` (CAO raises {})",
                p["error"]
            ),
            r.describe(),
        );
    }

    if ok {
        check_prompt(ctx, p, out);
    }

    let args = [
        "catalog",
        name,
        "--format",
        "xml",
        "--provider",
        "claude_code",
    ];
    if ok && !p["xml_comparable"].as_bool().unwrap() {
        out.xml_skipped += 1;
        return;
    }
    out.xml_compared += 1;
    let r = ctx.run(&args);
    if ok {
        let want = format!("{}\n", p["xml"].as_str().unwrap());
        if r.code != Some(0) || r.stdout != want.as_bytes() {
            ctx.diff(
                out,
                "xml",
                &args,
                format!("exit 0, stdout {}", show(want.as_bytes())),
                r.describe(),
            );
        }
    } else if !is_load_error(&r) {
        ctx.diff(
            out,
            "xml",
            &args,
            format!(
                "exit 1, stderr starting `error:` (CAO raises {})",
                p["error"]
            ),
            r.describe(),
        );
    }
}

/// The built-in profiles skilltui finds in the venv's CAO are the ones CAO
/// itself lists, with the same text.
fn check_built_in_profiles(packaged: &Value, venv: &Path) {
    let packaged = packaged.as_object().expect("built_in_profiles");
    let search = skilltui::core::cao::installed::Search {
        flag: Some(venv.to_path_buf()),
        ..Default::default()
    };
    let install = search
        .find()
        .expect("parity: skilltui finds the venv's CAO");
    let ours = install.built_in_profiles();
    let theirs: Vec<&str> = packaged.keys().map(String::as_str).collect();
    assert_eq!(
        ours, theirs,
        "parity: built-in profile names differ from CAO's"
    );
    for name in &ours {
        let path = install.built_in_path(name).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).ok().as_deref(),
            packaged[name].as_str(),
            "parity: {} differs from CAO's packaged copy",
            path.display()
        );
    }
}

/// `catalog P --prompt`: body, blank line, block, as CAO's provider
/// composes them (built-in profiles included).
fn check_prompt(ctx: &Ctx, p: &Value, out: &mut HomeResult) {
    let args = [
        "catalog",
        p["name"].as_str().unwrap(),
        "--prompt",
        "--provider",
        "claude_code",
    ];
    let r = ctx.run(&args);
    expect_block(ctx, out, "prompt", &args, &r, p["prompt"].as_str().unwrap());
}

/// Exit 0 and stdout `text` plus one newline, or nothing when it is empty.
fn expect_block(
    ctx: &Ctx,
    out: &mut HomeResult,
    kind: &'static str,
    args: &[&str],
    r: &RunOut,
    text: &str,
) {
    let want = if text.is_empty() {
        String::new()
    } else {
        format!("{text}\n")
    };
    if r.code != Some(0) || r.stdout != want.as_bytes() {
        ctx.diff(
            out,
            kind,
            args,
            format!("exit 0, stdout {}", show(want.as_bytes())),
            r.describe(),
        );
    }
}

fn is_load_error(r: &RunOut) -> bool {
    r.code == Some(1)
        && String::from_utf8_lossy(&r.stderr)
            .lines()
            .next()
            .is_some_and(|l| l.starts_with("error:"))
}

fn expected_nd(f: &Value) -> String {
    if f["valid"] == true {
        format!("name={} description={}", f["name"], f["description"])
    } else {
        format!("(CAO raises {})", f["error"])
    }
}

fn str_field(v: &Value, key: &str) -> String {
    match &v[key] {
        Value::String(s) => s.clone(),
        other => format!("<non-string {other}>"),
    }
}

fn first_difference(e: &[(String, String)], a: &[(String, String)]) -> (String, String) {
    let n = e.len().max(a.len());
    for i in 0..n {
        if e.get(i) != a.get(i) {
            let f = |x: Option<&(String, String)>| match x {
                Some((n, d)) => format!("#{i} {n:?}: {d:?}"),
                None => format!("#{i} <none>"),
            };
            return (clip(&f(e.get(i))), clip(&f(a.get(i))));
        }
    }
    (String::new(), String::new())
}

/// Lexical normalisation (what pathlib does): no `.` components, no doubled or trailing `/`.
fn normalize(p: &str) -> PathBuf {
    Path::new(p)
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// running the binary
// ---------------------------------------------------------------------------------------------

struct RunOut {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
    timed_out: bool,
}

impl RunOut {
    fn describe(&self) -> String {
        if self.timed_out {
            return format!("TIMEOUT after {}s", RUN_TIMEOUT.as_secs());
        }
        format!(
            "exit {:?}, stdout {}, stderr {}",
            self.code,
            show(&self.stdout),
            show(&self.stderr)
        )
    }
}

fn run_with_timeout(mut cmd: Command, timeout: Duration) -> RunOut {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return RunOut {
                code: None,
                stdout: Vec::new(),
                stderr: format!("spawn failed: {e}").into_bytes(),
                timed_out: false,
            };
        }
    };
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = so.read_to_end(&mut b);
        b
    });
    let t_err = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = se.read_to_end(&mut b);
        b
    });
    let deadline = Instant::now() + timeout;
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break Some(st),
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                timed_out = true;
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(1)),
            Err(_) => break None,
        }
    };
    RunOut {
        code: status.and_then(|s| s.code()),
        stdout: t_out.join().unwrap_or_default(),
        stderr: t_err.join().unwrap_or_default(),
        timed_out,
    }
}

fn show(b: &[u8]) -> String {
    clip(&format!("{:?}", String::from_utf8_lossy(b)))
}

fn clip(s: &str) -> String {
    const MAX: usize = 900;
    if s.chars().count() <= MAX {
        return s.to_string();
    }
    let head: String = s.chars().take(MAX).collect();
    format!("{head}... ({} chars)", s.chars().count())
}

fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

// ---------------------------------------------------------------------------------------------
// the oracle venv
// ---------------------------------------------------------------------------------------------

fn env_usize(key: &str, default: usize) -> usize {
    match std::env::var(key) {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{key}={v:?} is not a number")),
        Err(_) => default,
    }
}
