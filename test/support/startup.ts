// Start-up, measured as a GUI sees it: a command started bare, its handshake written at once
// (uci and isready; xboard, protover 2 and ping), and from the command's start (the process's own
// start-up included): when the first answer came (uciok, or done=1), when the engine was ready
// (readyok, or pong), and at that moment its CPU time and resident memory, from /proc. For the
// terminal game: its whole run on empty input (it prints the board and ends), by GNU time. Stockfish beside
// micro-Max, in the same rounds, alternating, for a figure that means something on a loaded
// machine; a process's first search and a later one timed to each depth; and CPU hogs, to load it
// on purpose.

import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { timedRun } from './run.ts';

export interface Startup { first: number; ready: number; cpu: number; rss: number }
export interface Contender { name: string; command: string[]; protocol: 'uci' | 'xboard' | 'terminal' }

const TICK_MS = 10;                                    // /proc's clock ticks (USER_HZ 100)

/** CPU ms (user + system) and resident MiB of a running process, or NaN once it has gone. */
function usage(pid: number): { cpu: number; rss: number } {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
    return { cpu: (Number(f[11]) + Number(f[12])) * TICK_MS, rss };
  } catch {
    return { cpu: NaN, rss: NaN };
  }
}

/** One start of a contender: ms to its first answer and to ready, CPU ms and MiB at ready (the
 *  terminal game: to its end, by GNU time). */
export function startOnce(c: Contender, limitMs = 30_000): Promise<Startup> {
  return c.protocol === 'terminal' ? wholeRun(c.command, limitMs) : handshake(c.command, c.protocol, limitMs);
}

/** The terminal game on empty input (it prints the board and ends): its whole run, timed as
 *  the benchmark times every run (run.ts). */
async function wholeRun(command: string[], limitMs: number): Promise<Startup> {
  const t = await timedRun(command[0], command.slice(1), '', limitMs);
  return { first: t.ms, ready: t.ms, cpu: 1000 * (t.cpuS ?? NaN), rss: (t.rssKB ?? NaN) / 1024 };
}

/** A protocol command's handshake, written at once: when the first answer came, when it was
 *  ready, and its CPU time and memory then. */
function handshake(command: string[], protocol: 'uci' | 'xboard', limitMs: number): Promise<Startup> {
  const t0 = performance.now();
  const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'ignore'] });
  const got: Startup = { first: NaN, ready: NaN, cpu: NaN, rss: NaN };
  const [firstRe, readyRe] = protocol === 'uci' ? [/^uciok$/m, /^readyok$/m] : [/^feature .*done=1/m, /^pong 1$/m];
  let out = '';
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      const t = performance.now() - t0;
      if (Number.isNaN(got.first) && firstRe.test(out)) got.first = t;
      if (Number.isNaN(got.ready) && readyRe.test(out)) {
        got.ready = t;
        Object.assign(got, usage(child.pid!));
        child.stdin.end('quit\n');
      }
    });
    child.stdin.on('error', () => { /* it ended */ });
    child.stdin.write(protocol === 'uci' ? 'uci\nisready\n' : 'xboard\nprotover 2\nping 1\n');
    child.on('close', () => {
      clearTimeout(timer);
      resolve(got);
    });
  });
}

/** rounds of every contender in turn; the median of each figure per contender. */
export async function startups(contenders: Contender[], rounds: number): Promise<Map<string, Startup>> {
  const runs = new Map<string, Startup[]>(contenders.map((c) => [c.name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const c of contenders) runs.get(c.name)!.push(await startOnce(c));
  }
  const median = (xs: number[]): number => {
    const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
    return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
  };
  return new Map([...runs].map(([name, rs]) => [name, {
    first: median(rs.map((x) => x.first)), ready: median(rs.map((x) => x.ready)),
    cpu: median(rs.map((x) => x.cpu)), rss: median(rs.map((x) => x.rss)),
  }]));
}

/** A process's first search and a later one, the same search: ms from the go's sending to each
 *  pass line a GUI sees (index: its depth), as a GUI that sends the first search pauseMs after
 *  readyok (a person to move first; 0: a match runner's white) sees them. The command runs as a
 *  GUI starts it: without the glibc tunable for huge pages that the tests' runs have (run.ts),
 *  so its hash table's pages are mapped 4 KiB at a time, each at its first write. */
export interface SearchTimes { first: number[]; later: number[] }
export const SEARCH = { position: 'position startpos', go: 'go depth 5', depths: [1, 3, 5] };

/** The first search and a later one of a UCI command started bare. */
export function searchTimes(command: string[], pauseMs: number, limitMs = 60_000): Promise<SearchTimes> {
  const env = { ...process.env };
  delete env.GLIBC_TUNABLES;
  const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'ignore'], env });
  const got: SearchTimes = { first: [], later: [] };
  let out = '';
  let sent = NaN;
  let search: number[] | undefined;
  const go = (times: number[]): void => {
    search = times;
    child.stdin.write(`${SEARCH.position}\n${SEARCH.go}\n`);
    sent = performance.now();
  };
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.stdout.on('data', (d: Buffer) => {
      const t = performance.now();
      const lines = (out + d.toString('latin1')).split('\n');
      out = lines.pop() ?? '';
      for (const line of lines) {
        const depth = /^info depth (\d+) /.exec(line);
        if (depth && search && search[+depth[1]] === undefined) search[+depth[1]] = t - sent;
        if (line === 'readyok') setTimeout(() => go(got.first), pauseMs);
        if (line.startsWith('bestmove') && search === got.first) go(got.later);
        else if (line.startsWith('bestmove')) child.stdin.end('quit\n');
      }
    });
    child.stdin.on('error', () => { /* it ended */ });
    child.stdin.write('uci\nisready\n');
    child.on('close', () => {
      clearTimeout(timer);
      resolve(got);
    });
  });
}

/** n processes that only burn CPU (`yes`), ended by the returned function. */
export function startHogs(n: number): () => void {
  const hogs: ChildProcess[] = [];
  for (let k = 0; k < n; k++) hogs.push(spawn('sh', ['-c', 'exec yes > /dev/null'], { stdio: 'ignore' }));
  return () => { for (const h of hogs) h.kill('SIGKILL'); };
}
