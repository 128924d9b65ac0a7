// How each Lambda's code is built: esbuild in the synthesizing process, no Docker.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  AssetHashType,
  type BundlingOptions,
  BundlingOutput,
  DockerImage,
  type ILocalBundling,
} from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import { buildSync } from 'esbuild';
import {
  LAMBDA_BUILD_OPTIONS,
  LAMBDA_ENTRIES,
  LAMBDA_EXTRA_FILES,
  lambdaBuildOptions,
  lambdaEntry,
  REPO_ROOT,
  type TLambdaName,
} from '../bundling';

/**
 * Builds one Lambda with esbuild in the synthesizing process: LAMBDA_BUILD_OPTIONS as they are,
 * code splitting included, which NodejsFunction cannot do (it always writes a single file). No
 * Docker, no network: esbuild is a devDependency.
 *
 * The fields are part of CDK's bundling cache key (it serializes the bundling options), so two
 * Lambdas never share an asset, and changed build options make a new one.
 */
export class LambdaEsbuild implements ILocalBundling {
  readonly entry: string;
  readonly buildOptions = LAMBDA_BUILD_OPTIONS;

  constructor(readonly name: TLambdaName) {
    this.entry = LAMBDA_ENTRIES[name];
  }

  tryBundle(outputDir: string): boolean {
    // esbuild writes source-map paths relative to the outdir. Building for a fixed outdir (never
    // written to) and then writing the files into CDK's bundling folder keeps the output, and so
    // the asset hash, the same wherever the cloud assembly is (cdk.out, a test's temp folder).
    // Two levels below the repository, like CDK's own folders: on Lambda (/var/task) a stack
    // trace then names /functions/<name>/handler.ts.
    const fixedOutdir = path.join(REPO_ROOT, 'cdk.out', `lambda-${this.name}`);
    const result = buildSync({
      ...lambdaBuildOptions(lambdaEntry(this.name), fixedOutdir, this.name),
      write: false,
    });
    for (const file of result.outputFiles) {
      const target = path.join(outputDir, path.relative(fixedOutdir, file.path));
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, file.contents);
    }
    LAMBDA_EXTRA_FILES[this.name]?.(outputDir);
    return true;
  }
}

/** Asset bundling for one Lambda: always local (see LambdaEsbuild); the image is never used. */
export function lambdaBundling(name: TLambdaName): BundlingOptions {
  return {
    image: DockerImage.fromRegistry('none'),
    local: new LambdaEsbuild(name),
    outputType: BundlingOutput.NOT_ARCHIVED,
  };
}

/**
 * The Lambda's code: the folder LambdaEsbuild writes, hashed by its content (AssetHashType.OUTPUT),
 * so the asset changes exactly when the built code does, and the repository is never fingerprinted.
 */
export function lambdaCode(name: TLambdaName): Code {
  return Code.fromAsset(REPO_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: lambdaBundling(name),
  });
}
