// Builds and runs the original C (named by MICROMAX_C) as the oracle the port is diffed against.
// Variants are made by textual substitution of the reference source: the root node limit `1e7`
// and the commented-out trace printf. Binaries are cached by a hash of source, options and flags.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export interface Variant { nodes?: number; trace?: boolean; opt?: string }

// The C prints boards forever at end of input; this wrapper stops it where our port stops:
// end of input at the start of a line exits 0 (exit() flushes stdout).
const EOF_WRAPPER = `static int mm_at_line_start = 1;
static int mm_getchar(void) {
  int c = getchar();
  if (c == EOF && mm_at_line_start) exit(0);
  mm_at_line_start = c <= 10;
  return c;
}
#define getchar mm_getchar
`;

export function cSource(): string | undefined {
  const src = process.env.MICROMAX_C;
  return src && fs.existsSync(src) ? src : undefined;
}

export function haveGcc(): boolean {
  return spawnSync('gcc', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Why the C cannot be used here, or undefined when it can. */
export function whyNoC(): string | undefined {
  if (!process.env.MICROMAX_C) return 'MICROMAX_C is not set (point it at micromax-3.2.c)';
  if (!cSource()) return `MICROMAX_C names no file: ${process.env.MICROMAX_C}`;
  if (!haveGcc()) return 'gcc is not installed';
  return undefined;
}

/** The variant's C text: the reference with the node limit and trace line substituted. */
export function variantSource(src: string, v: Variant): string {
  let text = src;
  if (v.nodes !== undefined && v.nodes !== 1e7) {
    if (!text.includes('N<1e7')) throw new Error('node limit `N<1e7` not found in the C source');
    text = text.replace('N<1e7', `N<${v.nodes}`);
  }
  if (v.trace) {
    const m = /\/\*(if\(z==8\)printf\([^\n]*?\);)\*\//.exec(text);
    if (!m) throw new Error('commented-out trace printf not found in the C source');
    text = text.replace(m[0], m[1]);
  }
  return text;
}

/** Path of the compiled variant, building it if the cache lacks it. */
export function buildC(v: Variant = {}): string {
  const why = whyNoC();
  if (why) throw new Error(why);
  return compile(variantSource(fs.readFileSync(cSource()!, 'utf8'), v), v.opt);
}

/** Path of a binary compiled from this C text (with the end-of-input wrapper), cached by its hash. */
export function compile(text: string, opt = 'O2'): string {
  const flags = ['-' + opt, '-std=gnu89', '-w', '-fwrapv', '-fno-strict-aliasing',
    '-include', 'stdio.h', '-include', 'stdlib.h'];
  const hash = createHash('sha256').update(text).update(EOF_WRAPPER).update(flags.join(' '))
    .digest('hex').slice(0, 16);
  const dir = path.join(os.tmpdir(), 'micromax-c-cache');
  const exe = path.join(dir, `micromax-${hash}`);
  if (fs.existsSync(exe)) return exe;
  fs.mkdirSync(dir, { recursive: true });
  const cFile = path.join(dir, `micromax-${hash}.c`), hFile = path.join(dir, 'eof-wrapper.h');
  fs.writeFileSync(cFile, text);
  fs.writeFileSync(hFile, EOF_WRAPPER);
  const tmp = `${exe}.${process.pid}.tmp`;
  const r = spawnSync('gcc', [...flags, '-include', hFile, '-o', tmp, cFile], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`gcc failed:\n${r.stderr}`);
  fs.renameSync(tmp, exe);                             // atomic: parallel tests may race here
  return exe;
}

/** Arguments of the port for a variant (the C variant takes none). */
export function portArgs(v: Variant): string[] {
  return [...(v.nodes !== undefined ? ['--nodes', String(v.nodes)] : []), ...(v.trace ? ['--trace'] : [])];
}
