// The operator's issuer passes the same outbound URL guard as every URL this service calls:
// in production https on port 443 and a public address only (no private, loopback or
// link-local host such as the cloud's metadata service).
import { ValidationError } from '#shared/domain/errors';
import type { TIssuerGuard } from '#shared/domain/ports/sso';
import { createUrlGuard, UrlRefusal } from '../fetch/safe-fetch';
import type { TOidcRules } from './oidc-client';

export function createIssuerGuard(rules: TOidcRules): TIssuerGuard {
  const guard = createUrlGuard(rules);
  return {
    async check(issuer) {
      try {
        await guard.check(new URL(issuer), AbortSignal.timeout(10_000));
      } catch (err) {
        if (!(err instanceof UrlRefusal)) throw err;
        throw new ValidationError(`The issuer cannot be used: ${err.problem}.`, [
          { field: 'issuer', message: `The issuer cannot be used: ${err.problem}.` },
        ]);
      }
    },
  };
}
