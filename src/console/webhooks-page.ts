/**
 * The console's webhooks page (`{console_url}/webhooks`): an input labelled `Endpoint URL` and a
 * button `Add endpoint`; the signing secret shown once, on the page that answers the creation;
 * per endpoint its state (active, failing, disabled after 5 days of failures), a `Send test event`
 * button, and its recent deliveries with their status. Every form carries the CSRF token.
 */
import type { DeliveryView, EndpointView } from '../domain/webhooks/endpoints.ts';
import { webhookEventTypes } from '../domain/webhooks/events.ts';
import { html } from './html.ts';
import { alertBox, layout, type PageChrome } from './layout.ts';

export interface WebhooksPage {
  chrome: PageChrome;
  csrf: string;
  endpoints: { endpoint: EndpointView; deliveries: DeliveryView[] }[];
  /** The endpoint just created and its secret: shown this once. */
  created?: { url: string; secret: string };
  notice?: string;
  error?: string;
}

const when = (date: Date | null | undefined) =>
  date ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : '—';

function state(endpoint: EndpointView) {
  if (endpoint.disabled_at) {
    return html`<strong class="error">Disabled</strong> since ${when(endpoint.disabled_at)}
      after 5 days of failed deliveries; nothing is sent. Re-send a delivery once the receiver works
      again to enable it.`;
  }
  if (endpoint.failing_since) {
    return html`<strong>Failing</strong> since ${when(endpoint.failing_since)}; retries continue.`;
  }
  return html`Active`;
}

function endpointSection(
  prefix: string,
  csrf: string,
  { endpoint, deliveries }: WebhooksPage['endpoints'][number],
) {
  const rows = deliveries.map(
    (d) => html`<tr>
      <td><code>${d.id}</code></td>
      <td>${d.event_type}</td>
      <td>${d.status}</td>
      <td>${String(d.attempts)}</td>
      <td>${d.last_status_code === null ? (d.last_error ?? '—') : String(d.last_status_code)}</td>
      <td>${when(d.created_at)}</td>
      <td>${d.status === 'pending' ? when(d.next_attempt_at) : '—'}</td>
    </tr>`,
  );
  return html`<section class="endpoint" aria-label="Endpoint ${endpoint.url}">
    <h3><code>${endpoint.url}</code></h3>
    <p>State: ${state(endpoint)}</p>
    <p>Events: ${endpoint.events ? endpoint.events.join(', ') : 'all'}</p>
    <form method="post" action="${prefix}/webhooks/${endpoint.id}/test" class="inline">
      <input type="hidden" name="_csrf" value="${csrf}">
      <button type="submit">Send test event</button>
    </form>
    <form method="post" action="${prefix}/webhooks/${endpoint.id}/delete" class="inline">
      <input type="hidden" name="_csrf" value="${csrf}">
      <button type="submit" class="secondary" aria-label="Delete endpoint ${endpoint.url}">Delete</button>
    </form>
    <h4>Recent deliveries</h4>
    ${
      deliveries.length
        ? html`<table>
          <thead><tr><th>Delivery (webhook-id)</th><th>Event</th><th>Status</th><th>Attempts</th>
            <th>Last answer</th><th>Created</th><th>Next attempt</th></tr></thead>
          <tbody>${rows}</tbody>
        </table>`
        : html`<p>No deliveries yet.</p>`
    }
  </section>`;
}

export function webhooksPage(page: WebhooksPage): string {
  const { prefix } = page.chrome;
  return layout(
    'Webhooks',
    page.chrome,
    html`<h1>Webhooks</h1>
    ${alertBox(page.error)}
    ${page.notice ? html`<p role="status">${page.notice}</p>` : ''}
    ${
      page.created
        ? html`<div role="status" class="success">
        <p>Endpoint <code>${page.created.url}</code> added. Its signing secret, shown only now:</p>
        <p><code id="new-secret">${page.created.secret}</code></p>
      </div>`
        : ''
    }
    <p>Events are POSTed as <a href="https://www.standardwebhooks.com/">Standard Webhooks</a>:
      verify the <code>webhook-signature</code> header with the endpoint's secret.</p>
    <h2>Add an endpoint</h2>
    <form method="post" action="${prefix}/webhooks" class="stack">
      <input type="hidden" name="_csrf" value="${page.csrf}">
      <label for="url">Endpoint URL</label>
      <input id="url" name="url" type="url" required maxlength="2048" placeholder="https://">
      <fieldset>
        <legend>Events (none chosen: all)</legend>
        ${webhookEventTypes.map(
          (type) =>
            html`<label><input type="checkbox" name="events" value="${type}"> ${type}</label><br>`,
        )}
      </fieldset>
      <button type="submit">Add endpoint</button>
    </form>
    <h2>Endpoints</h2>
    ${
      page.endpoints.length
        ? page.endpoints.map((e) => endpointSection(prefix, page.csrf, e))
        : html`<p>No endpoints yet.</p>`
    }
    <p><a href="${prefix}/">Back to the dashboard</a></p>`,
  );
}
