// Retention by policy: the account's policy, and a bundle's legal hold.
import {
  ZBundleRetentionResponseSchema,
  ZRetentionPolicyResponseSchema,
} from '#shared/schemas/responses/retention';
import { ZRetentionPolicySchema } from '#shared/schemas/retention';

const policy = { originals_days: 30, finals_days: 3650, images_days: 7 };

/** Typed where operations.ts lists them (TOperation): a type import back would be a cycle. */
export const RETENTION_OPERATIONS = [
  {
    route: 'GET /account/retention',
    operationId: 'retrieveRetentionPolicy',
    tag: 'Account',
    summary: 'How many days after a bundle ends each part of its documents is kept (null: for ever)',
    response: { status: 200, schema: ZRetentionPolicyResponseSchema },
    examples: { response: policy },
  },
  {
    route: 'PUT /account/retention',
    operationId: 'updateRetentionPolicy',
    tag: 'Account',
    summary:
      'Set the retention policy for bundles made from now on (account admins; a part left out is kept)',
    body: { name: 'RetentionPolicyChange', schema: ZRetentionPolicySchema },
    response: { status: 200, schema: ZRetentionPolicyResponseSchema },
    conflict: true,
    examples: { request: policy, response: policy },
  },
  {
    route: 'GET /bundles/{id:slug}/legal_hold',
    operationId: 'retrieveBundleRetention',
    tag: 'Bundles',
    summary: "A bundle's retention policy, legal hold and what the policy deleted",
    response: { status: 200, schema: ZBundleRetentionResponseSchema },
  },
  {
    route: 'PUT /bundles/{id:slug}/legal_hold',
    operationId: 'setLegalHold',
    tag: 'Bundles',
    summary: 'Put a bundle under legal hold: nothing of it is deleted by policy until released (admins)',
    response: { status: 200, schema: ZBundleRetentionResponseSchema },
    conflict: true,
  },
  {
    route: 'DELETE /bundles/{id:slug}/legal_hold',
    operationId: 'releaseLegalHold',
    tag: 'Bundles',
    summary: "Release a bundle's legal hold: the policy deletes what is due at its next run (admins)",
    response: { status: 200, schema: ZBundleRetentionResponseSchema },
    conflict: true,
  },
] as const;
