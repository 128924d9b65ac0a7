/**
 * The API key of an `Authorization` header: `Token <key>` as the REST API takes it, or
 * `Bearer <key>`, which MCP clients send. `missing` when there is no usable header at all
 * (the API's `not_authenticated`), `malformed` for any other scheme (`authentication_failed`).
 */
export function apiKeyOf(header: string | undefined): { key: string } | 'missing' | 'malformed' {
  if (!header || header.trim() === '') return 'missing';
  const match = /^\s*(?:Token|Bearer)\s+(\S+)\s*$/i.exec(header);
  return match ? { key: match[1]! } : 'malformed';
}
