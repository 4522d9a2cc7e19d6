// The scripted inputs that the port is diffed against the C on, read from their language-neutral
// list, `test/fixtures/scripts.tsv` (which a porter reads without TypeScript: test/PORTING.md).
// Each has a file `test/fixtures/inputs/<name>.in` (written by make-scripts.ts) and a golden
// transcript `test/fixtures/golden/<name>.out` (written by make-golden.ts from the reference C,
// never from the port).

import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './run.ts';

export interface Script {
  name: string;
  nodes?: number;                                       // --nodes (default: the C's 1e7)
  trace?: boolean;                                      // --trace
  slow?: boolean;                                       // at the default limit: 20 to 45 s a side
  long?: boolean;                                       // only in the long run (MICROMAX_LONG=1)
  about: string;
  flags: string[];                                      // the flags as the list has them
  input: string;                                        // the files, as paths from the project's root
  expected: string;
}

export const MANIFEST = path.join(ROOT, 'test', 'fixtures', 'scripts.tsv');

/** The scripts of the list, in order; throws naming the line when one is not as the list's header says. */
export function readManifest(file = MANIFEST): Script[] {
  const rows = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  const header = rows.shift();
  if (header !== 'name\tflags\tinput\texpected\twhen\tabout') throw new Error(`${file}: the header is not the list's`);
  const dir = path.relative(ROOT, path.dirname(file));
  return rows.map((row, k) => {
    const [name, flagText, input, expected, when, about, ...more] = row.split('\t');
    const flags = flagText === '-' ? [] : (flagText ?? '').split(' ');
    const nodes = flags.indexOf('--nodes');
    const known = flags.every((f, i) => f === '--trace' || f === '--nodes' || (i === nodes + 1 && /^\d+$/.test(f)));
    if (more.length || about === undefined || !known || !['always', 'slow', 'long'].includes(when)) {
      throw new Error(`${file}: row ${k + 1} is not name, flags, input, expected, when, about: ${JSON.stringify(row)}`);
    }
    return { name, about, flags, input: path.join(dir, input), expected: path.join(dir, expected),
      ...nodes >= 0 ? { nodes: Number(flags[nodes + 1]) } : {}, ...flags.includes('--trace') ? { trace: true } : {},
      ...when !== 'always' ? { slow: true } : {}, ...when === 'long' ? { long: true } : {} };
  });
}

export const SCRIPTS: Script[] = readManifest();

export const scriptPath = (s: Script): string => path.join(ROOT, s.input);
export const goldenPath = (s: Script): string => path.join(ROOT, s.expected);
export const scriptInput = (s: Script): Buffer => fs.readFileSync(scriptPath(s));
export const variant = (s: Script): { nodes?: number; trace?: boolean } => ({ nodes: s.nodes, trace: s.trace });
