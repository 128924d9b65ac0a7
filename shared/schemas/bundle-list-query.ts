import * as z from 'zod';
import { optional, zCsv, zText } from './common';

/** The query parameters of List Bundles (besides page and per_page). */
export const BUNDLE_LIST_PARAMS = [
  'search',
  'status',
  'status__in',
  'tag',
  'tag__in',
  'ordering',
  'created_after',
  'created_before',
  'sent_after',
  'sent_before',
  'completed_after',
  'completed_before',
  'template',
] as const;

export type TBundleListParam = (typeof BUNDLE_LIST_PARAMS)[number];

/** `pe` (documents being processed) is shown on bundles, so it can be listed too. */
export const BUNDLE_STATUSES = ['pe', 'dr', 'se', 'st', 'co', 'ca', 'ex', 'fa'] as const;

const statusMessage = `Choose from ${BUNDLE_STATUSES.join(', ')}.`;
const status = z.enum(BUNDLE_STATUSES, statusMessage);
const tag = zText(100).trim().min(1, 'A tag may not be blank.');

const day = z.iso.date('Enter a valid date: YYYY-MM-DD.');

export const ZBundleListQuerySchema = z.object({
  search: optional(zText(200).trim()),
  status: optional(status),
  status__in: optional(zCsv(status, BUNDLE_STATUSES.length)),
  tag: optional(tag),
  tag__in: optional(zCsv(tag, 50)),
  ordering: optional(
    z.enum(
      ['created', '-created', 'sent', '-sent', 'completed_at', '-completed_at'],
      'Choose from created, sent or completed_at, optionally prefixed with "-".',
    ),
  ),
  created_after: optional(day),
  created_before: optional(day),
  sent_after: optional(day),
  sent_before: optional(day),
  completed_after: optional(day),
  completed_before: optional(day),
  template: optional(z.uuid('Must be a valid UUID.')),
});

export type TBundleListQuery = z.output<typeof ZBundleListQuerySchema>;
