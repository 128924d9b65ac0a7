// What a call costs on DynamoDB: every command sent on the client the local runtime's functions
// share, with the function that sent it (infra/local/invocation.ts), so a request's own reads
// and writes are told apart from the workers its jobs start.

import { currentInvocation } from '#infra/local/invocation';
import type { TRuntime } from '#infra/local/runtime';

export interface TRecordedCommand {
  /** The Lambda that sent it (`bundles`, `public-pages`, `notifications-worker`, …). */
  fn: string;
  command: string;
  /** The item named, by Key or by the Item put. */
  key?: { pk: unknown; sk: unknown };
  values?: Record<string, unknown>;
  /** A read asked to be strongly consistent. */
  consistent?: true;
}

export function dbRecorder(runtime: TRuntime) {
  let recording: TRecordedCommand[] | undefined;
  runtime.db.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as {
        Key?: { pk: unknown; sk: unknown };
        Item?: { pk: unknown; sk: unknown };
        ExpressionAttributeValues?: Record<string, unknown>;
        ConsistentRead?: boolean;
      };
      const named = input.Key ?? input.Item;
      recording?.push({
        fn: currentInvocation()?.fn ?? 'test',
        command: String(context.commandName).replace(/Command$/, ''),
        ...(named ? { key: { pk: named.pk, sk: named.sk } } : {}),
        ...(input.ExpressionAttributeValues ? { values: input.ExpressionAttributeValues } : {}),
        ...(input.ConsistentRead ? { consistent: true as const } : {}),
      });
      return next(args);
    },
    { step: 'initialize', name: 'testDbRecorder' },
  );
  return {
    /** The commands sent while `run` ran, and in the moment after it (what it left running). */
    async during(run: () => Promise<unknown>): Promise<TRecordedCommand[]> {
      const commands: TRecordedCommand[] = [];
      recording = commands;
      try {
        await run();
        await new Promise((r) => setTimeout(r, 50));
        return commands;
      } finally {
        recording = undefined;
      }
    },
  };
}

/** The commands that name this item (GetItem, PutItem, UpdateItem, DeleteItem). */
export const onItem = (commands: TRecordedCommand[], key: { pk: string; sk: string }) =>
  commands.filter((c) => c.key?.pk === key.pk && c.key?.sk === key.sk);
