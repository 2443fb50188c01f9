// @ts-nocheck -- written by hand: Payload declares no unique email index for this collection
import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

/**
 * emailAddress is unique (contract, User). With login by username only
 * (`allowEmailLogin: false`) Payload no longer declares the email column
 * unique, so the application check alone would let two simultaneous writes
 * claim one address. Payload stores emails lower-cased and trimmed.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`CREATE UNIQUE INDEX IF NOT EXISTS "_acb_users_email_unique" ON "_acb_users" USING btree ("email");`)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`DROP INDEX IF EXISTS "_acb_users_email_unique";`)
}
