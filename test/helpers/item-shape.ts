// The shape of a stored item: every attribute path with the kinds of value found there
// (`packets[].fields[].kind: string`), sorted. Two items have the same shape when their lists are
// equal, whatever their values; a list that is a subset of another fits inside it.
export function shapeOf(value: unknown): string[] {
  const found = new Map<string, Set<string>>();
  const walk = (v: unknown, path: string) => {
    if (Array.isArray(v)) {
      note(path, 'array');
      for (const element of v) walk(element, `${path}[]`);
    } else if (v !== null && typeof v === 'object') {
      note(path, 'object');
      for (const [name, child] of Object.entries(v)) {
        if (child !== undefined) walk(child, path ? `${path}.${name}` : name);
      }
    } else note(path, v === null ? 'null' : typeof v);
  };
  const note = (path: string, kind: string) => {
    if (!found.has(path)) found.set(path, new Set());
    found.get(path)!.add(kind);
  };
  walk(value, '');
  found.delete('');
  return [...found].map(([path, kinds]) => `${path}: ${[...kinds].sort().join(' | ')}`).sort();
}

/** What `after` has that `before` has not, and the reverse, as `+ path` and `- path` lines. */
export function shapeChanges(before: readonly string[], after: readonly string[]): string[] {
  const was = new Set(before);
  const is = new Set(after);
  return [
    ...after.filter((p) => !was.has(p)).map((p) => `+ ${p}`),
    ...before.filter((p) => !is.has(p)).map((p) => `- ${p}`),
  ];
}
