// @ts-nocheck -- written by hand: the token version field and the throttle table (raw SQL, not a collection)
import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

/**
 * - `token_version` on users: raised by a password change or reset, by
 *   disabling and by a change of roles; every JWT carries the version it was
 *   signed under and is refused once it moved on (plugins/cwa/session/revocation.ts).
 * - `_acb_throttle`: the throttle counters of logins and anonymous form
 *   submits, shared by every instance (plugins/cwa/core/utils/throttle.ts).
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`ALTER TABLE "_acb_users" ADD COLUMN IF NOT EXISTS "token_version" numeric DEFAULT 0;`)
  await db.execute(sql`CREATE TABLE IF NOT EXISTS "_acb_throttle" ("key" text PRIMARY KEY, "hits" integer NOT NULL, "expires_at" timestamptz NOT NULL);`)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`DROP TABLE IF EXISTS "_acb_throttle";`)
  await db.execute(sql`ALTER TABLE "_acb_users" DROP COLUMN IF EXISTS "token_version";`)
}
