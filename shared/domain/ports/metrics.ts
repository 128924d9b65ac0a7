// The service's metrics: the one list of their names (CloudWatch namespace OpenEsign, each with
// the stage and service as dimensions; README "Operating" says where to see them).

/** Things that happen, counted. */
export type TCountMetric =
  /** An API or page request answered, by `route` (`POST /bundles`, or `unmatched`). */
  | 'ApiRequests'
  /** An answer of 500 or more, by `route`. */
  | 'ApiErrors'
  /** A bundle sent to its signers (made and sent at once, or a draft sent). */
  | 'BundlesSent'
  /** A bundle whose every signer has finished. */
  | 'BundlesCompleted'
  /** A run of a document job (final files, interim files), by `outcome`: done, waiting, retry, failed. */
  | 'DocumentJobAttempts'
  /** A call of a webhook receiver, by `outcome`: delivered or failed. */
  | 'WebhookDeliveries'
  /** A message to a person (email or text) handed to SES or SNS. */
  | 'NotificationsSent'
  /** A notification job that failed, to be tried again or given up. */
  | 'NotificationFailures'
  /** A bulk send chunk that failed, to be run again. */
  | 'BulkChunkFailures';

/** How long things take, in milliseconds. */
export type TDurationMetric =
  /** From the request reaching the function to its answer, by `route`. */
  | 'ApiLatency'
  /** A final-files job that finished: stamping, sealing and storing a bundle's evidence. */
  | 'SealTime'
  /** A webhook receiver's answer, from the call to its status (or the timeout). */
  | 'WebhookLatency';

export type TMetricDimensions = Readonly<Record<string, string>>;

export interface TMetrics {
  /** Adds `value` (1 by default) to a count. */
  count(name: TCountMetric, by?: TMetricDimensions, value?: number): void;
  /** Records one duration. */
  duration(name: TDurationMetric, ms: number, by?: TMetricDimensions): void;
}
