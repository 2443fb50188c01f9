// @ts-nocheck -- written by hand in Payload's generated form (issue 12: uploads)
import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

/**
 * The uploaded-file info records (features/uploads/info.ts): one row per
 * stored file, original or variant, with its size, type and dimensions, so
 * that `_metadata.mediaObjects` costs no storage call. Looked up by path
 * (originals) and by source (the variants of an original). Safe to run again
 * on a database that has it (every statement checks first).
 */
export async function up({ db }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
  CREATE TABLE IF NOT EXISTS "_acb_uploaded_files" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"adapter" varchar NOT NULL,
  	"path" varchar NOT NULL,
  	"source" varchar,
  	"filter" varchar,
  	"position" numeric,
  	"mime_type" varchar NOT NULL,
  	"file_size" numeric NOT NULL,
  	"width" numeric,
  	"height" numeric,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );

  ALTER TABLE "payload_locked_documents_rels" ADD COLUMN IF NOT EXISTS "_acb_uploaded_files_id" uuid;
  CREATE INDEX IF NOT EXISTS "_acb_uploaded_files_path_idx" ON "_acb_uploaded_files" USING btree ("path");
  CREATE INDEX IF NOT EXISTS "_acb_uploaded_files_source_idx" ON "_acb_uploaded_files" USING btree ("source");
  CREATE INDEX IF NOT EXISTS "_acb_uploaded_files_updated_at_idx" ON "_acb_uploaded_files" USING btree ("updated_at");
  CREATE INDEX IF NOT EXISTS "_acb_uploaded_files_created_at_idx" ON "_acb_uploaded_files" USING btree ("created_at");
  DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'payload_locked_documents_rels_uploaded_files_fk') THEN
      ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_uploaded_files_fk" FOREIGN KEY ("_acb_uploaded_files_id") REFERENCES "public"."_acb_uploaded_files"("id") ON DELETE cascade ON UPDATE no action;
    END IF;
  END $$;
  CREATE INDEX IF NOT EXISTS "payload_locked_documents_rels__acb_uploaded_files_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_uploaded_files_id");`)
}

export async function down({ db }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
  ALTER TABLE "payload_locked_documents_rels" DROP CONSTRAINT IF EXISTS "payload_locked_documents_rels_uploaded_files_fk";
  DROP INDEX IF EXISTS "payload_locked_documents_rels__acb_uploaded_files_id_idx";
  ALTER TABLE "payload_locked_documents_rels" DROP COLUMN IF EXISTS "_acb_uploaded_files_id";
  DROP TABLE IF EXISTS "_acb_uploaded_files" CASCADE;`)
}
