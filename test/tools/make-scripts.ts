// npm run make-scripts
// Writes `test/fixtures/inputs/<name>.in`, the inputs listed in `test/support/scripts.ts`. Typed
// games are checked move by move with chess.js so that what should be legal really is. After it,
// run `npm run golden` (with `MICROMAX_C`) for the C's transcripts of the new inputs.
//
// time: seconds

import { Chess } from 'chess.js';
import * as fs from 'node:fs';
import { mulberry32 } from '../support/boards.ts';
import { readOptions } from '../support/options.ts';
import { SCRIPTS, scriptPath } from '../support/scripts.ts';

readOptions('make-scripts', 'usage: npm run make-scripts\n  writes test/fixtures/inputs/ from test/support/scripts.ts (no options)', {});

/** Moves that chess.js must find legal, in order, from the initial position. */
function legal(line: string): string {
  const game = new Chess();
  for (const m of line.split(' ')) game.move({ from: m.slice(0, 2), to: m.slice(2, 4), promotion: 'q' });
  return line.split(' ').map((m) => m + '\n').join('');
}

/** A move that chess.js must find illegal after `before` (for rejected inputs). */
function illegal(before: string, move: string): string {
  const game = new Chess();
  for (const m of before.split(' ')) game.move({ from: m.slice(0, 2), to: m.slice(2, 4), promotion: 'q' });
  const ok = game.moves({ verbose: true }).some((x) => x.from === move.slice(0, 2) && x.to === move.slice(2, 4));
  if (ok) throw new Error(`${move} is legal after ${before}`);
  return move + '\n';
}

/** A random legal game, typed, that seeks castling, e.p. and promotion; with rejected tries. */
function randomGame(seed: number, plies: number): string {
  const rnd = mulberry32(seed), game = new Chess(), files = 'abcdefgh';
  let out = '';
  for (let ply = 0; ply < plies && !game.isGameOver(); ply++) {
    const moves = game.moves({ verbose: true });
    if (rnd() < 0.1) {                                   // a try that must be rejected
      const sq = (): string => files[Math.floor(rnd() * 8)] + String(1 + Math.floor(rnd() * 8));
      const t = sq() + sq();
      if (!moves.some((m) => m.from + m.to === t)) out += t + '\n';
    }
    const special = moves.filter((m) => /[kqep]/.test(m.flags));
    const captures = moves.filter((m) => m.captured);
    const pool = special.length && rnd() < 0.9 ? special : captures.length && rnd() < 0.4 ? captures : moves;
    const m = pool[Math.floor(rnd() * pool.length)];
    game.move({ from: m.from, to: m.to, promotion: 'q' });
    out += m.from + m.to + '\n';
  }
  return out + '\n';
}

const italian = 'e2e4 e7e5 g1f3 b8c6 f1c4 f8c5';
const outOfCheck = 'e2e4 e7e5 g1f3 g8f6 f1e2 b8c6 d2d3 f8b4';
const through = 'e2e3 b7b6 g2g3 c8a6 f1g2 b8c6 g1f3 g8f6';
const into = 'f2f4 e7e6 g1f3 f8c5 g2g3 g8f6 f1h3 d7d6';
const blackThrough = 'b2b3 g7g6 c1a3 f8g7 b1c3 g8f6 g1f3 e7e5 e2e3';
const epLate = 'e2e4 a7a6 e4e5 d7d5 a2a3 h7h6';
const pin = 'e2e4 e7e5 g1f3 d7d6 f1b5 c7c6 b5a4';
// Black to move: Bb4-e7 lets the a4 queen take the f4 knight, and that call's key folds to the
// table's last slot but one, 16777215: its probe reads entry 16777216 (test/README.md).
const tableEdge = 'c2c3 e7e6 d1a4 f8b4 b1a3 g8f6 a3b1 f6h5 b1a3 h5f4 a3b1';
// Every piece taken but the kings (Kb3, Kg5, white to move): a search that no node limit stops, only
// its last pass (d = 97, the trace's 96 ply; the loop ends as d becomes 98).
const lastPass = 'h2h3 d7d6 b2b3 c8h3 h1h3 a7a6 h3h7 h8h7 g1h3 h7h3 g2h3 f7f6 ' +
  'c2c3 c7c6 h3h4 b7b5 d2d3 g7g5 h4g5 f6g5 c1g5 b8d7 g5e7 g8e7 ' +
  'e2e4 e7f5 e4f5 b5b4 c3b4 c6c5 b4c5 d6c5 d3d4 c5d4 b1c3 d4c3 ' +
  'f1a6 a8a6 d1d7 e8d7 f5f6 a6a2 a1a2 d8f6 a2b2 f6f2 e1f2 c3b2 ' +
  'b3b4 f8b4 f2e2 b4d2 e2d2 d7e8 d2c2 e8e7 c2b2 e7f6 b2b3 f6g5';

const inputs: Record<string, string> = {
  'castle-kingside': legal('e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1g1 e8g8') + '\n',
  'castle-queenside': legal('d2d4 d7d5 b1c3 b8c6 c1f4 c8f5 d1d2 d8d7 e1c1 e8c8') + '\n',
  'castle-out-of-check': legal(outOfCheck) + illegal(outOfCheck, 'e1g1') + legal(outOfCheck + ' c2c3').slice(-5) + '\n',
  'castle-through-check': legal(through) + illegal(through, 'e1g1') + legal(through + ' b1c3').slice(-5) + '\n',
  'castle-into-check': legal(into) + illegal(into, 'e1g1') + legal(into + ' d2d4').slice(-5) + '\n',
  'castle-black-refused': legal(blackThrough) + illegal(blackThrough, 'e8g8') +
    legal(blackThrough + ' d7d6 f1e2 e8g8').slice(-15) + '\n',
  'en-passant': legal('e2e4 a7a6 e4e5 d7d5 e5d6 c7c5 a2a3 c5c4 d2d4 c4d3') + '\n',
  'en-passant-late': legal(epLate) + illegal(epLate, 'e5d6') + legal(epLate + ' e5e6').slice(-5) + '\n',
  'promotion': legal('h2h4 g7g5 h4g5 h7h5 g5g6 h5h4 g6g7 h4h3 g7h8 h3g2 g1f3 g2g1') + '\n\n',
  'checkmate-typed': legal('f2f3 e7e5 g2g4 d8h4') + '\n\n' + illegal('f2f3 e7e5 g2g4 d8h4', 'e2e4'),
  'checkmate-by-engine': legal('f2f3 e7e5 g2g4') + '\n\n\n',
  'stalemate': legal('e2e3 a7a5 d1h5 a8a6 h5a5 h7h5 h2h4 a6h6 a5c7 f7f6 c7d7 e8f7 d7b7 d8d3 b7b8 d3h7 ' +
    'b8c8 f7g6 c8e6') + '\n\n',
  'illegal-inputs': 'e7e5\ne2e5\ni2i4\nz9z9\n\xff\xfe\x80\x81\ne2\ne\n\n' + // wrong colour .. short
    'e2e4\r\ne7e5\tg1f3\0d7d6\n' +                                          // CR, tab, NUL ends
    'f1b5\n' + illegal('e2e4 e7e5 g1f3 d7d6 f1b5', 'g8f6') +               // must answer the check
    'c7c6\nb5a4\n' + illegal(pin, 'c6c5') + 'g8f6\n\n',                     // pinned pawn
  'eof-mid-line': 'e2e4\ne7e5\ng1f',
  'eof-mid-move': 'e2e4\ne7e5\ng1f3',
  'rejected-then-empty': 'e2e5\n\n\n\ne2e4\n\n\n',
  'char-wrap': 'eBeD\n\n',
  'stale-buffer': 'zze4\n\xe5\n\n',
  'eight-byte-lines': 'e2e4abcd\ne7e5WXYZ\ng1f3    \n\n',
  // (test/README.md, "The scripts of what ports trip on", says why each of these is there)
  'crlf-line-ends': 'e2e4\r\n\r\ng8f6\r\n\r\n\n',                       // a lone CR LF is no empty line
  'cr-line-ends': 'e2e4\r\r\nd7\rd5\ne7e5\r\r\r\n\r\r\n\n',              // a CR ends no line
  'eof-after-1': 'zze4\n5',                                          // 5, -1 and the stale e4: e2e4
  'eof-after-2': 'e2e4\ne7',                                         // e7, -1: no L is a square
  'eof-after-3': 'e2%',                                               // e2%, -1: e2e3
  'four-byte-lines': 'e2\xc5\ne7\xa5\tg16\0b8c6\n\n',                     // c[3] the line's end: e2e4 e7e5 g1f3
  'long-lines': `e2e4${'x'.repeat(252)}d2d4${'y'.repeat(40)}\ne7e5ABCDE\ng1f3abcdefghijkl\n\n`,
  'table-edge': legal(tableEdge) + '\n',
  'last-pass': legal(lastPass) + '\n',
  'node-limit-exact': legal('e2e4 d7d5') + '\n',                        // at --nodes 35: a pass ends at N = 35
  'engine-1e3': '\n'.repeat(300),
  'engine-1e4': '\n'.repeat(150),
  'engine-1e5': '\n'.repeat(120),
  'mixed-1e4': legal(italian) + '\n'.repeat(60),
  'random-games': randomGame(1, 160),
  'default-trace': '\n',
  'default-e2e4': 'e2e4\n\n',
};

for (const s of SCRIPTS) {
  const text = inputs[s.name];
  if (text === undefined) throw new Error(`no input written for ${s.name}`);
  fs.writeFileSync(scriptPath(s), Buffer.from(text, 'latin1'));
}
const extra = Object.keys(inputs).filter((k) => !SCRIPTS.some((s) => s.name === k));
if (extra.length) throw new Error(`inputs without a script entry: ${extra.join(', ')}`);
console.log(`wrote ${SCRIPTS.length} scripts`);
