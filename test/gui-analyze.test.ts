// xboard's analyze mode (CECP 2), through the protocol: declared with `analyze=1`; the position
// searched without end and every pass posted (`post` or not); `?` ignored (it goes deeper); `ping`
// answered at once; `.` answered by `stat01` (its figures against the passes); a move, `undo`,
// `new` or `setboard` starts the search again on the new position; `exit` leaves it (in force
// mode); no position said in a comment; no move ever sent; `quit` and the end of input end it
// cleanly. In real xboard (`-initialMode Analysis`): `gui-matches.test.ts`.
//
// time: 40 s

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Chess } from 'chess.js';
import { legalIn, replayChess, Session, type Line } from './support/gui.ts';

// A posted pass: depth, score, time (cs), nodes, move.
const PASS = /^(\d+) (-?\d+) (\d+) (\d+) ([a-h][1-8][a-h][1-8][qrbn]?)$/;
const passes = (lines: Line[]): RegExpExecArray[] => lines.map((l) => PASS.exec(l.text)).filter((m) => m !== null);
const moves = (s: Session): string[] => s.lines.filter((l) => /^move /.test(l.text)).map((l) => l.text);

/** An xboard session in analyze mode (no post sent), its first pass seen. */
async function analysing(): Promise<Session> {
  const s = new Session('xboard');
  s.send('xboard', 'protover 2');
  assert.match((await s.expect(/^feature .*myname/)).text, / analyze=1 /, 'analyze=1 declared');
  s.send('new', 'analyze');
  await s.expect(/^1 /);
  return s;
}
/** After a command: the next first pass (the search started again), its move. */
async function restartedWith(s: Session, ...lines: string[]): Promise<string> {
  s.send(...lines);
  return PASS.exec((await s.expect(/^1 -?\d+ \d+ \d+ /)).text)![5];
}

test('analyze: the position searched without end, each pass posted without post; ? ignored, ping answered at once, ' +
  '. answers stat01; no move', async () => {
  const s = await analysing();
  const deep = await s.expect(/^5 /, 60_000);                            // on and on: pass 5 as well
  assert.ok(legalIn(new Chess(), PASS.exec(deep.text)![5]), deep.text);
  s.send('?', 'ping 1');
  await s.expect(/^pong 1$/, 10_000);                                    // (no move to wait for)
  const before = +passes(s.lines).at(-1)![1];
  await s.expect(new RegExp(`^${before + 1} `), 120_000);                // ? did not stop it: it went deeper
  s.send('.');
  const line = await s.expect(/^stat01: /, 10_000);
  const stat = /^stat01: (\d+) (\d+) (\d+) (\d+) (\d+)$/.exec(line.text)!;
  assert.ok(stat, 'stat01: time nodes ply mvleft mvtot');
  const shown = passes(s.lines.slice(0, s.lines.indexOf(line))).at(-1)!;           // (the last before it)
  assert.ok(+stat[2] >= +shown[4], `stat01's nodes ${stat[2]}, at least the last pass's ${shown[4]}`);
  assert.ok(+stat[1] >= +shown[3], `stat01's time ${stat[1]} cs, at least the last pass's ${shown[3]}`);
  assert.equal(+stat[3], +shown[1] + 1, 'the ply being searched: one past the last pass shown');
  assert.equal(stat[5], '20', 'the moves to consider: the 20 legal ones');
  s.send('ping 2');
  await s.expect(/^pong 2$/, 10_000);
  const r = await s.close(false);                                         // the end of input
  assert.equal(r.code, 0, s.stderr);
  assert.deepEqual(moves(s), [], 'no move in analyze mode');
  assert.equal(s.stderr, '');
});

test('analyze: a move, undo, new and setboard each start the search again on the new position', async () => {
  const s = await analysing();
  const FEN = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
  let mv = await restartedWith(s, 'usermove e2e4');
  assert.ok(legalIn(replayChess(['e2e4']), mv), `after e2e4, black's move: ${mv}`);
  mv = await restartedWith(s, 'usermove e7e5');
  assert.ok(legalIn(replayChess(['e2e4', 'e7e5']), mv), `after e7e5, white's move: ${mv}`);
  mv = await restartedWith(s, 'undo');
  assert.ok(legalIn(replayChess(['e2e4']), mv), `after undo, black's move again: ${mv}`);
  mv = await restartedWith(s, 'new');
  assert.ok(legalIn(new Chess(), mv), `after new, the start: ${mv}`);
  mv = await restartedWith(s, `setboard ${FEN}`);
  assert.ok(legalIn(new Chess(FEN), mv), `after setboard: ${mv}`);
  mv = await restartedWith(s, 'usermove f1b5');
  assert.ok(legalIn(replayChess(['f1b5'], FEN), mv), `after setboard and f1b5: ${mv}`);
  assert.equal((await s.close()).code, 0, 'quit');
  assert.deepEqual(moves(s), []);
});

test('analyze: exit leaves it in force mode (moves taken, no search, . ignored); analyze again; go plays', async () => {
  const s = await analysing();
  s.send('exit', 'ping 1');
  await s.expect(/^pong 1$/, 10_000);
  const from = s.lines.length;
  s.send('usermove e2e4', '.', 'usermove e7e5', 'ping 2');
  await s.expect(/^pong 2$/, 10_000);
  assert.deepEqual(s.since(from), ['pong 2'], 'force mode: the moves taken, nothing searched, no stat01');
  const mv = await restartedWith(s, 'analyze');
  assert.ok(legalIn(replayChess(['e2e4', 'e7e5']), mv), mv);
  s.send('exit', 'sd 2', 'go');
  const played = (await s.expect(/^move /)).text.split(' ')[1];
  assert.ok(legalIn(replayChess(['e2e4', 'e7e5']), played), `go after exit: white plays ${played}`);
  assert.equal((await s.close()).code, 0);
});

test('analyze with no position to search: it says why, in a comment; a good setboard resumes it', async () => {
  const s = await analysing();
  s.send('setboard 7k/8/8/8/8/8/8/K6R w - - 0 1');                    // black in check, white to move
  await s.expect(/^tellusererror Illegal position: black is in check but not to move$/);
  await s.expect(/^# nothing to analyse: no position: black is in check but not to move$/);
  const FEN = '7k/8/8/8/8/8/8/K6R b - - 0 1';
  const mv = await restartedWith(s, `setboard ${FEN}`);
  assert.ok(legalIn(new Chess(FEN), mv), mv);
  assert.equal((await s.close()).code, 0);
  assert.deepEqual(moves(s), []);
  assert.ok(!s.lines.some((l) => /^(1-0|0-1|1\/2-1\/2|resign)/.test(l.text)), 'no result claimed');
});
