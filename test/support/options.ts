// The command line of every tool in test/tools/, read by node:util's parseArgs. The messages
// and exit codes are micromax.ts's own: `--help` prints the tool's usage on stdout and exits 0;
// anything wrong prints one line, `<tool>: <what is wrong> (see --help)`, on stderr and exits 2.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { nodeValue } from './c-oracle.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

// A tool ends as micromax.ts does, never by process.exit(), which can hang Node for good at
// exit (see "How the program ends" there): exit() throws an Exit, which sets the exit code
// wherever it is thrown, and Node ends once nothing is left to do. Any other uncaught error is
// printed with its stack, exit code 1, as Node would.
export class Exit {
  constructor(readonly code: number) {}
}
export function exit(code: number): never {
  throw new Exit(code);
}
process.on('uncaughtException', (err) => {
  if (!(err instanceof Exit)) process.stderr.write(`${err.stack ?? err}\n`);
  process.exitCode = err instanceof Exit ? err.code : 1;
});

/** Cannot do it, for a reason other than the command line: one line on stderr, exit 2. */
export function cannot(tool: string, message: string): never {
  process.stderr.write(`${tool}: ${message}\n`);
  exit(2);
}

/** The input a tool reads: with `moves`, those moves typed one a line and an empty line (micro-Max's
 *  move); else the file (relative to where npm was run) or stdin; exit 2 when it cannot be read. */
export function readInput(tool: string, moves: string[] | undefined, file: string | undefined): Buffer {
  if (moves) return Buffer.from(moves.map((m) => `${m}\n`).join('') + '\n');
  try {
    return file === undefined ? fs.readFileSync(0) : fs.readFileSync(userPath(file));
  } catch (err) {
    return fail(tool, `cannot read ${file ?? 'stdin'}: ${(err as Error).message}`);
  }
}

/** One line on stderr, exit 2. */
export function fail(tool: string, message: string): never {
  process.stderr.write(`${tool}: ${message} (see --help)\n`);
  exit(2);
}

// parseArgs's own messages are long and name its internals; say what is wrong in our words.
function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const name = /'(-[^' ]+)/.exec(e.message)?.[1] ?? '';
  const option = name.replace(/ <value>$/, '');
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option '${option}'`;
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument '${/'([^']*)'/.exec(e.message)?.[1] ?? ''}'`;
  if (/does not take an argument/.test(e.message)) return `${option} takes no value`;
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return `${option} wants a value`;
  return e.message ?? String(err);
}

// parseArgs refuses `--depth -1` as ambiguous (the value looks like an option) and its message
// does not show the value; joined as `--depth=-1`, the value reaches the tool's own check, which
// says what is wrong with it. A following word that is one of the tool's options is left alone.
function joinValues(argv: string[], options: Options): string[] {
  const args: string[] = [];
  for (let a = 0; a < argv.length; a++) {
    const name = argv[a].startsWith('--') ? argv[a].slice(2) : '';
    const next = argv[a + 1];
    const takesValue = Object.hasOwn(options, name) && options[name].type === 'string';
    if (takesValue && next !== undefined && next.startsWith('-') && !Object.hasOwn(options, next.slice(2))) {
      args.push(`${argv[a]}=${next}`);
      a++;
    } else {
      args.push(argv[a]);
    }
  }
  return args;
}

/**
 * The tool's options: `--help` is added to them. With `positionals`, bare arguments are allowed
 * (at most that many).
 */
export function readOptions<O extends Options>(tool: string, usage: string, options: O, positionals = 0,
  argv = process.argv.slice(2)) {
  const config = { args: joinValues(argv, options), options, allowPositionals: positionals > 0, strict: true as const };
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(usage.endsWith('\n') ? usage : `${usage}\n`);
    exit(0);
  }
  const took = npmTook(Object.keys(options));
  if (took.length) {
    const script = process.env.npm_lifecycle_event;
    fail(tool, `options after \`npm run ${script}\` need \`--\` before them: npm took ${took.join(', ')} for itself ` +
      `(npm run ${script} -- ${took.join(' ')} ...)`);
  }
  let read;
  try {
    read = parseArgs(config);
  } catch (err) {
    return fail(tool, reason(err));
  }
  if (read.positionals.length > positionals) fail(tool, `takes at most ${positionals === 1 ? 'one argument' : `${positionals} arguments`}, not ${read.positionals.length}`);
  return read;
}

/** The tool's options that npm took for its own, when the tool runs as an npm script whose options
 *  were given without `--` before them: npm then keeps each option as a setting of its own (in the
 *  environment, npm_config_<name>=true; --calls, read as npm's -c -a -l -l -s, as --all and --long) and
 *  passes only the values on, as arguments. */
function npmTook(names: string[]): string[] {
  const env = process.env;
  if (!env.npm_lifecycle_event || !/test\/tools\//.test(env.npm_lifecycle_script ?? '')) return [];
  return names.filter((name) => env[`npm_config_${name.replace(/-/g, '_')}`] !== undefined ||
    (name === 'calls' && env.npm_config_all !== undefined && env.npm_config_long !== undefined)).map((name) => `--${name}`);
}

/** A whole number within [least, most], or exit 2 naming the option. */
export function whole(tool: string, name: string, v: string | undefined, least: number, most = 2147483647): number | undefined {
  if (v === undefined) return undefined;
  const x = Number(v);
  if (!/^\d+$/.test(v.trim()) || x < least || x > most) fail(tool, `--${name} wants a whole number from ${least} to ${most}, not '${v}'`);
  return x;
}

/** A number above 0 (or from 0, with `zero`), a decimal if need be, or exit 2 naming the option. */
export function positive(tool: string, name: string, v: string | undefined, zero = false): number | undefined {
  if (v === undefined) return undefined;
  const x = Number(v);
  const fits = /^[0-9.e+]+$/i.test(v.trim()) && Number.isFinite(x) && (zero ? x >= 0 : x > 0);
  if (!fits) fail(tool, `--${name} wants a number ${zero ? 'from 0' : 'above 0'}, not '${v}'`);
  return x;
}

/** One of the words given, or exit 2. */
export function oneOf<W extends string>(tool: string, name: string, v: string | undefined, words: readonly W[]): W | undefined {
  if (v === undefined) return undefined;
  if (!(words as readonly string[]).includes(v)) fail(tool, `--${name} wants ${words.join(' or ')}, not '${v}'`);
  return v as W;
}

/** The default --timeout of the tools that run a program under test, in seconds. */
export const TIMEOUT_S = 600;

/** --timeout S: how long each run of a program (or of the C) may take, in seconds (a decimal if
 *  need be, at most 1e6), as milliseconds; TIMEOUT_S without it; or exit 2. */
export function timeLimit(tool: string, v: string | undefined): number {
  const s = positive(tool, 'timeout', v) ?? TIMEOUT_S;
  if (s > 1e6) fail(tool, `--timeout wants at most 1000000 seconds, not '${v}'`);
  return Math.max(1, Math.round(s * 1000));
}

/** A list of moves like e2e4 (with a promotion letter if `promotions`), or exit 2. */
export function moveList(tool: string, v: string | undefined, promotions: boolean): string[] | undefined {
  if (v === undefined) return undefined;
  const moves = v.trim().split(/\s+/).filter(Boolean);
  const pattern = promotions ? /^[a-h][1-8][a-h][1-8][qrbn]?$/ : /^[a-h][1-8][a-h][1-8]$/;
  const bad = moves.find((m) => !pattern.test(m));
  if (bad !== undefined) {
    fail(tool, `'${bad}' is not a move like e2e4${promotions ? '' : ' (micro-Max promotes to a queen by itself)'}`);
  }
  return moves;
}

/** --nodes as micromax itself takes it (micromax.ts, optionNumber): a whole number from 1 to
 *  2147483647, written in any way Number() reads with digits, '.', 'e' and '+' (1e4, 10000.0),
 *  spaces around it allowed; or exit 2. */
export function nodeCount(tool: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const x = nodeValue(v);
  if (x === undefined) fail(tool, `--nodes wants a whole number from 1 to 2147483647, not '${v}'`);
  return x;
}

/** A file the user named, relative to where they ran `npm run` (npm runs a script in the project's
 *  folder, and says where it was started in INIT_CWD). */
export const userPath = (file: string): string => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

/** When stdout's reader goes away (`| head -1`), `stop` ends what the tool runs, and the tool ends
 *  quietly: no EPIPE error, no stack. */
export function quietPipe(stop: () => void): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
    stop();
  });
}
