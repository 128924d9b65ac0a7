// Signing in person (deliver_via kiosk): the sender opens a kiosk link on their own device and
// hands it to the signer. Who hosted and on which device is evidence; the session the link opens
// ends as soon as the signer finishes or declines, so the next person holding the device cannot
// go back into it.

/** The host of an in-person signing, as the sender's API call named them. */
export interface TKioskHost {
  name: string;
  email?: string;
  /** The sender's label of the device ("Front desk tablet"). */
  device?: string;
  /** The API key (and its user) that made the kiosk link. */
  keyId: string;
  userId?: string;
  /** When the link was made. */
  madeAt: string;
}

/** What the signer's record keeps of an in-person signing: the host and the device that opened it. */
export interface TInPerson extends TKioskHost {
  startedAt: string;
  /** The address and browser of the device the link was opened on. */
  ip: string;
  userAgent: string;
}

/** `Jane Host (jane@example.com)`, or the name alone. */
export const hostLabel = (host: Pick<TKioskHost, 'name' | 'email'>) =>
  host.email ? `${host.name} (${host.email})` : host.name;

/** The device as evidence names it: the sender's label, else the browser that opened the link. */
export const deviceLabel = (p: Pick<TInPerson, 'device' | 'userAgent'>) => p.device ?? p.userAgent;
