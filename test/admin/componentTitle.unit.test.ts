import { describe, expect, it } from '@jest/globals'
import { plainTitle } from '../../plugins/cwa/dist/features/admin/title.js'

/** Issue 40: a rich text's title in the builder and the lists, from its HTML, reads as the text does. */
describe('plainTitle', () => {
  it('takes inline markup out without parting words, and parts paragraphs and line breaks', () => {
    expect(plainTitle('<p>Hello from the <strong>page builder</strong>.</p><p>A second paragraph.</p>')).toBe(
      'Hello from the page builder. A second paragraph.',
    )
    expect(plainTitle('<p>Half<em>way</em> there<br>next line</p>')).toBe('Halfway there next line')
    expect(plainTitle('<h2>A <a href="/x">link</a>&nbsp;here</h2>')).toBe('A link here')
  })

  it('cuts a long text on a word, at 60 characters', () => {
    const title = plainTitle(`<p>${'word '.repeat(30)}</p>`)
    expect(title.length).toBeLessThanOrEqual(61)
    expect(title.endsWith('word…')).toBe(true)
  })
})
