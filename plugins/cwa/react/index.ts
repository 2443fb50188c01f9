/** payload-cwa/react: render a resolved page (payload-cwa/client) with React, on the server or anywhere. */
export { Collection, cwaComponents, Form, HtmlContent, Image, mediaObjects, NavigationLink, Title } from './blocks.js'
export { CwaForm } from './CwaForm.js'
export { CwaPage, DefaultLayout, DefaultTemplate } from './CwaPage.js'
export type {
  CwaBlockProps,
  CwaBlockRenderer,
  CwaComponentMap,
  CwaComponentRenderers,
  CwaGroupRenderer,
  CwaLayoutProps,
  CwaPageProps,
  CwaTemplateProps,
} from './types.js'
