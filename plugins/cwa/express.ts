/**
 * 'payload-cwa/express': the API (and Payload's REST API) served by Express.
 * Apart from the front door because Express is an optional peer dependency:
 * an app on Payload's Next.js template never installs it.
 */
export { type AppOptions, createApp, cwaExpress } from './server/express.js'
