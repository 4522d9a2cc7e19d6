// Builds and runs the original C (named by `MICROMAX_C`) as the oracle the port is diffed against,
// and knows the reference's sha256. Variants are made by textual substitution of the C's text: the
// root node limit (the literal in `N<1e7`) and the commented-out trace printf; `getchar` is wrapped
// where the C is undefined. The spots are found by patterns that allow other spacing and another
// spelling of the literal (`N < 10000000`); a C in which one cannot be found, or which gcc refuses,
// is a CannotCompare: one line saying which spot or what gcc said. Binaries are cached by a hash of
// source, options and flags.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface Variant { nodes?: number; trace?: boolean; opt?: string }

/** Why a program cannot be compared: a tool prints the message as one line and exits 2. */
export class CannotCompare extends Error {}

/** The sha256 of the reference micromax-3.2.c: the golden files are its transcripts, and only it
 *  may rewrite them (`npm run golden`). */
export const REFERENCE_SHA256 = '7d4826ad03b05949602da26be83d63377fcb30dec75845b943922ffd9be8549f';

// The C is built with getchar() wrapped where it is undefined or never ends, as the port reads its
// input (test/README.md, "Where the C is undefined"): the end of input at the start of a line exits 0
// (the C would print boards for ever; exit() flushes stdout), and a line's bytes past its 8th are
// dropped (the C's buffer, c[9], holds 8 bytes and the line's end: more overflow it). Where the C is
// defined (every line of at most 8 bytes before its end) the wrapper changes nothing.
const INPUT_WRAPPER = `static int mm_in_line = 0;                      /* bytes of this line read so far, its end not counted */
static int mm_getchar(void) {
  int c = getchar();
  if (c == EOF && !mm_in_line) exit(0);
  while (c > 10 && mm_in_line == 8) c = getchar();
  mm_in_line = c > 10 ? mm_in_line + 1 : 0;
  return c;
}
#define getchar mm_getchar
`;

/** MICROMAX_C's file, read as every path a user gives the tools is, from where the command was typed
 *  (npm runs a script in the project's folder, and says where it was started in INIT_CWD). */
function cPath(): string | undefined {
  const src = process.env.MICROMAX_C;
  return src ? path.resolve(process.env.INIT_CWD ?? process.cwd(), src) : undefined;
}

export function cSource(): string | undefined {
  const src = cPath();
  return src && fs.existsSync(src) && fs.statSync(src).isFile() ? src : undefined;
}

export function haveGcc(): boolean {
  return spawnSync('gcc', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Why the C cannot be used here, or undefined when it can. */
export function whyNoC(): string | undefined {
  if (!process.env.MICROMAX_C) return 'MICROMAX_C is not set (point it at micromax-3.2.c)';
  if (!cSource()) {
    const at = cPath() === path.resolve(process.env.MICROMAX_C) ? '' : ` (read from ${process.env.INIT_CWD}, where the command was typed)`;
    return `MICROMAX_C names no file: ${process.env.MICROMAX_C}${at}`;
  }
  if (!haveGcc()) return 'gcc is not installed';
  return undefined;
}

/** The sha256 of bytes, in hex. */
export const sha256Of = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/** The sha256 of a file's bytes. */
export function sha256(file: string): string {
  return sha256Of(fs.readFileSync(file));
}

/** Is this file the reference micromax-3.2.c, byte for byte? */
export const isReference = (file: string): boolean => sha256(file) === REFERENCE_SHA256;

// ---- the spots a variant changes -------------------------------------------------------------

/** A pattern from C tokens, any spacing between them: spaced('N', '<') matches `N<` and `N < `. */
export function spaced(...tokens: string[]): string {
  return tokens.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s*');
}

/** `text` with the one match of `pattern` replaced; CannotCompare naming `what` when there is none. */
export function substitute(text: string, pattern: RegExp, to: string | ((...m: string[]) => string), what: string): string {
  const m = pattern.exec(text);
  if (!m) throw new CannotCompare(`cannot find ${what} in the C (MICROMAX_C): is it micro-Max 3.2?`);
  const by = typeof to === 'string' ? m[0].replace(pattern, to) : to(...m);
  return text.slice(0, m.index) + by + text.slice(m.index + m[0].length);
}

// The root node limit: N, then < (or a changed C's <=), then a number literal (1e7, 10000000, 1E7, 1e+7, 10000000.0).
const LIMIT = new RegExp(`\\b${spaced('N', '<')}=?\\s*(\\d[\\d.]*(?:[eE][+]?\\d+)?)(?![\\w.])`);
// The trace line, in a comment: if(z==8)printf("...", args);
const TRACE = new RegExp(`/\\*\\s*(${spaced('if', '(', 'z', '==', '8', ')')})\\s*printf\\s*\\(\\s*("(?:[^"\\\\]|\\\\.)*")\\s*,` +
  '([^;]*?)\\)\\s*;\\s*\\*/');
export const LIMIT_SPOT = 'the root node limit (`N<1e7`)';
export const TRACE_SPOT = 'the commented-out trace line (`/*if(z==8)printf(...);*/`)';

/** The node limit the C's text holds (1e7 in the reference), or undefined when it has none. */
export function nodeLimitOf(text: string): number | undefined {
  const m = LIMIT.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** The trace line's format and arguments, as the C's comment holds them. */
export function traceOf(text: string): { test: string; format: string; args: string } {
  const m = TRACE.exec(text);
  if (!m) throw new CannotCompare(`cannot find ${TRACE_SPOT} in the C (MICROMAX_C): is it micro-Max 3.2?`);
  return { test: m[1], format: m[2], args: m[3].trim() };
}

/** The node limit written as the C's own literal would be read, replaced by `expr`. */
export function withLimit(text: string, expr: string): string {
  return substitute(text, LIMIT, (all, lit) => all.slice(0, all.length - lit.length) + expr, LIMIT_SPOT);
}

/** The variant's C text: the C with the node limit and trace line substituted. Without --nodes
 *  the C's own limit stands, however it is written. */
export function variantSource(src: string, v: Variant): string {
  let text = src;
  if (v.nodes !== undefined && v.nodes !== nodeLimitOf(text)) text = withLimit(text, String(v.nodes));
  if (v.trace) {
    const t = traceOf(text);
    text = substitute(text, TRACE, () => `${t.test}printf(${t.format},${t.args});`, TRACE_SPOT);
  }
  return text;
}

/** The node count `--nodes v` means to micromax (micromax.ts, optionNumber): a whole number from 1
 *  to 2147483647, written in any way Number() reads with digits, '.', 'e' and '+' (1e4, 10000.0),
 *  spaces around it allowed; undefined when micromax refuses v. */
export function nodeValue(v: string): number | undefined {
  const x = Number(v);
  const fits = /^\s*[0-9.e+]+\s*$/i.test(v) && x > 0 && x <= 2147483647 && Number.isInteger(x);
  return fits ? x : undefined;
}

/** Path of the compiled variant, building it if the cache lacks it. */
export function buildC(v: Variant = {}): string {
  const why = whyNoC();
  if (why) throw new CannotCompare(why);
  return compile(variantSource(fs.readFileSync(cSource()!, 'utf8'), v), v.opt);
}

/** Path of a binary compiled from this C text (with the end-of-input wrapper), cached by its hash.
 *  gcc's refusal is a CannotCompare with its first error. */
export function compile(text: string, opt = 'O2'): string {
  const flags = ['-' + opt, '-std=gnu89', '-w', '-fwrapv', '-fno-strict-aliasing',
    '-include', 'stdio.h', '-include', 'stdlib.h'];
  const hash = createHash('sha256').update(text).update(INPUT_WRAPPER).update(flags.join(' '))
    .digest('hex').slice(0, 16);
  const dir = path.join(os.tmpdir(), 'micromax-c-cache');
  const exe = path.join(dir, `micromax-${hash}`);
  if (fs.existsSync(exe)) return exe;
  fs.mkdirSync(dir, { recursive: true });
  // (the wrapper's file is named by its text's hash: a tool of another checkout, with another wrapper,
  // may build in the same cache at the same time)
  const wrapper = createHash('sha256').update(INPUT_WRAPPER).digest('hex').slice(0, 12);
  const cFile = path.join(dir, `micromax-${hash}.c`), hFile = path.join(dir, `input-wrapper-${wrapper}.h`);
  fs.writeFileSync(cFile, text);
  if (!fs.existsSync(hFile) || fs.readFileSync(hFile, 'utf8') !== INPUT_WRAPPER) {
    const part = `${hFile}.${process.pid}`;
    fs.writeFileSync(part, INPUT_WRAPPER);
    fs.renameSync(part, hFile);
  }
  const tmp = `${exe}.${process.pid}.tmp`;
  const r = spawnSync('gcc', [...flags, '-include', hFile, '-o', tmp, cFile], { encoding: 'utf8' });
  if (r.status !== 0) {
    const first = String(r.stderr ?? r.error?.message ?? '').split('\n').find((l) => /error/i.test(l)) ?? 'no message';
    throw new CannotCompare(`gcc failed on the C: ${first.replace(cFile, 'MICROMAX_C').trim()}`);
  }
  fs.renameSync(tmp, exe);                             // atomic: parallel tests may race here
  return exe;
}

/** Arguments of the port for a variant (the C variant takes none). */
export function portArgs(v: Variant): string[] {
  return [...(v.nodes !== undefined ? ['--nodes', String(v.nodes)] : []), ...(v.trace ? ['--trace'] : [])];
}
