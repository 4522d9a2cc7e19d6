// The two GUI protocols as a GUI (and a careless user) drives them: the UCI and xboard handshakes
// (through tsx from `micromax.ts` too), the options and xboard's features as `micromax.ts` declares
// them (`FAITHFUL`, `SPINS`, `XB_FEATURES`), every error form and option message; unknown words
// before a UCI command skipped; no info string with a word a relay reads as a number, and none in a
// game without `debug on`; no move for a position it does not hold (a bad FEN, an illegal move, a
// line too long to read, one dropped mid-search: the search cut first, UCI's `bestmove`, no xboard
// move); castlings FIDE forbids, sent by the GUI, refused as the engine's own are; under-promotions
// in both protocols, Faithful on and off; input no GUI should send (200 kB of random bytes, a 1 MB
// line, commands out of order); the freeze in both modes, and a won game played to mate by the
// fallback; FEN set-ups against the C's own state after its moves, in more than 500 positions.
// Never wedged, never the wrong side: `uci`, `isready`, `protover`, `ping`, `stop` and `?` answered
// at once while it thinks (with a deadline too); every `go` on the GUI's last position; a refused
// xboard move keeps the game; a refused `undo` or `remove` keeps the search (one taken drops it,
// then it thinks if on move); the end of input ends a search with its move; `stop` or `?` before
// `quit` keeps the move; pass lines name only FIDE-legal moves, at depths that never go back;
// `--uci --xboard` is refused. Time and stopping: `gui-clock.test.ts`; a closed stdout, in every
// state: `gui-ending.test.ts`.
//
// time: 52 s

import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { describe, test } from 'node:test';
import { Chess } from 'chess.js';
import { begin, FAITHFUL, fen, openEngineThread, SPINS, XB_FEATURES } from '../micromax.ts';
import { replay, seededRandom, nextScore, LOPSIDED, legalTexts } from './support/boards.ts';
import { whyNoC } from './support/c-oracle.ts';
import { bestmoveOf, legalIn, replayChess, Session, type Line } from './support/gui.ts';
import { portArgs, runC, runPort } from './support/run.ts';
import { goldenPath, scriptInput, SCRIPTS } from './support/scripts.ts';

const noC = whyNoC();

// Without debug on, a UCI game sends no info string (polyglot would show each as a thinking
// line): a test that reads the asides (how to replay, fallbacks, what is ignored) turns it on.
function uciWithAsides(opts?: { source?: boolean; args?: string[] }): Session {
  const s = new Session('uci', opts);
  s.send('debug on');
  return s;
}

describe('UCI', () => {
  // from micromax.ts through tsx: its engine thread then loads the .ts file itself (tsImport)
  test('handshake, options, and an error line for whatever it cannot do (micromax.ts through tsx)', async () => {
    const s = uciWithAsides({ source: true });
    s.send('uci');
    const hello = (await s.upTo(/^uciok$/)).map((l) => l.text);
    assert.match(hello[0], /^id name micro-Max 3\.2 ts \d+\.\d+\.\d+$/);
    // the options as micromax.ts declares them (FAITHFUL, SPINS), each said once, in that order
    const spins = SPINS.map((o) => `option name ${o.name} type spin default ${o.default} min ${o.min} max ${o.max}`);
    assert.deepEqual(hello.filter((l) => l.startsWith('option ')), [`option name ${FAITHFUL.name} type check default ${FAITHFUL.default}`, ...spins]);
    assert.ok(hello.includes('option name Faithful type check default false'));
    assert.ok(hello.includes('option name Hash type spin default 176 min 1 max 33554432'), 'Hash: any size a runner sends');
    assert.ok(hello.includes('option name Threads type spin default 1 min 1 max 1'));
    const cases: [string, RegExp][] = [
      ['setoption name Hash value 64', /^info string Hash 64 taken, but the hash table stays 176 MiB \(2\^24 \+ 8 entries, micro-Max 3\.2's own size\)$/],
      ['setoption name Threads value 2', /^info string error: Threads is a whole number from 1 to 1 \(micro-Max searches in one thread\), not '2'$/],
      ['setoption name Hash value lots', /^info string error: Hash is a whole number from 1 to 33554432 \(MiB\), not 'lots'$/],
      ['setoption name Contempt value 2', new RegExp(`^info string error: no option 'Contempt'; there are ${[FAITHFUL, ...SPINS].map((o) => o.name).join(', ')}$`)],
      ['setoption name Move Overhead value lots', /^info string error: Move Overhead is a whole number from 0 to 9999 \(ms\), not 'lots'$/],
      ['setoption name Move Overhead value 10000', /^info string error: Move Overhead is a whole number from 0 to 9999 \(ms\), not '10000'$/],
      ['setoption name  Move   Overhead  value  abc', /^info string error: Move Overhead is a whole number from 0 to 9999 \(ms\), not 'abc'$/],
      ['setoption name Faithful value', /^info string error: Faithful is true or false, not ''$/],
      ['setoption value 3', /^info string error: setoption wants name <option> value <value>$/],
      ['frobnicate now', /^info string error: unknown command 'frobnicate now'$/],
      ['constructor', /^info string error: unknown command 'constructor'$/],
      ['position startpos moves e2e5', /^info string error: no position: e2e5 \(move 1\): illegal in this position$/],
      ['position startpos moves e2e4 zz', /^info string error: no position: zz \(move 2\): not a move like e2e4$/],
      ['position startpos moves e2e4q', /^info string error: no position: e2e4q \(move 1\): not a promotion$/],
      ['position banana', /^info string error: no position: position wants startpos or fen <FEN>, then moves$/],
    ];
    for (const [line, re] of cases) { s.send(line); await s.expect(re, 10_000); }
    s.send('isready');
    await s.expect(/^readyok$/);
    s.send('position fen 8/4P3/8/8/8/8/k7/4K3 w - - 0 1 moves e7e8q', 'go depth 2');  // a queen is micro-Max's own
    const mv = await bestmoveOf(s), from = s.lines.length;
    assert.ok(legalIn(replayChess(['e7e8q'], '8/4P3/8/8/8/8/k7/4K3 w - - 0 1'), mv), mv);
    s.send('stop', 'stop', 'isready');                                 // nothing running: nothing to say
    await s.expect(/^readyok$/);
    assert.deepEqual(s.since(from), ['readyok'], 'a stop with no search under way answers nothing');
    assert.equal((await s.close()).code, 0);
    assert.equal(s.stderr, '');
  });

  test('go before any position searches the start; searchmoves is said to be ignored; go nodes 1 still moves', async () => {
    const s = uciWithAsides();
    s.send('go depth 3');
    assert.ok(legalIn(new Chess(), await bestmoveOf(s)));
    s.send('go depth 2 searchmoves e2e4');
    await s.expect(/^info string go's 'searchmoves' and 'mate' are not supported: ignored$/);
    await s.expect(/^bestmove /);
    s.send('position startpos moves e2e4', 'go nodes 1');               // (a depth-0 pass has no move)
    const out = await s.upTo(/^bestmove /);
    assert.ok(out.some((l) => /^info depth 1 /.test(l.text)), out.map((l) => l.text).join('\n'));
    assert.ok(legalIn(replayChess(['e2e4']), out.at(-1)!.text.split(' ')[1]));
    assert.equal((await s.close()).code, 0);
  });
  test('unknown words before a command are skipped, as the UCI spec\'s example asks; a line of unknown words is said once', async () => {
    const s = new Session('uci');
    s.send('joho isready');
    await s.expect(/^readyok$/);
    s.send('xyzzy plugh go movetime 300');
    assert.match((await s.expect(/^bestmove /)).text, /^bestmove [a-h][1-8][a-h][1-8]$/);
    s.send('joho debug on', 'frobnicate now', 'isready');
    const out = (await s.upTo(/^readyok$/)).map((l) => l.text);
    assert.deepEqual(out, ["info string error: unknown command 'frobnicate now'", 'readyok']);
    assert.equal((await s.close()).code, 0);
  });

  // polyglot shows every info string as a thinking line of 0 nodes in 0 time (seen before each of
  // micro-Max's moves in a game through xboard): a game without debug on sends none.
  test('without debug on a game sends no info string (what polyglot would show as a thinking line); debug on adds the asides, debug off stops them', async () => {
    const s = new Session('uci');
    const game = async (moves: string): Promise<string[]> => {
      s.send('ucinewgame', `position startpos${moves}`, 'go wtime 3000 btime 3000 winc 100 binc 100',
        'setoption name Hash value 64', 'go btime 500 nodes 2000');
      return [...await s.upTo(/^bestmove /), ...await s.upTo(/^bestmove /)].map((l) => l.text);
    };
    s.send('uci', 'isready');
    await s.expect(/^readyok$/);
    const quiet = [...await game(''), ...await game(' moves e2e4 e7e5')];
    assert.deepEqual(quiet.filter((l) => / string /.test(l)), [], quiet.join('\n'));
    s.send('debug on');
    const said = await game(' moves d2d4');
    assert.ok(said.some((l) => /^info string \d+-ply search, \d+ positions, scored -?\d+; the C plays it with --nodes \d+ after this game's 1 moves; \d+ ms used/.test(l)), said.join('\n'));
    assert.ok(said.some((l) => /^info string Hash 64 taken/.test(l)), said.join('\n'));
    s.send('debug off');
    const again = await game(' moves c2c4');
    assert.deepEqual(again.filter((l) => / string /.test(l)), [], again.join('\n'));
    assert.equal((await s.close()).code, 0);
  });

  // polyglot 2.0.4 reads an info line's words even after 'string': 'score 14;' made it log an
  // unknown option and send xboard a thinking line '5 +0 0 0' before every move of a game.
  test('no info string says a word of an info line (depth, score, nodes, time, pv, ...) on its own, as a relay would read it', async () => {
    const WORDS = new Set(['depth', 'seldepth', 'time', 'nodes', 'pv', 'multipv', 'score', 'cp', 'mate', 'lowerbound',
      'upperbound', 'currmove', 'currmovenumber', 'hashfull', 'nps', 'tbhits', 'sbhits', 'cpuload', 'string',
      'refutation', 'currline']);
    const s = uciWithAsides();
    s.send('uci', 'setoption name Hash value 64', 'setoption name Threads value 2', 'setoption name depth value 3',
      'position startpos', 'go nodes 3000', 'go wtime 5000 binc 10 nodes 3000', 'go searchmoves e2e4 nodes 3000',
      'position fen 8/8/8/8/8/8/k7/7K w - - 0 1', 'go nodes 2000', 'position startpos moves e2e5', 'go',
      'frobnicate depth 5 score 3 nodes 9 time 1 pv e2e4', 'isready');
    const out = (await s.upTo(/^readyok$/)).map((l) => l.text).filter((l) => l.startsWith('info string '));
    assert.ok(out.length >= 8, out.join('\n'));
    for (const line of out) {
      const said = line.split(' ').slice(2).filter((w) => WORDS.has(w));
      assert.deepEqual(said, [], `a relay reads ${said.join(', ')} in: ${line}`);
    }
    assert.ok(out.some((l) => /; the C plays it with --nodes \d+ after this game's 0 moves; \d+ ms used$/.test(l)), out.join('\n'));
    assert.ok(out.some((l) => /; replay: this position at a node limit of \d+; \d+ ms used$/.test(l)), out.join('\n'));
    assert.equal((await s.close()).code, 0);
  });
});

describe('what match runners expect (fastchess, OpenBench)', () => {
  test('Hash 176 and Threads 1: no word back; any other Hash a runner sends: taken, and one line says the table stays', async () => {
    const s = uciWithAsides();
    s.send('uci', 'isready');
    await s.expect(/^readyok$/);
    let from = s.lines.length;
    s.send('setoption name Hash value 176', 'setoption name Threads value 1', 'setoption name hash value 176', 'isready');
    await s.expect(/^readyok$/);
    assert.deepEqual(s.since(from), ['readyok']);
    from = s.lines.length;
    s.send('setoption name Hash value 16', 'setoption name Hash value 256', 'setoption name  Move   Overhead  value  100', 'isready');
    await s.expect(/^readyok$/);
    const table = 'taken, but the hash table stays 176 MiB (2^24 + 8 entries, micro-Max 3.2\'s own size)';
    assert.deepEqual(s.since(from), [`info string Hash 16 ${table}`, `info string Hash 256 ${table}`, 'readyok']);
    assert.equal((await s.close()).code, 0);
  });

  test('go nodes N stops at N nodes: cut at the next poll; the last finished pass\'s move, which the C plays at its count', async () => {
    const s = uciWithAsides(), asked = 30000, poll = 4096;
    s.send('position startpos', `go nodes ${asked}`);
    const out = (await s.upTo(/^bestmove /)).map((l) => l.text), move = out.at(-1)!.split(' ')[1];
    const passes = out.map((l) => /^info depth \d+ score \S+ -?\d+ nodes (\d+) /.exec(l)).filter((m) => m !== null).map((m) => +m[1]);
    const last = /^info depth \d+ score \S+ -?\d+ nodes (\d+) /.exec(out.at(-2)!);
    assert.ok(last, `no final info line:\n${out.join('\n')}`);
    assert.ok(+last[1] <= asked + poll, `${last[1]} nodes searched for go nodes ${asked}`);
    assert.equal(out.filter((l) => / pv /.test(l)).at(-1)?.split(' ').at(-1), move, 'the last pv is the move played');
    const how = /--nodes (\d+) after this game's 0 moves/.exec(out.join('\n'));
    assert.ok(how && +how[1] <= asked + poll && passes.slice(0, -1).includes(+how[1]), out.join('\n'));
    const input = '\n', c = noC ? await runPort(input, portArgs({ nodes: +how[1] })) : await runC(input, { nodes: +how[1] });
    const played = replay(c.stdout, input).moves[0];
    assert.equal(played.from + played.to, move, `the C at --nodes ${how[1]}`);
    assert.equal((await s.close()).code, 0);
  });

  test('--nodes and a bare go keep the C\'s rule: the deepening stops after N, the pass is not cut', async () => {
    const s = uciWithAsides({ args: ['--nodes', '30000'] });
    s.send('position startpos', 'go');
    const out = (await s.upTo(/^bestmove /)).map((l) => l.text);
    const note = out.find((l) => /^info string \d+-ply search/.test(l));
    assert.ok(note && !note.includes('cut off') && /--nodes (\d+) /.exec(note) && +/--nodes (\d+) /.exec(note)![1] > 30000, out.join('\n'));
    assert.equal((await s.close()).code, 0);
  });

  test('an info line with depth, score, nodes and time just before every bestmove (0000: depth 0), its pv only if no pass said it: no pass shown twice', async () => {
    const s = new Session('uci');
    const gos = [['position startpos', 'go depth 3'], ['position startpos moves e2e4', 'go movetime 300'], ['position startpos', 'go nodes 5000'],
      ['position startpos moves d2d4', 'go wtime 2000 btime 2000'], ['position startpos moves e2e5', 'go depth 2']];
    for (const lines of gos) {
      s.send(...lines);
      const out = (await s.upTo(/^bestmove /)).map((l) => l.text), best = out.at(-1)!.split(' ')[1], at = `${lines.join(', ')}:\n${out.join('\n')}`;
      const re = best === '0000' ? /^info depth 0 nodes 0 time \d+$/ : new RegExp(`^info depth [1-9]\\d* score (cp|mate) -?\\d+ nodes \\d+ nps \\d+ time \\d+( pv ${best})?$`);
      assert.match(out.at(-2)!, re, at);
      // (a pass as PyChess and polyglot show it: depth, score, pv)
      const shown = out.map((l) => /^info depth (\d+) score (\S+ -?\d+) .* pv (\S+)$/.exec(l)).filter((m) => m !== null).map((m) => `${m[1]} ${m[2]} ${m[3]}`);
      assert.equal(new Set(shown).size, shown.length, `a pass shown twice; ${at}`);
      if (best !== '0000') assert.equal(shown.at(-1)?.split(' ').at(-1), best, `the last pv shown is not the move; ${at}`);
    }
    s.send('position startpos', 'go infinite');                      // cut by stop: the time is the time so far
    const first = await s.expect(/^info depth 1 /);
    await new Promise((r) => setTimeout(r, 300));
    s.send('stop');
    const out = (await s.upTo(/^bestmove /)).map((l) => l.text), time = (l: string): number => +/ time (\d+)/.exec(l)![1];
    const passes = out.filter((l) => /^info depth/.test(l));
    assert.ok(time(out.at(-2)!) >= time(passes.at(-2) ?? first.text), out.join('\n'));
    assert.ok(time(out.at(-2)!) >= 250, `${time(out.at(-2)!)} ms after a stop at 300 ms`);
    assert.equal((await s.close()).code, 0);
  });

  test('a mate is shown at the depth of its pass, not the C\'s 98 (UCI and xboard)', async () => {
    const s = new Session('uci');
    s.send('position fen 7k/8/6K1/8/8/8/8/1Q6 w - - 0 1', 'go depth 6');
    const out = (await s.upTo(/^bestmove /)).map((l) => l.text);
    const depths = out.map((l) => /^info depth (\d+) score (\S+ -?\d+)/.exec(l)).filter((m) => m !== null);
    assert.ok(depths.some((m) => m[2] === 'mate 1'), out.join('\n'));
    assert.deepEqual(depths.slice(0, -1).map((m) => +m[1]), depths.slice(0, -1).map((_, k) => k + 1), out.join('\n'));
    assert.equal(out.at(-1), 'bestmove b1b8');
    assert.equal((await s.close()).code, 0);
    const x = new Session('xboard');
    x.send('xboard', 'protover 2', 'new', 'force', 'setboard 7k/8/6K1/8/8/8/8/1Q6 w - - 0 1', 'post', 'sd 6', 'go');
    const posts = (await x.upTo(/^move /)).map((l) => /^(\d+) (-?\d+) \d+ \d+ \S+$/.exec(l.text)).filter((m) => m !== null);
    assert.ok(posts.some((m) => m[2] === '100001'), 'mate in 1: 100001');
    assert.deepEqual(posts.map((m) => +m[1]), posts.map((_, k) => k + 1));
    assert.equal((await x.close()).code, 0);
  });
});

describe('xboard', () => {
  test('handshake, ping, and the protocol\'s error forms', async () => {
    const s = new Session('xboard');
    s.send('xboard', 'protover 2');
    const f = (await s.upTo(/^feature done=1$/)).map((l) => l.text).join(' ');
    assert.match(f, /^feature done=0 feature /, 'done=0 first: xboard waits while the engine thread starts');
    for (const x of ['setboard=1', 'ping=1', 'usermove=1', 'sigint=0', 'sigterm=0', 'myname="micro-Max 3.2', 'done=1']) assert.ok(f.includes(x), x);
    assert.ok(f.endsWith('done=1'));
    // the features as micromax.ts declares them (XB_FEATURES), read as xboard reads NAME=VALUE, in order;
    // its options Faithful and Move Overhead as xboard spells them
    const read = [...f.matchAll(/(\w+)=("[^"]*"|\S+)/g)].map((m) => [m[1], m[2]]);
    assert.deepEqual(read, [['done', '0'], ...XB_FEATURES.map(([name, value]) => [name, String(value)]), ['done', '1']]);
    const overhead = SPINS.find((o) => o.name === 'Move Overhead')!;
    assert.deepEqual(read.filter(([name]) => name === 'option').map(([, value]) => value),
      ['"Faithful -check 0"', `"Move Overhead -spin ${overhead.default} ${overhead.min} ${overhead.max}"`]);
    const cases: [string, RegExp][] = [
      ['frobnicate', /^Error \(unknown command\): frobnicate$/],
      ['toString', /^Error \(unknown command\): toString$/],
      ['level 40 x 0', /^Error \(bad level\): level 40 x 0$/],
      ['st soon', /^Error \(wants a number\): st soon$/],
      ['time', /^Error \(wants a number\): time$/],
      ['variant suicide', /^Error \(only normal chess\): variant suicide$/],
      ['undo', /^Error \(no move to take back\): undo$/],
      ['usermove e2', /^Illegal move \(not a move like e2e4\): e2$/],     // refused: the game goes on
      ['usermove', /^Illegal move \(not a move like e2e4\): $/],
      ['usermove e2e5', /^Illegal move \(illegal in this position\): e2e5$/],
      ['new', /^pong 1$/],
      ['usermove e2e6', /^Illegal move \(illegal in this position\): e2e6$/],
      ['setboard 8/8/8/8/8/8/8/8 w - - 0 1', /^tellusererror Illegal position: white needs one king$/],
      ['usermove e2e4', /^Illegal move \(no position: white needs one king\): e2e4$/],
      ['setboard 8/4P3/8/8/8/8/k7/4K3 w - - 0 1', /^pong 2$/],
    ];
    s.send('new', 'force');
    for (const [line, re] of cases) {
      s.send(line);
      if (line === 'new') s.send('force', 'ping 1');
      if (line.startsWith('setboard 8/4P')) s.send('ping 2');
      await s.expect(re, 10_000);
    }
    s.send('usermove e7e8q', 'usermove a2b2', 'remove', 'usermove e7e8q', 'ping 3');    // remove takes both back
    await s.expect(/^pong 3$/);
    assert.ok(!s.lines.some((l) => /^(Illegal|Error)/.test(l.text) && l.text.includes('e7e8q')));
    s.send('new', 'sd 4', 'usermove e2e4');                           // playing black: it answers
    await s.expect(/^move [a-h][1-8][a-h][1-8]$/);
    const after = s.lines.length;
    s.send('result 1-0 {White resigns}', 'usermove d2d4', 'ping 4');  // after result: force mode
    await s.expect(/^pong 4$/);
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

describe('never a move for a position it does not hold', () => {
  const PROMO = '8/4P2k/8/8/8/8/8/K7 w - - 0 1';
  /** The legal replies in the position after the moves, as chess.js sees it. */
  const replies = (moves: string[], from?: string): Chess => replayChess(moves, from);
  for (const faithful of [false, true]) {
    test(`UCI, Faithful ${faithful}: an under-promotion then go ${faithful ? 'gets no move' : 'plays on from the position after it'}`, async () => {
      const s = uciWithAsides();
      s.send(`setoption name Faithful value ${faithful}`);
      for (const mv of ['e7e8n', 'e7e8R', 'e7e8b']) {                  // upper case too, as Stockfish takes it
        s.send(`position fen ${PROMO} moves ${mv}`, 'go depth 4');
        const out = (await s.upTo(/^bestmove /)).map((l) => l.text), best = out.at(-1)!.split(' ')[1];
        if (faithful) {
          assert.equal(best, '0000', out.join('\n'));
          const why = new RegExp(`^info string no position: ${mv} \\(move 1\\): micro-Max 3\\.2 promotes only to a queen; \\d+ ms used$`);
          assert.ok(out.some((l) => why.test(l)), out.join('\n'));
        } else {
          assert.ok(legalIn(replies([mv.toLowerCase()], PROMO), best), `${mv}: ${best} is not Black's move after ${mv}`);
          assert.ok(out.some((l) => /not replayable: an under-promotion earlier in this game/.test(l)), out.join('\n'));
        }
      }
      if (!faithful) {                                                 // and the game goes on from there
        s.send(`position fen ${PROMO} moves e7e8n h7g6`, 'go depth 4');
        assert.ok(legalIn(replies(['e7e8n', 'h7g6'], PROMO), await bestmoveOf(s)));
      }
      assert.equal((await s.close()).code, 0);
    });
    test(`xboard, Faithful ${faithful}: usermove of an under-promotion (${faithful ? 'refused: the game as it was' : 'taken'}), then go`, async () => {
      const s = new Session('xboard');
      s.send('xboard', 'protover 2', `option Faithful=${+faithful}`, 'new', 'force', `setboard ${PROMO}`, 'sd 4', 'usermove e7e8N');
      if (faithful) {                                                   // refused: the game is as it was, white to move
        await s.expect(/^Illegal move \(micro-Max 3\.2 promotes only to a queen\): e7e8N$/);
        s.send('go');
        const mv = (await s.expect(/^move /)).text.split(' ')[1];
        assert.ok(legalIn(replies([], PROMO), mv), mv);
      } else {
        s.send('go');
        const mv = (await s.expect(/^move /)).text.split(' ')[1];
        assert.ok(legalIn(replies(['e7e8n'], PROMO), mv), mv);
      }
      assert.equal((await s.close()).code, 0);
    });
  }
  // Castlings FIDE forbids, sent by the GUI: micro-Max's own check takes the first three (out of a
  // pawn's check, across a square a pawn attacks) and refuses the rest; all are refused, as its own
  // moves are. The last two are legal, and taken.
  const CASTLINGS: [string, string, boolean][] = [
    ['4k3/8/8/8/8/8/3p4/4K2R w K - 0 1', 'e1g1', false],             // out of the d2 pawn's check
    ['4k3/8/8/8/8/8/6p1/4K2R w K - 0 1', 'e1g1', false],             // across f1, which g2 attacks
    ['4k3/8/8/8/n7/8/5p2/R3K2R w KQ - 0 1', 'e1c1', false],          // out of the f2 pawn's check, the other wing
    ['4k2r/8/8/8/8/8/8/R3K3 b k - 0 1', 'e8g8', true],               // black: nothing attacks e8, f8, g8
    ['4k3/8/8/8/8/8/8/r3K2R w K - 0 1', 'e1g1', false],              // out of the a1 rook's check
    ['4kr2/8/8/8/8/8/8/4K2R w K - 0 1', 'e1g1', false],              // across f1, which the f8 rook attacks
    ['4k3/8/8/8/8/4b3/8/4K2R w K - 0 1', 'e1g1', false],             // onto g1, which the e3 bishop attacks
    ['4k3/8/8/8/8/8/5P2/4K2R w K - 0 1', 'e1g1', true],
  ];
  test('a castling FIDE forbids is refused from the GUI as from micro-Max itself (UCI, Faithful on and off; xboard): out of a pawn\'s or a piece\'s check, across or onto an attacked square', async () => {
    for (const faithful of [false, true]) {
      const s = new Session('uci');
      s.send('uci', `setoption name Faithful value ${faithful}`);
      for (const [position, castle, legal] of CASTLINGS) {
        s.send(`position fen ${position} moves ${castle}`, 'go depth 3');
        const out = (await s.upTo(/^bestmove /)).map((l) => l.text);
        const best = out.at(-1)!.split(' ')[1], at = `${position} ${castle}:\n${out.join('\n')}`;
        assert.equal(new Chess(position).moves({ verbose: true }).some((m) => m.from + m.to === castle), legal, `chess.js: ${at}`);
        if (legal) assert.ok(legalIn(replayChess([castle], position), best), at);
        else {
          assert.equal(best, '0000', at);
          assert.ok(out.includes(`info string error: no position: ${castle} (move 1): illegal in this position`), at);
        }
      }
      assert.equal((await s.close()).code, 0);
    }
    const x = new Session('xboard');
    x.send('xboard', 'protover 2');
    for (const [position, castle, legal] of CASTLINGS) {
      x.send('new', 'force', 'sd 3', `setboard ${position}`, `usermove ${castle}`, 'go');   // refused: go plays the castling side
      const out = (await x.upTo(/^move /)).map((l) => l.text);
      const mv = out.at(-1)!.split(' ')[1], at = `${position} ${castle}:\n${out.join('\n')}`;
      assert.equal(out.includes(`Illegal move (illegal in this position): ${castle}`), !legal, at);
      assert.ok(legalIn(replayChess(legal ? [castle] : [], position), mv), at);
    }
    assert.equal((await x.close()).code, 0);
  });
  test('UCI: an illegal move, or a position line too long to read, then go: bestmove 0000 and why', async () => {
    const s = new Session('uci');
    s.send('position startpos moves e2e4 e7e5 e1e3', 'go depth 3');
    let out = (await s.upTo(/^bestmove /)).map((l) => l.text);
    assert.equal(out.at(-1), 'bestmove 0000');
    assert.ok(out.some((l) => /^info string no position: e1e3 \(move 3\): illegal in this position; \d+ ms used$/.test(l)), out.join('\n'));
    s.send('position startpos moves e2e4 e7e5', 'go depth 3');          // a good position: moves again
    assert.ok(legalIn(replayChess(['e2e4', 'e7e5']), await bestmoveOf(s)));
    const long = `position startpos moves ${'g1f3 g8f6 f3g1 f6g8 '.repeat(900)}e2e4`;
    assert.ok(long.length > 16384);
    s.send(long, 'go depth 3');
    out = (await s.upTo(/^bestmove /)).map((l) => l.text);
    assert.equal(out.at(-1), 'bestmove 0000');
    assert.ok(out.some((l) => /^info string no position: a line of more than 16384 bytes was lost/.test(l)), out.join('\n'));
    assert.equal((await s.close()).code, 0);
  });
  test('a position line too long to read while it thinks: the search is cut first (UCI: its bestmove, for its go\'s position; xboard: no move), then no position', async () => {
    const long = (head: string): string => `${head} ${'x'.repeat(17000)}`;
    const s = new Session('uci');
    s.send('position startpos moves e2e4', 'go movetime 60000');
    await s.expect(/^info depth 2 /);
    const t0 = s.send(long('position startpos moves'), 'isready');
    let out = await s.upTo(/^readyok$/, 10_000);
    const best = out.find((l) => l.text.startsWith('bestmove ')), at = out.map((l) => l.text).join('\n');
    assert.ok(best && best.t - t0 < 5000 && legalIn(replayChess(['e2e4']), best.text.split(' ')[1]), at);
    assert.ok(out.findIndex((l) => l.text === 'info string error: a line of more than 16384 bytes is ignored') >= 0, at);
    s.send('go depth 3');
    out = await s.upTo(/^bestmove /);
    assert.equal(out.at(-1)!.text, 'bestmove 0000', out.map((l) => l.text).join('\n'));
    assert.equal((await s.close()).code, 0);
    const x = new Session('xboard');
    x.send('xboard', 'protover 2', 'post');
    for (const line of [long('usermove'), long('setboard'), long('e7e5')]) {
      x.send('new', 'st 2', 'e2e4');
      await x.expect(/^2 /);                                           // thinking (2 s a move)
      const from = x.lines.length, t1 = x.send(line, 'ping 1');
      await x.expect(/^pong 1$/, 10_000);
      await new Promise((r) => setTimeout(r, 2500 - (performance.now() - t1)));   // past the move's 2 s
      x.send('usermove d2d4', 'ping 2');
      await x.expect(/^pong 2$/);
      const after = x.since(from), what = `${line.slice(0, 9)}:\n${after.join('\n')}`;
      assert.ok(!after.some((l) => l.startsWith('move ')), `a move for a position it no longer holds; ${what}`);
      assert.ok(after.includes('Illegal move (no position: a line of more than 16384 bytes was lost): d2d4'), what);
    }
    assert.equal((await x.close()).code, 0);
  });
  test('xboard: a refused usermove leaves the game as it was; one too long to read leaves none: the error, no move until new', async () => {
    const s = new Session('xboard');
    s.send('xboard', 'protover 2', 'new', 'force', 'sd 3', 'usermove e2e4', 'usermove e7e5', 'usermove e1e3');
    await s.expect(/^Illegal move \(illegal in this position\): e1e3$/);
    s.send('usermove e7e6', 'usermove zz', 'go');                     // refused too; then white moves after e4 e5
    await s.expect(/^Illegal move \(illegal in this position\): e7e6$/);
    const mv = (await s.expect(/^move /)).text.split(' ')[1];
    assert.ok(legalIn(replayChess(['e2e4', 'e7e5']), mv), mv);
    s.send('new', 'force', `usermove e2e4${' '.repeat(17000)}`, 'go', 'ping 2');
    await s.expect(/^# error: a line of more than 16384 bytes is ignored$/);
    await s.expect(/^Error \(no position: a line of more than 16384 bytes was lost\): go$/);
    await s.expect(/^pong 2$/);
    assert.equal(s.lines.filter((l) => l.text.startsWith('move ')).length, 1);
    s.send('new', 'sd 3', 'usermove e2e4');                            // a good position: it moves again
    await s.expect(/^move /);
    assert.equal((await s.close()).code, 0);
  });
});

describe('never wedged, never the wrong side: every command answered in any state', () => {
  const CASTLE_ACROSS = '4k3/8/8/8/8/8/6p1/4K2R w K - 0 1';       // e1g1 crosses f1, which g2 attacks
  const CASTLE_OUT_OF_CHECK = '4k3/8/8/8/n7/8/5p2/R3K2R w KQ - 0 1'; // f2 checks the king
  test('UCI: uci, isready and stop during a search are answered at once, with a deadline too; quit after go infinite exits', async (t) => {
    const s = new Session('uci'), took: string[] = [];
    s.send('uci', 'isready');
    await s.expect(/^readyok$/);
    for (const go of ['go infinite', 'go movetime 60000', 'go depth 40', 'go wtime 600000 btime 600000']) {
      s.send('position startpos', go);
      await s.expect(/^info depth 1 /);                                // thinking
      const t0 = s.send('uci', 'isready');
      const ok = await s.expect(/^uciok$/, 10_000), ready = await s.expect(/^readyok$/, 10_000);
      const t1 = s.send('stop'), best = await s.expect(/^bestmove /, 10_000);
      took.push(`${go}: uciok ${(ok.t - t0).toFixed(0)} ms, readyok ${(ready.t - t0).toFixed(0)} ms, stop ${(best.t - t1).toFixed(0)} ms`);
      assert.ok(ok.t - t0 < 3000 && best.t - t1 < 3000, took.at(-1));
      assert.ok(legalIn(new Chess(), best.text.split(' ')[1]), best.text);
    }
    s.send('go infinite');                                            // the issue's sequence: go infinite, uci, stop, isready, quit
    await s.expect(/^info depth 1 /);
    const from = s.lines.length, t2 = s.send('uci', 'stop', 'isready', 'quit');
    const r = await s.exited, gone = performance.now() - t2, after = s.since(from);
    const best = after.findIndex((l) => /^bestmove [a-h]/.test(l));
    assert.ok(after.indexOf('uciok') >= 0 && after.indexOf('uciok') < best && best < after.indexOf('readyok'), after.join('\n'));
    t.diagnostic(`${took.join('; ')}; go infinite, uci, stop, isready, quit: exit after ${gone.toFixed(0)} ms`);
    assert.equal(r.code, 0);
    assert.ok(gone < 10_000, `${gone} ms`);
  });

  test('xboard: protover, ping and ? while it thinks: features at once, the move at once, the pong after it', async () => {
    const s = new Session('xboard');
    s.send('xboard', 'protover 2', 'new', 'post', 'st 60', 'usermove e2e4');
    await s.expect(/^feature done=1$/);
    await s.expect(/^1 /);                                              // thinking (60 s a move)
    const t0 = s.send('protover 2', 'ping 7', '?');
    const done = await s.expect(/^feature done=1$/, 10_000), mv = await s.expect(/^move /, 10_000), pong = await s.expect(/^pong 7$/, 10_000);
    assert.ok(done.t - t0 < 3000 && mv.t - t0 < 3000, `${done.t - t0} ms, ${mv.t - t0} ms`);
    assert.ok(s.lines.indexOf(mv) < s.lines.indexOf(pong), 'the pong comes after the move');
    assert.ok(legalIn(replayChess(['e2e4']), mv.text.split(' ')[1]), mv.text);
    assert.equal((await s.close()).code, 0);
  });

  test('UCI: every go searches the last position (its own move is not played), a go during a search too', async () => {
    const s = new Session('uci');
    for (const moves of [[], ['e2e4'], ['e2e4', 'c7c5', 'g1f3']]) {
      const chess = replayChess(moves), pos = `position startpos${moves.length ? ` moves ${moves.join(' ')}` : ''}`;
      // the two searches compared each run to the end: a go arriving during the first would cut it, and
      // a cut search plays its last full pass's move (CI saw d7d5, depth 2's, against b8c6). The go
      // during a search is the movetime's, cut by go infinite, and go depth 2 below.
      s.send(pos, 'go depth 3');
      const got = [await bestmoveOf(s)];
      s.send('go depth 3');
      got.push(await bestmoveOf(s));
      s.send('go movetime 200', 'go infinite');
      got.push(await bestmoveOf(s));
      await s.expect(/^info depth 1 /);
      s.send('go depth 2');                                             // during go infinite: it answers, then searches again
      got.push(await bestmoveOf(s), await bestmoveOf(s));
      for (const mv of got) assert.ok(legalIn(chess, mv), `${pos}: ${got.join(' ')}: ${mv} is not ${chess.turn() === 'w' ? 'white' : 'black'}'s`);
      assert.equal(got[0], got[1], 'the same search twice, the same move');
    }
    assert.equal((await s.close()).code, 0);
  });

  test('xboard: its move is part of the game; a refused or malformed move changes nothing', async () => {
    const s = new Session('xboard');
    s.send('xboard', 'protover 2', 'new', 'sd 3', 'usermove e2e4');
    const reply = (await s.expect(/^move /)).text.split(' ')[1], game = ['e2e4', reply];
    s.send('usermove e2e5', 'usermove', 'usermove x', 'd2d5', 'ping 1');
    await s.expect(/^pong 1$/);
    assert.equal(s.lines.filter((l) => l.text.startsWith('Illegal move')).length, 4);
    const chess = replayChess(game), mine = [...legalTexts(chess)][0];
    s.send(`usermove ${mine}`);                                        // a legal move after the refused ones: accepted, answered
    const mv = (await s.expect(/^move /)).text.split(' ')[1];
    assert.ok(legalIn(replayChess([...game, mine]), mv), `${mv} after ${[...game, mine].join(' ')}`);
    s.send('post', 'new', 'st 1', 'usermove e2e4');                   // refused while it thinks: it thinks on, and moves
    await s.expect(/^1 -?\d+ \d+ \d+ /);                                // (thinking: its first pass is posted)
    s.send('usermove e2e5');
    await s.expect(/^Illegal move \(illegal in this position\): e2e5$/);
    const after = (await s.expect(/^move /)).text.split(' ')[1];
    assert.ok(legalIn(replayChess(['e2e4']), after), after);
    assert.equal((await s.close()).code, 0);
  });

  test('xboard: undo or remove while it thinks: refused, it thinks on and moves; taken back, it thinks again if still on move', async () => {
    const s = new Session('xboard');
    s.send('xboard', 'protover 2', 'post');
    const during = async (start: string[], line: string): Promise<Line[]> => {
      s.send('new', 'st 1', ...start);
      await s.expect(/^1 -?\d+ \d+ \d+ /);                              // (thinking: its first pass is posted)
      s.send(line, 'ping 1');
      return (await s.upTo(/^pong 1$/, 10_000)).filter((l) => !/^\d+ -?\d+ \d+ \d+ /.test(l.text));   // (not its thinking)
    };
    const moves = (out: Line[]): string[] => out.filter((l) => l.text.startsWith('move ')).map((l) => l.text.split(' ')[1]);
    // refused: nothing to take back (it plays white at ply 0; black after one move)
    for (const [start, line, before] of [[['go'], 'undo', []], [['e2e4'], 'remove', ['e2e4']]] as const) {
      const out = await during([...start], line), got = moves(out), at = out.map((l) => l.text).join('\n');
      assert.ok(out.some((l) => l.text === `Error (no move to take back): ${line}`), at);
      assert.equal(got.length, 1, at);
      assert.ok(legalIn(replayChess([...before]), got[0]), at);
    }
    // taken back: remove at ply 2 leaves white (its side) on move, so it thinks again; its game
    // is then the start and its move: one undo is taken, a second refused
    let out = await during(['force', 'e2e4', 'e7e5', 'go'], 'remove');
    assert.equal(out.filter((l) => /^(move|Error)/.test(l.text)).length, 1, out.map((l) => l.text).join('\n'));
    const mv = moves(out)[0];
    assert.ok(legalIn(new Chess(), mv), mv);
    s.send('force', 'undo', 'undo', 'ping 2');
    out = await s.upTo(/^pong 2$/);
    assert.deepEqual(out.map((l) => l.text), ['Error (no move to take back): undo', 'pong 2']);
    // undo while it thinks as black: e2e4 is taken back, white (the GUI's side) is on move: no move
    out = await during(['e2e4'], 'undo');
    assert.deepEqual(out.map((l) => l.text), ['pong 1']);
    s.send('d2d4');
    const reply = (await s.expect(/^move /)).text.split(' ')[1];
    assert.ok(legalIn(replayChess(['d2d4']), reply), reply);
    assert.equal((await s.close()).code, 0);
  });

  // (a closed stdout, and every state it may come in: gui-ending.test.ts)
  test('the end of input is stop then quit: a search under way moves at once and the program ends', async (t) => {
    const cases: [string, 'uci' | 'xboard', string[], string[], RegExp][] = [
      ['go depth 30', 'uci', [], ['position startpos', 'go depth 30'], /^bestmove [a-h]/],
      ['go movetime 100000', 'uci', [], ['position startpos moves e2e4', 'go movetime 100000'], /^bestmove [a-h]/],
      ['untimed xboard', 'xboard', ['--nodes', '2147483647'], ['xboard', 'protover 2', 'post', 'new', 'usermove e2e4'], /^move /],
    ];
    const seen: string[] = [];
    for (const [what, protocol, args, lines, re] of cases) {
      const s = new Session(protocol, { args });
      s.send(...lines);
      await s.expect(protocol === 'uci' ? /^info depth 2 / : /^2 -?\d+ \d+ \d+ /);    // (thinking: pass 2 is done)
      const t0 = performance.now(), r = await s.close(false), gone = performance.now() - t0;
      seen.push(`${what}: ${gone.toFixed(0)} ms`);
      assert.equal(r.code, 0, what);
      assert.ok(s.lines.some((l) => re.test(l.text)), `${what}: no move`);
      assert.ok(gone < 10_000, `${what}: ${gone} ms after the end of input`);
    }
    t.diagnostic(seen.join('; '));
  });

  test('stop or ? just before quit keeps its move; UCI quit sends the move too (as Stockfish); xboard quit drops it; nothing after quit is read', async () => {
    for (const [protocol, before, moves] of [['uci', ['stop', 'quit', 'isready'], true], ['uci', ['quit'], true],
      ['xboard', ['?', 'quit', 'ping 1'], true], ['xboard', ['quit'], false]] as const) {
      const s = new Session(protocol);
      s.send(...protocol === 'uci' ? ['position startpos', 'go infinite'] : ['xboard', 'protover 2', 'new', 'post', 'st 60', 'usermove e2e4']);
      await s.expect(protocol === 'uci' ? /^info depth 2 / : /^2 /);
      s.send(...before);
      const r = await s.exited, moved = s.lines.some((l) => /^(bestmove|move) [a-h]/.test(l.text));
      assert.equal(r.code, 0);
      assert.equal(moved, moves, `${protocol}: ${before.join(', ')}`);
      assert.ok(!s.lines.some((l) => /^(readyok|pong)/.test(l.text)), `${protocol}: ${before.join(', ')}: a command after quit was read`);
    }
  });

  test('pass lines name only moves FIDE allows, and their depth never goes back (micro-Max would castle across an attack)', async () => {
    // micro-Max prefers e1g1 at every depth here; in the second position e1f2 up to depth 6, then
    // e1c1 out of the pawn's check: the move is searched again without castling, from depth 1
    const s = uciWithAsides();
    for (const [position, castle] of [[CASTLE_ACROSS, 'e1g1'], [CASTLE_OUT_OF_CHECK, 'e1c1']]) {
      for (const go of ['go depth 7', 'go movetime 400', 'go movetime 1500']) {
        const chess = new Chess(position);
        s.send(`position fen ${position}`, go);
        const out = (await s.upTo(/^bestmove /)).map((l) => l.text), at = `${position}, ${go}:\n${out.join('\n')}`;
        const info = out.map((l) => /^info depth (\d+) .* pv (\S+)$/.exec(l)).filter((m) => m !== null);
        for (const m of info) assert.ok(legalIn(chess, m[2]), `${m[0]}: not a legal move; ${at}`);
        const depths = info.map((m) => +m[1]);
        for (let k = 1; k < depths.length; k++) assert.ok(depths[k] >= depths[k - 1], `depth ${depths[k]} after ${depths[k - 1]}; ${at}`);
        if (go === 'go depth 7') assert.ok(out.some((l) => l.includes(`fallback: micro-Max 3.2's choice ${castle} is not legal here`)), at);
        assert.equal(info.at(-1)?.[2], out.at(-1)!.split(' ')[1], `the last info line's pv is the bestmove; ${at}`);
      }
    }
    assert.equal((await s.close()).code, 0);
    const chess = new Chess(CASTLE_ACROSS);
    const x = new Session('xboard');
    x.send('xboard', 'protover 2', 'new', 'force', `setboard ${CASTLE_ACROSS}`, 'post', 'sd 9', 'go');
    const posts = (await x.upTo(/^move /)).map((l) => /^(\d+) -?\d+ \d+ \d+ (\S+)$/.exec(l.text)).filter((m) => m !== null);
    assert.ok(posts.length > 1 && posts.every((m) => legalIn(chess, m[2])), posts.map((m) => m[0]).join('\n'));
    assert.deepEqual(posts.map((m) => +m[1]), posts.map((m) => +m[1]).sort((a, b) => a - b));
    assert.equal((await x.close()).code, 0);
  });

  test('--uci --xboard (two modes) is refused: exit 2, one line saying how to start it', async () => {
    for (const args of [['--uci', '--xboard'], ['--xboard', '--uci', '--nodes', '100']]) {
      const r = await runPort('uci\n', args, 30_000);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stdout.length, 0);
      assert.match(r.stderr, /^micromax: --uci and --xboard are two modes, not one; usage: micromax --uci \| --xboard \[--nodes N\] \(see --help\)\n$/);
    }
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
      s.send(...protocol === 'uci' ? ['position startpos moves e2e4', 'go depth 3'] : ['new', 'sd 3', 'usermove e2e4']);
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
    await s.expect(new RegExp(`^info string error: no position: ${reply} \\(move ${moves.length + 1}\\): micro-Max 3\\.2 takes no move once one side is 2000 points ahead`));
    const input = moves.map((m) => `${m}\n`).join('') + '\n', c = noC ? await runPort(input, portArgs({ nodes: 2000 })) : await runC(input, { nodes: 2000 });
    const r = replay(c.stdout, input);
    assert.equal(r.moves.length, moves.length, 'the C made no move either');
    assert.equal((await s.close()).code, 0);
  });
  test('default: a labelled fallback moves, and accepts moves; xboard resigns the lost side', async () => {
    const moves = lopsided(), chess = replayChess(moves), s = uciWithAsides();
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

describe('FEN', () => {
  test('what a FEN sets up is what the C\'s own moves build: pieces, castling rights, e.p., side, and Q', async (t) => {
    begin();
    const engine = openEngineThread(() => {});
    t.after(() => engine.worker.terminate());
    const at88 = (s: string): number => 16 * (56 - s.charCodeAt(1)) + s.charCodeAt(0) - 97;
    let checked = 0, epChecked = 0, castleRights = 0;
    for (const name of ['mixed-1e4', 'random-games', 'engine-1e3']) {
      const sc = SCRIPTS.find((x) => x.name === name)!, r = replay(fs.readFileSync(goldenPath(sc)), scriptInput(sc));
      const start = fen('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
      assert.ok(typeof start !== 'string');
      await engine.set(start);
      let promo = { w: 0, b: 0 };
      for (const m of r.moves) {
        if (!m.fide) break;                                            // (a castling FIDE forbids: no FEN follows it)
        const got = await engine.play(at88(m.from), at88(m.to), false);
        assert.ok(got.legal, `${name}: ${m.san}`);
        if (m.promotion) promo = { ...promo, [m.color]: promo[m.color] + 1 };
        const c = got.pos, f = fen(m.fenAfter);
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
      assert.ok(out.some((l) => /^info string error: no position: /.test(l.text) && re.test(l.text)), `${f}:\n${out.map((l) => l.text).join('\n')}`);
      assert.equal(out.at(-1)!.text, 'bestmove 0000');
    }
    s.send('position fen 4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1', 'go depth 3');  // a good one after the bad ones
    assert.match(await bestmoveOf(s), /^e8/);
    assert.equal((await s.close()).code, 0);
  });
});
