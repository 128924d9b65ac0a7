import type { TPacket } from '../bundles/bundle';

/** A signer as the verification answers and the evidence record name them. */
export const signerSummary = (p: TPacket) => ({
  packet_id: p.id,
  key: p.key,
  name: p.name,
  email: p.email ?? null,
  phone: p.phone ?? null,
  status: p.status,
  completed_at: p.completedAt ?? null,
});
