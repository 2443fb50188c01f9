import { adminOnly, defineFormType, length, persistSubmission, resolveOptions } from 'payload-cwa'
import type { CollectionConfig } from 'payload'

/** Reference site form types (reference-deployment.md, "Form types"). */

export const ExampleFormType = defineFormType({
  className: 'ExampleFormType',
  formName: 'example_form',
  fields: [
    { name: 'text', type: 'text' },
    { name: 'plainPassword', type: 'repeated', inner: 'password', required: true, label: 'Password' },
    {
      name: 'subject',
      type: 'choice',
      required: true,
      choices: ['', 'enquiry', 'other', '-'],
      constraints: [length({ min: 2 })],
    },
    { name: 'email', type: 'email', required: true },
    { name: 'message', type: 'textarea', required: true },
  ],
})

export const NewsletterFormType = defineFormType({
  className: 'NewsletterFormType',
  formName: 'newsletter_form',
  fields: [{ name: 'email', type: 'email', required: true }],
  // Each signup is stored as a NewsletterSignup record.
  onSubmit: persistSubmission('newsletter_signups'),
})

export const siteFormTypes = [ExampleFormType, NewsletterFormType]

/** Where NewsletterFormType's persisting success listener stores signups. */
export function newsletterSignups(tablePrefix: string): CollectionConfig {
  const admin = adminOnly(resolveOptions())
  return {
    slug: 'newsletter_signups',
    dbName: `${tablePrefix}newsletter_signups`,
    labels: { singular: 'Newsletter signup', plural: 'Newsletter signups' },
    admin: { useAsTitle: 'email', group: 'Form submissions', defaultColumns: ['email', 'createdAt'] },
    access: { read: admin, create: admin, update: admin, delete: admin },
    fields: [{ name: 'email', type: 'email', required: true }],
  }
}
