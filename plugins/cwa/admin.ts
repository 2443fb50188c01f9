/**
 * The library's admin panel components ('payload-cwa/admin'): the
 * components the collections and admin views name by path
 * (`payload-cwa/admin#Name`), kept apart from the front door (index.ts) so
 * that the panel's browser bundle never pulls in the server code. One line
 * per feature: each lists its components in its admin/ folder's index.ts
 * (the admin feature's own in components/index.ts). Client components carry
 * 'use client'; the views and the start panel render on the server.
 */
export * from './features/admin/components/index.js'
export * from './features/orphans/admin/index.js'
export * from './features/publishable/admin/index.js'
export * from './features/routes/admin/index.js'
export * from './features/uploads/admin/index.js'
