import type { SanitizedConfig } from 'payload'

/**
 * The Payload config, imported on first use rather than when Next.js loads a
 * route module. `next build` loads every route module (to read its segment
 * config) with NODE_ENV=production; importing payload.config.ts there would
 * run buildSiteConfig(), which needs PAYLOAD_SECRET, reads CWA_CONFIG_FILE...
 * Deferring the import keeps the build independent of runtime settings, the
 * database included. The module is evaluated once; every call resolves to the
 * same config.
 */
export const loadConfig = (): Promise<SanitizedConfig> => import('@payload-config').then((module) => module.default)
