// The layers of ARCHITECTURE.md ("The shape"), enforced: `npx depcruise` runs in npm test
// (test/unit/layers.test.ts). Each rule names what may not depend on what, and why.
//
// Rules whose name ends in `-types-only` have severity `info`: dependency-cruiser's swc parser
// cannot tell `import type` from an import of code, so they list every import across the line,
// and test/unit/layers.test.ts fails on any of them that brings code (read off the source).

/**
 * The areas of the domain and the other areas each may use (besides the domain's own root files,
 * errors, paging, ids and the like, and its ports). The graph as it is, written down: a new edge
 * between areas is a decision, made here with its reason. `bundles` is the aggregate most areas
 * build on; the two-way pairs (bundles with persons, signing, evidence, templates,
 * envelope-templates and outbox) are between different files, never a cycle of modules.
 */
const DOMAIN_AREAS = {
  accounts: {
    may: [],
    why: 'Accounts, users, teams, brands and API keys are the tenant everything else belongs to; they need no other area.',
  },
  persons: {
    may: ['bundles', 'accounts', 'console'],
    why: "A person changed or deleted is followed into the bundles that name it (follow-person, a bundle still out); an erasure is asked for by the account's admins and written to its security log.",
  },
  bundles: {
    may: [
      'accounts',
      'persons',
      'templates',
      'envelope-templates',
      'signing',
      'evidence',
      'outbox',
      'scheduler',
    ],
    why: "The bundle aggregate: creating one reads the account's settings, persons and templates; its data and files read the signers' records and the evidence keys; every write appends its outbox entries and notes when the scheduler next has work for it.",
  },
  signing: {
    may: ['accounts', 'bundles', 'evidence', 'notifications'],
    why: "A signer's session works on a bundle's packet with the account's brand, offers the copies of the finished documents (evidence) and sends SMS codes to a phone in the notifications' format.",
  },
  evidence: {
    may: ['bundles', 'signing', 'outbox'],
    why: "Sealed files, certificates and the audit trail are drawn from the bundle, its events and the signers' records, and answer the document jobs of the outbox.",
  },
  notifications: {
    may: ['accounts', 'bundles', 'evidence', 'signing', 'outbox'],
    why: "Messages are planned from bundle events (outbox) in the account's language and carry signing links and copy links.",
  },
  payments: {
    may: ['bundles'],
    why: 'A payment belongs to a bundle and is recorded as a change of it.',
  },
  scheduler: {
    may: ['bundles'],
    why: 'Reminders and expiry are changes of bundles at their due time.',
  },
  bulk: {
    may: ['bundles', 'outbox', 'webhooks'],
    why: 'A bulk send creates bundles row by row and tells webhooks how each row went (through the outbox).',
  },
  templates: {
    may: ['accounts', 'bundles', 'outbox', 'webhooks'],
    why: "Document templates hold a bundle's documents and fields (built and checked as a bundle's are), honour the account's template access and publish their own webhook events.",
  },
  'envelope-templates': {
    may: ['accounts', 'bundles', 'templates'],
    why: 'An envelope template is made of document templates and starts bundles (portal signing).',
  },
  webhooks: {
    may: ['bundles', 'outbox'],
    why: 'Webhook events are published from bundle writes and delivered as outbox jobs.',
  },
  console: {
    may: ['accounts'],
    why: "Signing in to the console finds an account's users and opens sessions as them; it changes nothing else.",
  },
  users: {
    may: ['accounts', 'console'],
    why: "An admin manages the account's users and teams (accounts), and an accepted invitation opens a console session and every change is a line of the console's security log (console).",
  },
  exports: {
    may: ['accounts', 'bundles', 'evidence'],
    why: "An account's export is started by its admins (accounts), lists what retention deleted of each bundle (bundles) with the hashes the evidence keeps (evidence).",
  },
  outbox: {
    may: ['bundles', 'webhooks'],
    why: "The outbox turns a bundle write's entries into webhook events, messages and document jobs.",
  },
};
const AREA_NAMES = [...Object.keys(DOMAIN_AREAS), 'ports'];

/** Adapters allowed to import code from the domain, each for the reason named in adapters-domain-types-only. */
const ADAPTERS_IMPORTING_DOMAIN_CODE = ['shared/adapters/untrusted/tasks\\.ts'];

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
      name: 'domain-kernel',
      severity: 'error',
      comment:
        "The domain's root files (errors, paging, ids, tokens, parse-input, ...) are what every area builds on: they use the ports' types and no area.",
      from: { path: '^shared/domain/[^/]+$' },
      to: { path: '^shared/domain/[^/]+/', pathNot: '^shared/domain/ports/' },
    },
    ...Object.entries(DOMAIN_AREAS).map(([area, { may, why }]) => ({
      name: `domain-area-${area}`,
      severity: 'error',
      comment: `${area} may use ${may.length ? may.join(', ') : 'no other area'}: ${why}`,
      from: { path: `^shared/domain/${area}/` },
      to: {
        path: '^shared/domain/[^/]+/',
        pathNot: `^shared/domain/(${[area, 'ports', ...may].join('|')})/`,
      },
    })),
    {
      name: 'domain-areas-declared',
      severity: 'error',
      comment:
        'A folder of shared/domain is an area declared in DOMAIN_AREAS (with the areas it may use), or the ports.',
      from: { path: `^shared/domain/(?!(${AREA_NAMES.join('|')})/)[^/]+/` },
      to: { path: '^shared/domain/[^/]+/' },
    },
    {
      name: 'domain-outside',
      severity: 'error',
      comment:
        'Besides itself the domain builds on the wire schemas, the catalogs (shared/i18n), the rules shared with the signing page (shared/text), the random generator, and shared/pdf and shared/verify as the next rules allow: no logger, config or MCP.',
      from: { path: '^shared/domain/' },
      to: {
        path: '^shared/',
        pathNot: '^shared/(domain|schemas|i18n|text|pdf|verify)/|^shared/random\\.ts$',
      },
    },
    {
      name: 'domain-pdf',
      severity: 'error',
      comment:
        "shared/pdf is the evidence's: sealing, certificates, the audit trail and what is stripped from an original. Bundles use it to take documents in (an image's kind, a refused PDF, text tags found); accounts, bulk and the ports name its types only (next rule).",
      from: { path: '^shared/domain/', pathNot: '^shared/domain/(evidence|bundles|accounts|bulk|ports)/' },
      to: { path: '^shared/pdf/' },
    },
    {
      name: 'domain-pdf-types-only',
      severity: 'info',
      comment:
        "Accounts (an image page's size), bulk (a PDF's facts) and the ports name shared/pdf's types, never its code.",
      from: { path: '^shared/domain/(accounts|bulk|ports)/' },
      to: { path: '^shared/pdf/' },
    },
    {
      name: 'domain-verify',
      severity: 'error',
      comment: "Only evidence (and its ports) read the offline verifier's report, to answer /verify.",
      from: { path: '^shared/domain/', pathNot: '^shared/domain/(evidence|ports)/' },
      to: { path: '^shared/verify/' },
    },
    {
      name: 'composition-at-the-edge',
      severity: 'error',
      comment:
        'shared/composition wires adapters to the domain for the functions (function-base.ts); only functions/ and infra/ build on it, never the layers it wires.',
      from: { path: '^shared/', pathNot: '^shared/composition/' },
      to: { path: '^shared/composition/' },
    },
    {
      name: 'adapters-domain-types-only',
      severity: 'info',
      comment:
        "Adapters implement the ports: of the domain they take the ports, the error family they raise (errors.ts) and the page (paging.ts); anything else only as types. Named exceptions (ADAPTERS_IMPORTING_DOMAIN_CODE): untrusted/tasks.ts, by design (the untrusted-files worker runs the domain's text-tag and CSV parsers off the request's thread).",
      from: { path: '^shared/adapters/', pathNot: `^(${ADAPTERS_IMPORTING_DOMAIN_CODE.join('|')})$` },
      to: { path: '^shared/domain/', pathNot: '^shared/domain/(ports/|errors\\.ts$|paging\\.ts$)' },
    },
    {
      name: 'pdf-ports-types-only',
      severity: 'info',
      comment: "shared/pdf fills the validation-data port: it names the port's types, never domain code.",
      from: { path: '^shared/pdf/' },
      to: { path: '^shared/domain/ports/' },
    },
    {
      name: 'ports-types-only',
      severity: 'info',
      comment:
        'A port names types and brings no code with it (the few rules of its contract it states are its own code).',
      from: { path: '^shared/domain/ports/' },
      to: { path: '.', pathNot: '^shared/domain/ports/' },
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
        'shared/schemas declares the wire format with zod alone (and the languages the service speaks, from shared/i18n, and the value rules the signing page shares, from shared/text, both standing alone too); the domain builds on it, so it may not build on the domain.',
      from: { path: '^shared/schemas/' },
      to: { path: '^(shared|functions|infra)/', pathNot: '^shared/(schemas|i18n|text)/' },
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
    // The console's browser code (TSX, which the swc parser here does not read) is bundled on its
    // own; test/unit/console-build.test.ts checks from the bundle what it may import.
    exclude: { path: '^((node_modules|cdk\\.out|\\.data|test|bench)/|functions/console-app/web/)' },
    tsPreCompilationDeps: true,
    parser: 'swc',
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};
