// The terminal game in a real pseudo-terminal (Python's pty module,
// `test/support/in-a-terminal.py`, runs the port with stdin, stdout and stderr on a pty, waits for
// text and types): the prompt, progress, `--play`, `--pretty`, checkmate, Ctrl-C and Ctrl-D.
//
// time: 13 s

import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { ROOT, portCommand } from './support/run.ts';

type Step = ['expect' | 'send', string];
interface Session { transcript: string; code: number | null; signal: number | null; failed: string | null; modesKept: boolean }

const DRIVER = path.join(ROOT, 'test', 'support', 'in-a-terminal.py');
const noPty = spawnSync('python3', ['-c', 'import pty, termios'], { stdio: 'ignore' }).status === 0
  ? undefined : 'python3 with the pty module is not available';

/** Runs the port in a pty with these options and steps; the transcript has \r\n as \n. */
function session(args: string[], steps: Step[], env: Record<string, string> = {}): Promise<Session> {
  const [cmd, argv] = portCommand(args);
  const spec = JSON.stringify({ argv: [cmd, ...argv], cwd: ROOT, env, timeout: 20, steps });
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [DRIVER, spec], { stdio: ['ignore', 'pipe', 'inherit'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.on('error', reject);
    child.on('close', () => {
      try {
        const s = JSON.parse(Buffer.concat(out).toString()) as Session;
        resolve({ ...s, transcript: s.transcript.replace(/\r\n/g, '\n') });
      } catch (err) { reject(err); }
    });
  });
}

const PROMPT = 'a move like e2e4, Enter = micro-Max moves, Ctrl-D = quit > ';
const ENTER = '\n', CTRL_C = '\x03', CTRL_D = '\x04';
const count = (s: string, part: string): number => s.split(part).length - 1;

describe('at a terminal', { skip: noPty }, () => {
  test('a short game: prompt, move echo, progress, rejection, refused Enter, Ctrl-D', async () => {
    const s = await session(['--nodes', '2000'], [
      ['expect', `white to move: ${PROMPT}`], ['send', 'e2e4\n'],
      ['expect', `black to move: ${PROMPT}`], ['send', ENTER],
      ['expect', 'micro-Max plays b8c6 (depth '], ['expect', PROMPT], ['send', 'e2e5\n'],
      ['expect', 'illegal move: e2e5'], ['expect', PROMPT], ['send', ENTER],
      ['expect', 'will not move after an illegal move'], ['expect', PROMPT], ['send', 'd2d4\n'],
      ['expect', PROMPT], ['send', CTRL_D],
    ]);
    assert.equal(s.failed, null, s.transcript);
    assert.equal(s.code, 0, s.transcript);
    assert.ok(s.modesKept, 'the terminal modes are as they were');
    assert.match(s.transcript, /micro-Max plays b8c6 \(depth \d+, \d+ nodes, score -?\d+, \d+\.\d s\)/);
    assert.match(s.transcript, /\rthinking: depth 1, \d+ nodes, best [a-h][1-8][a-h][1-8], score -?\d+, \d+\.\d s\x1b\[K/);
    assert.doesNotMatch(s.transcript, /\x1b\[Kthinking/, 'the progress line is redrawn over itself, never cleared first');
    assert.equal(count(s.transcript, ' R N B Q K B N R \n'), 6, 'the original board, once a line');
    assert.ok(s.transcript.endsWith(`${PROMPT}\n`), 'Ctrl-D: a new line for the shell');
  });

  test('--play black --pretty: micro-Max opens and answers; Unicode board with labels', async () => {
    const s = await session(['--nodes', '2000', '--play', 'black', '--pretty'], [
      ['expect', 'micro-Max plays '], ['expect', `your move (black): ${PROMPT}`], ['send', 'e7e5\n'],
      ['expect', 'micro-Max plays '], ['expect', `your move (black): ${PROMPT}`], ['send', CTRL_D],
    ], { LANG: 'en_US.UTF-8', LC_ALL: '' });
    assert.equal(s.failed, null, s.transcript);
    assert.equal(s.code, 0, s.transcript);
    assert.match(s.transcript, / 8 ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜\n 7 ♟ ♟ ♟ ♟ ♟ ♟ ♟ ♟\n 6 · · ·/);
    assert.match(s.transcript, / 1 ♖ ♘ ♗ ♕ ♔ ♗ ♘ ♖\n {3}a b c d e f g h\n/);
    assert.doesNotMatch(s.transcript, /white to move/, 'the player is never asked for white');
  });

  test('fool\'s mate: "checkmate, black wins"; --pretty without UTF-8; Ctrl-C at the prompt', async () => {
    const s = await session(['--nodes', '2000', '--pretty'], [
      ...['f2f3', 'e7e5', 'g2g4', 'd8h4'].flatMap((m): Step[] => [['expect', PROMPT], ['send', `${m}\n`]]),
      ['expect', 'checkmate, black wins (Ctrl-D to quit) > '], ['send', ENTER],
      ['expect', 'checkmate, black wins (Ctrl-D to quit) > '], ['send', CTRL_C],
    ], { LANG: 'C', LC_ALL: '' });
    assert.equal(s.failed, null, s.transcript);
    assert.equal(s.signal, 2, 'Ctrl-C ends it by SIGINT, as it ends the C');
    assert.ok(s.modesKept, 'the terminal modes are as they were');
    assert.match(s.transcript, / 4 \. \. \. \. \. \. \* q\n/);
    assert.match(s.transcript, / {3}a b c d e f g h\n/);
    assert.doesNotMatch(s.transcript, /micro-Max plays|will not move|found no move/, 'no excuse when the game is over');
  });

  test('--time: the move comes when the time is up, and its message names the --nodes that replays it', async () => {
    const s = await session(['--time', '0.5', '--trace'], [
      ['expect', PROMPT], ['send', 'e2e4\n'], ['expect', PROMPT], ['send', ENTER],
      ['expect', '; --nodes '], ['expect', PROMPT], ['send', CTRL_D],
    ]);
    assert.equal(s.failed, null, s.transcript);
    const said = /micro-Max plays \w+ \(depth (\d+), (\d+) nodes, score -?\d+, (\d+\.\d) s; --nodes (\d+) replays it\)/.exec(s.transcript);
    assert.ok(said, s.transcript);
    const passes = [...s.transcript.matchAll(/(\d+) ply, +(\d+) searched/g)].at(-1)!;
    assert.deepEqual([said[1], said[2], said[4]], [passes[1], passes[2], passes[2]], 'the last pass: its depth and node count');
    assert.ok(Number(said[3]) >= 0.4 && Number(said[3]) < 3, `${said[3]} s for --time 0.5`);  // cut at 0.5 s
  });

  test('Ctrl-C while micro-Max thinks ends it at once', async () => {
    // any pass: the line is drawn at most ten times a second, so depth 2 may never show
    const s = await session([], [['expect', PROMPT], ['send', ENTER], ['expect', 'thinking: depth '], ['send', CTRL_C]]);
    assert.equal(s.failed, null, s.transcript);
    assert.equal(s.signal, 2);
    assert.ok(s.modesKept);
  });
});
