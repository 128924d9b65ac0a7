import * as z from 'zod';
import { optional, zText } from './common';

/**
 * The body of POST /packets/{id}/kiosk_url/ (this service's own; all optional): who hosts the
 * in-person signing and on which device, recorded as evidence. Without a host name the bundle's
 * requester is the host; without a device label the evidence names the browser that opened it.
 */
export const ZKioskUrlRequestSchema = z.object({
  host_name: optional(zText(255).trim().min(1, 'This field may not be blank.')),
  host_email: optional(z.email('Enter a valid email address.').max(254)),
  device: optional(zText(100).trim().min(1, 'This field may not be blank.')),
});

export type TKioskUrlRequest = z.output<typeof ZKioskUrlRequestSchema>;
