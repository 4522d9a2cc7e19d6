// The page of `npm run tree -- --html FILE`: one self-contained HTML file (its style, script and
// data inline, nothing fetched) that shows a search read by test/support/tree-html.ts, or two
// searches side by side, aligned call by call (test/support/tree-against.ts: `--against`). The
// data, in the format documented below, holds the stream's numbers as they are and what
// tree-html.ts worked out from them (boards, gains, the best score each reply was given); the
// script only lays them out: a tree to fold and unfold, and for the call selected its board, its
// arguments by name, the sums behind them, its hash probe, its passes and why it ended, in the
// companion's words (`annotated/README.md`); for two searches, both sides' calls with what differs
// marked.

import { escapeHtml, type LeftOut, type PageCall, type PagePass, type Search } from './tree-html.ts';
import { ARROW, CENTRE } from './tree.ts';
import type { Probe, Store, Take, Pass } from './calls.ts';
import { whereOf, type Node, type TwoSearches } from './tree-against.ts';

/** The largest page of one search written: a 3,000-node search's fits; a browser opens it in well under a
 *  second. A page of two searches may be larger, MAX_TWO_BYTES: each side holds at most PER_SIDE calls
 *  after the first difference (tree-against.ts), and a page nears that only when both sides do. */
export const MAX_BYTES = 2_000_000;
export const MAX_TWO_BYTES = 3_000_000;

/** What the page says about itself: its heading, the command that made it, and how to show calls. */
export interface PageInfo {
  title: string;                                       // what was searched (the text tree's heading line)
  command: string;                                     // the command line that made it
  top: string;                                         // the first call's label: root, call, check
  keys: boolean;                                       // show J and Z
  brief: boolean;                                      // tree rows: moves and scores only
  words: Record<string, [string, string, string]>;     // the companion's sentences: [HTML, link, section]
  counted: number;                                     // calls in the search, drawn or not
  left: Partial<Record<LeftOut, string>>;              // the options that leave calls out, as typed (--pass 2)
  before: string;                                      // why the first call's number is not 1, when it is not
}

// ---- the data: each call as an array, short (the script reads it back into the fields F names) -------
// A call: [its number less the number of the call before it (the first: its number), how many calls back
// its caller is (0: none), the caller's pass, move, k, q, l, e, E, z, n, N, probe, v, N after, calls inside
// (all below it), changes to the caller's board (-1: no board), the caller's best m when it was called (m
// alone while it is the pass's start, else [m, how many calls back the call that set it is, its move when the
// page leaves that call out]), passes, gain, hint, sum agrees, J, Z], with the last fields left out while
// they hold their usual value (gain none, hint 0, sum agrees 1; J and Z only with --keys). Sum agrees: 1,
// or [the stream's SUM, 0 when the board gives another, -1 when the board is not known]. A probe: 0
// (full), [slot, slots left] (empty) or [slot, left, d, v, X, Y]. A pass: [d, m, cut, X, Y, store, king
// captures, trace line, score after the null move, not drawn], trimmed the same way; its store [d, v, X,
// Y] (in the probe's slot; a fifth field names another); not drawn: [the calls it made that the page
// leaves out, they and all the calls below them, why: 'pass' or 'path' (the options), 'same' or 'limit'
// (a page of two searches: the same in both, or past its limit), in words in the data's `left`]. A gain:
// [centre, pawns, left, right, castling, piece taken, capture, promotion, en passant], trimmed (its
// squares follow from the move: H a row behind y en passant, a castling's corner G and crossed square F).

const probeData = (p: Probe): number | number[] =>
  !p ? 0 : p.d === undefined ? [p.slot, p.left] : [p.slot, p.left, p.d, p.v!, p.X!, p.Y!];
function storeData(s: Store | undefined, slot: number): number | number[] {
  if (!s) return 0;
  return s.slot === slot ? [s.d, s.v, s.X, s.Y] : [s.d, s.v, s.X, s.Y, s.slot];
}
const takesData = (t: Take[]): number | number[][] => t.length ? t.map((x) => [+x.king, x.x, x.y]) : 0;
const traceData = (t?: Pass): number | number[] => t ? [t.d, t.N, t.m, t.X, t.Y] : 0;
/** The slot a call's passes store in: the probe's, or the dummy entry 0 when it found all 8 full. */
const slotOf = (c: PageCall): number => c.c.probe ? c.c.probe.slot : 0;
function passData(p: PagePass, slot: number): unknown[] {
  const a = [p.d, p.m, +p.cut, p.X, p.Y, storeData(p.store, slot), takesData(p.takes), traceData(p.trace), p.final ?? null,
    p.hid ? [p.hid, p.hidBelow, p.why] : 0];
  const usual = (k: number): unknown => k === 8 ? null : 0;     // (a score of 0 after the null move is one to keep)
  while (a.length > 5 && a.at(-1) === usual(a.length - 1)) a.pop();
  return a;
}

/** The squares (0 a8 .. 63 h1) where a call's board differs from its caller's, each with its code; -1 when
 *  it has none (a move the stream does not name, '?', or below one). */
function changes(c: PageCall, up?: PageCall): number[] | number {
  if (!c.board) return -1;
  if (!up?.board) return 0;
  const out: number[] = [];
  c.board.forEach((u, i) => { if (u !== up.board![i]) out.push(i, u); });
  return out;
}

function gainData(c: PageCall): number | number[] {
  const g = c.gain, m = c.made;
  if (!g || !m) return 0;
  const a = [g.centre, g.pawn, g.left, g.right, g.castling, g.taken, g.capture, g.promotion, +(m.H !== m.y)];
  while (a.length > 1 && a.at(-1) === 0) a.pop();
  return a;
}

/** The caller's best so far when call c was made, and which call set it (see above). */
function bestData(c: PageCall): number | null | unknown[] {
  const by = c.bestBy;
  if (c.best === undefined || !by) return c.best ?? null;
  return by.drawn ? [c.best, c.no - by.no] : [c.best, c.no - by.no, by.move];
}

/** A call as the page's data holds it (see above); `i` its index, `before` the number of the call before it. */
export function callData(c: PageCall, i: number, calls: PageCall[], keys: boolean, before: number): unknown[] {
  const up = c.up >= 0 ? calls[c.up] : undefined, x = c.c;
  const a: unknown[] = [c.no - before, c.up >= 0 ? i - c.up : 0, c.pass, x.move, x.k, x.q, x.l, x.e, x.E, x.z, x.n, x.N,
    probeData(x.probe), c.v ?? null, c.after ?? null, c.inside, changes(c, up), bestData(c),
    c.passes.map((p) => passData(p, slotOf(c))), gainData(c), +x.hint, c.sumOk ? 1 : [x.sum, c.sumOk === undefined ? -1 : 0]];
  if (keys) return [...a, x.J, x.Z];
  if (a[21] === 1) a.pop();
  if (a.length === 21 && a[20] === 0) a.pop();
  if (a.length === 20 && a[19] === 0) a.pop();
  return a;
}

/** The page's data, as JSON safe inside a script element. */
export function pageData(search: Search, info: PageInfo): string {
  return json({ ...info, ...sideData(search, info.keys) });
}
const json = (data: unknown): string => JSON.stringify(data).replace(/</g, '\\u003c');
/** A search's own part of the data: the first call's board and every call. */
function sideData(search: Search, keys: boolean): { board: number[] | null; centre: number[]; calls: unknown[][] } {
  return { board: search.calls[0]?.board ?? null, centre: CENTRE.filter((_, s) => !(s & 0x88)),
    calls: search.calls.map((c, i) => callData(c, i, search.calls, keys, i ? search.calls[i - 1].no : 0)) };
}

/** What the options left out, said in the header: how many of the search's calls, and by which options. */
function leftOutText(search: Search, info: PageInfo): string {
  const out = info.counted - search.calls.length;
  if (out <= 0) return '';
  const why = new Set(search.calls.flatMap((c) => c.passes.flatMap((p) => p.why ? [info.left[p.why]] : [])));
  const options = [...why].map((w) => `<code class="opt">${escapeHtml(w ?? '')}</code>`).join(', ');
  return ` <b>Not drawn: ${out} of the search's ${info.counted} calls (${options}).</b> Each pass says how many of the ` +
    'moves it searched are not drawn.';
}

/** How to move about the page, and what a link to a call is: both pages say it. */
const KEYS = 'Select a call (click it, or use the arrow keys: &darr; &uarr; the next and previous call as the engine made ' +
  'them, &rarr; the first call inside, &larr; its caller); &#9656; folds and unfolds. A link to a call ends in ' +
  '<code>#call-N</code>, N its number in the stream (as <code>--at N</code> and <code>compare --calls</code> number them)';

/** The page around its header and data. */
function page(title: string, header: string, data: string, two: boolean): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} - micro-Max 3.2's search</title>
<style>${STYLE}</style>
</head>
<body${two ? ' class="two"' : ''}>
<header>
<h1>${escapeHtml(title)}</h1>
${header}
</header>
<main>
<nav id="tree" aria-label="the search, call by call" tabindex="0"></nav>
<article id="call" aria-live="polite"></article>
</main>
<noscript><p>This page draws the search with its script: allow JavaScript for this file.</p></noscript>
<script type="application/json" id="data">${data}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** The whole page of one search. */
export function pageHtml(search: Search, info: PageInfo): string {
  const header = `<p class="made">Made by <code>${escapeHtml(info.command)}</code>: all ${search.calls.length} calls of the search it
drew, at every depth (the text's <code>--depth</code> and <code>--limit</code> shape only what it prints), from the same call
stream. ${KEYS}.${info.before ? ` ${escapeHtml(info.before)}` : ''}${leftOutText(search, info)}</p>
<p class="legend">${escapeHtml(ARROW)}</p>`;
  return page(info.title, header, pageData(search, info), false);
}

// ---- a page of two searches ------------------------------------------------------------------------

/** What a page of two searches says about itself. */
export interface TwoInfo {
  title: string;                                       // what was searched, by whom
  command: string;                                     // the command line that made it
  labels: [string, string];                            // each side's name
  top: string;                                         // the first call's label: root, call, check
  keys: boolean;
  words: Record<string, [string, string, string]>;
  before: string;                                      // why the first call's number is not 1, when it is not
}

/** The first difference, in the page's words (HTML): the call, the path to it, each differing field. */
export function firstHtml(two: TwoSearches, labels: [string, string]): string {
  const f = two.first;
  if (!f) {
    return two.stored ? `The two searches are the same as far as ${escapeHtml(labels[0])} is stored: ${two.same} calls, every line ` +
      'of their streams.' : `The two searches are the same: ${two.same} calls, every line of their call streams.`;
  }
  const at = whereOf(f);
  const path = f.path.length ? `reached by ${f.path.join(' ')}` : 'a call from main()';
  const fields = f.fields.map(([n, a, b]) => `<b>${escapeHtml(n)}</b> (${escapeHtml(labels[0])} ${escapeHtml(a)}, ` +
    `${escapeHtml(labels[1])} ${escapeHtml(b)})`).join('; ');
  const lines = f.where === 'call' ? '' : ` <span class="records">${escapeHtml(labels[0])}: ${escapeHtml(f.records[0])}. ` +
    `${escapeHtml(labels[1])}: ${escapeHtml(f.records[1])}.</span>`;
  return `The first difference: <a href="#call-${f.call}">${at}</a> (ply ${f.ply}, ${escapeHtml(path)}), line ${f.line} of each ` +
    `stream: ${fields}.${lines}`;
}

/** The data of a page of two searches: each side's calls (as a page of one search holds them), the nodes
 *  aligning them, and the node of the first difference. */
export function twoData(two: TwoSearches, nodes: Node[], info: TwoInfo): string {
  const at = two.pair ? nodes.findIndex((n) => n[0] === two.pair![0] && n[1] === two.pair![1]) : 0;
  const left = { same: 'the same in both searches', limit: 'past the page\'s limit of calls a side after the first difference' };
  const sides = two.searches.map((s, k) => ({ label: info.labels[k], top: info.top, counted: s.counted, left, ...sideData(s, info.keys) }));
  return json({ title: info.title, command: info.command, keys: info.keys, brief: false, words: info.words,
    centre: sides[0].centre, sides, nodes, first: { node: Math.max(at, 0), html: firstHtml(two, info.labels) } });
}

/** The whole page of two searches. */
export function twoPageHtml(two: TwoSearches, nodes: Node[], info: TwoInfo): string {
  const [a, b] = info.labels.map(escapeHtml);
  const limit = two.limit.some((n) => n > 0) ? ` After the first difference each side's first calls are drawn, the rest counted ` +
    `(${a}: ${two.limit[0]} not drawn; ${b}: ${two.limit[1]}).` : '';
  const ended = two.ended.filter(Boolean).map((e) => ` ${escapeHtml(e)}.`).join('');
  const header = `<p class="made">Made by <code>${escapeHtml(info.command)}</code>: the same search made by <b>${a}</b> and by
<b>${b}</b>, call by call. A row is a call both made (&rarr; ${a}'s result, then ${b}'s after a bar when they differ), or a
call only one of them made. Drawn: the calls on the way to the first difference, each without the calls below it (the same in
both: counted, not drawn), then the first call that differs, with each side's own calls below it and after it.${limit}${ended}
${KEYS}; a call only ${b} made, <code>#against-call-N</code>.${info.before ? ` ${escapeHtml(info.before)}` : ''}</p>
<p class="firstline">${firstHtml(two, info.labels)}</p>
<p class="legend">${escapeHtml(ARROW)}</p>`;
  return page(info.title, header, twoData(two, nodes, info), true);
}
const STYLE = `
:root { --light: #f0d9b5; --dark: #b58863; --mark: #f6f669; --line: #ddd; --soft: #666; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, "DejaVu Sans", sans-serif; color: #222; height: 100vh; display: flex; flex-direction: column; }
header { padding: 8px 16px; border-bottom: 1px solid var(--line); }
header h1 { font-size: 18px; margin: 0 0 4px; }
header .made, header .legend, header .firstline { margin: 0; font-size: 13px; color: var(--soft); }
header .firstline { color: #222; margin-top: 4px; }
main { flex: 1; display: flex; min-height: 0; }
#tree { width: 42%; min-width: 300px; overflow-y: auto; overflow-x: hidden; border-right: 1px solid var(--line); padding: 6px 0; font: 13px/1.5 "DejaVu Sans Mono", monospace; outline: none; }
body.two #tree { width: 34%; }
#call { flex: 1; overflow: auto; padding: 8px 20px 40px; }
.row { cursor: pointer; padding-right: 8px; text-indent: -18px; overflow-wrap: anywhere; }
.row:hover { background: #f3f3f3; }
.row.sel { background: #cfe3ff; }
.tog { display: inline-block; width: 1.2em; text-align: center; color: var(--soft); }
.pass { color: #555; font-style: italic; padding-right: 8px; overflow-wrap: anywhere; }
.args { color: #888; }
.tag { font: 11px system-ui, sans-serif; border-radius: 3px; padding: 0 4px; margin-left: 4px; background: #eee; color: #333; }
.tag.cut { background: #ffd8b0; } .tag.king { background: #ffb8b8; } .tag.hash { background: #d6f0d0; }
.tag.pat { background: #e6e0ff; } .tag.hint { background: #fff2a8; } .tag.null { background: #d8e8ff; }
.tag.bad { background: #c00; color: #fff; }
h2 { font-size: 18px; margin: 8px 0 2px; } h3 { font-size: 15px; margin: 18px 0 6px; border-bottom: 1px solid var(--line); }
.crumbs { font-size: 13px; color: var(--soft); margin-bottom: 8px; }
.crumbs a { color: #0645ad; text-decoration: none; }
.top { display: flex; gap: 24px; align-items: flex-start; flex-wrap: wrap; }
table.board { border-collapse: collapse; font-size: 30px; line-height: 1; }
table.board td { width: 40px; height: 40px; text-align: center; vertical-align: middle; padding: 0; position: relative; }
table.board td.l { background: var(--light); } table.board td.d { background: var(--dark); }
table.board td.from { box-shadow: inset 0 0 0 3px #2a7; } table.board td.to { box-shadow: inset 0 0 0 3px #17c; background-image: linear-gradient(#ffff0050, #ffff0050); }
table.board td.taken { box-shadow: inset 0 0 0 3px #c22; } table.board td.ep::after { content: "E"; position: absolute; right: 2px; bottom: 1px; font-size: 10px; color: #a00; }
table.board th { font: 11px system-ui, sans-serif; color: var(--soft); padding: 2px; }
.w { color: #fff; text-shadow: 0 0 2px #000, 0 0 1px #000; } .b { color: #111; }
.caption { font-size: 13px; margin-top: 4px; max-width: 340px; }
table.kv { border-collapse: collapse; font-size: 14px; }
table.kv td, table.kv th { border-bottom: 1px solid var(--line); padding: 3px 8px; vertical-align: top; text-align: left; }
table.kv td.n { font-family: "DejaVu Sans Mono", monospace; text-align: right; white-space: nowrap; }
.how { color: #333; font-size: 13px; }
blockquote { margin: 6px 0 6px 0; padding: 4px 10px; border-left: 3px solid #9bd; background: #f4f9fc; font-size: 13px; }
blockquote .from { color: var(--soft); font-size: 12px; }
code.opt { white-space: nowrap; }
.ok { color: #080; } .bad { color: #c00; font-weight: bold; }
code { font-family: "DejaVu Sans Mono", monospace; font-size: 92%; background: #f4f4f4; padding: 0 2px; }
.tag.first { background: #d33; color: #fff; } .tag.diff { background: #ffcf66; } .tag.only { background: #ddd; }
.vs { color: #a50; font-weight: bold; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; }
.side { min-width: 0; } .side h3.who { margin-top: 8px; }
.side table.board { font-size: 24px; } .side table.board td { width: 32px; height: 32px; }
.differs { background: #ffe08a !important; outline: 2px solid #e0a000; }
div.first { border: 2px solid #e0a000; background: #fff8e0; padding: 6px 10px; font-size: 14px; margin: 6px 0; }
.records { color: var(--soft); }
`;

// The script, in plain JavaScript (it runs in the browser as it is). Its data: G (pageData or twoData above);
// each call an array whose fields F names. No template literals here: this text is itself one.
const SCRIPT = String.raw`
(function () {
'use strict';
var G = JSON.parse(document.getElementById('data').textContent);   // the page's data (see tree-html-page.ts)
var F = { no: 0, up: 1, pass: 2, move: 3, k: 4, q: 5, l: 6, e: 7, E: 8, z: 9, n: 10, N: 11, probe: 12, hint: 13, v: 14,
  after: 15, inside: 16, changes: 17, gain: 18, best: 19, sumOk: 20, passes: 21, J: 22, Z: 23, by: 24, sum: 25 };
var P = { d: 0, m: 1, cut: 2, X: 3, Y: 4, final: 5, store: 6, takes: 7, trace: 8, hidden: 9 };
var I = 8000;
var treeEl = document.getElementById('tree'), callEl = document.getElementById('call');

// ---- words -------------------------------------------------------------------------------------
// ---- words -------------------------------------------------------------------------------------
function esc(s) { return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;'); }
function sq(s) { return s >= 0 && s < 128 && !(s & 0x88) ? 'abcdefgh'[s & 7] + (8 - (s >> 4)) : String(s); }
function isSq(s) { return s >= 0 && s < 128 && !(s & 0x88); }
function move(X, Y) { var x = X & 0x77, y = Y & 0x77; return x === y ? '' : sq(x) + sq(y); }
function side(k) { return k === 8 ? 'white' : 'black'; }
var TYPE = ['nothing', 'pawn', 'pawn', 'knight', 'king', 'bishop', 'rook', 'queen'];
var VALUE = [0, 1, 1, 3, -1, 3, 5, 9];
function pieceName(u) { return u ? (u & 8 ? 'white ' : 'black ') + TYPE[u & 7] : 'nothing'; }
function glyph(u) {
  if (!u) return '';
  return (u & 8 ? '\u2659\u2659\u2658\u2654\u2657\u2656\u2655' : '\u265f\u265f\u265e\u265a\u265d\u265c\u265b')[(u & 7) - 1];
}
function letter(u) { return u & 8 ? '.PPNKBRQ'[u & 7] : u & 16 ? '.ppnkbrq'[u & 7] : '.'; }
function sign(v) { return v < 0 ? '\u2212' + (-v) : String(v); }
function paren(v) { return v < 0 ? '(' + sign(v) + ')' : String(v); }
function bound(X) {
  var atLeast = (X & 8) !== 0, atMost = (X & 128) !== 0;
  return atLeast === atMost ? 'exact' : atLeast ? 'a lower bound (at least)' : 'an upper bound (at most)';
}
function boundMark(X) { var a = (X & 8) !== 0, b = (X & 128) !== 0; return a === b ? '' : a ? '\u2265 ' : '\u2264 '; }
function plural(n, what) { return n + ' ' + what + (n === 1 ? '' : 's'); }
function at64(s) { return 8 * (s >> 4) + (s & 7); }
function row(name, value, meaning, field) {
  var f = field || name;
  return '<tr><th>' + name + '</th><td class="n" data-field="' + f + '">' + esc(value) + '</td><td class="how" data-field="' + f + '-how">' + meaning + '</td></tr>';
}
function sqOf(name) { return 16 * (56 - name.charCodeAt(1)) + name.charCodeAt(0) - 97; }
function sumOf(b) { var t = 0; for (var s = 0; s < b.length; s++) t += (s + 1) * b[s]; return t; }

/** One search, read from its data D (a page's calls; the settings all share in G), and the HTML that shows
 *  its calls: href(i) is the link to its call i. */
function Search(D, href) {
var calls = [], byNo = {}, kids = [], boards = {}, levels = [];
// the data's short calls (see tree-html-page.ts), read back into the fields of F and P
D.calls.forEach(function (r, i) {
  var no = (i ? calls[i - 1][F.no] : 0) + r[0], g = r[19] || 0, passes = r[18].map(function (p) {
    var st = p[5] || 0;
    return [p[0], p[1], p[2], p[3], p[4], p.length > 8 ? p[8] : null, st ? [st.length > 4 ? st[4] : (r[12] ? r[12][0] : 0), st[0], st[1], st[2], st[3]] : 0,
      p[6] || 0, p[7] || 0, p[9] || 0];
  });
  if (g) {
    var x = sqOf(r[3].slice(0, 2)), y = sqOf(r[3].slice(2, 4));
    var castles = g[4] > 0;
    g = [G.centre[8 * (x >> 4) + (x & 7)], G.centre[8 * (y >> 4) + (y & 7)], g[0], g[2] || 0, g[3] || 0, g[1] || 0, g[4] || 0,
      g[5] || 0, g[6] || 0, g[7] || 0, g[8] ? y ^ 16 : y, castles ? (y > x ? x | 7 : (x | 7) - 7) : 128,
      castles ? (x + y) / 2 : 128, x, y];
  }
  var s = r.length > 21 ? r[21] : 1, sumOk = Array.isArray(s) ? s[1] : s, sum = Array.isArray(s) ? s[0] : null;
  var b = r[17], by = Array.isArray(b) ? [no - b[1], b.length > 2 ? b[2] : null] : null;   // by: [number, move if not drawn]
  calls.push([no, r[1] ? i - r[1] : -1, r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[20] || 0,
    r[13], r[14], r[15], r[16], g, by ? b[0] : b, sumOk, passes, r[22], r[23], by, sum]);
});
calls.forEach(function (c, i) {
  byNo[c[F.no]] = i;
  kids.push({});
  if (c[F.up] >= 0) {
    var k = kids[c[F.up]], d = c[F.pass];
    (k[d] = k[d] || []).push(i);
  }
});
// the last call below each call (its calls follow it in the data, in the engine's order)
var lastBelow = calls.map(function (_, i) { return i; });
for (var j = calls.length - 1; j > 0; j--) {
  var up = calls[j][F.up];
  if (up >= 0) lastBelow[up] = Math.max(lastBelow[up], lastBelow[j]);
}

function link(i, text) { return '<a href="' + href(i) + '">' + esc(text) + '</a>'; }
function quote(key) {
  var w = G.words[key];
  if (!w) return '';
  return '<blockquote>' + w[0] + ' <span class="from">(the companion: <a href="' + esc(w[1]) + '">' + esc(w[2]) +
    '</a>)</span></blockquote>';
}
// ---- what the options left out: the page draws the calls along --path in --pass P, the search counts all
/** The words of the options that left out a pass's calls, or those below a call: as text, or as code. */
function leftBy(whys, html) {
  return whys.map(function (w) {
    var said = D.left[w] || w;
    return html && /^--/.test(said) ? '<code class="opt">' + esc(said) + '</code>' : html ? esc(said) : said;
  }).join(', ');
}
/** The calls below call i that are not drawn, and the options that left them out. */
function notDrawn(i) {
  var n = 0, whys = [];
  if (D.counted === calls.length) return { n: 0, why: '' };
  for (var j = i; j <= lastBelow[i]; j++) calls[j][F.passes].forEach(function (p) {
    var h = p[P.hidden];
    if (!h) return;
    n += h[1];
    if (whys.indexOf(h[2]) < 0) whys.push(h[2]);
  });
  return { n: n, why: leftBy(whys, true) };
}
/** The moves a pass searched (a call each), and those not drawn: "20, 18 not drawn (--path e2e4)". */
function movesText(i, p) {
  var drawn = (kids[i][p[P.d]] || []).length, h = p[P.hidden], made = drawn + (h ? h[0] : 0);
  if (!h) return String(made);
  return made + (drawn ? ', ' + h[0] : ',') + ' not drawn (' + leftBy([h[2]], true) + ')';
}
function label(i) { var c = calls[i]; return c[F.up] < 0 ? D.top : c[F.move]; }
function argsText(c) {
  var a = [c[F.k], c[F.q], c[F.l], c[F.e]];
  if (G.keys) a.push(c[F.J], c[F.Z]);
  a.push(c[F.E] === 0 ? '0' : sq(c[F.E]), sq(c[F.z]), c[F.n]);
  return 'D(' + a.join(', ') + ')';
}
function probeText(i) {
  var c = calls[i], p = c[F.probe];
  if (!p) return 'full';
  if (p.length === 2) return 'empty';
  var best = moveOn(i, p[4], p[5]);
  return 'd ' + p[2] + ' v ' + boundMark(p[4]) + p[3] + (best ? ' ' + best : '');
}
function answers(c) {
  var p = c[F.probe];
  if (!p || p.length === 2) return false;
  return p[2] >= c[F.n] && (p[3] >= c[F.l] || (p[4] & 128) !== 0) && (p[3] <= c[F.q] || (p[4] & 8) !== 0);
}
/** The tags of a call, as the text tree names them (its own, then its passes'). */
function tags(i) {
  var c = calls[i], out = [], ps = c[F.passes];
  if (c[F.move] === 'null') out.push(['null', 'null move']);
  if (c[F.hint]) out.push(['hint', 'hint']);
  if (answers(c)) out.push(['hash', 'hash answer']);
  ps.forEach(function (p) {
    if (p[P.takes]) out.push(['king', p[P.takes][0][0] ? 'king capture' : 'illegal castling']);
    if (p[P.d] <= 1 && p[P.m] === c[F.e]) out.push(['pat', 'stands pat']);
    if (p[P.cut]) out.push(['cut', 'cut-off']);
    if (p[P.m] === -I) out.push(['null', 'no legal move']);
  });
  if (c[F.sumOk] === 0) out.push(['bad', 'board differs']);
  var seen = {};
  return out.filter(function (t) { return seen[t[1]] ? false : (seen[t[1]] = true); });
}
function tagHtml(i) {
  return tags(i).map(function (t) { return '<span class="tag ' + t[0] + '">' + esc(t[1]) + '</span>'; }).join('');
}

/** A move from X and Y (flags masked off) on call i's board: a pawn's to the last rank with its q, as the
 *  stream names a promotion. */
function moveOn(i, X, Y) {
  var x = X & 0x77, y = Y & 0x77, b = boardOf(i), u = b.length ? b[at64(x)] & 7 : 0;
  return x === y ? '' : sq(x) + sq(y) + (u > 0 && u < 3 && (y >> 4) % 7 === 0 ? 'q' : '');
}
/** A pass's best move: its trace line's for a root, else the one it ended with. */
function bestOf(i, p) { return p[P.trace] ? moveOn(i, p[P.trace][3], p[P.trace][4]) : moveOn(i, p[P.X], p[P.Y]); }

// ---- the tree's rows ---------------------------------------------------------------------------
function hasKids(i) { for (var d in kids[i]) return true; return false; }
function rowHtml(i) {
  var c = calls[i], out = G.brief ? null : notDrawn(i), head = '<b>' + esc(label(i)) + '</b>';
  var res = c[F.v] === null ? '' : ' \u2192 ' + c[F.v];
  var more = G.brief ? '' : ' <span class="args">' + esc(argsText(c)) + ' ' + esc(probeText(i)) +
    (c[F.inside] ? ' (' + plural(c[F.inside], 'call') + (out.n ? ', ' + out.n + ' not drawn' : '') + ')' : '') + '</span>';
  return '<span class="tog">' + (hasKids(i) ? '\u25b8' : '') + '</span>' + head + res + more + (G.brief ? '' : tagHtml(i));
}
function passLine(i, p) {
  var c = calls[i], score = p[P.final] === null ? String(p[P.m]) : p[P.m] + ', ' + p[P.final] + ' after the null move';
  var best = bestOf(i, p);
  var nodes = p[P.trace] ? p[P.trace][1] + (p[P.trace][1] === 1 ? ' node, ' : ' nodes, ') : '';
  var h = p[P.hidden], drawn = (kids[i][p[P.d]] || []).length;
  var hid = !h ? '' : drawn ? '; ' + h[0] + ' of its ' + (drawn + h[0]) + ' moves searched not drawn (' + leftBy([h[2]]) + ')'
    : '; its ' + plural(h[0], 'move') + ' searched not drawn (' + leftBy([h[2]]) + ')';
  return 'pass ' + p[P.d] + ' done: ' + nodes + 'score ' + score + (best ? ', best ' + best : '') + (p[P.cut] ? '; cut-off (m \u2265 l)' : '') + hid;
}
var levels = [];
function levelOf(i) {
  if (levels[i] !== undefined) return levels[i];
  var up = calls[i][F.up];
  return (levels[i] = up < 0 ? 0 : levelOf(up) + 1);
}

// ---- the board -----------------------------------------------------------------------------------
function boardOf(i) {
  if (boards[i]) return boards[i];
  var c = calls[i], b;
  var ch = c[F.changes];
  if (ch === -1) b = [];
  else if (c[F.up] < 0) b = (D.board || []).slice();
  else {
    b = boardOf(c[F.up]).slice();
    if (ch && b.length) for (var j = 0; j < ch.length; j += 2) b[ch[j]] = ch[j + 1];
  }
  return (boards[i] = b);
}
function boardHtml(i) {
  var c = calls[i], b = boardOf(i), g = c[F.gain], marks = {};
  if (!b.length) return '<p>No board: the stream holds none for this call.</p>';
  if (g) {
    marks[at64(g[13])] = 'from'; marks[at64(g[14])] = 'to';
    if (g[10] !== g[14]) marks[at64(g[10])] = 'taken';
  }
  var h = '<table class="board" data-board="' + b.map(letter).join('') + '" data-codes="' + b.join(' ') + '"><tr><th></th>';
  for (var f = 0; f < 8; f++) h += '<th>' + 'abcdefgh'[f] + '</th>';
  h += '</tr>';
  for (var r = 0; r < 8; r++) {
    h += '<tr><th>' + (8 - r) + '</th>';
    for (f = 0; f < 8; f++) {
      var s = 8 * r + f, u = b[s], cls = ((r + f) & 1 ? 'd' : 'l') + (marks[s] ? ' ' + marks[s] : '');
      if (c[F.E] !== 0 && isSq(c[F.E]) && at64(c[F.E]) === s) cls += ' ep';   // (0: a first think's unset O, no square)
      h += '<td class="' + cls + '" title="' + 'abcdefgh'[f] + (8 - r) + ': ' + pieceName(u) + '"><span class="' +
        (u & 8 ? 'w' : 'b') + '">' + glyph(u) + '</span></td>';
    }
    h += '</tr>';
  }
  return h + '</table>';
}


// ---- the call ------------------------------------------------------------------------------------
function upOf(i) { var u = calls[i][F.up]; return u < 0 ? null : calls[u]; }
function meaningE(i) {
  var c = calls[i], E = c[F.E], g = c[F.gain];
  if (E === 0) return 'no square: a first think\'s <code>E</code>, the C\'s unset <code>O</code>';
  if (E === 128) return 'no square: the last move skipped none';
  if (E === -128) return 'no square: at a root, <code>O</code> after a move that skipped none';
  if (g && g[6]) return 'the square the castling king crossed, where its rook now stands: a reply landing on it or beside it takes the king';
  return 'the square the pawn skipped: a pawn of ' + side(c[F.k]) + ' landing on it takes en passant';
}
function meaningZ(c) {
  var z = c[F.z];
  if (z === 8) return 'a root: a think, which deepens until the node limit';
  if (z === 9) return 'a root: main()\'s legality check of a move';
  if (!isSq(z)) return 'no square: no last move';
  return 'the square the last move went to: a move onto it (a recapture) is searched at the same depth, so at depth 1 only those are';
}
/** The call whose score was the caller's best m when call i was made: its move's name ("c2c3's", a link when it
 *  is drawn) and, when it is not, its number and the option that left it out; null when m is the pass's start
 *  (-8000, or e). */
function whose(i) {
  var by = calls[i][F.by];
  if (!by) return null;
  if (by[1] === null && byNo[by[0]] !== undefined) return { name: link(byNo[by[0]], calls[byNo[by[0]]][F.move]) + '\'s', note: '' };
  var up = calls[i][F.up], why = '';
  calls[up][F.passes].forEach(function (p) { if (p[P.d] === calls[i][F.pass] && p[P.hidden]) why = leftBy([p[P.hidden][2]], true); });
  return { name: esc(by[1]) + '\'s', note: 'call ' + by[0] + ', not drawn' + (why ? ' (' + why + ')' : '') };
}
function argTable(i) {
  var c = calls[i], up = upOf(i), h = '<table class="kv"><tr><th>name</th><th>value</th><th>what it is here</th></tr>';
  h += row('k', c[F.k], side(c[F.k]) + ' to move');
  var qHow = '', lHow = '', eHow = '', nHow = '';
  if (up && c[F.move] === 'null') {
    qHow = lHow = ': the full window, as the null move asks only whether the king can be taken';
    eHow = ': 0, as the question is only whether the king can be taken';
    nHow = ': 1, enough to see a king capture';
  } else if (up) {
    var raised = up[F.l] > up[F.e];
    qHow = ' = \u2212(caller\'s <code>l</code> ' + up[F.l] + ')' + (raised ? ' \u2212 1, as its <code>l</code> is above its <code>e</code> (' +
      up[F.e] + '): the point a gain loses' : '');
    var m = c[F.best], fromM = m > up[F.q], by = whose(i);
    lHow = ' = \u2212max(<code>m</code>, <code>q</code>): the caller\'s best so far, <code>m</code> = ' + m +
      (by ? ' (' + by.name + ' score' + (by.note ? ': ' + by.note : '') + ')' : m === -I ? ' (nothing yet)' : m === up[F.e] && c[F.pass] <= 1 ? ' (its <code>e</code>: standing pat)' : '') +
      ', against its <code>q</code> = ' + up[F.q] + ': ' + (fromM ? '\u2212m' : '\u2212q');
    var g = c[F.gain];
    eHow = g ? ' = \u2212(caller\'s <code>e</code> ' + up[F.e] + ') \u2212 ' + paren(g[2] + g[5] + g[6] + g[8] + g[9]) +
      ', what the move earned (below)' : '';
    var recapture = c[F.gain] && c[F.gain][14] === up[F.z];
    nHow = ' = the caller\'s pass ' + c[F.pass] + (recapture ? ', not reduced: the move lands on the caller\'s <code>z</code> (a recapture)' : ' \u2212 1');
  }
  h += row('q', c[F.q], 'the window\'s low edge: what the side to move is sure of elsewhere' + qHow);
  h += row('l', c[F.l], 'the high edge: a pass that reaches it ends (a cut-off), as the opponent avoids this position' + lHow);
  h += row('e', c[F.e], 'the running score, for the side to move' + eHow);
  if (G.keys) {
    h += row('J', c[F.J], 'the first hash key: it picks the slot');
    h += row('Z', c[F.Z], 'the second hash key: the lock kept in the entry');
  }
  h += row('E', c[F.E] === 0 ? '0' : sq(c[F.E]), meaningE(i));
  h += row('z', sq(c[F.z]), meaningZ(c));
  h += row('n', c[F.n], 'the depth asked for, in plies' + nHow);
  h += row('N', c[F.N], 'nodes counted before this call' + (c[F.after] !== null ? '; ' + c[F.after] + ' when it returned' : ''));
  return h + '</table>';
}
function gainTable(i) {
  var c = calls[i], up = upOf(i), g = c[F.gain];
  if (!up) {
    return '<p>' + (D.top === 'root' ? 'main()\'s think, <code>D(k, -I, I, Q, 1, 1, O, 8, 0)</code>: the full window, ' +
      '<code>e</code> the material (<code>Q</code>, for the side to move), <code>E</code> the square the last move skipped ' +
      '(<code>O</code>), <code>z</code> 8, depth 0: it deepens until the node limit.' : D.top === 'check' ? 'main()\'s ' +
      'legality check of a move, <code>D(k, -I, I, Q, 1, 1, O, 9, 2)</code>.' : 'The call given (<code>--call</code>), or ' +
      'the one the stream holds at this number.') + '</p>';
  }
  if (c[F.move] === 'null') {
    return '<p>The null move: ' + side(c[F.k]) + ' moves on the same board, as if ' + side(up[F.k]) +
      ' had passed. If it takes the king (8000), ' + side(up[F.k]) + ' is in check; the caller\'s pass, which found no ' +
      'legal move, then scores \u22128000 / 2 = \u22124000 (checkmate), else minus half of this call\'s result.</p>' + quote('nullMove') + quote('mate');
  }
  if (!g) return '<p>The move is not known here (the stream names it <code>' + esc(c[F.move]) + '</code>).</p>';
  var b = boardOf(c[F.up]), u = b[at64(g[13])], p = u & 7, x = sq(g[13]), y = sq(g[14]);
  var h = '<table class="kv"><tr><th>part</th><th>points</th><th>how</th></tr>';
  h += '<tr><th>centre</th><td class="n" data-field="centre">' + g[2] + '</td><td class="how">' + (p < 6 ?
    'from-square ' + x + ' (' + g[0] + ' centre points) less to-square ' + y + ' (' + g[1] + '): ' + g[0] + ' \u2212 ' + g[1] :
    'none: a ' + TYPE[p] + ' earns no centre points') + '</td></tr>';
  if (p < 3) {
    var L = isSq(g[13] - 2) ? sq(g[13] - 2) : 'the edge', R = isSq(g[13] + 2) ? sq(g[13] + 2) : 'the edge';
    h += '<tr><th>pawns</th><td class="n" data-field="pawns">' + g[5] + '</td><td class="how">a partner (a pawn of its own two ' +
      'files along): on ' + L + ' ' + (g[3] ? 'none' : 'yes') + ', on ' + R + ' ' + (g[4] ? 'none' : 'yes') + '; \u22129 \u00d7 ' +
      '(sides without one \u2212 1) = \u22129 \u00d7 (' + (g[3] + g[4]) + ' \u2212 1)</td></tr>';
  }
  if (g[6]) h += '<tr><th>castling</th><td class="n" data-field="castling">30</td><td class="how">the rook from ' + sq(g[11]) + ' to ' + sq(g[12]) + '</td></tr>';
  if (g[7]) h += '<tr><th>capture</th><td class="n" data-field="capture">' + g[8] + '</td><td class="how">' + pieceName(g[7]) +
    ' on ' + sq(g[10]) + (g[10] !== g[14] ? ' (en passant: a row behind ' + y + ')' : '') + ': 99 \u00d7 ' + VALUE[g[7] & 7] + '</td></tr>';
  if (g[9]) h += '<tr><th>promotion</th><td class="n" data-field="promotion">799</td><td class="how">the pawn becomes a queen</td></tr>';
  var total = g[2] + g[5] + g[6] + g[8] + g[9], e = -up[F.e] - total;
  h += '<tr><th>earned</th><td class="n" data-field="earned">' + total + '</td><td class="how">the sum</td></tr>';
  h += '<tr><th><code>e</code></th><td class="n">' + e + '</td><td class="how">\u2212(caller\'s ' + up[F.e] + ') \u2212 ' + paren(total) +
    ', seen from ' + side(c[F.k]) + ': ' + (e === c[F.e] ? '<span class="ok">the stream\'s <code>e</code></span>' :
    '<span class="bad">the stream has ' + c[F.e] + '</span>') + '</td></tr></table>';
  h += quote('running') + (p < 6 ? quote('centre') : '') + (p < 3 ? quote('pawns') : '');
  return h + resultText(i);
}
/** What the call's result did to its caller's pass. */
function resultText(i) {
  var c = calls[i], up = upOf(i), v = c[F.v];
  if (!up || v === null) return '';
  var s = -v, less = s > up[F.e], score = s - (less ? 1 : 0), m = c[F.best], by = whose(i);
  var sofar = '(' + m + (by ? ', ' + by.name : '') + ')';
  var h = '<p data-field="score">Back in the caller, the move scores \u2212(' + v + ') = ' + s + (less ? ', above the caller\'s <code>e</code> (' +
    up[F.e] + '), so a point less: <b>' + score + '</b>' : ': <b>' + score + '</b>') + '. ';
  if (up[F.z] === 9) h += 'In a legality check the replies\' scores do not count.';
  else if (c[F.hint]) h += 'It was the best move slipped in first, so its score becomes the pass\'s best, <code>m</code> = ' + score + '.';
  else if (score > m) h += 'That beats the best so far ' + sofar + ': <code>m</code> = ' + score + (score >= up[F.l] ?
    ', which reaches the caller\'s <code>l</code> (' + up[F.l] + '): a cut-off ends that pass.' : '.');
  else h += 'No better than the best so far ' + sofar + '.';
  return h + '</p>' + (less ? quote('gain') : '');
}
function probeHtml(i) {
  var c = calls[i], p = c[F.probe], h = '<table class="kv">';
  if (!p) return '<p data-field="probe">full: all 8 slots held other positions, so it uses the dummy entry 0, which reads as empty and stays empty.</p>';
  h += row('slot', p[0], 'which entry of the table: its number means nothing of itself; the key (with <code>k</code> and <code>E</code>) picks 8 ' +
    'entries in a row, and the first empty one, or the one already holding this position, is used', 'probe-slot');
  h += row('passed', 8 - p[1], 'slots passed over, held by other positions', 'probe-passed');
  if (p.length === 2) return h + '</table><p data-field="probe">empty: a position not searched yet. Its passes start at 1, and each stores its result here.</p>';
  h += row('depth', p[2], 'the depth the stored score is good for (99: any)', 'probe-depth');
  h += row('score', p[3], bound(p[4]), 'probe-score');
  h += row('best', moveOn(i, p[4], p[5]) || 'none', 'the stored best move, tried first', 'probe-best');
  h += '</table>';
  if (answers(c)) return h + '<p data-field="probe">Deep enough (' + p[2] + ' \u2265 <code>n</code> = ' + c[F.n] + ') and ' +
    (bound(p[4]) === 'exact' ? 'exact' : 'a bound that decides the window (' + c[F.q] + ', ' + c[F.l] + ')') +
    ': D() returns ' + p[3] + ' at once, counting no node.</p>' + quote('answer');
  var first = c[F.passes].length ? c[F.passes][0][P.d] : null;
  return h + '<p data-field="probe">' + (p[2] >= c[F.n] ? 'Deep enough, but the score does not decide the window (' + c[F.q] + ', ' + c[F.l] +
    '): it searches its depth again' : 'Searched to depth ' + p[2] + ' only: it goes on from there') +
    (first !== null ? ', starting at pass ' + first : '') + ', the stored best move first.</p>' + quote('resume');
}
function passesHtml(i) {
  var c = calls[i], ps = c[F.passes], p2 = c[F.probe];
  if (!ps.length) return '<p>No pass: the table answered.</p>';
  var h = '<table class="kv"><tr><th>pass</th><th>starts from</th><th>moves searched</th><th>best m</th><th>best move</th><th>ended</th><th>stored</th></tr>';
  ps.forEach(function (p) {
    var d = p[P.d], best = bestOf(i, p);
    var ended = endOfPass(i, p), st = p[P.store];
    h += '<tr data-pass="' + d + '"><td class="n">' + d + '</td><td class="n">' + (d > 1 ? '\u22128000' : c[F.e] + ' (<code>e</code>)') +
      '</td><td class="' + (p[P.hidden] ? 'how' : 'n') + '" data-field="moves' + d + '">' + movesText(i, p) +
      '</td><td class="n" data-field="m' + d + '">' + (p[P.final] === null ? p[P.m] : p[P.m] + ' \u2192 ' + p[P.final]) +
      '</td><td>' + (best || '\u2013') + '</td><td class="how">' + ended + '</td><td class="how">' +
      (st ? (p2 && st[0] !== p2[0] ? 'in entry ' + st[0] + ': ' : 'in its entry: ') + 'depth ' + st[1] + ', ' + boundMark(st[3]) + st[2] + ' (' + bound(st[3]) + ')' :
        'nothing: the entry held a deeper exact score') +
      (p[P.trace] ? '; ' + p[P.trace][1] + ' nodes so far' : '') + '</td></tr>';
  });
  return h + '</table><p class="how">A move searched is a call the pass made itself, the null move\'s too; the calls below ' +
    'those are in the count of calls below it, at all depths.</p>';
}
function endOfPass(i, p) {
  var c = calls[i], t = p[P.takes];
  if (t) return (t[0][0] ? 'king capture' : 'illegal castling') + ' (' + sq(t[0][1]) + sq(t[0][2]) + '): m = 8000, a cut-off';
  if (p[P.cut]) return 'cut-off: m = ' + p[P.m] + ' \u2265 l = ' + c[F.l] + (p[P.d] <= 1 && p[P.m] === c[F.e] ? ', standing pat' : '');
  if (p[P.m] === -I) return 'no legal move: the null move gives ' + p[P.final];
  if (p[P.d] <= 1 && p[P.m] === c[F.e]) return 'stands pat: nothing scored more than e';
  return 'every move looked at';
}
function whyEnded(i) {
  var c = calls[i], ps = c[F.passes], last = ps[ps.length - 1];
  if (c[F.v] === null) return '<p>The stream ends before this call returns.</p>';
  if (!ps.length) return '<p data-field="why">The hash table answered it: it returned ' + c[F.v] + ' from the entry.</p>' + quote('answer');
  var h = '<p data-field="why">It returned ' + c[F.v] + ' after pass ' + last[P.d] + ': ';
  if (c[F.z] === 9 && c[F.v] === c[F.l]) return h + 'the legality check found the move and its king survived: it returns <code>l</code>, the move left on the board.</p>';
  var score = last[P.final] === null ? last[P.m] : last[P.final], q = [];
  if (last[P.takes]) { h += 'a move took ' + (last[P.takes][0][0] ? 'the king' : 'the king after a castling'); q.push('king', 'cutoff'); }
  else if (last[P.cut]) { h += 'its best, ' + last[P.m] + ', reached <code>l</code> = ' + c[F.l] + ': a cut-off, so ' + c[F.v] + ' is a lower bound'; q.push('cutoff'); if (last[P.d] <= 1 && last[P.m] === c[F.e]) q.push('pat'); }
  else if (last[P.m] === -I) {
    var nv = null;
    (kids[i][last[P.d]] || []).forEach(function (k) { if (calls[k][F.move] === 'null') nv = calls[k][F.v]; });
    h += 'no move kept the king; the null move decided: ' + (score === -I / 2 ? 'it took the king, so in check: checkmate, ' + score :
      c[F.z] === 8 && nv !== null ? 'here a root search itself (it inherits <code>z</code> 8), it returned ' + nv + ', so the pass scores \u2212' +
      nv + ' / 2 = ' + score : 'not in check: stalemate, ' + score);
    q.push('nullMove', 'mate');
  }
  else if (last[P.d] <= 1 && last[P.m] === c[F.e]) { h += 'standing pat: nothing it searched (at depth 1, only recaptures) scored more than <code>e</code>'; q.push('pat', 'depth1'); }
  else h += 'the best of every move';
  if (Math.abs(last[P.m]) > I / 4 || Math.abs(score) > I / 4) { h += '; a score beyond \u00b12000 ends the deepening (depth 99)'; q.push('d99'); }
  else if (c[F.z] === 8) { h += '; a root deepens until a pass ends with the node limit reached (' + (last[P.trace] ? last[P.trace][1] : c[F.after]) + ' nodes)'; q.push('limit'); }
  else if (!last[P.cut] && last[P.d] >= c[F.n]) h += '; pass ' + last[P.d] + ' was the depth asked for';
  return h + '.</p>' + q.map(quote).join('');
}
function crumbs(i) {
  var chain = [];
  for (var j = i; j >= 0; j = calls[j][F.up]) chain.unshift(j);
  return chain.map(function (j) { return j === i ? '<b>' + esc(label(j)) + '</b>' : link(j, label(j)); }).join(' \u203a ');
}/** The heading of call i. */
function title(i) { return 'Call ' + calls[i][F.no] + ': ' + label(i) + ', ' + side(calls[i][F.k]) + ' to move'; }
/** What the page says of the board's check: with each call the engine writes a sum of its board (each
 *  piece's code times its square's place, a8 1 to h1 64); this board gives the same, or another. */
function checked(c, b) {
  if (c[F.sumOk] === 1) return '<span class="ok">Board checked: it gives the check-sum the engine wrote with this call (' + sumOf(b) + ').</span>';
  if (c[F.sumOk] === 0) return '<span class="bad">Board not the engine\'s: the check-sum it wrote with this call is ' + c[F.sum] +
    ', this board gives ' + sumOf(b) + ': the program made this move otherwise.</span>';
  return c[F.sum] === null ? '' : 'The check-sum the engine wrote with this call: ' + c[F.sum] + '.';
}
/** Call i in full: its board and arguments, how its numbers were made, its probe, passes and end. */
function detail(i) {
  var c = calls[i], up = upOf(i), g = c[F.gain], out = notDrawn(i);
  var h = '<div class="top"><div>' + boardHtml(i) + '<div class="caption" data-field="side">' + side(c[F.k]) + ' to move' +
    (up && c[F.move] === 'null' ? ', on the same board (the null move)' : up && g ? ', after ' + side(up[F.k]) + '\'s ' + esc(c[F.move]) : '') +
    '. <span data-field="sum">' + checked(c, boardOf(i)) + '</span>' +
    '</div></div><div>' + argTable(i) + '<p data-field="result">Result: <b>' + (c[F.v] === null ? '?' : c[F.v]) + '</b>' +
    (c[F.inside] ? ', after ' + plural(c[F.inside], 'call') + ' below it, at all depths' + (out.n ? '; ' + out.n + ' of them not drawn (' +
      out.why + ')' : '') : '') + '.</p></div></div>';
  h += '<h3>How its numbers were made</h3>' + gainTable(i) + (up && c[F.move] !== 'null' ? quote('window') : '') +
    (c[F.hint] ? '<p>It is its caller\'s best move, slipped in first.</p>' + quote('hint') : '');
  h += '<h3>The hash probe</h3>' + probeHtml(i);
  h += '<h3>Its passes</h3>' + passesHtml(i);
  h += '<h3>Why it ended</h3>' + whyEnded(i);
  return h;
}
/** The passes of call i by depth, in order: each [d, its data, or null when the stream ends in it]. */
function passList(i) {
  var ps = calls[i][F.passes], out = ps.map(function (p) { return [p[P.d], p]; });
  Object.keys(kids[i]).map(Number).forEach(function (d) {
    if (!ps.some(function (p) { return p[P.d] === d; })) out.push([d, null]);
  });
  return out;
}
return { D: D, calls: calls, byNo: byNo, kids: kids, lastBelow: lastBelow, label: label, rowHtml: rowHtml, passLine: passLine,
  passList: passList, hasKids: hasKids, levelOf: levelOf, boardOf: boardOf, title: title, crumbs: crumbs, tagHtml: tagHtml,
  detail: detail };
}

// ---- the page: a tree of rows on the left, the selected one on the right -------------------------
/** The tree pane and the call pane for a model M of nodes (a search's calls, or two searches' aligned):
 *  M.count, M.up(i), M.id(i) (the row's id: a link's #...), M.byId(id), M.rowHtml(i), M.passes(i) (each
 *  [d, its lines], in order), M.kidsIn(i, d), M.hasKids(i), M.level(i), M.render(i) (the call pane's HTML),
 *  M.after(i) (once it is shown), M.first (the node opened on load). */
function Page(M) {
  var rows = [], built = [], open = [], selected = -1;
  function makeRow(i, parent, level) {
    var row = document.createElement('div');
    row.className = 'row';
    row.id = M.id(i);
    row.dataset.i = i;
    row.style.paddingLeft = (22 + 16 * level) + 'px';          // (a wrapped line hangs below the move)
    row.innerHTML = M.rowHtml(i);
    parent.appendChild(row);
    var box = document.createElement('div');
    box.hidden = true;
    parent.appendChild(box);
    rows[i] = row; built[i] = box;
  }
  function fill(i) {
    var box = built[i];
    if (box.dataset.filled) return;
    box.dataset.filled = '1';
    var level = M.level(i) + 1;
    M.passes(i).forEach(function (pass) {
      M.kidsIn(i, pass[0]).forEach(function (k) { makeRow(k, box, level); });
      pass[1].forEach(function (text) {
        var line = document.createElement('div');
        line.className = 'pass';
        line.style.paddingLeft = (4 + 16 * level + 18) + 'px';
        line.textContent = text;
        box.appendChild(line);
      });
    });
  }
  function unfold(i, yes) {
    if (!M.hasKids(i)) return;
    fill(i);
    built[i].hidden = !yes;
    open[i] = yes;
    rows[i].firstChild.textContent = yes ? '\u25be' : '\u25b8';
  }
  function reveal(i) {
    var chain = [];
    for (var j = M.up(i); j >= 0; j = M.up(j)) chain.unshift(j);
    chain.forEach(function (j) { unfold(j, true); });
  }
  function select(i, scroll) {
    if (i < 0 || i >= M.count) return;
    reveal(i);
    if (selected >= 0 && rows[selected]) rows[selected].classList.remove('sel');
    selected = i;
    rows[i].classList.add('sel');
    if (scroll !== false) rows[i].scrollIntoView({ block: 'nearest' });
    callEl.innerHTML = M.render(i);
    if (M.after) M.after(i);
    document.body.dataset.selected = M.id(i).replace(/^call-/, '');
    if (location.hash !== '#' + M.id(i)) history.replaceState(null, '', '#' + M.id(i));
  }
  function fromHash() { return M.byId(decodeURIComponent(location.hash.slice(1))); }

  treeEl.addEventListener('click', function (ev) {
    var row = ev.target.closest('.row');
    if (!row) return;
    var i = Number(row.dataset.i);
    if (ev.target.classList.contains('tog')) unfold(i, !open[i]);
    else select(i, false);
  });
  document.addEventListener('keydown', function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var i = selected, next = -1;
    if (ev.key === 'ArrowDown') next = i + 1;
    else if (ev.key === 'ArrowUp') next = i - 1;
    else if (ev.key === 'ArrowLeft') next = M.up(i);
    else if (ev.key === 'ArrowRight') { for (var k = i + 1; k < M.count; k++) if (M.up(k) === i) { next = k; break; } }
    else if (ev.key === 'Home') next = 0;
    else if (ev.key === 'End') next = M.count - 1;
    else return;
    ev.preventDefault();
    if (next >= 0 && next < M.count) select(next);
  });
  window.addEventListener('hashchange', function () { var i = fromHash(); if (i >= 0 && i !== selected) select(i); });

  if (!M.count) { callEl.textContent = 'No call to draw.'; return; }
  makeRow(0, treeEl, 0);
  unfold(0, true);
  select(fromHash() >= 0 ? fromHash() : M.first);
}

/** A page of one search: its calls, as the stream has them. */
function onePage() {
  var S = Search(G, function (i) { return '#call-' + S.calls[i][F.no]; });
  Page({
    count: S.calls.length, first: 0,
    up: function (i) { return S.calls[i][F.up]; },
    id: function (i) { return 'call-' + S.calls[i][F.no]; },
    byId: function (id) { var m = /^call-(\d+)$/.exec(id); return m && S.byNo[m[1]] !== undefined ? S.byNo[m[1]] : -1; },
    rowHtml: S.rowHtml, hasKids: S.hasKids, level: S.levelOf,
    kidsIn: function (i, d) { return S.kids[i][d] || []; },
    passes: function (i) {
      return S.passList(i).map(function (x) { return [x[0], [x[1] ? S.passLine(i, x[1]) : 'pass ' + x[0] + ' (the stream ends)']]; });
    },
    render: function (i) {
      return '<h2 data-field="title">' + esc(S.title(i)) + '</h2><div class="crumbs">' + S.crumbs(i) + ' &nbsp; ' + S.tagHtml(i) +
        '</div>' + S.detail(i);
    },
  });
}

/** A page of two searches (G.sides), aligned call by call (G.nodes: each [its call in the first, in the
 *  second, its caller's node, the caller's pass]): a node is a call of both, or of one alone. */
function twoPage() {
  var N = G.nodes, names = G.sides.map(function (s) { return s.label; });
  var S = G.sides.map(function (side, k) {
    var s = Search(side, function (i) { return '#' + idOf(nodeOf[k][i]); });
    return s;
  });
  var nodeOf = [[], []], kids = N.map(function () { return {}; }), levels = [];
  N.forEach(function (n, j) {
    if (n[0] >= 0) nodeOf[0][n[0]] = j;
    if (n[1] >= 0) nodeOf[1][n[1]] = j;
    if (n[2] >= 0) (kids[n[2]][n[3]] = kids[n[2]][n[3]] || []).push(j);
  });
  var byId = {};
  N.forEach(function (_, j) { byId[idOf(j)] = j; });
  function idOf(j) { var n = N[j]; return n[0] >= 0 ? 'call-' + S[0].calls[n[0]][F.no] : 'against-call-' + S[1].calls[n[1]][F.no]; }
  function level(j) { return levels[j] !== undefined ? levels[j] : (levels[j] = N[j][2] < 0 ? 0 : level(N[j][2]) + 1); }
  function call(j, k) { return N[j][k] >= 0 ? S[k].calls[N[j][k]] : null; }
  /** The fields of a call the two sides are compared on (its number and caller aside). */
  function fieldsOf(c) { return JSON.stringify([c[F.move], c[F.k], c[F.q], c[F.l], c[F.e], c[F.E], c[F.z], c[F.n], c[F.N], c[F.probe],
    c[F.hint], c[F.v], c[F.after], c[F.inside], c[F.passes].map(function (p) { return p.slice(0, 9); }), c[F.sumOk], c[F.sum], c[F.J], c[F.Z]]); }
  function differs(j) { var a = call(j, 0), b = call(j, 1); return !!(a && b) && fieldsOf(a) !== fieldsOf(b); }
  function rowHtml(j) {
    var a = call(j, 0), b = call(j, 1), k = a ? 0 : 1, c = a || b, i = N[j][k];
    var h = S[k].rowHtml(i);
    if (a && b && a[F.v] !== b[F.v]) h = h.replace(/ \u2192 (-?\d+|\?)/, ' \u2192 $1 <span class="vs">| ' + (b[F.v] === null ? '?' : b[F.v]) + '</span>');
    var mark = j === G.first.node ? '<span class="tag first">first difference</span>' : differs(j) ? '<span class="tag diff">differs</span>' :
      !(a && b) ? '<span class="tag only">' + esc(names[k]) + ' only</span>' : '';
    return h + mark;
  }
  function passes(j) {
    var ds = [], lines = {};
    [0, 1].forEach(function (k) {
      var i = N[j][k];
      if (i < 0) return;
      S[k].passList(i).forEach(function (x) {
        if (ds.indexOf(x[0]) < 0) ds.push(x[0]);
        (lines[x[0]] = lines[x[0]] || [null, null])[k] = x[1] ? S[k].passLine(i, x[1]) : 'pass ' + x[0] + ' (the stream ends)';
      });
    });
    ds.sort(function (x, y) { return x - y; });
    return ds.map(function (d) {
      var l = lines[d];
      if (l[0] !== null && l[0] === l[1]) return [d, [l[0]]];
      return [d, [0, 1].filter(function (k) { return l[k] !== null && N[j][k] >= 0; }).map(function (k) { return names[k] + ': ' + l[k]; })];
    });
  }
  function crumbs(j) {
    var chain = [];
    for (var x = j; x >= 0; x = N[x][2]) chain.unshift(x);
    return chain.map(function (x) {
      var c = call(x, 0) || call(x, 1), name = N[x][2] < 0 ? S[0].D.top : c[F.move];
      return x === j ? '<b>' + esc(name) + '</b>' : '<a href="#' + idOf(x) + '">' + esc(name) + '</a>';
    }).join(' \u203a ');
  }
  function side(j, k) {
    var i = N[j][k], c = call(j, k);
    var h = '<section class="side" data-side="' + 'ab'[k] + '"><h3 class="who">' + esc(names[k]) + (c ? ': call ' + c[F.no] : '') + '</h3>';
    if (!c) return h + '<p class="none" data-field="none">' + esc(names[k]) + '\'s search made no such call here.</p></section>';
    return h + '<div class="tags">' + S[k].tagHtml(i) + '</div>' + S[k].detail(i) + '</section>';
  }
  function render(j) {
    var c = call(j, 0) || call(j, 1), k = call(j, 0) ? 0 : 1;
    var h = '<h2 data-field="title">' + esc(S[k].title(N[j][k])) + '</h2><div class="crumbs">' + crumbs(j) + '</div>';
    if (j === G.first.node) h += '<div class="first" data-field="first">' + G.first.html + '</div>';
    else if (differs(j)) h += '<p class="diffnote">The two calls differ in the fields marked.</p>';
    return h + '<div class="sides">' + side(j, 0) + side(j, 1) + '</div>';
  }
  /** Marks what differs between the two sides shown: each field and each square of the board. */
  function after(j) {
    var a = callEl.querySelector('[data-side="a"]'), b = callEl.querySelector('[data-side="b"]');
    if (!a || !b || !call(j, 0) || !call(j, 1)) return;
    a.querySelectorAll('[data-field]').forEach(function (el) {
      var other = b.querySelector('[data-field="' + el.dataset.field + '"]');
      if (other && other.textContent !== el.textContent) { el.classList.add('differs'); other.classList.add('differs'); }
    });
    var ta = a.querySelectorAll('table.board td'), tb = b.querySelectorAll('table.board td');
    if (ta.length === 64 && tb.length === 64) for (var s = 0; s < 64; s++) {
      if (ta[s].title !== tb[s].title) { ta[s].classList.add('differs'); tb[s].classList.add('differs'); }
    }
  }
  Page({
    count: N.length, first: G.first.node,
    up: function (j) { return N[j][2]; }, id: idOf, byId: function (id) { return byId[id] !== undefined ? byId[id] : -1; },
    rowHtml: rowHtml, level: level, passes: passes, render: render, after: after,
    hasKids: function (j) { for (var d in kids[j]) return true; return false; },
    kidsIn: function (j, d) { return kids[j][d] || []; },
  });
}

if (G.sides) twoPage(); else onePage();
document.body.dataset.ready = '1';
document.body.dataset.readyMs = Math.round(performance.now());   // (the open time the browser test reports)
})();
`;
