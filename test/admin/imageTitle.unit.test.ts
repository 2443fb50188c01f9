import { describe, expect, it } from '@jest/globals'
import { imageTitle } from '../../collections/components'

/** Issue 23: the demo Image is named in the admin by its file name as uploaded, never by its storage token. */
describe('imageTitle', () => {
  it('drops the storage token and the extension, and reads - and _ as spaces', () => {
    expect(imageTitle({ filename: 'Harbour-view-0123456789ab.jpg' })).toBe('Harbour view')
    expect(imageTitle({ filename: 'images/sunset_over-the-bay-abcdef012345.webp' })).toBe('sunset over the bay')
  })

  it('reads nothing from a bare uuid (a data URI upload without a name): the alt text, else nothing', () => {
    expect(imageTitle({ filename: 'afb711e5-ebf0-4fa7-8f1d-0123456789ab.png', alt: 'A seeded picture' })).toBe(
      'A seeded picture',
    )
    expect(imageTitle({ filename: 'afb711e5-ebf0-4fa7-8f1d-0123456789ab.png' })).toBeNull()
    expect(imageTitle({ alt: '' })).toBeNull()
  })
})
