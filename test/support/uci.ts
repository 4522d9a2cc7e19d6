// A small UCI client, as a GUI's library has one: the handshake read into the engine's id and
// options, each go's info lines read into fields, and its bestmove. It drives micromax --uci
// through a Session, so every wait has a deadline and a test that fails ends the process.

import { Session } from './gui.ts';

/** An info line's fields (the ones micro-Max sends; unknown words are skipped). */
export interface Info {
  depth?: number;
  nodes?: number;
  nps?: number;
  time?: number;
  score?: { unit: 'cp' | 'mate'; value: number };
  pv?: string[];
  string?: string;
}

/** An option as the engine declares it. */
export interface UciOption { name: string; type: string; default?: string; min?: number; max?: number }

const NUMBERS = new Set(['depth', 'seldepth', 'nodes', 'nps', 'time', 'multipv', 'hashfull', 'tbhits', 'currmovenumber']);

/** The fields of `info ...`: numbers by name, the score, the pv (to the end), or the string. */
export function parseInfo(line: string): Info {
  const w = line.trim().split(/\s+/), info: Info = {};
  if (w[0] !== 'info') throw new Error(`not an info line: ${line}`);
  for (let k = 1; k < w.length; k++) {
    const word = w[k];
    if (word === 'string') { info.string = w.slice(k + 1).join(' '); break; }
    if (word === 'pv') { info.pv = w.slice(k + 1); break; }
    if (word === 'score' && (w[k + 1] === 'cp' || w[k + 1] === 'mate')) {
      info.score = { unit: w[k + 1] as 'cp' | 'mate', value: Number(w[k + 2]) };
      k += 2;
    } else if (NUMBERS.has(word)) {
      const x = Number(w[++k]);
      if (!Number.isInteger(x)) throw new Error(`info ${word} is not a whole number: ${line}`);
      if (word === 'depth' || word === 'nodes' || word === 'nps' || word === 'time') info[word] = x;
    }
  }
  return info;
}

/** `option name <words> type <t> [default <words>] [min <n>] [max <n>]`. */
export function parseOption(line: string): UciOption {
  const m = /^option name (.+?) type (\w+)(?: default (.*?))?(?: min (-?\d+))?(?: max (-?\d+))?$/.exec(line.trim());
  if (!m) throw new Error(`not an option line: ${line}`);
  return { name: m[1], type: m[2], default: m[3], min: m[4] === undefined ? undefined : Number(m[4]), max: m[5] === undefined ? undefined : Number(m[5]) };
}

export class UciClient {
  readonly session: Session;
  readonly id: { name?: string; author?: string } = {};
  readonly options = new Map<string, UciOption>();

  constructor(args: string[] = []) { this.session = new Session('uci', { args }); }

  /** uci, up to uciok: the id and the options; any other line before uciok is an error. */
  async init(): Promise<void> {
    this.session.send('uci');
    for (const { text } of await this.session.upTo(/^uciok$/, 30_000)) {
      const id = /^id (name|author) (.*)$/.exec(text);
      if (id) this.id[id[1] as 'name' | 'author'] = id[2];
      else if (text.startsWith('option ')) { const o = parseOption(text); this.options.set(o.name, o); }
      else if (text !== 'uciok') throw new Error(`before uciok: ${text}`);
    }
  }

  async isready(): Promise<void> {
    this.session.send('isready');
    await this.session.expect(/^readyok$/, 30_000);
  }

  ucinewgame(): void { this.session.send('ucinewgame'); }

  setoption(name: string, value: string): void { this.session.send(`setoption name ${name} value ${value}`); }

  /** position startpos (no FEN) or fen, then the moves. */
  position(fen: string | undefined, moves: string[]): void {
    this.session.send(`position ${fen === undefined ? 'startpos' : `fen ${fen}`}${moves.length ? ` moves ${moves.join(' ')}` : ''}`);
  }

  /** go with these limits (wtime 1000 ...): the info lines before the bestmove, and the move. */
  async go(limits: Record<string, number>, ms = 120_000): Promise<{ bestmove: string; info: Info[] }> {
    this.session.send(`go ${Object.entries(limits).map(([k, v]) => `${k} ${v}`).join(' ')}`.trim());
    const lines = await this.session.upTo(/^bestmove /, ms);
    const bestmove = lines.at(-1)!.text.split(' ')[1];
    return { bestmove, info: lines.filter((l) => l.text.startsWith('info ')).map((l) => parseInfo(l.text)) };
  }

  /** quit, and the exit code. */
  async quit(): Promise<number | null> { return (await this.session.close()).code; }
}
