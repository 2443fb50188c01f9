/**
 * Where the collections find the library's admin panel components: the
 * client entry 'payload-cwa/admin' (plugins/cwa/admin.ts), named as
 * `${ADMIN_COMPONENTS}#Export`. Payload's import map resolves it in the app
 * (tsconfig `paths` here; the package's export map once published).
 */
export const ADMIN_COMPONENTS = 'payload-cwa/admin'
