//! The store the benches run on, and how they time it.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

pub const SKILLS: usize = 1000;

/// The store of SKILLS skills.
#[allow(dead_code)]
pub fn generate(home: &Path) -> u64 {
    generate_n(home, SKILLS)
}

/// A deterministic store of `n` skills: skill i has 3 + i % 28 sections of
/// prose, lists and code; profile `bench` selects about half of them by
/// pattern.
pub fn generate_n(home: &Path, n: usize) -> u64 {
    let mut total = 0;
    for i in 0..n {
        let name = format!("skill-{i:04}");
        let dir = home.join("skills").join(&name);
        fs::create_dir_all(&dir).expect("mkdir");
        let mut text = format!(
            "---\nname: {name}\ndescription: \"Skill {i}: does task {i} well, and says when to use it.\"\nlicense: Apache-2.0\n---\n\n# {name}\n"
        );
        for s in 0..(3 + i % 28) {
            let _ = write!(
                text,
                "\n## Section {s}\n\n{}\n\n- point one about {name}\n- point two\n\n```python\ndef f_{s}(x):\n    return x * {s}\n```\n",
                "Prose that explains the step in enough detail to be useful. "
                    .repeat(10 + (i + s) % 10)
            );
        }
        total += text.len() as u64;
        fs::write(dir.join("SKILL.md"), text).expect("write");
    }
    fs::create_dir_all(home.join("agent-store")).expect("mkdir");
    fs::write(
        home.join("agent-store/bench.md"),
        "---\nname: bench\ndescription: d\nskills: ['skill-0*', 'skill-[1-4]*']\n---\nPrompt\n",
    )
    .expect("write");
    total
}

/// The process's CPU time so far (user and system, every thread): on a
/// loaded machine it grows with the work done, not with the waiting.
#[allow(dead_code)]
pub fn cpu_time() -> std::time::Duration {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `usage` is a valid rusage for the call to fill.
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let tv = |t: libc::timeval| std::time::Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

#[allow(dead_code)]
pub fn ms(d: std::time::Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
