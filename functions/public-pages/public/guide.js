// @ts-check
// The order "Next field" visits the signer's fields in: what they must still fill comes before
// what they may fill, so an optional checkbox early in a document never stands between the
// signer and a required date further on. Fields are in document order (page, then as placed).

/**
 * The field to go to after `current` (undefined before the first step): the next unfilled
 * required field, from just after `current` round to the start; else the next unfilled optional
 * one the same way that the signer has not been to yet (`seen`, with `current` counted in); else
 * none, and the page goes to finishing.
 * A required field left unfilled is offered again even when it is the current one: the signer
 * cannot finish without it. An optional one is offered once: passing over it means leaving it
 * empty, and the guide must lead on to finishing rather than round the optional fields forever.
 */
export function nextField(fields, current, filled, seen = new Set()) {
  const from = current ? fields.indexOf(current) + 1 : 0;
  const round = [...fields.slice(from), ...fields.slice(0, from)];
  return (
    round.find((m) => m.f.required && !filled(m)) ??
    round.find((m) => m !== current && !seen.has(m) && !filled(m))
  );
}

/**
 * The field before `current` in document order, for "Previous field"; none before the first step
 * or at the first field (going back stops there rather than wrapping round to the last page).
 */
export function previousField(fields, current) {
  const at = current ? fields.indexOf(current) : -1;
  return at > 0 ? fields[at - 1] : undefined;
}
