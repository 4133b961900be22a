//! The CLI's agent commands (`agents`, `list --agent`, `agent …`,
//! `catalog --agent`, `show --agent`): each builds its output as text for
//! `cli` to print, so this file needs nothing from `cli`.

use serde_json::json;

use crate::core::agents::discover::{self, Finds};
use crate::core::agents::scan::{self, Ctx};
use crate::core::agents::table::{self, Table};
use crate::core::cao::store::Home;
use crate::core::text::sanitize_line;

/// What a command prints: stdout text, and warnings for stderr.
#[derive(Default)]
pub struct Printed {
    pub out: String,
    pub warnings: Vec<String>,
}

impl Printed {
    fn line(&mut self, s: &str) {
        self.out.push_str(s);
        self.out.push('\n');
    }
}

/// The table and the process's context, with the table's problems as
/// warnings.
pub fn open(home: &Home) -> (Table, Ctx, Vec<String>) {
    let xdg = std::env::var("XDG_CONFIG_HOME").ok();
    let dir = table::user_dir(xdg.as_deref(), &home.user_home);
    let table = table::load(Some(&dir));
    let ctx = Ctx::from_process(home, &table.agents);
    let warnings = table.problems.clone();
    (table, ctx, warnings)
}

/// `skilltui agents [--json]`.
pub fn agents(table: &Table, ctx: &Ctx, json: bool) -> Printed {
    let mut p = Printed::default();
    let rows: Vec<_> = table
        .agents
        .iter()
        .map(|a| {
            let places: Vec<_> = scan::places(a, ctx)
                .into_iter()
                .map(|pl| json!({"path": pl.path, "scope": pl.scope, "exists": pl.exists}))
                .collect();
            json!({
                "id": a.id,
                "name": a.name,
                "detected": scan::detected(a, ctx),
                "clash": a.clash,
                "symlinks": a.symlinks,
                "source": a.source,
                "locations": places,
            })
        })
        .collect();
    if json {
        p.line(&serde_json::to_string_pretty(&rows).unwrap_or_default());
        return p;
    }
    for (a, row) in table.agents.iter().zip(&rows) {
        let mark = if row["detected"] == true { "◆" } else { " " };
        p.line(&format!("{mark} {}  {}", a.id, sanitize_line(&a.name)));
        for place in scan::places(a, ctx) {
            let exists = if place.exists { "" } else { "  (missing)" };
            p.line(&format!(
                "    {:8} {}{exists}",
                place.scope.label(),
                sanitize_line(&place.path.to_string_lossy())
            ));
        }
    }
    p
}

/// `skilltui list --agent ID [--json]`: every candidate, in the agent's
/// order, with its status under the agent's own rules.
pub fn list(table: &Table, ctx: &Ctx, id: &str, json: bool) -> Result<Printed, String> {
    let agent = table.find(id)?;
    let finds = discover::find(agent, ctx);
    let mut p = Printed::default();
    if json {
        let rows: Vec<_> = finds
            .candidates
            .iter()
            .map(|c| {
                json!({
                    "name": c.name,
                    "description": c.description,
                    "path": c.path,
                    "location": finds.location(c),
                    "scope": finds.scope(c),
                    "status": c.status,
                    "shadowed_by": c.shadowed_by,
                    "error": c.error,
                    "hidden": c.hidden,
                })
            })
            .collect();
        p.line(&serde_json::to_string_pretty(&rows).unwrap_or_default());
        return Ok(p);
    }
    text_rows(&finds, &mut p);
    if finds.candidates.is_empty() {
        p.warnings
            .push(format!("{} finds no skills from here", agent.name));
    }
    Ok(p)
}

fn text_rows(finds: &Finds, p: &mut Printed) {
    let width = finds
        .candidates
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(4)
        .max(4);
    p.line(&format!("{:width$}  {:8}  Location", "Name", "Status"));
    for c in &finds.candidates {
        let status = serde_json::to_value(c.status).unwrap_or_default();
        let why = match (&c.shadowed_by, &c.error) {
            (Some(w), _) => format!("  (by {})", w.display()),
            (None, Some(e)) => format!("  ({e})"),
            _ => String::new(),
        };
        p.line(&sanitize_line(&format!(
            "{:width$}  {:8}  {}{why}",
            c.name,
            status.as_str().unwrap_or(""),
            finds.location(c).display()
        )));
    }
}
