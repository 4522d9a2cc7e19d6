// Facts about the key table `T` and glibc's `random()`, computed by a small C program (the same two
// lines the original uses to fill `T`), to check the port's `T` against.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ROOT } from './run.ts';

export const T_SUMS_PATH = path.join(ROOT, 'test', 'fixtures', 'golden', 'keytable.txt');

const PROGRAM = `#include <stdio.h>
#include <stdlib.h>
char T[1035];
int main(void) {
  int i; long first[5]; unsigned sum = 0;
  for (i = 0; i < 5; i++) first[i] = random();
  srandom(1);
  for (i = 136; i < 1035; i++) T[i] = random() >> 9;
  for (i = 0; i < 1035; i++) sum = sum * 31 + (unsigned char)T[i];
  printf("random %ld %ld %ld %ld %ld\\n", first[0], first[1], first[2], first[3], first[4]);
  printf("T-sum %u\\n", sum);
  printf("T-int32 %d %d %d\\n", *(int *)(T + 136), *(int *)(T + 500), *(int *)(T + 1031));
  fwrite(T, 1, sizeof T, stderr);
  return 0;
}
`;

/** The facts as the C prints them, plus a SHA-256 of the whole table. */
export function cKeyTable(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'micromax-T-'));
  const src = path.join(dir, 't.c'), exe = path.join(dir, 't');
  fs.writeFileSync(src, PROGRAM);
  const cc = spawnSync('gcc', ['-O2', '-fno-strict-aliasing', '-o', exe, src], { encoding: 'utf8' });
  if (cc.status !== 0) throw new Error(`gcc failed: ${cc.stderr}`);
  const r = spawnSync(exe, []);
  fs.rmSync(dir, { recursive: true, force: true });
  return `${r.stdout.toString().trim()}\nT-sha256 ${createHash('sha256').update(r.stderr).digest('hex')}`;
}

/** The same facts computed from the port's T and random(). */
export function portKeyTable(T: Int8Array, random: () => number, srandom: (s: number) => void): string {
  srandom(1);
  const first = [random(), random(), random(), random(), random()];
  let sum = 0;
  for (let i = 0; i < 1035; i++) sum = (Math.imul(sum, 31) + (T[i] & 255)) >>> 0;
  const view = new DataView(T.buffer, T.byteOffset);
  const bytes = Buffer.from(T.buffer, T.byteOffset, T.length);
  return `random ${first.join(' ')}\nT-sum ${sum}\n` +
    `T-int32 ${view.getInt32(136, true)} ${view.getInt32(500, true)} ${view.getInt32(1031, true)}\n` +
    `T-sha256 ${createHash('sha256').update(bytes).digest('hex')}`;
}
