/**
 * Reads an HTML email part with a real parser (htmlparser2): visible text plus every link.
 *
 * Invariants:
 * - markup is never scanned with regular expressions; entities are decoded by the parser
 *   (`&amp;` → `&`, `&nbsp;` → space);
 * - the visible text is already normalised (normalize.ts) and whitespace-collapsed, block elements
 *   become line breaks, `<style>`, `<script>`, `<head>` and friends are skipped;
 * - each anchor records its span in that visible text, so the words around a link are read with the
 *   same keyword hits as the rest of the message;
 * - work is bounded: oversized input is cut, the visible text and the anchor list are capped, and
 *   reading stops at an element nested deeper than MAX_DEPTH (htmlparser2 keeps its open elements
 *   with `unshift`, so every open tag costs the current depth: 200,000 nested `<div>` took ~10 s,
 *   issue 11).
 */
import { Parser } from 'htmlparser2';
import { normalizeText } from './normalize.ts';

export interface HtmlAnchor {
  readonly href: string;
  /** Span of the anchor's visible text in HtmlView.text. */
  readonly start: number;
  readonly end: number;
  /** The anchor shows only an image (logo, app-store badge, social icon). */
  readonly imageOnly: boolean;
  /** Styled as a button (class, background, padding, white-on-colour text). */
  readonly buttonish: boolean;
  /** Order among anchors in the document. */
  readonly index: number;
}

export interface HtmlView {
  readonly text: string;
  readonly anchors: readonly HtmlAnchor[];
}

/** Sign-in emails carry a few dozen kB of HTML (Gmail clips at 102 kB); the rest is not read. */
const MAX_HTML = 512 * 1024;
/**
 * Real layouts nest a few dozen elements; past this the rest of the document is not read. With
 * MAX_HTML it bounds htmlparser2's per-tag cost: at most ~0.1 s for the worst document of that size.
 */
const MAX_DEPTH = 10_000;
const MAX_TEXT = 200_000;
const MAX_ANCHORS = 400;
const SKIP = new Set(['style', 'script', 'head', 'title', 'noscript', 'template', 'svg', 'math']);
const BLOCK = new Set([
  'p',
  'div',
  'br',
  'tr',
  'td',
  'th',
  'li',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'table',
  'section',
  'article',
  'header',
  'footer',
  'hr',
  'blockquote',
  'pre',
  'center',
  'dd',
  'dt',
  'dl',
  'form',
  'address',
  'main',
  'nav',
  'aside',
  'figure',
  'figcaption',
  'body',
  'html',
]);

/**
 * A table being read: a row of header cells only (`<th>`) names the columns of the rows below it,
 * so each data cell under a header is read as "header: value" ("Código de acesso | Validade" over
 * "661 028 | 5 minutos" reads "Código de acesso: 661 028", "Validade: 5 minutos"), the way a
 * screen reader announces it. Bounded: at most MAX_COLUMNS headers of MAX_HEADER characters.
 */
interface TableState {
  headers: string[] | null;
  row: string[];
  rowHasData: boolean;
  col: number;
  header: string | null;
}
const MAX_COLUMNS = 16;
const MAX_HEADER = 80;
const MAX_TABLES = 64;

interface OpenElement {
  readonly name: string;
  readonly buttonStyle: boolean;
}

/** Collects visible text with collapsed whitespace while keeping offsets stable. */
class TextBuilder {
  private readonly parts: string[] = [];
  length = 0;
  private pendingSpace = false;
  private newlines = 2;

  append(raw: string): void {
    if (this.length >= MAX_TEXT) return;
    const room = MAX_TEXT - this.length;
    const text = normalizeText(raw.length > room ? raw.slice(0, room) : raw).replace(/\s+/g, ' ');
    if (text === '' || text === ' ') {
      if (text === ' ') this.pendingSpace = true;
      return;
    }
    const lead = text.startsWith(' ');
    const trail = text.endsWith(' ');
    const body = text.slice(lead ? 1 : 0, trail ? -1 : undefined);
    if ((lead || this.pendingSpace) && this.newlines === 0) this.push(' ');
    this.push(body);
    this.pendingSpace = trail;
  }

  newline(): void {
    this.pendingSpace = false;
    if (this.newlines < 2 && this.length < MAX_TEXT) {
      this.push('\n');
      this.newlines += 1;
    }
  }

  private push(s: string): void {
    this.parts.push(s);
    this.length += s.length;
    this.newlines = s === '\n' ? this.newlines : 0;
  }

  toString(): string {
    return this.parts.join('');
  }
}

function looksLikeButtonStyle(style: string, cls: string, bgcolor: string): boolean {
  if (/\b(btn|button|cta)\b/i.test(cls)) return true;
  if (bgcolor !== '' && !/^#?f{3}(f{3})?$|^white$/i.test(bgcolor.trim())) return true;
  const bg = /background(?:-color)?\s*:\s*([^;]+)/i.exec(style);
  if (bg === null) return false;
  const colour = bg[1]!.trim().toLowerCase();
  if (/^(#fff(fff)?|white|transparent|none|inherit)\b/.test(colour)) return false;
  return /padding|border-radius|display\s*:\s*inline-block/i.test(style);
}

function whiteText(style: string): boolean {
  return /(^|;|\s)color\s*:\s*(#fff(fff)?|white|rgb\(\s*255\s*,\s*255\s*,\s*255\s*\))/i.test(style);
}

export function readHtml(html: string): HtmlView {
  const input = html.length > MAX_HTML ? html.slice(0, MAX_HTML) : html;
  const out = new TextBuilder();
  const anchors: HtmlAnchor[] = [];
  const stack: OpenElement[] = [];
  let skipDepth = 0;
  let tooDeep = false;
  const tables: TableState[] = [];
  // Tables nested past MAX_TABLES are not tracked; their closes must not pop a tracked one.
  let untracked = 0;
  let current: {
    href: string;
    start: number;
    images: number;
    buttonish: boolean;
    textStart: number;
  } | null = null;

  const closeAnchor = () => {
    if (current === null) return;
    const end = out.length;
    const hasText = end > current.textStart;
    if (anchors.length < MAX_ANCHORS) {
      anchors.push({
        href: current.href,
        start: current.start,
        end,
        imageOnly: current.images > 0 && !hasText,
        buttonish: current.buttonish,
        index: anchors.length,
      });
    }
    current = null;
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const style = attribs.style ?? '';
        const buttonStyle = looksLikeButtonStyle(style, attribs.class ?? '', attribs.bgcolor ?? '');
        stack.push({ name, buttonStyle });
        if (stack.length > MAX_DEPTH) {
          // Stops the tokenizer within this write; nothing after this tag is read.
          tooDeep = true;
          parser.pause();
          return;
        }
        if (SKIP.has(name)) {
          skipDepth += 1;
          return;
        }
        if (skipDepth > 0) return;
        if (BLOCK.has(name)) out.newline();
        const table = tables.at(-1);
        if (name === 'table') {
          if (tables.length < MAX_TABLES) {
            tables.push({ headers: null, row: [], rowHasData: false, col: 0, header: null });
          } else untracked += 1;
        } else if (table !== undefined && name === 'tr') {
          table.row = [];
          table.rowHasData = false;
          table.col = 0;
        } else if (table !== undefined && name === 'th') {
          table.header = '';
        } else if (table !== undefined && name === 'td') {
          table.rowHasData = true;
          const header = table.headers?.[table.col];
          if (header !== undefined && header !== '') out.append(`${header}: `);
          table.col += 1;
        }
        if (name === 'a') {
          closeAnchor();
          const href = (attribs.href ?? '').replace(/\s+/g, '');
          if (href === '') return;
          let buttonish = buttonStyle;
          // Ancestors carry the button colour in table-based layouts (<td bgcolor><a>).
          for (let k = stack.length - 2; k >= 0 && k >= stack.length - 4 && !buttonish; k -= 1) {
            if (stack[k]!.buttonStyle) buttonish = true;
          }
          if (!buttonish && whiteText(style)) buttonish = true;
          current = { href, start: out.length, images: 0, buttonish, textStart: out.length };
        } else if (name === 'img' && current !== null) {
          current.images += 1;
        } else if (name === 'img' && (attribs.alt ?? '').trim() !== '') {
          // An image outside a link stands for its alt text: codes are sent as images with the
          // code in alt (for screen readers and blocked images). Inside a link the alt is left
          // out, so logos and badges stay image-only links.
          out.newline();
          out.append(attribs.alt!);
          out.newline();
        }
      },
      ontext(text) {
        if (skipDepth !== 0) return;
        out.append(text);
        const table = tables.at(-1);
        if (table?.header != null && table.header.length < MAX_HEADER) table.header += text;
      },
      onclosetag(name) {
        // Pop to the matching element; htmlparser2 reports implied closes in order.
        for (let k = stack.length - 1; k >= 0 && k >= stack.length - 64; k -= 1) {
          if (stack[k]!.name === name) {
            stack.length = k;
            break;
          }
        }
        if (SKIP.has(name)) {
          skipDepth = Math.max(0, skipDepth - 1);
          return;
        }
        if (skipDepth > 0) return;
        if (name === 'a') closeAnchor();
        const table = tables.at(-1);
        if (table !== undefined && name === 'th' && table.header !== null) {
          if (table.row.length < MAX_COLUMNS) {
            table.row.push(table.header.replace(/\s+/g, ' ').trim().slice(0, MAX_HEADER));
          }
          table.header = null;
          table.col += 1;
        } else if (table !== undefined && name === 'tr') {
          if (!table.rowHasData && table.row.length > 0) table.headers = table.row;
        } else if (name === 'table') {
          if (untracked > 0) untracked -= 1;
          else tables.pop();
        }
        if (BLOCK.has(name)) out.newline();
      },
    },
    { decodeEntities: true },
  );
  parser.write(input);
  // end() would report a close for every one of the open elements: not worth it when cut short.
  if (!tooDeep) parser.end();
  closeAnchor();
  return { text: out.toString(), anchors };
}
