// Time and ids, passed in so use cases and tests control them.
export interface TClock {
  now(): Date;
}

export interface TIds {
  uuid(): string;
  /** 10 base62 characters, unguessable: bundle and packet ids. */
  slug(): string;
}
