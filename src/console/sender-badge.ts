/**
 * The sender of an email as the console shows it beside each message (issue 21): the From
 * address, and a badge saying whether it is authenticated (DMARC pass) with the SPF, DKIM and
 * DMARC words in its title. Kept in its own file so every page that lists messages (the dashboard's
 * live verdicts among them) renders the sender the same way. The address is the sender's own
 * text: escaped by `html` like every other value.
 */
import type { SenderAuthentication } from '../entities/inbound-message.ts';
import { html, type SafeHtml } from './html.ts';

export function senderBadge(sender: SenderAuthentication | null): SafeHtml {
  if (!sender) return html`<span class="sender">SMS</span>`;
  const results = `SPF ${sender.spf}, DKIM ${sender.dkim}, DMARC ${sender.dmarc}`;
  const label = sender.authenticated ? 'Authenticated' : 'Not authenticated';
  return html`<span class="sender">${sender.address ?? '(no From address)'}
    <span class="badge ${sender.authenticated ? 'badge-ok' : 'badge-warn'}" title="${results}"
      aria-label="${label}: ${results}">${label}</span></span>`;
}
