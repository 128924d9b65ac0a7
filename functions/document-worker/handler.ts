import { lambdaFunction } from '#shared/adapters/telemetry/lambda';
import { buildDocumentWorker } from './app';

export const handler = buildDocumentWorker(lambdaFunction('document-worker'));
