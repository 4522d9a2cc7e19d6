// `--play`, `--pretty`, `--help` (it names the command, `micromax`), `--version`, bad options and
// `--time`, in a pipe, against the C; and the shell's own legal-move test (it tells checkmate and
// stalemate apart without touching the engine).
//
// --play makes micro-Max answer each accepted typed move as if an empty line had been typed
// next (not after a move that ends the game, nor after the end of the input). So its stdout
// must be the C's for the input with those empty lines inserted. Each case below is that
// expanded input, with `null` marking the inserted lines: the port with --play gets the lines
// without them, the port without --play and the C get them as empty lines.
//
// time: 46 s

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { Chess } from 'chess.js';
import { attacked, legalMoves } from '../micromax.ts';
import { inputLines, parseTranscript, replay, seededRandom } from './support/boards.ts';
import { whyNoC } from './support/c-oracle.ts';
import { ROOT, firstDifference, portArgs, runC, runPort } from './support/run.ts';

const noC = whyNoC();

interface Case { name: string; side: 'white' | 'black'; nodes: number; trace?: boolean; lines: (string | null)[]; end?: string }
const CASES: Case[] = [
  { name: 'scholar\'s mate: no answer once mated, then a rejected move', side: 'white', nodes: 30,
    lines: ['e2e4', null, 'f1c4', null, 'd1h5', null, 'h5f7', 'a2a3'] },
  { name: 'micro-Max opens; a rejection and a refused Enter get no answer; input ends mid-line', side: 'black',
    nodes: 2000, lines: [null, 'e7e5', null, 'e7e5', '', 'd7d6', null, 'g8f6'], end: '' },
  { name: 'micro-Max mates the player, whose next move is rejected', side: 'white', nodes: 20000,
    lines: ['f2f3', null, 'g2g4', null, 'a2a3', null, 'h2h3'] },
  { name: 'with --trace; a short line and a long one, read as the C reads them', side: 'white', nodes: 1000,
    trace: true, lines: ['e2e4', null, 'zz', 'd2d4xyz', null, 'g1f3', null] },
];

const join = (lines: (string | null)[], end = '\n'): string => lines.map((l) => l ?? '').join('\n') + end;
const typedInput = (c: Case): string => join(c.lines.filter((l) => l !== null), c.end);
const expanded = (c: Case): string => join(c.lines, c.end);
const once = <T>(start: () => Promise<T>): (() => Promise<T>) => {  // runs started when first needed
  let p: Promise<T> | undefined;
  return () => (p ??= start());
};
const args = (c: Case): string[] => portArgs({ nodes: c.nodes, trace: c.trace });

describe('--play', () => {
  for (const c of CASES) {
    const played = once(() => runPort(typedInput(c), [...args(c), '--play', c.side]));
    const plain = once(() => runPort(expanded(c), args(c)));

    test(`${c.name}: the same as without --play, empty lines inserted`, async () => {
      const [p, q] = await Promise.all([played(), plain()]);
      assert.equal(p.code, 0, p.stderr);
      assert.equal(p.stderr, '', 'nothing on stderr in a pipe');
      const diff = firstDifference(q.stdout, p.stdout);
      assert.equal(diff, undefined, diff);
    });

    test(`${c.name}: the inserted lines are exactly the answers --play promises`, async () => {
      // Replays the plain run with chess.js: an empty line is inserted after a typed line iff
      // that line's move was accepted, the game goes on, and the input did not end in the line.
      const q = await plain(), lines = inputLines(expanded(c));
      const moved = new Map(replay(q.stdout, expanded(c)).moves.map((m) => [m.line!, m]));
      c.lines.forEach((l, k) => {
        if (l === null) return;
        const m = moved.get(k), goesOn = m !== undefined && new Chess(m.fenAfter).moves().length > 0;
        const promised = lines[k].by === 'typed' && goesOn && lines[k].end !== -1;
        assert.equal(c.lines[k + 1] === null, promised, `after line ${k + 1} (${JSON.stringify(l)})`);
      });
    });

    test(`${c.name}: live against the C`, { skip: noC ? `live diffs skipped: ${noC}` : false }, async () => {
      const [p, r] = await Promise.all([played(), runC(expanded(c), { nodes: c.nodes, trace: c.trace })]);
      const diff = firstDifference(r.stdout, p.stdout);
      assert.equal(diff, undefined, diff);
    });
  }
});

describe('options', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };

  test('--help prints the usage on stdout and exits 0', async () => {
    const r = await runPort('', ['--help']);
    assert.equal(r.code, 0);
    for (const o of ['--nodes', '--time', '--trace', '--play', '--pretty', '--uci', '--xboard', '--help', '--version']) assert.match(r.stdout.toString(), new RegExp(o));
    // the command's name, as a player types it (package.json's bin), not the source file's
    assert.match(r.stdout.toString(), /^usage: micromax \[/, 'the usage names the command micromax');
    assert.doesNotMatch(r.stdout.toString(), /micromax\.(ts|js)/, 'no file name in the usage');
  });

  test('--version prints the package version and exits 0', async () => {
    const r = await runPort('', ['--version']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout.toString(), `micromax-ts ${pkg.version}\n`);
  });

  for (const bad of [['--play'], ['--play', 'red'], ['--play', 'White'], ['--nodes', '0'], ['--nodes'], ['--bogus'], ['-h'],
    ['--time', '0'], ['--time', 'soon'], ['--time'], ['--uci', '--trace'], ['--xboard', '--time', '1'], ['--trace=1'],
    ['--nodes=0'], ['--nodes', '1.5'], ['e2e4'], ['--xboard', '--pretty'], ['--nodes', '-5'], ['--nodes', '1e40'],
    ['--nodes', ''], ['bench', '--nodes', '5'], ['--uci', 'bench'], ['bench', 'bench']]) {
    test(`${bad.join(' ')}: one line on stderr, nothing on stdout, exit 2`, async () => {
      const r = await runPort('e2e4\n', bad);
      assert.equal(r.code, 2, `exit code ${r.code}\n${r.stderr}`);
      assert.equal(r.stdout.length, 0);
      assert.match(r.stderr, /^micromax: [^\n]+ \(see --help\)\n$/);
    });
  }

  test('bad options say what is wrong in micromax\'s words', async () => {
    const cases: [string[], string][] = [
      [['--nodes'], '--nodes wants a whole number from 1 to 2147483647, not nothing'],
      [['--nodes', 'x'], '--nodes wants a whole number from 1 to 2147483647, not \'x\''],
      [['--time'], '--time wants a number above 0 to 1000000, not nothing'],
      [['--play'], '--play needs white or black, not nothing'],
      [['--bogus'], 'unknown option \'--bogus\''],
      [['--trace=1'], '--trace takes no value'],
      [['--uci', '--play', 'white'], '--uci takes no option but --nodes'],
      [['bench', '--trace'], 'bench takes no option: its positions and node limit are fixed'],
      [['e2e4'], 'unknown argument \'e2e4\' (the one there is: bench)'],
    ];
    for (const [args, message] of cases) assert.equal((await runPort('', args)).stderr, `micromax: ${message} (see --help)\n`, args.join(' '));
    const ok = await runPort('e2e4\n', ['--nodes=500', '--trace']);
    assert.equal(ok.code, 0, ok.stderr);
  });

  test('--time S: each move stops after an iteration, exactly where --nodes N_d stops the C', async (t) => {
    const input = 'e2e4\n\nd2d4\n\n', t0 = performance.now();
    const r = await runPort(input, ['--time', '0.3', '--trace']);
    const secs = (performance.now() - t0) / 1000;
    assert.equal(r.code, 0, r.stderr);
    const tr = parseTranscript(r.stdout), played = replay(r.stdout, input).moves.map((m) => m.from + m.to);
    assert.equal(played.length, 4);
    for (const k of [2, 4]) {                              // boards 2 and 4 follow micro-Max's thinks
      const n = Number(/(\d+) searched/.exec(tr.traces[k].at(-1)!)![1]);
      const typed = played.slice(0, k - 1).map((m) => `${m}\n`).join('') + '\n';
      for (const out of [await runPort(typed, ['--nodes', String(n), '--trace']), ...(noC ? [] : [await runC(typed, { nodes: n, trace: true })])]) {
        const x = parseTranscript(out.stdout);
        assert.deepEqual([x.traces.at(-1), x.boards.at(-1)], [tr.traces[k], tr.boards[k]], `think ${k / 2} at --nodes ${n}`);
      }
    }
    t.diagnostic(`two moves at --time 0.3: ${secs.toFixed(1)} s for the whole run`);
    assert.ok(secs < 20, `${secs} s`);
  });

  test('--pretty in a pipe: the original bytes', async () => {
    const input = 'e2e4\n\n';
    const [p, q] = await Promise.all([runPort(input, ['--nodes', '500', '--pretty']), runPort(input, ['--nodes', '500'])]);
    assert.equal(p.stderr, '');
    assert.ok(p.stdout.equals(q.stdout));
  });
});

// ---- the shell's legal-move test ------------------------------------------------------------

/** A FEN's position as micro-Max's 0x88 board (colour 8 white, 16 black; type 1 white pawn,
 *  2 black pawn, 3 knight, 4 king, 5 bishop, 6 rook, 7 queen) and its e.p. square. */
function board0x88(fen: string): { bd: Int8Array; ep: number } {
  const bd = new Int8Array(129), TYPE: Record<string, number> = { n: 3, k: 4, b: 5, r: 6, q: 7 };
  fen.split(' ')[0].split('/').forEach((row, r) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) { f += Number(ch); continue; }
      const white = ch === ch.toUpperCase(), t = ch.toLowerCase();
      bd[16 * r + f++] = (white ? 8 : 16) + (t === 'p' ? (white ? 1 : 2) : TYPE[t]);
    }
  });
  const e = fen.split(' ')[3];
  return { bd, ep: e === '-' ? -128 : 16 * (8 - Number(e[1])) + e.charCodeAt(0) - 97 };
}
const name = (s: number): string => 'abcdefgh'[s & 7] + (8 - (s >> 4));

/** The shell's legal moves of the side to move, as e2e4 texts, sorted. */
function shellMoves(fen: string): string[] {
  const { bd, ep } = board0x88(fen), k = fen.split(' ')[1] === 'w' ? 8 : 16;
  const copy = bd.slice(), moves = legalMoves(bd, k, ep).map(([x, y]) => name(x) + name(y)).sort();
  assert.ok(bd.every((v, s) => v === copy[s]), 'the board is left as it was');
  return moves;
}
/** chess.js's, castling left out (the shell leaves it out), one per promotion. */
function fideMoves(chess: Chess): string[] {
  return [...new Set(chess.moves({ verbose: true }).filter((m) => !/[kq]/.test(m.flags)).map((m) => m.from + m.to))].sort();
}

describe('the legal-move test behind "checkmate" and "stalemate"', () => {
  test('the same moves as chess.js in 1000 positions of random games (castling aside)', () => {
    const rng = seededRandom(7);
    let positions = 0;
    while (positions < 1000) {
      const chess = new Chess();
      for (let ply = 0; ply < 200 && positions < 1000; ply++) {
        assert.deepEqual(shellMoves(chess.fen()), fideMoves(chess), chess.fen());
        positions++;
        const moves = chess.moves({ verbose: true });
        if (!moves.length) break;
        // prefer captures and pawn moves now and then, to reach e.p. and promotions
        const sharp = moves.filter((m) => m.captured || m.piece === 'p' || m.san.includes('+'));
        chess.move(rng.pick(sharp.length && rng.chance(0.5) ? sharp : moves));
      }
    }
  });

  const at = (fen: string): { moves: number; check: boolean } => {
    const { bd, ep } = board0x88(fen), k = fen.split(' ')[1] === 'w' ? 8 : 16;
    const king = bd.findIndex((u, s) => !(s & 0x88) && (u & k) !== 0 && (u & 7) === 4);
    return { moves: legalMoves(bd, k, ep).length, check: attacked(bd, king, 24 - k) };
  };
  test('fool\'s mate: no move, in check (checkmate)', () => {
    assert.deepEqual(at('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3'), { moves: 0, check: true });
  });
  test('Loyd\'s 10-move stalemate: no move, not in check (stalemate)', () => {
    assert.deepEqual(at('5bnr/4p1pq/4Qpkr/7p/7P/4P3/PPPP1PP1/RNB1KBNR b KQ - 2 10'), { moves: 0, check: false });
  });
  test('in check with a way out is not the end', () => {
    assert.deepEqual(at('4k3/8/8/8/8/8/3q4/4K3 w - - 0 1'), { moves: 2, check: true });
  });
  test('en passant: taken when legal, not when it bares the king', () => {
    assert.ok(shellMoves('8/8/8/8/3Pp3/8/8/k1K5 b - d3 0 1').includes('e4d3'));
    assert.ok(!shellMoves('8/8/8/8/k2Pp2Q/8/8/4K3 b - d3 0 1').includes('e4d3'));
  });
});
