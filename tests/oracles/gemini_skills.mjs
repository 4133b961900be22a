// Asks @google/gemini-cli-core itself what Gemini CLI loads: its
// SkillManager's discovery (workspace trusted) and its prompt section
// (renderAgentSkills), for many cases in one process.
// Usage: node gemini_skills.mjs <folder holding node_modules>
// Reads one JSON case a line on stdin, {cwd, home, gemini_home?}, and
// prints one JSON line for each, {skills, prompt, builtin} or {error}.
// gemini-cli-core computes every skill dir on each call from
// process.env (HOME through os.homedir(), GEMINI_CLI_HOME through
// utils/paths.js homedir()), so setting them per case is the same as
// starting a process with them.
import { pathToFileURL } from 'node:url';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';

// Its loggers write to stdout: they go to stderr, stdout is the JSON.
for (const level of ['log', 'debug', 'info', 'warn']) {
  console[level] = (...args) => process.stderr.write(args.join(' ') + '\n');
}

// Real path: its built-in skills are named from the module's own URL,
// which has every link resolved.
const core = fs.realpathSync(
  path.join(process.argv[2], 'node_modules/@google/gemini-cli-core/dist/src'),
);
const load = (rel) => import(pathToFileURL(path.join(core, rel)).href);
const { SkillManager } = await load('skills/skillManager.js');
const { Storage } = await load('config/storage.js');
const { renderAgentSkills } = await load('prompts/snippets.js');

async function ask(c) {
  process.env.HOME = c.home;
  if (c.gemini_home) {
    process.env.GEMINI_CLI_HOME = c.gemini_home;
  } else {
    delete process.env.GEMINI_CLI_HOME;
  }
  process.chdir(c.cwd);
  const manager = new SkillManager();
  await manager.discoverSkills(new Storage(process.cwd()), [], true);
  const skills = manager.getSkills().map((s) => ({
    name: s.name,
    description: s.description,
    location: s.location,
  }));
  return { skills, prompt: renderAgentSkills(skills), builtin: path.join(core, 'skills/builtin') };
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (!line.trim()) continue;
  let answer;
  try {
    answer = await ask(JSON.parse(line));
  } catch (e) {
    answer = { error: String(e && e.stack ? e.stack : e) };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
