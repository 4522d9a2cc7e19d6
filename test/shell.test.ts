// The shell's pure pieces, by table: a move's limits from its clock (`limits`: the rule a player
// trusts on 720 clocks, no move past 2.5 times its aim nor a tenth of the clock plus the
// increment); the game's clock (`GameClock`: the wall clock kept by the GUI; at a node rate its own
// clock, period by period); UCI's go and xboard's clock as a time control (`uciGo` and
// `timeMissing`, numbers read as Stockfish reads them; `xbGo`, moves to go from the `level`'s ply,
// after `undo`); why no move is made (`refusal`); the move after a think without castling
// (`secondChoice`); the note that says how to replay a move (`replayNote`); and the terminal's
// progress line (`progressLine`).
//
// Every figure below is worked out by hand from the rules the comments state.
//
// time: < 2 s

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { begin, fen, GameClock, limits, progressLine, refusal, replayNote, secondChoice, timeMissing, uciGo, xbGo, XB_CLOCK, type Found,
  type Pos } from '../micromax.ts';

const INT_MAX = 2147483647;
const close = (got: number, want: number, what: string): void => assert.ok(Math.abs(got - want) < 1e-9, `${what}: ${got}, not ${want}`);

describe('limits: a move\'s limits from its clock', () => {
  test('a clock: the aim is the time left over the moves to go, plus 3/4 of the increment', () => {
    // 60 s left less 50 ms overhead, 30 moves to go (unknown), 1 s increment
    const lim = limits({ time: 60000, inc: 1000 }, 0, 50), aim = 59950 / 30 + 750;
    close(lim.aim, aim, 'aim');
    close(lim.soft, 1.5 * aim, 'soft');                       // a pass starts if it should end by then
    close(lim.hard, 0.85 * 2.5 * aim - 50, 'hard');           // 85 % of 2.5 × the aim (below 5995 + 1000 ms), less the overhead
    assert.deepEqual([lim.start, lim.depth, lim.nodeLimit, lim.maxNodes], [0, 99, INT_MAX, INT_MAX]);
  });
  test('two moves to go: the cut at a tenth of the clock plus the increment, the aim within the cut over 1.5', () => {
    const lim = limits({ time: 60000, movesToGo: 2, inc: 500 }, 0, 0);   // 30500 ms would be the aim
    close(lim.hard, 0.85 * 6500, 'hard');                     // 85 % of 6000 + 500, below 2.5 × the aim
    close(lim.aim, 6500 / 1.5, 'aim');
    close(lim.soft, 6500, 'soft');
  });
  test('one move to go: a tenth of the clock still, the aim two thirds of that; the cut at least half the limit', () => {
    const lim = limits({ time: 1000, movesToGo: 1 }, 7, 50);   // 950 ms left: the rule's limit 95 ms
    close(lim.aim, 95 / 1.5, 'aim');
    close(lim.soft, 95, 'soft');
    close(lim.hard, 95 / 2, 'hard');                          // 85 % of 95, less 50, would leave less than half
    assert.equal(lim.start, 7);
  });
  test('an increment larger than the clock: never past half of what is left', () => {
    const lim = limits({ time: 500, inc: 1000 }, 0, 50);       // 450 ms left, 1 s to come after the move
    close(lim.hard, 0.85 * 225 - 50, 'hard');                 // not 45 + 1000 ms: that is more than is left
    close(lim.aim, 150, 'aim');
  });
  test('40 moves in 5 minutes, 300 s left: 299950 / 40', () => {
    close(limits({ time: 300000, movesToGo: 40, inc: 0 }, 0, 50).aim, 7498.75, 'aim');
    close(limits({ time: 300000, movesToGo: 41, inc: 0 }, 0, 50).aim, 299950 / 41, 'aim');
  });
  test('no time left: 1 ms, the cut at half of 2.5 × the aim', () => {
    const lim = limits({ time: 0 }, 0, 50);
    close(lim.aim, 1 / 30, 'aim');
    close(lim.hard, 1.25 / 30, 'hard');
  });
  test('the rule a player can trust, on every clock: no move past 2.5 × its aim, nor a tenth of the clock plus the increment', () => {
    let clocks = 0;
    for (const time of [0, 30, 999, 5000, 60000, 120000, 600000, 7200000]) {
      for (const inc of [0, 10, 100, 1000, 5000, 30000]) {
        for (const movesToGo of [0, 1, 2, 5, 40]) {
          for (const overhead of [0, 50, 1000]) {
            const lim = limits({ time, inc, movesToGo }, 0, overhead), left = Math.max(time - overhead, 1);
            const at = `time ${time} inc ${inc} movestogo ${movesToGo} overhead ${overhead}`;
            assert.ok(lim.hard <= 2.5 * lim.aim + 1e-9, `${at}: the cut ${lim.hard} past 2.5 × the aim ${lim.aim}`);
            assert.ok(lim.hard <= left / 10 + inc + 1e-9, `${at}: the cut ${lim.hard} past a tenth of ${left} plus ${inc}`);
            assert.ok(lim.hard <= left / 2 + 1e-9, `${at}: the cut ${lim.hard} past half of the ${left} ms left`);
            const rule = Math.min(2.5 * lim.aim, left / 10 + inc, left / 2);
            const margin = Math.min(0.15 * rule + overhead, rule / 2);
            assert.ok(lim.hard <= rule - margin + 1e-9, `${at}: the cut ${lim.hard} keeps no margin before ${rule}`);
            assert.ok(lim.aim > 0 && lim.soft <= rule + 1e-9, `${at}: aim ${lim.aim}, soft ${lim.soft}, the rule's limit ${rule}`);
            clocks++;
          }
        }
      }
    }
    assert.equal(clocks, 720);
  });
  test('movetime: to its deadline less the overhead (at least 1 ms); no soft limit', () => {
    const lim = limits({ movetime: 1000 }, 0, 50);
    assert.deepEqual([lim.hard, lim.aim, lim.soft], [950, 1000, Infinity]);
    assert.equal(limits({ movetime: 30 }, 0, 50).hard, 1);
  });
  test('nodes: go nodes cuts (and no pass starts past it); the C\'s limit only stops the deepening', () => {
    const go = limits({ nodes: 5000 }, 0), c = limits({ nodeLimit: 7 }, 0), both = limits({ nodes: 900, nodeLimit: 2000 }, 0);
    assert.deepEqual([go.nodeLimit, go.maxNodes], [5000, 5000]);
    assert.deepEqual([c.nodeLimit, c.maxNodes], [7, INT_MAX]);
    assert.deepEqual([both.nodeLimit, both.maxNodes], [900, 900]);
    assert.deepEqual([limits({ nodes: 0 }, 0).maxNodes, limits({ depth: 0 }, 0).depth], [1, 1]);
    assert.deepEqual([go.hard, go.soft], [Infinity, Infinity]);
  });
});

describe('GameClock: the game\'s clock, from one search to the next', () => {
  test('on the wall clock it keeps nothing: each search\'s limits are the GUI clock\'s', () => {
    const c = new GameClock(), tc = { time: 60000, inc: 1000 };
    assert.deepEqual(c.limitsFor(tc, 5, 50), limits(tc, 5, 50));
    c.moved(123456);
    assert.deepEqual(c.limitsFor({ time: 30000 }, 9, 50), limits({ time: 30000 }, 9, 50));
  });
  test('at a node rate: its own clock from the game\'s first time, less each move\'s nodes, plus the increment', () => {
    const c = new GameClock();
    c.setRate(200);                                           // 200 nodes a ms
    const first = c.limitsFor({ time: 10000, inc: 100 }, 5, 50);
    assert.deepEqual(first, { ...limits({ time: 10000, inc: 100 }, 5, 0), rate: 200 }, 'no overhead kept back: it is wall-clock time');
    c.moved(300000);                                          // 1500 ms of nodes, then the increment
    assert.equal(c.left, 10000 - 1500 + 100);
    const second = c.limitsFor({ time: 2, inc: 100 }, 7, 50); // what the GUI's wall clock says is not read
    assert.deepEqual(second, { ...limits({ time: 8600, inc: 100 }, 7, 0), rate: 200 });
    close(second.hard, 0.85 * 2.5 * (8600 / 30 + 75), 'the cut, in ms of nodes');
  });
  test('moves per period: the game\'s first time again after a period\'s last move; never below 0', () => {
    const c = new GameClock();
    c.setRate(1000);
    c.limitsFor({ time: 60000, movesToGo: 2 }, 0, 0);
    c.moved(20_000_000);                                     // 20 s of nodes
    assert.equal(c.left, 40000);
    c.limitsFor({ time: 1, movesToGo: 1 }, 0, 0);
    c.moved(50_000_000);                                     // more than is left: 0, then the new period
    assert.equal(c.left, 60000);
  });
  test('a new game or another rate starts the clock again; a search with no clock leaves it', () => {
    const c = new GameClock();
    c.setRate(100);
    c.limitsFor({ time: 5000 }, 0, 0);
    c.moved(100_000);
    assert.equal(c.left, 4000);
    assert.deepEqual(c.limitsFor({ movetime: 300 }, 0, 50), { ...limits({ movetime: 300 }, 0, 0), rate: 100 }, 'movetime: 300 ms of nodes');
    c.moved(7777);
    assert.equal(c.left, 4000, 'a movetime search is not on the game\'s clock');
    c.newGame();
    assert.equal(c.limitsFor({ time: 7000 }, 0, 0).aim, 7000 / 30);
    c.setRate(50);
    assert.equal(c.left, undefined);
    c.setRate(0);
    assert.deepEqual(c.limitsFor({ time: 7000 }, 0, 50), limits({ time: 7000 }, 0, 50));
  });
});

describe('uciGo: the words of UCI\'s go', () => {
  const W = 8, B = 16, C_NODES = 1234;
  // the fields go sets (one left undefined is not set): a field added to TimeControl changes no row
  const go = (line: string, k = W): object =>
    Object.fromEntries(Object.entries(uciGo(line.split(' '), k, C_NODES)).filter(([, x]) => x !== undefined));
  const cases: [string, number, object][] = [
    ['go wtime 60000 btime 50000 winc 1000 binc 500 movestogo 20', W, { time: 60000, inc: 1000, movesToGo: 20 }],
    ['go wtime 60000 btime 50000 winc 1000 binc 500 movestogo 20', B, { time: 50000, inc: 500, movesToGo: 20 }],
    ['go', W, { nodeLimit: C_NODES }],                          // bare: the C's node limit
    ['go wtime abc', W, { time: 0 }],                           // not a number: missing, so 0 (move at once)
    ['go wtime -5', W, { time: 0 }],                            // negative: 0
    ['go btime 500', W, { time: 0 }],                           // white's time missing: 0
    ['go btime 500 binc 100', B, { time: 500, inc: 100 }],
    ['go wtime btime 500', W, { time: 0 }],                     // wtime names no number: 0
    ['go wtime btime 500', B, { time: 500 }],
    ['go winc 100 binc 100', W, { time: 0, inc: 100 }],         // increments only: no time, 0
    ['go movestogo 5', B, { time: 0, movesToGo: 5 }],
    ['go wtime 1000.5 btime 1000.5', W, { time: 1000 }],        // the leading integer, as Stockfish reads it
    ['go wtime 1e3 btime 1e3', W, { time: 1 }],
    ['go wtime +700 btime 5', W, { time: 700 }],
    ['go movetime 300 btime 100', W, { movetime: 300 }],        // movetime: no clock needed
    ['go depth 4 btime 100', W, { depth: 4, time: 0 }],         // a clock, and a depth: both hold
    ['go nodes 100', W, { nodes: 100 }],
    ['go depth 3', B, { depth: 3 }],
    ['go movetime 500', W, { movetime: 500 }],
    ['go infinite', W, {}],                                     // no limit at all
    ['go ponder wtime 1000 winc 10', W, { inc: 10 }],           // pondering: no clock
  ];
  for (const [line, k, want] of cases) {
    test(`${line} (${k === W ? 'white' : 'black'} to move)`, () => assert.deepEqual(go(line, k), want));
  }
  test('timeMissing: on a clock, no time it can read for the side to move (what the info string says)', () => {
    const missing = (line: string, k = W): boolean => timeMissing(line.split(' '), k);
    assert.deepEqual(['go btime 500', 'go wtime x', 'go winc 5', 'go movestogo 3', 'go wtime btime 1'].map((l) => missing(l)), [true, true, true, true, true]);
    assert.deepEqual(['go', 'go wtime 5', 'go depth 3', 'go infinite btime 4', 'go movetime 9 btime 4', 'go wtime 1e3'].map((l) => missing(l)),
      [false, false, false, false, false, false]);
    assert.equal(missing('go wtime 500', B), true);
  });
});

describe('xboard\'s clock: moves to go count from the ply the level came at', () => {
  const level = { ...XB_CLOCK, mps: 40, base: 300000, levelAt: 0, left: 30000 };
  const togo = (ply: number, levelAt = 0): number | undefined => xbGo({ ...level, levelAt }, ply, 1234).movesToGo;
  test('level 40 5 0 at the start: 40 to go at ply 0 and 1 (neither side has moved), then one fewer each move', () => {
    assert.deepEqual([0, 1, 2, 3, 78, 79, 80, 81].map((ply) => togo(ply)), [40, 40, 39, 39, 1, 1, 40, 40]);
    assert.deepEqual(xbGo(level, 0, 1234), { time: 30000, inc: 0, movesToGo: 40, depth: 99 });
  });
  test('a level at ply 70 (CECP: the moves still to play in its period): 40 to go at ply 70 and 71, 39 at 72', () => {
    assert.deepEqual([70, 71, 72, 73, 148, 149, 150].map((ply) => togo(ply, 70)), [40, 40, 39, 39, 1, 1, 40]);
    assert.deepEqual([71, 72, 73, 74].map((ply) => togo(ply, 71)), [40, 40, 39, 39]);   // came with black to move
  });
  test('moves taken back past the level: counted from now, as if the level came now', () => {
    // new, force, e2e4, e7e5, level 40 5 0, undo, undo: the game is at ply 0, the level came at 2
    assert.deepEqual([0, 1, 2].map((ply) => togo(ply, 2)), [40, 40, 40]);
  });
  test('no time told: the base; no time at all (level 0 0 0): 0; st: a move\'s time (st 0 too); nothing: the C\'s node limit', () => {
    assert.equal(xbGo({ ...level, left: undefined }, 0, 1).time, 300000);
    assert.deepEqual(xbGo({ ...level, mps: 0, base: 0, inc: 2000, left: undefined }, 5, 1), { time: 0, inc: 2000, movesToGo: 0, depth: 99 });
    assert.deepEqual(xbGo({ ...level, mps: 0, base: 0, inc: 0, left: undefined }, 5, 1), { time: 0, inc: 0, movesToGo: 0, depth: 99 });
    assert.deepEqual(xbGo({ ...level, st: 1000, sd: 4 }, 3, 1), { movetime: 1000, depth: 4 });
    assert.deepEqual(xbGo({ ...level, st: 0 }, 3, 1), { movetime: 0, depth: 99 });
    const none = { ...XB_CLOCK, sd: 7 };
    assert.deepEqual(xbGo(none, 3, 1234), { depth: 7, nodeLimit: 1234 });
    assert.deepEqual(xbGo({ ...none, left: 500 }, 3, 1234), { time: 500, inc: 0, movesToGo: 0, depth: 7 });
  });
});

describe('refusal: why no move is made, or \'\'', () => {
  begin();
  const at = (text: string): Pos => {
    const p = fen(text);
    assert.ok(typeof p !== 'string', p as string);
    return p;
  };
  const start = at('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
  const mated = at('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3');
  const stalemate = at('5bnr/4p1pq/4Qpkr/7p/7P/4P3/PPPP1PP1/RNB1KBNR b KQ - 2 10');
  const ahead = at('4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1'), behind = at('qqq1k3/8/8/8/8/8/8/4K3 w - - 0 1');
  const frozen = (Q: number): string => `frozen: micro-Max 3.2 moves no more once one side is 2000 points ahead (${Q} here)`;
  const cases: [string, string, Pos, boolean, boolean, string][] = [
    ['no position', 'e1e3 (move 3): illegal', start, false, false, 'no position: e1e3 (move 3): illegal'],
    ['checkmate', '', mated, false, false, 'checkmate, black wins'],
    ['stalemate', '', stalemate, false, false, 'stalemate, a draw'],
    ['frozen ahead, Faithful', '', ahead, true, false, frozen(2673)],
    ['frozen ahead: the fallback plays', '', ahead, false, true, ''],
    ['frozen behind, UCI: the fallback plays', '', behind, false, false, ''],
    ['frozen behind, xboard: it resigns', '', behind, false, true, frozen(-2673)],
    ['a game going on', '', start, true, true, ''],
  ];
  for (const [what, none, p, faithful, resigns, want] of cases) {
    test(what, () => assert.equal(refusal(none, p, faithful, resigns), want));
  }
});

describe('secondChoice: the move after a think without castling, never shallower than a pass shown', () => {
  begin();
  // the king in a pawn's check: micro-Max castles e1c1 out of it; e1f2 takes the pawn
  const p = fen('4k3/8/8/8/n7/8/5p2/R3K2R w KQ - 0 1') as Pos;
  const sq = (s: string): number => 16 * (56 - s.charCodeAt(1)) + s.charCodeAt(0) - 97;
  const again: Found = { x: sq('e1'), y: sq('f2'), d: 3, N: 900, m: 680, total: 1000, cutOff: true };
  const shown = { d: 6, N: 36552, m: 686, x: sq('e1'), y: sq('f2'), ms: 100 };
  test('the second think cut at depth 3, a pass of depth 6 shown: that pass, its depth, nodes and score', () => {
    assert.deepEqual(secondChoice(p, again, shown, 5000), { ...again, d: 6, N: 36552, m: 686, total: 5000 });
  });
  test('the second think deeper than any pass shown: its own move', () => {
    assert.deepEqual(secondChoice(p, { ...again, d: 7 }, shown, 5000), { ...again, d: 7, total: 5000 });
    assert.deepEqual(secondChoice(p, again, undefined, 5000), { ...again, total: 5000 });
  });
  test('nothing shown, and the second think\'s move not legal either: the first legal move', () => {
    const got = secondChoice(p, { ...again, x: sq('e1'), y: sq('c1') }, undefined, 5000);
    assert.deepEqual([got.x, got.y], [sq('e1'), sq('d2')]);                  // the king's first step, in board order
  });
});

describe('replayNote: how deep, and how to replay the move', () => {
  begin();
  const start = fen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1') as Pos;
  const ahead = fen('4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1') as Pos;
  const f: Found = { x: 0x64, y: 0x44, d: 5, N: 12345, m: 14, total: 16384, cutOff: false };
  const cases: [string, string][] = [
    [replayNote(f, start, '', 'startpos', ['', '']), '5-ply search, 12345 positions, scored 14; the C plays it with --nodes 12345 after this game\'s 2 moves'],
    [replayNote({ ...f, cutOff: true }, start, '', 'fen 8/8', []), '5-ply search, 12345 positions, scored 14, cut off; replay: this position at a node limit of 12345'],
    [replayNote(f, start, '', 'startpos', ['', 'an under-promotion', '']), '5-ply search, 12345 positions, scored 14; not replayable: an under-promotion earlier in this game'],
    [replayNote(f, ahead, '', 'startpos', []), '5-ply search, 12345 positions, scored 14; fallback: frozen at 2673, so searched as if 500'],
    [replayNote(f, start, 'e1g1', 'startpos', []), '5-ply search, 12345 positions, scored 14; fallback: micro-Max 3.2\'s choice e1g1 is not legal here'],
  ];
  for (const [got, want] of cases) test(want.split('; ')[1], () => assert.equal(got, want));
});

describe('progressLine: the terminal\'s progress line', () => {
  const pass = { d: 3, N: 1941, m: 14, x: 0x64, y: 0x44, ms: 1234 };
  test('drawn over the old one in one string: carriage return, text, then the rest of the line erased', () => {
    assert.equal(progressLine(pass, 5000, -Infinity), '\rthinking: depth 3, 1941 nodes, best e2e4, score 14, 1.2 s\x1b[K');
  });
  test('at most 10 times a second', () => {
    assert.equal(progressLine(pass, 5000, 4901), '');
    assert.notEqual(progressLine(pass, 5000, 4900), '');
  });
});
