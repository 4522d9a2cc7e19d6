// A GUI's first contact, as README.md sets it up: its `npm link` line (read from it;
// `--ignore-scripts`, quiet on npm 11), run into a scratch prefix with no warning, makes
// `micromax`, `micromax-uci` and `micromax-xboard`; a GUI that tests an engine by running it bare
// (PyChess gives it 5 seconds to answer `uci`, then `quit`) gets its handshake from the two
// protocol commands within 5 s, on a machine with two CPU hogs; `micromax` itself stays the
// terminal game; the other protocol is refused in one line. `uciok` and `done=1` do not wait for
// the engine thread: the waiting is at `isready` and `ping`. PyChess's own code (Engines → New, and
// "Add from folder" with the file README.md says to tick): that file is discovered, and New takes
// the two protocol files (skipped without PyChess and Xvfb, unless `MICROMAX_GUI_TESTS=1`).
//
// time: 20 s

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Line } from './support/gui.ts';
import { linkCommands } from './support/linked.ts';
import { startHogs } from './support/startup.ts';
import { portCommand, ROOT } from './support/run.ts';

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

// PyChess's own code (support/pychess-add.py), as its Engines dialog runs it, by the system's
// python3 under Xvfb with a scratch HOME: what it offers and finds in dist/.
const PYTHON = '/usr/bin/python3';
const noPyChess = spawnSync(PYTHON, ['-c', 'import pychess'], { stdio: 'ignore' }).status !== 0 ||
  spawnSync('sh', ['-c', 'command -v xvfb-run'], { stdio: 'ignore' }).status !== 0;
const skipPyChess = noPyChess && process.env.MICROMAX_GUI_TESTS !== '1' ? 'skipped: no PyChess (apt-get install pychess) or no xvfb-run' : false;
interface Added { offered: string[], entry: { protocol: string } | null, new: string[], outcome?: string, seconds?: number, options?: string[] }
function pychessAdds(file: string, seconds: number): Added {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-pychess-'));
  try {
    const r = spawnSync('xvfb-run', ['-a', PYTHON, path.join(ROOT, 'test', 'support', 'pychess-add.py'), `${path.join(ROOT, 'dist')}/`, file,
      String(seconds)], { env: { ...process.env, HOME: home }, encoding: 'utf8', timeout: 150_000 });
    const json = r.stdout.split('\n').find((l) => l.startsWith('{'));
    assert.ok(json, `pychess-add.py ${file}: exit ${r.status}\n${r.stdout}\n${r.stderr}`);
    return JSON.parse(json) as Added;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

test('PyChess: Add from folder on dist/ offers the three files, each as an xboard engine; the one README.md says to tick is ' +
  'discovered; Engines → New takes micromax-uci.js as UCI and micromax-xboard.js as xboard, and not the terminal game', { skip: skipPyChess, timeout: 300_000 }, (t) => {
  assert.ok(!noPyChess, 'PyChess and xvfb-run are needed (apt-get install pychess xvfb)');
  portCommand();                                                       // (dist/ built)
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  const tick = /"Add from folder" on `dist\/`.*? tick only `([^`]+)`/.exec(readme)?.[1];
  assert.ok(tick, 'README.md says which file to tick in PyChess\'s "Add from folder"');
  const added = pychessAdds(tick, 90);
  assert.deepEqual(added.offered, ['micromax-uci.js', 'micromax-xboard.js', 'micromax.js'], 'what Add from folder offers');
  assert.equal(added.entry?.protocol, 'xboard', 'PyChess knows micromax as an xboard engine');
  assert.equal(added.outcome, 'discovered', `${tick}: ${JSON.stringify(added)}`);
  assert.ok(added.options?.includes('Faithful') && added.options.includes('Move Overhead'), JSON.stringify(added.options));
  const news = ['micromax-uci.js', 'micromax-xboard.js', 'micromax.js'].map((f) => [f, pychessAdds(f, 0).new] as const);
  assert.deepEqual(news, [['micromax-uci.js', ['uci']], ['micromax-xboard.js', ['xboard']], ['micromax.js', []]], 'what Engines → New finds');
  t.diagnostic(`Add from folder, ${tick}: discovered after ${added.seconds} s; New: ${news.map(([f, p]) => `${f} ${p.join(' ') || 'refused'}`).join(', ')}`);
});
