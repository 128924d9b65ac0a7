// The layers of ARCHITECTURE.md ("The shape"), enforced: `npx depcruise` runs in npm test
// (test/unit/layers.test.ts). Each rule names what may not depend on what, and why.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A cycle makes two modules one; split out what both need.',
      from: { path: '^(shared|functions|infra)/' },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'domain-not-http',
      severity: 'error',
      comment: 'Use cases know nothing of HTTP: handlers call them, not the other way round.',
      from: { path: '^shared/domain/' },
      to: { path: '^(shared/http|functions|infra)/' },
    },
    {
      name: 'domain-not-adapters',
      severity: 'error',
      comment: 'Use cases get their adapters as ports (shared/domain/ports/), never by import.',
      from: { path: '^shared/domain/' },
      to: { path: '^shared/adapters/' },
    },
    {
      name: 'adapters-not-http',
      severity: 'error',
      comment: 'Adapters speak to stores and services, not to HTTP requests.',
      from: { path: '^shared/adapters/' },
      to: { path: '^(shared/http|functions)/' },
    },
    {
      name: 'pdf-stands-alone',
      severity: 'error',
      comment:
        'shared/pdf draws and seals PDFs from plain data, with no part of the service in it but the message catalogs (shared/i18n, which stands alone) its evidence pages are written with, and the types of the validation-data port it fills (types only, checked in test/unit/layers.test.ts).',
      from: { path: '^shared/pdf/' },
      to: {
        path: '^(shared/(domain|adapters|http|schemas)|functions|infra)/',
        pathNot: '^shared/domain/ports/',
      },
    },
    {
      name: 'schemas-stand-alone',
      severity: 'error',
      comment:
        'shared/schemas declares the wire format with zod alone (and the languages the service speaks, from shared/i18n, which stands alone too); the domain builds on it, so it may not build on the domain.',
      from: { path: '^shared/schemas/' },
      to: { path: '^(shared|functions|infra)/', pathNot: '^shared/(schemas|i18n)/' },
    },
    {
      name: 'responses-map-domain',
      severity: 'error',
      comment:
        'A response mapper turns domain objects into wire JSON: it reads the domain and the schemas, nothing else.',
      from: { path: '^shared/responses/' },
      to: { path: '^(shared|functions|infra)/', pathNot: '^shared/(domain|schemas|responses)/' },
    },
    {
      name: 'responses-at-the-edge',
      severity: 'error',
      comment:
        'Only the functions answer HTTP, so only they map to wire JSON; the rest of shared/ never needs a mapper.',
      from: { path: '^shared/', pathNot: '^shared/responses/' },
      to: { path: '^shared/responses/' },
    },
    {
      name: 'i18n-stands-alone',
      severity: 'error',
      comment:
        'shared/i18n is catalogs and language rules: anything may ask it, it asks nothing of the service.',
      from: { path: '^shared/i18n/' },
      to: { path: '^(shared/(domain|adapters|http|schemas|pdf)|functions|infra)/' },
    },
    {
      name: 'text-stands-alone',
      severity: 'error',
      comment:
        'shared/text holds the rules the signing page runs as they are (served to the browser unbundled): plain JavaScript that imports nothing.',
      from: { path: '^shared/text/' },
      to: { path: '.' },
    },
    {
      name: 'mcp-only-the-api',
      severity: 'error',
      comment:
        'The MCP server reaches the service through its public REST API only, as any client: no domain, table, adapter or HTTP internals.',
      from: { path: '^shared/mcp/' },
      to: { path: '^(shared/(?!mcp/)|functions|infra)' },
    },
    {
      name: 'shared-not-functions',
      severity: 'error',
      comment: 'Functions and infra build on shared code, never the reverse.',
      from: { path: '^shared/' },
      to: { path: '^(functions|infra)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|cdk\\.out|\\.data|test|bench)/' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};
