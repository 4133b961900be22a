//! Homes and projects full of traps, generated from a seed: the same seed
//! gives the same files. Each case is a user home, a git repository and a
//! working directory two levels inside it, with skills spread over the
//! dirs an agent reads (`~/` the home, `R/` the repository root, `C/` the
//! working directory).

use std::fs;
use std::path::{Path, PathBuf};

pub struct Case {
    pub root: PathBuf,
    pub home: PathBuf,
    pub cwd: PathBuf,
    /// SKILL.md files written (links and invalid ones included).
    pub skills: usize,
}

/// xorshift64*: small, seeded, the same on every machine.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Names several dirs share, so that copies clash across scopes.
const SHARED: &[&str] = &["shared-a", "shared-b", "shared-c"];

/// One SKILL.md's bytes and its trap's name, for folder `folder`.
fn text(rng: &mut Rng, folder: &str, name: &str) -> (Vec<u8>, &'static str) {
    let desc = format!("does {folder} things");
    let pick = rng.below(26);
    if (12..24).contains(&pick) {
        return trap(rng, pick - 12, name, &desc);
    }
    let (text, kind) = classic(pick, folder, name, &desc);
    (text.into_bytes(), kind)
}

/// The first traps: colons, line ends, a BOM, missing parts.
fn classic(pick: usize, folder: &str, name: &str, desc: &str) -> (String, &'static str) {
    match pick {
        0 => (
            format!("---\nname: {name}\ndescription: has: colon\n---\nbody\n"),
            "colon",
        ),
        1 => (
            format!("---\r\nname: {name}\r\ndescription: {desc}\r\n---\r\nbody\r\n"),
            "crlf",
        ),
        2 => (
            format!("\u{feff}---\nname: {name}\ndescription: {desc}\n---\nbody\n"),
            "bom",
        ),
        3 => (
            format!("---\nname: {name}\ndescription: {desc}\n---\n"),
            "empty body",
        ),
        4 => (
            format!("---\nname: {name}\n---\nFirst paragraph\nof {folder}.\n\nSecond.\n"),
            "no description",
        ),
        5 => (
            format!(
                "---\nname: {name}\ndescription: {desc}\nwhen_to_use: when {folder} is asked\n---\nbody\n"
            ),
            "when_to_use",
        ),
        6 => (
            format!("---\nname: {name}\ndescription: \"quoted: {desc}\"\n---\nbody\n"),
            "quoted colon",
        ),
        7 => (
            format!("# {folder}\n\nNo frontmatter at all.\n"),
            "no frontmatter",
        ),
        8 => (
            format!(
                "---\nname: {name}\ndescription: >\n  folded {desc}\n  on two lines\n---\nbody\n"
            ),
            "folded",
        ),
        9 => (format!("---\ndescription: {desc}\n---\nbody\n"), "no name"),
        10 => (
            format!("---\nname: [a, b]\ndescription: {desc}\n---\nbody\n"),
            "list name",
        ),
        _ => (
            format!("---\nname: {name}\ndescription: {desc}\n---\n# {name}\n\nbody\n"),
            "plain",
        ),
    }
}

/// YAML 1.1 words, numbers and dates, written plain.
const WORDS: &[&str] = &[
    "yes",
    "no",
    "off",
    "on",
    "True",
    "FALSE",
    "y",
    "n",
    "16832",
    "1.5e3",
    "0x1F",
    "012",
    "1_000",
    ".inf",
    "-.NaN",
    "2024-06-19",
    "2001-12-14t21:59:43.10-05:00",
    "12:30:45",
    "null",
    "~",
    "",
];

/// Text no one designed: every YAML scalar form, YAML 1.1 words, repeated
/// keys, blank lines before the fence, invalid UTF-8, long and unicode
/// text, comments, anchors, tags, flow values, nested metadata.
fn trap(rng: &mut Rng, kind: usize, name: &str, desc: &str) -> (Vec<u8>, &'static str) {
    let fm = |n: &str, d: &str| format!("---\nname: {n}\ndescription: {d}\n---\nbody\n");
    let (text, kind) = match kind {
        0 => match rng.below(3) {
            0 => (fm(rng.pick::<&str>(WORDS), desc), "yaml word name"),
            _ => (fm(name, rng.pick::<&str>(WORDS)), "yaml word"),
        },
        1 => (fm(name, &scalar_form(rng, desc)), "scalar form"),
        2 => (
            match rng.below(4) {
                0 => format!("---\nname: {name}\nname: {name}-2\ndescription: {desc}\n---\n"),
                1 => format!("---\nname: {name}\ndescription: {desc}\ndescription: again\n---\n"),
                2 => format!("---\nname: {name}\nx: 1\nx: 2\ndescription: {desc}\n---\n"),
                _ => format!(
                    "---\nname: {name}\ndescription: {desc}\nmetadata:\n  a: 1\n  a: 2\n---\n"
                ),
            },
            "duplicate key",
        ),
        3 => (
            format!(
                "{}{}",
                rng.pick(&["\n", "\n\n", "  \n", "\r\n"]),
                fm(name, desc)
            ),
            "blank before fence",
        ),
        4 => {
            let mut bytes = fm(name, desc).into_bytes();
            let at = if rng.below(2) == 0 {
                bytes.len() - 3
            } else {
                let d = b"\ndescription: ";
                bytes.windows(d.len()).position(|w| w == d).unwrap_or(0) + d.len()
            };
            bytes.splice(at..at, [0xff, 0xfe, b'x']);
            return (bytes, "invalid utf-8");
        }
        5 => match rng.below(3) {
            // A name either side of 64 characters.
            0 => (
                fm(&format!("{name}-{}", "n".repeat(50 + rng.below(12))), desc),
                "long name",
            ),
            _ => (fm(name, &long_text(rng, desc)), "long"),
        },
        6 => (fm(name, &unicode_text(rng, desc)), "unicode"),
        7 => (
            format!("---\nname: {name}\ndescription: &d {desc} # a comment\nsee: *d\n---\n"),
            "anchor and comment",
        ),
        8 => (
            fm(
                name,
                &match rng.below(4) {
                    0 => format!("[draft] {desc}"),
                    1 => format!("{desc}: more: parts"),
                    2 => format!("{{{desc}: 1}}"),
                    _ => format!("[{desc}]"),
                },
            ),
            "flow value",
        ),
        9 => (
            fm(
                name,
                &format!("{} {desc}", rng.pick(&["!!str", "!custom", "!!binary"])),
            ),
            "tag",
        ),
        10 => (
            format!(
                "---\nname: {name}\ndescription: {desc}\nmetadata:\n  short-description: short\n  other: [1, 2]\n---\n"
            ),
            "metadata",
        ),
        _ => (
            format!("---\n  name: {name}\n  description: {desc}\n---\nbody\n"),
            "indented",
        ),
    };
    (text.into_bytes(), kind)
}

/// `desc` in one of YAML's scalar forms (a value for `description: `).
fn scalar_form(rng: &mut Rng, desc: &str) -> String {
    match rng.below(10) {
        0 => format!("'it''s {desc}'"),
        1 => format!("\"tab\\there \\u00e9 \\\"{desc}\\\"\""),
        2 => format!("{desc}\n  continued\n  further"),
        3 => format!("\"{desc}\n  on two lines\""),
        4 => format!("|\n  {desc}\n  second line\n"),
        5 => format!("|-\n  {desc}\n\n  after a blank\n"),
        6 => format!("|+\n  {desc}\n\n"),
        7 => format!(">-\n  {desc}\n  folded\n"),
        8 => format!(">+\n  {desc}\n   more indented\n"),
        _ => format!("|2\n   {desc} indented\n  second\n"),
    }
}

/// 900 to 1,300 characters of words: either side of a 1,024 limit.
fn long_text(rng: &mut Rng, desc: &str) -> String {
    let target = 900 + rng.below(400);
    let mut out = desc.to_string();
    while out.chars().count() < target {
        out.push(' ');
        out.push_str(
            rng.pick::<&str>(&["alpha", "beta", "gamma", "delta", "épsilon", "ζήτα", "x"]),
        );
    }
    out
}

/// Unicode a reader may split, fold or count differently.
fn unicode_text(rng: &mut Rng, desc: &str) -> String {
    let piece = rng.pick(&[
        "caf\u{e9} \u{1F642}",
        "\u{4e2d}\u{6587} text",
        "e\u{301} combining",
        "non\u{a0}breaking\u{2003}space",
        "tab\there",
        "many    spaces",
    ]);
    format!("{desc} {piece}")
}

/// What an agent's module asks of the generator beyond the defaults.
#[derive(Clone, Debug)]
pub struct Options {
    /// At most this many links looping back in one case: OpenCode 1.18.33
    /// follows each loop to the path resolution limit, so two loops that
    /// reach each other make its discovery exponential (observed: it does
    /// not finish in 2 minutes).
    pub max_loops: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            max_loops: usize::MAX,
        }
    }
}

/// A case with `n` skill folders over `dirs` (templates `~/…`, `R/…`,
/// `C/…`), links in and out, nested and dot folders.
pub fn generate(base: &Path, seed: u64, dirs: &[&str], n: usize) -> Case {
    generate_with(base, seed, dirs, n, &Options::default())
}

/// [`generate`] with an agent's [`Options`].
pub fn generate_with(base: &Path, seed: u64, dirs: &[&str], n: usize, opts: &Options) -> Case {
    let mut loops = 0;
    let mut rng = Rng::new(seed);
    let root = base.join(format!("case-{seed}"));
    let home = root.join("home");
    let repo = root.join("repo");
    let cwd = repo.join("apps/web");
    for d in [&home, &cwd, &root.join("outside")] {
        fs::create_dir_all(d).unwrap();
    }
    // A real repository: Codex finds its project config layers (each
    // dir's .codex/) only in one `git` recognises.
    let git_init = |dir: &Path| {
        let git = std::process::Command::new("git")
            .args(["init", "-q"])
            .arg(dir)
            .status()
            .expect("git init");
        assert!(git.success());
    };
    git_init(&repo);
    // A nested repository: the working directory's project root is then
    // `R/apps`, not `R`.
    if rng.below(6) == 0 {
        git_init(&repo.join("apps"));
    }
    let place = |t: &str| -> PathBuf {
        if let Some(r) = t.strip_prefix("~/") {
            home.join(r)
        } else if let Some(r) = t.strip_prefix("R/") {
            repo.join(r)
        } else if let Some(r) = t.strip_prefix("C/") {
            cwd.join(r)
        } else {
            PathBuf::from(t)
        }
    };
    let mut written: Vec<PathBuf> = Vec::new();
    let mut skills = 0;
    for i in 0..n {
        let dir: &str = rng.pick::<&str>(dirs);
        let dir = place(dir);
        let folder = format!("s{seed}-{i}");
        let name = if rng.below(4) == 0 {
            rng.pick(SHARED).to_string()
        } else {
            folder.clone()
        };
        let shape = rng.below(14);
        let at = match shape {
            // Nested one level down, and a dot folder.
            0 => dir.join("group").join(&folder),
            1 => dir.join(format!(".{folder}")),
            // The SKILL.md directly in the skills folder.
            10 => dir.clone(),
            // Deep: 2 to 8 levels down (Codex reads 6).
            11 => (0..2 + rng.below(7))
                .fold(dir.clone(), |d, i| d.join(format!("d{i}")))
                .join(&folder),
            // Below a hidden folder.
            12 => dir.join("group").join(".hidden").join(&folder),
            _ => dir.join(&folder),
        };
        // A loop: a link in the skill folder back to the skills folder.
        if shape == 13 {
            fs::create_dir_all(&at).unwrap();
            if loops < opts.max_loops {
                loops += 1;
                std::os::unix::fs::symlink(&dir, at.join("loop")).unwrap();
            }
        }
        if shape == 10 && dir.join("SKILL.md").exists() {
            continue;
        }
        match shape {
            // A link in: another dir's skill folder, reached again.
            2 if !written.is_empty() => {
                let target = rng.pick(&written).clone();
                fs::create_dir_all(&dir).unwrap();
                std::os::unix::fs::symlink(&target, &at).unwrap();
            }
            // A link out: a skill folder outside every skill dir.
            3 => {
                let out = root.join("outside").join(&folder);
                fs::create_dir_all(&out).unwrap();
                fs::write(out.join("SKILL.md"), text(&mut rng, &folder, &name).0).unwrap();
                fs::create_dir_all(&dir).unwrap();
                std::os::unix::fs::symlink(&out, &at).unwrap();
            }
            _ => {
                fs::create_dir_all(&at).unwrap();
                fs::write(at.join("SKILL.md"), text(&mut rng, &folder, &name).0).unwrap();
                written.push(at.clone());
            }
        }
        skills += 1;
    }
    Case {
        root,
        home,
        cwd,
        skills,
    }
}
