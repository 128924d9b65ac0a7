/**
 * `map` with `key` set to `value` as its newest entry, its oldest dropped past `max`: what a
 * function instance keeps of items that never change, within a bound of its memory.
 */
export function remember<T>(map: Map<string, T>, key: string, value: T, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value!);
}
