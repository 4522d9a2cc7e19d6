// npm run bench:gui -- [--games N] [--tc 0:10] [--inc 0.1] [--opponent fairymax|stockfish] [--elo 1320 | --skill 0]
//                      [--protocol xboard|uci] [--latency N]
// Plays N games through xboard (headless, under Xvfb) at a fast control and prints: games and
// results, time forfeits, illegal moves, mean time used a move against its budget, searches cut
// off; then, driving --uci directly, the latencies a GUI sees: stop during a search, isready
// during a search, the overrun of a movetime deadline (p50/p99), and the cost of a position at
// move 100 (all of it, then two new plies). The opponent is Fairy-Max, or Stockfish limited to
// UCI_Elo (1320, its lowest, by default) for a strength estimate.

import { Chess } from 'chess.js';
import { Session } from './gui.ts';
import { badEnding, budgets, match, whyNoXboard } from './xboard.ts';

const argv = process.argv.slice(2), opt = (name: string, def: string): string => {
  const k = argv.indexOf(`--${name}`);
  return k >= 0 && argv[k + 1] !== undefined ? argv[k + 1] : def;
};
const games = Number(opt('games', '10')), tc = opt('tc', '0:10'), inc = Number(opt('inc', '0.1'));
const opponent = opt('opponent', 'fairymax'), elo = opt('elo', '1320'), skill = opt('skill', ''), protocol = opt('protocol', 'xboard') as 'xboard' | 'uci';
const samples = Number(opt('latency', '40'));
const pct = (xs: number[], p: number): number => { const s = xs.slice().sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };
const ms = (x: number): string => `${x.toFixed(0)} ms`;

if (games > 0) {
  const why = whyNoXboard();
  if (why) { console.error(`bench:gui: ${why}`); process.exit(2); }
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
  const s = new Session('uci', { built: true }), rnd = (n: number): number => Math.floor(Math.random() * n);
  s.send('uci', 'isready');
  await s.expect(/^readyok$/);
  const stop: number[] = [], ready: number[] = [], over: number[] = [];
  const opening = ['', ' moves e2e4', ' moves e2e4 c7c5 g1f3', ' moves d2d4 g8f6 c2c4 e7e6'];
  for (let k = 0; k < samples; k++) {
    s.send(`position startpos${opening[k % 4]}`, 'go infinite');
    await new Promise((r) => setTimeout(r, 400 + rnd(1100)));          // (a new spare thread starts in ~0.3 s)
    let t = s.send('isready');
    ready.push((await s.expect(/^readyok$/)).t - t);
    t = s.send('stop');
    stop.push((await s.expect(/^bestmove /)).t - t);
    const mt = 50 + rnd(500);
    t = s.send(`position startpos${opening[(k + 1) % 4]}`, `go movetime ${mt}`);
    over.push((await s.expect(/^bestmove /)).t - t - mt);
  }
  const chess = new Chess(), moves: string[] = [];
  while (moves.length < 200 && !chess.isGameOver()) {                  // a long game to set up
    const list = chess.moves({ verbose: true }), m = list[moves.length * 7 % list.length];
    chess.move(m); moves.push(m.from + m.to + (m.promotion ?? ''));
  }
  let t = s.send('ucinewgame', `position startpos moves ${moves.slice(0, -2).join(' ')}`, 'isready');
  const whole = (await s.expect(/^readyok$/)).t - t;
  t = s.send(`position startpos moves ${moves.join(' ')}`, 'isready');
  const two = (await s.expect(/^readyok$/)).t - t;
  await s.close();
  console.log(`latency over ${samples} searches (dist/micromax.js --uci): stop -> bestmove p50 ${ms(pct(stop, 0.5))} p99 ${ms(pct(stop, 0.99))}; ` +
    `isready while thinking p50 ${ms(pct(ready, 0.5))} p99 ${ms(pct(ready, 0.99))}; movetime overrun p50 ${ms(pct(over, 0.5))} p99 ${ms(pct(over, 0.99))}`);
  console.log(`a position at move 100: ${moves.length - 2} plies from scratch ${ms(whole)}, then 2 new plies ${two.toFixed(1)} ms`);
}
