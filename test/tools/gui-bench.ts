// npm run bench:gui -- [--games N] [--tc 0:10] [--inc 0.1] [--opponent fairymax|stockfish] [--elo 1320 | --skill 0]
//                      [--protocol xboard|uci] [--latency N] [--startup N] [--first N] [--script FILE] [--trust N]
//                      [--node-rate N]
// Start-up first: `micromax-uci`, `micromax --uci`, `micromax-xboard`, the terminal game and
// Stockfish, each started bare N times in turn, on a quiet machine and then with 2 CPU hogs (see
// `support/startup.ts`), and the first search of a process against a later one (to depth 1, 3 and
// 5, with the `go` sent at once after `readyok` and 2 s after it). Then it plays N games through
// xboard (headless, under Xvfb) at a fast control and prints: games and results, time forfeits,
// illegal moves, mean time used a move against its budget, searches cut off; then, driving `--uci` directly: `stop` during a search and
// `isready` during a search (p50/p99), the share of a `movetime` used, the cost of a position at
// move 100 (all of it, then two new plies) and of a 600-ply one, and peak memory against a terminal
// search. The opponent is Fairy-Max, or Stockfish limited to `UCI_Elo` (1320, its lowest, by
// default) for a strength estimate. Then time a player trusts: whole games at 2+1 and 10+0.1
// against Stockfish at `UCI_Elo` 1320 (Fairy-Max 5.0b segfaults now and then at a game's start
// beside CPU hogs) with two CPU hogs running, the longest move against its aim and the clock, and
// any move past the rule (the smaller of 2.5 times its aim and a tenth of the clock plus the
// increment). And a match at a node rate, twice, the second beside two CPU hogs, through UCI and
// through xboard: the same PGNs?
//
// time: 20–45 min

import * as fs from 'node:fs';
import * as path from 'node:path';
import { Chess } from 'chess.js';
import { Session } from '../support/gui.ts';
import { fail, oneOf, positive, readOptions, whole } from '../support/options.ts';
import { portCommand, ROOT, timedRun } from '../support/run.ts';
import { linkCommands } from '../support/linked.ts';
import { twice, uciGame, uciPgn, xboardGame, xboardPgn } from '../support/node-rate.ts';
import { SEARCH, searchTimes, startHogs, startups, type Contender } from '../support/startup.ts';
import { badEnding, budgets, match, moveTimes, whyNoXboard } from '../support/xboard.ts';

const USAGE = `usage: npm run bench:gui -- [--games N] [--tc 0:10] [--inc 0.1] [--opponent fairymax|stockfish]
                          [--elo 1320 | --skill 0] [--protocol xboard|uci] [--latency N]
  --games N      games through xboard (default 10; 0: none, only the latency part)
  --tc M:S       each side's base time (default 0:10)
  --inc S        increment in seconds (default 0.1)
  --opponent E   fairymax (default) or stockfish
  --elo E        Stockfish's UCI_Elo (default 1320, its lowest)
  --skill K      or Stockfish's Skill Level instead
  --protocol P   xboard (default) or uci (through polyglot)
  --latency N    stop and isready samples (default 60)
  --startup N    rounds of start-ups, quiet and with 2 CPU hogs (default 5; 0: none)
  --first N      processes whose first search is timed against a later one, quiet and with 2
                 CPU hogs, go at once and 2 s after readyok (default 5; 0: none)
  --script FILE  the start-ups of this build of micromax.js (default dist/micromax.js; e.g. an
                 older one, to compare)
  --trust N      with 2 CPU hogs: N games at 2+1 and 5 N at 10+0.1 against Stockfish (default 2; 0: none)
  --node-rate N  a match at N nodes a ms, twice, through UCI and xboard (default 100; 0: none)`;
const { values } = readOptions('bench:gui', USAGE, {
  games: { type: 'string' }, tc: { type: 'string' }, inc: { type: 'string' }, opponent: { type: 'string' },
  elo: { type: 'string' }, skill: { type: 'string' }, protocol: { type: 'string' }, latency: { type: 'string' },
  startup: { type: 'string' }, first: { type: 'string' }, script: { type: 'string' }, trust: { type: 'string' },
  'node-rate': { type: 'string' },
});
const games = whole('bench:gui', 'games', values.games, 0) ?? 10;
const tc = values.tc ?? '0:10';
if (!/^\d+(:\d+)?$/.test(tc)) fail('bench:gui', `--tc wants minutes or minutes:seconds, not '${tc}'`);
const inc = positive('bench:gui', 'inc', values.inc, true) ?? 0.1;
const opponent = oneOf('bench:gui', 'opponent', values.opponent, ['fairymax', 'stockfish'] as const) ?? 'fairymax';
const elo = String(whole('bench:gui', 'elo', values.elo, 1320, 3190) ?? 1320);
const skill = values.skill === undefined ? '' : String(whole('bench:gui', 'skill', values.skill, 0, 20));
const protocol = oneOf('bench:gui', 'protocol', values.protocol, ['xboard', 'uci'] as const) ?? 'xboard';
const samples = whole('bench:gui', 'latency', values.latency, 0) ?? 60;
const rounds = whole('bench:gui', 'startup', values.startup, 0) ?? 5;
const firsts = whole('bench:gui', 'first', values.first, 0) ?? 5;
const trust = whole('bench:gui', 'trust', values.trust, 0) ?? 2;
const rate = whole('bench:gui', 'node-rate', values['node-rate'], 0, 10000) ?? 100;
const script = path.resolve(values.script ?? path.join(ROOT, 'dist', 'micromax.js'));
if (!fs.existsSync(script)) fail('bench:gui', `--script: no ${script}`);
const pct = (xs: number[], p: number): number => { const s = xs.slice().sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const ms = (x: number): string => `${x.toFixed(0)} ms`;

if (rounds > 0) {
  // micromax-uci and micromax-xboard as the build writes them beside the script (an older build
  // may have none: then only micromax --uci, the terminal game and Stockfish)
  const beside = (name: string): string => path.join(path.dirname(script), `${name}.js`);
  const contenders: Contender[] = [
    ...fs.existsSync(beside('micromax-uci')) ? [{ name: 'micromax-uci', command: [beside('micromax-uci')], protocol: 'uci' as const }] : [],
    { name: 'micromax --uci', command: [process.execPath, script, '--uci'], protocol: 'uci' },
    ...fs.existsSync(beside('micromax-xboard')) ? [{ name: 'micromax-xboard', command: [beside('micromax-xboard')], protocol: 'xboard' as const }] : [],
    { name: 'micromax (terminal)', command: [process.execPath, script], protocol: 'terminal' },
    ...(fs.existsSync('/usr/games/stockfish') ? [{ name: 'stockfish', command: ['/usr/games/stockfish'], protocol: 'uci' as const }] : []),
  ];
  console.log(`start-up, median of ${rounds} rounds, from the command's start (${path.relative(ROOT, script) || script}, node ${process.version}):`);
  console.log('load        command               uciok/done=1  readyok/pong  CPU at ready  RSS at ready');
  for (const hogs of [0, 2]) {
    const stop = startHogs(hogs);
    const got = await startups(contenders, rounds);
    stop();
    const load = hogs ? `${hogs} CPU hogs` : 'quiet';
    for (const [name, r] of got) {
      console.log(`${load.padEnd(11)} ${name.padEnd(21)} ${ms(r.first).padStart(12)}  ${ms(r.ready).padStart(12)}  ` +
        `${ms(r.cpu).padStart(12)}  ${`${r.rss.toFixed(0)} MiB`.padStart(12)}`);
    }
    const sf = got.get('stockfish'), ours = got.get('micromax-uci') ?? got.get('micromax --uci')!;
    const xb = got.get('micromax-xboard'), game = got.get('micromax (terminal)')!;
    if (sf) {
      const done = xb ? `, done=1 ${ms(xb.first - sf.first)}` : '';
      console.log(`${load.padEnd(11)} uciok ${ms(ours.first - sf.first)}${done} after Stockfish's uciok (the goal: at most 100 ms)`);
    }
    const times = (ours.ready / game.ready).toFixed(2);
    console.log(`${load.padEnd(11)} uci to readyok ${times} times the terminal game's start-up (the goal: at most 2)`);
  }
}

if (firsts > 0) await firstSearches(firsts);

if (games > 0) {
  const why = whyNoXboard();
  if (why) fail('bench:gui', why);
  const sf = opponent === 'stockfish';
  const m = await match({ protocol, games, tc, inc, timeoutS: 400 * games,
    opponent: sf ? `stockfish` : 'fairymax', opponentUci: sf,
    ...(sf ? { secondOptions: skill ? `Skill Level=${skill}` : `UCI_LimitStrength=true,UCI_Elo=${elo}` } : {}) });
  const ours = (g: { white: string }): boolean => g.white.startsWith('micro-Max');
  let w = 0, d = 0, l = 0;
  for (const g of m.games) {
    if (g.result === '1/2-1/2') d++;
    else if ((g.result === '1-0') === ours(g)) w++; else l++;
  }
  const b = budgets(m.debug), forfeits = m.games.filter((g) => /time/i.test(g.comment)).length;
  const illegal = m.games.filter((g) => /illegal|false/i.test(g.comment)).length;
  const mean = (xs: number[]): number => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);
  console.log(`${m.games.length} games (${protocol}) at ${tc} + ${inc} s against ${sf ? `Stockfish (${skill ? `Skill Level ${skill}` : `UCI_Elo ${elo}`})` : 'Fairy-Max'}, ` +
    `${(m.seconds / 60).toFixed(1)} min: micro-Max +${w} =${d} -${l}`);
  for (const g of m.games) console.log(`  ${g.white} - ${g.black}: ${g.result} {${g.comment}} ${g.plies} plies${badEnding(g) ? '  <- NOT BY RULE' : ''}`);
  console.log(`time forfeits ${forfeits}, illegal moves or false claims ${illegal}`);
  if (b.length) {
    console.log(`${b.length} moves: ${ms(mean(b.map((x) => x.used)))} used a move against ${ms(mean(b.map((x) => x.target)))} budgeted ` +
      `(ratio ${(mean(b.map((x) => x.used)) / mean(b.map((x) => x.target))).toFixed(2)}); longest ${ms(Math.max(...b.map((x) => x.used)))}; ` +
      `${b.filter((x) => x.cut).length} cut off at the deadline`);
  }
}

if (samples > 0) {
  // A terminal search for comparison: its peak RSS (GNU time), one think at --nodes 2e6.
  const [node, argv] = portCommand(['--nodes', '2000000']);
  const terminal = await timedRun(node, argv, '\n');
  const s = new Session('uci'), rnd = (n: number): number => Math.floor(Math.random() * n);
  s.send('uci', 'isready');
  await s.expect(/^readyok$/);
  const stop: number[] = [], ready: number[] = [], use: number[] = [], useNet: number[] = [];
  const opening = ['', ' moves e2e4', ' moves e2e4 c7c5 g1f3', ' moves d2d4 g8f6 c2c4 e7e6'];
  for (let k = 0; k < samples; k++) {
    s.send(`position startpos${opening[k % 4]}`, 'go infinite');
    await new Promise((r) => setTimeout(r, 20 + rnd(700)));            // any moment of the search
    let t = s.send('isready');
    ready.push((await s.expect(/^readyok$/)).t - t);
    t = s.send('stop');
    stop.push((await s.expect(/^bestmove /)).t - t);
    const mt = 200 + rnd(1300);
    t = s.send(`position startpos${opening[(k + 1) % 4]}`, `go movetime ${mt}`);
    const used = (await s.expect(/^bestmove /)).t - t;
    use.push(used / mt); useNet.push(used / (mt - 50));
  }
  const chess = new Chess(), moves: string[] = [];
  while (moves.length < 600 && chess.moves().length) {                  // a long game to set up
    const list = chess.moves({ verbose: true }), m = list[moves.length * 7 % list.length];
    chess.move(m); moves.push(m.from + m.to + (m.promotion ?? ''));
  }
  const at = (n: number): string => `position startpos moves ${moves.slice(0, n).join(' ')}`;
  let t = s.send('ucinewgame', at(198), 'isready');
  const whole = (await s.expect(/^readyok$/)).t - t;
  t = s.send(at(200), 'isready');
  const two = (await s.expect(/^readyok$/)).t - t;
  t = s.send('ucinewgame', at(moves.length), 'isready');
  const long = (await s.expect(/^readyok$/)).t - t;
  const mem = s.memory();
  await s.close();
  console.log(`over ${samples} searches (dist/micromax.js --uci): stop -> bestmove p50 ${ms(pct(stop, 0.5))} p99 ${ms(pct(stop, 0.99))} ` +
    `max ${ms(Math.max(...stop))}; isready while thinking p50 ${ms(pct(ready, 0.5))} p99 ${ms(pct(ready, 0.99))}; ` +
    `movetime used/asked p50 ${pct(use, 0.5).toFixed(3)} min ${Math.min(...use).toFixed(3)} ` +
    `(/(asked - 50 ms overhead) p50 ${pct(useNet, 0.5).toFixed(3)} min ${Math.min(...useNet).toFixed(3)})`);
  console.log(`a position at move 100: 198 plies from scratch ${ms(whole)}, then 2 new plies ${two.toFixed(1)} ms; ` +
    `${moves.length} plies from scratch ${ms(long)} (${(long / moves.length).toFixed(2)} ms a ply)`);
  console.log(`peak RSS: GUI session ${mem ? `${mem.peak.toFixed(0)} MiB` : 'n/a'}; terminal search (--nodes 2e6) ` +
    `${terminal.rssKB ? `${(terminal.rssKB / 1024).toFixed(0)} MiB` : 'n/a (no GNU time)'}`);
}

/** The first search of n processes against a later one: quiet and with 2 CPU hogs, the go sent at
 *  once after readyok (a match runner's white) and 2 s after it (a person, or the other engine,
 *  moves first; the warm-up is over by then). Medians of each depth's time. */
async function firstSearches(n: number): Promise<void> {
  const uci = path.join(path.dirname(script), 'micromax-uci.js');
  const command = fs.existsSync(uci) ? [uci] : [process.execPath, script, '--uci'];
  const median = (xs: number[]): number => xs.slice().sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
  const at = (xs: number[][]): string => SEARCH.depths.map((d) => median(xs.map((x) => x[d] ?? NaN)).toFixed(0)).join(' / ');
  console.log(`the first search of a process and a later one ('${SEARCH.position}', '${SEARCH.go}'), median of ${n} processes, ` +
    `ms from the go to depth ${SEARCH.depths.join(' / ')}:`);
  for (const hogs of [0, 2]) {
    for (const pause of [0, 2000]) {
      const stop = startHogs(hogs);
      const runs = [];
      for (let k = 0; k < n; k++) runs.push(await searchTimes(command, pause));
      stop();
      const first = runs.map((r) => r.first), later = runs.map((r) => r.later);
      const ratio = median(first.map((x) => x[1])) / median(later.map((x) => x[1]));
      console.log(`${(hogs ? `${hogs} CPU hogs` : 'quiet').padEnd(11)} go ${pause ? `${pause / 1000} s after` : 'at once after'} readyok: ` +
        `first ${at(first)}, later ${at(later)}; depth 1 ${ratio.toFixed(2)} times a later search's (the goal: at most 2)`);
    }
  }
}

/** Time a player trusts: whole games through xboard with two CPU hogs running, `games` at 2+1 and
 *  5 × that at 10+0.1, against Stockfish at UCI_Elo 1320 (Fairy-Max without it). Each of
 *  micro-Max's moves as xboard timed it (its debug log), against the rule: no move past the
 *  smaller of 2.5 times its aim and a tenth of the clock plus the increment. */
async function trustedTime(games: number): Promise<void> {
  const why = whyNoXboard();
  if (why) fail('bench:gui', why);
  const sf = fs.existsSync('/usr/games/stockfish');
  const against = sf ? { opponent: 'stockfish', opponentUci: true, secondOptions: 'UCI_LimitStrength=true,UCI_Elo=1320' } : {};
  for (const [tc, inc, n] of [['2', 1, games], ['0:10', 0.1, 5 * games]] as const) {
    const stop = startHogs(2);
    const m = await match({ protocol: 'xboard', games: n, tc, inc, timeoutS: 600 * n, ...against }).finally(stop);
    const moves = moveTimes(m.debug);
    const cut = (x: { aim: number; clock: number }): number => Math.min(2.5 * x.aim, x.clock / 10 + 1000 * inc);
    const longest = moves.reduce((a, x) => x.took > a.took ? x : a);
    const tightest = moves.reduce((a, x) => x.took / cut(x) > a.took / cut(a) ? x : a);
    const past = moves.filter((x) => x.took > cut(x));
    const forfeits = m.games.filter((g) => /time/i.test(g.comment)).length;
    const said = (x: typeof longest): string => `${ms(x.took)} (aim ${ms(x.aim)}, clock ${ms(x.clock)}, the rule's cut ${ms(cut(x))})`;
    console.log(`${m.games.length} games at ${tc === '2' ? '2 min' : '10 s'} + ${inc} s against ${sf ? 'Stockfish (UCI_Elo 1320)' : 'Fairy-Max'} with 2 CPU hogs, ` +
      `${(m.seconds / 60).toFixed(1)} min: ${moves.length} moves by micro-Max, time forfeits ${forfeits}, ` +
      `not by rule ${m.games.filter((g) => badEnding(g)).length}`);
    console.log(`  the longest move ${said(longest)}; the closest to its cut ${said(tightest)}, ` +
      `${(100 * tightest.took / cut(tightest)).toFixed(0)} %; moves past the rule: ${past.length}`);
  }
}

/** A match at `rate` nodes a ms, twice, the second beside two CPU hogs (support/node-rate.ts):
 *  through UCI (the project's runner, nodestime) and through xboard (-firstNPS, -secondNPS). */
async function nodeRateMatches(rate: number): Promise<void> {
  const uci = await twice(() => uciGame(rate, 10000, 100));
  const same = uciPgn(uci.quiet) === uciPgn(uci.loaded);
  console.log(`UCI, nodestime ${rate}, 10 s + 0.1 (the runner's wall clock): ${uci.quiet.moves.length} plies, ${uci.quiet.result} ` +
    `(${uci.quiet.reason}); beside 2 CPU hogs ${uci.loaded.moves.length} plies (${uci.loaded.reason}); the PGNs ` +
    `${same ? 'identical' : 'DIFFERENT'}, the runner's date and seconds masked`);
  if (whyNoXboard()) return console.log(`xboard at a node rate: ${whyNoXboard()}`);
  const bin = linkCommands().bin;
  const xb = await twice(() => xboardGame(bin, 1000 * rate, '0:10', 0.1));
  const game = (m: typeof xb.quiet): string => m.games.map((g) => `${g.plies} plies, ${g.result} {${g.comment}}`).join('; ') || 'no game';
  console.log(`xboard, nps ${1000 * rate}, 10 s + 0.1 (xboard's clocks counting nodes): ${game(xb.quiet)}, ${xb.quiet.seconds.toFixed(0)} s; ` +
    `beside 2 CPU hogs ${game(xb.loaded)}, ${xb.loaded.seconds.toFixed(0)} s; the PGNs ` +
    `${xboardPgn(xb.quiet) === xboardPgn(xb.loaded) ? 'identical' : 'DIFFERENT'}, the date masked`);
}

if (trust > 0) await trustedTime(trust);
if (rate > 0) await nodeRateMatches(rate);
