// API Gateway's side of an API key (on AWS): the usage plan admits and counts only values it
// knows as API keys of the plan, so every issued key is registered with the same value.

export interface TUsageKeyRegistry {
  /** Creates an enabled API key with this value in the usage plan; returns its id. */
  register(secret: string, name: string): Promise<string>;
  /** Deletes the API key; one that is already gone counts as removed. */
  remove(id: string): Promise<void>;
}
