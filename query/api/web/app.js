// xqdb explorer: a board, the tree of its position and the games that
// reached it, over the JSON API of xqdb serve. Plain JS, no build step, no
// network but the server's own API. GLYPHS (pieces.js) draws the pieces.
"use strict";

const L = {
  en: { game: "Game", notation: "Notation", language: "Language", mirror: "Mirror", flip: "Flip", reset: "New",
    setfen: "Set FEN", play: "Play moves", move: "Move", games: "Games", wdl: "White / draw / black", rating: "Rating",
    last: "Last played", gameslist: "Games of this position", filter: "Filter", date: "Date", white: "White", black: "Black",
    result: "Result", event: "Event", opening: "Opening", prev: "Previous", next: "Next", page: "page", of: "of",
    tomove: "to move", check: "check", ended: "ended here", nogames: "No game reached this position.",
    red: "Red", viewing: "Game", close: "close", keys: "← → step, Home/End", xiangqi: "Xiangqi", chess: "Chess" },
  vi: { game: "Trò chơi", notation: "Ký hiệu", language: "Ngôn ngữ", mirror: "Đối xứng", flip: "Lật bàn", reset: "Ván mới",
    setfen: "Đặt FEN", play: "Đi các nước", move: "Nước đi", games: "Số ván", wdl: "Trắng / hòa / đen", rating: "Elo",
    last: "Lần cuối", gameslist: "Các ván qua thế cờ này", filter: "Lọc", date: "Ngày", white: "Trắng", black: "Đen",
    result: "Kết quả", event: "Giải đấu", opening: "Khai cuộc", prev: "Trước", next: "Sau", page: "trang", of: "/",
    tomove: "đi", check: "chiếu", ended: "kết thúc ở đây", nogames: "Chưa có ván nào qua thế cờ này.",
    red: "Đỏ", viewing: "Ván", close: "đóng", keys: "← → từng nước, Home/End", xiangqi: "Cờ tướng", chess: "Cờ vua" },
  zh: { game: "棋种", notation: "记谱", language: "语言", mirror: "镜像", flip: "翻转", reset: "新局",
    setfen: "设置 FEN", play: "走棋", move: "着法", games: "局数", wdl: "先手胜 / 和 / 后手胜", rating: "等级分",
    last: "最近", gameslist: "经过此局面的对局", filter: "筛选", date: "日期", white: "红/白", black: "黑",
    result: "结果", event: "赛事", opening: "开局", prev: "上一页", next: "下一页", page: "第", of: "/",
    tomove: "走", check: "将军", ended: "在此结束", nogames: "没有对局经过此局面。",
    red: "红", viewing: "对局", close: "关闭", keys: "← → 逐步，Home/End", xiangqi: "象棋", chess: "国际象棋" },
};
const NOTATIONS = { xiangqi: ["wxf", "iccs", "chinese", "vietnamese"], chess: ["san", "uci"] };
const COORD = { xiangqi: "iccs", chess: "uci" };
const PAGE = 20;

const st = {
  game: "xiangqi", fen: "", line: [], cur: 0, flip: false, mirror: false, notation: "wxf", lang: "en",
  query: "", offset: 0, legal: [], posFen: "", sel: null, viewing: null, seq: 0,
};

const $ = (id) => document.getElementById(id);
const t = (k) => (L[st.lang] && L[st.lang][k]) || L.en[k] || k;
let busy = 0;
function setBusy(d) { busy += d; document.body.dataset.busy = String(busy); }

async function api(path, params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) if (v !== "" && v !== undefined && v !== null && v !== false) q.set(k, v);
  setBusy(1);
  try {
    const r = await fetch(path + (q.toString() ? "?" + q : ""));
    const body = await r.json();
    if (!r.ok) throw new Error((body.param ? body.param + ": " : "") + body.error);
    return body;
  } finally { setBusy(-1); }
}

function movesParam(n) { return st.line.slice(0, n === undefined ? st.cur : n).map((m) => m.coord).join(" "); }

// ---- the board -------------------------------------------------------

const SVGNS = "http://www.w3.org/2000/svg";
function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

const XQ_GLYPH = { K: "帥", A: "仕", B: "相", E: "相", R: "俥", N: "傌", H: "傌", C: "炮", P: "兵",
  k: "將", a: "士", b: "象", e: "象", r: "車", n: "馬", h: "馬", c: "砲", p: "卒" };
const CHESS_GLYPH = { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
const CHESS_OUTLINE = { k: "♔", q: "♕", r: "♖", b: "♗", n: "♘", p: "♙" };

function geometry() {
  if (st.game === "xiangqi") return { files: 9, ranks: 10, cell: 56, margin: 40 };
  return { files: 8, ranks: 8, cell: 64, margin: 24 };
}

// parseBoard reads a FEN's placement: board[rank][file], rank 0 at the bottom (Red/White).
function parseBoard(fen) {
  const g = geometry();
  const rows = fen.split(" ")[0].split("/");
  const board = [];
  for (let i = 0; i < g.ranks; i++) {
    const r = g.ranks - 1 - i, row = [];
    for (const ch of rows[i] || "") {
      if (ch >= "0" && ch <= "9") for (let k = 0; k < +ch; k++) row.push("");
      else row.push(ch);
    }
    board[r] = row;
  }
  return board;
}

function sqName(f, r) { return String.fromCharCode(97 + f) + (st.game === "xiangqi" ? r : r + 1); }
function sqOf(name) { return [name.charCodeAt(0) - 97, st.game === "xiangqi" ? +name[1] : +name[1] - 1]; }

// screen maps a board point to the picture, flipped or not.
function screen(f, r) {
  const g = geometry();
  const ff = st.flip ? g.files - 1 - f : f, rr = st.flip ? r : g.ranks - 1 - r;
  if (st.game === "xiangqi") return [g.margin + ff * g.cell, g.margin + rr * g.cell];
  return [g.margin + ff * g.cell + g.cell / 2, g.margin + rr * g.cell + g.cell / 2];
}

function pointAt(x, y) {
  const g = geometry();
  let ff, rr;
  if (st.game === "xiangqi") { ff = Math.round((x - g.margin) / g.cell); rr = Math.round((y - g.margin) / g.cell); }
  else { ff = Math.floor((x - g.margin) / g.cell); rr = Math.floor((y - g.margin) / g.cell); }
  if (ff < 0 || rr < 0 || ff >= g.files || rr >= g.ranks) return null;
  return st.flip ? [g.files - 1 - ff, rr] : [ff, g.ranks - 1 - rr];
}

function drawPiece(parent, p, x, y) {
  const grp = el("g", { transform: `translate(${x},${y})`, class: "piece", "data-piece": p }, parent);
  if (st.game === "xiangqi") {
    const red = p === p.toUpperCase();
    el("circle", { r: 25, fill: "#f3dcae", stroke: red ? "#b3261e" : "#222", "stroke-width": 2 }, grp);
    el("circle", { r: 21, fill: "none", stroke: red ? "#b3261e" : "#222", "stroke-width": 1 }, grp);
    el("path", { d: GLYPHS[XQ_GLYPH[p]], fill: red ? "#b3261e" : "#111", transform: "scale(0.34)" }, grp);
  } else {
    const white = p === p.toUpperCase(), k = p.toLowerCase();
    el("path", { d: GLYPHS[CHESS_GLYPH[k]], fill: white ? "#fff" : "#111", transform: "scale(0.62)" }, grp);
    if (white) el("path", { d: GLYPHS[CHESS_OUTLINE[k]], fill: "#111", transform: "scale(0.62)" }, grp);
  }
  return grp;
}

function drawBoard() {
  const g = geometry();
  const w = st.game === "xiangqi" ? 2 * g.margin + (g.files - 1) * g.cell : 2 * g.margin + g.files * g.cell;
  const h = st.game === "xiangqi" ? 2 * g.margin + (g.ranks - 1) * g.cell : 2 * g.margin + g.ranks * g.cell;
  const svg = el("svg", { viewBox: `0 0 ${w} ${h}`, width: w, height: h, "data-fen": st.posFen, "data-game": st.game });
  el("rect", { x: 0, y: 0, width: w, height: h, fill: st.game === "xiangqi" ? "#e8c88a" : "#d9c29a" }, svg);
  const lines = el("g", { stroke: "#5a3d1a", "stroke-width": 1.3, fill: "none" }, svg);
  if (st.game === "xiangqi") {
    const x0 = g.margin, y0 = g.margin, x1 = g.margin + 8 * g.cell, y1 = g.margin + 9 * g.cell;
    for (let r = 0; r < 10; r++) el("line", { x1: x0, y1: y0 + r * g.cell, x2: x1, y2: y0 + r * g.cell }, lines);
    for (let f = 0; f < 9; f++) {
      const x = x0 + f * g.cell;
      if (f === 0 || f === 8) el("line", { x1: x, y1: y0, x2: x, y2: y1 }, lines);
      else { // the river cuts the files
        el("line", { x1: x, y1: y0, x2: x, y2: y0 + 4 * g.cell }, lines);
        el("line", { x1: x, y1: y0 + 5 * g.cell, x2: x, y2: y1 }, lines);
      }
    }
    for (const top of [0, 7]) { // the palaces' diagonals
      const ya = y0 + top * g.cell, yb = ya + 2 * g.cell, xa = x0 + 3 * g.cell, xb = x0 + 5 * g.cell;
      el("line", { x1: xa, y1: ya, x2: xb, y2: yb }, lines);
      el("line", { x1: xb, y1: ya, x2: xa, y2: yb }, lines);
    }
    el("rect", { x: x0 - 6, y: y0 - 6, width: 8 * g.cell + 12, height: 9 * g.cell + 12, "stroke-width": 2.5 }, lines);
    // River banks' wave marks: no text, so no font is needed.
    const ry = y0 + 4.5 * g.cell;
    el("path", { d: `M${x0 + g.cell} ${ry} q ${g.cell / 2} -8 ${g.cell} 0 t ${g.cell} 0 M${x0 + 5 * g.cell} ${ry} q ${g.cell / 2} -8 ${g.cell} 0 t ${g.cell} 0`, stroke: "#7a9cc6", "stroke-width": 2 }, svg);
  } else {
    for (let r = 0; r < 8; r++) for (let f = 0; f < 8; f++) {
      const [x, y] = screen(f, r);
      el("rect", { x: x - g.cell / 2, y: y - g.cell / 2, width: g.cell, height: g.cell, fill: (f + r) % 2 ? "#f0d9b5" : "#b58863" }, svg);
    }
  }
  // Coordinates (ASCII: every font has them).
  const labels = el("g", { "font-size": 12, fill: "#5a3d1a", "font-family": "sans-serif", "text-anchor": "middle" }, svg);
  for (let f = 0; f < g.files; f++) {
    const [x] = screen(f, 0);
    el("text", { x, y: h - 6 }, labels).textContent = String.fromCharCode(97 + f);
  }
  for (let r = 0; r < g.ranks; r++) {
    const [, y] = screen(0, r);
    el("text", { x: 9, y: y + 4 }, labels).textContent = st.game === "xiangqi" ? r : r + 1;
  }
  // The last move, the selection and the targets.
  const marks = el("g", {}, svg);
  const last = st.cur > 0 ? st.line[st.cur - 1].coord : "";
  if (last) for (const s of [last.slice(0, 2), last.slice(2, 4)]) {
    const [x, y] = screen(...sqOf(s));
    el("rect", { class: "last", x: x - g.cell / 2 + 2, y: y - g.cell / 2 + 2, width: g.cell - 4, height: g.cell - 4, rx: 6 }, marks);
  }
  const board = parseBoard(st.posFen);
  const pieces = el("g", {}, svg);
  for (let r = 0; r < g.ranks; r++) for (let f = 0; f < g.files; f++) {
    const [x, y] = screen(f, r);
    // A transparent target for every point: tests and users click it.
    const sq = el("rect", { class: "sq", "data-sq": sqName(f, r), x: x - g.cell / 2, y: y - g.cell / 2, width: g.cell, height: g.cell, fill: "transparent" }, marks);
    if (st.sel === sqName(f, r)) sq.classList.add("sel");
    const p = board[r] && board[r][f];
    if (p) drawPiece(pieces, p, x, y);
  }
  if (st.sel) for (const m of st.legal) {
    const c = m[COORD[st.game]];
    if (c.slice(0, 2) !== st.sel) continue;
    const [x, y] = screen(...sqOf(c.slice(2, 4)));
    el("circle", { class: "dot", cx: x, cy: y, r: 8 }, svg);
  }
  const box = $("board");
  box.replaceChildren(svg);
  svg.addEventListener("pointerdown", onPointerDown);
}

// ---- moving ----------------------------------------------------------

let drag = null;
function svgPoint(ev) {
  const svg = $("board").firstChild, pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

function onPointerDown(ev) {
  const p = svgPoint(ev), sq = pointAt(p.x, p.y);
  if (!sq) return;
  const name = sqName(...sq);
  if (st.sel && st.sel !== name && tryMove(st.sel, name)) return;
  const from = st.legal.some((m) => m[COORD[st.game]].slice(0, 2) === name);
  st.sel = from ? name : null;
  drawBoard();
  if (!from) return;
  // Drag: the piece follows the pointer; dropping on a target moves.
  const svg = $("board").firstChild;
  const piece = [...svg.querySelectorAll(".piece")].find((g) => {
    const [x, y] = screen(...sq); return g.getAttribute("transform") === `translate(${x},${y})`;
  });
  drag = { from: name, piece, moved: false };
  try { svg.setPointerCapture(ev.pointerId); } catch (e) { /* the pointer went up already */ }
  svg.addEventListener("pointermove", onPointerMove);
  svg.addEventListener("pointerup", onPointerUp, { once: true });
}

function onPointerMove(ev) {
  if (!drag || !drag.piece) return;
  const p = svgPoint(ev);
  drag.moved = true;
  drag.piece.setAttribute("transform", `translate(${p.x},${p.y})`);
  drag.piece.parentNode.appendChild(drag.piece);
}

function onPointerUp(ev) {
  const svg = $("board").firstChild;
  svg.removeEventListener("pointermove", onPointerMove);
  const d = drag;
  drag = null;
  if (!d || !d.moved) return; // a click: the selection stays
  const p = svgPoint(ev), sq = pointAt(p.x, p.y);
  if (!sq || !tryMove(d.from, sqName(...sq))) drawBoard();
}

// tryMove plays from-to when /api/position listed it (a pawn promotes to
// a queen); false otherwise.
function tryMove(from, to) {
  const c = COORD[st.game];
  const cands = st.legal.filter((m) => m[c].slice(0, 4) === from + to);
  if (!cands.length) return false;
  const m = cands.find((x) => x[c].length === 4 || x[c][4] === "q") || cands[0];
  play(m);
  return true;
}

// play appends a legal move (its renderings in every notation) after the
// current position and shows the new position.
function play(m) {
  st.line = st.line.slice(0, st.cur);
  st.line.push({ coord: m[COORD[st.game]], names: m });
  st.cur++;
  st.sel = null;
  if (st.viewing) st.viewing = null;
  update();
}

function playCoord(coord) {
  const m = st.legal.find((x) => x[COORD[st.game]] === coord);
  if (m) play(m);
}

// ---- the panels ------------------------------------------------------

function showError(e) { $("error").textContent = e ? String(e.message || e) : ""; }

async function update(keepOffset) {
  const seq = ++st.seq;
  const asked = performance.now();
  if (!keepOffset) st.offset = 0;
  const base = { game: st.game, fen: st.fen, moves: movesParam() };
  const filt = { query: st.query, mirror: st.game === "xiangqi" && st.mirror ? "true" : "" };
  showError("");
  try {
    // The three are asked at once; the board and the tree are drawn as
    // soon as theirs arrive, the games list (a longer answer at a popular
    // position) when it comes.
    const games = api("/api/games", { ...base, ...filt, limit: PAGE, offset: st.offset });
    games.catch(() => {}); // its error is shown below, not as unhandled
    const [pos, tree] = await Promise.all([
      api("/api/position", base),
      api("/api/tree", { ...base, ...filt, notation: st.notation }),
    ]);
    if (seq !== st.seq) return; // a newer position was asked meanwhile
    st.legal = pos.legal_moves;
    st.posFen = pos.fen;
    st.status = pos;
    drawBoard();
    renderStatus();
    renderLine();
    renderTree(tree);
    $("fen").value = pos.fen;
    toHash();
    // How long the position took from the move to its board and tree
    // drawn, and to its games: the browser test and BenchmarkMoveInPage
    // report them (the page's target is a tree in under 100 ms).
    document.body.dataset.ms = String(Math.round(performance.now() - asked));
    document.body.dataset.fen = pos.fen;
    const list = await games;
    if (seq !== st.seq) return;
    renderGames(list);
    document.body.dataset.gamesMs = String(Math.round(performance.now() - asked));
  } catch (e) {
    if (seq === st.seq) showError(e);
  }
}

function renderStatus() {
  const s = st.status;
  let side = s.side === "red" ? t("red") : s.side === "white" ? t("white") : t("black");
  let text = `${side} ${t("tomove")}`;
  if (s.in_check) text += ` · ${t("check")}`;
  if (s.status !== "ongoing") text += ` · ${s.status} ${s.result}`;
  $("status").textContent = text;
  const v = $("viewer");
  v.replaceChildren();
  if (st.viewing) {
    const g = st.viewing;
    v.textContent = `${t("viewing")} #${g.id}: ${g.tags.White || g.tags.Red || "?"} – ${g.tags.Black || "?"} ${g.result} (${g.tags.Event || ""} ${g.tags.Date || ""}) · ${t("keys")} `;
    const close = document.createElement("button");
    close.textContent = t("close");
    close.onclick = () => { st.viewing = null; renderStatus(); };
    v.appendChild(close);
  }
}

function renderLine() {
  const ol = $("line");
  ol.replaceChildren();
  const firstSide = (st.fen.split(" ")[1] || "w") === "b" ? 1 : 0;
  st.line.forEach((m, i) => {
    const li = document.createElement("li");
    const ply = i + firstSide;
    if (ply % 2 === 0 || i === 0) {
      const n = document.createElement("span");
      n.className = "n";
      n.textContent = Math.floor(ply / 2) + 1 + (ply % 2 ? "…" : ".");
      li.appendChild(n);
    }
    li.appendChild(document.createTextNode((m.names && m.names[st.notation]) || m.coord));
    if (i + 1 === st.cur) li.className = "cur";
    li.dataset.ply = i + 1;
    li.onclick = () => { st.cur = i + 1; st.sel = null; update(); };
    ol.appendChild(li);
  });
}

function pct(n, of) { return of ? Math.round((100 * n) / of) : 0; }

function bar(m) {
  const d = document.createElement("div");
  d.className = "bar";
  const known = m.white + m.draws + m.black;
  for (const [cls, n] of [["w", m.white], ["d", m.draws], ["b", m.black]]) {
    const s = document.createElement("span");
    s.className = cls;
    const p = pct(n, known);
    s.style.width = p + "%";
    if (p >= 12) s.textContent = p + "%";
    d.appendChild(s);
  }
  d.title = `${m.white} / ${m.draws} / ${m.black}` + (m.unknown ? ` (+${m.unknown} ?)` : "");
  return d;
}

function renderTree(tree) {
  $("opening").textContent = tree.opening ? `${tree.opening} ${tree.opening_name}` : "";
  $("summary").textContent = tree.games ? `${tree.games} ${t("games").toLowerCase()}` + (tree.ended_here ? ` · ${tree.ended_here} ${t("ended")}` : "") : t("nogames");
  const tb = $("tree").tBodies[0];
  tb.replaceChildren();
  for (const m of tree.moves) {
    const tr = document.createElement("tr");
    tr.dataset.uci = m.uci;
    const cells = [m.move, m.games, "", m.avg_rating || "", m.last_date];
    cells.forEach((c, i) => {
      const td = document.createElement("td");
      if (i === 2) td.appendChild(bar(m)); else td.textContent = c;
      tr.appendChild(td);
    });
    tr.onclick = () => playCoord(m.uci);
    tb.appendChild(tr);
  }
  $("tree").dataset.fen = tree.fen;
}

function renderGames(list) {
  const tb = $("games").tBodies[0];
  tb.replaceChildren();
  for (const g of list.games) {
    const tr = document.createElement("tr");
    tr.dataset.id = g.id;
    for (const c of [g.id, g.date, g.white, g.black, g.result, g.rating || "", g.event, (g.opening + " " + g.opening_name).trim()]) {
      const td = document.createElement("td");
      td.textContent = c;
      td.title = c;
      tr.appendChild(td);
    }
    tr.onclick = () => openGame(g.id, g.ply);
    tb.appendChild(tr);
  }
  $("games").dataset.total = list.total;
  const pages = Math.max(1, Math.ceil(list.total / PAGE));
  $("page").textContent = `${t("page")} ${Math.floor(st.offset / PAGE) + 1} ${t("of")} ${pages} (${list.total})`;
  $("prev").disabled = st.offset === 0;
  $("next").disabled = st.offset + PAGE >= list.total;
}

// openGame loads a stored game into the viewer at the ply it reached the
// position (the line becomes its moves; the tree follows each step).
async function openGame(id, ply) {
  try {
    const g = await api("/api/game/" + id, { notation: st.notation });
    st.game = g.game;
    $("game").value = g.game;
    st.fen = g.tags.FEN ? g.start_fen : "";
    st.line = g.moves.map((m) => ({ coord: m.uci, names: { [st.notation]: m.move, [COORD[g.game]]: m.uci } }));
    st.cur = ply >= 0 ? Math.min(ply, st.line.length) : 0;
    st.viewing = g;
    st.sel = null;
    fillNotations();
    update();
  } catch (e) { showError(e); }
}

function step(to) {
  const n = Math.max(0, Math.min(st.line.length, to));
  if (n === st.cur) return;
  st.cur = n;
  st.sel = null;
  update();
}

function fillNotations() {
  const sel = $("notation");
  if (!NOTATIONS[st.game].includes(st.notation)) st.notation = NOTATIONS[st.game][0];
  sel.replaceChildren(...NOTATIONS[st.game].map((n) => {
    const o = document.createElement("option");
    o.value = n; o.textContent = n === "iccs" || n === "wxf" || n === "san" || n === "uci" ? n.toUpperCase() : n[0].toUpperCase() + n.slice(1);
    return o;
  }));
  sel.value = st.notation;
  $("mirrorbox").style.display = st.game === "xiangqi" ? "" : "none";
  document.body.classList.toggle("xq", st.game === "xiangqi");
}

function relabel() {
  document.documentElement.lang = st.lang;
  for (const e of document.querySelectorAll("[data-l]")) e.textContent = t(e.dataset.l);
  $("game").options[0].textContent = t("xiangqi");
  $("game").options[1].textContent = t("chess");
  const w = document.querySelector('#games th[data-l="white"]');
  if (w) w.textContent = st.game === "xiangqi" ? t("red") : t("white");
  const wdl = document.querySelector('#tree th[data-l="wdl"]');
  if (wdl && st.game === "xiangqi") wdl.textContent = t("wdl").replace(t("white"), t("red"));
}

function newGame(game) {
  st.game = game; st.fen = ""; st.line = []; st.cur = 0; st.sel = null; st.viewing = null; st.flip = false;
  fillNotations();
  relabel();
  update();
}

// ---- wiring ----------------------------------------------------------

$("game").onchange = (e) => newGame(e.target.value);
$("notation").onchange = (e) => {
  st.notation = e.target.value;
  if (st.viewing) openGame(st.viewing.id, st.cur); else update(true);
};
$("lang").onchange = (e) => { st.lang = e.target.value; relabel(); update(true); };
$("mirror").onchange = (e) => { st.mirror = e.target.checked; update(); };
$("flip").onclick = () => { st.flip = !st.flip; drawBoard(); };
$("reset").onclick = () => newGame(st.game);
$("first").onclick = () => step(0);
$("back").onclick = () => step(st.cur - 1);
$("fwd").onclick = () => step(st.cur + 1);
$("last").onclick = () => step(st.line.length);
$("prev").onclick = () => { st.offset = Math.max(0, st.offset - PAGE); update(true); };
$("next").onclick = () => { st.offset += PAGE; update(true); };
$("filter").onsubmit = (e) => { e.preventDefault(); st.query = $("query").value.trim(); update(); };
$("fenform").onsubmit = async (e) => {
  e.preventDefault();
  const fen = $("fen").value.trim();
  try {
    const game = fen.split(" ")[0].split("/").length === 8 ? "chess" : "xiangqi";
    await api("/api/position", { game, fen }); // refused when it does not read
    st.game = game; $("game").value = game; st.fen = fen; st.line = []; st.cur = 0; st.viewing = null;
    fillNotations(); relabel(); update();
  } catch (err) { showError(err); }
};
$("movesform").onsubmit = async (e) => {
  e.preventDefault();
  // The text goes to the server as typed: it reads move numbers, results,
  // comments and variations away, and each move in any notation of the
  // game, as the CLI's --moves does; its answer's line says what the moves
  // were. They are played from the current ply.
  const line = st.line.slice(0, st.cur);
  try {
    const pos = await api("/api/position", { game: st.game, fen: st.fen,
      moves: line.map((m) => m.coord).join(" ") + " " + $("movesin").value });
    st.line = pos.line.map((m) => ({ coord: m[COORD[st.game]], names: m }));
    st.cur = st.line.length; st.viewing = null; st.sel = null;
    update();
  } catch (err) { showError(err); }
};
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  const keys = { ArrowLeft: st.cur - 1, ArrowRight: st.cur + 1, Home: 0, End: st.line.length };
  if (e.key in keys) { e.preventDefault(); step(keys[e.key]); }
});

// A link may name a position: #game=xiangqi&moves=h2e2+h9g7 (coordinate
// moves) or #fen=…; the page keeps the hash in step as moves are played.
function fromHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.get("game") === "chess" || h.get("game") === "xiangqi") { st.game = h.get("game"); $("game").value = st.game; }
  if (h.get("fen")) st.fen = h.get("fen");
  if (h.get("notation")) st.notation = h.get("notation");
  if (h.get("lang") && L[h.get("lang")]) { st.lang = h.get("lang"); $("lang").value = st.lang; }
  st.line = (h.get("moves") || "").split(/[\s+]+/).filter(Boolean).map((c) => ({ coord: c, names: {} }));
  st.cur = st.line.length;
}
function toHash() {
  const h = new URLSearchParams({ game: st.game });
  if (st.fen) h.set("fen", st.fen);
  if (st.cur) h.set("moves", movesParam());
  history.replaceState(null, "", "#" + h);
}

fromHash();
api("/api/stats").then((s) => { $("dbinfo").textContent = `${s.games} games · xiangqi ${s.per_game.xiangqi || 0} · chess ${s.per_game.chess || 0}`; }).catch(() => {});
fillNotations();
relabel();
update();
