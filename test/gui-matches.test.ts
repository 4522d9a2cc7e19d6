// Real matches with README.md's commands (`micromax-xboard`, `micromax-uci`, made by its `npm link`
// line): xboard under Xvfb runs micro-Max against Fairy-Max at 10 s + 0.1 s a move, two games
// natively and one through polyglot (UCI, as xboard's `-fUCI` runs it). The saved PGN must show no
// time forfeit, no illegal move, no false claim: every game ends by rule or by xboard's
// adjudication. Through polyglot, no thinking line that polyglot made up from an info string (0
// nodes, 0 time). And xboard's Analysis mode (`-initialMode Analysis`): micro-Max analyses the
// start (passes and `stat01`), and never moves.
//
// Needs xboard, xvfb, xauth, polyglot and fairymax (.ci/run installs them); without them the test
// is skipped, unless MICROMAX_GUI_TESTS=1 (set by CI) makes their absence a failure.
//
// time: 80 s

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkCommands } from './support/linked.ts';
import { analysis, badEnding, budgets, match, whyNoXboard } from './support/xboard.ts';

const why = whyNoXboard(), must = process.env.MICROMAX_GUI_TESTS === '1';
const skip = why && !must ? `skipped: ${why}` : false;

// Native xboard plays both colours; UCI through polyglot one game (micro-Max white): the UCI
// side of either colour is the GUI tests' everyday fare, and a game costs a minute of CPU.
const GAMES = { xboard: 2, uci: 1 };
const inWords = ['no game', 'one game', 'two games'];
for (const protocol of ['xboard', 'uci'] as const) {
  const games = GAMES[protocol];
  test(`xboard ${protocol === 'uci' ? '-fUCI (polyglot)' : 'native'}: ${inWords[games]} at 0:10 + 0.1 against Fairy-Max end by rule, with no forfeit`, { skip }, async (t) => {
    assert.equal(why, undefined, why);
    const m = await match({ protocol, games, tc: '0:10', inc: 0.1, bin: linkCommands().bin });
    assert.equal(m.games.length, games, `games in the PGN after ${m.seconds.toFixed(0)} s:\n${m.pgn.slice(-2000)}`);
    for (const g of m.games) {
      assert.equal(badEnding(g), undefined, `${g.white} - ${g.black}: ${badEnding(g)}`);
      assert.ok([g.white, g.black].some((p) => p.startsWith('micro-Max 3.2 ts')) && g.plies > 10);
    }
    assert.doesNotMatch(m.debug, /<first : (Illegal move|Error|tellusererror)/, 'micro-Max said something was wrong');
    const bogus = m.debug.split('\n').filter((l) => /<first : \d+ [-+]?\d+ \d+ 0(\s|$)/.test(l));
    assert.deepEqual(bogus, [], 'thinking lines with 0 nodes (polyglot reading an info string)');
    const b = budgets(m.debug);
    if (protocol === 'xboard') assert.ok(b.length > 20, `${b.length} moves with a budget line`);
    const mean = (xs: number[]): number => xs.reduce((a, x) => a + x, 0) / Math.max(xs.length, 1);
    t.diagnostic(`${m.games.map((g) => `${g.result} {${g.comment}} ${g.plies} plies`).join('; ')}; ${m.seconds.toFixed(0)} s` +
      (b.length ? `; ${b.length} moves, ${mean(b.map((x) => x.used)).toFixed(0)} ms used a move against ${mean(b.map((x) => x.target)).toFixed(0)} budgeted, ${b.filter((x) => x.cut).length} cut off` : ''));
  });
}

test('xboard -initialMode Analysis with micromax-xboard: analyze sent, passes posted and . answered, no move', { skip }, async (t) => {
  assert.equal(why, undefined, why);
  const log = await analysis({ bin: linkCommands().bin, seconds: 12 });
  const from = (re: RegExp): string[] => log.split('\n').filter((l) => re.test(l));
  assert.ok(from(/>first : analyze$/).length === 1, `xboard asked for analysis:\n${log.slice(-1500)}`);
  const passes = from(/<first : \d+ -?\d+ \d+ \d+ [a-h][1-8][a-h][1-8]/);
  assert.ok(passes.length >= 4, `passes posted:\n${log.slice(-1500)}`);
  assert.deepEqual(from(/<first : (move |Error|Illegal|tellusererror|resign|1-0|0-1|1\/2)/), [], 'no move, no error');
  const stats = from(/<first : stat01: \d+ \d+ \d+ \d+ \d+$/);
  assert.equal(stats.length, from(/>first : \.$/).length, 'each . answered by stat01');
  t.diagnostic(`${passes.length} passes, the deepest: ${passes.at(-1)?.replace(/^\d+ <first : /, '')}; ${stats.length} stat01 lines`);
});
