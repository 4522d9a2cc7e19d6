// Planted bugs and harmless rewrites of the reference C, for the tools that diff a program against
// it (compare, conformance): each is a textual edit made at test time (the C's text is never kept
// here). test/PORTING.md's table says which mode of compare finds each, and mutations.test.ts
// recomputes the table.

/** A rewrite of the C: each `from` (found exactly once) becomes its `to`, in order. */
export interface Mutation {
  name: string;
  edits: [from: string, to: string][];
  what: string;                                          // in a tester's words
  same: boolean;                                         // true: the same program, rewritten
  porters?: boolean;                                     // a bug of the kind ports have (test/PORTING.md): conformance --calls finds it
  java?: boolean;                                        // a bug a Java port had on its first run: the quick run must refute it
  shown?: string;                                        // the edit in a few words, for test/PORTING.md's table (edits too long to show)
}

// A Java port's trace on stderr, as its uncaught exception prints it: the error on the first line.
const trace = (error: string, at: number): string =>
  `fprintf(stderr,"Exception in thread \\"main\\" ${error}\\n\\tat MicroMax.D(MicroMax.java:${at})\\n` +
  '\\tat MicroMax.D(MicroMax.java:77)\\n\\tat MicroMax.main(MicroMax.java:266)\\n")';

/** A change that no mode can see (test/PORTING.md, "What no mode can see"): the store's depth test. */
export const UNSEEN: Mutation = { name: 'store-depth', edits: [['a->D<=d)', 'a->D<d)']],
  what: 'the hash store at a->D<d, not <=', same: false };

export const MUTATIONS: Mutation[] = [
  { name: 'knight-4', edits: [['w[]={0,1,1,3,', 'w[]={0,1,1,4,']], what: 'a piece value: a knight worth 4', same: false },
  { name: 'knight-steps', edits: [['14,18,31,33', '14,18,33,31']], what: 'a step: two knight steps in the other order', same: false },
  { name: 'castling-test', edits: [['E-y<2)m=I;', 'E-y<1)m=I;']], what: 'the castling test: one square fewer', same: false },
  { name: 'key-fold', edits: [['j=(k*E^J)&U-9;', 'j=(k*E+J)&U-9;']], what: 'the key fold: (k*E+J) for (k*E^J)', same: false },
  { name: 'stand-pat', edits: [['m=d>1?-I:e;', 'm=d>2?-I:e;']], what: 'the stand-pat line: depth 2 stands pat too', same: false },
  { name: 'castling-mark', edits: [['Y=y|S&G;', 'Y=y|S;']], what: 'a pass-end field: every best move marked not a castling', same: false },
  { name: 'unsigned-chars', edits: [[' char t,p,u,x,y,X,Y,H,B;', ' unsigned char t,p,u,x,y,X,Y,H,B;']], what: 'unsigned char locals',
    same: false, porters: true },
  { name: 'probe-count-9', edits: [['h,i=8,F,G;', 'h,i=9,F,G;']], what: 'the hash probe\'s counter from 9 (copies on the web)', same: false },
  { name: 'null-move-Z', edits: [['J,K,S,z,1)', 'J,Z,S,z,1)']], what: 'the null move passed Z for K (copies on the web)', same: false },
  { name: 'delay-penalty', edits: [['v-=v>e;', 'v-=v>=e;']], what: 'the delayed-gain penalty at v >= e', same: false },
  { name: 'centre-points', edits: [['v=p<6?', 'v=p<5?']], what: 'centre points for no bishop', same: false },
  { name: 'pawn-structure', edits: [['v-=9*(', 'v-=8*(']], what: 'the pawn-structure penalty 8 for 9', same: false },
  { name: 'ep-colour', edits: [['if(p<3&y==E)H=y^16;', 'if(p<3&y==E)H=y+16;']],
    what: 'a colour-dependent e.p. square: the pawn taken one rank below (right for white only)', same: false, porters: true },
  { name: 'other-random', edits: [['T[i]=random()>>9;', 'T[i]=(N=N*1103515245+12345)>>9;']],
    what: 'another random generator for the key table (an LCG, as a port\'s own library gives)', same: false, porters: true },
  { name: 'key-term', edits: [['Z+J(8)+G-S,', 'Z+J(8),']], what: 'a term left out of a key: the castling rook\'s G-S in Z',
    same: false, porters: true },
  { name: 'floor-div', edits: [['J,K,S,z,1)/2;', 'J,K,S,z,1)>>1;']], what: 'a division that floors (as Python\'s //), where the C\'s truncates',
    same: false, porters: true },
  { name: 'node-limit-le', edits: [['N<1e7', 'N<=1e7']], what: 'the root\'s node limit tested with <= (a pass more when one ends on the limit)',
    same: false, porters: true },
  { name: 'crash-exception', edits: [['{Q=-e-i;O=F;return l;}', `{if(!(G&M)){${trace('java.lang.ArrayIndexOutOfBoundsException: ' +
    'Index 136 out of bounds for length 129', 61)};_exit(1);}Q=-e-i;O=F;return l;}`]],
    what: 'a crash in mid-script: an exception when a castling is played (exit 1, its trace on stderr, its buffered output lost)',
    shown: 'a castling accepted (`{Q=-e-i;O=F;return l;}`) prints a Java trace on stderr, then `_exit(1)`', same: false, java: true },
  { name: 'crash-stack', edits: [['{Q=-e-i;O=F;return l;}', '{if(!(G&M))so(0);Q=-e-i;O=F;return l;}'],
    ['n[]=".?+nkbrq?*?NKBRQ";', 'n[]=".?+nkbrq?*?NKBRQ";\nint so(int n){volatile char f[256];f[0]=n;return so(n+1)+f[0];}']],
    what: 'a stack overflow in mid-script: a recursion without end when a castling is played (signal SIGSEGV)',
    shown: 'a castling accepted (`{Q=-e-i;O=F;return l;}`) calls a function that calls itself for ever', same: false, java: true },
  { name: 'cr-newline', edits: [['main()', 'static int rl_held=-2,rl_mid;\nint rl(void){int ch=rl_held!=-2?rl_held:getchar();' +
    'rl_held=-2;if(ch==13){ch=getchar();if(ch!=10)rl_held=ch;ch=10;}if(ch==-1&&rl_mid)ch=10;rl_mid=ch>10;return ch;}\nmain()'],
  ['p=c;W((*p++=getchar())>10);', 'p=c;W((*p++=rl())>10);']],
    what: 'line ends as a library\'s readLine() reads them: CR, LF and CR LF each end a line, the end of input ends one',
    shown: '`getchar()` in `p=c;W((*p++=getchar())>10);` → a `rl()` that gives LF for CR, CR LF and the input\'s end in a line',
    same: false, java: true },
  { name: 'table-short', edits: [['A[U];', 'A[U-8];'], ['while((h=A[++j].K)&&h-Z&&--i);',
    'while((h=A[++j<U-8?j:oob(j)].K)&&h-Z&&--i);'], ['n[]=".?+nkbrq?*?NKBRQ";', 'n[]=".?+nkbrq?*?NKBRQ";\n' +
    `int oob(int j){${trace('java.lang.ArrayIndexOutOfBoundsException: Index 16777216 out of bounds for length 16777216', 43)};` +
    'exit(1);}']],
    what: 'a hash table 8 entries short (2^24), in a language that checks an index (exit 1 at entry 16777216)',
    shown: '`A[U];` → `A[U-8];`, the probe\'s index checked (`A[++j<U-8?j:oob(j)]`: a Java trace, `exit(1)`)', same: false, java: true },
  { name: 'key-sign', edits: [['#define K(A,B) *(int*)(T+A+(B&8)+S*(B&7))', '#define K(A,B) kx(A+(B&8)+S*(B&7))'],
    ['n[]=".?+nkbrq?*?NKBRQ";', 'n[]=".?+nkbrq?*?NKBRQ";\nint kx(int o){return T[o]|T[o+1]<<8|T[o+2]<<16|T[o+3]<<24;}']],
    what: 'hash keys built from the key table\'s bytes with sign extension (a Java byte[] read without & 0xFF)',
    shown: '`K(A,B)` reads `T[o]|T[o+1]<<8|T[o+2]<<16|T[o+3]<<24`, each byte a signed char', same: false, java: true },
  { name: 'rewritten', what: 'five rewrites at once: N<10000000, the hint line as {y=Y&~M;H=y;}, spaces in the ' +
    'deepening loop, I=8000, U as a sum', same: true, edits: [['N<1e7', 'N<10000000'],
    ['if(Y&8)H=y=Y&~M;', 'if(Y&8){y=Y&~M;H=y;}'], ['W(d++<n|z==8&N<10000000&d<98)', 'W( d++ < n | z == 8 & N < 10000000 & d < 98 )'],
    ['I=8e3', 'I=8000'], ['#define U 16777224', '#define U (16777216+8)']] },
];

/** The C's text with the mutation made; throws unless each `from` is there exactly once. */
export function mutate(text: string, m: Mutation): string {
  for (const [from, to] of m.edits) {
    const at = text.indexOf(from);
    if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`${m.name}: '${from}' is not in the C exactly once`);
    text = text.slice(0, at) + to + text.slice(at + from.length);
  }
  return text;
}
