/**
 * Reading posted forms. Its own module so the page routes (claim, mail links, sign-in) share it
 * without importing the console's composition root (routes.ts), which imports them.
 */

/** Form fields as strings; a repeated or structured field is treated as absent. */
export function formFields(body: unknown): Record<string, string | undefined> {
  if (!body || typeof body !== 'object') return {};
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [
      key,
      typeof value === 'string' ? value : undefined,
    ]),
  );
}
