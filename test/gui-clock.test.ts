// Time and stopping in the GUI protocols: `movetime` and `st` used to at least 90 % of their time
// less the Move Overhead, and no more; every xboard clock (`level 0 0 1`, `time 0`, negative
// `time`); clocks it cannot read: a side's time missing (0 ms: it moves at once, and says so),
// `1000.5` and `1e3` read as Stockfish reads them, `level 40 25+5 0` (trailing characters), `level
// 0 0 0`, `st 0`, moves to go counted from a mid-game `level`; `memory` and `cores`; `stop`, `?`
// and `isready` answered while it thinks; a ping never lost (across `go`, `new`, `quit`, the end of
// input); 140 searches stopped and restarted leave one engine thread alive and memory bounded; a
// position at move 100 costs only its new moves; and a whole game on a clock, the random side
// under-promoting, through a small UCI client (`support/uci.ts`), its options as `FAITHFUL` and
// `SPINS` declare them.
//
// Bounds are generous (a loaded 2-core machine); the figures are printed, and measured properly by
// `npm run bench:gui`.
//
// time: 65 s

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { describe, test } from 'node:test';
import { Chess } from 'chess.js';
import { FAITHFUL, SPINS } from '../micromax.ts';
import { replay, seededRandom } from './support/boards.ts';
import { bestmoveOf, legalIn, replayChess, Session } from './support/gui.ts';
import { goldenPath, scriptInput, SCRIPTS } from './support/scripts.ts';
import { UciClient } from './support/uci.ts';

const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const OVERHEAD = SPINS.find((o) => o.name === 'Move Overhead')!.default;   // ms kept back for the GUI
const ZERO = '# the level gives no time, and no time command came: 0 ms, so it moves at once';
const f0 = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join(' ');

describe('UCI', () => {
  test('movetime is used to its deadline: at least 90 % of it less the Move Overhead', async (t) => {
    const s = new Session('uci'), used: number[] = [], asked = 800;
    s.send('uci', 'isready');
    await s.expect(/^readyok$/);
    for (const moves of ['', ' moves e2e4', ' moves d2d4 g8f6 c2c4', ' moves e2e4 c7c5 g1f3 d7d6']) {
      const t0 = s.send(`position startpos${moves}`, `go movetime ${asked}`);
      used.push((await s.expect(/^bestmove /)).t - t0);
    }
    t.diagnostic(`go movetime ${asked}: ${f0(used)} ms used`);
    for (const x of used) assert.ok(x >= 0.9 * (asked - OVERHEAD), `${x.toFixed(0)} ms of ${asked}`);
    for (const x of used) assert.ok(x < asked + 1500, `${x.toFixed(0)} ms of ${asked}`);
    assert.equal((await s.close()).code, 0);
  });

  test('isready and stop during a search; 300 ms on the clock (generous bounds; figures in the bench)', async (t) => {
    const s = new Session('uci');
    s.send('uci', 'isready');
    await s.expect(/^readyok$/);
    const ready: number[] = [], stop: number[] = [];
    for (let k = 0; k < 4; k++) {
      s.send(`position startpos moves e2e4 e7e5${k % 2 ? ' g1f3' : ''}`, 'go infinite');
      await wait(300 + 200 * k);
      const t1 = s.send('isready');
      ready.push((await s.expect(/^readyok$/)).t - t1);
      const t2 = s.send('stop');
      stop.push((await s.expect(/^bestmove /)).t - t2);
    }
    const t4 = s.send('position startpos', 'go wtime 300 btime 300');  // 0.3 s left in all
    const used = (await s.expect(/^bestmove /)).t - t4;
    t.diagnostic(`isready while thinking ${f0(ready)} ms; stop ${f0(stop)} ms; 300 ms left: ${used.toFixed(0)} ms used`);
    for (const x of [...ready, ...stop]) assert.ok(x < 1000, `${x} ms`);
    assert.ok(used < 300, `${used} ms of 300`);
    assert.equal((await s.close()).code, 0);
  });

  test('a stop/go soak: 100 searches stopped after their first line, 40 analysis steps; one thread, bounded memory', async (t) => {
    const s = new Session('uci'), rng = seededRandom(16), stops: number[] = [];
    s.send('uci', 'isready');
    await s.expect(/^readyok$/);
    const before = s.memory();
    const openings = ['', ' moves e2e4 e7e5', ' moves d2d4 d7d5 c2c4', ' moves g1f3 g8f6 c2c4 e7e6'];
    for (let k = 0; k < 100; k++) {                                  // the loop that once lost the engine thread
      s.send(`position startpos${openings[k % 4]}`, 'go infinite');
      await s.expect(/^info depth /);
      const t0 = s.send('stop');
      stops.push((await s.expect(/^bestmove [a-h]/)).t - t0);
    }
    for (let k = 0; k < 40; k++) {                                   // as an analysing GUI: stop, position, go
      s.send('stop', `position startpos${openings[rng.int(4)]}`, 'go infinite');
      await wait(20 + rng.int(150));
    }
    s.send('stop');
    const count = (): number => s.lines.filter((l) => l.text.startsWith('bestmove ')).length;
    for (let k = 0; k < 100 && count() < 140; k++) await wait(50);
    s.send('isready');                                               // (and no bestmove more)
    await s.expect(/^readyok$/);
    const bestmoves = count();
    const mem = s.memory();
    const r = await s.close();
    stops.sort((a, b) => a - b);
    t.diagnostic(`stop to bestmove p50 ${stops[50].toFixed(0)} ms, p99 ${stops[98].toFixed(0)} ms, max ${stops[99].toFixed(0)} ms; ` +
      `peak RSS ${mem ? `${mem.peak.toFixed(0)} MiB (${before?.peak.toFixed(0)} MiB before)` : 'not measured'}`);
    assert.equal(r.code, 0, s.stderr);
    assert.equal(bestmoves, 140, 'every go answered once');
    assert.ok(stops[98] < 1000, `stop p99 ${stops[98]} ms`);
    if (mem) assert.ok(mem.peak < 420, `peak RSS ${mem.peak.toFixed(0)} MiB: more than one hash table?`);
  });

  test('a whole game through a UCI client: micro-Max on a clock, against random moves that under-promote', async (t) => {
    const engine = new UciClient(), start = 'r3k3/1P6/8/8/8/8/6pp/4K3 w q - 0 1';
    t.after(() => engine.session.proc.kill('SIGKILL'));
    await engine.init();
    assert.match(engine.id.name ?? '', /^micro-Max 3\.2/);
    for (const o of SPINS) {                                           // as micromax.ts declares them
      assert.deepEqual(engine.options.get(o.name), { name: o.name, type: 'spin', default: String(o.default), min: o.min, max: o.max });
    }
    assert.equal(engine.options.get('Hash')?.max, 33554432, 'Hash: any size a runner sends');
    const check = engine.options.get(FAITHFUL.name);
    assert.deepEqual([check?.type, check?.default], ['check', String(FAITHFUL.default)]);
    engine.setoption('Hash', '16');                                   // as a match runner sets it
    engine.ucinewgame();
    await engine.isready();
    const chess = new Chess(start), rng = seededRandom(5), moves: string[] = [];
    let clock = 20_000, most = 0, under = 0;                          // 20 s + 0.2 s a move for micro-Max
    while (!chess.isGameOver() && moves.length < 400) {
      let mv: string;
      if (chess.turn() === 'w') {
        engine.position(start, moves);
        const t0 = performance.now(), r = await engine.go({ wtime: Math.round(clock), btime: 20_000, winc: 200, binc: 200 });
        const used = performance.now() - t0;
        clock -= used; most = Math.max(most, used);
        assert.ok(clock > 0, `out of time at ply ${moves.length}`);
        clock += 200;
        mv = r.bestmove;
        assert.ok(r.info.some((i) => i.depth !== undefined && i.score !== undefined && i.pv), 'info lines with depth, score, pv');
        const depths = r.info.filter((i) => i.pv).map((i) => i.depth!);
        assert.deepEqual(depths, [...depths].sort((a, b) => a - b), `ply ${moves.length}: depths go backwards`);
        for (const i of r.info) if (i.pv) assert.ok(legalIn(chess, i.pv[0]), `ply ${moves.length}: pv ${i.pv[0]} in ${chess.fen()}`);
        assert.ok(legalIn(chess, mv), `ply ${moves.length}: ${mv} in ${chess.fen()}`);
      } else {                                                        // an under-promotion whenever there is one
        const all = chess.moves({ verbose: true }), low = all.filter((m) => m.promotion && m.promotion !== 'q');
        const m = low.length ? rng.pick(low) : rng.pick(all);
        under += low.length ? 1 : 0;
        mv = m.from + m.to + (m.promotion ?? '');
      }
      chess.move({ from: mv.slice(0, 2), to: mv.slice(2, 4), promotion: mv[4] });
      moves.push(mv);
    }
    assert.equal(await engine.quit(), 0);
    t.diagnostic(`${moves.length} plies, ${under} under-promotions by the random side, ${chess.isCheckmate() ? 'checkmate' : 'a draw by rule'}; ` +
      `slowest move ${most.toFixed(0)} ms, ${(clock / 1000).toFixed(1)} s left`);
    assert.ok(under >= 1, 'the random side never under-promoted');
    assert.ok(chess.isCheckmate() && chess.turn() === 'b', `${moves.length} plies: ${chess.fen()}`);
  });

  test('a position at move 100 costs only its new moves', async (t) => {
    const sc = SCRIPTS.find((x) => x.name === 'engine-1e3')!, r = replay(fs.readFileSync(goldenPath(sc)), scriptInput(sc));
    const moves = r.moves.slice(0, 200).map((m) => m.from + m.to), s = new Session('uci');
    s.send('isready');
    await s.expect(/^readyok$/);
    let t1 = s.send(`position startpos moves ${moves.join(' ')}`, 'isready');
    const whole = (await s.expect(/^readyok$/)).t - t1;
    const step: number[] = [];
    for (let k = 0; k < 5; k++) {                                  // the same game, two more plies each time
      t1 = s.send(`position startpos moves ${[...moves, ...r.moves.slice(200, 202 + 2 * k).map((m) => m.from + m.to)].join(' ')}`, 'isready');
      step.push((await s.expect(/^readyok$/)).t - t1);
    }
    t.diagnostic(`200 plies at once: ${whole.toFixed(0)} ms; then 2 new plies: ${step.map((x) => x.toFixed(1)).join(' ')} ms`);
    for (const x of step) assert.ok(x < whole / 4, `2 plies took ${x.toFixed(1)} ms, 200 took ${whole.toFixed(0)} ms`);
    assert.equal((await s.close()).code, 0);
  });
});

describe('xboard', () => {
  /** Plays e2e4 under these clock commands; the time to micro-Max's answer and its budget line. */
  async function answerTime(clock: string[]): Promise<{ ms: number; lines: string[] }> {
    const s = new Session('xboard');
    s.send('xboard', 'protover 2', 'new', ...clock, 'ping 1');
    await s.expect(/^pong 1$/);
    const t0 = s.send('usermove e2e4'), out = await s.upTo(/^move /, 120_000);
    assert.equal((await s.close()).code, 0);
    return { ms: out.at(-1)!.t - t0, lines: out.map((l) => l.text) };
  }
  test('every clock is read: level with no base, time 0, negative time; st used to its deadline', async (t) => {
    const cases: [string, string[], (ms: number) => boolean][] = [
      ['level 0 0 1, 1.5 s left', ['level 0 0 1', 'time 150', 'otim 150'], (ms) => ms < 1500],
      ['level 40 5 0, time 0', ['level 40 5 0', 'time 0', 'otim 30000'], (ms) => ms < 1000],
      ['level 40 5 0, time -300', ['level 40 5 0', 'time -300', 'otim 30000'], (ms) => ms < 1000],
      ['st 1', ['st 1'], (ms) => ms >= 0.9 * (1000 - OVERHEAD) && ms < 2500],
    ];
    const seen: string[] = [];
    for (const [what, clock, ok] of cases) {
      const r = await answerTime(clock);
      seen.push(`${what}: ${r.ms.toFixed(0)} ms`);
      assert.ok(!r.lines.some((l) => /^Error/.test(l)), `${what}: ${r.lines.join('\n')}`);
      assert.ok(ok(r.ms), `${what}: the move came after ${r.ms.toFixed(0)} ms\n${r.lines.join('\n')}`);
    }
    t.diagnostic(seen.join('; '));
  });

  test('moves to go count from the ply the level came at (CECP), and from now when taken back past it', async (t) => {
    // 5 minutes for 40 moves, 300 s left less the 50 ms overhead: the aim is 299950 / moves to go
    const sc = SCRIPTS.find((x) => x.name === 'engine-1e3')!, game = replay(fs.readFileSync(goldenPath(sc)), scriptInput(sc));
    const plies70 = game.moves.slice(0, 70).map((m) => m.from + m.to), next2 = game.moves.slice(70, 72).map((m) => m.from + m.to);
    const cases: [string, string[], number][] = [
      ['level at the start', ['new', 'force', 'level 40 5 0'], 40],
      ['level after two moves, both undone', ['new', 'force', 'e2e4', 'e7e5', 'level 40 5 0', 'undo', 'undo'], 40],
      ['level after two moves, removed', ['new', 'force', 'e2e4', 'e7e5', 'level 40 5 0', 'remove'], 40],
      ['level after two moves, removed, played again', ['new', 'force', 'e2e4', 'e7e5', 'level 40 5 0', 'remove', 'd2d4', 'd7d5'], 39],
      ['level after two moves, then a set-up position', ['new', 'force', 'e2e4', 'e7e5', 'level 40 5 0',
        'setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'e2e4', 'e7e5'], 39],
      ['level, then two moves', ['new', 'force', 'level 40 5 0', 'e2e4', 'e7e5'], 39],
      ['level after two moves', ['new', 'force', 'e2e4', 'e7e5', 'level 40 5 0'], 40],
      ['level after 70 plies', ['new', 'force', ...plies70, 'level 40 5 0'], 40],
      ['level after 70 plies, then two more', ['new', 'force', ...plies70, 'level 40 5 0', ...next2], 39],
      ['a game, then new', ['new', 'force', 'level 40 5 0', 'e2e4', 'e7e5', 'new', 'force'], 40],
      ['level after two moves, then new and two moves (a new game\'s period starts with it)',
        ['new', 'force', 'e2e4', 'e7e5', 'level 40 5 0', 'new', 'force', 'e2e4', 'e7e5'], 39],
    ];
    const seen: string[] = [];
    for (const [what, lines, togo] of cases) {
      const s = new Session('xboard');
      s.send('xboard', 'protover 2', ...lines, 'time 30000', 'post', 'go');
      await s.expect(/^1 /);                                          // its first pass: move now
      s.send('?');
      const note = (await s.expect(/^# .* ms used of \d+$/)).text, aim = Math.round((300_000 - OVERHEAD) / togo);
      seen.push(`${what}: ${/of (\d+)$/.exec(note)?.[1]}`);
      assert.match(note, new RegExp(` of ${aim}$`), `${what}: ${togo} moves to go`);
      assert.equal((await s.close()).code, 0);
    }
    t.diagnostic(seen.join('; '));
  });

  test('? moves at once; a ping while it thinks is answered after its move, and across new, and across quit', async (t) => {
    const s = new Session('xboard');
    s.send('xboard', 'protover 2', 'new', 'level 0 60 0', 'time 360000', 'otim 360000', 'ping 1');
    await s.expect(/^pong 1$/);
    s.send('usermove e2e4');
    await wait(400);
    const t1 = s.send('ping 2', '?');
    const mv = await s.expect(/^move /), pong = await s.expect(/^pong 2$/);
    t.diagnostic(`? to move: ${(mv.t - t1).toFixed(0)} ms`);
    assert.ok(mv.t - t1 < 1000 && s.lines.indexOf(mv) < s.lines.indexOf(pong));
    s.send('usermove d2d4');                                          // thinking again: a ping, then new
    await wait(300);
    const from = s.lines.length;
    s.send('ping 3', 'new');
    await s.expect(/^pong 3$/);
    s.send('usermove e2e4');                                          // thinking: a ping, then quit
    await wait(300);
    s.send('ping 4', 'quit');
    await s.expect(/^pong 4$/);
    assert.equal((await s.exited).code, 0);
    assert.ok(!s.since(from).some((l) => l.startsWith('move ')), 'new drops the search: no move');
  });
});

describe('clocks it could not read (each once a 10M-node search, about 14 s)', () => {
  test('UCI: a side to move with no time it can read has 0 ms and moves at once, said in an info string (debug on); numbers as Stockfish reads them', async (t) => {
    const s = new Session('uci'), seen: string[] = [];
    s.send('debug on');                                         // (the asides: how to replay, ...)
    s.send('uci', 'isready');
    await s.expect(/^readyok$/);
    const cases: [string, string, boolean][] = [
      ['position startpos', 'go btime 500', true], ['position startpos moves e2e4', 'go wtime 500', true],
      ['position startpos', 'go wtime 1000.5 btime 1000.5', false], ['position startpos', 'go wtime 1e3 btime 1e3', false],
      ['position startpos', 'go wtime btime 500', true], ['position startpos', 'go winc 100 binc 100', true],
      ['position startpos moves e2e4', 'go btime -20 wtime 100', false],
    ];
    for (const [pos, go, missing] of cases) {
      const t0 = s.send(pos, go), out = await s.upTo(/^bestmove /, 60_000), ms = out.at(-1)!.t - t0;
      const chess = replayChess(pos.split(' ').slice(3));
      seen.push(`${go}: ${ms.toFixed(0)} ms`);
      assert.ok(legalIn(chess, out.at(-1)!.text.split(' ')[1]), `${go}: ${out.at(-1)!.text}`);
      assert.ok(ms < 5000, `${go}: ${ms.toFixed(0)} ms`);
      const side = chess.turn() === 'w' ? 'white' : 'black';
      const said = out.some((l) => l.text === `info string go gives no ${side} clock it can read: ${side} has 0 ms, so it moves at once`);
      assert.equal(said, missing, `${go}:\n${out.map((l) => l.text).join('\n')}`);
    }
    t.diagnostic(seen.join('; '));
    assert.equal((await s.close()).code, 0);
  });

  test('xboard: level with trailing characters (CECP\'s level 40 25+5 0), zero-time levels and st 0 move at once, with a note', async (t) => {
    const seen: string[] = [];
    const cases: [string, string[], (ms: number, lines: string[]) => boolean][] = [
      // 3 s for 40 moves (0:03, the +5 ignored), 3 s left less the 50 ms overhead: the aim is 2950 / 40
      ['level 40 0:03+5 0', ['level 40 0:03+5 0'], (ms, lines) => lines.some((l) => / ms used of 74$/.test(l))],
      ['level 40 25+5 0, time 300', ['level 40 25+5 0', 'time 300'], (ms, lines) => lines.some((l) => / ms used of 74$/.test(l))],
      ['level 0 0 0', ['level 0 0 0'], (ms, lines) => ms < 5000 && lines.includes(ZERO)],
      ['level 1 0 0', ['level 1 0 0'], (ms, lines) => ms < 5000 && lines.includes(ZERO)],
      ['st 0', ['st 0'], (ms) => ms < 5000],
    ];
    for (const [what, clock, ok] of cases) {
      const s = new Session('xboard');
      s.send('xboard', 'protover 2', 'new', ...clock, 'ping 1');
      await s.expect(/^pong 1$/);
      const t0 = s.send('usermove e2e4'), out = await s.upTo(/^move /, 60_000), ms = out.at(-1)!.t - t0, lines = out.map((l) => l.text);
      seen.push(`${what}: ${ms.toFixed(0)} ms`);
      assert.ok(!s.lines.some((l) => /^Error/.test(l.text)), `${what}: ${s.lines.map((l) => l.text).join('\n')}`);
      assert.ok(ok(ms, lines), `${what}: the move after ${ms.toFixed(0)} ms\n${lines.join('\n')}`);
      assert.equal((await s.close()).code, 0);
    }
    t.diagnostic(seen.join('; '));
  });

  test('xboard: memory and cores are taken, a line says what micro-Max has; the features ask for them', async () => {
    const s = new Session('xboard');
    s.send('xboard', 'protover 2');
    const f = (await s.upTo(/^feature done=1$/)).map((l) => l.text).join(' ');
    assert.ok(f.includes(' memory=1 ') && f.includes(' smp=1 '), f);
    const from = s.lines.length;
    s.send('memory 176', 'cores 1', 'memory 64', 'cores 4', 'memory lots', 'ping 1');
    await s.expect(/^pong 1$/);
    assert.deepEqual(s.since(from), ['# memory 64 taken, but the hash table stays 176 MiB (2^24 + 8 entries, micro-Max 3.2\'s own size)',
      '# cores 4 taken, but micro-Max searches in one thread', 'Error (wants a number): memory lots', 'pong 1']);
    assert.equal((await s.close()).code, 0);
  });
});

describe('end of input', () => {
  test('in mid-search: the move still comes (after the input ended), then its pending ping, then exit 0', async () => {
    for (const [protocol, lines, re] of [['uci', ['position startpos', 'go infinite'], /^bestmove /],
      ['uci', ['position startpos moves e2e4', 'go movetime 4000'], /^bestmove /],
      ['xboard', ['new', 'post', 'st 4', 'usermove e2e4'], /^move /]] as const) {
      const s = new Session(protocol);
      s.send(...protocol === 'uci' ? ['uci', 'isready'] : ['xboard', 'protover 2', 'ping 1']);
      await s.expect(/^(readyok|pong 1)$/);                          // the engine thread is up
      s.send(...lines);
      await s.expect(protocol === 'uci' ? /^info depth 1 / : /^1 /);   // the search is under way
      if (protocol === 'xboard') s.send('ping 9');
      const t0 = performance.now(), r = await s.close(false);
      const move = s.lines.find((l) => re.test(l.text));
      assert.equal(r.code, 0, `${protocol} ${lines.at(-1)}`);
      assert.ok(move, `${protocol} ${lines.at(-1)}: no move before the exit`);
      assert.ok(move.t > t0, `${lines.at(-1)}: the search had ended before the input`);
      if (protocol === 'xboard') assert.equal(s.lines.at(-1)!.text, 'pong 9');
    }
  });
});
