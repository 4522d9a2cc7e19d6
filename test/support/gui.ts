// Drives `micromax.ts --uci` / `--xboard` as a GUI would: lines in, lines out with the time each
// arrived, and waits with a deadline (a hung engine fails the test instead of hanging it); kills a
// session a failed test leaves (after each test, or after the test that owns it); the move the C
// plays after a game's moves at `--nodes N`.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import { after, afterEach, type TestContext } from 'node:test';
import { Chess } from 'chess.js';
import { legalTexts, replay } from './boards.ts';
import { whyNoC } from './c-oracle.ts';
import { portArgs, portCommand, ROOT, runC, runPort, sourceCommand } from './run.ts';

export interface Line { t: number; text: string }

// A failed test must not leave a session running: after each test (and after the file) every
// session still alive is killed, so a failing file still ends; a session a test owns (opts.test)
// is killed after that test alone, so tests that run concurrently do not end each other's. Only
// in a test file: the hooks make any process a test run, and a tool (bench:gui) must end as a
// tool does.
const live = new Set<Session>();
const inTestFile = /\.test\.ts$/.test(process.argv[1] ?? '');
const killLive = (): void => { for (const s of live) s.proc.kill('SIGKILL'); };
if (inTestFile) {
  afterEach(killLive);
  after(killLive);
}

export class Session {
  readonly lines: Line[] = [];
  readonly proc: ChildProcessWithoutNullStreams;
  stderr = '';
  private seen = 0;                                   // lines before this one were matched already
  private wake: (() => void) | undefined;
  readonly exited: Promise<{ code: number | null; signal: string | null }>;

  /** protocol: 'uci' or 'xboard'; source: run micromax.ts through tsx (its engine thread then
   *  loads itself through tsx too), not dist/micromax.js (what npm start and the tests run);
   *  test: the test that owns it, after which it is killed. */
  constructor(protocol: 'uci' | 'xboard', opts: { source?: boolean; args?: string[]; test?: TestContext } = {}) {
    const args = [`--${protocol}`, ...(opts.args ?? [])];
    const [cmd, argv] = opts.source ? sourceCommand(args) : portCommand(args);
    this.proc = spawn(cmd, argv, { cwd: ROOT });
    let part = '';
    this.proc.stdout.on('data', (d: Buffer) => {
      const t = performance.now(), got = (part + d.toString('latin1')).split('\n');
      part = got.pop()!;
      for (const text of got) this.lines.push({ t, text });
      this.wake?.();
    });
    this.proc.stderr.on('data', (d: Buffer) => { this.stderr += d.toString(); });
    this.proc.stdin.on('error', () => { /* it may have exited */ });
    this.exited = new Promise((res) => this.proc.on('close', (code, signal) => { live.delete(this); res({ code, signal }); this.wake?.(); }));
    if (opts.test) opts.test.after(() => this.proc.kill('SIGKILL'));
    else live.add(this);
  }

  /** Sends lines; returns the time they were written. */
  send(...lines: string[]): number {
    this.proc.stdin.write(lines.map((l) => l + '\n').join(''));
    return performance.now();
  }

  /** The next unmatched line matching re (later lines stay unmatched); fails after ms. */
  async expect(re: RegExp, ms = 60_000): Promise<Line> {
    const until = performance.now() + ms;
    for (;;) {
      const k = this.lines.findIndex((l, i) => i >= this.seen && re.test(l.text));
      if (k >= 0) { this.seen = k + 1; return this.lines[k]; }
      const left = until - performance.now();
      if (left <= 0 || this.proc.exitCode !== null) {
        throw new Error(`no line matching ${re} within ${ms} ms; the last lines:\n${this.lines.slice(-12).map((l) => l.text).join('\n')}\n${this.stderr}`);
      }
      await new Promise<void>((res) => { const timer = setTimeout(res, left); this.wake = () => { clearTimeout(timer); res(); }; });
    }
  }

  /** The lines after the cursor up to and including the next match of re. */
  async upTo(re: RegExp, ms?: number): Promise<Line[]> {
    const from = this.seen, hit = await this.expect(re, ms);
    return this.lines.slice(from, this.lines.indexOf(hit) + 1);
  }

  /** Peak and current resident memory of the process, in MiB (Linux /proc), or undefined. */
  memory(): { peak: number; now: number } | undefined {
    try {
      const status = fs.readFileSync(`/proc/${this.proc.pid}/status`, 'utf8');
      const kB = (key: string): number => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
      return { peak: kB('VmHWM') / 1024, now: kB('VmRSS') / 1024 };
    } catch { return undefined; }
  }

  /** The lines received so far after line `from` (an index into lines). */
  since(from: number): string[] { return this.lines.slice(from).map((l) => l.text); }

  /** Ends the input (or sends quit) and waits for the exit. */
  async close(quit = true): Promise<{ code: number | null; signal: string | null }> {
    if (quit) this.send('quit');
    this.proc.stdin.end();
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), 20_000);
    const r = await this.exited;
    clearTimeout(timer);
    return r;
  }
}

/** The UCI info string that says how to replay a move: [nodes, plies before it] or undefined. */
export function replayOf(text: string): { nodes: number; plies: number; cut: boolean } | undefined {
  const m = /--nodes (\d+) after this game's (\d+) moves/.exec(text);
  return m ? { nodes: Number(m[1]), plies: Number(m[2]), cut: text.includes('cut off') } : undefined;
}

export { ROOT };

/** Replays moves (typed) then an empty line in the C, or in the port's terminal mode without the
 *  C (byte-identical to it by the transcript tests), at --nodes n; the move it plays last. */
export async function cMove(moves: string[], n: number): Promise<string> {
  const input = moves.map((m) => `${m}\n`).join('') + '\n';
  const r = whyNoC() ? await runPort(input, portArgs({ nodes: n })) : await runC(input, { nodes: n });
  const g = replay(r.stdout, input), last = g.moves.at(-1);
  return last && last.index === g.boards.length - 1 && last.by === 'engine' ? last.from + last.to + (last.promotion ?? '') : '0000';
}

/** The move of the next bestmove line. */
export const bestmoveOf = async (s: Session): Promise<string> => (await s.expect(/^bestmove /)).text.split(' ')[1];

/** Is the text a legal move in the position (a promotion needs its letter)? */
export const legalIn = (chess: Chess, mv: string): boolean => legalTexts(chess).has(mv.slice(0, 4)) &&
  (mv.length === 4 || chess.moves({ verbose: true }).some((m) => m.from + m.to === mv.slice(0, 4) && m.promotion === mv[4]));

/** chess.js after these moves (as a GUI writes them) from a FEN or the start. */
export function replayChess(moves: string[], from?: string): Chess {
  const chess = new Chess(from);
  for (const m of moves) chess.move({ from: m.slice(0, 2), to: m.slice(2, 4), promotion: m[4] });
  return chess;
}
