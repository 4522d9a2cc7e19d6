// Where a GUI reads numbers: one rule a row, checked in the pure function and through both
// protocols, each failure naming its rule. The promotion suffix on all 16 last-rank squares,
// corners included, for both colours (`pawnTo8`, `named()`), on micro-Max's own move and on the
// GUI's; every clock unit (UCI's ms; xboard's `time` in centiseconds, `st` in seconds, `level`'s
// minutes[:seconds] and increment in seconds), read from the time each move aims at; mate scores
// for the side mating and the side mated in both protocols (UCI `mate n`, `mate -n`; xboard 100000
// + n, -100000 - n); black's score sign; the rule a player trusts, no move past the smaller of 2.5
// times its aim and a tenth of the clock plus the increment (the aim and the cut where the old rule
// let a move run 16 s); and one place per protocol fact: only `dialect()` and `commands()` ask
// which protocol it speaks. A one-character bug in any of them fails a row about it within seconds.
//
// Every figure is worked out by hand from the rules the comments state.
//
// time: 20 s

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { begin, fen, limits, named, uciGo, uciScore, xbScore, type Pos } from '../micromax.ts';
import { ROOT, Session } from './support/gui.ts';

begin();
const FILES = 'abcdefgh';
const at = (text: string): Pos => {
  const p = fen(text);
  assert.ok(typeof p !== 'string', `${text}: ${p}`);
  return p;
};
const square = (s: string): number => 16 * (8 - Number(s[1])) + FILES.indexOf(s[0]);
/** A FEN rank: a piece (or none) on file f of 8. */
const rank = (f: number, piece: string): string => `${f || ''}${piece}${7 - f || ''}`;

// ---- promotions ------------------------------------------------------------------------------
// Positions where a pawn's push to its last rank is the only legal move: the king is boxed in by
// the other side's pawns (white's on h1 by h2, g3 and h3; black's on h8 by h7, g6 and h6).

interface Promotion { colour: string; from: string; to: string; fen: string }
const PROMOTIONS: Promotion[] = [...FILES].flatMap((f, k) => [
  { colour: 'white', from: `${f}7`, to: `${f}8`, fen: `8/${rank(k, 'P')}/8/8/3k4/6pp/7p/7K w - - 0 1` },
  { colour: 'black', from: `${f}2`, to: `${f}1`, fen: `7k/7P/6PP/3K4/8/8/${rank(k, 'p')}/8 b - - 0 1` },
]);
const promotes = (p: Promotion): string =>
  `pawnTo8: a ${p.colour} pawn reaching ${p.to} promotes, so the move is ${p.from}${p.to}q`;

/** A session after its handshake (support/gui.ts ends it after the test). */
async function opened(protocol: 'uci' | 'xboard'): Promise<Session> {
  const s = new Session(protocol);
  s.send(...protocol === 'uci' ? ['uci', 'debug on'] : ['xboard', 'protover 2']);   // (UCI: the notes, with their aims)
  await s.expect(protocol === 'uci' ? /^uciok$/ : /^feature done=1$/);
  return s;
}

describe('the promotion suffix: every last-rank square, both colours (pawnTo8)', () => {
  test('named(): a pawn\'s push or capture onto its last rank gets q; any other move none', () => {
    for (const p of PROMOTIONS) {
      const pos = at(p.fen);
      assert.equal(named(pos, square(p.from), square(p.to)), `${p.from}${p.to}q`, promotes(p));
    }
    // captures onto the last rank, corners included: b7xa8, g7xh8, b2xa1, g2xh1
    const captures: [string, string, string][] = [
      ['rn5k/1P6/8/8/8/8/8/K7 w - - 0 1', 'b7', 'a8'], ['6nr/6P1/8/8/8/8/8/k6K w - - 0 1', 'g7', 'h8'],
      ['K7/8/8/8/8/8/1p6/RN5k b - - 0 1', 'b2', 'a1'], ['k6K/8/8/8/8/8/6p1/6NR b - - 0 1', 'g2', 'h1']];
    for (const [text, from, to] of captures) {
      const colour = from[1] === '7' ? 'white' : 'black';
      assert.equal(named(at(text), square(from), square(to)), `${from}${to}q`, promotes({ colour, from, to, fen: text }));
    }
    // not a promotion: a pawn short of its last rank, a piece (not a pawn) onto it, a king into a corner
    const none: [string, string, string, string][] = [
      ['4k3/8/P7/8/8/8/8/4K3 w - - 0 1', 'a6', 'a7', 'a white pawn reaching the 7th rank'],
      ['4k3/8/8/8/8/p7/8/4K3 b - - 0 1', 'a3', 'a2', 'a black pawn reaching the 2nd rank'],
      ['4k3/R7/8/8/8/8/8/4K3 w - - 0 1', 'a7', 'a8', 'a rook reaching a8'],
      ['4k3/8/8/8/8/8/1r6/K7 w - - 0 1', 'a1', 'a2', 'a king leaving a1'],
      ['4k3/8/8/8/8/8/r7/1K6 b - - 0 1', 'a2', 'a1', 'a black rook reaching a1'],
      ['7k/8/8/8/8/8/8/6NK w - - 0 1', 'g1', 'h3', 'a knight leaving the 1st rank']];
    for (const [text, from, to, what] of none) {
      assert.equal(named(at(text), square(from), square(to)), `${from}${to}`, `pawnTo8: ${what} is no promotion`);
    }
  });

  // through the protocol: micro-Max's own, and the GUI's
  test('UCI: micro-Max\'s own promotion on every last-rank square is sent with q (bestmove and pv)', async () => {
    const uci = await opened('uci');
    for (const p of PROMOTIONS) {
      uci.send(`position fen ${p.fen}`, 'go depth 2');
      const lines = (await uci.upTo(/^bestmove /)).map((l) => l.text);
      assert.equal(lines.at(-1), `bestmove ${p.from}${p.to}q`, `UCI: ${promotes(p)} (the only legal move)`);
      assert.match(lines.filter((l) => / pv /.test(l)).at(-1)!, new RegExp(` pv ${p.from}${p.to}q$`), `UCI: ${promotes(p)}, in the last pv too`);
    }
  });
  test('UCI: the GUI\'s promotion on every last-rank square is taken', async () => {
    const uci = await opened('uci');
    for (const p of PROMOTIONS) {
      const from = uci.lines.length;
      uci.send(`position fen ${p.fen} moves ${p.from}${p.to}q`, 'isready');
      await uci.expect(/^readyok$/);
      assert.deepEqual(uci.since(from), ['readyok'], `UCI: ${promotes(p)}: the GUI's ${p.from}${p.to}q is taken`);
    }
  });
  test('xboard: micro-Max\'s own promotion on every last-rank square is sent with q', async () => {
    const xb = await opened('xboard');
    for (const p of PROMOTIONS) {
      xb.send('new', 'force', `setboard ${p.fen}`, 'sd 2', 'go');
      const mv = await xb.expect(/^move /);
      assert.equal(mv.text, `move ${p.from}${p.to}q`, `xboard: ${promotes(p)} (the only legal move)`);
    }
  });
  test('xboard: the GUI\'s promotion on every last-rank square is taken', async () => {
    const xb = await opened('xboard');
    for (const [k, p] of PROMOTIONS.entries()) {
      const from = xb.lines.length;
      xb.send('new', 'force', `setboard ${p.fen}`, `usermove ${p.from}${p.to}q`, `ping ${k}`);
      await xb.expect(new RegExp(`^pong ${k}$`));
      assert.deepEqual(xb.since(from), [`pong ${k}`], `xboard: ${promotes(p)}: the GUI's ${p.from}${p.to}q is taken`);
    }
  });
});

// ---- scores ---------------------------------------------------------------------------------

describe('scores: the side to move\'s, a mate in moves (UCI mate n / -n, xboard ±100000 ± n)', () => {
  test('uciScore() and xbScore(): centipawns as they are; mates for the side that mates and for the side mated', () => {
    const rows: [number, string, number, string][] = [
      [35, 'cp 35', 35, 'a score is the side to move\'s, in centipawns'],
      [-35, 'cp -35', -35, 'a score below 0: the side to move is behind'],
      [3999, 'mate 1', 100001, 'mateIn: a mate in 1 (4000 - 1) is mate 1, xboard 100001'],
      [3997, 'mate 3', 100003, 'mateIn: a mate in 3 (4000 - 3) is mate 3, xboard 100003'],
      [-3999, 'mate -1', -100001, 'mateIn: mated in 1 (1 - 4000) is mate -1, xboard -100001 (negative for the side mated)'],
      [-3998, 'mate -2', -100002, 'mateIn: mated in 2 (2 - 4000) is mate -2, xboard -100002 (negative for the side mated)'],
    ];
    for (const [m, uci, xboard, rule] of rows) {
      assert.equal(uciScore(m), uci, `UCI: ${rule}`);
      assert.equal(xbScore(m), xboard, `xboard: ${rule}`);
    }
  });

  // through the protocol: the side to move mates in 1, or is mated in 1 (its only move, then mate)
  const SCORES: [string, string, number, string][] = [
    ['6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1', 'mate 1', 100001, 'white to move mates in 1 (Ra8#): mate 1, xboard 100001'],
    ['r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1', 'mate 1', 100001, 'black to move mates in 1 (Ra1#): mate 1 for black, xboard 100001'],
    ['6r1/8/8/8/8/p7/P4k2/7K w - - 0 1', 'mate -1', -100001, 'mateIn: white to move is mated in 1 (Kh2 Rh8#): mate -1, xboard -100001'],
    ['7k/p4K2/P7/8/8/8/8/6R1 b - - 0 1', 'mate -1', -100001, 'mateIn: black to move is mated in 1 (Kh7 Rh1#): mate -1, xboard -100001'],
  ];
  test('UCI: mate n and mate -n, for white and black', async () => {
    const uci = await opened('uci');
    for (const [text, want, , rule] of SCORES) {
      uci.send(`position fen ${text}`, 'go depth 5');
      const lines = (await uci.upTo(/^bestmove /)).map((l) => l.text);
      assert.match(lines.at(-2)!, new RegExp(` score ${want} `), `UCI: ${rule}:\n${lines.join('\n')}`);
    }
  });
  test('xboard: 100000 + n and -100000 - n, for white and black (post)', async () => {
    const xb = await opened('xboard');
    for (const [text, , want, rule] of SCORES) {
      xb.send('new', 'force', `setboard ${text}`, 'post', 'sd 5', 'go');
      const lines = (await xb.upTo(/^move /)).map((l) => l.text).filter((l) => /^\d+ -?\d+ \d+ \d+ /.test(l));
      assert.equal(Number(lines.at(-1)?.split(' ')[1]), want, `xboard: ${rule}:\n${lines.join('\n')}`);
    }
  });
  const QUEEN = '3qk3/8/8/8/8/8/8/4K3';                              // black has a queen more: ahead or behind
  test('score signs: the side to move\'s, black\'s too, in both protocols', async () => {
    const [uci, xb] = await Promise.all([opened('uci'), opened('xboard')]);
    for (const [side, sign] of [['b', 1], ['w', -1]] as const) {
      const rule = `the score is the side to move's: ${side === 'b' ? 'black, a queen ahead, scores above' : 'white, a queen behind, scores below'} 0`;
      uci.send(`position fen ${QUEEN} ${side} - - 0 1`, 'go depth 3');
      const info = (await uci.upTo(/^bestmove /)).map((l) => l.text).at(-2)!;
      const cp = Number(/ score cp (-?\d+) /.exec(info)?.[1]);
      assert.ok(sign * cp > 500, `UCI: ${rule}: ${info}`);
      xb.send('new', 'force', `setboard ${QUEEN} ${side} - - 0 1`, 'post', 'sd 3', 'go');
      const posts = (await xb.upTo(/^move /)).map((l) => l.text).filter((l) => /^\d+ -?\d+ \d+ \d+ /.test(l));
      assert.ok(sign * Number(posts.at(-1)?.split(' ')[1]) > 500, `xboard: ${rule}: ${posts.at(-1)}`);
    }
  });
});

// ---- one place per protocol fact ------------------------------------------------------------

test('one place per protocol fact: only dialect() and commands() ask which protocol it speaks', () => {
  const source = fs.readFileSync(path.join(ROOT, 'micromax.ts'), 'utf8').split('\n');
  const asks = source.filter((l) => /opt\.gui\s*[!=]==?\s*'(uci|xboard)'|'(uci|xboard)'\s*[!=]==?\s*opt\.gui/.test(l));
  assert.deepEqual(asks.map((l) => l.split(' =')[0]), ['const dialect', 'const commands'],
    `shared code asks no protocol question; the dialect answers it (Dialect):\n${asks.join('\n')}`);
});

// ---- the clock's units: the aim a move's note states -------------------------------------------
// Each move's note (UCI's info string, xboard's # line) ends "N ms used of AIM": the time the clock
// says to aim at, less the Move Overhead (50 ms). With 300 s left and no moves to go given, the aim
// is (300000 - 50) / 30 = 9998 ms; every row below is worked out so.

const aimOf = (lines: string[]): number => {
  const note = lines.find((l) => /ms used of \d+$/.test(l));
  assert.ok(note, `no note with the move's aim:\n${lines.join('\n')}`);
  return Number(/ms used of (\d+)$/.exec(note)![1]);
};

describe('the clock\'s units, from the aim of each move (pure and through the protocol)', () => {
  test('uciGo() and limits(): wtime, btime, winc, binc, movetime in ms; moves to go', () => {
    const aim = (line: string, k: number): number => Math.round(limits(uciGo(line.split(' '), k, 1e7), 0, 50).aim);
    assert.equal(aim('go wtime 300000 btime 1000', 8), 9998, 'UCI: wtime is white\'s clock, in ms');
    assert.equal(aim('go wtime 1000 btime 300000', 16), 9998, 'UCI: btime is black\'s clock, in ms');
    assert.equal(aim('go wtime 60000 btime 60000 winc 2000 binc 0', 8), 3498, 'UCI: winc is white\'s increment, in ms (3/4 spent)');
    assert.equal(aim('go wtime 60000 btime 60000 winc 0 binc 2000', 16), 3498, 'UCI: binc is black\'s increment, in ms');
    assert.equal(aim('go movetime 2500', 8), 2500, 'UCI: movetime is in ms');
  });


  const UCI_CLOCKS: [string, string, number, string][] = [
    ['startpos', 'wtime 300000 btime 1000', 9998, 'UCI: wtime is white\'s clock, in ms'],
    ['startpos moves e2e4', 'wtime 1000 btime 300000', 9998, 'UCI: btime is black\'s clock, in ms'],
    ['startpos', 'wtime 60000 btime 60000 winc 2000 binc 0', 3498, 'UCI: winc is white\'s increment, in ms (3/4 of it spent)'],
    ['startpos moves e2e4', 'wtime 60000 btime 60000 winc 0 binc 2000', 3498, 'UCI: binc is black\'s increment, in ms'],
    ['startpos', 'wtime 60000 btime 60000 movestogo 20', 2998, 'UCI: movestogo divides the time left'],
    ['startpos', 'movetime 2500', 2500, 'UCI: movetime is in ms'],
  ];
  test('UCI: each clock word, white and black', async () => {
    const uci = await opened('uci');
    for (const [position, clock, want, rule] of UCI_CLOCKS) {
      uci.send(`position ${position}`, `go ${clock} depth 1`);
      const lines = (await uci.upTo(/^bestmove /)).map((l) => l.text);
      assert.equal(aimOf(lines), want, `${rule}: go ${clock} aims at ${want} ms`);
    }
  });

  // xboard: a new game, depth 1 (sd), the clock; then the engine moves (white: go; black: after e2e4)
  const XB_CLOCKS: [string[], string, number, string][] = [
    [['level 0 5 0', 'time 30000', 'otim 100'], 'white', 9998, 'xboard: time is the engine\'s clock in centiseconds (30000: 300 s); otim, the opponent\'s, is not its own'],
    [['level 0 5 0', 'time 30000', 'otim 100'], 'black', 9998, 'xboard: time is the engine\'s clock in centiseconds, whichever side it plays'],
    [['level 0 5 0', 'time 12000'], 'white', 3998, 'xboard: time is in centiseconds (12000: 120 s)'],
    [['level 40 5 0'], 'white', 7499, 'xboard: level\'s base is in minutes (5: 300 s), its moves per period the moves to go'],
    [['level 0 2:30 0'], 'white', 4998, 'xboard: level\'s base may be minutes:seconds (2:30: 150 s)'],
    [['level 0 1 5'], 'white', 5748, 'xboard: level\'s increment is in seconds (5: 5000 ms, 3/4 of it spent)'],
    [['level 0 0:30 0.5'], 'white', 1373, 'xboard: level\'s increment may be a fraction of a second (0.5: 500 ms)'],
    [['level 40 25+5 0'], 'white', 37499, 'xboard: level 40 25+5 0 is 25 minutes for 40 moves (the +5 is for later)'],
    [['level 0 5 0', 'st 2'], 'white', 2000, 'xboard: st is a move\'s time in seconds (2: 2000 ms), whatever the level'],
  ];
  test('xboard: time and otim, level\'s forms, st; the engine white and black', async () => {
    const xb = await opened('xboard');
    for (const [clock, side, want, rule] of XB_CLOCKS) {
      xb.send('new', 'sd 1', ...clock, side === 'white' ? 'go' : 'usermove e2e4');
      const lines = (await xb.upTo(/^move /)).map((l) => l.text);
      assert.equal(aimOf(lines), want, `${rule}: ${clock.join(', ')} aims at ${want} ms`);
    }
  });
});

// ---- the rule a player trusts -----------------------------------------------------------------
// No move takes longer than the smaller of 2.5 times its aim and a tenth of the clock plus the
// increment (and never more than half the clock, when the increment is most of it). Each row is
// a clock where the old rule (5 times the aim, 40 % of the clock, 80 % with one move to go) let
// a move run long: its aim, worked out by hand, is what the note says; the search is cut at 85 %
// of the rule's limit less the Move Overhead (50 ms), and the move comes before that limit, with
// a margin for a loaded machine (the benchmark measures it properly).

interface Rule { clock: string; uci: string; xboard: string[]; aim: number; cut: number; why: string }
const RULES: Rule[] = [
  { clock: '20 s for one move', uci: 'wtime 20000 btime 20000 movestogo 1', xboard: ['level 1 0:20 0', 'time 2000'],
    aim: 1330, cut: 1995, why: '19950 ms left, one move to go: the limit at a tenth of it (1995), the aim two thirds of that' },
  { clock: '2 s and 3 s a move', uci: 'wtime 2000 btime 2000 winc 3000 binc 3000', xboard: ['level 0 0:02 3', 'time 200'],
    aim: 650, cut: 975, why: '1950 ms left, 3000 to come: the limit at half of what is left (975), not 195 + 3000' },
];
const cutOf = (line: string, k: number): number => limits(uciGo(line.split(' '), k, 1e7), 0, 50).hard;

describe('the rule: no move past 2.5 × its aim, nor a tenth of the clock plus the increment (pure and through the protocol)', () => {
  test('limits(): each row\'s aim and cut', () => {
    for (const r of RULES) {
      const lim = limits(uciGo(`go ${r.uci}`.split(' '), 8, 1e7), 0, 50);
      assert.equal(Math.round(lim.aim), r.aim, `${r.clock}: ${r.why}`);
      assert.equal(Math.round(lim.hard), Math.round(0.85 * r.cut - 50), `${r.clock}: ${r.why}; cut at 85 % of it less the Move Overhead`);
      assert.equal(Math.round(cutOf('go wtime 120000 btime 120000 winc 1000 binc 1000', 8)), Math.round(0.85 * 2.5 * (119950 / 30 + 750) - 50),
        '2 min + 1 s: the limit at 2.5 × the aim (11.9 s), where it was 5 × (23.7 s)');
    }
  });
  for (const protocol of ['uci', 'xboard'] as const) {
    test(`${protocol}: the aim the note states, and the move before the cut`, async (t) => {
      const s = await opened(protocol);
      for (const r of RULES) {
        const t0 = protocol === 'uci' ? s.send('position startpos moves e2e4 e7e5 g1f3 b8c6', `go ${r.uci}`)
          : s.send('new', 'force', 'usermove e2e4', 'usermove e7e5', 'usermove g1f3', 'usermove b8c6', ...r.xboard, 'go');
        const lines = await s.upTo(protocol === 'uci' ? /^bestmove / : /^move /, 30_000);
        const took = lines.at(-1)!.t - t0;
        t.diagnostic(`${r.clock}: ${took.toFixed(0)} ms, aim ${r.aim}, cut ${r.cut}`);
        assert.equal(aimOf(lines.map((l) => l.text)), r.aim, `${protocol}: ${r.clock}: ${r.why}`);
        assert.ok(took < r.cut + 1000, `${protocol}: ${r.clock}: ${took.toFixed(0)} ms, past the cut at ${r.cut} ms (${r.why})`);
      }
    });
  }
});
