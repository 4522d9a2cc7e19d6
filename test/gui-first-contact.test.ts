// A GUI's first contact, as README.md sets it up: its `npm link` line (read from it;
// `--ignore-scripts`, quiet on npm 11), run into a scratch prefix with no warning, makes
// `micromax`, `micromax-uci` and `micromax-xboard`; a GUI that tests an engine by running it bare
// (PyChess gives it 5 seconds to answer `uci`, then `quit`) gets its handshake from the two
// protocol commands within 5 s, on a machine with two CPU hogs; `micromax` itself stays the
// terminal game; the other protocol is refused in one line. `uciok` and `done=1` do not wait for
// the engine thread: the waiting is at `isready` and `ping`.
//
// time: 10 s

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Line } from './support/gui.ts';
import { linkCommands } from './support/linked.ts';
import { startHogs } from './support/startup.ts';
import { portCommand } from './support/run.ts';

/** What a command printed: each line, and the ms from the command's start to its arrival. */
interface Contact { lines: Line[], code: number | null, stderr: string }

/** Runs a command with these input lines, all written at once. Killed after ms. */
async function firstContact(cmd: string, input: string[], ms = 20_000): Promise<Contact> {
  const t0 = performance.now();
  const child = spawn(cmd, [], { stdio: ['pipe', 'pipe', 'pipe'] });
  const timer = setTimeout(() => child.kill('SIGKILL'), ms);
  const lines: Line[] = [];
  let part = '', stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    const got = (part + d.toString('latin1')).split('\n');
    part = got.pop()!;
    for (const text of got) lines.push({ t: performance.now() - t0, text });
  });
  child.stderr.on('data', (d: Buffer) => { stderr += d; });
  child.stdin.on('error', () => { /* it may have ended */ });
  child.stdin.end(input.map((l) => l + '\n').join(''));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  clearTimeout(timer);
  return { lines, code, stderr };
}
const at = (lines: Line[], re: RegExp): number => lines.find((l) => re.test(l.text))?.t ?? Infinity;

test('npm link as README.md says (npm install has built it): no warning, and the three commands', { timeout: 180_000 }, () => {
  const l = linkCommands();
  assert.equal(l.status, 0, l.stderr);
  assert.doesNotMatch(l.stderr, /warn/i, `${l.command}: npm said nothing to worry about`);
  for (const name of ['micromax', 'micromax-uci', 'micromax-xboard']) {
    assert.ok(fs.existsSync(path.join(l.bin, name)), `${name} is on the PATH npm made`);
  }
  // PyChess tells its engines apart by the file's checksum: one file for both, and a rematch
  // after a game with micromax-xboard started micromax-uci
  const files = ['micromax', 'micromax-uci', 'micromax-xboard'].map((name) => fs.realpathSync(path.join(l.bin, name)));
  assert.equal(new Set(files.map((f) => fs.readFileSync(f, 'latin1'))).size, 3, `three files: ${files.join(', ')}`);
});

test('each protocol command run bare, as PyChess does (uci, then quit; xboard, protover 2, then quit): ' +
  'the handshake within 5 s with 2 CPU hogs running', { timeout: 180_000 }, async (t) => {
  const { bin } = linkCommands();
  t.after(startHogs(2));
  const seen: string[] = [];
  for (let round = 0; round < 3; round++) {
    const uci = await firstContact(path.join(bin, 'micromax-uci'), ['uci', 'quit']);
    const xb = await firstContact(path.join(bin, 'micromax-xboard'), ['xboard', 'protover 2', 'quit']);
    assert.equal(uci.code, 0, uci.stderr);
    assert.equal(xb.code, 0, xb.stderr);
    assert.ok(at(uci.lines, /^uciok$/) < 5000, `micromax-uci: uciok after ${at(uci.lines, /^uciok$/)} ms`);
    assert.ok(at(xb.lines, /^feature .*done=1/) < 5000, `micromax-xboard: done=1 after ${at(xb.lines, /done=1/)} ms`);
    assert.match(xb.lines.map((l) => l.text).join('\n'), /^feature .*myname="micro-Max 3\.2 ts [^"]+".* analyze=1/m);
    seen.push(`uciok ${at(uci.lines, /^uciok$/).toFixed(0)} ms, done=1 ${at(xb.lines, /done=1/).toFixed(0)} ms`);
  }
  t.diagnostic(`with 2 hogs, from the command's start: ${seen.join('; ')}`);
});

test('micromax itself stays the terminal game: on a pipe, the bytes dist/micromax.js prints', { timeout: 60_000 }, () => {
  const { bin } = linkCommands();
  const [node, argv] = portCommand();
  const input = 'e2e4\n';
  const linked = spawnSync(path.join(bin, 'micromax'), [], { input, encoding: 'latin1' });
  const direct = spawnSync(node, argv, { input, encoding: 'latin1' });
  assert.equal(linked.status, 0, linked.stderr);
  assert.equal(linked.stdout, direct.stdout);
  assert.match(linked.stdout, /^ r n b q k b n r \n/);
});

test('other options as micromax takes them; the other protocol is refused in one line', { timeout: 60_000 }, () => {
  const { bin } = linkCommands();
  const nodes = spawnSync(path.join(bin, 'micromax-uci'), ['--nodes', '500'], { input: 'debug on\nposition startpos\ngo\n', encoding: 'utf8' });
  assert.equal(nodes.status, 0, nodes.stderr);
  assert.match(nodes.stdout, /--nodes \d+ after this game's 0 moves/);
  const help = spawnSync(path.join(bin, 'micromax-xboard'), ['--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /micromax-uci \| micromax-xboard/);
  const other = spawnSync(path.join(bin, 'micromax-uci'), ['--xboard'], { encoding: 'utf8' });
  assert.equal(other.status, 2);
  assert.equal(other.stderr, 'micromax: micromax-uci speaks UCI only: run micromax-xboard (or micromax --xboard) for the ' +
    'xboard protocol (see --help)\n');
});

// The engine thread takes a tenth of a second or more to start (a new V8 isolate loading the
// program). When the handshake waited for it, uciok and readyok (done=1 and pong) went out
// together; now the first comes at once and the second when the thread is ready.
test('uciok and done=1 do not wait for the engine thread; readyok and pong do', { timeout: 60_000 }, async () => {
  const { bin } = linkCommands();
  const uci = await firstContact(path.join(bin, 'micromax-uci'), ['uci', 'isready', 'quit']);
  const xb = await firstContact(path.join(bin, 'micromax-xboard'), ['xboard', 'protover 2', 'ping 1', 'quit']);
  const gap = at(uci.lines, /^readyok$/) - at(uci.lines, /^uciok$/);
  const xbGap = at(xb.lines, /^pong 1$/) - at(xb.lines, /done=1/);
  assert.ok(gap > 5 && gap < 60_000, `readyok ${gap.toFixed(1)} ms after uciok: uciok waited for the engine thread`);
  assert.ok(xbGap > 5 && xbGap < 60_000, `pong ${xbGap.toFixed(1)} ms after done=1: done=1 waited for the engine thread`);
});
