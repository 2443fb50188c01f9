// @ts-nocheck -- written by hand
import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

/**
 * Issue 15 (real front ends):
 *
 * - `allowedComponents` of a component group becomes a JSON column, so that
 *   null (no list) and an empty list stay apart (a list of texts stores
 *   both as no rows). Existing lists move over in their order, in the
 *   canonical form (`/component/html_contents`: the path under the API
 *   prefix; output adds the prefix like every @id).
 * - `site_config_parameters`: the contract's stored site-configuration
 *   entity (key, value), with the locked-documents relation column Payload
 *   keeps for every collection.
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
  ALTER TABLE "_acb_component_groups" ADD COLUMN "allowed_components" jsonb;
  UPDATE "_acb_component_groups" g SET "allowed_components" = t.list
    FROM (
      SELECT "parent_id", jsonb_agg(regexp_replace("text", '^.*?(/component/)', '/component/') ORDER BY "order") AS list
      FROM "_acb_component_groups_texts" WHERE "path" = 'allowedComponents' GROUP BY "parent_id"
    ) t
    WHERE t."parent_id" = g."id";
  DROP TABLE "_acb_component_groups_texts" CASCADE;

  CREATE TABLE "_acb_site_config_parameters" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"key" varchar NOT NULL,
  	"value" varchar,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  CREATE UNIQUE INDEX "_acb_site_config_parameters_key_idx" ON "_acb_site_config_parameters" USING btree ("key");
  CREATE INDEX "_acb_site_config_parameters_updated_at_idx" ON "_acb_site_config_parameters" USING btree ("updated_at");
  CREATE INDEX "_acb_site_config_parameters_created_at_idx" ON "_acb_site_config_parameters" USING btree ("created_at");
  ALTER TABLE "payload_locked_documents_rels" ADD COLUMN "_acb_site_config_parameters_id" uuid;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_site_config_parameters_fk" FOREIGN KEY ("_acb_site_config_parameters_id") REFERENCES "public"."_acb_site_config_parameters"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "payload_locked_documents_rels__acb_site_config_parameters_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_site_config_parameters_id");
  `)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
  ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT "payload_locked_documents_rels_site_config_parameters_fk";
  DROP INDEX "payload_locked_documents_rels__acb_site_config_parameters_id_idx";
  ALTER TABLE "payload_locked_documents_rels" DROP COLUMN "_acb_site_config_parameters_id";
  DROP TABLE "_acb_site_config_parameters" CASCADE;

  CREATE TABLE "_acb_component_groups_texts" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer NOT NULL,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"text" varchar
  );
  ALTER TABLE "_acb_component_groups_texts" ADD CONSTRAINT "_acb_component_groups_texts_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_component_groups"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "_acb_component_groups_texts_order_parent" ON "_acb_component_groups_texts" USING btree ("order","parent_id");
  INSERT INTO "_acb_component_groups_texts" ("order", "parent_id", "path", "text")
    SELECT e.ordinality, g."id", 'allowedComponents', e.value
    FROM "_acb_component_groups" g, jsonb_array_elements_text(g."allowed_components") WITH ORDINALITY e(value, ordinality)
    WHERE jsonb_typeof(g."allowed_components") = 'array';
  ALTER TABLE "_acb_component_groups" DROP COLUMN "allowed_components";
  `)
}
