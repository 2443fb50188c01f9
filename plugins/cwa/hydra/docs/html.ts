import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { escapeMarkup } from '../../core/utils/escape.js'

/**
 * The interactive API documentation: Swagger UI's files, copied into the
 * package at build time (dist/swagger-ui/, scripts/build.mjs; no CDN, and no
 * swagger-ui-dist among the dependencies), served under {prefix}/docs/assets/.
 * The page holds no inline script or style, so a strict CSP
 * (`script-src 'self'; style-src 'self'`) does not block it: Swagger UI is
 * started by {prefix}/docs/assets/init.js (docsInitScript).
 */

/** Absolute path of the folder of Swagger UI's files (swagger-ui-bundle.js, swagger-ui.css...): dist/swagger-ui/. */
export function swaggerAssetsDir(): string {
  // Not `new URL('…', import.meta.url)`: a bundler (Next.js) would take that for an asset of its own to emit.
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'swagger-ui')
}

const escapeHtml = escapeMarkup

/** A JSON string literal safe inside a script (no `</script>`, no line separators). */
function jsString(value: string): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/** The HTML page of {prefix}/docs. */
export function docsHtml(opts: { apiPrefix: string; title: string }): string {
  const assets = escapeHtml(`${opts.apiPrefix}/docs/assets`)
  const title = escapeHtml(opts.title)
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
`
}

/** The script served as {prefix}/docs/assets/init.js: starts Swagger UI on {prefix}/docs.json. */
export function docsInitScript(apiPrefix: string): string {
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
`
}
