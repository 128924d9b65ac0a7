// A local stand-in of an organisation's OpenID Connect provider, for the console's single
// sign-on: oidc-provider speaking the real protocol (discovery, JWKS, authorization with PKCE,
// token, UserInfo) on a loopback port. Its sign-in page takes any email address, without a
// password, and vouches for it as verified: whether that address may sign in is the service's
// call (a user of the account), as it is with a real provider. Nothing is kept across restarts:
// keys, client secret and sessions are new on every start.
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TOidcStandin {
  /** The issuer, `http://127.0.0.1:<port>`. */
  issuer: string;
  bound: AddressInfo;
  /** Registers the one client (the service) with its redirect URI: a new secret, answered. */
  registerClient(redirectUri: string): Promise<{ clientId: string; clientSecret: string }>;
  stop(): Promise<void>;
}

export const LOCAL_OIDC_CLIENT_ID = 'esign-console-local';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The stand-in's one page: who are you (an email address), sign in or cancel. */
function loginPage(uid: string, hint: string, clientName: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in – local identity provider</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
label,input,button{display:block;font:inherit}input{width:100%;box-sizing:border-box;padding:.5rem;margin:.25rem 0 1rem;border:1px solid #555;border-radius:4px}
button{padding:.5rem 1rem;margin:.5rem 0;border-radius:4px;border:1px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1d4ed8}p.note{color:#444}</style></head>
<body><main>
<h1>Local identity provider</h1>
<p>Sign in to continue to ${escapeHtml(clientName)}.</p>
<form method="post" action="/interaction/${encodeURIComponent(uid)}/login">
<label for="email">Work email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(hint)}">
<button type="submit">Continue</button>
</form>
<form method="post" action="/interaction/${encodeURIComponent(uid)}/abort">
<button type="submit" class="secondary">Cancel</button>
</form>
<p class="note">This is the local stand-in of your organisation's sign-in provider: any address signs in, with no password.</p>
</main></body></html>`;
}

function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 4096) req.destroy(new Error('too large'));
    });
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

type TPayload = Record<string, unknown> & { uid?: string; grantId?: string; userCode?: string };

/**
 * oidc-provider's storage, in memory for one start (what its own quick-start adapter does, made
 * explicit so it does not warn on every start): one map per model, entries expiring on time.
 */
function memoryAdapter() {
  const store = new Map<string, { payload: TPayload; expires: number }>();
  return class MemoryAdapter {
    constructor(readonly name: string) {}
    key = (id: string) => `${this.name}:${id}`;
    async upsert(id: string, payload: TPayload, expiresIn: number) {
      store.set(this.key(id), { payload, expires: Date.now() + expiresIn * 1000 });
    }
    async find(id: string) {
      const hit = store.get(this.key(id));
      if (!hit || hit.expires < Date.now()) return undefined;
      return hit.payload;
    }
    async findByUid(uid: string) {
      for (const [k, v] of store)
        if (k.startsWith(`${this.name}:`) && v.payload.uid === uid) return v.payload;
      return undefined;
    }
    async findByUserCode(code: string) {
      for (const [k, v] of store)
        if (k.startsWith(`${this.name}:`) && v.payload.userCode === code) return v.payload;
      return undefined;
    }
    async consume(id: string) {
      const hit = store.get(this.key(id));
      if (hit) hit.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [k, v] of store) if (v.payload.grantId === grantId) store.delete(k);
    }
  };
}

/** How long each thing of the provider lives, in seconds (set, so it does not warn of defaults). */
const TTL = {
  AccessToken: 600,
  AuthorizationCode: 60,
  IdToken: 600,
  Interaction: 600,
  Grant: 600,
  Session: 3600,
};

export async function startOidcStandin(options: { host: string }): Promise<TOidcStandin> {
  let handle: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => {
    if (handle) return handle(req, res);
    res.writeHead(503, { 'content-type': 'text/plain' }).end('Not ready yet.');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  const issuer = `http://${options.host}:${bound.port}`;

  return {
    issuer,
    bound,
    async registerClient(redirectUri) {
      const { default: Provider } = await import('oidc-provider');
      const clientSecret = randomBytes(32).toString('base64url');
      const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
      const subjects = new Map<string, string>();
      /** A stable subject per address, as a provider's own user id would be. */
      const subjectOf = (email: string) => {
        const sub = createHash('sha256').update(email).digest('hex').slice(0, 24);
        subjects.set(sub, email);
        return sub;
      };
      const provider = new Provider(issuer, {
        adapter: memoryAdapter(),
        ttl: TTL,
        clients: [
          {
            client_id: LOCAL_OIDC_CLIENT_ID,
            client_secret: clientSecret,
            client_name: 'the eSignature console',
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        jwks: { keys: [{ ...jwk, kid: 'local-standin', use: 'sig', alg: 'RS256' }] },
        cookies: { keys: [randomBytes(32).toString('base64url')] },
        claims: { openid: ['sub'], email: ['email', 'email_verified'] },
        // The address goes in the ID token itself, as most providers put it.
        conformIdTokenClaims: false,
        pkce: { required: () => true },
        features: { devInteractions: { enabled: false } },
        interactions: {
          url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
        },
        findAccount: async (_ctx: unknown, sub: string) => {
          const email = subjects.get(sub);
          return email
            ? { accountId: sub, claims: async () => ({ sub, email, email_verified: true }) }
            : undefined;
        },
        // The service is the provider's own client: no consent screen, as an organisation sets it up.
        loadExistingGrant: async (ctx: {
          oidc: {
            client: { clientId: string };
            session: { accountId: string };
            provider: InstanceType<typeof Provider>;
          };
        }) => {
          const grant = new ctx.oidc.provider.Grant({
            clientId: ctx.oidc.client.clientId,
            accountId: ctx.oidc.session.accountId,
          });
          grant.addOIDCScope('openid email');
          await grant.save();
          return grant;
        },
      });
      const callback = provider.callback();
      handle = (req, res) => {
        const m = /^\/interaction\/([\w-]+)(\/login|\/abort)?$/.exec((req.url ?? '').split('?')[0] ?? '');
        if (!m) return callback(req, res);
        interaction(req, res, m[2]).catch(() => {
          if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
          res.end('This sign-in has expired: go back to the console and start again.');
        });
      };
      const interaction = async (req: IncomingMessage, res: ServerResponse, step: string | undefined) => {
        const details = await provider.interactionDetails(req, res);
        if (!step && req.method === 'GET') {
          const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          res.end(loginPage(details.uid, hint, 'the eSignature console'));
          return;
        }
        if (req.method !== 'POST') throw new Error('method');
        if (step === '/abort') {
          await provider.interactionFinished(req, res, {
            error: 'access_denied',
            error_description: 'The sign-in was cancelled.',
          });
          return;
        }
        const email = (await readForm(req)).get('email')?.trim().toLowerCase() ?? '';
        if (!EMAIL.test(email)) {
          res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
          res.end(loginPage(details.uid, '', 'the eSignature console'));
          return;
        }
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: subjectOf(email) } },
          { mergeWithLastSubmission: false },
        );
      };
      return { clientId: LOCAL_OIDC_CLIENT_ID, clientSecret };
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
