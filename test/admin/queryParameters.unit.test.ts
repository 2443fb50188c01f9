/**
 * Issue 40, a record list's default query parameters edited as rows (admin/components/queryParameters.ts): the
 * API's object flattened to query-string names and rebuilt, the same object, nested objects and lists included.
 */
import { describe, expect, it } from '@jest/globals'
import { objectOf, rowsOf } from '../../plugins/cwa/dist/features/admin/components/queryParameters.js'

describe('default query parameters as rows', () => {
  it('flattens to query-string names and rebuilds the same object', () => {
    const value = { search: 'first', order: { title: 'asc', createdAt: 'desc' }, tags: ['a', 'b'] }
    const rows = rowsOf(value)
    expect(rows).toEqual([
      { name: 'search', value: 'first' },
      { name: 'order[title]', value: 'asc' },
      { name: 'order[createdAt]', value: 'desc' },
      { name: 'tags[]', value: 'a' },
      { name: 'tags[]', value: 'b' },
    ])
    expect(objectOf(rows)).toEqual(value)
  })

  it('gives null for no rows, leaves out rows without a name, and keeps an empty value', () => {
    expect(rowsOf(null)).toEqual([])
    expect(objectOf([])).toBeNull()
    expect(
      objectOf([
        { name: ' ', value: 'x' },
        { name: 'a[', value: 'y' },
      ]),
    ).toBeNull()
    expect(objectOf([{ name: 'search', value: '' }])).toEqual({ search: '' })
  })
})
