// What the golden transcripts (the C's own output) really contain, counted by replaying them with
// chess.js: the scripted suite reaches castling, en passant, promotion, mate and stalemate for both
// colours.
//
// time: 5 s

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { test } from 'node:test';
import { replay, type ReplayMove } from './support/boards.ts';
import { SCRIPTS, goldenPath, scriptInput } from './support/scripts.ts';

test('the golden transcripts cover castling, e.p., promotion, mate and stalemate for both colours', (t) => {
  const moves: ReplayMove[] = [];
  let mates = 0, stalemates = 0, rejected = 0;
  for (const s of SCRIPTS) {
    const r = replay(fs.readFileSync(goldenPath(s)), scriptInput(s));
    moves.push(...r.moves);
    mates += r.stays.filter((x) => x.end === 'checkmate').length ? 1 : 0;
    stalemates += r.stays.filter((x) => x.end === 'stalemate').length ? 1 : 0;
    rejected += r.stays.filter((x) => x.by === 'typed').length;
  }
  const count = (color: 'w' | 'b', flag: string): number =>
    moves.filter((m) => m.color === color && m.flags.includes(flag)).length;
  const figures = {
    plies: moves.length, engine: moves.filter((m) => m.by === 'engine').length, rejected,
    castleWhiteShort: count('w', 'k'), castleWhiteLong: count('w', 'q'),
    castleBlackShort: count('b', 'k'), castleBlackLong: count('b', 'q'),
    enPassantWhite: count('w', 'e'), enPassantBlack: count('b', 'e'),
    promotionWhite: count('w', 'p'), promotionBlack: count('b', 'p'),
    promotionCaptures: moves.filter((m) => m.flags.includes('p') && m.captured).length,
    gamesEndingInMate: mates, gamesEndingInStalemate: stalemates,
  };
  t.diagnostic(JSON.stringify(figures));
  for (const [name, value] of Object.entries(figures)) assert.ok(value >= 1, `${name} is ${value}`);
  assert.ok(figures.plies >= 500 && figures.gamesEndingInMate >= 2, JSON.stringify(figures));
});
