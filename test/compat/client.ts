import Module, { createRequire } from 'node:module';
import type { TRuntime } from '#infra/local/runtime';

// The official BlueInk JavaScript client (@blueink360/blueink-client-js, CommonJS, untyped), used
// unchanged: only its base URL and API key are ours. These types cover what the compat tests call.

// biome-ignore lint/suspicious/noExplicitAny: the client answers arbitrary JSON
export type TJson = any;
type TParams = Record<string, unknown>;

/** What the client's axios response interceptor adds: X-BlueInk-Pagination, parsed. */
export interface TPagination {
  pageNumber: number;
  totalPages: number;
  perPage: number;
  totalResults: number;
}

/** An axios response, as every client call resolves. */
export interface TClientResponse {
  status: number;
  data: TJson;
  headers: Record<string, string>;
  pagination: TPagination | null;
}

/** An axios error, as every failing client call rejects. */
export interface TClientError {
  isAxiosError: true;
  message: string;
  config: { method?: string; url?: string; baseURL?: string; data?: unknown };
  response?: { status: number; data: TJson; headers: Record<string, string> };
}

export interface TBlueInkClient {
  persons: {
    create(data: object): Promise<TClientResponse>;
    createFromPersonHelper(helper: TPersonHelper): Promise<TClientResponse>;
    list(params?: TParams): Promise<TClientResponse>;
    pagedList(params: TParams): AsyncGenerator<TClientResponse>;
    retrieve(personId: string): Promise<TClientResponse>;
    update(personId: string, data: object): Promise<TClientResponse>;
    partialUpdate(personId: string, data: object): Promise<TClientResponse>;
    delete(personId: string): Promise<TClientResponse>;
  };
  bundles: {
    create(data: object): Promise<TClientResponse>;
    createFromBundleHelper(helper: TBundleHelper): Promise<TClientResponse>;
    createFromEnvelopeTemplate(data: object): Promise<TClientResponse>;
    list(params?: TParams): Promise<TClientResponse>;
    pagedList(params: TParams): AsyncGenerator<TClientResponse>;
    retrieve(bundleId: string, options?: { related_data?: boolean }): Promise<TClientResponse>;
    update(bundleId: string, data: object): Promise<TClientResponse>;
    send(bundleId: string): Promise<TClientResponse>;
    validate(bundleId: string): Promise<TClientResponse>;
    cancel(bundleId: string): Promise<TClientResponse>;
    listEvents(bundleId: string): Promise<TClientResponse>;
    listFiles(bundleId: string): Promise<TClientResponse>;
    generateFiles(bundleId: string): Promise<TClientResponse>;
    listData(bundleId: string): Promise<TClientResponse>;
  };
  envelopeTemplates: {
    list(params?: TParams): Promise<TClientResponse>;
    retrieve(envelopeTemplateId: string): Promise<TClientResponse>;
    pagedList(params: TParams): AsyncGenerator<TClientResponse>;
  };
  templates: {
    list(params?: TParams): Promise<TClientResponse>;
    pagedList(params: TParams): AsyncGenerator<TClientResponse>;
    retrieve(templateId: string): Promise<TClientResponse>;
    update(templateId: string, data: object): Promise<TClientResponse>;
    delete(templateId: string): Promise<TClientResponse>;
    createPreparationSession(data: object): Promise<TClientResponse>;
  };
  packets: {
    update(packetId: string, data: object): Promise<TClientResponse>;
    embedUrl(packetId: string): Promise<TClientResponse>;
    remind(packetId: string): Promise<TClientResponse>;
    retrieveCOE(packetId: string): Promise<TClientResponse>;
  };
}

export interface TBundleHelper {
  bundleData: TJson;
  addDocumentByPath(filePath: string, additionalFields?: object): string;
  addDocumentByUrl(fileUrl: string, additionalFields?: object): string;
  addDocumentByFile(fileData: { buffer: Buffer; originalname: string }, additionalFields?: object): string;
  addDocumentByB64(fileName: string, fileB64: string, additionalFields?: object): string;
  addField(docKey: string, field: object): string;
  addSigner(signer: object): string;
  addAutoPlacement(docKey: string, autoPlacement: object): string;
  addDocumentTemplate(template: { template_id: string; key?: string; field_values?: object[] }): string;
  assignRole(signerKey: string, templateKey: string, roleKey: string): object;
  addEnvelopeTemplate(envelopeTemplate: { template_id: string; field_values?: object[] }): object;
  asData(): unknown;
}

export interface TPersonHelper {
  addEmail(email: string): string[];
  addPhone(phone: string): string[];
  setMetadata(metadata: object): object;
  setName(name: string): string;
  asData(additional?: object): TJson;
}

interface TClientModule {
  Client: new (privateApiKey: string, baseApiUrl?: string) => TBlueInkClient;
  BundleHelper: new (newBundleData: object) => TBundleHelper;
  PersonHelper: new (
    name?: string | null,
    metadata?: object,
    phones?: string[],
    emails?: string[],
  ) => TPersonHelper;
}

/**
 * The published 1.4.0 package starts with `require('dotenv').config()` but lists dotenv only as a
 * devDependency, so a plain install cannot load it. Its applications install dotenv themselves;
 * here the one require is answered with a no-op for the duration of the load (reading a .env into
 * the test process would be worse than useless).
 */
function loadClientModule(): TClientModule {
  const require = createRequire(import.meta.url);
  const proto = Module.prototype as unknown as { require: (this: unknown, id: string) => unknown };
  const original = proto.require;
  proto.require = function (this: unknown, id: string) {
    return id === 'dotenv' ? { config: () => ({ parsed: {} }) } : original.call(this, id);
  };
  try {
    return require('@blueink360/blueink-client-js') as TClientModule;
  } finally {
    proto.require = original;
  }
}

export const { Client, BundleHelper, PersonHelper } = loadClientModule();

/** The official client pointed at the local runtime, the way its README configures it. */
export function blueinkClient(runtime: TRuntime, apiKey = runtime.demo.apiKey): TBlueInkClient {
  // The client's default base URL is 'https://api.blueink.com/api/v2', without the slash.
  return new Client(apiKey, runtime.apiUrl.replace(/\/$/, ''));
}

/** The axios error a client call rejected with; fails when the call succeeded or never got an answer. */
export async function failureOf(call: Promise<unknown>): Promise<{
  status: number;
  body: TJson;
  error: TClientError;
}> {
  let answered: unknown;
  try {
    answered = await call;
  } catch (e) {
    const error = e as TClientError;
    if (!error?.isAxiosError || !error.response) throw e;
    return { status: error.response.status, body: error.response.data, error };
  }
  const res = answered as TClientResponse;
  throw new Error(`expected the call to fail, it answered ${res.status}: ${JSON.stringify(res.data)}`);
}

/** The request the client sent, for messages that name a gap precisely. */
export function describeRequest(error: TClientError): string {
  const { method, url, data } = error.config;
  const body = typeof data === 'string' ? data : data === undefined ? '(no body)' : '(stream)';
  return `${method?.toUpperCase()} ${url} ${body} -> ${error.response?.status} ${JSON.stringify(error.response?.data)}`;
}

/** X-BlueInk-Pagination as the API sends it: page,total_pages,per_page,total_results. */
export function paginationHeaderOf(res: TClientResponse): string | undefined {
  return res.headers['x-blueink-pagination'];
}

/** The error body's shape (docs/api-decisions.md, Errors): code, message, detail = message, errors with both spellings. */
export function isApiErrorBody(body: TJson): boolean {
  return (
    !!body &&
    typeof body.code === 'string' &&
    typeof body.message === 'string' &&
    body.detail === body.message &&
    Array.isArray(body.errors)
  );
}
