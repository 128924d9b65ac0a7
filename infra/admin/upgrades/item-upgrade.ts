// An upgrade of stored items that reading them cannot make: keys an earlier version did not
// write (an index finds an item only by what is stored). The operator runs every upgrade after a
// deploy (`npm run admin -- migrate`). It is the operator's tool, not the service's: the items
// it looks for are by definition ones no index lists (that is what it gives them), so it scans
// the table, once per deploy, where no request path may. Each scans a page at a time and upgrades an item
// with one conditional write on what it read, so it is safe beside the service's own writes
// (an item changed meanwhile was written whole by the new code, or is left for the next run) and
// safe to run again (an upgraded item no longer matches).
import {
  type DynamoDBDocumentClient,
  ScanCommand,
  UpdateCommand,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { writeIf } from '#shared/adapters/dynamodb/batch';

type TItem = Record<string, unknown>;

export interface TItemUpgrade {
  /** Its name in the command's report. */
  name: string;
  /** The items that may need it, as a Scan filter (read capacity is spent on the whole table). */
  filter: { FilterExpression: string; ExpressionAttributeValues: TItem };
  /** The conditional write that upgrades one item; undefined when it needs none. */
  update: (item: TItem) => Omit<UpdateCommandInput, 'TableName'> | undefined;
}

export interface TUpgradeReport {
  name: string;
  /** Items read (the whole table). */
  scanned: number;
  /** Items that needed it. */
  found: number;
  /** Items it upgraded; the others were changed meanwhile and are looked at again by a next run. */
  upgraded: number;
}

/** Items read per Scan page, and at most as many conditional writes at once. */
export const UPGRADE_PAGE = 100;

export async function runUpgrade(
  db: DynamoDBDocumentClient,
  table: string,
  upgrade: TItemUpgrade,
): Promise<TUpgradeReport> {
  const report: TUpgradeReport = { name: upgrade.name, scanned: 0, found: 0, upgraded: 0 };
  let start: TItem | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: table,
        ...upgrade.filter,
        Limit: UPGRADE_PAGE,
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    report.scanned += page.ScannedCount ?? 0;
    const writes = (page.Items ?? []).flatMap((item) => upgrade.update(item) ?? []);
    report.found += writes.length;
    const made = await Promise.all(
      writes.map((w) => writeIf(db.send(new UpdateCommand({ TableName: table, ...w })))),
    );
    report.upgraded += made.filter(Boolean).length;
    start = page.LastEvaluatedKey;
  } while (start);
  return report;
}
