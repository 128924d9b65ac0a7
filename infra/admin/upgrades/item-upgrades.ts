// Every upgrade of stored items, in the order they run (oldest first): what
// `npm run admin -- migrate` runs after a deploy. An entity whose new version needs keys or
// attributes its reader cannot supply adds its upgrade here.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { envelopeTemplateListKeys } from './envelope-template-list-keys';
import { runUpgrade, type TItemUpgrade, type TUpgradeReport } from './item-upgrade';

export const ITEM_UPGRADES: readonly TItemUpgrade[] = [envelopeTemplateListKeys];

export interface TItemUpgrades {
  /** Runs each upgrade in turn over the whole table: what each found and upgraded. */
  run(): Promise<TUpgradeReport[]>;
}

export function createItemUpgrades(db: DynamoDBDocumentClient, table: string): TItemUpgrades {
  return {
    async run() {
      const reports: TUpgradeReport[] = [];
      for (const upgrade of ITEM_UPGRADES) reports.push(await runUpgrade(db, table, upgrade));
      return reports;
    },
  };
}
