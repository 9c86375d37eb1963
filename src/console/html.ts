/**
 * A tagged template for server-rendered pages: every interpolated value is HTML-escaped unless it
 * is already `SafeHtml` (the output of another `html` template). Hostile strings (emails, names,
 * error details) therefore cannot inject markup. `sendPage` is the one way a route answers with
 * a page (and `chromeFor` in layout.ts the one way it builds the page's header).
 */
import type { FastifyReply } from 'fastify';

export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString() {
    return this.value;
  }
}

const replacements: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => replacements[c]!);

type Value = SafeHtml | string | number | boolean | null | undefined | Value[];

function render(value: Value): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): SafeHtml {
  let out = strings[0]!;
  for (const [i, value] of values.entries()) out += render(value) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Answers with a rendered page. */
export const sendPage = (reply: FastifyReply, status: number, body: string) =>
  reply.status(status).type('text/html; charset=utf-8').send(body);
