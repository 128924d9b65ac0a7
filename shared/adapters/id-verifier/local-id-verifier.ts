import { randomUUID } from 'node:crypto';
import type { TIdVerifier } from '#shared/domain/ports/signing';

/**
 * The ID verification provider of the local runtime and of deployments without one: it checks
 * nothing and says so ("collected"): the images are kept as evidence for a person to review.
 * A real provider (document and liveness checks) plugs in behind the same port.
 */
export function createLocalIdVerifier(): TIdVerifier {
  return {
    async verify() {
      return { status: 'collected', provider: 'none (images collected for review)', reference: randomUUID() };
    },
  };
}
