// In a GUI, every search is still the C's search. A game given as `position startpos moves ...` and
// a bare `go` (UCI), or as moves and `go` (xboard), with `--nodes N`, shows the C's own iterations
// (the trace lines of its golden transcripts, a mate's depth 98 as the pass's real depth) and plays
// the C's move, ply by ply, over games of 150 and 300 plies. A move chosen on a clock (a 24-ply
// game, its searches stopped by their clock or by `stop` in mid-iteration) is the move the C plays
// at `--nodes N_d` after the same moves, where N_d is the node count after the last iteration the
// search finished (its info string says it). And the start FEN behaves exactly as `startpos`. The
// engine thread's warm-up, cut by a set or a think after steps of each phase (and run whole, and cut
// at once in a real engine thread), leaves the C's first thinks the C's, pass by pass: part 1's
// globals and the board put back, the locks 0 after a set and only the think's after a think, every
// byte of the table 0 at its end.
//
// time: 86 s

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { describe, test, type TestContext } from 'node:test';
import { Worker } from 'node:worker_threads';
import { Chess } from 'chess.js';
import { parseTranscript, replay, seededRandom } from './support/boards.ts';
import { whyNoC } from './support/c-oracle.ts';
import { begin, fen, limits, openEngineThread, type Pos } from '../micromax.ts';
import { cMove, replayOf, Session } from './support/gui.ts';
import type { AfterCut, Cut } from './support/warm-cut.ts';
import { atMost } from './support/run.ts';
import { goldenPath, scriptInput, SCRIPTS } from './support/scripts.ts';

const noC = whyNoC();
const sq = (s: number): string => 'abcdefgh'[s & 7] + (8 - (s >> 4));

/** One think of the C: its trace lines (ply >= 1) as the GUI should show them, and its move. */
interface Think { before: string[]; iterations: { d: number; N: number; m: number; mv: string }[]; move: string; over: boolean }
function thinks(name: string): Think[] {
  const s = SCRIPTS.find((x) => x.name === name)!, out = fs.readFileSync(goldenPath(s)), input = scriptInput(s);
  const t = parseTranscript(out), r = replay(out, input), played: string[] = [], list: Think[] = [];
  const moveAt = new Map(r.moves.map((m) => [m.index, m])), ended = new Set(r.stays.filter((x) => x.end).map((x) => x.index));
  const lines = input.toString('latin1').split('\n');
  for (let i = 1; i < t.boards.length; i++) {
    const m = moveAt.get(i), text = m ? m.from + m.to + (m.promotion ?? '') : '0000';
    if (lines[i - 1] === '') {
      const iterations = t.traces[i].map((l) => /^ *(-?\d+) ply, +(-?\d+) searched, +(-?\d+) by \( *([0-9a-f]+), *([0-9a-f]+)\)$/.exec(l)!)
        .map((x) => ({ d: +x[1], N: +x[2], m: +x[3], mv: sq(parseInt(x[4], 16)) + sq(parseInt(x[5], 16)) }))
        .map((x, k, all) => (x.d === 98 ? { ...x, d: k ? all[k - 1].d + 1 : 0 } : x)).filter((x) => x.d > 0);
      list.push({ before: played.slice(), iterations, move: text, over: ended.has(i) });
    }
    if (m) played.push(text);
  }
  return list;
}
const uciScore = (m: number): string => m > 3000 ? `mate ${4000 - m}` : m < -3000 ? `mate ${-4000 - m}` : `cp ${m}`;
const xbScore = (m: number): number => m > 3000 ? 100000 + 4000 - m : m < -3000 ? -100000 - 4000 - m : m;

describe('move by move, the C\'s own games (golden transcripts)', () => {
  for (const [name, nodes] of [['engine-1e4', 10000], ['mixed-1e4', 10000]] as const) {
    test(`UCI, ${name}: --nodes ${nodes}, position startpos moves ... + go shows the C's iterations and plays its move`, async () => {
      const all = thinks(name), s = new Session('uci', { args: ['--nodes', String(nodes)] });
      s.send('uci', 'setoption name Faithful value true', 'isready');
      await s.expect(/^readyok$/);
      for (const th of all) {
        s.send(`position startpos${th.before.length ? ` moves ${th.before.join(' ')}` : ''}`, 'go');
        const out = await s.upTo(/^bestmove /);
        assert.match(out.at(-2)?.text ?? '', /^info depth \d+ /, 'an info line just before bestmove');
        const info = out.slice(0, -2).map((l) => /^info depth (\d+) score (\S+ -?\d+) nodes (\d+) .* pv (\S+)$/.exec(l.text)).filter((x) => x !== null)
          .map((x) => ({ d: +x[1], score: x[2], N: +x[3], mv: x[4].slice(0, 4) }));
        const at = `after ${th.before.length} plies`;
        // checkmate or stalemate: the C still searches (and finds nothing); the GUI side says so instead
        if (th.over) assert.ok(out.some((l) => /^info string (checkmate|stalemate)/.test(l.text)) && !info.length, at);
        else assert.deepEqual(info, th.iterations.map((x) => ({ d: x.d, score: uciScore(x.m), N: x.N, mv: x.mv })), at);
        assert.equal(out.at(-1)!.text, `bestmove ${th.move}`, at);
      }
      assert.ok(all.length >= 60, `${all.length} engine moves`);
      assert.equal((await s.close()).code, 0);
    });
  }
  test('xboard, engine-1e3 (300 plies): force, go with --nodes 1000 and post show the C\'s iterations and play its moves', async () => {
    const all = thinks('engine-1e3'), s = new Session('xboard', { args: ['--nodes', '1000'] });
    s.send('xboard', 'protover 2', 'new', 'post', 'force');
    for (const th of all) {
      s.send('go');
      const out = await s.upTo(/^(move |resign)/);
      const lines = out.map((l) => /^(\d+) (-?\d+) \d+ (\d+) (\S+)$/.exec(l.text)).filter((x) => x !== null)
        .map((x) => ({ d: +x[1], score: +x[2], N: +x[3], mv: x[4].slice(0, 4) }));
      assert.deepEqual(lines, th.iterations.map((x) => ({ d: x.d, score: xbScore(x.m), N: x.N, mv: x.mv })), `ply ${th.before.length}`);
      assert.equal(out.at(-1)!.text, th.move === '0000' ? 'resign' : `move ${th.move}`);
      s.send('force');
    }
    assert.equal(all.length, 300);
    assert.equal((await s.close()).code, 0);
  });
});

// 24 plies: the C replays ply p by typing p moves, each clearing its 192 MiB table, so the replays
// grow as the square of the game's length (40 plies cost 2.8 times as much).
const CLOCK_PLIES = 24;

test(`a game on the clock: every move is the ${noC ? 'C\'s (through the port\'s terminal mode)' : 'C\'s'} at --nodes N_d, cut-off searches included`, async () => {
  const s = new Session('uci'), rng = seededRandom(11), moves: string[] = [], checks: { plies: number; nodes: number; move: string; cut: boolean }[] = [];
  s.send('debug on');                                         // (the asides: how to replay, ...)
  const chess = new Chess();
  s.send('uci', 'setoption name Faithful value true', 'isready');   // at the freeze: no move, as the C
  await s.expect(/^readyok$/);
  for (let ply = 0; ply < CLOCK_PLIES && !chess.isGameOver(); ply++) {
    s.send(`position startpos${moves.length ? ` moves ${moves.join(' ')}` : ''}`);
    if (ply % 2) s.send(`go movetime ${40 + rng.int(200)}`);          // stopped by its clock
    else { s.send('go infinite'); await new Promise((r) => setTimeout(r, 20 + rng.int(300))); s.send('stop'); } // cut off
    const out = await s.upTo(/^bestmove /), move = out.at(-1)!.text.split(' ')[1];
    if (move === '0000') { checks.push({ plies: ply, nodes: 1000, move, cut: false }); break; } // frozen
    const how = out.map((l) => replayOf(l.text)).find((x) => x !== undefined);
    assert.ok(how, `ply ${ply}: no replay info in\n${out.map((l) => l.text).join('\n')}`);
    assert.equal(how.plies, ply);
    checks.push({ plies: ply, nodes: how.nodes, move, cut: how.cut });
    chess.move({ from: move.slice(0, 2), to: move.slice(2, 4), promotion: move[4] });
    moves.push(move);
  }
  assert.equal((await s.close()).code, 0);
  const cuts = checks.filter((c) => c.cut).length;
  assert.ok(cuts >= 5, `only ${cuts} searches were cut off`);
  for (let k = 0; k < checks.length; k += 2) {                         // two at a time: both cores
    const pair = checks.slice(k, k + 2);
    const got = await Promise.all(pair.map((c) => cMove(moves.slice(0, c.plies), c.nodes)));
    pair.forEach((c, j) => assert.equal(got[j], c.move, `ply ${c.plies} (--nodes ${c.nodes}${c.cut ? ', cut off' : ''})`));
  }
});

describe('FEN', () => {
  const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  test('the start FEN behaves exactly as startpos (same iterations, same move), with and without moves', async () => {
    const s = new Session('uci');
    s.send('uci', 'isready');
    await s.expect(/^readyok$/);
    const run = async (pos: string, go: string): Promise<string[]> => {
      s.send(pos, go);
      // (a progress line, after a silence, comes or not with the machine's load)
      return (await s.upTo(/^bestmove /)).map((l) => l.text.replace(/ nps \d+ time \d+/, '').replace(/; \d+ ms used.*/, ''))
        .map((l) => l.replace(/; (the C plays it|replay:).*/, '')).filter((l) => !/^info nodes /.test(l));
    };
    for (const [moves, n] of [['', 1000], ['', 20000], ['', 200000], [' moves e2e4 e7e5 g1f3', 20000], [' moves d2d4 g8f6 c2c4 e7e6 b1c3 f8b4', 50000]] as const) {
      const a = await run(`position startpos${moves}`, `go nodes ${n}`), b = await run(`position fen ${START}${moves}`, `go nodes ${n}`);
      assert.deepEqual(b, a, `${moves || 'no moves'}, go nodes ${n}`);
      assert.ok(a.length >= 3);
    }
    assert.equal((await s.close()).code, 0);
  });
});

describe('a warm first search', () => {
  // the C's first thinks of its own game at --nodes 10000: each one's iterations and move
  const first = thinks('engine-1e4').slice(0, 3);
  const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
  const at88 = (s: string): number => 16 * (56 - s.charCodeAt(1)) + s.charCodeAt(0) - 97;

  /** The warm-up cut after `cut` steps in a fresh copy of the engine, then the C's first thinks. */
  function afterCut(t: TestContext, cut: number, job: Cut['first']): Promise<AfterCut> {
    const api = JSON.stringify(import.meta.resolve('tsx/esm/api'));
    const url = JSON.stringify(new URL('./support/warm-cut.ts', import.meta.url).href);
    const data: Cut = { cut, first: job, games: first.map((th) => th.before), nodes: 10000 };
    const w = new Worker(`import(${api}).then((t) => t.tsImport(${url}, ${url}))`, { eval: true, workerData: data });
    t.after(() => w.terminate());
    return new Promise((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
      w.once('exit', (code) => reject(new Error(`the worker ended (${code}) without an answer`)));
    });
  }

  test("cut after any step (or none, or all) by a set or a think: the C's first thinks, the globals and board put back, the locks 0 after a set and the think's own after a think, the table all 0 at the end", async (t) => {
    const whole = await afterCut(t, Infinity, 'set');
    // the phases: the locks zeroed, short searches, the rest of the table zeroed, longer searches,
    // the table zeroed. In each its first two steps, its middle and its last; in the last, also
    // where its first fifth, the locks, ends. The first and third only map pages, so that every
    // cut in one of them leaves what its start left (the table all 0; the short searches' locks):
    // their middle only. The first job a set or a think in turn. (Each cut is a new worker, 1.3 s
    // of CPU.)
    const starts = whole.phases.map((_, k) => whole.phases.slice(0, k).reduce((a, b) => a + b, 0));
    const zeroing = starts.at(-1)!, locks = Math.ceil(whole.phases.at(-1)! / 5), all = zeroing + whole.phases.at(-1)!;
    const mapping = [0, 2];
    const inPhase = (n: number, k: number): number[] => mapping.includes(k) ? [starts[k] + (n >> 1)]
      : [starts[k], starts[k] + 1, starts[k] + (n >> 1), starts[k] + n - 1];
    const cuts = [...new Set([...whole.phases.flatMap(inPhase), zeroing + locks - 1, zeroing + locks])].sort((a, b) => a - b);
    const job = (k: number): Cut['first'] => k % 2 ? 'think' : 'set';
    const twoAtATime = atMost(2);
    const runs = [whole, ...await Promise.all(cuts.map((c, k) => twoAtATime(() => afterCut(t, c, job(k)))))];
    const fresh = await afterCut(t, 0, 'think');                      // (no step: as a new process)
    const c = first.map((th) => ({ move: th.move, ...last(th.iterations) }));
    for (const [k, r] of runs.entries()) {
      const at = `cut after ${k ? cuts[k - 1] : all} of ${all} steps by a ${k ? job(k - 1) : 'set'}`;
      assert.deepEqual(r.globals[1], r.globals[0], `${at}: Q, O, K, L, N, i, nodeLimit, the random state`);
      assert.deepEqual(r.boards[1], r.boards[0], `${at}: the board`);
      if (r.locks !== undefined) assert.ok(r.locks, `${at}: a lock not 0 after the set`);
      if (r.first) assert.deepEqual(r.first, c[0], `${at}: the first think`);
      if (r.first) assert.equal(r.digest, fresh.digest, `${at}: the locks after the first think are not those it wrote`);
      assert.deepEqual(r.thinks, c, at);
    }
    assert.equal(whole.zero, true, 'after the whole warm-up, every byte of the table is 0');
    t.diagnostic(`${all} steps (${whole.phases.join(' + ')}), cut after ${cuts.join(', ')}: the C's first ${first.length} thinks each time`);
  });

  test("the engine thread warms up by itself; its first job cuts the warm-up, at once or after it is over: the C's thinks, pass by pass", async (t) => {
    begin();                                                           // (the GUI side's set-up: fen() needs it)
    const start = fen(START) as Pos;
    const seen: string[] = [];
    for (const wait of [false, true]) {
      const passes: { d: number; N: number; m: number; mv: string }[] = [];
      const engine = openEngineThread((p) => passes.push({ d: p.d, N: p.N, m: p.m, mv: sq(p.x) + sq(p.y) }));
      t.after(() => engine.worker.terminate());
      await engine.ready;
      if (wait) await engine.warm;
      const job = performance.now();
      for (const th of first) {
        let pos = start;
        for (const mv of th.before) {
          await engine.set(pos);
          pos = (await engine.play(at88(mv), at88(mv.slice(2)), false)).pos;
        }
        if (!th.before.length) await engine.set(pos);
        passes.length = 0;
        const f = await engine.think(limits({ nodeLimit: 10000 }, performance.timeOrigin + performance.now()), false, true);
        assert.deepEqual(passes, th.iterations, `${wait ? 'warmed up' : 'at once'}, after ${th.before.length} plies`);
        assert.equal(sq(f.x) + sq(f.y), th.move);
        if (th === first[0]) seen.push(`${wait ? 'after the warm-up' : 'at once'}: first think ${(performance.now() - job).toFixed(0)} ms`);
      }
      const w = await engine.warm;
      assert.ok(wait ? w.steps === w.of : w.steps < w.of, `${w.steps} of ${w.of} steps`);
      seen.push(`warm-up ${w.steps} of ${w.of} steps, ${w.nodes} nodes, ${w.ms.toFixed(0)} ms, longest step ${w.longest.toFixed(1)} ms`);
    }
    t.diagnostic(seen.join('; '));
  });
});

/** The last iteration's depth, nodes and score. */
function last(iterations: { d: number; N: number; m: number }[]): { d: number; N: number; m: number } {
  const { d, N, m } = iterations.at(-1)!;
  return { d, N, m };
}
