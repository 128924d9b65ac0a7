export type { LocalSqs, LocalSqsOptions } from './server';
export { startLocalSqs } from './server';
