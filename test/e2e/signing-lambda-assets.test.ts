// The signing Lambda as deployed: its esbuild output carries the pages' static files beside
// index.mjs, and the bundled handler serves them from there (run in a child process, as Lambda would);
// what only some requests need is in chunks its cold start does not load.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { PAGE_ASSETS_DIR } from '#functions/public-pages/assets';
import { WEB_FONTS_DIR } from '#functions/public-pages/web-fonts';
import { LAMBDA_BUNDLE_FILE, lambdaBuildOptions, lambdaEntry } from '#infra/bundling';
import { LambdaEsbuild } from '#infra/constructs/lambda-code';
import { UNTRUSTED_WORKER_NAME } from '#shared/adapters/untrusted/worker-file';
import { manySignatures, selfReferencingNameTree } from '../helpers/hostile-pdfs';

const out = mkdtempSync(join(tmpdir(), 'signing-lambda-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));
let bundledOnce: boolean | undefined;
/** The CDK construct's bundling into `out`, once for the file. */
const bundled = () => (bundledOnce ??= new LambdaEsbuild('public-pages').tryBundle(out));

/**
 * Calls the bundled handler once with a GET of `path` (or `method` with `body`) as API Gateway
 * (stage `prod`) would; `env` is added to the function's environment.
 */
function invoke(
  path: string,
  headers: Record<string, string> = {},
  {
    method = 'GET',
    body,
    env: extraEnv = {},
  }: { method?: string; body?: Buffer; env?: Record<string, string> } = {},
): Promise<{ status: number; headers: Record<string, string>; bytes: number; text: string }> {
  const event = {
    httpMethod: method,
    path,
    resource: '/sign/{proxy+}',
    headers: { host: 'abc123.execute-api.eu-west-1.amazonaws.com', 'x-forwarded-proto': 'https', ...headers },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: body ? body.toString('base64') : null,
    isBase64Encoded: Boolean(body),
    requestContext: {
      requestId: 'test',
      path: `/prod${path}`,
      stage: 'prod',
      identity: { sourceIp: '192.0.2.1' },
    },
  };
  // The function prints its EMF metrics to stdout, as on Lambda: the answer comes after a marker.
  const RESULT = 'ANSWER ';
  const script = `
    const RESULT = ${JSON.stringify(RESULT)};
    const { handler } = await import(${JSON.stringify(pathToFileURL(join(out, 'index.mjs')).href)});
    const r = await handler(${JSON.stringify(event)}, { awsRequestId: 'test' });
    const bytes = r.isBase64Encoded ? Buffer.from(r.body, 'base64').length : Buffer.byteLength(r.body);
    const text = r.isBase64Encoded ? '' : r.body;
    process.stdout.write('\\n' + RESULT + JSON.stringify({ status: r.statusCode, headers: r.headers, bytes, text }));
  `;
  const env = {
    PATH: process.env.PATH ?? '',
    TABLE_NAME: 'esign-prod',
    BUCKET_NAME: 'esign-prod-documents',
    AWS_REGION: 'eu-west-1',
    LOG_LEVEL: 'silent',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...extraEnv,
  };
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--input-type=module', '-e', script],
      { env, cwd: out, maxBuffer: 64 * 2 ** 20 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`${err.message}\n${stderr}`));
        const at = stdout.lastIndexOf(`\n${RESULT}`);
        if (at < 0) return reject(new Error(`no answer printed:\n${stdout}\n${stderr}`));
        resolve(JSON.parse(stdout.slice(at + 1 + RESULT.length)));
      },
    );
  });
}

describe('the signing Lambda bundle', () => {
  describe('ships the page assets beside index.mjs and serves them with their headers', () => {
    let dir: string;
    let manifest: { version: string; files: string[] };
    let ja: Awaited<ReturnType<typeof invoke>>;

    it('the bundle holds every page asset its manifest lists, and every module they import', async () => {
      expect(bundled()).toBe(true);
      dir = join(out, PAGE_ASSETS_DIR);
      manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as {
        version: string;
        files: string[];
      };
      expect(manifest.version).toMatch(/^[0-9a-f]{16}$/);
      expect(manifest.files).toEqual(
        expect.arrayContaining([
          'app.js',
          // Each page's modules as the one script it loads (page-bundles.ts), made at build time.
          'app.bundle.js',
          'prepare.bundle.js',
          'app.css',
          'pdf.min.mjs',
          'pdf.worker.min.mjs',
          'signature_pad.min.js',
          'swagger-ui/swagger-ui-bundle.js',
          'swagger-ui/swagger-ui.css',
          'docs.js',
          'standard_fonts/LiberationSans-Regular.ttf',
          // The rules the page shares with the service (shared/text), without their type files.
          'text/visible-text.js',
          'text/field-dates.js',
        ]),
      );
      expect(manifest.files.filter((f) => f.endsWith('.d.ts'))).toEqual([]);
      for (const f of manifest.files) expect(existsSync(join(dir, f)), f).toBe(true);
      // Every module the page's scripts import is served beside them, at the path the import names.
      for (const f of manifest.files.filter((x) => x.endsWith('.js') && !x.includes('/'))) {
        for (const [, target] of readFileSync(join(dir, f), 'utf8').matchAll(
          /^import [^;]*? from '\.\/([^']+)';/gm,
        )) {
          expect(manifest.files, `${f} imports ./${target}`).toContain(target);
        }
      }
    }, 240_000);

    it('pdf.js and its worker are files served with their headers, not code of the entry bundle', async () => {
      // pdf.js and its worker are files read when asked for, not code of the entry bundle.
      const worker = statSync(join(dir, 'pdf.worker.min.mjs')).size;
      expect(statSync(join(out, 'index.mjs')).size).toBeLessThan(worker);

      const js = await invoke(`/sign/assets/${manifest.version}/pdf.worker.min.mjs`);
      expect(js).toMatchObject({
        status: 200,
        bytes: worker,
        headers: expect.objectContaining({
          'Content-Type': 'text/javascript; charset=utf-8',
          'Cache-Control': 'public, max-age=31536000, immutable',
          'X-Content-Type-Options': 'nosniff',
          'Strict-Transport-Security': 'max-age=31536000',
        }),
      });
      // On AWS the page may also read presigned links of the bucket (documents too large for the API).
      expect(js.headers['Content-Security-Policy']).toContain(
        "connect-src 'self' https://esign-prod-documents.s3.eu-west-1.amazonaws.com",
      );
      const font = await invoke(`/sign/assets/${manifest.version}/standard_fonts/LiberationSans-Regular.ttf`);
      expect(font).toMatchObject({
        status: 200,
        headers: expect.objectContaining({ 'Content-Type': 'font/ttf' }),
      });
      expect((await invoke(`/sign/assets/${manifest.version}/missing.js`)).status).toBe(404);
    });

    it('pages name their assets below the stage the API is served under', async () => {
      // Pages name their assets below the stage the API is served under.
      const page = await invoke('/sign/not-a-token');
      expect(page.status).toBe(404);
      expect(page.text).toContain(`href="/prod/sign/assets/${manifest.version}/app.css"`);
      expect(page.text).toContain('This link does not work');
    });

    it('the message catalogs are files beside the bundle, read on first use, never its code', async () => {
      // The message catalogs are files beside the bundle, read on first use, never its code.
      for (const lang of ['en', 'ja', 'ar'])
        expect(existsSync(join(out, 'locales', `${lang}.json`)), lang).toBe(true);
      const code = readdirSync(out).filter((f) => f.endsWith('.mjs'));
      for (const f of code) expect(readFileSync(join(out, f), 'utf8'), f).not.toContain('書類に署名');
      ja = await invoke('/sign/not-a-token', { 'accept-language': 'ja' });
      expect(ja.status).toBe(404);
      expect(ja.text).toContain('<html lang="ja" dir="ltr"');
      expect(ja.text).toContain('このリンクは使用できません');
    });

    it('the web fonts made at build time sit beside the bundle and are served from there', async () => {
      // The web fonts were made at build time and sit beside the bundle; a Japanese page links its
      // script's style sheet, and the font files it names are served from there.
      const fonts = JSON.parse(readFileSync(join(out, WEB_FONTS_DIR, 'manifest.json'), 'utf8')) as {
        version: string;
        files: string[];
      };
      expect(fonts.files).toEqual(expect.arrayContaining(['japanese.css', 'japanese.woff2', 'arabic.woff2']));
      const sheet = `/prod/sign/fonts/${fonts.version}/japanese.css`;
      expect(ja.text).toContain(`<link rel="stylesheet" href="${sheet}">`);
      const css = await invoke(`/sign/fonts/${fonts.version}/japanese.css`);
      expect(css).toMatchObject({
        status: 200,
        headers: expect.objectContaining({ 'Content-Type': 'text/css; charset=utf-8' }),
      });
      expect(css.text).toContain('src: url("japanese.woff2") format("woff2")');
      const woff2 = await invoke(`/sign/fonts/${fonts.version}/japanese.woff2`);
      expect(woff2).toMatchObject({
        status: 200,
        bytes: statSync(join(out, WEB_FONTS_DIR, 'japanese.woff2')).size,
        headers: expect.objectContaining({ 'Content-Type': 'font/woff2' }),
      });
    });
  });

  it('loads at cold start none of what only some requests need, and loads it when they come', async () => {
    // The metafile of the same build (infra/bundling.ts's options, as the construct's): the
    // sources in each output file, and which files import which statically.
    const metaOut = mkdtempSync(join(tmpdir(), 'signing-lambda-meta-'));
    let metafile: Metafile;
    try {
      ({ metafile } = await build({
        ...lambdaBuildOptions(lambdaEntry('public-pages'), metaOut, 'public-pages'),
        metafile: true,
        write: false,
      }));
    } finally {
      rmSync(metaOut, { recursive: true, force: true });
    }
    const entry = Object.keys(metafile.outputs).find((f) => f.endsWith(`/${LAMBDA_BUNDLE_FILE}`))!;
    const atColdStart = new Set<string>();
    const pending = [entry];
    for (let f = pending.pop(); f !== undefined; f = pending.pop()) {
      if (atColdStart.has(f)) continue;
      atColdStart.add(f);
      for (const i of metafile.outputs[f]!.imports)
        if (i.kind === 'import-statement' && !i.external) pending.push(i.path);
    }
    const sourcesOf = (files: Iterable<string>) =>
      [...files].flatMap((f) => Object.keys(metafile.outputs[f]?.inputs ?? {}));
    const loaded = sourcesOf(atColdStart);
    const shipped = sourcesOf(Object.keys(metafile.outputs));
    // Each only for some requests: /verify, /portal, payments, multipart bodies, SMS codes, the
    // OpenAPI document, image documents.
    const onDemand = [
      'functions/public-pages/verify-page.ts',
      'shared/pdf/read-seal.ts',
      'functions/public-pages/portal-page.ts',
      'shared/domain/bundles/create-bundle.ts',
      'node_modules/stripe/',
      'node_modules/@aws-sdk/client-secrets-manager/',
      'node_modules/busboy/',
      'node_modules/@aws-sdk/client-sns/',
      'shared/openapi/document.ts',
      'node_modules/pdf-lib/',
    ];
    for (const source of onDemand) {
      expect(
        shipped.some((s) => s.includes(source)),
        `${source} shipped`,
      ).toBe(true);
      expect(
        loaded.filter((s) => s.includes(source)),
        `${source} at cold start`,
      ).toEqual([]);
    }
    // The pages' scripts are bundled at build time: esbuild is no part of the function's code.
    expect(shipped.filter((s) => s.includes('node_modules/esbuild/'))).toEqual([]);

    // The bundled handler finds those chunks beside index.mjs when a request needs them.
    expect(bundled()).toBe(true);
    const verify = await invoke('/verify', { 'accept-language': 'ja' });
    expect(verify.status).toBe(200);
    expect(verify.text).toContain('<html lang="ja" dir="ltr"');
    expect(verify.text).toContain('id="verify-form"');
    const script = await invoke('/verify/assets/verify.js');
    expect(script).toMatchObject({
      status: 200,
      headers: expect.objectContaining({ 'Content-Type': 'text/javascript; charset=utf-8' }),
    });
    expect(script.text).toContain("getElementById('verify-form')");
    const openapi = await invoke('/api/v2/openapi.json');
    expect(openapi.status).toBe(200);
    expect(JSON.parse(openapi.text)).toMatchObject({
      openapi: expect.stringMatching(/^3\.1\./),
      paths: expect.objectContaining({ '/openapi.json': expect.anything() }),
    });
  }, 120_000);

  it('checks a file in the worker built beside index.mjs, within its caps', async () => {
    expect(bundled()).toBe(true);
    expect(existsSync(join(out, `${UNTRUSTED_WORKER_NAME}.mjs`))).toBe(true);
    // The check also asks the table whether the file is one of ours: a stand-in that knows none.
    const table = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.setHeader('content-type', 'application/x-amz-json-1.0');
        res.end('{"Items":[],"Count":0}');
      });
    });
    await new Promise<void>((resolve) => table.listen(0, '127.0.0.1', resolve));
    const env = {
      DYNAMODB_ENDPOINT: `http://127.0.0.1:${(table.address() as AddressInfo).port}`,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    };
    const post = (body: Buffer) =>
      invoke('/verify/api/check', { 'content-type': 'application/pdf' }, { method: 'POST', body, env });
    try {
      const tree = await post(selfReferencingNameTree());
      expect(tree.status).toBe(200);
      expect(JSON.parse(tree.text)).toMatchObject({ known: false, checks: { result: 'fail' } });
      const signatures = await post(manySignatures(60));
      expect(signatures.status).toBe(422);
      expect(JSON.parse(signatures.text)).toMatchObject({
        code: 'too_complex',
        message: 'The file holds 60 signature dictionaries; at most 50 are checked.',
      });
    } finally {
      table.close();
    }
  }, 120_000);
});
