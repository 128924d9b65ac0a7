import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { createDocumentClient } from '#shared/adapters/aws/clients';
import { bundleOfRecord } from '#shared/adapters/dynamodb/bundle-stream';
import { withTelemetry } from '#shared/adapters/telemetry/telemetry';
import { publishDeps } from '#shared/composition/bundle-publishing';
import { type TFunctionOptions, telemetryOf } from '#shared/composition/function-base';
import { publishBundleEvents } from '#shared/domain/outbox/publish-events';

/**
 * Composition root of the outbox relay, fed by the table's stream (a Lambda event source mapping
 * on AWS, infra/local/stream-mapping.ts locally) with the bundle items written with an outbox
 * (infra/workers.ts, STREAM_CONSUMERS): publishes each one's outbox from the bundle as written,
 * so the request that changed the bundle answers without waiting for it. A record that fails is
 * answered as a batch item failure: the stream gives it, and the records after it, again.
 */
export function buildOutboxRelay(opts: TFunctionOptions) {
  const db = opts.db ?? createDocumentClient(opts.config);
  const telemetry = telemetryOf(opts);
  const deps = publishDeps(opts.config, db);
  const record = async (r: DynamoDBRecord) => {
    const bundle = bundleOfRecord(r);
    if (bundle?.outbox?.length) await publishBundleEvents(deps, bundle);
  };
  return withTelemetry(
    telemetry,
    // A processor per batch: the local runtime may hand one function several batches at once.
    async (event: DynamoDBStreamEvent, context?: Context): Promise<DynamoDBBatchResponse> =>
      processPartialResponse(event, record, new BatchProcessor(EventType.DynamoDBStreams), {
        ...(context ? { context } : {}),
        // In stream order: a bundle's later record holds its earlier one's entries too.
        processInParallel: false,
        throwOnFullBatchFailure: false,
      }),
  );
}
