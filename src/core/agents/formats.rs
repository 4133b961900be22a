//! The Skill tool description of OmniForge's skills design, byte for byte:
//! the text before and after the generated `<available_skills>` entries
//! (OmniForge's design, "Skill Tool Description (Progressive Disclosure at
//! Tool Level)"; its example entries are left out).

/// The text before `<available_skills>` (ends with a newline).
pub const OMNIFORGE_HEAD: &str = r#"# Skill Tool

Execute specialized skills within the main conversation. When users request task execution or you identify a relevant capability, use this tool to invoke the corresponding skill.

## How to Invoke Skills

Use the tool with the skill name:
- `skill: "commit-message"` - basic invocation
- `skill: "code-review", args: "pr-123"` - with arguments

## Available Skills

The following skills are available:

"#;

/// The text after `</available_skills>` (no final newline).
pub const OMNIFORGE_TAIL: &str = r#"
## Important Requirements

- **IMMEDIATELY invoke** this tool as your first action when a skill is relevant
- **NEVER just announce** a skill without calling the tool
- **Only use skills** listed in <available_skills> above
- **Don't invoke** already-running skills
- **Don't use** this tool for built-in CLI commands

## What Happens When You Invoke

When you invoke a skill:
1. The skill loads with message: `The "{name}" skill is loading`
2. You receive the complete SKILL.md content
3. Follow the skill's instructions precisely
4. The skill may include tool restrictions (allowed-tools)

## Progressive Disclosure

Skills use progressive disclosure:

**Stage 1 (Tool Description)**: Only name + description visible (current view)
**Stage 2 (Tool Invocation)**: Full SKILL.md content returned in tool result
**Stage 3 (Skill Execution)**: Reference docs loaded on-demand, scripts executed

This keeps context lean while providing full capability when needed."#;

/// Amp's skills design, "Available Skills Prompt" (`formatAvailableSkills`):
/// the lines before the entries.
pub const AMP_HEAD: &str = "The following skills provide specialized instructions for specific tasks.\nUse the skill tool to load a skill when the task matches its description.\n\n<available_skills>\n";

/// Gemini CLI's system prompt section (`renderAgentSkills` of
/// @google/gemini-cli-core 0.61.0 dist/src/prompts/snippets.js, the modern
/// models' wording).
pub const GEMINI_HEAD: &str = "# Available Agent Skills\n\nYou have access to the following specialized skills. To activate a skill and receive its detailed instructions, call the `activate_skill` tool with the skill's name.\n\n<available_skills>\n";

/// Claude Code's skill listing: NOT documented by Anthropic; the header
/// several independent reimplementations agree on.
pub const CLAUDE_HEAD: &str =
    "<system-reminder>\nThe following skills are available for use with the Skill tool:\n\n";
