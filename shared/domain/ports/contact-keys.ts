// How the stores compare a person's email and phone (persons found by them, bundle terms, a
// person's channels): part of the persons port's contract, so the stores and the use cases
// share these two rules.

/** Emails compare case-insensitively. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Phones compare by their digits (and a leading +), so "+1 (555) 010-2000" = "+15550102000". */
export function normalizePhone(phone: string): string {
  const trimmed = phone.trim();
  return (trimmed.startsWith('+') ? '+' : '') + trimmed.replace(/\D/g, '');
}
