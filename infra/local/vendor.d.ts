// The two local stand-ins ship no types; these declare only what the runtime uses.

declare module 'dynalite' {
  import type { Server } from 'node:http';

  function dynalite(options?: {
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
  }): Server;
  export default dynalite;
}

declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  export default class S3rver {
    constructor(options: {
      port?: number;
      address?: string;
      directory: string;
      silent?: boolean;
      configureBuckets?: { name: string }[];
    });
    /** Koa's middleware list: a stand-in route put first runs before s3rver's own. */
    middleware: ((ctx: never, next: () => Promise<unknown>) => Promise<unknown>)[];
    /** Where it keeps the objects (its filesystem store). */
    store: unknown;
    /** Its HTTP server's address(). */
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
  /** The part of Koa's context the stand-in reads. */
  export interface TS3rverContext {
    method: string;
    path: string;
    status: number;
    get(header: string): string;
  }
}
