//! Property tests for the profile editor: over generated frontmatters,
//! enabling then disabling a skill gives back the original bytes, and the
//! edited file parses to exactly the intended list.

use std::path::PathBuf;

use proptest::prelude::*;
use skilltui::core::cao::editor;
use skilltui::core::cao::profile::{self, Location, Profile};
use skilltui::core::cao::skill::Checked;
use skilltui::core::cao::store::{Entry, Home, Listing, Status};

const POOL: &[&str] = &[
    "alpha", "beta", "cao-x", "yes", "1.5", "z9", "new-one", "on",
];

fn listing() -> Listing {
    let entries = POOL
        .iter()
        .map(|n| Entry {
            folder: n.to_string(),
            source_dir: PathBuf::new(),
            status: Status::Ok,
            checked: Checked {
                name: Some(n.to_string()),
                description: Some("d".into()),
                ..Default::default()
            },
            confirmed: true,
        })
        .collect();
    Listing {
        entries,
        ..Listing::default()
    }
}

fn quoted(name: &str, style: u8) -> String {
    match style {
        0 if skilltui::core::cao::editor::scalar(name, true) == name => name.to_string(),
        1 => format!("'{name}'"),
        _ => format!("\"{name}\""),
    }
}

#[derive(Debug, Clone)]
struct Doc {
    items: Vec<(usize, u8)>,
    flow: bool,
    crlf: bool,
    before: Vec<String>,
    after: Vec<String>,
    indent: usize,
    comment: bool,
}

fn render(d: &Doc) -> String {
    let mut lines = vec!["---".to_string()];
    lines.extend(d.before.iter().cloned());
    if d.flow {
        let items: Vec<String> = d.items.iter().map(|(i, q)| quoted(POOL[*i], *q)).collect();
        let c = if d.comment { "  # picked" } else { "" };
        lines.push(format!("skills: [{}]{c}", items.join(", ")));
    } else if d.items.is_empty() {
        lines.push("skills: []".into());
    } else {
        lines.push("skills:".into());
        for (i, q) in &d.items {
            let c = if d.comment { "   # why" } else { "" };
            lines.push(format!(
                "{}- {}{c}",
                " ".repeat(d.indent),
                quoted(POOL[*i], *q)
            ));
        }
    }
    lines.extend(d.after.iter().cloned());
    lines.push("---".into());
    lines.push("Body text.".into());
    let text = lines.join("\n") + "\n";
    if d.crlf {
        text.replace('\n', "\r\n")
    } else {
        text
    }
}

fn other_key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("name: agent".to_string()),
        Just("description: \"An agent: it works\"".to_string()),
        Just("# a comment line".to_string()),
        Just("role: supervisor  # trailing".to_string()),
        Just("tags:\n  - a\n  - 'b'".to_string()),
        Just("mcpServers: {x: {command: y}}".to_string()),
    ]
}

fn doc() -> impl Strategy<Value = Doc> {
    (
        proptest::collection::vec((0..POOL.len() - 1, 0u8..3), 0..5),
        any::<bool>(),
        any::<bool>(),
        proptest::collection::vec(other_key(), 0..3),
        proptest::collection::vec(other_key(), 0..3),
        0usize..5,
        any::<bool>(),
    )
        .prop_map(|(items, flow, crlf, before, after, indent, comment)| Doc {
            items,
            flow,
            crlf,
            before,
            after,
            indent,
            comment,
        })
}

fn load(home: &Home, raw: &str) -> Profile {
    let parsed = profile::parse_text(home, raw).expect("generated profile parses");
    Profile {
        name: "p".into(),
        location: Location {
            path: Some(PathBuf::from("/unused/p.md")),
            source: "local".into(),
        },
        skills: parsed.skills,
        body: parsed.body,
        raw: Some(raw.to_string()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn enable_then_disable_is_identity(d in doc(), pick in 0..POOL.len()) {
        let tmp = tempfile::tempdir().unwrap();
        let home = Home::at(tmp.path().to_path_buf(), tmp.path().to_path_buf());
        let raw = render(&d);
        let listing = listing();
        let p = load(&home, &raw);
        let skill = POOL[pick];
        let before = p.skills.clone().unwrap();
        prop_assume!(!before.iter().any(|s| s == skill));
        let on = editor::enable(&home, &listing, &p, skill).unwrap();
        let on_text = on.new_text.expect("enabling a new skill edits");
        let p2 = load(&home, &on_text);
        let mut want = before.clone();
        want.push(skill.to_string());
        prop_assert_eq!(p2.skills.clone().unwrap(), want);
        prop_assert_eq!(&p2.body, &p.body);
        let off = editor::disable(&home, &listing, &p2, skill).unwrap();
        prop_assert_eq!(off.new_text.expect("disabling edits"), raw);
    }

    #[test]
    fn disable_parses_to_the_list_without_it(d in doc(), pick in 0..POOL.len()) {
        let tmp = tempfile::tempdir().unwrap();
        let home = Home::at(tmp.path().to_path_buf(), tmp.path().to_path_buf());
        let raw = render(&d);
        let p = load(&home, &raw);
        let before = p.skills.clone().unwrap();
        prop_assume!(!before.is_empty());
        let skill = before[pick % before.len()].clone();
        let skill = skill.as_str();
        let off = editor::disable(&home, &listing(), &p, skill).unwrap();
        let text = off.new_text.unwrap();
        let want: Vec<String> = before.into_iter().filter(|s| s != skill).collect();
        prop_assert_eq!(load(&home, &text).skills.unwrap(), want);
        let nl_kept = !d.crlf || !text.replace("\r\n", "").contains('\n');
        prop_assert!(nl_kept, "line endings changed");
    }
}
