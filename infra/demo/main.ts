// `npm run demo`: sends the sample PDF to a signer, signs it from the mailbox's link and downloads
// the sealed PDF, against the service `npm start` runs (see run-demo.ts).
//   --url <base URL>   the service (default: the one running on --data-dir, from its runtime.json)
//   --key <API key>    KEY; default: the demo account's, from the data folder
//   --data-dir <path>  DATA_DIR (.data), as for `npm start`
//   --out <file>       where the sealed PDF goes (signed-sample.pdf)
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SAMPLE_PDF_PATH } from '../local/home-page';
import { dataPaths, type TRuntimeFile } from '../local/layout';
import { isDemoError, runDemo } from './run-demo';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    key: { type: 'string' },
    'data-dir': { type: 'string' },
    out: { type: 'string' },
  },
  strict: true,
});

const paths = dataPaths(values['data-dir'] ?? process.env.DATA_DIR ?? '.data');
const readJson = <T>(file: string): T | undefined => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
};

const apiUrl = values.url ?? readJson<TRuntimeFile>(paths.runtime)?.apiUrl;
const apiKey = values.key ?? process.env.KEY ?? readJson<{ apiKey: string }>(paths.demoAccount)?.apiKey;
if (!apiUrl || !apiKey) {
  console.error(
    'No running service found. Start it with `npm start` in another terminal, then run `npm run demo` again.\n' +
      '(For a service started with --memory or elsewhere: npm run demo -- --url http://127.0.0.1:3000 --key <the printed key>)',
  );
  process.exit(2);
}

try {
  await runDemo({
    baseUrl: apiUrl.replace(/\/api\/v2\/?$/, ''),
    apiKey,
    pdfPath: path.relative(process.cwd(), SAMPLE_PDF_PATH) || SAMPLE_PDF_PATH,
    outPath: values.out ?? 'signed-sample.pdf',
    say: (line) => console.log(line),
  });
} catch (err) {
  console.error(isDemoError(err) ? err.message : err);
  process.exit(1);
}
