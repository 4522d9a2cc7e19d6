// The commands as README.md makes them: its own `npm link ...` line (read from it, so the test
// runs what a player types) run in the project, into a scratch global prefix (npm_config_prefix),
// so that the test uses micromax, micromax-uci and micromax-xboard as a player's PATH has them,
// without touching the machine's own global folder.
// Made once per process; the prefix is removed when the process ends.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT, portCommand } from './run.ts';

export interface Linked { command: string; bin: string; stdout: string; stderr: string; status: number | null }

/** README.md's line `npm install && npm link ...`: the npm link command's words. */
function readmeLink(): string[] {
  const line = /^npm install && (npm link[^#\n]*)/m.exec(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8'));
  if (!line) throw new Error('README.md has no line `npm install && npm link ...`');
  return line[1].trim().split(/\s+/);
}

let made: Linked | undefined;
/** README.md's npm link, into a scratch prefix: its bin folder and what npm said. */
export function linkCommands(): Linked {
  if (made) return made;
  portCommand();                                       // (dist/ built, as npm install leaves it)
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-link-'));
  process.once('exit', () => fs.rmSync(prefix, { recursive: true, force: true }));
  const words = readmeLink();
  const [npm, ...args] = words;
  const r = spawnSync(npm, [...args, '--no-audit', '--no-fund'], {
    cwd: ROOT, encoding: 'utf8', timeout: 120_000, env: { ...process.env, npm_config_prefix: prefix },
  });
  const bin = path.join(prefix, 'bin');
  made = { command: words.join(' '), bin, stdout: r.stdout, stderr: r.stderr, status: r.status };
  return made;
}
