// Asks @google/gemini-cli-core itself what Gemini CLI loads from the
// working directory: its SkillManager's discovery (workspace trusted) and
// its prompt section (renderAgentSkills). Prints JSON {skills, prompt, builtin}.
// Usage: node gemini_skills.mjs <folder holding node_modules>
import { pathToFileURL } from 'node:url';
import * as path from 'node:path';

// Its loggers write to stdout: they go to stderr, stdout is the JSON.
for (const level of ['log', 'debug', 'info', 'warn']) {
  console[level] = (...args) => process.stderr.write(args.join(' ') + '\n');
}

const core = path.join(process.argv[2], 'node_modules/@google/gemini-cli-core/dist/src');
const load = (rel) => import(pathToFileURL(path.join(core, rel)).href);
const { SkillManager } = await load('skills/skillManager.js');
const { Storage } = await load('config/storage.js');
const { renderAgentSkills } = await load('prompts/snippets.js');

const manager = new SkillManager();
await manager.discoverSkills(new Storage(process.cwd()), [], true);
const skills = manager.getSkills().map((s) => ({
  name: s.name,
  description: s.description,
  location: s.location,
}));
process.stdout.write(
  JSON.stringify({
    skills,
    prompt: renderAgentSkills(skills),
    builtin: path.join(core, 'skills/builtin'),
  }),
);
