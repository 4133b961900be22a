//! A stand-in for an installed CAO, laid out as pip lays out the real one
//! (a venv with the package and its `.dist-info`), with text of our own:
//! tests that draw the UI must not depend on what the machine has.

use std::fs;
use std::path::{Path, PathBuf};

/// The version the stand-in reports.
pub const VERSION: &str = "2.5.4";

/// Makes the venv under `root` and returns it (for `--cao` or `SKILLTUI_CAO`).
pub fn make(root: &Path) -> PathBuf {
    let venv = root.join("cao-venv");
    let site = venv.join("lib/python3.12/site-packages");
    let package = site.join("cli_agent_orchestrator");
    let write = |rel: &str, text: &str| {
        let path = package.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    };
    write("__init__.py", "");
    write(
        "agent_store/developer.md",
        "---\nname: developer\ndescription: Writes the code\n---\n# Developer\n\nYou write code.\n",
    );
    for (name, desc) in [
        (
            "cao-supervisor-protocols",
            "How a supervisor hands work to its workers",
        ),
        (
            "cao-worker-protocols",
            "How a worker reports back to its supervisor",
        ),
    ] {
        write(
            &format!("skills/{name}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: {desc}\n---\n# {name}\n\nStand-in text.\n"),
        );
    }
    let info = site.join(format!("cli_agent_orchestrator-{VERSION}.dist-info"));
    fs::create_dir_all(&info).unwrap();
    fs::write(
        info.join("METADATA"),
        format!("Metadata-Version: 2.4\nName: cli-agent-orchestrator\nVersion: {VERSION}\n"),
    )
    .unwrap();
    venv
}
