// A small HTTP stand-in of Secrets Manager's GetSecretValue (the AWS JSON protocol, as the SDK
// calls it) for one secret: what functions read on AWS, with the states an operator leaves it in.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TSecretsManagerStandin {
  /** `value` undefined: the secret has no value yet, as the stack creates it. */
  state: { value: string | undefined; calls: number };
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * GetSecretValue over the AWS JSON protocol, as the SDK calls it. `value` undefined: a secret
 * without a value (Secrets Manager answers ResourceNotFoundException).
 */
export async function startSecretsManager(secretId: string): Promise<TSecretsManagerStandin> {
  const state: { value: string | undefined; calls: number } = { value: undefined, calls: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.calls++;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { SecretId?: string };
      const fail = (type: string, message: string) => {
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': type });
        res.end(JSON.stringify({ __type: type, message }));
      };
      if (req.headers['x-amz-target'] !== 'secretsmanager.GetSecretValue')
        return fail('InvalidRequestException', 'Only GetSecretValue is stood in.');
      if (body.SecretId !== secretId || state.value === undefined)
        return fail(
          'ResourceNotFoundException',
          "Secrets Manager can't find the specified secret value for staging label: AWSCURRENT",
        );
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
      res.end(
        JSON.stringify({
          ARN: `arn:aws:secretsmanager:us-east-1:000000000000:secret:${secretId}`,
          Name: secretId,
          SecretString: state.value,
          VersionId: 'v1',
          VersionStages: ['AWSCURRENT'],
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    state,
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}
