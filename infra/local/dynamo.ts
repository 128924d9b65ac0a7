import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';

/** dynalite in this process: LevelDB on disk under `dir`, or in memory when `dir` is undefined. */
export async function startDynalite(opts: { port: number; host: string; dir?: string }) {
  const server = dynalite({
    ...(opts.dir ? { path: opts.dir } : {}),
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const bound = server.address() as AddressInfo;
  return {
    endpoint: `http://${opts.host}:${bound.port}`,
    port: bound.port,
    bound,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
