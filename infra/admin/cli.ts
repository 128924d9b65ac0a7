// The command line of `npm run admin`: which commands and flags exist, and checking them before
// anything is opened, so that a typo costs nothing and never half-runs a command. Kept free of
// SDK imports so that --help and usage errors answer at once.
import { parseArgs } from 'node:util';
import { FEATURE_NAMES, type TFeatureName } from '#shared/schemas/vocabulary';

/** The command line cannot be understood: exit code 2, with a pointer to --help. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** parseArgs' messages, shortened to what an operator needs. */
function parseArgsMessage(err: NodeJS.ErrnoException): string {
  const flag = /'(-[^']*)'/.exec(err.message)?.[1];
  if (flag && err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `Unknown flag ${flag}.`;
  if (flag && err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return err.message.includes('ambiguous') || err.message.includes('argument missing')
      ? `${flag} needs a value.`
      : `${flag} takes no value.`;
  }
  return err.message;
}

type TFlagType = 'string' | 'boolean';

interface TCommandSpec {
  /** The flags as the usage text shows them. */
  synopsis: string;
  summary: string;
  flags: Record<string, TFlagType>;
  required: string[];
  /** On AWS these commands change API Gateway too, so they need the usage plan. */
  usagePlan?: boolean;
  /** On AWS these commands call Stripe, so they need the secret with its keys. */
  stripeSecret?: boolean;
  /** On AWS these commands use the seal's KMS key and chain, so they need the seal's name. */
  sealName?: boolean;
  /** On AWS these commands make or destroy KMS keys beside the documents key, so they need its name. */
  documentsName?: boolean;
  /** On AWS these commands seal or open secrets with the secrets key, so they need its id. */
  secretsKey?: boolean;
  /** On AWS these commands read, write or delete documents, so they need the documents bucket's name. */
  bucket?: boolean;
  /** Input fields whose flag is not simply their kebab-case name (for validation messages). */
  fields?: Record<string, string>;
}

/** `signing_brands` → `--signing-brands`. */
const FEATURE_FLAGS = Object.fromEntries(FEATURE_NAMES.map((f) => [f.replaceAll('_', '-'), f])) as Record<
  string,
  TFeatureName
>;

export const COMMANDS = {
  'create-account': {
    synopsis: '--name N --email E [--requester-name R]',
    summary: "Create an account (E is the requester email bundles default to); prints the account's id.",
    flags: { name: 'string', email: 'string', 'requester-name': 'string' },
    required: ['name', 'email'],
    fields: { requesterEmail: 'email' },
  },
  'add-user': {
    synopsis: '--account A --name N --email E [--admin] [--teams "T1,T2"]',
    summary:
      "Add a user (also listed among the account's persons), in the teams given; prints the user's id.",
    flags: { account: 'string', name: 'string', email: 'string', admin: 'boolean', teams: 'string' },
    required: ['account', 'name', 'email'],
    fields: { isAdmin: 'admin' },
  },
  'index-user-emails': {
    synopsis: '[--account A]',
    summary:
      "Let the users of an account (without --account: of every account) sign in to the console: adds the lookup by email address that users added before the console lack. Safe to run again; prints each account's id and user count.",
    flags: { account: 'string' },
    required: [],
  },
  migrate: {
    synopsis: '',
    summary:
      'After a deploy: give the items earlier versions stored what reading them cannot (such as the list keys of envelope templates disabled before they had any, which an export needs). Reads the whole table a page at a time; safe beside the running service and to run again. Prints, for each upgrade, the items it found and upgraded.',
    flags: {},
    required: [],
  },
  'set-user-teams': {
    synopsis: '--account A --user U --teams "T1,T2"',
    summary:
      'Put a user in these teams, replacing its others ("" takes it out of all); with teams on, members use their teams\' templates. Prints them.',
    flags: { account: 'string', user: 'string', teams: 'string' },
    required: ['account', 'user', 'teams'],
  },
  'create-key': {
    synopsis: '--account A --user U [--name N]',
    summary: 'Issue an API key for a user; prints the key alone on stdout, its key id on stderr.',
    flags: { account: 'string', user: 'string', name: 'string' },
    required: ['account', 'user'],
    usagePlan: true,
  },
  'revoke-key': {
    synopsis: '--account A --key-id K',
    summary: 'Revoke an API key (on AWS also deletes it from API Gateway).',
    flags: { account: 'string', 'key-id': 'string' },
    required: ['account', 'key-id'],
    usagePlan: true,
  },
  'set-features': {
    synopsis: '--account A [--FEATURE on|off]...',
    summary: `Turn features on or off; prints all of them. FEATURE: ${Object.keys(FEATURE_FLAGS).join(', ')}.`,
    flags: { account: 'string', ...Object.fromEntries(Object.keys(FEATURE_FLAGS).map((f) => [f, 'string'])) },
    required: ['account'],
  },
  'add-team': {
    synopsis: '--account A --name N [--requester-name R] [--requester-email E]',
    summary: "Add a team (R and E override the account's requester defaults); prints its id.",
    flags: { account: 'string', name: 'string', 'requester-name': 'string', 'requester-email': 'string' },
    required: ['account', 'name'],
  },
  'add-brand': {
    synopsis: '--account A --name N [--redirect-url U] [--primary-color #rrggbb] [--logo-url https://…]',
    summary:
      'Add a signing brand (name, redirect after signing, color and logo of the signing pages); prints its id.',
    flags: {
      account: 'string',
      name: 'string',
      'redirect-url': 'string',
      'primary-color': 'string',
      'logo-url': 'string',
    },
    required: ['account', 'name'],
  },
  'set-image-page-size': {
    synopsis: '--account A --size letter|a4',
    summary: 'Set the paper JPEG and PNG documents are put on (default letter); prints it.',
    flags: { account: 'string', size: 'string' },
    required: ['account', 'size'],
  },
  'set-signing-redirect': {
    synopsis: '--account A --url https://app.example.com/signed',
    summary:
      'Set where signers go after signing when neither packet nor brand says ("" removes it); prints it.',
    flags: { account: 'string', url: 'string' },
    required: ['account', 'url'],
  },
  'set-language': {
    synopsis: '--account A --language fr',
    summary:
      'Set the language the account\'s signers read when neither packet nor bundle names one ("" removes it); prints it.',
    flags: { account: 'string', language: 'string' },
    required: ['account', 'language'],
  },
  'set-payout': {
    synopsis: '--account A --connected-account acct_… --currency usd',
    summary:
      "Set the account's payout settings (the Stripe connected account paid by signers, the currency of bundle payments); prints them.",
    flags: { account: 'string', 'connected-account': 'string', currency: 'string' },
    required: ['account', 'connected-account', 'currency'],
  },
  'clear-payout': {
    synopsis: '--account A',
    summary:
      "Remove the account's payout settings: new bundles with a payment are refused (existing ones keep theirs).",
    flags: { account: 'string' },
    required: ['account'],
  },
  'refund-payment': {
    synopsis: '--account A --bundle B',
    summary:
      "Refund a bundle's paid payment in full (Stripe also takes the transfer back from the connected account); prints the payment's status. Running it again refunds nothing more.",
    flags: { account: 'string', bundle: 'string' },
    required: ['account', 'bundle'],
    stripeSecret: true,
  },
  'set-retention': {
    synopsis: '--account A [--originals-days N] [--finals-days N] [--images-days N]',
    summary:
      "Set how many days after a bundle ends its originals and interim files, its final documents and certificates, and its signers' images are kept; a part left out is kept for ever, and no flag at all removes the policy. Bundles made from now on carry it; prints it.",
    flags: {
      account: 'string',
      'originals-days': 'string',
      'finals-days': 'string',
      'images-days': 'string',
    },
    required: ['account'],
  },
  'legal-hold': {
    synopsis: '--account A --bundle B',
    summary:
      "Put a bundle under legal hold: the retention policy deletes nothing of it until the hold is released. Recorded in the bundle's audit trail; prints the bundle's retention.",
    flags: { account: 'string', bundle: 'string' },
    required: ['account', 'bundle'],
  },
  'release-legal-hold': {
    synopsis: '--account A --bundle B',
    summary:
      "Release a bundle's legal hold: the retention policy deletes what is due at the scheduler's next run. Recorded in the audit trail; prints the bundle's retention.",
    flags: { account: 'string', bundle: 'string' },
    required: ['account', 'bundle'],
  },
  'run-retention': {
    synopsis: '--account A',
    summary:
      "Delete now what the account's retention policy has made due, as the scheduler's next run would: every version of each due part of its ended bundles, and a bulk batch's shared documents once its last bundle's originals are gone. Bundles under legal hold are left alone; prints how many bundles it deleted from.",
    flags: { account: 'string' },
    required: ['account'],
    bucket: true,
  },
  'erase-person': {
    synopsis: '--account A (--email x@example.com | --phone +15550100000)',
    summary:
      "Erase the people the account sends to at that email or phone: their Person records and contact channels go; prints, as JSON with --json, the bundles naming them that the sender must cancel or change, and the ended bundles kept until their retention ends. The account's security log notes the erasure (the address's hash, never the address).",
    flags: { account: 'string', email: 'string', phone: 'string' },
    required: ['account'],
  },
  'account-key-create': {
    synopsis: '--account A',
    summary:
      "Give the account a KMS key of its own: its documents written from now on are encrypted under it (older ones stay under the stack's documents key); prints the key's ARN.",
    flags: { account: 'string' },
    required: ['account'],
    documentsName: true,
  },
  'account-key-destroy': {
    synopsis: '--account A [--days 7..30] [--wait-seconds N]',
    summary:
      "Schedule the deletion of the account's own key (crypto-shredding) after a waiting period of --days (default 30): from now on none of its documents can be read or stored. Refused while a bundle of the account is within retention or under legal hold. First it marks the account, so no new bundle or document is accepted, and waits --wait-seconds (default 300, longer than any function of the stack runs) for requests under way to end; a shorter wait is safe only while the service is stopped.",
    flags: { account: 'string', days: 'string', 'wait-seconds': 'string' },
    required: ['account'],
    documentsName: true,
  },
  'export-account': {
    synopsis: '--account A [--out FILE]',
    summary:
      'Export the account whole (bundles with their files, events and evidence; persons, templates, webhooks, users): builds the archive here, as the document worker does for the API, streaming it into the documents bucket under exports/ a part at a time, and prints its key; with --out also writes it to FILE. Webhook secrets are left out.',
    flags: { account: 'string', out: 'string' },
    required: ['account'],
    bucket: true,
    documentsName: true,
  },
  'import-account': {
    synopsis: '--archive FILE|s3://KEY [--account A]',
    summary:
      "Restore an account's export into this deployment, ids kept. The archive is a file, or an object of this deployment's documents bucket: s3://KEY as export-account prints it, or s3://BUCKET/KEY. It is read as a stream, twice: first every file's SHA-256 is checked against the manifest, and the import is refused before anything is written when an id is already taken by other data, or when --account names another account than the archive's (ids are kept, so an archive restores its own account only); then the files and items are written, passing over what an earlier run restored, so running it again finishes an import that stopped. Prints what it wrote.",
    flags: { archive: 'string', account: 'string' },
    required: ['archive'],
    bucket: true,
    documentsName: true,
  },
  'set-embed-origins': {
    synopsis: '--account A --origins "https://app.example.com,https://b.example.com"',
    summary:
      'Set the origins whose pages may frame embedded signing and template preparation (comma-separated; "" removes them all); prints them.',
    flags: { account: 'string', origins: 'string' },
    required: ['account', 'origins'],
  },
  'set-sso': {
    synopsis:
      '--account A --issuer https://id.example.com --client-id ID --client-secret S --domains "example.com,example.org"',
    summary:
      "Set the account's single sign-on: its OpenID Connect provider (issuer, client id, client secret, kept sealed and never shown again) and the email domains whose addresses sign in there; prints the settings without the secret.",
    flags: {
      account: 'string',
      issuer: 'string',
      'client-id': 'string',
      'client-secret': 'string',
      domains: 'string',
    },
    required: ['account', 'issuer', 'client-id', 'client-secret', 'domains'],
    secretsKey: true,
    fields: { clientId: 'client-id', client_id: 'client-id', client_secret: 'client-secret' },
  },
  'clear-sso': {
    synopsis: '--account A',
    summary:
      "Turn the account's single sign-on off and free its email domains; its users sign in by email link.",
    flags: { account: 'string' },
    required: ['account'],
  },
  'seal-csr': {
    synopsis: '--subject "CN=…, O=…, C=…" [--account A] [--key-spec RSA_3072|ECC_NIST_P256]',
    summary:
      "Print a certificate request (PEM) signed by the seal's KMS key, for a CA to issue the seal certificate; with --account, that account's own seal (its key is made on first use, spec RSA_3072 unless given).",
    flags: { subject: 'string', account: 'string', 'key-spec': 'string' },
    required: ['subject'],
    sealName: true,
  },
  'seal-install-cert': {
    synopsis: '--file chain.pem [--account A]',
    summary:
      "Install the CA's answer as the seal's chain (seal certificate first, then its issuers) once its key is the KMS key's and each certificate is signed by the next; prints it.",
    flags: { file: 'string', account: 'string' },
    required: ['file'],
    sealName: true,
  },
  'seal-show': {
    synopsis: '[--account A]',
    summary:
      "Show the seal: KMS key, algorithm, certificate subject, issuer, validity, SHA-256 fingerprint and chain (with --account, that account's own).",
    flags: { account: 'string' },
    required: [],
    sealName: true,
  },
  'seal-revoke': {
    synopsis: '[--account A]',
    summary:
      "Local runtime only: revoke the seal certificate the local CA issued (with --account, that account's), as a CA would on a compromised key; its OCSP answers and CRL say revoked at once, esign-verify --online shows it, and sealing fails until a new certificate is issued (restart npm start).",
    flags: { account: 'string' },
    required: [],
    sealName: true,
  },
  'list-accounts': {
    synopsis: '',
    summary: 'List all accounts.',
    flags: {},
    required: [],
  },
  'show-account': {
    synopsis: '--account A',
    summary: 'Show an account: features, users, teams, brands and API keys (never their hashes).',
    flags: { account: 'string' },
    required: ['account'],
  },
} satisfies Record<string, TCommandSpec>;

export type TCommandName = keyof typeof COMMANDS;
export type TFlags = Record<string, string | boolean | undefined>;

const GLOBAL_FLAGS = {
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  'data-dir': { type: 'string' },
  aws: { type: 'boolean' },
  table: { type: 'string' },
  'usage-plan': { type: 'string' },
  'stripe-secret': { type: 'string' },
  'seal-name': { type: 'string' },
  'secrets-key': { type: 'string' },
  'documents-name': { type: 'string' },
  bucket: { type: 'string' },
  region: { type: 'string' },
} as const;

const AWS_ONLY = [
  'table',
  'usage-plan',
  'stripe-secret',
  'seal-name',
  'secrets-key',
  'documents-name',
  'bucket',
  'region',
];

export type TTargetChoice =
  | { kind: 'local'; dataDir: string }
  | {
      kind: 'aws';
      tableName: string;
      region: string;
      usagePlanId?: string;
      stripeSecretId?: string;
      sealName?: string;
      secretsKeyId?: string;
      documentsName?: string;
      bucketName?: string;
    };

export type TCommandLine =
  | { help: true; command?: TCommandName }
  | { help: false; command: TCommandName; flags: TFlags; json: boolean; target: TTargetChoice };

const isCommand = (name: string): name is TCommandName => Object.hasOwn(COMMANDS, name);

/** The command named on a command line that may not parse, to point at its --help. */
export const commandIn = (argv: string[]): TCommandName | undefined => argv.find(isCommand);

function spec(name: TCommandName): TCommandSpec {
  return COMMANDS[name];
}

/** The flag an input field came from, for messages: `requesterEmail` → `--requester-email`. */
export function flagOfField(command: TCommandName, field: string): string {
  const named = spec(command).fields?.[field];
  return `--${named ?? field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** set-features' flags as the store wants them; only the ones given. */
export function featuresFrom(flags: TFlags): Partial<Record<TFeatureName, boolean>> {
  const out: Partial<Record<TFeatureName, boolean>> = {};
  for (const [flag, feature] of Object.entries(FEATURE_FLAGS)) {
    const v = flags[flag];
    if (v === undefined) continue;
    if (v !== 'on' && v !== 'off') throw new UsageError(`--${flag} takes on or off, not "${String(v)}".`);
    out[feature] = v === 'on';
  }
  return out;
}

function chooseTarget(values: TFlags, env: NodeJS.ProcessEnv, command: TCommandName): TTargetChoice {
  const str = (name: string) => (typeof values[name] === 'string' ? (values[name] as string) : undefined);
  if (!values.aws) {
    const stray = AWS_ONLY.find((f) => values[f] !== undefined);
    if (stray) throw new UsageError(`--${stray} applies to a deployed stack only: add --aws.`);
    return { kind: 'local', dataDir: str('data-dir') || env.DATA_DIR || '.data' };
  }
  if (values['data-dir'] !== undefined)
    throw new UsageError('--data-dir is for the local data, not with --aws.');
  const tableName = str('table') || env.TABLE_NAME;
  const region = str('region') || env.AWS_REGION || env.AWS_DEFAULT_REGION;
  const usagePlanId = str('usage-plan') || env.USAGE_PLAN_ID;
  if (!tableName) throw new UsageError('--aws needs --table (or TABLE_NAME): the stack output TableName.');
  if (!region) throw new UsageError('--aws needs --region (or AWS_REGION): the stack output Region.');
  if (spec(command).usagePlan && !usagePlanId) {
    throw new UsageError(
      `${command} on AWS needs --usage-plan (or USAGE_PLAN_ID): the stack output UsagePlanId.`,
    );
  }
  const stripeSecretId = str('stripe-secret') || env.STRIPE_SECRET_ID;
  if (spec(command).stripeSecret && !stripeSecretId) {
    throw new UsageError(
      `${command} on AWS needs --stripe-secret (or STRIPE_SECRET_ID): the secret esign-<stage>-stripe-keys.`,
    );
  }
  const sealName = str('seal-name') || env.SEAL_NAME;
  if (spec(command).sealName && !sealName) {
    throw new UsageError(`${command} on AWS needs --seal-name (or SEAL_NAME): the stack output SealName.`);
  }
  const secretsKeyId = str('secrets-key') || env.SECRETS_KEY_ID;
  if (spec(command).secretsKey && !secretsKeyId) {
    throw new UsageError(
      `${command} on AWS needs --secrets-key (or SECRETS_KEY_ID): the stack output SecretsKeyId.`,
    );
  }
  const documentsName = str('documents-name') || env.DOCUMENTS_NAME;
  if (spec(command).documentsName && !documentsName) {
    throw new UsageError(
      `${command} on AWS needs --documents-name (or DOCUMENTS_NAME): the stack output DocumentsName.`,
    );
  }
  const bucketName = str('bucket') || env.BUCKET_NAME;
  if (spec(command).bucket && !bucketName) {
    throw new UsageError(`${command} on AWS needs --bucket (or BUCKET_NAME): the stack output BucketName.`);
  }
  return {
    kind: 'aws',
    tableName,
    region,
    ...(documentsName ? { documentsName } : {}),
    ...(bucketName ? { bucketName } : {}),
    ...(usagePlanId ? { usagePlanId } : {}),
    ...(stripeSecretId ? { stripeSecretId } : {}),
    ...(sealName ? { sealName } : {}),
    ...(secretsKeyId ? { secretsKeyId } : {}),
  };
}

export function parseCommandLine(argv: string[], env: NodeJS.ProcessEnv = process.env): TCommandLine {
  // One pass with every flag of every command, so flags may come before or after the command;
  // then each command accepts only its own.
  const options: Record<string, { type: TFlagType; short?: string }> = { ...GLOBAL_FLAGS };
  for (const s of Object.values(COMMANDS) as TCommandSpec[]) {
    for (const [flag, type] of Object.entries(s.flags)) options[flag] = { type };
  }
  let parsed: { values: TFlags; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError(parseArgsMessage(err as NodeJS.ErrnoException));
  }
  const { values, positionals } = parsed;
  const [name, ...extra] = positionals;

  if (name !== undefined && !isCommand(name)) throw new UsageError(`Unknown command "${name}".`);
  if (values.help) return { help: true, ...(name ? { command: name } : {}) };
  if (name === undefined) throw new UsageError('No command given.');
  if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}".`);

  const s = spec(name);
  const flags: TFlags = {};
  for (const [flag, value] of Object.entries(values)) {
    if (value === undefined || Object.hasOwn(GLOBAL_FLAGS, flag)) continue;
    if (!Object.hasOwn(s.flags, flag)) throw new UsageError(`${name} does not take --${flag}.`);
    flags[flag] = value;
  }
  const missing = s.required.filter((f) => flags[f] === undefined);
  if (missing.length > 0) {
    throw new UsageError(`${name} needs ${missing.map((f) => `--${f}`).join(', ')}.`);
  }
  if (name === 'set-features') featuresFrom(flags);
  const keySpec = flags['key-spec'];
  if (keySpec !== undefined && keySpec !== 'RSA_3072' && keySpec !== 'ECC_NIST_P256') {
    throw new UsageError(`--key-spec takes RSA_3072 or ECC_NIST_P256, not "${String(keySpec)}".`);
  }
  return {
    help: false,
    command: name,
    flags,
    json: values.json === true,
    target: chooseTarget(values, env, name),
  };
}

export function usage(command?: TCommandName): string {
  if (command) {
    const s = spec(command);
    const synopsis = `${command} ${s.synopsis}`.trimEnd();
    return `Usage: npm run admin -- ${synopsis} [--json] [target]\n\n${s.summary}\n(npm run admin -- --help describes the target flags.)\n`;
  }
  const commands = (Object.keys(COMMANDS) as TCommandName[])
    .map((c) => `  ${`${c} ${spec(c).synopsis}`.trimEnd()}\n      ${spec(c).summary}`)
    .join('\n');
  return `Usage: npm run admin -- <command> [flags] [--json] [target]

Manages accounts, users and API keys (API keys are never issued through the public API), and
the seal's certificate (its key stays in KMS).

Commands:
${commands}

Target (default: the local data):
  --data-dir DIR   the local data folder (env DATA_DIR, default .data). While \`npm start\`
                   runs on it, the command goes through that running service.
  --aws --table T --region R [--usage-plan P] [--stripe-secret S] [--seal-name N]
                   a deployed stack, with the AWS SDK's default credentials; T, R and P are
                   the stack outputs TableName, Region and UsagePlanId (env TABLE_NAME,
                   AWS_REGION, USAGE_PLAN_ID). create-key and revoke-key need P.
                   refund-payment needs S, the secret esign-<stage>-stripe-keys (env
                   STRIPE_SECRET_ID). The seal-* commands need N, the stack output SealName
                   (env SEAL_NAME). The account-key-* commands need --documents-name, the
                   stack output DocumentsName (env DOCUMENTS_NAME).

Output:
  Ids and tables for people on stdout, notes on stderr; --json prints JSON on stdout.
  create-key prints the API key alone on stdout (capture it with \`npm run -s admin -- ...\`).

Exit codes: 0 done, 1 failed (for example "Account not found."), 2 bad command line or input.
`;
}
