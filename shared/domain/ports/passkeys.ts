// The console users' passkeys and the WebAuthn challenges handed out for them.
import type { TPasskey, TPasskeyChallenge } from '../console/passkey';

export interface TPasskeyStore {
  saveChallenge(challenge: TPasskeyChallenge): Promise<void>;
  /**
   * Removes the challenge in one conditional write that holds only while it is there and not
   * expired at `now`: the challenge as it was, or undefined for any other request (one winner).
   */
  spendChallenge(hash: string, now: Date): Promise<TPasskeyChallenge | undefined>;
  /** Adds the passkey unless that credential is registered already: whether it was added. */
  addPasskey(passkey: TPasskey): Promise<boolean>;
  getPasskey(id: string): Promise<TPasskey | undefined>;
  /** The user's passkeys, newest first. */
  listPasskeys(accountId: string, userId: string): Promise<TPasskey[]>;
  /** Removes the passkey if it is this user's: whether it was. */
  removePasskey(accountId: string, userId: string, id: string): Promise<boolean>;
  /**
   * Moves the counter from `from` to `to` and notes the use, in one conditional write that holds
   * only while the counter is still `from`: false when another sign-in got there first.
   */
  recordUse(id: string, from: number, to: number, at: string): Promise<boolean>;
}
