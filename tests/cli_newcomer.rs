//! What a new user trips over on the CLI (issue 25): each case runs the
//! real binary on a home made in a temp dir, beside a stand-in CAO, with
//! no variable from the test's own environment leaking in.

#[path = "common/fake_cao.rs"]
mod fake_cao;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

struct World {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
    cao: PathBuf,
}

fn world() -> World {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().to_path_buf();
    let cao = fake_cao::make(&root);
    let home = root.join("home");
    let skill = home.join("skills/code-review");
    fs::create_dir_all(&skill).unwrap();
    fs::write(
        skill.join("SKILL.md"),
        "---\nname: code-review\ndescription: Reviews code\n---\nBody\n",
    )
    .unwrap();
    fs::create_dir_all(home.join("agent-store")).unwrap();
    fs::write(
        home.join("agent-store/reviewer.md"),
        "---\nname: reviewer\ndescription: Reviews\nprompt: You review code.\n---\nReview well.\n",
    )
    .unwrap();
    fs::create_dir_all(root.join("user")).unwrap();
    World {
        _tmp: tmp,
        root,
        home,
        cao,
    }
}

impl World {
    fn command(&self, home: &Path, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_skilltui"));
        c.arg("--home")
            .arg(home)
            .args(args)
            .current_dir(&self.root)
            .env("HOME", self.root.join("user"))
            .env("XDG_CONFIG_HOME", self.root.join("user/.config"))
            .env("SKILLTUI_CAO", &self.cao)
            .env("PATH", "/usr/bin:/bin")
            .env_remove("CAO_HOME_DIR")
            .env_remove("COMPLETE")
            .stdin(Stdio::null());
        c
    }

    fn run_at(&self, home: &Path, args: &[&str]) -> (i32, String, String) {
        let out = self.command(home, args).output().expect("runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn run(&self, args: &[&str]) -> (i32, String, String) {
        self.run_at(&self.home, args)
    }

    fn ok(&self, args: &[&str]) -> (String, String) {
        let (code, out, err) = self.run(args);
        assert_eq!(code, 0, "{args:?}: {out}{err}");
        (out, err)
    }
}

#[test]
fn catalog_under_kiro_says_what_kiro_gets_and_the_command_that_shows_a_catalog() {
    let w = world();
    let (out, err) = w.ok(&["catalog", "reviewer"]);
    assert_eq!(out, "", "Kiro gets no catalog: stdout stays empty");
    let notes: Vec<&str> = err.lines().collect();
    assert_eq!(notes.len(), 1, "{err}");
    assert!(notes[0].starts_with("note: kiro_cli"), "{err}");
    assert!(notes[0].contains("SKILL.md"), "names what Kiro gets: {err}");
    let hint = "`skilltui catalog reviewer --provider claude_code`";
    assert!(notes[0].contains(hint), "{err}");
    // The command it gives shows the catalog.
    let (out, _) = w.ok(&["catalog", "reviewer", "--provider", "claude_code"]);
    assert!(out.contains("code-review"), "{out}");
    // --prompt under Kiro prints the prompt Kiro gets: the profile's `prompt:`.
    let (out, err) = w.ok(&["catalog", "reviewer", "--prompt"]);
    assert_eq!(out, "You review code.\n");
    assert!(err.contains("the prompt Kiro gets"), "{err}");
    // The built-in `developer` has no `prompt:`: said, and nothing printed.
    let (out, err) = w.ok(&["catalog", "developer", "--prompt"]);
    assert_eq!(out, "");
    assert!(err.contains("Kiro gets no prompt"), "{err}");
}

#[test]
fn profile_copy_makes_the_built_in_editable_and_list_json_gives_built_in_paths() {
    let w = world();
    let (out, _) = w.ok(&["profile", "list", "--json"]);
    let rows: serde_json::Value = serde_json::from_str(&out).unwrap();
    let developer = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "developer")
        .expect("the built-in is listed");
    assert_eq!(developer["source"], "built-in");
    let built_in = w
        .cao
        .join("lib/python3.12/site-packages/cli_agent_orchestrator/agent_store/developer.md");
    assert_eq!(
        developer["path"].as_str().map(PathBuf::from),
        Some(built_in.clone())
    );
    let (out, _) = w.ok(&["profile", "copy", "developer"]);
    let copy = w.home.join("agent-store/developer.md");
    assert!(out.contains(&copy.display().to_string()), "{out}");
    assert_eq!(fs::read(&copy).unwrap(), fs::read(&built_in).unwrap());
    // Now a file of the store: editable, and never overwritten.
    w.ok(&["profile", "enable", "developer", "code-review"]);
    let edited = fs::read(&copy).unwrap();
    let (code, _, err) = w.run(&["profile", "copy", "developer"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error: ") && err.contains("never overwrites"),
        "{err}"
    );
    assert_eq!(fs::read(&copy).unwrap(), edited);
    let (code, _, err) = w.run(&["profile", "copy", "nobody"]);
    assert_eq!(code, 1);
    assert!(err.contains("not a profile built into CAO"), "{err}");
}

#[test]
fn a_mistyped_agent_skill_profile_or_provider_gets_a_did_you_mean() {
    let w = world();
    let cases: &[(&[&str], &str)] = &[
        (&["list", "--agent", "claude"], "did you mean claude-code?"),
        (&["show", "code-reviw"], "did you mean code-review?"),
        (&["remove", "code-reviw"], "Did you mean code-review?"),
        (
            &["agent", "enable", "claude-code", "code-reviw"],
            "did you mean code-review?",
        ),
        (
            &["profile", "enable", "reviewer", "code-reviw"],
            "did you mean code-review?",
        ),
        (&["catalog", "reviewr"], "did you mean reviewer?"),
        (&["delivery", "develper"], "did you mean developer?"),
    ];
    for (args, hint) in cases {
        let (code, _, err) = w.run(args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.contains(hint), "{args:?}: {err}");
    }
    // CAO's own words stay first.
    let (_, _, err) = w.run(&["remove", "code-reviw"]);
    assert!(
        err.starts_with("error: Skill 'code-reviw' does not exist."),
        "{err}"
    );
    // A name like nothing known gets no guess.
    let (_, _, err) = w.run(&["show", "zzzz"]);
    assert!(!err.contains("did you mean"), "{err}");
    // A provider on the command line: clap's own tip.
    let (code, _, err) = w.run(&["catalog", "reviewer", "--provider", "claude"]);
    assert_eq!(code, 2);
    assert!(err.contains("'claude_code'"), "{err}");
    // A provider in the profile: the fallback note suggests it.
    fs::write(
        w.home.join("agent-store/typo.md"),
        "---\nname: typo\ndescription: d\nprovider: claude_cod\n---\nBody\n",
    )
    .unwrap();
    let (_, err) = w.ok(&["catalog", "typo"]);
    assert!(
        err.contains("'claude_cod' is not a provider: did you mean claude_code?"),
        "{err}"
    );
}

#[test]
fn user_facing_words_name_systems_and_catalog_agent_cao_points_to_a_profile() {
    let w = world();
    let (_, err) = w.ok(&["catalog", "--agent", "amp"]);
    assert!(err.contains("Amp's documented"), "{err}");
    let (_, err) = w.ok(&["catalog", "--agent", "omniforge"]);
    assert!(err.contains("OmniForge's documented"), "{err}");
    let (code, out, err) = w.run(&["show", "--help"]);
    assert_eq!(code, 0, "{err}");
    for (code, out, err) in [
        (code, out, err),
        w.run(&["catalog", "--agent", "amp"]),
        w.run(&["catalog", "--agent", "omniforge"]),
        w.run(&["show", "code-review", "--agent", "cleo"]),
    ] {
        assert!(
            !out.contains("seed 00") && !err.contains("seed 00"),
            "{code}: {out}{err}"
        );
    }
    let (_, err) = w.ok(&["catalog", "--agent", "cao"]);
    assert!(err.contains("`skilltui catalog PROFILE`"), "{err}");
}

#[test]
fn a_home_that_does_not_exist_is_named_on_stderr_by_every_command() {
    let w = world();
    // Not close to the real home's name (a near one is refused as a typo).
    let typo = w.root.join("nowhere");
    let shown = typo.display().to_string();
    let commands: &[&[&str]] = &[
        &["list"],
        &["list", "--json"],
        &["check"],
        &["doctor", "--json"],
        &["profile", "list", "--json"],
        &["agents", "--json"],
        &["catalog", "developer"],
        &["delivery", "developer"],
        &["refresh"],
        &["sync"],
        &["update"],
    ];
    for args in commands {
        let (_, out, err) = w.run_at(&typo, args);
        let line = err
            .lines()
            .find(|l| l.contains("does not exist"))
            .unwrap_or_else(|| panic!("{args:?}: the home is not named: {err}"));
        assert!(
            line.starts_with("warning: the home ")
                && line.contains(&format!("{shown} (from --home)")),
            "{args:?}: {line}"
        );
        assert!(
            !out.contains("does not exist"),
            "{args:?}: stdout stays data"
        );
        assert!(!typo.exists(), "{args:?} made the home");
    }
    let (_, out, _) = w.run_at(&typo, &["list", "--json"]);
    assert_eq!(out.trim(), "[]", "the JSON is still the JSON");
    // A failure says it in its one line.
    let (code, _, err) = w.run_at(&typo, &["show", "code-review"]);
    assert_eq!(code, 1);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: no skill named")
            && err.contains(&format!("(the home {shown}, from --home, does not exist)")),
        "{err}"
    );
    // init makes it, and says so as a fact, not a warning.
    let (code, _, err) = w.run_at(&typo, &["init"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(&format!("note: created the home {shown} (from --home)")),
        "{err}"
    );
    assert!(typo.join("skills").is_dir());
    let (_, _, err) = w.run_at(&typo, &["list"]);
    assert!(!err.contains("does not exist"), "{err}");
    // Commands that do not read the home say nothing of it.
    let (_, _, err) = w.run_at(&w.root.join("nope"), &["validate", "home/skills"]);
    assert!(!err.contains("does not exist"), "{err}");
}

/// Every argument of every command, as `--help` shows them.
fn every_argument(cmd: &clap::Command, path: &str, out: &mut Vec<(String, String, bool)>) {
    for arg in cmd.get_arguments() {
        let name = arg.get_id().to_string();
        out.push((path.to_string(), name, arg.get_help().is_some()));
    }
    for sub in cmd.get_subcommands() {
        every_argument(sub, &format!("{path} {}", sub.get_name()), out);
    }
}

#[test]
fn every_argument_has_help_check_names_unknown_and_theme_is_the_tuis() {
    use clap::CommandFactory;
    let mut args = Vec::new();
    every_argument(&skilltui::cli::Cli::command(), "skilltui", &mut args);
    let bare: Vec<String> = args
        .iter()
        .filter(|(_, _, help)| !help)
        .map(|(path, name, _)| format!("{path} {name}"))
        .collect();
    assert!(args.len() > 40, "{args:?}");
    assert!(bare.is_empty(), "arguments with no help text: {bare:?}");
    let w = world();
    let (help, _) = w.ok(&["check", "--help"]);
    assert!(help.lines().next().unwrap().contains("unknown"), "{help}");
    let (top, _) = w.ok(&["--help"]);
    assert!(top.contains("--theme <NAME>"), "{top}");
    for sub in ["list", "add", "catalog", "profile", "agent", "man"] {
        let (help, _) = w.ok(&[sub, "--help"]);
        assert!(!help.contains("--theme"), "{sub}: {help}");
    }
    let (code, _, err) = w.run(&["list", "--theme", "dark"]);
    assert_eq!(code, 2, "{err}");
}

/// What the shell's completion asks the binary for `words` (fish's
/// protocol: one candidate a line, a tab before its description).
fn complete(w: &World, words: &[&str]) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_skilltui"))
        .args(["--", "skilltui"])
        .args(words)
        .current_dir(&w.root)
        .env("COMPLETE", "fish")
        .env("HOME", w.root.join("user"))
        .env("XDG_CONFIG_HOME", w.root.join("user/.config"))
        .env("SKILLTUI_CAO", &w.cao)
        .env_remove("CAO_HOME_DIR")
        .output()
        .expect("runs");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split('\t').next().unwrap_or("").to_string())
        // An empty word is offered the flags too.
        .filter(|c| !c.starts_with('-'))
        .collect()
}

#[test]
fn names_complete_from_the_home_on_the_line() {
    let w = world();
    let home = w.home.to_str().unwrap();
    let skills = complete(&w, &["--home", home, "show", "co"]);
    assert_eq!(skills, ["code-review"]);
    let skills = complete(
        &w,
        &[&format!("--home={home}"), "agent", "enable", "amp", ""],
    );
    assert_eq!(skills, ["code-review"]);
    let profiles = complete(&w, &["--home", home, "catalog", ""]);
    assert!(
        profiles.contains(&"reviewer".into()) && profiles.contains(&"developer".into()),
        "{profiles:?}"
    );
    let built_in = complete(&w, &["--home", home, "profile", "copy", ""]);
    assert_eq!(built_in, ["developer"], "only the built-ins can be copied");
    let agents = complete(&w, &["--home", home, "list", "--agent", "cl"]);
    assert!(
        agents.contains(&"claude-code".into()) && agents.contains(&"cleo".into()),
        "{agents:?}"
    );
    let providers = complete(
        &w,
        &["--home", home, "delivery", "reviewer", "--provider", "cod"],
    );
    assert_eq!(providers, ["codex"]);
    // Another home, another store: nothing of this one.
    let elsewhere = w.root.join("other");
    let none = complete(&w, &["--home", elsewhere.to_str().unwrap(), "show", "co"]);
    assert!(none.is_empty(), "{none:?}");
}

#[test]
fn bash_runs_the_printed_script_and_completes_a_skill() {
    let w = world();
    let (script, _) = w.ok(&["completions", "bash"]);
    let file = w.root.join("skilltui.bash");
    fs::write(&file, script).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_skilltui"));
    // As bash calls the function on Tab after `skilltui --home H show co`.
    let probe = format!(
        "source {file}; COMP_WORDS=(skilltui --home {home} show co); COMP_CWORD=4; \
         _clap_complete_skilltui skilltui co show; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        file = file.display(),
        home = w.home.display()
    );
    let out = Command::new("bash")
        .args(["-c", &probe])
        .env(
            "PATH",
            format!("{}:/usr/bin:/bin", bin.parent().unwrap().display()),
        )
        .env("HOME", w.root.join("user"))
        .env("SKILLTUI_CAO", &w.cao)
        .env_remove("CAO_HOME_DIR")
        .output()
        .expect("bash runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        said.trim(),
        "code-review",
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
