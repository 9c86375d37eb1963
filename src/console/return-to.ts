/**
 * Where to go after signing in. Only a path inside the console is accepted: an absolute URL,
 * a protocol-relative `//host` or a backslash trick would make the console an open redirect.
 */
export function safeReturnTo(prefix: string, candidate: unknown): string {
  const fallback = `${prefix}/`;
  if (typeof candidate !== 'string' || candidate.length > 2000) return fallback;
  if (!candidate.startsWith(`${prefix}/`) && candidate !== prefix) return fallback;
  if (candidate.startsWith('//') || /[\\\s]/.test(candidate)) return fallback;
  return candidate;
}
