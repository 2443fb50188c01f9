import { defineComponent, definePageData } from 'payload-cwa'

// A component type: served at /_api/component/quotes with @type "Quote".
export const Quote = defineComponent({
  shortName: 'Quote',
  timestamped: true, // adds createdAt and modifiedAt
  fields: [
    { name: 'text', type: 'textarea', required: true },
    { name: 'author', type: 'text' },
  ],
})

// A page data type: served at /_api/page_data/event_datas, rendered through a template Page.
export const EventData = definePageData({
  shortName: 'EventData',
  search: ['title', 'venue'],
  order: ['title', 'startsAt'],
  defaultOrder: { startsAt: 'asc' },
  itemsPerPage: 10,
  fields: [
    { name: 'venue', type: 'text' },
    { name: 'startsAt', type: 'date' },
    { name: 'quote', type: 'relationship', relationTo: 'quotes' }, // bindable by dynamic positions
  ],
})
