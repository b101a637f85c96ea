/**
 * Agent markdown → Telegram messages under the size limit. Telegram refuses a message over
 * 4096 characters, so parts are cut at block (paragraph) boundaries first, then between
 * lines; a code block is never left open: a long one becomes several complete <pre> blocks.
 * Each part carries its plain-text twin, sent when Telegram refuses the HTML.
 */
import type { OutgoingMessage } from "../../application/channels/ports.js";
import { escapeHtml, markdownBlocks, type Block, type Unit } from "./telegram-markdown.js";

/** Under Telegram's 4096 with room to spare; both the HTML and the plain text must fit. */
export const PART_LIMIT = 4000;
/** Room kept for the "(12/34) " marker of multi-part answers. */
const MARKER_ROOM = 12;

interface Piece {
  html: string;
  text: string;
}

function render(block: Block): Piece {
  return {
    html: block.open + block.units.map((u) => u.html).join("\n") + block.close,
    text: block.units.map((u) => u.text).join("\n"),
  };
}

function size(p: Piece): number {
  return Math.max(p.html.length, p.text.length);
}

/**
 * A unit too long for any part, cut into units that fit. Code keeps its characters (escaped
 * per piece, so no entity is cut); other text loses its inline markup and is cut at spaces.
 */
function cutUnit(unit: Unit, room: number): Unit[] {
  const out: Unit[] = [];
  const chars = Array.from(unit.text); // never cut a surrogate pair
  let text = "";
  let html = "";
  let lastSpace = -1;
  for (const ch of chars) {
    const esc = escapeHtml(ch);
    if (html.length + esc.length > room || text.length + ch.length > room) {
      if (!unit.code && lastSpace > 0 && lastSpace < text.length) {
        const head = text.slice(0, lastSpace);
        const tail = text.slice(lastSpace);
        out.push({ html: escapeHtml(head), text: head, code: unit.code });
        text = tail;
        html = escapeHtml(tail);
      } else {
        out.push({ html, text, code: unit.code });
        text = "";
        html = "";
      }
      lastSpace = -1;
    }
    if (/\s/.test(ch)) lastSpace = text.length + ch.length;
    text += ch;
    html += esc;
  }
  if (text || !out.length) out.push({ html, text, code: unit.code });
  return out;
}

/** A block too long for `firstRoom` split into complete blocks: the first fits `firstRoom`, the rest `room`. */
function splitBlock(block: Block, firstRoom: number, room: number): Block[] {
  const wrapper = Math.max(block.open.length + block.close.length, 0);
  const out: Block[] = [];
  let units: Unit[] = [];
  let cap = firstRoom;
  const flush = () => {
    if (units.length) out.push({ ...block, units });
    units = [];
    cap = room;
  };
  const fits = (candidate: Unit[]) => size(render({ ...block, units: candidate })) <= cap;
  for (const unit of block.units) {
    if (fits([...units, unit])) {
      units.push(unit);
      continue;
    }
    flush();
    if (fits([unit])) {
      units.push(unit);
      continue;
    }
    for (const piece of cutUnit(unit, room - wrapper)) {
      if (!fits([...units, piece])) flush();
      units.push(piece);
    }
  }
  flush();
  return out;
}

export function renderTelegram(markdown: string, limit = PART_LIMIT): OutgoingMessage[] {
  const room = limit - MARKER_ROOM;
  const parts: Piece[] = [];
  const add = (piece: Piece) => {
    const current = parts.at(-1);
    if (current && size({ html: current.html + "\n\n" + piece.html, text: current.text + "\n\n" + piece.text }) <= room) {
      current.html += "\n\n" + piece.html;
      current.text += "\n\n" + piece.text;
    } else {
      parts.push({ ...piece });
    }
  };
  for (const block of markdownBlocks(markdown)) {
    const whole = render(block);
    if (size(whole) <= room) {
      add(whole);
      continue;
    }
    // Fill what is left of the current part when it is worth it, then whole parts.
    const current = parts.at(-1);
    const left = current ? room - size(current) - 2 : 0;
    const first = left >= 200 ? left : room;
    for (const b of splitBlock(block, first, room)) add(render(b));
  }
  if (parts.length === 0) return [];
  if (parts.length === 1) return [{ text: parts[0]!.text, html: parts[0]!.html }];
  return parts.map((p, i) => {
    const marker = `(${i + 1}/${parts.length}) `;
    return { text: marker + p.text, html: marker + p.html, ...(i > 0 ? { silent: true } : {}) };
  });
}
