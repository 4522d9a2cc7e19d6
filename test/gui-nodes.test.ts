// Node-based time: a game at a node rate is the same game on any machine, at any load. UCI's
// `nodestime` (Stockfish's meaning: nodes a ms) and xboard's `nps` (CECP's: nodes a second,
// declared `nps=1`, until `new`; xboard's `-firstNPS` and `-secondNPS`), each a match of micro-Max
// against itself played twice, the second time beside two CPU hogs, through a UCI runner keeping
// wall clocks (`support/runner.ts`) and through xboard: the PGNs are byte-identical once what the
// wall clock wrote is masked (the runner's date and seconds; xboard's date only, as its clocks
// count nodes; `support/node-rate.ts` says why), no game is lost on time, and the moves micro-Max
// played replay against the C at the `--nodes` their notes name (a sample: every move's replay
// types the game again). Through the protocol: the note says the clock is one of nodes;
// `nodestime`'s range; `nps` ends at `new`.
//
// The xboard match needs xboard, xvfb and xauth (skipped without them unless MICROMAX_GUI_TESTS=1).
//
// time: 34 s

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { whyNoC } from './support/c-oracle.ts';
import { Session } from './support/gui.ts';
import { linkCommands } from './support/linked.ts';
import { notReplayed, sampleOf, twice, uciGame, uciPgn, uciReplayable, xboardGame, xboardPgn, xboardReplayable } from './support/node-rate.ts';
import { badEnding, whyNoXboard } from './support/xboard.ts';

const why = whyNoXboard(), must = process.env.MICROMAX_GUI_TESTS === '1';
const skip = why && !must ? `skipped: ${why}` : false;
const against = whyNoC() ? 'the port\'s terminal mode (no MICROMAX_C)' : 'the C';
// 50 nodes a ms: a twentieth of this machine's speed, so the runner's wall clock does not run out
// even at a load of 12 on its two cores (at 200, it did once, in bench:gui)
const RATE = 50;

test(`UCI nodestime ${RATE}: the same match twice, the second beside two CPU hogs, the same PGN (the wall clock masked); moves replay against ${against}`, async (t) => {
  const { quiet, loaded } = await twice(() => uciGame(RATE, 6000, 60));
  t.diagnostic(`${quiet.moves.length} plies, ${quiet.result} (${quiet.reason}); the wall clock left ${quiet.clocks.map((c) => (c / 1000).toFixed(1)).join(' and ')} s, ` +
    `beside the hogs ${loaded.clocks.map((c) => (c / 1000).toFixed(1)).join(' and ')} s`);
  assert.doesNotMatch(quiet.reason + loaded.reason, /time|illegal|unfinished/, `${quiet.reason}; ${loaded.reason}`);
  assert.ok(quiet.moves.length > 20, `${quiet.moves.length} plies`);
  assert.equal(uciPgn(loaded), uciPgn(quiet), 'the game beside two CPU hogs is another game');
  assert.notEqual(loaded.pgn, quiet.pgn, 'the wall clock\'s seconds differ: the mask hides something');
  const replayable = uciReplayable(quiet);
  assert.equal(replayable.length, quiet.moves.length, 'every move has a note saying how to replay it');
  const moves = quiet.moves.map((m) => m.move);
  assert.deepEqual(await notReplayed(moves, sampleOf(replayable, 3, 20)), []);
});

test(`xboard nps ${RATE * 1000} (-firstNPS, -secondNPS): the same match twice, the second beside two CPU hogs, the same PGN; moves replay against ${against}`, { skip }, async (t) => {
  assert.equal(why, undefined, why);
  const { bin } = linkCommands();
  const { quiet, loaded } = await twice(() => xboardGame(bin, RATE * 1000, '0:06', 0.06));
  assert.equal(quiet.games.length, 1, `no game in ${quiet.seconds.toFixed(0)} s:\n${quiet.pgn}\n${quiet.debug.slice(-1500)}`);
  const g = quiet.games[0];
  t.diagnostic(`${g.plies} plies, ${g.result} {${g.comment}}; ${quiet.seconds.toFixed(0)} s, beside the hogs ${loaded.seconds.toFixed(0)} s`);
  assert.equal(badEnding(g), undefined, `${badEnding(g)}`);
  assert.match(quiet.debug, /<first : feature .*\bnps=1\b/, 'nps=1 declared');
  assert.match(quiet.debug, new RegExp(`>first : nps ${RATE * 1000}\n`), 'xboard sends nps');
  assert.doesNotMatch(quiet.debug, /<(first|second) : (Error|Illegal move|tellusererror)/, 'an engine said something was wrong');
  assert.equal(xboardPgn(loaded), xboardPgn(quiet), 'the game beside two CPU hogs is another game');
  const { moves, replayable } = xboardReplayable(quiet.debug);
  assert.equal(moves.length, g.plies);
  assert.equal(replayable.length, g.plies, 'every move has a note saying how to replay it');
  assert.deepEqual(await notReplayed(moves, sampleOf(replayable, 3, 20)), []);
});

test('through the protocol: the note says the clock counts nodes; nodestime 0 to 10000; nps ends at new', async () => {
  const uci = new Session('uci');
  uci.send('uci', 'debug on', 'setoption name nodestime value 10001', 'setoption name nodestime value 250', 'position startpos',
    'go wtime 6000 btime 6000');
  await uci.expect(/^info string error: nodestime is a whole number from 0 to 10000 \(nodes a ms; 0: the wall clock\), not '10001'$/);
  const note = (await uci.upTo(/^bestmove /)).map((l) => l.text).find((l) => / ms used of /.test(l)) ?? '';
  // 5950 ms would be the aim less the Move Overhead; a clock of nodes keeps none back
  assert.match(note, /; (\d+) ms used of 200 \(at 250 'nodes' a ms; \d+ ms of wall time\)$/, note);
  const [, used] = /; (\d+) ms used/.exec(note)!, nodes = Number(/, (\d+) positions/.exec(note)?.[1]);
  assert.ok(Math.abs(Number(used) * 250 - nodes) < 250 * 1000, `${used} ms used for ${nodes} nodes`);
  assert.equal((await uci.close()).code, 0);
  const xb = new Session('xboard');
  xb.send('xboard', 'protover 2', 'nps 100000', 'new', 'level 0 0:06 0', 'go');
  const wall = (await xb.upTo(/^move /)).map((l) => l.text).find((l) => / ms used of /.test(l)) ?? '';
  assert.match(wall, /; \d+ ms used of \d+$/, `after new, the wall clock (CECP: nps lasts until new): ${wall}`);
  xb.send('new', 'nps 100000', 'level 0 0:06 0', 'go');
  const nodes2 = (await xb.upTo(/^move /)).map((l) => l.text).find((l) => / ms used of /.test(l)) ?? '';
  assert.match(nodes2, / ms used of 200 \(at 100 nodes a ms; \d+ ms of wall time\)$/, nodes2);
  assert.equal((await xb.close()).code, 0);
});
