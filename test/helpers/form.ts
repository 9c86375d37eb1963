/**
 * A minimal cookie-keeping form client for console tests at the HTTP level: it fetches a page,
 * keeps cookies, reads the CSRF token from the form, and posts url-encoded forms.
 */
export class FormClient {
  readonly #cookies = new Map<string, string>();
  readonly baseUrl: string;

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  get cookieHeader() {
    return [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  #keep(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/Expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }

  async get(path: string) {
    const response = await fetch(this.baseUrl + path, {
      headers: { cookie: this.cookieHeader },
      redirect: 'manual',
    });
    this.#keep(response);
    return { response, text: await response.text() };
  }

  async post(path: string, body: string, contentType = 'application/x-www-form-urlencoded') {
    const response = await fetch(this.baseUrl + path, {
      method: 'POST',
      headers: { cookie: this.cookieHeader, 'content-type': contentType },
      body,
      redirect: 'manual',
    });
    this.#keep(response);
    return { response, text: await response.text() };
  }

  /** The CSRF token of the first form on a page. */
  static csrf(page: string): string {
    const match = /name="_csrf" value="([^"]+)"/.exec(page);
    if (!match) throw new Error('no CSRF token on the page');
    return match[1]!;
  }

  async submit(pagePath: string, actionPath: string, fields: Record<string, string>) {
    const { text } = await this.get(pagePath);
    const form = new URLSearchParams({ _csrf: FormClient.csrf(text), ...fields });
    return this.post(actionPath, form.toString());
  }
}
