import { and, eq, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { signingKeys } from '../db/schema/signing-keys.js';
import { webhookEndpoints } from '../db/schema/webhooks.js';
import { signingSeedContext, WEBHOOK_SECRET_CONTEXT } from './data-keys.js';

/**
 * The database cells that hold a secret sealed at rest (docs/operations.md, "Encryption at rest"): the
 * signing keys' seeds (Ed25519 and ML-DSA alike) and the webhook endpoints' secrets. Each with
 * the context it is sealed for and a compare-and-set write, so a pass that runs beside a
 * server, or twice, never overwrites a value that changed since it was read.
 */
export interface SecretCell {
  /** Names the cell in messages, never its value: `signing_keys.seed kid=…`. */
  name: string;
  context: string;
  value: string;
  /** Writes `next` if the cell still holds the value read; false when it changed meanwhile. */
  swap(next: string): Promise<boolean>;
}

export async function secretCells(db: DbOrTx): Promise<SecretCell[]> {
  const seeds = await db.select({ kid: signingKeys.kid, seed: signingKeys.seed }).from(signingKeys).where(isNotNull(signingKeys.seed));
  const endpoints = await db
    .select({ id: webhookEndpoints.id, secret: webhookEndpoints.secret, previousSecret: webhookEndpoints.previousSecret })
    .from(webhookEndpoints);
  const cells: SecretCell[] = seeds.map(({ kid, seed }) => ({
    name: `signing_keys.seed kid=${kid}`,
    context: signingSeedContext(kid),
    value: seed!,
    swap: async (next) =>
      (
        await db
          .update(signingKeys)
          .set({ seed: next })
          .where(and(eq(signingKeys.kid, kid), eq(signingKeys.seed, seed!)))
          .returning({ kid: signingKeys.kid })
      ).length === 1,
  }));
  for (const { id, secret, previousSecret } of endpoints) {
    cells.push({
      name: `webhook_endpoints.secret id=${id}`,
      context: WEBHOOK_SECRET_CONTEXT,
      value: secret,
      swap: async (next) =>
        (
          await db
            .update(webhookEndpoints)
            .set({ secret: next })
            .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.secret, secret)))
            .returning({ id: webhookEndpoints.id })
        ).length === 1,
    });
    if (previousSecret !== null) {
      cells.push({
        name: `webhook_endpoints.previous_secret id=${id}`,
        context: WEBHOOK_SECRET_CONTEXT,
        value: previousSecret,
        swap: async (next) =>
          (
            await db
              .update(webhookEndpoints)
              .set({ previousSecret: next })
              .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.previousSecret, previousSecret)))
              .returning({ id: webhookEndpoints.id })
          ).length === 1,
      });
    }
  }
  return cells;
}
