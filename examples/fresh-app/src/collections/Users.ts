import type { CollectionConfig } from 'payload'

// Payload's blank template's users collection, as the template writes it: the plugin merges its own into it.
export const Users: CollectionConfig = {
  slug: 'users',
  admin: {
    useAsTitle: 'email',
  },
  auth: true,
  fields: [
    // Email added by default
    // Add more fields as needed
  ],
}
