import { describe, expect, it } from '@jest/globals'
import { fieldLabel } from '../../plugins/cwa/dist/features/adminTitles/index.js'

/**
 * Issue 40, one name per thing: the page builder's rows, its add forms and "Publish page"'s refusals name a field as
 * the edit view beside them does. Payload labels a field that has no label of its own with its name in words
 * (`toWords`: "Html Content"); the library had three copies of its own rule, one of which said "Html content".
 */
describe('fieldLabel', () => {
  it("uses the field's own label when it is a string", () => {
    expect(fieldLabel({ name: 'htmlContent', type: 'textarea', label: 'Text from each record' }, 'htmlContent')).toBe(
      'Text from each record',
    )
  })

  it("names an unlabelled field as Payload's form does", () => {
    expect(fieldLabel({ name: 'htmlContent', type: 'textarea' }, 'htmlContent')).toBe('Html Content')
    expect(fieldLabel({ name: 'altText', type: 'text', label: '' }, 'altText')).toBe('Alt Text')
    // A property no field has (a binding to a type the registry does not know).
    expect(fieldLabel(undefined, 'summaryText')).toBe('Summary Text')
    // A label Payload translates (an object) is not a string to show as is.
    expect(fieldLabel({ name: 'title', label: { en: 'Title' } }, 'title')).toBe('Title')
  })
})
