// test/PORTING.md, the guide for testers and porters, kept true: its worked example's commands are
// run as a reader runs them (bash, from the project's folder, MICROMAX_C set), and what it shows
// each printing must be there, line by line (… stands for what changes from run to run); the stream
// format it documents is the one the C and the port write; every command it names exists.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { whyNoC } from './support/c-oracle.ts';
import { ROOT } from './support/run.ts';

const GUIDE = fs.readFileSync(path.join(ROOT, 'test', 'PORTING.md'), 'utf8');
const noC = whyNoC() ? `skipped: ${whyNoC()}` : false;

/** The fenced blocks of a section of the guide, in order: their language and text. */
function blocks(section: string): { lang: string; text: string }[] {
  const start = GUIDE.indexOf(`\n## ${section}`);
  assert.ok(start >= 0, `the guide has a section ${section}`);
  const end = GUIDE.indexOf('\n## ', start + 1);
  const body = GUIDE.slice(start, end < 0 ? undefined : end);
  return [...body.matchAll(/\n```(\w+)\n([\s\S]*?)\n```\n/g)].map((m) => ({ lang: m[1], text: m[2] }));
}

/** Each line of `want` is in `got`, in order; … in a line matches anything. */
function shows(got: string, want: string, what: string): void {
  const lines = got.split('\n');
  let at = 0;
  for (const w of want.split('\n')) {
    const re = new RegExp(`^${w.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    const found = lines.findIndex((l, k) => k >= at && re.test(l));
    assert.ok(found >= 0, `${what}: the guide shows ${JSON.stringify(w)}, not printed (after line ${at}):\n${got}`);
    at = found + 1;
  }
}

test('the worked example: every command runs and prints what the guide shows', { skip: noC, timeout: 300_000 }, () => {
  const all = blocks('5. A worked example');
  const sh = all.filter((b) => b.lang === 'sh');
  assert.ok(sh.length >= 5, 'the worked example has its commands');
  // run in one shell, as a reader pastes them; each block's output marked off
  const script = ['set -u', 'exec 2>&1', ...sh.map((b, k) => `echo "@@@ ${k}"\n${b.text}`), 'echo "@@@ end"', 'rm -rf "$W"'].join('\n');
  const r = spawnSync('bash', ['-c', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env }, timeout: 280_000 });
  const out = r.stdout + r.stderr;
  assert.match(r.stdout, /@@@ end\n$/, out);          // (stderr goes with stdout, in order)
  assert.doesNotMatch(out, /\n\s+at |Error:/, 'no stack anywhere');
  const parts = r.stdout.split(/^@@@ \S+\n/m).slice(1);
  // each sh block is followed by the text block of what it prints
  let k = -1;
  for (const b of all) {
    if (b.lang === 'sh') k++;
    else shows(parts[k], b.text, `block ${k + 1}`);
  }
});

test('the guide names only commands and options that exist, and says the stream as the tools write it', () => {
  const scripts = Object.keys(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as object);
  for (const [, name] of GUIDE.matchAll(/npm run (?:-s )?([\w:-]+)/g)) assert.ok(scripts.includes(name), `npm run ${name}`);
  const usage = (tool: string): string => spawnSync(process.execPath, ['--import', 'tsx',
    path.join(ROOT, 'test', 'tools', `${tool}.ts`), '--help'], { cwd: ROOT, encoding: 'utf8' }).stdout;
  const helps: Record<string, string> = {};
  for (const [, tool, rest] of GUIDE.matchAll(/npm run (?:-s )?(compare|calls|conformance|tree) -- ([^`\n]*)/g)) {
    helps[tool] ??= usage(tool);
    for (const [, option] of rest.matchAll(/(--[a-z]+)/g)) {
      assert.match(helps[tool], new RegExp(`\\n {2}${option}[ =]`), `${tool} ${option}`);
    }
  }
  // the line kinds of the guide's table are the ones the stream format (test/support/calls.ts) has
  const kinds = [...GUIDE.matchAll(/^\| `([@>#!s=<]) /gm)].map((m) => m[1]);
  assert.deepEqual(kinds.sort(), ['!', '#', '<', '=', '>', '@', 's'].sort());
  const calls = fs.readFileSync(path.join(ROOT, 'test', 'support', 'calls.ts'), 'utf8');
  for (const line of ['@ b0 .. b63', '> MOVE k q l e J Z E z n N SUM PROBE [^]', '# w x y', '! d m c X Y', 's SLOT d v X Y',
    '= d N m X Y', '< v N', 'e SLOT i', 'h SLOT i d v X Y']) {
    assert.ok(calls.includes(line), `calls.ts documents ${line}`);
    assert.ok(GUIDE.includes(line.replace('..', '…')), `the guide documents ${line}`);
  }
});
