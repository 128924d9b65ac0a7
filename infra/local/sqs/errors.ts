/**
 * SQS errors in the shape the AWS JSON 1.0 protocol uses. `@aws-sdk/client-sqs` runs in
 * "awsQueryCompatible" mode: it reads the legacy query error code from the `x-amzn-query-error`
 * header first and maps it back to the modelled exception (e.g. `AWS.SimpleQueueService.NonExistentQueue`
 * -> `QueueDoesNotExist`), so both the header and `__type` have to be right.
 */
export class SqsError extends Error {
  constructor(
    /** Smithy shape name, used in `__type`. */
    readonly shape: string,
    /** Legacy query-protocol code, sent in `x-amzn-query-error`. */
    readonly queryCode: string,
    message: string,
    readonly status = 400,
    readonly fault: 'Sender' | 'Receiver' = 'Sender',
  ) {
    super(message);
    this.name = shape;
  }

  get type(): string {
    return `com.amazonaws.sqs#${this.shape}`;
  }
}

// Unmodelled errors (InvalidParameterValue, MissingParameter, ...) use the same string for both
// codes; the SDK then surfaces them as a generic SQSServiceException carrying that name.
const plain = (code: string, message: string, status = 400): SqsError =>
  new SqsError(code, code, message, status);

export const errors = {
  queueDoesNotExist: (): SqsError =>
    new SqsError(
      'QueueDoesNotExist',
      'AWS.SimpleQueueService.NonExistentQueue',
      'The specified queue does not exist.',
    ),
  queueNameExists: (detail: string): SqsError =>
    new SqsError('QueueNameExists', 'QueueAlreadyExists', detail),
  receiptHandleIsInvalid: (handle: string): SqsError =>
    new SqsError(
      'ReceiptHandleIsInvalid',
      'ReceiptHandleIsInvalid',
      `The input receipt handle "${handle}" is not a valid receipt handle.`,
    ),
  receiptHandleExpired: (handle: string): SqsError =>
    plain(
      'InvalidParameterValue',
      `Value ${handle} for parameter ReceiptHandle is invalid. Reason: The receipt handle has expired.`,
    ),
  messageNotInflight: (): SqsError =>
    new SqsError(
      'MessageNotInflight',
      'AWS.SimpleQueueService.MessageNotInflight',
      'The specified message is not in flight.',
    ),
  emptyBatch: (): SqsError =>
    new SqsError(
      'EmptyBatchRequest',
      'AWS.SimpleQueueService.EmptyBatchRequest',
      'There should be at least one entry in the request.',
    ),
  tooManyEntries: (count: number): SqsError =>
    new SqsError(
      'TooManyEntriesInBatchRequest',
      'AWS.SimpleQueueService.TooManyEntriesInBatchRequest',
      `Maximum number of entries per request are 10. You have sent ${count}.`,
    ),
  batchIdsNotDistinct: (id: string): SqsError =>
    new SqsError(
      'BatchEntryIdsNotDistinct',
      'AWS.SimpleQueueService.BatchEntryIdsNotDistinct',
      `Id ${id} repeated.`,
    ),
  batchRequestTooLong: (limit: number): SqsError =>
    new SqsError(
      'BatchRequestTooLong',
      'AWS.SimpleQueueService.BatchRequestTooLong',
      `Batch requests cannot be longer than ${limit} bytes.`,
    ),
  invalidBatchEntryId: (): SqsError =>
    new SqsError(
      'InvalidBatchEntryId',
      'AWS.SimpleQueueService.InvalidBatchEntryId',
      'A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.',
    ),
  invalidAttributeName: (name: string): SqsError =>
    new SqsError('InvalidAttributeName', 'InvalidAttributeName', `Unknown Attribute ${name}.`),
  invalidMessageContents: (): SqsError =>
    new SqsError(
      'InvalidMessageContents',
      'InvalidMessageContents',
      'Invalid characters found. Valid values are #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF',
    ),
  unsupportedOperation: (message: string): SqsError =>
    new SqsError('UnsupportedOperation', 'AWS.SimpleQueueService.UnsupportedOperation', message),
  invalidParameterValue: (message: string): SqsError => plain('InvalidParameterValue', message),
  missingParameter: (name: string): SqsError =>
    plain('MissingParameter', `The request must contain the parameter ${name}.`),
  invalidAction: (action: string): SqsError =>
    plain('InvalidAction', `The action ${action} is not valid for this endpoint.`),
  serialization: (message: string): SqsError => plain('SerializationException', message),
};

/** Encodes an error the way SQS does over JSON 1.0: status, query-compat header and JSON body. */
export function renderError(error: SqsError): {
  status: number;
  headers: Record<string, string>;
  body: string;
} {
  return {
    status: error.status,
    headers: { 'x-amzn-query-error': `${error.queryCode};${error.fault}` },
    body: JSON.stringify({ __type: error.type, message: error.message }),
  };
}
