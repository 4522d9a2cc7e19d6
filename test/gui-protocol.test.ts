// The two GUI protocols as a GUI (and a careless user) drives them: the handshakes, every error
// form, input no GUI should send, the end of input mid-search, the freeze, FEN set-up against the
// C's own state, how fast it answers while thinking, and a whole game through node-uci.

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { Chess } from 'chess.js';
import { Engine } from 'node-uci';
import { begin, engineThread, fen, type Pos } from '../micromax.ts';
import { replay, seededRandom, nextScore, LOPSIDED, legalTexts } from './boards.ts';
import { whyNoC } from './c-oracle.ts';
import { Session } from './gui.ts';
import { portArgs, portCommand, runC, runPort } from './run.ts';
import { goldenPath, scriptInput, SCRIPTS } from './scripts.ts';

const noC = whyNoC();
const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const bestmoveOf = async (s: Session): Promise<string> => (await s.expect(/^bestmove /)).text.split(' ')[1];
/** Is the text a legal move (promotions to a queen) in the position? */
const legalIn = (chess: Chess, mv: string): boolean => legalTexts(chess).has(mv.slice(0, 4)) &&
  (mv.length === 4 || chess.moves({ verbose: true }).some((m) => m.from + m.to === mv.slice(0, 4) && m.promotion === mv[4]));

describe('UCI', () => {
  test('handshake, options, and an error line for whatever it cannot do', async () => {
    const s = new Session('uci');
    s.send('uci');
    const hello = (await s.upTo(/^uciok$/)).map((l) => l.text);
    assert.match(hello[0], /^id name micro-Max 3\.2 ts \d+\.\d+\.\d+$/);
    assert.ok(hello.includes('option name Faithful type check default false'));
    assert.ok(hello.includes('option name Move Overhead type spin default 50 min 0 max 9999'));
    assert.ok(!hello.some((l) => /option name Hash/.test(l)), 'no Hash option: the table has a fixed size');
    const cases: [string, RegExp][] = [
      ['setoption name Hash value 64', /^info string the hash table has a fixed size .*Hash is ignored$/],
      ['setoption name Threads value 2', /^info string error: no option 'Threads'/],
      ['setoption name Move Overhead value lots', /^info string error: no option 'Move Overhead' with value 'lots'/],
      ['frobnicate now', /^info string error: unknown command 'frobnicate now'$/],
      ['position startpos moves e2e5', /^info string error: e2e5 \(move 1\): illegal in this position; the position is the one before it$/],
      ['position startpos moves e2e4 zz', /^info string error: zz \(move 2\): not a move like e2e4/],
      ['position startpos moves e2e4q', /^info string error: e2e4q \(move 1\): not a promotion/],
      ['position fen 8/4P3/8/8/8/8/k7/4K3 w - - 0 1 moves e7e8n', /^info string error: e7e8n \(move 1\): micro-Max 3\.2 promotes only to a queen/],
      ['position banana', /^info string error: no position \(position wants startpos or fen <FEN>, then moves\)$/],
    ];
    for (const [line, re] of cases) { s.send(line); await s.expect(re, 10_000); }
    s.send('isready');
    await s.expect(/^readyok$/);
    s.send('position fen 8/4P3/8/8/8/8/k7/4K3 w - - 0 1 moves e7e8q', 'go depth 2');  // a queen is fine
    assert.match(await bestmoveOf(s), /^[a-h][1-8][a-h][1-8]$/);
    s.send('stop', 'stop', 'isready');                                 // nothing running: nothing to say
    await s.expect(/^readyok$/);
    assert.equal((await s.close()).code, 0);
    assert.equal(s.stderr, '');
  });

  test('go before any position searches the start; searchmoves is said to be ignored', async () => {
    const s = new Session('uci');
    s.send('go depth 3');
    assert.ok(legalIn(new Chess(), await bestmoveOf(s)));
    s.send('go depth 2 searchmoves e2e4');
    await s.expect(/^info string searchmoves and mate are not supported: ignored$/);
    await s.expect(/^bestmove /);
    assert.equal((await s.close()).code, 0);
  });
});

describe('xboard', () => {
  test('handshake, ping, and the protocol\'s error forms', async () => {
    const s = new Session('xboard');
    s.send('xboard', 'protover 2');
    const f = (await s.expect(/^feature /)).text;
    for (const x of ['setboard=1', 'ping=1', 'usermove=1', 'sigint=0', 'sigterm=0', 'myname="micro-Max 3.2', 'done=1']) assert.ok(f.includes(x), x);
    assert.ok(f.endsWith('done=1'));
    const cases: [string, RegExp][] = [
      ['frobnicate', /^Error \(unknown command\): frobnicate$/],
      ['usermove e2e5', /^Illegal move \(illegal in this position\): e2e5$/],
      ['usermove e2', /^Illegal move \(not a move like e2e4\): e2$/],
      ['level 40 x 0', /^Error \(bad level\): level 40 x 0$/],
      ['st soon', /^Error \(wants a number\): st soon$/],
      ['variant suicide', /^Error \(only normal chess\): variant suicide$/],
      ['undo', /^Error \(no move to take back\): undo$/],
      ['setboard 8/8/8/8/8/8/8/8 w - - 0 1', /^tellusererror Illegal position: white needs one king$/],
      ['usermove e2e4', /^Illegal move \(no position \(white needs one king\)\): e2e4$/],
      ['setboard 8/4P3/8/8/8/8/k7/4K3 w - - 0 1', /^pong 1$/],
    ];
    s.send('new', 'force');
    for (const [line, re] of cases) { s.send(line); if (line.startsWith('setboard 8/4P')) s.send('ping 1'); await s.expect(re, 10_000); }
    s.send('usermove e7e8n');
    await s.expect(/^Illegal move \(micro-Max 3\.2 promotes only to a queen\): e7e8n$/);
    s.send('usermove e7e8q', 'usermove a2b2', 'remove', 'usermove e7e8q', 'ping 2');    // remove takes both back
    await s.expect(/^pong 2$/);
    assert.ok(!s.lines.some((l) => /^(Illegal|Error)/.test(l.text) && l.text.includes('e7e8q')));
    s.send('new', 'sd 4', 'usermove e2e4');                           // playing black: it answers
    await s.expect(/^move [a-h][1-8][a-h][1-8]$/);
    const after = s.lines.length;
    s.send('result 1-0 {White resigns}', 'usermove d2d4', 'ping 3');  // after result: force mode
    await s.expect(/^pong 3$/);
    assert.ok(!s.lines.slice(after).some((l) => l.text.startsWith('move')));
    assert.equal((await s.close()).code, 0);
    assert.equal(s.stderr, '');
  });

  test('it claims the result when its move ends the game, and when it is mated', async () => {
    const s = new Session('xboard');
    s.send('xboard', 'protover 2', 'new', 'force', 'setboard 7k/8/6K1/8/8/8/8/1Q6 w - - 0 1', 'sd 4', 'go');
    await s.expect(/^move b1b8$/);
    await s.expect(/^1-0 \{White mates\}$/);
    s.send('new', 'force', 'setboard 1Q5k/8/6K1/8/8/8/8/8 b - - 0 1', 'go');
    await s.expect(/^1-0 \{White mates\}$/);
    s.send('new', 'force', 'setboard 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', 'go');
    await s.expect(/^1\/2-1\/2 \{Stalemate\}$/);
    assert.equal((await s.close()).code, 0);
  });
});

describe('input no GUI should send', () => {
  const rng = seededRandom(7);
  const junk = Buffer.from(Array.from({ length: 200_000 }, () => rng.int(256)));
  const huge = Buffer.concat([Buffer.from('position startpos moves '), Buffer.alloc(1 << 20, 'e2e4 ')]);
  const disorder = ['go', 'stop', 'bestmove e2e4', 'position', 'position fen', 'position startpos moves', 'moves e2e4',
    'setoption', 'setoption name', 'go wtime', 'go wtime -5 btime abc', 'go movetime 0', 'go depth 0', 'go nodes -3', 'ponderhit',
    'ucinewgame', 'level', 'time', 'otim', 'usermove', 'protover', 'sd -1', 'st 0', '?', 'undo', 'remove', 'setboard', 'ping'];
  for (const protocol of ['uci', 'xboard'] as const) {
    test(`${protocol}: 200 kB of random bytes, a 1 MB line and commands out of order: it still answers, exits 0`, async () => {
      const s = new Session(protocol), t0 = performance.now();
      if (protocol === 'xboard') s.send('xboard', 'protover 2');
      s.proc.stdin.write(junk);
      s.proc.stdin.write(Buffer.concat([Buffer.from('\n'), huge, Buffer.from('\n')]));
      for (const l of disorder) s.send(l);
      s.send(protocol === 'uci' ? 'isready' : 'ping 99');
      await s.expect(protocol === 'uci' ? /^readyok$/ : /^pong 99$/, 120_000);
      assert.ok(s.lines.some((l) => /a line of more than 16384 bytes is ignored/.test(l.text)));
      s.send(protocol === 'uci' ? 'position startpos moves e2e4' : 'new', protocol === 'uci' ? 'go depth 3' : 'usermove e2e4');
      const mv = (await s.expect(protocol === 'uci' ? /^bestmove / : /^move /)).text.split(' ')[1];
      const chess = new Chess(); chess.move('e4');
      assert.ok(legalIn(chess, mv), mv);
      const r = await s.close();
      assert.equal(r.code, 0);
      assert.equal(s.stderr, '');
      for (const l of s.lines) assert.match(l.text, /^[ -~]*$/, 'only printable ASCII goes out');
      const secs = (performance.now() - t0) / 1000;
      assert.ok(secs < 90, `${secs.toFixed(1)} s`);
    });
  }
  test('end of input in mid-search: the move still comes, then exit 0 (UCI infinite, UCI movetime, xboard)', async () => {
    for (const [protocol, lines, re] of [['uci', ['position startpos', 'go infinite'], /^bestmove /],
      ['uci', ['position startpos moves e2e4', 'go movetime 1500'], /^bestmove /],
      ['xboard', ['xboard', 'protover 2', 'new', 'st 1', 'usermove e2e4'], /^move /]] as const) {
      const s = new Session(protocol);
      s.send(...lines);
      await wait(2000);
      const r = await s.close(false);
      assert.equal(r.code, 0, `${protocol} ${lines.at(-1)}`);
      assert.ok(s.lines.some((l) => re.test(l.text)), `${protocol} ${lines.at(-1)}: no move before the exit`);
    }
  });
});

/** A seeded game in which White takes all it can and Black gives all it has, until Black is more
 *  than 2000 points behind (the C's freeze) with Black to move. */
function lopsided(): string[] {
  const value = (m: { captured?: string }): number => -nextScore(0, { captured: m.captured, flags: '' });
  for (let seed = 1; seed < 100; seed++) {
    const rng = seededRandom(seed, 2000), chess = new Chess(), moves: string[] = [];
    let score = 0;
    while (chess.moves().length && moves.length < 300 && (Math.abs(score) <= LOPSIDED || chess.turn() !== 'b')) {
      const all = chess.moves({ verbose: true }).filter((m) => !m.promotion || m.promotion === 'q'), quiet = all.filter((m) => !m.captured);
      const m = chess.turn() === 'w' ? all.reduce((a, b) => (value(b) > value(a) ? b : a), rng.pick(all)) : rng.pick(quiet.length ? quiet : all);
      moves.push(m.from + m.to + (m.promotion ?? '')); chess.move(m);
      score = nextScore(score, m);
    }
    if (Math.abs(score) > LOPSIDED && chess.turn() === 'b' && chess.moves().length) return moves;
  }
  throw new Error('no seed gave a lopsided game');
}

describe('the freeze (one side 2000 points ahead)', () => {
  test('Faithful: no move, as the C (which prints its board unchanged); a GUI move refused, as the C refuses it', async () => {
    const moves = lopsided(), s = new Session('uci'), pos = `position startpos moves ${moves.join(' ')}`;
    s.send('setoption name Faithful value true', pos, 'go nodes 2000');
    await s.expect(/^info string frozen: micro-Max 3\.2 moves no more once one side is 2000 points ahead \(-\d+ here\)/);
    assert.equal(await bestmoveOf(s), '0000');
    const reply = [...legalTexts(replayChess(moves))][0];
    s.send(`${pos} ${reply}`);
    await s.expect(new RegExp(`^info string error: ${reply} \\(move ${moves.length + 1}\\): micro-Max 3\\.2 takes no move once one side is 2000 points ahead`));
    const input = moves.map((m) => `${m}\n`).join('') + '\n', c = noC ? await runPort(input, portArgs({ nodes: 2000 })) : await runC(input, { nodes: 2000 });
    const r = replay(c.stdout, input);
    assert.equal(r.moves.length, moves.length, 'the C made no move either');
    assert.equal((await s.close()).code, 0);
  });
  test('default: a labelled fallback moves, and accepts moves; xboard resigns the lost side', async () => {
    const moves = lopsided(), chess = replayChess(moves), s = new Session('uci');
    s.send(`position startpos moves ${moves.join(' ')}`, 'go nodes 2000');
    await s.expect(/^info string .*fallback: frozen at -\d+, so searched as if -500/);
    const mv = await bestmoveOf(s);
    assert.ok(legalIn(chess, mv), mv);
    chess.move({ from: mv.slice(0, 2), to: mv.slice(2, 4), promotion: mv[4] });
    const reply = chess.moves({ verbose: true })[0];
    s.send(`position startpos moves ${[...moves, mv, reply.from + reply.to + (reply.promotion ?? '')].join(' ')}`, 'isready');
    await s.expect(/^readyok$/);
    assert.ok(!s.lines.some((l) => /error/.test(l.text)));
    assert.equal((await s.close()).code, 0);
    const x = new Session('xboard');
    x.send('xboard', 'protover 2', 'new', 'force', 'setboard qqq1k3/8/8/8/8/8/8/4K3 w - - 0 1', 'go');
    await x.expect(/^resign$/);
    x.send('new', 'force', 'setboard 4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1', 'go');
    await x.expect(/^# .*fallback: frozen at 2673/);
    await x.expect(/^move /);
    assert.equal((await x.close()).code, 0);
  });
  test('a won game ends in mate: the fallback (three queens up) against random moves', async () => {
    const s = new Session('uci'), chess = new Chess('4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1'), rng = seededRandom(3), moves: string[] = [];
    while (!chess.isGameOver() && moves.length < 120) {
      let mv: string;
      if (chess.turn() === 'w') {
        s.send(`position fen 4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1${moves.length ? ` moves ${moves.join(' ')}` : ''}`, 'go nodes 20000');
        mv = await bestmoveOf(s);
      } else { const m = rng.pick(chess.moves({ verbose: true })); mv = m.from + m.to + (m.promotion ?? ''); }
      chess.move({ from: mv.slice(0, 2), to: mv.slice(2, 4), promotion: mv[4] });
      moves.push(mv);
    }
    assert.ok(chess.isCheckmate() && chess.turn() === 'b', `after ${moves.length} plies: ${chess.fen()}`);
    assert.equal((await s.close()).code, 0);
  });
});
function replayChess(moves: string[], from?: string): Chess {
  const chess = new Chess(from);
  for (const m of moves) chess.move({ from: m.slice(0, 2), to: m.slice(2, 4), promotion: m[4] });
  return chess;
}

describe('FEN', () => {
  test('what a FEN sets up is what the C\'s own moves build: pieces, castling rights, e.p., side, and Q', async (t) => {
    begin();
    const w = engineThread(new Int32Array(new SharedArrayBuffer(4))), replies: ((p: { ok?: boolean; pos?: Pos }) => void)[] = [];
    w.on('message', (m: unknown) => { if (!Array.isArray(m)) replies.shift()?.(m as { ok?: boolean; pos?: Pos }); });
    const ask = (job: object): Promise<{ ok?: boolean; pos?: Pos }> => new Promise((res) => { replies.push(res); w.postMessage(job); });
    const at88 = (s: string): number => 16 * (56 - s.charCodeAt(1)) + s.charCodeAt(0) - 97;
    let checked = 0, epChecked = 0, castleRights = 0;
    for (const name of ['mixed-1e4', 'random-games', 'engine-1e3']) {
      const sc = SCRIPTS.find((x) => x.name === name)!, r = replay(fs.readFileSync(goldenPath(sc)), scriptInput(sc));
      await ask({ set: fen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1') });
      let promo = { w: 0, b: 0 };
      for (const m of r.moves) {
        if (!m.fide) break;                                            // (a castling FIDE forbids: no FEN follows it)
        const got = await ask({ play: [at88(m.from), at88(m.to)] });
        assert.ok(got.ok, `${name}: ${m.san}`);
        if (m.promotion) promo = { ...promo, [m.color]: promo[m.color] + 1 };
        const c = got.pos!, f = fen(m.fenAfter);
        assert.ok(typeof f !== 'string', `${m.fenAfter}: ${f}`);
        const [, turn, rights, ep] = m.fenAfter.split(' '), us = turn === 'w' ? 'w' : 'b', them = us === 'w' ? 'b' : 'w';
        for (let s = 0; s < 120; s++) if (!(s & 0x88)) assert.equal(f.b[s] & 31, c.b[s] & 31, `${name} ${m.fenAfter}: square ${s}`);
        for (const [right, k, rook] of [['K', 0x74, 0x77], ['Q', 0x74, 0x70], ['k', 0x04, 0x07], ['q', 0x04, 0x00]] as const) {
          const can = (b: Int8Array): boolean => (b[k] & 32) > 0 && (b[rook] & 32) > 0;
          assert.equal(can(f.b), rights.includes(right), `${m.fenAfter}: FEN right ${right}`);
          assert.equal(can(c.b), rights.includes(right), `${m.fenAfter}: the C's right ${right}`);
          castleRights += +rights.includes(right);
        }
        assert.equal(f.k, c.k);
        if (ep !== '-') { assert.equal(f.O, c.O, `${m.fenAfter}: e.p.`); epChecked++; }
        assert.equal(c.Q - f.Q, 7 * (promo[us] - promo[them]), `${m.fenAfter}: Q (the C counts a promotion as 799, a queen as 891)`);
        checked++;
      }
    }
    await w.terminate();
    t.diagnostic(`${checked} positions, ${epChecked} with an e.p. square, ${castleRights} castling rights`);
    assert.ok(checked > 500 && epChecked > 0);
  });
  test('bad FENs and FENs micro-Max cannot hold get an error, never a crash', async () => {
    const s = new Session('uci');
    const bad: [string, RegExp][] = [
      ['', /the board needs 8 ranks, not 1/], ['8/8/8/8/8/8/8 w - - 0 1', /8 ranks, not 7/],
      ['rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', /rank 6 .* is not 8 squares/],
      ['rnbqkbnr/pppppppp/7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', /rank 6 .* is not 8 squares/],
      ['rnbqkbnx/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', /rank 8 .* PNBRQK/],
      ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1', /side to move is w or b, not 'x'/],
      ['rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1', /black needs one king/],
      ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w kq - 0 1', /white needs one king/],
      ['P3k3/8/8/8/8/8/8/4K3 w - - 0 1', /a pawn on the first or last rank/],
      ['4k3/8/8/8/8/8/8/p3K3 w - - 0 1', /a pawn on the first or last rank/],
      ['4k3/8/8/8/8/8/8/4K3 w KQ - 0 1', /castling right K needs the king and that rook at home/],
      ['4k3/8/8/8/8/8/8/4K3 w HAha - 0 1', /castling rights are KQkq or -, not 'HAha'/],
      ['4k3/8/8/8/8/8/8/4K3 w - e3 0 1', /no pawn can have skipped 'e3'/],
      ['4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1', /no pawn can have skipped 'e4'/],
      ['R3k3/8/8/8/8/8/8/4K3 w - - 0 1', /black is in check but not to move/],
    ];
    for (const [f, re] of bad) {
      s.send(`position fen ${f}`, 'go depth 2');
      const out = await s.upTo(/^bestmove /, 20_000);
      assert.ok(out.some((l) => /^info string error: no position \(/.test(l.text) && re.test(l.text)), `${f}:\n${out.map((l) => l.text).join('\n')}`);
      assert.equal(out.at(-1)!.text, 'bestmove 0000');
    }
    s.send('position fen 4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1', 'go depth 3');  // a good one after the bad ones
    assert.match(await bestmoveOf(s), /^e8/);
    assert.equal((await s.close()).code, 0);
  });
});

describe('answers while thinking, and on time', () => {
  test('UCI: isready and stop during a search, a movetime deadline, a clock (generous bounds; numbers in the bench)', async (t) => {
    const s = new Session('uci');
    s.send('uci', 'isready');
    await s.expect(/^readyok$/);
    const ready: number[] = [], stop: number[] = [], late: number[] = [];
    for (let k = 0; k < 4; k++) {
      s.send(`position startpos moves e2e4 e7e5${k % 2 ? ' g1f3' : ''}`, 'go infinite');
      await wait(700 + 300 * k);
      const t1 = s.send('isready');
      ready.push((await s.expect(/^readyok$/)).t - t1);
      const t2 = s.send('stop');
      stop.push((await s.expect(/^bestmove /)).t - t2);
      const t3 = s.send('position startpos moves d2d4', 'go movetime 400');
      late.push((await s.expect(/^bestmove /)).t - t3 - 400);
    }
    const t4 = s.send('position startpos', 'go wtime 300 btime 300');  // 0.3 s left in all
    const used = (await s.expect(/^bestmove /)).t - t4;
    t.diagnostic(`isready while thinking ${ready.map((x) => x.toFixed(0)).join(' ')} ms; stop ${stop.map((x) => x.toFixed(0)).join(' ')} ms; ` +
      `movetime 400 overrun ${late.map((x) => x.toFixed(0)).join(' ')} ms; 300 ms left: ${used.toFixed(0)} ms used`);
    for (const x of [...ready, ...stop]) assert.ok(x < 1000, `${x} ms`);
    for (const x of late) assert.ok(x < 1000, `movetime overrun ${x} ms`);
    assert.ok(used < 300, `${used} ms of 300`);
    assert.equal((await s.close()).code, 0);
  });
  test('xboard: ? moves at once; a ping while it thinks is answered after its move', async (t) => {
    const s = new Session('xboard');
    s.send('xboard', 'protover 2', 'new', 'level 0 60 0', 'time 360000', 'otim 360000', 'ping 1');
    await s.expect(/^pong 1$/);
    s.send('usermove e2e4');
    await wait(600);
    const t1 = s.send('ping 2', '?');
    const mv = await s.expect(/^move /), pong = await s.expect(/^pong 2$/);
    t.diagnostic(`? to move: ${(mv.t - t1).toFixed(0)} ms`);
    assert.ok(mv.t - t1 < 1000 && s.lines.indexOf(mv) < s.lines.indexOf(pong));
    assert.equal((await s.close()).code, 0);
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
    for (const x of step) assert.ok(x < 250, `${x} ms`);
    assert.equal((await s.close()).code, 0);
  });
});

test('a whole game through node-uci (a UCI client library): micro-Max on a clock against random moves, to the end', async (t) => {
  const [cmd, argv] = portCommand(['--uci']), dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-uci-'));
  const exe = path.join(dir, 'micromax-uci');
  fs.writeFileSync(exe, `#!/bin/sh\nexec ${[cmd, ...argv].map((a) => `'${a}'`).join(' ')} "$@"\n`, { mode: 0o755 });
  const engine = new Engine(exe);
  await engine.init();
  assert.match(engine.id.name ?? '', /^micro-Max 3\.2/);
  assert.ok(engine.options.has('Faithful'));
  await engine.ucinewgame();
  await engine.isready();
  const chess = new Chess(), rng = seededRandom(5), moves: string[] = [];
  let clock = 20_000, most = 0;                                       // 20 s + 0.2 s a move for micro-Max
  while (!chess.isGameOver() && moves.length < 400) {
    let mv: string;
    if (chess.turn() === 'w') {
      await engine.position('startpos', moves);
      const t0 = performance.now(), r = await engine.go({ wtime: Math.round(clock), btime: 20_000, winc: 200, binc: 200 });
      const used = performance.now() - t0;
      clock -= used; most = Math.max(most, used);
      assert.ok(clock > 0, `out of time at ply ${moves.length}`);
      clock += 200;
      mv = r.bestmove;
      assert.ok(r.info.some((i) => i.depth !== undefined && i.score !== undefined && i.pv), 'info lines with depth, score, pv');
      assert.ok(legalIn(chess, mv), `ply ${moves.length}: ${mv} in ${chess.fen()}`);
    } else { const m = rng.pick(chess.moves({ verbose: true })); mv = m.from + m.to + (m.promotion ?? ''); }
    chess.move({ from: mv.slice(0, 2), to: mv.slice(2, 4), promotion: mv[4] });
    moves.push(mv);
  }
  await engine.quit();
  fs.rmSync(dir, { recursive: true, force: true });
  t.diagnostic(`${moves.length} plies, ${chess.isCheckmate() ? 'checkmate' : 'a draw by rule'}; slowest move ${most.toFixed(0)} ms, ${(clock / 1000).toFixed(1)} s left`);
  assert.ok(chess.isCheckmate() && chess.turn() === 'b', `${moves.length} plies: ${chess.fen()}`);
});
