// @ts-nocheck -- written by hand
import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

/**
 * `formTypeHash` of the Form component (cwa:form-cache-purge): the content
 * hash of a Form's type when it was written. Existing forms start without
 * one, so the first purge gives each a new modified date once.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`ALTER TABLE "_acb_forms" ADD COLUMN "form_type_hash" varchar;`)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`ALTER TABLE "_acb_forms" DROP COLUMN "form_type_hash";`)
}
