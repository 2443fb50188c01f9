/**
 * Issue 37: an app's own `users` collection (Payload's blank template declares one: email auth, no username, no
 * roles) no longer silently replaces the plugin's, which left `cwa:user:create` failing on "The following path
 * cannot be queried: username". It is merged with the plugin's (sign-in by username, roles, enabled, access rules,
 * hooks), keeping its table and its own fields; what cannot be merged without weakening the plugin's rules is refused
 * at config time with a message naming what to change. No database: the config cwaPlugin returns.
 */
import { describe, expect, it } from '@jest/globals'
import type { CollectionConfig, Config } from 'payload'
import { cwaPlugin } from 'payload-cwa'

/** src/collections/Users.ts of Payload's blank template (3.x), as published. */
const TemplateUsers: CollectionConfig = {
  slug: 'users',
  admin: { useAsTitle: 'email' },
  auth: true,
  fields: [
    // Email added by default
    // Add more fields as needed
  ],
}

const usersOf = (collections: CollectionConfig[]) => {
  const config = cwaPlugin()({ collections } as Config)
  const users = config.collections!.filter((c) => c.slug === 'users')
  expect(users).toHaveLength(1)
  return users[0]!
}
const fieldNames = (collection: CollectionConfig) =>
  collection.fields.flatMap((field) => ('name' in field ? [field.name] : []))

describe("an app's own users collection", () => {
  it("is merged with the plugin's: username sign-in, roles, enabled, the plugin's access and hooks, its own table and fields", () => {
    const plugin = usersOf([])
    const afterChange = () => undefined
    const users = usersOf([
      {
        ...TemplateUsers,
        hooks: { afterChange: [afterChange] },
        fields: [{ name: 'displayName', type: 'text' }],
      },
    ])
    expect(users.auth).toMatchObject({ loginWithUsername: { allowEmailLogin: false, requireEmail: true } })
    expect(fieldNames(users)).toEqual([...fieldNames(plugin), 'displayName'])
    expect(fieldNames(users)).toEqual(expect.arrayContaining(['roles', 'enabled']))
    expect(Object.keys(users.access ?? {})).toEqual(Object.keys(plugin.access ?? {}))
    // The app's hook runs after the plugin's own (the write events' hook, added to every resource, comes last).
    const pluginAfterChange = plugin.hooks?.afterChange ?? []
    const merged = users.hooks?.afterChange ?? []
    expect(merged).toHaveLength(pluginAfterChange.length + 1)
    expect(merged[pluginAfterChange.length - 1]).toBe(afterChange)
    expect(merged.map((hook) => hook.name)).toEqual([
      ...pluginAfterChange.slice(0, -1).map((hook) => hook.name),
      'afterChange',
      pluginAfterChange.at(-1)!.name,
    ])
    expect(users.hooks?.beforeLogin?.length).toBe(plugin.hooks?.beforeLogin?.length)
    expect(users.admin?.useAsTitle).toBe('email')
    // The template's table, not the plugin's `_acb_users`: a database pushed or migrated with the template keeps it.
    expect(users.dbName).toBe('users')
    expect(plugin.dbName).toBe('_acb_users')
    expect(users.custom?.cwa).toEqual(plugin.custom?.cwa)
  })

  it('is refused at config time when it sets what the plugin sets itself, naming it', () => {
    const attempt = (collection: CollectionConfig) => () => usersOf([collection])
    expect(attempt({ ...TemplateUsers, access: { read: () => true } })).toThrow(
      /your `users` collection sets access\.read, .*Remove those from your collection/,
    )
    expect(attempt({ ...TemplateUsers, auth: { tokenExpiration: 60, verify: true } })).toThrow(
      /sets auth\.tokenExpiration,/,
    )
    expect(attempt({ ...TemplateUsers, fields: [{ name: 'roles', type: 'text' }] })).toThrow(/sets roles,/)
  })

  it("is kept as it is when built on the plugin's (its meta kept)", () => {
    const plugin = usersOf([])
    const own = { ...plugin, fields: [...plugin.fields, { name: 'nickname', type: 'text' as const }] }
    const users = usersOf([own])
    expect(fieldNames(users)).toEqual([...fieldNames(plugin), 'nickname'])
    expect(users.dbName).toBe('_acb_users')
  })
})
