/**
 * Progressive enhancement of the dashboard and session pages (served from 'self'; the pages work
 * without it, less the live parts):
 * - subscribes to the account's GraphQL `accountEvents` over SSE (EventSource, GET /graphql with
 *   the console's session cookie: a read-only principal) and, on each event, re-reads this very
 *   page and swaps in its `#live` region, so the server renders sessions and codes one way only;
 * - counts each session's expiry down every second, and re-reads the page when one runs out;
 * - shows the "Copy" buttons of the examples.
 */
const live = document.getElementById('live');
const status = document.getElementById('live-status');

const subscription = 'subscription Dashboard { accountEvents { type sessionId at } }';

let timer = null;
let reading = false;
let again = false;

async function refresh() {
  if (reading) {
    again = true;
    return;
  }
  reading = true;
  try {
    const response = await fetch(window.location.href, {
      credentials: 'same-origin',
      headers: { accept: 'text/html' },
    });
    if (response.ok) {
      const page = new DOMParser().parseFromString(await response.text(), 'text/html');
      const fresh = page.getElementById('live');
      if (fresh) live.replaceChildren(...fresh.childNodes);
      enhance();
    }
  } finally {
    reading = false;
    if (again) {
      again = false;
      void refresh();
    }
  }
}

/** Several events at once (a code and the session's change) cost one re-read. */
function soon() {
  if (timer) return;
  timer = setTimeout(() => {
    timer = null;
    void refresh();
  }, 50);
}

function countdown() {
  const now = Date.now();
  for (const element of document.querySelectorAll('[data-expires]')) {
    const seconds = Math.max(0, Math.floor((Date.parse(element.dataset.expires) - now) / 1000));
    if (seconds === 0) {
      if (element.textContent !== 'expired') {
        element.textContent = 'expired';
        soon();
      }
      continue;
    }
    const minutes = Math.floor(seconds / 60);
    element.textContent = minutes ? `${minutes} min ${seconds % 60} s` : `${seconds} s`;
  }
}

function enhance() {
  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.hidden = false;
    button.onclick = async () => {
      const source = document.getElementById(button.dataset.copy);
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = 'Copied';
    };
  }
  countdown();
}

if (live && 'EventSource' in window) {
  const url = `${live.dataset.events}?query=${encodeURIComponent(subscription)}`;
  const source = new EventSource(url);
  source.addEventListener('open', () => {
    status.textContent = 'Live: new sessions and codes appear here as they arrive.';
    // Anything that happened while (re)connecting.
    soon();
  });
  source.addEventListener('next', soon);
  source.addEventListener('complete', () => {
    // The server ended the stream (signed out, or the session expired): stop.
    source.close();
    status.textContent = 'Live updates stopped. Reload the page to resume.';
  });
  source.addEventListener('error', () => {
    if (source.readyState !== EventSource.CLOSED) status.textContent = 'Reconnecting…';
  });
  setInterval(countdown, 1000);
}
enhance();
