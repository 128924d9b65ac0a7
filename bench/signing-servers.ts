// The signing bench's servers, each in a Node process of its own: the whole local runtime (the
// service and its stand-ins, as `npm start` runs it) and the bare pdf.js page's plain server. So
// the service runs apart from the browser and its driver, as deployed, and both pages are served
// alike, by a process that does nothing but serve them; the bench's process keeps Playwright's
// driver and its own clients. The bench reaches the runtime only as any client would: its HTTP
// API (seeding included) and, for the complete's yardstick, its DynamoDB stand-in's endpoint.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runAsChild, serveUntilStdinEnds, startTsxServer, type TServerChild } from './child-process';
import { startBarePdfServer } from './signing-baseline';

const THIS_FILE = fileURLToPath(import.meta.url);
/** Starting the runtime builds its seal keys and tables; on a loaded machine that takes a while. */
const START_MS = 120_000;

export interface TRuntimeServing {
  baseUrl: string;
  /** The demo account's API key. */
  apiKey: string;
  /** Where the runtime's DynamoDB stand-in listens, and its table: the service's own. */
  dynamodbEndpoint: string;
  tableName: string;
}

export interface TBareServing {
  /** The bare page's URL, answered with the signing page's security headers; add `?width=<px>`. */
  url: string;
  /** The same page without them. */
  plainUrl: string;
}

/** The local runtime, quiet and never throttled (bench/runtime.ts), in a process of its own. */
export const startRuntimeChild = (): Promise<TServerChild<TRuntimeServing>> =>
  startTsxServer<TRuntimeServing>(THIS_FILE, ['runtime'], START_MS);

/** The bare pdf.js page and `pdf` as its doc.pdf, served from a process of its own. */
export async function startBareChild(pdf: Uint8Array): Promise<TServerChild<TBareServing>> {
  const dir = mkdtempSync(path.join(tmpdir(), 'esign-bench-bare-'));
  const file = path.join(dir, 'doc.pdf');
  writeFileSync(file, pdf);
  try {
    const child = await startTsxServer<TBareServing>(THIS_FILE, ['bare', file], START_MS);
    return {
      ...child,
      stop: async () => {
        await child.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

await runAsChild(import.meta.url, async ([kind, arg]) => {
  if (kind === 'runtime') {
    // Imported here: the bare page's child has no use for the runtime's modules.
    const { startBenchRuntime } = await import('./runtime');
    const runtime = await startBenchRuntime(() => undefined);
    const endpoint = runtime.config.endpoints.dynamodb;
    if (!endpoint) throw new Error('the local runtime named no DynamoDB endpoint');
    const serving: TRuntimeServing = {
      baseUrl: runtime.baseUrl,
      apiKey: runtime.demo.apiKey,
      dynamodbEndpoint: endpoint,
      tableName: runtime.config.tableName,
    };
    await serveUntilStdinEnds(serving, runtime.stop);
  } else if (kind === 'bare' && arg) {
    const bare = await startBarePdfServer(readFileSync(arg));
    await serveUntilStdinEnds({ url: bare.url, plainUrl: bare.plainUrl } satisfies TBareServing, bare.stop);
  } else {
    throw new Error(`usage: signing-servers.ts runtime | bare <pdf file> (got ${kind ?? 'nothing'})`);
  }
});
