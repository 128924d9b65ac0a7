// The service's queues, declared once: the local runtime creates them in its SQS stand-in,
// and later stacks create them on AWS. Each has a dead-letter queue after `maxReceiveCount`.

export const QUEUES = {
  /** Signing requests and reminders to send by email or SMS. */
  notifications: { name: 'notifications', visibilityTimeoutSeconds: 60, maxReceiveCount: 5 },
  webhookDeliveries: { name: 'webhook-deliveries', visibilityTimeoutSeconds: 60, maxReceiveCount: 8 },
  documentJobs: { name: 'document-jobs', visibilityTimeoutSeconds: 300, maxReceiveCount: 5 },
} as const;

export const queueName = (stage: string, name: string) => `esign-${stage}-${name}`;
export const deadLetterName = (stage: string, name: string) => `esign-${stage}-${name}-dlq`;
