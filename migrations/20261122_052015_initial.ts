import { MigrateUpArgs, MigrateDownArgs, sql } from '@payloadcms/db-postgres'

export async function up({ db, payload, req }: MigrateUpArgs): Promise<void> {
  await db.execute(sql`
   CREATE TYPE "public"."enum__acb_users_roles" AS ENUM('ROLE_USER', 'ROLE_ADMIN', 'ROLE_SUPER_ADMIN');
  CREATE TABLE "_acb_users_roles" (
  	"order" integer NOT NULL,
  	"parent_id" uuid NOT NULL,
  	"value" "enum__acb_users_roles",
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL
  );
  
  CREATE TABLE "_acb_users_sessions" (
  	"_order" integer NOT NULL,
  	"_parent_id" uuid NOT NULL,
  	"id" varchar PRIMARY KEY NOT NULL,
  	"created_at" timestamp(3) with time zone,
  	"expires_at" timestamp(3) with time zone NOT NULL
  );
  
  CREATE TABLE "_acb_users" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"enabled" boolean DEFAULT true,
  	"email_address_verified" boolean DEFAULT false,
  	"new_email_address" varchar,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"email" varchar NOT NULL,
  	"username" varchar NOT NULL,
  	"reset_password_token" varchar,
  	"reset_password_expiration" timestamp(3) with time zone,
  	"salt" varchar,
  	"hash" varchar,
  	"reset_password_requested_at" timestamp(3) with time zone,
  	"login_attempts" numeric DEFAULT 0,
  	"lock_until" timestamp(3) with time zone
  );
  
  CREATE TABLE "_acb_refresh_tokens" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"user_id" uuid NOT NULL,
  	"token_hash" varchar NOT NULL,
  	"expires_at" timestamp(3) with time zone NOT NULL,
  	"revoked_at" timestamp(3) with time zone,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_acb_layouts" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"reference" varchar NOT NULL,
  	"ui_component" varchar,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_acb_layouts_texts" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer NOT NULL,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"text" varchar
  );
  
  CREATE TABLE "_acb_layouts_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"_acb_component_groups_id" uuid
  );
  
  CREATE TABLE "_acb_pages" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"title" varchar,
  	"meta_description" varchar,
  	"reference" varchar NOT NULL,
  	"ui_component" varchar,
  	"is_template" boolean DEFAULT false NOT NULL,
  	"layout_id" uuid NOT NULL,
  	"parent_page_id" uuid,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_acb_pages_texts" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer NOT NULL,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"text" varchar
  );
  
  CREATE TABLE "_acb_pages_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"_acb_blog_article_datas_id" uuid,
  	"_acb_news_article_datas_id" uuid,
  	"_acb_component_groups_id" uuid
  );
  
  CREATE TABLE "_acb_routes" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"path" varchar NOT NULL,
  	"page_id" uuid,
  	"redirect_id" uuid,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_acb_routes_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"_acb_blog_article_datas_id" uuid,
  	"_acb_news_article_datas_id" uuid
  );
  
  CREATE TABLE "_acb_component_groups" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"reference" varchar NOT NULL,
  	"location" varchar,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_acb_component_groups_texts" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer NOT NULL,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"text" varchar
  );
  
  CREATE TABLE "_acb_component_positions" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"component_group_id" uuid NOT NULL,
  	"sort_value" numeric DEFAULT 0 NOT NULL,
  	"page_data_class" varchar,
  	"page_data_property" varchar,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_acb_component_positions_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"_acb_html_contents_id" uuid,
  	"_acb_images_id" uuid,
  	"_acb_navigation_links_id" uuid,
  	"_acb_titles_id" uuid,
  	"_acb_file_downloads_id" uuid,
  	"_acb_forms_id" uuid,
  	"_acb_collections_id" uuid
  );
  
  CREATE TABLE "_acb_html_contents" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"ui_component" varchar,
  	"html" varchar,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_acb_html_contents_texts" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer NOT NULL,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"text" varchar
  );
  
  CREATE TABLE "_acb_html_contents_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"_acb_component_groups_id" uuid
  );
  
  CREATE TABLE "_acb_images" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"ui_component" varchar,
  	"filename" varchar,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_acb_images_texts" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer NOT NULL,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"text" varchar
  );
  
  CREATE TABLE "_acb_images_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"_acb_component_groups_id" uuid
  );
  
  CREATE TABLE "_acb_navigation_links" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"ui_component" varchar,
  	"label" varchar,
  	"route_id" uuid,
  	"raw_path" varchar,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_acb_navigation_links_texts" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer NOT NULL,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"text" varchar
  );
  
  CREATE TABLE "_acb_navigation_links_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"_acb_component_groups_id" uuid
  );
  
  CREATE TABLE "_acb_titles" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"ui_component" varchar,
  	"title" varchar NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_acb_titles_texts" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer NOT NULL,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"text" varchar
  );
  
  CREATE TABLE "_acb_titles_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"_acb_component_groups_id" uuid
  );
  
  CREATE TABLE "_acb_file_downloads" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"ui_component" varchar,
  	"filename" varchar,
  	"preview_filename" varchar,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_acb_file_downloads_texts" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer NOT NULL,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"text" varchar
  );
  
  CREATE TABLE "_acb_file_downloads_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"_acb_component_groups_id" uuid
  );
  
  CREATE TABLE "_acb_blog_article_datas" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"title" varchar NOT NULL,
  	"meta_description" varchar,
  	"page_id" uuid NOT NULL,
  	"parent_page_id" uuid,
  	"html_content_id" uuid,
  	"image_id" uuid,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_acb_blog_article_datas_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"_acb_blog_article_datas_id" uuid,
  	"_acb_news_article_datas_id" uuid
  );
  
  CREATE TABLE "_acb_news_article_datas" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"title" varchar NOT NULL,
  	"meta_description" varchar,
  	"page_id" uuid NOT NULL,
  	"parent_page_id" uuid,
  	"summary" varchar,
  	"image_id" uuid,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_acb_news_article_datas_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"_acb_blog_article_datas_id" uuid,
  	"_acb_news_article_datas_id" uuid
  );
  
  CREATE TABLE "_acb_newsletter_signups" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"email" varchar NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_acb_forms" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"ui_component" varchar,
  	"form_type" varchar NOT NULL,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_acb_forms_texts" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer NOT NULL,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"text" varchar
  );
  
  CREATE TABLE "_acb_forms_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"_acb_component_groups_id" uuid
  );
  
  CREATE TABLE "_acb_collections" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"ui_component" varchar,
  	"resource_iri" varchar NOT NULL,
  	"per_page" numeric,
  	"default_query_parameters" jsonb,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "_acb_collections_texts" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer NOT NULL,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"text" varchar
  );
  
  CREATE TABLE "_acb_collections_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"_acb_component_groups_id" uuid
  );
  
  CREATE TABLE "payload_kv" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"key" varchar NOT NULL,
  	"data" jsonb NOT NULL
  );
  
  CREATE TABLE "payload_locked_documents" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"global_slug" varchar,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "payload_locked_documents_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"_acb_users_id" uuid,
  	"_acb_refresh_tokens_id" uuid,
  	"_acb_layouts_id" uuid,
  	"_acb_pages_id" uuid,
  	"_acb_routes_id" uuid,
  	"_acb_component_groups_id" uuid,
  	"_acb_component_positions_id" uuid,
  	"_acb_html_contents_id" uuid,
  	"_acb_images_id" uuid,
  	"_acb_navigation_links_id" uuid,
  	"_acb_titles_id" uuid,
  	"_acb_file_downloads_id" uuid,
  	"_acb_blog_article_datas_id" uuid,
  	"_acb_news_article_datas_id" uuid,
  	"_acb_newsletter_signups_id" uuid,
  	"_acb_forms_id" uuid,
  	"_acb_collections_id" uuid
  );
  
  CREATE TABLE "payload_preferences" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"key" varchar,
  	"value" jsonb,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  CREATE TABLE "payload_preferences_rels" (
  	"id" serial PRIMARY KEY NOT NULL,
  	"order" integer,
  	"parent_id" uuid NOT NULL,
  	"path" varchar NOT NULL,
  	"_acb_users_id" uuid
  );
  
  CREATE TABLE "payload_migrations" (
  	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  	"name" varchar,
  	"batch" numeric,
  	"updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  	"created_at" timestamp(3) with time zone DEFAULT now() NOT NULL
  );
  
  ALTER TABLE "_acb_users_roles" ADD CONSTRAINT "_acb_users_roles_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_users"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_users_sessions" ADD CONSTRAINT "_acb_users_sessions_parent_id_fk" FOREIGN KEY ("_parent_id") REFERENCES "public"."_acb_users"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_refresh_tokens" ADD CONSTRAINT "_acb_refresh_tokens_user_id__acb_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."_acb_users"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_layouts_texts" ADD CONSTRAINT "_acb_layouts_texts_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_layouts"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_layouts_rels" ADD CONSTRAINT "_acb_layouts_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_layouts"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_layouts_rels" ADD CONSTRAINT "_acb_layouts_rels_component_groups_fk" FOREIGN KEY ("_acb_component_groups_id") REFERENCES "public"."_acb_component_groups"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_pages" ADD CONSTRAINT "_acb_pages_layout_id__acb_layouts_id_fk" FOREIGN KEY ("layout_id") REFERENCES "public"."_acb_layouts"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_pages" ADD CONSTRAINT "_acb_pages_parent_page_id__acb_pages_id_fk" FOREIGN KEY ("parent_page_id") REFERENCES "public"."_acb_pages"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_pages_texts" ADD CONSTRAINT "_acb_pages_texts_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_pages"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_pages_rels" ADD CONSTRAINT "_acb_pages_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_pages"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_pages_rels" ADD CONSTRAINT "_acb_pages_rels_blog_article_datas_fk" FOREIGN KEY ("_acb_blog_article_datas_id") REFERENCES "public"."_acb_blog_article_datas"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_pages_rels" ADD CONSTRAINT "_acb_pages_rels_news_article_datas_fk" FOREIGN KEY ("_acb_news_article_datas_id") REFERENCES "public"."_acb_news_article_datas"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_pages_rels" ADD CONSTRAINT "_acb_pages_rels_component_groups_fk" FOREIGN KEY ("_acb_component_groups_id") REFERENCES "public"."_acb_component_groups"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_routes" ADD CONSTRAINT "_acb_routes_page_id__acb_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."_acb_pages"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_routes" ADD CONSTRAINT "_acb_routes_redirect_id__acb_routes_id_fk" FOREIGN KEY ("redirect_id") REFERENCES "public"."_acb_routes"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_routes_rels" ADD CONSTRAINT "_acb_routes_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_routes"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_routes_rels" ADD CONSTRAINT "_acb_routes_rels_blog_article_datas_fk" FOREIGN KEY ("_acb_blog_article_datas_id") REFERENCES "public"."_acb_blog_article_datas"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_routes_rels" ADD CONSTRAINT "_acb_routes_rels_news_article_datas_fk" FOREIGN KEY ("_acb_news_article_datas_id") REFERENCES "public"."_acb_news_article_datas"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_component_groups_texts" ADD CONSTRAINT "_acb_component_groups_texts_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_component_groups"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_component_positions" ADD CONSTRAINT "_acb_component_positions_component_group_id__acb_component_groups_id_fk" FOREIGN KEY ("component_group_id") REFERENCES "public"."_acb_component_groups"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_component_positions_rels" ADD CONSTRAINT "_acb_component_positions_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_component_positions"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_component_positions_rels" ADD CONSTRAINT "_acb_component_positions_rels_html_contents_fk" FOREIGN KEY ("_acb_html_contents_id") REFERENCES "public"."_acb_html_contents"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_component_positions_rels" ADD CONSTRAINT "_acb_component_positions_rels_images_fk" FOREIGN KEY ("_acb_images_id") REFERENCES "public"."_acb_images"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_component_positions_rels" ADD CONSTRAINT "_acb_component_positions_rels_navigation_links_fk" FOREIGN KEY ("_acb_navigation_links_id") REFERENCES "public"."_acb_navigation_links"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_component_positions_rels" ADD CONSTRAINT "_acb_component_positions_rels_titles_fk" FOREIGN KEY ("_acb_titles_id") REFERENCES "public"."_acb_titles"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_component_positions_rels" ADD CONSTRAINT "_acb_component_positions_rels_file_downloads_fk" FOREIGN KEY ("_acb_file_downloads_id") REFERENCES "public"."_acb_file_downloads"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_component_positions_rels" ADD CONSTRAINT "_acb_component_positions_rels_forms_fk" FOREIGN KEY ("_acb_forms_id") REFERENCES "public"."_acb_forms"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_component_positions_rels" ADD CONSTRAINT "_acb_component_positions_rels_collections_fk" FOREIGN KEY ("_acb_collections_id") REFERENCES "public"."_acb_collections"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_html_contents_texts" ADD CONSTRAINT "_acb_html_contents_texts_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_html_contents"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_html_contents_rels" ADD CONSTRAINT "_acb_html_contents_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_html_contents"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_html_contents_rels" ADD CONSTRAINT "_acb_html_contents_rels_component_groups_fk" FOREIGN KEY ("_acb_component_groups_id") REFERENCES "public"."_acb_component_groups"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_images_texts" ADD CONSTRAINT "_acb_images_texts_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_images"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_images_rels" ADD CONSTRAINT "_acb_images_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_images"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_images_rels" ADD CONSTRAINT "_acb_images_rels_component_groups_fk" FOREIGN KEY ("_acb_component_groups_id") REFERENCES "public"."_acb_component_groups"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_navigation_links" ADD CONSTRAINT "_acb_navigation_links_route_id__acb_routes_id_fk" FOREIGN KEY ("route_id") REFERENCES "public"."_acb_routes"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_navigation_links_texts" ADD CONSTRAINT "_acb_navigation_links_texts_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_navigation_links"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_navigation_links_rels" ADD CONSTRAINT "_acb_navigation_links_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_navigation_links"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_navigation_links_rels" ADD CONSTRAINT "_acb_navigation_links_rels_component_groups_fk" FOREIGN KEY ("_acb_component_groups_id") REFERENCES "public"."_acb_component_groups"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_titles_texts" ADD CONSTRAINT "_acb_titles_texts_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_titles"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_titles_rels" ADD CONSTRAINT "_acb_titles_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_titles"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_titles_rels" ADD CONSTRAINT "_acb_titles_rels_component_groups_fk" FOREIGN KEY ("_acb_component_groups_id") REFERENCES "public"."_acb_component_groups"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_file_downloads_texts" ADD CONSTRAINT "_acb_file_downloads_texts_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_file_downloads"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_file_downloads_rels" ADD CONSTRAINT "_acb_file_downloads_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_file_downloads"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_file_downloads_rels" ADD CONSTRAINT "_acb_file_downloads_rels_component_groups_fk" FOREIGN KEY ("_acb_component_groups_id") REFERENCES "public"."_acb_component_groups"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_blog_article_datas" ADD CONSTRAINT "_acb_blog_article_datas_page_id__acb_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."_acb_pages"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_blog_article_datas" ADD CONSTRAINT "_acb_blog_article_datas_parent_page_id__acb_pages_id_fk" FOREIGN KEY ("parent_page_id") REFERENCES "public"."_acb_pages"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_blog_article_datas" ADD CONSTRAINT "_acb_blog_article_datas_html_content_id__acb_html_contents_id_fk" FOREIGN KEY ("html_content_id") REFERENCES "public"."_acb_html_contents"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_blog_article_datas" ADD CONSTRAINT "_acb_blog_article_datas_image_id__acb_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."_acb_images"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_blog_article_datas_rels" ADD CONSTRAINT "_acb_blog_article_datas_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_blog_article_datas"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_blog_article_datas_rels" ADD CONSTRAINT "_acb_blog_article_datas_rels_blog_article_datas_fk" FOREIGN KEY ("_acb_blog_article_datas_id") REFERENCES "public"."_acb_blog_article_datas"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_blog_article_datas_rels" ADD CONSTRAINT "_acb_blog_article_datas_rels_news_article_datas_fk" FOREIGN KEY ("_acb_news_article_datas_id") REFERENCES "public"."_acb_news_article_datas"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_news_article_datas" ADD CONSTRAINT "_acb_news_article_datas_page_id__acb_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."_acb_pages"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_news_article_datas" ADD CONSTRAINT "_acb_news_article_datas_parent_page_id__acb_pages_id_fk" FOREIGN KEY ("parent_page_id") REFERENCES "public"."_acb_pages"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_news_article_datas" ADD CONSTRAINT "_acb_news_article_datas_image_id__acb_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."_acb_images"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_news_article_datas_rels" ADD CONSTRAINT "_acb_news_article_datas_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_news_article_datas"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_news_article_datas_rels" ADD CONSTRAINT "_acb_news_article_datas_rels_blog_article_datas_fk" FOREIGN KEY ("_acb_blog_article_datas_id") REFERENCES "public"."_acb_blog_article_datas"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_news_article_datas_rels" ADD CONSTRAINT "_acb_news_article_datas_rels_news_article_datas_fk" FOREIGN KEY ("_acb_news_article_datas_id") REFERENCES "public"."_acb_news_article_datas"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_forms_texts" ADD CONSTRAINT "_acb_forms_texts_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_forms"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_forms_rels" ADD CONSTRAINT "_acb_forms_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_forms"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_forms_rels" ADD CONSTRAINT "_acb_forms_rels_component_groups_fk" FOREIGN KEY ("_acb_component_groups_id") REFERENCES "public"."_acb_component_groups"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_collections_texts" ADD CONSTRAINT "_acb_collections_texts_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_collections"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_collections_rels" ADD CONSTRAINT "_acb_collections_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."_acb_collections"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "_acb_collections_rels" ADD CONSTRAINT "_acb_collections_rels_component_groups_fk" FOREIGN KEY ("_acb_component_groups_id") REFERENCES "public"."_acb_component_groups"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."payload_locked_documents"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_users_fk" FOREIGN KEY ("_acb_users_id") REFERENCES "public"."_acb_users"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_refresh_tokens_fk" FOREIGN KEY ("_acb_refresh_tokens_id") REFERENCES "public"."_acb_refresh_tokens"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_layouts_fk" FOREIGN KEY ("_acb_layouts_id") REFERENCES "public"."_acb_layouts"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_pages_fk" FOREIGN KEY ("_acb_pages_id") REFERENCES "public"."_acb_pages"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_routes_fk" FOREIGN KEY ("_acb_routes_id") REFERENCES "public"."_acb_routes"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_component_groups_fk" FOREIGN KEY ("_acb_component_groups_id") REFERENCES "public"."_acb_component_groups"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_component_positions_fk" FOREIGN KEY ("_acb_component_positions_id") REFERENCES "public"."_acb_component_positions"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_html_contents_fk" FOREIGN KEY ("_acb_html_contents_id") REFERENCES "public"."_acb_html_contents"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_images_fk" FOREIGN KEY ("_acb_images_id") REFERENCES "public"."_acb_images"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_navigation_links_fk" FOREIGN KEY ("_acb_navigation_links_id") REFERENCES "public"."_acb_navigation_links"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_titles_fk" FOREIGN KEY ("_acb_titles_id") REFERENCES "public"."_acb_titles"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_file_downloads_fk" FOREIGN KEY ("_acb_file_downloads_id") REFERENCES "public"."_acb_file_downloads"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_blog_article_datas_fk" FOREIGN KEY ("_acb_blog_article_datas_id") REFERENCES "public"."_acb_blog_article_datas"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_news_article_datas_fk" FOREIGN KEY ("_acb_news_article_datas_id") REFERENCES "public"."_acb_news_article_datas"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_newsletter_signups_fk" FOREIGN KEY ("_acb_newsletter_signups_id") REFERENCES "public"."_acb_newsletter_signups"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_forms_fk" FOREIGN KEY ("_acb_forms_id") REFERENCES "public"."_acb_forms"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_locked_documents_rels" ADD CONSTRAINT "payload_locked_documents_rels_collections_fk" FOREIGN KEY ("_acb_collections_id") REFERENCES "public"."_acb_collections"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_preferences_rels" ADD CONSTRAINT "payload_preferences_rels_parent_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."payload_preferences"("id") ON DELETE cascade ON UPDATE no action;
  ALTER TABLE "payload_preferences_rels" ADD CONSTRAINT "payload_preferences_rels_users_fk" FOREIGN KEY ("_acb_users_id") REFERENCES "public"."_acb_users"("id") ON DELETE cascade ON UPDATE no action;
  CREATE INDEX "_acb_users_roles_order_idx" ON "_acb_users_roles" USING btree ("order");
  CREATE INDEX "_acb_users_roles_parent_idx" ON "_acb_users_roles" USING btree ("parent_id");
  CREATE INDEX "_acb_users_sessions_order_idx" ON "_acb_users_sessions" USING btree ("_order");
  CREATE INDEX "_acb_users_sessions_parent_id_idx" ON "_acb_users_sessions" USING btree ("_parent_id");
  CREATE INDEX "_acb_users_updated_at_idx" ON "_acb_users" USING btree ("updated_at");
  CREATE INDEX "_acb_users_created_at_idx" ON "_acb_users" USING btree ("created_at");
  CREATE UNIQUE INDEX "_acb_users_email_idx" ON "_acb_users" USING btree ("email");
  CREATE UNIQUE INDEX "_acb_users_username_idx" ON "_acb_users" USING btree ("username");
  CREATE INDEX "_acb_refresh_tokens_user_idx" ON "_acb_refresh_tokens" USING btree ("user_id");
  CREATE UNIQUE INDEX "_acb_refresh_tokens_token_hash_idx" ON "_acb_refresh_tokens" USING btree ("token_hash");
  CREATE INDEX "_acb_refresh_tokens_expires_at_idx" ON "_acb_refresh_tokens" USING btree ("expires_at");
  CREATE INDEX "_acb_refresh_tokens_updated_at_idx" ON "_acb_refresh_tokens" USING btree ("updated_at");
  CREATE INDEX "_acb_refresh_tokens_created_at_idx" ON "_acb_refresh_tokens" USING btree ("created_at");
  CREATE UNIQUE INDEX "_acb_layouts_reference_idx" ON "_acb_layouts" USING btree ("reference");
  CREATE INDEX "_acb_layouts_updated_at_idx" ON "_acb_layouts" USING btree ("updated_at");
  CREATE INDEX "_acb_layouts_created_at_idx" ON "_acb_layouts" USING btree ("created_at");
  CREATE INDEX "_acb_layouts_texts_order_parent" ON "_acb_layouts_texts" USING btree ("order","parent_id");
  CREATE INDEX "_acb_layouts_rels_order_idx" ON "_acb_layouts_rels" USING btree ("order");
  CREATE INDEX "_acb_layouts_rels_parent_idx" ON "_acb_layouts_rels" USING btree ("parent_id");
  CREATE INDEX "_acb_layouts_rels_path_idx" ON "_acb_layouts_rels" USING btree ("path");
  CREATE INDEX "_acb_layouts_rels__acb_component_groups_id_idx" ON "_acb_layouts_rels" USING btree ("_acb_component_groups_id");
  CREATE UNIQUE INDEX "_acb_pages_reference_idx" ON "_acb_pages" USING btree ("reference");
  CREATE INDEX "_acb_pages_layout_idx" ON "_acb_pages" USING btree ("layout_id");
  CREATE INDEX "_acb_pages_parent_page_idx" ON "_acb_pages" USING btree ("parent_page_id");
  CREATE INDEX "_acb_pages_updated_at_idx" ON "_acb_pages" USING btree ("updated_at");
  CREATE INDEX "_acb_pages_created_at_idx" ON "_acb_pages" USING btree ("created_at");
  CREATE INDEX "_acb_pages_texts_order_parent" ON "_acb_pages_texts" USING btree ("order","parent_id");
  CREATE INDEX "_acb_pages_rels_order_idx" ON "_acb_pages_rels" USING btree ("order");
  CREATE INDEX "_acb_pages_rels_parent_idx" ON "_acb_pages_rels" USING btree ("parent_id");
  CREATE INDEX "_acb_pages_rels_path_idx" ON "_acb_pages_rels" USING btree ("path");
  CREATE INDEX "_acb_pages_rels__acb_blog_article_datas_id_idx" ON "_acb_pages_rels" USING btree ("_acb_blog_article_datas_id");
  CREATE INDEX "_acb_pages_rels__acb_news_article_datas_id_idx" ON "_acb_pages_rels" USING btree ("_acb_news_article_datas_id");
  CREATE INDEX "_acb_pages_rels__acb_component_groups_id_idx" ON "_acb_pages_rels" USING btree ("_acb_component_groups_id");
  CREATE UNIQUE INDEX "_acb_routes_path_idx" ON "_acb_routes" USING btree ("path");
  CREATE INDEX "_acb_routes_page_idx" ON "_acb_routes" USING btree ("page_id");
  CREATE INDEX "_acb_routes_redirect_idx" ON "_acb_routes" USING btree ("redirect_id");
  CREATE INDEX "_acb_routes_updated_at_idx" ON "_acb_routes" USING btree ("updated_at");
  CREATE INDEX "_acb_routes_created_at_idx" ON "_acb_routes" USING btree ("created_at");
  CREATE INDEX "_acb_routes_rels_order_idx" ON "_acb_routes_rels" USING btree ("order");
  CREATE INDEX "_acb_routes_rels_parent_idx" ON "_acb_routes_rels" USING btree ("parent_id");
  CREATE INDEX "_acb_routes_rels_path_idx" ON "_acb_routes_rels" USING btree ("path");
  CREATE INDEX "_acb_routes_rels__acb_blog_article_datas_id_idx" ON "_acb_routes_rels" USING btree ("_acb_blog_article_datas_id");
  CREATE INDEX "_acb_routes_rels__acb_news_article_datas_id_idx" ON "_acb_routes_rels" USING btree ("_acb_news_article_datas_id");
  CREATE UNIQUE INDEX "_acb_component_groups_reference_idx" ON "_acb_component_groups" USING btree ("reference");
  CREATE INDEX "_acb_component_groups_updated_at_idx" ON "_acb_component_groups" USING btree ("updated_at");
  CREATE INDEX "_acb_component_groups_created_at_idx" ON "_acb_component_groups" USING btree ("created_at");
  CREATE INDEX "_acb_component_groups_texts_order_parent" ON "_acb_component_groups_texts" USING btree ("order","parent_id");
  CREATE INDEX "_acb_component_positions_component_group_idx" ON "_acb_component_positions" USING btree ("component_group_id");
  CREATE INDEX "_acb_component_positions_updated_at_idx" ON "_acb_component_positions" USING btree ("updated_at");
  CREATE INDEX "_acb_component_positions_created_at_idx" ON "_acb_component_positions" USING btree ("created_at");
  CREATE INDEX "_acb_component_positions_rels_order_idx" ON "_acb_component_positions_rels" USING btree ("order");
  CREATE INDEX "_acb_component_positions_rels_parent_idx" ON "_acb_component_positions_rels" USING btree ("parent_id");
  CREATE INDEX "_acb_component_positions_rels_path_idx" ON "_acb_component_positions_rels" USING btree ("path");
  CREATE INDEX "_acb_component_positions_rels__acb_html_contents_id_idx" ON "_acb_component_positions_rels" USING btree ("_acb_html_contents_id");
  CREATE INDEX "_acb_component_positions_rels__acb_images_id_idx" ON "_acb_component_positions_rels" USING btree ("_acb_images_id");
  CREATE INDEX "_acb_component_positions_rels__acb_navigation_links_id_idx" ON "_acb_component_positions_rels" USING btree ("_acb_navigation_links_id");
  CREATE INDEX "_acb_component_positions_rels__acb_titles_id_idx" ON "_acb_component_positions_rels" USING btree ("_acb_titles_id");
  CREATE INDEX "_acb_component_positions_rels__acb_file_downloads_id_idx" ON "_acb_component_positions_rels" USING btree ("_acb_file_downloads_id");
  CREATE INDEX "_acb_component_positions_rels__acb_forms_id_idx" ON "_acb_component_positions_rels" USING btree ("_acb_forms_id");
  CREATE INDEX "_acb_component_positions_rels__acb_collections_id_idx" ON "_acb_component_positions_rels" USING btree ("_acb_collections_id");
  CREATE INDEX "_acb_html_contents_updated_at_idx" ON "_acb_html_contents" USING btree ("updated_at");
  CREATE INDEX "_acb_html_contents_created_at_idx" ON "_acb_html_contents" USING btree ("created_at");
  CREATE INDEX "_acb_html_contents_texts_order_parent" ON "_acb_html_contents_texts" USING btree ("order","parent_id");
  CREATE INDEX "_acb_html_contents_rels_order_idx" ON "_acb_html_contents_rels" USING btree ("order");
  CREATE INDEX "_acb_html_contents_rels_parent_idx" ON "_acb_html_contents_rels" USING btree ("parent_id");
  CREATE INDEX "_acb_html_contents_rels_path_idx" ON "_acb_html_contents_rels" USING btree ("path");
  CREATE INDEX "_acb_html_contents_rels__acb_component_groups_id_idx" ON "_acb_html_contents_rels" USING btree ("_acb_component_groups_id");
  CREATE INDEX "_acb_images_updated_at_idx" ON "_acb_images" USING btree ("updated_at");
  CREATE INDEX "_acb_images_created_at_idx" ON "_acb_images" USING btree ("created_at");
  CREATE INDEX "_acb_images_texts_order_parent" ON "_acb_images_texts" USING btree ("order","parent_id");
  CREATE INDEX "_acb_images_rels_order_idx" ON "_acb_images_rels" USING btree ("order");
  CREATE INDEX "_acb_images_rels_parent_idx" ON "_acb_images_rels" USING btree ("parent_id");
  CREATE INDEX "_acb_images_rels_path_idx" ON "_acb_images_rels" USING btree ("path");
  CREATE INDEX "_acb_images_rels__acb_component_groups_id_idx" ON "_acb_images_rels" USING btree ("_acb_component_groups_id");
  CREATE INDEX "_acb_navigation_links_route_idx" ON "_acb_navigation_links" USING btree ("route_id");
  CREATE INDEX "_acb_navigation_links_updated_at_idx" ON "_acb_navigation_links" USING btree ("updated_at");
  CREATE INDEX "_acb_navigation_links_created_at_idx" ON "_acb_navigation_links" USING btree ("created_at");
  CREATE INDEX "_acb_navigation_links_texts_order_parent" ON "_acb_navigation_links_texts" USING btree ("order","parent_id");
  CREATE INDEX "_acb_navigation_links_rels_order_idx" ON "_acb_navigation_links_rels" USING btree ("order");
  CREATE INDEX "_acb_navigation_links_rels_parent_idx" ON "_acb_navigation_links_rels" USING btree ("parent_id");
  CREATE INDEX "_acb_navigation_links_rels_path_idx" ON "_acb_navigation_links_rels" USING btree ("path");
  CREATE INDEX "_acb_navigation_links_rels__acb_component_groups_id_idx" ON "_acb_navigation_links_rels" USING btree ("_acb_component_groups_id");
  CREATE INDEX "_acb_titles_updated_at_idx" ON "_acb_titles" USING btree ("updated_at");
  CREATE INDEX "_acb_titles_created_at_idx" ON "_acb_titles" USING btree ("created_at");
  CREATE INDEX "_acb_titles_texts_order_parent" ON "_acb_titles_texts" USING btree ("order","parent_id");
  CREATE INDEX "_acb_titles_rels_order_idx" ON "_acb_titles_rels" USING btree ("order");
  CREATE INDEX "_acb_titles_rels_parent_idx" ON "_acb_titles_rels" USING btree ("parent_id");
  CREATE INDEX "_acb_titles_rels_path_idx" ON "_acb_titles_rels" USING btree ("path");
  CREATE INDEX "_acb_titles_rels__acb_component_groups_id_idx" ON "_acb_titles_rels" USING btree ("_acb_component_groups_id");
  CREATE INDEX "_acb_file_downloads_updated_at_idx" ON "_acb_file_downloads" USING btree ("updated_at");
  CREATE INDEX "_acb_file_downloads_created_at_idx" ON "_acb_file_downloads" USING btree ("created_at");
  CREATE INDEX "_acb_file_downloads_texts_order_parent" ON "_acb_file_downloads_texts" USING btree ("order","parent_id");
  CREATE INDEX "_acb_file_downloads_rels_order_idx" ON "_acb_file_downloads_rels" USING btree ("order");
  CREATE INDEX "_acb_file_downloads_rels_parent_idx" ON "_acb_file_downloads_rels" USING btree ("parent_id");
  CREATE INDEX "_acb_file_downloads_rels_path_idx" ON "_acb_file_downloads_rels" USING btree ("path");
  CREATE INDEX "_acb_file_downloads_rels__acb_component_groups_id_idx" ON "_acb_file_downloads_rels" USING btree ("_acb_component_groups_id");
  CREATE INDEX "_acb_blog_article_datas_page_idx" ON "_acb_blog_article_datas" USING btree ("page_id");
  CREATE INDEX "_acb_blog_article_datas_parent_page_idx" ON "_acb_blog_article_datas" USING btree ("parent_page_id");
  CREATE INDEX "_acb_blog_article_datas_html_content_idx" ON "_acb_blog_article_datas" USING btree ("html_content_id");
  CREATE INDEX "_acb_blog_article_datas_image_idx" ON "_acb_blog_article_datas" USING btree ("image_id");
  CREATE INDEX "_acb_blog_article_datas_updated_at_idx" ON "_acb_blog_article_datas" USING btree ("updated_at");
  CREATE INDEX "_acb_blog_article_datas_created_at_idx" ON "_acb_blog_article_datas" USING btree ("created_at");
  CREATE INDEX "_acb_blog_article_datas_rels_order_idx" ON "_acb_blog_article_datas_rels" USING btree ("order");
  CREATE INDEX "_acb_blog_article_datas_rels_parent_idx" ON "_acb_blog_article_datas_rels" USING btree ("parent_id");
  CREATE INDEX "_acb_blog_article_datas_rels_path_idx" ON "_acb_blog_article_datas_rels" USING btree ("path");
  CREATE INDEX "_acb_blog_article_datas_rels__acb_blog_article_datas_id_idx" ON "_acb_blog_article_datas_rels" USING btree ("_acb_blog_article_datas_id");
  CREATE INDEX "_acb_blog_article_datas_rels__acb_news_article_datas_id_idx" ON "_acb_blog_article_datas_rels" USING btree ("_acb_news_article_datas_id");
  CREATE INDEX "_acb_news_article_datas_page_idx" ON "_acb_news_article_datas" USING btree ("page_id");
  CREATE INDEX "_acb_news_article_datas_parent_page_idx" ON "_acb_news_article_datas" USING btree ("parent_page_id");
  CREATE INDEX "_acb_news_article_datas_image_idx" ON "_acb_news_article_datas" USING btree ("image_id");
  CREATE INDEX "_acb_news_article_datas_updated_at_idx" ON "_acb_news_article_datas" USING btree ("updated_at");
  CREATE INDEX "_acb_news_article_datas_created_at_idx" ON "_acb_news_article_datas" USING btree ("created_at");
  CREATE INDEX "_acb_news_article_datas_rels_order_idx" ON "_acb_news_article_datas_rels" USING btree ("order");
  CREATE INDEX "_acb_news_article_datas_rels_parent_idx" ON "_acb_news_article_datas_rels" USING btree ("parent_id");
  CREATE INDEX "_acb_news_article_datas_rels_path_idx" ON "_acb_news_article_datas_rels" USING btree ("path");
  CREATE INDEX "_acb_news_article_datas_rels__acb_blog_article_datas_id_idx" ON "_acb_news_article_datas_rels" USING btree ("_acb_blog_article_datas_id");
  CREATE INDEX "_acb_news_article_datas_rels__acb_news_article_datas_id_idx" ON "_acb_news_article_datas_rels" USING btree ("_acb_news_article_datas_id");
  CREATE INDEX "_acb_newsletter_signups_updated_at_idx" ON "_acb_newsletter_signups" USING btree ("updated_at");
  CREATE INDEX "_acb_newsletter_signups_created_at_idx" ON "_acb_newsletter_signups" USING btree ("created_at");
  CREATE INDEX "_acb_forms_updated_at_idx" ON "_acb_forms" USING btree ("updated_at");
  CREATE INDEX "_acb_forms_created_at_idx" ON "_acb_forms" USING btree ("created_at");
  CREATE INDEX "_acb_forms_texts_order_parent" ON "_acb_forms_texts" USING btree ("order","parent_id");
  CREATE INDEX "_acb_forms_rels_order_idx" ON "_acb_forms_rels" USING btree ("order");
  CREATE INDEX "_acb_forms_rels_parent_idx" ON "_acb_forms_rels" USING btree ("parent_id");
  CREATE INDEX "_acb_forms_rels_path_idx" ON "_acb_forms_rels" USING btree ("path");
  CREATE INDEX "_acb_forms_rels__acb_component_groups_id_idx" ON "_acb_forms_rels" USING btree ("_acb_component_groups_id");
  CREATE INDEX "_acb_collections_updated_at_idx" ON "_acb_collections" USING btree ("updated_at");
  CREATE INDEX "_acb_collections_created_at_idx" ON "_acb_collections" USING btree ("created_at");
  CREATE INDEX "_acb_collections_texts_order_parent" ON "_acb_collections_texts" USING btree ("order","parent_id");
  CREATE INDEX "_acb_collections_rels_order_idx" ON "_acb_collections_rels" USING btree ("order");
  CREATE INDEX "_acb_collections_rels_parent_idx" ON "_acb_collections_rels" USING btree ("parent_id");
  CREATE INDEX "_acb_collections_rels_path_idx" ON "_acb_collections_rels" USING btree ("path");
  CREATE INDEX "_acb_collections_rels__acb_component_groups_id_idx" ON "_acb_collections_rels" USING btree ("_acb_component_groups_id");
  CREATE UNIQUE INDEX "payload_kv_key_idx" ON "payload_kv" USING btree ("key");
  CREATE INDEX "payload_locked_documents_global_slug_idx" ON "payload_locked_documents" USING btree ("global_slug");
  CREATE INDEX "payload_locked_documents_updated_at_idx" ON "payload_locked_documents" USING btree ("updated_at");
  CREATE INDEX "payload_locked_documents_created_at_idx" ON "payload_locked_documents" USING btree ("created_at");
  CREATE INDEX "payload_locked_documents_rels_order_idx" ON "payload_locked_documents_rels" USING btree ("order");
  CREATE INDEX "payload_locked_documents_rels_parent_idx" ON "payload_locked_documents_rels" USING btree ("parent_id");
  CREATE INDEX "payload_locked_documents_rels_path_idx" ON "payload_locked_documents_rels" USING btree ("path");
  CREATE INDEX "payload_locked_documents_rels__acb_users_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_users_id");
  CREATE INDEX "payload_locked_documents_rels__acb_refresh_tokens_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_refresh_tokens_id");
  CREATE INDEX "payload_locked_documents_rels__acb_layouts_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_layouts_id");
  CREATE INDEX "payload_locked_documents_rels__acb_pages_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_pages_id");
  CREATE INDEX "payload_locked_documents_rels__acb_routes_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_routes_id");
  CREATE INDEX "payload_locked_documents_rels__acb_component_groups_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_component_groups_id");
  CREATE INDEX "payload_locked_documents_rels__acb_component_positions_i_idx" ON "payload_locked_documents_rels" USING btree ("_acb_component_positions_id");
  CREATE INDEX "payload_locked_documents_rels__acb_html_contents_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_html_contents_id");
  CREATE INDEX "payload_locked_documents_rels__acb_images_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_images_id");
  CREATE INDEX "payload_locked_documents_rels__acb_navigation_links_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_navigation_links_id");
  CREATE INDEX "payload_locked_documents_rels__acb_titles_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_titles_id");
  CREATE INDEX "payload_locked_documents_rels__acb_file_downloads_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_file_downloads_id");
  CREATE INDEX "payload_locked_documents_rels__acb_blog_article_datas_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_blog_article_datas_id");
  CREATE INDEX "payload_locked_documents_rels__acb_news_article_datas_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_news_article_datas_id");
  CREATE INDEX "payload_locked_documents_rels__acb_newsletter_signups_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_newsletter_signups_id");
  CREATE INDEX "payload_locked_documents_rels__acb_forms_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_forms_id");
  CREATE INDEX "payload_locked_documents_rels__acb_collections_id_idx" ON "payload_locked_documents_rels" USING btree ("_acb_collections_id");
  CREATE INDEX "payload_preferences_key_idx" ON "payload_preferences" USING btree ("key");
  CREATE INDEX "payload_preferences_updated_at_idx" ON "payload_preferences" USING btree ("updated_at");
  CREATE INDEX "payload_preferences_created_at_idx" ON "payload_preferences" USING btree ("created_at");
  CREATE INDEX "payload_preferences_rels_order_idx" ON "payload_preferences_rels" USING btree ("order");
  CREATE INDEX "payload_preferences_rels_parent_idx" ON "payload_preferences_rels" USING btree ("parent_id");
  CREATE INDEX "payload_preferences_rels_path_idx" ON "payload_preferences_rels" USING btree ("path");
  CREATE INDEX "payload_preferences_rels__acb_users_id_idx" ON "payload_preferences_rels" USING btree ("_acb_users_id");
  CREATE INDEX "payload_migrations_updated_at_idx" ON "payload_migrations" USING btree ("updated_at");
  CREATE INDEX "payload_migrations_created_at_idx" ON "payload_migrations" USING btree ("created_at");`)
}

export async function down({ db, payload, req }: MigrateDownArgs): Promise<void> {
  await db.execute(sql`
   DROP TABLE "_acb_users_roles" CASCADE;
  DROP TABLE "_acb_users_sessions" CASCADE;
  DROP TABLE "_acb_users" CASCADE;
  DROP TABLE "_acb_refresh_tokens" CASCADE;
  DROP TABLE "_acb_layouts" CASCADE;
  DROP TABLE "_acb_layouts_texts" CASCADE;
  DROP TABLE "_acb_layouts_rels" CASCADE;
  DROP TABLE "_acb_pages" CASCADE;
  DROP TABLE "_acb_pages_texts" CASCADE;
  DROP TABLE "_acb_pages_rels" CASCADE;
  DROP TABLE "_acb_routes" CASCADE;
  DROP TABLE "_acb_routes_rels" CASCADE;
  DROP TABLE "_acb_component_groups" CASCADE;
  DROP TABLE "_acb_component_groups_texts" CASCADE;
  DROP TABLE "_acb_component_positions" CASCADE;
  DROP TABLE "_acb_component_positions_rels" CASCADE;
  DROP TABLE "_acb_html_contents" CASCADE;
  DROP TABLE "_acb_html_contents_texts" CASCADE;
  DROP TABLE "_acb_html_contents_rels" CASCADE;
  DROP TABLE "_acb_images" CASCADE;
  DROP TABLE "_acb_images_texts" CASCADE;
  DROP TABLE "_acb_images_rels" CASCADE;
  DROP TABLE "_acb_navigation_links" CASCADE;
  DROP TABLE "_acb_navigation_links_texts" CASCADE;
  DROP TABLE "_acb_navigation_links_rels" CASCADE;
  DROP TABLE "_acb_titles" CASCADE;
  DROP TABLE "_acb_titles_texts" CASCADE;
  DROP TABLE "_acb_titles_rels" CASCADE;
  DROP TABLE "_acb_file_downloads" CASCADE;
  DROP TABLE "_acb_file_downloads_texts" CASCADE;
  DROP TABLE "_acb_file_downloads_rels" CASCADE;
  DROP TABLE "_acb_blog_article_datas" CASCADE;
  DROP TABLE "_acb_blog_article_datas_rels" CASCADE;
  DROP TABLE "_acb_news_article_datas" CASCADE;
  DROP TABLE "_acb_news_article_datas_rels" CASCADE;
  DROP TABLE "_acb_newsletter_signups" CASCADE;
  DROP TABLE "_acb_forms" CASCADE;
  DROP TABLE "_acb_forms_texts" CASCADE;
  DROP TABLE "_acb_forms_rels" CASCADE;
  DROP TABLE "_acb_collections" CASCADE;
  DROP TABLE "_acb_collections_texts" CASCADE;
  DROP TABLE "_acb_collections_rels" CASCADE;
  DROP TABLE "payload_kv" CASCADE;
  DROP TABLE "payload_locked_documents" CASCADE;
  DROP TABLE "payload_locked_documents_rels" CASCADE;
  DROP TABLE "payload_preferences" CASCADE;
  DROP TABLE "payload_preferences_rels" CASCADE;
  DROP TABLE "payload_migrations" CASCADE;
  DROP TYPE "public"."enum__acb_users_roles";`)
}
