/**
 * The house's layering as code (docs/architecture.md draws it): faces import the domain, the domain
 * imports no face, the extractor imports nothing of the service, and nothing imports in a circle.
 * Run by test/architecture/layering.test.ts inside `npm test`, so CI enforces it.
 */
// The faces and composition roots: protocols adapted onto the domain. (src/auth also holds small
// helpers the domain uses — principal, secrets, user codes — so only its protocol modules count.)
const faces = [
  '^src/(app|main)[.]ts$',
  '^src/(rest-compat|schema|console|ops)/',
  '^src/ingest/(sms/|email/|routes[.]ts$)',
  '^src/auth/(index|provider|provider-mount|security-events|[a-z-]+-routes)[.]ts$',
  '^src/auth/grants/',
].join('|');

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle ties modules together so neither can change or load alone.',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'domain-imports-no-face',
      severity: 'error',
      comment:
        'The domain is the hub; the faces (GraphQL, /v1 and MCP, console, ingest routes, auth routes) adapt onto it, never the other way.',
      from: { path: '^src/domain/' },
      to: { path: faces },
    },
    {
      name: 'extractor-is-a-leaf',
      severity: 'error',
      comment:
        'src/extract finds codes and links in text; it imports nothing of the service, so it runs in workers and benches alone.',
      from: { path: '^src/extract/' },
      to: { path: '^src/', pathNot: '^src/extract/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^src/.*[.](css|js)$' },
  },
};
