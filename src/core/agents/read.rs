//! What one agent makes of one SKILL.md: the verdict every reader
//! (rules.rs and the agents' own readers beside it) gives.

use std::rc::Rc;

use crate::core::parse::yaml::Node;

/// What one agent makes of one SKILL.md.
#[derive(Clone, Debug, Default)]
pub struct Read {
    /// The name the agent knows it by (`None` when it does not load).
    pub name: Option<String>,
    pub description: Option<String>,
    /// Why the agent refuses it, in the agent's words where it has some.
    pub error: Option<String>,
    /// Loaded but left out of the model's list (`disable-model-invocation`
    /// in Amp's skills design, OpenCode without a description).
    pub hidden: bool,
    /// The frontmatter mapping, for previews and lints.
    pub frontmatter: Option<Rc<Node>>,
    /// The body as the agent hands it to the model.
    pub body: String,
}

impl Read {
    /// A skill that loads and is listed.
    pub(crate) fn loaded(
        name: String,
        description: String,
        fm: Option<Rc<Node>>,
        body: String,
    ) -> Read {
        Read {
            name: Some(name),
            description: Some(description),
            frontmatter: fm,
            body,
            ..Read::default()
        }
    }

    pub(crate) fn refused(msg: impl Into<String>) -> Read {
        Read {
            error: Some(msg.into()),
            ..Read::default()
        }
    }
}
